//! Legality of every choice (each refusal names its rule) and the option lists built from it.

use crate::choice::Flight;
use crate::content::WeaponKind;
use crate::state::{Slot, State};
use crate::Choice;
use fray_core::board::Board;
use fray_core::protocol::{Illegal, Question};
use fray_core::{CombatantId, Pos};

/// Squares from which a melee attack reaches (10 ft, ODD-R17.1).
pub const MELEE_SQUARES: i32 = 2;

/// Where `a` would strike `t` from and how many squares it must move: none when in melee.
pub fn approach(state: &State, a: CombatantId, t: CombatantId) -> Option<(Pos, i32)> {
    let from = state.f(a).pos;
    if state.in_melee(a, t) {
        return Some((from, 0));
    }
    let p = strike_square(state, a, t)?;
    Some((p, p.squares_to(from)))
}

/// The board's `strike_square` for melee reach (the free square within [`MELEE_SQUARES`] of
/// `t` least by (squares to `a`, square)), with the candidates tried in that order: the first
/// free one is the same square, found without testing all 24 for occupants (the sim's hot
/// spot, docs/performance.md "OD&D sim").
fn strike_square(state: &State, a: CombatantId, t: CombatantId) -> Option<Pos> {
    const SIDE: i32 = 2 * MELEE_SQUARES + 1;
    let (from, at) = (state.f(a).pos, state.f(t).pos);
    let mut around = [(0, at); (SIDE * SIDE) as usize];
    let mut n = 0;
    for dx in -MELEE_SQUARES..=MELEE_SQUARES {
        for dy in -MELEE_SQUARES..=MELEE_SQUARES {
            let p = Pos::new(at.x + dx, at.y + dy);
            if p != at {
                around[n] = (p.squares_to(from), p);
                n += 1;
            }
        }
    }
    // The least untried candidate each time: the first is nearly always free.
    let around = &mut around[..n];
    for tried in 0..n {
        let k = (tried..n).min_by_key(|&i| around[i]).unwrap_or(tried);
        around.swap(tried, k);
        let (_, p) = around[tried];
        if state.square_free(p, a) {
            return Some(p);
        }
    }
    None
}

/// [`approach`], when the move it needs can be at most `squares`: a strike square is within
/// [`MELEE_SQUARES`] of the target, so a target farther than `squares + MELEE_SQUARES` away
/// needs more, and the search for the square is skipped (`None`).
fn approach_within(
    state: &State,
    a: CombatantId,
    t: CombatantId,
    squares: i32,
) -> Option<(Pos, i32)> {
    let gap = state.f(a).pos.squares_to(state.f(t).pos);
    if gap - MELEE_SQUARES > squares && !state.in_melee(a, t) {
        return None;
    }
    approach(state, a, t)
}

/// The range band of a shot (ODD-R8.1): +1 short, 0 medium, −1 long; `None` beyond long range.
pub fn range_modifier(state: &State, a: CombatantId, t: CombatantId) -> Option<i32> {
    let w = state.p(a).missile.as_ref()?;
    let feet = state.f(a).pos.feet_to(state.f(t).pos);
    let inch = state.options.inch_ft;
    if feet <= w.range[0] * inch {
        Some(1)
    } else if feet <= w.range[1] * inch {
        Some(0)
    } else if feet <= w.range[2] * inch {
        Some(-1)
    } else {
        None
    }
}

/// ODD-R16.1, R16.3, R16.4: how far a shooter may move before it shoots: half its Turn
/// movement, the full movement with a missile it fires on the run (elves' bows and javelins,
/// hobbits' slings); none once engaged (ODD-R17.1).
pub fn shot_move(state: &State, a: CombatantId) -> i32 {
    if state.engaged(a) {
        return 0;
    }
    let on_the_run = state
        .p(a)
        .missile
        .as_ref()
        .is_some_and(|w| state.p(a).fire_on_run.contains(&w.kind));
    let full = state.move_squares(a);
    if on_the_run {
        full
    } else {
        full / 2
    }
}

