//! The hidden-key id allocator of one API node for one table, and the checker that no id
//! is ever issued twice.
//!
//! Each API node keeps a range `[next, end)` of ids for the table, guarded by a mutex
//! (in mysqld, the table share's mutex). When the range is empty, the thread that found
//! it so keeps the mutex and runs a *refill*: a separate committed transaction that
//! adds `cacheSize` to the table's counter row in SYSTAB_0 and reads the old value
//! back. Threads that want an id meanwhile queue on the mutex in FIFO order.

use std::collections::{BTreeMap, VecDeque};

/// What a thread gets when it asks for an id.
#[derive(Debug, PartialEq, Eq)]
pub enum Take {
    /// An id from the cached range.
    Id(u64),
    /// The mutex is held by a refill; the caller was queued.
    Wait,
    /// The range is empty: the caller now holds the mutex and must run a refill.
    Refill,
}

#[derive(Debug, Default)]
pub struct IdCache {
    next: u64,
    end: u64,
    refilling: bool,
    waiters: VecDeque<u32>,
}

impl IdCache {
    /// Asks for an id on behalf of transaction `txn`.
    pub fn take(&mut self, txn: u32) -> Take {
        if self.refilling {
            self.waiters.push_back(txn);
            Take::Wait
        } else {
            self.take_unlocked()
        }
    }

    /// Takes an id or the mutex; for a caller that is not already queued.
    fn take_unlocked(&mut self) -> Take {
        if self.next < self.end {
            self.next += 1;
            Take::Id(self.next - 1)
        } else {
            self.refilling = true;
            Take::Refill
        }
    }

    /// The refill committed with the range `[first, first + count)`; the mutex is released.
    pub fn refilled(&mut self, first: u64, count: u64) {
        assert!(self.refilling, "refill completed without the mutex held");
        assert!(self.next >= self.end, "refill while ids remain");
        self.next = first;
        self.end = first + count;
        self.refilling = false;
    }

    /// The next queued waiter and what it gets: an id, or the mutex to run a refill.
    pub fn serve_waiter(&mut self) -> Option<(u32, Take)> {
        if self.refilling {
            return None;
        }
        let txn = self.waiters.pop_front()?;
        Some((txn, self.take_unlocked()))
    }

    /// Takes `txn` out of the mutex's queue (its transaction aborted); true if it was there.
    pub fn remove_waiter(&mut self, txn: u32) -> bool {
        let before = self.waiters.len();
        self.waiters.retain(|&w| w != txn);
        self.waiters.len() != before
    }

    /// Ids cached and not yet issued; lost if the API node restarts.
    pub fn remaining(&self) -> u64 {
        self.end - self.next
    }

    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<IdCache>() + self.waiters.capacity() * 4
    }
}

/// Records every range ever handed to an API node and counts ids that two ranges share.
///
/// Ranges are kept coalesced, so memory follows the number of ranges whose neighbours
/// are still in flight, not the number of refills: flat over long runs.
#[derive(Debug, Default)]
pub struct IdChecker {
    ranges: BTreeMap<u64, u64>,
    pub duplicates: u64,
}

impl IdChecker {
    /// Records the range `[first, end)`; returns how many of its ids were handed out before.
    pub fn grant(&mut self, first: u64, end: u64) -> u64 {
        assert!(first < end, "empty range");
        let mut overlap = 0;
        let mut lo = first;
        let mut hi = end;
        // Every stored range that touches or overlaps [first, end) merges into it.
        let touching: Vec<(u64, u64)> = self
            .ranges
            .range(..=end)
            .rev()
            .take_while(|&(_, &e)| e >= first)
            .map(|(&s, &e)| (s, e))
            .collect();
        for (s, e) in touching {
            overlap += e.min(end).saturating_sub(s.max(first));
            lo = lo.min(s);
            hi = hi.max(e);
            self.ranges.remove(&s);
        }
        self.ranges.insert(lo, hi);
        self.duplicates += overlap;
        overlap
    }

    /// Separate stretches of granted ids (for the memory-is-flat check).
    pub fn stretches(&self) -> usize {
        self.ranges.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_the_range_then_a_refill_is_asked() {
        let mut c = IdCache::default();
        assert_eq!(c.take(1), Take::Refill);
        assert_eq!(c.take(2), Take::Wait);
        assert_eq!(c.take(3), Take::Wait);
        c.refilled(100, 2);
        assert_eq!(c.take_unlocked(), Take::Id(100));
        assert_eq!(c.serve_waiter(), Some((2, Take::Id(101))));
        assert_eq!(c.serve_waiter(), Some((3, Take::Refill)));
        assert_eq!(c.serve_waiter(), None, "mutex held by waiter 3's refill");
        c.refilled(200, 5);
        assert_eq!(c.remaining(), 5);
    }

    #[test]
    fn checker_coalesces_and_counts_overlaps() {
        let mut k = IdChecker::default();
        assert_eq!(k.grant(1, 2), 0);
        assert_eq!(k.grant(3, 4), 0);
        assert_eq!(k.stretches(), 2);
        assert_eq!(k.grant(2, 3), 0);
        assert_eq!(k.stretches(), 1);
        assert_eq!(k.grant(3, 10), 1);
        assert_eq!(k.duplicates, 1);
        assert_eq!(k.grant(0, 20), 9);
        assert_eq!(k.stretches(), 1);
    }
}
