//! `fray run FILE [--seed N] [--view gm|side:ID] [--autosave PATH]` and `fray run --resume
//! SESSION`: the live tracker. Shows every ruling as it happens, asks a person for the dice and
//! choices of the combatants fray does not play, and takes back, saves and resumes; gives the
//! odds of an attack and who wins from the current state on request. Reads lines
//! with rustyline at a terminal (history, tab-completion) and plain lines from a pipe.

use super::{output, CliError};
use fray_core::answer::{parse_roll_answer, AnswerError};
use fray_core::audience::{view_text, Viewer};
use fray_core::intervention::Intervention;
use fray_core::protocol::Answer;
use fray_core::session::{Asked, By, Request, Stop};
use fray_engine::session::{HereError, Session, SessionError};
use fray_engine::Library;
use std::io::{BufRead, IsTerminal, Read as _, Write};
use std::path::PathBuf;

/// Arguments of `fray run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The encounter file (TOML); not needed with `--resume`.
    #[arg(required_unless_present = "resume")]
    pub file: Option<String>,
    /// Seed of the dice fray rolls (the same seed and the same typed answers give the same fight).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Continue a saved session (a `.jsonl` file written by `save` or the autosave).
    #[arg(long, conflicts_with = "file")]
    pub resume: Option<PathBuf>,
    /// Whose view to show: `gm` (everything, the default) or `side:ID` (a side's players' view).
    #[arg(long, default_value = "gm")]
    pub view: String,
    /// Where to save after every answer (default: `<encounter>.session.jsonl` in the current
    /// directory; with `--resume`, the resumed file).
    #[arg(long)]
    pub autosave: Option<PathBuf>,
    /// Do not autosave.
    #[arg(long, conflicts_with = "autosave")]
    pub no_autosave: bool,
}

/// The commands, for `help` and completion.
const COMMANDS: &[(&str, &str)] = &[
    (
        "14 | d20 14 | 3 5 6",
        "answer the roll asked: its total, or each die",
    ),
    ("r", "let fray roll the dice asked"),
    (
        "CHOICE",
        "answer the choice asked, as scripts write it (`attack orc-1`, `yes`)",
    ),
    ("options", "list every option of the choice asked"),
    (
        "auto WHO",
        "fray plays WHO: a combatant, `orc-*`, `side:ID`, `gm` (world dice, rulings) or `all`",
    ),
    ("manual WHO", "a person answers for WHO"),
    ("hp WHO ±N", "GM: hit points up or down (`hp orc-2 -3`)"),
    (
        "cond WHO NAME [R]",
        "GM: a condition for R rounds or until removed; `cond WHO -NAME` ends it",
    ),
    ("move WHO X Y", "GM: puts a combatant on a square"),
    (
        "remove WHO [HOW]",
        "GM: WHO leaves the fight: fled (default), surrendered or captured",
    ),
    (
        "add WHO [X Y]",
        "GM: a combatant held in reserve comes in (on its square, or on X Y)",
    ),
    (
        "add ID KEY=VALUE…",
        "GM: a new combatant, as an encounter entry (`add orc-9 monster=orc side=orcs at=[5,5]`)",
    ),
    ("rule TEXT", "GM: a ruling in your words, kept in the log"),
    (
        "override N",
        "GM: the last roll's result was N (or each die: `override 3 17`)",
    ),
    (
        "undo",
        "take back the last answer a person gave (an intervention too)",
    ),
    ("redo", "give again the answer last taken back"),
    (
        "status",
        "the round, each combatant's hit points, who fray plays",
    ),
    ("log", "the whole fight so far"),
    (
        "odds [ATTACKER] TARGET",
        "exact odds of one attack from here (`--weapon W`, `--situation S` as in `fray odds`)",
    ),
    (
        "exact [--max-work N]",
        "who wins from here, exactly (the `fray odds --fight` programme), from a round's end or a settled point, within N units of work (1 to 5000000, the default)",
    ),
    (
        "sim [N] [--seed S]",
        "who wins from here: the rest of the fight played N times (1000), fray playing everyone",
    ),
    (
        "save FILE",
        "save the session (resume with `fray run --resume FILE`)",
    ),
    ("help", "this list"),
    ("quit", "stop (the session is autosaved)"),
];

