//! The oracle runner: runs the user's interestingness test on candidates.
//!
//! [`CommandOracle`] runs `PROGRAM <candidate-path>` directly (no shell), with the working
//! directory set to a private temporary directory that holds only the candidate, under the
//! input's original file name (made once per run in flight and emptied after each run, see
//! `rundir`). Exit status 0 means "still interesting". For a directory input
//! ([`CommandOracleBuilder::tree`]) the candidate is a tree of files, made under the input
//! directory's name in the run's directory; the oracle runs inside it, with its path as the
//! argument.
//!
//! **Invariant**: every child runs in its own process group, registered in the oracle's table
//! of running groups from just after spawn until just before it is reaped. A group is only ever
//! signalled while its leader is unreaped (alive or a zombie), so its id cannot have been
//! reused by an unrelated process. After the leader exits, the rest of its group is killed too,
//! so no straggler keeps writing into a temporary directory that is being removed. Waiting
//! and signalling are [`crate::group`]'s.

use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{ChildStderr, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rustix::process::{kill_process_group, Pid, Signal};

use self::pace::Pace;
pub use self::pace::TimeoutPace;
use self::rundir::RunDirs;
use crate::group::ExitWatch;
use crate::reaper::{kill_marked_by, Watchdog, MARKER_VAR};
use crate::{Error, Oracle, Outcome, RunToken};

mod pace;
mod rundir;

/// How many lines of the oracle's stderr a [`RunReport`] keeps.
pub const STDERR_HEAD_LINES: usize = 10;
/// How many bytes of the oracle's stderr a [`RunReport`] keeps at most.
const STDERR_HEAD_BYTES: usize = 4096;

/// Environment variable set on the processes of one oracle run: its run directory. A run
/// killed by treedd (timed out, lost bet, cancelled) also kills the processes that left
/// its process group: `timeout COMMAND` puts itself and the command in a group of their
/// own, so killing the oracle's group leaves a compiler running to its end.
pub const RUN_VAR: &str = "TREEDD_RUN";

/// Everything known about one run, for diagnostics ("the original input is not interesting",
/// `--verify`).
#[derive(Clone, Debug)]
pub struct RunReport {
    pub outcome: Outcome,
    /// Exit code, `None` if the oracle was killed by a signal or did not run.
    pub code: Option<i32>,
    /// The signal that killed the oracle, if any.
    pub signal: Option<i32>,
    /// The first [`STDERR_HEAD_LINES`] lines of the oracle's stderr (lossily decoded).
    pub stderr_head: String,
    pub elapsed: Duration,
}

/// Builds a [`CommandOracle`]; checks that the program exists and is executable.
#[derive(Clone, Debug)]
pub struct CommandOracleBuilder {
    program: PathBuf,
    file_name: OsString,
    timeout: Option<Duration>,
    temp_root: Option<PathBuf>,
    watchdog: Option<Arc<Watchdog>>,
    launcher: Vec<OsString>,
    tree: bool,
}

impl CommandOracleBuilder {
    /// `program` is a path (relative to the current directory) or a bare name looked up in
    /// `PATH` when no such file exists in the current directory.
    pub fn new(program: impl Into<PathBuf>) -> CommandOracleBuilder {
        CommandOracleBuilder {
            program: program.into(),
            file_name: OsString::from("candidate"),
            timeout: None,
            temp_root: None,
            watchdog: None,
            launcher: Vec::new(),
            tree: false,
        }
    }

    /// Run every oracle run through a launcher: `LAUNCHER ARGS... ORACLE CANDIDATE-PATH`
    /// (Slurm's `srun`, `ssh host`, HTCondor's `condor_run`), with the same working directory,
    /// timeout and process-group handling as a direct run. The launcher's program is looked
    /// up like the oracle's; the oracle's path is absolute, so a launcher that runs it on
    /// another machine needs it (and `temp_root`) on a shared filesystem.
    pub fn launcher(&mut self, launcher: Vec<OsString>) -> &mut CommandOracleBuilder {
        self.launcher = launcher;
        self
    }

    /// The file name the candidate gets in its temporary directory (the input's file name).
    pub fn file_name(&mut self, name: impl Into<OsString>) -> &mut CommandOracleBuilder {
        self.file_name = name.into();
        self
    }

    /// The candidates are trees of files (encoded [`crate::Files`]), a directory input: each
    /// run gets the tree under [`CommandOracleBuilder::file_name`] (the input directory's
    /// name) in its private directory, and runs with the tree as its working directory and
    /// the tree's absolute path as its argument.
    pub fn tree(&mut self, tree: bool) -> &mut CommandOracleBuilder {
        self.tree = tree;
        self
    }

    /// Per-run timeout; `None` (the default) waits forever.
    pub fn timeout(&mut self, timeout: Option<Duration>) -> &mut CommandOracleBuilder {
        self.timeout = timeout;
        self
    }

    /// Where the per-run temporary directories are made (default: `$TMPDIR` or `/tmp`).
    pub fn temp_root(&mut self, dir: impl Into<PathBuf>) -> &mut CommandOracleBuilder {
        self.temp_root = Some(dir.into());
        self
    }

    /// Register every run's process group with this watchdog, so it dies with treedd even
    /// after SIGKILL (see the crate's `reaper`).
    pub fn watchdog(&mut self, watchdog: Arc<Watchdog>) -> &mut CommandOracleBuilder {
        self.watchdog = Some(watchdog);
        self
    }

    pub fn build(&self) -> Result<CommandOracle, Error> {
        let program = resolve_program(&self.program, Role::Oracle)?;
        let launcher = match self.launcher.split_first() {
            Some((first, rest)) => {
                let mut all =
                    vec![resolve_program(Path::new(first), Role::Launcher)?.into_os_string()];
                all.extend(rest.iter().cloned());
                all
            }
            None => Vec::new(),
        };
        let name = Path::new(&self.file_name);
        if name.file_name() != Some(self.file_name.as_os_str()) {
            return Err(Error::BadFileName(self.file_name.clone()));
        }
        let temp_root = match &self.temp_root {
            Some(dir) => std::path::absolute(dir).map_err(Error::TempDir)?,
            None => std::env::temp_dir(),
        };
        // Fail now, with a clear error, rather than on every run.
        tempfile::Builder::new()
            .prefix("treedd-")
            .tempdir_in(&temp_root)
            .map_err(|source| Error::TempRoot {
                path: temp_root.clone(),
                source,
            })?;
        Ok(CommandOracle {
            program,
            timeout: Mutex::new(self.timeout),
            timeout_pending: AtomicBool::new(false),
            pace: Mutex::new(Pace::default()),
            dirs: RunDirs::new(temp_root, self.file_name.clone(), self.tree),
            watchdog: self.watchdog.clone(),
            marker_inherited: self
                .watchdog
                .as_ref()
                .is_some_and(|w| std::env::var_os(MARKER_VAR).as_deref() == Some(w.marker())),
            launcher,
            running: Mutex::new(Running::default()),
            use_pidfd: true,
        })
    }
}

/// Which program [`resolve_program`] looks for (the error names it).
#[derive(Clone, Copy)]
enum Role {
    Oracle,
    Launcher,
}

/// Make the program path absolute (the child runs in another directory) and check that it is
/// an executable file.
fn resolve_program(program: &Path, role: Role) -> Result<PathBuf, Error> {
    let not_found = || match role {
        Role::Oracle => Error::OracleNotFound(program.to_path_buf()),
        Role::Launcher => Error::LauncherNotFound(program.to_path_buf()),
    };
    let bare = program.components().count() == 1 && !program.as_os_str().is_empty();
    let path = if program.exists() || !bare {
        std::path::absolute(program).map_err(|_| not_found())?
    } else {
        let paths = std::env::var_os("PATH").ok_or_else(not_found)?;
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|p| is_executable_file(p))
            .ok_or_else(not_found)?
    };
    let meta = fs::metadata(&path).map_err(|_| not_found())?;
    if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
        return Err(match role {
            Role::Oracle => Error::OracleNotExecutable(path),
            Role::Launcher => Error::LauncherNotExecutable(path),
        });
    }
    Ok(path)
}

