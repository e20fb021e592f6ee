//! The simulation: one event queue, one closed event enum, one match.
//!
//! Every unit of work is a message served by a *station* — a data-node thread (one
//! server) or an API node's CPU cores (several servers) — in FIFO order, for a CPU cost
//! that depends on the message kind. Messages between hosts pay the network latency;
//! messages within a host do not. Throughput, load and latency are never computed: they
//! are what comes out of clients waiting on stations, locks and the id allocator.
//!
//! The protocol follows NDB's (names are NDB's signals):
//!
//! ```text
//! client round:   API --TCKEYREQ--> TC --LQHKEYREQ--> primary LQH --LQHKEYREQ--> backup LQH
//!                 backup --LQHKEYCONF--> TC --TCKEYCONF--> API            (reads stop at the primary)
//! commit:         TC --COMMIT--> last backup --> ... --> primary (releases lock) --COMMITTED--> TC
//!                 TC --TC_COMMITCONF--> API (the client goes on)
//! complete:       TC --COMPLETE--> last backup (releases lock) --> ... --COMPLETED--> TC
//! ```
//!
//! A transaction's TC is on the node holding the primary replica of its first row when
//! the transaction is hinted, else the next data node in the API node's round robin.

use crate::allocator::{IdCache, IdChecker, Take};
use crate::config::{Config, Workload, LIVE_FIELDS};
use crate::locks::{Acquire, LockTable, Owner, RowReplica};
use crate::metrics::{Metrics, Window};
use crate::prng::Prng;
use crate::queue::{EventQueue, Ns};
use crate::summary::{self, Summary};
use crate::topology::{Host, StationId, Topology};
use crate::workload::{self, table, Dbt2State, Program, TxnKind};
use std::collections::VecDeque;

mod faults;

/// The kinds of message; each has its CPU cost in [`crate::config::CpuConfig`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum MsgKind {
    /// API CPU: prepare the next round (a SQL statement, or an NDB API execute).
    ApiRound,
    /// API CPU: prepare the commit request.
    ApiCommit,
    /// API CPU: a round's confirmation came back.
    TcKeyConf,
    /// API CPU: the commit confirmation came back.
    TcCommitConf,
    /// API CPU: the transaction was aborted by a failure; the client retries it.
    TcRollbackRep,
    TcKeyReq,
    TcCommitReq,
    LqhKeyReq,
    LqhKeyConf,
    Commit,
    Committed,
    Complete,
    Completed,
}

/// A message: 12 bytes, copied, never allocated.
#[derive(Clone, Copy, Debug)]
struct Msg {
    kind: MsgKind,
    /// The position in the operation's replica chain (0 = primary) an LQH message is for.
    replica: u8,
    /// The operation index within the transaction.
    op: u16,
    txn: u32,
    /// The transaction's generation when the message was sent: an abort bumps it, so
    /// messages of the aborted attempt are recognised and dropped.
    gen: u32,
}

/// Every kind of event. The queue holds nothing else.
#[derive(Clone, Copy, Debug)]
enum Event {
    /// A message reaches its station over the network.
    Arrive { station: StationId, msg: Msg },
    /// A station finished serving a message that took `cost` ns of CPU.
    Done { station: StationId, cost: u32, msg: Msg },
    /// A client's think time is over: it starts its next transaction.
    ClientStart { client: u32 },
    /// A metrics window ends.
    Window,
    /// The fault with this index in the simulation's fault list happens.
    Fault { index: u16 },
    /// A failed data node has restarted and rejoins its node group.
    DataNodeRestart { node: Host },
}

/// A thread (or a pool of cores) serving messages in FIFO order.
#[derive(Debug)]
struct Station {
    servers: u32,
    busy: u32,
    queue: VecDeque<Msg>,
}

#[derive(Clone, Copy, Debug)]
struct Op {
    row: u64,
    part: u32,
    write: bool,
    needs_id: bool,
    /// Sent to its primary: from then on `chain` says where its replicas are.
    dispatched: bool,
    /// The live replicas (data nodes, primary first) when the TC dispatched the operation.
    chain: [u8; 4],
    chain_len: u8,
    /// Bit r set: the commit has been applied at chain position r.
    applied: u8,
}

/// Bit of `Op::applied`: the committed row was copied to replicas outside the chain.
const COPIED: u8 = 0x80;

/// Where a transaction is in two-phase commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Prepare,
    Commit,
    Complete,
}

/// A transaction from the start of its first round to the end of its complete phase.
/// Slots are reused, so their vectors stop allocating once warm.
#[derive(Debug)]
struct Txn {
    kind: TxnKind,
    client: u32,
    api: u32,
    tc: StationId,
    tc_chosen: bool,
    prog: Program,
    ops: Vec<Op>,
    round: u16,
    pending: u32,
    started: Ns,
    /// The commit rides on the last round (NDB API `execute(Commit)`).
    piggyback: bool,
    client_done: bool,
    tc_done: bool,
    /// For a refill: the transaction waiting for the id.
    parent: u32,
    /// For a refill: the first id of the range its update read back.
    refill_first: u64,
    /// For a refill: how many ids its update took (the cache size may change meanwhile).
    refill_count: u64,
    /// For a refill: its update of the counter row is applied and not yet committed.
    refill_applied: bool,
    seq: u64,
    gen: u32,
    phase: Phase,
    /// Waiting for the allocator (queued on its mutex, or its refill running).
    waiting_id: bool,
    /// Its committed writes were counted for the no-committed-row-lost check.
    writes_counted: bool,
    /// The API node's restart epoch when the transaction started.
    epoch: u32,
}

