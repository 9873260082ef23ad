fn main() -> anyhow::Result<()> {
    anyhow::bail!("usage: cargo xtask <codegen|bench> ...")
}
