#!/usr/bin/env python3
"""Writes seed corpora for the fuzz targets to fuzz/corpus/<target>/ (git-ignored).

Seeds come from the repository's examples (examples/*.yaml, examples/*.json,
examples/manifests/*.yaml), textual edits of them (a scalar changed, a leaf deleted), the two
example patches, and small random documents and patches of the fuzz schema
(fuzz_targets/common/mod.rs: `items`, `retained`, `tags`, `ports`, `taints`, ... with every
directive). Each seed follows its target's input layout (see the target's module comment):

  apply      flags byte, original, NUL, patch
  sparse     flags byte, original, NUL, patch (JSON text, as apply_json reads it)
  diff       a, NUL, b
  three_way  flags byte, original, NUL, modified, NUL, current
  readers    role byte, text

Standard library only; deterministic (fixed random seed). Usage: python3 fuzz/seed_corpus.py
"""

import hashlib
import json
import random
import re
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
CORPUS = FUZZ / "corpus"
rng = random.Random(20261123)


def write(target, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def examples():
    files = sorted((ROOT / "examples").glob("*.yaml")) + sorted(
        (ROOT / "examples" / "manifests").glob("*.yaml")
    )
    return {p.name: p.read_bytes() for p in files}


LEAF = re.compile(rb"^(\s*)([A-Za-z0-9_.\-/]+): (\S.*)$")


def edit(text, edits=2):
    """A YAML manifest with a few leaf lines changed or deleted (still valid YAML in most
    cases: only `key: value` lines that do not start a list item are touched)."""
    lines = text.split(b"\n")
    leaves = [i for i, line in enumerate(lines) if LEAF.match(line)]
    for _ in range(edits):
        if not leaves:
            break
        i = rng.choice(leaves)
        m = LEAF.match(lines[i])
        if m is None:
            continue
        if rng.random() < 0.5:
            lines[i] = m.group(1) + m.group(2) + b": " + rng.choice(
                [b"changed", b"42", b"true", b"'quoted'", b"[a, b]", b"{x: 1}"]
            )
        else:
            lines[i] = m.group(1) + b"# deleted"
    return b"\n".join(lines)


# ---------------------------------------------------------------------------------------
# Documents of the fuzz schema


def pick(*xs):
    return rng.choice(xs)


def unique(items, key):
    seen, out = set(), []
    for item in items:
        k = json.dumps(key(item), sort_keys=True)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def item(depth):
    d = {}
    if rng.random() < 0.8:
        d["name"] = pick("a", "b", "c", "d", "e")
    if rng.random() < 0.5:
        d["value"] = pick("x", "y", "1", "")
    if rng.random() < 0.3:
        d["port"] = pick(53, 80, 443)
    if rng.random() < 0.3:
        d["protocol"] = pick("TCP", "UDP")
    if rng.random() < 0.2:
        d["key"] = pick("k1", "k2")
    if rng.random() < 0.2:
        d["effect"] = pick("NoSchedule", "NoExecute")
    if depth > 0:
        if rng.random() < 0.5:
            d["items"] = unique([named(depth - 1) for _ in range(rng.randrange(4))], lambda i: i["name"])
        if rng.random() < 0.3:
            d["retained"] = unique([named(depth - 1) for _ in range(rng.randrange(3))], lambda i: i["name"])
        if rng.random() < 0.4:
            d["tags"] = list(dict.fromkeys(pick("t1", "t2", "t3", "t4") for _ in range(rng.randrange(4))))
        if rng.random() < 0.4:
            d["ports"] = unique(
                [{"port": pick(53, 80), "protocol": pick("TCP", "UDP"), "name": pick("p", "q")} for _ in range(rng.randrange(4))],
                lambda i: (i["port"], i["protocol"]),
            )
        if rng.random() < 0.3:
            d["taints"] = unique(
                [{"key": pick("k1", "k2"), "effect": pick("NoSchedule", "NoExecute"), "value": pick("v", "w")} for _ in range(rng.randrange(3))],
                lambda i: (i["key"], i["effect"]),
            )
        if rng.random() < 0.2:
            d["plain"] = [item(depth - 1) for _ in range(rng.randrange(3))]
        if rng.random() < 0.2:
            d["replaced"] = item(depth - 1)
        if rng.random() < 0.3:
            d["labels"] = {pick("l1", "l2", "l3"): pick("v1", "v2") for _ in range(rng.randrange(3))}
        if rng.random() < 0.3:
            d["child"] = item(depth - 1)
    return d


def named(depth):
    d = item(depth)
    d["name"] = pick("a", "b", "c", "d", "e")
    return d


def mutate(doc, depth=0):
    """A changed copy: members dropped, scalars changed, list items added, removed, moved."""
    if isinstance(doc, dict):
        out = {}
        for k, v in doc.items():
            r = rng.random()
            if r < 0.15:
                continue
            out[k] = mutate(v, depth + 1) if r < 0.6 else v
        if rng.random() < 0.3:
            out.update(item(1))
        return out
    if isinstance(doc, list):
        out = [mutate(v, depth + 1) if rng.random() < 0.4 else v for v in doc if rng.random() > 0.2]
        if rng.random() < 0.3:
            rng.shuffle(out)
        return out
    if isinstance(doc, str):
        return doc if rng.random() < 0.5 else pick("a", "b", "z", "")
    if isinstance(doc, int) and not isinstance(doc, bool):
        return doc if rng.random() < 0.5 else pick(53, 80, 443, 1)
    return doc


def directive_patch(doc):
    """A strategic patch for `doc` using every directive the engine knows."""
    p = mutate(doc)
    names = [i.get("name") for i in doc.get("items", []) if isinstance(i, dict)]
    if names and rng.random() < 0.5:
        p["items"] = [{"name": rng.choice(names), "$patch": "delete"}]
        p["$setElementOrder/items"] = [{"name": n} for n in reversed(names)]
    if doc.get("tags") and rng.random() < 0.5:
        p["$deleteFromPrimitiveList/tags"] = doc["tags"][:1]
        p["$setElementOrder/tags"] = list(reversed(doc["tags"]))
    if doc.get("ports") and rng.random() < 0.5:
        p["ports"] = [dict(port, **{"$patchMergeKey": ["port", "protocol"]}) for port in doc["ports"][:1]]
    if doc.get("retained") and rng.random() < 0.5:
        p["retained"] = [{"name": doc["retained"][0]["name"], "$retainKeys": ["name", "value"], "value": "r"}]
    if rng.random() < 0.2:
        p["child"] = {"$patch": pick("replace", "delete"), "name": "n"}
    if rng.random() < 0.2:
        p["labels"] = {"l1": None}
    if rng.random() < 0.1:
        p["$patch"] = "replace"
    return p


def js(doc):
    return json.dumps(doc, sort_keys=rng.random() < 0.5, indent=pick(None, 2)).encode()


READER_SNIPPETS = [
    b"a: yes\nb: off\nc: ~\nd:\ne: 0755\nf: 0x1F\ng: 1_000\nh: 1.0\ni: 1.5\nj: '1'\nk: \"on\"\n",
    b"l: |\n  text\nm: >\n  folded\n  line\nts: 2001-12-14\nn: -.5e+3\no: .inf\n",
    b"base: &base {a: 1, b: 2}\none:\n  <<: *base\n  b: 20\nmany:\n  <<: [*base, {c: 3}]\n",
    b"a: !!str 1\nb: !!int \"12\"\nc: !!float 2\nd: !!bool 'yes'\ne: !!null ''\nf: !custom {k: on}\n",
    b"1: a\non: c\n1.5: d\n0x10: e\n1e6: g\n? complex\n: value\n",
    b"---\na: 1\n---\n---\n- 3\n...\n---\nb: [1, 2,]\n",
    b'{"a": [1, -2, 1.5, 1.0, 1e3, true, null, "x\\n\\u00e9\\ud83d\\ude00"], "e": -0.0, "f": 1e400}',
    b'{"a": 1, "a": 2}',
    b"\xef\xbb\xbfkey: value\n# comment\nlist:\n- 'it''s'\n- \"\\x41\\u263A\"\n- 'a: b'\n",
    b"[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]",
    b"a:\n  b:\n    c:\n      d: [x, {y: z}]\n",
]


def main():
    ex = examples()
    manifests = list(ex.values())
    schema_json = (ROOT / "examples" / "pod-schema.json").read_bytes()
    patches = [
        (ex["pod.yaml"], ex["patch.yaml"]),
        (ex["deployment.yaml"], ex["deployment-patch.yaml"]),
    ]
    typed = [item(3) for _ in range(60)]

    # apply
    for orig, patch in patches:
        for flags in (0, 1):
            write("apply", bytes([flags]) + orig + b"\0" + patch)
    for m in manifests:
        write("apply", b"\0" + m + b"\0" + edit(m))
    for doc in typed:
        write("apply", b"\1" + js(doc) + b"\0" + js(directive_patch(doc)))

    # diff
    write("diff", ex["pod.yaml"] + b"\0" + ex["pod-running.yaml"])
    for m in manifests:
        write("diff", m + b"\0" + edit(m))
    for doc in typed:
        write("diff", js(doc) + b"\0" + js(mutate(doc)))

    # three_way
    for m in manifests:
        write("three_way", b"\0" + m + b"\0" + edit(m) + b"\0" + edit(m))
        write("three_way", b"\1" + m + b"\0" + edit(m) + b"\0")
    for doc in typed:
        flags = rng.randrange(2)
        write("three_way", bytes([flags]) + js(doc) + b"\0" + js(mutate(doc)) + b"\0" + js(mutate(doc)))

    # readers
    texts = manifests + [schema_json] + [p for _, p in patches] + READER_SNIPPETS
    texts += [js(doc) for doc in typed[:20]]
    for i, text in enumerate(texts):
        write("readers", bytes([i % 5]) + text)

    # sparse (after the others, so that their seeds stay as they were)
    fixtures = ROOT / "smp-core" / "benches" / "fixtures"
    for size in ("pod3", "pod50"):
        pod = (fixtures / f"{size}.json").read_bytes()
        image = (fixtures / f"{size}-image-patch.json").read_bytes()
        for flags in (0, 1):
            write("sparse", bytes([flags]) + pod + b"\0" + image)
    for doc in typed:
        write("sparse", b"\1" + js(doc) + b"\0" + js(directive_patch(doc)))
    for snippet in READER_SNIPPETS:
        if snippet.startswith((b"{", b"[")):
            write("sparse", b"\0" + snippet + b"\0" + b'{"a": null, "b": {"c": 1}}')

    for target in ("apply", "diff", "three_way", "readers", "sparse"):
        print(target, len(list((CORPUS / target).iterdir())))


if __name__ == "__main__":
    main()
