//! What the summary says of its figures' precision: their 95% intervals (`intervals.rs`),
//! whether a run asked to stop at a precision did, and where its measured period began.

use crate::config::{Config, Workload};
use crate::metrics::Metrics;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PrecisionSummary {
    /// The metric `precisionMetric` names (`headline` read as the run's headline figure).
    pub metric: String,
    /// `precision`: the relative half-width asked for.
    pub asked: f64,
    /// The relative half-width of the metric's interval at the end (null without one, or
    /// when the figure is 0).
    pub reached: Option<f64>,
    /// It was met: the run stopped there, before `durationMs` ran out.
    pub converged: bool,
}

/// A run's precision part: null when none was asked (`precision` 0).
pub(super) fn of(m: &Metrics, cfg: &Config, stopped: bool) -> Option<PrecisionSummary> {
    (cfg.precision > 0.0).then(|| PrecisionSummary {
        metric: crate::facts::precision_metric(cfg).to_string(),
        asked: cfg.precision,
        reached: crate::catalog::metric(crate::facts::precision_metric(cfg))
            .and_then(|metric| crate::intervals::one(metric, &m.windows, m.warmup_end_ns, m.window_ns()))
            .filter(|i| i.mean != 0.0)
            .map(|i| i.relative),
        converged: stopped,
    })
}

/// The intervals of the figures the summary reports: not TPM beside another workload than
/// DBT2 (the summary's is 0), nor open arrivals' figures in closed loops (it has none).
pub(super) fn intervals(m: &Metrics, cfg: &Config) -> Option<crate::intervals::Intervals> {
    let mut all = crate::intervals::of(&m.windows, m.warmup_end_ns, m.window_ns())?;
    let open = cfg.arrival_rate_per_api_node > 0 || m.totals.arrivals > 0;
    all.metrics.retain(|&(name, _)| match name {
        "tpm" => cfg.workload == Workload::Dbt2,
        "offeredPerSecond" | "waitingMean" => open,
        _ => true,
    });
    Some(all)
}

/// Where a run's warm-up stands.
#[derive(Clone, Copy, Debug, Default)]
pub struct Warmup {
    /// Fixed, or detected: the run is measured from `Metrics::warmup_end`.
    pub decided: bool,
    /// Where MSER-5 put the transient's end, in simulated ms (detected warm-ups only).
    pub truncation_ms: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WarmupSummary {
    /// `fixed` or `auto` (the config's `warmup`).
    pub mode: String,
    /// `warmupMs`: the warm-up, or its least when detected.
    pub least_ms: u64,
    /// Where the measured period began, in simulated ms.
    pub measured_from_ms: f64,
    /// A detected warm-up: where MSER-5 put the transient's end (null while undecided, and
    /// for a fixed warm-up). Measuring began there, or, when that was past `warmupMs`, as
    /// MSER-5 said so (the run's counters started over).
    pub truncation_ms: Option<f64>,
    /// False while a detected warm-up is undecided: the run has been too short for MSER-5
    /// (it is measured from `warmupMs` until then).
    pub decided: bool,
}

/// The summary's warm-up part.
pub(super) fn warmup(m: &Metrics, cfg: &Config, state: &Warmup) -> WarmupSummary {
    WarmupSummary {
        mode: cfg.warmup.clone(),
        least_ms: cfg.warmup_ms,
        measured_from_ms: crate::time::as_ms(m.warmup_end_ns),
        truncation_ms: state.truncation_ms,
        decided: state.decided,
    }
}
