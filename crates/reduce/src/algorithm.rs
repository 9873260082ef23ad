//! Configuration and entry point of tree reduction (issue 4).
//!
//! The 16 configurations of the dissertation's Table 7.1 are `Base` x `Hoisting`; each has the
//! paper's name (`HDD*`, `Hoist^r*+HDDH^r*`, `Coarse HDDH*`, ...), which [`TreeConfig::name`]
//! prints and [`TreeConfig::from_name`] parses. Three presets (`smallest`, `balanced`,
//! `fastest`) name the configurations chosen from our measurements (see `preset`).

use std::fmt;
use std::str::FromStr;

use treedd_tree::{Edit, NodeId, RTree};

use crate::{fixpoint, hdd, reduce_text, DdminOptions, Judge, TextUnit};

/// The pruning algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// HDD: DDMIN over all nodes of one level at a time (004 fig. 2).
    Hdd,
    /// HDDr: DDMIN over the children of one node at a time (dissertation fig. 2.2(b)).
    Hddr,
    /// Coarse HDD: HDD on the nodes whose replacement is empty (fig. 2.3(a)).
    CoarseHdd,
    /// Coarse HDDr: HDDr on the nodes whose replacement is empty (fig. 2.3(b)).
    CoarseHddr,
}

impl Base {
    /// The rows of Table 7.1, in the table's order.
    pub const ALL: [Base; 4] = [Base::Hdd, Base::Hddr, Base::CoarseHdd, Base::CoarseHddr];

    /// Visits the children of one node at a time (HDDr family) rather than whole levels.
    pub fn is_recursive(self) -> bool {
        matches!(self, Base::Hddr | Base::CoarseHddr)
    }

    /// Only nodes with an empty replacement take part (Coarse family).
    pub fn is_coarse(self) -> bool {
        matches!(self, Base::CoarseHdd | Base::CoarseHddr)
    }
}

/// How hoisting is combined with the pruning algorithm X.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hoisting {
    /// X*
    None,
    /// Hoist* + X* (hoisting as preprocessing)
    Pre,
    /// XH* (interlaced, fig. 9 of 004)
    Interlace,
    /// Hoist* + XH*
    Both,
}

impl Hoisting {
    /// The columns of Table 7.1, in the table's order.
    pub const ALL: [Hoisting; 4] = [
        Hoisting::None,
        Hoisting::Pre,
        Hoisting::Interlace,
        Hoisting::Both,
    ];

    /// A stand-alone hoisting phase runs before the pruning phase.
    pub fn has_pre(self) -> bool {
        matches!(self, Hoisting::Pre | Hoisting::Both)
    }

    /// TMIN runs on the kept nodes right after each DDMIN of the pruning phase.
    pub fn has_interlace(self) -> bool {
        matches!(self, Hoisting::Interlace | Hoisting::Both)
    }
}

/// Order in which HDDr visits nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraversalOrder {
    /// Pop from the front of the queue (the papers' HDDr).
    BreadthFirst,
    /// Pop from the back, children pushed in reverse (first child visited first).
    DepthFirst,
}

#[derive(Clone, Debug)]
pub struct TreeConfig {
    pub base: Base,
    pub hoist: Hoisting,
    pub order: TraversalOrder,
    /// Iterate each phase to its fixed point (the papers' *); on by default.
    pub fixpoint: bool,
    /// ddmin options used inside every algorithm (split factor, jobs, GreeDDy, ...).
    pub ddmin: DdminOptions,
    /// After the tree algorithms, line-then-character DDMIN* on the text.
    pub final_text_pass: bool,
}

/// The preset names accepted by [`TreeConfig::preset`], smallest output first.
pub const PRESETS: [&str; 3] = ["smallest", "balanced", "fastest"];

impl TreeConfig {
    /// `base` combined with `hoist`, to the fixed point, breadth-first, default ddmin options,
    /// no final text pass.
    pub fn new(base: Base, hoist: Hoisting) -> TreeConfig {
        TreeConfig {
            base,
            hoist,
            order: TraversalOrder::BreadthFirst,
            fixpoint: true,
            ddmin: DdminOptions::default(),
            final_text_pass: false,
        }
    }

