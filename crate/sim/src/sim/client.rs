//! The API side: client threads running closed loops of transactions, round by round, and
//! the choice of each transaction's coordinator (TC).
//!
//! A round is one NDB `execute()`: one SQL statement through mysqld, or one NDB API
//! batch. The client's API node spends CPU preparing it, asks the allocator for a hidden
//! key if the round inserts into a table without a primary key, then sends TCKEYREQ to
//! the TC. When the last round is confirmed it asks for the commit (mysqld), or the
//! commit rode on the last round (NDB API `execute(Commit)`).

use super::event::{Event, MsgKind};
use super::programs::Programs;
use super::txn::Op;
use super::Simulation;
use crate::config::Config;
use crate::prng::Prng;
use crate::spec::ClientKeys;
use crate::topology::Host;
use crate::workload::{self, Dbt2State, TxnKind};

#[derive(Clone, Debug)]
pub(super) struct Client {
    pub api: u32,
    home_warehouse: u64,
    rng: Prng,
    next_key: u64,
    /// False once `clientsPerApiNode` was lowered below this client: it stops after its
    /// current transaction.
    pub active: bool,
    /// A transaction or a start is pending for this client.
    pub running: bool,
    /// Open arrivals: it waits in its API node's idle list for a request.
    pub idle: bool,
}

impl Client {
    pub fn new(cfg: &Config, index: u32, api: u32) -> Client {
        Client {
            api,
            home_warehouse: (index % cfg.warehouses) as u64,
            rng: Prng::new(cfg.seed, 1 + index as u64),
            next_key: 0,
            active: true,
            running: true,
            idle: false,
        }
    }
}

impl Simulation {
    /// A slot for a new transaction of `kind` run by `client`.
    pub(super) fn alloc_txn(&mut self, kind: TxnKind, client: u32) -> u32 {
        let api = self.clients[client as usize].api;
        let restarts = self.faults.api_restarts[api as usize];
        self.txns.alloc(kind, client, api, self.now_ns, restarts)
    }

    /// Copies the program's operations into the transaction with their partitions. A new
    /// row of the inserted table keyed by the client (`primaryKey`, or a spec's own key)
    /// is placed by its `partitioning` and counted for the insert-skew report, as an
    /// allocator's key is when its id comes (`id_ready`); other rows by their table's
    /// placement (`tables::Tables`).
    pub(super) fn place_ops(&mut self, t: u32) {
        let inserted = self.ids.tables.table;
        let user = self.txns[t].kind.is_user();
        self.txns[t].ops.clear();
        for i in 0..self.txns[t].prog.ops.len() {
            let o = self.txns[t].prog.ops[i];
            let table = workload::table_of(o.row);
            let part = if o.needs_id {
                0
            } else if table == inserted {
                if user && o.insert {
                    self.place_key(o.dist)
                } else {
                    self.ids.tables.inserted.find(o.dist, &self.topo)
                }
            } else {
                self.ids.tables.place(table, o.dist, o.insert, &self.topo)
            };
            self.txns[t].ops.push(Op {
                row: o.row,
                part,
                write: o.write,
                insert: o.insert,
                needs_id: o.needs_id,
                dispatched: false,
                chain: [0; 4],
                chain_len: 0,
                applied: 0,
                blocked_mark: 0,
                queued_mark: 0,
                acks: 0,
            });
        }
    }

    pub(super) fn start_txn(&mut self, client: u32) {
        let api = self.clients[client as usize].api as usize;
        if self.now_ns < self.faults.api_down_until_ns[api] {
            // Its API node is restarting: the client reconnects when it is back.
            self.queue.push(self.faults.api_down_until_ns[api], Event::ClientStart { client });
            return;
        }
        let c = &mut self.clients[client as usize];
        let kind = match &self.programs {
            Programs::Dbt2(_) => Dbt2State::pick_kind(&mut c.rng),
            Programs::Spec(spec) => TxnKind::spec(spec.pick(&mut c.rng)),
        };
        let t = self.alloc_txn(kind, client);
        let c = &mut self.clients[client as usize];
        let txn = &mut self.txns[t];
        txn.piggyback = match &mut self.programs {
            Programs::Dbt2(dbt2) => {
                dbt2.generate(kind, c.home_warehouse, self.cfg.primary_key, &mut c.rng, &mut txn.prog);
                false
            }
            Programs::Spec(spec) => {
                let which = kind.spec_index().expect("a spec's kind");
                let keys = ClientKeys { client, next_key: &mut c.next_key, primary_key: self.cfg.primary_key, now_ns: self.now_ns };
                spec.generate(which, keys, &mut c.rng, &mut txn.prog)
            }
        };
        let txn = &self.txns[t];
        self.txns[t].piggyback = self.commits_with_last_round(txn.prog.round_count(), txn.piggyback);
        self.place_ops(t);
        self.next_round(t);
    }

