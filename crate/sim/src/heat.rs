//! Every hot row seen, in bounded memory. The rows locked most often are found with the
//! Space-Saving algorithm (Metwally, Agrawal, El Abbadi, "Efficient computation of
//! frequent and top-k elements in data streams", ICDT 2005): `SLOTS` rows are tracked; a
//! row not tracked takes the slot of the one granted least and inherits its count as a
//! floor, so a row taking more than 1/`SLOTS` of all lock grants is never missed. Each
//! tracked row's lock hold time, waits and wait time are accumulated exactly from when it
//! entered (a lower bound, exact for a row tracked all along), and reports rank the
//! tracked rows by hold time (the lock's busy fraction), then by grants.
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
//! of a convoy, not its root (`explain.rs`).

use crate::config::Config;
use crate::locks::WaitPart;
use crate::rates::ratio;
use crate::time::{self, Ns};
use crate::waits;
use crate::workload::{self, table};
use serde::Serialize;

/// Rows a report lists.
pub const HOT_ROWS: usize = 10;
/// Rows tracked: a row with more than 1/64 of the grants is always among them.
const SLOTS: usize = 64;

/// Entries of a row's wait split; more pairs than this share the last one.
const SPLIT: usize = 24;

/// One hold of a lock: how long, and how much of it the holder waited elsewhere (for
/// locks and ids; for busy threads).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hold {
    pub held: Ns,
    pub blocked: Ns,
    pub queued: Ns,
}

/// Requests of class `waiter` waited `ns` in all for holders of class `holder`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    pub waiter: u16,
    pub holder: u16,
    pub ns: u64,
}

/// One tracked row's lock accounting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowLockTotals {
    pub row: u64,
    /// The data node of its primary replica (at its last release).
    pub node: u32,
    /// Nanoseconds its primary lock was held.
    pub busy_ns: u64,
    /// Locks granted.
    pub grants: u64,
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
}

/// Slots of the doorkeeper (a power of two).
const DOOR: usize = 1024;

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
    pub fn came_back(&mut self, row: u64) -> bool {
        let slot = (crate::prng::mix64(row) as usize) & (DOOR - 1);
        std::mem::replace(&mut self.0[slot], row) == row
    }

    pub const fn memory_bytes() -> usize {
        DOOR * 8
    }
}

/// The tracked rows (at most `SLOTS`), in no order.
#[derive(Clone, Debug, Default)]
pub struct RowHeat {
    rows: Vec<RowLockTotals>,
    /// Per slot: the grants it inherited when its row took it (Space-Saving's error).
    floor: Vec<u64>,
    /// A bit per hash of every tracked row: most releases are of rows not tracked, and a
    /// clear bit says so without scanning the slots.
    filter: [u64; FILTER_WORDS],
}

const FILTER_WORDS: usize = 16;

/// The filter bit of `row` (other bits of the hash than the doorkeeper's slot).
fn filter_bit(row: u64) -> (usize, u64) {
    let b = (crate::prng::mix64(row) >> 54) as usize; // 0..1024
    (b >> 6, 1 << (b & 63))
}

impl RowHeat {
    fn tracked(&self, row: u64) -> Option<usize> {
        let (word, bit) = filter_bit(row);
        if self.filter[word] & bit == 0 {
            return None;
        }
        self.rows.iter().position(|r| r.row == row)
    }

    fn mark(&mut self, row: u64) {
        let (word, bit) = filter_bit(row);
        self.filter[word] |= bit;
    }

    fn slot(&mut self, row: u64) -> usize {
        if let Some(i) = self.tracked(row) {
            return i;
        }
        if self.rows.len() < SLOTS {
            self.rows.push(RowLockTotals { row, ..Default::default() });
            self.floor.push(0);
            self.mark(row);
            return self.rows.len() - 1;
        }
        // The row granted least (counting what it inherited) gives its slot up; ties go to
        // the first, so the choice depends on nothing but the stream.
        let (i, count) = (0..SLOTS).map(|i| (i, self.floor[i] + self.rows[i].grants)).min_by_key(|&(i, c)| (c, i)).expect("full");
        self.rows[i] = RowLockTotals { row, ..Default::default() };
        self.floor[i] = count;
        // The evicted row's bit may be shared: rebuild the filter from the rows tracked.
        self.filter = [0; FILTER_WORDS];
        for j in 0..SLOTS {
            self.mark(self.rows[j].row);
        }
        i
    }

