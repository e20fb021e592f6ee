//! Where things are in a file's text, for what the parser does not say: MySQL's
//! `PARTITION BY` clauses (blanked before parsing, lines and columns kept) and the place a
//! parser error names.

use super::at;
use crate::At;

/// Blanks MySQL's `PARTITION BY ...` clauses (the parser does not read them), returning
/// each clause's line and its first column list (`KEY (w_id)` gives `w_id`).
pub(super) fn take_partitions(text: &str) -> (String, Vec<(u64, String)>) {
    let lower = text.to_ascii_lowercase();
    let mut out = text.as_bytes().to_vec();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = lower[from..].find("partition by").map(|i| i + from) {
        // Not in a comment: `--` or `#` before it on its line.
        let line_start = lower[..i].rfind('\n').map_or(0, |j| j + 1);
        if lower[line_start..i].contains("--") || lower[line_start..i].contains('#') {
            from = i + "partition by".len();
            continue;
        }
        let end = lower[i..].find(';').map_or(text.len(), |j| i + j);
        let clause = &text[i..end];
        let column = clause.split_once('(').and_then(|(_, r)| r.split_once(')')).map(|(c, _)| c.trim().trim_matches('`').to_lowercase());
        found.push((text[..i].matches('\n').count() as u64 + 1, column.unwrap_or_default()));
        for b in &mut out[i..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        from = end;
    }
    (String::from_utf8(out).expect("only ASCII bytes were replaced"), found)
}

/// The line and column a parser error names ("... at Line: 3, Column: 7").
pub(super) fn parser_at(file: &str, message: &str) -> At {
    let num =
        |key: &str| message.split(key).nth(1).and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next()).and_then(|n| n.parse().ok());
    at(file, num("Line: ").unwrap_or(1), num("Column: ").unwrap_or(1))
}
