//! The report of one suite: results.csv, tables.md (the dissertation's format), plots; and
//! publishing it to docs/bench/.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use anyhow::{Context as _, Result};
use treedd_reduce::{Base, Hoisting};

use super::config::{family, Config};
use super::paper::{paper_family_table, paper_reference_table, PaperFigures};
use super::plot::{
    curve_points, curves_svg, scatter_points, scatter_svg, time_curve_points, time_curves_svg,
};
use super::progress::{checkpoint_section, WALL_CHECKPOINTS};
use super::store::{render_csv, write_jsonl, Row};
use super::suite::paper_case_name;
use super::tables::{cases_of, detail_table, family_table, index, md_escape, other_table, Measure};

/// When and where the rows were measured, from the rows themselves (so that the same rows
/// always render the same report).
pub(super) fn provenance(rows: &[Row]) -> String {
    let dates: BTreeSet<&str> = rows.iter().map(|r| r.date.as_str()).collect();
    let machines: BTreeSet<&str> = rows.iter().filter_map(|r| r.machine.as_deref()).collect();
    let mut out = match (dates.first(), dates.last()) {
        (Some(a), Some(b)) if a != b => format!("Runs from {a} to {b}"),
        (Some(a), _) => format!("Runs of {a}"),
        _ => "No runs".to_string(),
    };
    if !machines.is_empty() {
        let list: Vec<&str> = machines.into_iter().collect();
        let _ = write!(out, " on {}", list.join("; "));
    }
    out
}

/// The versions of the peers that ran (rows that record one), by peer, or `None`.
pub(super) fn versions(rows: &[Row]) -> Option<String> {
    let mut by_peer: Vec<(String, BTreeSet<&str>)> = Vec::new();
    for r in rows {
        let Some(v) = r.version.as_deref() else {
            continue;
        };
        let name = Config::parse(&r.config).map_or(r.config.clone(), |c| c.paper_name());
        match by_peer.iter_mut().find(|(n, _)| *n == name) {
            Some((_, set)) => {
                set.insert(v);
            }
            None => by_peer.push((name, BTreeSet::from([v]))),
        }
    }
    if by_peer.is_empty() {
        return None;
    }
    let list: Vec<String> = by_peer
        .iter()
        .map(|(name, set)| {
            let versions: Vec<String> = set.iter().map(|v| format!("`{v}`")).collect();
            format!("{} {}", md_escape(name), versions.join(", "))
        })
        .collect();
    Some(format!("Versions of the peers: {}.", list.join("; ")))
}

