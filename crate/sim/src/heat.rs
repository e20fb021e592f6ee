//! Every hot row seen, in bounded memory. The rows locked most often are found with the
//! Space-Saving algorithm (Metwally, Agrawal, El Abbadi, "Efficient computation of
//! frequent and top-k elements in data streams", ICDT 2005): `SLOTS` rows are tracked; a
//! row not tracked takes the slot of the one granted least and inherits its count as a
//! floor, so a row taking more than 1/`SLOTS` of all lock grants is never missed. Each
//! tracked row's lock hold time, waits and wait time are accumulated exactly from when it
//! entered, or from the start of the span (a window, the run after warm-up) for a row
//! tracked when it began: rows stay tracked from span to span, so a hot row's figures are
//! exact, and a row first tracked later is marked (`counted_ns` short of the span: its
//! figures are a lower bound, `row_report.rs`). Reports rank the tracked rows by hold time
//! (the lock's busy fraction), then by grants.
//!
//! A workload locks thousands of rows once each (an account, an inserted row), which would
//! swamp the few rows locked over and over (a branch, a counter row, a Zipfian head). So a
//! row enters only when it comes back: a `Doorkeeper` remembers the last row seen in each
//! of its slots, and a row released while its slot still remembers it (or one somebody
//! waited for) is admitted. Rows touched once never enter; a row locked often finds its
//! slot still holding it soon. Once admitted, frequency decides who stays, and a row
//! locked only once in the span, with nobody waiting for it, is not listed.
//!
//! Only the primary replica's lock is counted: it is held from the prepare to the commit,
//! the backups' until the complete phase.
//!
//! Each tracked row also keeps who waits for whom (its wait split by the waiting and the
//! holding request's class, from `locks.rs`: the parts sum to the row's wait) and how
//! long its holders were themselves blocked while holding it (waiting for another lock or
//! for an id): a lock whose busy time is mostly its holders' waits elsewhere is a victim
//! of a convoy, not its root (`explain/resources.rs`).

use crate::locks::WaitPart;
use crate::time::Ns;
use crate::waits;

/// Rows a report lists.
pub const HOT_ROWS: usize = 10;
/// Rows tracked: a row with more than 1/1024 of the grants is always among them, and a
/// cluster's contended rows (TPC-C's warehouses and their ten districts each, at 64
/// warehouses 704 rows) are all tracked at once, so none is forgotten and readmitted.
const SLOTS: usize = 1024;

/// Entries of a row's wait split; more pairs than this share the last one.
const SPLIT: usize = 24;

/// One hold of a lock: how long, and how much of it the holder waited elsewhere (for
/// locks and ids; for busy threads).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hold {
    pub held_ns: Ns,
    pub blocked_ns: Ns,
    pub queued_ns: Ns,
}

/// Requests of class `waiter` waited `ns` in all for holders of class `holder`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    pub waiter: u16,
    pub holder: u16,
    pub ns: u64,
}

/// One tracked row's lock accounting over a span (a window, or the run after warm-up),
/// exact from `since`: the span's start for a row tracked when it began, else the moment
/// it was admitted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowLockTotals {
    pub row: u64,
    /// The data node of its primary replica (at its last release).
    pub node: u32,
    /// When its counts begin (simulated ns).
    pub since_ns: Ns,
    /// The time they cover: from `since` to the moment the totals were taken.
    pub counted_ns: Ns,
    /// Nanoseconds its primary lock was held.
    pub busy_ns: u64,
    /// Locks granted (counted at their release), and requested by transactions on their
    /// first attempt (the demand: a row whose queue grows is requested more often than
    /// granted; a retry asks again for what was asked already).
    pub grants: u64,
    pub requests: u64,
    /// Lock requests that had to wait, and the total wait of every request (the integral
    /// of the queue's length: the sum of `split`).
    pub waits: u64,
    pub wait_ns: u64,
    /// Of `busy_ns`, the time its holders spent waiting for another lock or for an id,
    /// and for busy threads.
    pub blocked_ns: u64,
    pub queued_ns: u64,
    /// `wait_ns` by waiting and holding class.
    pub split: Vec<Split>,
}

impl RowLockTotals {
    fn add_wait(&mut self, waiter: u16, holder: u16, ns: u64) {
        self.wait_ns += ns;
        if let Some(s) = self.split.iter_mut().find(|s| s.waiter == waiter && s.holder == holder) {
            s.ns += ns;
        } else if self.split.len() < SPLIT {
            self.split.push(Split { waiter, holder, ns });
        } else {
            let last = self.split.last_mut().expect("full");
            (last.waiter, last.holder) = (waits::OTHER_CLASS, waits::OTHER_CLASS);
            last.ns += ns;
        }
    }

