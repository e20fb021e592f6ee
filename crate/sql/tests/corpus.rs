//! The corpus (`tests/corpus/`): the idioms a counter is written in (upserts, MERGE, a
//! data-modifying WITH, sequences and identity columns, a counter cache, an invoice-number
//! table, a job queue, advisory and table locks, session settings) and real benchmarks'
//! scripts (pgbench's built-ins, sysbench's oltp_read_write), with the shipped examples.
//! For each: what was modelled and what was said; for every file: nothing dropped, each
//! statement became something, and each one left out has an assumption at its place.

use hotrow_sql::{import, Dialect, Imported, Options, Source};
use sqlparser::dialect::{MySqlDialect, PostgreSqlDialect};
use sqlparser::tokenizer::{Token, Tokenizer};

fn source(path: &str) -> Source {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    Source { name: path.rsplit('/').next().unwrap().into(), text: std::fs::read_to_string(&full).expect(path), weight: None }
}

fn imported(paths: &[&str], dialect: Dialect) -> (Vec<Source>, Imported) {
    let sources: Vec<Source> = paths.iter().map(|p| source(p)).collect();
    let got = import(&sources, &Options { dialect, ..Options::default() }).unwrap_or_else(|e| panic!("{paths:?}: {e}"));
    (sources, got)
}

/// The statements of a file, counted from its tokens (pgbench's meta-commands blanked): one
/// per run of code between semicolons.
fn statements_in(text: &str, dialect: Dialect) -> usize {
    let text: String = text.lines().map(|l| if l.trim_start().starts_with('\\') { "" } else { l }).collect::<Vec<_>>().join("\n");
    let tokens = match dialect {
        Dialect::Mysql => Tokenizer::new(&MySqlDialect {}, &text).tokenize(),
        Dialect::Postgres => Tokenizer::new(&PostgreSqlDialect {}, &text).tokenize(),
    }
    .expect("the corpus tokenizes");
    let mut count = 0;
    let mut code = false;
    for t in tokens {
        match t {
            Token::SemiColon => {
                count += code as usize;
                code = false;
            }
            Token::Whitespace(_) => {}
            _ => code = true,
        }
    }
    count + code as usize
}

/// Every statement of every file became something; each left out is said at its place.
fn nothing_dropped(sources: &[Source], got: &Imported, dialect: Dialect) {
    for s in sources {
        let mine: Vec<_> = got.statements.iter().filter(|b| b.at.file == s.name).collect();
        assert_eq!(mine.len(), statements_in(&s.text, dialect), "{}: {:?}", s.name, mine);
        for b in mine {
            assert!(!b.became.is_empty(), "{}: {b:?}", s.name);
            if b.became == "left out" {
                assert!(got.assumptions.iter().any(|a| a.at == b.at), "{} left out without a word: {:?}", b.at, got.assumptions);
            }
        }
    }
}

/// Each transaction's name and its statements as `op table`.
fn transactions(got: &Imported) -> Vec<(String, Vec<String>)> {
    got.spec["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let ops = t["statements"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| format!("{} {}", s["op"].as_str().unwrap(), s["table"].as_str().unwrap()))
                .collect();
            (t["name"].as_str().unwrap().to_string(), ops)
        })
        .collect()
}

struct Case {
    files: &'static [&'static str],
    dialect: Dialect,
    transactions: &'static [(&'static str, &'static [&'static str])],
    says: &'static [&'static str],
}

const PG: Dialect = Dialect::Postgres;
const MY: Dialect = Dialect::Mysql;

