//! `hotrow measure`: the user's own PostgreSQL, MySQL or MariaDB (`server.rs`), measured
//! (`runner.rs`), a pgbench-style script run as closed loops (`script.rs`), writing only to
//! the workload's own tables (`guard.rs`). The points are printed, labelled measured, and
//! written in the form `hotrow fit --measured` reads. The client crates (`postgres`,
//! `mysql`) are the CLI's alone: never in the core or in WebAssembly.

mod guard;
mod runner;
mod script;
mod server;

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

pub use runner::Request;
pub use server::Server;

/// The start of a statement, for a message.
pub fn clip(sql: &str) -> String {
    let one: String = sql.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > 60 {
        format!("{}...", one.chars().take(60).collect::<String>())
    } else {
        one
    }
}

/// `hotrow measure`: reads the files, measures, prints the table, writes `out`.
pub fn command(mut req: Request, script_path: &str, setup_path: Option<&str>, out: Option<&str>) -> ExitCode {
    let read = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot be read: {e}"));
    let files = read(script_path).and_then(|s| Ok((s, setup_path.map(read).transpose()?)));
    let (script, setup) = match files {
        Ok(f) => f,
        Err(e) => return fail(&e),
    };
    req.script_file = script_path.to_string();
    req.script = script;
    req.setup = setup_path.zip(setup).map(|(p, t)| (p.to_string(), t));
    let terminal = std::io::stderr().is_terminal();
    let mut progress = |line: String| {
        if terminal {
            eprint!("\r\x1b[2K{line}");
            let _ = std::io::stderr().flush();
        }
    };
    let points = match runner::measure(&req, &mut progress) {
        Ok(p) => p,
        Err(e) => {
            if terminal {
                eprintln!();
            }
            return fail(&e);
        }
    };
    if terminal {
        eprint!("\r\x1b[2K");
    }
    print!("{}", table(&req, &points));
    if let Some(path) = out {
        let mut csv = format!(
            "# measured by hotrow measure: {} on {}, {} s per point after {} s of warm-up\nclientsPerApiNode,transactionsPerSecond\n",
            req.script_file,
            req.server.kind(),
            req.seconds,
            req.warmup_seconds
        );
        for p in &points {
            let _ = writeln!(csv, "{},{:.1}", p.clients, p.transactions_per_second);
        }
        if let Err(e) = std::fs::write(path, csv) {
            return fail(&format!("{path}: cannot be written: {e}"));
        }
        println!("  written to {path} (hotrow fit --measured {path} reads it)");
    }
    ExitCode::SUCCESS
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// The points, each a measurement of the server (not a simulation).
fn table(req: &Request, points: &[runner::Point]) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "hotrow measure: {} on {} (measured: {} s per point after {} s of warm-up, closed loops, no think time)",
        req.script_file,
        req.server.kind(),
        req.seconds,
        req.warmup_seconds
    );
    let _ =
        writeln!(t, "  {:>8}  {:>16}  {:>16}  {:>15}  {:>7}", "clients", "transactions/s", "latency mean us", "latency p99 us", "failed");
    for p in points {
        let _ = writeln!(
            t,
            "  {:>8}  {:>16}  {:>16}  {:>15}  {:>7}",
            p.clients,
            hotrow::format::grouped(p.transactions_per_second),
            hotrow::format::grouped(p.latency_mean_us),
            hotrow::format::grouped(p.latency_p99_us),
            p.failed
        );
    }
    t
}
