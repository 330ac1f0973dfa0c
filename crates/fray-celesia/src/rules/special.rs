//! The scaling steps of the special attacks (CEL-R16) and Total Defense's bonus (CEL-R11), as
//! pure functions; they decide the worked examples CEL-E15 and CEL-E16. The options themselves
//! are played in `round` and `attack` (docs/celesia.md lists which).

/// CEL-R16: the step `k = 1 + floor(BAB / 4)` of Combat Expertise, Deadly Aim, Power Attack,
/// Precision Strike, Reckless Aim and Reckless Offense.
pub fn scaling_step(bab: i32) -> i32 {
    1 + bab.max(0) / 4
}

/// CEL-R16.10, CEL-A20: the step of special attack `sp` that `who` uses: BAB's (Martial
/// Power's own scale for it, CEL-R16.5), or the lower one it chose when the
/// `scaling_choose_lower` toggle allows it.
pub fn step_of(
    state: &crate::state::State,
    who: fray_core::CombatantId,
    sp: crate::state::Special,
) -> i32 {
    let k = if sp == crate::state::Special::MartialPower {
        martial_step(state.p(who).bab)
    } else {
        scaling_step(state.p(who).bab)
    };
    match state.f(who).special_steps[sp as usize] {
        0 => k,
        chosen => i32::from(chosen).min(k),
    }
}

/// CEL-R16: Martial Power's step: 1 below BAB 3, else `2 + floor((BAB − 3) / 2)`.
pub fn martial_step(bab: i32) -> i32 {
    if bab < 3 {
        1
    } else {
        2 + (bab - 3) / 2
    }
}

/// CEL-R16.6: Power Attack: (attack penalty, damage bonus); ×1.5 two-handed, ×0.5 off-hand.
pub fn power_attack(bab: i32, two_handed: bool, off_hand: bool) -> (i32, i32) {
    let k = scaling_step(bab);
    let damage = if two_handed {
        3 * k
    } else if off_hand {
        k
    } else {
        2 * k
    };
    (-k, damage)
}

/// CEL-R16.5: Martial Power: (attack penalty, temporary hit points); ×1.5 with a shield.
pub fn martial_power(bab: i32, shield: bool) -> (i32, i32) {
    let m = martial_step(bab);
    (-m, martial_power_temp_hp(m, shield))
}

/// CEL-R16.5: Martial Power's temporary hit points at a step: 2 per step, 3 with a shield.
pub fn martial_power_temp_hp(step: i32, shield: bool) -> i32 {
    if shield {
        3 * step
    } else {
        2 * step
    }
}

/// CEL-R11 Total Defense: +5 + floor(BAB / 2) DV.
pub fn total_defense(bab: i32) -> i32 {
    5 + bab.max(0) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_follow_the_spec_tables() {
        let k: Vec<i32> = [0, 1, 3, 4, 7, 8, 11, 12, 16, 20]
            .map(scaling_step)
            .to_vec();
        assert_eq!(k, vec![1, 1, 1, 2, 2, 3, 3, 4, 5, 6]);
        let m: Vec<i32> = [0, 2, 3, 4, 5, 6, 7, 8, 19, 20].map(martial_step).to_vec();
        assert_eq!(m, vec![1, 1, 2, 2, 3, 3, 4, 4, 10, 10]);
    }

    /// CEL-E15: BAB +8 greatsword Power Attack −3/+9; Martial Power with a shield −4/12 temp HP.
    #[test]
    fn e15_special_attack_scaling() {
        assert_eq!(power_attack(8, true, false), (-3, 9));
        assert_eq!(martial_power(8, true), (-4, 12));
    }

    /// CEL-R16.2, R16.4, R16.5: Combat Expertise and Martial Power are chosen up to the first
    /// melee attack of the turn ("the first time you declare that you are making an attack with
    /// a melee weapon"), so a shot before it leaves them open; Lunge is chosen "before any
    /// attacks are made", a shot included.
    #[test]
    fn a_shot_leaves_combat_expertise_and_martial_power_open_not_lunge() {
        use crate::choice::Choice;
        use crate::fixture::Fixture;
        use crate::rules::legal::check_action;
        use crate::state::{Special, State};
        use fray_core::CombatantId;
        let mut s = Fixture::new()
            .with(
                "hal",
                "h",
                [0, 0],
                "class = \"fighter\"\nlevel = 6\nhp = 40\nweapon = \"longsword\"\n\
                 ranged = \"shortbow\"\nknows_maneuver = true\n\
                 scores = { str = 14, dex = 12, con = 14, int = 14 }",
            )
            .monster("orc", "o", [1, 0], "orc")
            .state();
        let hal = CombatantId(0);
        s.fm(hal).acts_left = 2;
        s.fm(hal).attacks_this_turn = 1;
        let legal = |s: &State, sp| check_action(true, s, hal, &Choice::Special(sp));
        assert!(legal(&s, Special::CombatExpertise).is_ok());
        assert!(legal(&s, Special::MartialPower).is_ok());
        assert!(
            legal(&s, Special::Lunge).is_err(),
            "Lunge: before any attack"
        );
        s.fm(hal).melee_attacked = true;
        for sp in [Special::CombatExpertise, Special::MartialPower] {
            let no = legal(&s, sp).expect_err("after a melee attack");
            assert!(no.to_string().contains("first melee attack"), "{no}");
        }
    }

    /// CEL-E16: BAB +7: Total Defense +8 DV.
    #[test]
    fn e16_total_defense() {
        assert_eq!(total_defense(7), 8);
    }
}
