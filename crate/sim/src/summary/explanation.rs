//! What holds the throughput, for the summary and `Simulation::explain`: over the measured
//! span, or before anything was measured, over the warm-up's last window.

use super::Now;
use crate::config::Config;
use crate::metrics::Metrics;
use crate::time;
use crate::topology::Topology;

/// What holds the throughput over the measured span (after warm-up): the bottleneck, the
/// next ceiling, the busiest resources (`explain/mod.rs`).
pub fn explanation(m: &Metrics, cfg: &Config, topo: &Topology, now: &Now) -> crate::explain::Explanation {
    let measured_ns = now.at_ns.saturating_sub(m.warmup_end_ns);
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
    let after_warmup = m.windows.iter().filter(|w| w.end_ms > time::as_ms(m.warmup_end_ns));
    let moved = crate::explain::Moving::of(after_warmup.map(|w| &w.bound));
    let e = crate::explain::explain(&inputs.loads(), inputs.x(), &|| now.zero_load.relieved_us(cfg, now.probe), moved.as_ref(), cfg);
    let bound_intervals = e.bottleneck.as_ref().and_then(|b| {
        let moved = moved.as_ref().filter(|_| e.moving);
        bound_intervals(m, &inputs, b.id, moved, e.next_ceiling.is_some(), now)
    });
    crate::explain::Explanation { deadlocks, bound_intervals, ..e }
}

/// The bound of the run's bottleneck (`id`) and its next ceiling worked out again over each
/// batch of the measured run, as over the run (`explain/batched.rs`) (without intervals, and
/// saying so, when in a batch nothing committed or the bottleneck was idle); None before
/// there are enough batches.
#[inline(never)]
fn bound_intervals(
    m: &Metrics,
    run: &crate::explain::Inputs,
    id: u64,
    moved: Option<&crate::explain::Moving>,
    next: bool,
    now: &Now,
) -> Option<crate::explain::BoundIntervals> {
    let (batches, windows) = m.batches.batches()?;
    let (mut bounds, mut ceilings) = (Vec::with_capacity(batches.len()), Vec::with_capacity(batches.len()));
    let clients = run.clients.expect("the run's clients");
    for b in &batches {
        let inputs = crate::explain::Inputs {
            counts: &b.counts,
            rows: &b.rows,
            span_ns: crate::metrics::batch_span_ns(b.windows, m.window_ns()),
            clients: Some(crate::explain::ClientsIn {
                response_us: if b.latency_count > 0 { b.latency_sum_us / b.latency_count as f64 } else { 0.0 },
                lost_us: crate::explain::lost_per_commit_us(&b.counts),
                ..clients
            }),
            ..*run
        };
        let moved = moved.map(|mv| (mv, b.bound_utilization_sum / b.windows as f64));
        let relieved = || now.zero_load.relieved_us(run.cfg, now.probe);
        let Some((bound, ceiling)) = crate::explain::again(&inputs.loads(), inputs.x(), id, moved, &relieved, run.cfg) else {
            return Some(crate::explain::BoundIntervals::none(
                "no 95% intervals: in a batch of the measured run nothing committed, or the bottleneck was idle (commits came in bursts): run longer",
            ));
        };
        bounds.push(bound);
        ceilings.push(ceiling.filter(|_| next));
    }
    let ms = crate::metrics::batch_span_ns(windows, m.window_ns()) / time::from_ms(1);
    Some(crate::explain::BoundIntervals::of(&bounds, &ceilings, ms))
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
        span_ns: m.window_start_ns - m.last_window_start_ns,
        counter_row: now.counter_row,
        counter_row_node: now.hot_row_node,
        clients: None,
    };
    let e = crate::explain::explain(&inputs.loads(), inputs.x(), &|| now.zero_load.relieved_us(cfg, now.probe), None, cfg);
    crate::explain::Explanation { warm_up: true, ..e }
}
