//! The output file: always holds the best (smallest interesting) candidate found so far.
//!
//! **Invariant**: the output path is only ever replaced by `rename` of a complete file written
//! in the same directory, so at any moment (Ctrl-C, crash, power loss after sync) it holds
//! either the previous best or the new one, never a mix.
//!
//! Improvements are written by a thread of their own: the oracle run that found one hands it
//! over and answers at once: writing (a file, `fdatasync`, a rename: milliseconds on a disk)
//! would otherwise hold up that answer, which the whole reduction waits for, at every
//! improvement. Improvements found while a write is under way replace one another, so only
//! the newest is written next, and writes are at least [`MIN_INTERVAL`] apart: improvements
//! often come tens of milliseconds apart, and each write's `fdatasync` is a large share of
//! treedd's own CPU. [`BestWriter::flush`] and
//! [`BestWriter::finish`] write what is pending at once and wait for it; a SIGKILL can only
//! lose the improvements of the last [`MIN_INTERVAL`], never the file (it then holds an
//! earlier one).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The shortest time between the starts of two writes of improvements (flushes excepted).
pub const MIN_INTERVAL: Duration = Duration::from_millis(500);

type WriteFn = Box<dyn Fn(&Path, &[u8], Option<&fs::Permissions>) -> io::Result<()> + Send + Sync>;

/// Writes improvements to the output path; ignores candidates not smaller than the best.
pub struct BestWriter {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    path: PathBuf,
    mode: Option<fs::Permissions>,
    /// [`write_atomic`], or a stand-in in tests.
    write: WriteFn,
    /// [`MIN_INTERVAL`], or another in tests.
    interval: Duration,
    /// The size of a candidate as the progress display shows it (its length; for a tree of
    /// files, the sum of theirs).
    measure: fn(&[u8]) -> usize,
    state: Mutex<State>,
    /// Signalled when there is something to write, when a write ends, and at the end.
    changed: Condvar,
}

struct State {
    /// Size of the smallest candidate offered (written, being written or waiting).
    offered_len: usize,
    /// Its size as measured (`Shared::measure`).
    found: usize,
    /// What the output file holds: what this writer last wrote there (none while held).
    written: Option<Vec<u8>>,
    /// The newest improvement not yet being written.
    pending: Option<Vec<u8>>,
    writing: bool,
    /// Flushes waiting: what is pending is written without waiting for the interval.
    flushing: usize,
    /// Held: nothing is written, not even this start (see [`BestWriter::held`]).
    held: Option<Vec<u8>>,
    closed: bool,
    error: Option<io::Error>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        self.changed.wait(guard).unwrap_or_else(|e| e.into_inner())
    }

    /// The writer thread: write the newest pending improvement until closed.
    fn write_pending(&self) {
        let mut state = self.lock();
        let mut last_start: Option<Instant> = None;
        loop {
            if state.pending.is_some() && state.held.is_none() {
                let due = last_start.map(|t| t + self.interval);
                if let Some(wait) = due.and_then(|d| d.checked_duration_since(Instant::now())) {
                    if state.flushing == 0 && !state.closed {
                        // Newer improvements may replace this one meanwhile.
                        state = self
                            .changed
                            .wait_timeout(state, wait)
                            .unwrap_or_else(|e| e.into_inner())
                            .0;
                        continue;
                    }
                }
                let Some(bytes) = state.pending.take() else {
                    continue;
                };
                last_start = Some(Instant::now());
                state.writing = true;
                drop(state);
                let result = (self.write)(&self.path, &bytes, self.mode.as_ref());
                state = self.lock();
                state.writing = false;
                match result {
                    Ok(()) => state.written = Some(bytes),
                    Err(e) => {
                        state.error.get_or_insert(e);
                    }
                }
                self.changed.notify_all();
            } else if state.closed {
                return;
            } else {
                state = self.wait(state);
            }
        }
    }
}

impl BestWriter {
    /// Writes `initial` (the original input) to `path` right away.
    pub fn create(
        path: &Path,
        initial: &[u8],
        mode: Option<fs::Permissions>,
    ) -> io::Result<BestWriter> {
        write_atomic(path, initial, mode.as_ref())?;
        BestWriter::with_write(
            path,
            initial,
            mode,
            Box::new(write_atomic),
            MIN_INTERVAL,
            false,
        )
    }

