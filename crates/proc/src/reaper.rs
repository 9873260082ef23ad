//! No orphans, even after SIGKILL.
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
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rustix::fs::{flock, FlockOperation};
use rustix::process::{kill_process, kill_process_group, Pid, Signal};

use crate::Error;

/// How long the watchdog sleeps after each read of treedd's records (see [`watchdog_main`]).
pub const READ_INTERVAL: Duration = Duration::from_millis(50);

/// Environment variable set on every oracle process: the run's scratch directory.
pub const MARKER_VAR: &str = "TREEDD_SCRATCH";

/// Prefix of scratch directory names in the temporary root.
const SCRATCH_PREFIX: &str = "treedd-run-";
/// The lock file inside a scratch directory, `flock`ed while its owner lives.
const LOCK_NAME: &str = ".lock";

/// A process's directory for its oracle runs' temporary directories, removed on drop (and by
/// the watchdog, or by the next treedd, if the process dies first).
///
/// Scratch directories live in one directory per user under the temporary root,
/// `root/treedd-<uid>/` (mode 0700, removed when the last one goes), so that looking for a dead
/// run's scratch directory reads only treedd's own entries, not a whole shared `/tmp` (with
/// tens of thousands of entries there, that scan would cost milliseconds at every start).
/// Where that directory exists but is not this user's
/// private directory, the scratch directories go directly into `root`.
pub struct Scratch {
    /// Always `Some` until dropped.
    dir: Option<tempfile::TempDir>,
    /// Holds the `flock`; closing it (at exit, whatever the cause) releases the lock.
    _lock: fs::File,
}

/// The name of this user's directory under a temporary root.
fn user_dir_name() -> String {
    format!("treedd-{}", rustix::process::geteuid().as_raw())
}

/// What `root/treedd-<uid>` is.
enum UserDir {
    /// A directory of this user that no one else may write to (made if `create` was asked).
    Ours(PathBuf),
    /// Not there (and not made).
    Missing,
    /// Something else: scratch directories go directly into `root`.
    Foreign,
}

