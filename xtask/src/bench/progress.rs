//! Progress over time as a measurement: from each run's trace (treedd's `--stats` `trace`,
//! the peers' wrapper logs), the best size at fixed checkpoints of wall time and of oracle
//! runs, and how long the run took to remove 50%, 90% and 99% of what it removed in the end.
//! Rendered from the rows alone, like every table of `tables.md`.

use std::fmt::Write as _;

use super::config::Config;
use super::store::Row;
use super::suite::paper_case_name;
use super::tables::{md_escape, note_of, thousands};

/// Wall-time checkpoints, in seconds: 1, 5, 15 and 60 minutes.
pub(super) const WALL_CHECKPOINTS: [u64; 4] = [60, 300, 900, 3_600];

/// Oracle-run checkpoints.
pub(super) const RUN_CHECKPOINTS: [u64; 4] = [100, 300, 1_000, 3_000];

/// Shares of a run's own total removal, in percent.
pub(super) const SHARES: [u64; 3] = [50, 90, 99];

/// The best size (non-whitespace characters) after `seconds` of wall time: the input's until
/// the first improvement, the output's once the run has ended (also past its time limit: it
/// needed no more). `None` past the time limit of a run cut there, or without a trace.
pub(super) fn size_at_seconds(row: &Row, seconds: f64) -> Option<u64> {
    let trace = row.usable_trace()?;
    if seconds >= row.wall_seconds && !row.timed_out {
        return Some(row.output_chars);
    }
    if seconds > row.time_limit_seconds {
        return None;
    }
    Some(
        trace
            .iter()
            .filter(|p| p.seconds <= seconds)
            .map(|p| p.size)
            .fold(row.input_chars, u64::min),
    )
}

/// The best size after `runs` oracle runs; the output's if the run ended, not cut, with fewer.
/// `None` if the run was cut at the time limit before that many runs, or without a trace or
/// a count of oracle runs.
pub(super) fn size_at_runs(row: &Row, runs: u64) -> Option<u64> {
    let trace = row.usable_trace()?;
    let total = row.oracle_runs?;
    if runs > total {
        return (!row.timed_out).then_some(row.output_chars);
    }
    Some(
        trace
            .iter()
            .filter(|p| p.oracle_runs <= runs)
            .map(|p| p.size)
            .fold(row.input_chars, u64::min),
    )
}

/// (seconds, oracle runs) at the first improvement by which the run had removed `percent`% of
/// what it removed in the end (input minus output). `None` if it removed nothing, or without
/// a trace.
pub(super) fn time_to_remove(row: &Row, percent: u64) -> Option<(f64, u64)> {
    let trace = row.usable_trace()?;
    let total = row.input_chars.checked_sub(row.output_chars)?;
    if total == 0 {
        return None;
    }
    trace
        .iter()
        .find(|p| row.input_chars.saturating_sub(p.size) * 100 >= percent * total)
        .map(|p| (p.seconds, p.oracle_runs))
}

/// `42.0 s`, `12.5 min`, `1.25 h`.
pub(super) fn duration(seconds: f64) -> String {
    if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else if seconds < 3_600.0 {
        format!("{:.1} min", seconds / 60.0)
    } else {
        format!("{:.2} h", seconds / 3_600.0)
    }
}

/// A checkpoint's column heading: `1 min`, `60 min`, `1,000 runs`.
fn wall_heading(seconds: u64) -> String {
    format!("{} min", seconds / 60)
}

/// The checkpoints a table of `rows` shows: the wall-time ones within the longest time
/// limit, the oracle-run ones that some run reached.
pub(super) fn checkpoints(rows: &[&Row]) -> (Vec<u64>, Vec<u64>) {
    let limit = rows
        .iter()
        .map(|r| r.time_limit_seconds)
        .fold(0.0, f64::max);
    let most_runs = rows.iter().filter_map(|r| r.oracle_runs).max().unwrap_or(0);
    let wall = WALL_CHECKPOINTS
        .into_iter()
        .filter(|&s| s as f64 <= limit)
        .collect();
    let runs = RUN_CHECKPOINTS
        .into_iter()
        .filter(|&n| n <= most_runs)
        .collect();
    (wall, runs)
}

