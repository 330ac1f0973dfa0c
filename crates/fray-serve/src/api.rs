//! The HTTP and WebSocket API under `/api/v1`: JSON in and out, errors as `{"error": "…"}`
//! with `fray run`'s messages. A fight's GM and players authenticate with the token their
//! link carries (`Authorization: Bearer TOKEN`, or `?token=` on the WebSocket); creating and
//! listing fights needs the server's key, printed when it starts.

use crate::action::Action;
use crate::fights::{FightError, Fights};
use crate::view::Role;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};

/// What the handlers share.
#[derive(Debug)]
pub struct AppState {
    /// The fights.
    pub fights: Fights,
    /// The server's key: creating and listing fights needs it.
    pub key: String,
}

/// The router of the whole API.
pub fn router(state: Arc<AppState>) -> Router {
    let body_limit = state.fights.limits.body_bytes;
    Router::new()
        .route("/api/v1/openapi.json", get(openapi))
        .route("/api/v1/fights", post(create_fight).get(list_fights))
        .route("/api/v1/fights/{id}", get(get_view))
        .route("/api/v1/fights/{id}/answer", post(answer))
        .route("/api/v1/fights/{id}/undo", post(undo))
        .route("/api/v1/fights/{id}/redo", post(redo))
        .route("/api/v1/fights/{id}/intervene", post(intervene))
        .route("/api/v1/fights/{id}/odds", get(odds))
        .route("/api/v1/fights/{id}/sim", get(sim))
        .route("/api/v1/fights/{id}/exact", get(exact))
        .route("/api/v1/fights/{id}/log", get(export_log))
        .route("/api/v1/fights/{id}/ws", get(socket))
        .route("/", get(crate::pages::home))
        .route("/static/htmx.min.js", get(crate::pages::htmx))
        .route("/fights", post(crate::pages::create))
        .route("/fights/{id}", get(crate::pages::fight_page))
        .route("/fights/{id}/panel", get(crate::pages::panel))
        .route("/fights/{id}/do", post(crate::pages::command))
        .route("/fights/{id}/odds", get(crate::pages::odds))
        .route("/fights/{id}/sim", get(crate::pages::sim))
        .route("/fights/{id}/exact", get(crate::pages::exact))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

/// An error as the API sends it.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

/// `{"error": "…"}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong, in `fray run`'s words.
    pub error: String,
}

impl ApiError {
    /// What went wrong, in words.
    pub fn message(&self) -> &str {
        &self.message
    }

    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<FightError> for ApiError {
    fn from(e: FightError) -> ApiError {
        let status = match &e {
            FightError::NotFound => StatusCode::NOT_FOUND,
            FightError::Forbidden(_) => StatusCode::FORBIDDEN,
            FightError::Conflict(_) => StatusCode::CONFLICT,
            FightError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            FightError::Limit(_) => StatusCode::TOO_MANY_REQUESTS,
            FightError::Store(_) | FightError::Broken(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, e.to_string())
    }
}

/// A JSON body, its rejection turned into `{"error": …}`.
#[derive(Debug)]
pub struct Body<T>(T);

impl<S, T> axum::extract::FromRequest<S> for Body<T>
where
    Json<T>: axum::extract::FromRequest<S, Rejection = axum::extract::rejection::JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(ApiError::new(rejection.status(), rejection.body_text())),
        }
    }
}

/// A query string, its rejection turned into `{"error": …}` (400).
#[derive(Debug)]
pub struct QueryOf<T>(T);

impl<S, T> axum::extract::FromRequestParts<S> for QueryOf<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(QueryOf(value)),
            Err(rejection) => Err(ApiError::new(rejection.status(), rejection.body_text())),
        }
    }
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such endpoint; see /api/v1/openapi.json",
    )
}

/// The bearer token of a request.
fn bearer(headers: &HeaderMap) -> Result<&str, ApiError> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "give the token of your link: Authorization: Bearer TOKEN",
            )
        })
}

/// Checks the server's key.
fn server_key(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    if crate::token::same(bearer(headers)?, &state.key) {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "creating and listing fights needs the server's key (printed by `fray serve`)",
        ))
    }
}

