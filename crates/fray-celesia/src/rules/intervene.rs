//! The GM's interventions (CEL-G13: "manual adjustment of any roll, DC, DV or HP — always
//! available"): hit points (damage, or healing with its effects on the dying, CEL-R17.8, and
//! on nonlethal damage, CEL-R20.6), prone, total concealment, invisibility, a net, confusion
//! (CEL-A34), the advantage table's conditions (CEL-R4.5: blinded … panicked), a DV or
//! save-and-check DC
//! adjustment, a lasting ability penalty (CEL-R6.2), a combatant's square, one leaving the
//! fight, a ruling. Taken at each round's start and before each action.

use super::injury;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::intervention::Intervention;
use fray_core::{Board, CombatantId, Interrupt, Pos, Table};

const GM: &str = "GM";

fn combatant(state: &State, iv: &Intervention, key: &str) -> Result<CombatantId, Interrupt> {
    state
        .roster
        .find(key)
        .ok_or_else(|| iv.refused(format!("no combatant `{key}` in this fight")))
}

/// Largest DV or DC adjustment the GM can make at once.
const MAX_ADJUSTMENT: i32 = 50;

/// What a GM adjustment (`cond WHO dv+N`, `cond WHO dc+N`) changes.
#[derive(Clone, Copy)]
enum Adjusted {
    /// The combatant's DV (cover and concealment, whose values the seed does not give but for
    /// the stray shot's +4, CEL-G11; any DV, CEL-G13), shown in the DV's modifiers of every
    /// attack on it.
    Dv,
    /// The DC of every save and check the combatant makes (CEL-G13: "manual adjustment of any
    /// … DC"): saves against spells, coups de grace and massive damage, the stabilization
    /// save, Constitution to keep running, Disable Device, Ride, Intimidate, Survival,
    /// concentration; shown in each check.
    Dc,
}

impl Adjusted {
    fn word(self) -> &'static str {
        match self {
            Adjusted::Dv => "dv",
            Adjusted::Dc => "dc",
        }
    }
    fn condition(self) -> &'static str {
        match self {
            Adjusted::Dv => "DV-adjusted (GM)",
            Adjusted::Dc => "DC-adjusted (GM: its saves and checks)",
        }
    }
    fn slot(self, state: &mut State, id: CombatantId) -> &mut i32 {
        match self {
            Adjusted::Dv => &mut state.fm(id).gm_dv,
            Adjusted::Dc => &mut state.fm(id).gm_dc,
        }
    }
}

/// `cond WHO dv+N` / `dv-N` / `dc+N` / `dc-N`: the GM's adjustment, replacing any earlier one
/// of its kind, until `cond WHO -dv` / `-dc`. Logged as a condition (`DV-adjusted (GM)`).
fn adjust(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    intervention: &Intervention,
    id: CombatantId,
    what: Adjusted,
    condition: &str,
    gained: bool,
) -> Result<(), Interrupt> {
    let name = state.roster.name(id).to_string();
    let word = what.word();
    if !gained {
        if *what.slot(state, id) == 0 {
            return Err(intervention.refused(format!(
                "{name}'s {} has no GM adjustment",
                word.to_uppercase()
            )));
        }
        *what.slot(state, id) = 0;
        table.emit(|| Event::Condition {
            who: id,
            condition: what.condition(),
            gained: false,
            rule: "CEL-G13",
        });
        return Ok(());
    }
    let change = condition[2..]
        .trim_start_matches('+')
        .parse::<i32>()
        .ok()
        .filter(|n| *n != 0 && n.abs() <= MAX_ADJUSTMENT);
    let Some(change) = change else {
        return Err(intervention.refused(format!(
            "`cond WHO {word}+N` or `{word}-N`: N a whole number from 1 to {MAX_ADJUSTMENT}, \
             e.g. `cond {} {word}+4`",
            state.roster.key(id)
        )));
    };
    *what.slot(state, id) = change;
    table.emit(|| Event::Condition {
        who: id,
        condition: what.condition(),
        gained: true,
        rule: "CEL-G13",
    });
    Ok(())
}

