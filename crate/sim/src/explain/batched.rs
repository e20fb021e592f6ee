//! The 95% intervals of the bound and the next ceiling. Both are worked out from a span's
//! counters (a ratio of sums, a minimum over resources), not averaged over windows, so
//! they get their intervals by batch means over their own kind of observation: the
//! measured run is cut into at most 20 consecutive batches of equal length
//! (`metrics/batches.rs`), the run's bottleneck's bound and the next ceiling it leaves are
//! worked out again from each batch's counters as from the run's, and the interval's
//! half-width is t(0.975, k - 1) x s / sqrt(k) over the k batch figures (`batch_means.rs`).
//! A next ceiling is **steady** when the intervals of two runs that differ only in their
//! warm-up overlap.

use super::{next_ceiling, Load, Moving};
use crate::batch_means::Interval;
use crate::config::Config;
use serde::Serialize;

/// The intervals of the explanation's derived figures, and how they were taken.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BoundIntervals {
    /// Of the bottleneck's `boundTransactionsPerSecond` (null: none could be taken, and
    /// `method` says why).
    pub bound: Option<Interval>,
    /// Of the next ceiling's `transactionsPerSecond` (null when there is none, or a batch
    /// had none).
    pub next_ceiling: Option<Interval>,
    /// The method (how many batches, how long), or why there are no intervals, in the words
    /// every surface prints.
    pub method: String,
}

impl BoundIntervals {
    /// From the batches' bounds and next ceilings (`next[i]` None: batch `i` had none).
    #[inline(never)]
    pub(crate) fn of(bounds: &[f64], next: &[Option<f64>], batch_ms: u64) -> BoundIntervals {
        let k = bounds.len();
        let next: Option<Vec<f64>> = next.iter().copied().collect();
        BoundIntervals {
            bound: Some(crate::batch_means::from_means(bounds)),
            next_ceiling: next.map(|n| crate::batch_means::from_means(&n)),
            method: format!(
                "95% intervals by batch means: the bound and the next ceiling worked out again over each of {k} consecutive {batch_ms} ms batches of the measured run"
            ),
        }
    }

    /// No intervals, and why.
    #[inline(never)]
    pub(crate) fn none(why: &str) -> BoundIntervals {
        BoundIntervals { bound: None, next_ceiling: None, method: why.to_string() }
    }
}

/// The bound of the resource `id` (the run's bottleneck) and the next ceiling relieving it
/// leaves, over another span's `loads` at its throughput `x`: as `explain` finds them,
/// with the bottleneck given. `moved`: the run's bottleneck was a moving hot spot, and the
/// span's windows' bottlenecks' mean utilization. None when the span does not have the resource.
pub(crate) fn again(
    loads: &[Load],
    x: f64,
    id: u64,
    moved: Option<(&Moving, f64)>,
    relieved_zero_load_us: &dyn Fn() -> f64,
    cfg: &Config,
) -> Option<(f64, Option<f64>)> {
    if x <= 0.0 {
        return None;
    }
    if let Some((m, utilization)) = moved {
        let e = m.explain_at(loads, x, utilization)?;
        return Some((e.bottleneck?.bound_transactions_per_second, e.next_ceiling.map(|n| n.transactions_per_second)));
    }
    let b = loads.iter().position(|l| l.id == id && l.in_use())?;
    let bound = loads[b].bound(x);
    bound.is_finite().then(|| (bound, next_ceiling(loads, b, x, relieved_zero_load_us, cfg).map(|n| n.transactions_per_second)))
}
