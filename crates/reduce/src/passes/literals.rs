//! `literals`: number literals to `0` or `1`, strings and characters to empty or one
//! character (the texts come from `grammars/<lang>/passes.toml`). First ddmin over the
//! literals that keep their text (the others take their first replacement), then every later
//! replacement of each remaining literal in turn.

use treedd_tree::{Facts, Lang};

use super::splice::Splice;
use super::{Pass, Passes};

impl Passes<'_> {
    /// Literal shrinking: ddmin over the literals that keep their text (the others take their
    /// first replacement), then the later replacements of each remaining literal in turn.
    pub(super) fn literals(&mut self) {
        let Some(facts) = self.facts() else { return };
        self.judge.phase("literals");
        self.keep_minimal(&units(&facts));
        self.sequence(Pass::Literals, replacements);
    }
}

/// The units of `literals`' ddmin: each literal with its first replacement.
pub(super) fn units(facts: &Facts) -> Vec<Vec<Splice>> {
    facts
        .literals
        .iter()
        .filter_map(|l| {
            let first = l.replacements.first()?;
            Some(vec![Splice::new(l.range.clone(), first)])
        })
        .collect()
}

/// The sequence of `literals` after its ddmin: every replacement of every literal.
pub(super) fn replacements(_: &[u8], _: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    facts
        .literals
        .iter()
        .flat_map(|l| {
            l.replacements
                .iter()
                .map(|r| vec![Splice::new(l.range.clone(), r)])
        })
        .collect()
}