impl Txn {
    fn empty() -> Txn {
        Txn {
            kind: TxnKind::Insert,
            client: 0,
            api: 0,
            tc: 0,
            tc_chosen: false,
            prog: Program::default(),
            ops: Vec::new(),
            round: 0,
            pending: 0,
            started: 0,
            piggyback: false,
            client_done: false,
            tc_done: false,
            parent: u32::MAX,
            refill_first: 0,
            refill_count: 0,
            refill_applied: false,
            seq: 0,
            gen: 0,
            phase: Phase::Prepare,
            waiting_id: false,
            writes_counted: false,
            epoch: 0,
        }
    }

    fn round_ops(&self) -> std::ops::Range<usize> {
        let r = self.round as usize;
        self.prog.rounds[r] as usize..self.prog.rounds[r + 1] as usize
    }

    fn last_round(&self) -> bool {
        self.round as usize + 1 == self.prog.round_count()
    }

    fn writes(&self) -> impl Iterator<Item = usize> + '_ {
        self.ops.iter().enumerate().filter(|(_, o)| o.write).map(|(i, _)| i)
    }

    /// True while the slot holds a transaction (not on the free list).
    fn live(&self) -> bool {
        !(self.client_done && self.tc_done)
    }
}

#[derive(Debug)]
struct Client {
    api: u32,
    home_warehouse: u64,
    rng: Prng,
    next_key: u64,
    /// False once `clientsPerApiNode` was lowered below this client: it stops after its
    /// current transaction.
    active: bool,
    /// A transaction or a start is pending for this client.
    running: bool,
}

impl Client {
    fn new(cfg: &Config, index: u32, api: u32) -> Client {
        Client {
            api,
            home_warehouse: (index % cfg.warehouses) as u64,
            rng: Prng::new(cfg.seed, 1 + index as u64),
            next_key: 0,
            active: true,
            running: true,
        }
    }
}

/// The hot row: the SYSTAB_0 counter row's primary replica, with its time accounting.
#[derive(Debug, Default)]
struct HotRow {
    row: u64,
    part: u32,
    granted_at: Option<Ns>,
    accounted_from: Ns,
    queue_len: u64,
    queue_since: Ns,
}

/// What one call to [`Simulation::advance`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advanced {
    pub events: u64,
    pub now_ns: Ns,
}

/// The simulated cluster. Build it from a validated [`Config`]; it cannot fail after.
pub struct Simulation {
    cfg: Config,
    topo: Topology,
    now: Ns,
    queue: EventQueue<Event>,
    events: u64,
    stations: Vec<Station>,
    txns: Vec<Txn>,
    free_txns: Vec<u32>,
    txn_seq: u64,
    clients: Vec<Client>,
    locks: LockTable,
    caches: Vec<IdCache>,
    id_check: IdChecker,
    ids_issued: u64,
    ids_lost: u64,
    /// NEXTID of the hidden-key table's SYSTAB_0 row.
    systab_next: u64,
    hot: HotRow,
    /// Per API node: the next data node of its round robin for unhinted transactions.
    round_robin: Vec<u32>,
    dbt2: Dbt2State,
    latency_ns: Ns,
    pub(crate) metrics: Metrics,
    // ---- faults ----
    /// Per data node: up, or failed and not yet restarted.
    alive: Vec<bool>,
    /// Per partition: the position in its node group of the current primary replica.
    primary_idx: Vec<u8>,
    /// Per (partition, position in node group): commits applied at that replica.
    applied_writes: Vec<u64>,
    /// Per partition: writes of transactions whose commit was confirmed.
    committed_writes: Vec<u64>,
    /// Per data node: extra one-way latency and until when (network delay spikes).
    delay_extra_ns: Vec<Ns>,
    delay_until: Vec<Ns>,
    /// Per API node: restarts so far, and until when it is down.
    api_epoch: Vec<u32>,
    api_down_until: Vec<Ns>,
    /// The fault schedule: the config's, then those injected while running.
    faults: Vec<crate::config::Fault>,
    aborts: u64,
}

/// The id of the table whose rows take hidden keys: HISTORY in DBT2, the test table else.
fn hidden_key_table(w: Workload) -> u64 {
    match w {
        Workload::Dbt2 => table::HISTORY,
        Workload::NdbapiInsert => table::INSERT,
    }
}

impl Simulation {
    pub fn new(cfg: Config) -> Simulation {
        let topo = Topology::new(&cfg);
        let mut stations: Vec<Station> =
            (0..topo.data_stations()).map(|_| Station { servers: 1, busy: 0, queue: VecDeque::new() }).collect();
        stations.extend((0..cfg.api_nodes).map(|_| Station { servers: cfg.api_cores, busy: 0, queue: VecDeque::new() }));
        let clients: Vec<Client> =
            (0..cfg.clients()).map(|c| Client::new(&cfg, c, c / cfg.clients_per_api_node)).collect();
        let hot_table = hidden_key_table(cfg.workload);
        let hot_part = topo.partition_of(hot_table);
        let hot = HotRow {
            row: workload::row_key(table::SYSTAB, hot_table),
            part: hot_part,
            ..HotRow::default()
        };
        let warmup_end = cfg.warmup_ms * 1_000_000;
        let metrics = Metrics::new(cfg.data_nodes, topo.threads_per_node(), cfg.window_ms * 1_000_000, warmup_end);
        let mut sim = Simulation {
            queue: EventQueue::with_capacity(4 * clients.len() + 64),
            now: 0,
            events: 0,
            stations,
            txns: Vec::new(),
            free_txns: Vec::new(),
            txn_seq: 0,
            locks: LockTable::default(),
            caches: (0..cfg.api_nodes).map(|_| IdCache::default()).collect(),
            id_check: IdChecker::default(),
            ids_issued: 0,
            ids_lost: 0,
            systab_next: 1,
            hot,
            round_robin: (0..cfg.api_nodes).map(|a| a % cfg.data_nodes).collect(),
            dbt2: Dbt2State::new(cfg.warehouses),
            latency_ns: cfg.network.latency_us * 1_000,
            metrics,
            alive: vec![true; cfg.data_nodes as usize],
            primary_idx: (0..topo.partitions).map(|p| ((p / topo.node_groups) % topo.replicas) as u8).collect(),
            applied_writes: vec![0; (topo.partitions * topo.replicas) as usize],
            committed_writes: vec![0; topo.partitions as usize],
            delay_extra_ns: vec![0; cfg.data_nodes as usize],
            delay_until: vec![0; cfg.data_nodes as usize],
            api_epoch: vec![0; cfg.api_nodes as usize],
            api_down_until: vec![0; cfg.api_nodes as usize],
            faults: cfg.faults.clone(),
            aborts: 0,
            topo,
            clients,
            cfg,
        };
        // Clients start spread over the first millisecond, not in lock step.
        let mut start = Prng::new(sim.cfg.seed, 0);
        for c in 0..sim.clients.len() as u32 {
            let at = start.below(1_000_000);
            sim.queue.push(at, Event::ClientStart { client: c });
        }
        sim.queue.push(sim.metrics.window_ns(), Event::Window);
        for (i, f) in sim.faults.iter().enumerate() {
            sim.queue.push(f.at_ms() * 1_000_000, Event::Fault { index: i as u16 });
        }
        sim
    }

