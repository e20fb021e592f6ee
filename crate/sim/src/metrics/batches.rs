//! The measured windows' counters in consecutive buckets of equal length, for the
//! intervals of the figures that are worked out from a span's counters rather than
//! averaged over windows: the bound and the next ceiling (`summary/explanation.rs`).
//!
//! A bucket holds a power of two windows: each closed measured window is added to the
//! open bucket, which joins the full ones when it has as many as they do; when `BUCKETS`
//! are full, neighbours merge in pairs and buckets hold twice as many windows. So memory
//! stays at `BUCKETS` sets of counters however long the run, and the buckets always cover
//! the measured run from its first window (the open bucket's windows, fewer than a
//! bucket's, wait for the next batch). A bucket keeps the rows that were among a window's
//! busiest (`heat::HOT_ROWS`), summed, at most `ROWS` of them: a row that binds is among
//! them in every window; a row that is not, in some, and is weighed by those. Of a row it
//! keeps what a span's resources read (its busy, blocked and queued time, grants and
//! requests), not its waits.

use crate::batch_means::BATCHES;
use crate::counts::Counts;
use crate::heat::{RowLockTotals, HOT_ROWS};
use crate::time::Ns;

/// Buckets kept at most: four times the batches, so that every batch is whole buckets and
/// the batches cover all but a few per cent of the measured run (40 to 80 buckets make 13
/// to 20 batches).
const BUCKETS: usize = 4 * BATCHES;
/// Rows a bucket keeps at most, the busiest.
const ROWS: usize = 3 * HOT_ROWS;

/// Consecutive measured windows, summed.
#[derive(Clone, Debug, Default)]
pub struct Bucket {
    pub counts: Counts,
    pub rows: Vec<RowLockTotals>,
    pub windows: u32,
    /// The windows' user transactions' response times summed (us), and how many.
    pub latency_sum_us: f64,
    pub latency_count: u64,
    /// The windows' own bottlenecks' utilization summed (a moving hot spot's, `explain/moving.rs`).
    pub bound_utilization_sum: f64,
}

/// What one closed window adds.
pub struct WindowPart<'a> {
    pub counts: &'a Counts,
    pub rows: &'a [RowLockTotals],
    pub latency_sum_us: f64,
    pub latency_count: u64,
    pub bound_utilization: f64,
}

impl Bucket {
    fn add(&mut self, other: &Bucket) {
        let part = WindowPart {
            counts: &other.counts,
            rows: &other.rows,
            latency_sum_us: other.latency_sum_us,
            latency_count: other.latency_count,
            bound_utilization: other.bound_utilization_sum,
        };
        self.add_part(&part, other.windows);
    }

    /// Adds `windows` windows' counts (one closed window, or another bucket's).
    #[inline(never)] // One copy for a window and a bucket (the main WebAssembly module's size).
    fn add_part(&mut self, w: &WindowPart, windows: u32) {
        self.counts.absorb(w.counts);
        self.windows += windows;
        self.latency_sum_us += w.latency_sum_us;
        self.latency_count += w.latency_count;
        self.bound_utilization_sum += w.bound_utilization;
        for r in w.rows {
            match self.rows.iter_mut().find(|m| m.row == r.row) {
                // What a span's loads read of a row (`explain/resources.rs`); its waits are
                // the windows' to report.
                Some(m) => {
                    m.node = r.node;
                    m.busy_ns += r.busy_ns;
                    m.grants += r.grants;
                    m.requests += r.requests;
                    m.blocked_ns += r.blocked_ns;
                    m.queued_ns += r.queued_ns;
                }
                None => self.rows.push(RowLockTotals {
                    row: r.row,
                    node: r.node,
                    busy_ns: r.busy_ns,
                    grants: r.grants,
                    requests: r.requests,
                    blocked_ns: r.blocked_ns,
                    queued_ns: r.queued_ns,
                    ..RowLockTotals::default()
                }),
            }
        }
        // The busiest `ROWS`: the least busy dropped one at a time (a few at most).
        while self.rows.len() > ROWS {
            let least = (0..self.rows.len()).min_by_key(|&i| self.rows[i].busy_ns).expect("rows");
            self.rows.swap_remove(least);
        }
    }
}

/// The measured run's windows in buckets.
#[derive(Clone, Debug, Default)]
pub struct Buckets {
    full: Vec<Bucket>,
    open: Bucket,
    /// Windows per full bucket (0: none yet, 1).
    per: u32,
}

impl Buckets {
    pub fn clear(&mut self) {
        *self = Buckets::default();
    }

