//! Ammunition, loading and splash weapons (CEL-R9, R11–R14 "Load …", "Draw or Sheathe",
//! "Prepare a Flask of Oil", "Draw and Nock an Arrow"; CEL-R7.3 the stray shot of a firearm or
//! splash weapon). A combatant's `ammo` counts the ammunition (or thrown weapons) it carries for
//! its ranged weapon where its entry gives it; drawing a piece for a shot is free and provokes
//! nothing (CEL-R9), so it is part of the shot, which is refused when none is left. A weapon with
//! `load` (a crossbow, a firearm) shoots only what is loaded in it: `load` puts one bolt, barrel
//! or cartridge in (a repeating crossbow's case of 5), at the cost its rule gives.

use super::round;
use crate::choice::Choice;
use crate::content::{Hands, Loading, Weapon, WeaponKind};
use crate::state::{Item, Profile, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// CEL-R9 Load a Martial Firearm: "limited to up to three cartridges during your turn" with
/// Rapid Reload.
pub const RAPID_CARTRIDGES: u8 = 3;

/// The rule that says how `w` is loaded. [CEL-R9, R11, R12, R13]
pub fn load_rule(w: &Weapon) -> &'static str {
    match w.load {
        Loading::None | Loading::LightCrossbow | Loading::MartialFirearm => "CEL-R9",
        Loading::HeavyCrossbow | Loading::RepeatingCrossbow => "CEL-R11",
        Loading::SimpleFirearm if w.hands == Hands::Two => "CEL-R13",
        Loading::SimpleFirearm => "CEL-R12",
    }
}

/// Acts a load of `w` costs for `p`, or `None` when it is a 1-round action (a two-handed simple
/// firearm without Rapid Reload or a cartridge, CEL-R13). [CEL-R9, R11, R12, R13]
pub fn load_acts(p: &Profile, w: &Weapon) -> Option<i32> {
    let rapid = p.feats.rapid_reload;
    match w.load {
        Loading::None => Some(0),
        // CEL-R9: simple; "If you have the Rapid Reload feat … this is a free action."
        Loading::LightCrossbow | Loading::MartialFirearm => Some(if rapid { 0 } else { 1 }),
        // CEL-R11: standard; "reduced to a simple action" with Rapid Reload.
        Loading::HeavyCrossbow | Loading::RepeatingCrossbow => Some(if rapid { 1 } else { 2 }),
        Loading::SimpleFirearm => {
            // Rapid Reload or a cartridge: one step less; both: two steps less.
            let steps = i32::from(rapid) + i32::from(p.cartridges);
            if w.hands == Hands::Two {
                // CEL-R13: 1-round; full; standard.
                match steps {
                    0 => None,
                    1 => Some(3),
                    _ => Some(2),
                }
            } else {
                // CEL-R12: full; standard; simple.
                Some(3 - steps)
            }
        }
    }
}

/// Reads an entry's `ammo` and `loaded` against its profile: the ammunition counted (`None`:
/// not counted) and what its ranged weapon holds loaded at the start (full unless `loaded`
/// says less). `Err` names the key and what is wrong.
pub fn start(
    p: &Profile,
    ammo: Option<i32>,
    loaded: Option<i32>,
) -> Result<(Option<u16>, u8), (&'static str, String)> {
    let Some(w) = &p.ranged else {
        if ammo.is_some() {
            return Err((
                "ammo",
                "it has no ranged weapon to count ammunition for".into(),
            ));
        }
        if loaded.is_some() {
            return Err(("loaded", "it has no ranged weapon to load".into()));
        }
        return Ok((None, 0));
    };
    let counted = ammo.map(|n| n.clamp(0, i32::from(u16::MAX)) as u16);
    if w.load == Loading::None {
        if loaded.is_some() {
            return Err((
                "loaded",
                format!("its {} is not loaded (it has no `load`)", w.name),
            ));
        }
        if super::thrown::lands(w) {
            return super::thrown::supply(w, ammo).map(|n| (Some(n), 0));
        }
        return Ok((counted, 0));
    }
    let n = loaded.unwrap_or(i32::from(w.capacity));
    if n > i32::from(w.capacity) {
        return Err((
            "loaded",
            format!("its {} holds at most {} loaded", w.name, w.capacity),
        ));
    }
    Ok((counted, n as u8))
}

/// The form number of `coup-de-grace WHO ranged`: the ranged weapon. [CEL-R12]
pub const RANGED_FORM: u8 = u8::MAX;

