//! The state every tree algorithm shares: the [`Tree`] trait (what the hierarchical
//! algorithms need from a reduction tree), the [`Session`] (tree, judge, ddmin options and the
//! current text) and the one function every tree candidate goes through, [`candidate_test`].
//!
//! It sits below the algorithms (`hdd`, `hoist`, `fixpoint`, `passes`) and below
//! `algorithm`, which configures and runs them, so imports only go down.

use treedd_tree::{Edit, NodeId, RTree};

use crate::{DdminOptions, Judge};

/// What one visit of a set of sibling or same-level nodes does.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// DDMIN over the nodes, then PRUNE.
    pub prune: bool,
    /// TMIN over the (kept) nodes, then TRANSFORM.
    pub hoist: bool,
    /// filterEmptyPhiNodes first.
    pub coarse: bool,
    /// PRUNE may replace a token that cannot be removed by its replacement (`bool` -> `int`,
    /// a name -> `a`), as the papers' replacement strings do; otherwise DDMIN leaves such
    /// tokens alone (see [`crate::TreeConfig::token_replacements`]).
    pub tokens: bool,
}

/// What the hierarchical algorithms need from a reduction tree. [`RTree`] implements it; the
/// unit tests implement it on a toy tree whose shape they control exactly.
pub(crate) trait Tree: Sync {
    type Node: Copy + Eq + Send + Sync + std::fmt::Debug;
    /// A small dense index (for bit sets over nodes).
    fn index(n: Self::Node) -> usize;
    /// The root of the current tree.
    fn root(&self) -> Self::Node;
    /// Children in the current tree, pruned ones included.
    fn children(&self, n: Self::Node) -> &[Self::Node];
    fn is_token(&self, n: Self::Node) -> bool;
    /// The node's weight for the weighted list minimizers and the size-first work order:
    /// the tokens of its current subtree.
    fn weight(&self, _n: Self::Node) -> u64 {
        1
    }
    fn is_hidden(&self, n: Self::Node) -> bool;
    fn is_pruned(&self, n: Self::Node) -> bool;
    /// The node's replacement is empty (the Coarse algorithms' filter).
    fn replacement_is_empty(&self, n: Self::Node) -> bool;
    /// Pruning the node would not change the text but for white space: its replacement is
    /// its own text (`(a)` for a parenthesized expression `(a)`), or one that only renames
    /// and would move a name up the order of names (`B` -> `a`, see `RTree`'s implementation).
    /// DDMIN leaves such nodes alone, so they stay open to hoisting and their children are
    /// still visited.
    fn prune_is_noop(&self, _n: Self::Node) -> bool {
        false
    }
    fn compatible(&self, a: Self::Node, b: Self::Node) -> bool;
    /// `d`, compatible with `slot`, may stand in `slot`'s position: not when the grammar
    /// admits there only a kind whose texts begin with a token `d` does not begin with.
    fn fits(&self, _slot: Self::Node, _d: Self::Node) -> bool {
        true
    }
    fn unparse(&self) -> Vec<u8>;
    /// The current tree with the nodes for which `pruned` holds pruned. `pruned` holds for
    /// nodes of the lists of `scope` only (the tree copies the text of the other subtrees
    /// without asking it).
    fn unparse_pruned(
        &self,
        scope: &[&[Self::Node]],
        pruned: &dyn Fn(Self::Node) -> bool,
    ) -> Vec<u8>;
    /// The current tree with `desc` in `n`'s place.
    fn unparse_hoisted(&self, n: Self::Node, desc: Self::Node) -> Vec<u8> {
        self.unparse_hoisted_pruned(n, desc, &[], &|_| false)
    }
    /// The current tree with `desc` in `n`'s place and the nodes for which `pruned` holds
    /// pruned (what a hoisting tests after a prune that has not happened yet: bets on
    /// success); `pruned` holds for nodes of `scope` only, as in [`Tree::unparse_pruned`].
    fn unparse_hoisted_pruned(
        &self,
        n: Self::Node,
        desc: Self::Node,
        scope: &[&[Self::Node]],
        pruned: &dyn Fn(Self::Node) -> bool,
    ) -> Vec<u8>;
    fn prune(&mut self, n: Self::Node);
    fn hoist(&mut self, n: Self::Node, desc: Self::Node);
    /// An identifier token's name (the same for the same spelling), for the reference
    /// closure (`closure`); `None` for other nodes.
    fn name(&self, n: Self::Node) -> Option<u32>;
    /// An identifier token's spelling (the same number for the same spelling) in a
    /// language whose files usually define a name before its uses (`defined_before_use`),
    /// for the uses-first work order; `None` for other nodes.
    fn spelling(&self, _n: Self::Node) -> Option<u32> {
        None
    }
    /// Where its name is declared: an identifier token whose spelling occurs in no token
    /// before it in the text the tree was built from (a language that declares before use),
    /// and one a declaration of `[[declarations]]` declares.
    fn is_declaration(&self, n: Self::Node) -> bool;
    /// The language declares each name before its uses: every occurrence of a name may need
    /// every place that declares it (a forward declaration and the definition, a template and
    /// its specializations). Not so where `[[declarations]]` alone name many sites of one
    /// spelling, each local to its scope.
    fn declares_before_use(&self) -> bool {
        false
    }
    /// A declaration the compiler rejects when nothing uses it (Go's imports and locals).
    fn must_be_used(&self, _n: Self::Node) -> bool {
        false
    }
    /// The language has declarations that must be used (`must_use` in passes.toml).
    fn has_must_use(&self) -> bool {
        false
    }
    /// What goes with such a declaration when its last use goes (see
    /// `RTree::removal_unit`).
    fn removal_unit(&self, _n: Self::Node) -> Option<Self::Node> {
        None
    }
    /// A node whose names are not visible outside it (a block, a parameter list).
    fn is_local_scope(&self, n: Self::Node) -> bool;
    /// An identifier token naming the function a call calls, in a language where a call may
    /// name a function declared nowhere (C89).
    fn is_callee(&self, _n: Self::Node) -> bool {
        false
    }
    /// A callee whose call is a statement alone, its value unused (`f(x);`).
    fn is_statement_callee(&self, _n: Self::Node) -> bool {
        false
    }
}

