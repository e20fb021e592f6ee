//! What the summary says of its figures' precision: their 95% intervals (`intervals.rs`),
//! and whether a run asked to stop at a precision did.

use crate::config::{Config, Workload};
use crate::metrics::Metrics;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PrecisionSummary {
    /// `precisionMetric`.
    pub metric: String,
    /// `precision`: the relative half-width asked for.
    pub asked: f64,
    /// The relative half-width of the metric's interval at the end (null without one).
    pub reached: Option<f64>,
    /// It was met: the run stopped there, before `durationMs` ran out.
    pub converged: bool,
}

/// A run's precision part: null when none was asked (`precision` 0).
pub(super) fn of(m: &Metrics, cfg: &Config, stopped: bool) -> Option<PrecisionSummary> {
    (cfg.precision > 0.0).then(|| PrecisionSummary {
        metric: cfg.precision_metric.clone(),
        asked: cfg.precision,
        reached: crate::catalog::metric(&cfg.precision_metric)
            .and_then(|metric| crate::intervals::one(metric, &m.windows, cfg.warmup_ms, cfg.window_ms))
            .map(|i| i.relative),
        converged: stopped,
    })
}

/// The intervals of the figures the summary reports: not TPM beside another workload than
/// DBT2 (the summary's is 0), nor open arrivals' figures in closed loops (it has none).
pub(super) fn intervals(m: &Metrics, cfg: &Config) -> Option<crate::intervals::Intervals> {
    let mut all = crate::intervals::of(&m.windows, cfg.warmup_ms, cfg.window_ms)?;
    let open = cfg.arrival_rate_per_api_node > 0 || m.totals.arrivals > 0;
    all.metrics.retain(|&(name, _)| match name {
        "tpm" => cfg.workload == Workload::Dbt2,
        "offeredPerSecond" | "waitingMean" => open,
        _ => true,
    });
    Some(all)
}
