//! Numbers and text as every hotrow surface writes them: the numbers are the core's
//! (`hotrow::format`, one format per unit); here, text escaped for HTML and SVG and
//! coordinates.

pub use hotrow::format::*;

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
    fn text_and_coordinates() {
        assert_eq!(coord(12.0), "12");
        assert_eq!(coord(1.005), "1");
        assert_eq!(coord(-0.001), "0");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
