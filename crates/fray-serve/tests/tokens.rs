//! Tokens are stored only as their hashes (SHA-256): a created fight's tokens are nowhere in
//! the database, the hash does not open the fight, and a database made before (tokens in the
//! clear, schema version 3) is migrated on start with its links still working.

mod common;

use common::{duel, tokens, TestServer};
use fray_serve::token::hash;
use fray_serve::Limits;
use sqlx::Connection;

/// The stored `(token_hash, role)` of fight `id`, by role.
async fn stored(db: &mut sqlx::SqliteConnection, id: &str) -> Vec<(String, String)> {
    sqlx::query_as("SELECT token_hash, role FROM fight_tokens WHERE fight_id = ? ORDER BY role")
        .bind(id)
        .fetch_all(db)
        .await
        .unwrap()
}

#[tokio::test]
async fn tokens_are_stored_as_hashes_only() {
    let (url, file) = common::sqlite_url("hashed");
    let server = TestServer::start(&url, Limits::default()).await;
    let (id, gm, heroes, orcs) = tokens(&server.create(&duel(9), 1).await);
    let mut db = sqlx::SqliteConnection::connect(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    assert_eq!(
        stored(&mut db, &id).await,
        vec![
            (hash(&gm), "gm".to_string()),
            (hash(&heroes), "side:heroes".to_string()),
            (hash(&orcs), "side:orcs".to_string()),
        ]
    );
    // No token is anywhere in the file.
    db.close().await.unwrap();
    let bytes = std::fs::read(&file).unwrap();
    let wal = std::fs::read(file.with_extension("db-wal")).unwrap_or_default();
    for token in [&gm, &heroes, &orcs] {
        let found = |hay: &[u8]| hay.windows(token.len()).any(|w| w == token.as_bytes());
        assert!(!found(&bytes) && !found(&wal), "token {token} stored");
    }
    // The token opens the fight; its hash (what a reader of the database learns) does not.
    let path = format!("/api/v1/fights/{id}");
    assert_eq!(server.call("GET", &path, Some(&gm), None).await.0, 200);
    assert_eq!(
        server.call("GET", &path, Some(&hash(&gm)), None).await.0,
        404
    );
    assert_eq!(server.call("GET", &path, Some("nobody"), None).await.0, 404);
    server.stop().await;
}

/// The schema of migrations 1 to 3 (tokens in the clear), as databases made before have it.
const OLD_SCHEMA: [&str; 4] = [
    "CREATE TABLE fray_schema (version BIGINT NOT NULL)",
    "CREATE TABLE fights (id TEXT PRIMARY KEY, created_ms BIGINT NOT NULL, name TEXT NOT NULL,
        encounter TEXT NOT NULL, seed TEXT NOT NULL)",
    "CREATE TABLE fight_tokens (token TEXT PRIMARY KEY,
        fight_id TEXT NOT NULL REFERENCES fights(id), role TEXT NOT NULL)",
    "CREATE TABLE fight_log (fight_id TEXT NOT NULL REFERENCES fights(id), seq BIGINT NOT NULL,
        who TEXT NOT NULL, at_ms BIGINT NOT NULL, entry TEXT NOT NULL,
        PRIMARY KEY (fight_id, seq))",
];

