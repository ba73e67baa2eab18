"""Strategic merge patches: built-in kinds by their apiVersion/kind, untyped documents, inputs
as dicts, text and bytes, and the errors."""

import copy
import json
import threading

import pytest
import yaml

import smp
from conftest import example


def deployment():
    return yaml.safe_load(example("deployment.yaml"))


def containers(doc):
    return {c["name"]: c for c in doc["spec"]["template"]["spec"]["containers"]}


def test_the_examples_patch_as_kubectl_patches_them():
    original = deployment()
    before = copy.deepcopy(original)
    patched = smp.merge(original, yaml.safe_load(example("deployment-patch.yaml")))
    assert original == before, "the input is not changed"
    app = containers(patched)["app"]
    assert app["image"] == "registry.example.com/shop/web:2.4.0"
    env = {e["name"]: e.get("value") for e in app["env"]}
    assert env["FEATURE_FLAGS"] == "fast-checkout"
    assert len(env) > 1, "env merges by name: the other variables stay"
    assert "log-shipper" not in containers(patched), "$patch: delete removes the container"
    assert patched["spec"]["strategy"] == {"type": "Recreate"}, "$retainKeys drops rollingUpdate"
    volumes = {v["name"]: v for v in patched["spec"]["template"]["spec"]["volumes"]}
    assert volumes["tmp"]["emptyDir"]["medium"] == "Memory"
    assert volumes["tmp"]["emptyDir"]["sizeLimit"] == "1Gi", "maps merge: sizeLimit stays"
    assert "shop.example.com/drain" in patched["metadata"]["finalizers"]


def test_text_and_bytes_read_as_json_or_yaml():
    from_dicts = smp.merge(deployment(), yaml.safe_load(example("deployment-patch.yaml")))
    from_text = smp.merge(example("deployment.yaml"), example("deployment-patch.yaml"))
    from_bytes = smp.merge(
        json.dumps(deployment()).encode(), example("deployment-patch.yaml").encode()
    )
    assert from_text == from_dicts
    assert from_bytes == from_dicts


def test_lists_merge_by_their_key_only_where_the_kind_says_so():
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "spec": {"containers": [{"name": "a", "image": "a:1"}, {"name": "b", "image": "b:1"}]},
    }
    patch = {"spec": {"containers": [{"name": "b", "image": "b:2"}]}}
    merged = smp.merge(pod, patch)
    assert merged["spec"]["containers"] == [
        {"name": "a", "image": "a:1"},
        {"name": "b", "image": "b:2"},
    ]
    # Without apiVersion/kind there is no schema: lists are replaced, as a JSON merge patch does.
    bare = {k: v for k, v in pod.items() if k not in ("apiVersion", "kind")}
    assert smp.merge(bare, patch)["spec"]["containers"] == [{"name": "b", "image": "b:2"}]
    # ...unless the kind is given.
    for kind in ("v1/Pod", ("v1", "Pod")):
        assert smp.merge(bare, patch, kind=kind)["spec"]["containers"] == merged["spec"]["containers"]


def test_a_schema_from_an_openapi_document():
    schema = smp.Schema.from_openapi(example("pod-schema.json"), "io.k8s.api.core.v1.Pod")
    merged = smp.merge(
        {"spec": {"containers": [{"name": "a", "image": "a:1"}]}},
        {"spec": {"containers": [{"name": "b", "image": "b:1"}]}},
        schema=schema,
    )
    assert [c["name"] for c in merged["spec"]["containers"]] == ["b", "a"]
    with pytest.raises(smp.SchemaError):
        smp.Schema.from_openapi(example("pod-schema.json"), "no.such.Definition")


def test_errors_name_the_json_path():
    pod = {"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "a"}]}}
    with pytest.raises(smp.PatchError) as raised:
        smp.merge(pod, {"spec": {"containers": [{"image": "no-name"}]}})
    assert raised.value.path is not None and "containers" in raised.value.path
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, smp.SmpError)


def test_values_that_are_not_json_are_refused_with_their_path():
    with pytest.raises(smp.PatchError, match=r"at a\.b\[1\]"):
        smp.merge({}, {"a": {"b": [1, object()]}})
    with pytest.raises(smp.PatchError, match="keys are strings"):
        smp.merge({}, {1: "x"})
    with pytest.raises(smp.PatchError, match="float"):
        smp.merge({}, {"a": float("nan")})
    with pytest.raises(smp.PatchError, match="64-bit"):
        smp.merge({}, {"a": 2**70})
    with pytest.raises(smp.PatchError, match="must be an object"):
        smp.merge([1], {})
    with pytest.raises(smp.PatchError):
        smp.merge("a: [", {})
    with pytest.raises(TypeError):
        smp.merge(object(), {})


def test_deep_and_self_containing_values_are_errors_not_crashes():
    deep = {}
    node = deep
    for _ in range(100_000):
        node["a"] = {}
        node = node["a"]
    with pytest.raises(smp.PatchError, match="nested more than"):
        smp.merge({}, deep)
    loop = {}
    loop["self"] = loop
    with pytest.raises(smp.PatchError, match="nested more than"):
        smp.merge({}, loop)


def test_numbers_booleans_and_none_cross_as_they_are():
    patched = smp.merge(
        {"a": 1, "b": 1.5, "c": True, "d": "x", "e": 2**63},
        {"f": None, "g": -(2**63), "h": [1, 2.5, False, None, "s"], "i": (1, 2)},
    )
    assert patched == {
        "a": 1,
        "b": 1.5,
        "c": True,
        "d": "x",
        "e": 2**63,
        "g": -(2**63),
        "h": [1, 2.5, False, None, "s"],
        "i": [1, 2],
    }
    assert isinstance(patched["c"], bool) and isinstance(patched["a"], int)


def test_calls_from_many_threads_agree():
    original = deployment()
    patch = yaml.safe_load(example("deployment-patch.yaml"))
    want = smp.merge(original, patch)
    results = []

    def work():
        for _ in range(50):
            results.append(smp.merge(original, patch) == want)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 200 and all(results)