    /// Zero counts from `now` on (the row, its node and its split's memory stay).
    fn restart(&mut self, now: Ns) {
        let split = std::mem::take(&mut self.split);
        *self = RowLockTotals { row: self.row, node: self.node, since_ns: now, split, ..Default::default() };
        self.split.clear();
    }
}

/// Slots of the doorkeeper (a power of two).
const DOOR: usize = 1024;

/// A row id with its hash, hashed once per lock event: the doorkeeper's slot, the
/// filters' bit and the index's key all come from this one hash.
#[derive(Clone, Copy, Debug)]
pub struct HashedRow {
    pub row: u64,
    hash: u64,
}

impl HashedRow {
    #[inline]
    pub fn new(row: u64) -> HashedRow {
        HashedRow { row, hash: crate::prng::mix64(row) }
    }
}

/// The last row released in each slot (by a hash of the row): "seen before, recently".
#[derive(Clone, Debug)]
pub struct Doorkeeper(Box<[u64; DOOR]>);

impl Default for Doorkeeper {
    fn default() -> Self {
        Doorkeeper(Box::new([u64::MAX; DOOR]))
    }
}

impl Doorkeeper {
    /// Records `row`; true if its slot remembered it (it came back).
    #[inline]
    pub fn came_back(&mut self, row: HashedRow) -> bool {
        let slot = (row.hash as usize) & (DOOR - 1);
        std::mem::replace(&mut self.0[slot], row.row) == row.row
    }

    pub const fn memory_bytes() -> usize {
        DOOR * 8
    }
}

/// The slot index's hasher: its keys are rows' hashes already (`HashedRow`), which it
/// passes through (the mix is a bijection, so a hash names its row), the same on every
/// target.
#[derive(Clone, Copy, Default)]
struct Hashed(u64);

impl std::hash::Hasher for Hashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = crate::prng::mix64(self.0 ^ b as u64);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Slot by the hash of its row.
type Index = std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<Hashed>>;

/// The tracked rows (at most `SLOTS`), in no order. They stay tracked from span to span
/// (`restart`): a window's hot rows are the last window's, counted from its first
/// nanosecond.
#[derive(Clone, Debug)]
pub struct RowHeat {
    rows: Vec<RowLockTotals>,
    /// Per slot: Space-Saving's count, the grants it inherited when its row took it plus
    /// every grant since (never restarted: it decides who gives a slot up).
    weight: Vec<u64>,
    /// Slot by the hash of its row.
    index: Index,
    /// When the span began (the last `restart`).
    span_start_ns: Ns,
    /// A bit per hash of every tracked row: most releases are of rows not tracked, and a
    /// clear bit says so without a lookup.
    filter: [u64; FILTER_WORDS],
}

impl Default for RowHeat {
    fn default() -> Self {
        RowHeat { rows: Vec::new(), weight: Vec::new(), index: Index::default(), span_start_ns: 0, filter: [0; FILTER_WORDS] }
    }
}

const FILTER_WORDS: usize = 128;

/// The filter bit of `row` (other bits of the hash than the doorkeeper's slot).
#[inline]
fn filter_bit(row: HashedRow) -> (usize, u64) {
    let b = (row.hash >> 51) as usize; // 0..8192
    (b >> 6, 1 << (b & 63))
}

impl RowHeat {
    #[inline]
    fn tracked(&self, row: HashedRow) -> Option<usize> {
        let (word, bit) = filter_bit(row);
        if self.filter[word] & bit == 0 {
            return None;
        }
        self.index.get(&row.hash).map(|&i| i as usize)
    }

    fn mark(&mut self, row: HashedRow) {
        let (word, bit) = filter_bit(row);
        self.filter[word] |= bit;
    }

    fn slot(&mut self, row: HashedRow, now: Ns) -> usize {
        if let Some(i) = self.tracked(row) {
            return i;
        }
        if self.rows.len() < SLOTS {
            self.rows.push(RowLockTotals { row: row.row, since_ns: now, ..Default::default() });
            self.weight.push(0);
            self.index.insert(row.hash, (self.rows.len() - 1) as u32);
            self.mark(row);
            return self.rows.len() - 1;
        }
        // The row granted least (counting what it inherited) gives its slot up; ties go to
        // the first, so the choice depends on nothing but the stream.
        let (i, count) = self.weight.iter().copied().enumerate().min_by_key(|&(i, c)| (c, i)).expect("full");
        self.index.remove(&HashedRow::new(self.rows[i].row).hash);
        self.index.insert(row.hash, i as u32);
        self.rows[i].row = row.row;
        self.rows[i].restart(now);
        self.weight[i] = count;
        // The evicted row's bit may be shared: rebuild the filter from the rows tracked.
        self.filter.fill(0);
        for j in 0..SLOTS {
            self.mark(HashedRow::new(self.rows[j].row));
        }
        i
    }

