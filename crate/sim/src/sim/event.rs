//! What flows through the simulation: messages (NDB signals and API steps), the events
//! that carry them, and the CPU cost of serving each kind.
//!
//! A message is 12 bytes and copied, never allocated; an event is at most 24 bytes. The
//! queue holds nothing else, and `Simulation::dispatch` is the one match over events.

use super::txn::Txn;
use crate::config::{Config, CpuConfig};
use crate::time::Ns;
use crate::topology::{Host, StationId};

/// The kinds of message; each has its CPU cost in [`cost`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum MsgKind {
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
    /// Allocator service CPU: one request for a range of ids (`txn` is the request's slot).
    AllocReq,
    /// API CPU: the service's reply with the range came back (`txn` is the request's slot).
    AllocConf,
    /// Server CPU (`postgres`): a waiter woken by a released row re-checks it; it takes
    /// the row or queues again (`sim/server.rs`).
    Recheck,
    /// Server CPU (`innodb`): a released row was granted to this waiter; the releaser's
    /// pass over the queue, then the waiter goes on holding it (`sim/innodb.rs`).
    Resume,
    /// Server CPU (`innodb`): a new lock wait's deadlock search; `op` is the number of
    /// waiters it visits (`sim/innodb.rs`).
    DeadlockSearch,
    /// Node CPU (`raft`): a follower appends an entry of its range (`sim/raft.rs`).
    RaftAppend,
    /// Node CPU (`raft`): a follower's copy is durable; its leader counts it.
    RaftAck,
    /// Node CPU (`raft`): the coordinator asks a leaseholder to resolve a committed intent.
    Resolve,
    /// Coordinator CPU (`raft`): an intent was resolved.
    Resolved,
    /// Node CPU (`raft`): a pusher learns from the holder's record that the row is its.
    Pushed,
}

impl MsgKind {
    /// Messages of the allocator service: they belong to a request, not a transaction.
    pub fn is_service(self) -> bool {
        matches!(self, MsgKind::AllocReq | MsgKind::AllocConf)
    }

    /// The NDB signal's name (or the API step's), as the cluster view labels messages.
    pub fn signal(self) -> &'static str {
        match self {
            MsgKind::ApiRound => "API_ROUND",
            MsgKind::ApiCommit => "API_COMMIT",
            MsgKind::TcKeyConf => "TCKEYCONF",
            MsgKind::TcCommitConf => "TC_COMMITCONF",
            MsgKind::TcRollbackRep => "TCROLLBACKREP",
            MsgKind::TcKeyReq => "TCKEYREQ",
            MsgKind::TcCommitReq => "TC_COMMITREQ",
            MsgKind::LqhKeyReq => "LQHKEYREQ",
            MsgKind::LqhKeyConf => "LQHKEYCONF",
            MsgKind::Commit => "COMMIT",
            MsgKind::Committed => "COMMITTED",
            MsgKind::Complete => "COMPLETE",
            MsgKind::Completed => "COMPLETED",
            MsgKind::AllocReq => "ALLOC_REQ",
            MsgKind::AllocConf => "ALLOC_CONF",
            MsgKind::Recheck => "RECHECK",
            MsgKind::Resume => "LOCK_GRANT",
            MsgKind::DeadlockSearch => "DEADLOCK_CHECK",
            MsgKind::RaftAppend => "RAFT_APPEND",
            MsgKind::RaftAck => "RAFT_ACK",
            MsgKind::Resolve => "RESOLVE_INTENT",
            MsgKind::Resolved => "INTENT_RESOLVED",
            MsgKind::Pushed => "PUSH_TXN",
        }
    }
}

/// Bit of `Msg::replica`: the message crossed hosts (its receiver pays `remoteSignalNs`).
const REMOTE: u8 = 0x80;

/// A message: 12 bytes, copied, never allocated.
#[derive(Clone, Copy, Debug)]
pub(super) struct Msg {
    pub kind: MsgKind,
    /// The position in the operation's replica chain (0 = primary) an LQH message is for,
    /// and the `REMOTE` bit: read them with [`Msg::chain_pos`] and [`Msg::remote`].
    pub replica: u8,
    /// The operation index within the transaction.
    pub op: u16,
    pub txn: u32,
    /// The transaction's generation when the message was sent: an abort bumps it, so
    /// messages of the aborted attempt are recognised and dropped.
    pub generation: u32,
}

impl Msg {
    pub fn chain_pos(self) -> u32 {
        (self.replica & !REMOTE) as u32
    }

    pub fn remote(self) -> bool {
        self.replica & REMOTE != 0
    }

    /// The same message, marked as having crossed hosts.
    pub fn crossing(mut self) -> Msg {
        self.replica |= REMOTE;
        self
    }
}

