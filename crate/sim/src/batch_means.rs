//! Batch means (Schmeiser 1982): how a series of `n` observations of a run (its measured
//! windows, or the buckets of them, `metrics/batches.rs`) is cut into at most `BATCHES`
//! consecutive batches of equal length, and the 95% interval of a figure from its k batch
//! figures: t(0.975, k - 1) x s / sqrt(k), with their lag-1 correlation beside it. The
//! windows' figures (`intervals.rs`) and the bound's and next ceiling's
//! (`explain/batched.rs`) are taken so.

use serde::Serialize;

/// Batches at most: Schmeiser's 10 to 30.
pub(crate) const BATCHES: usize = 20;
/// Measured windows needed for an interval (then each window is a batch): 1 s at 100 ms.
pub(crate) const MIN_WINDOWS: usize = 10;

/// Student's t, the 97.5% quantile, for 9 to 19 degrees of freedom (10 to 20 batches).
const T975: [f64; 11] = [2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093];

/// One figure's interval: the figure ± `half_width`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Interval {
    /// Half the 95% interval's width, in the metric's unit.
    pub half_width: f64,
    /// `half_width` over the batch means' mean (0 when that is 0).
    pub relative: f64,
    /// Lag-1 correlation of the batch means: near 0, the batches are independent enough.
    pub lag1: f64,
    /// The batch means' mean (`relative`'s divisor): a figure that is 0 has no precision to
    /// stop on.
    #[serde(skip)]
    pub mean: f64,
}

/// How `n` observations are batched: (batches, observations per batch), the batches as
/// short as keeps them at most `BATCHES` (so fewer than one batch's observations are left
/// over); None below `MIN_WINDOWS`.
pub(crate) fn batching(n: usize) -> Option<(usize, usize)> {
    (n >= MIN_WINDOWS).then(|| {
        let per = n.div_ceil(BATCHES);
        (n / per, per)
    })
}

/// The interval from k batch means (10 to 20 of them).
#[inline(never)] // One copy for the windows' figures and the bound's (the main WebAssembly module's size).
pub(crate) fn from_means(means: &[f64]) -> Interval {
    let k = means.len();
    let mean = means.iter().sum::<f64>() / k as f64;
    let var = means.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    let half_width = T975[(k - 1).clamp(9, 19) - 9] * (var / k as f64).sqrt();
    let lag1 = if var > 0.0 {
        let cov: f64 = means.windows(2).map(|p| (p[0] - mean) * (p[1] - mean)).sum::<f64>() / (k - 1) as f64;
        cov / var
    } else {
        0.0
    };
    let relative = if mean != 0.0 { half_width / mean.abs() } else { 0.0 };
    Interval { half_width, relative, lag1, mean }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_are_at_most_twenty_of_equal_length_the_earliest_left_over_dropped() {
        assert_eq!(batching(9), None);
        assert_eq!(batching(10), Some((10, 1)));
        assert_eq!(batching(20), Some((20, 1)));
        assert_eq!(batching(21), Some((10, 2)));
        assert_eq!(batching(59), Some((19, 3)));
        assert_eq!(batching(100), Some((20, 5)));
        // Never fewer than 10 batches, never a batch of windows left over.
        for n in 10..5000 {
            let (k, per) = batching(n).unwrap();
            assert!((10..=20).contains(&k) && n - k * per < per, "{n}: {k} x {per}");
        }
    }

    #[test]
    fn constant_means_have_no_width_and_alternating_ones_a_negative_lag() {
        let flat = from_means(&[5.0; 12]);
        assert_eq!((flat.half_width, flat.relative, flat.lag1, flat.mean), (0.0, 0.0, 0.0, 5.0));
        let saw: Vec<f64> = (0..20).map(|i| if i % 2 == 0 { 9.0 } else { 11.0 }).collect();
        let i = from_means(&saw);
        // s = sqrt(20/19), t(19) = 2.093: 2.093 * sqrt(20/19/20).
        assert!((i.half_width - 2.093 * (1.0f64 / 19.0).sqrt()).abs() < 1e-12, "{i:?}");
        assert!((i.relative - i.half_width / 10.0).abs() < 1e-12);
        assert!(i.lag1 < -0.9, "{i:?}");
    }
}
