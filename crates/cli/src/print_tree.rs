//! `--dump-tree` and `--print-tree-stats`.

use std::io;

use anyhow::Context;
use treedd_tree::RTree;

use crate::exit;
use crate::plan::Plan;

/// `--dump-tree` and `--print-tree-stats`: show INPUT's reduction tree on stdout.
pub(crate) fn print_tree(plan: &Plan, input: &[u8]) -> anyhow::Result<u8> {
    use std::io::Write;
    let lang = plan.lang;
    let tree = RTree::build(lang, input)
        .with_context(|| format!("cannot parse {} as {}", plan.input.display(), lang.name()))?;
    let mut out = io::stdout().lock();
    if plan.dump_tree {
        out.write_all(treedd_tree::dump(&tree).as_bytes())?;
    }
    if plan.print_tree_stats {
        let s = tree.stats();
        writeln!(out, "bytes: {}", s.bytes)?;
        writeln!(out, "syntax errors: {}", s.errors)?;
        writeln!(
            out,
            "ERROR nodes: {}, MISSING nodes: {}",
            s.errors - s.missing,
            s.missing
        )?;
        writeln!(
            out,
            "tree-sitter nodes: {} (height {})",
            s.raw_nodes, s.raw_height
        )?;
        writeln!(
            out,
            "reduction tree nodes: {} (height {}): {} rules, {} tokens, {} hidden",
            s.nodes, s.height, s.rules, s.tokens, s.hidden
        )?;
    }
    out.flush()?;
    Ok(exit::SUCCESS)
}
