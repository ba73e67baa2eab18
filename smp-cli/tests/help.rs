//! The command explains itself and sets no trap: every subcommand's help has a summary, its
//! options with their defaults and an example; `smp apply` is what a kubectl user expects,
//! while its old spelling (`smp apply ORIGINAL PATCH`, now `smp merge`) keeps working and says
//! so; completions and man pages come from the command definition.

mod common;

use common::{assert_error, assert_success, smp};

const SUBCOMMANDS: [&str; 8] = [
    "patch",
    "apply-config",
    "merge",
    "diff",
    "three-way",
    "normalize",
    "completions",
    "man",
];

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_subcommand_has_a_summary_options_defaults_and_an_example() {
    for sub in SUBCOMMANDS {
        let out = smp(&["help", sub], None);
        assert_success(&out);
        let text = stdout(&out);
        assert!(
            text.contains(&format!("Usage: smp {sub}")),
            "{sub}:\n{text}"
        );
        let example = text.split_once("Example:\n").map(|(_, e)| e).unwrap_or("");
        assert!(
            example.contains("\n  smp ") || example.starts_with("  smp "),
            "{sub} has no example:\n{text}"
        );
        if !matches!(sub, "completions" | "man") {
            assert!(text.contains("[default: json]"), "{sub}: -o default");
            assert!(text.contains("[default: 64MiB]"), "{sub}: size default");
        }
    }
    // The output forms are what each command prints: kubectl's 4-space JSON for `patch`,
    // 2-space for the others.
    let patch = stdout(&smp(&["help", "patch"], None));
    assert!(patch.contains("4-space indent"), "{patch}");
    assert!(!patch.contains("2-space"), "{patch}");
    for sub in ["merge", "diff", "three-way", "normalize", "apply-config"] {
        let text = stdout(&smp(&["help", sub], None));
        assert!(text.contains("2-space indent"), "{sub}:\n{text}");
    }
    let top = stdout(&smp(&["--help"], None));
    for sub in SUBCOMMANDS {
        assert!(
            top.contains(&format!("\n  {sub} ")),
            "{sub} not listed:\n{top}"
        );
    }
    assert!(top.contains("[alias: apply]"), "{top}");
}

#[test]
fn apply_is_kubectl_apply_and_the_old_spelling_still_merges() {
    let live = "examples/apply-config/live.yaml";
    let desired = "examples/apply-config/desired.yaml";
    let config = smp(&["apply-config", "--live", live, "-f", desired], None);
    assert_success(&config);
    let apply = smp(&["apply", "-f", desired, "--live", live], None);
    assert_success(&apply);
    assert_eq!(stdout(&apply), stdout(&config));
    assert!(apply.stderr.is_empty());

    let merge = smp(&["merge", "examples/pod.yaml", "examples/patch.yaml"], None);
    assert_success(&merge);
    assert!(merge.stderr.is_empty());
    let legacy = smp(&["apply", "examples/pod.yaml", "examples/patch.yaml"], None);
    assert_success(&legacy);
    assert_eq!(stdout(&legacy), stdout(&merge));
    let warning = String::from_utf8_lossy(&legacy.stderr);
    assert!(
        warning.starts_with("warning: `smp apply ORIGINAL PATCH` is now `smp merge")
            && warning.lines().count() == 1,
        "{warning}"
    );
}

#[test]
fn completions_and_man_pages() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = smp(&["completions", shell], None);
        assert_success(&out);
        let text = stdout(&out);
        assert!(
            text.contains("apply-config") && text.contains("patch-file"),
            "{shell}"
        );
    }
    let page = smp(&["man"], None);
    assert_success(&page);
    let text = stdout(&page);
    assert!(
        text.contains(".TH smp 1") && text.contains("apply\\-config"),
        "{text}"
    );
    let page = smp(&["man", "patch"], None);
    assert_success(&page);
    assert!(stdout(&page).contains("\\-\\-patch\\-file"));
    assert_error(&smp(&["man", "nope"], None), &["no subcommand \"nope\""]);
}
