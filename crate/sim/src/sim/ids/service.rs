//! The central allocator service (`allocator` `"centralService"`): one process on its own
//! host hands out ranges of ids from memory, as TiDB's auto-id service does for tables
//! with `AUTO_ID_CACHE 1`. A request is one network round trip and
//! `cpu.allocatorRequestNs` of the service's one thread; there is no row lock, so the
//! service's CPU is where contention lands.
//!
//! The service persists a high-water mark `RESERVE_IDS` ahead of what it has handed out
//! (one storage write per reservation, rare enough not to be modelled as load). When the
//! primary fails (`allocatorFailure`), a standby takes over after `takeoverMs`, starting
//! at that mark: the ids between what the primary handed out and the mark are lost.
//! Requests that reach the service or finish service meanwhile wait for the standby.

use crate::sim::event::{Msg, MsgKind};
use crate::sim::Simulation;
use crate::time::{self, Ns};

/// Ids the service reserves ahead of what it has handed out.
pub const RESERVE_IDS: u64 = 10_000;

/// A request for a range of ids, from the API node's mutex holder to the service.
#[derive(Clone, Copy, Debug)]
struct Request {
    cache: u32,
    /// The transaction that found the range empty; None once it was aborted.
    parent: Option<u32>,
    count: u64,
    first: u64,
    restarts: u32,
    started_ns: Ns,
}

/// The service's state and its requests in flight (slots reused through a free list).
#[derive(Clone, Debug, Default)]
pub(in crate::sim) struct Service {
    /// The next id to hand out, and the persisted high-water mark (never below it: a
    /// standby starts there).
    next: u64,
    reserved: u64,
    /// Until when the standby is taking over.
    down_until_ns: Ns,
    requests: Vec<Request>,
    free: Vec<u32>,
}

impl Service {
    /// `first_id`: the first id it hands out, past the rows the table starts with; nothing
    /// is reserved past it until the first request.
    pub fn new(first_id: u64) -> Service {
        Service { next: first_id, reserved: first_id, ..Service::default() }
    }

    /// Aborted transaction `t` no longer waits for its request's range.
    pub fn orphan(&mut self, t: u32) {
        for r in self.requests.iter_mut().filter(|r| r.parent == Some(t)) {
            r.parent = None;
        }
    }

    pub fn memory_bytes(&self) -> usize {
        self.requests.capacity() * std::mem::size_of::<Request>() + self.free.capacity() * 4
    }
}

/// A message of request `slot` (service messages carry the request's slot, not a
/// transaction, and no generation).
fn request_msg(kind: MsgKind, slot: u32) -> Msg {
    Msg { kind, replica: 0, op: 0, txn: slot, generation: 0 }
}

impl Simulation {
    /// `parent` holds range `cache`'s mutex: ask the service for the next range.
    pub(in crate::sim) fn request_range(&mut self, parent: u32, cache: u32) {
        let api = self.cache_api(cache);
        let request = Request {
            cache,
            parent: Some(parent),
            count: {
                let sizing = self.sizing(cache);
                self.ids.cache(cache).range_size(sizing)
            },
            first: 0,
            restarts: self.faults.api_restarts[api as usize],
            started_ns: self.now_ns,
        };
        let s = &mut self.ids.service;
        let slot = match s.free.pop() {
            Some(i) => {
                s.requests[i as usize] = request;
                i
            }
            None => {
                s.requests.push(request);
                (s.requests.len() - 1) as u32
            }
        };
        self.send(self.topo.api_host(api), self.topo.service_station(), request_msg(MsgKind::AllocReq, slot));
    }

    /// The service served request `slot`: it hands out the range and replies, or, while
    /// its standby takes over, the request waits for the standby.
    pub(in crate::sim) fn serve_request(&mut self, slot: u32) {
        let station = self.topo.service_station();
        let s = &mut self.ids.service;
        if self.now_ns < s.down_until_ns {
            let until = s.down_until_ns;
            self.arrive_at(until, self.topo.host_of(station), station, request_msg(MsgKind::AllocReq, slot));
            return;
        }
        let r = &mut s.requests[slot as usize];
        r.first = s.next;
        s.next += r.count;
        while s.reserved < s.next {
            s.reserved += RESERVE_IDS.max(r.count);
        }
        let cache = r.cache;
        let api = self.cache_api(cache);
        self.send(self.topo.host_of(station), self.topo.api_station(api), request_msg(MsgKind::AllocConf, slot));
    }

    /// Request `slot`'s message waited `ns` for a thread (the service's, or its API
    /// node's for the reply): its range's mutex holder was blocked meanwhile.
    pub(in crate::sim) fn service_request_waited(&mut self, slot: u32, ns: Ns) {
        let cache = self.ids.service.requests[slot as usize].cache;
        self.mutex_waited(cache, 0, ns);
    }

    /// The service's reply reached the API node.
    pub(in crate::sim) fn range_replied(&mut self, slot: u32) {
        let r = self.ids.service.requests[slot as usize];
        self.ids.service.free.push(slot);
        self.range_arrived(r.cache, r.parent, r.first, r.count, r.restarts, r.started_ns);
    }

    /// The primary fails: the standby takes over after `takeover_ms`, past the reserve.
    pub(in crate::sim) fn fail_service(&mut self, takeover_ms: u64) {
        let s = &mut self.ids.service;
        self.metrics.totals.ids_lost += s.reserved - s.next;
        s.next = s.reserved;
        s.down_until_ns = s.down_until_ns.max(self.now_ns + time::from_ms(takeover_ms));
    }
}
