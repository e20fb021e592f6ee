//! A user's own workload, as a new user wrote it (a PostgreSQL shop: one `counters` row
//! counted on every order, SERIAL orders and lines, two Zipfian `inventory` updates), on
//! the `modern` cluster with a cache of 1000 ids: the row that binds is `counters`'s, and
//! the summary's facts (which every surface formats) say so, not the SYSTAB_0 row.

use hotrow::{Config, Simulation};
use hotrow_sql::{import, Dialect, Options, Source};
use serde_json::json;

fn example(name: &str) -> Source {
    let path = format!("{}/../../examples/sql/{name}", env!("CARGO_MANIFEST_DIR"));
    Source { name: name.into(), text: std::fs::read_to_string(&path).expect("the example exists"), weight: None }
}

#[test]
fn the_counters_row_is_the_hot_row_and_the_headline_is_transactions() {
    let options = Options { dialect: Dialect::Postgres, ..Options::default() };
    let got = import(&[example("shop-pg-schema.sql"), example("shop-pg.sql")], &options).unwrap();
    let c = json!({ "preset": "modern", "workload": got.spec, "cacheSize": 1000, "durationMs": 1000, "warmupMs": 500 });
    let mut sim = Simulation::new(Config::from_json(&c).unwrap());
    sim.run_to_end();
    let s = sim.summary();
    let f = &s.facts;
    assert_eq!(f.headline, "transactionsPerSecond", "orders and lines are inserted, counters and inventory updated");
    let hot = f.hot_row.as_ref().expect("a hot row");
    assert_eq!((hot.table.as_str(), hot.key, hot.binds), ("counters", 0, true), "{hot:?}");
    assert!(hot.lock_busy_fraction > 0.9, "{hot:?}");
    let b = s.bottleneck.as_ref().expect("a bottleneck");
    assert_eq!(b.node, Some(hot.node), "the hot row is the bottleneck's row: {}", b.name);
    assert!(b.name.contains("`counters`"), "{}", b.name);
    // The SERIAL orders take their ids from a SYSTAB_0 counter row: the id counter row, not
    // the hot row, with a card of its own after the hot row's.
    let counter = f.counter_row.as_ref().expect("orders' ids come from a counter row");
    assert_eq!((counter.of.as_str(), counter.is_hot_row), ("orders", false));
    assert_eq!(f.cards[..4], ["transactionsPerSecond", "insertsPerSecond", "hotRow", "hotRowLockUtilization"]);
    assert!(!f.cards.contains(&"tpm"));
    assert!(!f.reference_lines);
    // The node tables mark the hot row's node and the id counter row's.
    assert_eq!(f.node_mark(hot.node), Some("hot row"));
    assert_eq!(f.node_mark(counter.node), Some("id counter row"));
}

/// Her shop's bound and next ceiling carry 95% intervals: the saturated counter row's
/// bound is the throughput, within its interval, which is as narrow as the throughput's.
#[test]
fn the_bound_and_the_next_ceiling_carry_intervals() {
    let options = Options { dialect: Dialect::Postgres, ..Options::default() };
    let got = import(&[example("shop-pg-schema.sql"), example("shop-pg.sql")], &options).unwrap();
    let s = summary_of(json!({ "preset": "modern", "workload": got.spec, "cacheSize": 1000, "durationMs": 3000, "warmupMs": 1000 }));
    let i = s.bound_intervals.as_ref().expect("20 measured windows: intervals");
    let (bound, x) = (i.bound.expect("the bound's interval"), s.intervals.as_ref().unwrap().get("transactionsPerSecond").copied().unwrap());
    let b = s.bottleneck.as_ref().unwrap().bound_transactions_per_second;
    assert!(
        (b - s.transactions_per_second).abs() <= bound.half_width + x.half_width,
        "bound {b} ± {} against {}",
        bound.half_width,
        s.transactions_per_second
    );
    assert!(bound.relative > 0.0 && bound.relative < 0.05, "{bound:?}");
    let next = i.next_ceiling.expect("the next ceiling's interval");
    assert!(next.relative > 0.0 && next.relative < 0.2, "{next:?}");
    assert!(i.method.contains("batch means"), "{i:?}");
}

fn summary_of(config: serde_json::Value) -> hotrow::Summary {
    let mut sim = Simulation::new(Config::from_json(&config).unwrap());
    sim.run_to_end();
    sim.summary()
}

