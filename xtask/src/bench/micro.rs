//! `cargo xtask bench micro`: the reducer's own overhead (no-op oracle throughput, CPU per
//! oracle run, tree building time and memory).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};
use treedd_reduce::{Base, Hoisting};

use super::config::Config;
use super::measure::{machine_summary, now_utc};
use super::run::{proc_peak_rss_kib, run_watched, stat_u64, Scratch};
use super::suite::{discover, language_of, shared_dir, workspace_root};
use super::tables::{md_escape, thousands};
use super::treedd_binary;

/// Environment variable that turns this binary into a no-op-cost oracle: its value is a file of
/// markers, one per line; the candidate (the only argument) is interesting iff it contains all.
pub(super) const MARKER_ENV: &str = "XTASK_BENCH_MARKERS";

/// With the marker oracle, a candidate must also hold at least this many bytes (if set).
pub(super) const MIN_BYTES_ENV: &str = "XTASK_BENCH_MIN_BYTES";

/// If started as the marker oracle, judge the candidate and return the exit code.
pub fn marker_oracle_mode() -> Option<i32> {
    let markers = std::env::var_os(MARKER_ENV)?;
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if args.len() != 1 {
        return None;
    }
    let (Ok(markers), Ok(candidate)) = (fs::read(markers), fs::read(&args[0])) else {
        return Some(2);
    };
    let min_bytes = std::env::var(MIN_BYTES_ENV)
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0);
    Some(
        if candidate.len() >= min_bytes && markers_present(&markers, &candidate) {
            0
        } else {
            1
        },
    )
}

pub(super) fn markers_present(markers: &[u8], candidate: &[u8]) -> bool {
    markers
        .split(|&b| b == b'\n')
        .filter(|m| !m.is_empty())
        .all(|m| candidate.windows(m.len()).any(|w| w == m))
}

/// Time and memory of building the tree of the largest input of `suite` (Markdown).
pub(super) fn tree_building(treedd: &Path, xtask: &Path, suite: &Path) -> Result<String> {
    let cases = discover(suite)?;
    let Some(case) = cases
        .iter()
        .max_by_key(|c| fs::metadata(&c.input).map(|m| m.len()).unwrap_or(0))
    else {
        return Ok("(empty suite; skipped)".to_string());
    };
    let bytes = fs::metadata(&case.input)?.len();
    let dir = Scratch::new("micro-tree")?;
    let dump = dir.path().join("dump.txt");
    let log = dir.path().join("stderr.txt");
    let finished = run_watched(
        Command::new(treedd)
            .arg("--test")
            .arg(xtask)
            .args(["--language", case.language(), "--dump-tree"])
            .arg(&case.input)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(fs::File::create(&dump)?)
            .stderr(fs::File::create(&log)?),
        Some(Duration::from_secs(600)),
    )?;
    let dump_lines = fs::read(&dump)
        .map(|d| d.split(|&b| b == b'\n').count().saturating_sub(1))
        .unwrap_or(0);
    let status = if finished.status.success() {
        format!("printed {} lines", thousands(dump_lines as u64))
    } else {
        let log = fs::read_to_string(&log).unwrap_or_default();
        format!("{}: `{}`", finished.status, log.trim())
    };
    let mut out = format!(
        "{} ({} bytes), release `treedd --dump-tree` (process start, parse, tree build; {status}): \
         wall **{:.3} s**, own CPU {} s, peak RSS **{} MiB**.\n",
        case.name,
        thousands(bytes),
        finished.wall.as_secs_f64(),
        finished.cpu_self.map_or("?".to_string(), |c| format!("{c:.2}")),
        finished
            .max_rss_kib
            .map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
    );
    // The same in this process (dev profile: tree-sitter at opt-level 3, treedd crates at 1).
    let src = fs::read(&case.input)?;
    let lang = treedd_tree::Lang::from_path(&case.input)
        .ok_or_else(|| anyhow!("{}: no grammar for this extension", case.input.display()))?;
    let rss_before = proc_peak_rss_kib(std::process::id() as libc::pid_t);
    let start = Instant::now();
    let tree = treedd_tree::RTree::build(lang, &src)
        .map_err(|e| anyhow!("{}: {e}", case.input.display()))?;
    let build = start.elapsed();
    let rss_after = proc_peak_rss_kib(std::process::id() as libc::pid_t);
    let s = tree.stats();
    let _ = writeln!(
        out,
        "\nIn-process `RTree::build` (xtask, dev profile): **{:.1} ms**; tree-sitter nodes {}, \
         height {}; reduction tree nodes {} ({} tokens), height {}; parse errors {}; \
         peak RSS of the xtask process {} -> {} MiB.",
        build.as_secs_f64() * 1000.0,
        thousands(s.raw_nodes as u64),
        s.raw_height,
        thousands(s.nodes as u64),
        thousands(s.tokens as u64),
        s.height,
        s.errors,
        rss_before.map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
        rss_after.map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
    );
    Ok(out)
}

