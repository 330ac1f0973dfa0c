//! Run seeds: how run `i` of a simulation with base seed `S` gets its own dice seed.
//!
//! Run `i` (counted from 0) plays with `splitmix64(S ^ i·0x9E3779B97F4A7C15)`, where `splitmix64`
//! is the output function of Steele, Lea and Flood's SplitMix64 generator (add the golden-ratio
//! increment, then two xor-shift-multiply rounds). The seed of a run depends only on `S` and `i`,
//! never on the thread that played it, and `fray fight FILE --seed <run seed>` replays the run.

/// 2^64 divided by the golden ratio: SplitMix64's increment and the run-index multiplier.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The mixing function in words, as printed in reports and JSON.
pub const MIXING: &str = "splitmix64(seed ^ run * 0x9e3779b97f4a7c15), runs counted from 0";

/// SplitMix64's output for the state before `x` (that is: `x + GOLDEN_GAMMA`, mixed).
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The dice seed of run `run` of a simulation seeded with `base`.
pub fn run_seed(base: u64, run: u64) -> u64 {
    splitmix64(base ^ run.wrapping_mul(GOLDEN_GAMMA))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_generator() {
        // The reference SplitMix64 seeded with 0 first outputs 0xE220A8397B1DCDAF.
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        // ... and then 0x6E789E6AA1B965F4 (state advanced by one increment).
        assert_eq!(splitmix64(GOLDEN_GAMMA), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn run_seeds_are_distinct_and_depend_on_the_base() {
        let seeds: std::collections::BTreeSet<u64> = (0..10_000).map(|i| run_seed(42, i)).collect();
        assert_eq!(seeds.len(), 10_000);
        assert_ne!(run_seed(1, 0), run_seed(2, 0));
        assert_eq!(run_seed(7, 3), run_seed(7, 3));
    }
}
