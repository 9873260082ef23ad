//! `cargo xtask bench big`: treedd's own cost per candidate on megabyte inputs.
//!
//! The inputs are the preprocessed C++ translation units of the shared `cpp-ice` suite (about
//! 1 MB each, hundreds of ERROR nodes each) and one made here: those inputs one after the
//! other, each inside a `namespace bigN { ... }` of its own, until the text holds at least
//! [`BIG_BYTES`] bytes. The oracle is this binary as the marker oracle
//! ([`super::micro::marker_oracle_mode`]): a candidate is interesting iff it holds `int main`
//! and at least half the input's bytes. The reduction takes the first half of the text away
//! as a real one would, then every candidate fails, as most do in a real reduction's first
//! minutes, and treedd keeps making megabyte candidates. Each run is `--jobs 1`, capped at
//! the time limit (SIGINT, then `--stats`); treedd's own CPU (`--stats cpu_seconds`, its
//! process alone, not its oracles) is divided by its oracle runs.
//!
//! The bound: with a 1 s oracle at `--jobs 1`, treedd's own work stays under 1% of the wall
//! time when its CPU per oracle run is at most 10 ms (10 ms of treedd for 1 s of oracle);
//! its peak resident set on the 5 MB input at most 300 MB.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{bail, Context as _, Result};

use super::micro::{MARKER_ENV, MIN_BYTES_ENV};
use super::run::{run_watched, stat_u64, Scratch};
use super::suite::{discover, shared_dir, workspace_root};
use super::tables::thousands;
use super::treedd_binary;

/// The made input holds at least this many bytes.
const BIG_BYTES: usize = 4_500_000;

/// Per-run bound on treedd's own CPU (see the module docs).
const CPU_PER_RUN_MS: f64 = 10.0;

/// Bound on the peak resident set on the made input.
const PEAK_MB: f64 = 300.0;

/// One capped reduction.
struct Row {
    name: String,
    bytes: usize,
    runs: u64,
    cpu: f64,
    peak_mb: f64,
    wall: f64,
    /// Seconds to the first oracle run after the check of the original (tree, facts).
    first: f64,
    output_bytes: u64,
}

