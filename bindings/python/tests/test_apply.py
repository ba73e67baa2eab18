"""Patches kubectl creates: two-way diffs, the three-way patch of `kubectl apply`, client-side
apply with its annotation, and union normalization."""

import json

import pytest
import yaml

import smp
from conftest import example

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


def pod(*containers, **meta):
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", **meta},
        "spec": {"containers": [{"name": n, "image": i} for n, i in containers]},
    }


def test_diff_then_merge_gives_the_modified_document():
    original = pod(("a", "a:1"), ("b", "b:1"))
    modified = pod(("b", "b:2"), ("c", "c:1"))
    patch = smp.diff(original, modified)
    assert patch["spec"]["$setElementOrder/containers"] == [{"name": "b"}, {"name": "c"}]
    assert {"name": "a", "$patch": "delete"} in patch["spec"]["containers"]
    assert smp.merge(original, patch) == modified


def test_three_way_keeps_what_others_set_and_deletes_what_the_configuration_dropped():
    last = {"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "1", "b": "2"}}
    config = {"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "1", "c": "3"}}
    live = {"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "9", "b": "2", "x": "y"}}
    patch = smp.three_way(last, config, live)
    assert patch == {"data": {"a": "1", "b": None, "c": "3"}}
    with pytest.raises(smp.Conflict) as raised:
        smp.three_way(last, config, live, overwrite=False)
    assert raised.value.paths and raised.value.managers == []


def test_client_side_apply_records_the_configuration_it_applied():
    desired = yaml.safe_load(example("apply-config/desired.yaml"))
    live = yaml.safe_load(example("apply-config/live.yaml"))
    patch, result = smp.apply(live, desired)
    annotation = result["metadata"]["annotations"][LAST_APPLIED]
    assert json.loads(annotation) == json.loads(
        patch["metadata"]["annotations"][LAST_APPLIED]
    )
    assert smp.merge(live, patch) == result
    # Applying the same configuration again changes nothing. (The patch still orders the
    # containers: the live object has one injected by a webhook, which the configuration does
    # not list, and kubectl sends the same `$setElementOrder`.)
    again, same = smp.apply(result, desired)
    assert same == result
    assert again == {"spec": {"template": {"spec": {"$setElementOrder/containers": [{"name": "app"}]}}}}
    config_map = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}
    _, stored = smp.apply(None, config_map)
    assert smp.apply(stored, config_map) == (dict(), stored), "a no-op apply sends {}"
    # An object that does not exist yet: the result is the configuration and its annotation.
    _, created = smp.apply(None, desired)
    assert LAST_APPLIED in created["metadata"]["annotations"]


def test_normalize_clears_the_members_a_new_one_replaces():
    old = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}},
    }
    new = json.loads(json.dumps(old))
    new["spec"]["strategy"]["type"] = "Recreate"
    normalized = smp.normalize(new, old)
    assert normalized["spec"]["strategy"] == {"type": "Recreate"}


def test_custom_resources_merge_by_their_crds_keys():
    crd = "examples/manifests/apiextensions.k8s.io-v1-customresourcedefinition.yaml"
    crds = smp.Crds([str(example_path(crd))])
    assert ("shop.example.com/v1", "Storefront") in crds.kinds()
    patched = smp.merge(
        example("custom-resource/storefront.yaml"),
        example("custom-resource/storefront-patch.yaml"),
        crds=crds,
    )
    spec = patched["spec"]
    assert spec["domains"] == [
        {"host": "books.example.com", "tlsSecretName": "books-tls-2027"},
        {"host": "livres.example.com"},
        {"host": "www.books.example.com", "redirectWww": True},
    ]
    assert spec["routes"] == [
        {"path": "/api", "method": "GET", "backend": {"service": "catalog", "port": 8080}},
        {"path": "/api", "method": "POST", "backend": {"service": "orders-v2", "port": 8080}},
    ]
    assert spec["paymentProviders"] == ["adyen", "stripe"]
    # The CRD as a dict, and as a list of sources, work the same.
    as_dict = yaml.safe_load(example_path(crd).read_text())
    assert smp.merge(
        example("custom-resource/storefront.yaml"),
        example("custom-resource/storefront-patch.yaml"),
        crds=[as_dict],
    ) == patched


def example_path(relative):
    from conftest import REPO

    return REPO / relative
