//! Seeded swarm testing: each seed draws a random valid configuration and fault schedule,
//! runs it in slices, and checks every named invariant after each slice. A failure is
//! reported with its seed, which reproduces it exactly (`hotrow swarm --start SEED --seeds 1`).
//!
//! The knobs come from the field table (`config/fields.rs`): every field is drawn from
//! the range or the choices the table gives it, so a field added to the table is fuzzed
//! without a line here. What this file adds is only what the table cannot say: a few
//! fields held low so that a run stays short (a few hundred simulated ms on at most 12
//! data nodes), the repairs that make a draw obey the cross-field rules, and the fault
//! schedule. A third of the seeds run a random workload spec (`spec.rs`) instead of a
//! named workload, drawn from a stream of its own so that the other draws stay as they were.

mod laws;
mod spec;

pub use laws::explanation_laws;

use crate::config::fields::{Kind, FIELDS};
use crate::config::{lookup, set_dotted};
use crate::prng::Prng;
use crate::{Config, Simulation};
use serde_json::{json, Map, Value};

/// Stream number of the swarm's own draws (the simulation's start at 0 and 1+client), and
/// of its workload specs.
const SWARM_STREAM: u64 = 0x5_3A_4A_11;
const SPEC_STREAM: u64 = SWARM_STREAM + 1;

/// Fields held below the top of their range, so that hundreds of seeds fit in a test run.
/// Every field not named here is drawn over its whole range.
const SHORT_RUNS: &[(&str, u64)] = &[
    ("dataNodes", 12),
    ("apiNodes", 4),
    ("apiCores", 8),
    ("clientsPerApiNode", 12),
    ("arrivalRatePerApiNode", 50_000),
    ("warehouses", 20),
    ("durationMs", 400),
    ("warmupMs", 100),
    ("windowMs", 100),
];

