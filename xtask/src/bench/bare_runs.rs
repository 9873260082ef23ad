//! Bare oracle runs: what the runs of a reduction cost with no reducer around them.
//!
//! A loop that writes the candidate to a private directory, starts the oracle in its own
//! process group, waits for it and removes the file, and does nothing else. It gives two
//! floors for `bench speculation`'s figures, measured on the same machine in the same bench
//! run with the same oracles:
//! - **the spawn floor**: the CPU this loop spends per run. No reducer avoids it, so a
//!   reducer's CPU per wall second cannot fall below it times its runs per wall second;
//! - **the parallel speed-up of the oracle itself**: the loop's wall time one run at a time
//!   against two at a time. Oracles that use more than one core (a JVM's compiler and
//!   collector threads) go less than twice as fast two at a time, and `--jobs 2` cannot beat
//!   that (the issue asks for `--jobs 2` at 0.6x the wall of `--jobs 1`).

use std::fs;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{bail, Context as _, Result};

use treedd_proc::cpu_seconds;

use super::suite::Case;

/// What a bare loop of oracle runs cost: see [`bare_runs`].
pub(super) struct BareRuns {
    /// CPU seconds of this process per run (the process CPU clock, as treedd's
    /// `--stats` `cpu_seconds`).
    pub(super) cpu_per_run: f64,
    /// Wall seconds for all the runs.
    pub(super) wall: f64,
}

/// `threads` threads take the runs one at a time from a common queue until `per_case` runs of
/// each case's oracle on its input are done, doing nothing else; the runs' answers are
/// ignored. Measured while nothing else of this process runs.
pub(super) fn bare_runs(
    work: &Path,
    cases: &[Case],
    threads: usize,
    per_case: usize,
) -> Result<BareRuns> {
    let jobs: Vec<(&Case, Vec<u8>)> = cases
        .iter()
        .map(|case| Ok((case, fs::read(&case.input)?)))
        .collect::<Result<_>>()?;
    let total = jobs.len() * per_case;
    if total == 0 || threads == 0 {
        bail!("bare oracle runs: none to run");
    }
    let next = AtomicUsize::new(0);
    let cpu_before = cpu_seconds();
    let start = Instant::now();
    std::thread::scope(|scope| -> Result<()> {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (jobs, next) = (&jobs, &next);
                scope.spawn(move || -> Result<()> {
                    let dir = work.join(format!("bare-runs-{t}"));
                    fs::create_dir_all(&dir)?;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= total {
                            return Ok(());
                        }
                        let (case, text) = &jobs[i % jobs.len()];
                        let name = case.input.file_name().context("input without a name")?;
                        let path = dir.join(name);
                        fs::write(&path, text)?;
                        Command::new(&case.oracle)
                            .arg(&path)
                            .current_dir(&dir)
                            .env("TMPDIR", &dir)
                            .stdin(Stdio::null())
                            .stdout(Stdio::null())
                            .stderr(Stdio::null())
                            .process_group(0)
                            .status()
                            .with_context(|| format!("cannot run {}", case.oracle.display()))?;
                        fs::remove_file(&path)?;
                    }
                })
            })
            .collect();
        for worker in workers {
            worker.join().expect("a bare-runs thread panicked")?;
        }
        Ok(())
    })?;
    Ok(BareRuns {
        cpu_per_run: (cpu_seconds() - cpu_before) / total as f64,
        wall: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::run::Scratch;

    /// Every run gets the input's bytes under the input's name in a private directory, and
    /// the floor is a small positive CPU time per run.
    #[test]
    fn the_floor_runs_every_oracle_on_its_input_and_is_a_small_positive_time() {
        let work = Scratch::new("spawn-floor-test").unwrap();
        let log = work.path().join("log");
        let cases: Vec<Case> = ["a", "b"]
            .iter()
            .map(|name| {
                let input = work.path().join(format!("{name}.txt"));
                fs::write(&input, format!("text of {name}\n")).unwrap();
                let oracle = work.path().join(format!("{name}.sh"));
                fs::write(
                    &oracle,
                    format!(
                        "#!/bin/sh\n[ \"$(basename \"$1\")\" = {name}.txt ] && [ \"$TMPDIR\" = \"$PWD\" ] && cat \"$1\" >> {}\nexit 1\n",
                        log.display()
                    ),
                )
                .unwrap();
                super::super::speculation::make_executable(&oracle).unwrap();
                Case {
                    name: name.to_string(),
                    input,
                    oracle,
                }
            })
            .collect();
        let floor = bare_runs(work.path(), &cases, 2, 3).unwrap().cpu_per_run;
        let mut lines: Vec<String> = fs::read_to_string(&log)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        lines.sort();
        assert_eq!(
            lines,
            [
                "text of a",
                "text of a",
                "text of a",
                "text of b",
                "text of b",
                "text of b"
            ]
        );
        assert!(floor > 0.0 && floor < 0.1, "{floor}");
    }
}
