//! The field table against the code: it names exactly the config's fields, and each
//! choice's values are what its enum reads.

use super::*;

/// The dotted names of every leaf of a JSON object (arrays count as leaves).
fn leaves(v: &Value, prefix: &str, out: &mut Vec<String>) {
    for (k, x) in v.as_object().expect("an object") {
        let name = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        if x.is_object() {
            leaves(x, &name, out);
        } else {
            out.push(name);
        }
    }
}

#[test]
fn the_table_names_exactly_the_config_fields() {
    let mut serialised = Vec::new();
    leaves(&serde_json::to_value(Config::default()).unwrap(), "", &mut serialised);
    let mut table: Vec<String> = FIELDS.iter().map(|f| f.name.to_string()).collect();
    serialised.sort();
    table.sort();
    assert_eq!(serialised, table);
}

/// A choice field's values are exactly what its enum accepts: each builds a config,
/// and a value not listed is refused.
#[test]
fn choice_values_are_the_enums_names() {
    for f in FIELDS {
        if let Kind::Choice { values, labels, traits } = f.kind {
            assert_eq!(values.len(), labels.len(), "{}: a label for each value", f.name);
            for v in values {
                // An engine's value on the cluster it runs on (one server or NDB's).
                let base = if f.name == "engine" { "postgres" } else { "bug39267" };
                let mut input = serde_json::json!({ "preset": base });
                match f.name.split_once('.') {
                    Some((outer, inner)) => input[outer] = serde_json::json!({ inner: v }),
                    None => input[f.name] = Value::from(*v),
                }
                let c = Config::from_json(&input).unwrap_or_else(|e| panic!("{} = {v}: {e}", f.name));
                assert_eq!(lookup(&serde_json::to_value(&c).unwrap(), f.name), Some(&Value::from(*v)));
                if let Some(i) = (!traits.is_empty()).then(|| values.iter().position(|x| x == v).unwrap()) {
                    assert_eq!(traits[i], c.allocator.traits(), "{} = {v}: the table's traits are the strategy's", f.name);
                }
            }
            assert!(
                traits.is_empty() || (f.name == "allocator" && traits.len() == values.len()),
                "{}: traits are the allocator's, one per value",
                f.name
            );
            assert!(Config::from_json(&serde_json::json!({ f.name: "none-of-these" })).is_err(), "{}", f.name);
        }
    }
}

#[test]
fn defaults_are_in_range_and_live_objects_follow_their_fields() {
    check_ranges(&serde_json::to_value(Config::default()).unwrap()).unwrap();
    let live = live_top_level();
    assert!(live.contains(&"cpu") && live.contains(&"network") && live.contains(&"cacheSize"));
    assert!(!live.contains(&"dataNodes") && !live.contains(&"faults"));
    assert_eq!(describe().as_array().unwrap().len(), FIELDS.len());
}
