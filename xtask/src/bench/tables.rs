//! Markdown tables in the dissertation's format (Tables 7.3-7.10): bold best, change in
//! percent against the first column.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use treedd_reduce::{Base, Hoisting};

use super::config::Config;
use super::store::Row;
use super::suite::paper_case_name;

/// One number in a comparison table.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Cell {
    /// `None`: the run happened but did not report the number.
    pub(super) value: Option<u64>,
    /// Appended to the number: `†` timed out (best so far), `✗` output not interesting.
    pub(super) note: &'static str,
}

/// `1234567` -> `1,234,567`, like the papers.
pub(super) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Change of `value` against `base` in percent, as the papers print it (`—` for no change).
pub(super) fn change(base: u64, value: u64) -> String {
    if base == 0 {
        return "—".to_string();
    }
    let pct = (value as f64 - base as f64) / base as f64 * 100.0;
    if value == base {
        "—".to_string()
    } else {
        format!("({pct:+.2}%)")
    }
}

pub(super) fn md_escape(s: &str) -> String {
    s.replace('*', "\\*").replace('|', "\\|")
}

/// A Markdown table: column 0 is the base; other columns show the change against it in
/// percent; the smallest number of each row is bold (all of them on a tie).
pub(super) fn comparison_table(columns: &[String], rows: &[(String, Vec<Option<Cell>>)]) -> String {
    let mut out = String::from("| Test |");
    for c in columns {
        let _ = write!(out, " {} |", md_escape(c));
    }
    out.push_str("\n|---|");
    out.push_str(&"--:|".repeat(columns.len()));
    out.push('\n');
    for (name, cells) in rows {
        let best = cells
            .iter()
            .filter_map(|c| c.as_ref().and_then(|c| c.value))
            .min();
        let base = cells.first().and_then(|c| c.as_ref()).and_then(|c| c.value);
        let _ = write!(out, "| {} |", md_escape(name));
        for (i, cell) in cells.iter().enumerate() {
            let text = match cell {
                None => "—".to_string(),
                Some(Cell { value: None, note }) => format!("?{note}"),
                Some(Cell {
                    value: Some(v),
                    note,
                }) => {
                    let number = if Some(*v) == best {
                        format!("**{}**{note}", thousands(*v))
                    } else {
                        format!("{}{note}", thousands(*v))
                    };
                    match (i, base) {
                        (0, _) => number,
                        (_, Some(b)) => format!("{number} {}", change(b, *v)),
                        (_, None) => format!("{number} —"),
                    }
                }
            };
            let _ = write!(out, " {text} |");
        }
        out.push('\n');
    }
    out
}

pub(super) fn note_of(row: &Row) -> &'static str {
    if row.timed_out {
        "†"
    } else if !row.verified {
        "✗"
    } else {
        ""
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Measure {
    Size,
    Runs,
}

impl Measure {
    pub(super) fn of(self, row: &Row) -> Option<u64> {
        match self {
            Measure::Size => Some(row.output_chars),
            Measure::Runs => row.oracle_runs,
        }
    }
}

pub(super) fn cell(row: Option<&Row>, measure: Measure) -> Option<Cell> {
    let row = row?;
    if row.error.is_some() {
        return None;
    }
    Some(Cell {
        value: measure.of(row),
        note: note_of(row),
    })
}

/// Rows of one `--jobs` value, indexed by (case, config slug).
pub(super) type Index<'a> = BTreeMap<(&'a str, &'a str), &'a Row>;

pub(super) fn index(rows: &[Row], jobs: usize) -> Index<'_> {
    rows.iter()
        .filter(|r| r.jobs == jobs)
        .map(|r| ((r.case.as_str(), r.config.as_str()), r))
        .collect()
}

pub(super) fn cases_of(rows: &[Row]) -> Vec<String> {
    let set: BTreeSet<&str> = rows.iter().map(|r| r.case.as_str()).collect();
    set.into_iter().map(str::to_string).collect()
}

pub(super) fn family_table(
    index: &Index<'_>,
    cases: &[String],
    configs: &[Config],
    measure: Measure,
) -> String {
    let columns: Vec<String> = configs.iter().map(Config::paper_name).collect();
    let slugs: Vec<String> = configs.iter().map(Config::slug).collect();
    let rows: Vec<(String, Vec<Option<Cell>>)> = cases
        .iter()
        .filter(|case| {
            slugs
                .iter()
                .any(|s| index.contains_key(&(case.as_str(), s.as_str())))
        })
        .map(|case| {
            let cells = slugs
                .iter()
                .map(|s| cell(index.get(&(case.as_str(), s.as_str())).copied(), measure))
                .collect();
            (paper_case_name(case), cells)
        })
        .collect();
    comparison_table(&columns, &rows)
}

