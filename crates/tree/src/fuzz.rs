//! Fuzzing of the tree layer: parse -> reduction tree -> random sequences
//! of prune, hoist and tentative replacements -> unparse, for every grammar language.
//!
//! Checked on every case: building never panics; the untouched tree unparses to the input
//! byte for byte; a tentative edit (`unparse_with`) gives exactly the bytes the committed edit
//! (`prune`/`hoist`) then gives; a scoped unparse (`unparse_scoped`, which copies untouched
//! subtrees in one piece) gives the bytes of the node-by-node walk; and every unparse is a byte string that builds a tree again,
//! whose own unparse is that string (the round trip holds for every candidate treedd could
//! show an oracle), and the syntax filter's verdict on every candidate, incremental where it
//! believes its incremental parse, is the verdict of a parse from scratch. [`fuzz_case`] is
//! run briefly by the unit tests and for as long as asked by `cargo xtask fuzz --minutes N`.

use crate::{count_errors, Edit, Lang, NodeId, RTree, SyntaxFilter};

/// A small deterministic generator (SplitMix64), so a failing seed can be replayed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// What one case did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FuzzCounts {
    pub prunes: u64,
    pub hoists: u64,
    pub tentative: u64,
    pub reparses: u64,
    /// Candidates the syntax filter accepted from an incremental parse alone.
    pub incremental: u64,
}

impl std::ops::AddAssign for FuzzCounts {
    fn add_assign(&mut self, o: FuzzCounts) {
        self.prunes += o.prunes;
        self.hoists += o.hoists;
        self.tentative += o.tentative;
        self.reparses += o.reparses;
        self.incremental += o.incremental;
    }
}

/// Damage `input` a little (delete, duplicate or swap byte ranges) so error recovery is
/// exercised too; returns it unchanged one time in four.
pub fn mutate(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    if out.is_empty() || rng.below(4) == 0 {
        return out;
    }
    for _ in 0..1 + rng.below(4) {
        if out.is_empty() {
            break;
        }
        let a = rng.below(out.len());
        let b = (a + 1 + rng.below(16)).min(out.len());
        match rng.below(3) {
            0 => {
                out.drain(a..b);
            }
            1 => {
                let chunk = out[a..b].to_vec();
                let at = rng.below(out.len() + 1);
                out.splice(at..at, chunk);
            }
            _ => {
                let c = rng.below(out.len());
                out.swap(a, c);
            }
        }
    }
    out
}

/// Build `input`'s tree and apply `steps` random edits, checking the invariants above.
/// `Err` says which one failed (with the bytes involved, lossily).
pub fn fuzz_case(lang: Lang, input: &[u8], seed: u64, steps: usize) -> Result<FuzzCounts, String> {
    let mut rng = Rng::new(seed);
    let mut counts = FuzzCounts::default();
    let mut tree = RTree::build(lang, input).map_err(|e| format!("build failed: {e}"))?;
    let filter = SyntaxFilter::new(lang, 0);
    filter.rebase(input);
    if tree.unparse() != input {
        return Err(format!(
            "round trip broken for {:?}",
            String::from_utf8_lossy(input)
        ));
    }
    for _ in 0..steps {
        let live: Vec<NodeId> = tree
            .preorder()
            .into_iter()
            .filter(|&n| !tree.is_hidden(n) && !tree.is_pruned(n))
            .collect();
        if live.is_empty() {
            break;
        }
        let n = live[rng.below(live.len())];
        match rng.below(3) {
            0 => {
                let edits = |m| if m == n { Edit::Prune } else { Edit::Keep };
                let tentative = tree.unparse_with(&edits);
                same_scoped(&tree, &[n], &edits, &tentative)?;
                tree.prune(n);
                counts.prunes += 1;
                check_commit(&filter, &tree, &tentative, &mut counts, "prune")?;
            }
            1 => {
                let below: Vec<NodeId> = subtree(&tree, n)
                    .into_iter()
                    .filter(|&d| {
                        d != n && !tree.is_hidden(d) && !tree.is_pruned(d) && tree.compatible(n, d)
                    })
                    .collect();
                if below.is_empty() {
                    continue;
                }
                let d = below[rng.below(below.len())];
                let edits = |m| if m == n { Edit::Hoist(d) } else { Edit::Keep };
                let tentative = tree.unparse_with(&edits);
                same_scoped(&tree, &[n], &edits, &tentative)?;
                tree.hoist(n, d);
                counts.hoists += 1;
                check_commit(&filter, &tree, &tentative, &mut counts, "hoist")?;
            }
            _ => {
                // A candidate of several tentative replacements, not committed.
                let picks: Vec<NodeId> = (0..1 + rng.below(4))
                    .map(|_| live[rng.below(live.len())])
                    .collect();
                let edits = |m| {
                    if picks.contains(&m) {
                        Edit::Prune
                    } else {
                        Edit::Keep
                    }
                };
                let bytes = tree.unparse_with(&edits);
                same_scoped(&tree, &picks, &edits, &bytes)?;
                counts.tentative += 1;
                reparse(&filter, lang, &bytes, &mut counts)?;
            }
        }
    }
    Ok(counts)
}

