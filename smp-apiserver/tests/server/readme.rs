//! The `recipes` guide's in-memory example is the crate documentation's, which runs as a
//! doctest.

/// The code of the fenced block after `marker` in `text`.
fn block_after<'a>(text: &'a str, marker: &str, fence: &str) -> &'a str {
    let after = &text[text.find(marker).expect("the marker") + marker.len()..];
    let start = after.find(fence).expect("the block") + fence.len();
    let body = &after[start..];
    &body[..body.find("```").expect("the closing fence")]
}

#[test]
fn the_guides_example_is_the_crate_documentations() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("smp-core/src/guide/recipes.md")).unwrap();
    let lib = std::fs::read_to_string(root.join("smp-apiserver/src/lib.rs")).unwrap();
    let in_readme = block_after(&readme, "<!-- apiserver: kube -->", "```rust,ignore\n");
    // The documentation's lines without their `//! `.
    let docs: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    let in_docs = block_after(
        &docs,
        "refused for taking the first one's field:",
        "```rust\n",
    );
    assert_eq!(in_readme, in_docs);
}
