//! CEL-R11 Feint (standard, 2 acts; simple with Improved Feint; no provoke): "You use Bluff to
//! attempt a feint against an opponent. If you succeed, that opponent is denied their
//! Dexterity bonus to DV for the next attack you make against it this turn. The DC of this
//! check is equal to 10 + your opponent's base attack bonus + your opponent's Wisdom modifier.
//! If your opponent is trained in Sense Motive, the DC is instead equal to 10 + your opponent's
//! Sense Motive bonus, if higher. This attack must be made on or before your next turn. When
//! feinting against a non-humanoid you take a –4 penalty. Against a creature of animal
//! Intelligence (1 or 2), you take a –8 penalty. Against a creature lacking an Intelligence
//! score, it's impossible."
//!
//! The seed has no skill tables: Bluff and Sense Motive are entry keys (`bluff`, offered only
//! with one; `sense_motive`, trained only with one), and so is what kind of creature the foe is
//! (`humanoid`, `mindless`; a monster's come from the content).

use super::{CheckKind, ModifierSink, Mods};
use crate::choice::Choice;
use crate::state::{State, CHA, INT, WIS};
use crate::Celesia;
use fray_core::event::{Event, Modifier, Subject};
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// The rule of every feint.
const RULE: &str = "CEL-R11";

/// What Feint reads of a combatant besides its numbers: its Bluff and Sense Motive bonuses and
/// its kind of mind (entry keys; the seed has no skill tables or creature types). [CEL-R11]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FeintSaid {
    /// Bluff bonus (`bluff`): Feint is offered only with one.
    pub bluff: Option<i32>,
    /// Sense Motive bonus (`sense_motive`): trained in Sense Motive only with one.
    pub sense_motive: Option<i32>,
    /// Not a humanoid (`humanoid = false`; a monster's from the content): −4 to feint it.
    pub non_humanoid: bool,
    /// Lacks an Intelligence score (`mindless = true`): it cannot be feinted.
    pub mindless: bool,
}

/// A feint that worked: `target` is denied its DEX bonus to DV against the feinter's next
/// attack on it, made no later than the feinter's turn after the one of `round`. [CEL-R11]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Feinted {
    /// The foe feinted.
    pub target: CombatantId,
    /// The round of the feint.
    pub round: u32,
}

/// Most feints a combatant keeps ready at once (one per foe; more are refused).
pub const MAX_FEINTS: usize = 8;

/// Acts a Feint takes: 2 (standard), 1 with Improved Feint. [CEL-R11]
pub fn acts(state: &State, who: CombatantId) -> i32 {
    if state.p(who).feats.improved_feint {
        1
    } else {
        2
    }
}

/// The penalty on the Bluff check for what `target` is: −8 against animal Intelligence (1 or
/// 2: the −8 replaces the −4, a reading), −4 against another non-humanoid, 0 against a
/// humanoid; `None` against a creature lacking an Intelligence score (impossible). [CEL-R11]
pub fn penalty(state: &State, target: CombatantId) -> Option<i32> {
    let said = state.p(target).gm_said.feint;
    if said.mindless {
        return None;
    }
    Some(if state.score(target, INT) <= 2 {
        -8
    } else if said.non_humanoid {
        -4
    } else {
        0
    })
}

/// The DC to feint `target`: 10 + its BAB + its WIS modifier; trained in Sense Motive, 10 +
/// its Sense Motive bonus if that is higher. The second part names what set it. [CEL-R11]
pub fn dc(state: &State, target: CombatantId) -> (i32, &'static str) {
    let base = 10 + state.p(target).bab + state.m(target, WIS);
    match state.p(target).gm_said.feint.sense_motive {
        // Sense Motive is a Wisdom skill (the parent game's, CEL-A34): a WIS penalty counts.
        Some(sm) if 10 + state.skill(target, sm, WIS) > base => {
            (10 + state.skill(target, sm, WIS), "10 + Sense Motive")
        }
        _ => (base, "10 + BAB + WIS"),
    }
}

