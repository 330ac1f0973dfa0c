//! Legality of declarations and answers, each refusal naming its rule, and the option lists
//! offered (the pending question is `State::asking`).

use super::attack::{self, Form};
use super::movement;
use crate::choice::{Action, Item};
use crate::state::{Asking, State};
use crate::Choice;
use fray_core::protocol::{ChoiceRequest, Illegal};
use fray_core::{CombatantId, Pos};

/// The order of foes for `who`: nearest first, ties by the world's rows, then by how far ahead
/// along its facing (never by file order). Returns the key of a foe on a given square.
fn foe_order(state: &State, who: CombatantId) -> impl Fn(fray_core::Pos) -> (i32, i32, i32, i32) {
    let me = state.f(who);
    let (at, fx) = (me.pos, me.facing.delta().0.signum());
    let ahead = if fx == 0 { 1 } else { fx };
    move |p| {
        let (dx, dy) = (p.x - at.x, p.y - at.y);
        (at.squares_to(p), dy.abs(), dy, -dx * ahead)
    }
}

/// Standing foes of `who` (never by file order: see [`foe_order`]).
fn standing_foes(state: &State, who: CombatantId) -> impl Iterator<Item = CombatantId> + '_ {
    let side = state.f(who).side;
    state.ids().filter(move |&o| {
        let f = state.f(o);
        f.side != side && f.is_up()
    })
}

/// Standing foes of `who`, nearest first (ties by the world's rows, never by file order).
pub fn foes_by_distance(state: &State, who: CombatantId) -> Vec<CombatantId> {
    let key = foe_order(state, who);
    let mut out: Vec<CombatantId> = standing_foes(state, who).collect();
    out.sort_by_key(|&o| key(state.f(o).pos));
    out
}

/// The first of [`foes_by_distance`], without building the list.
pub fn nearest_foe(state: &State, who: CombatantId) -> Option<CombatantId> {
    let key = foe_order(state, who);
    standing_foes(state, who).min_by_key(|&o| key(state.f(o).pos))
}

/// New targets for an action whose target is gone (OSR-A33), or for a set or withdrawal's
/// attack: foes within reach for melee kinds, any standing foe otherwise.
pub fn retargets(state: &State, who: CombatantId) -> Vec<CombatantId> {
    let action = state.f(who).plan.action;
    let foes = foes_by_distance(state, who);
    match action {
        Action::Set | Action::Withdraw => state.adjacent_foes(who),
        Action::Cast(_, s, _) | Action::CastDelayed(_, s, _) => {
            let heal = state
                .p(who)
                .spells
                .get(usize::from(s))
                .is_some_and(|sp| matches!(sp.effect, crate::content::SpellEffect::Heal(_)));
            if heal {
                state
                    .ids()
                    .filter(|&o| !state.foes(who, o) && state.f(o).is_up())
                    .collect()
            } else {
                foes
            }
        }
        Action::Charge(_) => foes
            .into_iter()
            .filter(|&t| movement::charge_problem(state, who, t).is_none())
            .collect(),
        _ => foes,
    }
}