/// CEL-R12 Coup de Grace: "You can also use a bow, crossbow or firearm, provided you are
/// adjacent to the target": a projectile weapon that is loaded (crossbows, firearms) or is a bow
/// (a sling is neither).
pub fn coup_de_grace_weapon(w: &Weapon) -> bool {
    w.kind == WeaponKind::Projectile && (w.load != Loading::None || w.name.ends_with("bow"))
}

/// The weapon `who` would deliver a coup de grace to `target` with: melee form `form` if it
/// reaches; with [`RANGED_FORM`], its bow, crossbow or firearm if `target` is adjacent. [CEL-R12]
pub fn coup_weapon(
    state: &State,
    who: CombatantId,
    target: CombatantId,
    form: u8,
) -> Option<&Weapon> {
    if form != RANGED_FORM {
        return state.form_reaching(who, target, usize::from(form));
    }
    state
        .ranged_weapon(who)
        .filter(|w| coup_de_grace_weapon(w) && state.gap(who, target) == 1)
}

/// Whether `who` may shoot (or throw) `w` now as far as its ammunition goes. [CEL-R9, R11]
pub fn check_shot(
    explain: bool,
    state: &State,
    who: CombatantId,
    w: &Weapon,
) -> Result<(), Illegal> {
    let f = state.f(who);
    if w.load != Loading::None {
        return Illegal::unless(f.loaded > 0, explain, load_rule(w), || {
            format!("its {} is not loaded: `load` it first", w.name)
        });
    }
    if f.ammo == Some(0) {
        return no(explain, "CEL-R9", || {
            if w.kind == WeaponKind::Thrown && !f.thrown.is_empty() {
                // CEL-R7.3: the thrown ones lie where they landed (`rules::thrown`).
                format!(
                    "it has no {} left to throw (`ammo` counted them): those thrown lie where \
                     they landed until picked up (`pick-up ranged`)",
                    w.name
                )
            } else if w.kind == WeaponKind::Thrown {
                format!("it has no {} left to throw (`ammo` counted them)", w.name)
            } else {
                format!(
                    "it has no ammunition left for its {} to draw (`ammo` counted it)",
                    w.name
                )
            }
        });
    }
    if w.splash && !f.prepared {
        return no(explain, "CEL-R11", || {
            format!(
                "its {} is not prepared with a fuse: `prepare` it first (standard)",
                w.name
            )
        });
    }
    Ok(())
}

/// A shot spends what it shoots: a loaded round, or a piece of the ammunition counted (drawn
/// as a free action without provoking, CEL-R9; an arrow nocked likewise, CEL-R14); a splash
/// weapon's fuse is used up.
pub fn spend_shot(state: &mut State, who: CombatantId) {
    let Some(w) = state.p(who).ranged.as_ref() else {
        return;
    };
    let (load, splash) = (w.load, w.splash);
    let f = state.fm(who);
    if load != Loading::None {
        f.loaded = f.loaded.saturating_sub(1);
    } else if let Some(n) = f.ammo.as_mut() {
        *n = n.saturating_sub(1);
    }
    if splash {
        f.prepared = false;
    }
}

/// What `who`'s ranged weapon has left, for its controller and the GM only (an `ammunition`
/// event): a foe's remaining shots are not seen across the table. [CEL-R9]
#[inline]
pub fn report(state: &State, table: &mut Table<'_, Celesia>, who: CombatantId, rule: &'static str) {
    // After every shot; only an event, so nothing to work out when no log is kept (issue 16).
    if table.events_enabled() {
        report_kept(state, table, who, rule);
    }
}

/// [`report`], when the log is kept.
#[inline(never)]
fn report_kept(
    state: &State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    rule: &'static str,
) {
    let Some(w) = state.p(who).ranged.as_ref() else {
        return;
    };
    let f = state.f(who);
    let loaded = (w.load != Loading::None).then_some((f.loaded, w.capacity));
    let left = f.ammo;
    if loaded.is_some() || left.is_some() {
        table.emit(|| Event::Ammunition {
            who,
            weapon: w.name.clone(),
            loaded,
            left,
            rule,
        });
    }
}

/// The Load and Prepare options of `who`.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if let Some(w) = state.p(who).ranged.as_ref() {
        if w.load != Loading::None {
            out.push(Choice::Load);
        }
        if w.splash {
            out.push(Choice::Prepare);
        }
    }
}

/// Acts the choice costs (Load by its weapon; a 1-round load is `rules::one_round`'s).
pub fn acts(state: &State, who: CombatantId, choice: &Choice) -> i32 {
    match choice {
        Choice::Load => state
            .p(who)
            .ranged
            .as_ref()
            .and_then(|w| load_acts(state.p(who), w))
            .unwrap_or(3),
        Choice::Prepare => 2,
        _ => choice.acts(),
    }
}

