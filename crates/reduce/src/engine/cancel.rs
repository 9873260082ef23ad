//! [`CancelToken`]: a cancellation that exists before the judges it stops. The CLI makes one
//! with the reduction and raises it from its signal thread; each judge given it (and each
//! judge nested in one) links its stop flag to it when built, and a judge built after the
//! token was raised starts cancelled.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// A cancellation shared by whoever raises it and the judges it stops (cheap to clone).
/// Raising it is final.
#[derive(Clone, Default)]
pub struct CancelToken(Arc<Inner>);

#[derive(Default)]
struct Inner {
    raised: AtomicBool,
    /// The stop flags of the judges linked so far (those dropped since are skipped).
    stops: Mutex<Vec<Weak<AtomicBool>>>,
}

impl CancelToken {
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Raise the token: every linked stop flag is raised, and so is every one linked later.
    pub fn cancel(&self) {
        self.0.raised.store(true, Ordering::SeqCst);
        for stop in self.stops().iter().filter_map(Weak::upgrade) {
            stop.store(true, Ordering::SeqCst);
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.raised.load(Ordering::SeqCst)
    }

    /// Raise `stop` when the token is raised, at once if it already is.
    pub(crate) fn link(&self, stop: &Arc<AtomicBool>) {
        let mut stops = self.stops();
        stops.retain(|s| s.strong_count() > 0);
        stops.push(Arc::downgrade(stop));
        // Under the lock: a `cancel` that raised the token before this line finds the list
        // without `stop`, and is seen here; one after finds `stop` in the list.
        if self.is_cancelled() {
            stop.store(true, Ordering::SeqCst);
        }
    }

    fn stops(&self) -> std::sync::MutexGuard<'_, Vec<Weak<AtomicBool>>> {
        self.0.stops.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raises_flags_linked_before_and_after() {
        let token = CancelToken::new();
        let before = Arc::new(AtomicBool::new(false));
        token.link(&before);
        assert!(!before.load(Ordering::SeqCst));
        token.clone().cancel();
        assert!(token.is_cancelled());
        assert!(before.load(Ordering::SeqCst));
        let after = Arc::new(AtomicBool::new(false));
        token.link(&after);
        assert!(after.load(Ordering::SeqCst));
    }

    #[test]
    fn forgets_dropped_flags() {
        let token = CancelToken::new();
        for _ in 0..3 {
            token.link(&Arc::new(AtomicBool::new(false)));
        }
        let kept = Arc::new(AtomicBool::new(false));
        token.link(&kept);
        assert_eq!(token.stops().len(), 1);
    }
}
