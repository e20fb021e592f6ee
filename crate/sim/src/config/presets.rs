//! Presets: named sets of fields on top of [`Config::default`](super::Config::default) (the 2008 cluster of Bug
//! #39267). Nothing in the model knows their names; they are only JSON defaults.

use serde_json::Value;

/// Names of the presets, in the order `hotrow presets` lists them. The allocator lab's
/// presets (from `ndb-autoincrement` on) all run single-row SQL inserts on the `modern`
/// cluster, so that they differ only in how ids are handed out and where keys land:
/// strategies transplanted onto one NDB-style cluster, not simulations of the products.
pub const PRESETS: [(&str, &str); 15] = [
    ("bug39267", "DBT2 on 8 data nodes, hidden-key cache 1, refill without hint: the 2008 bug"),
    ("bug39267-fixed", "the same with cache 1000, as in MySQL Cluster 6.3.18"),
    ("ndbapi-pk", "NDB API single-row inserts into a table with a primary key"),
    ("ndbapi-hidden-pk", "the same table without a primary key (hidden key), cache 1"),
    ("modern", "a present-day cluster: 4 LDM + 2 TC threads, 20 us network, cache 1000, hinted"),
    (
        "ndb-autoincrement",
        "single-row INSERTs through 8 mysqld into an AUTO_INCREMENT table: one range per mysqld behind the \
         table share's mutex, refilled from the SYSTAB_0 row 512 ids at a time (NDB 8.0.19+ \
         ndb_autoincrement_prefetch_sz; TiDB's AUTO_ID_CACHE 30000 and Vitess sequences work alike)",
    ),
    (
        "central-allocator",
        "the same inserts, each id one request to a central allocator service on its own host \
         (TiDB 6.4+ AUTO_ID_CACHE 1: one in-memory allocator with a standby), 20 us of service CPU each",
    ),
    (
        "timestamp-ids",
        "the same inserts with ids from time, node and sequence, no coordination (Twitter Snowflake: \
         1 ms ticks, 12-bit sequence = 4096 ids per ms per node; CockroachDB unique_rowid is alike)",
    ),
    (
        "adaptive-cache",
        "the counter row with a cache that starts at 1 id and grows x10 per refill up to 10000 \
         (HP NonStop SQL/MX)",
    ),
    (
        "range-sequential",
        "ndb-autoincrement's ids on a range-partitioned table (TiKV, CockroachDB, Spanner): \
         increasing keys all land in the newest range, one primary takes every insert",
    ),
    (
        "range-shard-bits",
        "the same with 5 hash bits on top of each key (TiDB AUTO_RANDOM's default): inserts \
         spread over 32 key ranges",
    ),
    (
        "range-bit-reversed",
        "the same with bit-reversed keys (Spanner's bit_reversed_positive sequences): inserts \
         spread over every range",
    ),
    (
        "postgres",
        "one PostgreSQL 15 server on 2 cores, 8 pgbench clients updating one counter row: WAL \
         group commit, every waiter woken at each hand-off (calibrated on this project's machine)",
    ),
    (
        "innodb",
        "one MariaDB 10.11 (InnoDB) server on 2 cores, 8 sysbench clients updating one counter row: \
         locks released before the redo log's group flush, FIFO hand-over, a deadlock search at each wait \
         (calibrated on this project's machine)",
    ),
    (
        "raft",
        "a Raft-replicated range cluster in the style of CockroachDB: 3 nodes of 8 cores, 3 replicas per range, \
         16 clients updating one counter row: each write a Raft round to a majority, intents resolved after commit, \
         waiters pushing after 50 ms (set from published figures, not measured here)",
    ),
];

/// The fields a preset sets on top of [`Config::default`](super::Config::default), as JSON. Written as JSON text and
/// parsed (a `json!` per preset costs the WebAssembly module 8 KiB of code; the text parser
/// is there anyway).
pub fn preset(name: &str) -> Option<Value> {
    let mut v = crate::parse_json(text(name)?).expect("a preset is JSON");
    match name {
        "ndbapi-pk" | "ndbapi-hidden-pk" => v["primaryKey"] = (name == "ndbapi-pk").into(),
        "modern" => v["cpu"] = super::CpuConfig::ndbd_2008().faster(3),
        "bug39267" | "bug39267-fixed" | "postgres" | "innodb" | "raft" => {}
        _ => v = lab(v),
    }
    Some(v)
}

