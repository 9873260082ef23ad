//! `rename`, `replace-ids` and `params` across the files of a directory: a name declared in
//! one file and used in others (a function in a header, its definition and its calls) is
//! renamed in all of them at once, its uses in every file are replaced together, and a
//! parameter goes from its prototype, its definition and every call at once, which none of
//! the passes can do inside one file without breaking the others.
//!
//! Both work on the facts of each file in its own language ([`Lang::facts`]); files without a
//! grammar (text) take no part. Candidates whose changed files have more syntax errors than
//! allowed ([`Across::allowed`]) are not tested. Like the passes of one file, no candidate
//! makes a file longer, the answers alone decide (whatever `jobs`), and every accepted
//! candidate is interesting.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use treedd_proc::Files;
use treedd_tree::{count_errors, Facts, Lang, ListSite};

use super::params::remove_element;
use super::rename::fresh_name;
use super::replace_ids::REPLACE_TARGETS;
use super::splice::{apply, Splice};
use crate::ddmin::ddmin_indices;
use crate::engine::driver::first_interesting;
use crate::{DdminOptions, Judge};

/// A change of the tree of files: in file `.0`, the splice `.1`.
type FileSplice = (usize, Splice);

/// The state of the passes across files: the judge of the whole tree and what each file is.
pub(crate) struct Across<'a> {
    pub judge: &'a Judge,
    pub ddmin: DdminOptions,
    /// The language of each file with a grammar (by path; the others are text).
    pub lang: &'a (dyn Fn(&std::path::Path) -> Lang + Sync),
    /// The syntax errors a file may have (its input's, by path).
    pub allowed: &'a (dyn Fn(&std::path::Path, Lang) -> usize + Sync),
}

/// An identifier's occurrences in every file: (file, range, replacement group).
type Occurrences = Vec<(usize, Range<usize>, Option<usize>)>;