fn user_dir(root: &Path, create: bool) -> UserDir {
    let dir = root.join(user_dir_name());
    if create {
        match fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return UserDir::Ours(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(_) => return UserDir::Foreign,
        }
    }
    match fs::symlink_metadata(&dir) {
        Ok(meta)
            if meta.is_dir()
                && meta.uid() == rustix::process::geteuid().as_raw()
                && meta.mode() & 0o022 == 0 =>
        {
            UserDir::Ours(dir)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => UserDir::Missing,
        _ => UserDir::Foreign,
    }
}

/// Where [`Scratch::create`] makes scratch directories under `root`.
fn scratch_parent(root: &Path) -> PathBuf {
    match user_dir(root, true) {
        UserDir::Ours(dir) => dir,
        UserDir::Missing | UserDir::Foreign => root.to_path_buf(),
    }
}

/// Remove `dir` if it is empty and a user directory of [`Scratch`] (by its name).
fn remove_user_dir_if_empty(dir: &Path) {
    if dir.file_name() == Some(OsStr::new(&user_dir_name())) {
        let _ = fs::remove_dir(dir);
    }
}

impl Scratch {
    /// Make `root/treedd-<uid>/treedd-run-<pid>-XXXXXX/` with its lock held.
    pub fn create(root: &Path) -> Result<Scratch, Error> {
        let fail = |source| Error::TempRoot {
            path: root.to_path_buf(),
            source,
        };
        let make = |parent: &Path| {
            tempfile::Builder::new()
                .prefix(&format!("{SCRATCH_PREFIX}{}-", std::process::id()))
                .tempdir_in(parent)
        };
        // Another treedd may remove the user directory between its creation and ours (when
        // its last scratch directory goes): make it again.
        let mut made = make(&scratch_parent(root));
        for _ in 0..8 {
            match &made {
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    made = make(&scratch_parent(root));
                }
                _ => break,
            }
        }
        let dir = made.map_err(fail)?;
        // Lock under a temporary name, then rename: a cleaner never sees an unlocked `.lock`.
        let tmp = dir.path().join(".lock.new");
        let lock = fs::File::create(&tmp).map_err(fail)?;
        flock(&lock, FlockOperation::NonBlockingLockExclusive)
            .map_err(|e| fail(io::Error::from(e)))?;
        fs::rename(&tmp, dir.path().join(LOCK_NAME)).map_err(fail)?;
        Ok(Scratch {
            dir: Some(dir),
            _lock: lock,
        })
    }

    pub fn path(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new(""), |d| d.path())
    }

    /// Remove the scratch directories under `root` (in this user's directory) whose owner has
    /// died (their lock is free). Returns how many were removed. Directories of other users,
    /// or in use, are left alone.
    pub fn remove_stale(root: &Path) -> usize {
        let dir = match user_dir(root, false) {
            UserDir::Ours(dir) => dir,
            UserDir::Missing => return 0,
            UserDir::Foreign => root.to_path_buf(),
        };
        let Ok(entries) = fs::read_dir(&dir) else {
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

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            let parent = dir.path().parent().map(Path::to_path_buf);
            let _ = dir.close();
            if let Some(parent) = parent {
                remove_user_dir_if_empty(&parent);
            }
        }
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
///
/// The records are read in batches: after each read the watchdog sleeps [`READ_INTERVAL`],
/// and what treedd sends meanwhile waits in the socket's buffer. A watchdog blocked in `read`
/// is woken by every record, and that wake-up is paid in treedd's `send`, two a run.
/// treedd's death is noticed at most that much later.
pub fn watchdog_main(mut input: impl Read, scratch: &Path) {
    let mut groups: HashSet<i32> = HashSet::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut have = 0;
    loop {
        match input.read(&mut buf[have..]) {
            Ok(0) => break,
            Ok(n) => have += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
        let whole = have - have % 4;
        for record in buf[..whole].chunks_exact(4) {
            match i32::from_le_bytes([record[0], record[1], record[2], record[3]]) {
                pid if pid > 0 => {
                    groups.insert(pid);
                }
                pid => {
                    groups.remove(&pid.saturating_neg());
                }
            }
        }
        buf.copy_within(whole..have, 0);
        have -= whole;
        std::thread::sleep(READ_INTERVAL);
    }
    for &group in &groups {
        if let Some(pid) = Pid::from_raw(group) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
    kill_marked(scratch.as_os_str());
    let _ = fs::remove_dir_all(scratch);
    if let Some(parent) = scratch.parent() {
        remove_user_dir_if_empty(parent);
    }
}

/// SIGKILL every process of this user whose environment holds `MARKER_VAR=marker`; repeat
/// while some are found (a dying parent may have forked meanwhile) or some process is caught
/// inside `execve`.
///
/// A process in the middle of `execve` has an empty `environ`: the kernel lets a `vfork`
/// parent (`posix_spawn`) go on as soon as the new memory map is in place, before it has
/// copied the environment onto the new stack. Such a process is looked at again 10 ms later
/// instead of being taken for unmarked: a marked process spawned just before treedd died
/// escaped this way (the reaper test failed about one run in six). A process started with
/// an empty environment looks the same and costs the watchdog at most ten passes, after
/// treedd is gone. Returns how many processes it signalled, each counted once.
pub fn kill_marked(marker: &OsStr) -> usize {
    kill_marked_by(MARKER_VAR, marker, None)
}

/// [`kill_marked`] for the processes whose environment has `var` set to `marker`. With
/// `since`, a process in `execve` counts only if it started after that moment (less a clock
/// tick): one of a run's processes cannot be older than the run, and a long-lived process
/// with an empty environment elsewhere on the machine then costs no second pass.
pub(crate) fn kill_marked_by(var: &str, marker: &OsStr, since: Option<Instant>) -> usize {
    let born_after = since.and_then(ticks_since_boot);
    let mut needle = format!("{var}=").into_bytes();
    needle.extend_from_slice(marker.as_bytes());
    needle.push(0);
    let me = std::process::id();
    // The processes signalled so far: on a loaded machine one may still be there at the next
    // pass, and it counts once.
    let mut signalled = HashSet::new();
    for _ in 0..10 {
        let Ok(entries) = fs::read_dir("/proc") else {
            return signalled.len();
        };
        let (mut found, mut in_exec) = (0, 0);
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
            if env.is_empty() {
                in_exec += usize::from(may_be_in_exec(&entry.path(), born_after));
                continue;
            }
            let hit = env
                .split_inclusive(|&b| b == 0)
                .any(|var| var == needle.as_slice());
            if hit {
                if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
                    if kill_process(pid, Signal::KILL).is_ok() && signalled.insert(pid) {
                        found += 1;
                    }
                }
            }
        }
        if found == 0 && in_exec == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    signalled.len()
}

/// The clock ticks from boot to `at` (less one), the unit of a process's start time in
/// `/proc/PID/stat`; `None` where `/proc/uptime` cannot be read.
fn ticks_since_boot(at: Instant) -> Option<u64> {
    let uptime = fs::read_to_string("/proc/uptime").ok()?;
    let now: f64 = uptime.split_ascii_whitespace().next()?.parse().ok()?;
    let then = now - at.elapsed().as_secs_f64();
    let ticks = then * rustix::param::clock_ticks_per_second() as f64;
    Some((ticks as u64).saturating_sub(1))
}

/// Whether a process whose `environ` reads empty may be inside `execve`: neither a zombie
/// nor a kernel thread (both have no environment for good), nor started before tick
/// `born_after` where given. From `/proc/PID/stat`: the state, `PF_KTHREAD` in the flags
/// (the seventh field after the command name) and the start time (the twentieth).
fn may_be_in_exec(proc_dir: &Path, born_after: Option<u64>) -> bool {
    const PF_KTHREAD: u64 = 0x0020_0000;
    let Ok(stat) = fs::read(proc_dir.join("stat")) else {
        return false;
    };
    let Some(close) = stat.iter().rposition(|&b| b == b')') else {
        return false;
    };
    let fields = String::from_utf8_lossy(&stat[close + 1..]).into_owned();
    let mut fields = fields.split_ascii_whitespace();
    let state = fields.next();
    let flags = fields.nth(5).and_then(|f| f.parse::<u64>().ok());
    let start = fields.nth(12).and_then(|f| f.parse::<u64>().ok());
    !matches!(state, Some("Z" | "X"))
        && flags.is_some_and(|f| f & PF_KTHREAD == 0)
        && born_after.is_none_or(|b| start.is_some_and(|s| s >= b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

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
        let home = t.path().join(user_dir_name());
        assert_eq!(live.path().parent(), Some(home.as_path()));
        fs::write(live.path().join("x"), "1").unwrap();
        // A dead owner's directory: a lock file nobody holds.
        let dead = home.join(format!("{SCRATCH_PREFIX}1-abc"));
        fs::create_dir_all(dead.join("treedd-xyz")).unwrap();
        fs::write(dead.join(LOCK_NAME), "").unwrap();
        // Not ours: no lock file, or another prefix.
        let other = home.join(format!("{SCRATCH_PREFIX}2-def"));
        fs::create_dir(&other).unwrap();
        fs::create_dir(home.join("unrelated")).unwrap();
        // Outside this user's directory: never looked at.
        let outside = t.path().join(format!("{SCRATCH_PREFIX}3-ghi"));
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join(LOCK_NAME), "").unwrap();
        assert_eq!(Scratch::remove_stale(t.path()), 1);
        assert!(!dead.exists() && other.exists() && live.path().join("x").exists());
        assert!(outside.exists());
        let path = live.path().to_path_buf();
        drop(live);
        assert!(!path.exists());
    }

    #[test]
    fn the_user_directory_goes_with_its_last_scratch_directory() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join(user_dir_name());
        let (a, b) = (
            Scratch::create(t.path()).unwrap(),
            Scratch::create(t.path()).unwrap(),
        );
        assert_eq!(fs::metadata(&home).unwrap().mode() & 0o777, 0o700);
        drop(a);
        assert!(home.exists());
        drop(b);
        assert!(!home.exists());
        assert_eq!(Scratch::remove_stale(t.path()), 0);
        assert!(!home.exists(), "looking for stale directories makes none");
    }

    #[test]
    fn a_user_directory_others_may_write_to_is_not_used() {
        // Someone else's, or writable by others: the scratch directory goes into the root, and
        // stale ones are looked for there.
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join(user_dir_name());
        fs::create_dir(&home).unwrap();
        fs::set_permissions(&home, fs::Permissions::from_mode(0o777)).unwrap();
        let live = Scratch::create(t.path()).unwrap();
        assert_eq!(live.path().parent(), Some(t.path()));
        let dead = t.path().join(format!("{SCRATCH_PREFIX}1-abc"));
        fs::create_dir(&dead).unwrap();
        fs::write(dead.join(LOCK_NAME), "").unwrap();
        assert_eq!(Scratch::remove_stale(t.path()), 1);
        drop(live);
        assert!(home.exists(), "not ours to remove");
    }

    #[test]
    fn a_marked_process_is_killed_even_right_after_its_spawn() {
        // The spawn returns while the child may still be inside execve, with no environment
        // to read yet (this lost about one in six).
        let t = tempfile::tempdir().unwrap();
        let marker = t.path().as_os_str();
        for _ in 0..40 {
            let mut marked = Command::new("sleep")
                .arg("100")
                .env(MARKER_VAR, marker)
                .spawn()
                .unwrap();
            assert_eq!(kill_marked(marker), 1);
            let _ = marked.wait();
        }
    }

    #[test]
    fn kernel_threads_and_zombies_are_not_taken_for_processes_in_exec() {
        // kthreadd (pid 2) is a kernel thread; a child not waited for is a zombie.
        if fs::read_to_string("/proc/2/stat").is_ok_and(|s| s.contains("(kthreadd)")) {
            assert!(!may_be_in_exec(Path::new("/proc/2"), None));
        }
        let mut child = Command::new("true").spawn().unwrap();
        let dir = PathBuf::from(format!("/proc/{}", child.id()));
        assert!(wait_gone(child.id()), "exits");
        assert!(!may_be_in_exec(&dir, None));
        let _ = child.wait();
        assert!(may_be_in_exec(Path::new("/proc/self"), None));
    }

    #[test]
    fn a_process_older_than_the_run_is_not_taken_for_one_in_exec() {
        // `env -i` leaves its command an empty environment for good: it looks like a process
        // inside `execve`, unless it started before the run did.
        let mut quiet = Command::new("env")
            .args(["-i", "/bin/sleep", "100"])
            .spawn()
            .unwrap();
        let dir = PathBuf::from(format!("/proc/{}", quiet.id()));
        let exec_done = (0..300).any(|_| {
            let done = fs::read_to_string(dir.join("comm")).is_ok_and(|c| c.trim() == "sleep");
            if !done {
                std::thread::sleep(Duration::from_millis(10));
            }
            done
        });
        assert!(exec_done, "env runs sleep");
        std::thread::sleep(Duration::from_millis(100));
        let run_start = Instant::now();
        assert_eq!(fs::read(dir.join("environ")).unwrap(), b"");
        assert!(may_be_in_exec(&dir, None));
        assert!(!may_be_in_exec(&dir, ticks_since_boot(run_start)));
        let born_before = ticks_since_boot(run_start - Duration::from_secs(5));
        assert!(may_be_in_exec(&dir, born_before));
        let _ = quiet.kill();
        let _ = quiet.wait();
    }

    #[test]
    fn the_watchdog_is_not_woken_by_every_record() {
        // 100 records, 1 ms apart: read as they come, that is about 100 wake-ups of the
        // watchdog (voluntary context switches); read every 50 ms, a handful.
        use std::io::Write;
        use std::os::unix::net::UnixStream;
        let t = tempfile::tempdir().unwrap();
        let scratch = t.path().join("scratch");
        fs::create_dir(&scratch).unwrap();
        let (mut treedd, watchdog) = UnixStream::pair().unwrap();
        let (task_tx, task_rx) = std::sync::mpsc::channel();
        let scratch2 = scratch.clone();
        let thread = std::thread::spawn(move || {
            task_tx.send(crate::proc_task::current()).unwrap();
            watchdog_main(watchdog, &scratch2);
        });
        let task = task_rx.recv().unwrap();
        let switches = || crate::proc_task::voluntary_switches(&task);
        std::thread::sleep(Duration::from_millis(20));
        let before = switches();
        for pid in 1..=50i32 {
            treedd.write_all(&pid.to_le_bytes()).unwrap();
            std::thread::sleep(Duration::from_millis(1));
            treedd.write_all(&(-pid).to_le_bytes()).unwrap();
            std::thread::sleep(Duration::from_millis(1));
        }
        let woken = switches() - before;
        drop(treedd);
        thread.join().unwrap();
        assert!(!scratch.exists(), "end-of-file still ends the watchdog");
        assert!(woken <= 20, "woken {woken} times by 100 records");
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