fn pick<T: Copy>(rng: &mut Prng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

/// A whole number in `min..=max` whose number of bits is uniform: small and large values
/// are drawn alike, as they are where the model changes behaviour.
fn log_uniform(rng: &mut Prng, min: u64, max: u64) -> u64 {
    let bits = |v: u64| 64 - v.leading_zeros() as u64;
    let width = rng.range(bits(min), bits(max));
    let lo = if width == 0 { 0 } else { 1u64 << (width - 1) };
    let hi = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    rng.range(lo.max(min), hi.min(max))
}

/// An integer field: mostly its default or near it, sometimes anywhere in its range or
/// at one of its ends. With some forty fields, a config has a few drawn far from their
/// defaults, so most runs stay busy while every corner of every range is reached.
fn draw_int(rng: &mut Prng, min: u64, max: u64, default: u64) -> u64 {
    match rng.below(64) {
        0 => min,
        1 => max,
        2..=3 => log_uniform(rng, min, max),
        4..=31 => default.clamp(min, max),
        _ => (default.saturating_mul(pick(rng, &[1, 2, 5, 20, 30])) / 10).clamp(min, max),
    }
}

/// The configuration of swarm seed `seed`: always valid.
pub fn config_for(seed: u64) -> Value {
    let mut rng = Prng::new(seed, SWARM_STREAM);
    let defaults = serde_json::to_value(Config::default()).expect("Config serialises");
    let mut c = Map::new();
    for f in FIELDS {
        let value = match f.kind {
            _ if f.name == "seed" => Value::from(seed),
            Kind::Int { min, max } => {
                let cap = SHORT_RUNS.iter().find(|(name, _)| *name == f.name).map_or(max, |&(_, cap)| cap.min(max));
                let default = lookup(&defaults, f.name).and_then(Value::as_u64).expect("an integer default");
                Value::from(draw_int(&mut rng, min, cap, default))
            }
            Kind::Number { min, max } => {
                let default = lookup(&defaults, f.name).and_then(Value::as_f64).expect("a number default");
                Value::from(match rng.below(8) {
                    0 => min,
                    1 => max,
                    2 => min + (max - min) * rng.uniform(),
                    _ => default,
                })
            }
            Kind::Bool => Value::from(rng.chance(1, 2)),
            // The default half the time, as a number keeps its default often: a choice
            // that reshapes the run (the engine) leaves most draws to the rest.
            Kind::Choice { values, .. } => match lookup(&defaults, f.name) {
                Some(d) if rng.chance(1, 2) => d.clone(),
                _ => Value::from(pick(&mut rng, values)),
            },
            Kind::Faults => continue, // Drawn last, against the cluster drawn.
        };
        set_dotted(&mut c, f.name, value).expect("the table's names are dotted paths");
    }
    let mut c = Value::Object(c);
    let mut specs = Prng::new(seed, SPEC_STREAM);
    if specs.chance(1, 3) {
        c["workload"] = spec::random_spec(&mut specs);
    }
    repair(&mut c);
    c["faults"] = faults(&mut rng, &c);
    c
}

/// Makes a draw obey the rules that relate fields (`Config::validate`).
fn repair(c: &mut Value) {
    let int = |c: &Value, k: &str| c[k].as_u64().expect("drawn above");
    let replicas = int(c, "replicas");
    c["dataNodes"] = (int(c, "dataNodes") / replicas * replicas).max(replicas).into();
    c["cacheSizeMax"] = int(c, "cacheSizeMax").max(int(c, "cacheSize")).into();
    if int(c, "arrivalRatePerApiNode") > 0 {
        c["thinkTimeUs"] = 0.into(); // Open arrivals take no think time.
    }
    // A precision or a detected warm-up watches a figure the run has.
    if c["engine"] != "ndb" {
        // One server: NDB's cluster fields say so; Raft's nodes are each one pool of cores
        // (`Config::check_one_server`).
        let cluster: &[(&str, u64)] = if c["engine"] == "raft" {
            &[("ldmThreads", 1), ("tcThreads", 0)]
        } else {
            &[("dataNodes", 1), ("replicas", 1), ("ldmThreads", 1), ("tcThreads", 0)]
        };
        for &(k, one) in cluster {
            c[k] = one.into();
        }
    }
    if !matches!(c["precisionMetric"].as_str(), Some("headline" | "insertsPerSecond" | "transactionsPerSecond" | "latencyMeanUs")) {
        c["precisionMetric"] = "transactionsPerSecond".into();
    }
}

/// Up to four faults at random times, each of a kind the fault table offers the config drawn
/// (`config/fault_table.rs`: a new kind is drawn once it has its row), its fields from the
/// table's typical values; each kept only if the schedule stays valid (no node group loses
/// every replica at once).
fn faults(rng: &mut Prng, c: &Value) -> Value {
    use crate::config::fault_table::{self, FaultValue, Needs, FAULT_TABLE};
    let int = |k: &str| c[k].as_u64().expect("drawn above");
    let (data_nodes, api_nodes, replicas) = (int("dataNodes"), int("apiNodes"), int("replicas"));
    let end = int("durationMs") + int("warmupMs");
    // A service that can fail: asked of the strategy's traits, not its name.
    let service = crate::config::Allocator::NAMES
        .iter()
        .position(|n| c["allocator"] == *n)
        .is_some_and(|i| crate::config::Allocator::TRAITS[i].service);
    let mut list = Vec::new();
    let mut trial = c.clone();
    // The other engines have none of NDB's faults.
    let count = if c["engine"] == "ndb" { rng.below(5) } else { 0 };
    let offered: Vec<_> = FAULT_TABLE
        .iter()
        .filter(|row| match row.needs {
            Needs::Nothing => true,
            Needs::TwoReplicas => replicas >= 2,
            Needs::Service => service,
        })
        .collect();
    for _ in 0..count {
        let at = rng.below(end.max(1));
        let row = offered[rng.below(offered.len() as u64) as usize];
        let mut fault = json!({ "kind": fault_table::name(row.kind), "atMs": at });
        for &(name, values) in row.fields {
            fault[name] = match values {
                FaultValue::DataNode => rng.below(data_nodes),
                FaultValue::ApiNode => rng.below(api_nodes),
                FaultValue::Range { typical, .. } => pick(rng, typical),
            }
            .into();
        }
        list.push(fault);
        trial["faults"] = Value::Array(list.clone());
        if Config::from_json(&trial).is_err() {
            list.pop(); // Overlapping failures in one node group: leave this one out.
        }
    }
    Value::Array(list)
}

/// What one seed did.
#[derive(Debug)]
pub struct Outcome {
    pub seed: u64,
    pub events: u64,
    pub transactions: f64,
    pub faults: usize,
    /// The run's digest (empty when it failed).
    pub digest: String,
    /// The first broken invariant or panic, if any.
    pub failure: Option<String>,
}

/// Runs `config` (labelled `seed`), checking invariants after each of 20 slices.
pub fn run_config(seed: u64, config: &Value) -> Outcome {
    let faults = config["faults"].as_array().map_or(0, |f| f.len());
    let result = std::panic::catch_unwind(|| {
        let cfg = Config::from_json(config).map_err(|e| format!("generated config invalid: {e}"))?;
        let end = cfg.end_ns();
        let mut sim = Simulation::new(cfg);
        sim.audit_rows();
        while !sim.finished() {
            sim.advance((end / 20).max(1).min(end - sim.now_ns()), u64::MAX);
            sim.check_invariants().map_err(|e| format!("at {} ns: {e}", sim.now_ns()))?;
            sim.check_hot_rows().map_err(|e| format!("hot rows counted right, at {} ns: {e}", sim.now_ns()))?;
        }
        let s = sim.summary();
        if s.duplicate_ids != 0 {
            return Err(format!("ids-unique: {} duplicate ids", s.duplicate_ids));
        }
        explanation_laws(&s).map_err(|e| format!("explanation: {e}"))?;
        Ok((sim.events(), s.transactions_per_second * s.simulated_seconds, s.digest))
    });
    let (events, transactions, digest, failure) = match result {
        Ok(Ok((e, t, d))) => (e, t, d, None),
        Ok(Err(msg)) => (0, 0.0, String::new(), Some(msg)),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            (0, 0.0, String::new(), Some(format!("panic: {msg}")))
        }
    };
    Outcome { seed, events, transactions, faults, digest, failure }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field of the table varies across seeds: a new field is fuzzed by being listed.
    #[test]
    fn every_field_of_the_table_is_drawn_with_more_than_one_value() {
        let configs: Vec<Value> = (0..200).map(config_for).collect();
        for f in FIELDS.iter().filter(|f| !matches!(f.kind, Kind::Faults)) {
            let mut seen: Vec<&Value> = configs.iter().map(|c| lookup(c, f.name).expect("drawn")).collect();
            seen.sort_by_key(|v| v.to_string());
            seen.dedup();
            assert!(seen.len() > 1, "{} took only {:?}", f.name, seen);
        }
        for (seed, c) in configs.iter().enumerate() {
            Config::from_json(c).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }

    /// Every kind of the fault table is drawn, with every value of its fields' typical
    /// ones: a new kind is fuzzed by having its row.
    #[test]
    fn every_fault_kind_of_the_table_is_drawn() {
        use crate::config::fault_table::{self, FaultValue, FAULT_TABLE};
        let faults: Vec<Value> = (0..400).flat_map(|seed| config_for(seed)["faults"].as_array().cloned().unwrap_or_default()).collect();
        for row in &FAULT_TABLE {
            let name = fault_table::name(row.kind);
            let of_kind: Vec<&Value> = faults.iter().filter(|f| f["kind"] == name).collect();
            assert!(!of_kind.is_empty(), "no {name} drawn in 400 seeds");
            for &(field, values) in row.fields {
                if let FaultValue::Range { typical, .. } = values {
                    for t in typical {
                        assert!(of_kind.iter().any(|f| f[field] == *t), "{name}.{field} never {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn log_uniform_stays_in_range_and_reaches_both_ends() {
        let mut rng = Prng::new(1, 2);
        let xs: Vec<u64> = (0..4000).map(|_| log_uniform(&mut rng, 3, 1_000_000)).collect();
        assert!(xs.iter().all(|&x| (3..=1_000_000).contains(&x)));
        assert!(xs.iter().any(|&x| x < 8) && xs.iter().any(|&x| x > 500_000));
    }
}