    /// `row`'s primary lock on `node` was held as `hold` says (released at `now`) by a
    /// holder of class `holder`, and the requests waiting meanwhile waited `parts`; an
    /// untracked row enters if `admit` or somebody waited.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn held(&mut self, row: HashedRow, node: u32, hold: Hold, admit: bool, holder: u16, parts: &[WaitPart], now: Ns) {
        // Most releases are of rows neither tracked nor admitted: done without a call.
        let (word, bit) = filter_bit(row);
        if !admit && parts.is_empty() && self.filter[word] & bit == 0 {
            return;
        }
        self.count_hold(row, node, hold, admit, holder, parts, now);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn count_hold(&mut self, row: HashedRow, node: u32, hold: Hold, admit: bool, holder: u16, parts: &[WaitPart], now: Ns) {
        let i = match self.tracked(row) {
            Some(i) => i,
            None if admit || !parts.is_empty() => self.slot(row, now),
            None => return,
        };
        self.weight[i] += 1;
        let r = &mut self.rows[i];
        r.node = node;
        r.busy_ns += hold.held_ns;
        r.blocked_ns += hold.blocked_ns.min(hold.held_ns);
        r.queued_ns += hold.queued_ns.min(hold.held_ns - hold.blocked_ns.min(hold.held_ns));
        r.grants += 1;
        for p in parts {
            r.add_wait(p.waiter, holder, p.ns);
        }
    }

    /// A request for `row`'s primary lock had to wait (and was granted at `now`: `held`
    /// counts the grant when it is released, and the wait with its holders').
    pub fn waited(&mut self, row: HashedRow, now: Ns) {
        let i = self.slot(row, now);
        self.rows[i].waits += 1;
    }

    /// `row`'s primary lock was requested (counted if the row is tracked; a request does
    /// not admit it).
    #[inline]
    pub fn requested(&mut self, row: HashedRow) {
        if let Some(i) = self.tracked(row) {
            self.rows[i].requests += 1;
        }
    }

    /// A new span begins at `now`: every tracked row's counts restart from zero, and the
    /// rows stay tracked.
    pub fn restart(&mut self, now: Ns) {
        self.span_start_ns = now;
        self.rows.iter_mut().for_each(|r| r.restart(now));
    }

    /// The `HOT_ROWS` busiest rows at `now`, busiest first: by the lock's busy fraction
    /// to the nearest percent, then by grants (of two locks always busy, the one taken
    /// more often serialises more work), then by row for a stable order.
    pub fn top(&self, now: Ns) -> Vec<RowLockTotals> {
        let rows = self.top_all(now);
        let span = now.saturating_sub(self.span_start_ns).max(1) as u128;
        let percent = |r: &RowLockTotals| ((r.busy_ns as u128 * 100 + span / 2) / span).min(100) as u64;
        // As pairs of u64 (busiest first: the percent above the grants, each row once), the
        // one sort the WebAssembly module keeps (`locks.rs`), then the rows in that order.
        let key = |r: &RowLockTotals| u64::MAX - (percent(r) << 57 | r.grants.min((1 << 57) - 1));
        let mut order: Vec<(u64, u64)> = rows.iter().map(|r| (key(r), r.row)).collect();
        order.sort_unstable();
        order.truncate(HOT_ROWS);
        order.iter().filter_map(|&(_, row)| rows.iter().find(|r| r.row == row).cloned()).collect()
    }

    /// Every tracked row that was locked more than once or waited for, in slot order,
    /// with `counted_ns` up to `now`: the resources `explain/resources.rs` weighs (a row past the
    /// report's ten may still bind).
    pub fn top_all(&self, now: Ns) -> Vec<RowLockTotals> {
        self.rows
            .iter()
            .filter(|r| r.grants > 1 || r.waits > 0)
            .map(|r| RowLockTotals { counted_ns: now.saturating_sub(r.since_ns), ..r.clone() })
            .collect()
    }

    pub fn memory_bytes(&self) -> usize {
        self.rows.iter().map(|r| r.split.capacity() * std::mem::size_of::<Split>()).sum::<usize>()
            + self.rows.capacity() * std::mem::size_of::<RowLockTotals>()
            + self.weight.capacity() * 8
            + self.index.capacity() * (8 + 4 + 8)
            + FILTER_WORDS * 8
    }
}

#[cfg(test)]
mod tests;
