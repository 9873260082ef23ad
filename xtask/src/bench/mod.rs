//! `cargo xtask bench`: run the release `treedd` binary over whole suites, like the papers do.
//!
//! A suite is a folder of cases; a case is a folder with one input file and an executable
//! oracle (`oracle.sh` or `test.sh`). Every case is reduced with every selected configuration
//! (the dissertation's 16 hoisting x HDD variants of Table 7.1, DDMIN* two-pass text reduction,
//! presets) and every `--jobs` value, each run in a fresh temporary directory and capped by a
//! time limit. One JSON row per run is appended to `target/bench/<suite>/results.jsonl`, so an
//! interrupted benchmark resumes where it stopped; from all rows the harness renders
//! `results.csv`, `tables.md` (the format of the dissertation's Tables 7.3-7.10) and one SVG
//! scatter plot per base algorithm (Figure 7.9).
//!
//! `cargo xtask bench micro` measures the reducer itself: oracle runs per second with a no-op
//! oracle (this very binary, started with `XTASK_BENCH_MARKERS` set), the reducer's own CPU
//! time per oracle run, and tree building time and peak memory on the largest Perses input.
//!
//! Modules: `cli` (arguments), `config` (what is run: treedd configurations, peers), `suite`
//! (finding cases), `run` (one watched run), `store` (results.jsonl, CSV), `tables` and
//! `paper` (Markdown tables, the papers' figures), `plot` (SVG), `report` (tables.md and
//! publishing), `micro` (the reducer's own overhead).

mod cli;
mod config;
mod measure;
mod micro;
mod paper;
mod plot;
mod report;
mod run;
mod store;
mod suite;
mod tables;
#[cfg(test)]
mod test_util;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _, Result};

use cli::{Invocation, SuiteOptions};
pub use micro::marker_oracle_mode;
use paper::{load_paper_tables, paper_example, paper_reference_table};
use report::{publish_report, write_report};
use run::run_case;
use store::Store;
use suite::{discover, resolve_suite, workspace_root};
use tables::{cases_of, index};

/// Entry point of `cargo xtask bench ARGS`.
pub fn main(args: &[String]) -> Result<()> {
    match cli::parse_args(args)? {
        Invocation::Help => {
            println!("{}", cli::USAGE);
            Ok(())
        }
        Invocation::Suite(opts) => run_suite(&opts),
        Invocation::Micro { treedd, publish } => micro::micro(treedd, publish),
    }
}

/// Build the release binary, or use the one given.
pub(crate) fn treedd_binary(root: &Path, given: Option<PathBuf>) -> Result<PathBuf> {
    if let Some(path) = given {
        return path
            .canonicalize()
            .with_context(|| format!("--treedd {}", path.display()));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "-p", "treedd"])
        .current_dir(root)
        .status()
        .context("cannot run cargo build")?;
    if !status.success() {
        bail!("cargo build --release -p treedd failed");
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    Ok(target.join("release").join("treedd"))
}

fn run_suite(opts: &SuiteOptions) -> Result<()> {
    let root = workspace_root();
    let (suite, dir) = resolve_suite(&root, &opts.suite)?;
    let out = root.join("target").join("bench").join(&suite);
    let mut store = Store::open(&out.join("results.jsonl"))?;
    if !opts.report_only {
        let mut cases = discover(&dir)?;
        if let Some(wanted) = &opts.cases {
            let unknown: Vec<&String> = wanted
                .iter()
                .filter(|w| !cases.iter().any(|c| &c.name == *w))
                .collect();
            if !unknown.is_empty() {
                bail!("--cases: no case named {unknown:?} in {}", dir.display());
            }
            cases.retain(|c| wanted.contains(&c.name));
        }
        let treedd = treedd_binary(&root, opts.treedd.clone())?;
        let mut plan = Vec::new();
        for case in &cases {
            for config in &opts.configs {
                if config.needs_grammar() && case.language() == "text" {
                    continue;
                }
                for &jobs in &opts.jobs {
                    if opts.rerun || !store.finished(&case.name, &config.slug(), jobs) {
                        plan.push((case, config, jobs));
                    }
                }
            }
        }
        eprintln!(
            "bench: {} cases in {}, {} runs to do (time limit {:?} each)",
            cases.len(),
            dir.display(),
            plan.len(),
            opts.time_limit
        );
        for (i, (case, config, jobs)) in plan.iter().enumerate() {
            let row = run_case(&treedd, case, config, *jobs, opts.time_limit)?;
            eprintln!(
                "[{}/{}] {} {} -j{}: {} -> {} chars, {} oracle runs, {:.1} s{}{}",
                i + 1,
                plan.len(),
                row.case,
                config.paper_name(),
                jobs,
                row.input_chars,
                row.output_chars,
                row.oracle_runs.map_or("?".to_string(), |r| r.to_string()),
                row.wall_seconds,
                if row.timed_out { " (timed out)" } else { "" },
                match (&row.error, row.verified) {
                    (Some(e), _) => format!(" FAILED: {e}"),
                    (None, false) => " NOT VERIFIED".to_string(),
                    (None, true) => String::new(),
                }
            );
            store.append(row)?;
        }
        store.compact()?;
    }
    let rows = store.latest();
    if rows.is_empty() {
        bail!("no results for suite {suite} in {}", out.display());
    }
    let md = write_report(&suite, &out, &rows, &load_paper_tables(&root))?;
    if opts.publish {
        let docs = root.join("docs").join("bench").join(&suite);
        publish_report(&out, &docs)?;
        eprintln!("bench: report published to {}", docs.display());
    }
    let paper = rows
        .iter()
        .filter(|r| paper_example(&r.case).is_some())
        .count();
    if paper > 0 {
        // The paper's own examples go to the terminal too, for a glance.
        for &j in &rows.iter().map(|r| r.jobs).collect::<BTreeSet<_>>() {
            if let Some(t) = paper_reference_table(&index(&rows, j), &cases_of(&rows)) {
                println!("ours / paper (004 Tables I and II), jobs {j}:\n{t}");
            }
        }
    }
    eprintln!(
        "bench: {} rows; report in {} ({} bytes), results.csv and results.jsonl beside it",
        rows.len(),
        out.join("tables.md").display(),
        md.len()
    );
    Ok(())
}
