//! The run digest: FNV-1a over every integer outcome of a run (events, time, commits per
//! kind, hot-row accounting, per-node and per-thread counters, ids, aborts, the latency
//! histogram). Any change in behaviour changes it, and it is the same on every target for
//! the same seed and config: the golden tests pin it natively and in wasm.

use crate::metrics::Metrics;
use crate::summary::RunFacts;
use crate::workload::TxnKind;

pub fn of(m: &Metrics, facts: &RunFacts) -> String {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut feed = |v: u64| {
        for b in v.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01B3);
        }
    };
    feed(facts.events);
    feed(facts.now_ns);
    let r = &m.run;
    TxnKind::ALL.iter().for_each(|&k| feed(r.committed(k)));
    for v in [r.inserts, r.hot_busy_ns, r.hot_hold_sum_ns, r.hot_holds, r.hot_wait_ns, r.hot_grants, r.hot_queue_ns] {
        feed(v);
    }
    for list in [&r.node_messages, &r.node_tc_txns, &r.node_busy_ns, &m.thread_busy_ns, &m.thread_services] {
        list.iter().for_each(|&v| feed(v));
    }
    feed(facts.ids_issued);
    feed(facts.ids_lost);
    feed(facts.duplicate_ids);
    feed(facts.aborts);
    m.latency_all.for_each_bucket(&mut feed);
    for hist in &m.latency {
        feed(hist.sum());
    }
    format!("{h:016x}")
}
