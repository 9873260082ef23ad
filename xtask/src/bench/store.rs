//! Results: one `Row` per run in a resumable `results.jsonl`, and its CSV rendering.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde::{Deserialize, Serialize};

use super::config::Config;

/// One row of results: one case reduced with one configuration and one `--jobs` value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct Row {
    pub(super) case: String,
    pub(super) config: String,
    pub(super) jobs: usize,
    pub(super) language: String,
    pub(super) input_chars: u64,
    pub(super) input_bytes: u64,
    pub(super) output_chars: u64,
    pub(super) output_bytes: u64,
    #[serde(default)]
    pub(super) oracle_runs: Option<u64>,
    #[serde(default)]
    pub(super) cache_hits: Option<u64>,
    #[serde(default)]
    pub(super) syntax_filtered: Option<u64>,
    pub(super) wall_seconds: f64,
    #[serde(default)]
    pub(super) cpu_self_seconds: Option<f64>,
    #[serde(default)]
    pub(super) cpu_children_seconds: Option<f64>,
    #[serde(default)]
    pub(super) peak_rss_kib: Option<u64>,
    pub(super) timed_out: bool,
    /// The output was re-checked interesting by running the case's oracle once more.
    pub(super) verified: bool,
    /// Why the run failed (treedd's exit status and last message); failed runs are rerun.
    #[serde(default)]
    pub(super) error: Option<String>,
    pub(super) time_limit_seconds: f64,
    pub(super) date: String,
    /// `nproc`, CPU model and memory of the machine that ran it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) machine: Option<String>,
    /// The result's size at every improvement (treedd's `--stats` `trace`; for peers, from
    /// the wrapper's log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) trace: Option<Vec<TracePoint>>,
    /// A peer's version, as its `--version` prints it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) version: Option<String>,
}

/// One improvement: after `oracle_runs` oracle runs and `seconds`, the best result had
/// `size` non-whitespace characters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct TracePoint {
    pub(super) oracle_runs: u64,
    pub(super) seconds: f64,
    pub(super) size: u64,
}

impl Row {
    pub(super) fn key(&self) -> (String, String, usize) {
        (self.case.clone(), self.config.clone(), self.jobs)
    }

    /// The trace, if there is one to believe. A point of size 0 above a non-empty output is
    /// a misreading of the peers' first wrapper, which measured an interesting candidate
    /// after its run, when C-Vise had sometimes removed the folder already; the wrapper
    /// kept no point smaller than that one, so the rest of such a trace is lost too. Those
    /// traces (C-Vise's rows of c-ice and perses up to 2026-11-27) count as none.
    pub(super) fn usable_trace(&self) -> Option<&[TracePoint]> {
        let trace = self.trace.as_deref()?;
        let misread = self.output_chars > 0 && trace.iter().any(|p| p.size == 0);
        (!misread).then_some(trace)
    }
}

/// All rows of one suite, in `results.jsonl`; the last row for a key wins.
pub(super) struct Store {
    pub(super) path: PathBuf,
    pub(super) rows: Vec<Row>,
}

impl Store {
    /// [`Store::open`] on `path`, which starts as a copy of `published` (the rows checked in
    /// under docs/bench/) when it does not exist yet: a campaign resumes on another machine
    /// (a fresh checkout has no target/bench/), and `--publish` keeps every published row
    /// instead of replacing them with this machine's.
    pub(super) fn open_seeded(path: &Path, published: &Path) -> Result<Store> {
        if !path.exists() && published.is_file() {
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir)?;
            }
            fs::copy(published, path).with_context(|| {
                format!("cannot copy {} to {}", published.display(), path.display())
            })?;
            eprintln!(
                "bench: starting from the published rows in {}",
                published.display()
            );
        }
        Store::open(path)
    }

    pub(super) fn open(path: &Path) -> Result<Store> {
        let mut rows = Vec::new();
        if let Ok(text) = fs::read_to_string(path) {
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Row>(line) {
                    Ok(row) => rows.push(row),
                    Err(e) => {
                        eprintln!("{}:{}: skipping unreadable row: {e}", path.display(), i + 1)
                    }
                }
            }
        }
        Ok(Store {
            path: path.to_path_buf(),
            rows,
        })
    }

    /// Whether this combination has a successful row (failed runs are retried).
    pub(super) fn finished(&self, case: &str, config: &str, jobs: usize) -> bool {
        self.rows
            .iter()
            .rev()
            .find(|r| r.case == case && r.config == config && r.jobs == jobs)
            .is_some_and(|r| r.error.is_none())
    }

    pub(super) fn append(&mut self, row: Row) -> Result<()> {
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        let mut file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .with_context(|| format!("cannot open {}", self.path.display()))?;
        writeln!(file, "{}", serde_json::to_string(&row)?)?;
        self.rows.push(row);
        Ok(())
    }

    /// The newest row of every key, ordered by case, configuration order and jobs.
    pub(super) fn latest(&self) -> Vec<Row> {
        let mut by_key: BTreeMap<(String, String, usize), Row> = BTreeMap::new();
        for row in &self.rows {
            by_key.insert(row.key(), row.clone());
        }
        let mut rows: Vec<Row> = by_key.into_values().collect();
        rows.sort_by_cached_key(|r| {
            let order = Config::parse(&r.config)
                .map(|c| c.order())
                .unwrap_or((usize::MAX, r.config.clone()));
            (r.case.clone(), order, r.jobs)
        });
        rows
    }

    /// Rewrite the file with only the newest row of every key.
    pub(super) fn compact(&mut self) -> Result<()> {
        self.rows = self.latest();
        write_jsonl(&self.path, &self.rows)
    }
}

