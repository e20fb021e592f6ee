//! Lock-order cycles, as the run saw them: when a lock wait times out, the simulation
//! follows who waits for whom from the transaction timed out (`sim/deadlock.rs`); a walk
//! that comes back to a transaction it met found a cycle (a deadlock, which NDB ends only
//! by the timeout; the one timed out is in it or queued behind it), and its shape is
//! counted here. For the explanation only (`explain/deadlocks.rs`): nothing
//! the model does reads it, and no digest feeds it.

/// An operation of a transaction, by what it does rather than its row: its table, its
/// number among the transaction's operations on that table (0: the first), and whether
/// it inserts the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpAt {
    pub table: u64,
    pub nth: u16,
    pub insert: bool,
}

/// One transaction of a cycle: its kind (`TxnKind::index`), the operation whose lock it
/// held (the one the transaction before it in the cycle waited for) and the operation at
/// which it waited itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub kind: u8,
    pub holds: OpAt,
    pub waits: OpAt,
}

/// Most distinct cycle shapes kept; more are counted in `other_shapes`.
pub const MAX_SHAPES: usize = 16;

/// The lock-wait timeouts after warm-up by the cycle their wait led to, if any.
#[derive(Clone, Debug, Default)]
pub struct Cycles {
    /// Each cycle shape (as first seen, from whichever member) and its timeouts, in the order
    /// first seen.
    pub shapes: Vec<(Vec<Link>, u64)>,
    /// Timeouts in cycles of shapes past `MAX_SHAPES`.
    pub other_shapes: u64,
    /// Timeouts whose wait led to no cycle (a long queue behind a holder that waits for
    /// nothing, or a chain past `MAX_CYCLE`).
    pub outside: u64,
}

impl Cycles {
    /// Counts a timeout whose wait led to the cycle `links` (in wait order, from any member).
    pub fn add(&mut self, links: Vec<Link>) {
        // The same cycle from another member is a rotation of one seen.
        let n = links.len();
        let rotation = |l: &[Link]| l.len() == n && (0..n).any(|k| (0..n).all(|i| l[i] == links[(i + k) % n]));
        if let Some(seen) = self.shapes.iter_mut().find(|(l, _)| rotation(l)) {
            seen.1 += 1;
        } else if self.shapes.len() < MAX_SHAPES {
            self.shapes.push((links, 1));
        } else {
            self.other_shapes += 1;
        }
    }

    /// Timeouts whose wait led to a cycle.
    pub fn in_cycles(&self) -> u64 {
        self.shapes.iter().map(|(_, n)| n).sum::<u64>() + self.other_shapes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(kind: u8, holds: u16, waits: u16) -> Link {
        let at = |nth| OpAt { table: 20, nth, insert: false };
        Link { kind, holds: at(holds), waits: at(waits) }
    }

    #[test]
    fn a_cycle_is_one_shape_whichever_member_timed_out() {
        let mut c = Cycles::default();
        c.add(vec![link(0, 1, 0), link(0, 0, 1)]);
        c.add(vec![link(0, 0, 1), link(0, 1, 0)]);
        c.add(vec![link(1, 0, 1), link(0, 1, 0)]);
        assert_eq!(c.shapes.len(), 2);
        assert_eq!(c.shapes[0], (vec![link(0, 1, 0), link(0, 0, 1)], 2));
        assert_eq!(c.in_cycles(), 3);
    }

    #[test]
    fn shapes_past_the_most_kept_are_counted_together() {
        let mut c = Cycles::default();
        for k in 0..MAX_SHAPES as u8 + 3 {
            c.add(vec![link(k, 0, 1), link(k, 1, 0)]);
        }
        assert_eq!(c.shapes.len(), MAX_SHAPES);
        assert_eq!(c.other_shapes, 3);
        assert_eq!(c.in_cycles(), MAX_SHAPES as u64 + 3);
    }
}