/// Write `tables.md`, `results.csv` and the plots for `rows` into `out`; the Markdown.
/// Depends on nothing but `rows` and `paper`: the same results give the same files.
pub(super) fn write_report(
    suite: &str,
    out: &Path,
    rows: &[Row],
    paper: &PaperFigures,
) -> Result<String> {
    fs::create_dir_all(out)?;
    fs::write(out.join("results.csv"), render_csv(rows))?;
    let mut md = String::new();
    let _ = writeln!(md, "## Suite `{suite}`\n");
    let _ = writeln!(
        md,
        "{}. Sizes are non-whitespace characters of the output; \
         bold marks the best of a row; percentages are the change against the row's base \
         algorithm (first column). `†`: cut at the time limit, best output so far; \
         `✗`: the output did not pass the oracle when re-checked; `—`: not run (or no change); \
         `?`: not reported.\n",
        provenance(rows)
    );
    if let Some(line) = versions(rows) {
        let _ = writeln!(md, "{line}\n");
    }
    let cases = cases_of(rows);
    let jobs: BTreeSet<usize> = rows.iter().map(|r| r.jobs).collect();
    for &j in &jobs {
        let idx = index(rows, j);
        if let Some(table) = paper_reference_table(&idx, &cases) {
            let _ = writeln!(
                md,
                "### Ours / paper (004 Tables I and II), jobs {j}\n\n\
                 Each cell: output size (oracle runs), treedd / paper.\n\n{table}"
            );
        }
        for base in Base::ALL {
            let configs: Vec<Config> = Hoisting::ALL
                .iter()
                .map(|&h| Config::Tree(base, h))
                .collect();
            let present = configs
                .iter()
                .any(|c| idx.keys().any(|(_, s)| *s == c.slug().as_str()));
            if !present {
                continue;
            }
            let family = family(base);
            let _ = writeln!(
                md,
                "### Hoisting and {family}: output sizes, jobs {j}\n\n{}",
                family_table(&idx, &cases, &configs, Measure::Size)
            );
            let _ = writeln!(
                md,
                "### Hoisting and {family}: number of oracle runs, jobs {j}\n\n{}",
                family_table(&idx, &cases, &configs, Measure::Runs)
            );
            for (measure, what, table_no) in [
                (Measure::Size, "output sizes", 3),
                (Measure::Runs, "test executions", 4),
            ] {
                if let Some(table) = paper_family_table(paper, base, measure, &cases) {
                    let n = table_no + 2 * Base::ALL.iter().position(|&b| b == base).unwrap_or(0);
                    let _ = writeln!(
                        md,
                        "<details><summary>The dissertation's {what} for these cases (Table 7.{n}; \
                         real crash oracles, not the proxies used here)</summary>\n\n{table}\n</details>\n"
                    );
                }
            }
            let points = scatter_points(&idx, &cases, base);
            if points.iter().any(|(_, p)| !p.is_empty()) {
                let file = format!(
                    "scatter-{}-j{j}.svg",
                    Config::Tree(base, Hoisting::None).slug()
                );
                scatter_svg(
                    &out.join(&file),
                    &format!("Effect of hoisting on {family}* ({suite}, jobs {j})"),
                    &points,
                )?;
                let _ = writeln!(md, "![Effect of hoisting on {family}]({file})\n");
            }
        }
        let others: Vec<Config> = idx
            .keys()
            .filter_map(|(_, s)| Config::parse(s).ok())
            .filter(|c| !matches!(c, Config::Tree(..)))
            .collect::<Vec<_>>();
        let mut others_unique: Vec<Config> = Vec::new();
        for c in others {
            if !others_unique.contains(&c) {
                others_unique.push(c);
            }
        }
        if !others_unique.is_empty() {
            let _ = writeln!(
                md,
                "### Other configurations against HDD\\*: output sizes, jobs {j}\n\n{}",
                other_table(&idx, &cases, &others_unique, Measure::Size)
            );
            let _ = writeln!(
                md,
                "### Other configurations against HDD\\*: number of oracle runs, jobs {j}\n\n{}",
                other_table(&idx, &cases, &others_unique, Measure::Runs)
            );
        }
        md.push_str(&checkpoint_section(rows, j));
        write_curves(&mut md, suite, out, rows, &cases, j)?;
        write_time_curves(&mut md, suite, out, rows, &cases, j)?;
    }
    let _ = writeln!(md, "### Every run\n\n{}", detail_table(rows));
    fs::write(out.join("tables.md"), &md)?;
    Ok(md)
}

/// A curve's points from a row (`plot::curve_points`, `plot::time_curve_points`).
type Curve = fn(&Row) -> Option<Vec<(f64, f64)>>;

/// The series of one case's plot: every configuration of `jobs` without an error that has
/// a curve (`points`), named as in the tables.
fn case_series(
    rows: &[Row],
    case: &str,
    jobs: usize,
    points: Curve,
) -> Vec<(String, Vec<(f64, f64)>)> {
    rows.iter()
        .filter(|r| r.case == case && r.jobs == jobs && r.error.is_none())
        .filter_map(|r| {
            let name = Config::parse(&r.config).map_or(r.config.clone(), |c| c.paper_name());
            Some((name, points(r)?))
        })
        .collect()
}

