//! Initiate Boost (CEL-R9, a simple action, 1 act): "You initiate a readied boost maneuver."
//! The boost is the GM's data (`crate::initiator::Boost`): modifiers to attack rolls, to each
//! hit's damage (a bonus and dice) and to DV that hold until its stated end — the end of the
//! turn it is initiated in, or the start of the initiator's next turn. Readied is read as for
//! strikes and counters: known and not yet used (`uses` a fight, default once). It provokes only
//! if its data says so. Different boosts in effect add up; the same one is not initiated again
//! while it holds (docs/celesia.md, *Readings*).

use crate::choice::Choice;
use crate::initiator::{Boost, Until};
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// The rule of Initiate Boost.
pub const RULE: &str = "CEL-R9";

/// The boosts in effect on `who`, with their places in the book.
pub fn active(state: &State, who: CombatantId) -> impl Iterator<Item = (u8, Boost)> + '_ {
    let bits = state.f(who).boosted;
    state
        .maneuver_book
        .iter()
        .enumerate()
        .filter(move |(i, _)| bits & (1 << i) != 0)
        .filter_map(|(i, m)| Some((i as u8, m.boost()?)))
}

/// The boosts in effect on `who`, added up: attack, damage bonus, DV. [CEL-R9]
pub fn totals(state: &State, who: CombatantId) -> (i32, i32, i32) {
    active(state, who).fold((0, 0, 0), |(a, d, v), (_, b)| {
        (a + b.attack, d + b.damage, v + b.dv)
    })
}

/// The boosts `who` might initiate now (the legality check filters them). [CEL-R9]
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if state.p(who).known == 0 {
        return;
    }
    for (i, m) in state.maneuver_book.iter().enumerate() {
        if m.boost().is_some() {
            out.push(Choice::Boost(i as u8));
        }
    }
}

/// CEL-R9: `who` may initiate the boost at place `m`: it knows it, has a use of it left, and it
/// is not in effect already.
pub fn check(explain: bool, state: &State, who: CombatantId, m: u8) -> Result<(), Illegal> {
    let entry = state.maneuver_book.get(usize::from(m));
    let name = entry.map_or("?", |e| e.name.as_str());
    if entry.and_then(|e| e.boost()).is_none() {
        let what = entry.map_or("?", |e| e.what());
        return no(explain, RULE, || {
            format!("`{name}` is not a boost maneuver but a {what}")
        });
    }
    if !super::stance::knows(state, who, m) {
        return no(explain, RULE, || {
            format!("it does not know the boost {name} (its entry's `maneuvers`)")
        });
    }
    if super::strike::uses_left(state, who, m) == 0 {
        return no(explain, RULE, || {
            format!("{name} is expended: no use of it left this fight")
        });
    }
    Illegal::unless(state.f(who).boosted & (1 << m) == 0, explain, RULE, || {
        format!("{name} is in effect already")
    })
}

/// CEL-R9: `who` initiates the boost at place `m` (its act paid): provoking first if its data
/// says so (a boost cut short there is not spent), then its use spent and its effects on.
pub fn initiate(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    m: u8,
) -> Result<(), Interrupt> {
    let Some(entry) = state.maneuver_book.get(usize::from(m)).cloned() else {
        return Ok(());
    };
    let Some(b) = entry.boost() else {
        return Ok(());
    };
    // CEL-R3.12: a Provoke action's attacks of opportunity come before it starts.
    if b.provoke && !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    {
        let f = state.fm(who);
        f.maneuvers_spent[usize::from(m)] += 1;
        f.boosted |= 1 << m;
    }
    super::stance::refresh(state, who);
    let left = super::strike::uses_left(state, who, m);
    table.emit(|| Event::Acted {
        who,
        act: "initiates the boost",
        on: None,
        detail: format!(
            "{}: {}, {}; {left} of {} use{} left",
            entry.name,
            words(b),
            b.until.words(),
            entry.uses,
            if entry.uses == 1 { "" } else { "s" }
        ),
        rule: RULE,
    });
    Ok(())
}

/// CEL-R9: the boosts of `who` that end now: at the end of its turn those `until` it
/// (`Until::EndOfTurn`), at the start of its turn every one still in effect.
#[cold]
#[inline(never)]
pub fn end(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId, at: Until) {
    let ending: Vec<(u8, Boost)> = active(state, who)
        .filter(|(_, b)| at == Until::StartOfNextTurn || b.until == Until::EndOfTurn)
        .collect();
    for (m, b) in ending {
        state.fm(who).boosted &= !(1 << m);
        super::stance::refresh(state, who);
        table.emit(|| Event::Acted {
            who,
            act: "loses its boost",
            on: None,
            detail: format!(
                "{}: {}, {}",
                state.maneuver_book[usize::from(m)].name,
                words(b),
                b.until.words()
            ),
            rule: RULE,
        });
    }
}

