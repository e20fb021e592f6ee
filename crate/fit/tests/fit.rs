//! `hotrow fit` end to end: it recovers fields hotrow's own output was made with, it meets
//! the seed's two DBT2 measurements with the 2008 preset's CPU costs, the USL fit recovers
//! a law's coefficients, and bad input is refused with the fix named.

use hotrow::{Config, Simulation, Summary};
use hotrow_fit::{fit, predict, Measured, Options, Usl};
use serde_json::{json, Map, Value};

/// Runs configs on every core, in order (as the CLI does).
fn run_all(configs: Vec<Config>) -> Result<Vec<Summary>, String> {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut out: Vec<Option<Summary>> = vec![None; configs.len()];
    for (chunk, slots) in configs.chunks(jobs).zip(out.chunks_mut(jobs)) {
        std::thread::scope(|s| {
            for (c, slot) in chunk.iter().zip(slots.iter_mut()) {
                s.spawn(move || {
                    let mut sim = Simulation::new(c.clone());
                    sim.run_to_end();
                    *slot = Some(sim.summary());
                });
            }
        });
    }
    Ok(out.into_iter().map(|s| s.expect("ran")).collect())
}

fn base(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

fn quiet(_: &hotrow_fit::Progress) -> bool {
    true
}

/// "Measurements" made by hotrow itself: `truth` run at each value of `field`, as the CSV
/// of inserts/s a user would bring, and the summaries behind it.
fn made_by(truth: &Map<String, Value>, field: &str, values: &[u64]) -> (String, Vec<Summary>) {
    let configs = values
        .iter()
        .map(|v| {
            let mut m = truth.clone();
            m.insert(field.into(), json!(v));
            Config::from_json(&Value::Object(m)).unwrap()
        })
        .collect();
    let made = run_all(configs).unwrap();
    let rows = values.iter().zip(&made).map(|(v, s)| format!("{v},{}", s.inserts_per_second));
    (std::iter::once(format!("{field},insertsPerSecond")).chain(rows).collect::<Vec<_>>().join("\n"), made)
}

#[test]
fn recovers_the_scale_and_latency_its_own_output_was_made_with() {
    // The "measurements": ndbapi-pk at 2..10 data nodes with CPU costs x1.7 and a 45 us
    // network, simulated with seed 7; the fit runs seed 1, so the points carry noise the
    // fit cannot reproduce exactly.
    let short = json!({ "preset": "ndbapi-pk", "durationMs": 500, "warmupMs": 100 });
    let mut truth = base(short.clone());
    truth.insert("seed".into(), json!(7));
    truth.insert("cpu".into(), json!({ "scale": 1.7 }));
    truth.insert("network".into(), json!({ "latencyUs": 45 }));
    let (csv, measured) = made_by(&truth, "dataNodes", &[2, 4, 6, 8, 10]);
    let points = Measured::parse(&csv).unwrap();

    let mut iterations = 0;
    let mut progress = |p: &hotrow_fit::Progress| {
        iterations = p.iteration;
        true
    };
    let f = fit(&base(short.clone()), &points, &Options::default(), &mut run_all, &mut progress).unwrap();
    let scale = f.fitted[0].estimate.value;
    let latency = f.fitted[1].estimate.value;
    assert!((scale / 1.7 - 1.0).abs() < 0.05, "cpu.scale {scale}, made with 1.7");
    assert!((latency / 45.0 - 1.0).abs() < 0.05, "network.latencyUs {latency}, made with 45");
    assert!(iterations > 0 && iterations <= f.iterations, "progress was reported as the search went: {iterations} of {}", f.iterations);
    for e in [&f.fitted[0].estimate, &f.fitted[1].estimate] {
        let (low, high) = (e.low.unwrap(), e.high.unwrap());
        assert!(low < e.value && e.value < high, "an interval around the value: {e:?}");
    }
    assert!(f.rms_relative_error < 0.02, "{}", f.rms_relative_error);
    assert!(f.points.iter().all(|p| p.bottleneck.is_some()), "each point says what holds it");
    // One count varies and the metric is a throughput: the USL comes beside it.
    let usl = f.usl.as_ref().expect("a USL over dataNodes");
    assert_eq!(usl.field, "dataNodes");

    // Predictions: hotrow with the fitted fields; the USL only over its own field.
    let preds = predict(&base(short.clone()), &f, &[("dataNodes".into(), vec![json!(4), json!(12)])], &mut run_all).unwrap();
    assert_eq!(preds.len(), 2);
    assert!((preds[0].simulated / measured[1].inserts_per_second - 1.0).abs() < 0.02, "{preds:?}");
    assert!(preds[1].usl.is_some() && preds[1].simulated > preds[0].simulated);
    // Each prediction has the range the fitted fields' intervals give it, around it.
    for p in &preds {
        let (low, high) = (p.low.expect("a range"), p.high.expect("a range"));
        assert!(low <= p.simulated && p.simulated <= high && low < high, "{p:?}");
    }
    // Another field held at one value (as the playground pins the measured fields that did
    // not vary) keeps the USL; a second field varied drops it.
    let held = [("dataNodes".into(), vec![json!(12)]), ("replicas".into(), vec![json!(2)])];
    let preds = predict(&base(short.clone()), &f, &held, &mut run_all).unwrap();
    assert_eq!(preds[0].usl, Some(usl.throughput(12.0)));
    let varied = [("dataNodes".into(), vec![json!(12)]), ("clientsPerApiNode".into(), vec![json!(8), json!(16)])];
    assert!(predict(&base(short), &f, &varied, &mut run_all).unwrap().iter().all(|p| p.usl.is_none()));
}

#[test]
fn the_seeds_two_dbt2_points_give_the_2008_cpu_costs() {
    // Bug #39267: 106k TPM at cache 1 and 158k at cache 1000, 8 data nodes. The preset's
    // CPU costs were set from other measurements; fitting only their scale to these two
    // points must land near 1.
    let csv = "cacheSize,tpm\n1,106000\n1000,158000\n";
    let options = Options { fit: vec!["cpu.scale".into()], ..Options::default() };
    let b = base(json!({ "preset": "bug39267", "durationMs": 1000, "warmupMs": 500 }));
    let f = fit(&b, &Measured::parse(csv).unwrap(), &options, &mut run_all, &mut quiet).unwrap();
    let scale = f.fitted[0].estimate.value;
    assert!((scale - 1.0).abs() < 0.10, "cpu.scale {scale}");
    assert!(f.points[0].bottleneck.as_deref().unwrap().contains("counter row"), "cache 1 is held by the counter row: {:?}", f.points[0]);
    assert!(f.usl.is_none() && f.usl_note.as_deref().unwrap().contains("cacheSize is not a count"));
}

#[test]
fn the_usl_fit_recovers_a_laws_coefficients() {
    let (sigma, kappa, lambda) = (0.05, 0.002, 1000.0);
    let law = |n: f64| lambda * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0));
    // Exact points, then the same with a fixed +-1% wobble.
    let ns = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
    let wobble = [1.0, 0.99, 1.01, 1.0, 0.99, 1.01, 1.0];
    for (k, w) in [[1.0; 7], wobble].iter().enumerate() {
        let pts: Vec<(f64, f64)> = ns.iter().zip(w).map(|(&n, w)| (n, law(n) * w)).collect();
        let u = Usl::fit("dataNodes", &pts).unwrap();
        let tol = if k == 0 { 1e-3 } else { 0.05 };
        assert!((u.sigma.value / sigma - 1.0).abs() < tol, "sigma {:?}", u.sigma);
        assert!((u.kappa.value / kappa - 1.0).abs() < tol, "kappa {:?}", u.kappa);
        assert!((u.lambda.value / lambda - 1.0).abs() < tol, "lambda {:?}", u.lambda);
        let peak = u.peak.unwrap();
        assert!((peak.n - ((1.0 - sigma) / kappa).sqrt()).abs() / peak.n < 2.0 * tol, "{peak:?}");
        assert!(u.sigma.low.unwrap() <= u.sigma.value && u.sigma.value <= u.sigma.high.unwrap());
    }
    assert!(Usl::fit("dataNodes", &[(1.0, 10.0), (2.0, 19.0)]).unwrap_err().contains("at least 3 different values"));
}

