//! A fixed-size log-linear latency histogram (HDR-style, 16 sub-buckets per power of two).
//!
//! Fixed size keeps memory flat however long a run lasts; the relative error of a
//! reported percentile is at most 1/16 (about 6%).

const SUB_BITS: u32 = 4;
const SUB: u64 = 1 << SUB_BITS;
const BUCKETS: usize = (64 - SUB_BITS as usize + 1) * SUB as usize;

#[derive(Clone)]
pub struct Histogram {
    counts: Box<[u32; BUCKETS]>,
    total: u64,
    sum: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram { counts: Box::new([0; BUCKETS]), total: 0, sum: 0 }
    }
}

fn index(v: u64) -> usize {
    if v < SUB {
        return v as usize;
    }
    let msb = 63 - v.leading_zeros();
    let shift = msb - SUB_BITS;
    let sub = (v >> shift) & (SUB - 1);
    ((shift as u64 + 1) * SUB + sub) as usize
}

/// The smallest value that falls in bucket `i`, plus half the bucket's width.
fn midpoint(i: usize) -> u64 {
    let i = i as u64;
    if i < SUB {
        return i;
    }
    let shift = i / SUB - 1;
    let sub = i % SUB;
    let low = (SUB + sub) << shift;
    low + ((1u64 << shift) >> 1)
}

impl Histogram {
    pub fn record(&mut self, v: u64) {
        self.counts[index(v)] = self.counts[index(v)].saturating_add(1);
        self.total += 1;
        self.sum = self.sum.saturating_add(v);
    }

    pub fn count(&self) -> u64 {
        self.total
    }

    pub fn sum(&self) -> u64 {
        self.sum
    }

    pub fn mean(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.sum as f64 / self.total as f64
        }
    }

    /// The value at quantile `q` (0..=1); 0 when empty.
    pub fn quantile(&self, q: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0u64;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c as u64;
            if seen >= rank {
                return midpoint(i);
            }
        }
        unreachable!("rank {rank} beyond total {}", self.total)
    }

    pub fn clear(&mut self) {
        if self.total > 0 {
            self.counts.fill(0);
            self.total = 0;
            self.sum = 0;
        }
    }

    /// Feeds every bucket into `f`; used by the run digest.
    pub fn for_each_bucket(&self, mut f: impl FnMut(u64)) {
        for &c in self.counts.iter() {
            f(c as u64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_within_bucket_error() {
        let mut h = Histogram::default();
        for v in 1..=10_000u64 {
            h.record(v * 1000);
        }
        for (q, want) in [(0.5, 5_000_000.0), (0.99, 9_900_000.0)] {
            let got = h.quantile(q) as f64;
            assert!((got - want).abs() / want < 1.0 / 16.0, "q{q}: {got} vs {want}");
        }
        assert!((h.mean() - 5_000_500.0).abs() < 1.0);
    }

    #[test]
    fn small_values_are_exact_and_clear_resets() {
        let mut h = Histogram::default();
        h.record(3);
        h.record(3);
        h.record(9);
        assert_eq!(h.quantile(0.5), 3);
        assert_eq!(h.quantile(1.0), 9);
        h.clear();
        assert_eq!(h.count(), 0);
        assert_eq!(h.quantile(0.5), 0);
    }

    #[test]
    fn index_is_monotone() {
        let mut last = 0;
        for v in (0..1_000_000u64).step_by(997).chain([u64::MAX / 2, u64::MAX]) {
            let i = index(v);
            assert!(i >= last && i < BUCKETS);
            last = i;
        }
    }
}
