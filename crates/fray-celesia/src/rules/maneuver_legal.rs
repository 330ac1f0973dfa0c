//! The legality of grappling (CEL-R10.9–R10.11, R9 Escape a Grapple), overrun, sunder, drag,
//! reposition and steal (CEL-R10.4, R10.5, R10.8, R10.12, R10.13) and picking a dropped weapon
//! up (CEL-R9 Manipulate an Item), each refusal naming its rule.

use super::belonging::Belonging;
use super::legal::in_maneuver_reach;
use super::{grapple, maneuver};
use crate::choice::Choice;
use crate::content::WeaponKind;
use crate::state::{HoldUse, State};
use fray_core::protocol::{refuse as no, Illegal};
use fray_core::{Board, CombatantId};

/// Whether `choice`, one of the actions above, is legal for `who` now (its acts are paid for,
/// checked by the caller).
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let f = state.f(who);
    let foe_ok = |t: CombatantId, rule: &'static str| -> Result<(), Illegal> {
        if t == who || !state.enemies(who, t) {
            return no(explain, rule, || {
                "a combat maneuver is made on a foe".to_string()
            });
        }
        Illegal::unless(!state.f(t).absent(), explain, rule, || {
            format!("{} is no longer in the fight", state.roster.key(t))
        })?;
        super::line_of_effect::check(explain, state, who, t, rule)
    };
    let size_ok = |t: CombatantId, rule: &'static str| {
        Illegal::unless(
            state.p(t).size as i32 <= state.p(who).size as i32 + 1,
            explain,
            rule,
            || "the foe is more than one size category larger".to_string(),
        )
    };
    let reach_ok = |t: CombatantId, rule: &'static str| {
        Illegal::unless(in_maneuver_reach(state, who, t), explain, rule, || {
            "a combat maneuver needs the foe in melee reach".to_string()
        })
    };
    match *choice {
        Choice::Grapple(t) => {
            let rule = "CEL-R10.9";
            foe_ok(t, rule)?;
            if !state.up(t) {
                return no(explain, rule, || "grapple a foe still up".to_string());
            }
            if state.grappled(who) || state.grappled(t) {
                return no(explain, rule, || {
                    "one grapple at a time: one of the two is in a grapple already".to_string()
                });
            }
            reach_ok(t, rule)
        }
        Choice::Maintain(use_) => {
            let rule = "CEL-R10.10";
            let Some(hold) = f.hold else {
                return no(explain, rule, || {
                    "it holds no grapple it started".to_string()
                });
            };
            if f.maintained {
                return no(explain, rule, || {
                    "Grapple, Continued is taken once a turn, at its start".to_string()
                });
            }
            match use_ {
                HoldUse::Pin => Ok(()),
                HoldUse::Tie => {
                    super::escape::check_tie(explain, state, who)?;
                    Illegal::unless(
                        state.f(hold.target).tied.is_none(),
                        explain,
                        "CEL-R10.10",
                        || "it is tied up already".to_string(),
                    )
                }
                HoldUse::Choke => Illegal::unless(
                    !state.p(hold.target).immune_crit,
                    explain,
                    "CEL-R10.11",
                    || "immune to a chokehold (immune to critical hits)".to_string(),
                ),
                HoldUse::Damage(form, _) => Illegal::unless(
                    grapple::squeezes_with(state, who, form),
                    explain,
                    rule,
                    || {
                        format!(
                            "form {form} is not an unarmed strike, natural attack, or light or \
                             one-handed weapon it can use"
                        )
                    },
                ),
                HoldUse::Move(p) | HoldUse::Place(p, _) => {
                    let speed = state.speed_squares(who);
                    if f.prone || p == f.pos || p.squares_to(f.pos) > speed {
                        return no(explain, rule, || {
                            format!(
                                "a Move goes up to its speed, {} ft (not while prone)",
                                5 * speed
                            )
                        });
                    }
                    if !state.square_free(p, who) && state.f(hold.target).pos != p {
                        return no(explain, rule, || "that square is taken".to_string());
                    }
                    if !super::terrain::path_within(state, who, p, speed) {
                        return no(explain, rule, || {
                            format!(
                                "no path around the obstacles within its speed, {} ft",
                                5 * speed
                            )
                        });
                    }
                    if let HoldUse::Place(_, q) = use_ {
                        return grapple::check_place(explain, state, who, hold.target, p, q);
                    }
                    Illegal::unless(
                        grapple::square_next_to(
                            state,
                            p,
                            state.f(hold.target).pos,
                            hold.target,
                            who,
                        )
                        .is_some(),
                        explain,
                        rule,
                        || "no space next to that square to put the foe in".to_string(),
                    )
                }
            }
        }
        Choice::Release => Illegal::unless(f.hold.is_some(), explain, "CEL-R10.9", || {
            "only the creature that started a grapple releases it".to_string()
        }),
        Choice::Escape(control) => super::escape::check(explain, state, who, control),
        Choice::Overrun(t) => {
            let rule = "CEL-R10.4";
            foe_ok(t, rule)?;
            size_ok(t, rule)?;
            if !state.up(t) {
                return no(explain, rule, || "overrun a foe still up".to_string());
            }
            if f.prone {
                return no(explain, rule, || {
                    "prone: stand up first (Stand Up)".to_string()
                });
            }
            let line = maneuver::overrun_line(state, who, t);
            let beyond = line.beyond;
            if beyond.squares_to(f.pos) > state.speed_squares(who) {
                return no(explain, rule, || {
                    "the square beyond the foe is further than its speed".to_string()
                });
            }
            Illegal::unless(
                line.clear && state.square_free(beyond, who),
                explain,
                rule,
                || "no clear straight path to the foe and a free square beyond it".to_string(),
            )
        }
        Choice::OverrunTo(to) => {
            let rule = "CEL-R10.4";
            if f.prone {
                return no(explain, rule, || {
                    "prone: stand up first (Stand Up)".to_string()
                });
            }
            let steps = f.pos.squares_to(to);
            if steps == 0 || steps > state.speed_squares(who) {
                return no(explain, rule, || {
                    format!("{} {} is not within its speed", to.x, to.y)
                });
            }
            if !state.square_free(to, who) {
                return no(explain, rule, || {
                    format!("{} {} is not free to end on", to.x, to.y)
                });
            }
            let met = maneuver::in_the_way(state, who, to);
            if met.is_empty() {
                return no(explain, rule, || {
                    "no foe on the way to overrun (that is a Move)".to_string()
                });
            }
            for (_, o) in met {
                if !state.enemies(who, o) || !state.up(o) {
                    return no(explain, rule, || {
                        format!(
                            "{} is in the way: only foes still up are overrun",
                            state.roster.key(o)
                        )
                    });
                }
                size_ok(o, rule)?;
            }
            Ok(())
        }
        Choice::Follow => {
            let rule = "CEL-R10.2";
            let right_after = f
                .follow
                .is_some_and(|a| a.clock == f.act_clock && a.turn == f.turns);
            if !right_after {
                return no(explain, rule, || {
                    "it moves along only right after a bull rush that pushed its foe".to_string()
                });
            }
            Illegal::unless(!f.prone, explain, rule, || {
                "prone: stand up first (Stand Up)".to_string()
            })
        }
        Choice::Sunder(t, item, _) => {
            let rule = "CEL-R10.5";
            foe_ok(t, rule)?;
            if state.held(t, item).is_none() {
                return no(explain, rule, || {
                    format!(
                        "`{}` is not a weapon the foe holds (natural attacks and unarmed \
                         strikes are not items)",
                        item.key()
                    )
                });
            }
            Illegal::unless(
                maneuver::sundering_form(state, who, t).is_some(),
                explain,
                rule,
                || "no melee form reaches the foe to strike its item".to_string(),
            )
        }
        Choice::Drag(t, dir) => {
            let rule = "CEL-R10.8";
            foe_ok(t, rule)?;
            size_ok(t, rule)?;
            let at = state.f(t).pos;
            if state.gap(who, t) != 1 {
                return no(explain, rule, || {
                    "the foe must be next to it (it stays adjacent as it is dragged)".to_string()
                });
            }
            let free = |p: fray_core::Pos| {
                !state
                    .occupancy
                    .any_at(p, |o| o != who && o != t && state.piece(o).blocks)
            };
            Illegal::unless(
                free(f.pos.step(dir)) && free(at.step(dir)),
                explain,
                rule,
                || "no room to move 5 ft that way together".to_string(),
            )
        }
        Choice::Reposition(t, p) => {
            let rule = "CEL-R10.12";
            foe_ok(t, rule)?;
            size_ok(t, rule)?;
            reach_ok(t, rule)?;
            let path = maneuver::reposition_path(state, who, t, p);
            Illegal::unless(
                p != state.f(t).pos && path.last() == Some(&p),
                explain,
                rule,
                || {
                    "the foe cannot be moved there: through free squares, within its threatened \
                     area for all but the last 5 ft"
                        .to_string()
                },
            )
        }
        Choice::Steal(t, item) => {
            let rule = "CEL-R10.13";
            foe_ok(t, rule)?;
            super::belonging::check(explain, state, t, item, true)?;
            if state.gap(who, t) != 1 {
                return no(explain, rule, || {
                    "within its own melee reach (not a reach weapon's)".to_string()
                });
            }
            Illegal::unless(super::wield::hand_free(state, who), explain, rule, || {
                STEAL_NEEDS_A_HAND.to_string()
            })
        }
        Choice::PickUp(item) => {
            let rule = "CEL-R9";
            let Some(at) = maneuver::lying_at(state, who, item) else {
                // CEL-R7.3: a thrown weapon that landed (`rules::thrown`): its own, or one of
                // its kind another threw.
                if item == crate::state::Item::Ranged && super::thrown::any_lying(state, who) {
                    return super::thrown::check_pick_up(explain, state, who);
                }
                return no(explain, rule, || {
                    format!("no weapon `{}` of its lies on the ground", item.key())
                });
            };
            if !super::wield::room_for(state, who, item) {
                return no(explain, rule, || {
                    "its hands are full: sheathe or drop a weapon first".to_string()
                });
            }
            Illegal::unless(f.pos == at || f.pos.is_adjacent(at), explain, rule, || {
                format!("it lies at {} {}: stand on or next to it", at.x, at.y)
            })
        }
        Choice::PickUpGear(book) => {
            super::belonging::check_pick_up(explain, state, who, Belonging::Gear(book))
        }
        Choice::PickUpRope => super::belonging::check_pick_up(explain, state, who, Belonging::Rope),
        _ => no(explain, "CEL-R3", || "not a combat maneuver".to_string()),
    }
}

