//! The `trace` of `--stats`: the best result's size at every improvement, for progress
//! curves (size over oracle runs, `cargo xtask bench`).

use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;

/// One improvement: after `oracle_runs` oracle runs (the check of the original included)
/// and `seconds` since treedd started, the best result had `size` non-whitespace characters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TracePoint {
    pub oracle_runs: u64,
    pub seconds: f64,
    pub size: usize,
}

/// Collects [`TracePoint`]s from the improvement callback (any thread).
pub struct Trace {
    start: Instant,
    points: Mutex<Vec<TracePoint>>,
}

impl Trace {
    /// A trace whose clock starts now.
    pub fn new() -> Trace {
        Trace {
            start: Instant::now(),
            points: Mutex::new(Vec::new()),
        }
    }

    /// Record that a best result of `size` non-whitespace characters was found after
    /// `oracle_runs` runs.
    pub fn record(&self, oracle_runs: u64, size: usize) {
        let point = TracePoint {
            oracle_runs,
            // Milliseconds are enough, and keep the JSON short.
            seconds: (self.start.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
            size,
        };
        self.points
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(point);
    }

    pub fn points(&self) -> Vec<TracePoint> {
        self.points
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_kept_in_order() {
        let t = Trace::new();
        t.record(3, 11);
        t.record(7, 10);
        let p = t.points();
        assert_eq!(
            p.iter()
                .map(|p| (p.oracle_runs, p.size))
                .collect::<Vec<_>>(),
            [(3, 11), (7, 10)]
        );
        assert!(p[0].seconds <= p[1].seconds);
    }
}