/// Whether `who` may Load (or Prepare a flask) now. [CEL-R9, R11–R13]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let p = state.p(who);
    let f = state.f(who);
    let Some(w) = p.ranged.as_ref() else {
        return no(explain, "CEL-R9", || "it has no ranged weapon".to_string());
    };
    if state.dropped(who, Item::Ranged) {
        return no(explain, "CEL-R10.3", || {
            format!("it no longer has its {} (dropped: pick it up)", w.name)
        });
    }
    if state.sheathed(who, Item::Ranged) {
        return no(explain, "CEL-R9", || {
            format!("its {} is put away: draw it first", w.name)
        });
    }
    if *choice == Choice::Prepare {
        if !w.splash {
            return no(explain, "CEL-R11", || {
                format!("its {} is not a splash weapon", w.name)
            });
        }
        if f.ammo == Some(0) {
            return no(explain, "CEL-R11", || format!("it has no {} left", w.name));
        }
        return Illegal::unless(!f.prepared, explain, "CEL-R11", || {
            format!("its {} is prepared already", w.name)
        });
    }
    let rule = load_rule(w);
    if w.load == Loading::None {
        return no(explain, "CEL-R14", || {
            format!(
                "its {} is not loaded: each shot draws (or nocks) its ammunition as a free action",
                w.name
            )
        });
    }
    if f.loaded >= w.capacity {
        return no(explain, rule, || {
            format!(
                "its {} is loaded already ({} of {})",
                w.name, f.loaded, w.capacity
            )
        });
    }
    if f.ammo == Some(0) {
        return no(explain, rule, || {
            format!("it has no ammunition left to load its {} with", w.name)
        });
    }
    if w.load == Loading::MartialFirearm && p.feats.rapid_reload && f.free_loads >= RAPID_CARTRIDGES
    {
        return no(explain, "CEL-R9", || {
            "with Rapid Reload it loads at most three cartridges a turn".to_string()
        });
    }
    Ok(())
}

/// CEL-R13 Load a Two-Handed Simple Firearm, without Rapid Reload or a cartridge: a 1-round
/// action (`rules::one_round` plays it: 3 acts or split, no reactions, loaded at the start of the
/// next turn).
#[inline]
pub fn one_round_load(state: &State, who: CombatantId, choice: &Choice) -> bool {
    // `matches!`, not `==`: the derived comparison is a call (asked for every choice's cost and
    // legality; issue 16).
    matches!(choice, Choice::Load)
        && state
            .p(who)
            .ranged
            .as_ref()
            .is_some_and(|w| w.load != Loading::None && load_acts(state.p(who), w).is_none())
}

/// The 1-round load completes: the barrel is loaded (it provoked when it began). [CEL-R13]
pub fn complete_load(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    _: Choice,
) -> Result<(), Interrupt> {
    put_in(state, table, who);
    Ok(())
}

/// Loads `who`'s ranged weapon (or prepares its flask): the action provokes (every Load and the
/// flask have the Provoke subtype, whatever they cost), then a bolt, barrel or cartridge goes
/// in — a repeating crossbow takes a case of up to 5 — from the ammunition counted.
pub fn perform(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    choice: Choice,
) -> Result<(), Interrupt> {
    let Some(w) = state.p(who).ranged.clone() else {
        return Ok(());
    };
    if !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    if choice == Choice::Prepare {
        state.fm(who).prepared = true;
        table.emit(|| Event::Acted {
            who,
            act: "prepares",
            on: None,
            detail: format!("{} with a fuse, to throw as a splash weapon", w.name),
            rule: "CEL-R11",
        });
        return Ok(());
    }
    put_in(state, table, who);
    Ok(())
}

/// A bolt, barrel or cartridge goes into `who`'s ranged weapon (a repeating crossbow: a case of
/// up to 5), from the ammunition counted.
fn put_in(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    let Some(w) = state.p(who).ranged.clone() else {
        return;
    };
    let free = load_acts(state.p(who), &w) == Some(0);
    let rule = load_rule(&w);
    {
        let f = state.fm(who);
        let room = w.capacity.saturating_sub(f.loaded);
        let case = if w.load == Loading::RepeatingCrossbow {
            room
        } else {
            1.min(room)
        };
        let n = match f.ammo {
            Some(a) => case.min(a.min(255) as u8),
            None => case,
        };
        f.loaded += n;
        if let Some(a) = f.ammo.as_mut() {
            *a -= u16::from(n);
        }
        if free && w.load == Loading::MartialFirearm {
            f.free_loads += 1;
        }
    }
    table.emit(|| Event::Acted {
        who,
        act: "loads",
        on: None,
        detail: format!(
            "{}{}",
            w.name,
            if free {
                " (Rapid Reload: a free action)"
            } else {
                ""
            }
        ),
        rule,
    });
    report(state, table, who, rule);
}

