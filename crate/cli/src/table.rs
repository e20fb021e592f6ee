//! The human-readable summary `hotrow run` prints.

use hotrow::Summary;
use std::fmt::Write;

pub fn render(s: &Summary) -> String {
    let c = &s.config;
    let mut o = String::new();
    let w = &mut o;
    let _ = writeln!(
        w,
        "hotrow: {:?} workload, {} data nodes x {} replicas, cacheSize {}, refill {}, seed {}",
        c.workload,
        c.data_nodes,
        c.replicas,
        c.cache_size,
        if c.hinted_refill { "hinted" } else { "unhinted" },
        c.seed
    );
    let _ = writeln!(w, "measured {:.2} simulated s after {} ms warm-up, {} events\n", s.simulated_seconds, c.warmup_ms, s.events);
    let _ = writeln!(w, "  transactions/s     {:>12.0}", s.transactions_per_second);
    if s.tpm > 0.0 {
        let _ = writeln!(w, "  TPM (New-Order)    {:>12.0}", s.tpm);
    }
    let _ = writeln!(w, "  inserts/s          {:>12.0}", s.inserts_per_second);
    let _ = writeln!(
        w,
        "  latency us         mean {:.0}  p50 {:.0}  p99 {:.0}",
        s.latency_us.mean, s.latency_us.p50, s.latency_us.p99
    );
    let h = &s.hot_row;
    let _ = writeln!(w, "\n  hot row (SYSTAB_0 counter row, primary on node {})", h.node);
    let _ = writeln!(w, "    refills/s        {:>12.0}", h.refills_per_second);
    let _ = writeln!(w, "    lock utilization {:>12.3}", h.lock_utilization);
    let _ = writeln!(w, "    lock hold us     {:>12.1}", h.lock_hold_us_mean);
    let _ = writeln!(w, "    lock wait us     {:>12.1}", h.lock_wait_us_mean);
    let _ = writeln!(w, "    queue length     {:>12.2}", h.queue_length_mean);
    let _ = writeln!(w, "  ids issued {}, lost {}, duplicates {}", s.ids_issued, s.ids_lost, s.duplicate_ids);
    if !c.faults.is_empty() {
        let _ = writeln!(w, "  faults scheduled {}, transaction attempts aborted by them {}", c.faults.len(), s.aborts);
    }
    let _ = writeln!(w, "\n  node  group   load   TC txn/s   messages/s");
    for n in &s.nodes {
        let mark = if n.holds_hot_row { "  <- hot row" } else { "" };
        let _ = writeln!(w, "  {:>4}  {:>5}  {:>5.2}  {:>9.0}  {:>11.0}{mark}", n.id, n.node_group, n.load, n.tc_transactions, n.messages);
    }
    let _ = writeln!(w, "\n  latency by type (us)       mean       p50       p99    committed");
    for (name, l) in &s.latency_by_type_us {
        let n = s.committed_by_type.get(name).copied().unwrap_or(0);
        let _ = writeln!(w, "  {:<20} {:>10.0} {:>9.0} {:>9.0} {:>12}", name, l.mean, l.p50, l.p99, n);
    }
    let _ = writeln!(w, "\n  digest {}", s.digest);
    o
}

/// The `hotrow validate` table: each reported figure beside the model's.
pub fn validation(r: &hotrow::validate::Report) -> String {
    let mut o = String::new();
    let w = &mut o;
    let _ = writeln!(w, "hotrow validate (seed {}): the model against MySQL Bug #39267\n", r.seed);
    let _ = writeln!(w, "  {:<58} {:>22} {:>12} {:>8}  result", "case", "reported", "model", "diff");
    for c in &r.cases {
        let diff = c.diff_percent.map_or(String::new(), |d| format!("{d:+.1}%"));
        let model = if c.model >= 1000.0 { format!("{:.0}", c.model) } else { format!("{:.3}", c.model) };
        let _ = writeln!(
            w,
            "  {:<58} {:>22} {:>12} {:>8}  {}",
            c.name,
            c.reported,
            model,
            diff,
            if c.pass { "pass" } else { "FAIL" }
        );
    }
    let _ = writeln!(w, "\n  {}", if r.pass { "every case passes" } else { "SOME CASES FAIL" });
    o
}

/// `hotrow run --csv`: one row per metrics window, per-node load as `nodeLoad[i]`.
pub fn windows_csv(out: impl std::io::Write, windows: &[hotrow::Window]) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    let nodes = windows.first().map_or(0, |w| w.node_load.len());
    let mut header: Vec<String> = [
        "endMs",
        "tpm",
        "insertsPerSecond",
        "transactionsPerSecond",
        "refillsPerSecond",
        "hotRowLockUtilization",
        "hotRowQueueMean",
        "latencyP50Us",
        "latencyP99Us",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    header.extend((0..nodes).map(|i| format!("nodeLoad[{i}]")));
    w.write_record(&header)?;
    for x in windows {
        let mut row = vec![
            x.end_ms,
            x.rates.tpm,
            x.rates.inserts_per_second,
            x.rates.transactions_per_second,
            x.rates.refills_per_second,
            x.rates.hot_row_lock_utilization,
            x.rates.hot_row_queue_mean,
            x.latency_p50_us,
            x.latency_p99_us,
        ];
        row.extend(&x.node_load);
        w.write_record(row.iter().map(|v| v.to_string()))?;
    }
    w.flush()?;
    Ok(())
}

/// `hotrow fields`: the config field table.
pub fn fields(list: &serde_json::Value) -> String {
    let mut o = String::new();
    let w = &mut o;
    let _ = writeln!(w, "{:<22} {:<34} {:>12} {:<5} meaning", "field", "values", "default", "live");
    for f in list.as_array().into_iter().flatten() {
        let kind = &f["kind"];
        let values = match kind["type"].as_str() {
            Some("int") => {
                let unit = f["unit"].as_str().unwrap_or("");
                format!("{}..={}{}", kind["min"], kind["max"], if unit.is_empty() { String::new() } else { format!(" {unit}") })
            }
            Some("bool") => "true | false".into(),
            Some("choice") => kind["values"].as_array().into_iter().flatten().filter_map(|v| v.as_str()).collect::<Vec<_>>().join(" | "),
            _ => "list of faults".into(),
        };
        let default = match &f["default"] {
            serde_json::Value::Array(a) if a.is_empty() => "[]".to_string(),
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let live = if f["live"].as_bool() == Some(true) { "live" } else { "" };
        let _ = writeln!(w, "{:<22} {:<34} {:>12} {:<5} {}", f["name"].as_str().unwrap_or(""), values, default, live, f["about"].as_str().unwrap_or(""));
    }
    let _ = writeln!(w, "\nlive: a running simulation (npm `sim.set`, the playground) can take a new value.");
    o
}