/// Every declaration `who` may make now (OSR-R3).
pub fn declarations(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let f = state.f(who);
    let p = state.p(who);
    let round = state.round;
    if f.reloading_until >= round && f.reloading_until > 0 {
        out.push(Choice::Declare(Action::Reload));
        // OSR-R23.5: or drop the empty crossbow, take a loaded one and shoot.
        if f.spare_loaded > 0 && f.no_attack_round != round && !f.disarmed && !f.broken {
            for t in foes_by_distance(state, who) {
                out.push(Choice::Declare(Action::Shoot(t, None)));
            }
        }
        return;
    }
    out.push(Choice::Declare(Action::Nothing));
    out.push(Choice::Declare(Action::Dodge));
    let no_attack = f.no_attack_round == round;
    let foes = foes_by_distance(state, who);
    if !no_attack {
        for &t in &foes {
            out.push(Choice::Declare(Action::Attack {
                target: t,
                flat: false,
                then: None,
            }));
        }
        if p.melee.first().is_some_and(|w| w.subdual && !w.natural) && !f.disarmed && !f.broken {
            for &t in &foes {
                out.push(Choice::Declare(Action::Attack {
                    target: t,
                    flat: true,
                    then: None,
                }));
            }
        }
        if attack::ready(state, who, Form::Missile) {
            for &t in &foes {
                out.push(Choice::Declare(Action::Shoot(t, None)));
            }
        }
        for &t in &foes {
            if movement::charge_problem(state, who, t).is_none() {
                out.push(Choice::Declare(Action::Charge(t)));
            }
        }
        if p.melee.first().is_some_and(|w| w.set) && attack::ready(state, who, Form::Melee(0)) {
            out.push(Choice::Declare(Action::Set));
        }
        for &t in &foes {
            out.push(Choice::Declare(Action::Grapple(t)));
            out.push(Choice::Declare(Action::Punch(t)));
            out.push(Choice::Declare(Action::Kick(t)));
            if f.oil > 0 {
                out.push(Choice::Declare(Action::Oil(t)));
            }
            if f.holy_water > 0 {
                out.push(Choice::Declare(Action::HolyWater(t)));
            }
        }
    }
    if !no_attack {
        for &t in &foes {
            out.push(Choice::Declare(Action::Hold(t)));
        }
    }
    out.push(Choice::Declare(Action::Feat));
    out.push(Choice::Declare(Action::Withdraw));
    if f.held_by.is_none() {
        out.push(Choice::Declare(Action::Run));
    }
    // OSR-R32.3: the holder may keep the held creature from speaking.
    if f.holding.is_some_and(|h| !state.f(h).silenced) {
        out.push(Choice::Declare(Action::Silence));
    }
    // OSR-R28.1, R28.7, OSR-A54: a held caster may cast unless its holder keeps it from speaking.
    if !f.silenced {
        for (i, sp) in p.spells.iter().enumerate() {
            let heal = matches!(sp.effect, crate::content::SpellEffect::Heal(_));
            let targets: Vec<CombatantId> = if heal {
                state
                    .ids()
                    .filter(|&o| !state.foes(who, o) && state.f(o).is_up())
                    .collect()
            } else {
                foes.clone()
            };
            for t in targets {
                out.push(Choice::Declare(Action::Cast(who, i as u8, t)));
                // OSR-R28.5: a harmful spell may wait for just before its target's action.
                if !heal {
                    out.push(Choice::Declare(Action::CastDelayed(who, i as u8, t)));
                }
            }
        }
    }
    if f.burning_round > 0 {
        out.push(Choice::Declare(Action::PutOut));
    }
    // OSR-R25.5: a flask poured on the ground within 5 ft (its own square or one next to it).
    if f.oil > 0 {
        for at in fray_core::Area::around(f.pos, 1) {
            out.push(Choice::Declare(Action::SpillOil(at)));
        }
    }
    // OSR-R30.3: tend a knocked-out friend on an adjacent square.
    for o in state.ids() {
        let friend = state.f(o);
        let knocked_out = friend.down && !friend.dead && !friend.fled;
        if o != who && friend.side == f.side && knocked_out && f.pos.squares_to(friend.pos) <= 1 {
            out.push(Choice::Declare(Action::Revive(o)));
        }
    }
    if f.disarmed && !f.broken && !f.weapon_taken {
        out.push(Choice::Declare(Action::Recover));
    }
    // OSR-R32.3: the holder may try to take what the held creature carries.
    if let Some(held) = f.holding.filter(|_| !no_attack) {
        for item in takeable(state, held) {
            out.push(Choice::Declare(Action::Take(item)));
        }
    }
}

/// What can be taken from `held` (OSR-R32.3): a weapon in hand (not a natural one), flasks.
pub fn takeable(state: &State, held: CombatantId) -> Vec<Item> {
    let h = state.f(held);
    let mut out = Vec::new();
    let armed = state.p(held).melee.first().is_some_and(|w| !w.natural);
    if armed && !h.disarmed && !h.broken {
        out.push(Item::Weapon);
    }
    if h.oil > 0 {
        out.push(Item::Oil);
    }
    if h.holy_water > 0 {
        out.push(Item::HolyWater);
    }
    out
}

/// The options of the pending question.
pub fn options(state: &State, out: &mut Vec<Choice>) {
    match state.asking {
        Some(Asking::Declaration(who)) => declarations(state, who, out),
        Some(Asking::PartingShot { by, at }) | Some(Asking::FreeAttack { by, at }) => {
            for n in 0..attack::free_forms(state, by, at).len() {
                out.push(Choice::Yes(n as u8));
            }
            out.push(Choice::No);
        }
        Some(Asking::Intercept { .. }) | Some(Asking::StrongEnough { .. }) => {
            out.push(Choice::Yes(0));
            out.push(Choice::No);
        }
        Some(Asking::Retarget { who }) => {
            for t in retargets(state, who) {
                out.push(Choice::Target(Some(t)));
            }
            out.push(Choice::Target(None));
        }
        None => {}
    }
}

