//! Option lists and the legality of every choice, each refusal naming its rule. The pending
//! request's subject is [`State::asking`]; [`ask`] is the one way a rule puts a question.

use super::{complex, movement};
use crate::choice::Choice;
use crate::content::WeaponKind;
use crate::state::{reaches_plus, Asking, Item, Special, State, CON, DEX, INT, STR};
use fray_core::protocol::{refuse as no, ChoiceRequest, Chooser, Illegal, Interrupt, Question};
use fray_core::{Board, CombatantId, Direction, Table};

/// Asks the question `asking` is about, offering the legal options.
pub fn ask(
    state: &mut State,
    table: &mut Table<'_, crate::Celesia>,
    asking: Asking,
    rule: &'static str,
) -> Result<Choice, Interrupt> {
    state.asking = asking;
    // A remembered charge or approach destination holds only until the next question.
    state.destination.forget();
    let (chooser, question) = match asking {
        Asking::Action(who) | Asking::Delayed(who) => (Chooser::Combatant(who), Question::Action),
        Asking::Opportunity { reactor, .. } => (Chooser::Combatant(reactor), Question::Reaction),
        Asking::Injury { who, .. } => (Chooser::Combatant(who), Question::Reaction),
        Asking::LetPass { foe, .. } | Asking::Hazard { who: foe, .. } => {
            (Chooser::Combatant(foe), Question::Reaction)
        }
        Asking::Readied { reactor, .. }
        | Asking::Counter { reactor, .. }
        | Asking::Counterspell { reactor, .. }
        | Asking::Identify { who: reactor, .. } => {
            (Chooser::Combatant(reactor), Question::Reaction)
        }
        Asking::Saddle { rider, .. } => (Chooser::Combatant(rider), Question::Action),
        Asking::Nothing | Asking::Ruling { .. } => (Chooser::Gm, Question::Ruling),
    };
    let choice = table.choose(state, chooser, question, rule, |out| options(state, out))?;
    state.asking = Asking::Nothing;
    Ok(choice)
}

/// The legal options of the pending request.
pub fn options(state: &State, out: &mut Vec<Choice>) {
    match state.asking {
        Asking::Action(who) => action_options(state, who, out),
        Asking::Delayed(_) => {
            out.push(Choice::Rejoin);
            out.push(Choice::Wait);
        }
        Asking::Opportunity { provoker, .. } => {
            out.push(Choice::Opportunity(provoker));
            out.push(Choice::Decline);
        }
        Asking::Injury { who, .. } => {
            for i in crate::state::Injury::ALL {
                if state.f(who).injuries.available(i) {
                    out.push(Choice::Injury(i));
                }
            }
            out.push(Choice::NoInjury);
        }
        Asking::LetPass { .. } => {
            out.push(Choice::Block);
            out.push(Choice::LetPass);
        }
        Asking::Readied { foe, .. } => {
            out.push(Choice::Complete(foe));
            out.push(Choice::Decline);
        }
        Asking::Counter { reactor, .. } => super::counter::options(state, reactor, out),
        Asking::Counterspell { caster, .. } => {
            out.push(Choice::Counterspell(caster));
            out.push(Choice::Decline);
        }
        Asking::Identify { who, caster } => {
            if super::spell_identify::check(false, state, who, caster).is_ok() {
                out.push(Choice::Identify(caster));
            }
            out.push(Choice::Decline);
        }
        Asking::Ruling { about, .. } => super::ruling::options(about, out),
        Asking::Saddle { rider, .. } => super::mounted::saddle_options(state, rider, out),
        Asking::Hazard { .. } => super::hazard::options(out),
        Asking::Nothing => out.push(Choice::End),
    }
}

