//! A live session of any ruleset: the encounter, the answers given so far and who fray plays;
//! answer, undo, redo, save and resume. Each step replays the answer log (see
//! `fray_core::session`) from the last checkpoint — the state at the end of a round — that the
//! log's unchanged answers still lead to, so what is shown is always exactly what the log means.
//!
//! A saved session is one JSON Lines file: a header (format, engine version, ruleset, the
//! encounter's path and whole text, a hash of the encounter and the built-in content, the seed,
//! who fray plays), then one line per answer. Saving is atomic (a temporary file, fsync,
//! rename), and a session with an autosave path saves after every change.

use crate::{hash_of, AnyEncounter, Library, LoadError};
use fray_core::event::{Event, VecSink};
use fray_core::intervention::Intervention;
use fray_core::protocol::Answer;
use fray_core::ruleset::RulesetBundle;
use fray_core::session::{
    fray_rolls, intervention_fingerprint, position_seed, Asked, By, Logged, Request, Resume, Stop,
};
use fray_core::{CombatantId, Roster};
use serde::{Deserialize, Serialize};
use std::io::Write as _;
use std::path::{Path, PathBuf};

mod here;
mod reinforce;
pub use here::{ExactHere, HereError};
pub use reinforce::{entry_from_words, split_fields};

/// The saved-session format's version.
pub const SESSION_FORMAT: u32 = 1;

/// Most answers a saved session may hold (a fight's own limit is far lower in practice).
pub const MAX_SAVED_ANSWERS: usize = 1_000_000;

/// Largest saved session read, in bytes.
pub const MAX_SESSION_BYTES: u64 = 64 << 20;

/// Why a session could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The encounter could not be loaded.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// There is no request waiting (the fight is over).
    #[error("the fight is over: nothing is asked")]
    NothingAsked,
    /// The answer does not fit the request.
    #[error("{0}")]
    Refused(String),
    /// Nothing to undo or redo.
    #[error("{0}")]
    Nothing(&'static str),
    /// A saved log does not fit the encounter or the rules.
    #[error("{path}: {message}")]
    Mismatch {
        /// The saved file.
        path: String,
        /// What does not fit.
        message: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// Who fray plays: the rest are asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plays {
    /// Per combatant, in roster order: true when fray plays it.
    pub combatants: Vec<bool>,
    /// True when fray rolls the world's dice and makes the GM's rulings by its defaults.
    pub gm: bool,
}

impl Plays {
    /// Whether fray answers a request of `asked`.
    pub fn fray_answers(&self, asked: Asked) -> bool {
        match asked {
            Asked::Combatant(id) => self.combatants.get(id.index()).copied().unwrap_or(true),
            Asked::Gm => self.gm,
        }
    }
}

/// The header line of a saved session.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Header {
    fray_session: u32,
    engine: String,
    ruleset: String,
    path: String,
    encounter: String,
    content: String,
    seed: u64,
    plays: Plays,
}

/// A live fight.
#[derive(Debug, Clone)]
pub struct Session {
    encounter: AnyEncounter,
    path: String,
    text: String,
    content: String,
    seed: u64,
    log: Vec<Logged>,
    redo: Vec<Logged>,
    plays: Plays,
    events: Vec<(u32, Event)>,
    stop: Stop,
    state_hash: u64,
    standings: Vec<fray_core::Tally>,
    conditions: Vec<Vec<String>>,
    squares: Vec<fray_core::Pos>,
    map_features: Vec<String>,
    terrain: fray_core::ruleset::MapTerrain,
    last_point: Option<usize>,
    point_visit: u32,
    autosave: Option<PathBuf>,
    checkpoints: Vec<Checkpoint>,
}

/// Most checkpoints a session keeps: past it, every other old one is dropped, so a long fight
/// keeps them spread over its rounds.
pub const MAX_CHECKPOINTS: usize = 64;

