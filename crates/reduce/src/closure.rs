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
//! In C, a call may name a function declared nowhere (C89's implicit declaration): whether
//! the name a call calls refers to the function's declaration is asked of the oracle
//! ([`probe_calls`]).
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

use crate::session::{candidate_test, Calls, Session, Tree};

/// Who refers to whom among a visit's siblings.
pub(crate) struct Closure {
    /// `refers[i]`: the siblings that sibling `i` refers to.
    refers: Vec<Vec<usize>>,
}

impl Closure {
    /// The references among `nodes` (siblings, in source order), or `None` when there are
    /// none (then every configuration is closed); `calls` says which names of calls count.
    pub(crate) fn of<T: Tree>(tree: &T, nodes: &[T::Node], calls: Calls) -> Option<Closure> {
        let counts = |m| match calls {
            Calls::Refer => true,
            Calls::Ignored => !tree.is_callee(m),
            Calls::StatementsIgnored => !tree.is_statement_callee(m),
        };
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
                if let Some(name) = tree.name(m).filter(|_| counts(m)) {
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

    /// Per sibling: whether another refers to it.
    fn referred(&self) -> Vec<bool> {
        let mut out = vec![false; self.refers.len()];
        for &j in self.refers.iter().flatten() {
            out[j] = true;
        }
        out
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

/// Oracle runs [`probe_calls`] may spend on one tree.
const PROBES: usize = 3;

/// Ask the oracle whether a call refers to the declaration of the function it calls, once
/// per reduction, in a language where a call may name a function declared nowhere (C89's
/// implicit declaration; `implicit_calls` of passes.toml). Whether it does is the compiler's
/// choice (gcc 12 warns, gcc 14 and clang 16 reject such calls by default) and the oracle's
/// (`-Werror=implicit-function-declaration`). Where it does not, following calls keeps every
/// function declaration that a kept call names until the call goes (on six Perses inputs,
/// whose oracles run `gcc -w`, 1.05-4.5x the oracle runs of asking, and outputs up to 7%
/// larger); where it does, ignoring them costs 1.3-2.1x the runs on the real gcc crashes of
/// c-ice.
///
/// The question: the top-level siblings that only calls refer to; the current text without
/// one of them is a candidate. The first interesting one answers "no" (and is kept: it is a
/// reduction); [`PROBES`] uninteresting ones answer "yes" (or the oracle needed each of them
/// for another reason: then calls stay references, as without the question). First those
/// that only calls whose value is unused refer to (an implicit declaration returns `int`,
/// so a use of the value may fail on its type alone: a function returning a vector), then
/// the others; smallest first within each. No such sibling: no answer yet (the next round
/// asks again).
pub(crate) fn probe_calls<T: Tree>(s: &mut Session<T>) {
    let tree = &*s.tree;
    let root = tree.root();
    if tree.is_pruned(root) {
        return;
    }
    let nodes: Vec<T::Node> = tree
        .children(root)
        .iter()
        .copied()
        .filter(|&n| !tree.is_pruned(n) && !tree.is_hidden(n))
        .collect();
    let Some(all) = Closure::of(tree, &nodes, Calls::Refer) else {
        return;
    };
    let referred = |calls| Closure::of(tree, &nodes, calls).map(|c| c.referred());
    let (without_calls, without_statements) =
        (referred(Calls::Ignored), referred(Calls::StatementsIgnored));
    let by = |r: &Option<Vec<bool>>, i: usize| r.as_ref().is_some_and(|r| r[i]);
    // ((referred to by a call whose value is used, size of the removal), sibling); the
    // candidate texts are made for the chosen ones only (a large file may have hundreds).
    let mut order: Vec<((bool, usize), T::Node)> = all
        .referred()
        .into_iter()
        .enumerate()
        .filter(|&(i, by_all)| by_all && !by(&without_calls, i))
        .map(|(i, _)| {
            let size = s.current.len().saturating_sub(
                tree.unparse_pruned(&[&[nodes[i]]], &|m| m == nodes[i])
                    .len(),
            );
            ((by(&without_statements, i), size), nodes[i])
        })
        .collect();
    if order.is_empty() {
        return;
    }
    // Statement calls only first, smallest removal first; ties in source order (stable).
    order.sort_by_key(|p| p.0);
    let probes: Vec<(T::Node, Vec<u8>)> = order
        .into_iter()
        .take(PROBES)
        .map(|(_, node)| (node, tree.unparse_pruned(&[&[node]], &|m| m == node)))
        .collect();
    if s.jobs() > 1 {
        s.judge
            .announce(probes.iter().map(|p| p.1.clone()).collect());
    }
    s.judge
        .set_phase("reference closure: does a call need a declaration?");
    for (node, candidate) in probes {
        if s.cancelled() {
            return;
        }
        if candidate_test(s.judge, &s.current, &candidate) {
            s.tree.prune(node);
            s.refresh();
            s.judge.set_calls_refer(false);
            return;
        }
    }
    s.judge.set_calls_refer(true);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::toy::{has, judge, Toy};

    #[test]
    fn siblings_keep_what_they_refer_to() {
        // Toy names: every token; `x` is first in d1, `y` in d2, `z` in u1.
        let tree = Toy::parse("(r (d1 x) (d2 y x) (u1 y z) (u2 z) (u3 w))");
        let nodes = tree.children(tree.root()).to_vec();
        let c = Closure::of(&tree, &nodes, Calls::Refer).unwrap();
        assert_eq!(c.close(&[3]), vec![0, 1, 2, 3]);
        assert_eq!(c.close(&[1]), vec![0, 1]);
        assert_eq!(c.close(&[4]), vec![4]);
        assert_eq!(c.close(&[]), Vec::<usize>::new());
        // A name first seen inside a local scope declares nothing for the other siblings.
        let tree = Toy::parse("(r (d1 (block x)) (d2 x y) (u1 y))");
        let nodes = tree.children(tree.root()).to_vec();
        let c = Closure::of(&tree, &nodes, Calls::Refer).unwrap();
        assert_eq!(c.close(&[2]), vec![1, 2]);
        assert_eq!(c.close(&[1]), vec![1]);
        // Nothing refers to anything: no closure.
        let tree = Toy::parse("(r (a x) (b y))");
        let nodes = tree.children(tree.root()).to_vec();
        assert!(Closure::of(&tree, &nodes, Calls::Refer).is_none());
    }

    #[test]
    fn without_calls_the_name_a_call_calls_refers_to_nothing() {
        let tree = Toy::parse("(r (d1 f) (d2 x) (u (call f) x))");
        let nodes = tree.children(tree.root()).to_vec();
        assert_eq!(
            Closure::of(&tree, &nodes, Calls::Refer)
                .unwrap()
                .close(&[2]),
            vec![0, 1, 2]
        );
        assert_eq!(
            Closure::of(&tree, &nodes, Calls::Ignored)
                .unwrap()
                .close(&[2]),
            vec![1, 2]
        );
    }

    /// `f` and `g` are first in `d1` and `d2` and only called; `x` of `d3` is used.
    const CALLS: &str = "(r (d2 g g2) (d1 f) (d3 x) (u (call f) (call g) x y))";

    #[test]
    fn an_oracle_that_accepts_a_call_without_declaration_says_so_in_one_run() {
        let mut tree = Toy::parse(CALLS);
        let (j, log) = judge(|t| has(t, "y"));
        let mut s = Session::new(&mut tree, &j, &Default::default());
        probe_calls(&mut s);
        assert_eq!(j.calls_refer(), Some(false));
        // The smallest sibling only calls refer to (`d1`) goes, and stays gone.
        assert_eq!(*log.lock().unwrap(), vec!["g g2 x f g x y"]);
        assert_eq!(s.current, b"g g2 x f g x y");
    }

    #[test]
    fn an_oracle_that_needs_declarations_rejects_each_question() {
        let mut tree = Toy::parse(CALLS);
        let (j, log) = judge(|t| t.starts_with("g g2 f x"));
        let mut s = Session::new(&mut tree, &j, &Default::default());
        probe_calls(&mut s);
        assert_eq!(j.calls_refer(), Some(true));
        assert_eq!(*log.lock().unwrap(), vec!["g g2 x f g x y", "f x f g x y"]);
        assert_eq!(s.current, b"g g2 f x f g x y");
        // What only calls whose value is unused refer to comes first, however large.
        let mut tree = Toy::parse("(r (d1 f) (d2 g g2) (u (call f) (stmt (call g)) y))");
        let (j, log) = judge(|_| false);
        probe_calls(&mut Session::new(&mut tree, &j, &Default::default()));
        assert_eq!(j.calls_refer(), Some(true));
        assert_eq!(*log.lock().unwrap(), vec!["f f g y", "g g2 f g y"]);
        // No sibling only calls refer to: no question, no answer.
        let mut tree = Toy::parse("(r (d3 x) (u x y))");
        let (j, log) = judge(|_| true);
        probe_calls(&mut Session::new(&mut tree, &j, &Default::default()));
        assert_eq!(j.calls_refer(), None);
        assert!(log.lock().unwrap().is_empty());
    }
}