/// The OpenAPI document of this API.
async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(crate::openapi::document())
}

/// A fight to create.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewFight {
    /// The encounter, as TOML (what `fray run FILE` reads).
    pub encounter: String,
    /// The encounter's file name, for messages (default `encounter.toml`).
    #[serde(default)]
    pub name: Option<String>,
    /// The seed of fray's dice (random when absent): the same seed and answers give the same
    /// fight.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A link to a fight for one role.
#[derive(Debug, Serialize, ToSchema)]
pub struct Link {
    /// `gm` or `side:KEY`.
    pub role: String,
    /// The side's name (the GM's link: `GM`).
    pub name: String,
    /// The token (keep it secret: it is the role's access).
    pub token: String,
    /// The page of the role, with its token.
    pub url: String,
}

/// A fight created.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedFight {
    /// The fight's id.
    pub id: String,
    /// The GM's link.
    pub gm: Link,
    /// One link per side, in encounter order.
    pub players: Vec<Link>,
}

/// Creates a fight from encounter TOML.
#[utoipa::path(post, path = "/api/v1/fights", request_body = NewFight,
    security(("key" = [])),
    responses(
        (status = 201, body = CreatedFight, description = "the fight and its links"),
        (status = 401, body = ErrorBody), (status = 422, body = ErrorBody,
            description = "the encounter does not load"),
        (status = 429, body = ErrorBody, description = "the server keeps no more fights")))]
async fn create_fight(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Body(new): Body<NewFight>,
) -> Result<(StatusCode, Json<CreatedFight>), ApiError> {
    server_key(&state, &headers)?;
    let name = new.name.unwrap_or_else(|| "encounter.toml".to_string());
    if name.len() > 256 || name.chars().any(char::is_control) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "name: at most 256 characters, no control characters",
        ));
    }
    let created = state.fights.create(&name, &new.encounter, new.seed).await?;
    let url = |token: &str| format!("/fights/{}?token={token}", created.id);
    Ok((
        StatusCode::CREATED,
        Json(CreatedFight {
            id: created.id.clone(),
            gm: Link {
                role: "gm".to_string(),
                name: "GM".to_string(),
                token: created.gm_token.clone(),
                url: url(&created.gm_token),
            },
            players: created
                .sides
                .iter()
                .map(|(key, name, token)| Link {
                    role: format!("side:{key}"),
                    name: name.clone(),
                    token: token.clone(),
                    url: url(token),
                })
                .collect(),
        }),
    ))
}

/// A fight in the list.
#[derive(Debug, Serialize, ToSchema)]
pub struct FightListed {
    /// Its id.
    pub id: String,
    /// Its encounter's file name.
    pub name: String,
    /// When it was created (milliseconds since the Unix epoch).
    pub created_ms: i64,
}

/// The fights, newest first (at most 1,000).
#[utoipa::path(get, path = "/api/v1/fights", security(("key" = [])),
    responses((status = 200, body = Vec<FightListed>), (status = 401, body = ErrorBody)))]
async fn list_fights(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Json<Vec<FightListed>>, ApiError> {
    server_key(&state, &headers)?;
    let fights = state
        .fights
        .store()
        .list_fights(1000)
        .await
        .map_err(FightError::from)?;
    Ok(Json(
        fights
            .into_iter()
            .map(|f| FightListed {
                id: f.id,
                name: f.name,
                created_ms: f.created_ms,
            })
            .collect(),
    ))
}

/// The view of the fight the token's role has.
#[utoipa::path(get, path = "/api/v1/fights/{id}", params(("id" = String, Path)),
    security(("token" = [])),
    responses((status = 200, body = crate::openapi::ViewDoc), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn get_view(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let (fight, role) = state.fights.open(&id, bearer(&headers)?).await?;
    Ok(Json(state.fights.view(&fight, &role).await?))
}

/// An answer to the request waiting, from the view the viewer saw.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerBody {
    /// The `version` of the view answered from (a stale one is a conflict).
    pub version: String,
    /// As typed at `fray run`: a roll (`14`, `d20 14`, `3 5 6`), `r` for fray to roll it, or a
    /// choice (`attack orc-1`).
    pub answer: String,
}

/// A GM command, from the view the GM saw.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandBody {
    /// The `version` of the view the command was given from.
    pub version: String,
    /// The command (interventions only): `hp orc-2 -3`, `cond …`, `move …`, `remove …`,
    /// `add …`, `rule …`, `override N`, or who fray plays: `auto WHO`, `manual WHO` (WHO: a
    /// combatant id, `orc-*`, `side:ID`, `gm`, `all`).
    #[serde(default)]
    pub command: Option<String>,
}

