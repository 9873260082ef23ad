//! Grammars loaded at run time (`--grammar DIR`).
//!
//! DIR is a tree-sitter grammar as editors ship it: `src/parser.c`, optionally
//! `src/scanner.c` (or `scanner.cc`), `src/grammar.json` and `src/node-types.json`. Its C
//! sources are compiled once with the system C compiler (`$CC`, else `cc`) into a shared
//! library under a per-user cache directory, keyed by a SHA3 hash of the sources and the
//! compiler, so a second run only loads it. A prebuilt shared library (`*.so`, `*.dylib`)
//! beside the two JSON files (or given as the path itself) is loaded as it is.
//!
//! The tables are derived from the JSON files with the same code that `cargo xtask
//! codegen` runs for the built-in languages (`replace::generate`). Optional
//! `overrides.toml`, `compatible.txt`, `flatten.txt` and `passes.toml` next to the JSON
//! files (or in `DIR/treedd/`) play the role of the hand-written files under
//! `grammars/<lang>/`; without `compatible.txt`, every supertype of node-types.json
//! (`_expression`, ...) is one group of kinds that may stand for each other, and without
//! `passes.toml` the kinds named `*identifier` are renamed.
//!
//! A loaded grammar lives for the rest of the process: its library is never unloaded and
//! its data is leaked once, so that [`Lang::Loaded`] stays a `Copy` handle.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha3::{Digest, Sha3_256};

use crate::lang::{Grammar, LangData, Spec};
use crate::{Error, Lang};

/// What [`load`] did.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub lang: Lang,
    /// The shared library that was loaded.
    pub library: PathBuf,
    /// True when the sources were compiled by this call (false: cache hit or prebuilt).
    pub compiled: bool,
}

/// The per-user cache directory for compiled grammars: `$TREEDD_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/treedd`, else `$HOME/.cache/treedd`.
pub fn default_cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("TREEDD_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("treedd");
    }
    match var("HOME") {
        Some(home) => PathBuf::from(home).join(".cache/treedd"),
        None => std::env::temp_dir().join("treedd-cache"),
    }
}

/// Where the parts of a grammar are.
struct Layout {
    /// Directory of grammar.json and node-types.json (and the C sources, if any).
    src: PathBuf,
    /// Directories searched for the optional hand-written files.
    extra: Vec<PathBuf>,
    library: Source,
}

enum Source {
    /// parser.c plus an optional scanner.c / scanner.cc.
    C(Vec<PathBuf>),
    Prebuilt(PathBuf),
}

fn is_library(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("so" | "dylib" | "dll")
    )
}

fn layout(path: &Path) -> Result<Layout, Error> {
    let not = |what: &str| Error::NotAGrammar {
        path: path.to_path_buf(),
        what: what.to_string(),
    };
    if path.is_file() && is_library(path) {
        let dir = path.parent().unwrap_or(Path::new("."));
        let src = [dir.join("src"), dir.to_path_buf()]
            .into_iter()
            .find(|d| d.join("grammar.json").is_file())
            .ok_or_else(|| not("no grammar.json beside the library"))?;
        return Ok(Layout {
            extra: vec![src.clone(), dir.join("treedd")],
            src,
            library: Source::Prebuilt(path.to_path_buf()),
        });
    }
    if !path.is_dir() {
        return Err(not("not a directory"));
    }
    let src = [path.join("src"), path.to_path_buf()]
        .into_iter()
        .find(|d| d.join("grammar.json").is_file())
        .ok_or_else(|| not("no src/grammar.json"))?;
    if !src.join("node-types.json").is_file() {
        return Err(not("no node-types.json beside grammar.json"));
    }
    let extra = vec![src.clone(), path.join("treedd")];
    if src.join("parser.c").is_file() {
        let mut files = vec![src.join("parser.c")];
        for scanner in ["scanner.c", "scanner.cc"] {
            if src.join(scanner).is_file() {
                files.push(src.join(scanner));
            }
        }
        return Ok(Layout {
            src,
            extra,
            library: Source::C(files),
        });
    }
    let mut libs: Vec<PathBuf> = [path, src.as_path()]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|entries| entries.flatten().map(|e| e.path()))
        .filter(|p| p.is_file() && is_library(p))
        .collect();
    libs.sort();
    match libs.into_iter().next() {
        Some(lib) => Ok(Layout {
            src,
            extra,
            library: Source::Prebuilt(lib),
        }),
        None => Err(not("no src/parser.c and no prebuilt shared library")),
    }
}

