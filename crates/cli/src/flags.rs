//! Command-line flags: the one place for names, defaults and help text.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

const ABOUT: &str =
    "Grammar-aware test-case reducer: shrinks INPUT while ORACLE keeps finding it interesting";

const ORACLE_HELP: &str = "\
THE ORACLE:
  For every candidate, treedd runs `ORACLE CANDIDATE-PATH` (no shell) in a fresh private
  temporary directory that holds the candidate under INPUT's file name, so scripts may read
  \"$1\" or the file by name. Exit status 0 means interesting (the bug is still there); any
  other status, a signal or the --timeout means not interesting. Example (crash.sh):

      #!/bin/sh
      gcc -c -w \"$1\" 2>&1 | grep -q 'internal compiler error'

  treedd --test ./crash.sh crash.c      # the result is written to crash.reduced.c

  A directory INPUT (or several INPUT files, put side by side in one directory named after
  the first one) is reduced as a whole: each run gets a private copy of the tree under the
  directory's name, runs inside it (the working directory) with its absolute path as \"$1\",
  and the result is the directory DIR.reduced.

EXIT STATUS:
  0 done, 1 other error, 2 usage, 3 input missing, unreadable or not a regular file,
  4 oracle missing or not executable, 5 original not interesting, 6 unknown language,
  7 conflicting options (or --resume with other options), 8 flaky oracle (--verify or
  --check-original), 9 output or stats not writable, 130 interrupted (best result so far
  kept; continue with --resume)";

#[derive(Parser, Debug)]
#[command(
    name = "treedd",
    version,
    about = ABOUT,
    after_help = ORACLE_HELP,
    override_usage = "treedd --test ORACLE [OPTIONS] INPUT\n       treedd --test ORACLE [OPTIONS] DIR | FILE FILE...\n       treedd --dump-tree|--print-tree-stats [--language LANG] INPUT"
)]
pub struct Args {
    /// The file or directory to reduce (never modified)
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,

    /// More files, reduced together with INPUT as one directory of them all
    #[arg(value_name = "FILE")]
    pub more: Vec<PathBuf>,