/// Does `action` for the token's role.
async fn act(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    version: &str,
    action: Action,
) -> Result<Json<Value>, ApiError> {
    let (fight, role) = state.fights.open(id, bearer(headers)?).await?;
    Ok(Json(
        state.fights.act(&fight, &role, version, action).await?,
    ))
}

/// Answers the request waiting (players: only their side's).
#[utoipa::path(post, path = "/api/v1/fights/{id}/answer", params(("id" = String, Path)),
    request_body = AnswerBody, security(("token" = [])),
    responses((status = 200, body = crate::openapi::ViewDoc, description = "the new view"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "stale version"),
        (status = 422, body = ErrorBody, description = "the answer is refused")))]
async fn answer(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<AnswerBody>,
) -> Result<Json<Value>, ApiError> {
    let action = Action::Answer { text: body.answer };
    act(&state, &id, &headers, &body.version, action).await
}

/// Takes back the last answer a person gave (GM only).
#[utoipa::path(post, path = "/api/v1/fights/{id}/undo", params(("id" = String, Path)),
    request_body = CommandBody, security(("token" = [])),
    responses((status = 200, body = crate::openapi::ViewDoc), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn undo(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<CommandBody>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &id, &headers, &body.version, Action::Undo).await
}

/// Gives again the answer last taken back (GM only).
#[utoipa::path(post, path = "/api/v1/fights/{id}/redo", params(("id" = String, Path)),
    request_body = CommandBody, security(("token" = [])),
    responses((status = 200, body = crate::openapi::ViewDoc), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn redo(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<CommandBody>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &id, &headers, &body.version, Action::Redo).await
}

/// A GM intervention, an override of the last roll, or who fray plays (`auto WHO`,
/// `manual WHO`), in the `fray run` grammar (GM only).
#[utoipa::path(post, path = "/api/v1/fights/{id}/intervene", params(("id" = String, Path)),
    request_body = CommandBody, security(("token" = [])),
    responses((status = 200, body = crate::openapi::ViewDoc), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn intervene(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<CommandBody>,
) -> Result<Json<Value>, ApiError> {
    let command = body.command.unwrap_or_default();
    let action = match crate::action::from_line(&command) {
        action @ (Action::Override { .. } | Action::Auto { .. } | Action::Manual { .. }) => action,
        _ => Action::Intervene { text: command },
    };
    act(&state, &id, &headers, &body.version, action).await
}

/// Only the GM may read this (it reads GM-only facts): the fight's session as it stands, for
/// the holder of `token`.
pub(crate) async fn gm_only(
    state: &AppState,
    id: &str,
    token: &str,
    what: &str,
) -> Result<fray_engine::session::Session, ApiError> {
    let (fight, role) = state.fights.open(id, token).await?;
    if role != Role::Gm {
        return Err(FightError::Forbidden(format!(
            "{what} read GM-only facts (armour, hit points, modifiers): only the GM's view shows them"
        ))
        .into());
    }
    Ok(state.fights.snapshot(&fight).await?)
}

/// The attack whose odds are asked.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct OddsQuery {
    /// The attacker's id (default: the combatant asked).
    #[serde(default)]
    pub attacker: Option<String>,
    /// The target's id.
    pub target: String,
    /// The weapon (as `fray odds --weapon`).
    #[serde(default)]
    pub weapon: Option<String>,
    /// Situations, comma-separated `KEY` or `KEY=VALUE` (as `fray odds --situation`).
    #[serde(default)]
    pub situation: Option<String>,
}

