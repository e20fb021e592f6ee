//! Stations and the network: how a message gets from one host to a thread of another,
//! waits in that thread's FIFO queue, and is served for its CPU cost.
//!
//! A message between two hosts arrives one network delay later (`links.rs`: the latency,
//! spread by `network.latencyCv`, plus any delay a fault adds at either end), never before
//! the message its link carried before it; a message within a host goes straight to the
//! thread's queue. A
//! station with a free server starts the message at once and finishes it `cost` ns later
//! (a `Done` event); otherwise the message waits its turn.

use super::event::{self, Event, Msg, MsgKind};
use super::Simulation;
use crate::time::{self, Ns};
use crate::topology::{Host, StationId};
use std::collections::VecDeque;

/// A thread (or a pool of cores) serving messages in FIFO order.
#[derive(Clone, Debug)]
pub(super) struct Station {
    pub servers: u32,
    pub busy: u32,
    /// Messages waiting, with the time each arrived (its wait is blocked time for the
    /// locks its transaction holds: `explain/resources.rs`).
    pub queue: VecDeque<(Msg, Ns)>,
}

impl Station {
    pub fn new(servers: u32) -> Station {
        Station { servers, busy: 0, queue: VecDeque::new() }
    }

    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Station>() + self.queue.capacity() * std::mem::size_of::<(Msg, Ns)>()
    }
}

impl Simulation {
    pub(super) fn msg(&self, kind: MsgKind, txn: u32) -> Msg {
        Msg { kind, replica: 0, op: 0, txn, generation: self.txns[txn].generation }
    }

    pub(super) fn msg_op(&self, kind: MsgKind, txn: u32, op: usize, replica: u32) -> Msg {
        Msg { kind, replica: replica as u8, op: op as u16, txn, generation: self.txns[txn].generation }
    }

    /// The LQH station of chain position `r` of operation `op` of `t`.
    pub(super) fn op_station(&self, t: u32, op: usize, r: u32) -> StationId {
        let o = &self.txns[t].ops[op];
        self.topo.station_on(o.chain[r as usize] as Host, o.part)
    }

    /// The mean one-way latency between two hosts now (`network.latencyUs`, a live field:
    /// read from the config each time, so a live change needs no refresh).
    pub(super) fn latency_ns(&self) -> Ns {
        time::from_us(self.cfg.network.latency_us)
    }

    /// Sends `msg` from `from` to station `to`: through the network, or directly when
    /// both are on one host.
    pub(super) fn send(&mut self, from: Host, to: StationId, msg: Msg) {
        let to_host = self.topo.host_of(to);
        if to_host == from {
            self.enqueue(to, msg);
            return;
        }
        let msg = msg.crossing();
        let extra = self.faults.extra_delay(from, self.now_ns) + self.faults.extra_delay(to_host, self.now_ns);
        let net = &self.cfg.network;
        let at = self.links.arrival(from, to_host, self.now_ns, net.latency_us, net.latency_cv, extra);
        if at == self.now_ns {
            self.enqueue(to, msg);
        } else {
            self.arrive_at(at, from, to, msg);
        }
    }

    /// Puts `msg` from host `from` in the network, to reach station `to` at time `at`.
    pub(super) fn arrive_at(&mut self, at: Ns, from: Host, to: StationId, msg: Msg) {
        self.metrics.messages_sent += 1;
        self.queue.push(at, Event::Arrive { station: to, from, msg });
    }

    /// `msg` reaches station `s`: served at once if a server is free, else queued.
    pub(super) fn enqueue(&mut self, s: StationId, msg: Msg) {
        if let Some(node) = self.topo.data_node_of(s) {
            if !self.place.alive(node) {
                return; // A failed node hears nothing.
            }
            self.metrics.count(self.now_ns, |c| c.node_messages[node as usize] += 1);
        }
        let st = &mut self.stations[s as usize];
        if st.busy < st.servers && st.queue.is_empty() {
            self.begin(s, msg, 0);
        } else {
            st.queue.push_back((msg, self.now_ns));
        }
    }

    /// Station `s` finished a message: it starts queued ones while it has free servers.
    pub(super) fn start_queued(&mut self, s: StationId) {
        while self.stations[s as usize].busy < self.stations[s as usize].servers {
            let Some((msg, since)) = self.stations[s as usize].queue.pop_front() else { break };
            self.begin(s, msg, self.now_ns - since);
        }
    }

    /// The message belongs to an attempt that was aborted since it was sent.
    /// Allocator-service messages belong to a request, which no abort makes stale.
    pub(super) fn stale(&self, msg: Msg) -> bool {
        !msg.kind.is_service() && self.txns[msg.txn].generation != msg.generation
    }

    /// Station `s` starts serving `msg`, which waited `waited` ns in its queue.
    fn begin(&mut self, s: StationId, msg: Msg, waited: Ns) {
        let mut alloc = true;
        let work = if msg.kind.is_service() {
            if waited > 0 {
                self.service_request_waited(msg.txn, waited);
            }
            event::service_cost(&self.cfg.cpu, msg.kind)
        } else {
            let txn = &mut self.txns[msg.txn];
            if txn.generation != msg.generation {
                // Its transaction attempt was aborted: the thread discards it unserved.
                return;
            }
            txn.queued_ns += waited;
            alloc = txn.kind == crate::workload::TxnKind::REFILL;
            event::cost(&self.cfg, self.programs.sql(), txn, msg)
        };
        // A data-node thread also does the socket work of a signal from another host.
        let io = if msg.remote() && self.topo.is_data_station(s) { self.cfg.cpu.remote_signal_ns } else { 0 };
        let cpu = &self.cfg.cpu;
        let cost = self.service_times.draw(work + io, cpu.scale, cpu.service_cv).min(u32::MAX as Ns);
        self.stations[s as usize].busy += 1;
        self.queue.push(self.now_ns + cost, Event::Done { station: s, cost: cost as u32, msg, alloc });
    }
}
