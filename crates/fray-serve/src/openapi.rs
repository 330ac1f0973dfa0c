//! The OpenAPI document served at `/api/v1/openapi.json`, built by utoipa from the handlers'
//! annotations, and the schema of a view (built as JSON by `crate::view`, documented here).

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};

/// A fight as one viewer sees it (see `docs/serve.md`).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct ViewDoc {
    /// `gm` or `side:KEY`.
    viewer: String,
    /// The ruleset's key (`cnc`, `osr`…).
    ruleset: String,
    /// The round now (0 before the first).
    round: u32,
    /// The GM's view only: how many log entries the fight has.
    seq: Option<u64>,
    /// The GM's view only, when the map has features: each in words (Celesia's hazards,
    /// `hazard: fire pit at 3 1 (1d6 damage)`).
    map: Option<Vec<String>>,
    /// Every viewer's, when the map has terrain (Celesia's): `{"obstacles": [[x, y], …],
    /// "difficult": [[x, y], …]}`, each list north to south, west to east.
    #[schema(value_type = Option<Object>)]
    terrain: Option<()>,
    /// Null while the fight goes on; else the winner's side key (or null) and the rounds.
    #[schema(value_type = Option<Object>)]
    over: Option<()>,
    /// Each combatant the viewer may see: `id`, `name`, `side`, `standing`; for the GM and
    /// the combatant's own side also `hp`, `max_hp`, `conditions`; for the GM `played_by`
    /// (`fray` or `person`) and `at` (its square, `[x, y]`).
    #[schema(value_type = Vec<Object>)]
    combatants: Vec<()>,
    /// The request waiting, when this viewer is the one to answer it (else null): `asked`,
    /// `text`, `kind` (`roll` with `dice`, or `choice` with `options`), `rule`.
    #[schema(value_type = Option<Object>)]
    pending: Option<()>,
    /// The fight's events as this viewer receives them (docs/events.md).
    #[schema(value_type = Vec<Object>)]
    events: Vec<()>,
    /// A hash of everything above: answer from it; pushes come when it changes.
    version: String,
}

/// Adds the two ways to authenticate: the server's key and a fight link's token (both as
/// bearer tokens).
#[derive(Debug)]
struct Security;

impl Modify for Security {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        for name in ["key", "token"] {
            components.add_security_scheme(
                name,
                SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
            );
        }
    }
}

/// Adds to every operation the errors any request may meet before its handler decides: 400
/// (a body or query that does not read), 401 (no token or key), 404 (no such fight for this
/// token), and for those with a body 413 (too large), 415 (not JSON) and 429 (a limit). All
/// are `{"error": …}`.
#[derive(Debug)]
struct CommonErrors;

impl Modify for CommonErrors {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
        let error = |description: &str| {
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("ErrorBody")))
                        .build(),
                )
                .build()
        };
        const ANY: [(&str, &str); 3] = [
            (
                "400",
                "the query or body does not read (the message says which field)",
            ),
            ("401", "no token or key given, or not the server's key"),
            ("404", "no fight with this id and token"),
        ];
        const WITH_BODY: [(&str, &str); 3] = [
            ("413", "the body is larger than the server's limit"),
            ("415", "the body is not `application/json`"),
            ("429", "a limit of the server or the fight is reached"),
        ];
        for item in openapi.paths.paths.values_mut() {
            for operation in [&mut item.get, &mut item.post].into_iter().flatten() {
                let has_body = operation.request_body.is_some();
                let extra = ANY.iter().chain(WITH_BODY.iter().filter(|_| has_body));
                for (status, description) in extra {
                    operation
                        .responses
                        .responses
                        .entry((*status).to_string())
                        .or_insert_with(|| error(description).into());
                }
            }
        }
    }
}

/// The API.
#[derive(OpenApi)]
#[openapi(
    info(title = "fray serve", description = "Run tabletop RPG fights with the rules applied: \
        a GM and each side's players, over HTTP and WebSocket."),
    paths(
        crate::api::create_fight,
        crate::api::list_fights,
        crate::api::get_view,
        crate::api::answer,
        crate::api::undo,
        crate::api::redo,
        crate::api::intervene,
        crate::api::odds,
        crate::api::sim,
        crate::api::exact,
        crate::api::export_log,
        crate::api::socket,
    ),
    components(schemas(ViewDoc, crate::api::ErrorBody)),
    modifiers(&Security, &CommonErrors)
)]
struct Api;

/// The OpenAPI document.
pub fn document() -> utoipa::openapi::OpenApi {
    Api::openapi()
}
