//! `hotrow`: runs the simulation headless. It parses arguments, prints, and nothing else;
//! every number comes from the `hotrow` library.

use clap::{Parser, Subcommand};
use hotrow::{Config, ConfigError, Simulation, Summary};
use serde_json::{Map, Value};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

mod bench;
mod equivalence;
mod explain;
mod swarm;
mod sweep;
mod table;
mod trace;
mod workloads;

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
  hotrow workloads                                DBT2 and the shipped workload specs (tpcb, ycsb-a, ...)
  hotrow run --preset modern --workload tpcb      a shipped workload on the modern cluster
  hotrow run --workload my-spec.json              your own transactions (`hotrow workloads --json`)
  hotrow validate                                 the bug report's measurements vs the model
  hotrow run --preset bug39267 --csv              the window time series, one row per window
  hotrow run --preset modern --workload tpcb --remedies   what holds it, and what each remedy buys
  hotrow sweep --vary cacheSize=1,10,100,1000 --seeds 2 --csv
  hotrow sweep --vary dataNodes=2,4,8 --vary hintedRefill=false,true --json
  hotrow swarm --seeds 1000                       random configs and faults, invariants checked
  hotrow fields                                   every config field: unit, range, default, live
  hotrow metrics                                  every metric of windows and summaries: unit, meaning
  hotrow trace --preset modern --set durationMs=10   one line per event, a hash per window
  hotrow trace --preset modern --baseline ./old/hotrow      the first event where another build differs
  hotrow bench --baseline ./old/hotrow
  hotrow equivalence --baseline ./old/hotrow --seeds 20      outcomes distributed alike?

Config fields are camelCase, as in the JSON config, the npm API and playground URLs
(`hotrow fields` lists them). `hotrow run --json` shows every field's effective value.

Exit codes: 0 ok, 1 a run or check failed, 2 bad input.";

