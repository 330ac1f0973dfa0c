//! Routs and fumbles through the real fight loop, event log and exact-odds summary, with a tiny
//! test ruleset (neither built ruleset has morale or fumbles yet): a hero clubs goblins; a
//! goblin that loses a comrade may break and flee; a natural 1 is a fumble, a natural 20 a
//! critical.

use fray_core::event::{json_lines, AttackResult, Event};
use fray_core::protocol::{ChoiceRequest, Illegal, Interrupt, Question, RollPurpose};
use fray_core::roster::{CombatantInfo, SideInfo};
use fray_core::ruleset::Criticals;
use fray_core::{
    Board, CombatantId, EndReason, Limits, Outcome, Piece, Pos, Roster, Ruleset, RulesetId,
    ScriptedDriver, SideId, Standing, Table, Tally, VecSink,
};
use fray_engine::odds::single_attack;
use num_rational::BigRational;

/// The hero (combatant 0, side 0) and two goblins (side 1).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Skirmish {
    roster: Roster,
    standing: Vec<Standing>,
    occupancy: fray_core::Occupancy,
}

impl Skirmish {
    fn new() -> Skirmish {
        let side = |key: &str, name: &str| SideInfo {
            key: key.into(),
            name: name.into(),
            controller: Default::default(),
        };
        let combatant = |key: &str, side| CombatantInfo {
            key: key.into(),
            name: key.into(),
            side: SideId(side),
            group: key.into(),
            controller: Default::default(),
            reserve: false,
        };
        Skirmish {
            roster: Roster {
                sides: vec![side("heroes", "The heroes"), side("goblins", "The goblins")],
                combatants: vec![
                    combatant("hero", 0),
                    combatant("gob-1", 1),
                    combatant("gob-2", 1),
                ],
            },
            standing: vec![Standing::Up; 3],
            occupancy: fray_core::Occupancy::new((0..3).map(|i| Pos::new(i, 0))),
        }
    }

    fn first_goblin_up(&self) -> Option<CombatantId> {
        (1..3u16)
            .map(CombatantId)
            .find(|&id| self.standing[id.index()].is_up())
    }
}

impl Board for Skirmish {
    fn occupancy(&self) -> &fray_core::Occupancy {
        &self.occupancy
    }
    fn combatant_count(&self) -> usize {
        self.standing.len()
    }
    fn piece(&self, who: CombatantId) -> Piece {
        let up = self.standing[who.index()].is_up();
        let side = self.roster.side_of(who);
        Piece::new(side, Pos::new(i32::from(who.0), 0), up, up)
    }
    fn standing(&self, who: CombatantId) -> Standing {
        self.standing[who.index()]
    }
}

/// A d20 club blow: 1 fumbles, 2–10 miss, 11–19 hit, 20 is a critical; a hit kills.
fn club(
    state: &mut Skirmish,
    table: &mut Table<'_, Toy>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let roll = table.roll_dice(1, 20, Some(attacker), RollPurpose::Attack, "TOY-1")?;
    let result = match roll {
        1 => AttackResult::Fumble,
        20 => AttackResult::Critical,
        11.. => AttackResult::Hit,
        _ => AttackResult::Miss,
    };
    table.emit(|| Event::Attack {
        attacker,
        target,
        attack: "club".into(),
        roll,
        modifiers: Vec::new(),
        total: roll as i32,
        defense: "AC",
        versus: 11,
        defense_modifiers: Vec::new(),
        result,
        rule: "TOY-1",
    });
    if result.is_hit() {
        state.standing[target.index()] = Standing::Dead;
        table.emit(|| Event::Damage {
            target,
            roll: 6,
            modifiers: Vec::new(),
            normal: 6,
            subdual: 0,
            hp: 0,
            rule: "TOY-1",
        });
    }
    Ok(())
}

struct Toy;

impl Ruleset for Toy {
    const ID: RulesetId = RulesetId::Odd;
    type State = Skirmish;
    type Choice = ();

