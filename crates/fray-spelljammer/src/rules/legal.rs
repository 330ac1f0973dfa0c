//! Which declarations and answers the rules allow, each refusal naming its rule, and the option
//! lists offered to people.
//!
//! Every request says what it is about in `state.asking` (requests carry no payload): [`options`]
//! lists the options of the pending request, [`check`] and [`check_ruling`] judge an answer
//! against it. The options offered are candidates that pass the same checks, so the two never
//! disagree.

use super::movement::free;
use crate::choice::{Choice, Declaration, Draw, Intent, Movement};
use crate::content::SpellEffect;
use crate::state::{Asking, State};
use fray_core::protocol::Question;
use fray_core::{ChoiceRequest, CombatantId, Direction, Illegal};

use fray_core::protocol::refuse as no;

/// Is `id` a combatant of this fight?
fn exists(state: &State, id: CombatantId) -> bool {
    id.index() < state.fighters.len()
}

/// The target of an attack, a shot or a harmful spell must be a foe still up. [SJ-R1.1]
fn foe_up(
    w: bool,
    state: &State,
    actor: CombatantId,
    t: CombatantId,
    rule: &'static str,
) -> Result<(), Illegal> {
    if !exists(state, t) {
        return no(w, "SJ-R1.1", || format!("no combatant number {}", t.0));
    }
    if t == actor || !state.foes(actor, t) {
        return no(w, rule, || {
            format!(
                "{} is not a foe of {}",
                state.roster.name(t),
                state.roster.name(actor)
            )
        });
    }
    if !state.f(t).is_up() {
        return no(w, "SJ-R1.1", || {
            format!("{} is already out of the fight", state.roster.name(t))
        });
    }
    Ok(())
}

/// Can `id` drink a potion this round: one left, and not in melee at the start of the round?
/// [Seed: Drink Potion] SJ-R17.6
pub fn may_drink(state: &State, id: CombatantId) -> bool {
    let f = state.f(id);
    f.potions > 0 && state.p(id).potion.is_some() && !state.in_melee(id)
}

/// Checks a declaration of `actor` (SJ-R1.1 and the rules it names). With `explain` false the
/// refusal carries no words (cheap enough for the tactics).
pub fn check_declaration(
    explain: bool,
    state: &State,
    actor: CombatantId,
    d: &Declaration,
) -> Result<(), Illegal> {
    let w = explain;
    let me = state.f(actor);
    let p = state.p(actor);
    let name = || state.roster.name(actor);
    if !me.is_up() {
        if *d == Declaration::default() {
            return Ok(());
        }
        return no(w, "SJ-R1.1", || {
            format!("{} is down and can only declare `nothing`", name())
        });
    }
    // The intent.
    match d.intent {
        Intent::Nothing | Intent::Hold | Intent::FullDefense | Intent::DesperateDefense => {}
        Intent::Attack(t) => {
            foe_up(w, state, actor, t, "SJ-R1.1")?;
            if p.melee.is_empty() {
                return no(w, "SJ-R1.1", || {
                    format!("{} has no melee weapon to attack with", name())
                });
            }
            if me.weapon_dropped && d.draw == Draw::None {
                return no(w, "SJ-R21", || {
                    format!(
                        "{}'s weapon lies on the ground: declare `pick-up`, or `draw` another",
                        name()
                    )
                });
            }
        }
        Intent::Shoot(t) => {
            foe_up(w, state, actor, t, "SJ-R1.1")?;
            let Some(r) = &p.ranged else {
                return no(w, "SJ-R23", || format!("{} has no ranged weapon", name()));
            };
            let d = me.pos.feet_to(state.f(t).pos);
            if d > r.range {
                return no(w, "SJ-R23", || {
                    format!(
                        "{} is {d} ft away, beyond the {} ft range of the {}",
                        state.roster.name(t),
                        r.range,
                        r.name
                    )
                });
            }
        }
        Intent::Cast { spell, target } => check_cast(w, state, actor, spell, target)?,
        Intent::Move(t) | Intent::Run(t) => {
            if !exists(state, t) {
                return no(w, "SJ-R1.1", || format!("no combatant number {}", t.0));
            }
            if t == actor {
                return no(w, "SJ-R1.1", || "a combatant cannot move toward itself");
            }
        }
        Intent::Withdraw => {
            if !state.in_melee(actor) {
                return no(w, "SJ-R22", || {
                    format!(
                        "{} is not in melee: there is nothing to withdraw from",
                        name()
                    )
                });
            }
        }
        Intent::FirstAid(t) => {
            if !exists(state, t) {
                return no(w, "SJ-R1.1", || format!("no combatant number {}", t.0));
            }
            if state.foes(actor, t) {
                return no(w, "SJ-G13", || {
                    format!(
                        "{} is a foe: First Aid is for oneself or a friend",
                        state.roster.name(t)
                    )
                });
            }
            if !state.f(t).is_up() {
                return no(w, "SJ-G13", || {
                    format!("{} is out of the fight", state.roster.name(t))
                });
            }
            if t != actor && !me.pos.is_adjacent(state.f(t).pos) {
                return no(w, "SJ-G13", || {
                    format!(
                        "{} is not next to {}: First Aid needs a friend within 5 ft",
                        state.roster.name(t),
                        name()
                    )
                });
            }
            if state.f(t).stuck.is_empty() {
                return no(w, "SJ-R23.6", || {
                    format!("{} has no stuck missile to pull out", state.roster.name(t))
                });
            }
        }
        Intent::PickUp => {
            if !me.weapon_dropped {
                return no(w, "SJ-R21", || {
                    format!("{}'s weapon is not on the ground", name())
                });
            }
        }
    }
    let attacking = matches!(d.intent, Intent::Attack(_) | Intent::Shoot(_));
    // The defensive modes.
    let desperate = Declaration {
        intent: Intent::DesperateDefense,
        ..Declaration::default()
    };
    match d.intent {
        Intent::DesperateDefense if *d != desperate => {
            return no(w, "SJ-R19", || {
                "Desperate Defense allows no other action of any kind: no movement mode, \
                 Defending, aim, draw, shield or potion"
            });
        }
        Intent::FullDefense if d.movement != Movement::Stand => {
            return no(w, "SJ-R19", || {
                "Full Defense takes no movement mode: it stands and defends"
            });
        }
        _ => {}
    }
    // The movement mode.
    match d.movement {
        Movement::Stand => {}
        Movement::NoMovement => {
            if !attacking && !matches!(d.intent, Intent::Cast { .. }) {
                return no(w, "SJ-R5", || {
                    "`no-movement` goes with an attack, a shot or a spell"
                });
            }
        }
        m @ (Movement::MoveAttack | Movement::RunAttack | Movement::AttackMove) => {
            if !attacking {
                return no(w, "SJ-R17", || {
                    format!(
                        "`{}` goes with an attack or a shot",
                        m.key().unwrap_or_default()
                    )
                });
            }
        }
    }
    // Defending.
    if d.defending > 0 {
        if !attacking {
            return no(w, "SJ-R19", || {
                "Defending (giving up SC for DEF) goes with an attack or a shot"
            });
        }
        let max = 5 * p.weapon_rank.max(0);
        if i32::from(d.defending) > max {
            return no(w, "SJ-R19", || {
                format!(
                    "{} may give up at most {max} SC (5 × weapon rank {})",
                    name(),
                    p.weapon_rank
                )
            });
        }
    }
    // Careful aim.
    if d.aim {
        if !matches!(d.intent, Intent::Shoot(_)) {
            return no(w, "SJ-R23.2", || "careful aim goes with a shot");
        }
        if !matches!(d.movement, Movement::Stand | Movement::NoMovement) {
            return no(w, "SJ-R23.2", || "careful aim needs standing still");
        }
    }
    // Ready shield.
    if d.ready_shield && !me.shield_slung {
        return no(w, "SJ-R17.5", || {
            format!("{} has no slung shield to ready", name())
        });
    }
    // Free actions: one a round is free; each further one takes the place of an attack.
    if d.free > crate::choice::MAX_FREE_ACTIONS {
        return no(w, "SJ-R17.7", || {
            format!(
                "at most {} free actions may be declared in a round",
                crate::choice::MAX_FREE_ACTIONS
            )
        });
    }
    if d.free > 1 {
        let extra = i32::from(d.free) - 1;
        if !attacking {
            return no(w, "SJ-R17.7", || {
                "only one free action a round is free; a further one costs a regular action \
                 (an attack or a shot), and this declaration has none to give up"
            });
        }
        if extra > i32::from(p.attacks) {
            return no(w, "SJ-R17.7", || {
                format!(
                    "{} has {} attacks; {extra} extra free actions would cost more than that",
                    name(),
                    p.attacks
                )
            });
        }
    }
    // Potion.
    if d.potion {
        if me.potions == 0 || p.potion.is_none() {
            return no(w, "SJ-R17.6", || {
                format!("{} has no potion at hand", name())
            });
        }
        if state.in_melee(actor) {
            return no(w, "SJ-R17.6", || {
                format!(
                    "{} is in melee: a potion may only be drunk when not in melee at the start \
                     of the round",
                    name()
                )
            });
        }
    }
    Ok(())
}

