//! Timestamp ids (the `timestamp` allocator): no coordination at all. An id is the clock
//! tick, the API node's number and a sequence within the tick, as Twitter's Snowflake
//! (41-bit milliseconds, 10-bit machine, 12-bit sequence) and CockroachDB's
//! `unique_rowid()` (10 us ticks, node id) build them:
//!
//! ```text
//! id = tick << (8 + sequenceBits) | apiNode << sequenceBits | sequence
//! ```
//!
//! Ticks count from an origin that puts the first id past the rows a table starts with
//! (Snowflake's epoch is a date; here it is 0 for a table that starts empty), so a
//! timestamp id never names an existing row. An API node issues at most
//! `2^sequenceBits` ids per tick; an insert that finds the
//! tick's sequence used up waits for the next tick. Ids are unique because each API node
//! has its own bits and its ids strictly increase: [`TimestampIds::issue`] checks both for
//! every id it hands out, so the ids-unique invariant covers this allocator without
//! storing the ids.

use crate::time::Ns;
use std::collections::VecDeque;

/// Bits for the API node's number (at most 256 API nodes).
const NODE_BITS: u32 = 8;

/// One API node's timestamp id generator.
#[derive(Clone, Debug)]
pub(crate) struct TimestampIds {
    node: u64,
    tick_ns: Ns,
    sequence_bits: u32,
    /// Ticks before the clock's 0: the first id is at least this many ticks' worth.
    origin: u64,
    /// The tick of the last id, and ids issued in it.
    tick: u64,
    used: u64,
    last_id: Option<u64>,
    /// Transactions waiting for the next tick, in order.
    waiters: VecDeque<u32>,
    /// A wake-up at the next tick is scheduled.
    pub wake_pending: bool,
    /// Ids that broke uniqueness (not increasing, or a field overflowed). Must be 0.
    pub violations: u64,
}

impl TimestampIds {
    /// The generator of API node `node`; its ids are at least `first_id`.
    pub fn new(node: u32, tick_ns: Ns, sequence_bits: u32, first_id: u64) -> TimestampIds {
        TimestampIds {
            node: node as u64,
            tick_ns,
            sequence_bits,
            origin: first_id.saturating_sub(1).div_ceil(1 << (NODE_BITS + sequence_bits)),
            tick: 0,
            used: 0,
            last_id: None,
            waiters: VecDeque::new(),
            wake_pending: false,
            violations: 0,
        }
    }

    fn per_tick(&self) -> u64 {
        1 << self.sequence_bits
    }

    /// An id for transaction `txn` at `now`, or None: it was queued for the next tick.
    pub fn take(&mut self, txn: u32, now: Ns) -> Option<u64> {
        if self.waiters.is_empty() {
            if let Some(id) = self.issue(now) {
                return Some(id);
            }
        }
        self.waiters.push_back(txn);
        None
    }

    /// When the next tick starts: the time to wake the waiters.
    pub(crate) fn next_tick_at(&self) -> Ns {
        (self.tick + 1) * self.tick_ns
    }

    /// At a new tick: the first waiter and its id, while the tick's sequence lasts.
    pub(crate) fn next_waiter(&mut self, now: Ns) -> Option<(u32, u64)> {
        let &txn = self.waiters.front()?;
        let id = self.issue(now)?;
        self.waiters.pop_front();
        Some((txn, id))
    }

    pub fn has_waiters(&self) -> bool {
        !self.waiters.is_empty()
    }

    /// Takes `txn` out of the queue (its transaction aborted); true if it was there.
    pub(crate) fn remove_waiter(&mut self, txn: u32) -> bool {
        let before = self.waiters.len();
        self.waiters.retain(|&w| w != txn);
        self.waiters.len() != before
    }

    /// The API node restarted: its waiters are gone, and it issues nothing more in the
    /// tick it restarted in (it cannot know how far its sequence had gone).
    pub fn restart(&mut self, now: Ns) {
        self.waiters.clear();
        let tick = now / self.tick_ns;
        if tick >= self.tick {
            self.tick = tick;
            self.used = self.per_tick();
        }
    }

    fn issue(&mut self, now: Ns) -> Option<u64> {
        let tick = now / self.tick_ns;
        if tick > self.tick {
            self.tick = tick;
            self.used = 0;
        }
        if self.used >= self.per_tick() {
            return None;
        }
        let seq = self.used;
        self.used += 1;
        let tick = self.origin + self.tick;
        let id = tick << (NODE_BITS + self.sequence_bits) | self.node << self.sequence_bits | seq;
        let fields_fit = self.node < 1 << NODE_BITS && id >> (NODE_BITS + self.sequence_bits) == tick;
        if !fields_fit || self.last_id.is_some_and(|last| id <= last) {
            self.violations += 1;
        }
        self.last_id = Some(id);
        Some(id)
    }

    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<TimestampIds>() + self.waiters.capacity() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_id_is_past_the_rows_a_table_starts_with() {
        for rows in [0, 1, 1023, 1024, 1025, 5_000_000] {
            let mut g = TimestampIds::new(0, 1_000, 2, rows + 1);
            let first = g.take(1, 0).unwrap();
            assert!(first >= rows, "{rows} rows: first id {first}");
            assert_eq!(g.violations, 0);
        }
        assert_eq!(TimestampIds::new(5, 1_000, 2, 1).take(1, 0), Some(5 << 2), "an empty table starts at tick 0");
    }

    #[test]
    fn ids_carry_tick_node_and_sequence_and_the_tick_caps_them() {
        let mut g = TimestampIds::new(3, 1_000, 2, 1);
        let ids: Vec<Option<u64>> = (0..5).map(|t| g.take(t, 2_500)).collect();
        // Tick 2, node 3, sequences 0..3; the fifth waits.
        assert_eq!(ids[0], Some(2 << 10 | 3 << 2));
        assert_eq!(ids[3], Some(2 << 10 | 3 << 2 | 3));
        assert_eq!(ids[4], None);
        assert_eq!(g.next_tick_at(), 3_000);
        assert_eq!(g.take(9, 2_900), None, "later takers queue behind the waiter");
        let out: Vec<(u32, u64)> = std::iter::from_fn(|| g.next_waiter(3_000)).collect();
        assert_eq!(out, vec![(4, 3 << 10 | 3 << 2), (9, 3 << 10 | 3 << 2 | 1)]);
        assert_eq!(g.violations, 0);
    }

    #[test]
    fn a_restart_skips_the_rest_of_its_tick() {
        let mut g = TimestampIds::new(0, 1_000, 4, 1);
        let first = g.take(1, 100).unwrap();
        g.restart(200);
        assert_eq!(g.take(2, 300), None);
        let (_, id) = g.next_waiter(1_000).expect("the waiter gets an id at the next tick");
        assert!(id > first);
        assert_eq!(g.violations, 0);
    }
}