    /// Adds a closed measured window.
    pub fn push(&mut self, w: WindowPart) {
        self.open.add_part(&w, 1);
        if self.open.windows >= self.per.max(1) {
            self.per = self.per.max(1);
            self.full.push(std::mem::take(&mut self.open));
            if self.full.len() == BUCKETS {
                let pairs = std::mem::take(&mut self.full);
                let mut it = pairs.into_iter();
                while let (Some(mut a), Some(b)) = (it.next(), it.next()) {
                    a.add(&b);
                    self.full.push(a);
                }
                self.per *= 2;
            }
        }
    }

    /// The measured run as at most `BATCHES` consecutive batches of equal length, the
    /// latest (fewer than a batch's buckets left over at the start are dropped, as
    /// `intervals.rs` drops windows), and the windows in each; None when there are fewer
    /// buckets than `batch_means::MIN_WINDOWS`.
    pub fn batches(&self) -> Option<(Vec<Bucket>, u32)> {
        let m = self.full.len();
        let (k, per) = crate::batch_means::batching(m)?;
        let batches = self.full[m - k * per..]
            .chunks(per)
            .map(|c| {
                let mut b = c[0].clone();
                c[1..].iter().for_each(|o| b.add(o));
                b
            })
            .collect();
        Some((batches, self.per * per as u32))
    }

    /// Bytes held, about: the buckets, their rows and their counters' vectors.
    pub fn memory_bytes(&self) -> usize {
        let counts = self.open.counts.station_busy_ns.len() * 2
            + self.open.counts.node_messages.len() * 2
            + self.open.counts.mutex_busy_ns.len() * 4;
        (self.full.len() + 1) * (std::mem::size_of::<Bucket>() + ROWS * std::mem::size_of::<RowLockTotals>() + 8 * counts)
    }
}

/// A batch's span in ns: its windows of `window_ns`.
pub fn span_ns(windows: u32, window_ns: Ns) -> Ns {
    windows as Ns * window_ns
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(commits: u64, row_busy: u64) -> (Counts, Vec<RowLockTotals>) {
        let mut c = Counts::new(2);
        c.inserts = commits;
        c.station_busy_ns = vec![commits, 2 * commits];
        (c, vec![RowLockTotals { row: 7, busy_ns: row_busy, grants: commits, ..Default::default() }])
    }

    fn push(b: &mut Buckets, i: u64) {
        let (c, rows) = window(i, 10 * i);
        b.push(WindowPart { counts: &c, rows: &rows, latency_sum_us: i as f64, latency_count: 1, bound_utilization: 0.5 });
    }

    #[test]
    fn buckets_double_and_cover_the_run_from_its_first_window() {
        let mut b = Buckets::default();
        (0..9).for_each(|i| push(&mut b, i));
        assert!(b.batches().is_none(), "9 windows: too few for an interval");
        push(&mut b, 9);
        let (batches, per) = b.batches().expect("10 windows, 10 batches");
        assert_eq!((batches.len(), per), (10, 1));
        (10..201).for_each(|i| push(&mut b, i));
        // 201 windows: 80 full of 1 merged into 40 of 2 at 80, to 40 of 4 at 160, 10 of 4
        // since: 50 full of 4 and one window open.
        assert_eq!((b.full.len(), b.per, b.open.windows), (50, 4, 1));
        let (batches, per) = b.batches().expect("batches");
        assert_eq!((batches.len(), per), (16, 12), "50 buckets of 4 in 16 batches of 3, the first two buckets dropped");
        let last = batches.last().unwrap();
        let sum = (188..200).sum::<u64>();
        assert_eq!(last.counts.inserts, sum);
        assert_eq!(last.counts.station_busy_ns, vec![sum, 2 * sum]);
        assert_eq!(last.rows[0].busy_ns, 10 * sum);
        assert_eq!((last.windows, last.latency_count), (12, 12));
        assert_eq!(last.bound_utilization_sum, 6.0);
        let total: u64 = b.full.iter().map(|x| x.counts.inserts).sum();
        assert_eq!(total, (0..200).sum::<u64>(), "nothing lost in the merges");
    }

    #[test]
    fn a_bucket_keeps_its_busiest_rows() {
        let mut bucket = Bucket::default();
        let rows: Vec<RowLockTotals> = (0..ROWS as u64 + 5).map(|r| RowLockTotals { row: r, busy_ns: r, ..Default::default() }).collect();
        let counts = Counts::new(1);
        bucket.add_part(&WindowPart { counts: &counts, rows: &rows, latency_sum_us: 0.0, latency_count: 0, bound_utilization: 0.0 }, 1);
        assert_eq!(bucket.rows.len(), ROWS);
        assert!(bucket.rows.iter().all(|r| r.busy_ns >= 5), "the five least busy dropped");
    }
}