fn read(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|err| Error::Io {
        path: path.to_path_buf(),
        err,
    })
}

/// Compile (once, cached in `cache`) and load the grammar at `path`, and derive its tables.
pub fn load(path: &Path, cache: &Path) -> Result<Loaded, Error> {
    let layout = layout(path)?;
    let grammar_json = read(&layout.src.join("grammar.json"))?;
    let node_types_json = read(&layout.src.join("node-types.json"))?;
    let name = serde_json::from_str::<serde_json::Value>(&grammar_json)
        .ok()
        .and_then(|g| g["name"].as_str().map(str::to_string))
        .ok_or_else(|| Error::NotAGrammar {
            path: path.to_path_buf(),
            what: "grammar.json has no name".to_string(),
        })?;
    let (library, compiled) = match &layout.library {
        Source::Prebuilt(lib) => (lib.clone(), false),
        Source::C(files) => compile(&name, files, &layout.src, cache)?,
    };
    let ts = open(&library, &name)?;

    let optional = |file: &str| -> Result<Option<String>, Error> {
        match layout
            .extra
            .iter()
            .map(|d| d.join(file))
            .find(|p| p.is_file())
        {
            Some(p) => read(&p).map(Some),
            None => Ok(None),
        }
    };
    let overrides = optional("overrides.toml")?.unwrap_or_default();
    let tables = crate::replace::generate(&crate::replace::GrammarSources {
        grammar_json: &grammar_json,
        node_types_json: &node_types_json,
        overrides_toml: &overrides,
    })
    .map_err(|what| Error::NotAGrammar {
        path: path.to_path_buf(),
        what,
    })?;
    let table = |name: &str| {
        tables
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("", |(_, t)| t.as_str())
    };
    let compatible = match optional("compatible.txt")? {
        Some(text) => text,
        None => crate::replace::supertype_groups(&node_types_json),
    };
    let flatten = optional("flatten.txt")?.unwrap_or_default();
    let passes = match optional("passes.toml")? {
        Some(text) => text,
        None => default_passes(&ts),
    };
    let injections = optional("injections.toml")?.unwrap_or_default();
    let data = LangData::new(Spec {
        name: &name,
        language: ts,
        replacements: table("replacements.tsv"),
        positions: table("positions.tsv"),
        compatible: &compatible,
        flatten: &flatten,
        passes: &passes,
        injections: &injections,
    })
    .map_err(|what| Error::NotAGrammar {
        path: path.to_path_buf(),
        what,
    })?;
    let grammar: &'static Grammar = Box::leak(Box::new(Grammar::new(
        Box::leak(name.into_boxed_str()),
        data,
    )));
    Ok(Loaded {
        lang: Lang::Loaded(grammar),
        library,
        compiled,
    })
}

/// The passes' data of a grammar without a `passes.toml`: every named kind whose name
/// ends in `identifier` is renamed in its own group; no literal, parameter or argument data.
fn default_passes(ts: &tree_sitter::Language) -> String {
    let mut kinds: Vec<&str> = (0..ts.node_kind_count() as u16)
        .filter(|&id| ts.node_kind_is_named(id) && ts.node_kind_is_visible(id))
        .filter_map(|id| ts.node_kind_for_id(id))
        .filter(|k| k.ends_with("identifier"))
        .collect();
    kinds.sort();
    kinds.dedup();
    let quoted: Vec<String> = kinds.iter().map(|k| format!("{k:?}")).collect();
    let mut out = format!("identifiers = [{}]\n", quoted.join(", "));
    for k in &quoted {
        out.push_str(&format!("[[groups]]\nkinds = [{k}]\n"));
    }
    out
}

/// The C compiler: `$CC` (or `$CXX` for a C++ scanner), else `cc` / `c++`.
fn compiler(cxx: bool) -> OsString {
    let (var, default) = if cxx { ("CXX", "c++") } else { ("CC", "cc") };
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| default.into())
}