/// The checkpoint table of `rows` (one `--jobs` value; rows without a trace or with an error
/// are left out): one line per case and configuration, in the rows' order. `None` if no row
/// has a trace.
pub(super) fn checkpoint_table(rows: &[&Row]) -> Option<String> {
    let rows: Vec<&Row> = rows
        .iter()
        .copied()
        .filter(|r| r.usable_trace().is_some() && r.error.is_none())
        .collect();
    if rows.is_empty() {
        return None;
    }
    let (wall, runs) = checkpoints(&rows);
    let mut out = String::from("| Test | Configuration | Input |");
    for &s in &wall {
        let _ = write!(out, " {} |", wall_heading(s));
    }
    for &n in &runs {
        let _ = write!(out, " {} runs |", thousands(n));
    }
    out.push_str(" End |");
    for p in SHARES {
        let _ = write!(out, " {p}% |");
    }
    out.push_str("\n|---|---|--:|");
    out.push_str(&"--:|".repeat(wall.len() + runs.len() + 1 + SHARES.len()));
    out.push('\n');
    // The sizes of every line, checkpoint by checkpoint, then the end.
    let sizes: Vec<Vec<Option<u64>>> = rows
        .iter()
        .map(|r| {
            let mut v: Vec<Option<u64>> =
                wall.iter().map(|&s| size_at_seconds(r, s as f64)).collect();
            v.extend(runs.iter().map(|&n| size_at_runs(r, n)));
            v.push(Some(r.output_chars));
            v
        })
        .collect();
    for (i, row) in rows.iter().enumerate() {
        // Bold: the smallest of the test's lines at that checkpoint, when it has several.
        let same_case: Vec<usize> = (0..rows.len())
            .filter(|&j| rows[j].case == row.case)
            .collect();
        let name = Config::parse(&row.config).map_or(row.config.clone(), |c| c.paper_name());
        let _ = write!(
            out,
            "| {} | {} | {} |",
            md_escape(&paper_case_name(&row.case)),
            md_escape(&name),
            thousands(row.input_chars)
        );
        let last = sizes[i].len() - 1;
        for (col, size) in sizes[i].iter().enumerate() {
            let text = match size {
                None => "—".to_string(),
                Some(v) => {
                    let best = same_case.iter().filter_map(|&j| sizes[j][col]).min();
                    let mut t = thousands(*v);
                    if same_case.len() > 1 && best == Some(*v) {
                        t = format!("**{t}**");
                    }
                    if col == last {
                        t.push_str(note_of(row));
                    }
                    t
                }
            };
            let _ = write!(out, " {text} |");
        }
        for p in SHARES {
            let text = time_to_remove(row, p).map_or("—".to_string(), |(s, n)| {
                format!("{} ({})", duration(s), thousands(n))
            });
            let _ = write!(out, " {text} |");
        }
        out.push('\n');
    }
    Some(out)
}

