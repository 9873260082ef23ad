//! Configuration and entry point of tree reduction (issue 4).
//!
//! The 16 configurations of the dissertation's Table 7.1 are `Base` x `Hoisting`; each has the
//! paper's name (`HDD*`, `Hoist^r*+HDDH^r*`, `Coarse HDDH*`, ...), which [`TreeConfig::name`]
//! prints and [`TreeConfig::from_name`] parses. Three presets (`smallest`, `balanced`,
//! `fastest`) name the configurations chosen from our measurements (see `preset`).

use std::fmt;
use std::str::FromStr;

use treedd_tree::RTree;

use crate::passes::{self, Passes};
use crate::session::{Session, Step, Tree};
use crate::{fixpoint, hdd, reduce_text, DdminOptions, Judge, Pass, PassRecord, TextUnit};

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
    /// The transformation passes run after the tree algorithm in every round.
    pub passes: Vec<Pass>,
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
    /// The transformation passes were chosen on the real compiler crashes of
    /// `../shared/suites/c-ice` first (docs/benchmarks.md, "Transformation passes"): `balanced`
    /// runs the cheap ones (`literals`, `inline`, `inline-calls`, `rewrite`, `replace-ids`,
    /// `rename`, `params`: each makes a few candidates per function, statement or name),
    /// `smallest` adds `subtrees` and `tokens`, `fastest` runs none. The figures behind the
    /// choice (sizes against C-Reduce's, oracle runs) are in that section of the docs.
    /// `smallest` also runs `balanced` from the input as an alternative (see
    /// [`TreeConfig::alternatives`]): HDD's path and HDDr's differ, and on one real gcc crash
    /// of six the default's is the shorter (59 vs 65 characters).
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
            "smallest" => Pass::ALL.to_vec(),
            "balanced" => vec![
                Pass::Literals,
                Pass::Inline,
                Pass::InlineCalls,
                Pass::Rewrite,
                Pass::ReplaceIds,
                Pass::Rename,
                Pass::Params,
            ],
            _ => Vec::new(),
        };
        let alternatives = if name.trim().eq_ignore_ascii_case("smallest") {
            vec![TreeConfig::preset("balanced")?]
        } else {
            Vec::new()
        };
        Ok(TreeConfig {
            passes,
            alternatives,
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
            hdd::recursive(s, step, config.order)
        } else {
            hdd::levels(s, step)
        }
    });
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
/// result so far, once the judge is cancelled. What each round did is recorded in the
/// judge ([`Judge::records`]).
pub fn reduce_tree(tree: &mut RTree, judge: &Judge, config: &TreeConfig) -> Vec<u8> {
    judge.with_lookahead(config.ddmin.jobs, || {
        if config.alternatives.is_empty() {
            rounds(tree, judge, config, &mut 0)
        } else {
            portfolio(tree, judge, config)
        }
    })
}

/// [`reduce_tree`] with [`TreeConfig::alternatives`]: every strategy from the start, the
/// smallest result, then the strategies in turn on it until a whole turn changes nothing.
fn portfolio(tree: &mut RTree, judge: &Judge, config: &TreeConfig) -> Vec<u8> {
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
    let mut best = rounds(tree, judge, &strategies[0], &mut round);
    for strategy in &strategies[1..] {
        if judge.is_cancelled() {
            return best;
        }
        let Ok(mut t) = RTree::build(lang, &start) else {
            continue;
        };
        let out = rounds(&mut t, judge, strategy, &mut round);
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
            best = rounds(&mut t, judge, strategy, &mut round);
        }
        if best == before || !config.fixpoint {
            break;
        }
    }
    if let Ok(t) = RTree::build(lang, &best) {
        *tree = t;
    }
    best
}