/// The JSON text of preset `name`'s own fields.
fn text(name: &str) -> Option<&'static str> {
    Some(match name {
        "bug39267" => "{}",
        "bug39267-fixed" => r#"{ "cacheSize": 1000 }"#,
        "ndbapi-pk" | "ndbapi-hidden-pk" => {
            r#"{ "workload": "ndbapi-insert", "dataNodes": 4, "apiNodes": 1, "clientsPerApiNode": 32, "cacheSize": 1,
                 "durationMs": 5000, "warmupMs": 1000 }"#
        }
        "modern" => {
            r#"{ "ldmThreads": 4, "tcThreads": 2, "apiCores": 32, "clientsPerApiNode": 64, "cacheSize": 1000,
                 "hintedRefill": true, "network": { "latencyUs": 20 } }"#
        }
        "ndb-autoincrement" => "{}",
        "central-allocator" => r#"{ "allocator": "centralService", "cacheSize": 1 }"#,
        "timestamp-ids" => r#"{ "allocator": "timestamp", "timestampTickUs": 1000, "timestampSequenceBits": 12 }"#,
        "adaptive-cache" => r#"{ "cacheSize": 1, "cacheGrowth": 10, "cacheSizeMax": 10000 }"#,
        "range-sequential" => r#"{ "partitioning": "range", "keyLayout": "sequential" }"#,
        "range-shard-bits" => r#"{ "partitioning": "range", "keyLayout": "shardBits", "shardBits": 5 }"#,
        "range-bit-reversed" => r#"{ "partitioning": "range", "keyLayout": "bitReversed" }"#,
        "postgres" => {
            r#"{ "engine": "postgres", "workload": "counter", "dataNodes": 1, "replicas": 1, "apiNodes": 1, "apiCores": 2,
                 "clientsPerApiNode": 8, "idCacheScope": "client", "lockWaitTimeoutMs": 1000, "durationMs": 5000, "warmupMs": 1000,
                 "network": { "latencyUs": 17, "latencyCv": 0.5 },
                 "cpu": { "tcOpNs": 77900, "tcReplyNs": 1950, "tcCommitNs": 19500, "lqhReadNs": 15600, "lqhWriteNs": 29200,
                          "lqhCommitNs": 0, "lqhCompleteNs": 0, "apiStatementNs": 19500, "apiExecuteNs": 9700, "apiOpNs": 1950,
                          "apiReplyNs": 5800, "remoteSignalNs": 15600, "insertScale": 0.55 } }"#
        }
        "innodb" => {
            r#"{ "engine": "innodb", "workload": "counter", "dataNodes": 1, "replicas": 1, "apiNodes": 1, "apiCores": 2,
                 "clientsPerApiNode": 8, "idCacheScope": "client", "lockWaitTimeoutMs": 50000, "durationMs": 5000, "warmupMs": 1000,
                 "server": { "cores": 2, "flushUs": 163, "recheckNs": 0, "wakeUs": 81, "grantNs": 506, "deadlockNs": 0,
                             "deadlockSearch": "holders", "lockGrant": "fifo" },
                 "network": { "latencyUs": 17, "latencyCv": 0.5 },
                 "cpu": { "tcOpNs": 53070, "tcReplyNs": 1330, "tcCommitNs": 13290, "lqhReadNs": 10630, "lqhWriteNs": 19890,
                          "lqhCommitNs": 0, "lqhCompleteNs": 0, "apiStatementNs": 13290, "apiExecuteNs": 6610, "apiOpNs": 1330,
                          "apiReplyNs": 3950, "remoteSignalNs": 10630, "insertScale": 0.48 } }"#
        }
        "raft" => {
            r#"{ "engine": "raft", "workload": "counter", "dataNodes": 3, "replicas": 3, "apiNodes": 1, "apiCores": 16,
                 "clientsPerApiNode": 16, "idCacheScope": "client", "lockWaitTimeoutMs": 100, "durationMs": 5000, "warmupMs": 1000,
                 "server": { "cores": 8, "flushUs": 500, "pushDelayUs": 50000, "pushNs": 20000 },
                 "network": { "latencyUs": 250, "latencyCv": 0.5 },
                 "cpu": { "tcOpNs": 20000, "tcReplyNs": 5000, "tcCommitNs": 20000, "lqhReadNs": 30000, "lqhWriteNs": 60000,
                          "lqhCommitNs": 20000, "lqhCompleteNs": 0, "apiStatementNs": 150000, "apiExecuteNs": 50000, "apiOpNs": 5000,
                          "apiReplyNs": 10000, "remoteSignalNs": 5000 } }"#
        }
        _ => return None,
    })
}

