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

pub mod allocator;
pub mod catalog;
pub mod config;
pub mod counts;
pub mod error;
pub mod explain;
pub mod heat;
pub mod hist;
pub mod keys;
pub mod locks;
pub mod metrics;
pub mod placement;
pub mod prng;
pub mod queue;
pub mod rates;
mod sim;
pub mod spec;
pub mod summary;
pub mod swarm;
pub mod time;
pub mod timestamp;
pub mod topology;
pub mod txn_kind;
pub mod validate;
pub mod waits;
pub mod workload;

pub use config::{Config, ConfigError, Fault, Workload, PRESETS};
pub use metrics::Window;
pub use sim::{Advanced, Checkpoint, HotRowLock, IdTotals, InFlight, InFlightSample, Simulation, TraceEvent, INVARIANTS};
pub use summary::Summary;
