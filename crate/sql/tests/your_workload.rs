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
