//! What the bench runs: treedd configurations (the dissertation's Table 7.1 as
//! `treedd_reduce`'s `Base` x `Hoisting`, DDMIN* on text, presets) and peer reducers.

use anyhow::{anyhow, bail, Result};
use treedd_reduce::{Base, Hoisting, TreeConfig};

/// Presets of the `treedd` binary (`--preset`) that `--configs all` includes.
pub(super) use treedd_reduce::PRESETS;

/// Name of the family as in the dissertation's table captions.
pub(super) fn family(base: Base) -> &'static str {
    match base {
        Base::Hdd => "HDD",
        Base::Hddr => "HDDr",
        Base::CoarseHdd => "Coarse HDD",
        Base::CoarseHddr => "Coarse HDDr",
    }
}

/// Column heading of Table 7.1 for a hoisting combination.
pub(super) fn hoisting_column(hoist: Hoisting) -> &'static str {
    match hoist {
        Hoisting::None => "Algorithm",
        Hoisting::Pre => "Preprocessing",
        Hoisting::Interlace => "Interlacing",
        Hoisting::Both => "Preprocessing & Interlacing",
    }
}

/// Value of `treedd --algorithm` (the binary's spelling, see crates/cli/src/flags.rs).
fn algorithm_flag(base: Base) -> &'static str {
    match base {
        Base::Hdd => "hdd",
        Base::Hddr => "hddr",
        Base::CoarseHdd => "coarse-hdd",
        Base::CoarseHddr => "coarse-hddr",
    }
}

/// Value of `treedd --hoist`.
fn hoist_flag(hoist: Hoisting) -> &'static str {
    match hoist {
        Hoisting::None => "none",
        Hoisting::Pre => "pre",
        Hoisting::Interlace => "interlace",
        Hoisting::Both => "both",
    }
}

/// Another reducer run on the same cases with the same oracles (`--peers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Peer {
    CReduce,
    CVise,
    /// David R. MacIver's Shrink Ray as on PyPI today, in a Python 3.12 virtual environment
    /// of its own (`SHRINKRAY_VENV`).
    ShrinkRay,
    /// Langston Barrett's treereduce, one program per language (`treereduce-c`, ...).
    TreeReduce,
}

/// Where `--peers shrinkray` looks first for Shrink Ray, below the home folder: a Python 3.12
/// virtual environment holding today's release (the PyPI name's old 0.0.2 of 2018 is
/// another program).
pub(super) const SHRINKRAY_VENV: &str = ".cache/treedd-bench/shrinkray-venv";

/// The languages treereduce has a program for (`treereduce-<language>`, crates.io 0.4.1),
/// among treedd's.
pub(super) const TREEREDUCE_LANGUAGES: [&str; 4] = ["c", "java", "javascript", "rust"];

impl Peer {
    pub(super) const ALL: [Peer; 4] = [
        Peer::CReduce,
        Peer::CVise,
        Peer::ShrinkRay,
        Peer::TreeReduce,
    ];

