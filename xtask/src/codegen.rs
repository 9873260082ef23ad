//! `cargo xtask codegen [--check]`: regenerate the grammar tables under `grammars/<lang>/`
//! (minimal replacement strings and removable child positions) from the pinned grammar
//! crates' `src/grammar.json` and `src/node-types.json`, located with `cargo metadata`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

/// (directory under grammars/, grammar crate name, folder of the crate with grammar.json)
const GRAMMARS: &[(&str, &str, &str)] = &[
    ("c", "tree-sitter-c", "src"),
    ("cpp", "tree-sitter-cpp", "src"),
    ("javascript", "tree-sitter-javascript", "src"),
    ("typescript", "tree-sitter-typescript", "typescript/src"),
    ("java", "tree-sitter-java", "src"),
    ("rust", "tree-sitter-rust", "src"),
    ("python", "tree-sitter-python", "src"),
    ("go", "tree-sitter-go", "src"),
    ("html", "tree-sitter-html", "src"),
    ("css", "tree-sitter-css", "src"),
];

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => bail!("usage: cargo xtask codegen [--check]"),
    };
    let stale = generate(check)?;
    if check && !stale.is_empty() {
        bail!(
            "generated files are stale, run `cargo xtask codegen`: {}",
            stale.join(", ")
        );
    }
    Ok(())
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// Write (or with `check`, only compare) every generated file; returns the stale ones.
fn generate(check: bool) -> anyhow::Result<Vec<String>> {
    let root = workspace_root();
    let crates = grammar_crate_dirs(&root)?;
    let mut stale = Vec::new();
    for (dir, krate, src) in GRAMMARS {
        let crate_dir = crates
            .iter()
            .find(|(name, _)| name == krate)
            .map(|(_, path)| path)
            .with_context(|| format!("{krate} is not a dependency of the workspace"))?;
        let read = |p: PathBuf| {
            std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))
        };
        let grammar_json = read(crate_dir.join(src).join("grammar.json"))?;
        let node_types_json = read(crate_dir.join(src).join("node-types.json"))?;
        let overrides_toml = read(root.join("grammars").join(dir).join("overrides.toml"))?;
        let files = treedd_tree::dev::generate_tables(&treedd_tree::dev::GrammarSources {
            grammar_json: &grammar_json,
            node_types_json: &node_types_json,
            overrides_toml: &overrides_toml,
        })
        .map_err(|e| anyhow::anyhow!("{krate}: {e}"))?;
        for (name, contents) in files {
            let path = root.join("grammars").join(dir).join(name);
            if ensure_file_contents(&path, &contents, check)? {
                stale.push(format!("grammars/{dir}/{name}"));
            }
        }
    }
    Ok(stale)
}

/// rust-analyzer style: returns true if the file was stale (and rewrote it unless `check`).
fn ensure_file_contents(path: &Path, contents: &str, check: bool) -> anyhow::Result<bool> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return Ok(false);
    }
    if !check {
        eprintln!("updated {}", path.display());
        std::fs::write(path, contents).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(true)
}

/// The source directory of one of the grammar crates (for `bench micro`).
pub fn grammar_crate_dir(name: &str) -> anyhow::Result<PathBuf> {
    grammar_crate_dirs(&workspace_root())?
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, dir)| dir)
        .with_context(|| format!("{name} is not a dependency of the workspace"))
}

/// (package name, source directory) of the tree-sitter grammar crates.
fn grammar_crate_dirs(root: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(root)
        .output()
        .context("running cargo metadata")?;
    if !out.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).context("parsing cargo metadata")?;
    let mut dirs = Vec::new();
    for p in meta["packages"].as_array().into_iter().flatten() {
        let (Some(name), Some(manifest)) = (p["name"].as_str(), p["manifest_path"].as_str()) else {
            continue;
        };
        if GRAMMARS.iter().any(|(_, k, _)| *k == name) {
            if let Some(dir) = Path::new(manifest).parent() {
                dirs.push((name.to_string(), dir.to_path_buf()));
            }
        }
    }
    Ok(dirs)
}

#[cfg(test)]
mod tests {
    /// Fails when grammars/<lang>/*.tsv do not match what the grammar crates generate.
    #[test]
    fn generated_tables_are_fresh() {
        let stale = super::generate(true).unwrap();
        assert!(
            stale.is_empty(),
            "stale generated files (run `cargo xtask codegen`): {stale:?}"
        );
    }
}