/// The fight at the end of a round, where a replay can start: the log's first `position`
/// answers lead to `state` (the ruleset's state, behind `Any` since a session holds any
/// ruleset). Valid while those answers and the encounter stay as they were.
#[derive(Debug, Clone)]
struct Checkpoint {
    at: Resume,
    state: std::sync::Arc<dyn std::any::Any + Send + Sync>,
}

/// A hash of the encounter text and the ruleset's built-in content: a saved log is replayed only
/// against the same setup.
fn content_hash(encounter: &AnyEncounter, text: &str) -> String {
    let files: &[(&str, &str)] =
        each_ruleset!(encounter, _e, R => <R as RulesetBundle>::CONTENT_FILES);
    format!("{:016x}", hash_of(&(text, files)))
}

impl Session {
    /// A new session of the encounter read from `path` with `text`; fray's dice come from
    /// `seed`. By default fray plays every combatant controlled by the GM unless none has a
    /// player, in which case every combatant is asked; fray rolls the world's dice.
    pub fn new(
        path: &str,
        text: &str,
        library: &Library,
        seed: u64,
    ) -> Result<Session, SessionError> {
        let encounter = AnyEncounter::from_text(path, text, library)?;
        let roster = encounter.roster();
        let any_player = roster.combatants.iter().any(|c| !c.controller.is_gm());
        let plays = Plays {
            combatants: roster
                .combatants
                .iter()
                .map(|c| any_player && c.controller.is_gm())
                .collect(),
            gm: true,
        };
        let content = content_hash(&encounter, text);
        let mut session = Session {
            encounter,
            path: path.to_string(),
            text: text.to_string(),
            content,
            seed,
            log: Vec::new(),
            redo: Vec::new(),
            plays,
            events: Vec::new(),
            stop: Stop::Ended(fray_core::FightEnd {
                winner: None,
                rounds: 0,
                reason: fray_core::ruleset::EndReason::Defeated,
                limit: None,
            }),
            state_hash: 0,
            standings: Vec::new(),
            conditions: Vec::new(),
            squares: Vec::new(),
            map_features: Vec::new(),
            terrain: Default::default(),
            last_point: None,
            point_visit: 0,
            autosave: None,
            checkpoints: Vec::new(),
        };
        session.refresh();
        Ok(session)
    }

    /// Saves after every change to `path` (and now).
    pub fn autosave_to(&mut self, path: PathBuf) -> Result<(), SessionError> {
        self.save(&path)?;
        self.autosave = Some(path);
        Ok(())
    }

    /// The roster.
    pub fn roster(&self) -> &Roster {
        self.encounter.roster()
    }

    /// The encounter.
    pub fn encounter(&self) -> &AnyEncounter {
        &self.encounter
    }

    /// The encounter file's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The seed of fray's dice.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Every event so far, with rounds.
    pub fn events(&self) -> &[(u32, Event)] {
        &self.events
    }

    /// Where the fight stands: a request waiting, or the end.
    pub fn stop(&self) -> &Stop {
        &self.stop
    }

    /// The request waiting for a person, if any.
    pub fn pending(&self) -> Option<&Request> {
        match &self.stop {
            Stop::Asks(r) => Some(r),
            _ => None,
        }
    }

    /// The answers so far.
    pub fn log(&self) -> &[Logged] {
        &self.log
    }

    /// A hash of the current state (the same log gives the same hash).
    pub fn state_hash(&self) -> u64 {
        self.state_hash
    }

    /// Each combatant's standing now (hit points, down, dead), in roster order.
    pub fn standings(&self) -> &[fray_core::Tally] {
        &self.standings
    }

    /// Each combatant's conditions now, in words, in roster order.
    pub fn conditions(&self) -> &[Vec<String>] {
        &self.conditions
    }

    /// Each combatant's square now (the first, for a piece on several), in roster order.
    pub fn squares(&self) -> &[fray_core::Pos] {
        &self.squares
    }

    /// The map's features now, in words (hazardous squares…), for the GM: shown where the
    /// squares are.
    pub fn map_features(&self) -> &[String] {
        &self.map_features
    }

