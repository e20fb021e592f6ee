//! Transaction records: one slot per transaction from the start of its first round to the
//! end of its complete phase, reused through a free list so that a warm simulation
//! allocates nothing per transaction.

use crate::time::Ns;
use crate::topology::StationId;
use crate::workload::{Program, TxnKind};
use std::ops::{Index, IndexMut};

/// One row operation of a transaction, as its TC dispatched it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Op {
    pub row: u64,
    pub part: u32,
    pub write: bool,
    /// A new row (for the lock's request class, `waits.rs`).
    pub insert: bool,
    pub needs_id: bool,
    /// Sent to its primary: from then on `chain` says where its replicas are.
    pub dispatched: bool,
    /// The live replicas (data nodes, primary first) when the TC dispatched the operation.
    pub chain: [u8; 4],
    pub chain_len: u8,
    /// Bit r set: the commit has been applied at chain position r.
    pub applied: u8,
    /// The transaction's `blocked_ns` and `queued_ns` when it got this row's primary
    /// lock: what it waited for elsewhere while holding the lock is the difference at
    /// the release.
    pub blocked_mark: u64,
    pub queued_mark: u64,
    /// `raft`: the durable copies of its current Raft proposal the leader has heard of.
    pub acks: u8,
}

/// Bit of `Op::applied`: the committed row was copied to replicas outside the chain.
pub(super) const COPIED: u8 = 0x80;

/// Where a transaction is in two-phase commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Prepare,
    Commit,
    Complete,
}

/// What only a refill (the id allocator's transaction on the counter row) carries.
#[derive(Clone, Copy, Debug)]
pub(super) struct Refill {
    /// The transaction waiting for the id; None once that one was aborted.
    pub parent: Option<u32>,
    /// The first id of the range its update read back, and how many it took (the cache
    /// size may change meanwhile).
    pub first: u64,
    pub count: u64,
    /// Its update of the counter row is applied and not yet committed (undoable).
    pub applied: bool,
    /// The cached range it refills (an API node's or a client's, by `idCacheScope`).
    pub cache: u32,
}

/// A transaction from the start of its first round to the end of its complete phase.
#[derive(Clone, Debug)]
pub(super) struct Txn {
    pub kind: TxnKind,
    pub client: u32,
    pub api: u32,
    pub tc: StationId,
    pub tc_chosen: bool,
    pub prog: Program,
    pub ops: Vec<Op>,
    pub round: u16,
    /// Replies still awaited in the current phase.
    pub pending: u32,
    pub started_ns: Ns,
    /// The commit rides on the last round (NDB API `execute(Commit)`).
    pub piggyback: bool,
    pub client_done: bool,
    pub tc_done: bool,
    /// The transaction's number, which picks its TC thread.
    pub seq: u64,
    pub generation: u32,
    pub phase: Phase,
    /// Waiting for the allocator (queued on its mutex, or its refill running), since.
    pub waiting_id: bool,
    pub id_wait_since_ns: Ns,
    /// Time its requests spent waiting for row locks and for ids, and its messages for
    /// busy threads (each summed over requests in parallel).
    pub blocked_ns: u64,
    pub queued_ns: u64,
    /// Its committed writes were counted for the no-committed-row-lost check.
    pub writes_counted: bool,
    /// Its API node's restarts when the transaction started (`FaultState::api_restarts`).
    pub api_restarts: u32,
    pub refill: Option<Refill>,
    /// Rolled back and run again (its lock requests then are not new demand).
    pub retried: bool,
    /// `innodb`: the waiters left in the queue when a released row was handed to this
    /// transaction; the releaser's pass over them is served with its wake-up (`innodb.rs`).
    pub handover_waiters: u32,
    /// `innodb` under `server.autoincLockMode` 0: the AUTO-INC lock its current INSERT is to
    /// take, waits for or holds, until the statement ends (`autoinc.rs`).
    pub autoinc: Option<super::autoinc::AutoInc>,
}