/// Most option lines shown with a request (`options` lists them all).
const OPTIONS_SHOWN: usize = 12;

/// Longest input line accepted.
const MAX_LINE: usize = 4096;

/// Reads lines: rustyline at a terminal, plain lines from a pipe (echoed, so a transcript reads
/// as a conversation).
enum Lines {
    Terminal(Box<rustyline::Editor<Completer, rustyline::history::DefaultHistory>>),
    Piped(std::io::StdinLock<'static>),
}

/// Tab-completion of commands, combatant ids and the options asked.
#[derive(rustyline::Helper, rustyline::Hinter, rustyline::Highlighter, rustyline::Validator)]
struct Completer {
    words: Vec<String>,
}

impl rustyline::completion::Completer for Completer {
    type Candidate = String;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos].rfind(' ').map_or(0, |i| i + 1);
        let word = &line[start..pos];
        let found = self
            .words
            .iter()
            .filter(|w| w.starts_with(word))
            .cloned()
            .collect();
        Ok((start, found))
    }
}

impl Lines {
    fn open() -> Lines {
        if std::io::stdin().is_terminal() {
            if let Ok(editor) = rustyline::Editor::new() {
                let mut editor: rustyline::Editor<Completer, _> = editor;
                editor.set_helper(Some(Completer { words: Vec::new() }));
                return Lines::Terminal(Box::new(editor));
            }
        }
        Lines::Piped(std::io::stdin().lock())
    }

    fn set_words(&mut self, words: Vec<String>) {
        if let Lines::Terminal(editor) = self {
            if let Some(helper) = editor.helper_mut() {
                helper.words = words;
            }
        }
    }

    /// The next line, `None` at the end of input.
    fn read(&mut self, prompt: &str) -> Result<Option<String>, CliError> {
        match self {
            Lines::Terminal(editor) => match editor.readline(prompt) {
                Ok(line) => {
                    let _ = editor.add_history_entry(line.as_str());
                    Ok(Some(line))
                }
                Err(rustyline::error::ReadlineError::Interrupted) => Ok(Some("quit".into())),
                Err(rustyline::error::ReadlineError::Eof) => Ok(None),
                Err(e) => Err(CliError::Internal(format!("reading the terminal: {e}"))),
            },
            Lines::Piped(stdin) => {
                // The prompt first (a program driving fray through pipes waits for it), then the
                // line read, echoed, so a transcript reads as a conversation.
                output::print(prompt)?;
                let mut line = String::new();
                let n = stdin
                    .by_ref()
                    .take(MAX_LINE as u64 + 1)
                    .read_line(&mut line)
                    .map_err(|e| CliError::Input(format!("reading standard input: {e}")))?;
                if n == 0 {
                    output::print("\n")?;
                    return Ok(None);
                }
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                output::print(&format!("{}\n", printable(&line)))?;
                Ok(Some(line))
            }
        }
    }
}

