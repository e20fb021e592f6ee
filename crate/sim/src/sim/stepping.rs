//! Stepping: one event, a span of simulated time within an event budget, the run to its
//! end; and a run that stops at a precision (`precision` > 0): as each metrics window
//! closes, the 95% interval of `precisionMetric` over the measured windows (`intervals.rs`)
//! is taken; once its half-width is within `precision` of the figure and its batch means are
//! not correlated (lag 1 at most `intervals::LAG1_LIMIT`), after at least
//! `batch_means::MIN_WINDOWS` measured windows, the run has what it needs and stops there;
//! `durationMs` stays the cap.
//!
//! The stop falls on a window's close, and a run with a precision ends right after that
//! event: the same seed stops at the same event natively and in wasm, whatever slices it is
//! run in. (A figure that is 0 throughout, TPM beside another workload than DBT2, has no
//! precision to stop on.)

use super::{Advanced, Event, Simulation};
use crate::intervals;
use crate::time::{self, Ns};

/// A detected warm-up is at most 1 / this of a run that stops at a precision.
const WARMUP_SHARE_INVERSE: f64 = 5.0;

impl Simulation {
    /// Processes one event. Returns false when there is none (never, in a running model).
    pub fn step(&mut self) -> bool {
        let Some((time, event)) = self.queue.pop() else { return false };
        self.process(time, event);
        true
    }

    pub(super) fn process(&mut self, time: Ns, event: Event) {
        debug_assert!(time >= self.now_ns, "time ran backwards");
        self.now_ns = time;
        self.metrics.totals.events += 1;
        self.dispatch(event);
    }

    /// Processes every event up to and including time `t`, then sets the clock to `t` (a
    /// run with a precision stops where it was met instead).
    pub fn run_until(&mut self, t: Ns) -> u64 {
        self.advance(t.saturating_sub(self.now_ns), u64::MAX).events
    }

    /// Processes events for at most `duration` ns of simulated time and at most
    /// `max_events` events: bounded work per call, for a render loop. A run with a
    /// precision goes no further than where it was met (`advance_loop`).
    pub fn advance(&mut self, duration: Ns, max_events: u64) -> Advanced {
        if self.cfg.precision > 0.0 {
            return self.advance_loop::<true>(duration, max_events);
        }
        self.advance_loop::<false>(duration, max_events)
    }

    /// The event loop: events up to `duration` from now, at most `max_events`; with
    /// `STOPS`, also no further than the event that set `stopped` (a run with a precision:
    /// the loop ends right after the window's close that met it, whatever the slices).
    /// Without, the loop is the plain one: the check is compiled out.
    fn advance_loop<const STOPS: bool>(&mut self, duration: Ns, max_events: u64) -> Advanced {
        let target = self.now_ns.saturating_add(duration);
        let mut n = 0;
        while n < max_events && !(STOPS && self.stopped) {
            match self.queue.pop_until(target) {
                Some((time, event)) => {
                    self.process(time, event);
                    n += 1;
                }
                None => {
                    self.now_ns = self.now_ns.max(target);
                    break;
                }
            }
        }
        Advanced { events: n, now_ns: self.now_ns }
    }

    /// Runs to the configured end (warm-up plus duration), or to where the precision asked
    /// for was met.
    pub fn run_to_end(&mut self) -> u64 {
        self.run_until(self.cfg.end_ns())
    }

    /// Whether the run stopped at its precision (before its configured end).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// A window closed: stop here if the precision asked for is met (and a detected warm-up
    /// is at most the run's first fifth: a run that stopped sooner would be mostly
    /// transient and cut, docs/MODEL.md §5).
    pub(super) fn check_precision(&mut self) {
        if let Some(cut_ms) = self.warmup.truncation_ms.filter(|_| self.cfg.warmup == "auto") {
            if time::as_ms(self.now_ns) < WARMUP_SHARE_INVERSE * cut_ms {
                return;
            }
        }
        let Some(metric) = crate::catalog::metric(crate::facts::precision_metric(&self.cfg)) else { return };
        let interval = intervals::one(metric, &self.metrics.windows, self.metrics.warmup_end_ns, self.metrics.window_ns());
        self.stopped = interval.is_some_and(|i| i.mean != 0.0 && i.relative <= self.cfg.precision && i.lag1 <= intervals::LAG1_LIMIT);
    }
}