/// Write `rows`, one JSON object a line.
pub(super) fn write_jsonl(path: &Path, rows: &[Row]) -> Result<()> {
    let mut text = String::new();
    for row in rows {
        text.push_str(&serde_json::to_string(row)?);
        text.push('\n');
    }
    fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Rows back from `results.csv` (as [`render_csv`] writes it; `machine` is not in it).
pub(super) fn parse_csv(text: &str) -> Result<Vec<Row>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let fields = split_csv_line(line);
        let get = |name: &str| -> &str {
            header
                .iter()
                .position(|h| *h == name)
                .and_then(|p| fields.get(p))
                .map_or("", String::as_str)
        };
        let u = |name: &str| get(name).parse::<u64>().ok();
        let f = |name: &str| get(name).parse::<f64>().ok();
        let bad = || anyhow::anyhow!("results.csv line {}: bad or missing numbers", i + 2);
        let opt_string = |name: &str| Some(get(name).to_string()).filter(|s| !s.is_empty());
        rows.push(Row {
            case: get("case").to_string(),
            config: get("config").to_string(),
            jobs: get("jobs").parse().map_err(|_| bad())?,
            language: get("language").to_string(),
            input_chars: u("input_chars").ok_or_else(bad)?,
            input_bytes: u("input_bytes").ok_or_else(bad)?,
            output_chars: u("output_chars").ok_or_else(bad)?,
            output_bytes: u("output_bytes").ok_or_else(bad)?,
            oracle_runs: u("oracle_runs"),
            cache_hits: u("cache_hits"),
            syntax_filtered: u("syntax_filtered"),
            wall_seconds: f("wall_seconds").ok_or_else(bad)?,
            cpu_self_seconds: f("cpu_self_seconds"),
            cpu_children_seconds: f("cpu_children_seconds"),
            peak_rss_kib: u("peak_rss_kib"),
            timed_out: get("timed_out") == "true",
            verified: get("verified") == "true",
            error: opt_string("error"),
            time_limit_seconds: f("time_limit_seconds").ok_or_else(bad)?,
            date: get("date").to_string(),
            machine: None,
            trace: None,
            version: None,
        });
    }
    Ok(rows)
}

/// Fields of one CSV line (quotes as [`csv_field`] writes them).
fn split_csv_line(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                if let Some(f) = fields.last_mut() {
                    f.push('"');
                }
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => {
                if let Some(f) = fields.last_mut() {
                    f.push(c);
                }
            }
        }
    }
    fields
}

