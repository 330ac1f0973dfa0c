//! Initiate or Change Stance (CEL-R14, a free action): "You initiate or change your stance.
//! You can normally perform this action once per turn." A combatant takes a stance it knows
//! (`stances = [...]`, `crate::initiator`); a new one replaces the old; its modifiers hold
//! while it is active (to attack rolls, damage, DV, saves and speed: read where each is
//! worked out).

use crate::choice::Choice;
use crate::initiator::Stance;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal};
use fray_core::{CombatantId, Table};

/// Keeps `Fighter::maneuvering` true while `who` is in a stance, makes a strike or has a boost in
/// effect (what attack rolls, damage and DV look at first). Called wherever those change.
#[inline]
pub fn refresh(state: &mut State, who: CombatantId) {
    let f = state.fm(who);
    f.maneuvering = f.stance.is_some() || f.striking.is_some() || f.boosted != 0;
}

/// `who`'s active stance, if any (a look at one field for everyone else).
#[inline]
pub fn active(state: &State, who: CombatantId) -> Option<Stance> {
    let m = state.f(who).stance?;
    state.maneuver_book.get(usize::from(m))?.stance()
}

/// Does `who` know the entry at place `m` of the book? [CEL-R11, R14, R15]
#[inline]
pub fn knows(state: &State, who: CombatantId, m: u8) -> bool {
    m < 16 && state.p(who).known & (1 << m) != 0
}

/// The stances `who` may take now. [CEL-R14]
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if state.p(who).known == 0 {
        return;
    }
    for (i, m) in state.maneuver_book.iter().enumerate() {
        if m.stance().is_some() {
            out.push(Choice::Stance(i as u8));
        }
    }
}

/// CEL-R14: `who` may take the stance at place `m`: it knows it, is not in it, and has not
/// initiated or changed its stance this turn.
pub fn check(explain: bool, state: &State, who: CombatantId, m: u8) -> Result<(), Illegal> {
    let entry = state.maneuver_book.get(usize::from(m));
    let name = entry.map_or("?", |e| e.name.as_str());
    if entry.and_then(|e| e.stance()).is_none() {
        return no(explain, "CEL-R14", || {
            format!("`{name}` is not a stance: `strike NAME WHO` initiates a strike")
        });
    }
    if !knows(state, who, m) {
        return no(explain, "CEL-R14", || {
            format!("it does not know the stance {name} (its entry's `stances`)")
        });
    }
    let f = state.f(who);
    if f.stance == Some(m) {
        return no(explain, "CEL-R14", || format!("it is already in {name}"));
    }
    Illegal::unless(f.stance_turn != Some(f.turns), explain, "CEL-R14", || {
        "a stance is initiated or changed once per turn, and it has done so this turn".to_string()
    })
}

/// CEL-R14: `who` takes the stance at place `m`, replacing its active one.
pub fn take(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId, m: u8) {
    let changed = state.f(who).stance.is_some();
    {
        let f = state.fm(who);
        f.stance = Some(m);
        f.stance_turn = Some(f.turns);
    }
    refresh(state, who);
    let Some(entry) = state.maneuver_book.get(usize::from(m)) else {
        return;
    };
    let s = entry.stance().unwrap_or_default();
    table.emit(|| Event::Acted {
        who,
        act: if changed {
            "changes its stance to"
        } else {
            "initiates the stance"
        },
        on: None,
        detail: format!("{}: {}", entry.name, words(s)),
        rule: "CEL-R14",
    });
}

/// A stance's modifiers in words (`DV +2, attack -1`; `no modifiers`).
pub fn words(s: Stance) -> String {
    let parts: Vec<String> = [
        ("attack", s.attack),
        ("damage", s.damage),
        ("DV", s.dv),
        ("saves", s.saves),
        ("speed", s.speed),
    ]
    .iter()
    .filter(|(_, n)| *n != 0)
    .map(|&(k, n)| {
        let unit = if k == "speed" { " ft" } else { "" };
        format!("{k} {n:+}{unit}")
    })
    .collect();
    if parts.is_empty() {
        "no modifiers".into()
    } else {
        parts.join(", ")
    }
}

