//! Reduction of a directory: several files reduced jointly, as C-Vise and shrinkray do.
//!
//! The candidates are trees of files (encoded [`Files`]); the judge the caller gives is the
//! judge of whole trees. Rounds repeat until one changes nothing (with the tree
//! configuration's `fixpoint`; else one round):
//!
//! 1. *whole files*: ddmin over the files, removing as many whole files as the oracle allows;
//! 2. *each file*: every file, in path order, reduced by the tree algorithms and passes of its
//!    own language (by extension; files without a grammar by line/character ddmin), the other
//!    files staying as they are. The file gets a judge of its own, nested in the whole's
//!    ([`Judge::nested`]): its language's syntax filter, its cache, its lookahead, while
//!    every oracle run, the cache of whole trees and the best result stay the whole's;
//! 3. *across files*: `replace-ids`, `rename` and `params` over all files at once
//!    ([`Across`]), where a name crosses files. `rename` runs only here (a name renamed in one
//!    file alone would break its uses in the others); `replace-ids` and `params` also run in
//!    each file.
//!
//! Each step keeps only what the oracle found interesting, so the tree is interesting after
//! every step, and a round is a function of the tree alone: the output is a fixed point.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use treedd_proc::Files;
use treedd_tree::{count_errors, Lang, RTree, SyntaxFilter};

use crate::algorithm::reduce_tree_knowing;
use crate::ddmin::ddmin_indices;
use crate::engine::{Filter, OnImprovement};
use crate::passes::{chars, Across};
use crate::{reduce_text, DdminOptions, Judge, Pass, PassRecord, Reduced, TextUnit, TreeConfig};

/// How a directory is reduced.
#[derive(Clone, Debug)]
pub struct FilesConfig {
    /// The tree algorithms, passes and ddmin options of the files with a grammar (its
    /// `ddmin` also serves the files without one and the steps over all files; its
    /// `fixpoint` the rounds).
    pub tree: TreeConfig,
    /// The units of the files without a grammar.
    pub text: TextUnit,
    /// Every file reduced as text (`--algorithm ddmin`).
    pub text_only: bool,
    /// Each file's syntax filter (in its own language): candidates with more syntax errors
    /// than the file had in the input are not tested.
    pub syntax_filter: bool,
}

/// The most rounds over the whole tree (each round that changes something makes it smaller,
/// or moves identifiers down `replace-ids`' order; this only bounds the unexpected).
const MAX_ROUNDS: usize = 100;

/// Reduce the tree of files `start` (encoded [`Files`], interesting) with `judge`, the judge
/// of whole trees; `original` is the input (the syntax errors a file may keep are its
/// input's). Returns the result, encoded; interesting unless the judge was cancelled before
/// anything was found. What each step did is reported to the judge's observer
/// ([`Judge::record`]), the steps of one file labelled with its path.
pub fn reduce_files(
    judge: &Arc<Judge>,
    start: &[u8],
    original: &[u8],
    config: &FilesConfig,
) -> Reduced {
    let Ok(mut files) = Files::decode(start) else {
        return Reduced {
            text: start.to_vec(),
            calls_refer: None,
        };
    };
    // What the files' reductions learn of calls, for the next ones.
    let mut calls_refer = None;
    let original = Files::decode(original).unwrap_or_default();
    let text_only = config.text_only;
    let lang = move |p: &Path| match Lang::from_path(p) {
        Some(l) if !text_only => l,
        _ => Lang::Text,
    };
    let allowed = Allowed::new(&files, &original);
    let ddmin = DdminOptions {
        stop: Some(judge.stop_flag()),
        ..config.tree.ddmin.clone()
    };
    // `rename` runs across files only (see the module docs).
    let cross_rename = config.tree.passes.contains(&Pass::Rename);
    let cross_replace = config.tree.passes.contains(&Pass::ReplaceIds);
    let cross_params = config.tree.passes.contains(&Pass::Params);
    let per_file = TreeConfig {
        passes: (config.tree.passes.iter().copied())
            .filter(|&p| p != Pass::Rename)
            .collect(),
        alternatives: (config.tree.alternatives.iter().cloned())
            .map(|a| TreeConfig {
                passes: a
                    .passes
                    .into_iter()
                    .filter(|&p| p != Pass::Rename)
                    .collect(),
                ..a
            })
            .collect(),
        ..config.tree.clone()
    };
    let across = Across {
        judge,
        ddmin: ddmin.clone(),
        lang: &lang,
        allowed: &|p, l| allowed.get(p, l),
    };
    for round in 1..=MAX_ROUNDS {
        let before = files.clone();
        files = step(judge, round, "whole files", &files, |f| {
            let out = whole_files(judge, f, &ddmin);
            let accepted = u64::from(out.len() < f.len());
            (out, accepted)
        });
        let paths: Vec<_> = files.entries().iter().map(|e| e.path.clone()).collect();
        for path in paths {
            if judge.is_cancelled() {
                break;
            }
            let Some(i) = files
                .position(&path)
                .filter(|&i| files.entries()[i].is_file())
            else {
                continue;
            };
            let l = lang(&path);
            let out = one_file(
                judge,
                &files,
                i,
                l,
                allowed.get(&path, l),
                &per_file,
                config,
                round,
                &mut calls_refer,
            );
            files.set_bytes(i, out);
        }
        if cross_replace && !judge.is_cancelled() {
            files = step(judge, round, "replace-ids (across files)", &files, |f| {
                across.replace_ids(f)
            });
        }
        if cross_rename && !judge.is_cancelled() {
            files = step(judge, round, "rename (across files)", &files, |f| {
                across.rename(f)
            });
        }
        if cross_params && !judge.is_cancelled() {
            files = step(judge, round, "params (across files)", &files, |f| {
                across.params(f)
            });
        }
        if judge.is_cancelled() || files == before || !config.tree.fixpoint {
            break;
        }
    }
    Reduced {
        text: files.encode(),
        calls_refer,
    }
}

