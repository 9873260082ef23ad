//! `rewrite`: grammar-data rewrites such as C's `if (c) s` to `(c);` (C-Reduce's
//! `simplify-if`), from `[[rewrites]]` in passes.toml, GNU C's statement expressions opened
//! up (`[[unwraps]]`), declarations merged into earlier ones (`[[merges]]`: C-Reduce's
//! combine-local-var, combine-global-var and local-to-global), scopes opened up with their
//! qualifiers (`[[unnests]]`: C-Vise's remove-namespace) and template parameters removed with
//! their arguments (`[[templates]]`: C-Vise's remove-unused-template-param and
//! instantiate-template-param), and functions defined outside their class moved into it
//! (`[[moves]]`: C-Vise's move-function-body).

use std::ops::Range;

use treedd_tree::{Facts, Lang};

use super::splice::{shorter_only, Splice};

/// Rewrites from `[[rewrites]]` in passes.toml (C's `if (c) s` to `(c);`, C-Reduce's
/// `simplify-if`), in source order. A template turns one structure into a smaller one of
/// another form, the idea of SFC's smaller-structure replacement (Xu et al., "Boosting Program
/// Reduction with the Missing Piece of Syntax-Guided Transformations", OOPSLA 2025), there
/// derived from the grammar, here written per language as data.
/// Then the unwraps from `[[unwraps]]` (GNU C's statement expressions, which `inline-calls`
/// writes, opened up: `if (({int b = x; b + 1;})) s` -> `int b = x; if (b + 1) s`), the
/// moves (before the merges, which would join a member's declaration to others), the merges,
/// the unnests and the template parameters, each one candidate.
pub(super) fn candidates(text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let rewrites = facts
        .rewrites
        .iter()
        .map(|(r, t)| vec![Splice::new(r.clone(), t)]);
    let edits = |e: &[(Range<usize>, Vec<u8>)]| -> Vec<Splice> {
        e.iter().map(|(r, t)| Splice::new(r.clone(), t)).collect()
    };
    let unwraps = facts.unwraps.iter().map(|u| edits(u));
    let merges = facts.merges.iter().map(|m| edits(m));
    let unnests = facts.unnests.iter().map(|u| edits(u));
    let templates = facts.templates.iter().map(|t| edits(t));
    let moves = facts.moves.iter().map(|m| edits(m));
    shorter_only(
        text,
        rewrites
            .chain(unwraps)
            .chain(moves)
            .chain(merges)
            .chain(unnests)
            .chain(templates)
            .collect(),
    )
}
