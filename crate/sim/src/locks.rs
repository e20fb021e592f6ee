//! Exclusive row locks with FIFO wait queues, one lock per row replica.
//!
//! A lock exists only while held, so memory follows the number of locked rows, not the
//! table sizes. Reads under READ COMMITTED take no lock; writes and `FOR UPDATE` reads
//! take this exclusive lock, held at the primary until COMMIT and at a backup until
//! COMPLETE. Waiters are served strictly in arrival order.
//!
//! Who waits for whom, exactly: every request carries its *class* (the transaction's kind
//! and what its operation does, `Owner::class`). While a lock has waiters, it integrates
//! the number waiting per class over time; when a holder releases it, that integral is
//! the wait the holder caused to each class during its tenure. Summed over the tenures,
//! the parts are the lock's whole wait time (the integral of its queue length), split
//! over the holders that held the lock while each request waited.

use crate::time::Ns;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// A row replica: the data node holding it and the row's global key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowReplica {
    pub node: u32,
    pub row: u64,
}

/// Who wants or holds a lock: a transaction and the index of its operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner {
    pub txn: u32,
    pub op: u16,
    pub replica: u8,
    /// Who it is, for the wait split: a transaction kind and an operation verb
    /// (`waits::class`).
    pub class: u16,
}

/// Requests of one class waiting now, and their wait summed over the current tenure.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    class: u16,
    count: u32,
    ns: u64,
}

#[derive(Clone, Debug)]
struct Lock {
    holder: Owner,
    /// When the holder got it.
    granted_at_ns: Ns,
    waiters: VecDeque<(Owner, Ns)>,
    /// Waiters per class and their wait in this tenure, integrated up to `since`.
    classes: Vec<Waiting>,
    since_ns: Ns,
}

impl Lock {
    /// Adds the wait of everyone queued from `since` to `now`.
    fn integrate(&mut self, now: Ns) {
        let dt = now - self.since_ns;
        if dt > 0 {
            for w in &mut self.classes {
                w.ns += w.count as u64 * dt;
            }
        }
        self.since_ns = now;
    }

    fn count(&mut self, class: u16, delta: i32) {
        match self.classes.iter_mut().find(|w| w.class == class) {
            Some(w) => w.count = (w.count as i32 + delta) as u32,
            None => {
                debug_assert!(delta > 0, "a waiter leaves a class never counted");
                self.classes.push(Waiting { class, count: delta as u32, ns: 0 });
            }
        }
    }
}

/// One part of a released lock's wait: requests of class `waiter` waited `ns` in all
/// while the releasing holder had the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaitPart {
    pub waiter: u16,
    pub ns: u64,
}

/// What releasing a lock tells: when the holder got it, the wait it caused, and the next
/// owner (now holding it) with the time it started waiting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Released {
    pub held_since_ns: Ns,
    /// The class of the holder that released it.
    pub holder_class: u16,
    pub next: Option<(Owner, Ns)>,
}

/// Fibonacci hashing of the already well-distributed key fields: fast. Its output decides
/// nothing: the model only looks locks up by key; `holders`, `drop_node` and
/// `waiting_since` iterate the map, but the first only feeds invariant checks, the second
/// removes every lock of a node, whatever the order, and the third sorts what it finds.
#[derive(Clone, Default)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64)
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(29) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

#[derive(Clone, Default)]
pub struct LockTable {
    locks: FastMap<RowReplica, Lock>,
    /// Locks granted and released, for the conservation check.
    pub granted: u64,
    pub released: u64,
    /// The wait the last release's holder caused, per waiting class (reused buffer).
    parts: Vec<WaitPart>,
    /// The waiters the last `release_all` woke, with when each started waiting (reused
    /// buffer: the caller reads and clears it).
    pub woken: Vec<(Owner, Ns)>,
    /// Wait queues of locks released since (empty, with their capacity), which the next
    /// locks to get a first waiter take: a contention episode allocates only when none is
    /// spare (at most `SPARE` are kept) or its queue outgrows what it held before.
    spare: Vec<Queues>,
}

/// A lock's wait queue and its count per class.
type Queues = (VecDeque<(Owner, Ns)>, Vec<Waiting>);

/// Most spare queues kept.
const SPARE: usize = 64;

/// The result of asking for a lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Acquire {
    Granted,
    /// Queued behind this many earlier requests (holder included).
    Queued(usize),
}