    /// The map's terrain now (obstacles and difficult terrain), for everyone.
    pub fn terrain(&self) -> &fray_core::ruleset::MapTerrain {
        &self.terrain
    }

    /// How many checkpoints (ends of rounds) the session keeps to replay from.
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// The round now (0 before the first).
    pub fn round(&self) -> u32 {
        self.events.last().map_or(0, |(r, _)| *r)
    }

    /// Who fray plays.
    pub fn plays(&self) -> &Plays {
        &self.plays
    }

    /// Whom `who` names for `auto`/`manual` (as `fray run` reads it): a combatant id,
    /// `orc-*` (a prefix), `side:ID`, `gm` (the GM's dice and rulings) or `all`; returns the
    /// combatants and whether the GM's dice and rulings are included.
    pub fn select(&self, who: &str) -> Result<(Vec<CombatantId>, Option<bool>), String> {
        let roster = self.roster();
        if who == "gm" {
            return Ok((Vec::new(), Some(true)));
        }
        if who == "all" {
            return Ok((roster.ids().collect(), Some(true)));
        }
        let ids: Vec<CombatantId> = if let Some(side) = who.strip_prefix("side:") {
            let side = roster
                .find_side(side)
                .ok_or_else(|| format!("no side `{side}`"))?;
            roster
                .ids()
                .filter(|&id| roster.side_of(id) == side)
                .collect()
        } else if let Some(prefix) = who.strip_suffix('*') {
            roster
                .ids()
                .filter(|&id| roster.key(id).starts_with(prefix))
                .collect()
        } else {
            roster.find(who).into_iter().collect()
        };
        if ids.is_empty() {
            return Err(format!(
                "`{who}` names nobody; give a combatant id, `orc-*`, `side:ID`, `gm` or `all`"
            ));
        }
        Ok((ids, None))
    }

    /// Sets whether fray plays each combatant `which` selects (and the GM's dice and rulings
    /// when `gm`); returns how many combatants it changed. It applies from the pause on — or
    /// from the start, while no person has answered anything.
    pub fn set_plays(
        &mut self,
        which: impl Fn(CombatantId) -> bool,
        gm: Option<bool>,
        fray: bool,
    ) -> usize {
        let mut n = 0;
        for id in self.roster().ids().collect::<Vec<_>>() {
            if which(id) {
                self.plays.combatants[id.index()] = fray;
                n += 1;
            }
        }
        if let Some(gm) = gm {
            self.plays.gm = gm;
        }
        // Before anyone has answered, who plays whom applies from the start: fray's answers
        // so far (given only because it played) are taken back.
        if !self.log.iter().any(|l| l.by == By::Person) {
            self.log.clear();
            self.checkpoints.clear();
        }
        self.refresh();
        n
    }

    /// Forgets the checkpoints the log's answers from `position` on led to (they are about to
    /// change).
    fn changing_from(&mut self, position: usize) {
        self.checkpoints.retain(|c| c.at.position <= position);
    }