/// A boost's numbers in words (`attack +2, +1d6 damage, DV +1`).
pub fn words(b: Boost) -> String {
    let mut parts = Vec::new();
    if b.attack != 0 {
        parts.push(format!("attack {:+}", b.attack));
    }
    if let Some(d) = b.dice {
        parts.push(format!("+{d} damage"));
    }
    if b.damage != 0 {
        parts.push(format!("damage {:+}", b.damage));
    }
    if b.dv != 0 {
        parts.push(format!("DV {:+}", b.dv));
    }
    if b.provoke {
        parts.push("provokes".into());
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::Fixture;
    use crate::rules::legal::check_action;

    /// A fighter 3 that knows fray's sample boosts, beside an orc.
    fn booster() -> State {
        let mut s = Fixture::new()
            .with(
                "kay",
                "h",
                [0, 0],
                "class = \"fighter\"\nlevel = 3\nhp = 28\nweapon = \"longsword\"\n\
                 scores = { str = 14, dex = 13, con = 14 }\n\
                 maneuvers = [\"sharpened edge\", \"stone skin\"]",
            )
            .monster("orc", "f", [1, 0], "orc")
            .state();
        s.fm(CombatantId(0)).acts_left = 3;
        s.fm(CombatantId(0)).turns = 1;
        s
    }

    fn place(s: &State, key: &str) -> u8 {
        s.maneuver_book.iter().position(|m| m.key() == key).unwrap() as u8
    }

    /// CEL-R9: a known boost with a use left is offered and legal (1 act); in effect, it is
    /// refused again; its modifiers add up with another's; expended, it is refused; the orc
    /// knows none; with no act left it is refused naming CEL-R3.1.
    #[test]
    fn a_boost_is_legal_until_expended_and_adds_up() {
        let (kay, orc) = (CombatantId(0), CombatantId(1));
        let mut s = booster();
        let (edge, skin) = (place(&s, "sharpened-edge"), place(&s, "stone-skin"));
        assert_eq!(Choice::Boost(edge).acts(), 1);
        let mut offered = Vec::new();
        options(&s, kay, &mut offered);
        assert_eq!(offered, vec![Choice::Boost(edge), Choice::Boost(skin)]);
        assert!(check_action(false, &s, kay, &Choice::Boost(edge)).is_ok());
        assert_eq!(totals(&s, kay), (0, 0, 0));
        s.fm(kay).boosted = 1 << edge;
        let err = check_action(true, &s, kay, &Choice::Boost(edge)).unwrap_err();
        assert_eq!(err.rule, "CEL-R9");
        assert!(err.reason.contains("in effect"), "{}", err.reason);
        s.fm(kay).boosted |= 1 << skin;
        let (edge_b, skin_b) = (
            s.maneuver_book[usize::from(edge)].boost().unwrap(),
            s.maneuver_book[usize::from(skin)].boost().unwrap(),
        );
        assert_eq!(
            totals(&s, kay),
            (
                edge_b.attack + skin_b.attack,
                edge_b.damage + skin_b.damage,
                edge_b.dv + skin_b.dv
            )
        );
        s.fm(kay).boosted = 0;
        s.fm(kay).maneuvers_spent[usize::from(skin)] = s.maneuver_book[usize::from(skin)].uses;
        let err = check_action(true, &s, kay, &Choice::Boost(skin)).unwrap_err();
        assert!(err.reason.contains("expended"), "{}", err.reason);
        assert!(check(false, &s, orc, edge).is_err(), "the orc knows none");
        s.fm(kay).acts_left = 0;
        let err = check_action(true, &s, kay, &Choice::Boost(edge)).unwrap_err();
        assert_eq!(err.rule, "CEL-R3.1");
    }

    #[test]
    fn a_boost_in_words() {
        let b = Boost {
            attack: 2,
            damage: 0,
            dice: fray_core::DamageDice::parse_dice("1d6"),
            dv: -1,
            until: Until::EndOfTurn,
            provoke: true,
        };
        assert_eq!(words(b), "attack +2, +1d6 damage, DV -1, provokes");
    }
}