/// A spell: one the caster knows, not while already casting, a heal on itself or a friend, a
/// harmful spell on a foe still up, within the spell's range. [Seed: Casting] SJ-R15
fn check_cast(
    w: bool,
    state: &State,
    actor: CombatantId,
    spell: u8,
    target: CombatantId,
) -> Result<(), Illegal> {
    let p = state.p(actor);
    let Some(s) = p.spells.get(spell as usize) else {
        return no(w, "SJ-R15", || {
            format!(
                "{} has no spell number {spell} (it knows {})",
                state.roster.name(actor),
                p.spells.len()
            )
        });
    };
    if let Some(c) = state.f(actor).casting {
        return no(w, "SJ-R15", || {
            format!(
                "{} is still casting; its spell goes off on segment {}",
                state.roster.name(actor),
                c.off_segment
            )
        });
    }
    if !exists(state, target) {
        return no(w, "SJ-R1.1", || format!("no combatant number {}", target.0));
    }
    match s.def.effect {
        SpellEffect::Heal { .. } => {
            if state.foes(actor, target) {
                return no(w, "SJ-R15", || {
                    format!("{} heals its caster or a friend, not a foe", s.def.name)
                });
            }
            if state.f(target).dead {
                return no(w, "SJ-R15", || {
                    format!("{} is dead", state.roster.name(target))
                });
            }
            if state.f(target).gone.is_some() {
                return no(w, "SJ-R15", || {
                    format!("{} is not in the fight", state.roster.name(target))
                });
            }
        }
        SpellEffect::Damage { .. } => foe_up(w, state, actor, target, "SJ-R15")?,
    }
    let d = state.f(actor).pos.feet_to(state.f(target).pos);
    let range = s.def.range.max(5);
    if target != actor && d > range {
        return no(w, "SJ-R15", || {
            format!(
                "{} reaches {range} ft; {} is {d} ft away",
                s.def.name,
                state.roster.name(target)
            )
        });
    }
    Ok(())
}

/// Is the square beyond `target` in `dir` free of combatants still up, so that a push moves it
/// at least 5 ft (and up to 10 ft, SJ-R19)? [Seed: Desperate Defense] SJ-R19
pub fn push_free(state: &State, target: CombatantId, dir: Direction) -> bool {
    free(state, state.f(target).pos.step(dir), target)
}

/// The kind of answer a question wants, in words.
fn wanted(question: Question) -> &'static str {
    match question {
        Question::Declaration => "a declaration such as `attack orc-1` or `nothing`",
        Question::Reaction => "`yes` or `no` (or `push DIRECTION` when pushing)",
        Question::Ruling => "`yes` or `no` (or `retarget KEY` / `retarget none`)",
        Question::Action => "nothing: Spelljammer asks no action questions",
    }
}