impl Tree for RTree {
    type Node = NodeId;
    fn index(n: NodeId) -> usize {
        n.index()
    }
    fn root(&self) -> NodeId {
        RTree::root(self)
    }
    fn children(&self, n: NodeId) -> &[NodeId] {
        RTree::children(self, n)
    }
    fn is_token(&self, n: NodeId) -> bool {
        RTree::is_token(self, n)
    }
    fn weight(&self, n: NodeId) -> u64 {
        RTree::token_count(self, n) as u64
    }
    fn is_hidden(&self, n: NodeId) -> bool {
        RTree::is_hidden(self, n)
    }
    fn is_pruned(&self, n: NodeId) -> bool {
        RTree::is_pruned(self, n)
    }
    fn replacement_is_empty(&self, n: NodeId) -> bool {
        RTree::replacement(self, n).is_empty()
    }
    fn prune_is_noop(&self, n: NodeId) -> bool {
        let r = RTree::replacement(self, n);
        if r.is_empty() {
            return false;
        }
        let text = RTree::text(self, n);
        // The bytes that are no white space, read lazily: a large node's text differs from
        // its short replacement within the first few of them.
        fn solid(s: &[u8]) -> impl Iterator<Item = u8> + '_ {
            s.iter().copied().filter(|b| !b.is_ascii_whitespace())
        }
        let r: Vec<u8> = solid(r).collect();
        let t = || solid(&text);
        // A replacement as long as the text that only spells its names differently (`a.a`
        // for `a.B`) and is no fixed word must come before it in the order (length, bytes)
        // that `replace-ids` moves names down: `B` -> `a` would undo what it did (`a` -> `B`),
        // and the rounds would go round. One that differs elsewhere changes the structure
        // (`union U0` -> `union{}`, an anonymous union), whatever its bytes.
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        t().take(r.len() + 1).count() == r.len()
            && (r.iter().copied().eq(t())
                || (r.iter().copied().gt(t())
                    && (r.iter().copied().zip(t())).all(|(a, b)| a == b || (word(a) && word(b)))
                    && !self.lang().is_fixed(&r)))
    }
    fn compatible(&self, a: NodeId, b: NodeId) -> bool {
        RTree::compatible(self, a, b)
    }
    fn fits(&self, slot: NodeId, d: NodeId) -> bool {
        RTree::fits(self, slot, d)
    }
    fn unparse(&self) -> Vec<u8> {
        RTree::unparse(self)
    }
    fn unparse_pruned(&self, scope: &[&[NodeId]], pruned: &dyn Fn(NodeId) -> bool) -> Vec<u8> {
        self.unparse_scoped(scope, &|n| if pruned(n) { Edit::Prune } else { Edit::Keep })
    }
    fn unparse_hoisted_pruned(
        &self,
        n: NodeId,
        desc: NodeId,
        scope: &[&[NodeId]],
        pruned: &dyn Fn(NodeId) -> bool,
    ) -> Vec<u8> {
        let hoisted = [n];
        let scope: Vec<&[NodeId]> = scope.iter().copied().chain([&hoisted[..]]).collect();
        self.unparse_scoped(&scope, &|m| {
            if m == n {
                Edit::Hoist(desc)
            } else if pruned(m) {
                Edit::Prune
            } else {
                Edit::Keep
            }
        })
    }
    fn prune(&mut self, n: NodeId) {
        RTree::prune(self, n)
    }
    fn hoist(&mut self, n: NodeId, desc: NodeId) {
        RTree::hoist(self, n, desc)
    }
    fn name(&self, n: NodeId) -> Option<u32> {
        RTree::name(self, n)
    }
    fn spelling(&self, n: NodeId) -> Option<u32> {
        RTree::spelling(self, n)
    }
    fn is_declaration(&self, n: NodeId) -> bool {
        RTree::is_declaration(self, n)
    }
    fn must_be_used(&self, n: NodeId) -> bool {
        RTree::must_be_used(self, n)
    }
    fn has_must_use(&self) -> bool {
        RTree::has_must_use(self)
    }
    fn declares_before_use(&self) -> bool {
        RTree::declares_before_use(self)
    }
    fn removal_unit(&self, n: NodeId) -> Option<NodeId> {
        RTree::removal_unit(self, n)
    }
    fn is_local_scope(&self, n: NodeId) -> bool {
        RTree::is_local_scope(self, n)
    }
    fn is_callee(&self, n: NodeId) -> bool {
        RTree::is_callee(self, n)
    }
    fn is_statement_callee(&self, n: NodeId) -> bool {
        RTree::is_statement_callee(self, n)
    }
}

