//! The event queue: events pop in (time, insertion sequence) order, FIFO on ties, so the
//! run does not depend on the queue's internal layout. This is the only source of ordering
//! in the simulation.
//!
//! It is shaped by the model's delays. Almost every event is scheduled a *constant* delay
//! after the current time: a message arrives one network latency after it is sent, a
//! thread finishes a message one CPU cost (of a handful of kinds) after it starts it.
//! Events pushed with the same delay arrive in time order, because the clock never runs
//! backwards, so each delay gets a plain FIFO *lane*: pushing is an append. A tiny binary
//! heap over the lanes' first events (a few dozen at most) merges them. Events whose
//! delay has no lane (all lanes taken by other delays, or pushed into the past) go to one
//! ordinary binary heap that takes part in the merge. The order is exactly that of one
//! binary heap over (time, seq) — `tests::matches_a_binary_heap` checks it — at a
//! fraction of the cost: the common push touches one cache line and a pop sifts a heap of
//! lanes, not of every pending event.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// Simulated time in nanoseconds since the start of the run.
pub type Ns = u64;

/// Lanes at most; a delay beyond them uses the shared heap (or reuses an empty lane).
const MAX_LANES: usize = 64;
/// Direct-mapped cache from a delay to its lane.
const CACHE_SLOTS: usize = 256;

struct Entry<E> {
    time: Ns,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.time, self.seq) == (other.time, other.seq)
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
        (other.time, other.seq).cmp(&(self.time, self.seq))
    }
}

/// Events pushed with one delay, in push order (which is time order).
struct Lane<E> {
    delay: Ns,
    items: VecDeque<Entry<E>>,
}

/// The first event of a non-empty lane, as the merge heap orders it.
#[derive(Clone, Copy)]
struct Head {
    time: Ns,
    seq: u64,
    lane: u32,
}

impl Head {
    fn key(&self) -> (Ns, u64) {
        (self.time, self.seq)
    }
}

pub struct EventQueue<E> {
    lanes: Vec<Lane<E>>,
    /// Min-heap of the non-empty lanes' heads, by (time, seq).
    heads: Vec<Head>,
    /// `delay -> lane + 1` (0 = empty slot); a hint, checked against the lane's delay.
    cache: Box<[(Ns, u32); CACHE_SLOTS]>,
    /// Events that fit no lane.
    spill: BinaryHeap<Entry<E>>,
    seq: u64,
    /// Time of the last event popped: delays are measured from it.
    now: Ns,
    len: usize,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue::with_capacity(0)
    }
}

impl<E> EventQueue<E> {
    /// `capacity` sizes the shared heap; lanes grow as they are used and keep their size.
    pub fn with_capacity(capacity: usize) -> Self {
        EventQueue {
            lanes: Vec::with_capacity(MAX_LANES),
            heads: Vec::with_capacity(MAX_LANES),
            cache: Box::new([(0, 0); CACHE_SLOTS]),
            spill: BinaryHeap::with_capacity(capacity),
            seq: 0,
            now: 0,
            len: 0,
        }
    }

    pub fn push(&mut self, time: Ns, event: E) {
        self.seq += 1;
        self.len += 1;
        let entry = Entry { time, seq: self.seq, event };
        if time < self.now {
            self.spill.push(entry); // Into the past: only the heap orders it right.
            return;
        }
        match self.lane_for(time - self.now) {
            Some(l) => {
                let items = &mut self.lanes[l].items;
                debug_assert!(items.back().map_or(true, |b| (b.time, b.seq) < (time, entry.seq)));
                let was_empty = items.is_empty();
                items.push_back(entry);
                if was_empty {
                    self.heads.push(Head { time, seq: self.seq, lane: l as u32 });
                    self.sift_up(self.heads.len() - 1);
                }
            }
            None => self.spill.push(entry),
        }
    }

