//! Simulated time: integer nanoseconds, and the conversions between them and the units
//! the config speaks (milliseconds, microseconds) and the reports print (ms, us, s as
//! floating point). The model names the unit it means through these functions instead
//! of multiplying by hand, so a unit slip cannot hide in a constant.

/// A time since the start of the run, or a duration, in nanoseconds.
pub type Ns = u64;

/// `ms` milliseconds.
pub const fn from_ms(ms: u64) -> Ns {
    ms * 1_000_000
}

/// `us` microseconds.
pub(crate) const fn from_us(us: u64) -> Ns {
    us * 1_000
}

/// Whole milliseconds in `ns` (rounded down).
pub(crate) const fn whole_ms(ns: Ns) -> u64 {
    ns / 1_000_000
}

/// `ns` in milliseconds, for reports.
pub fn as_ms(ns: Ns) -> f64 {
    ns as f64 / 1e6
}

/// A (mean) number of nanoseconds in microseconds, for reports.
pub(crate) fn as_us(ns: f64) -> f64 {
    ns / 1e3
}

/// `ns` in seconds, for rates.
pub(crate) fn as_secs(ns: Ns) -> f64 {
    ns as f64 / 1e9
}

/// The mean gap between events that happen `per_second` times a second, in whole
/// nanoseconds (at least 1).
pub(crate) fn mean_gap(per_second: f64) -> Ns {
    (1e9 / per_second).round().max(1.0) as Ns
}

/// A time in seconds (a demand, a mean service) in microseconds, for reports.
pub(crate) fn secs_as_us(secs: f64) -> f64 {
    secs * 1e6
}

/// How many times a second something taking `us` microseconds can happen.
pub(crate) fn per_second_of_us(us: f64) -> f64 {
    1e6 / us
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_trip() {
        assert_eq!(from_ms(3), 3_000_000);
        assert_eq!(from_us(70), 70_000);
        assert_eq!(whole_ms(from_ms(42) + from_us(999)), 42);
        assert_eq!(as_ms(from_us(1500)), 1.5);
        assert_eq!(as_us(2500.0), 2.5);
        assert_eq!(as_secs(from_ms(250)), 0.25);
    }
}
