//! `--verify` re-runs the oracle on the result; a flaky oracle is reported with exit code 8.

use expect_test::expect;

use crate::util::{numbers, Dir};

#[test]
fn verify_confirms_a_deterministic_result() {
    let d = Dir::text_case(numbers(0..10), r#"grep -qx 7 "$1""#);
    d.reduce(&["--unit", "line", "--verify", "--stats", "s.json"])
        .expect_code(0);
    let s: serde_json::Value = d.stats("s.json");
    assert_eq!(s["verified"], true);
    assert_eq!(d.read_string("input.reduced.txt"), "7\n");
}

#[test]
fn verify_reports_a_flaky_oracle() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..10));
    // Interesting while line 7 is there, but only once for the final "7\n" itself.
    let seen = d.join("seen");
    d.script(
        "oracle.sh",
        &format!(
            r#"grep -qx 7 "$1" || exit 1
if [ "$(cat "$1")" = 7 ]; then test -e {seen} && exit 1; touch {seen}; fi"#,
            seen = seen.display()
        ),
    );
    let run = d.reduce(&["--unit", "line", "--verify", "--stats", "s.json"]);
    run.expect_code(8).expect_message(&d, &expect![[r#"
        treedd: timeout per oracle run: 5.0 s (10 x the original's T s, at least 5 s; once 16 runs have finished, 10 x their recent pace, at least 1 s; change it with --timeout SECONDS|none)
        treedd: error: --verify: the oracle no longer finds the result input.reduced.txt interesting (exit code 1); the oracle is flaky
          a flaky oracle makes reductions unreliable: make it deterministic, or raise --timeout if runs time out
    "#]]);
    let s: serde_json::Value = d.stats("s.json");
    assert_eq!(s["verified"], false);
    // Without --verify the same situation goes unnoticed.
    std::fs::remove_file(&seen).unwrap();
    d.reduce(&["--unit", "line"]).expect_code(0);
}
