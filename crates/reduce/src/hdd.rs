//! Hierarchical Delta Debugging: HDD (HDD with hoisting, fig. 2, level by level), HDDr (dissertation
//! fig. 2.2(b), the children of one node at a time), Coarse HDD and Coarse HDDr (fig. 2.3,
//! only nodes whose replacement is empty take part), and their interlacing with hoisting
//! (HDDH; HDD with hoisting, fig. 9, and the dissertation's fig. 7.8). The same two traversals also drive the
//! stand-alone hoisting algorithms of fig. 7.7 (a `Step` without `prune`).

use std::collections::VecDeque;

use self::orphans::Orphans;
use self::work_list::WorkList;
use crate::closure::Closure;
use crate::ddmin::ddmin_indices_ahead;
use crate::session::{candidate_test, JudgeAhead, Session, Step, Tree};
use crate::{hoist, TraversalOrder};

/// The level-by-level algorithms: HDD, Coarse HDD, HDDH, Coarse HDDH (with `step.prune`) and
/// Hoist, Coarse Hoist (without). One pass from the root (level 0) to the deepest level.
pub(crate) fn levels<T: Tree>(s: &mut Session<T>, step: Step) {
    let mut level = 0;
    loop {
        if s.cancelled() {
            return;
        }
        let nodes = tag_nodes(&*s.tree, level);
        if nodes.is_empty() {
            return;
        }
        s.set_phase(format_args!("level {level}"));
        visit(s, nodes, step);
        level += 1;
    }
}

/// The recursive algorithms: HDDr, Coarse HDDr, HDDH^r, Coarse HDDH^r (with `step.prune`)
/// and Hoist^r, Coarse Hoist^r (without): a work list seeded with the root; each popped node
/// has its children minimized, then its remaining children are appended.
pub(crate) fn recursive<T: Tree>(s: &mut Session<T>, step: Step, order: TraversalOrder) {
    work_list(s, step, order);
    // What the announcements know of the work list is over.
    s.ahead.clear();
    s.visiting = None;
}

fn work_list<T: Tree>(s: &mut Session<T>, step: Step, order: TraversalOrder) {
    let mut work = WorkList::new(order, &*s.tree, s.closure);
    // Uses-first looks again at the kept children that lose their uses.
    let mut orphans = (order == TraversalOrder::UsesFirst && step.prune)
        .then(|| Orphans::new(&*s.tree, s.current.len()));
    work.push(&*s.tree, s.tree.root());
    let mut visited = 0usize;
    loop {
        let Some(current) = work.pop() else { return };
        if s.cancelled() {
            return;
        }
        if s.tree.is_pruned(current) || orphans.as_ref().is_some_and(|o| o.is_dead::<T>(current)) {
            continue;
        }
        visited += 1;
        s.set_phase(format_args!("node {visited}"));
        announce_next(s, current, &work, step);
        let nodes = tag_children(&*s.tree, current);
        visit(s, nodes, step);
        // append(queue, tagChildren(current_node)): the children after pruning and hoisting.
        // For plain HDDr these are exactly `minconfig`; tokens have no children to visit.
        let tree = &*s.tree;
        let next: Vec<T::Node> = tree
            .children(current)
            .iter()
            .copied()
            .filter(|&c| !tree.is_pruned(c) && !tree.is_token(c))
            .collect();
        work.extend(tree, next);
        if let Some(o) = orphans.as_mut() {
            o.watch(&*s.tree, current, tag_children(&*s.tree, current));
            look_again(s, o, step);
        }
    }
}

/// Uses-first's second look ([`Orphans`]): the kept children that lost their last use are
/// minimized again, the orphans of each visit as one list (DDMIN, then PRUNE; no hoisting;
/// the Coarse algorithms take the nodes whose replacement is empty, as in a visit), and
/// the subtrees of the removed ones are dead for the work list.
fn look_again<T: Tree>(s: &mut Session<T>, o: &mut Orphans<T::Node>, step: Step) {
    for mut list in o.orphans(&*s.tree, s.current.len()) {
        if s.cancelled() {
            return;
        }
        // An earlier list's removals may have taken some with them.
        list.retain(|&c| !s.tree.is_pruned(c));
        filter_coarse(&*s.tree, &mut list, step);
        if list.is_empty() {
            continue;
        }
        // The kept nodes are a subsequence of `list`.
        let mut kept = prune(s, &list, step).into_iter().peekable();
        for &c in &list {
            if kept.next_if_eq(&c).is_none() {
                o.bury(&*s.tree, c);
            }
        }
    }
}

