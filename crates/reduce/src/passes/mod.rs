//! Transformation passes beyond deletion. Each pass either shrinks the text
//! directly or opens new deletions to the next round of the tree algorithm:
//!
//! - `bodies` ([`bodies`]): function bodies emptied, keeping their signatures (C-Vise);
//! - `strip` ([`strip`]): annotations and specifiers removed (C-Vise);
//! - `literals` ([`literals`]): number, string and character literals shortened;
//! - `inline` ([`inline`]): definitions inlined into their uses (C-Reduce, C-Vise);
//! - `inline-calls` ([`inline_calls`]): calls replaced by the function's body (C-Reduce);
//! - `rewrite` ([`rewrite`]): grammar-data rewrites, unwraps and declaration merges;
//! - `replace-ids` ([`replace_ids`]): identifier occurrences replaced by other identifiers
//!   (Vulcan), before `rename` (see [`Pass::ALL`]);
//! - `rename` ([`rename`]): identifiers renamed to the shortest free names (C-Reduce);
//! - `params` ([`params`]): a parameter removed with its arguments (C-Reduce);
//! - `subtrees` ([`subtrees`]): a node replaced by a shorter compatible one (Vulcan);
//! - `tokens` ([`tokens`]): local exhaustive token removal (Vulcan).
//!
//! Each pass has its own file with its candidates; this file holds what they share: the
//! round's state ([`Passes`]), sequences on the speculative driver and ddmin over units that
//! keep their text; [`splice`] the edits; `ahead` the announcements across passes.
//!
//! Every pass works on a fresh parse of the current text ([`Lang::facts`], kept for the next
//! pass while the text does not change: [`FactsCache`]) and produces candidates as splices of
//! that text. `rename` and the first step of `literals` are ddmin over the set of units that
//! keep their old text, so most changes are accepted together in a few oracle runs; the
//! others are *sequences* of candidates run by the speculative driver
//! ([`crate::engine::driver`]): the first interesting candidate of the sequence is accepted, the
//! sequence is made again from the new text and continues at the same position. Every
//! candidate goes through the [`Judge`] (syntax filter, cache, best-so-far, cancellation), and
//! no pass depends on `jobs`, so `--jobs N` gives the output of `--jobs 1`.
//!
//! No candidate makes the text longer: every accepted candidate makes it shorter, or
//! (`replace-ids`) leaves it as long with identifier occurrences moved down a well-founded
//! order, so each pass, and the joint fixed point of rounds around them, terminates.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

use treedd_tree::{Facts, Lang};

use crate::ddmin::ddmin_indices_ahead;
use crate::engine::driver::first_interesting;
use crate::session::{candidate_test, JudgeAhead};
use crate::{DdminOptions, Judge};

/// A transformation pass. [`Pass::ALL`] is also the order in which a round runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    Bodies,
    Strip,
    Literals,
    Inline,
    InlineCalls,
    Rewrite,
    ReplaceIds,
    Rename,
    Params,
    Subtrees,
    Tokens,
}

impl Pass {
    /// Every pass, in the order a round runs them: bodies first (the largest removals),
    /// identifier replacement before renaming (while names are long, `int32_t` -> `int`
    /// shortens the text; after renaming it would lengthen it), token search last, as in
    /// Vulcan.
    pub const ALL: [Pass; 11] = [
        Pass::Bodies,
        Pass::Strip,
        Pass::Literals,
        Pass::Inline,
        Pass::InlineCalls,
        Pass::Rewrite,
        Pass::ReplaceIds,
        Pass::Rename,
        Pass::Params,
        Pass::Subtrees,
        Pass::Tokens,
    ];

    /// The name used by `--passes` and in `--stats`.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Bodies => "bodies",
            Pass::Strip => "strip",
            Pass::Literals => "literals",
            Pass::Inline => "inline",
            Pass::InlineCalls => "inline-calls",
            Pass::Rewrite => "rewrite",
            Pass::Rename => "rename",
            Pass::ReplaceIds => "replace-ids",
            Pass::Params => "params",
            Pass::Subtrees => "subtrees",
            Pass::Tokens => "tokens",
        }
    }

    pub fn from_name(name: &str) -> Option<Pass> {
        Pass::ALL.into_iter().find(|p| p.name() == name.trim())
    }

    /// Parse a comma-separated list of pass names (order and repeats do not matter: a round
    /// always runs them in the order of [`Pass::ALL`]).
    pub fn parse_list(list: &str) -> Result<Vec<Pass>, String> {
        let mut wanted = HashSet::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let pass = Pass::from_name(name).ok_or_else(|| {
                format!(
                    "unknown pass `{name}`: use {}",
                    Pass::ALL.map(Pass::name).join(", ")
                )
            })?;
            wanted.insert(pass);
        }
        Ok(Pass::ALL
            .into_iter()
            .filter(|p| wanted.contains(p))
            .collect())
    }
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Non-whitespace characters (the papers' size measure).
pub(crate) fn chars(text: &[u8]) -> usize {
    text.iter().filter(|b| !b.is_ascii_whitespace()).count()
}

/// The state of the passes of one round: the language, the judge, the ddmin options and the
/// current (interesting) text.
pub(crate) struct Passes<'a> {
    pub lang: Lang,
    pub judge: &'a Judge,
    pub ddmin: DdminOptions,
    pub current: Vec<u8>,
    accepted: u64,
    facts: &'a FactsCache,
}

