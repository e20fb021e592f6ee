//! The simulation: one event queue, one closed event enum, one match.
//!
//! Every unit of work is a message served by a *station* — a data-node thread (one
//! server) or an API node's CPU cores (several servers) — in FIFO order, for a CPU cost
//! that depends on the message kind. Messages between hosts pay the network latency;
//! messages within a host do not. Throughput, load and latency are never computed: they
//! are what comes out of clients waiting on stations, locks and the id allocator.
//!
//! The protocol follows NDB's (names are NDB's signals), one file per block:
//!
//! ```text
//! client.rs   API --TCKEYREQ--> TC                                   (round by round)
//! tc.rs       TC --LQHKEYREQ--> primary LQH;  LQHKEYCONF --> TC --TCKEYCONF--> API
//! lqh.rs      primary LQH (lock) --LQHKEYREQ--> backup LQH (lock) --LQHKEYCONF--> TC
//! tc.rs       commit:   TC --COMMIT--> last backup --> ... --> primary (unlock) --COMMITTED--> TC
//!             TC --TC_COMMITCONF--> API (the client goes on)
//!             complete: TC --COMPLETE--> last backup (unlock) --> ... --COMPLETED--> TC
//! ids/        the id allocator: where ids come from (a refill is a transaction of its own on the counter row)
//! ```
//!
//! A transaction's TC is on the node holding the primary replica of its first row when
//! the transaction is hinted, else the next data node in the API node's round robin.

use crate::config::Config;
use crate::explain;
use crate::locks::LockTable;
use crate::metrics::{Dims, Metrics, Window};
use crate::placement::Placement;
use crate::prng::Prng;
use crate::queue::EventQueue;
use crate::service_time::ServiceTimes;
use crate::summary::Now;
use crate::summary::{Probe, ZeroLoad};
use crate::time::{self, Ns};
use crate::topology::{Host, StationId, Topology};

mod arrivals;
mod autoinc;
mod checkpoint;
mod checks;
mod client;
mod deadlock;
mod engine;
mod event;
mod faults;
mod ids;
mod innodb;
mod links;
mod live;
mod lqh;
mod network;
mod programs;
mod raft;
mod server;
mod stepping;
mod tables;
mod tc;
mod trace;
mod txn;
mod view;
mod warmup;

use arrivals::Arrivals;
use client::Client;
use event::{Event, MsgKind};
use faults::FaultState;
use ids::Ids;
use links::Links;
use network::Station;
use programs::Programs;
use server::Server;
use txn::TxnSlots;

pub use checkpoint::Checkpoint;
pub use checks::{Invariant, INVARIANTS};
pub use trace::TraceEvent;
pub use view::{HotRowLock, InFlight, InFlightSample};

/// Ids handed out over the whole run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdTotals {
    pub issued: u64,
    /// Cached and dropped (API node restarts) or reserved by a failed service.
    pub lost: u64,
    /// Issued twice: must be 0.
    pub duplicates: u64,
}

/// What one call to [`Simulation::advance`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advanced {
    pub events: u64,
    pub now_ns: Ns,
}

/// The simulated cluster. Build it from a validated [`Config`]; it cannot fail after.
#[derive(Clone)]
pub struct Simulation {
    cfg: Config,
    topo: Topology,
    /// Which nodes are up, where primaries are, what each replica holds.
    place: Placement,
    now_ns: Ns,
    queue: EventQueue<Event>,
    stations: Vec<Station>,
    /// How long each service takes around its cost (`cpu.scale`, `cpu.serviceCv`).
    service_times: ServiceTimes,
    /// The network's delays and each link's order (`network.latencyUs`, `network.latencyCv`).
    links: Links,
    txns: TxnSlots,
    clients: Vec<Client>,
    /// Per API node: the next data node of its round robin for unhinted transactions.
    round_robin: Vec<u32>,
    /// Where transaction programs come from: DBT2 or a workload spec.
    programs: Programs,
    locks: LockTable,
    /// Everything about ids: the strategy, where keys land, the counter row, the
    /// service, the id checker.
    ids: Ids,
    faults: FaultState,
    /// A one-server engine's log (group commit) and its woken waiters (`server.rs`).
    server: Server,
    /// `raft`: each node's Raft log (`raft.rs`).
    raft: raft::RaftLogs,
    /// Open arrivals: the streams, the waiting lines and the idle client threads.
    arrivals: Arrivals,
    metrics: Metrics,
    /// The response time at zero load (`crate::probe`), measured when a summary
    /// first asks for it; a live change of the config forgets it.
    zero_load: ZeroLoad,
    /// The precision asked for was met: the run stopped (`stepping.rs`).
    stopped: bool,
    /// Where the warm-up stands (`warmup.rs`).
    warmup: crate::summary::Warmup,
}

