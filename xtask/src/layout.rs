//! Checks of the code's layout, run by `cargo test`: no import circle between the modules
//! of any crate, no hand-written `.rs` file over [`MAX_LINES`] lines, and ARCHITECTURE.md's
//! API boundary and paths true of the repository.
//!
//! The import graph is read from the sources, not from the compiler: every `crate::`,
//! `super::` and `self::` path (in `use` declarations and in code) is resolved to the
//! module it names, items re-exported by the crate root (`pub use m::Item`) to the module
//! that defines them. An edge from module `a::x` to `b::y` is recorded between the
//! siblings `a` and `b` below their common ancestor. Paths into an ancestor (a submodule
//! using its parent's items, `use super::*`) are the usual facade pattern and are not
//! edges; `#[cfg(test)]` modules may import from anywhere and are skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Longest hand-written Rust file allowed, in lines.
pub const MAX_LINES: usize = 800;

/// Files allowed over [`MAX_LINES`], each with the reason. Remove an entry once its file
/// is split.
pub const LONG_FILE_EXCEPTIONS: &[(&str, &str)] = &[];

/// A module of a crate, as its path below the crate root (`[]` is the root).
type ModPath = Vec<String>;

/// One crate's sources: module path -> text (test modules removed).
pub fn crate_modules(src: &Path, root_file: &str) -> BTreeMap<ModPath, String> {
    let mut out = BTreeMap::new();
    collect(src, &src.join(root_file), Vec::new(), &mut out);
    out
}

fn collect(dir: &Path, file: &Path, path: ModPath, out: &mut BTreeMap<ModPath, String>) {
    let Ok(text) = fs::read_to_string(file) else {
        return;
    };
    let (text, children) = strip_tests(&text);
    // Children of `a.rs` or `a/mod.rs` live in `a/`; of the root, in the root's folder.
    let child_dir = match file.file_name().and_then(|n| n.to_str()) {
        Some("mod.rs" | "lib.rs" | "main.rs" | "tests.rs")
            if path.is_empty() || file.ends_with("mod.rs") =>
        {
            file.parent().unwrap_or(dir).to_path_buf()
        }
        _ => file.with_extension(""),
    };
    for child in children {
        let candidates = [
            child_dir.join(format!("{child}.rs")),
            child_dir.join(&child).join("mod.rs"),
        ];
        if let Some(f) = candidates.iter().find(|f| f.is_file()) {
            let mut p = path.clone();
            p.push(child);
            collect(dir, f, p, out);
        }
    }
    out.insert(path, text);
}

/// The text without comments and `#[cfg(test)]` items, and the names of the non-test
/// modules it declares in other files (`mod name;`).
pub fn strip_tests(text: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut children = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t.starts_with("//") {
            continue;
        }
        if t == "#[cfg(test)]" {
            // Skip the item: one line (`mod x;`, `use ...;`) or a block up to its `}`.
            let Some(item) = lines.next() else { break };
            let indent = item.len() - item.trim_start().len();
            if item.trim_end().ends_with('{') {
                let close = format!("{}}}", &item[..indent]);
                for l in lines.by_ref() {
                    if l.trim_end() == close {
                        break;
                    }
                }
            }
            continue;
        }
        let code = line.split(" //").next().unwrap_or(line);
        if let Some(name) = t
            .strip_prefix("mod ")
            .or_else(|| t.strip_prefix("pub mod "))
            .or_else(|| t.strip_prefix("pub(crate) mod "))
            .and_then(|r| r.strip_suffix(';'))
        {
            children.push(name.trim().to_string());
        }
        out.push_str(code);
        out.push('\n');
    }
    (out, children)
}

