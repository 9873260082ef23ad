//! The reference closure of a set of siblings: DDMIN's candidates keep what their kept
//! siblings refer to.
//!
//! A sibling *refers to* another when it holds an identifier whose first occurrence in the
//! text is inside the other (where a name is declared, in a language that declares before
//! use: C's prototypes, globals and typedefs, a block's local declarations). A candidate that
//! removes a declaration and keeps a use does not compile, so a DDMIN whose configurations
//! are closed under this relation skips those runs: on the first visit of a csmith program's
//! 169 top-level declarations, plain DDMIN needed 1,195 oracle runs to keep the 85 that the
//! crashing function reaches, DDMIN over closed configurations finds a few of them and keeps
//! the rest with them. This is the dependency-closed reduction of Kalhauge and Palsberg
//! ("Binary Reduction of Dependency Graphs", ESEC/FSE 2019) with the dependencies read off
//! the names, and what C-Reduce's passes do one declaration at a time (remove unused
//! functions, variables and typedefs once nothing refers to them).
//!
//! Only languages whose passes.toml says `declare_before_use` (C, C++) have names: where uses
//! may come first (JavaScript's hoisted functions, Java's members), the first occurrence is
//! not the declaration; and where a missing declaration only fails at run time (JavaScript),
//! the closure cost oracle runs on the JRTS proxies (858 against 712).
//!
//! A first occurrence inside a local scope of its sibling (`local_scopes` of passes.toml: a
//! block, a parameter list) declares nothing for the others: on the Perses inputs, whose
//! system headers repeat parameter names (`__s`, `__n`) in hundreds of prototypes, counting
//! those made every prototype keep the first one, and the default needed 1.5x the runs.
//!
//! The relation is a guess from spellings even so: two unrelated locals of the same name make
//! a sibling refer to one it does not need, which then stays with it. So rounds with the
//! closure are followed by a round without it before the joint fixed point is reached
//! (`algorithm::rounds`), and the output is as minimal as without the closure.

use crate::session::Tree;

/// Who refers to whom among a visit's siblings.
pub(crate) struct Closure {
    /// `refers[i]`: the siblings that sibling `i` refers to.
    refers: Vec<Vec<usize>>,
}

impl Closure {
    /// The references among `nodes` (siblings, in source order), or `None` when there are
    /// none (then every configuration is closed).
    pub(crate) fn of<T: Tree>(tree: &T, nodes: &[T::Node]) -> Option<Closure> {
        // The names each sibling holds, and the sibling holding each name's first occurrence.
        let mut declared_in: std::collections::HashMap<u32, usize> = Default::default();
        let mut holds: Vec<Vec<u32>> = Vec::with_capacity(nodes.len());
        for (i, &n) in nodes.iter().enumerate() {
            let mut names = Vec::new();
            // (node, inside a local scope of the sibling: its names are not declared for
            // the other siblings)
            let mut stack = vec![(n, false)];
            while let Some((m, local)) = stack.pop() {
                if tree.is_pruned(m) {
                    continue;
                }
                if let Some(name) = tree.name(m) {
                    names.push(name);
                    if !local && tree.is_first_occurrence(m) {
                        declared_in.insert(name, i);
                    }
                }
                let local = local || tree.is_local_scope(m);
                stack.extend(tree.children(m).iter().map(|&c| (c, local)));
            }
            holds.push(names);
        }
        if declared_in.is_empty() {
            return None;
        }
        let mut any = false;
        let refers = holds
            .into_iter()
            .enumerate()
            .map(|(i, names)| {
                let mut to: Vec<usize> = names
                    .iter()
                    .filter_map(|name| declared_in.get(name).copied())
                    .filter(|&j| j != i)
                    .collect();
                to.sort_unstable();
                to.dedup();
                any |= !to.is_empty();
                to
            })
            .collect();
        any.then_some(Closure { refers })
    }

    /// `kept` (sorted indices) with everything it refers to, transitively; sorted.
    pub(crate) fn close(&self, kept: &[usize]) -> Vec<usize> {
        let mut keep = vec![false; self.refers.len()];
        let mut stack = kept.to_vec();
        while let Some(k) = stack.pop() {
            if !keep[k] {
                keep[k] = true;
                stack.extend(&self.refers[k]);
            }
        }
        (0..keep.len()).filter(|&i| keep[i]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::toy::Toy;

    #[test]
    fn siblings_keep_what_they_refer_to() {
        // Toy names: every token; `x` is first in d1, `y` in d2, `z` in u1.
        let tree = Toy::parse("(r (d1 x) (d2 y x) (u1 y z) (u2 z) (u3 w))");
        let nodes = tree.children(tree.root()).to_vec();
        let c = Closure::of(&tree, &nodes).unwrap();
        assert_eq!(c.close(&[3]), vec![0, 1, 2, 3]);
        assert_eq!(c.close(&[1]), vec![0, 1]);
        assert_eq!(c.close(&[4]), vec![4]);
        assert_eq!(c.close(&[]), Vec::<usize>::new());
        // A name first seen inside a local scope declares nothing for the other siblings.
        let tree = Toy::parse("(r (d1 (block x)) (d2 x y) (u1 y))");
        let nodes = tree.children(tree.root()).to_vec();
        let c = Closure::of(&tree, &nodes).unwrap();
        assert_eq!(c.close(&[2]), vec![1, 2]);
        assert_eq!(c.close(&[1]), vec![1]);
        // Nothing refers to anything: no closure.
        let tree = Toy::parse("(r (a x) (b y))");
        let nodes = tree.children(tree.root()).to_vec();
        assert!(Closure::of(&tree, &nodes).is_none());
    }
}
