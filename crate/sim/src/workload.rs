//! What the clients run: transaction programs, as rounds of row operations. DBT2's mix
//! is built in here; every other workload is a spec (`spec/`).
//!
//! A *round* is what one NDB `execute()` sends: in mysqld one SQL statement, in an NDB
//! API program one batch. Each operation names its row (table and key) and the
//! distribution key that picks its partition. DBT2 tables are partitioned by warehouse,
//! so a transaction's rows mostly live in one partition.
//!
//! Row operations per DBT2 transaction (docs/MODEL.md §3 gives orders of magnitude; these are
//! the choices, per TPC-C clause 2):
//! - New-Order: read warehouse, lock+update district, read customer, insert order and
//!   new-order, then per order line (5..=15, mean 10; 1% from a remote warehouse) read
//!   item, lock+update stock, insert order line: about 12 reads and 23 writes in
//!   35 statements. Order lines are sorted by (warehouse, item) so stock locks are taken
//!   in one global order and New-Orders cannot deadlock.
//! - Payment: update warehouse, update district, read and update customer (15% of
//!   customers from a remote warehouse), insert HISTORY: 1 read, 4 writes, 5 statements.
//!   HISTORY has no primary key in DBT2, so the insert takes a hidden key.
//! - Order-Status: read customer, read its last order, read 10 order lines: 12 reads.
//! - Delivery: per district, read the oldest new-order, delete it, update the order,
//!   its 10 order lines and the customer: 10 reads and 130 writes in 50 statements.
//! - Stock-Level: read district, the lines of the last 20 orders (20 reads) and 20 stock
//!   rows: 41 reads in 3 statements.
//!
//! Lock order is global (warehouse, district, customer; district then stock; within a
//! delivery district by district), so no transaction mix can deadlock.

use crate::prng::Prng;

/// Table ids; a row key is `table << 56 | key`.
pub mod table {
    pub const WAREHOUSE: u64 = 1;
    pub const DISTRICT: u64 = 2;
    pub const CUSTOMER: u64 = 3;
    pub const HISTORY: u64 = 4;
    pub const NEW_ORDER: u64 = 5;
    pub const ORDERS: u64 = 6;
    pub const ORDER_LINE: u64 = 7;
    pub const ITEM: u64 = 8;
    pub const STOCK: u64 = 9;
    /// The NDB API test table.
    pub const INSERT: u64 = 11;
    /// SYSTAB_0: one counter row per table, keyed by the table id.
    pub const SYSTAB: u64 = 12;
}

/// The name of DBT2's table `id` (or the NDB API test table's, or SYSTAB_0's).
pub fn builtin_table_name(id: u64) -> &'static str {
    match id {
        table::WAREHOUSE => "warehouse",
        table::DISTRICT => "district",
        table::CUSTOMER => "customer",
        table::HISTORY => "history",
        table::NEW_ORDER => "new_order",
        table::ORDERS => "orders",
        table::ORDER_LINE => "order_line",
        table::ITEM => "item",
        table::STOCK => "stock",
        table::INSERT => "insert",
        table::SYSTAB => "SYSTAB_0",
        _ => "unknown",
    }
}

pub fn row_key(table: u64, key: u64) -> u64 {
    table << 56 | (key & ((1 << 56) - 1))
}

pub fn table_of(row: u64) -> u64 {
    row >> 56
}

pub use crate::txn_kind::{TxnKind, MAX_SPEC_TRANSACTIONS, TXN_KINDS};

/// One row operation. `dist` is the distribution key; `needs_id` marks an insert whose
/// hidden key is not known until the allocator gives it.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpSpec {
    pub row: u64,
    pub dist: u64,
    pub write: bool,
    /// A new row (a range-partitioned table counts it in its range).
    pub insert: bool,
    pub needs_id: bool,
}

/// A transaction program: operations grouped into rounds.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub ops: Vec<OpSpec>,
    /// Start index of each round in `ops`, plus `ops.len()` at the end.
    pub rounds: Vec<u16>,
    /// Rows this program inserts (counted by `insertsPerSecond`).
    pub inserts: u16,
}

impl Program {
    pub fn clear(&mut self) {
        self.ops.clear();
        self.rounds.clear();
        self.rounds.push(0);
        self.inserts = 0;
    }

    fn op(&mut self, table: u64, key: u64, dist: u64, write: bool) -> &mut Self {
        self.ops.push(OpSpec { row: row_key(table, key), dist, write, insert: false, needs_id: false });
        self
    }

    pub fn end_round(&mut self) {
        if *self.rounds.last().expect("clear() pushes the first round") as usize != self.ops.len() {
            self.rounds.push(self.ops.len() as u16);
        }
    }

    pub fn round_count(&self) -> usize {
        self.rounds.len() - 1
    }

    /// The insert whose key comes from the allocator (`primaryKey` false) or, with a
    /// primary key, from the caller's own key.
    fn insert(&mut self, table: u64, pk: Option<(u64, u64)>) {
        match pk {
            Some((key, dist)) => self.insert_keyed(OpSpec { row: row_key(table, key), dist, write: true, insert: true, needs_id: false }),
            None => self.insert_allocated(table),
        }
    }

