//! A counter written the ways applications write it binds on its row when run: an upsert, a
//! MERGE, a data-modifying WITH; a sequence at CACHE 1 is a hot row of its own, CACHE 1000
//! relieves it and the remedies offer that. Annotations apply wherever the statement
//! before them ends; one that cannot apply is an error at its line, as is every construct
//! the importer cannot read, named.

use hotrow::{Config, Simulation, Summary};
use hotrow_sql::{import, Dialect, ImportError, Imported, Options, Source};
use serde_json::{json, Value};

fn corpus(name: &str) -> Source {
    let path = format!("{}/tests/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    Source { name: name.into(), text: std::fs::read_to_string(path).expect(name), weight: None }
}

fn text(name: &str, text: &str) -> Source {
    Source { name: name.into(), text: text.into(), weight: None }
}

fn pg(sources: &[Source]) -> Result<Imported, ImportError> {
    import(sources, &Options { dialect: Dialect::Postgres, ..Options::default() })
}

fn run(workload: &Value) -> Summary {
    let c = Config::from_json(&json!({ "preset": "modern", "workload": workload, "durationMs": 1000, "warmupMs": 300 })).unwrap();
    let mut sim = Simulation::new(c);
    sim.run_to_end();
    sim.summary()
}

fn bottleneck(s: &Summary) -> String {
    s.bottleneck.as_ref().map(|b| b.name.clone()).unwrap_or_default()
}

#[test]
fn a_counter_written_as_an_upsert_a_merge_or_a_with_binds_on_its_row() {
    for file in ["upsert-on-conflict.sql", "merge.sql", "data-modifying-with.sql"] {
        let got = pg(&[corpus("counters-schema.sql"), corpus(file)]).unwrap();
        let s = run(&got.spec);
        assert!(bottleneck(&s).contains("of `counters`"), "{file}: held by {}", bottleneck(&s));
        let b = s.bottleneck.as_ref().unwrap();
        assert!(b.utilization > 0.9, "{file}: the counter row {:.0}% busy", b.utilization * 100.0);
    }
    // The upsert's RETURNING is the spec's `returning`: spreading the counter over slots is
    // offered with the warning that its numbers would stop being unique.
    let got = pg(&[corpus("counters-schema.sql"), corpus("upsert-on-conflict.sql")]).unwrap();
    assert_eq!(got.spec["transactions"][0]["statements"][0]["returning"], true);
    let s = run(&got.spec);
    let remedies = hotrow::explain::remedies(&s.config, s.bottleneck.as_ref(), s.deadlocks.as_ref());
    let slots = remedies.iter().find(|r| r.label.contains("spread over 32 slots")).expect("the slotted counter is offered");
    assert!(slots.warning.as_deref().is_some_and(|w| w.contains("stop being unique")), "{:?}", slots.warning);
    // Without a column list (the table's columns in order) and in MySQL's SET form, the
    // upsert still finds its row.
    for sql in [
        "INSERT INTO counters VALUES ('orders', 1) ON DUPLICATE KEY UPDATE n = n + 1;\n",
        "INSERT INTO counters SET name = 'orders', n = 1 ON DUPLICATE KEY UPDATE n = n + 1;\n",
    ] {
        let got = import(&[corpus("counters-schema.sql"), text("u.sql", sql)], &Options::default()).unwrap();
        let st = &got.spec["transactions"][0]["statements"][0];
        assert_eq!((st["op"].as_str(), st["key"]["dist"].as_str()), (Some("update"), Some("fixed")), "{sql}: {st}");
    }
    // Written as a plain insert (what the importer made of it before), nothing binds there.
    let plain = pg(&[corpus("counters-schema.sql"), text("p.sql", "INSERT INTO counters (name, n) VALUES ('orders', 1);\n")]).unwrap();
    assert!(!bottleneck(&run(&plain.spec)).contains("counters"));
}

#[test]
fn a_sequence_at_cache_1_is_a_hot_row_and_cache_1000_relieves_it() {
    let script = text("s.sql", "INSERT INTO invoices (id, customer_id, total) VALUES (nextval('invoice_seq'), $1, $2);\n");
    let schema = |cache: u64| {
        let t = corpus("sequences-schema.sql").text.replace("CACHE 1;", &format!("CACHE {cache};"));
        text("schema.sql", &t)
    };
    let one = pg(&[schema(1), script.clone()]).unwrap();
    let thousand = pg(&[schema(1000), script]).unwrap();
    assert_eq!((one.spec["tables"][0]["idCache"].as_u64(), thousand.spec["tables"][0]["idCache"].as_u64()), (Some(1), Some(1000)));
    let (a, b) = (run(&one.spec), run(&thousand.spec));
    assert!(bottleneck(&a).contains("the counter row of `invoices`"), "{}", bottleneck(&a));
    assert!(!bottleneck(&b).contains("counter row"), "{}", bottleneck(&b));
    assert!(b.transactions_per_second > 5.0 * a.transactions_per_second, "{} vs {}", b.transactions_per_second, a.transactions_per_second);
    // The remedies offer the sequence's bigger cache, not the config's cacheSize (which
    // does not reach a table with a cache of its own).
    let labels: Vec<String> =
        hotrow::explain::remedies(&a.config, a.bottleneck.as_ref(), a.deadlocks.as_ref()).iter().map(|r| r.label.clone()).collect();
    assert!(labels.iter().any(|l| l.contains("`invoices` fetching 1000 ids per refill")), "{labels:?}");
    assert!(!labels.iter().any(|l| l.contains("a cache of")), "{labels:?}");
}

#[test]
fn annotations_apply_after_any_formatting_and_never_silently() {
    let schema = "CREATE TABLE t (\n  id INT PRIMARY KEY,\n  v INT\n);\n";
    for tail in
        ["-- hotrow: name=x, weight=3\nBEGIN;\n", "\n\n-- hotrow: name=x, weight=3\n\nBEGIN;\n", "-- hotrow: name=x, weight=3\n  BEGIN;\n"]
    {
        let sql = format!("{schema}{tail}UPDATE t SET v = v + 1 WHERE id = 1;\nCOMMIT;\n");
        let got = import(&[text("x.sql", &sql)], &Options::default()).unwrap();
        assert_eq!(
            (got.spec["transactions"][0]["name"].as_str(), got.spec["transactions"][0]["weight"].as_u64()),
            (Some("x"), Some(3)),
            "{sql}"
        );
    }
    // A block annotated before a statement that makes several operations (a WITH) takes
    // them all in, once.
    let with = "BEGIN;\n-- hotrow: repeat=3\nWITH c AS (UPDATE t SET v = v + 1 WHERE id = 1 RETURNING v) INSERT INTO t (id, v) SELECT $1, v FROM c;\nCOMMIT;\n";
    let got = import(&[text("x.sql", &format!("{schema}{with}"))], &Options { dialect: Dialect::Postgres, ..Options::default() }).unwrap();
    let st = &got.spec["transactions"][0]["statements"];
    assert_eq!((st[0]["repeat"]["statements"].as_u64(), st[1].get("repeat")), (Some(2), None), "{st}");
    // Only a real `--` comment is read: not one inside a string or a /* */ comment.
    for body in ["UPDATE t SET v = '-- hotrow: weigth=3' WHERE id = 1;\n", "/* -- hotrow: weigth=3 */\nUPDATE t SET v = 1 WHERE id = 1;\n"]
    {
        let got = import(&[text("x.sql", &format!("{schema}{body}"))], &Options::default());
        assert!(got.is_ok(), "{body}: {:?}", got.err());
    }
    // After a `;` on the same line, the annotation belongs to the next statement.
    let got = import(
        &[text("x.sql", &format!("{schema}UPDATE t SET v = 1 WHERE id = 2; -- hotrow: name=second\nUPDATE t SET v = 1 WHERE id = 3;\n"))],
        &Options::default(),
    )
    .unwrap();
    assert_eq!(got.spec["transactions"][1]["name"], "second");
    let cases = [
        // weight= before a statement inside a transaction: BEGIN takes it.
        (format!("{schema}BEGIN;\n-- hotrow: weight=3\nUPDATE t SET v = 1 WHERE id = 1;\nCOMMIT;\n"), 6, "`weight=` goes before a BEGIN"),
        (format!("{schema}UPDATE t SET v = 1 WHERE id = 1;\n-- hotrow: name=x\n"), 6, "after the last statement"),
        ("CREATE TABLE t (\n-- hotrow: rows=5\n id INT PRIMARY KEY);\n".to_string(), 2, "inside a statement"),
        (format!("{schema}-- hotrow: rows=5\nCOMMIT;\n"), 5, "`rows=` goes before a CREATE TABLE or a row statement"),
    ];
    for (sql, line, says) in cases {
        let e = import(&[text("x.sql", &sql)], &Options::default()).unwrap_err();
        assert_eq!((e.at.file.as_str(), e.at.line), ("x.sql", line), "{sql}: {e}");
        assert!(e.message.contains(says), "{sql}: {e}");
    }
}

#[test]
fn what_cannot_be_read_is_named_where_it_stands() {
    let schema = text("s.sql", "CREATE TABLE t (id INT PRIMARY KEY, v INT);\nCREATE SEQUENCE s;\n");
    let cases = [
        ("BEGIN;\nSELECT nextval('s');\nUPDATE t SET v = 1 WHERE id = 1;\nCOMMIT;\n", 2, "nextval('s'): no INSERT after it"),
        ("INSERT INTO t (id, v) VALUES (nextval('nope'), 1);\n", 1, "nextval('nope'): no CREATE SEQUENCE nope"),
        ("\nINSERT INTO t SELECT id, v FROM t WHERE v > 3;\n", 2, "INSERT ... SELECT FROM t: the rows it inserts are not known"),
        (
            "WITH c AS (UPDATE t SET v = 1 FROM t AS u WHERE t.id = u.id RETURNING v) SELECT v FROM c;\n",
            1,
            "WITH c AS (...): UPDATE of joined tables",
        ),
        (
            "MERGE INTO nowhere n USING (SELECT 1 AS id) s ON n.id = s.id WHEN MATCHED THEN DELETE;\n",
            1,
            "MERGE INTO `nowhere`: not in the schema",
        ),
        ("BEGIN;\nSELECT nextval('s');\nINSERT INTO nowhere VALUES ($1);\nCOMMIT;\n", 3, "table `nowhere` is not in the schema"),
        ("INSERT INTO nowhere VALUES (1);\n", 1, "table `nowhere` is not in the schema"),
        ("SELECT nextval('s'), nextval('s');\n", 1, "two sequences' values or advisory locks in one SELECT"),
        (
            "UPDATE t SET v = 1 WHERE id = $1 -- hotrow: rows=2\n;\nUPDATE t SET v = 1 WHERE id = $2;\n",
            1,
            "before the `;` of the statement it follows",
        ),
    ];
    for (sql, line, says) in cases {
        let e = pg(&[schema.clone(), text("x.sql", sql)]).unwrap_err();
        assert_eq!((e.at.file.as_str(), e.at.line), ("x.sql", line), "{sql}: {e}");
        assert!(e.message.contains(says), "{sql}: {e}");
    }
    // Read rather than refused: INSERT ... SELECT of rows found by key, a SELECT of nothing.
    let got = pg(&[schema, text("x.sql", "INSERT INTO t (id, v) SELECT id + 1000, v FROM t WHERE id IN (1, 2, 3);\nSELECT 1;\n")]).unwrap();
    let ops: Vec<(String, u64)> = got.spec["transactions"][0]["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (format!("{} {}", s["op"].as_str().unwrap(), s["table"].as_str().unwrap()), s["rows"].as_u64().unwrap_or(1)))
        .collect();
    assert_eq!(ops, [("read t".to_string(), 3), ("insert t".to_string(), 3)]);
    assert!(got.assumptions.iter().any(|a| a.text.contains("`SELECT 1`: reads no row") && a.at.line == 2), "{:?}", got.assumptions);
}
