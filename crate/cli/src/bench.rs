//! `hotrow bench`: how fast the model runs, as ratios, never as a pass/fail.
//!
//! For each preset it prints simulated seconds per wall second and events per second;
//! against a bare binary-heap loop of the same number of events, the model/bare ratio;
//! and with `--baseline PATH`, the speed-up against another `hotrow` binary, both run as
//! child processes on the same scenario, alternately, best of `--reps`, with the digests
//! compared so a speed-up that changed the outcome shows.

use hotrow::{Config, Simulation};
use serde::Serialize;
use std::collections::BinaryHeap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PresetBench {
    preset: String,
    simulated_seconds: f64,
    events: u64,
    wall_seconds: f64,
    events_per_second: f64,
    /// Simulated seconds per wall second (above 1: faster than real time).
    real_time_factor: f64,
    /// Events per second of a bare binary-heap push/pop loop with as many events.
    bare_heap_events_per_second: f64,
    /// Model events/s over bare-heap events/s.
    bare_heap_ratio: f64,
    /// Events after warm-up per row inserted, and per user transaction committed (0 when
    /// none was).
    events_per_insert: f64,
    events_per_transaction: f64,
    digest: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<Baseline>,
    /// Why the baseline binary could not run this preset (an older build may not know it).
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_error: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Baseline {
    path: String,
    /// Best wall time of each binary over the repetitions, as child processes.
    baseline_seconds: f64,
    this_seconds: f64,
    speed_up: f64,
    /// Both binaries gave the same digest.
    same_outcome: bool,
    baseline_digest: String,
}

pub struct Options<'a> {
    pub presets: Vec<String>,
    pub duration_ms: u64,
    pub reps: u32,
    pub baseline: Option<&'a Path>,
}

const WARMUP_MS: u64 = 200;

pub fn run(o: &Options, mut progress: impl FnMut(&str)) -> Result<Vec<PresetBench>, String> {
    let mut out = Vec::new();
    for preset in &o.presets {
        let config = Config::from_json(&serde_json::json!({
            "preset": preset, "durationMs": o.duration_ms, "warmupMs": WARMUP_MS
        }))
        .map_err(|e| e.to_string())?;
        progress(&format!("{preset}: in process"));
        let simulated_seconds = config.end_ns() as f64 / 1e9;
        let clients = config.clients() as u64;
        let mut best = f64::MAX;
        let (mut events, mut digest) = (0, String::new());
        let (mut per_insert, mut per_txn) = (0.0, 0.0);
        for _ in 0..o.reps {
            let mut sim = Simulation::new(config.clone());
            let t = Instant::now();
            sim.run_until(hotrow::time::from_ms(WARMUP_MS));
            let warm = sim.events();
            sim.run_to_end();
            best = best.min(t.elapsed().as_secs_f64());
            events = sim.events();
            let s = sim.summary();
            let measured = (events - warm) as f64;
            let per = |rate: f64| if rate > 0.0 { measured / (rate * s.simulated_seconds) } else { 0.0 };
            (per_insert, per_txn) = (per(s.inserts_per_second), per(s.transactions_per_second));
            digest = s.digest;
        }
        let bare = (0..o.reps).map(|_| bare_heap(events, 4 * clients)).fold(f64::MAX, f64::min);
        let (baseline, baseline_error) = match o.baseline {
            Some(path) => {
                progress(&format!("{preset}: against {}", path.display()));
                match against(path, preset, o) {
                    Ok(b) => (Some(b), None),
                    Err(e) => (None, Some(e)),
                }
            }
            None => (None, None),
        };
        out.push(PresetBench {
            preset: preset.clone(),
            simulated_seconds,
            events,
            wall_seconds: best,
            events_per_second: events as f64 / best,
            real_time_factor: simulated_seconds / best,
            bare_heap_events_per_second: events as f64 / bare,
            bare_heap_ratio: bare / best,
            events_per_insert: per_insert,
            events_per_transaction: per_txn,
            digest,
            baseline,
            baseline_error,
        });
    }
    Ok(out)
}

