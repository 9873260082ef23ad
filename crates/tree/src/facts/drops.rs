//! `[[drops]]`: a node without some of its children, as a rewrite (C++'s `int a = 3` ->
//! `int a` in a parameter list; `class A : public B { public: int x; };` ->
//! `struct A : B { int x; };`).

use std::ops::Range;

use tree_sitter::Node;

use crate::glue;
use crate::pass_data::DropSpec;

/// `node`'s text without the children the spec names, its first token replaced by the
/// spec's `first`; `None` if it names none of them.
pub(super) fn drop_children(
    node: Node<'_>,
    spec: &DropSpec,
    src: &[u8],
) -> Option<(Range<usize>, Vec<u8>)> {
    let mut cuts: Vec<(Range<usize>, &[u8])> = Vec::new();
    for path in &spec.drop {
        let steps: Vec<&str> = path.split('/').collect();
        collect(node, &steps, &mut cuts);
    }
    if cuts.is_empty() {
        return None;
    }
    if let Some(first) = &spec.first {
        let token = node.child(0).filter(|c| c.child_count() == 0)?;
        cuts.push((token.byte_range(), first.as_bytes()));
    }
    cuts.sort_by_key(|(r, _)| (r.start, r.end));
    let range = node.byte_range();
    let mut text: Vec<u8> = Vec::with_capacity(range.len());
    let mut at = range.start;
    for (cut, with) in cuts {
        if cut.start < at {
            continue;
        }
        push(&mut text, &src[at..cut.start]);
        push(&mut text, with);
        at = cut.end;
    }
    push(&mut text, &src[at..range.end]);
    Some((range, text))
}

/// Append `bytes`, with a space between two bytes that would make one token.
fn push(out: &mut Vec<u8>, bytes: &[u8]) {
    if let (Some(&a), Some(&b)) = (out.last(), bytes.first()) {
        if glue(a, b) {
            out.push(b' ');
        }
    }
    out.extend_from_slice(bytes);
}

/// The children of `node` at the path `steps` (each a field, a named kind or a token's
/// text), removed (the empty text).
fn collect(node: Node<'_>, steps: &[&str], out: &mut Vec<(Range<usize>, &[u8])>) {
    let Some((step, rest)) = steps.split_first() else {
        out.push((node.byte_range(), b""));
        return;
    };
    let mut c = node.walk();
    if !c.goto_first_child() {
        return;
    }
    loop {
        let child = c.node();
        let hit = c.field_name() == Some(step) || (child.kind() == *step && !child.is_extra());
        if hit && !child.is_missing() {
            collect(child, rest, out);
        }
        if !c.goto_next_sibling() {
            return;
        }
    }
}
