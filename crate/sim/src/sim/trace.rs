//! A trace per event (as TigerBeetle's VOPR and stateright print theirs): each event the
//! simulation processes, described before it is processed, in order. Two builds that
//! process the same events in the same order print the same trace; the first line where
//! they differ says where a digest moved and why (`hotrow trace --baseline`).
//!
//! The core only describes; the CLI prints (`crate/cli/src/trace.rs` documents the columns).

use super::event::{Event, Msg};
use super::Simulation;
use crate::time::Ns;

/// One event as the trace shows it. Fields an event does not have are 0 (or "").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// The event's number: 1 for the first event processed.
    pub index: u64,
    pub at_ns: Ns,
    /// `arrive`, `done`, `clientStart`, `window`, `fault`, `dataNodeRestart`, `tick`, `arrival`.
    pub event: &'static str,
    /// The station that receives (arrive) or served (done) the message.
    pub station: u32,
    /// Whom the event is about: the host the message comes from (arrive), the client
    /// (clientStart), the fault's index (fault), the node (dataNodeRestart), the API node
    /// (tick, arrival).
    pub subject: u32,
    /// The message's signal (`LQHKEYREQ`, ...), its transaction slot (or a service
    /// request's slot), operation, chain position, generation, and whether it crossed hosts.
    pub signal: &'static str,
    pub txn: u32,
    pub op: u16,
    pub replica: u8,
    pub generation: u32,
    pub remote: bool,
    /// A service's CPU cost in ns (done), and whether it was the id allocator's work.
    pub cost: u32,
    pub alloc: bool,
}

impl TraceEvent {
    fn of(index: u64, at_ns: Ns, e: &Event) -> TraceEvent {
        let base = TraceEvent {
            index,
            at_ns,
            event: "",
            station: 0,
            subject: 0,
            signal: "",
            txn: 0,
            op: 0,
            replica: 0,
            generation: 0,
            remote: false,
            cost: 0,
            alloc: false,
        };
        let with = |t: TraceEvent, m: Msg| TraceEvent {
            signal: m.kind.signal(),
            txn: m.txn,
            op: m.op,
            replica: m.chain_pos() as u8,
            generation: m.generation,
            remote: m.remote(),
            ..t
        };
        match *e {
            Event::Arrive { station, from, msg } => with(TraceEvent { event: "arrive", station, subject: from, ..base }, msg),
            Event::Done { station, cost, msg, alloc } => with(TraceEvent { event: "done", station, cost, alloc, ..base }, msg),
            Event::ClientStart { client } => TraceEvent { event: "clientStart", subject: client, ..base },
            Event::Window => TraceEvent { event: "window", ..base },
            Event::Fault { index: i } => TraceEvent { event: "fault", subject: i as u32, ..base },
            Event::DataNodeRestart { node } => TraceEvent { event: "dataNodeRestart", subject: node, ..base },
            Event::Tick { api } => TraceEvent { event: "tick", subject: api, ..base },
            Event::Arrival { api, .. } => TraceEvent { event: "arrival", subject: api, ..base },
            Event::Flushed => TraceEvent { event: "flushed", ..base },
            Event::LogFlushed { node } => TraceEvent { event: "logFlushed", subject: node, ..base },
        }
    }
}

impl Simulation {
    /// Processes the next event due at or before `until`, returning its description; None
    /// when none is due (the clock then stays where it is).
    pub fn trace_step(&mut self, until: Ns) -> Option<TraceEvent> {
        let (time, event) = self.queue.pop_until(until)?;
        let line = TraceEvent::of(self.metrics.totals.events + 1, time, &event);
        self.process(time, event);
        Some(line)
    }
}
