//! No orphans, even after SIGKILL (issue 12, item 2).
//!
//! A reduction's oracle processes must die with treedd, whatever kills treedd. Killing groups
//! from a signal handler is not enough (SIGKILL cannot be caught), and `PR_SET_PDEATHSIG` on
//! each oracle only reaches the direct child, not what it forks. So treedd starts a
//! **watchdog**, a second, tiny treedd process that:
//!
//! - holds one end of a socket pair whose other end only treedd holds (close-on-exec, so no
//!   oracle inherits it past `exec`);
//! - is told, over that socket, every oracle process group: treedd writes the leader's pid
//!   right after the spawn, and its negation when it has killed the group and is about to
//!   reap the leader (so the id is still ours when it is forgotten). Registering from the
//!   child in `pre_exec` would close the short window after the spawn, but any `pre_exec`
//!   makes std use `execvp`, which runs a file without `#!` through `/bin/sh`; the window
//!   is covered by the environment marker below instead;
//! - runs in its own process group and ignores SIGINT, SIGTERM and SIGHUP, so Ctrl-C on the
//!   terminal or `kill -- -PGID` of treedd's group does not take it down first;
//! - on end-of-file, which the kernel delivers when treedd has exited for any reason
//!   (SIGKILL, panic, `exit`, OOM killer), SIGKILLs every group still registered, then every
//!   process whose environment carries this run's marker ([`MARKER_VAR`]=scratch directory,
//!   set on every oracle), which also catches children that left the group with `setsid`;
//!   finally it removes treedd's scratch directory.
//!
//! Second line of defence: every treedd keeps its per-run temporary directories inside one
//! [`Scratch`] directory holding a lock file locked with `flock` for the life of the process.
//! The kernel drops the lock when the process dies, so the next treedd that finds a scratch
//! directory whose lock it can take knows the owner is dead and removes it
//! ([`Scratch::remove_stale`]); no pid is compared, so a reused pid cannot fool it.
//!
//! Limits: a process that both leaves the oracle's process group and clears its environment
//! escapes (only a PID namespace or a cgroup would catch it); a group whose leader was reaped
//! by init after treedd died could in theory have its id reused before the watchdog acts,
//! which would need the whole pid space to wrap around in microseconds.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use rustix::fs::{flock, FlockOperation};
use rustix::process::{kill_process, kill_process_group, Pid, Signal};

use crate::Error;

/// Environment variable set on every oracle process: the run's scratch directory.
pub const MARKER_VAR: &str = "TREEDD_SCRATCH";

/// Prefix of scratch directory names in the temporary root.
const SCRATCH_PREFIX: &str = "treedd-run-";
/// The lock file inside a scratch directory, `flock`ed while its owner lives.
const LOCK_NAME: &str = ".lock";

/// A process's directory for its oracle runs' temporary directories, removed on drop (and by
/// the watchdog, or by the next treedd, if the process dies first).
pub struct Scratch {
    dir: tempfile::TempDir,
    /// Holds the `flock`; closing it (at exit, whatever the cause) releases the lock.
    _lock: fs::File,
}

