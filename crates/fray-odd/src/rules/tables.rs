//! The seed's numbers and formulas as pure functions, unit-tested against the worked examples
//! they decide (ODD-E1 … E22).

/// ODD-R2.4: the chance (1..=E on a d6) that a party that surprises on 1–`surprises_on` surprises
/// one that is surprised on 1–`surprised_on`: `S_A + (s_B − 2)`, clamped to 0..6 (ODD-A2).
pub fn surprise_chance(surprises_on: i32, surprised_on: i32) -> i32 {
    (surprises_on + surprised_on - 2).clamp(0, 6)
}

/// ODD-A1: the roll needed to hit AC `ac` (descending) from the matrix's need against AC 9:
/// one more per AC point better than 9.
pub fn need(attack_ac9: i32, ac: i32) -> i32 {
    attack_ac9 + (9 - ac)
}

/// ODD-A1: a monster's matrix row: hit dice in tenths (a "+" adds 5).
pub fn monster_hd_tenths(hd: i32, plus: i32) -> i32 {
    hd * 10 + if plus > 0 { 5 } else { 0 }
}

/// ODD-R10.1, R10.2: melee attacks per round against Normal Men: a fighter-type's level; a
/// monster of more than 1 HD its HD (pluses ignored); else its routine.
pub fn attacks_vs_normal_men(fighter_type: bool, monster: bool, level_or_hd: i32) -> i32 {
    if fighter_type || (monster && level_or_hd > 1) {
        level_or_hd.max(1)
    } else {
        1
    }
}

/// ODD-R4.6, ODD-A8: `n` attacks split into ceil(n/2) at the start of the round and floor(n/2)
/// at its end.
pub fn split_attacks(n: i32) -> (i32, i32) {
    ((n + 1) / 2, n / 2)
}

/// ODD-R10.3 (the shortcut, ODD-A7): expected kills per round in tenths, and rounded up:
/// attacks × P(hit) × K, P(hit) = (21 − need)/20 clamped to [1/20, 19/20], K = 1 when the average
/// damage (tenths) is at least the average hit points (tenths), else their ratio; never more
/// than the foes present.
pub fn shortcut_kills(
    attacks: i32,
    need: i32,
    avg_damage_tenths: i32,
    avg_hp_tenths: i32,
    foes: i32,
) -> (f64, i32) {
    let p = (f64::from(21 - need) / 20.0).clamp(0.05, 0.95);
    let k = if avg_damage_tenths >= avg_hp_tenths {
        1.0
    } else {
        f64::from(avg_damage_tenths) / f64::from(avg_hp_tenths.max(1))
    };
    let expected = f64::from(attacks) * p * k;
    let rounded = ((expected - 1e-9).ceil() as i32).min(foes).max(0);
    (expected, rounded)
}

/// ODD-R12.3: a natural 20 is a critical hit unless the target could be hit only on a 19 or 20.
pub fn natural_20_critical(need: i32) -> bool {
    need < 19
}

/// ODD-R12.2, ODD-A22: a natural 20 against a need over 20 takes `need − 20` off the damage
/// total (minimum 0).
pub fn natural_20_damage(damage: i32, need: i32) -> i32 {
    (damage - (need - 20).max(0)).max(0)
}

/// ODD-R11.2: after a natural 1, a d20 over the attacker's level (or HD) is a critical fumble.
pub fn fumbles(level_or_hd: i32, d20: i32) -> bool {
    d20 > level_or_hd
}

/// How a move with an attack counts (ODD-R16.1, R26.1, R26.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveKind {
    /// Up to half the Turn movement: move and attack normally.
    Normal,
    /// More than half, up to the full Turn movement: a charge.
    Charge,
    /// More than the Turn movement.
    TooFar,
}

/// ODD-R26.1, R26.2: a move of `moved` (any unit) with an attack, for Turn movement `turn`.
pub fn move_kind(moved: i32, turn: i32) -> MoveKind {
    if 2 * moved <= turn {
        MoveKind::Normal
    } else if moved <= turn {
        MoveKind::Charge
    } else {
        MoveKind::TooFar
    }
}

/// ODD-R26.8: the lance's charging dice (count of d6, before × 2): 2 against man-sized foes, 3
/// against large creatures.
pub fn lance_dice(large_target: bool) -> u16 {
    if large_target {
        3
    } else {
        2
    }
}

/// The result of a grapple (ODD-R28.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grapple {
    /// Pinned helplessly.
    Pinned,
    /// On its feet, struggling, unable to use its weapon.
    Struggling,
    /// Throws them off; they are stunned for this many rounds.
    ThrowsOff(i32),
}

/// ODD-R28.3: the defender's d6 total against the grapplers' combined total.
pub fn grapple(defender: i32, grapplers: i32) -> Grapple {
    use std::cmp::Ordering::*;
    match defender.cmp(&grapplers) {
        Less => Grapple::Pinned,
        Equal => Grapple::Struggling,
        Greater => Grapple::ThrowsOff(defender - grapplers),
    }
}

/// ODD-R31.6: men alive in a unit of `figures` with `hp` of `original` hit points:
/// ceil(hp / (original / N)) = ceil(hp × N / original), 0 at 0 hp or less.
pub fn men_alive(hp: i32, original: i32, figures: u32) -> u32 {
    if hp <= 0 || original <= 0 {
        return 0;
    }
    let n = i64::from(figures);
    let alive = (i64::from(hp) * n + i64::from(original) - 1) / i64::from(original);
    alive.clamp(0, n) as u32
}