    /// Replays the log — from the last checkpoint it still leads to — and goes on to the next
    /// request a person must answer, keeping a checkpoint at the end of each round.
    fn refresh(&mut self) {
        let plays = self.plays.clone();
        let fray_plays = move |asked: Asked| plays.fray_answers(asked);
        let standings = &mut self.standings;
        let conditions = &mut self.conditions;
        let squares = &mut self.squares;
        let map_features = &mut self.map_features;
        let terrain = &mut self.terrain;
        let log_len = self.log.len();
        self.checkpoints.retain(|c| c.at.position <= log_len);
        let from = self.checkpoints.last().cloned();
        // The events up to the checkpoint are those of its rounds (a round's events all carry
        // its number, and the next round's start comes after the checkpoint).
        let kept = from.as_ref().map_or(0, |c| {
            self.events
                .partition_point(|(round, _)| *round <= c.at.round)
        });
        let mut sink = VecSink {
            events: self.events[..kept].to_vec(),
        };
        let mut taken: Vec<Checkpoint> = Vec::new();
        let (stop, hash) = each_ruleset!(&self.encounter, e, R => {
            let start = from.as_ref().and_then(|c| c.state.downcast_ref::<<R as fray_core::Ruleset>::State>());
            let resume = from.as_ref().filter(|_| start.is_some()).map(|c| c.at);
            let mut state = start.unwrap_or(&e.state).clone();
            if resume.is_none() {
                sink.events.clear();
            }
            let mut round_over = |at: Resume, state: &<R as fray_core::Ruleset>::State| {
                taken.push(Checkpoint { at, state: std::sync::Arc::new(state.clone()) });
            };
            let advanced = fray_core::session::advance_from::<R>(&mut state, resume, &e.limits, self.seed, &mut self.log, &fray_plays, &mut sink, &mut round_over);
            <R as fray_core::Ruleset>::tallies(&state, standings);
            *conditions = e.state.roster.ids().map(|id| <R as fray_core::Ruleset>::conditions(&state, id)).collect();
            *squares = e.state.roster.ids().map(|id| fray_core::Board::square_of(&state, id)).collect();
            *map_features = <R as fray_core::Ruleset>::map_features(&state);
            *terrain = <R as fray_core::Ruleset>::terrain(&state);
            (advanced, hash_of(&state))
        });
        self.checkpoints.extend(taken);
        while self.checkpoints.len() > MAX_CHECKPOINTS {
            // Thin the older half: keep every other one, and the newest ones all.
            let mut index = 0;
            self.checkpoints.retain(|_| {
                index += 1;
                index % 2 == 0 || index > MAX_CHECKPOINTS / 2
            });
        }
        self.stop = stop.stop;
        self.last_point = stop.last_point;
        self.point_visit = stop.point_visit;
        self.state_hash = hash;
        self.events = sink.events;
        self.autosave_quietly();
    }

    fn autosave_quietly(&mut self) {
        if let Some(path) = self.autosave.clone() {
            // An autosave that fails is reported by the next explicit save; the session goes on.
            let _ = self.save(&path);
        }
    }

    /// Answers the waiting request. A refused answer (an impossible die, an illegal choice)
    /// leaves the session as it was and says why, naming the rule.
    pub fn answer(&mut self, answer: Answer) -> Result<(), SessionError> {
        self.answer_as(answer, By::Person)?;
        self.redo.clear();
        Ok(())
    }

    fn answer_as(&mut self, answer: Answer, by: By) -> Result<(), SessionError> {
        let request = self.pending().ok_or(SessionError::NothingAsked)?.clone();
        let position = self.log.len();
        let asked = Some(fray_core::session::asked_key(
            self.roster(),
            request.asked(),
        ));
        self.log.push(Logged {
            answer,
            by,
            fingerprint: request.fingerprint(),
            asked,
        });
        self.refresh();
        if let Stop::Broken {
            position: at,
            interrupt,
        } = &self.stop
        {
            if *at >= position {
                let message = crate::explain(interrupt, self.roster());
                self.log.truncate(position);
                self.changing_from(position);
                self.refresh();
                return Err(SessionError::Refused(message));
            }
        }
        Ok(())
    }

    /// Applies a GM intervention at the last intervention point the fight reached (a round's
    /// start, or between actions where the ruleset has points): the answers fray gave since
    /// are redone after it. Refused when a person has answered since that point (the action
    /// under way must be finished first), or when the rules refuse it; either way nothing changes.
    pub fn intervene(&mut self, intervention: Intervention) -> Result<(), SessionError> {
        self.intervene_here(intervention)?;
        self.redo.clear();
        Ok(())
    }

