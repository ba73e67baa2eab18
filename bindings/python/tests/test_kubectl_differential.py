"""The package against kubectl: for an object of every kind in `examples/manifests`, random
changes make a new version, `smp.diff` makes the patch, and `smp.merge` must give what
`kubectl patch --local --type strategic` gives for the same object and patch.

kubectl prints an object through its Go types (`creationTimestamp: null`, fields in their
order, values as Go writes them); `smp.merge` returns the merged document as it is. So smp's
result is printed by kubectl too, patched with `{}`, and the two printed objects must be equal.
Kinds that kubectl does not patch locally (its scheme lacks them: CRDs, APIService, the
`resource.k8s.io/v1` kinds, VolumeAttributesClass) are those where even `{}` fails; they are
left out, and listed by the test that checks the run covered the others.

kubectl is `$SMP_KUBECTL`, else the one `.ci/install-kubectl` installs, else `PATH`'s; a
version other than v1.32 or v1.33 skips the test, saying so.
"""

import concurrent.futures
import copy
import json
import os
import pathlib
import random
import re
import shutil
import subprocess
import tempfile
import zlib

import pytest
import yaml

import smp
from conftest import EXAMPLES

CASES_PER_KIND = 4
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")

# Where kubectl fails and smp merges: differences documented in smp-core's `differences` guide
# (and left out of the Rust differential for the same reasons), by kubectl's message.
KNOWN = {
    "unable to find api field": "an unknown field's object or list merged (RawExtension's content)",
    "data type is not struct, instead is: map": "a list in a map of lists (CSR spec.extra)",
}
# Identity and the usual merge keys: a list item without its merge key is no patch at all.
PROTECTED = {"apiVersion", "kind", "name", "namespace", "containerPort", "port", "mountPath",
             "devicePath", "ip", "type", "topologyKey", "whenUnsatisfiable", "protocol"}


def kubectl_binary():
    for candidate in (
        os.environ.get("SMP_KUBECTL"),
        str(pathlib.Path.home() / ".cache" / "smp" / "kubectl" / "kubectl"),
        shutil.which("kubectl"),
    ):
        if candidate and os.path.isfile(candidate):
            return candidate
    return None


# The kubectl minors whose differences from smp are known and listed (as for the Rust
# differential, smp-cli/tests/kubectl_differential): another version's results may differ.
SUPPORTED_MINORS = (32, 33)


def kubectl_minor(binary):
    out = subprocess.run([binary, "version", "--client", "-o", "json"], capture_output=True, text=True)
    minor = json.loads(out.stdout or "{}").get("clientVersion", {}).get("minor", "")
    digits = re.match(r"\d+", minor)
    return int(digits.group()) if digits else None


KUBECTL = kubectl_binary()
SKIP = None
if KUBECTL is None:
    SKIP = "kubectl not found (SMP_KUBECTL, .ci/install-kubectl, PATH): not run"
elif kubectl_minor(KUBECTL) not in SUPPORTED_MINORS:
    SKIP = f"kubectl {KUBECTL} is v1.{kubectl_minor(KUBECTL)}, not v1.32 or v1.33: not run"
pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


def kubectl_patch(doc, patch):
    """kubectl's output for `doc` patched with `patch`, or its error text."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(doc, f)
    try:
        out = subprocess.run(
            [KUBECTL, "patch", "--local", "-f", f.name, "--type", "strategic", "-p",
             json.dumps(patch), "-o", "json"],
            capture_output=True, text=True, timeout=60,
        )
    finally:
        os.unlink(f.name)
    if out.returncode != 0:
        return None, out.stderr.strip()
    return json.loads(out.stdout), None


def leaves(doc, path=()):
    """(container, key) of every scalar, every map key and every list, depth first."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield doc, key, path + (key,)
            yield from leaves(value, path + (key,))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield doc, i, path + (i,)
            yield from leaves(value, path + (i,))


