//! The `--stats` JSON object and the summary line.

use serde::Serialize;

/// One reduction's counters, written by `--stats FILE.json`.
///
/// Memory: `peak_rss_bytes` is treedd's own peak resident set (`VmHWM` of
/// `/proc/self/status`); `peak_oracle_rss_bytes` is the largest peak resident set of any single
/// oracle process treedd waited for (`getrusage(RUSAGE_CHILDREN).ru_maxrss`; descendants count
/// only if the oracle itself waited for them). They are reported apart because summing them
/// would mean nothing: oracle processes come and go.
#[derive(Debug, Serialize)]
pub struct StatsReport {
    pub input: String,
    pub output: String,
    pub language: &'static str,
    pub algorithm: &'static str,
    pub hoist: &'static str,
    /// Text units (`line`, `char`, `line+char`), when text reduction ran.
    pub unit: Option<&'static str>,
    pub jobs: u32,
    /// ddmin's options, as run (also inside the tree algorithms).
    pub split_factor: SplitFactor,
    pub subsets: bool,
    pub complements: bool,
    pub complement_order: &'static str,
    pub complements_first: bool,
    pub greeddy: bool,
    /// The list minimizer of every algorithm (`ddmin`, `wddmin`, `probdd`, ...).
    pub list_minimizer: &'static str,
    /// HDDr's work order (`bfs`, `dfs`, `size`; tree reduction with HDDr only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<&'static str>,
    /// DDMIN* (always true for the `line+char` unit).
    pub ddmin_fixpoint: bool,
    /// Tree phases run to their fixed points (tree algorithms only).
    pub fixpoint: Option<bool>,
    /// Line-then-character DDMIN* after the tree algorithms (tree algorithms only).
    pub final_text_pass: Option<bool>,
    /// The transformation passes of every round (tree reduction only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passes: Option<Vec<&'static str>>,
    /// DDMIN's candidates keep what kept siblings refer to (tree reduction only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_closure: Option<bool>,
    /// What the oracle said when the reference closure asked it whether a call needs the
    /// declaration of the function it calls (C only; absent when it was not asked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_closure_calls: Option<bool>,
    /// The rounds consulted the memory of failed edits (tree reduction only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edit_memory: Option<bool>,
    /// The last round consulted it too (`--full-last-round` off; tree reduction only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_round_memory: Option<bool>,
    /// The per-run timeout in effect at the end (`null`: none); `timeout_default` if derived
    /// from the original's run (and paced by the runs) rather than given with `--timeout`.
    pub timeout_seconds: Option<f64>,
    pub timeout_default: bool,
    /// `--check-original` (runs of the original before starting; 1 without it).
    pub check_original: u32,
    /// `--confirm` (0 without it), and the improvements it rejected.
    pub confirm: u32,
    pub confirm_rejected: u64,
    /// `--resume` continued an unfinished reduction from the output file.
    pub resumed: bool,
    pub cache: bool,
    pub syntax_filter: bool,
    /// Oracle runs that answered (the original's check and `--verify` included).
    pub oracle_runs: u64,
    pub cache_hits: u64,
    pub cache_peak_entries: u64,
    pub syntax_filtered: u64,
    /// Candidates not tested because their edit had failed on an earlier text (the memory of
    /// failed edits).
    pub recalled: u64,
    /// The syntax filter's parses: from scratch, and incremental (against the best text's
    /// tree; only error-free ones are believed, the rest are parsed from scratch again).
    pub syntax_fresh_parses: u64,
    pub syntax_incremental_parses: u64,
    pub timeouts: u64,
    /// Speculative tests whose answers were not used (a candidate earlier in the sequence won).
    pub discarded: u64,
    /// Of those, speculative oracle runs killed before they answered (not in `oracle_runs`).
    pub killed: u64,
    /// Of those, runs killed to free a worker for a bet on success (see README, `--jobs`).
    pub preempted: u64,
    /// Oracle runs taken as interesting before they answered (see README, `--jobs`), and of
    /// those the ones that were not: each made treedd replay steps on the answers known.
    pub assumed: u64,
    pub replays: u64,
    /// Oracle run time added up over the wall time: how many workers were busy on average.
    pub mean_busy_workers: f64,
    /// Per round, the tree phase (`tree`) and each pass: oracle runs, accepted candidates,
    /// non-whitespace characters removed.
    pub rounds: Vec<treedd_reduce::PassRecord>,
    pub input_bytes: usize,
    pub output_bytes: usize,
    /// Non-whitespace characters, the papers' size measure.
    pub input_chars: usize,
    pub output_chars: usize,
    /// A directory input: each file's language and sizes (the totals above are their sums).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<FileStats>>,
    /// ERROR and MISSING nodes in the input's parse (tree languages).
    pub input_syntax_errors: Option<usize>,
    pub wall_seconds: f64,
    /// treedd's own CPU time, user and system, all threads (`treedd_proc::cpu_seconds`), up
    /// to this report; the oracle runs' CPU is not in it.
    pub cpu_seconds: Option<f64>,
    pub peak_rss_bytes: Option<u64>,
    pub peak_oracle_rss_bytes: Option<u64>,
    pub interrupted: bool,
    /// `Some(true)` if `--verify` confirmed the result.
    pub verified: Option<bool>,
    /// The final layout step: the steps tried (`layout`, then the formatter) and their
    /// outcomes, and its oracle runs; `null` with `--no-format` or after an interruption.
    pub format: Option<crate::format::Report>,
    /// (oracle runs, seconds, size in non-whitespace characters) at every improvement.
    pub trace: Vec<crate::trace::TracePoint>,
}