/// The ends offered for an overrun along a move through `t` (CEL-R10.4): the squares on the
/// straight line through its space beyond it, within speed, where the move may end.
pub fn overrun_ends(state: &State, who: CombatantId, t: CombatantId, out: &mut Vec<Choice>) {
    let from = state.f(who).pos;
    let beyond = maneuver::overrun_line(state, who, t).beyond;
    let (d, speed) = (from.squares_to(beyond), state.speed_squares(who));
    if d < 2 || d > speed {
        return;
    }
    for i in d..=speed {
        out.push(Choice::OverrunTo(from.point_on_line(beyond, i)));
    }
}

/// What being in a grapple forbids: the grappler must continue it (or release it) before
/// anything else at the start of its turn (CEL-R10.9); a pinned creature can only try to
/// escape (Pathfinder's pinned, CEL-A34); a grappled one cannot move nor use two-handed
/// weapons (Pathfinder's grappled, CEL-A34).
#[inline]
pub fn grapple_limits(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    // In every legality check: this test inline in the caller, the rest out of line (issue 16).
    let f = state.f(who);
    // CEL-R10.10 Tie Up: the ropes pin a creature out of any grapple too.
    if f.hold.is_none() && f.held_by.is_none() && f.tied.is_none() {
        return Ok(());
    }
    held_limits(explain, state, who, choice)
}

