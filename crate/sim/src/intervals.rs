//! The 95% confidence interval of each figure that is a mean over the measured period, by
//! batch means (Schmeiser 1982): the measured windows are cut into at most `BATCHES` (20)
//! consecutive batches of equal length, as short as that allows (the earliest windows left
//! over, fewer than a batch, are dropped: those nearest the warm-up); the window ring keeps
//! the last 20 minutes (at 100 ms windows), so a longer run's intervals are of those; each batch's mean is one observation, and the interval's
//! half-width is t(0.975, k - 1) x s / sqrt(k) over the k batch means. Batches long against
//! the run's memory make their means nearly independent; the lag-1 correlation of the batch
//! means is reported so that a reader sees when they are not (above `LAG1_LIMIT`, the
//! interval is too narrow: run longer). Runs with fewer than `batch_means::MIN_WINDOWS` measured
//! windows get none. How a series is cut into batches, and the interval of their means, are
//! `batch_means.rs`'s.
//!
//! The metrics are the catalog's with a `batch` reading (`catalog.rs`); a batch's mean is
//! the sum of its windows' values over the sum of their weights (1 for a rate or a time
//! fraction, the commits for the mean latency), as the summary's own figure is.

pub use crate::batch_means::Interval;
use crate::batch_means::{batching, from_means, BATCHES};
use crate::catalog::{Metric, METRICS};
use crate::metrics::Window;
use crate::time::Ns;
use serde::{Serialize, Serializer};
use std::collections::VecDeque;

/// A lag-1 correlation of the batch means above this says the batches are too short for
/// the interval to hold: the CLI marks it, and a run stopping at a precision goes on.
/// (With 20 batches the estimate itself spreads by about 0.2 around the truth.)
pub const LAG1_LIMIT: f64 = 0.5;

/// Batches of 5 windows MSER-5 needs before it says where a transient ended.
pub(crate) const MSER_MIN_BATCHES: usize = 8;

/// The intervals of a run's figures and how they were taken.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Intervals {
    pub batches: u32,
    pub windows_per_batch: u32,
    /// Measured windows used (batches x windows per batch); the earlier ones were dropped.
    pub windows: u32,
    /// By metric name (the catalog's, in its order; an object in JSON): every metric whose
    /// figure is a mean over the run. (A list, not a map: a map's code costs the main
    /// WebAssembly module 7 KiB.)
    #[serde(serialize_with = "as_object")]
    pub metrics: Vec<(&'static str, Interval)>,
}

impl Intervals {
    /// The interval of the metric named `name`, if it has one.
    pub fn get(&self, name: &str) -> Option<&Interval> {
        self.metrics.iter().find(|(n, _)| *n == name).map(|(_, i)| i)
    }
}

fn as_object<S: Serializer>(metrics: &[(&'static str, Interval)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(metrics.iter().map(|(n, i)| (n, i)))
}

/// The measured windows of `windows` (those that started at or after the warm-up's end, a
/// suffix of the ring): the index of the first, and how many there are.
pub fn measured(windows: &VecDeque<Window>, warmup_end: Ns, window_ns: Ns) -> (usize, usize) {
    let first_end = crate::time::as_ms(warmup_end + window_ns);
    let first = windows.partition_point(|w| w.end_ms < first_end);
    (first, windows.len() - first)
}

/// Every interval metric's interval over the measured windows; None when too few.
pub fn of(windows: &VecDeque<Window>, warmup_end: Ns, window_ns: Ns) -> Option<Intervals> {
    let (first, n) = measured(windows, warmup_end, window_ns);
    let (k, per) = batching(n)?;
    let from = first + n - k * per;
    let metrics = METRICS.iter().filter(|m| m.batch.is_some()).map(|m| (m.name, batched(m, windows, from, k, per))).collect();
    Some(Intervals { batches: k as u32, windows_per_batch: per as u32, windows: (k * per) as u32, metrics })
}

/// One metric's interval over the measured windows (None when it has no batch reading or too few windows).
pub fn one(m: &Metric, windows: &VecDeque<Window>, warmup_end: Ns, window_ns: Ns) -> Option<Interval> {
    let (first, n) = measured(windows, warmup_end, window_ns);
    let (k, per) = batching(n)?;
    m.batch?;
    Some(batched(m, windows, first + n - k * per, k, per))
}

/// The interval of the batch means of `m` (which has a batch reading) over `k` batches of
/// `per` windows from `from`.
fn batched(m: &Metric, windows: &VecDeque<Window>, from: usize, k: usize, per: usize) -> Interval {
    let mut means = [0.0; BATCHES];
    let (mut sum, mut weight) = (0.0, 0.0);
    for (i, w) in windows.range(from..from + k * per).enumerate() {
        let (v, wt) = m.batch_part(w).unwrap_or((0.0, 0.0));
        sum += v;
        weight += wt;
        if (i + 1) % per == 0 {
            means[i / per] = if weight > 0.0 { sum / weight } else { 0.0 };
            (sum, weight) = (0.0, 0.0);
        }
    }
    from_means(&means[..k])
}

/// MSER-5 (White 1997; Hoad, Robinson and Davies 2010): the series cut into batches of 5,
/// their means `z`, and the truncation `d` (in batches) that minimises the standard error of
/// the mean of what is left, sum over j > d of (z_j - mean_d)^2 / (b - d)^2, for d up to
/// half the batches. The answer is `Some(d)` only when at least `MSER_MIN_BATCHES` batches
/// are in and `d` falls in the first half: a minimum at the half's edge says the transient
/// may still be going on.
pub(crate) fn mser5(series: &[f64]) -> Option<usize> {
    let z: Vec<f64> = series.chunks_exact(5).map(|c| c.iter().sum::<f64>() / 5.0).collect();
    let b = z.len();
    if b < MSER_MIN_BATCHES {
        return None;
    }
    let (mut best, mut best_d) = (f64::INFINITY, 0);
    for d in 0..=b / 2 {
        let rest = &z[d..];
        let mean = rest.iter().sum::<f64>() / rest.len() as f64;
        let sse: f64 = rest.iter().map(|x| (x - mean).powi(2)).sum();
        let stat = sse / (rest.len() * rest.len()) as f64;
        if stat < best {
            (best, best_d) = (stat, d);
        }
    }
    (best_d < b / 2).then_some(best_d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mser5_cuts_a_transient_keeps_a_steady_series_and_waits_for_enough_batches() {
        // 8 batches high then 32 around 1: the cut falls where the transient ends.
        let noise = |i: usize| ((i * 7919) % 13) as f64 / 130.0;
        let transient: Vec<f64> = (0..200).map(|i| if i < 40 { 3.0 } else { 1.0 } + noise(i)).collect();
        assert_eq!(mser5(&transient), Some(8));
        let steady: Vec<f64> = (0..200).map(|i| 1.0 + noise(i)).collect();
        assert_eq!(mser5(&steady).map(|d| d <= 1), Some(true));
        assert_eq!(mser5(&steady[..19]), None, "3 batches: too few");
        // Still rising at the end: the minimum sits at the half's edge, no answer yet.
        let rising: Vec<f64> = (0..40).map(|i| i as f64).collect();
        assert_eq!(mser5(&rising), None);
    }
}