/// The line with control characters (escapes that would colour or move a terminal) shown as
/// `\u{…}` escapes.
fn printable(line: &str) -> String {
    line.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The tracker's state beyond the session: what was already shown, whose view.
struct Tracker {
    session: Session,
    library: Library,
    viewer: Viewer,
    shown: usize,
    shown_round: Option<u32>,
}

impl Tracker {
    /// Prints the events not shown yet.
    fn show_new_events(&mut self) -> Result<(), CliError> {
        let mut out = String::new();
        let events = self.session.events();
        let roster = self.session.roster();
        for (round, event) in events.iter().skip(self.shown) {
            let Some(line) = shown_line(self.viewer, event, roster) else {
                continue;
            };
            if self.shown_round != Some(*round) {
                if *round == 0 {
                    out.push_str("— Before the fight —\n");
                } else {
                    out.push_str(&format!("— Round {round} —\n"));
                }
                self.shown_round = Some(*round);
            }
            out.push_str(&format!("  {line}\n"));
        }
        self.shown = events.len();
        output::print(&out)
    }

    /// What is asked now, in words, or the end.
    fn show_request(&self) -> Result<(), CliError> {
        let s = &self.session;
        let text = match s.stop() {
            Stop::Asks(request) => {
                let mut text = format!("? {}\n", describe(s, request, OPTIONS_SHOWN));
                if let Request::Roll(r) = request {
                    if r.needs_dice() {
                        text.push_str(&format!(
                            "  type each of the {} dice, or `r` to let fray roll\n",
                            r.count
                        ));
                    } else {
                        text.push_str(&format!(
                            "  type the total ({}–{}), each die, or `r` to let fray roll\n",
                            r.min_total(),
                            r.max_total()
                        ));
                    }
                }
                text
            }
            Stop::Ended(_) => "The fight is over. (`undo` takes back the last answer, `save FILE` \
                               keeps it, `quit` ends.)\n"
                .to_string(),
            Stop::Broken {
                position,
                interrupt,
            } => format!(
                "! the answer log does not fit at answer {}: {}\n",
                position + 1,
                fray_engine::explain(interrupt, s.roster())
            ),
        };
        output::print(&text)
    }

    /// Words for completion: commands, combatant ids, the options asked.
    fn words(&self) -> Vec<String> {
        let mut words: Vec<String> = [
            "auto", "manual", "undo", "redo", "status", "log", "save", "help", "quit", "options",
            "all", "gm", "hp", "cond", "move", "remove", "add", "rule", "override", "odds",
            "exact", "sim",
        ]
        .iter()
        .map(|w| w.to_string())
        .collect();
        let roster = self.session.roster();
        words.extend(roster.combatants.iter().map(|c| c.key.clone()));
        words.extend(roster.sides.iter().map(|s| format!("side:{}", s.key)));
        if let Some(Request::Choice { options, .. }) = self.session.pending() {
            words.extend(options.iter().cloned());
        }
        words
    }
}

fn shown_line(
    viewer: Viewer,
    event: &fray_core::Event,
    roster: &fray_core::Roster,
) -> Option<String> {
    if matches!(
        event,
        fray_core::Event::RoundStarted
            | fray_core::Event::SegmentsOver
            | fray_core::Event::TurnStarted { .. }
            | fray_core::Event::TurnEnded { .. }
    ) {
        return None;
    }
    view_text(viewer, event, roster)
}

fn asked_name(s: &Session, asked: Asked) -> String {
    match asked {
        Asked::Combatant(id) => s.roster().name(id).to_string(),
        Asked::Gm => "GM".to_string(),
    }
}

/// "Una: action (CNC-R4) — attack orc-1 | dodge | …".
fn describe(s: &Session, request: &Request, limit: usize) -> String {
    let who = asked_name(s, request.asked());
    match request {
        Request::Roll(r) => format!(
            "{who}: roll {} for {} ({})",
            r.dice_text(),
            word(&r.purpose),
            r.rule
        ),
        Request::Choice {
            question,
            rule,
            options,
            ..
        } => {
            let mut list: Vec<&str> = options.iter().take(limit).map(String::as_str).collect();
            let more = options.len().saturating_sub(limit);
            let more = if more > 0 {
                format!(" | …{more} more (`options`)")
            } else {
                String::new()
            };
            if list.is_empty() {
                list.push("(any)");
            }
            format!(
                "{who}: {} ({rule}) — {}{more}",
                word(question),
                list.join(" | ")
            )
        }
    }
}

/// A serialised name in words (`choose_side` → `choose side`).
pub(super) fn word<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
        .unwrap_or_default()
}

