#!/usr/bin/env python3
"""Writes smp-apiserver/src/protobuf/table.json: how Kubernetes' protobuf encoding lays out each
API type, for smp-apiserver's protobuf decoder.

usage: python3 codegen/protobuf-table.py API APIMACHINERY APIEXTENSIONS [TAG]

API, APIMACHINERY and APIEXTENSIONS are git directories (clones or bare) of kubernetes/api,
kubernetes/apimachinery and kubernetes/apiextensions-apiserver; TAG (default v0.34.9, the
release of Kubernetes v1.34.9) is read from each, so the working trees do not matter.

Two kinds of files are read, and only facts are kept: each package's `generated.proto` gives the
messages, their field numbers and wire types; the Go sources of the same package give, for each
field (matched by the number in its `protobuf:"..."` tag), its JSON name, whether the JSON
omits it when empty (`omitempty`), whether the Go field is a pointer (written only when set),
and whether it is embedded with its fields promoted into the parent's JSON. Definition names
are those of the OpenAPI document (`io.k8s.api.apps.v1.Deployment`), and the kinds that can be
sent come from its `x-kubernetes-group-version-kind` (../shared/openapi/swagger.json, or the
path in $SMP_SWAGGER). Nothing else of those files is copied.

The table, in JSON:
  "source":   where the facts come from;
  "kinds":    "apps/v1/Deployment" -> the definition of objects of that kind;
  "special":  definitions with a JSON form of their own, listed with no fields;
  "wrappers": definitions whose Go type is a list, not a struct (their JSON is the list held
              in field 1);
  "packages": package -> type -> fields; each field is [number, json name, type, flags]:
    type  a scalar (string, bool, int32, int64, double, bytes), a definition of the same
          package (`DeploymentSpec`) or of another (dotted, in full);
    flags r: repeated; m: a map from strings to `type`; o: omitempty; p: a pointer;
          z: omitzero (omitted when zero: a zero time); i: embedded, its fields promoted
          into the parent's JSON object.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "../smp-apiserver/src/protobuf/table.json")
SCALARS = {"string", "bool", "int32", "int64", "double", "bytes"}

# apimachinery and apiextensions packages with messages the API types use.
APIMACHINERY = [
    "pkg/apis/meta/v1",
    "pkg/runtime",
    "pkg/api/resource",
    "pkg/util/intstr",
]
APIEXTENSIONS = ["pkg/apis/apiextensions/v1"]

# Types whose JSON is not their fields' (custom JSON marshaling in Go): the decoder knows each
# by name and reads its few fields itself, so the table lists them with no fields.
SPECIAL = {
    "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
    "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Timestamp",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Duration",
    "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
    "io.k8s.apimachinery.pkg.runtime.RawExtension",
    "io.k8s.apimachinery.pkg.runtime.Unknown",
    "io.k8s.apimachinery.pkg.api.resource.Quantity",
    "io.k8s.apimachinery.pkg.api.resource.QuantityValue",
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray",
}


def git(repo, *args):
    return subprocess.run(
        ["git", "-C", repo, *args], check=True, capture_output=True, text=True
    ).stdout


def show(repo, tag, path):
    return git(repo, "show", f"{tag}:{path}")


def go_files(repo, tag, directory):
    names = git(repo, "ls-tree", "--name-only", f"{tag}:{directory}").split()
    return [
        f"{directory}/{n}"
        for n in names
        if n.endswith(".go") and not n.endswith("_test.go") and "generated" not in n
    ]


def proto_messages(text):
    """package, {message: [(label, type, name, number, map)]} of a generated.proto."""
    package = re.search(r"^package ([\w.]+);", text, re.M).group(1)
    messages = {}
    current = None
    for line in text.splitlines():
        line = line.split("//")[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"message (\w+) \{", line)
        if m:
            current = messages.setdefault(m.group(1), [])
            continue
        if line == "}":
            current = None
            continue
        if current is None:
            continue
        m = re.fullmatch(r"(optional|repeated) ([\w.]+) (\w+) = (\d+);", line)
        if m:
            current.append((m.group(1), m.group(2), m.group(3), int(m.group(4)), False))
            continue
        m = re.fullmatch(r"map<(\w+), ([\w.]+)> (\w+) = (\d+);", line)
        if m:
            if m.group(1) != "string":
                sys.exit(f"{package}: map with {m.group(1)} keys")
            current.append(("repeated", m.group(2), m.group(3), int(m.group(4)), True))
            continue
        sys.exit(f"{package}: cannot read {line!r}")
    return package, messages


def go_types(sources):
    """{type name: ("struct", [fields]), ("named", import path, name) or ("other", underlying)}
    of Go sources; a field is (name or None when embedded, go type, json tag, protobuf number
    or None)."""
    types = {}
    for text in sources:
        imports = {}
        for alias, path in re.findall(r'^\s*(\w+\s+)?"(k8s\.io/[\w./-]+)"\s*$', text, re.M):
            imports[alias.strip() or path.rpartition("/")[2]] = path
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        lines = iter(text.splitlines())
        for line in lines:
            m = re.match(r"type (\w+) struct \{\s*$", line)
            if m:
                fields = []
                for body in lines:
                    body = body.strip()
                    if body == "}":
                        break
                    if not body or body.startswith("//"):
                        continue
                    tag = re.search(r"`(.*)`", body)
                    decl = body[: tag.start()].split() if tag else body.split("//")[0].split()
                    tags = tag.group(1) if tag else ""
                    json_tag = re.search(r'json:"([^"]*)"', tags)
                    number = re.search(r'protobuf:"\w+,(\d+),', tags)
                    if len(decl) == 1:
                        name, ty = None, decl[0]
                    elif len(decl) == 2:
                        name, ty = decl
                    elif number:
                        sys.exit(f"cannot read struct field {body!r} of {m.group(1)}")
                    else:
                        continue  # not an API type's field (those all have numbers)
                    fields.append(
                        (
                            name,
                            ty,
                            json_tag.group(1) if json_tag else None,
                            int(number.group(1)) if number else None,
                        )
                    )
                types[m.group(1)] = ("struct", fields)
                continue
            m = re.match(r"type (\w+) struct\s*\{\}", line)
            if m:
                types[m.group(1)] = ("struct", [])
                continue
            m = re.match(r"type (\w+) (\w+)\.(\w+)\s*$", line)
            if m and m.group(2) in imports:
                types[m.group(1)] = ("named", imports[m.group(2)], m.group(3))
                continue
            m = re.match(r"type (\w+) (\S+)\s*(//.*)?$", line)
            if m and m.group(2) not in ("struct", "interface", "="):
                types.setdefault(m.group(1), ("other", m.group(2)))
    return types


def definition_prefix(package):
    """The OpenAPI definition prefix of a proto package."""
    return "io.k8s." + package.removeprefix("k8s.io.").replace("_", "-")


def qualify(ty, package):
    """A proto field type as the table writes it: scalar, same-package or dotted definition."""
    if ty in SCALARS:
        return ty
    if ty.startswith("."):
        pkg, _, name = ty[1:].rpartition(".")
        return name if pkg == package else definition_prefix(pkg) + "." + name
    if "." in ty:
        sys.exit(f"{package}: relative dotted type {ty}")
    return ty


def fields_of(package, message, proto_fields, go, load):
    kind = go.get(message)
    if kind is None:
        sys.exit(f"{package}.{message}: no Go type")
    if kind[0] == "named":
        # A defined type over another package's struct: that struct's fields and tags.
        kind = load(kind[1]).get(kind[2])
        if kind is None or kind[0] != "struct":
            sys.exit(f"{package}.{message}: cannot follow {go[message]}")
    if kind[0] != "struct":
        return None  # a wrapper; its Go type is checked by the caller
    by_number = {f[3]: f for f in kind[1] if f[3] is not None}
    out = []
    for label, ty, proto_name, number, is_map in proto_fields:
        go_field = by_number.get(number)
        if go_field is None:
            sys.exit(f"{package}.{message}: field {number} ({proto_name}) has no Go field")
        name, go_ty, json_tag, _ = go_field
        if json_tag is None:
            sys.exit(f"{package}.{message}.{name}: no json tag")
        json_name, *options = json_tag.split(",")
        unknown = set(options) - {"omitempty", "omitzero", "inline"}
        if unknown:
            sys.exit(f"{package}.{message}.{name}: json options {unknown}")
        flags = ""
        if label == "repeated":
            flags += "m" if is_map else "r"
        if "omitempty" in options:
            flags += "o"
        if "omitzero" in options:
            flags += "z"
        if go_ty.startswith("*"):
            flags += "p"
        if json_name == "-":
            continue
        if name is None and not json_name:
            flags += "i"
            json_name = go_ty.lstrip("*").rpartition(".")[2]
        elif not json_name:
            json_name = name
        out.append([number, json_name, qualify(ty, package), flags])
    return out


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    api, machinery, extensions = sys.argv[1:4]
    tag = sys.argv[4] if len(sys.argv) == 5 else "v0.34.9"
    swagger_path = os.environ.get("SMP_SWAGGER") or os.path.join(
        HERE, "../../shared/openapi/swagger.json"
    )
    with open(swagger_path) as f:
        definitions = json.load(f)["definitions"]

    sources = []  # (repo, directory)
    for path in git(api, "ls-tree", "-r", "--name-only", tag).split():
        if path.endswith("/generated.proto"):
            sources.append((api, os.path.dirname(path)))
    sources += [(machinery, d) for d in APIMACHINERY]
    sources += [(extensions, d) for d in APIEXTENSIONS]

    repos = {"k8s.io/api/": api, "k8s.io/apimachinery/": machinery,
             "k8s.io/apiextensions-apiserver/": extensions}
    loaded = {}

    def load(import_path):
        """The Go types of the package at an import path."""
        if import_path not in loaded:
            for prefix, repo in repos.items():
                if import_path.startswith(prefix):
                    directory = import_path.removeprefix(prefix)
                    loaded[import_path] = go_types(
                        show(repo, tag, p) for p in go_files(repo, tag, directory)
                    )
                    break
            else:
                sys.exit(f"no repository for {import_path}")
        return loaded[import_path]

    packages = {}
    wrappers = []
    for repo, directory in sources:
        package, messages = proto_messages(show(repo, tag, f"{directory}/generated.proto"))
        prefix = definition_prefix(package)
        # Only packages the v1.34 OpenAPI document serves (no alphas it dropped, no internals).
        if not any(d.startswith(prefix + ".") for d in definitions):
            continue
        go = go_types(show(repo, tag, p) for p in go_files(repo, tag, directory))
        types = {}
        for message, proto_fields in sorted(messages.items()):
            if f"{prefix}.{message}" in SPECIAL:
                types[message] = []
                continue
            fields = fields_of(package, message, proto_fields, go, load)
            if fields is None:
                underlying = go[message][1]
                if not underlying.startswith("[]") or [f[3] for f in proto_fields] != [1]:
                    sys.exit(f"{prefix}.{message}: a {underlying} that is no list wrapper")
                wrappers.append(f"{prefix}.{message}")
                fields = [[1, "items", qualify(proto_fields[0][1], package), "r"]]
            types[message] = fields
        packages[prefix] = types

    for prefix, types in packages.items():
        for message, fields in types.items():
            for number, _, ty, _ in fields:
                target = ty if "." in ty else f"{prefix}.{ty}"
                owner, _, name = target.rpartition(".")
                if ty not in SCALARS and name not in packages.get(owner, {}):
                    sys.exit(f"{prefix}.{message} field {number}: {target} is not in the table")

    kinds = {}
    for name, definition in sorted(definitions.items()):
        prefix, _, message = name.rpartition(".")
        if message not in packages.get(prefix, {}):
            continue
        for gvk in definition.get("x-kubernetes-group-version-kind", []):
            group, version = gvk["group"], gvk["version"]
            api_version = f"{group}/{version}" if group else version
            # DeleteOptions and WatchEvent (meta/v1) name every group-version: they are no
            # objects a client creates.
            if name.startswith("io.k8s.apimachinery."):
                continue
            kinds.setdefault(f"{api_version}/{gvk['kind']}", name)

    versions = {r: git(r, "rev-parse", f"{tag}^{{commit}}").strip() for r in (api, machinery, extensions)}
    table = {
        "source": (
            f"generated by codegen/protobuf-table.py from the generated.proto files and Go types "
            f"of kubernetes/api, kubernetes/apimachinery and kubernetes/apiextensions-apiserver "
            f"at {tag} (commits {versions[api][:12]}, {versions[machinery][:12]}, "
            f"{versions[extensions][:12]}; Apache-2.0), kinds from the Kubernetes v1.34 OpenAPI "
            f"document; facts only"
        ),
        "kinds": kinds,
        "special": sorted(SPECIAL),
        "wrappers": sorted(wrappers),
        "packages": packages,
    }
    text = json.dumps(table, separators=(",", ":"), sort_keys=True)
    # One type per line, so that a change to the table reads as a diff.
    text = re.sub(r'(\{|\],)"([A-Z]\w*)":\[', lambda m: f'{m.group(1)}\n"{m.group(2)}":[', text)
    with open(OUT, "w") as f:
        f.write(text + "\n")
    count = sum(len(t) for t in packages.values())
    print(f"{count} types in {len(packages)} packages, {len(kinds)} kinds, {len(text)} bytes")


main()
