//! How long one service takes: its cost times `cpu.scale`, drawn around that mean with
//! coefficient of variation `cpu.serviceCv` (docs/MODEL.md §2).
//!
//! The spread is a gamma distribution: shape k = 1 / cv², scale = mean / k, so its mean
//! is the cost and its standard deviation cv times the cost; cv 1 is the exponential
//! (k = 1), and as cv falls toward 0 it narrows to the cost itself. Gamma is the usual
//! choice for a service time (positive, any spread, exponential as a special case);
//! the draw is Marsaglia and Tsang's method (ACM TOMS 26(3), 2000) with the polar
//! method's normal variates, and k < 1 by their boost `G(k+1) * U^(1/k)`; cv 1 (k = 1, the
//! exponential) by the ziggurat method (`exponential.rs`), exact and much cheaper.
//!
//! Draws come from a stream of their own, taken only when cv > 0, so a deterministic run
//! (cv 0) draws nothing and other subsystems' numbers never shift with cv. The arithmetic
//! is IEEE-754 operations and `libm`'s pure-Rust `log`/`pow`, so native and wasm runs
//! draw the same times.

use crate::exponential::exponential;
use crate::prng::Prng;
use crate::time::Ns;

/// The stream of service times: above every client's (`1 + client`, < 2^17).
const STREAM: u64 = 1 << 40;

#[derive(Clone, Debug)]
pub struct ServiceTimes {
    rng: Prng,
}

impl ServiceTimes {
    pub fn new(seed: u64) -> ServiceTimes {
        ServiceTimes::on_stream(seed, STREAM)
    }

    /// The same draws from another stream (the gaps between open arrivals).
    pub fn on_stream(seed: u64, stream: u64) -> ServiceTimes {
        ServiceTimes { rng: Prng::new(seed, stream) }
    }

    /// The time of a service whose cost is `cost` ns: `round(cost * scale)` when `cv` is 0,
    /// else a gamma draw with that mean and coefficient of variation `cv`.
    #[inline]
    pub fn draw(&mut self, cost: Ns, scale: f64, cv: f64) -> Ns {
        let mean = if scale == 1.0 { cost } else { (cost as f64 * scale).round() as Ns };
        if cv == 0.0 || mean == 0 {
            return mean;
        }
        // cv 1, the default, is the exponential: drawn by the ziggurat (exponential.rs),
        // mostly a multiply and a compare (Marsaglia and Tsang's gamma loop costs several
        // uniforms and logarithms per draw).
        let unit_mean = if cv == 1.0 {
            exponential(&mut self.rng)
        } else {
            let k = 1.0 / (cv * cv);
            self.gamma(k) / k
        };
        // Rounded half up (the draw is never negative): `f64::round` is a call into libm on
        // x86-64 without SSE4.1, a few percent of a run.
        (mean as f64 * unit_mean + 0.5) as Ns
    }

    /// A gamma variate of shape `k` and scale 1 (mean k).
    fn gamma(&mut self, k: f64) -> f64 {
        if k < 1.0 {
            let u = self.rng.uniform();
            return self.gamma(k + 1.0) * libm::pow(u, 1.0 / k);
        }
        let d = k - 1.0 / 3.0;
        let c = 1.0 / libm::sqrt(9.0 * d);
        loop {
            let x = self.normal();
            let v = 1.0 + c * x;
            if v <= 0.0 {
                continue;
            }
            let v = v * v * v;
            let u = self.rng.uniform();
            let x2 = x * x;
            if u < 1.0 - 0.0331 * x2 * x2 || libm::log(u) < 0.5 * x2 + d * (1.0 - v + libm::log(v)) {
                return d * v;
            }
        }
    }

    /// A standard normal variate (Marsaglia's polar method; the second of each pair is
    /// dropped, so a draw depends on nothing kept between calls).
    fn normal(&mut self) -> f64 {
        loop {
            let a = 2.0 * self.rng.uniform() - 1.0;
            let b = 2.0 * self.rng.uniform() - 1.0;
            let s = a * a + b * b;
            if s < 1.0 && s > 0.0 {
                return a * libm::sqrt(-2.0 * libm::log(s) / s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moments(cv: f64, n: usize) -> (f64, f64) {
        let mut t = ServiceTimes::new(42);
        let xs: Vec<f64> = (0..n).map(|_| t.draw(10_000, 1.0, cv) as f64).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        (mean, var.sqrt() / mean)
    }

    /// Mean and coefficient of variation of the draws are the asked-for ones (within the
    /// sampling error of 200k draws) across the range the field allows.
    #[test]
    fn draws_have_the_mean_and_spread_asked_for() {
        for cv in [0.1, 0.5, 1.0, 2.0, 4.0] {
            let (mean, got) = moments(cv, 200_000);
            let tolerance = 0.01 + 0.01 * cv * cv;
            assert!((mean / 10_000.0 - 1.0).abs() < tolerance, "cv {cv}: mean {mean}");
            assert!((got / cv - 1.0).abs() < 0.03 + 0.02 * cv, "cv {cv}: measured cv {got}");
        }
    }

    /// cv 1 is the exponential: P(X > mean) = 1/e.
    #[test]
    fn cv_one_is_exponential() {
        let mut t = ServiceTimes::new(7);
        let above = (0..100_000).filter(|_| t.draw(10_000, 1.0, 1.0) > 10_000).count() as f64 / 100_000.0;
        assert!((above - (-1.0f64).exp()).abs() < 0.005, "{above}");
    }

    /// cv 0 draws nothing and returns the scaled cost exactly.
    #[test]
    fn cv_zero_is_the_cost_scaled() {
        let mut t = ServiceTimes::new(1);
        let before = t.rng.clone().next_u64();
        assert_eq!(t.draw(9_900, 1.0, 0.0), 9_900);
        assert_eq!(t.draw(9_900, 1.0 / 3.0, 0.0), 3_300);
        assert_eq!(t.draw(0, 2.0, 1.0), 0);
        assert_eq!(t.rng.next_u64(), before);
    }
}
