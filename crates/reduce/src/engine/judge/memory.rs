//! The judge's memory of failed edits (see `engine::edits`): the tests that consult it and
//! remember what failed, and the announcements it leaves candidates out of.

use super::super::edits::{self, Edit};
use super::super::lookahead::hints::CONTEXT as HINT_CONTEXT;
use super::{bump, lock, Cache, Judge};

impl Judge {
    /// [`Judge::test_from`]: a candidate whose edit the memory recalls is not interesting
    /// without a test; the edit of one the test finds not interesting is remembered (inside a
    /// driver call's test, once the call knows its winner).
    pub(super) fn test_remembering(&self, base: Option<&[u8]>, candidate: &[u8]) -> bool {
        if self.is_cancelled() {
            return false;
        }
        // Naming costs a comparison with the base: only while the memory is consulted.
        let spellings = {
            let memory = lock(&self.edits);
            memory.is_consulted().then(|| memory.spellings())
        };
        let edit = base
            .filter(|_| spellings.is_some())
            .map(|b| Edit::between(b, candidate));
        let name = edit
            .zip(base)
            .zip(spellings.as_ref())
            .map(|((e, b), sp)| e.memory_name(b, candidate, sp));
        let key = Cache::key(candidate);
        if name.is_some_and(|n| lock(&self.edits).recalls(n)) {
            bump(&self.counters.tests);
            // What the cache knows stays a cache hit, as without the memory.
            if !self.cache.as_ref().is_some_and(|c| c.is_known_pass(&key)) {
                bump(&self.counters.recalled);
            }
            return false;
        }
        let hint = || {
            let b = base?;
            let edit = edit.unwrap_or_else(|| Edit::between(b, candidate));
            Some(edit.name(b, candidate, HINT_CONTEXT))
        };
        match self.verdict(key, hint, candidate) {
            Some(interesting) => {
                if let Some(name) = name.filter(|_| !interesting && !self.is_cancelled()) {
                    edits::failed(&self.edits, name);
                }
                interesting
            }
            None => false,
        }
    }

    /// Forget every failed edit (see `edits`).
    pub(crate) fn forget_failed_edits(&self) {
        lock(&self.edits).truncate(0);
    }

    /// Consult the memory of failed edits from now on for the edits remembered from the
    /// `from`-th on, or not at all (`None`; see `edits`).
    pub(crate) fn recall_failed_edits(&self, from: Option<usize>) {
        lock(&self.edits).consult(from);
    }

    /// How many entries the memory of failed edits holds (failed edits and renames).
    pub(crate) fn failed_edits(&self) -> usize {
        lock(&self.edits).len()
    }

    /// The algorithm's text went from `before` to `after`: if that renamed words and did
    /// nothing else, the memory names its edits over the old spellings from now on (see
    /// `edits`).
    pub(crate) fn note_renames(&self, before: &[u8], after: &[u8]) {
        if before != after {
            let pairs = edits::renames(before, after);
            lock(&self.edits).renamed(&pairs);
        }
    }

    /// Name the candidates the algorithm will test next, made from `base`, if everything
    /// pending fails; idle workers test them ahead of time (only inside
    /// [`Judge::with_lookahead`]). Those whose edit the memory of failed edits recalls are
    /// left out: the algorithm will not test them.
    pub(crate) fn announce(&self, base: &[u8], candidates: Vec<Vec<u8>>) {
        if let Some(la) = self.lookahead() {
            let named = self.named(base, candidates, false);
            la.announce_edits(named);
        }
    }

    /// [`Judge::announce`] with the name of each candidate's edit, a hint for later tests of
    /// the same edit on other texts (see [`Judge::test_from`]).
    pub(crate) fn announce_from(&self, base: &[u8], candidates: Vec<Vec<u8>>) {
        if let Some(la) = self.lookahead() {
            la.announce_edits(self.named(base, candidates, true));
        }
    }

    /// A bet on success (see `lookahead`): `candidates` are what the algorithm tests next if
    /// `pending` (under test now) is interesting (see [`Judge::unrecalled`]). Only inside
    /// [`Judge::with_lookahead`].
    pub(crate) fn announce_if(&self, pending: &[u8], candidates: Vec<Vec<u8>>) {
        if let Some(la) = self.lookahead() {
            la.announce_if(Cache::key(pending), candidates);
        }
    }

    /// The candidates made from `base` that the memory of failed edits does not recall (those
    /// the algorithm will test), for an announcement.
    pub(crate) fn unrecalled(&self, base: &[u8], candidates: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        if self.lookahead().is_none() {
            return candidates;
        }
        let named = self.named(base, candidates, false);
        named.into_iter().map(|c| c.0).collect()
    }

    /// The candidates made from `base` that the memory of failed edits does not recall, each
    /// with the name of its edit for the lookahead's hints if `hints`.
    fn named(
        &self,
        base: &[u8],
        candidates: Vec<Vec<u8>>,
        hints: bool,
    ) -> Vec<(Vec<u8>, Option<u64>)> {
        let spellings = {
            let memory = lock(&self.edits);
            memory.is_consulted().then(|| memory.spellings())
        };
        if spellings.is_none() && !hints {
            return candidates.into_iter().map(|c| (c, None)).collect();
        }
        let named: Vec<_> = candidates
            .into_iter()
            .map(|c| {
                let edit = Edit::between(base, &c);
                let name = spellings.as_ref().map(|sp| edit.memory_name(base, &c, sp));
                let hint = hints.then(|| edit.name(base, &c, HINT_CONTEXT));
                (c, name, hint)
            })
            .collect();
        // The lock is held only to look the names up (tests wait on it).
        let memory = lock(&self.edits);
        named
            .into_iter()
            .filter(|(_, name, _)| !name.is_some_and(|n| memory.recalls(n)))
            .map(|(c, _, hint)| (c, hint))
            .collect()
    }
}
