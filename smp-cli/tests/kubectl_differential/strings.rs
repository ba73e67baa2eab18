//! Strings that stress the printers: kubectl and smp must print them alike, as JSON (escapes of
//! `<`, `>`, `&`, control characters, U+2028) and as YAML (which scalar style, which escapes,
//! where long lines fold). The random cases use plain words, so these are listed here.

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::{kubectl, run};

/// Values (and, the first few, keys) of a ConfigMap's `data`.
const STRINGS: &[&str] = &[
    "",
    " ",
    "plain",
    "a\tb",
    "x \ty",
    "\tlead",
    "trail\t",
    "line1\n\tline2\n",
    "smile \u{1F600}",
    "é ü",
    "  two leading spaces",
    "trailing space ",
    "multi\nline",
    "multi\nline\n",
    "multi\nline\n\n",
    "\nleading break",
    "true",
    "yes",
    "on",
    "~",
    "null",
    "0x1F",
    "1e3",
    "0755",
    "1:20",
    "2024-01-01",
    ".inf",
    "NaN",
    "-",
    "- a",
    ": x",
    "a: b",
    "#c",
    "a #b",
    "'",
    "\"",
    "\\",
    "<b>&amp;</b>",
    "@x",
    "`x",
    "%x",
    "!x",
    "&x",
    "*x",
    "?x",
    "|x",
    ">x",
    "{x}",
    "[x]",
    "a,b",
    "bell\u{7}",
    "bom\u{feff}x",
    "nul\u{0}esc\u{1b}",
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore",
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\tincididunt ut labore",
    "lorem 'ipsum' dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt: ut labore",
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore\nsecond line",
    "averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongwordwithoutspaces",
];

/// Strings kubectl does not print as YAML: DEL, C1 controls but NEL, and U+FFFE make it fail
/// (`yaml: control characters are not allowed`: it converts its JSON output to YAML with its
/// YAML reader, which refuses them); NEL it prints as a space; U+2028 and U+2029 it writes raw
/// in single quotes, followed by the line's indentation. smp escapes them all in double quotes
/// (`\x7F`, `\N`, `\L`, ...), which reads back as the same string: see README, "Differences
/// from kubectl". Their JSON output is compared.
const YAML_DIFFERS: &[&str] = &[
    "del\u{7f}",
    "c1\u{80}\u{9f}",
    "nel\u{85}x",
    "ls\u{2028}x",
    "ps\u{2029}x",
    "nonchar\u{fffe}",
];

/// How many of [`STRINGS`] (after the empty one, which is no key) are also used as keys.
const KEYS: usize = 24;

#[test]
fn tricky_strings_print_like_kubectl() {
    let kubectl = match kubectl() {
        Ok(k) => &k.path,
        Err(why) => {
            println!("SKIPPED: {why}");
            return;
        }
    };
    let mut data = Map::new();
    for (i, s) in STRINGS.iter().enumerate() {
        data.insert(format!("k{i:03}"), json!(s));
    }
    // Not keys starting with a digit: next to `k001`-like keys they make go-yaml's key order
    // cyclic (`0755` < `0x1F` < `1e3` < `0755`), and kubectl's YAML order then changes from run
    // to run (see smp_core's `yaml::key_order`).
    let keys = STRINGS[1..=KEYS]
        .iter()
        .filter(|s| !s.starts_with(|c: char| c.is_ascii_digit()));
    for s in keys {
        data.insert((*s).to_owned(), json!("v"));
    }
    compare(kubectl, "tricky", data, &["json", "yaml"]);
    let differs = YAML_DIFFERS
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("k{i:03}"), json!(s)));
    compare(kubectl, "yaml-differs", differs.collect(), &["json"]);
}

