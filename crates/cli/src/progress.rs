//! What the user sees while a reduction runs: a live spinner line on a terminal, plain
//! timestamped log lines otherwise (at most one per second, plus phase changes), nothing with
//! `--quiet`. Everything goes to stderr; stdout stays free for `--dump-tree`.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Counters shown on the progress line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Snapshot {
    pub size: usize,
    pub oracle_runs: u64,
    pub cache_hits: u64,
}

enum Mode {
    Quiet,
    Bar(ProgressBar),
    Plain(Mutex<Logged>),
}

/// What the last plain log line said, and when.
#[derive(Default)]
struct Logged {
    at: Option<Instant>,
    phase: String,
    size: usize,
}

/// Plain mode logs a phase change at once, a new size at most once a second, and otherwise a
/// heartbeat every 30 seconds, so an hours-long log stays readable.
const PLAIN_SIZE_INTERVAL: Duration = Duration::from_secs(1);
const PLAIN_HEARTBEAT: Duration = Duration::from_secs(30);

pub struct Progress {
    mode: Mode,
    start: Instant,
    original: usize,
}

impl Progress {
    pub fn new(quiet: bool, original: usize) -> Progress {
        let mode = if quiet {
            Mode::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(200));
            Mode::Bar(bar)
        } else {
            Mode::Plain(Mutex::new(Logged::default()))
        };
        Progress {
            mode,
            start: Instant::now(),
            original,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The current phase ("checking the input", "text: lines", ...) and counters.
    pub fn update(&self, phase: &str, now: Snapshot) {
        match &self.mode {
            Mode::Quiet => {}
            Mode::Bar(bar) => bar.set_message(self.line(phase, now, false)),
            Mode::Plain(logged) => {
                let mut logged = logged.lock().unwrap_or_else(|e| e.into_inner());
                let since = logged.at.map(|t| t.elapsed());
                let due = logged.phase != phase
                    || (logged.size != now.size && since.is_none_or(|s| s >= PLAIN_SIZE_INTERVAL))
                    || since.is_none_or(|s| s >= PLAIN_HEARTBEAT);
                if due {
                    eprintln!("treedd: {}", self.line(phase, now, true));
                    *logged = Logged {
                        at: Some(Instant::now()),
                        phase: phase.to_string(),
                        size: now.size,
                    };
                }
            }
        }
    }

    /// A warning, printed even if the live line is showing (but not with `--quiet`).
    pub fn warn(&self, message: &str) {
        match &self.mode {
            Mode::Quiet => {}
            Mode::Bar(bar) => bar.suspend(|| eprintln!("treedd: warning: {message}")),
            Mode::Plain(_) => eprintln!("treedd: warning: {message}"),
        }
    }

    /// Information for the user (the timeout in effect, resuming), not with `--quiet`.
    pub fn note(&self, message: &str) {
        match &self.mode {
            Mode::Quiet => {}
            Mode::Bar(bar) => bar.suspend(|| eprintln!("treedd: {message}")),
            Mode::Plain(_) => eprintln!("treedd: {message}"),
        }
    }

    /// A message that is printed whatever the mode (the interrupt notice, the summary unless
    /// quiet is handled by the caller).
    pub fn say(&self, message: &str) {
        match &self.mode {
            Mode::Bar(bar) => bar.suspend(|| eprintln!("treedd: {message}")),
            _ => eprintln!("treedd: {message}"),
        }
    }

    pub fn is_quiet(&self) -> bool {
        matches!(self.mode, Mode::Quiet)
    }

    /// Remove the live line.
    pub fn finish(&self) {
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
        }
    }

    /// The status line; the live display shows the elapsed time itself.
    fn line(&self, phase: &str, now: Snapshot, with_time: bool) -> String {
        let pct = percent(now.size, self.original);
        let mut line = format!(
            "{phase}: {} / {} bytes ({pct:.1}%), {} oracle runs, {} cache hits",
            now.size, self.original, now.oracle_runs, now.cache_hits
        );
        if with_time {
            line.push_str(&format!(", {:.1}s", self.start.elapsed().as_secs_f64()));
        }
        line
    }
}

/// `part` as a percentage of `whole` (100% for an empty whole).
pub fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}
