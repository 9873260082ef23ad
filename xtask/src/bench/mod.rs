//! `cargo xtask bench`: run the release `treedd` binary over whole suites, like the papers do.
//!
//! A suite is a folder of cases; a case is a folder with one input file and an executable
//! oracle (`oracle.sh` or `test.sh`). Every case is reduced with every selected configuration
//! (the dissertation's 16 hoisting x HDD variants of Table 7.1, DDMIN* two-pass text reduction,
//! presets) and every `--jobs` value, each run in a fresh temporary directory and capped by a
//! time limit. One JSON row per run is appended to `target/bench/<suite>/results.jsonl`, so an
//! interrupted benchmark resumes where it stopped; from all rows the harness renders
//! `results.csv`, `tables.md` (the format of the dissertation's Tables 7.3-7.10) and one SVG
//! scatter plot per base algorithm (Figure 7.9), and progress over time: per case, the size
//! at fixed checkpoints of wall time and oracle runs, and curves over runs and over wall time
//! of every configuration and peer.
//!
//! `cargo xtask bench micro` measures the reducer itself: oracle runs per second with a no-op
//! oracle (this very binary, started with `XTASK_BENCH_MARKERS` set), the reducer's own CPU
//! time per oracle run, and tree building time and peak memory on the largest Perses input.
//!
//! Modules: `cli` (arguments), `config` (what is run: treedd configurations, peers), `suite`
//! (finding cases), `run` (one watched run), `store` (results.jsonl, CSV), `tables` and
//! `paper` (Markdown tables, the papers' figures), `progress` (sizes at checkpoints of wall
//! time and oracle runs, time to remove 50/90/99%), `plot` (SVG), `report` (tables.md and
//! publishing), `micro` (the reducer's own overhead), `big` (its cost per candidate on
//! megabyte inputs), `docs` (the figures the Markdown documents quote, generated from the
//! published ones).

mod bare_runs;
mod big;
mod cli;
mod config;
mod docs;
mod measure;
mod micro;
mod paper;
mod peers;
mod plot;
mod progress;
mod report;
mod run;
mod speculation;
mod store;
mod suite;
mod tables;
#[cfg(test)]
mod test_util;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _, Result};

use cli::{Invocation, SuiteOptions};
use config::Config;
pub use docs::main as docs_main;
pub use micro::marker_oracle_mode;
use paper::{load_paper_tables, paper_example, paper_reference_table};
use report::{publish_report, write_report};
use run::run_case;
use store::Store;
pub(crate) use suite::shared_dir;
use suite::{discover, resolve_suite, workspace_root};
use tables::{cases_of, index};

/// Entry point of `cargo xtask bench ARGS`.
pub fn main(args: &[String]) -> Result<()> {
    // `bench micro-grammar [--treedd PATH]`: only the run-time grammar figures of `micro`.
    if args.first().map(String::as_str) == Some("micro-grammar") {
        let root = crate::codegen::workspace_root();
        let treedd = match args.get(1).map(String::as_str) {
            Some("--treedd") => PathBuf::from(
                args.get(2)
                    .ok_or_else(|| anyhow::anyhow!("--treedd needs a path"))?,
            ),
            _ => root.join("target/release/treedd"),
        };
        println!(
            "Run-time grammar (`--grammar`): {}",
            micro::run_time_grammar(&treedd, &root)?
        );
        return Ok(());
    }
    match cli::parse_args(args)? {
        Invocation::Help => {
            println!("{}", cli::USAGE);
            Ok(())
        }
        Invocation::Suite(opts) => run_suite(&opts),
        Invocation::Micro { treedd, publish } => {
            micro::micro(treedd, publish)?;
            refresh_docs(publish)
        }
        Invocation::Speculation { treedd, publish } => {
            speculation::speculation(treedd, publish)?;
            refresh_docs(publish)
        }
        Invocation::Big {
            treedd,
            publish,
            time_limit,
        } => {
            big::big(treedd, publish, time_limit)?;
            refresh_docs(publish)
        }
    }
}