/// A case's name in a file name.
fn file_slug(case: &str) -> String {
    case.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// One plot per case of the size over oracle runs of every configuration that has a trace
/// (`--stats` `trace`, or a peer's log), and its Markdown.
fn write_curves(
    md: &mut String,
    suite: &str,
    out: &Path,
    rows: &[Row],
    cases: &[String],
    jobs: usize,
) -> Result<()> {
    let mut files = Vec::new();
    for case in cases {
        let series = case_series(rows, case, jobs, curve_points);
        if series.is_empty() {
            continue;
        }
        let file = format!("curves-{}-j{jobs}.svg", file_slug(case));
        curves_svg(
            &out.join(&file),
            &format!("{case}: size over oracle runs ({suite}, jobs {jobs})"),
            &series,
        )?;
        files.push((case, file));
    }
    if !files.is_empty() {
        let _ = writeln!(
            md,
            "### Progress: output size over oracle runs, jobs {jobs}\n\n\
             Best size so far (non-whitespace characters, log scale) after each oracle run, from \
             the input to the end of the run.\n"
        );
        for (case, file) in files {
            let _ = writeln!(md, "![{case}: size over oracle runs]({file})\n");
        }
    }
    Ok(())
}

/// One plot per case of the size over wall time of every configuration (peers included)
/// that has a trace, beside the size over oracle runs, and its Markdown: links, one line.
fn write_time_curves(
    md: &mut String,
    suite: &str,
    out: &Path,
    rows: &[Row],
    cases: &[String],
    jobs: usize,
) -> Result<()> {
    let mut links = Vec::new();
    for case in cases {
        let series = case_series(rows, case, jobs, time_curve_points);
        if series.is_empty() {
            continue;
        }
        let file = format!("time-{}-j{jobs}.svg", file_slug(case));
        time_curves_svg(
            &out.join(&file),
            &format!("{case}: size over wall time ({suite}, jobs {jobs})"),
            &series,
            &WALL_CHECKPOINTS,
        )?;
        links.push(format!("[{}]({file})", md_escape(&paper_case_name(case))));
    }
    if !links.is_empty() {
        let _ = writeln!(
            md,
            "### Progress: output size over wall time, jobs {jobs}\n\n\
             Best size so far (non-whitespace characters, log scale) over wall time, every \
             reducer of the case in one plot; dotted lines at the checkpoints of 1, 5, 15 and \
             60 minutes: {}.\n",
            links.join(", ")
        );
    }
    Ok(())
}

/// Remove the SVG plots from `dir`, before a report replaces them.
pub(super) fn remove_plots(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        for entry in fs::read_dir(dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "svg") {
                fs::remove_file(&path)?;
            }
        }
    }
    Ok(())
}