/// Runs `hotrow run --json` of the baseline and of this binary alternately.
fn against(path: &Path, preset: &str, o: &Options) -> Result<Baseline, String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let (mut theirs, mut mine) = (f64::MAX, f64::MAX);
    let (mut their_digest, mut my_digest) = (String::new(), String::new());
    for _ in 0..o.reps {
        let (t, d) = timed_run(path, preset, o.duration_ms)?;
        theirs = theirs.min(t);
        their_digest = d;
        let (t, d) = timed_run(&me, preset, o.duration_ms)?;
        mine = mine.min(t);
        my_digest = d;
    }
    Ok(Baseline {
        path: path.display().to_string(),
        baseline_seconds: theirs,
        this_seconds: mine,
        speed_up: theirs / mine,
        same_outcome: their_digest == my_digest,
        baseline_digest: their_digest,
    })
}

fn timed_run(bin: &Path, preset: &str, duration_ms: u64) -> Result<(f64, String), String> {
    let t = Instant::now();
    let output = Command::new(bin)
        .args(["run", "--preset", preset, "--json", "--set"])
        .arg(format!("durationMs={duration_ms}"))
        .arg("--set")
        .arg(format!("warmupMs={WARMUP_MS}"))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let wall = t.elapsed().as_secs_f64();
    if !output.status.success() {
        return Err(format!("{} run --preset {preset} failed: {}", bin.display(), String::from_utf8_lossy(&output.stderr)));
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|e| format!("{} printed no JSON summary: {e}", bin.display()))?;
    let digest = summary["digest"].as_str().unwrap_or("").to_string();
    Ok((wall, digest))
}

/// Seconds to push and pop `events` events through a plain `BinaryHeap` ordered by
/// (time, seq) with a standing population like the model's, doing no work per event.
fn bare_heap(events: u64, population: u64) -> f64 {
    let mut q: BinaryHeap<std::cmp::Reverse<(u64, u64, [u32; 6])>> = BinaryHeap::with_capacity(population as usize);
    let mut x = 0x9E37_79B9u64;
    let mut seq = 0;
    for i in 0..population {
        seq += 1;
        q.push(std::cmp::Reverse((i, seq, [i as u32; 6])));
    }
    let t = Instant::now();
    let mut sink = 0u64;
    for _ in 0..events {
        let std::cmp::Reverse((time, _, e)) = q.pop().expect("population never drains");
        sink = sink.wrapping_add(e[0] as u64);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        seq += 1;
        q.push(std::cmp::Reverse((time + 1 + (x % 100_000), seq, e)));
    }
    let s = t.elapsed().as_secs_f64();
    std::hint::black_box(sink);
    s
}

/// `hotrow bench`: every preset asked, as a table or JSON.
pub fn command(o: &Options, json: bool) -> std::process::ExitCode {
    match run(o, |what| eprintln!("bench: {what}")) {
        Ok(results) if json => {
            println!("{}", serde_json::to_string_pretty(&results).expect("bench results serialise"));
            std::process::ExitCode::SUCCESS
        }
        Ok(results) => {
            print!("{}", render(&results));
            std::process::ExitCode::SUCCESS
        }
        Err(msg) => crate::bad_input(&msg),
    }
}

pub fn render(results: &[PresetBench]) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{:<18} {:>10} {:>12} {:>10} {:>12} {:>10} {:>10} {:>10}",
        "preset", "events", "M events/s", "x real", "bare heap", "ev/insert", "ev/txn", "baseline"
    );
    for r in results {
        let base = match (&r.baseline, &r.baseline_error) {
            (Some(b), _) => format!("{:.2}x{}", b.speed_up, if b.same_outcome { "" } else { " DIFFERENT OUTCOME" }),
            (None, Some(_)) => "cannot run".into(),
            (None, None) => "-".into(),
        };
        let _ = writeln!(
            o,
            "{:<18} {:>10} {:>12.2} {:>10.2} {:>11.2}x {:>10.1} {:>10.1} {:>10}",
            r.preset,
            r.events,
            r.events_per_second / 1e6,
            r.real_time_factor,
            r.bare_heap_ratio,
            r.events_per_insert,
            r.events_per_transaction,
            base
        );
    }
    let _ = writeln!(
        o,
        "\nx real: simulated s per wall s. bare heap: model events/s over a bare BinaryHeap loop's\n(1.0 = the model costs what the bare queue alone costs). ev/insert, ev/txn: events after\nwarm-up per row inserted and per user transaction committed. baseline: wall time of the other\nbinary over this one's, same scenario, child processes, best of the repetitions."
    );
    for r in results {
        if let Some(e) = &r.baseline_error {
            let _ = writeln!(o, "baseline cannot run {}: {}", r.preset, e.trim());
        }
    }
    o
}