/// The terms of `who`'s Bluff check to feint `target` but the die (the rule's and the default
/// tactics' estimate of it). [CEL-R11, R18]
#[derive(Debug, Clone, Copy)]
pub struct Bluff {
    /// Its Bluff bonus with its CHA (a Charisma skill, the parent game's, CEL-A34: a CHA
    /// penalty counts).
    pub bluff: i32,
    /// −1 per scar (CEL-R18).
    pub scars: i32,
    /// The penalty for what the foe is ([`penalty`]).
    pub kind: i32,
    /// Its disadvantage sources: the bearer's on a mental skill check and a major scar's.
    pub disadvantage: super::Sources,
}

impl Bluff {
    /// The check's modifiers together.
    pub fn bonus(&self) -> i32 {
        self.bluff + self.scars + self.kind
    }
}

/// `who`'s Bluff check against `target`; `None` when the foe lacks an Intelligence score
/// (feinting it is impossible). [CEL-R11, R18]
pub fn bluff(state: &State, who: CombatantId, target: CombatantId) -> Option<Bluff> {
    let kind = penalty(state, target)?;
    let bluff = state.skill(who, state.p(who).gm_said.feint.bluff.unwrap_or(0), CHA);
    let injuries = state.f(who).injuries;
    let mut disadvantage =
        super::check_disadvantage(state, who, CheckKind::Skill { physical: false });
    if injuries.major_scars > 0 {
        disadvantage.add("major scar");
    }
    Some(Bluff {
        bluff,
        scars: -i32::from(injuries.scars),
        kind,
        disadvantage,
    })
}

/// A Feint at every foe for `who`, where its entry gives a Bluff bonus.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if state.p(who).gm_said.feint.bluff.is_some() {
        out.extend(
            state
                .ids()
                .filter(|&t| state.enemies(who, t))
                .map(Choice::Feint),
        );
    }
}

/// Whether `who` may feint `target` now (acts aside): a Bluff bonus in its entry, a foe still
/// up with an Intelligence score, and room for one more feint. [CEL-R11]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    target: CombatantId,
) -> Result<(), Illegal> {
    if state.p(who).gm_said.feint.bluff.is_none() {
        return no(explain, RULE, || {
            "Feint uses the Bluff skill: its entry gives no `bluff` bonus (the seed has no skill \
             tables)"
                .to_string()
        });
    }
    if !state.enemies(who, target) || !state.up(target) {
        return no(explain, RULE, || {
            "a feint is made against an opponent still up".to_string()
        });
    }
    if penalty(state, target).is_none() {
        return no(explain, RULE, || {
            format!(
                "{} lacks an Intelligence score: feinting it is impossible",
                state.roster.key(target)
            )
        });
    }
    let f = state.f(who);
    Illegal::unless(
        f.feints.len() < MAX_FEINTS || f.feints.iter().any(|x| x.target == target),
        explain,
        RULE,
        || format!("at most {MAX_FEINTS} feints kept ready at once"),
    )
}

