//! Default tactics for Spelljammer combatants: what a sensible player would declare.
//!
//! The policy reads the pending request from `state.asking` and reasons directly (it runs for
//! every decision of every simulated fight: no option lists, no allocation):
//!
//! - badly hurt (hp ≤ ¼) and in melee with two or more foes: `full-defense`;
//! - a healer heals the most hurt friend still up below half its hit points within reach of
//!   the spell (one healer per friend per round);
//! - a caster not in melee (or with no melee form) casts the harmful spell doing the most damage
//!   per round expected (a slow spell may only go off next round) at the nearest foe a harmful
//!   spell reaches;
//! - a shooter (no melee form, or not in melee) shoots the nearest foe in range, aiming when it
//!   has two or more attacks and is not in melee;
//! - a melee fighter picks up a dropped weapon, else attacks the foe it can reach this round
//!   with the fewest friends already declared on it (a longer move counts as one more friend),
//!   then the nearest: standing within reach + 5 ft (the free move), `move-attack` within ½ TMR
//!   + reach, `run-attack` within TMR + reach; out of reach it runs toward the nearest foe;
//! - hurt below half with a potion and not in melee: drinks it as well, paying with movement
//!   when it attacks standing still or has a single attack, else with half its attacks.
//!
//! GM rulings: re-target to the nearest foe still up; free attacks and interruptions allowed;
//! shots into a melee not covered by the table do not go to a friend. A combatant offered a
//! free attack takes it; a desperate defender is not pushed.
//!
//! Every declaration is checked with [`check_declaration`] before it is returned (without
//! words, so without allocating); a refused one becomes `nothing`, so the policy never chooses
//! an illegal option (a property test holds it to that).

use crate::choice::{Choice, Declaration, Intent, Movement};
use crate::content::{Damage, SpellEffect};
use crate::rules::legal::{check_declaration, may_drink};
use crate::rules::movement::nearest_foe;
use crate::rules::tables::{
    casting_time, spell_goes_off, stuck_effect, wound_modifier, wounded_tmr,
};
use crate::state::{Asking, State};
use fray_core::protocol::{Chooser, Question};
use fray_core::{ChoiceRequest, CombatantId};

/// The default choice for a request.
pub fn choose(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
    match state.asking {
        Some(Asking::Declaration(id)) => Choice::Declare(declaration(state, id)),
        Some(Asking::Retarget(who)) => Choice::Retarget(nearest_foe(state, who)),
        Some(
            Asking::FreeAttack { .. }
            | Asking::FreeAttackRuling { .. }
            | Asking::Interruption { .. }
            | Asking::FirstAid { .. },
        ) => Choice::Yes,
        Some(Asking::ShootIntoMelee { .. } | Asking::Push { .. }) => Choice::No,
        None => match (request.chooser, request.question) {
            (Chooser::Combatant(id), Question::Declaration) => {
                Choice::Declare(declaration(state, id))
            }
            _ => Choice::No,
        },
    }
}

/// `me`'s declaration for the round; always legal.
pub fn declaration(state: &State, me: CombatantId) -> Declaration {
    let d = plan(state, me);
    if check_declaration(false, state, me, &d).is_ok() {
        d
    } else {
        Declaration::default()
    }
}

fn with(intent: Intent, movement: Movement) -> Declaration {
    Declaration {
        intent,
        movement,
        ..Declaration::default()
    }
}

/// Twice the average of a damage or healing roll.
fn twice_average(d: Damage) -> i32 {
    i32::from(d.count) * (i32::from(d.sides) + 1) + 2 * d.bonus
}