fn action_options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let mut candidates: Vec<Choice> = Vec::new();
    let present: Vec<CombatantId> = state
        .ids()
        .filter(|&t| t != who && !state.f(t).absent())
        .collect();
    for &t in &present {
        for (i, _) in state.melee_forms(who) {
            candidates.push(Choice::Attack(t, i as u8));
        }
        candidates.push(Choice::Unarmed(t));
        candidates.push(Choice::Shoot(t));
        candidates.push(Choice::Trip(t));
        candidates.push(Choice::BullRush(t));
        disarm_options(state, t, &mut candidates);
        candidates.push(Choice::Cleave(t));
        if state.enemies(who, t) {
            super::multiweapon::options(state, who, t, &mut candidates);
        }
        aid_options(state, who, t, &mut candidates);
        if state.enemies(who, t) {
            super::strike::options(state, who, t, &mut candidates);
            candidates.push(Choice::Overrun(t));
            super::maneuver_legal::overrun_ends(state, who, t, &mut candidates);
            if in_maneuver_reach(state, who, t) {
                maneuver_options(state, who, t, &mut candidates);
            }
        }
        for trick in crate::state::Trick::ALL {
            candidates.push(Choice::DirtyTrick(t, trick));
        }
        for (i, _) in state.melee_forms(who) {
            candidates.push(Choice::CoupDeGrace(t, i as u8, false));
            candidates.push(Choice::CoupDeGrace(t, i as u8, true));
        }
        candidates.push(Choice::CoupDeGrace(t, super::ammo::RANGED_FORM, false));
        if state.enemies(who, t) && state.up(t) {
            candidates.push(Choice::Approach(t));
            candidates.push(Choice::Charge(t));
        }
    }
    for d in Direction::ALL {
        candidates.push(Choice::Step(d));
    }
    for t in state.ids() {
        for c in state.f(t).tricks.iter() {
            if c.cause == crate::state::Cause::DirtyTrick {
                candidates.push(Choice::Clear(t, c.trick));
            }
        }
    }
    for d in 0..state.devices.len().min(usize::from(u8::MAX)) {
        candidates.push(Choice::Disable(d as u8));
    }
    if state.f(who).confusion.turn.is_some() {
        super::confusion::options(state, who, &mut candidates);
    }
    grapple_options(state, who, &mut candidates);
    super::escape::options(state, who, &mut candidates);
    super::item::options(state, who, &mut candidates);
    super::sleight::options(state, who, &mut candidates);
    if state.f(who).on_fire {
        candidates.push(Choice::Extinguish);
    }
    if let Some(mount) = state.f(who).riding {
        let (at, side) = (state.f(mount).pos, state.side(mount));
        for p in crate::space::ring(at, side, 1) {
            candidates.push(Choice::Dismount(p));
            candidates.push(Choice::FastDismount(p));
        }
        candidates.push(Choice::Knees);
    } else {
        for m in state.near(who, 1, |o| o != who) {
            candidates.push(Choice::Mount(m));
            candidates.push(Choice::FastMount(m));
        }
    }
    for &(item, _) in &state.f(who).on_ground {
        candidates.push(Choice::PickUp(item));
    }
    super::belonging::pick_up_options(state, who, &mut candidates);
    // CEL-R7.3: thrown weapons that landed, its own or of its kind (`rules::thrown`).
    let ranged = Choice::PickUp(crate::state::Item::Ranged);
    if super::thrown::any_lying(state, who) && !candidates.contains(&ranged) {
        candidates.push(ranged);
    }
    if state.f(who).follow.is_some() {
        candidates.push(Choice::Follow);
    }
    super::ready::options(state, who, &mut candidates);
    super::simple::options(state, who, &mut candidates);
    super::gauntlet::options(state, who, &mut candidates);
    super::first_aid::options(state, who, &mut candidates);
    super::treat_wound::options(state, who, &mut candidates);
    super::wield::options(state, who, &mut candidates);
    super::shield::options(state, who, &mut candidates);
    super::spell_resistance::options(state, who, &mut candidates);
    super::spell::options(state, who, &mut candidates);
    super::spell_lasting::options(state, who, &mut candidates);
    super::spell_weapon::options(state, who, &mut candidates);
    super::magus::options(state, who, &mut candidates);
    super::ammo::options(state, who, &mut candidates);
    super::ruling::action_options(state, who, &mut candidates);
    super::recall::options(state, who, &mut candidates);
    candidates.push(Choice::Search);
    super::animal::options(state, who, &mut candidates);
    super::animal::animal_options(state, who, &mut candidates);
    super::feint::options(state, who, &mut candidates);
    super::stance::options(state, who, &mut candidates);
    super::boost::options(state, who, &mut candidates);
    super::grip::options(state, who, &mut candidates);
    super::aid_check::options(state, who, &mut candidates);
    candidates.extend([
        Choice::TotalDefense,
        Choice::Defensive,
        Choice::StandUp,
        Choice::DropProne,
        Choice::Deal(Some(true)),
        Choice::Deal(Some(false)),
        Choice::Deal(None),
        Choice::Special(Special::PowerAttack),
        Choice::Special(Special::PrecisionStrike),
        Choice::Special(Special::CombatExpertise),
        Choice::Special(Special::RecklessOffense),
        Choice::Special(Special::DeadlyAim),
        Choice::Special(Special::RecklessAim),
        Choice::Special(Special::Lunge),
        Choice::Special(Special::MartialPower),
        Choice::Weaken(1),
        Choice::Weaken(2),
        Choice::Weaken(3),
        Choice::Delay,
        Choice::End,
    ]);
    // CEL-A20: with `scaling_choose_lower`, each scaling special also at every lower step.
    if state.options.scaling_choose_lower {
        let k = super::special::scaling_step(state.p(who).bab).min(20) as u8;
        for sp in Special::ALL
            .into_iter()
            .filter(|&s| !matches!(s, Special::Lunge | Special::MartialPower))
        {
            candidates.extend((1..k).map(|n| Choice::SpecialStep(sp, n)));
        }
    }
    out.extend(
        candidates
            .into_iter()
            .filter(|c| check_action(false, state, who, c).is_ok()),
    );
}

/// Whether `choice` answers the pending request legally.
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    question: Question,
    choice: &Choice,
) -> Result<(), Illegal> {
    if !crate::choice::answers(question, choice) {
        return no(explain, "CEL-R3", || {
            "that choice answers another kind of question".to_string()
        });
    }
    match (state.asking, choice) {
        (Asking::Action(w), _) if w == who => check_action(explain, state, who, choice),
        (Asking::Delayed(w), Choice::Rejoin | Choice::Wait) if w == who => Ok(()),
        (Asking::Opportunity { reactor, provoker }, Choice::Opportunity(t)) if reactor == who => {
            Illegal::unless(*t == provoker, explain, "CEL-R15", || {
                format!(
                    "the attack of opportunity is on {}, who provoked it",
                    state.roster.key(provoker)
                )
            })
        }
        (Asking::Opportunity { reactor, .. }, Choice::Decline) if reactor == who => Ok(()),
        (Asking::Injury { who: w, .. }, Choice::Injury(i)) if w == who => Illegal::unless(
            state.f(who).injuries.available(*i),
            explain,
            "CEL-R18.6",
            || {
                format!(
                    "no {} can be taken any more (the table says reroll)",
                    i.name()
                )
            },
        ),
        (Asking::Injury { who: w, .. }, Choice::NoInjury) if w == who => Ok(()),
        (Asking::LetPass { foe, .. }, Choice::LetPass | Choice::Block) if foe == who => Ok(()),
        (Asking::Hazard { who: w, .. }, Choice::FreeItself(_) | Choice::Decline) if w == who => {
            Ok(())
        }
        (Asking::Readied { reactor, foe }, Choice::Complete(t)) if reactor == who => {
            Illegal::unless(*t == foe, explain, "CEL-R15", || {
                format!(
                    "the readied action is taken against {}, who set the trigger off",
                    state.roster.key(foe)
                )
            })
        }
        (Asking::Readied { reactor, .. }, Choice::Decline) if reactor == who => Ok(()),
        (Asking::Counter { reactor, .. }, Choice::Counter(m)) if reactor == who => {
            super::counter::check(explain, state, who, *m)
        }
        (Asking::Counter { reactor, .. }, Choice::Decline) if reactor == who => Ok(()),
        (
            Asking::Counterspell {
                reactor, caster, ..
            },
            Choice::Counterspell(t),
        ) if reactor == who => Illegal::unless(*t == caster, explain, "CEL-R15", || {
            format!(
                "only the spell {} is casting can be countered now",
                state.roster.key(caster)
            )
        }),
        (Asking::Counterspell { reactor, .. }, Choice::Decline) if reactor == who => Ok(()),
        (Asking::Identify { who: w, caster }, Choice::Identify(t)) if w == who => {
            Illegal::unless(*t == caster, explain, "CEL-R14", || {
                format!(
                    "only the spell {} is casting can be identified now",
                    state.roster.key(caster)
                )
            })?;
            super::spell_identify::check(explain, state, who, caster)
        }
        (Asking::Identify { who: w, .. }, Choice::Decline) if w == who => Ok(()),
        (Asking::Saddle { rider, .. }, Choice::Wait) if rider == who => Ok(()),
        (Asking::Saddle { rider, .. }, Choice::Shoot(t)) if rider == who => {
            Illegal::unless(state.enemies(who, *t), explain, "CEL-R21.8", || {
                "from the saddle, along its mount's move: a shot at a foe".to_string()
            })?;
            check_action(explain, state, who, choice)
        }
        (Asking::Saddle { rider, .. }, Choice::Knees) if rider == who => {
            check_action(explain, state, who, choice)
        }
        (Asking::Saddle { .. }, _) => no(explain, "CEL-R21.8", || {
            "along its mount's move the rider may only shoot (`shoot WHO`), guide the mount with \
             its knees (`knees`) or wait (`wait`)"
                .to_string()
        }),
        _ => no(explain, "CEL-R15", || {
            "that is not the question asked".to_string()
        }),
    }
}

