//! Where warnings go: a model of the server's warning recorder
//! (`k8s.io/apiserver/pkg/endpoints/filters/warning.go`), which sends each text once, and
//! once the texts pass 4096 characters in all cuts every warning (those already sent
//! included) to 256 characters and takes no more once the cut ones fill the budget.
//!
//! Because what is sent is bounded, the checks ask [`Sink::is_full`] and stop early: a
//! list whose items all clash with each other yields a quadratic number of warnings
//! upstream, of which only the first few hundred characters are ever sent.

use std::collections::HashSet;

/// Past this many characters in all, the server cuts each warning short.
const TOTAL_CHARS: usize = 4 * 1024;
/// What each warning is cut to once the total is exceeded.
const ITEM_CHARS: usize = 256;

/// The warnings recorded so far, as the server would send them.
#[derive(Debug, Default)]
pub(super) struct Sink {
    seen: HashSet<String>,
    /// Every distinct text, kept until cutting starts (they are sent again, cut).
    recorded: Vec<String>,
    sent: Vec<String>,
    written: usize,
    truncating: bool,
}

impl Sink {
    /// Records a warning as the server's `AddWarning` does.
    pub(super) fn push(&mut self, text: String) {
        if text.is_empty() || self.is_full() || self.seen.contains(&text) {
            return;
        }
        self.seen.insert(text.clone());
        if self.truncating {
            let (shown, chars) = cut(&text);
            self.written += chars;
            self.sent.push(shown);
            return;
        }
        let chars = text.chars().count();
        if self.written + chars <= TOTAL_CHARS {
            self.written += chars;
            self.recorded.push(text.clone());
            self.sent.push(text);
            return;
        }
        self.recorded.push(text);
        self.truncating = true;
        self.written = 0;
        self.sent.clear();
        for text in std::mem::take(&mut self.recorded) {
            let (shown, chars) = cut(&text);
            self.written += chars;
            self.sent.push(shown);
        }
    }

    /// Whether nothing more will be sent.
    pub(super) fn is_full(&self) -> bool {
        self.truncating && self.written >= TOTAL_CHARS
    }

    /// What the server sends.
    pub(super) fn into_sent(self) -> Vec<String> {
        self.sent
    }
}

fn cut(text: &str) -> (String, usize) {
    let chars = text.chars().count();
    if chars > ITEM_CHARS {
        (text.chars().take(ITEM_CHARS).collect(), ITEM_CHARS)
    } else {
        (text.to_owned(), chars)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send(warnings: Vec<String>) -> Vec<String> {
        let mut sink = Sink::default();
        for w in warnings {
            sink.push(w);
        }
        sink.into_sent()
    }

    #[test]
    fn repeated_texts_are_sent_once() {
        let sent = send(vec!["a".into(), "b".into(), "a".into(), String::new()]);
        assert_eq!(sent, ["a", "b"]);
    }

    #[test]
    fn past_the_budget_every_warning_is_cut() {
        let five: Vec<String> = "abcde"
            .chars()
            .map(|c| c.to_string().repeat(1000))
            .collect();
        let sent = send(five);
        assert_eq!(sent.len(), 5);
        assert!(sent.iter().all(|w| w.chars().count() == ITEM_CHARS));
        // 13 warnings of about 300 characters fit; the 14th starts the cutting, and with
        // the 16th the cut ones fill the budget.
        let many: Vec<String> = (0..40).map(|i| format!("{i}{}", "x".repeat(300))).collect();
        let sent = send(many);
        assert_eq!(sent.len(), 16);
    }
}
