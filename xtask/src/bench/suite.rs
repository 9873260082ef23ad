//! Suites: folders of cases (an input and an oracle), in the layout of fixtures/ and of the
//! shared suites (`shared/suites` beside the repository).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context as _, Result};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Case {
    pub(super) name: String,
    pub(super) input: PathBuf,
    pub(super) oracle: PathBuf,
}

impl Case {
    /// treedd `--language` value guessed from the input's extension.
    pub(super) fn language(&self) -> &'static str {
        language_of(&self.input)
    }
}

pub(super) fn language_of(path: &Path) -> &'static str {
    treedd_tree::Lang::from_path(path).map_or("text", treedd_tree::Lang::name)
}

pub(super) const ORACLE_NAMES: [&str; 2] = ["oracle.sh", "test.sh"];

/// Find the cases of a suite: folders holding an oracle, directly under `root` or one level
/// deeper (`fixtures/<lang>/<case>`), in name order.
pub(super) fn discover(root: &Path) -> Result<Vec<Case>> {
    let mut cases = Vec::new();
    for dir in sorted_subdirs(root)? {
        if is_case_dir(&dir) {
            cases.push(load_case(&dir)?);
        } else {
            for sub in sorted_subdirs(&dir)? {
                if is_case_dir(&sub) {
                    cases.push(load_case(&sub)?);
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    for case in &cases {
        if !seen.insert(case.name.clone()) {
            bail!(
                "suite {}: two cases are named `{}`; case folder names must be unique",
                root.display(),
                case.name
            );
        }
    }
    Ok(cases)
}

pub(super) fn sorted_subdirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    let entries = fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}

pub(super) fn is_case_dir(dir: &Path) -> bool {
    ORACLE_NAMES.iter().any(|n| dir.join(n).is_file())
}

/// Files of a case that are never its input.
pub(super) fn is_helper_file(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name);
    name.starts_with('.')
        || name.ends_with(".sh")
        || name.ends_with('~')
        // treedd's output beside its input (the README's example writes one in fixtures/).
        || name.contains(".reduced")
        || matches!(
            stem.to_ascii_lowercase().as_str(),
            "provenance" | "readme" | "trigger" | "expected" | "notes" | "license"
        )
}

pub(super) fn load_case(dir: &Path) -> Result<Case> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| anyhow!("case folder {} has no UTF-8 name", dir.display()))?
        .to_string();
    let oracle = ORACLE_NAMES
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
        .ok_or_else(|| anyhow!("case {}: no oracle.sh or test.sh", dir.display()))?;
    let mut candidates = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_file() && !is_helper_file(&file_name) {
            candidates.push(file_name);
        }
    }
    candidates.sort();
    // A Python file is a helper script of the oracle, unless it is the only candidate (the
    // input of a Python case such as fixtures/python/zerodiv).
    if candidates.iter().any(|n| !n.ends_with(".py")) {
        candidates.retain(|n| !n.ends_with(".py"));
    }
    let pick = |pred: &dyn Fn(&str) -> bool| -> Vec<&String> {
        candidates.iter().filter(|n| pred(n)).collect()
    };
    let orig = pick(&|n| n.contains("-orig."));
    let input = pick(&|n| n.starts_with("input."));
    let chosen = if orig.len() == 1 {
        orig[0]
    } else if input.len() == 1 {
        input[0]
    } else if candidates.len() == 1 {
        &candidates[0]
    } else if candidates.is_empty() {
        bail!("case {}: no input file", dir.display());
    } else {
        bail!(
            "case {}: cannot tell the input among {}; name it input.<ext> or <name>-orig.<ext>",
            dir.display(),
            candidates.join(", ")
        );
    };
    Ok(Case {
        name,
        input: dir.join(chosen),
        oracle,
    })
}

/// Workspace root (the parent of the xtask crate).
pub(super) fn workspace_root() -> PathBuf {
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().unwrap_or(xtask).to_path_buf()
}

/// `shared/` next to the repository or one of its ancestors (worktrees live one level deeper).
pub(crate) fn shared_dir(root: &Path) -> Option<PathBuf> {
    root.ancestors()
        .skip(1)
        .map(|a| a.join("shared"))
        .find(|p| p.join("suites").is_dir())
}