/// [`grapple_limits`], for a grappler, a grappled or a tied-up creature.
#[inline(never)]
fn held_limits(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let f = state.f(who);
    if f.hold.is_some() && !f.maintained && !matches!(choice, Choice::Maintain(_) | Choice::Release)
    {
        return no(explain, "CEL-R10.9", || {
            "a grappler takes Grapple, Continued at the start of each turn, or releases the \
             grapple (free)"
                .to_string()
        });
    }
    if state.pinned(who)
        && !matches!(
            choice,
            Choice::Escape(_) | Choice::EscapeArtist(_) | Choice::End
        )
    {
        return no(explain, "CEL-A34", || {
            if f.held_by.is_none() {
                "tied up: the ropes pin it; it can only try to escape them".to_string()
            } else {
                "pinned: it can only try to escape the grapple".to_string()
            }
        });
    }
    let moves = matches!(
        choice,
        Choice::Approach(_)
            | Choice::MoveTo(_)
            | Choice::Step(_)
            | Choice::Charge(_)
            | Choice::Run(_)
            | Choice::Overrun(_)
            | Choice::Drag(..)
            | Choice::Follow
            | Choice::OverrunTo(_)
    );
    if moves {
        return no(explain, "CEL-A34", || {
            "grappled: it cannot move (a grappler moves its foe with Grapple, Continued)"
                .to_string()
        });
    }
    let two_handed = match *choice {
        Choice::CoupDeGrace(_, super::ammo::RANGED_FORM, _) => state
            .ranged_weapon(who)
            .is_some_and(|w| w.hands == crate::content::Hands::Two),
        Choice::Attack(_, form) | Choice::CoupDeGrace(_, form, _) => state
            .melee_forms(who)
            .find(|(i, _)| *i == usize::from(form))
            .is_some_and(|(_, w)| {
                w.hands == crate::content::Hands::Two
                    && !matches!(w.kind, WeaponKind::Natural | WeaponKind::Unarmed)
            }),
        Choice::Shoot(_) => state
            .ranged_weapon(who)
            .is_some_and(|w| w.hands == crate::content::Hands::Two),
        // CEL-R9 Multiweapon Fighting with a held weapon in each hand.
        Choice::Multiweapon(_, a, b) => super::multiweapon::both_held(state, who, a, b),
        _ => false,
    };
    Illegal::unless(!two_handed, explain, "CEL-A34", || {
        "grappled: no action that needs two hands".to_string()
    })
}

