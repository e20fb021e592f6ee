//! Timestamp ids' clock: an insert that finds its API node's sequence used up for the tick
//! waits for the next tick, when the waiting inserts get their ids in order.

use super::IdSource;
use crate::sim::event::Event;
use crate::sim::Simulation;
use crate::timestamp::TimestampIds;

impl Simulation {
    fn stamps(&mut self) -> &mut Vec<TimestampIds> {
        match &mut self.ids.source {
            IdSource::Timestamp(stamps) => stamps,
            _ => unreachable!("only timestamp ids tick"),
        }
    }

    pub(super) fn wake_at_next_tick(&mut self, api: u32) {
        let now = self.now_ns;
        let stamp = &mut self.stamps()[api as usize];
        if !stamp.wake_pending {
            stamp.wake_pending = true;
            let at = stamp.next_tick_at().max(now);
            self.queue.push(at, Event::Tick { api });
        }
    }

    /// A new tick: API node `api`'s waiting inserts get ids while the tick lasts.
    pub(in crate::sim) fn timestamp_tick(&mut self, api: u32) {
        let now = self.now_ns;
        self.stamps()[api as usize].wake_pending = false;
        while let Some((t, id)) = self.stamps()[api as usize].next_waiter(now) {
            self.id_ready(t, id);
        }
        if self.stamps()[api as usize].has_waiters() {
            self.wake_at_next_tick(api);
        }
    }
}