/// How many nodes of the work list ahead of the current one the lookahead covers.
const LOOKAHEAD_NODES: usize = 64;

/// Speculation across steps (see `lookahead`): announce what the visits of the
/// current node and of the next nodes of the work list test if every test fails (C-Vise's bet
/// that most candidates fail): each node's whole DDMIN sequence
/// ([`crate::ddmin::all_fail_sequence`], with the test of removing a lone node), then its
/// hoisting candidates when the step hoists, so idle workers test them in advance. The next
/// nodes are kept in `s.ahead` for the announcements made later in the visit
/// ([`announce_rest`]).
fn announce_next<T: Tree>(
    s: &mut Session<T>,
    current: T::Node,
    work: &WorkList<T::Node>,
    step: Step,
) {
    if s.jobs() <= 1 {
        return;
    }
    s.ahead = work.next(LOOKAHEAD_NODES);
    let whole = work.whole_breadth_first(LOOKAHEAD_NODES);
    s.visiting = whole.then_some(current);
    // The current node first: the main line's driver plans only `4 * jobs` candidates of its
    // DDMIN at a time, and the test of a lone node and the hoisting candidates come after.
    let mut out = Vec::new();
    node_all_fail(s, current, step, s.jobs(), &mut out, Assumed::none());
    announce_rest(s, out, step);
}

/// Announce `head`, what the current visit tests next if every test fails, followed by what
/// the visits of the nodes in `s.ahead` test then: `jobs` candidates, `head` included.
///
/// `jobs` candidates: mostly the rest of the current visit (its later DDMIN rounds, the
/// lone-node test, its hoisting), the shallowest bets. Bets on the next nodes are deep (every
/// remaining candidate of this visit must fail first): with 8 * jobs they lost more than
/// they won (sleep oracle, --jobs 8: 0.36x with 480 runs vs 0.32x with 379; JRTS, --jobs 2:
/// 1.63x the runs of --jobs 1 vs 1.25x; `cargo xtask bench speculation`).
fn announce_rest<T: Tree>(s: &Session<T>, mut out: Vec<Vec<u8>>, step: Step) {
    let budget = s.jobs();
    if budget <= 1 {
        return;
    }
    next_visits(s, &mut out, step, budget, Assumed::none());
    s.judge.announce_from(&s.current, out);
}

/// Append what the visits of the nodes in `s.ahead` test if every test fails, until `out`
/// holds `budget`, on the current tree with the nodes for which `base` holds pruned.
///
/// When `s.ahead` is the whole (breadth-first) work list, what follows it is known too: the
/// breadth-first walk on from it and the visited node's kept children, then, if the pass
/// changes the text (it has, or `base` assumes a change), the fixed point's next pass from the
/// root, so the workers do not run out of work at the end of every pass. When the phase ends
/// there instead, the transformation passes follow (`Session::after_phase`).
fn next_visits<T: Tree>(
    s: &Session<T>,
    out: &mut Vec<Vec<u8>>,
    step: Step,
    budget: usize,
    base: Assumed<'_, T::Node>,
) {
    let tree = &*s.tree;
    let Some(visiting) = s.visiting else {
        for &n in &s.ahead {
            if out.len() >= budget {
                break;
            }
            node_all_fail(s, n, step, budget, out, base);
        }
        return;
    };
    let walked = |c: &T::Node| !tree.is_pruned(*c) && !base.has(*c) && !tree.is_token(*c);
    let mut queue: VecDeque<T::Node> = s.ahead.iter().copied().collect();
    queue.extend(tree.children(visiting).iter().copied().filter(walked));
    let mut next_pass = s
        .pass_start
        .as_ref()
        .is_some_and(|start| !base.scope.is_empty() || *start != s.current);
    let phase_ends = !next_pass;
    // A bound on the CPU spent on nodes that add nothing (every candidate known to the cache).
    let mut looked = 0;
    while out.len() < budget {
        let n = match queue.pop_front() {
            Some(n) => n,
            None if next_pass => {
                next_pass = false;
                tree.root()
            }
            None => {
                // The phase ends on the current text (a text a bet assumes is not worth
                // the parse the passes' candidates need).
                if let Some(after) = s
                    .after_phase
                    .filter(|_| phase_ends && base.scope.is_empty())
                {
                    out.extend(after(&s.current, budget - out.len()));
                }
                break;
            }
        };
        node_all_fail(s, n, step, budget, out, base);
        looked += 1;
        if looked >= 2 * LOOKAHEAD_NODES {
            break;
        }
        queue.extend(tree.children(n).iter().copied().filter(walked));
    }
}