    /// An insert into `table` whose key the id allocator will give.
    pub fn insert_allocated(&mut self, table: u64) {
        self.inserts += 1;
        self.ops.push(OpSpec { row: row_key(table, 0), dist: 0, write: true, insert: true, needs_id: true });
    }

    /// An insert whose key is known.
    pub fn insert_keyed(&mut self, op: OpSpec) {
        self.inserts += 1;
        self.ops.push(OpSpec { insert: true, ..op });
    }
}

const DISTRICTS: u64 = 10;
const CUSTOMERS: u64 = 3000;
const ITEMS: u64 = 100_000;
/// TPC-C's initial population leaves orders 2101..=3000 of each district undelivered.
const FIRST_UNDELIVERED: u32 = 2100;
const FIRST_NEW_ORDER: u32 = 3000;
/// Delivery only takes orders at least this far behind the newest, so it never touches
/// the rows of a New-Order still in flight.
const DELIVERY_LAG: u32 = 100;

/// Shared DBT2 state: per-district order counters.
#[derive(Clone, Debug)]
pub struct Dbt2State {
    warehouses: u64,
    next_order: Vec<u32>,
    next_delivery: Vec<u32>,
}

impl Dbt2State {
    pub fn new(warehouses: u32) -> Dbt2State {
        let n = warehouses as usize * DISTRICTS as usize;
        Dbt2State { warehouses: warehouses as u64, next_order: vec![FIRST_NEW_ORDER; n], next_delivery: vec![FIRST_UNDELIVERED; n] }
    }

    /// Draws the next transaction kind: 45% New-Order, 43% Payment, 4% each of the rest.
    pub fn pick_kind(rng: &mut Prng) -> TxnKind {
        match rng.below(100) {
            0..=44 => TxnKind::NEW_ORDER,
            45..=87 => TxnKind::PAYMENT,
            88..=91 => TxnKind::ORDER_STATUS,
            92..=95 => TxnKind::DELIVERY,
            _ => TxnKind::STOCK_LEVEL,
        }
    }

    /// Writes the program of a `kind` transaction for a client of warehouse `w`.
    pub fn generate(&mut self, kind: TxnKind, w: u64, history_pk: bool, rng: &mut Prng, out: &mut Program) {
        out.clear();
        let d = rng.below(DISTRICTS);
        let wd = w * DISTRICTS + d;
        match kind {
            TxnKind::NEW_ORDER => self.new_order(w, wd, rng, out),
            TxnKind::PAYMENT => self.payment(w, wd, history_pk, rng, out),
            TxnKind::ORDER_STATUS => {
                let o = self.next_order[wd as usize] as u64 - 1;
                out.op(table::CUSTOMER, wd * CUSTOMERS + rng.below(CUSTOMERS), w, false).end_round();
                out.op(table::ORDERS, wd << 28 | o, w, false).end_round();
                for line in 0..10 {
                    out.op(table::ORDER_LINE, (wd << 28 | o) << 4 | line, w, false);
                }
                out.end_round();
            }
            TxnKind::DELIVERY => self.delivery(w, rng, out),
            TxnKind::STOCK_LEVEL => {
                out.op(table::DISTRICT, wd, w, false).end_round();
                let newest = self.next_order[wd as usize] as u64;
                for o in newest - 20..newest {
                    out.op(table::ORDER_LINE, (wd << 28 | o) << 4, w, false);
                }
                out.end_round();
                for _ in 0..20 {
                    out.op(table::STOCK, w * ITEMS + rng.below(ITEMS), w, false);
                }
                out.end_round();
            }
            _ => unreachable!("not a DBT2 transaction"),
        }
    }

    fn new_order(&mut self, w: u64, wd: u64, rng: &mut Prng, out: &mut Program) {
        let o = self.next_order[wd as usize] as u64;
        self.next_order[wd as usize] += 1;
        out.op(table::WAREHOUSE, w, w, false).end_round();
        out.op(table::DISTRICT, wd, w, true).end_round();
        out.op(table::CUSTOMER, wd * CUSTOMERS + rng.below(CUSTOMERS), w, false).end_round();
        out.insert(table::ORDERS, Some((wd << 28 | o, w)));
        out.end_round();
        out.insert(table::NEW_ORDER, Some((wd << 28 | o, w)));
        out.end_round();
        let count = rng.range(5, 15) as usize;
        let mut lines = [(0u64, 0u64); 15];
        for line in lines.iter_mut().take(count) {
            let supply = if self.warehouses > 1 && rng.chance(1, 100) { self.other_warehouse(w, rng) } else { w };
            *line = (supply, rng.below(ITEMS));
        }
        let lines = &mut lines[..count];
        lines.sort_unstable();
        let mut previous = None;
        for (n, &(supply, item)) in lines.iter().enumerate() {
            if previous == Some((supply, item)) {
                continue; // The same item twice is one order line.
            }
            previous = Some((supply, item));
            out.op(table::ITEM, item, item, false).end_round();
            out.op(table::STOCK, supply * ITEMS + item, supply, true).end_round();
            out.insert(table::ORDER_LINE, Some(((wd << 28 | o) << 4 | n as u64, w)));
            out.end_round();
        }
    }

