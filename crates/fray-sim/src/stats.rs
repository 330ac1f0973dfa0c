//! Streaming statistics of many fights, as exact integer counts and sums.
//!
//! A [`Stats`] holds only counts, sums and bounded histograms (rounds up to the round limit,
//! survivors up to the side's size), so its size never grows with the number of runs, and
//! merging two of them is exact and order-independent: the simulator gets the same figures
//! whatever the number of threads. Means, medians and rates are derived at the end.

use fray_core::{FightEnd, Roster, Standing, Tally};

/// The fixed shape of one encounter's statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Number of combatants on each side, in roster order.
    pub side_sizes: Vec<usize>,
    /// Number of combatants.
    pub combatants: usize,
    /// The round limit (the rounds histogram has one bin per round, 0 ..= limit).
    pub max_rounds: u32,
}

impl Shape {
    /// The shape of an encounter with this roster and round limit.
    pub fn new(roster: &Roster, max_rounds: u32) -> Shape {
        let mut side_sizes = vec![0; roster.sides.len()];
        for c in &roster.combatants {
            if let Some(n) = side_sizes.get_mut(c.side.index()) {
                *n += 1;
            }
        }
        Shape {
            side_sizes,
            combatants: roster.combatants.len(),
            max_rounds,
        }
    }
}

/// One side's figures over many fights.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Fights this side won.
    pub wins: u64,
    /// Of those, fights won because the foes routed (fled, surrendered or were captured) rather
    /// than fell; the others were won by kill.
    pub wins_by_rout: u64,
    /// Sum over fights of its members still standing at the end.
    pub standing_sum: u64,
    /// `standing[k]`: fights that ended with exactly `k` of its members standing.
    pub standing: Vec<u64>,
    /// Sum over fights of its members' hit points left (negative hit points count as 0).
    pub hp_left_sum: i64,
    /// Sum over fights of its members' hit points at full health.
    pub max_hp_sum: i64,
    /// The first run (lowest index) it won.
    pub first_win: Option<u64>,
    /// The first run it did not win (lost, or drew).
    pub first_loss: Option<u64>,
}

/// One combatant's figures over many fights.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CombatantStats {
    /// Sum of damage dealt to foes.
    pub dealt_sum: i64,
    /// Sum of damage taken.
    pub taken_sum: i64,
    /// Sum of hit points left (negative counts as 0).
    pub hp_left_sum: i64,
    /// Fights it ended fallen: down (unable to act) or dead.
    pub down: u64,
    /// Fights it ended dead.
    pub dead: u64,
    /// Fights it ended having fled.
    pub fled: u64,
    /// Fights it ended having surrendered.
    pub surrendered: u64,
    /// Fights it ended captured.
    pub captured: u64,
    /// Figures it stands for (a unit's men; 1 for a single combatant).
    pub figures: u32,
    /// Sum of figures still alive at the end.
    pub figures_left_sum: u64,
}

impl CombatantStats {
    /// Fights it ended fled, surrendered or captured.
    pub fn routed(&self) -> u64 {
        self.fled + self.surrendered + self.captured
    }
}

/// Figures over a set of fights.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Fights played.
    pub runs: u64,
    /// Fights stopped by the round limit (nobody won).
    pub round_limit: u64,
    /// Fights that ended with nobody able to fight.
    pub none_standing: u64,
    /// Sum of rounds played.
    pub rounds_sum: u64,
    /// `rounds[r]`: fights that lasted `r` rounds (0 ..= the round limit).
    pub rounds: Vec<u64>,
    /// Per side, in roster order.
    pub sides: Vec<SideStats>,
    /// Per combatant, in roster order.
    pub combatants: Vec<CombatantStats>,
    /// The first run stopped by the round limit.
    pub first_round_limit: Option<u64>,
    /// The first run with nobody left standing.
    pub first_none_standing: Option<u64>,
}

