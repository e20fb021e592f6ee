//! What a measured workload may write: only its own tables. Each statement's words are read
//! for the forms that write a table (`INSERT INTO t`, `UPDATE t`, `DELETE FROM t`, `MERGE
//! INTO t`, `TRUNCATE t`, `COPY t FROM`, `ALTER`/`DROP TABLE t`, `CREATE TABLE t`), inside a
//! `WITH` too; a table named with its schema is compared by its last part. A statement
//! that writes a table not the workload's is refused before anything runs.

/// The statement's words, lowercased, without strings and comments (an identifier in
/// double quotes is one word, unquoted).
fn words(sql: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = sql.chars().peekable();
    let flush = |w: &mut String, out: &mut Vec<String>| {
        if !w.is_empty() {
            out.push(std::mem::take(w).to_lowercase());
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                flush(&mut word, &mut out);
                for d in chars.by_ref() {
                    if d == '\'' {
                        break;
                    }
                }
            }
            '"' | '`' => {
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                    word.push(d);
                }
            }
            '-' if chars.peek() == Some(&'-') => {
                flush(&mut word, &mut out);
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            c if c.is_alphanumeric() || c == '_' || c == '.' || c == '$' => word.push(c),
            _ => flush(&mut word, &mut out),
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The last part of a possibly qualified name.
fn table(name: &str) -> String {
    name.rsplit('.').next().unwrap_or(name).to_string()
}

/// The tables `sql` writes, and those it creates.
fn written(sql: &str) -> (Vec<String>, Vec<String>) {
    let w = words(sql);
    let (mut writes, mut creates) = (Vec::new(), Vec::new());
    let skip = |i: usize, fillers: &[&str]| {
        let mut j = i;
        while w.get(j).is_some_and(|x| fillers.contains(&x.as_str())) {
            j += 1;
        }
        w.get(j).map(|x| table(x))
    };
    for i in 0..w.len() {
        let prev = if i > 0 { w[i - 1].as_str() } else { "" };
        let target = match (prev, w[i].as_str()) {
            // MySQL's INTO is optional and its modifiers come before it; without INTO, only a
            // statement's first word (INSERT() and REPLACE() are also string functions).
            (_, "insert" | "replace")
                if i == 0
                    || w.get(i + 1)
                        .is_some_and(|x| ["into", "ignore", "low_priority", "delayed", "high_priority"].contains(&x.as_str())) =>
            {
                skip(i + 1, &["low_priority", "delayed", "high_priority", "ignore", "into"])
            }
            (_, "merge") if w.get(i + 1).map(String::as_str) == Some("into") => skip(i + 2, &[]),
            // Not `FOR UPDATE`, `DO UPDATE SET` (an upsert's own row) or `KEY UPDATE`.
            ("for" | "do" | "key", "update") => None,
            (_, "update") => skip(i + 1, &["only", "low_priority", "ignore"]).filter(|t| t != "set"),
            (_, "delete") => skip(i + 1, &["low_priority", "quick", "ignore", "from", "only"]),
            // LOAD DATA ... INTO TABLE t.
            ("into", "table") => skip(i + 1, &[]),
            (_, "truncate") => skip(i + 1, &["table", "only"]),
            (_, "copy") if w.get(i + 2).map(String::as_str) == Some("from") => Some(table(&w[i + 1])),
            ("alter" | "drop", "table") => skip(i + 1, &["if", "exists", "only"]),
            ("create", "table") | ("unlogged", "table") | ("temporary" | "temp", "table") => {
                if let Some(t) = skip(i + 1, &["if", "not", "exists"]) {
                    creates.push(t);
                }
                None
            }
            _ => None,
        };
        writes.extend(target);
    }
    (writes, creates)
}

/// The setup's statements: the tables they create become the workload's own, and they may
/// write nothing else.
pub fn check_setup(file: &str, statements: &[String], own: &mut Vec<String>) -> Result<(), String> {
    for s in statements {
        own.extend(written(s).1);
    }
    writes_only_to(own, file, statements)
}

/// Refuses the first statement that writes a table not in `own`.
pub fn writes_only_to(own: &[String], file: &str, statements: &[String]) -> Result<(), String> {
    for s in statements {
        if let Some(t) = written(s).0.into_iter().find(|t| !own.contains(t)) {
            return Err(format!(
                "{file}: `{}` writes `{t}`, which is not the workload's own ({}): hotrow measure writes only to the tables --setup creates or --own names",
                super::clip(s),
                own.join(", ")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forms_that_write_a_table_are_found() {
        let w = |s: &str| written(s).0;
        assert_eq!(w("UPDATE counters SET n = n + 1 WHERE id = 1"), ["counters"]);
        assert_eq!(w("insert into public.orders (id) values (1)"), ["orders"]);
        assert_eq!(w("DELETE FROM ONLY \"Jobs\" WHERE id = 1"), ["jobs"]);
        assert!(w("SELECT * FROM t WHERE id = 1 FOR UPDATE").is_empty());
        assert_eq!(w("INSERT INTO c (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = c.n + 1"), ["c"]);
        assert_eq!(w("WITH x AS (UPDATE a SET n = 1 RETURNING n) INSERT INTO b SELECT n FROM x"), ["a", "b"]);
        assert_eq!(w("SELECT 'update secrets set x = 1' -- delete from y"), Vec::<String>::new());
        assert_eq!(w("TRUNCATE TABLE logs"), ["logs"]);
        assert_eq!(w("DROP TABLE IF EXISTS users"), ["users"]);
        assert_eq!(written("CREATE TABLE IF NOT EXISTS counters (id int)").1, ["counters"]);
        // MySQL's forms: INTO optional, modifiers, backquoted names, REPLACE, LOAD DATA.
        assert_eq!(w("INSERT IGNORE `Items` (v) VALUES (1)"), ["items"]);
        assert_eq!(w("REPLACE INTO hr.counters VALUES (1, 0)"), ["counters"]);
        assert_eq!(w("UPDATE LOW_PRIORITY counters SET n = n + 1"), ["counters"]);
        assert_eq!(w("DELETE QUICK FROM logs WHERE id < 10"), ["logs"]);
        assert_eq!(w("LOAD DATA INFILE '/tmp/x' INTO TABLE items"), ["items"]);
        assert_eq!(w("INSERT INTO t (id) VALUES (1) ON DUPLICATE KEY UPDATE n = n + 1"), ["t"]);
        assert!(w("SELECT REPLACE(name, 'a', 'b'), INSERT(name, 1, 2, 'x') FROM t").is_empty());
    }

    #[test]
    fn a_write_outside_the_workloads_tables_is_refused() {
        let own = vec!["counters".to_string()];
        let ok = ["UPDATE counters SET n = n + 1 WHERE id = 1".to_string()];
        assert!(writes_only_to(&own, "s.sql", &ok).is_ok());
        let bad = ["UPDATE counters SET n = 1".to_string(), "DELETE FROM users".to_string()];
        let e = writes_only_to(&own, "s.sql", &bad).unwrap_err();
        assert!(e.contains("writes `users`") && e.contains("--own"), "{e}");
    }
}