    /// `row`'s primary lock on `node` was held as `hold` says by a holder of class
    /// `holder`, and the requests waiting meanwhile waited `parts`; an untracked row
    /// enters if `admit` or somebody waited.
    pub fn held(&mut self, row: u64, node: u32, hold: Hold, admit: bool, holder: u16, parts: &[WaitPart]) {
        let i = match self.tracked(row) {
            Some(i) => i,
            None if admit || !parts.is_empty() => self.slot(row),
            None => return,
        };
        let r = &mut self.rows[i];
        r.node = node;
        r.busy_ns += hold.held;
        r.blocked_ns += hold.blocked.min(hold.held);
        r.queued_ns += hold.queued.min(hold.held - hold.blocked.min(hold.held));
        r.grants += 1;
        for p in parts {
            r.add_wait(p.waiter, holder, p.ns);
        }
    }

    /// A request for `row`'s primary lock had to wait (and was granted: `held` counts the
    /// grant when it is released, and the wait with its holders').
    pub fn waited(&mut self, row: u64) {
        let i = self.slot(row);
        self.rows[i].waits += 1;
    }

    /// The `HOT_ROWS` busiest rows over a span of `span_ns`, busiest first: by the lock's
    /// busy fraction to the nearest percent, then by grants (of two locks always busy, the
    /// one taken more often serialises more work), then by row for a stable order.
    pub fn top(&self, span_ns: Ns) -> Vec<RowLockTotals> {
        let mut rows: Vec<RowLockTotals> = self.rows.iter().filter(|r| r.grants > 1 || r.waits > 0).cloned().collect();
        let span = span_ns.max(1) as u128;
        let percent = |r: &RowLockTotals| ((r.busy_ns as u128 * 100 + span / 2) / span).min(100) as u64;
        rows.sort_unstable_by_key(|r| (std::cmp::Reverse((percent(r), r.grants)), r.row));
        rows.truncate(HOT_ROWS);
        rows
    }

    /// Every tracked row that was locked more than once or waited for, in slot order:
    /// the resources `explain.rs` weighs (a row past the report's ten may still bind).
    pub fn top_all(&self) -> Vec<RowLockTotals> {
        self.rows.iter().filter(|r| r.grants > 1 || r.waits > 0).cloned().collect()
    }

    pub fn clear(&mut self) {
        self.rows.clear();
        self.floor.clear();
        self.filter = [0; FILTER_WORDS];
    }

    pub fn memory_bytes(&self) -> usize {
        self.rows.iter().map(|r| r.split.capacity() * std::mem::size_of::<Split>()).sum::<usize>()
            + self.rows.capacity() * std::mem::size_of::<RowLockTotals>()
            + self.floor.capacity() * 8
    }
}

/// One hot row as reports give it: its table's name and key, how busy its lock was.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowReport {
    pub table: String,
    pub key: u64,
    /// The data node of its primary replica.
    pub node: u32,
    /// Fraction of the time its primary lock was held, 0..=1.
    pub lock_busy_fraction: f64,
    pub grants_per_second: f64,
    /// Lock requests that had to wait, per second.
    pub waits_per_second: f64,
    /// Requests waiting on average (total wait over the span, by Little's law).
    pub mean_waiters: f64,
    /// Mean wait of the requests that waited, in microseconds.
    pub mean_wait_us: f64,
    /// Of the time its lock was held, the share its holders spent waiting for another
    /// lock or an id (a lock mostly blocked is a convoy's victim), and for busy threads.
    pub blocked_fraction: f64,
    pub queued_fraction: f64,
    /// Who waits for whom: the row's whole wait split by the waiting and the holding
    /// request (transaction and statement), largest first; the parts sum to the wait.
    pub waits: Vec<WaitReport>,
}

/// One part of a row's wait: requests of `waiter` waiting for holders of `holder`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitReport {
    /// "transfer: update branches": the transaction and what it does to the row.
    pub waiter: String,
    pub holder: String,
    /// Microseconds waited in all over the span.
    pub wait_us: f64,
    /// Of the row's whole wait, 0..=1.
    pub share: f64,
}