/// The ability of `cond WHO str-N` (`dex-N` …, or `str` to end it), if `condition` names one.
fn penalised_ability(condition: &str) -> Option<usize> {
    let name = condition.split('-').next()?;
    (name.len() == 3)
        .then(|| crate::content::ability_index(name))
        .flatten()
}

/// `cond WHO dex-N` (any of str, dex, con, int, wis, cha): the GM gives a lasting ability
/// penalty of N (1 to 50), replacing its lasting one to that ability (a spell's stays and
/// stacks, `spell::PenaltySource`), until `cond WHO -dex` ends every penalty to that ability;
/// the score falls by it as under a spell's (`State::score`). A Constitution
/// penalty moves the hit-point bands (CEL-R17). [CEL-R6.2; the GM's, as CEL-G13's adjustments]
fn ability_penalty(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    intervention: &Intervention,
    id: CombatantId,
    ix: usize,
    condition: &str,
    gained: bool,
) -> Result<(), Interrupt> {
    use crate::spell::Penalized;
    use fray_core::conditions::{Expiry, Timed};
    let kind = crate::spell::Drained::of(ix);
    let name = state.roster.name(id).to_string();
    let before = (state.band(id), state.knocked_out(id), state.staggered(id));
    if !gained {
        let drained = &mut state.fm(id).drained;
        let spells = drained.remove(Penalized::spell(kind));
        if !(drained.remove(Penalized::lasting(kind)) || spells) {
            return Err(intervention.refused(format!("{name} has no {} penalty", kind.name())));
        }
    } else {
        let n = condition[3..]
            .strip_prefix('-')
            .and_then(|n| n.parse::<i32>().ok())
            .filter(|n| (1..=crate::spell::MAX_LASTING_PENALTY as i32).contains(n));
        let Some(n) = n else {
            return Err(intervention.refused(format!(
                "`cond WHO {0}-N`: N a whole number from 1 to {1}, e.g. `cond {2} {0}-4`; \
                 `cond {2} -{0}` ends it",
                kind.short(),
                crate::spell::MAX_LASTING_PENALTY,
                state.roster.key(id)
            )));
        };
        let drained = &mut state.fm(id).drained;
        drained.remove(Penalized::lasting(kind));
        drained.add_timed(Timed::new(Penalized::lasting(kind), Expiry::Indefinite).of(n));
    }
    table.emit(|| Event::Condition {
        who: id,
        condition: kind.key(),
        gained,
        rule: "CEL-R6.2",
    });
    // CEL-R17: the bands of hit points are in the Constitution score.
    injury::settle(state, table, id, before);
    Ok(())
}

/// Applies one intervention, then ends at once the grapples it undid: a grappler and its foe
/// the GM moved apart, walled off, took down (`hp`, `cond`) or removed are no longer
/// grappling, not only from the next action on. [CEL-G13; CEL-R10.9]
pub fn intervene(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    intervention: &Intervention,
) -> Result<(), Interrupt> {
    apply(state, table, intervention)?;
    super::grapple::tidy(state, table);
    Ok(())
}