/// The squares `a` must close to have `t` within long range, when it may move that far before
/// shooting (ODD-R16.1); `Some(0)` when it is in range already.
pub fn shot_approach(state: &State, a: CombatantId, t: CombatantId) -> Option<i32> {
    let w = state.p(a).missile.as_ref()?;
    let long = w.range[2] * state.options.inch_ft / State::SQUARE_FT;
    let gap = (state.f(a).pos.squares_to(state.f(t).pos) - long).max(0);
    (gap <= shot_move(state, a)).then_some(gap)
}

/// Whether `choice` is legal for `who` answering `question` now.
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    question: Question,
    choice: &Choice,
) -> Result<(), Illegal> {
    if !crate::choice::answers(question, choice) {
        return Illegal::refuse(explain, "ODD-R16.1", || {
            "that is not an answer to this question".to_string()
        });
    }
    if question == Question::Declaration {
        return check_cast(explain, state, who, choice);
    }
    if question == Question::Reaction {
        return match *choice {
            Choice::Attack(t) => {
                Illegal::unless(state.set_against == Some(t), explain, "ODD-R26.6", || {
                    "a spear is set only against the charger".to_string()
                })
            }
            Choice::Pursue(t) => {
                Illegal::unless(state.pursuing == Some(t), explain, "ODD-R30.1", || {
                    "only a foe fleeing from it now is pursued".to_string()
                })
            }
            Choice::Lure(food) => Illegal::unless(
                state.lure == Some(food),
                explain,
                "ODD-R30.4",
                || match state.lure {
                    None => "nobody is chasing it now".to_string(),
                    Some(true) => "unintelligent pursuers stop for food, not treasure".to_string(),
                    Some(false) => "intelligent pursuers stop for treasure, not food".to_string(),
                },
            ),
            _ => Ok(()),
        };
    }
    if let Some(inside) = state.f(who).swallowed_by {
        return swallowed(explain, state, who, inside, choice);
    }
    // ODD-R5.6, R17.3: a routed combatant runs away; its controller chooses only the path.
    if state.routed(who) {
        return match *choice {
            Choice::Retreat(way) if !state.options.mass => flight_path(explain, state, who, way),
            _ => Illegal::refuse(explain, "ODD-R5.6", || {
                "routed: it runs away (retreat along a flight path)".to_string()
            }),
        };
    }
    let restricted = state.pressing || state.slot == Slot::Last;
    let foe_up = |t: CombatantId, rule: &'static str| {
        Illegal::unless(
            t.index() < state.fighters.len() && state.foes(who, t) && state.f(t).is_up(),
            explain,
            rule,
            || format!("{} is not a foe able to fight", state.roster.name(t)),
        )?;
        Illegal::unless(
            state.f(t).swallowed_by.is_none(),
            explain,
            "ODD-R12.4",
            || {
                format!(
                    "{} is inside the foe that swallowed it",
                    state.roster.name(t)
                )
            },
        )?;
        Illegal::unless(
            !state.f(who).behind_by(t, state.round),
            explain,
            "ODD-R23.1",
            || {
                format!(
                    "attacked from behind by {} this round: it cannot return the attack",
                    state.roster.name(t)
                )
            },
        )
    };
    // ODD-R19.1: "Up to 6 combatants … can surround and attack" one in melee.
    let room = |t: CombatantId| {
        let surround = state.p(t).surround;
        Illegal::unless(
            state.options.mass || state.f(t).room_for(who, state.round, surround),
            explain,
            "ODD-R19.1",
            || {
                format!(
                    "{} already has {surround} attackers around it this round",
                    state.roster.name(t)
                )
            },
        )
    };
    // Asked only by the choices it matters to (it scans every combatant).
    let engaged = || state.engaged(who);
    match *choice {
        Choice::Nothing => Ok(()),
        Choice::Attack(t) => {
            foe_up(t, "ODD-R16.1")?;
            room(t)?;
            Illegal::unless(!state.p(who).melee.is_empty(), explain, "ODD-R16.1", || {
                "it has no melee attack".to_string()
            })?;
            if state.options.mass {
                return Ok(());
            }
            if restricted {
                return Illegal::unless(
                    state.p(t).normal_man && state.in_melee(who, t),
                    explain,
                    "ODD-R10.1",
                    || "its further attacks go only to Normal Men in melee".to_string(),
                );
            }
            let half = state.move_squares(who) / 2;
            match approach_within(state, who, t, half) {
                Some((_, d)) if d <= half => Ok(()),
                // ODD-R17.1, R17.4: an engaged combatant moves only through the line, to
                // a foe beyond it within its move, "if there is enough space".
                _ if engaged() => Illegal::refuse(explain, "ODD-R17.4", || {
                    "engaged in melee: it attacks foes within 10 ft, or moves through the line \
                     to one within half its Turn movement with room to strike it"
                        .to_string()
                }),
                _ => Illegal::refuse(explain, "ODD-R16.1", || {
                    "beyond half its Turn movement: charge or run instead".to_string()
                }),
            }
        }
        Choice::Charge(t) => {
            foe_up(t, "ODD-R26.2")?;
            room(t)?;
            let p = state.p(who);
            Illegal::unless(
                !restricted && !state.options.mass && !p.melee.is_empty(),
                explain,
                "ODD-R26.2",
                || "no charge now".to_string(),
            )?;
            Illegal::unless(!state.f(who).charged, explain, "ODD-R26.3", || {
                "a charge only once per Turn".to_string()
            })?;
            Illegal::unless(!engaged(), explain, "ODD-R17.1", || {
                "engaged in melee: no charge".to_string()
            })?;
            let full = state.move_squares(who);
            match approach_within(state, who, t, full) {
                Some((_, d)) if 2 * d > full && d <= full => Ok(()),
                _ => Illegal::refuse(explain, "ODD-R26.2", || {
                    "a charge moves more than half and up to the full Turn movement".to_string()
                }),
            }
        }
        Choice::Shoot(t) => {
            foe_up(t, "ODD-R8")?;
            Illegal::unless(
                !restricted && !state.options.mass,
                explain,
                "ODD-R8",
                || "no missile fire now".to_string(),
            )?;
            let Some(w) = &state.p(who).missile else {
                return Illegal::refuse(explain, "ODD-R8", || {
                    "it has no missile weapon".to_string()
                });
            };
            if w.kind == WeaponKind::Crossbow {
                let reloading = state
                    .f(who)
                    .shot_round
                    .is_some_and(|r| r + 1 == state.round);
                Illegal::unless(!reloading, explain, "ODD-R8.3", || {
                    "a crossbow fires every other round".to_string()
                })?;
            }
            Illegal::unless(
                shot_approach(state, who, t).is_some(),
                explain,
                "ODD-R16.1",
                || "beyond long range, even after the move it may make before shooting".to_string(),
            )
        }
        Choice::Run(t) => {
            foe_up(t, "ODD-R16.1")?;
            Illegal::unless(
                !restricted && !state.options.mass && !engaged() && !state.in_melee(who, t),
                explain,
                "ODD-R17.1",
                || "engaged in melee (or already there): no running".to_string(),
            )
        }
        Choice::Disarm(t)
        | Choice::Dismount(t)
        | Choice::Entangle(t, _)
        | Choice::Subdue(t)
        | Choice::Grapple(t) => {
            foe_up(t, "ODD-R16.1")?;
            room(t)?;
            Illegal::unless(
                !restricted && !state.options.mass && state.in_melee(who, t),
                explain,
                "ODD-R17.1",
                || "only against a foe in melee (within 10 ft)".to_string(),
            )?;
            special_move(explain, state, who, t, choice)
        }
        Choice::Parry => Illegal::unless(
            !restricted && engaged() && !state.options.mass,
            explain,
            "ODD-R24",
            || "only a combatant in melee parries".to_string(),
        ),
        Choice::Withdraw => Illegal::unless(
            !restricted && engaged() && !state.options.mass,
            explain,
            "ODD-R17.2",
            || "only a combatant in melee withdraws".to_string(),
        ),
        Choice::WithdrawAttacking(t) => {
            foe_up(t, "ODD-R17.2")?;
            room(t)?;
            Illegal::unless(
                !restricted && !state.options.mass && !state.p(who).melee.is_empty(),
                explain,
                "ODD-R17.2",
                || "no fighting withdrawal now".to_string(),
            )?;
            Illegal::unless(state.in_melee(who, t), explain, "ODD-R17.2", || {
                "a withdrawing combatant attacks only a foe within 10 ft".to_string()
            })
        }
        Choice::Retreat(way) => {
            Illegal::unless(
                !restricted && engaged() && !state.options.mass,
                explain,
                "ODD-R17.3",
                || "only a combatant in melee retreats".to_string(),
            )?;
            flight_path(explain, state, who, way)
        }
        Choice::Chop(o) => super::utility::check_chop(explain, state, who, o, restricted),
        Choice::Cast(..)
        | Choice::Fight
        | Choice::Parley
        | Choice::Pursue(_)
        | Choice::Lure(_)
        | Choice::Between(_)
        | Choice::Chopped(_) => {
            Illegal::refuse(explain, "ODD-R16.1", || "not an action".to_string())
        }
    }
}

