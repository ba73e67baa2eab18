#!/usr/bin/env python3
"""Writes src/printing/types.json, the type index that printing walks objects along.

The API server stores a built-in object as its Go structs encode it, which differs from what
was sent in three ways this index captures:

* a member whose Go type is a struct held by value is always encoded (`omitempty` does not
  omit structs), so it shows up as `{}` even when the request left it out. The official
  OpenAPI documents mark exactly these members with `"default": {}` next to a `$ref` to an
  object type (pointers and scalars never carry that default);
* every `resource.Quantity` is encoded in its canonical form;
* a few members hold by value a struct that encodes itself (`Time`, `MicroTime`,
  `Quantity`, `IntOrString`, `RawExtension`): those are always encoded too, as their zero
  (`null`, `"0"`, `0`, `null`). The documents cannot tell them from pointers, so they are
  listed below as facts read off the v1.34 Go types (`tools/check_against_go.py` lists them
  again from the Go source).

The index lists, for each definition reachable from a built-in kind, only the members that
lead to one of those effects, so the walker has nothing to read that it would skip.

Input: every ../shared/openapi/v3/*.json beside the checkout (the server's own documents, read, never copied).
Output (deterministic, sorted, one definition per line):

    {"kinds": {"<apiVersion>": {"<kind>": "<root definition>"}},
     "types": {"<definition>": {"<member>": {"type": "<definition>",
                                             "container": "list" | "map",
                                             "always": true,
                                             "quantity": true,
                                             "zero": null | "0" | 0}}}}

In a member, `container` is left out when the member holds one value, `always` and
`quantity` when false, `zero` unless the member is in BY_VALUE, and `type` when the
referenced definition has nothing the walker needs (an always-printed struct with nothing
inside to fix, such as ObjectMeta).

Usage: python3 tools/gen_printing.py [openapi dir] [output file]
"""

import glob
import json
import os
import sys

QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
TIME = "io.k8s.apimachinery.pkg.apis.meta.v1.Time"
MICRO_TIME = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"
INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
RAW_EXTENSION = "io.k8s.apimachinery.pkg.runtime.RawExtension"

# Members holding a Time, MicroTime, Quantity, IntOrString or RawExtension by value (not a
# pointer), without `omitzero`, in the v1.34 Go types; each prints its zero when unset.
# (`ObjectMeta`'s `creationTimestamp` is one too but has `omitzero` since v1.34, so it is
# left out; so is `WatchEvent`'s `object`, a stream's frame rather than a stored object.)
BY_VALUE = {
    INT_OR_STRING: """
        io.k8s.api.core.v1.HTTPGetAction port
        io.k8s.api.core.v1.ServicePort targetPort
        io.k8s.api.core.v1.TCPSocketAction port""",
    MICRO_TIME: """
        io.k8s.api.core.v1.Event eventTime
        io.k8s.api.core.v1.EventSeries lastObservedTime
        io.k8s.api.events.v1.Event eventTime
        io.k8s.api.events.v1.EventSeries lastObservedTime""",
    QUANTITY: """
        io.k8s.api.core.v1.ResourceFieldSelector divisor
        io.k8s.api.resource.v1.Counter value
        io.k8s.api.resource.v1.DeviceCapacity value
        io.k8s.api.resource.v1beta1.Counter value
        io.k8s.api.resource.v1beta1.DeviceCapacity value
        io.k8s.api.resource.v1beta2.Counter value
        io.k8s.api.resource.v1beta2.DeviceCapacity value""",
    RAW_EXTENSION: """
        io.k8s.api.apps.v1.ControllerRevision data
        io.k8s.api.resource.v1.OpaqueDeviceConfiguration parameters
        io.k8s.api.resource.v1beta1.OpaqueDeviceConfiguration parameters
        io.k8s.api.resource.v1beta2.OpaqueDeviceConfiguration parameters""",
    TIME: """
        io.k8s.api.apiserverinternal.v1alpha1.StorageVersionCondition lastTransitionTime
        io.k8s.api.apps.v1.DaemonSetCondition lastTransitionTime
        io.k8s.api.apps.v1.DeploymentCondition lastTransitionTime
        io.k8s.api.apps.v1.DeploymentCondition lastUpdateTime
        io.k8s.api.apps.v1.ReplicaSetCondition lastTransitionTime
        io.k8s.api.apps.v1.StatefulSetCondition lastTransitionTime
        io.k8s.api.authentication.v1.TokenRequestStatus expirationTimestamp
        io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition lastTransitionTime
        io.k8s.api.batch.v1.JobCondition lastProbeTime
        io.k8s.api.batch.v1.JobCondition lastTransitionTime
        io.k8s.api.certificates.v1.CertificateSigningRequestCondition lastTransitionTime
        io.k8s.api.certificates.v1.CertificateSigningRequestCondition lastUpdateTime
        io.k8s.api.core.v1.ContainerStateRunning startedAt
        io.k8s.api.core.v1.ContainerStateTerminated finishedAt
        io.k8s.api.core.v1.ContainerStateTerminated startedAt
        io.k8s.api.core.v1.Event firstTimestamp
        io.k8s.api.core.v1.Event lastTimestamp
        io.k8s.api.core.v1.NamespaceCondition lastTransitionTime
        io.k8s.api.core.v1.NodeCondition lastHeartbeatTime
        io.k8s.api.core.v1.NodeCondition lastTransitionTime
        io.k8s.api.core.v1.PersistentVolumeClaimCondition lastProbeTime
        io.k8s.api.core.v1.PersistentVolumeClaimCondition lastTransitionTime
        io.k8s.api.core.v1.PodCondition lastProbeTime
        io.k8s.api.core.v1.PodCondition lastTransitionTime
        io.k8s.api.core.v1.ReplicationControllerCondition lastTransitionTime
        io.k8s.api.events.v1.Event deprecatedFirstTimestamp
        io.k8s.api.events.v1.Event deprecatedLastTimestamp
        io.k8s.api.flowcontrol.v1.FlowSchemaCondition lastTransitionTime
        io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationCondition lastTransitionTime
        io.k8s.api.storage.v1.VolumeError time
        io.k8s.api.storagemigration.v1alpha1.MigrationCondition lastUpdateTime
        io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition lastTransitionTime
        io.k8s.apimachinery.pkg.apis.meta.v1.Condition lastTransitionTime
        io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceCondition lastTransitionTime""",
}

