//! Configuration and entry point of tree reduction.
//!
//! The 16 configurations of the dissertation's Table 7.1 are `Base` x `Hoisting`; each has the
//! paper's name (`HDD*`, `Hoist^r*+HDDH^r*`, `Coarse HDDH*`, ...), which [`TreeConfig::name`]
//! prints and [`TreeConfig::from_name`] parses. Three presets (`smallest`, `balanced`,
//! `fastest`) name the configurations chosen from our measurements (see `preset`).

use std::fmt;
use std::str::FromStr;

use treedd_tree::RTree;

pub use order::TraversalOrder;

mod order;

use crate::passes::{self, Passes};
use crate::session::{Session, Step, Tree};
use crate::{fixpoint, hdd, reduce_text, DdminOptions, Judge, Pass, PassRecord, TextUnit};

/// The pruning algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// HDD: DDMIN over all nodes of one level at a time (HDD with hoisting, fig. 2).
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
    /// XH* (interlaced; HDD with hoisting, fig. 9)
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
    /// The transformation passes run after the tree algorithm in every round.
    pub passes: Vec<Pass>,
    /// DDMIN's configurations keep what their kept siblings refer to (see `closure`), in
    /// every round but the last: a round without it must change nothing too before the joint
    /// fixed point is reached. Only with `fixpoint`.
    pub closure: bool,
    /// PRUNE replaces a token that cannot be removed by the grammar's shortest text of its
    /// kind (`bool` -> `int`, a name -> `a`) in every round, as the papers' replacement
    /// strings do. Off, the tree phase only removes and hoists until the rounds reach a fixed
    /// point, and a last round with the replacements (without the closure) must change
    /// nothing too: a type turned into `int` early can block a removal that its own spelling
    /// allowed (a lambda converts to `bool` but not to `int`). Only with `fixpoint`.
    pub token_replacements: bool,
    /// The rounds consult the memory of failed edits (see `engine::edits`): an edit that
    /// failed on an earlier text, with the same context around it (and the same words of
    /// the removed text still used elsewhere), is not tested again, in every round but the
    /// last, which recalls only what failed in itself and must change nothing before the
    /// joint fixed point is reached. Only with `fixpoint`.
    pub edit_memory: bool,
    /// With `edit_memory`, the last round (without the closure, with token replacements)
    /// consults the memory too: the joint fixed point is then one of every edit the memory
    /// does not recall. The last round's own tests are those the closure kept out and the
    /// token replacements; the edits recalled would mostly fail again, as they did on a text
    /// that differed from this one away from their context, unless a word they remove lost
    /// its last use elsewhere, which makes them other edits.
    pub last_round_memory: bool,
    /// Other strategies, each run from the same start after this one; the smallest result
    /// wins, and then every strategy runs on it in turn until none changes it (a joint fixed
    /// point of them all). `smallest` has `balanced` here, so its output is never larger than
    /// the default's. Their `ddmin` options are replaced by this one's.
    pub alternatives: Vec<TreeConfig>,
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
            passes: Vec::new(),
            closure: false,
            token_replacements: true,
            edit_memory: false,
            last_round_memory: false,
            alternatives: Vec::new(),
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
    ///
    /// The recursive presets visit the largest subtree first (Perses' order), declarations
    /// used later after the rest ([`TraversalOrder::UsesFirst`]): on large inputs most of
    /// the file goes in the first hundreds of oracle runs instead of after a walk over every
    /// small declaration in syntactic order, and a class or a library whose users have
    /// shrunk first goes with few runs.
    ///
    /// The transformation passes are chosen on the real gcc crashes of the c-ice suite first
    /// (docs/bench/runs/2026-11-23-presets.md): `balanced` and `smallest` run all of them,
    /// `fastest` none. On the six real gcc crashes `subtrees` and `tokens` shrink the default's
    /// output on five (82 -> 64, 51 -> 40, 83 -> 77, 59 -> 57, 77 -> 76 characters) for 1.03x
    /// to 1.13x the oracle runs (1.46x on the JRTS proxies, 1.23x on the fixtures). The figures
    /// behind the choice (sizes against C-Reduce's, oracle runs) are in that record.
    /// Every preset has the reference closure (`closure`, for languages that declare before
    /// use): on the six real gcc crashes it cuts the default's oracle runs by 47% (12,782 ->
    /// 6,819 at `--jobs 1`) for the same sizes; on six Perses proxies, whose oracles accept
    /// calls without declarations (which the closure asks), the same sizes as without it in
    /// 0.36-0.94x the runs (docs/bench/runs/2026-11-25-reference-closure.md).
    /// `smallest` also runs `balanced` from the input as an alternative (see
    /// [`TreeConfig::alternatives`]): HDD's path and HDDr's differ, and on one real gcc crash
    /// of six the default's is the shorter (59 vs 65 characters). It runs `balanced` with
    /// `token_replacements` too: replacing tokens from the first round and leaving them to
    /// the last take different paths, and each is the shorter on some real crashes (the
    /// bench's tables). Its rounds test every edit of their text in the last round; the
    /// other presets' last rounds recall the memory of failed edits too
    /// (`last_round_memory`).
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
        let passes = match name.trim().to_ascii_lowercase().as_str() {
            "smallest" | "balanced" => Pass::ALL.to_vec(),
            _ => Vec::new(),
        };
        let smallest = name.trim().eq_ignore_ascii_case("smallest");
        let alternatives = if smallest {
            let balanced = TreeConfig {
                last_round_memory: false,
                ..TreeConfig::preset("balanced")?
            };
            let replacing = TreeConfig {
                token_replacements: true,
                ..balanced.clone()
            };
            vec![balanced, replacing]
        } else {
            Vec::new()
        };
        Ok(TreeConfig {
            passes,
            alternatives,
            closure: true,
            token_replacements: false,
            edit_memory: true,
            last_round_memory: !smallest,
            order: TraversalOrder::UsesFirst,
            ..TreeConfig::new(base, hoist)
        })
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
        if self.base.is_recursive() {
            match self.order {
                TraversalOrder::BreadthFirst => {}
                TraversalOrder::DepthFirst => name.push_str(" depth-first"),
                TraversalOrder::SizeFirst => name.push_str(" size-first"),
                TraversalOrder::UsesFirst => name.push_str(" uses-first"),
            }
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
            ("sizefirst", TraversalOrder::SizeFirst),
            ("usesfirst", TraversalOrder::UsesFirst),
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
        if !recursive && order != TraversalOrder::BreadthFirst {
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
        TreeConfig::preset("balanced")
            .unwrap_or_else(|_| TreeConfig::new(Base::Hddr, Hoisting::Interlace))
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
            s.pass_start = config.fixpoint.then(|| s.current.clone());
            hdd::recursive(s, step, config.order);
            s.pass_start = None;
        } else {
            hdd::levels(s, step)
        }
    });
}