/// The name of the table with id `id` in `cfg`'s workload.
pub fn table_name(cfg: &Config, id: u64) -> String {
    match cfg.workload.spec() {
        Some(spec) if id != table::SYSTAB => (0..spec.tables.len())
            .find(|&i| crate::spec::table_id(i) == id)
            .map_or_else(|| workload::builtin_table_name(id).to_string(), |i| spec.tables[i].name.clone()),
        _ => workload::builtin_table_name(id).to_string(),
    }
}

/// `rows`' totals over `span_ns` as a report.
pub fn report(cfg: &Config, rows: &[RowLockTotals], span_ns: Ns) -> Vec<RowReport> {
    let secs = time::as_secs(span_ns).max(1e-12);
    rows.iter()
        .map(|r| RowReport {
            table: table_name(cfg, workload::table_of(r.row)),
            key: r.row & ((1 << 56) - 1),
            node: r.node,
            lock_busy_fraction: (r.busy_ns as f64 / span_ns.max(1) as f64).min(1.0),
            grants_per_second: r.grants as f64 / secs,
            waits_per_second: r.waits as f64 / secs,
            mean_waiters: r.wait_ns as f64 / span_ns.max(1) as f64,
            mean_wait_us: if r.waits > 0 { time::as_us(r.wait_ns as f64 / r.waits as f64) } else { 0.0 },
            blocked_fraction: ratio(r.blocked_ns, r.busy_ns).min(1.0),
            queued_fraction: ratio(r.queued_ns, r.busy_ns).min(1.0),
            waits: waits(cfg, r),
        })
        .collect()
}

/// `r`'s wait split, largest part first.
fn waits(cfg: &Config, r: &RowLockTotals) -> Vec<WaitReport> {
    let table = table_name(cfg, workload::table_of(r.row));
    let mut split = r.split.clone();
    split.sort_by_key(|s| (std::cmp::Reverse(s.ns), s.waiter, s.holder));
    split
        .iter()
        .map(|s| WaitReport {
            waiter: waits::class_name(cfg, s.waiter, &table),
            holder: waits::class_name(cfg, s.holder, &table),
            wait_us: time::as_us(s.ns as f64),
            share: if r.wait_ns > 0 { s.ns as f64 / r.wait_ns as f64 } else { 0.0 },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prng::Prng;

    /// Five rows locked over and over among a stream of rows locked once and held far
    /// longer (in all, the once-rows' hold time is 40 times the five's): the five come out
    /// on top, busiest first, with their exact totals since they entered, no once-row is
    /// listed, and no once-row even takes a slot.
    #[test]
    fn the_rows_locked_over_and_over_are_found_exactly() {
        let mut heat = RowHeat::default();
        let mut door = Doorkeeper::default();
        let mut rng = Prng::new(5, 5);
        let mut want = [0u64; 5];
        for step in 0..200_000u64 {
            if rng.chance(1, 4) {
                let hot = rng.below(5) as usize;
                let held = 100 * (hot as u64 + 1);
                let admit = door.came_back(hot as u64);
                let parts = if rng.chance(1, 3) {
                    heat.waited(hot as u64);
                    vec![WaitPart { waiter: 1, ns: 7 }]
                } else {
                    vec![]
                };
                if admit || !parts.is_empty() || heat.tracked(hot as u64).is_some() {
                    want[hot] += held;
                }
                heat.held(hot as u64, 0, Hold { held, ..Hold::default() }, admit, 0, &parts);
            } else {
                let once = 1_000 + step;
                heat.held(once, 0, Hold { held: 1_000 + rng.below(50), ..Hold::default() }, door.came_back(once), 0, &[]);
            }
        }
        let top = heat.top(want[4]);
        assert_eq!(top.len(), 5, "{top:?}");
        for (rank, r) in top.iter().enumerate() {
            assert_eq!(r.row, 4 - rank as u64);
            assert_eq!(r.busy_ns, want[r.row as usize]);
            assert!(r.waits > 0 && r.wait_ns == 7 * r.waits);
            assert_eq!(r.split, vec![Split { waiter: 1, holder: 0, ns: r.wait_ns }]);
        }
        assert_eq!(heat.rows.len(), 5, "only the rows that came back were admitted");
    }
}
