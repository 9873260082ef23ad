//! Edits named across texts, and the memory of the edits that failed.
//!
//! A candidate is its base (the text the algorithm holds when it makes it) with one edit, and
//! the edit is named by what differs: the bytes between the longest common prefix and suffix
//! of base and candidate, on each side, with some bytes of context around them, and, for a
//! short removed text, which of its words occur elsewhere in the base. The same edit made on
//! a text changed elsewhere has the same name, unless the change took the last use of a word
//! it removes.
//!
//! The *memory of failed edits* keeps the names of the edits whose candidates were not
//! interesting. The rounds of a reduction repeat the same edits on a text that changed a
//! little since (a deletion elsewhere, a name renamed), and the content cache, keyed by the
//! whole candidate, knows none of them again; most still fail. While the rounds consult the
//! memory ([`crate::Judge::recall_failed_edits`]), a candidate whose edit failed before, with
//! the same context on both sides, is taken as not interesting without a run. A round that
//! skips can miss an edit that a change elsewhere made possible (other than by taking the
//! last use of a name it removes), so the strict joint fixed point needs a last round that
//! recalls only the edits that failed in that round itself to change nothing (see
//! `algorithm::rounds`, `TreeConfig::last_round_memory`), as the reference closure does:
//! while a round changes nothing its text is the one it started with, and an edit that failed
//! on it names a candidate the content cache knows, so that round tests every edit of its
//! text.
//!
//! **Renames.** A round's `rename` pass changes the spelling of names everywhere, and every
//! edit near a renamed name then names another text. The memory keeps, for each word a pure
//! rename gave the text (every occurrence of a word replaced by a word the text did not
//! hold), the spelling it had before ([`FailedEdits::renamed`]), and names an edit over the
//! text spelled as before its renames ([`Edit::memory_name`]): with its context counted in
//! those bytes and the edit widened to whole words, an edit keeps its name across renames.
//! Renames are entries of the memory's log, forgotten with it by [`FailedEdits::truncate`].
//!
//! The memory answers the same with any `--jobs`: an edit is remembered only when the
//! algorithm takes its answer in sequence order. The speculative driver defers the edits
//! that fail in its tests ([`deferring`]) and remembers those before its winner once it is
//! known, never a lost bet's, with one job as with several; what a failed assumption made
//! the algorithm remember is forgotten when its steps run again (see `Judge::steps`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

/// Bytes of context around an edit for the memory: enough that an edit next to one made
/// since (a neighbour removed, a name renamed) counts as another edit and is tried again.
pub(crate) const MEMORY_CONTEXT: usize = 16;

/// Bytes hashed at each end of a long removed or inserted text.
const ENDS: usize = 128;

/// At most this many failed edits are remembered; later ones are not (a fixed bound, so
/// that what is remembered at each step depends only on the steps before it).
const LIMIT: usize = 1 << 18;

/// The spelling each renamed word of the text had before its first rename (see the module
/// docs); words that were never renamed are not in it.
pub(crate) type Spellings = Arc<HashMap<Vec<u8>, Vec<u8>>>;

/// A byte of a word, for the memory: letters, digits and `_`.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Where `candidate` differs from `base` (see the module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edit {
    start: usize,
    old_end: usize,
    new_end: usize,
}

impl Edit {
    pub fn between(base: &[u8], candidate: &[u8]) -> Edit {
        let (start, old_end, new_end) = treedd_tree::changed_range(base, candidate);
        Edit {
            start,
            old_end,
            new_end,
        }
    }

    /// The name of this edit of `base` into `candidate` with `context` bytes of `base` on
    /// each side.
    pub fn name(&self, base: &[u8], candidate: &[u8], context: usize) -> u64 {
        let removed = &base[self.start..self.old_end];
        let inserted = &candidate[self.start..self.new_end];
        let before = &base[self.start.saturating_sub(context)..self.start];
        let after = &base[self.old_end..(self.old_end + context).min(base.len())];
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (before, after).hash(&mut h);
        hash_ends(removed, &mut h);
        hash_ends(inserted, &mut h);
        if removed.len() <= USES {
            for used in used_elsewhere(base, self.start..self.old_end) {
                used.hash(&mut h);
            }
        }
        h.finish()
    }

