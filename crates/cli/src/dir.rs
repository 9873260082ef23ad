//! A directory as the input (`treedd --test ORACLE DIR`), or several files reduced together
//! as one directory (`treedd --test ORACLE a.c b.c a.h`): the input is read into a
//! [`Files`] (the one candidate every run gets a private copy of, see `treedd_proc::Files`),
//! with every check made before the first oracle run: no empty directory, no symbolic link
//! that leads out of it, no special file. The output is a directory too, written by
//! [`write::write_tree`]; `crate::plan` derives the settings and rejects the conflicts of
//! a directory input.
//!
//! **Invariant:** nothing under the input is ever opened for writing, created, renamed or
//! removed; the output may be neither the input nor inside it, nor hold it.

pub(crate) mod write;

use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use treedd_proc::{FileEntry, FileKind, Files};
use treedd_tree::Lang;

use crate::exit::{self, Fatal};
use crate::flags::Args;

/// A directory input, or several input files reduced as one directory.
#[derive(Clone, Debug)]
pub(crate) struct TreeInput {
    /// The directory's name in each run's directory: the input directory's own name, or for
    /// several files the first one's name without its extension.
    pub(crate) name: OsString,
    pub(crate) source: Source,
}

#[derive(Clone, Debug)]
pub(crate) enum Source {
    Dir(PathBuf),
    /// Side by side, under their file names.
    Files(Vec<PathBuf>),
}

impl TreeInput {
    /// The tree input of the command line: a directory, or more than one input. `None` for
    /// one input that is not a directory (a file, or missing: the file checks report it).
    pub(crate) fn from_args(args: &Args) -> Option<TreeInput> {
        if !args.more.is_empty() {
            let files: Vec<PathBuf> = std::iter::once(args.input.clone())
                .chain(args.more.iter().cloned())
                .collect();
            let name = args
                .input
                .file_stem()
                .unwrap_or(OsStr::new("input"))
                .to_os_string();
            return Some(TreeInput {
                name,
                source: Source::Files(files),
            });
        }
        if !fs::metadata(&args.input).is_ok_and(|m| m.is_dir()) {
            return None;
        }
        let name = match args.input.file_name() {
            Some(name) => name.to_os_string(),
            // `.`, `..`: the directory's real name.
            None => fs::canonicalize(&args.input)
                .ok()
                .and_then(|p| p.file_name().map(OsStr::to_os_string))
                .unwrap_or_else(|| OsString::from("input")),
        };
        Some(TreeInput {
            name,
            source: Source::Dir(args.input.clone()),
        })
    }

    /// The input paths: the directory, or the files.
    pub(crate) fn paths(&self) -> Vec<&Path> {
        match &self.source {
            Source::Dir(dir) => vec![dir.as_path()],
            Source::Files(files) => files.iter().map(PathBuf::as_path).collect(),
        }
    }

    /// How messages name the input: the directory, or the files separated by spaces.
    pub(crate) fn display(&self) -> String {
        let paths: Vec<String> = self
            .paths()
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        paths.join(" ")
    }

    /// The default output: `DIR.reduced` beside the directory; for several files `NAME.reduced`
    /// beside the first one (`NAME` as in the runs).
    pub(crate) fn default_output(&self) -> PathBuf {
        let mut name = self.name.clone();
        name.push(".reduced");
        let first = self.paths()[0];
        match &self.source {
            Source::Dir(dir) if dir.file_name().is_some() => dir.with_file_name(name),
            Source::Dir(dir) => fs::canonicalize(dir)
                .ok()
                .and_then(|d| d.parent().map(|p| p.join(&name)))
                .unwrap_or_else(|| PathBuf::from(&name)),
            Source::Files(_) => first.with_file_name(name),
        }
    }

    /// Read the input (exit 3 for anything treedd cannot copy faithfully into the runs).
    pub(crate) fn read(&self) -> Result<Files, Fatal> {
        let files = match &self.source {
            Source::Dir(dir) => {
                let mut out = Vec::new();
                walk(dir, Path::new(""), &mut out)?;
                if out.is_empty() {
                    return Err(input_error(
                        dir,
                        "it holds no files; give a directory with the files to reduce",
                    ));
                }
                out
            }
            Source::Files(paths) => {
                let mut out: Vec<FileEntry> = Vec::new();
                for path in paths {
                    if fs::metadata(path).is_ok_and(|m| m.is_dir()) {
                        return Err(input_error(
                            path,
                            "it is a directory; give one directory, or several regular files",
                        ));
                    }
                    crate::checks::regular_input(path)?;
                    let name = path.file_name().unwrap_or(OsStr::new("input"));
                    if let Some(twin) = out.iter().find(|e| e.path.as_os_str() == name) {
                        return Err(Fatal::new(
                            exit::INPUT,
                            format!(
                                "two inputs are named {}; several input files are put side by side in one directory, so their names must differ",
                                twin.path.display()
                            ),
                        ));
                    }
                    out.push(read_file(path, Path::new(name))?);
                }
                out
            }
        };
        Files::new(files).map_err(|e| Fatal::new(exit::INPUT, format!("cannot read input: {e}")))
    }
}

