//! The content cache of the dissertation's ch. 4, with all three proposals:
//! 1. only non-interesting ("pass") outcomes are stored;
//! 2. when a smaller interesting candidate is found, entries of larger candidates are evicted
//!    (no algorithm asks about a candidate larger than the current one again);
//! 3. the key is a 256-bit cryptographic hash of the serialized candidate, the value its
//!    length.
//!
//! The hash is BLAKE3-256. The dissertation asks for "a suitable transform function" that
//! makes collisions of keys negligible, "e.g., an SHA-3-256 cryptographic hash function"
//! (sec. 4, proposal 3), and measures with SHA-3-256. Both have 256-bit keys and 128-bit
//! collision resistance; BLAKE3 is about ten times faster, which matters because every
//! candidate is hashed, announced ones included: with SHA-3, hashing is a large share of
//! treedd's own CPU on inputs of hundreds of kilobytes.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A cache key: BLAKE3-256 of the candidate's bytes.
pub type Key = [u8; 32];

/// Stores only non-interesting ("pass") outcomes keyed by BLAKE3-256 of the candidate,
/// with the candidate length as value; evicts entries larger than the best failing size.
/// Thread-safe.
#[derive(Default)]
pub struct Cache {
    inner: Mutex<Inner>,
    hits: AtomicU64,
}

#[derive(Default)]
struct Inner {
    len_of: HashMap<Key, usize>,
    /// The same entries by candidate length, for eviction.
    by_len: BTreeMap<usize, Vec<Key>>,
    peak: usize,
}

impl Cache {
    pub fn new() -> Cache {
        Cache::default()
    }

    /// The key of a candidate.
    pub fn key(candidate: &[u8]) -> Key {
        blake3::hash(candidate).into()
    }

    /// True if the candidate is known to be not interesting (counts a hit).
    pub fn is_known_pass(&self, key: &Key) -> bool {
        let hit = self.lock().len_of.contains_key(key);
        if hit {
            self.hits.fetch_add(1, Ordering::Relaxed);
        }
        hit
    }

    /// True if the candidate is known to be not interesting (no hit counted: for the
    /// lookahead's announcements).
    pub fn contains(&self, key: &Key) -> bool {
        self.lock().len_of.contains_key(key)
    }

    /// Remember that the candidate with this key and length is not interesting.
    pub fn insert_pass(&self, key: Key, len: usize) {
        let mut inner = self.lock();
        if inner.len_of.insert(key, len).is_none() {
            inner.by_len.entry(len).or_default().push(key);
            inner.peak = inner.peak.max(inner.len_of.len());
        }
    }

    /// Drop every entry of a candidate longer than `len`; returns how many were dropped.
    pub fn evict_larger_than(&self, len: usize) -> usize {
        let mut inner = self.lock();
        let Some(first_larger) = len.checked_add(1) else {
            return 0;
        };
        let evicted = inner.by_len.split_off(&first_larger);
        let mut count = 0;
        for key in evicted.into_values().flatten() {
            inner.len_of.remove(&key);
            count += 1;
        }
        count
    }

    /// Entries held now.
    pub fn len(&self) -> usize {
        self.lock().len_of.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Largest number of entries held at once.
    pub fn peak_entries(&self) -> usize {
        self.lock().peak
    }

    /// Lookups answered from the cache.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // The data stays consistent even if a holder panicked: every update is one step.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_is_blake3_256() {
        // BLAKE3("abc"), as the reference implementation (PyPI `blake3`) gives it.
        let hex: String = Cache::key(b"abc")
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hex,
            "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"
        );
    }

    #[test]
    fn stores_counts_and_evicts() {
        let cache = Cache::new();
        assert!(!cache.is_known_pass(&Cache::key(b"abc")));
        cache.insert_pass(Cache::key(b"abc"), 3);
        cache.insert_pass(Cache::key(b"abcd"), 4);
        cache.insert_pass(Cache::key(b"abcd"), 4);
        cache.insert_pass(Cache::key(b"ab"), 2);
        assert_eq!(cache.len(), 3);
        assert!(cache.is_known_pass(&Cache::key(b"abcd")));
        assert!(cache.is_known_pass(&Cache::key(b"ab")));
        assert_eq!(cache.hits(), 2);
        assert_eq!(cache.evict_larger_than(3), 1);
        assert!(!cache.is_known_pass(&Cache::key(b"abcd")));
        assert!(cache.is_known_pass(&Cache::key(b"abc")));
        assert_eq!(cache.evict_larger_than(1), 2);
        assert!(cache.is_empty());
        assert_eq!(cache.peak_entries(), 3);
        assert_eq!(cache.hits(), 3);
        assert_eq!(cache.evict_larger_than(usize::MAX), 0);
    }
}