/// What [`reduce_tree`] (and `reduce_files`) return.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reduced {
    /// The result (always interesting if the input was).
    pub text: Vec<u8>,
    /// Does a call refer to the declaration of the function it calls, for this oracle?
    /// `Some(false)` once the oracle accepted a candidate without the only declaration of a
    /// function it calls (C89's implicit declaration), `Some(true)` once it rejected every
    /// such candidate it was asked, `None` if it was not asked (see `closure::probe_calls`).
    pub calls_refer: Option<bool>,
}

/// Reduce `tree`; returns the result (always interesting if the input was).
///
/// One *round* runs the stand-alone hoisting phase (`Hoist*`, `Hoist^r*`, `Coarse Hoist*`,
/// ... matching the base) when `config.hoist` has one, then the pruning phase (interlaced with
/// hoisting when `config.hoist` says so), each to its fixed point when `config.fixpoint`;
/// with `final_text_pass` the result is further reduced as text (lines, then characters); then
/// the transformation passes of `config.passes` (see [`Pass`]). With `config.fixpoint` rounds
/// repeat until one whole round leaves the text unchanged (the joint fixed point); between
/// rounds the tree is rebuilt from the current text, so replacement strings left behind
/// (`;`, `0`, `{}`) become ordinary nodes again. Since a round is a function of the text
/// alone, running treedd on its own output changes nothing. Returns early, with the best
/// result so far, once the judge is cancelled. What each round did is reported to the
/// judge's observer ([`Judge::record`]).
pub fn reduce_tree(tree: &mut RTree, judge: &Judge, config: &TreeConfig) -> Reduced {
    reduce_tree_knowing(tree, judge, config, None)
}

