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
    /// David R. MacIver's Shrink Ray as on PyPI (`shrinkray` 0.0.2, an early 2018 release).
    ShrinkRay,
}

impl Peer {
    pub(super) const ALL: [Peer; 3] = [Peer::CReduce, Peer::CVise, Peer::ShrinkRay];

    /// Name in results and on the command line; also the program's name.
    pub(super) fn slug(self) -> &'static str {
        match self {
            Peer::CReduce => "creduce",
            Peer::CVise => "cvise",
            Peer::ShrinkRay => "shrinkray",
        }
    }

    /// Name in tables.
    pub(super) fn title(self) -> &'static str {
        match self {
            Peer::CReduce => "C-Reduce",
            Peer::CVise => "C-Vise",
            Peer::ShrinkRay => "Shrink Ray",
        }
    }

    /// How to install the peer's program, for the error when it is not in `PATH`.
    pub(super) fn install_hint(self) -> &'static str {
        match self {
            Peer::CReduce => "apt-get install creduce",
            Peer::CVise => "apt-get install cvise",
            Peer::ShrinkRay => "pip install shrinkray==0.0.2",
        }
    }

    pub(super) fn parse_list(list: &str) -> Result<Vec<Peer>> {
        let mut out = Vec::new();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let peer = Peer::ALL
                .into_iter()
                .find(|p| p.slug() == name.to_ascii_lowercase())
                .ok_or_else(|| {
                    anyhow!("--peers: unknown reducer `{name}`; known: creduce, cvise, shrinkray")
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
    /// or a peer's name.
    pub(super) fn parse(name: &str) -> Result<Config> {
        if let Some(preset) = name.strip_prefix("preset-") {
            if preset.is_empty() {
                bail!("--configs: `preset-` needs a preset name");
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
                    "--configs: unknown configuration `{name}`; known: {}, preset-NAME",
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
        }
    }

    /// Position in tables: the order of `Config::all()`, the others by name after it.
    pub(super) fn order(&self) -> (usize, String) {
        let all = Config::all();
        match all.iter().position(|c| c == self) {
            Some(i) => (i, String::new()),
            None => (all.len(), self.slug()),
        }
    }

    /// Whether the configuration needs a grammar for the case's language.
    pub(super) fn needs_grammar(&self) -> bool {
        matches!(self, Config::Tree(..) | Config::Preset(_))
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
    }
}
