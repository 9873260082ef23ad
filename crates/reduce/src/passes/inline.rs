//! `inline`: a definition (C's `typedef`, from `[[inline]]` in passes.toml) inlined into
//! every use and removed (C-Reduce's typedef inlining); also a declaration of one variable
//! with a value, inlined into the rest of its scope (C-Vise's copy-propagation).

use treedd_tree::{Facts, Lang};

use super::splice::{within, Splice};

/// Definition inlining (C-Reduce's typedef inlining, from `[[inline]]` in passes.toml): every
/// other occurrence of a defined name becomes the definition's body, and the definition goes,
/// in one candidate (kept only if the text does not grow).
pub(super) fn candidates(text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let mut out = Vec::new();
    for d in &facts.definitions {
        let mut splices: Vec<Splice> = facts
            .idents
            .iter()
            .filter(|id| {
                id.range != d.name_range
                    && within(&id.range, &d.scope)
                    && &text[id.range.clone()] == d.name.as_slice()
                    && !(d.range.start <= id.range.start && id.range.end <= d.range.end)
            })
            .map(|id| Splice::new(id.range.clone(), &d.body))
            .collect();
        splices.push(Splice::new(d.range.clone(), b""));
        splices.sort_by_key(|s| (s.range.start, s.range.end));
        out.push(splices);
    }
    out
}