/// [`reduce_tree`], knowing already what [`Reduced::calls_refer`] says (an earlier
/// reduction with the same oracle learnt it).
pub(crate) fn reduce_tree_knowing(
    tree: &mut RTree,
    judge: &Judge,
    config: &TreeConfig,
    mut calls_refer: Option<bool>,
) -> Reduced {
    let text = judge.with_lookahead(config.ddmin.jobs, || {
        if config.alternatives.is_empty() {
            rounds(tree, judge, config, &mut 0, &mut calls_refer)
        } else {
            portfolio(tree, judge, config, &mut calls_refer)
        }
    });
    Reduced { text, calls_refer }
}

/// [`reduce_tree`] with [`TreeConfig::alternatives`]: every strategy from the start, the
/// smallest result, then the strategies in turn on it until a whole turn changes nothing.
fn portfolio(
    tree: &mut RTree,
    judge: &Judge,
    config: &TreeConfig,
    calls: &mut Option<bool>,
) -> Vec<u8> {
    let lang = tree.lang();
    let start = tree.unparse();
    let mut strategies = vec![TreeConfig {
        alternatives: Vec::new(),
        ..config.clone()
    }];
    strategies.extend(config.alternatives.iter().map(|a| TreeConfig {
        ddmin: config.ddmin.clone(),
        alternatives: Vec::new(),
        ..a.clone()
    }));
    let mut round = 0;
    let mut best = rounds(tree, judge, &strategies[0], &mut round, calls);
    for strategy in &strategies[1..] {
        if judge.is_cancelled() {
            return best;
        }
        let Ok(mut t) = RTree::build(lang, &start) else {
            continue;
        };
        let out = rounds(&mut t, judge, strategy, &mut round, calls);
        if passes::chars(&out) < passes::chars(&best) {
            best = out;
        }
    }
    for _ in 0..MAX_ROUNDS {
        let before = best.clone();
        for strategy in &strategies {
            if judge.is_cancelled() {
                return best;
            }
            let Ok(mut t) = RTree::build(lang, &best) else {
                return best;
            };
            best = rounds(&mut t, judge, strategy, &mut round, calls);
        }
        if best == before || !config.fixpoint {
            break;
        }
    }
    if judge.is_cancelled() {
        return best;
    }
    if let Ok(t) = RTree::build(lang, &best) {
        *tree = t;
    }
    best
}

/// The state of [`rounds`] between two of its steps (see `Judge::steps`, which keeps it
/// before each step so that a failed assumption can take the rounds back to it).
#[derive(Clone)]
struct RoundState {
    /// The number of the current round in `--stats` (after the rounds of earlier strategies).
    round: usize,
    /// The current round of this strategy, from 0.
    iteration: usize,
    /// The next step of the round: 0 the tree phase, `k` the `k`-th pass.
    step: usize,
    /// The text at the start of the round, and now.
    before: Vec<u8>,
    current: Vec<u8>,
    /// This round runs with the reference closure.
    closure: bool,
    /// This round's tree phase replaces tokens (see `TreeConfig::token_replacements`).
    tokens: bool,
    /// This round consults the memory of failed edits (see `TreeConfig::edit_memory`): all
    /// of it, or (the last round, `recall` false) only the edits that failed in this round,
    /// from the `recall_from`-th remembered on. While a round changes nothing, its text is
    /// the one it started with, where a recalled edit is a candidate the cache knows: the
    /// last round still tests every edit of its text.
    recall: bool,
    recall_from: usize,
    /// The tree the first round starts from, while it is the caller's (the early strips
    /// drop it; the later rounds build theirs from the text).
    tree: Option<RTree>,
    /// The early strips and bodies are still to run, before the first tree phase
    /// (`Passes::early_strip`, `Passes::early_bodies`).
    early: bool,
    /// What the oracle is known to do with calls ([`Reduced::calls_refer`]).
    calls_refer: Option<bool>,
}

