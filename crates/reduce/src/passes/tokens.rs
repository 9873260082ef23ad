//! `tokens`: over windows of 2 to 3 adjacent tokens, every subset of tokens removed that no
//! earlier window covered (Vulcan's local exhaustive enumeration).

use treedd_tree::{Facts, Lang};

use super::splice::Splice;

/// Local exhaustive token search: every set of tokens inside a window of at most three
/// adjacent tokens, each set once (enumerated from its first token): `{i}`, `{i, i+1}`,
/// `{i, i+2}`, `{i, i+1, i+2}`.
pub(super) fn candidates(_text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let t = &facts.tokens;
    let remove = |i: usize| Splice::new(t[i].clone(), b"");
    let mut out = Vec::new();
    for i in 0..t.len() {
        out.push(vec![remove(i)]);
        if i + 1 < t.len() {
            out.push(vec![remove(i), remove(i + 1)]);
        }
        if i + 2 < t.len() {
            out.push(vec![remove(i), remove(i + 2)]);
            out.push(vec![remove(i), remove(i + 1), remove(i + 2)]);
        }
    }
    out
}
