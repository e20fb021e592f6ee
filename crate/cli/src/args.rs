//! The command line: the subcommands and their flags (clap); the scenario a command runs
//! is `scenario.rs`.

pub use crate::scenario::{parse_set, Scenario};
use clap::{Parser, Subcommand};

/// Simulate how a hot counter row throttles a MySQL Cluster (NDB), after MySQL Bug #39267.
///
/// Tables without a primary key took their hidden key from one counter row per table,
/// fetched one id at a time (cache size 1) and without a transaction hint: every insert
/// also updated that row under two-phase commit. hotrow simulates the cluster (data
/// nodes, threads, partitions, 2PC, row locks, network) and the id allocator, event by
/// event, deterministically from a seed.
#[derive(Parser)]
#[command(name = "hotrow", version, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
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
  hotrow fit --preset ndbapi-pk --measured points.csv     fit cpu.scale and network.latencyUs to your measurements
  hotrow run --preset bug39267 --csv              the window time series, one row per window
  hotrow run --preset modern --workload tpcb --remedies   what holds it, and what each remedy buys
  hotrow sweep --vary cacheSize=1,10,100,1000 --seeds 2 --csv
  hotrow measure --postgres 'host=/tmp/pg port=5432 dbname=db' --script one.sql --setup schema.sql --out points.csv
  hotrow measure --mysql 'mysql://root@localhost/db?socket=/run/mysqld/mysqld.sock' --script one.sql --own counters
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

const FIT_EXAMPLES: &str = "Examples:
  hotrow fit --preset ndbapi-pk --measured points.csv
  hotrow fit --preset bug39267 --measured dbt2.csv --fit cpu.scale
  hotrow fit --preset modern --measured m.csv --fit cpu.scale,network.latencyUs,cpu.serviceCv --seeds 2
  hotrow fit --measured points.csv --predict dataNodes=2,4,8,16,32 --json

points.csv, e.g.:
  dataNodes,insertsPerSecond
  2,21000
  4,38500
  8,61000";

