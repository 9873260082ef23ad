//! Vulcan's passes (Xu et al., "Pushing the Limit of 1-Minimality of Language-Agnostic
//! Program Reduction", OOPSLA 2023): sub-tree replacement and local exhaustive token search.

use std::collections::HashSet;
use std::ops::Range;

use treedd_tree::{Facts, Lang, RTree};

use super::Splice;

/// How many shorter compatible nodes `subtrees` tries for each node.
const SUBTREE_TARGETS: usize = 2;

/// Sub-tree replacement: each node (largest first) replaced by the grammar's `[constants]`
/// it is compatible with (Vulcan's "an expression by `0`"), then by the shortest compatible
/// nodes elsewhere in the tree (not its ancestors or descendants) whose text is shorter.
pub(super) fn subtrees(text: &[u8], lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let Ok(tree) = RTree::build(lang, text) else {
        return Vec::new();
    };
    let nodes: Vec<_> = tree
        .preorder()
        .into_iter()
        .filter(|&n| !tree.is_hidden(n) && tree.parent(n).is_some())
        .collect();
    let mut by_len = nodes.clone();
    by_len.sort_by_key(|&n| (tree.span(n).len(), tree.span(n).start));
    // Identifier tokens are sources of constants only, which may be as long as they (`a` ->
    // `0` makes `a`'s declaration dead; the text gets no longer and has one identifier less).
    let idents: HashSet<Range<usize>> = facts.idents.iter().map(|i| i.range.clone()).collect();
    let ident = |n| tree.is_token(n) && idents.contains(&tree.span(n));
    let mut sources: Vec<_> = nodes
        .iter()
        .copied()
        .filter(|&n| !tree.is_token(n) || ident(n))
        .collect();
    sources.sort_by_key(|&n| (std::cmp::Reverse(tree.span(n).len()), tree.span(n).start));
    let mut out = Vec::new();
    for n in sources {
        let span = tree.span(n);
        let own = &text[span.clone()];
        // The grammar's constants first (an expression -> `0`), then nodes of the file.
        let mut texts: Vec<&[u8]> = facts
            .constants
            .iter()
            .filter(|(kind, t)| {
                (t.len() < own.len() || t.len() == own.len() && ident(n))
                    && t != own
                    && tree.compatible_kind(n, kind)
            })
            .map(|(_, t)| t.as_slice())
            .collect();
        let constants = texts.len();
        if tree.is_token(n) {
            out.extend(
                texts
                    .into_iter()
                    .map(|t| vec![Splice::new(span.clone(), t)]),
            );
            continue;
        }
        for &m in &by_len {
            let other = tree.span(m);
            if other.len() >= span.len() || texts.len() == constants + SUBTREE_TARGETS {
                break;
            }
            let related = other.start < span.end && span.start < other.end;
            let t = &text[other];
            if related || t.is_empty() || t == own || texts.contains(&t) {
                continue;
            }
            if tree.compatible(n, m) {
                texts.push(t);
            }
        }
        out.extend(
            texts
                .into_iter()
                .map(|t| vec![Splice::new(span.clone(), t)]),
        );
    }
    out
}

/// Local exhaustive token search: every set of tokens inside a window of at most three
/// adjacent tokens, each set once (enumerated from its first token): `{i}`, `{i, i+1}`,
/// `{i, i+2}`, `{i, i+1, i+2}`.
pub(super) fn tokens(_text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
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