/// CEL-G2: `who` may take the free action `free` unless the GM's `free_actions_per_turn` are
/// taken in this turn (its own, or the turn it acts in off its own: Identify a Spell Being Cast).
pub fn free_action_left(
    explain: bool,
    state: &State,
    who: CombatantId,
    free: &str,
) -> Result<(), Illegal> {
    let Some(limit) = state.options.free_actions_per_turn else {
        return Ok(());
    };
    Illegal::unless(state.f(who).free_actions < limit, explain, "CEL-G2", || {
        format!(
            "the GM allows {limit} free action{} a turn (`free_actions_per_turn`), and this \
             turn's are taken: no {free}",
            if limit == 1 { "" } else { "s" }
        )
    })
}

/// Whether an action is legal for `who` now.
pub fn check_action(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let f = state.f(who);
    let cost = complex::cost(state, who, choice);
    // The staggered bar first: it is why a staggered creature has a single act (CEL-R20.2).
    if cost > 1 && state.staggered(who) {
        return no(explain, "CEL-R20.2", || {
            "a staggered creature takes only a single simple action".to_string()
        });
    }
    if cost > f.acts_left {
        return no(explain, "CEL-R3.1", || {
            let left = f.acts_left;
            format!(
                "it costs {cost} acts and {left} {} left (standard actions take 2 consecutive \
                 acts, full actions 3)",
                if left == 1 { "is" } else { "are" }
            )
        });
    }
    if super::one_round::kind(state, who, choice).is_some() {
        super::one_round::check(explain, state, who)?;
    }
    if let Some(free) = choice.free_action() {
        free_action_left(explain, state, who, free)?;
    }
    if f.confusion.turn.is_some() {
        // CEL-A34: a confused creature's behaviour this turn.
        super::confusion::check(explain, state, who, choice)?;
    }
    if state.p(who).animal.is_some() {
        // CEL-R9 Handle an Animal: a trained animal does what its handler commands.
        super::animal::obeys(explain, state, who, choice)?;
    }
    check_deed(explain, state, who, choice)
}