/// The round, the order, and each combatant's standing as `viewer` may see it: a side's
/// players see their own side's hit points and conditions, not their foes' (hit points shown
/// as `?`), as `fray serve`'s view; the map's features (hazards) go to the GM, who alone is
/// shown the squares.
fn status(s: &Session, viewer: Viewer) -> String {
    let roster = s.roster();
    let mut out = format!("round {}; answers given: {}\n", s.round(), s.log().len());
    if let Some(order) = s.events().iter().rev().find_map(|(_, e)| match e {
        fray_core::Event::Order { .. } => Some(e.describe(roster)),
        _ => None,
    }) {
        out.push_str(&format!("  {order}\n"));
    }
    for ((id, tally), conditions) in roster.ids().zip(s.standings()).zip(s.conditions()) {
        let state = if tally.is_up() {
            String::new()
        } else {
            format!(" {}", tally.standing.key())
        };
        let plays = if s.plays().fray_answers(Asked::Combatant(id)) {
            "fray"
        } else {
            "asked"
        };
        let known = match viewer {
            Viewer::Gm => true,
            Viewer::Side(side) => roster.side_of(id) == side,
        };
        let conditions = if conditions.is_empty() || !known {
            String::new()
        } else {
            format!("  [{}]", conditions.join(", "))
        };
        let hp = if known {
            format!("{:>4}/{:<4}", tally.hp, tally.max_hp)
        } else {
            format!("{:>4}/{:<4}", "?", "?")
        };
        out.push_str(&format!(
            "  {:<12} {:<10} {hp} hp{state}  ({plays}){conditions}\n",
            roster.key(id),
            roster.side_key(roster.side_of(id)),
        ));
    }
    // The terrain is in plain sight: every viewer's.
    let terrain = s.terrain();
    for (kind, squares) in [
        ("obstacles", &terrain.obstacles),
        ("difficult terrain", &terrain.difficult),
    ] {
        if !squares.is_empty() {
            out.push_str(&format!("  map: {kind} at {}\n", squares_words(squares)));
        }
    }
    if viewer == Viewer::Gm {
        for feature in s.map_features() {
            out.push_str(&format!("  map: {feature}\n"));
        }
    }
    out.push_str(&format!(
        "  GM dice and rulings: {}\n",
        if s.plays().gm { "fray" } else { "asked" }
    ));
    out
}

/// At most this many squares of one kind of terrain are listed in the status.
const STATUS_SQUARES: usize = 40;

/// Squares as `3 1, 3 2, …`, the first [`STATUS_SQUARES`] and how many more.
fn squares_words(squares: &[fray_core::Pos]) -> String {
    let mut words: Vec<String> = squares
        .iter()
        .take(STATUS_SQUARES)
        .map(|p| format!("{} {}", p.x, p.y))
        .collect();
    if squares.len() > STATUS_SQUARES {
        words.push(format!("and {} more", squares.len() - STATUS_SQUARES));
    }
    words.join(", ")
}

fn session_error(e: SessionError) -> String {
    e.to_string()
}

