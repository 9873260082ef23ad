//! The command line of `cargo xtask bench`.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, bail, Result};

use super::config::{Config, Peer};

pub(super) const USAGE: &str = "\
usage: cargo xtask bench [OPTIONS]
       cargo xtask bench micro [--treedd PATH] [--publish]
       cargo xtask bench micro-grammar [--treedd PATH]   (only the --grammar figures)
       cargo xtask bench speculation [--treedd PATH] [--publish]
       cargo xtask bench big [--treedd PATH] [--time-limit SECONDS] [--publish]
                        (treedd's own CPU per oracle run and peak memory on the cpp-ice
                        inputs and a made 5 MB one, 300 s each by default; --publish writes
                        docs/bench/big.md)
                        (--jobs 1/2/4/8 with a 0.1 s sleep oracle, --jobs 1/2 on JRTS and on
                        fixtures with real oracles; --publish writes docs/bench/speculation.md)

Options:
  --suite NAME|PATH     fixtures (default), any folder of the shared suites beside the
                        repository (jrts, perses, c-ice, c-ice-large, cpp-ice, rust-ice,
                        go-ice, python-crash, ts-crash, java-crash, ...) or a folder
  --configs LIST        `all`, `all16` (Table 7.1 only), `none` (only --peers) or a comma
                        list of configuration names (default: all);
                        names: hdd, hoist+hdd, hddh, hoist+hddh, hddr, hoistr+hddr, hddhr,
                        hoistr+hddhr, coarse-hdd, ... , ddmin-text, preset-NAME; any of
                        them followed by treedd flags, +NAME=VALUE or +FLAG (e.g.
                        preset-balanced+list-minimizer=probdd+order=size runs
                        --preset balanced --list-minimizer probdd --order size; the options
                        are sorted by name in the configuration's name)
  --peers LIST          also run these reducers (creduce, cvise, shrinkray, treereduce) on the
                        same cases with the same oracles, time limit and --jobs, as
                        configurations of their own; shrinkray: today's Shrink Ray from PyPI
                        in ~/.cache/treedd-bench/shrinkray-venv (Python 3.12); treereduce:
                        treereduce-c, -java, -javascript, -rust (cargo install), on the
                        cases of those languages
  --cases LIST          only these cases (comma list of case folder names)
  --jobs LIST           comma list of --jobs values for treedd (default: 1)
  --time-limit SECONDS  wall-clock cap per run (default: 600)
  --rerun               rerun finished case x configuration x jobs combinations
  --dry-run             list the cases (input, language, size, oracle) and the runs to do;
                        run nothing
  --report-only         do not run anything, only render the report from stored results
  --published           with --report-only: re-render docs/bench/<suite>/ from its own
                        results.jsonl (imported once from results.csv where missing)
  --treedd PATH         use this binary instead of building target/release/treedd
  --publish             also copy the report (tables.md, results.csv, SVGs) and its rows
                        (results.jsonl) to docs/bench/<suite>/; with `micro`, copy micro.md
                        and micro.json to docs/bench/";

#[derive(Debug)]
pub(super) enum Invocation {
    Help,
    Suite(SuiteOptions),
    Micro {
        treedd: Option<PathBuf>,
        publish: bool,
    },
    Speculation {
        treedd: Option<PathBuf>,
        publish: bool,
    },
    Big {
        treedd: Option<PathBuf>,
        publish: bool,
        time_limit: Duration,
    },
}

#[derive(Debug)]
pub(super) struct SuiteOptions {
    pub(super) suite: String,
    pub(super) configs: Vec<Config>,
    pub(super) peers: Vec<Peer>,
    pub(super) cases: Option<BTreeSet<String>>,
    pub(super) jobs: Vec<usize>,
    pub(super) time_limit: Duration,
    pub(super) rerun: bool,
    pub(super) report_only: bool,
    /// List the cases and the runs to do, run nothing.
    pub(super) dry_run: bool,
    /// Render from and into docs/bench/<suite>/ (implies `report_only`).
    pub(super) published: bool,
    pub(super) treedd: Option<PathBuf>,
    pub(super) publish: bool,
}

pub(super) fn parse_args(args: &[String]) -> Result<Invocation> {
    let mut micro = false;
    let mut speculation = false;
    let mut big = false;
    let mut time_limit = None;
    let mut opts = SuiteOptions {
        suite: "fixtures".to_string(),
        configs: Config::all(),
        peers: Vec::new(),
        cases: None,
        jobs: vec![1],
        time_limit: Duration::from_secs(600),
        rerun: false,
        report_only: false,
        dry_run: false,
        published: false,
        treedd: None,
        publish: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it
                    .next()
                    .cloned()
                    .ok_or_else(|| anyhow!("{name} needs a value\n\n{USAGE}")),
            }
        };
        match flag {
            "micro" if !micro && !speculation && !big => micro = true,
            "speculation" if !micro && !speculation && !big => speculation = true,
            "big" if !micro && !speculation && !big => big = true,
            "-h" | "--help" => return Ok(Invocation::Help),
            "--suite" => opts.suite = value(flag)?,
            "--configs" => opts.configs = Config::parse_list(&value(flag)?)?,
            "--peers" => opts.peers = Peer::parse_list(&value(flag)?)?,
            "--cases" => {
                let list = value(flag)?;
                opts.cases = Some(list.split(',').map(|s| s.trim().to_string()).collect());
            }
            "--jobs" => {
                opts.jobs = value(flag)?
                    .split(',')
                    .map(|s| match s.trim().parse::<usize>() {
                        Ok(n) if n > 0 => Ok(n),
                        _ => Err(anyhow!("--jobs: `{s}` is not a positive number")),
                    })
                    .collect::<Result<_>>()?;
            }
            "--time-limit" => {
                let v = value(flag)?;
                let secs: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| anyhow!("--time-limit: `{v}` is not a positive number"))?;
                opts.time_limit = Duration::from_secs_f64(secs);
                time_limit = Some(opts.time_limit);
            }
            "--rerun" => opts.rerun = true,
            "--report-only" => opts.report_only = true,
            "--dry-run" => opts.dry_run = true,
            "--published" => {
                opts.published = true;
                opts.report_only = true;
            }
            "--publish" => opts.publish = true,
            "--treedd" => opts.treedd = Some(PathBuf::from(value(flag)?)),
            other => bail!("unknown argument `{other}`\n\n{USAGE}"),
        }
    }
    if big {
        return Ok(Invocation::Big {
            treedd: opts.treedd,
            publish: opts.publish,
            time_limit: time_limit.unwrap_or(Duration::from_secs(300)),
        });
    }
    if speculation {
        return Ok(Invocation::Speculation {
            treedd: opts.treedd,
            publish: opts.publish,
        });
    }
    if micro {
        return Ok(Invocation::Micro {
            treedd: opts.treedd,
            publish: opts.publish,
        });
    }
    Ok(Invocation::Suite(opts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_parsed_and_bad_ones_rejected() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let Invocation::Suite(o) = parse_args(&args(
            "--suite jrts --configs hdd,hddh --jobs 1,4 --time-limit=2.5 --rerun --peers cvise \
             --dry-run",
        ))
        .unwrap() else {
            panic!("not a suite run");
        };
        assert_eq!(o.suite, "jrts");
        assert_eq!(o.configs.len(), 2);
        assert_eq!(o.peers, [Peer::CVise]);
        assert_eq!(o.jobs, [1, 4]);
        assert_eq!(o.time_limit, Duration::from_millis(2500));
        assert!(o.rerun && !o.report_only && o.dry_run);
        let Invocation::Suite(d) = parse_args(&[]).unwrap() else {
            panic!("not a suite run")
        };
        assert_eq!(
            (d.suite.as_str(), d.configs.len(), d.jobs.as_slice()),
            ("fixtures", Config::all().len(), &[1][..])
        );
        assert!(matches!(
            parse_args(&args("micro --publish")).unwrap(),
            Invocation::Micro {
                treedd: None,
                publish: true
            }
        ));
        for bad in [
            "--jobs 0",
            "--time-limit -1",
            "--suite",
            "--frobnicate",
            "--configs nope",
            "--peers perses",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }
}
