//! The reference closure of a set of siblings: DDMIN's candidates keep what their kept
//! siblings refer to.
//!
//! A sibling *refers to* another when it holds an identifier whose first occurrence in the text
//! is inside the other (where a name is declared, in a language that declares before use: C's
//! prototypes, globals and typedefs, a block's local declarations), or that declares that name
//! again (`[[declarations]]`: a C++ class's definition after its forward declaration, a class
//! template's specializations, all of which a use may need: libstdc++ forward-declares its type
//! traits, then defines and specializes them further down). A candidate that removes a
//! declaration and keeps a use does not compile, so a DDMIN whose configurations are closed
//! under this relation skips those runs: on the first visit of a csmith program's 169 top-level
//! declarations, plain DDMIN needed 1,195 oracle runs to keep the 85 that the crashing function
//! reaches, DDMIN over closed configurations finds a few of them and keeps the rest with them.
//! This is the dependency-closed reduction of Kalhauge and Palsberg ("Binary Reduction of
//! Dependency Graphs", ESEC/FSE 2019) with the dependencies read off the names, and what
//! C-Reduce's passes do one declaration at a time (remove unused functions, variables and
//! typedefs once nothing refers to them).
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
//! A sibling that declares a name used outside every sibling (a library function that the
//! program's own code calls, seen from the visit of the library's namespace) cannot go while
//! that use stays. What is neither used from outside nor referred to by what is is the
//! unused part of the list, and the visit's first test removes all of it at once
//! (`hdd::prune_all`), as C-Vise's `remove-unused-function` does with clang's semantic
//! analysis: the names' occurrences stand in for it here. When that test fails, DDMIN splits
//! the rest apart from the used part, so that most of its parts hold siblings of one kind.
//!
//! The relation is a guess from spellings even so: two unrelated locals of the same name make
//! a sibling refer to one it does not need, which then stays with it. So rounds with the
//! closure are followed by a round without it before the joint fixed point is reached
//! (`algorithm::rounds`), and the output is as minimal as without the closure.

use std::collections::HashMap;

use crate::session::{candidate_test, Calls, Session, Tree};

/// Who refers to whom among a visit's siblings, and what goes with them.
pub(crate) struct Closure<N> {
    /// `refers[i]`: the siblings that sibling `i` refers to.
    refers: Vec<Vec<usize>>,
    /// The siblings that declare a name used outside every sibling (see
    /// [`Closure::used_from_outside`]).
    outside: Vec<usize>,
    /// The declarations that must be used, where the language has them.
    unused: Option<Unused<N>>,
}

/// The declarations a compiler rejects when nothing uses them (Go's imports and local
/// variables, `must_use` in passes.toml), around a visit's siblings: a candidate that
/// removes the last uses of one removes it too (its removal unit, see
/// [`Tree::removal_unit`]), wherever it is: an import with the function that used it last.
/// Otherwise the import keeps its last use and the use keeps the import, and neither ever
/// goes. Uses are counted by spelling over the whole current tree, so a declaration goes
/// only when no occurrence of its name is left (a parameter of the same name keeps it).
struct Unused<N> {
    units: Vec<Unit<N>>,
    /// Per name (dense, see `Unit::names`): its uses in the current tree.
    total: Vec<u32>,
    /// Per sibling: (name, uses inside it).
    in_sibling: Vec<Vec<(usize, u32)>>,
    /// The siblings that are such declarations and have uses outside every sibling (an
    /// import, for the visit of the imports): removing one is an error whatever else goes.
    pinned: Vec<usize>,
}

/// The removal unit of one or more declarations that must be used.
struct Unit<N> {
    node: N,
    /// The names it declares (dense indices).
    names: Vec<usize>,
    /// It is sibling `i` (`Some(Place::Is(i))`) or lies inside it (`Place::In(i)`); `None`:
    /// outside every sibling.
    place: Option<Place>,
    /// Uses right inside it (not inside a unit inside it).
    uses: Vec<(usize, u32)>,
    /// The units right inside it.
    inner: Vec<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Is(usize),
    In(usize),
}