/// CEL-R7.3 step 4 for firearms and splash weapons: a firearm's stray shot flies to the end of
/// its current range increment and four more, or to its maximum range (5 increments simple, 10
/// martial), whichever comes first; a splash weapon's by the GM's `splash_stray_increments`
/// (the seed names it an exception and gives no distance), likewise capped; every other weapon
/// stops at the end of its current increment (`stray::travel_ft`).
pub fn stray_travel_ft(state: &State, w: &Weapon, target_ft: i32) -> i32 {
    let current = super::stray::travel_ft(w.range, target_ft);
    let more = if w.load.firearm() {
        4
    } else if w.splash {
        state.options.splash_stray_increments
    } else {
        0
    };
    if more == 0 {
        return current;
    }
    (current + more * w.range).min(w.max_range().max(current))
}

/// The default tactics' use of this module: load a weapon that is empty when it would shoot.
pub fn tactic(state: &State, who: CombatantId) -> Option<Choice> {
    let w = state.ranged_weapon(who)?;
    let empty = (w.load != Loading::None && state.f(who).loaded == 0)
        || (w.splash && !state.f(who).prepared);
    let choice = if w.splash {
        Choice::Prepare
    } else {
        Choice::Load
    };
    (empty && super::legal::check_action(false, state, who, &choice).is_ok()).then_some(choice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;

    fn weapon(name: &str) -> Weapon {
        Content::embedded()
            .expect("content")
            .weapons
            .get(name)
            .expect(name)
            .clone()
    }

    fn duel() -> State {
        use crate::fixture::{Fixture, FIGHTER};
        Fixture::new()
            .with("a", "x", [0, 0], FIGHTER)
            .with("b", "y", [1, 0], FIGHTER)
            .state()
    }

    fn profile(rapid: bool, cartridges: bool) -> Profile {
        let mut p = duel().p(CombatantId(0)).clone();
        p.feats.rapid_reload = rapid;
        p.cartridges = cartridges;
        p
    }

    #[test]
    fn load_costs_follow_the_seed() {
        let pistol = weapon("pistol");
        let musket = weapon("musket");
        // CEL-R12: one-handed simple firearm: full, standard, simple.
        assert_eq!(load_acts(&profile(false, false), &pistol), Some(3));
        assert_eq!(load_acts(&profile(true, false), &pistol), Some(2));
        assert_eq!(load_acts(&profile(false, true), &pistol), Some(2));
        assert_eq!(load_acts(&profile(true, true), &pistol), Some(1));
        // CEL-R13: two-handed: 1-round, full, standard.
        assert_eq!(load_acts(&profile(false, false), &musket), None);
        assert_eq!(load_acts(&profile(false, true), &musket), Some(3));
        assert_eq!(load_acts(&profile(true, true), &musket), Some(2));
        // CEL-R9, R11: crossbows and martial firearms.
        assert_eq!(
            load_acts(&profile(false, false), &weapon("light crossbow")),
            Some(1)
        );
        assert_eq!(
            load_acts(&profile(true, false), &weapon("hand crossbow")),
            Some(0)
        );
        assert_eq!(
            load_acts(&profile(false, false), &weapon("heavy crossbow")),
            Some(2)
        );
        assert_eq!(
            load_acts(&profile(true, false), &weapon("repeating crossbow")),
            Some(1)
        );
        assert_eq!(
            load_acts(&profile(false, false), &weapon("revolver")),
            Some(1)
        );
        assert_eq!(load_acts(&profile(true, false), &weapon("rifle")), Some(0));
    }

    #[test]
    fn firearm_stray_shots_fly_four_increments_more_up_to_the_maximum() {
        let state = duel();
        // A pistol (simple, 20 ft increments, maximum 100 ft) shot at 30 ft: the increment
        // ends at 40 ft, four more reach 120 ft, the maximum stops it at 100 ft.
        assert_eq!(stray_travel_ft(&state, &weapon("pistol"), 30), 100);
        // A rifle (martial, 80 ft, maximum 800 ft) at 30 ft: 80 + 320 = 400 ft.
        assert_eq!(stray_travel_ft(&state, &weapon("rifle"), 30), 400);
        // A longbow stops at the end of its increment; a flask of oil (10 ft, maximum 50 ft)
        // thrown 5 ft flies to 10 + 40 = 50 ft by default.
        assert_eq!(stray_travel_ft(&state, &weapon("longbow"), 30), 100);
        assert_eq!(stray_travel_ft(&state, &weapon("flask of oil"), 5), 50);
    }
}