    /// Interestingness test, run as `ORACLE CANDIDATE`; exit 0 = interesting
    #[arg(
        short = 't',
        long = "test",
        value_name = "ORACLE",
        help_heading = "ORACLE",
        required_unless_present_any = ["dump_tree", "print_tree_stats"]
    )]
    pub test: Option<PathBuf>,

    /// Kill a run (with all its children) after SECONDS, or never with `none`; counts as not
    /// interesting [default: 10 x the original's run time, at least 5 s; after 16 runs, 10 x
    /// their recent pace, at least 1 s]
    #[arg(long, value_name = "SECONDS|none", value_parser = parse_timeout, help_heading = "ORACLE")]
    pub timeout: Option<Timeout>,

    /// Oracle runs in parallel, at most 1024 (the result does not depend on N); by default
    /// one per CPU
    #[arg(short = 'j', long, value_name = "N", default_value_t = default_jobs(),
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_JOBS)),
          help_heading = "ORACLE")]
    pub jobs: u32,

    /// Run every oracle run as `LAUNCHER ORACLE CANDIDATE`, e.g. "srun -N1 -n1 --quiet" or
    /// "ssh host" (split like a shell would; give --workdir on a shared filesystem, and a
    /// --timeout that covers the wait for the launcher's queue)
    #[arg(long, value_name = "CMD ARGS", value_parser = parse_launcher, help_heading = "ORACLE")]
    pub launcher: Option<Launcher>,

    /// Make the runs' private directories under DIR (a shared filesystem for --launcher)
    /// instead of $TMPDIR
    #[arg(long, value_name = "DIR", help_heading = "ORACLE")]
    pub workdir: Option<PathBuf>,

    /// Do not cache the outcomes of candidates already tested
    #[arg(long, help_heading = "ORACLE")]
    pub no_cache: bool,

    /// Re-run the oracle on the final result and fail if it is no longer interesting
    #[arg(long, help_heading = "ORACLE")]
    pub verify: bool,

    /// Run the oracle N times on the original first; stop if the answers differ (flaky oracle)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          help_heading = "ORACLE")]
    pub check_original: Option<u32>,

    /// Re-test every improvement N more times before accepting it (for flaky oracles)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          help_heading = "ORACLE")]
    pub confirm: Option<u32>,

    /// Continue an interrupted reduction from the output file (options must be the same)
    #[arg(long, help_heading = "OUTPUT")]
    pub resume: bool,

    /// Where the best result so far is kept [default: INPUT with .reduced before the
    /// extension; DIR.reduced for a directory]
    #[arg(short = 'o', long, value_name = "FILE", help_heading = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// Write counters (oracle runs, sizes, time, memory) as one JSON object to FILE
    #[arg(long, value_name = "FILE.json", help_heading = "OUTPUT")]
    pub stats: Option<PathBuf>,

    /// No progress display and no summary; errors are still printed
    #[arg(short = 'q', long, help_heading = "OUTPUT")]
    pub quiet: bool,

    /// c, cpp, javascript, typescript, java, rust, python, go, html, css or text [default: from INPUT's extension]
    #[arg(short = 'l', long, value_name = "LANG", help_heading = "REDUCTION")]
    pub language: Option<String>,

    /// A tree-sitter grammar to parse INPUT with: a directory with src/parser.c,
    /// src/grammar.json and src/node-types.json (compiled once with $CC into the cache,
    /// $TREEDD_CACHE_DIR or ~/.cache/treedd), or a prebuilt .so beside the two JSON files
    #[arg(long, value_name = "DIR", help_heading = "REDUCTION")]
    pub grammar: Option<PathBuf>,

    /// Units of text reduction (text language or --algorithm ddmin) [default: line+char]
    #[arg(long, value_enum, help_heading = "REDUCTION")]
    pub unit: Option<Unit>,

    /// Tree algorithm; ddmin ignores the grammar and reduces lines/characters [default: from --preset]
    #[arg(long, value_enum, help_heading = "REDUCTION")]
    pub algorithm: Option<Algorithm>,

    /// How hoisting is combined with the tree algorithm [default: from --preset]
    #[arg(long, value_enum, help_heading = "REDUCTION")]
    pub hoist: Option<Hoist>,

    /// HDDr's work order: bfs (the papers' breadth-first queue), dfs, or size (the largest
    /// subtree first, as Perses) [default: from --preset]
    #[arg(long, value_enum, help_heading = "REDUCTION")]
    pub order: Option<Order>,

    /// Defaults for --algorithm and --hoist, from the papers' comparisons [default: balanced]
    #[arg(long, value_enum, help_heading = "REDUCTION")]
    pub preset: Option<Preset>,

    /// Also test candidates that add syntax errors the input did not have
    #[arg(long, help_heading = "REDUCTION")]
    pub no_syntax_filter: bool,

    /// Run each tree phase once instead of to its fixed point (HDD instead of HDD*)
    #[arg(long, help_heading = "REDUCTION")]
    pub no_fixpoint: bool,

    /// After the tree algorithms, reduce the text by lines, then characters (DDMIN*)
    #[arg(long, help_heading = "REDUCTION")]
    pub final_text_pass: bool,

    /// Keep the result's whitespace as the reduction left it: no layout step at the end
    /// (by default treedd lays the result out, then runs the language's formatter, keeping
    /// each only if the oracle still finds it interesting)
    #[arg(long, help_heading = "REDUCTION")]
    pub no_format: bool,

    /// Transformation passes run after the tree algorithm in every round, comma-separated:
    /// bodies, strip, literals, inline, inline-calls, rewrite, replace-ids, rename, params,
    /// subtrees, tokens (bodies and strip also run once before the first tree phase)
    /// [default: from --preset]
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_pass,
          help_heading = "REDUCTION", conflicts_with = "no_passes")]
    pub passes: Option<Vec<treedd_reduce::Pass>>,

    /// No transformation passes: only the tree algorithm (rounds still rebuild the tree)
    #[arg(long, help_heading = "REDUCTION")]
    pub no_passes: bool,

    /// In C and C++, DDMIN's candidates remove siblings only with what refers to them (a
    /// declaration with its uses, by the identifiers' first occurrences); this turns that off,
    /// for the papers' algorithms as defined
    #[arg(long, help_heading = "REDUCTION")]
    pub no_reference_closure: bool,

    /// Test every edit in every round: by default an edit that failed on an earlier text, with
    /// the same 16 bytes around it and the same of its removed words still used elsewhere, is
    /// not tested again
    #[arg(long, help_heading = "REDUCTION")]
    pub no_edit_memory: bool,

    /// The last round, which must change nothing, tests every edit of its text, recalling no
    /// failed edit from earlier rounds (the default of `--preset smallest`)
    #[arg(long, help_heading = "REDUCTION")]
    pub full_last_round: bool,

    /// The tree algorithm replaces a token it cannot remove by the grammar's shortest one of
    /// its kind (`bool` -> `int`) in every round, as the papers' HDD does; by default such
    /// substitutions are left to the passes and to a last round, after the structure around
    /// them has gone
    #[arg(long, help_heading = "REDUCTION")]
    pub replace_tokens: bool,

    /// The list minimizer of every algorithm: ddmin, wddmin (subsets of equal weight),
    /// probdd, wprobdd, cdd or wcdd (probabilistic: the ddmin options below do not apply)
    /// [default: from --preset]
    #[arg(long, value_enum, value_name = "NAME", help_heading = "DDMIN OPTIONS")]
    pub list_minimizer: Option<ListMinimizer>,

    /// ddmin's split factor nu, >= 2, or max (nu = |c|; onemin with --no-subsets) [default: 2]
    #[arg(long, value_name = "N|max", value_parser = parse_split_factor,
          help_heading = "DDMIN OPTIONS")]
    pub split_factor: Option<SplitFactor>,

    /// Do not test "reduce to subset" candidates (complements only)
    #[arg(long, help_heading = "DDMIN OPTIONS")]
    pub no_subsets: bool,

    /// Do not test "reduce to complement" candidates (subsets only; not 1-minimal)
    #[arg(long, help_heading = "DDMIN OPTIONS")]
    pub no_complements: bool,

    /// Test complements before subsets
    #[arg(long, help_heading = "DDMIN OPTIONS")]
    pub complements_first: bool,

    /// Order of the complement tests [default: forward]
    #[arg(long, value_enum, value_name = "ORDER", help_heading = "DDMIN OPTIONS")]
    pub complement_order: Option<ComplementOrder>,

    /// GreeDDy: combine the interesting complements found by one window of tests
    #[arg(long, help_heading = "DDMIN OPTIONS")]
    pub greeddy: bool,

    /// Repeat every ddmin until it removes nothing (DDMIN*; always on for --unit line+char)
    #[arg(long, help_heading = "DDMIN OPTIONS")]
    pub ddmin_fixpoint: bool,

    /// Print the reduction tree of INPUT to stdout and exit (no oracle needed)
    #[arg(long, help_heading = "DEBUG OPTIONS")]
    pub dump_tree: bool,

    /// Print the sizes and heights of INPUT's tree before and after squeezing and exit
    #[arg(long, help_heading = "DEBUG OPTIONS")]
    pub print_tree_stats: bool,
}