    /// Name in results and on the command line; also the program's name (treereduce's
    /// programs add the language: [`Peer::program_name`]).
    pub(super) fn slug(self) -> &'static str {
        match self {
            Peer::CReduce => "creduce",
            Peer::CVise => "cvise",
            Peer::ShrinkRay => "shrinkray",
            Peer::TreeReduce => "treereduce",
        }
    }

    /// Name in tables.
    pub(super) fn title(self) -> &'static str {
        match self {
            Peer::CReduce => "C-Reduce",
            Peer::CVise => "C-Vise",
            Peer::ShrinkRay => "Shrink Ray",
            Peer::TreeReduce => "treereduce",
        }
    }

    /// The program that reduces inputs of treedd's `language`, or `None` if the peer has
    /// none for it (treereduce: no C++, TypeScript, Python or Go).
    pub(super) fn program_name(self, language: &str) -> Option<String> {
        match self {
            Peer::TreeReduce => TREEREDUCE_LANGUAGES
                .contains(&language)
                .then(|| format!("treereduce-{language}")),
            other => Some(other.slug().to_string()),
        }
    }

    /// How to install the peer's program, for the error when it is not found.
    pub(super) fn install_hint(self) -> String {
        match self {
            Peer::CReduce => "apt-get install creduce".to_string(),
            Peer::CVise => "apt-get install cvise".to_string(),
            Peer::ShrinkRay => format!(
                "~/.pyenv/versions/3.12.1/bin/python -m venv ~/{SHRINKRAY_VENV} && \
                 ~/{SHRINKRAY_VENV}/bin/pip install shrinkray"
            ),
            Peer::TreeReduce => format!(
                "cargo install {}",
                TREEREDUCE_LANGUAGES
                    .map(|l| format!("treereduce-{l}"))
                    .join(" ")
            ),
        }
    }

    pub(super) fn parse_list(list: &str) -> Result<Vec<Peer>> {
        let mut out = Vec::new();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let peer = Peer::ALL
                .into_iter()
                .find(|p| p.slug() == name.to_ascii_lowercase())
                .ok_or_else(|| {
                    anyhow!(
                        "--peers: unknown reducer `{name}`; known: creduce, cvise, shrinkray, \
                         treereduce"
                    )
                })?;
            if !out.contains(&peer) {
                out.push(peer);
            }
        }
        Ok(out)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Config {
    /// One of the 16 configurations of Table 7.1, to the fixed point (`TreeConfig::new`).
    Tree(Base, Hoisting),
    /// Two-pass line-then-character DDMIN* on the text (dissertation ch. 5).
    TextDdmin,
    Preset(String),
    Peer(Peer),
    /// A treedd configuration with more treedd flags, named `BASE+KEY=VALUE+FLAG...`
    /// (`preset-balanced+list-minimizer=probdd+order=size` runs `--preset balanced
    /// --list-minimizer probdd --order size`): list minimizers, orders or ddmin options side
    /// by side in one store. The options are kept sorted by name, so one configuration has
    /// one name.
    With(Box<Config>, Vec<TreeddOption>),
}

/// One treedd flag of a [`Config::With`]: `--NAME VALUE`, or `--NAME` alone.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct TreeddOption {
    pub(super) name: String,
    pub(super) value: Option<String>,
}

/// Flags the harness sets itself, or that the base configuration sets: never an option.
const RESERVED_FLAGS: [&str; 12] = [
    "test",
    "output",
    "stats",
    "jobs",
    "quiet",
    "resume",
    "language",
    "preset",
    "algorithm",
    "hoist",
    "unit",
    "help",
];

impl TreeddOption {
    /// `KEY=VALUE` or `FLAG` (without the leading `--`).
    fn parse(text: &str) -> Result<TreeddOption> {
        let (name, value) = match text.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (text, None),
        };
        let name = name.trim_start_matches("--");
        let valid_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !name.starts_with('-');
        if !valid_name {
            bail!("--configs: `{text}` is not a treedd option (`name=value` or `flag`)");
        }
        if RESERVED_FLAGS.contains(&name) {
            bail!("--configs: `--{name}` is set by the bench or the base configuration");
        }
        if let Some(v) = value {
            if v.is_empty() || v.contains(|c: char| c.is_whitespace() || c == '+' || c == ',') {
                bail!("--configs: bad value `{v}` for `{name}` (no spaces, `+` or `,`)");
            }
        }
        Ok(TreeddOption {
            name: name.to_string(),
            value: value.map(str::to_string),
        })
    }

    /// `name=value` or `name`, as in a configuration's name.
    fn text(&self) -> String {
        match &self.value {
            Some(v) => format!("{}={v}", self.name),
            None => self.name.clone(),
        }
    }
}

impl Config {
    /// The 16 of Table 7.1 (`TreeConfig::all16`), DDMIN* on text, the presets.
    pub(super) fn all() -> Vec<Config> {
        let mut all: Vec<Config> = TreeConfig::all16()
            .iter()
            .map(|c| Config::Tree(c.base, c.hoist))
            .collect();
        all.push(Config::TextDdmin);
        all.extend(PRESETS.iter().map(|p| Config::Preset(p.to_string())));
        all
    }