/// Append what the visit of `n` tests if every test fails, until `out` holds `budget`, on
/// the current tree with the nodes for which `base` holds pruned.
fn node_all_fail<T: Tree>(
    s: &Session<T>,
    n: T::Node,
    step: Step,
    budget: usize,
    out: &mut Vec<Vec<u8>>,
    base: Assumed<'_, T::Node>,
) {
    let tree = &*s.tree;
    if out.len() >= budget || tree.is_pruned(n) {
        return;
    }
    let mut nodes = tag_children(tree, n);
    nodes.retain(|&m| !base.has(m));
    filter_coarse(tree, &mut nodes, step);
    if step.prune {
        // The current node's DDMIN is the main line's own (and speculative) sequence.
        let nodes = removable(tree, &nodes, step);
        // More than the places left: the cache may know some (the second pass of a phase).
        let limit = CACHED_SLACK * (budget - out.len());
        let weights = weights_of(s, &nodes);
        let mut kept_sets =
            crate::ddmin::all_fail_sequence(nodes.len(), weights.as_deref(), &s.ddmin, limit);
        if nodes.len() == 1 {
            kept_sets.push(Vec::new());
        }
        let closure = closure_of(s, &nodes);
        let positions = Positions::of::<T>(&nodes);
        for kept in kept_sets {
            if out.len() >= budget {
                return;
            }
            // With the closure, what the configuration stands for; all of them: no change.
            let (kept, extra) = match &closure {
                Some(c) => c.closed(&kept),
                None => (kept, Vec::new()),
            };
            if kept.len() == nodes.len() {
                continue;
            }
            // The tree with every node of `nodes` outside `kept` pruned.
            let candidate = tree.unparse_pruned(&[base.scope, &nodes, &extra], &|m| {
                base.has(m)
                    || positions
                        .get::<T>(m)
                        .is_some_and(|i| kept.binary_search(&i).is_err())
                    || extra.contains(&m)
            });
            if !s.judge.known_or_under_way(&candidate) {
                out.push(candidate);
            }
        }
    }
    if step.hoist {
        hoistings(s, &nodes, budget, out, base);
    }
}

/// Where each node of a list stands in it, by node index: for the predicates that prune the
/// nodes of a DDMIN outside a configuration while unparsing (a search of the list per node
/// unparsed would be quadratic).
struct Positions(Vec<usize>);

impl Positions {
    fn of<T: Tree>(nodes: &[T::Node]) -> Positions {
        let size = nodes.iter().map(|&n| T::index(n) + 1).max().unwrap_or(0);
        let mut position = vec![usize::MAX; size];
        for (i, &n) in nodes.iter().enumerate() {
            position[T::index(n)] = i;
        }
        Positions(position)
    }

    /// `n`'s position in the list, if it is in it.
    fn get<T: Tree>(&self, n: T::Node) -> Option<usize> {
        self.0
            .get(T::index(n))
            .copied()
            .filter(|&i| i != usize::MAX)
    }
}

/// The nodes a bet assumes pruned, on top of the current tree: those of `scope` for which
/// `pruned` holds (the scope lets the tree copy the other subtrees' text in one piece, see
/// [`Tree::unparse_pruned`]).
#[derive(Clone, Copy)]
struct Assumed<'a, N> {
    scope: &'a [N],
    pruned: &'a dyn Fn(N) -> bool,
}

