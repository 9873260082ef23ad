mod codegen;
mod tree_stats;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("codegen") => codegen::run(&args[1..]),
        Some("tree-stats") => tree_stats::run(&args[1..]),
        _ => anyhow::bail!("usage: cargo xtask <codegen|tree-stats|bench> ..."),
    }
}
