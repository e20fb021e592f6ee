//! `hotrow trace`: one line per event, in the order processed, and a hash per metrics
//! window; with `--baseline PATH`, the same run traced by another build and the first event
//! where the two differ. A refactor proves "the same events in the same order" with it, and
//! a digest that moved is explained by its first differing event.
//!
//! Columns (tab-separated), as `TraceEvent` (crate/sim/src/sim/trace.rs) has them:
//!
//! ```text
//! index  time_ns  event  station  subject  signal  txn  op  replica  generation  remote  cost  alloc
//! ```
//!
//! `event` is arrive, done, clientStart, window, fault, dataNodeRestart, tick or arrival;
//! `subject` is whom it is about: the sending host (arrive), the client (clientStart), the
//! fault's index, the node (dataNodeRestart) or the API node (tick, arrival); `signal` is
//! `-` for an event that carries no message; `remote` and `alloc` are 0 or 1. After each
//! window event a line `window N HASH` carries FNV-1a (64 bits, hex) over the lines since
//! the previous window line. Lines starting with `#` are comments, not compared.

use hotrow::{Config, Fnv, Simulation, TraceEvent};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};

pub const HEADER: &str = "# hotrow trace: one line per event, in the order processed (see `hotrow trace --help`)\n\
# index\ttime_ns\tevent\tstation\tsubject\tsignal\ttxn\top\treplica\tgeneration\tremote\tcost\talloc\n";

/// The trace of `config` as lines (each ending in a newline), given one at a time to `out`;
/// stops early when `out` says false.
fn lines(config: Config, mut out: impl FnMut(&str) -> bool) {
    let end = config.end_ns();
    let mut sim = Simulation::new(config);
    let (mut line, mut hash, mut windows) = (String::with_capacity(128), Fnv::default(), 0u64);
    while let Some(e) = sim.trace_step(end) {
        line.clear();
        format_event(&mut line, &e);
        hash.feed(line.as_bytes());
        if !out(&line) {
            return;
        }
        if e.event == "window" {
            windows += 1;
            line.clear();
            let _ = std::fmt::Write::write_fmt(&mut line, format_args!("window\t{windows}\t{:016x}\n", hash.value()));
            hash = Fnv::default();
            if !out(&line) {
                return;
            }
        }
    }
}

fn format_event(line: &mut String, e: &TraceEvent) {
    let _ = std::fmt::Write::write_fmt(
        line,
        format_args!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            e.index,
            e.at_ns,
            e.event,
            e.station,
            e.subject,
            if e.signal.is_empty() { "-" } else { e.signal },
            e.txn,
            e.op,
            e.replica,
            e.generation,
            e.remote as u8,
            e.cost,
            e.alloc as u8
        ),
    );
}

/// `hotrow trace`: the run's events, or (with a baseline binary) where its trace and the
/// baseline's first part.
pub fn command(scenario: &crate::args::Scenario, baseline: Option<&Path>, baseline_sets: &[String]) -> ExitCode {
    // Read once: `--config -` is standard input.
    let json = match scenario.to_json() {
        Ok(v) => v,
        Err(msg) => return crate::bad_input(&msg),
    };
    let config = match Config::from_json(&json) {
        Ok(c) => c,
        Err(e) => return crate::bad_input(&e.to_string()),
    };
    match baseline {
        Some(path) => {
            if let Some(bad) = baseline_sets.iter().find_map(|s| crate::args::parse_set(s).err()) {
                return crate::bad_input(&bad);
            }
            against(config, &json, path, baseline_sets)
        }
        None => print(config),
    }
}

/// Prints the trace of `config` on standard output.
pub fn print(config: Config) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    if out.write_all(HEADER.as_bytes()).is_err() {
        return ExitCode::SUCCESS; // the reader went away (a pipe closed): nothing to say
    }
    let mut ok = true;
    lines(config, |l| {
        ok = out.write_all(l.as_bytes()).is_ok();
        ok
    });
    let _ = out.flush();
    ExitCode::SUCCESS
}

/// Traces `config` here and `json` (the same scenario, with `baseline_sets` on top) with
/// the build at `baseline`, and reports the first line where they differ.
pub fn against(config: Config, json: &Value, baseline: &Path, baseline_sets: &[String]) -> ExitCode {
    let mut cmd = Command::new(baseline);
    cmd.args(["trace", "--config", "-"]);
    for s in baseline_sets {
        cmd.args(["--set", s]);
    }
    let child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: cannot run --baseline {}: {e}", baseline.display());
            return ExitCode::from(2);
        }
    };
    let input = serde_json::to_string(json).expect("a config serialises");
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut theirs = BufReader::with_capacity(1 << 16, child.stdout.take().expect("piped"))
        .lines()
        .map_while(Result::ok)
        .filter(|l| !l.starts_with('#'));
    let (mut events, mut windows, mut differ) = (0u64, 0u64, None::<(String, Option<String>)>);
    lines(config, |mine| {
        let mine = mine.trim_end_matches('\n');
        let other = theirs.next();
        if other.as_deref() != Some(mine) {
            differ = Some((mine.to_string(), other));
            return false;
        }
        if mine.starts_with("window\t") {
            windows += 1;
        } else {
            events += 1;
        }
        true
    });
    let extra = if differ.is_none() { theirs.next() } else { None };
    drop(theirs);
    let _ = child.kill();
    let _ = child.wait();
    let _ = writer.join();
    match (differ, extra) {
        (None, None) => {
            println!("no difference: {events} events and {windows} windows alike, in the same order");
            ExitCode::SUCCESS
        }
        (None, Some(more)) => {
            println!("the baseline goes on after this build's last event ({events} alike):\n  baseline:   {more}");
            ExitCode::from(1)
        }
        (Some((mine, other)), _) => {
            println!("first difference after {events} events and {windows} windows alike:");
            println!("  this build: {mine}");
            println!("  baseline:   {}", other.as_deref().unwrap_or("(its trace ended)"));
            ExitCode::from(1)
        }
    }
}