/// Non-whitespace characters of all the files.
fn size(files: &Files) -> usize {
    files.entries().iter().map(|e| chars(&e.bytes)).sum()
}

/// Run one step over all files (`run` gives the new tree and the candidates it accepted) and
/// record it in `--stats` as `name`.
fn step(
    judge: &Judge,
    round: usize,
    name: &str,
    files: &Files,
    run: impl FnOnce(&Files) -> (Files, u64),
) -> Files {
    judge.phase(name);
    let runs = judge.stats().oracle_runs;
    let (out, accepted) = run(files);
    judge.record(PassRecord {
        round,
        pass: name.to_string(),
        oracle_runs: judge.stats().oracle_runs - runs,
        accepted,
        chars_removed: size(files) as i64 - size(&out) as i64,
    });
    out
}

/// ddmin over the files: the fewest whole files the oracle still finds interesting.
fn whole_files(judge: &Judge, files: &Files, ddmin: &DdminOptions) -> Files {
    if files.len() < 2 {
        return files.clone();
    }
    let current = files.encode();
    let test = |kept: &[usize]| {
        let candidate = files.subset(kept).encode();
        candidate == current || judge.test(&candidate)
    };
    let kept = judge.with_lookahead(ddmin.jobs, || ddmin_indices(files.len(), &test, ddmin));
    files.subset(&kept)
}

/// Reduce file `i` of `files` (the others as they are) in its language `lang` with a judge
/// nested in `judge`; returns its new bytes. `calls`: what is known of calls
/// ([`Reduced::calls_refer`]), before and after.
#[allow(clippy::too_many_arguments)]
fn one_file(
    judge: &Arc<Judge>,
    files: &Files,
    i: usize,
    lang: Lang,
    allowed: usize,
    tree_config: &TreeConfig,
    config: &FilesConfig,
    round: usize,
    calls: &mut Option<bool>,
) -> Vec<u8> {
    let entry = &files.entries()[i];
    let text = entry.bytes.clone();
    let whole = files.clone();
    let syntax = (config.syntax_filter && lang.has_grammar())
        .then(|| Arc::new(SyntaxFilter::new(lang, allowed)));
    let filter = syntax
        .clone()
        .map(|s| -> Filter { Box::new(move |c: &[u8]| s.accepts(c)) });
    let rebase = syntax
        .clone()
        .map(|s| -> OnImprovement { Box::new(move |c: &[u8]| s.rebase(c)) });
    let part = judge.nested(
        &entry.path.display().to_string(),
        round,
        Box::new(move |c: &[u8]| whole.encode_replacing(i, c)),
        filter,
        rebase,
    );
    let tree = lang
        .has_grammar()
        .then(|| RTree::build_parsed(lang, &text).ok())
        .flatten();
    let out = match tree {
        Some((mut tree, parse)) => {
            if let Some(s) = &syntax {
                s.rebase_parsed(&text, parse);
            }
            let out = reduce_tree_knowing(&mut tree, &part, tree_config, *calls);
            *calls = out.calls_refer;
            out.text
        }
        None => {
            // `reduce_text` keeps no records: one for the file's whole reduction.
            let out = reduce_text(&text, config.text, &part, &tree_config.ddmin);
            part.record(PassRecord {
                round: 1,
                pass: "text".to_string(),
                oracle_runs: part.stats().oracle_runs,
                accepted: u64::from(out != text),
                chars_removed: chars(&text) as i64 - chars(&out) as i64,
            });
            out
        }
    };
    judge.end_nested(&part);
    out
}

/// The syntax errors each file may have: as many as in the input, or in the start (the
/// output of an earlier run, resumed), whichever is more; counted once per file.
struct Allowed {
    counts: Mutex<HashMap<(std::path::PathBuf, Lang), usize>>,
    start: Files,
    original: Files,
}

impl Allowed {
    fn new(start: &Files, original: &Files) -> Allowed {
        Allowed {
            counts: Mutex::default(),
            start: start.clone(),
            original: original.clone(),
        }
    }

    fn get(&self, path: &Path, lang: Lang) -> usize {
        if !lang.has_grammar() {
            return 0;
        }
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        *counts.entry((path.to_path_buf(), lang)).or_insert_with(|| {
            [&self.start, &self.original]
                .iter()
                .filter_map(|f| f.position(path).map(|i| &f.entries()[i].bytes))
                .map(|b| count_errors(lang, b))
                .max()
                .unwrap_or(0)
        })
    }
}

#[cfg(test)]
mod tests;
