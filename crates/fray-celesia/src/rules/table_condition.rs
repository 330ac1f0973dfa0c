//! The advantage table's conditions the seed gives no way to cause (CEL-R4.5 rows 5, 8, 9, 11,
//! 12: cowering, fascinated, frightened, stunned, panicked), and the GM's hand on every
//! condition of the table (CEL-G13): `cond WHO NAME` / `cond WHO -NAME` and the encounter's
//! `conditions = [...]` set any of the eleven, until the GM ends it.
//!
//! Adopted reading (docs/celesia.md, *Saves and checks*): the seed defines these five by their
//! row only, so each plays exactly its row and nothing else; the six a dirty trick also gives
//! (`state::Trick`) set this way are their own entry (`Cause::Gm`), never timed, never cleared
//! by an act, and play the rows they already play.

use crate::state::{Caused, Fighter, State, Trick};
use crate::Celesia;
use fray_core::conditions::{ConditionKind, Expiry};
use fray_core::event::Event;
use fray_core::intervention::Intervention;
use fray_core::{CombatantId, Interrupt, Table};

/// A condition of the advantage table with no cause in the seed. [CEL-R4.5]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableCondition {
    /// Attack rolls against it have advantage (row 5).
    Cowering,
    /// Disadvantage on its skill checks made as reactions (row 8).
    Fascinated,
    /// Disadvantage on its attack rolls, saving throws, skill checks and ability checks
    /// (row 9).
    Frightened,
    /// Attack rolls and combat maneuver checks against it have advantage (row 11).
    Stunned,
    /// Disadvantage on its saving throws, skill checks and ability checks (row 12).
    Panicked,
}

impl TableCondition {
    /// Every one, in the seed's order.
    pub const ALL: [TableCondition; 5] = [
        TableCondition::Cowering,
        TableCondition::Fascinated,
        TableCondition::Frightened,
        TableCondition::Stunned,
        TableCondition::Panicked,
    ];

    /// Its name in the log, the status line, `cond` and the encounter.
    pub fn key(self) -> &'static str {
        match self {
            TableCondition::Cowering => "cowering",
            TableCondition::Fascinated => "fascinated",
            TableCondition::Frightened => "frightened",
            TableCondition::Stunned => "stunned",
            TableCondition::Panicked => "panicked",
        }
    }
}

/// The [`TableCondition`]s a combatant has: one bit each.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TableConditions(u8);

impl TableConditions {
    /// Has `c`.
    #[inline]
    pub fn has(self, c: TableCondition) -> bool {
        self.0 & (1 << c as u8) != 0
    }
    /// None at all (the usual case: every roll asks first).
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Gives or takes `c`.
    pub fn set(&mut self, c: TableCondition, on: bool) {
        if on {
            self.0 |= 1 << c as u8;
        } else {
            self.0 &= !(1 << c as u8);
        }
    }
    /// Those it has, in the seed's order.
    pub fn iter(self) -> impl Iterator<Item = TableCondition> {
        TableCondition::ALL
            .into_iter()
            .filter(move |&c| self.has(c))
    }
}

/// One of the eleven conditions of the table the GM can set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settable {
    /// One a dirty trick also gives (blinded, dazzled, deafened, entangled, shaken, sickened).
    Trick(Trick),
    /// One with no cause in the seed.
    Row(TableCondition),
}

/// The most conditions one encounter entry lists: each of the eleven once.
pub const MAX_LISTED: usize = Trick::ALL.len() + TableCondition::ALL.len();

impl Settable {
    /// The condition `name` names, if it is one of the eleven.
    pub fn named(name: &str) -> Option<Settable> {
        let key = fray_core::catalog::name_key(name);
        Trick::from_key(&key).map(Settable::Trick).or_else(|| {
            TableCondition::ALL
                .into_iter()
                .find(|c| c.key() == key)
                .map(Settable::Row)
        })
    }

