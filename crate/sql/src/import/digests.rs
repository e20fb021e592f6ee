//! A statement digest table as production measured it: MySQL's
//! `performance_schema.events_statements_summary_by_digest` exported as CSV with (at least)
//! `DIGEST_TEXT` and `COUNT_STAR`. Each digest is one autocommit transaction weighted by its
//! count (the digest table keeps no transaction boundaries, and says so). A digest's text is
//! normalised (`?` for values, `(...)` for a list or a row of values, `/* , ... */` for more
//! rows): `(...)` is read as one value, so a multi-row INSERT or an `IN` list counts as one
//! row (said); a digest cut at `performance_schema_max_digest_length` (ending in `...`) is
//! left out (said). A digest that is not a row statement on the schema's tables (`SELECT
//! @@version_comment`, a statement on `performance_schema`, one the parser cannot read) is
//! left out, said: a real export has them. Digests are MySQL's, so they are read as MySQL
//! whatever the other files' dialect.

use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;

use super::{at, Reader, Source};
use crate::statements::clip;
use crate::{At, ImportError};

/// Whether a source is a digest CSV: its first line names `DIGEST_TEXT` and `COUNT_STAR`.
pub fn is_digest_csv(source: &Source) -> bool {
    let first = source.text.lines().next().unwrap_or("").to_ascii_uppercase();
    first.contains("DIGEST_TEXT") && first.contains("COUNT_STAR")
}

/// Counts above this are scaled down to fit a transaction's weight (1..=1000000).
const MAX_WEIGHT: u64 = 1_000_000;

impl Reader<'_> {
    /// Reads a digest CSV: a transaction per row statement, its weight its count.
    pub(super) fn read_digests(&mut self, k: usize, source: &Source) -> Result<(), ImportError> {
        let file = source.name.as_str();
        self.vars.push(Vec::new());
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(source.text.as_bytes());
        let header = reader.headers().map_err(|e| ImportError { at: at(file, 1, 1), message: format!("not a CSV header: {e}") })?.clone();
        let column = |name: &str| header.iter().position(|h| h.trim().eq_ignore_ascii_case(name));
        let (Some(text_col), Some(count_col)) = (column("DIGEST_TEXT"), column("COUNT_STAR")) else {
            return Err(ImportError { at: at(file, 1, 1), message: "a digest CSV needs the columns DIGEST_TEXT and COUNT_STAR".into() });
        };
        let mut rows: Vec<(At, String, u64)> = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| {
                let line = e.position().map_or(1, |p| p.line());
                ImportError { at: at(file, line, 1), message: format!("not CSV: {e}") }
            })?;
            let here = at(file, record.position().map_or(1, |p| p.line()), 1);
            let text = record.get(text_col).unwrap_or("").trim().to_string();
            let count = record.get(count_col).unwrap_or("").trim();
            let count: u64 = count
                .parse()
                .map_err(|_| ImportError { at: here.clone(), message: format!("COUNT_STAR `{count}`: a whole number of executions") })?;
            if text.is_empty() || text.eq_ignore_ascii_case("NULL") || count == 0 {
                continue; // The row of statements without a digest, or never run.
            }
            rows.push((here, text, count));
        }
        let most = rows.iter().map(|(_, _, c)| *c).max().unwrap_or(0);
        let per = most.div_ceil(MAX_WEIGHT).max(1);
        if per > 1 {
            self.say(&at(file, 1, 1), format!("COUNT_STAR up to {most}: weights are counts / {per} (a weight is at most {MAX_WEIGHT})"));
        }
        let mut open = None;
        for (here, text, count) in rows {
            let left_out = crate::Became { at: here.clone(), became: super::LEFT_OUT.into() };
            let Some(sql) = self.normalised(&here, &text) else {
                self.became.push(left_out);
                continue;
            };
            let statements = match Parser::parse_sql(&MySqlDialect {}, &sql) {
                Ok(s) => s,
                Err(e) => {
                    let why = e.to_string().replace("sql parser error: ", "");
                    self.say(&here, format!("`{}`: left out (not read: {why})", clip(&text)));
                    self.became.push(left_out);
                    continue;
                }
            };
            for s in &statements {
                use sqlparser::ast::Statement as S;
                if matches!(s, S::StartTransaction { .. } | S::Commit { .. } | S::Rollback { .. }) {
                    self.say(
                        &here,
                        format!(
                            "`{}`: a digest table keeps no transaction boundaries: each statement is a transaction of its own",
                            clip(&text)
                        ),
                    );
                    self.became.push(left_out.clone());
                    continue;
                }
                let weight = (count / per).max(1);
                self.digests += 1;
                let pairs = [
                    ("name".to_string(), format!("digest {}", self.digests), here.clone()),
                    ("weight".to_string(), weight.to_string(), here.clone()),
                ];
                // A statement that is no transaction's takes no name and weight.
                let pairs = if super::is_row(s) { &pairs[..] } else { &[] };
                match self.statement(k, s, here.clone(), pairs, None, &mut open) {
                    Ok(became) => self.became.push(crate::Became { at: here.clone(), became }),
                    Err(e) => {
                        self.digests -= 1;
                        self.say(&here, format!("`{}`: left out ({})", clip(&text), e.message));
                        self.became.push(left_out.clone());
                    }
                }
            }
        }
        Ok(())
    }

    /// A digest's text as SQL the parser reads (`(...)` as one value, `/* , ... */` gone), or
    /// None for a digest cut short (said).
    fn normalised(&mut self, here: &At, text: &str) -> Option<String> {
        let trimmed = text.trim_end();
        if trimmed.ends_with("...") && !trimmed.ends_with("(...)") {
            self.say(here, format!("`{}`: cut at performance_schema_max_digest_length: left out", clip(text)));
            return None;
        }
        if text.contains("/* , ... */") {
            self.say(here, format!("`{}`: a multi-row INSERT: one row per statement assumed (the digest keeps no row count)", clip(text)));
        }
        if text.contains("IN (...)") {
            self.say(here, format!("`{}`: an IN (...) list: one row assumed (the digest keeps no list length)", clip(text)));
        }
        Some(text.replace("/* , ... */", "").replace("(...)", "(?)"))
    }
}