/// Exact odds of one attack from the state at the pause.
#[derive(Debug, Serialize, ToSchema)]
pub struct OddsBody {
    /// The attacker's id.
    pub attacker: String,
    /// The target's id.
    pub target: String,
    /// P(a miss), as an exact fraction.
    pub miss: String,
    /// P(at least one hit), exact.
    pub hit: String,
    /// P(the target at or below 0 hit points afterwards), exact.
    pub down: String,
    /// P(a hit), as a number.
    pub hit_p: f64,
    /// Each damage total with its exact probability.
    pub damage: Vec<(i32, String)>,
    /// What the odds assume, in words.
    pub assumptions: Vec<String>,
}

/// Exact odds of one attack from here (GM only).
#[utoipa::path(get, path = "/api/v1/fights/{id}/odds", params(("id" = String, Path), OddsQuery),
    security(("token" = [])),
    responses((status = 200, body = OddsBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn odds(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    QueryOf(query): QueryOf<OddsQuery>,
    headers: HeaderMap,
) -> Result<Json<OddsBody>, ApiError> {
    let session = gm_only(&state, &id, bearer(&headers)?, "odds").await?;
    Ok(Json(odds_of(session, query).await?))
}

/// The exact odds `query` asks for in `session` (the API's and the GM page's).
pub(crate) async fn odds_of(
    session: fray_engine::session::Session,
    query: OddsQuery,
) -> Result<OddsBody, ApiError> {
    let refused = |m: String| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m);
    let attacker = match query.attacker {
        Some(a) => a,
        None => match session.pending().map(fray_core::session::Request::asked) {
            Some(fray_core::session::Asked::Combatant(who)) => {
                session.roster().key(who).to_string()
            }
            _ => {
                return Err(refused(
                    "no combatant is asked, so name the attacker".into(),
                ))
            }
        },
    };
    let situation = fray_core::ruleset::Situation {
        weapon: query.weapon,
        options: query
            .situation
            .unwrap_or_default()
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| match s.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => (s.trim().to_string(), String::new()),
            })
            .collect(),
    };
    let target = query.target;
    let report = tokio::task::spawn_blocking(move || {
        session
            .odds(&attacker, &target, &situation)
            .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    .map_err(refused)?;
    let hit_p = fray_engine::odds::to_f64(&report.hit);
    Ok(OddsBody {
        attacker: report.attacker,
        target: report.target,
        miss: report.miss.to_string(),
        hit: report.hit.to_string(),
        down: report.down.to_string(),
        hit_p,
        damage: report
            .damage
            .iter()
            .map(|(d, p)| (*d, p.to_string()))
            .collect(),
        assumptions: report.assumptions,
    })
}

/// How many times to play the rest of the fight.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct SimQuery {
    /// Runs (default 1,000; at most the server's limit, 10,000 by default).
    #[serde(default)]
    pub runs: Option<u64>,
    /// The base seed (default: the fight's).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// Who wins from here.
#[derive(Debug, Serialize, ToSchema)]
pub struct SimBody {
    /// The figures in words, as `fray run`'s `sim` prints them.
    pub text: String,
}

/// Who wins from here: the rest of the fight played many times, fray playing everyone (GM
/// only).
#[utoipa::path(get, path = "/api/v1/fights/{id}/sim", params(("id" = String, Path), SimQuery),
    security(("token" = [])),
    responses((status = 200, body = SimBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn sim(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    QueryOf(query): QueryOf<SimQuery>,
    headers: HeaderMap,
) -> Result<Json<SimBody>, ApiError> {
    let session = gm_only(&state, &id, bearer(&headers)?, "simulations").await?;
    Ok(Json(sim_of(&state, session, query).await?))
}

/// Who wins from here in `session`, as `query` asks (the API's and the GM page's).
pub(crate) async fn sim_of(
    state: &AppState,
    session: fray_engine::session::Session,
    query: SimQuery,
) -> Result<SimBody, ApiError> {
    let runs = query.runs.unwrap_or(1000);
    let max = state.fights.limits.sim_runs;
    if runs == 0 || runs > max {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("runs: from 1 to {max}"),
        ));
    }
    let seed = query.seed.unwrap_or_else(|| session.seed());
    let text = tokio::task::spawn_blocking(move || {
        fray_sim::here::simulate_from_here(&session, runs, seed, 1)
            .map(|result| fray_sim::here::text(&session, &result))
            .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e))?;
    Ok(SimBody { text })
}

/// One chance of the exact answer: a fraction and its decimal.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Chance {
    /// Exact, as a fraction (`364871/829440`).
    pub exact: String,
    /// As a number.
    pub p: f64,
}