/// CEL-R11 Feint: the Bluff check (its bonus, −1 per scar and disadvantage with a major scar,
/// CEL-R18; the penalty for what the foe is) against the foe's DC. Success: the foe is denied
/// its DEX bonus to DV against `who`'s next attack on it, made on or before `who`'s next turn.
pub fn feint(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let Some(Bluff {
        bluff,
        scars,
        kind,
        disadvantage,
    }) = bluff(state, who, target)
    else {
        return Ok(());
    };
    let (roll, dice) = super::roll_check_die_with(table, who, disadvantage, RULE)?;
    let (dc, set_by) = dc(state, target);
    let gm = state.f(who).gm_dc;
    // CEL-R9: a friend's Aid Another on this check.
    let aid = super::aid_check::take(state, who, super::aid_check::Skill::Bluff);
    let total = roll as i32 + bluff + scars + kind + aid;
    let success = total >= dc + gm;
    table.emit(|| Event::Check {
        who: Subject::Combatant(who),
        purpose: "Feint",
        dice,
        roll,
        modifiers: vec![
            Modifier::new("Bluff", "", bluff),
            Modifier::new("scars", "CEL-R18", scars),
            Modifier::new(
                match kind {
                    -8 => "animal Intelligence",
                    _ => "non-humanoid",
                },
                RULE,
                kind,
            ),
            Modifier::new("aid another", "CEL-R9", aid),
        ]
        .into_iter()
        .filter(|m| m.value != 0 || m.label == "Bluff")
        .collect(),
        total,
        against: match (gm, set_by) {
            (0, "10 + Sense Motive") => "DC (10 + Sense Motive)",
            (0, _) => "DC (10 + BAB + WIS)",
            _ => "GM-adjusted DC",
        },
        target: dc + gm,
        under: false,
        success: Some(success),
        result: if success { "feinted" } else { "not fooled" }.into(),
        rule: RULE,
    });
    if !success {
        return Ok(());
    }
    let round = state.round;
    let f = state.fm(who);
    f.feints.retain(|x| x.target != target);
    f.feints.push(Feinted { target, round });
    table.emit(|| Event::Acted {
        who,
        act: "feints",
        on: Some(target),
        detail: "denied its DEX bonus to DV against the feinter's next attack on it, made on or \
                 before the feinter's next turn"
            .into(),
        rule: RULE,
    });
    Ok(())
}

/// The DEX part of a DV, captured from [`super::attack::defense_into`].
struct DexPart(i32);

impl ModifierSink for DexPart {
    fn push(&mut self, label: &'static str, _rule: &'static str, value: i32) {
        if label == "DEX" {
            self.0 += value;
        }
    }
}

/// `attacker`'s attack on `target` spends a feint it holds on it: the DEX bonus in the DV
/// (when there is one, not already denied) is taken off in `dv`. [CEL-R11]
#[inline]
pub fn spend(state: &mut State, attacker: CombatantId, target: CombatantId, dv: &mut Mods) {
    if state.f(attacker).feints.is_empty() {
        return;
    }
    let f = state.fm(attacker);
    let Some(i) = f.feints.iter().position(|x| x.target == target) else {
        return;
    };
    f.feints.remove(i);
    let dex = dex_bonus(state, target);
    if dex > 0 {
        dv.push("feinted: no DEX bonus", RULE, -dex);
    }
}

/// The DEX bonus in `target`'s DV now, which a feint denies (0 when it has none, or is denied
/// it already: flat-footed, pinned, helpless, running). [CEL-R11]
pub fn dex_bonus(state: &State, target: CombatantId) -> i32 {
    let mut dex = DexPart(0);
    super::attack::defense_into(state, target, &mut dex);
    dex.0.max(0)
}

/// Whether `who` holds a feint on `target` (its next attack on it is against a DV without
/// the DEX bonus). [CEL-R11]
pub fn holds(state: &State, who: CombatantId, target: CombatantId) -> bool {
    state.f(who).feints.iter().any(|x| x.target == target)
}

/// At the end of `who`'s turn, its feints made before this round lapse unused: this was the
/// next turn they could be used in. [CEL-R11]
#[inline]
pub fn lapse(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    // At every turn's end: this test inline in the caller, the rest out of line (issue 16).
    if !state.f(who).feints.is_empty() {
        feints_lapse(state, table, who);
    }
}

