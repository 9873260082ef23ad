//! Parked threads for the speculative driver's workers.
//!
//! A speculating `first_true` runs `jobs` workers, and a reduction calls it for every ddmin
//! round and every HDD node, about once for every two oracle runs. A new thread for each
//! would map and unmap a stack and make its own tree-sitter parser for the syntax filter,
//! a noticeable share of treedd's own CPU. So the workers run on threads that stay parked
//! between calls.
//!
//! [`run`] is `std::thread::scope` with `n` copies of one closure: it returns only when every
//! copy has returned, and a panic in one is resumed on the caller's thread then. Unlike
//! `std::thread::scope`'s `spawn`, it does not panic when a thread cannot be started (out of
//! threads or memory, with a large `--jobs`): it runs the copies that could start, and tells
//! the caller how many.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Threads kept parked at most; more are started when needed and end after their job.
const KEEP: usize = 16;

/// A closure borrowed for one [`run`], its lifetime erased (see the safety argument there).
type Erased = &'static (dyn Fn() + Sync);

/// One copy of a [`run`]'s closure to run. Making it counts its [`run`] up; dropping it,
/// after it ran or when it cannot run, counts it down: the closure is not used after that.
struct Job {
    f: Erased,
    done: Arc<Latch>,
}

impl Job {
    fn new(f: Erased, done: &Arc<Latch>) -> Job {
        done.lock().0 += 1;
        Job {
            f,
            done: Arc::clone(done),
        }
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.done.count_down();
    }
}

/// The copies of a [`run`] not finished yet, and the first panic.
struct Latch {
    state: Mutex<(usize, Option<Box<dyn Any + Send>>)>,
    zero: Condvar,
}

