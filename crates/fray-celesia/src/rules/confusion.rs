//! Confusion: the permanent confusion of three head injuries (CEL-R18) or the GM's
//! (`cond WHO confused`), played as the parent game's *confused* condition (CEL-A34) in the
//! 3-act turn. At the start of each of its turns a confused creature rolls d%: 01–25 it acts
//! normally, 26–50 it babbles (no acts), 51–75 it hurts itself (1d8 + STR modifier, its whole
//! turn), 76–100 it spends its acts attacking the nearest creature, ally or foe (moving to it
//! when none is in reach); attacked since its last turn, it attacks the one that last attacked
//! it instead of rolling. It makes attacks of opportunity only against the creature it is
//! devoted to attacking. The readings are in docs/celesia.md (*Confusion*).
//!
//! Everything is behind [`Confusion::on`]: a fight without a confused creature reads one flag
//! where an attack begins, where a foe may make an attack of opportunity and where a turn
//! starts, and nothing else.

use super::injury::{self, Blow};
use super::Mods;
use crate::choice::Choice;
use crate::state::{State, STR};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::intervention::Intervention;
use fray_core::protocol::{refuse as no, Illegal, Interrupt, RollPurpose};
use fray_core::{CombatantId, FaceClasses, Table};

/// The rule of the condition's behaviour (the parent game's *confused*, read through CEL-A34).
const RULE: &str = "CEL-A34";

/// What a confused creature does this turn. [CEL-A34, PF *confused*]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Behaviour {
    /// d% 01–25: acts normally (its controller chooses, as on any turn).
    ActNormally,
    /// d% 26–50: does nothing but babble incoherently.
    Babble,
    /// d% 51–75: deals 1d8 + STR modifier damage to itself with the item in hand.
    HurtSelf,
    /// d% 76–100: attacks the nearest creature.
    AttackNearest,
    /// Attacked since its last turn: attacks the one that last attacked it (no d%).
    AttackBack(CombatantId),
}

impl Behaviour {
    /// The d% band of a roll (1–100). [CEL-A34, PF *confused*]
    pub fn of_roll(d100: u32) -> Behaviour {
        match d100 {
            ..=25 => Behaviour::ActNormally,
            26..=50 => Behaviour::Babble,
            51..=75 => Behaviour::HurtSelf,
            _ => Behaviour::AttackNearest,
        }
    }

    /// The log's words for it.
    fn words(self) -> &'static str {
        match self {
            Behaviour::ActNormally => "acts normally",
            Behaviour::Babble => "babbles incoherently",
            Behaviour::HurtSelf => "hurts itself with the item in hand",
            Behaviour::AttackNearest => "attacks the nearest creature",
            Behaviour::AttackBack(_) => "attacks the one that last attacked it",
        }
    }
}

/// The first d% total of each band: exact odds branch four ways, not a hundred.
const BANDS: [i32; 3] = [26, 51, 76];

/// A creature's confusion: whether it is confused, this turn's behaviour and whom it is devoted
/// to attacking. [CEL-R18, CEL-A34]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Confusion {
    /// Confused: three head injuries or more, or the GM's word.
    pub on: bool,
    /// Given by the GM (`cond WHO confused`): the GM may take it back; three head injuries'
    /// is permanent.
    pub by_gm: bool,
    /// This turn's behaviour, from its d% (or the attack that overrides it) to the turn's end.
    pub turn: Option<Behaviour>,
    /// The creature that last attacked it since its last turn began (attacked back next turn).
    pub attacked_by: Option<CombatantId>,
    /// The creature it is devoted to attacking: the one its most recent attack was on, or the
    /// one that last attacked it since. Its only target for attacks of opportunity.
    pub devoted: Option<CombatantId>,
}

/// Notes an attack of `attacker` on `target` (an attack roll or a combat maneuver check): a
/// confused target will attack its attacker back and is devoted to attacking it; a confused
/// attacker is devoted to attacking its target. [CEL-A34]
#[inline]
pub fn attacked(state: &mut State, attacker: CombatantId, target: CombatantId) {
    if state.f(target).confusion.on {
        let c = &mut state.fm(target).confusion;
        c.attacked_by = Some(attacker);
        c.devoted = Some(attacker);
    }
    if state.f(attacker).confusion.on {
        state.fm(attacker).confusion.devoted = Some(target);
    }
}