/// Which of the names calls call ([`Tree::is_callee`]) refer to a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Calls {
    /// All of them.
    Refer,
    /// None: a call neither refers nor declares.
    Ignored,
    /// All but those of calls that are statements alone ([`Tree::is_statement_callee`]).
    StatementsIgnored,
}

impl Calls {
    /// Whether the name token `m` counts as a reference.
    pub(crate) fn counts<T: Tree>(self, tree: &T, m: T::Node) -> bool {
        match self {
            Calls::Refer => true,
            Calls::Ignored => !tree.is_callee(m),
            Calls::StatementsIgnored => !tree.is_statement_callee(m),
        }
    }
}

/// The state shared by every algorithm of one reduction: the tree, the judge, the ddmin
/// options and the serialization of the current tree.
///
/// **Invariant:** `current` is `tree.unparse()` and is interesting (every commit to the tree
/// was tested interesting first).
pub(crate) struct Session<'a, T: Tree> {
    pub tree: &'a mut T,
    pub judge: &'a Judge,
    /// The caller's ddmin options, with the judge's cancel flag as `stop`.
    pub ddmin: DdminOptions,
    pub current: Vec<u8>,
    /// The running phase and pass, e.g. `HDDH^r* pass 2` (for the judge's progress phase).
    pub label: String,
    /// The next nodes of HDDr's work list (for the lookahead's announcements, see `hdd`).
    pub ahead: Vec<T::Node>,
    /// The node HDDr visits, when `ahead` holds the whole (breadth-first) work list: its
    /// remaining children are visited right after the nodes of `ahead` (see `hdd`).
    pub visiting: Option<T::Node>,
    /// With a fixed point, the text when the running pass of HDDr began: a pass that changes
    /// it is followed by another from the root, which the announcements look ahead into
    /// (see `hdd`). `None` without a fixed point.
    pub pass_start: Option<Vec<u8>>,
    /// What the reduction tests after the last pass of the tree phase when every test fails
    /// (the first candidates of the transformation passes on a given text, at most a given
    /// number), for the announcements near the phase's end (see `hdd`). `None`: unknown.
    pub after_phase: Option<AfterPhase<'a>>,
    /// DDMIN's configurations keep what their kept siblings refer to (`closure`).
    pub closure: bool,
    /// With `closure`: which calls refer to the declaration of the function they call (see
    /// `closure::probe_calls`).
    pub closure_calls: Calls,
    /// Commits so far ([`Session::refresh`]): the key of `name_counts`.
    generation: u64,
    /// The occurrences of each name in the current tree, for the closure's siblings
    /// referred to from outside a visit (see [`Session::name_counts`]), with the generation
    /// and the calls they were counted for.
    name_counts: std::sync::Mutex<Option<NameCounts>>,
}