/// ODD-R17.3: a flight path runs toward or away from another combatant, or to a square.
fn flight_path(explain: bool, state: &State, who: CombatantId, way: Flight) -> Result<(), Illegal> {
    match way {
        Flight::AwayFrom(t) | Flight::Toward(t) => Illegal::unless(
            t.index() < state.fighters.len() && t != who,
            explain,
            "ODD-R17.3",
            || "a flight path runs toward or away from another combatant".to_string(),
        ),
        Flight::Away | Flight::To(_) => Ok(()),
    }
}

/// ODD-R12.4, R13: a swallowed combatant can only attack its swallower, with a dagger (the
/// weapon for a tight space), or do nothing.
fn swallowed(
    explain: bool,
    state: &State,
    who: CombatantId,
    inside: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    match *choice {
        Choice::Nothing => Ok(()),
        Choice::Attack(t) if t == inside => Illegal::unless(
            state.p(who).tight_space_forms().next().is_some() && !state.f(who).disarmed,
            explain,
            "ODD-R13",
            || "swallowed: only a dagger can be used in so tight a space".to_string(),
        ),
        _ => Illegal::refuse(explain, "ODD-R12.4", || {
            format!(
                "swallowed by {}: it can only attack it from inside",
                state.roster.name(inside)
            )
        }),
    }
}

