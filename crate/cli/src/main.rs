//! `hotrow`: runs the simulation headless. It parses arguments, prints, and nothing else;
//! every number comes from the `hotrow` library.

use clap::{Parser, Subcommand};
use hotrow::{Config, ConfigError, Simulation, Summary};
use serde_json::{Map, Value};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

mod bench;
mod table;

/// Simulate how a hot counter row throttles a MySQL Cluster (NDB), after MySQL Bug #39267.
///
/// Tables without a primary key took their hidden key from one counter row per table,
/// fetched one id at a time (cache size 1) and without a transaction hint: every insert
/// also updated that row under two-phase commit. hotrow simulates the cluster (data
/// nodes, threads, partitions, 2PC, row locks, network) and the id allocator, event by
/// event, deterministically from a seed.
#[derive(Parser)]
#[command(name = "hotrow", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXAMPLES: &str = "Examples:
  hotrow run --preset bug39267                    the 2008 bug: DBT2, 8 data nodes, cache 1
  hotrow run --preset bug39267 --set cacheSize=1000 --json
  hotrow run --preset ndbapi-hidden-pk --set network.latencyUs=20
  hotrow run --config my.json --set seed=7
  hotrow run --set 'faults=[{\"atMs\":2000,\"kind\":\"dataNodeFailure\",\"dataNode\":1}]'
  hotrow presets
  hotrow validate                                 the bug report's measurements vs the model
  hotrow swarm --seeds 1000                       random configs and faults, invariants checked
  hotrow bench