/// Does the choice answer the question at all?
fn answers(question: Question, choice: &Choice) -> bool {
    <crate::Spelljammer as fray_core::Ruleset>::answers(question, choice)
}

fn mismatch(request: &ChoiceRequest<'_, Choice>, choice: &Choice) -> Result<(), Illegal> {
    let what = match choice {
        Choice::Declare(_) => "a declaration",
        Choice::Retarget(_) => "a retarget ruling",
        Choice::Yes | Choice::No => "a yes/no answer",
        Choice::Push(_) => "a push",
    };
    Err(Illegal {
        rule: request.rule,
        reason: format!(
            "{what} does not answer this request; expected {}",
            wanted(request.question)
        ),
    })
}

fn not_yours(
    state: &State,
    request: &ChoiceRequest<'_, Choice>,
    who: CombatantId,
    owner: Option<CombatantId>,
) -> Result<(), Illegal> {
    Err(Illegal {
        rule: request.rule,
        reason: match owner {
            Some(o) => format!(
                "the request is put to {}, not {}",
                state.roster.name(o),
                state.roster.name(who)
            ),
            None => format!(
                "the request is a ruling for the GM, not for {}",
                state.roster.name(who)
            ),
        },
    })
}

fn yes_or_no(request: &ChoiceRequest<'_, Choice>, choice: &Choice) -> Result<(), Illegal> {
    match choice {
        Choice::Yes | Choice::No => Ok(()),
        _ => Err(Illegal {
            rule: request.rule,
            reason: "answer `yes` or `no`".into(),
        }),
    }
}

/// Checks a combatant's answer against the pending request (`state.asking`).
pub fn check(
    state: &State,
    who: CombatantId,
    request: &ChoiceRequest<'_, Choice>,
    choice: &Choice,
) -> Result<(), Illegal> {
    if !answers(request.question, choice) {
        return mismatch(request, choice);
    }
    match state.asking {
        Some(Asking::Declaration(id)) => {
            if id != who {
                return not_yours(state, request, who, Some(id));
            }
            match choice {
                Choice::Declare(d) => check_declaration(true, state, id, d),
                _ => mismatch(request, choice),
            }
        }
        Some(Asking::FreeAttack { by, .. }) => {
            if by != who {
                return not_yours(state, request, who, Some(by));
            }
            yes_or_no(request, choice)
        }
        Some(Asking::Push { by, target }) => {
            if by != who {
                return not_yours(state, request, who, Some(by));
            }
            match *choice {
                Choice::No => Ok(()),
                Choice::Push(dir) => {
                    if push_free(state, target, dir) {
                        Ok(())
                    } else {
                        Err(Illegal {
                            rule: "SJ-R19",
                            reason: format!(
                                "the square beyond {} to the {} is not free",
                                state.roster.name(target),
                                crate::choice::direction_key(dir)
                            ),
                        })
                    }
                }
                _ => Err(Illegal {
                    rule: "SJ-R19",
                    reason: "answer `push DIRECTION` or `no`".into(),
                }),
            }
        }
        Some(
            Asking::Retarget(_)
            | Asking::FreeAttackRuling { .. }
            | Asking::Interruption { .. }
            | Asking::FirstAid { .. }
            | Asking::ShootIntoMelee { .. },
        ) => not_yours(state, request, who, None),
        None => match (request.question, choice) {
            (Question::Declaration, Choice::Declare(d)) => check_declaration(true, state, who, d),
            (Question::Reaction, Choice::Yes | Choice::No) => Ok(()),
            _ if request.options.contains(choice) => Ok(()),
            _ => mismatch(request, choice),
        },
    }
}

/// Checks a GM's answer against the pending request (`state.asking`).
pub fn check_ruling(
    state: &State,
    request: &ChoiceRequest<'_, Choice>,
    choice: &Choice,
) -> Result<(), Illegal> {
    if !answers(request.question, choice) {
        return mismatch(request, choice);
    }
    match state.asking {
        Some(Asking::Retarget(who)) => match *choice {
            Choice::Retarget(None) => Ok(()),
            Choice::Retarget(Some(t)) => foe_up(true, state, who, t, "SJ-R1.2"),
            _ => Err(Illegal {
                rule: "SJ-R1.2",
                reason: "answer `retarget KEY` (a foe still up) or `retarget none`".into(),
            }),
        },
        Some(
            Asking::FreeAttackRuling { .. }
            | Asking::Interruption { .. }
            | Asking::FirstAid { .. }
            | Asking::ShootIntoMelee { .. },
        ) => yes_or_no(request, choice),
        Some(Asking::Declaration(id))
        | Some(Asking::FreeAttack { by: id, .. })
        | Some(Asking::Push { by: id, .. }) => Err(Illegal {
            rule: request.rule,
            reason: format!(
                "the request is put to {}, not to the GM",
                state.roster.name(id)
            ),
        }),
        None => match choice {
            Choice::Yes | Choice::No => Ok(()),
            _ if request.options.contains(choice) => Ok(()),
            _ => mismatch(request, choice),
        },
    }
}

/// The options of the pending request (`state.asking`), for drivers that show them (cleared
/// first).
pub fn options(state: &State, out: &mut Vec<Choice>) {
    out.clear();
    match state.asking {
        Some(Asking::Declaration(id)) => declarations(state, id, out),
        Some(Asking::Retarget(who)) => retargets(state, who, out),
        Some(Asking::Push { target, .. }) => pushes(state, target, out),
        Some(
            Asking::FreeAttack { .. }
            | Asking::FreeAttackRuling { .. }
            | Asking::Interruption { .. }
            | Asking::FirstAid { .. }
            | Asking::ShootIntoMelee { .. },
        )
        | None => out.extend([Choice::Yes, Choice::No]),
    }
}

