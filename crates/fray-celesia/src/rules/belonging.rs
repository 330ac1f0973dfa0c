//! What a disarm makes a foe drop (CEL-R10.3: "one item of your choice that it's carrying or
//! wielding", two at 10 or more over its CMD) and what a steal takes (CEL-R10.13: "the item you
//! chose"): a weapon (a melee form or the ranged weapon), an item it carries at hand (its
//! entry's `items`: a potion, a wand, a scroll…), a rope (its `rope`), or its shield. Readings (docs/celesia.md):
//! the items of `stored` are in a container worn on its person, so securely worn, and cannot
//! be taken or knocked loose; a strapped shield is securely worn (no steal) but wielded (a
//! disarm drops it); the items its entry lists in `fastened` (at hand, on a belt or a
//! bandolier) give +5 to its CMD against a steal. A dropped item lies on its owner's square,
//! and its owner picks it up again (CEL-R9 Manipulate an Item, `pick-up item NAME`,
//! `pick-up rope`, `pick-up shield`).

use super::Mods;
use crate::choice::Choice;
use crate::rules::shield::ShieldAt;
use crate::state::{Item, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// An item a disarm or a steal may take from a foe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Belonging {
    /// A weapon: the numbered melee form or the ranged weapon.
    Weapon(Item),
    /// An item of `State::gear_book` the foe carries at hand (one of that kind).
    Gear(u8),
    /// Its shield, strapped on or carried.
    Shield,
    /// One of the ropes it has at hand (to tie a grappled foe up with, CEL-R10.10).
    Rope,
}

/// The most ropes a combatant may have at hand (the entry's `rope`, a thief's stolen ones).
pub const MAX_ROPES: u8 = 10;

/// The seed's sentence a refused steal of a securely worn item names. [CEL-R10.13]
const SECURELY_WORN: &str = "items securely worn can't be stolen in this way";

impl Belonging {
    /// Its words in a choice: the form number, `ranged`, `item NAME` or `shield`.
    pub fn text(self, state: &State) -> String {
        match self {
            Belonging::Weapon(item) => item.key(),
            Belonging::Gear(book) => format!(
                "item {}",
                state
                    .gear_book
                    .get(usize::from(book))
                    .map_or_else(|| format!("#{book}"), |g| g.key())
            ),
            Belonging::Shield => "shield".into(),
            Belonging::Rope => "rope".into(),
        }
    }

    /// Its name in the log (`longsword`, `potion of cure light wounds`, `heavy shield`).
    pub fn name(self, state: &State, owner: CombatantId) -> String {
        match self {
            Belonging::Weapon(item) => state
                .held(owner, item)
                .map_or_else(|| item.key(), |w| w.name.clone()),
            Belonging::Gear(book) => state
                .gear_book
                .get(usize::from(book))
                .map_or_else(|| format!("item #{book}"), |g| g.name.clone()),
            Belonging::Shield => state
                .p(owner)
                .shield
                .as_ref()
                .map_or_else(|| "shield".into(), |s| s.name.clone()),
            Belonging::Rope => "rope".into(),
        }
    }
}

/// Where `owner`'s first item of kind `book` at hand with a use left is in its list.
fn at_hand(state: &State, owner: CombatantId, book: u8) -> Option<usize> {
    state
        .f(owner)
        .gear
        .iter()
        .position(|&(b, uses)| b == book && uses > 0)
}

/// The foe `owner`'s belongings a disarm (`steal` false) or a steal may name: the weapons it
/// holds, each kind of item it carries at hand, and its shield unless it lies on the ground
/// (for a steal, unless it is strapped on: securely worn).
pub fn candidates(state: &State, owner: CombatantId, steal: bool) -> Vec<Belonging> {
    let forms = state.p(owner).melee.len().min(64) as u8;
    let mut out: Vec<Belonging> = (0..forms)
        .map(Item::Melee)
        .chain([Item::Ranged])
        .filter(|&item| state.held(owner, item).is_some())
        .map(Belonging::Weapon)
        .collect();
    for &(book, uses) in &state.f(owner).gear {
        if uses > 0 && !out.contains(&Belonging::Gear(book)) {
            out.push(Belonging::Gear(book));
        }
    }
    for b in [Belonging::Rope, Belonging::Shield] {
        if check(false, state, owner, b, steal).is_ok() {
            out.push(b);
        }
    }
    out
}

