//! The four test schemas of the upstream corpus (FORMAT §8) are other projects' files, so this
//! repository keeps only a record of what smp reads from them (`tests/conformance/schemas`,
//! written by `smp_core::openapi::write`: shapes, patch strategies and merge keys, no prose).
//! Every conformance case runs on the records; these tests prove the records equal to the
//! upstream files, read from the shared data (`../shared/conformance/upstream`), and skip,
//! saying so, without them.
//!
//! `SMP_BLESS=1 cargo test -p smp-tests --test integration upstream_schemas::` rewrites the records.

use crate::support;

use serde_json::Value;
use smp_core::Schema;
use smp_core::schema::compare;

/// Each record is exactly what smp writes for the schema it loads from the upstream file, and
/// the two load as equal schemas.
#[test]
fn records_are_what_smp_reads_from_the_upstream_files() {
    let bless = std::env::var_os("SMP_BLESS").is_some();
    for (upstream, definition, record) in support::SCHEMA_FILES {
        let Some(doc) = support::upstream_swagger(upstream) else {
            return;
        };
        let from_upstream =
            Schema::from_openapi(&doc, definition).unwrap_or_else(|e| panic!("{upstream}: {e}"));
        let written = smp_core::openapi::write(from_upstream.root());
        assert_eq!(written.root, definition, "{upstream}");
        let path = support::schemas_dir().join(record);
        if bless {
            let text = serde_json::to_string_pretty(&written.document).expect("prints") + "\n";
            std::fs::create_dir_all(support::schemas_dir()).expect("mkdir");
            std::fs::write(&path, text).expect("writes");
        }
        let recorded = support::recorded_schema(record);
        assert_eq!(
            recorded, written.document,
            "{record} differs from {upstream}"
        );
        let from_record = Schema::from_openapi(&recorded, definition).expect("loads");
        assert_eq!(compare(from_record.root(), from_upstream.root()), Ok(()));
        assert_eq!(compare(from_upstream.root(), from_record.root()), Ok(()));
    }
}

/// The v2 merge-item schema is not strict JSON; the harness reads it with the workspace's
/// lenient reader. Check that this reads exactly what the file means: the same value as strict
/// JSON once its one trailing comma is dropped.
#[test]
fn lenient_reader_reads_swagger_v2_as_meant() {
    let Some(path) = smp_testdata::file("conformance/upstream/swagger-merge-item.json") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let bad = "\"description\": \"JSON field\",";
    assert_eq!(text.matches(bad).count(), 1, "the corpus file changed");
    let strict: Value =
        serde_json::from_str(&text.replacen(bad, "\"description\": \"JSON field\"", 1)).unwrap();
    assert!(serde_json::from_str::<Value>(&text).is_err());
    assert_eq!(
        support::upstream_swagger("swagger-merge-item.json"),
        Some(strict)
    );
}
