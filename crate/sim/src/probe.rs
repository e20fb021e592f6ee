//! The response time at zero load, R0, measured by a probe run above the simulation: the
//! same cluster and workload run by one client alone, so that nothing it does ever queues
//! behind another client. With the think time Z it gives the client population's bound
//! N / (R0 + Z) (the asymptotic bound of a closed system, *Quantitative System
//! Performance* ch. 5). It is measured, not summed from demands, because a transaction's
//! operations run in parallel within a round and a sum of their demands would overstate it.
//!
//! The probe is a short run of its own (at most `PROBE_TXNS` transactions, `PROBE_EVENTS`
//! events or `PROBE_MS` simulated, a few per cent of a one-second run's events):
//! deterministic, like any run, from the config alone. So the summary and the explanation,
//! which need R0, are asked for here, above the simulation: the simulation never runs
//! another from inside (`sim` does not import this module; crate/lint's structure test holds
//! the module graph free of cycles).

use crate::config::Config;
use crate::explain::Explanation;
use crate::sim::Simulation;
use crate::summary::Summary;
use crate::time;

impl Simulation {
    /// The run summary so far (measured after warm-up).
    pub fn summary(&self) -> Summary {
        let (metrics, now) = self.measured(probe);
        Summary::build(metrics, self.config(), self.topology(), &now)
    }

    /// What holds the throughput so far (after warm-up): the summary's `bottleneck`,
    /// `nextCeiling`, `resources` and `deadlocks`, without the rest of the summary.
    pub fn explain(&self) -> Explanation {
        let (metrics, now) = self.measured(probe);
        crate::summary::explanation(metrics, self.config(), self.topology(), &now)
    }
}

const PROBE_TXNS: u64 = 200;
const PROBE_EVENTS: u64 = 60_000;
const PROBE_MS: u64 = 2_000;

/// R0 of `cfg`, in microseconds: one client alone, in a closed loop, no think time.
pub(crate) fn probe(cfg: &Config) -> f64 {
    let mut c = cfg.clone();
    c.api_nodes = 1;
    c.clients_per_api_node = 1;
    c.think_time_us = 0;
    c.arrival_rate_per_api_node = 0; // One client in a closed loop, whatever the config offers.
    c.faults.clear();
    c.warmup_ms = 0;
    c.warmup = "fixed".into(); // The probe measures from its start, for its own length.
    c.precision = 0.0;
    c.duration_ms = PROBE_MS;
    let mut sim = Simulation::new(c);
    let step = time::from_ms(10);
    while !sim.finished() && sim.committed_user_txns() < PROBE_TXNS && sim.events() < PROBE_EVENTS {
        // Capped in events too: a relieved transaction may take no simulated time.
        sim.advance(step, PROBE_EVENTS - sim.events());
    }
    sim.response_us_mean()
}
