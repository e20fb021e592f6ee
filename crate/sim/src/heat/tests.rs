//! The hot rows found exactly, and spans that restart their counts.

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
            let admit = door.came_back(HashedRow::new(hot as u64));
            let parts = if rng.chance(1, 3) {
                heat.waited(HashedRow::new(hot as u64), step);
                vec![WaitPart { waiter: 1, ns: 7 }]
            } else {
                vec![]
            };
            if admit || !parts.is_empty() || heat.tracked(HashedRow::new(hot as u64)).is_some() {
                want[hot] += held;
            }
            heat.held(HashedRow::new(hot as u64), 0, Hold { held_ns: held, ..Hold::default() }, admit, 0, &parts, step);
        } else {
            let once = 1_000 + step;
            heat.held(
                HashedRow::new(once),
                0,
                Hold { held_ns: 1_000 + rng.below(50), ..Hold::default() },
                door.came_back(HashedRow::new(once)),
                0,
                &[],
                step,
            );
        }
    }
    let top = heat.top(want[4]);
    assert_eq!(top.len(), 5, "{top:?}");
    for (rank, r) in top.iter().enumerate() {
        assert_eq!(r.row, 4 - rank as u64);
        assert_eq!(r.busy_ns, want[r.row as usize]);
        assert!(r.waits > 0 && r.wait_ns == 7 * r.waits);
        assert_eq!(r.split, vec![Split { waiter: 1, holder: 0, ns: r.wait_ns }]);
    }
    assert_eq!(heat.rows.len(), 5, "only the rows that came back were admitted");
}

/// A new span keeps the rows and restarts their counts from its first nanosecond; a
/// row that takes a slot given up counts from the moment it entered, and a row that
/// was given up and comes back starts again from then, not from its old counts.
#[test]
fn spans_restart_counts_and_a_row_counts_from_when_it_entered() {
    let mut heat = RowHeat::default();
    let hold = Hold { held_ns: 10, ..Hold::default() };
    for t in 0..3 {
        heat.held(HashedRow::new(7), 1, hold, true, 0, &[], t);
    }
    heat.restart(100);
    heat.held(HashedRow::new(7), 1, hold, false, 0, &[], 150);
    heat.held(HashedRow::new(7), 1, hold, false, 0, &[], 160);
    let top = heat.top(200);
    assert_eq!((top[0].row, top[0].since_ns, top[0].counted_ns, top[0].grants, top[0].busy_ns), (7, 100, 100, 2, 20));
    // Fill every slot with rows granted more often than row 8 will be, then let row 8
    // take the slot of the least granted: it counts from its entry.
    for row in 1_000..1_000 + SLOTS as u64 - 1 {
        for t in 0..6 {
            heat.held(HashedRow::new(row), 0, hold, true, 0, &[], 300 + t);
        }
    }
    heat.held(HashedRow::new(8), 0, hold, true, 0, &[], 500);
    heat.held(HashedRow::new(8), 0, hold, true, 0, &[], 600);
    let eight = heat.top_all(700).into_iter().find(|r| r.row == 8).expect("row 8 is tracked");
    assert_eq!((eight.since_ns, eight.counted_ns, eight.grants), (500, 200, 2));
    assert!(heat.top_all(700).iter().all(|r| r.row != 7), "row 7, granted least (5 times to the others' 6), gave its slot up");
    assert_eq!(heat.rows.len(), SLOTS);
}
