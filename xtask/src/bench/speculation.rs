//! `cargo xtask bench speculation`: what `--jobs` buys, measured in one run so the
//! ratios compare like with like on a shared machine.
//!
//! 1. An I/O-bound oracle: 0.1 s of `sleep` (a remote build, a device test) and a cheap check
//!    (the tokens of the Perses authors' `trigger.c` occur in order, via grep and awk), on
//!    Perses' gcc-71626 input from the shared suites (treedd's syntax filter stands for the
//!    compiler's parser). `--jobs` 1, 2, 4 and 8 with the default preset. Then the same
//!    check with the cost depending on the answer (0.2 s when interesting, 0.02 s when not: a
//!    crash late in a compiler's pipeline), `--jobs` 1, 2 and 4: what the bets on success
//!    gain. Then a case where most candidates win: the same 0.1 s sleep and a check that four
//!    names of a 33 KB csmith program from the shared c-ice suite are still in the candidate
//!    (the first candidates of a large reduction mostly succeed), `--jobs` 1, 2, 4 and 8: what
//!    chaining wins gains where durations tell nothing.
//! 2. Real oracles on this machine's cores: the 13 JRTS cases with their own oracles (node),
//!    `--jobs` 1 and 2, case by case (each case's `--jobs 1`, `--jobs 2` and bare runs one
//!    after the other, so the machine's load drifts little between them).
//! 3. The same with the repository's fixtures (gcc, g++, gofmt, javac, node, python3, rustc,
//!    tsc).
//!
//! Every row reports wall time, its ratio to `--jobs 1`, oracle runs (that answered), the
//! runs discarded as lost bets and how many of those were killed before they answered, the
//! mean number of busy workers, treedd's own CPU as a share of the wall time, the spawn
//! floor's share for the same runs ([`super::bare_runs`]: the CPU a bare loop spends to
//! start and wait for that many runs, measured with the JRTS oracles), and whether the output
//! is byte-identical to `--jobs 1`'s. Under the JRTS and fixtures tables, a table per case:
//! `--jobs` 1 and 2, and the case's oracle in the bare loop one and two at a time (how much
//! faster two at a time go, and the bound on `--jobs 2`'s wall time that this sets, for the
//! case and, weighted by `--jobs 1` wall time, for the suite).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{bail, Context as _, Result};

use super::bare_runs::{bare_runs, BareRuns};
use super::measure::now_utc;
use super::run::{run_watched, stat_u64, Scratch};
use super::suite::{discover, shared_dir, workspace_root, Case};
use super::tables::thousands;
use super::treedd_binary;

/// The sleep oracle's check: the tokens of `trigger.tok` (one per line, next to the script)
/// occur in the candidate in this order.
const SLEEP_ORACLE: &str = r#"#!/bin/sh
sleep 0.1
grep -oE '[A-Za-z0-9_]+|[^[:space:]A-Za-z0-9_]' "$1" |
  awk -v want="$(dirname "$0")/trigger.tok" 'BEGIN { while ((getline l < want) > 0) t[++m] = l }
       k < m && $0 == t[k + 1] { k++ } END { exit !(k == m) }'
"#;

/// The same check, with the answer's cost the other way round from a crash that comes late: a
/// run that finds the tokens sleeps 0.2 s, one that does not 0.02 s (a compiler that rejects a
/// broken candidate early and crashes late in its pipeline on an interesting one). The
/// lookahead's bets on success (`crates/reduce/src/engine/lookahead.rs`) are for such oracles.
const SLOW_WIN_ORACLE: &str = r#"#!/bin/sh
if grep -oE '[A-Za-z0-9_]+|[^[:space:]A-Za-z0-9_]' "$1" |
  awk -v want="$(dirname "$0")/trigger.tok" 'BEGIN { while ((getline l < want) > 0) t[++m] = l }
       k < m && $0 == t[k + 1] { k++ } END { exit !(k == m) }'
then sleep 0.2; exit 0
else sleep 0.02; exit 1
fi
"#;

/// The c-ice case of the scenario where most candidates win, and the four names its oracle
/// keeps (two functions and two globals of this input).
const MOST_WIN_CASE: &str = "suites/c-ice/h8300-s500041-O1";
const MOST_WIN_NAMES: [&str; 4] = ["func_2", "func_12", "g_21", "g_378"];

