//! The generated blocks of the Markdown documents. A document quotes benchmark figures only
//! between a line `<!-- generated: NAME -->` and a line `<!-- end generated -->`; the block's
//! text is rendered from the published figures alone:
//!
//! - `suites`: a section per published suite (every `docs/bench/<suite>/` with a report), from
//!   its `results.jsonl`: the default and the other presets, HDD\*, DDMIN\* and the peers side
//!   by side, how the default compares, and links to the suite's `tables.md` and plots;
//! - `speculation` and `readme-speculation`: the totals of `docs/bench/speculation.md`;
//! - `micro`: the figures of `docs/bench/micro.json`.
//!
//! `cargo xtask docs` rewrites the blocks of every Markdown file at the root and under docs/
//! (so do `cargo xtask bench ... --publish` and `--report-only --published`); `cargo xtask
//! docs --check` and the test `generated_doc_blocks_are_up_to_date` fail when one is stale.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};
use treedd_reduce::{Base, Hoisting};

use super::config::{Config, Peer};
use super::micro::MicroReport;
use super::report::provenance;
use super::speculation::TABLE_HEADER;
use super::store::{Row, Store};
use super::suite::{paper_case_name, workspace_root};
use super::tables::{md_escape, note_of, thousands};
use super::{published_dir, published_suites};

const START: &str = "<!-- generated: ";
const START_END: &str = " -->";
const END: &str = "<!-- end generated -->";

/// Names of the blocks, for the error on an unknown one.
const BLOCKS: [&str; 4] = ["suites", "speculation", "readme-speculation", "micro"];

/// Entry point of `cargo xtask docs [--check]`.
pub fn main(args: &[String]) -> Result<()> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => bail!("usage: cargo xtask docs [--check]"),
    };
    let root = workspace_root();
    let stale = refresh(&root, !check)?;
    if check && !stale.is_empty() {
        bail!(
            "stale generated blocks in {}; run `cargo xtask docs`",
            stale.join(", ")
        );
    }
    Ok(())
}

/// Render the blocks of every document under `root`; with `write`, rewrite the stale ones.
/// The documents whose blocks were stale, relative to `root`.
pub(super) fn refresh(root: &Path, write: bool) -> Result<Vec<String>> {
    let mut stale = Vec::new();
    for doc in documents(root)? {
        let text = fs::read_to_string(&doc)?;
        let rel = doc.strip_prefix(root).unwrap_or(&doc);
        let new = rewrite(&text, |name| render_block(root, rel, name))
            .with_context(|| format!("{}", rel.display()))?;
        if new != text {
            stale.push(rel.display().to_string());
            if write {
                fs::write(&doc, &new)?;
                eprintln!("docs: generated blocks of {} rewritten", rel.display());
            }
        }
    }
    Ok(stale)
}