/// Every `crate::`/`super::`/`self::` path in `text`, `use` groups expanded.
pub fn paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // `use` declarations, which may span lines and nest braces.
    let mut rest = text;
    while let Some(i) = find_use(rest) {
        let decl = &rest[i..];
        let end = decl.find(';').unwrap_or(decl.len());
        let body = decl[..end]
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ");
        let body = body
            .trim_start_matches("pub ")
            .trim_start_matches("use")
            .trim();
        for p in expand(body) {
            if matches!(
                p.first().map(String::as_str),
                Some("crate" | "super" | "self")
            ) {
                out.push(p);
            }
        }
        rest = &decl[end..];
    }
    // Paths in code: `crate::x::y(..)`, `super::z`.
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = text[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '{') {
                continue; // part of a longer path or of a `use` group handled above
            }
            let path: String = text[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let segs: Vec<String> = path
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            out.push(segs);
        }
    }
    out
}

/// Start of the next `use` declaration (at the start of a line, after an optional `pub`).
fn find_use(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let lead = line.len() - t.len();
        for prefix in ["use ", "pub use ", "pub(crate) use ", "pub(super) use "] {
            if t.starts_with(prefix) {
                return Some(offset + lead);
            }
        }
        offset += line.len();
    }
    None
}

/// `a::{b, c::{d, e}}` -> `[a, b]`, `[a, c, d]`, `[a, c, e]` (`as` renames dropped).
pub fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    expand_into(&tree, Vec::new(), &mut out);
    out
}

fn expand_into(tree: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = &tree[..open];
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut p = prefix;
        p.extend(segments(head));
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_into(&inner[start..i], p.clone(), out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand_into(&inner[start..], p, out);
    } else if !tree.is_empty() {
        let mut p = prefix;
        p.extend(segments(tree.split(" as ").next().unwrap_or(tree)));
        out.push(p);
    }
}

fn segments(s: &str) -> Vec<String> {
    s.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "*")
        .map(str::to_string)
        .collect()
}

/// Items the crate root re-exports: name -> defining module (`pub use m::{A, B};`).
fn root_reexports(root: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in root.lines() {
        if let Some(rest) = line.trim().strip_prefix("pub use ") {
            for p in expand(rest.trim_end_matches(';')) {
                if p.len() >= 2 && p[0] != "crate" {
                    let name = p.last().cloned().unwrap_or_default();
                    out.insert(name, p[0].clone());
                }
            }
            // `pub use m::{generate as generate_tables}`: the new name too.
            for part in rest.split([',', '{', '}']) {
                if let Some((_, alias)) = part.split_once(" as ") {
                    let module = rest.split("::").next().unwrap_or("").trim().to_string();
                    out.insert(alias.trim().trim_end_matches(';').to_string(), module);
                }
            }
        }
    }
    out
}

/// The module a path used in module `from` names (the longest module prefix).
fn resolve(
    from: &ModPath,
    path: &[String],
    modules: &BTreeSet<ModPath>,
    reexports: &BTreeMap<String, String>,
) -> Option<ModPath> {
    let mut base: ModPath = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self") => {
            base = from.clone();
            rest = &path[1..];
        }
        Some("super") => {
            base = from.clone();
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    if base.is_empty() {
        if let Some(first) = rest.first() {
            let as_module: ModPath = vec![first.clone()];
            if !modules.contains(&as_module) {
                if let Some(m) = reexports.get(first) {
                    return Some(vec![m.clone()]);
                }
            }
        }
    }
    let mut best = base.clone();
    let mut cur = base;
    for seg in rest {
        cur.push(seg.clone());
        if modules.contains(&cur) {
            best = cur.clone();
        } else {
            break;
        }
    }
    Some(best)
}

/// Sibling-level import edges of one crate: (from, to), both below the same parent.
pub fn import_edges(modules: &BTreeMap<ModPath, String>) -> BTreeSet<(ModPath, ModPath)> {
    let names: BTreeSet<ModPath> = modules.keys().cloned().collect();
    let reexports = modules
        .get(&Vec::new())
        .map(|r| root_reexports(r))
        .unwrap_or_default();
    let mut edges = BTreeSet::new();
    for (from, text) in modules {
        for path in paths(text) {
            let Some(to) = resolve(from, &path, &names, &reexports) else {
                continue;
            };
            // Into an ancestor (or itself): the facade pattern, not an edge.
            if to.len() <= from.len() && from[..to.len()] == to[..] {
                continue;
            }
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common >= from.len() {
                continue; // a parent using its own submodule
            }
            edges.insert((from[..=common].to_vec(), to[..=common].to_vec()));
        }
    }
    edges
}