    fn intervene_here(&mut self, intervention: Intervention) -> Result<(), SessionError> {
        if self.pending().is_none() {
            return Err(SessionError::NothingAsked);
        }
        let Some(point) = self.last_point else {
            return Err(SessionError::Refused(
                "no intervention point yet: interventions are taken at a round's start and \
                 between actions"
                    .to_string(),
            ));
        };
        if self.log[point..].iter().any(|l| l.by == By::Person) {
            return Err(SessionError::Refused(
                "an action is under way: interventions are taken at a round's start and between \
                 actions; answer this request first (or `undo`)"
                    .to_string(),
            ));
        }
        let kept = self.log.clone();
        self.log.truncate(point);
        self.changing_from(point);
        self.log.push(Logged {
            answer: Answer::Intervene(intervention),
            by: By::Person,
            fingerprint: intervention_fingerprint(self.point_visit),
            asked: None,
        });
        self.refresh();
        if let Stop::Broken {
            position: at,
            interrupt,
        } = &self.stop
        {
            if *at >= point {
                let message = crate::explain(interrupt, self.roster());
                self.log = kept;
                self.changing_from(point);
                self.refresh();
                return Err(SessionError::Refused(message));
            }
        }
        Ok(())
    }

    /// Replaces the result of the last roll made (by fray or a person) with `answer`; fray's
    /// answers after it are redone. Refused when a person has answered since, or when the
    /// result does not fit the roll; either way nothing changes.
    pub fn override_roll(&mut self, answer: Answer) -> Result<(), SessionError> {
        let Some(at) = self
            .log
            .iter()
            .rposition(|l| matches!(l.answer, Answer::Roll(_) | Answer::Dice(_)))
        else {
            return Err(SessionError::Refused("no roll was made yet".to_string()));
        };
        if self.log[at + 1..].iter().any(|l| l.by == By::Person) {
            return Err(SessionError::Refused(
                "answers were given since the last roll: `undo` back to it instead".to_string(),
            ));
        }
        let kept = self.log.clone();
        self.log.truncate(at + 1);
        self.changing_from(at);
        self.log[at].answer = answer;
        self.log[at].by = By::Person;
        self.refresh();
        if let Stop::Broken {
            position,
            interrupt,
        } = &self.stop
        {
            if *position >= at {
                let message = crate::explain(interrupt, self.roster());
                self.log = kept;
                self.changing_from(at);
                self.refresh();
                return Err(SessionError::Refused(message));
            }
        }
        self.redo.clear();
        Ok(())
    }

    /// Lets fray roll the waiting roll (as if the person had rolled it: undo takes it back).
    pub fn roll_for_me(&mut self) -> Result<Answer, SessionError> {
        let Some(Request::Roll(request)) = self.pending().cloned() else {
            return Err(SessionError::Refused(
                "no roll is asked: answer the choice".to_string(),
            ));
        };
        let answer = fray_rolls(&request, position_seed(self.seed, self.log.len()));
        self.answer(answer.clone())?;
        Ok(answer)
    }

    /// Goes back to before the last answer a person gave (fray's answers after it are redone).
    pub fn undo(&mut self) -> Result<(), SessionError> {
        let Some(last) = self.log.iter().rposition(|l| l.by == By::Person) else {
            return Err(SessionError::Nothing(
                "nothing to undo: no answer was given yet",
            ));
        };
        let undone = self.log[last].clone();
        self.log.truncate(last);
        self.changing_from(last);
        self.redo.push(undone);
        self.refresh();
        Ok(())
    }

    /// Gives again the last answer undone.
    pub fn redo(&mut self) -> Result<(), SessionError> {
        let Some(answer) = self.redo.pop() else {
            return Err(SessionError::Nothing("nothing to redo"));
        };
        let kept = std::mem::take(&mut self.redo);
        let result = match &answer.answer {
            Answer::Intervene(intervention) => self.intervene_here(intervention.clone()),
            other => self.answer_as(other.clone(), By::Person),
        };
        self.redo = kept;
        if result.is_err() {
            self.redo.push(answer);
        }
        result
    }

