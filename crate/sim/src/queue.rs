//! The event queue: events pop in (time, insertion sequence) order, FIFO on ties, so the
//! run does not depend on the queue's internal layout. This is the only source of ordering
//! in the simulation.
//!
//! It is shaped by the model's time structure. Nearly every event is due within a
//! millisecond of now (a network hop, a CPU service), and time is integer nanoseconds. So
//! the near future is a *timing wheel*: `BUCKETS` buckets of 256 ns each, covering
//! about 262 us, into which a push only appends. When the wheel reaches a bucket,
//! its few events are sorted once by (time, seq) and drained in that order; an event due
//! within the bucket being drained is inserted in place (after every event due no later:
//! its sequence number is the largest). A two-level bitmap finds the next non-empty bucket
//! in a few word operations. Events beyond the wheel (metrics
//! windows, long think times, faults) and the rare event pushed into the past go to an
//! ordinary binary heap; a pop takes whichever of the two fronts is earlier in (time, seq).
//! The order is exactly that of one binary heap over (time, seq), which
//! `tests::matches_a_binary_heap` checks on model-shaped and adversarial pushes.
//!
//! A bucket is a vector that a push appends to, so a bucket holds its events in
//! sequence order and a *stable* sort by time alone orders them by (time, seq); reaching
//! a bucket swaps its vector with the drained one, so no event is copied between the two
//! and a warm queue allocates nothing.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

pub use crate::time::Ns;

/// A bucket of the wheel is `2^BUCKET_BITS` ns wide.
const BUCKET_BITS: u32 = 8;
const WHEEL_BITS: u32 = 10;
/// Buckets in the wheel: `BUCKETS << BUCKET_BITS` ns (about 262 us) is its horizon.
const BUCKETS: usize = 1 << WHEEL_BITS;

#[derive(Clone)]
struct Entry<E> {
    time_ns: Ns,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.time_ns, self.seq) == (other.time_ns, other.seq)
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest (time, seq) first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.time_ns, other.seq).cmp(&(self.time_ns, self.seq))
    }
}

#[derive(Clone)]
pub struct EventQueue<E> {
    /// Bucket `(time >> BUCKET_BITS) % BUCKETS`'s events, in push (= sequence) order. The
    /// wheel holds events whose bucket number is less than `BUCKETS` past now's, so a
    /// bucket never holds two rotations.
    buckets: Box<[Vec<Entry<E>>]>,
    /// Bit b: bucket b is not empty; `summary` bit w: word w of `occupied` is not zero.
    occupied: [u64; BUCKETS / 64],
    summary: u64,
    /// The bucket being drained, sorted by (time, seq); `active[next..]` are pending.
    active: Vec<Entry<E>>,
    next: usize,
    /// Bucket number (`time >> BUCKET_BITS`) of `active`; u64::MAX before the first.
    active_no: u64,
    /// Events beyond the wheel or in the past.
    spill: BinaryHeap<Entry<E>>,
    /// The heap's earliest time (`Ns::MAX` when empty): a wheel event due before it pops
    /// without a look at the heap.
    spill_time_ns: Ns,
    seq: u64,
    /// Time of the latest event popped: the wheel's origin.
    now_ns: Ns,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue::with_capacity(0)
    }
}