/// The rounds of [`reduce_tree`] to the joint fixed point; `round` numbers them (in
/// `--stats`) after the rounds of earlier strategies.
fn rounds(tree: &mut RTree, judge: &Judge, config: &TreeConfig, round: &mut usize) -> Vec<u8> {
    let lang = tree.lang();
    let mut current = tree.unparse();
    for iteration in 0..MAX_ROUNDS {
        *round += 1;
        let round = *round;
        let before = current.clone();
        if iteration > 0 {
            match RTree::build(lang, &current) {
                Ok(t) => *tree = t,
                Err(_) => break,
            }
        }
        let runs = judge.stats().oracle_runs;
        let size = passes::chars(&current);
        current = reduce(tree, judge, config);
        judge.record(PassRecord {
            round,
            pass: "tree".to_string(),
            oracle_runs: judge.stats().oracle_runs - runs,
            accepted: u64::from(current != before),
            chars_removed: size as i64 - passes::chars(&current) as i64,
        });
        let mut p = Passes::new(lang, judge, &config.ddmin, current);
        for (k, &pass) in config.passes.iter().enumerate() {
            if judge.is_cancelled() {
                break;
            }
            p.announce(&config.passes[k..]);
            let runs = judge.stats().oracle_runs;
            let size = passes::chars(&p.current);
            let accepted = p.run(pass);
            judge.record(PassRecord {
                round,
                pass: pass.name().to_string(),
                oracle_runs: judge.stats().oracle_runs - runs,
                accepted,
                chars_removed: size as i64 - passes::chars(&p.current) as i64,
            });
        }
        current = p.current;
        if !config.fixpoint || judge.is_cancelled() || current == before {
            break;
        }
    }
    current
}

/// A safety net for the joint fixed point: every round shrinks the text or moves identifier
/// occurrences down a well-founded order, so this is never reached in practice.
const MAX_ROUNDS: usize = 100;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::toy;

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

/// Strategies with alternatives (the `smallest` preset), on real C trees.
#[cfg(test)]
mod portfolio_tests {
    use std::sync::Arc;

    use treedd_tree::{Lang, RTree};

    use super::*;
    use crate::{FnOracle, JudgeOptions};

    const SRC: &str = "int helper_function(int value) { return value + 1; }\n\
                       int unused_global = 42;\n\
                       int main(void) { int local = helper_function(3); return local; }\n";

    /// Interesting: a `main` that returns something computed by a call.
    fn interesting(c: &str) -> bool {
        c.contains("main") && c.contains("return") && c.contains("(3)")
    }

    fn run(config: &TreeConfig, src: &str) -> (String, u64) {
        let oracle = Arc::new(FnOracle::new(|c: &[u8]| {
            interesting(std::str::from_utf8(c).unwrap_or(""))
        }));
        let judge = Judge::new(Box::new(Arc::clone(&oracle)), JudgeOptions::default());
        let mut tree = RTree::build(Lang::C, src.as_bytes()).unwrap();
        let out = reduce_tree(&mut tree, &judge, config);
        (String::from_utf8(out).unwrap(), oracle.runs())
    }

    fn chars(s: &str) -> usize {
        s.split_whitespace().map(str::len).sum()
    }

    #[test]
    fn the_smallest_strategy_wins_and_the_result_is_a_fixed_point_of_all() {
        // Coarse HDD^r without passes cannot rename; HDD* with `rename` can: alone, each
        // leaves something the other removes.
        let coarse = TreeConfig::new(Base::CoarseHddr, Hoisting::None);
        let renaming = TreeConfig {
            passes: vec![Pass::Rename],
            ..TreeConfig::new(Base::Hdd, Hoisting::None)
        };
        let (alone_coarse, _) = run(&coarse, SRC);
        let (alone_renaming, _) = run(&renaming, SRC);
        assert!(
            chars(&alone_renaming) < chars(&alone_coarse),
            "{alone_renaming} / {alone_coarse}"
        );
        let both = TreeConfig {
            alternatives: vec![renaming.clone()],
            ..coarse.clone()
        };
        let (out, runs) = run(&both, SRC);
        assert!(interesting(&out), "{out}");
        assert!(
            chars(&out) <= chars(&alone_renaming),
            "{out} / {alone_renaming}"
        );
        // A joint fixed point: neither strategy changes it, nor the portfolio itself.
        for config in [&coarse, &renaming, &both] {
            assert_eq!(run(config, &out).0, out, "{}", config.name());
        }
        assert!(runs > 0);
    }

    #[test]
    fn smallest_is_never_larger_than_balanced() {
        let smallest = TreeConfig::preset("smallest").unwrap();
        assert_eq!(smallest.alternatives.len(), 1);
        assert_eq!(
            smallest.alternatives[0].passes,
            TreeConfig::preset("balanced").unwrap().passes
        );
        let (out, _) = run(&smallest, SRC);
        let (balanced, _) = run(&TreeConfig::preset("balanced").unwrap(), SRC);
        assert!(chars(&out) <= chars(&balanced), "{out} / {balanced}");
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
