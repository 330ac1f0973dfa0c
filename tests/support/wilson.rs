//! The interval the exact-odds tests check a simulation against (shared by the test crates
//! that include it with `#[path]`).

/// The Wilson score interval of `hits` in `runs` at z = 3.2905 (99.9%).
pub fn wilson_999(hits: u64, runs: u64) -> (f64, f64) {
    let (n, z) = (runs as f64, 3.2905_f64);
    let p = hits as f64 / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}
