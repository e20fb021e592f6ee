//! The response time at zero load, R0: the same cluster and workload run by one client
//! alone, so that nothing it does ever queues behind another client. With the think time
//! Z it gives the client population's bound N / (R0 + Z) (the asymptotic bound of a
//! closed system, *Quantitative System Performance* ch. 5). It is measured, not summed
//! from demands, because a transaction's operations run in parallel within a round and a
//! sum of their demands would overstate it.
//!
//! The probe is a short run of its own (at most `PROBE_TXNS` transactions, `PROBE_EVENTS`
//! events or `PROBE_MS` simulated, a few per cent of a one-second run's events):
//! deterministic, like any run, from the config alone.

use crate::config::{Allocator, Config};
use crate::time;
use crate::Simulation;
use std::cell::OnceCell;

const PROBE_TXNS: u64 = 200;
const PROBE_EVENTS: u64 = 60_000;
const PROBE_MS: u64 = 2_000;

/// R0 in microseconds as the config is, and with the id allocator relieved: each measured
/// the first time it is asked for (the relieved one only when an allocator resource is the
/// bottleneck), kept until the config changes.
#[derive(Clone, Debug, Default)]
pub struct ZeroLoad {
    response_us: OnceCell<f64>,
    relieved_us: OnceCell<f64>,
}

impl ZeroLoad {
    pub(crate) fn response_us(&self, cfg: &Config) -> f64 {
        *self.response_us.get_or_init(|| probe(cfg))
    }

    /// With a cache of a million ids (or the widest timestamp sequence).
    pub(crate) fn relieved_us(&self, cfg: &Config) -> f64 {
        *self.relieved_us.get_or_init(|| {
            let relieved = relieved(cfg);
            if relieved == *cfg {
                self.response_us(cfg)
            } else {
                probe(&relieved)
            }
        })
    }
}

fn relieved(cfg: &Config) -> Config {
    let mut relieved = cfg.clone();
    match cfg.allocator {
        Allocator::Timestamp => relieved.timestamp_sequence_bits = crate::config::fields::max_of("timestampSequenceBits"),
        Allocator::CounterRow | Allocator::CentralService => {
            relieved.cache_size = crate::config::fields::max_of("cacheSize");
            relieved.cache_growth = 1;
        }
    }
    relieved
}

fn probe(cfg: &Config) -> f64 {
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
