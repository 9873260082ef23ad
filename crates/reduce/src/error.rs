/// Errors of the reduction crate, with user-facing messages.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The oracle program could not be started.
    #[error("cannot run oracle {path}: {source}")]
    OracleStart {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// A temporary directory could not be made or written.
    #[error("cannot prepare a temporary directory: {0}")]
    TempDir(std::io::Error),
}
