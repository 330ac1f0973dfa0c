//! How the cost of one combatant's turn grows with the size of a battle:
//! `cargo run --release -p fray-sim --example scale -- [SIZES…] [--work N] [--print N]`.
//!
//! Builds C&C encounters on the bench pattern (`examples/cnc/bench.toml`: four 3rd-level
//! fighters in a column against eight orcs 60 feet away), repeated `k` times down the map —
//! block `i` puts its fighters on rows `8i…8i+3` of column 0 and its orcs on rows `8i−2…8i+5`
//! of column 12, so the orcs form one line and the fighters one gapped line facing it — for
//! 12, 24, 48, 96 and 192 combatants (or the sizes given). Each size plays about `N / size`
//! fights (default `N` = 240,000) with seeds 0, 1, … in the engine's plain simulation loop, one
//! thread, `--repeat R` times (default 3; the fastest pass counts), and prints microseconds per
//! fight and per combatant-turn, and a digest of the fights' ends (equal digests: same fights), where a fight has
//! `rounds × combatants` combatant-turns (every combatant gets a turn each round, standing or
//! not: a fixed denominator that does not depend on the tactics). `--print N` writes the
//! encounter of N combatants to stdout instead, and `--log N SEED` the log of one of its fights.

use fray_engine::{AnyEncounter, Library};
use std::time::Instant;

/// The C&C encounter of `blocks` copies of the bench pattern (12 combatants each).
fn bench_pattern(blocks: usize) -> String {
    let mut fighters = Vec::new();
    let mut orcs = Vec::new();
    for block in 0..blocks as i32 {
        let top = 8 * block;
        fighters.extend((0..4).map(|row| format!("[0, {}]", top + row)));
        orcs.extend((-2..6).map(|row| format!("[12, {}]", top + row)));
    }
    format!(
        "schema = 1\nruleset = \"cnc\"\nname = \"{} fighters against {} orcs\"\nmax_rounds = 100\n\n\
         [[sides]]\nid = \"fighters\"\n\n[[sides]]\nid = \"orcs\"\n\n\
         [[combatants]]\nid = \"fighter\"\nname = \"Fighter\"\nside = \"fighters\"\ncount = {}\n\
         at = [{}]\nclass = \"fighter\"\nlevel = 3\nhp = 24\n\
         scores = {{ str = 16, dex = 12, con = 14, int = 10, wis = 10, cha = 10 }}\n\
         weapon = \"long sword\"\narmor = \"chain mail\"\nshield = \"medium shield\"\n\n\
         [[combatants]]\nid = \"orc\"\nside = \"orcs\"\ncount = {}\nat = [{}]\nmonster = \"orc\"\n",
        fighters.len(),
        orcs.len(),
        fighters.len(),
        fighters.join(", "),
        orcs.len(),
        orcs.join(", "),
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut sizes = Vec::new();
    let mut work: u64 = 240_000;
    let mut repeat: u32 = 3;
    let mut print: Option<usize> = None;
    let mut log: Option<(usize, u64)> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--work" => work = args.next().ok_or("--work needs a number")?.parse()?,
            "--repeat" => repeat = args.next().ok_or("--repeat needs a number")?.parse()?,
            "--log" => {
                let size = args.next().ok_or("--log needs a size")?.parse()?;
                let seed = args.next().ok_or("--log needs a seed")?.parse()?;
                log = Some((size, seed));
            }
            "--print" => print = Some(args.next().ok_or("--print needs a size")?.parse()?),
            size => sizes.push(size.parse::<usize>()?),
        }
    }
    if let Some(size) = print {
        print!("{}", bench_pattern(usize::max(size / 12, 1)));
        return Ok(());
    }
    if sizes.is_empty() {
        sizes = vec![12, 24, 48, 96, 192];
    }
    let library = Library::embedded()?;
    if let Some((size, seed)) = log {
        let text = bench_pattern(usize::max(size / 12, 1));
        let encounter = AnyEncounter::from_text("scale.toml", &text, &library)?;
        let record = encounter.fight(&fray_engine::FightOptions::seeded(seed), true)?;
        print!(
            "{}",
            fray_engine::render::text_log(&record.events, encounter.roster())
        );
        return Ok(());
    }
    let mut first: Option<(f64, f64)> = None;
    println!(
        "combatants  fights  rounds/fight  µs/fight  µs/combatant-turn  ratio to first  digest"
    );
    for size in sizes {
        let blocks = usize::max(size / 12, 1);
        let combatants = blocks * 12;
        let encounter = AnyEncounter::from_text("scale.toml", &bench_pattern(blocks), &library)?;
        let fights = u64::max(work / combatants as u64, 20);
        let mut tallies = Vec::new();
        // Warm up caches and the allocator on a few fights first.
        for seed in 0..fights.min(10) {
            encounter.simulate(seed, None, &mut tallies)?;
        }
        let mut rounds = 0u64;
        // A digest of every fight's end (rounds, winner, each combatant's hit points): equal
        // digests before and after a change mean the fights did not change.
        let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |n: i64| digest = (digest ^ n as u64).wrapping_mul(0x0100_0000_01b3);
        // The fastest of `repeat` passes over the same fights (the machine is shared: the
        // fastest pass is the one least disturbed).
        let mut fastest = f64::INFINITY;
        for pass in 0..repeat.max(1) {
            let start = Instant::now();
            for seed in 0..fights {
                let end = encounter.simulate(seed, None, &mut tallies)?;
                if pass == 0 {
                    rounds += u64::from(end.rounds);
                    mix(i64::from(end.rounds));
                    mix(end.winner.map_or(-1, |s| i64::from(s.0)));
                    for t in &tallies {
                        mix(i64::from(t.hp));
                    }
                }
            }
            fastest = fastest.min(start.elapsed().as_secs_f64());
        }
        let micros = fastest * 1e6;
        let turns = rounds as f64 * combatants as f64;
        let per_turn = micros / turns;
        let ratio = match first {
            None => {
                first = Some((combatants as f64, per_turn));
                1.0
            }
            Some((_, base)) => per_turn / base,
        };
        println!(
            "{combatants:>10}  {fights:>6}  {:>12.3}  {:>8.1}  {per_turn:>17.3}  {ratio:>14.2}  {digest:016x}",
            rounds as f64 / fights as f64,
            micros / fights as f64,
        );
    }
    Ok(())
}