/// The largest `--jobs`. treedd keeps two threads per job; with 100,000 it ran out of memory
/// maps (`vm.max_map_count`) while starting them, and a thread that starts without room for
/// its signal stack aborts the process (in Rust's standard library, out of treedd's reach).
pub const MAX_JOBS: u32 = 1024;

/// The number of CPUs (1 if unknown), at most [`MAX_JOBS`]: the default of `--jobs`.
pub fn default_jobs() -> u32 {
    std::thread::available_parallelism()
        .map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX))
        .min(MAX_JOBS)
}

/// ddmin's split factor nu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitFactor {
    /// nu = N >= 2.
    N(u32),
    /// nu = |c|: every element on its own.
    Max,
}

impl SplitFactor {
    /// The value of `DdminOptions::split_factor` (`usize::MAX` for |c|).
    pub fn value(self) -> usize {
        match self {
            SplitFactor::N(n) => n as usize,
            SplitFactor::Max => usize::MAX,
        }
    }
}

fn parse_split_factor(s: &str) -> Result<SplitFactor, String> {
    if s.eq_ignore_ascii_case("max") {
        return Ok(SplitFactor::Max);
    }
    match s.parse::<u32>() {
        Ok(n) if n >= 2 => Ok(SplitFactor::N(n)),
        _ => Err(format!(
            "{s:?} is not a split factor: use an integer >= 2 or max"
        )),
    }
}

fn parse_pass(s: &str) -> Result<treedd_reduce::Pass, String> {
    treedd_reduce::Pass::parse_list(s)?
        .first()
        .copied()
        .ok_or_else(|| "an empty pass name".to_string())
}

/// `--launcher`: the launcher's program and arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Launcher(pub Vec<String>);

fn parse_launcher(s: &str) -> Result<Launcher, String> {
    match shlex::split(s) {
        Some(words) if !words.is_empty() => Ok(Launcher(words)),
        Some(_) => Err("the launcher is empty".to_string()),
        None => Err(format!(
            "{s:?} has unbalanced quotes or a trailing backslash"
        )),
    }
}

