//! The output directory: always holds the best tree of files found so far.
//!
//! **Invariant:** the output path is only ever replaced by a complete directory: each tree is
//! written into a new directory beside the output (every file and directory synced), which
//! then takes the output's place in one atomic exchange (`renameat2(RENAME_EXCHANGE)`), and
//! the old tree, now under the new directory's temporary name, is removed after. At any
//! moment (Ctrl-C, crash, power loss after the sync) the output holds the old tree or the
//! new one, whole. Where the filesystem cannot exchange, the old tree is moved aside first,
//! so the output is missing for the instant between two renames (never half written).
//!
//! The new directory is `.NAME.treedd-new` beside the output `NAME` (`.NAME.treedd-old` for
//! the old tree moved aside): names of its own, so that what a SIGKILL during a write leaves
//! there (no watchdog can know it) is removed by the next write to that output, the first of
//! a `--resume` included.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use rustix::fs::{renameat_with, RenameFlags, CWD};
use rustix::io::Errno;
use treedd_proc::Files;

use crate::exit::{self, Fatal};

/// The directory `path` is in.
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Replace the directory at `path` (or make it) by the tree `encoded` (see the module docs).
pub(crate) fn write_tree(path: &Path, encoded: &[u8]) -> io::Result<()> {
    let files = Files::decode(encoded)?;
    let dir = parent(path);
    let [new, aside] = beside(path);
    remove(&new)?;
    remove(&aside)?;
    fs::create_dir(&new)?;
    if let Err(e) = files
        .write_into(&new, true)
        .and_then(|()| fs::set_permissions(&new, fs::Permissions::from_mode(0o755)))
    {
        let _ = fs::remove_dir_all(&new);
        return Err(e);
    }
    let old = match renameat_with(CWD, &new, CWD, path, RenameFlags::EXCHANGE) {
        // The old tree is where the new one was.
        Ok(()) => Some(new.clone()),
        Err(Errno::NOENT) => rename_or_remove(&new, path).map(|()| None)?,
        // No exchange on this filesystem: the old tree aside, then the new one in place.
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
            if let Err(e) = fs::rename(path, &aside) {
                let _ = fs::remove_dir_all(&new);
                return Err(e);
            }
            rename_or_remove(&new, path)?;
            Some(aside)
        }
        Err(e) => {
            let _ = fs::remove_dir_all(&new);
            return Err(e.into());
        }
    };
    fs::File::open(dir)?.sync_all()?;
    if let Some(old) = old {
        remove(&old)?;
    }
    Ok(())
}

/// The names of the new tree and of the old one moved aside, beside `path`.
fn beside(path: &Path) -> [std::path::PathBuf; 2] {
    let name = path.file_name().unwrap_or(std::ffi::OsStr::new("output"));
    [".treedd-new", ".treedd-old"].map(|suffix| {
        let mut n = std::ffi::OsString::from(".");
        n.push(name);
        n.push(suffix);
        parent(path).join(n)
    })
}

/// Remove what is at `path` (a tree, a file), if anything.
fn remove(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

fn rename_or_remove(new: &Path, path: &Path) -> io::Result<()> {
    fs::rename(new, path).inspect_err(|_| {
        let _ = fs::remove_dir_all(new);
    })
}

/// Check, before the first oracle run, that the output directory can be written: it is a
/// directory if it exists, and a directory can be made beside it (exit 9 otherwise).
pub(crate) fn check_output(path: &Path) -> Result<(), Fatal> {
    let fail = |why: String| {
        Fatal::new(
            exit::OUTPUT,
            format!("cannot write output {}: {why}", path.display()),
        )
    };
    if fs::symlink_metadata(path).is_ok_and(|m| !m.is_dir()) {
        return Err(fail(
            "it exists and is not a directory; the output of a directory input is a directory"
                .into(),
        ));
    }
    tempfile::Builder::new()
        .prefix(".treedd-")
        .tempdir_in(parent(path))
        .map_err(|e| fail(e.to_string()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use treedd_proc::FileEntry;

    fn tree(text: &[u8]) -> Vec<u8> {
        Files::new(vec![
            FileEntry::file("a.c", 0o644, text.to_vec()),
            FileEntry::file("sub/run.sh", 0o755, b"#!/bin/sh\n".to_vec()),
        ])
        .unwrap()
        .encode()
    }

    #[test]
    fn each_tree_replaces_the_last_whole_and_nothing_is_left_beside_it() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("x.reduced");
        write_tree(&out, &tree(b"int a, b;")).unwrap();
        assert_eq!(fs::read(out.join("a.c")).unwrap(), b"int a, b;");
        // A file an earlier tree had, or someone put there, is gone with it; so is what a
        // write killed half-way left.
        fs::write(out.join("stray"), "").unwrap();
        fs::create_dir_all(t.path().join(".x.reduced.treedd-new/sub")).unwrap();
        write_tree(&out, &tree(b"int a;")).unwrap();
        assert_eq!(fs::read(out.join("a.c")).unwrap(), b"int a;");
        assert!(!out.join("stray").exists());
        let mode = fs::metadata(out.join("sub/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        let names: Vec<_> = fs::read_dir(t.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["x.reduced"]);
        assert_eq!(
            super::super::read_output(&out).unwrap().encode(),
            tree(b"int a;")
        );
    }

    #[test]
    fn an_output_that_is_a_file_is_refused_before_anything_runs() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("x.reduced");
        fs::write(&out, "").unwrap();
        assert!(check_output(&out).is_err());
        assert!(check_output(&t.path().join("new")).is_ok());
        assert!(check_output(&t.path().join("missing/new")).is_err());
        assert_eq!(fs::read_dir(t.path()).unwrap().count(), 1);
    }
}