/// For each language and replacement group, the group's spellings with their counts.
type Groups<'w> = BTreeMap<(&'static str, usize), Vec<(usize, &'w [u8])>>;

impl Across<'_> {
    fn jobs(&self) -> usize {
        self.ddmin.jobs.max(1)
    }

    /// Each file with a grammar, with its language and facts (`None` where it does not parse).
    fn facts(&self, files: &Files) -> Vec<Option<(Lang, Facts)>> {
        files
            .entries()
            .iter()
            .map(|e| {
                let lang = (self.lang)(&e.path);
                if !e.is_file() || !lang.has_grammar() {
                    return None;
                }
                lang.facts(&e.bytes).ok().map(|f| (lang, f))
            })
            .collect()
    }

    /// `files` with the splices applied, `None` if a file it changes gets more syntax errors
    /// than allowed or longer.
    fn applied(&self, files: &Files, splices: &[FileSplice]) -> Option<Files> {
        let mut by_file: BTreeMap<usize, Vec<Splice>> = BTreeMap::new();
        for (f, s) in splices {
            by_file.entry(*f).or_default().push(s.clone());
        }
        let mut out = files.clone();
        for (f, mut list) in by_file {
            list.sort_by_key(|s| (s.range.start, s.range.end));
            let entry = &files.entries()[f];
            let text = apply(&entry.bytes, &list);
            let lang = (self.lang)(&entry.path);
            if text.len() > entry.bytes.len()
                || count_errors(lang, &text) > (self.allowed)(&entry.path, lang)
            {
                return None;
            }
            out.set_bytes(f, text);
        }
        Some(out)
    }

    /// Identifier spellings (in order of first occurrence, file by file) and their
    /// occurrences in every file, keyed by what `key` makes of a file's language.
    fn spellings<K: Eq + std::hash::Hash + Clone>(
        files: &Files,
        facts: &[Option<(Lang, Facts)>],
        key: impl Fn(Lang) -> K,
    ) -> Vec<((K, Vec<u8>), Occurrences)> {
        let mut index: HashMap<(K, Vec<u8>), usize> = HashMap::new();
        let mut out: Vec<((K, Vec<u8>), Occurrences)> = Vec::new();
        for (f, item) in facts.iter().enumerate() {
            let Some((lang, facts)) = item else { continue };
            let text = &files.entries()[f].bytes;
            for id in &facts.idents {
                let k = (key(*lang), text[id.range.clone()].to_vec());
                let i = *index.entry(k.clone()).or_insert_with(|| {
                    out.push((k, Vec::new()));
                    out.len() - 1
                });
                out[i].1.push((f, id.range.clone(), id.group));
            }
        }
        out
    }

    /// `rename` across files: every identifier spelling renamed in every file at once to the
    /// shortest name that is no token of any file and no reserved word of any of their
    /// languages (the most frequent spellings first); ddmin finds the spellings that must keep
    /// their name. Returns the new tree and the number of candidates accepted.
    pub(crate) fn rename(&self, files: &Files) -> (Files, u64) {
        let facts = self.facts(files);
        let langs: Vec<Lang> = facts.iter().flatten().map(|(l, _)| *l).collect();
        let reserved = |w: &[u8]| langs.iter().any(|l| l.is_reserved(w));
        let fixed = |w: &[u8]| langs.iter().any(|l| l.is_fixed(w));
        let taken: HashSet<&[u8]> = facts
            .iter()
            .enumerate()
            .filter_map(|(f, x)| x.as_ref().map(|(_, facts)| (f, facts)))
            .flat_map(|(f, facts)| {
                let text = &files.entries()[f].bytes;
                facts.tokens.iter().map(move |t| &text[t.clone()])
            })
            .collect();
        let mut words = Self::spellings(files, &facts, |_| ());
        words.retain(|((_, w), _)| !fixed(w) && w.len() > 1);
        words.sort_by_key(|((_, w), occ)| std::cmp::Reverse(occ.len() * w.len()));
        let mut next = 0;
        let mut units: Vec<Vec<FileSplice>> = Vec::new();
        for ((_, word), occ) in words {
            let name = fresh_name(&mut next, &word, |n| !taken.contains(n) && !reserved(n));
            if name.len() >= word.len() {
                continue;
            }
            next += 1;
            units.push(
                occ.into_iter()
                    .map(|(f, r, _)| (f, Splice::new(r, &name)))
                    .collect(),
            );
        }
        self.judge.phase("rename (across files)");
        match self.keep_minimal(files, &units) {
            Some(done) => (done, 1),
            None => (files.clone(), 0),
        }
    }

    /// ddmin over `units`: the configuration is the set of units left as they are, every other
    /// unit is applied; all units applied is tested first. The result, if it differs.
    fn keep_minimal(&self, files: &Files, units: &[Vec<FileSplice>]) -> Option<Files> {
        if units.is_empty() || self.judge.is_cancelled() {
            return None;
        }
        let kept_set = |kept: &[usize]| -> Vec<FileSplice> {
            let kept: HashSet<usize> = kept.iter().copied().collect();
            (0..units.len())
                .filter(|u| !kept.contains(u))
                .flat_map(|u| units[u].iter().cloned())
                .collect()
        };
        let candidate = |kept: &[usize]| self.applied(files, &kept_set(kept));
        let current = files.encode();
        let test = |kept: &[usize]| match candidate(kept) {
            Some(c) if c == *files => true,
            Some(c) => self.judge.test(&c.encode()),
            None => false,
        };
        self.judge.with_lookahead(self.jobs(), || {
            if let Some(all) = candidate(&[]).filter(|a| a.encode() != current) {
                if self.judge.test(&all.encode()) {
                    return Some(all);
                }
            }
            if units.len() == 1 {
                return None;
            }
            let opts = DdminOptions {
                stop: Some(self.judge.stop_flag()),
                ..self.ddmin.clone()
            };
            let kept = ddmin_indices(units.len(), &test, &opts);
            if kept.len() < units.len() {
                candidate(&kept).filter(|c| c != files)
            } else {
                None
            }
        })
    }

    /// `replace-ids` across files: for an identifier spelling X that occurs in several files
    /// of one language, every occurrence of X in those files but the first one in one file F
    /// (its declaration, wherever it is: one candidate per file X occurs in) replaced by
    /// another spelling Y of the same group: the group's extra words, then its most frequent
    /// spellings over all the files, Y never longer than X and a reserved word or before X
    /// in the order (length, bytes), as in one file. A sequence: the first interesting
    /// candidate is accepted and the sequence made again from the new tree, going on at the
    /// same position. Returns the new tree and the number of candidates accepted.
    pub(crate) fn replace_ids(&self, files: &Files) -> (Files, u64) {
        self.sequence(files, "replace-ids", |f| self.replace_candidates(f))
    }

    /// `params` across files: for each function name whose definitions, declarations or calls
    /// are in several files, and each parameter position (last first), the parameter removed
    /// from every function of that name and the argument from every call, in every file at
    /// once. A sequence, as [`Across::replace_ids`].
    pub(crate) fn params(&self, files: &Files) -> (Files, u64) {
        self.sequence(files, "params", |f| self.params_candidates(f))
    }

    /// The candidates of [`Across::params`] on `files`, in order.
    fn params_candidates(&self, files: &Files) -> Vec<Vec<FileSplice>> {
        let facts = self.facts(files);
        // Each name's functions (`true`) and calls, in every file, names in order of first
        // occurrence.
        let mut names: Vec<&[u8]> = Vec::new();
        let mut sites: HashMap<&[u8], Vec<(usize, &ListSite, bool)>> = HashMap::new();
        for (f, item) in facts.iter().enumerate() {
            let Some((_, facts)) = item else { continue };
            let all = (facts.functions.iter().map(|s| (s, true)))
                .chain(facts.calls.iter().map(|s| (s, false)));
            for (site, function) in all {
                let list = sites.entry(&site.name).or_insert_with(|| {
                    names.push(&site.name);
                    Vec::new()
                });
                list.push((f, site, function));
            }
        }
        let mut out = Vec::new();
        for name in names {
            let list = &sites[name];
            let in_files: HashSet<usize> = list.iter().map(|(f, _, _)| *f).collect();
            let arity = (list.iter().filter(|(_, _, function)| *function))
                .map(|(_, s, _)| s.elems.len())
                .max();
            let Some(arity) = arity.filter(|_| in_files.len() > 1) else {
                continue;
            };
            for i in (0..arity).rev() {
                let mut splices: Vec<FileSplice> = list
                    .iter()
                    .filter(|(_, s, _)| i < s.elems.len())
                    .map(|(f, s, _)| (*f, remove_element(&s.elems, i)))
                    .collect();
                splices.sort_by_key(|(f, s)| (*f, s.range.start, s.range.end));
                splices.dedup();
                out.push(splices);
            }
        }
        out
    }

    /// A sequence pass over the files: `make` gives the candidates of a tree in order; the
    /// first interesting one is accepted, the sequence is made again from the new tree and
    /// goes on at the same position. Returns the new tree and the candidates accepted.
    fn sequence(
        &self,
        files: &Files,
        name: &str,
        make: impl Fn(&Files) -> Vec<Vec<FileSplice>>,
    ) -> (Files, u64) {
        let mut files = files.clone();
        let mut pos = 0;
        let mut accepted = 0;
        self.judge.with_lookahead(self.jobs(), || {
            while !self.judge.is_cancelled() {
                let candidates = make(&files);
                if pos >= candidates.len() {
                    break;
                }
                self.judge.phase(&format!(
                    "{name} (across files): {pos} of {} candidates",
                    candidates.len()
                ));
                let current = files.encode();
                let rest = &candidates[pos..];
                let make = |i: usize| {
                    self.applied(&files, &rest[i])
                        .map(|c| c.encode())
                        .filter(|c| c.len() <= current.len())
                };
                match first_interesting(self.judge, &current, self.jobs(), rest.len(), &make) {
                    Some((i, bytes)) => {
                        let Ok(next) = Files::decode(&bytes) else {
                            break;
                        };
                        files = next;
                        accepted += 1;
                        pos += i;
                    }
                    None => break,
                }
            }
        });
        (files, accepted)
    }

    /// The candidates of [`Across::replace_ids`] on `files`, in order.
    fn replace_candidates(&self, files: &Files) -> Vec<Vec<FileSplice>> {
        let facts = self.facts(files);
        let words = Self::spellings(files, &facts, |l| l);
        // Per language and group: the spellings, most frequent first (over all files).
        let mut by_group: Groups = BTreeMap::new();
        for ((lang, w), occ) in &words {
            let groups: HashSet<usize> = occ.iter().filter_map(|(_, _, g)| *g).collect();
            for g in groups {
                let count = occ.iter().filter(|(_, _, h)| *h == Some(g)).count();
                by_group
                    .entry((lang.name(), g))
                    .or_default()
                    .push((count, w.as_slice()));
            }
        }
        for list in by_group.values_mut() {
            list.sort_by_key(|&(count, _)| std::cmp::Reverse(count));
        }
        let extras_of = |lang: Lang, g: usize| -> Vec<Vec<u8>> {
            facts
                .iter()
                .flatten()
                .find(|(l, _)| *l == lang)
                .and_then(|(_, f)| f.group_extras.get(g).cloned())
                .unwrap_or_default()
        };
        let mut out = Vec::new();
        for ((lang, word), occ) in &words {
            let lang = *lang;
            let mut in_files: Vec<usize> = occ.iter().map(|(f, _, _)| *f).collect();
            in_files.dedup();
            if in_files.len() < 2 || lang.is_fixed(word) {
                continue;
            }
            let mut groups: Vec<usize> = occ.iter().filter_map(|(_, _, g)| *g).collect();
            groups.sort_unstable();
            groups.dedup();
            for g in groups {
                let places: Vec<(usize, Range<usize>)> = occ
                    .iter()
                    .filter(|(_, _, h)| *h == Some(g))
                    .map(|(f, r, _)| (*f, r.clone()))
                    .collect();
                let mut owners: Vec<usize> = places.iter().map(|(f, _)| *f).collect();
                owners.dedup();
                if owners.len() < 2 {
                    continue;
                }
                let extras = extras_of(lang, g);
                let others = by_group
                    .get(&(lang.name(), g))
                    .into_iter()
                    .flatten()
                    .map(|&(_, w)| w)
                    .filter(|w| (w.len(), *w) < (word.len(), word.as_slice()))
                    .take(REPLACE_TARGETS);
                let mut seen = HashSet::new();
                for target in extras.iter().map(Vec::as_slice).chain(others) {
                    let extra = lang.is_fixed(target) && target.len() <= word.len();
                    let lower = (target.len(), target) < (word.len(), word.as_slice());
                    if !(extra || lower) || !seen.insert(target) {
                        continue;
                    }
                    for &owner in &owners {
                        let kept = places.iter().position(|(f, _)| *f == owner);
                        out.push(
                            places
                                .iter()
                                .enumerate()
                                .filter(|(k, _)| Some(*k) != kept)
                                .map(|(_, (f, r))| (*f, Splice::new(r.clone(), target)))
                                .collect(),
                        );
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::FnOracle;
    use crate::JudgeOptions;
    use std::path::Path;
    use treedd_proc::FileEntry;

    fn tree(files: &[(&str, &str)]) -> Files {
        Files::new(
            files
                .iter()
                .map(|(p, t)| FileEntry::file(*p, 0o644, t.as_bytes().to_vec()))
                .collect(),
        )
        .unwrap()
    }

    fn text(files: &Files, path: &str) -> String {
        let i = files.position(Path::new(path)).unwrap();
        String::from_utf8(files.entries()[i].bytes.clone()).unwrap()
    }

    fn judge(f: impl Fn(&Files) -> bool + Send + Sync + 'static) -> Judge {
        Judge::new(
            Box::new(FnOracle::new(move |c: &[u8]| f(&Files::decode(c).unwrap()))),
            JudgeOptions::default(),
        )
    }

    fn lang(p: &Path) -> Lang {
        Lang::from_path(p).unwrap_or(Lang::Text)
    }

    #[test]
    fn a_name_is_renamed_in_every_file_at_once() {
        let files = tree(&[
            ("a.h", "int compute(int value);\n"),
            (
                "a.c",
                "#include \"a.h\"\nint compute(int value) { return value; }\n",
            ),
            (
                "b.c",
                "#include \"a.h\"\nint main(void) { return compute(1); }\n",
            ),
        ]);
        // Interesting while the declaration, the definition and the call agree on one name
        // (as a linker would need), and `main` keeps its name.
        let j = judge(|f| {
            let name = |p: &str| {
                let t = text(f, p);
                let at = t.find('(').unwrap();
                t[..at].split(' ').next_back().unwrap().to_string()
            };
            let call = text(f, "b.c");
            name("a.h") == name("a.c")
                && call.contains(&format!("return {}(1)", name("a.h")))
                && call.contains("int main(void)")
        });
        let across = Across {
            judge: &j,
            ddmin: DdminOptions::default(),
            lang: &lang,
            allowed: &|_, _| 0,
        };
        let (out, accepted) = across.rename(&files);
        assert_eq!(accepted, 1);
        assert_eq!(text(&out, "a.h"), "int a(int b);\n");
        assert_eq!(
            text(&out, "a.c"),
            "#include \"a.h\"\nint a(int b) { return b; }\n"
        );
        assert_eq!(
            text(&out, "b.c"),
            "#include \"a.h\"\nint main(void) { return a(1); }\n"
        );
    }

    #[test]
    fn a_parameter_goes_from_the_prototype_the_definition_and_every_call() {
        let files = tree(&[
            ("a.h", "int f(int x, int unused);\n"),
            (
                "a.c",
                "#include \"a.h\"\nint f(int x, int unused) { return x; }\n",
            ),
            (
                "b.c",
                "#include \"a.h\"\nint g(void) { return f(1, 2) + f(3, 4); }\n",
            ),
        ]);
        // Interesting while all of them agree on the number of parameters and `x` stays.
        let j = judge(|f| {
            let commas = |p: &str| text(f, p).matches(',').count();
            text(f, "a.c").contains("(int x")
                && commas("a.h") == commas("a.c")
                && commas("b.c") == 2 * commas("a.h")
        });
        let across = Across {
            judge: &j,
            ddmin: DdminOptions::default(),
            lang: &lang,
            allowed: &|_, _| 0,
        };
        let (out, accepted) = across.params(&files);
        assert_eq!(accepted, 1);
        assert_eq!(text(&out, "a.h"), "int f(int x);\n");
        assert_eq!(
            text(&out, "a.c"),
            "#include \"a.h\"\nint f(int x) { return x; }\n"
        );
        assert_eq!(
            text(&out, "b.c"),
            "#include \"a.h\"\nint g(void) { return f(1) + f(3); }\n"
        );
    }

    #[test]
    fn uses_in_other_files_are_replaced_together() {
        let files = tree(&[
            ("a.h", "int f(int x);\nint longer(int x);\n"),
            (
                "b.c",
                "#include \"a.h\"\nint g(void) { return longer(1) + longer(2); }\n",
            ),
        ]);
        // Interesting while `longer` is declared in a.h: its uses in b.c may go.
        let j = judge(|f| text(f, "a.h").contains("int longer(int x);"));
        let across = Across {
            judge: &j,
            ddmin: DdminOptions::default(),
            lang: &lang,
            allowed: &|_, _| 0,
        };
        let (out, accepted) = across.replace_ids(&files);
        assert!(accepted >= 1);
        assert_eq!(text(&out, "a.h"), "int f(int x);\nint longer(int x);\n");
        assert!(
            !text(&out, "b.c").contains("longer"),
            "{}",
            text(&out, "b.c")
        );
    }
}