/// The oracle where most candidates win: 0.1 s of `sleep`, then every name of `names` (one
/// per line, next to the script) occurs as a word in the candidate.
const MOST_WIN_ORACLE: &str = r#"#!/bin/sh
sleep 0.1
while read -r name; do
  grep -qw -- "$name" "$1" || exit 1
done < "$(dirname "$0")/names"
"#;

/// Runs of each JRTS oracle on its input in the bare loops, one and two at a time (the spawn
/// floor is the second's CPU).
const JRTS_BARE_RUNS_PER_CASE: usize = 20;

/// Runs of each fixture's oracle on its input in the bare loops, one and two at a time.
const FIXTURE_BARE_RUNS_PER_CASE: usize = 8;

/// One reduction's figures.
struct Row {
    jobs: usize,
    wall: f64,
    runs: u64,
    discarded: u64,
    /// Of `discarded`, runs killed before they answered (not in `runs`).
    killed: u64,
    busy: f64,
    cpu_self: f64,
    output: Vec<u8>,
}

pub(super) fn speculation(treedd: Option<PathBuf>, publish: bool) -> Result<()> {
    let root = workspace_root();
    let treedd = treedd_binary(&root, treedd)?;
    let shared = shared_dir(&root)
        .context("the shared suites (shared/suites beside the repository) are missing")?;
    let work = Scratch::new("speculation")?;

    // 1. The sleep oracle.
    let perses = shared.join("suites/perses/gcc-71626");
    let sleep_dir = work.path().join("sleep-oracle");
    fs::create_dir_all(&sleep_dir)?;
    let trigger = fs::read_to_string(perses.join("trigger.c"))?;
    fs::write(
        sleep_dir.join("trigger.tok"),
        tokens(&trigger).join("\n") + "\n",
    )?;
    let sleep_case = |name: &str, script: &str| -> Result<Case> {
        let oracle = sleep_dir.join(format!("{name}.sh"));
        fs::write(&oracle, script)?;
        make_executable(&oracle)?;
        Ok(Case {
            name: format!("gcc-71626-{name}"),
            input: perses.join("input.c"),
            oracle,
        })
    };
    let rows_of = |case: &Case, jobs: &[usize]| -> Result<Vec<Row>> {
        jobs.iter()
            .map(|&jobs| reduce_all(&treedd, work.path(), std::slice::from_ref(case), jobs))
            .collect()
    };
    let sleep_rows = rows_of(&sleep_case("sleep", SLEEP_ORACLE)?, &[1, 2, 4, 8])?;
    let slow_win_rows = rows_of(&sleep_case("slow-win", SLOW_WIN_ORACLE)?, &[1, 2, 4])?;
    let most_win_dir = work.path().join("most-win");
    fs::create_dir_all(&most_win_dir)?;
    fs::write(most_win_dir.join("names"), MOST_WIN_NAMES.join("\n") + "\n")?;
    let most_win_oracle = most_win_dir.join("oracle.sh");
    fs::write(&most_win_oracle, MOST_WIN_ORACLE)?;
    make_executable(&most_win_oracle)?;
    let most_win_input = shared.join(MOST_WIN_CASE).join("input.c");
    let most_win_bytes = fs::metadata(&most_win_input)?.len();
    let most_win_rows = rows_of(
        &Case {
            name: "c-ice-most-win".to_string(),
            input: most_win_input,
            oracle: most_win_oracle,
        },
        &[1, 2, 4, 8],
    )?;

    // 2. JRTS with its real oracles.
    let jrts = discover(&shared.join("suites/jrts"))?;
    // With each case, the same oracle with no reducer, one and two at a time: how much faster
    // two go, and what starting and waiting for a run costs at the least (two at a time, as
    // `--jobs 2`; every case has as many runs, so the mean per run).
    let (jrts_each, jrts_bare) =
        measure_each(&treedd, work.path(), &jrts, JRTS_BARE_RUNS_PER_CASE)?;
    let jrts_rows = [total(1, &jrts_each[0]), total(2, &jrts_each[1])];
    let floor = jrts_bare
        .iter()
        .map(|[_, two]| two.cpu_per_run)
        .sum::<f64>()
        / jrts.len() as f64;

    // 3. The fixtures with their real oracles (gcc, g++, gofmt, javac, node, python3, rustc, tsc).
    let fixtures = discover(&root.join("fixtures"))?;
    let (fixture_each, fixture_bare) =
        measure_each(&treedd, work.path(), &fixtures, FIXTURE_BARE_RUNS_PER_CASE)?;
    let fixture_rows = [total(1, &fixture_each[0]), total(2, &fixture_each[1])];

    let mut md = String::from("# Speculation\n\n");
    let _ = writeln!(md, "Measured {} on {} CPUs (nproc); one run per row, all rows in one bench run, so the ratios compare like with like. Default preset.\n", now_utc(), std::thread::available_parallelism().map_or(0, |n| n.get()));
    let _ = writeln!(md, "Spawn floor: a bare loop that writes the candidate, starts the oracle in its own process group, waits for it and removes the file spends {:.3} ms of CPU per run (the JRTS oracles on their inputs, two at a time, {} runs). The \"spawn floor / wall\" column is that CPU for the row's runs (answered and killed) as a share of its wall time: what a reducer doing nothing else would use.\n", floor * 1e3, JRTS_BARE_RUNS_PER_CASE * jrts.len());
    md += &table(
        "Sleep oracle (0.1 s + token check) on perses gcc-71626 (18,975 bytes)",
        &sleep_rows,
        floor,
    );
    md += &table(
        "Interesting runs slower: 0.2 s when the tokens are found, 0.02 s when not, same input",
        &slow_win_rows,
        floor,
    );
    md += &table(
        &format!(
            "Most candidates win: sleep oracle (0.1 s + four names kept) on c-ice {} ({} bytes)",
            MOST_WIN_CASE.rsplit('/').next().unwrap_or(MOST_WIN_CASE),
            thousands(most_win_bytes)
        ),
        &most_win_rows,
        floor,
    );
    md += &table(
        &format!(
            "JRTS, {} cases with their real oracles (node), totals",
            jrts.len()
        ),
        &jrts_rows,
        floor,
    );
    md += &bounds_table(
        "the JRTS",
        JRTS_BARE_RUNS_PER_CASE,
        &jrts,
        &jrts_each,
        &jrts_rows,
        &jrts_bare,
    );
    md += &table(
        &format!(
            "fixtures/, {} cases with their real oracles, totals",
            fixtures.len()
        ),
        &fixture_rows,
        floor,
    );
    md += &bounds_table(
        "the fixtures'",
        FIXTURE_BARE_RUNS_PER_CASE,
        &fixtures,
        &fixture_each,
        &fixture_rows,
        &fixture_bare,
    );
    print!("{md}");
    if publish {
        let out = root.join("docs/bench/speculation.md");
        fs::write(&out, &md)?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

/// Case by case: the reduction with `--jobs 1`, then with `--jobs 2`, then the case's oracle
/// on its input in the bare loop, `per_case` runs one at a time and `per_case` two at a time.
/// A case's figures are measured within a minute or so of each other: the load of a shared
/// machine drifts over the minutes a suite takes, and a suite's `--jobs 1` rows all before its
/// `--jobs 2` rows put that drift into the ratios.
type Measured = ([Vec<Row>; 2], Vec<[BareRuns; 2]>);

fn measure_each(treedd: &Path, work: &Path, cases: &[Case], per_case: usize) -> Result<Measured> {
    let (mut one, mut two, mut bare) = (Vec::new(), Vec::new(), Vec::new());
    for case in cases {
        let case = std::slice::from_ref(case);
        one.extend(reduce_each(treedd, work, case, 1)?);
        two.extend(reduce_each(treedd, work, case, 2)?);
        bare.push([
            bare_runs(work, case, 1, per_case)?,
            bare_runs(work, case, 2, per_case)?,
        ]);
    }
    Ok(([one, two], bare))
}

/// The table under a suite's `--jobs` 1 and 2 totals (`totals`): per case, how much faster its
/// oracle went two at a time than one at a time in the bare loop (`bare`), and the bound this
/// and the case's runs ratio set on its `--jobs 2` wall time; the suite's bound is the cases'
/// weighted by their `--jobs 1` wall time. `each`: the cases' rows with `--jobs` 1 and 2.
fn bounds_table(
    whose: &str,
    per_case: usize,
    cases: &[Case],
    each: &[Vec<Row>; 2],
    totals: &[Row; 2],
    bare: &[[BareRuns; 2]],
) -> String {
    let mut out = format!(
        "Per case, against {whose} oracles on their inputs in a bare loop with no reducer ({per_case} runs each, one at a time and then two at a time). An oracle that uses more than one core by itself (a JVM's compiler and collector threads) gains less than 2x from a second job, and `--jobs 2` cannot beat that: a case's bound is its runs ratio over its oracle's speed-up (if its runs take as long as the bare loop's). The total's bound is the cases' bounds weighted by their `--jobs 1` wall time. Speed-ups in the bare loop vary by about 10% from run to run on a shared machine.\n\n| case | jobs 1 wall s | jobs 2 wall s | vs jobs 1 | runs vs jobs 1 | bare loop, two at a time | bound |\n|---|---:|---:|---:|---:|---:|---:|\n"
    );
    let runs_ratio = |one: &Row, two: &Row| two.runs as f64 / one.runs as f64;
    // One line: a case's (with its oracle's speed-up) or the suite's (without).
    let mut line = |name: &str, one: &Row, two: &Row, speed_up: Option<f64>, bound: f64| {
        let speed_up = speed_up.map_or(" ".to_string(), |x| format!(" {x:.2}x as fast "));
        let _ = writeln!(
            out,
            "| {name} | {:.1} | {:.1} | {:.2}x | {:.2}x |{speed_up}| {bound:.2}x |",
            one.wall,
            two.wall,
            two.wall / one.wall,
            runs_ratio(one, two),
        );
    };
    let mut weighted = 0.0;
    for (((case, one), two), [bare_one, bare_two]) in
        cases.iter().zip(&each[0]).zip(&each[1]).zip(bare)
    {
        let speed_up = bare_one.wall / bare_two.wall;
        let bound = runs_ratio(one, two) / speed_up;
        weighted += bound * one.wall;
        line(&case.name, one, two, Some(speed_up), bound);
    }
    let [one, two] = totals;
    line("all", one, two, None, weighted / one.wall);
    out.push('\n');
    out
}

/// The header of every scenario's table; the `speculation` blocks of the docs read the tables
/// by it (`docs.rs`).
pub(super) const TABLE_HEADER: &str = "| jobs | wall s | vs jobs 1 | oracle runs | vs jobs 1 | discarded | of which killed | mean busy workers | treedd CPU / wall | spawn floor / wall | output |";

/// `floor`: the spawn floor, CPU seconds per run.
fn table(title: &str, rows: &[Row], floor: f64) -> String {
    let mut out = format!(
        "## {title}\n\n{TABLE_HEADER}\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
    );
    let base = &rows[0];
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {:.1} | {:.2}x | {} | {:.2}x | {} | {} | {:.2} | {:.1}% | {:.1}% | {} |",
            r.jobs,
            r.wall,
            r.wall / base.wall,
            r.runs,
            r.runs as f64 / base.runs as f64,
            r.discarded,
            r.killed,
            r.busy,
            100.0 * r.cpu_self / r.wall,
            100.0 * floor * (r.runs + r.killed) as f64 / r.wall,
            if r.output == base.output {
                "identical"
            } else {
                "DIFFERENT"
            },
        );
    }
    out.push('\n');
    out
}