/// Patches a ConfigMap holding half of `data` with the other half (so both readers and the
/// merge see them) with both tools, and requires the same output in each format; smp's output
/// must read back as the patched object in every format.
fn compare(kubectl: &Path, name: &str, data: Map<String, Value>, formats: &[&str]) {
    let count = data.len();
    let mut original = Map::new();
    let mut patch = Map::new();
    for (i, (k, v)) in data.into_iter().enumerate() {
        if i % 2 == 0 {
            &mut original
        } else {
            &mut patch
        }
        .insert(k, v);
    }
    let object = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name},
        "data": original,
    });
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join(format!("{name}.json"));
    let patch_file = dir.join(format!("{name}-patch.json"));
    std::fs::write(&file, ascii_json(&object)).expect("write");
    std::fs::write(&patch_file, ascii_json(&json!({ "data": patch }))).expect("write");
    let (file, patch_file) = (file.display().to_string(), patch_file.display().to_string());
    let mut patched = None;
    for format in ["json", "yaml"] {
        let args = ["-f", &file, "--patch-file", &patch_file, "-o", format];
        let s = run(
            Path::new(env!("CARGO_BIN_EXE_smp")),
            &[&["patch"], &args[..]].concat(),
        );
        assert!(s.ok, "{name}: smp -o {format}: {}", s.stderr);
        let back = smp_core::input::parse_document(&s.stdout, smp_core::DocRole::Original)
            .unwrap_or_else(|e| panic!("{name}: smp -o {format} reads back: {e}"));
        assert_eq!(
            back["data"].as_object().map(Map::len),
            Some(count),
            "{name}"
        );
        assert_eq!(
            patched.get_or_insert_with(|| back.clone()),
            &back,
            "{name}: -o {format}"
        );
        if !formats.contains(&format) {
            continue;
        }
        let k = run(kubectl, &[&["patch", "--local"], &args[..]].concat());
        assert!(k.ok, "{name}: kubectl -o {format}: {}", k.stderr);
        if s.stdout != k.stdout {
            let first = k
                .stdout
                .lines()
                .zip(s.stdout.lines())
                .position(|(a, b)| a != b);
            panic!(
                "{name} -o {format}: first difference at line {first:?}\nkubectl:\n{}\nsmp:\n{}",
                k.stdout, s.stdout
            );
        }
    }
}

/// Keys go-yaml writes in the explicit form (`? key` then `: value`): longer than 128 bytes, or
/// holding a line break; with every kind of value after them. A custom kind and a merge patch,
/// since a ConfigMap's data holds strings only.
#[test]
fn explicit_keys_print_like_kubectl() {
    let kubectl = match kubectl() {
        Ok(k) => &k.path,
        Err(why) => {
            println!("SKIPPED: {why}");
            return;
        }
    };
    let words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor";
    let keys = [
        "k".repeat(128),
        "k".repeat(129),
        "é".repeat(65),
        format!("{words} {words}"),
        format!("{words} {words} {words}"),
        "multi\nline".to_owned(),
        "\nleading break".to_owned(),
        "trailing break\n".to_owned(),
    ];
    let values = [
        json!("v"),
        json!("multi\nline\n"),
        json!(["a", {"b": 1, "c": [2]}]),
        json!({"x": {"y": 1}, "w": [1, 2]}),
        json!([]),
        json!({}),
        json!(null),
        json!(words),
    ];
    let mut spec = Map::new();
    for (i, key) in keys.iter().enumerate() {
        for (j, value) in values.iter().enumerate() {
            spec.insert(format!("{key}{i}{j}"), value.clone());
        }
        spec.insert(
            format!("n{i}"),
            json!({key.clone(): values[i % values.len()].clone()}),
        );
    }
    let object = json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "keys"},
        "spec": spec,
    });
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("explicit-keys.json");
    std::fs::write(&file, ascii_json(&object)).expect("write");
    let file = file.display().to_string();
    let args = ["-f", &file, "--type", "merge", "-p", "{}", "-o", "yaml"];
    let k = run(kubectl, &[&["patch", "--local"], &args[..]].concat());
    let s = run(
        Path::new(env!("CARGO_BIN_EXE_smp")),
        &[&["patch"], &args[..]].concat(),
    );
    assert!(k.ok && s.ok, "kubectl: {}, smp: {}", k.stderr, s.stderr);
    assert_eq!(s.stdout, k.stdout);
    let back = smp_core::input::parse_document(&s.stdout, smp_core::DocRole::Original)
        .expect("reads back");
    assert_eq!(back, object);
}

/// `value` as JSON with every character past ASCII and DEL escaped (`\u007f`, `\ud83d\ude00`):
/// kubectl reads a file through its YAML reader, which refuses DEL, C1 controls and a BOM
/// inside the text even where JSON allows them (`yaml: control characters are not allowed`).
fn ascii_json(value: &Value) -> String {
    let mut out = String::new();
    for c in value.to_string().chars() {
        if c.is_ascii() && c != '\u{7f}' {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}