const CASES: &[Case] = &[
    Case {
        files: &["tests/corpus/counters-schema.sql", "tests/corpus/upsert-on-conflict.sql"],
        dialect: PG,
        transactions: &[("count_order", &["update counters", "insert orders"])],
        says: &[
            "ON CONFLICT ... DO UPDATE: the row of counters where name = 'orders' is locked and updated",
            "RETURNING: the transaction uses the values of the counters row(s)",
        ],
    },
    Case {
        files: &["tests/corpus/counters-schema.sql", "tests/corpus/upsert-do-nothing.sql"],
        dialect: PG,
        transactions: &[("upsert-do-nothing", &["read counters", "update counters"])],
        says: &["ON CONFLICT ... DO NOTHING: the row of counters where name = 'orders' exists after its first insert"],
    },
    Case {
        files: &["tests/corpus/counters-schema.sql", "tests/corpus/upsert-mysql.sql"],
        dialect: MY,
        transactions: &[("duplicate_key", &["update counters"]), ("replace", &["update counters"]), ("ignore", &["insert orders"])],
        says: &[
            "ON DUPLICATE KEY UPDATE: the row of counters where name = 'orders' is locked and updated",
            "REPLACE: the row of counters where name = 'visits'",
            "INSERT IGNORE: a new row each time",
        ],
    },
    Case {
        files: &["tests/corpus/counters-schema.sql", "tests/corpus/merge.sql"],
        dialect: PG,
        transactions: &[("merge", &["update counters"])],
        says: &["MERGE: the row of counters where name = 'orders' is locked and updated when matched"],
    },
    Case {
        files: &["tests/corpus/counters-schema.sql", "tests/corpus/data-modifying-with.sql"],
        dialect: PG,
        transactions: &[("data-modifying-with", &["update counters", "insert orders"])],
        says: &["WITH c AS (...): its statement runs first", "RETURNING"],
    },
    Case {
        files: &["tests/corpus/sequences-schema.sql", "tests/corpus/sequences.sql"],
        dialect: PG,
        transactions: &[("invoice", &["insert invoices", "insert payments"]), ("invoice_inline", &["insert invoices"])],
        says: &[
            "CREATE SEQUENCE invoice_seq: an id source",
            "CREATE SEQUENCE invoice_seq INCREMENT BY 1: these change which values it gives, not how they are fetched",
            "invoices: its keys come from sequence invoice_seq, 1 at a time (CACHE 1)",
            "payments: its identity column fetches 50 ids at a time (CACHE 50)",
            "its key is the value SELECT nextval('invoice_seq') took at sequences.sql:3:1",
        ],
    },
    Case {
        files: &["tests/corpus/rails-counter-cache.sql"],
        dialect: MY,
        transactions: &[("create_comment", &["insert comments", "update posts"])],
        says: &["posts's key drawn as the annotation says: zipfian(0.99)"],
    },
    Case {
        files: &["tests/corpus/invoice-number-table.sql"],
        dialect: PG,
        transactions: &[("invoice", &["update invoice_numbers", "update invoice_numbers", "insert invoices"])],
        says: &["SELECT ... FOR UPDATE: a locking read, taken as an update"],
    },
    Case {
        files: &["tests/corpus/job-queue.sql"],
        dialect: PG,
        transactions: &[("take_job", &["update jobs", "update jobs"])],
        says: &["SELECT ... FOR UPDATE SKIP LOCKED", "`SET LOCAL lock_timeout`: a session setting"],
    },
    Case {
        files: &["tests/corpus/advisory-locks.sql"],
        dialect: PG,
        transactions: &[("settle", &["update advisory_locks", "update balances"]), ("audit", &["read balances"])],
        says: &["pg_advisory_xact_lock(...): an advisory lock, held to commit", "`LOCK TABLE balances`: a table lock"],
    },
    Case {
        files: &["../../examples/sql/pgbench-schema.sql", "tests/corpus/pgbench-simple-update.sql", "tests/corpus/pgbench-select-only.sql"],
        dialect: PG,
        transactions: &[
            ("pgbench-simple-update", &["update pgbench_accounts", "read pgbench_accounts", "insert pgbench_history"]),
            ("pgbench-select-only", &["read pgbench_accounts"]),
        ],
        says: &["pgbench_history: no primary key"],
    },
    Case {
        files: &["../../examples/sql/sysbench-schema.sql", "tests/corpus/sysbench-oltp.sql"],
        dialect: MY,
        transactions: &[(
            "read_write",
            &[
                "read sbtest1",
                "read sbtest1",
                "read sbtest1",
                "read sbtest1",
                "read sbtest1",
                "update sbtest1",
                "update sbtest1",
                "delete sbtest1",
                "insert sbtest1",
            ],
        )],
        says: &["`WHERE id BETWEEN ? AND ?`: a range of the key (id) whose length the SQL does not say"],
    },
];

#[test]
fn every_idiom_is_modelled_as_said() {
    for case in CASES {
        let (sources, got) = imported(case.files, case.dialect);
        nothing_dropped(&sources, &got, case.dialect);
        let want: Vec<(String, Vec<String>)> =
            case.transactions.iter().map(|(n, ops)| (n.to_string(), ops.iter().map(|o| o.to_string()).collect())).collect();
        assert_eq!(transactions(&got), want, "{:?}", case.files);
        for says in case.says {
            assert!(got.assumptions.iter().any(|a| a.text.contains(says)), "{:?}: {says}: {:#?}", case.files, got.assumptions);
        }
    }
}

/// The shipped examples too: every statement accounted for.
#[test]
fn the_shipped_examples_drop_nothing() {
    let sets: [(&[&str], Dialect); 6] = [
        (&["orders-schema.sql", "orders.sql"], MY),
        (&["dbt2-schema.sql", "dbt2.sql"], MY),
        (&["pgbench-schema.sql", "tpcb-like.sql"], PG),
        (&["sysbench-schema.sql", "sysbench-insert.sql"], MY),
        (&["shop-pg-schema.sql", "shop-pg.sql"], PG),
        (&["shop-pg-schema.sql", "shop-pg-counter-last.sql"], PG),
    ];
    for (files, dialect) in sets {
        let paths: Vec<String> = files.iter().map(|f| format!("../../examples/sql/{f}")).collect();
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let (sources, got) = imported(&paths, dialect);
        nothing_dropped(&sources, &got, dialect);
        assert!(!transactions(&got).is_empty(), "{files:?}");
    }
}
