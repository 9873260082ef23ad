//! What the passes know of a text, kept while it does not change: its facts and the
//! candidate sequences made of it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use treedd_tree::{Facts, Lang};

use super::{Pass, Splice};

/// The facts of the last text the passes looked at, and the candidate sequences the passes
/// made of it. Most passes of a round change nothing, and each pass asks for the facts of
/// the same text twice (to announce and to run): one parse and walk each without the cache.
/// The sequences likewise: the announcements before each pass, and those near the end of the
/// tree phase, make the sequences of the passes that follow, and `subtrees` builds a
/// reduction tree of the text for its own (most of what the announcements of the passes
/// cost).
#[derive(Default)]
pub(crate) struct FactsCache(Mutex<Option<Kept>>);

/// What [`FactsCache`] keeps of one text.
struct Kept {
    text: Vec<u8>,
    facts: Arc<Facts>,
    sequences: HashMap<Pass, Arc<Vec<Vec<Splice>>>>,
}

impl FactsCache {
    /// The facts of `text` in `lang` (one cache serves one language); `None` if it does not
    /// parse.
    pub(super) fn get(&self, lang: Lang, text: &[u8]) -> Option<Arc<Facts>> {
        let mut last = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(kept) = last.as_ref().filter(|k| k.text == text) {
            return Some(Arc::clone(&kept.facts));
        }
        // The old text's facts go first: a large text's take as much memory as its parse.
        *last = None;
        let facts = Arc::new(lang.facts(text).ok()?);
        *last = Some(Kept {
            text: text.to_vec(),
            facts: Arc::clone(&facts),
            sequences: HashMap::new(),
        });
        Some(facts)
    }

    /// Forget what is kept unless it is of `text`: the texts only shrink, so a kept older
    /// text is never asked for again, and its facts would take memory while a tree of
    /// `text` is built.
    pub(crate) fn keep_only(&self, text: &[u8]) {
        let mut last = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if last.as_ref().is_some_and(|k| k.text != text) {
            *last = None;
        }
    }

    /// Forget what is kept: a tree of the current text is about to be built, and a large
    /// text's facts and sequences take as much memory as its tree. The tree phase mostly
    /// changes the text, and the passes make the facts of a text they see again.
    pub(crate) fn forget(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The candidates the sequence pass `pass` makes of `text` with `make` (one maker per
    /// pass), made once per text; `None` if the text does not parse.
    pub(super) fn sequence(
        &self,
        lang: Lang,
        text: &[u8],
        pass: Pass,
        make: Make,
    ) -> Option<Arc<Vec<Vec<Splice>>>> {
        let facts = self.get(lang, text)?;
        let last = || self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(made) = last()
            .as_ref()
            .filter(|k| k.text == text)
            .and_then(|k| k.sequences.get(&pass))
        {
            return Some(Arc::clone(made));
        }
        // Made without the lock (a large text's `subtrees` takes a while).
        let made = Arc::new(make(text, lang, &facts));
        if let Some(kept) = last().as_mut().filter(|k| k.text == text) {
            kept.sequences.insert(pass, Arc::clone(&made));
        }
        Some(made)
    }
}

/// A sequence pass's candidate maker (see `Passes::sequence`).
pub(super) type Make = fn(&[u8], Lang, &Facts) -> Vec<Vec<Splice>>;