    /// The name of this edit in the memory of failed edits: as [`Edit::name`] with
    /// [`MEMORY_CONTEXT`] bytes of context, but widened to whole words and over the text as
    /// it was spelled before its renames (`spellings`), so that a rename in or around the edit
    /// leaves its name as it was (see the module docs).
    pub fn memory_name(
        &self,
        base: &[u8],
        candidate: &[u8],
        spellings: &HashMap<Vec<u8>, Vec<u8>>,
    ) -> u64 {
        let (start, old_end, new_end) = self.widened(base, candidate);
        let spelled =
            |w: &[u8]| -> Vec<u8> { spellings.get(w).map_or_else(|| w.to_vec(), Clone::clone) };
        let mut h = std::collections::hash_map::DefaultHasher::new();
        spelled_before(base, start, MEMORY_CONTEXT, &spelled).hash(&mut h);
        spelled_after(base, old_end, MEMORY_CONTEXT, &spelled).hash(&mut h);
        for text in [&base[start..old_end], &candidate[start..new_end]] {
            if text.len() <= 2 * ENDS {
                spelled_after(text, 0, usize::MAX, &spelled).hash(&mut h);
            } else {
                text.len().hash(&mut h);
                spelled_after(text, 0, ENDS, &spelled).hash(&mut h);
                spelled_before(text, text.len(), ENDS, &spelled).hash(&mut h);
            }
        }
        if old_end - start <= USES {
            for used in used_elsewhere(base, start..old_end) {
                used.hash(&mut h);
            }
        }
        h.finish()
    }

    /// The edit's range widened to whole words: an edit that starts or ends inside a word
    /// (a rename's `counter` -> `c` keeps the `c`) takes all of it, on both sides.
    fn widened(&self, base: &[u8], candidate: &[u8]) -> (usize, usize, usize) {
        let (mut start, mut old_end, mut new_end) = (self.start, self.old_end, self.new_end);
        let inside_at = |at: usize, end_old: usize, end_new: usize| {
            (at < end_old && is_word(base[at])) || (at < end_new && is_word(candidate[at]))
        };
        while start > 0 && is_word(base[start - 1]) && inside_at(start, old_end, new_end) {
            start -= 1;
        }
        while old_end < base.len()
            && is_word(base[old_end])
            && ((old_end > start && is_word(base[old_end - 1]))
                || (new_end > start && is_word(candidate[new_end - 1])))
        {
            old_end += 1;
            new_end += 1;
        }
        (start, old_end, new_end)
    }
}

/// The end of the token of `text` that starts at `at`: a whole word, or one other byte.
fn token_end(text: &[u8], at: usize) -> usize {
    if !is_word(text[at]) {
        return at + 1;
    }
    let mut end = at + 1;
    while end < text.len() && is_word(text[end]) {
        end += 1;
    }
    end
}

/// The start of the token of `text` that ends at `at`.
fn token_start(text: &[u8], at: usize) -> usize {
    if !is_word(text[at - 1]) {
        return at - 1;
    }
    let mut start = at - 1;
    while start > 0 && is_word(text[start - 1]) {
        start -= 1;
    }
    start
}

/// At most `limit` bytes of `text` from `from` on, each word spelled by `spelled`.
fn spelled_after(
    text: &[u8],
    from: usize,
    limit: usize,
    spelled: &dyn Fn(&[u8]) -> Vec<u8>,
) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = from;
    while at < text.len() && out.len() < limit {
        let end = token_end(text, at);
        if is_word(text[at]) {
            out.extend_from_slice(&spelled(&text[at..end]));
        } else {
            out.push(text[at]);
        }
        at = end;
    }
    out.truncate(limit);
    out
}