/// Compile the sources into `cache/<name>-<hash>/<name>.so` unless it is there already.
fn compile(
    name: &str,
    files: &[PathBuf],
    src: &Path,
    cache: &Path,
) -> Result<(PathBuf, bool), Error> {
    let cxx = files
        .iter()
        .any(|f| f.extension().is_some_and(|e| e == "cc"));
    let cc = compiler(cxx);
    let flags = ["-shared", "-fPIC", "-O2", "-w"];
    let mut hash = Sha3_256::new();
    hash.update(cc.as_encoded_bytes());
    hash.update(flags.join(" "));
    hash.update(std::env::consts::ARCH);
    let mut headers: Vec<PathBuf> = std::fs::read_dir(src.join("tree_sitter"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    headers.sort();
    for f in files.iter().chain(&headers) {
        let bytes = std::fs::read(f).map_err(|err| Error::Io {
            path: f.clone(),
            err,
        })?;
        hash.update(f.file_name().unwrap_or_default().as_encoded_bytes());
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    let digest = hash.finalize();
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    let dir = cache.join("grammars").join(format!("{name}-{hex}"));
    let library = dir.join(format!("{name}.{}", std::env::consts::DLL_EXTENSION));
    if library.is_file() {
        return Ok((library, false));
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |err| Error::Io { path, err }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    // Compile next to the final name, then rename: concurrent runs never see half a file.
    let tmp = tempfile::Builder::new()
        .prefix(".compile-")
        .tempfile_in(&dir)
        .map_err(io(&dir))?;
    let mut cmd = Command::new(&cc);
    cmd.args(flags).arg("-I").arg(src).arg("-o").arg(tmp.path());
    for f in files {
        if cxx {
            let lang = if f.extension().is_some_and(|e| e == "cc") {
                "c++"
            } else {
                "c"
            };
            cmd.args(["-x", lang]);
        }
        cmd.arg(f);
    }
    let out = cmd.output().map_err(|err| Error::NoCompiler {
        compiler: cc.to_string_lossy().into_owned(),
        reason: err.to_string(),
    })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
        return Err(Error::Compile {
            compiler: cc.to_string_lossy().into_owned(),
            output: tail.into_iter().rev().collect::<Vec<_>>().join("\n"),
        });
    }
    let mut file = tmp.as_file();
    file.flush().map_err(io(&library))?;
    tmp.persist(&library).map_err(|e| Error::Io {
        path: library.clone(),
        err: e.error,
    })?;
    Ok((library, true))
}

/// Load the library (never closed) and call its `tree_sitter_<name>` function.
fn open(library: &Path, name: &str) -> Result<tree_sitter::Language, Error> {
    use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
    /// `const TSLanguage *tree_sitter_<name>(void)`: no arguments, returns a pointer to the
    /// grammar's static data.
    type LanguageFn = extern "C" fn() -> *const tree_sitter::ffi::TSLanguage;
    let fail = |reason: String| Error::Load {
        path: library.to_path_buf(),
        reason,
    };
    if library.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(fail("the path contains a NUL byte".into()));
    }
    // SAFETY: loading a tree-sitter grammar runs no initialisers beyond the C runtime's.
    let lib = unsafe { Library::open(Some(library), RTLD_NOW | RTLD_LOCAL) }.map_err(|e| {
        fail(match e {
            libloading::Error::DlOpenUnknown => "unknown error".to_string(),
            e => e.to_string(),
        })
    })?;
    let symbol = format!("tree_sitter_{}", name.replace('-', "_"));
    if symbol.contains('\0') {
        return Err(fail("bad grammar name".into()));
    }
    // SAFETY: a grammar's `tree_sitter_<name>` has the type `LanguageFn` and is safe to call
    // while the library is loaded, which is for the rest of the process (it is never closed).
    let function = unsafe { lib.get::<Option<LanguageFn>>(symbol.as_bytes()) }
        .ok()
        .and_then(|f| *f)
        .ok_or_else(|| fail(format!("no function {symbol} in the library")))?;
    std::mem::forget(lib);
    let ptr = function();
    if ptr.is_null() {
        return Err(fail(format!("{symbol}() returned null")));
    }
    // SAFETY: a non-null pointer from a grammar's language function, to its static TSLanguage.
    let language = unsafe { tree_sitter::Language::from_raw(ptr) };
    let abi = language.abi_version();
    let (min, max) = (
        tree_sitter::MIN_COMPATIBLE_LANGUAGE_VERSION,
        tree_sitter::LANGUAGE_VERSION,
    );
    if abi < min || abi > max {
        return Err(Error::Abi {
            path: library.to_path_buf(),
            abi,
            min,
            max,
        });
    }
    Ok(language)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry_grammar(dir_name: &str) -> PathBuf {
        // The grammar crates' sources sit beside tree-sitter's in the cargo registry.
        let home = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo"));
        let registry = home.join("registry/src");
        for index in std::fs::read_dir(&registry).unwrap().flatten() {
            let p = index.path().join(dir_name);
            if p.is_dir() {
                return p;
            }
        }
        panic!("{dir_name} is not in {}", registry.display());
    }

    #[test]
    fn errors_for_what_is_not_a_grammar() {
        let tmp = tempfile::tempdir().unwrap();
        let e = load(tmp.path(), tmp.path()).unwrap_err().to_string();
        assert!(
            e.contains("is not a tree-sitter grammar: no src/grammar.json"),
            "{e}"
        );
        let e = load(&tmp.path().join("nope"), tmp.path())
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a directory"), "{e}");
    }

    #[test]
    fn loads_a_grammar_crate_and_caches_it() {
        let dir = registry_grammar("tree-sitter-c-0.24.2");
        let cache = tempfile::tempdir().unwrap();
        let first = load(&dir, cache.path()).unwrap();
        assert!(first.compiled);
        let second = load(&dir, cache.path()).unwrap();
        assert!(!second.compiled);
        assert_eq!(first.library, second.library);
        assert_ne!(first.lang, second.lang);
        assert_eq!(first.lang.name(), "c");
        let src = b"int main(void) { return 1 + 2; }\n";
        let tree = crate::RTree::build(second.lang, src).unwrap();
        assert_eq!(tree.unparse(), src);
        assert_eq!(tree.error_count(), 0);
        // The same tables as the built-in C grammar (same derivation code).
        let builtin = crate::RTree::build(Lang::C, src).unwrap();
        assert_eq!(crate::dump(&tree), crate::dump(&builtin));
        // A prebuilt library with the two JSON files is loaded as it is.
        let pre = tempfile::tempdir().unwrap();
        for f in ["grammar.json", "node-types.json"] {
            std::fs::copy(dir.join("src").join(f), pre.path().join(f)).unwrap();
        }
        std::fs::copy(&first.library, pre.path().join("c.so")).unwrap();
        let prebuilt = load(pre.path(), cache.path()).unwrap();
        assert!(!prebuilt.compiled);
        assert_eq!(
            crate::RTree::build(prebuilt.lang, src)
                .unwrap()
                .error_count(),
            0
        );
    }

    #[test]
    fn compile_errors_and_missing_compilers_are_reported() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        std::fs::create_dir(&src).unwrap();
        std::fs::write(src.join("grammar.json"), r#"{"name": "bad", "rules": {}}"#).unwrap();
        std::fs::write(src.join("node-types.json"), "[]").unwrap();
        std::fs::write(src.join("parser.c"), "this is not C").unwrap();
        let e = load(tmp.path(), tmp.path()).unwrap_err().to_string();
        assert!(e.contains("could not compile"), "{e}");
    }

    #[test]
    fn unsupported_abi_versions_are_reported() {
        // A "grammar" whose language struct says ABI 99.
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        std::fs::create_dir(&src).unwrap();
        std::fs::write(
            src.join("grammar.json"),
            r#"{"name": "future", "rules": {}}"#,
        )
        .unwrap();
        std::fs::write(src.join("node-types.json"), "[]").unwrap();
        std::fs::write(
            src.join("parser.c"),
            "static unsigned int lang[1024] = {99};\n\
             const void *tree_sitter_future(void) { return lang; }\n",
        )
        .unwrap();
        let e = load(tmp.path(), tmp.path()).unwrap_err().to_string();
        assert!(e.contains("ABI version 99"), "{e}");
    }
}
