"""What smp's Python package costs per call, beside what Python users do today.

    python bench/compare.py            # from bindings/python, with the wheel installed

Rows, on the benchmark Pods of the shared data (`bench/pod3*.json`, `pod50*.json`: 3 and 50
containers):
- `merge`, the image patch: smp on dicts, smp on JSON text, and `kubectl patch --local` run
  as a subprocess (what a Python program without smp can do to get the server's answer);
- `three_way` (last applied, new configuration, live object): smp, and the client-side
  three-way merge of Ansible's kubernetes.core collection (`module_utils.apply.merge`, from
  the `ansible` package), which merges lists by a fixed table of merge keys;
- `apply` (client-side, with the last-applied annotation): smp, and kubernetes.core's
  `apply_patch`;
- the crossing: `merge({}, {})`, and merging an empty patch into each Pod (the documents
  converted into Rust and back, nearly no merge).

Each figure is the median of 7 repeats of a timeit loop sized to about 0.2 s, per call, in one
run. Rows whose tool is missing (ansible, kubectl) say so. It also reports where kubernetes.core's
answers differ from smp's (which are kubectl's). A benchmark, not a test.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import timeit

import smp

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[2]
SHARED = pathlib.Path(os.environ.get("SMP_SHARED_DIR", REPO.parent / "shared"))
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


def fixture(name):
    path = SHARED / "bench" / name
    if not path.exists():
        sys.exit(f"the benchmark Pods are not at {path.parent}: set SMP_SHARED_DIR")
    return json.loads(path.read_text())


def per_call(fn):
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    number = max(1, number)
    runs = timer.repeat(repeat=7, number=number)
    return statistics.median(runs) / number


def fmt(seconds):
    if seconds is None:
        return "n/a"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def kernel_core():
    try:
        from ansible_collections.kubernetes.core.plugins.module_utils import apply
    except ImportError:
        return None
    return apply


def kubectl_patch(tmp, pod, patch):
    kubectl = os.environ.get("SMP_KUBECTL") or shutil.which("kubectl")
    if not kubectl:
        return None
    path = pathlib.Path(tmp) / "pod.json"
    path.write_text(json.dumps(pod))
    patch_text = json.dumps(patch)

    def run():
        out = subprocess.run(
            [kubectl, "patch", "--local", "-f", str(path), "--type", "strategic", "-p",
             patch_text, "-o", "json"],
            check=True, capture_output=True,
        )
        return json.loads(out.stdout)

    return run


def annotated(doc, config):
    out = json.loads(json.dumps(doc))
    meta = out.setdefault("metadata", {})
    meta.setdefault("annotations", {})[LAST_APPLIED] = json.dumps(
        config, separators=(",", ":"), sort_keys=True
    )
    return out


def differences(a, b, path=""):
    """Paths where two documents differ (at most a few)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                out.append(f"{path}.{key}")
            else:
                out.extend(differences(a[key], b[key], f"{path}.{key}"))
        return out
    if a != b:
        return [path or "."]
    return []


def main():
    core = kernel_core()
    rows = []
    notes = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in ("pod3", "pod50"):
            pod = fixture(f"{size}.json")
            image_patch = fixture(f"{size}-image-patch.json")
            modified = fixture(f"{size}-many-modified.json")
            current = fixture(f"{size}-current.json")
            pod_text = json.dumps(pod)
            patch_text = json.dumps(image_patch)

            rows.append((f"merge, {size} image patch", "smp (dicts)",
                         per_call(lambda: smp.merge(pod, image_patch))))
            rows.append(("", "smp (JSON text in)",
                         per_call(lambda: smp.merge(pod_text, patch_text))))
            run_kubectl = kubectl_patch(tmp, pod, image_patch)
            if run_kubectl:
                assert run_kubectl() == smp.merge(pod, image_patch), "kubectl and smp disagree"
                rows.append(("", "kubectl patch --local (subprocess)", per_call(run_kubectl)))
            else:
                rows.append(("", "kubectl patch --local (subprocess)", None))
                notes.append("kubectl not found: its rows are empty")

            three = smp.three_way(pod, modified, current)
            rows.append((f"three-way, {size} many fields", "smp",
                         per_call(lambda: smp.three_way(pod, modified, current))))
            live = annotated(current, pod)
            applied = smp.apply(live, modified)
            rows.append((f"client-side apply, {size}", "smp",
                         per_call(lambda: smp.apply(live, modified))))
            if core:
                theirs = core.merge(pod, modified, current)
                rows.insert(-1, ("", "kubernetes.core merge (Ansible)",
                                 per_call(lambda: core.merge(pod, modified, current))))
                rows.append(("", "kubernetes.core apply_patch (Ansible)",
                             per_call(lambda: core.apply_patch(live, modified))))
                ours_result = smp.merge(current, three)
                theirs_result = smp.merge(current, theirs)
                diff = differences(ours_result, theirs_result)
                if diff:
                    notes.append(
                        f"{size} three-way: kubernetes.core's patch gives a different object at "
                        + ", ".join(diff[:5]) + (" ..." if len(diff) > 5 else "")
                    )
                else:
                    same = "the same patch" if theirs == three else "a different patch, the same object"
                    notes.append(f"{size} three-way: kubernetes.core gives {same}")
                _, their_patch = core.apply_patch(live, modified)
                diff = differences(smp.merge(live, their_patch), applied.result)
                if diff:
                    notes.append(
                        f"{size} apply: kubernetes.core's object differs at "
                        + ", ".join(diff[:5]) + (" ..." if len(diff) > 5 else "")
                    )
            else:
                notes.append("ansible not installed: kubernetes.core rows are empty")

            rows.append((f"crossing, {size}", "merge of an empty patch",
                         per_call(lambda: smp.merge(pod, {}))))
    rows.append(("crossing", "merge({}, {})", per_call(lambda: smp.merge({}, {}))))

    print(f"Python {sys.version.split()[0]}, smp {smp.KUBERNETES_VERSION}, per call (median of 7):")
    print()
    print("| work | how | per call |")
    print("|---|---|---|")
    for work, how, t in rows:
        print(f"| {work} | {how} | {fmt(t)} |")
    print()
    for note in dict.fromkeys(notes):
        print(f"- {note}")


if __name__ == "__main__":
    main()
