//! Service times that vary (`cpu.serviceCv`) and one scale on every CPU cost
//! (`cpu.scale`): what each must do to a run's numbers.

use crate::{close, run};
use hotrow::{Config, Simulation};
use serde_json::json;

/// Services at `scale` and `cv`, over a network whose delays do not vary.
fn cpu(scale: f64, cv: f64) -> serde_json::Value {
    json!({ "cpu": { "scale": scale, "serviceCv": cv }, "network": { "latencyCv": 0.0 }, "durationMs": 500, "warmupMs": 100 })
}

/// Under one hot row (NDB API inserts, cache 1: every insert waits for the counter row),
/// deterministic services give every insert nearly one response time (the 99th percentile
/// within a bucket of the latency histogram, about 5%, of the median); services that vary
/// spread it, the 99th percentile more than a bucket above the median. (With 8 clients: with many more,
/// a response is the sum of so many holds of the row that its spread narrows.)
#[test]
fn varying_services_spread_the_response_time_under_a_hot_row() {
    let hot = |cv| {
        let mut o = cpu(1.0, cv);
        o["clientsPerApiNode"] = 8.into();
        run("ndbapi-hidden-pk", o)
    };
    let fixed = hot(0.0);
    assert!(fixed.latency_us.p99 <= fixed.latency_us.p50 * 1.06, "{:?}", fixed.latency_us);
    let varying = hot(1.0);
    assert!(varying.latency_us.p99 > varying.latency_us.p50 * 1.06, "{:?}", varying.latency_us);
    assert_eq!(varying.bottleneck.as_ref().map(|b| b.kind), fixed.bottleneck.as_ref().map(|b| b.kind));
}

/// Every service takes its cost times the scale: each data-node thread's mean service
/// time doubles with scale 2 (NDB API inserts: one kind of transaction, so the mix of
/// messages a thread serves does not move with the load).
#[test]
fn the_scale_multiplies_every_service_time() {
    let one = run("ndbapi-pk", cpu(1.0, 0.0));
    let two = run("ndbapi-pk", cpu(2.0, 0.0));
    for (a, b) in one.nodes.iter().zip(&two.nodes) {
        for (s1, s2) in a.thread_service_mean_us.iter().zip(&b.thread_service_mean_us) {
            assert!(close(*s2, 2.0 * s1, 0.002), "node {}: {s1} us -> {s2} us", a.id);
        }
    }
}

/// Drawn service times keep their mean: a thread's mean service time with cv 1 is the
/// deterministic one, within the sampling error of a run.
#[test]
fn drawn_services_keep_their_mean() {
    let fixed = run("bug39267", cpu(1.0, 0.0));
    let drawn = run("bug39267", cpu(1.0, 1.0));
    for (a, b) in fixed.nodes.iter().zip(&drawn.nodes) {
        for (s1, s2) in a.thread_service_mean_us.iter().zip(&b.thread_service_mean_us) {
            assert!(close(*s2, *s1, 0.03), "node {}: {s1} us deterministic, {s2} us drawn", a.id);
        }
    }
}

/// Both are live: a running simulation takes them, and a value out of range is refused
/// with its range named and changes nothing.
#[test]
fn scale_and_spread_are_live_and_checked() {
    let config = Config::from_json(&json!({ "preset": "bug39267", "durationMs": 200, "warmupMs": 50 })).unwrap();
    let mut sim = Simulation::new(config);
    sim.run_until(hotrow::time::from_ms(50));
    sim.set("cpu.scale", json!(0.5)).unwrap();
    sim.set("cpu.serviceCv", json!(0.7)).unwrap();
    assert_eq!((sim.config().cpu.scale, sim.config().cpu.service_cv), (0.5, 0.7));
    let e = sim.set("cpu.serviceCv", json!(5)).unwrap_err();
    assert_eq!(e.field, "cpu.serviceCv");
    assert!(e.to_string().contains("from 0 to 4"), "{e}");
    let e = sim.set("cpu.scale", json!(0)).unwrap_err();
    assert!(e.to_string().contains("from 0.01 to 100"), "{e}");
    assert_eq!(sim.config().cpu.service_cv, 0.7);
    sim.run_to_end();
    sim.check_invariants().unwrap();
}

/// A config in which a transaction could take no simulated time is refused: the run
/// would never advance.
#[test]
fn a_run_that_could_not_advance_is_refused() {
    let mut costs = serde_json::Map::new();
    for name in ["apiStatementNs", "apiExecuteNs", "apiOpNs"] {
        costs.insert(name.into(), 0.into());
    }
    let e = Config::from_json(&json!({ "thinkTimeUs": 0, "network": { "latencyUs": 0 }, "cpu": costs })).unwrap_err();
    assert_eq!(e.field, "thinkTimeUs");
    assert!(Config::from_json(&json!({ "thinkTimeUs": 1, "network": { "latencyUs": 0 }, "cpu": costs })).is_ok());
}

/// The default spreads (services and network) give response times the spread published
/// systems show (docs/MODEL.md §2): one row updated by 32 clients through 8 mysqld on 4
/// data nodes, p99 / mean between 1.1 and 2.0 (InnoDB on one hot row at 16 threads: 1.44;
/// the response is the sum of ~32 holds of the row, so its spread narrows); NDB API
/// inserts with a primary key, no row shared, within RonDB's LATS 1.5 to 1.9. With fixed
/// network delays the hot row gives 1.05: the spread of services alone is averaged away.
#[test]
fn default_spreads_give_published_tail_ratios() {
    let one_row = json!({ "name": "one row", "api": "mysqld",
        "tables": [{ "name": "counter", "rows": 1, "key": "primaryKey" }],
        "transactions": [{ "name": "bump", "statements": [{ "op": "update", "table": "counter", "key": { "dist": "uniform" } }] }] });
    let ratio = |s: &hotrow::Summary| s.latency_us.p99 / s.latency_us.mean;
    let base = json!({ "workload": one_row, "dataNodes": 4, "apiNodes": 8, "clientsPerApiNode": 4, "durationMs": 3000 });
    let hot = run("bug39267", base.clone());
    assert_eq!(hot.clients, 32);
    assert!(hot.hottest_rows[0].lock_busy_fraction > 0.95, "{:?}", hot.hottest_rows[0]);
    assert!((1.1..=2.0).contains(&ratio(&hot)), "one row: {:?}", hot.latency_us);
    let mut fixed = base;
    fixed["network"] = json!({ "latencyCv": 0.0 });
    assert!(ratio(&run("bug39267", fixed)) < 1.08);
    let pk = run("ndbapi-pk", json!({ "durationMs": 3000 }));
    assert!((1.5..=1.9).contains(&ratio(&pk)), "ndbapi-pk: {:?}", pk.latency_us);
}