pub(super) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub(super) fn render_csv(rows: &[Row]) -> String {
    let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
    let optf = |v: Option<f64>| v.map(|v| format!("{v:.3}")).unwrap_or_default();
    let mut out = String::from(
        "case,config,jobs,language,input_chars,input_bytes,output_chars,output_bytes,oracle_runs,\
         cache_hits,syntax_filtered,wall_seconds,cpu_self_seconds,cpu_children_seconds,\
         peak_rss_kib,timed_out,verified,error,time_limit_seconds,date\n",
    );
    for r in rows {
        let fields = [
            csv_field(&r.case),
            csv_field(&r.config),
            r.jobs.to_string(),
            r.language.clone(),
            r.input_chars.to_string(),
            r.input_bytes.to_string(),
            r.output_chars.to_string(),
            r.output_bytes.to_string(),
            opt(r.oracle_runs),
            opt(r.cache_hits),
            opt(r.syntax_filtered),
            format!("{:.3}", r.wall_seconds),
            optf(r.cpu_self_seconds),
            optf(r.cpu_children_seconds),
            opt(r.peak_rss_kib),
            r.timed_out.to_string(),
            r.verified.to_string(),
            csv_field(r.error.as_deref().unwrap_or("")),
            format!("{}", r.time_limit_seconds),
            csv_field(&r.date),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::run::Scratch;
    use crate::bench::test_util::row;

    #[test]
    fn a_new_store_starts_from_the_published_rows() {
        let dir = Scratch::new("store-seed").unwrap();
        let published = dir.path().join("docs/results.jsonl");
        let mut docs = Store::open(&published).unwrap();
        docs.append(row("a", "hdd", 10, Some(5))).unwrap();
        let local = dir.path().join("target/results.jsonl");
        let mut store = Store::open_seeded(&local, &published).unwrap();
        assert!(store.finished("a", "hdd", 1), "the published row is there");
        store.append(row("b", "hdd", 7, Some(3))).unwrap();
        // An existing store is left as it is.
        docs.append(row("c", "hdd", 1, Some(1))).unwrap();
        let store = Store::open_seeded(&local, &published).unwrap();
        assert_eq!(store.latest().len(), 2);
        assert!(!store.finished("c", "hdd", 1));
    }

    #[test]
    fn store_resumes_and_the_newest_row_wins() {
        let dir = Scratch::new("store").unwrap();
        let path = dir.path().join("sub/results.jsonl");
        let mut store = Store::open(&path).unwrap();
        assert!(!store.finished("a", "hdd", 1));
        store.append(row("a", "hdd", 10, Some(5))).unwrap();
        let mut failed = row("a", "hddh", 0, None);
        failed.error = Some("treedd exited with exit status: 2: boom".into());
        store.append(failed).unwrap();
        store.append(row("a", "hdd", 8, Some(6))).unwrap();
        // A torn last line (the harness was killed mid-write) is skipped, not fatal.
        let mut f = fs::OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"case\": \"a\", \"conf").unwrap();
        drop(f);

        let mut store = Store::open(&path).unwrap();
        assert_eq!(store.rows.len(), 3);
        assert!(store.finished("a", "hdd", 1));
        assert!(!store.finished("a", "hdd", 2), "other jobs value");
        assert!(!store.finished("a", "hddh", 1), "failed runs are retried");
        let latest = store.latest();
        assert_eq!(latest.len(), 2);
        assert_eq!(
            (latest[0].config.as_str(), latest[0].output_chars),
            ("hdd", 8)
        );
        store.compact().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 2);
        assert_eq!(Store::open(&path).unwrap().latest(), latest);
    }

    #[test]
    fn a_trace_with_a_misread_empty_candidate_is_not_used() {
        let point = |size| TracePoint {
            oracle_runs: 3,
            seconds: 1.0,
            size,
        };
        let mut r = row("a", "cvise", 40, Some(5));
        assert_eq!(r.usable_trace(), None);
        r.trace = Some(vec![point(60), point(50)]);
        assert_eq!(r.usable_trace().map(<[_]>::len), Some(2));
        r.trace = Some(vec![point(60), point(0)]);
        assert_eq!(r.usable_trace(), None);
        r.output_chars = 0;
        assert_eq!(r.usable_trace().map(<[_]>::len), Some(2), "really empty");
    }

    #[test]
    fn csv_quotes_what_needs_quoting() {
        let mut r = row("a,b", "hdd", 3, None);
        r.error = Some("say \"hi\"".into());
        let csv = render_csv(&[r]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].split(',').count(), 20);
        assert!(
            lines[1].starts_with("\"a,b\",hdd,1,c,100,120,3,8,,"),
            "{}",
            lines[1]
        );
        assert!(lines[1].contains(",\"say \"\"hi\"\"\","), "{}", lines[1]);
    }

    #[test]
    fn csv_reads_back_what_it_wrote() {
        let mut r = row("a,b", "hoist+hdd", 3, Some(12));
        r.error = Some("say \"hi\", then go".into());
        r.wall_seconds = 1.25;
        r.cpu_self_seconds = Some(0.5);
        r.date = "2026-11-22 05:07 UTC".into();
        let mut timed = row("c", "hdd", 7, None);
        timed.timed_out = true;
        let rows = vec![r, timed];
        let csv = render_csv(&rows);
        let back = parse_csv(&csv).unwrap();
        assert_eq!(back, rows);
        assert_eq!(render_csv(&back), csv);
    }
}
