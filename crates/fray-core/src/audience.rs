//! Who may see what: every event and request has an [`Audience`], and a [`Viewer`]'s stream is
//! a pure function of the events, built from a whitelist of fields.
//!
//! The GM sees everything. A side's players see the events whose audience includes their side,
//! and of those only the whitelisted fields: a field not listed in [`SHOWN`] is never sent to a
//! player, so a new field stays hidden until someone decides to show it. Some fields are
//! *private*: they are shown only to the side of the combatant they describe (a foe's hit
//! points, its armour class or defence, the protection left on its armour).
//!
//! What each audience is comes from the seeds' table practice (DESIGN.md, "Live sessions, views
//! and audiences"): GM rulings and their reasons are the GM's; checks (surprise, morale,
//! spotting an ambush…) and declarations are their own side's until their effects show; moves
//! of hidden or invisible combatants are their own side's, and so is what a side's check
//! taught it (a foe's abilities, where a hidden creature is).

use crate::event::{json_lines, Event, Subject};
use crate::ids::{CombatantId, SideId};
use crate::protocol::{ChoiceRequest, Chooser, RollRequest};
use crate::roster::Roster;
use serde_json::{Map, Value};

/// Who an event or a request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Audience {
    /// Everyone at the table.
    Everyone,
    /// The GM only.
    Gm,
    /// One side's players (and the GM).
    Side(SideId),
    /// Whoever controls this combatant (its player, else the GM) — and the GM.
    Controller(CombatantId),
}

/// Who is looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The game master: sees everything, whole.
    Gm,
    /// The players of one side.
    Side(SideId),
}

impl Viewer {
    /// Reads `gm` or `side:ID` against a roster.
    pub fn parse(text: &str, roster: &Roster) -> Result<Viewer, String> {
        if text == "gm" {
            return Ok(Viewer::Gm);
        }
        let sides = || {
            roster
                .sides
                .iter()
                .map(|s| format!("side:{}", s.key))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match text.strip_prefix("side:") {
            Some(key) => roster.find_side(key).map(Viewer::Side).ok_or_else(|| {
                format!("no side `{key}` in this encounter; views: gm, {}", sides())
            }),
            None => Err(format!(
                "unknown view `{text}`; views: gm, {} (e.g. --view side:{})",
                sides(),
                roster.sides.first().map_or("heroes", |s| s.key.as_str())
            )),
        }
    }

    /// Whether this viewer receives what is meant for `audience`.
    pub fn receives(self, audience: Audience, roster: &Roster) -> bool {
        match (self, audience) {
            (Viewer::Gm, _) | (_, Audience::Everyone) => true,
            (Viewer::Side(_), Audience::Gm) => false,
            (Viewer::Side(side), Audience::Side(other)) => side == other,
            (Viewer::Side(side), Audience::Controller(id)) => {
                roster.side_of(id) == side && !roster.controller(id).is_gm()
            }
        }
    }

    /// Whether this viewer may see the private facts of `id` (its hit points, its defence).
    fn knows(self, id: CombatantId, roster: &Roster) -> bool {
        match self {
            Viewer::Gm => true,
            Viewer::Side(side) => roster.side_of(id) == side,
        }
    }
}

impl Event {
    /// Who this event is for (see the module summary).
    pub fn audience(&self, roster: &Roster) -> Audience {
        match self {
            Event::Ruling { .. } => Audience::Gm,
            Event::Check { who, .. } => Audience::Side(match who {
                Subject::Combatant(id) => roster.side_of(*id),
                Subject::Side(side) => *side,
            }),
            Event::Declared { who, .. } => {
                if roster.controller(*who).is_gm() {
                    Audience::Side(roster.side_of(*who))
                } else {
                    Audience::Everyone
                }
            }
            Event::Moved {
                who, hidden: true, ..
            } => Audience::Side(roster.side_of(*who)),
            // What a foe has left to shoot is not seen across the table.
            Event::Ammunition { who, .. } => Audience::Controller(*who),
            // What a check taught its side (a foe's abilities, a hidden creature's square).
            Event::Learned { who, .. } => Audience::Side(roster.side_of(*who)),
            _ => Audience::Everyone,
        }
    }

    /// The combatant whose private fields this event carries (the one hurt, healed, attacked…).
    fn private_owner(&self) -> Option<CombatantId> {
        match self {
            Event::Attack { target, .. } | Event::Strike { target, .. } => Some(*target),
            Event::Damage { target, .. } => Some(*target),
            Event::Healed { who, .. } | Event::Status { who, .. } | Event::Worn { who, .. } => {
                Some(*who)
            }
            _ => None,
        }
    }
}

impl RollRequest {
    /// Who is asked to roll: the roller's controller, or the GM for the world's dice.
    pub fn audience(&self) -> Audience {
        self.who.map_or(Audience::Gm, Audience::Controller)
    }
}

impl<C> ChoiceRequest<'_, C> {
    /// Who is asked to choose: the combatant's controller, or the GM for a ruling.
    pub fn audience(&self) -> Audience {
        match self.chooser {
            Chooser::Combatant(id) => Audience::Controller(id),
            Chooser::Gm => Audience::Gm,
        }
    }
}