/// Is `choice` allowed for the pending question? Refusals name the rule.
pub fn check(
    state: &State,
    _who: CombatantId,
    _request: &ChoiceRequest<'_, Choice>,
    choice: &Choice,
) -> Result<(), Illegal> {
    let mut legal = Vec::new();
    options(state, &mut legal);
    if legal.contains(choice) {
        return Ok(());
    }
    // Split movement (OSR-R6.1): an attack or a shot, then a move to a square within its
    // movement.
    let split = match *choice {
        Choice::Declare(Action::Attack {
            target,
            flat,
            then: Some(p),
        }) => Some((
            Choice::Declare(Action::Attack {
                target,
                flat,
                then: None,
            }),
            p,
        )),
        Choice::Declare(Action::Shoot(t, Some(p))) => {
            Some((Choice::Declare(Action::Shoot(t, None)), p))
        }
        _ => None,
    };
    if let (Some(Asking::Declaration(who)), Choice::Declare(Action::Move(to))) =
        (state.asking, choice)
    {
        if legal.contains(&Choice::Declare(Action::Nothing)) {
            return check_move(state, who, *to);
        }
    }
    // OSR-R6.1: other actions followed by a move (`cast … then X Y`).
    if let (Some(Asking::Declaration(who)), Choice::DeclareThen(a, to)) = (state.asking, choice) {
        if !a.moves_after() {
            return Err(Illegal {
                rule: "OSR-R6.1",
                reason: format!(
                    "`{}` cannot be followed by a move: attacks and shots take `then X Y` in \
                     their own words; moving, charging, running and withdrawing are the round's \
                     movement; setting, holding, dodging, reloading, tending, gagging and \
                     putting out flames keep it where it is",
                    crate::choice::action_text(state, *a)
                ),
            });
        }
        if !legal.contains(&Choice::Declare(*a)) {
            return Err(refusal(state, &Choice::Declare(*a)));
        }
        if state.f(who).held_by.is_some() {
            return check_move(state, who, *to);
        }
        return within_movement(state, who, *to);
    }
    if let (Some(Asking::Declaration(who)), Some((plain, p))) = (state.asking, split) {
        if legal.contains(&plain) {
            return within_movement(state, who, p);
        }
    }
    Err(refusal(state, choice))
}

/// OSR-R6.1: the square a split move heads for is within the movement.
fn within_movement(state: &State, who: CombatantId, to: Pos) -> Result<(), Illegal> {
    let feet = state.f(who).pos.feet_to(to);
    let movement = state.p(who).movement;
    Illegal::unless(feet <= movement, true, "OSR-R6.1", || {
        format!(
            "({}, {}) is {feet} ft away, beyond its movement ({movement} ft)",
            to.x, to.y
        )
    })
}

/// OSR-R6.1, R32.3, OSR-A54: a move toward a square within its movement (within half of it for
/// a holder, who drags the held creature along); a held creature cannot move out of the shared
/// space.
fn check_move(state: &State, who: CombatantId, to: Pos) -> Result<(), Illegal> {
    let f = state.f(who);
    if f.held_by.is_some() {
        return Err(Illegal {
            rule: "OSR-A54",
            reason: "a held creature cannot move out of the shared space; it escapes only by \
                     winning a hold check"
                .into(),
        });
    }
    let (reach, rule, what) = if f.holding.is_some() {
        (
            state.p(who).movement / 2,
            "OSR-R32.3",
            "half its movement, dragging the creature it holds",
        )
    } else {
        (state.p(who).movement, "OSR-R6.1", "its movement")
    };
    let feet = f.pos.feet_to(to);
    Illegal::unless(feet <= reach, true, rule, || {
        format!(
            "({}, {}) is {feet} ft away, beyond {what} ({reach} ft)",
            to.x, to.y
        )
    })
}

/// The GM's answer to a ruling (OSR-R32.3: strong enough?).
pub fn check_ruling(state: &State, choice: &Choice) -> Result<(), Illegal> {
    match (state.asking, choice) {
        (Some(Asking::StrongEnough { .. }), Choice::Yes(0) | Choice::No) => Ok(()),
        (Some(Asking::StrongEnough { .. }), _) => Err(refusal(state, choice)),
        _ => Err(Illegal {
            rule: "OSR-G13",
            reason: "the GM is asked nothing here".into(),
        }),
    }
}

