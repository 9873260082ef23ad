//! Strategies with alternatives (the `smallest` preset), on real C trees.

use std::sync::Arc;

use treedd_tree::{Lang, RTree};

use super::*;
use crate::engine::FnOracle;
use crate::JudgeOptions;

const SRC: &str = "int helper_function(int value) { return value + 1; }\n\
                   int unused_global = 42;\n\
                   int main(void) { int local = helper_function(3); return local; }\n";

/// Interesting: a `main` that returns something computed by a call.
fn interesting(c: &str) -> bool {
    c.contains("main") && c.contains("return") && c.contains("(3)")
}

fn run(config: &TreeConfig, src: &str) -> (String, u64) {
    let oracle = Arc::new(FnOracle::new(|c: &[u8]| {
        interesting(std::str::from_utf8(c).unwrap_or(""))
    }));
    let judge = Judge::new(Box::new(Arc::clone(&oracle)), JudgeOptions::default());
    let mut tree = RTree::build(Lang::C, src.as_bytes()).unwrap();
    let out = reduce_tree(&mut tree, &judge, config).text;
    (String::from_utf8(out).unwrap(), oracle.runs())
}

fn chars(s: &str) -> usize {
    s.split_whitespace().map(str::len).sum()
}

#[test]
fn the_smallest_strategy_wins_and_the_result_is_a_fixed_point_of_all() {
    // Coarse HDD^r without passes cannot rename; HDD* with `rename` can: alone, each
    // leaves something the other removes.
    let coarse = TreeConfig::new(Base::CoarseHddr, Hoisting::None);
    let renaming = TreeConfig {
        passes: vec![Pass::Rename],
        ..TreeConfig::new(Base::Hdd, Hoisting::None)
    };
    let (alone_coarse, _) = run(&coarse, SRC);
    let (alone_renaming, _) = run(&renaming, SRC);
    assert!(
        chars(&alone_renaming) < chars(&alone_coarse),
        "{alone_renaming} / {alone_coarse}"
    );
    let both = TreeConfig {
        alternatives: vec![renaming.clone()],
        ..coarse.clone()
    };
    let (out, runs) = run(&both, SRC);
    assert!(interesting(&out), "{out}");
    assert!(
        chars(&out) <= chars(&alone_renaming),
        "{out} / {alone_renaming}"
    );
    // A joint fixed point: neither strategy changes it, nor the portfolio itself.
    for config in [&coarse, &renaming, &both] {
        assert_eq!(run(config, &out).0, out, "{}", config.name());
    }
    assert!(runs > 0);
}

#[test]
fn smallest_is_never_larger_than_balanced() {
    let smallest = TreeConfig::preset("smallest").unwrap();
    let balanced = TreeConfig::preset("balanced").unwrap();
    let replacing = TreeConfig {
        token_replacements: true,
        ..balanced.clone()
    };
    assert_eq!(smallest.alternatives.len(), 2);
    for (alternative, strategy) in smallest.alternatives.iter().zip([&balanced, &replacing]) {
        assert_eq!(alternative.name(), strategy.name());
        assert_eq!(alternative.passes, strategy.passes);
        assert_eq!(alternative.token_replacements, strategy.token_replacements);
    }
    let (out, _) = run(&smallest, SRC);
    for strategy in [&balanced, &replacing] {
        let (other, _) = run(strategy, SRC);
        assert!(chars(&out) <= chars(&other), "{out} / {other}");
    }
}
