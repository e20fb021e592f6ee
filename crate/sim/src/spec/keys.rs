//! Key choices: which key of a table each row of a statement gets. Drawing uses only
//! integer arithmetic and `libm`'s pure-Rust `pow`, so a run draws the same keys natively
//! and in WebAssembly.

use super::KeyChoice;
use crate::error::ConfigError;
use crate::prng::Prng;

/// A key choice made ready for a table of `n` rows.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyChooser {
    Uniform,
    Zipfian(Zipf),
    /// The first `hot` keys take `share_ppm` millionths of the accesses.
    Hotspot {
        hot: u64,
        share_ppm: u64,
    },
    Sequential,
    SameAs {
        statement: usize,
    },
}

/// Gray et al.'s Zipfian generator ("Quickly generating billion-record synthetic
/// databases", SIGMOD 1994), as YCSB's `ZipfianGenerator` implements it.
#[derive(Clone, Debug, PartialEq)]
pub struct Zipf {
    theta: f64,
    alpha: f64,
    zetan: f64,
    eta: f64,
}

/// Checks a key choice of statement `index`; `at` is its JSON path.
pub(super) fn validate(k: &KeyChoice, index: usize, at: &str) -> Result<(), ConfigError> {
    match *k {
        KeyChoice::Zipfian { theta } if !(theta > 0.0 && theta < 1.0) => {
            Err(ConfigError::new(&format!("{at}.theta"), theta, "must be a number between 0 and 1 (exclusive); YCSB uses 0.99"))
        }
        KeyChoice::Hotspot { hot_fraction, .. } if !(hot_fraction > 0.0 && hot_fraction <= 1.0) => {
            Err(ConfigError::new(&format!("{at}.hotFraction"), hot_fraction, "must be a number above 0 and at most 1"))
        }
        KeyChoice::Hotspot { hot_share, .. } if !(0.0..=1.0).contains(&hot_share) => {
            Err(ConfigError::new(&format!("{at}.hotShare"), hot_share, "must be a number from 0 to 1"))
        }
        KeyChoice::SameAs { statement } if statement >= index => Err(ConfigError::new(
            &format!("{at}.statement"),
            statement,
            format!("must name an earlier statement of this transaction (0 to {})", index as i64 - 1),
        )),
        _ => Ok(()),
    }
}

impl KeyChooser {
    /// `k` for a table of `n` rows (n >= 1).
    pub fn new(k: &KeyChoice, n: u64) -> KeyChooser {
        match *k {
            KeyChoice::Uniform => KeyChooser::Uniform,
            KeyChoice::Zipfian { theta } => KeyChooser::Zipfian(Zipf::new(n, theta)),
            KeyChoice::Hotspot { hot_fraction, hot_share } => KeyChooser::Hotspot {
                hot: ((n as f64 * hot_fraction).ceil() as u64).clamp(1, n),
                share_ppm: (hot_share * 1e6).round() as u64,
            },
            KeyChoice::Sequential => KeyChooser::Sequential,
            KeyChoice::SameAs { statement } => KeyChooser::SameAs { statement },
        }
    }

    /// A key in `0..n` (`Sequential` and `SameAs` are the caller's: they need state).
    pub fn draw(&self, n: u64, rng: &mut Prng) -> u64 {
        match self {
            KeyChooser::Uniform => rng.below(n),
            KeyChooser::Zipfian(z) => z.draw(n, rng),
            &KeyChooser::Hotspot { hot, share_ppm } => {
                if hot == n || rng.below(1_000_000) < share_ppm {
                    rng.below(hot)
                } else {
                    hot + rng.below(n - hot)
                }
            }
            KeyChooser::Sequential | KeyChooser::SameAs { .. } => unreachable!("drawn by the program"),
        }
    }
}

