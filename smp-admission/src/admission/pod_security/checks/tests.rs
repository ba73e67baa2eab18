use super::*;

/// The server lists violations in the byte order of the checks' IDs, baseline first.
#[test]
fn checks_are_in_the_servers_order() {
    for level in [Level::Baseline, Level::Restricted] {
        let ids: Vec<&str> = CHECKS
            .iter()
            .filter(|c| c.level == level)
            .map(|c| c.id)
            .collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        assert_eq!(ids, sorted, "{level}");
    }
    let first_restricted = CHECKS
        .iter()
        .position(|c| c.level == Level::Restricted)
        .unwrap();
    assert!(
        CHECKS[first_restricted..]
            .iter()
            .all(|c| c.level == Level::Restricted)
    );
}

#[test]
fn versions_increase_and_overrides_name_baseline_checks() {
    for check in CHECKS {
        assert!(
            check.versions.windows(2).all(|w| w[0].since < w[1].since),
            "{}",
            check.id
        );
        assert!(
            check.versions.iter().all(|v| v.since <= NEWEST_MINOR),
            "{}",
            check.id
        );
        if let Some(id) = check.overrides {
            assert_eq!(check.level, Level::Restricted);
            let overridden = CHECKS.iter().find(|c| c.id == id).unwrap();
            assert_eq!(overridden.level, Level::Baseline);
        }
    }
}

fn ids(level: Level, version: Version) -> Vec<&'static str> {
    for_level(LevelVersion::new(level, version))
        .into_iter()
        .map(|(id, _)| id)
        .collect()
}

/// A restricted check replaces its baseline one only from the version it exists in.
#[test]
fn restricted_replaces_baseline_checks_from_their_versions() {
    let v1_10 = ids(Level::Restricted, Version::V1(10));
    assert!(v1_10.contains(&"capabilities_baseline"));
    assert!(v1_10.contains(&"seccompProfile_baseline"));
    assert!(!v1_10.contains(&"hostPathVolumes"));
    assert!(v1_10.contains(&"allowPrivilegeEscalation"));
    assert!(!v1_10.contains(&"runAsUser"));
    let latest = ids(Level::Restricted, Version::Latest);
    assert!(!latest.contains(&"capabilities_baseline"));
    assert!(!latest.contains(&"seccompProfile_baseline"));
    assert_eq!(latest.len(), 15);
    assert_eq!(ids(Level::Baseline, Version::Latest).len(), 12);
    assert_eq!(ids(Level::Baseline, Version::V1(33)).len(), 11);
    assert_eq!(
        ids(Level::Baseline, Version::V1(1000)),
        ids(Level::Baseline, Version::Latest)
    );
    assert!(ids(Level::Privileged, Version::Latest).is_empty());
}

#[test]
fn phrasing() {
    assert_eq!(join_quote::<&str>(&[]), "");
    assert_eq!(join_quote(&["a", "b"]), r#""a", "b""#);
    assert_eq!(containers_phrase(&["a"]), r#"container "a""#);
    assert_eq!(
        setters(true, &["a", "b"]),
        ["pod", r#"containers "a", "b""#]
    );
}
