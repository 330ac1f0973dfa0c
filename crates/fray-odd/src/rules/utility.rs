//! Weapon utility (ODD-R13, ODD-G13): the seed's notes are the DM's adjudication tags, not
//! numbers. The dagger's tight space is played inside a swallower (`legal`), blunt weapons
//! against skeletons by `weak_to` and `[options] utility_bonus` (`attack`), a spear's reach by
//! the reach classes (ODD-R20). Here: an axe chops at an object (`[[objects]]`: a hawser, a
//! wooden door) and the DM rules whether it is chopped through.

use crate::state::State;
use crate::{Choice, Odd};
use fray_core::event::Event;
use fray_core::protocol::{Chooser, Illegal, Question};
use fray_core::{CombatantId, Interrupt, Table};

/// The rule of an axe's chop.
const RULE: &str = "ODD-R13";

/// Reach of a chop: the object must be within melee distance, 10 ft (ODD-R17.1).
const CHOP_FT: i32 = 10;

/// The axe `who` can chop with (a melee weapon tagged `axe`), unless it was disarmed.
fn axe(state: &State, who: CombatantId) -> Option<&str> {
    if state.f(who).disarmed {
        return None;
    }
    let p = state.p(who);
    p.melee
        .iter()
        .chain(p.offhand.iter())
        .filter_map(|f| f.weapon.as_ref())
        .find(|w| w.has("axe"))
        .map(|w| w.name.as_str())
}

/// ODD-R13: whether `who` may chop at object `o` now: it holds an axe ("an axe is good for
/// chopping through hawser lines or wooden doors"), the object is within 10 ft and not yet
/// chopped through; not among a fighter's further attacks (`restricted`) nor in mass combat.
pub fn check_chop(
    explain: bool,
    state: &State,
    who: CombatantId,
    o: u8,
    restricted: bool,
) -> Result<(), Illegal> {
    let Some(thing) = state.objects.get(usize::from(o)) else {
        return Illegal::refuse(explain, RULE, || "no such object".to_string());
    };
    Illegal::unless(!restricted && !state.options.mass, explain, RULE, || {
        "no chopping now (its further attacks, or mass combat)".to_string()
    })?;
    Illegal::unless(axe(state, who).is_some(), explain, RULE, || {
        format!(
            "{} has no axe: an axe is the weapon for chopping through {}",
            state.roster.name(who),
            thing.name
        )
    })?;
    let feet = state.f(who).pos.feet_to(thing.pos);
    Illegal::unless(feet <= CHOP_FT, explain, RULE, || {
        format!(
            "{} is {feet} ft away: an axe chops only within {CHOP_FT} ft",
            thing.name
        )
    })?;
    Illegal::unless(!state.is_chopped(o), explain, RULE, || {
        format!("{} is chopped through already", thing.name)
    })
}

/// ODD-R13, ODD-G13: `who` chops at object `o` with its axe, its action for the round; the DM
/// rules whether it is chopped through (`chopped through`) or holds for now (`holds`: chop
/// again next round): the seed gives no number, so the time it takes is the DM's.
pub fn chop(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    o: u8,
) -> Result<(), Interrupt> {
    let thing = state.objects[usize::from(o)].name.clone();
    let weapon = axe(state, who).unwrap_or("axe").to_string();
    table.emit(|| Event::Acted {
        who,
        act: "chops",
        on: None,
        detail: format!("{thing}, with its {weapon} (an axe's use: the DM rules)"),
        rule: RULE,
    });
    let ruling = table.choose(state, Chooser::Gm, Question::Ruling, RULE, |out| {
        out.extend_from_slice(crate::choice::rulings(RULE));
    })?;
    let through = ruling == Choice::Chopped(true);
    if through {
        state.chopped |= 1u64 << o;
    }
    table.emit(|| Event::Acted {
        who,
        act: if through {
            "has chopped through"
        } else {
            "is not through yet"
        },
        on: None,
        detail: format!("{thing} (the DM's ruling)"),
        rule: RULE,
    });
    Ok(())
}