/// The occurrences of each name, counted at a generation for some calls.
type NameCounts = (u64, Calls, std::sync::Arc<Vec<u32>>);

impl<'a, T: Tree> Session<'a, T> {
    pub fn new(tree: &'a mut T, judge: &'a Judge, ddmin: &DdminOptions) -> Session<'a, T> {
        let current = tree.unparse();
        let ddmin = DdminOptions {
            stop: Some(judge.stop_flag()),
            ..ddmin.clone()
        };
        Session {
            tree,
            judge,
            ddmin,
            current,
            label: String::new(),
            ahead: Vec::new(),
            visiting: None,
            pass_start: None,
            after_phase: None,
            closure: false,
            closure_calls: Calls::Refer,
            generation: 0,
            name_counts: Default::default(),
        }
    }

    /// Per name (see [`Tree::name`]): its occurrences in the current tree that count with
    /// `closure_calls`; counted once per commit.
    pub fn name_counts(&self) -> std::sync::Arc<Vec<u32>> {
        let mut cache = self.name_counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((g, calls, counts)) = &*cache {
            if *g == self.generation && *calls == self.closure_calls {
                return std::sync::Arc::clone(counts);
            }
        }
        let tree: &T = &*self.tree;
        let mut counts: Vec<u32> = Vec::new();
        let mut stack = vec![tree.root()];
        while let Some(m) = stack.pop() {
            if tree.is_pruned(m) {
                continue;
            }
            if let Some(name) = tree.name(m).filter(|_| self.closure_calls.counts(tree, m)) {
                let i = name as usize;
                if counts.len() <= i {
                    counts.resize(i + 1, 0);
                }
                counts[i] += 1;
            }
            stack.extend(tree.children(m));
        }
        let counts = std::sync::Arc::new(counts);
        *cache = Some((
            self.generation,
            self.closure_calls,
            std::sync::Arc::clone(&counts),
        ));
        counts
    }

    /// Tell the judge (and so the progress display) where the reduction is.
    pub fn set_phase(&self, place: std::fmt::Arguments) {
        self.judge.phase(&format!("{}, {place}", self.label));
    }

    /// Re-serialize after a commit.
    pub fn refresh(&mut self) {
        self.current = self.tree.unparse();
        self.generation += 1;
    }

    pub fn cancelled(&self) -> bool {
        self.judge.is_cancelled()
    }

    /// How many candidates to test at once.
    pub fn jobs(&self) -> usize {
        self.ddmin.jobs.max(1)
    }
}

/// Is `candidate` interesting? A candidate equal to the current (interesting) text is
/// answered without the judge: tentative edits that do not change the text (a node whose
/// replacement is its own text) must not cost an oracle run.
pub(crate) fn candidate_test(judge: &Judge, current: &[u8], candidate: &[u8]) -> bool {
    candidate == current || judge.test_from(Some(current), candidate)
}

/// What follows the tree phase on a given text, at most a given number of candidates (see
/// `Session::after_phase`).
pub(crate) type AfterPhase<'a> = &'a (dyn Fn(&[u8], usize) -> Vec<Vec<u8>> + Sync);

/// What a caller tests after ddmin returns a given configuration (see [`JudgeAhead`]).
pub(crate) type Then<'a> = &'a (dyn Fn(&[usize]) -> Vec<Vec<u8>> + Sync);