fn plan(state: &State, me: CombatantId) -> Declaration {
    let f = state.f(me);
    let p = state.p(me);
    if !f.is_up() {
        return Declaration::default();
    }
    let Some(nearest) = nearest_foe(state, me) else {
        return Declaration::default();
    };
    let in_melee = state.in_melee(me);
    // Badly hurt and beset: defend.
    if in_melee && f.hp * 4 <= p.max_hp && foes_in_melee(state, me) >= 2 {
        return with(Intent::FullDefense, Movement::Stand);
    }
    // Out of melee with a missile stuck in it that bleeds 2 or more a round: pull it out.
    let bleeding: i32 = f
        .stuck
        .iter()
        .map(|s| stuck_effect(s.missile, s.grievous).1)
        .sum();
    if !in_melee && bleeding >= 2 {
        return with(Intent::FirstAid(me), Movement::Stand);
    }
    let mut d = main_plan(state, me, nearest, in_melee);
    if f.hp * 2 < p.max_hp && !in_melee && may_drink(state, me) {
        d.potion = true;
        // Pay with whatever costs less (SJ-R17.6): an attacker standing still, or one with a
        // single attack (half, rounded up, would be all of it), pays with movement.
        let attacking = matches!(d.intent, Intent::Attack(_) | Intent::Shoot(_));
        let still = matches!(d.movement, Movement::Stand | Movement::NoMovement);
        d.potion_move = attacking && (still || p.attacks <= 1);
    }
    d
}

fn main_plan(state: &State, me: CombatantId, nearest: CombatantId, in_melee: bool) -> Declaration {
    let f = state.f(me);
    let p = state.p(me);
    if !p.spells.is_empty() && f.casting.is_none() {
        if let Some(d) = heal(state, me) {
            return d;
        }
        if !in_melee || p.melee.is_empty() {
            if let Some(d) = blast(state, me) {
                return d;
            }
        }
    }
    let pos = f.pos;
    if let Some(r) = &p.ranged {
        if p.melee.is_empty() || !in_melee {
            let target = state
                .foes_up(me)
                .filter(|&t| pos.feet_to(state.f(t).pos) <= r.range)
                .min_by_key(|&t| (pos.squares_to(state.f(t).pos), t));
            if let Some(t) = target {
                return Declaration {
                    aim: p.attacks >= 2 && !in_melee,
                    ..with(Intent::Shoot(t), Movement::Stand)
                };
            }
        }
    }
    if !p.melee.is_empty() {
        if f.weapon_dropped {
            return with(Intent::PickUp, Movement::Stand);
        }
        return melee(state, me, nearest);
    }
    if p.ranged.is_some() || !p.spells.is_empty() {
        // Close in until something reaches.
        let reach = p.ranged.as_ref().map_or(0, |r| r.range);
        let gap = pos.feet_to(state.f(nearest).pos) - reach;
        let intent = if gap > tmr(state, me) {
            Intent::Run(nearest)
        } else {
            Intent::Move(nearest)
        };
        return with(intent, Movement::Stand);
    }
    Declaration::default()
}

/// TMR after wound modifiers (SJ-R12, SJ-A7).
fn tmr(state: &State, me: CombatantId) -> i32 {
    let p = state.p(me);
    let m = wound_modifier(state.f(me).hp, p.max_hp);
    wounded_tmr(p.tmr, m, state.options.tmr_percent)
}

/// Foes still up whose reach covers `me`.
fn foes_in_melee(state: &State, me: CombatantId) -> usize {
    let pos = state.f(me).pos;
    state
        .foes_up(me)
        .filter(|&o| state.f(o).pos.within_reach(pos, state.reach(o).max(5)))
        .count()
}

/// Friends of `me` declared earlier this round (roster order) to attack `t` in melee.
fn friends_on(state: &State, me: CombatantId, t: CombatantId) -> i32 {
    let side = state.f(me).side;
    state.fighters[..me.index()]
        .iter()
        .filter(|f| f.side == side && f.plan.declaration.intent == Intent::Attack(t))
        .count() as i32
}

/// Is a heal already declared on `t` this round by a friend earlier in the roster?
fn heal_declared(state: &State, me: CombatantId, t: CombatantId) -> bool {
    let side = state.f(me).side;
    state.fighters[..me.index()]
        .iter()
        .enumerate()
        .any(|(i, f)| match f.plan.declaration.intent {
            Intent::Cast { spell, target } if f.side == side && target == t => state.profiles[i]
                .spells
                .get(spell as usize)
                .is_some_and(|s| matches!(s.def.effect, SpellEffect::Heal { .. })),
            _ => false,
        })
}