impl<'a> Passes<'a> {
    pub fn new(
        lang: Lang,
        judge: &'a Judge,
        ddmin: &DdminOptions,
        current: Vec<u8>,
        facts: &'a FactsCache,
    ) -> Self {
        let ddmin = DdminOptions {
            stop: Some(judge.stop_flag()),
            ..ddmin.clone()
        };
        Passes {
            lang,
            judge,
            ddmin,
            current,
            accepted: 0,
            facts,
        }
    }

    fn jobs(&self) -> usize {
        self.ddmin.jobs.max(1)
    }

    /// Run one pass; returns the number of accepted candidates.
    pub fn run(&mut self, pass: Pass) -> u64 {
        self.accepted = 0;
        match pass {
            Pass::Bodies => self.bodies(),
            Pass::Strip => self.strip(),
            Pass::Literals => self.literals(),
            Pass::Inline => self.sequence(pass, inline::candidates),
            Pass::InlineCalls => self.sequence(pass, inline_calls::candidates),
            Pass::Rewrite => self.sequence(pass, rewrite::candidates),
            Pass::Rename => self.rename(),
            Pass::ReplaceIds => self.sequence(pass, replace_ids::candidates),
            Pass::Params => self.sequence(pass, params::candidates),
            Pass::Subtrees => self.sequence(pass, subtrees::candidates),
            Pass::Tokens => self.sequence(pass, tokens::candidates),
        }
        self.accepted
    }

    fn facts(&self) -> Option<Arc<Facts>> {
        self.facts.get(self.lang, &self.current)
    }

    fn accept(&mut self, candidate: Vec<u8>) {
        self.current = candidate;
        self.accepted += 1;
    }

    /// A sequence pass: `make` gives the candidates of the current text in order; the first
    /// interesting one is accepted, the sequence is made again from the new text, and the
    /// search goes on at the same position.
    fn sequence(&mut self, pass: Pass, make: Make) {
        let mut pos = 0;
        while !self.judge.is_cancelled() {
            let Some(candidates) = self.facts.sequence(self.lang, &self.current, pass, make) else {
                return;
            };
            if pos >= candidates.len() {
                return;
            }
            self.judge.phase(&format!(
                "{pass}: {} of {} candidates",
                pos,
                candidates.len()
            ));
            let current = &self.current;
            let rest = &candidates[pos..];
            // No candidate may make the text longer (see the module docs).
            let found = first_interesting(self.judge, current, self.jobs(), rest.len(), &|i| {
                Some(apply(current, &rest[i])).filter(|c| c.len() <= current.len())
            });
            match found {
                Some((i, candidate)) => {
                    self.accept(candidate);
                    pos += i;
                }
                None => return,
            }
        }
    }

    /// ddmin over `units` (each a list of splices): the configuration is the set of units
    /// left as they are, every other unit is applied. The configuration with no unit kept is
    /// tested first (ddmin never tests the empty configuration).
    fn keep_minimal(&mut self, units: &[Vec<Splice>]) {
        self.keep_minimal_tied(units, &[]);
    }

    /// [`Passes::keep_minimal`] where each of `ties` is applied with the units it goes with.
    fn keep_minimal_tied(&mut self, units: &[Vec<Splice>], ties: &[Tie]) {
        if units.is_empty() || self.judge.is_cancelled() {
            return;
        }
        let current = self.current.clone();
        let candidate = |kept: &[usize]| keeping_tied(&current, units, ties, kept);
        let all = candidate(&[]);
        if all != current && self.judge.test_from(Some(&current), &all) {
            self.accept(all);
            return;
        }
        if units.len() == 1 {
            return;
        }
        let test = |kept: &[usize]| candidate_test(self.judge, &current, &candidate(kept));
        let ahead = JudgeAhead {
            judge: self.judge,
            base: &current,
            candidate: &candidate,
            then: None,
        };
        let kept = ddmin_indices_ahead(units.len(), None, &test, &self.ddmin, Some(&ahead));
        if kept.len() < units.len() {
            let c = candidate(&kept);
            // The ddmin result is interesting (tested, or the unchanged text).
            if c != current {
                self.accept(c);
            }
        }
    }
}

mod across;
mod ahead;
mod bodies;
mod facts_cache;
mod inline;
mod inline_calls;
mod literals;
mod params;
mod rename;
mod replace_ids;
mod rewrite;
mod splice;
mod strip;
mod subtrees;
#[cfg(test)]
mod tests;
mod tokens;

pub(crate) use across::Across;
pub(crate) use facts_cache::FactsCache;
use facts_cache::Make;
use splice::{apply, keeping_tied, Splice, Tie};