/// Whether `reactor`'s confusion lets it make an attack of opportunity on `actor`: only a
/// creature it is devoted to attacking. [CEL-A34]
#[inline]
pub fn may_strike(state: &State, reactor: CombatantId, actor: CombatantId) -> bool {
    let c = &state.f(reactor).confusion;
    !c.on || c.devoted == Some(actor)
}

/// Whether a confused `reactor` reacts to `actor` as to an enemy: it treats every creature as
/// one. [CEL-A34]
#[inline]
pub fn treats_as_enemy(state: &State, reactor: CombatantId) -> bool {
    state.f(reactor).confusion.on
}

/// Why a threatening confused creature gets no attack of opportunity on `actor`, if that is
/// why.
pub fn no_strike_reason(
    state: &State,
    reactor: CombatantId,
    actor: CombatantId,
) -> Option<&'static str> {
    (!may_strike(state, reactor, actor))
        .then_some("confused: it is not devoted to attacking that creature")
}

/// Three head injuries: permanently confused (said once; a GM's confusion becomes permanent).
/// [CEL-R18]
pub fn from_head_injuries(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    if !state.f(who).injuries.confused() {
        return;
    }
    let c = &mut state.fm(who).confusion;
    let was = c.on;
    c.on = true;
    c.by_gm = false;
    if !was {
        table.emit(|| Event::Condition {
            who,
            condition: "confused",
            gained: true,
            rule: "CEL-R18",
        });
    }
}

/// Before initiative: those who come to the fight confused are said to be. [CEL-R18]
pub fn announce(state: &State, table: &mut Table<'_, Celesia>) {
    for who in state.ids() {
        if state.f(who).confusion.on {
            table.emit(|| Event::Condition {
                who,
                condition: "confused",
                gained: true,
                rule: if state.f(who).injuries.confused() {
                    "CEL-R18"
                } else {
                    "GM"
                },
            });
        }
    }
}

/// This turn's behaviour of a confused creature before any roll: the one that last attacked it
/// since its last turn began, while that one is still up (else the d% decides). [CEL-A34]
pub fn override_of(state: &State, who: CombatantId) -> Option<Behaviour> {
    state
        .f(who)
        .confusion
        .attacked_by
        .filter(|&a| a != who && state.up(a))
        .map(Behaviour::AttackBack)
}

/// The start of a confused creature's turn (after its dazed roll): the behaviour is set, by the
/// attack that overrides the d% or by the d% (a `1d100` roll). Returns whether it takes acts:
/// babbling and hurting itself take the whole turn. [CEL-R18, CEL-A34]
pub fn turn_start(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<bool, Interrupt> {
    let overridden = override_of(state, who);
    let (behaviour, roll) = match overridden {
        Some(b) => (b, 0),
        None => {
            let roll = table.roll_classed(
                100,
                FaceClasses::at(&BANDS),
                Some(who),
                RollPurpose::Other,
                RULE,
            )?;
            (Behaviour::of_roll(roll), roll)
        }
    };
    {
        // Its new action: it is devoted to attacking the one it attacks back; else whom it was
        // devoted to attacking is forgotten until it attacks or is attacked again.
        let c = &mut state.fm(who).confusion;
        c.attacked_by = None;
        c.devoted = match behaviour {
            Behaviour::AttackBack(a) => Some(a),
            _ => None,
        };
        c.turn = Some(behaviour);
    }
    table.emit(|| Event::Acted {
        who,
        act: "is confused",
        on: None,
        detail: match behaviour {
            Behaviour::AttackBack(a) => format!(
                "no d%: {} attacked it since its last turn, and it attacks it back",
                state.roster.name(a)
            ),
            _ => format!("d% {roll:02}: {}", behaviour.words()),
        },
        rule: RULE,
    });
    match behaviour {
        Behaviour::Babble => {
            table.emit(|| Event::Skipped {
                who,
                reason: "confused: babbles incoherently",
                rule: RULE,
            });
            Ok(false)
        }
        Behaviour::HurtSelf => {
            hurt_self(state, table, who)?;
            Ok(false)
        }
        _ => Ok(true),
    }
}

/// d% 51–75: 1d8 + its STR modifier, lethal, to itself, with no attack roll (the parent game's
/// number whatever it holds, its fist too), at least the GM's least damage of a hit; its whole
/// turn. [CEL-A34, PF *confused*]
fn hurt_self(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    let roll = table.roll_dice(1, 8, Some(who), RollPurpose::Damage, RULE)? as i32;
    let strength = state.m(who, STR);
    let mut mods = Mods::default();
    mods.push("STR", RULE, strength);
    let least = state.options.minimum_damage;
    let amount = (roll + strength).max(least);
    mods.push("least damage", "CEL-R5.5", amount - (roll + strength));
    table.emit(|| Event::Acted {
        who,
        act: "hurts itself",
        on: None,
        detail: "confused: 1d8 + STR with the item in hand".into(),
        rule: RULE,
    });
    injury::take_damage(
        state,
        table,
        who,
        None,
        Blow {
            roll,
            mods: &mods,
            amount,
            nonlethal: false,
            coup_de_grace: false,
        },
        RULE,
    )?;
    Ok(())
}

/// The creatures a confused creature must attack this turn, if its behaviour binds it: the one
/// that last attacked it, or the nearest creatures still up, ally or foe (every one as near:
/// its controller picks among them). [CEL-A34]
pub fn targets(state: &State, who: CombatantId) -> Option<Vec<CombatantId>> {
    match state.f(who).confusion.turn? {
        Behaviour::AttackBack(a) => Some(vec![a]),
        Behaviour::AttackNearest => {
            let near: Vec<(i32, CombatantId)> = state
                .ids()
                .filter(|&o| o != who && state.up(o))
                .map(|o| (state.gap(who, o), o))
                .collect();
            let least = near.iter().map(|n| n.0).min();
            Some(
                near.into_iter()
                    .filter(|n| Some(n.0) == least)
                    .map(|n| n.1)
                    .collect(),
            )
        }
        _ => None,
    }
}

/// The choices that carry the behaviour out on `t` (the legality check filters them).
fn carrying_out(state: &State, who: CombatantId, t: CombatantId, out: &mut Vec<Choice>) {
    for (i, _) in state.melee_forms(who) {
        out.push(Choice::Attack(t, i as u8));
    }
    out.extend([
        Choice::Unarmed(t),
        Choice::Shoot(t),
        Choice::Charge(t),
        Choice::Approach(t),
    ]);
}

/// The options a bound confused creature has beyond the usual list: a move toward an ally it
/// must attack (the list offers moves toward foes only).
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if let Some(targets) = targets(state, who) {
        out.extend(
            targets
                .into_iter()
                .filter(|&t| !state.enemies(who, t))
                .map(Choice::Approach),
        );
    }
}

