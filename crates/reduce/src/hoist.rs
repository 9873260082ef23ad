//! Hoisting (004 section III-C, dissertation section 7.2): the transformation-based
//! minimizing algorithm TMIN (004 fig. 6) over the hoisting candidates chi(n) (fig. 7).
//!
//! The hoisting algorithms themselves (Hoist, Hoist^r, Coarse Hoist, Coarse Hoist^r of
//! fig. 7.7, and the interlaced HDDH family of fig. 7.8) are the traversals of `hdd.rs` with a
//! `Step` that calls [`tmin`].

use treedd_tree::{Edit, NodeId, RTree};

use crate::algorithm::{candidate_test, Session};

/// chi(n): the hoistable descendants of `n`. From each child of `n`, descend until a node
/// compatible with `n` is met (that node is a candidate, its subtree is not searched
/// further). Pruned subtrees are skipped. Ordered farthest from `n` first (the papers'
/// priority), source order among equally far candidates.
pub(crate) fn chi(tree: &RTree, n: NodeId) -> Vec<NodeId> {
    let mut found: Vec<(usize, NodeId)> = Vec::new();
    let mut stack: Vec<(NodeId, usize)> = tree.children(n).iter().rev().map(|&c| (c, 1)).collect();
    while let Some((d, dist)) = stack.pop() {
        if tree.is_pruned(d) || tree.is_hidden(d) {
            continue;
        }
        if tree.compatible(n, d) {
            found.push((dist, d));
            continue;
        }
        stack.extend(tree.children(d).iter().rev().map(|&c| (c, dist + 1)));
    }
    // Stable: equally far candidates stay in source (pre-)order.
    found.sort_by(|a, b| b.0.cmp(&a.0));
    found.into_iter().map(|(_, d)| d).collect()
}

/// TMIN^chi over `nodes` (one level, or the children of one node), committing each
/// successful hoisting (TRANSFORM) as it is found.
///
/// For each configuration element, the candidates chi(t(n)) of its current image t(n) are
/// tried farthest first; the first interesting one becomes the new image and its own
/// candidates are tried next. Passes over all elements repeat until one pass finds nothing,
/// so the result is 1-maximal: no single further hoisting of any element is interesting.
/// Returns whether anything was hoisted.
pub(crate) fn tmin(s: &mut Session, nodes: &[NodeId]) -> bool {
    let mut image: Vec<NodeId> = nodes
        .iter()
        .copied()
        .filter(|&n| !s.tree.is_pruned(n))
        .collect();
    let mut any = false;
    loop {
        let mut changed = false;
        for slot in image.iter_mut() {
            loop {
                if s.cancelled() {
                    return any;
                }
                let n = *slot;
                let candidates = chi(s.tree, n);
                let Some(d) = first_interesting(s, n, &candidates) else {
                    break;
                };
                s.tree.hoist(n, d);
                s.refresh();
                *slot = d;
                changed = true;
                any = true;
            }
        }
        if !changed {
            return any;
        }
    }
}

/// The first of `candidates` (in order) whose hoisting into `n`'s place is interesting.
/// With several jobs, windows of `jobs` candidates are tested at once and the first
/// interesting one in order wins, so the answer does not depend on the number of jobs.
fn first_interesting(s: &Session, n: NodeId, candidates: &[NodeId]) -> Option<NodeId> {
    let serialize = |d: NodeId| {
        s.tree
            .unparse_with(&|m| if m == n { Edit::Hoist(d) } else { Edit::Keep })
    };
    let jobs = s.jobs();
    if jobs == 1 {
        return candidates
            .iter()
            .copied()
            .find(|&d| s.test_edits(&|m| if m == n { Edit::Hoist(d) } else { Edit::Keep }));
    }
    for window in candidates.chunks(jobs) {
        let texts: Vec<Vec<u8>> = window.iter().map(|&d| serialize(d)).collect();
        let (judge, current) = (s.judge, s.current.as_slice());
        let verdicts: Vec<bool> = std::thread::scope(|scope| {
            let handles: Vec<_> = texts
                .iter()
                .map(|t| scope.spawn(move || candidate_test(judge, current, t)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        if let Some(i) = verdicts.iter().position(|&v| v) {
            return Some(window[i]);
        }
        if judge.is_cancelled() {
            return None;
        }
    }
    None
}
