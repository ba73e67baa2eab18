#!/usr/bin/env python3
"""Captures what kubectl sends in Kubernetes' protobuf encoding, and what it means.

usage: python3 capture.py KUBECTL SERVER_URL

SERVER_URL is an API server to talk to (`smp serve --address 127.0.0.1:0` prints its URL; any
server serving the kinds below will do). For each command of COMMANDS, this script runs kubectl
through a recording proxy, twice:

- with `--dry-run=client -o json`: kubectl prints the object it would send, which it writes to
  NAME.json (verbatim);
- for real: kubectl sends the object, which the proxy writes to NAME.pb (the body as sent:
  `k8s\\0` and the envelope).

smp-apiserver's tests decode each NAME.pb and compare it with NAME.json.
"""
import http.client
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))

# A CronJob whose pods have many kinds of field: pointers set to zero and false, an embedded
# volume source, quantities, numbers and names as ports, lists of numbers. It is created from
# JSON; `kubectl create job --from=cronjob/rich` then sends its job template in protobuf.
POD_SPEC = {
    "terminationGracePeriodSeconds": 0,
    "automountServiceAccountToken": False,
    "securityContext": {"runAsUser": 1000, "runAsNonRoot": True, "supplementalGroups": [1, 2, 3]},
    "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30}],
    "volumes": [
        {"name": "scratch", "emptyDir": {"sizeLimit": "1Gi"}},
        {"name": "config", "configMap": {"name": "settings", "defaultMode": 420, "optional": False}},
    ],
    "containers": [
        {
            "name": "app",
            "image": "nginx",
            "ports": [{"containerPort": 80, "name": "http"}],
            "resources": {"requests": {"cpu": "250m", "memory": "64Mi"}, "limits": {"cpu": "1"}},
            "readinessProbe": {"httpGet": {"path": "/", "port": "http"}, "periodSeconds": 5},
            "livenessProbe": {"tcpSocket": {"port": 80}, "initialDelaySeconds": 0},
            "volumeMounts": [{"name": "scratch", "mountPath": "/tmp", "readOnly": False}],
            "env": [{"name": "EMPTY", "value": ""}, {"name": "A", "value": "1"}],
        }
    ],
}
RICH_CRONJOB = {
    "apiVersion": "batch/v1",
    "kind": "CronJob",
    "metadata": {"name": "rich", "labels": {"team": "a"}, "annotations": {"note": ""}},
    "spec": {
        "schedule": "*/5 * * * *",
        "jobTemplate": {
            "metadata": {"labels": {"job": "rich"}},
            "spec": {
                "backoffLimit": 0,
                "completions": 1,
                "parallelism": 1,
                "activeDeadlineSeconds": 600,
                "template": {"metadata": {"labels": {"job": "rich"}}, "spec": POD_SPEC},
            },
        },
    },
}

