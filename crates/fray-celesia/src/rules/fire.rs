//! On fire and Extinguish Flames (CEL-R11 Extinguish Flames: "When on fire, you can roll on the
//! ground or smother the fire with cloaks or similar objects to attempt another saving throw
//! with a +4 bonus. If the saving throw is successful, you are no longer on fire."). The seed
//! has no rule for catching fire, for the fire's damage or for the save and its DC: who is on
//! fire is the GM's word (`on_fire = true`, `cond WHO on-fire`), and what burning does is the
//! GM's `[options]` (`fire_damage`, `fire_save`, `fire_dc`), by default Pathfinder's Catching
//! on Fire: at the start of each of its turns a DC 15 Reflex save puts the fire out, a failed
//! one costs 1d6 fire damage. Extinguish Flames is a second save that turn, at +4.

use super::D20Check;
use crate::spell::Save;
use crate::state::State;
use crate::Celesia;
use fray_core::damage::DamageDice;
use fray_core::event::Event;
use fray_core::protocol::{Illegal, Interrupt, RollPurpose};
use fray_core::{CombatantId, Table};

/// The rule every burning is logged under.
pub const RULE: &str = "CEL-R11";

/// The condition's name in the log and the status.
pub const ON_FIRE: &str = "on fire";

/// CEL-R11 Extinguish Flames: "another saving throw with a +4 bonus".
pub const EXTINGUISH_BONUS: i32 = 4;

/// Most dice of a fire's damage the GM may set (`fire_damage`; a limit of fray's).
pub const MAX_FIRE_DICE: u16 = 20;

/// What burning does (the GM's `[options]`; the seed gives no numbers). [CEL-R11, CEL-G13]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fire {
    /// Damage a failed save costs, at the start of the burning creature's turn.
    pub damage: DamageDice,
    /// The save that puts the fire out.
    pub save: Save,
    /// Its DC.
    pub dc: i32,
}

impl Default for Fire {
    /// Pathfinder's Catching on Fire (a reading, docs/celesia.md *Readings*): 1d6, Reflex,
    /// DC 15.
    fn default() -> Self {
        Fire {
            damage: DamageDice {
                count: 1,
                sides: 6,
                bonus: 0,
            },
            save: Save::Reflex,
            dc: 15,
        }
    }
}

/// `who`'s bonus on `save`, and the kind of check it is for disadvantage (CEL-R4.5, R18).
pub fn save_bonus(state: &State, who: CombatantId, save: Save) -> (i32, super::CheckKind) {
    let kind = match save {
        Save::Will => super::CheckKind::Will,
        Save::Fort | Save::Reflex => super::CheckKind::Save,
    };
    (super::spell::save_bonus(state, who, save), kind)
}

/// The save against the fire (`extinguishing`: Extinguish Flames' at +4): whether it is out.
fn save_against_fire(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    extinguishing: bool,
) -> Result<bool, Interrupt> {
    let fire = state.options.fire;
    let (bonus, kind) = save_bonus(state, who, fire.save);
    let (modifier, purpose, bonus) = if extinguishing {
        let modifier = match fire.save {
            Save::Fort => "Fort with Extinguish Flames' +4",
            Save::Reflex => "Reflex with Extinguish Flames' +4",
            Save::Will => "Will with Extinguish Flames' +4",
        };
        (modifier, "extinguish flames", bonus + EXTINGUISH_BONUS)
    } else {
        (fire.save.name(), "burning", bonus)
    };
    let out = D20Check {
        purpose,
        modifier,
        bonus,
        dc: fire.dc,
        kind,
        results: ("the fire goes out", "still on fire"),
        rule: RULE,
    }
    .roll(state, table, who)?;
    if out {
        state.fm(who).on_fire = false;
        table.emit(|| Event::Condition {
            who,
            condition: ON_FIRE,
            gained: false,
            rule: RULE,
        });
    }
    Ok(out)
}

/// At the start of its turn a creature on fire saves (the GM's save and DC, by default
/// Reflex DC 15): success puts the fire out, failure costs the fire's damage (by default 1d6).
/// [CEL-R11 Extinguish Flames, reading of Pathfinder's Catching on Fire]
#[inline]
pub fn burn(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    // At every turn's start: this test inline in the caller, the burning out of line (issue 16).
    if !state.f(who).on_fire || state.f(who).absent() {
        return Ok(());
    }
    burning(state, table, who)
}

