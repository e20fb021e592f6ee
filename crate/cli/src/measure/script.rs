//! A pgbench-style script made runnable: its `\set` variables (hotrow-sql's reader, the one
//! the import uses) drawn afresh for each transaction, its statements split at their `;`,
//! each statement's `:name`s replaced by the values, as pgbench's simple protocol does.

use hotrow_sql::pgbench::{Draw, Variable};

/// The script ready to run: its statements and the variables they use.
pub struct Script {
    pub statements: Vec<String>,
    variables: Vec<Variable>,
    scale: i64,
}

/// SplitMix64: each client's own stream of draws (not the simulation's generator, which
/// measure does not need to reproduce).
pub struct Draws(u64);

impl Draws {
    pub fn new(seed: u64) -> Draws {
        Draws(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo) as u64 + 1;
        lo + (self.next() % span) as i64
    }
}

impl Script {
    /// Reads `text` (file `file`) at pgbench's `scale`: its variables must be constants or
    /// `random(lo, hi)` (the other random functions: use pgbench for them), its statements
    /// plain SQL.
    pub fn read(file: &str, text: &str, scale: i64) -> Result<Script, String> {
        let mut said = Vec::new();
        let (variables, sql) = hotrow_sql::pgbench::take_out(file, text, &mut said).map_err(|e| e.to_string())?;
        for v in &variables {
            if !matches!(v.draw, Draw::Uniform | Draw::Fixed) {
                return Err(format!(
                    "{file}: \\set {}: hotrow measure draws random(lo, hi) and constants; run pgbench itself for the other random functions",
                    v.name
                ));
            }
        }
        let statements = split(&sql);
        if statements.is_empty() {
            return Err(format!("{file}: no SQL statement to run"));
        }
        Ok(Script { statements, variables, scale })
    }

    /// The statements of one transaction, with fresh values.
    pub fn draw(&self, d: &mut Draws) -> Vec<String> {
        let values: Vec<(String, String)> = self
            .variables
            .iter()
            .map(|v| {
                let k = if v.scaled { self.scale } else { 1 };
                let value = if v.draw == Draw::Fixed { v.lo * k } else { d.between(v.lo * k, v.hi * k) };
                (v.name.clone(), value.to_string())
            })
            .collect();
        self.statements.iter().map(|s| substitute(s, &values)).collect()
    }
}

/// `:name` replaced by its value (not `::`, a cast; longest names first, so `:aid` is not
/// taken for `:a`); `:scale` is pgbench's scale.
fn substitute(sql: &str, values: &[(String, String)]) -> String {
    let mut out = String::with_capacity(sql.len());
    let bytes = sql.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b':' && bytes.get(i + 1) != Some(&b':') && (i == 0 || bytes[i - 1] != b':') {
            let name_end = sql[i + 1..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(sql.len(), |n| i + 1 + n);
            let name = &sql[i + 1..name_end];
            if let Some((_, v)) = values.iter().find(|(n, _)| n == name) {
                out.push_str(v);
                i = name_end;
                continue;
            }
        }
        let c = sql[i..].chars().next().expect("in bounds");
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// The statements of `sql`, split at each `;` outside quotes, comments and `$$` bodies, each
/// trimmed; pieces of only comments and blanks left out.
pub fn split(sql: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = sql.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\'' | b'"' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q {
                    i += 1;
                }
            }
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = sql[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 1);
            }
            b'$' if b.get(i + 1) == Some(&b'$') => {
                i = sql[i + 2..].find("$$").map_or(b.len(), |n| i + 2 + n + 1);
            }
            b';' => {
                push(&mut out, &sql[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    push(&mut out, &sql[start..]);
    out
}

/// Keeps a statement that holds more than comments and blanks.
fn push(out: &mut Vec<String>, piece: &str) {
    let sql = piece.lines().any(|l| !l.split("--").next().unwrap_or("").trim().is_empty());
    if sql {
        out.push(piece.trim().to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_split_at_their_semicolons_only() {
        let s = split("UPDATE t SET v = ';' WHERE id = 1;\n-- a comment; still one\nSELECT $$a;b$$;\nBEGIN; COMMIT");
        assert_eq!(s, ["UPDATE t SET v = ';' WHERE id = 1", "-- a comment; still one\nSELECT $$a;b$$", "BEGIN", "COMMIT"]);
    }

    #[test]
    fn variables_are_drawn_in_their_range_and_substituted() {
        let script = Script::read(
            "s.sql",
            "\\set aid random(1, 10 * :scale)\n\\set one 1\nUPDATE a SET v = v + :one WHERE id = :aid AND x::int > 0;\n",
            3,
        )
        .unwrap();
        let mut d = Draws::new(7);
        for _ in 0..200 {
            let s = script.draw(&mut d);
            let id: i64 = s[0].split("id = ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
            assert!((1..=30).contains(&id), "{}", s[0]);
            assert!(s[0].starts_with("UPDATE a SET v = v + 1 WHERE") && s[0].ends_with("x::int > 0"), "{}", s[0]);
        }
    }

    #[test]
    fn what_measure_cannot_draw_is_refused() {
        let e = Script::read("s.sql", "\\set k random_zipfian(1, 10, 1.1)\nSELECT :k;\n", 1).err().unwrap();
        assert!(e.contains("random(lo, hi)"), "{e}");
        assert!(Script::read("s.sql", "-- nothing\n", 1).err().unwrap().contains("no SQL statement"));
    }
}
