//! `strip`: annotations and specifiers removed everywhere (`[[strips]]` in passes.toml: C++'s
//! `__attribute__ ((...))`, `[[...]]`, `inline`, `constexpr`, `virtual`, `noexcept(...)`),
//! one token at a time: ddmin over its occurrences finds the ones that must stay (C-Vise's
//! attribute and specifier removals). The early ones are also tried before the first tree
//! phase, all of them at once ([`Passes::early_strip`]): on preprocessed C++ what the grammar
//! does not parse (`namespace std __attribute__ ((__visibility__ ("default"))) {`) goes
//! before the tree the first phase reduces is built.

use treedd_tree::{Facts, Lang};

use super::splice::Splice;
use super::{Pass, Passes};

impl Passes<'_> {
    /// Each `[[strips]]` token in turn: ddmin over its occurrences, the configuration being
    /// the occurrences that stay.
    pub(super) fn strip(&mut self) {
        let Some(facts) = self.facts() else { return };
        for k in 0..facts.strips.len() {
            if self.judge.is_cancelled() {
                return;
            }
            let Some(facts) = self.facts() else { return };
            self.judge.phase("strip");
            self.keep_minimal(&units(&facts, k));
        }
    }

    /// The early strips before the first tree phase: every one at once, then each token's
    /// occurrences at once (no ddmin: on a large input each oracle run is dear, and the
    /// round's `strip` pass does the rest). Returns the number of accepted candidates.
    pub fn early_strip(&mut self) -> u64 {
        self.accepted = 0;
        self.sequence(Pass::Strip, early);
        self.accepted
    }
}

/// The units of one `[[strips]]` token's ddmin: each occurrence removed.
pub(super) fn units(facts: &Facts, k: usize) -> Vec<Vec<Splice>> {
    facts.strips.get(k).map_or_else(Vec::new, |s| {
        s.ranges
            .iter()
            .map(|r| vec![Splice::new(r.clone(), b"")])
            .collect()
    })
}

/// The early candidates: every early occurrence removed, then each early token's.
pub(super) fn early(_: &[u8], _: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let each: Vec<Vec<Splice>> = facts
        .strips
        .iter()
        .filter(|s| s.early && !s.ranges.is_empty())
        .map(|s| {
            s.ranges
                .iter()
                .map(|r| Splice::new(r.clone(), b""))
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    if each.len() > 1 {
        let mut all: Vec<Splice> = each.iter().flatten().cloned().collect();
        all.sort_by_key(|s| (s.range.start, s.range.end));
        out.push(all);
    }
    out.extend(each);
    out
}