/// The stance's bonus to `who`'s saving throws (0 without one). [CEL-R14]
#[inline]
pub fn saves(state: &State, who: CombatantId) -> i32 {
    active(state, who).map_or(0, |s| s.saves)
}

/// What the status shows of `who`'s stance, strikes, boosts and counters: the active stance,
/// each boost in effect (`boost sharpened edge`), and each strike, boost or counter it knows
/// with its uses left (`sapphire-cut 1/1 left`). [CEL-R9, R11, R12, R14, R15]
pub fn status_words(state: &State, who: CombatantId) -> Vec<String> {
    let known = state.p(who).known;
    if known == 0 {
        return Vec::new();
    }
    let f = state.f(who);
    let mut out = Vec::new();
    if let Some(m) = f.stance {
        out.push(format!(
            "stance {}",
            state
                .maneuver_book
                .get(usize::from(m))
                .map_or("?", |e| e.name.as_str())
        ));
    }
    for (i, _) in super::boost::active(state, who) {
        out.push(format!(
            "boost {}",
            state.maneuver_book[usize::from(i)].name
        ));
    }
    for (i, m) in state.maneuver_book.iter().enumerate() {
        if m.stance().is_none() && knows(state, who, i as u8) {
            let left = m.uses.saturating_sub(f.maneuvers_spent[i]);
            out.push(format!("{} {}/{} left", m.key(), left, m.uses));
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::fixture::Fixture;
    use crate::rules::legal::check_action;

    /// A fighter 3 that knows fray's sample stances and strike, beside an orc.
    pub(crate) fn initiator() -> State {
        let mut s = Fixture::new()
            .with(
                "kay",
                "h",
                [0, 0],
                "class = \"fighter\"\nlevel = 3\nhp = 28\nweapon = \"longsword\"\n\
                 scores = { str = 14, dex = 13, con = 14 }\n\
                 stances = [\"iron guard\", \"raging tide\"]\n\
                 maneuvers = [\"sapphire cut\", \"deflecting parry\"]",
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

    /// CEL-R14: a known stance is offered and legal; taken, it holds its modifiers (speed
    /// +10 ft: 6 squares to 8), and a second change in the same turn is refused; the next turn
    /// it may change again.
    #[test]
    fn a_stance_once_per_turn_and_its_modifiers() {
        let kay = CombatantId(0);
        let mut s = initiator();
        let (guard, tide) = (place(&s, "iron-guard"), place(&s, "raging-tide"));
        let mut offered = Vec::new();
        options(&s, kay, &mut offered);
        assert_eq!(offered, vec![Choice::Stance(guard), Choice::Stance(tide)]);
        assert!(check_action(false, &s, kay, &Choice::Stance(tide)).is_ok());
        let speed = s.speed_squares(kay);
        let fort = s.fort(kay);
        s.fm(kay).stance = Some(tide);
        s.fm(kay).stance_turn = Some(1);
        assert_eq!(s.speed_squares(kay), speed + 2);
        assert_eq!(s.fort(kay), fort, "raging tide gives no save bonus");
        let err = check_action(true, &s, kay, &Choice::Stance(guard)).unwrap_err();
        assert_eq!(err.rule, "CEL-R14");
        assert!(err.reason.contains("once per turn"), "{}", err.reason);
        let err = check_action(true, &s, kay, &Choice::Stance(tide)).unwrap_err();
        assert!(err.reason.contains("already"), "{}", err.reason);
        s.fm(kay).turns = 2;
        assert!(check_action(false, &s, kay, &Choice::Stance(guard)).is_ok());
        // A strike is no stance, and the orc knows none.
        let cut = place(&s, "sapphire-cut");
        assert!(check_action(false, &s, kay, &Choice::Stance(cut)).is_err());
        assert!(check(false, &s, CombatantId(1), guard).is_err());
        assert!(status_words(&s, kay).contains(&"stance raging tide".to_string()));
        assert!(status_words(&s, kay).contains(&"sapphire-cut 1/1 left".to_string()));
        assert!(status_words(&s, CombatantId(1)).is_empty());
    }

    #[test]
    fn a_stance_in_words() {
        let s = Stance {
            attack: -1,
            dv: 2,
            ..Stance::default()
        };
        assert_eq!(words(s), "attack -1, DV +2");
        assert_eq!(words(Stance::default()), "no modifiers");
    }
}
