//! `--resume`: the state file that lets an interrupted or killed reduction
//! continue from the best result on disk.
//!
//! The state file is `<OUTPUT>.treedd-state.json`, next to the output. It is written (atomically)
//! just before the output is first written, and removed when the reduction finishes, so it
//! exists exactly while a reduction is unfinished. It records the input (path and SHA3-256,
//! so a changed input is noticed; for a directory input also every file's, so the message
//! names the files that changed), the options that shape the result, and the effective
//! per-run timeout (a derived default is reused rather than derived again from a smaller
//! file). `--resume` checks them against the command line, checks that the output is still
//! interesting, and reduces from it: every algorithm runs to its fixed point, so the result is
//! as small as an uninterrupted run's.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::output;

/// Bumped when the meaning of a field changes; another version is not resumed.
const VERSION: u32 = 1;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    pub version: u32,
    /// The input's absolute path and SHA3-256 (hex).
    pub input: String,
    pub input_sha3: String,
    /// The options that shape the result (not `--jobs`, `--quiet`, `--stats`, `--verify`).
    pub settings: serde_json::Value,
    /// The per-run timeout set, `None` = none.
    pub timeout_seconds: Option<f64>,
    /// A default timeout's pace: the least it may follow the runs down to (see
    /// `treedd_proc::TimeoutPace`); `None` = the timeout set holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_pace_seconds: Option<f64>,
    /// A directory input: each file's path (relative to the directory) and SHA3-256.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<BTreeMap<String, String>>,
}

impl State {
    pub fn new(
        input: &Path,
        bytes: &[u8],
        settings: serde_json::Value,
        timeout: Option<f64>,
    ) -> State {
        State {
            version: VERSION,
            input: std::path::absolute(input)
                .unwrap_or_else(|_| input.to_path_buf())
                .display()
                .to_string(),
            input_sha3: sha3_hex(bytes),
            settings,
            timeout_seconds: timeout,
            timeout_pace_seconds: None,
            files: None,
        }
    }

    /// The state of a directory input: `files` are its files (path, bytes).
    pub fn with_files<'a>(mut self, files: impl IntoIterator<Item = (String, &'a [u8])>) -> State {
        self.files = Some(files.into_iter().map(|(p, b)| (p, sha3_hex(b))).collect());
        self
    }

    /// Why this state cannot be resumed by a run with `other`'s input and settings, if it
    /// cannot: the names of what differs.
    pub fn mismatch(&self, other: &State) -> Option<String> {
        if self.version != VERSION {
            return Some(format!(
                "it was written by another treedd (state version {})",
                self.version
            ));
        }
        let mut diffs = Vec::new();
        if self.input != other.input {
            diffs.push(format!("input {} vs {}", self.input, other.input));
        } else if self.input_sha3 != other.input_sha3 {
            let changed = match (&self.files, &other.files) {
                (Some(a), Some(b)) => {
                    let names: Vec<&str> = a
                        .keys()
                        .chain(b.keys().filter(|k| !a.contains_key(*k)))
                        .filter(|k| a.get(*k) != b.get(*k))
                        .map(String::as_str)
                        .collect();
                    match names.is_empty() {
                        true => String::new(),
                        false => format!(" ({})", names.join(", ")),
                    }
                }
                _ => String::new(),
            };
            diffs.push(format!(
                "the input {} has changed since{changed}",
                self.input
            ));
        }
        if let (Some(a), Some(b)) = (self.settings.as_object(), other.settings.as_object()) {
            for (key, was) in a {
                let now = b.get(key).unwrap_or(&serde_json::Value::Null);
                if was != now {
                    diffs.push(format!("{key} was {was}, now {now}"));
                }
            }
            for key in b.keys().filter(|k| !a.contains_key(*k)) {
                diffs.push(format!("{key} is new"));
            }
        }
        (!diffs.is_empty()).then(|| diffs.join("; "))
    }
}

/// `crash.reduced.c` -> `crash.reduced.c.treedd-state.json`.
pub fn state_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".treedd-state.json");
    PathBuf::from(name)
}

/// The state of an unfinished reduction, `Ok(None)` if there is none.
pub fn load(output: &Path) -> io::Result<Option<State>> {
    match fs::read(state_path(output)) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

pub fn save(output: &Path, state: &State) -> io::Result<()> {
    let json = serde_json::to_string_pretty(state).map_err(io::Error::other)?;
    output::write_atomic(&state_path(output), format!("{json}\n").as_bytes(), None)
}

/// The reduction finished: no state is left behind.
pub fn remove(output: &Path) -> io::Result<()> {
    match fs::remove_file(state_path(output)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

fn sha3_hex(bytes: &[u8]) -> String {
    treedd_reduce::Cache::key(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mismatch_names_what_differs() {
        let settings = |alg: &str| serde_json::json!({"algorithm": alg, "cache": true});
        let a = State::new(Path::new("/x/in.c"), b"abc", settings("hdd"), Some(5.0));
        assert_eq!(
            a.mismatch(&State::new(
                Path::new("/x/in.c"),
                b"abc",
                settings("hdd"),
                None
            )),
            None
        );
        let m = a
            .mismatch(&State::new(
                Path::new("/x/in.c"),
                b"abd",
                settings("hddr"),
                None,
            ))
            .unwrap();
        assert!(
            m.contains("has changed") && m.contains("algorithm was \"hdd\", now \"hddr\""),
            "{m}"
        );
    }

    #[test]
    fn state_round_trips_next_to_the_output() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("a.reduced.c");
        assert!(load(&out).unwrap().is_none());
        let s = State {
            timeout_pace_seconds: Some(0.8),
            ..State::new(
                Path::new("/x/in.c"),
                b"abc",
                serde_json::json!({"k": 1}),
                Some(2.5),
            )
        };
        save(&out, &s).unwrap();
        assert!(t.path().join("a.reduced.c.treedd-state.json").exists());
        let back = load(&out).unwrap().unwrap();
        assert_eq!(back.mismatch(&s), None);
        assert_eq!(back.timeout_seconds, Some(2.5));
        assert_eq!(back.timeout_pace_seconds, Some(0.8));
        // A state written before the pace existed has none.
        let old = r#"{"version":1,"input":"/x/in.c","input_sha3":"00","settings":{},"timeout_seconds":5.0}"#;
        let old: State = serde_json::from_str(old).unwrap();
        assert_eq!(old.timeout_pace_seconds, None);
        remove(&out).unwrap();
        remove(&out).unwrap();
        assert!(load(&out).unwrap().is_none());
    }
}
