//! The one resolved configuration of a run (`Plan`), derived from the flags with every
//! conflict rejected before any file is touched (as ripgrep's `HiArgs` from its `LowArgs`:
//! once the plan exists, nothing reads the flags); the default output name; `--grammar DIR`
//! loading. A directory input's settings and conflicts are in `dir_input`.

mod dir_input;

use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};

use treedd_reduce::{Base, DdminOptions, Hoisting, Minimizer, TraversalOrder, TreeConfig};
use treedd_tree::Lang;

use crate::exit::{self, Fatal};
use crate::flags::{Algorithm, Args, ComplementOrder, Hoist, Preset, Timeout, Unit};

/// Settings derived from the flags, with conflicts rejected.
pub(crate) struct Plan {
    /// INPUT as given (a file, a directory, or the first of several files).
    pub(crate) input: PathBuf,
    pub(crate) lang: Lang,
    pub(crate) algorithm: Algorithm,
    pub(crate) hoist: Hoist,
    pub(crate) preset: Preset,
    /// Set when text reduction runs (text language or `--algorithm ddmin`; for a directory,
    /// the unit of its files without a grammar).
    pub(crate) unit: Option<Unit>,
    /// HDDr's work order (`--order` or the preset's).
    pub(crate) order: TraversalOrder,
    pub(crate) output: PathBuf,
    /// A directory input (or several files): see `crate::dir`. `lang` is then `Text` and
    /// means nothing (each file has its own).
    pub(crate) tree: Option<crate::dir::TreeInput>,
    /// The tree algorithms' configuration, with the ddmin options of every list (text
    /// reduction uses those alone).
    pub(crate) config: TreeConfig,
    /// The content cache (`--no-cache` turns it off).
    pub(crate) cache: bool,
    /// The syntax filter (`--no-syntax-filter` turns it off).
    pub(crate) syntax_filter: bool,
    /// The oracle: `--test`, `--launcher`, `--timeout` (`None`: derived from the original's
    /// run), `--workdir`.
    pub(crate) test: PathBuf,
    pub(crate) launcher: Vec<OsString>,
    pub(crate) timeout: Option<Timeout>,
    pub(crate) workdir: Option<PathBuf>,
    pub(crate) jobs: u32,
    /// `--check-original N` (1 without it) and `--confirm N` (0 without it).
    pub(crate) check_original: u32,
    pub(crate) confirm: u32,
    pub(crate) resume: bool,
    pub(crate) verify: bool,
    /// The final layout step (`--no-format` skips it).
    pub(crate) format: bool,
    pub(crate) quiet: bool,
    pub(crate) stats: Option<PathBuf>,
    /// `--dump-tree` and `--print-tree-stats`: show the tree and stop.
    pub(crate) dump_tree: bool,
    pub(crate) print_tree_stats: bool,
}

/// What a file's plan and a directory's share once each has resolved its own: the language
/// settings (`lang`, `tree`, `unit`, algorithm and hoisting) and the output.
struct Resolved {
    lang: Lang,
    tree: Option<crate::dir::TreeInput>,
    algorithm: Algorithm,
    hoist: Hoist,
    preset: Preset,
    unit: Option<Unit>,
    order: TraversalOrder,
    minimizer: Minimizer,
    output: PathBuf,
}