#[test]
fn bad_points_and_fields_are_refused_with_the_fix_named() {
    let bad = |csv: &str| Measured::parse(csv).unwrap_err();
    assert!(bad("dataNodes,speed\n2,1\n").contains("column `speed` is neither a config field"));
    assert!(bad("dataNodes\n2\n").contains("no column names a measured metric"));
    assert!(bad("dataNodes,tpm,insertsPerSecond\n2,1,1\n").contains("one measured metric per file"));
    assert!(bad("dataNodes,tpm\n2,fast\n").contains("line 2: `tpm` is `fast`, not a number"));
    assert!(bad("dataNodes,tpm\n2,0\n").contains("must be above 0"));
    assert!(bad("dataNodes,tpm\n").contains("no rows"));
    // Both spellings of a summary metric are read.
    assert_eq!(Measured::parse("dataNodes,latencyUs.p50\n2,700\n").unwrap().metric, "latencyUs.p50");
    assert_eq!(Measured::parse("dataNodes,latencyP50Us\n2,700\n").unwrap().metric, "latencyP50Us");

    let points = Measured::parse("dataNodes,insertsPerSecond\n2,1000\n4,2000\n").unwrap();
    let b = base(json!({ "preset": "ndbapi-pk", "durationMs": 10 }));
    let mut never = |_: Vec<Config>| -> Result<Vec<Summary>, String> { panic!("nothing runs on bad input") };
    let mut refused = |fields: &[&str]| {
        let options = Options { fit: fields.iter().map(|s| s.to_string()).collect(), ..Options::default() };
        fit(&b, &points, &options, &mut never, &mut quiet).unwrap_err()
    };
    assert!(refused(&["dataNodes"]).contains("cannot be both measured and fitted"));
    assert!(refused(&["allocator"]).contains("only a numeric field"));
    assert!(refused(&["cpu.speed"]).contains("no such config field"));
    assert!(refused(&["durationMs"]).contains("fit a cluster field"));
    assert!(refused(&[]).contains("name at least one field"));
    let beyond = Measured::parse("dataNodes,insertsPerSecond\n3,1000\n").unwrap();
    let e = fit(&b, &beyond, &Options::default(), &mut never, &mut quiet).unwrap_err();
    assert!(e.contains("measured point 1") && e.contains("must be a multiple of `replicas`"), "{e}");
}