    // ---- stepping API -------------------------------------------------------------------

    /// Processes one event. Returns false when there is none (never, in a running model).
    pub fn step(&mut self) -> bool {
        let Some((time, event)) = self.queue.pop() else { return false };
        debug_assert!(time >= self.now, "time ran backwards");
        self.now = time;
        self.events += 1;
        self.dispatch(event);
        true
    }

    /// Processes every event up to and including time `t`, then sets the clock to `t`.
    pub fn run_until(&mut self, t: Ns) -> u64 {
        self.advance(t.saturating_sub(self.now), u64::MAX).events
    }

    /// Processes events for at most `duration` ns of simulated time and at most
    /// `max_events` events: bounded work per call, for a render loop.
    pub fn advance(&mut self, duration: Ns, max_events: u64) -> Advanced {
        let target = self.now.saturating_add(duration);
        let mut n = 0;
        while n < max_events {
            match self.queue.peek_time() {
                Some(t) if t <= target => {
                    self.step();
                    n += 1;
                }
                _ => {
                    self.now = self.now.max(target);
                    break;
                }
            }
        }
        Advanced { events: n, now_ns: self.now }
    }

    /// Runs to the configured end (warm-up plus duration).
    pub fn run_to_end(&mut self) -> u64 {
        self.run_until(self.cfg.end_ns())
    }

    pub fn now_ns(&self) -> Ns {
        self.now
    }

    pub fn events(&self) -> u64 {
        self.events
    }

