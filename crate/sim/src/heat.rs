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

use crate::config::Config;
use crate::time::{self, Ns};
use crate::workload::{self, table};
use serde::Serialize;

/// Rows a report lists.
pub const HOT_ROWS: usize = 10;
/// Rows tracked: a row with more than 1/64 of the grants is always among them.
const SLOTS: usize = 64;

/// One tracked row's lock accounting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowLockTotals {
    pub row: u64,
    /// Nanoseconds its primary lock was held.
    pub busy_ns: u64,
    /// Locks granted.
    pub grants: u64,
    /// Lock requests that had to wait, and their total wait.
    pub waits: u64,
    pub wait_ns: u64,
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

    /// `row`'s primary lock was held for `held` ns; an untracked row enters if `admit`.
    pub fn held(&mut self, row: u64, held: Ns, admit: bool) {
        let i = match self.tracked(row) {
            Some(i) => i,
            None if admit => self.slot(row),
            None => return,
        };
        self.rows[i].busy_ns += held;
        self.rows[i].grants += 1;
    }

    /// A request for `row`'s primary lock waited `waited` ns (and was granted: `held`
    /// counts the grant when it is released).
    pub fn waited(&mut self, row: u64, waited: Ns) {
        let i = self.slot(row);
        self.rows[i].waits += 1;
        self.rows[i].wait_ns += waited;
    }

    /// The `HOT_ROWS` busiest rows over a span of `span_ns`, busiest first: by the lock's
    /// busy fraction to the nearest percent, then by grants (of two locks always busy, the
    /// one taken more often serialises more work), then by row for a stable order.
    pub fn top(&self, span_ns: Ns) -> Vec<RowLockTotals> {
        let mut rows: Vec<RowLockTotals> = self.rows.iter().copied().filter(|r| r.grants > 1 || r.waits > 0).collect();
        let span = span_ns.max(1) as u128;
        let percent = |r: &RowLockTotals| ((r.busy_ns as u128 * 100 + span / 2) / span).min(100) as u64;
        rows.sort_unstable_by_key(|r| (std::cmp::Reverse((percent(r), r.grants)), r.row));
        rows.truncate(HOT_ROWS);
        rows
    }

    pub fn clear(&mut self) {
        self.rows.clear();
        self.floor.clear();
        self.filter = [0; FILTER_WORDS];
    }

    pub fn memory_bytes(&self) -> usize {
        self.rows.capacity() * std::mem::size_of::<RowLockTotals>() + self.floor.capacity() * 8
    }
}

/// One hot row as reports give it: its table's name and key, how busy its lock was.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowReport {
    pub table: String,
    pub key: u64,
    /// Fraction of the time its primary lock was held, 0..=1.
    pub lock_busy_fraction: f64,
    pub grants_per_second: f64,
    /// Lock requests that had to wait, per second.
    pub waits_per_second: f64,
    /// Requests waiting on average (total wait over the span, by Little's law).
    pub mean_waiters: f64,
    /// Mean wait of the requests that waited, in microseconds.
    pub mean_wait_us: f64,
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
            lock_busy_fraction: (r.busy_ns as f64 / span_ns.max(1) as f64).min(1.0),
            grants_per_second: r.grants as f64 / secs,
            waits_per_second: r.waits as f64 / secs,
            mean_waiters: r.wait_ns as f64 / span_ns.max(1) as f64,
            mean_wait_us: if r.waits > 0 { time::as_us(r.wait_ns as f64 / r.waits as f64) } else { 0.0 },
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
                if admit || heat.tracked(hot as u64).is_some() {
                    want[hot] += held;
                }
                heat.held(hot as u64, held, admit);
                if rng.chance(1, 3) {
                    heat.waited(hot as u64, 7);
                }
            } else {
                let once = 1_000 + step;
                heat.held(once, 1_000 + rng.below(50), door.came_back(once));
            }
        }
        let top = heat.top(want[4]);
        assert_eq!(top.len(), 5, "{top:?}");
        for (rank, r) in top.iter().enumerate() {
            assert_eq!(r.row, 4 - rank as u64);
            assert_eq!(r.busy_ns, want[r.row as usize]);
            assert!(r.waits > 0 && r.wait_ns == 7 * r.waits);
        }
        assert_eq!(heat.rows.len(), 5, "only the rows that came back were admitted");
    }
}
