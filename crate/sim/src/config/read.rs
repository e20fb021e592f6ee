//! The config's structs read from JSON by hand (`read.rs`). The object read is the config
//! merged over its defaults (`json.rs`): every field is there and no other, so each is
//! read as one that must be given; the workload is read before, by `Workload::from_json`.

use super::{Config, CpuConfig, NetworkConfig, ServerConfig};
use crate::read::{Bad, Fields, Read};
use serde_json::Value;

impl Read for Config {
    fn read(v: &Value) -> Result<Self, Bad> {
        let f = Fields::merged(v, "struct Config")?;
        Ok(Config {
            seed: f.need("seed")?,
            workload: super::Workload::default(),
            data_nodes: f.need("dataNodes")?,
            replicas: f.need("replicas")?,
            ldm_threads: f.need("ldmThreads")?,
            tc_threads: f.need("tcThreads")?,
            api_nodes: f.need("apiNodes")?,
            api_cores: f.need("apiCores")?,
            clients_per_api_node: f.need("clientsPerApiNode")?,
            think_time_us: f.need("thinkTimeUs")?,
            arrival_rate_per_api_node: f.need("arrivalRatePerApiNode")?,
            arrival_cv: f.need("arrivalCv")?,
            cache_size: f.need("cacheSize")?,
            cache_growth: f.need("cacheGrowth")?,
            cache_size_max: f.need("cacheSizeMax")?,
            id_cache_scope: f.need("idCacheScope")?,
            allocator: f.need("allocator")?,
            timestamp_tick_us: f.need("timestampTickUs")?,
            timestamp_sequence_bits: f.need("timestampSequenceBits")?,
            hinted_refill: f.need("hintedRefill")?,
            hinted_transactions: f.need("hintedTransactions")?,
            primary_key: f.need("primaryKey")?,
            partitioning: f.need("partitioning")?,
            range_rows: f.need("rangeRows")?,
            key_layout: f.need("keyLayout")?,
            shard_bits: f.need("shardBits")?,
            warehouses: f.need("warehouses")?,
            lock_wait_timeout_ms: f.need("lockWaitTimeoutMs")?,
            duration_ms: f.need("durationMs")?,
            warmup_ms: f.need("warmupMs")?,
            window_ms: f.need("windowMs")?,
            warmup: f.need("warmup")?,
            precision: f.need("precision")?,
            precision_metric: f.need("precisionMetric")?,
            engine: f.need("engine")?,
            server: f.need("server")?,
            network: f.need("network")?,
            cpu: f.need("cpu")?,
            faults: f.need("faults")?,
        })
    }
}

impl Read for ServerConfig {
    fn read(v: &Value) -> Result<Self, Bad> {
        let f = Fields::merged(v, "struct ServerConfig")?;
        Ok(ServerConfig {
            cores: f.need("cores")?,
            flush_us: f.need("flushUs")?,
            recheck_ns: f.need("recheckNs")?,
            wake_us: f.need("wakeUs")?,
            grant_ns: f.need("grantNs")?,
            deadlock_ns: f.need("deadlockNs")?,
            deadlock_search: f.need("deadlockSearch")?,
            lock_grant: f.need("lockGrant")?,
            autoinc_lock_mode: f.need("autoincLockMode")?,
            push_delay_us: f.need("pushDelayUs")?,
            push_ns: f.need("pushNs")?,
        })
    }
}

impl Read for NetworkConfig {
    fn read(v: &Value) -> Result<Self, Bad> {
        let f = Fields::merged(v, "struct NetworkConfig")?;
        Ok(NetworkConfig { latency_us: f.need("latencyUs")?, latency_cv: f.need("latencyCv")? })
    }
}

impl Read for CpuConfig {
    fn read(v: &Value) -> Result<Self, Bad> {
        let f = Fields::merged(v, "struct CpuConfig")?;
        Ok(CpuConfig {
            tc_op_ns: f.need("tcOpNs")?,
            tc_reply_ns: f.need("tcReplyNs")?,
            tc_commit_ns: f.need("tcCommitNs")?,
            lqh_read_ns: f.need("lqhReadNs")?,
            lqh_write_ns: f.need("lqhWriteNs")?,
            lqh_commit_ns: f.need("lqhCommitNs")?,
            lqh_complete_ns: f.need("lqhCompleteNs")?,
            api_statement_ns: f.need("apiStatementNs")?,
            api_execute_ns: f.need("apiExecuteNs")?,
            api_op_ns: f.need("apiOpNs")?,
            api_reply_ns: f.need("apiReplyNs")?,
            remote_signal_ns: f.need("remoteSignalNs")?,
            allocator_request_ns: f.need("allocatorRequestNs")?,
            scale: f.need("scale")?,
            insert_scale: f.need("insertScale")?,
            service_cv: f.need("serviceCv")?,
        })
    }
}
