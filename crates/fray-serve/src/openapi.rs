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
    /// Null while the fight goes on; else the winner's side key (or null) and the rounds.
    #[schema(value_type = Option<Object>)]
    over: Option<()>,
    /// Each combatant the viewer may see: `id`, `name`, `side`, `standing`; for the GM and
    /// the combatant's own side also `hp`, `max_hp`, `conditions`; for the GM `played_by`.
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
        crate::api::export_log,
        crate::api::socket,
    ),
    components(schemas(ViewDoc, crate::api::ErrorBody)),
    modifiers(&Security)
)]
struct Api;

/// The OpenAPI document.
pub fn document() -> utoipa::openapi::OpenApi {
    Api::openapi()
}
