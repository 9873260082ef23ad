//! The test engine: everything between an algorithm's "is this candidate interesting?" and
//! the oracle. Every candidate, from every algorithm, goes to [`Judge::test`]: content cache,
//! syntax filter, oracle, counters and the best result so far. Below the judge, the
//! [`lookahead`] runs the oracle on `jobs` workers and tests announced candidates ahead of
//! time; above it, the speculative [`driver`] tests a sequence of candidates in order and
//! returns the first interesting one, the same with any `jobs`. [`Confirm`] re-tests
//! interesting answers (`--confirm N`).
//!
//! Nothing here knows trees or algorithms: ddmin and the tree algorithms sit above, the
//! process control (`treedd_proc`) below.

pub(crate) mod cache;
mod cancel;
mod confirm;
pub(crate) mod driver;
pub(crate) mod edits;
mod judge;
pub(crate) mod lookahead;
pub(crate) mod observer;
mod stats;

pub use cache::Cache;
pub use cancel::CancelToken;
pub use confirm::Confirm;
pub(crate) use judge::OnImprovement;
pub use judge::{Filter, FnOracle, Judge, JudgeOptions, MissingWorkers};
pub use observer::Observer;
pub use stats::{PassRecord, Stats};