impl Scratch {
    /// Make `root/treedd-run-<pid>-XXXXXX/` with its lock held.
    pub fn create(root: &Path) -> Result<Scratch, Error> {
        let fail = |source| Error::TempRoot {
            path: root.to_path_buf(),
            source,
        };
        let dir = tempfile::Builder::new()
            .prefix(&format!("{SCRATCH_PREFIX}{}-", std::process::id()))
            .tempdir_in(root)
            .map_err(fail)?;
        // Lock under a temporary name, then rename: a cleaner never sees an unlocked `.lock`.
        let tmp = dir.path().join(".lock.new");
        let lock = fs::File::create(&tmp).map_err(fail)?;
        flock(&lock, FlockOperation::NonBlockingLockExclusive)
            .map_err(|e| fail(io::Error::from(e)))?;
        fs::rename(&tmp, dir.path().join(LOCK_NAME)).map_err(fail)?;
        Ok(Scratch { dir, _lock: lock })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Remove the scratch directories under `root` whose owner has died (their lock is free).
    /// Returns how many were removed. Directories of other users, or in use, are left alone.
    pub fn remove_stale(root: &Path) -> usize {
        let Ok(entries) = fs::read_dir(root) else {
            return 0;
        };
        let mut removed = 0;
        for entry in entries.flatten() {
            let name = entry.file_name();
            if !name.as_bytes().starts_with(SCRATCH_PREFIX.as_bytes()) {
                continue;
            }
            let dir = entry.path();
            let Ok(lock) = fs::File::open(dir.join(LOCK_NAME)) else {
                continue;
            };
            if flock(&lock, FlockOperation::NonBlockingLockExclusive).is_ok()
                && fs::remove_dir_all(&dir).is_ok()
            {
                removed += 1;
            }
        }
        removed
    }
}

/// treedd's side of the watchdog: its end of the socket pair and the watchdog process.
#[derive(Debug)]
pub struct Watchdog {
    socket: OwnedFd,
    marker: OsString,
    _child: Child,
}

impl Watchdog {
    /// Start the watchdog by running `cmd` (which must end up in [`watchdog_main`]) with the
    /// other end of the socket pair as its stdin, in a process group of its own. `scratch` is removed by the
    /// watchdog when treedd is gone, and is the marker value put into every oracle's
    /// environment.
    pub fn spawn(mut cmd: Command, scratch: &Path) -> io::Result<Watchdog> {
        // A socket pair rather than a pipe: `send(MSG_NOSIGNAL)` cannot raise SIGPIPE should
        // the watchdog have died.
        use rustix::net::{socketpair, AddressFamily, SocketFlags, SocketType};
        let (read, write) = socketpair(
            AddressFamily::UNIX,
            SocketType::STREAM,
            SocketFlags::CLOEXEC,
            None,
        )?;
        let child = cmd
            .stdin(Stdio::from(read))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()?;
        Ok(Watchdog {
            socket: write,
            marker: scratch.as_os_str().to_owned(),
            _child: child,
        })
    }

    /// The value of [`MARKER_VAR`] for this run's oracles.
    pub fn marker(&self) -> &OsStr {
        &self.marker
    }

    /// A new oracle process group, led by `pid`. A dead watchdog is no reason to fail a run.
    pub fn register(&self, pid: Pid) {
        let record = pid.as_raw_nonzero().get().to_le_bytes();
        let _ = write_all_raw(self.socket.as_fd(), &record);
    }

