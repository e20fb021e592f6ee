//! An `f64` as decimal text, exactly as `format!("{v}")` and `format!("{v:.N}")` write it,
//! without core's float formatter: its Grisu and Dragon4 code and tables were 3.4 KB of the
//! WebAssembly module gzipped. The shortest digits that read back as the number come from
//! serde_json's printer (ryu), which the module has anyway, and are written out without an
//! exponent; a fixed number of decimals is rounded exactly from the binary value, half to
//! even, as core rounds it. Every `f64` the WebAssembly module's code writes goes through
//! here (`Shortest`, `Fixed`: twiggy found no float formatter in the module when this was
//! written, and the pack test's size budget would notice one coming back), and its tests
//! hold both to core's text.

use std::fmt;

/// `v` as `{}` writes it: the shortest digits that read back as `v`, never an exponent
/// (`0.1`, `1500`, `0.0000001`, `-0`, `NaN`, `inf`).
pub struct Shortest(pub f64);

/// `v` as `{:.N}` writes it, with `N` (at most 20) decimals, rounded half to even.
pub struct Fixed(pub f64, pub u32);

// `pad`, so that a width and an alignment (`{:>8}`) apply as they do to a number.
impl fmt::Display for Shortest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&shortest(self.0))
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&fixed(self.0, self.1))
    }
}

fn non_finite(v: f64) -> Option<&'static str> {
    match v {
        _ if v.is_nan() => Some("NaN"),
        f64::INFINITY => Some("inf"),
        f64::NEG_INFINITY => Some("-inf"),
        _ => None,
    }
}

/// The text of [`Shortest`].
pub fn shortest(v: f64) -> String {
    if let Some(text) = non_finite(v) {
        return text.into();
    }
    // ryu's text: `1.5`, `100.0`, `1e21`, `1.5e-7`, `-0.0`.
    let text = serde_json::Number::from_f64(v).expect("a finite number").to_string();
    let (sign, text) = text.strip_prefix('-').map_or(("", text.as_str()), |t| ("-", t));
    let (mantissa, exp) = text.split_once('e').map_or((text, 0), |(m, e)| (m, e.parse::<i32>().expect("an exponent")));
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{int}{frac}");
    let (digits, point) = significant(&all, int.len() as i32 + exp);
    // Where v lies exactly halfway between two shortest candidates, ryu takes the even one
    // and core the one above: v's exact digits are then these and a 5.
    // (Only 16 digits or more can leave two: 15 always read back as one number.)
    if digits.len() >= 16 {
        let (e, p) = exact(v.abs());
        if p == point && e.len() == digits.len() + 1 && e.ends_with('5') {
            let above = increment(&e[..digits.len()]);
            // A carry out (999.5 -> 1000) adds a digit in front: the point moves with it.
            let point = point + (above.len() - digits.len()) as i32;
            return format!("{sign}{}", place(above.trim_end_matches('0'), point));
        }
    }
    format!("{sign}{}", place(digits, point))
}

/// `digits` with the decimal point after `point` of them, as `{}` writes a number.
fn place(digits: &str, point: i32) -> String {
    if digits.is_empty() {
        "0".to_string()
    } else if point <= 0 {
        format!("0.{}{digits}", "0".repeat(-point as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{a}.{b}")
    }
}

/// The decimal digits of `s` plus one in the last place (`"129"` -> `"130"`, `"99"` -> `"100"`).
fn increment(s: &str) -> String {
    let mut d: Vec<u8> = s.bytes().collect();
    for i in (0..d.len()).rev() {
        if d[i] == b'9' {
            d[i] = b'0';
        } else {
            d[i] += 1;
            return String::from_utf8(d).expect("digits");
        }
    }
    format!("1{}", String::from_utf8(d).expect("digits"))
}

/// All the significant digits of `v` (finite, not negative) and where its point sits after
/// them, as [`shortest`] places them: a binary fraction's decimal expansion ends.
fn exact(v: f64) -> (String, i32) {
    let (mut mantissa, mut exp) = binary(v);
    if mantissa == 0 {
        return (String::new(), 0);
    }
    while mantissa % 2 == 0 {
        mantissa /= 2;
        exp += 1;
    }
    // m x 2^e for e >= 0; else m / 2^k = m x 5^k / 10^k.
    let (digits, shift) = if exp >= 0 { (times_power(mantissa, 2, exp as u32), 0) } else { (times_power(mantissa, 5, (-exp) as u32), exp) };
    let digits = limbs_text(&digits);
    let (significant, point) = significant(&digits, digits.len() as i32 + shift);
    (significant.to_string(), point)
}

/// `digits` without its leading and trailing zeros, and where the decimal point, after
/// `point` of `digits`, sits after them.
fn significant(digits: &str, point: i32) -> (&str, i32) {
    let rest = digits.trim_start_matches('0');
    (rest.trim_end_matches('0'), point - (digits.len() - rest.len()) as i32)
}

/// `v` (finite) as mantissa x 2^exp, exactly.
fn binary(v: f64) -> (u64, i32) {
    let bits = v.to_bits();
    let (biased, fraction) = ((bits >> 52) & 0x7ff, bits & ((1 << 52) - 1));
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased as i32 - 1075)
    }
}

