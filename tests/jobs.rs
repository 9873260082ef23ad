//! The output never depends on `--jobs`. Every fixture, with its real oracle, is
//! reduced with the default preset and every `--jobs` from 1 to 8; the outputs must be
//! byte-identical, and equal to the expected output `tests/reduced/<lang>/<case>/balanced.<ext>`
//! (refreshed with `UPDATE_EXPECT=1`).
//! The oracle is wrapped in a memo keyed by the candidate's SHA-256 (shared by
//! the eight runs of a fixture), so each distinct candidate costs one real run: `--jobs 8`
//! runs first and pays for its bets, the others mostly find their answers in the memo.
//!
//! Idempotence on every fixture and preset: treedd on its own output (same preset,
//! same oracle) changes nothing. The joint fixed point ends with a round that found nothing, and a
//! second reduction starts with that same round, so its runs are memo hits.
//!
//! A fixture's two tests share its memo in one test process: the presets' reductions start
//! from the default's output, whose last round the default's reductions tested too.

use std::path::{Path, PathBuf};

use expect_test::expect;

use crate::util::{check_reduced, fixtures, Dir};

/// The memo of `case`'s oracle in this test process, under `CARGO_TARGET_TMPDIR`; the memos
/// of test processes that have ended are removed the first time.
fn shared_memo(case: &str) -> PathBuf {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("jobs-memo");
    SWEPT.call_once(|| {
        for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            let name = entry.file_name().into_string().unwrap_or_default();
            let pid = name
                .strip_prefix("pid-")
                .and_then(|p| p.parse::<i32>().ok());
            // kill with signal 0 sends nothing; it only asks whether `pid` exists.
            let gone = pid
                .and_then(rustix::process::Pid::from_raw)
                .is_some_and(|pid| {
                    rustix::process::test_kill_process(pid) == Err(rustix::io::Errno::SRCH)
                });
            if gone {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    });
    let dir = root
        .join(format!("pid-{}", std::process::id()))
        .join(case.replace('/', "-"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A test directory holding the fixture `case` and `memo.sh`, its oracle behind a memo keyed
/// by the candidate's SHA-256 (shared by the fixture's tests: [`shared_memo`]); returns the
/// directory and the input's file name. A memo hit starts one process (`sha256sum`) besides
/// the shell (each further process would make hits markedly slower, and most of the runs of
/// these tests are hits).
fn memo_case(case: &str) -> (Dir, String) {
    let d = Dir::new();
    d.copy_fixture(case);
    let input = std::fs::read_dir(fixtures().join(case))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n != "oracle.sh" && n != "PROVENANCE")
        .unwrap();
    d.script(
        "memo.sh",
        &format!(
            r#"h=$(sha256sum < "$1")
m={memo}/${{h%% *}}
[ -f "$m" ] && {{ read -r r < "$m"; exit "$r"; }}
{oracle} "$1"; r=$?
echo $r > "$m.$$" && mv "$m.$$" "$m"
exit $r"#,
            memo = shared_memo(case).display(),
            oracle = d.join("oracle.sh").display(),
        ),
    );
    (d, input)
}

/// treedd (with `options`) on its own output `once`, under the input's own name (javac wants
/// `LocalizedPi.java`), must give `once` back.
fn assert_fixed_point(d: &Dir, case: &str, input: &str, once: &[u8], options: &[&str]) {
    let again_dir = format!("again{}", options.join(""));
    std::fs::create_dir(d.join(&again_dir)).unwrap();
    std::fs::write(d.join(&again_dir).join(input), once).unwrap();
    let again = format!("{again_dir}/{input}");
    let twice = format!("twice{}", options.join(""));
    let mut args = vec!["--test", "./memo.sh", "-q", "-o", &twice, &again];
    args.extend_from_slice(options);
    d.run(&args).expect_code(0);
    assert_eq!(
        String::from_utf8_lossy(&d.read(&twice)),
        String::from_utf8_lossy(once),
        "{case} {options:?}: treedd on its own output changed it"
    );
}

fn same_output_for_every_jobs(case: &str) {
    let (d, input) = memo_case(case);
    let (stem, ext) = input.rsplit_once('.').unwrap();
    // From 8 down: the run with the most bets fills the memo first, the others mostly hit.
    let mut first: Option<Vec<u8>> = None;
    for jobs in (1..=8).rev() {
        let out = format!("{stem}.{jobs}.{ext}");
        let jobs = jobs.to_string();
        d.run(&["--test", "./memo.sh", "-j", &jobs, "-q", "-o", &out, &input])
            .expect_code(0);
        let got = d.read(&out);
        match &first {
            None => first = Some(got),
            Some(one) => assert!(
                *one == got,
                "{case}: --jobs {jobs} gave\n{}\n--jobs 8 gave\n{}",
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(one)
            ),
        }
    }
    let first = first.unwrap();
    check_reduced(case, "balanced", &input, &first);
    assert_fixed_point(&d, case, &input, &first, &[]);
}

/// Idempotence for the other presets: `--preset smallest` and `--preset fastest` on the
/// fixture's expected default output (`tests/reduced/`, which `same_output_for_every_jobs`
/// checks), then on their own outputs, change nothing the second time. They start from the
/// default's output rather than the fixture: the property is the same from any start, and a
/// whole `smallest` reduction of every fixture would add about ten minutes to the suite.
fn other_presets_are_fixed_points(case: &str) {
    let (d, input) = memo_case(case);
    let (_, ext) = input.rsplit_once('.').unwrap();
    let expected = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/reduced")
        .join(case)
        .join(format!("balanced.{ext}"));
    std::fs::copy(&expected, d.join(&input)).unwrap();
    for preset in ["fastest", "smallest"] {
        let out = format!("{preset}.out");
        d.run(&[
            "--test",
            "./memo.sh",
            "-j",
            "2",
            "-q",
            "--preset",
            preset,
            "-o",
            &out,
            &input,
        ])
        .expect_code(0);
        let once = d.read(&out);
        assert_fixed_point(&d, case, &input, &once, &["--preset", preset]);
    }
}

macro_rules! every_jobs {
    ($($name:ident, $presets:ident: $case:literal,)*) => {$(
        #[test]
        fn $name() {
            same_output_for_every_jobs($case);
        }
        #[test]
        fn $presets() {
            other_presets_are_fixed_points($case);
        }
    )*};
}

every_jobs! {
    jobs_1_to_8_c_helloworld, presets_fixed_c_helloworld: "c/helloworld",
    jobs_1_to_8_cpp_overload, presets_fixed_cpp_overload: "cpp/overload",
    jobs_1_to_8_go_channel, presets_fixed_go_channel: "go/channel",
    jobs_1_to_8_java_localized_pi, presets_fixed_java_localized_pi: "java/LocalizedPi",
    jobs_1_to_8_javascript_output, presets_fixed_javascript_output: "javascript/output",
    jobs_1_to_8_javascript_rangeerror, presets_fixed_javascript_rangeerror: "javascript/rangeerror",
    jobs_1_to_8_javascript_typeerror, presets_fixed_javascript_typeerror: "javascript/typeerror",
    jobs_1_to_8_python_zerodiv, presets_fixed_python_zerodiv: "python/zerodiv",
    jobs_1_to_8_rust_borrow, presets_fixed_rust_borrow: "rust/borrow",
    jobs_1_to_8_typescript_generic, presets_fixed_typescript_generic: "typescript/generic",
}

/// Speculation kills its lost bets: with 4 jobs, ddmin's first subset (the four
/// lines from `KEEP`) wins after a third of a second while the later subsets run beside it as
/// bets; the one holding `SLOW` would take 30 s to fail. That run is killed once the winner is
/// known: `--stats` counts it as `killed` (and `discarded`), never as an answered oracle run,
/// and the result is the one of `--jobs 1`. No later test of the reduction holds `SLOW`.
#[test]
fn lost_bets_are_killed() {
    let oracle = r#"if grep -q KEEP "$1"; then sleep 0.3; exit 0; fi
grep -q SLOW "$1" && sleep 30
exit 1"#;
    let d = Dir::text_case("KEEP\na\nb\nc\nSLOW\nd\ne\nf\n", oracle);
    d.reduce(&["--unit", "line", "--jobs", "4", "--stats", "s.json", "-q"])
        .expect_code(0);
    assert_eq!(d.read_string("input.reduced.txt"), "KEEP\n");
    let s = d.stats("s.json");
    let killed = s["killed"].as_u64().unwrap();
    assert!(killed >= 1, "{s}");
    assert!(s["discarded"].as_u64().unwrap() >= killed, "{s}");
    assert!(s["wall_seconds"].as_f64().unwrap() < 30.0, "{s}");
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
}

/// Assumptions: interesting runs take 0.2 s, failing ones a few milliseconds, so
/// with two jobs a run that has lasted a while is taken as interesting before it answers and
/// the reduction goes on. `--stats` counts these; the result is the one of `--jobs 1`.
#[test]
fn long_runs_are_assumed_interesting_and_the_result_stays() {
    let oracle = "grep -q KEEP \"$1\" && grep -q MORE \"$1\" || exit 1\nsleep 0.2";
    let mut input = String::new();
    for i in 1..=40 {
        input += &format!("line{i}\n");
        match i {
            7 => input += "KEEP\n",
            33 => input += "MORE\n",
            _ => {}
        }
    }
    let d = Dir::text_case(&input, oracle);
    let mut outputs = Vec::new();
    for jobs in ["1", "2"] {
        let stats = format!("s{jobs}.json");
        d.reduce(&["--unit", "line", "--jobs", jobs, "--stats", &stats, "-q"])
            .expect_code(0);
        outputs.push(d.read_string("input.reduced.txt"));
        let s = d.stats(&stats);
        let assumed = s["assumed"].as_u64().unwrap();
        assert_eq!(assumed > 0, jobs == "2", "{s}");
        assert!(s["replays"].as_u64().unwrap() <= assumed, "{s}");
    }
    assert_eq!(outputs[0], "KEEP\nMORE\n");
    assert_eq!(outputs[1], outputs[0]);
}

/// An oracle that logs `orig-start`, `orig-end` (its run on the original lasts `sleep`) and
/// `cand` lines with nanosecond times, and whether the output existed during a candidate's
/// run; interesting while line 7 is kept, and on the original iff `original_ok`.
fn logging_case(original_ok: bool, sleep: &str) -> Dir {
    let d = Dir::text_case(crate::util::numbers(1..41), "");
    d.write("orig.txt", d.read("input.txt"));
    let ok = if original_ok { 0 } else { 1 };
    d.script(
        "oracle.sh",
        &format!(
            r#"log={log}
if cmp -s "$1" {orig}; then
  echo "orig-start $(date +%s%N)" >> $log; sleep {sleep}; echo "orig-end $(date +%s%N)" >> $log
  exit {ok}
fi
[ -e {out} ] && echo "out $(date +%s%N)" >> $log
echo "cand $(date +%s%N)" >> $log
grep -qx 7 "$1""#,
            log = d.join("log").display(),
            orig = d.join("orig.txt").display(),
            out = d.join("input.reduced.txt").display(),
        ),
    );
    d
}

/// The times logged with `what` by [`logging_case`]'s oracle.
fn logged(d: &Dir, what: &str) -> Vec<u128> {
    d.read_string("log")
        .lines()
        .filter_map(|l| l.strip_prefix(what)?.trim().parse().ok())
        .collect()
}

#[test]
fn the_original_is_checked_alongside_the_first_candidates() {
    for jobs in ["1", "2"] {
        let d = logging_case(true, "0.5");
        d.reduce(&["-q", "--jobs", jobs]).expect_code(0);
        assert_eq!(d.read_string("input.reduced.txt"), "7");
        let end = logged(&d, "orig-end")[0];
        let before = logged(&d, "cand").iter().filter(|&&t| t < end).count();
        match jobs {
            // One job: the check comes first.
            "1" => assert_eq!(before, 0),
            // Two: the other job runs candidates meanwhile...
            _ => assert!(before >= 2, "{before} candidates ran during the check"),
        }
        // ...and the output is not written before the original has passed.
        assert!(logged(&d, "out").iter().all(|&t| t > end));
    }
    // An original that is not interesting: the same error as with one job, nothing written.
    let d = logging_case(false, "0.5");
    d.reduce(&["-q", "--jobs", "2"])
        .expect_code(5)
        .expect_message(&d, &expect![[r#"
            treedd: error: the oracle does not find the original input interesting (exit code 1)
              the oracle must exit 0 on the original input; reproduce its run with:
              d=$(mktemp -d) && cp $DIR/input.txt "$d"/input.txt && (cd "$d" && $DIR/oracle.sh "$d"/input.txt); echo "exit status $?"
        "#]]);
    assert!(
        !logged(&d, "cand").is_empty(),
        "no candidate ran during the check"
    );
    assert_eq!(
        d.entries(),
        ["input.txt", "log", "oracle.sh", "orig.txt", "tmp"],
        "no output, no resume state"
    );
    assert!(d.tmp_entries().is_empty());
}

#[test]
fn an_interrupt_during_the_check_alongside_writes_nothing() {
    use std::process::Stdio;
    let d = logging_case(true, "5");
    let child = d
        .cmd()
        .args(["--test", "oracle.sh", "--jobs", "2", "input.txt"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    crate::util::wait_for(30, "candidates during the check", || {
        std::fs::read_to_string(d.join("log")).is_ok_and(|l| l.matches("cand").count() >= 2)
    });
    crate::util::kill(&child, "INT");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted during the check of the input; no output written"),
        "{stderr}"
    );
    assert!(
        logged(&d, "orig-end").is_empty(),
        "the check was not cut short"
    );
    assert_eq!(
        d.entries(),
        ["input.txt", "log", "oracle.sh", "orig.txt", "tmp"],
        "no output, no resume state"
    );
}
