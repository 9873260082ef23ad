//! Reduction algorithms of treedd: the ddmin family (split factor, complement orders,
//! parallel stabilized loops, GreeDDy, DDMIN*), the hierarchical algorithms (HDD, HDDr,
//! Coarse HDD/HDDr, hoisting, HDDH, fixed points), the content cache (BLAKE3-256 keys), and the
//! oracle runner that executes the user's interestingness test.

mod algorithm;
mod cache;
mod closure;
mod confirm;
mod ddmin;
mod driver;
mod error;
mod fixpoint;
mod hdd;
mod hoist;
mod judge;
mod lookahead;
mod oracle;
mod passes;
#[cfg(test)]
mod proc_task;
pub mod reaper;
mod session;
mod stats;
mod text;

pub use algorithm::{
    reduce_tree, Base, ConfigNameError, Hoisting, TraversalOrder, TreeConfig, PRESETS,
};
pub use cache::Cache;
pub use confirm::Confirm;
pub use ddmin::{ddmin, ddmin_indices, ComplementOrder, DdminOptions, Minimizer};
pub use error::Error;
pub use judge::{Filter, FnOracle, Judge, JudgeOptions, MissingWorkers, OnImprovement};
pub use oracle::{signal_group, wait_exited, GroupSignal};
pub use oracle::{
    CommandOracle, CommandOracleBuilder, Oracle, Outcome, RunReport, RunToken, STDERR_HEAD_LINES,
};
pub use passes::Pass;
pub use stats::{PassRecord, Stats};
pub use text::{reduce_text, TextUnit};

/// treedd's CPU time so far, user and system, all threads (`CLOCK_PROCESS_CPUTIME_ID`): the
/// lookahead's replay costs and `--stats cpu_seconds`.
pub fn cpu_seconds() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}