/// Why a choice not offered is refused.
fn refusal(state: &State, choice: &Choice) -> Illegal {
    let rule_reason = |rule: &'static str, reason: String| Illegal { rule, reason };
    match (state.asking, choice) {
        (Some(Asking::Declaration(who)), Choice::Declare(a)) => {
            let f = state.f(who);
            if f.reloading_until >= state.round && f.reloading_until > 0 {
                // Crossbows reload for 1 or 2 rounds (OSR-R23.2-3); longer is a siege rate.
                let missile = state.p(who).missile.as_ref();
                let (rule, what) = match missile.map_or(0, |m| m.reload) {
                    1 => ("OSR-R23.2", "crossbow".to_string()),
                    2 => ("OSR-R23.3", "crossbow".to_string()),
                    _ => (
                        "OSR-R23.4",
                        missile.map_or("weapon".into(), |m| m.name.clone()),
                    ),
                };
                let swap = if f.spare_loaded > 0 {
                    " (or swap in a loaded one and shoot, OSR-R23.5)"
                } else {
                    ""
                };
                return rule_reason(
                    rule,
                    format!("it must spend this round reloading its {what}{swap}"),
                );
            }
            if let Some(t) = a.target() {
                if t == who {
                    return rule_reason(
                        "OSR-R3.1",
                        "a combatant cannot take an action against itself".into(),
                    );
                }
                if !state.f(t).is_up() {
                    return rule_reason(
                        "OSR-R3.1",
                        format!("{} is out of the fight", state.roster.name(t)),
                    );
                }
            }
            if a.is_attack() && f.no_attack_round == state.round {
                return rule_reason("OSR-R18.1", "no attack this round after its fumble".into());
            }
            match *a {
                Action::Charge(t) => rule_reason(
                    "OSR-R14.2",
                    movement::charge_problem(state, who, t)
                        .unwrap_or_else(|| "not a charge".into()),
                ),
                Action::Shoot(..) => {
                    rule_reason("OSR-R21", "it has no ready missile weapon".into())
                }
                Action::Set => rule_reason(
                    "OSR-R15.1",
                    "it has no weapon that can be set against a charge".into(),
                ),
                Action::Cast(..) | Action::CastDelayed(..) if f.silenced => rule_reason(
                    "OSR-R28.7",
                    "its holder keeps it from speaking, and a caster must speak".into(),
                ),
                Action::Cast(..) | Action::CastDelayed(..) => {
                    rule_reason("OSR-R28.1", "it cannot cast that spell now".into())
                }
                Action::Oil(_) | Action::HolyWater(_) => {
                    rule_reason("OSR-R24.1", "it carries no such flask".into())
                }
                Action::Take(_) if f.holding.is_none() => rule_reason(
                    "OSR-R32.3",
                    "only a holder may take items from the creature it holds".into(),
                ),
                Action::Take(item) => rule_reason(
                    "OSR-R32.3",
                    format!("the creature it holds has no {} to take", item.word()),
                ),
                Action::SpillOil(_) if f.oil == 0 => {
                    rule_reason("OSR-R25.5", "it carries no flask of oil".into())
                }
                Action::SpillOil(at) => rule_reason(
                    "OSR-R25.5",
                    format!(
                        "({}, {}) is not within 5 ft: oil is poured on its own square or one next to it",
                        at.x, at.y
                    ),
                ),
                Action::Attack { flat: true, .. } => rule_reason(
                    "OSR-R30.1",
                    "its weapon is sharp on every side (or it has none)".into(),
                ),
                _ => rule_reason("OSR-R3.1", "not an action it can declare now".into()),
            }
        }
        (Some(Asking::Declaration(_)), _) => {
            rule_reason("OSR-R3.1", "a declaration is asked for".into())
        }
        (Some(Asking::PartingShot { .. }), _) => rule_reason(
            "OSR-R16.1",
            "answer yes (with one attack form: yes N) or no".into(),
        ),
        (Some(Asking::Intercept { .. }), _) => rule_reason("OSR-R12.1", "answer yes or no".into()),
        (Some(Asking::StrongEnough { .. }), _) => rule_reason(
            "OSR-R32.3",
            "answer yes (strong enough to move the creature it holds) or no".into(),
        ),
        (Some(Asking::FreeAttack { .. }), _) => rule_reason("OSR-R18.1", "answer yes or no".into()),
        (Some(Asking::Retarget { .. }), _) => rule_reason(
            "OSR-A33",
            "name a foe within reach of the same kind of action, or none".into(),
        ),
        (None, _) => rule_reason("OSR-R3.1", "nothing is asked".into()),
    }
}