    /// The 16 configurations of Table 7.1, row by row (HDD, HDDr, Coarse HDD, Coarse HDDr),
    /// each row X*, Hoist*+X*, XH*, Hoist*+XH*.
    pub fn all16() -> Vec<TreeConfig> {
        Base::ALL
            .iter()
            .flat_map(|&b| Hoisting::ALL.iter().map(move |&h| TreeConfig::new(b, h)))
            .collect()
    }

    /// A configuration chosen from measurements of all 16 configurations on JRTS cases 3299,
    /// 3408, 3431, 3433, 3483 and 3536, fixtures/javascript/{output,rangeerror,typeerror},
    /// Perses gcc-71626, helloworld.c and LocalizedPi.java:
    /// - `smallest` = HDDH*: the smallest total output (443 non-whitespace characters over the
    ///   9 JavaScript cases, 0.70 x HDD* per case) and the most per-case minima (8 of 9), with
    ///   fewer oracle runs than HDD* (0.85 x). Hoisting as preprocessing (Hoist*+HDDH*) won
    ///   one case more but cost twice the runs and was larger on gcc-71626 (240 vs 194).
    /// - `balanced` (the default) = HDDH^r*: within 5% of HDDH* in size for the fewest runs of
    ///   all hoisting configurations (0.76 x HDD*; LocalizedPi.java in 105 runs).
    /// - `fastest` = Coarse HDD^r*: the fewest oracle runs (0.51 x HDD*) for outputs about a
    ///   quarter larger than HDD*'s, as the dissertation also recommends.
    pub fn preset(name: &str) -> Result<TreeConfig, ConfigNameError> {
        let (base, hoist) = match name.trim().to_ascii_lowercase().as_str() {
            "smallest" => (Base::Hdd, Hoisting::Interlace),
            "balanced" => (Base::Hddr, Hoisting::Interlace),
            "fastest" => (Base::CoarseHddr, Hoisting::None),
            _ => {
                return Err(ConfigNameError {
                    name: name.to_string(),
                })
            }
        };
        Ok(TreeConfig::new(base, hoist))
    }

    /// The paper's name of the configuration, e.g. `Hoist^r*+HDDH^r*` or `Coarse HDD*`
    /// (without the stars when `fixpoint` is off; ` depth-first` appended for a depth-first
    /// recursive variant).
    pub fn name(&self) -> String {
        let star = if self.fixpoint { "*" } else { "" };
        let r = if self.base.is_recursive() { "^r" } else { "" };
        let coarse = if self.base.is_coarse() { "Coarse " } else { "" };
        let h = if self.hoist.has_interlace() { "H" } else { "" };
        let pre = if self.hoist.has_pre() {
            format!("Hoist{r}{star}+")
        } else {
            String::new()
        };
        let mut name = format!("{coarse}{pre}HDD{h}{r}{star}");
        if self.base.is_recursive() && self.order == TraversalOrder::DepthFirst {
            name.push_str(" depth-first");
        }
        name
    }

    /// Parse a paper name (as printed by [`TreeConfig::name`]) or a preset name. Case,
    /// spaces, `^`, `-` and `_` are ignored, so `hoist-r*+hddh-r*` and `Hoist^r*+HDDH^r*`
    /// are the same. A name without any `*` turns the fixed point off.
    pub fn from_name(name: &str) -> Result<TreeConfig, ConfigNameError> {
        if let Ok(preset) = TreeConfig::preset(name) {
            return Ok(preset);
        }
        let err = || ConfigNameError {
            name: name.to_string(),
        };
        let mut s: String = name
            .chars()
            .filter(|c| !matches!(c, ' ' | '\t' | '^' | '-' | '_'))
            .collect::<String>()
            .to_ascii_lowercase();
        let mut order = TraversalOrder::BreadthFirst;
        for (suffix, o) in [
            ("depthfirst", TraversalOrder::DepthFirst),
            ("breadthfirst", TraversalOrder::BreadthFirst),
        ] {
            if let Some(rest) = s.strip_suffix(suffix) {
                order = o;
                s = rest.to_string();
            }
        }
        let fixpoint = s.contains('*');
        let s = s.replace('*', "");
        let (coarse, s) = match s.strip_prefix("coarse") {
            Some(rest) => (true, rest),
            None => (false, s.as_str()),
        };
        let (pre, main) = match s.split_once('+') {
            Some((pre, main)) => (Some(pre), main),
            None => (None, s),
        };
        let (interlace, recursive) = match main {
            "hdd" => (false, false),
            "hddr" => (false, true),
            "hddh" => (true, false),
            "hddhr" => (true, true),
            _ => return Err(err()),
        };
        match pre {
            None => {}
            Some("hoist") if !recursive => {}
            Some("hoistr") if recursive => {}
            Some(_) => return Err(err()),
        }
        let base = match (coarse, recursive) {
            (false, false) => Base::Hdd,
            (false, true) => Base::Hddr,
            (true, false) => Base::CoarseHdd,
            (true, true) => Base::CoarseHddr,
        };
        if !recursive && order == TraversalOrder::DepthFirst {
            return Err(err());
        }
        let hoist = match (pre.is_some(), interlace) {
            (false, false) => Hoisting::None,
            (true, false) => Hoisting::Pre,
            (false, true) => Hoisting::Interlace,
            (true, true) => Hoisting::Both,
        };
        Ok(TreeConfig {
            order,
            fixpoint,
            ..TreeConfig::new(base, hoist)
        })
    }
}

