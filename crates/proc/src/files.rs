//! A tree of files as one byte string: how a directory input travels through the reduction.
//!
//! Every part of treedd that compares, caches or hands over candidates works on bytes (the
//! judge's cache keys, the lookahead's announcements, the output writer, `Oracle::run`), so a
//! directory is one candidate too: [`Files::encode`] writes its entries one after the other,
//! each as a header and its bytes, and [`Files::write_into`] makes the tree again (in a run's
//! directory, or in the output directory). The encoding is deterministic (entries sorted by
//! path), so equal trees are equal candidates, and it only gets shorter when a file does:
//! the judge's "smaller" is "smaller in total".
//!
//! An entry is a regular file (its bytes and permission bits) or a symbolic link (its target,
//! which the reader checked stays inside the tree). Directories are implied by the paths of
//! the files in them; an empty directory is not an entry.
//!
//! Format of one entry: `f` and the mode in octal, or `l`; a space; the length in decimal; a
//! space; the relative path (components separated by `/`); a NUL byte; the bytes.

use std::fs;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};

/// What an entry of a [`Files`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// A regular file with these permission bits (`0o7777` at most).
    File { mode: u32 },
    /// A symbolic link; the entry's bytes are its target.
    Symlink,
}

/// One file of a [`Files`]: its path relative to the tree's root, what it is, its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileEntry {
    pub path: PathBuf,
    pub kind: FileKind,
    pub bytes: Vec<u8>,
}

impl FileEntry {
    /// A regular file.
    pub fn file(path: impl Into<PathBuf>, mode: u32, bytes: Vec<u8>) -> FileEntry {
        FileEntry {
            path: path.into(),
            kind: FileKind::File {
                mode: mode & 0o7777,
            },
            bytes,
        }
    }

    pub fn is_file(&self) -> bool {
        matches!(self.kind, FileKind::File { .. })
    }
}

/// A tree of files, sorted by path (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Files {
    entries: Vec<FileEntry>,
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

/// A path relative to the root that stays below it: no root, no `.` or `..`, not empty, and
/// no NUL byte (which ends a path in the encoding).
fn check_path(path: &Path) -> io::Result<()> {
    let plain = path.components().count() > 0
        && path.components().all(|c| matches!(c, Component::Normal(_)))
        && !path.as_os_str().as_bytes().contains(&0);
    if plain {
        Ok(())
    } else {
        Err(invalid(format!(
            "{} is not a relative path below the root",
            path.display()
        )))
    }
}

impl Files {
    /// The tree of `entries`, sorted by path. Fails on a path that is not relative and below
    /// the root, on a path given twice, and on a path that is both a file and a directory.
    pub fn new(mut entries: Vec<FileEntry>) -> io::Result<Files> {
        for e in &entries {
            check_path(&e.path)?;
        }
        entries.sort_by(|a, b| a.path.as_os_str().cmp(b.path.as_os_str()));
        for pair in entries.windows(2) {
            if pair[0].path == pair[1].path {
                return Err(invalid(format!(
                    "{} is given twice",
                    pair[0].path.display()
                )));
            }
        }
        for e in &entries {
            if let Some(file) = e.path.ancestors().skip(1).find(|a| {
                entries
                    .binary_search_by(|x| x.path.as_os_str().cmp(a.as_os_str()))
                    .is_ok()
            }) {
                return Err(invalid(format!(
                    "{} is a file and a directory",
                    file.display()
                )));
            }
        }
        Ok(Files { entries })
    }

    pub fn entries(&self) -> &[FileEntry] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The index of the entry at `path`.
    pub fn position(&self, path: &Path) -> Option<usize> {
        self.entries.iter().position(|e| e.path == path)
    }

    /// Replace the bytes of entry `i`.
    pub fn set_bytes(&mut self, i: usize, bytes: Vec<u8>) {
        self.entries[i].bytes = bytes;
    }

    /// The tree with only the entries at the indices of `keep` (in any order).
    pub fn subset(&self, keep: &[usize]) -> Files {
        let mut keep = keep.to_vec();
        keep.sort_unstable();
        keep.dedup();
        Files {
            entries: keep
                .into_iter()
                .filter_map(|i| self.entries.get(i).cloned())
                .collect(),
        }
    }

    /// The encoding (see the module docs).
    pub fn encode(&self) -> Vec<u8> {
        self.encode_with(None)
    }

    /// The encoding of the tree with entry `i`'s bytes replaced by `bytes`, without copying
    /// the tree first.
    pub fn encode_replacing(&self, i: usize, bytes: &[u8]) -> Vec<u8> {
        self.encode_with(Some((i, bytes)))
    }

    fn encode_with(&self, replace: Option<(usize, &[u8])>) -> Vec<u8> {
        let size: usize = self
            .entries
            .iter()
            .map(|e| e.bytes.len() + e.path.as_os_str().len() + 16)
            .sum();
        let mut out = Vec::with_capacity(size);
        for (i, e) in self.entries.iter().enumerate() {
            let bytes = match replace {
                Some((j, b)) if j == i => b,
                _ => &e.bytes,
            };
            match e.kind {
                FileKind::File { mode } => {
                    let _ = write!(out, "f{mode:o}");
                }
                FileKind::Symlink => out.push(b'l'),
            }
            let _ = write!(out, " {} ", bytes.len());
            out.extend_from_slice(e.path.as_os_str().as_bytes());
            out.push(0);
            out.extend_from_slice(bytes);
        }
        out
    }

