//! The cluster view's reads: a bounded sample of the messages crossing the network, each
//! between two real hosts and part way there, and the counter row's lock queue.

use hotrow::{Config, Simulation};
use serde_json::json;

#[test]
fn in_flight_samples_messages_between_hosts_and_the_lock_queue_shows_refills() {
    let config = Config::from_json(&json!({ "preset": "bug39267", "durationMs": 300, "warmupMs": 0 })).unwrap();
    let hosts = config.data_nodes + config.api_nodes + 1;
    let mut sim = Simulation::new(config);
    let (mut refill_msgs, mut max_waiting, mut held) = (0, 0, 0);
    for step in 1..=200 {
        sim.run_until(step * 1_000_000 + 333);
        let hotrow::InFlightSample { messages: all, total } = sim.in_flight(usize::MAX);
        let hotrow::InFlightSample { messages: some, total: total2 } = sim.in_flight(5);
        assert_eq!(total, total2);
        assert_eq!(all.len(), total);
        assert_eq!(some.len(), total.min(5));
        assert!(total > 0, "a DBT2 cluster always has messages in the network");
        for m in &all {
            assert!(m.from < hosts && m.to < hosts && m.from != m.to, "{m:?}");
            assert!((0.0..=1.0).contains(&m.progress), "{m:?}");
        }
        refill_msgs += all.iter().filter(|m| m.allocator).count();
        let lock = sim.hot_row_lock();
        held += lock.held as u32;
        max_waiting = max_waiting.max(lock.waiting);
    }
    // Cache size 1: the counter row's lock is nearly always held, with refills queued.
    assert!(held > 180, "held at {held} of 200 looks");
    assert!(max_waiting >= 2, "at most {max_waiting} refills waited");
    assert!(refill_msgs > 50, "{refill_msgs} refill messages seen");
    // Reading changes nothing.
    let before = sim.summary().digest;
    let _ = sim.in_flight(10);
    assert_eq!(sim.summary().digest, before);
}
