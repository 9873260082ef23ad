//! Recursion flattening: a chain of nested nodes of one family (`a + b + c + d`,
//! `a.b().c()`, `if .. else if ..`, comma sequences) becomes one flat node. Each
//! recursion level contributes a group of its other children (`+ c`, `.c`, `()`,
//! `if (x) s else`) that may be removed on its own (replacement ""); the innermost node
//! of the chain stays a required element. Family and link kinds per language are in
//! grammars/<lang>/flatten.txt.

use crate::lang::{KindId, LangData};
use crate::rtree::raw::Raw;

/// A child of a node in the final tree, before it is created.
pub(crate) enum Item {
    /// A raw node and whether its position may be empty.
    Raw(u32, bool),
    /// A group of raw nodes `scratch[start..start + len]` of (tail) kind.
    Group(u32, u32, KindId),
}

/// If raw node `r` heads a chain of its family, push the flattened children to `out`
/// (groups' members go to `scratch`) and return true. Iterative: the chain is walked
/// once, top-down; each raw node is visited by one chain only.
pub(crate) fn chain(
    raw: &Raw,
    data: &LangData,
    r: u32,
    out: &mut Vec<Item>,
    scratch: &mut Vec<u32>,
) -> bool {
    let family = data.family[raw.kind[r as usize] as usize];
    if family == 0 {
        return false;
    }
    let member = |x: u32| {
        !raw.is_token(x)
            && raw.kids(x).len() >= 2
            && data.family[raw.kind[x as usize] as usize] == family
    };
    let mut prefix: Vec<Item> = Vec::new();
    let mut suffix: Vec<Item> = Vec::new();
    let mut cur = r;
    loop {
        let kids = raw.kids(cur);
        let (first, last) = (kids[0], kids[kids.len() - 1]);
        let tail = data.tail(raw.kind[cur as usize]);
        if member(first) {
            suffix.push(group(raw, &kids[1..], tail, scratch));
            cur = first;
        } else if member(last) {
            prefix.push(group(raw, &kids[..kids.len() - 1], tail, scratch));
            cur = last;
        } else if data.link[raw.kind[last as usize] as usize]
            && raw.kids(last).len() >= 2
            && member(*raw.kids(last).last().unwrap_or(&last))
        {
            let link_kids = raw.kids(last);
            let start = scratch.len() as u32;
            scratch.extend_from_slice(&kids[..kids.len() - 1]);
            scratch.extend_from_slice(&link_kids[..link_kids.len() - 1]);
            prefix.push(Item::Group(start, scratch.len() as u32 - start, tail));
            cur = link_kids[link_kids.len() - 1];
        } else {
            break;
        }
    }
    if cur == r {
        return false;
    }
    out.extend(prefix);
    out.push(Item::Raw(cur, false));
    out.extend(suffix.into_iter().rev());
    true
}

fn group(raw: &Raw, members: &[u32], tail: KindId, scratch: &mut Vec<u32>) -> Item {
    match members {
        [only] if !raw.extra[*only as usize] => Item::Raw(*only, true),
        _ => {
            let start = scratch.len() as u32;
            scratch.extend_from_slice(members);
            Item::Group(start, members.len() as u32, tail)
        }
    }
}