/// Resolve `--suite` to (short name, folder): `fixtures`, a folder of the shared suites
/// beside the repository by its name, or a path.
pub(super) fn resolve_suite(root: &Path, suite: &str) -> Result<(String, PathBuf)> {
    if suite == "fixtures" {
        return Ok(("fixtures".to_string(), root.join("fixtures")));
    }
    let shared = shared_dir(root).map(|s| s.join("suites"));
    let is_name = !suite.is_empty() && !suite.contains('/') && suite != "." && suite != "..";
    if let Some(shared) = shared.as_ref().filter(|_| is_name) {
        let dir = shared.join(suite);
        if dir.is_dir() {
            return Ok((suite.to_string(), dir));
        }
    }
    let dir = PathBuf::from(suite);
    if !dir.is_dir() {
        let known: Vec<String> = shared
            .as_deref()
            .map(sorted_subdirs)
            .transpose()?
            .unwrap_or_default()
            .iter()
            .filter_map(|d| Some(d.file_name()?.to_string_lossy().into_owned()))
            .collect();
        bail!(
            "--suite {suite}: not fixtures, a suite of shared/suites ({}) or a folder",
            if known.is_empty() {
                "none found".to_string()
            } else {
                known.join(", ")
            }
        );
    }
    let name = dir
        .canonicalize()?
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "suite".to_string());
    Ok((name, dir))
}

/// The cases as `--dry-run` lists them: name, language, input (file name, size in
/// non-whitespace characters and bytes) and oracle, one a line.
pub(super) fn listing(cases: &[Case]) -> String {
    let mut out = String::new();
    for case in cases {
        let file = |p: &Path| {
            p.file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        };
        let bytes = fs::read(&case.input).unwrap_or_default();
        out.push_str(&format!(
            "case: {} | {} | {} | {} chars, {} bytes | {}\n",
            case.name,
            case.language(),
            file(&case.input),
            super::measure::nonws_chars(&bytes),
            bytes.len(),
            file(&case.oracle)
        ));
    }
    out
}