/// Copy the report files from `out` to `docs` (replacing older plots), with `rows` as
/// `results.jsonl`: what `--report-only --published` re-renders the report from.
pub(super) fn publish_report(out: &Path, docs: &Path, rows: &[Row]) -> Result<()> {
    remove_plots(docs)?;
    fs::create_dir_all(docs)?;
    for entry in fs::read_dir(out)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if name == "tables.md" || name == "results.csv" || name.ends_with(".svg") {
            fs::copy(&path, docs.join(&name))
                .with_context(|| format!("cannot copy {} to {}", path.display(), docs.display()))?;
        }
    }
    write_jsonl(&docs.join("results.jsonl"), rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::run::Scratch;
    use crate::bench::test_util::row;

    #[test]
    fn report_has_tables_paper_references_and_a_plot() {
        let dir = Scratch::new("report").unwrap();
        let mut rows = vec![
            row("helloworld", "hdd", 42, Some(30)),
            row("helloworld", "hoist+hdd", 35, Some(26)),
            row("helloworld", "hddh", 35, Some(60)),
            row("x", "hdd", 100, Some(200)),
            row("x", "hoist+hdd", 50, Some(300)),
            row("x", "ddmin-text", 70, Some(900)),
        ];
        for r in &mut rows[..3] {
            r.input_chars = 42;
        }
        rows[3].trace = Some(vec![crate::bench::store::TracePoint {
            oracle_runs: 20,
            seconds: 1.5,
            size: 100,
        }]);
        let md = write_report("demo", dir.path(), &rows, &PaperFigures::new()).unwrap();
        assert!(!md.contains("Versions of the peers"), "none recorded");
        let mut peers = vec![
            row("x", "cvise", 60, Some(9)),
            row("y", "cvise", 6, Some(9)),
        ];
        peers.push(row("x", "treereduce", 70, Some(9)));
        peers.push(row("y", "treereduce", 7, Some(9)));
        peers[0].version = Some("cvise 2.7.0 (d9e4a505)".into());
        peers[1].version = peers[0].version.clone();
        peers[2].version = Some("treereduce-c 0.4.1".into());
        peers[3].version = Some("treereduce-java 0.4.1".into());
        assert_eq!(
            versions(&peers).unwrap(),
            "Versions of the peers: C-Vise `cvise 2.7.0 (d9e4a505)`; treereduce \
             `treereduce-c 0.4.1`, `treereduce-java 0.4.1`."
        );
        assert!(
            md.contains("### Hoisting and HDD: output sizes, jobs 1"),
            "{md}"
        );
        assert!(
            md.contains("| x | 100 | **50** (-50.00%) | — | — |"),
            "{md}"
        );
        assert!(
            md.contains("| x | **200** | 300 (+50.00%) | — | — |"),
            "{md}"
        );
        assert!(
            md.contains("| helloworld | 42 / 42 | 42 (30) / 42 (32) | 35 (26) / 35 (26) | 35 (60) / 35 (51) | — / 35 (26) |"),
            "{md}"
        );
        assert!(
            md.contains("| x | 100 | **70** (-30.00%) |"),
            "other configurations: {md}"
        );
        assert!(
            !md.contains("Hoisting and HDDr"),
            "absent families get no table"
        );
        let svg = fs::read_to_string(dir.path().join("scatter-hdd-j1.svg")).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("<circle"), "points are drawn");
        assert!(svg.contains("change in oracle runs"), "axis label");
        assert!(md.contains("![Effect of hoisting on HDD](scatter-hdd-j1.svg)"));
        assert!(
            md.contains("![x: size over oracle runs](curves-x-j1.svg)"),
            "a curve for the case with a trace: {md}"
        );
        assert!(!md.contains("curves-helloworld"), "none without a trace");
        assert!(
            md.contains("### Progress: size at checkpoints, jobs 1")
                && md.contains("| x | HDD\\* | 100 | 100 | 100 | 100 | — | — | — |"),
            "a checkpoint table for the row with a trace: {md}"
        );
        assert!(
            md.contains("### Progress: output size over wall time, jobs 1")
                && md.contains("[x](time-x-j1.svg)"),
            "curves over wall time: {md}"
        );
        let svg = fs::read_to_string(dir.path().join("time-x-j1.svg")).unwrap();
        assert!(
            svg.contains("wall time (seconds)") && svg.contains("log scale"),
            "{svg}"
        );
        let csv = fs::read_to_string(dir.path().join("results.csv")).unwrap();
        assert_eq!(csv.lines().count(), rows.len() + 1);
        assert!(dir.path().join("tables.md").is_file());

        let docs = dir.path().join("docs");
        fs::create_dir_all(&docs).unwrap();
        fs::write(docs.join("scatter-old.svg"), "<svg/>").unwrap();
        fs::write(dir.path().join("results.jsonl"), "{}").unwrap();
        publish_report(dir.path(), &docs, &rows).unwrap();
        let mut published: Vec<String> = fs::read_dir(&docs)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        published.sort();
        assert_eq!(
            published,
            [
                "curves-x-j1.svg",
                "results.csv",
                "results.jsonl",
                "scatter-hdd-j1.svg",
                "tables.md",
                "time-x-j1.svg"
            ]
        );
    }
}
