//! The store suite: the same checks against SQLite always and against PostgreSQL when
//! `FRAY_TEST_PG_URL` is set (`.ci/run` starts a throwaway cluster and sets it).

mod common;

use fray_serve::store::{self, FightSetup, LogEntry, Store, StoreError};

fn setup(id: &str) -> FightSetup {
    FightSetup {
        id: id.to_string(),
        created_ms: 1_700_000_000_000,
        name: "duel.toml".to_string(),
        encounter: common::duel(9),
        seed: u64::MAX,
        token_hashes: vec![
            (format!("{id}-gm"), "gm".to_string()),
            (format!("{id}-heroes"), "side:heroes".to_string()),
        ],
    }
}

fn entry(seq: u64, who: &str) -> LogEntry {
    LogEntry {
        seq,
        who: who.to_string(),
        at_ms: 1_700_000_000_000 + i64::try_from(seq).unwrap(),
        entry: format!(r#"{{"do":"answer","text":"{seq}"}}"#),
    }
}

/// Every check of the suite, on one store. Ids are unique per run, so a shared PostgreSQL
/// database may hold earlier runs' fights.
async fn suite(store: &dyn Store, run: &str) {
    let a = format!("{run}-a");
    let b = format!("{run}-b");
    let before = store.fight_count().await.unwrap();
    store.create_fight(&setup(&a)).await.unwrap();
    store.create_fight(&setup(&b)).await.unwrap();
    assert_eq!(store.fight_count().await.unwrap(), before + 2);

    // The setup comes back whole, the seed's 64 bits included.
    let got = store.fight(&a).await.unwrap().expect("fight a");
    assert_eq!(got, setup(&a));
    assert!(store.fight("no-such-fight").await.unwrap().is_none());
    assert_eq!(
        store.role_of(&format!("{a}-heroes")).await.unwrap(),
        Some((a.clone(), "side:heroes".to_string()))
    );
    assert_eq!(store.role_of("nobody").await.unwrap(), None);
    // A shared database may hold many newer fights (the durability test, the load benchmark).
    let listed = store.list_fights(u32::MAX).await.unwrap();
    assert!(listed.iter().any(|f| f.id == a) && listed.iter().any(|f| f.id == b));

    // The log: in order, per fight, from a sequence number on.
    for seq in 0..5 {
        store.append(&a, &entry(seq, "gm")).await.unwrap();
    }
    store.append(&b, &entry(0, "side:heroes")).await.unwrap();
    let log = store.log(&a, 0).await.unwrap();
    assert_eq!(log, (0..5).map(|s| entry(s, "gm")).collect::<Vec<_>>());
    assert_eq!(
        store.log(&a, 3).await.unwrap(),
        vec![entry(3, "gm"), entry(4, "gm")]
    );
    assert_eq!(
        store.log(&b, 0).await.unwrap(),
        vec![entry(0, "side:heroes")]
    );

    // A sequence number already taken is a conflict, and changes nothing.
    let taken = store.append(&a, &entry(2, "side:heroes")).await;
    assert!(
        matches!(taken, Err(StoreError::Conflict { seq: 2 })),
        "{taken:?}"
    );
    assert_eq!(store.log(&a, 2).await.unwrap()[0], entry(2, "gm"));

    // Two writers racing for the same number: exactly one wins.
    let (first, second) = (entry(1, "gm"), entry(1, "side:heroes"));
    let (x, y) = tokio::join!(store.append(&b, &first), store.append(&b, &second));
    assert_eq!(
        [x.is_ok(), y.is_ok()].iter().filter(|ok| **ok).count(),
        1,
        "{x:?} {y:?}"
    );
    assert_eq!(store.log(&b, 0).await.unwrap().len(), 2);

    // An entry for a fight that does not exist is refused (foreign key).
    assert!(store
        .append("no-such-fight", &entry(0, "gm"))
        .await
        .is_err());
    store.check().await.unwrap();
}

fn run_id() -> String {
    fray_serve::token::fight_id().unwrap()
}

#[tokio::test]
async fn sqlite_store_keeps_fights_and_logs() {
    let (url, file) = common::sqlite_url("store");
    let store = store::open(&url).await.unwrap();
    assert_eq!(store.kind(), "sqlite");
    suite(store.as_ref(), &run_id()).await;
    // Reopening runs no migration twice and keeps everything.
    drop(store);
    let again = store::open(&url).await.unwrap();
    assert_eq!(again.fight_count().await.unwrap(), 2);
    assert!(file.exists());
}

#[tokio::test]
async fn postgres_store_keeps_fights_and_logs() {
    let Ok(url) = std::env::var("FRAY_TEST_PG_URL") else {
        eprintln!("skipped: FRAY_TEST_PG_URL is not set (no PostgreSQL to test against)");
        return;
    };
    let store = store::open(&url).await.unwrap();
    assert_eq!(store.kind(), "postgres");
    suite(store.as_ref(), &run_id()).await;
    // A second process migrating the same database at once is fine.
    let (x, y) = tokio::join!(store::open(&url), store::open(&url));
    x.unwrap();
    y.unwrap();
}

#[tokio::test]
async fn an_unknown_database_url_is_refused() {
    let e = store::open("mysql://localhost/fray").await.unwrap_err();
    assert!(
        e.to_string().contains("sqlite://FILE or postgres://"),
        "{e}"
    );
}

/// A fight with a three-entry log that passes the check; returns its id.
async fn a_checked_log(store: &dyn Store, run: &str) -> String {
    let a = format!("{run}-gap");
    store.create_fight(&setup(&a)).await.unwrap();
    for seq in 0..3 {
        store.append(&a, &entry(seq, "gm")).await.unwrap();
    }
    let fine = store.check().await.unwrap();
    assert!(fine.contains("without gaps"), "{fine}");
    a
}

/// The statement that makes a hole in fight `id`'s log behind fray's back.
fn hole(id: &str) -> String {
    format!("DELETE FROM fight_log WHERE fight_id = '{id}' AND seq = 1")
}

/// The check fails on the hole, naming the fight.
async fn the_check_finds(store: &dyn Store, id: &str) {
    let e = store.check().await.unwrap_err();
    assert!(matches!(e, StoreError::Integrity(_)), "{e}");
    assert!(e.to_string().contains(id), "{e}");
}

#[tokio::test]
async fn sqlite_check_finds_a_gap_in_a_log() {
    let (url, file) = common::sqlite_url("gap");
    let store = store::open(&url).await.unwrap();
    let id = a_checked_log(store.as_ref(), &run_id()).await;
    let mut db = <sqlx::SqliteConnection as sqlx::Connection>::connect(&format!(
        "sqlite://{}",
        file.display()
    ))
    .await
    .unwrap();
    sqlx::query(&hole(&id)).execute(&mut db).await.unwrap();
    the_check_finds(store.as_ref(), &id).await;
}

/// On a database of its own (the check covers the whole database, and other tests share the
/// test database): with `amcheck` installed the heaps and indexes are verified too, and a gap
/// fails the check.
#[tokio::test]
async fn postgres_check_uses_amcheck_and_finds_a_gap() {
    let Ok(url) = std::env::var("FRAY_TEST_PG_URL") else {
        eprintln!("skipped: FRAY_TEST_PG_URL is not set (no PostgreSQL to test against)");
        return;
    };
    let name = format!("fray_check_{}", run_id());
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    let own = format!("{}/{name}", url.rsplit_once('/').unwrap().0);
    let store = store::open(&own).await.unwrap();
    let plain = store.check().await.unwrap();
    assert!(plain.contains("amcheck not installed"), "{plain}");
    let mut db = <sqlx::PgConnection as sqlx::Connection>::connect(&own)
        .await
        .unwrap();
    sqlx::query("CREATE EXTENSION amcheck")
        .execute(&mut db)
        .await
        .unwrap();
    let id = a_checked_log(store.as_ref(), &run_id()).await;
    let deep = store.check().await.unwrap();
    assert!(deep.contains("bt_index_check ok on 3 indexes"), "{deep}");
    sqlx::query(&hole(&id)).execute(&mut db).await.unwrap();
    the_check_finds(store.as_ref(), &id).await;
    drop(store);
    drop(db);
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .unwrap();
}
