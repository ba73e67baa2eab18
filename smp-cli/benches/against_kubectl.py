#!/usr/bin/env python3
"""`smp patch` against `kubectl patch --local` on 2,000 Pods, the two alternating in one run.

Inputs, written to a temporary directory: a `kind: List` of 2,000 copies of the pod3 fixture as
JSON, and the same Pods as a YAML stream (printed by `smp patch -o yaml` with an empty patch, in
kubectl's layout); the pod3 image patch from a file for both tools. Each case runs each tool N
times (default 5), output to /dev/null, and reports the medians, their ratio and smp's peak
memory (maximum resident set size, from wait4).

    cargo build --release -p smp-cli
    python3 smp-cli/benches/against_kubectl.py [N]

kubectl is taken from SMP_KUBECTL or PATH; without it only smp's figures are printed. Standard
library only.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "smp-core", "benches", "fixtures")
SMP = os.path.join(ROOT, "target", "release", "smp")


def run(command):
    """Wall time in seconds and peak memory in KiB of one run, output discarded."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit(f"failed: {' '.join(command)}")
    return time.perf_counter() - start, usage.ru_maxrss


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    kubectl = os.environ.get("SMP_KUBECTL") or shutil.which("kubectl")
    work = tempfile.mkdtemp(prefix="smp-vs-kubectl-")
    with open(os.path.join(FIXTURES, "pod3.json")) as f:
        pod = json.load(f)
    list_json = os.path.join(work, "list.json")
    with open(list_json, "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": [pod] * 2000}, f)
    pods_yaml = os.path.join(work, "pods.yaml")
    with open(pods_yaml, "w") as f:
        subprocess.run([SMP, "patch", "-f", list_json, "-p", "{}", "-o", "yaml"], stdout=f, check=True)
    patch = os.path.join(FIXTURES, "pod3-image-patch.json")
    print(f"inputs: {os.path.getsize(list_json)} bytes of JSON, {os.path.getsize(pods_yaml)} of YAML")
    cases = [
        ("JSON -> JSON", list_json, "json"),
        ("JSON -> YAML", list_json, "yaml"),
        ("YAML -> JSON", pods_yaml, "json"),
        ("YAML -> YAML", pods_yaml, "yaml"),
    ]
    for name, source, output in cases:
        smp = [SMP, "patch", "-f", source, "--patch-file", patch, "-o", output]
        kube = [kubectl, "patch", "--local", "-f", source, "--patch-file", patch, "-o", output]
        times, peaks, kube_times = [], [], []
        for _ in range(runs):
            seconds, peak = run(smp)
            times.append(seconds)
            peaks.append(peak)
            if kubectl:
                kube_times.append(run(kube)[0])
        line = (
            f"{name}: smp {statistics.median(times) * 1000:.1f} ms "
            f"(peak {statistics.median(peaks) / 1024:.1f} MB, "
            f"{statistics.median(peaks) * 1024 / os.path.getsize(source):.1f}x the input)"
        )
        if kube_times:
            ratio = statistics.median(kube_times) / statistics.median(times)
            line += f"; kubectl {statistics.median(kube_times) * 1000:.0f} ms; {ratio:.1f}x"
        print(line, flush=True)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
