//! HDDr's work list: the order in which the visits of nodes come (see [`TraversalOrder`]).

use std::cmp::Reverse;
use std::collections::{BTreeMap, VecDeque};

use crate::session::Tree;
use crate::TraversalOrder;

/// HDDr's work list in one of the [`TraversalOrder`]s.
pub(super) enum WorkList<N> {
    /// Breadth-first (pop at the front) or depth-first (pop at the back).
    Queue(VecDeque<N>, TraversalOrder),
    /// Size-first: by weight, largest first, then by arrival; uses-first puts the nodes of
    /// `Sized::later` after all others.
    Sized(Sized<N>),
}

pub(super) struct Sized<N> {
    map: BTreeMap<(bool, Reverse<u64>, u64), N>,
    arrivals: u64,
    /// By node index: the node holds the first occurrence of a spelling that occurs after
    /// it (see [`used_later`]); empty for plain size-first.
    later: Vec<bool>,
}

impl<N: Copy> WorkList<N> {
    /// With `closure`, the names the reference closure knows do not defer a node (see
    /// [`used_later`]).
    pub(super) fn new<T: Tree<Node = N>>(
        order: TraversalOrder,
        tree: &T,
        closure: bool,
    ) -> WorkList<N> {
        let sized = |later| {
            WorkList::Sized(Sized {
                map: BTreeMap::new(),
                arrivals: 0,
                later,
            })
        };
        match order {
            TraversalOrder::SizeFirst => sized(Vec::new()),
            TraversalOrder::UsesFirst => sized(used_later(tree, closure)),
            _ => WorkList::Queue(VecDeque::new(), order),
        }
    }

    pub(super) fn push<T: Tree<Node = N>>(&mut self, tree: &T, n: N) {
        match self {
            WorkList::Queue(q, _) => q.push_back(n),
            WorkList::Sized(w) => {
                let later = w.later.get(T::index(n)).copied().unwrap_or(false);
                w.map
                    .insert((later, Reverse(tree.weight(n)), w.arrivals), n);
                w.arrivals += 1;
            }
        }
    }

    /// Append the children of a visited node (in their order).
    pub(super) fn extend<T: Tree<Node = N>>(&mut self, tree: &T, children: Vec<N>) {
        match self {
            WorkList::Queue(q, TraversalOrder::DepthFirst) => q.extend(children.into_iter().rev()),
            _ => {
                for c in children {
                    self.push(tree, c);
                }
            }
        }
    }

    pub(super) fn pop(&mut self) -> Option<N> {
        match self {
            WorkList::Queue(q, TraversalOrder::DepthFirst) => q.pop_back(),
            WorkList::Queue(q, _) => q.pop_front(),
            WorkList::Sized(w) => w.map.pop_first().map(|(_, n)| n),
        }
    }

    /// The next `k` nodes in the order they are popped.
    pub(super) fn next(&self, k: usize) -> Vec<N> {
        match self {
            WorkList::Queue(q, TraversalOrder::DepthFirst) => {
                q.iter().rev().copied().take(k).collect()
            }
            WorkList::Queue(q, _) => q.iter().copied().take(k).collect(),
            WorkList::Sized(w) => w.map.values().copied().take(k).collect(),
        }
    }

    /// The whole breadth-first work list, when it holds at most `k` nodes.
    pub(super) fn whole_breadth_first(&self, k: usize) -> bool {
        matches!(self, WorkList::Queue(q, TraversalOrder::BreadthFirst) if q.len() <= k)
    }
}

/// By node index, for the nodes of the current tree: whether the node holds the first
/// occurrence of an identifier spelling that also occurs after the node's last identifier
/// (a declaration with a later use, as far as spellings tell; what comes first in the text
/// stands for the declaration in most languages, and a name used only before the node does
/// not count). One walk over the tree: identifier tokens numbered in text order, and per
/// node the last position that a first occurrence inside it is used at.
///
/// With `closure`, the tokens that have a name for the reference closure ([`Tree::name`], a
/// language that declares before use) take no part: there a candidate that removes a
/// declaration removes its uses among the siblings with it, and a declaration used from
/// outside the siblings stays (`closure`), so the declaration need not wait for its users.
pub(super) fn used_later<T: Tree>(tree: &T, closure: bool) -> Vec<bool> {
    // Per spelling: the positions of its first and last occurrences (identifier tokens
    // numbered in text order).
    let mut first: Vec<u32> = Vec::new();
    let mut last: Vec<u32> = Vec::new();
    // Per node: (first position, last position, latest use of a first occurrence inside).
    let mut spans: Vec<(u32, u32, u32)> = Vec::new();
    let mut position: u32 = 0;
    // The live nodes in pre-order (the name tokens among the tokens).
    let mut stack = vec![tree.root()];
    let mut order: Vec<T::Node> = Vec::new();
    let none = (u32::MAX, 0, 0);
    while let Some(n) = stack.pop() {
        let i = T::index(n);
        if spans.len() <= i {
            spans.resize(i + 1, none);
        }
        if tree.is_token(n) {
            let spelling = match closure && tree.name(n).is_some() {
                true => None,
                false => tree.spelling(n),
            };
            if let Some(sp) = spelling {
                let sp = sp as usize;
                if first.len() <= sp {
                    first.resize(sp + 1, u32::MAX);
                    last.resize(sp + 1, 0);
                }
                if first[sp] == u32::MAX {
                    first[sp] = position;
                }
                last[sp] = position;
                spans[i] = (position, position, sp as u32);
                order.push(n);
                position += 1;
            }
            continue;
        }
        order.push(n);
        for &c in tree.children(n).iter().rev() {
            if !tree.is_pruned(c) {
                stack.push(c);
            }
        }
    }
    if position == 0 {
        return Vec::new();
    }
    // Children before parents: `order` is a pre-order, so walk it backwards.
    for &n in order.iter().rev() {
        if tree.is_token(n) {
            // The third field held the token's spelling: now the last position of that
            // spelling if the token is its first occurrence, else 0.
            let span = &mut spans[T::index(n)];
            let sp = span.2 as usize;
            span.2 = if first[sp] == span.0 { last[sp] } else { 0 };
            continue;
        }
        let mut acc = none;
        for &c in tree.children(n) {
            if tree.is_pruned(c) {
                continue;
            }
            let (a, b, u) = spans[T::index(c)];
            if a == u32::MAX {
                continue;
            }
            acc = (acc.0.min(a), acc.1.max(b), acc.2.max(u));
        }
        spans[T::index(n)] = acc;
    }
    spans
        .iter()
        .map(|&(a, b, u)| a != u32::MAX && u > b)
        .collect()
}
