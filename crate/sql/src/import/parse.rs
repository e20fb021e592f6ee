//! A file's statements, each with where its code starts and where the statement before it
//! ended: what comes between (comments, `-- hotrow:` lines) belongs to it, whatever the
//! formatting (`);` on a line of its own, a comment after the `;`). The statements are
//! parsed one by one from the token stream, as `Parser::parse_statements` does, so that
//! every statement has a place, `BEGIN` and `COMMIT` too (the parser gives them no span).

use sqlparser::ast::Statement;
use sqlparser::dialect::Dialect as SqlDialect;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Token, Tokenizer, TokenizerError, Whitespace};

/// One statement and its place: `(line, column)` of its first token, and of the end of the
/// statement before it (`(0, 0)` for the first).
pub(super) struct Parsed {
    pub statement: Statement,
    pub start: (u64, u64),
    pub after: (u64, u64),
    /// Where its last token ends.
    pub end: (u64, u64),
}

pub(super) fn statements(dialect: &dyn SqlDialect, text: &str) -> Result<Vec<Parsed>, ParserError> {
    let mut parser = Parser::new(dialect).try_with_sql(text)?;
    let mut out = Vec::new();
    let mut after = (0, 0);
    loop {
        let mut expecting = !out.is_empty();
        while parser.consume_token(&Token::SemiColon) {
            expecting = false;
            let semi = parser.get_current_token().span.end;
            after = (semi.line, semi.column);
        }
        let next = parser.peek_token();
        if next.token == Token::EOF {
            break;
        }
        if expecting {
            return parser.expected("end of statement", next);
        }
        let start = (next.span.start.line, next.span.start.column);
        let statement = parser.parse_statement()?;
        let last = parser.get_current_token().span.end;
        let end = (last.line, last.column);
        out.push(Parsed { statement, start, after, end });
        after = end;
    }
    Ok(out)
}

/// Where each `--` comment of `text` starts (line, column), as the tokenizer reads them: a
/// `--` inside a string, a `$$` body or a `/* */` comment is none.
pub(super) fn comments(dialect: &dyn SqlDialect, text: &str) -> Result<Vec<(u64, u64)>, TokenizerError> {
    let tokens = Tokenizer::new(dialect, text).tokenize_with_location()?;
    Ok(tokens
        .iter()
        .filter(|t| matches!(&t.token, Token::Whitespace(Whitespace::SingleLineComment { prefix, .. }) if prefix.starts_with("--")))
        .map(|t| (t.span.start.line, t.span.start.column))
        .collect())
}
