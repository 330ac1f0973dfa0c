//! The web tracker's pages: server-rendered HTML (maud) with htmx 2 vendored as a static file,
//! no build step. A role's page shows its view — rendered from the same audience-filtered view
//! the API serves, so a player's HTML holds nothing their view does not — and reloads its panel
//! whenever the role's WebSocket says the view changed. A command bar takes `fray run`'s
//! grammar from the keyboard: dice, choices, `r`, and for the GM `undo`, `redo`,
//! interventions, `override N` and who fray plays (`auto`/`manual`). The GM's page also has a
//! grid map of the squares, the odds of an attack and "who wins from here".

use crate::api::AppState;
use crate::fights::FightError;
use crate::view::Role;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Form;
use maud::{html, Markup, PreEscaped, DOCTYPE};
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

/// htmx 2.0.11, vendored (BSD-2-Clause, `static/htmx-LICENSE`).
const HTMX: &str = include_str!("../static/htmx-2.0.11.min.js");

/// Readable at 360 px, keyboard first, focus always visible.
const STYLE: &str = "
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0 auto;padding:.5rem;max-width:60rem;line-height:1.4;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;overflow-wrap:normal}td,th{padding:.2rem .4rem;text-align:left;border-bottom:1px solid #ccc}
button,input,textarea,select{font:inherit;padding:.4rem;margin:.15rem;max-width:100%}
textarea{width:100%}
#command{display:flex;flex-wrap:wrap;align-items:center;gap:.2rem}
#command label{flex:0 0 auto}#line{flex:1 1 10rem;min-width:0}#hint{flex:1 0 100%;margin:0}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
.acting{font-weight:bold}.error{color:#a00}.log{white-space:pre-wrap;font-family:monospace;font-size:.9rem;max-height:40vh;overflow:auto}
.map svg{max-width:100%;height:auto;border:1px solid #888;background:#fafafa}
.swatch{display:inline-block;width:1em;height:1em;vertical-align:middle;border:1px solid #333;margin-right:.25em}
.tools form{display:flex;flex-wrap:wrap;align-items:end;gap:.3rem}.tools label{display:flex;flex-direction:column}
.result{white-space:pre-wrap}
@media (max-width:30rem){th.hide,td.hide{display:none}}
";

/// Side colours of the map, in side order (dark enough for white letters), with the letter
/// that tells the sides apart without colour.
const SIDE_COLOURS: [&str; 6] = [
    "#1a5fb4", "#a51d2d", "#26a269", "#865e3c", "#613583", "#c64600",
];

/// The map's obstacle squares' colour.
const OBSTACLE_COLOUR: &str = "#3b3b3b";

/// The map's difficult-terrain squares' colour.
const DIFFICULT_COLOUR: &str = "#e3cf9f";

/// The map's largest width or height, in squares: a wider spread is listed, not drawn.
const MAP_MAX_SQUARES: i64 = 60;

/// The page around `body`.
fn page(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(STYLE)) }
                script src="/static/htmx.min.js" {}
            }
            body { (body) }
        }
    }
}

/// `GET /static/htmx.min.js`.
pub async fn htmx() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        HTMX,
    )
        .into_response()
}

/// The server's key, from the GM link.
#[derive(Debug, Deserialize)]
pub struct KeyQuery {
    #[serde(default)]
    key: Option<String>,
}

/// `GET /`: with the server's key, a form to create a fight.
pub async fn home(Query(query): Query<KeyQuery>) -> Html<String> {
    let body = match query.key {
        Some(key) => html! {
            h1 { "fray: a new fight" }
            form method="post" action="/fights" {
                input type="hidden" name="key" value=(key);
                p {
                    label for="name" { "Encounter file name" } br;
                    input id="name" name="name" value="encounter.toml";
                }
                p {
                    label for="encounter" { "Encounter (TOML, as `fray run` reads it)" } br;
                    textarea id="encounter" name="encounter" rows="16" cols="60" required {}
                }
                button type="submit" { "Create the fight" }
            }
        },
        None => html! {
            h1 { "fray serve" }
            p { "Open the GM link that `fray serve` printed, or the link your GM gave you." }
        },
    };
    Html(page("fray", body).into_string())
}

