//! `cargo xtask kill-campaign [--runs N] [--bin PATH] [--seed X]`: fault injection.
//! N reductions with a forking oracle (a child in its process group and one that
//! leaves it with `setsid`), each killed at a random moment by SIGINT, SIGTERM or SIGKILL.
//! Each run draws its case: a 40-line text reduction (`--unit line`), or the snapshot input
//! of one built-in grammar language (`crates/tree/test_data/<lang>/`) with an oracle that
//! wants two of its identifiers. After each kill: the input is unchanged, the output is absent
//! or interesting, no process of the run survives; then the same command with `--resume`
//! finishes with an interesting output (for the text case, the uninterrupted result; for the
//! others the campaign counts how often it is byte for byte the uninterrupted run's), and no
//! temporary directory remains. Prints the counts; exits non-zero on any failure. The test
//! suite runs a few kills of the same kind (`tests/reliability.rs`).

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use treedd_tree::dev::Rng;
use treedd_tree::Lang;

/// One reduction the campaign kills: an input, the treedd flags beside `--test` and
/// `--jobs 2`, and the oracle's check of a candidate (`$1`).
struct Case {
    name: String,
    file: String,
    input: Vec<u8>,
    flags: Vec<String>,
    check: String,
    /// The output and wall time of an uninterrupted run, measured before the first kill.
    uninterrupted: Option<(Vec<u8>, Duration)>,
}

pub fn run(args: &[String]) -> Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut runs = 100usize;
    let mut bin = root.join("target/debug/treedd");
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().unwrap_or_default();
        match a.as_str() {
            "--runs" => runs = value().parse()?,
            "--bin" => bin = PathBuf::from(value()),
            "--seed" => seed = value().parse()?,
            _ => bail!("usage: cargo xtask kill-campaign [--runs N] [--bin PATH] [--seed X]"),
        }
    }
    let bin = fs::canonicalize(&bin)
        .with_context(|| format!("{} (build it first: cargo build -p treedd)", bin.display()))?;
    let mut cases = cases(&root.join("crates/tree/test_data"))?;
    let mut rng = Rng::new(seed);
    let mut failures = Vec::new();
    let mut by_signal = [0usize; 3];
    let mut by_case: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut exited_before = 0;
    println!(
        "kill-campaign: {runs} runs of {}, seed {seed}, {} cases",
        bin.display(),
        cases.len()
    );
    for i in 0..runs {
        let pick = rng.below(cases.len());
        let case = &mut cases[pick];
        if case.uninterrupted.is_none() {
            match uninterrupted(&bin, case) {
                Ok(u) => case.uninterrupted = Some(u),
                Err(e) => {
                    failures.push(format!("{} uninterrupted: {e:#}", case.name));
                    continue;
                }
            }
        }
        let wall = case.uninterrupted.as_ref().map_or(Duration::ZERO, |u| u.1);
        let signal = ["INT", "TERM", "KILL"][rng.below(3)];
        // Anywhere from the start to a little past the uninterrupted run's end.
        let delay = Duration::from_millis(rng.below(wall.as_millis() as usize * 6 / 5 + 1) as u64);
        by_signal[["INT", "TERM", "KILL"]
            .iter()
            .position(|s| *s == signal)
            .unwrap_or(0)] += 1;
        let counts = by_case.entry(case.name.clone()).or_default();
        counts.0 += 1;
        match one_run(&bin, case, signal, delay) {
            Ok((before, same)) => {
                exited_before += usize::from(before);
                counts.1 += usize::from(same);
            }
            Err(e) => failures.push(format!(
                "run {i} {} ({signal} after {delay:?}): {e:#}",
                case.name
            )),
        }
    }
    let per_case: Vec<String> = by_case
        .iter()
        .map(|(name, (n, same))| format!("{name} {n} ({same} same as uninterrupted)"))
        .collect();
    println!(
        "kill-campaign: {runs} runs, signals INT {} TERM {} KILL {}, {exited_before} finished before the signal, {} failures",
        by_signal[0], by_signal[1], by_signal[2], failures.len()
    );
    println!("kill-campaign: cases {}", per_case.join(", "));
    for f in &failures {
        println!("  {f}");
    }
    if !failures.is_empty() {
        bail!("{} kill-campaign runs failed", failures.len());
    }
    Ok(())
}