impl<'a, N: Copy + 'a> Assumed<'a, N> {
    /// Nothing assumed: the current tree.
    fn none() -> Assumed<'a, N> {
        Assumed {
            scope: &[],
            pruned: &|_| false,
        }
    }

    fn has(&self, n: N) -> bool {
        (self.pruned)(n)
    }
}

/// What the visit of a node tests after its DDMIN over `nodes` (at `positions`) returns the
/// configuration `kept` (positions, ascending) as a bet on success (the tree has not changed
/// yet), if every test fails: the test of removing a lone kept node (see [`prune_all`]);
/// then, on the tree with the other nodes of `nodes` pruned, TMIN's first pass over the kept
/// nodes and the visits of the next nodes of the work list (the kept children of the visited
/// node included). `2 * jobs` candidates after the lone test, so that an idle worker has more
/// than the rest of a DDMIN while its probable winner runs: in a narrow tree (a JavaScript
/// program of one statement) the rest is often nothing.
fn after_ddmin<T: Tree>(
    s: &Session<T>,
    nodes: &[T::Node],
    positions: &Positions,
    kept: &[usize],
    step: Step,
) -> Vec<Vec<u8>> {
    let tree = &*s.tree;
    let pruned = |n: T::Node| {
        positions
            .get::<T>(n)
            .is_some_and(|i| kept.binary_search(&i).is_err())
    };
    let assumed = Assumed {
        scope: nodes,
        pruned: &pruned,
    };
    let mut out = match kept {
        [_] => vec![tree.unparse_pruned(&[nodes], &|n| positions.get::<T>(n).is_some())],
        _ => Vec::new(),
    };
    let budget = out.len() + 2 * s.jobs();
    if step.hoist {
        let kept: Vec<T::Node> = kept.iter().map(|&k| nodes[k]).collect();
        hoistings(s, &kept, budget, &mut out, assumed);
    }
    next_visits(s, &mut out, step, budget, assumed);
    out
}

/// The configuration (ascending) that keeps the positions `sub` of `order`, a permutation.
fn in_order(order: &[usize], sub: &[usize]) -> Vec<usize> {
    let mut out: Vec<usize> = sub.iter().map(|&i| order[i]).collect();
    out.sort_unstable();
    out
}

/// The weights of `nodes` when the list minimizer reads them.
fn weights_of<T: Tree>(s: &Session<T>, nodes: &[T::Node]) -> Option<Vec<u64>> {
    s.ddmin
        .minimizer
        .is_weighted()
        .then(|| nodes.iter().map(|&n| s.tree.weight(n)).collect())
}

/// The references among `nodes` with the session's reference closure, if it has one.
fn closure_of<T: Tree>(s: &Session<T>, nodes: &[T::Node]) -> Option<Closure<T::Node>> {
    s.closure
        .then(|| {
            // Uses outside the siblings count where names are declared before use.
            let totals = s.tree.declares_before_use().then(|| s.name_counts());
            Closure::of(
                &*s.tree,
                nodes,
                s.closure_calls,
                totals.as_deref().map(|t| &t[..]),
            )
        })
        .flatten()
}

/// How many times more candidates than places are made for an announcement, since the
/// cache may know some of them (announcing those would waste the places).
const CACHED_SLACK: usize = 4;

/// Append the hoisting candidates of `nodes` (TMIN's first pass when every test fails) until
/// `out` holds `budget`, on the current tree with the nodes for which `base` holds pruned.
fn hoistings<T: Tree>(
    s: &Session<T>,
    nodes: &[T::Node],
    budget: usize,
    out: &mut Vec<Vec<u8>>,
    base: Assumed<'_, T::Node>,
) {
    let tree = &*s.tree;
    for &m in nodes {
        for d in crate::hoist::candidates(s, m) {
            if out.len() >= budget {
                return;
            }
            let candidate = tree.unparse_hoisted_pruned(m, d, &[base.scope], base.pruned);
            if !s.judge.known_or_under_way(&candidate) {
                out.push(candidate);
            }
        }
    }
}

