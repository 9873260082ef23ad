//! Configuration and entry point of tree reduction (issue 4).
//!
//! The 16 configurations of the dissertation's Table 7.1 are `Base` x `Hoisting`; each has the
//! paper's name (`HDD*`, `Hoist^r*+HDDH^r*`, `Coarse HDDH*`, ...), which [`TreeConfig::name`]
//! prints and [`TreeConfig::from_name`] parses. Three presets (`smallest`, `balanced`,
//! `fastest`) name the configurations chosen from our measurements (see `preset`).

use std::fmt;
use std::str::FromStr;

use treedd_tree::RTree;

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

    /// A configuration chosen from measurements (`cargo xtask bench`, the table in
    /// docs/benchmarks.md): `smallest` gives the smallest outputs, `fastest` needs the fewest
    /// oracle runs, `balanced` (the default) is close to `smallest` in size at a lower cost.
    pub fn preset(name: &str) -> Result<TreeConfig, ConfigNameError> {
        let (base, hoist) = match name.trim().to_ascii_lowercase().as_str() {
            "smallest" => (Base::Hddr, Hoisting::Both),
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

/// The state shared by every algorithm of one reduction: the tree, the judge, the ddmin
/// options and the serialization of the current tree.
///
/// **Invariant:** `current` is `tree.unparse()` and is interesting (every commit to the tree
/// was tested interesting first).
pub(crate) struct Session<'a> {
    pub tree: &'a mut RTree,
    pub judge: &'a Judge,
    pub ddmin: &'a DdminOptions,
    pub current: Vec<u8>,
}

impl<'a> Session<'a> {
    pub fn new(tree: &'a mut RTree, judge: &'a Judge, ddmin: &'a DdminOptions) -> Session<'a> {
        let current = tree.unparse();
        Session {
            tree,
            judge,
            ddmin,
            current,
        }
    }

    /// Re-serialize after a commit.
    pub fn refresh(&mut self) {
        self.current = self.tree.unparse();
    }

    pub fn cancelled(&self) -> bool {
        self.judge.is_cancelled()
    }

    /// Ask about the tree with `edits` applied (see [`candidate_test`]).
    pub fn test_edits(&self, edits: &dyn Fn(treedd_tree::NodeId) -> treedd_tree::Edit) -> bool {
        candidate_test(self.judge, &self.current, &self.tree.unparse_with(edits))
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
fn run_phase(s: &mut Session, config: &TreeConfig, step: Step) {
    fixpoint::fixpoint(s, config.fixpoint, |s| {
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
        let d = TreeConfig::default();
        let b = TreeConfig::preset("balanced").unwrap();
        assert_eq!((d.base, d.hoist), (b.base, b.hoist));
        assert!(TreeConfig::preset("tiny").is_err());
    }
}
