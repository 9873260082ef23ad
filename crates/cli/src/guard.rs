//! The CLI's half of "no orphans, even after SIGKILL" (see `treedd_proc`'s reaper for the
//! design): removing dead runs' scratch directories, starting the watchdog (treedd itself,
//! re-executed with [`WATCHDOG_VAR`] set), and the watchdog's `main`.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use treedd_proc::{watchdog_main, Scratch, Watchdog};

use crate::exit::{self, Fatal};

/// Set (to the scratch directory) only in the watchdog's environment.
const WATCHDOG_VAR: &str = "TREEDD_INTERNAL_WATCHDOG";

/// If this process is a watchdog, run it to the end and return true.
pub fn run_watchdog_if_asked() -> bool {
    let Some(scratch) = std::env::var_os(WATCHDOG_VAR) else {
        return false;
    };
    // SAFETY: setting dispositions to SIG_IGN at the start of a single-threaded process.
    unsafe {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGPIPE] {
            libc::signal(sig, libc::SIG_IGN);
        }
    }
    watchdog_main(std::io::stdin().lock(), Path::new(&scratch));
    true
}

/// Remove dead runs' scratch directories under `root`, make this run's, and start its watchdog.
pub fn start(root: &Path) -> Result<(Scratch, Arc<Watchdog>), Fatal> {
    Scratch::remove_stale(root);
    let scratch = Scratch::create(root).map_err(|e| Fatal::new(exit::FAILURE, e.to_string()))?;
    // /proc/self/exe still works if the binary was replaced or deleted meanwhile.
    let exe = if Path::new("/proc/self/exe").exists() {
        OsString::from("/proc/self/exe")
    } else {
        std::env::current_exe()
            .map_err(|e| {
                Fatal::new(
                    exit::FAILURE,
                    format!("cannot find treedd's own binary: {e}"),
                )
            })?
            .into_os_string()
    };
    let mut cmd = Command::new(exe);
    cmd.env(WATCHDOG_VAR, scratch.path()).current_dir("/");
    let watchdog = Watchdog::spawn(cmd, scratch.path()).map_err(|e| {
        Fatal::new(
            exit::FAILURE,
            format!("cannot start the watchdog process: {e}"),
        )
    })?;
    Ok((scratch, Arc::new(watchdog)))
}
