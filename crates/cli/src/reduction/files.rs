//! What differs for a directory input (`crate::dir`): the candidates are trees of files, the
//! reduction is `treedd_reduce::reduce_files`, sizes are the files' sums, the state file
//! records every file's hash, and the recipe of the "not interesting" message copies the
//! directory.

use std::io;

use treedd_proc::Files;

use super::original::shell_quote;
use super::Reduction;
use crate::dir::{self, Source, TreeInput};
use crate::flags::Algorithm;
use crate::report::FileStats;
use crate::resume;

impl Reduction {
    /// The language in `--stats` and the state file: each file's own for a directory.
    pub(super) fn language_name(&self) -> &'static str {
        match &self.plan.tree {
            Some(_) => "per file",
            None => self.plan.lang.name(),
        }
    }

    /// The input as `--stats` names it.
    pub(super) fn input_name(&self) -> String {
        match &self.plan.tree {
            Some(tree) => tree.display(),
            None => self.plan.input.display().to_string(),
        }
    }

    /// What the output holds now: the file, or the directory as a tree of files.
    pub(super) fn read_output(&self) -> io::Result<Vec<u8>> {
        match &self.plan.tree {
            Some(_) => dir::read_output(&self.plan.output).map(|f| f.encode()),
            None => std::fs::read(&self.plan.output),
        }
    }

    /// The size in bytes of a candidate: of all its files, for a directory.
    pub(super) fn bytes(&self, candidate: &[u8]) -> usize {
        dir::bytes(candidate, self.plan.tree.is_some())
    }

    /// The state of a fresh run, for `--resume` (with every file's hash for a directory).
    pub(super) fn fresh_state(&self) -> resume::State {
        let state = resume::State::new(&self.plan.input, &self.input, self.settings(), None);
        match self
            .plan
            .tree
            .as_ref()
            .and_then(|_| Files::decode(&self.input).ok())
        {
            Some(files) => state.with_files(
                files
                    .entries()
                    .iter()
                    .map(|e| (e.path.display().to_string(), e.bytes.as_slice())),
            ),
            None => state,
        }
    }

    /// `--stats`' `files`: every input file's language and sizes, before and after.
    pub(super) fn file_stats(&self, output: &[u8]) -> Option<Vec<FileStats>> {
        self.plan.tree.as_ref()?;
        let input = Files::decode(&self.input).ok()?;
        let output = Files::decode(output).unwrap_or_default();
        let text_only = self.plan.algorithm == Algorithm::Ddmin;
        let chars = crate::report::non_whitespace_chars;
        Some(
            input
                .entries()
                .iter()
                .filter(|e| e.is_file())
                .map(|e| {
                    let out = output.position(&e.path).map(|i| &output.entries()[i].bytes);
                    FileStats {
                        path: e.path.display().to_string(),
                        language: dir::lang_of(&e.path, text_only).name(),
                        input_bytes: e.bytes.len(),
                        output_bytes: out.map(Vec::len),
                        input_chars: chars(&e.bytes),
                        output_chars: out.map(|b| chars(b)),
                    }
                })
                .collect(),
        )
    }

    /// A shell command that runs the oracle on a copy of the input directory as treedd does:
    /// inside the copy, named as in the runs, with its path as the argument.
    pub(super) fn tree_recipe(&self, tree: &TreeInput) -> String {
        let (mktemp, command) = self.recipe_parts();
        let name = shell_quote(&tree.name);
        let abs = |p: &std::path::Path| {
            let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
            shell_quote(p.as_os_str())
        };
        let copy = match &tree.source {
            Source::Dir(d) => format!("cp -a {}/. \"$d\"/{name}", abs(d)),
            Source::Files(files) => {
                let files: Vec<String> = files.iter().map(|f| abs(f)).collect();
                format!("cp -p {} \"$d\"/{name}", files.join(" "))
            }
        };
        format!(
            "d=$({mktemp}) && mkdir \"$d\"/{name} && {copy} && (cd \"$d\"/{name} && {command} \"$d\"/{name}); echo \"exit status $?\""
        )
    }
}
