//! The one pseudo-random number generator of the simulation.
//!
//! The algorithm is pinned — xoshiro256++ seeded through SplitMix64, as its authors
//! recommend — so that the same seed gives the same run on every platform, natively
//! and in WebAssembly, today and after a dependency upgrade. Nothing in the model may
//! draw randomness from anywhere else (no clock, no OS entropy, no hash-map order).
//!
//! Subsystems do not share one stream: each derives its own sub-seed from the run's
//! seed and a stream number, so that adding a draw in one subsystem does not shift
//! every other subsystem's numbers.

/// SplitMix64: a tiny generator used only to expand seeds.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }
}

/// The SplitMix64 finaliser: a bijective, well-mixing hash of one `u64`.
/// Also used to place rows on partitions (NDB uses MD5; any good hash will do).
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xoshiro256++ (Blackman & Vigna, 2019).
#[derive(Clone, Debug)]
pub struct Prng {
    s: [u64; 4],
}

impl Prng {
    /// A generator for stream `stream` of the run seeded with `seed`.
    pub fn new(seed: u64, stream: u64) -> Prng {
        let mut sm = SplitMix64::new(seed ^ mix64(stream.wrapping_add(0x5EED)));
        let s = [sm.next_u64(), sm.next_u64(), sm.next_u64(), sm.next_u64()];
        Prng { s }
    }

    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (Lemire's multiply-shift with rejection: unbiased).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0) has no value");
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// A uniform number in the open interval (0, 1): 53 random bits, never 0 or 1, so its
    /// logarithm is finite.
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `numerator / denominator`: probabilities are integer ratios,
    /// so no floating point rounding can differ between targets.
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.below(denominator) < numerator
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_reference_vector() {
        // Reference output of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        let mut sm = SplitMix64::new(0);
        assert_eq!(sm.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(sm.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(sm.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn xoshiro256pp_matches_reference_vector() {
        // State [1, 2, 3, 4] gives 41943041, 58720359, ... in the reference implementation.
        let mut p = Prng { s: [1, 2, 3, 4] };
        assert_eq!(p.next_u64(), 41_943_041);
        assert_eq!(p.next_u64(), 58_720_359);
        assert_eq!(p.next_u64(), 3_588_806_011_781_223);
    }

    #[test]
    fn streams_differ_and_repeat() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut p = Prng::new(7, 1);
                move |_| p.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..4)
            .map({
                let mut p = Prng::new(7, 1);
                move |_| p.next_u64()
            })
            .collect();
        let c: Vec<u64> = (0..4)
            .map({
                let mut p = Prng::new(7, 2);
                move |_| p.next_u64()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut p = Prng::new(1, 0);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[p.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert!((0..1000).all(|_| p.range(5, 6) >= 5));
    }
}
