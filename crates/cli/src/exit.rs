//! Exit codes of `treedd`. Every fatal error has its own code, so scripts that drive long
//! reductions can tell "fix your oracle" from "fix your command line".
//!
//! | code | meaning |
//! |------|---------|
//! | 0    | reduction finished; the result is in the output file |
//! | 1    | any other error (no temporary directory, I/O while reducing, internal error) |
//! | 2    | command-line syntax error (unknown flag, missing value; reported by clap) |
//! | 3    | the input file is missing, unreadable or not a regular file (FIFO, device) |
//! | 4    | the oracle is missing, not executable, or cannot be started |
//! | 5    | the oracle does not find the original input interesting |
//! | 6    | unknown language, or none given and none implied by the input's extension |
//! | 7    | conflicting options; `--resume` with other options or another input |
//! | 8    | flaky oracle: `--verify` failed, or `--check-original N` got different answers |
//! | 9    | the output (or `--stats`) file cannot be written |
//! | 130  | interrupted (SIGINT/SIGTERM); the best result so far is in the output file |
//!
//! Codes 3, 4, 6, 7 and 9 are decided before the first oracle run (`checks.rs`).

/// Reduction finished.
pub const SUCCESS: u8 = 0;
/// Any error without a more specific code.
pub const FAILURE: u8 = 1;
/// Command-line syntax error (clap's own code).
pub const USAGE: u8 = 2;
/// Input file missing or unreadable.
pub const INPUT: u8 = 3;
/// Oracle missing, not executable or cannot be started.
pub const ORACLE: u8 = 4;
/// The original input is not interesting.
pub const NOT_INTERESTING: u8 = 5;
/// Unknown or undetermined language.
pub const LANGUAGE: u8 = 6;
/// Conflicting options.
pub const CONFLICT: u8 = 7;
/// Flaky oracle: `--verify` or `--check-original` got different answers.
pub const FLAKY: u8 = 8;
/// Output or stats file cannot be written.
pub const OUTPUT: u8 = 9;
/// Interrupted by SIGINT or SIGTERM (128 + SIGINT, as shells report it).
pub const INTERRUPTED: u8 = 130;

/// A fatal error with the exit code it maps to. The message is printed as
/// `treedd: error: <message>`, followed by `detail` lines if any.
#[derive(Debug)]
pub struct Fatal {
    pub code: u8,
    pub message: String,
    pub detail: Vec<String>,
}

impl Fatal {
    pub fn new(code: u8, message: impl Into<String>) -> Fatal {
        Fatal {
            code,
            message: message.into(),
            detail: Vec::new(),
        }
    }

    pub fn with_detail(mut self, line: impl Into<String>) -> Fatal {
        self.detail.push(line.into());
        self
    }
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Fatal {}