    /// Every name, in the table's order of `state::Trick` then [`TableCondition`].
    pub fn names() -> String {
        Trick::ALL
            .map(|t| t.key())
            .into_iter()
            .chain(TableCondition::ALL.map(|c| c.key()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Its name.
    pub fn key(self) -> &'static str {
        match self {
            Settable::Trick(t) => t.key(),
            Settable::Row(c) => c.key(),
        }
    }

    /// The GM has set it on `f`.
    pub fn set_on(self, f: &Fighter) -> bool {
        match self {
            Settable::Trick(trick) => f.tricks.has(Caused::gm(trick)),
            Settable::Row(c) => f.table_conditions.has(c),
        }
    }

    /// Gives it to `f` or takes the GM's away, until the GM ends it.
    pub fn put(self, f: &mut Fighter, on: bool) {
        match self {
            Settable::Trick(trick) if on => {
                f.tricks.add(Caused::gm(trick), Expiry::Indefinite);
            }
            Settable::Trick(trick) => {
                f.tricks.remove(Caused::gm(trick));
            }
            Settable::Row(c) => f.table_conditions.set(c, on),
        }
    }

    /// `f` has it, whatever gave it.
    fn held(self, f: &Fighter) -> bool {
        match self {
            Settable::Trick(trick) => f.has_trick(trick),
            Settable::Row(c) => f.table_conditions.has(c),
        }
    }
}

/// `cond WHO NAME` / `cond WHO -NAME` for a condition of the table: `None` when `name` is not
/// one. `(gained, rounds)`: set or ended, and the `ROUNDS` typed. Refused: a number of rounds
/// (it lasts until the GM ends it), setting one the GM set already, ending one the GM did not
/// set (a dirty trick's, a spell's, Demoralize's or a strike's ends by its own rule). The
/// condition's end is logged only when nothing else still gives it. [CEL-G13; CEL-R4.5]
pub fn intervene(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    intervention: &Intervention,
    id: CombatantId,
    name: &str,
    (gained, rounds): (bool, Option<u32>),
) -> Option<Result<(), Interrupt>> {
    let condition = Settable::named(name)?;
    let who = state.roster.name(id);
    if rounds.is_some() {
        return Some(Err(intervention.refused(format!(
            "the GM's {name} lasts until `cond {} -{name}` ends it: no number of rounds",
            state.roster.key(id)
        ))));
    }
    if condition.set_on(state.f(id)) == gained {
        return Some(Err(intervention.refused(if gained {
            format!("{who} is {name} already (the GM's)")
        } else if condition.held(state.f(id)) {
            format!("{who}'s {name} is not the GM's: it ends by its own rule")
        } else {
            format!("{who} is not {name}")
        })));
    }
    condition.put(state.fm(id), gained);
    if gained || !condition.held(state.f(id)) {
        table.emit(|| Event::Condition {
            who: id,
            condition: condition.key(),
            gained,
            rule: "GM",
        });
    }
    Some(Ok(()))
}

/// The rows of a target's conditions on an attack roll against it: cowering and stunned
/// (rows 5, 11). [CEL-R4.5]
#[inline]
pub fn target_advantage(ft: &Fighter, adv: &mut super::Sources) {
    if !ft.table_conditions.is_empty() {
        if ft.table_conditions.has(TableCondition::Cowering) {
            adv.add("cowering target");
        }
        if ft.table_conditions.has(TableCondition::Stunned) {
            adv.add("stunned target");
        }
    }
}

/// A frightened attacker's attack rolls (row 9). [CEL-R4.5]
#[inline]
pub fn attacker_disadvantage(fa: &Fighter, dis: &mut super::Sources) {
    if fa.table_conditions.has(TableCondition::Frightened) {
        dis.add("frightened");
    }
}

/// A combat maneuver check against a stunned target has advantage (row 11). [CEL-R4.5]
#[inline]
pub fn maneuver_advantage(ft: &Fighter, adv: &mut super::Sources) {
    if ft.table_conditions.has(TableCondition::Stunned) {
        adv.add("stunned target");
    }
}

/// A frightened or panicked creature's saves, skill checks and ability checks (rows 9, 12),
/// and a fascinated one's skill checks made as reactions (row 8: while it takes a reaction,
/// `Fighter::reacting`). [CEL-R4.5]
#[inline]
pub fn check_disadvantage(f: &Fighter, kind: super::CheckKind, dis: &mut super::Sources) {
    if !f.table_conditions.is_empty() {
        for c in [TableCondition::Frightened, TableCondition::Panicked] {
            if f.table_conditions.has(c) {
                dis.add(c.key());
            }
        }
        let skill = matches!(
            kind,
            super::CheckKind::Skill { .. } | super::CheckKind::Crippling(_)
        );
        if skill && f.reacting && f.table_conditions.has(TableCondition::Fascinated) {
            dis.add("fascinated");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::rules::intervene::intervene;
    use crate::rules::CheckKind;
    use fray_core::driver::ScriptedDriver;
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;

    const HAL: CombatantId = CombatantId(0);
    const ORC: CombatantId = CombatantId(1);

    fn fight() -> State {
        Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [1, 0], "orc")
            .state()
    }

    /// The GM's `cond` line on `state`: the events, or the refusal's reason.
    fn cond(state: &mut State, line: &str) -> Result<Vec<Event>, String> {
        let iv = Intervention::parse(line)
            .and_then(Result::ok)
            .expect("a cond line");
        let mut driver = ScriptedDriver::new(Vec::new(), Vec::new());
        let mut sink = VecSink::default();
        let done = {
            let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
            intervene(state, &mut table, &iv)
        };
        match done {
            Ok(()) => Ok(sink.events.into_iter().map(|e| e.1).collect()),
            Err(Interrupt::Error(fray_core::protocol::Fault::IllegalChoice {
                illegal, ..
            })) => {
                assert_eq!(illegal.rule, "GM");
                Err(illegal.reason)
            }
            Err(other) => panic!("{other:?}"),
        }
    }

    fn condition(name: &'static str, gained: bool) -> Event {
        Event::Condition {
            who: ORC,
            condition: name,
            gained,
            rule: "GM",
        }
    }

    /// CEL-G13: the GM sets a stunned orc, which then plays row 11 on an attack roll and a
    /// combat maneuver's advantage; setting it twice, ending it twice, naming it with rounds,
    /// or naming no condition of the table is refused, and the refusal changes nothing.
    #[test]
    fn the_gm_sets_and_ends_a_stunned_foe() {
        let mut s = fight();
        assert_eq!(
            cond(&mut s, "cond orc stunned"),
            Ok(vec![condition("stunned", true)])
        );
        let w = s.melee_forms(HAL).next().expect("a sword").1.clone();
        let (adv, dis) = crate::rules::attack::sources(&s, HAL, ORC, &w);
        assert_eq!((adv.text().as_str(), dis.count()), ("stunned target", 0));
        let mut maneuver = crate::rules::Sources::default();
        maneuver_advantage(s.f(ORC), &mut maneuver);
        assert_eq!(maneuver.text(), "stunned target");
        let before = s.f(ORC).clone();
        let again = cond(&mut s, "cond orc stunned").expect_err("set twice");
        assert!(again.contains("Orc is stunned already"), "{again}");
        let timed = cond(&mut s, "cond orc cowering 2").expect_err("rounds");
        assert!(timed.contains("no number of rounds"), "{timed}");
        assert_eq!(*s.f(ORC), before, "refusals change nothing");
        assert_eq!(
            cond(&mut s, "cond orc -stunned"),
            Ok(vec![condition("stunned", false)])
        );
        assert!(s.f(ORC).table_conditions.is_empty());
        let ended = cond(&mut s, "cond orc -stunned").expect_err("not stunned");
        assert!(ended.contains("Orc is not stunned"), "{ended}");
        let unknown = cond(&mut s, "cond orc dazed").expect_err("no such condition");
        assert!(unknown.contains(&Settable::names()), "{unknown}");
    }

    /// The GM's shaken is its own entry beside a dirty trick's: ending the GM's leaves the
    /// trick's (no end logged: still shaken); the trick's is not the GM's to end.
    #[test]
    fn the_gms_shaken_stands_beside_a_dirty_tricks() {
        let mut s = fight();
        assert_eq!(
            cond(&mut s, "cond orc shaken"),
            Ok(vec![condition("shaken", true)])
        );
        s.fm(ORC).tricks.add(
            Caused::dirty_trick(Trick::Shaken),
            Expiry::StartOfTurn { who: HAL, round: 2 },
        );
        assert_eq!(cond(&mut s, "cond orc -shaken"), Ok(vec![]));
        assert!(s.f(ORC).has_trick(Trick::Shaken), "the dirty trick's stays");
        let theirs = cond(&mut s, "cond orc -shaken").expect_err("the trick's");
        assert!(theirs.contains("not the GM's"), "{theirs}");
    }

    /// Rows 9 and 12: frightened and panicked give disadvantage on saves, ability and skill
    /// checks; only frightened on attack rolls; row 8 (fascinated) only on a reaction's skill
    /// check.
    #[test]
    fn frightened_and_panicked_play_their_rows() {
        let mut s = fight();
        let w = s.melee_forms(ORC).next().expect("a weapon").1.clone();
        for (name, on_attack) in [("frightened", true), ("panicked", false)] {
            cond(&mut s, &format!("cond orc {name}")).expect("set");
            for kind in [
                CheckKind::Save,
                CheckKind::Will,
                CheckKind::Ability,
                CheckKind::Skill { physical: true },
            ] {
                let dis = crate::rules::check_disadvantage(&s, ORC, kind);
                assert_eq!(dis.text(), name, "{kind:?}");
            }
            let (_, dis) = crate::rules::attack::sources(&s, ORC, HAL, &w);
            assert_eq!(dis.count() == 1, on_attack, "{name}: {}", dis.text());
            cond(&mut s, &format!("cond orc -{name}")).expect("end");
        }
        cond(&mut s, "cond orc fascinated").expect("set");
        let kind = CheckKind::Skill { physical: true };
        assert_eq!(crate::rules::check_disadvantage(&s, ORC, kind).count(), 0);
        s.fm(ORC).reacting = true;
        let dis = crate::rules::check_disadvantage(&s, ORC, kind);
        assert_eq!(dis.text(), "fascinated");
        let save = crate::rules::check_disadvantage(&s, ORC, CheckKind::Save);
        assert_eq!(
            save.count(),
            0,
            "a save made as a reaction is no skill check"
        );
        s.fm(ORC).reacting = false;
        let (adv, dis) = crate::rules::attack::sources(&s, HAL, ORC, &w);
        assert_eq!((adv.count(), dis.count()), (0, 0), "no row on attacks");
    }

    #[test]
    fn every_name_is_read_back_and_no_other() {
        let names = Settable::names();
        let listed: Vec<&str> = names.split(", ").collect();
        assert_eq!(listed.len(), MAX_LISTED);
        for name in listed {
            assert_eq!(Settable::named(name).map(Settable::key), Some(name));
        }
        assert_eq!(Settable::named("grappled"), None);
        assert_eq!(Settable::named("stun"), None);
    }

    #[test]
    fn the_set_holds_each_condition_on_its_own() {
        let mut set = TableConditions::default();
        assert!(set.is_empty());
        set.set(TableCondition::Stunned, true);
        set.set(TableCondition::Panicked, true);
        assert!(set.has(TableCondition::Stunned) && !set.has(TableCondition::Cowering));
        set.set(TableCondition::Stunned, false);
        assert_eq!(set.iter().collect::<Vec<_>>(), [TableCondition::Panicked]);
    }
}