    /// The tree an [`Files::encode`] made.
    pub fn decode(mut bytes: &[u8]) -> io::Result<Files> {
        let truncated = || invalid("a truncated tree of files".to_string());
        let mut entries = Vec::new();
        while let Some((&kind, rest)) = bytes.split_first() {
            let space = rest.iter().position(|&b| b == b' ').ok_or_else(truncated)?;
            let (mode, rest) = (&rest[..space], &rest[space + 1..]);
            let space = rest.iter().position(|&b| b == b' ').ok_or_else(truncated)?;
            let (len, rest) = (&rest[..space], &rest[space + 1..]);
            let nul = rest.iter().position(|&b| b == 0).ok_or_else(truncated)?;
            let (path, rest) = (&rest[..nul], &rest[nul + 1..]);
            let number = |digits: &[u8], radix| {
                std::str::from_utf8(digits)
                    .ok()
                    .and_then(|s| usize::from_str_radix(s, radix).ok())
                    .ok_or_else(|| invalid("a bad number in a tree of files".to_string()))
            };
            let len = number(len, 10)?;
            let kind = match kind {
                b'f' => FileKind::File {
                    mode: u32::try_from(number(mode, 8)?).unwrap_or(0o644) & 0o7777,
                },
                b'l' if mode.is_empty() => FileKind::Symlink,
                _ => return Err(invalid("a bad entry in a tree of files".to_string())),
            };
            if rest.len() < len {
                return Err(truncated());
            }
            entries.push(FileEntry {
                path: PathBuf::from(std::ffi::OsStr::from_bytes(path)),
                kind,
                bytes: rest[..len].to_vec(),
            });
            bytes = &rest[len..];
        }
        Files::new(entries)
    }

    /// Make the tree under `root` (which must exist): directories as the paths need them,
    /// files with their modes, symbolic links. With `sync`, every file and directory is
    /// synced to disk before this returns.
    pub fn write_into(&self, root: &Path, sync: bool) -> io::Result<()> {
        let mut dirs = vec![root.to_path_buf()];
        for e in &self.entries {
            let path = root.join(&e.path);
            if let Some(parent) = path.parent().filter(|p| !p.exists()) {
                fs::create_dir_all(parent)?;
                dirs.extend(
                    parent
                        .ancestors()
                        .take_while(|a| *a != root)
                        .map(Path::to_path_buf),
                );
            }
            match e.kind {
                FileKind::File { mode } => {
                    let mut f = fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .mode(mode | 0o600)
                        .open(&path)?;
                    f.write_all(&e.bytes)?;
                    if sync {
                        f.sync_data()?;
                    }
                    // Exactly the recorded mode (the umask and the owner's write bit aside).
                    f.set_permissions(fs::Permissions::from_mode(mode))?;
                }
                FileKind::Symlink => {
                    std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(&e.bytes), &path)?
                }
            }
        }
        if sync {
            dirs.sort();
            dirs.dedup();
            for d in dirs {
                fs::File::open(d)?.sync_all()?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Files {
        Files::new(vec![
            FileEntry::file("src/b.c", 0o644, b"int b;\n".to_vec()),
            FileEntry::file("a.h", 0o755, b"".to_vec()),
            FileEntry {
                path: "src/link.h".into(),
                kind: FileKind::Symlink,
                bytes: b"../a.h".to_vec(),
            },
        ])
        .unwrap()
    }

    #[test]
    fn encoding_round_trips_and_is_sorted() {
        let t = tree();
        let bytes = t.encode();
        assert_eq!(
            bytes,
            b"f755 0 a.h\0f644 7 src/b.c\0int b;\nl 6 src/link.h\0../a.h"
        );
        assert_eq!(Files::decode(&bytes).unwrap(), t);
        assert_eq!(Files::decode(b"").unwrap(), Files::default());
        assert_eq!(
            t.encode_replacing(1, b"x"),
            b"f755 0 a.h\0f644 1 src/b.c\0xl 6 src/link.h\0../a.h"
        );
        assert_eq!(t.subset(&[2, 0]).len(), 2);
    }

    #[test]
    fn bad_trees_are_refused() {
        for bad in [
            &b"f644 9 a\0short"[..],
            b"f644 1 a",
            b"x644 0 a\0",
            b"f6z4 0 a\0",
            b"f644 0 ../a\0",
            b"f644 0 /a\0",
            b"f644 0 a\0f644 0 a\0",
            b"f644 0 a\0f644 0 a/b\0",
        ] {
            assert!(
                Files::decode(bad).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn the_tree_is_written_with_modes_and_links() {
        let d = tempfile::tempdir().unwrap();
        tree().write_into(d.path(), true).unwrap();
        let meta = fs::metadata(d.path().join("a.h")).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o755);
        assert_eq!(fs::read(d.path().join("src/b.c")).unwrap(), b"int b;\n");
        assert_eq!(
            fs::read_link(d.path().join("src/link.h")).unwrap(),
            Path::new("../a.h")
        );
        assert_eq!(fs::read(d.path().join("src/link.h")).unwrap(), b"");
    }
}