/// Reduce every case with `jobs`; the figures summed (busy workers: weighted by wall time).
fn reduce_all(treedd: &Path, work: &Path, cases: &[Case], jobs: usize) -> Result<Row> {
    Ok(total(jobs, &reduce_each(treedd, work, cases, jobs)?))
}

/// The figures of `rows` (one suite's cases with `jobs`) summed; busy workers weighted by wall
/// time, outputs concatenated with a 0 byte after each.
fn total(jobs: usize, rows: &[Row]) -> Row {
    let wall: f64 = rows.iter().map(|r| r.wall).sum();
    Row {
        jobs,
        wall,
        runs: rows.iter().map(|r| r.runs).sum(),
        discarded: rows.iter().map(|r| r.discarded).sum(),
        killed: rows.iter().map(|r| r.killed).sum(),
        busy: rows.iter().map(|r| r.busy * r.wall).sum::<f64>() / wall,
        cpu_self: rows.iter().map(|r| r.cpu_self).sum(),
        output: rows
            .iter()
            .flat_map(|r| r.output.iter().copied().chain([0]))
            .collect(),
    }
}

/// Reduce every case with `jobs`: a row each.
fn reduce_each(treedd: &Path, work: &Path, cases: &[Case], jobs: usize) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for case in cases {
        let dir = work.join(format!("j{jobs}-{}", case.name.replace('/', "-")));
        fs::create_dir_all(&dir)?;
        let name = case.input.file_name().context("input without a name")?;
        let input = dir.join(name);
        fs::copy(&case.input, &input)?;
        let stats = dir.join("stats.json");
        let output = dir.join("output");
        let finished = run_watched(
            Command::new(treedd)
                .arg("--test")
                .arg(&case.oracle)
                .args(["--jobs", &jobs.to_string(), "-q", "--stats"])
                .arg(&stats)
                .arg("-o")
                .arg(&output)
                .arg(&input)
                .current_dir(&dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
            Some(Duration::from_secs(1800)),
        )?;
        if !finished.status.success() {
            bail!(
                "treedd on {} failed: {}",
                case.input.display(),
                finished.status
            );
        }
        let s: serde_json::Value = serde_json::from_slice(&fs::read(&stats)?)?;
        rows.push(Row {
            jobs,
            wall: finished.wall.as_secs_f64(),
            runs: stat_u64(&s, "oracle_runs").unwrap_or(0),
            discarded: stat_u64(&s, "discarded").unwrap_or(0),
            killed: stat_u64(&s, "killed").unwrap_or(0),
            busy: s["mean_busy_workers"].as_f64().unwrap_or(0.0),
            // treedd's own count (getrusage, microseconds) where it gives one: /proc's clock
            // ticks are cut to 10 ms per run, a large error on a short run.
            cpu_self: s["cpu_seconds"]
                .as_f64()
                .or(finished.cpu_self)
                .unwrap_or(f64::NAN),
            output: fs::read(&output)?,
        });
    }
    Ok(rows)
}

