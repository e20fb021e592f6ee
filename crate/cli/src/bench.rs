//! `hotrow bench`: model speed against the bare event queue, as a ratio.
//!
//! This is a benchmark, not a test: it prints, it asserts nothing about speed.

use hotrow::queue::EventQueue;
use hotrow::{Config, Simulation};
use std::time::Instant;

pub fn run(duration_ms: u64) {
    let config = Config::from_json(&serde_json::json!({
        "preset": "bug39267", "durationMs": duration_ms, "warmupMs": 200
    }))
    .expect("the bug39267 preset is valid");
    let simulated_s = config.end_ns() as f64 / 1e9;
    let mut sim = Simulation::new(config);
    let t = Instant::now();
    sim.run_to_end();
    let model_s = t.elapsed().as_secs_f64();
    let events = sim.events();
    let model_rate = events as f64 / model_s;

    let bare_s = bare_queue(events, sim.summary().clients as u64 * 4);
    let bare_rate = events as f64 / bare_s;
    println!("bug39267 preset: {events} events in {model_s:.3} s = {:.2} M events/s", model_rate / 1e6);
    println!("  simulated {simulated_s:.1} s in {model_s:.3} s wall = {:.1}x real time", simulated_s / model_s);
    println!("bare event queue: {events} push+pop in {bare_s:.3} s = {:.2} M events/s", bare_rate / 1e6);
    println!("ratio model/bare: {:.2} (goal: 0.50 or better)", model_rate / bare_rate);
}

/// Push and pop `events` events through the same queue type with a standing population
/// like the model's (a few events per client), doing no work per event.
fn bare_queue(events: u64, population: u64) -> f64 {
    let mut q: EventQueue<[u32; 4]> = EventQueue::with_capacity(population as usize);
    let mut x = 0x9E37_79B9u64;
    for i in 0..population {
        q.push(i, [i as u32; 4]);
    }
    let t = Instant::now();
    let mut sink = 0u64;
    for _ in 0..events {
        let (time, e) = q.pop().expect("population never drains");
        sink = sink.wrapping_add(e[0] as u64);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        q.push(time + 1 + (x % 100_000), e);
    }
    let s = t.elapsed().as_secs_f64();
    std::hint::black_box(sink);
    s
}
