//! Where the keys land: how an id becomes a key (`keyLayout`) and, with range
//! partitioning, which range and so which partition a key goes to.
//!
//! Ranges are contiguous key intervals, as TiKV's regions, CockroachDB's ranges and
//! Spanner's splits. The table starts as one range; a range that reaches `rangeRows`
//! rows is cut at the middle of the keys it holds, and the upper half becomes a new
//! range on the next node group in turn. Monotonically increasing keys therefore always
//! land in the newest range: one primary takes every insert however many nodes there are.
//! A range keeps only its row count and lowest and highest key: the cut assumes the rows
//! are spread evenly between the two, which holds for each layout here (sequential keys
//! fill their range from the bottom, shard-bit and bit-reversed keys spread over it).

use crate::named::by_name;
use crate::prng::mix64;
use crate::topology::Topology;
use std::collections::BTreeMap;

by_name!(Partitioning, [Hash, Range]);
by_name!(KeyLayout, [Sequential, ShardBits, BitReversed]);

/// Keys are 63-bit, positive as a signed 64-bit integer (as TiDB and Spanner keep them).
const KEY_BITS: u32 = 63;

/// Most ranges a table starts with (`RangeMap::presplit`): a bigger table starts with
/// bigger ranges, which cut as they fill.
pub const MAX_START_RANGES: u64 = 4096;

/// How a table's rows are placed on partitions (the config's `partitioning` for the
/// table taking ids; a spec's table may name its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partitioning {
    /// NDB: a hash of the key picks the partition, so any keys spread evenly.
    Hash,
    /// TiKV, CockroachDB, Spanner: contiguous key ranges, cut when they reach `rangeRows`
    /// rows; each new range goes to the next node group in turn.
    Range,
}

impl Partitioning {
    pub const NAMES: &'static [&'static str] = &["hash", "range"];
    /// How each of `NAMES` reads in a menu.
    pub const LABELS: &'static [&'static str] = &["by hash of the key (NDB)", "by key range (TiKV, CockroachDB, Spanner)"];
}

/// How an id from the allocator becomes the row's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyLayout {
    /// The key is the id.
    Sequential,
    /// The top `shardBits` bits of the (63-bit) key are a hash of the id (TiDB's
    /// `AUTO_RANDOM`, `SHARD_ROW_ID_BITS`).
    ShardBits,
    /// The id's 63 low bits reversed (Spanner's `bit_reversed_positive` sequences).
    BitReversed,
}

impl KeyLayout {
    pub const NAMES: &'static [&'static str] = &["sequential", "shardBits", "bitReversed"];
    /// How each of `NAMES` reads in a menu.
    pub const LABELS: &'static [&'static str] = &["as is (sequential)", "hash bits on top (TiDB AUTO_RANDOM)", "bit-reversed (Spanner)"];
}

/// The key of the row that took id `id`.
pub fn key_of(id: u64, layout: KeyLayout, shard_bits: u32) -> u64 {
    let id = id & ((1 << KEY_BITS) - 1);
    match layout {
        KeyLayout::Sequential => id,
        KeyLayout::ShardBits => {
            let low = KEY_BITS - shard_bits;
            let shard = mix64(id) >> (64 - shard_bits);
            shard << low | (id & ((1 << low) - 1))
        }
        KeyLayout::BitReversed => id.reverse_bits() >> 1,
    }
}

/// Where new rows of the inserted table go (`partitioning`).
#[derive(Clone, Debug)]
pub enum KeyPlacement {
    /// NDB: a hash of the key picks the partition.
    Hash,
    /// Contiguous key ranges, cut as they fill.
    Range(RangeMap),
}

impl KeyPlacement {
    /// The placement of a table that starts with `rows` rows keyed by `layout`.
    pub fn with_rows(partitioning: Partitioning, rows: u64, layout: KeyLayout, range_rows: u64, partitions: u32) -> KeyPlacement {
        match partitioning {
            Partitioning::Hash => KeyPlacement::Hash,
            Partitioning::Range => KeyPlacement::Range(RangeMap::presplit(rows, layout, range_rows, partitions)),
        }
    }