/// The checkpoint section of `tables.md` for one `--jobs` value, or nothing.
pub(super) fn checkpoint_section(rows: &[Row], jobs: usize) -> String {
    let of_jobs: Vec<&Row> = rows.iter().filter(|r| r.jobs == jobs).collect();
    let Some(table) = checkpoint_table(&of_jobs) else {
        return String::new();
    };
    format!(
        "### Progress: size at checkpoints, jobs {jobs}\n\n\
         Each run's best output so far (non-whitespace characters) after minutes of wall time \
         (those within the time limit) and after oracle runs (those some run reached), its \
         final size (End), and the wall time (oracle runs) it took to remove 50%, 90% and 99% \
         of what it removed in the end; from each run's trace (treedd's `--stats` `trace`, the \
         peers' wrapper logs). `—`: past the time limit of a run cut there, cut at the time limit before \
         that many oracle runs, or nothing removed; bold: the smallest of a test at that \
         checkpoint; `†`: cut at the time limit.\n\n{table}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::store::TracePoint;
    use crate::bench::test_util::row;

    fn tp(oracle_runs: u64, seconds: f64, size: u64) -> TracePoint {
        TracePoint {
            oracle_runs,
            seconds,
            size,
        }
    }

    /// 1,000 characters in, 100 out after 250 runs and 400 s (limit 900 s, finished).
    fn finished() -> Row {
        let mut r = row("big", "preset-balanced", 100, Some(250));
        r.input_chars = 1_000;
        r.wall_seconds = 400.0;
        r.time_limit_seconds = 900.0;
        r.trace = Some(vec![
            tp(10, 30.0, 600),
            tp(50, 90.0, 400),
            tp(120, 200.0, 150),
            tp(240, 390.0, 100),
        ]);
        r
    }

    #[test]
    fn sizes_at_wall_time_checkpoints() {
        let r = finished();
        assert_eq!(
            size_at_seconds(&r, 10.0),
            Some(1_000),
            "before any improvement"
        );
        assert_eq!(size_at_seconds(&r, 60.0), Some(600));
        assert_eq!(
            size_at_seconds(&r, 90.0),
            Some(400),
            "an improvement at the mark"
        );
        assert_eq!(size_at_seconds(&r, 300.0), Some(150));
        assert_eq!(size_at_seconds(&r, 900.0), Some(100), "ended: the output");
        assert_eq!(
            size_at_seconds(&r, 3_600.0),
            Some(100),
            "ended: the output past the time limit too"
        );
        let mut cut = r.clone();
        cut.timed_out = true;
        cut.wall_seconds = 900.0;
        assert_eq!(size_at_seconds(&cut, 600.0), Some(100));
        assert_eq!(
            size_at_seconds(&cut, 3_600.0),
            None,
            "cut: past the time limit"
        );
        let mut no_trace = r.clone();
        no_trace.trace = None;
        assert_eq!(size_at_seconds(&no_trace, 60.0), None);
    }

    #[test]
    fn sizes_at_oracle_run_checkpoints() {
        let mut r = finished();
        assert_eq!(size_at_runs(&r, 100), Some(400));
        assert_eq!(size_at_runs(&r, 240), Some(100));
        assert_eq!(size_at_runs(&r, 1_000), Some(100), "ended with fewer runs");
        r.timed_out = true;
        assert_eq!(size_at_runs(&r, 1_000), None, "cut before 1,000 runs");
        assert_eq!(size_at_runs(&r, 250), Some(100));
        r.oracle_runs = None;
        assert_eq!(size_at_runs(&r, 100), None, "runs not counted");
    }

    #[test]
    fn time_to_remove_a_share_of_the_runs_own_removal() {
        let r = finished();
        // 900 removed in the end: 50% = 450 (size 550), 90% = 810 (190), 99% = 891 (109).
        assert_eq!(time_to_remove(&r, 50), Some((90.0, 50)));
        assert_eq!(time_to_remove(&r, 90), Some((200.0, 120)));
        assert_eq!(time_to_remove(&r, 99), Some((390.0, 240)));
        let mut nothing = r.clone();
        nothing.output_chars = 1_000;
        assert_eq!(time_to_remove(&nothing, 50), None);
        assert_eq!(duration(42.0), "42.0 s");
        assert_eq!(duration(750.0), "12.5 min");
        assert_eq!(duration(4_500.0), "1.25 h");
    }

    #[test]
    fn a_checkpoint_table_from_hand_made_rows() {
        let a = finished();
        // A peer cut at the 900 s limit after 700 runs, 300 characters left.
        let mut b = row("big", "cvise", 300, Some(700));
        b.input_chars = 1_000;
        b.wall_seconds = 905.0;
        b.time_limit_seconds = 900.0;
        b.timed_out = true;
        b.trace = Some(vec![tp(200, 100.0, 700), tp(600, 800.0, 300)]);
        // No trace: left out.
        let c = row("big", "hdd", 50, Some(10));
        // Failed: left out.
        let mut d = finished();
        d.config = "hddr".into();
        d.error = Some("boom".into());
        let rows = [&a, &b, &c, &d];
        assert_eq!(
            checkpoints(&rows[..2]),
            (vec![60, 300, 900], vec![100, 300])
        );
        let table = checkpoint_table(&rows).unwrap();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines,
            [
                "| Test | Configuration | Input | 1 min | 5 min | 15 min | 100 runs | 300 runs \
                 | End | 50% | 90% | 99% |",
                "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
                "| big | preset balanced | 1,000 | **600** | **150** | **100** | **400** | \
                 **100** | **100** | 1.5 min (50) | 3.3 min (120) | 6.5 min (240) |",
                "| big | C-Vise | 1,000 | 1,000 | 700 | 300 | 1,000 | 700 | 300† | \
                 13.3 min (600) | 13.3 min (600) | 13.3 min (600) |",
            ]
        );
        assert_eq!(checkpoint_table(&[&c]), None);
        let section = checkpoint_section(&[a.clone(), b.clone()], 1);
        assert!(section.starts_with("### Progress: size at checkpoints, jobs 1\n"));
        assert!(
            checkpoint_section(&[a, b], 2).is_empty(),
            "no row of jobs 2"
        );
    }
}
