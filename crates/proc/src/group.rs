//! Waiting for and signalling a child that leads its own process group.
//!
//! **Invariant** (with [`crate::CommandOracle`]): a group is only ever signalled while its
//! leader is unreaped (alive or a zombie), so its id cannot have been reused by an unrelated
//! process. Waiting is done on a pidfd with `poll` (no busy polling, timeout for free);
//! kernels without pidfd fall back to `waitid(WNOWAIT)` with short sleeps.

use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::process::{
    kill_process_group, pidfd_open, waitid, Pid, PidfdFlags, Signal, WaitId, WaitIdOptions,
};

/// A signal for [`signal_group`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupSignal {
    /// SIGINT: lets a process that handles it (treedd, C-Reduce) stop cleanly.
    Interrupt,
    /// SIGKILL.
    Kill,
}

/// Wait until our child `pid`, the leader of its own process group (spawned with
/// `process_group(0)`, as every oracle run), has exited, without reaping it, so its group id
/// stays reserved and `/proc/PID` keeps its final counters. Returns false if it is still
/// running at `deadline`. The same pidfd wait (or `waitid` fallback) as [`crate::CommandOracle`]'s;
/// for harnesses that drive a process group themselves (`cargo xtask bench`).
pub fn wait_exited(pid: u32, deadline: Option<Instant>) -> bool {
    let pid = i32::try_from(pid).ok().and_then(Pid::from_raw);
    pid.is_none_or(|pid| ExitWatch::new(pid, true).exited_by(deadline))
}

/// Signal the process group led by our child `pid`. Only call this before `pid` is reaped
/// (see the module's invariant).
pub fn signal_group(pid: u32, signal: GroupSignal) {
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        let signal = match signal {
            GroupSignal::Interrupt => Signal::INT,
            GroupSignal::Kill => Signal::KILL,
        };
        let _ = kill_process_group(pid, signal);
    }
}

/// Waits for our child `pid` (not reaped) to exit: on its pidfd, or without one (kernels
/// without pidfd, tests of the fallback) with `waitid` and short sleeps.
pub(crate) struct ExitWatch {
    pid: Pid,
    pidfd: Option<rustix::fd::OwnedFd>,
}

impl ExitWatch {
    pub(crate) fn new(pid: Pid, use_pidfd: bool) -> ExitWatch {
        let pidfd = match use_pidfd {
            true => pidfd_open(pid, PidfdFlags::empty()).ok(),
            false => None,
        };
        ExitWatch { pid, pidfd }
    }

    /// True once `pid` has exited; false at `deadline`.
    pub(crate) fn exited_by(&self, deadline: Option<Instant>) -> bool {
        match &self.pidfd {
            Some(fd) => poll_exited(fd, self.pid, deadline),
            None => sleep_until_exited(self.pid, deadline),
        }
    }
}

/// Poll the pidfd of `pid` until it has exited (true) or `deadline` has passed (false).
fn poll_exited(fd: &rustix::fd::OwnedFd, pid: Pid, deadline: Option<Instant>) -> bool {
    loop {
        let timeout = deadline.map(|d| {
            let left = d.saturating_duration_since(Instant::now());
            Timespec::try_from(left).unwrap_or(Timespec {
                tv_sec: i64::MAX,
                tv_nsec: 0,
            })
        });
        let mut fds = [PollFd::new(fd, PollFlags::IN)];
        match poll(&mut fds, timeout.as_ref()) {
            Ok(0) => return false,
            Ok(_) => return true,
            Err(rustix::io::Errno::INTR) => {}
            Err(_) => return sleep_until_exited(pid, deadline),
        }
    }
}

/// Fallback without pidfd: `waitid(WNOHANG | WNOWAIT)` with growing sleeps (1 to 20 ms)
/// until `pid` has exited (true) or `deadline` has passed (false).
fn sleep_until_exited(pid: Pid, deadline: Option<Instant>) -> bool {
    let mut nap = Duration::from_millis(1);
    loop {
        let opts = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        match waitid(WaitId::Pid(pid), opts) {
            Ok(Some(_)) | Err(_) => return true,
            Ok(None) => {}
        }
        if let Some(d) = deadline {
            let now = Instant::now();
            if now >= d {
                return false;
            }
            nap = nap.min(d - now);
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(20));
    }
}
