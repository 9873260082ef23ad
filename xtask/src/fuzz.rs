//! `cargo xtask fuzz [--minutes M] [--steps S] [--seed X]`: the long fuzz campaign of the tree
//! layer. Random inputs from every grammar language's corpus (snapshot inputs, fixtures, the
//! shared suites), lightly damaged, then random prune/hoist/replace
//! sequences checked by `treedd_tree::dev::fuzz_case`. Prints the counts; exits non-zero
//! with the failing seeds if any case failed or panicked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use treedd_tree::dev::{fuzz_case, mutate, FuzzCounts, Rng};
use treedd_tree::Lang;

pub fn run(args: &[String]) -> Result<()> {
    let mut minutes = 1.0f64;
    let mut steps = 16usize;
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().map(String::as_str).unwrap_or("");
        match a.as_str() {
            "--minutes" => minutes = value().parse()?,
            "--steps" => steps = value().parse()?,
            "--seed" => seed = value().parse()?,
            _ => bail!("usage: cargo xtask fuzz [--minutes M] [--steps S] [--seed X]"),
        }
    }
    let corpus = corpus()?;
    println!(
        "fuzz: {} corpus files in {} languages, seed {seed}, {minutes} min",
        corpus.iter().map(|(_, f)| f.len()).sum::<usize>(),
        corpus.len()
    );
    let deadline = Instant::now() + Duration::from_secs_f64(minutes * 60.0);
    let mut rng = Rng::new(seed);
    let mut total = FuzzCounts::default();
    let (mut cases, mut failures) = (0u64, Vec::new());
    let mut per_lang: BTreeMap<&'static str, u64> = BTreeMap::new();
    while Instant::now() < deadline {
        // A language first, then one of its files, so every language gets the same share.
        let (lang, files) = &corpus[rng.below(corpus.len())];
        let input = &files[rng.below(files.len())];
        let input = mutate(input, &mut rng);
        let case_seed = rng.next_u64();
        let result = std::panic::catch_unwind(|| fuzz_case(*lang, &input, case_seed, steps));
        cases += 1;
        *per_lang.entry(lang.name()).or_default() += 1;
        match result {
            Ok(Ok(c)) => total += c,
            Ok(Err(e)) => failures.push(format!("{} seed {case_seed}: {e}", lang.name())),
            Err(_) => failures.push(format!("{} seed {case_seed}: panic", lang.name())),
        }
    }
    let langs: Vec<String> = per_lang.iter().map(|(l, n)| format!("{l} {n}")).collect();
    println!(
        "fuzz: {cases} cases ({}), {} prunes, {} hoists, {} tentative candidates, {} re-parses ({} believed incremental by the syntax filter), {} failures",
        langs.join(", "), total.prunes, total.hoists, total.tentative, total.reparses, total.incremental, failures.len()
    );
    for f in failures.iter().take(20) {
        println!("  {}", f.chars().take(400).collect::<String>());
    }
    if !failures.is_empty() {
        bail!("{} fuzz cases failed", failures.len());
    }
    Ok(())
}

/// Inputs of every built-in grammar language (by file extension), at most 256 KiB each,
/// grouped by language.
fn corpus() -> Result<Vec<(Lang, Vec<Vec<u8>>)>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    walk(&root.join("crates/tree/test_data"), &mut files);
    walk(&root.join("fixtures"), &mut files);
    let root = std::fs::canonicalize(&root)?;
    if let Some(shared) = crate::bench::shared_dir(&root) {
        walk(&shared.join("suites"), &mut files);
    }
    let mut out: Vec<(Lang, Vec<Vec<u8>>)> = Vec::new();
    for f in files {
        let Some(lang) = Lang::from_path(&f).filter(|l| l.has_grammar()) else {
            continue;
        };
        if let Ok(bytes) = std::fs::read(&f) {
            if bytes.len() <= 256 << 10 {
                match out.iter_mut().find(|(l, _)| *l == lang) {
                    Some((_, group)) => group.push(bytes),
                    None => out.push((lang, vec![bytes])),
                }
            }
        }
    }
    if out.is_empty() {
        bail!("no fuzz corpus found");
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}