/// One side's exact chance to win.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SideChance {
    /// The side's id.
    pub side: String,
    /// P(it wins).
    pub wins: Chance,
}

/// Who wins from here, exactly: the `fray odds --fight` programme from the end of the round
/// the fight stands at, fray's default tactics playing everyone.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ExactBody {
    /// The round that had just ended where the computation starts (0: before the first round).
    pub after_round: u32,
    /// The round the computation starts inside, at a settled point its ruleset offers
    /// (Spelljammer: after an action of a segment), when the fight stands there; absent at a
    /// round's end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inside_round: Option<u32>,
    /// Each side's chance to win, in side order.
    pub sides: Vec<SideChance>,
    /// P(nobody left standing).
    pub nobody_standing: Chance,
    /// P(a stalemate: the round limit, or a limit inside a round).
    pub stalemate: Chance,
    /// The round limit.
    pub max_rounds: u32,
    /// P(the fight ends in round r), counted from the fight's start: `[r, "fraction"]`.
    pub ends_in_round: Vec<(u32, String)>,
    /// Distinct end-of-round states explored.
    pub states: u64,
    /// Branches played.
    pub branches: u64,
}

/// Most exact computations running at once over the whole server (each may take seconds of
/// CPU on the blocking pool, within `fray odds --fight`'s branch and state limits); more are
/// refused with 429 until one ends.
pub const MAX_EXACT_JOBS: usize = 2;

/// Exact computations running now.
static EXACT_JOBS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A place among the [`MAX_EXACT_JOBS`] for the computation of `key`, given back when dropped
/// (when the computation ends, even if the client left); a computation that ended without an
/// answer (a panic) is forgotten then, so it can be asked again.
struct ExactJob {
    key: u64,
}

impl ExactJob {
    /// A place, or `None` when all are taken.
    fn start(key: u64) -> Option<ExactJob> {
        use std::sync::atomic::Ordering;
        EXACT_JOBS
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_EXACT_JOBS).then_some(n + 1)
            })
            .ok()
            .map(|_| ExactJob { key })
    }
}

impl Drop for ExactJob {
    fn drop(&mut self) {
        exact_kept().retain(|(k, kept)| *k != self.key || !matches!(kept, Kept::Running));
        EXACT_JOBS.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// An exact computation asked before: still running, or its answer.
enum Kept {
    Running,
    Done(Result<ExactBody, String>),
}

/// Computations asked, by fight, answer log and budget (they say everything the answer depends
/// on), newest last; at most [`EXACT_KEPT`] answers besides the running ones.
static EXACT_DONE: std::sync::Mutex<Vec<(u64, Kept)>> = std::sync::Mutex::new(Vec::new());

/// Most exact answers kept.
const EXACT_KEPT: usize = 16;

/// How long a request waits for its computation: past it the answer is 503 and the
/// computation goes on; the same request asked again is answered from it once it ends.
const EXACT_WAIT: std::time::Duration = std::time::Duration::from_secs(20);

fn exact_kept() -> std::sync::MutexGuard<'static, Vec<(u64, Kept)>> {
    EXACT_DONE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Keeps the answer of `key`, in place of its running mark; drops the oldest answers past
/// [`EXACT_KEPT`].
fn keep_exact(key: u64, result: Result<ExactBody, String>) {
    let mut kept = exact_kept();
    kept.retain(|(k, _)| *k != key);
    kept.push((key, Kept::Done(result)));
    while kept
        .iter()
        .filter(|(_, k)| matches!(k, Kept::Done(_)))
        .count()
        > EXACT_KEPT
    {
        let Some(oldest) = kept.iter().position(|(_, k)| matches!(k, Kept::Done(_))) else {
            break;
        };
        kept.remove(oldest);
    }
}

/// Who wins from here, exactly (GM only): the `fray odds --fight` programme from the end of
/// the round the fight stands at. Refused (422) inside a round, after the fight, and when the
/// programme refuses (too many states or branches): the `sim` operation answers then. A
/// `max_work` out of range (1 to `MAX_FIGHT_BRANCHES`) is refused with 422, the limit named.
#[utoipa::path(get, path = "/api/v1/fights/{id}/exact", params(("id" = String, Path), ExactQuery),
    security(("token" = [])),
    responses((status = 200, body = ExactBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody, description = "as many exact computations as the server runs at once are running"),
        (status = 503, body = ErrorBody, description = "the computation is still running: it goes on, and the same request asked again is answered from it")))]