fn earliest(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

impl Stats {
    /// No fights yet.
    pub fn new(shape: &Shape) -> Stats {
        Stats {
            runs: 0,
            round_limit: 0,
            none_standing: 0,
            rounds_sum: 0,
            rounds: vec![0; shape.max_rounds as usize + 1],
            sides: shape
                .side_sizes
                .iter()
                .map(|&n| SideStats {
                    standing: vec![0; n + 1],
                    ..SideStats::default()
                })
                .collect(),
            combatants: vec![CombatantStats::default(); shape.combatants],
            first_round_limit: None,
            first_none_standing: None,
        }
    }

    /// Adds fight number `run`, which ended as `end` with `tallies` (in roster order).
    pub fn record(&mut self, run: u64, end: &FightEnd, tallies: &[Tally]) {
        self.runs += 1;
        self.rounds_sum += u64::from(end.rounds);
        let bin = (end.rounds as usize).min(self.rounds.len().saturating_sub(1));
        if let Some(count) = self.rounds.get_mut(bin) {
            *count += 1;
        }
        if end.stalemate() {
            self.round_limit += 1;
            self.first_round_limit = earliest(self.first_round_limit, Some(run));
        } else if end.winner.is_none() {
            self.none_standing += 1;
            self.first_none_standing = earliest(self.first_none_standing, Some(run));
        }
        for (i, side) in self.sides.iter_mut().enumerate() {
            if end.winner.is_some_and(|w| w.index() == i) {
                side.wins += 1;
                side.wins_by_rout += u64::from(end.by_rout());
                side.first_win = earliest(side.first_win, Some(run));
            } else {
                side.first_loss = earliest(side.first_loss, Some(run));
            }
        }
        for (tally, combatant) in tallies.iter().zip(self.combatants.iter_mut()) {
            let hp_left = i64::from(tally.hp.max(0));
            combatant.dealt_sum += i64::from(tally.dealt);
            combatant.taken_sum += i64::from(tally.taken);
            combatant.hp_left_sum += hp_left;
            combatant.down += u64::from(tally.is_down());
            combatant.dead += u64::from(tally.is_dead());
            combatant.fled += u64::from(tally.standing == Standing::Fled);
            combatant.surrendered += u64::from(tally.standing == Standing::Surrendered);
            combatant.captured += u64::from(tally.standing == Standing::Captured);
            combatant.figures = combatant.figures.max(tally.figures);
            combatant.figures_left_sum += u64::from(tally.figures_left);
            let s = tally.side.index();
            if let Some(side) = self.sides.get_mut(s) {
                side.hp_left_sum += hp_left;
                side.max_hp_sum += i64::from(tally.max_hp);
            }
        }
        for (i, side) in self.sides.iter_mut().enumerate() {
            let n = Stats::standing_of(tallies, i);
            side.standing_sum += u64::from(n);
            let bin = (n as usize).min(side.standing.len().saturating_sub(1));
            if let Some(count) = side.standing.get_mut(bin) {
                *count += 1;
            }
        }
    }

    /// How many of `side`'s members were standing (up, able to fight) at the end of a fight
    /// with these tallies.
    pub fn standing_of(tallies: &[Tally], side: usize) -> u32 {
        tallies
            .iter()
            .filter(|t| t.side.index() == side && t.is_up())
            .count() as u32
    }

    /// Adds the figures of other fights. Exact, commutative and associative.
    pub fn merge(&mut self, other: &Stats) {
        self.runs += other.runs;
        self.round_limit += other.round_limit;
        self.none_standing += other.none_standing;
        self.rounds_sum += other.rounds_sum;
        for (a, b) in self.rounds.iter_mut().zip(&other.rounds) {
            *a += b;
        }
        for (a, b) in self.sides.iter_mut().zip(&other.sides) {
            a.wins += b.wins;
            a.wins_by_rout += b.wins_by_rout;
            a.standing_sum += b.standing_sum;
            for (x, y) in a.standing.iter_mut().zip(&b.standing) {
                *x += y;
            }
            a.hp_left_sum += b.hp_left_sum;
            a.max_hp_sum += b.max_hp_sum;
            a.first_win = earliest(a.first_win, b.first_win);
            a.first_loss = earliest(a.first_loss, b.first_loss);
        }
        for (a, b) in self.combatants.iter_mut().zip(&other.combatants) {
            a.dealt_sum += b.dealt_sum;
            a.taken_sum += b.taken_sum;
            a.hp_left_sum += b.hp_left_sum;
            a.down += b.down;
            a.dead += b.dead;
            a.fled += b.fled;
            a.surrendered += b.surrendered;
            a.captured += b.captured;
            a.figures = a.figures.max(b.figures);
            a.figures_left_sum += b.figures_left_sum;
        }
        self.first_round_limit = earliest(self.first_round_limit, other.first_round_limit);
        self.first_none_standing = earliest(self.first_none_standing, other.first_none_standing);
    }

    /// The smallest number of rounds `r` such that at least `percent`% of fights lasted `r`
    /// rounds or fewer (50 = median, 90 = p90). `None` with no fights.
    pub fn rounds_percentile(&self, percent: u64) -> Option<u32> {
        if self.runs == 0 {
            return None;
        }
        // Integer arithmetic: cumulative / runs >= percent / 100.
        let need = u128::from(self.runs) * u128::from(percent.min(100));
        let mut cumulative: u128 = 0;
        for (r, &count) in self.rounds.iter().enumerate() {
            cumulative += u128::from(count);
            if cumulative * 100 >= need && cumulative > 0 {
                return Some(r as u32);
            }
        }
        Some(self.rounds.len().saturating_sub(1) as u32)
    }

    /// The longest fight, in rounds.
    pub fn rounds_max(&self) -> Option<u32> {
        self.rounds.iter().rposition(|&c| c > 0).map(|r| r as u32)
    }

    /// Mean rounds per fight.
    pub fn rounds_mean(&self) -> f64 {
        mean(self.rounds_sum as f64, self.runs)
    }
}

/// `sum / runs`, 0 with no runs.
pub fn mean(sum: f64, runs: u64) -> f64 {
    if runs == 0 {
        0.0
    } else {
        sum / runs as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_core::{EndReason, SideId};

    fn shape() -> Shape {
        Shape {
            side_sizes: vec![1, 2],
            combatants: 3,
            max_rounds: 10,
        }
    }

    fn tally(side: u8, hp: i32, down: bool) -> Tally {
        let standing = match (down, hp <= -10) {
            (_, true) => Standing::Dead,
            (true, false) => Standing::Down,
            (false, false) => Standing::Up,
        };
        Tally {
            dealt: 3,
            taken: 10 - hp,
            ..Tally::single(SideId(side), hp, 10, standing)
        }
    }

    fn end(winner: Option<u8>, rounds: u32, stalemate: bool) -> FightEnd {
        FightEnd {
            winner: winner.map(SideId),
            rounds,
            reason: if stalemate {
                EndReason::Limit
            } else {
                EndReason::Defeated
            },
            limit: None,
        }
    }

    fn fight(stats: &mut Stats, run: u64, winner: Option<u8>, rounds: u32, stalemate: bool) {
        let tallies = [
            tally(0, if winner == Some(0) { 5 } else { -1 }, winner != Some(0)),
            tally(
                1,
                if winner == Some(1) { 4 } else { -12 },
                winner != Some(1),
            ),
            tally(1, 2, winner != Some(1)),
        ];
        stats.record(run, &end(winner, rounds, stalemate), &tallies);
    }

    #[test]
    fn records_counts_and_firsts() {
        let mut s = Stats::new(&shape());
        fight(&mut s, 0, Some(0), 3, false);
        fight(&mut s, 1, Some(1), 5, false);
        fight(&mut s, 2, None, 10, true);
        fight(&mut s, 3, None, 4, false);
        assert_eq!(s.runs, 4);
        assert_eq!(s.sides[0].wins, 1);
        assert_eq!(s.sides[1].wins, 1);
        assert_eq!(s.round_limit, 1);
        assert_eq!(s.none_standing, 1);
        assert_eq!(s.sides[0].first_loss, Some(1));
        assert_eq!(s.sides[1].first_loss, Some(0));
        assert_eq!(s.first_round_limit, Some(2));
        assert_eq!(s.first_none_standing, Some(3));
        assert_eq!(s.rounds_sum, 22);
        assert_eq!(s.rounds_percentile(50), Some(4));
        assert_eq!(s.rounds_percentile(90), Some(10));
        assert_eq!(s.rounds_max(), Some(10));
        // Side 1 (two members) had both standing once, none three times.
        assert_eq!(s.sides[1].standing, vec![3, 0, 1]);
        assert_eq!(s.sides[0].standing, vec![3, 1]);
        assert_eq!(s.combatants[1].dead, 3);
        assert_eq!(s.sides[0].wins_by_rout, 0, "every win was by kill");
        assert_eq!(s.combatants[0].routed(), 0);
        // Single combatants: one figure, alive unless dead.
        assert_eq!(s.combatants[1].figures, 1);
        assert_eq!(s.combatants[1].figures_left_sum, 1);
    }

    #[test]
    fn records_routs_and_figures() {
        let mut s = Stats::new(&shape());
        let hero = Tally::single(SideId(0), 6, 10, Standing::Up);
        // A unit of ten goblins: four men left when it fled (ODD-R31.6).
        let unit = |standing, figures_left| Tally {
            figures: 10,
            figures_left,
            ..Tally::single(SideId(1), 12, 30, standing)
        };
        let shaman = |standing| Tally::single(SideId(1), 0, 5, standing);
        let routed = FightEnd {
            reason: EndReason::Routed,
            ..end(Some(0), 4, false)
        };
        let fights = [
            (
                routed,
                [hero, unit(Standing::Fled, 4), shaman(Standing::Dead)],
            ),
            (
                routed,
                [
                    hero,
                    unit(Standing::Surrendered, 7),
                    shaman(Standing::Captured),
                ],
            ),
            (
                end(Some(0), 6, false),
                [hero, unit(Standing::Dead, 0), shaman(Standing::Down)],
            ),
        ];
        for (run, (end, tallies)) in fights.iter().enumerate() {
            s.record(run as u64, end, tallies);
        }
        assert_eq!((s.sides[0].wins, s.sides[0].wins_by_rout), (3, 2));
        let (goblins, priest) = (s.combatants[1], s.combatants[2]);
        assert_eq!(
            (goblins.fled, goblins.surrendered, goblins.captured),
            (1, 1, 0)
        );
        assert_eq!(
            (goblins.down, goblins.dead),
            (1, 1),
            "a dead unit has also fallen"
        );
        assert_eq!((goblins.figures, goblins.figures_left_sum), (10, 11));
        assert_eq!((priest.captured, priest.down, priest.dead), (1, 2, 1));
        assert_eq!(priest.routed(), 1);
        // A side's members standing count only those up: the fled unit is not standing.
        assert_eq!(s.sides[1].standing, vec![3, 0, 0]);
        // Merging splits of the same fights gives the same figures.
        let (mut head, mut tail) = (Stats::new(&shape()), Stats::new(&shape()));
        for (run, (end, tallies)) in fights.iter().enumerate() {
            let part = if run == 0 { &mut head } else { &mut tail };
            part.record(run as u64, end, tallies);
        }
        tail.merge(&head);
        assert_eq!(tail, s);
    }

    #[test]
    fn merging_in_any_split_gives_the_same_figures() {
        let outcomes: Vec<(Option<u8>, u32, bool)> = (0..50u32)
            .map(|i| match i % 4 {
                0 => (Some(0), i % 7, false),
                1 => (Some(1), i % 9 + 1, false),
                2 => (None, 10, true),
                _ => (None, 2, false),
            })
            .collect();
        let mut whole = Stats::new(&shape());
        for (i, &(w, r, st)) in outcomes.iter().enumerate() {
            fight(&mut whole, i as u64, w, r, st);
        }
        for split in [1usize, 7, 13, 49] {
            let mut merged = Stats::new(&shape());
            let mut parts = Vec::new();
            for (c, chunk) in outcomes.chunks(split).enumerate() {
                let mut part = Stats::new(&shape());
                for (j, &(w, r, st)) in chunk.iter().enumerate() {
                    fight(&mut part, (c * split + j) as u64, w, r, st);
                }
                parts.push(part);
            }
            // Merge in reverse to show the order does not matter.
            for part in parts.iter().rev() {
                merged.merge(part);
            }
            assert_eq!(merged, whole, "split {split}");
        }
    }
}