/// `--timeout`: a number of seconds, or `none` (wait forever).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Timeout {
    Seconds(f64),
    None,
}

fn parse_timeout(s: &str) -> Result<Timeout, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(Timeout::None);
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(Timeout::Seconds(v)),
        _ => Err(format!(
            "{s:?} is not a positive number of seconds (or none)"
        )),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Unit {
    Line,
    Char,
    /// Lines to a fixed point, then characters to a fixed point
    #[value(name = "line+char")]
    LineChar,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ComplementOrder {
    /// First subset's complement first
    Forward,
    /// Last subset's complement first
    Backward,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Order {
    /// Breadth-first (the papers' HDDr)
    Bfs,
    /// Depth-first
    Dfs,
    /// The largest subtree first
    Size,
    /// The largest subtree first, declarations used later after the rest, and kept ones
    /// tried again once their last use is gone
    Uses,
}

impl Order {
    pub fn value(self) -> treedd_reduce::TraversalOrder {
        match self {
            Order::Bfs => treedd_reduce::TraversalOrder::BreadthFirst,
            Order::Dfs => treedd_reduce::TraversalOrder::DepthFirst,
            Order::Size => treedd_reduce::TraversalOrder::SizeFirst,
            Order::Uses => treedd_reduce::TraversalOrder::UsesFirst,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ListMinimizer {
    /// ddmin with the options below
    Ddmin,
    /// ddmin whose subsets weigh the same (WDD)
    Wddmin,
    /// Probabilistic Delta Debugging
    Probdd,
    /// ProbDD with weights (WDD)
    Wprobdd,
    /// Counter-based Delta Debugging
    Cdd,
    /// CDD with weights
    Wcdd,
}

impl ListMinimizer {
    pub fn value(self) -> treedd_reduce::Minimizer {
        use treedd_reduce::Minimizer as M;
        match self {
            ListMinimizer::Ddmin => M::Ddmin,
            ListMinimizer::Wddmin => M::Wddmin,
            ListMinimizer::Probdd => M::ProbDD,
            ListMinimizer::Wprobdd => M::WProbDD,
            ListMinimizer::Cdd => M::Cdd,
            ListMinimizer::Wcdd => M::WCdd,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algorithm {
    /// Hierarchical Delta Debugging, level by level
    Hdd,
    /// HDD recursive (one node's children at a time)
    Hddr,
    /// HDD with only "remove all / keep" per node
    CoarseHdd,
    /// HDDr with only "remove all / keep" per node
    CoarseHddr,
    /// Plain ddmin on lines/characters (no grammar)
    Ddmin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Hoist {
    /// No hoisting
    None,
    /// Hoisting to a fixed point first, then the algorithm
    Pre,
    /// Hoisting interlaced into the algorithm
    Interlace,
    /// Hoisting first, then interlaced
    Both,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Preset {
    /// Smallest results, more oracle runs
    Smallest,
    /// Good results at a moderate number of oracle runs
    Balanced,
    /// Fewest oracle runs
    Fastest,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Hdd => "hdd",
            Algorithm::Hddr => "hddr",
            Algorithm::CoarseHdd => "coarse-hdd",
            Algorithm::CoarseHddr => "coarse-hddr",
            Algorithm::Ddmin => "ddmin",
        }
    }
}

impl Hoist {
    pub fn name(self) -> &'static str {
        match self {
            Hoist::None => "none",
            Hoist::Pre => "pre",
            Hoist::Interlace => "interlace",
            Hoist::Both => "both",
        }
    }
}

impl Preset {
    pub fn name(self) -> &'static str {
        match self {
            Preset::Smallest => "smallest",
            Preset::Balanced => "balanced",
            Preset::Fastest => "fastest",
        }
    }
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::Line => "line",
            Unit::Char => "char",
            Unit::LineChar => "line+char",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_factor_is_at_least_two_or_max() {
        assert_eq!(parse_split_factor("2"), Ok(SplitFactor::N(2)));
        assert_eq!(parse_split_factor("max"), Ok(SplitFactor::Max));
        assert_eq!(
            parse_split_factor("MAX").map(SplitFactor::value),
            Ok(usize::MAX)
        );
        for bad in ["1", "0", "-3", "two", ""] {
            assert!(parse_split_factor(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn default_jobs_is_the_number_of_cpus() {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(default_jobs() as usize, cpus);
    }
}