/// [`lapse`], for a combatant holding feints.
#[inline(never)]
fn feints_lapse(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    let round = state.round;
    let lapsed: Vec<CombatantId> = state
        .f(who)
        .feints
        .iter()
        .filter(|x| x.round < round)
        .map(|x| x.target)
        .collect();
    state.fm(who).feints.retain(|x| x.round >= round);
    for t in lapsed {
        table.emit(|| Event::Forgone {
            who,
            what: "feint",
            on: Some(t),
            reason: "it lapses, no attack made on it by the end of the feinter's next turn".into(),
            rule: RULE,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    fn id(n: u16) -> CombatantId {
        CombatantId(n)
    }

    #[test]
    fn the_dc_takes_sense_motive_only_if_higher() {
        // A hobgoblin: BAB +1, WIS 12: 10 + 1 + 1 = 12.
        let s = Fixture::new()
            .with("a", "h", [0, 0], &format!("{FIGHTER}\nbluff = 5"))
            .monster("plain", "f", [1, 0], "hobgoblin")
            .with(
                "higher",
                "f",
                [2, 0],
                "monster = \"hobgoblin\"\nsense_motive = 3",
            )
            .with(
                "equal",
                "f",
                [3, 0],
                "monster = \"hobgoblin\"\nsense_motive = 2",
            )
            .state();
        assert_eq!(dc(&s, id(1)), (12, "10 + BAB + WIS"));
        assert_eq!(dc(&s, id(2)), (13, "10 + Sense Motive"));
        assert_eq!(dc(&s, id(3)), (12, "10 + BAB + WIS"));
    }

    #[test]
    fn the_penalty_follows_what_the_foe_is() {
        let s = Fixture::new()
            .with("a", "h", [0, 0], FIGHTER)
            .monster("orc", "f", [1, 0], "orc")
            .monster("wolf", "f", [2, 0], "wolf")
            .with(
                "clever",
                "f",
                [3, 0],
                "monster = \"wolf\"\nscores = { int = 3 }",
            )
            .monster("armor", "f", [4, 0], "animated armor")
            .with("beast", "f", [5, 0], "monster = \"orc\"\nhumanoid = false")
            .state();
        assert_eq!(penalty(&s, id(0)), Some(0));
        assert_eq!(penalty(&s, id(1)), Some(0));
        assert_eq!(penalty(&s, id(2)), Some(-8));
        assert_eq!(penalty(&s, id(3)), Some(-4));
        assert_eq!(penalty(&s, id(4)), None);
        assert_eq!(penalty(&s, id(5)), Some(-4));
    }

    #[test]
    fn improved_feint_makes_it_simple() {
        let s = Fixture::new()
            .with("a", "h", [0, 0], FIGHTER)
            .with(
                "b",
                "h",
                [0, 1],
                &format!("{FIGHTER}\nfeats = [\"improved feint\"]"),
            )
            .monster("orc", "f", [5, 5], "orc")
            .state();
        assert_eq!(acts(&s, id(0)), 2);
        assert_eq!(acts(&s, id(1)), 1);
    }

    #[test]
    fn a_head_injury_hampers_mental_checks_and_will_saves_only() {
        use super::super::check_disadvantage as dis;
        let mut s = Fixture::new()
            .with("a", "h", [0, 0], FIGHTER)
            .monster("orc", "f", [5, 5], "orc")
            .state();
        let a = id(0);
        let kinds = [
            CheckKind::Will,
            CheckKind::Skill { physical: false },
            CheckKind::Skill { physical: true },
            CheckKind::Save,
            CheckKind::Ability,
        ];
        assert!(kinds.iter().all(|&k| dis(&s, a, k).count() == 0));
        s.fm(a).injuries.take(crate::state::Injury::Head);
        let counts: Vec<i32> = kinds.iter().map(|&k| dis(&s, a, k).count()).collect();
        assert_eq!(counts, [1, 1, 0, 0, 0]);
        // A second head injury adds sickened (disadvantage on every check), not a second
        // head-injury die.
        s.fm(a).injuries.take(crate::state::Injury::Head);
        let counts: Vec<i32> = kinds.iter().map(|&k| dis(&s, a, k).count()).collect();
        assert_eq!(counts, [2, 2, 1, 1, 1]);
    }
}