    /// Writes the session to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), SessionError> {
        let io = |e: std::io::Error| SessionError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let header = Header {
            fray_session: SESSION_FORMAT,
            engine: env!("CARGO_PKG_VERSION").to_string(),
            ruleset: self.encounter.ruleset().key().to_string(),
            path: self.path.clone(),
            encounter: self.text.clone(),
            content: self.content.clone(),
            seed: self.seed,
            plays: self.plays.clone(),
        };
        let mut out = String::new();
        out.push_str(&serde_json::to_string(&header).unwrap_or_default());
        out.push('\n');
        for logged in &self.log {
            out.push_str(&serde_json::to_string(logged).unwrap_or_default());
            out.push('\n');
        }
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .map_or_else(|| "session".into(), |n| n.to_string_lossy().to_string());
        let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let mut file = std::fs::File::create(&temp).map_err(io)?;
        file.write_all(out.as_bytes()).map_err(io)?;
        file.sync_all().map_err(io)?;
        drop(file);
        std::fs::rename(&temp, path).map_err(io)?;
        Ok(())
    }

    /// Reads a saved session and replays it. A log that does not fit (another encounter text,
    /// other content, changed rules) is refused, saying at which answer.
    pub fn resume(path: &Path, library: &Library) -> Result<Session, SessionError> {
        let shown = path.display().to_string();
        let mismatch = |message: String| SessionError::Mismatch {
            path: shown.clone(),
            message,
        };
        let text = crate::input::read_file_limited(&shown, MAX_SESSION_BYTES).map_err(|e| {
            SessionError::Io {
                path: shown.clone(),
                message: e.to_string(),
            }
        })?;
        let mut lines = text.lines().enumerate();
        let header: Header = lines
            .next()
            .ok_or_else(|| mismatch("empty: not a saved fray session".to_string()))
            .and_then(|(_, l)| {
                serde_json::from_str(l)
                    .map_err(|e| mismatch(format!("line 1: not a saved fray session header ({e})")))
            })?;
        if header.fray_session != SESSION_FORMAT {
            return Err(mismatch(format!(
                "session format {} (this fray reads format {SESSION_FORMAT})",
                header.fray_session
            )));
        }
        let mut session = Session::new(&header.path, &header.encounter, library, header.seed)?;
        if session.content != header.content {
            return Err(mismatch(format!(
                "the content changed since the session was saved (saved with fray {}, content \
                 {}; now {}): its answers would replay into a different fight",
                header.engine, header.content, session.content
            )));
        }
        if header.plays.combatants.len() != session.plays.combatants.len() {
            return Err(mismatch(
                "the roster does not match the saved session".to_string(),
            ));
        }
        let mut log = Vec::new();
        for (i, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            if log.len() >= MAX_SAVED_ANSWERS {
                return Err(mismatch(format!("more than {MAX_SAVED_ANSWERS} answers")));
            }
            let logged: Logged = serde_json::from_str(line)
                .map_err(|e| mismatch(format!("line {}: not an answer ({e})", i + 1)))?;
            log.push(logged);
        }
        let saved = log.len();
        session.plays = header.plays;
        session.log = log;
        session.checkpoints.clear();
        session.refresh();
        if let Stop::Broken {
            position,
            interrupt,
        } = &session.stop
        {
            return Err(mismatch(format!(
                "answer {} of {saved} (line {}) does not fit the fight: {}",
                position + 1,
                position + 2,
                crate::explain(interrupt, session.roster())
            )));
        }
        Ok(session)
    }

    /// Describes the waiting request in words: who, what, which rule, the options.
    pub fn describe_pending(&self) -> Option<String> {
        let roster = self.roster();
        let request = self.pending()?;
        let who = |asked: Asked| match asked {
            Asked::Combatant(id) => roster.name(id).to_string(),
            Asked::Gm => "GM".to_string(),
        };
        Some(match request {
            Request::Roll(r) => format!(
                "{}: roll {} for {} ({})",
                who(request.asked()),
                r.dice_text(),
                serde_json::to_value(r.purpose)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                r.rule
            ),
            Request::Choice {
                question,
                rule,
                options,
                ..
            } => {
                let q = serde_json::to_value(question)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                format!(
                    "{}: {} ({rule}) — {}",
                    who(request.asked()),
                    q,
                    options.join(" | ")
                )
            }
        })
    }
}