    pub fn finished(&self) -> bool {
        self.now >= self.cfg.end_ns()
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    pub fn topology(&self) -> &Topology {
        &self.topo
    }

    /// Closed windows, oldest first (at most [`crate::metrics::WINDOW_RING`]).
    pub fn windows(&self) -> impl DoubleEndedIterator<Item = &Window> + ExactSizeIterator {
        self.metrics.windows.iter()
    }

    pub fn windows_closed(&self) -> u64 {
        self.metrics.windows_closed
    }

    /// The run summary so far (measured after warm-up).
    pub fn summary(&self) -> Summary {
        summary::build(self)
    }

    // ---- live changes ---------------------------------------------------------------------

    /// Changes one config field while running, by its camelCase (dotted) name: e.g.
    /// `cacheSize` (later refills fetch that many ids), `hintedRefill`,
    /// `clientsPerApiNode` (clients are added, or retire after their current
    /// transaction), `thinkTimeUs`, `network.latencyUs`, `cpu.lqhWriteNs`. The value is
    /// validated like a new config; on error nothing changes. Fields that shape the
    /// cluster (`dataNodes`, `replicas`, ...) are refused: they need a new simulation.
    pub fn set(&mut self, key: &str, value: serde_json::Value) -> Result<(), crate::ConfigError> {
        let mut obj = match serde_json::to_value(&self.cfg).expect("Config serialises") {
            serde_json::Value::Object(m) => m,
            _ => unreachable!("Config is an object"),
        };
        let old = obj.clone();
        crate::config::set_dotted(&mut obj, key, value.clone())?;
        let next = Config::from_json(&serde_json::Value::Object(obj.clone()))?;
        let new = serde_json::to_value(&next).expect("Config serialises");
        for (field, before) in &old {
            if new[field] != *before && !LIVE_FIELDS.contains(&field.as_str()) {
                return Err(crate::ConfigError {
                    field: field.clone(),
                    value: value.to_string(),
                    allowed: "cannot change in a running simulation; create a new Simulation with this config"
                        .to_string(),
                });
            }
        }
        let clients_changed = next.clients_per_api_node != self.cfg.clients_per_api_node;
        self.cfg = next;
        self.latency_ns = self.cfg.network.latency_us * 1_000;
        if clients_changed {
            self.resize_clients();
        }
        Ok(())
    }

    /// Brings each API node's active clients to `clientsPerApiNode`: reactivates retiring
    /// ones first, then adds new ones; or lets the last ones retire.
    fn resize_clients(&mut self) {
        let want = self.cfg.clients_per_api_node;
        for api in 0..self.cfg.api_nodes {
            let mut have = 0;
            for c in 0..self.clients.len() as u32 {
                if self.clients[c as usize].api != api {
                    continue;
                }
                have += 1;
                let client = &mut self.clients[c as usize];
                client.active = have <= want;
                if client.active && !client.running {
                    client.running = true;
                    self.queue.push(self.now, Event::ClientStart { client: c });
                }
            }
            for _ in have..want {
                let c = self.clients.len() as u32;
                self.clients.push(Client::new(&self.cfg, c, api));
                self.queue.push(self.now, Event::ClientStart { client: c });
            }
        }
    }

    /// Active client threads.
    pub fn active_clients(&self) -> u32 {
        self.clients.iter().filter(|c| c.active).count() as u32
    }

    // ---- the one match ----------------------------------------------------------------------

    fn dispatch(&mut self, event: Event) {
        match event {
            Event::Arrive { station, msg } => {
                self.metrics.messages_delivered += 1;
                self.enqueue(station, msg);
            }
            Event::Done { station, cost, msg } => {
                self.stations[station as usize].busy -= 1;
                if self.topo.is_data_station(station) {
                    if !self.alive[self.topo.host_of(station) as usize] {
                        self.metrics.messages_dropped += 1; // It failed while serving this.
                        return;
                    }
                    self.metrics.service(station as usize, cost as Ns, self.now);
                }
                if !self.stale(msg) {
                    self.handle(station, msg);
                } else {
                    self.metrics.messages_dropped += 1; // Its transaction was aborted since.
                }
                self.start_queued(station);
            }
            Event::Fault { index } => self.apply_fault(index as usize),
            Event::DataNodeRestart { node } => self.restart_data_node(node),
            Event::ClientStart { client } => {
                if self.clients[client as usize].active {
                    self.start_txn(client);
                } else {
                    self.clients[client as usize].running = false;
                }
            }
            Event::Window => {
                self.flush_hot_spans();
                self.metrics.close_window(self.now);
                self.queue.push(self.now + self.metrics.window_ns(), Event::Window);
            }
        }
    }

    /// What a station does when it has served `msg`.
    fn handle(&mut self, station: StationId, msg: Msg) {
        let t = msg.txn;
        let host = self.topo.host_of(station);
        let op = msg.op as usize;
        match msg.kind {
            MsgKind::ApiRound => self.round_prepared(t),
            MsgKind::ApiCommit => {
                let tc = self.txns[t as usize].tc;
                if !self.alive[self.topo.host_of(tc) as usize] {
                    self.abort_txn(t, true); // Its TC failed: the execute fails, the client retries.
                } else {
                    self.send(host, tc, self.msg(MsgKind::TcCommitReq, t));
                }
            }
            MsgKind::TcKeyConf => {
                self.txns[t as usize].round += 1;
                self.next_round(t);
            }
            MsgKind::TcCommitConf => self.client_committed(t),
            MsgKind::TcRollbackRep => self.retry_txn(t),
            MsgKind::TcKeyReq => {
                let range = self.txns[t as usize].round_ops();
                self.txns[t as usize].pending = range.len() as u32;
                for i in range {
                    // The chain is fixed now: a node that fails or rejoins later does not
                    // change where this operation's replicas are.
                    let (chain, len) = self.live_chain(self.txns[t as usize].ops[i].part);
                    let o = &mut self.txns[t as usize].ops[i];
                    o.chain = chain;
                    o.chain_len = len;
                    o.dispatched = true;
                    let to = self.op_station(t, i, 0);
                    self.send(host, to, self.msg_op(MsgKind::LqhKeyReq, t, i, 0));
                }
            }
            MsgKind::TcCommitReq => self.start_commit(t, host),
            MsgKind::LqhKeyReq => self.lqh_key_req(t, op, msg.replica as u32, host),
            MsgKind::LqhKeyConf => {
                if self.settle(t) {
                    let txn = &self.txns[t as usize];
                    if txn.last_round() && txn.piggyback {
                        self.start_commit(t, host);
                    } else {
                        let api = self.topo.api_station(txn.api);
                        self.send(host, api, self.msg(MsgKind::TcKeyConf, t));
                    }
                }
            }
            MsgKind::Commit => {
                let r = msg.replica as u32;
                self.apply_commit(t, op, r);
                if r == 0 {
                    self.unlock(t, op, 0, host);
                    let tc = self.txns[t as usize].tc;
                    self.send(host, tc, self.msg_op(MsgKind::Committed, t, op, 0));
                } else {
                    let to = self.op_station(t, op, r - 1);
                    self.send(host, to, self.msg_op(MsgKind::Commit, t, op, r - 1));
                }
            }
            MsgKind::Committed => {
                if self.settle(t) {
                    self.count_committed_writes(t);
                    let api = self.topo.api_station(self.txns[t as usize].api);
                    self.send(host, api, self.msg(MsgKind::TcCommitConf, t));
                    self.start_complete(t, host);
                }
            }
            MsgKind::Complete => {
                let r = msg.replica as u32;
                self.unlock(t, op, r, host);
                if r > 1 {
                    let to = self.op_station(t, op, r - 1);
                    self.send(host, to, self.msg_op(MsgKind::Complete, t, op, r - 1));
                } else {
                    let tc = self.txns[t as usize].tc;
                    self.send(host, tc, self.msg_op(MsgKind::Completed, t, op, 0));
                }
            }
            MsgKind::Completed => {
                if self.settle(t) {
                    self.tc_finished(t);
                }
            }
        }
    }

    // ---- stations and network -------------------------------------------------------------

    fn cost(&self, msg: Msg) -> Ns {
        let c = &self.cfg.cpu;
        let txn = &self.txns[msg.txn as usize];
        let statement = match txn.kind {
            TxnKind::Insert | TxnKind::Refill => c.api_execute_ns,
            _ => c.api_statement_ns,
        };
        match msg.kind {
            MsgKind::ApiRound => statement + txn.round_ops().len() as Ns * c.api_op_ns,
            MsgKind::ApiCommit => statement,
            MsgKind::TcKeyConf | MsgKind::TcCommitConf | MsgKind::TcRollbackRep => c.api_reply_ns,
            MsgKind::TcKeyReq => {
                let commit = if txn.last_round() && txn.piggyback { c.tc_commit_ns } else { 0 };
                txn.round_ops().len() as Ns * c.tc_op_ns + commit
            }
            MsgKind::TcCommitReq => c.tc_commit_ns,
            MsgKind::LqhKeyReq if txn.ops[msg.op as usize].write => c.lqh_write_ns,
            MsgKind::LqhKeyReq => c.lqh_read_ns,
            MsgKind::LqhKeyConf | MsgKind::Committed | MsgKind::Completed => c.tc_reply_ns,
            MsgKind::Commit => c.lqh_commit_ns,
            MsgKind::Complete => c.lqh_complete_ns,
        }
    }

    fn msg(&self, kind: MsgKind, txn: u32) -> Msg {
        Msg { kind, replica: 0, op: 0, txn, gen: self.txns[txn as usize].gen }
    }

    fn msg_op(&self, kind: MsgKind, txn: u32, op: usize, replica: u32) -> Msg {
        Msg { kind, replica: replica as u8, op: op as u16, txn, gen: self.txns[txn as usize].gen }
    }

    /// The LQH station of chain position `r` of operation `op` of `t`.
    fn op_station(&self, t: u32, op: usize, r: u32) -> StationId {
        let o = &self.txns[t as usize].ops[op];
        self.topo.station_on(o.chain[r as usize] as Host, o.part)
    }

    /// Sends `msg` from `from` to station `to`: through the network, or directly when
    /// both are on one host.
    fn send(&mut self, from: Host, to: StationId, msg: Msg) {
        let to_host = self.topo.host_of(to);
        let extra = self.extra_delay(from) + self.extra_delay(to_host);
        if to_host == from || self.latency_ns + extra == 0 {
            self.enqueue(to, msg);
        } else {
            self.metrics.messages_sent += 1;
            self.queue.push(self.now + self.latency_ns + extra, Event::Arrive { station: to, msg });
        }
    }

    fn enqueue(&mut self, s: StationId, msg: Msg) {
        if self.topo.is_data_station(s) {
            let node = self.topo.host_of(s) as usize;
            if !self.alive[node] {
                self.metrics.messages_dropped += 1; // A failed node hears nothing.
                return;
            }
            self.metrics.count(self.now, |c| c.node_messages[node] += 1);
        }
        let st = &mut self.stations[s as usize];
        if st.busy < st.servers && st.queue.is_empty() {
            self.begin(s, msg);
        } else {
            st.queue.push_back(msg);
        }
    }

    fn start_queued(&mut self, s: StationId) {
        while self.stations[s as usize].busy < self.stations[s as usize].servers {
            let Some(msg) = self.stations[s as usize].queue.pop_front() else { break };
            self.begin(s, msg);
        }
    }

    fn stale(&self, msg: Msg) -> bool {
        self.txns[msg.txn as usize].gen != msg.gen
    }

    fn begin(&mut self, s: StationId, msg: Msg) {
        if self.stale(msg) {
            // Its transaction attempt was aborted: the thread discards it unserved.
            self.metrics.messages_dropped += 1;
            return;
        }
        self.stations[s as usize].busy += 1;
        let cost = self.cost(msg).min(u32::MAX as Ns);
        self.queue.push(self.now + cost, Event::Done { station: s, cost: cost as u32, msg });
    }

    // ---- clients ----------------------------------------------------------------------------

    fn alloc_txn(&mut self, kind: TxnKind, client: u32) -> u32 {
        let t = match self.free_txns.pop() {
            Some(t) => t,
            None => {
                self.txns.push(Txn::empty());
                (self.txns.len() - 1) as u32
            }
        };
        self.txn_seq += 1;
        let api = self.clients[client as usize].api;
        let txn = &mut self.txns[t as usize];
        txn.kind = kind;
        txn.client = client;
        txn.api = api;
        txn.tc_chosen = false;
        txn.round = 0;
        txn.pending = 0;
        txn.started = self.now;
        txn.client_done = false;
        txn.tc_done = false;
        txn.parent = u32::MAX;
        txn.seq = self.txn_seq;
        txn.gen = txn.gen.wrapping_add(1);
        txn.phase = Phase::Prepare;
        txn.waiting_id = false;
        txn.writes_counted = false;
        txn.refill_applied = false;
        txn.epoch = self.api_epoch[api as usize];
        t
    }

    /// Copies the program's operations into the transaction with their partitions.
    fn place_ops(&mut self, t: u32) {
        let txn = &mut self.txns[t as usize];
        txn.ops.clear();
        for o in &txn.prog.ops {
            let part = if o.needs_id { 0 } else { self.topo.partition_of(o.dist) };
            txn.ops.push(Op {
                row: o.row,
                part,
                write: o.write,
                needs_id: o.needs_id,
                dispatched: false,
                chain: [0; 4],
                chain_len: 0,
                applied: 0,
            });
        }
    }

    fn start_txn(&mut self, client: u32) {
        let api = self.clients[client as usize].api as usize;
        if self.now < self.api_down_until[api] {
            // Its API node is restarting: the client reconnects when it is back.
            self.queue.push(self.api_down_until[api], Event::ClientStart { client });
            return;
        }
        let kind = match self.cfg.workload {
            Workload::Dbt2 => Dbt2State::pick_kind(&mut self.clients[client as usize].rng),
            Workload::NdbapiInsert => TxnKind::Insert,
        };
        let t = self.alloc_txn(kind, client);
        let c = &mut self.clients[client as usize];
        let txn = &mut self.txns[t as usize];
        match self.cfg.workload {
            Workload::Dbt2 => {
                self.dbt2.generate(kind, c.home_warehouse, self.cfg.primary_key, &mut c.rng, &mut txn.prog);
                txn.piggyback = false;
            }
            Workload::NdbapiInsert => {
                // A key unique to this client: its number in the high bits.
                let key = (client as u64) << 32 | c.next_key;
                c.next_key += 1;
                workload::ndbapi_insert(self.cfg.primary_key.then_some(key), &mut txn.prog);
                txn.piggyback = true;
            }
        }
        self.place_ops(t);
        self.next_round(t);
    }

    /// The client prepares its next round, or the commit when no round is left.
    fn next_round(&mut self, t: u32) {
        let txn = &self.txns[t as usize];
        let api = self.topo.api_station(txn.api);
        let kind = if (txn.round as usize) < txn.prog.round_count() { MsgKind::ApiRound } else { MsgKind::ApiCommit };
        self.enqueue(api, self.msg(kind, t));
    }

    /// The round is prepared; an insert without a key first needs an id.
    fn round_prepared(&mut self, t: u32) {
        let txn = &self.txns[t as usize];
        if txn.ops[txn.round_ops()].iter().any(|o| o.needs_id) {
            let api = txn.api as usize;
            match self.caches[api].take(t) {
                Take::Id(id) => self.id_ready(t, id),
                Take::Wait => self.txns[t as usize].waiting_id = true,
                Take::Refill => {
                    self.txns[t as usize].waiting_id = true;
                    self.start_refill(t);
                }
            }
        } else {
            self.send_round(t);
        }
    }

    fn send_round(&mut self, t: u32) {
        if !self.txns[t as usize].tc_chosen {
            self.choose_tc(t);
        } else if !self.alive[self.topo.host_of(self.txns[t as usize].tc) as usize] {
            self.abort_txn(t, true); // Its TC failed: the execute fails, the client retries.
            return;
        }
        let txn = &self.txns[t as usize];
        let from = self.topo.data_nodes + txn.api;
        self.send(from, txn.tc, self.msg(MsgKind::TcKeyReq, t));
    }

    fn choose_tc(&mut self, t: u32) {
        let txn = &self.txns[t as usize];
        let hinted = if txn.kind == TxnKind::Refill { self.cfg.hinted_refill } else { self.cfg.hinted_transactions };
        let node = if hinted {
            self.live_chain(txn.ops[0].part).0[0] as Host
        } else {
            // Round robin over the data nodes that are up.
            let rr = &mut self.round_robin[txn.api as usize];
            let mut node = *rr;
            while !self.alive[node as usize] {
                node = (node + 1) % self.topo.data_nodes;
            }
            *rr = (node + 1) % self.topo.data_nodes;
            node
        };
        let tc = self.topo.tc_station(node, txn.seq);
        let txn = &mut self.txns[t as usize];
        txn.tc = tc;
        txn.tc_chosen = true;
        self.metrics.count(self.now, |c| c.node_tc_txns[node as usize] += 1);
    }

    fn client_committed(&mut self, t: u32) {
        let txn = &mut self.txns[t as usize];
        txn.client_done = true;
        let (kind, client, latency, inserts) = (txn.kind, txn.client, self.now - txn.started, txn.prog.inserts);
        self.metrics.committed(kind as usize, latency, inserts as u64, self.now);
        if kind == TxnKind::Refill {
            self.refill_committed(t);
        } else if !self.clients[client as usize].active {
            self.clients[client as usize].running = false;
        } else if self.cfg.think_time_us > 0 {
            self.queue.push(self.now + self.cfg.think_time_us * 1_000, Event::ClientStart { client });
        } else {
            self.start_txn(client);
        }
        self.release_slot(t);
    }

    fn tc_finished(&mut self, t: u32) {
        self.txns[t as usize].tc_done = true;
        self.release_slot(t);
    }

    fn release_slot(&mut self, t: u32) {
        let txn = &self.txns[t as usize];
        if txn.client_done && txn.tc_done {
            self.free_txns.push(t);
        }
    }

    // ---- transaction coordinator --------------------------------------------------------------

    /// One reply of the current phase arrived; true when it was the last one.
    fn settle(&mut self, t: u32) -> bool {
        let txn = &mut self.txns[t as usize];
        txn.pending -= 1;
        txn.pending == 0
    }

    fn start_commit(&mut self, t: u32, host: Host) {
        self.txns[t as usize].phase = Phase::Commit;
        let writes: u32 = self.txns[t as usize].writes().count() as u32;
        if writes == 0 {
            let api = self.topo.api_station(self.txns[t as usize].api);
            self.send(host, api, self.msg(MsgKind::TcCommitConf, t));
            self.tc_finished(t);
            return;
        }
        self.txns[t as usize].pending = writes;
        for i in 0..self.txns[t as usize].ops.len() {
            let op = self.txns[t as usize].ops[i];
            if op.write {
                let last = op.chain_len as u32 - 1;
                self.send(host, self.op_station(t, i, last), self.msg_op(MsgKind::Commit, t, i, last));
            }
        }
    }

    fn start_complete(&mut self, t: u32, host: Host) {
        let txn = &mut self.txns[t as usize];
        txn.phase = Phase::Complete;
        // Only operations with backups have locks left; a lone replica's went at COMMIT.
        txn.pending = txn.ops.iter().filter(|o| o.write && o.chain_len > 1).count() as u32;
        if txn.pending == 0 {
            self.tc_finished(t);
            return;
        }
        for i in 0..self.txns[t as usize].ops.len() {
            let op = self.txns[t as usize].ops[i];
            if op.write && op.chain_len > 1 {
                let last = op.chain_len as u32 - 1;
                self.send(host, self.op_station(t, i, last), self.msg_op(MsgKind::Complete, t, i, last));
            }
        }
    }

    /// The commit of operation `op` is applied at chain position `r`.
    fn apply_commit(&mut self, t: u32, op: usize, r: u32) {
        let o = &mut self.txns[t as usize].ops[op];
        if o.applied & (1 << r) == 0 {
            o.applied |= 1 << r;
            let (part, node) = (o.part, o.chain[r as usize] as Host);
            let slot = self.replica_slot(part, node);
            self.applied_writes[slot] += 1;
            if r == 0 {
                self.copy_to_recovering(t, op);
                if self.txns[t as usize].kind == TxnKind::Refill {
                    self.txns[t as usize].refill_applied = false; // Committed: no longer undoable.
                }
            }
        }
    }

    /// A node that rejoined after this operation was prepared is not in its chain; node
    /// recovery copies the committed row to it, as NDB's copy phase does.
    fn copy_to_recovering(&mut self, t: u32, op: usize) {
        let o = &mut self.txns[t as usize].ops[op];
        if o.applied & COPIED != 0 {
            return;
        }
        o.applied |= COPIED;
        let o = *o;
        for i in 0..self.topo.replicas {
            let node = self.topo.group_node(o.part, i);
            if self.alive[node as usize] && !o.chain[..o.chain_len as usize].contains(&(node as u8)) {
                let slot = self.replica_slot(o.part, node);
                self.applied_writes[slot] += 1;
            }
        }
    }

    /// The transaction's writes are committed: count them per partition, once.
    fn count_committed_writes(&mut self, t: u32) {
        if std::mem::replace(&mut self.txns[t as usize].writes_counted, true) {
            return;
        }
        for i in 0..self.txns[t as usize].ops.len() {
            let o = self.txns[t as usize].ops[i];
            if o.write {
                self.committed_writes[o.part as usize] += 1;
            }
        }
    }

    // ---- local query handler and locks ----------------------------------------------------------

    fn lqh_key_req(&mut self, t: u32, op: usize, replica: u32, node: Host) {
        let o = self.txns[t as usize].ops[op];
        if !o.write {
            let tc = self.txns[t as usize].tc;
            self.send(node, tc, self.msg_op(MsgKind::LqhKeyConf, t, op, 0));
            return;
        }
        let row = RowReplica { node, row: o.row };
        let owner = Owner { txn: t, op: op as u16, replica: replica as u8 };
        match self.locks.acquire(row, owner, self.now) {
            Acquire::Granted => self.locked(t, op, replica, node, 0),
            Acquire::Queued(_) => {
                if self.is_hot(replica, o.row) {
                    self.hot_queue_change(1);
                }
            }
        }
    }

    /// The operation holds its row lock at `replica` (after waiting `waited` ns): apply
    /// it and pass it down the replica chain, or confirm to the TC from the last replica.
    fn locked(&mut self, t: u32, op: usize, replica: u32, node: Host, waited: Ns) {
        let o = self.txns[t as usize].ops[op];
        if self.is_hot(replica, o.row) {
            self.metrics.count(self.now, |c| {
                c.hot_grants += 1;
                c.hot_wait_ns += waited;
            });
            self.hot.granted_at = Some(self.now);
            self.hot.accounted_from = self.now;
            // The interpreted update: NEXTID += cacheSize, reading the old value back.
            let txn = &mut self.txns[t as usize];
            txn.refill_first = self.systab_next;
            txn.refill_count = self.cfg.cache_size;
            txn.refill_applied = true;
            self.systab_next += txn.refill_count;
        }
        if replica + 1 < o.chain_len as u32 {
            let to = self.op_station(t, op, replica + 1);
            self.send(node, to, self.msg_op(MsgKind::LqhKeyReq, t, op, replica + 1));
        } else {
            let tc = self.txns[t as usize].tc;
            self.send(node, tc, self.msg_op(MsgKind::LqhKeyConf, t, op, 0));
        }
    }

    fn unlock(&mut self, t: u32, op: usize, replica: u32, node: Host) {
        let o = self.txns[t as usize].ops[op];
        let hot = self.is_hot(replica, o.row);
        if hot {
            let granted = self.hot.granted_at.take().expect("hot row released while not held");
            let from = self.hot.accounted_from;
            self.metrics.span(from, self.now, |c, ns| c.hot_busy_ns += ns);
            let hold = self.now - granted;
            self.metrics.count(self.now, |c| {
                c.hot_holds += 1;
                c.hot_hold_sum_ns += hold;
            });
        }
        if let Some((next, since)) = self.locks.release(RowReplica { node, row: o.row }, t) {
            if hot {
                self.hot_queue_change(-1);
            }
            self.locked(next.txn, next.op as usize, next.replica as u32, node, self.now - since);
        }
    }

    fn is_hot(&self, replica: u32, row: u64) -> bool {
        replica == 0 && row == self.hot.row
    }

    fn hot_queue_change(&mut self, delta: i64) {
        let len = self.hot.queue_len;
        self.metrics.span(self.hot.queue_since, self.now, move |c, ns| c.hot_queue_ns += len * ns);
        self.hot.queue_since = self.now;
        self.hot.queue_len = (len as i64 + delta) as u64;
    }

    fn flush_hot_spans(&mut self) {
        self.hot_queue_change(0);
        if self.hot.granted_at.is_some() {
            let from = self.hot.accounted_from;
            self.metrics.span(from, self.now, |c, ns| c.hot_busy_ns += ns);
            self.hot.accounted_from = self.now;
        }
    }

    // ---- the id allocator -----------------------------------------------------------------------

    /// Transaction `parent` found its API node's range empty and holds the mutex: run the
    /// refill, a separate committed transaction on the table's SYSTAB_0 row.
    fn start_refill(&mut self, parent: u32) {
        let client = self.txns[parent as usize].client;
        let r = self.alloc_txn(TxnKind::Refill, client);
        let txn = &mut self.txns[r as usize];
        txn.parent = parent;
        txn.piggyback = true;
        workload::refill(hidden_key_table(self.cfg.workload), &mut txn.prog);
        self.place_ops(r);
        self.next_round(r);
    }

    fn refill_committed(&mut self, r: u32) {
        let (api, parent, first, count, epoch) = {
            let txn = &self.txns[r as usize];
            (txn.api as usize, txn.parent, txn.refill_first, txn.refill_count, txn.epoch)
        };
        self.id_check.grant(first, first + count);
        if epoch != self.api_epoch[api] {
            self.ids_lost += count; // The API node restarted meanwhile: nobody holds this range.
            return;
        }
        self.caches[api].refilled(first, count);
        // The refilling thread still holds the mutex: it takes the first id (unless a
        // failure aborted it meanwhile: then the waiters go first).
        if parent != u32::MAX {
            match self.caches[api].take(parent) {
                Take::Id(id) => self.id_ready(parent, id),
                other => unreachable!("a fresh range gave {other:?}"),
            }
        }
        while let Some((waiter, take)) = self.caches[api].serve_waiter() {
            match take {
                Take::Id(id) => self.id_ready(waiter, id),
                Take::Refill => {
                    self.start_refill(waiter);
                    break;
                }
                Take::Wait => unreachable!("serve_waiter never queues"),
            }
        }
    }

    /// Transaction `t` got hidden key `id` for its insert: place the row and send the round.
    fn id_ready(&mut self, t: u32, id: u64) {
        let range = self.txns[t as usize].round_ops();
        let txn = &mut self.txns[t as usize];
        let op = range.into_iter().find(|&i| txn.ops[i].needs_id).expect("round has an insert without key");
        txn.waiting_id = false;
        let o = &mut txn.ops[op];
        o.row = workload::row_key(workload::table_of(o.row), id);
        o.part = self.topo.partition_of(id);
        o.needs_id = false;
        self.ids_issued += 1;
        self.send_round(t);
    }

    // ---- read access for the summary and checks -------------------------------------------------

    /// Ids issued, lost (API restarts) and issued twice, over the whole run.
    pub fn ids(&self) -> (u64, u64, u64) {
        (self.ids_issued, self.ids_lost, self.id_check.duplicates)
    }

    /// The data node holding the primary replica of the SYSTAB_0 counter row.
    pub fn hot_row_node(&self) -> Host {
        self.live_chain(self.hot.part).0[0] as Host
    }

    /// The live replicas of partition `p`, current primary first.
    fn live_chain(&self, p: u32) -> ([u8; 4], u8) {
        let r = self.topo.replicas;
        let first = self.primary_idx[p as usize] as u32;
        let mut chain = [0u8; 4];
        let mut n = 0;
        for k in 0..r {
            let node = self.topo.group_node(p, (first + k) % r);
            if self.alive[node as usize] {
                chain[n] = node as u8;
                n += 1;
            }
        }
        assert!(n > 0, "every replica of partition {p} failed (fault validation should prevent this)");
        (chain, n as u8)
    }

    /// Index into `applied_writes` of partition `part`'s replica on `node`.
    fn replica_slot(&self, part: u32, node: Host) -> usize {
        (part * self.topo.replicas + node % self.topo.replicas) as usize
    }

    fn extra_delay(&self, host: Host) -> Ns {
        match self.delay_until.get(host as usize) {
            Some(&until) if self.now < until => self.delay_extra_ns[host as usize],
            _ => 0,
        }
    }

    /// Bytes held by the simulation's growable structures (capacities, not lengths): the
    /// event queue, station queues, transaction slots and their vectors, clients, locks,
    /// the allocator, the id checker's stretches and the window ring. Memory is flat when
    /// this stops growing.
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let queue = self.queue.capacity() * (size_of::<Event>() + 16);
        let stations: usize = self.stations.iter().map(|s| size_of::<Station>() + s.queue.capacity() * size_of::<Msg>()).sum();
        let txns: usize = self.txns.iter()
            .map(|t| size_of::<Txn>() + t.ops.capacity() * size_of::<Op>() + t.prog.ops.capacity() * size_of::<workload::OpSpec>() + t.prog.rounds.capacity() * 2)
            .sum::<usize>() + self.free_txns.capacity() * 4;
        let clients = self.clients.capacity() * size_of::<Client>();
        let locks = self.locks.memory_bytes();
        let allocator = self.caches.iter().map(|c| c.memory_bytes()).sum::<usize>() + self.id_check.stretches() * 48;
        let windows: usize = self.metrics.windows.iter()
            .map(|w| size_of::<Window>() + 8 * (w.node_load.capacity() + w.node_tc_per_second.capacity() + w.node_messages_per_second.capacity()))
            .sum();
        queue + stations + txns + clients + locks + allocator + windows
    }

