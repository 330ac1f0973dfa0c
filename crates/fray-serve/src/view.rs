//! What one viewer of a fight receives: the GM everything, a side's players only what the
//! audiences let them see (`fray_core::audience`). A player's view is built from a whitelist:
//! their own side's combatants whole, of the others only who they are and whether they stand,
//! the events as `view_json_lines` filters them, and a waiting request only when it is
//! theirs. It carries nothing else — no count of answers, no sequence number, no fight id —
//! so nothing in it changes when only GM-only facts change.
//!
//! Each view has a `version`: a hash of everything else in it. A viewer answers "from" the
//! version they saw; a stale version is a conflict. Updates are pushed to a viewer only when
//! their version changes.

use fray_core::audience::{view_json_lines, Viewer};
use fray_core::session::{Asked, Request, Stop};
use fray_core::{CombatantId, Roster};
use fray_engine::session::Session;
use serde_json::{json, Map, Value};

/// Who holds a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// The game master.
    Gm,
    /// The players of the side with this key.
    Side(String),
}

impl Role {
    /// Reads a stored role (`gm`, `side:KEY`).
    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "gm" => Some(Role::Gm),
            _ => text
                .strip_prefix("side:")
                .map(|k| Role::Side(k.to_string())),
        }
    }

    /// The stored form.
    pub fn text(&self) -> String {
        match self {
            Role::Gm => "gm".to_string(),
            Role::Side(key) => format!("side:{key}"),
        }
    }

    /// The audience viewer this role is in `roster`.
    pub fn viewer(&self, roster: &Roster) -> Option<Viewer> {
        match self {
            Role::Gm => Some(Viewer::Gm),
            Role::Side(key) => roster.find_side(key).map(Viewer::Side),
        }
    }
}

/// Whether `viewer` is the one to answer a request of `asked`: the GM answers everything; a
/// side's players answer for the combatants of their side that a player controls.
pub fn answers(viewer: Viewer, asked: Asked, roster: &Roster) -> bool {
    match (viewer, asked) {
        (Viewer::Gm, _) => true,
        (Viewer::Side(_), Asked::Gm) => false,
        (Viewer::Side(side), Asked::Combatant(id)) => {
            roster.side_of(id) == side && !roster.controller(id).is_gm()
        }
    }
}

/// The view of `session` for `viewer`; `seq` (the log's length) is shown to the GM only.
pub fn view(session: &Session, viewer: Viewer, seq: u64) -> Value {
    let roster = session.roster();
    let mut body = Map::new();
    body.insert("viewer".into(), json!(viewer_text(viewer, roster)));
    body.insert("ruleset".into(), json!(session.encounter().ruleset().key()));
    body.insert("round".into(), json!(session.round()));
    if viewer == Viewer::Gm {
        body.insert("seq".into(), json!(seq));
        // The map's features (hazards) go where the squares do: to the GM.
        if !session.map_features().is_empty() {
            body.insert("map".into(), json!(session.map_features()));
        }
    }
    // The terrain is in plain sight: every viewer's.
    let terrain = session.terrain();
    if !terrain.is_empty() {
        let squares = |list: &[fray_core::Pos]| -> Vec<[i32; 2]> {
            list.iter().map(|p| [p.x, p.y]).collect()
        };
        body.insert(
            "terrain".into(),
            json!({
                "obstacles": squares(&terrain.obstacles),
                "difficult": squares(&terrain.difficult),
            }),
        );
    }
    body.insert("over".into(), json!(ended(session, roster)));
    body.insert(
        "combatants".into(),
        Value::Array(combatants(session, viewer)),
    );
    body.insert("pending".into(), pending(session, viewer));
    body.insert(
        "events".into(),
        Value::Array(view_json_lines(viewer, session.events(), roster)),
    );
    let version = version_of(&Value::Object(body.clone()));
    body.insert("version".into(), json!(version));
    Value::Object(body)
}

/// `gm` or `side:KEY`.
fn viewer_text(viewer: Viewer, roster: &Roster) -> String {
    match viewer {
        Viewer::Gm => "gm".to_string(),
        Viewer::Side(side) => format!("side:{}", roster.side_key(side)),
    }
}

/// The end of the fight, if it is over: the winning side's key (null for none), the rounds.
fn ended(session: &Session, roster: &Roster) -> Value {
    match session.stop() {
        Stop::Ended(end) => json!({
            "winner": end.winner.map(|s| roster.side_key(s).to_string()),
            "rounds": end.rounds,
        }),
        _ => Value::Null,
    }
}

