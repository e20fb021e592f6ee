//! The seam of the engines: the few decisions in which NDB's cluster and a one-server
//! engine differ, one method with one match each. Everything else (clients, rounds, row
//! locks and their accounting, ids, metrics, the explanation) is the same for every
//! engine.
//!
//! | decision | `ndb` | `postgres` |
//! |---|---|---|
//! | the commit path | linear two-phase commit down the replica chains (`tc.rs`) | one log flush shared by a group of commits, then the locks go (`server.rs`) |
//! | a released row's waiters | the first is granted it (FIFO) | every one wakes and re-checks it; one wins (`server.rs`) |
//! | a wait past `lockWaitTimeoutMs` | aborted: NDB ends deadlocks by timeout | aborted only when it closes a cycle (`deadlock_timeout`) |
//!
//! The ids come from the same strategies on every engine: under `postgres` the counter row
//! is a sequence's, cached per session (`idCacheScope` `client`), and its refill (`nextval`)
//! is not transactional: it waits for no flush and hands its row over in order, as a
//! buffer lock does.

use super::Simulation;
use crate::config::Engine;
use crate::topology::Host;
use crate::workload::{self, table};

impl Simulation {
    /// Every round is confirmed and the commit decided: the engine's commit path.
    pub(super) fn start_commit(&mut self, t: u32, host: Host) {
        match self.cfg.engine {
            Engine::Ndb => self.start_two_phase_commit(t, host),
            Engine::Postgres => self.log_commit(t, host),
        }
    }

    /// A released lock on `row` wakes every waiter (true) or grants the first (false).
    pub(super) fn wakes_all(&self, row: u64) -> bool {
        match self.cfg.engine {
            Engine::Ndb => false,
            // A sequence's row is behind a buffer lock, handed over in order.
            Engine::Postgres => workload::table_of(row) != table::SYSTAB,
        }
    }

    /// A transaction has waited for a row lock past `lockWaitTimeoutMs`: whether the wait
    /// ends in an abort.
    pub(super) fn wait_ends(&self, t: u32) -> bool {
        match self.cfg.engine {
            Engine::Ndb => true,
            Engine::Postgres => self.cycle_of(t).is_some(),
        }
    }
}
