//! The response time at zero load, R0, as the summary reads it: measured once per config
//! by a probe run that the caller above the simulation gives (`crate::probe`), and kept.

use crate::config::{Allocator, Config};
use std::cell::OnceCell;

/// R0 in microseconds as the config is, and with the id allocator relieved: each measured
/// (by the `probe` given, this module's) the first time it is asked for (the relieved one
/// only when an allocator resource is the bottleneck), kept until the config changes.
#[derive(Clone, Debug, Default)]
pub struct ZeroLoad {
    response_us: OnceCell<f64>,
    relieved_us: OnceCell<f64>,
}

/// How R0 is measured: `probe` (a test may give another).
pub type Probe = fn(&Config) -> f64;

impl ZeroLoad {
    pub(crate) fn response_us(&self, cfg: &Config, probe: Probe) -> f64 {
        *self.response_us.get_or_init(|| probe(cfg))
    }

    /// With a cache of a million ids (or the widest timestamp sequence).
    pub(crate) fn relieved_us(&self, cfg: &Config, probe: Probe) -> f64 {
        *self.relieved_us.get_or_init(|| {
            let relieved = relieved(cfg);
            if relieved == *cfg {
                self.response_us(cfg, probe)
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
        Allocator::CounterRow if cfg.autoinc_table_lock() => relieved.server.autoinc_lock_mode = 1,
        Allocator::CounterRow | Allocator::CentralService => {
            relieved.cache_size = crate::config::fields::max_of("cacheSize");
            relieved.cache_growth = 1;
        }
    }
    relieved
}