# Name, then kubectl's arguments. A command without a name prepares the next ones (it sends
# JSON, and nothing of it is kept). `kubectl run` and `kubectl expose` are not here: they
# send JSON.
COMMANDS = [
    ("namespace", ["create", "namespace", "team-a"]),
    ("deployment", ["create", "deployment", "web", "--image=nginx"]),
    ("deployment-replicas", ["create", "deployment", "api", "--image=nginx", "--replicas=3", "--port=8080"]),
    ("deployment-command", ["create", "deployment", "sleeper", "--image=busybox", "--", "sleep", "3600"]),
    ("configmap", ["create", "configmap", "settings", "--from-literal=a=1", "--from-literal=b=two"]),
    ("configmap-binary", ["create", "configmap", "blob", "--from-file=bin={binary}", "--from-literal=text=hi"]),
    ("secret-generic", ["create", "secret", "generic", "creds", "--from-literal=user=admin", "--from-literal=pass=s3cr3t"]),
    ("secret-binary", ["create", "secret", "generic", "blob", "--from-file=bin={binary}", "--type=example.com/blob"]),
    ("secret-docker-registry", ["create", "secret", "docker-registry", "registry", "--docker-username=u", "--docker-password=p", "--docker-server=registry.example.com"]),
    ("service-clusterip", ["create", "service", "clusterip", "api", "--tcp=80:8080", "--tcp=9090:metrics"]),
    ("service-headless", ["create", "service", "clusterip", "headless", "--clusterip=None"]),
    ("service-nodeport", ["create", "service", "nodeport", "np", "--tcp=80:8080", "--node-port=30080"]),
    ("service-loadbalancer", ["create", "service", "loadbalancer", "lb", "--tcp=443"]),
    ("service-externalname", ["create", "service", "externalname", "ext", "--external-name=example.com"]),
    ("job", ["create", "job", "once", "--image=busybox", "--", "echo", "hi"]),
    ("cronjob", ["create", "cronjob", "nightly", "--image=busybox", "--schedule=0 0 * * *", "--restart=OnFailure", "--", "echo", "hi"]),
    ("job-from-cronjob", ["create", "job", "manual", "--from=cronjob/nightly"]),
    ("serviceaccount", ["create", "serviceaccount", "robot"]),
    ("role", ["create", "role", "reader", "--verb=get,list", "--resource=pods,deployments.apps", "--resource-name=one"]),
    ("rolebinding", ["create", "rolebinding", "reader-binding", "--role=reader", "--user=alice", "--serviceaccount=default:robot"]),
    ("clusterrole", ["create", "clusterrole", "viewer", "--verb=get", "--non-resource-url=/healthz", "--non-resource-url=/version"]),
    ("clusterrole-aggregated", ["create", "clusterrole", "aggregate", "--aggregation-rule=rbac.example.com/aggregate=true"]),
    ("clusterrolebinding", ["create", "clusterrolebinding", "viewer-binding", "--clusterrole=viewer", "--group=devs"]),
    ("priorityclass", ["create", "priorityclass", "high", "--value=1000", "--description=important"]),
    ("priorityclass-zero", ["create", "priorityclass", "low", "--value=0", "--preemption-policy=Never"]),
    ("pdb-min-available", ["create", "poddisruptionbudget", "web-pdb", "--selector=app=web", "--min-available=1"]),
    ("pdb-max-unavailable", ["create", "poddisruptionbudget", "api-pdb", "--selector=app=api", "--max-unavailable=50%"]),
    ("ingress", ["create", "ingress", "web", "--class=nginx", "--rule=example.com/=web:80", "--rule=example.com/api*=api:http", "--rule=secure.example.com/*=web:80,tls=cert"]),
    ("ingress-default-backend", ["create", "ingress", "fallback", "--default-backend=web:80"]),
    ("quota", ["create", "quota", "limits", "--hard=cpu=1,memory=1Gi,pods=10,requests.storage=5Gi"]),
    ("quota-scoped", ["create", "quota", "besteffort", "--hard=pods=5", "--scopes=BestEffort"]),
    (None, ["create", "-f", "{rich}"]),
    ("job-from-rich-cronjob", ["create", "job", "rich-manual", "--from=cronjob/rich"]),
    ("autoscale", ["autoscale", "deployment", "api", "--min=2", "--max=5", "--cpu-percent=80"]),
]


def proxy(upstream, recorded):
    """A proxy to `upstream` that appends each protobuf body it forwards to `recorded`."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def forward(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if "protobuf" in self.headers.get("Content-Type", ""):
                recorded.append(body)
            connection = http.client.HTTPConnection(upstream)
            headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
            connection.request(self.command, self.path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            self.send_response(response.status)
            for k, v in response.getheaders():
                if k.lower() not in ("transfer-encoding", "content-length", "connection"):
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = forward

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run(command):
    done = subprocess.run(command, capture_output=True)
    if done.returncode != 0:
        sys.exit(f"{command}: {done.stderr.decode()}")
    return done


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kubectl, url = sys.argv[1:]
    recorded = []
    server = proxy(urllib.parse.urlparse(url).netloc, recorded)
    scratch = tempfile.mkdtemp()
    config = os.path.join(scratch, "kubeconfig")
    with open(config, "w") as f:
        f.write(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
            f"    server: http://127.0.0.1:{server.server_address[1]}\n"
            "contexts:\n- name: c\n  context: {cluster: c, user: u, namespace: default}\n"
            "current-context: c\nusers:\n- name: u\n  user: {}\n"
        )
    binary = os.path.join(scratch, "binary")
    with open(binary, "wb") as f:
        f.write(bytes(range(256)))
    rich = os.path.join(scratch, "rich.json")
    with open(rich, "w") as f:
        json.dump(RICH_CRONJOB, f)
    for name, args in COMMANDS:
        args = [a.replace("{binary}", binary).replace("{rich}", rich) for a in args]
        base = [kubectl, "--kubeconfig", config]
        if name is None:
            run(base + args)
            continue
        # Flags go before the `--` that starts a container's command.
        end = args.index("--") if "--" in args else len(args)
        dry_run = args[:end] + ["--dry-run=client", "-o", "json"] + args[end:]
        dry = run(base + dry_run)
        recorded.clear()
        run(base + args)
        if len(recorded) != 1:
            sys.exit(f"{name}: {len(recorded)} protobuf bodies sent")
        with open(os.path.join(HERE, f"{name}.json"), "wb") as f:
            f.write(dry.stdout)
        with open(os.path.join(HERE, f"{name}.pb"), "wb") as f:
            f.write(recorded[0])
        print(f"{name}: {len(recorded[0])} bytes")
    server.shutdown()


main()