impl Simulation {
    pub fn new(cfg: Config) -> Simulation {
        let topo = cfg.topology();
        let mut stations: Vec<Station> = (0..topo.data_stations()).map(|_| Station::new(topo.data_cores)).collect();
        stations.extend((0..cfg.api_nodes).map(|_| Station::new(cfg.api_cores)));
        stations.push(Station::new(1)); // The allocator service's one thread.
        let clients: Vec<Client> = (0..cfg.clients()).map(|c| Client::new(&cfg, c, c / cfg.clients_per_api_node)).collect();
        let dims = Dims { nodes: cfg.data_nodes as usize, stations: topo.stations() as usize, api_nodes: cfg.api_nodes as usize };
        let metrics = Metrics::new(
            dims,
            (topo.threads_per_node(), topo.data_cores),
            topo.partitions,
            time::from_ms(cfg.window_ms),
            time::from_ms(cfg.warmup_ms),
        );
        let warmup = crate::summary::Warmup { decided: cfg.warmup != "auto", truncation_ms: None };
        let mut sim = Simulation {
            queue: EventQueue::with_capacity(4 * clients.len() + 64),
            now_ns: 0,
            stations,
            service_times: ServiceTimes::new(cfg.seed),
            links: Links::new(cfg.seed, topo.data_nodes + topo.api_nodes + 1),
            txns: TxnSlots::default(),
            locks: LockTable::default(),
            ids: Ids::new(&cfg, &topo),
            round_robin: (0..cfg.api_nodes).map(|a| a % cfg.data_nodes).collect(),
            programs: Programs::new(&cfg),
            metrics,
            place: Placement::new(&topo),
            faults: FaultState::new(&cfg),
            server: Server::default(),
            raft: raft::RaftLogs::default(),
            arrivals: Arrivals::new(cfg.seed, cfg.api_nodes),
            topo,
            clients,
            cfg,
            zero_load: ZeroLoad::default(),
            stopped: false,
            warmup,
        };
        // Clients start spread over the first millisecond, not in lock step.
        let mut start = Prng::new(sim.cfg.seed, 0);
        for c in 0..sim.clients.len() as u32 {
            let at = start.below(time::from_ms(1));
            sim.queue.push(at, Event::ClientStart { client: c });
        }
        sim.queue.push(sim.metrics.window_ns(), Event::Window);
        sim.start_arrivals();
        for (i, f) in sim.faults.list.iter().enumerate() {
            sim.queue.push(time::from_ms(f.at_ms()), Event::Fault { index: i as u16 });
        }
        sim
    }

    pub fn now_ns(&self) -> Ns {
        self.now_ns
    }

    pub fn events(&self) -> u64 {
        self.metrics.totals.events
    }

    /// At the configured end, or stopped at the precision asked for.
    pub fn finished(&self) -> bool {
        self.stopped || self.now_ns >= self.cfg.end_ns()
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

    /// What a summary reads: the counters, and the state now, R0 measured by `probe`
    /// (`crate::probe` asks, above the simulation: `summary()`, `explain()`).
    pub(crate) fn measured(&self, probe: Probe) -> (&Metrics, Now<'_>) {
        (&self.metrics, self.now_facts(probe))
    }

    fn now_facts(&self, probe: Probe) -> Now<'_> {
        Now {
            at_ns: self.now_ns,
            hot_row_node: self.hot_row_node(),
            counter_row: self.ids.hot.row,
            duplicate_ids: self.duplicate_ids(),
            active_clients: self.active_clients(),
            zero_load: &self.zero_load,
            probe,
            stopped: self.stopped,
            warmup: self.warmup,
        }
    }

    /// User transactions committed after warm-up.
    pub fn committed_user_txns(&self) -> u64 {
        self.metrics.run.user_txns()
    }

    /// Mean response time of the user transactions committed after warm-up, in us.
    pub fn response_us_mean(&self) -> f64 {
        time::as_us(self.metrics.latency_all.mean())
    }

    /// Ids issued, lost (API restarts, service failovers) and issued twice, whole run.
    pub fn ids(&self) -> IdTotals {
        let t = &self.metrics.totals;
        IdTotals { issued: t.ids_issued, lost: t.ids_lost, duplicates: self.duplicate_ids() }
    }

    /// Ids issued twice (must be 0): see `Ids::duplicates`.
    fn duplicate_ids(&self) -> u64 {
        self.ids.duplicates()
    }

    /// The key of the principal SYSTAB_0 counter row (the first table taking ids; the
    /// `hotRow` figures are its): its row in `hottestRows` and its resource's id.
    pub fn counter_row(&self) -> u64 {
        self.ids.hot.row
    }

    /// The data node holding the primary replica of the SYSTAB_0 counter row.
    pub fn hot_row_node(&self) -> Host {
        self.place.primary(&self.topo, self.ids.hot.part)
    }

    pub fn aborts(&self) -> u64 {
        self.metrics.totals.aborts
    }

    /// Data nodes that are down now.
    pub fn nodes_down(&self) -> Vec<Host> {
        self.place.nodes_down()
    }

    /// Active client threads.
    pub fn active_clients(&self) -> u32 {
        self.clients.iter().filter(|c| c.active).count() as u32
    }

