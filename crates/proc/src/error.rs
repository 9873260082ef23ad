use std::ffi::OsString;
use std::path::PathBuf;

/// Errors of the reduction crate, with user-facing messages.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The oracle program could not be started.
    #[error("cannot run oracle {path}: {source}")]
    OracleStart {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The oracle program does not exist (nor, for a bare name, anywhere in PATH).
    #[error("oracle {0} not found")]
    OracleNotFound(PathBuf),
    /// The oracle program is not an executable file.
    #[error("oracle {0} is not an executable file")]
    OracleNotExecutable(PathBuf),
    /// The `--launcher` program does not exist (nor, for a bare name, anywhere in PATH).
    #[error("launcher {0} not found")]
    LauncherNotFound(PathBuf),
    /// The `--launcher` program is not an executable file.
    #[error("launcher {0} is not an executable file")]
    LauncherNotExecutable(PathBuf),
    /// The candidate file name is not a plain file name.
    #[error("{0:?} is not a plain file name")]
    BadFileName(OsString),
    /// A temporary directory could not be made or written.
    #[error("cannot prepare a temporary directory: {0}")]
    TempDir(std::io::Error),
    /// No temporary directory can be made under the oracle runner's root (`$TMPDIR`).
    #[error("cannot make a temporary directory in {path}: {source}")]
    TempRoot {
        path: PathBuf,
        source: std::io::Error,
    },
}
