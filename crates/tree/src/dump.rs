//! Stable text dump of a reduction tree, used by `--dump-tree` and the snapshot tests.
//!
//! One line per live node, indented by depth: `kind` (`outer>inner` for squeezed chains),
//! then `@lang` on the root of an island in another language (`program @javascript` in an
//! HTML `<script>`), `opt` (position may be empty), `hidden`, `pruned`; tokens show their
//! text, required rule nodes show their replacement after `=>`.

use std::fmt::Write;

use crate::RTree;

/// The tree as indented text (iterative; safe for any depth).
pub fn dump(tree: &RTree) -> String {
    let mut out = String::new();
    let mut stack = vec![(tree.root(), 0usize)];
    while let Some((n, depth)) = stack.pop() {
        for _ in 0..depth {
            out.push_str("  ");
        }
        out.push_str(tree.kind(n));
        if tree.inner_kind(n) != tree.kind(n) {
            out.push('>');
            out.push_str(tree.inner_kind(n));
        }
        if tree
            .parent(n)
            .is_some_and(|p| tree.lang_of(p) != tree.lang_of(n))
        {
            out.push_str(" @");
            out.push_str(tree.lang_of(n).name());
        }
        if tree.is_optional(n) && depth > 0 {
            out.push_str(" opt");
        }
        if tree.is_hidden(n) {
            out.push_str(" hidden");
        }
        if tree.is_pruned(n) {
            out.push_str(" pruned");
        }
        if tree.is_token(n) {
            let _ = write!(out, " {:?}", String::from_utf8_lossy(tree.token_text(n)));
        } else if !tree.is_optional(n) {
            let _ = write!(
                out,
                " => {:?}",
                String::from_utf8_lossy(tree.replacement(n))
            );
        }
        out.push('\n');
        if !tree.is_pruned(n) {
            stack.extend(tree.children(n).iter().rev().map(|&k| (k, depth + 1)));
        }
    }
    out
}