/// The form that creates a fight.
#[derive(Debug, Deserialize)]
pub struct NewFightForm {
    key: String,
    encounter: String,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /fights`: creates the fight and lists its links.
pub async fn create(
    State(state): State<Arc<AppState>>,
    Form(form): Form<NewFightForm>,
) -> Response {
    if form.key != state.key {
        return (
            StatusCode::UNAUTHORIZED,
            "creating fights needs the server's key",
        )
            .into_response();
    }
    let name = form
        .name
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "encounter.toml".into());
    match state.fights.create(&name, &form.encounter, None).await {
        Ok(created) => {
            let link = |token: &str| format!("/fights/{}?token={token}", created.id);
            let body = html! {
                h1 { "Fight created" }
                p { "Keep each link for whom it is meant: it is their access." }
                ul {
                    li { a href=(link(&created.gm_token)) { "GM" } }
                    @for (_, side, token) in &created.sides {
                        li { a href=(link(token)) { "Players of " (side) } }
                    }
                }
            };
            Html(page("fray: fight created", body).into_string()).into_response()
        }
        Err(e) => {
            let body = html! { h1 { "Not created" } p.error { (e.to_string()) } };
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Html(page("fray", body).into_string()),
            )
                .into_response()
        }
    }
}

/// A role's token.
#[derive(Debug, Deserialize)]
pub struct TokenQuery {
    token: String,
}

/// `GET /fights/{id}?token=T`: the role's page.
pub async fn fight_page(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(query): Query<TokenQuery>,
) -> Response {
    let (fight, role) = match state.fights.open(&id, &query.token).await {
        Ok(open) => open,
        Err(e) => return (StatusCode::NOT_FOUND, e.to_string()).into_response(),
    };
    let panel_html = match panel_of(&state, &fight, &role, None).await {
        Ok(p) => p,
        Err(e) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    };
    let token = &query.token;
    let panel_url = format!("/fights/{id}/panel?token={token}");
    let do_url = format!("/fights/{id}/do?token={token}");
    let socket = format!("/api/v1/fights/{id}/ws?token={token}");
    let who = match &role {
        Role::Gm => "GM".to_string(),
        Role::Side(key) => format!("players of {key}"),
    };
    let hint = if role == Role::Gm {
        "a roll (14, d20 14), r, a choice (attack orc-1), undo, redo, hp orc-1 -3, cond …, move …, \
         override 17, auto side:orcs, manual fighter-1, manual gm"
    } else {
        "your roll (14, d20 14), r to let fray roll, or your choice (attack orc-1)"
    };
    let script = format!(
        "(function(){{var url=(location.protocol==='https:'?'wss://':'ws://')+location.host+{socket:?};\
         function open(){{var ws=new WebSocket(url);ws.onmessage=function(){{htmx.ajax('GET',{panel_url:?},\
         {{target:'#panel',swap:'innerHTML'}});}};ws.onclose=function(){{setTimeout(open,2000);}};}}open();}})();"
    );
    let body = html! {
        header { h1 { "fray — " (who) } }
        main {
            form #command hx-post=(do_url) hx-target="#panel" hx-include="#version"
                hx-on--after-request="if(event.detail.successful)this.reset()" {
                label for="line" { "Command" }
                " "
                input #line name="line" autocomplete="off" autofocus aria-describedby="hint";
                button type="submit" { "Send" }
                p #hint { small { (hint) } }
            }
            div #panel aria-live="polite" { (panel_html) }
            @if role == Role::Gm {
                section.tools aria-label="Odds and who wins from here: results" {
                    div #odds-result .result aria-live="polite" {}
                    div #sim-result .result aria-live="polite" {}
                    div #exact-result .result aria-live="polite" {}
                }
            }
        }
        script { (PreEscaped(script)) }
    };
    Html(page(&format!("fray — {who}"), body).into_string()).into_response()
}

/// `GET /fights/{id}/panel?token=T`: the panel alone (htmx swaps it in).
pub async fn panel(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(query): Query<TokenQuery>,
) -> Response {
    match state.fights.open(&id, &query.token).await {
        Ok((fight, role)) => match panel_of(&state, &fight, &role, None).await {
            Ok(p) => Html(p.into_string()).into_response(),
            Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
        },
        Err(e) => (StatusCode::NOT_FOUND, e.to_string()).into_response(),
    }
}

/// A line of the command bar, with the version of the view it was typed on.
#[derive(Debug, Deserialize)]
pub struct CommandForm {
    version: String,
    line: String,
}

/// `POST /fights/{id}/do?token=T`: one line of `fray run`'s grammar; answers with the panel
/// (and the refusal's message, if any).
pub async fn command(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(query): Query<TokenQuery>,
    Form(form): Form<CommandForm>,
) -> Response {
    let (fight, role) = match state.fights.open(&id, &query.token).await {
        Ok(open) => open,
        Err(e) => return (StatusCode::NOT_FOUND, e.to_string()).into_response(),
    };
    let action = crate::action::from_line(&form.line);
    let error = state
        .fights
        .act(&fight, &role, &form.version, action)
        .await
        .err();
    match panel_of(&state, &fight, &role, error.as_ref()).await {
        Ok(p) => Html(p.into_string()).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// The panel: the error if any, the round and who is asked, the request with its options as
/// buttons, undo/redo and (GM) the map, the odds and "who wins from here", the combatants with
/// who plays them, the log — all from the role's view.
async fn panel_of(
    state: &AppState,
    fight: &crate::fights::Fight,
    role: &Role,
    error: Option<&FightError>,
) -> Result<Markup, FightError> {
    let (view, log) = state.fights.view_and_log(fight, role).await?;
    let version = view["version"].as_str().unwrap_or_default().to_string();
    let token = fight.token_of(role).unwrap_or_default();
    let urls = Urls {
        act: format!("/fights/{}/do?token={token}", fight.id),
        odds: format!("/fights/{}/odds?token={token}", fight.id),
        sim: format!("/fights/{}/sim?token={token}", fight.id),
        exact: format!("/fights/{}/exact?token={token}", fight.id),
    };
    let asked = view["pending"]["asked"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let gm = *role == Role::Gm;
    let line = |text: &str| serde_json::json!({"line": text, "version": version}).to_string();
    Ok(html! {
        input #version type="hidden" name="version" value=(version);
        @if let Some(e) = error { p.error role="alert" { (e.to_string()) } }
        p #round {
            "Round " (view["round"].as_u64().unwrap_or(0))
            @if !view["over"].is_null() {
                " — the fight is over: "
                @match view["over"]["winner"].as_str() {
                    Some(side) => { (side) " win." }
                    None => { "no winner." }
                }
            }
        }
        @if !view["pending"].is_null() {
            section aria-label="Asked" {
                h2 { "Asked" }
                p #asked { (text_of(&view["pending"]["text"])) }
                @if let Some(options) = view["pending"]["options"].as_array() {
                    div #options {
                        @for (n, option) in options.iter().take(24).enumerate() {
                            @let text = text_of(option);
                            button id=(format!("option-{n}")) hx-post=(urls.act) hx-target="#panel"
                                hx-vals=(line(&text)) { (text) }
                        }
                    }
                } @else {
                    button #roll hx-post=(urls.act) hx-target="#panel" hx-vals=(line("r")) {
                        "Let fray roll"
                    }
                }
            }
        }
        @if gm {
            div {
                button #undo hx-post=(urls.act) hx-target="#panel" hx-vals=(line("undo")) { "Undo" }
                button #redo hx-post=(urls.act) hx-target="#panel" hx-vals=(line("redo")) { "Redo" }
            }
            (map(&view, &asked))
            (tools(&view, &asked, &urls))
        } @else {
            // A player's map: the terrain only (the squares of combatants are the GM's).
            (map(&view, &asked))
        }
        (combatants(&view, &asked, gm, &urls.act, &line))
        section aria-label="Log" {
            h2 { "Log" }
            div.log #log tabindex="0" { (log) }
        }
    })
}

/// Where the panel's buttons and forms send their requests.
struct Urls {
    act: String,
    odds: String,
    sim: String,
    exact: String,
}

/// A JSON value as text (a string without its quotes).
fn text_of(v: &Value) -> String {
    v.as_str()
        .map(str::to_string)
        .unwrap_or_else(|| v.to_string())
}

/// The sides in the order their first combatant comes, each with its colour and letter.
fn sides_of(view: &Value) -> Vec<(String, &'static str, char)> {
    let mut sides: Vec<(String, &'static str, char)> = Vec::new();
    for c in view["combatants"].as_array().into_iter().flatten() {
        let side = text_of(&c["side"]);
        if !sides.iter().any(|(s, _, _)| *s == side) {
            let n = sides.len();
            let letter = side.chars().next().map_or('?', |c| c.to_ascii_uppercase());
            sides.push((side, SIDE_COLOURS[n % SIDE_COLOURS.len()], letter));
        }
    }
    sides
}

/// A combatant's square from the GM's view, when it is on the map (up, down or dead).
fn square_of(c: &Value) -> Option<(i64, i64)> {
    let standing = c["standing"].as_str()?;
    if !matches!(standing, "up" | "down" | "dead") {
        return None;
    }
    Some((c["at"][0].as_i64()?, c["at"][1].as_i64()?))
}

/// The squares of one kind of the view's terrain (`obstacles` or `difficult`).
fn terrain_of<'a>(view: &'a Value, kind: &str) -> impl Iterator<Item = (i64, i64)> + 'a {
    view["terrain"][kind]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|sq| Some((sq[0].as_i64()?, sq[1].as_i64()?)))
}

/// The grid map: for the GM each combatant on its square, coloured and lettered by side (the
/// acting one outlined, the fallen pale), for everyone the terrain (obstacles dark, difficult
/// terrain hatched) around them — a player's map shows the terrain alone; its text alternative
/// lists every square.
fn map(view: &Value, asked: &str) -> Markup {
    let sides = sides_of(view);
    let placed: Vec<(&Value, (i64, i64))> = view["combatants"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| square_of(c).map(|sq| (c, sq)))
        .collect();
    let has_terrain = !view["terrain"].is_null();
    // The box: the combatants' squares and one square around them where there is terrain,
    // else (a player's map) the terrain's.
    let corners: Vec<(i64, i64)> = if placed.is_empty() {
        terrain_of(view, "obstacles")
            .chain(terrain_of(view, "difficult"))
            .collect()
    } else {
        let margin = i64::from(has_terrain);
        placed
            .iter()
            .flat_map(|(_, (x, y))| [(x - margin, y - margin), (x + margin, y + margin)])
            .collect()
    };
    let (Some(min_x), Some(max_x), Some(min_y), Some(max_y)) = (
        corners.iter().map(|(x, _)| *x).min(),
        corners.iter().map(|(x, _)| *x).max(),
        corners.iter().map(|(_, y)| *y).min(),
        corners.iter().map(|(_, y)| *y).max(),
    ) else {
        return html! {};
    };
    let inside =
        |&(x, y): &(i64, i64)| (min_x..=max_x).contains(&x) && (min_y..=max_y).contains(&y);
    let obstacles: Vec<(i64, i64)> = terrain_of(view, "obstacles").filter(inside).collect();
    let difficult: Vec<(i64, i64)> = terrain_of(view, "difficult").filter(inside).collect();
    let (w, h) = (max_x - min_x + 1, max_y - min_y + 1);
    let cell = 32;
    let squares = |list: &[(i64, i64)]| {
        list.iter()
            .map(|(x, y)| format!("{x},{y}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let description = placed
        .iter()
        .map(|(c, (x, y))| {
            format!(
                "{} ({}), {}, {}, at {x},{y}",
                text_of(&c["name"]),
                text_of(&c["id"]),
                text_of(&c["side"]),
                text_of(&c["standing"])
            )
        })
        .chain((!obstacles.is_empty()).then(|| format!("obstacles at {}", squares(&obstacles))))
        .chain(
            (!difficult.is_empty())
                .then(|| format!("difficult terrain at {}", squares(&difficult))),
        )
        .collect::<Vec<_>>()
        .join("; ");
    html! {
        section.map aria-label="Map" {
            h2 { "Map" }
            p {
                @for (side, colour, letter) in &sides {
                    span.swatch style=(format!("background:{colour}")) {}
                    (letter) " " (side) " "
                }
                @if has_terrain {
                    span.swatch style=(format!("background:{OBSTACLE_COLOUR}")) {} "obstacle "
                    span.swatch style=(format!("background:{DIFFICULT_COLOUR}")) {} "difficult terrain "
                }
                "— squares of 5 ft; x to the right, y down; the one asked is outlined."
            }
            @if w > MAP_MAX_SQUARES || h > MAP_MAX_SQUARES {
                p { "Too spread out to draw (" (w) " × " (h) " squares): " (description) }
            } @else {
                svg #map xmlns="http://www.w3.org/2000/svg" role="img"
                    aria-labelledby="map-title map-desc"
                    viewBox=(format!("-{cell} -{cell} {} {}", (w + 1) * cell, (h + 1) * cell))
                    width=((w + 1) * cell) {
                    title #map-title { "Map of the fight, x " (min_x) " to " (max_x) ", y " (min_y) " to " (max_y) }
                    desc #map-desc { (description) }
                    @for i in 0..w {
                        text x=(i * cell + cell / 2) y=(-cell / 3) font-size="11" text-anchor="middle" { (min_x + i) }
                    }
                    @for j in 0..h {
                        text x=(-cell / 2) y=(j * cell + cell * 2 / 3) font-size="11" text-anchor="middle" { (min_y + j) }
                    }
                    @for i in 0..w { @for j in 0..h {
                        rect x=(i * cell) y=(j * cell) width=(cell) height=(cell) fill="none" stroke="#ccc" {}
                    } }
                    @for (x, y) in &obstacles {
                        rect.obstacle data-at=(format!("{x},{y}")) x=((x - min_x) * cell) y=((y - min_y) * cell)
                            width=(cell) height=(cell) fill=(OBSTACLE_COLOUR) {}
                    }
                    @for (x, y) in &difficult {
                        rect.difficult data-at=(format!("{x},{y}")) x=((x - min_x) * cell) y=((y - min_y) * cell)
                            width=(cell) height=(cell) fill=(DIFFICULT_COLOUR) stroke="#8a6d3b"
                            stroke-dasharray="4 3" {}
                    }
                    @for (c, (x, y)) in &placed {
                        @let id = text_of(&c["id"]);
                        @let side = text_of(&c["side"]);
                        @let (colour, letter) = sides.iter().find(|(s, _, _)| *s == side)
                            .map_or(("#555", '?'), |(_, colour, letter)| (*colour, *letter));
                        @let up = c["standing"] == "up";
                        @let number = id.rsplit('-').next().filter(|n| n.chars().all(|d| d.is_ascii_digit())).unwrap_or("");
                        g opacity=(if up { "1" } else { "0.35" }) {
                            rect x=((x - min_x) * cell + 2) y=((y - min_y) * cell + 2) width=(cell - 4) height=(cell - 4) rx="5"
                                fill=(colour) stroke=(if id == asked { "#000" } else { "none" })
                                stroke-width="3" {}
                            text x=((x - min_x) * cell + cell / 2) y=((y - min_y) * cell + cell * 2 / 3)
                                font-size="12" fill="#fff" text-anchor="middle" { (letter) (number) }
                        }
                    }
                }
            }
        }
    }
}

/// The GM's tools: the exact odds of an attack (by default the one asked, at the foe the
/// request names)
/// and "who wins from here"; their results go below the panel (kept across its reloads).
fn tools(view: &Value, asked: &str, urls: &Urls) -> Markup {
    let up: Vec<&Value> = view["combatants"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["standing"] == "up")
        .collect();
    let asked_side = up
        .iter()
        .find(|c| c["id"] == asked)
        .map(|c| text_of(&c["side"]));
    // The target: the first foe standing that the request names (`charge orc-2` among its
    // options, or its text), else the first foe standing.
    let foes: Vec<String> = up
        .iter()
        .filter(|c| Some(text_of(&c["side"])) != asked_side)
        .map(|c| text_of(&c["id"]))
        .collect();
    let pending = &view["pending"];
    let words = std::iter::once(text_of(&pending["text"])).chain(
        pending["options"]
            .as_array()
            .into_iter()
            .flatten()
            .map(text_of),
    );
    let target = words
        .flat_map(|text| {
            text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .find(|word| foes.contains(word))
        .or_else(|| foes.first().cloned());
    html! {
        section.tools aria-label="Odds and who wins from here" {
            h2 { "Odds and who wins from here" }
            form #odds-form hx-get=(urls.odds) hx-target="#odds-result" {
                label { "Attacker"
                    select #odds-attacker name="attacker" {
                        @for c in &up {
                            @let id = text_of(&c["id"]);
                            option value=(id) selected[id == asked] { (id) }
                        }
                    }
                }
                label { "Target"
                    select #odds-target name="target" {
                        @for c in &up {
                            @let id = text_of(&c["id"]);
                            option value=(id) selected[Some(&id) == target.as_ref()] { (id) }
                        }
                    }
                }
                label { "Weapon (optional)" input #odds-weapon name="weapon" size="12"; }
                button #odds-button type="submit" { "Odds of this attack" }
            }
            form #sim-form hx-get=(urls.sim) hx-target="#sim-result" {
                label { "Runs" input #sim-runs name="runs" type="number" min="1" max="10000" value="1000" size="6"; }
                button #sim-button type="submit" { "Who wins from here" }
            }
            form #exact-form hx-get=(urls.exact) hx-target="#exact-result" {
                button #exact-button type="submit" { "Who wins from here, exactly" }
            }
        }
    }
}

/// The combatants: the one asked in bold; hit points where the role may see them (else `?`);
/// for the GM their square and who plays them, with a button to switch it.
fn combatants(
    view: &Value,
    asked: &str,
    gm: bool,
    act: &str,
    line: &dyn Fn(&str) -> String,
) -> Markup {
    html! {
        section aria-label="Combatants" {
            h2 { "Combatants" }
            table #combatants {
                thead { tr {
                    th { "Who" } th.hide { "Side" } th { "HP" } th { "Standing" } th.hide { "Conditions" }
                    @if gm { th.hide { "Square" } th { "Played by" } }
                } }
                tbody {
                    @for c in view["combatants"].as_array().into_iter().flatten() {
                        @let id = text_of(&c["id"]);
                        tr class=(if id == asked { "acting" } else { "" }) {
                            td { (text_of(&c["name"])) " (" (id) ")" }
                            td.hide { (text_of(&c["side"])) }
                            td { @if c.get("hp").is_some() { (c["hp"]) "/" (c["max_hp"]) } @else { "?" } }
                            td { (text_of(&c["standing"])) }
                            td.hide {
                                @for cond in c["conditions"].as_array().into_iter().flatten() { (text_of(cond)) " " }
                            }
                            @if gm {
                                td.hide { (c["at"][0]) "," (c["at"][1]) }
                                td {
                                    @let fray = c["played_by"] == "fray";
                                    (if fray { "fray " } else { "a person " })
                                    button id=(format!("plays-{id}")) hx-post=(act) hx-target="#panel"
                                        hx-vals=(line(&format!("{} {id}", if fray { "manual" } else { "auto" })))
                                        aria-label=(format!("{} {id}", if fray { "a person answers for" } else { "fray plays" })) {
                                        (if fray { "Ask" } else { "Auto" })
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The odds form's fields.
#[derive(Debug, Deserialize)]
pub struct OddsForm {
    token: String,
    #[serde(default)]
    attacker: Option<String>,
    target: String,
    #[serde(default)]
    weapon: Option<String>,
}

/// `GET /fights/{id}/odds?token=T&attacker=&target=&weapon=`: the GM's odds, as HTML (the
/// API's `odds`).
pub async fn odds(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(form): Query<OddsForm>,
) -> Response {
    let session = match crate::api::gm_only(&state, &id, &form.token, "odds").await {
        Ok(s) => s,
        Err(e) => return refusal(e.message()),
    };
    let query = crate::api::OddsQuery {
        attacker: form.attacker.filter(|a| !a.trim().is_empty()),
        target: form.target,
        weapon: form.weapon.filter(|w| !w.trim().is_empty()),
        situation: None,
    };
    let round = session.round();
    match crate::api::odds_of(session, query).await {
        Ok(o) => Html(
            html! {
                h3 { "Odds: " (o.attacker) " attacks " (o.target) " (round " (round) ")" }
                table #odds {
                    tr { th { "hit" } td { (o.hit) " (" (format!("{:.1}", o.hit_p * 100.0)) "%)" } }
                    tr { th { "miss" } td { (o.miss) } }
                    tr { th { "target at or below 0 hp" } td { (o.down) } }
                    tr { th { "damage" } td {
                        @for (d, p) in o.damage.iter().take(40) { (d) ": " (p) "; " }
                    } }
                }
                @if !o.assumptions.is_empty() {
                    ul { @for a in &o.assumptions { li { (a) } } }
                }
            }
            .into_string(),
        )
        .into_response(),
        Err(e) => refusal(e.message()),
    }
}

/// The simulation form's fields.
#[derive(Debug, Deserialize)]
pub struct SimForm {
    token: String,
    #[serde(default)]
    runs: Option<String>,
}

/// `GET /fights/{id}/sim?token=T&runs=N`: who wins from here, as HTML (the API's `sim`).
pub async fn sim(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(form): Query<SimForm>,
) -> Response {
    let runs = match form
        .runs
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
    {
        None => None,
        Some(r) => match r.parse() {
            Ok(n) => Some(n),
            Err(_) => return refusal("runs: a whole number from 1"),
        },
    };
    let session = match crate::api::gm_only(&state, &id, &form.token, "simulations").await {
        Ok(s) => s,
        Err(e) => return refusal(e.message()),
    };
    let round = session.round();
    let query = crate::api::SimQuery { runs, seed: None };
    match crate::api::sim_of(&state, session, query).await {
        Ok(result) => Html(
            html! {
                h3 { "Who wins from here (round " (round) ")" }
                pre #sim { (result.text) }
            }
            .into_string(),
        )
        .into_response(),
        Err(e) => refusal(e.message()),
    }
}

/// The exact answer's form: the token only.
#[derive(Debug, Deserialize)]
pub struct ExactForm {
    token: String,
}

/// `GET /fights/{id}/exact?token=T`: who wins from here, exactly, as HTML (the API's `exact`).
pub async fn exact(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(form): Query<ExactForm>,
) -> Response {
    let session = match crate::api::gm_only(&state, &id, &form.token, "exact odds").await {
        Ok(s) => s,
        Err(e) => return refusal(e.message()),
    };
    let work = fray_core::fight_odds::MAX_FIGHT_BRANCHES;
    match crate::api::exact_of(&id, session, work).await {
        Ok(x) => {
            let from = match (x.inside_round, x.after_round) {
                (Some(r), _) => format!("from a settled point inside round {r}"),
                (None, 0) => "before round 1".to_string(),
                (None, r) => format!("from the end of round {r}"),
            };
            let row = |what: String, c: &crate::api::Chance| {
                html! { tr { th { (what) } td { (format!("{:.2}%", c.p * 100.0)) } td { (c.exact) } } }
            };
            Html(
                html! {
                    h3 { "Who wins, exactly (" (from) ")" }
                    table #exact {
                        @for s in &x.sides { (row(format!("{} wins", s.side), &s.wins)) }
                        (row("nobody standing".to_string(), &x.nobody_standing))
                        (row(format!("stalemate ({} rounds)", x.max_rounds), &x.stalemate))
                    }
                    p { small { (x.states) " end-of-round states, " (x.branches)
                        " branches; fray's default tactics play everyone" } }
                }
                .into_string(),
            )
            .into_response()
        }
        Err(e) => refusal(e.message()),
    }
}

/// A refusal shown where the result would go (200, so htmx swaps it in).
fn refusal(message: &str) -> Response {
    Html(html! { p.error role="alert" { (message) } }.into_string()).into_response()
}