/// The dissertation's name of one of our cases: JRTS folders are named by issue number only.
pub(super) fn paper_case_name(case: &str) -> String {
    if !case.is_empty() && case.chars().all(|c| c.is_ascii_digit()) {
        format!("jerry-{case}")
    } else {
        case.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::run::Scratch;
    use crate::bench::test_util::case_in;

    #[test]
    fn suites_are_discovered_in_both_layouts() {
        let dir = Scratch::new("discover").unwrap();
        let root = dir.path();
        // Flat layout (jrts, perses) with helper files next to the input.
        case_in(root, "3299", "3299-orig.js", "#!/bin/sh\n");
        fs::rename(root.join("3299/oracle.sh"), root.join("3299/test.sh")).unwrap();
        let perses = root.join("gcc-71626");
        case_in(root, "gcc-71626", "input.c", "#!/bin/sh\n");
        fs::write(perses.join("trigger.c"), "int a;").unwrap();
        fs::write(perses.join("PROVENANCE"), "from somewhere").unwrap();
        fs::write(perses.join("tokseq.py"), "import sys").unwrap();
        // A Python case: its input is the only candidate.
        case_in(&root.join("python"), "zerodiv", "zerodiv.py", "#!/bin/sh\n");
        // Nested layout (fixtures/<lang>/<case>) with the paper's file name as the only input.
        case_in(&root.join("c"), "helloworld", "helloworld.c", "#!/bin/sh\n");
        // The result of the README's example, beside its input: not a second input.
        fs::write(root.join("c/helloworld/helloworld.reduced.c"), "int main;").unwrap();
        fs::create_dir_all(root.join("empty-folder")).unwrap();
        let cases = discover(root).unwrap();
        let names: Vec<(&str, String, String)> = cases
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.input.file_name().unwrap().to_string_lossy().into_owned(),
                    c.oracle.file_name().unwrap().to_string_lossy().into_owned(),
                )
            })
            .collect();
        assert_eq!(
            names,
            [
                ("3299", "3299-orig.js".into(), "test.sh".into()),
                ("helloworld", "helloworld.c".into(), "oracle.sh".into()),
                ("gcc-71626", "input.c".into(), "oracle.sh".into()),
                ("zerodiv", "zerodiv.py".into(), "oracle.sh".into()),
            ]
        );
        assert_eq!(cases[0].language(), "javascript");
        assert_eq!(cases[2].language(), "c");

        // Two candidate inputs and no naming convention: a clear error.
        let bad = root.join("bad");
        case_in(root, "bad", "a.c", "#!/bin/sh\n");
        fs::write(bad.join("b.c"), "int b;").unwrap();
        let err = discover(root).unwrap_err().to_string();
        assert!(
            err.contains("cannot tell the input among a.c, b.c"),
            "{err}"
        );
    }

    /// The layouts of the real-crash suites: `input.<ext>`, `oracle.sh`
    /// and files that are not inputs (PROVENANCE, provenance.txt, a `gen/` folder with
    /// scripts, headers and an `oracle.sh.in`, a suite-level `syntax_ok.js`, README.md).
    #[test]
    fn the_new_suites_layouts_are_discovered() {
        let dir = Scratch::new("discover-new").unwrap();
        let sh = "#!/bin/sh\n";
        // (suite, its cases as (folder, input), the other files of a case)
        type Layout<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [&'a str]);
        let layouts: [Layout; 7] = [
            (
                "c-ice-large",
                &[
                    ("h8300-s600001-O3", "input.c"),
                    ("h8300-s600054-O2", "input.c"),
                ],
                &["PROVENANCE"],
            ),
            (
                "cpp-ice",
                &[("gcc12-g-lambda-pack-recursion", "input.cpp")],
                &["provenance.txt"],
            ),
            (
                "rust-ice",
                &[("heck-title-113846", "input.rs")],
                &["PROVENANCE"],
            ),
            ("go-ice", &[("bufio-54537", "input.go")], &["PROVENANCE"]),
            (
                "python-crash",
                &[("textwrap-segv", "input.py")],
                &["PROVENANCE"],
            ),
            (
                "ts-crash",
                &[("superstruct-51623", "input.ts")],
                &["PROVENANCE"],
            ),
            (
                "java-crash",
                &[("javac17-lambda-local-subclass", "input.java")],
                &["provenance.txt"],
            ),
        ];
        for (suite, cases, extras) in layouts {
            let root = dir.path().join(suite);
            fs::create_dir_all(&root).unwrap();
            fs::write(root.join("README.md"), "# suite").unwrap();
            for (case, input) in cases {
                case_in(&root, case, input, sh);
                for extra in extras {
                    fs::write(root.join(case).join(extra), "where it comes from").unwrap();
                }
            }
            if suite == "c-ice-large" {
                let gen = root.join("gen");
                fs::create_dir_all(gen.join("shim16")).unwrap();
                for f in ["make-case.sh", "hunt.sh", "oracle.sh.in"] {
                    fs::write(gen.join(f), sh).unwrap();
                }
                fs::write(gen.join("shim16/stdio.h"), "int printf();").unwrap();
            }
            if suite == "ts-crash" {
                fs::write(root.join("syntax_ok.js"), "process.exit(0)").unwrap();
            }
            let found = discover(&root).unwrap();
            let got: Vec<(String, String, &str)> = found
                .iter()
                .map(|c| {
                    (
                        c.name.clone(),
                        c.input.file_name().unwrap().to_string_lossy().into_owned(),
                        c.language(),
                    )
                })
                .collect();
            let want: Vec<(String, String, &str)> = cases
                .iter()
                .map(|(case, input)| {
                    let lang = language_of(Path::new(input));
                    (case.to_string(), input.to_string(), lang)
                })
                .collect();
            assert_eq!(got, want, "{suite}");
            assert!(
                found.iter().all(|c| c.oracle.ends_with("oracle.sh")),
                "{suite}"
            );
            let list = listing(&found);
            assert_eq!(list.lines().count(), cases.len(), "{list}");
            assert!(list.contains(" chars, 29 bytes | oracle.sh"), "{list}");
        }
        assert_eq!(
            ["c", "cpp", "rust", "go", "python", "typescript", "java"].map(|l| l.to_string()),
            ["x.c", "x.cpp", "x.rs", "x.go", "x.py", "x.ts", "x.java"]
                .map(|f| language_of(Path::new(f)).to_string())
        );
    }

    #[test]
    fn suites_are_resolved_by_name_in_shared_suites() {
        let dir = Scratch::new("resolve").unwrap();
        // root = <dir>/wt/repo, shared = <dir>/shared (worktrees are one level deeper).
        let root = dir.path().join("wt/repo");
        fs::create_dir_all(root.join("fixtures")).unwrap();
        for s in ["c-ice", "go-ice"] {
            fs::create_dir_all(dir.path().join("shared/suites").join(s)).unwrap();
        }
        let (name, path) = resolve_suite(&root, "go-ice").unwrap();
        assert_eq!(
            (name.as_str(), path),
            ("go-ice", dir.path().join("shared/suites/go-ice"))
        );
        assert_eq!(
            resolve_suite(&root, "fixtures").unwrap().1,
            root.join("fixtures")
        );
        let own = dir.path().join("mine");
        fs::create_dir_all(&own).unwrap();
        assert_eq!(
            resolve_suite(&root, &own.to_string_lossy()).unwrap().0,
            "mine"
        );
        let err = resolve_suite(&root, "nope").unwrap_err().to_string();
        assert!(err.contains("(c-ice, go-ice)"), "{err}");
    }
}