/// Why a steal is refused without a hand free. [CEL-R10.13]
pub const STEAL_NEEDS_A_HAND: &str = "it needs a free hand (it wields a two-handed weapon, its \
     hands hold weapons or a strapped shield, or it has none)";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::state::{Hold, Item};
    use fray_core::{Direction, Pos};

    /// Hal (fighter 3, longsword) at 0 0; orc 1 next to him at 1 0; orc 2 at `far`.
    fn fight(far: [i32; 2]) -> State {
        Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nscores = {{ str = 16, dex = 14, con = 14 }}"),
            )
            .monster("orc-1", "orcs", [1, 0], "orc")
            .monster("orc-2", "orcs", far, "orc")
            .state()
    }

    fn legal(state: &State, who: u16, c: Choice) -> Result<(), &'static str> {
        check(true, state, CombatantId(who), &c).map_err(|i| i.rule)
    }

    /// CEL-R10.4: the overrun ends just beyond the foe, on the line through it; a failed one
    /// stops in front of it.
    #[test]
    fn overrun_passes_to_the_square_beyond() {
        let s = fight([3, 3]);
        let (beyond, before) = maneuver::overrun_squares(&s, CombatantId(0), CombatantId(2));
        assert_eq!((beyond, before), (Pos::new(4, 4), Pos::new(2, 2)));
        assert_eq!(legal(&s, 0, Choice::Overrun(CombatantId(2))), Ok(()));
        assert_eq!(
            legal(&s, 0, Choice::Overrun(CombatantId(0))),
            Err("CEL-R10.4")
        );
    }

    /// CEL-R10.2, R10.4, R21.3: against a Large foe, a bull rush pushes straight back from
    /// its square nearest the attacker, and an overrun stops in front of its space and ends
    /// just past it (from its north-west square the push went diagonally, and the square
    /// "in front" fell inside the ogre's space).
    #[test]
    fn a_large_foe_is_measured_from_its_nearest_square() {
        let s = Fixture::new()
            .with("hal", "heroes", [2, 1], FIGHTER)
            .monster("ogre", "ogres", [0, 0], "ogre")
            .with("bo", "heroes", [3, 0], FIGHTER)
            .state();
        let (hal, ogre, bo) = (CombatantId(0), CombatantId(1), CombatantId(2));
        assert_eq!(
            maneuver::push_direction(&s, hal, ogre),
            Some(Direction::West)
        );
        let line = maneuver::overrun_line(&s, bo, ogre);
        assert_eq!(
            (line.before, line.beyond),
            (Pos::new(2, 0), Pos::new(-1, 0))
        );
        assert!(line.clear);
        assert_eq!(legal(&s, 2, Choice::Overrun(ogre)), Ok(()));
    }

    /// CEL-R10.4: an overrun along a move passes every foe on the line; an ally in the way,
    /// or no foe at all, is refused.
    #[test]
    fn overrun_along_a_move_meets_each_foe_in_turn() {
        let s = fight([2, 0]);
        let to = Pos::new(4, 0);
        assert_eq!(
            maneuver::in_the_way(&s, CombatantId(0), to),
            vec![(1, CombatantId(1)), (2, CombatantId(2))]
        );
        assert_eq!(legal(&s, 0, Choice::OverrunTo(to)), Ok(()));
        assert_eq!(
            legal(&s, 0, Choice::OverrunTo(Pos::new(0, 3))),
            Err("CEL-R10.4")
        );
        assert_eq!(
            legal(&s, 2, Choice::OverrunTo(Pos::new(-1, 0))),
            Err("CEL-R10.4"),
            "orc 1 is orc 2's ally"
        );
        let mut ends = Vec::new();
        overrun_ends(&s, CombatantId(0), CombatantId(2), &mut ends);
        assert!(ends.contains(&Choice::OverrunTo(Pos::new(3, 0))));
    }

    /// CEL-R10.2: moving along only right after the bull rush, in the same turn.
    #[test]
    fn moving_along_only_right_after_the_push() {
        let mut s = fight([6, 6]);
        let hal = CombatantId(0);
        assert_eq!(legal(&s, 0, Choice::Follow), Err("CEL-R10.2"));
        let (clock, turn) = (s.f(hal).act_clock, s.f(hal).turns);
        s.fm(hal).follow = Some(crate::state::Follow {
            dir: Direction::East,
            squares: 2,
            clock,
            turn,
        });
        assert_eq!(legal(&s, 0, Choice::Follow), Ok(()));
        s.fm(hal).act_clock += 1;
        assert_eq!(legal(&s, 0, Choice::Follow), Err("CEL-R10.2"));
    }

    /// CEL-R10.12: all but the last 5 ft inside the threatened area; the last next to it.
    #[test]
    fn reposition_stays_in_the_threatened_area_but_for_the_last_square() {
        let s = fight([6, 6]);
        let (hal, orc) = (CombatantId(0), CombatantId(1));
        let path = maneuver::reposition_path(&s, hal, orc, Pos::new(1, 4));
        assert_eq!(path, vec![Pos::new(1, 1), Pos::new(1, 2)]);
        assert!(legal(&s, 0, Choice::Reposition(orc, Pos::new(1, 2))).is_ok());
        assert_eq!(
            legal(&s, 0, Choice::Reposition(orc, Pos::new(1, 3))),
            Err("CEL-R10.12")
        );
    }

    /// CEL-R10.8: drag only an adjacent foe, with room for both to move.
    #[test]
    fn drag_needs_an_adjacent_foe_and_room() {
        let s = fight([6, 6]);
        assert!(legal(&s, 0, Choice::Drag(CombatantId(1), Direction::West)).is_ok());
        assert_eq!(
            legal(&s, 0, Choice::Drag(CombatantId(2), Direction::West)),
            Err("CEL-R10.8")
        );
    }

    /// CEL-R10.9–R10.10, R9: only the initiator continues or releases; only the held escape;
    /// one grapple at a time; the damage form is not two-handed.
    #[test]
    fn grapple_roles() {
        let mut s = fight([6, 6]);
        let (hal, orc) = (CombatantId(0), CombatantId(1));
        assert!(legal(&s, 0, Choice::Grapple(orc)).is_ok());
        s.fm(hal).hold = Some(Hold {
            target: orc,
            pinned: false,
            choke: false,
        });
        s.fm(orc).held_by = Some(hal);
        assert_eq!(legal(&s, 0, Choice::Grapple(orc)), Err("CEL-R10.9"));
        assert!(legal(&s, 0, Choice::Maintain(HoldUse::Pin)).is_ok());
        assert!(legal(&s, 0, Choice::Release).is_ok());
        assert_eq!(legal(&s, 1, Choice::Release), Err("CEL-R10.9"));
        assert!(legal(&s, 1, Choice::Escape(false)).is_ok());
        assert_eq!(legal(&s, 0, Choice::Escape(false)), Err("CEL-R9"));
        // The orc's falchion is two-handed: no grapple damage with it.
        s.fm(orc).hold = s.f(hal).hold.map(|h| Hold { target: hal, ..h });
        assert_eq!(
            legal(&s, 1, Choice::Maintain(HoldUse::Damage(0, false))),
            Err("CEL-R10.10")
        );
        assert!(grapple::hands_penalty(&s, hal) == -4 && grapple::hands_penalty(&s, orc) == -4);
    }

    /// CEL-R10.5: a two-handed blade has 10 hp and hardness 10; broken at half.
    #[test]
    fn sunder_breaks_at_half() {
        let mut s = fight([6, 6]);
        let orc = CombatantId(1);
        let w = s.held(orc, Item::Melee(0)).cloned().expect("falchion");
        assert_eq!(State::item_toughness(&w), (10, 10));
        s.fm(orc).item_damage.push((Item::Melee(0), 4));
        assert!(!s.broken(orc, Item::Melee(0)));
        s.fm(orc).item_damage[0].1 = 5;
        assert!(s.broken(orc, Item::Melee(0)));
    }
}
