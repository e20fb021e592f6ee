//! The run described in words, once: what runs, on which cluster, how requests arrive, where
//! ids come from and how rows are placed. `hotrow run`'s first line, the report's header and
//! the playground's "Running now" line print this sentence and compose none of their own.

use crate::config::{Allocator, Config, Engine, IdCacheScope, Partitioning, Workload};
use crate::format::grouped;

/// One sentence on the run of `cfg` (without a full stop): "DBT2 on 8 data nodes (2
/// replicas), 8 API nodes with 64 clients each; each client runs a closed loop, no think
/// time; each API node fetches one id at a time from the SYSTAB_0 counter row, unhinted
/// (coordinated round robin); rows placed by hash".
pub fn described(cfg: &Config) -> String {
    let what = match &cfg.workload {
        Workload::Dbt2 => "DBT2".to_string(),
        Workload::Spec(s) => format!("the workload \"{}\"", s.name),
    };
    let s = |count: u32| if count == 1 { "" } else { "s" };
    let (d, r, a, c) = (cfg.data_nodes, cfg.replicas, cfg.api_nodes, cfg.clients_per_api_node);
    let clients = format!("{a} API node{} with {c} client{} each", s(a), s(c));
    if cfg.engine.one_server() {
        let cores = cfg.server.cores;
        let server = format!("one {} server ({cores} core{}), {clients}", cfg.engine.title(), s(cores));
        return format!("{what} on {server}; {}; {}", arrivals(cfg), ids(cfg));
    }
    let cluster = if cfg.engine == Engine::Raft {
        let cores = cfg.server.cores;
        format!("{d} Raft node{} ({cores} core{} each; {r} replica{} of each range), {clients}", s(d), s(cores), s(r))
    } else {
        format!("{d} data node{} ({r} replica{}), {clients}", s(d), s(r))
    };
    let placed = if cfg.partitioning == Partitioning::Range { "key range" } else { "hash" };
    format!("{what} on {cluster}; {}; {}; rows placed by {placed}", arrivals(cfg), ids(cfg))
}

/// How requests arrive: closed loops, or a rate offered.
fn arrivals(cfg: &Config) -> String {
    if cfg.arrival_rate_per_api_node == 0 {
        return match cfg.think_time_us {
            0 => "each client runs a closed loop, no think time".to_string(),
            us => format!("each client runs a closed loop, thinking {} between transactions", crate::format::micros(us as f64)),
        };
    }
    let spread = match cfg.arrival_cv {
        1.0 => "Poisson".to_string(),
        0.0 => "evenly spaced".to_string(),
        cv => format!("gaps with CV {}", crate::decimal::Shortest(cv)),
    };
    format!(
        "open arrivals: {} requests/s offered to each API node ({spread}), each taking a free client thread or waiting for one",
        grouped(cfg.arrival_rate_per_api_node as f64)
    )
}

