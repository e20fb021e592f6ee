//! `hotrow swarm`: random configurations and faults with every invariant checked, and
//! with `--baseline` the same seeds run by another binary, digest against digest.
//!
//! The baseline comparison is the check for a change meant to keep every outcome (a
//! refactor): the swarm draws every field of the field table, so it covers fields no
//! golden case names. It compares only seeds both binaries drew the same config for; a
//! baseline whose swarm draws other configs is reported, not compared.

use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

/// One seed's line of `swarm --json`.
fn record(o: &hotrow::swarm::Outcome, config: Value) -> Value {
    json!({
        "seed": o.seed,
        "digest": o.digest,
        "events": o.events,
        "faults": o.faults,
        "failure": o.failure,
        "config": config,
    })
}

pub fn run(start: u64, seeds: u64, as_json: bool, baseline: Option<&Path>) -> ExitCode {
    // Panics are caught and reported per seed; keep the default hook from printing each.
    std::panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    let (mut failed, mut events, mut faults) = (0u64, 0u64, 0usize);
    let mut records = Vec::new();
    for seed in start..start.saturating_add(seeds) {
        let config = hotrow::swarm::config_for(seed);
        let o = hotrow::swarm::run_config(seed, &config);
        events += o.events;
        faults += o.faults;
        if let Some(msg) = &o.failure {
            failed += 1;
            if !as_json {
                println!("seed {seed}: FAILED: {msg}");
                println!("  reproduce: hotrow swarm --start {seed} --seeds 1");
                println!("  config: {config}");
            }
        }
        if (seed - start + 1).is_multiple_of(50) {
            eprintln!("swarm: {} seeds, {failed} failed", seed - start + 1);
        }
        records.push(record(&o, config));
    }
    let secs = started.elapsed().as_secs_f64();
    let end = start.saturating_add(seeds);
    let line = format!(
        "swarm: seeds {start}..{end}: {seeds} runs, {faults} faults, {events} events in {secs:.1} s: {} passed, {failed} failed",
        seeds - failed
    );
    let mut ok = failed == 0;
    if let Some(path) = baseline {
        match compare(path, start, seeds, &records) {
            Ok(report) => {
                eprintln!("{}", report.text);
                ok &= report.differ == 0;
            }
            Err(msg) => {
                eprintln!("error: {msg}");
                return ExitCode::from(2);
            }
        }
    }
    if as_json {
        let out = json!({ "start": start, "seeds": seeds, "passed": seeds - failed, "failed": failed, "runs": records });
        println!("{}", serde_json::to_string_pretty(&out).expect("swarm records serialise"));
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

struct Report {
    text: String,
    differ: usize,
}

/// Runs `baseline swarm --json` over the same seeds and compares digests seed by seed.
fn compare(baseline: &Path, start: u64, seeds: u64, ours: &[Value]) -> Result<Report, String> {
    eprintln!("swarm: running the baseline {}", baseline.display());
    let out = Command::new(baseline)
        .args(["swarm", "--json", "--start", &start.to_string(), "--seeds", &seeds.to_string()])
        .output()
        .map_err(|e| format!("--baseline {}: cannot run it: {e}", baseline.display()))?;
    let theirs: Value = serde_json::from_slice(&out.stdout).map_err(|_| {
        format!(
            "--baseline {}: its `swarm --json` printed no JSON (exit {:?}); it may predate `swarm --json`",
            baseline.display(),
            out.status.code()
        )
    })?;
    let theirs = theirs["runs"].as_array().ok_or("--baseline: its JSON has no `runs` list")?;
    let (mut same, mut differ, mut other_config) = (0, 0, 0);
    let mut text = String::new();
    for (a, b) in ours.iter().zip(theirs) {
        if a["config"] != b["config"] {
            other_config += 1;
        } else if a["digest"] == b["digest"] && a["failure"] == b["failure"] {
            same += 1;
        } else {
            differ += 1;
            text += &format!("seed {}: digest {} here, {} in the baseline\n", a["seed"], a["digest"], b["digest"]);
        }
    }
    if same + differ == 0 {
        return Err(format!(
            "--baseline {}: it drew other configs for every seed (its swarm changed), so no digest can be compared",
            baseline.display()
        ));
    }
    text +=
        &format!("swarm --baseline: {same} seeds give the same digest, {differ} differ, {other_config} drew another config (not compared)");
    Ok(Report { text, differ })
}