/// One minimization step on a set of nodes of the same level (or siblings).
fn visit<T: Tree>(s: &mut Session<T>, mut nodes: Vec<T::Node>, step: Step) {
    filter_coarse(&*s.tree, &mut nodes, step);
    if nodes.is_empty() {
        return;
    }
    let kept = if step.prune {
        prune(s, &nodes, step)
    } else {
        nodes
    };
    if step.hoist && !s.cancelled() {
        if s.jobs() > 1 {
            // TMIN's first pass, then the next nodes (DDMIN's result may have changed them).
            let mut head = Vec::new();
            hoistings(s, &kept, s.jobs(), &mut head, Assumed::none());
            announce_rest(s, head, step);
        }
        hoist::tmin(s, &kept);
    }
}

/// filterEmptyPhiNodes: the Coarse algorithms only take nodes whose replacement is empty.
fn filter_coarse<T: Tree>(tree: &T, nodes: &mut Vec<T::Node>, step: Step) {
    if step.coarse {
        nodes.retain(|&n| tree.replacement_is_empty(n));
    }
}

/// TAGNODES: the nodes at depth `level` of the current tree that HDD may remove (neither
/// hidden nor pruned), in source order. Pruned subtrees are not entered.
pub(crate) fn tag_nodes<T: Tree>(tree: &T, level: usize) -> Vec<T::Node> {
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
pub(crate) fn tag_children<T: Tree>(tree: &T, n: T::Node) -> Vec<T::Node> {
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
///
/// Nodes whose pruning would not change the text ([`Tree::prune_is_noop`]) take no part:
/// "removing" one would be accepted without a test and close it to hoisting and to the
/// visits of its children (C's `(a)` could never become `a`). They are kept.
pub(crate) fn prune<T: Tree>(s: &mut Session<T>, nodes: &[T::Node], step: Step) -> Vec<T::Node> {
    let removable: Vec<T::Node> = removable(&*s.tree, nodes, step);
    if removable.len() == nodes.len() {
        return prune_all(s, nodes, step);
    }
    // `kept` is a subsequence of `removable`, itself one of `nodes`: merge in order.
    let mut kept = prune_all(s, &removable, step).into_iter().peekable();
    let mut removable = removable.into_iter().peekable();
    nodes
        .iter()
        .copied()
        .filter(|&n| {
            if removable.next_if_eq(&n).is_none() {
                return true;
            }
            kept.next_if_eq(&n).is_some()
        })
        .collect()
}

/// The nodes of `nodes` DDMIN works on: those whose pruning changes the text, but without
/// `step.tokens` not the tokens whose pruning puts another token in their place.
fn removable<T: Tree>(tree: &T, nodes: &[T::Node], step: Step) -> Vec<T::Node> {
    let substitution = |n| tree.is_token(n) && !tree.replacement_is_empty(n);
    nodes
        .iter()
        .copied()
        .filter(|&n| !tree.prune_is_noop(n) && (step.tokens || !substitution(n)))
        .collect()
}

fn prune_all<T: Tree>(s: &mut Session<T>, nodes: &[T::Node], step: Step) -> Vec<T::Node> {
    if nodes.is_empty() {
        return Vec::new();
    }
    let tree: &T = s.tree;
    let (judge, current) = (s.judge, s.current.as_slice());
    let positions = Positions::of::<T>(nodes);
    // With the reference closure, a configuration stands for itself and what it refers to;
    // each closed set is run once (two configurations may close to the same set).
    let closure = closure_of(s, nodes);
    // The nodes outside `nodes` that go with a closed configuration.
    let also = |kept: &[usize]| match &closure {
        Some(c) => c.also_pruned(kept),
        None => Vec::new(),
    };
    let candidate = |kept: &[usize]| -> Vec<u8> {
        let mut keep = vec![false; nodes.len()];
        for &k in kept {
            keep[k] = true;
        }
        let extra = also(kept);
        tree.unparse_pruned(&[nodes, &extra], &|n| {
            positions.get::<T>(n).is_some_and(|i| !keep[i]) || extra.contains(&n)
        })
    };
    let closed = |kept: &[usize]| match &closure {
        Some(c) => c.close(kept),
        None => kept.to_vec(),
    };
    let closed_candidate = |kept: &[usize]| candidate(&closed(kept));
    let interesting = std::sync::Mutex::new(std::collections::HashSet::<Vec<usize>>::new());
    let test = |kept: &[usize]| {
        if closure.is_none() {
            return candidate_test(judge, current, &candidate(kept));
        }
        let kept = closed(kept);
        if interesting
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&kept)
        {
            return true;
        }
        let yes = candidate_test(judge, current, &candidate(&kept));
        if yes {
            interesting
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(kept);
        }
        yes
    };
    // What this visit and the next ones test after ddmin returns `kept`, for ddmin's bets on
    // success (see `lookahead`).
    let shared: &Session<T> = s;
    let after = |kept: &[usize]| after_ddmin(shared, nodes, &positions, &closed(kept), step);
    let weights = weights_of(s, nodes);
    // The siblings used from outside and what they refer to may be all the failure needs
    // of them (the unused part of a library): one test removes the rest.
    let used = (closure.as_ref())
        .and_then(|c| c.used_from_outside())
        .filter(|kept| kept.len() < nodes.len());
    let kept = match used {
        Some(used) if test(&used) => used,
        // When the used part is not enough, the failure needs some of the others too: its own
        // code, or a declaration the spellings do not show as used. DDMIN then splits the
        // others first and the used part last, so that its parts are mostly of one kind:
        // where most siblings are used (a library class whose members the program calls), a
        // part in syntactic order would almost always hold one, and every complement test
        // would fail. Otherwise it runs over the siblings in syntactic order.
        used => {
            let order: Vec<usize> = match &used {
                Some(used) => (0..nodes.len())
                    .filter(|i| used.binary_search(i).is_err())
                    .chain(used.iter().copied())
                    .collect(),
                None => (0..nodes.len()).collect(),
            };
            let at = |sub: &[usize]| in_order(&order, sub);
            let closed_at = |sub: &[usize]| closed_candidate(&at(sub));
            let after_at = |sub: &[usize]| after(&at(sub));
            let ahead = JudgeAhead {
                judge,
                base: current,
                candidate: &closed_at,
                then: Some(&after_at),
            };
            let weights: Option<Vec<u64>> =
                (weights.as_deref()).map(|w| order.iter().map(|&i| w[i]).collect());
            let sub = ddmin_indices_ahead(
                order.len(),
                weights.as_deref(),
                &|sub| test(&at(sub)),
                &s.ddmin,
                Some(&ahead),
            );
            at(&sub)
        }
    };
    let mut kept = closed(&kept);
    let extra = also(&kept);
    if kept.len() < nodes.len() {
        let mut keep = vec![false; nodes.len()];
        for &k in &kept {
            keep[k] = true;
        }
        for (i, &n) in nodes.iter().enumerate() {
            if !keep[i] {
                s.tree.prune(n);
            }
        }
        for &n in &extra {
            s.tree.prune(n);
        }
        s.refresh();
    }
    // With the closure, the empty configuration may stand for more (a declaration used
    // elsewhere); what goes with it goes too.
    let (none, extra) = match &closure {
        Some(c) => c.closed(&[]),
        None => (Vec::new(), Vec::new()),
    };
    if kept.len() == 1 && none.is_empty() && !s.cancelled() {
        // DDMIN never tests the empty configuration: test removing the lone node too. (The
        // same text as DDMIN's candidate keeping nothing: a tentative prune unparses as the
        // committed one.)
        let lone = nodes[kept[0]];
        let candidate = s
            .tree
            .unparse_pruned(&[&[lone], &extra], &|m| m == lone || extra.contains(&m));
        if s.jobs() > 1 {
            // If it fails, TMIN tries the node's hoistings next, then the next nodes are
            // visited: idle workers start those while this one runs.
            let mut head = vec![candidate.clone()];
            if step.hoist {
                hoistings(s, &[lone], s.jobs() + 1, &mut head, Assumed::none());
            }
            announce_rest(s, head, step);
        }
        if candidate_test(s.judge, &s.current, &candidate) {
            s.tree.prune(lone);
            for &n in &extra {
                s.tree.prune(n);
            }
            s.refresh();
            kept.clear();
        }
    }
    kept.into_iter().map(|k| nodes[k]).collect()
}

mod orphans;
#[cfg(test)]
mod tests;
mod work_list;