impl Plan {
    /// The plan of `resolved` and the flags every input shares.
    fn new(args: &Args, r: Resolved) -> Plan {
        let ddmin = ddmin_options(args, r.unit, r.minimizer);
        let config = tree_config(args, &r, ddmin);
        Plan {
            input: args.input.clone(),
            lang: r.lang,
            algorithm: r.algorithm,
            hoist: r.hoist,
            preset: r.preset,
            unit: r.unit,
            order: r.order,
            output: r.output,
            tree: r.tree,
            config,
            cache: !args.no_cache,
            syntax_filter: !args.no_syntax_filter,
            // clap requires --test unless a debug option that exits early is given.
            test: args.test.clone().unwrap_or_default(),
            launcher: (args.launcher.as_ref())
                .map(|l| l.0.iter().map(OsString::from).collect())
                .unwrap_or_default(),
            timeout: args.timeout,
            workdir: args.workdir.clone(),
            jobs: args.jobs,
            check_original: args.check_original.unwrap_or(1),
            confirm: args.confirm.unwrap_or(0),
            resume: args.resume,
            verify: args.verify,
            format: !args.no_format,
            quiet: args.quiet,
            stats: args.stats.clone(),
            dump_tree: args.dump_tree,
            print_tree_stats: args.print_tree_stats,
        }
    }

    /// The tree algorithms run (on a file, or on the files of a directory that have a grammar).
    pub(crate) fn uses_trees(&self) -> bool {
        match &self.tree {
            Some(_) => self.algorithm != Algorithm::Ddmin,
            None => self.unit.is_none(),
        }
    }

    /// The units of text reduction.
    pub(crate) fn text_unit(&self) -> treedd_reduce::TextUnit {
        match self.unit.unwrap_or(Unit::LineChar) {
            Unit::Line => treedd_reduce::TextUnit::Line,
            Unit::Char => treedd_reduce::TextUnit::Char,
            Unit::LineChar => treedd_reduce::TextUnit::LineThenChar,
        }
    }
}

impl Plan {
    pub(crate) fn from_args(args: &Args) -> anyhow::Result<Plan> {
        if args.grammar.is_some() && args.language.is_some() {
            return Err(Fatal::new(
                exit::CONFLICT,
                "--grammar and --language both choose the language; give one".to_string(),
            )
            .into());
        }
        if let Some(tree) = crate::dir::TreeInput::from_args(args) {
            return dir_input::plan(args, tree);
        }
        // A run-time grammar is loaded (and maybe compiled) after every conflict check.
        let lang = match (&args.grammar, &args.language) {
            (Some(_), _) => None,
            (None, Some(name)) => Some(Lang::from_name(name).ok_or_else(|| {
                Fatal::new(
                    exit::LANGUAGE,
                    format!("unknown language {name:?}; use one of {}, or --grammar DIR", Lang::names()),
                )
            })?),
            (None, None) => Some(Lang::from_path(&args.input).ok_or_else(|| {
                // A missing input or a directory is that, whatever its name ends with.
                if let Err(unreadable) = crate::checks::regular_input(&args.input) {
                    return unreadable;
                }
                Fatal::new(
                    exit::LANGUAGE,
                    format!(
                        "cannot tell the language of {} from its extension; use --language {} (or --grammar DIR)",
                        args.input.display(),
                        Lang::names().replace(", ", "|")
                    ),
                )
            })?),
        };
        let conflict = |msg: String| Fatal::new(exit::CONFLICT, msg);
        if args.no_subsets && args.no_complements {
            return Err(conflict(
                "--no-subsets and --no-complements together leave ddmin nothing to test".into(),
            )
            .into());
        }
        let preset = args.preset.unwrap_or(Preset::Balanced);
        let text = lang == Some(Lang::Text) || args.algorithm == Some(Algorithm::Ddmin);
        if lang == Some(Lang::Text) {
            if let Some(a) = args.algorithm.filter(|&a| a != Algorithm::Ddmin) {
                return Err(conflict(format!(
                    "--algorithm {} needs a grammar, but the language is text",
                    a.name()
                ))
                .into());
            }
            if args.preset.is_some() {
                return Err(conflict(
                    "--preset chooses tree algorithms, but the language is text".into(),
                )
                .into());
            }
            if args.dump_tree || args.print_tree_stats {
                return Err(conflict(
                    "--dump-tree and --print-tree-stats need a grammar, but the language is text"
                        .into(),
                )
                .into());
            }
        }
        if text {
            if let Some(h) = args.hoist.filter(|&h| h != Hoist::None) {
                return Err(conflict(format!(
                    "--hoist {} needs a tree algorithm, but text is reduced by ddmin",
                    h.name()
                ))
                .into());
            }
            for (set, flag) in [
                (args.no_fixpoint, "--no-fixpoint"),
                (args.final_text_pass, "--final-text-pass"),
                (args.passes.is_some(), "--passes"),
            ] {
                if set {
                    return Err(conflict(format!(
                        "{flag} applies to the tree algorithms, but text is reduced by ddmin"
                    ))
                    .into());
                }
            }
        } else if args.unit.is_some() {
            return Err(conflict(format!(
                "--unit applies to text reduction only (--language text or --algorithm ddmin), but the language is {}",
                lang.map_or("given by --grammar", Lang::name)
            ))
            .into());
        }
        let preset_config = TreeConfig::preset(preset.name()).unwrap_or_default();
        let minimizer = list_minimizer(args, &preset_config).map_err(conflict)?;
        if let Some(order) = args.order {
            if text {
                return Err(conflict(format!(
                    "--order {} applies to the tree algorithms, but text is reduced by ddmin",
                    order.value().name()
                ))
                .into());
            }
        }
        let output = args
            .output
            .clone()
            .unwrap_or_else(|| default_output(&args.input));
        if same_file(&output, &args.input) {
            return Err(conflict(format!(
                "--output {} is the input file; treedd never modifies its input",
                output.display()
            ))
            .into());
        }
        if let Some(stats) = &args.stats {
            if same_file(stats, &args.input) || same_file(stats, &output) {
                return Err(conflict(format!(
                    "--stats {} is the input or the output file",
                    stats.display()
                ))
                .into());
            }
        }
        let (algorithm, hoist) = if text {
            (Algorithm::Ddmin, Hoist::None)
        } else {
            let (a, h) = preset_defaults(preset);
            (args.algorithm.unwrap_or(a), args.hoist.unwrap_or(h))
        };
        let order = work_order(args, algorithm, &preset_config).map_err(conflict)?;
        let lang = match (lang, &args.grammar) {
            (Some(lang), _) => lang,
            (None, Some(dir)) => load_grammar(dir)?,
            (None, None) => unreachable!("no language and no grammar"),
        };
        let resolved = Resolved {
            lang,
            tree: None,
            algorithm,
            hoist,
            preset,
            unit: text.then(|| args.unit.unwrap_or(Unit::LineChar)),
            order,
            minimizer,
            output,
        };
        Ok(Plan::new(args, resolved))
    }
}