    /// Bytes held by the simulation's growable structures (capacities, not lengths): the
    /// event queue, station queues, transaction slots and their vectors, clients, locks,
    /// the allocator, the id checker's stretches and the window ring. Memory is flat when
    /// this stops growing.
    pub fn memory_bytes(&self) -> usize {
        let queue = self.queue.capacity() * EventQueue::<Event>::entry_bytes();
        let stations: usize = self.stations.iter().map(Station::memory_bytes).sum();
        let clients = self.clients.capacity() * std::mem::size_of::<Client>();
        let allocator = self.ids.memory_bytes()
            + self.arrivals.memory_bytes()
            + self.links.memory_bytes()
            + self.server.memory_bytes()
            + self.raft.memory_bytes();
        queue + stations + self.txns.memory_bytes() + clients + self.locks.memory_bytes() + allocator + self.metrics.memory_bytes()
    }

    // ---- the one match ----------------------------------------------------------------------

    fn dispatch(&mut self, event: Event) {
        match event {
            Event::Arrive { station, msg, .. } => {
                self.metrics.messages_delivered += 1;
                self.enqueue(station, msg);
            }
            Event::Done { station, cost, msg, alloc } => {
                self.stations[station as usize].busy -= 1;
                let node = self.topo.data_node_of(station);
                if let Some(node) = node {
                    if !self.place.alive(node) {
                        return; // It failed while serving this: the message is lost.
                    }
                }
                self.metrics.service(station as usize, node.is_some(), cost as Ns, alloc, self.now_ns);
                // A message of an attempt aborted since is dropped.
                if !self.stale(msg) {
                    self.handle(station, msg);
                }
                self.start_queued(station);
            }
            Event::Fault { index } => self.apply_fault(index as usize),
            Event::DataNodeRestart { node } => self.restart_data_node(node),
            Event::Tick { api } => self.timestamp_tick(api),
            Event::Arrival { api, generation } => self.arrival(api, generation),
            Event::Flushed => self.flushed(),
            Event::LogFlushed { node } => self.log_flushed(node),
            Event::ClientStart { client } if self.open() => self.client_free(client),
            Event::ClientStart { client } => {
                if self.clients[client as usize].active {
                    self.start_txn(client);
                } else {
                    self.clients[client as usize].running = false;
                }
            }
            Event::Window => {
                self.time_out_lock_waits();
                self.flush_hot_spans();
                self.flush_waiting();
                let (cfg, topo, row, node) = (&self.cfg, &self.topo, self.ids.hot.row, self.place.primary(&self.topo, self.ids.hot.part));
                self.metrics.close_window(self.now_ns, |counts, rows, span_ns| {
                    let inputs =
                        explain::Inputs { cfg, topo, counts, rows, span_ns, counter_row: row, counter_row_node: node, clients: None };
                    explain::WindowBound::of(&inputs)
                });
                self.queue.push(self.now_ns + self.metrics.window_ns(), Event::Window);
                if !self.warmup.decided && self.now_ns >= time::from_ms(self.cfg.warmup_ms) {
                    self.detect_warmup();
                }
                if self.cfg.precision > 0.0 && self.warmup.decided {
                    self.check_precision();
                }
            }
        }
    }

    /// What a station does when it has served `msg`: the signal's handler in its block.
    fn handle(&mut self, station: StationId, msg: event::Msg) {
        let t = msg.txn;
        let host = self.topo.host_of(station);
        let op = msg.op as usize;
        let r = msg.chain_pos();
        match msg.kind {
            MsgKind::ApiRound => self.round_prepared(t),
            MsgKind::ApiCommit => self.commit_requested(t, host),
            MsgKind::TcKeyConf => {
                self.txns[t].round += 1;
                self.next_round(t);
            }
            MsgKind::TcCommitConf => self.client_committed(t),
            MsgKind::TcRollbackRep => self.retry_txn(t),
            MsgKind::TcKeyReq => self.tc_key_req(t, host),
            MsgKind::TcCommitReq => self.start_commit(t, host),
            MsgKind::LqhKeyReq => self.lqh_key_req(t, op, r, host),
            MsgKind::LqhKeyConf => self.lqh_key_conf(t, host),
            MsgKind::Commit => self.lqh_commit(t, op, r, host),
            MsgKind::Committed => self.tc_committed(t, host),
            MsgKind::Complete => self.lqh_complete(t, op, r, host),
            MsgKind::Completed => {
                if self.settle(t) {
                    self.tc_finished(t);
                }
            }
            MsgKind::AllocReq => self.serve_request(t),
            MsgKind::AllocConf => self.range_replied(t),
            MsgKind::Recheck => self.recheck(t, op, host),
            MsgKind::Resume => self.resumed(t, op, host),
            MsgKind::DeadlockSearch => {}
            MsgKind::RaftAppend => self.raft_append(t, op, r, host),
            MsgKind::RaftAck => self.raft_acked(t, op, host),
            MsgKind::Resolve => self.propose(t, op, host),
            MsgKind::Resolved => self.resolved(t),
            MsgKind::Pushed => self.resumed(t, op, host),
        }
    }
}