/// After publishing: the generated blocks of the documents follow the published figures.
fn refresh_docs(published: bool) -> Result<()> {
    if published {
        docs::refresh(&workspace_root(), true)?;
    }
    Ok(())
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

/// `docs/bench/<suite>/`, where `--publish` puts a suite's report.
fn published_dir(root: &Path, suite: &str) -> PathBuf {
    root.join("docs").join("bench").join(suite)
}

/// The suites with a published report: the folders of `docs/bench/` that hold a `tables.md`,
/// `results.jsonl` or `results.csv` (not `docs/bench/runs/`, the dated records), in name order.
fn published_suites(root: &Path) -> Result<Vec<String>> {
    let docs = root.join("docs").join("bench");
    Ok(suite::sorted_subdirs(&docs)?
        .into_iter()
        .filter(|dir| {
            ["tables.md", "results.jsonl", "results.csv"]
                .iter()
                .any(|f| dir.join(f).is_file())
        })
        .filter_map(|dir| Some(dir.file_name()?.to_string_lossy().into_owned()))
        .collect())
}

/// Re-render the published report of `suite` (`docs/bench/<suite>/results.jsonl`) into
/// `out`; the Markdown. The test `published_reports_are_reproduced` checks that this gives
/// the published files byte for byte.
fn render_published(root: &Path, suite: &str, out: &Path) -> Result<String> {
    let docs = published_dir(root, suite);
    let jsonl = docs.join("results.jsonl");
    if !jsonl.is_file() {
        let csv = docs.join("results.csv");
        let text = std::fs::read_to_string(&csv)
            .with_context(|| format!("no results.jsonl or results.csv in {}", docs.display()))?;
        store::write_jsonl(&jsonl, &store::parse_csv(&text)?)?;
        eprintln!("bench: imported {} into {}", csv.display(), jsonl.display());
    }
    let rows = Store::open(&jsonl)?.latest();
    if rows.is_empty() {
        bail!("no results in {}", jsonl.display());
    }
    write_report(suite, out, &rows, &load_paper_tables(root))
}

fn run_suite(opts: &SuiteOptions) -> Result<()> {
    let root = workspace_root();
    if opts.published {
        let docs = published_dir(&root, &opts.suite);
        report::remove_plots(&docs)?;
        render_published(&root, &opts.suite, &docs)?;
        eprintln!(
            "bench: {} re-rendered from its results.jsonl",
            docs.display()
        );
        return refresh_docs(true);
    }
    let (suite, dir) = resolve_suite(&root, &opts.suite)?;
    let out = root.join("target").join("bench").join(&suite);
    let published = published_dir(&root, &suite).join("results.jsonl");
    let mut store = Store::open_seeded(&out.join("results.jsonl"), &published)?;
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
        // The peers' programs for the cases' languages, found before anything runs.
        let mut programs: BTreeMap<(&str, &str), Option<PathBuf>> = BTreeMap::new();
        for &peer in &opts.peers {
            for case in &cases {
                if programs.contains_key(&(peer.slug(), case.language())) {
                    continue;
                }
                let found = match peers::find_program(peer, case.language()) {
                    Ok(found) => found,
                    Err(e) if opts.dry_run => {
                        eprintln!("bench: {e}");
                        None
                    }
                    Err(e) => return Err(e),
                };
                programs.insert((peer.slug(), case.language()), found);
            }
        }
        let mut configs = opts.configs.clone();
        configs.extend(opts.peers.iter().map(|&p| Config::Peer(p)));
        let mut plan = Vec::new();
        for case in &cases {
            for config in &configs {
                if config.needs_grammar() && case.language() == "text" {
                    continue;
                }
                if let Config::Peer(peer) = config {
                    if peer.program_name(case.language()).is_none() {
                        eprintln!(
                            "bench: {} has no program for {} ({}): not run",
                            peer.title(),
                            case.language(),
                            case.name
                        );
                        continue;
                    }
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
        if opts.dry_run {
            print!("{}", suite::listing(&cases));
            for (case, config, jobs) in &plan {
                println!("run: {} {} --jobs {jobs}", case.name, config.slug());
            }
            return Ok(());
        }
        // Only peers (`--configs none`): no treedd to build.
        let treedd = if opts.configs.is_empty() {
            None
        } else {
            Some(treedd_binary(&root, opts.treedd.clone())?)
        };
        for (i, (case, config, jobs)) in plan.iter().enumerate() {
            let row = match config {
                Config::Peer(peer) => {
                    let program = programs
                        .get(&(peer.slug(), case.language()))
                        .and_then(Option::as_deref)
                        .context("peer without a program")?;
                    peers::run_peer(*peer, program, case, *jobs, opts.time_limit)?
                }
                _ => run_case(
                    treedd
                        .as_deref()
                        .context("treedd configuration without treedd")?,
                    case,
                    config,
                    *jobs,
                    opts.time_limit,
                )?,
            };
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
        let docs = published_dir(&root, &suite);
        publish_report(&out, &docs, &rows)?;
        eprintln!("bench: report published to {}", docs.display());
        refresh_docs(true)?;
    }
    let paper = rows
        .iter()
        .filter(|r| paper_example(&r.case).is_some())
        .count();
    if paper > 0 {
        // The paper's own examples go to the terminal too, for a glance.
        for &j in &rows.iter().map(|r| r.jobs).collect::<BTreeSet<_>>() {
            if let Some(t) = paper_reference_table(&index(&rows, j), &cases_of(&rows)) {
                println!("ours / paper (HDD with hoisting, Tables I and II), jobs {j}:\n{t}");
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

#[cfg(test)]
mod tests {
    use super::*;
    use run::Scratch;

    /// Every published suite report (docs/bench/<suite>/) is what `--report-only
    /// --published` renders from its results.jsonl, byte for byte.
    #[test]
    fn published_reports_are_reproduced() {
        let root = workspace_root();
        let docs = root.join("docs").join("bench");
        assert!(
            !load_paper_tables(&root).is_empty(),
            "the dissertation's text (shared/papers/{} beside the repository) is missing: the published tables \
             quote it",
            paper::DISSERTATION
        );
        let mut checked = 0;
        for suite in published_suites(&root).unwrap() {
            let dir = docs.join(&suite);
            assert!(
                dir.join("results.jsonl").is_file(),
                "{}: no results.jsonl to re-render from",
                dir.display()
            );
            let out = Scratch::new(&format!("published-{suite}")).unwrap();
            render_published(&root, &suite, out.path()).unwrap();
            let mut published: Vec<String> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n != "results.jsonl")
                .collect();
            published.sort();
            let mut rendered: Vec<String> = std::fs::read_dir(out.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            rendered.sort();
            assert_eq!(published, rendered, "{suite}: files");
            for name in &published {
                let want = std::fs::read_to_string(dir.join(name)).unwrap();
                let got = std::fs::read_to_string(out.path().join(name)).unwrap();
                if want != got {
                    let line = want
                        .lines()
                        .zip(got.lines())
                        .position(|(a, b)| a != b)
                        .unwrap_or(0);
                    panic!(
                        "docs/bench/{suite}/{name} differs from its re-rendering at line {}:\n\
                         published: {:?}\nrendered:  {:?}\n\
                         (run `cargo xtask bench --suite {suite} --report-only --published`)",
                        line + 1,
                        want.lines().nth(line),
                        got.lines().nth(line)
                    );
                }
            }
            checked += 1;
        }
        assert!(checked >= 3, "only {checked} published suites");
    }
}