    fn roster(state: &Skirmish) -> &Roster {
        &state.roster
    }
    fn begin(_: &mut Skirmish, _: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        Ok(())
    }
    /// The hero clubs the first goblin up; if one fell, the others check morale on a d6 and
    /// flee on 5 or 6.
    fn play_round(state: &mut Skirmish, table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        let Some(goblin) = state.first_goblin_up() else {
            return Ok(());
        };
        club(state, table, CombatantId(0), goblin)?;
        if state.standing[goblin.index()] == Standing::Dead && state.first_goblin_up().is_some() {
            let morale = table.roll_dice(1, 6, None, RollPurpose::Other, "TOY-2")?;
            if morale >= 5 {
                for s in state.standing.iter_mut().skip(1).filter(|s| s.is_up()) {
                    *s = Standing::Fled;
                }
            }
        }
        Ok(())
    }
    fn outcome(state: &Skirmish) -> Outcome {
        state.outcome_by_side()
    }
    fn choice_text(_: &Skirmish, _: &()) -> String {
        String::new()
    }
    fn parse_choice(_: &Skirmish, _: &ChoiceRequest<'_, ()>, _: &str) -> Result<(), Illegal> {
        Ok(())
    }
    fn answers(_: Question, _: &()) -> bool {
        true
    }
    fn check_choice(_: &Skirmish, _: &ChoiceRequest<'_, ()>, _: &()) -> Result<(), Illegal> {
        Ok(())
    }
    fn tallies(state: &Skirmish, out: &mut Vec<Tally>) {
        out.clear();
        out.extend(
            state
                .roster
                .ids()
                .map(|id| Tally::single(state.roster.side_of(id), 5, 5, state.standing(id))),
        );
    }
    fn tactics(_: &Skirmish, _: &ChoiceRequest<'_, ()>) {}
}

/// Fights the skirmish with these die faces; returns how it ended, the last event's text and
/// JSON, and the tallies.
fn fight(faces: &[u32], max_rounds: u32) -> (fray_core::FightEnd, String, serde_json::Value) {
    let mut state = Skirmish::new();
    let mut driver = ScriptedDriver::new(faces.to_vec(), Vec::new()).strict();
    let mut sink = VecSink::default();
    let limits = Limits {
        max_rounds,
        ..Limits::default()
    };
    let end = fray_core::run_fight::<Toy>(&mut state, &mut driver, &mut sink, None, &limits)
        .expect("the script answers every roll");
    let (_, last) = sink.events.last().expect("an end event");
    let text = last.describe(&state.roster);
    let json = json_lines(&sink.events, &state.roster)
        .pop()
        .expect("an end line");
    (end, text, json)
}

#[test]
fn goblins_that_flee_after_a_death_lose_by_rout() {
    // d20 15 kills gob-1; morale d6 6: gob-2 flees.
    let (end, text, json) = fight(&[15, 6], 10);
    assert_eq!(end.winner, Some(SideId(0)));
    assert_eq!(end.reason, EndReason::Routed);
    assert!(end.by_rout() && !end.stalemate());
    assert_eq!(text, "The heroes win after 1 round: the goblins routed");
    assert_eq!(json["type"], "end");
    assert_eq!(json["winner"], "heroes");
    assert_eq!(json["stalemate"], false);
    assert_eq!(json["ending"], "routed");
    assert_eq!(json["reason"], "the goblins routed");
    assert_eq!(
        json["losers"],
        serde_json::json!([{"side": "goblins", "by": "routed"}])
    );
}

#[test]
fn goblins_that_stand_and_die_lose_by_kill() {
    // d20 15 kills gob-1; morale d6 2 holds; next round d20 20 (critical) kills gob-2.
    let (end, text, json) = fight(&[15, 2, 20], 10);
    assert_eq!(end.reason, EndReason::Defeated);
    assert_eq!(end.rounds, 2);
    assert_eq!(text, "The heroes win after 2 rounds: the goblins fell");
    assert_eq!(json["ending"], "defeated");
    assert_eq!(json["reason"], "the goblins fell");
    assert_eq!(
        json["losers"],
        serde_json::json!([{"side": "goblins", "by": "defeated"}])
    );
}

#[test]
fn a_stalemate_keeps_its_limit_as_the_reason() {
    let (end, text, json) = fight(&[3], 1);
    assert_eq!(end.reason, EndReason::Limit);
    assert!(end.stalemate());
    assert_eq!(end.winner, None);
    assert_eq!(text, "stalemate: round limit reached after 1 round");
    assert_eq!(json["stalemate"], true);
    assert_eq!(json["ending"], "limit");
    assert_eq!(json["reason"], "round limit");
    assert_eq!(json["losers"], serde_json::json!([]));
}

#[test]
fn fumbles_are_misses_and_the_exact_odds_count_them() {
    let start = Skirmish::new();
    let report = single_attack::<Toy>(&start, "hero", "gob-1", club, Criticals::CriticalAndFumble)
        .expect("odds");
    let p = |n: i64| BigRational::new(n.into(), 20.into());
    assert_eq!(report.fumble, Some(p(1)));
    assert_eq!(report.critical, Some(p(1)));
    assert_eq!(report.grievous, None);
    assert_eq!(report.hit, p(10), "11–20 hit");
    assert_eq!(report.miss, p(10), "the fumble is among the misses");
    assert_eq!(report.down, p(10));
    // A ruleset without fumbles shows no fumble line, whatever its attacks do.
    let report =
        single_attack::<Toy>(&start, "hero", "gob-1", club, Criticals::Critical).expect("odds");
    assert_eq!(report.fumble, None);
    assert_eq!(report.critical, Some(p(1)));
}

#[test]
fn a_fumble_reads_as_one_in_the_text_and_json_logs() {
    let mut state = Skirmish::new();
    let mut driver = ScriptedDriver::new(vec![1], Vec::new()).strict();
    let mut sink = VecSink::default();
    let limits = Limits {
        max_rounds: 1,
        ..Limits::default()
    };
    fray_core::run_fight::<Toy>(&mut state, &mut driver, &mut sink, None, &limits)
        .expect("the script answers every roll");
    let log = fray_engine::render::text_log(&sink.events, &state.roster);
    assert!(
        log.contains("hero attacks gob-1 with club (TOY-1): d20 1 = 1 vs AC 11 — fumble\n"),
        "{log}"
    );
    let attack = json_lines(&sink.events, &state.roster)
        .into_iter()
        .find(|line| line["type"] == "attack")
        .expect("an attack line");
    assert_eq!(attack["result"], "fumble");
    assert_eq!(state.standing[1], Standing::Up, "a fumble is a miss");
}
