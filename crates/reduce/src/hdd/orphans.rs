//! Uses-first HDDr's second look at a visited list: a child that a visit kept while the
//! rest of the text used it is tried again once nothing outside it uses it any more. A visit
//! of the root keeps the imports, the helper classes and the library's namespaces that the
//! program uses at that moment; once the visits below have taken those uses away, the kept
//! declarations would wait for the next pass, while this one walks their insides node by
//! node.

use std::collections::HashMap;

use super::work_list::used_later;
use crate::session::Tree;

pub(super) struct Orphans<N> {
    /// Children kept by a visit while used from outside, with the visited node, in the
    /// order of the visits.
    watched: Vec<(N, N)>,
    /// What the last walk counted.
    walk: Walk,
    /// The length of the text at the last walk.
    walked_at: usize,
    /// By node index: the node lies under one that a second look removed (its visit is
    /// moot).
    dead: Vec<bool>,
}

impl<N: Copy + Eq> Orphans<N> {
    pub(super) fn new<T: Tree<Node = N>>(tree: &T, len: usize) -> Orphans<N> {
        Orphans {
            watched: Vec::new(),
            walk: Walk::of(tree),
            walked_at: len,
            dead: Vec::new(),
        }
    }

    pub(super) fn is_dead<T: Tree<Node = N>>(&self, n: N) -> bool {
        self.dead.get(T::index(n)).copied().unwrap_or(false)
    }

    /// After the visit of `parent`: watch its kept children (`kept`, HDDr's tagChildren;
    /// tokens declare nothing) used from outside, as far as the last walk tells (it counted
    /// the uses the text has lost since, too: a child whose last use went since then is
    /// tried again at the next walk).
    pub(super) fn watch<T: Tree<Node = N>>(&mut self, tree: &T, parent: N, mut kept: Vec<N>) {
        kept.retain(|&c| !tree.is_token(c));
        let used = self.walk.used(tree, &kept);
        let used_kept = kept.into_iter().zip(used).filter(|&(_, u)| u);
        self.watched.extend(used_kept.map(|(c, _)| (parent, c)));
    }

    /// Once the text (now `len` bytes) has lost an eighth since the last walk (a walk costs
    /// a pass over the tree and over the watched subtrees): walk again, and return the
    /// watched children no longer used from outside, the orphans, one list per visit in the
    /// order of the visits. They are no longer watched.
    pub(super) fn orphans<T: Tree<Node = N>>(&mut self, tree: &T, len: usize) -> Vec<Vec<N>> {
        if len * 8 > self.walked_at * 7 {
            return Vec::new();
        }
        self.walked_at = len;
        self.walk = Walk::of(tree);
        self.watched.retain(|&(_, c)| !tree.is_pruned(c));
        let children: Vec<N> = self.watched.iter().map(|&(_, c)| c).collect();
        let mut used = self.walk.used(tree, &children).into_iter();
        let mut lists: Vec<Vec<N>> = Vec::new();
        let mut last: Option<N> = None;
        self.watched.retain(|&(p, c)| {
            if used.next().unwrap_or(true) {
                return true;
            }
            match lists.last_mut() {
                Some(list) if last == Some(p) => list.push(c),
                _ => lists.push(vec![c]),
            }
            last = Some(p);
            false
        });
        lists
    }

    /// Mark the subtree of `n` dead.
    pub(super) fn bury<T: Tree<Node = N>>(&mut self, tree: &T, n: N) {
        let mut stack = vec![n];
        while let Some(m) = stack.pop() {
            let i = T::index(m);
            if self.dead.len() <= i {
                self.dead.resize(i + 1, false);
            }
            self.dead[i] = true;
            stack.extend(tree.children(m).iter().copied());
        }
    }
}

/// The counts of one walk over the live tree: per name ([`Tree::name`]), its occurrences;
/// per node, whether it holds the first occurrence of a spelling that occurs after it
/// ([`used_later`]).
struct Walk {
    totals: Vec<u32>,
    later: Vec<bool>,
}

impl Walk {
    fn of<T: Tree>(tree: &T) -> Walk {
        let mut totals: Vec<u32> = Vec::new();
        live(tree, tree.root(), &mut |m| {
            if let Some(k) = tree.name(m) {
                let k = k as usize;
                if totals.len() <= k {
                    totals.resize(k + 1, 0);
                }
                totals[k] += 1;
            }
        });
        Walk {
            totals,
            later: used_later(tree, false),
        }
    }

    /// Per node of `nodes` (live ones): whether the rest of the text uses it. Where the
    /// language has names, a node is used when a name declared inside it
    /// ([`Tree::is_declaration`]) occurs outside it too; where it has spellings, when it holds
    /// the first occurrence of one that occurs after it.
    fn used<T: Tree>(&self, tree: &T, nodes: &[T::Node]) -> Vec<bool> {
        let mut local: HashMap<u32, u32> = HashMap::new();
        let mut declared: Vec<u32> = Vec::new();
        nodes
            .iter()
            .map(|&c| {
                if self.later.get(T::index(c)).copied().unwrap_or(false) {
                    return true;
                }
                if self.totals.is_empty() {
                    return false;
                }
                local.clear();
                declared.clear();
                live(tree, c, &mut |m| {
                    if let Some(k) = tree.name(m) {
                        *local.entry(k).or_insert(0) += 1;
                        if tree.is_declaration(m) {
                            declared.push(k);
                        }
                    }
                });
                (declared.iter())
                    .any(|k| local[k] < self.totals.get(*k as usize).copied().unwrap_or(0))
            })
            .collect()
    }
}

/// Call `f` on the live nodes of the subtree of `root`.
fn live<T: Tree>(tree: &T, root: T::Node, f: &mut dyn FnMut(T::Node)) {
    let mut stack = vec![root];
    while let Some(m) = stack.pop() {
        if tree.is_pruned(m) {
            continue;
        }
        f(m);
        stack.extend(tree.children(m));
    }
}