impl Default for TreeConfig {
    /// The `balanced` preset.
    fn default() -> TreeConfig {
        TreeConfig::new(Base::Hddr, Hoisting::Interlace)
    }
}

impl FromStr for TreeConfig {
    type Err = ConfigNameError;
    fn from_str(s: &str) -> Result<TreeConfig, ConfigNameError> {
        TreeConfig::from_name(s)
    }
}

/// A tree algorithm name that is neither a preset nor a configuration of Table 7.1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigNameError {
    name: String,
}

impl fmt::Display for ConfigNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown tree algorithm `{}`: use smallest, balanced, fastest or a name of the \
             dissertation's Table 7.1 such as HDD*, Hoist*+HDDH*, HDDH^r* or Coarse Hoist^r*+HDD^r*",
            self.name
        )
    }
}

impl std::error::Error for ConfigNameError {}

/// What one visit of a set of sibling or same-level nodes does.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// DDMIN over the nodes, then PRUNE.
    pub prune: bool,
    /// TMIN over the (kept) nodes, then TRANSFORM.
    pub hoist: bool,
    /// filterEmptyPhiNodes first.
    pub coarse: bool,
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
    fn is_hidden(&self, n: Self::Node) -> bool;
    fn is_pruned(&self, n: Self::Node) -> bool;
    /// The node's replacement is empty (the Coarse algorithms' filter).
    fn replacement_is_empty(&self, n: Self::Node) -> bool;
    fn compatible(&self, a: Self::Node, b: Self::Node) -> bool;
    fn unparse(&self) -> Vec<u8>;
    /// The current tree with the nodes for which `pruned` holds pruned.
    fn unparse_pruned(&self, pruned: &dyn Fn(Self::Node) -> bool) -> Vec<u8>;
    /// The current tree with `desc` in `n`'s place.
    fn unparse_hoisted(&self, n: Self::Node, desc: Self::Node) -> Vec<u8>;
    fn prune(&mut self, n: Self::Node);
    fn hoist(&mut self, n: Self::Node, desc: Self::Node);
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
    fn is_hidden(&self, n: NodeId) -> bool {
        RTree::is_hidden(self, n)
    }
    fn is_pruned(&self, n: NodeId) -> bool {
        RTree::is_pruned(self, n)
    }
    fn replacement_is_empty(&self, n: NodeId) -> bool {
        RTree::replacement(self, n).is_empty()
    }
    fn compatible(&self, a: NodeId, b: NodeId) -> bool {
        RTree::compatible(self, a, b)
    }
    fn unparse(&self) -> Vec<u8> {
        RTree::unparse(self)
    }
    fn unparse_pruned(&self, pruned: &dyn Fn(NodeId) -> bool) -> Vec<u8> {
        self.unparse_with(&|n| if pruned(n) { Edit::Prune } else { Edit::Keep })
    }
    fn unparse_hoisted(&self, n: NodeId, desc: NodeId) -> Vec<u8> {
        self.unparse_with(&|m| {
            if m == n {
                Edit::Hoist(desc)
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
}

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
        }
    }

    /// Tell the judge (and so the progress display) where the reduction is.
    pub fn set_phase(&self, place: std::fmt::Arguments) {
        self.judge.set_phase(&format!("{}, {place}", self.label));
    }

    /// Re-serialize after a commit.
    pub fn refresh(&mut self) {
        self.current = self.tree.unparse();
    }

    pub fn cancelled(&self) -> bool {
        self.judge.is_cancelled()
    }

    /// Is `candidate` interesting? See [`candidate_test`].
    pub fn test(&self, candidate: &[u8]) -> bool {
        candidate_test(self.judge, &self.current, candidate)
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
    candidate == current || judge.test(candidate)
}

/// One phase of a configuration: prune (optionally interlaced with hoisting) or hoist alone.
fn run_phase<T: Tree>(s: &mut Session<T>, config: &TreeConfig, step: Step) {
    let name = if step.prune {
        let hoist = if step.hoist {
            Hoisting::Interlace
        } else {
            Hoisting::None
        };
        TreeConfig {
            hoist,
            ..config.clone()
        }
        .name()
    } else {
        let coarse = if step.coarse { "Coarse " } else { "" };
        let r = if config.base.is_recursive() { "^r" } else { "" };
        let star = if config.fixpoint { "*" } else { "" };
        format!("{coarse}Hoist{r}{star}")
    };
    let mut pass = 0;
    fixpoint::fixpoint(s, config.fixpoint, |s| {
        pass += 1;
        s.label = format!("{name} pass {pass}");
        if config.base.is_recursive() {
            hdd::recursive(s, step, config.order)
        } else {
            hdd::levels(s, step)
        }
    });
}

/// Reduce `tree` in place; returns the serialized result (always interesting if the input was).
///
/// Runs the stand-alone hoisting phase (`Hoist*`, `Hoist^r*`, `Coarse Hoist*`, ... matching
/// the base) when `config.hoist` has one, then the pruning phase (interlaced with hoisting
/// when `config.hoist` says so), each to its fixed point when `config.fixpoint`. With
/// `final_text_pass` the result is further reduced as text (lines, then characters, both to
/// their fixed point); the tree then no longer matches the returned bytes. Returns early,
/// with the best result so far, once the judge is cancelled.
pub fn reduce_tree(tree: &mut RTree, judge: &Judge, config: &TreeConfig) -> Vec<u8> {
    reduce(tree, judge, config)
}

pub(crate) fn reduce<T: Tree>(tree: &mut T, judge: &Judge, config: &TreeConfig) -> Vec<u8> {
    let coarse = config.base.is_coarse();
    let mut s = Session::new(tree, judge, &config.ddmin);
    if config.hoist.has_pre() {
        run_phase(
            &mut s,
            config,
            Step {
                prune: false,
                hoist: true,
                coarse,
            },
        );
    }
    if !s.cancelled() {
        let step = Step {
            prune: true,
            hoist: config.hoist.has_interlace(),
            coarse,
        };
        run_phase(&mut s, config, step);
    }
    let out = std::mem::take(&mut s.current);
    if config.final_text_pass && !judge.is_cancelled() {
        let opts = DdminOptions {
            fixpoint: true,
            ..config.ddmin.clone()
        };
        return reduce_text(&out, TextUnit::LineThenChar, judge, &opts);
    }
    out
}

/// A toy reduction tree for the algorithms' unit tests, written as an s-expression:
/// `(kind child ...)` is a rule node (`(kind/R ...)` when its replacement is `R`, empty
/// otherwise), a bare word is a removable token, `.word` a hidden token. Rule nodes of the
/// same kind are compatible. Unparsing joins the token texts with single spaces.
#[cfg(test)]
pub(crate) mod toy {
    use std::sync::{Arc, Mutex};

    use super::Tree;
    use crate::{FnOracle, Judge, JudgeOptions};

    #[derive(Clone, Debug)]
    struct Node {
        kind: String,
        /// Token text (None for rule nodes).
        text: Option<String>,
        replacement: String,
        hidden: bool,
        pruned: bool,
        children: Vec<usize>,
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
                self.nodes.push(Node {
                    kind: text.to_string(),
                    text: Some(text.to_string()),
                    replacement: String::new(),
                    hidden,
                    pruned: false,
                    children: Vec::new(),
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
        fn unparse_pruned(&self, pruned: &dyn Fn(usize) -> bool) -> Vec<u8> {
            self.render(self.root, &|n| pruned(n).then_some(None))
                .into_bytes()
        }
        fn unparse_hoisted(&self, n: usize, desc: usize) -> Vec<u8> {
            self.render(self.root, &|m| (m == n).then_some(Some(desc)))
                .into_bytes()
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

    /// `text` contains every one of the space-separated `words` as a word.
    pub(crate) fn has(text: &str, words: &str) -> bool {
        words
            .split_whitespace()
            .all(|w| text.split_whitespace().any(|t| t == w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_papers_and_round_trip() {
        let names: Vec<String> = TreeConfig::all16().iter().map(TreeConfig::name).collect();
        assert_eq!(
            names,
            [
                "HDD*",
                "Hoist*+HDD*",
                "HDDH*",
                "Hoist*+HDDH*",
                "HDD^r*",
                "Hoist^r*+HDD^r*",
                "HDDH^r*",
                "Hoist^r*+HDDH^r*",
                "Coarse HDD*",
                "Coarse Hoist*+HDD*",
                "Coarse HDDH*",
                "Coarse Hoist*+HDDH*",
                "Coarse HDD^r*",
                "Coarse Hoist^r*+HDD^r*",
                "Coarse HDDH^r*",
                "Coarse Hoist^r*+HDDH^r*",
            ]
        );
        for config in TreeConfig::all16() {
            let parsed = TreeConfig::from_name(&config.name()).unwrap();
            assert_eq!(
                (parsed.base, parsed.hoist, parsed.fixpoint),
                (config.base, config.hoist, true)
            );
            let once = TreeConfig {
                fixpoint: false,
                ..config.clone()
            };
            assert!(!once.name().contains('*'));
            let parsed = TreeConfig::from_name(&once.name()).unwrap();
            assert_eq!(
                (parsed.base, parsed.hoist, parsed.fixpoint),
                (config.base, config.hoist, false)
            );
        }
    }

    #[test]
    fn parsing_ignores_case_spaces_and_carets() {
        let c: TreeConfig = "coarse hoist-r*+hddh-r*".parse().unwrap();
        assert_eq!(
            (c.base, c.hoist, c.fixpoint),
            (Base::CoarseHddr, Hoisting::Both, true)
        );
        let c = TreeConfig::from_name("HDDr*").unwrap();
        assert_eq!((c.base, c.hoist), (Base::Hddr, Hoisting::None));
        let c = TreeConfig::from_name("HDDH^r* depth-first").unwrap();
        assert_eq!(
            (c.base, c.hoist, c.order),
            (Base::Hddr, Hoisting::Interlace, TraversalOrder::DepthFirst)
        );
        assert_eq!(c.name(), "HDDH^r* depth-first");
    }

    #[test]
    fn bad_names_are_rejected_with_the_name_in_the_message() {
        for bad in [
            "",
            "HDD+",
            "Hoist*+HDD^r*",
            "Hoist^r*+HDD*",
            "HDD* depth-first",
            "ddmin",
            "Coarse",
        ] {
            let err = TreeConfig::from_name(bad).unwrap_err();
            assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
        }
    }

    #[test]
    fn presets() {
        for name in PRESETS {
            let by_preset = TreeConfig::preset(name).unwrap();
            let by_name = TreeConfig::from_name(&name.to_uppercase()).unwrap();
            assert_eq!(
                (by_preset.base, by_preset.hoist),
                (by_name.base, by_name.hoist)
            );
            assert!(by_preset.fixpoint && !by_preset.final_text_pass);
        }
        let names: Vec<String> = PRESETS
            .iter()
            .map(|p| TreeConfig::preset(p).unwrap().name())
            .collect();
        assert_eq!(
            names,
            ["HDDH*", "HDDH^r*", "Coarse HDD^r*"],
            "the measured choices"
        );
        let d = TreeConfig::default();
        let b = TreeConfig::preset("balanced").unwrap();
        assert_eq!((d.base, d.hoist), (b.base, b.hoist));
        assert!(TreeConfig::preset("tiny").is_err());
    }

    #[test]
    fn reduction_stops_when_the_judge_is_cancelled() {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        use std::sync::{Arc, OnceLock};
        let flag: Arc<OnceLock<Arc<AtomicBool>>> = Arc::default();
        let runs = Arc::new(AtomicUsize::new(0));
        let (flag2, runs2) = (Arc::clone(&flag), Arc::clone(&runs));
        let oracle = crate::FnOracle::new(move |c: &[u8]| {
            if runs2.fetch_add(1, Ordering::SeqCst) + 1 == 3 {
                flag2.get().unwrap().store(true, Ordering::SeqCst);
            }
            toy::has(&String::from_utf8_lossy(c), "d")
        });
        let judge = Judge::new(Box::new(oracle), crate::JudgeOptions::default());
        flag.set(judge.stop_flag()).unwrap();
        let mut tree = toy::Toy::parse("(p (s a (s b)) (s c (s d)) (s e))");
        for config in TreeConfig::all16() {
            let out = String::from_utf8(reduce(&mut tree, &judge, &config)).unwrap();
            assert!(toy::has(&out, "d"), "{out}");
        }
        assert_eq!(
            runs.load(Ordering::SeqCst),
            3,
            "no oracle run after the cancel"
        );
    }

    #[test]
    fn the_judge_knows_the_phase() {
        let src = "(p (s a (s b)) (s c))";
        for (name, phase) in [
            ("Hoist^r*+HDDH^r*", "HDDH^r* pass 2, node "),
            ("Coarse HDD", "Coarse HDD pass 1, level "),
        ] {
            let mut tree = toy::Toy::parse(src);
            let (judge, _) = toy::judge(|c| toy::has(c, "b"));
            reduce(&mut tree, &judge, &TreeConfig::from_name(name).unwrap());
            assert!(
                judge.phase().starts_with(phase),
                "{name}: {}",
                judge.phase()
            );
        }
    }

    #[test]
    fn final_text_pass_removes_what_the_tree_cannot() {
        // The hidden tokens x and y are no units of the tree algorithms.
        let interesting = |c: &str| c.contains('a');
        for (text_pass, expected) in [(false, "x y a"), (true, "a")] {
            let mut tree = toy::Toy::parse("(p .x .y a (q b))");
            let (judge, _) = toy::judge(interesting);
            let config = TreeConfig {
                final_text_pass: text_pass,
                ..TreeConfig::new(Base::Hdd, Hoisting::None)
            };
            assert_eq!(reduce(&mut tree, &judge, &config), expected.as_bytes());
        }
    }
}

/// The papers' examples (004 figs. 3 and 5) reduced with their real oracles (fixtures/).
#[cfg(test)]
mod fixture_tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use treedd_tree::{count_errors, Lang, RTree};

    use super::*;
    use crate::{CommandOracleBuilder, JudgeOptions, Oracle, Stats};

    struct Fixture {
        lang: Lang,
        dir: PathBuf,
        file: &'static str,
        input: Vec<u8>,
    }

    impl Fixture {
        fn load(lang: Lang, case: &str, file: &'static str) -> Fixture {
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../fixtures")
                .join(case);
            let input = std::fs::read(dir.join(file)).unwrap();
            Fixture {
                lang,
                dir,
                file,
                input,
            }
        }

        fn oracle(&self) -> crate::CommandOracle {
            CommandOracleBuilder::new(self.dir.join("oracle.sh"))
                .file_name(self.file)
                .timeout(Some(Duration::from_secs(60)))
                .build()
                .unwrap()
        }

        /// A judge as the CLI builds it: syntax filter, content cache, the fixture's oracle.
        fn judge(&self) -> Judge {
            let (lang, base) = (self.lang, count_errors(self.lang, &self.input));
            let filter: crate::Filter = Box::new(move |c: &[u8]| count_errors(lang, c) <= base);
            Judge::new(
                Box::new(self.oracle()),
                JudgeOptions {
                    filter: Some(filter),
                    ..JudgeOptions::default()
                },
            )
        }

        fn reduce(&self, config: &TreeConfig) -> (Vec<u8>, Stats) {
            let mut tree = RTree::build(self.lang, &self.input).unwrap();
            let judge = self.judge();
            let out = reduce_tree(&mut tree, &judge, config);
            (out, judge.stats())
        }

        /// Re-check a result with a fresh oracle run.
        fn interesting(&self, candidate: &[u8]) -> bool {
            self.oracle().run(candidate).is_interesting()
        }
    }

    fn squeeze(text: &[u8]) -> String {
        String::from_utf8_lossy(text).split_whitespace().collect()
    }

    /// Run `configs` on `fixture`, two at a time; outputs and stats in the same order.
    fn run_all(fixture: &Fixture, configs: &[TreeConfig]) -> Vec<(Vec<u8>, Stats)> {
        let mut results: Vec<Option<(Vec<u8>, Stats)>> = vec![None; configs.len()];
        for (chunk, slots) in configs.chunks(2).zip(results.chunks_mut(2)) {
            std::thread::scope(|scope| {
                for (config, slot) in chunk.iter().zip(slots.iter_mut()) {
                    scope.spawn(move || *slot = Some(fixture.reduce(config)));
                }
            });
        }
        results.into_iter().map(Option::unwrap).collect()
    }

    #[test]
    fn helloworld_every_configuration() {
        let fixture = Fixture::load(Lang::C, "c/helloworld", "helloworld.c");
        assert_eq!(squeeze(&fixture.input).len(), 42);
        let configs = TreeConfig::all16();
        let results = run_all(&fixture, &configs);
        for (config, (out, stats)) in configs.iter().zip(&results) {
            let text = squeeze(out);
            eprintln!(
                "{:<26} {:>3} chars {:>4} oracle runs  {}",
                config.name(),
                text.len(),
                stats.oracle_runs,
                text
            );
            assert!(
                fixture.interesting(out),
                "{}: output not interesting: {text}",
                config.name()
            );
            if config.hoist == Hoisting::None {
                // 1-tree-minimal, yet the `if (1)` cannot go by pruning alone (004 Table I).
                assert!(text.contains("if(1)"), "{}: {text}", config.name());
            } else {
                assert_eq!(
                    text,
                    r#"intmain(){printf("Helloworld!\n");}"#,
                    "{}",
                    config.name()
                );
                assert_eq!(text.len(), 35);
            }
        }
    }

    #[test]
    fn helloworld_jobs_do_not_change_the_result() {
        let fixture = Fixture::load(Lang::C, "c/helloworld", "helloworld.c");
        let mut configs = Vec::new();
        for name in ["HDD*", "Hoist*+HDDH*", "HDDH^r*", "Coarse Hoist^r*+HDD^r*"] {
            let one = TreeConfig::from_name(name).unwrap();
            let two = TreeConfig {
                ddmin: DdminOptions {
                    jobs: 2,
                    ..DdminOptions::default()
                },
                ..one.clone()
            };
            configs.extend([one, two]);
        }
        let results = run_all(&fixture, &configs);
        for pair in configs.chunks(2).zip(results.chunks(2)) {
            let (config, outs) = pair;
            assert_eq!(
                outs[0].0,
                outs[1].0,
                "{}: jobs 1 and jobs 2 differ",
                config[0].name()
            );
        }
    }

    #[test]
    fn localized_pi_hoisting_removes_format_parts() {
        let fixture = Fixture::load(Lang::Java, "java/LocalizedPi", "LocalizedPi.java");
        let configs = [
            TreeConfig::from_name("HDD*").unwrap(),
            TreeConfig::from_name("Hoist*+HDD*").unwrap(),
        ];
        let results = run_all(&fixture, &configs);
        for (config, (out, stats)) in configs.iter().zip(&results) {
            let text = String::from_utf8_lossy(out);
            eprintln!(
                "{} ({} chars, {} oracle runs):\n{text}",
                config.name(),
                squeeze(out).len(),
                stats.oracle_runs
            );
            assert!(
                fixture.interesting(out),
                "{}: output not interesting",
                config.name()
            );
        }
        let (hdd, hoist) = (
            String::from_utf8_lossy(&results[0].0),
            String::from_utf8_lossy(&results[1].0),
        );
        // HDD* must keep formatParts: decSep's exception is thrown while computing its argument.
        assert!(hdd.contains("formatParts"), "{hdd}");
        assert!(!hoist.contains("formatParts"), "{hoist}");
        assert!(
            hoist.contains("decSep(") && hoist.contains("Unsupported locale"),
            "{hoist}"
        );
    }
}