/// `--grammar` with tree-sitter-c's sources (so the figures compare with the built-in C):
/// the first load compiles into a fresh cache; then, in this process, a cached load (hash
/// the sources, dlopen, derive the tables) and a tree build of fixtures/c/helloworld; and
/// the release binary's `--print-tree-stats` (process start, cached load, derivation, build).
pub(super) fn run_time_grammar(treedd: &Path, root: &Path) -> Result<String> {
    let dir = crate::codegen::grammar_crate_dir("tree-sitter-c")?;
    let cache = Scratch::new("micro-grammar")?;
    let input = root.join("fixtures/c/helloworld/helloworld.c");
    let src = fs::read(&input)?;
    let start = Instant::now();
    let first = treedd_tree::load_grammar(&dir, cache.path()).map_err(|e| anyhow!("{e}"))?;
    let compile = start.elapsed();
    let mut loads = Vec::new();
    let mut builds = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let loaded = treedd_tree::load_grammar(&dir, cache.path()).map_err(|e| anyhow!("{e}"))?;
        loads.push(start.elapsed());
        let start = Instant::now();
        let tree = treedd_tree::RTree::build(loaded.lang, &src).map_err(|e| anyhow!("{e}"))?;
        builds.push(start.elapsed());
        drop(tree);
    }
    let mut cli = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let status = Command::new(treedd)
            .env("TREEDD_CACHE_DIR", cache.path())
            .arg("--grammar")
            .arg(&dir)
            .arg("--print-tree-stats")
            .arg(&input)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()?;
        cli.push(start.elapsed());
        if !status.success() {
            bail!("treedd --grammar {} failed: {status}", dir.display());
        }
    }
    let ms = |v: &[Duration]| {
        let mut v: Vec<f64> = v.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    Ok(format!(
        "tree-sitter-c's sources. First load (compile with the system C compiler{}): **{:.2} s**. \
         Cached load in process (hash the sources, dlopen, derive the tables; xtask dev profile, \
         median of 5): **{:.1} ms**; tree build of helloworld.c: {:.2} ms. \
         `treedd --grammar DIR --print-tree-stats helloworld.c` (process start, cached load, \
         derivation, build; {}), median of 5: **{:.1} ms**.",
        if first.compiled {
            ""
        } else {
            ", cache already warm"
        },
        compile.as_secs_f64(),
        ms(&loads),
        ms(&builds),
        treedd.display(),
        ms(&cli),
    ))
}

/// A line-oriented text input of `n` numbered lines.
pub(super) fn micro_text_input(n: usize) -> String {
    (0..n)
        .map(|i| format!("l{i:04} some filler text\n"))
        .collect()
}

/// A JavaScript input of `n` small functions and their calls.
pub(super) fn micro_js_input(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let _ = writeln!(
            s,
            "function f{i}(a) {{\n  var v{i} = a + {i};\n  if (v{i} > 3) {{ v{i} = v{i} * 2; }}\n  return v{i};\n}}"
        );
    }
    for i in 0..n {
        let _ = writeln!(s, "console.log(f{i}({i}));");
    }
    s
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct MicroRow {
    pub(super) what: String,
    pub(super) input_bytes: u64,
    pub(super) config: String,
    pub(super) jobs: usize,
    pub(super) oracle_runs: Option<u64>,
    pub(super) cache_hits: Option<u64>,
    pub(super) wall_seconds: f64,
    pub(super) oracle_runs_per_second: Option<f64>,
    pub(super) cpu_self_seconds: Option<f64>,
    pub(super) cpu_self_ms_per_oracle_run: Option<f64>,
    pub(super) cpu_oracles_ms_per_run: Option<f64>,
    pub(super) peak_rss_kib: Option<u64>,
    /// `None` in figures imported from an older micro.md, which did not show it.
    #[serde(default)]
    pub(super) output_bytes: Option<u64>,
    pub(super) verified: bool,
}