/// Her shop with the order counted last (`shop-pg-counter-last.sql`): two orders can take
/// the same two `inventory` rows in opposite orders, and NDB ends each such deadlock only
/// by the 1,200 ms lock-wait timeout. The run says so: aborts/s, the cycle by statement,
/// the clients' time lost as the bound; its first remedy, the rows taken in key order,
/// measured from the start, lifts it; and "updated last", offered on the counter-first
/// shop, says that it opens this cycle.
#[test]
fn the_counter_updated_last_names_the_deadlock_and_sorted_keys_lift_it() {
    let options = Options { dialect: Dialect::Postgres, ..Options::default() };
    let got = import(&[example("shop-pg-schema.sql"), example("shop-pg-counter-last.sql")], &options).unwrap();
    let base = json!({ "preset": "modern", "workload": got.spec, "cacheSize": 1000, "durationMs": 4000, "warmupMs": 1500 });
    let s = summary_of(base.clone());
    assert!(s.aborts_per_second > 0.0 && s.lock_timeouts_per_second == s.aborts_per_second, "{} aborts/s", s.aborts_per_second);
    assert!(s.facts.cards.contains(&"abortsPerSecond"), "{:?}", s.facts.cards);
    let d = s.deadlocks.as_ref().expect("the timeouts cost a material share of the clients' time");
    assert!(d.lost_fraction > 0.5, "{d:?}");
    assert_eq!(d.tables, ["inventory"]);
    let c = &d.cycles[0];
    assert!(c.steps.iter().all(|x| x.transaction == "place_order"), "{c:?}");
    assert_eq!(
        (c.steps[0].holds.as_str(), c.steps[0].waits_at.as_str()),
        ("statement 3, update `inventory`", "statement 4, update `inventory`")
    );
    assert!(c.text.contains("opposite orders"), "{}", c.text);
    // The bound counts the time lost: the clients, each commit costing its share of the
    // waits, bind at the throughput (within 10%); no next ceiling sits below it.
    let b = s.bottleneck.as_ref().unwrap();
    assert_eq!(b.kind, hotrow::explain::Kind::Clients, "{}", b.name);
    assert!(b.name.contains("aborted lock waits"), "{}", b.name);
    assert!(
        (b.bound_transactions_per_second / s.transactions_per_second - 1.0).abs() < 0.1,
        "{} against {}",
        b.bound_transactions_per_second,
        s.transactions_per_second
    );
    let next = s.next_ceiling.as_ref().expect("a next ceiling");
    assert!(next.transactions_per_second >= b.bound_transactions_per_second, "{next:?}");
    // The first remedy: the cycle's transaction sorts its keys. Measured from the start,
    // the same seed: no timeout, and many times the throughput.
    let list = hotrow::explain::remedies(&s.config, s.bottleneck.as_ref(), s.deadlocks.as_ref());
    assert_eq!(list[0].label, "`place_order` take their rows in key order (sorted keys)");
    let mut sorted = base.clone();
    sorted["workload"] = list[0].set[0].1.clone();
    let t = summary_of(sorted);
    assert_eq!(t.lock_timeouts, 0);
    assert!(
        t.transactions_per_second > 10.0 * s.transactions_per_second,
        "{} against {}",
        t.transactions_per_second,
        s.transactions_per_second
    );
    // On the counter-first shop, "updated last" is offered with the cycle it opens said.
    let first = import(&[example("shop-pg-schema.sql"), example("shop-pg.sql")], &options).unwrap();
    let s = summary_of(json!({ "preset": "modern", "workload": first.spec, "cacheSize": 1000, "durationMs": 600, "warmupMs": 300 }));
    let list = hotrow::explain::remedies(&s.config, s.bottleneck.as_ref(), s.deadlocks.as_ref());
    let last = list.iter().find(|r| r.label.contains("updated last")).expect("offered");
    assert!(last.warning.as_deref().is_some_and(|w| w.contains("lock-order cycle") && w.contains("`inventory`")), "{last:?}");
}

/// A counter whose value the transaction reads back (an invoice number) gets no
/// unqualified slots remedy: spread over slots, the numbers stop being unique.
#[test]
fn a_counter_read_back_gets_slots_only_with_their_cost_said() {
    let schema = "-- hotrow: rows=1\nCREATE TABLE invoice_no (id INT PRIMARY KEY, n BIGINT NOT NULL);\n\
                  -- hotrow: rows=1000\nCREATE TABLE invoices (id BIGINT PRIMARY KEY, no BIGINT);\n";
    let script = "BEGIN;\nUPDATE invoice_no SET n = n + 1 WHERE id = 1;\nSELECT n FROM invoice_no WHERE id = 1;\n\
                  INSERT INTO invoices (id, no) VALUES ($1, $2);\nCOMMIT;\n";
    let src = |name: &str, text: &str| Source { name: name.into(), text: text.into(), weight: None };
    let got = import(&[src("schema.sql", schema), src("invoice.sql", script)], &Options::default()).unwrap();
    let s = summary_of(json!({ "preset": "modern", "workload": got.spec, "durationMs": 600, "warmupMs": 300 }));
    assert!(s.bottleneck.as_ref().unwrap().name.contains("`invoice_no`"), "{}", s.bottleneck.as_ref().unwrap().name);
    let list = hotrow::explain::remedies(&s.config, s.bottleneck.as_ref(), s.deadlocks.as_ref());
    let slots = list.iter().find(|r| r.label.contains("slots")).expect("offered, with its cost");
    assert!(slots.warning.as_deref().is_some_and(|w| w.contains("stop being unique and sequential")), "{slots:?}");
}
