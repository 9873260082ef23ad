//! `cargo xtask kill-campaign [--runs N] [--bin PATH] [--seed X]`: fault injection.
//! N reductions with a forking oracle (a child in its process group and one that
//! leaves it with `setsid`), each killed at a random moment by SIGINT, SIGTERM or SIGKILL.
//! After each kill: the input is unchanged, the output is absent or interesting, no process
//! of the run survives; then the same command with `--resume` finishes with the result of an
//! uninterrupted run and no temporary directory remains. Prints the counts; exits non-zero
//! on any failure. The test suite runs a few kills of the same kind
//! (`tests/reliability.rs`).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use treedd_tree::dev::Rng;

const EXPECTED: &str = "3\n29\n";

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
    let mut rng = Rng::new(seed);
    let mut failures = Vec::new();
    let mut by_signal = [0usize; 3];
    let mut exited_before = 0;
    println!(
        "kill-campaign: {runs} runs of {}, seed {seed}",
        bin.display()
    );
    for i in 0..runs {
        let signal = ["INT", "TERM", "KILL"][rng.below(3)];
        let delay = Duration::from_millis(rng.below(1500) as u64);
        by_signal[["INT", "TERM", "KILL"]
            .iter()
            .position(|s| *s == signal)
            .unwrap_or(0)] += 1;
        match one_run(&bin, signal, delay) {
            Ok(true) => exited_before += 1,
            Ok(false) => {}
            Err(e) => failures.push(format!("run {i} ({signal} after {delay:?}): {e:#}")),
        }
    }
    println!(
        "kill-campaign: {runs} runs, signals INT {} TERM {} KILL {}, {exited_before} finished before the signal, {} failures",
        by_signal[0], by_signal[1], by_signal[2], failures.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    if !failures.is_empty() {
        bail!("{} kill-campaign runs failed", failures.len());
    }
    Ok(())
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

fn start(bin: &Path, dir: &Path, resume: bool) -> Result<Child> {
    let mut cmd = Command::new(bin);
    cmd.current_dir(dir)
        .env("TMPDIR", dir.join("tmp"))
        .args([
            "--test",
            "oracle.sh",
            "--unit",
            "line",
            "--jobs",
            "2",
            "input.txt",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if resume {
        cmd.arg("--resume");
    }
    Ok(cmd.spawn()?)
}

/// One killed run and its resumption; `Ok(true)` if treedd had finished before the signal.
fn one_run(bin: &Path, signal: &str, delay: Duration) -> Result<bool> {
    let dir = &std::env::temp_dir().join(format!(
        "treedd-kill-{}-{}",
        std::process::id(),
        Rng::new(delay.as_nanos() as u64 ^ 0x5eed).next_u64()
    ));
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir.join("tmp"))?;
    let result = killed_run(bin, dir, signal, delay);
    let _ = fs::remove_dir_all(dir);
    result
}

fn killed_run(bin: &Path, dir: &Path, signal: &str, delay: Duration) -> Result<bool> {
    let input: String = (0..40).map(|i| format!("{i}\n")).collect();
    fs::write(dir.join("input.txt"), &input)?;
    let pids = dir.join("pids");
    let check = r#"grep -qx 3 "$1" && grep -qx 29 "$1""#;
    script(
        &dir.join("oracle.sh"),
        &format!(
            "echo $$ >> {p}\nsleep 1000 & echo $! >> {p}\nsetsid sleep 1000 & echo $! >> {p}\nsleep 0.02\n{check}",
            p = pids.display()
        ),
    )?;
    script(&dir.join("check.sh"), check)?;
    let mut child = start(bin, dir, false)?;
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
    if fs::read_to_string(dir.join("input.txt"))? != input {
        bail!("the input changed");
    }
    let out = dir.join("input.reduced.txt");
    if out.exists() {
        let ok = Command::new(dir.join("check.sh"))
            .arg(&out)
            .current_dir(dir)
            .status()?
            .success();
        if !ok {
            bail!("the output is not interesting");
        }
    }
    let left = survivors(&pids);
    if !left.is_empty() {
        bail!("oracle processes survived the {signal}: {left:?}");
    }
    // The next run continues and cleans up.
    let status = start(bin, dir, true)?.wait()?;
    if !status.success() {
        bail!("the --resume run failed: {status}");
    }
    if fs::read_to_string(&out)? != EXPECTED {
        bail!("--resume gave {:?}", fs::read_to_string(&out)?);
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
    Ok(finished_before)
}
