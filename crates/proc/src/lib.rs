//! Process control for treedd: running the user's interestingness test on candidates.
//!
//! [`CommandOracle`] runs the oracle program on a candidate in a private directory, in a
//! process group of its own, with a timeout; the watchdog ([`Watchdog`]) makes sure no oracle process
//! outlives treedd, even after SIGKILL. The reduction crate sees only the [`Oracle`] trait.
//! This crate knows nothing of trees or algorithms.

mod command;
mod cpu;
mod error;
mod files;
mod group;
mod oracle;
mod proc_task;
mod reaper;

pub use command::{CommandOracle, CommandOracleBuilder, RunReport, TimeoutPace};
pub use cpu::cpu_seconds;
pub use error::Error;
pub use files::{FileEntry, FileKind, Files};
pub use oracle::{Oracle, Outcome, RunToken};
pub use reaper::{watchdog_main, Scratch, Watchdog, MARKER_VAR};

/// Entry points for the workspace's own tools and tests, not part of the API: the process
/// group helpers of `cargo xtask bench` and a thread's context switches for tests.
#[doc(hidden)]
pub mod dev {
    pub use crate::group::{signal_group, wait_exited, GroupSignal};
    pub use crate::proc_task::{current as current_task, voluntary_switches};
}