#[test]
fn a_session_asks_for_the_first_simplex_at_once_then_one_set_at_a_time() {
    use hotrow_fit::{FitSession, RunResult, Step};
    let points = Measured::parse("dataNodes,insertsPerSecond\n2,16000\n4,30000\n6,42000\n").unwrap();
    let b = base(json!({ "preset": "ndbapi-pk", "durationMs": 50, "warmupMs": 10 }));
    let mut s = FitSession::new(&b, &points, &Options::default()).unwrap();
    let run = |requests: &[hotrow_fit::Request]| -> Vec<Vec<RunResult>> {
        requests
            .iter()
            .map(|r| run_all(r.configs.clone()).unwrap().iter().map(|x| RunResult::of(x, "insertsPerSecond")).collect())
            .collect()
    };
    let Step::Run(first) = s.next_step().unwrap() else { panic!("the first step runs") };
    assert_eq!(first.len(), 3, "two fields: a simplex of three sets, asked together");
    assert_eq!(first[0].configs.len(), 3, "every point, one seed");
    assert!(s.next_step().is_err(), "asking again before telling is refused");
    assert!(s.tell(&[vec![]]).unwrap_err().contains("expected 3 sets of 3 results"));
    s.tell(&run(&first)).unwrap();
    let Step::Run(second) = s.next_step().unwrap() else { panic!("the search goes on") };
    assert_eq!(second.len(), 1, "then one set at a time, as Nelder-Mead asks");
    assert!(s.progress().is_none() || s.progress().unwrap().iteration <= 1);
}

#[test]
fn a_whole_number_starting_at_1_moves_and_invalid_candidates_are_turned_away() {
    // cacheSize starts at 1: a first step of +35% would round back to 1 and the search would
    // "converge" at once. With cacheSizeMax 12, every candidate above 12 is no valid config:
    // the search must turn away from it, not stop.
    let short = json!({ "preset": "ndbapi-hidden-pk", "durationMs": 300, "warmupMs": 100, "cacheSizeMax": 12 });
    let mut truth = base(short.clone());
    truth.insert("cacheSize".into(), json!(8));
    truth.insert("seed".into(), json!(5));
    let (csv, _) = made_by(&truth, "clientsPerApiNode", &[4, 8, 16, 32]);
    let options = Options { fit: vec!["cacheSize".into()], ..Options::default() };
    let f = fit(&base(short), &Measured::parse(&csv).unwrap(), &options, &mut run_all, &mut quiet).unwrap();
    assert_eq!(f.fitted[0].estimate.value, 8.0, "{:?}", f.fitted[0]);
}

#[test]
fn a_metric_the_config_never_produces_is_refused_by_name() {
    let b = base(json!({ "preset": "ndbapi-pk", "durationMs": 50, "warmupMs": 10 }));
    let points = Measured::parse("dataNodes,tpm\n2,100\n4,200\n").unwrap();
    let e = fit(&b, &points, &Options::default(), &mut run_all, &mut quiet).unwrap_err();
    assert!(e.contains("tpm is 0 at every point") && e.contains("DBT2"), "{e}");
}

#[test]
fn a_fit_taken_back_from_its_json_reopens_only_on_its_own_points() {
    use hotrow_fit::{Fit, FitSession};
    let csv = "dataNodes,insertsPerSecond\n2,16000\n4,30000\n";
    let options = Options { fit: vec!["cpu.scale".into()], max_iterations: 2, ..Options::default() };
    let b = base(json!({ "preset": "ndbapi-pk", "durationMs": 50, "warmupMs": 10 }));
    let points = Measured::parse(csv).unwrap();
    let f = fit(&b, &points, &options, &mut run_all, &mut quiet).unwrap();
    // A link carries the fit as JSON; what comes back is the same fit.
    let back: Fit = serde_json::from_value(serde_json::to_value(&f).unwrap()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), serde_json::to_value(&f).unwrap());
    FitSession::new(&b, &points, &options).unwrap().reopen(&back).unwrap();
    let other = Measured::parse("dataNodes,insertsPerSecond\n2,16000\n4,31000\n").unwrap();
    assert_eq!(FitSession::new(&b, &other, &options).unwrap().reopen(&back).unwrap_err(), "the fit is of other points than these");
    let two = Options { fit: vec!["cpu.scale".into(), "network.latencyUs".into()], ..options.clone() };
    assert!(FitSession::new(&b, &points, &two).unwrap().reopen(&back).unwrap_err().contains("fit cpu.scale, network.latencyUs"));
}
