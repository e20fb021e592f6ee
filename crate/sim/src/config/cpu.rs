//! CPU costs: what each kind of work costs a thread, and the 2008 calibration.
//!
//! A message's cost is charged to the thread (station) that serves it. The data-node
//! costs keep fixed ratios and share one scale, the calibrated free parameter that the
//! docs/MODEL.md §8 explains.

use super::fields::FIELDS;
use serde::Serialize;

/// `cpu.serviceCv` of every preset: see [`CpuConfig::service_cv`].
pub(crate) const SERVICE_CV: f64 = 1.0;

/// CPU cost of each kind of work, in nanoseconds of one thread (each 0..=10000000), and how
/// a service's time varies around its cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CpuConfig {
    /// TC: receiving one operation of a TCKEYREQ, seizing its record and sending LQHKEYREQ.
    pub tc_op_ns: u64,
    /// TC: one reply signal (LQHKEYCONF, COMMITTED or COMPLETED) for one operation.
    pub tc_reply_ns: u64,
    /// TC: starting the commit of a transaction (TC_COMMITREQ or a piggy-backed commit).
    pub tc_commit_ns: u64,
    /// LQH: a primary-key read at the primary replica (no lock under READ COMMITTED).
    pub lqh_read_ns: u64,
    /// LQH: a write (insert, update, delete, or read with exclusive lock) at one replica,
    /// including the lock, the UNDO and REDO records.
    pub lqh_write_ns: u64,
    /// LQH: the COMMIT of one operation at one replica.
    pub lqh_commit_ns: u64,
    /// LQH: the COMPLETE of one operation at one backup replica.
    pub lqh_complete_ns: u64,
    /// API node: one SQL statement in mysqld (parse, optimise, handler calls), DBT2 only.
    pub api_statement_ns: u64,
    /// API node: one NDB API `execute()` (prepare, send, wake-up), NDB API and refills.
    pub api_execute_ns: u64,
    /// API node: one operation defined within a round.
    pub api_op_ns: u64,
    /// API node: receiving one TCKEYCONF / commit confirmation.
    pub api_reply_ns: u64,
    /// Data node: the send and receive work of a signal that crosses hosts (socket
    /// system calls, transporter buffers), charged to the receiving thread. A signal
    /// between blocks of one node is put in the job buffer directly and does not pay it.
    pub remote_signal_ns: u64,
    /// Central allocator service: serving one id request (an in-memory allocator behind
    /// an RPC server on one core: about 20 us per unary request).
    pub allocator_request_ns: u64,
    /// One multiplier on every cost above (0.33: cores three times faster). A service
    /// takes `round(cost * scale)` ns on average.
    pub scale: f64,
    /// An inserted row's TC work and write, this times an update's (0.05..=10): 1 where they
    /// cost alike (NDB's TC and LQH); below 1 on a one-server engine, whose INSERT finds no
    /// row and writes no old version (fitted on the servers' INSERT curves, docs/MODEL.md §11).
    pub insert_scale: f64,
    /// Coefficient of variation of every service time: 0, each service takes exactly its
    /// mean; above 0, its time is drawn from a gamma distribution with that mean and
    /// this standard deviation / mean (1: exponential). docs/MODEL.md §2 says why.
    pub service_cv: f64,
}

impl CpuConfig {
    /// Costs on a 2008 server core (about 2.3 GHz Xeon) running ndbd 6.3 and mysqld 5.1.
    ///
    /// In ndbd 6.3 one thread did everything: the TC and LQH logic *and* the transporter's
    /// TCP send and receive system calls. The two are separate here. A signal that crosses
    /// hosts costs its receiving data-node thread `remoteSignalNs` = 4 us on top of its
    /// processing: a send() and a share of a poll()/recv() on a 2008 kernel and NIC, each
    /// a couple of microseconds for the small, rarely batched signals of single-row
    /// operations. A signal between blocks of one node (TC to the LQH beside it) is put
    /// in the job buffer directly and pays nothing extra (docs/MODEL.md §2).
    ///
    /// The seven signal-processing costs keep fixed ratios (a write about 1.5 reads;
    /// commit and complete a third of a write) and share one scale, the calibrated free
    /// parameter that docs/MODEL.md §8 explains: fitted so that DBT2 at
    /// cache 1 and 1000 matches the bug report, with `remoteSignalNs` fixed beforehand.
    /// The resulting rates — about 60k unbatched primary-key reads per second per data
    /// node when the read is hinted to its primary's node (TCKEYREQ from the client 4.5 +
    /// 4 us receive, the local LQH 6.6, its local reply 1.68: 16.8 us), and 50k NDB API
    /// single-row inserts per second on a 4-node cluster (measured with the `ndbapi-pk`
    /// preset) — are derived, not taken from a published NDB 6.3 measurement. mysqld's cost per statement is from the order of
    /// 25k simple statements/s per core of 2008 mysqld.
    pub(crate) fn ndbd_2008() -> CpuConfig {
        CpuConfig {
            tc_op_ns: 4_500,
            tc_reply_ns: 1_680,
            tc_commit_ns: 3_300,
            lqh_read_ns: 6_600,
            lqh_write_ns: 9_900,
            lqh_commit_ns: 3_300,
            lqh_complete_ns: 2_220,
            api_statement_ns: 40_000,
            api_execute_ns: 8_000,
            api_op_ns: 2_000,
            api_reply_ns: 4_000,
            remote_signal_ns: 4_000,
            allocator_request_ns: 20_000,
            scale: 1.0,
            insert_scale: 1.0,
            service_cv: SERVICE_CV,
        }
    }

    /// A client's round costs its API node some CPU (at least 1 ns once scaled), so a
    /// client's transactions take simulated time even with no network and no think time.
    pub(super) fn a_round_takes_time(&self) -> bool {
        (self.api_statement_ns.min(self.api_execute_ns) + self.api_op_ns) as f64 * self.scale >= 0.5
    }

    /// Every cost the field table lists divided by `factor` (present-day cores and a
    /// leaner code path), as the JSON a preset holds, except the central allocator
    /// service's, whose 20 us per request is already a present-day core's
    /// (docs/MODEL.md §8).
    pub(super) fn faster(&self, factor: u64) -> serde_json::Value {
        const MEASURED_TODAY: &[&str] = &["allocatorRequestNs"];
        let mut costs = serde_json::to_value(self).expect("CpuConfig serialises");
        let costs_ns = FIELDS.iter().filter_map(|f| f.name.strip_prefix("cpu.")).filter(|n| n.ends_with("Ns"));
        for name in costs_ns.filter(|n| !MEASURED_TODAY.contains(n)) {
            let ns = costs[name].as_u64().expect("a cost in ns");
            costs[name] = (ns / factor).into();
        }
        costs
    }
}
