#!/usr/bin/env python3
"""Summarise `cargo bench -p smp-core`: every figure against the Go reference on the same work,
apply_json against the floor measured in the same run, and the targets of issue 15.

    python3 smp-core/benches/report.py [CRITERION_DIR] [--strict]

CRITERION_DIR defaults to $CARGO_TARGET_DIR/criterion, else target/criterion at the repository
root. With --strict the exit status is 1 when a target is missed. Standard library only.

The Go figures are the reference measured on a 2-core machine of the kind CI runs on, on the
same fixtures (k8s.io/apimachinery strategicpatch v0.32.13 with k8s.io/api v0.32.13, Go 1.23.5,
medians). Like is compared with like: a Go map-in-memory figure with smp's in-memory rows, a Go
bytes-to-bytes figure with smp's bytes rows (parse, patch, print).
"""
import json
import os
import sys
from pathlib import Path

US = 1_000
MS = 1_000_000

# (benchmark id, Go median in ns, what is compared, the speed-up wanted over Go or None).
ROWS = [
    ("apply/pod50/in-memory/smp", 198 * US, "apply, maps in memory, Value", 10),
    ("typed/pod50/image/typed", 198 * US, "apply, in memory, typed", 50),
    ("apply/pod50/bytes/smp", 1.52 * MS, "apply, bytes, Value", None),
    ("apply/pod50/bytes/smp-sparse", 1.52 * MS, "apply, bytes, apply_json", 10),
    ("apply/pod3/bytes/smp", 102 * US, "apply, bytes, pod3, Value", None),
    ("apply/pod3/bytes/smp-sparse", 102 * US, "apply, bytes, pod3, apply_json", 10),
    ("diff/pod50-image/in-memory/value", 1.18 * MS, "diff one image, maps, Value", 10),
    ("diff/pod50-image/in-memory/typed", 1.18 * MS, "diff one image, typed", 50),
    ("diff/pod50-many/in-memory/value", 1.43 * MS, "diff many fields, maps, Value", 10),
    ("diff/pod50-many/in-memory/typed", 1.43 * MS, "diff many fields, typed", 50),
    ("diff/pod50-image/bytes/value", 3.28 * MS, "diff one image, bytes, Value", None),
    ("diff/pod50-image/bytes/sparse", 3.28 * MS, "diff one image, bytes, diff_json", 10),
    ("diff/pod50-image/bytes/typed", 3.28 * MS, "diff one image, bytes, typed", None),
    ("diff/pod50-many/bytes/value", 3.68 * MS, "diff many fields, bytes, Value", None),
    ("diff/pod50-many/bytes/sparse", 3.68 * MS, "diff many fields, bytes, diff_json", 10),
    ("diff/pod50-many/bytes/typed", 3.68 * MS, "diff many fields, bytes, typed", None),
    ("three-way-overwrite/pod50-image/bytes/value", 5.96 * MS, "three-way overwrite, bytes, Value", None),
    ("three-way-overwrite/pod50-image/bytes/sparse", 5.96 * MS, "three-way overwrite, bytes, three_way_json", 10),
    ("three-way-refuse/pod50-image/bytes/value", 9.08 * MS, "three-way refuse, bytes, Value", None),
    ("three-way-refuse/pod50-image/bytes/sparse", 9.08 * MS, "three-way refuse, bytes, three_way_json", 10),
]

# apply_json may take at most this multiple of the floor measured beside it.
FLOOR_TARGET = 1.5


def criterion_dir(args):
    if args:
        return Path(args[0])
    target = os.environ.get("CARGO_TARGET_DIR")
    if target:
        return Path(target) / "criterion"
    return Path(__file__).resolve().parents[2] / "target" / "criterion"


def load(root):
    """{full_id: median ns} for every benchmark with a `new` estimate under root."""
    medians = {}
    for estimates in root.glob("**/new/estimates.json"):
        meta_file = estimates.with_name("benchmark.json")
        try:
            meta = json.loads(meta_file.read_text())
            est = json.loads(estimates.read_text())
            medians[meta["full_id"]] = float(est["median"]["point_estimate"])
        except (OSError, KeyError, ValueError) as e:
            print(f"skipping {estimates}: {e}", file=sys.stderr)
    return medians


def fmt_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def main(argv):
    strict = "--strict" in argv
    args = [a for a in argv if a != "--strict"]
    root = criterion_dir(args)
    medians = load(root)
    if not medians:
        print(f"no criterion results under {root}; run `cargo bench -p smp-core` first")
        return 1

    missed = []
    table = [("work", "smp", "Go", "faster by", "target")]
    for full_id, go, what, want in ROWS:
        ns = medians.get(full_id)
        if ns is None:
            continue
        speedup = go / ns
        verdict = ""
        if want:
            ok = speedup >= want
            verdict = f"≥{want}x {'ok' if ok else 'MISSED'}"
            if not ok:
                missed.append(f"{what}: {speedup:.1f}x Go, want ≥{want}x")
        table.append((what, fmt_time(ns), fmt_time(go), f"{speedup:.1f}x", verdict))

    for pod in ("pod3", "pod50"):
        ns = medians.get(f"apply/{pod}/bytes/smp-sparse")
        floor = medians.get(f"apply/{pod}/bytes/floor")
        if ns and floor:
            ratio = ns / floor
            ok = ratio <= FLOOR_TARGET
            table.append((f"apply_json {pod} / floor ({fmt_time(floor)})", fmt_time(ns), "",
                          f"{ratio:.2f}x the floor", f"≤{FLOOR_TARGET}x {'ok' if ok else 'MISSED'}"))
            if not ok:
                missed.append(f"apply_json {pod}: {ratio:.2f}x the floor")

    for mode in ("overwrite", "refuse"):
        typed = medians.get(f"three-way-{mode}/pod50-image/in-memory/typed")
        value = medians.get(f"three-way-{mode}/pod50-image/in-memory/value")
        if typed and value:
            ok = typed <= value
            table.append((f"three-way {mode}, typed vs Value, in memory", fmt_time(typed),
                          "", f"Value {fmt_time(value)}", f"≤ Value {'ok' if ok else 'MISSED'}"))
            if not ok:
                missed.append(f"typed three-way {mode}: {fmt_time(typed)}, Value {fmt_time(value)}")

    widths = [max(len(r[i]) for r in table) for i in range(5)]
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    print("\nevery benchmark (medians):")
    for full_id in sorted(medians):
        print(f"  {full_id:55} {fmt_time(medians[full_id])}")
    if missed:
        print("\ntargets missed:")
        for m in missed:
            print(f"  {m}")
    return 1 if strict and missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
