//! `subtrees`: a node replaced by a shorter compatible node found anywhere in the tree
//! (Vulcan's sub-tree replacement, from "Pushing the Limit of 1-Minimality of
//! Language-Agnostic Program Reduction"; hoisting only uses descendants).

use std::collections::HashSet;
use std::ops::Range;

use treedd_tree::{Facts, Lang, RTree};

use super::splice::Splice;

/// How many shorter compatible nodes `subtrees` tries for each node: the shortest. A second
/// one costs runs on every language and seldom finds what the first, the constants and the
/// later rounds do not.
const SUBTREE_TARGETS: usize = 1;

/// Sub-tree replacement: each node (largest first) replaced by the grammar's `[constants]`
/// it is compatible with (Vulcan's "an expression by `0`"), then by the shortest compatible
/// nodes elsewhere in the tree (not its ancestors or descendants) whose text is shorter.
pub(super) fn candidates(text: &[u8], lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
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
    // Tokens of named kinds are sources of constants only (`true` -> `0`, TypeScript's
    // `any` -> `0`); identifiers may get constants as long as they (`a` -> `0` makes `a`'s
    // declaration dead; the text gets no longer and has one identifier less).
    let idents: HashSet<Range<usize>> = facts.idents.iter().map(|i| i.range.clone()).collect();
    let ident = |n| tree.is_token(n) && idents.contains(&tree.span(n));
    let mut sources: Vec<_> = nodes
        .iter()
        .copied()
        .filter(|&n| !tree.is_token(n) || tree.is_named(n) || ident(n))
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
            .filter(|(lang, kind, t)| {
                (t.len() < own.len() || t.len() == own.len() && ident(n))
                    && t != own
                    && tree.lang_of(n) == *lang
                    && tree.compatible_kind(n, kind)
            })
            .map(|(_, _, t)| t.as_slice())
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