/// One file of a directory input in `--stats`; the output sizes are `null` for a file the
/// reduction deleted.
#[derive(Debug, Serialize)]
pub struct FileStats {
    /// Relative to the directory.
    pub path: String,
    pub language: &'static str,
    pub input_bytes: usize,
    pub output_bytes: Option<usize>,
    pub input_chars: usize,
    pub output_chars: Option<usize>,
}

/// ddmin's split factor in the JSON: a number, or `"max"` for nu = |c|.
#[derive(Debug)]
pub enum SplitFactor {
    N(usize),
    Max,
}

impl Serialize for SplitFactor {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SplitFactor::N(nu) => s.serialize_u64(*nu as u64),
            SplitFactor::Max => s.serialize_str("max"),
        }
    }
}

/// Non-whitespace characters of (lossily decoded) `bytes`.
pub fn non_whitespace_chars(bytes: &[u8]) -> usize {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|c| !c.is_whitespace())
        .count()
}

/// treedd's own peak resident set size, from `/proc/self/status`.
pub fn peak_rss_self() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The largest peak resident set size of any waited-for child process.
pub fn peak_rss_children() -> Option<u64> {
    let usage = rusage(libc::RUSAGE_CHILDREN)?;
    u64::try_from(usage.ru_maxrss).ok().map(|kb| kb * 1024)
}

/// `getrusage(who)`.
fn rusage(who: libc::c_int) -> Option<libc::rusage> {
    // SAFETY: getrusage only writes into the zeroed struct we own.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        (libc::getrusage(who, &mut usage) == 0).then_some(usage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chars_skip_whitespace_and_count_code_points() {
        assert_eq!(non_whitespace_chars(b" a b\n\tc "), 3);
        assert_eq!(non_whitespace_chars("é ü".as_bytes()), 2);
        assert_eq!(non_whitespace_chars(&[0xff, b' ', 0xfe]), 2);
    }

    #[test]
    fn rss_is_read() {
        assert!(peak_rss_self().is_some_and(|b| b > 0));
        std::process::Command::new("true").status().unwrap();
        assert!(peak_rss_children().is_some_and(|b| b > 0));
    }
}
