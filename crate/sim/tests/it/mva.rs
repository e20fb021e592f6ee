//! A queueing-theory cross-check (docs/MODEL.md §9): a config that reduces hotrow to a
//! product-form closed network has an exact answer, and hotrow's throughput and mean
//! response time must meet it.
//!
//! The reduction: the allocator lab's central allocator service, each client fetching one
//! id per insert (`idCacheScope: client`, `cacheSize: 1`), every CPU cost 0 but the
//! service's, no network latency and exponential service times (`cpu.serviceCv: 1`). A
//! client then cycles between its think time (a delay station, Z) and one FCFS
//! exponential server (the service, mean D), so exact mean value analysis (Reiser and
//! Lavenberg, 1980) gives throughput and response time for every population N. This is
//! how JMT checks its simulator against its MVA solver.

use crate::run;
use serde_json::json;

const D_US: f64 = 20.0;
const Z_US: f64 = 100.0;

/// Exact MVA for one queueing station of demand `d` and a delay `z`: (X, R) for N = 1..=n.
fn mva(d: f64, z: f64, n: u32) -> Vec<(f64, f64)> {
    let mut q = 0.0;
    (1..=n)
        .map(|n| {
            let r = d * (1.0 + q);
            let x = n as f64 / (r + z);
            q = x * r;
            (x, r)
        })
        .collect()
}

fn reduced(clients: u32) -> serde_json::Value {
    let mut cpu = serde_json::Map::new();
    for f in hotrow::config::fields::FIELDS.iter().filter_map(|f| f.name.strip_prefix("cpu.")).filter(|n| n.ends_with("Ns")) {
        cpu.insert(f.into(), 0.into());
    }
    cpu.insert("allocatorRequestNs".into(), ((D_US * 1000.0) as u64).into());
    cpu.insert("serviceCv".into(), 1.0.into());
    json!({
        "idCacheScope": "client",
        "cacheSize": 1,
        "apiNodes": 1,
        "clientsPerApiNode": clients,
        "thinkTimeUs": Z_US as u64,
        "network": { "latencyUs": 0 },
        "cpu": cpu,
        "durationMs": 2000,
        "warmupMs": 100,
    })
}

#[test]
fn throughput_and_response_time_meet_exact_mva_for_1_to_64_clients() {
    let exact = mva(D_US, Z_US, 64);
    for n in 1..=64u32 {
        let s = run("central-allocator", reduced(n));
        let (x, r) = exact[n as usize - 1];
        let (got_x, got_r) = (s.transactions_per_second / 1e6, s.latency_us.mean);
        let (ex, er) = (got_x / x - 1.0, got_r / r - 1.0);
        assert!(
            ex.abs() < 0.02 && er.abs() < 0.02,
            "N = {n}: X {got_x:.5}/us vs MVA {x:.5} ({ex:+.3}), R {got_r:.2} us vs MVA {r:.2} ({er:+.3})"
        );
    }
}