/// Whether a disarm (`steal` false) or a steal may name `b` of the foe `owner`, with the
/// rule that forbids it if not.
pub fn check(
    explain: bool,
    state: &State,
    owner: CombatantId,
    b: Belonging,
    steal: bool,
) -> Result<(), Illegal> {
    let rule = if steal { "CEL-R10.13" } else { "CEL-R10.3" };
    match b {
        Belonging::Weapon(item) => Illegal::unless(
            state.held(owner, item).is_some() && !matches!(item, Item::Melee(64..)),
            explain,
            rule,
            || {
                format!(
                    "`{}` is not a weapon the foe holds (a melee form number or `ranged`; \
                     natural attacks and unarmed strikes cannot be taken)",
                    item.key()
                )
            },
        ),
        Belonging::Gear(book) => {
            if at_hand(state, owner, book).is_some() {
                return Ok(());
            }
            let name = b.name(state, owner);
            if super::item::uses_in(&state.f(owner).packed, book) > 0 {
                return no(explain, rule, || {
                    format!(
                        "the foe's {name} is stored in a container on its person: securely worn \
                         (the seed: \"{SECURELY_WORN}\"; a reading for a disarm too)"
                    )
                });
            }
            no(explain, rule, || {
                format!("the foe carries no {name} at hand")
            })
        }
        Belonging::Shield => {
            let Some(shield) = state.p(owner).shield.as_ref() else {
                return no(explain, rule, || "the foe has no shield".to_string());
            };
            match state.f(owner).shield {
                ShieldAt::Dropped(_) => no(explain, rule, || {
                    format!("the foe's {} lies on the ground", shield.name)
                }),
                ShieldAt::Strapped if steal => no(explain, rule, || {
                    format!(
                        "the foe's {} is strapped to its arm: \"{SECURELY_WORN}\" (a reading: a \
                         strapped shield is securely worn; a disarm can make it drop)",
                        shield.name
                    )
                }),
                _ => Ok(()),
            }
        }
        Belonging::Rope => Illegal::unless(state.f(owner).ropes > 0, explain, rule, || {
            "the foe has no rope at hand".to_string()
        }),
    }
}

/// The steal's CMD modifier: "a +5 (or higher) bonus" when the item is fastened to the foe
/// (its entry's `fastened`), the GM's `fastened_cmd` (default 5). [CEL-R10.13, CEL-G3]
pub fn fastened_defense(state: &State, owner: CombatantId, b: Belonging, defense: &mut Mods) {
    if let Belonging::Gear(book) = b {
        if state.f(owner).fastened.contains(&book) {
            defense.push("fastened", "CEL-R10.13", state.options.fastened_cmd);
        }
    }
}

/// CEL-R10.3: `owner` drops `b`; it lies on its square until picked up (CEL-R9).
pub fn drop(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    owner: CombatantId,
    b: Belonging,
    rule: &'static str,
) {
    if check(false, state, owner, b, false).is_err() {
        return;
    }
    if let Belonging::Weapon(item) = b {
        return super::attack::drop_item(state, table, owner, item, rule);
    }
    let name = b.name(state, owner);
    let f = state.fm(owner);
    let at = f.pos;
    let act = match b {
        Belonging::Weapon(_) => return,
        Belonging::Gear(book) => {
            let Some(i) = f.gear.iter().position(|&(g, n)| g == book && n > 0) else {
                return;
            };
            let (_, uses) = f.gear.remove(i);
            f.gear_on_ground.push((book, uses, at));
            "drops an item"
        }
        Belonging::Shield => {
            f.shield = ShieldAt::Dropped(at);
            f.shield_dv = 0;
            "drops its shield"
        }
        Belonging::Rope => {
            f.ropes -= 1;
            f.ropes_on_ground.push(at);
            "drops an item"
        }
    };
    table.emit(|| Event::Acted {
        who: owner,
        act,
        on: None,
        detail: format!("{name}, at {} {}", at.x, at.y),
        rule,
    });
}