/// Whether an action is legal for `who` now, its acts aside (a readied action taken as a
/// reaction spends none: CEL-R15).
pub fn check_deed(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let f = state.f(who);
    super::maneuver_legal::grapple_limits(explain, state, who, choice)?;
    super::mounted::limits(explain, state, who, choice)?;
    let target_ok = |t: CombatantId, rule: &'static str| -> Result<(), Illegal> {
        if t == who {
            return no(explain, rule, || {
                "a combatant cannot target itself".to_string()
            });
        }
        if state.f(t).absent() {
            return no(explain, rule, || {
                format!("{} is no longer in the fight", state.roster.key(t))
            });
        }
        // A move toward a foe goes around obstacles (`rules::terrain`); every other action on
        // a combatant needs a line to it.
        if matches!(choice, Choice::Approach(_)) {
            return Ok(());
        }
        super::line_of_effect::check(explain, state, who, t, rule)
    };
    match *choice {
        Choice::Stance(m) => super::stance::check(explain, state, who, m),
        Choice::Grip(two) => super::grip::check(explain, state, who, two),
        Choice::Strike(m, t) => super::strike::check(explain, state, who, m, t),
        Choice::Boost(m) => super::boost::check(explain, state, who, m),
        Choice::Attack(t, form) => {
            target_ok(t, "CEL-R9")?;
            let Some((_, w)) = state
                .melee_forms(who)
                .find(|(i, _)| *i == usize::from(form))
            else {
                if state.dropped(who, Item::Melee(form)) {
                    let (rule, why) = lost(state, who, Item::Melee(form));
                    return no(explain, rule, || format!("attack form {form}: {why}"));
                }
                // CEL-R18: a double weapon (two-handed) with one intact hand.
                if super::multiweapon::both_ends(state, who, form, form)
                    && super::wield::hands(state, who) < 2
                {
                    return super::multiweapon::one_handed(explain);
                }
                if let Some(w) = state.p(who).melee.get(usize::from(form)) {
                    if super::wield::manufactured(w)
                        && !state.sheathed(who, Item::Melee(form))
                        && super::wield::injuries_forbid(state, who, w)
                    {
                        return super::wield::injured_hands(explain, state, who, w);
                    }
                }
                return no(explain, "CEL-R9", || {
                    format!("no usable attack form {form}")
                });
            };
            if w.kind == WeaponKind::Unarmed {
                return no(explain, "CEL-R8", || {
                    format!("strike unarmed with `unarmed {}`", state.roster.key(t))
                });
            }
            let lunge = f.reach_bonus;
            Illegal::unless(
                reaches_plus(w, state.gap(who, t), lunge),
                explain,
                "CEL-R9",
                || {
                    format!(
                        "{} is out of reach of the {} ({} ft{})",
                        state.roster.key(t),
                        w.name,
                        w.reach,
                        if w.reach_only { ", not adjacent" } else { "" }
                    )
                },
            )
        }
        Choice::Unarmed(t) => {
            target_ok(t, "CEL-R8")?;
            if !state
                .p(who)
                .melee
                .iter()
                .any(|w| w.kind == WeaponKind::Unarmed)
            {
                return no(explain, "CEL-R8", || "it has no unarmed strike".to_string());
            }
            Illegal::unless(state.gap(who, t) == 1, explain, "CEL-R8", || {
                "an unarmed strike reaches adjacent foes only".to_string()
            })
        }
        Choice::Shoot(t) => {
            target_ok(t, "CEL-R7.1")?;
            let Some(w) = state.ranged_weapon(who) else {
                if state.dropped(who, Item::Ranged) {
                    let (rule, why) = lost(state, who, Item::Ranged);
                    return no(explain, rule, || format!("its ranged weapon: {why}"));
                }
                if let Some(w) = state.p(who).ranged.as_ref() {
                    if !state.sheathed(who, Item::Ranged)
                        && super::wield::injuries_forbid(state, who, w)
                    {
                        return super::wield::injured_hands(explain, state, who, w);
                    }
                }
                return no(explain, "CEL-R7.1", || {
                    "no usable ranged weapon".to_string()
                });
            };
            let d = state.feet_between(who, t);
            Illegal::unless(d <= w.max_range(), explain, "CEL-R7.1", || {
                format!("{d} ft is beyond the {} ft maximum range", w.max_range())
            })?;
            super::ammo::check_shot(explain, state, who, w)
        }
        Choice::Approach(t) => {
            target_ok(t, "CEL-R9")?;
            if f.prone && !f.injuries.legless() {
                return no(explain, "CEL-R9", || {
                    "prone: stand up first (Stand Up)".to_string()
                });
            }
            Illegal::unless(
                movement::approach(state, who, t).is_some(),
                explain,
                "CEL-R9",
                || "no free square nearer within its speed".to_string(),
            )
        }
        Choice::MoveTo(p) => {
            if f.prone && !f.injuries.legless() {
                return no(explain, "CEL-R9", || {
                    "prone: stand up first (Stand Up)".to_string()
                });
            }
            let speed = state.speed_squares(who);
            if p == f.pos || p.squares_to(f.pos) > speed {
                return no(explain, "CEL-R9", || {
                    format!("a move goes up to its speed, {} ft", 5 * speed)
                });
            }
            if !state.square_free(p, who) {
                return no(explain, "CEL-R9", || "that square is taken".to_string());
            }
            Illegal::unless(
                super::terrain::path_within(state, who, p, speed),
                explain,
                "CEL-R9",
                || {
                    format!(
                        "no path around the obstacles within its speed, {} ft",
                        5 * speed
                    )
                },
            )
        }
        Choice::Step(d) => {
            if state.p(who).speed <= 5 || f.prone {
                return no(explain, "CEL-R9", || {
                    "no step with a speed of 5 ft or less, or while prone".to_string()
                });
            }
            let to = f.pos.step(d);
            if let Some(why) = super::terrain::step_hampered(state, who, to) {
                return no(explain, "CEL-R9", || why.to_string());
            }
            if !state.square_free(to, who) {
                return no(explain, "CEL-R9", || "that square is taken".to_string());
            }
            Illegal::unless(
                super::terrain::path_within(state, who, to, 1),
                explain,
                "CEL-R9",
                || "no stepping diagonally between two obstacles".to_string(),
            )
        }
        Choice::Charge(t) => {
            target_ok(t, "CEL-R11")?;
            if f.injuries.leg_hurt() {
                return no(explain, "CEL-R18", || {
                    "a foot/leg injury: cannot charge".to_string()
                });
            }
            if f.prone {
                return no(explain, "CEL-R11", || "prone: cannot charge".to_string());
            }
            if !state.enemies(who, t) || !state.up(t) {
                return no(explain, "CEL-R11", || "charge a foe still up".to_string());
            }
            if state.gap(who, t) < 2 {
                return no(explain, "CEL-R11", || {
                    "a charge starts at least 10 ft from the foe".to_string()
                });
            }
            Illegal::unless(
                movement::charge(state, who, t).is_some(),
                explain,
                "CEL-R11",
                || {
                    "no clear straight path within twice its speed to a square from which it \
                     can attack"
                        .to_string()
                },
            )
        }
        Choice::Trip(t) | Choice::BullRush(t) => {
            let rule = if matches!(choice, Choice::Trip(_)) {
                "CEL-R10.6"
            } else {
                "CEL-R10.2"
            };
            target_ok(t, rule)?;
            if state.p(t).size as i32 > state.p(who).size as i32 + 1 {
                return no(explain, rule, || {
                    "the foe is more than one size category larger".to_string()
                });
            }
            if matches!(choice, Choice::Trip(_)) && state.p(t).legs == 0 {
                return no(explain, rule, || {
                    "a creature without legs cannot be tripped".to_string()
                });
            }
            if matches!(choice, Choice::Trip(_)) && state.f(t).prone {
                return no(explain, rule, || "already prone".to_string());
            }
            let reach = in_maneuver_reach(state, who, t);
            Illegal::unless(reach, explain, rule, || {
                "a combat maneuver needs the foe in melee reach".to_string()
            })
        }
        Choice::Disarm(t, first, second) => {
            let rule = "CEL-R10.3";
            target_ok(t, rule)?;
            for item in std::iter::once(first).chain(second) {
                super::belonging::check(explain, state, t, item, false)?;
            }
            if second == Some(first) {
                return no(explain, rule, || "name two different items".to_string());
            }
            let reach = in_maneuver_reach(state, who, t);
            Illegal::unless(reach, explain, rule, || {
                "a combat maneuver needs the foe in melee reach".to_string()
            })
        }
        Choice::DirtyTrick(t, _) => {
            target_ok(t, "CEL-R10.7")?;
            let reach = in_maneuver_reach(state, who, t);
            Illegal::unless(reach, explain, "CEL-R10.7", || {
                "a combat maneuver needs the foe in melee reach".to_string()
            })
        }
        Choice::Clear(t, trick) => {
            let ft = state.f(t);
            if !ft.tricks.has(crate::state::Caused::dirty_trick(trick)) {
                return no(explain, "CEL-R10.7", || {
                    format!(
                        "{} is not {} by a dirty trick (only a dirty trick's condition is \
                         cleared with an act)",
                        state.roster.key(t),
                        fray_core::conditions::ConditionKind::key(trick)
                    )
                });
            }
            Illegal::unless(
                t == who || (!state.enemies(who, t) && state.gap(who, t) == 1),
                explain,
                "CEL-R10.7",
                || "the target itself or an ally next to it removes the condition".to_string(),
            )?;
            // An ally's hands reach only a creature it has a line of effect to: not across a
            // diagonal wall (see docs/celesia.md, *Obstacles and difficult terrain*).
            if t == who {
                return Ok(());
            }
            super::line_of_effect::check(explain, state, who, t, "CEL-R10.7")
        }
        Choice::Grapple(_)
        | Choice::Maintain(_)
        | Choice::Release
        | Choice::Escape(_)
        | Choice::Overrun(_)
        | Choice::OverrunTo(_)
        | Choice::Follow
        | Choice::Sunder(..)
        | Choice::Drag(..)
        | Choice::Reposition(..)
        | Choice::Steal(..)
        | Choice::PickUp(_)
        | Choice::PickUpGear(_)
        | Choice::PickUpRope => super::maneuver_legal::check(explain, state, who, choice),
        // Checked by `mounted::limits` above.
        Choice::Mount(_)
        | Choice::Dismount(_)
        | Choice::FastMount(_)
        | Choice::FastDismount(_)
        | Choice::Knees => Ok(()),
        Choice::CoupDeGrace(t, form, nonlethal) => {
            target_ok(t, "CEL-R12")?;
            if !state.helpless(t) && !state.pinned(t) {
                return no(explain, "CEL-R12", || {
                    "a coup de grace is for a helpless (dying or unconscious) or pinned foe"
                        .to_string()
                });
            }
            if state.p(t).immune_crit {
                return no(explain, "CEL-R12", || {
                    "no coup de grace against a creature immune to critical hits".to_string()
                });
            }
            if form == super::ammo::RANGED_FORM {
                // CEL-R20.5: "You can use a melee weapon that deals lethal damage to deal
                // nonlethal damage instead": a melee weapon, not a missile.
                if nonlethal {
                    return no(explain, "CEL-R20.5", || {
                        "nonlethal damage is dealt with a melee weapon, not a bow, crossbow or \
                         firearm"
                            .to_string()
                    });
                }
                let Some(w) = state.ranged_weapon(who) else {
                    return no(explain, "CEL-R12", || {
                        "no ranged weapon in hand".to_string()
                    });
                };
                Illegal::unless(
                    super::ammo::coup_weapon(state, who, t, form).is_some(),
                    explain,
                    "CEL-R12",
                    || {
                        "a coup de grace with a missile weapon needs a bow, crossbow or firearm, \
                         adjacent to the target"
                            .to_string()
                    },
                )?;
                return super::ammo::check_shot(explain, state, who, w);
            }
            Illegal::unless(
                state.form_reaching(who, t, usize::from(form)).is_some(),
                explain,
                "CEL-R12",
                || "out of reach of that weapon".to_string(),
            )
        }
        Choice::Run(p) => {
            if f.injuries.leg_hurt() {
                return no(explain, "CEL-R18", || {
                    "a foot/leg injury: cannot run".to_string()
                });
            }
            if f.prone {
                return no(explain, "CEL-R12", || {
                    "prone: stand up first (Stand Up)".to_string()
                });
            }
            let far = super::run::reach_squares(state, who);
            if p == f.pos || p.squares_to(f.pos) > far {
                return no(explain, "CEL-R12", || {
                    format!("a run goes up to four times its speed, {} ft", 5 * far)
                });
            }
            if !state.square_free(p, who) {
                return no(explain, "CEL-R12", || "that square is taken".to_string());
            }
            Illegal::unless(
                super::terrain::line_open(state, state.side(who), f.pos, p),
                explain,
                "CEL-R12",
                || "a run goes in a straight line: an obstacle is on it".to_string(),
            )
        }
        Choice::Disable(d) => {
            let Some(dev) = state.devices.get(usize::from(d)) else {
                return no(explain, "CEL-R13", || "no such device".to_string());
            };
            if state.disabled[usize::from(d)] {
                return no(explain, "CEL-R13", || {
                    format!("{} is disabled already", dev.name)
                });
            }
            Illegal::unless(
                f.pos == dev.pos || f.pos.is_adjacent(dev.pos),
                explain,
                "CEL-R13",
                || format!("{} is not within reach (stand on or next to it)", dev.name),
            )
        }
        Choice::TotalDefense => Ok(()),
        Choice::Defensive => Illegal::unless(!f.acted && !f.defensive, explain, "CEL-R14", || {
            "fighting defensively is chosen at the start of the turn".to_string()
        }),
        Choice::StandUp => {
            Illegal::unless(f.prone && !f.injuries.legless(), explain, "CEL-R9", || {
                "not prone, or no legs to stand on".to_string()
            })
        }
        Choice::DropProne => {
            Illegal::unless(!f.prone, explain, "CEL-R14", || "already prone".to_string())
        }
        Choice::End => Ok(()),
        Choice::Deal(kind) => check_deal(explain, state, who, kind),
        Choice::Special(sp) => {
            let p = state.p(who);
            // The current scores: a spell's penalty counts (CEL-R6.2).
            let score = |ix| state.score(who, ix);
            let (rule, ok, need) = match sp {
                Special::PowerAttack => (
                    "CEL-R16.6",
                    score(STR) >= 13 && p.bab >= 1,
                    "STR 13 and BAB +1",
                ),
                Special::PrecisionStrike => (
                    "CEL-R16.7",
                    score(DEX) >= 13 && p.bab >= 1,
                    "DEX 13 and BAB +1",
                ),
                Special::CombatExpertise => ("CEL-R16.2", score(INT) >= 13, "INT 13"),
                Special::RecklessOffense => ("CEL-R16.9", p.bab >= 1, "BAB +1"),
                Special::DeadlyAim => (
                    "CEL-R16.3",
                    score(DEX) >= 13 && p.bab >= 1,
                    "DEX 13 and BAB +1",
                ),
                Special::RecklessAim => ("CEL-R16.8", true, ""),
                Special::Lunge => ("CEL-R16.4", p.bab >= 6, "BAB +6"),
                Special::MartialPower => (
                    "CEL-R16.5",
                    score(CON) >= 13 && (p.gm_said.knows_maneuver || p.known != 0),
                    "CON 13 and a known maneuver or stance (`stances`, `maneuvers`, or \
                     `knows_maneuver = true`)",
                ),
            };
            if !ok {
                return no(explain, rule, || format!("it needs {need}"));
            }
            if f.specials.has(sp) {
                return no(explain, rule, || "already in use".to_string());
            }
            let other = match sp {
                Special::PowerAttack => Some(Special::PrecisionStrike),
                Special::PrecisionStrike => Some(Special::PowerAttack),
                _ => None,
            };
            if other.is_some_and(|o| f.specials.has(o)) {
                return no(explain, rule, || {
                    "Power Attack and Precision Strike cannot be combined".to_string()
                });
            }
            // CEL-R16.4 Lunge: "before any attacks are made"; CEL-R16.2 Combat Expertise:
            // "upon the first time you declare that you are making an attack with a melee
            // weapon", CEL-R16.5 Martial Power: "... a melee attack": a shot before it does not
            // count.
            match sp {
                Special::Lunge => Illegal::unless(f.attacks_this_turn == 0, explain, rule, || {
                    "chosen only before the first attack of the turn".to_string()
                }),
                Special::CombatExpertise | Special::MartialPower => {
                    Illegal::unless(!f.melee_attacked, explain, rule, || {
                        "chosen only before the first melee attack of the turn".to_string()
                    })
                }
                _ => Ok(()),
            }
        }
        Choice::Aid(friend, foe, to) => {
            target_ok(foe, "CEL-R9")?;
            let again = state
                .f(friend)
                .aids
                .iter()
                .any(|a| a.aider == who && a.foe == foe && a.to == to);
            if again {
                return no(explain, "CEL-R9", || {
                    "it aids that friend in that way already (several aiders stack, one aider's \
                     aid does not)"
                        .to_string()
                });
            }
            if friend == who || state.enemies(who, friend) || !state.up(friend) {
                return no(explain, "CEL-R9", || {
                    "aid another helps a friend still up (not itself)".to_string()
                });
            }
            if !state.enemies(who, foe) {
                return no(explain, "CEL-R9", || "aid is against a foe".to_string());
            }
            if super::aid::aiding_form(state, who, foe).is_none() {
                return no(explain, "CEL-R9", || {
                    "it must be able to make a melee attack on the foe".to_string()
                });
            }
            if to.against_spell() {
                // Adopted reading: help against a foe's spells needs the foe to cast them.
                return super::aid_check::check_spell_aid(explain, state, foe);
            }
            Illegal::unless(
                super::aid::in_melee(state, friend, foe),
                explain,
                "CEL-R9",
                || "the foe must be in melee with the friend".to_string(),
            )
        }
        Choice::AidSkill(friend, skill) => {
            super::aid_check::check_skill_aid(explain, state, who, friend, skill)
        }
        Choice::Weaken(n) => {
            if !(1..=20).contains(&n) {
                return no(explain, "CEL-R16.11", || {
                    "weaken by 1 to 20 steps".to_string()
                });
            }
            Illegal::unless(f.weakened == 0, explain, "CEL-R16.11", || {
                "its next attack is weakened already".to_string()
            })
        }
        Choice::Cleave(t) => {
            target_ok(t, "CEL-R16.1")?;
            if state.score(who, STR) < 13 || state.p(who).bab < 1 {
                return no(explain, "CEL-R16.1", || {
                    "it needs STR 13 and BAB +1".to_string()
                });
            }
            let Some((first, form)) = f.cleave_from else {
                return no(explain, "CEL-R16.1", || {
                    "a cleave follows a melee hit at once".to_string()
                });
            };
            let chaining = f.cleave_chain.len() >= 2;
            if f.cleave_round == Some(state.round) && !chaining {
                return no(explain, "CEL-R16.1", || "one cleave per round".to_string());
            }
            if f.cleave_chain.contains(&t) || !state.enemies(who, t) {
                return no(explain, "CEL-R16.1", || {
                    "a cleave is on another foe, none attacked twice in one attack".to_string()
                });
            }
            if state.gap(t, first) != 1 {
                return no(explain, "CEL-R16.1", || {
                    format!(
                        "{} is not next to {}",
                        state.roster.key(t),
                        state.roster.key(first)
                    )
                });
            }
            let reach = state
                .melee_forms(who)
                .find(|(i, _)| *i == usize::from(form))
                .is_some_and(|(_, w)| reaches_plus(w, state.gap(who, t), f.reach_bonus));
            Illegal::unless(reach, explain, "CEL-R16.1", || {
                "out of reach of the weapon that hit".to_string()
            })
        }
        Choice::Ready(_, readied) => super::ready::check(explain, state, who, readied),
        Choice::Crawl(_)
        | Choice::SteadyAim
        | Choice::DropItem(_)
        | Choice::WeakenAbility(_)
        | Choice::WeakenDegrees(_) => super::simple::check(explain, state, who, choice),
        Choice::FirstAid(t) => super::first_aid::check(explain, state, who, t),
        Choice::TreatWound(t) => super::treat_wound::check(explain, state, who, t),
        Choice::EscapeArtist(control) => super::escape::check(explain, state, who, control),
        Choice::Untie(t) => super::escape::check_untie(explain, state, who, t),
        Choice::EscapeNet => super::escape::check_net(explain, state, who),
        Choice::Extinguish => super::fire::check(explain, state, who),
        Choice::Sleight(object, victim, _) => {
            super::sleight::check(explain, state, who, object, victim)
        }
        Choice::Drink(_) | Choice::Administer(..) | Choice::UseItem(..) | Choice::Retrieve(_) => {
            super::item::check(explain, state, who, choice)
        }
        Choice::Draw(item) => super::wield::check(explain, state, who, item, true),
        Choice::ReadyShield => super::shield::check(explain, state, who, true),
        Choice::DropShield => super::shield::check(explain, state, who, false),
        Choice::PickUpShield => super::shield::check_pick_up(explain, state, who),
        Choice::SpellResistance(lower) => {
            super::spell_resistance::check(explain, state, who, lower)
        }
        Choice::Load | Choice::Prepare => super::ammo::check(explain, state, who, choice),
        Choice::DrawTwo(a, b) => super::wield::check_two(explain, state, who, a, b),
        Choice::Multiweapon(t, main, off) => {
            target_ok(t, "CEL-R9")?;
            super::multiweapon::check(explain, state, who, t, (main, off))
        }
        Choice::Sheathe(item) => super::wield::check(explain, state, who, item, false),
        Choice::Lock(item) => super::gauntlet::check(explain, state, who, item, true),
        Choice::Unlock(item) => super::gauntlet::check(explain, state, who, item, false),
        Choice::Cast(..) => super::spell::check(explain, state, who, choice),
        Choice::Dismiss(..) | Choice::Concentrate(..) | Choice::Cease(..) => {
            super::spell_lasting::check(explain, state, who, choice)
        }
        Choice::Redirect(t) => super::spell_weapon::check(explain, state, who, t),
        Choice::SpellCombat(..) | Choice::Spellstrike(..) => {
            super::magus::check(explain, state, who, choice)
        }
        Choice::SpecialStep(sp, n) => {
            if !state.options.scaling_choose_lower {
                return no(explain, "CEL-A20", || {
                    "the step is fixed by BAB (the GM's toggle `scaling_choose_lower` is off)"
                        .to_string()
                });
            }
            let k = super::special::scaling_step(state.p(who).bab);
            if matches!(sp, Special::Lunge | Special::MartialPower) || n == 0 || i32::from(n) > k {
                return no(explain, "CEL-A20", || {
                    format!(
                        "the step is from 1 to {k}, BAB's (Lunge has none; Martial Power's is \
                         fixed)"
                    )
                });
            }
            check_deed(explain, state, who, &Choice::Special(sp))
        }
        Choice::Demoralize(t) => {
            target_ok(t, "CEL-R9")?;
            super::ruling::check(explain, state, who, choice)
        }
        Choice::FindTracks => super::ruling::check(explain, state, who, choice),
        Choice::Recall(t) => {
            target_ok(t, "CEL-R9")?;
            super::recall::check(explain, state, who, t)
        }
        // CEL-R9 Search: any combatant may search (whether anything is hidden is the GM's).
        Choice::Search => Ok(()),
        Choice::Handle(a, trick, on) => {
            target_ok(a, "CEL-R9")?;
            super::animal::check(explain, state, who, (a, trick, on), false)
        }
        Choice::Push(a, trick, on) => {
            target_ok(a, "CEL-R12")?;
            super::animal::check(explain, state, who, (a, trick, on), true)
        }
        Choice::Feint(t) => {
            target_ok(t, "CEL-R11")?;
            super::feint::check(explain, state, who, t)
        }
        Choice::Delay => Illegal::unless(
            !f.acted && !state.surprise_round,
            explain,
            "CEL-R1.7",
            || "a turn is delayed before any action, in a regular round".to_string(),
        ),
        _ => no(explain, "CEL-R3", || "not an action".to_string()),
    }
}

