//! Hierarchical Delta Debugging: HDD (004 fig. 2, level by level), HDDr (dissertation
//! fig. 2.2(b), the children of one node at a time), Coarse HDD and Coarse HDDr (fig. 2.3,
//! only nodes whose replacement is empty take part), and their interlacing with hoisting
//! (HDDH, 004 fig. 9 / dissertation fig. 7.8). The same two traversals also drive the
//! stand-alone hoisting algorithms of fig. 7.7 (a `Step` without `prune`).

use std::collections::VecDeque;

use treedd_tree::{Edit, NodeId, RTree};

use crate::algorithm::{candidate_test, Session, Step};
use crate::{ddmin, hoist, TraversalOrder};

/// The level-by-level algorithms: HDD, Coarse HDD, HDDH, Coarse HDDH (with `step.prune`) and
/// Hoist, Coarse Hoist (without). One pass from the root (level 0) to the deepest level.
pub(crate) fn levels(s: &mut Session, step: Step) {
    let mut level = 0;
    loop {
        if s.cancelled() {
            return;
        }
        // TAGNODES
        let nodes = tag_nodes(s.tree, level);
        if nodes.is_empty() {
            return;
        }
        visit(s, nodes, step);
        level += 1;
    }
}

/// The recursive algorithms: HDDr, Coarse HDDr, HDDH^r, Coarse HDDH^r (with `step.prune`)
/// and Hoist^r, Coarse Hoist^r (without): a work list seeded with the root; each popped node
/// has its children minimized, then its remaining children are appended.
pub(crate) fn recursive(s: &mut Session, step: Step, order: TraversalOrder) {
    let mut work = VecDeque::from([s.tree.root()]);
    loop {
        let current = match order {
            TraversalOrder::BreadthFirst => work.pop_front(),
            TraversalOrder::DepthFirst => work.pop_back(),
        };
        let Some(current) = current else { return };
        if s.cancelled() {
            return;
        }
        if s.tree.is_pruned(current) {
            continue;
        }
        // tagChildren
        let nodes = live_children(s.tree, current);
        visit(s, nodes, step);
        // append(queue, tagChildren(current_node)): the children after pruning and hoisting.
        // For plain HDDr these are exactly `minconfig`; tokens have no children to visit.
        let next: Vec<NodeId> = s
            .tree
            .children(current)
            .iter()
            .copied()
            .filter(|&c| !s.tree.is_pruned(c) && !s.tree.is_token(c))
            .collect();
        match order {
            TraversalOrder::BreadthFirst => work.extend(next),
            TraversalOrder::DepthFirst => work.extend(next.into_iter().rev()),
        }
    }
}

/// One minimization step on a set of nodes of the same level (or siblings).
fn visit(s: &mut Session, mut nodes: Vec<NodeId>, step: Step) {
    if step.coarse {
        // filterEmptyPhiNodes
        nodes.retain(|&n| s.tree.replacement(n).is_empty());
    }
    if nodes.is_empty() {
        return;
    }
    let kept = if step.prune { prune(s, &nodes) } else { nodes };
    if step.hoist && !s.cancelled() {
        hoist::tmin(s, &kept);
    }
}

/// TAGNODES: the nodes at depth `level` of the current tree that HDD may remove (neither
/// hidden nor pruned), in source order. Pruned subtrees are not entered.
pub(crate) fn tag_nodes(tree: &RTree, level: usize) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![(tree.root(), 0usize)];
    while let Some((n, depth)) = stack.pop() {
        if tree.is_pruned(n) {
            continue;
        }
        if depth == level {
            if !tree.is_hidden(n) {
                out.push(n);
            }
            continue;
        }
        stack.extend(tree.children(n).iter().rev().map(|&c| (c, depth + 1)));
    }
    out
}

/// tagChildren: the children of `n` that HDDr may remove (neither hidden nor pruned).
pub(crate) fn live_children(tree: &RTree, n: NodeId) -> Vec<NodeId> {
    tree.children(n)
        .iter()
        .copied()
        .filter(|&c| !tree.is_pruned(c) && !tree.is_hidden(c))
        .collect()
}

/// DDMIN over `nodes`, then PRUNE the ones it dropped; returns the kept nodes (`minconfig`).
///
/// A candidate is the current tree with the dropped nodes pruned. DDMIN never tests the empty
/// configuration, so when it ends with a single node, removing that node is tested too (as
/// Picireny's `EmptyDD` does): this is what lets HDD* reach a 1-tree-minimal tree.
pub(crate) fn prune(s: &mut Session, nodes: &[NodeId]) -> Vec<NodeId> {
    let tree: &RTree = s.tree;
    let (judge, current) = (s.judge, s.current.as_slice());
    let size = nodes.iter().map(|n| n.index()).max().map_or(0, |m| m + 1);
    let mut in_config = vec![false; size];
    for n in nodes {
        in_config[n.index()] = true;
    }
    let test = |kept: &[NodeId]| -> bool {
        let mut keep = vec![false; size];
        for k in kept {
            keep[k.index()] = true;
        }
        let edits = |n: NodeId| {
            let i = n.index();
            if i < size && in_config[i] && !keep[i] {
                Edit::Prune
            } else {
                Edit::Keep
            }
        };
        candidate_test(judge, current, &tree.unparse_with(&edits))
    };
    let mut kept = ddmin(nodes, &test, s.ddmin);
    if kept.len() == 1 && !judge.is_cancelled() && test(&[]) {
        kept.clear();
    }
    if kept.len() < nodes.len() {
        let mut keep = vec![false; size];
        for k in &kept {
            keep[k.index()] = true;
        }
        for &n in nodes {
            if !keep[n.index()] {
                s.tree.prune(n);
            }
        }
        s.refresh();
    }
    kept
}
