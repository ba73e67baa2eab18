"""The official Python client (`kubernetes`) against the test server, typed calls only: each
check prints one line, and a failed check ends the script with an assertion error.

Run by the Rust test `real_clients::python`, with the kubeconfig of a server it started as the
only argument. Every expected answer is kube-apiserver v1.34's.
"""

import json
import sys

from kubernetes import client, config, watch
from kubernetes.client.exceptions import ApiException

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
apps = client.AppsV1Api()
NS = "default"


def check(what, condition, detail=""):
    assert condition, f"{what}: {detail}"
    print(f"ok {what}")


def pod(name, node=None):
    spec = {"containers": [{"name": "c", "image": "busybox"}]}
    if node:
        spec["nodeName"] = node
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec}


# DELETE of a pod and of a service answers the object (their registries return it, and the
# client reads the answer as the kind its OpenAPI operation names); of a ConfigMap, a Status
# (which this client hands back as it came, a dict).
core.create_namespaced_pod(NS, pod("free"))
deleted = core.delete_namespaced_pod("free", NS)
check("delete_namespaced_pod answers the pod", isinstance(deleted, client.V1Pod) and deleted.metadata.name == "free", deleted)
core.create_namespaced_service(NS, {"metadata": {"name": "svc"}, "spec": {"ports": [{"port": 80}]}})
deleted = core.delete_namespaced_service("svc", NS)
check("delete_namespaced_service answers the service", isinstance(deleted, client.V1Service) and deleted.metadata.name == "svc", deleted)
core.create_namespaced_config_map(NS, {"metadata": {"name": "gone"}})
deleted = core.delete_namespaced_config_map("gone", NS)
check("delete_namespaced_config_map answers a Status", deleted["status"] == "Success" and deleted["details"]["kind"] == "configmaps", deleted)

# A pod on a node waits its grace period; deleted again with grace 0 it goes.
core.create_namespaced_pod(NS, pod("bound", node="node-1"))
first = core.delete_namespaced_pod("bound", NS)
check("a bound pod is Terminating", first.metadata.deletion_timestamp is not None and first.metadata.deletion_grace_period_seconds == 30, first.metadata)
core.read_namespaced_pod("bound", NS)
core.delete_namespaced_pod("bound", NS, grace_period_seconds=0)
try:
    core.read_namespaced_pod("bound", NS)
    raise AssertionError("the pod is still there")
except ApiException as e:
    check("deleted with grace 0, it is gone", e.status == 404, e.status)

# The client's PATCH is a JSON patch unless told otherwise: kube-runtime's first finalizer.
core.create_namespaced_config_map(NS, {"metadata": {"name": "settings"}, "data": {"a": "1"}})
add_first = [
    {"op": "test", "path": "/metadata/finalizers", "value": None},
    {"op": "add", "path": "/metadata/finalizers", "value": ["example.com/f"]},
]
patched = core.patch_namespaced_config_map("settings", NS, add_first)
check("a JSON patch testing a missing member for null applies", patched.metadata.finalizers == ["example.com/f"], patched.metadata)
try:
    core.patch_namespaced_config_map("settings", NS, add_first)
    raise AssertionError("applied twice")
except ApiException as e:
    check("a failed test is 422 without the library's words", e.status == 422 and "the server rejected our request due to an error in our request" in e.body, e.body)

# A write that changes nothing writes nothing.
before = core.read_namespaced_config_map("settings", NS).metadata.resource_version
same = core.patch_namespaced_config_map("settings", NS, {"data": {"a": "1"}}, _content_type="application/merge-patch+json")
check("a merge patch that changes nothing keeps the resourceVersion", same.metadata.resource_version == before, (before, same.metadata.resource_version))
read = core.read_namespaced_config_map("settings", NS)
replaced = core.replace_namespaced_config_map("settings", NS, read)
check("a PUT of the object as read keeps the resourceVersion", replaced.metadata.resource_version == before)

# Lists in pages, at the first page's resourceVersion.
for name in ["p1", "p2", "p3", "p4"]:
    core.create_namespaced_config_map(NS, {"metadata": {"name": name}})
page = core.list_namespaced_config_map(NS, limit=2)
names = [c.metadata.name for c in page.items]
check("a first page of two", names == ["kube-root-ca.crt", "p1"] and page.metadata.remaining_item_count == 4, (names, page.metadata.remaining_item_count))
core.create_namespaced_config_map(NS, {"metadata": {"name": "p25"}})
rest = core.list_namespaced_config_map(NS, limit=10, _continue=page.metadata._continue)
names = [c.metadata.name for c in rest.items]
check("the next page is read at the first page's version", names == ["p2", "p3", "p4", "settings"] and rest.metadata.resource_version == page.metadata.resource_version, names)
try:
    core.list_namespaced_config_map(NS, resource_version_match="NotOlderThan")
    raise AssertionError("listed")
except ApiException as e:
    check("resourceVersionMatch without resourceVersion is 422", e.status == 422 and "resourceVersionMatch is forbidden unless resourceVersion is provided" in e.body, e.body)