    /// The group led by `pid` has been killed and its leader is about to be reaped.
    pub fn forget(&self, pid: Pid) {
        let record = (-pid.as_raw_nonzero().get()).to_le_bytes();
        let _ = write_all_raw(self.socket.as_fd(), &record);
    }
}

/// One 4-byte record per call; a stream socket's small sends are not split in practice, and
/// a partial send is completed in a loop.
fn write_all_raw(fd: BorrowedFd<'_>, mut buf: &[u8]) -> io::Result<()> {
    while !buf.is_empty() {
        match rustix::net::send(fd, buf, rustix::net::SendFlags::NOSIGNAL) {
            Ok(n) => buf = &buf[n..],
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// The watchdog's whole life: read registrations from `input` until end-of-file, then kill
/// what is left, the marked processes, and remove `scratch`. The caller ignores SIGINT,
/// SIGTERM and SIGHUP first.
pub fn watchdog_main(mut input: impl Read, scratch: &Path) {
    let mut groups: HashSet<i32> = HashSet::new();
    let mut record = [0u8; 4];
    while input.read_exact(&mut record).is_ok() {
        match i32::from_le_bytes(record) {
            pid if pid > 0 => {
                groups.insert(pid);
            }
            pid => {
                groups.remove(&pid.saturating_neg());
            }
        }
    }
    for &group in &groups {
        if let Some(pid) = Pid::from_raw(group) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
    kill_marked(scratch.as_os_str());
    let _ = fs::remove_dir_all(scratch);
}

/// SIGKILL every process of this user whose environment holds `MARKER_VAR=marker`; repeat
/// while some are found (a dying parent may have forked meanwhile).
pub fn kill_marked(marker: &OsStr) -> usize {
    let mut needle = format!("{MARKER_VAR}=").into_bytes();
    needle.extend_from_slice(marker.as_bytes());
    needle.push(0);
    let me = std::process::id();
    let mut killed = 0;
    for _ in 0..10 {
        let Ok(entries) = fs::read_dir("/proc") else {
            return killed;
        };
        let mut found = 0;
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            if pid == me {
                continue;
            }
            let Ok(env) = fs::read(entry.path().join("environ")) else {
                continue;
            };
            let hit = env
                .split_inclusive(|&b| b == 0)
                .any(|var| var == needle.as_slice());
            if hit {
                if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
                    if kill_process(pid, Signal::KILL).is_ok() {
                        found += 1;
                    }
                }
            }
        }
        killed += found;
        if found == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    killed
}

/// Where scratch directories go by default: `$TMPDIR` or `/tmp`.
pub fn default_root() -> PathBuf {
    std::env::temp_dir()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alive(pid: u32) -> bool {
        fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
    }

    fn wait_gone(pid: u32) -> bool {
        (0..300).any(|_| {
            let gone = !alive(pid);
            if !gone {
                std::thread::sleep(Duration::from_millis(10));
            }
            gone
        })
    }

    #[test]
    fn stale_scratch_directories_are_removed_live_ones_kept() {
        let t = tempfile::tempdir().unwrap();
        let live = Scratch::create(t.path()).unwrap();
        fs::write(live.path().join("x"), "1").unwrap();
        // A dead owner's directory: a lock file nobody holds.
        let dead = t.path().join(format!("{SCRATCH_PREFIX}1-abc"));
        fs::create_dir_all(dead.join("treedd-xyz")).unwrap();
        fs::write(dead.join(LOCK_NAME), "").unwrap();
        // Not ours: no lock file, or another prefix.
        let other = t.path().join(format!("{SCRATCH_PREFIX}2-def"));
        fs::create_dir(&other).unwrap();
        fs::create_dir(t.path().join("unrelated")).unwrap();
        assert_eq!(Scratch::remove_stale(t.path()), 1);
        assert!(!dead.exists() && other.exists() && live.path().join("x").exists());
        let path = live.path().to_path_buf();
        drop(live);
        assert!(!path.exists());
    }

    #[test]
    fn watchdog_kills_registered_groups_and_marked_processes_at_eof() {
        let t = tempfile::tempdir().unwrap();
        let scratch = t.path().join("scratch");
        fs::create_dir(&scratch).unwrap();
        // A group to kill, a forgotten group to spare, and a marked process in no group of ours.
        let mut group = Command::new("sleep")
            .arg("100")
            .process_group(0)
            .spawn()
            .unwrap();
        let mut spared = Command::new("sleep")
            .arg("100")
            .process_group(0)
            .spawn()
            .unwrap();
        let mut marked = Command::new("sleep")
            .arg("100")
            .env(MARKER_VAR, &scratch)
            .spawn()
            .unwrap();
        let mut input = Vec::new();
        input.extend_from_slice(&(group.id() as i32).to_le_bytes());
        input.extend_from_slice(&(spared.id() as i32).to_le_bytes());
        input.extend_from_slice(&(-(spared.id() as i32)).to_le_bytes());
        watchdog_main(&input[..], &scratch);
        let _ = group.wait();
        let _ = marked.wait();
        assert!(wait_gone(group.id()) && wait_gone(marked.id()));
        assert!(alive(spared.id()));
        assert!(!scratch.exists());
        let _ = spared.kill();
        let _ = spared.wait();
    }
}