/// Where ids come from.
fn ids(cfg: &Config) -> String {
    if cfg.primary_key {
        return "the table has a primary key of its own: no hidden-key ids are drawn".to_string();
    }
    if cfg.workload.spec().is_some_and(|s| s.id_table().is_none()) {
        return "every table has a key of its own: no ids are drawn".to_string();
    }
    let traits = cfg.allocator.traits();
    if traits.tick {
        return format!(
            "ids are made from the clock ({} us ticks), the node and a {}-bit sequence: nobody is asked",
            cfg.timestamp_tick_us, cfg.timestamp_sequence_bits
        );
    }
    let ids = |n: u64| if n == 1 { "1 id".to_string() } else { format!("{} ids", grouped(n as f64)) };
    let cache = match (cfg.cache_growth, cfg.cache_size) {
        (g, start) if g > 1 => format!("ranges that start at {} and grow {g}x per range up to {}", ids(start), ids(cfg.cache_size_max)),
        (_, 1) => "one id at a time".to_string(),
        (_, n) => format!("ranges of {}", ids(n)),
    };
    // Decided by the strategy's traits, its label where they say nothing more: a new
    // strategy is described without an arm here.
    let label = Allocator::LABELS[cfg.allocator as usize];
    if !traits.cache {
        return format!("ids come from {label}");
    }
    let owner = if cfg.id_cache_scope == IdCacheScope::Client { "each client" } else { "each API node" };
    if traits.counter_row && cfg.engine == Engine::Postgres {
        format!("{owner} takes {cache} from its table's sequence inside each INSERT, on the server (nextval)")
    } else if traits.counter_row && cfg.engine == Engine::Raft {
        format!("{owner} takes {cache} from its table's sequence (nextval, not transactional)")
    } else if cfg.autoinc_table_lock() {
        "each INSERT holds its table's AUTO-INC lock to the statement's end (innodb_autoinc_lock_mode 0)".to_string()
    } else if traits.counter_row && cfg.engine == Engine::Innodb {
        format!("{owner} takes {cache} from its table's AUTO_INCREMENT counter inside each INSERT, on the server")
    } else if traits.counter_row {
        let hint = if cfg.hinted_refill { "hinted (coordinated on the row's node)" } else { "unhinted (coordinated round robin)" };
        format!("{owner} fetches {cache} from the SYSTAB_0 counter row, {hint}")
    } else if traits.service {
        format!("{owner} fetches {cache} from one allocator service")
    } else {
        format!("{owner} takes {cache} from {label}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn of(v: serde_json::Value) -> String {
        described(&Config::from_json(&v).unwrap())
    }

    #[test]
    fn the_run_in_words() {
        assert_eq!(
            of(json!({ "preset": "bug39267" })),
            "DBT2 on 8 data nodes (2 replicas), 8 API nodes with 16 clients each; each client runs a closed loop, no think time; \
             each API node fetches one id at a time from the SYSTAB_0 counter row, unhinted (coordinated round robin); rows placed by hash"
        );
        let open = of(json!({ "preset": "modern", "arrivalRatePerApiNode": 500, "allocator": "centralService", "idCacheScope": "client" }));
        assert!(open.contains("open arrivals: 500 requests/s offered to each API node (Poisson)"), "{open}");
        assert_eq!(
            of(json!({ "preset": "postgres", "workload": "sysbench-insert" })),
            "the workload \"sysbench-insert\" on one PostgreSQL server (2 cores), 1 API node with 8 clients each; each client runs a closed loop, \
             no think time; each client takes one id at a time from its table's sequence inside each INSERT, on the server (nextval)"
        );
        assert_eq!(
            of(json!({ "preset": "innodb", "workload": "sysbench-insert", "clientsPerApiNode": 1 })),
            "the workload \"sysbench-insert\" on one InnoDB server (2 cores), 1 API node with 1 client each; each client runs a closed loop, \
             no think time; each client takes one id at a time from its table's AUTO_INCREMENT counter inside each INSERT, on the server"
        );
        let mode0 = of(json!({ "preset": "innodb", "workload": "sysbench-insert", "server": { "autoincLockMode": 0 } }));
        assert!(
            mode0.ends_with("each INSERT holds its table's AUTO-INC lock to the statement's end (innodb_autoinc_lock_mode 0)"),
            "{mode0}"
        );
        assert!(open.contains("each client fetches ranges of 1,000 ids from one allocator service"), "{open}");
        assert!(of(json!({ "thinkTimeUs": 1000 })).contains("thinking 1.0 ms between transactions"));
        assert!(of(json!({ "primaryKey": true })).contains("a primary key of its own"));
        assert!(of(json!({ "workload": "ycsb-a" })).ends_with("every table has a key of its own: no ids are drawn; rows placed by hash"));
        assert!(of(json!({ "allocator": "timestamp" })).contains("ids are made from the clock"));
        assert!(of(json!({ "cacheGrowth": 4, "cacheSize": 10, "cacheSizeMax": 1000 }))
            .contains("start at 10 ids and grow 4x per range up to 1,000 ids"));
    }
}
