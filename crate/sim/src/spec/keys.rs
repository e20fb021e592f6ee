//! Key choices: which key of a table each row of a statement gets. Drawing uses only
//! integer arithmetic and `libm`'s pure-Rust functions (`pow`, `exp`, `log`, `sqrt`), so a
//! run draws the same keys natively and in WebAssembly. The exponential and Gaussian
//! choices are pgbench's (`random_exponential`, `random_gaussian`: src/bin/pgbench/pgbench.c,
//! `getExponentialRand`, `getGaussianRand`): the same distributions, the exponential drawn
//! as pgbench draws it, the Gaussian by the polar method rather than Box-Muller.

/// Longest time bucket: a year, in ms.
pub(crate) const MAX_BUCKET_MS: u64 = 366 * 24 * 3600 * 1000;

use super::KeyChoice;
use crate::error::ConfigError;
use crate::prng::Prng;
use crate::read::{Bad, Fields, Read};
use serde_json::Value;

/// A key choice made ready for a table of `n` rows.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum KeyChooser {
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
    Exponential {
        parameter: f64,
        /// exp(-parameter): pgbench's `cut`.
        cut: f64,
    },
    Gaussian {
        parameter: f64,
    },
    Fixed {
        key: u64,
    },
    TimeBucket {
        bucket_ns: u64,
    },
}

/// Gray et al.'s Zipfian generator ("Quickly generating billion-record synthetic
/// databases", SIGMOD 1994), as YCSB's `ZipfianGenerator` implements it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Zipf {
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
        KeyChoice::Exponential { parameter } if !(parameter > 0.0 && parameter <= 1e6) => Err(ConfigError::new(
            &format!("{at}.parameter"),
            parameter,
            "must be a number above 0 and at most 1000000 (pgbench's random_exponential parameter)",
        )),
        KeyChoice::Gaussian { parameter } if !(2.0..=1e6).contains(&parameter) => Err(ConfigError::new(
            &format!("{at}.parameter"),
            parameter,
            "must be a number from 2 to 1000000 (pgbench's random_gaussian parameter: standard deviations either side)",
        )),
        KeyChoice::TimeBucket { bucket_ms } if !(1..=MAX_BUCKET_MS).contains(&bucket_ms) => {
            Err(ConfigError::new(&format!("{at}.bucketMs"), bucket_ms, format!("must be an integer from 1 to {MAX_BUCKET_MS} (a year)")))
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
            KeyChoice::Exponential { parameter } => KeyChooser::Exponential { parameter, cut: libm::exp(-parameter) },
            KeyChoice::Gaussian { parameter } => KeyChooser::Gaussian { parameter },
            KeyChoice::Fixed { key } => KeyChooser::Fixed { key: key.min(n - 1) },
            KeyChoice::TimeBucket { bucket_ms } => KeyChooser::TimeBucket { bucket_ns: crate::time::from_ms(bucket_ms) },
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
            &KeyChooser::Exponential { parameter, cut } => {
                let uniform = 1.0 - uniform_from_zero(rng); // (0, 1]
                let rand = -libm::log(cut + (1.0 - cut) * uniform) / parameter; // [0, 1)
                ((n as f64 * rand) as u64).min(n - 1)
            }
            &KeyChooser::Gaussian { parameter } => {
                // A standard normal deviate, drawn again until within `parameter` deviations
                // as pgbench does. pgbench draws it by Box-Muller; Marsaglia's polar method
                // gives the same distribution without a sine (libm's would add its tables
                // to the module every page loads).
                let stdev = loop {
                    let (u, v) = (2.0 * uniform_from_zero(rng) - 1.0, 2.0 * uniform_from_zero(rng) - 1.0);
                    let s = u * u + v * v;
                    if s == 0.0 || s >= 1.0 {
                        continue;
                    }
                    let z = u * libm::sqrt(-2.0 * libm::log(s) / s);
                    if (-parameter..parameter).contains(&z) {
                        break z;
                    }
                };
                let rand = (stdev + parameter) / (parameter * 2.0); // [0, 1)
                ((n as f64 * rand) as u64).min(n - 1)
            }
            &KeyChooser::Fixed { key } => key,
            KeyChooser::Sequential | KeyChooser::SameAs { .. } | KeyChooser::TimeBucket { .. } => unreachable!("drawn by the program"),
        }
    }

    /// The key of a time-bucket choice at simulated time `now` (ns).
    pub fn bucket(bucket_ns: u64, now: u64, n: u64) -> u64 {
        (now / bucket_ns) % n
    }
}

/// A uniform number in [0, 1) from 53 random bits.
fn uniform_from_zero(rng: &mut Prng) -> f64 {
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
        let u = uniform_from_zero(rng);
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

/// Every key choice's fields, read flat (`read.rs`).
const FIELDS: &[&str] = &["dist", "theta", "hotFraction", "hotShare", "statement", "parameter", "key", "bucketMs"];

/// A key choice's `dist`.
#[derive(Clone, Copy)]
enum Dist {
    Uniform,
    Zipfian,
    Hotspot,
    Sequential,
    SameAs,
    Exponential,
    Gaussian,
    Fixed,
    TimeBucket,
}

impl Dist {
    const NAMES: &'static [&'static str] =
        &["uniform", "zipfian", "hotspot", "sequential", "sameAs", "exponential", "gaussian", "fixed", "timeBucket"];
}