/// The scoped unparse of `edits` (which touch only nodes of `scope`) is `walked`.
fn same_scoped(
    tree: &RTree,
    scope: &[NodeId],
    edits: &dyn Fn(NodeId) -> Edit,
    walked: &[u8],
) -> Result<(), String> {
    let scoped = tree.unparse_scoped(&[scope], edits);
    if scoped != walked {
        return Err(format!(
            "scoped unparse {:?} but the walk gives {:?}",
            String::from_utf8_lossy(&scoped),
            String::from_utf8_lossy(walked)
        ));
    }
    Ok(())
}

fn check_commit(
    filter: &SyntaxFilter,
    tree: &RTree,
    tentative: &[u8],
    counts: &mut FuzzCounts,
    what: &str,
) -> Result<(), String> {
    let committed = tree.unparse();
    same_scoped(
        tree,
        &[],
        &|_| Edit::Keep,
        &tree.unparse_with(&|_| Edit::Keep),
    )?;
    if committed != tentative {
        return Err(format!(
            "{what}: tentative {:?} but committed {:?}",
            String::from_utf8_lossy(tentative),
            String::from_utf8_lossy(&committed)
        ));
    }
    reparse(filter, tree.lang(), &committed, counts)?;
    filter.rebase(&committed);
    Ok(())
}

fn reparse(
    filter: &SyntaxFilter,
    lang: Lang,
    bytes: &[u8],
    counts: &mut FuzzCounts,
) -> Result<(), String> {
    counts.reparses += 1;
    let fresh_before = filter.fresh_parses();
    let verdict = filter.accepts(bytes);
    if filter.fresh_parses() == fresh_before {
        counts.incremental += 1;
    }
    if verdict != (count_errors(lang, bytes) == 0) {
        return Err(format!(
            "the syntax filter says {verdict}, a parse from scratch the opposite, for {:?}",
            String::from_utf8_lossy(bytes)
        ));
    }
    let again = RTree::build(lang, bytes).map_err(|e| format!("re-parse failed: {e}"))?;
    if again.unparse() != bytes {
        return Err(format!(
            "round trip broken for the candidate {:?}",
            String::from_utf8_lossy(bytes)
        ));
    }
    Ok(())
}

/// The live nodes of `n`'s subtree (pre-order, `n` first).
fn subtree(tree: &RTree, n: NodeId) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![n];
    while let Some(m) = stack.pop() {
        out.push(m);
        if !tree.is_pruned(m) {
            stack.extend(tree.children(m).iter().rev());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The snapshot inputs of every grammar language.
    fn corpus() -> Vec<(Lang, Vec<u8>)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data");
        let mut out = Vec::new();
        for &lang in Lang::all() {
            if lang == Lang::Text {
                continue;
            }
            let dir = root.join(lang.name());
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x != "tree"))
                .collect();
            files.sort();
            assert!(!files.is_empty(), "no inputs for {}", lang.name());
            for f in files {
                out.push((lang, std::fs::read(f).unwrap()));
            }
        }
        out
    }

    #[test]
    fn random_edit_sequences_keep_every_invariant_in_every_language() {
        // CI-sized: a few hundred cases; `cargo xtask fuzz --minutes N` runs the long campaign.
        let corpus = corpus();
        let mut total = FuzzCounts::default();
        let mut rng = Rng::new(12);
        for case in 0..240u64 {
            let (lang, input) = &corpus[case as usize % corpus.len()];
            let input = mutate(input, &mut rng);
            let seed = rng.next_u64();
            match fuzz_case(*lang, &input, seed, 12) {
                Ok(c) => total += c,
                Err(e) => panic!("{} case {case} (seed {seed}): {e}", lang.name()),
            }
        }
        assert!(
            total.prunes > 100
                && total.hoists > 10
                && total.tentative > 100
                && total.incremental > 100,
            "{total:?}"
        );
    }
}