    /// The lane of `delay`: its own, a new one, or an empty one taken over; None when
    /// every lane is in use by other delays.
    fn lane_for(&mut self, delay: Ns) -> Option<usize> {
        let slot = (delay.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % CACHE_SLOTS;
        let (d, l) = self.cache[slot];
        if l != 0 && d == delay && self.lanes[l as usize - 1].delay == delay {
            return Some(l as usize - 1);
        }
        let l = match self.lanes.iter().position(|lane| lane.delay == delay) {
            Some(l) => l,
            None if self.lanes.len() < MAX_LANES => {
                self.lanes.push(Lane { delay, items: VecDeque::new() });
                self.lanes.len() - 1
            }
            None => {
                let l = self.lanes.iter().position(|lane| lane.items.is_empty())?;
                self.lanes[l].delay = delay;
                l
            }
        };
        self.cache[slot] = (delay, l as u32 + 1);
        Some(l)
    }

    pub fn pop(&mut self) -> Option<(Ns, E)> {
        let from_spill = match (self.heads.first(), self.spill.peek()) {
            (Some(h), Some(s)) => (s.time, s.seq) < h.key(),
            (None, Some(_)) => true,
            (_, None) => false,
        };
        let entry = if from_spill {
            self.spill.pop()?
        } else {
            let head = *self.heads.first()?;
            let lane = &mut self.lanes[head.lane as usize];
            let entry = lane.items.pop_front().expect("a head names a non-empty lane");
            match lane.items.front() {
                Some(next) => {
                    self.heads[0].time = next.time;
                    self.heads[0].seq = next.seq;
                    self.sift_down(0);
                }
                None => {
                    let last = self.heads.pop().expect("not empty");
                    if !self.heads.is_empty() {
                        self.heads[0] = last;
                        self.sift_down(0);
                    }
                }
            }
            entry
        };
        // An event pushed into the past pops late; the clock of delays never goes back.
        self.now = self.now.max(entry.time);
        self.len -= 1;
        Some((entry.time, entry.event))
    }

    pub fn peek_time(&self) -> Option<Ns> {
        match (self.heads.first(), self.spill.peek()) {
            (Some(h), Some(s)) => Some(h.time.min(s.time)),
            (Some(h), None) => Some(h.time),
            (None, Some(s)) => Some(s.time),
            (None, None) => None,
        }
    }

    fn sift_up(&mut self, mut i: usize) {
        let h = self.heads[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.heads[parent].key() <= h.key() {
                break;
            }
            self.heads[i] = self.heads[parent];
            i = parent;
        }
        self.heads[i] = h;
    }

    fn sift_down(&mut self, mut i: usize) {
        let n = self.heads.len();
        let h = self.heads[i];
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && self.heads[right].key() < self.heads[left].key() { right } else { left };
            if h.key() <= self.heads[child].key() {
                break;
            }
            self.heads[i] = self.heads[child];
            i = child;
        }
        self.heads[i] = h;
    }

    /// Every pending event, in no particular order (for invariant checks).
    pub fn iter(&self) -> impl Iterator<Item = &E> {
        self.lanes.iter().flat_map(|l| l.items.iter()).chain(self.spill.iter()).map(|e| &e.event)
    }

    /// Event slots allocated (lanes and the shared heap), for the memory check.
    pub fn capacity(&self) -> usize {
        self.lanes.iter().map(|l| l.items.capacity()).sum::<usize>() + self.spill.capacity()
    }

    /// Bytes of one event slot.
    pub const fn slot_bytes() -> usize {
        std::mem::size_of::<Entry<E>>()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
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
        assert_eq!(q.peek_time(), Some(3));
        assert_eq!(q.len(), 2);
    }

    /// Pushes shaped like the model's (a few constant delays, with ties) and unlike it
    /// (more distinct delays than lanes, pushes into the past) pop in exactly the order
    /// of a binary heap over (time, seq).
    #[test]
    fn matches_a_binary_heap() {
        for (seed, distinct) in [(1u64, 5u64), (2, 40), (3, 300), (4, 5000)] {
            let mut rng = Prng::new(seed, 0);
            let mut q = EventQueue::default();
            let mut reference = BinaryHeap::new();
            let mut seq = 0u64;
            for _ in 0..200 {
                let t = rng.below(1000);
                seq += 1;
                q.push(t, seq);
                reference.push(Entry { time: t, seq, event: seq });
            }
            for step in 0..50_000 {
                let got = q.pop();
                let want = reference.pop().map(|e| (e.time, e.event));
                assert_eq!(got, want, "seed {seed} step {step}");
                let Some((t, _)) = got else { break };
                let now = t;
                for _ in 0..rng.below(3) {
                    let time = if rng.chance(1, 100) { now.saturating_sub(rng.below(50)) } else { now + 10 * rng.below(distinct) };
                    seq += 1;
                    q.push(time, seq);
                    reference.push(Entry { time, seq, event: seq });
                }
                assert_eq!(q.len(), reference.len());
                assert_eq!(q.peek_time(), reference.peek().map(|e| e.time));
            }
        }
    }
}