/// ODD-R31.4, ODD-A17: the hit points a unit of `figures` men takes off on a hit: d6 × N.
pub fn unit_hit(d6: i32, figures: u32) -> i32 {
    d6 * figures as i32
}

/// ODD-R25.1, R25.2: the defender's Save vs Paralysis bonus: +1 per full 3 levels above the
/// attacker.
pub fn level_gap_bonus(defender: i32, attacker: i32) -> i32 {
    (defender - attacker).max(0) / 3
}

/// ODD-R30.7, ODD-A36: rounds for a pursuer to catch a quarry `gap` away (same unit as the
/// speeds), at running speeds; `None` when it is not faster. Caught at a gap of 10 or less.
pub fn rounds_to_catch(gap: i32, pursuer: i32, quarry: i32) -> Option<i32> {
    let closing = pursuer - quarry;
    if gap <= 10 {
        return Some(0);
    }
    (closing > 0).then(|| (gap - 10 + closing - 1) / closing)
}

/// ODD-R5.4 (b), (c), ODD-R31.8: the morale triggers a group's losses give: (first death,
/// half down) for `dead` dead and `out` dead or incapacitated of `size`.
pub fn morale_triggers(dead: u32, out: u32, size: u32) -> (bool, bool) {
    (dead >= 1, size > 0 && 2 * out >= size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e1_e3_attacks_against_normal_men() {
        assert_eq!(attacks_vs_normal_men(true, false, 3), 3);
        assert_eq!(attacks_vs_normal_men(false, true, 6), 6);
        assert_eq!(attacks_vs_normal_men(false, true, 1), 1);
        assert_eq!(attacks_vs_normal_men(false, false, 5), 1);
        assert_eq!(split_attacks(3), (2, 1));
        assert_eq!(split_attacks(8), (4, 4));
    }

    #[test]
    fn e2_the_eighth_level_fighter_shortcut() {
        let (expected, rounded) = shortcut_kills(8, 7, 45, 35, 20);
        assert!((expected - 5.6).abs() < 1e-9);
        assert_eq!(rounded, 6);
        assert_eq!(shortcut_kills(8, 7, 45, 35, 4).1, 4);
    }

    #[test]
    fn e4_e5_e6_natural_rolls() {
        assert_eq!(natural_20_damage(5, 22), 3);
        assert_eq!(natural_20_damage(2, 22), 0);
        assert!(!natural_20_critical(22));
        assert!(!natural_20_critical(19));
        assert!(natural_20_critical(18));
        assert!(!fumbles(3, 3));
        assert!(fumbles(3, 4));
    }

    #[test]
    fn e7_e8_charges_and_lances() {
        assert_eq!(move_kind(3, 6), MoveKind::Normal);
        assert_eq!(move_kind(4, 6), MoveKind::Charge);
        assert_eq!(move_kind(6, 6), MoveKind::Charge);
        assert_eq!(move_kind(7, 6), MoveKind::TooFar);
        assert_eq!(lance_dice(false), 2);
        assert_eq!(lance_dice(true), 3);
    }

    #[test]
    fn e9_grapples() {
        assert_eq!(grapple(11, 7), Grapple::ThrowsOff(4));
        assert_eq!(grapple(7, 7), Grapple::Struggling);
        assert_eq!(grapple(6, 7), Grapple::Pinned);
    }

    #[test]
    fn e10_to_e13_surprise_combinations() {
        assert_eq!(surprise_chance(5, 2), 5);
        assert_eq!(surprise_chance(5, 1), 4);
        assert_eq!((surprise_chance(5, 2), surprise_chance(4, 2)), (5, 4));
        assert_eq!((surprise_chance(5, 1), surprise_chance(4, 2)), (4, 4));
        assert_eq!(surprise_chance(2, 2), 2);
    }

    #[test]
    fn e14_e15_e22_mass_combat() {
        assert_eq!(men_alive(4, 40, 10), 1);
        assert_eq!(men_alive(8, 40, 10), 2);
        assert_eq!(men_alive(5, 40, 10), 2);
        assert_eq!(men_alive(40, 40, 10), 10);
        assert_eq!(men_alive(0, 40, 10), 0);
        assert_eq!(unit_hit(4, 10), 40);
        assert_eq!(unit_hit(4, 5), 20);
        // E22: 35 hp, hit for 2 × 10 = 20: 15 left, ceil(15 / 3.5) = 5 alive, 5 dead.
        let alive = men_alive(35 - unit_hit(2, 10), 35, 10);
        assert_eq!(alive, 5);
        assert_eq!(morale_triggers(10 - alive, 10 - alive, 10), (true, true));
    }

    #[test]
    fn e18_e21_saves_and_pursuit() {
        assert_eq!(level_gap_bonus(7, 1), 2);
        assert_eq!(level_gap_bonus(1, 7), 0);
        assert_eq!(rounds_to_catch(60, 120, 90), Some(2));
        assert_eq!(rounds_to_catch(60, 90, 90), None);
    }

    #[test]
    fn e20_morale_triggers() {
        assert_eq!(morale_triggers(1, 1, 6), (true, false));
        assert_eq!(morale_triggers(2, 3, 6), (true, true));
        assert_eq!(morale_triggers(1, 1, 2), (true, true));
        assert_eq!(morale_triggers(0, 2, 5), (false, false));
        assert_eq!(morale_triggers(0, 3, 5), (false, true));
    }

    #[test]
    fn the_matrix() {
        assert_eq!(need(5, 7), 7);
        assert_eq!(need(10, 2), 17);
        assert_eq!(monster_hd_tenths(6, 3), 65);
        assert_eq!(monster_hd_tenths(1, -1), 10);
    }
}