/// Heal the most hurt friend (by fraction of hit points) still up and below half, in reach of a
/// heal spell; the biggest heal for it.
fn heal(state: &State, me: CombatantId) -> Option<Declaration> {
    let p = state.p(me);
    let pos = state.f(me).pos;
    let side = state.f(me).side;
    // (hp × 1000 / max, id, −heal, spell)
    let mut best: Option<(i64, CombatantId, i32, u8)> = None;
    for (i, s) in p.spells.iter().enumerate().take(256) {
        let SpellEffect::Heal { dice } = s.def.effect else {
            continue;
        };
        let range = s.def.range.max(5);
        for (o, of) in state.fighters.iter().enumerate() {
            let t = CombatantId(o as u16);
            let max = state.profiles[o].max_hp;
            if of.side != side || !of.is_up() || of.hp * 2 >= max {
                continue;
            }
            if t != me && pos.feet_to(of.pos) > range {
                continue;
            }
            let key = (
                i64::from(of.hp) * 1000 / i64::from(max.max(1)),
                t,
                -twice_average(dice),
                i as u8,
            );
            if best.is_none_or(|b| key < b) && !heal_declared(state, me, t) {
                best = Some(key);
            }
        }
    }
    best.map(|(_, target, _, spell)| with(Intent::Cast { spell, target }, Movement::Stand))
}

/// Rounds (in tenths) a spell is expected to take: one if the d10 initiative is high enough for
/// it to go off this round, else it starts on 10 next round (SJ-R4.1, SJ-R15).
fn expected_tenths_of_rounds(state: &State, me: CombatantId, s: &crate::state::Spell) -> i32 {
    let time = casting_time(s.def.kind, s.rank);
    let dex = state.p(me).dex_mod;
    let in_time = (1..=10)
        .filter(|face| spell_goes_off(face + dex, time).is_some())
        .count() as i32;
    20 - in_time
}

/// The harmful spell doing the most damage per round expected (a slow spell may only go off
/// next round) at the nearest foe one reaches.
fn blast(state: &State, me: CombatantId) -> Option<Declaration> {
    let p = state.p(me);
    let pos = state.f(me).pos;
    let longest = p
        .spells
        .iter()
        .filter(|s| matches!(s.def.effect, SpellEffect::Damage { .. }))
        .map(|s| s.def.range.max(5))
        .max()?;
    let target = state
        .foes_up(me)
        .filter(|&t| pos.feet_to(state.f(t).pos) <= longest)
        .min_by_key(|&t| (pos.squares_to(state.f(t).pos), t))?;
    let d = pos.feet_to(state.f(target).pos);
    let spell = p
        .spells
        .iter()
        .enumerate()
        .take(256)
        .filter_map(|(i, s)| match s.def.effect {
            SpellEffect::Damage { dice, .. } if d <= s.def.range.max(5) => Some((
                twice_average(dice) * 100 / expected_tenths_of_rounds(state, me, s),
                std::cmp::Reverse(i),
            )),
            _ => None,
        })
        .max()
        .map(|(_, std::cmp::Reverse(i))| i as u8)?;
    Some(with(Intent::Cast { spell, target }, Movement::Stand))
}

