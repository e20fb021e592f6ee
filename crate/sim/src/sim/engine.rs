//! The seam of the engines: the few decisions in which NDB's cluster and the one-server
//! engines differ, one method with one match each. Everything else (clients, rounds, row
//! locks and their accounting, ids, metrics, the explanation) is the same for every
//! engine.
//!
//! | decision | `ndb` | `postgres` | `innodb` | `raft` |
//! |---|---|---|---|---|
//! | the commit path | linear two-phase commit down the replica chains (`tc.rs`) | one log flush shared by a group of commits, then the locks go (`server.rs`) | the locks go, then the client waits for the redo log's group flush (`innodb.rs`) | one round in one range: one-phase; else the client is told and each intent is resolved by one more Raft round (`raft.rs`) |
//! | a released row's waiters | the first is granted it (FIFO) | every one wakes and re-checks it; one wins (`server.rs`) | one is granted it (FIFO or CATS) after a pass over the queue, and wakes (`innodb.rs`) | the first is granted it; one that waited past `server.pushDelayUs` had pushed and takes it a round later (`raft.rs`) |
//! | a new lock wait | waits | waits | searches for a deadlock: a cycle (or under `graph` a search past 200) rolls it back (`innodb.rs`) | waits |
//! | a wait past `lockWaitTimeoutMs` | aborted: NDB ends deadlocks by timeout | aborted only when it closes a cycle (`deadlock_timeout`) | aborted (`innodb_lock_wait_timeout`) | aborted only when it closes a cycle |
//!
//! The ids come from the same strategies on every engine. A one-server engine's counter (a
//! PostgreSQL sequence, cached per session: `idCacheScope` `client`; InnoDB's AUTO_INCREMENT
//! counter) is taken inside the INSERT on the server, with no refill transaction and no
//! round trip of its own (`ids/mod.rs` `take_in_server`); under InnoDB's
//! `innodb_autoinc_lock_mode` 0 the INSERT holds its table's AUTO-INC lock to the
//! statement's end (`autoinc.rs`). Raft's is a row of its range, refilled as NDB's
//! SYSTAB_0 row is.

use super::Simulation;
use crate::config::{DeadlockSearch, Engine};
use crate::locks::Owner;
use crate::time::Ns;
use crate::topology::Host;

impl Simulation {
    /// Every round is confirmed and the commit decided: the engine's commit path.
    pub(super) fn start_commit(&mut self, t: u32, host: Host) {
        match self.cfg.engine {
            Engine::Ndb => self.start_two_phase_commit(t, host),
            Engine::Postgres => self.log_commit(t, host, true),
            Engine::Innodb => self.log_commit(t, host, false),
            Engine::Raft => self.raft_commit(t, host),
        }
    }

    /// Operation `op` holds its row lock at chain position `replica`: NDB passes it down
    /// the replica chain (a one-server engine's chain is its one server); Raft proposes it
    /// to the range's group.
    pub(super) fn replicate(&mut self, t: u32, op: usize, replica: u32, host: Host) {
        match self.cfg.engine {
            Engine::Raft => self.propose(t, op, host),
            _ => self.pass_down(t, op, replica, host),
        }
    }

    /// Whether a transaction of `rounds` rounds sends its commit with its last round (NDB
    /// API programs do, `piggyback`); Raft batches a one-round transaction's commit with it.
    pub(super) fn commits_with_last_round(&self, rounds: usize, piggyback: bool) -> bool {
        piggyback || (self.cfg.engine == Engine::Raft && rounds == 1)
    }

    /// A released row lock wakes every waiter (true) or grants one (false).
    pub(super) fn wakes_all(&self) -> bool {
        self.cfg.engine == Engine::Postgres
    }

    /// A released lock on `row` at `host` was granted to `next`, waiting since `since`:
    /// it goes on at once (NDB), or wakes after the releaser's pass over the queue.
    #[inline]
    pub(super) fn granted(&mut self, next: Owner, since: Ns, row: u64, host: Host) {
        match self.cfg.engine {
            Engine::Ndb | Engine::Postgres => self.locked(next.txn, next.op as usize, next.replica as u32, host, self.now_ns - since),
            Engine::Innodb => self.hand_over(next, since, row, host),
            Engine::Raft => self.raft_granted(next, since, host),
        }
    }

    /// Operation `op` of `t` queued for its row behind `ahead` requests: InnoDB searches
    /// for a deadlock at once; the others wait.
    #[inline]
    pub(super) fn lock_wait_begins(&mut self, t: u32, op: usize, ahead: usize) {
        if self.cfg.engine == Engine::Innodb && self.cfg.server.deadlock_search != DeadlockSearch::Off {
            self.search_deadlock(t, op, ahead);
        }
    }

    /// A transaction has waited for a row lock past `lockWaitTimeoutMs`: whether the wait
    /// ends in an abort.
    pub(super) fn wait_ends(&self, t: u32) -> bool {
        match self.cfg.engine {
            Engine::Ndb | Engine::Innodb => true,
            Engine::Postgres | Engine::Raft => self.cycle_of(t).is_some(),
        }
    }
}
