//! Actions whose numbers the seed leaves to the GM, played as GM rulings: Demoralize (CEL-R9:
//! "Using the Intimidate skill, you shout threats at a foe within 30 feet that can see and hear
//! you, attempting to demoralize it") and Find Tracks (CEL-R13: "This requires at least 3
//! consecutive acts and may take more, as determined by the GM. If you lose a trail, it takes
//! longer to try again"). fray plays what the seed gives (the act, the range, the senses, the
//! consecutive acts, the skill check) and asks the GM — a `Ruling` choice, an answer in the log
//! like any other — for what it does not give: the DC, what a demoralized foe suffers, how much
//! longer a lost trail takes. Recall Knowledge (`rules::recall`) asks the GM its DC the same
//! way.

use super::aid_check::Skill;
use super::legal;
use crate::choice::Choice;
use crate::state::{Asking, Cause, Caused, State, Trick, CHA, WIS};
use crate::Celesia;
use fray_core::conditions::{ConditionKind, Expiry, Timed};
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// What the GM says of a combatant for the actions the seed leaves to the GM (the seed has no
/// skill tables, maneuvers or stances: each is an entry key). [CEL-R9, R13, R16.5]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct GmSaid {
    /// Intimidate bonus (`intimidate`): Demoralize is offered only with one.
    pub intimidate: Option<i32>,
    /// Survival bonus (`survival`): Find Tracks is offered only with one.
    pub survival: Option<i32>,
    /// Spellcraft bonus (`spellcraft`): Identify a Spell Being Cast is tried only with one.
    /// [CEL-R14]
    pub spellcraft: Option<i32>,
    /// It knows at least one maneuver or stance (`knows_maneuver = true`), Martial Power's
    /// prerequisite with CON 13. [CEL-R16.5]
    pub knows_maneuver: bool,
    /// Its Bluff and Sense Motive, and what kind of mind it has, for Feint. [CEL-R11]
    pub feint: super::feint::FeintSaid,
}

/// What the GM is asked to rule on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum About {
    /// The DC of the Intimidate check to demoralize this foe.
    DemoralizeDc(CombatantId),
    /// What this foe, demoralized, suffers.
    Demoralized(CombatantId),
    /// The DC of the Survival check to find tracks.
    TracksDc,
    /// The DC of the Lore check to identify this foe monster (Recall Knowledge, CEL-R9).
    RecallDc(CombatantId),
    /// How many acts the next try takes after a lost trail (more than the last one's).
    TracksRetry(u8),
    /// Whether the Critical Hit Deck's card for a critical hit on this foe says normal damage.
    /// [CEL-G6, `rules::crit_deck`]
    CritCard(CombatantId),
}

/// Highest DC the GM is offered.
pub const MAX_DC: u8 = 40;
/// Longest the GM may make a demoralized foe shaken, in rounds.
pub const MAX_SHAKEN_ROUNDS: u8 = 10;
/// Most acts a Find Tracks may take.
pub const MAX_TRACKS_ACTS: u8 = 100;
/// Demoralize reaches a foe within 30 feet. [CEL-R9]
const DEMORALIZE_FT: i32 = 30;

/// The GM's options for `about`.
pub fn options(about: About, out: &mut Vec<Choice>) {
    match about {
        About::DemoralizeDc(_) | About::TracksDc | About::RecallDc(_) => {
            out.extend((0..=MAX_DC).map(Choice::Dc));
        }
        About::Demoralized(_) => {
            out.extend((1..=MAX_SHAKEN_ROUNDS).map(Choice::Shaken));
            out.push(Choice::NoEffect);
        }
        About::TracksRetry(last) => {
            let first = last.saturating_add(1).min(MAX_TRACKS_ACTS);
            let last = last.saturating_add(30).min(MAX_TRACKS_ACTS);
            out.extend((first..=last).map(Choice::RetryActs));
        }
        About::CritCard(_) => super::crit_deck::options(out),
    }
}

/// The default tactics' ruling (the stand-in GM of `fray fight` and `fray sim`): DC 15,
/// shaken for 1 round, the next try 3 acts longer, no Critical Hit Deck card (the usual
/// critical).
pub fn default_ruling(about: About) -> Choice {
    match about {
        About::DemoralizeDc(_) | About::TracksDc | About::RecallDc(_) => Choice::Dc(15),
        About::Demoralized(_) => Choice::Shaken(1),
        About::TracksRetry(last) => Choice::RetryActs(last.saturating_add(3).min(MAX_TRACKS_ACTS)),
        About::CritCard(_) => super::crit_deck::DEFAULT,
    }
}

/// Whether Demoralize or Find Tracks is legal for `who` now (acts aside).
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let said = state.p(who).gm_said;
    match *choice {
        Choice::Demoralize(t) => {
            if said.intimidate.is_none() {
                return no(explain, "CEL-R9", || {
                    "Demoralize uses the Intimidate skill: its entry gives no `intimidate` bonus \
                     (the seed has no skill tables)"
                        .to_string()
                });
            }
            if !state.enemies(who, t) || !state.up(t) {
                return no(explain, "CEL-R9", || {
                    "Demoralize is aimed at a foe still up".to_string()
                });
            }
            if state.feet_between(who, t) > DEMORALIZE_FT {
                return no(explain, "CEL-R9", || {
                    format!("the foe is not within {DEMORALIZE_FT} feet")
                });
            }
            let ft = state.f(t);
            Illegal::unless(
                !ft.has_trick(Trick::Blinded)
                    && !ft.injuries.blind()
                    && !ft.has_trick(Trick::Deafened),
                explain,
                "CEL-R9",
                || "the foe must see and hear it (it is blinded or deafened)".to_string(),
            )
        }
        Choice::FindTracks => Illegal::unless(said.survival.is_some(), explain, "CEL-R13", || {
            "Find Tracks uses the Survival skill: its entry gives no `survival` bonus (the seed \
             has no skill tables)"
                .to_string()
        }),
        _ => no(explain, "CEL-R3", || "not an action".to_string()),
    }
}

