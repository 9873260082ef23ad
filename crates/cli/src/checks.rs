//! Everything that can be checked before the first oracle run, so an
//! overnight reduction never fails at the end over a path typo: the input is a regular,
//! readable file (a FIFO would block forever), the output and `--stats` locations can be
//! written. The oracle itself is checked by `CommandOracleBuilder::build`.

use std::fs;
use std::io;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

use crate::exit::{self, Fatal};

/// `--workdir DIR`: an existing directory, made absolute (the runs' directories go there, and
/// a launcher may start the oracle elsewhere). Exit 9 like any other unwritable location.
pub fn workdir(dir: &Path) -> Result<std::path::PathBuf, Fatal> {
    let fail = |why: String| {
        Fatal::new(
            exit::OUTPUT,
            format!("cannot use --workdir {}: {why}", dir.display()),
        )
    };
    let meta = fs::metadata(dir).map_err(|e| fail(e.to_string()))?;
    if !meta.is_dir() {
        return Err(fail("not a directory".to_string()));
    }
    std::path::absolute(dir).map_err(|e| fail(e.to_string()))
}

/// Read the input after checking that it is a regular file (never opening anything else).
pub fn read_input(path: &Path) -> Result<Vec<u8>, Fatal> {
    regular_input(path)?;
    fs::read(path).map_err(|e| input_error(path, e.to_string()))
}

fn input_error(path: &Path, why: String) -> Fatal {
    Fatal::new(
        exit::INPUT,
        format!("cannot read input {}: {why}", path.display()),
    )
}

/// The input's path names a regular file (without opening it). Also asked before blaming
/// the extension of an input that is missing or a directory.
pub fn regular_input(path: &Path) -> Result<(), Fatal> {
    let fail = |why: String| input_error(path, why);
    let meta = fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    let ft = meta.file_type();
    if !ft.is_file() {
        let what = file_kind(ft);
        return Err(fail(format!(
            "it is {what}; treedd needs a regular file (copy the input to one)"
        )));
    }
    Ok(())
}

/// Check that `path` can be replaced by an atomic rename (a temporary file can be made next
/// to it, and it is not a directory). `what` is "output" or "stats".
pub fn check_writable(path: &Path, what: &str) -> Result<(), Fatal> {
    let fail = |why: String| {
        Fatal::new(
            exit::OUTPUT,
            format!("cannot write {what} {}: {why}", path.display()),
        )
    };
    if path.is_dir() {
        return Err(fail("it is a directory".into()));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let probe = tempfile::Builder::new()
        .prefix(".treedd-")
        .tempfile_in(dir)
        .map_err(|e| fail(io_reason(&e)))?;
    drop(probe);
    Ok(())
}

fn io_reason(e: &io::Error) -> String {
    e.to_string()
}

/// What a file that is not a regular file is, for an error message ("it is a FIFO").
pub(crate) fn file_kind(ft: fs::FileType) -> &'static str {
    if ft.is_dir() {
        "a directory"
    } else if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_char_device() || ft.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    }
}
