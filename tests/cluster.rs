//! `--launcher` against a real cluster engine. A single-node Slurm
//! (Debian's slurm-wlm and munge, started and stopped by `xtask/scripts/slurm-single-node.sh`,
//! all its state in the test's directory) runs every oracle run through `srun`, with the run
//! directories under `--workdir`. Skips, saying why, only where Slurm is not installed or
//! cannot be started as this user (`.ci/run` installs it).

use std::path::PathBuf;
use std::process::Command;

use crate::util::Dir;

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../xtask/scripts/slurm-single-node.sh")
}

/// Stops the cluster on every way out of the test.
struct Cluster {
    state: PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(script()).arg("stop").arg(&self.state).status();
    }
}

fn installed(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn srun_launcher_on_a_real_single_node_slurm() {
    if !["srun", "slurmctld", "slurmd", "munged"]
        .iter()
        .all(|t| installed(t))
    {
        eprintln!("SKIPPED: Slurm is not installed (apt-get install slurm-wlm munge)");
        return;
    }
    if !rustix::process::geteuid().is_root() {
        eprintln!("SKIPPED: a single-node Slurm needs root (slurmd runs jobs as their users)");
        return;
    }
    let d = Dir::new();
    d.copy_fixture("c/helloworld");
    let state = d.join("slurm");
    // Ports of our own, so another cluster on this machine does not answer.
    let port = 20000 + (std::process::id() % 20000) as u16 * 2;
    let _cluster = Cluster {
        state: state.clone(),
    };
    let start = Command::new(script())
        .arg("start")
        .arg(&state)
        .env("SLURMCTLD_PORT", port.to_string())
        .env("SLURMD_PORT", (port + 1).to_string())
        .output()
        .unwrap();
    assert!(
        start.status.success(),
        "the cluster did not start: {}",
        String::from_utf8_lossy(&start.stderr)
    );
    let conf = state.join("slurm.conf");
    // The oracle records the Slurm job it runs in.
    d.script(
        "job-oracle.sh",
        &format!(
            "echo \"${{SLURM_JOB_ID:-none}}\" >> {}\nexec {} \"$@\"",
            d.join("jobs.log").display(),
            d.join("oracle.sh").display()
        ),
    );
    std::fs::create_dir(d.join("work")).unwrap();
    let run = |extra: &[&str], out: &str| {
        // A fixed timeout: the adaptive one (1 s at least once the pace is known) can cut a
        // run that waits for a loaded machine's scheduler. 10 s still cuts the candidates
        // that loop (the oracle's own limit is 30 s).
        let mut args = vec![
            "--test",
            "./job-oracle.sh",
            "-j",
            "2",
            "-q",
            "--timeout",
            "10",
            "-o",
            out,
        ];
        args.extend_from_slice(extra);
        args.push("helloworld.c");
        let mut cmd = d.cmd();
        cmd.args(&args).env("SLURM_CONF", &conf);
        let status = cmd.status().unwrap();
        assert!(status.success(), "treedd {args:?}: {status}");
        d.read_string(out)
    };
    let local = run(&["--stats", "local.json"], "local.c");
    std::fs::remove_file(d.join("jobs.log")).unwrap();
    let slurm = run(
        &[
            "--launcher",
            "srun -N1 -n1 --quiet",
            "--workdir",
            "work",
            "--stats",
            "slurm.json",
        ],
        "slurm.c",
    );
    assert_eq!(slurm, local, "the cluster changed the result");
    assert!(slurm.contains("printf") && slurm.len() < 60, "{slurm}");
    let stats = d.stats("slurm.json");
    let timeouts = stats["timeouts"].as_u64().unwrap();
    assert_eq!(
        timeouts,
        d.stats("local.json")["timeouts"].as_u64().unwrap(),
        "the cluster timed out other runs"
    );
    let runs = stats["oracle_runs"].as_u64().unwrap();
    let jobs = d.read_string("jobs.log");
    let ids: Vec<&str> = jobs.lines().collect();
    assert!(
        ids.len() as u64 + timeouts >= runs && runs > 5,
        "{runs} runs, jobs {jobs}"
    );
    assert!(
        ids.iter().all(|id| id.parse::<u64>().is_ok()),
        "a run outside Slurm: {jobs}"
    );
    let distinct: std::collections::HashSet<&&str> = ids.iter().collect();
    assert_eq!(distinct.len(), ids.len(), "one Slurm job per oracle run");
    assert_eq!(std::fs::read_dir(d.join("work")).unwrap().count(), 0);
}