/// ODD-R14, R25, R27, R28: what each special attack needs.
fn special_move(
    explain: bool,
    state: &State,
    who: CombatantId,
    t: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let weapon = |id: CombatantId| {
        if state.f(id).disarmed {
            None
        } else {
            state.p(id).melee.first().and_then(|f| f.weapon.clone())
        }
    };
    let mine = weapon(who);
    match choice {
        Choice::Disarm(_) => {
            let theirs = weapon(t);
            Illegal::unless(
                mine.as_ref()
                    .is_some_and(|w| w.hands == 1 && !w.has("unarmed"))
                    && theirs
                        .as_ref()
                        .is_some_and(|w| w.hands == 1 && !w.has("unarmed")),
                explain,
                "ODD-R25.2",
                || "a disarm needs a one-handed weapon against a one-handed weapon".to_string(),
            )
        }
        Choice::Dismount(_) => Illegal::unless(
            mine.as_ref().is_some_and(|w| w.has("polearm"))
                && state.p(t).mounted
                && !state.f(t).dismounted,
            explain,
            "ODD-R25.1",
            || "a dismount needs a polearm against a mounted foe".to_string(),
        ),
        Choice::Entangle(..) => {
            Illegal::unless(
                mine.as_ref().is_some_and(|w| w.has("whip")),
                explain,
                "ODD-R14.1",
                || "only a whip entangles".to_string(),
            )?;
            // ODD-R14.1: "an opponent of ogre size or smaller".
            Illegal::unless(!state.p(t).huge, explain, "ODD-R14.1", || {
                format!(
                    "{} is bigger than an ogre: a whip entangles only foes of ogre size or smaller",
                    state.roster.name(t)
                )
            })
        }
        Choice::Grapple(_) => Illegal::unless(
            !state.p(who).is_unit() && !state.p(t).is_unit(),
            explain,
            "ODD-R28.1",
            || "units do not grapple".to_string(),
        ),
        _ => Ok(()),
    }
}

/// ODD-R16.2: a spellcaster may move up to 10 ft while casting.
pub const CASTER_STEP_FT: i32 = 10;

/// How far a spell reaches, in feet.
pub fn spell_reach(state: &State, who: CombatantId, spell: u8) -> i32 {
    let range = state.p(who).spells[usize::from(spell)].range;
    (range * state.options.inch_ft).max(5)
}