/// Why `who` no longer has `item`: dropped (disarmed, CEL-R10.3: it may pick it up, CEL-R9) or
/// gone (stolen, CEL-R10.13, or destroyed, CEL-R10.5).
fn lost(state: &State, who: CombatantId, item: Item) -> (&'static str, &'static str) {
    if super::maneuver::lying_at(state, who, item).is_some() {
        (
            "CEL-R10.3",
            "a weapon it dropped (disarmed; pick it up first: pick-up, CEL-R9)",
        )
    } else {
        (
            "CEL-R10.13",
            "it no longer has it (stolen, or destroyed by a sunder)",
        )
    }
}

/// CEL-R10.3: a disarm of each item `t` holds or carries at hand, and of its shield, alone or
/// with a second item for a check 10 or more over its CMD.
fn disarm_options(state: &State, t: CombatantId, out: &mut Vec<Choice>) {
    let items = super::belonging::candidates(state, t, false);
    for &first in &items {
        out.push(Choice::Disarm(t, first, None));
        for &second in &items {
            if second != first {
                out.push(Choice::Disarm(t, first, Some(second)));
            }
        }
    }
}

/// CEL-R9 Aid Another, offered only where it can be legal: a foe the aider can reach with a
/// melee form, and friends within threat range of that foe (so the list grows with who stands
/// near whom, not with every friend × foe pair).
fn aid_options(state: &State, who: CombatantId, foe: CombatantId, out: &mut Vec<Choice>) {
    if !state.enemies(who, foe) || super::aid::aiding_form(state, who, foe).is_none() {
        return;
    }
    let near = state.near(foe, state.reach_squares, |o| {
        o != who && !state.enemies(who, o)
    });
    for friend in near {
        out.push(Choice::Aid(friend, foe, super::aid::AidTo::Attack));
        out.push(Choice::Aid(friend, foe, super::aid::AidTo::Defense));
    }
}