/// The last `limit` bytes of `text` before `to`, each word spelled by `spelled`.
fn spelled_before(
    text: &[u8],
    to: usize,
    limit: usize,
    spelled: &dyn Fn(&[u8]) -> Vec<u8>,
) -> Vec<u8> {
    let mut tokens: Vec<Vec<u8>> = Vec::new();
    let (mut at, mut len) = (to, 0);
    while at > 0 && len < limit {
        let start = token_start(text, at);
        let token = if is_word(text[start]) {
            spelled(&text[start..at])
        } else {
            text[start..at].to_vec()
        };
        len += token.len();
        tokens.push(token);
        at = start;
    }
    let out: Vec<u8> = tokens.into_iter().rev().flatten().collect();
    out[out.len().saturating_sub(limit)..].to_vec()
}

/// The words `after` spells differently where `before` spells them, if `after` is `before`
/// with some of its words renamed and nothing else: every occurrence of each renamed word
/// replaced by the same new word, which `before` does not hold (and the old word gone from
/// `after`); empty otherwise. Numbers are no names.
pub(crate) fn renames(before: &[u8], after: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut pairs: Vec<(&[u8], &[u8])> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < before.len() && j < after.len() {
        let (a, b) = (before[i], after[j]);
        if is_word(a) != is_word(b) {
            return Vec::new();
        }
        let (ei, ej) = (token_end(before, i), token_end(after, j));
        let (x, y) = (&before[i..ei], &after[j..ej]);
        if x != y {
            if !is_word(a) || a.is_ascii_digit() || b.is_ascii_digit() {
                return Vec::new();
            }
            match pairs.iter().find(|p| p.0 == x || p.1 == y) {
                Some(p) if *p != (x, y) => return Vec::new(),
                Some(_) => {}
                None => pairs.push((x, y)),
            }
        }
        (i, j) = (ei, ej);
    }
    if i < before.len() || j < after.len() {
        return Vec::new();
    }
    let words = |text: &[u8]| {
        let mut set = std::collections::HashSet::new();
        let mut at = 0;
        while at < text.len() {
            let end = token_end(text, at);
            if is_word(text[at]) {
                set.insert(text[at..end].to_vec());
            }
            at = end;
        }
        set
    };
    let (old, new) = (words(before), words(after));
    if pairs
        .iter()
        .any(|(x, y)| old.contains(*y) || new.contains(*x))
    {
        return Vec::new();
    }
    pairs
        .into_iter()
        .map(|(x, y)| (x.to_vec(), y.to_vec()))
        .collect()
}

/// Removed texts of at most this many bytes are named with which of their words occur
/// elsewhere in the text too (see [`used_elsewhere`]).
const USES: usize = 2 * ENDS;