/// A uniform number in [0, 1) from 53 random bits.
fn unit(rng: &mut Prng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The sum of 1/i^theta for i in 1..=n: exactly for the first 10000 terms, then by the
/// Euler-Maclaurin formula (relative error far below what the draws resolve).
fn zeta(n: u64, theta: f64) -> f64 {
    let exact = n.min(10_000);
    let mut sum = 0.0;
    for i in 1..=exact {
        sum += 1.0 / libm::pow(i as f64, theta);
    }
    if n > exact {
        let (m, n) = (exact as f64, n as f64);
        let f = |x: f64| libm::pow(x, -theta);
        let df = |x: f64| -theta * libm::pow(x, -theta - 1.0);
        let integral = (libm::pow(n, 1.0 - theta) - libm::pow(m, 1.0 - theta)) / (1.0 - theta);
        sum += integral + (f(n) - f(m)) / 2.0 + (df(n) - df(m)) / 12.0;
    }
    sum
}

impl Zipf {
    fn new(n: u64, theta: f64) -> Zipf {
        let zetan = zeta(n, theta);
        let zeta2 = 1.0 + libm::pow(0.5, theta);
        let eta = if n > 2 { (1.0 - libm::pow(2.0 / n as f64, 1.0 - theta)) / (1.0 - zeta2 / zetan) } else { 0.0 };
        Zipf { theta, alpha: 1.0 / (1.0 - theta), zetan, eta }
    }

    fn draw(&self, n: u64, rng: &mut Prng) -> u64 {
        let u = unit(rng);
        let uz = u * self.zetan;
        if uz < 1.0 || n == 1 {
            return 0;
        }
        if uz < 1.0 + libm::pow(0.5, self.theta) || n == 2 {
            return 1;
        }
        let k = (n as f64 * libm::pow(self.eta * u - self.eta + 1.0, self.alpha)) as u64;
        k.min(n - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shares(c: &KeyChooser, n: u64, draws: u32) -> Vec<u32> {
        let mut rng = Prng::new(7, 3);
        let mut counts = vec![0u32; n as usize];
        for _ in 0..draws {
            counts[c.draw(n, &mut rng) as usize] += 1;
        }
        counts
    }

    /// Zipfian 0.99 over 1000 keys: key 0 takes 1/zeta(1000) of the draws (about 13.3%),
    /// key 1 half as much again, and the counts fall with rank.
    #[test]
    fn zipfian_follows_its_law() {
        let n = 1000;
        let c = KeyChooser::new(&KeyChoice::Zipfian { theta: 0.99 }, n);
        let counts = shares(&c, n, 200_000);
        let p0 = counts[0] as f64 / 200_000.0;
        let want = 1.0 / zeta(n, 0.99);
        assert!((p0 - want).abs() < 0.005, "p0 {p0} want {want}");
        let p1 = counts[1] as f64 / 200_000.0;
        assert!((p1 - want / libm::pow(2.0, 0.99)).abs() < 0.005, "p1 {p1}");
        assert!(counts[0] > counts[10] && counts[10] > counts[500], "{:?}", &counts[..12]);
    }

    #[test]
    fn the_zeta_approximation_matches_the_sum() {
        let exact: f64 = (1..=200_000u64).map(|i| 1.0 / libm::pow(i as f64, 0.8)).sum();
        let approx = zeta(200_000, 0.8);
        assert!((exact - approx).abs() / exact < 1e-9, "{exact} vs {approx}");
    }

    #[test]
    fn hotspot_sends_its_share_to_the_hot_keys() {
        let c = KeyChooser::new(&KeyChoice::Hotspot { hot_fraction: 0.01, hot_share: 0.9 }, 1000);
        let counts = shares(&c, 1000, 100_000);
        let hot: u32 = counts[..10].iter().sum();
        assert!((89_000..91_000).contains(&hot), "hot {hot}");
    }

    #[test]
    fn uniform_covers_every_key() {
        let counts = shares(&KeyChooser::Uniform, 50, 50_000);
        assert!(counts.iter().all(|&c| (800..1200).contains(&c)), "{counts:?}");
    }
}