/// The text of [`Fixed`].
pub fn fixed(v: f64, decimals: u32) -> String {
    assert!(decimals <= 20, "at most 20 decimals");
    if let Some(text) = non_finite(v) {
        return text.into();
    }
    // v = mantissa x 2^exp exactly; v x 10^decimals, rounded to a whole number, is written
    // with the point `decimals` digits from its right.
    let (mantissa, exp) = binary(v);
    let scaled = mantissa as u128 * 10u128.pow(decimals);
    let mut digits =
        if exp >= 0 { limbs_text(&times_power(scaled, 2, exp as u32)) } else { rounded_shift_right(scaled, (-exp) as u32).to_string() };
    if decimals > 0 {
        let d = decimals as usize;
        if digits.len() <= d {
            digits = format!("{}{digits}", "0".repeat(d + 1 - digits.len()));
        }
        digits.insert(digits.len() - d, '.');
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    format!("{sign}{digits}")
}

/// `x / 2^shift` rounded to a whole number, half to even.
fn rounded_shift_right(x: u128, shift: u32) -> u128 {
    if shift >= 128 {
        return 0; // x < 2^127, half of 2^shift: below one half
    }
    let whole = x >> shift;
    let rest = x - (whole << shift);
    let half = 1u128 << (shift - 1);
    if rest > half || (rest == half && whole % 2 == 1) {
        whole + 1
    } else {
        whole
    }
}

const BASE: u64 = 1_000_000_000;

/// `x x factor^n` (factor 2 or 5) in base-10^9 limbs, least significant first: a number up
/// to 2^1024 x 10^20, or 2^53 x 5^1074.
fn times_power(x: impl Into<u128>, factor: u64, mut n: u32) -> Vec<u64> {
    let mut limbs: Vec<u64> = Vec::new();
    let mut rest: u128 = x.into();
    while rest > 0 {
        limbs.push((rest % BASE as u128) as u64);
        rest /= BASE as u128;
    }
    // At most factor^k below 2^31 at a time: a limb times it, plus a carry, fits in 64 bits.
    let per_step = if factor == 2 { 30 } else { 13 };
    while n > 0 {
        let k = n.min(per_step);
        let by = factor.pow(k);
        let mut carry = 0u64;
        for limb in &mut limbs {
            let t = *limb * by + carry;
            *limb = t % BASE;
            carry = t / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
        n -= k;
    }
    limbs
}

/// The decimal text of a number in limbs.
fn limbs_text(limbs: &[u64]) -> String {
    let Some((top, below)) = limbs.split_last() else { return "0".into() };
    let mut out = top.to_string();
    for limb in below.iter().rev() {
        out.push_str(&format!("{limb:09}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers of every kind: ties, integers, tiny and huge, subnormal, signed zeros, and
    /// random bit patterns.
    fn numbers() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            -2.5,
            0.25,
            0.35,
            0.05,
            0.15,
            1e21,
            1e22,
            1e-7,
            123456.789,
            0.1 + 0.2,
            1e300,
            -1e-300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            9_007_199_254_740_993.0,
            4.35,
            99.95,
            999.5,
            0.045,
            1e16,
            12345678901234567890.0,
            // Halfway between two shortest candidates: core takes the one above.
            1_690_060_720_831_323.0 + 0.25,
            1_999_999_999_999_999.0 + 0.75,
        ];
        for k in 0..200u64 {
            v.push((1u64 << 50) as f64 + k as f64 * 0.25);
            v.push(-((1u64 << 51) as f64 + k as f64 * 0.5 + 1e6));
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..50_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = if i % 2 == 0 {
                f64::from_bits(state)
            } else {
                // Everyday magnitudes, with few decimals: the figures the surfaces write.
                let scale = 10f64.powi((state % 13) as i32 - 4);
                ((state >> 11) % 100_000) as f64 / 8.0 * scale
            };
            v.push(x);
        }
        v
    }

    #[test]
    fn shortest_writes_what_display_writes() {
        for x in numbers() {
            assert_eq!(shortest(x), format!("{x}"), "{x:e}");
        }
    }

    #[test]
    fn fixed_writes_what_precision_writes() {
        for x in numbers() {
            for d in [0, 1, 2, 3] {
                assert_eq!(fixed(x, d), format!("{x:.*}", d as usize), "{x:e} to {d} decimals");
            }
        }
        assert_eq!(fixed(f64::NAN, 1), "NaN");
        assert_eq!(shortest(1_690_060_720_831_323.0 + 0.25), "1690060720831323.3", "a tie, where ryu writes .2");
        assert_eq!(format!("{} and {}", Shortest(0.5), Fixed(2.25, 1)), "0.5 and 2.2");
        assert_eq!(format!("[{:>5}|{:<6}]", Shortest(1.5), Fixed(2.0, 2)), "[  1.5|2.00  ]");
    }
}
