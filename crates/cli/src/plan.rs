//! The settings derived from the flags (`Plan`), with every conflict rejected before any
//! file is touched; the default output name; `--grammar DIR` loading. A directory input's
//! settings are in `dir_input`.

mod dir_input;

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

use treedd_reduce::{Base, Hoisting, Minimizer, TraversalOrder, TreeConfig};
use treedd_tree::Lang;

use crate::exit::{self, Fatal};
use crate::flags::{Algorithm, Args, Hoist, Preset, Unit};

/// Settings derived from the flags, with conflicts rejected.
pub(crate) struct Plan {
    pub(crate) lang: Lang,
    pub(crate) algorithm: Algorithm,
    pub(crate) hoist: Hoist,
    pub(crate) preset: Preset,
    /// Set when text reduction runs (text language or `--algorithm ddmin`; for a directory,
    /// the unit of its files without a grammar).
    pub(crate) unit: Option<Unit>,
    /// HDDr's work order (`--order` or the preset's).
    pub(crate) order: TraversalOrder,
    /// The list minimizer (`--list-minimizer` or the preset's).
    pub(crate) minimizer: Minimizer,
    pub(crate) output: PathBuf,
    /// A directory input (or several files): see `crate::dir`. `lang` is then `Text` and
    /// means nothing (each file has its own).
    pub(crate) tree: Option<crate::dir::TreeInput>,
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
        let minimizer = args
            .list_minimizer
            .map_or(preset_config.ddmin.minimizer, |m| m.value());
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
                    return Err(conflict(format!(
                        "{flag} is a ddmin option, but the list minimizer is {}",
                        minimizer.name()
                    ))
                    .into());
                }
            }
        }
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
        Ok(Plan {
            lang,
            algorithm,
            hoist,
            preset,
            unit: text.then(|| args.unit.unwrap_or(Unit::LineChar)),
            order,
            minimizer,
            output,
            tree: None,
        })
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
}