# How each of those types prints its zero value.
ZERO = {TIME: None, MICRO_TIME: None, QUANTITY: "0", INT_OR_STRING: 0, RAW_EXTENSION: None}
REF_PREFIX = "#/components/schemas/"
ABSENT = object()  # a member with no zero to print


def load(directory):
    """All definitions of all documents; a name defined twice must be defined alike."""
    definitions = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        for name, schema in document.get("components", {}).get("schemas", {}).items():
            if name in definitions and definitions[name] != schema:
                sys.exit(f"{name} differs between documents ({path})")
            definitions[name] = schema
    return definitions


def target(schema):
    """The definition a schema points at, by `$ref` or by a lone `allOf: [{$ref}]`."""
    if not isinstance(schema, dict):
        return None
    ref = schema.get("$ref")
    if ref is None and len(schema.get("allOf", [])) == 1:
        ref = schema["allOf"][0].get("$ref")
    if ref is None:
        return None
    if not ref.startswith(REF_PREFIX):
        sys.exit(f"unexpected reference {ref}")
    return ref[len(REF_PREFIX):]


def shape(prop):
    """(container, referenced definition) of a property, or None when it references none."""
    one = target(prop)
    if one is not None:
        return "one", one
    items = target(prop.get("items"))
    if items is not None:
        return "list", items
    values = target(prop.get("additionalProperties"))
    if values is not None:
        return "map", values
    return None


