//! The legality of grappling (CEL-R10.9–R10.11, R9 Escape a Grapple), overrun, sunder, drag,
//! reposition and steal (CEL-R10.4, R10.5, R10.8, R10.12, R10.13) and picking a dropped weapon
//! up (CEL-R9 Manipulate an Item), each refusal naming its rule.

use super::legal::in_maneuver_reach;
use super::{grapple, maneuver, movement};
use crate::choice::Choice;
use crate::content::{Hands, WeaponKind};
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
        })
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
                HoldUse::Move(p) => {
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
        Choice::Escape(_) => Illegal::unless(f.held_by.is_some(), explain, "CEL-R9", || {
            "not held in a grapple (the grappler releases it instead)".to_string()
        }),
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
            let (beyond, _) = maneuver::overrun_squares(state, who, t);
            let at = state.f(t).pos;
            if beyond.squares_to(f.pos) > state.speed_squares(who) {
                return no(explain, rule, || {
                    "the square beyond the foe is further than its speed".to_string()
                });
            }
            Illegal::unless(
                movement::clear_line(state, who, f.pos, at) && state.square_free(beyond, who),
                explain,
                rule,
                || "no clear straight path to the foe and a free square beyond it".to_string(),
            )
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
            if state.held(t, item).is_none() {
                return no(explain, rule, || {
                    format!("`{}` is not an item the foe holds", item.key())
                });
            }
            if state.gap(who, t) != 1 {
                return no(explain, rule, || {
                    "within its own melee reach (not a reach weapon's)".to_string()
                });
            }
            let i = &f.injuries;
            let two_handed = state.melee_forms(who).next().is_some_and(|(_, w)| {
                w.hands == Hands::Two
                    && !matches!(w.kind, WeaponKind::Natural | WeaponKind::Unarmed)
            });
            Illegal::unless(
                state.p(who).arms > 0 && i.hands.intact().min(i.arms.intact()) >= 1 && !two_handed,
                explain,
                rule,
                || "it needs a free hand (it wields a two-handed weapon, or has none)".to_string(),
            )
        }
        Choice::PickUp(item) => {
            let rule = "CEL-R9";
            let Some(at) = maneuver::lying_at(state, who, item) else {
                return no(explain, rule, || {
                    format!("no weapon `{}` of its lies on the ground", item.key())
                });
            };
            Illegal::unless(f.pos == at || f.pos.is_adjacent(at), explain, rule, || {
                format!("it lies at {} {}: stand on or next to it", at.x, at.y)
            })
        }
        _ => no(explain, "CEL-R3", || "not a combat maneuver".to_string()),
    }
}

/// What being in a grapple forbids: the grappler must continue it (or release it) before
/// anything else at the start of its turn (CEL-R10.9); a pinned creature can only try to
/// escape (Pathfinder's pinned, CEL-A34); a grappled one cannot move nor use two-handed
/// weapons (Pathfinder's grappled, CEL-A34).
pub fn grapple_limits(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let f = state.f(who);
    if f.hold.is_none() && f.held_by.is_none() {
        return Ok(());
    }
    if f.hold.is_some() && !f.maintained && !matches!(choice, Choice::Maintain(_) | Choice::Release)
    {
        return no(explain, "CEL-R10.9", || {
            "a grappler takes Grapple, Continued at the start of each turn, or releases the \
             grapple (free)"
                .to_string()
        });
    }
    if state.pinned(who) && !matches!(choice, Choice::Escape(_) | Choice::End) {
        return no(explain, "CEL-A34", || {
            "pinned: it can only try to escape the grapple".to_string()
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
    );
    if moves {
        return no(explain, "CEL-A34", || {
            "grappled: it cannot move (a grappler moves its foe with Grapple, Continued)"
                .to_string()
        });
    }
    let two_handed = match *choice {
        Choice::Attack(_, form) | Choice::CoupDeGrace(_, form) => state
            .melee_forms(who)
            .find(|(i, _)| *i == usize::from(form))
            .is_some_and(|(_, w)| {
                w.hands == crate::content::Hands::Two
                    && !matches!(w.kind, WeaponKind::Natural | WeaponKind::Unarmed)
            }),
        Choice::Shoot(_) => state
            .ranged_weapon(who)
            .is_some_and(|w| w.hands == crate::content::Hands::Two),
        _ => false,
    };
    Illegal::unless(!two_handed, explain, "CEL-A34", || {
        "grappled: no action that needs two hands".to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::state::{Hold, Item};
    use fray_core::{Direction, Pos};

    /// Hal (fighter 3, longsword) at 0 0; orc 1 next to him at 1 0; orc 2 at `far`.
    fn fight(far: [i32; 2]) -> State {
        let text = format!(
            r#"schema = 1
ruleset = "celesia"
name = "test"
[[sides]]
id = "heroes"
[[sides]]
id = "orcs"
[[combatants]]
id = "hal"
side = "heroes"
at = [0, 0]
class = "fighter"
level = 3
hp = 30
scores = {{ str = 16, dex = 14, con = 14 }}
weapon = "longsword"
[[combatants]]
id = "orc"
side = "orcs"
count = 2
at = [[1, 0], [{}, {}]]
monster = "orc"
"#,
            far[0], far[1]
        );
        let content = Content::embedded().expect("content");
        crate::encounter::load("t.toml", &text, &content)
            .expect("loads")
            .state
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