/// The fields every allocator-lab preset sets on top of `modern`.
const LAB: &str = r#"{ "workload": "sql-insert", "apiNodes": 8, "cacheSize": 512, "durationMs": 3000, "warmupMs": 1000 }"#;

/// The allocator lab's cluster: `modern`, 8 mysqld of 64 sessions each running
/// autocommit single-row INSERTs into a table whose key the allocator gives, with NDB
/// 8.0's AUTO_INCREMENT defaults (the default counter row, one range per mysqld as
/// `sql-insert` implies, prefetch 512), and `fields` on top. Three measured seconds: the
/// cluster inserts about 1.8 million rows a second, so a run is some 100 million events;
/// range partitioning cuts ranges at the default `rangeRows`.
fn lab(fields: Value) -> Value {
    let mut v = preset("modern").expect("modern is a preset");
    let base = crate::parse_json(LAB).expect("the lab's fields are JSON");
    for layer in [base, fields] {
        for (k, x) in layer.as_object().expect("an object") {
            v[k] = x.clone();
        }
    }
    v
}

pub(super) fn preset_list() -> String {
    let names: Vec<String> = PRESETS.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    format!("must be one of {}", names.join(", "))
}

#[cfg(test)]
mod tests {
    /// The WebAssembly binding parses these texts without serde_json's `float_roundtrip`
    /// (crate/sim/Cargo.toml): its fast path is exact (one rounding: a significand below
    /// 2^53 times or over an exact power of ten) for a number of at most 15 significant
    /// digits whose power of ten is within ±22. Every number in a text compiled in must be
    /// such a number, or the module would run another config than the CLI.
    fn inexact_numbers(text: &str) -> Vec<String> {
        let (b, mut i, mut bad) = (text.as_bytes(), 0, vec![]);
        while i < b.len() {
            match b[i] {
                b'"' => {
                    i += 1;
                    while b[i] != b'"' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                b'-' | b'0'..=b'9' => {
                    let start = i;
                    while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                        i += 1;
                    }
                    let token = &text[start..i];
                    let (mantissa, exp) = token.split_once(['e', 'E']).unwrap_or((token, "0"));
                    let (int, frac) = mantissa.trim_start_matches('-').split_once('.').unwrap_or((mantissa.trim_start_matches('-'), ""));
                    let digits = format!("{int}{frac}");
                    let significant = digits.trim_start_matches('0').len();
                    let power = exp.parse::<i64>().expect("an exponent") - frac.len() as i64;
                    if significant > 15 || power.abs() > 22 {
                        bad.push(token.to_string());
                    }
                }
                _ => i += 1,
            }
        }
        bad
    }

    #[test]
    fn compiled_in_json_parses_exactly_without_float_roundtrip() {
        let mut texts: Vec<(&str, &str)> =
            super::super::PRESETS.iter().map(|(n, _)| (*n, super::text(n).expect("a preset's text"))).collect();
        texts.push(("the allocator lab", super::LAB));
        texts.extend(crate::spec::SHIPPED.iter().map(|(n, _, t)| (*n, *t)));
        for (name, text) in texts {
            assert_eq!(inexact_numbers(text), Vec::<String>::new(), "{name}");
        }
        assert_eq!(
            inexact_numbers(r#"{ "a": "1.2345678901234567", "b": [0.1234567890123456, 1e23, 2.5e-3, 7] }"#),
            ["0.1234567890123456", "1e23"]
        );
    }
}