impl<E: Copy> EventQueue<E> {
    /// `capacity` sizes the heap of far events; buckets grow as they are used.
    pub fn with_capacity(capacity: usize) -> Self {
        EventQueue {
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
            occupied: [0; BUCKETS / 64],
            summary: 0,
            active: Vec::new(),
            next: 0,
            active_no: u64::MAX,
            spill: BinaryHeap::with_capacity(capacity),
            spill_time_ns: Ns::MAX,
            seq: 0,
            now_ns: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, time: Ns, event: E) {
        self.seq += 1;
        let entry = Entry { time_ns: time, seq: self.seq, event };
        let no = time >> BUCKET_BITS;
        if no == self.active_no && time >= self.now_ns {
            // Due within the bucket being drained: after every pending entry due no later.
            let pending = &self.active[self.next..];
            let at = self.next + pending.partition_point(|e| e.time_ns <= time);
            self.active.insert(at, entry);
            return;
        }
        // The heap takes what the wheel cannot order: the past, the far future, and (rare)
        // an event due before the bucket being drained, which the wheel reached early
        // while the heap's front was earlier.
        let drained_later = self.next < self.active.len() && no < self.active_no;
        if time < self.now_ns || no - (self.now_ns >> BUCKET_BITS) >= BUCKETS as u64 || drained_later {
            self.spill_time_ns = self.spill_time_ns.min(time);
            self.spill.push(entry);
            return;
        }
        let b = no as usize % BUCKETS;
        let bucket = &mut self.buckets[b];
        if bucket.is_empty() {
            self.occupied[b >> 6] |= 1 << (b & 63);
            self.summary |= 1 << (b >> 6);
        }
        bucket.push(entry);
    }

    /// Makes the earliest wheel bucket the active one, sorted; false if the wheel is empty.
    fn take_next_bucket(&mut self) -> bool {
        let Some(b) = self.next_bucket() else { return false };
        self.active.clear();
        self.next = 0;
        std::mem::swap(&mut self.active, &mut self.buckets[b]);
        self.occupied[b >> 6] &= !(1 << (b & 63));
        if self.occupied[b >> 6] == 0 {
            self.summary &= !(1 << (b >> 6));
        }
        sort_by_time(&mut self.active);
        self.active_no = self.active[0].time_ns >> BUCKET_BITS;
        true
    }

    pub fn pop(&mut self) -> Option<(Ns, E)> {
        self.pop_until(Ns::MAX)
    }

    /// Pops the earliest event if it is due at or before `until`; leaves the queue as it
    /// is otherwise. One look at the fronts serves both the check and the pop.
    #[inline]
    pub fn pop_until(&mut self, until: Ns) -> Option<(Ns, E)> {
        if self.next == self.active.len() && !self.take_next_bucket() {
            return self.pop_spill(until);
        }
        let e = &self.active[self.next];
        let (time, event) = (e.time_ns, e.event);
        if time >= self.spill_time_ns {
            let s = self.spill.peek().expect("spill_time names its front");
            if (s.time_ns, s.seq) < (time, e.seq) {
                return self.pop_spill(until);
            }
        }
        if time > until {
            return None;
        }
        self.next += 1;
        // An event pushed into the past pops late; the wheel's origin never goes back.
        self.now_ns = self.now_ns.max(time);
        Some((time, event))
    }

    /// Pops the heap's front if it is due at or before `until`.
    fn pop_spill(&mut self, until: Ns) -> Option<(Ns, E)> {
        if self.spill.peek()?.time_ns > until {
            return None;
        }
        let e = self.spill.pop().expect("peeked");
        self.spill_time_ns = self.spill.peek().map_or(Ns::MAX, |s| s.time_ns);
        self.now_ns = self.now_ns.max(e.time_ns);
        Some((e.time_ns, e.event))
    }

    #[cfg(test)]
    pub fn peek_time(&mut self) -> Option<Ns> {
        if self.next == self.active.len() {
            self.take_next_bucket();
        }
        let wheel = self.active.get(self.next).map(|e| e.time_ns);
        match (wheel, self.spill.peek()) {
            (Some(w), Some(s)) => Some(w.min(s.time_ns)),
            (w, s) => w.or(s.map(|s| s.time_ns)),
        }
    }

    /// The earliest occupied bucket. The wheel's events lie in the `BUCKETS` buckets from
    /// now's on, so searching from now's bucket, wrapping around once, meets them in time
    /// order.
    fn next_bucket(&self) -> Option<usize> {
        if self.summary == 0 {
            return None;
        }
        let start = (self.now_ns >> BUCKET_BITS) as usize % BUCKETS;
        self.first_from(start).or_else(|| self.first_from(0))
    }

    /// The first occupied bucket at or after `b` (no wrap-around).
    fn first_from(&self, b: usize) -> Option<usize> {
        let bits = self.occupied[b >> 6] & (!0u64 << (b & 63));
        if bits != 0 {
            return Some((b & !63) | bits.trailing_zeros() as usize);
        }
        let w = (b >> 6) + 1;
        if w >= BUCKETS / 64 {
            return None;
        }
        let words = self.summary & (!0u64 << w);
        if words == 0 {
            return None;
        }
        let w = words.trailing_zeros() as usize;
        Some(w << 6 | self.occupied[w].trailing_zeros() as usize)
    }

    /// Every pending event with its time, in no particular order (for invariant checks and
    /// the cluster view).
    pub fn iter(&self) -> impl Iterator<Item = (Ns, &E)> {
        let wheel = self.buckets.iter().flatten();
        wheel.chain(self.active[self.next..].iter()).chain(self.spill.iter()).map(|e| (e.time_ns, &e.event))
    }

    /// Event entries allocated (the buckets, the drained bucket and the heap), for the
    /// memory check; the bitmaps are fixed.
    pub fn capacity(&self) -> usize {
        self.buckets.iter().map(Vec::capacity).sum::<usize>() + self.active.capacity() + self.spill.capacity()
    }

    /// Bytes of one event entry.
    pub const fn entry_bytes() -> usize {
        std::mem::size_of::<Entry<E>>()
    }
}

/// A stable insertion sort by time: a bucket is in sequence order and nearly in time
/// order (pushes mostly come in time order), which it finishes in about one pass.
fn sort_by_time<E: Copy>(a: &mut [Entry<E>]) {
    for i in 1..a.len() {
        let time = a[i].time_ns;
        if a[i - 1].time_ns <= time {
            continue;
        }
        let moving = a[i].clone();
        let mut j = i;
        while j > 0 && a[j - 1].time_ns > time {
            a[j] = a[j - 1].clone();
            j -= 1;
        }
        a[j] = moving;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prng::Prng;

    #[test]
    fn pops_in_time_order_and_fifo_on_ties() {
        let mut q = EventQueue::default();
        q.push(30, "c");
        q.push(10, "a1");
        q.push(20, "b");
        q.push(10, "a2");
        q.push(10, "a3");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![(10, "a1"), (10, "a2"), (10, "a3"), (20, "b"), (30, "c")]);
    }

    #[test]
    fn peek_reports_earliest() {
        let mut q = EventQueue::default();
        assert_eq!(q.peek_time(), None);
        q.push(5, ());
        q.push(3, ());
        q.push(1 << 40, ());
        assert_eq!(q.peek_time(), Some(3));
        assert_eq!(q.iter().count(), 3);
    }

    /// Pushes shaped like the model's (a few constant delays, ties) and unlike it (many
    /// delays, delays past the horizon, pushes into the past, long idle gaps that wrap the
    /// wheel) pop in exactly the order of a binary heap over (time, seq).
    #[test]
    fn matches_a_binary_heap() {
        for (seed, spread, far) in [(1u64, 5u64, 0u64), (2, 40, 1), (3, 300, 5), (4, 5000, 20), (5, 1 << 16, 50)] {
            let mut rng = Prng::new(seed, 0);
            let mut q = EventQueue::default();
            let mut reference = BinaryHeap::new();
            let mut seq = 0u64;
            for _ in 0..200 {
                let t = rng.below(1 << 20);
                seq += 1;
                q.push(t, seq);
                reference.push(Entry { time_ns: t, seq, event: seq });
            }
            for step in 0..60_000 {
                if let Some(top) = reference.peek().map(|e| e.time_ns).filter(|&t| t > 0 && rng.chance(1, 4)) {
                    assert_eq!(q.pop_until(top - 1), None, "seed {seed} step {step}: nothing is due before {top}");
                }
                let got = if rng.chance(1, 2) { q.pop() } else { q.pop_until(reference.peek().map_or(0, |e| e.time_ns)) };
                let want = reference.pop().map(|e| (e.time_ns, e.event));
                assert_eq!(got, want, "seed {seed} step {step}");
                let Some((now, _)) = got else { break };
                for _ in 0..rng.below(3) {
                    let time = match rng.below(100) {
                        0 => now.saturating_sub(rng.below(50)),
                        x if x < 1 + far => now + rng.below(1 << 24),
                        _ => now + 1000 * rng.below(spread),
                    };
                    seq += 1;
                    q.push(time, seq);
                    reference.push(Entry { time_ns: time, seq, event: seq });
                }
                if step % 64 == 0 {
                    assert_eq!(q.iter().count(), reference.len());
                }
                assert_eq!(q.peek_time(), reference.peek().map(|e| e.time_ns));
            }
        }
    }

    #[test]
    fn a_warm_queue_allocates_nothing() {
        let mut q = EventQueue::default();
        // Once the wheel has turned (every bucket used), nothing grows.
        let cycle = |q: &mut EventQueue<u64>, round: u64| {
            for i in 0..10 {
                q.push(round * 100_000 + i * 5_000, i);
            }
            for _ in 0..10 {
                q.pop();
            }
        };
        for round in 0..2000 {
            cycle(&mut q, round);
        }
        let warm = q.capacity();
        for round in 2000..4000 {
            cycle(&mut q, round);
        }
        assert_eq!(q.capacity(), warm);
        assert_eq!(q.iter().count(), 0);
    }
}