/// Every name in `n`'s current subtree that counts with `calls`, in no particular order:
/// `f(name, declares it, inside a local scope of n)` (a scope that `n` itself opens holds
/// its descendants).
pub(crate) fn names_in<T: Tree>(
    tree: &T,
    n: T::Node,
    calls: Calls,
    mut f: impl FnMut(u32, bool, bool),
) {
    let mut stack = vec![(n, false)];
    while let Some((m, local)) = stack.pop() {
        if tree.is_pruned(m) {
            continue;
        }
        if let Some(name) = tree.name(m).filter(|_| calls.counts(tree, m)) {
            f(name, tree.is_declaration(m), local);
        }
        let local = local || tree.is_local_scope(m);
        stack.extend(tree.children(m).iter().map(|&c| (c, local)));
    }
}

impl<N: Copy + Eq> Closure<N> {
    /// The references among `nodes` (siblings, in source order) and the declarations that
    /// must be used around them, or `None` when there are neither (then every configuration
    /// is closed); `calls` says which names of calls count.
    ///
    /// Where the language declares before use, a sibling refers to every other sibling that
    /// declares a name it holds (outside a local scope of the declaring sibling): a use of a
    /// class may need its forward declaration and its definition, a template's use its
    /// specializations, and a specialization the template. Elsewhere a sibling refers to
    /// the one sibling that declares a name it holds, unless it declares that name itself; a
    /// name declared by two siblings refers to neither (Go's methods of two types).
    ///
    /// With `totals` (per name, its occurrences in the whole current tree that count with
    /// `calls`, see `Session::name_counts`), the siblings that declare a name occurring
    /// outside every sibling are known: removing one leaves that use without its
    /// declaration.
    pub(crate) fn of<T: Tree<Node = N>>(
        tree: &T,
        nodes: &[N],
        calls: Calls,
        totals: Option<&[u32]>,
    ) -> Option<Self> {
        let every = tree.declares_before_use();
        // The names each sibling holds and declares, and the siblings declaring each name
        // (in order, each once).
        let mut declared_in: HashMap<u32, Vec<usize>> = Default::default();
        let mut holds: Vec<Vec<u32>> = Vec::with_capacity(nodes.len());
        let mut declares: Vec<Vec<u32>> = Vec::with_capacity(nodes.len());
        for (i, &n) in nodes.iter().enumerate() {
            let mut names = Vec::new();
            let mut own = Vec::new();
            names_in(tree, n, calls, |name, declaration, local| {
                names.push(name);
                if declaration {
                    own.push(name);
                    // Names declared inside a local scope of the sibling are not declared
                    // for the other siblings.
                    if !local {
                        let at = declared_in.entry(name).or_default();
                        if at.last() != Some(&i) {
                            at.push(i);
                        }
                    }
                }
            });
            own.sort_unstable();
            own.dedup();
            holds.push(names);
            declares.push(own);
        }
        // The siblings a use of `name` in sibling `i` refers to.
        let declarers = |i: usize, name: &u32| -> &[usize] {
            match declared_in.get(name) {
                Some(at) if every => at,
                Some(at) if at.len() == 1 && declares[i].binary_search(name).is_err() => at,
                _ => &[],
            }
        };
        let mut any = false;
        let refers: Vec<Vec<usize>> = holds
            .iter()
            .enumerate()
            .map(|(i, names)| {
                let mut to: Vec<usize> = names
                    .iter()
                    .flat_map(|name| declarers(i, name))
                    .copied()
                    .filter(|&j| j != i)
                    .collect();
                to.sort_unstable();
                to.dedup();
                any |= !to.is_empty();
                to
            })
            .collect();
        let mut outside = Vec::new();
        if let Some(totals) = totals {
            let mut inside: HashMap<u32, u32> = Default::default();
            for name in holds.iter().flatten() {
                *inside.entry(*name).or_default() += 1;
            }
            let mut used = vec![false; nodes.len()];
            for (&name, at) in &declared_in {
                let total = totals.get(name as usize).copied().unwrap_or(0);
                if (every || at.len() == 1) && total > inside.get(&name).copied().unwrap_or(0) {
                    for &i in at {
                        used[i] = true;
                    }
                }
            }
            outside = (0..nodes.len()).filter(|&i| used[i]).collect();
        }
        // A must-use declaration may lie anywhere (an import, for a function's siblings).
        let unused = Unused::of(tree, nodes);
        (any || unused.is_some() || !outside.is_empty()).then_some(Closure {
            refers,
            outside,
            unused,
        })
    }

