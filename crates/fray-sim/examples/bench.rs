//! Simulation throughput: `cargo run --release -p fray-sim --example bench -- FILE [RUNS]`
//! plays RUNS fights (default 200,000) of FILE with 1 and with 2 threads and prints fights per
//! second for each, then the engine alone in a plain loop (the simulator's overhead is the
//! difference), then the process's peak resident memory (VmHWM from /proc/self/status).

use fray_engine::{AnyEncounter, Library};
use fray_sim::{simulate, SimOptions};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .unwrap_or_else(|| "examples/cnc/bench.toml".to_string());
    let runs: u64 = match args.next() {
        Some(n) => n.parse()?,
        None => 200_000,
    };
    let library = Library::embedded()?;
    let encounter = AnyEncounter::load(&file, &library)?;
    let stop = AtomicBool::new(false);
    let mut reference = None;
    for threads in [1usize, 2] {
        let options = SimOptions {
            runs,
            seed: 1,
            threads,
            max_rounds: None,
            target_ci: None,
            keep_rows: false,
        };
        let start = Instant::now();
        let result = simulate(&encounter, &options, &stop, &mut |_, _| Ok(()))?;
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{file}: {runs} fights, {threads} thread(s): {seconds:.2} s, {:.0} fights/s",
            runs as f64 / seconds
        );
        // Same seed, same figures, whatever the thread count.
        match &reference {
            None => reference = Some(result.stats),
            Some(r) => assert_eq!(r, &result.stats, "thread count changed the figures"),
        }
    }
    // The engine alone, for comparison: the same fights in a plain loop, no statistics.
    let start = Instant::now();
    let mut tallies = Vec::new();
    let mut wins = 0u64;
    for run in 0..runs {
        let end = encounter.simulate(fray_sim::seeds::run_seed(1, run), None, &mut tallies)?;
        wins += u64::from(end.winner.is_some());
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{file}: {runs} fights, plain engine loop, 1 thread: {seconds:.2} s, {:.0} fights/s ({wins} won)",
        runs as f64 / seconds
    );
    match peak_rss_kib() {
        Some(kib) => println!(
            "peak resident memory (VmHWM): {:.1} MiB",
            kib as f64 / 1024.0
        ),
        None => println!("peak resident memory: unavailable (no /proc/self/status)"),
    }
    Ok(())
}
