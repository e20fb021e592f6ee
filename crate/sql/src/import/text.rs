//! Where things are in a file's text, for what the parser does not say: MySQL's
//! `PARTITION BY` clauses (blanked before parsing, lines and columns kept), the line of a
//! statement the parser gives no span (`BEGIN`, `COMMIT`: the first line of code, past
//! comments), and the place a parser error names.

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

/// The first line from `from` on (1-based) with code: not blank, not only a comment or `;`.
pub(super) fn code_line(text: &str, from: u64) -> u64 {
    let mut in_block = false;
    for (i, l) in text.lines().enumerate().skip(from.saturating_sub(1) as usize) {
        let mut t = l.trim();
        if in_block {
            // Inside a /* ... */ comment: code only after its end, on this line.
            let Some(end) = t.find("*/") else { continue };
            in_block = false;
            t = t[end + 2..].trim();
        }
        let t = t.trim_start_matches(';').trim();
        if let Some(rest) = t.strip_prefix("/*") {
            in_block = !rest.contains("*/");
            if in_block || rest.split_once("*/").is_some_and(|(_, after)| after.trim().is_empty()) {
                continue;
            }
        }
        if !t.is_empty() && !t.starts_with("--") && !t.starts_with('#') {
            return i as u64 + 1;
        }
    }
    from
}

/// The column (1-based) of line `line`'s first character that is not blank.
pub(super) fn column_of(text: &str, line: u64) -> u64 {
    text.lines().nth(line.saturating_sub(1) as usize).map_or(1, |l| (l.len() - l.trim_start().len()) as u64 + 1)
}

/// The line and column a parser error names ("... at Line: 3, Column: 7").
pub(super) fn parser_at(file: &str, message: &str) -> At {
    let num =
        |key: &str| message.split(key).nth(1).and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next()).and_then(|n| n.parse().ok());
    at(file, num("Line: ").unwrap_or(1), num("Column: ").unwrap_or(1))
}
