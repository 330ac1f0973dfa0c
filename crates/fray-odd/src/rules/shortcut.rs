//! The Normal Men shortcut (ODD-R10.3, ODD-A7, a mode the DM turns on with `[options]
//! shortcut`, ODD-G5): "figure out the percentage of attacks that hit 'normal types' … find the
//! average damage … and then calculate the number of normal types that would be killed each
//! round by the character". No die is rolled: the round's attacks against Normal Men become
//! that many kills, rounded up, never more than the Normal Men in reach.

use super::{attack, tables};
use crate::state::State;
use crate::Odd;
use fray_core::event::Event;
use fray_core::{CombatantId, Interrupt, Table};

/// ODD-R10.3: `n` attacks of `who` against Normal Men, starting with `t`, played by the
/// shortcut: P(hit) from its matrix against `t`'s armour and shield (after its to-hit bonus),
/// K from its weapon's average damage against their average hit points (a d6 per hit die,
/// ODD-R10.4); the kills fall on `t` first, then on the other Normal Men foes in melee with it,
/// in roster order.
pub fn strike(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    t: CombatantId,
    n: i32,
) -> Result<(), Interrupt> {
    let (pa, pt) = (state.p(who), state.p(t));
    let Some(form) = pa.melee.first() else {
        return Ok(());
    };
    let ((hit_bonus, _), (dmg_bonus, _)) = attack::ability_bonus(state, who, Some(form), false);
    let need = tables::need(pa.attack_ac9, pt.ac - pt.shield) - hit_bonus;
    let d = form.damage;
    let avg_damage = i32::from(d.count) * (i32::from(d.sides) + 1) * 5 + (d.bonus + dmg_bonus) * 10;
    let avg_hp = pt.level.max(1) * 35 + pt.plus * 10;
    let mut victims: Vec<CombatantId> = vec![t];
    victims.extend(state.ids().filter(|&o| {
        o != t
            && state.foes(who, o)
            && state.f(o).is_up()
            && state.p(o).normal_man
            && state.f(o).swallowed_by.is_none()
            && state.in_melee(who, o)
    }));
    let (expected, kills) =
        tables::shortcut_kills(n, need, avg_damage, avg_hp, victims.len() as i32);
    table.emit(|| Event::Acted {
        who,
        act: "uses the Normal Men shortcut on",
        on: Some(t),
        detail: format!(
            "{n} attacks × P(hit) {}/20 (needs {need}) × K ({:.1} damage against {:.1} hp) = \
             {expected:.1}: {kills} killed",
            (21 - need).clamp(1, 19),
            f64::from(avg_damage) / 10.0,
            f64::from(avg_hp) / 10.0,
        ),
        rule: "ODD-R10.3",
    });
    for &v in victims.iter().take(kills as usize) {
        let hp = state.f(v).hp;
        attack::damage(state, table, who, v, hp, 0, Vec::new(), "ODD-R10.3")?;
    }
    Ok(())
}