/// Every kind of event. The queue holds nothing else.
#[derive(Clone, Copy, Debug)]
pub(super) enum Event {
    /// A message from host `from` reaches its station over the network.
    Arrive { station: StationId, from: Host, msg: Msg },
    /// A station finished serving a message that took `cost` ns of CPU; `alloc`: the id
    /// allocator's work (a refill's message, a service request), known when it began.
    Done { station: StationId, cost: u32, msg: Msg, alloc: bool },
    /// A client's think time is over: it starts its next transaction (with open
    /// arrivals: it is free, and takes a waiting request or waits for one).
    ClientStart { client: u32 },
    /// A metrics window ends.
    Window,
    /// The fault with this index in the simulation's fault list happens.
    Fault { index: u16 },
    /// A failed data node has restarted and rejoins its node group.
    DataNodeRestart { node: Host },
    /// A new clock tick: API node `api`'s inserts waiting for a timestamp id go on.
    Tick { api: u32 },
    /// An open arrival at API node `api` (dropped unless `generation` is the streams' current).
    Arrival { api: u32, generation: u32 },
    /// A one-server engine's log flush is done: the commits it covers go on (`sim/server.rs`).
    Flushed,
    /// Data node `node`'s Raft log flush is done (`sim/raft.rs`).
    LogFlushed { node: Host },
}

/// The CPU a station spends serving `msg` of transaction `txn`: the cost table. An API
/// round is a SQL statement through mysqld (`sql_api`), except for NDB API programs and
/// refills, which are NDB API executes.
pub(super) fn cost(cfg: &Config, sql_api: bool, txn: &Txn, msg: Msg) -> Ns {
    let c = &cfg.cpu;
    let sql = txn.kind.is_user() && sql_api;
    let statement = if sql { c.api_statement_ns } else { c.api_execute_ns };
    match msg.kind {
        MsgKind::ApiRound => statement + txn.round_ops().len() as Ns * c.api_op_ns,
        MsgKind::ApiCommit => statement,
        MsgKind::TcKeyConf | MsgKind::TcCommitConf | MsgKind::TcRollbackRep => c.api_reply_ns,
        MsgKind::TcKeyReq => {
            let commit = if txn.last_round() && txn.piggyback { c.tc_commit_ns } else { 0 };
            let ops = txn.round_ops();
            if c.insert_scale == 1.0 {
                return ops.len() as Ns * c.tc_op_ns + commit;
            }
            let inserts = txn.ops[ops.clone()].iter().filter(|o| o.insert).count() as Ns;
            (ops.len() as Ns - inserts) * c.tc_op_ns + inserted(c, c.tc_op_ns) * inserts + commit
        }
        MsgKind::TcCommitReq => c.tc_commit_ns,
        MsgKind::LqhKeyReq => {
            let o = &txn.ops[msg.op as usize];
            match (o.write, o.insert) {
                (false, _) => c.lqh_read_ns,
                (true, false) => c.lqh_write_ns,
                (true, true) => inserted(c, c.lqh_write_ns),
            }
        }
        MsgKind::LqhKeyConf | MsgKind::Committed | MsgKind::Completed => c.tc_reply_ns,
        MsgKind::Commit => c.lqh_commit_ns,
        MsgKind::Complete => c.lqh_complete_ns,
        MsgKind::AllocReq | MsgKind::AllocConf => service_cost(c, msg.kind),
        MsgKind::Recheck => cfg.server.recheck_ns,
        MsgKind::Resume => txn.handover_waiters as Ns * cfg.server.grant_ns,
        MsgKind::DeadlockSearch => msg.op as Ns * cfg.server.deadlock_ns,
        MsgKind::RaftAppend | MsgKind::Resolve => c.lqh_commit_ns,
        MsgKind::RaftAck | MsgKind::Resolved => c.tc_reply_ns,
        MsgKind::Pushed => cfg.server.push_ns,
    }
}

/// An inserted row's share of `cost` (`cpu.insertScale`).
#[inline]
fn inserted(c: &CpuConfig, cost: Ns) -> Ns {
    if c.insert_scale == 1.0 {
        cost
    } else {
        (cost as f64 * c.insert_scale).round() as Ns
    }
}

/// The cost of an allocator-service message, which has no transaction.
pub(super) fn service_cost(c: &CpuConfig, kind: MsgKind) -> Ns {
    match kind {
        MsgKind::AllocReq => c.allocator_request_ns,
        MsgKind::AllocConf => c.api_reply_ns,
        other => unreachable!("{other:?} belongs to a transaction"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_events_stay_small() {
        assert_eq!(std::mem::size_of::<Msg>(), 12);
        assert!(std::mem::size_of::<Event>() <= 24);
    }
}
