//! The papers' examples (HDD with hoisting, figs. 3 and 5) reduced with their real oracles (fixtures/).

use std::path::PathBuf;
use std::time::Duration;

use treedd_tree::{count_errors, Lang, RTree};

use super::*;
use treedd_proc::{CommandOracleBuilder, Oracle};

use crate::{JudgeOptions, Stats};

struct Fixture {
    lang: Lang,
    dir: PathBuf,
    file: &'static str,
    input: Vec<u8>,
}

impl Fixture {
    fn load(lang: Lang, case: &str, file: &'static str) -> Fixture {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures")
            .join(case);
        let input = std::fs::read(dir.join(file)).unwrap();
        Fixture {
            lang,
            dir,
            file,
            input,
        }
    }

    fn oracle(&self) -> treedd_proc::CommandOracle {
        CommandOracleBuilder::new(self.dir.join("oracle.sh"))
            .file_name(self.file)
            .timeout(Some(Duration::from_secs(60)))
            .build()
            .unwrap()
    }

    /// A judge as the CLI builds it: syntax filter, content cache, the fixture's oracle.
    fn judge(&self) -> Judge {
        let (lang, base) = (self.lang, count_errors(self.lang, &self.input));
        let filter: crate::Filter = Box::new(move |c: &[u8]| count_errors(lang, c) <= base);
        Judge::new(
            Box::new(self.oracle()),
            JudgeOptions {
                filter: Some(filter),
                ..JudgeOptions::default()
            },
        )
    }

    fn reduce(&self, config: &TreeConfig) -> (Vec<u8>, Stats) {
        let mut tree = RTree::build(self.lang, &self.input).unwrap();
        let judge = self.judge();
        let out = reduce_tree(&mut tree, &judge, config).text;
        (out, judge.stats())
    }

    /// Re-check a result with a fresh oracle run.
    fn interesting(&self, candidate: &[u8]) -> bool {
        self.oracle().run(candidate).is_interesting()
    }
}

fn squeeze(text: &[u8]) -> String {
    String::from_utf8_lossy(text).split_whitespace().collect()
}

/// Run `configs` on `fixture`, two at a time; outputs and stats in the same order.
fn run_all(fixture: &Fixture, configs: &[TreeConfig]) -> Vec<(Vec<u8>, Stats)> {
    let mut results: Vec<Option<(Vec<u8>, Stats)>> = vec![None; configs.len()];
    for (chunk, slots) in configs.chunks(2).zip(results.chunks_mut(2)) {
        std::thread::scope(|scope| {
            for (config, slot) in chunk.iter().zip(slots.iter_mut()) {
                scope.spawn(move || *slot = Some(fixture.reduce(config)));
            }
        });
    }
    results.into_iter().map(Option::unwrap).collect()
}

#[test]
fn helloworld_every_configuration() {
    let fixture = Fixture::load(Lang::C, "c/helloworld", "helloworld.c");
    assert_eq!(squeeze(&fixture.input).len(), 42);
    let configs = TreeConfig::all16();
    let results = run_all(&fixture, &configs);
    for (config, (out, stats)) in configs.iter().zip(&results) {
        let text = squeeze(out);
        eprintln!(
            "{:<26} {:>3} chars {:>4} oracle runs  {}",
            config.name(),
            text.len(),
            stats.oracle_runs,
            text
        );
        assert!(
            fixture.interesting(out),
            "{}: output not interesting: {text}",
            config.name()
        );
        if config.hoist == Hoisting::None {
            // 1-tree-minimal, yet the `if (1)` cannot go by pruning alone (HDD with hoisting,
            // Table I).
            assert!(text.contains("if(1)"), "{}: {text}", config.name());
        } else {
            assert_eq!(
                text,
                r#"intmain(){printf("Helloworld!\n");}"#,
                "{}",
                config.name()
            );
            assert_eq!(text.len(), 35);
        }
    }
}

#[test]
fn helloworld_jobs_do_not_change_the_result() {
    let fixture = Fixture::load(Lang::C, "c/helloworld", "helloworld.c");
    let mut configs = Vec::new();
    for name in ["HDD*", "Hoist*+HDDH*", "HDDH^r*", "Coarse Hoist^r*+HDD^r*"] {
        let one = TreeConfig::from_name(name).unwrap();
        let two = TreeConfig {
            ddmin: DdminOptions {
                jobs: 2,
                ..DdminOptions::default()
            },
            ..one.clone()
        };
        configs.extend([one, two]);
    }
    let results = run_all(&fixture, &configs);
    for pair in configs.chunks(2).zip(results.chunks(2)) {
        let (config, outs) = pair;
        assert_eq!(
            outs[0].0,
            outs[1].0,
            "{}: jobs 1 and jobs 2 differ",
            config[0].name()
        );
    }
}

#[test]
fn localized_pi_hoisting_removes_format_parts() {
    let fixture = Fixture::load(Lang::Java, "java/LocalizedPi", "LocalizedPi.java");
    let configs = [
        TreeConfig::from_name("HDD").unwrap(),
        TreeConfig::from_name("Hoist+HDD").unwrap(),
    ];
    let results = run_all(&fixture, &configs);
    for (config, (out, stats)) in configs.iter().zip(&results) {
        let text = String::from_utf8_lossy(out);
        eprintln!(
            "{} ({} chars, {} oracle runs):\n{text}",
            config.name(),
            squeeze(out).len(),
            stats.oracle_runs
        );
        assert!(
            fixture.interesting(out),
            "{}: output not interesting",
            config.name()
        );
    }
    let (hdd, hoist) = (
        String::from_utf8_lossy(&results[0].0),
        String::from_utf8_lossy(&results[1].0),
    );
    // HDD* must keep formatParts: decSep's exception is thrown while computing its argument.
    assert!(hdd.contains("formatParts"), "{hdd}");
    assert!(!hoist.contains("formatParts"), "{hoist}");
    assert!(
        hoist.contains("decSep(") && hoist.contains("Unsupported locale"),
        "{hoist}"
    );
}
