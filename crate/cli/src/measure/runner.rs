//! The measurement: a pgbench-style script as closed loops (one connection per client, no
//! think time, each run of the script one transaction) at each client count, for a
//! warm-up and then a measured time. It refuses a server that is not on this machine
//! unless `--allow-remote` is given, and a script that writes to a table other than the
//! workload's own (those `--setup` creates, or those `--own` names), before anything runs.

use super::guard;
use super::script::{self, Draws, Script};
use super::server::Server;
use std::time::{Duration, Instant};

/// What `hotrow measure` was asked.
pub struct Request {
    pub server: Server,
    pub script_file: String,
    pub script: String,
    pub setup: Option<(String, String)>,
    pub own: Vec<String>,
    pub clients: Vec<u32>,
    pub seconds: f64,
    pub warmup_seconds: f64,
    pub scale: i64,
    pub allow_remote: bool,
}

/// One measured point.
pub struct Point {
    pub clients: u32,
    pub transactions_per_second: f64,
    pub latency_mean_us: f64,
    pub latency_p99_us: f64,
    pub failed: u64,
}

/// Measures every client count of `req` in turn; `progress` hears a line now and then.
pub fn measure(req: &Request, progress: &mut dyn FnMut(String)) -> Result<Vec<Point>, String> {
    if !(0.1..=3600.0).contains(&req.seconds) || !(0.0..=3600.0).contains(&req.warmup_seconds) {
        return Err("--seconds must be from 0.1 to 3600 and --warmup-seconds from 0 to 3600".into());
    }
    if req.clients.is_empty() || req.clients.iter().any(|&n| !(1..=1024).contains(&n)) {
        return Err("--clients must be client counts from 1 to 1024, e.g. 1,2,4,8".into());
    }
    if !req.allow_remote {
        req.server.local_only()?;
    }
    let script = std::sync::Arc::new(Script::read(&req.script_file, &req.script, req.scale)?);
    let own = own_tables(req)?;
    guard::writes_only_to(&own, &req.script_file, &script.statements)?;
    if let Some((file, text)) = &req.setup {
        let mut c = req.server.connect()?;
        for statement in script::split(text) {
            c.run(&statement).map_err(|e| format!("{file}: {e}"))?;
        }
    }
    let mut points = Vec::new();
    for &n in &req.clients {
        points.push(point(&req.server, &script, n, req, progress)?);
    }
    Ok(points)
}

/// The tables the workload may write: those `--setup` creates and those `--own` names.
fn own_tables(req: &Request) -> Result<Vec<String>, String> {
    let mut own: Vec<String> = req.own.iter().map(|t| t.to_lowercase()).collect();
    if let Some((file, text)) = &req.setup {
        let statements = script::split(text);
        guard::check_setup(file, &statements, &mut own)?;
    }
    if own.is_empty() {
        return Err("name the tables the workload may write: --setup FILE.sql (which creates them) or --own TABLE,...".into());
    }
    Ok(own)
}

/// `n` clients in closed loops for the warm-up and the measured time.
fn point(
    server: &Server,
    script: &std::sync::Arc<Script>,
    n: u32,
    req: &Request,
    progress: &mut dyn FnMut(String),
) -> Result<Point, String> {
    let start = Instant::now();
    let warm_end = start + Duration::from_secs_f64(req.warmup_seconds);
    let end = warm_end + Duration::from_secs_f64(req.seconds);
    let clients: Vec<_> = (0..n)
        .map(|i| {
            let (server, script) = (server.clone(), script.clone());
            std::thread::spawn(move || client(&server, &script, 1 + i as u64, warm_end, end))
        })
        .collect();
    while Instant::now() < end && !clients.iter().all(|c| c.is_finished()) {
        let done = start.elapsed().as_secs_f64().min(req.warmup_seconds + req.seconds);
        progress(format!("measuring {n} client{}: {done:.0} of {:.0} s", if n == 1 { "" } else { "s" }, req.warmup_seconds + req.seconds));
        std::thread::sleep(Duration::from_millis(250));
    }
    let mut latencies: Vec<u32> = Vec::new();
    let mut failed = 0;
    for c in clients {
        let (l, f) = c.join().map_err(|_| "a client thread panicked (a bug in hotrow)".to_string())??;
        latencies.extend(l);
        failed += f;
    }
    latencies.sort_unstable();
    let count = latencies.len();
    let mean = if count > 0 { latencies.iter().map(|&l| l as f64).sum::<f64>() / count as f64 } else { 0.0 };
    let p99 = if count > 0 { latencies[((count as f64 * 0.99) as usize).min(count - 1)] as f64 } else { 0.0 };
    Ok(Point { clients: n, transactions_per_second: count as f64 / req.seconds, latency_mean_us: mean, latency_p99_us: p99, failed })
}

/// One client: the script again and again on its own connection; the latencies (us) of the
/// transactions that started after the warm-up and ended in time, and those that failed
/// (an error from the server: rolled back, counted, not retried).
fn client(server: &Server, script: &Script, seed: u64, warm_end: Instant, end: Instant) -> Result<(Vec<u32>, u64), String> {
    let mut c = server.connect()?;
    let mut draws = Draws::new(seed);
    let (mut latencies, mut failed) = (Vec::new(), 0);
    loop {
        let t0 = Instant::now();
        if t0 >= end {
            break;
        }
        let mut ok = true;
        for s in script.draw(&mut draws) {
            if c.run(&s).is_err() {
                ok = false;
                let _ = c.run("ROLLBACK");
                break;
            }
        }
        let t1 = Instant::now();
        if t0 >= warm_end && t1 <= end {
            if ok {
                latencies.push((t1 - t0).as_micros().min(u32::MAX as u128) as u32);
            } else {
                failed += 1;
            }
        }
    }
    Ok((latencies, failed))
}