/// The maneuvers against a foe in melee reach: grapple, sunder (each item, destroyed or
/// spared), drag (each direction), reposition (each square next to its threatened area),
/// steal (each item). [CEL-R10]
fn maneuver_options(state: &State, who: CombatantId, t: CombatantId, out: &mut Vec<Choice>) {
    out.push(Choice::Grapple(t));
    let forms = state.p(t).melee.len().min(64) as u8;
    for item in (0..forms).map(Item::Melee).chain([Item::Ranged]) {
        if state.held(t, item).is_some() {
            out.push(Choice::Sunder(t, item, true));
            out.push(Choice::Sunder(t, item, false));
        }
    }
    for item in super::belonging::candidates(state, t, true) {
        out.push(Choice::Steal(t, item));
    }
    for d in Direction::ALL {
        out.push(Choice::Drag(t, d));
    }
    let (at, r) = (state.f(who).pos, state.p(who).reach_squares() + 1);
    for dx in -r..=r {
        for dy in -r..=r {
            out.push(Choice::Reposition(
                t,
                fray_core::Pos::new(at.x + dx, at.y + dy),
            ));
        }
    }
}

/// Grapple, Continued with each use, release and escape, for a combatant in a grapple.
/// [CEL-R10.9, R10.10, R9]
fn grapple_options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    use crate::state::HoldUse;
    let f = state.f(who);
    if f.held_by.is_some() {
        out.push(Choice::Escape(false));
        out.push(Choice::Escape(true));
    }
    if f.hold.is_none() {
        return;
    }
    out.push(Choice::Release);
    if f.maintained {
        return;
    }
    out.push(Choice::Maintain(HoldUse::Pin));
    out.push(Choice::Maintain(HoldUse::Choke));
    for (i, _) in state.melee_forms(who) {
        out.push(Choice::Maintain(HoldUse::Damage(i as u8, false)));
        out.push(Choice::Maintain(HoldUse::Damage(i as u8, true)));
    }
    let speed = state.speed_squares(who);
    for dx in -speed..=speed {
        for dy in -speed..=speed {
            let p = fray_core::Pos::new(f.pos.x + dx, f.pos.y + dy);
            out.push(Choice::Maintain(HoldUse::Move(p)));
            // CEL-R10.10 Move: placing the foe on a hazard next to where it ends its move.
            for h in state.hazards.iter().filter(|h| h.at.squares_to(p) <= 3) {
                out.push(Choice::Maintain(HoldUse::Place(p, h.at)));
            }
        }
    }
}