/// Melee: the foe reachable this round with the fewest friends on it (a longer approach counts
/// as one friend more per step), then the nearest, then the lowest id; else run at the nearest.
fn melee(state: &State, me: CombatantId, nearest: CombatantId) -> Declaration {
    let pos = state.f(me).pos;
    let reach = state.reach(me).max(5);
    let tmr = tmr(state, me);
    let mut best: Option<((i32, i32, CombatantId), Movement)> = None;
    for t in state.foes_up(me) {
        let d = pos.feet_to(state.f(t).pos);
        let (cost, movement) = if d <= reach + 5 {
            (0, Movement::Stand)
        } else if d <= tmr / 2 + reach {
            (1, Movement::MoveAttack)
        } else if d <= tmr + reach {
            (2, Movement::RunAttack)
        } else {
            continue;
        };
        let key = (friends_on(state, me, t) + cost, d, t);
        if best.is_none_or(|(b, _)| key < b) {
            best = Some((key, movement));
        }
    }
    match best {
        Some(((_, _, t), movement)) => with(Intent::Attack(t), movement),
        None => with(Intent::Run(nearest), Movement::Stand),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::legal::testkit::*;
    use crate::rules::legal::{check, check_ruling};
    use fray_core::Pos;

    fn ask(state: &State, asking: Asking) -> Choice {
        let mut s = state.clone();
        s.asking = Some(asking);
        let (chooser, question, rule) = match asking {
            Asking::Declaration(id) => (Chooser::Combatant(id), Question::Declaration, "SJ-R1.1"),
            Asking::Retarget(_) => (Chooser::Gm, Question::Ruling, "SJ-R1.2"),
            Asking::FreeAttack { by, .. } => {
                (Chooser::Combatant(by), Question::Reaction, "SJ-R22.1")
            }
            Asking::Push { by, .. } => (Chooser::Combatant(by), Question::Reaction, "SJ-R19"),
            _ => (Chooser::Gm, Question::Ruling, "SJ-G"),
        };
        let req = ChoiceRequest {
            chooser,
            question,
            rule,
            options: &[],
        };
        let c = choose(&s, &req);
        let legal = match chooser {
            Chooser::Combatant(id) => check(&s, id, &req, &c),
            Chooser::Gm => check_ruling(&s, &req, &c),
        };
        assert!(legal.is_ok(), "tactics chose {c:?}: {legal:?}");
        c
    }

    fn declared(state: &State, who: CombatantId) -> Declaration {
        match ask(state, Asking::Declaration(who)) {
            Choice::Declare(d) => d,
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn a_fighter_in_reach_attacks_standing() {
        let s = fight();
        assert_eq!(
            declared(&s, HERO),
            with(Intent::Attack(ORC1), Movement::Stand)
        );
        assert_eq!(
            declared(&s, ORC1),
            with(Intent::Attack(HERO), Movement::Stand)
        );
    }

    #[test]
    fn movement_follows_the_distance() {
        let mut s = fight();
        // orc-2 at (8,0) is 40 ft from the hero... take orc-1 away.
        s.f_mut(ORC1).down = true;
        // 40 ft > reach 5 + TMR 30: run toward it.
        assert_eq!(declared(&s, HERO), with(Intent::Run(ORC2), Movement::Stand));
        s.set_square(ORC2, Pos::new(7, 0)); // 35 ft: run and attack
        assert_eq!(
            declared(&s, HERO),
            with(Intent::Attack(ORC2), Movement::RunAttack)
        );
        s.set_square(ORC2, Pos::new(4, 0)); // 20 ft ≤ 15 + 5: move and attack
        assert_eq!(
            declared(&s, HERO),
            with(Intent::Attack(ORC2), Movement::MoveAttack)
        );
        s.set_square(ORC2, Pos::new(2, 0)); // 10 ft: the free move
        assert_eq!(
            declared(&s, HERO),
            with(Intent::Attack(ORC2), Movement::Stand)
        );
    }

    #[test]
    fn attackers_spread_over_foes() {
        let mut s = fight();
        // orc-1 is attacked by the hero already; a second hero fighter, the archer turned
        // swordsman, prefers orc-2 when it is as easy to reach.
        edit_profile(&mut s, ARCHER, |p| {
            p.melee = vec![sword()];
            p.ranged = None;
        });
        s.set_square(ARCHER, Pos::new(1, 1));
        s.set_square(ORC2, Pos::new(2, 2));
        s.f_mut(HERO).plan.declaration = with(Intent::Attack(ORC1), Movement::Stand);
        assert_eq!(
            declared(&s, ARCHER),
            with(Intent::Attack(ORC2), Movement::Stand)
        );
        // Without the hero's declaration, the nearest (orc-1, adjacent) wins.
        s.f_mut(HERO).plan.declaration = Declaration::default();
        assert_eq!(
            declared(&s, ARCHER),
            with(Intent::Attack(ORC1), Movement::Stand)
        );
    }

    #[test]
    fn an_archer_shoots_the_nearest_and_aims_out_of_melee() {
        let mut s = fight();
        assert_eq!(
            declared(&s, ARCHER),
            Declaration {
                aim: true,
                ..with(Intent::Shoot(ORC1), Movement::Stand)
            }
        );
        // In melee: no aim.
        s.set_square(ORC1, Pos::new(-5, 0));
        assert_eq!(
            declared(&s, ARCHER),
            with(Intent::Shoot(ORC1), Movement::Stand)
        );
        // Nobody in range: walk closer.
        s.f_mut(ORC1).down = true;
        s.set_square(ORC2, Pos::new(20, 0));
        assert_eq!(
            declared(&s, ARCHER),
            with(Intent::Move(ORC2), Movement::Stand)
        );
        s.set_square(ORC2, Pos::new(30, 0));
        assert_eq!(
            declared(&s, ARCHER),
            with(Intent::Run(ORC2), Movement::Stand)
        );
    }

    #[test]
    fn a_mage_blasts_and_heals() {
        let mut s = fight();
        assert_eq!(
            declared(&s, MAGE),
            with(
                Intent::Cast {
                    spell: 0,
                    target: ORC1
                },
                Movement::Stand
            )
        );
        // Hurt below half: it heals itself first.
        s.f_mut(MAGE).hp = 15;
        assert_eq!(
            declared(&s, MAGE),
            with(
                Intent::Cast {
                    spell: 1,
                    target: MAGE
                },
                Movement::Stand
            )
        );
        // A hurt hero out of touch range is not healed; the mage blasts instead.
        s.f_mut(MAGE).hp = 40;
        s.f_mut(HERO).hp = 5;
        assert!(matches!(
            declared(&s, MAGE).intent,
            Intent::Cast { spell: 0, .. }
        ));
        s.set_square(MAGE, Pos::new(-1, 0));
        assert_eq!(
            declared(&s, MAGE),
            with(
                Intent::Cast {
                    spell: 1,
                    target: HERO
                },
                Movement::Stand
            )
        );
    }

    #[test]
    fn a_slow_spell_counts_for_less() {
        let mut s = fight();
        let mut slow = spells()[0].clone();
        slow.def.name = "flame strike".into();
        slow.def.kind = crate::content::SpellKind::Cleric { time: 15 };
        slow.def.effect = SpellEffect::Damage {
            dice: Damage {
                count: 5,
                sides: 6,
                bonus: 0,
            },
            prot: false,
        };
        edit_profile(&mut s, MAGE, |p| p.spells.push(slow));
        // 3d6 every round beats 5d6 that mostly goes off next round.
        assert_eq!(
            declared(&s, MAGE).intent,
            Intent::Cast {
                spell: 0,
                target: ORC1
            }
        );
        // Out of the bolt's range, the slow spell is all there is.
        edit_profile(&mut s, MAGE, |p| p.spells[0].def.range = 10);
        assert_eq!(
            declared(&s, MAGE).intent,
            Intent::Cast {
                spell: 2,
                target: ORC1
            }
        );
    }

    #[test]
    fn badly_hurt_and_beset_defends() {
        let mut s = fight();
        s.f_mut(HERO).hp = 10;
        assert_eq!(declared(&s, HERO).intent, Intent::Attack(ORC1));
        s.set_square(ORC2, Pos::new(0, 1));
        assert_eq!(
            declared(&s, HERO),
            with(Intent::FullDefense, Movement::Stand)
        );
    }

    #[test]
    fn hurt_and_free_drinks_a_potion() {
        let mut s = fight();
        s.f_mut(HERO).hp = 15;
        s.set_square(ORC1, Pos::new(4, 0));
        let d = declared(&s, HERO);
        assert!(d.potion, "{d:?}");
        // In melee: no potion.
        s.set_square(ORC1, Pos::new(1, 0));
        assert!(!declared(&s, HERO).potion);
    }

    #[test]
    fn a_dropped_weapon_is_picked_up() {
        let mut s = fight();
        s.f_mut(HERO).weapon_dropped = true;
        assert_eq!(declared(&s, HERO), with(Intent::PickUp, Movement::Stand));
    }

    #[test]
    fn the_fallen_and_the_victorious_do_nothing() {
        let mut s = fight();
        s.f_mut(HERO).down = true;
        assert_eq!(declared(&s, HERO), Declaration::default());
        let mut s = fight();
        s.f_mut(ORC1).down = true;
        s.f_mut(ORC2).down = true;
        assert_eq!(declared(&s, HERO), Declaration::default());
    }

    #[test]
    fn other_requests() {
        let mut s = fight();
        assert_eq!(
            ask(&s, Asking::Retarget(HERO)),
            Choice::Retarget(Some(ORC1))
        );
        s.f_mut(ORC1).down = true;
        assert_eq!(
            ask(&s, Asking::Retarget(HERO)),
            Choice::Retarget(Some(ORC2))
        );
        s.f_mut(ORC2).down = true;
        assert_eq!(ask(&s, Asking::Retarget(HERO)), Choice::Retarget(None));
        let s = fight();
        assert_eq!(
            ask(&s, Asking::FreeAttack { by: ORC1, on: HERO }),
            Choice::Yes
        );
        assert_eq!(
            ask(&s, Asking::FreeAttackRuling { by: ORC1, on: HERO }),
            Choice::Yes
        );
        assert_eq!(ask(&s, Asking::Interruption { caster: MAGE }), Choice::Yes);
        assert_eq!(ask(&s, Asking::ShootIntoMelee { by: ARCHER }), Choice::No);
        assert_eq!(
            ask(
                &s,
                Asking::Push {
                    by: HERO,
                    target: ORC1
                }
            ),
            Choice::No
        );
    }

    /// Seeded dice and the default tactics, listing every request's options and checking each
    /// option and each tactics choice (what the engine's property test does, here in the crate).
    struct Audit {
        dice: fray_core::AutoDriver,
        checked: usize,
        failure: Option<String>,
    }

    impl fray_core::Driver<crate::Spelljammer> for Audit {
        fn roll(
            &mut self,
            request: &fray_core::RollRequest,
        ) -> Result<fray_core::Rolled, fray_core::Interrupt> {
            fray_core::Driver::<crate::Spelljammer>::roll(&mut self.dice, request)
        }
        fn choose(
            &mut self,
            state: &State,
            request: &ChoiceRequest<'_, Choice>,
        ) -> Result<Choice, fray_core::Interrupt> {
            use fray_core::Ruleset;
            if request.options.is_empty() && self.failure.is_none() {
                self.failure = Some(format!("no options for {:?}", state.asking));
            }
            for o in request.options {
                self.checked += 1;
                if let Err(e) = crate::Spelljammer::check_choice(state, request, o) {
                    self.failure.get_or_insert(format!(
                        "offered `{}` refused: {e}",
                        crate::choice::text(state, o)
                    ));
                }
            }
            let c = crate::Spelljammer::tactics(state, request);
            if let Err(e) = crate::Spelljammer::check_choice(state, request, &c) {
                self.failure.get_or_insert(format!(
                    "tactics chose `{}`, refused: {e}",
                    crate::choice::text(state, &c)
                ));
            }
            if !request.options.contains(&c) {
                self.failure.get_or_insert(format!(
                    "tactics chose `{}`, not among the options {:?}",
                    crate::choice::text(state, &c),
                    request.options
                ));
            }
            Ok(c)
        }
    }

    #[test]
    fn whole_fights_offer_and_choose_only_legal_options() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let mut s = fight();
            s.options.ask_retarget = seed % 2 == 0;
            s.options.ask_free_attack = seed % 3 == 0;
            s.options.damage_interrupts = seed % 4 != 0;
            s.f_mut(HERO).shield_slung = seed % 5 == 0;
            s.f_mut(ORC2).weapon_dropped = seed % 7 == 0;
            edit_profile(&mut s, ORC2, |p| p.ranged = Some(bow()));
            let mut driver = Audit {
                dice: fray_core::AutoDriver::new(seed),
                checked: 0,
                failure: None,
            };
            let limits = fray_core::Limits {
                max_rounds: 30,
                max_answers: 100_000,
            };
            let end = fray_core::run_fight::<crate::Spelljammer>(
                &mut s,
                &mut driver,
                &mut fray_core::NullSink,
                None,
                &limits,
            );
            match end {
                Ok(end) => assert!(!end.stalemate(), "seed {seed}: no winner in 30 rounds"),
                Err(e) => panic!("seed {seed}: {e:?}"),
            }
            if let Some(f) = driver.failure {
                panic!("seed {seed}: {f}");
            }
            checked += driver.checked;
        }
        assert!(checked > 1000, "only {checked} options checked");
    }
}