    /// The client prepares its next round, or the commit when no round is left.
    pub(super) fn next_round(&mut self, t: u32) {
        let txn = &self.txns[t];
        let api = self.topo.api_station(txn.api);
        let kind = if (txn.round as usize) < txn.prog.round_count() { MsgKind::ApiRound } else { MsgKind::ApiCommit };
        self.enqueue(api, self.msg(kind, t));
    }

    /// The round is prepared; an insert without a key first needs an id.
    pub(super) fn round_prepared(&mut self, t: u32) {
        self.note_autoinc(t);
        let txn = &self.txns[t];
        if txn.ops[txn.round_ops()].iter().any(|o| o.needs_id) {
            self.want_id(t);
        } else {
            self.send_round(t);
        }
    }

    pub(super) fn send_round(&mut self, t: u32) {
        if !self.txns[t].tc_chosen {
            self.choose_tc(t);
        } else if !self.place.alive(self.topo.host_of(self.txns[t].tc)) {
            self.abort_txn(t, true); // Its TC failed: the execute fails, the client retries.
            return;
        }
        let txn = &self.txns[t];
        let from = self.topo.api_host(txn.api);
        self.send(from, txn.tc, self.msg(MsgKind::TcKeyReq, t));
    }

    /// The client asks its TC to commit (mysqld's separate commit round).
    pub(super) fn commit_requested(&mut self, t: u32, host: Host) {
        let tc = self.txns[t].tc;
        if !self.place.alive(self.topo.host_of(tc)) {
            self.abort_txn(t, true); // Its TC failed: the execute fails, the client retries.
        } else {
            self.send(host, tc, self.msg(MsgKind::TcCommitReq, t));
        }
    }

    fn choose_tc(&mut self, t: u32) {
        let txn = &self.txns[t];
        let hinted = if txn.kind == TxnKind::REFILL { self.cfg.hinted_refill } else { self.cfg.hinted_transactions };
        let node = if hinted {
            self.place.primary(&self.topo, txn.ops[0].part)
        } else {
            // Round robin over the data nodes that are up.
            let rr = &mut self.round_robin[txn.api as usize];
            let mut node = *rr;
            while !self.place.alive(node) {
                node = (node + 1) % self.topo.data_nodes;
            }
            *rr = (node + 1) % self.topo.data_nodes;
            node
        };
        let tc = self.topo.tc_station(node, txn.seq);
        let txn = &mut self.txns[t];
        txn.tc = tc;
        txn.tc_chosen = true;
        self.metrics.count(self.now_ns, |c| c.node_tc_txns[node as usize] += 1);
    }

    /// The commit confirmation reached the client: it records the transaction and starts
    /// its next one (after its think time), or with open arrivals takes the next request.
    pub(super) fn client_committed(&mut self, t: u32) {
        let txn = &mut self.txns[t];
        txn.client_done = true;
        let (kind, client, latency, inserts) = (txn.kind, txn.client, self.now_ns - txn.started_ns, txn.prog.inserts);
        self.metrics.committed(kind, latency, inserts as u64, self.now_ns);
        if kind == TxnKind::REFILL {
            self.refill_committed(t);
        } else if !self.clients[client as usize].active {
            self.clients[client as usize].running = false;
        } else if self.open() {
            self.client_free(client);
        } else if self.cfg.think_time_us > 0 {
            self.queue.push(self.now_ns + crate::time::from_us(self.cfg.think_time_us), Event::ClientStart { client });
        } else {
            self.start_txn(client);
        }
        self.txns.release_if_done(t);
    }
}