    /// [`BestWriter::create`] for a directory input: `initial` and the improvements are
    /// trees of files, each written as a whole directory (`crate::dir::write::write_tree`).
    pub fn create_tree(path: &Path, initial: &[u8]) -> io::Result<BestWriter> {
        crate::dir::write::write_tree(path, initial)?;
        BestWriter::measured(
            path,
            initial,
            None,
            Box::new(|path, bytes, _| crate::dir::write::write_tree(path, bytes)),
            MIN_INTERVAL,
            false,
            |bytes| crate::dir::bytes(bytes, true),
        )
    }

    /// A writer that writes nothing, not even `initial`, until [`BestWriter::release`]:
    /// improvements are kept meanwhile (the newest smallest one). For a reduction that starts
    /// before the original input is known to be interesting; dropped while held, it leaves
    /// `path` untouched.
    pub fn held(
        path: &Path,
        initial: &[u8],
        mode: Option<fs::Permissions>,
    ) -> io::Result<BestWriter> {
        BestWriter::with_write(
            path,
            initial,
            mode,
            Box::new(write_atomic),
            MIN_INTERVAL,
            true,
        )
    }

    fn with_write(
        path: &Path,
        initial: &[u8],
        mode: Option<fs::Permissions>,
        write: WriteFn,
        interval: Duration,
        held: bool,
    ) -> io::Result<BestWriter> {
        BestWriter::measured(path, initial, mode, write, interval, held, <[u8]>::len)
    }

    fn measured(
        path: &Path,
        initial: &[u8],
        mode: Option<fs::Permissions>,
        write: WriteFn,
        interval: Duration,
        held: bool,
        measure: fn(&[u8]) -> usize,
    ) -> io::Result<BestWriter> {
        let shared = Arc::new(Shared {
            path: path.to_path_buf(),
            mode,
            write,
            interval,
            measure,
            state: Mutex::new(State {
                offered_len: initial.len(),
                found: measure(initial),
                pending: None,
                writing: false,
                flushing: 0,
                held: held.then(|| initial.to_vec()),
                written: (!held).then(|| initial.to_vec()),
                closed: false,
                error: None,
            }),
            changed: Condvar::new(),
        });
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("output".into())
                .spawn(move || shared.write_pending())?
        };
        Ok(BestWriter {
            shared,
            thread: Some(thread),
        })
    }

    /// Record a new interesting candidate, to be written (by the writer thread) if smaller
    /// than the best so far. The first write error is kept for [`BestWriter::finish`].
    pub fn offer(&self, candidate: &[u8]) {
        let mut state = self.shared.lock();
        if candidate.len() >= state.offered_len {
            return;
        }
        state.offered_len = candidate.len();
        state.found = (self.shared.measure)(candidate);
        state.pending = Some(candidate.to_vec());
        self.shared.changed.notify_all();
    }

    /// Size of what the output file holds now.
    #[cfg(test)]
    pub fn best_len(&self) -> usize {
        self.shared.lock().written.as_ref().map_or(0, Vec::len)
    }

    /// Size of the smallest candidate offered: the best found so far, on disk within
    /// [`MIN_INTERVAL`] (what the progress display shows).
    pub fn found_len(&self) -> usize {
        self.shared.lock().found
    }

    /// Start writing (a [`BestWriter::held`] writer): the newest improvement offered so far,
    /// or else the start, is written at once. Returns the error of that write.
    pub fn release(&self) -> io::Result<()> {
        {
            let mut state = self.shared.lock();
            let Some(initial) = state.held.take() else {
                return Ok(());
            };
            state.pending.get_or_insert(initial);
        }
        self.flush();
        match self.shared.lock().error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Write what is pending now and wait until every improvement offered so far is written
    /// (or failed to be); nothing while held.
    pub fn flush(&self) {
        let mut state = self.shared.lock();
        if state.held.is_some() {
            return;
        }
        state.flushing += 1;
        self.shared.changed.notify_all();
        while state.pending.is_some() || state.writing {
            state = self.shared.wait(state);
        }
        state.flushing -= 1;
    }

    /// Write the final result (whatever its size; not again if the file holds it already,
    /// as it does when the result is the last improvement) and report any earlier write error.
    pub fn finish(&self, result: &[u8]) -> io::Result<()> {
        self.flush();
        let mut state = self.shared.lock();
        if let Some(e) = state.error.take() {
            return Err(e);
        }
        // (A file someone removed or changed meanwhile is written again.)
        let holds = state.written.as_deref() == Some(result)
            && fs::metadata(&self.shared.path)
                .is_ok_and(|m| m.is_dir() || m.len() == result.len() as u64);
        if !holds {
            (self.shared.write)(&self.shared.path, result, self.shared.mode.as_ref())?;
            state.written = Some(result.to_vec());
        }
        state.offered_len = result.len();
        state.found = (self.shared.measure)(result);
        Ok(())
    }
}