impl LockTable {
    /// Asks for the exclusive lock of `row` on behalf of `who` at time `now`.
    pub fn acquire(&mut self, row: RowReplica, who: Owner, now: Ns) -> Acquire {
        self.acquire_since(row, who, now, now)
    }

    /// Asks for the lock at `now` for a request waiting since `since` (a woken waiter
    /// that lost the row again keeps its first wait's start: `release_all`).
    pub fn acquire_since(&mut self, row: RowReplica, who: Owner, now: Ns, since: Ns) -> Acquire {
        match self.locks.entry(row) {
            Entry::Vacant(v) => {
                v.insert(Lock { holder: who, granted_at_ns: now, waiters: VecDeque::new(), classes: Vec::new(), since_ns: now });
                self.granted += 1;
                Acquire::Granted
            }
            Entry::Occupied(mut o) => {
                let lock = o.get_mut();
                assert!(lock.holder.txn != who.txn, "txn {} locks row {row:?} twice", who.txn);
                if lock.waiters.capacity() == 0 {
                    // Its first waiter: the queues of a lock released since, if any.
                    if let Some((waiters, classes)) = self.spare.pop() {
                        (lock.waiters, lock.classes) = (waiters, classes);
                    }
                }
                lock.integrate(now);
                lock.count(who.class, 1);
                lock.waiters.push_back((who, since));
                Acquire::Queued(lock.waiters.len())
            }
        }
    }

    /// Releases `row`, held by `txn`, at `now`; waiter number `pick` of the queue (0: the
    /// first) gets it. The wait the holder caused is in [`LockTable::parts`] until the next
    /// release.
    pub fn release(&mut self, row: RowReplica, txn: u32, now: Ns, pick: usize) -> Released {
        let Entry::Occupied(mut o) = self.locks.entry(row) else {
            panic!("release of unlocked row {row:?} by txn {txn}");
        };
        let lock = o.get_mut();
        assert_eq!(lock.holder.txn, txn, "txn {txn} releases a lock it does not hold");
        self.released += 1;
        self.parts.clear();
        let released = Released { held_since_ns: lock.granted_at_ns, holder_class: lock.holder.class, next: None };
        if lock.waiters.is_empty() {
            let Lock { waiters, mut classes, .. } = o.remove();
            if waiters.capacity() > 0 && self.spare.len() < SPARE {
                classes.clear();
                self.spare.push((waiters, classes));
            }
            return released;
        }
        lock.integrate(now);
        for w in &mut lock.classes {
            if w.ns > 0 {
                self.parts.push(WaitPart { waiter: w.class, ns: std::mem::take(&mut w.ns) });
            }
        }
        let (next, since) = if pick == 0 { lock.waiters.pop_front() } else { lock.waiters.remove(pick) }.expect("waiters");
        lock.count(next.class, -1);
        lock.classes.retain(|w| w.count > 0);
        lock.holder = next;
        lock.granted_at_ns = now;
        self.granted += 1;
        Released { next: Some((next, since)), ..released }
    }

    /// Releases `row` and wakes every waiter instead of granting the first: they leave the
    /// queue for [`LockTable::woken`] and the row is free, for whoever asks first (a
    /// woken waiter re-checking it, or a newcomer). PostgreSQL's hand-off of a row. The
    /// wait each caused is charged to the holder, as `release` charges it.
    pub fn release_all(&mut self, row: RowReplica, txn: u32, now: Ns) -> Released {
        let mut lock = self.locks.remove(&row).unwrap_or_else(|| panic!("release of unlocked row {row:?} by txn {txn}"));
        assert_eq!(lock.holder.txn, txn, "txn {txn} releases a lock it does not hold");
        self.released += 1;
        self.parts.clear();
        lock.integrate(now);
        self.parts.extend(lock.classes.iter().filter(|w| w.ns > 0).map(|w| WaitPart { waiter: w.class, ns: w.ns }));
        self.woken.extend(lock.waiters.drain(..));
        if lock.waiters.capacity() > 0 && self.spare.len() < SPARE {
            lock.classes.clear();
            self.spare.push((lock.waiters, lock.classes));
        }
        Released { held_since_ns: lock.granted_at_ns, holder_class: lock.holder.class, next: None }
    }

    /// The wait the last released holder caused, per waiting class.
    pub fn wait_parts(&self) -> &[WaitPart] {
        &self.parts
    }