impl Latch {
    fn lock(&self) -> MutexGuard<'_, (usize, Option<Box<dyn Any + Send>>)> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn count_down(&self) {
        let mut s = self.lock();
        s.0 -= 1;
        if s.0 == 0 {
            self.zero.notify_all();
        }
    }

    fn panicked(&self, payload: Box<dyn Any + Send>) {
        self.lock().1.get_or_insert(payload);
    }

    fn wait(&self) {
        let mut s = self.lock();
        while s.0 > 0 {
            s = self.zero.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Waits until every copy has finished when dropped, also while the caller unwinds: no thread
/// can still be running the borrowed closure once [`run`] has been left.
struct WaitOnDrop(Arc<Latch>);

impl Drop for WaitOnDrop {
    fn drop(&mut self) {
        self.0.wait();
    }
}

/// The parked threads, each waiting for its next job on its own channel.
static PARKED: Mutex<Vec<Sender<Job>>> = Mutex::new(Vec::new());

fn parked() -> MutexGuard<'static, Vec<Sender<Job>>> {
    PARKED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Run `n` copies of `f` at once, each on a thread of its own, while the caller's thread runs
/// `meanwhile(started)`, `started` being how many copies could start (fewer than `n` only
/// when threads cannot be started); return `meanwhile`'s result once every copy has returned.
pub(crate) fn run<R>(n: usize, f: &(dyn Fn() + Sync), meanwhile: impl FnOnce(usize) -> R) -> R {
    let done = Arc::new(Latch {
        state: Mutex::new((0, None)),
        zero: Condvar::new(),
    });
    // SAFETY: `f` outlives every use of the erased reference. It is used only through the
    // jobs made below; making one counts `done` up, and its thread runs it and then drops it,
    // or it is dropped unrun when it cannot run; each drop counts `done` down. `wait` waits
    // for the count to come back to zero before this function returns, and on an unwind out
    // of it (a panic in `meanwhile`), before `f`'s borrow ends.
    let erased = unsafe { std::mem::transmute::<&(dyn Fn() + Sync), Erased>(f) };
    let wait = WaitOnDrop(Arc::clone(&done));
    let mut threads: Vec<Sender<Job>> = Vec::with_capacity(n);
    for _ in 0..n {
        match send(Job::new(erased, &done)) {
            Some(tx) => threads.push(tx),
            // No thread for it now: none for the next one either.
            None => break,
        }
    }
    let out = meanwhile(threads.len());
    drop(wait);
    let panic = done.lock().1.take();
    let mut p = parked();
    let room = KEEP.saturating_sub(p.len());
    p.extend(threads.into_iter().take(room));
    drop(p);
    if let Some(payload) = panic {
        panic::resume_unwind(payload);
    }
    out
}

#[cfg(test)]
thread_local! {
    /// Make the send of this thread's copy number k fail as a failed thread start does (and
    /// those after it).
    pub(super) static FAIL_SEND: std::cell::Cell<Option<usize>> =
        const { std::cell::Cell::new(None) };
}

/// Hand `job` to a parked thread, or to a new one; the thread's channel. `None` (and the
/// job dropped unrun) if no thread can be started.
fn send(mut job: Job) -> Option<Sender<Job>> {
    #[cfg(test)]
    if FAIL_SEND.with(|fail| match fail.get() {
        Some(0) => true,
        Some(k) => {
            fail.set(Some(k - 1));
            false
        }
        None => false,
    }) {
        return None;
    }
    loop {
        let Some(tx) = parked().pop() else { break };
        match tx.send(job) {
            Ok(()) => return Some(tx),
            // That thread has ended (after a panic): take another.
            Err(e) => job = e.0,
        }
    }
    let (tx, rx) = channel();
    // Cannot fail: `rx` is alive. If the thread cannot start, `rx` and the job are dropped.
    let _ = tx.send(job);
    std::thread::Builder::new()
        .name("treedd-driver".into())
        .spawn(move || serve(rx))
        .ok()?;
    Some(tx)
}

/// A pool thread's life: run jobs until its channel closes or a job panics (its thread-local
/// state, such as the driver's bet, may then be stale).
fn serve(rx: Receiver<Job>) {
    while let Ok(job) = rx.recv() {
        let outcome = panic::catch_unwind(AssertUnwindSafe(job.f));
        if let Err(payload) = outcome {
            // The channel closes before the job's drop tells the caller this copy is over:
            // a job sent to this thread after that fails and goes to another thread, instead
            // of being dropped unrun.
            drop(rx);
            job.done.panicked(payload);
            drop(job);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Barrier;
    use std::thread::ThreadId;

    use super::*;

    #[test]
    fn a_failed_thread_start_neither_hangs_nor_panics_and_the_caller_learns_it() {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            // The second of three copies cannot start (nor the third, then).
            FAIL_SEND.with(|fail| fail.set(Some(1)));
            let count = AtomicUsize::new(0);
            let started = run(
                3,
                &|| {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    count.fetch_add(1, Ordering::SeqCst);
                },
                |started| started,
            );
            let _ = tx.send((started, count.load(Ordering::SeqCst)));
        });
        let (started, ran) = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("run hung after a failed thread start");
        assert_eq!(started, 1, "the caller is told how many started");
        assert_eq!(
            ran, 1,
            "the copy that started had finished before run returned"
        );
    }

    #[test]
    fn every_copy_runs_at_once_and_run_returns_after_all() {
        // The barrier passes only if all four copies are running together.
        let barrier = Barrier::new(4);
        let count = AtomicUsize::new(0);
        let out = run(
            4,
            &|| {
                barrier.wait();
                std::thread::sleep(std::time::Duration::from_millis(20));
                count.fetch_add(1, Ordering::SeqCst);
            },
            |_| 7,
        );
        assert_eq!((out, count.load(Ordering::SeqCst)), (7, 4));
    }

    #[test]
    fn threads_are_reused_and_a_panic_reaches_the_caller() {
        let ids = || {
            let seen = Mutex::new(HashSet::<ThreadId>::new());
            let barrier = Barrier::new(2);
            run(
                2,
                &|| {
                    barrier.wait();
                    seen.lock().unwrap().insert(std::thread::current().id());
                },
                |_| {},
            );
            seen.into_inner().unwrap()
        };
        // Other tests use the pool too: some thread of a call is one seen before.
        let mut before = ids();
        let reused = (0..20).any(|_| {
            let now = ids();
            let hit = !now.is_disjoint(&before);
            before.extend(now);
            hit
        });
        assert!(reused, "no parked thread was reused");
        let caught = panic::catch_unwind(|| {
            run(
                2,
                &|| {
                    if std::thread::current().name() == Some("treedd-driver") {
                        panic!("worker failed");
                    }
                },
                |_| (),
            )
        });
        let payload = caught.expect_err("the panic is resumed");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"worker failed"));
        // And the pool still works after it.
        let count = AtomicUsize::new(0);
        run(
            3,
            &|| {
                count.fetch_add(1, Ordering::SeqCst);
            },
            |_| (),
        );
        assert_eq!(count.load(Ordering::SeqCst), 3);
    }
}