def nested_reference(prop):
    """Whether a reference sits two containers deep (a list of lists, a map of lists...)."""
    for inner in (prop.get("items"), prop.get("additionalProperties")):
        if isinstance(inner, dict) and target(inner) is None and shape(inner) is not None:
            return True
    return False


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        here, "..", "..", "..", "shared", "openapi", "v3")
    output = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        here, "..", "src", "printing", "types.json")
    definitions = load(directory)

    # The by-value members, checked against the documents: each exists, references the type
    # it is listed under and carries no default (else the documents would say it already).
    by_value = {}
    for referenced, listed in BY_VALUE.items():
        for line in listed.split("\n"):
            if not line.strip():
                continue
            name, member = line.split()
            prop = definitions.get(name, {}).get("properties", {}).get(member)
            if prop is None or target(prop) != referenced or "default" in prop:
                sys.exit(f"{name}.{member} is not a {referenced} member without default")
            by_value[(name, member)] = ZERO[referenced]

    # Built-in kinds and the definition each one decodes into.
    kinds = {}
    for name, schema in definitions.items():
        for gvk in schema.get("x-kubernetes-group-version-kind", []):
            group, version = gvk.get("group", ""), gvk["version"]
            api_version = f"{group}/{version}" if group else version
            previous = kinds.setdefault(api_version, {}).setdefault(gvk["kind"], name)
            if previous != name:
                sys.exit(f"{api_version} {gvk['kind']}: {previous} and {name}")

    # Definitions reachable from a kind, each with its referencing members classified.
    reachable, queue = set(), sorted({n for by_kind in kinds.values() for n in by_kind.values()})
    members = {}
    nested = []
    while queue:
        name = queue.pop()
        if name in reachable:
            continue
        reachable.add(name)
        schema = definitions.get(name)
        if schema is None:
            sys.exit(f"missing definition {name}")
        found = {}
        for member, prop in schema.get("properties", {}).items():
            if nested_reference(prop):
                nested.append(f"{name}.{member}")
            classified = shape(prop)
            if classified is None:
                continue
            container, referenced = classified
            referenced_schema = definitions.get(referenced, {})
            always = (container == "one" and prop.get("default") == {}
                      and referenced_schema.get("type") == "object"
                      and referenced != RAW_EXTENSION)
            zero = by_value.get((name, member), ABSENT)
            found[member] = (container, referenced, always, zero)
            if referenced != QUANTITY:
                queue.append(referenced)
        members[name] = found

    # What the walker needs: definitions holding an always-printed struct or a quantity,
    # directly or through a member's definition (a fixed point, as definitions nest and
    # some recurse).
    needed = set()
    changed = True
    while changed:
        changed = False
        for name, found in members.items():
            if name in needed:
                continue
            if any(always or zero is not ABSENT or referenced == QUANTITY or referenced in needed
                   for _, referenced, always, zero in found.values()):
                needed.add(name)
                changed = True

    types = {}
    counts = {"always": 0, "quantity": 0, "zero": 0}
    for name in sorted(needed):
        kept = {}
        for member, (container, referenced, always, zero) in sorted(members[name].items()):
            entry = {}
            if referenced == QUANTITY:
                entry["quantity"] = True
                counts["quantity"] += 1
            elif referenced in needed:
                entry["type"] = referenced
            if always:
                entry["always"] = True
                counts["always"] += 1
            if zero is not ABSENT:
                entry["zero"] = zero
                counts["zero"] += 1
            if not entry:
                continue
            if container != "one":
                entry["container"] = container
            kept[member] = entry
        types[name] = kept

    kept_kinds = {}
    for api_version in sorted(kinds):
        by_kind = {k: n for k, n in sorted(kinds[api_version].items()) if n in needed}
        if by_kind:
            kept_kinds[api_version] = by_kind

    dump = lambda value: json.dumps(value, sort_keys=True, separators=(",", ":"))
    lines = ['{"kinds":{']
    lines.append(",\n".join(f"{dump(v)}:{dump(kept_kinds[v])}" for v in kept_kinds))
    lines.append('},"types":{')
    lines.append(",\n".join(f"{dump(n)}:{dump(types[n])}" for n in types))
    lines.append("}}")
    text = "\n".join(lines) + "\n"
    json.loads(text)
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)

    recursive = sorted(n for n in needed
                       if any(r == n for _, r, _, _ in members[n].values()))
    print(f"definitions: {len(definitions)}, reachable from a kind: {len(reachable)}, "
          f"kept: {len(types)}", file=sys.stderr)
    print(f"kinds: {sum(len(k) for k in kinds.values())}, "
          f"kept: {sum(len(k) for k in kept_kinds.values())}", file=sys.stderr)
    print(f"always-printed members: {counts['always']}, quantity members: "
          f"{counts['quantity']}, by-value members with a zero: {counts['zero']}, "
          f"bytes: {len(text.encode())}", file=sys.stderr)
    if nested:
        print(f"references two containers deep (not walked): {nested}", file=sys.stderr)
    if recursive:
        print(f"kept definitions referencing themselves: {recursive}", file=sys.stderr)


if __name__ == "__main__":
    main()