pub(super) fn big(treedd: Option<PathBuf>, publish: bool, limit: Duration) -> Result<()> {
    let root = workspace_root();
    let treedd = treedd_binary(&root, treedd)?;
    let shared = shared_dir(&root)
        .context("the shared suites (shared/suites beside the repository) are missing")?;
    let cases = discover(&shared.join("suites/cpp-ice"))?;
    if cases.is_empty() {
        bail!("no cases in the shared cpp-ice suite");
    }
    let work = Scratch::new("big")?;
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    for case in &cases {
        inputs.push((case.name.clone(), fs::read(&case.input)?));
    }
    let made = made_input(&inputs.iter().map(|(_, t)| &t[..]).collect::<Vec<_>>());
    let made_name = format!("cpp-ice in namespaces, {} MB", made.len() / 1_000_000);
    inputs.push((made_name, made));
    let mut rows = Vec::new();
    for (i, (name, text)) in inputs.iter().enumerate() {
        let dir = work.path().join(format!("case{i}"));
        fs::create_dir_all(&dir)?;
        rows.push(reduce(&treedd, &dir, name, text, limit)?);
        eprintln!("bench big: {name} done");
    }
    let md = render(&rows, limit);
    print!("{md}");
    if publish {
        let out = root.join("docs/bench/big.md");
        fs::write(&out, &md)?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

/// The `texts` one after the other, each in a namespace of its own, repeated until the
/// whole holds at least [`BIG_BYTES`] bytes.
fn made_input(texts: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for (n, text) in texts.iter().cycle().enumerate() {
        if out.len() >= BIG_BYTES || text.is_empty() {
            break;
        }
        out.extend_from_slice(format!("namespace big{} {{\n", n + 1).as_bytes());
        out.extend_from_slice(text);
        out.extend_from_slice(b"\n}\n");
    }
    out
}

fn reduce(treedd: &Path, dir: &Path, name: &str, text: &[u8], limit: Duration) -> Result<Row> {
    let input = dir.join("input.cpp");
    fs::write(&input, text)?;
    let markers = dir.join("markers");
    fs::write(&markers, "int main\n")?;
    let stats = dir.join("stats.json");
    let finished = run_watched(
        Command::new(treedd)
            .arg("--test")
            .arg(std::env::current_exe()?)
            .args(["--jobs", "1", "--timeout", "10", "-q", "--stats"])
            .arg(&stats)
            .arg("-o")
            .arg(dir.join("output.cpp"))
            .arg(&input)
            .env(MARKER_ENV, &markers)
            .env(MIN_BYTES_ENV, (text.len() / 2).to_string())
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        Some(limit),
    )?;
    let s: serde_json::Value = serde_json::from_slice(
        &fs::read(&stats).with_context(|| format!("treedd on {name} wrote no stats"))?,
    )?;
    // The trace's entries are the improvements; the first comes one run after the check.
    let first = s["trace"]
        .as_array()
        .and_then(|t| t.first())
        .and_then(|e| e["seconds"].as_f64())
        .unwrap_or(f64::NAN);
    Ok(Row {
        name: name.to_string(),
        bytes: text.len(),
        runs: stat_u64(&s, "oracle_runs").unwrap_or(0),
        cpu: s["cpu_seconds"]
            .as_f64()
            .or(finished.cpu_self)
            .unwrap_or(f64::NAN),
        peak_mb: stat_u64(&s, "peak_rss_bytes").map_or(f64::NAN, |b| b as f64 / 1e6),
        wall: finished.wall.as_secs_f64(),
        first,
        output_bytes: stat_u64(&s, "output_bytes").unwrap_or(0),
    })
}

fn render(rows: &[Row], limit: Duration) -> String {
    let mut md = String::from("# treedd's own cost on megabyte inputs\n\n");
    let _ = writeln!(
        md,
        "Made by `cargo xtask bench big` (`xtask/src/bench/big.rs` says how). Each input is \
         reduced with `--jobs 1` for {} s with a marker oracle (interesting iff the \
         candidate holds `int main` and at least half the input's bytes); treedd's own CPU \
         (its process, not the oracle's) per oracle run, and its peak resident set. With a \
         1 s oracle at `--jobs 1`, treedd's work is at most 1% of the wall time when its CPU \
         per run is at most {CPU_PER_RUN_MS} ms; the bound on the peak is {PEAK_MB} MB on \
         the largest input. The CPU includes everything treedd does in the run: the tree \
         and the facts of each new text (the first oracle run comes after them) as well as \
         the syntax filter, unparsing and hashing of every candidate.\n",
        limit.as_secs()
    );
    md.push_str(
        "| input | bytes | oracle runs | treedd CPU s | CPU per run ms | peak RSS MB \
         | first run s | wall s | bytes left |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let per_run = r.cpu * 1000.0 / r.runs.max(1) as f64;
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.1} | {:.1} | {:.0} | {:.1} | {:.0} | {} |",
            r.name,
            thousands(r.bytes as u64),
            thousands(r.runs),
            r.cpu,
            per_run,
            r.peak_mb,
            r.first,
            r.wall,
            thousands(r.output_bytes),
        );
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_made_input_wraps_each_copy_in_its_own_namespace() {
        let a = vec![b'a'; BIG_BYTES / 4];
        let b = vec![b'b'; BIG_BYTES / 4];
        let made = made_input(&[&a, &b]);
        assert!(made.len() >= BIG_BYTES);
        let text = String::from_utf8(made).unwrap();
        // a, b, a, b: the fourth copy passes the size.
        assert_eq!(text.matches("namespace big").count(), 4);
        assert!(text.starts_with("namespace big1 {\naaa"));
        assert!(text.contains("namespace big4 {\nbbb"));
        assert_eq!(made_input(&[b""]), b"");
    }
}