pub(super) fn other_table(
    index: &Index<'_>,
    cases: &[String],
    others: &[Config],
    measure: Measure,
) -> String {
    let mut configs = vec![Config::Tree(Base::Hdd, Hoisting::None)];
    configs.extend(others.iter().cloned());
    family_table(index, cases, &configs, measure)
}

pub(super) fn detail_table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| Test | Configuration | jobs | input chars | output chars | output bytes | oracle runs \
         | cache hits | syntax-filtered | wall s | own CPU s | peak RSS MiB | verified | note |\n\
         |---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|\n",
    );
    let opt = |v: Option<u64>| v.map_or("?".to_string(), thousands);
    for r in rows {
        let name = Config::parse(&r.config).map_or(r.config.clone(), |c| c.paper_name());
        let note = match (&r.error, r.timed_out) {
            (Some(e), _) => md_escape(e),
            (None, true) => format!("timed out at {} s (best so far)", r.time_limit_seconds),
            (None, false) => String::new(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {} | {} | {} | {} |",
            md_escape(&r.case),
            md_escape(&name),
            r.jobs,
            thousands(r.input_chars),
            thousands(r.output_chars),
            thousands(r.output_bytes),
            opt(r.oracle_runs),
            opt(r.cache_hits),
            opt(r.syntax_filtered),
            r.wall_seconds,
            r.cpu_self_seconds
                .map_or("?".to_string(), |c| format!("{c:.2}")),
            r.peak_rss_kib
                .map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
            if r.verified { "yes" } else { "**no**" },
            note
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::measure::format_utc;

    #[test]
    fn numbers_are_formatted_like_the_papers() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(14_699), "14,699");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(change(582, 489), "(-15.98%)");
        assert_eq!(change(10_540, 21_094), "(+100.13%)");
        assert_eq!(change(18, 18), "—");
        assert_eq!(change(0, 5), "—");
        assert_eq!(format_utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(format_utc(1_700_000_000), "2023-11-14 22:13 UTC");
        assert_eq!(format_utc(951_782_400), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn comparison_table_bolds_the_best_and_shows_change_against_the_base() {
        let c = |v: u64| {
            Some(Cell {
                value: Some(v),
                note: "",
            })
        };
        let columns: Vec<String> = ["HDD*", "Hoist*+HDD*", "HDDH*", "Hoist*+HDDH*"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let rows = vec![
            (
                "clang-22382".to_string(),
                vec![c(582), c(489), c(475), c(489)],
            ),
            (
                "gcc-71626".to_string(),
                vec![c(168), c(167), c(167), c(167)],
            ),
            ("jerry-3433".to_string(), vec![c(18), c(18), c(18), c(18)]),
            ("gcc-70127".to_string(), vec![None, c(992), c(915), c(947)]),
            (
                "jerry-3299".to_string(),
                vec![
                    c(92),
                    Some(Cell {
                        value: Some(89),
                        note: "†",
                    }),
                    Some(Cell {
                        value: None,
                        note: "",
                    }),
                    c(100),
                ],
            ),
        ];
        let table = comparison_table(&columns, &rows);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0],
            "| Test | HDD\\* | Hoist\\*+HDD\\* | HDDH\\* | Hoist\\*+HDDH\\* |"
        );
        assert_eq!(lines[1], "|---|--:|--:|--:|--:|");
        assert_eq!(
            lines[2],
            "| clang-22382 | 582 | 489 (-15.98%) | **475** (-18.38%) | 489 (-15.98%) |"
        );
        assert_eq!(
            lines[3],
            "| gcc-71626 | 168 | **167** (-0.60%) | **167** (-0.60%) | **167** (-0.60%) |"
        );
        assert_eq!(
            lines[4],
            "| jerry-3433 | **18** | **18** — | **18** — | **18** — |"
        );
        assert_eq!(lines[5], "| gcc-70127 | — | 992 — | **915** — | 947 — |");
        assert_eq!(
            lines[6],
            "| jerry-3299 | 92 | **89**† (-3.26%) | ? | 100 (+8.70%) |"
        );
        assert_eq!(lines.len(), 7);
    }
}
