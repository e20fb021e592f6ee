//! Fits hotrow to a user's measured points (`hotrow fit`), and the Universal Scalability
//! Law to the same points beside it.
//!
//! hotrow is a mechanism: given service costs and latencies it predicts throughput. A
//! capacity planner has measurements of their own cluster. This crate searches the
//! config fields the user names (by default `cpu.scale` and `network.latencyUs`) so that
//! hotrow's numbers meet the measured ones, reports each fitted value with a 95% interval,
//! each point's residual and what holds its throughput, and fits the USL (a curve with no
//! mechanism) to the same points for comparison. The simulation core stays free of the
//! optimizer: this crate depends on it, not the other way.
//!
//! A [`FitSession`] says which parameter sets it needs simulated and hears what they gave,
//! so the CLI runs them on threads and a browser on its workers, with one implementation
//! of the fit; [`fit`] drives a session with a [`Runner`].

mod metric;
mod model;
mod points;
mod predict;
mod search;
mod session;
mod stats;
mod usl;

pub use metric::{catalog_name as metric_catalog_name, is_known as is_metric, of as metric_of, EXAMPLES as METRIC_EXAMPLES};
pub use model::{Fit, Fitted, Options, PointFit, Progress, Runner, DEFAULT_FIT};
pub use points::{Measured, Point};
pub use predict::{grid, plan, predict, Plan, Prediction};
pub use session::{fit, FitSession, Request, RunResult, Step};
pub use stats::Estimate;
pub use usl::{Peak, Usl};
