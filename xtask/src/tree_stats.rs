//! `cargo xtask tree-stats FILE...`: per input, the tree sizes and heights before and after
//! squeezing/flattening, build time and peak memory, and the single-node replacement
//! success rate; then the rate per language.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context};
use treedd_tree::dev::replacement_quality;
use treedd_tree::{Lang, RTree};

/// Nodes tested for the replacement rate per file (evenly spread): at most 2000, and for
/// large inputs as many as fit in about 20 MB of re-parsed text (each test re-parses the
/// whole input).
fn quality_sample(bytes: usize) -> usize {
    (20_000_000 / bytes.max(1)).clamp(20, 2000)
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let show_failures = args.iter().any(|a| a == "--failures");
    let no_quality = args.iter().any(|a| a == "--no-quality");
    let dump = args.iter().any(|a| a == "--dump");
    let args: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    if args.is_empty() {
        bail!("usage: cargo xtask tree-stats [--failures] [--no-quality] [--dump] FILE...");
    }
    println!(
        "{:<40} {:>9} {:>8} {:>7} {:>8} {:>7} {:>7} {:>6} {:>9} {:>8} {:>7}",
        "file",
        "bytes",
        "ts-nodes",
        "ts-hgt",
        "nodes",
        "tokens",
        "height",
        "errors",
        "build-ms",
        "rss-MB",
        "repl-ok"
    );
    let mut per_lang: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for arg in args {
        let path = Path::new(arg);
        let lang = Lang::from_path(path)
            .with_context(|| format!("{arg}: unknown language (extension)"))?;
        let src = std::fs::read(path).with_context(|| format!("reading {arg}"))?;
        let start = Instant::now();
        let tree = RTree::build(lang, &src).with_context(|| arg.to_string())?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let rss = peak_rss_mb();
        let s = tree.stats();
        if dump {
            print!("{}", treedd_tree::dump(&tree));
        }
        let q = replacement_quality(
            &tree,
            if no_quality {
                0
            } else {
                quality_sample(src.len())
            },
        );
        let e = per_lang.entry(lang.name()).or_default();
        e.0 += q.ok;
        e.1 += q.tested;
        let name = path
            .file_name()
            .map(|f| f.to_string_lossy())
            .unwrap_or_default();
        let parent = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|f| f.to_string_lossy())
            .unwrap_or_default();
        println!(
            "{:<40} {:>9} {:>8} {:>7} {:>8} {:>7} {:>7} {:>6} {:>9.1} {:>8.1} {:>7}",
            format!("{parent}/{name}"),
            s.bytes,
            s.raw_nodes,
            s.raw_height,
            s.nodes,
            s.tokens,
            s.height,
            s.errors,
            ms,
            rss,
            if no_quality {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * q.rate())
            }
        );
        if show_failures {
            for (what, repl) in &q.failures {
                println!("    failed: {what} -> {repl:?}");
            }
        }
    }
    for (lang, &(ok, tested)) in per_lang.iter().filter(|_| !no_quality) {
        let rate = if tested == 0 {
            100.0
        } else {
            100.0 * ok as f64 / tested as f64
        };
        println!("replacement success {lang}: {ok}/{tested} = {rate:.2}%");
    }
    Ok(())
}

/// Peak resident set size of this process so far, in MB.
fn peak_rss_mb() -> f64 {
    // rustix has no getrusage.
    // SAFETY: getrusage only writes into the zeroed plain-data struct we own.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        (libc::getrusage(libc::RUSAGE_SELF, &mut usage) == 0).then_some(usage)
    };
    usage.map_or(0.0, |u| u.ru_maxrss as f64 / 1024.0)
}