fn input_error(path: &Path, why: &str) -> Fatal {
    Fatal::new(
        exit::INPUT,
        format!("cannot read input {}: {why}", path.display()),
    )
}

fn read_file(path: &Path, rel: &Path) -> Result<FileEntry, Fatal> {
    let meta = fs::metadata(path).map_err(|e| input_error(path, &e.to_string()))?;
    let bytes = fs::read(path).map_err(|e| input_error(path, &e.to_string()))?;
    Ok(FileEntry::file(rel, meta.permissions().mode(), bytes))
}

/// Read the directory `root.join(rel)` into `out`, in name order (the entries' paths
/// relative to `root`).
fn walk(root: &Path, rel: &Path, out: &mut Vec<FileEntry>) -> Result<(), Fatal> {
    let dir = root.join(rel);
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .and_then(|it| it.collect::<Result<Vec<_>, _>>())
        .map_err(|e| input_error(&dir, &e.to_string()))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let rel = rel.join(entry.file_name());
        let meta = fs::symlink_metadata(&path).map_err(|e| input_error(&path, &e.to_string()))?;
        let ft = meta.file_type();
        if ft.is_file() {
            out.push(read_file(&path, &rel)?);
        } else if ft.is_dir() {
            walk(root, &rel, out)?;
        } else if ft.is_symlink() {
            let target = fs::read_link(&path).map_err(|e| input_error(&path, &e.to_string()))?;
            if !stays_inside(&rel, &target) {
                return Err(input_error(
                    &path,
                    &format!(
                        "it is a symbolic link out of the directory (to {}); every run gets a copy of the directory, and the link would lead it to files treedd does not copy (replace the link by a copy of what it points to)",
                        target.display()
                    ),
                ));
            }
            out.push(FileEntry {
                path: rel,
                kind: FileKind::Symlink,
                bytes: target.as_os_str().as_bytes().to_vec(),
            });
        } else {
            let what = crate::checks::file_kind(ft);
            return Err(input_error(
                &path,
                &format!("it is {what}; a directory input may hold only regular files, directories and symbolic links within it"),
            ));
        }
    }
    Ok(())
}

/// A relative symbolic link at `link` (relative to the root) whose `target` stays below the
/// root, read as the path it spells (`..` leaves the directory it is in).
fn stays_inside(link: &Path, target: &Path) -> bool {
    let mut depth = link.components().count() as isize - 1;
    for c in target.components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    true
}

/// The language each file is reduced in: by its extension, text without a known one (and
/// every file with `--algorithm ddmin`).
pub(crate) fn lang_of(path: &Path, text_only: bool) -> Lang {
    match Lang::from_path(path) {
        Some(lang) if !text_only => lang,
        _ => Lang::Text,
    }
}

/// Read an output directory back (for `--resume`, and the final result), as the input was.
pub(crate) fn read_output(path: &Path) -> std::io::Result<Files> {
    let mut out = Vec::new();
    walk(path, Path::new(""), &mut out).map_err(|e| std::io::Error::other(e.message))?;
    Files::new(out)
}

/// Non-whitespace characters of `bytes` (a tree: of all its files).
pub(crate) fn chars(bytes: &[u8], tree: bool) -> usize {
    match tree.then(|| Files::decode(bytes).ok()).flatten() {
        Some(files) => files
            .entries()
            .iter()
            .filter(|e| e.is_file())
            .map(|e| crate::report::non_whitespace_chars(&e.bytes))
            .sum(),
        None => crate::report::non_whitespace_chars(bytes),
    }
}

/// Bytes of `bytes` (a tree: of all its files).
pub(crate) fn bytes(bytes: &[u8], tree: bool) -> usize {
    match tree.then(|| Files::decode(bytes).ok()).flatten() {
        Some(files) => files
            .entries()
            .iter()
            .filter(|e| e.is_file())
            .map(|e| e.bytes.len())
            .sum(),
        None => bytes.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_stay_inside_when_their_path_does() {
        let check = |link: &str, target: &str| stays_inside(Path::new(link), Path::new(target));
        assert!(check("a.h", "b.h"));
        assert!(check("inc/a.h", "../b.h"));
        assert!(check("inc/a.h", "./x/../../src/b.h"));
        assert!(!check("a.h", "../b.h"));
        assert!(!check("inc/a.h", "../../b.h"));
        assert!(!check("a.h", "/etc/passwd"));
    }

    #[test]
    fn sizes_count_the_files_only() {
        let files = Files::new(vec![
            FileEntry::file("a.c", 0o644, b"int a;\n".to_vec()),
            FileEntry::file("b/c.txt", 0o644, b" x ".to_vec()),
        ])
        .unwrap()
        .encode();
        assert_eq!(chars(&files, true), 6);
        assert_eq!(bytes(&files, true), 10);
        assert_eq!(chars(b"a b", false), 2);
    }
}
