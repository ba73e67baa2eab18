//! The set a duplicate check keeps of the strings it has met so far in one list (container
//! names, port names, mount paths).
//!
//! Such lists are short: a handful of ports or mounts per container. A set of up to
//! [`FEW`] members is kept inline and searched one by one, which costs less than hashing each
//! member; past that it moves into a `HashSet` keyed per process (std's `RandomState`), so an
//! insert stays O(1) and a long list cannot be made to collide.

use std::collections::HashSet;

/// How many members are kept inline before the set hashes.
const FEW: usize = 8;

/// The strings met so far.
#[derive(Debug, Default)]
pub(crate) struct Seen<'a> {
    few: [&'a str; FEW],
    len: usize,
    many: Option<HashSet<&'a str>>,
}

impl<'a> Seen<'a> {
    pub(crate) fn new() -> Self {
        Seen::default()
    }

    /// Whether `s` was met already.
    pub(crate) fn contains(&self, s: &str) -> bool {
        match &self.many {
            Some(set) => set.contains(s),
            None => self.few[..self.len].contains(&s),
        }
    }

    /// Adds `s`; false when it was met already (as `HashSet::insert`).
    pub(crate) fn insert(&mut self, s: &'a str) -> bool {
        if let Some(set) = &mut self.many {
            return set.insert(s);
        }
        if self.few[..self.len].contains(&s) {
            return false;
        }
        if self.len < FEW {
            self.few[self.len] = s;
            self.len += 1;
        } else {
            let mut set: HashSet<&'a str> = self.few.iter().copied().collect();
            set.insert(s);
            self.many = Some(set);
        }
        true
    }
}

impl<'a> FromIterator<&'a str> for Seen<'a> {
    fn from_iter<I: IntoIterator<Item = &'a str>>(items: I) -> Self {
        let mut seen = Seen::new();
        for s in items {
            seen.insert(s);
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_before_and_after_it_hashes() {
        let names: Vec<String> = (0..20).map(|i| format!("n{i}")).collect();
        let mut seen = Seen::new();
        for (i, n) in names.iter().enumerate() {
            assert!(seen.insert(n), "{n} is new");
            assert!(!seen.insert(n), "{n} is met again");
            for earlier in &names[..=i] {
                assert!(seen.contains(earlier));
            }
            assert!(!seen.contains("absent"));
        }
    }
}