/// ddmin's bets on success ([`crate::ddmin::Ahead`]) for a ddmin whose configurations become
/// candidates of `base` through `candidate`: the branch is announced to the judge's
/// lookahead, followed by what the caller tests after ddmin returns a given result (`then`,
/// candidates of the result's text).
pub(crate) struct JudgeAhead<'a, F> {
    pub judge: &'a Judge,
    pub base: &'a [u8],
    pub candidate: F,
    pub then: Option<Then<'a>>,
}

impl<F: Fn(&[usize]) -> Vec<u8> + Sync> crate::ddmin::Ahead for JudgeAhead<'_, F> {
    fn win_after(&self) -> Option<std::time::Duration> {
        self.judge.win_after()
    }

    fn branch(&self, pending: &[usize], next: Vec<Vec<usize>>, result: Option<&[usize]>) {
        let next: Vec<Vec<u8>> = next.iter().map(|c| (self.candidate)(c)).collect();
        let mut next = self.judge.unrecalled(self.base, next);
        if let (Some(then), Some(result)) = (self.then, result) {
            let text = (self.candidate)(result);
            next.extend(self.judge.unrecalled(&text, then(result)));
        }
        self.judge.announce_if(&(self.candidate)(pending), next);
    }

    fn rest(&self, result: &[usize]) {
        if let Some(then) = self.then {
            self.judge.announce(&(self.candidate)(result), then(result));
        }
    }

    fn chains_wins(&self) -> bool {
        self.judge.chains_wins()
    }
}

/// A toy reduction tree for the algorithms' unit tests, written as an s-expression:
/// `(kind child ...)` is a rule node (`(kind/R ...)` when its replacement is `R`, empty
/// otherwise), a bare word is a removable token, `.word` a hidden token. Rule nodes of the
/// same kind are compatible. Unparsing joins the token texts with single spaces.
#[cfg(test)]
pub(crate) mod toy {
    use std::sync::{Arc, Mutex};

    use super::Tree;
    use crate::engine::observer::Recorder;
    use crate::engine::FnOracle;
    use crate::{Judge, JudgeOptions};

    #[derive(Clone, Debug)]
    struct Node {
        kind: String,
        /// Token text (None for rule nodes).
        text: Option<String>,
        replacement: String,
        hidden: bool,
        pruned: bool,
        children: Vec<usize>,
        /// Tokens: the number of their spelling, and whether no token before has it.
        name: Option<(u32, bool)>,
    }

    #[derive(Clone, Debug)]
    pub(crate) struct Toy {
        nodes: Vec<Node>,
        root: usize,
    }

    impl Toy {
        pub(crate) fn parse(src: &str) -> Toy {
            let spaced = src.replace('(', " ( ").replace(')', " ) ");
            let mut words = spaced.split_whitespace().peekable();
            let mut toy = Toy {
                nodes: Vec::new(),
                root: 0,
            };
            toy.root = toy.parse_node(&mut words);
            assert!(words.next().is_none(), "trailing input in {src}");
            toy
        }

        fn parse_node<'a>(
            &mut self,
            words: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
        ) -> usize {
            let word = words.next().expect("unexpected end");
            let id = self.nodes.len();
            if word == "(" {
                let head = words.next().expect("kind");
                let (kind, replacement) = head.split_once('/').unwrap_or((head, ""));
                self.nodes.push(Node {
                    kind: kind.to_string(),
                    text: None,
                    replacement: replacement.to_string(),
                    hidden: false,
                    pruned: false,
                    children: Vec::new(),
                    name: None,
                });
                while words.peek() != Some(&")") {
                    let child = self.parse_node(words);
                    self.nodes[id].children.push(child);
                }
                words.next();
            } else {
                let (hidden, text) = match word.strip_prefix('.') {
                    Some(t) => (true, t),
                    None => (false, word),
                };
                let before = self.nodes.iter().filter_map(|n| n.text.as_deref());
                let mut spellings: Vec<&str> = Vec::new();
                for t in before {
                    if !spellings.contains(&t) {
                        spellings.push(t);
                    }
                }
                let name = match spellings.iter().position(|&t| t == text) {
                    Some(i) => (i as u32, false),
                    None => (spellings.len() as u32, true),
                };
                self.nodes.push(Node {
                    kind: text.to_string(),
                    text: Some(text.to_string()),
                    replacement: String::new(),
                    hidden,
                    pruned: false,
                    children: Vec::new(),
                    name: Some(name),
                });
            }
            id
        }