/// The rounds of [`reduce_tree`] to the joint fixed point; `round` numbers them (in
/// `--stats`) after the rounds of earlier strategies; `calls` is what is known of calls
/// ([`Reduced::calls_refer`]). Each round is a tree phase and then the passes, run as steps
/// of [`Judge::steps`].
fn rounds(
    tree: &mut RTree,
    judge: &Judge,
    config: &TreeConfig,
    round: &mut usize,
    calls: &mut Option<bool>,
) -> Vec<u8> {
    let lang = tree.lang();
    // The tree phase's configuration; each round sets `closure` and `token_replacements`.
    let phase = TreeConfig {
        alternatives: Vec::new(),
        ..config.clone()
    };
    // The first round's tree moves into the state (`tree` gets the last round's at the end).
    let first = match RTree::build(lang, b"") {
        Ok(empty) => std::mem::replace(tree, empty),
        Err(_) => tree.clone(),
    };
    let start = RoundState {
        round: *round,
        iteration: 0,
        step: 0,
        before: Vec::new(),
        current: first.unparse(),
        closure: config.closure && config.fixpoint,
        tokens: config.token_replacements || !config.fixpoint,
        recall: config.edit_memory && config.fixpoint,
        recall_from: 0,
        tree: Some(first),
        early: config.passes.contains(&Pass::Strip) || config.passes.contains(&Pass::Bodies),
        calls_refer: *calls,
    };
    let facts = passes::FactsCache::default();
    // Each strategy remembers its own failed edits: it takes the path it takes alone.
    judge.forget_failed_edits();
    let end = judge.steps(start, |st| {
        let memory = config.edit_memory && config.fixpoint;
        judge.recall_failed_edits(memory.then_some(if st.recall { 0 } else { st.recall_from }));
        if st.early {
            // What the grammar does not parse, and the bodies of functions, go before the
            // first tree is reduced; the round's `strip` and `bodies` passes do the same, so
            // the fixed point is unchanged.
            st.early = false;
            // The early passes make the facts of the text: its tree goes first (it is built
            // again from the text, the same if they change nothing), or a large text's tree
            // and facts would take memory at once.
            st.tree = None;
            let mut p = Passes::new(lang, judge, &config.ddmin, st.current.clone(), &facts);
            for pass in [Pass::Strip, Pass::Bodies] {
                if !config.passes.contains(&pass) || judge.is_cancelled() {
                    continue;
                }
                let size = passes::chars(&p.current);
                recorded(judge, st.round + 1, format!("{pass} (early)"), size, || {
                    let accepted = match pass {
                        Pass::Strip => p.early_strip(),
                        _ => p.early_bodies(),
                    };
                    (accepted, passes::chars(&p.current))
                });
            }
            if p.current != st.current {
                st.current = p.current;
            }
            return judge.is_cancelled();
        }
        if st.step == 0 {
            st.round += 1;
            st.before = st.current.clone();
            facts.keep_only(&st.current);
            let mut t = match st.tree.take() {
                Some(t) => t,
                None => {
                    facts.forget();
                    match RTree::build(lang, &st.current) {
                        Ok(t) => t,
                        Err(_) => return true,
                    }
                }
            };
            let after_phase = |text: &[u8], limit: usize| {
                Passes::new(lang, judge, &config.ddmin, text.to_vec(), &facts)
                    .first_candidates(&config.passes, limit)
            };
            let cfg = &TreeConfig {
                closure: st.closure,
                token_replacements: st.tokens,
                ..phase.clone()
            };
            let size = passes::chars(&st.current);
            recorded(judge, st.round, "tree".to_string(), size, || {
                st.current =
                    reduce_then(&mut t, judge, cfg, Some(&after_phase), &mut st.calls_refer);
                let accepted = u64::from(st.current != st.before);
                (accepted, passes::chars(&st.current))
            });
        } else {
            let k = st.step - 1;
            let pass = config.passes[k];
            let current = std::mem::take(&mut st.current);
            let mut p = Passes::new(lang, judge, &config.ddmin, current, &facts);
            p.announce(&config.passes[k..]);
            let size = passes::chars(&p.current);
            let before = memory.then(|| p.current.clone());
            recorded(judge, st.round, pass.name().to_string(), size, || {
                let accepted = p.run(pass);
                (accepted, passes::chars(&p.current))
            });
            if let Some(before) = before {
                // A pass that only renamed: the memory names edits over the old spellings.
                judge.note_renames(&before, &p.current);
            }
            st.current = p.current;
        }
        if judge.is_cancelled() {
            return true;
        }
        st.step += 1;
        if st.step <= config.passes.len() {
            return false;
        }
        // The end of a round.
        st.step = 0;
        st.iteration += 1;
        if !config.fixpoint || st.iteration >= MAX_ROUNDS {
            return true;
        }
        if st.current == st.before {
            // The closure may keep a sibling that only looks referred to (two locals of one
            // name), a token may need its replacement once the structure is gone, and an edit
            // recalled as failed may pass since: a round without the closure and (unless
            // `last_round_memory`) the memory of failed edits, and with token replacements,
            // must find nothing either.
            let strict = !config.last_round_memory;
            if st.closure || !st.tokens || (st.recall && strict) {
                st.closure = false;
                st.tokens = true;
                if strict {
                    st.recall = false;
                    st.recall_from = judge.failed_edits();
                }
                return false;
            }
            return true;
        }
        st.closure = config.closure;
        st.tokens = config.token_replacements;
        st.recall = config.edit_memory;
        false
    });
    judge.recall_failed_edits(None);
    *round = end.round;
    *calls = end.calls_refer;
    // Once cancelled, the caller only wants the text (a megabyte's tree takes seconds).
    if !judge.is_cancelled() {
        if let Ok(t) = RTree::build(lang, &end.current) {
            *tree = t;
        }
    }
    end.current
}

