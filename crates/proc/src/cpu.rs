//! The process's own CPU time.

/// treedd's CPU time so far, user and system, all threads (`CLOCK_PROCESS_CPUTIME_ID`): the
/// lookahead's replay costs and `--stats cpu_seconds`.
pub fn cpu_seconds() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}