    /// Named invariants, checked apart from the logic that should keep them. Returns the
    /// first one broken.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.id_check.duplicates != 0 {
            return Err(format!("ids-unique: {} ids issued twice", self.id_check.duplicates));
        }
        let held = self.locks.held() as u64;
        if self.locks.granted - self.locks.released != held {
            return Err(format!(
                "locks-conserved: granted {} - released {} != held {held}",
                self.locks.granted, self.locks.released
            ));
        }
        let in_flight = self.metrics.messages_sent - self.metrics.messages_delivered;
        let arrivals = self.queue_arrivals();
        if in_flight != arrivals {
            return Err(format!("messages-conserved: {in_flight} sent and not delivered, {arrivals} in the network"));
        }
        for (i, s) in self.stations.iter().enumerate() {
            if s.busy > s.servers || (!s.queue.is_empty() && s.busy < s.servers) {
                return Err(format!("station-work-conserving: station {i} busy {}/{} with {} queued", s.busy, s.servers, s.queue.len()));
            }
        }
        self.check_committed_rows()?;
        self.check_lock_holders()?;
        // Each client has one transaction in its rounds and may have earlier ones still
        // completing; each API node adds at most one refill at a time.
        let live = self.txns.len() - self.free_txns.len();
        let bound = 4 * self.clients.len() + 2 * self.cfg.api_nodes as usize;
        if live > bound {
            return Err(format!("transactions-bounded: {live} live transaction records > {bound}"));
        }
        Ok(())
    }

    fn queue_arrivals(&self) -> u64 {
        self.queue.iter().filter(|e| matches!(e, Event::Arrive { .. })).count() as u64
    }
}