    /// Lock requests waiting since `since` or earlier, as (transaction, row), by
    /// transaction (not the map's order, which may differ between targets; a transaction's
    /// rows come in no particular order, and the caller only asks whether any still waits).
    /// One pass over the waiters (not only a queue's first ones: a woken waiter that lost
    /// the row again queues behind later ones with its first wait's start).
    pub fn waiting_since(&self, since: Ns) -> Vec<(u32, RowReplica)> {
        let mut rows = Vec::new();
        let mut order: Vec<(u64, u64)> = Vec::new();
        for (row, l) in &self.locks {
            for (w, _) in l.waiters.iter().filter(|(_, t)| *t <= since) {
                order.push((w.txn as u64, rows.len() as u64));
                rows.push(*row);
            }
        }
        // Sorted as pairs of u64, a sort the model has already (the WebAssembly module
        // does not grow by another).
        order.sort_unstable();
        order.into_iter().map(|(txn, i)| (txn as u32, rows[i as usize])).collect()
    }

    /// The requests waiting for `row`, first first, with since when each waits.
    pub fn waiters(&self, row: RowReplica) -> impl Iterator<Item = &(Owner, Ns)> + '_ {
        self.locks.get(&row).into_iter().flat_map(|l| l.waiters.iter())
    }

    /// How many requests wait for `row`.
    pub fn queue_len(&self, row: RowReplica) -> usize {
        self.locks.get(&row).map_or(0, |l| l.waiters.len())
    }

    /// Who holds `row` (its transaction and operation), if anyone.
    pub fn owner(&self, row: RowReplica) -> Option<Owner> {
        self.locks.get(&row).map(|l| l.holder)
    }

    /// Backdates the grant of `row`'s lock, just acquired, to `at`: a woken waiter that
    /// took the row counts its hand-off as the lock's (`sim/server.rs`).
    pub fn backdate(&mut self, row: RowReplica, at: Ns) {
        if let Some(l) = self.locks.get_mut(&row) {
            l.granted_at_ns = at.min(l.granted_at_ns);
        }
    }

    /// Since when `txn` has waited for `row`, if it waits there.
    pub fn waiting(&self, row: RowReplica, txn: u32) -> Option<Ns> {
        self.locks.get(&row)?.waiters.iter().find(|(o, _)| o.txn == txn).map(|&(_, since)| since)
    }

    /// The transaction holding `row`, if any.
    pub fn holder(&self, row: RowReplica) -> Option<u32> {
        self.locks.get(&row).map(|l| l.holder.txn)
    }

    /// Takes `txn` out of `row`'s wait queue; true if it was there.
    /// The wait it had so far stays in the lock's tenure and is charged to the holder.
    pub fn remove_waiter(&mut self, row: RowReplica, txn: u32, now: Ns) -> bool {
        let Some(lock) = self.locks.get_mut(&row) else { return false };
        let Some(i) = lock.waiters.iter().position(|(o, _)| o.txn == txn) else { return false };
        lock.integrate(now);
        let (who, _) = lock.waiters.remove(i).expect("found");
        lock.count(who.class, -1);
        true
    }

    /// A node failed: every lock on it is gone, held or awaited. Counted as released.
    pub fn drop_node(&mut self, node: u32) {
        let before = self.locks.len();
        self.locks.retain(|row, _| row.node != node);
        self.released += (before - self.locks.len()) as u64;
    }

    /// Every lock holder (for invariant checks; in no particular order).
    pub fn holders(&self) -> impl Iterator<Item = (RowReplica, u32)> + '_ {
        self.locks.iter().map(|(r, l)| (*r, l.holder.txn))
    }

    /// Bytes of the lock map and its wait queues (capacities), spare ones included.
    pub fn memory_bytes(&self) -> usize {
        let entry = std::mem::size_of::<(RowReplica, Lock)>() + 8;
        let queues = |(w, c): (&VecDeque<(Owner, Ns)>, &Vec<Waiting>)| w.capacity() * 24 + c.capacity() * 16;
        self.locks.capacity() * entry
            + self.locks.values().map(|l| queues((&l.waiters, &l.classes))).sum::<usize>()
            + self.spare.iter().map(|(w, c)| queues((w, c))).sum::<usize>()
            + self.spare.capacity() * std::mem::size_of::<Queues>()
            + self.parts.capacity() * 16
            + self.woken.capacity() * 24
    }

    pub fn held(&self) -> usize {
        self.locks.len()
    }
}

#[cfg(test)]
mod tests;
