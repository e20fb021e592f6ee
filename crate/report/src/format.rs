//! Numbers and text as every hotrow surface writes them: whole numbers with thousands
//! separated (158,496), fractions as percentages, and text escaped for HTML and SVG.

/// A whole number with thousands separated: 158,496.
pub fn grouped(v: f64) -> String {
    let digits = format!("{:.0}", v.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if v < 0.0 && out != "0" {
        format!("-{out}")
    } else {
        out
    }
}

/// A fraction as a whole percentage: 0.873 is 87%.
pub fn percent(f: f64) -> String {
    format!("{:.0}%", f * 100.0)
}

/// Text made safe inside an HTML or SVG element or a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate in an SVG: two decimals at most, no trailing zeros.
pub fn coord(v: f64) -> String {
    let s = format!("{:.2}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_the_cli_writes_them() {
        assert_eq!(grouped(158_496.4), "158,496");
        assert_eq!(grouped(999.6), "1,000");
        assert_eq!(grouped(-1234.0), "-1,234");
        assert_eq!(grouped(-0.2), "0");
        assert_eq!(percent(0.873), "87%");
        assert_eq!(coord(12.0), "12");
        assert_eq!(coord(1.005), "1");
        assert_eq!(coord(-0.001), "0");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
