//! When the algorithm may go on as if a run were interesting (see *Assumptions*, *Chains of
//! wins* and *Hints* in `lookahead`), and when replaying a wrong assumption costs little.

use std::time::Duration;

use super::State;

/// How long a run must have lasted before the algorithm may go on as if it were interesting
/// (see *Assumptions*), and the unit it is in: inside a unit, once durations tell the answers
/// apart with [`super::durations::ASSUME_SHARE`]; at once for the algorithm's own tests (`main`)
/// whose edit was interesting on an earlier text (`hint`, see *Hints*) or, for an edit not
/// seen yet, while most recent answers were wins (see *Chains of wins*); at once too for the
/// driver's `earliest` bet whose edit was interesting before.
pub(super) fn assume_after(
    s: &State,
    main: bool,
    hint: Option<bool>,
    earliest: bool,
) -> Option<(Duration, u64)> {
    let (unit, _) = s.unit?;
    let predicted = match main {
        true => hint.unwrap_or_else(|| s.streak.predicts_win()),
        false => earliest && hint == Some(true),
    };
    if predicted {
        return Some((Duration::ZERO, unit));
    }
    Some((s.durations.assume_after()?.mul_f64(s.assume_scale), unit))
}

/// Wins are chained (see *Chains of wins*): durations do not tell answers apart, most
/// recent answers were wins, and an assumption may be made (inside a unit whose replay is
/// cheap).
pub(super) fn chains_wins(s: &State) -> bool {
    s.unit.is_some() && s.streak.predicts_win() && replay_is_cheap(s)
}

/// The assumption time is scaled by `State::assume_scale`: times [`SCALE_UP`] after a
/// misprediction, times [`SCALE_DOWN`] after a confirmed assumption, between 1 and
/// [`SCALE_MAX`]. The durations' shares are estimates from few runs, and the runs of one
/// phase of a reduction can differ from the last ones': on Perses clang-22382, 14 of 30
/// assumptions failed before this.
pub(super) const SCALE_UP: f64 = 2.0;
pub(super) const SCALE_DOWN: f64 = 0.9;
pub(super) const SCALE_MAX: f64 = 16.0;

/// Whether replaying from the oldest checkpoint an assumption may take the algorithm back
/// to costs little enough: less than [`super::Mispredictions::replay_factor`] typical interesting
/// runs of treedd's CPU since it was made.
pub(super) fn replay_is_cheap(s: &State) -> bool {
    let (Some((_, since_cpu)), Some(typical)) = (s.unit, s.durations.median_interesting()) else {
        return false;
    };
    treedd_proc::cpu_seconds() - since_cpu
        < s.mispredictions.replay_factor() * typical.as_secs_f64()
}
