//! Open arrivals (`arrivalRatePerApiNode` > 0): requests come to each API node at a rate,
//! whatever the cluster does, instead of from closed loops. A request takes a free client
//! thread (a connection) and runs as that thread's next transaction; when none is free it
//! waits in its API node's line, first come first served, and the next thread to finish
//! takes it. Offered against achieved, and the line, are what an open system shows and a
//! closed one cannot: below saturation the cluster achieves what is offered; above it the
//! line grows and the achieved rate is the bottleneck's bound.
//!
//! The gaps between a node's arrivals are gamma-distributed with mean 1 / rate and
//! coefficient of variation `arrivalCv` (1: a Poisson process), from a stream of their
//! own; closed loops draw nothing from it and schedule no arrival, so their runs and
//! digests are what they were.

use super::event::Event;
use super::Simulation;
use crate::service_time::ServiceTimes;
use crate::time::Ns;
use std::collections::VecDeque;

/// The stream of arrival gaps: above the service times' (2^40).
const STREAM: u64 = 1 << 41;

/// Requests waiting at most, over every API node together (each has an equal share):
/// beyond, an arrival is refused, so memory stays bounded however far past saturation.
pub const WAITING_MAX: usize = 1 << 20;

#[derive(Clone, Debug)]
pub(super) struct Arrivals {
    gaps: ServiceTimes,
    /// Bumped whenever the streams restart (a new rate or spread): arrivals scheduled
    /// before are dropped when they come.
    generation: u32,
    /// Per API node: when each waiting request arrived, oldest first.
    waiting: Vec<VecDeque<Ns>>,
    /// Per API node: client threads waiting for a request (may hold retired ones, which
    /// are skipped).
    idle: Vec<Vec<u32>>,
    /// Requests waiting over every API node, and since when that number holds.
    waiting_total: u64,
    since_ns: Ns,
    line_max: usize,
}

impl Arrivals {
    pub fn new(seed: u64, api_nodes: u32) -> Arrivals {
        Arrivals {
            gaps: ServiceTimes::on_stream(seed, STREAM),
            generation: 0,
            waiting: vec![VecDeque::new(); api_nodes as usize],
            idle: vec![Vec::new(); api_nodes as usize],
            waiting_total: 0,
            since_ns: 0,
            line_max: (WAITING_MAX / api_nodes.max(1) as usize).max(1),
        }
    }

    /// Requests waiting at API node `api`, and its idle client threads (the invariant
    /// `no-request-waits-beside-a-free-thread`: never both).
    pub fn waiting_at(&self, api: usize) -> usize {
        self.waiting[api].len()
    }

    pub fn idle_at(&self, api: usize) -> &[u32] {
        &self.idle[api]
    }

    pub fn memory_bytes(&self) -> usize {
        self.waiting.iter().map(|w| w.capacity() * 8).sum::<usize>() + self.idle.iter().map(|i| i.capacity() * 4).sum::<usize>()
    }
}

impl Simulation {
    /// Whether requests arrive open (a rate) rather than from closed loops.
    pub(super) fn open(&self) -> bool {
        self.cfg.arrival_rate_per_api_node > 0
    }

    /// Starts every API node's stream of arrivals afresh: at the start, and when the rate
    /// or its spread changes (arrivals already scheduled are dropped).
    pub(super) fn start_arrivals(&mut self) {
        self.arrivals.generation = self.arrivals.generation.wrapping_add(1);
        if !self.open() {
            return;
        }
        for api in 0..self.cfg.api_nodes {
            let at = self.now_ns + self.next_gap();
            self.queue.push(at, Event::Arrival { api, generation: self.arrivals.generation });
        }
    }

    fn next_gap(&mut self) -> Ns {
        let mean = crate::time::mean_gap(self.cfg.arrival_rate_per_api_node as f64);
        self.arrivals.gaps.draw(mean, 1.0, self.cfg.arrival_cv)
    }

    /// A request arrives at API node `api`.
    pub(super) fn arrival(&mut self, api: u32, generation: u32) {
        if generation != self.arrivals.generation || !self.open() {
            return;
        }
        let next = self.now_ns + self.next_gap();
        self.queue.push(next, Event::Arrival { api, generation });
        let a = api as usize;
        if self.now_ns < self.faults.api_down_until_ns[a] {
            self.metrics.arrival(self.now_ns, false, true); // Its API node is restarting.
        } else if let Some(client) = self.take_idle(a) {
            self.metrics.arrival(self.now_ns, false, false);
            self.metrics.arrival_started(0, self.now_ns);
            self.start_txn(client);
        } else if self.arrivals.waiting[a].len() < self.arrivals.line_max {
            self.metrics.arrival(self.now_ns, true, false);
            self.waiting_changed(1);
            self.arrivals.waiting[a].push_back(self.now_ns);
        } else {
            self.metrics.arrival(self.now_ns, false, true); // The line is full.
        }
    }

    fn take_idle(&mut self, a: usize) -> Option<u32> {
        while let Some(c) = self.arrivals.idle[a].pop() {
            let client = &mut self.clients[c as usize];
            client.idle = false;
            if client.active {
                client.running = true;
                return Some(c);
            }
        }
        None
    }

    /// A client thread is free: it takes its API node's oldest waiting request, or waits
    /// for the next one.
    pub(super) fn client_free(&mut self, client: u32) {
        let c = &mut self.clients[client as usize];
        let a = c.api as usize;
        if !c.active || c.idle {
            c.running = false; // Retired, or already waiting for a request.
            return;
        }
        if self.now_ns < self.faults.api_down_until_ns[a] {
            // Its API node is restarting: it reconnects when the node is back.
            c.running = true;
            self.queue.push(self.faults.api_down_until_ns[a], Event::ClientStart { client });
            return;
        }
        match self.arrivals.waiting[a].pop_front() {
            Some(at) => {
                c.running = true;
                self.waiting_changed(-1);
                self.metrics.arrival_started(self.now_ns - at, self.now_ns);
                self.start_txn(client);
            }
            None => {
                c.running = false;
                c.idle = true;
                self.arrivals.idle[a].push(client);
            }
        }
    }

    fn waiting_changed(&mut self, delta: i64) {
        self.flush_waiting();
        self.arrivals.waiting_total = self.arrivals.waiting_total.checked_add_signed(delta).expect("no more leave the line than joined it");
    }

    /// Counts the waiting requests' time up to now: on every change, and before a window
    /// closes (so that a wait crossing windows is split between them).
    pub(super) fn flush_waiting(&mut self) {
        let (n, since) = (self.arrivals.waiting_total, self.arrivals.since_ns);
        if n > 0 {
            self.metrics.span(since, self.now_ns, |c, ns| c.waiting_ns += n * ns);
        }
        self.arrivals.since_ns = self.now_ns;
    }

    /// The rate was set to 0 while running: waiting requests are refused and idle client
    /// threads go back to closed loops.
    pub(super) fn close_arrivals(&mut self) {
        for a in 0..self.arrivals.waiting.len() {
            let n = self.arrivals.waiting[a].len() as u64;
            if n > 0 {
                self.metrics.count(self.now_ns, |c| c.arrivals_refused += n);
                self.waiting_changed(-(n as i64));
                self.arrivals.waiting[a].clear();
            }
            for c in std::mem::take(&mut self.arrivals.idle[a]) {
                let client = &mut self.clients[c as usize];
                client.idle = false;
                if client.active && !client.running {
                    client.running = true;
                    self.queue.push(self.now_ns, Event::ClientStart { client: c });
                }
            }
        }
    }
}
