//! The private directories oracle runs work in, reused.
//!
//! A run's directory holds only the candidate, under the input's file name, while the run
//! starts. Making a directory and a file for every run and removing both afterwards would be
//! the largest part of treedd's own CPU time on short oracles: the kernel allocates and frees
//! two inodes per run. So a directory is made once per run in flight and emptied after each run
//! instead: whatever the run left is removed, and the candidate file is rewritten in place
//! (the same inode) by the next run.
//!
//! The candidate file is only rewritten in place when it is still what treedd made: a plain
//! file, with one link and the mode it was made with. An oracle that linked it elsewhere
//! (`ln "$1" keep.c`), replaced it by a symlink, or changed its mode gets a new file, so no
//! write ever reaches another file. A directory that cannot be emptied is removed (as far as
//! possible) and not used again.
//!
//! A directory input (`RunDirs::tree`) has its candidate, a [`Files`], made afresh in the run's
//! directory under the input directory's name for every run, and everything is removed after.

use std::ffi::OsString;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::Files;

/// A directory ready for reuse and the mode its candidate file was made with.
struct Free {
    dir: PathBuf,
    mode: u32,
}

/// The pool: directories made under `root`, each used by one run at a time.
pub(super) struct RunDirs {
    root: PathBuf,
    file_name: OsString,
    /// The candidates are trees of files ([`Files`]) made under `file_name`.
    tree: bool,
    free: Mutex<Vec<Free>>,
}

/// One run's directory; emptied (all but the candidate) and put back on drop.
pub(super) struct RunDir<'a> {
    pool: &'a RunDirs,
    dir: PathBuf,
    mode: u32,
}

impl RunDirs {
    pub(super) fn new(root: PathBuf, file_name: OsString, tree: bool) -> RunDirs {
        RunDirs {
            root,
            file_name,
            tree,
            free: Mutex::new(Vec::new()),
        }
    }

    fn free(&self) -> std::sync::MutexGuard<'_, Vec<Free>> {
        // Push and pop only: a panic while holding the lock cannot leave it inconsistent.
        self.free.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A directory holding only the candidate file, with `candidate` as its contents.
    pub(super) fn take(&self, candidate: &[u8]) -> Result<RunDir<'_>, String> {
        if self.tree {
            return self.take_tree(candidate);
        }
        let reused = self.free().pop();
        if let Some(Free { dir, mode }) = reused {
            let file = dir.join(&self.file_name);
            if let Ok(mode) = rewrite(&file, mode, candidate) {
                return Ok(RunDir {
                    pool: self,
                    dir,
                    mode,
                });
            }
            let _ = fs::remove_dir_all(&dir);
        }
        let dir = tempfile::Builder::new()
            .prefix("treedd-")
            .tempdir_in(&self.root)
            .map_err(|e| {
                format!(
                    "cannot make a temporary directory in {}: {e}",
                    self.root.display()
                )
            })?
            .keep();
        let file = dir.join(&self.file_name);
        match write_new(&file, candidate) {
            Ok(mode) => Ok(RunDir {
                pool: self,
                dir,
                mode,
            }),
            Err(e) => {
                let _ = fs::remove_dir_all(&dir);
                Err(format!("cannot write {}: {e}", file.display()))
            }
        }
    }
}

impl RunDirs {
    /// A directory holding only the tree `candidate` (encoded [`Files`]) under `file_name`.
    fn take_tree(&self, candidate: &[u8]) -> Result<RunDir<'_>, String> {
        let files =
            Files::decode(candidate).map_err(|e| format!("cannot decode a candidate: {e}"))?;
        let dir = match self.free().pop() {
            Some(free) => free.dir,
            None => tempfile::Builder::new()
                .prefix("treedd-")
                .tempdir_in(&self.root)
                .map_err(|e| {
                    format!(
                        "cannot make a temporary directory in {}: {e}",
                        self.root.display()
                    )
                })?
                .keep(),
        };
        let run = RunDir {
            pool: self,
            dir,
            mode: 0,
        };
        let top = run.candidate();
        fs::create_dir(&top)
            .and_then(|()| files.write_into(&top, false))
            .map_err(|e| format!("cannot write {}: {e}", top.display()))?;
        Ok(run)
    }
}

/// Write `candidate` into `file`: in place if it is still the plain, singly linked file of
/// mode `mode` that treedd made, else as a new file. Returns the file's mode.
fn rewrite(file: &Path, mode: u32, candidate: &[u8]) -> std::io::Result<u32> {
    match fs::symlink_metadata(file) {
        Ok(meta) if meta.is_file() && meta.nlink() == 1 && meta.mode() == mode => {
            overwrite(file, candidate)?;
            return Ok(mode);
        }
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(file)?,
        Ok(_) => fs::remove_file(file)?,
        Err(_) => {}
    }
    write_new(file, candidate)
}

/// Write `candidate` over the contents of `file`, then cut it to its length. Not truncated
/// first: on a disk filesystem (ext4, where `$TMPDIR` usually is) emptying a file frees its
/// blocks and writing allocates them again, which costs more of treedd's CPU than everything
/// else in a run on a short oracle. Written over, a candidate no longer than the last one
/// keeps the blocks it has. Not through a
/// symbolic link put there since the check.
fn overwrite(file: &Path, candidate: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = fs::OpenOptions::new()
        .write(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(file)?;
    f.write_all(candidate)?;
    f.set_len(candidate.len() as u64)
}

/// Write `candidate` as the new file `file`. Returns the file's mode.
fn write_new(file: &Path, candidate: &[u8]) -> std::io::Result<u32> {
    fs::write(file, candidate)?;
    Ok(fs::symlink_metadata(file)?.mode())
}

impl RunDir<'_> {
    pub(super) fn path(&self) -> &Path {
        &self.dir
    }

    pub(super) fn candidate(&self) -> PathBuf {
        self.dir.join(&self.pool.file_name)
    }

    /// Where the oracle runs: the run's directory, or for a tree the tree itself.
    pub(super) fn cwd(&self) -> PathBuf {
        if self.pool.tree {
            self.candidate()
        } else {
            self.dir.clone()
        }
    }

    /// Remove everything but the candidate file (everything, for a tree). False if
    /// something could not be removed.
    fn empty(&self) -> bool {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return false;
        };
        entries.into_iter().all(|entry| {
            let Ok(entry) = entry else { return false };
            if entry.file_name() == self.pool.file_name && !self.pool.tree {
                // Checked (and replaced if need be) by the next `take`.
                return true;
            }
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => fs::remove_dir_all(&path).is_ok(),
                Ok(_) => fs::remove_file(&path).is_ok(),
                Err(_) => false,
            }
        })
    }
}

impl Drop for RunDir<'_> {
    fn drop(&mut self) {
        if self.empty() {
            self.pool.free().push(Free {
                dir: std::mem::take(&mut self.dir),
                mode: self.mode,
            });
        } else {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

impl Drop for RunDirs {
    fn drop(&mut self) {
        for free in self.free().drain(..) {
            let _ = fs::remove_dir_all(&free.dir);
        }
    }
}
