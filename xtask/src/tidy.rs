//! Checks of the source text, run by `cargo test` (rust-analyzer's `xtask/src/tidy.rs` does
//! the same): comments and strings of every `.rs` file of the repository describe the code as
//! it is, so they name no tracker issue (a reader of the repository cannot open it) and no path
//! outside the repository into the shared folder beside it (tests that need the shared suites
//! find them with one helper, `bench::shared_dir`, or `TREEDD_SUITES`); every `unsafe` has
//! a `// SAFETY:` comment just above it.

use std::fs;
use std::path::Path;

use crate::layout::rust_files;

/// The offences of one file's text: (line number, what is wrong).
/// `input`: a file that is data for treedd (under `fixtures/` or `test_data/`), not our code:
/// its `unsafe` is not ours to justify.
fn offences(text: &str, input: bool) -> Vec<(usize, &'static str)> {
    // Spelled in two pieces so that this file passes its own check.
    let outside = concat!("..", "/shared");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if names_an_issue(line) {
            out.push((i + 1, "names a tracker issue; describe the code instead"));
        }
        if !input
            && is_unsafe_code(line)
            && !lines_before(text, i, 8).any(|l| l.contains("SAFETY:"))
        {
            out.push((i + 1, "unsafe without a `// SAFETY:` comment just above"));
        }
        if line.contains(outside) {
            out.push((
                i + 1,
                "points outside the repository; use the suites helper or describe it",
            ));
        }
    }
    out
}

/// An `unsafe` block, function, impl or trait (not the word in a comment or a string).
fn is_unsafe_code(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or(line);
    let unquoted: String = code.split('"').step_by(2).collect();
    ["unsafe {", "unsafe fn", "unsafe impl", "unsafe trait"]
        .iter()
        .any(|u| unquoted.contains(u))
}

/// The `n` lines before line `i` (0-based), nearest first.
fn lines_before(text: &str, i: usize, n: usize) -> impl Iterator<Item = &str> {
    let before: Vec<&str> = text.lines().take(i).collect();
    before.into_iter().rev().take(n)
}

/// `issue` followed by a space and a digit, in any case.
fn names_an_issue(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut from = 0;
    while let Some(i) = lower[from..].find("issue") {
        let at = from + i + "issue".len();
        if bytes.get(at) == Some(&b' ') && bytes.get(at + 1).is_some_and(u8::is_ascii_digit) {
            return true;
        }
        from = at;
    }
    false
}

/// Every `.rs` file of the repository (build output and hidden folders excepted).
fn repository_files(root: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_name_no_issue_no_outside_path_and_justify_unsafe() {
        let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = xtask.parent().unwrap_or(xtask);
        let files = repository_files(root);
        assert!(files.len() > 100, "only {} files found", files.len());
        let mut bad = Vec::new();
        for file in files {
            let text = fs::read_to_string(&file).unwrap_or_default();
            let rel = file.strip_prefix(root).unwrap_or(&file);
            let input = rel
                .components()
                .any(|c| c.as_os_str() == "fixtures" || c.as_os_str() == "test_data");
            for (line, why) in offences(&text, input) {
                bad.push(format!("{}:{line}: {why}", rel.display()));
            }
        }
        assert!(bad.is_empty(), "tidy:\n{}", bad.join("\n"));
    }

    #[test]
    fn the_checks_find_what_they_look_for() {
        let planted = format!(
            "// See {} 12.\nlet p = \"{}/suites\";\n",
            "ISSUE",
            concat!("..", "/shared")
        );
        let found: Vec<usize> = offences(&planted, false).iter().map(|(l, _)| *l).collect();
        assert_eq!(found, [1, 2]);
        assert!(!names_an_issue("// issues 3 and 4"));
        let code = concat!("let x = ", "unsafe", " { f() };\n");
        assert_eq!(offences(code, false).len(), 1);
        let justified = format!("// SAFETY: f has no preconditions.\n{code}");
        assert!(offences(&justified, false).is_empty());
        assert!(offences("// the issue: a race\nlet x = \"shared/suites\";\n", false).is_empty());
    }
}
