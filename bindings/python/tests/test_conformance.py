"""The upstream strategic merge patch corpus (`tests/conformance/upstream`, see its FORMAT.md)
through the package, with the test schemas as smp records them (`tests/conformance/schemas`),
in both OpenAPI variants: two-way and three-way creation and their application, apply-only
cases and their errors.

Left out, because they test Go or the harness rather than a function of this package: the
`struct` variant (Go reflection), the ordering step itself (`sort-merge-list.json`; the cases
use its precomputed output, `upstreamSorted`), `has-conflicts.json` (a helper kubectl does not
expose), and `bad-arguments.json`'s Go-only schema variants. Its other cases hand the functions text that
is not JSON: the package reads text as JSON or YAML, and `<THIS IS NOT JSON>` is a YAML string,
so it is refused as a document that is not an object instead of as invalid JSON. The exact-text tables
(`number-conversion.json`, `unknown-field.json`) are compared as parsed documents, as
FORMAT.md §2.3 allows for a harness that does not print Go's text.
"""

import json

import pytest

import smp
from conftest import REPO

CORPUS = REPO / "tests" / "conformance" / "upstream"
SCHEMAS = REPO / "tests" / "conformance" / "schemas"
VARIANTS = ["openapiV2", "openapiV3"]
FILES = [
    "two-and-three-way.json",
    "raw-cases.json",
    "raw-extension.json",
    "custom-apply.json",
    "number-conversion.json",
    "unknown-field.json",
    "bad-arguments.json",
]


def load(name):
    return json.loads((CORPUS / name).read_text())


def gaps():
    """Cases listed as known gaps: `<suite> <variant> <id>` lines (FORMAT of known-gaps.txt)."""
    listed = set()
    for line in (REPO / "tests" / "conformance" / "known-gaps.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            listed.add(line.split()[-1])
    return listed


_schemas = {}


def schema(name, variant):
    key = (name, variant)
    if key not in _schemas:
        _schemas[key] = smp.Schema.from_openapi((SCHEMAS / f"{name}.{variant}.json").read_text(), name)
    return _schemas[key]


def cases():
    for file in FILES:
        data = load(file)
        for case in data["cases"]:
            variants = case.get("schemaVariants", data.get("schemaVariants", VARIANTS))
            for variant in VARIANTS:
                if variant in variants:
                    yield pytest.param(file, case, variant, id=f"{case['id']}-{variant}")


def document(case, name):
    """A prepared document (FORMAT §2.2, §7): the ordered form when the case asks for it,
    `{}` for an absent input."""
    if case.get("sortInputs") and name in case.get("upstreamSorted", {}):
        return case["upstreamSorted"][name]
    if "text" in case and name in case["text"]:
        return case["text"][name]
    return case.get(name)


def expected(case, name):
    value = document(case, name)
    return json.loads(value) if isinstance(value, str) else value


@pytest.mark.parametrize("file,case,variant", list(cases()))
def test_case(file, case, variant):
    if case["id"] in gaps():
        pytest.skip("listed in tests/conformance/known-gaps.txt")
    s = schema(case["schema"], variant)
    ops = case["operations"]
    original = document(case, "original")
    modified = document(case, "modified")
    current = document(case, "current")
    if "apply" in ops:
        patch = document(case, "patch") if "patch" in case or "patch" in case.get("text", {}) else document(case, "twoWay")
        error = case.get("expectedError")
        if error is not None:
            with pytest.raises(smp.SmpError) as raised:
                smp.merge(original, patch, schema=s)
            if file == "bad-arguments.json":
                assert isinstance(raised.value, smp.PatchError)
                assert "must be an object, not string" in str(raised.value)
            else:
                assert error in str(raised.value)
            return
        want = expected(case, "twoWayResult") if document(case, "twoWayResult") is not None else expected(case, "modified")
        assert smp.merge(original, patch, schema=s) == want
        return
    if "createTwoWay" in ops:
        try:
            two = smp.diff(original, modified, schema=s)
        except smp.SmpError as e:
            two_error = case.get("expectedTwoWayError")
            assert two_error is not None and two_error in str(e), str(e)
            two = None
        if two is not None:
            assert two == expected(case, "twoWay")
            if "applyTwoWay" in ops or file in ("number-conversion.json", "unknown-field.json"):
                error = case.get("expectedError")
                if error is not None:
                    with pytest.raises(smp.SmpError, match=None) as raised:
                        smp.merge(original, two, schema=s)
                    assert error in str(raised.value)
                else:
                    want = expected(case, "twoWayResult")
                    if want is None:
                        want = expected(case, "modified")
                    assert smp.merge(original, two, schema=s) == want
    if "createThreeWay" in ops:
        if case.get("expectConflict"):
            with pytest.raises(smp.Conflict):
                smp.three_way(original, modified, current, overwrite=False, schema=s)
            if "createThreeWayOverwrite" not in ops:
                return
            three = smp.three_way(original, modified, current, overwrite=True, schema=s)
        else:
            try:
                three = smp.three_way(original, modified, current, overwrite=False, schema=s)
            except smp.SmpError as e:
                three_error = case.get("expectedThreeWayError")
                assert three_error is not None and three_error in str(e), str(e)
                return
        assert three == expected(case, "threeWay")
        if "applyThreeWay" in ops or file == "unknown-field.json":
            assert smp.merge(current, three, schema=s) == expected(case, "result")