/// The text case and one case per built-in grammar language with a snapshot input.
fn cases(test_data: &Path) -> Result<Vec<Case>> {
    let text: String = (0..40).map(|i| format!("{i}\n")).collect();
    let mut cases = vec![Case {
        name: "text".into(),
        file: "input.txt".into(),
        input: text.into_bytes(),
        flags: vec!["--unit".into(), "line".into()],
        check: r#"grep -qx 3 "$1" && grep -qx 29 "$1""#.into(),
        uninterrupted: None,
    }];
    for lang in Lang::all().iter().filter(|l| l.has_grammar()) {
        let dir = test_data.join(lang.name());
        let mut files: Vec<PathBuf> = fs::read_dir(&dir)
            .with_context(|| format!("{}", dir.display()))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| Lang::from_path(p) == Some(*lang))
            .collect();
        files.sort();
        let Some(path) = files.first() else {
            bail!("no snapshot input for {} in {}", lang.name(), dir.display());
        };
        let input = fs::read(path)?;
        let [a, b] = two_names(&String::from_utf8_lossy(&input))
            .with_context(|| format!("no two identifiers in {}", path.display()))?;
        let file = path
            .file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into());
        cases.push(Case {
            name: lang.name().into(),
            file,
            input,
            flags: Vec::new(),
            check: format!(r#"grep -qw {a} "$1" && grep -qw {b} "$1""#),
            uninterrupted: None,
        });
    }
    Ok(cases)
}

/// The two longest distinct identifier-like words of at least four characters (ties: the
/// first in the text), so that the oracle keeps a little of the input and the reduction has
/// work to do.
fn two_names(text: &str) -> Option<[String; 2]> {
    let mut words: Vec<&str> = Vec::new();
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if w.len() >= 4 && !w.starts_with(|c: char| c.is_ascii_digit()) && !words.contains(&w) {
            words.push(w);
        }
    }
    // A stable sort keeps the first occurrence first among equal lengths.
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    Some([words.first()?.to_string(), words.get(1)?.to_string()])
}

fn script(path: &Path, body: &str) -> Result<()> {
    fs::write(path, format!("#!/bin/sh\n{body}\n"))?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))?;
    Ok(())
}

/// True while `pid` runs (a zombie counts as gone).
pub(crate) fn alive(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
}

/// Poll `cond` every 10 ms until it holds (true) or `limit` has passed (false).
pub(crate) fn wait_until(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if cond() {
            return true;
        }
        if start.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn survivors(pids: &Path) -> Vec<u32> {
    let text = fs::read_to_string(pids).unwrap_or_default();
    let all: Vec<u32> = text
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect();
    let mut left = all.clone();
    wait_until(Duration::from_secs(5), || {
        left.retain(|&p| alive(p));
        left.is_empty()
    });
    left
}

fn start(bin: &Path, dir: &Path, case: &Case, resume: bool) -> Result<Child> {
    let mut cmd = Command::new(bin);
    cmd.current_dir(dir)
        .env("TMPDIR", dir.join("tmp"))
        .args(["--test", "oracle.sh", "--jobs", "2"])
        .args(&case.flags)
        .arg(&case.file)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if resume {
        cmd.arg("--resume");
    }
    Ok(cmd.spawn()?)
}

/// treedd's output path for `file` (`name.reduced.ext`).
fn output_path(dir: &Path, file: &str) -> PathBuf {
    match file.rsplit_once('.') {
        Some((stem, ext)) => dir.join(format!("{stem}.reduced.{ext}")),
        None => dir.join(format!("{file}.reduced")),
    }
}

/// A scratch directory with the case's input, oracle (recording its pids in `pids`) and
/// `check.sh` (the oracle's verdict alone).
fn prepare(dir: &Path, case: &Case) -> Result<()> {
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir.join("tmp"))?;
    fs::write(dir.join(&case.file), &case.input)?;
    let pids = dir.join("pids");
    script(
        &dir.join("oracle.sh"),
        &format!(
            "echo $$ >> {p}\nsleep 1000 & echo $! >> {p}\nsetsid sleep 1000 & echo $! >> {p}\nsleep 0.02\n{check}",
            p = pids.display(),
            check = case.check
        ),
    )?;
    script(&dir.join("check.sh"), &case.check)
}