/// [`burn`], for a combatant on fire.
#[inline(never)]
fn burning(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    if save_against_fire(state, table, who, false)? {
        return Ok(());
    }
    let dice = state.options.fire.damage;
    let rolled = table.roll_damage(dice, Some(who), RollPurpose::Damage, RULE)?;
    let amount = (rolled + dice.bonus).max(0);
    super::injury::lose_hp(state, table, who, amount, "fire", RULE);
    Ok(())
}

/// Whether `who` may Extinguish Flames: it is on fire. [CEL-R11]
pub fn check(explain: bool, state: &State, who: CombatantId) -> Result<(), Illegal> {
    Illegal::unless(state.f(who).on_fire, explain, RULE, || {
        "it is not on fire".to_string()
    })
}

/// CEL-R11 Extinguish Flames (standard, Provoke): the action provokes, then another save
/// against the fire at +4; success: it is no longer on fire.
pub fn extinguish(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    if !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    if state.f(who).on_fire {
        save_against_fire(state, table, who, true)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use fray_core::driver::ScriptedDriver;
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;

    const HAL: CombatantId = CombatantId(0);

    /// Hal (fighter 3, Reflex +2, Will +1) on fire, with `options` TOML, far from the
    /// orc.
    fn burning(options: &str) -> State {
        let text = Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nreflex = 2\nwill = 1\non_fire = true"),
            )
            .monster("orc", "orcs", [9, 0], "orc")
            .text();
        let content = crate::content::Content::embedded().expect("content");
        crate::encounter::load("t.toml", &format!("{text}\n{options}"), &content)
            .unwrap_or_else(|e| panic!("{e}"))
            .state
    }

    /// Runs `step` on Hal with `dice`; every die must be used.
    fn run(
        state: &mut State,
        dice: Vec<u32>,
        step: fn(&mut State, &mut Table<'_, Celesia>, CombatantId) -> Result<(), Interrupt>,
    ) {
        let mut driver = ScriptedDriver::new(dice, Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        step(state, &mut table, HAL).expect("scripted dice");
    }

    /// The default reading: Reflex DC 15 at the turn's start; 14 fails and costs 1d6, 15 puts
    /// the fire out and costs nothing.
    #[test]
    fn burning_saves_reflex_dc_15_or_takes_1d6() {
        let mut s = burning("");
        assert_eq!(s.options.fire, Fire::default());
        let hp = s.f(HAL).hp;
        run(&mut s, vec![12, 5], burn);
        assert!(s.f(HAL).on_fire, "d20 12 + 2 = 14 < 15");
        assert_eq!(s.f(HAL).hp, hp - 5);
        run(&mut s, vec![13], burn);
        assert!(!s.f(HAL).on_fire, "d20 13 + 2 = 15");
        assert_eq!(s.f(HAL).hp, hp - 5);
        // Not on fire: no die is asked for.
        run(&mut s, vec![], burn);
        assert_eq!(s.f(HAL).hp, hp - 5);
    }

    /// Extinguish Flames is the fire's save at +4: d20 9 + 2 + 4 = 15 puts it out, 8 does not;
    /// it is refused when not on fire. With no foe near, nothing provokes.
    #[test]
    fn extinguishing_adds_4_to_the_save() {
        let mut s = burning("");
        run(&mut s, vec![8], extinguish);
        assert!(s.f(HAL).on_fire, "d20 8 + 6 = 14 < 15");
        run(&mut s, vec![9], extinguish);
        assert!(!s.f(HAL).on_fire, "d20 9 + 6 = 15");
        assert!(check(false, &s, HAL).is_err());
    }

    /// The GM's numbers: a Will save (+1) against DC 12 and 2d4 fire damage.
    #[test]
    fn the_gm_sets_the_save_its_dc_and_the_damage() {
        let mut s = burning("[options]\nfire_save = \"will\"\nfire_dc = 12\nfire_damage = \"2d4\"");
        let hp = s.f(HAL).hp;
        run(&mut s, vec![10, 3, 4], burn);
        assert!(s.f(HAL).on_fire, "d20 10 + 1 = 11 < 12");
        assert_eq!(s.f(HAL).hp, hp - 7);
        run(&mut s, vec![11], burn);
        assert!(!s.f(HAL).on_fire, "d20 11 + 1 = 12");
    }
}