/// For each word of `base[removed]` (a run of letters, digits and `_` that does not start
/// with a digit), in order of first occurrence there, whether it occurs outside `removed` as
/// a word too. An edit that removes a name's declaration fails while code elsewhere uses the
/// name, and is another edit once the last such use is gone: a change far away from its
/// context made it possible, and the memory must not recall it.
fn used_elsewhere(base: &[u8], removed: std::ops::Range<usize>) -> Vec<bool> {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let text = &base[removed.clone()];
    let mut seen: Vec<&[u8]> = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if !word(text[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && word(text[i]) {
            i += 1;
        }
        let w = &text[start..i];
        if !w[0].is_ascii_digit() && !seen.contains(&w) {
            seen.push(w);
        }
    }
    let whole = |at: usize, len: usize| {
        (at == 0 || !word(base[at - 1])) && base.get(at + len).is_none_or(|&b| !word(b))
    };
    seen.into_iter()
        .map(|w| {
            let finder = memchr::memmem::Finder::new(w);
            let outside = |range: std::ops::Range<usize>| {
                let from = range.start;
                finder
                    .find_iter(&base[range])
                    .any(|at| whole(from + at, w.len()))
            };
            outside(0..removed.start) || outside(removed.end..base.len())
        })
        .collect()
}

/// Hash `text` by its length and at most [`ENDS`] bytes at each end: a large edit is told
/// apart by where it starts and ends, and hashing it all would cost time in proportion to
/// the text on megabyte inputs.
fn hash_ends(text: &[u8], h: &mut impl Hasher) {
    text.len().hash(h);
    if text.len() <= 2 * ENDS {
        text.hash(h);
    } else {
        text[..ENDS].hash(h);
        text[text.len() - ENDS..].hash(h);
    }
}

/// The names of the edits that failed, in the order remembered, and the renames between
/// them (see the module docs).
#[derive(Default)]
pub(crate) struct FailedEdits {
    /// The memory is consulted for the edits remembered from this one on (in `log` order).
    from: Option<usize>,
    /// Each edit's place in `log`.
    failed: HashMap<u64, usize>,
    /// The spellings of the renamed words before their renames.
    spellings: Spellings,
    /// What was remembered, in the order it came, for [`FailedEdits::truncate`].
    log: Vec<Entry>,
}

/// One entry of the memory's log.
enum Entry {
    /// An edit that failed.
    Failed(u64),
    /// Words were renamed; the spellings before.
    Renamed(Spellings),
}

impl FailedEdits {
    /// Consult the memory from now on for the edits remembered from the `from`-th on (`None`:
    /// not at all); it remembers either way.
    pub fn consult(&mut self, from: Option<usize>) {
        self.from = from;
    }

    /// The memory is consulted (for some edits): only then is remembering worth its cost,
    /// as each rounds' reduction forgets what the memory holds when it starts.
    pub fn is_consulted(&self) -> bool {
        self.from.is_some()
    }

    /// The edit failed before, and the memory is consulted for it.
    pub fn recalls(&self, edit: u64) -> bool {
        self.from
            .is_some_and(|from| self.failed.get(&edit).is_some_and(|&at| at >= from))
    }

    /// Remember that `edit` failed.
    pub fn failed(&mut self, edit: u64) {
        if self.log.len() < LIMIT && !self.failed.contains_key(&edit) {
            self.failed.insert(edit, self.log.len());
            self.log.push(Entry::Failed(edit));
        }
    }

    /// Remember that each word `pairs` names first was renamed to the second, everywhere.
    pub fn renamed(&mut self, pairs: &[(Vec<u8>, Vec<u8>)]) {
        if pairs.is_empty() {
            return;
        }
        let before = Arc::clone(&self.spellings);
        let mut spellings = (*before).clone();
        for (old, new) in pairs {
            let first = spellings.remove(old).unwrap_or_else(|| old.clone());
            if first != *new {
                spellings.insert(new.clone(), first);
            }
        }
        self.spellings = Arc::new(spellings);
        self.log.push(Entry::Renamed(before));
    }

    /// The spellings of the renamed words before their renames, for [`Edit::memory_name`].
    pub fn spellings(&self) -> Spellings {
        Arc::clone(&self.spellings)
    }

    /// How many entries are remembered (failed edits and renames).
    pub fn len(&self) -> usize {
        self.log.len()
    }

    /// Forget what was remembered after the first `len` entries.
    pub fn truncate(&mut self, len: usize) {
        if len < self.log.len() {
            for entry in self.log.drain(len..).rev() {
                match entry {
                    Entry::Failed(edit) => {
                        self.failed.remove(&edit);
                    }
                    Entry::Renamed(before) => self.spellings = before,
                }
            }
        }
    }
}

/// A memory of failed edits shared by a judge and the drivers that defer to it.
pub(crate) type Memory = Arc<Mutex<FailedEdits>>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The failed edits of one driver call's tests, each with the index of its test, to be
/// remembered once the call's winner is known ([`Deferred::remember_before`]).
#[derive(Default)]
pub(crate) struct Deferred {
    edits: Mutex<Vec<(usize, u64, Memory)>>,
}

impl Deferred {
    /// Remember the edits of the indices before `first` (all of them if `None`) in index
    /// order, as one job tests them.
    pub fn remember_before(&self, first: Option<usize>) {
        let mut edits = std::mem::take(&mut *lock(&self.edits));
        edits.sort_by_key(|e| e.0);
        for (_, edit, memory) in edits.iter().filter(|e| first.is_none_or(|f| e.0 < f)) {
            lock(memory).failed(*edit);
        }
    }
}

thread_local! {
    /// The driver call whose test at an index this thread runs (see [`deferring`]).
    static DEFERRING: RefCell<Option<(Arc<Deferred>, usize)>> = const { RefCell::new(None) };
}

/// Run the test of index `index` of a driver call: the edits that fail in it are deferred to
/// `deferred` ([`failed`]).
pub(crate) fn deferring<R>(deferred: &Arc<Deferred>, index: usize, test: impl FnOnce() -> R) -> R {
    let outer = DEFERRING.with(|d| d.replace(Some((Arc::clone(deferred), index))));
    let out = test();
    DEFERRING.with(|d| *d.borrow_mut() = outer);
    out
}

/// Remember that `edit` failed in `memory`, or, inside a driver call's test, once the call
/// knows its winner.
pub(crate) fn failed(memory: &Memory, edit: u64) {
    let deferred = DEFERRING.with(|d| d.borrow().clone());
    match deferred {
        Some((d, index)) => lock(&d.edits).push((index, edit, Arc::clone(memory))),
        None => lock(memory).failed(edit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(base: &[u8], candidate: &[u8], context: usize) -> u64 {
        Edit::between(base, candidate).name(base, candidate, context)
    }

    #[test]
    fn an_edit_has_one_name_on_texts_changed_away_from_its_context() {
        let base = b"int a; int b; int c; int d;";
        let later = b"int a; int c; int d;"; // `int b;` removed meanwhile
        assert_eq!(
            name(base, b"int a; int b; int c; ", 4),
            name(later, b"int a; int c; ", 4),
            "removing `int d;` is one edit"
        );
        assert_ne!(
            name(base, b"int a; int b; int c; ", 16),
            name(later, b"int a; int c; ", 16),
            "with 16 bytes of context the removal of `int b;` is in it"
        );
        assert_ne!(
            name(base, b"int a; int b; int d;", 4),
            name(base, b"int a; int b; int c; ", 4),
            "removing `int c;` is another edit"
        );
        let twice = b"f(); x = 1; g(); x = 1; h();";
        assert_ne!(
            name(twice, b"f(); g(); x = 1; h();", 4),
            name(twice, b"f(); x = 1; g(); h();", 4),
            "the same text removed at another place is another edit"
        );
    }

    #[test]
    fn an_edit_is_another_once_a_name_it_removes_is_used_nowhere_else() {
        // `int x;` removed, while `f` uses `x` and once `f` is gone: the context of the
        // removal is the same, the use of `x` elsewhere is not.
        let used = b"int x; int y; void f() { x = 1; }";
        let unused = b"int x; int y; void g() { y = 1; }";
        let candidate = |base: &[u8]| base[7..].to_vec();
        assert_ne!(
            name(used, &candidate(used), 4),
            name(unused, &candidate(unused), 4)
        );
        // A word that only occurs inside a longer word elsewhere is not used there.
        assert_eq!(used_elsewhere(b"int x; int xs;", 0..6), [true, false]);
        assert_eq!(used_elsewhere(b"a1 b; 1a; b", 3..9), [true]);
    }

    #[test]
    fn long_edits_are_named_by_their_ends_and_length() {
        let base: Vec<u8> = (0..2000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let mut candidate = base.clone();
        candidate.drain(100..1500);
        let mut other = base.clone();
        other.drain(100..1501);
        assert_ne!(name(&base, &candidate, 16), name(&base, &other, 16));
    }

    fn memory_name(base: &[u8], candidate: &[u8], spellings: &[(&str, &str)]) -> u64 {
        let spellings: HashMap<Vec<u8>, Vec<u8>> = spellings
            .iter()
            .map(|(new, old)| (new.as_bytes().to_vec(), old.as_bytes().to_vec()))
            .collect();
        Edit::between(base, candidate).memory_name(base, candidate, &spellings)
    }

    #[test]
    fn an_edit_keeps_its_memory_name_once_a_name_in_and_around_it_is_renamed() {
        // `int b = counter;` removed, before and after `counter` became `c`: the context
        // and the removed text hold the renamed name.
        let before = b"int counter; int b = counter; f(counter, b);";
        let after = b"int c; int b = c; f(c, b);";
        let removed = |t: &[u8], at: usize, len: usize| [&t[..at], &t[at + len..]].concat();
        let one = memory_name(before, &removed(before, 13, 17), &[]);
        let two = removed(after, 7, 11);
        assert_eq!(String::from_utf8_lossy(&two), "int c; f(c, b);");
        assert_eq!(one, memory_name(after, &two, &[("c", "counter")]));
        assert_ne!(one, memory_name(after, &two, &[]), "without the spellings");
        // An edit inside a word takes the whole word: `c` -> `cd` is not read as an edit
        // after a word `c`, which would be spelled `counter`.
        let inside = Edit::between(after, b"int cd; int b = c; f(c, b);");
        assert_eq!(
            inside.widened(after, b"int cd; int b = c; f(c, b);"),
            (4, 5, 6)
        );
    }

    #[test]
    fn pure_renames_are_told_from_other_changes() {
        let pairs = |a: &str, b: &str| {
            renames(a.as_bytes(), b.as_bytes())
                .into_iter()
                .map(|(x, y)| (String::from_utf8(x).unwrap(), String::from_utf8(y).unwrap()))
                .collect::<Vec<_>>()
        };
        let own = |x: &str, y: &str| (x.to_string(), y.to_string());
        assert_eq!(
            pairs(
                "int count; long total = count + total;",
                "int a; long b = a + b;"
            ),
            [own("count", "a"), own("total", "b")]
        );
        // A word the text held already (`replace-ids`), a rename of some occurrences only,
        // a number, and any other change are no pure renames.
        assert!(pairs("int a; int b = a;", "int b; int b = b;").is_empty());
        assert!(pairs("f(x); g(x);", "f(y); g(x);").is_empty());
        assert!(pairs("int a = 10;", "int a = 0;").is_empty());
        assert!(pairs("int a; f(a);", "int b; f(b) ;").is_empty());
        assert!(pairs("f(a, a);", "f(b, c);").is_empty());
        assert!(pairs("same", "same").is_empty());
    }

    #[test]
    fn renames_are_forgotten_with_the_entries_after_them() {
        let mut m = FailedEdits::default();
        m.failed(1);
        m.renamed(&[(b"count".to_vec(), b"a".to_vec())]);
        assert_eq!(m.spellings().get(&b"a"[..]), Some(&b"count".to_vec()));
        m.renamed(&[(b"a".to_vec(), b"b".to_vec())]);
        assert_eq!(m.spellings().get(&b"b"[..]), Some(&b"count".to_vec()));
        assert!(m.spellings().get(&b"a"[..]).is_none());
        m.renamed(&[(b"b".to_vec(), b"count".to_vec())]);
        assert!(m.spellings().is_empty(), "back to its first spelling");
        assert_eq!(m.len(), 4);
        m.truncate(2);
        assert_eq!(m.spellings().get(&b"a"[..]), Some(&b"count".to_vec()));
        m.truncate(1);
        assert!(m.spellings().is_empty());
        m.consult(Some(0));
        assert!(m.recalls(1));
    }

    #[test]
    fn the_memory_recalls_only_while_consulted_and_forgets_what_is_truncated() {
        let mut m = FailedEdits::default();
        m.failed(1);
        m.failed(2);
        m.failed(2);
        assert_eq!(m.len(), 2);
        assert!(!m.recalls(1), "not consulted yet");
        m.consult(Some(0));
        assert!(m.recalls(1) && m.recalls(2) && !m.recalls(3));
        m.consult(Some(1));
        assert!(!m.recalls(1) && m.recalls(2), "only from the second on");
        m.consult(Some(0));
        m.failed(3);
        m.truncate(1);
        assert_eq!(m.len(), 1);
        assert!(m.recalls(1) && !m.recalls(2) && !m.recalls(3));
        m.failed(3);
        assert!(m.recalls(3), "remembered again after the truncation");
        m.consult(None);
        assert!(!m.recalls(1));
    }
}
