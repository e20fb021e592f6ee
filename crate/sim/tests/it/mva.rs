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

/// The 95% intervals (batch means, `intervals.rs`) of throughput and mean response time
/// cover the exact MVA values in at least 90 of 100 seeds (about 95 expected).
#[test]
fn intervals_cover_exact_mva_in_at_least_90_of_100_seeds() {
    const N: u32 = 8;
    let (x, r) = mva(D_US, Z_US, N)[N as usize - 1];
    let (mut x_in, mut r_in) = (0, 0);
    for seed in 1..=100u64 {
        let mut c = reduced(N);
        c["seed"] = seed.into();
        c["durationMs"] = 1000.into();
        c["windowMs"] = 50.into();
        let s = run("central-allocator", c);
        let i = s.intervals.as_ref().expect("20 measured windows");
        let (hx, hr) = (i.get("transactionsPerSecond").unwrap().half_width, i.get("latencyMeanUs").unwrap().half_width);
        x_in += usize::from((s.transactions_per_second - x * 1e6).abs() <= hx);
        r_in += usize::from((s.latency_us.mean - r).abs() <= hr);
    }
    eprintln!("the MVA values covered: throughput {x_in}/100, response time {r_in}/100");
    assert!(x_in >= 90 && r_in >= 90, "covered: throughput {x_in}/100, response time {r_in}/100");
}

/// With deterministic service times the intervals shrink as the run grows (DBT2, whose
/// random choices are the workload's: the reduced network above has none then).
#[test]
fn intervals_shrink_as_the_run_grows() {
    let half_width = |ms: u64| {
        let c = json!({ "cpu": { "serviceCv": 0 }, "durationMs": ms, "warmupMs": 500 });
        run("bug39267", c).intervals.expect("measured windows").get("transactionsPerSecond").unwrap().half_width
    };
    let (short, long) = (half_width(1000), half_width(8000));
    eprintln!("deterministic services: 1 s ± {short:.1}/s, 8 s ± {long:.1}/s");
    assert!(short > 0.0 && long < short * 0.6, "1 s: ± {short:.1}/s, 8 s: ± {long:.1}/s");
}