impl Txn {
    fn empty() -> Txn {
        Txn {
            kind: TxnKind::spec(0),
            client: 0,
            api: 0,
            tc: 0,
            tc_chosen: false,
            prog: Program::default(),
            ops: Vec::new(),
            round: 0,
            pending: 0,
            started_ns: 0,
            piggyback: false,
            client_done: false,
            tc_done: false,
            seq: 0,
            generation: 0,
            phase: Phase::Prepare,
            waiting_id: false,
            id_wait_since_ns: 0,
            blocked_ns: 0,
            queued_ns: 0,
            writes_counted: false,
            api_restarts: 0,
            refill: None,
            retried: false,
            handover_waiters: 0,
            autoinc: None,
        }
    }

    pub fn round_ops(&self) -> std::ops::Range<usize> {
        let r = self.round as usize;
        self.prog.rounds[r] as usize..self.prog.rounds[r + 1] as usize
    }

    pub fn last_round(&self) -> bool {
        self.round as usize + 1 == self.prog.round_count()
    }

    pub fn writes(&self) -> impl Iterator<Item = &Op> {
        self.ops.iter().filter(|o| o.write)
    }

    /// True while the slot holds a transaction (not on the free list).
    pub fn live(&self) -> bool {
        !(self.client_done && self.tc_done)
    }
}

/// The transaction slots and their free list.
#[derive(Clone, Default)]
pub(super) struct TxnSlots {
    slots: Vec<Txn>,
    free: Vec<u32>,
    /// Transactions started so far.
    seq: u64,
}

impl TxnSlots {
    /// A slot for a new transaction, reset for `kind` of `client` on API node `api`.
    pub fn alloc(&mut self, kind: TxnKind, client: u32, api: u32, now: Ns, api_restarts: u32) -> u32 {
        let t = match self.free.pop() {
            Some(t) => t,
            None => {
                self.slots.push(Txn::empty());
                (self.slots.len() - 1) as u32
            }
        };
        self.seq += 1;
        let txn = &mut self.slots[t as usize];
        txn.kind = kind;
        txn.client = client;
        txn.api = api;
        txn.tc_chosen = false;
        txn.round = 0;
        txn.pending = 0;
        txn.started_ns = now;
        txn.client_done = false;
        txn.tc_done = false;
        txn.seq = self.seq;
        txn.generation = txn.generation.wrapping_add(1);
        txn.phase = Phase::Prepare;
        txn.waiting_id = false;
        txn.blocked_ns = 0;
        txn.queued_ns = 0;
        txn.writes_counted = false;
        txn.api_restarts = api_restarts;
        txn.refill = None;
        txn.retried = false;
        t
    }

    /// Frees `t`'s slot once both the client and the TC are done with it.
    pub fn release_if_done(&mut self, t: u32) {
        let txn = &self.slots[t as usize];
        if txn.client_done && txn.tc_done {
            self.free.push(t);
        }
    }

    /// Ends `t` at once (an attempt aborted for good) and frees its slot.
    pub fn discard(&mut self, t: u32) {
        let txn = &mut self.slots[t as usize];
        txn.client_done = true;
        txn.tc_done = true;
        self.free.push(t);
    }

    pub fn len(&self) -> u32 {
        self.slots.len() as u32
    }

    /// Slots holding a transaction now.
    pub fn live_count(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Txn> {
        self.slots.iter_mut()
    }

    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.slots
            .iter()
            .map(|t| {
                size_of::<Txn>()
                    + t.ops.capacity() * size_of::<Op>()
                    + t.prog.ops.capacity() * size_of::<crate::workload::OpSpec>()
                    + t.prog.rounds.capacity() * 2
            })
            .sum::<usize>()
            + self.free.capacity() * 4
    }
}

impl Index<u32> for TxnSlots {
    type Output = Txn;
    fn index(&self, t: u32) -> &Txn {
        &self.slots[t as usize]
    }
}

impl IndexMut<u32> for TxnSlots {
    fn index_mut(&mut self, t: u32) -> &mut Txn {
        &mut self.slots[t as usize]
    }
}
