use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

/// A temporary directory for one test, with `tmp/` used as the binary's TMPDIR.
pub struct Dir {
    _root: tempfile::TempDir,
    pub path: PathBuf,
}

impl Dir {
    pub fn new() -> Dir {
        let root = tempfile::Builder::new()
            .prefix("treedd-test-")
            .tempdir()
            .expect("cannot make a test directory");
        let path = root.path().to_path_buf();
        fs::create_dir(path.join("tmp")).unwrap();
        Dir { _root: root, path }
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.join(name);
        fs::write(&path, contents).unwrap();
        path
    }

    /// An executable `#!/bin/sh` script.
    pub fn script(&self, name: &str, body: &str) -> PathBuf {
        let path = self.write(name, format!("#!/bin/sh\n{body}\n"));
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// An executable script `name` that answers as the script `oracle` of this directory,
    /// behind a memo keyed by the candidate's SHA-256 (in `memo-<name>/`): reductions that
    /// must agree (the same input with other `--jobs`) run each distinct candidate once.
    pub fn memo_script(&self, name: &str, oracle: &str) -> PathBuf {
        let memo = self.join(&format!("memo-{name}"));
        fs::create_dir_all(&memo).unwrap();
        self.script(
            name,
            &format!(
                r#"h=$(sha256sum < "$1")
m={memo}/${{h%% *}}
[ -f "$m" ] && {{ read -r r < "$m"; exit "$r"; }}
{oracle} "$1"; r=$?
echo $r > "$m.$$" && mv "$m.$$" "$m"
exit $r"#,
                memo = memo.display(),
                oracle = self.join(oracle).display(),
            ),
        )
    }

    pub fn read(&self, name: &str) -> Vec<u8> {
        fs::read(self.join(name)).unwrap_or_else(|e| panic!("cannot read {name}: {e}"))
    }

    pub fn read_string(&self, name: &str) -> String {
        String::from_utf8(self.read(name)).unwrap()
    }

    /// A test directory holding `input.txt` and the executable script `oracle.sh` (`oracle`
    /// is its body), the setup of most text-reduction tests.
    pub fn text_case(input: impl AsRef<[u8]>, oracle: &str) -> Dir {
        let d = Dir::new();
        d.write("input.txt", input);
        d.script("oracle.sh", oracle);
        d
    }

    /// `m.c`, four C functions with five calls of `h(`, and `oracle.sh`, interesting while
    /// any three `h(` remain: a tree reduction with several 1-minimal answers.
    pub fn three_calls_case() -> Dir {
        let d = Dir::new();
        d.write(
            "m.c",
            "int h(int x) { return x; }\nint a(void) { return h(1) + h(2); }\n\
             int b(void) { int y = h(3); return y * h(4); }\nint c(void) { return h(5) - 1; }\n",
        );
        d.script("oracle.sh", r#"test "$(grep -o 'h(' "$1" | wc -l)" -ge 3"#);
        d
    }

    /// Run `treedd --test oracle.sh ARGS input.txt`.
    pub fn reduce(&self, args: &[&str]) -> Run {
        let mut all = vec!["--test", "oracle.sh"];
        all.extend_from_slice(args);
        all.push("input.txt");
        self.run(&all)
    }

    /// A `--stats` file treedd wrote, parsed.
    pub fn stats(&self, name: &str) -> serde_json::Value {
        serde_json::from_slice(&self.read(name))
            .unwrap_or_else(|e| panic!("{name} is not JSON: {e}"))
    }

    /// The treedd binary, run in this directory with TMPDIR = `tmp/`.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_treedd"));
        cmd.current_dir(&self.path).env("TMPDIR", self.join("tmp"));
        cmd
    }

    /// Run treedd with `args`; the output with stderr decoded.
    pub fn run(&self, args: &[&str]) -> Run {
        Run::from(self.cmd().args(args).output().expect("cannot run treedd"))
    }

    /// Names in `tmp/` (the oracle runner's temporary directories must all be gone).
    pub fn tmp_entries(&self) -> Vec<String> {
        fs::read_dir(self.join("tmp"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    /// Names of the files in the test directory itself, sorted.
    pub fn entries(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&self.path)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Run {
    /// Assert the exit code, showing stderr when it differs.
    #[track_caller]
    pub fn expect_code(&self, code: i32) -> &Run {
        assert_eq!(
            self.code,
            Some(code),
            "unexpected exit code\n--- stderr:\n{}\n--- stdout:\n{}",
            self.stderr,
            self.stdout
        );
        self
    }

    /// Run the shell recipe of an "original not interesting" message (from `/`): the
    /// recipe, and the shell's stdout (with its "exit status N") and stderr.
    #[track_caller]
    pub fn run_recipe(&self) -> (String, String, String) {
        let recipe = self
            .stderr
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("d=$(mktemp"))
            .unwrap_or_else(|| panic!("no recipe in the message:\n{}", self.stderr))
            .to_string();
        let out = Command::new("sh")
            .arg("-c")
            .arg(&recipe)
            .current_dir("/")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (recipe, stdout, stderr)
    }

    /// Assert the whole message on stderr: every line but the progress lines (whose counts
    /// and times vary), with the test directory `d` shown as `$DIR` and the process id and
    /// random part of temporary names as `PID` and `XXXXXX` (`.treedd-XXXXXX`,
    /// `treedd-run-PID-XXXXXX`), and the original's run time as `T`.
    #[track_caller]
    pub fn expect_message(&self, d: &Dir, expected: &expect_test::Expect) -> &Run {
        let dir = d.path.to_string_lossy();
        let message: String = self
            .stderr
            .split_inclusive('\n')
            .filter(|l| !(l.contains(" oracle runs, ") && l.contains(" cache hits, ")))
            .map(|l| {
                let l = l.replace(dir.as_ref(), "$DIR");
                let l = mask_after(&l, "treedd-run-", |c| c.is_ascii_digit(), "PID");
                let l = mask_after(
                    &l,
                    "treedd-run-PID-",
                    |c| c.is_ascii_alphanumeric(),
                    "XXXXXX",
                );
                let l = mask_after(&l, "treedd-", |c| c.is_ascii_alphanumeric(), "XXXXXX");
                mask_after(
                    &l,
                    "the original's ",
                    |c| c.is_ascii_digit() || c == '.',
                    "T",
                )
            })
            .collect();
        expected.assert_eq(&message);
        self
    }

    #[track_caller]
    pub fn expect_stderr(&self, needle: &str) -> &Run {
        assert!(
            self.stderr.contains(needle),
            "stderr does not contain {needle:?}:\n{}",
            self.stderr
        );
        self
    }
}

/// `text` with the run of characters that `keep` accepts right after each `prefix` replaced
/// by `mask` (a run of 6 when the mask is `XXXXXX`, as `mkstemp` makes them).
fn mask_after(text: &str, prefix: &str, keep: impl Fn(char) -> bool, mask: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let (head, tail) = rest.split_at(at + prefix.len());
        out.push_str(head);
        let run: usize = tail
            .chars()
            .take_while(|&c| keep(c))
            .map(char::len_utf8)
            .sum();
        let fits = mask != "XXXXXX" || run == 6;
        if run > 0 && fits && !tail.starts_with(mask) {
            out.push_str(mask);
            rest = &tail[run..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// A shell function `javac_fast` for the oracles' scripts: `javac` with the JVM options of
/// the Java fixture's oracle (JIT tier 1, the serial GC) and a class-data archive of javac's
/// own classes in `~/.cache/treedd-fixtures/`, made by the first run (in the run's `TMPDIR`,
/// then renamed into place, so runs at once never read a part of it): a third of plain
/// `javac`'s time and CPU on a small file. Define it in the script before the first use.
#[macro_export]
macro_rules! javac_fast {
    () => {
        r#"javac_fast() {
  set -- -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -J-XX:-UsePerfData "$@"
  jsa="$HOME/.cache/treedd-fixtures/javac-tool-$(stat -L -c %Y-%s "$(command -v javac)").jsa"
  if [ -f "$jsa" ]; then javac -J-XX:SharedArchiveFile="$jsa" "$@"; return; fi
  mkdir -p "${jsa%/*}" 2>/dev/null || { javac "$@"; return; }
  dump="${TMPDIR:-/tmp}/javac-$$.jsa"
  javac -J-XX:ArchiveClassesAtExit="$dump" "$@"; r=$?
  [ -f "$dump" ] && cp "$dump" "$jsa.$$" && mv -f "$jsa.$$" "$jsa"
  rm -f "$dump" "$jsa.$$"
  return $r
}
"#
    };
}

/// Lines `0..n` joined, each with a trailing newline.
pub fn numbers(range: std::ops::Range<u32>) -> String {
    range.map(|i| format!("{i}\n")).collect()
}

/// Run an oracle script the way treedd does, on `contents` (for checking results).
pub fn is_interesting(oracle: &Path, file_name: &str, contents: &[u8]) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file_name);
    fs::write(&path, contents).unwrap();
    Command::new(oracle)
        .arg(&path)
        .current_dir(dir.path())
        .status()
        .unwrap()
        .success()
}

/// The repository's `fixtures/` directory.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// `output` is the expected reduction of the fixture `case` (`lang/name`) with `preset`,
/// the file `tests/reduced/<case>/<preset>.<ext>` (`ext` of the fixture's `input`); refresh
/// the files with `UPDATE_EXPECT=1`.
#[track_caller]
pub fn check_reduced(case: &str, preset: &str, input: &str, output: &[u8]) {
    let ext = input.rsplit_once('.').map_or("txt", |(_, e)| e);
    let expected = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/reduced")
        .join(case)
        .join(format!("{preset}.{ext}"));
    let output = std::str::from_utf8(output).expect("a fixture's output is UTF-8");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        if let Some(dir) = expected.parent() {
            fs::create_dir_all(dir).unwrap();
        }
    }
    expect_test::expect_file![expected].assert_eq(output);
}

impl Dir {
    /// Copy every file of `fixtures/<case>` into this directory (tests never write into the
    /// repository).
    pub fn copy_fixture(&self, case: &str) {
        let src = fixtures().join(case);
        for entry in fs::read_dir(&src).unwrap_or_else(|e| panic!("{}: {e}", src.display())) {
            let entry = entry.unwrap();
            fs::copy(entry.path(), self.path.join(entry.file_name())).unwrap();
        }
    }
}

/// `--test oracle.sh --unit line --jobs 2 input.txt`: the line reduction with two jobs that
/// the signal and kill tests start and interrupt.
pub const LINES_TWO_JOBS: [&str; 7] = [
    "--test",
    "oracle.sh",
    "--unit",
    "line",
    "--jobs",
    "2",
    "input.txt",
];

/// True once `pid` is gone (or a zombie whose parent is gone too), waiting up to 5 s.
pub fn is_gone(pid: u32) -> bool {
    let start = Instant::now();
    loop {
        let alive = fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| !stat.contains(") Z "));
        if !alive {
            return true;
        }
        if start.elapsed() > Duration::from_secs(5) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Wait until `cond` holds, failing after `secs` seconds.
#[track_caller]
pub fn wait_for(secs: u64, what: &str, mut cond: impl FnMut() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Send `signal` to `child` (spawned with its stderr piped) and wait for it: it must stop
/// within 5 s and exit with 130. Returns its stderr.
#[track_caller]
pub fn interrupt(child: Child, signal: &str) -> String {
    kill(&child, signal);
    let stop = Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(stop.elapsed() < Duration::from_secs(5), "slow to stop");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    stderr
}

/// Send `signal` (a name such as `INT` or `KILL`) to `child` with kill(1).
pub fn kill(child: &Child, signal: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// The sum of `field` (`accepted`, `oracle_runs`) over the `--stats` `rounds` records that
/// `keep` keeps (a pass, a round).
pub fn rounds_sum(
    stats: &serde_json::Value,
    field: &str,
    keep: impl Fn(&serde_json::Value) -> bool,
) -> u64 {
    let rounds = stats["rounds"].as_array().expect("--stats has rounds");
    rounds
        .iter()
        .filter(|r| keep(r))
        .map(|r| r[field].as_u64().unwrap())
        .sum()
}
