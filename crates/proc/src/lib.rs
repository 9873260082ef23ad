//! Process control for treedd: running the user's interestingness test on candidates.
//!
//! [`CommandOracle`] runs the oracle program on a candidate in a private directory, in a
//! process group of its own, with a timeout; the [`reaper`] makes sure no oracle process
//! outlives treedd, even after SIGKILL. The reduction crate sees only the [`Oracle`] trait.
//! This crate knows nothing of trees or algorithms.

mod command;
mod cpu;
mod error;
mod group;
mod oracle;
mod proc_task;
pub mod reaper;

pub use command::{CommandOracle, CommandOracleBuilder, RunReport, STDERR_HEAD_LINES};
pub use cpu::cpu_seconds;
pub use error::Error;
pub use group::{signal_group, wait_exited, GroupSignal};
pub use oracle::{Oracle, Outcome, RunToken};

/// Helpers for tests in other crates (not part of the API).
#[doc(hidden)]
pub mod dev {
    pub use crate::proc_task::{current as current_task, voluntary_switches};
}