async fn exact(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    QueryOf(query): QueryOf<ExactQuery>,
    headers: HeaderMap,
) -> Result<Json<ExactBody>, ApiError> {
    let session = gm_only(&state, &id, bearer(&headers)?, "exact odds").await?;
    let work = query.work()?;
    Ok(Json(exact_of(&id, session, work).await?))
}

/// The budget of an exact computation (`fray odds --fight --max-work`, `fray run`'s
/// `exact --max-work`).
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ExactQuery {
    /// Most units of work (branches played, answer counts carried) the computation may do:
    /// 1 to 5,000,000 (the default); every refusal is weighed against it.
    #[serde(default)]
    #[param(minimum = 1, maximum = 5_000_000)]
    pub max_work: Option<u64>,
}

impl ExactQuery {
    /// The units of work asked, or the default; 422 out of range.
    fn work(&self) -> Result<usize, ApiError> {
        let most = fray_core::fight_odds::MAX_FIGHT_BRANCHES;
        match self.max_work {
            None => Ok(most),
            Some(n) if (1..=most as u64).contains(&n) => Ok(n as usize),
            Some(_) => Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("max_work: from 1 to {most} units of work"),
            )),
        }
    }
}

/// Who wins from here, exactly, in fight `id`'s `session`, within `work` units of work (the
/// API's and the GM page's).
pub(crate) async fn exact_of(
    id: &str,
    session: fray_engine::session::Session,
    work: usize,
) -> Result<ExactBody, ApiError> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (id, session.log(), work).hash(&mut hasher);
    let key = hasher.finish();
    let refused = |m: String| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m);
    let running = || {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the exact computation is still running after {} s: it goes on; ask again \
                 (the answer is kept), or take the Monte Carlo answer (sim) now",
                EXACT_WAIT.as_secs()
            ),
        )
    };
    let job = {
        let mut kept = exact_kept();
        match kept.iter().find(|(k, _)| *k == key).map(|(_, k)| k) {
            Some(Kept::Done(known)) => return known.clone().map_err(refused),
            Some(Kept::Running) => return Err(running()),
            None => {}
        }
        let job = ExactJob::start(key).ok_or_else(|| {
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "{MAX_EXACT_JOBS} exact computations are running: ask again when one ends, \
                     or take the Monte Carlo answer (sim) now"
                ),
            )
        })?;
        kept.push((key, Kept::Running));
        job
    };
    let computation = tokio::task::spawn_blocking(move || {
        let result = session
            .exact_from_here(fray_core::distinct::MAX_STATES, work)
            .map(|here| exact_body(&here))
            .map_err(|e| match e {
                fray_engine::session::HereError::MidRound { .. }
                | fray_engine::session::HereError::ExactRefused(_) => {
                    format!("{e} (GET /api/v1/fights/{{id}}/sim plays the rest many times)")
                }
                other => other.to_string(),
            });
        keep_exact(key, result.clone());
        drop(job);
        result
    });
    match tokio::time::timeout(EXACT_WAIT, computation).await {
        Ok(joined) => joined
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
            .map_err(refused),
        Err(_) => Err(running()),
    }
}

