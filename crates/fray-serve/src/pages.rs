//! The web tracker's pages: server-rendered HTML (maud) with htmx 2 vendored as a static file,
//! no build step. A role's page shows its view — rendered from the same audience-filtered view
//! the API serves, so a player's HTML holds nothing their view does not — and reloads its panel
//! whenever the role's WebSocket says the view changed. A command bar takes `fray run`'s
//! grammar from the keyboard: dice, choices, `r`, and for the GM `undo`, `redo`,
//! interventions and `override N`.

use crate::action::Action;
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
body{font-family:system-ui,sans-serif;margin:0 auto;padding:.5rem;max-width:60rem;line-height:1.4}
table{border-collapse:collapse;width:100%}td,th{padding:.2rem .4rem;text-align:left;border-bottom:1px solid #ccc}
button,input,textarea{font:inherit;padding:.4rem;margin:.15rem}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
.acting{font-weight:bold}.error{color:#a00}.log{white-space:pre-wrap;font-family:monospace;font-size:.9rem;max-height:40vh;overflow:auto}
@media (max-width:30rem){th.hide,td.hide{display:none}}
";

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
        "a roll (14, d20 14), r, a choice (attack orc-1), undo, redo, hp orc-1 -3, cond …, move …, override 17"
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
                input #line name="line" autocomplete="off" autofocus size="40" aria-describedby="hint";
                button type="submit" { "Send" }
                p #hint { small { (hint) } }
            }
            div #panel aria-live="polite" { (panel_html) }
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
    let line = form.line.trim();
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let action = match word {
        "undo" if rest.is_empty() => Action::Undo,
        "redo" if rest.is_empty() => Action::Redo,
        "override" => Action::Override {
            text: rest.to_string(),
        },
        "hp" | "cond" | "move" | "remove" | "add" | "rule" => Action::Intervene {
            text: line.to_string(),
        },
        _ => Action::Answer {
            text: line.to_string(),
        },
    };
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

/// The panel: the error if any, the round and who is asked, the combatants, the request with
/// its options as buttons, undo/redo for the GM, the log — all from the role's view.
async fn panel_of(
    state: &AppState,
    fight: &crate::fights::Fight,
    role: &Role,
    error: Option<&FightError>,
) -> Result<Markup, FightError> {
    let (view, log) = state.fights.view_and_log(fight, role).await?;
    let version = view["version"].as_str().unwrap_or_default().to_string();
    let token = fight.token_of(role).unwrap_or_default();
    let do_url = format!("/fights/{}/do?token={token}", fight.id);
    let str_of = |v: &Value| {
        v.as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v.to_string())
    };
    let asked = view["pending"]["asked"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    Ok(html! {
        input #version type="hidden" name="version" value=(version);
        @if let Some(e) = error { p.error role="alert" { (e.to_string()) } }
        p {
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
                p #asked { (str_of(&view["pending"]["text"])) }
                @if let Some(options) = view["pending"]["options"].as_array() {
                    div #options {
                        @for option in options.iter().take(24) {
                            @let text = str_of(option);
                            button hx-post=(do_url) hx-target="#panel"
                                hx-vals=(serde_json::json!({"line": text, "version": version}).to_string()) {
                                (text)
                            }
                        }
                    }
                } @else {
                    button hx-post=(do_url) hx-target="#panel"
                        hx-vals=(serde_json::json!({"line": "r", "version": version}).to_string()) {
                        "Let fray roll"
                    }
                }
            }
        }
        @if *role == Role::Gm {
            div {
                button hx-post=(do_url) hx-target="#panel"
                    hx-vals=(serde_json::json!({"line": "undo", "version": version}).to_string()) { "Undo" }
                button hx-post=(do_url) hx-target="#panel"
                    hx-vals=(serde_json::json!({"line": "redo", "version": version}).to_string()) { "Redo" }
            }
        }
        section aria-label="Combatants" {
            h2 { "Combatants" }
            table #combatants {
                thead { tr { th { "Who" } th.hide { "Side" } th { "HP" } th { "Standing" } th.hide { "Conditions" } } }
                tbody {
                    @for c in view["combatants"].as_array().into_iter().flatten() {
                        @let id = str_of(&c["id"]);
                        tr class=(if id == asked { "acting" } else { "" }) {
                            td { (str_of(&c["name"])) " (" (id) ")" }
                            td.hide { (str_of(&c["side"])) }
                            td { @if c.get("hp").is_some() { (c["hp"]) "/" (c["max_hp"]) } @else { "?" } }
                            td { (str_of(&c["standing"])) }
                            td.hide {
                                @for cond in c["conditions"].as_array().into_iter().flatten() { (str_of(cond)) " " }
                            }
                        }
                    }
                }
            }
        }
        section aria-label="Log" {
            h2 { "Log" }
            div.log #log tabindex="0" { (log) }
        }
    })
}
