"""Server-side apply and updates: the managedFields the API server records, conflicts between
managers, forced takeover."""

import pytest
import yaml

import smp
from conftest import example

NOW = "2026-11-29T12:00:00Z"


def entries(obj):
    return {(e["manager"], e["operation"]): e for e in obj["metadata"]["managedFields"]}


def test_apply_creates_and_records_its_fields():
    web = yaml.safe_load(example("server-side/web.yaml"))
    created = smp.server_side_apply(None, web, manager="kubectl", now=NOW)
    entry = entries(created)[("kubectl", "Apply")]
    assert entry["apiVersion"] == "apps/v1" and entry["time"] == NOW
    assert "f:replicas" in entry["fieldsV1"]["f:spec"]
    assert created["spec"]["replicas"] == 3


def test_another_manager_conflicts_then_forces():
    web = yaml.safe_load(example("server-side/web.yaml"))
    scale = yaml.safe_load(example("server-side/scale.yaml"))
    live = smp.server_side_apply(None, web, manager="kubectl", now=NOW)
    with pytest.raises(smp.Conflict) as raised:
        smp.server_side_apply(live, scale, manager="autoscaler", now=NOW)
    assert raised.value.conflicts == [("kubectl", ".spec.replicas")]
    assert str(raised.value) == 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas'
    forced = smp.server_side_apply(live, scale, manager="autoscaler", force=True, now=NOW)
    assert forced["spec"]["replicas"] == 5
    kubectl = entries(forced)[("kubectl", "Apply")]["fieldsV1"]["f:spec"]
    assert "f:replicas" not in kubectl, "the forced field changes owner"


def test_updates_record_their_manager():
    web = yaml.safe_load(example("server-side/web.yaml"))
    live = smp.server_side_apply(None, web, manager="kubectl", now=NOW)
    new = dict(live, spec=dict(live["spec"], replicas=7))
    updated = smp.update(live, new, manager="hpa-controller", now=NOW)
    assert ("hpa-controller", "Update") in entries(updated)


def test_unknown_kinds_and_bad_times_are_errors():
    with pytest.raises(smp.PatchError, match="not a Kubernetes"):
        smp.server_side_apply(None, {"apiVersion": "x/v1", "kind": "Y"}, manager="m")
    with pytest.raises(smp.PatchError, match="RFC 3339"):
        smp.server_side_apply(None, {"apiVersion": "v1", "kind": "Pod"}, manager="m", now="soon")
