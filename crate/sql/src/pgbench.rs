//! pgbench's meta-commands: `\set name expression` defines a variable a statement uses as
//! `:name`; the random functions (`random`, `random_zipfian`, `random_exponential`,
//! `random_gaussian`, as pgbench's documentation defines them) are the key choices, their
//! range the table's rows, and `:scale` pgbench's scale factor. They are taken out of the
//! text (blank lines keep every line and column) before the SQL is parsed.

use crate::{Assumption, At, ImportError};

/// How a variable is drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum Draw {
    Uniform,
    /// `random_zipfian(lo, hi, s)`.
    Zipfian(f64),
    Exponential(f64),
    Gaussian(f64),
    /// Not random: an expression of constants.
    Fixed,
}

/// A `\set` variable: its draw over `lo..=hi` (at scale 1), and whether the range grows
/// with `:scale`.
#[derive(Clone, Debug)]
pub struct Variable {
    pub name: String,
    pub draw: Draw,
    pub lo: i64,
    pub hi: i64,
    pub scaled: bool,
}

/// The script's variables, and its text with the meta-command lines blanked.
pub fn take_out(file: &str, text: &str, assumptions: &mut Vec<Assumption>) -> Result<(Vec<Variable>, String), ImportError> {
    let mut vars = Vec::new();
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if !trimmed.starts_with('\\') {
            out.push_str(line);
            continue;
        }
        let at = At { file: file.into(), line: i as u64 + 1, column: (line.len() - trimmed.len()) as u64 + 1 };
        let body = trimmed.trim_end();
        let mut words = body.splitn(3, char::is_whitespace);
        match words.next().unwrap_or("") {
            "\\set" => {
                let name = words.next().unwrap_or("").to_string();
                let expr = words.next().unwrap_or("").trim();
                if name.is_empty() || expr.is_empty() {
                    return Err(ImportError { at, message: "\\set needs a name and an expression: \\set aid random(1, 100000 * :scale)".into() });
                }
                vars.push(variable(name, expr, at)?);
            }
            "\\sleep" => assumptions.push(Assumption { at, text: "\\sleep: the client's think time is the config's thinkTimeUs, not the script's".into() }),
            other => {
                return Err(ImportError {
                    at,
                    message: format!("{other}: not supported; of pgbench's meta-commands hotrow reads \\set (random, random_zipfian, random_exponential, random_gaussian) and \\sleep"),
                })
            }
        }
        // Keep the line break, so that every later line keeps its number.
        out.push_str(if line.ends_with('\n') { "\n" } else { "" });
    }
    Ok((vars, out))
}

fn variable(name: String, expr: &str, at: At) -> Result<Variable, ImportError> {
    let fail = |message: String| ImportError { at: at.clone(), message };
    let (func, args) = match expr.find('(') {
        Some(open) if expr.ends_with(')') && expr[..open].trim().starts_with("random") => {
            (expr[..open].trim(), &expr[open + 1..expr.len() - 1])
        }
        _ => {
            let (v, scaled) = arith(expr).map_err(|e| fail(format!("\\set {name} {expr}: {e}")))?;
            return Ok(Variable { name, draw: Draw::Fixed, lo: v, hi: v, scaled });
        }
    };
    let parts = crate::annotations::split_top(args);
    let value = |k: usize| -> Result<(i64, bool), ImportError> {
        let p = parts.get(k).ok_or_else(|| fail(format!("{func}: needs at least {} arguments", k + 1)))?;
        arith(p).map_err(|e| fail(format!("{func}: argument {}: {e}", k + 1)))
    };
    let param = |k: usize| -> Result<f64, ImportError> {
        let p = parts.get(k).ok_or_else(|| fail(format!("{func}: needs its parameter as argument {}", k + 1)))?;
        p.trim().parse::<f64>().map_err(|_| fail(format!("{func}: parameter `{}` is not a number", p.trim())))
    };
    let ((lo, lo_scaled), (hi, hi_scaled)) = (value(0)?, value(1)?);
    if hi < lo {
        return Err(fail(format!("{func}({args}): the upper bound {hi} is below the lower {lo}")));
    }
    let draw = match func {
        "random" => Draw::Uniform,
        "random_zipfian" => Draw::Zipfian(param(2)?),
        "random_exponential" => match param(2)? {
            x if x > 0.0 && x <= 1e6 => Draw::Exponential(x),
            x => return Err(fail(format!("random_exponential: parameter {x} must be above 0 (and at most 1000000), as pgbench requires"))),
        },
        "random_gaussian" => match param(2)? {
            x if (2.0..=1e6).contains(&x) => Draw::Gaussian(x),
            x => return Err(fail(format!("random_gaussian: parameter {x} must be at least 2 (and at most 1000000), as pgbench requires"))),
        },
        other => {
            return Err(fail(format!(
                "{other}: not a pgbench random function hotrow reads (random, random_zipfian, random_exponential, random_gaussian)"
            )))
        }
    };
    Ok(Variable { name, draw, lo, hi, scaled: lo_scaled || hi_scaled })
}

/// An integer expression of constants, `:scale` (taken as 1) and `+ - * /` with
/// parentheses; says whether `:scale` appeared.
fn arith(text: &str) -> Result<(i64, bool), String> {
    let tokens: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut p = Arith { tokens, at: 0, scaled: false };
    let v = p.sum()?;
    if p.at != p.tokens.len() {
        return Err(format!("`{text}` is not an integer expression of constants, :scale and + - * /"));
    }
    Ok((v, p.scaled))
}

struct Arith {
    tokens: Vec<char>,
    at: usize,
    scaled: bool,
}

impl Arith {
    fn peek(&self) -> Option<char> {
        self.tokens.get(self.at).copied()
    }

    fn sum(&mut self) -> Result<i64, String> {
        let mut v = self.product()?;
        while let Some(op @ ('+' | '-')) = self.peek() {
            self.at += 1;
            let r = self.product()?;
            v = if op == '+' { v.checked_add(r) } else { v.checked_sub(r) }.ok_or("the value overflows")?;
        }
        Ok(v)
    }

    fn product(&mut self) -> Result<i64, String> {
        let mut v = self.atom()?;
        while let Some(op @ ('*' | '/')) = self.peek() {
            self.at += 1;
            let r = self.atom()?;
            v = if op == '*' { v.checked_mul(r) } else { v.checked_div(r) }.ok_or("the value overflows or divides by 0")?;
        }
        Ok(v)
    }

    fn atom(&mut self) -> Result<i64, String> {
        match self.peek() {
            Some('(') => {
                self.at += 1;
                let v = self.sum()?;
                if self.peek() != Some(')') {
                    return Err("a parenthesis is not closed".into());
                }
                self.at += 1;
                Ok(v)
            }
            Some('-') => {
                self.at += 1;
                Ok(-self.atom()?)
            }
            Some(':') => {
                let name: String = self.tokens[self.at + 1..].iter().take_while(|c| c.is_alphanumeric() || **c == '_').collect();
                if name != "scale" {
                    return Err(format!(":{name}: only :scale may stand in a range"));
                }
                self.at += 1 + name.len();
                self.scaled = true;
                Ok(1)
            }
            Some(c) if c.is_ascii_digit() => {
                let digits: String = self.tokens[self.at..].iter().take_while(|c| c.is_ascii_digit()).collect();
                self.at += digits.len();
                digits.parse().map_err(|_| format!("{digits}: too large"))
            }
            _ => Err("expected a number, :scale or a parenthesis".into()),
        }
    }
}