/// Fills an old database through `run` (one statement with its text arguments): one fight
/// with one answer and its tokens in the clear. Returns (id, GM token, heroes' token).
async fn an_old_fight<F, Fut>(run: F) -> (String, String, String)
where
    F: Fn(String, Vec<String>) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let token = || fray_serve::token::token().unwrap();
    let (id, gm, heroes) = (fray_serve::token::fight_id().unwrap(), token(), token());
    for sql in OLD_SCHEMA {
        run(sql.to_string(), vec![]).await;
    }
    for v in 1..=3 {
        run(
            format!("INSERT INTO fray_schema (version) VALUES ({v})"),
            vec![],
        )
        .await;
    }
    run(
        "INSERT INTO fights (id, created_ms, name, encounter, seed) VALUES ($1, 1, 'duel.toml', $2, '5')"
            .to_string(),
        vec![id.clone(), duel(9)],
    )
    .await;
    for (t, role) in [(&gm, "gm"), (&heroes, "side:heroes")] {
        run(
            "INSERT INTO fight_tokens (token, fight_id, role) VALUES ($1, $2, $3)".to_string(),
            vec![t.clone(), id.clone(), role.to_string()],
        )
        .await;
    }
    run(
        "INSERT INTO fight_log (fight_id, seq, who, at_ms, entry) VALUES ($1, 0, 'gm', 1, $2)"
            .to_string(),
        vec![id.clone(), r#"{"do":"answer","text":"dodge"}"#.to_string()],
    )
    .await;
    (id, gm, heroes)
}

/// A closure that runs one statement with its text arguments on `$db` (a mutex around a
/// SQLite or PostgreSQL connection), for [`an_old_fight`].
macro_rules! run_on {
    ($db:ident) => {
        |sql: String, args: Vec<String>| {
            let db = &$db;
            async move {
                let mut query = sqlx::query(&sql);
                for a in args {
                    query = query.bind(a);
                }
                query.execute(&mut *db.lock().await).await.unwrap();
            }
        }
    };
}

/// After the migration: the links given before open the fight with its log, and the database
/// holds their hashes, not them.
async fn old_links_still_work(url: &str, id: &str, gm: &str, heroes: &str) -> Vec<String> {
    let server = TestServer::start(url, Limits::default()).await;
    let path = format!("/api/v1/fights/{id}");
    let (status, view) = server.call("GET", &path, Some(gm), None).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["seq"], 1);
    let (status, view) = server.call("GET", &path, Some(heroes), None).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(
        server.call("GET", &path, Some(&hash(gm)), None).await.0,
        404
    );
    server.stop().await;
    let store = fray_serve::store::open(url).await.unwrap();
    assert_eq!(
        store.role_of(&hash(gm)).await.unwrap(),
        Some((id.to_string(), "gm".to_string()))
    );
    assert_eq!(store.role_of(gm).await.unwrap(), None);
    store.check().await.unwrap();
    let setup = store.fight(id).await.unwrap().unwrap();
    setup.token_hashes.into_iter().map(|(h, _)| h).collect()
}

#[tokio::test]
async fn a_sqlite_database_with_clear_tokens_is_migrated() {
    let (url, _) = common::sqlite_url("old-tokens");
    let db = tokio::sync::Mutex::new(
        sqlx::SqliteConnection::connect_with(
            &url.parse::<sqlx::sqlite::SqliteConnectOptions>()
                .unwrap()
                .create_if_missing(true),
        )
        .await
        .unwrap(),
    );
    let (id, gm, heroes) = an_old_fight(run_on!(db)).await;
    db.into_inner().close().await.unwrap();
    let hashes = old_links_still_work(&url, &id, &gm, &heroes).await;
    assert_eq!(hashes, vec![hash(&gm), hash(&heroes)]);
}

#[tokio::test]
async fn a_postgres_database_with_clear_tokens_is_migrated() {
    let Ok(url) = std::env::var("FRAY_TEST_PG_URL") else {
        eprintln!("skipped: FRAY_TEST_PG_URL is not set (no PostgreSQL to test against)");
        return;
    };
    // A database of its own: the shared one is already migrated.
    let name = format!("fray_old_{}", fray_serve::token::fight_id().unwrap());
    let mut admin = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    let own = format!("{}/{name}", url.rsplit_once('/').unwrap().0);
    let db = tokio::sync::Mutex::new(sqlx::PgConnection::connect(&own).await.unwrap());
    let (id, gm, heroes) = an_old_fight(run_on!(db)).await;
    db.into_inner().close().await.unwrap();
    let hashes = old_links_still_work(&own, &id, &gm, &heroes).await;
    assert_eq!(hashes, vec![hash(&gm), hash(&heroes)]);
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .unwrap();
}