    fn payment(&mut self, w: u64, wd: u64, history_pk: bool, rng: &mut Prng, out: &mut Program) {
        out.op(table::WAREHOUSE, w, w, true).end_round();
        out.op(table::DISTRICT, wd, w, true).end_round();
        let (cw, cwd) = if self.warehouses > 1 && rng.chance(15, 100) {
            let cw = self.other_warehouse(w, rng);
            (cw, cw * DISTRICTS + rng.below(DISTRICTS))
        } else {
            (w, wd)
        };
        let c = cwd * CUSTOMERS + rng.below(CUSTOMERS);
        out.op(table::CUSTOMER, c, cw, false).end_round();
        out.op(table::CUSTOMER, c, cw, true).end_round();
        // With a primary key, HISTORY would be keyed and partitioned by warehouse.
        let pk = history_pk.then(|| (wd << 32 | rng.next_u64() >> 32, w));
        out.insert(table::HISTORY, pk);
        out.end_round();
    }

    fn delivery(&mut self, w: u64, rng: &mut Prng, out: &mut Program) {
        for d in 0..DISTRICTS {
            let wd = w * DISTRICTS + d;
            let (next, newest) = (self.next_delivery[wd as usize], self.next_order[wd as usize]);
            if next + DELIVERY_LAG >= newest {
                continue; // Nothing old enough to deliver in this district.
            }
            self.next_delivery[wd as usize] += 1;
            let o = next as u64;
            out.op(table::NEW_ORDER, wd << 28 | o, w, false).end_round();
            out.op(table::NEW_ORDER, wd << 28 | o, w, true).end_round();
            out.op(table::ORDERS, wd << 28 | o, w, true).end_round();
            for line in 0..10 {
                out.op(table::ORDER_LINE, (wd << 28 | o) << 4 | line, w, true);
            }
            out.end_round();
            out.op(table::CUSTOMER, wd * CUSTOMERS + rng.below(CUSTOMERS), w, true).end_round();
        }
        if out.ops.is_empty() {
            // Every district was caught up: the delivery only reads the district rows.
            out.op(table::DISTRICT, w * DISTRICTS, w, false).end_round();
        }
    }

    fn other_warehouse(&self, w: u64, rng: &mut Prng) -> u64 {
        (w + 1 + rng.below(self.warehouses - 1)) % self.warehouses
    }
}

/// The refill: one interpreted update of the table's SYSTAB_0 row, committed.
pub fn refill(table_id: u64, out: &mut Program) {
    out.clear();
    out.op(table::SYSTAB, table_id, table_id, true).end_round();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(p: &Program) -> (usize, usize, usize) {
        let writes = p.ops.iter().filter(|o| o.write).count();
        (p.ops.len() - writes, writes, p.round_count())
    }

    #[test]
    fn new_order_matches_the_documented_shape() {
        let mut s = Dbt2State::new(4);
        let mut rng = Prng::new(1, 1);
        let mut p = Program::default();
        let (mut reads, mut writes) = (0, 0);
        for _ in 0..1000 {
            s.generate(TxnKind::NEW_ORDER, 2, false, &mut rng, &mut p);
            let (r, w, _) = counts(&p);
            reads += r;
            writes += w;
        }
        assert!((11_500..12_500).contains(&reads), "reads {reads}");
        assert!((22_500..23_500).contains(&writes), "writes {writes}");
    }

    #[test]
    fn payment_inserts_history_with_a_hidden_key_last() {
        let mut s = Dbt2State::new(4);
        let mut p = Program::default();
        s.generate(TxnKind::PAYMENT, 0, false, &mut Prng::new(1, 1), &mut p);
        assert_eq!(counts(&p), (1, 4, 5));
        let last = p.ops.last().unwrap();
        assert!(last.needs_id && table_of(last.row) == table::HISTORY);
        s.generate(TxnKind::PAYMENT, 0, true, &mut Prng::new(1, 1), &mut p);
        assert!(!p.ops.last().unwrap().needs_id);
    }

    #[test]
    fn delivery_writes_130_rows_once_orders_are_old_enough() {
        let mut s = Dbt2State::new(1);
        let mut p = Program::default();
        s.generate(TxnKind::DELIVERY, 0, false, &mut Prng::new(1, 1), &mut p);
        assert_eq!(counts(&p), (10, 130, 50));
    }

    #[test]
    fn stock_locks_come_in_global_order() {
        let mut s = Dbt2State::new(50);
        let mut rng = Prng::new(3, 1);
        let mut p = Program::default();
        for _ in 0..200 {
            s.generate(TxnKind::NEW_ORDER, 7, false, &mut rng, &mut p);
            let stocks: Vec<u64> = p.ops.iter().filter(|o| table_of(o.row) == table::STOCK).map(|o| o.row).collect();
            assert!(stocks.windows(2).all(|w| w[0] < w[1]), "{stocks:?}");
        }
    }
}
