//! What holds the throughput, for the summary and `Simulation::explain`: over the measured
//! span, or before anything was measured, over the warm-up's last window.

use super::Now;
use crate::config::Config;
use crate::metrics::Metrics;
use crate::time;
use crate::topology::Topology;

/// What holds the throughput over the measured span (after warm-up): the bottleneck, the
/// next ceiling, the busiest resources (`explain.rs`).
pub fn explanation(m: &Metrics, cfg: &Config, topo: &Topology, now: &Now) -> crate::explain::Explanation {
    let measured_ns = now.at_ns.saturating_sub(m.warmup_end);
    if measured_ns == 0 {
        return warm_up_explanation(m, cfg, topo, now);
    }
    let rows = m.run_rows(now.at_ns);
    let deadlocks = crate::explain::deadlocks_of(cfg, &m.cycles, &m.run, now.active_clients, time::as_secs(measured_ns));
    let inputs = crate::explain::Inputs {
        cfg,
        topo,
        counts: &m.run,
        rows: &rows,
        span_ns: measured_ns,
        counter_row: now.counter_row,
        counter_row_node: now.hot_row_node,
        clients: Some(crate::explain::ClientsIn {
            n: now.active_clients,
            response_us: time::as_us(m.latency_all.mean()),
            zero_load_us: now.zero_load.response_us(cfg, now.probe),
            lost_us: crate::explain::lost_per_commit_us(&m.run),
            lost_named: deadlocks.is_some(),
        }),
    };
    let after_warmup = m.windows.iter().filter(|w| w.end_ms > time::as_ms(m.warmup_end));
    let moved = crate::explain::Moving::of(after_warmup.map(|w| &w.bound));
    let e = crate::explain::explain(&inputs.loads(), inputs.x(), &|| now.zero_load.relieved_us(cfg, now.probe), moved.as_ref(), cfg);
    crate::explain::Explanation { deadlocks, ..e }
}

/// Before anything was measured (in or at the end of the warm-up): what held the last
/// window closed, as the windows' own bounds are found (no clients, no moving hot spot).
fn warm_up_explanation(m: &Metrics, cfg: &Config, topo: &Topology, now: &Now) -> crate::explain::Explanation {
    let Some(last) = m.windows.back() else { return crate::explain::Explanation { warm_up: true, ..Default::default() } };
    let inputs = crate::explain::Inputs {
        cfg,
        topo,
        counts: &m.last_window,
        rows: &last.hottest_rows,
        span_ns: m.window_start - m.last_window_start,
        counter_row: now.counter_row,
        counter_row_node: now.hot_row_node,
        clients: None,
    };
    let e = crate::explain::explain(&inputs.loads(), inputs.x(), &|| now.zero_load.relieved_us(cfg, now.probe), None, cfg);
    crate::explain::Explanation { warm_up: true, ..e }
}
