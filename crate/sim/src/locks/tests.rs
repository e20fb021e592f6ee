//! The lock table's tests: FIFO grants, the wait split over holders, spare queues.

use super::*;

const ROW: RowReplica = RowReplica { node: 1, row: 42 };
fn who(txn: u32) -> Owner {
    Owner { txn, op: 0, replica: 0, class: txn as u16 % 2 }
}

/// A contention episode's queues are kept when it ends and taken by the next one: one
/// pair of queues serves episode after episode, on any row.
#[test]
fn contended_locks_reuse_the_queues_of_released_ones() {
    let mut t = LockTable::default();
    let mut bytes = Vec::new();
    for episode in 0..4 {
        let row = RowReplica { node: 1, row: episode };
        assert_eq!(t.acquire(row, who(1), 10 * episode), Acquire::Granted);
        assert_eq!(t.acquire(row, who(2), 10 * episode + 1), Acquire::Queued(1));
        assert!(t.spare.is_empty(), "the episode took the spare queues");
        t.release(row, 1, 10 * episode + 2, 0);
        t.release(row, 2, 10 * episode + 3, 0);
        assert_eq!((t.held(), t.spare.len()), (0, 1), "its queues are spare again");
        bytes.push(t.memory_bytes());
    }
    assert!(bytes.windows(2).all(|w| w[0] == w[1]), "no episode grew memory: {bytes:?}");
}

#[test]
fn waiters_are_granted_in_fifo_order() {
    let mut t = LockTable::default();
    assert_eq!(t.acquire(ROW, who(1), 0), Acquire::Granted);
    assert_eq!(t.acquire(ROW, who(2), 5), Acquire::Queued(1));
    assert_eq!(t.acquire(ROW, who(3), 6), Acquire::Queued(2));
    assert_eq!(t.release(ROW, 1, 7, 0).next, Some((who(2), 5)));
    assert_eq!(t.release(ROW, 2, 8, 0), Released { held_since_ns: 7, holder_class: 0, next: Some((who(3), 6)) });
    assert_eq!(t.release(ROW, 3, 9, 0), Released { held_since_ns: 8, holder_class: 1, next: None });
    assert_eq!(t.held(), 0);
    assert_eq!((t.granted, t.released), (3, 3));
}

/// Three requests wait behind two holders: each release charges its holder with the
/// wait it caused per class, and the parts add up to every request's wait.
#[test]
fn a_wait_is_split_over_the_holders_it_waited_for() {
    let mut t = LockTable::default();
    t.acquire(ROW, who(1), 0); // class 1 holds from 0
    t.acquire(ROW, who(2), 10); // class 0 waits 10..40
    t.acquire(ROW, who(4), 20); // class 0 waits 20..70
    t.acquire(ROW, who(3), 30); // class 1 waits 30..55, then leaves (aborted)
    let r = t.release(ROW, 1, 40, 0);
    assert_eq!(r.holder_class, 1);
    // Until 40: txn 2 waited 30, txn 4 20 (class 0: 50), txn 3 10 (class 1).
    assert_eq!(t.wait_parts(), &[WaitPart { waiter: 0, ns: 50 }, WaitPart { waiter: 1, ns: 10 }]);
    assert!(t.remove_waiter(ROW, 3, 55));
    let r = t.release(ROW, 2, 70, 0);
    assert_eq!(r.holder_class, 0);
    // 40..70: txn 4 waited 30; txn 3 waited 15 more until it left at 55.
    assert_eq!(t.wait_parts(), &[WaitPart { waiter: 0, ns: 30 }, WaitPart { waiter: 1, ns: 15 }]);
    t.release(ROW, 4, 80, 0);
    assert!(t.wait_parts().is_empty());
    let waited = (40 - 10) + (70 - 20) + (55 - 30);
    assert_eq!(50 + 10 + 30 + 15, waited);
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
    t.release(ROW, 2, 0, 0);
}

/// PostgreSQL's hand-off: a release wakes every waiter, with when each started waiting; the
/// row is free for whoever asks first, and a waiter that loses it queues again keeping its
/// first wait's start; the wait they had is charged to the holder that released.
#[test]
fn release_all_wakes_every_waiter_and_frees_the_row() {
    let mut t = LockTable::default();
    t.acquire(ROW, who(1), 0);
    t.acquire(ROW, who(2), 10);
    t.acquire(ROW, who(3), 20);
    let r = t.release_all(ROW, 1, 30);
    assert_eq!(r.next, None);
    assert_eq!(t.woken, vec![(who(2), 10), (who(3), 20)]);
    assert_eq!(t.held(), 0, "the row is free");
    assert_eq!(t.wait_parts().iter().map(|p| p.ns).sum::<u64>(), 20 + 10);
    t.woken.clear();
    assert_eq!(t.acquire_since(ROW, who(3), 40, 20), Acquire::Granted, "the first to re-check takes it");
    assert_eq!(t.acquire_since(ROW, who(2), 41, 10), Acquire::Queued(1));
    assert_eq!(t.waiting(ROW, 2), Some(10), "its first wait's start");
    assert_eq!(t.waiting_since(15), vec![(2, ROW)], "found though queued behind a later start");
    assert_eq!((t.granted, t.released), (2, 1));
}