crate::named::by_name!(Dist, [Uniform, Zipfian, Hotspot, Sequential, SameAs, Exponential, Gaussian, Fixed, TimeBucket]);

/// A key choice as JSON (`{ "dist": "zipfian", "theta": 0.99 }`): each choice takes its
/// own fields and refuses the others'.
impl Read for KeyChoice {
    fn read(v: &Value) -> Result<Self, Bad> {
        let f = Fields::of(v, "a key choice: an object with dist and its fields", FIELDS)?.nulls_absent();
        let (choice, own): (KeyChoice, &[&str]) = match f.need("dist")? {
            Dist::Uniform => (KeyChoice::Uniform, &[]),
            Dist::Zipfian => (KeyChoice::Zipfian { theta: f.need("theta")? }, &["theta"]),
            Dist::Hotspot => {
                (KeyChoice::Hotspot { hot_fraction: f.need("hotFraction")?, hot_share: f.need("hotShare")? }, &["hotFraction", "hotShare"])
            }
            Dist::Sequential => (KeyChoice::Sequential, &[]),
            Dist::SameAs => (KeyChoice::SameAs { statement: f.need("statement")? }, &["statement"]),
            Dist::Exponential => (KeyChoice::Exponential { parameter: f.need("parameter")? }, &["parameter"]),
            Dist::Gaussian => (KeyChoice::Gaussian { parameter: f.need("parameter")? }, &["parameter"]),
            Dist::Fixed => (KeyChoice::Fixed { key: f.need("key")? }, &["key"]),
            Dist::TimeBucket => (KeyChoice::TimeBucket { bucket_ms: f.need("bucketMs")? }, &["bucketMs"]),
        };
        f.only("dist", own)?;
        Ok(choice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key choice reads back what it writes: the reader's `dist` names (`Dist::NAMES`)
    /// are the writer's tags, and each choice's fields its own.
    #[test]
    fn every_key_choice_reads_back_what_it_writes() {
        let all = [
            KeyChoice::Uniform,
            KeyChoice::Zipfian { theta: 0.99 },
            KeyChoice::Hotspot { hot_fraction: 0.2, hot_share: 0.8 },
            KeyChoice::Sequential,
            KeyChoice::SameAs { statement: 1 },
            KeyChoice::Exponential { parameter: 3.0 },
            KeyChoice::Gaussian { parameter: 2.5 },
            KeyChoice::Fixed { key: 7 },
            KeyChoice::TimeBucket { bucket_ms: 1000 },
        ];
        assert_eq!(all.len(), Dist::NAMES.len(), "a choice of each dist");
        for k in all {
            let v = serde_json::to_value(&k).unwrap();
            assert_eq!(KeyChoice::read(&v).map_err(|e| format!("{e:?}")), Ok(k), "{v}");
        }
    }

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

    /// pgbench's exponential with parameter 5 over 100 keys: key k's share is
    /// (exp(-5k/100) - exp(-5(k+1)/100)) / (1 - exp(-5)), about 4.9% for key 0.
    #[test]
    fn exponential_follows_pgbench() {
        let c = KeyChooser::new(&KeyChoice::Exponential { parameter: 5.0 }, 100);
        let counts = shares(&c, 100, 200_000);
        for k in [0usize, 10, 50, 99] {
            let want = (libm::exp(-5.0 * k as f64 / 100.0) - libm::exp(-5.0 * (k + 1) as f64 / 100.0)) / (1.0 - libm::exp(-5.0));
            let got = counts[k] as f64 / 200_000.0;
            assert!((got - want).abs() < 0.15 * want + 0.0005, "key {k}: {got} want {want}");
        }
    }

    /// pgbench's Gaussian with parameter 2.5 over 100 keys: the middle keys most often, and
    /// about 68% of the draws within one standard deviation (the middle 40 keys).
    #[test]
    fn gaussian_follows_pgbench() {
        let c = KeyChooser::new(&KeyChoice::Gaussian { parameter: 2.5 }, 100);
        let counts = shares(&c, 100, 200_000);
        let middle: u32 = counts[30..70].iter().sum();
        // P(|z| < 1) / P(|z| < 2.5) = 0.6827 / 0.9876.
        let share = middle as f64 / 200_000.0;
        assert!((share - 0.6913).abs() < 0.01, "{share}");
        assert!(counts[49] > 5 * counts[2], "{:?}", &counts[..5]);
    }

    #[test]
    fn a_time_bucket_moves_with_the_clock() {
        let hour = crate::time::from_ms(3_600_000);
        assert_eq!(KeyChooser::bucket(hour, 0, 24), 0);
        assert_eq!(KeyChooser::bucket(hour, hour - 1, 24), 0);
        assert_eq!(KeyChooser::bucket(hour, 25 * hour, 24), 1);
    }

    #[test]
    fn uniform_covers_every_key() {
        let counts = shares(&KeyChooser::Uniform, 50, 50_000);
        assert!(counts.iter().all(|&c| (800..1200).contains(&c)), "{counts:?}");
    }
}