/// The fields a player may see of each event type, as `(type, public fields, private fields)`.
/// Private fields are shown only to the side of the combatant the event is about. `schema`,
/// `type`, `round` and `segment` are always shown. Anything not listed here is hidden.
pub const SHOWN: &[(&str, &[&str], &[&str])] = &[
    ("round", &[], &[]),
    (
        "check",
        &[
            "who",
            "side",
            "purpose",
            "dice",
            "roll",
            "modifiers",
            "total",
            "against",
            "target",
            "under",
            "success",
            "result",
            "rule",
        ],
        &[],
    ),
    ("turn_started", &["who"], &[]),
    ("turn_ended", &["who"], &[]),
    ("act", &["who", "act", "on", "detail", "rule"], &[]),
    ("forgo", &["who", "what", "on", "reason", "rule"], &[]),
    (
        "casting",
        &["who", "spell", "on", "stage", "detail", "rule"],
        &[],
    ),
    ("arrive", &["who", "at", "rule"], &[]),
    (
        "area",
        &["by", "label", "squares", "last_round", "stage", "rule"],
        &[],
    ),
    ("fall", &["who", "feet", "rule"], &[]),
    ("wear", &["who", "what", "by", "rule"], &["left"]),
    (
        "ammunition",
        &["who", "weapon", "loaded", "capacity", "left", "rule"],
        &[],
    ),
    ("learn", &["who", "about", "facts", "at", "rule"], &[]),
    ("wound", &["who", "roll", "wound", "modifiers", "rule"], &[]),
    ("declare", &["who", "declaration", "rule"], &[]),
    ("initiative", &["who", "roll", "total", "rule"], &[]),
    ("side_initiative", &["side", "roll", "rule"], &[]),
    (
        "action_initiative",
        &["who", "action", "die", "roll", "modifiers", "total", "rule"],
        &[],
    ),
    ("segment", &["segment", "phase"], &[]),
    (
        "strike",
        &[
            "attacker",
            "target",
            "attack",
            "strike",
            "strike_modifiers",
            "roll",
            "result",
            "rule",
        ],
        &["defense", "defense_modifiers", "needed"],
    ),
    ("order", &["groups"], &[]),
    ("move", &["who", "from", "to", "feet", "mode", "rule"], &[]),
    (
        "attack",
        &[
            "attacker",
            "target",
            "attack",
            "roll",
            "modifiers",
            "total",
            "defense",
            "result",
            "rule",
        ],
        &["versus", "defense_modifiers"],
    ),
    (
        "damage",
        &["target", "roll", "modifiers", "normal", "subdual", "rule"],
        &["hp"],
    ),
    ("heal", &["who", "amount", "rule"], &["hp"]),
    ("condition", &["who", "condition", "gained", "rule"], &[]),
    ("status", &["who", "status", "rule"], &["hp"]),
    ("skip", &["who", "reason", "rule"], &[]),
    ("terrain", &["change", "squares", "rule"], &[]),
    ("ruling", &["rule", "text"], &[]),
    (
        "end",
        &[
            "winner",
            "rounds",
            "stalemate",
            "ending",
            "reason",
            "losers",
        ],
        &[],
    ),
];

/// Fields every event shows.
const ALWAYS: &[&str] = &["schema", "type", "round", "segment"];

/// Whether `viewer` may see field `field` of `event` (the whitelist, with private fields).
pub fn shows(viewer: Viewer, event: &Event, field: &str, roster: &Roster) -> bool {
    if viewer == Viewer::Gm {
        return true;
    }
    if ALWAYS.contains(&field) {
        return true;
    }
    let Some((_, public, private)) = SHOWN.iter().find(|(kind, _, _)| *kind == event.kind()) else {
        return false;
    };
    public.contains(&field)
        || (private.contains(&field)
            && event
                .private_owner()
                .is_some_and(|id| viewer.knows(id, roster)))
}

/// The JSON object of one event as `viewer` receives it: `None` when it is not for them, else
/// only the fields they may see.
pub fn view_json(viewer: Viewer, event: &Event, json: Value, roster: &Roster) -> Option<Value> {
    if !viewer.receives(event.audience(roster), roster) {
        return None;
    }
    if viewer == Viewer::Gm {
        return Some(json);
    }
    let Value::Object(map) = json else {
        return None;
    };
    let kept: Map<String, Value> = map
        .into_iter()
        .filter(|(field, _)| shows(viewer, event, field, roster))
        .collect();
    Some(Value::Object(kept))
}

/// The JSON Lines of a fight's events as `viewer` receives them.
pub fn view_json_lines(viewer: Viewer, events: &[(u32, Event)], roster: &Roster) -> Vec<Value> {
    // `json_lines` drops the renderer-only markers; pair its lines with the events they render.
    let rendered = events
        .iter()
        .filter(|(_, e)| !matches!(e, Event::SegmentsOver))
        .map(|(_, e)| e);
    json_lines(events, roster)
        .into_iter()
        .zip(rendered)
        .filter_map(|(json, event)| view_json(viewer, event, json, roster))
        .collect()
}

/// One line of text of an event as `viewer` receives it (`None`: not for them).
pub fn view_text(viewer: Viewer, event: &Event, roster: &Roster) -> Option<String> {
    if !viewer.receives(event.audience(roster), roster) {
        return None;
    }
    Some(event.describe_shown(roster, &|field| shows(viewer, event, field, roster)))
}
