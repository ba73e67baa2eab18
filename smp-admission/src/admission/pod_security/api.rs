//! Levels, versions and the policy a namespace's labels ask for (`k8s.io/pod-security-admission`
//! `api`): `pod-security.kubernetes.io/<mode>` holds a level, `<mode>-version` a version, for
//! each of the modes enforce, audit and warn.

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Map, Value};

use crate::validation::field::{self, ErrorList, Path};

/// The prefix of the namespace labels the plugin reads.
pub const LABEL_PREFIX: &str = "pod-security.kubernetes.io/";

/// A Pod Security Standards level, from least to most restrictive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// No restriction.
    Privileged,
    /// Known privilege escalations refused.
    Baseline,
    /// Current pod hardening practice.
    Restricted,
}

impl Level {
    /// The level a label names (`privileged`, `baseline`, `restricted`).
    pub fn parse(text: &str) -> Option<Level> {
        match text {
            "privileged" => Some(Level::Privileged),
            "baseline" => Some(Level::Baseline),
            "restricted" => Some(Level::Restricted),
            _ => None,
        }
    }

    /// The label's word for the level.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Privileged => "privileged",
            Level::Baseline => "baseline",
            Level::Restricted => "restricted",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The version of the standards a policy holds pods to: `v1.N`, or `latest` (newer than any
/// numbered version).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    /// `v1.<minor>`.
    V1(u32),
    /// `latest`.
    Latest,
}

impl Version {
    /// The version a label names: `latest` or `v1.N` (no leading zero, as the server reads
    /// it).
    pub fn parse(text: &str) -> Option<Version> {
        if text == "latest" {
            return Some(Version::Latest);
        }
        let digits = text.strip_prefix("v1.")?;
        let well_formed = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        if !well_formed {
            return None;
        }
        // Go's `strconv.Atoi` refuses what does not fit in 64 bits; a minor beyond `u32`
        // names no version that will ever have checks, and reads as the newest there is.
        let minor: u64 = digits.parse().ok()?;
        Some(Version::V1(u32::try_from(minor).unwrap_or(u32::MAX)))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Version) -> Ordering {
        match (self, other) {
            (Version::Latest, Version::Latest) => Ordering::Equal,
            (Version::Latest, _) => Ordering::Greater,
            (_, Version::Latest) => Ordering::Less,
            (Version::V1(a), Version::V1(b)) => a.cmp(b),
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Version::V1(minor) => write!(f, "v1.{minor}"),
            Version::Latest => f.write_str("latest"),
        }
    }
}

/// A level at a version, printed `restricted:latest` as the server's messages print it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LevelVersion {
    /// The level.
    pub level: Level,
    /// The version of its checks.
    pub version: Version,
}

impl LevelVersion {
    /// `level` at `version`.
    pub const fn new(level: Level, version: Version) -> LevelVersion {
        LevelVersion { level, version }
    }

    /// `privileged:latest`, every mode's default.
    pub const PRIVILEGED: LevelVersion = LevelVersion::new(Level::Privileged, Version::Latest);

    /// Whether the two check the same: equal, or both `privileged` (whose checks are none at
    /// every version).
    pub fn equivalent(&self, other: &LevelVersion) -> bool {
        (self.level == Level::Privileged && other.level == Level::Privileged) || self == other
    }
}

impl fmt::Display for LevelVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.level, self.version)
    }
}

/// What a namespace asks of its pods in each mode: `enforce` refuses a pod that violates its
/// level, `warn` sends a warning, `audit` annotates the audit event (which this crate has no
/// log for).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Policy {
    /// Refuses violating pods.
    pub enforce: LevelVersion,
    /// Records violations in the audit log.
    pub audit: LevelVersion,
    /// Warns about violations (also for the pod templates of workloads).
    pub warn: LevelVersion,
}

impl Default for Policy {
    /// kube-apiserver's default configuration: every mode `privileged:latest`.
    fn default() -> Policy {
        Policy {
            enforce: LevelVersion::PRIVILEGED,
            audit: LevelVersion::PRIVILEGED,
            warn: LevelVersion::PRIVILEGED,
        }
    }
}

