//! A detected warm-up (`warmup: "auto"`). `warmupMs` is the least; as each metrics window
//! closes, MSER-5 (`intervals::mser5`) runs over the windows since then of the precision
//! metric (transactions/s unless named) until it says where the transient ended. If it
//! ended at `warmupMs` the run goes on as measured; if later, every counter of the run
//! starts over at that moment (the cut MSER-5 found is in the past, and the run's counters
//! cannot be taken back to it). The summary's `warmup` says both points. A run with a
//! precision checks it only once the warm-up is decided.

use super::Simulation;
use crate::summary::Warmup;
use crate::{catalog, intervals, time};

impl Simulation {
    /// A window closed: where does the transient end? (Detected warm-ups, until decided.)
    pub(super) fn detect_warmup(&mut self) {
        let Some(metric) = catalog::metric(crate::facts::warmup_metric(&self.cfg)).filter(|m| m.batch.is_some()) else { return };
        let (least, window) = (time::from_ms(self.cfg.warmup_ms), self.metrics.window_ns());
        let (first, n) = intervals::measured(&self.metrics.windows, least, window);
        let series: Vec<f64> = self
            .metrics
            .windows
            .range(first..first + n)
            .map(|w| {
                let (v, weight) = metric.batch_part(w).unwrap_or((0.0, 0.0));
                if weight > 0.0 {
                    v / weight
                } else {
                    0.0
                }
            })
            .collect();
        let Some(d) = intervals::mser5(&series) else { return };
        // The cut is where the first window kept started.
        let kept = &self.metrics.windows[first + 5 * d];
        self.warmup = Warmup { decided: true, truncation_ms: Some(kept.end_ms - time::as_ms(window)) };
        if d > 0 {
            self.metrics.restart_run(self.now_ns);
        }
    }
}