/// CEL-R10.13 "you take the item you chose from the opponent": [`transfer`], logged as a
/// steal. Weapons: `maneuver::steal`.
pub fn take(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    thief: CombatantId,
    owner: CombatantId,
    b: Belonging,
) {
    let name = b.name(state, owner);
    if !transfer(state, thief, owner, b) {
        return;
    }
    table.emit(|| Event::Acted {
        who: thief,
        act: "steals from",
        on: Some(owner),
        detail: name,
        rule: "CEL-R10.13",
    });
}

/// Moves `b` from `owner` to `taker` (a steal, CEL-R10.13; Sleight of Hand, CEL-R11): an item
/// at hand goes, with the uses it has left, to the taker's items at hand (it may use it from
/// its next act on); a carried shield becomes the taker's, carried (`ready shield` straps it
/// on), if it has none of its own (else it only holds it); a rope joins the taker's ropes (at
/// most [`MAX_ROPES`]; past them it only holds it). Returns whether anything moved (not a
/// weapon, nor an item the owner no longer has).
pub fn transfer(state: &mut State, taker: CombatantId, owner: CombatantId, b: Belonging) -> bool {
    match b {
        Belonging::Weapon(_) => return false,
        Belonging::Rope => {
            if state.f(owner).ropes == 0 {
                return false;
            }
            state.fm(owner).ropes -= 1;
            let f = state.fm(taker);
            f.ropes = (f.ropes + 1).min(MAX_ROPES);
        }
        Belonging::Gear(book) => {
            let Some(i) = at_hand(state, owner, book) else {
                return false;
            };
            let item = state.fm(owner).gear.remove(i);
            state.fm(taker).gear.push(item);
        }
        Belonging::Shield => {
            let Some(shield) = state.p(owner).shield.clone() else {
                return false;
            };
            let mut profiles = state.profiles.to_vec();
            profiles[owner.index()].shield = None;
            let keeps = profiles[taker.index()].shield.is_none();
            if keeps {
                profiles[taker.index()].shield = Some(shield);
            }
            state.profiles = profiles.into();
            state.fm(owner).shield_dv = 0;
            if keeps {
                let f = state.fm(taker);
                f.shield = ShieldAt::Carried;
                f.shield_dv = 0;
            }
        }
    }
    true
}

/// Where `who`'s dropped item (`Gear` or `Rope`) lies, if one does.
fn lying_at(state: &State, who: CombatantId, b: Belonging) -> Option<fray_core::Pos> {
    let f = state.f(who);
    match b {
        Belonging::Gear(book) => f
            .gear_on_ground
            .iter()
            .find(|(g, _, _)| *g == book)
            .map(|&(_, _, at)| at),
        Belonging::Rope => f.ropes_on_ground.first().copied(),
        Belonging::Weapon(_) | Belonging::Shield => None,
    }
}

/// Whether `who` may pick up its item `b` (an item of `items`, `Gear`, or a rope) that it
/// dropped (CEL-R9 Manipulate an Item): on or next to its square.
pub fn check_pick_up(
    explain: bool,
    state: &State,
    who: CombatantId,
    b: Belonging,
) -> Result<(), Illegal> {
    let f = state.f(who);
    let Some(at) = lying_at(state, who, b) else {
        return no(explain, "CEL-R9", || {
            format!("no {} of its lies on the ground", b.name(state, who))
        });
    };
    Illegal::unless(
        f.pos == at || f.pos.is_adjacent(at),
        explain,
        "CEL-R9",
        || format!("it lies at {} {}: stand on or next to it", at.x, at.y),
    )
}