impl Policy {
    /// Whether every mode is [equivalent](LevelVersion::equivalent) to `other`'s.
    pub fn equivalent(&self, other: &Policy) -> bool {
        self.enforce.equivalent(&other.enforce)
            && self.audit.equivalent(&other.audit)
            && self.warn.equivalent(&other.warn)
    }

    /// Whether no mode checks anything.
    pub fn fully_privileged(&self) -> bool {
        [self.enforce, self.audit, self.warn]
            .iter()
            .all(|lv| lv.level == Level::Privileged)
    }

    /// The policy a namespace's labels ask for over `defaults`, and the errors of the labels
    /// that hold no level or version (`PolicyToEvaluate`). A bad enforce label keeps its
    /// default mode value where the server's parser leaves `restricted`, and a bad audit or
    /// warn level falls back to `privileged` (they fail open). Without a warn label, warn is
    /// raised to a stricter enforce level (and its version, unless warn has one).
    pub fn from_labels(
        labels: Option<&Map<String, Value>>,
        defaults: &Policy,
    ) -> (Policy, ErrorList) {
        let mut policy = *defaults;
        let mut errs = ErrorList::new();
        let Some(labels) = labels.filter(|l| !l.is_empty()) else {
            return (policy, errs);
        };
        // The six labels, read in one pass (a label that is not a string reads as "").
        const MODES: [&str; 6] = [
            "enforce",
            "enforce-version",
            "audit",
            "audit-version",
            "warn",
            "warn-version",
        ];
        let mut found: [Option<&str>; 6] = [None; 6];
        for (key, value) in labels {
            if let Some(mode) = key.strip_prefix(LABEL_PREFIX)
                && let Some(i) = MODES.iter().position(|m| *m == mode)
            {
                found[i] = Some(value.as_str().unwrap_or(""));
            }
        }
        let label = |mode: &str| MODES.iter().position(|m| *m == mode).and_then(|i| found[i]);
        let mut has_enforce_level = false;
        if let Some(text) = label("enforce") {
            match Level::parse(text) {
                Some(level) => {
                    policy.enforce.level = level;
                    has_enforce_level = true;
                }
                // `ParseLevel` answers `restricted` with its error.
                None => {
                    policy.enforce.level = Level::Restricted;
                    errs.push(level_error("enforce", text));
                }
            }
        }
        if let Some(text) = label("enforce-version") {
            policy.enforce.version = version_or_error("enforce-version", text, &mut errs);
        }
        if let Some(text) = label("audit") {
            policy.audit.level = Level::parse(text).unwrap_or_else(|| {
                errs.push(level_error("audit", text));
                Level::Privileged
            });
        }
        if let Some(text) = label("audit-version") {
            policy.audit.version = version_or_error("audit-version", text, &mut errs);
        }
        let warn_level = label("warn");
        if let Some(text) = warn_level {
            policy.warn.level = Level::parse(text).unwrap_or_else(|| {
                errs.push(level_error("warn", text));
                Level::Privileged
            });
        }
        let warn_version = label("warn-version");
        if let Some(text) = warn_version {
            policy.warn.version = version_or_error("warn-version", text, &mut errs);
        }
        if warn_level.is_none() && has_enforce_level && policy.enforce.level > policy.warn.level {
            policy.warn.level = policy.enforce.level;
            if warn_version.is_none() {
                policy.warn.version = policy.enforce.version;
            }
        }
        (policy, errs)
    }
}

fn label_path_error(mode: &str, value: &str, detail: &str) -> field::FieldError {
    let labels = Path::names(&["metadata", "labels"]);
    let key = format!("{LABEL_PREFIX}{mode}");
    field::invalid(&labels.key(&key), value, detail)
}

fn level_error(mode: &str, value: &str) -> field::FieldError {
    label_path_error(
        mode,
        value,
        "must be one of privileged, baseline, restricted",
    )
}

/// The version a label names, or `latest` with an error (as `ParseVersion` answers).
fn version_or_error(mode: &str, value: &str, errs: &mut ErrorList) -> Version {
    Version::parse(value).unwrap_or_else(|| {
        errs.push(label_path_error(
            mode,
            value,
            r#"must be "latest" or "v1.x""#,
        ));
        Version::Latest
    })
}