/// `--grammar DIR`: compile (once, cached) and load a tree-sitter grammar.
fn load_grammar(dir: &Path) -> anyhow::Result<Lang> {
    let cache = treedd_tree::default_cache_dir();
    let loaded = treedd_tree::load_grammar(dir, &cache)
        .map_err(|e| Fatal::new(exit::LANGUAGE, format!("--grammar {}: {e}", dir.display())))?;
    if loaded.compiled {
        eprintln!(
            "treedd: compiled grammar {} into {} (cached for the next runs)",
            loaded.lang.name(),
            loaded.library.display()
        );
    }
    Ok(loaded.lang)
}

/// The tree configuration a preset stands for (chosen by the reduction crate from its
/// measurements), as CLI values.
pub(crate) fn preset_defaults(preset: Preset) -> (Algorithm, Hoist) {
    let config = TreeConfig::preset(preset.name()).unwrap_or_default();
    let algorithm = match config.base {
        Base::Hdd => Algorithm::Hdd,
        Base::Hddr => Algorithm::Hddr,
        Base::CoarseHdd => Algorithm::CoarseHdd,
        Base::CoarseHddr => Algorithm::CoarseHddr,
    };
    let hoist = match config.hoist {
        Hoisting::None => Hoist::None,
        Hoisting::Pre => Hoist::Pre,
        Hoisting::Interlace => Hoist::Interlace,
        Hoisting::Both => Hoist::Both,
    };
    (algorithm, hoist)
}