/// The tokens the sleep oracle's grep cuts a C file into (words and single punctuation).
fn tokens(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in src.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

pub(super) fn make_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{bounds_table, total, BareRuns, Case, Row};

    /// A case's bound on `--jobs 2`'s wall time is its runs over `--jobs 1`'s, divided by how
    /// much faster its oracle went two at a time in the bare loop; the suite's bound weights
    /// the cases' by their `--jobs 1` wall time.
    #[test]
    fn the_bounds_are_runs_ratio_over_speed_up_per_case_and_weighted_by_wall_in_all() {
        let bare = |one, two| {
            [one, two].map(|wall| BareRuns {
                cpu_per_run: 0.0003,
                wall,
            })
        };
        let row = |jobs, wall, runs| Row {
            jobs,
            wall,
            runs,
            discarded: 0,
            killed: 0,
            busy: 1.0,
            cpu_self: 0.0,
            output: Vec::new(),
        };
        let case = |name: &str| Case {
            name: name.to_string(),
            input: "in".into(),
            oracle: "oracle.sh".into(),
        };
        let each = [
            vec![row(1, 10.0, 100), row(1, 30.0, 100)],
            vec![row(2, 6.0, 110), row(2, 27.0, 104)],
        ];
        let totals = [total(1, &each[0]), total(2, &each[1])];
        let table = bounds_table(
            "the fixtures'",
            8,
            &[case("node"), case("jvm")],
            &each,
            &totals,
            &[bare(4.0, 2.0), bare(3.0, 2.4)],
        );
        assert!(
            table.starts_with("Per case, against the fixtures' oracles on their inputs in a bare loop with no reducer (8 runs each,"),
            "{table}"
        );
        // 1.10 / 2.00 = 0.55; 1.04 / 1.25 = 0.832; (0.55 * 10 + 0.832 * 30) / 40 = 0.7615.
        for line in [
            "| node | 10.0 | 6.0 | 0.60x | 1.10x | 2.00x as fast | 0.55x |",
            "| jvm | 30.0 | 27.0 | 0.90x | 1.04x | 1.25x as fast | 0.83x |",
            "| all | 40.0 | 33.0 | 0.82x | 1.07x | | 0.76x |",
        ] {
            assert!(table.lines().any(|l| l == line), "{line} in\n{table}");
        }
    }

    #[test]
    fn tokens_are_words_and_single_punctuation() {
        assert_eq!(
            super::tokens("llong c = test1char8;\n  v={c};"),
            [
                "llong",
                "c",
                "=",
                "test1char8",
                ";",
                "v",
                "=",
                "{",
                "c",
                "}",
                ";"
            ]
        );
    }
}