/// The GM's options when `who`'s declared target is gone: each foe of `who` still up, then
/// none (appended). [Seed: Action Declaration] SJ-R1.2
pub fn retargets(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    out.extend(state.foes_up(who).map(|t| Choice::Retarget(Some(t))));
    out.push(Choice::Retarget(None));
}

/// Pushing a desperate defender: each direction with 10 ft free beyond it, then `no`
/// (appended). [Seed: Desperate Defense] SJ-R19
pub fn pushes(state: &State, target: CombatantId, out: &mut Vec<Choice>) {
    out.extend(
        Direction::ALL
            .into_iter()
            .filter(|&dir| push_free(state, target, dir))
            .map(Choice::Push),
    );
    out.push(Choice::No);
}

/// A sensible, finite list of `id`'s legal declarations (appended): nothing and hold; for each
/// foe still up, attacks with every movement mode (and Defending at half and full sacrifice),
/// shots in range (with aim where allowed), moving and running toward it; every spell at every
/// valid target (standing or with no movement); the defensive modes; withdraw, pick-up; and the
/// extras (potion, ready shield, draw) on their own; and the default tactics' declaration. Each
/// passes [`check_declaration`].
pub fn declarations(state: &State, id: CombatantId, out: &mut Vec<Choice>) {
    let start = out.len();
    let mut push = |d: Declaration| {
        let c = Choice::Declare(d);
        if check_declaration(false, state, id, &d).is_ok() && !out[start..].contains(&c) {
            out.push(c);
        }
    };
    let base = Declaration::default();
    push(base);
    if !state.f(id).is_up() {
        return;
    }
    let p = state.p(id);
    let me = state.f(id);
    let max = (5 * p.weapon_rank.max(0)).min(i32::from(u8::MAX)) as u8;
    let half = max / 2 / 5 * 5;
    let draw = if me.weapon_dropped {
        Draw::Draw
    } else {
        Draw::None
    };
    let with = |intent: Intent, movement: Movement| Declaration {
        intent,
        movement,
        ..base
    };
    const MODES: [Movement; 5] = [
        Movement::Stand,
        Movement::NoMovement,
        Movement::MoveAttack,
        Movement::RunAttack,
        Movement::AttackMove,
    ];
    for t in state.foes_up(id) {
        if !p.melee.is_empty() {
            for m in MODES {
                push(Declaration {
                    draw,
                    ..with(Intent::Attack(t), m)
                });
            }
            for s in [half, max] {
                if s > 0 {
                    push(Declaration {
                        defending: s,
                        draw,
                        ..with(Intent::Attack(t), Movement::Stand)
                    });
                }
            }
        }
        if p.ranged.is_some() {
            for m in MODES {
                push(with(Intent::Shoot(t), m));
            }
            for m in [Movement::Stand, Movement::NoMovement] {
                push(Declaration {
                    aim: true,
                    ..with(Intent::Shoot(t), m)
                });
            }
            if max > 0 {
                push(Declaration {
                    defending: max,
                    ..with(Intent::Shoot(t), Movement::Stand)
                });
            }
        }
        push(with(Intent::Move(t), Movement::Stand));
        push(with(Intent::Run(t), Movement::Stand));
    }
    for spell in 0..p.spells.len().min(usize::from(u8::MAX) + 1) {
        for target in state.ids() {
            for m in [Movement::Stand, Movement::NoMovement] {
                push(with(
                    Intent::Cast {
                        spell: spell as u8,
                        target,
                    },
                    m,
                ));
            }
        }
    }
    for patient in state.ids() {
        push(with(Intent::FirstAid(patient), Movement::Stand));
    }
    for intent in [
        Intent::FullDefense,
        Intent::DesperateDefense,
        Intent::Withdraw,
        Intent::PickUp,
        Intent::Hold,
    ] {
        push(with(intent, Movement::Stand));
    }
    push(Declaration {
        potion: true,
        ..base
    });
    if let Some(t) = state.foes_up(id).next() {
        for intent in [Intent::Attack(t), Intent::Shoot(t)] {
            push(Declaration {
                potion: true,
                potion_move: true,
                ..with(intent, Movement::Stand)
            });
        }
    }
    push(Declaration {
        ready_shield: true,
        ..base
    });
    push(Declaration {
        ready_shield: true,
        ..with(Intent::FullDefense, Movement::Stand)
    });
    push(Declaration {
        draw: Draw::Draw,
        ..base
    });
    push(Declaration {
        draw: Draw::SheatheDraw,
        ..base
    });
    // The default tactics' choice is always among the options.
    push(crate::tactics::declaration(state, id));
}

#[cfg(test)]
pub(crate) mod testkit {
    //! A small fight built by hand for the unit tests of the choice, legality and tactics code.

    use crate::content::{Damage, Size, Specialization, SpellDef, SpellEffect, SpellKind};
    use crate::state::{AttackForm, Fighter, Options, Plan, Profile, Spell, State};
    use fray_core::roster::{CombatantInfo, SideInfo};
    use fray_core::{CombatantId, Pos, Roster, SideId};
    use std::sync::Arc;

    pub const HERO: CombatantId = CombatantId(0);
    pub const MAGE: CombatantId = CombatantId(1);
    pub const ARCHER: CombatantId = CombatantId(2);
    pub const ORC1: CombatantId = CombatantId(3);
    pub const ORC2: CombatantId = CombatantId(4);

    pub fn sword() -> AttackForm {
        AttackForm {
            name: "long sword".into(),
            sc: 80,
            damage: Damage {
                count: 1,
                sides: 8,
                bonus: 2,
            },
            reach: 5,
            range: 0,
            class: None,
            missile: None,
            offhand: false,
        }
    }

    pub fn bow() -> AttackForm {
        AttackForm {
            name: "long bow".into(),
            sc: 70,
            damage: Damage {
                count: 1,
                sides: 8,
                bonus: 0,
            },
            reach: 0,
            range: 100,
            class: Some(crate::content::RangedClass::Bow),
            missile: Some(crate::content::Missile::Arrow),
            offhand: false,
        }
    }

