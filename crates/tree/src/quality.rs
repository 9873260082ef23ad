//! How good the replacement strings are on a real tree (`cargo xtask tree-stats`, and a
//! test in `replace.rs`): above `rtree`, which it measures.

use crate::{count_errors, Edit, NodeId, RTree};

/// How many single-node replacements keep the syntax: for each live, non-hidden node
/// except the root (at most `limit` of them, evenly spread), the tree with just that node
/// pruned is re-parsed; it passes if it has no more ERROR/MISSING nodes than the input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Quality {
    pub tested: usize,
    pub ok: usize,
    /// Kinds of (up to 20) failing nodes with their replacement, for diagnosis.
    pub failures: Vec<(String, String)>,
}

impl Quality {
    pub fn rate(&self) -> f64 {
        if self.tested == 0 {
            1.0
        } else {
            self.ok as f64 / self.tested as f64
        }
    }
}

pub fn replacement_quality(tree: &RTree, limit: usize) -> Quality {
    let base = tree.error_count();
    let nodes: Vec<NodeId> = tree
        .preorder()
        .into_iter()
        .filter(|&n| n != tree.root() && !tree.is_hidden(n))
        .collect();
    let mut q = Quality::default();
    if limit == 0 {
        return q;
    }
    let step = nodes.len().div_ceil(limit).max(1);
    for &n in nodes.iter().step_by(step) {
        let text = tree.unparse_with(&|m| {
            if m == n {
                Edit::Prune
            } else {
                Edit::Keep
            }
        });
        q.tested += 1;
        if count_errors(tree.lang(), &text) <= base {
            q.ok += 1;
        } else if q.failures.len() < 20 {
            q.failures.push((
                format!(
                    "{} in {}",
                    tree.kind(n),
                    tree.parent(n).map_or("-", |p| tree.kind(p))
                ),
                String::from_utf8_lossy(tree.replacement(n)).into_owned(),
            ));
        }
    }
    q
}
