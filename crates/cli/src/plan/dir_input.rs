//! The settings of a directory input, and its conflicts (exit 7), before any file is touched.

use std::fs;
use std::path::{Path, PathBuf};

use treedd_reduce::TreeConfig;
use treedd_tree::Lang;

use super::{list_minimizer, preset_defaults, work_order, Plan, Resolved};
use crate::dir::{Source, TreeInput};
use crate::exit::{self, Fatal};
use crate::flags::{Algorithm, Args, Hoist, Preset, Unit};

/// The [`Plan`] of a directory input: the files' languages come from their extensions, so
/// `--language`, `--grammar` and the debug options of one file's tree conflict; the output
/// is a directory that neither is, holds nor lies inside the input.
pub(crate) fn plan(args: &Args, tree: TreeInput) -> anyhow::Result<Plan> {
    let conflict = |msg: &str| -> anyhow::Error { Fatal::new(exit::CONFLICT, msg).into() };
    if args.language.is_some() || args.grammar.is_some() {
        return Err(conflict(
            "--language and --grammar choose the language of one input file; the files of a directory are reduced in the languages of their extensions (as text without a known one)",
        ));
    }
    if args.dump_tree || args.print_tree_stats {
        return Err(conflict(
            "--dump-tree and --print-tree-stats show the tree of one file, but the input is a directory",
        ));
    }
    if args.no_subsets && args.no_complements {
        return Err(conflict(
            "--no-subsets and --no-complements together leave ddmin nothing to test",
        ));
    }
    let text_only = args.algorithm == Some(Algorithm::Ddmin);
    if text_only {
        for (set, flag) in [
            (args.hoist.is_some_and(|h| h != Hoist::None), "--hoist"),
            (args.no_fixpoint, "--no-fixpoint"),
            (args.final_text_pass, "--final-text-pass"),
            (args.passes.is_some(), "--passes"),
        ] {
            if set {
                return Err(conflict(&format!(
                    "{flag} applies to the tree algorithms, but --algorithm ddmin reduces every file as text"
                )));
            }
        }
    }
    let preset = args.preset.unwrap_or(Preset::Balanced);
    let (algorithm, hoist) = if text_only {
        (Algorithm::Ddmin, Hoist::None)
    } else {
        let (a, h) = preset_defaults(preset);
        (args.algorithm.unwrap_or(a), args.hoist.unwrap_or(h))
    };
    // Every file is reduced with the list minimizer and HDDr work order of one input file.
    let preset_config = TreeConfig::preset(preset.name()).unwrap_or_default();
    let minimizer = list_minimizer(args, &preset_config).map_err(|m| conflict(&m))?;
    let order = work_order(args, algorithm, &preset_config).map_err(|m| conflict(&m))?;
    let output = args.output.clone().unwrap_or_else(|| tree.default_output());
    check_paths(&tree, &output, args.stats.as_deref())?;
    let resolved = Resolved {
        order,
        minimizer,
        lang: Lang::Text,
        algorithm,
        hoist,
        preset,
        unit: Some(args.unit.unwrap_or(Unit::LineChar)),
        output,
        tree: Some(tree),
    };
    Ok(Plan::new(args, resolved))
}

/// `path` absolute, with its existing part resolved (symbolic links, `..`).
fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = fs::canonicalize(path) {
        return p;
    }
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) => resolved(parent).join(name),
        _ => abs,
    }
}

/// The output directory is replaced whole at every improvement: it may not be, hold or lie
/// inside an input, nor be a directory of something else; `--stats` may not go into the
/// input or the output.
fn check_paths(tree: &TreeInput, output: &Path, stats: Option<&Path>) -> Result<(), Fatal> {
    let conflict = |msg: String| Fatal::new(exit::CONFLICT, msg);
    let out = resolved(output);
    for input in tree.paths() {
        let inp = resolved(input);
        let how = if out == inp {
            "is"
        } else if out.starts_with(&inp) {
            "is inside"
        } else if inp.starts_with(&out) {
            "holds"
        } else {
            continue;
        };
        return Err(conflict(format!(
            "--output {} {how} the input {}; treedd never modifies its input",
            output.display(),
            input.display()
        )));
    }
    if let Some(stats) = stats {
        let s = resolved(stats);
        let dirs = match &tree.source {
            Source::Dir(dir) => vec![resolved(dir)],
            Source::Files(files) => files.iter().map(|f| resolved(f)).collect(),
        };
        if s.starts_with(&out) || dirs.iter().any(|d| s.starts_with(d)) {
            return Err(conflict(format!(
                "--stats {} is inside the input or the output directory",
                stats.display()
            )));
        }
    }
    // Not treedd's own output (by its default name or an unfinished reduction's state): a
    // directory that holds something is not replaced.
    let ours = output
        .file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with(".reduced"))
        || crate::resume::state_path(output).exists();
    let full = fs::read_dir(output).is_ok_and(|mut d| d.next().is_some());
    if full && !ours {
        return Err(conflict(format!(
            "--output {} is a directory that is not empty; treedd replaces its output directory whole, so give a new name (or remove it first)",
            output.display()
        )));
    }
    Ok(())
}
