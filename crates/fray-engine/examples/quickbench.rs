//! Quick fights-per-second probe (development aid).
fn main() {
    let lib = fray_engine::Library::embedded().unwrap();
    let e = fray_engine::AnyEncounter::load("examples/cnc/bench.toml", &lib).unwrap();
    let mut t = Vec::new();
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20000);
    let start = std::time::Instant::now();
    let mut rounds = 0u64;
    for seed in 0..n {
        let end = e.simulate(seed, None, &mut t).unwrap();
        rounds += end.rounds as u64;
    }
    let el = start.elapsed().as_secs_f64();
    println!(
        "{:.0} fights/s, mean rounds {:.2}",
        n as f64 / el,
        rounds as f64 / n as f64
    );
}