/// `crash.c` -> `crash.reduced.c`; `crash` -> `crash.reduced`; `.bashrc` -> `.bashrc.reduced`.
fn default_output(input: &Path) -> PathBuf {
    let stem = input.file_stem().unwrap_or(OsStr::new("input"));
    let mut name = stem.to_os_string();
    name.push(".reduced");
    if let Some(ext) = input.extension() {
        name.push(".");
        name.push(ext);
    }
    input.with_file_name(name)
}

/// True if both paths name the same existing file, or are spelled the same.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

/// The list minimizer: `--list-minimizer`, else the preset's; a probabilistic one (ProbDD,
/// CDD and their weighted variants) with an option of ddmin's is a conflict (the message).
pub(super) fn list_minimizer(args: &Args, preset: &TreeConfig) -> Result<Minimizer, String> {
    let minimizer = (args.list_minimizer).map_or(preset.ddmin.minimizer, |m| m.value());
    if minimizer.is_probabilistic() {
        for (set, flag) in [
            (args.split_factor.is_some(), "--split-factor"),
            (args.no_subsets, "--no-subsets"),
            (args.no_complements, "--no-complements"),
            (args.complements_first, "--complements-first"),
            (args.complement_order.is_some(), "--complement-order"),
            (args.greeddy, "--greeddy"),
        ] {
            if set {
                return Err(format!(
                    "{flag} is a ddmin option, but the list minimizer is {}",
                    minimizer.name()
                ));
            }
        }
    }
    Ok(minimizer)
}

/// The ddmin options of the flags (text reduction, and inside every tree algorithm); `unit`
/// is the text unit when text is reduced.
fn ddmin_options(args: &Args, unit: Option<Unit>, minimizer: Minimizer) -> DdminOptions {
    let defaults = DdminOptions::default();
    DdminOptions {
        split_factor: (args.split_factor).map_or(defaults.split_factor, |nu| nu.value()),
        subsets: !args.no_subsets,
        complements: !args.no_complements,
        complement_order: match args.complement_order {
            Some(ComplementOrder::Backward) => treedd_reduce::ComplementOrder::Backward,
            Some(ComplementOrder::Forward) => treedd_reduce::ComplementOrder::Forward,
            None => defaults.complement_order,
        },
        complements_first: args.complements_first,
        // line+char is DDMIN* whatever the flag says (see `reduce_text`).
        fixpoint: args.ddmin_fixpoint || unit == Some(Unit::LineChar),
        greeddy: args.greeddy,
        jobs: args.jobs as usize,
        minimizer,
        ..defaults
    }
}