#[derive(Subcommand)]
pub enum Command {
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
    /// Run one scenario and write it as one HTML file that needs no JavaScript: its
    /// header, the throughput over time with the bound, what holds it, the load per data
    /// node, the node x time heatmap and the hottest rows, each figure an inline SVG beside
    /// its numbers.
    Report {
        #[command(flatten)]
        scenario: Scenario,
        /// The file to write (default: standard output).
        #[arg(short, long, value_name = "FILE")]
        out: Option<String>,
        /// Only the report's block (its style, figures and tables), to paste into a page.
        #[arg(long, conflicts_with = "svg")]
        fragment: bool,
        /// One figure alone, as an SVG file: throughput, nodes or heatmap.
        #[arg(long, value_name = "NAME", conflicts_with = "vary")]
        svg: Option<String>,
        /// A sweep's report instead: one run at each value of a field (`cacheSize=1,10,100`),
        /// its curve marked where the bottleneck changes.
        #[arg(long, value_name = "FIELD=V1,V2,...")]
        vary: Option<String>,
        /// Threads a sweep runs on (default: the number of cores).
        #[arg(long, requires = "vary")]
        jobs: Option<usize>,
        /// Then run each standard remedy for the bottleneck from the start and add the table
        /// of what each would lift it to.
        #[arg(long, conflicts_with_all = ["svg", "vary"])]
        remedies: bool,
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
        /// CSV slices concatenate (only slice 1 prints the header). `auto`: from Slurm's
        /// SLURM_ARRAY_TASK_ID (and _MIN, _COUNT) or a Kubernetes Indexed Job's
        /// JOB_COMPLETION_INDEX (with --shards).
        #[arg(long, value_name = "I/N|auto")]
        shard: Option<String>,
        /// With `--shard auto`: how many slices (a Job's completions; Slurm's
        /// SLURM_ARRAY_TASK_COUNT otherwise).
        #[arg(long, value_name = "N")]
        shards: Option<usize>,
        /// Write each run's result as a JSON line to DIR/shard-I-of-N.jsonl as runs finish
        /// (keyed by the run's config, seed and this build), instead of printing the CSV;
        /// `hotrow merge DIR` prints the whole grid.
        #[arg(long, value_name = "DIR", conflicts_with_all = ["json", "csv"])]
        out: Option<std::path::PathBuf>,
        /// With --out: run only the runs DIR does not hold yet (a killed shard goes on).
        #[arg(long, requires = "out")]
        resume: bool,
        /// One CSV row per run (the default).
        #[arg(long, conflicts_with = "json")]
        csv: bool,
        /// Per grid point, each metric's mean and 95% interval over the seeds, as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Merge a sweep's result files (`sweep --out DIR`, every shard's) into the whole grid's
    /// CSV, in grid order, as one unsharded sweep prints it; refuses results of two builds
    /// or two grids, and a grid with runs missing.
    Merge {
        /// The directory the shards wrote to.
        dir: std::path::PathBuf,
        /// Per grid point, each metric's mean and 95% interval over the seeds, as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Fit config fields to measured points: search the --fit fields so that the model's
    /// metric meets the measured one at every point (relative least squares, the same
    /// seeds at every step, runs on every core), print each fitted value with a 95%
    /// interval, each point's residual and bottleneck, and the Universal Scalability Law
    /// fitted to the same points beside it.
    #[command(after_help = FIT_EXAMPLES)]
    Fit {
        #[command(flatten)]
        scenario: Scenario,
        /// CSV of measured points: a header naming the config fields that varied and one
        /// summary metric (tpm, transactionsPerSecond, insertsPerSecond, latencyUs.p50,
        /// ...), then one row per measurement; `-` reads standard input.
        #[arg(long, value_name = "FILE.csv")]
        measured: String,
        /// The numeric fields to fit, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = hotrow_fit::DEFAULT_FIT)]
        fit: Vec<String>,
        /// Seeds per point (the config's seed, seed+1, ...), the same at every step.
        #[arg(long, default_value_t = hotrow_fit::Options::default().seeds)]
        seeds: u64,
        /// Search iterations at most (each runs one to n+2 parameter sets).
        #[arg(long, default_value_t = hotrow_fit::Options::default().max_iterations)]
        max_iterations: u64,
        /// Then predict at these values with the fitted fields, e.g. `dataNodes=2,4,8,16,32`.
        /// Repeatable: the grid is every combination.
        #[arg(long = "predict", value_name = "FIELD=V1,V2,...")]
        predict: Vec<String>,
        /// Threads to run on (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Print one JSON object ({ fit, predictions }) instead of tables.
        #[arg(long)]
        json: bool,
    },
    /// Print one line per event, in the order processed, with a hash per metrics window
    /// (tab-separated columns: index, time_ns, event, station, subject, signal, txn, op,
    /// replica, generation, remote, cost, alloc); with --baseline, trace the same run with
    /// another build and report the first event where the two differ (exit 1), or none (exit 0).
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
    /// Import SQL as a workload spec: a schema (CREATE TABLE, ALTER TABLE ... ADD PRIMARY
    /// KEY) and transactions (BEGIN ... COMMIT blocks, autocommit statements, pgbench
    /// scripts with \set), every assumption said with its file, line and column. The same
    /// files run directly: `hotrow run --workload schema.sql,script.sql`.
    Import {
        /// The SQL files, the schema among them; `FILE@WEIGHT` weights a script's
        /// transactions in the mix, as pgbench's `-f FILE@WEIGHT` does.
        #[arg(required = true, value_name = "FILE[@WEIGHT]")]
        files: Vec<String>,
        /// The SQL dialect: mysql or postgres (default: postgres for a pgbench script, a
        /// SERIAL column, ON CONFLICT, nextval or a $1 parameter, else mysql).
        #[arg(long, value_name = "mysql|postgres")]
        dialect: Option<String>,
        /// pgbench's scale factor (`:scale`), the spec's `scale`.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100000))]
        scale: u64,
        /// Print `{ spec, assumptions, statements }` as JSON (statements: what each statement became) (the spec runs as `--workload spec.json`).
        #[arg(long)]
        json: bool,
    },
    /// Measure your own PostgreSQL, MySQL or MariaDB: a pgbench-style script (SQL
    /// statements, `\set k random(1, N)` lines) as closed loops at each client count; print
    /// transactions/s and latency, labelled measured, and write them as `hotrow fit
    /// --measured` reads them. Writes only to the workload's own tables; a server on another
    /// machine only with --allow-remote.
    Measure {
        /// A PostgreSQL, as libpq takes it: `host=/tmp/dir port=5432 user=me dbname=db`, or
        /// `postgresql://me@localhost:5432/db`.
        #[arg(long, value_name = "CONNINFO", required_unless_present = "mysql", conflicts_with = "mysql")]
        postgres: Option<String>,
        /// A MySQL or MariaDB: `mysql://me:pw@127.0.0.1:3306/db`, or on a socket
        /// `mysql://root@localhost/db?socket=/run/mysqld/mysqld.sock`.
        #[arg(long, value_name = "URL")]
        mysql: Option<String>,
        /// The script each client runs again and again (one run is one transaction).
        #[arg(long, value_name = "FILE.sql")]
        script: String,
        /// SQL run once before measuring; the tables it creates are the workload's own.
        #[arg(long, value_name = "FILE.sql")]
        setup: Option<String>,
        /// Tables the script may write besides those --setup creates (e.g. pgbench's, made by
        /// `pgbench -i`).
        #[arg(long, value_delimiter = ',', value_name = "TABLE,...")]
        own: Vec<String>,
        /// Client counts, measured one after another.
        #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32", value_name = "N,...")]
        clients: Vec<u32>,
        /// Measured seconds per client count.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Seconds run before each measurement, not counted.
        #[arg(long, default_value_t = 1.0)]
        warmup_seconds: f64,
        /// pgbench's scale factor (`:scale`, and the ranges written with it).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(i64).range(1..=100000))]
        scale: i64,
        /// Write the points as CSV (`clientsPerApiNode,transactionsPerSecond`: `hotrow fit
        /// --measured` reads it).
        #[arg(long, value_name = "FILE.csv")]
        out: Option<String>,
        /// Measure a server that is not on this machine (the script writes to its tables).
        #[arg(long)]
        allow_remote: bool,
    },
    /// List the presets.
    Presets {
        /// Print JSON (`[{ name, description, config }]`) instead of a table.
        #[arg(long)]
        json: bool,
        /// Print a Markdown table (as the docs hold it) instead.
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
    },
    /// List the workloads: DBT2 (built in) and the shipped workload specs.
    Workloads {
        /// Print JSON (`[{ name, about, spec }]`, each spec in full) instead of a table.
        #[arg(long)]
        json: bool,
        /// Print a Markdown table (as the docs hold it) instead.
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
    },
    /// List every config field: unit, allowed values, default, whether it can change live.
    Fields {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Print a Markdown table (as the docs hold it) instead.
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
    },
    /// List every metric a window or the summary reports: name, unit, shape, meaning.
    Metrics {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Print a Markdown table (as the docs hold it) instead.
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
    },
    /// List the named invariants every run is checked against (the swarm after every slice).
    Invariants {
        /// Print JSON (`[{ name, promise }]`) instead of a table.
        #[arg(long)]
        json: bool,
        /// Print a Markdown table (as the docs hold it) instead.
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
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