Config fields (camelCase, as in the JSON config and the npm API):
  seed, workload (\"dbt2\" | \"ndbapi-insert\"), dataNodes, replicas, ldmThreads, tcThreads,
  apiNodes, apiCores, clientsPerApiNode, thinkTimeUs, cacheSize, hintedRefill,
  hintedTransactions, primaryKey, warehouses, durationMs, warmupMs, windowMs,
  network.latencyUs, cpu.{tcOpNs, tcReplyNs, tcCommitNs, lqhReadNs, lqhWriteNs,
  lqhCommitNs, lqhCompleteNs, apiStatementNs, apiExecuteNs, apiOpNs, apiReplyNs},
  faults (array of {atMs, kind: dataNodeFailure|apiNodeRestart|networkDelay, ...})
Run `hotrow run --json` to see every field with its effective value.

Exit codes: 0 ok, 1 a run or check failed, 2 bad input.";

#[derive(Subcommand)]
enum Command {
    /// Run one scenario and print its summary.
    Run {
        #[command(flatten)]
        scenario: Scenario,
        /// Print one JSON object (the summary) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// List the presets.
    Presets,
    /// Reproduce the seed's measurements (Bug #39267) and print model vs seed, pass/fail.
    Validate {
        /// Seed of every run.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run seeded random configurations with random faults and check every invariant.
    Swarm {
        /// How many seeds to run.
        #[arg(long, default_value_t = 100)]
        seeds: u64,
        /// The first seed.
        #[arg(long, default_value_t = 0)]
        start: u64,
    },
    /// Measure simulation speed per preset: simulated s per wall s, events/s, the ratio
    /// to a bare binary-heap loop, and with --baseline the speed-up over another binary.
    Bench {
        /// Presets to measure, comma-separated (default: every preset).
        #[arg(long, value_delimiter = ',')]
        presets: Vec<String>,
        /// Simulated milliseconds per run, after a 200 ms warm-up.
        #[arg(long, default_value_t = 1000)]
        duration_ms: u64,
        /// Repetitions; the best time counts.
        #[arg(long, default_value_t = 3)]
        reps: u32,
        /// Another `hotrow` binary to compare with (e.g. an older build).
        #[arg(long, value_name = "PATH")]
        baseline: Option<std::path::PathBuf>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Args)]
struct Scenario {
    /// Start from this preset (see `hotrow presets`); default bug39267.
    #[arg(long)]
    preset: Option<String>,
    /// Read config fields from this JSON file (a `preset` field in it is honoured).
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    /// Set one field, e.g. `cacheSize=1000` or `network.latencyUs=20`. The value is read as
    /// JSON when it parses as JSON, else as a string. Repeatable; applied last.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
}

impl Scenario {
    /// The JSON object the library resolves: file, then preset flag, then `--set`s.
    fn to_json(&self) -> Result<Value, String> {
        let mut obj = Map::new();
        if let Some(path) = &self.config {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read --config {path}: {e}"))?;
            match serde_json::from_str(&text) {
                Ok(Value::Object(m)) => obj = m,
                Ok(_) => return Err(format!("--config {path}: must hold one JSON object")),
                Err(e) => return Err(format!("--config {path}: not valid JSON: {e}")),
            }
        }
        if let Some(p) = &self.preset {
            obj.insert("preset".into(), Value::String(p.clone()));
        }
        for s in &self.sets {
            let Some((key, raw)) = s.split_once('=') else {
                return Err(format!("--set {s}: expected KEY=VALUE, e.g. --set cacheSize=1000"));
            };
            let value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
            hotrow::config::set_dotted(&mut obj, key.trim(), value).map_err(|e| e.to_string())?;
        }
        Ok(Value::Object(obj))
    }

    fn config(&self) -> Result<Config, String> {
        Config::from_json(&self.to_json()?).map_err(|e: ConfigError| e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run { scenario, json } => match scenario.config() {
            Ok(config) => {
                let summary = run_with_progress(config);
                if json {
                    println!("{}", serde_json::to_string_pretty(&summary).expect("summary serialises"));
                } else {
                    print!("{}", table::render(&summary));
                }
                if summary.duplicate_ids > 0 {
                    eprintln!("error: {} duplicate ids issued", summary.duplicate_ids);
                    return ExitCode::from(1);
                }
                ExitCode::SUCCESS
            }
            Err(msg) => bad_input(&msg),
        },
        Command::Presets => {
            for (name, about) in hotrow::PRESETS {
                println!("{name:<18} {about}");
            }
            ExitCode::SUCCESS
        }
        Command::Validate { seed, json } => {
            if let Err(e) = Config::from_json(&serde_json::json!({ "seed": seed })) {
                return bad_input(&e.to_string());
            }
            let report = hotrow::validate::run(seed, |name| eprintln!("validate: running {name}"));
            if json {
                println!("{}", serde_json::to_string_pretty(&report).expect("report serialises"));
            } else {
                print!("{}", table::validation(&report));
            }
            if report.pass { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
        Command::Swarm { seeds, start } => swarm(start, seeds),
        Command::Bench { presets, duration_ms, reps, baseline, json } => {
            let presets = if presets.is_empty() { hotrow::PRESETS.iter().map(|(n, _)| n.to_string()).collect() } else { presets };
            let options = bench::Options { presets, duration_ms, reps: reps.max(1), baseline: baseline.as_deref() };
            match bench::run(&options, |what| eprintln!("bench: {what}")) {
                Ok(results) if json => {
                    println!("{}", serde_json::to_string_pretty(&results).expect("bench results serialise"));
                    ExitCode::SUCCESS
                }
                Ok(results) => {
                    print!("{}", bench::render(&results));
                    ExitCode::SUCCESS
                }
                Err(msg) => bad_input(&msg),
            }
        }
    }
}

fn swarm(start: u64, seeds: u64) -> ExitCode {
    // Panics are caught and reported per seed; keep the default hook from printing each.
    std::panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    let (mut failed, mut events, mut faults) = (0, 0, 0);
    for seed in start..start.saturating_add(seeds) {
        let o = hotrow::swarm::run_seed(seed);
        events += o.events;
        faults += o.faults;
        if let Some(msg) = &o.failure {
            failed += 1;
            println!("seed {seed}: FAILED: {msg}");
            println!("  reproduce: hotrow swarm --start {seed} --seeds 1");
            println!("  config: {}", hotrow::swarm::config_for(seed));
        }
        if (seed - start + 1) % 50 == 0 {
            eprintln!("swarm: {} seeds, {failed} failed", seed - start + 1);
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!("swarm: seeds {start}..{}: {seeds} runs, {faults} faults, {events} events in {secs:.1} s: {} passed, {failed} failed",
        start + seeds, seeds - failed);
    if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn bad_input(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// Runs to the end in slices, showing progress on stderr once the run passes a second.
fn run_with_progress(config: Config) -> Summary {
    let end = config.end_ns();
    let mut sim = Simulation::new(config);
    let started = Instant::now();
    // A terminal gets one line redrawn 4 times a second; a log gets a line every 5 s.
    let terminal = std::io::stderr().is_terminal();
    let every = if terminal { 0.25 } else { 5.0 };
    let mut next_report = 1.0;
    let slice = (end / 200).max(1);
    while !sim.finished() {
        sim.advance(slice.min(end - sim.now_ns()), u64::MAX);
        let elapsed = started.elapsed().as_secs_f64();
        if elapsed >= next_report {
            next_report = elapsed + every;
            let line = format!(
                "simulating: {:3}% ({:.1} of {:.1} simulated s)",
                100 * sim.now_ns() / end,
                sim.now_ns() as f64 / 1e9,
                end as f64 / 1e9
            );
            if terminal { eprint!("\r{line}") } else { eprintln!("{line}") }
            let _ = std::io::stderr().flush();
        }
    }
    if terminal && next_report > 1.0 {
        eprintln!();
    }
    if let Err(broken) = sim.check_invariants() {
        panic!("invariant broken at the end of the run (seed {}): {broken}", sim.config().seed);
    }
    sim.summary()
}