/// The tree algorithms' configuration: the preset's, with what the flags change, and `ddmin`.
/// The transformation passes are `--passes` (in the order of `Pass::ALL`), none with
/// `--no-passes`, else the preset's; DDMIN keeps what kept siblings refer to (the reference
/// closure) unless `--no-reference-closure` or `--no-fixpoint`, and replaces tokens with
/// `--replace-tokens`.
fn tree_config(args: &Args, r: &Resolved, ddmin: DdminOptions) -> TreeConfig {
    let mut config = TreeConfig::preset(r.preset.name()).unwrap_or_default();
    config.base = match r.algorithm {
        Algorithm::Hddr => Base::Hddr,
        Algorithm::CoarseHdd => Base::CoarseHdd,
        Algorithm::CoarseHddr => Base::CoarseHddr,
        Algorithm::Hdd | Algorithm::Ddmin => Base::Hdd,
    };
    config.hoist = match r.hoist {
        Hoist::None => Hoisting::None,
        Hoist::Pre => Hoisting::Pre,
        Hoist::Interlace => Hoisting::Interlace,
        Hoist::Both => Hoisting::Both,
    };
    config.order = r.order;
    config.fixpoint = !args.no_fixpoint;
    config.final_text_pass = args.final_text_pass;
    config.ddmin = ddmin;
    if args.no_passes {
        config.passes = Vec::new();
    } else if let Some(list) = &args.passes {
        config.passes = (treedd_reduce::Pass::ALL.into_iter())
            .filter(|p| list.contains(p))
            .collect();
    }
    config.closure = !args.no_reference_closure && !args.no_fixpoint;
    config.edit_memory = !args.no_edit_memory && !args.no_fixpoint;
    config.last_round_memory &= config.edit_memory && !args.full_last_round;
    config.token_replacements |= args.replace_tokens;
    if args.replace_tokens {
        // Every strategy replaces tokens now: the preset's alternatives that exist only to
        // replace them would run a strategy twice.
        config.alternatives.retain(|a| !a.token_replacements);
    }
    for alternative in &mut config.alternatives {
        alternative.closure = config.closure;
        alternative.edit_memory = config.edit_memory;
        alternative.last_round_memory = config.last_round_memory;
        alternative.token_replacements |= args.replace_tokens;
        if let Some(order) = args.order.filter(|_| alternative.base.is_recursive()) {
            alternative.order = order.value();
        }
    }
    let own = args.algorithm.is_some() || args.hoist.is_some();
    if own || args.passes.is_some() || args.no_passes || args.no_fixpoint {
        // The preset's alternative strategies go with its own configuration only.
        config.alternatives.clear();
    }
    config
}

/// HDDr's work order: `--order`, else the preset's for the recursive algorithms and
/// breadth-first for the others; an order other than breadth-first for an algorithm without
/// a work list is a conflict (the message).
pub(super) fn work_order(
    args: &Args,
    algorithm: Algorithm,
    preset: &TreeConfig,
) -> Result<TraversalOrder, String> {
    let recursive = matches!(algorithm, Algorithm::Hddr | Algorithm::CoarseHddr);
    Ok(match args.order {
        Some(o) if !recursive && o.value() != TraversalOrder::BreadthFirst => {
            return Err(format!(
                "--order {} orders HDDr's work list, but the algorithm is {}",
                o.value().name(),
                algorithm.name()
            ));
        }
        Some(o) => o.value(),
        None if recursive => preset.order,
        None => TraversalOrder::BreadthFirst,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn default_output_inserts_reduced_before_the_extension() {
        let check = |input: &str, want: &str| {
            assert_eq!(default_output(Path::new(input)), PathBuf::from(want))
        };
        check("crash.c", "crash.reduced.c");
        check("dir/a.b.js", "dir/a.b.reduced.js");
        check("/x/crash", "/x/crash.reduced");
        check(".bashrc", ".bashrc.reduced");
    }

    #[test]
    fn replace_tokens_makes_every_strategy_replace_them_once() {
        let config = |flags: &[&str]| {
            let args =
                Args::try_parse_from(["treedd", "--test", "t.sh"].iter().chain(flags)).unwrap();
            let (algorithm, hoist) = preset_defaults(Preset::Smallest);
            let r = Resolved {
                lang: Lang::C,
                tree: None,
                algorithm,
                hoist,
                preset: Preset::Smallest,
                unit: None,
                order: TraversalOrder::SizeFirst,
                minimizer: Minimizer::Ddmin,
                output: PathBuf::from("x.reduced.c"),
            };
            tree_config(&args, &r, DdminOptions::default())
        };
        let replacing = |c: &TreeConfig| {
            (std::iter::once(c).chain(&c.alternatives))
                .map(|s| s.token_replacements)
                .collect::<Vec<_>>()
        };
        let smallest = config(&["--preset", "smallest", "x.c"]);
        assert_eq!(replacing(&smallest), [false, false, true]);
        // The alternative that only replaces tokens is the other one now: it goes.
        let all = config(&["--preset", "smallest", "--replace-tokens", "x.c"]);
        assert_eq!(replacing(&all), [true, true]);
        assert_eq!(all.alternatives[0].name(), smallest.alternatives[0].name());
    }
}