        /// The node whose subtree unparses to `text` (the first one in pre-order).
        pub(crate) fn find(&self, text: &str) -> usize {
            let mut stack = vec![self.root];
            while let Some(n) = stack.pop() {
                if self.render(n, &|_| None) == text {
                    return n;
                }
                stack.extend(self.nodes[n].children.iter().rev());
            }
            panic!("no node unparses to {text:?}")
        }

        pub(crate) fn text_of(&self, n: usize) -> String {
            self.render(n, &|_| None)
        }

        fn render(&self, root: usize, edit: &dyn Fn(usize) -> Option<Option<usize>>) -> String {
            let mut out: Vec<String> = Vec::new();
            let mut stack = vec![root];
            while let Some(n) = stack.pop() {
                let n = match edit(n) {
                    Some(None) => {
                        if !self.nodes[n].replacement.is_empty() {
                            out.push(self.nodes[n].replacement.clone());
                        }
                        continue;
                    }
                    Some(Some(d)) => d,
                    None => n,
                };
                let node = &self.nodes[n];
                if node.pruned {
                    if !node.replacement.is_empty() {
                        out.push(node.replacement.clone());
                    }
                    continue;
                }
                if let Some(t) = &node.text {
                    out.push(t.clone());
                }
                stack.extend(node.children.iter().rev());
            }
            out.join(" ")
        }