pub(super) fn micro(treedd: Option<PathBuf>, publish: bool) -> Result<()> {
    let root = workspace_root();
    let treedd = treedd_binary(&root, treedd)?;
    let oracle = std::env::current_exe()?;
    let work = Scratch::new("micro")?;
    let mut rows = Vec::new();

    // 1. Spawning the no-op oracle directly: the ceiling for any reducer on this machine.
    let text = micro_text_input(2000);
    let text_path = work.path().join("input.txt");
    fs::write(&text_path, &text)?;
    let text_markers = work.path().join("text.markers");
    fs::write(&text_markers, "l0017\nl0777\nl1234\nl1999\n")?;
    let n = 300;
    let start = Instant::now();
    for _ in 0..n {
        let ok = Command::new(&oracle)
            .arg(&text_path)
            .env(MARKER_ENV, &text_markers)
            .status()?
            .success();
        if !ok {
            bail!("the no-op oracle rejected its own input");
        }
    }
    let raw_rate = n as f64 / start.elapsed().as_secs_f64();
    eprintln!("bench micro: no-op oracle started directly: {raw_rate:.0} runs/s");

    // 2. Reductions with the no-op oracle.
    let js = micro_js_input(150);
    let js_path = work.path().join("input.js");
    fs::write(&js_path, &js)?;
    let js_markers = work.path().join("js.markers");
    fs::write(&js_markers, "v17 \nv101 \nf42(42)\n")?;
    let cases: Vec<(&str, &Path, &Path, Config)> = vec![
        (
            "text, 2000 lines",
            &text_path,
            &text_markers,
            Config::TextDdmin,
        ),
        (
            "JavaScript, 150 functions",
            &js_path,
            &js_markers,
            Config::Tree(Base::Hdd, Hoisting::None),
        ),
        (
            "JavaScript, 150 functions",
            &js_path,
            &js_markers,
            Config::Tree(Base::Hdd, Hoisting::Both),
        ),
    ];
    for (what, input, markers, config) in &cases {
        for jobs in [1, 2] {
            eprintln!("bench micro: {what}, {}, jobs {jobs}", config.paper_name());
            let dir = Scratch::new("micro-run")?;
            let name = input.file_name().unwrap_or_default();
            let output = dir.path().join(name);
            let stats = dir.path().join("stats.json");
            let log = fs::File::create(dir.path().join("treedd.log"))?;
            let language = language_of(input);
            let finished = run_watched(
                Command::new(&treedd)
                    .arg("--quiet")
                    .arg("--test")
                    .arg(&oracle)
                    .args(config.treedd_args(language))
                    .arg("--jobs")
                    .arg(jobs.to_string())
                    .arg("--stats")
                    .arg(&stats)
                    .arg("--output")
                    .arg(&output)
                    .arg(input)
                    .env(MARKER_ENV, markers)
                    .current_dir(dir.path())
                    .stdin(Stdio::null())
                    .stdout(log.try_clone()?)
                    .stderr(log),
                Some(Duration::from_secs(600)),
            )?;
            if !finished.status.success() {
                let log = fs::read_to_string(dir.path().join("treedd.log")).unwrap_or_default();
                bail!("treedd failed on the micro input ({what}): {}", log.trim());
            }
            let stats: Option<serde_json::Value> = fs::read(&stats)
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok());
            let runs = stats.as_ref().and_then(|s| stat_u64(s, "oracle_runs"));
            let result = fs::read(&output).unwrap_or_default();
            let wall = finished.wall.as_secs_f64();
            let per_run = |cpu: Option<f64>| match (cpu, runs) {
                (Some(c), Some(r)) if r > 0 => Some(c * 1000.0 / r as f64),
                _ => None,
            };
            rows.push(MicroRow {
                what: what.to_string(),
                input_bytes: fs::metadata(input)?.len(),
                config: config.paper_name(),
                jobs,
                oracle_runs: runs,
                cache_hits: stats.as_ref().and_then(|s| stat_u64(s, "cache_hits")),
                wall_seconds: wall,
                oracle_runs_per_second: runs.map(|r| r as f64 / wall),
                cpu_self_seconds: finished.cpu_self,
                cpu_self_ms_per_oracle_run: per_run(finished.cpu_self),
                cpu_oracles_ms_per_run: per_run(finished.cpu_children),
                peak_rss_kib: finished.peak_rss_kib,
                output_bytes: Some(result.len() as u64),
                verified: markers_present(&fs::read(markers)?, &result),
            });
        }
    }

    // 3. Tree building on the largest Perses input, by the release binary (`--dump-tree`:
    //    parse, build the reduction tree, print it) and by `cargo xtask tree-stats`.
    let tree_line = match shared_dir(&root) {
        Some(shared) => tree_building(&treedd, &oracle, &shared.join("suites").join("perses"))?,
        None => "(no shared/suites/perses beside the repository; skipped)".to_string(),
    };
    // 4. A grammar loaded at run time (`--grammar`): compile once, then load from the cache.
    let tree_line = format!(
        "{tree_line}\n\nRun-time grammar (`--grammar`): {}",
        run_time_grammar(&treedd, &root)?
    );

    let report = MicroReport {
        date: now_utc(),
        machine: machine_summary(),
        direct_runs: n,
        direct_runs_per_second: raw_rate,
        rows,
        tree_building: tree_line,
    };
    let md = render_micro(&report);
    let out = root.join("target").join("bench");
    fs::create_dir_all(&out)?;
    fs::write(out.join("micro.md"), &md)?;
    let json = serde_json::to_string_pretty(&report)? + "\n";
    fs::write(out.join("micro.json"), &json)?;
    println!("{md}");
    eprintln!("bench micro: written to {}", out.join("micro.md").display());
    if publish {
        let docs = root.join("docs").join("bench");
        fs::create_dir_all(&docs)?;
        fs::write(docs.join("micro.md"), &md)?;
        fs::write(docs.join("micro.json"), &json)?;
        eprintln!(
            "bench micro: published to {}",
            docs.join("micro.md").display()
        );
    }
    Ok(())
}