/// A combat maneuver reaches a foe a melee weapon reaches, or an adjacent one (unarmed).
/// [CEL-R10]
pub fn in_maneuver_reach(state: &State, who: CombatantId, t: CombatantId) -> bool {
    let gap = state.gap(who, t);
    (state.melee_forms(who).any(|(_, w)| {
        w.kind != WeaponKind::Unarmed && reaches_plus(w, gap, state.f(who).reach_bonus)
    }) || gap == 1)
        && super::line_of_effect::open(state, who, t)
}

/// For check_choice: the request's chooser as a combatant.
pub fn check_request(
    state: &State,
    request: &ChoiceRequest<'_, Choice>,
    choice: &Choice,
) -> Result<(), Illegal> {
    match request.chooser {
        Chooser::Combatant(id) => check(true, state, id, request.question, choice),
        Chooser::Gm => {
            // The request's options may not be built (a script answering): the GM's own list.
            let mut offered = Vec::new();
            options(state, &mut offered);
            Illegal::unless(
                request.options.contains(choice) || offered.contains(choice),
                true,
                request.rule,
                || "not among the options offered".to_string(),
            )
        }
    }
}

/// CEL-R20.5 Changing damage type: "You can use a melee weapon that deals lethal damage to deal
/// nonlethal damage instead" and "a weapon that deals nonlethal damage, including an unarmed
/// strike, to deal lethal damage instead"; offered only where one of its melee forms (its
/// unarmed strike included) is of the other kind, and not to what it chose already.
fn check_deal(
    explain: bool,
    state: &State,
    who: CombatantId,
    kind: Option<bool>,
) -> Result<(), Illegal> {
    if state.f(who).deal_nonlethal == kind {
        return no(explain, "CEL-R20.5", || match kind {
            Some(true) => "its melee attacks deal nonlethal damage already".to_string(),
            Some(false) => "its melee attacks deal lethal damage already".to_string(),
            None => "its weapons deal their own damage already".to_string(),
        });
    }
    let Some(nonlethal) = kind else {
        return Ok(());
    };
    let p = state.p(who);
    let other = p.melee.iter().any(|w| w.nonlethal != nonlethal);
    Illegal::unless(other, explain, "CEL-R20.5", || {
        if nonlethal {
            "it has no lethal melee weapon to deal nonlethal damage with".to_string()
        } else {
            "it has no nonlethal weapon or unarmed strike to deal lethal damage with".to_string()
        }
    })
}
