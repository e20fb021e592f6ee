//! The WebAssembly binding of hotrow: converts JavaScript values to the core's types and
//! back, and maps errors to JavaScript exceptions. It holds no model logic.
//!
//! Errors thrown are `RangeError` (a value out of its allowed range) or `Error`; both
//! carry the message of the core's `ConfigError` (field, value, what is allowed) and a
//! `field` property. A panic would be a bug: the panic hook reports it on the console and
//! every later call throws instead of running on a possibly broken state.

use hotrow::catalog::{self, Read, Shape};
use hotrow::time;
use hotrow::{Config, Window};
use js_sys::Array;
use serde_json::{Map, Value};
use std::sync::Mutex;
use wasm_bindgen::prelude::*;

mod convert;
mod tables;

use convert::{bad, config_error, count, describe, f64s, js_to_json, millis, to_js, Obj};
pub use tables::*;

/// The first panic's message, once one happened.
static POISONED: Mutex<Option<String>> = Mutex::new(None);

/// Installs the panic hook. Runs when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        if let Ok(mut p) = POISONED.lock() {
            p.get_or_insert(msg.clone());
        }
        web_sys::console::error_1(&format!("hotrow: internal error (a bug, please report it): {msg}").into());
    }));
}

fn alive() -> Result<(), JsValue> {
    match POISONED.lock().ok().and_then(|p| p.clone()) {
        None => Ok(()),
        Some(msg) => Err(js_sys::Error::new(&format!(
            "hotrow stopped after an internal error and cannot be used until the module is loaded again \
             (reload the page, or start a new worker): {msg}"
        ))
        .into()),
    }
}

/// The most events one call may be asked to process (a caller's budget).
const MAX_EVENTS: f64 = 1e9;
/// One call may cover at most a simulated day.
const MAX_RUN_MS: f64 = 86_400_000.0;

/// A simulated cluster. See the package's `index.d.ts` for the typed API.
#[wasm_bindgen]
pub struct Simulation {
    inner: hotrow::Simulation,
}