/// Handles one line; returns false to stop.
fn handle(t: &mut Tracker, line: &str) -> Result<bool, CliError> {
    let line = line.trim();
    if line.len() > MAX_LINE {
        output::print(&format!("! a line is at most {MAX_LINE} characters\n"))?;
        return Ok(true);
    }
    if line.chars().any(char::is_control) {
        output::print("! control characters are not accepted; type plain text\n")?;
        return Ok(true);
    }
    let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    let reply: Result<String, String> = match command {
        "" => return Ok(true),
        "quit" | "exit" => return Ok(false),
        "help" => Ok(COMMANDS
            .iter()
            .map(|(c, what)| format!("  {c:<22} {what}\n"))
            .collect()),
        "status" => Ok(status(&t.session, t.viewer)),
        "log" => Ok(fray_engine::render::text_log_for(
            t.viewer,
            t.session.events(),
            t.session.roster(),
        )),
        "options" => match t.session.pending() {
            Some(request @ Request::Choice { .. }) => {
                Ok(format!("{}\n", describe(&t.session, request, usize::MAX)))
            }
            _ => Err("no choice is asked".to_string()),
        },
        "undo" => t
            .session
            .undo()
            .map(|()| "taken back\n".to_string())
            .map_err(session_error),
        "redo" => t
            .session
            .redo()
            .map(|()| String::new())
            .map_err(session_error),
        "save" if rest.is_empty() => Err("save FILE: where to save".to_string()),
        "save" => t
            .session
            .save(std::path::Path::new(rest))
            .map(|()| format!("saved to {rest} (resume with `fray run --resume {rest}`)\n"))
            .map_err(session_error),
        "auto" | "manual" if rest.is_empty() => Err(format!("{command} WHO: whom")),
        "auto" | "manual" => t.session.select(rest).map(|(ids, gm)| {
            let fray = command == "auto";
            let n = t
                .session
                .set_plays(|id| ids.contains(&id), gm.map(|_| fray), fray);
            format!(
                "{} {n} combatant(s){}\n",
                if fray {
                    "fray plays"
                } else {
                    "a person answers for"
                },
                if gm.is_some() {
                    " and the GM's dice and rulings"
                } else {
                    ""
                }
            )
        }),
        "add" if rest.contains('=') => {
            let fields = fray_engine::session::split_fields(rest);
            match fields.split_first() {
                Some((id, words)) => {
                    let words: Vec<&str> = words.iter().map(String::as_str).collect();
                    fray_engine::session::entry_from_words(id, &words)
                        .map_err(|e| format!("add ID KEY=VALUE…: {e}"))
                        .and_then(|entry| {
                            t.session
                                .reinforce(&entry, &t.library)
                                .map(|added| {
                                    intervention_echo(t, &format!("add {}", added.join(", ")))
                                })
                                .map_err(session_error)
                        })
                }
                None => Err("add ID KEY=VALUE…".to_string()),
            }
        }
        "hp" | "cond" | "move" | "remove" | "add" | "rule" => match Intervention::parse(line) {
            Some(Ok(intervention)) => {
                let text = intervention.to_string();
                t.session
                    .intervene(intervention)
                    .map(|()| intervention_echo(t, &text))
                    .map_err(session_error)
            }
            Some(Err(usage)) => Err(usage),
            None => Err(format!("`{line}` is not a command")),
        },
        "override" => {
            let last_roll = t
                .session
                .log()
                .iter()
                .rev()
                .find(|l| matches!(l.answer, Answer::Roll(_) | Answer::Dice(_)))
                .map(|l| l.answer.to_string());
            let numbers: Option<Vec<u32>> =
                rest.split_whitespace().map(|w| w.parse().ok()).collect();
            match (last_roll, numbers) {
                (None, _) => Err("no roll was made yet".to_string()),
                (_, None) => Err("override N (or each die: override 3 17)".to_string()),
                (_, Some(n)) if n.is_empty() => {
                    Err("override N (or each die: override 3 17)".to_string())
                }
                (Some(was), Some(n)) => {
                    let answer = if n.len() == 1 {
                        Answer::Roll(n[0])
                    } else {
                        Answer::Dice(n)
                    };
                    let now = answer.to_string();
                    t.session
                        .override_roll(answer)
                        .map(|()| format!("the last roll ({was}) is now {now}\n"))
                        .map_err(session_error)
                }
            }
        }
        "odds" => odds_from_here(t, rest),
        "exact" => exact_from_here(t, rest),
        "sim" => sim_from_here(t, rest),
        "r" | "roll" if rest.is_empty() => t
            .session
            .roll_for_me()
            .map(|answer| format!("fray rolls {answer}\n"))
            .map_err(session_error),
        _ => answer(t, line),
    };
    match reply {
        Ok(text) => {
            output::print(&text)?;
            // An undo shows nothing new: the events kept are the ones already shown.
            t.shown = t.shown.min(t.session.events().len());
            t.show_new_events()?;
            t.show_request()?;
        }
        Err(message) => output::print(&format!("! {message}\n"))?,
    }
    Ok(true)
}

