//! A round's configuration split into subsets (Zeller's split), the set fingerprints that make
//! any candidate's fingerprint O(1), and the outcomes known from earlier tests.

use std::collections::{BTreeMap, HashMap};

/// The current configuration split into subsets, with the fingerprints of the subsets, so
/// that the fingerprint of any candidate of the round costs O(1) and known candidates are
/// never built.
pub(super) struct Parts<'a> {
    config: &'a [usize],
    bounds: &'a [usize],
    pub(super) prints: Vec<u128>,
    total: u128,
}

impl<'a> Parts<'a> {
    pub(super) fn new(config: &'a [usize], bounds: &'a [usize], unit_prints: &[u128]) -> Parts<'a> {
        let prints: Vec<u128> = bounds
            .windows(2)
            .map(|w| {
                config[w[0]..w[1]]
                    .iter()
                    .fold(0u128, |h, &i| h.wrapping_add(unit_prints[i]))
            })
            .collect();
        let total = prints.iter().fold(0u128, |h, &p| h.wrapping_add(p));
        Parts {
            config,
            bounds,
            prints,
            total,
        }
    }

    pub(super) fn n(&self) -> usize {
        self.bounds.len() - 1
    }

    pub(super) fn size_without(&self, removed: &[usize]) -> usize {
        let gone: usize = removed
            .iter()
            .map(|&k| self.bounds[k + 1] - self.bounds[k])
            .sum();
        self.config.len() - gone
    }

    pub(super) fn print_without(&self, removed: &[usize]) -> u128 {
        removed
            .iter()
            .fold(self.total, |h, &k| h.wrapping_sub(self.prints[k]))
    }

    /// The configuration without the subsets `removed` (ascending).
    pub(super) fn without(&self, removed: &[usize]) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.size_without(removed));
        let mut from = 0;
        for &k in removed {
            out.extend_from_slice(&self.config[from..self.bounds[k]]);
            from = self.bounds[k + 1];
        }
        out.extend_from_slice(&self.config[from..]);
        out
    }
}

/// Boundaries of `min(len, n)` parts of `0..len` as Zeller's reference implementation (and
/// Picire's `ZellerSplit`) cuts them: a 1/n-th, then 1/(n-1)-th of the rest, and so on (sizes
/// differ by at most one, smaller parts first). With it the test counts of Practical
/// improvements' Table 3(a) are reproduced exactly.
pub(super) fn split(len: usize, n: usize) -> Vec<usize> {
    let n = n.min(len).max(1);
    let mut out = vec![0];
    let mut start = 0;
    for i in 0..n {
        start += (len - start) / (n - i);
        out.push(start);
    }
    out
}

/// The fingerprint of a configuration is the sum (mod 2^128) of the fingerprints of its units
/// (Zobrist-style set hashing): it depends only on the set, and the fingerprint of a
/// complement is the total minus that of the subset. The unit fingerprint is two independent
/// splitmix64 finalizers of the index, so two different sets collide with probability about
/// 2^-128.
pub(super) fn unit_print(i: usize) -> u128 {
    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    let i = i as u64;
    let lo = mix(i
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(0x2545_f491_4f6c_dd1d));
    let hi = mix(i
        .wrapping_add(0x6a09_e667_f3bc_c909)
        .wrapping_mul(0xd1b5_4a32_d192_ed03));
    (u128::from(hi) << 64) | u128::from(lo)
}

/// Outcomes known from earlier tests, by configuration size, so that entries that can no
/// longer be asked about (not smaller than the current configuration) are dropped. Mostly
/// uninteresting configurations; interesting ones only when a window found several.
#[derive(Clone, Default)]
pub(super) struct Known {
    outcome: HashMap<u128, bool>,
    by_size: BTreeMap<usize, Vec<u128>>,
}

impl Known {
    pub(super) fn get(&self, print: u128) -> Option<bool> {
        self.outcome.get(&print).copied()
    }

    pub(super) fn insert(&mut self, print: u128, size: usize, interesting: bool) {
        if self.outcome.insert(print, interesting).is_none() {
            self.by_size.entry(size).or_default().push(print);
        }
    }

    /// Every later candidate is a proper subset of a configuration of `size` units.
    pub(super) fn shrunk_to(&mut self, size: usize) {
        for (_, prints) in self.by_size.split_off(&size) {
            for print in prints {
                self.outcome.remove(&print);
            }
        }
    }
}
