//! Per-run results of one chunk of fights, kept only when they are exported (`--csv`).

use fray_core::{FightEnd, SideId, Tally};

/// The results of consecutive runs, one row each, with per-side columns stored flat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunRows {
    sides: usize,
    /// (run index, dice seed, how it ended), one per run in run order.
    pub ends: Vec<(u64, u64, FightEnd)>,
    /// Members standing at the end: `sides` entries per run.
    pub standing: Vec<u32>,
    /// Hit points left (negative counts as 0): `sides` entries per run.
    pub hp_left: Vec<i64>,
}

/// One run, borrowed from [`RunRows`].
#[derive(Debug, Clone, Copy)]
pub struct RunRow<'a> {
    /// The run index (from 0).
    pub run: u64,
    /// Its dice seed (`fray fight FILE --seed <seed>` replays it).
    pub seed: u64,
    /// How it ended.
    pub end: FightEnd,
    /// Members standing per side.
    pub standing: &'a [u32],
    /// Hit points left per side.
    pub hp_left: &'a [i64],
}

impl RunRows {
    /// No rows yet, for an encounter with `sides` sides.
    pub fn new(sides: usize) -> RunRows {
        RunRows {
            sides,
            ..RunRows::default()
        }
    }

    /// Adds a run.
    pub fn push(&mut self, run: u64, seed: u64, end: FightEnd, tallies: &[Tally]) {
        self.ends.push((run, seed, end));
        let base = self.standing.len();
        self.standing.resize(base + self.sides, 0);
        self.hp_left.resize(base + self.sides, 0);
        for t in tallies {
            let SideId(s) = t.side;
            let s = s as usize;
            if s < self.sides {
                self.hp_left[base + s] += i64::from(t.hp.max(0));
                if t.is_up() {
                    self.standing[base + s] += 1;
                }
            }
        }
    }

    /// The rows in run order.
    pub fn iter(&self) -> impl Iterator<Item = RunRow<'_>> + '_ {
        self.ends
            .iter()
            .enumerate()
            .map(move |(i, &(run, seed, end))| {
                let at = i * self.sides;
                RunRow {
                    run,
                    seed,
                    end,
                    standing: &self.standing[at..at + self.sides],
                    hp_left: &self.hp_left[at..at + self.sides],
                }
            })
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True with no rows.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}