/// Everything `micro.md` shows; published as `micro.json` beside it.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct MicroReport {
    pub(super) date: String,
    pub(super) machine: String,
    /// How often the no-op oracle was started directly, and how fast.
    pub(super) direct_runs: usize,
    pub(super) direct_runs_per_second: f64,
    pub(super) rows: Vec<MicroRow>,
    /// The tree-building paragraph (Markdown).
    pub(super) tree_building: String,
}

/// `micro.md` from its figures alone.
pub(super) fn render_micro(report: &MicroReport) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "## Micro figures\n\nMeasured {} on {}.\n",
        report.date, report.machine
    );
    let _ = writeln!(
        md,
        "No-op oracle (`xtask` itself checking a few substrings) started directly, {} times in \
         a row: **{:.0} runs/s** (the ceiling for any reducer here).\n",
        report.direct_runs, report.direct_runs_per_second
    );
    md.push_str(
        "| Input | Configuration | jobs | oracle runs | cache hits | wall s | oracle runs/s \
         | reducer CPU s | reducer CPU ms / oracle run | oracle CPU ms / run | peak RSS MiB | verified |\n\
         |---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n",
    );
    let f = |v: Option<f64>, p: usize| v.map_or("?".to_string(), |v| format!("{v:.p$}"));
    for r in &report.rows {
        let _ = writeln!(
            md,
            "| {} ({} bytes) | {} | {} | {} | {} | {:.2} | {} | {} | {} | {} | {} | {} |",
            r.what,
            thousands(r.input_bytes),
            md_escape(&r.config),
            r.jobs,
            r.oracle_runs.map_or("?".to_string(), thousands),
            r.cache_hits.map_or("?".to_string(), thousands),
            r.wall_seconds,
            f(r.oracle_runs_per_second, 0),
            f(r.cpu_self_seconds, 2),
            f(r.cpu_self_ms_per_oracle_run, 3),
            f(r.cpu_oracles_ms_per_run, 3),
            r.peak_rss_kib
                .map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
            if r.verified { "yes" } else { "**no**" }
        );
    }
    let _ = writeln!(
        md,
        "\nTree building on the largest Perses input: {}",
        report.tree_building
    );
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_oracle_needs_every_marker() {
        assert!(markers_present(b"l0017\nl1999\n", b"xx l0017 yy l1999"));
        assert!(!markers_present(b"l0017\nl1999\n", b"xx l0017 yy"));
        assert!(markers_present(b"", b"anything"));
        let text = micro_text_input(2000);
        assert!(markers_present(
            b"l0017\nl0777\nl1234\nl1999\n",
            text.as_bytes()
        ));
        let js = micro_js_input(150);
        assert!(markers_present(b"v17 \nv101 \nf42(42)\n", js.as_bytes()));
    }

    /// docs/bench/micro.md is what its micro.json renders, byte for byte.
    #[test]
    fn published_micro_figures_are_reproduced() {
        let docs = workspace_root().join("docs").join("bench");
        let json = fs::read_to_string(docs.join("micro.json")).expect("docs/bench/micro.json");
        let report: MicroReport = serde_json::from_str(&json).unwrap();
        let published = fs::read_to_string(docs.join("micro.md")).unwrap();
        assert_eq!(render_micro(&report), published);
    }
}
