//! `treedd`: the command-line reducer. Thin: flags, checks with clear errors, progress, the
//! output file, signals and exit codes. The algorithms live in `treedd-reduce`, the trees in
//! `treedd-tree`.

mod checks;
mod dir;
mod exit;
mod flags;
mod format;
mod guard;
mod output;
mod plan;
mod print_tree;
mod progress;
mod reduction;
mod report;
mod resume;
mod trace;

use std::ffi::OsStr;
use std::io;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use treedd_proc::{CommandOracle, CommandOracleBuilder, Watchdog};

use crate::exit::Fatal;
use crate::flags::{Args, Timeout};
use crate::plan::Plan;
use crate::print_tree::print_tree;

fn main() -> ExitCode {
    if guard::run_watchdog_if_asked() {
        return ExitCode::SUCCESS;
    }
    match run() {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            // Like ripgrep: a closed pipe (e.g. `--dump-tree | head`) is not an error.
            let broken_pipe = err.chain().any(|cause| {
                cause
                    .downcast_ref::<io::Error>()
                    .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                return ExitCode::from(exit::SUCCESS);
            }
            if let Some(fatal) = err.downcast_ref::<Fatal>() {
                eprintln!("treedd: error: {}", fatal.message);
                for line in &fatal.detail {
                    eprintln!("  {line}");
                }
                return ExitCode::from(fatal.code);
            }
            eprintln!("treedd: error: {err:#}");
            ExitCode::from(exit::FAILURE)
        }
    }
}

fn run() -> anyhow::Result<u8> {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            // --help and --version print to stdout and exit 0; real errors exit 2.
            let code = e.exit_code();
            e.print()?;
            return Ok(u8::try_from(code).unwrap_or(exit::USAGE));
        }
    };
    // From here on, the plan is the one configuration: nothing reads the flags.
    let plan = Plan::from_args(&args)?;
    drop(args);
    // Everything that can fail is checked before the first oracle run.
    let input = match &plan.tree {
        Some(tree) => tree.read()?.encode(),
        None => checks::read_input(&plan.input)?,
    };
    if plan.dump_tree || plan.print_tree_stats {
        return print_tree(&plan, &input);
    }
    match &plan.tree {
        Some(_) => dir::write::check_output(&plan.output)?,
        None => checks::check_writable(&plan.output, "output")?,
    }
    if let Some(stats) = &plan.stats {
        checks::check_writable(stats, "stats")?;
    }
    let root = match &plan.workdir {
        Some(dir) => checks::workdir(dir)?,
        None => std::env::temp_dir(),
    };
    let (scratch, watchdog) = guard::start(&root)?;
    // Every oracle run inherits the marker the watchdog finds them by, instead of each spawn
    // copying the environment to add it (see `CommandOracle`). No other thread exists yet, so
    // nothing reads the environment meanwhile; /proc/PID/environ shows the environment treedd
    // was started with, so the watchdog's scan does not take treedd itself for an oracle.
    std::env::set_var(treedd_proc::MARKER_VAR, watchdog.marker());
    let oracle = build_oracle(&plan, scratch.path(), watchdog)?;
    let code = reduction::run(plan, input, oracle);
    // Removed here on every way out but `exit`; the watchdog, or the next run, removes it then.
    drop(scratch);
    code
}

fn build_oracle(
    plan: &Plan,
    scratch: &Path,
    watchdog: Arc<Watchdog>,
) -> anyhow::Result<Arc<CommandOracle>> {
    // A directory input: the tree goes into the runs under the directory's name.
    let file_name = match &plan.tree {
        Some(tree) => tree.name.as_os_str(),
        None => plan.input.file_name().unwrap_or(OsStr::new("input")),
    };
    let timeout = match plan.timeout {
        Some(Timeout::Seconds(s)) => Some(Duration::from_secs_f64(s)),
        // The default is derived from the original's run (`Reduction::check_original`).
        Some(Timeout::None) | None => None,
    };
    let oracle = CommandOracleBuilder::new(&plan.test)
        .file_name(file_name)
        .tree(plan.tree.is_some())
        .timeout(timeout)
        .temp_root(scratch)
        .watchdog(watchdog)
        .launcher(plan.launcher.clone())
        .build()
        .map_err(|e| {
            let code = match e {
                treedd_proc::Error::TempRoot { .. } | treedd_proc::Error::TempDir(_) => {
                    exit::FAILURE
                }
                _ => exit::ORACLE,
            };
            Fatal::new(code, e.to_string())
        })?;
    Ok(Arc::new(oracle))
}
