"""The objects Python Kubernetes clients hand out: the official client's models (in the form
its `ApiClient.sanitize_for_serialization` writes) and objects that carry their JSON as `raw`
(kr8s)."""

import datetime

import pytest

import smp

kubernetes = pytest.importorskip(
    "kubernetes", reason="the official Kubernetes client is not installed: its models untested"
)
from kubernetes import client  # noqa: E402


def model_deployment():
    return client.V1Deployment(
        api_version="apps/v1",
        kind="Deployment",
        metadata=client.V1ObjectMeta(
            name="web",
            creation_timestamp=datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
        ),
        spec=client.V1DeploymentSpec(
            selector=client.V1LabelSelector(match_labels={"app": "web"}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": "web"}),
                spec=client.V1PodSpec(
                    containers=[
                        client.V1Container(name="app", image="app:1"),
                        client.V1Container(name="sidecar", image="side:1"),
                    ]
                ),
            ),
        ),
    )


def test_models_read_as_the_client_serializes_them():
    deployment = model_deployment()
    want = client.ApiClient().sanitize_for_serialization(deployment)
    assert smp._document(deployment) == want
    patched = smp.merge(
        deployment, {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "app:2"}]}}}}
    )
    images = [c["image"] for c in patched["spec"]["template"]["spec"]["containers"]]
    assert images == ["app:2", "side:1"]
    assert patched["metadata"]["creationTimestamp"] == want["metadata"]["creationTimestamp"]


class Raw:
    """An object that carries its JSON form as `raw`, as kr8s's do."""

    def __init__(self, raw):
        self.raw = raw


def test_objects_with_a_raw_form():
    live = Raw({"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "1"}})
    assert smp.merge(live, {"data": {"b": "2"}})["data"] == {"a": "1", "b": "2"}
