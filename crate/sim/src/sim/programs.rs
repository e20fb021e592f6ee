//! Where a run's transaction programs come from: the built-in DBT2 mix or a workload spec,
//! each with the state its clients share.

use crate::config::Config;
use crate::spec::SpecState;
use crate::workload::Dbt2State;

/// Where a run's transaction programs come from, with the state they share.
#[derive(Clone, Debug)]
pub enum Programs {
    Dbt2(Dbt2State),
    Spec(SpecState),
}

impl Programs {
    pub fn new(cfg: &Config) -> Programs {
        match cfg.workload.spec() {
            None => Programs::Dbt2(Dbt2State::new(cfg.warehouses)),
            Some(spec) => Programs::Spec(SpecState::new(spec, cfg.key_layout, cfg.shard_bits as u32)),
        }
    }

    /// Statements go through mysqld (an API round costs a SQL statement).
    pub fn sql(&self) -> bool {
        match self {
            Programs::Dbt2(_) => true,
            Programs::Spec(s) => s.sql(),
        }
    }
}
