//! Test helpers: a thread's context switches, from `/proc` (tests that a thread sleeps
//! instead of being woken for nothing).

use std::path::{Path, PathBuf};

/// The calling thread's `/proc` directory, `/proc/self/task/TID` (usable from other threads).
pub fn current() -> PathBuf {
    // "/proc/thread-self" links to "PID/task/TID".
    let me = std::fs::read_link("/proc/thread-self").unwrap();
    Path::new("/proc/self/task").join(me.file_name().unwrap())
}

/// Voluntary context switches so far of the thread whose `/proc` directory is `task`.
pub fn voluntary_switches(task: &Path) -> u64 {
    let status = std::fs::read_to_string(task.join("status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap()
}