fn is_executable_file(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Process groups of the runs in flight, and whether `cancel` was called.
#[derive(Default)]
struct Running {
    cancelled: bool,
    groups: Vec<Pid>,
}

/// Runs `PROGRAM <candidate-path>` with cwd a fresh private temp dir holding the candidate
/// under the input's file name; exit 0 = interesting; optional timeout kills the group.
pub struct CommandOracle {
    program: PathBuf,
    /// Changeable while runs are under way (the CLI derives it from the original's run).
    timeout: Mutex<Option<Duration>>,
    /// The timeout is not known yet (see [`CommandOracle::set_timeout_pending`]).
    timeout_pending: AtomicBool,
    /// The recent runs' durations, for a timeout that follows them ([`TimeoutPace`]).
    pace: Mutex<Pace>,
    /// The runs' private directories (under the temporary root).
    dirs: RunDirs,
    watchdog: Option<Arc<Watchdog>>,
    /// treedd's own environment carries the watchdog's marker (the CLI sets it once, before
    /// any thread starts): the runs inherit it, and a spawn does not copy the environment to
    /// add it (`Command::env` makes every spawn copy the whole environment into a map and
    /// build a new one, a measurable share of treedd's CPU with short oracles).
    marker_inherited: bool,
    /// `--launcher`: program (resolved) and arguments put before the oracle; empty: none.
    launcher: Vec<OsString>,
    running: Mutex<Running>,
    /// False only in tests of the fallback wait.
    use_pidfd: bool,
}

impl CommandOracle {
    /// The absolute path of the oracle program.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// The `--launcher` command put before the oracle (its program resolved), or empty.
    pub fn launcher(&self) -> &[OsString] {
        &self.launcher
    }

    /// The timeout of a run starting now: the one set, or what its [`TimeoutPace`] makes of
    /// it.
    pub fn timeout(&self) -> Option<Duration> {
        // One lock at a time: the pace's is never held while taking the timeout's.
        let set = self.timeout_set();
        self.pace_lock().timeout(set)
    }

    /// The timeout set by [`CommandOracle::set_timeout`] (what a resumed run starts with).
    pub fn timeout_set(&self) -> Option<Duration> {
        *self.timeout.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Let the timeout follow the pace of the runs (see [`TimeoutPace`]); `None`: keep the
    /// one set.
    pub fn set_timeout_pace(&self, pace: Option<TimeoutPace>) {
        self.pace_lock().set(pace);
    }

    /// The pace set by [`CommandOracle::set_timeout_pace`].
    pub fn timeout_pace(&self) -> Option<TimeoutPace> {
        self.pace_lock().get()
    }

    fn pace_lock(&self) -> MutexGuard<'_, Pace> {
        // Only plain assignments and pushes happen under this lock.
        self.pace.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Change the per-run timeout of the runs started from now on, and of the runs started
    /// while it was pending (`None`: wait forever).
    pub fn set_timeout(&self, timeout: Option<Duration>) {
        *self.timeout.lock().unwrap_or_else(|e| e.into_inner()) = timeout;
        self.timeout_pending.store(false, Ordering::SeqCst);
    }

    /// The timeout is not known yet (the CLI derives it from the original's run, which runs
    /// alongside the first candidates): the runs started until [`CommandOracle::set_timeout`]
    /// get the timeout it sets, counted from their own start.
    pub fn set_timeout_pending(&self) {
        self.timeout_pending.store(true, Ordering::SeqCst);
    }

    /// Run once and keep the exit code and the first lines of stderr.
    pub fn run_report(&self, candidate: &[u8]) -> RunReport {
        self.execute(candidate, true, None)
    }

    fn lock(&self) -> MutexGuard<'_, Running> {
        // A panic while holding this lock cannot leave it inconsistent (push/remove only).
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn execute(
        &self,
        candidate: &[u8],
        capture_stderr: bool,
        token: Option<&RunToken>,
    ) -> RunReport {
        let start = Instant::now();
        let report = |outcome| RunReport {
            outcome,
            code: None,
            signal: None,
            stderr_head: String::new(),
            elapsed: start.elapsed(),
        };
        let aborted = || token.is_some_and(RunToken::is_aborted);
        if self.lock().cancelled || aborted() {
            return report(Outcome::Cancelled);
        }
        // Dropped (emptied for the next run, or removed) on every path out of this function.
        let dir = match self.dirs.take(candidate) {
            Ok(dir) => dir,
            Err(msg) => return report(Outcome::FailedToStart(msg)),
        };
        let path = dir.candidate();
        let mut cmd = match self.launcher.split_first() {
            Some((launcher, args)) => {
                let mut cmd = Command::new(launcher);
                cmd.args(args).arg(&self.program);
                cmd
            }
            None => Command::new(&self.program),
        };
        // The reader of stderr starts before the oracle: without a thread for it (out of
        // threads), stderr goes nowhere and the report has no head of it.
        let reader = if capture_stderr {
            StderrHead::start()
        } else {
            None
        };
        // TMPDIR is the run's own directory, emptied after the run: what the oracle leaves
        // there goes with it, also when the run is killed (a compiler's `cc*.s` files, which
        // it removes only when it exits; C-Vise does the same since its pull request 262).
        cmd.arg(&path)
            .current_dir(dir.cwd())
            .env("TMPDIR", dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(if reader.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .env(RUN_VAR, dir.path())
            .process_group(0);
        if let Some(watchdog) = self.watchdog.as_ref().filter(|_| !self.marker_inherited) {
            cmd.env(MARKER_VAR, watchdog.marker());
        }
        let mut child = match cmd.spawn() {
            Ok(child) => child,
            Err(e) => {
                let program = self
                    .launcher
                    .first()
                    .map_or(self.program.as_os_str(), |l| l);
                let msg = format!("cannot run {}: {e}", Path::new(program).display());
                return report(Outcome::FailedToStart(msg));
            }
        };
        let pid = Pid::from_child(&child);
        if let Some(watchdog) = &self.watchdog {
            watchdog.register(pid);
        }
        {
            let mut running = self.lock();
            running.groups.push(pid);
            if running.cancelled {
                let _ = kill_process_group(pid, Signal::KILL);
            }
        }
        if let Some(token) = token {
            token.attach(pid);
        }
        let stderr = reader.map(|(head, pipe)| {
            if let Some(stderr) = child.stderr.take() {
                let _ = pipe.send(stderr);
            }
            head
        });
        let timed_out = self.wait_exited(pid, start);
        // The leader is a zombie now: its group id is still ours. Kill what it left behind.
        let _ = kill_process_group(pid, Signal::KILL);
        if let Some(token) = token {
            token.detach();
        }
        let cancelled = {
            let mut running = self.lock();
            running.groups.retain(|&g| g != pid);
            running.cancelled
        } || aborted();
        if let Some(watchdog) = &self.watchdog {
            watchdog.forget(pid);
        }
        let status = child.wait();
        if status
            .as_ref()
            .is_ok_and(|s| s.signal() == Some(Signal::KILL.as_raw()))
        {
            kill_marked_by(RUN_VAR, dir.path().as_os_str(), Some(start));
        }
        let stderr_head = stderr.map(StderrHead::finish).unwrap_or_default();
        let (code, signal) = match &status {
            Ok(s) => (s.code(), s.signal()),
            Err(_) => (None, None),
        };
        // A run cut by treedd's own cancellation (or aborted) is `Cancelled` even if its
        // deadline passed meanwhile: its answer is unknown and must never be cached.
        let outcome = match status {
            Ok(s) if s.success() && !timed_out => Outcome::Interesting,
            _ if cancelled => Outcome::Cancelled,
            _ if timed_out => Outcome::TimedOut,
            Ok(s) => Outcome::NotInteresting { code: s.code() },
            Err(e) => Outcome::FailedToStart(format!("cannot wait for the oracle: {e}")),
        };
        let elapsed = start.elapsed();
        if matches!(
            outcome,
            Outcome::Interesting | Outcome::NotInteresting { .. }
        ) {
            self.pace_lock().note(elapsed);
        }
        RunReport {
            outcome,
            code,
            signal,
            stderr_head,
            elapsed,
        }
    }

    /// Wait until the child has exited, without reaping it. Kills its group at the timeout
    /// and then returns true.
    fn wait_exited(&self, pid: Pid, start: Instant) -> bool {
        let watch = ExitWatch::new(pid, self.use_pidfd);
        // Look again at the timeout now and then until it is known.
        while self.timeout_pending.load(Ordering::SeqCst) {
            if watch.exited_by(Some(Instant::now() + PENDING_POLL)) {
                return false;
            }
        }
        if watch.exited_by(self.timeout().map(|t| start + t)) {
            return false;
        }
        let _ = kill_process_group(pid, Signal::KILL);
        watch.exited_by(None);
        true
    }
}

/// How often a run started while the timeout was pending looks whether it is known.
const PENDING_POLL: Duration = Duration::from_millis(50);

/// Drains a child's stderr on a thread, keeping only its head.
struct StderrHead {
    head: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl StderrHead {
    /// A reader waiting for the pipe to drain (sent on the channel; dropping the sender
    /// ends it); `None` if its thread cannot start.
    fn start() -> Option<(StderrHead, mpsc::Sender<ChildStderr>)> {
        let head = Arc::new(Mutex::new(Vec::new()));
        let (tx, done) = mpsc::channel();
        let (pipe, pipe_rx) = mpsc::channel::<ChildStderr>();
        let shared = Arc::clone(&head);
        let reader = std::thread::Builder::new().spawn(move || {
            if let Ok(mut stderr) = pipe_rx.recv() {
                let mut buf = [0u8; 8192];
                while let Ok(n @ 1..) = stderr.read(&mut buf) {
                    let mut head = shared.lock().unwrap_or_else(|e| e.into_inner());
                    let room = STDERR_HEAD_BYTES.saturating_sub(head.len());
                    head.extend_from_slice(&buf[..n.min(room)]);
                }
            }
            let _ = tx.send(());
        });
        reader.ok().map(|_| (StderrHead { head, done }, pipe))
    }

    /// The first lines of what was written. Waits briefly for the pipe to close: a process
    /// that escaped the group may hold it open, and is not waited for.
    fn finish(self) -> String {
        let _ = self.done.recv_timeout(Duration::from_millis(500));
        let head = self.head.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&head);
        let mut lines: Vec<&str> = text.lines().take(STDERR_HEAD_LINES).collect();
        while lines.last().is_some_and(|l| l.trim().is_empty()) {
            lines.pop();
        }
        lines.join("\n")
    }
}

impl Oracle for CommandOracle {
    fn run(&self, candidate: &[u8]) -> Outcome {
        self.execute(candidate, false, None).outcome
    }

    fn run_abortable(&self, candidate: &[u8], token: &RunToken) -> Outcome {
        self.execute(candidate, false, Some(token)).outcome
    }

    fn cancel(&self) {
        let mut running = self.lock();
        running.cancelled = true;
        for &group in &running.groups {
            let _ = kill_process_group(group, Signal::KILL);
        }
    }
}

#[cfg(test)]
mod tests;
