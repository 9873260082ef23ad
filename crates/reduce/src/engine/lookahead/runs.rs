//! The runs that come and go in the lookahead: branches (bets on success, run once their
//! condition is probably interesting, dropped with it) and the permits taken back from runs
//! nobody waits for (a lost bet, an announced candidate, a bet on a due branch's failure, a
//! run on a path a failed assumption opened).

use std::time::{Duration, Instant};

use super::{Slot, State};
use crate::engine::cache::Key;

/// A requested run waits for a permit: if none is free, kill the latest started run nobody
/// waits for (a lost bet, an announced candidate), unless a killed run is ending already.
pub(super) fn make_room(s: &mut State) {
    if s.free > 0 || s.requests.is_empty() {
        return;
    }
    let wanted = std::mem::take(&mut s.wanted);
    kill_latest(s, |key, _, _| !wanted.contains_key(key));
    s.wanted = wanted;
}

/// Kill the latest started speculative run that is not assumed and for which `eligible(key,
/// since, condition)` holds, to free its permit, unless a killed run is ending already (its
/// permit is about to come free). A test waiting for it queues it again
/// ([`Lookahead::request`]). True if one was killed.
fn kill_latest(s: &mut State, eligible: impl Fn(&Key, Instant, Option<Key>) -> bool) -> bool {
    let dying = |slot: &Slot| matches!(slot, Slot::Running { token, .. } if token.is_aborted());
    if s.slots.values().any(dying) {
        return false;
    }
    let victim = s
        .slots
        .iter()
        .filter_map(|(key, slot)| match slot {
            Slot::Running {
                assumed: None,
                since,
                token,
                condition,
            } if eligible(key, *since, *condition) => Some((*since, *key, token)),
            _ => None,
        })
        .max_by_key(|&(since, _, _)| since);
    let Some((_, key, token)) = victim else {
        return false;
    };
    token.abort();
    s.preempted.insert(key);
    true
}

/// The next candidate of a branch whose condition is probably interesting (running for
/// `win_after` at least), not run yet. (Once the condition has answered, its branch is gone:
/// the algorithm asks for what it needs itself.) Lowers `timeout` to when the next running
/// condition becomes due.
pub(super) fn branch_candidate(
    s: &mut State,
    key_of: &impl Fn(&[u8]) -> Key,
    timeout: &mut Duration,
) -> Option<(Key, Key, Vec<u8>)> {
    if s.branches.is_empty() {
        return None;
    }
    let after = s.durations.win_after()?;
    let State {
        branches, slots, ..
    } = s;
    for (condition, queue) in branches.iter_mut().rev() {
        let Some(Slot::Running { since, .. }) = slots.get(condition) else {
            continue;
        };
        let elapsed = since.elapsed();
        if elapsed < after {
            *timeout = (*timeout).min(after - elapsed + Duration::from_millis(1));
            continue;
        }
        while let Some(candidate) = queue.pop_front() {
            let key = key_of(&candidate);
            if !slots.contains_key(&key) {
                return Some((*condition, key, candidate));
            }
        }
    }
    None
}

/// A branch whose condition started at `condition_since` is due and no permit is free: kill
/// the latest started speculative run begun after the condition (a bet on its failure; not a
/// run of a branch), to free its permit for the branch. A test waiting for it runs it again
/// ([`Lookahead::request`]).
pub(super) fn preempt(s: &mut State, condition_since: Instant) {
    if kill_latest(s, |_, since, condition| {
        condition.is_none() && since > condition_since
    }) {
        s.preemptions += 1;
    }
}

/// `condition` answered: its branch is dropped and, if the answer was not interesting, the
/// branch's runs nobody waits for are killed.
pub(super) fn end_branch(s: &mut State, condition: &Key, interesting: bool) {
    let before = s.branches.len();
    s.branches.retain(|(c, _)| c != condition);
    if interesting || s.branches.len() == before {
        return;
    }
    for (key, slot) in &s.slots {
        if let Slot::Running {
            token,
            condition: Some(c),
            assumed: None,
            ..
        } = slot
        {
            if c == condition && !s.wanted.contains_key(key) {
                token.abort();
            }
        }
    }
}

/// An assumed run of `unit` ended or was dropped.
pub(super) fn release(s: &mut State, unit: u64) {
    if let Some(n) = s.outstanding.get_mut(&unit) {
        *n -= 1;
        if *n == 0 {
            s.outstanding.remove(&unit);
        }
    }
}

/// An assumption of the algorithm's own tests failed, and `s.path[at..]` are the runs it
/// assumed after it: the algorithm went on to them only because of the failed assumption,
/// and its replay takes another path. They are killed, so that their permits go to the
/// replay's tests at once (a chain of wins holds every permit), and are no longer assumed
/// (their end is not a misprediction).
pub(super) fn drop_after(s: &mut State, at: usize) {
    for key in s.path.split_off(at) {
        let dropped = match s.slots.get_mut(&key) {
            Some(Slot::Running { token, assumed, .. }) => {
                token.abort();
                assumed.take()
            }
            _ => None,
        };
        if let Some(unit) = dropped {
            release(s, unit);
        }
    }
}
