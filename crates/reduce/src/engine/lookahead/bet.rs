//! The speculative driver's bets (see `driver`): which index of a sequence this thread
//! tests, and whether it was lost.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Instant;

use super::Lookahead;

/// The smallest interesting index of a speculating driver call known so far (`usize::MAX`:
/// none), and the lookahead whose waiting bets must hear when it falls: a bet waiting for
/// its run's answer is lost from then on, and gives up its wait at once
/// ([`Lookahead::request`] looks at `lost` when woken). Without the wake-up a lost bet would
/// be noticed only when its wait times out.
pub(crate) struct Found {
    index: AtomicUsize,
    /// How many indices from the first answered without being interesting.
    failed: AtomicUsize,
    wake: OnceLock<Weak<Lookahead>>,
}

impl Default for Found {
    fn default() -> Found {
        Found::new()
    }
}

impl Found {
    pub fn new() -> Found {
        Found {
            index: AtomicUsize::new(usize::MAX),
            failed: AtomicUsize::new(0),
            wake: OnceLock::new(),
        }
    }

    /// The lookahead the bets of this driver call waited on, if any (see [`Bet::wake_on`]).
    pub fn lookahead(&self) -> Option<Arc<Lookahead>> {
        self.wake.get().and_then(Weak::upgrade)
    }

    /// The smallest interesting index so far (`usize::MAX`: none).
    pub fn get(&self) -> usize {
        self.index.load(Ordering::SeqCst)
    }

    /// The first `n` indices answered, none interesting: the bet at `n` is the earliest
    /// one left, and a bet waiting on `la` is woken (see [`Bet::is_earliest`]).
    pub fn failed_through(&self, n: usize) {
        let before = self.failed.fetch_max(n, Ordering::SeqCst);
        if n > before {
            if let Some(la) = self.wake.get().and_then(Weak::upgrade) {
                la.notify();
            }
        }
    }

    /// `index` is interesting: wake the bets waiting on `la` if that lowers the smallest.
    pub fn win(&self, index: usize) {
        let before = self.index.fetch_min(index, Ordering::SeqCst);
        if index < before {
            if let Some(la) = self.wake.get().and_then(Weak::upgrade) {
                la.notify();
            }
        }
    }
}

/// The driver's index being tested on this thread, while a worker of `driver::first_true`
/// with several jobs tests it: the smallest interesting index known so far (`usize::MAX`:
/// none) and this one's. See the docs of `driver`.
#[derive(Clone)]
pub(crate) struct Bet {
    found: Arc<Found>,
    index: usize,
    on_start: Option<OnStart>,
}

/// Told when the run a bet waits for started (see [`Bet::on_start`]).
pub(crate) type OnStart = Arc<dyn Fn(Instant) + Send + Sync>;

impl Bet {
    pub fn new(found: Arc<Found>, index: usize) -> Bet {
        Bet {
            found,
            index,
            on_start: None,
        }
    }

    /// Tell `f` when the run this bet waits for started: the driver's watch times a
    /// probable winner from then, not from when it handed the index out (a run started
    /// ahead as a bet on success has been under way for a while; a queued one starts
    /// later).
    pub fn on_start(self, f: OnStart) -> Bet {
        Bet {
            on_start: Some(f),
            ..self
        }
    }

    /// The run this bet waits for has been under way since `since`.
    pub fn started(&self, since: Instant) {
        if let Some(f) = &self.on_start {
            f(since);
        }
    }

    /// An earlier index of the sequence was interesting: this answer is not needed.
    pub fn lost(&self) -> bool {
        self.found.get() < self.index
    }

    /// Every earlier index was answered and none was interesting: this answer is the one
    /// the algorithm waits for next.
    pub fn is_earliest(&self) -> bool {
        self.found.failed.load(Ordering::SeqCst) >= self.index
    }

    /// This index is interesting: later bets are lost from now on (and woken if waiting).
    pub fn won(&self) {
        self.found.win(self.index);
    }

    /// The bets of this driver call wait for runs of `la`: wake them there when one wins
    /// (the first lookahead named stays; a driver call has one).
    pub fn wake_on(&self, la: &Arc<Lookahead>) {
        let _ = self.found.wake.set(Arc::downgrade(la));
    }
}

thread_local! {
    /// The bet of this thread and whether its test was abandoned (see [`abandon`]).
    static BET: RefCell<Option<(Bet, bool)>> = const { RefCell::new(None) };
}

/// This thread tests `bet` until [`leave`].
pub(crate) fn enter(bet: Bet) {
    BET.with(|b| *b.borrow_mut() = Some((bet, false)));
}

/// This thread's bet is over; true if its test was abandoned.
pub(crate) fn leave() -> bool {
    BET.with(|b| b.borrow_mut().take())
        .is_some_and(|(_, abandoned)| abandoned)
}

/// Run `f` with this thread's bet (if any) set aside, and put it back after: for a driver
/// whose workers' threads could not start, run by a thread that tests an outer bet.
pub(crate) fn aside<R>(f: impl FnOnce() -> R) -> R {
    let saved = BET.with(|b| b.borrow_mut().take());
    let out = f();
    BET.with(|b| *b.borrow_mut() = saved);
    out
}

/// The bet this thread is testing, if it is a worker of a speculating `driver::first_true`.
pub(crate) fn current_bet() -> Option<Bet> {
    BET.with(|b| b.borrow().as_ref().map(|(bet, _)| bet.clone()))
}

/// The test of the current bet was abandoned (lost): its outcome is unknown.
pub(crate) fn abandon() {
    BET.with(|b| {
        if let Some((_, abandoned)) = b.borrow_mut().as_mut() {
            *abandoned = true;
        }
    });
}