    pub fn profile() -> Profile {
        Profile {
            size: Size::Medium,
            max_hp: 40,
            con: 14,
            dex: 14,
            per: 14,
            dex_mod: 0,
            tmr: 30,
            def_base: 20,
            def_dex: 5,
            def_skill: 5,
            def_shield: 0,
            def_magic: 0,
            prot: 2,
            attacks: 2,
            melee: vec![sword()],
            ranged: None,
            weapon_rank: 4,
            specialization: Specialization::None,
            master_bowman: 0,
            ambidextrous: false,
            range_of_field: 0,
            attacker_count: 1,
            encumbered: false,
            darkvision: false,
            pace: None,
            spells: Vec::new(),
            potion: None,
        }
    }

    pub fn spells() -> Vec<Spell> {
        vec![
            Spell {
                def: SpellDef {
                    name: "bolt of energy".into(),
                    kind: SpellKind::MageSpecific,
                    effect: SpellEffect::Damage {
                        dice: Damage {
                            count: 3,
                            sides: 6,
                            bonus: 0,
                        },
                        prot: false,
                    },
                    range: 60,
                },
                rank: 8,
            },
            Spell {
                def: SpellDef {
                    name: "cure wounds".into(),
                    kind: SpellKind::Cleric { time: 5 },
                    effect: SpellEffect::Heal {
                        dice: Damage {
                            count: 2,
                            sides: 6,
                            bonus: 2,
                        },
                    },
                    range: 0,
                },
                rank: 0,
            },
        ]
    }

    fn fighter(side: u8, x: i32, y: i32, hp: i32) -> Fighter {
        Fighter {
            side: SideId(side),
            pos: Pos::new(x, y),
            hp,
            prot_lost: 0,
            down: false,
            dead: false,
            gone: None,
            stunned: false,
            casting: None,
            stuck: Vec::new(),
            weapon_dropped: false,
            shield_slung: false,
            potions: 0,
            aimed: false,
            wounds: (0, 0),
            held: false,
            invisible: false,
            cover: Default::default(),
            plan: Plan::default(),
            dealt: 0,
            taken: 0,
        }
    }

    /// Heroes: `hero` at (0,0), `mage` at (-2,0) with bolt of energy and cure wounds, `archer`
    /// at (-4,0) with a bow and no melee form. Foes: `orc-1` at (1,0) (adjacent to the hero),
    /// `orc-2` at (8,0) (40 ft away).
    pub fn fight() -> State {
        let mut hero = profile();
        hero.potion = Some(Damage {
            count: 2,
            sides: 4,
            bonus: 2,
        });
        let mut mage = profile();
        mage.melee = Vec::new();
        mage.attacks = 1;
        mage.weapon_rank = 0;
        mage.spells = spells();
        let mut archer = profile();
        archer.melee = Vec::new();
        archer.ranged = Some(bow());
        let orc = profile();
        let profiles = vec![hero, mage, archer, orc.clone(), orc];
        let mut hero_f = fighter(0, 0, 0, 40);
        hero_f.potions = 1;
        let fighters = vec![
            hero_f,
            fighter(0, -2, 0, 40),
            fighter(0, -4, 0, 40),
            fighter(1, 1, 0, 40),
            fighter(1, 8, 0, 40),
        ];
        let keys = [
            ("hero", 0u8),
            ("mage", 0),
            ("archer", 0),
            ("orc-1", 1),
            ("orc-2", 1),
        ];
        let roster = Roster {
            sides: vec![
                SideInfo {
                    key: "heroes".into(),
                    name: "Heroes".into(),
                    controller: Default::default(),
                },
                SideInfo {
                    key: "orcs".into(),
                    name: "Orcs".into(),
                    controller: Default::default(),
                },
            ],
            combatants: keys
                .iter()
                .map(|(k, s)| CombatantInfo {
                    key: (*k).into(),
                    name: (*k).into(),
                    side: SideId(*s),
                    group: (*k).into(),
                    controller: Default::default(),
                    reserve: false,
                })
                .collect(),
        };
        State {
            occupancy: fray_core::Occupancy::new(fighters.iter().map(|f| f.pos)),
            roster,
            profiles: Arc::new(profiles),
            fighters,
            options: Options::default(),
            surprises: Vec::new(),
            overrides: Vec::new(),
            forced_moves: Vec::new(),
            grievous_wounds: Vec::new(),
            ambush: None,
            ambush_results: Vec::new(),
            round: 1,
            segment: 11,
            schedule: Vec::new(),
            segment_start: Vec::new(),
            paused: None,
            acts_left: Vec::new(),
            asking: None,
        }
    }

    /// Changes a profile.
    pub fn edit_profile(state: &mut State, id: CombatantId, f: impl FnOnce(&mut Profile)) {
        f(&mut Arc::make_mut(&mut state.profiles)[id.index()]);
    }
}

#[cfg(test)]
mod tests {
    use super::testkit::*;
    use super::*;
    use crate::state::Casting;
    use fray_core::protocol::Chooser;
    use fray_core::Pos;

    fn declare(state: &State, who: CombatantId, d: Declaration) -> Result<(), Illegal> {
        let mut s = state.clone();
        s.asking = Some(Asking::Declaration(who));
        let req = ChoiceRequest {
            chooser: Chooser::Combatant(who),
            question: Question::Declaration,
            rule: "SJ-R1.1",
            options: &[],
        };
        check(&s, who, &req, &Choice::Declare(d))
    }