/// An import circle, if any: the modules on it, the first repeated at the end.
pub fn find_cycle(edges: &BTreeSet<(ModPath, ModPath)>) -> Option<Vec<ModPath>> {
    let mut graph: BTreeMap<&ModPath, Vec<&ModPath>> = BTreeMap::new();
    for (a, b) in edges {
        graph.entry(a).or_default().push(b);
    }
    // Iterative DFS with colours: 1 = on the stack, 2 = done.
    let mut colour: BTreeMap<&ModPath, u8> = BTreeMap::new();
    for &start in graph.keys() {
        if colour.contains_key(start) {
            continue;
        }
        let mut stack: Vec<(&ModPath, usize)> = vec![(start, 0)];
        colour.insert(start, 1);
        while let Some((node, i)) = stack.pop() {
            let next = graph.get(node).and_then(|n| n.get(i)).copied();
            let Some(next) = next else {
                colour.insert(node, 2);
                continue;
            };
            stack.push((node, i + 1));
            match colour.get(next) {
                Some(1) => {
                    let at = stack.iter().position(|(n, _)| *n == next).unwrap_or(0);
                    let mut cycle: Vec<ModPath> =
                        stack[at..].iter().map(|(n, _)| (*n).clone()).collect();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    colour.insert(next, 1);
                    stack.push((next, 0));
                }
            }
        }
    }
    None
}

/// The crates of the workspace: (name, source folder, root file).
pub fn workspace_crates(root: &Path) -> Vec<(String, PathBuf, &'static str)> {
    let mut out = Vec::new();
    for (dir, file) in [
        ("crates/tree/src", "lib.rs"),
        ("crates/proc/src", "lib.rs"),
        ("crates/reduce/src", "lib.rs"),
        ("crates/cli/src", "main.rs"),
        ("xtask/src", "main.rs"),
        ("tests", "tests.rs"),
    ] {
        out.push((dir.to_string(), root.join(dir), file));
    }
    out
}

/// The names a library exports at its root (`lib.rs`): items declared `pub` at the top level
/// and the names of its `pub use` declarations (the new name of an `as` rename), sorted.
pub fn root_pub_names(lib_rs: &str) -> Vec<String> {
    let mut names = std::collections::BTreeSet::new();
    let mut rest = lib_rs;
    while let Some(at) = rest
        .find("\npub ")
        .map(|i| i + 1)
        .or_else(|| rest.starts_with("pub ").then_some(0))
    {
        let decl = &rest[at + "pub ".len()..];
        if let Some(tree) = decl.strip_prefix("use ") {
            let end = tree.find(';').unwrap_or(tree.len());
            let tree: String = tree[..end].split_whitespace().collect::<Vec<_>>().join(" ");
            for leaf in tree
                .split([',', '{', '}'])
                .map(str::trim)
                .filter(|l| !l.is_empty())
            {
                let name = match leaf.split_once(" as ") {
                    Some((_, alias)) => alias.trim(),
                    None => leaf.rsplit("::").next().unwrap_or(leaf).trim(),
                };
                if !name.is_empty() && !name.ends_with("::") {
                    names.insert(name.to_string());
                }
            }
        } else {
            let mut words = decl.split(|c: char| !(c.is_alphanumeric() || c == '_'));
            let kind = words.next().unwrap_or("");
            let kind = if kind == "unsafe" {
                words.next().unwrap_or("")
            } else {
                kind
            };
            if let Some(name) = words.find(|w| !w.is_empty()) {
                if matches!(
                    kind,
                    "fn" | "struct" | "enum" | "mod" | "const" | "static" | "type" | "trait"
                ) {
                    names.insert(name.to_string());
                }
            }
        }
        rest = &rest[at + 4..];
    }
    names.into_iter().collect()
}