        /// The parent of `n` in the current tree (detached nodes keep their stale children).
        fn parent(&self, n: usize) -> Option<usize> {
            let mut stack = vec![self.root];
            while let Some(p) = stack.pop() {
                if self.nodes[p].children.contains(&n) {
                    return Some(p);
                }
                stack.extend(&self.nodes[p].children);
            }
            None
        }
    }

    /// `pruned`, checking the promise of [`Tree::unparse_pruned`]: it holds only for nodes
    /// of `scope` (an RTree would not ask it for the others).
    fn in_scope<'a>(
        scope: &'a [&'a [usize]],
        pruned: &'a dyn Fn(usize) -> bool,
    ) -> impl Fn(usize) -> bool + 'a {
        move |n| {
            let p = pruned(n);
            assert!(
                !p || scope.iter().any(|s| s.contains(&n)),
                "node {n} pruned outside the scope {scope:?}"
            );
            p
        }
    }

    impl Tree for Toy {
        type Node = usize;
        fn index(n: usize) -> usize {
            n
        }
        fn root(&self) -> usize {
            self.root
        }
        fn children(&self, n: usize) -> &[usize] {
            &self.nodes[n].children
        }
        fn is_token(&self, n: usize) -> bool {
            self.nodes[n].text.is_some()
        }
        fn is_hidden(&self, n: usize) -> bool {
            self.nodes[n].hidden
        }
        fn is_pruned(&self, n: usize) -> bool {
            self.nodes[n].pruned
        }
        fn replacement_is_empty(&self, n: usize) -> bool {
            self.nodes[n].replacement.is_empty()
        }
        fn compatible(&self, a: usize, b: usize) -> bool {
            !self.is_token(a) && !self.is_token(b) && self.nodes[a].kind == self.nodes[b].kind
        }
        fn unparse(&self) -> Vec<u8> {
            self.render(self.root, &|_| None).into_bytes()
        }
        fn unparse_pruned(&self, scope: &[&[usize]], pruned: &dyn Fn(usize) -> bool) -> Vec<u8> {
            let pruned = in_scope(scope, pruned);
            self.render(self.root, &|n| pruned(n).then_some(None))
                .into_bytes()
        }
        fn unparse_hoisted_pruned(
            &self,
            n: usize,
            desc: usize,
            scope: &[&[usize]],
            pruned: &dyn Fn(usize) -> bool,
        ) -> Vec<u8> {
            let pruned = in_scope(scope, pruned);
            let edit = |m| match m == n {
                true => Some(Some(desc)),
                false => pruned(m).then_some(None),
            };
            self.render(self.root, &edit).into_bytes()
        }
        fn prune(&mut self, n: usize) {
            self.nodes[n].pruned = true;
        }
        fn hoist(&mut self, n: usize, desc: usize) {
            let parent = if n == self.root { None } else { self.parent(n) };
            match parent {
                Some(p) => {
                    for c in self.nodes[p].children.iter_mut() {
                        if *c == n {
                            *c = desc;
                        }
                    }
                }
                None => self.root = desc,
            }
        }
        fn name(&self, n: usize) -> Option<u32> {
            self.nodes[n].name.map(|(name, _)| name)
        }
        fn spelling(&self, n: usize) -> Option<u32> {
            self.nodes[n].name.map(|(name, _)| name)
        }
        /// A name's first occurrence declares it.
        fn declares_before_use(&self) -> bool {
            true
        }
        /// A first occurrence, or a token whose parent is a rule node of kind `def` (a
        /// definition after a forward declaration).
        fn is_declaration(&self, n: usize) -> bool {
            self.nodes[n].name.is_some_and(|(_, first)| first)
                || (self.nodes[n].name.is_some()
                    && self.parent(n).is_some_and(|p| self.nodes[p].kind == "def"))
        }
        /// A first occurrence whose parent is a rule node of kind `must`.
        fn must_be_used(&self, n: usize) -> bool {
            self.is_declaration(n) && self.removal_unit(n).is_some()
        }
        fn has_must_use(&self) -> bool {
            true
        }
        /// The parent, a rule node of kind `must`.
        fn removal_unit(&self, n: usize) -> Option<usize> {
            self.parent(n).filter(|&p| self.nodes[p].kind == "must")
        }
        /// Rule nodes of kind `block`.
        fn is_local_scope(&self, n: usize) -> bool {
            self.nodes[n].text.is_none() && self.nodes[n].kind == "block"
        }
        /// The first token of a rule node of kind `call`.
        fn is_callee(&self, n: usize) -> bool {
            self.nodes[n].text.is_some()
                && self
                    .parent(n)
                    .is_some_and(|p| self.nodes[p].kind == "call" && self.nodes[p].children[0] == n)
        }
        /// A callee whose `call` is the only child of a rule node of kind `stmt`.
        fn is_statement_callee(&self, n: usize) -> bool {
            self.is_callee(n)
                && self
                    .parent(n)
                    .and_then(|c| self.parent(c))
                    .is_some_and(|s| {
                        self.nodes[s].kind == "stmt" && self.nodes[s].children.len() == 1
                    })
        }
    }

    /// Every candidate the oracle saw, in order.
    pub(crate) type Log = Arc<Mutex<Vec<String>>>;

    /// A judge without cache or syntax filter over `interesting` (on the candidate text),
    /// logging every oracle run.
    pub(crate) fn judge(
        interesting: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> (Judge, Log) {
        let log: Log = Arc::default();
        let log2 = Arc::clone(&log);
        let oracle = FnOracle::new(move |c: &[u8]| {
            let c = String::from_utf8_lossy(c).into_owned();
            let verdict = interesting(&c);
            log2.lock().unwrap().push(c);
            verdict
        });
        let opts = JudgeOptions {
            cache: false,
            ..JudgeOptions::default()
        };
        (Judge::new(Box::new(oracle), opts), log)
    }

    /// [`judge`], with an observer that keeps the phase and the records.
    pub(crate) fn observed_judge(
        interesting: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> (Judge, Arc<Recorder>) {
        let recorder = Arc::new(Recorder::default());
        let oracle = FnOracle::new(move |c: &[u8]| interesting(&String::from_utf8_lossy(c)));
        let opts = JudgeOptions {
            cache: false,
            observer: Some(Arc::clone(&recorder) as Arc<dyn crate::Observer>),
            ..JudgeOptions::default()
        };
        (Judge::new(Box::new(oracle), opts), recorder)
    }

    /// `text` contains every one of the space-separated `words` as a word.
    pub(crate) fn has(text: &str, words: &str) -> bool {
        words
            .split_whitespace()
            .all(|w| text.split_whitespace().any(|t| t == w))
    }
}
