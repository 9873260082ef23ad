//! Integration tests: run the real `treedd` binary with real oracles (shell scripts, gcc, node).
//! One binary for all of them (ripgrep's layout); each test works in its own temporary
//! directory and points TMPDIR at a private subdirectory, so leftovers are detected.

// Helpers: temporary test directories, scripts, running the binary.
mod util;

// The oracle runner with real scripts: cwd, $1, timeouts killing process groups, cleanup.
mod oracle;
// Text reduction end to end: the papers' mock-SUT examples, output path, jobs, stats.
mod text;
// The ddmin variants of the papers and the tree algorithms' options, through the flags.
mod options;
// Every fatal error: the whole message and the exit code.
mod errors;
// Ctrl-C (SIGINT/SIGTERM): exit 130, best result kept.
mod signals;
// --verify, and a flaky oracle reported.
mod verify;
// Grammar-aware reduction: C with gcc, JavaScript with node, syntax errors, debug options.
mod tree;
// C++, Rust, Python, Go, TypeScript with real oracles; --grammar DIR compiled at run time.
mod languages;
// HTML with its scripts as JavaScript and styles as CSS, reduced with jsdom.
mod html;
// The transformation passes and the joint fixed point, with gcc, node and javac oracles.
mod passes;
// Each language's data and passes on its own compiler's terms (go, rustc, python3, tsc, javac).
mod language_data;
// The C++ transformations (grammars/cpp/passes.toml), each with g++ as the oracle.
mod cpp;
// Unattended runs: default timeout, no orphans after SIGKILL, --resume, flaky oracles,
// checks before the first oracle run, huge oracle output.
mod reliability;
// A directory (or several files) as the input: gcc and rustc failures across files, what the
// oracle sees, bad inputs, Ctrl-C and --resume.
mod dirs;
// Every --jobs from 1 to 8 gives the same output on every fixture.
mod jobs;
// --launcher srun on a real single-node Slurm.
mod cluster;
// Failures found in use, each pinned to its smallest case.
mod regression;
// The final layout step (own layout, then the language's formatter) with real oracles.
mod format;
