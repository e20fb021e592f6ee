//! One cached range of ids (an API node's, or a client's with `idCacheScope: client`) for
//! one table, and the checker that no id is ever issued twice.
//!
//! The owner keeps a range `[next, end)` of ids for the table, guarded by a mutex (in
//! mysqld, the table share's mutex; a client's own range has no other taker). When the
//! range is empty, the thread that found it so keeps the mutex and *fetches* the next
//! range: by a *refill* (`counterRow`: a separate committed transaction that adds
//! `cacheSize` to the table's counter row in SYSTAB_0 and reads the old value back) or by
//! a request to the allocator service (`centralService`). Threads that want an id
//! meanwhile queue on the mutex in FIFO order.

use std::collections::{BTreeMap, VecDeque};

/// What a thread gets when it asks for an id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Take {
    /// An id from the cached range.
    Id(u64),
    /// The mutex is held by a fetch; the caller was queued.
    Wait,
    /// The range is empty: the caller now holds the mutex and must fetch the next range.
    Fetch,
}

#[derive(Clone, Debug, Default)]
pub struct IdCache {
    next: u64,
    end: u64,
    fetching: bool,
    waiters: VecDeque<u32>,
    /// The next range's size when the cache grows (`cacheGrowth` > 1); 0 until then.
    grown: u64,
}

/// How big ranges are: `cacheSize`, `cacheGrowth`, `cacheSizeMax`.
#[derive(Clone, Copy, Debug)]
pub struct Sizing {
    pub base: u64,
    pub growth: u64,
    pub max: u64,
}

impl IdCache {
    /// Asks for an id on behalf of transaction `txn`.
    pub fn take(&mut self, txn: u32) -> Take {
        if self.fetching {
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
            self.fetching = true;
            Take::Fetch
        }
    }

    /// How many ids the next fetch takes: `cacheSize`, or the grown size.
    pub fn range_size(&self, s: Sizing) -> u64 {
        if s.growth <= 1 || self.grown == 0 {
            s.base
        } else {
            self.grown
        }
    }

    /// The fetched range `[first, first + count)` arrived (a refill committed, the service
    /// replied); the mutex is released.
    /// A growing cache's next range is `count x growth`, within `cacheSize..=cacheSizeMax`.
    pub fn arrived(&mut self, first: u64, count: u64, s: Sizing) {
        assert!(self.fetching, "a range arrived without the mutex held");
        assert!(self.next >= self.end, "a range arrived while ids remain");
        self.next = first;
        self.end = first + count;
        self.fetching = false;
        if s.growth > 1 {
            self.grown = count.saturating_mul(s.growth).clamp(s.base, s.max.max(s.base));
        }
    }

    /// The next queued waiter and what it gets: an id, or the mutex to fetch the next range.
    pub fn serve_waiter(&mut self) -> Option<(u32, Take)> {
        if self.fetching {
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
/// are still in flight, not the number of fetches: flat over long runs.
#[derive(Clone, Debug, Default)]
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
        let touching: Vec<(u64, u64)> = self.ranges.range(..=end).rev().take_while(|&(_, &e)| e >= first).map(|(&s, &e)| (s, e)).collect();
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
    fn ids_come_from_the_range_then_a_fetch_is_asked() {
        let mut c = IdCache::default();
        assert_eq!(c.take(1), Take::Fetch);
        assert_eq!(c.take(2), Take::Wait);
        assert_eq!(c.take(3), Take::Wait);
        let fixed = Sizing { base: 2, growth: 1, max: 1_000_000 };
        c.arrived(100, 2, fixed);
        assert_eq!(c.take_unlocked(), Take::Id(100));
        assert_eq!(c.serve_waiter(), Some((2, Take::Id(101))));
        assert_eq!(c.serve_waiter(), Some((3, Take::Fetch)));
        assert_eq!(c.serve_waiter(), None, "mutex held by waiter 3's fetch");
        c.arrived(200, 5, fixed);
        assert_eq!(c.remaining(), 5);
        assert_eq!(c.range_size(fixed), 2, "a fixed cache follows cacheSize");
    }

    #[test]
    fn a_growing_cache_multiplies_each_range_up_to_its_max() {
        let s = Sizing { base: 1, growth: 10, max: 10_000 };
        let mut c = IdCache::default();
        let mut sizes = Vec::new();
        let mut first = 0;
        for _ in 0..6 {
            assert_eq!(c.take(0), Take::Fetch);
            let n = c.range_size(s);
            sizes.push(n);
            c.arrived(first, n, s);
            first += n;
            while c.remaining() > 0 {
                c.take(0);
            }
        }
        assert_eq!(sizes, vec![1, 10, 100, 1_000, 10_000, 10_000]);
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
