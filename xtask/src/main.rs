mod bench;
mod codegen;
mod fuzz;
mod kill;
#[cfg(test)]
mod layout;
#[cfg(test)]
mod tidy;
mod tree_stats;

fn main() -> anyhow::Result<()> {
    // `cargo xtask bench micro` runs this binary as its own no-op oracle (see bench.rs).
    if let Some(code) = bench::marker_oracle_mode() {
        std::process::exit(code);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => bench::main(&args[1..]),
        Some("docs") => bench::docs_main(&args[1..]),
        Some("codegen") => codegen::run(&args[1..]),
        Some("tree-stats") => tree_stats::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("kill-campaign") => kill::run(&args[1..]),
        _ => anyhow::bail!(
            "usage: cargo xtask <bench|docs|codegen|tree-stats|fuzz|kill-campaign> ..."
        ),
    }
}
