//! Rates: counts over a span of simulated time turned into per-second figures and busy
//! fractions. Computed in one place, for a metrics window and for the run summary alike.

use crate::counts::Counts;
use crate::workload::TxnKind;
use serde::Serialize;

/// A span of simulated time, to divide counts by.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    ns: u64,
    secs: f64,
}

impl Span {
    pub fn of_ns(ns: u64) -> Span {
        Span { ns, secs: crate::time::as_secs(ns) }
    }

    pub fn secs(&self) -> f64 {
        self.secs
    }

    /// `n` events over the span, per second (0 for an empty span).
    pub fn per_second(&self, n: u64) -> f64 {
        if self.secs > 0.0 {
            n as f64 / self.secs
        } else {
            0.0
        }
    }

    /// `busy_ns` as a fraction of the span (0 for an empty span).
    pub fn fraction(&self, busy_ns: u64) -> f64 {
        ratio(busy_ns, self.ns)
    }
}

/// `a / b`, 0 when `b` is 0.
pub fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// The throughput and hot-row figures both a window and the summary report.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Throughput {
    pub inserts_per_second: f64,
    /// User transactions (refills not counted).
    pub transactions_per_second: f64,
    /// New-Order transactions per minute.
    pub tpm: f64,
    pub refills_per_second: f64,
    /// Fraction of the span the counter row's lock was held, 0..=1.
    pub hot_row_lock_utilization: f64,
    /// Mean number of refills waiting for the counter row's lock.
    pub hot_row_queue_mean: f64,
    /// Ranges that reached a cache: refills committed or service replies (0 for
    /// timestamp ids).
    pub coordinations_per_second: f64,
    /// Open arrivals: transactions offered per second (0 in closed loops).
    pub offered_per_second: f64,
    /// Open arrivals: mean number of requests waiting for a free client thread.
    pub waiting_mean: f64,
    /// Transaction attempts aborted per second (faults, lock-wait timeouts), and of those
    /// the lock-wait timeouts.
    pub aborts_per_second: f64,
    pub lock_timeouts_per_second: f64,
}

impl Throughput {
    pub fn of(c: &Counts, span: Span) -> Throughput {
        Throughput {
            inserts_per_second: span.per_second(c.inserts),
            transactions_per_second: span.per_second(c.user_txns()),
            tpm: span.per_second(c.committed(TxnKind::NEW_ORDER)) * 60.0,
            refills_per_second: span.per_second(c.committed(TxnKind::REFILL)),
            hot_row_lock_utilization: span.fraction(c.hot_busy_ns).min(1.0),
            hot_row_queue_mean: span.fraction(c.hot_queue_ns),
            coordinations_per_second: span.per_second(c.coordinations),
            offered_per_second: span.per_second(c.arrivals),
            waiting_mean: span.fraction(c.waiting_ns),
            aborts_per_second: span.per_second(c.aborts),
            lock_timeouts_per_second: span.per_second(c.lock_timeouts),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_over_a_span() {
        let mut c = Counts::new(2);
        c.add_committed(TxnKind::NEW_ORDER, 3);
        c.add_committed(TxnKind::REFILL, 4);
        c.add_committed(TxnKind::PAYMENT, 2);
        c.inserts = 5;
        c.hot_busy_ns = 750_000_000;
        let t = Throughput::of(&c, Span::of_ns(500_000_000));
        assert_eq!(t.tpm, 3.0 * 2.0 * 60.0);
        assert_eq!(t.transactions_per_second, 10.0, "refills are not user transactions");
        assert_eq!(t.refills_per_second, 8.0);
        assert_eq!(t.inserts_per_second, 10.0);
        assert_eq!(t.hot_row_lock_utilization, 1.0, "clipped to the span");
        assert_eq!(Span::of_ns(0).per_second(5), 0.0);
    }
}
