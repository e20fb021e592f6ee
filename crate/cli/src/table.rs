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

/// The `hotrow validate` table: each seed figure beside the model's.
pub fn validation(r: &hotrow::validate::Report) -> String {
    let mut o = String::new();
    let w = &mut o;
    let _ = writeln!(w, "hotrow validate (seed {}): the model against MySQL Bug #39267\n", r.seed);
    let _ = writeln!(w, "  {:<58} {:>22} {:>12} {:>8}  result", "case", "seed says", "model", "diff");
    for c in &r.cases {
        let diff = c.diff_percent.map_or(String::new(), |d| format!("{d:+.1}%"));
        let model = if c.model >= 1000.0 { format!("{:.0}", c.model) } else { format!("{:.3}", c.model) };
        let _ = writeln!(
            w,
            "  {:<58} {:>22} {:>12} {:>8}  {}",
            c.name,
            c.seed_figure,
            model,
            diff,
            if c.pass { "pass" } else { "FAIL" }
        );
    }
    let _ = writeln!(w, "\n  {}", if r.pass { "every case passes" } else { "SOME CASES FAIL" });
    o
}