def changed_scalar(value, rng):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.randint(1, 5)
    if isinstance(value, str) and TIME.match(value):
        # A time stays a time: kubectl decodes it into a Go time.
        return f"20{rng.randint(10, 29)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T08:00:00Z"
    if isinstance(value, str):
        return value + "-" + rng.choice(["x", "y", "z"])
    return value


def mutate(doc, rng):
    """A new version of `doc`: one to four random changes of values, map keys and list items."""
    new = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 4)):
        spots = [s for s in leaves(new) if not (isinstance(s[1], str) and s[1] in PROTECTED)]
        if not spots:
            break
        container, key, _ = rng.choice(spots)
        value = container[key]
        action = rng.random()
        if isinstance(value, list) and value and action < 0.5:
            items = value
            if isinstance(items[0], dict) and "name" in items[0]:
                extra = copy.deepcopy(rng.choice(items))
                extra["name"] = f"{extra['name']}-{rng.randint(0, 99)}"
                items.insert(rng.randint(0, len(items)), extra)
            elif len(items) > 1:
                i, j = rng.sample(range(len(items)), 2)
                items[i], items[j] = items[j], items[i]
            else:
                items.append(copy.deepcopy(items[0]))
        elif isinstance(container, dict) and action < 0.7:
            del container[key]
        elif isinstance(container, list) and action < 0.7 and len(container) > 1:
            del container[key]
        elif not isinstance(value, (dict, list)):
            container[key] = changed_scalar(value, rng)
    return new


def manifests():
    for path in sorted(EXAMPLES.glob("manifests/*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if isinstance(doc, dict) and doc.get("kind"):
                yield path.name, doc


def run_case(name, doc, seed):
    """None when smp and kubectl agree; else what differed."""
    rng = random.Random(seed)
    for _ in range(10):
        new = mutate(doc, rng)
        try:
            patch = smp.diff(doc, new)
            break
        except smp.PatchError:
            # A change that breaks the kind's rules (a merge key gone): no patch; try again.
            continue
    else:
        return f"{name} seed {seed}: no patchable change in 10 tries"
    theirs, their_error = kubectl_patch(doc, patch)
    try:
        ours = smp.merge(doc, patch)
    except smp.PatchError as e:
        return None if their_error else f"{name} seed {seed}: smp failed ({e}), kubectl did not"
    if their_error:
        for message, what in KNOWN.items():
            if message in their_error:
                return ("known", what)
        return f"{name} seed {seed}: kubectl failed ({their_error}), smp did not\npatch: {json.dumps(patch)}"
    printed, error = kubectl_patch(ours, {})
    if error:
        return f"{name} seed {seed}: kubectl cannot print smp's result: {error}"
    if printed != theirs:
        return f"{name} seed {seed}: results differ\npatch: {json.dumps(patch)}"
    return None


def patchable():
    """The kinds kubectl patches locally, and the others."""
    kinds, refused = [], []
    for name, doc in manifests():
        _, error = kubectl_patch(doc, {})
        (refused if error else kinds).append((name, doc))
    return kinds, refused


def test_smp_merges_as_kubectl_patches_every_kind():
    kinds, refused = patchable()
    assert len(kinds) >= 40, f"kubectl patched only {len(kinds)} kinds; refused {[n for n, _ in refused]}"
    cases = [(name, doc, zlib.crc32(f"{name}/{i}".encode())) for name, doc in kinds for i in range(CASES_PER_KIND)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(lambda c: run_case(*c), cases))
    known = [o for o in outcomes if isinstance(o, tuple)]
    failures = [o for o in outcomes if isinstance(o, str)]
    assert not failures, f"{len(failures)} of {len(cases)} cases differ:\n" + "\n".join(failures[:5])
    assert len(known) <= len(cases) // 10, f"too many known differences: {known}"
    print(f"{len(cases) - len(known)} of {len(cases)} cases agree with kubectl; "
          f"{len(known)} are documented differences; kinds kubectl refuses: {[n for n, _ in refused]}")
