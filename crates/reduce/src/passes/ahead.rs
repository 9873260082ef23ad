//! Speculation across passes (see `lookahead`): before a pass runs, what it and the
//! passes after it test if every test fails is announced ([`crate::Judge::announce`]), so idle
//! workers start the next pass's candidates while the end of this one is still running
//! (C-Vise's bet that most candidates fail, applied to its pass sequence). The passes
//! themselves decide only on oracle answers, so nothing depends on `jobs`.

use treedd_tree::Facts;

use super::splice::{apply, keeping_tied, Splice, Tie};
use super::{
    bodies, inline, inline_calls, literals, params, rename, replace_ids, rewrite, strip, subtrees,
    tokens, Make, Pass, Passes,
};

impl Passes<'_> {
    /// Announce the first candidates `passes` test, in this order, on the current text if
    /// every test fails: twice `jobs` of them, so the workers left idle by the end of one
    /// pass's own parallel window take the next ones.
    pub fn announce(&self, passes: &[Pass]) {
        let jobs = self.jobs();
        if jobs <= 1 || passes.is_empty() {
            return;
        }
        let candidates = self.first_candidates(passes, 2 * jobs);
        self.judge.announce(&self.current, candidates);
    }

    /// The first `limit` candidates `passes` test, in this order, on the current text if
    /// every test fails (for [`Passes::announce`], and for the tree phase's announcements
    /// near its end: `Session::after_phase`).
    pub fn first_candidates(&self, passes: &[Pass], limit: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        if passes.is_empty() || limit == 0 {
            return out;
        }
        let Some(facts) = self.facts() else {
            return out;
        };
        for &pass in passes {
            if out.len() >= limit {
                break;
            }
            self.all_fail(pass, &facts, limit, &mut out);
        }
        out.truncate(limit);
        out
    }

    /// Append what `pass` tests on the current text when every test fails, until `out` holds
    /// `limit` candidates.
    fn all_fail(&self, pass: Pass, facts: &Facts, limit: usize, out: &mut Vec<Vec<u8>>) {
        let make: Make = match pass {
            Pass::Bodies => {
                let (units, ties) = bodies::level(facts, 0);
                return self.keep_minimal_all_fail(&units, &ties, limit, out);
            }
            Pass::Strip => {
                for k in 0..facts.strips.len() {
                    self.keep_minimal_all_fail(&strip::units(facts, k), &[], limit, out);
                }
                return;
            }
            Pass::Literals => {
                self.keep_minimal_all_fail(&literals::units(facts), &[], limit, out);
                literals::replacements
            }
            Pass::Rename => {
                let units = rename::units(&self.current, self.lang, facts);
                return self.keep_minimal_all_fail(&units, &[], limit, out);
            }
            Pass::Inline => inline::candidates,
            Pass::InlineCalls => inline_calls::candidates,
            Pass::Rewrite => rewrite::candidates,
            Pass::ReplaceIds => replace_ids::candidates,
            Pass::Params => params::candidates,
            Pass::Subtrees => subtrees::candidates,
            Pass::Tokens => tokens::candidates,
        };
        let current = &self.current;
        let Some(sequence) = self.facts.sequence(self.lang, current, pass, make) else {
            return;
        };
        for splices in sequence.iter() {
            if out.len() >= limit {
                return;
            }
            let candidate = apply(current, splices);
            let fresh = !self.judge.known_or_under_way(&candidate);
            if candidate != *current && candidate.len() <= current.len() && fresh {
                out.push(candidate);
            }
        }
    }

    /// `keep_minimal`'s candidates when every test fails: all units applied, then its ddmin's
    /// sequence.
    fn keep_minimal_all_fail(
        &self,
        units: &[Vec<Splice>],
        ties: &[Tie],
        limit: usize,
        out: &mut Vec<Vec<u8>>,
    ) {
        let current = &self.current;
        if units.is_empty() || out.len() >= limit {
            return;
        }
        let all = keeping_tied(current, units, ties, &[]);
        if all != *current && !self.judge.known_or_under_way(&all) {
            out.push(all);
        }
        if units.len() == 1 {
            return;
        }
        // More than the places left: the cache may know some.
        let left = 4 * limit.saturating_sub(out.len());
        for kept in crate::ddmin::all_fail_sequence(units.len(), None, &self.ddmin, left) {
            if out.len() >= limit {
                return;
            }
            let candidate = keeping_tied(current, units, ties, &kept);
            if candidate != *current && !self.judge.known_or_under_way(&candidate) {
                out.push(candidate);
            }
        }
    }
}
