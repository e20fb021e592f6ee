//! Checkpoints: a copy of a whole simulation at one moment, to go back to it (rewind) or
//! to branch from it (fork). The simulation is deterministic, so restoring a checkpoint
//! taken at time t and running on gives exactly what the original run gave after t.

use super::Simulation;
use crate::config::{fields, lookup, ConfigError};
use crate::time::Ns;

/// A simulation's whole state at one moment. Opaque: restore it, or start a branch from it.
#[derive(Clone)]
pub struct Checkpoint {
    sim: Box<Simulation>,
}

impl Checkpoint {
    /// The simulated time it was taken at.
    pub fn now_ns(&self) -> Ns {
        self.sim.now_ns()
    }

    /// Bytes it holds (the same measure as [`Simulation::memory_bytes`]).
    pub fn memory_bytes(&self) -> usize {
        self.sim.memory_bytes()
    }

    /// A new simulation that goes on from this moment: a branch. Change a live field of it
    /// with [`Simulation::set`] and it runs a different future from the same past.
    pub fn branch(&self) -> Simulation {
        (*self.sim).clone()
    }
}

impl Simulation {
    /// Takes a checkpoint of the whole state. Costs one copy of it (see `memory_bytes`).
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint { sim: Box::new(self.clone()) }
    }

    /// Brings this simulation back to `cp`: clock, queue, locks, metrics and the config as
    /// it was then (live changes made since are undone). The checkpoint must be of the
    /// same cluster: a field that cannot change while running (`dataNodes`, `seed`, ...)
    /// differing is an error, and nothing changes.
    pub fn restore(&mut self, cp: &Checkpoint) -> Result<(), ConfigError> {
        let mine = serde_json::to_value(&self.cfg).expect("Config serialises");
        let theirs = serde_json::to_value(&cp.sim.cfg).expect("Config serialises");
        if let Some(field) = fields::first_changed_fixed(&mine, &theirs) {
            let value = lookup(&theirs, field).cloned().unwrap_or_default();
            return Err(ConfigError::new(
                field,
                value,
                format!(
                    "the checkpoint is of another simulation (this one has {}); restore it into a \
                     simulation of the same config, or start a branch from it",
                    lookup(&mine, field).cloned().unwrap_or_default()
                ),
            ));
        }
        self.clone_from(&cp.sim);
        Ok(())
    }
}