# Field selectors, and a watcher whose selector stops matching.
for name, phase in [("r1", "Running"), ("r2", "Pending")]:
    core.create_namespaced_pod(NS, pod(name))
    core.patch_namespaced_pod_status(name, NS, {"status": {"phase": phase}}, _content_type="application/merge-patch+json")
running = core.list_namespaced_pod(NS, field_selector="status.phase=Running")
check("pods by phase", [p.metadata.name for p in running.items] == ["r1"], running.items)
events = []
w = watch.Watch()
stream = w.stream(core.list_namespaced_pod, NS, field_selector="status.phase=Running", resource_version=running.metadata.resource_version, timeout_seconds=2)
core.patch_namespaced_pod_status("r1", NS, {"status": {"phase": "Succeeded"}}, _content_type="application/merge-patch+json")
for event in stream:
    events.append((event["type"], event["object"].metadata.name, event["object"].status.phase))
check("a pod that stops running leaves the watch, as it was", events == [("DELETED", "r1", "Running")], events)

# Foreground deletion: the owner answers marked and goes once the collector deleted its
# dependent; the typed answer is read as a Status, whatever the server sent.
deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
    "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}},
        "spec": {"containers": [{"name": "app", "image": "app:1"}]}}}}
owner = apps.create_namespaced_deployment(NS, deployment)
rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web-1", "ownerReferences": [
    {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "uid": owner.metadata.uid, "controller": True, "blockOwnerDeletion": True}]},
    "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}},
        "spec": {"containers": [{"name": "app", "image": "app:1"}]}}}}
# (Read raw: the server stores the status as sent, `{}`, where Go's types always write
# `replicas: 0`, which this client requires.)
apps.create_namespaced_replica_set(NS, rs, _preload_content=False)
apps.delete_namespaced_deployment("web", NS, propagation_policy="Foreground")
left = [r["metadata"]["name"] for r in json.loads(apps.list_namespaced_replica_set(NS, _preload_content=False).read())["items"]]
check("the collector deleted the dependent", left == [], left)
gone = [d.metadata.name for d in apps.list_namespaced_deployment(NS).items]
check("and then the owner", gone == [], gone)

# Subresources and reviews. A TokenRequest is answered with a signed token, and a TokenReview
# (no name needed) authenticates it as the service account.
auth = client.AuthenticationV1Api()
request = {"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
    "spec": {"audiences": ["vault"], "expirationSeconds": 3600}}
token = core.create_namespaced_service_account_token("default", NS, request).status.token
check("a TokenRequest answers a JWT", token.count(".") == 2, token)
review = auth.create_token_review({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview",
    "spec": {"token": token, "audiences": ["vault"]}})
check("a TokenReview authenticates it", review.status.authenticated and
      review.status.user.username == "system:serviceaccount:default:default", review.status)
allowed = client.AuthorizationV1Api().create_self_subject_access_review({
    "apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
    "spec": {"resourceAttributes": {"verb": "delete", "resource": "pods", "namespace": NS}}})
check("a SelfSubjectAccessReview is allowed", allowed.status.allowed, allowed.status)

# A Binding sets the node; the client reads the answer as a Binding, which the server's
# Status is not, so it is read raw (as against a cluster).
core.create_namespaced_pod(NS, pod("unbound"))
check("the log of a pod on no node is empty", core.read_namespaced_pod_log("unbound", NS) == "")
binding = {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "unbound"},
    "target": {"kind": "Node", "name": "n1"}}
answer = json.loads(core.create_namespaced_pod_binding("unbound", NS, binding, _preload_content=False).read())
check("a Binding answers Success", answer["status"] == "Success", answer)
check("and sets the node", core.read_namespaced_pod("unbound", NS).spec.node_name == "n1")
# An eviction with no budget deletes the pod: gracefully, as it is on a node now, so it is
# Terminating (until a kubelet, of which there is none, says it stopped).
core.create_namespaced_pod_eviction("unbound", NS, {"apiVersion": "policy/v1", "kind": "Eviction",
    "metadata": {"name": "unbound"}}, _preload_content=False)
evicted = core.read_namespaced_pod("unbound", NS)
check("an Eviction deletes the pod", evicted.metadata.deletion_timestamp is not None, evicted.metadata)

# An event written through events.k8s.io is read through core/v1, its fields renamed.
events = client.EventsV1Api()
events.create_namespaced_event(NS, {"apiVersion": "events.k8s.io/v1", "kind": "Event",
    "metadata": {"name": "seen"}, "eventTime": "2026-11-28T12:00:00.000000Z", "type": "Normal",
    "reason": "Synced", "action": "Sync", "note": "all good", "reportingController": "example.com/c",
    "reportingInstance": "c-1", "regarding": {"kind": "Pod", "name": "r1", "namespace": NS}})
core_event = core.read_namespaced_event("seen", NS)
check("an events.k8s.io event is a core/v1 event", core_event.message == "all good" and
      core_event.involved_object.name == "r1" and core_event.reporting_component == "example.com/c",
      core_event)
print("done")