    /// The siblings that declare a name used outside every sibling, with what they refer
    /// to (closed, sorted); `None` when there are none.
    pub(crate) fn used_from_outside(&self) -> Option<Vec<usize>> {
        (!self.outside.is_empty()).then(|| self.close(&self.outside))
    }

    /// Per sibling: whether another refers to it.
    fn referred(&self) -> Vec<bool> {
        let mut out = vec![false; self.refers.len()];
        for &j in self.refers.iter().flatten() {
            out[j] = true;
        }
        out
    }

    /// `kept` (sorted indices) with everything it refers to, transitively, and without the
    /// siblings that are declarations whose uses all go; sorted.
    pub(crate) fn close(&self, kept: &[usize]) -> Vec<usize> {
        self.apply(kept).0
    }

    /// The nodes outside the siblings that go with a candidate keeping `kept` (closed, see
    /// [`Closure::close`]): the declarations whose uses all go with it.
    pub(crate) fn also_pruned(&self, kept: &[usize]) -> Vec<N> {
        self.apply(kept).1
    }

    /// [`Closure::close`] and [`Closure::also_pruned`] at once.
    pub(crate) fn closed(&self, kept: &[usize]) -> (Vec<usize>, Vec<N>) {
        self.apply(kept)
    }

    fn apply(&self, kept: &[usize]) -> (Vec<usize>, Vec<N>) {
        let mut keep = vec![false; self.refers.len()];
        let mut stack = kept.to_vec();
        if let Some(u) = &self.unused {
            stack.extend(&u.pinned);
        }
        while let Some(k) = stack.pop() {
            if !keep[k] {
                keep[k] = true;
                stack.extend(&self.refers[k]);
            }
        }
        let mut extra = Vec::new();
        if let Some(u) = &self.unused {
            u.dead(&mut keep, &mut extra);
        }
        ((0..keep.len()).filter(|&i| keep[i]).collect(), extra)
    }
}

