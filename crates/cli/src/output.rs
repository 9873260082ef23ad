//! The output file: always holds the best (smallest interesting) candidate found so far.
//!
//! **Invariant**: the output path is only ever replaced by `rename` of a complete file written
//! in the same directory, so at any moment (Ctrl-C, crash, power loss after sync) it holds
//! either the previous best or the new one, never a mix.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Writes improvements to the output path; ignores candidates not smaller than the best.
pub struct BestWriter {
    path: PathBuf,
    mode: Option<fs::Permissions>,
    state: Mutex<State>,
}

struct State {
    best_len: usize,
    error: Option<io::Error>,
}

impl BestWriter {
    /// Writes `initial` (the original input) to `path` right away.
    pub fn create(
        path: &Path,
        initial: &[u8],
        mode: Option<fs::Permissions>,
    ) -> io::Result<BestWriter> {
        write_atomic(path, initial, mode.as_ref())?;
        Ok(BestWriter {
            path: path.to_path_buf(),
            mode,
            state: Mutex::new(State {
                best_len: initial.len(),
                error: None,
            }),
        })
    }

    /// Record a new interesting candidate; written only if smaller than the best so far.
    /// The first write error is kept for [`BestWriter::finish`].
    pub fn offer(&self, candidate: &[u8]) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if candidate.len() >= state.best_len {
            return;
        }
        match write_atomic(&self.path, candidate, self.mode.as_ref()) {
            Ok(()) => state.best_len = candidate.len(),
            Err(e) => {
                state.error.get_or_insert(e);
            }
        }
    }

    /// Size of what the output file holds now.
    pub fn best_len(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .best_len
    }

    /// Write the final result (whatever its size) and report any earlier write error.
    pub fn finish(&self, result: &[u8]) -> io::Result<()> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = state.error.take() {
            return Err(e);
        }
        write_atomic(&self.path, result, self.mode.as_ref())?;
        state.best_len = result.len();
        Ok(())
    }
}

/// Write `bytes` to a temporary file next to `path`, then rename it over `path`.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: Option<&fs::Permissions>) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".treedd-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_data()?;
    if let Some(mode) = mode {
        fs::set_permissions(tmp.path(), mode.clone())?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_smaller_candidates_replace_the_output() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("x.reduced.c");
        let w = BestWriter::create(&out, b"0123456789", None).unwrap();
        w.offer(b"01234");
        assert_eq!(fs::read(&out).unwrap(), b"01234");
        w.offer(b"abcdefgh");
        assert_eq!(fs::read(&out).unwrap(), b"01234");
        assert_eq!(w.best_len(), 5);
        w.finish(b"012345").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"012345");
        // No temporary file is left next to the output.
        assert_eq!(fs::read_dir(t.path()).unwrap().count(), 1);
    }

    #[test]
    fn write_errors_are_reported_at_the_end() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("sub").join("out.txt");
        assert!(BestWriter::create(&out, b"abc", None).is_err());
        fs::create_dir(t.path().join("sub")).unwrap();
        let w = BestWriter::create(&out, b"abc", None).unwrap();
        fs::remove_dir_all(t.path().join("sub")).unwrap();
        w.offer(b"a");
        assert_eq!(w.best_len(), 3);
        assert!(w.finish(b"a").is_err());
    }
}
