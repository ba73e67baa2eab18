"""The package with the official Kubernetes client and kr8s, against a real HTTP API server
(`smp serve`): the patch `smp.apply` computes is what the client sends, and the server stores
what `smp.apply` said it would; a server-side apply computed offline records the managed fields
the server records; a kr8s object is a document.

Needs the `smp` binary: `$SMP_BIN`, else the repository's `target/debug/smp` or
`target/release/smp` (`.ci/python-package` builds it and sets `SMP_BIN`).
"""

import copy
import os
import subprocess

import pytest
import yaml

import smp
from conftest import REPO, example

kubernetes = pytest.importorskip(
    "kubernetes", reason="the official Kubernetes client is not installed: not run"
)
from kubernetes import client, config  # noqa: E402

SMP_PATCH = "application/strategic-merge-patch+json"
SERVER_SIDE_APPLY = "application/apply-patch+yaml"


def smp_binary():
    given = os.environ.get("SMP_BIN")
    if given:
        assert os.path.isfile(given), f"SMP_BIN={given} is not a file"
        return given
    for profile in ("debug", "release"):
        path = REPO / "target" / profile / "smp"
        if path.is_file():
            return str(path)
    pytest.skip("no smp binary (SMP_BIN, target/debug/smp): `cargo build -p smp-cli` first")


@pytest.fixture
def kubeconfig(tmp_path):
    """A running `smp serve` (stopped after the test), by its kubeconfig."""
    kubeconfig = tmp_path / "kubeconfig.yaml"
    server = subprocess.Popen(
        [smp_binary(), "serve", "--kubeconfig", str(kubeconfig)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = server.stdout.readline()
        assert first.startswith("listening on "), first + server.stderr.read()
        yield kubeconfig
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def api(kubeconfig):
    return config.new_client_from_config(str(kubeconfig))


def test_client_side_apply_through_the_official_client(api):
    core = client.CoreV1Api(api)
    apps = client.AppsV1Api(api)
    core.create_namespace({"metadata": {"name": "shop"}})
    desired = yaml.safe_load(example("apply-config/desired.yaml"))

    # Created as `kubectl apply` creates: the configuration with its annotation.
    _, first = smp.apply(None, desired)
    apps.create_namespaced_deployment("shop", first)

    # The next configuration: a new image, four replicas, a label dropped.
    changed = copy.deepcopy(desired)
    changed["spec"]["replicas"] = 4
    changed["spec"]["template"]["spec"]["containers"][0]["image"] = "shop/web:1.6"
    changed["metadata"]["labels"] = {"team": "shop"}
    live = apps.read_namespaced_deployment("web", "shop")  # a V1Deployment model
    patch, expected = smp.apply(live, changed)
    apps.patch_namespaced_deployment("web", "shop", patch, _content_type=SMP_PATCH)
    stored = api.sanitize_for_serialization(apps.read_namespaced_deployment("web", "shop"))

    assert stored["spec"]["replicas"] == 4
    assert stored["spec"]["template"]["spec"]["containers"][0]["image"] == "shop/web:1.6"
    assert stored["metadata"]["labels"] == {"team": "shop"}
    for part in ("spec", "metadata"):
        want = {k: v for k, v in expected[part].items() if k not in ("resourceVersion", "generation", "managedFields")}
        got = {k: v for k, v in stored[part].items() if k in want}
        assert got == want, part

    # Nothing changed: the next apply's patch is empty, and the server keeps the object.
    again, _ = smp.apply(apps.read_namespaced_deployment("web", "shop"), changed)
    assert again == {}


def test_server_side_apply_offline_records_what_the_server_records(api):
    apps = client.AppsV1Api(api)
    web = yaml.safe_load(example("server-side/web.yaml"))
    web["metadata"]["namespace"] = "default"
    stored = api.sanitize_for_serialization(
        apps.patch_namespaced_deployment(
            "web", "default", web, field_manager="kubectl", _content_type=SERVER_SIDE_APPLY
        )
    )
    offline = smp.server_side_apply(None, web, manager="kubectl")
    fields = lambda obj: [(e["manager"], e["operation"], e["fieldsV1"]) for e in obj["metadata"]["managedFields"]]
    assert fields(offline) == fields(stored)
    # The server also defaults the object (no manager owns its defaults); the package does not.
    assert offline["metadata"]["labels"] == stored["metadata"]["labels"]
    assert apps.read_namespaced_deployment("web", "default").spec.replicas == 3


def test_kr8s_objects_are_documents(kubeconfig):
    kr8s = pytest.importorskip("kr8s", reason="kr8s is not installed: its objects untested")
    from kr8s.objects import Deployment

    web = yaml.safe_load(example("server-side/web.yaml"))
    web["metadata"]["namespace"] = "default"
    deployment = Deployment(web, api=kr8s.api(kubeconfig=str(kubeconfig)))
    deployment.create()
    # kr8s sends JSON and merge patches only: the strategic merge is computed here, on the kr8s
    # object itself, and its lists go to the server whole.
    merged = smp.merge(
        deployment,
        {"spec": {"template": {"spec": {"containers": [{"name": "log", "image": "fluent-bit:3"}]}}}},
    )
    deployment.patch({"spec": {"template": merged["spec"]["template"]}}, type="merge")
    deployment.refresh()
    containers = deployment.raw["spec"]["template"]["spec"]["containers"]
    assert sorted(c["name"] for c in containers) == ["app", "log"]
