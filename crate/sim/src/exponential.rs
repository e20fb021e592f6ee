//! Exponential variates by the ziggurat method (Marsaglia and Tsang, "The Ziggurat Method
//! for Generating Random Variables", Journal of Statistical Software 5(8), 2000): the
//! density is covered by 256 layers of equal area; a draw picks a layer and a point in it,
//! and about 99% of draws are accepted by one multiply and one compare, with no logarithm.
//! The service times of the default `cpu.serviceCv` 1 are exponential, one per service:
//! inversion (`-ln U`) spent about 15% of a run in `log`.
//!
//! As in Doornik's correction of the method ("An Improved Ziggurat Method to Generate
//! Normal Random Samples", 2005), the layer and the point come from different bits of one
//! 64-bit draw. The tables are built once from `libm`'s pure-Rust `exp` and `log`, so
//! native and wasm runs draw the same numbers.

use crate::prng::Prng;
use std::sync::OnceLock;

const LAYERS: usize = 256;
/// Where the base layer's tail starts, and each layer's area (the paper's constants).
const R: f64 = 7.697_117_470_131_05;
const AREA: f64 = 3.949_659_822_581_572e-3;
const SCALE: f64 = 4_294_967_296.0; // 2^32: a point is a 32-bit integer

struct Tables {
    /// Accept at once when the point's integer is below `k[i]`.
    k: [u32; LAYERS],
    /// The point's integer times `w[i]` is the variate.
    w: [f64; LAYERS],
    /// The density at each layer's edge.
    f: [f64; LAYERS],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables { k: [0; LAYERS], w: [0.0; LAYERS], f: [0.0; LAYERS] };
        let (mut d, mut te) = (R, R);
        let q = AREA / libm::exp(-d);
        t.k[0] = ((d / q) * SCALE) as u32;
        t.k[1] = 0;
        t.w[0] = q / SCALE;
        t.w[LAYERS - 1] = d / SCALE;
        t.f[0] = 1.0;
        t.f[LAYERS - 1] = libm::exp(-d);
        for i in (1..LAYERS - 1).rev() {
            d = -libm::log(AREA / d + libm::exp(-d));
            t.k[i + 1] = ((d / te) * SCALE) as u32;
            te = d;
            t.f[i] = libm::exp(-d);
            t.w[i] = d / SCALE;
        }
        t
    })
}

/// An exponential variate of mean 1.
#[inline]
pub fn exponential(rng: &mut Prng) -> f64 {
    let t = tables();
    loop {
        let u = rng.next_u64();
        let i = (u & 0xff) as usize;
        let j = (u >> 32) as u32;
        if j < t.k[i] {
            return j as f64 * t.w[i];
        }
        if i == 0 {
            // The tail beyond R is exponential again, shifted: memorylessness.
            return R - libm::log(rng.uniform());
        }
        let x = j as f64 * t.w[i];
        if t.f[i] + rng.uniform() * (t.f[i - 1] - t.f[i]) < libm::exp(-x) {
            return x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The draws' distribution is the exponential's: at every decile and far into the tail
    /// the share of draws above x is e^-x (within the sampling error of a million draws),
    /// and the mean is 1.
    #[test]
    fn draws_are_exponential_everywhere_on_the_curve() {
        let mut rng = Prng::new(3, 9);
        let n = 1_000_000;
        let xs: Vec<f64> = (0..n).map(|_| exponential(&mut rng)).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        assert!((mean - 1.0).abs() < 0.005, "mean {mean}");
        for x in [0.01, 0.1, 0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 8.0, 10.0] {
            let above = xs.iter().filter(|&&v| v > x).count() as f64 / n as f64;
            let expected = libm::exp(-x);
            let sigma = (expected * (1.0 - expected) / n as f64).sqrt();
            assert!((above - expected).abs() < 5.0 * sigma + 1e-6, "P(X > {x}) = {above}, expected {expected}");
        }
        assert!(xs.iter().all(|&v| v >= 0.0 && v.is_finite()));
    }
}
