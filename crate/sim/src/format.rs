//! Numbers as every hotrow surface writes them, one format per unit: whole numbers with
//! thousands separated (158,496), fractions as percentages, intervals in their figure's
//! format. The core's own words (a resource's name, the run described, the deadlocks)
//! use it, `hotrow run`'s table and `hotrow report`
//! (through `hotrow_report::format`) too. Numbers become text in `decimal.rs`.

use crate::decimal::{fixed, shortest, Fixed, Shortest};

/// A whole number with thousands separated: 158,496.
pub fn grouped(v: f64) -> String {
    // Rounded as `{:.0}` rounds (half to even), then its digits in threes from the right.
    let digits = fixed(v.abs(), 0);
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if v < 0.0 && digits != "0" {
        out.push('-');
    }
    for (i, c) in digits.char_indices() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A fraction as a whole percentage: 0.873 is 87%.
pub fn percent(f: f64) -> String {
    format!("{}%", Fixed(f * 100.0, 0))
}

/// A figure in its catalog unit, as every surface writes it (one format per unit): a
/// fraction as a percentage (87%; 8.4% below 10%), a rate, count or time of 100 or more as a
/// whole number with thousands separated (22,827), below 100 with one decimal (57.3) unless
/// whole, a code as it is.
pub fn value(v: f64, unit: &str) -> String {
    match unit {
        "fraction" if v != 0.0 && v.abs() < 0.1 => format!("{}%", Fixed(v * 100.0, 1)),
        "fraction" => percent(v),
        "code" => shortest(v),
        _ if v.abs() >= 100.0 || v.fract() == 0.0 => grouped(v),
        _ => fixed(v, 1),
    }
}

/// A 95% interval's half-width beside figure `v`, in the figure's format ("± 416",
/// "± 34.3", "± 2%"), "< 1" (or "< 0.1", "< 1%") when it would read 0 beside a figure that
/// is not.
pub fn half_width(h: f64, v: f64, unit: &str) -> String {
    let decimals = value(v, unit).contains('.');
    let text = match unit {
        "fraction" if decimals => format!("{}%", Fixed(h * 100.0, 1)),
        "fraction" => percent(h),
        _ if decimals => fixed(h, 1),
        _ => grouped(h),
    };
    let zero = text.trim_end_matches('%').chars().all(|c| c == '0' || c == '.');
    match (zero && h > 0.0, unit, decimals) {
        (true, "fraction", true) => "< 0.1%".into(),
        (true, "fraction", false) => "< 1%".into(),
        (true, _, true) => "< 0.1".into(),
        (true, _, false) => "< 1".into(),
        _ => text,
    }
}

/// A figure with its 95% interval, when it has one: "57.3 ± 34.3", "3,914 ± 73", "6,165".
pub fn with_interval(v: f64, h: Option<f64>, unit: &str) -> String {
    match h {
        Some(h) => format!("{} ± {}", value(v, unit), half_width(h, v, unit)),
        None => value(v, unit),
    }
}

/// Microseconds as they read best: below a millisecond in us (750 us), else in ms with one
/// decimal (1.0 ms).
pub fn micros(us: f64) -> String {
    if us < 1000.0 {
        format!("{} us", Shortest(us))
    } else {
        format!("{} ms", Fixed(us / 1e3, 1))
    }
}

/// Microseconds as seconds, one decimal: 8806000 us is 8.8 s.
pub fn seconds(us: f64) -> String {
    format!("{} s", Fixed(us / 1e6, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_every_surface_writes_them() {
        assert_eq!(grouped(158_496.4), "158,496");
        assert_eq!(grouped(999.6), "1,000");
        assert_eq!(grouped(-1234.0), "-1,234");
        assert_eq!(grouped(-0.2), "0");
        assert_eq!(percent(0.873), "87%");
    }
    /// One format per unit, the interval in its figure's: the CLI's table once printed
    /// 22827 beside the report's 3,914, and 1.000 beside 100%.
    #[test]
    fn a_figure_reads_the_same_in_every_unit() {
        assert_eq!(value(22_827.4, "1/s"), "22,827");
        assert_eq!(value(57.3, "1/s"), "57.3");
        assert_eq!(value(3.0, "count"), "3");
        assert_eq!(value(1.0, "fraction"), "100%");
        assert_eq!(value(0.084, "fraction"), "8.4%");
        assert_eq!(value(0.0, "fraction"), "0%");
        assert_eq!(value(2_507_182.0, "us"), "2,507,182");
        assert_eq!(value(4.0, "code"), "4");
        assert_eq!(half_width(416.2, 22_827.4, "1/s"), "416");
        assert_eq!(half_width(34.278, 57.3, "1/s"), "34.3");
        assert_eq!(half_width(0.3, 1434.0, "1/s"), "< 1");
        assert_eq!(half_width(0.02, 57.3, "1/s"), "< 0.1");
        assert_eq!(half_width(0.0, 1.0, "fraction"), "0%");
        assert_eq!(half_width(0.001, 1.0, "fraction"), "< 1%");
        assert_eq!(half_width(0.02, 0.084, "fraction"), "2.0%");
    }
}