/// Demoralize and Find Tracks for `who`, where its entry gives the skill.
pub fn action_options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let said = state.p(who).gm_said;
    if said.intimidate.is_some() {
        out.extend(
            state
                .ids()
                .filter(|&t| state.enemies(who, t))
                .map(Choice::Demoralize),
        );
    }
    if said.survival.is_some() {
        out.push(Choice::FindTracks);
    }
}

/// Asks the GM to rule on `about` for `who`'s action.
fn ask(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    about: About,
    rule: &'static str,
) -> Result<Choice, Interrupt> {
    legal::ask(state, table, Asking::Ruling { who, about }, rule)
}

/// A skill check (`skill`, its bonus, the log's words on success and failure) against the DC
/// the GM rules on `about`: asks the GM, then rolls.
pub(crate) fn ruled_check(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    about: About,
    (skill, bonus, results): (Skill, i32, (&'static str, &'static str)),
    rule: &'static str,
) -> Result<bool, Interrupt> {
    let Choice::Dc(dc) = ask(state, table, who, about, rule)? else {
        return Ok(false);
    };
    let check = super::D20Check {
        purpose: skill.name(),
        modifier: skill.name(),
        bonus,
        dc: i32::from(dc),
        kind: skill.kind(),
        results,
        rule,
    };
    // CEL-R9: a friend's Aid Another on this check.
    check.roll_skill(skill, state, table, who)
}

/// CEL-R9 Demoralize (simple, no provoke): an Intimidate check against the DC the GM rules;
/// on a success, what the foe suffers is the GM's ruling too (shaken for some rounds, ending
/// at the start of the demoralizer's turn that many rounds on as a dirty trick's do, CEL-A39;
/// or nothing).
pub fn demoralize(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
) -> Result<(), Interrupt> {
    table.emit(|| Event::Acted {
        who,
        act: "shouts threats at",
        on: Some(t),
        detail: "to demoralize it (Intimidate; the DC and the effect are the GM's)".into(),
        rule: "CEL-R9",
    });
    // Intimidate is a Charisma skill (the parent game's, CEL-A34): a CHA penalty counts.
    let bonus = state.skill(who, state.p(who).gm_said.intimidate.unwrap_or(0), CHA);
    let check = (Skill::Intimidate, bonus, ("demoralized", "not demoralized"));
    if !ruled_check(state, table, who, About::DemoralizeDc(t), check, "CEL-R9")? {
        return Ok(());
    }
    let Choice::Shaken(rounds) = ask(state, table, who, About::Demoralized(t), "CEL-R9")? else {
        table.emit(|| Event::Acted {
            who,
            act: "demoralizes",
            on: Some(t),
            detail: "to no effect (the GM's ruling)".into(),
            rule: "CEL-R9",
        });
        return Ok(());
    };
    let until = state.round + u32::from(rounds);
    let shaken = Caused {
        trick: Trick::Shaken,
        cause: Cause::Demoralize,
    };
    let timed = Timed::new(shaken, Expiry::StartOfTurn { who, round: until }).from(who);
    state.fm(t).tricks.add_timed(timed);
    table.emit(|| Event::Condition {
        who: t,
        condition: ConditionKind::key(Trick::Shaken),
        gained: true,
        rule: "CEL-R9",
    });
    table.emit(|| Event::Acted {
        who,
        act: "demoralizes",
        on: Some(t),
        detail: format!(
            "shaken for {rounds} round{} (the GM's ruling): until the start of {}'s turn in \
             round {until}",
            if rounds == 1 { "" } else { "s" },
            state.roster.name(who)
        ),
        rule: "CEL-R9",
    });
    Ok(())
}

/// The acts Find Tracks takes for `who` now: the GM's number after a lost trail, else the
/// `find_tracks_acts` option's. [CEL-R13, CEL-G3]
pub fn tracks_acts(state: &State, who: CombatantId) -> u8 {
    match state.f(who).tracks_acts {
        0 => state.options.find_tracks_acts,
        n => n,
    }
}

/// CEL-R13 Find Tracks, its acts in: a Survival check against the DC the GM rules. Found, the
/// log says so (what the tracks tell is the GM's to say); lost, the GM rules how many acts the
/// next try takes ("it takes longer to try again").
pub fn find_tracks(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    acts: u8,
) -> Result<(), Interrupt> {
    // Survival is a Wisdom skill (the parent game's, CEL-A34): a WIS penalty counts.
    let bonus = state.skill(who, state.p(who).gm_said.survival.unwrap_or(0), WIS);
    let check = (
        Skill::Survival,
        bonus,
        ("tracks found", "the trail is lost"),
    );
    if ruled_check(state, table, who, About::TracksDc, check, "CEL-R13")? {
        state.fm(who).tracks_acts = 0;
        table.emit(|| Event::Acted {
            who,
            act: "finds tracks",
            on: None,
            detail: "what they tell is the GM's to say".into(),
            rule: "CEL-R13",
        });
        return Ok(());
    }
    if let Choice::RetryActs(next) = ask(state, table, who, About::TracksRetry(acts), "CEL-R13")? {
        state.fm(who).tracks_acts = next;
        table.emit(|| Event::Acted {
            who,
            act: "loses the trail",
            on: None,
            detail: format!("trying again takes {next} consecutive acts (the GM's ruling)"),
            rule: "CEL-R13",
        });
    }
    Ok(())
}