/// Each combatant as `viewer` may see it (see the module summary). Foes held in reserve are
/// not listed to players (they are unrevealed).
fn combatants(session: &Session, viewer: Viewer) -> Vec<Value> {
    let roster = session.roster();
    let own = |id: CombatantId| match viewer {
        Viewer::Gm => true,
        Viewer::Side(side) => roster.side_of(id) == side,
    };
    roster
        .ids()
        .zip(session.standings())
        .zip(session.conditions())
        .filter(|((id, _), _)| own(*id) || !roster.combatants[id.index()].reserve)
        .map(|((id, tally), conditions)| {
            let mut c = Map::new();
            c.insert("id".into(), json!(roster.key(id)));
            c.insert("name".into(), json!(roster.name(id)));
            c.insert("side".into(), json!(roster.side_key(roster.side_of(id))));
            c.insert("standing".into(), json!(tally.standing.key()));
            if own(id) {
                c.insert("hp".into(), json!(tally.hp));
                c.insert("max_hp".into(), json!(tally.max_hp));
                c.insert("conditions".into(), json!(conditions));
            }
            if viewer == Viewer::Gm {
                if let Some(square) = session.squares().get(id.index()) {
                    c.insert("at".into(), json!([square.x, square.y]));
                }
                let fray = session.plays().fray_answers(Asked::Combatant(id));
                c.insert(
                    "played_by".into(),
                    json!(if fray { "fray" } else { "person" }),
                );
            }
            Value::Object(c)
        })
        .collect()
}

/// The waiting request, when `viewer` is the one to answer it; else null.
fn pending(session: &Session, viewer: Viewer) -> Value {
    let roster = session.roster();
    let Some(request) = session.pending() else {
        return Value::Null;
    };
    if !answers(viewer, request.asked(), roster) {
        return Value::Null;
    }
    let asked = match request.asked() {
        Asked::Combatant(id) => roster.key(id).to_string(),
        Asked::Gm => "gm".to_string(),
    };
    let mut p = Map::new();
    p.insert("asked".into(), json!(asked));
    p.insert(
        "text".into(),
        json!(session.describe_pending().unwrap_or_default()),
    );
    match request {
        Request::Roll(r) => {
            p.insert("kind".into(), json!("roll"));
            p.insert("dice".into(), json!(r.dice_text()));
            p.insert("rule".into(), json!(r.rule));
        }
        Request::Choice { rule, options, .. } => {
            p.insert("kind".into(), json!("choice"));
            p.insert("rule".into(), json!(rule));
            p.insert("options".into(), json!(options));
        }
    }
    Value::Object(p)
}

/// A view's version: the FNV-1a hash of its JSON, in hex (the same view, the same version,
/// in every process).
fn version_of(body: &Value) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in body.to_string().bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_core::intervention::Intervention;
    use fray_core::SideId;

    /// A GM's terrain ruling reaches a side's players as a `terrain` event (the map is in
    /// plain sight: audience everyone, every field whitelisted), while the GM's ruling line
    /// itself stays the GM's.
    #[test]
    fn players_see_the_map_change() {
        let text = r#"schema = 1
ruleset = "celesia"
name = "a wall goes up"

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
weapon = "longsword"

[[combatants]]
id = "orc"
side = "orcs"
at = [4, 0]
monster = "orc"
hp = 40
"#;
        let library = fray_engine::Library::embedded().expect("embedded content");
        let mut session = Session::new("wall.toml", text, &library, 7).expect("a session");
        // A person answers everything; fray rolls the initiative dice for them, and the GM
        // intervenes at the first choice (between actions).
        session.set_plays(|_| true, Some(false), false);
        while let Some(Request::Roll(_)) = session.pending() {
            session.roll_for_me().expect("a roll");
        }
        let ruling = Intervention::parse("rule obstacle 2 -1 2 0")
            .expect("an intervention")
            .expect("well formed");
        session.intervene(ruling).expect("a lawful ruling");
        let player = view(&session, Viewer::Side(SideId(1)), 0);
        let events = player["events"].as_array().expect("events");
        let terrain: Vec<&Value> = events.iter().filter(|e| e["type"] == "terrain").collect();
        assert_eq!(terrain.len(), 1, "{events:?}");
        assert_eq!(terrain[0]["change"], "obstacle");
        assert_eq!(terrain[0]["squares"], json!([[2, -1], [2, 0]]));
        assert_eq!(terrain[0]["rule"], "GM");
        assert!(
            !events.iter().any(|e| e["type"] == "ruling"),
            "the GM's ruling line is the GM's: {events:?}"
        );
        assert_eq!(player["terrain"]["obstacles"], json!([[2, -1], [2, 0]]));
    }
}
