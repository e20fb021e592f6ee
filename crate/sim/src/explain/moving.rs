//! A moving hot spot: each window has a saturated bottleneck, but not the same one, so
//! over the whole run no resource is saturated (the newest range of a range-partitioned
//! table takes every insert until it splits, and its thread with it). The run's bound is
//! then the windows' saturated resource's, whichever it was at the time.

use super::{Explanation, Load, NextCeiling, WindowBound};

/// A bottleneck counts as saturated from this utilization on.
pub(crate) const SATURATED: f64 = 0.9;

/// The windows' bottlenecks over a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Moving {
    /// The resources that were a window's bottleneck, in the order they first were.
    pub ids: Vec<u64>,
    /// The last window's bottleneck.
    pub last: u64,
    /// The windows' bottleneck utilization, averaged over the windows.
    pub utilization: f64,
}

impl Moving {
    /// The windows' bottlenecks, if they were saturated on average and more than one
    /// resource took turns.
    pub fn of<'a>(windows: impl IntoIterator<Item = &'a WindowBound>) -> Option<Moving> {
        let (mut ids, mut sum, mut n, mut last) = (Vec::new(), 0.0, 0u32, None);
        for w in windows {
            n += 1;
            sum += w.utilization;
            if w.kind > 0.0 {
                if !ids.contains(&w.id) {
                    ids.push(w.id);
                }
                last = Some(w.id);
            }
        }
        let utilization = if n > 0 { sum / n as f64 } else { 0.0 };
        (ids.len() > 1 && utilization >= SATURATED).then(|| Moving { ids, last: last.expect("a window had one"), utilization })
    }

    /// The explanation with the moving hot spot as the bottleneck (None if the run's
    /// counters do not know its last resource).
    pub fn explain(&self, loads: &[Load], x: f64) -> Option<Explanation> {
        self.explain_at(loads, x, self.utilization)
    }

    /// The same over another span (a batch, `batched.rs`), whose windows' bottlenecks'
    /// utilization averaged `utilization`.
    pub(crate) fn explain_at(&self, loads: &[Load], x: f64, utilization: f64) -> Option<Explanation> {
        let last = loads.iter().find(|l| l.id == self.last)?;
        let mut b = last.report(x);
        b.utilization = utilization;
        b.bound_transactions_per_second = x / utilization;
        b.demand_us = crate::time::secs_as_us(b.servers as f64 / b.bound_transactions_per_second);
        b.name = format!("{} and {} more in turn (the hot spot moved; each was saturated while it held it)", last.name, self.ids.len() - 1);
        let left: Vec<Load> = loads.iter().filter(|l| !self.ids.contains(&l.id)).map(Load::own_work_only).collect();
        let next = left.iter().filter(|l| l.in_use()).min_by(|a, c| a.bound(x).total_cmp(&c.bound(x))).map(|l| NextCeiling {
            transactions_per_second: l.bound(x),
            held_by: l.name.clone(),
            kind: l.kind,
            relieved: b.name.clone(),
        });
        Some(Explanation { bottleneck: Some(b), next_ceiling: next, ..Explanation::default() })
    }
}