/// The API boundary ARCHITECTURE.md states: package -> names, from its lines
/// "- `package`: `name`, `name`, ..." below the line that starts with "**API boundary:**".
pub fn documented_api(architecture: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let lines = architecture
        .lines()
        .skip_while(|l| !l.starts_with("**API boundary:**"))
        .skip_while(|l| !l.starts_with("- `"));
    for line in lines {
        let Some(entry) = line.strip_prefix("- `") else {
            break;
        };
        let Some((package, names)) = entry.split_once("`:") else {
            break;
        };
        let mut names: Vec<String> = names
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        names.sort();
        out.insert(package.to_string(), names);
    }
    out
}

/// The paths ARCHITECTURE.md names in backquotes outside its code blocks: words without a
/// space, a leading dot or `$` that end in `/` or in a source file's extension, or start with
/// `crates/` (a directory). `<name>` and `*` stand for any part of one name.
pub fn documented_paths(doc: &str) -> Vec<String> {
    const EXTENSIONS: [&str; 6] = [".rs", ".md", ".toml", ".tsv", ".txt", ".sh"];
    let mut out = Vec::new();
    let mut fenced = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for word in line.split('`').skip(1).step_by(2) {
            // `.rs` alone is a kind of file, `$TMPDIR/x/` outside the repository.
            if word.starts_with(['.', '$']) || word.contains(char::is_whitespace) {
                continue;
            }
            if word.ends_with('/') || EXTENSIONS.iter().any(|e| word.ends_with(e)) {
                out.push(word.to_string());
            } else if word.starts_with("crates/") {
                out.push(format!("{word}/"));
            }
        }
    }
    out
}

/// `path` (relative, `/`-separated, a directory ending in `/`) ends with the names of
/// `pattern` (see [`documented_paths`]), and is a directory if `pattern` is.
pub fn path_matches(pattern: &str, path: &str) -> bool {
    if pattern.ends_with('/') != path.ends_with('/') {
        return false;
    }
    let names: Vec<&str> = pattern.trim_end_matches('/').split('/').collect();
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    parts.len() >= names.len()
        && names
            .iter()
            .zip(&parts[parts.len() - names.len()..])
            .all(|(n, p)| glob(n.as_bytes(), p.as_bytes()))
}

/// `name` matches `pattern`, in which `*` and `<...>` match any run of bytes.
fn glob(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|i| glob(rest, &name[i..])),
        Some((b'<', _)) => match pattern.iter().position(|&b| b == b'>') {
            Some(end) => (1..=name.len()).any(|i| glob(&pattern[end + 1..], &name[i..])),
            None => name.first() == Some(&b'<') && glob(&pattern[1..], &name[1..]),
        },
        Some((c, rest)) => name.first() == Some(c) && glob(rest, &name[1..]),
    }
}

/// Every file and directory below `dir` except build output and hidden ones, relative to
/// `root`, `/`-separated, directories ending in `/`.
pub fn repository_paths(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name == "target" || name.starts_with('.') {
            continue;
        }
        let rel = path.strip_prefix(root).unwrap_or(&path).to_string_lossy();
        if path.is_dir() {
            out.push(format!("{rel}/"));
            repository_paths(root, &path, out);
        } else {
            out.push(rel.into_owned());
        }
    }
}