#[wasm_bindgen]
impl Simulation {
    /// `new Simulation(config)`: the CLI's JSON config, or `{ preset, ...overrides }`.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<Simulation, JsValue> {
        alive()?;
        let json = if config.is_undefined() { Value::Object(Map::new()) } else { js_to_json(&config, "").map_err(config_error)? };
        let cfg = Config::from_json(&json).map_err(config_error)?;
        Ok(Simulation { inner: hotrow::Simulation::new(cfg) })
    }

    /// Processes at most `maxEvents` events. Returns `{ events, nowMs }`.
    pub fn step(&mut self, max_events: JsValue) -> Result<JsValue, JsValue> {
        alive()?;
        let n = if max_events.is_undefined() { 1 } else { count(&max_events, "maxEvents", 1.0, MAX_EVENTS)? };
        let mut done = 0;
        while done < n && self.inner.step() {
            done += 1;
        }
        Ok(Obj::new().set("events", done as f64).set("nowMs", time::as_ms(self.inner.now_ns())).done())
    }

    /// Advances simulated time by `simulatedMs`. With `maxEvents` (a budget, for a render
    /// loop) it stops after that many events; without, it reaches the time. Returns
    /// `{ events, nowMs, reached }`; `reached` is false when the budget stopped it first.
    #[wasm_bindgen(js_name = runFor)]
    pub fn run_for(&mut self, simulated_ms: JsValue, max_events: JsValue) -> Result<JsValue, JsValue> {
        alive()?;
        let ms = millis(&simulated_ms, "simulatedMs", MAX_RUN_MS)?;
        self.advance_ns((ms * 1e6).round() as u64, &max_events)
    }

    /// Advances to the configured end (warm-up + duration, or where the precision asked for
    /// was met), or until `maxEvents` events when a budget is given (then call again until
    /// `reached` is true).
    #[wasm_bindgen(js_name = runToEnd)]
    pub fn run_to_end(&mut self, max_events: JsValue) -> Result<JsValue, JsValue> {
        alive()?;
        let left_ns = self.inner.config().end_ns().saturating_sub(self.inner.now_ns());
        self.advance_ns(left_ns, &max_events)
    }

    fn advance_ns(&mut self, ns: u64, max_events: &JsValue) -> Result<JsValue, JsValue> {
        let limit = if max_events.is_undefined() { u64::MAX } else { count(max_events, "maxEvents", 1.0, MAX_EVENTS)? };
        let target = self.inner.now_ns() + ns;
        let a = self.inner.advance(ns, limit);
        // A run stopped at its precision goes no further: it has reached all it will.
        let reached = a.now_ns >= target || self.inner.stopped();
        Ok(Obj::new().set("events", a.events as f64).set("nowMs", time::as_ms(a.now_ns)).set("reached", reached).done())
    }

    /// The latest closed window's metrics (the table's window metrics, by the same names
    /// as `windows()`: per-node and per-partition ones as `Float64Array`s; zeros before the
    /// first window closes) and the simulation's state now.
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        alive()?;
        let s = &self.inner;
        let topo = s.topology();
        let o = Obj::new();
        o.set("nowMs", time::as_ms(s.now_ns()))
            .set("events", s.events() as f64)
            .set("finished", s.finished())
            .set("windowsClosed", s.windows_closed() as f64)
            .set("dataNodes", topo.data_nodes as f64)
            .set("partitions", topo.partitions as f64)
            .set("activeClients", s.active_clients() as f64)
            .set("aborts", s.aborts() as f64)
            .set("nodesDown", Array::from_iter(s.nodes_down().into_iter().map(|n| JsValue::from_f64(n as f64))));
        let latest = s.windows().last();
        let kind = latest.and_then(|w| hotrow::explain::Kind::of_code(w.bound.kind));
        o.set("bottleneckResourceKind", kind.map_or(JsValue::NULL, |k| JsValue::from_str(k.name())));
        for m in catalog::window_metrics() {
            match (m.window.expect("a window metric"), latest) {
                (Read::Scalar(read), Some(w)) => o.set(m.name, read(w)),
                (Read::Scalar(_), None) => o.set(m.name, 0.0),
                (Read::Vector(read), Some(w)) => o.set(m.name, f64s(read(w).iter().copied())),
                (Read::Vector(_), None) => {
                    let n = if m.shape == Shape::PerNode { topo.data_nodes } else { topo.partitions };
                    o.set(m.name, f64s(std::iter::repeat_n(0.0, n as usize)))
                }
            };
        }
        let ids = s.ids();
        o.set("idsIssued", ids.issued as f64).set("idsLost", ids.lost as f64).set("duplicateIds", ids.duplicates as f64);
        o.set("hotRowNode", s.hot_row_node() as f64);
        let span = time::from_ms(s.config().window_ms); // every window is one `windowMs` long
        let hottest = latest.map(|w| hotrow::hot_rows_report(s.config(), &w.hottest_rows, span)).unwrap_or_default();
        o.set("hottestRows", to_js(&hottest));
        // What the surfaces say of the latest window (the core's facts), and the row of the
        // workload's own that bound it, if one did (or another table's counter row).
        let counter_row = s.counter_row();
        let at = (counter_row, s.hot_row_node());
        let facts = match latest {
            Some(w) => hotrow::facts::Facts::of_window(s.config(), w, &hottest, at, s.aborts() > 0),
            None => hotrow::facts::Facts::of(s.config(), None, &[], at, false),
        };
        let binding =
            facts.hot_row.as_ref().filter(|h| h.binds && h.row != counter_row).and_then(|h| hottest.iter().find(|r| r.row == h.row));
        o.set("facts", to_js(&facts));
        o.set("bindingRow", binding.map_or(JsValue::NULL, |r| to_js(&r)));
        Ok(o.done())
    }

    /// Windows closed since window number `since` (from `snapshot().windowsClosed`), as
    /// columns named as the metric table names them: a scalar metric is a `Float64Array`
    /// of one value per window, a per-node or per-partition one a `Float64Array` of
    /// `count x dataNodes` (or `x partitions`) values, window by window.
    pub fn windows(&self, since: JsValue) -> Result<JsValue, JsValue> {
        alive()?;
        let since = if since.is_undefined() { 0 } else { count(&since, "since", 0.0, 9e15)? };
        let s = &self.inner;
        let closed = s.windows_closed();
        let kept = s.windows().len() as u64;
        let first = since.max(closed - kept);
        let ws: Vec<&Window> = s.windows().skip((first - (closed - kept)) as usize).collect();
        let o = Obj::new();
        o.set("first", first as f64).set("count", ws.len() as f64);
        for m in catalog::window_metrics() {
            match m.window.expect("a window metric") {
                Read::Scalar(read) => o.set(m.name, f64s(ws.iter().map(|w| read(w)))),
                Read::Vector(read) => o.set(m.name, f64s(ws.iter().flat_map(|w| read(w).iter().copied()))),
            };
        }
        o.set("dataNodes", s.topology().data_nodes as f64).set("partitions", s.topology().partitions as f64);
        Ok(o.done())
    }

    /// Every window kept, as CSV: the columns and numbers of `hotrow run --csv`.
    #[wasm_bindgen(js_name = windowsCsv)]
    pub fn windows_csv(&self) -> Result<String, JsValue> {
        alive()?;
        Ok(catalog::windows_csv(self.inner.windows()))
    }

    /// The run summary: the same object `hotrow run --json` prints.
    pub fn summary(&self) -> Result<JsValue, JsValue> {
        alive()?;
        Ok(to_js(&self.inner.summary()))
    }

    /// What holds the throughput so far: the summary's `bottleneck`, `nextCeiling` and
    /// `resources`, without the rest of the summary (cheaper to ask for often). The
    /// bottleneck's remedies are `remedies()`'s (js/remedies.js: a module of their own).
    pub fn explain(&self) -> Result<JsValue, JsValue> {
        alive()?;
        Ok(to_js(&self.inner.explain()))
    }

    /// Changes one config field live (`cacheSize`, `hintedRefill`, `clientsPerApiNode`,
    /// `thinkTimeUs`, `network.latencyUs`, `cpu.*`, ...). Throws, changing nothing, when
    /// the value is invalid or the field needs a new Simulation.
    pub fn set(&mut self, key: JsValue, value: JsValue) -> Result<(), JsValue> {
        alive()?;
        let Some(key) = key.as_string() else {
            return Err(config_error(bad("(key)", describe(&key), "must be a config field name such as \"cacheSize\"")));
        };
        let json = js_to_json(&value, &key).map_err(config_error)?;
        self.inner.set(&key, json).map_err(config_error)
    }

    /// Injects a fault now: `{ kind: "dataNodeFailure", dataNode, restartAfterMs? }`,
    /// `{ kind: "apiNodeRestart", apiNode, downMs? }` or
    /// `{ kind: "networkDelay", dataNode, extraUs, durationMs }` (`atMs` may be left out).
    /// Throws, changing nothing, when it cannot happen now.
    pub fn inject(&mut self, fault: JsValue) -> Result<(), JsValue> {
        alive()?;
        let mut json = js_to_json(&fault, "fault").map_err(config_error)?;
        if let Value::Object(m) = &mut json {
            m.entry("atMs").or_insert(Value::from(0u64));
        }
        // Read as a config's faults are: the running config with this one fault, through
        // Config::from_json (one deserializer of faults in the module: 34 KiB less before
        // wasm-opt). Its checks against the cluster run here too; the state's, in inject().
        let mut config = self.inner.config().to_json();
        config["faults"] = Value::Array(vec![json.clone()]);
        let fault = match hotrow::Config::from_json(&config) {
            Ok(mut c) => c.faults.pop().expect("one fault was read"),
            Err(e) => {
                let inner = e.field.strip_prefix("faults[0]").unwrap_or(&e.field).trim_start_matches('.');
                let field = if inner.is_empty() { "fault".to_string() } else { format!("fault.{inner}") };
                return Err(config_error(bad(&field, json.to_string(), &e.allowed)));
            }
        };
        self.inner.inject(fault).map_err(config_error)
    }

    /// What a drawing of the cluster needs now: hosts, the counter row's node and lock
    /// queue, and at most `maxMessages` (default 2000) of the messages crossing the network,
    /// as columns (`from`, `to`, `progress` 0..1, `allocator` 1 for id refills and service
    /// requests, `signal` names), with `inFlight` the total.
    pub fn cluster(&self, max_messages: JsValue) -> Result<JsValue, JsValue> {
        alive()?;
        let max = if max_messages.is_undefined() { 2000 } else { count(&max_messages, "maxMessages", 0.0, 1e6)? };
        let s = &self.inner;
        let topo = s.topology();
        let flying = s.in_flight(max as usize);
        let sample = &flying.messages;
        let lock = s.hot_row_lock();
        let messages = Obj::new();
        messages
            .set("from", f64s(sample.iter().map(|m| m.from as f64)))
            .set("to", f64s(sample.iter().map(|m| m.to as f64)))
            .set("progress", f64s(sample.iter().map(|m| m.progress)))
            .set("allocator", f64s(sample.iter().map(|m| m.allocator as u8 as f64)))
            .set("signal", Array::from_iter(sample.iter().map(|m| JsValue::from_str(m.signal))));
        Ok(Obj::new()
            .set("nowMs", time::as_ms(s.now_ns()))
            .set("dataNodes", topo.data_nodes as f64)
            .set("nodeGroups", topo.node_groups as f64)
            .set("replicas", topo.replicas as f64)
            .set("apiNodes", topo.api_nodes as f64)
            .set("serviceHost", topo.host_of(topo.service_station()) as f64)
            .set("hotRowNode", s.hot_row_node() as f64)
            .set("lockHeld", lock.held)
            .set("lockWaiting", lock.waiting as f64)
            .set("nodesDown", Array::from_iter(s.nodes_down().into_iter().map(|n| JsValue::from_f64(n as f64))))
            .set("inFlight", flying.total as f64)
            .set("messages", messages.done())
            .done())
    }

    /// A checkpoint of the whole state now (one copy of it; see `Checkpoint.memoryBytes`).
    pub fn checkpoint(&self) -> Result<Checkpoint, JsValue> {
        alive()?;
        Ok(Checkpoint { inner: self.inner.checkpoint() })
    }

    /// Brings this simulation back to `checkpoint` (its clock, state and config then).
    /// Throws, changing nothing, when the checkpoint is of a simulation of another config.
    pub fn restore(&mut self, checkpoint: &Checkpoint) -> Result<(), JsValue> {
        alive()?;
        self.inner.restore(&checkpoint.inner).map_err(config_error)
    }

    /// A new simulation that goes on from `checkpoint`: a branch sharing its past.
    #[wasm_bindgen(js_name = fromCheckpoint)]
    pub fn from_checkpoint(checkpoint: &Checkpoint) -> Result<Simulation, JsValue> {
        alive()?;
        Ok(Simulation { inner: checkpoint.inner.branch() })
    }

    /// The effective config.
    #[wasm_bindgen(getter)]
    pub fn config(&self) -> Result<JsValue, JsValue> {
        alive()?;
        Ok(to_js(&self.inner.config().to_json()))
    }

    #[wasm_bindgen(getter, js_name = nowMs)]
    pub fn now_ms(&self) -> f64 {
        time::as_ms(self.inner.now_ns())
    }

    #[wasm_bindgen(getter)]
    pub fn finished(&self) -> bool {
        self.inner.finished()
    }
}

/// A simulation's whole state at one moment: pass it to `Simulation.restore` or
/// `Simulation.fromCheckpoint`. Opaque; `free()` it when done.
#[wasm_bindgen]
pub struct Checkpoint {
    inner: hotrow::Checkpoint,
}

#[wasm_bindgen]
impl Checkpoint {
    /// The simulated time it was taken at.
    #[wasm_bindgen(getter, js_name = nowMs)]
    pub fn now_ms(&self) -> f64 {
        time::as_ms(self.inner.now_ns())
    }

    /// Bytes of wasm memory it holds.
    #[wasm_bindgen(getter, js_name = memoryBytes)]
    pub fn memory_bytes(&self) -> f64 {
        self.inner.memory_bytes() as f64
    }
}
