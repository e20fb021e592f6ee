//! hotrow: a discrete-event simulation of a MySQL Cluster (NDB) and of the id allocator
//! behind tables without a primary key — the subject of MySQL Bug #39267.
//!
//! ```
//! let config = hotrow::Config::from_json(&serde_json::json!({
//!     "preset": "bug39267", "durationMs": 200, "warmupMs": 50
//! })).unwrap();
//! let mut sim = hotrow::Simulation::new(config);
//! sim.run_to_end();
//! let summary = sim.summary();
//! assert!(summary.tpm > 0.0);
//! ```
//!
//! The crate is pure: no I/O, no clock, no OS randomness, no wasm. The CLI and the wasm
//! binding are thin shells over [`Simulation`]. See `crate/ARCHITECTURE.md`.

// The shells' API: these modules' public items, and the re-exports below. Everything
// else is the engine's own (`pub` inside a private module is crate-visible only), so the
// compiler reports what nothing uses.
pub mod catalog;
pub mod config;
pub mod decimal;
pub mod explain;
pub mod facts;
pub mod format;
pub mod intervals;
pub mod spec;
pub mod swarm;
pub mod time;
pub mod validate;

mod allocator;
mod batch_means;
mod counts;
mod cycles;
mod error;
mod exponential;
mod fnv;
mod heat;
mod hist;
mod keys;
mod locks;
mod metrics;
mod named;
mod placement;
mod prng;
mod probe;
mod queue;
mod rates;
mod read;
mod row_report;
mod service_time;
mod sim;
mod summary;
mod timestamp;
mod topology;
mod txn_kind;
mod waits;
mod workload;

pub use config::{Config, ConfigError, Fault, Workload, PRESETS};
pub use fnv::Fnv;
pub use heat::{RowLockTotals, HOT_ROWS};
pub use metrics::{Window, WINDOW_RING};
pub use row_report::{report as hot_rows_report, RowReport};
pub use sim::{Advanced, Checkpoint, HotRowLock, IdTotals, InFlight, InFlightSample, Invariant, Simulation, TraceEvent, INVARIANTS};
pub use summary::Summary;
pub use topology::Topology;

/// JSON text as a value: parsed in this crate, so that a shell crate (crate/wasm) does not
/// compile a second copy of the parser (generic code is instantiated once per crate: 16 KiB
/// of the main WebAssembly module before wasm-opt).
pub fn parse_json(text: &str) -> Result<serde_json::Value, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}