impl<N: Copy + Eq> Unused<N> {
    /// The must-use declarations of the current tree and the uses of their names, by
    /// sibling and by unit; `None` without any (two walks of the whole tree, only in a
    /// language that has such declarations).
    fn of<T: Tree<Node = N>>(tree: &T, nodes: &[N]) -> Option<Self> {
        if !tree.has_must_use() {
            return None;
        }
        // The units first, by node index: (node, declared names).
        let mut dense: HashMap<u32, usize> = HashMap::new();
        let mut unit_of: HashMap<usize, usize> = HashMap::new();
        let mut units: Vec<Unit<N>> = Vec::new();
        let mut stack = vec![tree.root()];
        while let Some(m) = stack.pop() {
            if tree.is_pruned(m) {
                continue;
            }
            stack.extend(tree.children(m));
            if !tree.must_be_used(m) {
                continue;
            }
            let (Some(u), Some(name)) = (tree.removal_unit(m), tree.name(m)) else {
                continue;
            };
            let next = dense.len();
            let name = *dense.entry(name).or_insert(next);
            let next = units.len();
            let k = *unit_of.entry(T::index(u)).or_insert(next);
            if k == next {
                units.push(Unit {
                    node: u,
                    names: Vec::new(),
                    place: None,
                    uses: Vec::new(),
                    inner: Vec::new(),
                });
            }
            units[k].names.push(name);
        }
        if units.is_empty() {
            return None;
        }
        let sibling_of: HashMap<usize, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, &n)| (T::index(n), i))
            .collect();
        let mut outer: Vec<Option<usize>> = vec![None; units.len()];
        let mut holds_sibling = vec![false; units.len()];
        let mut total = vec![0u32; dense.len()];
        let mut in_sibling: Vec<Vec<(usize, u32)>> = vec![Vec::new(); nodes.len()];
        let add =
            |list: &mut Vec<(usize, u32)>, name: usize| match list.iter_mut().find(|p| p.0 == name)
            {
                Some(p) => p.1 += 1,
                None => list.push((name, 1)),
            };
        // (node, the sibling it is in, the innermost unit it is in)
        let mut stack: Vec<(N, Option<usize>, Option<usize>)> = vec![(tree.root(), None, None)];
        while let Some((m, mut sibling, mut unit)) = stack.pop() {
            if tree.is_pruned(m) {
                continue;
            }
            if sibling.is_none() {
                sibling = sibling_of.get(&T::index(m)).copied();
                if sibling.is_some() {
                    // Every unit around a sibling holds it: not the visit's to remove.
                    let mut k = unit;
                    while let Some(o) = k {
                        holds_sibling[o] = true;
                        k = outer[o];
                    }
                }
            }
            if let Some(&k) = unit_of.get(&T::index(m)) {
                units[k].place = sibling.map(|i| match nodes[i] == m {
                    true => Place::Is(i),
                    false => Place::In(i),
                });
                outer[k] = unit;
                if let Some(o) = unit {
                    units[o].inner.push(k);
                }
                unit = Some(k);
            }
            let used = tree
                .name(m)
                .filter(|_| !tree.is_declaration(m))
                .and_then(|name| dense.get(&name));
            if let Some(&name) = used {
                total[name] += 1;
                if let Some(i) = sibling {
                    add(&mut in_sibling[i], name);
                }
                if let Some(k) = unit {
                    add(&mut units[k].uses, name);
                }
            }
            stack.extend(tree.children(m).iter().map(|&c| (c, sibling, unit)));
        }
        for (u, holds) in units.iter_mut().zip(holds_sibling) {
            if holds {
                u.names.clear();
            }
        }
        let mut outside = total.clone();
        for &(name, count) in in_sibling.iter().flatten() {
            outside[name] -= count;
        }
        let pinned = units
            .iter()
            .filter_map(|u| match u.place {
                Some(Place::Is(i)) if u.names.iter().any(|&n| outside[n] > 0) => Some(i),
                _ => None,
            })
            .collect();
        Some(Unused {
            units,
            total,
            in_sibling,
            pinned,
        })
    }

    /// With the siblings outside `keep` removed: the units whose names lose every use go
    /// too (their uses with them, which may empty other units), siblings out of `keep`,
    /// other nodes into `extra`.
    fn dead(&self, keep: &mut [bool], extra: &mut Vec<N>) {
        let mut removed = vec![0u32; self.total.len()];
        for (i, uses) in self.in_sibling.iter().enumerate() {
            if !keep[i] {
                for &(name, count) in uses {
                    removed[name] += count;
                }
            }
        }
        let mut gone: Vec<bool> = self
            .units
            .iter()
            .map(|u| match u.place {
                Some(Place::Is(i) | Place::In(i)) => !keep[i],
                None => false,
            })
            .collect();
        loop {
            let dying = self.units.iter().enumerate().find(|&(k, u)| {
                !gone[k]
                    && !u.names.is_empty()
                    && u.names
                        .iter()
                        .all(|&n| self.total[n] > 0 && removed[n] >= self.total[n])
            });
            let Some((k, u)) = dying else { break };
            match u.place {
                Some(Place::Is(i)) => keep[i] = false,
                _ => extra.push(u.node),
            }
            // It goes with its uses and the units inside it.
            gone[k] = true;
            let mut stack = vec![k];
            while let Some(k) = stack.pop() {
                for &(name, count) in &self.units[k].uses {
                    removed[name] += count;
                }
                for &i in &self.units[k].inner {
                    if !gone[i] {
                        gone[i] = true;
                        stack.push(i);
                    }
                }
            }
        }
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
/// the others; smallest first within each. Returns the answer, `Some(true)` if calls refer;
/// `None` without one (no such sibling, or cancelled: the next round asks again).
pub(crate) fn probe_calls<T: Tree>(s: &mut Session<T>) -> Option<bool> {
    let tree = &*s.tree;
    let root = tree.root();
    if tree.is_pruned(root) {
        return None;
    }
    let nodes: Vec<T::Node> = tree
        .children(root)
        .iter()
        .copied()
        .filter(|&n| !tree.is_pruned(n) && !tree.is_hidden(n))
        .collect();
    let all = Closure::of(tree, &nodes, Calls::Refer, None)?;
    let referred = |calls| Closure::of(tree, &nodes, calls, None).map(|c| c.referred());
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
        return None;
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
            .announce(&s.current, probes.iter().map(|p| p.1.clone()).collect());
    }
    s.judge
        .phase("reference closure: does a call need a declaration?");
    for (node, candidate) in probes {
        if s.cancelled() {
            return None;
        }
        if candidate_test(s.judge, &s.current, &candidate) {
            s.tree.prune(node);
            s.refresh();
            return Some(false);
        }
    }
    Some(true)
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
        let c = Closure::of(&tree, &nodes, Calls::Refer, None).unwrap();
        assert_eq!(c.close(&[3]), vec![0, 1, 2, 3]);
        assert_eq!(c.close(&[1]), vec![0, 1]);
        assert_eq!(c.close(&[4]), vec![4]);
        assert_eq!(c.close(&[]), Vec::<usize>::new());
        // A name first seen inside a local scope declares nothing for the other siblings.
        let tree = Toy::parse("(r (d1 (block x)) (d2 x y) (u1 y))");
        let nodes = tree.children(tree.root()).to_vec();
        let c = Closure::of(&tree, &nodes, Calls::Refer, None).unwrap();
        assert_eq!(c.close(&[2]), vec![1, 2]);
        assert_eq!(c.close(&[1]), vec![1]);
        // Nothing refers to anything: no closure.
        let tree = Toy::parse("(r (a x) (b y))");
        let nodes = tree.children(tree.root()).to_vec();
        assert!(Closure::of(&tree, &nodes, Calls::Refer, None).is_none());
    }

    #[test]
    fn the_siblings_used_from_outside_are_known() {
        // The visit of `ns`'s children: `x` is first in d1 and used by `main`, outside them;
        // `y` (d2) only by d3, a sibling; `z` (d4) nowhere else; d5 refers to d1.
        let tree = Toy::parse("(r (ns (d1 x) (d2 y) (d3 y) (d4 z) (d5 w x)) (main x))");
        let ns = tree.children(tree.root())[0];
        let nodes = tree.children(ns).to_vec();
        let totals = [3, 2, 1, 1];
        let c = Closure::of(&tree, &nodes, Calls::Refer, Some(&totals)).unwrap();
        assert_eq!(c.used_from_outside(), Some(vec![0]));
        // Configurations are closed as without the counts: d1 may go with its users.
        assert_eq!(c.close(&[]), Vec::<usize>::new());
        assert_eq!(c.close(&[4]), vec![0, 4]);
        let c = Closure::of(&tree, &nodes, Calls::Refer, None).unwrap();
        assert_eq!(c.used_from_outside(), None);
    }

    #[test]
    fn a_use_keeps_every_sibling_that_declares_its_name() {
        // `x` is declared first in d1 (a forward declaration), again in d2 and d3 (its
        // definition, a specialization); `u` uses it, `w` is alone.
        let tree = Toy::parse("(r (d1 x) (d2 (def x) y) (d3 (def x)) (u x) (w z))");
        let nodes = tree.children(tree.root()).to_vec();
        let c = Closure::of(&tree, &nodes, Calls::Refer, None).unwrap();
        assert_eq!(c.close(&[3]), vec![0, 1, 2, 3]);
        // A specialization keeps the template, and the template its specializations.
        assert_eq!(c.close(&[2]), vec![0, 1, 2]);
        assert_eq!(c.close(&[4]), vec![4]);
        // A use from outside keeps them all.
        let tree = Toy::parse("(r (ns (d1 x) (d2 (def x)) (w z)) (main x))");
        let nodes = tree.children(tree.children(tree.root())[0]).to_vec();
        let c = Closure::of(&tree, &nodes, Calls::Refer, Some(&[4, 1])).unwrap();
        assert_eq!(c.used_from_outside(), Some(vec![0, 1]));
    }

    #[test]
    fn a_later_occurrence_is_a_use() {
        // `x` is first in d1; in d2 it is a use: `u` refers to d1 for `x`, to d2 for `y`.
        let tree = Toy::parse("(r (d1 x) (d2 (block x) y) (u x y))");
        let nodes = tree.children(tree.root()).to_vec();
        let c = Closure::of(&tree, &nodes, Calls::Refer, None).unwrap();
        assert_eq!(c.close(&[2]), vec![0, 1, 2]);
    }

    #[test]
    fn a_declaration_that_must_be_used_goes_with_its_last_use() {
        // `u` and `v` are declared in `imp` (units: their `must` nodes), used in f1, f2, f3.
        let tree = Toy::parse("(r (imp (must u) (must v)) (f1 u x) (f2 u) (f3 v))");
        let nodes = tree.children(tree.root()).to_vec();
        let c = Closure::of(&tree, &nodes, Calls::Refer, None).unwrap();
        assert_eq!(c.closed(&[0, 2, 3]), (vec![0, 2, 3], vec![]));
        let u = tree.find("u");
        assert_eq!(c.closed(&[0, 3]), (vec![0, 3], vec![u]));
        // A use keeps its declaration's sibling (the reference closure), which keeps the
        // declarations its kept uses need.
        assert_eq!(c.closed(&[1]), (vec![0, 1], vec![tree.find("v")]));
        // A sibling that is such a declaration goes too, and then what only it used.
        let tree = Toy::parse("(r (imp (must u)) (must x u) (s x) (t y))");
        let nodes = tree.children(tree.root()).to_vec();
        let c = Closure::of(&tree, &nodes, Calls::Refer, None).unwrap();
        let must_u = tree.children(nodes[0])[0];
        assert_eq!(c.closed(&[0, 1, 3]), (vec![0, 3], vec![must_u]));
        assert_eq!(c.closed(&[2]), (vec![0, 1, 2], vec![]));
    }

    #[test]
    fn an_import_goes_with_the_function_that_used_it_last() {
        let mut tree = Toy::parse("(r (imp (must u) (must v)) (f1 u x) (f2 v) (f3 v y))");
        // Interesting while `y` is there; a declaration without a use is rejected (its
        // spelling once in the text).
        let unused = |t: &str| {
            ["u", "v"]
                .iter()
                .any(|w| t.split(' ').filter(|x| x == w).count() == 1)
        };
        let (j, log) = judge(move |t| has(t, "y") && !unused(t));
        let config = crate::TreeConfig::preset("fastest").unwrap();
        crate::algorithm::reduce(&mut tree, &j, &config);
        assert_eq!(tree.unparse(), b"y");
        // No candidate ever kept a declaration without its uses.
        let log = log.lock().unwrap();
        assert!(!log.iter().any(|c| unused(c)), "{log:?}");
    }

    #[test]
    fn without_calls_the_name_a_call_calls_refers_to_nothing() {
        let tree = Toy::parse("(r (d1 f) (d2 x) (u (call f) x))");
        let nodes = tree.children(tree.root()).to_vec();
        assert_eq!(
            Closure::of(&tree, &nodes, Calls::Refer, None)
                .unwrap()
                .close(&[2]),
            vec![0, 1, 2]
        );
        assert_eq!(
            Closure::of(&tree, &nodes, Calls::Ignored, None)
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
        assert_eq!(probe_calls(&mut s), Some(false));
        // The smallest sibling only calls refer to (`d1`) goes, and stays gone.
        assert_eq!(*log.lock().unwrap(), vec!["g g2 x f g x y"]);
        assert_eq!(s.current, b"g g2 x f g x y");
    }

    #[test]
    fn an_oracle_that_needs_declarations_rejects_each_question() {
        let mut tree = Toy::parse(CALLS);
        let (j, log) = judge(|t| t.starts_with("g g2 f x"));
        let mut s = Session::new(&mut tree, &j, &Default::default());
        assert_eq!(probe_calls(&mut s), Some(true));
        assert_eq!(*log.lock().unwrap(), vec!["g g2 x f g x y", "f x f g x y"]);
        assert_eq!(s.current, b"g g2 f x f g x y");
        // What only calls whose value is unused refer to comes first, however large.
        let mut tree = Toy::parse("(r (d1 f) (d2 g g2) (u (call f) (stmt (call g)) y))");
        let (j, log) = judge(|_| false);
        let refer = probe_calls(&mut Session::new(&mut tree, &j, &Default::default()));
        assert_eq!(refer, Some(true));
        assert_eq!(*log.lock().unwrap(), vec!["f f g y", "g g2 f g y"]);
        // No sibling only calls refer to: no question, no answer.
        let mut tree = Toy::parse("(r (d3 x) (u x y))");
        let (j, log) = judge(|_| true);
        let refer = probe_calls(&mut Session::new(&mut tree, &j, &Default::default()));
        assert_eq!(refer, None);
        assert!(log.lock().unwrap().is_empty());
    }
}