/// Every `.rs` file below `dir` except build output.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The workspace, or another checkout named by `XTASK_LAYOUT_ROOT`.
    fn root() -> PathBuf {
        if let Some(dir) = std::env::var_os("XTASK_LAYOUT_ROOT") {
            return PathBuf::from(dir);
        }
        let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
        xtask.parent().unwrap_or(xtask).to_path_buf()
    }

    fn show(p: &ModPath) -> String {
        if p.is_empty() {
            "crate".to_string()
        } else {
            p.join("::")
        }
    }

    #[test]
    fn no_import_circle_in_any_crate() {
        let mut checked = 0;
        for (name, src, root_file) in workspace_crates(&root()) {
            let modules = crate_modules(&src, root_file);
            assert!(
                modules.len() > 1,
                "{name}: no modules found in {}",
                src.display()
            );
            checked += modules.len();
            if let Some(cycle) = find_cycle(&import_edges(&modules)) {
                let shown: Vec<String> = cycle.iter().map(show).collect();
                panic!(
                    "{name}: import circle {}; move what both need into a module below them",
                    shown.join(" -> ")
                );
            }
        }
        assert!(checked > 30, "only {checked} modules found");
    }

    #[test]
    fn no_file_over_the_line_limit() {
        let root = root();
        let mut files = Vec::new();
        for dir in ["crates", "xtask", "tests"] {
            rust_files(&root.join(dir), &mut files);
        }
        assert!(files.len() > 30, "only {} files found", files.len());
        let mut long = Vec::new();
        for file in files {
            let rel = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .to_string_lossy()
                .into_owned();
            let lines = fs::read_to_string(&file)
                .map(|t| t.lines().count())
                .unwrap_or(0);
            let excepted = LONG_FILE_EXCEPTIONS.iter().any(|(f, _)| *f == rel);
            if lines > MAX_LINES && !excepted {
                long.push(format!("{rel}: {lines} lines"));
            }
        }
        assert!(
            long.is_empty(),
            "files over {MAX_LINES} lines (split them by concern, or add an exception with a \
             reason to LONG_FILE_EXCEPTIONS in xtask/src/layout.rs):\n{}",
            long.join("\n")
        );
    }

    /// ARCHITECTURE.md's API boundary names exactly what each library exports at its root.
    #[test]
    fn the_documented_api_is_what_the_libraries_export() {
        let root = root();
        let doc = fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        let documented = documented_api(&doc);
        let mut exported = BTreeMap::new();
        for (package, dir) in [
            ("treedd-tree", "crates/tree"),
            ("treedd-proc", "crates/proc"),
            ("treedd-reduce", "crates/reduce"),
        ] {
            let lib = fs::read_to_string(root.join(dir).join("src/lib.rs")).unwrap();
            exported.insert(package.to_string(), root_pub_names(&lib));
        }
        assert_eq!(
            documented, exported,
            "ARCHITECTURE.md's API boundary (left) differs from the crates' root `pub` items \
             (right): export only what the boundary names, or update it"
        );
    }

    /// Every path ARCHITECTURE.md names exists: the map stays true when files move.
    #[test]
    fn every_path_the_architecture_names_exists() {
        let root = root();
        let doc = fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        let mut paths = Vec::new();
        repository_paths(&root, &root, &mut paths);
        let missing: Vec<String> = documented_paths(&doc)
            .into_iter()
            .filter(|d| !paths.iter().any(|p| path_matches(d, p)))
            .collect();
        assert!(
            missing.is_empty(),
            "ARCHITECTURE.md names paths that do not exist: {missing:?}"
        );
    }

    #[test]
    fn documented_paths_are_read_and_matched() {
        let doc = "`a.rs` (`Judge::test`, `--grammar DIR`, `.rs`, `$TMPDIR/t/`)\n```\n`in/block.rs`\n```\n`crates/x` `d/` `lang/<name>.rs` `s/*.sh`";
        assert_eq!(
            documented_paths(doc),
            ["a.rs", "crates/x/", "d/", "lang/<name>.rs", "s/*.sh"]
        );
        assert!(path_matches("a.rs", "crates/x/src/a.rs"));
        assert!(!path_matches("a.rs", "crates/x/src/ba.rs"));
        assert!(path_matches("lang/<name>.rs", "src/lang/c.rs"));
        assert!(!path_matches("lang/<name>.rs", "src/lang/.rs"));
        assert!(!path_matches("lang/<name>.rs", "src/lang/c/d.rs"));
        assert!(path_matches("s/*.sh", "x/s/run.sh"));
        assert!(path_matches("d/", "x/d/"));
        assert!(!path_matches("d/", "x/d"));
        assert!(!path_matches("crates/x/", "crates/y/"));
    }

    #[test]
    fn root_pub_names_are_read() {
        let lib = "//! docs\nmod a;\npub mod dev {\n    pub use crate::a::X;\n}\npub use a::{b::C, load as load_it};\npub use d::E;\npub fn f() {}\npub(crate) use a::G;\n";
        assert_eq!(root_pub_names(lib), ["C", "E", "dev", "f", "load_it"]);
        let doc = "- `z`: `Z`\n**API boundary:** the libraries\nexport:\n- `p`: `B`, `a` (a fn)\n- `q`: `C`\n\nmore";
        let api = documented_api(doc);
        assert_eq!(api["p"], ["B", "a"]);
        assert_eq!(api["q"], ["C"]);
    }

    #[test]
    fn use_groups_are_expanded() {
        assert_eq!(
            expand("crate::{parse, a::{B, c as d}, Error}"),
            [
                vec!["crate", "parse"],
                vec!["crate", "a", "B"],
                vec!["crate", "a", "c"],
                vec!["crate", "Error"],
            ]
        );
        let text = "use super::x::Y;\npub(super) use crate::{m, n::*};\nfn f() { crate::k::g(); a::crate_like(); }\n";
        let p = paths(text);
        assert!(
            p.contains(&vec!["super".into(), "x".into(), "Y".into()]),
            "{p:?}"
        );
        assert!(p.contains(&vec!["crate".into(), "m".into()]), "{p:?}");
        assert!(p.contains(&vec!["crate".into(), "n".into()]), "{p:?}");
        assert!(
            p.contains(&vec!["crate".into(), "k".into(), "g".into()]),
            "{p:?}"
        );
    }

    #[test]
    fn test_modules_and_comments_are_skipped() {
        let text = "use crate::a;\n/// see [`crate::b`]\nfn f() {}\n\n#[cfg(test)]\nmod tests {\n    use crate::c;\n    fn g() {\n    }\n}\nmod d;\n#[cfg(test)]\nmod e;\n";
        let (code, children) = strip_tests(text);
        assert!(
            code.contains("crate::a") && !code.contains("crate::b") && !code.contains("crate::c")
        );
        assert_eq!(children, ["d"]);
    }

    /// The checker itself finds a circle, through a re-exported item and `super::`.
    #[test]
    fn a_planted_circle_is_found() {
        let m = |p: &str| -> ModPath {
            p.split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        };
        let mut modules = BTreeMap::new();
        modules.insert(
            m(""),
            "mod a;\nmod b;\nmod c;\npub use c::Thing;\n".to_string(),
        );
        modules.insert(m("a"), "use crate::b::f;\nuse crate::Thing;\n".to_string());
        modules.insert(m("b"), "mod inner;\n".to_string());
        modules.insert(
            m("b::inner"),
            "use super::super::c::g;\nuse super::h;\n".to_string(),
        );
        modules.insert(m("c"), "fn x() { crate::a::y() }\n".to_string());
        let edges = import_edges(&modules);
        assert!(
            edges.contains(&(m("a"), m("c"))),
            "re-exported item: {edges:?}"
        );
        assert!(
            edges.contains(&(m("b"), m("c"))),
            "lifted to siblings: {edges:?}"
        );
        assert!(
            !edges
                .iter()
                .any(|(f, t)| f == &m("b::inner") && t == &m("b")),
            "facade"
        );
        let cycle = find_cycle(&edges).expect("a -> c -> a");
        assert_eq!(cycle.first(), cycle.last());
        assert!(
            cycle.contains(&m("a")) && cycle.contains(&m("c")),
            "{cycle:?}"
        );
        // Without c -> a there is none.
        modules.insert(m("c"), "fn x() {}\n".to_string());
        assert_eq!(find_cycle(&import_edges(&modules)), None);
    }
}