/// What to say when the GM's intervention `text` was taken: nothing when its log line (the GM
/// ruling `GM intervention: …`) is among the events about to be shown in this view, else that
/// line, so the GM sees it once either way (a side's view hides GM rulings).
fn intervention_echo(t: &Tracker, text: &str) -> String {
    let roster = t.session.roster();
    let logged = t.session.events().iter().skip(t.shown).any(|(_, event)| {
        matches!(event, fray_core::Event::Ruling { rule, .. } if *rule == "GM")
            && shown_line(t.viewer, event, roster).is_some()
    });
    if logged {
        String::new()
    } else {
        format!("GM intervention: {text}\n")
    }
}

/// Runs of `sim` when no number is given.
const DEFAULT_SIM_RUNS: u64 = 1000;

/// `odds [ATTACKER] TARGET [--weapon W] [--situation S]…`: the exact odds of one attack from
/// the state at the pause, in the words of `fray odds`. Without an attacker, the combatant
/// asked attacks. Only the GM's view shows them (they read armour, hit points and modifiers).
fn odds_from_here(t: &Tracker, rest: &str) -> Result<String, String> {
    const USAGE: &str = "odds [ATTACKER] TARGET [--weapon W] [--situation S]…";
    if t.viewer != Viewer::Gm {
        return Err(
            "odds read GM-only facts (armour, hit points, modifiers): only the GM's view shows them"
                .to_string(),
        );
    }
    let mut ids = Vec::new();
    let mut weapon = None;
    let mut situations = Vec::new();
    let mut words = rest.split_whitespace().peekable();
    while let Some(word) = words.next() {
        if !word.starts_with("--") {
            ids.push(word);
            continue;
        }
        let mut value = Vec::new();
        while let Some(v) = words.next_if(|v| !v.starts_with("--")) {
            value.push(v);
        }
        let value = value.join(" ");
        match word {
            _ if value.is_empty() => return Err(format!("{word} needs a value; {USAGE}")),
            "--weapon" if weapon.is_none() => weapon = Some(value),
            "--weapon" => return Err("one --weapon at most".to_string()),
            "--situation" => situations.push(value),
            _ => return Err(format!("unknown flag `{word}`; {USAGE}")),
        }
    }
    let roster = t.session.roster();
    let (attacker, target) = match ids.as_slice() {
        [attacker, target] => (attacker.to_string(), target.to_string()),
        [target] => match t.session.pending().map(Request::asked) {
            Some(Asked::Combatant(id)) => (roster.key(id).to_string(), target.to_string()),
            _ => {
                return Err(format!(
                    "no combatant is asked, so name the attacker: {USAGE}"
                ))
            }
        },
        _ => return Err(USAGE.to_string()),
    };
    let situation = super::odds::situation(weapon, &situations);
    let report = t
        .session
        .odds(&attacker, &target, &situation)
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "From here: {}",
        super::odds::titled_text(t.session.encounter(), &report)
    ))
}

