//! Degrees of success for spells, saving throws and Aid Another as pure functions (CEL-R6).
//! Aid Another uses them in fights (`rules::aid`); spells are not cast in fights yet (see
//! docs/celesia.md); these decide the seed's worked examples CEL-E2 to E7 and CEL-E10.

/// CEL-R6.1: +1 caster level per full 10 a spell's attack roll beats the DV by (on a hit).
pub fn spell_attack_delta(attack: i32, dv: i32) -> i32 {
    if attack >= dv {
        (attack - dv) / 10
    } else {
        0
    }
}

/// CEL-R6.2: +1 caster level per full 10 the save falls under the DC; −1 per full 10 it beats
/// (or meets) it.
pub fn save_delta(save: i32, dc: i32) -> i32 {
    if save < dc {
        (dc - save) / 10
    } else {
        -((save - dc) / 10)
    }
}

/// CEL-R6.3, A16: the effective caster level from both, at least 1.
pub fn effective_caster_level(
    cl: i32,
    attack: Option<(i32, i32)>,
    save: Option<(i32, i32)>,
) -> i32 {
    let a = attack.map_or(0, |(roll, dv)| spell_attack_delta(roll, dv));
    let s = save.map_or(0, |(roll, dc)| save_delta(roll, dc));
    (cl + a + s).max(1)
}

/// CEL-R6.4, A17: Aid Another against DV 10: +1, and +1 per full 10 above; a miss by 1–9 does
/// nothing; −1 per full 10 below.
pub fn aid_bonus(roll: i32, dc: i32) -> i32 {
    if roll >= dc {
        1 + (roll - dc) / 10
    } else {
        -((dc - roll) / 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CEL-E2: CL 2 shocking grasp, touch attack 22 vs touch DV 11: CL 3, 3d6.
    #[test]
    fn e2_shocking_grasp() {
        assert_eq!(effective_caster_level(2, Some((22, 11)), None), 3);
    }

    /// CEL-E3, E4: fireball CL 7, DC 17: a save of 4 makes it CL 8 (8d6); 28 makes it CL 6.
    #[test]
    fn e3_e4_fireball() {
        assert_eq!(effective_caster_level(7, None, Some((4, 17))), 8);
        assert_eq!(effective_caster_level(7, None, Some((28, 17))), 6);
    }

    /// CEL-E5–E7: ray of enfeeblement CL 6, DC 15, touch DV 10.
    #[test]
    fn e5_e6_e7_ray_of_enfeeblement() {
        assert_eq!(effective_caster_level(6, Some((20, 10)), Some((4, 15))), 8);
        assert_eq!(effective_caster_level(6, Some((11, 10)), Some((25, 15))), 5);
        assert_eq!(effective_caster_level(6, Some((11, 10)), Some((16, 15))), 6);
    }

    /// CEL-E10: an aid roll of 20 against DV 10 gives +2; CEL-A17 below.
    #[test]
    fn e10_aid_another() {
        assert_eq!(aid_bonus(20, 10), 2);
        assert_eq!(aid_bonus(10, 10), 1);
        assert_eq!(aid_bonus(5, 10), 0);
        assert_eq!(aid_bonus(0, 10), -1);
    }
}
