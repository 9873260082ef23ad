//! Predictions per candidate: the answer the same edit got on an earlier text. A candidate
//! is its base (the text the algorithm holds when it makes it) with one edit, and the edit
//! is named by what differs: the bytes between the longest common prefix and suffix of base
//! and candidate, on each side, with a few bytes of context around them. When a bet on the
//! failure of a pending candidate is lost (the pending one won), its run still answered for
//! the same edit on the old base; the algorithm's next test is usually that very edit on the
//! new base (the next node of HDD, the next chunk of ddmin), and an edit that was
//! interesting on the old base mostly is on the new one: successes found side by side merge,
//! as C-Vise folds the successes of its workers ("C-Vise: super-parallel Python port of
//! C-Reduce") and Shrink Ray merges concurrent deletions. The lookahead assumes such a test
//! interesting as soon as its run starts (see *Assumptions* in `lookahead`); a wrong hint
//! costs a replay, never a different result.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::super::cache::Key;

/// Bytes of context kept on each side of an edit: enough to tell apart equal edits at
/// different places (the same statement written twice), few enough that an edit next to
/// another one that was made meanwhile is still the same edit.
const CONTEXT: usize = 4;

/// At most this many edits are remembered; older ones are forgotten all at once.
const LIMIT: usize = 1 << 16;

/// The name of the edit that turns `base` into `candidate` (see the module docs).
pub(crate) fn signature(base: &[u8], candidate: &[u8]) -> u64 {
    let (start, old_end, new_end) = treedd_tree::changed_range(base, candidate);
    let removed = &base[start..old_end];
    let inserted = &candidate[start..new_end];
    let before = &base[start.saturating_sub(CONTEXT)..start];
    let after = &base[old_end..(old_end + CONTEXT).min(base.len())];
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (before, after).hash(&mut h);
    hash_ends(removed, &mut h);
    hash_ends(inserted, &mut h);
    h.finish()
}

/// Bytes hashed at each end of a long removed or inserted text.
const ENDS: usize = 128;

/// Hash `text` by its length and at most [`ENDS`] bytes at each end: a large edit is told
/// apart by where it starts and ends, and hashing it all would cost time in proportion to
/// the text on megabyte inputs.
fn hash_ends(text: &[u8], h: &mut impl Hasher) {
    text.len().hash(h);
    if text.len() <= 2 * ENDS {
        text.hash(h);
    } else {
        text[..ENDS].hash(h);
        text[text.len() - ENDS..].hash(h);
    }
}

/// The edits of the candidates the lookahead has seen and the last answer each edit got.
#[derive(Default)]
pub(super) struct Hints {
    edit_of: HashMap<Key, u64>,
    answers: HashMap<u64, bool>,
}

impl Hints {
    /// `key` is a candidate made by the edit `edit`.
    pub fn note(&mut self, key: Key, edit: u64) {
        if self.edit_of.len() >= LIMIT {
            self.edit_of.clear();
        }
        self.edit_of.insert(key, edit);
    }

    /// The oracle answered `key`: its edit gets that answer.
    pub fn answered(&mut self, key: &Key, interesting: bool) {
        if let Some(&edit) = self.edit_of.get(key) {
            if self.answers.len() >= LIMIT {
                self.answers.clear();
            }
            self.answers.insert(edit, interesting);
        }
    }

    /// The answer the edit of `key` got last, on whatever text it was made.
    pub fn predicts_key(&self, key: &Key) -> Option<bool> {
        self.edit_of.get(key).and_then(|e| self.predicts(*e))
    }

    /// The answer `edit` got last, on whatever text it was made.
    pub fn predicts(&self, edit: u64) -> Option<bool> {
        self.answers.get(&edit).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_is_the_same_on_a_base_changed_elsewhere() {
        let base = b"int a; int b; int c; int d;";
        let later = b"int a; int c; int d;"; // `int b;` removed meanwhile
        let on_base = signature(base, b"int a; int b; int c; ");
        let on_later = signature(later, b"int a; int c; ");
        assert_eq!(on_base, on_later, "removing `int d;` is one edit");
        assert_ne!(
            signature(base, b"int a; int b; int d;"),
            on_base,
            "removing `int c;` is another"
        );
        // The same text removed at another place is another edit.
        let twice = b"f(); x = 1; g(); x = 1; h();";
        assert_ne!(
            signature(twice, b"f(); g(); x = 1; h();"),
            signature(twice, b"f(); x = 1; g(); h();")
        );
    }

    #[test]
    fn hints_give_the_last_answer_of_an_edit() {
        let mut h = Hints::default();
        let (k1, k2, k3) = ([1; 32], [2; 32], [3; 32]);
        h.note(k1, 7);
        h.note(k2, 7);
        h.note(k3, 8);
        assert_eq!(h.predicts(7), None);
        h.answered(&k1, true);
        assert_eq!(h.predicts(7), Some(true));
        h.answered(&k2, false);
        assert_eq!(h.predicts(7), Some(false));
        h.answered(&[4; 32], true);
        assert_eq!(h.predicts(8), None, "an answer for a key without an edit");
    }
}