/// The pick-up options of `who`: each kind of item of its lying on the ground, and a rope.
pub fn pick_up_options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    for &(book, _, _) in &state.f(who).gear_on_ground {
        let pick = Choice::PickUpGear(book);
        if !out.contains(&pick) {
            out.push(pick);
        }
    }
    if !state.f(who).ropes_on_ground.is_empty() {
        out.push(Choice::PickUpRope);
    }
}

/// CEL-R9 Manipulate an Item: the action provokes, then the item is back at hand.
pub fn pick_up(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    b: Belonging,
) -> Result<(), Interrupt> {
    if !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    hold_picked_up(state, table, who, b);
    Ok(())
}

/// The dropped item (`Gear` or `Rope`) is at hand again (the provocation done; or the GM's
/// complex acts all in, CEL-G3). [CEL-R9]
pub fn hold_picked_up(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    b: Belonging,
) {
    let f = state.fm(who);
    match b {
        Belonging::Gear(book) => {
            let Some(i) = f.gear_on_ground.iter().position(|(g, _, _)| *g == book) else {
                return;
            };
            let (_, uses, _) = f.gear_on_ground.remove(i);
            f.gear.push((book, uses));
        }
        Belonging::Rope => {
            if f.ropes_on_ground.is_empty() {
                return;
            }
            f.ropes_on_ground.remove(0);
            f.ropes = (f.ropes + 1).min(MAX_ROPES);
        }
        Belonging::Weapon(_) | Belonging::Shield => return,
    }
    let name = b.name(state, who);
    table.emit(|| Event::Acted {
        who,
        act: "picks up",
        on: None,
        detail: name,
        rule: "CEL-R9",
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::{parse, text};
    use crate::fixture::{Fixture, FIGHTER};
    use fray_core::driver::ScriptedDriver;
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;

    const HAL: CombatantId = CombatantId(0);
    const KIRA: CombatantId = CombatantId(1);

    /// Hal (a fighter with a longsword) next to Kira, who has a heavy shield (strapped on
    /// unless `carried`), a fastened potion, a loose wand and a scroll stored away.
    fn fight(carried: bool) -> State {
        let kira = format!(
            "{FIGHTER}\nshield = \"heavy shield\"\nshield_strapped = {}\n\
             items = [\"potion of cure light wounds\", \"wand of cure light wounds\"]\n\
             fastened = [\"potion of cure light wounds\"]\n\
             stored = [\"scroll of cure light wounds\"]\nrope = 2",
            !carried
        );
        Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .with("kira", "foes", [1, 0], &kira)
            .state()
    }

    fn book(s: &State, name: &str) -> u8 {
        s.gear_book.iter().position(|g| g.name == name).unwrap() as u8
    }

    /// Every candidate's choice reads back as itself; the steal's leave out the strapped
    /// shield (securely worn), the disarm's keep it; the stored scroll is in neither.
    #[test]
    fn candidates_are_the_weapons_items_at_hand_and_shield() {
        let s = fight(false);
        let (potion, wand) = (
            book(&s, "potion of cure light wounds"),
            book(&s, "wand of cure light wounds"),
        );
        let disarm = candidates(&s, KIRA, false);
        assert_eq!(
            disarm,
            vec![
                Belonging::Weapon(Item::Melee(0)),
                Belonging::Gear(potion),
                Belonging::Gear(wand),
                Belonging::Rope,
                Belonging::Shield
            ]
        );
        let steal = candidates(&s, KIRA, true);
        assert!(!steal.contains(&Belonging::Shield), "{steal:?}");
        for b in disarm {
            for choice in [Choice::Disarm(KIRA, b, None), Choice::Steal(KIRA, b)] {
                let written = text(&s, &choice);
                assert_eq!(parse(&s, &written), Ok(choice), "{written}");
            }
        }
        assert_eq!(
            text(
                &s,
                &Choice::Disarm(KIRA, Belonging::Gear(potion), Some(Belonging::Shield))
            ),
            "disarm kira item potion-of-cure-light-wounds shield"
        );
        let scroll = book(&s, "scroll of cure light wounds");
        let refused = check(true, &s, KIRA, Belonging::Gear(scroll), true).unwrap_err();
        assert!(refused.reason.contains("securely worn"), "{refused:?}");
    }

    /// The fastened potion gives +5 CMD against a steal; the loose wand none.
    #[test]
    fn only_a_fastened_item_adds_five_to_the_cmd() {
        let s = fight(false);
        let mut m = Mods::default();
        fastened_defense(
            &s,
            KIRA,
            Belonging::Gear(book(&s, "wand of cure light wounds")),
            &mut m,
        );
        assert_eq!(m.total(), 0);
        fastened_defense(
            &s,
            KIRA,
            Belonging::Gear(book(&s, "potion of cure light wounds")),
            &mut m,
        );
        assert_eq!(m.total(), 5);
        let mut s = s;
        s.options = std::sync::Arc::new(crate::state::Options {
            fastened_cmd: 8,
            ..(*s.options).clone()
        });
        let mut m = Mods::default();
        fastened_defense(
            &s,
            KIRA,
            Belonging::Gear(book(&s, "potion of cure light wounds")),
            &mut m,
        );
        assert_eq!(m.total(), 8, "the GM's higher bonus");
    }

    /// A carried shield stolen becomes the thief's, carried; the foe has none left (no DV from
    /// it, nothing to pick up). A dropped item is picked up again with its uses.
    #[test]
    fn a_stolen_shield_changes_hands_and_a_dropped_wand_keeps_its_charges() {
        let mut s = fight(true);
        let wand = book(&s, "wand of cure light wounds");
        let mut driver = ScriptedDriver::new(Vec::new(), Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        assert!(check(false, &s, KIRA, Belonging::Shield, true).is_ok());
        take(&mut s, &mut table, HAL, KIRA, Belonging::Shield);
        assert!(s.p(KIRA).shield.is_none());
        assert_eq!(
            s.p(HAL).shield.as_ref().map(|x| x.name.as_str()),
            Some("heavy shield")
        );
        assert_eq!(s.f(HAL).shield, ShieldAt::Carried);
        assert!(check(false, &s, KIRA, Belonging::Shield, false).is_err());
        drop(&mut s, &mut table, KIRA, Belonging::Gear(wand), "CEL-R10.3");
        assert_eq!(super::super::item::uses_left(&s, KIRA, wand), 0);
        assert_eq!(s.f(KIRA).gear_on_ground, vec![(wand, 5, s.f(KIRA).pos)]);
        let dropped = Belonging::Gear(wand);
        assert!(check_pick_up(false, &s, KIRA, dropped).is_ok());
        assert!(check_pick_up(false, &s, HAL, dropped).is_err(), "not Hal's");
        hold_picked_up(&mut s, &mut table, KIRA, dropped);
        assert_eq!(super::super::item::uses_left(&s, KIRA, wand), 5);
        assert!(s.f(KIRA).gear_on_ground.is_empty());
    }

    /// A rope: stolen, it joins the thief's ropes (to tie a foe up with); dropped, it lies on
    /// its owner's square until picked up; none left, none to name.
    #[test]
    fn ropes_are_stolen_dropped_and_picked_up() {
        let mut s = fight(false);
        let mut driver = ScriptedDriver::new(Vec::new(), Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        take(&mut s, &mut table, HAL, KIRA, Belonging::Rope);
        assert_eq!((s.f(HAL).ropes, s.f(KIRA).ropes), (1, 1));
        drop(&mut s, &mut table, KIRA, Belonging::Rope, "CEL-R10.3");
        assert_eq!(s.f(KIRA).ropes, 0);
        assert!(check(false, &s, KIRA, Belonging::Rope, true).is_err());
        let mut offered = Vec::new();
        pick_up_options(&s, KIRA, &mut offered);
        assert_eq!(offered, vec![Choice::PickUpRope]);
        assert_eq!(parse(&s, "pick-up rope"), Ok(Choice::PickUpRope));
        hold_picked_up(&mut s, &mut table, KIRA, Belonging::Rope);
        assert_eq!(s.f(KIRA).ropes, 1);
        assert!(s.f(KIRA).ropes_on_ground.is_empty());
    }
}
