//! Property tests: any JSON given as a config gives a valid config or an error that names
//! a field; never a panic. Any valid config runs without breaking an invariant.

use hotrow::{Config, Simulation};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

const FIELDS: [&str; 22] = [
    "seed",
    "workload",
    "dataNodes",
    "replicas",
    "ldmThreads",
    "tcThreads",
    "apiNodes",
    "apiCores",
    "clientsPerApiNode",
    "thinkTimeUs",
    "cacheSize",
    "hintedRefill",
    "hintedTransactions",
    "primaryKey",
    "warehouses",
    "durationMs",
    "warmupMs",
    "windowMs",
    "network",
    "cpu",
    "faults",
    "preset",
];

/// Hostile scalar values: wrong types, negatives, huge, fractions, empty strings.
fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|v| json!(v)),
        any::<u64>().prop_map(|v| json!(v)),
        (0u64..100).prop_map(|v| json!(v)),
        any::<f64>().prop_filter("JSON has no NaN or infinity", |v| v.is_finite()).prop_map(|v| json!(v)),
        "[a-zA-Z0-9-]{0,12}".prop_map(Value::String),
        Just(json!("bug39267")),
        Just(json!("dbt2")),
        Just(json!({})),
        Just(json!([])),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(&FIELDS[..]), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

fn config_input() -> impl Strategy<Value = Value> {
    prop::collection::vec((prop_oneof![prop::sample::select(&FIELDS[..]).prop_map(String::from), "[a-z]{1,8}"], value()), 0..6)
        .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<String, Value>>()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_json_gives_a_config_or_a_named_error(input in config_input()) {
        match Config::from_json(&input) {
            Ok(c) => prop_assert!(c.data_nodes % c.replicas == 0),
            Err(e) => {
                prop_assert!(!e.field.is_empty());
                prop_assert!(!e.allowed.is_empty());
                let root = e.field.split(['.', '[']).next().unwrap();
                prop_assert!(root == "(config)" || input.get(root).is_some() || FIELDS.contains(&root),
                    "error names {} which the input lacks: {}", e.field, e);
            }
        }
    }

    #[test]
    fn any_top_level_value_is_refused_cleanly(input in value()) {
        let _ = Config::from_json(&input);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Live changes with arbitrary values either apply or leave the config as it was.
    #[test]
    fn live_changes_apply_or_change_nothing(key in prop::sample::select(&["cacheSize", "hintedRefill", "clientsPerApiNode",
        "thinkTimeUs", "network.latencyUs", "cpu.lqhWriteNs", "dataNodes", "seed", "nope", "cpu", "network.nope"][..]), v in scalar()) {
        let config = Config::from_json(&json!({ "preset": "ndbapi-hidden-pk", "durationMs": 20, "warmupMs": 0 })).unwrap();
        let mut sim = Simulation::new(config);
        sim.run_until(5_000_000);
        let before = sim.config().clone();
        if sim.set(key, v).is_err() {
            prop_assert_eq!(sim.config(), &before);
        }
        sim.run_to_end();
        prop_assert!(sim.check_invariants().is_ok());
    }
}
