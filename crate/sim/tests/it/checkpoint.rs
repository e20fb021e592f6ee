//! Checkpoints: restoring one and running on gives exactly the run that was never
//! interrupted; a branch shares the past and differs only after it; a checkpoint of
//! another cluster is refused and changes nothing.

use hotrow::{swarm, Config, Simulation};
use serde_json::{json, Value};

fn sim(input: Value) -> Simulation {
    Simulation::new(Config::from_json(&input).unwrap_or_else(|e| panic!("{input}: {e}")))
}

fn short(preset: &str) -> Value {
    json!({ "preset": preset, "durationMs": 200, "warmupMs": 50 })
}

/// Runs `s` to its end and returns the digest and the closed windows' insert rates.
fn finish(s: &mut Simulation) -> (String, Vec<f64>) {
    s.run_to_end();
    s.check_invariants().unwrap_or_else(|e| panic!("invariant broken: {e}"));
    (s.summary().digest, s.windows().map(|w| w.rates.inserts_per_second).collect())
}

#[test]
fn restoring_and_running_on_equals_the_uninterrupted_run_on_every_preset() {
    for preset in crate::PRESETS {
        let (fresh, fresh_windows) = finish(&mut sim(short(preset)));
        let mut s = sim(short(preset));
        s.run_until(120_000_000);
        let cp = s.checkpoint();
        assert_eq!(cp.now_ns(), 120_000_000, "{preset}");
        // Go on, with a live change, then come back: the change is undone too.
        s.set("thinkTimeUs", json!(5000)).unwrap();
        let (changed, _) = finish(&mut s);
        assert_ne!(changed, fresh, "{preset}: the live change should have changed the run");
        s.restore(&cp).unwrap();
        assert_eq!(s.now_ns(), 120_000_000, "{preset}");
        assert_eq!(s.config().think_time_us, sim(short(preset)).config().think_time_us, "{preset}");
        let (again, again_windows) = finish(&mut s);
        assert_eq!(again, fresh, "{preset}: restored run differs from the uninterrupted one");
        assert_eq!(again_windows, fresh_windows, "{preset}");
    }
}

#[test]
fn checkpoints_in_the_middle_of_faults_restore_exactly() {
    // Swarm seeds draw faults, every strategy and layout; a checkpoint at half time lands
    // in the middle of failures, takeovers and refills in flight.
    for seed in 1..=24 {
        let input = swarm::config_for(seed);
        let (fresh, _) = finish(&mut sim(input.clone()));
        let mut s = sim(input.clone());
        let half = s.config().end_ns() / 2;
        s.run_until(half);
        let cp = s.checkpoint();
        s.run_until(half + half / 2);
        s.restore(&cp).unwrap();
        assert_eq!(finish(&mut s).0, fresh, "swarm seed {seed}: {input}");
        // A checkpoint restores any number of times.
        s.restore(&cp).unwrap();
        assert_eq!(finish(&mut s).0, fresh, "swarm seed {seed}, second restore");
    }
}

#[test]
fn a_branch_shares_the_past_and_differs_after() {
    let mut base = sim(short("bug39267"));
    base.run_until(100_000_000);
    let cp = base.checkpoint();
    let past: Vec<f64> = base.windows().map(|w| w.rates.inserts_per_second).collect();
    let mut branch = cp.branch();
    branch.set("cacheSize", json!(1000)).unwrap();
    let branch_past: Vec<f64> = branch.windows().map(|w| w.rates.inserts_per_second).collect();
    assert_eq!(branch_past, past);
    let (_, base_windows) = finish(&mut base);
    let (_, branch_windows) = finish(&mut branch);
    assert_eq!(base_windows[..past.len()], branch_windows[..past.len()]);
    // After the fork, cache 1000 frees the counter row: inserts rise well above the base
    // (1.49x in TPM once settled; these windows include the change's transient).
    let after = |w: &[f64]| w[past.len()..].iter().sum::<f64>() / (w.len() - past.len()) as f64;
    assert!(
        after(&branch_windows) > 1.2 * after(&base_windows),
        "branch {} vs base {} inserts/s after the fork",
        after(&branch_windows),
        after(&base_windows)
    );
}

#[test]
fn a_checkpoint_of_another_cluster_is_refused_and_changes_nothing() {
    let mut other = sim(json!({ "preset": "bug39267", "dataNodes": 4, "durationMs": 200, "warmupMs": 50 }));
    other.run_until(50_000_000);
    let cp = other.checkpoint();
    let (fresh, _) = finish(&mut sim(short("bug39267")));
    let mut s = sim(short("bug39267"));
    s.run_until(100_000_000);
    let err = s.restore(&cp).unwrap_err();
    assert_eq!(err.field, "dataNodes");
    assert!(err.to_string().contains("another simulation"), "{err}");
    assert_eq!(s.now_ns(), 100_000_000);
    assert_eq!(finish(&mut s).0, fresh);
}

#[test]
fn a_checkpoint_costs_at_most_what_the_simulation_holds() {
    let mut s = sim(short("bug39267"));
    s.run_until(200_000_000);
    let cp = s.checkpoint();
    // A copy holds its lengths, not the original's spare capacity.
    assert!(cp.memory_bytes() <= s.memory_bytes(), "{} > {}", cp.memory_bytes(), s.memory_bytes());
    assert!(cp.memory_bytes() < 4 << 20, "bug39267 checkpoint is {} bytes", cp.memory_bytes());
}