/// The exact answer as the API shows it.
fn exact_body(here: &fray_engine::session::ExactHere) -> ExactBody {
    let r = &here.report;
    let chance = |p| Chance {
        p: fray_engine::odds::to_f64(p),
        exact: p.to_string(),
    };
    ExactBody {
        after_round: here.after,
        inside_round: here.inside,
        sides: r
            .wins
            .iter()
            .map(|(side, p)| SideChance {
                side: side.clone(),
                wins: chance(p),
            })
            .collect(),
        nobody_standing: chance(&r.none_standing),
        stalemate: chance(&r.stalemate),
        max_rounds: r.max_rounds,
        ends_in_round: r
            .ends_in_round
            .iter()
            .map(|(round, p)| (*round, p.to_string()))
            .collect(),
        states: r.states as u64,
        branches: r.branches as u64,
    }
}

/// One entry of the exported log.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogLine {
    /// Its sequence number, from 0.
    pub seq: u64,
    /// Who gave it: `gm` or `side:KEY`.
    pub who: String,
    /// When (milliseconds since the Unix epoch).
    pub at_ms: i64,
    /// What was done: `{"do":"answer","text":"14"}`, `{"do":"undo"}`…
    #[schema(value_type = Object)]
    pub action: Value,
}

/// The fight's whole log (GM only): its setup and every entry.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogBody {
    /// The encounter's file name.
    pub name: String,
    /// The encounter's TOML.
    pub encounter: String,
    /// The seed of fray's dice, as text (it may exceed JSON's safe integers).
    pub seed: String,
    /// Every entry, in order.
    pub entries: Vec<LogLine>,
}

/// Exports the fight's log (GM only): replaying it on the same encounter and seed gives the
/// same fight.
#[utoipa::path(get, path = "/api/v1/fights/{id}/log", params(("id" = String, Path)),
    security(("token" = [])),
    responses((status = 200, body = LogBody), (status = 403, body = ErrorBody)))]
async fn export_log(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<LogBody>, ApiError> {
    let (_, role) = state.fights.open(&id, bearer(&headers)?).await?;
    if role != Role::Gm {
        return Err(FightError::Forbidden("only the GM exports the log".to_string()).into());
    }
    let store = state.fights.store();
    let setup = store
        .fight(&id)
        .await
        .map_err(FightError::from)?
        .ok_or(FightError::NotFound)?;
    let entries = store.log(&id, 0).await.map_err(FightError::from)?;
    Ok(Json(LogBody {
        name: setup.name,
        encounter: setup.encounter,
        seed: setup.seed.to_string(),
        entries: entries
            .into_iter()
            .map(|e| LogLine {
                seq: e.seq,
                who: e.who,
                at_ms: e.at_ms,
                action: serde_json::from_str(&e.entry).unwrap_or(Value::Null),
            })
            .collect(),
    }))
}

/// The WebSocket's token.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SocketQuery {
    /// The token of the viewer's link.
    pub token: String,
}

/// A WebSocket that pushes the viewer's view, as `{"type":"view","view":{…}}`, when it opens
/// and whenever it changes for this viewer (nothing is sent when only what they cannot see
/// changed).
#[utoipa::path(get, path = "/api/v1/fights/{id}/ws", params(("id" = String, Path), SocketQuery),
    responses((status = 101, description = "switching to the WebSocket protocol"),
        (status = 400, body = ErrorBody, description = "not a WebSocket handshake"),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn socket(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    QueryOf(query): QueryOf<SocketQuery>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let (fight, role) = state.fights.open(&id, &query.token).await?;
    let upgrade = upgrade.map_err(|r| ApiError::new(r.status(), r.body_text()))?;
    let slot = fight.open_socket(state.fights.limits.sockets)?;
    let mut changed = fight.changed.subscribe();
    Ok(upgrade.on_upgrade(move |mut ws: WebSocket| async move {
        let _slot = slot;
        let mut last = String::new();
        loop {
            let Ok(view) = state.fights.view(&fight, &role).await else {
                break;
            };
            let version = view["version"].as_str().unwrap_or_default().to_string();
            if version != last {
                last = version;
                let frame = json!({ "type": "view", "view": view }).to_string();
                if ws.send(Message::Text(frame.into())).await.is_err() {
                    break;
                }
            }
            tokio::select! {
                got = changed.recv() => {
                    if let Err(tokio::sync::broadcast::error::RecvError::Closed) = got {
                        break;
                    }
                }
                incoming = ws.recv() => match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => {}
                },
            }
        }
    }))
}