fn check_cast(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let Choice::Cast(s, t) = *choice else {
        return Ok(());
    };
    let Some(spell) = state.p(who).spells.get(usize::from(s)) else {
        return Illegal::refuse(explain, "ODD-R29", || "no such spell".to_string());
    };
    // ODD-R12.4, R13: nothing reaches in or out of a swallower but a dagger.
    if let Some(inside) = state.f(who).swallowed_by {
        return Illegal::refuse(explain, "ODD-R12.4", || {
            format!(
                "swallowed by {}: inside, only a dagger can be used (ODD-R13)",
                state.roster.name(inside)
            )
        });
    }
    if t.index() < state.fighters.len() && state.f(t).swallowed_by.is_some() {
        return Illegal::refuse(explain, "ODD-R12.4", || {
            format!(
                "{} is inside the foe that swallowed it: no spell reaches it",
                state.roster.name(t)
            )
        });
    }
    Illegal::unless(
        state
            .f(who)
            .spells_left
            .get(usize::from(s))
            .is_some_and(|n| *n > 0),
        explain,
        "ODD-R29",
        || format!("no {} left to cast", spell.name),
    )?;
    Illegal::unless(t.index() < state.fighters.len(), explain, "ODD-R29", || {
        "no such target".to_string()
    })?;
    let harmful = spell.damage.is_some();
    Illegal::unless(
        state.f(t).is_up() && state.foes(who, t) == harmful,
        explain,
        "ODD-R29",
        || {
            if harmful {
                "a harmful spell goes at a foe able to fight".to_string()
            } else {
                "a healing spell goes to an ally still standing".to_string()
            }
        },
    )?;
    let feet = state.f(who).pos.feet_to(state.f(t).pos);
    let reach = spell_reach(state, who, s);
    let step = if state.engaged(who) {
        0
    } else {
        CASTER_STEP_FT
    };
    Illegal::unless(
        state.options.mass || feet <= reach + step,
        explain,
        "ODD-R29",
        || {
            format!(
                "out of range ({feet} ft; it reaches {reach} ft, and the caster moves {step} ft at most)"
            )
        },
    )
}

/// Every legal option, in a fixed order.
pub fn options(state: &State, who: CombatantId, question: Question, out: &mut Vec<Choice>) {
    let push = |c: Choice, out: &mut Vec<Choice>| {
        if check(false, state, who, question, &c).is_ok() {
            out.push(c);
        }
    };
    match question {
        Question::Declaration => {
            for s in 0..state.p(who).spells.len() as u8 {
                for t in state.ids() {
                    push(Choice::Cast(s, t), out);
                }
            }
            out.push(Choice::Nothing);
        }
        Question::Action => {
            for make in [
                Choice::Attack,
                Choice::Charge,
                Choice::Shoot,
                Choice::Run,
                Choice::Disarm,
                Choice::Dismount,
                Choice::Subdue,
                Choice::Grapple,
            ] {
                for t in state.ids() {
                    push(make(t), out);
                }
            }
            for t in state.ids() {
                push(Choice::Entangle(t, true), out);
                push(Choice::Entangle(t, false), out);
            }
            push(Choice::Parry, out);
            push(Choice::Withdraw, out);
            for t in state.ids() {
                push(Choice::WithdrawAttacking(t), out);
            }
            for o in 0..state.objects.len() as u8 {
                push(Choice::Chop(o), out);
            }
            push(Choice::Retreat(Flight::Away), out);
            let routed = state.routed(who);
            if !state.options.mass && (routed || state.engaged(who)) {
                for t in state.ids() {
                    push(Choice::Retreat(Flight::AwayFrom(t)), out);
                }
                for t in state.ids() {
                    push(Choice::Retreat(Flight::Toward(t)), out);
                }
            }
            if !routed {
                out.push(Choice::Nothing);
            }
        }
        Question::Ruling => out.extend_from_slice(crate::choice::rulings("ODD-R3.3")),
        Question::Reaction => {
            if let Some(t) = state.set_against {
                out.push(Choice::Attack(t));
            }
            if let Some(t) = state.pursuing {
                out.push(Choice::Pursue(t));
            }
            if let Some(food) = state.lure {
                out.push(Choice::Lure(food));
            }
            out.push(Choice::Nothing);
        }
    }
}