/// Whether the bound behaviour allows `choice`: an attack on (or a move or charge toward) a
/// creature it must attack, or standing up from prone to do so; ending the turn only when it cannot ("a confused creature that
/// cannot carry out the indicated action babbles instead"). [CEL-A34]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let Some(targets) = targets(state, who) else {
        return Ok(());
    };
    let behaviour = state.f(who).confusion.turn.map_or("", Behaviour::words);
    let names = || {
        targets
            .iter()
            .map(|&t| state.roster.key(t).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if *choice == Choice::StandUp {
        // Prone, it stands up to move toward or strike the creature (a reading).
        return Ok(());
    }
    if let Some(t) = choice.goes_at() {
        return Illegal::unless(targets.contains(&t), explain, RULE, || {
            format!(
                "confused, it {behaviour} this turn: only an attack on or a move toward {}",
                names()
            )
        });
    }
    if *choice == Choice::End {
        let mut able = vec![Choice::StandUp];
        for &t in &targets {
            carrying_out(state, who, t, &mut able);
        }
        return Illegal::unless(
            !able
                .iter()
                .any(|c| super::legal::check_action(false, state, who, c).is_ok()),
            explain,
            RULE,
            || {
                format!(
                    "confused, it {behaviour} this turn: it ends its turn (babbling) only when it \
                     cannot attack or move toward {}",
                    names()
                )
            },
        );
    }
    no(explain, RULE, || {
        format!(
            "confused, it {behaviour} this turn: only an attack on or a move toward {}",
            names()
        )
    })
}

/// The default tactics of a bound confused creature: of the creatures it must attack, the one
/// with the fewest hit points (then the first in the roster), with its form of most mean
/// damage that reaches it, an unarmed strike, a shot, standing up when prone, a charge with
/// three acts left, or a move toward it; else it ends its turn babbling. [CEL-A34; docs/celesia.md *Default tactics*]
pub fn tactic(state: &State, who: CombatantId) -> Option<Choice> {
    let mut targets = targets(state, who)?;
    targets.sort_by_key(|&t| (state.f(t).hp, t));
    for t in targets {
        let pick = go_at(state, who, t);
        if pick.is_some() {
            return pick;
        }
    }
    Some(Choice::End)
}

/// The legal action of `who` that carries an attack on `t` out: its form of most mean damage
/// that reaches `t`, an unarmed strike, a shot, standing up when prone, a charge with three acts
/// left, or a move toward it (also a trained animal's, `crate::animal_tactics`).
pub fn go_at(state: &State, who: CombatantId, t: CombatantId) -> Option<Choice> {
    let legal = |c: Choice| {
        super::legal::check_action(false, state, who, &c)
            .is_ok()
            .then_some(c)
    };
    let gap = state.gap(who, t);
    let blow = state
        .melee_forms(who)
        .filter(|(_, w)| {
            w.kind != crate::content::WeaponKind::Unarmed && crate::state::reaches(w, gap)
        })
        .max_by_key(|(i, w)| {
            let mean2 = i32::from(w.damage.count) * (i32::from(w.damage.sides) + 1);
            (mean2 + 2 * w.damage.bonus, -(*i as i32))
        })
        .and_then(|(i, _)| legal(Choice::Attack(t, i as u8)));
    let charge = (state.f(who).acts_left >= 3)
        .then(|| legal(Choice::Charge(t)))
        .flatten();
    blow.or_else(|| legal(Choice::Unarmed(t)))
        .or_else(|| legal(Choice::Shoot(t)))
        .or_else(|| legal(Choice::StandUp))
        .or(charge)
        .or_else(|| legal(Choice::Approach(t)))
}

/// The end of a confused creature's turn spent babbling because it could not carry out its
/// behaviour. [CEL-A34]
pub fn babbles_instead(table: &mut Table<'_, Celesia>, who: CombatantId) {
    table.emit(|| Event::Skipped {
        who,
        reason: "confused: cannot carry out its behaviour, babbles instead",
        rule: RULE,
    });
}

/// `cond WHO confused` / `-confused`: the GM gives or takes back confusion; three head
/// injuries' cannot be taken back (permanent, CEL-R18.3). [CEL-G13, CEL-A34]
pub fn intervene(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    intervention: &Intervention,
    who: CombatantId,
    gained: bool,
) -> Result<(), Interrupt> {
    let name = state.roster.name(who).to_string();
    let f = state.f(who);
    if f.absent() {
        return Err(intervention.refused(format!("{name} is dead or gone")));
    }
    if gained == f.confusion.on {
        return Err(intervention.refused(format!(
            "{name} is {}confused already",
            if gained { "" } else { "not " }
        )));
    }
    if !gained && f.injuries.confused() {
        return Err(intervention.refused(format!(
            "{name}'s confusion is permanent: {} head injuries (CEL-R18; restoration, which heals \
             an injury, is not played)",
            f.injuries.head
        )));
    }
    let c = &mut state.fm(who).confusion;
    *c = Confusion {
        on: gained,
        by_gm: gained,
        ..Confusion::default()
    };
    table.emit(|| Event::Condition {
        who,
        condition: "confused",
        gained,
        rule: "GM",
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::rules::round::can_take_opportunity;
    use fray_core::driver::ScriptedDriver;
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;
    use fray_core::Pos;

    /// Hal (confused: three head injuries) at 0 0, his ally Ann at 0 1, the orc at 1 0 and a
    /// second orc at 3 0.
    fn fight() -> State {
        Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nhead_injuries = 3"),
            )
            .with("ann", "heroes", [0, 1], FIGHTER)
            .monster("orc", "orcs", [1, 0], "orc")
            .monster("orc2", "orcs", [3, 0], "orc")
            .state()
    }
    const HAL: CombatantId = CombatantId(0);
    const ANN: CombatantId = CombatantId(1);
    const ORC: CombatantId = CombatantId(2);
    const ORC2: CombatantId = CombatantId(3);

    /// Runs `turn_start` for Hal with `dice`; returns whether he acts, and the events.
    fn start(state: &mut State, dice: Vec<u32>) -> (bool, Vec<Event>) {
        let mut driver = ScriptedDriver::new(dice, Vec::new());
        let mut sink = VecSink::default();
        let acts = {
            let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
            turn_start(state, &mut table, HAL).expect("scripted dice")
        };
        (acts, sink.events.into_iter().map(|e| e.1).collect())
    }

    fn legal(state: &State, c: Choice) -> Result<(), String> {
        crate::rules::legal::check_action(true, state, HAL, &c).map_err(|e| format!("{e:?}"))
    }

    /// The d% bands: 01–25 acts normally, 26–50 babbles, 51–75 hurts itself, 76–100 attacks
    /// the nearest creature (PF *confused*, CEL-A34); the cuts of exact odds are their starts.
    #[test]
    fn the_d100_bands() {
        for (roll, b) in [
            (1, Behaviour::ActNormally),
            (25, Behaviour::ActNormally),
            (26, Behaviour::Babble),
            (50, Behaviour::Babble),
            (51, Behaviour::HurtSelf),
            (75, Behaviour::HurtSelf),
            (76, Behaviour::AttackNearest),
            (100, Behaviour::AttackNearest),
        ] {
            assert_eq!(Behaviour::of_roll(roll), b, "d% {roll}");
        }
        let classes = FaceClasses::at(&BANDS);
        assert_eq!(
            [1, 25, 26, 50, 51, 75, 76, 100].map(|r| classes.of(r)),
            [0, 0, 1, 1, 2, 2, 3, 3]
        );
    }

    /// Three head injuries confuse; two do not. [CEL-R18]
    #[test]
    fn three_head_injuries_confuse() {
        let s = fight();
        assert!(s.f(HAL).confusion.on && s.f(HAL).injuries.confused());
        assert!(!s.f(ANN).confusion.on);
        let two = Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nhead_injuries = 2"),
            )
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        assert!(!two.f(HAL).confusion.on && two.f(HAL).injuries.sickened());
    }

    /// Each band at the turn's start: acts normally (acts, nothing bound), babbles (no acts, no
    /// damage), hurts itself (no acts; a 5 on the d8 + its STR modifier), attacks the nearest
    /// (acts, bound).
    #[test]
    fn each_band_at_the_turn_start() {
        let mut s = fight();
        let (acts, _) = start(&mut s, vec![25]);
        assert!(acts);
        assert_eq!(s.f(HAL).confusion.turn, Some(Behaviour::ActNormally));
        assert_eq!(targets(&s, HAL), None, "acting normally binds nothing");

        let mut s = fight();
        let hp = s.f(HAL).hp;
        let (acts, events) = start(&mut s, vec![26]);
        assert!(!acts);
        assert_eq!(s.f(HAL).hp, hp);
        assert!(events.iter().any(|e| matches!(
            e,
            Event::Skipped { reason, .. } if reason.contains("babbles")
        )));

        let mut s = fight();
        let str_mod = s.m(HAL, STR);
        let (acts, _) = start(&mut s, vec![75, 5]);
        assert!(!acts);
        assert_eq!(s.f(HAL).hp, hp - (5 + str_mod).max(1));

        let mut s = fight();
        let (acts, _) = start(&mut s, vec![76]);
        assert!(acts);
        assert_eq!(s.f(HAL).confusion.turn, Some(Behaviour::AttackNearest));
    }

    /// Attacking the nearest creature: Ann and the orc are both next to Hal (each "the
    /// nearest"): either may be struck, the farther orc not; ending the turn is refused while
    /// he can attack. The ally is a target like the foe.
    #[test]
    fn attack_nearest_binds_the_acts() {
        let mut s = fight();
        start(&mut s, vec![90]);
        s.fm(HAL).acts_left = 3;
        assert_eq!(targets(&s, HAL), Some(vec![ANN, ORC]));
        legal(&s, Choice::Attack(ANN, 0)).expect("the ally, as near");
        legal(&s, Choice::Attack(ORC, 0)).expect("the orc, as near");
        let far = legal(&s, Choice::Shoot(ORC2)).unwrap_err();
        assert!(far.contains("CEL-A34"), "{far}");
        let end = legal(&s, Choice::End).unwrap_err();
        assert!(end.contains("CEL-A34"), "{end}");
        assert!(legal(&s, Choice::TotalDefense).is_err());
        // Ann moved away: the orc alone is the nearest, and the tactics strike it.
        s.set_square(ANN, Pos::new(-3, 0));
        assert_eq!(targets(&s, HAL), Some(vec![ORC]));
        assert!(legal(&s, Choice::Attack(ANN, 0)).is_err());
        assert!(matches!(tactic(&s, HAL), Some(Choice::Attack(o, _)) if o == ORC));
        // The orc away too: Ann is the nearest, an ally approached (the usual list offers
        // moves toward foes only).
        s.set_square(ORC, Pos::new(8, 0));
        s.set_square(ORC2, Pos::new(9, 0));
        let mut out = Vec::new();
        options(&s, HAL, &mut out);
        assert_eq!(out, vec![Choice::Approach(ANN)]);
        assert_eq!(tactic(&s, HAL), Some(Choice::Approach(ANN)));
    }

    /// Cannot carry it out: tied up (pinned: no move, no blow) with its attacker out of reach,
    /// ending the turn is the only legal choice, and the tactics take it; prone and free, it
    /// stands up first. [CEL-A34]
    #[test]
    fn unable_to_attack_it_babbles() {
        let mut s = fight();
        s.fm(HAL).confusion.attacked_by = Some(ORC2);
        start(&mut s, vec![]);
        assert_eq!(s.f(HAL).confusion.turn, Some(Behaviour::AttackBack(ORC2)));
        s.fm(HAL).acts_left = 3;
        s.fm(HAL).prone = true;
        assert!(legal(&s, Choice::End).is_err(), "it can stand up");
        assert_eq!(tactic(&s, HAL), Some(Choice::StandUp));
        s.fm(HAL).tied = Some(25);
        legal(&s, Choice::End).expect("nothing it can do: babbles");
        assert!(legal(&s, Choice::EscapeArtist(false)).is_err());
        assert_eq!(tactic(&s, HAL), Some(Choice::End));
    }

    /// Attacked: the next turn attacks the last attacker without a d% (no die is scripted),
    /// ally or foe; not if that one is down, nor when the target is not confused.
    #[test]
    fn attacked_it_attacks_back() {
        let mut s = fight();
        attacked(&mut s, ORC2, HAL);
        attacked(&mut s, ANN, HAL);
        assert_eq!(
            override_of(&s, HAL),
            Some(Behaviour::AttackBack(ANN)),
            "the last"
        );
        let (acts, _) = start(&mut s, vec![]);
        assert!(acts);
        assert_eq!(targets(&s, HAL), Some(vec![ANN]));
        assert_eq!(s.f(HAL).confusion.attacked_by, None, "used");
        s.fm(HAL).acts_left = 3;
        legal(&s, Choice::Attack(ANN, 0)).expect("its ally, who attacked it");
        assert!(legal(&s, Choice::Attack(ORC, 0)).is_err());

        let mut s = fight();
        attacked(&mut s, ORC, HAL);
        s.fm(ORC).dead = true;
        assert_eq!(
            override_of(&s, HAL),
            None,
            "the attacker is down: the d% decides"
        );
        attacked(&mut s, HAL, ANN);
        assert_eq!(
            s.f(ANN).confusion,
            Confusion::default(),
            "Ann is not confused"
        );
    }

    /// Attacks of opportunity only on the creature it is devoted to: none at first (its turn's
    /// behaviour forgets it), the one that attacked it, then the one it attacked; an
    /// unconfused fighter strikes either. [CEL-A34]
    #[test]
    fn opportunity_only_on_the_devoted() {
        let mut s = fight();
        s.set_square(ORC2, Pos::new(1, -1));
        for who in [HAL, ANN] {
            s.fm(who).reactions = 1;
            s.fm(who).flat_footed = false;
        }
        assert!(!can_take_opportunity(&s, HAL, ORC));
        assert!(!can_take_opportunity(&s, HAL, ORC2));
        attacked(&mut s, ORC, HAL);
        assert!(can_take_opportunity(&s, HAL, ORC));
        assert!(!can_take_opportunity(&s, HAL, ORC2));
        attacked(&mut s, HAL, ORC2);
        assert!(!can_take_opportunity(&s, HAL, ORC));
        assert!(can_take_opportunity(&s, HAL, ORC2));
        assert_eq!(
            no_strike_reason(&s, HAL, ORC),
            Some("confused: it is not devoted to attacking that creature")
        );
        // Its turn: attacked by the orc, it attacks it back, devoted to it.
        start(&mut s, vec![]);
        assert_eq!(s.f(HAL).confusion.turn, Some(Behaviour::AttackBack(ORC)));
        assert!(can_take_opportunity(&s, HAL, ORC));
        assert!(!can_take_opportunity(&s, HAL, ORC2));
        // The next turn acts normally (d% 10): devoted to none until it attacks.
        start(&mut s, vec![10]);
        assert!(
            !can_take_opportunity(&s, HAL, ORC),
            "a new behaviour: forgotten"
        );
        assert!(!can_take_opportunity(&s, HAL, ORC2));
        s.set_square(ANN, Pos::new(2, 0));
        assert!(can_take_opportunity(&s, ANN, ORC) && can_take_opportunity(&s, ANN, ORC2));
    }
}