/// The Markdown files at `root` and under `root/docs`, sorted.
fn documents(root: &Path) -> Result<Vec<PathBuf>> {
    fn walk(dir: &Path, deep: bool, out: &mut Vec<PathBuf>) -> Result<()> {
        for entry in fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                if deep {
                    walk(&path, true, out)?;
                }
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(root, false, &mut out)?;
    walk(&root.join("docs"), true, &mut out)?;
    out.sort();
    Ok(out)
}

/// `text` with the lines between each `<!-- generated: NAME -->` and the next
/// `<!-- end generated -->` replaced by a blank line, `render(NAME)` and a blank line.
fn rewrite(text: &str, mut render: impl FnMut(&str) -> Result<String>) -> Result<String> {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split_inclusive('\n').enumerate();
    while let Some((_, line)) = lines.next() {
        out.push_str(line);
        let trimmed = line.trim();
        let Some(name) = trimmed
            .strip_prefix(START)
            .and_then(|rest| rest.strip_suffix(START_END))
        else {
            if trimmed == END {
                bail!("`{END}` without a `{START}NAME{START_END}` before it");
            }
            continue;
        };
        let block = render(name.trim())?;
        out.push('\n');
        out.push_str(block.trim_end_matches('\n'));
        out.push_str("\n\n");
        loop {
            match lines.next() {
                Some((_, end)) if end.trim() == END => {
                    out.push_str(end);
                    break;
                }
                Some((_, inner)) if inner.trim().starts_with(START) => {
                    bail!("block `{name}` is not closed before the next one")
                }
                Some(_) => {}
                None => bail!("block `{name}` has no `{END}`"),
            }
        }
    }
    Ok(out)
}

/// The text of block `name` in the document `doc` (relative to `root`: links are relative to
/// its folder).
fn render_block(root: &Path, doc: &Path, name: &str) -> Result<String> {
    let depth = doc.parent().map_or(0, |p| p.components().count());
    let up = "../".repeat(depth);
    let bench = if doc.parent() == Some(Path::new("docs")) {
        "bench/".to_string()
    } else {
        format!("{up}docs/bench/")
    };
    match name {
        "suites" => suites_block(root, &bench),
        "speculation" => speculation_block(root, &bench),
        "readme-speculation" => readme_speculation_block(root, &bench),
        "micro" => micro_block(root, &bench),
        other => bail!(
            "unknown generated block `{other}`; known: {}",
            BLOCKS.join(", ")
        ),
    }
}

/// A section per published suite, in name order.
fn suites_block(root: &Path, bench: &str) -> Result<String> {
    let mut md = String::new();
    for suite in published_suites(root)? {
        let dir = published_dir(root, &suite);
        let rows = Store::open(&dir.join("results.jsonl"))?.latest();
        if rows.is_empty() {
            continue;
        }
        let mut plots: Vec<String> = fs::read_dir(&dir)?
            .map(|e| Ok(e?.file_name().to_string_lossy().into_owned()))
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .filter(|n| n.ends_with(".svg"))
            .collect();
        plots.sort();
        md += &suite_section(&suite, &rows, &plots, &format!("{bench}{suite}/"));
    }
    if md.is_empty() {
        md.push_str("No published suite.\n");
    }
    Ok(md)
}

/// The `--jobs` value a suite's summary shows: the one with the most peer rows, then the most
/// rows, then the smallest.
fn summary_jobs(rows: &[Row]) -> usize {
    let jobs: BTreeSet<usize> = rows.iter().map(|r| r.jobs).collect();
    let score = |j: usize| {
        let of_j = rows.iter().filter(|r| r.jobs == j);
        let peers = of_j
            .clone()
            .filter(|r| matches!(Config::parse(&r.config), Ok(Config::Peer(_))))
            .count();
        (peers, of_j.count())
    };
    jobs.iter()
        .copied()
        .max_by(|&a, &b| score(a).cmp(&score(b)).then(b.cmp(&a)))
        .unwrap_or(1)
}

/// The configurations a summary compares, in this order, where they have rows.
fn headline_configs() -> Vec<Config> {
    let mut configs: Vec<Config> = ["balanced", "smallest", "fastest"]
        .iter()
        .map(|p| Config::Preset(p.to_string()))
        .collect();
    configs.push(Config::Tree(Base::Hdd, Hoisting::None));
    configs.push(Config::TextDdmin);
    configs.extend(Peer::ALL.iter().map(|&p| Config::Peer(p)));
    configs
}

fn column_name(config: &Config) -> String {
    match config {
        Config::Preset(p) if p == "balanced" => "default (balanced)".to_string(),
        Config::Preset(p) => p.clone(),
        other => md_escape(&other.paper_name()),
    }
}

/// One suite's section: where and how it ran, the summary table, the default against the
/// other columns, links.
pub(super) fn suite_section(suite: &str, all: &[Row], plots: &[String], link: &str) -> String {
    let jobs = summary_jobs(all);
    let rows: Vec<&Row> = all.iter().filter(|r| r.jobs == jobs).collect();
    let cases: Vec<&str> = rows
        .iter()
        .map(|r| r.case.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let find = |case: &str, config: &Config| {
        let slug = config.slug();
        rows.iter()
            .copied()
            .find(|r| r.case == case && r.config == slug)
    };
    let mut configs: Vec<Config> = headline_configs()
        .into_iter()
        .filter(|c| cases.iter().any(|case| find(case, c).is_some()))
        .collect();
    if configs.is_empty() {
        configs = rows
            .iter()
            .filter_map(|r| Config::parse(&r.config).ok())
            .collect::<Vec<_>>();
        configs.sort_by_key(Config::order);
        configs.dedup();
    }
    let languages: BTreeSet<&str> = rows.iter().map(|r| r.language.as_str()).collect();
    let limits: BTreeSet<u64> = rows
        .iter()
        .map(|r| r.time_limit_seconds.round() as u64)
        .collect();
    let owned: Vec<Row> = rows.iter().map(|&r| r.clone()).collect();
    let mut md = String::new();
    let _ = writeln!(md, "### `{suite}`\n");
    let _ = writeln!(
        md,
        "{} {} (languages: {}), `--jobs {jobs}`, time limit {} s. {}.\n",
        cases.len(),
        if cases.len() == 1 { "case" } else { "cases" },
        languages.into_iter().collect::<Vec<_>>().join(", "),
        limits
            .iter()
            .map(|l| thousands(*l))
            .collect::<Vec<_>>()
            .join(" / "),
        provenance(&owned)
    );
    md.push_str("| Test | Input |");
    for c in &configs {
        let _ = write!(md, " {} |", column_name(c));
    }
    md.push_str("\n|---|--:|");
    md.push_str(&"--:|".repeat(configs.len()));
    md.push('\n');
    for case in &cases {
        let cells: Vec<Option<&Row>> = configs.iter().map(|c| find(case, c)).collect();
        let best = cells
            .iter()
            .flatten()
            .filter(|r| r.error.is_none())
            .map(|r| r.output_chars)
            .min();
        let input = rows
            .iter()
            .find(|r| r.case == *case)
            .map_or(0, |r| r.input_chars);
        let _ = write!(
            md,
            "| {} | {} |",
            md_escape(&paper_case_name(case)),
            thousands(input)
        );
        for cell in cells {
            let text = match cell {
                None => "—".to_string(),
                Some(r) if r.error.is_some() => "failed".to_string(),
                Some(r) => {
                    let size = thousands(r.output_chars);
                    let size = if Some(r.output_chars) == best {
                        format!("**{size}**")
                    } else {
                        size
                    };
                    let runs = r.oracle_runs.map_or("?".to_string(), thousands);
                    format!("{size}{} ({runs})", note_of(r))
                }
            };
            let _ = write!(md, " {text} |");
        }
        md.push('\n');
    }
    md.push('\n');
    let default = Config::Preset("balanced".to_string());
    if configs.contains(&default) {
        let others: Vec<&Config> = configs
            .iter()
            .filter(|c| matches!(c, Config::Tree(..) | Config::TextDdmin | Config::Peer(_)))
            .collect();
        let lines: Vec<String> = others
            .into_iter()
            .filter_map(|other| compare(&cases, |case, c| find(case, c), &default, other))
            .collect();
        for line in lines {
            let _ = write!(md, "{line} ");
        }
    }
    let _ = write!(
        md,
        "Every configuration and run: [{link}tables.md]({link}tables.md)."
    );
    let scatter: Vec<&String> = plots.iter().filter(|p| p.starts_with("scatter-")).collect();
    if !scatter.is_empty() {
        let list: Vec<String> = scatter
            .iter()
            .map(|p| format!("[{}]({link}{p})", p.trim_end_matches(".svg")))
            .collect();
        let _ = write!(md, " Effect of hoisting: {}.", list.join(", "));
    }
    let suffix = format!("-j{jobs}.svg");
    let curves: Vec<String> = plots
        .iter()
        .filter(|p| p.starts_with("curves-") && p.ends_with(&suffix))
        .map(|p| {
            let case = &p["curves-".len()..p.len() - suffix.len()];
            format!("[{case}]({link}{p})")
        })
        .collect();
    if !curves.is_empty() {
        let _ = write!(
            md,
            " Size over oracle runs, `--jobs {jobs}`: {}.",
            curves.join(", ")
        );
    }
    md.push_str("\n\n");
    md
}

/// "The default against C-Reduce: smaller on ..." for the default (`ours`) against `other`;
/// `None` when no case has both.
fn compare<'a>(
    cases: &[&'a str],
    find: impl Fn(&'a str, &Config) -> Option<&'a Row>,
    ours: &Config,
    other: &Config,
) -> Option<String> {
    let pairs: Vec<(&Row, &Row)> = cases
        .iter()
        .filter_map(|case| Some((find(case, ours)?, find(case, other)?)))
        .filter(|(a, b)| a.error.is_none() && b.error.is_none())
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let smaller = pairs
        .iter()
        .filter(|(a, b)| a.output_chars < b.output_chars)
        .count();
    let equal = pairs
        .iter()
        .filter(|(a, b)| a.output_chars == b.output_chars)
        .count();
    let larger = pairs.len() - smaller - equal;
    let name = md_escape(&other.paper_name());
    let mut line = format!(
        "The default against {name}: smaller on {smaller} of the {} {} both ran, as small on \
         {equal}, larger on {larger}",
        pairs.len(),
        if pairs.len() == 1 { "case" } else { "cases" },
    );
    let finished: Vec<(u64, u64)> = pairs
        .iter()
        .filter(|(a, b)| !a.timed_out && !b.timed_out)
        .filter_map(|(a, b)| Some((a.oracle_runs?, b.oracle_runs?)))
        .collect();
    let (ours_runs, theirs): (u64, u64) = finished
        .iter()
        .fold((0, 0), |(x, y), (a, b)| (x + a, y + b));
    if theirs > 0 {
        let _ = write!(
            line,
            "; {:.2}x {name}'s oracle runs in all on the {} neither cut at the time limit",
            ours_runs as f64 / theirs as f64,
            finished.len(),
        );
    }
    line.push('.');
    Some(line)
}

/// One table of `speculation.md`: its section's title and its rows' cells.
struct SpeculationTable {
    title: String,
    rows: Vec<Vec<String>>,
}

/// The date line and the `TABLE_HEADER` tables of `speculation.md`.
fn parse_speculation(md: &str) -> Result<(String, Vec<SpeculationTable>)> {
    let measured = md
        .lines()
        .find_map(|l| l.strip_prefix("Measured "))
        .and_then(|l| l.split(';').next())
        .context("speculation.md: no `Measured ...` line")?
        .to_string();
    let mut tables: Vec<SpeculationTable> = Vec::new();
    let mut title = String::new();
    let mut lines = md.lines().peekable();
    while let Some(line) = lines.next() {
        if let Some(t) = line.strip_prefix("## ") {
            title = t.to_string();
        } else if line == TABLE_HEADER {
            lines.next(); // the alignment row
            let mut rows = Vec::new();
            while let Some(row) = lines.next_if(|l| l.starts_with('|')) {
                let cells: Vec<String> = row
                    .trim_matches('|')
                    .split('|')
                    .map(|c| c.trim().to_string())
                    .collect();
                if cells.len() != TABLE_HEADER.matches('|').count() - 1 {
                    bail!(
                        "speculation.md: a row of `{title}` has {} cells",
                        cells.len()
                    );
                }
                rows.push(cells);
            }
            tables.push(SpeculationTable {
                title: title.clone(),
                rows,
            });
        }
    }
    if tables.is_empty() {
        bail!("speculation.md: no table with the header of `speculation::table`");
    }
    Ok((measured, tables))
}

fn read_speculation(root: &Path) -> Result<(String, Vec<SpeculationTable>)> {
    let path = root.join("docs/bench/speculation.md");
    let md =
        fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    parse_speculation(&md)
}

/// Column indices in `TABLE_HEADER`.
const JOBS: usize = 0;
const WALL_RATIO: usize = 2;
const RUNS_RATIO: usize = 4;
const CPU: usize = 8;
const OUTPUT: usize = 10;

fn speculation_block(root: &Path, bench: &str) -> Result<String> {
    let (measured, tables) = read_speculation(root)?;
    let mut md = format!(
        "Measured {measured}, every row in one bench run \
         ([{bench}speculation.md]({bench}speculation.md), with each case's bound). Each column \
         lists the `--jobs` values in order; ratios are against `--jobs 1` of the same row.\n\n\
         | scenario | `--jobs` | wall vs `--jobs 1` | oracle runs vs `--jobs 1` | treedd CPU / wall | output |\n\
         |---|--:|--:|--:|--:|---|\n"
    );
    for table in &tables {
        let column = |i: usize| -> String {
            table
                .rows
                .iter()
                .map(|r| r[i].as_str())
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let outputs: BTreeSet<&str> = table.rows.iter().map(|r| r[OUTPUT].as_str()).collect();
        let output = if outputs.len() == 1 {
            outputs.into_iter().collect::<String>()
        } else {
            column(OUTPUT)
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            table.title,
            column(JOBS),
            column(WALL_RATIO),
            column(RUNS_RATIO),
            column(CPU),
            output
        );
    }
    Ok(md)
}

/// The README's sentence: JRTS at `--jobs 2` and the sleep oracle at its largest `--jobs`.
fn readme_speculation_block(root: &Path, bench: &str) -> Result<String> {
    let (measured, tables) = read_speculation(root)?;
    let last_of = |prefix: &str| -> Result<&Vec<String>> {
        tables
            .iter()
            .find(|t| t.title.starts_with(prefix))
            .and_then(|t| t.rows.last())
            .with_context(|| format!("speculation.md: no table `{prefix}...`"))
    };
    let jrts = last_of("JRTS")?;
    let sleep = last_of("Sleep oracle")?;
    Ok(format!(
        "Measured {measured}: `--jobs {}` took {} of the wall time of `--jobs 1` on the JRTS \
         reductions (node) with {} the oracle runs, and `--jobs {}` took {} with a 0.1 s sleep \
         oracle ([{bench}speculation.md]({bench}speculation.md)).\n",
        jrts[JOBS], jrts[WALL_RATIO], jrts[RUNS_RATIO], sleep[JOBS], sleep[WALL_RATIO]
    ))
}

fn micro_block(root: &Path, bench: &str) -> Result<String> {
    let path = root.join("docs/bench/micro.json");
    let json =
        fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let report: MicroReport = serde_json::from_str(&json)?;
    let opt = |v: Option<f64>, p: usize| v.map_or("?".to_string(), |v| format!("{v:.p$}"));
    let mut md = format!(
        "Measured {} on {} ([{bench}micro.md]({bench}micro.md)). A no-op oracle started \
         directly: {:.0} runs/s, the ceiling for any reducer there.\n\n\
         | input | configuration | jobs | oracle runs/s | reducer CPU ms / oracle run | peak RSS MiB |\n\
         |---|---|--:|--:|--:|--:|\n",
        report.date, report.machine, report.direct_runs_per_second
    );
    for r in &report.rows {
        let _ = writeln!(
            md,
            "| {} ({} bytes) | {} | {} | {} | {} | {} |",
            r.what,
            thousands(r.input_bytes),
            md_escape(&r.config),
            r.jobs,
            opt(r.oracle_runs_per_second, 0),
            opt(r.cpu_self_ms_per_oracle_run, 3),
            r.peak_rss_kib
                .map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
        );
    }
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::test_util::row;

    /// Every generated block of README.md and docs/ is what `cargo xtask docs` renders from
    /// the published figures today.
    #[test]
    fn generated_doc_blocks_are_up_to_date() {
        let root = workspace_root();
        let mut blocks = 0;
        for doc in documents(&root).unwrap() {
            let text = fs::read_to_string(&doc).unwrap();
            let rel = doc.strip_prefix(&root).unwrap();
            let new = rewrite(&text, |name| {
                blocks += 1;
                render_block(&root, rel, name)
            })
            .unwrap_or_else(|e| panic!("{}: {e:#}", rel.display()));
            if new != text {
                let line = text
                    .lines()
                    .zip(new.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                panic!(
                    "{} has a stale generated block at line {}:\n\
                     written:  {:?}\nrendered: {:?}\n(run `cargo xtask docs`)",
                    rel.display(),
                    line + 1,
                    text.lines().nth(line),
                    new.lines().nth(line)
                );
            }
        }
        assert!(blocks >= 3, "only {blocks} generated blocks");
        let benchmarks = fs::read_to_string(root.join("docs/benchmarks.md")).unwrap();
        for suite in published_suites(&root).unwrap() {
            assert!(
                benchmarks.contains(&format!("### `{suite}`")),
                "docs/benchmarks.md has no section for the published suite {suite}"
            );
        }
    }

    #[test]
    fn blocks_are_replaced_and_mistakes_reported() {
        let render = |name: &str| -> Result<String> {
            match name {
                "a" => Ok("new A\n".to_string()),
                other => bail!("unknown {other}"),
            }
        };
        let text = "x\n<!-- generated: a -->\nold\nlines\n<!-- end generated -->\ny\n";
        let new = rewrite(text, render).unwrap();
        assert_eq!(
            new,
            "x\n<!-- generated: a -->\n\nnew A\n\n<!-- end generated -->\ny\n"
        );
        assert_eq!(rewrite(&new, render).unwrap(), new, "a fixed point");
        assert_eq!(rewrite("no blocks\n", render).unwrap(), "no blocks\n");
        for bad in [
            "<!-- generated: a -->\nold\n",
            "<!-- generated: a -->\n<!-- generated: a -->\n<!-- end generated -->\n",
            "<!-- end generated -->\n",
            "<!-- generated: b -->\n<!-- end generated -->\n",
        ] {
            assert!(rewrite(bad, render).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_suite_section_puts_the_peers_beside_the_default() {
        let mut rows = vec![
            row("a", "preset-balanced", 40, Some(100)),
            row("a", "hdd", 50, Some(300)),
            row("a", "creduce", 45, Some(400)),
            row("b", "preset-balanced", 70, Some(200)),
            row("b", "creduce", 60, Some(900)),
            row("b", "hoist+hddh", 10, Some(10)),
            row("3299", "preset-balanced", 20, Some(20)),
        ];
        rows[4].timed_out = true;
        // Rows of another `--jobs` value without peers are not shown.
        let mut other = row("a", "preset-balanced", 41, Some(101));
        other.jobs = 2;
        rows.push(other);
        let plots = [
            "curves-a-j1.svg".to_string(),
            "curves-a-j2.svg".to_string(),
            "scatter-hdd-j1.svg".to_string(),
        ];
        let md = suite_section("demo", &rows, &plots, "bench/demo/");
        assert!(
            md.starts_with("### `demo`\n\n3 cases (languages: c), `--jobs 1`, time limit 60 s. "),
            "{md}"
        );
        assert!(
            md.contains("| Test | Input | default (balanced) | HDD\\* | C-Reduce |\n|---|--:|--:|--:|--:|\n"),
            "{md}"
        );
        assert!(
            md.contains("| a | 100 | **40** (100) | 50 (300) | 45 (400) |"),
            "{md}"
        );
        assert!(
            md.contains("| b | 100 | 70 (200) | — | **60**† (900) |"),
            "{md}"
        );
        assert!(
            md.contains("| jerry-3299 | 100 | **20** (20) | — | — |"),
            "{md}"
        );
        assert!(
            md.contains(
                " The default against C-Reduce: smaller on 1 of the 2 cases both ran, as small \
                 on 0, larger on 1; 0.25x C-Reduce's oracle runs in all on the 1 neither cut at \
                 the time limit. Every configuration and run:"
            ),
            "{md}"
        );
        assert!(
            md.contains("\n\nThe default against HDD\\*: smaller on 1 of the 1 case both ran"),
            "{md}"
        );
        assert!(
            md.contains(
                "Every configuration and run: [bench/demo/tables.md](bench/demo/tables.md). \
                 Effect of hoisting: [scatter-hdd-j1](bench/demo/scatter-hdd-j1.svg). \
                 Size over oracle runs, `--jobs 1`: [a](bench/demo/curves-a-j1.svg).\n"
            ),
            "{md}"
        );
    }

    /// Any suite folder with rows gets its section, without code of its own; docs/bench/runs/
    /// (the dated records) is no suite.
    #[test]
    fn every_published_suite_folder_gets_a_section() {
        let dir = crate::bench::run::Scratch::new("docs-suites").unwrap();
        let bench = dir.path().join("docs/bench");
        fs::create_dir_all(bench.join("runs")).unwrap();
        fs::write(bench.join("runs/README.md"), "# records\n").unwrap();
        for (suite, case) in [("rust-ice", "e0001"), ("go-ice", "g42")] {
            fs::create_dir_all(bench.join(suite)).unwrap();
            let mut r = row(case, "preset-balanced", 30, Some(90));
            r.language = "rust".to_string();
            crate::bench::store::write_jsonl(&bench.join(suite).join("results.jsonl"), &[r])
                .unwrap();
            fs::write(bench.join(suite).join("curves-x-j1.svg"), "<svg/>").unwrap();
        }
        let md = suites_block(dir.path(), "bench/").unwrap();
        let go = md.find("### `go-ice`").expect("go-ice section");
        let rust = md.find("### `rust-ice`").expect("rust-ice section");
        assert!(go < rust, "name order: {md}");
        assert!(!md.contains("### `runs`"), "{md}");
        assert!(md.contains("| g42 | 100 | **30** (90) |"), "{md}");
        assert!(
            md.contains("[bench/rust-ice/tables.md](bench/rust-ice/tables.md)"),
            "{md}"
        );
        assert!(md.contains("[x](bench/go-ice/curves-x-j1.svg)"), "{md}");
        let doc = "x\n<!-- generated: suites -->\n<!-- end generated -->\n";
        let rendered = rewrite(doc, |name| {
            render_block(dir.path(), Path::new("docs/benchmarks.md"), name)
        })
        .unwrap();
        assert!(rendered.contains("### `rust-ice`"), "{rendered}");
        let readme = render_block(dir.path(), Path::new("README.md"), "suites").unwrap();
        assert!(
            readme.contains("(docs/bench/go-ice/tables.md)"),
            "links relative to the document: {readme}"
        );
    }

    #[test]
    fn speculation_tables_are_read_by_their_header() {
        let md = format!(
            "# Speculation\n\nMeasured 2026-01-02 03:04 UTC on 2 CPUs (nproc); more.\n\n\
             ## Sleep oracle\n\n{TABLE_HEADER}\n|---:|\n\
             | 1 | 27.5 | 1.00x | 255 | 1.00x | 0 | 0 | 0.99 | 0.6% | 0.3% | identical |\n\
             | 8 | 6.4 | 0.23x | 403 | 1.58x | 267 | 95 | 7.64 | 5.5% | 2.7% | identical |\n\n\
             ## JRTS, 13 cases\n\n{TABLE_HEADER}\n|---:|\n\
             | 2 | 10.7 | 0.56x | 792 | 1.11x | 170 | 40 | 1.80 | 4.8% | 2.7% | identical |\n\n\
             | case | bound |\n|---|---:|\n| 3299 | 0.57x |\n"
        );
        let (measured, tables) = parse_speculation(&md).unwrap();
        assert_eq!(measured, "2026-01-02 03:04 UTC on 2 CPUs (nproc)");
        assert_eq!(tables.len(), 2);
        assert_eq!(tables[0].title, "Sleep oracle");
        assert_eq!(tables[0].rows[1][WALL_RATIO], "0.23x");
        assert_eq!(tables[1].rows[0][RUNS_RATIO], "1.11x");
        assert!(parse_speculation("Measured x\n\nno tables\n").is_err());
    }
}