#[derive(Subcommand)]
enum Command {
    /// Run one scenario and print its summary.
    Run {
        #[command(flatten)]
        scenario: Scenario,
        /// Print one JSON object (the summary) instead of a table.
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// Print the metrics windows as CSV, one row per window, instead of a table.
        #[arg(long)]
        csv: bool,
        /// Then run each standard remedy for the bottleneck (a bigger cache, slots, more
        /// threads, ...) from the start and print what each bought, as a table.
        #[arg(long, conflicts_with_all = ["json", "csv"])]
        remedies: bool,
        /// Report a broken invariant at the end, as a bug would: tests exit code 1.
        #[arg(long, hide = true)]
        fail_check_for_tests: bool,
    },
    /// Run a grid of configurations (every combination of the --vary lists, times
    /// --seeds seeds) in parallel and print one row per run, or per-point means.
    Sweep {
        #[command(flatten)]
        scenario: Scenario,
        /// A field and its values, e.g. `cacheSize=1,10,100` or `workload=dbt2,ndbapi-insert`.
        /// Repeatable: the grid is every combination.
        #[arg(long = "vary", value_name = "FIELD=V1,V2,...", required = true)]
        varies: Vec<String>,
        /// Seeds per grid point: the config's seed, seed+1, ...
        #[arg(long, default_value_t = 1)]
        seeds: u64,
        /// Threads to run on (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Run only the I-th of N contiguous slices of the grid (1-based), e.g. `2/8`; the
        /// CSV slices concatenate (only slice 1 prints the header).
        #[arg(long, value_name = "I/N")]
        shard: Option<String>,
        /// One CSV row per run (the default).
        #[arg(long, conflicts_with = "json")]
        csv: bool,
        /// Per grid point, each metric's mean and 95% interval over the seeds, as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print one line per event, in the order processed, with a hash per metrics window
    /// (tab-separated columns: index, time_ns, event, station, from, signal, txn, op,
    /// replica, gen, remote, cost, alloc); with --baseline, trace the same run with another
    /// build and report the first event where the two differ (exit 1), or none (exit 0).
    Trace {
        #[command(flatten)]
        scenario: Scenario,
        /// Another `hotrow` binary (one that has `trace`): compare its trace with this one's.
        #[arg(long, value_name = "PATH")]
        baseline: Option<std::path::PathBuf>,
        /// Set a field on the baseline's run only, e.g. to see a change caught. Repeatable.
        #[arg(long = "baseline-set", value_name = "KEY=VALUE", requires = "baseline")]
        baseline_sets: Vec<String>,
    },
    /// List the presets.
    Presets {
        /// Print JSON (`[{ name, description, config }]`) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// List the workloads: DBT2 (built in) and the shipped workload specs.
    Workloads {
        /// Print JSON (`[{ name, about, spec }]`, each spec in full) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// List every config field: unit, allowed values, default, whether it can change live.
    Fields {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// List every metric a window or the summary reports: name, unit, shape, meaning.
    Metrics {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Reproduce the bug report's measurements (Bug #39267) and print reported vs model, pass/fail.
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
        /// Print one JSON object: every seed's config, digest, events and failure.
        #[arg(long)]
        json: bool,
        /// Another `hotrow` binary: run the same seeds with it too and report every seed
        /// whose digest differs (a refactor check over every config field).
        #[arg(long, value_name = "PATH")]
        baseline: Option<std::path::PathBuf>,
    },
    /// Compare this build's outcomes with another build's, statistically: every preset over
    /// --seeds seeds, each summary metric's means with a 99.9% Welch interval of their
    /// difference. Exit 1 if any metric of any preset differs.
    Equivalence {
        /// The other `hotrow` binary (e.g. a build of the previous commit).
        #[arg(long, value_name = "PATH")]
        baseline: std::path::PathBuf,
        /// Presets to compare, comma-separated (default: every preset).
        #[arg(long, value_delimiter = ',')]
        presets: Vec<String>,
        /// Seeds per preset (1, 2, ...); at least 2.
        #[arg(long, default_value_t = 20)]
        seeds: u64,
        /// Measured simulated milliseconds per run.
        #[arg(long, default_value_t = 500)]
        duration_ms: u64,
        /// Simulated warm-up milliseconds per run.
        #[arg(long, default_value_t = 200)]
        warmup_ms: u64,
        /// Set a field on both sides, e.g. `clientsPerApiNode=8`. Repeatable.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        sets: Vec<String>,
        /// Set a field on the baseline's runs only, e.g. to check that a small change
        /// is caught (`cpu.lqhWriteNs=10395`). Repeatable.
        #[arg(long = "baseline-set", value_name = "KEY=VALUE")]
        baseline_sets: Vec<String>,
        /// Threads to run on (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
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
    /// Read config fields from this JSON file, or from standard input with `-` (a
    /// `preset` field in it is honoured).
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    /// The workload: a name (`hotrow workloads` lists them) or a JSON file holding a
    /// workload spec. Applied after --config and --preset, before --set.
    #[arg(long, value_name = "FILE|NAME")]
    workload: Option<String>,
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
            let text = if path == "-" {
                std::io::read_to_string(std::io::stdin()).map_err(|e| format!("cannot read --config - (standard input): {e}"))?
            } else {
                std::fs::read_to_string(path).map_err(|e| format!("cannot read --config {path}: {e}"))?
            };
            match serde_json::from_str(&text) {
                Ok(Value::Object(m)) => obj = m,
                Ok(_) => return Err(format!("--config {path}: must hold one JSON object")),
                Err(e) => return Err(format!("--config {path}: not valid JSON: {e}")),
            }
        }
        if let Some(p) = &self.preset {
            obj.insert("preset".into(), Value::String(p.clone()));
        }
        if let Some(w) = &self.workload {
            obj.insert("workload".into(), workloads::value(w)?);
        }
        for s in &self.sets {
            let (key, value) = parse_set(s)?;
            hotrow::config::set_dotted(&mut obj, &key, value).map_err(|e| e.to_string())?;
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
        Command::Run { scenario, json, csv, remedies, fail_check_for_tests } => match scenario.config() {
            Ok(config) => {
                let (summary, windows) = match run_with_progress(config, fail_check_for_tests) {
                    Ok(done) => done,
                    Err(broken) => {
                        eprintln!("error: {broken}");
                        return ExitCode::from(1);
                    }
                };
                if csv {
                    if let Err(e) = table::windows_csv(std::io::stdout().lock(), &windows) {
                        eprintln!("error: writing CSV: {e}");
                        return ExitCode::from(1);
                    }
                } else if json {
                    println!("{}", serde_json::to_string_pretty(&summary).expect("summary serialises"));
                } else {
                    print!("{}", table::render(&summary));
                }
                if remedies {
                    let base = scenario.to_json().expect("it gave the config above");
                    print!("{}", explain::remedies(&base, &summary, |c| run_with_progress(c, false).map(|(s, _)| s)));
                }
                if summary.duplicate_ids > 0 {
                    eprintln!("error: {} duplicate ids issued", summary.duplicate_ids);
                    return ExitCode::from(1);
                }
                ExitCode::SUCCESS
            }
            Err(msg) => bad_input(&msg),
        },
        Command::Sweep { scenario, varies, seeds, jobs, shard, csv: _, json } => sweep(&scenario, &varies, seeds, jobs, shard, json),
        Command::Trace { scenario, baseline, baseline_sets } => {
            // Read once: `--config -` is standard input.
            let json = match scenario.to_json() {
                Ok(v) => v,
                Err(msg) => return bad_input(&msg),
            };
            let config = match Config::from_json(&json) {
                Ok(c) => c,
                Err(e) => return bad_input(&e.to_string()),
            };
            match baseline {
                Some(path) => {
                    if let Some(bad) = baseline_sets.iter().find_map(|s| parse_set(s).err()) {
                        return bad_input(&bad);
                    }
                    trace::against(config, &json, &path, &baseline_sets)
                }
                None => trace::print(config),
            }
        }
        Command::Fields { json } => {
            let fields = hotrow::config::fields::describe();
            if json {
                println!("{}", serde_json::to_string_pretty(&fields).expect("fields serialise"));
            } else {
                print!("{}", table::fields(&fields));
            }
            ExitCode::SUCCESS
        }
        Command::Metrics { json } => {
            if json {
                println!("{}", serde_json::to_string_pretty(&hotrow::catalog::describe()).expect("metrics serialise"));
            } else {
                print!("{}", table::metrics());
            }
            ExitCode::SUCCESS
        }
        Command::Presets { json } => {
            if json {
                let list: Vec<Value> = hotrow::PRESETS
                    .iter()
                    .map(|(name, description)| {
                        let config = Config::from_preset(name).expect("presets are valid");
                        serde_json::json!({ "name": name, "description": description, "config": config })
                    })
                    .collect();
                println!("{}", serde_json::to_string_pretty(&list).expect("presets serialise"));
            } else {
                for (name, about) in hotrow::PRESETS {
                    println!("{name:<18} {about}");
                }
            }
            ExitCode::SUCCESS
        }
        Command::Workloads { json } => {
            workloads::print(json);
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
            if report.pass {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Command::Swarm { seeds, start, json, baseline } => swarm::run(start, seeds, json, baseline.as_deref()),
        Command::Equivalence { baseline, presets, seeds, duration_ms, warmup_ms, sets, baseline_sets, jobs, json } => {
            let parse = |list: &[String]| list.iter().map(|s| parse_set(s)).collect::<Result<Vec<_>, String>>();
            let (sets, baseline_sets) = match (parse(&sets), parse(&baseline_sets)) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(msg), _) | (_, Err(msg)) => return bad_input(&msg),
            };
            let presets = if presets.is_empty() { hotrow::PRESETS.iter().map(|(n, _)| n.to_string()).collect() } else { presets };
            if seeds < 2 {
                return bad_input(&format!("--seeds {seeds}: at least 2 (an interval needs a spread)"));
            }
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let options = equivalence::Options { baseline: &baseline, presets, seeds, duration_ms, warmup_ms, sets, baseline_sets, jobs };
            // Every config both sides will run must be valid before anything runs.
            for p in &options.presets {
                let mut m = Map::new();
                m.insert("preset".into(), Value::String(p.clone()));
                m.insert("durationMs".into(), duration_ms.into());
                m.insert("warmupMs".into(), warmup_ms.into());
                for (k, v) in options.sets.iter().chain(&options.baseline_sets) {
                    if let Err(e) = hotrow::config::set_dotted(&mut m, k, v.clone()) {
                        return bad_input(&e.to_string());
                    }
                }
                if let Err(e) = Config::from_json(&Value::Object(m)) {
                    return bad_input(&e.to_string());
                }
            }
            let started = Instant::now();
            let report = equivalence::run(&options, |done, total| {
                if done % 20 == 0 || done == total {
                    eprintln!("equivalence: {done} of {total} runs");
                }
            });
            match report {
                Ok(r) => {
                    eprintln!("equivalence: {:.1} s", started.elapsed().as_secs_f64());
                    if json {
                        println!("{}", serde_json::to_string_pretty(&r).expect("the report serialises"));
                    } else {
                        print!("{}", equivalence::render(&r));
                    }
                    if r.equal {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::from(1)
                    }
                }
                Err(msg) => bad_input(&msg),
            }
        }
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

fn sweep(scenario: &Scenario, varies: &[String], seeds: u64, jobs: Option<usize>, shard: Option<String>, json: bool) -> ExitCode {
    let Value::Object(base) = (match scenario.to_json() {
        Ok(v) => v,
        Err(msg) => return bad_input(&msg),
    }) else {
        unreachable!("to_json builds an object")
    };
    let varies: Vec<sweep::Vary> = match varies.iter().map(|v| sweep::Vary::parse(v)).collect() {
        Ok(v) => v,
        Err(msg) => return bad_input(&msg),
    };
    if !(1..=10_000).contains(&seeds) {
        return bad_input(&format!("--seeds {seeds}: must be from 1 to 10000"));
    }
    let shard = match shard.as_deref().map(sweep::Shard::parse).transpose() {
        Ok(s) => s,
        Err(msg) => return bad_input(&msg),
    };
    let runs = match sweep::grid(&base, &varies, seeds) {
        Ok(r) => r,
        Err(msg) => return bad_input(&msg),
    };
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return bad_input("--jobs 0: give at least 1");
    }
    let range = sweep::slice(shard, runs.len());
    let started = Instant::now();
    let outcomes = sweep::run(&runs, range.clone(), jobs);
    eprintln!("sweep: {} runs on {jobs} threads in {:.1} s", outcomes.len(), started.elapsed().as_secs_f64());
    let runs = &runs[range];
    if json {
        let points = sweep::summarise(&varies, runs, &outcomes);
        println!("{}", serde_json::to_string_pretty(&points).expect("points serialise"));
    } else {
        let header = shard.is_none_or(|s| s.index == 1);
        if let Err(e) = sweep::write_csv(std::io::stdout().lock(), &varies, runs, &outcomes, header) {
            eprintln!("error: writing CSV: {e}");
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

/// `KEY=VALUE`, the value read as JSON when it parses, else as a string.
fn parse_set(s: &str) -> Result<(String, Value), String> {
    let Some((key, raw)) = s.split_once('=') else {
        return Err(format!("--set {s}: expected KEY=VALUE, e.g. --set cacheSize=1000"));
    };
    let value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
    Ok((key.trim().to_string(), value))
}

fn bad_input(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// Runs to the end in slices, showing progress on stderr once the run passes a second.
/// Returns the summary and the windows still in the ring, or the broken invariant (a bug
/// in hotrow), named with the seed that reproduces it.
fn run_with_progress(config: Config, fail_check: bool) -> Result<(Summary, Vec<hotrow::Window>), String> {
    let seed = config.seed;
    let run = std::panic::catch_unwind(move || simulate(config, fail_check));
    run.unwrap_or_else(|panic| {
        let msg = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
        Err(format!("internal error (a bug in hotrow; seed {seed}): {}", msg.unwrap_or_else(|| "panic".into())))
    })
}

fn simulate(config: Config, fail_check: bool) -> Result<(Summary, Vec<hotrow::Window>), String> {
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
            if terminal {
                eprint!("\r{line}")
            } else {
                eprintln!("{line}")
            }
            let _ = std::io::stderr().flush();
        }
    }
    if terminal && next_report > 1.0 {
        eprintln!();
    }
    let checked = if fail_check { Err("deliberate failure requested by a test".to_string()) } else { sim.check_invariants() };
    if let Err(broken) = checked {
        return Err(format!("invariant broken at the end of the run (a bug in hotrow; seed {}): {broken}", sim.config().seed));
    }
    Ok((sim.summary(), sim.windows().cloned().collect()))
}