fn scratch(tag: u64) -> PathBuf {
    std::env::temp_dir().join(format!("treedd-kill-{}-{tag}", std::process::id()))
}

/// The output and wall time of the case's reduction left alone.
fn uninterrupted(bin: &Path, case: &Case) -> Result<(Vec<u8>, Duration)> {
    let dir = &scratch(0);
    prepare(dir, case)?;
    let started = Instant::now();
    let status = start(bin, dir, case, false)?.wait()?;
    let wall = started.elapsed();
    let out = fs::read(output_path(dir, &case.file));
    let _ = survivors(&dir.join("pids"));
    let _ = fs::remove_dir_all(dir);
    if !status.success() {
        bail!("the reduction failed: {status}");
    }
    Ok((out?, wall))
}

/// One killed run and its resumption: (treedd had finished before the signal, the resumed
/// output is the uninterrupted run's).
fn one_run(bin: &Path, case: &Case, signal: &str, delay: Duration) -> Result<(bool, bool)> {
    let dir = &scratch(Rng::new(delay.as_nanos() as u64 ^ 0x5eed).next_u64());
    prepare(dir, case)?;
    let result = killed_run(bin, dir, case, signal, delay);
    let _ = fs::remove_dir_all(dir);
    result
}

fn killed_run(
    bin: &Path,
    dir: &Path,
    case: &Case,
    signal: &str,
    delay: Duration,
) -> Result<(bool, bool)> {
    let pids = dir.join("pids");
    let mut child = start(bin, dir, case, false)?;
    std::thread::sleep(delay);
    let finished_before = child.try_wait()?.is_some();
    if !finished_before {
        Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()?;
    }
    if !wait_until(Duration::from_secs(10), || {
        child.try_wait().ok().flatten().is_some()
    }) {
        let _ = child.kill();
        let _ = child.wait();
        bail!("treedd did not stop within 10 s");
    }
    if fs::read(dir.join(&case.file))? != case.input {
        bail!("the input changed");
    }
    let out = output_path(dir, &case.file);
    let interesting = |out: &Path| -> Result<bool> {
        Ok(Command::new(dir.join("check.sh"))
            .arg(out)
            .current_dir(dir)
            .status()?
            .success())
    };
    if out.exists() && !interesting(&out)? {
        bail!("the output is not interesting");
    }
    let left = survivors(&pids);
    if !left.is_empty() {
        bail!("oracle processes survived the {signal}: {left:?}");
    }
    // The next run continues and cleans up.
    let status = start(bin, dir, case, true)?.wait()?;
    if !status.success() {
        bail!("the --resume run failed: {status}");
    }
    if !interesting(&out)? {
        bail!("the --resume output is not interesting");
    }
    let resumed = fs::read(&out)?;
    let same = case.uninterrupted.as_ref().is_some_and(|u| u.0 == resumed);
    if case.name == "text" && !same {
        bail!("--resume gave {:?}", String::from_utf8_lossy(&resumed));
    }
    let left = survivors(&pids);
    if !left.is_empty() {
        bail!("oracle processes survived the --resume run: {left:?}");
    }
    let tmp = dir.join("tmp");
    if !wait_until(Duration::from_secs(5), || {
        fs::read_dir(&tmp).is_ok_and(|mut d| d.next().is_none())
    }) {
        bail!("temporary directories remain after the next run");
    }
    Ok((finished_before, same))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_names_are_the_longest_distinct_words_first_seen_first() {
        let names = two_names("fn main() { let longest_name = 1; let other = longest_name; }");
        assert_eq!(names, Some(["longest_name".into(), "other".into()]));
        assert_eq!(two_names("a b 123456 x"), None);
    }

    #[test]
    fn every_grammar_language_has_a_case() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/tree/test_data");
        let cases = cases(&root).unwrap();
        for lang in Lang::all().iter().filter(|l| l.has_grammar()) {
            let case = cases.iter().find(|c| c.name == lang.name());
            let case = case.unwrap_or_else(|| panic!("no case for {}", lang.name()));
            let text = String::from_utf8_lossy(&case.input);
            let [a, b] = two_names(&text).unwrap();
            assert!(text.contains(&a) && text.contains(&b) && a != b);
        }
        assert_eq!(
            output_path(Path::new("d"), "s.rs"),
            Path::new("d/s.reduced.rs")
        );
    }
}
