pub fn run(_a: &[String]) -> anyhow::Result<()> {
    Ok(())
}