/// `exact`: who wins from here exactly — the `fray odds --fight` programme from the end of the
/// round the session stands at, or from a settled point inside a round its ruleset offers (GM
/// only: it reads hit points), within `--max-work N` units of work (1 to the default,
/// `fray_core::fight_odds::MAX_FIGHT_BRANCHES`, as `fray odds --fight --max-work`). Elsewhere
/// inside a round, or when the programme refuses, says why and points at `sim`.
fn exact_from_here(t: &Tracker, rest: &str) -> Result<String, String> {
    let work = max_work(rest)?;
    if t.viewer != Viewer::Gm {
        return Err(
            "exact odds read GM-only facts (hit points, armour): only the GM's view shows them"
                .to_string(),
        );
    }
    let here = t
        .session
        .exact_from_here(fray_core::distinct::MAX_STATES, work)
        .map_err(|e| match e {
            HereError::MidRound { .. } | HereError::ExactRefused(_) => {
                format!("{e} (`sim` plays the rest of the fight many times)")
            }
            other => other.to_string(),
        })?;
    let from = match (here.inside, here.after) {
        (Some(r), _) => format!("inside round {r}, at a settled point"),
        (None, 0) => "before round 1".to_string(),
        (None, r) => format!("at the end of round {r}"),
    };
    Ok(format!(
        "From here ({from}), fray playing everyone: {}",
        super::odds_fight::fight_text(t.session.encounter(), &here.report)
    ))
}

/// The budget `exact [--max-work N]` asks for: N units of work, 1 to
/// `fray_core::fight_odds::MAX_FIGHT_BRANCHES` (the default, with nothing after `exact`).
fn max_work(rest: &str) -> Result<usize, String> {
    const USAGE: &str = "exact [--max-work N]";
    let most = fray_core::fight_odds::MAX_FIGHT_BRANCHES;
    let mut words = rest.split_whitespace();
    let work = match (words.next(), words.next(), words.next()) {
        (None, _, _) => return Ok(most),
        (Some("--max-work"), Some(n), None) => n,
        (Some("--max-work"), None, _) => return Err(format!("--max-work needs a number; {USAGE}")),
        _ => return Err(format!("`{rest}` is not what exact takes; {USAGE}")),
    };
    match work.parse::<usize>() {
        Ok(n) if (1..=most).contains(&n) => Ok(n),
        _ => Err(format!(
            "--max-work: `{work}` is not a number of units of work from 1 to {most}; {USAGE}"
        )),
    }
}

/// `sim [N] [--seed S]`: the rest of the fight played N times from here with fray playing
/// everyone (seeded from the session's seed unless `--seed` is given): each side's win rate
/// with its 95% interval, stalemates, rounds left.
fn sim_from_here(t: &Tracker, rest: &str) -> Result<String, String> {
    const USAGE: &str = "sim [N] [--seed S]";
    let number = |text: Option<&str>, what: &str| -> Result<u64, String> {
        let text = text.ok_or_else(|| format!("{what} needs a number; {USAGE}"))?;
        text.parse()
            .map_err(|_| format!("`{text}` is not a number of {what}; {USAGE}"))
    };
    let (mut runs, mut seed) = (DEFAULT_SIM_RUNS, t.session.seed());
    let mut words = rest.split_whitespace();
    while let Some(word) = words.next() {
        match word {
            "--seed" => seed = number(words.next(), "--seed")?,
            _ if word.starts_with("--") => return Err(format!("unknown flag `{word}`; {USAGE}")),
            _ => runs = number(Some(word), "runs")?,
        }
    }
    let threads =
        std::thread::available_parallelism().map_or(1, |n| n.get().min(fray_sim::MAX_THREADS));
    let result = fray_sim::here::simulate_from_here(&t.session, runs, seed, threads)
        .map_err(|e| e.to_string())?;
    Ok(fray_sim::here::text(&t.session, &result))
}