    fn rule_of(r: Result<(), Illegal>) -> &'static str {
        r.expect_err("should be refused").rule
    }

    fn d(intent: Intent) -> Declaration {
        Declaration {
            intent,
            ..Declaration::default()
        }
    }

    #[test]
    fn plain_declarations_are_legal() {
        let s = fight();
        assert!(declare(&s, HERO, d(Intent::Attack(ORC1))).is_ok());
        assert!(declare(&s, HERO, d(Intent::Nothing)).is_ok());
        assert!(declare(&s, HERO, d(Intent::Withdraw)).is_ok());
        assert!(declare(&s, ARCHER, d(Intent::Shoot(ORC2))).is_ok());
        assert!(declare(
            &s,
            MAGE,
            d(Intent::Cast {
                spell: 0,
                target: ORC1
            })
        )
        .is_ok());
        assert!(declare(
            &s,
            MAGE,
            d(Intent::Cast {
                spell: 1,
                target: MAGE
            })
        )
        .is_ok());
    }

    #[test]
    fn target_must_be_a_foe_still_up() {
        let mut s = fight();
        assert_eq!(
            rule_of(declare(&s, HERO, d(Intent::Attack(MAGE)))),
            "SJ-R1.1"
        );
        assert_eq!(
            rule_of(declare(&s, HERO, d(Intent::Attack(HERO)))),
            "SJ-R1.1"
        );
        s.f_mut(ORC1).down = true;
        let e = declare(&s, HERO, d(Intent::Attack(ORC1))).unwrap_err();
        assert_eq!(e.rule, "SJ-R1.1");
        assert!(e.reason.contains("out of the fight"), "{}", e.reason);
    }

    #[test]
    fn attack_needs_a_melee_form_and_a_weapon_in_hand() {
        let mut s = fight();
        assert_eq!(
            rule_of(declare(&s, ARCHER, d(Intent::Attack(ORC1)))),
            "SJ-R1.1"
        );
        s.f_mut(HERO).weapon_dropped = true;
        assert_eq!(
            rule_of(declare(&s, HERO, d(Intent::Attack(ORC1)))),
            "SJ-R21"
        );
        let drawing = Declaration {
            draw: Draw::Draw,
            ..d(Intent::Attack(ORC1))
        };
        assert!(declare(&s, HERO, drawing).is_ok());
        assert!(declare(&s, HERO, d(Intent::PickUp)).is_ok());
    }

    #[test]
    fn shooting_needs_a_ranged_weapon_in_range() {
        let mut s = fight();
        assert_eq!(rule_of(declare(&s, HERO, d(Intent::Shoot(ORC1)))), "SJ-R23");
        s.set_square(ORC2, Pos::new(30, 0));
        let e = declare(&s, ARCHER, d(Intent::Shoot(ORC2))).unwrap_err();
        assert_eq!(e.rule, "SJ-R23");
        assert!(e.reason.contains("170 ft"), "{}", e.reason);
    }

    #[test]
    fn casting_checks_spell_target_and_range() {
        let mut s = fight();
        let cast = |spell, target| d(Intent::Cast { spell, target });
        assert_eq!(rule_of(declare(&s, MAGE, cast(7, ORC1))), "SJ-R15");
        assert_eq!(rule_of(declare(&s, HERO, cast(0, ORC1))), "SJ-R15");
        // A heal on a foe, a bolt on a friend.
        assert_eq!(rule_of(declare(&s, MAGE, cast(1, ORC1))), "SJ-R15");
        assert_eq!(rule_of(declare(&s, MAGE, cast(0, HERO))), "SJ-R15");
        // Cure wounds is a touch spell (5 ft): the hero stands 10 ft away; the caster itself is fine.
        assert_eq!(rule_of(declare(&s, MAGE, cast(1, HERO))), "SJ-R15");
        assert!(declare(&s, MAGE, cast(1, MAGE)).is_ok());
        // Bolt of energy reaches 60 ft.
        s.set_square(ORC2, Pos::new(11, 0));
        assert_eq!(rule_of(declare(&s, MAGE, cast(0, ORC2))), "SJ-R15");
        s.set_square(ORC2, Pos::new(10, 0));
        assert!(declare(&s, MAGE, cast(0, ORC2)).is_ok());
        // Not while still casting.
        s.f_mut(MAGE).casting = Some(Casting {
            spell: 0,
            target: ORC2,
            off_round: 2,
            off_segment: 3,
            from_round: 2,
            from_segment: 10,
        });
        assert_eq!(rule_of(declare(&s, MAGE, cast(0, ORC2))), "SJ-R15");
    }

    #[test]
    fn defending_is_for_attacks_and_bounded_by_rank() {
        let s = fight();
        let ok = Declaration {
            defending: 20,
            ..d(Intent::Attack(ORC1))
        };
        assert!(declare(&s, HERO, ok).is_ok());
        let too_much = Declaration {
            defending: 25,
            ..d(Intent::Attack(ORC1))
        };
        let e = declare(&s, HERO, too_much).unwrap_err();
        assert_eq!(e.rule, "SJ-R19");
        assert!(e.reason.contains("20"), "{}", e.reason);
        let idle = Declaration {
            defending: 5,
            ..d(Intent::Nothing)
        };
        assert_eq!(rule_of(declare(&s, HERO, idle)), "SJ-R19");
    }

    #[test]
    fn movement_modes_go_with_attacks() {
        let s = fight();
        for m in [
            Movement::NoMovement,
            Movement::MoveAttack,
            Movement::RunAttack,
            Movement::AttackMove,
        ] {
            let attack = Declaration {
                movement: m,
                ..d(Intent::Attack(ORC1))
            };
            assert!(declare(&s, HERO, attack).is_ok(), "{m:?}");
            let moving = Declaration {
                movement: m,
                ..d(Intent::Move(ORC2))
            };
            let rule = if m == Movement::NoMovement {
                "SJ-R5"
            } else {
                "SJ-R17"
            };
            assert_eq!(rule_of(declare(&s, HERO, moving)), rule, "{m:?}");
        }
        let still_cast = Declaration {
            movement: Movement::NoMovement,
            ..d(Intent::Cast {
                spell: 0,
                target: ORC1,
            })
        };
        assert!(declare(&s, MAGE, still_cast).is_ok());
        let moving_cast = Declaration {
            movement: Movement::MoveAttack,
            ..still_cast
        };
        assert_eq!(rule_of(declare(&s, MAGE, moving_cast)), "SJ-R17");
    }

    #[test]
    fn aim_only_when_shooting_still() {
        let s = fight();
        let aim = Declaration {
            aim: true,
            ..d(Intent::Shoot(ORC2))
        };
        assert!(declare(&s, ARCHER, aim).is_ok());
        assert!(declare(
            &s,
            ARCHER,
            Declaration {
                movement: Movement::NoMovement,
                ..aim
            }
        )
        .is_ok());
        assert_eq!(
            rule_of(declare(
                &s,
                ARCHER,
                Declaration {
                    movement: Movement::MoveAttack,
                    ..aim
                }
            )),
            "SJ-R23.2"
        );
        assert_eq!(
            rule_of(declare(
                &s,
                HERO,
                Declaration {
                    aim: true,
                    ..d(Intent::Attack(ORC1))
                }
            )),
            "SJ-R23.2"
        );
    }

    #[test]
    fn potion_needs_one_at_hand_and_no_melee() {
        let mut s = fight();
        let potion = Declaration {
            potion: true,
            ..d(Intent::Nothing)
        };
        // The hero is next to orc-1.
        let e = declare(&s, HERO, potion).unwrap_err();
        assert_eq!(e.rule, "SJ-R17.6");
        assert!(e.reason.contains("melee"), "{}", e.reason);
        s.set_square(ORC1, Pos::new(5, 5));
        assert!(declare(&s, HERO, potion).is_ok());
        // The mage carries none.
        assert_eq!(rule_of(declare(&s, MAGE, potion)), "SJ-R17.6");
        s.f_mut(HERO).potions = 0;
        assert_eq!(rule_of(declare(&s, HERO, potion)), "SJ-R17.6");
    }

    #[test]
    fn ready_shield_needs_a_slung_shield() {
        let mut s = fight();
        let ready = Declaration {
            ready_shield: true,
            ..d(Intent::Attack(ORC1))
        };
        assert_eq!(rule_of(declare(&s, HERO, ready)), "SJ-R17.5");
        s.f_mut(HERO).shield_slung = true;
        assert!(declare(&s, HERO, ready).is_ok());
    }

    #[test]
    fn pick_up_needs_a_dropped_weapon() {
        let s = fight();
        assert_eq!(rule_of(declare(&s, HERO, d(Intent::PickUp))), "SJ-R21");
    }

    #[test]
    fn desperate_defense_takes_nothing_else() {
        let mut s = fight();
        s.f_mut(HERO).shield_slung = true;
        assert!(declare(&s, HERO, d(Intent::DesperateDefense)).is_ok());
        for extra in [
            Declaration {
                draw: Draw::Draw,
                ..d(Intent::DesperateDefense)
            },
            Declaration {
                ready_shield: true,
                ..d(Intent::DesperateDefense)
            },
            Declaration {
                movement: Movement::NoMovement,
                ..d(Intent::DesperateDefense)
            },
        ] {
            assert_eq!(rule_of(declare(&s, HERO, extra)), "SJ-R19");
        }
        // Full Defense may ready a shield but takes no movement mode.
        assert!(declare(
            &s,
            HERO,
            Declaration {
                ready_shield: true,
                ..d(Intent::FullDefense)
            }
        )
        .is_ok());
        assert_eq!(
            rule_of(declare(
                &s,
                HERO,
                Declaration {
                    movement: Movement::AttackMove,
                    ..d(Intent::FullDefense)
                }
            )),
            "SJ-R19"
        );
    }

    #[test]
    fn withdraw_only_from_melee() {
        let s = fight();
        assert!(declare(&s, HERO, d(Intent::Withdraw)).is_ok());
        assert_eq!(rule_of(declare(&s, MAGE, d(Intent::Withdraw))), "SJ-R22");
    }

    #[test]
    fn moving_toward_oneself_is_refused() {
        let s = fight();
        assert_eq!(rule_of(declare(&s, HERO, d(Intent::Move(HERO)))), "SJ-R1.1");
        assert!(declare(&s, HERO, d(Intent::Run(ORC2))).is_ok());
    }

    #[test]
    fn the_fallen_declare_nothing() {
        let mut s = fight();
        s.f_mut(HERO).down = true;
        assert!(declare(&s, HERO, d(Intent::Nothing)).is_ok());
        assert_eq!(
            rule_of(declare(&s, HERO, d(Intent::Attack(ORC1)))),
            "SJ-R1.1"
        );
        assert_eq!(rule_of(declare(&s, HERO, d(Intent::Hold))), "SJ-R1.1");
    }

    #[test]
    fn answers_must_fit_the_question() {
        let mut s = fight();
        s.asking = Some(Asking::FreeAttack { by: ORC1, on: HERO });
        let req = ChoiceRequest {
            chooser: Chooser::Combatant(ORC1),
            question: Question::Reaction,
            rule: "SJ-R22.1",
            options: &[],
        };
        assert!(check(&s, ORC1, &req, &Choice::Yes).is_ok());
        let e = check(&s, ORC1, &req, &Choice::Declare(d(Intent::Nothing))).unwrap_err();
        assert_eq!(e.rule, "SJ-R22.1");
        // Someone else answering.
        assert!(check(&s, ORC2, &req, &Choice::Yes).is_err());
        // A yes to a declaration.
        s.asking = Some(Asking::Declaration(HERO));
        let req = ChoiceRequest {
            chooser: Chooser::Combatant(HERO),
            question: Question::Declaration,
            rule: "SJ-R1.1",
            options: &[],
        };
        assert_eq!(
            check(&s, HERO, &req, &Choice::Yes).unwrap_err().rule,
            "SJ-R1.1"
        );
        assert!(check(&s, ORC1, &req, &Choice::Declare(d(Intent::Nothing))).is_err());
    }

    #[test]
    fn pushes_go_up_to_ten_feet_and_need_the_first_square_free() {
        let mut s = fight();
        // The hero pushes orc-1 (at 1,0); orc-2 stands right behind it at (2,0).
        s.set_square(ORC2, Pos::new(2, 0));
        s.asking = Some(Asking::Push {
            by: HERO,
            target: ORC1,
        });
        let req = ChoiceRequest {
            chooser: Chooser::Combatant(HERO),
            question: Question::Reaction,
            rule: "SJ-R19",
            options: &[],
        };
        let mut out = Vec::new();
        options(&s, &mut out);
        assert_eq!(out.last(), Some(&Choice::No));
        assert!(!out.contains(&Choice::Push(Direction::East)));
        assert!(
            !out.contains(&Choice::Push(Direction::West)),
            "the hero is there"
        );
        assert!(out.contains(&Choice::Push(Direction::North)));
        assert_eq!(out.len(), 7);
        assert_eq!(
            check(&s, HERO, &req, &Choice::Push(Direction::East))
                .unwrap_err()
                .rule,
            "SJ-R19"
        );
        assert!(check(&s, HERO, &req, &Choice::Push(Direction::South)).is_ok());
        assert!(check(&s, HERO, &req, &Choice::No).is_ok());
        assert!(check(&s, HERO, &req, &Choice::Yes).is_err());
        assert_eq!(
            crate::rules::movement::push_destination(&s, ORC1, Direction::South),
            Pos::new(1, 2),
            "a clear push goes the whole 10 ft"
        );
        // With orc-2 two squares east, the push east goes 5 ft and stops.
        s.set_square(ORC2, Pos::new(3, 0));
        assert!(check(&s, HERO, &req, &Choice::Push(Direction::East)).is_ok());
        assert_eq!(
            crate::rules::movement::push_destination(&s, ORC1, Direction::East),
            Pos::new(2, 0)
        );
        // A fallen combatant does not block.
        s.set_square(ORC2, Pos::new(2, 0));
        s.f_mut(ORC2).down = true;
        assert!(check(&s, HERO, &req, &Choice::Push(Direction::East)).is_ok());
    }

    #[test]
    fn retarget_rulings() {
        let mut s = fight();
        s.asking = Some(Asking::Retarget(HERO));
        let req = ChoiceRequest {
            chooser: Chooser::Gm,
            question: Question::Ruling,
            rule: "SJ-R1.2",
            options: &[],
        };
        let mut out = Vec::new();
        options(&s, &mut out);
        assert_eq!(
            out,
            vec![
                Choice::Retarget(Some(ORC1)),
                Choice::Retarget(Some(ORC2)),
                Choice::Retarget(None)
            ]
        );
        assert!(check_ruling(&s, &req, &Choice::Retarget(Some(ORC2))).is_ok());
        assert!(check_ruling(&s, &req, &Choice::Retarget(None)).is_ok());
        assert_eq!(
            check_ruling(&s, &req, &Choice::Retarget(Some(MAGE)))
                .unwrap_err()
                .rule,
            "SJ-R1.2"
        );
        s.f_mut(ORC2).down = true;
        assert!(check_ruling(&s, &req, &Choice::Retarget(Some(ORC2))).is_err());
        assert!(check_ruling(&s, &req, &Choice::Yes).is_err());
        // Yes/no rulings.
        s.asking = Some(Asking::ShootIntoMelee { by: ARCHER });
        assert!(check_ruling(&s, &req, &Choice::No).is_ok());
        assert!(check_ruling(&s, &req, &Choice::Retarget(None)).is_err());
        // A combatant's request is not the GM's.
        s.asking = Some(Asking::FreeAttack { by: ORC1, on: HERO });
        assert!(check_ruling(&s, &req, &Choice::Yes).is_err());
    }

    #[test]
    fn every_option_offered_passes_the_check() {
        let mut s = fight();
        s.f_mut(HERO).shield_slung = true;
        s.f_mut(ORC1).weapon_dropped = true;
        let mut out = Vec::new();
        for who in s.ids().collect::<Vec<_>>() {
            s.asking = Some(Asking::Declaration(who));
            options(&s, &mut out);
            assert!(out.len() > 3, "{who:?}: {out:?}");
            let req = ChoiceRequest {
                chooser: Chooser::Combatant(who),
                question: Question::Declaration,
                rule: "SJ-R1.1",
                options: &out,
            };
            for c in &out {
                if let Err(e) = check(&s, who, &req, c) {
                    panic!("{who:?}: {c:?} offered but refused: {e}");
                }
            }
        }
        // The archer's list has aimed shots, the hero's a potion-free list (in melee), Defending.
        s.asking = Some(Asking::Declaration(HERO));
        options(&s, &mut out);
        let has = |out: &[Choice], f: &dyn Fn(&Declaration) -> bool| {
            out.iter().any(|c| matches!(c, Choice::Declare(d) if f(d)))
        };
        assert!(has(&out, &|d| d.defending == 20));
        assert!(has(&out, &|d| d.defending == 10));
        assert!(has(&out, &|d| d.intent == Intent::Withdraw));
        assert!(!has(&out, &|d| d.potion));
        s.asking = Some(Asking::Declaration(ARCHER));
        options(&s, &mut out);
        assert!(has(&out, &|d| d.aim));
        assert!(!has(&out, &|d| matches!(d.intent, Intent::Attack(_))));
        s.asking = Some(Asking::Declaration(ORC1));
        options(&s, &mut out);
        assert!(has(&out, &|d| d.intent == Intent::PickUp));
        assert!(has(&out, &|d| d.draw == Draw::Draw
            && matches!(d.intent, Intent::Attack(_))));
        // A fallen combatant is offered `nothing` only.
        s.f_mut(ORC2).down = true;
        s.asking = Some(Asking::Declaration(ORC2));
        options(&s, &mut out);
        assert_eq!(out, vec![Choice::Declare(Declaration::default())]);
    }
}
