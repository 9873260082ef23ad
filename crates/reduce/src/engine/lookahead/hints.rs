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

use super::super::cache::Key;
#[cfg(test)]
use super::super::edits::Edit;

/// Bytes of context kept on each side of an edit: enough to tell apart equal edits at
/// different places (the same statement written twice), few enough that an edit next to
/// another one that was made meanwhile is still the same edit.
pub(crate) const CONTEXT: usize = 4;

/// At most this many edits are remembered; older ones are forgotten all at once.
const LIMIT: usize = 1 << 16;

/// The name of the edit that turns `base` into `candidate` (see the module docs).
#[cfg(test)]
pub(crate) fn signature(base: &[u8], candidate: &[u8]) -> u64 {
    Edit::between(base, candidate).name(base, candidate, CONTEXT)
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
