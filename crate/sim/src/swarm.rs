//! Seeded swarm testing: each seed draws a random valid configuration and fault schedule,
//! runs it in slices, and checks every named invariant after each slice. A failure is
//! reported with its seed, which reproduces it exactly (`hotrow swarm --start SEED --seeds 1`).
//!
//! Runs are kept short (a few hundred simulated ms on at most 12 data nodes) so hundreds
//! of seeds fit in a test run; the variety comes from the knobs and the faults.

use crate::prng::Prng;
use crate::{Config, Simulation};
use serde_json::{json, Value};

/// Stream number of the swarm's own draws (the simulation's start at 0 and 1+client).
const SWARM_STREAM: u64 = 0x5_3A_4A_11;

fn pick<T: Copy>(rng: &mut Prng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

/// The configuration of swarm seed `seed`: always valid.
pub fn config_for(seed: u64) -> Value {
    let mut rng = Prng::new(seed, SWARM_STREAM);
    let replicas = pick(&mut rng, &[1, 2, 2, 2, 3, 4]);
    let data_nodes = replicas * rng.range(1, (12 / replicas).max(1));
    let api_nodes = rng.range(1, 4);
    let duration_ms = rng.range(150, 400);
    let warmup_ms = pick(&mut rng, &[0, 0, 50, 100]);
    let scale = |rng: &mut Prng, v: u64| v * pick(rng, &[0, 1, 2, 5, 10, 10, 10, 20, 30]) / 10;
    let d = crate::config::CpuConfig::ndbd_2008();
    let mut c = json!({
        "seed": seed,
        "workload": pick(&mut rng, &["dbt2", "ndbapi-insert", "sql-insert"]),
        "dataNodes": data_nodes,
        "replicas": replicas,
        "ldmThreads": rng.range(1, 3),
        "tcThreads": rng.range(0, 2),
        "apiNodes": api_nodes,
        "apiCores": rng.range(1, 8),
        "clientsPerApiNode": rng.range(1, 12),
        "thinkTimeUs": pick(&mut rng, &[0, 0, 100, 2000]),
        "cacheSize": pick(&mut rng, &[1, 1, 2, 7, 100, 1000, 1_000_000]),
        "hintedRefill": rng.chance(1, 2),
        "hintedTransactions": rng.chance(3, 4),
        "primaryKey": rng.chance(1, 4),
        "warehouses": rng.range(1, 20),
        "durationMs": duration_ms,
        "warmupMs": warmup_ms,
        "windowMs": pick(&mut rng, &[10, 50, 100]),
        "network": { "latencyUs": pick(&mut rng, &[0, 20, 70, 300]) },
        "cpu": {
            "tcOpNs": scale(&mut rng, d.tc_op_ns), "tcReplyNs": scale(&mut rng, d.tc_reply_ns),
            "tcCommitNs": scale(&mut rng, d.tc_commit_ns), "lqhReadNs": scale(&mut rng, d.lqh_read_ns),
            "lqhWriteNs": scale(&mut rng, d.lqh_write_ns), "lqhCommitNs": scale(&mut rng, d.lqh_commit_ns),
            "lqhCompleteNs": scale(&mut rng, d.lqh_complete_ns), "apiStatementNs": scale(&mut rng, d.api_statement_ns),
            "apiExecuteNs": scale(&mut rng, d.api_execute_ns), "apiOpNs": scale(&mut rng, d.api_op_ns),
            "apiReplyNs": scale(&mut rng, d.api_reply_ns), "remoteSignalNs": scale(&mut rng, d.remote_signal_ns),
            "allocatorRequestNs": scale(&mut rng, d.allocator_request_ns),
        },
    });
    // The allocator lab's knobs: strategy, cache owner and growth, key placement.
    let allocator = pick(&mut rng, &["counterRow", "counterRow", "centralService", "timestamp"]);
    c["allocator"] = allocator.into();
    c["idCacheScope"] = pick(&mut rng, &["apiNode", "client"]).into();
    let growth = pick(&mut rng, &[1, 1, 2, 10]);
    c["cacheGrowth"] = growth.into();
    let cache = c["cacheSize"].as_u64().expect("drawn above");
    c["cacheSizeMax"] = (cache * pick(&mut rng, &[1, 10, 1000])).min(1_000_000).into();
    c["timestampTickUs"] = pick(&mut rng, &[10, 100, 1000]).into();
    c["timestampSequenceBits"] = pick(&mut rng, &[1, 2, 12]).into();
    c["partitioning"] = pick(&mut rng, &["hash", "range"]).into();
    c["rangeRows"] = pick(&mut rng, &[1, 10, 1000, 100_000]).into();
    c["keyLayout"] = pick(&mut rng, &["sequential", "shardBits", "bitReversed"]).into();
    c["shardBits"] = rng.range(1, 15).into();
    let end = duration_ms + warmup_ms;
    let mut faults = Vec::new();
    for _ in 0..rng.below(5) {
        let at = rng.below(end);
        let fault = match rng.below(if allocator == "centralService" { 4 } else { 3 }) {
            3 => json!({ "kind": "allocatorFailure", "atMs": at, "takeoverMs": pick(&mut rng, &[0, 10, 100]) }),
            0 if replicas >= 2 => json!({ "kind": "dataNodeFailure", "atMs": at, "dataNode": rng.below(data_nodes),
                                          "restartAfterMs": rng.range(20, 200) }),
            1 => json!({ "kind": "apiNodeRestart", "atMs": at, "apiNode": rng.below(api_nodes), "downMs": pick(&mut rng, &[0, 20, 100]) }),
            _ => json!({ "kind": "networkDelay", "atMs": at, "dataNode": rng.below(data_nodes),
                         "extraUs": pick(&mut rng, &[100, 1000, 20_000]), "durationMs": rng.range(5, 100) }),
        };
        faults.push(fault);
        c["faults"] = Value::Array(faults.clone());
        if Config::from_json(&c).is_err() {
            faults.pop(); // Overlapping failures in one node group: leave this one out.
        }
    }
    c["faults"] = Value::Array(faults);
    c
}

/// What one seed did.
#[derive(Debug)]
pub struct Outcome {
    pub seed: u64,
    pub events: u64,
    pub transactions: f64,
    pub faults: usize,
    /// The first broken invariant or panic, if any.
    pub failure: Option<String>,
}

/// Runs swarm seed `seed`, checking invariants after each of 20 slices.
pub fn run_seed(seed: u64) -> Outcome {
    let config = config_for(seed);
    let faults = config["faults"].as_array().map_or(0, |f| f.len());
    let result = std::panic::catch_unwind(|| {
        let cfg = Config::from_json(&config).map_err(|e| format!("generated config invalid: {e}"))?;
        let end = cfg.end_ns();
        let mut sim = Simulation::new(cfg);
        while !sim.finished() {
            sim.advance((end / 20).max(1).min(end - sim.now_ns()), u64::MAX);
            sim.check_invariants().map_err(|e| format!("at {} ns: {e}", sim.now_ns()))?;
        }
        let s = sim.summary();
        if s.duplicate_ids != 0 {
            return Err(format!("ids-unique: {} duplicate ids", s.duplicate_ids));
        }
        Ok((sim.events(), s.transactions_per_second * s.simulated_seconds))
    });
    let (events, transactions, failure) = match result {
        Ok(Ok((e, t))) => (e, t, None),
        Ok(Err(msg)) => (0, 0.0, Some(msg)),
        Err(panic) => {
            let msg = panic.downcast_ref::<String>().cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            (0, 0.0, Some(format!("panic: {msg}")))
        }
    };
    Outcome { seed, events, transactions, faults, failure }
}