    /// The partition of an existing row with `key` (a read, update or delete).
    pub fn find(&self, key: u64, topo: &Topology) -> u32 {
        match self {
            KeyPlacement::Hash => topo.partition_of(key),
            KeyPlacement::Range(ranges) => ranges.find(key),
        }
    }

    /// The partition a new row with `key` lands in.
    pub fn place(&mut self, key: u64, topo: &Topology) -> u32 {
        match self {
            KeyPlacement::Hash => topo.partition_of(key),
            KeyPlacement::Range(ranges) => ranges.insert(key),
        }
    }

    pub fn memory_bytes(&self) -> usize {
        match self {
            KeyPlacement::Hash => 0,
            KeyPlacement::Range(ranges) => ranges.memory_bytes(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Range {
    /// Rows the range holds.
    rows: u64,
    /// Lowest and highest key inserted into it.
    min: u64,
    max: u64,
    part: u32,
}

/// The ranges of one range-partitioned table, keyed by their first key.
#[derive(Clone, Debug)]
pub struct RangeMap {
    ranges: BTreeMap<u64, Range>,
    range_rows: u64,
    partitions: u32,
    /// The partition the next new range goes to.
    next_part: u32,
}

impl RangeMap {
    /// One empty range over every key, on partition 0. Partitions follow each other
    /// across node groups (partition p is in node group p mod nodeGroups), so taking them
    /// in turn gives each new range the next node group.
    pub fn new(range_rows: u64, partitions: u32) -> RangeMap {
        let mut ranges = BTreeMap::new();
        ranges.insert(0, Range { rows: 0, min: u64::MAX, max: 0, part: 0 });
        RangeMap { ranges, range_rows: range_rows.max(1), partitions, next_part: 1 % partitions }
    }

    /// A table that starts with `rows` rows under `layout`: its keys cut into ranges of
    /// at least `range_rows` rows (and at most `MAX_START_RANGES` ranges), the ranges on
    /// the partitions in turn. Sequential keys `0..rows` fill ranges from key 0, the last
    /// one open above; spread keys (shard bits, bit-reversed) cover the whole key space in
    /// equal slices. Without rows, as [`RangeMap::new`].
    pub fn presplit(rows: u64, layout: KeyLayout, range_rows: u64, partitions: u32) -> RangeMap {
        let mut m = RangeMap::new(range_rows, partitions);
        if rows == 0 {
            return m;
        }
        let n = rows.div_ceil(m.range_rows).clamp(1, MAX_START_RANGES);
        let keys = match layout {
            KeyLayout::Sequential => rows as u128,
            KeyLayout::ShardBits | KeyLayout::BitReversed => 1u128 << KEY_BITS,
        };
        // Range i: keys from i/n of the way, rows from i/n of them (integer cuts, exact).
        let cut = |i: u64, of: u128| (i as u128 * of / n as u128) as u64;
        m.ranges.clear();
        for i in 0..n {
            let (start, end) = (cut(i, keys), cut(i + 1, keys));
            let rows = cut(i + 1, rows as u128) - cut(i, rows as u128);
            m.ranges.insert(start, Range { rows, min: start, max: end - 1, part: (i % partitions as u64) as u32 });
        }
        m.next_part = (n % partitions as u64) as u32;
        m
    }

    /// The partition of the range holding `key` (a read or an update: nothing moves).
    pub fn find(&self, key: u64) -> u32 {
        self.ranges.range(..=key).next_back().expect("the first range starts at key 0").1.part
    }

    /// Inserts a row with `key`: returns the partition of the range it lands in, and cuts
    /// that range when it is full.
    pub fn insert(&mut self, key: u64) -> u32 {
        let (&start, r) = self.ranges.range_mut(..=key).next_back().expect("the first range starts at key 0");
        r.rows += 1;
        r.min = r.min.min(key);
        r.max = r.max.max(key);
        let part = r.part;
        if r.rows >= self.range_rows && r.max > r.min {
            let mid = r.min + (r.max - r.min) / 2 + 1;
            let upper_rows = r.rows / 2;
            let upper = Range { rows: upper_rows, min: mid, max: r.max, part: self.next_part };
            r.rows -= upper_rows;
            r.max = mid - 1;
            debug_assert!(mid > start);
            self.ranges.insert(mid, upper);
            self.next_part = (self.next_part + 1) % self.partitions;
        }
        part
    }

    /// Ranges so far.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// An estimate: each range's key and value plus 16 bytes for its share of the
    /// B-tree's nodes.
    pub fn memory_bytes(&self) -> usize {
        self.ranges.len() * (8 + std::mem::size_of::<Range>() + 16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_keep_ids_distinct_and_positive() {
        for layout in [KeyLayout::Sequential, KeyLayout::ShardBits, KeyLayout::BitReversed] {
            let mut keys: Vec<u64> = (1..5000).map(|id| key_of(id, layout, 5)).collect();
            assert!(keys.iter().all(|&k| k < 1 << 63), "{layout:?}");
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), 4999, "{layout:?} mapped two ids to one key");
        }
        assert_eq!(key_of(42, KeyLayout::Sequential, 5), 42);
        assert_eq!(key_of(1, KeyLayout::BitReversed, 5), 1 << 62);
        let shards: std::collections::BTreeSet<u64> = (1..2000).map(|id| key_of(id, KeyLayout::ShardBits, 3) >> 60).collect();
        assert_eq!(shards.len(), 8, "3 shard bits spread keys over 8 top values");
    }

    #[test]
    fn sequential_keys_fill_only_the_newest_range() {
        let mut m = RangeMap::new(100, 8);
        let mut ranges_before = Vec::new();
        let parts: Vec<u32> = (1..=1000)
            .map(|k| {
                ranges_before.push(m.len());
                m.insert(k)
            })
            .collect();
        assert!(m.len() >= 10, "ranges cut as they fill: {}", m.len());
        // Each insert goes to the newest range: the partition changes exactly when a cut
        // made a new range, and the new range is on the next partition in turn.
        for k in 1..parts.len() {
            let cut = ranges_before[k] > ranges_before[k - 1];
            assert_eq!(parts[k] != parts[k - 1], cut, "insert {k}");
            assert_eq!(parts[k], (ranges_before[k] as u32 - 1) % 8, "insert {k} lands in the newest range");
        }
    }

    #[test]
    fn a_presplit_table_spreads_its_rows_and_finds_every_key() {
        for layout in [KeyLayout::Sequential, KeyLayout::ShardBits, KeyLayout::BitReversed] {
            let m = RangeMap::presplit(10_000, layout, 1000, 4);
            assert_eq!(m.len(), 10, "{layout:?}");
            assert_eq!(m.ranges.values().map(|r| r.rows).sum::<u64>(), 10_000, "{layout:?}");
            let mut seen = [0u32; 4];
            for id in 0..10_000 {
                seen[m.find(key_of(id, layout, 5)) as usize] += 1;
            }
            assert!(seen.iter().all(|&n| n > 1000), "{layout:?}: existing rows on every partition: {seen:?}");
        }
        // Sequential inserts past the last row go to the last range, which cuts as it fills.
        let mut m = RangeMap::presplit(10_000, KeyLayout::Sequential, 1000, 4);
        let last = m.find(9_999);
        assert_eq!(m.insert(10_000), last);
        assert_eq!(RangeMap::presplit(1 << 40, KeyLayout::Sequential, 1, 8).len() as u64, MAX_START_RANGES);
    }

    #[test]
    fn spread_keys_split_everywhere() {
        let mut m = RangeMap::new(100, 8);
        let mut count = [0u32; 8];
        for id in 1..=20_000u64 {
            count[m.insert(key_of(id, KeyLayout::BitReversed, 5)) as usize] += 1;
        }
        // The last 1000 bit-reversed keys spread over many ranges, unlike sequential ones.
        let mut last = std::collections::BTreeSet::new();
        for id in 20_001..=21_000u64 {
            last.insert(m.insert(key_of(id, KeyLayout::BitReversed, 5)));
        }
        assert_eq!(last.len(), 8, "inserts reach every partition");
        assert!(count.iter().all(|&c| c > 0));
    }
}