/// Applies one intervention. [CEL-G13]
fn apply(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    intervention: &Intervention,
) -> Result<(), Interrupt> {
    let refuse = |reason: String| Err(intervention.refused(reason));
    match intervention {
        Intervention::Hp { who, change } => {
            let id = combatant(state, intervention, who)?;
            if state.f(id).absent() {
                return refuse(format!("{} is dead or gone", state.roster.name(id)));
            }
            if *change < 0 {
                injury::lose_hp(state, table, id, -change, "the GM's adjustment", GM);
            } else {
                // CEL-R20.6, R17.8: the same healing as an item's.
                super::item::heal(state, table, id, *change, GM);
            }
            Ok(())
        }
        Intervention::Condition {
            who,
            condition,
            gained,
            rounds,
        } => {
            let id = combatant(state, intervention, who)?;
            for what in [Adjusted::Dv, Adjusted::Dc] {
                let w = what.word();
                if condition == w
                    || condition.starts_with(&format!("{w}+"))
                    || condition.starts_with(&format!("{w}-"))
                {
                    return adjust(state, table, intervention, id, what, condition, *gained);
                }
            }
            if condition == "confused" {
                // CEL-A34: the parent game's confused condition (`rules::confusion`).
                return super::confusion::intervene(state, table, intervention, id, *gained);
            }
            // CEL-R4.5: the advantage table's conditions (rules/table_condition.rs).
            if let Some(done) = super::table_condition::intervene(
                state,
                table,
                intervention,
                id,
                condition,
                (*gained, *rounds),
            ) {
                return done;
            }
            if let Some(ix) = penalised_ability(condition) {
                return ability_penalty(state, table, intervention, id, ix, condition, *gained);
            }
            // Prone, or total concealment (CEL-G11: the GM says who has it).
            fn flag<'s>(s: &'s mut State, id: CombatantId, name: &str) -> Option<&'s mut bool> {
                match name {
                    "prone" => Some(&mut s.fm(id).prone),
                    "concealed" => Some(&mut s.fm(id).concealed),
                    // CEL-R4.5 rows 8 and 11 (rules/concealment.rs).
                    "invisible" => Some(&mut s.fm(id).invisible),
                    // CEL-R11 Escape from a Net: the seed gives no way to throw one; the GM
                    // says who a net entangles (rules/escape.rs).
                    "netted" => Some(&mut s.fm(id).netted),
                    // CEL-R11 Extinguish Flames: the seed has no rule for catching fire; the
                    // GM says who is on fire (rules/fire.rs).
                    "on-fire" => Some(&mut s.fm(id).on_fire),
                    _ => None,
                }
            }
            let Some(current) = flag(state, id, condition).map(|f| *f) else {
                return refuse(format!(
                    "`{condition}` is not a condition the GM can set in Celesia yet; prone, \
                     concealed, invisible, netted, on-fire, confused, {}, dv+N / dv-N, dc+N / \
                     dc-N and str-N … cha-N are",
                    super::table_condition::Settable::names()
                ));
            };
            if current == *gained {
                return refuse(format!(
                    "{} is {}{condition} already",
                    state.roster.name(id),
                    if *gained { "" } else { "not " }
                ));
            }
            if let Some(f) = flag(state, id, condition) {
                *f = *gained;
            }
            let condition: &'static str = match condition.as_str() {
                "prone" => "prone",
                "invisible" => "invisible",
                "netted" => super::escape::NETTED,
                "on-fire" => super::fire::ON_FIRE,
                _ => "concealed",
            };
            table.emit(|| Event::Condition {
                who: id,
                condition,
                gained: *gained,
                rule: GM,
            });
            Ok(())
        }
        Intervention::Move { who, to } => {
            let id = combatant(state, intervention, who)?;
            if state.f(id).absent() {
                return refuse(format!("{} is dead or gone", state.roster.name(id)));
            }
            let to = Pos::new(to[0], to[1]);
            let from = state.f(id).pos;
            if to != from && !state.square_free(to, id) {
                return refuse(format!("the square ({}, {}) is taken", to.x, to.y));
            }
            state.set_square(id, to);
            table.emit(|| Event::Moved {
                who: id,
                from,
                to,
                feet: from.feet_to(to),
                mode: "placed by the GM",
                hidden: false,
                rule: GM,
            });
            Ok(())
        }
        Intervention::Remove { who, how } => {
            let id = combatant(state, intervention, who)?;
            if !state.up(id) {
                return refuse(format!(
                    "{} is not up: only a combatant still fighting can flee, surrender or be \
                     captured",
                    state.roster.name(id)
                ));
            }
            let (standing, status) = match how.as_str() {
                "surrendered" => (fray_core::Standing::Surrendered, "surrendered"),
                "captured" => (fray_core::Standing::Captured, "captured"),
                _ => (fray_core::Standing::Fled, "fled"),
            };
            let f = state.fm(id);
            f.gone = Some(standing);
            let hp = f.hp;
            table.emit(|| Event::Status {
                who: id,
                status,
                hp,
                rule: GM,
            });
            Ok(())
        }
        // Celesia keeps no reserves yet (its builder does not set `RESERVES`).
        Intervention::Add { .. } => {
            refuse("Celesia cannot bring combatants in from reserve yet".to_string())
        }
        // CEL-R10.10 Move: the GM marks a hazardous square or takes one off (rules/hazard.rs);
        // the GM raises or clears obstacles and difficult terrain (rules/terrain.rs); any
        // other ruling changes nothing.
        Intervention::Ruling { text } => {
            // CEL-R17.9: Constitution damage or drain, or its restoration (rules/con_loss.rs).
            if super::con_loss::ruling(state, table, intervention, text)? {
                return Ok(());
            }
            if super::hazard::ruling(state, intervention, text)? {
                return Ok(());
            }
            let Some(change) = super::terrain::ruling(state, intervention, text)? else {
                return Ok(());
            };
            table.emit(|| change);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::Choice;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::state::{Caused, Trick};
    use fray_core::conditions::Expiry;
    use fray_core::driver::ScriptedDriver;
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;

    const HAL: CombatantId = CombatantId(0);
    const ANN: CombatantId = CombatantId(1);
    const ORC: CombatantId = CombatantId(2);

    /// Hal at 0 0, his ally Ann at 1 1 (diagonally next to him), the orc at 3 0.
    fn fight() -> State {
        Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .with("ann", "heroes", [1, 1], FIGHTER)
            .monster("orc", "orcs", [3, 0], "orc")
            .state()
    }

    /// The GM's `rule TEXT` on `state`; the events it made.
    fn rule(state: &mut State, text: &str) -> Vec<Event> {
        let mut driver = ScriptedDriver::new(Vec::new(), Vec::new());
        let mut sink = VecSink::default();
        {
            let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
            let iv = Intervention::Ruling { text: text.into() };
            intervene(state, &mut table, &iv).expect("a lawful ruling");
        }
        sink.events.into_iter().map(|e| e.1).collect()
    }

    /// A terrain ruling says what changed, as a public `terrain` event; a ruling about
    /// anything else makes none.
    #[test]
    fn a_terrain_ruling_says_what_changed() {
        let mut s = fight();
        let events = rule(&mut s, "difficult 5 5 6 5");
        assert_eq!(
            events,
            vec![Event::Terrain {
                change: "difficult",
                squares: vec![Pos::new(5, 5), Pos::new(6, 5)],
                rule: "GM",
            }]
        );
        let roster = s.roster.clone();
        assert_eq!(
            events[0].audience(&roster),
            fray_core::audience::Audience::Everyone
        );
        assert!(rule(&mut s, "the bridge holds").is_empty());
        let events = rule(&mut s, "clear 6 5");
        assert!(
            matches!(&events[..], [Event::Terrain { change: "clear", squares, .. }] if squares == &[Pos::new(6, 5)])
        );
    }

    /// Hal (0 0) holds the orc diagonally next to him (1 1). One obstacle at 1 0 leaves the
    /// line through the corner they share: the hold stands. A second at 0 1 makes a diagonal
    /// wall through that corner: no line of effect, and the grapple ends at the ruling.
    /// [CEL-R10.9; `rules::line_of_effect`]
    #[test]
    fn a_wall_raised_between_a_grappler_and_its_foe_ends_the_grapple() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [1, 1], "orc")
            .state();
        let orc = CombatantId(1);
        {
            let mut driver = ScriptedDriver::new(Vec::new(), Vec::new());
            let mut sink = VecSink::default();
            let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
            crate::rules::grapple::begin_hold(&mut s, &mut table, HAL, orc);
        }
        assert!(s.grappled(HAL) && s.grappled(orc));
        // One obstacle beside them leaves the corner line: the hold stands.
        let events = rule(&mut s, "obstacle 1 0");
        assert_eq!(events.len(), 1, "{events:?}");
        assert!(s.grappled(orc), "a lone obstacle's corner does not block");
        // The second closes the diagonal: no line of effect, no grapple.
        let events = rule(&mut s, "obstacle 0 1");
        assert!(!s.grappled(HAL) && !s.grappled(orc));
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::Acted { act: "no longer grapples", detail, rule: "CEL-R10.9", .. }
                    if detail == "an obstacle between them (no line of effect)"
            )),
            "{events:?}"
        );
    }

    /// CEL-R10.9: the GM moving the held orc away from Hal ends the grapple in the
    /// intervention itself, its line right after the move (not at the next action).
    #[test]
    fn the_gm_moving_a_grappled_foe_away_ends_the_grapple_at_once() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        let orc = CombatantId(1);
        let mut driver = ScriptedDriver::new(Vec::new(), Vec::new());
        let mut sink = VecSink::default();
        {
            let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
            crate::rules::grapple::begin_hold(&mut s, &mut table, HAL, orc);
            let iv = Intervention::Move {
                who: "orc".into(),
                to: [1, 1],
            };
            intervene(&mut s, &mut table, &iv).expect("a free square next to Hal");
            assert!(s.grappled(orc), "still next to Hal (diagonally)");
            let iv = Intervention::Move {
                who: "orc".into(),
                to: [4, 4],
            };
            intervene(&mut s, &mut table, &iv).expect("a free square");
        }
        assert!(!s.grappled(HAL) && !s.grappled(orc));
        let events: Vec<Event> = sink.events.into_iter().map(|e| e.1).collect();
        let placed = events
            .iter()
            .rposition(|e| {
                matches!(
                    e,
                    Event::Moved {
                        mode: "placed by the GM",
                        ..
                    }
                )
            })
            .expect("the move");
        assert!(
            matches!(
                &events[placed + 1..],
                [Event::Acted { act: "no longer grapples", detail, rule: "CEL-R10.9", .. }, ..]
                    if detail == "no longer next to each other"
            ),
            "{events:?}"
        );
    }

    /// CEL-R10.9: the GM taking the held orc down (`hp orc -N` past its hit points) or
    /// removing Hal (`remove hal fled`) ends the grapple in that intervention, not at the next
    /// action.
    #[test]
    fn the_gm_taking_a_grappler_or_its_foe_out_ends_the_grapple_at_once() {
        for (iv, down) in [
            (
                Intervention::Hp {
                    who: "orc".into(),
                    change: -40,
                },
                "the orc",
            ),
            (
                Intervention::Remove {
                    who: "hal".into(),
                    how: "fled".into(),
                },
                "Hal",
            ),
        ] {
            let mut s = Fixture::new()
                .with("hal", "heroes", [0, 0], FIGHTER)
                .monster("orc", "orcs", [1, 0], "orc")
                .state();
            let orc = CombatantId(1);
            let mut driver = ScriptedDriver::new(Vec::new(), Vec::new());
            let mut sink = VecSink::default();
            {
                let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
                crate::rules::grapple::begin_hold(&mut s, &mut table, HAL, orc);
                intervene(&mut s, &mut table, &iv).expect("a lawful intervention");
            }
            assert!(!s.grappled(HAL) && !s.grappled(orc), "{down} out");
            let events: Vec<Event> = sink.events.into_iter().map(|e| e.1).collect();
            assert!(
                events.iter().any(|e| matches!(
                    e,
                    Event::Acted { act: "no longer grapples", detail, rule: "CEL-R10.9", .. }
                        if detail == "one of them is down"
                )),
                "{down}: {events:?}"
            );
        }
    }

    /// CEL-R10.7: Ann (1 1), diagonally next to Hal (0 0), may clear the orc's dirty trick
    /// from him; once the GM raises a diagonal wall between them (1 0 and 0 1) she cannot reach
    /// him across it; Hal himself still can.
    #[test]
    fn an_ally_clears_a_dirty_trick_only_with_a_line_of_effect() {
        let mut s = fight();
        s.fm(ANN).acts_left = 3;
        s.fm(HAL).acts_left = 3;
        s.fm(HAL).tricks.add(
            Caused::dirty_trick(Trick::Blinded),
            Expiry::StartOfTurn { who: ORC, round: 2 },
        );
        let clear = Choice::Clear(HAL, Trick::Blinded);
        let check = |s: &State, who| crate::rules::legal::check_action(true, s, who, &clear);
        assert!(check(&s, ANN).is_ok(), "{:?}", check(&s, ANN));
        rule(&mut s, "obstacle 1 0 0 1");
        let refused = check(&s, ANN).expect_err("across the wall");
        assert_eq!(refused.rule, "CEL-R10.7");
        assert!(
            refused
                .reason
                .contains("an obstacle blocks every line from ann to hal"),
            "{refused:?}"
        );
        assert!(check(&s, HAL).is_ok(), "the target itself");
    }
}