impl Drop for BestWriter {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Write `bytes` to a temporary file next to `path`, sync it to disk, then rename it over
/// `path`.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: Option<&fs::Permissions>) -> io::Result<()> {
    replace(path, bytes, mode, true)
}

/// [`write_atomic`] without the sync, for reports (`--stats`): a crash may leave the old file,
/// never a part of the new one, and the write costs no disk flush.
pub fn write_report(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, bytes, None, false)
}

fn replace(
    path: &Path,
    bytes: &[u8],
    mode: Option<&fs::Permissions>,
    sync: bool,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".treedd-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    if sync {
        tmp.as_file().sync_data()?;
    }
    if let Some(mode) = mode {
        fs::set_permissions(tmp.path(), mode.clone())?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// A write that reports the bytes of each write on the channel, then writes them.
    fn reported_write() -> (WriteFn, mpsc::Receiver<Vec<u8>>) {
        let (wrote, writes) = mpsc::channel();
        let wrote = Mutex::new(wrote);
        let write: WriteFn = Box::new(move |path, bytes, mode| {
            wrote.lock().unwrap().send(bytes.to_vec()).unwrap();
            write_atomic(path, bytes, mode)
        });
        (write, writes)
    }

    #[test]
    fn only_smaller_candidates_replace_the_output() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("x.reduced.c");
        let w = BestWriter::create(&out, b"0123456789", None).unwrap();
        w.offer(b"01234");
        w.flush();
        assert_eq!(fs::read(&out).unwrap(), b"01234");
        w.offer(b"abcdefgh");
        w.flush();
        assert_eq!(fs::read(&out).unwrap(), b"01234");
        assert_eq!(w.best_len(), 5);
        w.finish(b"012345").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"012345");
        // No temporary file is left next to the output.
        assert_eq!(fs::read_dir(t.path()).unwrap().count(), 1);
    }

    #[test]
    fn write_errors_are_reported_at_the_end() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("sub").join("out.txt");
        assert!(BestWriter::create(&out, b"abc", None).is_err());
        fs::create_dir(t.path().join("sub")).unwrap();
        let w = BestWriter::create(&out, b"abc", None).unwrap();
        fs::remove_dir_all(t.path().join("sub")).unwrap();
        w.offer(b"a");
        w.flush();
        assert_eq!(w.best_len(), 3);
        assert!(w.finish(b"a").is_err());
    }

    #[test]
    fn offers_do_not_wait_for_a_write_and_the_newest_is_written_next() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("x.reduced.c");
        // A write that waits for the test's go-ahead, and reports what it writes.
        let (go, wait_go) = mpsc::channel::<()>();
        let (wrote, writes) = mpsc::channel::<Vec<u8>>();
        let wait_go = Mutex::new(wait_go);
        let write: WriteFn = Box::new(move |path, bytes, mode| {
            wrote.send(bytes.to_vec()).unwrap();
            wait_go.lock().unwrap().recv().unwrap();
            write_atomic(path, bytes, mode)
        });
        let w =
            BestWriter::with_write(&out, b"0123456789", None, write, MIN_INTERVAL, false).unwrap();
        // Dropped before `w` if an assertion fails, so that the held write ends.
        let go = go;
        w.offer(b"01234567");
        // The first write has started and is held, yet more offers return at once.
        assert_eq!(writes.recv().unwrap(), b"01234567");
        let (offered, done) = mpsc::channel();
        std::thread::scope(|s| {
            s.spawn(|| {
                w.offer(b"0123");
                w.offer(b"012345"); // not smaller: ignored
                offered.send(()).unwrap();
            });
            done.recv_timeout(Duration::from_secs(10))
                .expect("an offer waited for a write");
        });
        w.offer(b"01234");
        go.send(()).unwrap();
        // Of the offers made meanwhile, only the newest smallest is written.
        assert_eq!(writes.recv().unwrap(), b"0123");
        go.send(()).unwrap();
        w.flush();
        assert_eq!(fs::read(&out).unwrap(), b"0123");
        assert_eq!(w.best_len(), 4);
        assert!(writes.try_recv().is_err());
    }

    #[test]
    fn improvements_closer_than_the_interval_are_written_once_and_a_flush_does_not_wait() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("x.reduced.c");
        let (write, writes) = reported_write();
        let hour = Duration::from_secs(3600);
        let w = BestWriter::with_write(&out, b"0123456789", None, write, hour, false).unwrap();
        // The first improvement is written at once.
        w.offer(b"01234567");
        assert_eq!(writes.recv().unwrap(), b"01234567");
        // The next ones wait for the interval, the newer replacing the older...
        w.offer(b"012345");
        w.offer(b"0123");
        // The display shows the best found; the file does not hold it yet.
        assert_eq!(w.found_len(), 4);
        assert!(w.best_len() > 4);
        assert!(writes.recv_timeout(Duration::from_millis(300)).is_err());
        assert_eq!(fs::read(&out).unwrap(), b"01234567");
        // ...unless a flush asks for them: then only the newest is written, at once.
        let started = Instant::now();
        w.flush();
        assert!(started.elapsed() < Duration::from_secs(60));
        assert_eq!(writes.try_recv().unwrap(), b"0123");
        assert!(writes.try_recv().is_err());
        assert_eq!(fs::read(&out).unwrap(), b"0123");
        // And the end of the writer writes what is pending.
        w.offer(b"01");
        drop(w);
        assert_eq!(fs::read(&out).unwrap(), b"01");
    }

    #[test]
    fn a_held_writer_writes_nothing_until_released() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("x.reduced.c");
        // Dropped while held: nothing is written, and nothing is left behind.
        let w = BestWriter::held(&out, b"0123456789", None).unwrap();
        w.offer(b"01234");
        w.flush();
        drop(w);
        assert_eq!(fs::read_dir(t.path()).unwrap().count(), 0);
        // Released: the newest smallest improvement is written at once, later ones as usual.
        let w = BestWriter::held(&out, b"0123456789", None).unwrap();
        w.offer(b"012345");
        w.offer(b"0123");
        assert!(!out.exists());
        w.release().unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"0123");
        w.offer(b"01");
        w.flush();
        assert_eq!(fs::read(&out).unwrap(), b"01");
        drop(w);
        // Released without improvements: the start is written.
        let w = BestWriter::held(&out, b"0123456789", None).unwrap();
        w.release().unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"0123456789");
        // A release that cannot write says so.
        let bad = t.path().join("missing").join("out.c");
        let w = BestWriter::held(&bad, b"0123456789", None).unwrap();
        assert!(w.release().is_err());
    }

    #[test]
    fn the_final_result_is_not_written_again_when_the_file_holds_it() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("x.reduced.c");
        let (write, writes) = reported_write();
        let w =
            BestWriter::with_write(&out, b"0123456789", None, write, MIN_INTERVAL, false).unwrap();
        w.offer(b"0123");
        w.finish(b"0123").unwrap();
        assert_eq!(writes.try_iter().collect::<Vec<_>>(), [b"0123".to_vec()]);
        // A result that differs from what the file holds is written, even if not smaller.
        w.finish(b"01234").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"01234");
        assert_eq!(writes.try_iter().count(), 1);
        // Removed meanwhile: written again.
        fs::remove_file(&out).unwrap();
        w.finish(b"01234").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"01234");
    }

    #[test]
    fn a_tree_of_files_is_measured_by_its_files_bytes() {
        use treedd_proc::{FileEntry, Files};
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("proj.reduced");
        let tree = |files: &[(&str, &str)]| {
            let entries = (files.iter())
                .map(|(p, text)| FileEntry::file(*p, 0o644, text.as_bytes().to_vec()))
                .collect();
            Files::new(entries).unwrap().encode()
        };
        let start = tree(&[("a.c", "int a;\n"), ("sub/b.h", "int b;\n")]);
        let w = BestWriter::create_tree(&out, &start).unwrap();
        // What the display shows: the bytes of the files, not of their encoding.
        assert!(start.len() > 14);
        assert_eq!(w.found_len(), 14);
        w.offer(&tree(&[("a.c", "int a;\n")]));
        assert_eq!(w.found_len(), 7);
        w.flush();
        assert_eq!(fs::read(out.join("a.c")).unwrap(), b"int a;\n");
        assert!(!out.join("sub").exists());
    }
}
