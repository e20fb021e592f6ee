//! Exclusive row locks with FIFO wait queues, one lock per row replica.
//!
//! A lock exists only while held, so memory follows the number of locked rows, not the
//! table sizes. Reads under READ COMMITTED take no lock; writes and `FOR UPDATE` reads
//! take this exclusive lock, held at the primary until COMMIT and at a backup until
//! COMPLETE. Waiters are served strictly in arrival order.

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
}

#[derive(Clone, Debug)]
struct Lock {
    holder: Owner,
    /// When the holder got it.
    granted_at: Ns,
    waiters: VecDeque<(Owner, Ns)>,
}

/// Fibonacci hashing of the already well-distributed key fields: fast. Its output decides
/// nothing: the model only looks locks up by key; `holders` and `drop_node` iterate the
/// map, but the first only feeds invariant checks and the second removes every lock of a
/// node, whatever the order.
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
}

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
        match self.locks.entry(row) {
            Entry::Vacant(v) => {
                v.insert(Lock { holder: who, granted_at: now, waiters: VecDeque::new() });
                self.granted += 1;
                Acquire::Granted
            }
            Entry::Occupied(mut o) => {
                let lock = o.get_mut();
                assert!(lock.holder.txn != who.txn, "txn {} locks row {row:?} twice", who.txn);
                lock.waiters.push_back((who, now));
                Acquire::Queued(lock.waiters.len())
            }
        }
    }

    /// Releases `row`, held by `txn`, at `now`. Returns when `txn` got it, and the next
    /// owner, now holding it, with the time it started waiting.
    pub fn release(&mut self, row: RowReplica, txn: u32, now: Ns) -> (Ns, Option<(Owner, Ns)>) {
        let Entry::Occupied(mut o) = self.locks.entry(row) else {
            panic!("release of unlocked row {row:?} by txn {txn}");
        };
        let lock = o.get_mut();
        assert_eq!(lock.holder.txn, txn, "txn {txn} releases a lock it does not hold");
        self.released += 1;
        let held_since = lock.granted_at;
        let next = match lock.waiters.pop_front() {
            Some((next, since)) => {
                lock.holder = next;
                lock.granted_at = now;
                self.granted += 1;
                Some((next, since))
            }
            None => {
                o.remove();
                None
            }
        };
        (held_since, next)
    }

    /// Transactions with a lock request waiting since `since` or earlier, in id order (not
    /// the map's, which may differ between targets).
    pub fn waiting_since(&self, since: Ns) -> Vec<u32> {
        let mut txns: Vec<u32> =
            self.locks.values().flat_map(|l| l.waiters.iter()).filter(|(_, t)| *t <= since).map(|(w, _)| w.txn).collect();
        txns.sort_unstable();
        txns.dedup();
        txns
    }

    /// Whether transaction `txn` has a lock request waiting since `since` or earlier.
    pub fn waits_since(&self, txn: u32, since: Ns) -> bool {
        self.locks.values().any(|l| l.waiters.iter().any(|(w, t)| w.txn == txn && *t <= since))
    }

    /// The transaction holding `row`, if any.
    pub fn holder(&self, row: RowReplica) -> Option<u32> {
        self.locks.get(&row).map(|l| l.holder.txn)
    }

    /// Takes `txn` out of `row`'s wait queue; true if it was there.
    pub fn remove_waiter(&mut self, row: RowReplica, txn: u32) -> bool {
        let Some(lock) = self.locks.get_mut(&row) else { return false };
        let before = lock.waiters.len();
        lock.waiters.retain(|(o, _)| o.txn != txn);
        lock.waiters.len() != before
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

    /// Bytes of the lock map and its wait queues (capacities).
    pub fn memory_bytes(&self) -> usize {
        let entry = std::mem::size_of::<(RowReplica, Lock)>() + 8;
        self.locks.capacity() * entry + self.locks.values().map(|l| l.waiters.capacity() * 24).sum::<usize>()
    }

    pub fn held(&self) -> usize {
        self.locks.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW: RowReplica = RowReplica { node: 1, row: 42 };
    fn who(txn: u32) -> Owner {
        Owner { txn, op: 0, replica: 0 }
    }

    #[test]
    fn waiters_are_granted_in_fifo_order() {
        let mut t = LockTable::default();
        assert_eq!(t.acquire(ROW, who(1), 0), Acquire::Granted);
        assert_eq!(t.acquire(ROW, who(2), 5), Acquire::Queued(1));
        assert_eq!(t.acquire(ROW, who(3), 6), Acquire::Queued(2));
        assert_eq!(t.release(ROW, 1, 7).1, Some((who(2), 5)));
        assert_eq!(t.release(ROW, 2, 8), (7, Some((who(3), 6))));
        assert_eq!(t.release(ROW, 3, 9), (8, None));
        assert_eq!(t.held(), 0);
        assert_eq!((t.granted, t.released), (3, 3));
    }

    #[test]
    fn replicas_lock_independently() {
        let mut t = LockTable::default();
        assert_eq!(t.acquire(ROW, who(1), 0), Acquire::Granted);
        assert_eq!(t.acquire(RowReplica { node: 2, ..ROW }, who(2), 0), Acquire::Granted);
    }

    #[test]
    #[should_panic(expected = "does not hold")]
    fn releasing_someone_elses_lock_is_a_bug() {
        let mut t = LockTable::default();
        t.acquire(ROW, who(1), 0);
        t.release(ROW, 2, 0);
    }
}