/// Run one step of a round and report it to the judge's observer (for `--stats`): its
/// oracle runs, and what `step` gives back: the candidates it accepted and the size of the
/// text after it, against `size` before (non-whitespace characters).
fn recorded(
    judge: &Judge,
    round: usize,
    pass: String,
    size: usize,
    step: impl FnOnce() -> (u64, usize),
) {
    let runs = judge.stats().oracle_runs;
    let (accepted, after) = step();
    judge.record(PassRecord {
        round,
        pass,
        oracle_runs: judge.stats().oracle_runs - runs,
        accepted,
        chars_removed: size as i64 - after as i64,
    });
}

/// A safety net for the joint fixed point: every round shrinks the text or moves identifier
/// occurrences down a well-founded order, so this is never reached in practice.
const MAX_ROUNDS: usize = 100;

#[cfg(test)]
pub(crate) fn reduce<T: Tree>(tree: &mut T, judge: &Judge, config: &TreeConfig) -> Vec<u8> {
    reduce_then(tree, judge, config, None, &mut None)
}

/// [`reduce`], told what follows its last phase (see `Session::after_phase`); `calls` is what
/// is known of calls ([`Reduced::calls_refer`]), asked here if nothing is.
fn reduce_then<T: Tree>(
    tree: &mut T,
    judge: &Judge,
    config: &TreeConfig,
    after_phase: Option<crate::session::AfterPhase<'_>>,
    calls: &mut Option<bool>,
) -> Vec<u8> {
    let coarse = config.base.is_coarse();
    let mut s = Session::new(tree, judge, &config.ddmin);
    s.closure = config.closure;
    if s.closure {
        if calls.is_none() {
            *calls = crate::closure::probe_calls(&mut s);
        }
        if *calls == Some(false) {
            s.closure_calls = crate::session::Calls::Ignored;
        }
    }
    if config.hoist.has_pre() {
        run_phase(
            &mut s,
            config,
            Step {
                prune: false,
                hoist: true,
                coarse,
                tokens: config.token_replacements,
            },
        );
    }
    if !s.cancelled() {
        let step = Step {
            prune: true,
            hoist: config.hoist.has_interlace(),
            coarse,
            tokens: config.token_replacements,
        };
        // The transformation passes follow this phase, unless the text pass does.
        s.after_phase = after_phase.filter(|_| !config.final_text_pass);
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

#[cfg(test)]
mod tests;

/// Strategies with alternatives (the `smallest` preset), on real C trees.
#[cfg(test)]
mod portfolio_tests;

/// The papers' examples (HDD with hoisting, figs. 3 and 5) reduced with their real oracles (fixtures/).
#[cfg(test)]
mod fixture_tests;