    pub(super) fn parse_list(list: &str) -> Result<Vec<Config>> {
        match list.trim() {
            "all" => return Ok(Config::all()),
            // The 16 of Table 7.1 only.
            "all16" => {
                return Ok(Config::all()
                    .into_iter()
                    .filter(|c| matches!(c, Config::Tree(..)))
                    .collect())
            }
            // Only the peers of `--peers`.
            "none" => return Ok(Vec::new()),
            _ => {}
        }
        let mut out: Vec<Config> = Vec::new();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let config = Config::parse(name)?;
            if !out.contains(&config) {
                out.push(config);
            }
        }
        if out.is_empty() {
            bail!("--configs: no configuration named");
        }
        Ok(out)
    }

    /// A slug, a paper name (`Hoist*+HDDH*`, also treedd's `Hoist^r*+HDDH^r*`), `preset-NAME`
    /// or a peer's name; any but a peer followed by treedd options, `+NAME=VALUE` or `+FLAG`
    /// (see [`Config::With`]): the longest run of `+`-parts that names a configuration is
    /// the base, the parts after it are the options.
    pub(super) fn parse(name: &str) -> Result<Config> {
        let parts: Vec<&str> = name.split('+').collect();
        for k in (1..=parts.len()).rev() {
            let Ok(base) = Config::parse_plain(&parts[..k].join("+")) else {
                continue;
            };
            if k == parts.len() {
                return Ok(base);
            }
            if let Config::Peer(p) = base {
                bail!(
                    "--configs: {} takes no treedd options (`{name}`)",
                    p.title()
                );
            }
            let mut options = parts[k..]
                .iter()
                .map(|o| TreeddOption::parse(o))
                .collect::<Result<Vec<_>>>()?;
            options.sort();
            if options.windows(2).any(|w| w[0].name == w[1].name) {
                bail!("--configs: an option given twice in `{name}`");
            }
            return Ok(Config::With(Box::new(base), options));
        }
        // Nothing names a configuration: the error of the part before the options.
        let plain: Vec<&str> = parts
            .iter()
            .copied()
            .take_while(|p| !p.contains('='))
            .collect();
        Config::parse_plain(&if plain.is_empty() {
            name.to_string()
        } else {
            plain.join("+")
        })
    }

    /// [`Config::parse`] without options.
    fn parse_plain(name: &str) -> Result<Config> {
        if let Some(preset) = name.strip_prefix("preset-") {
            if preset.is_empty() {
                bail!("--configs: `preset-` needs a preset name");
            }
            if !preset
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                bail!("--configs: `{preset}` is not a preset name");
            }
            return Ok(Config::Preset(preset.to_string()));
        }
        if let Some(&peer) = Peer::ALL.iter().find(|p| p.slug() == name) {
            return Ok(Config::Peer(peer));
        }
        let lower = name.to_ascii_lowercase().replace(['*', ' ', '^'], "");
        Config::all()
            .into_iter()
            .find(|c| c.slug().replace('-', "") == lower.replace('-', ""))
            .ok_or_else(|| {
                let known: Vec<String> = Config::all().iter().map(Config::slug).collect();
                anyhow!(
                    "--configs: unknown configuration `{name}`; known: {}, preset-NAME, and \
                     any of them followed by treedd options (`+NAME=VALUE`, `+FLAG`)",
                    known.join(", ")
                )
            })
    }

    /// The name used in the papers' tables, e.g. `Hoist*+HDDH*` or `Coarse HDDr*`
    /// (`TreeConfig::name` without its `^`).
    pub(super) fn paper_name(&self) -> String {
        match self {
            Config::Tree(b, h) => TreeConfig::new(*b, *h).name().replace('^', ""),
            Config::TextDdmin => "DDMIN* (line+char)".to_string(),
            Config::Preset(p) => format!("preset {p}"),
            Config::Peer(p) => p.title().to_string(),
            Config::With(base, options) => {
                let list: Vec<String> = options.iter().map(TreeddOption::text).collect();
                format!("{} ({})", base.paper_name(), list.join(", "))
            }
        }
    }

    /// The name used on the command line and in results, e.g. `hoist+hddh`.
    pub(super) fn slug(&self) -> String {
        match self {
            Config::Tree(..) => self
                .paper_name()
                .to_ascii_lowercase()
                .replace(' ', "-")
                .replace('*', ""),
            Config::TextDdmin => "ddmin-text".to_string(),
            Config::Preset(p) => format!("preset-{p}"),
            Config::Peer(p) => p.slug().to_string(),
            Config::With(base, options) => {
                let mut slug = base.slug();
                for o in options {
                    slug.push('+');
                    slug.push_str(&o.text());
                }
                slug
            }
        }
    }

    /// Position in tables: the order of `Config::all()`, a configuration with options right
    /// after its base, the others by name after all of them.
    pub(super) fn order(&self) -> (usize, String) {
        let all = Config::all();
        let plain = match self {
            Config::With(base, _) => base,
            other => other,
        };
        match all.iter().position(|c| c == plain) {
            Some(i) if plain == self => (i, String::new()),
            Some(i) => (i, self.slug()),
            None => (all.len(), self.slug()),
        }
    }

    /// Whether the configuration needs a grammar for the case's language.
    pub(super) fn needs_grammar(&self) -> bool {
        match self {
            Config::With(base, _) => base.needs_grammar(),
            other => matches!(other, Config::Tree(..) | Config::Preset(_)),
        }
    }

    /// `treedd` arguments selecting this configuration (none for a peer).
    pub(super) fn treedd_args(&self, language: &str) -> Vec<String> {
        let v = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        match self {
            Config::Tree(b, h) => v(&[
                "--language",
                language,
                "--algorithm",
                algorithm_flag(*b),
                "--hoist",
                hoist_flag(*h),
            ]),
            Config::TextDdmin => v(&["--language", "text", "--unit", "line+char"]),
            Config::Preset(p) => v(&["--language", language, "--preset", p]),
            Config::Peer(_) => Vec::new(),
            Config::With(base, options) => {
                let mut args = base.treedd_args(language);
                for o in options {
                    args.push(format!("--{}", o.name));
                    args.extend(o.value.clone());
                }
                args
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configurations_are_the_papers_sixteen_plus_text() {
        use std::collections::BTreeSet;
        let all = Config::all();
        assert_eq!(all.len(), 17 + PRESETS.len());
        let names: Vec<String> = all.iter().map(Config::paper_name).collect();
        assert_eq!(
            names[..8],
            [
                "HDD*",
                "Hoist*+HDD*",
                "HDDH*",
                "Hoist*+HDDH*",
                "HDDr*",
                "Hoistr*+HDDr*",
                "HDDHr*",
                "Hoistr*+HDDHr*"
            ]
        );
        assert_eq!(names[12], "Coarse HDDr*");
        assert_eq!(names[15], "Coarse Hoistr*+HDDHr*");
        let slugs: BTreeSet<String> = all.iter().map(Config::slug).collect();
        assert_eq!(slugs.len(), all.len(), "slugs are unique");
        for config in &all {
            assert_eq!(&Config::parse(&config.slug()).unwrap(), config);
            if let Config::Tree(..) = config {
                assert_eq!(&Config::parse(&config.paper_name()).unwrap(), config);
            }
        }
        assert_eq!(
            Config::parse("coarse-hoistr+hddhr").unwrap(),
            Config::Tree(Base::CoarseHddr, Hoisting::Both)
        );
        assert_eq!(
            Config::parse("Coarse Hoist^r*+HDDH^r*").unwrap(),
            Config::Tree(Base::CoarseHddr, Hoisting::Both),
            "treedd's own spelling"
        );
        assert_eq!(
            Config::parse("preset-fast").unwrap(),
            Config::Preset("fast".into())
        );
        let err = Config::parse("hdx").unwrap_err().to_string();
        assert!(
            err.contains("unknown configuration `hdx`") && err.contains("hoist+hddh"),
            "{err}"
        );
        assert_eq!(Config::parse_list("hdd, hddh,hdd").unwrap().len(), 2);
        assert!(Config::parse_list(" , ").is_err());
        assert!(Config::parse_list("none").unwrap().is_empty());
        assert_eq!(Config::parse_list("all16").unwrap(), all[..16]);
        assert_eq!(
            Config::Tree(Base::CoarseHddr, Hoisting::Interlace).treedd_args("c"),
            [
                "--language",
                "c",
                "--algorithm",
                "coarse-hddr",
                "--hoist",
                "interlace"
            ]
        );
        assert_eq!(
            Config::TextDdmin.treedd_args("c"),
            ["--language", "text", "--unit", "line+char"]
        );
    }

    #[test]
    fn configurations_carry_treedd_options() {
        let c = Config::parse("preset-balanced+order=size+list-minimizer=probdd").unwrap();
        let opt = |name: &str, value: Option<&str>| TreeddOption {
            name: name.into(),
            value: value.map(String::from),
        };
        assert_eq!(
            c,
            Config::With(
                Box::new(Config::Preset("balanced".into())),
                vec![
                    opt("list-minimizer", Some("probdd")),
                    opt("order", Some("size"))
                ]
            )
        );
        // One name per configuration: the options sorted.
        assert_eq!(c.slug(), "preset-balanced+list-minimizer=probdd+order=size");
        assert_eq!(Config::parse(&c.slug()).unwrap(), c);
        assert_eq!(
            c.paper_name(),
            "preset balanced (list-minimizer=probdd, order=size)"
        );
        assert_eq!(
            c.treedd_args("c"),
            [
                "--language",
                "c",
                "--preset",
                "balanced",
                "--list-minimizer",
                "probdd",
                "--order",
                "size"
            ]
        );
        assert!(c.needs_grammar());
        // A base whose name has a `+`, a flag without a value, an existing flag.
        let h = Config::parse("hoist+hddh+greeddy+split-factor=4").unwrap();
        assert_eq!(h.slug(), "hoist+hddh+greeddy+split-factor=4");
        assert_eq!(
            h.treedd_args("javascript")[6..],
            ["--greeddy", "--split-factor", "4"]
        );
        assert_eq!(h.paper_name(), "Hoist*+HDDH* (greeddy, split-factor=4)");
        let t = Config::parse("ddmin-text+split-factor=max").unwrap();
        assert!(!t.needs_grammar());
        assert_eq!(
            t.treedd_args("c"),
            [
                "--language",
                "text",
                "--unit",
                "line+char",
                "--split-factor",
                "max"
            ]
        );
        // Right after its base in tables, before the next configuration.
        let all = Config::all();
        let balanced = Config::Preset("balanced".into());
        assert!(balanced.order() < c.order());
        let next = all.iter().position(|x| *x == balanced).unwrap() + 1;
        if let Some(after) = all.get(next) {
            assert!(c.order() < after.order());
        }
        for bad in [
            "preset-balanced+jobs=2",
            "hdd+stats=x.json",
            "hdd+order=",
            "hdd+Order=size",
            "hdd+order=size+order=bfs",
            "cvise+order=size",
            "hdx+order=size",
        ] {
            assert!(Config::parse(bad).is_err(), "{bad}");
        }
        let err = Config::parse("hdx+order=size").unwrap_err().to_string();
        assert!(err.contains("unknown configuration `hdx`"), "{err}");
        assert_eq!(
            Config::parse_list("hdd,hdd+split-factor=4,preset-balanced+split-factor=max")
                .unwrap()
                .len(),
            3
        );
    }

    #[test]
    fn peers_are_named_and_parsed() {
        assert_eq!(
            Peer::parse_list("creduce, cvise,creduce").unwrap(),
            [Peer::CReduce, Peer::CVise]
        );
        assert_eq!(
            Peer::parse_list("ShrinkRay,cvise").unwrap(),
            [Peer::ShrinkRay, Peer::CVise]
        );
        assert!(Peer::parse_list("perses").is_err());
        for peer in Peer::ALL {
            let config = Config::Peer(peer);
            assert_eq!(Config::parse(&config.slug()).unwrap(), config);
            assert!(!config.needs_grammar());
        }
        assert_eq!(Config::Peer(Peer::CVise).paper_name(), "C-Vise");
        assert_eq!(Config::Peer(Peer::ShrinkRay).paper_name(), "Shrink Ray");
        assert_eq!(Peer::parse_list("treereduce").unwrap(), [Peer::TreeReduce]);
        assert_eq!(
            Peer::TreeReduce.program_name("javascript").as_deref(),
            Some("treereduce-javascript")
        );
        assert_eq!(Peer::TreeReduce.program_name("cpp"), None);
        assert_eq!(Peer::CVise.program_name("cpp").as_deref(), Some("cvise"));
        assert!(Peer::TreeReduce
            .install_hint()
            .contains("treereduce-c treereduce-java"));
    }
}