/// A die result or a choice for the request asked.
fn answer(t: &mut Tracker, line: &str) -> Result<String, String> {
    let request = t.session.pending().cloned().ok_or_else(|| {
        "the fight is over: nothing is asked (`help` lists the commands)".to_string()
    })?;
    let answer = match &request {
        Request::Roll(r) => match parse_roll_answer(r, line) {
            Ok(answer) => answer,
            Err(AnswerError::Unreadable { .. }) => {
                return Err(format!(
                    "`{line}` is not a command or a roll; {} is asked (`help` lists the commands)",
                    r.dice_text()
                ))
            }
            Err(e) => return Err(e.to_string()),
        },
        Request::Choice { .. } => {
            // `who: choice`, as scripts write it, is accepted too when `who` is the one asked.
            let text = match line.split_once(':') {
                Some((who, choice)) => {
                    let asked = match request.asked() {
                        Asked::Combatant(id) => t.session.roster().key(id).to_string(),
                        Asked::Gm => "gm".to_string(),
                    };
                    if !who.trim().eq_ignore_ascii_case(&asked) {
                        return Err(format!("{asked} is asked, not {}", who.trim()));
                    }
                    choice.trim()
                }
                None => line,
            };
            Answer::Choice(text.to_string())
        }
    };
    t.session
        .answer(answer)
        .map(|()| String::new())
        .map_err(session_error)
}

/// Runs `fray run`.
pub fn run(args: RunArgs) -> Result<(), CliError> {
    let library = Library::embedded()
        .map_err(|e| CliError::Internal(format!("built-in content is broken: {e}")))?;
    let (mut session, autosave) = match (&args.resume, &args.file) {
        (Some(saved), _) => {
            let session =
                Session::resume(saved, &library).map_err(|e| CliError::Input(e.to_string()))?;
            (
                session,
                args.autosave.clone().or_else(|| Some(saved.clone())),
            )
        }
        (None, Some(file)) => {
            let text = fray_engine::input::read_file_limited(file, fray_engine::MAX_FILE_BYTES)
                .map_err(|e| CliError::Input(format!("{file}: {e}")))?;
            let seed = args.seed.unwrap_or_else(super::fight::fresh_seed);
            let session = Session::new(file, &text, &library, seed)
                .map_err(|e| CliError::Input(e.to_string()))?;
            let stem = std::path::Path::new(file)
                .file_stem()
                .map_or_else(|| "fight".into(), |s| s.to_string_lossy().to_string());
            let default = PathBuf::from(format!("{stem}.session.jsonl"));
            (session, args.autosave.clone().or(Some(default)))
        }
        (None, None) => {
            return Err(CliError::Input(
                "give an encounter FILE or --resume SESSION".into(),
            ))
        }
    };
    let viewer = Viewer::parse(&args.view, session.roster())
        .map_err(|e| CliError::Input(format!("--view: {e}")))?;
    let autosave = if args.no_autosave { None } else { autosave };
    if let Some(path) = &autosave {
        session
            .autosave_to(path.clone())
            .map_err(|e| CliError::Input(e.to_string()))?;
    }
    let mut intro = format!(
        "{} — {} — seed {}\n",
        session.encounter().name(),
        session.encounter().ruleset().name(),
        session.seed()
    );
    if let Some(path) = &autosave {
        intro.push_str(&format!(
            "autosaving to {} (resume with `fray run --resume {}`)\n",
            path.display(),
            path.display()
        ));
    }
    intro.push_str("`help` lists the commands.\n");
    output::print(&intro)?;
    let mut tracker = Tracker {
        session,
        library,
        viewer,
        shown: 0,
        shown_round: None,
    };
    tracker.show_new_events()?;
    tracker.show_request()?;
    let mut lines = Lines::open();
    loop {
        lines.set_words(tracker.words());
        let prompt = match tracker.session.pending() {
            Some(r) => format!("{}> ", asked_name(&tracker.session, r.asked())),
            None => "fray> ".to_string(),
        };
        let Some(line) = lines.read(&prompt)? else {
            break;
        };
        if !handle(&mut tracker, &line)? {
            break;
        }
    }
    let _ = std::io::stdout().flush();
    // Who gave the answers, for the record.
    let people = tracker
        .session
        .log()
        .iter()
        .filter(|l| l.by == By::Person)
        .count();
    output::print(&format!(
        "{} answers ({people} typed){}\n",
        tracker.session.log().len(),
        autosave.map_or(String::new(), |p| format!("; saved in {}", p.display()))
    ))
}
