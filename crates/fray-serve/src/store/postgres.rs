//! The PostgreSQL store: several `fray serve` processes may share it (migrations are
//! serialised by an advisory lock; concurrent answers by the log's primary key).

use super::sql::sql_store;
use super::{
    is_unique_violation, seed_of, seed_text, seq_value, FightSetup, FightSummary, LogEntry,
    Migration, Store, StoreError, LOG_GAPS, LOG_ORPHANS, MIGRATIONS,
};
use sqlx::postgres::{PgListener, PgPoolOptions};
use sqlx::{PgPool, Row};

/// The channel on which each append's fight id is announced to every process.
pub const CHANNEL: &str = "fray_fights";

/// The advisory lock key that serialises migrations ("fray" in ASCII).
const MIGRATION_LOCK: &str = "SELECT pg_advisory_xact_lock(1718772089)";

/// Fights kept in a PostgreSQL database.
#[derive(Debug, Clone)]
pub struct PostgresStore {
    pool: PgPool,
}

/// PostgreSQL numbers its placeholders: `?` becomes `$1`, `$2`… (fray's SQL has no `?` in
/// strings).
fn postgres_sql(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push_str(&format!("${n}"));
        } else {
            out.push(c);
        }
    }
    out
}

impl PostgresStore {
    /// Connects to the database at `url` and migrates it.
    pub async fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .connect(url)
            .await
            .map_err(|e| StoreError::Database(format!("{}: {e}", shown_url(url))))?;
        let store = PostgresStore { pool };
        store.migrate(Some(MIGRATION_LOCK)).await?;
        Ok(store)
    }

    /// Listens on [`CHANNEL`]: the ids of the fights another process (or this one) appended
    /// to. The listener reconnects by itself; entries appended while it was away are read by
    /// the next catch-up of their fight.
    async fn listen(
        &self,
    ) -> Result<Option<tokio::sync::mpsc::UnboundedReceiver<String>>, StoreError> {
        let mut listener = PgListener::connect_with(&self.pool).await?;
        listener.listen(CHANNEL).await?;
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            loop {
                match listener.recv().await {
                    Ok(note) => {
                        if tx.send(note.payload().to_string()).is_err() {
                            break;
                        }
                    }
                    Err(_) => tokio::time::sleep(std::time::Duration::from_millis(200)).await,
                }
            }
        });
        Ok(Some(rx))
    }

    /// Reads every row of fray's tables (a damaged page or value fails the read) and, where
    /// the `amcheck` extension is installed (`CREATE EXTENSION amcheck`, as a superuser),
    /// checks their heaps (`verify_heapam`) and B-tree indexes (`bt_index_check`).
    async fn integrity(&self) -> Result<String, StoreError> {
        sqlx::query(
            "SELECT (SELECT COALESCE(SUM(LENGTH(encounter) + LENGTH(name) + LENGTH(seed)), 0) \
                     FROM fights), \
                    (SELECT COALESCE(SUM(LENGTH(token_hash) + LENGTH(role)), 0) FROM fight_tokens), \
                    (SELECT COALESCE(SUM(LENGTH(entry) + LENGTH(who)), 0) FROM fight_log)",
        )
        .fetch_one(&self.pool)
        .await?;
        let amcheck: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'amcheck')",
        )
        .fetch_one(&self.pool)
        .await?;
        if !amcheck {
            return Ok("PostgreSQL: every row read (amcheck not installed)".to_string());
        }
        for table in TABLES {
            let damaged: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM verify_heapam($1::regclass)")
                    .bind(table)
                    .fetch_one(&self.pool)
                    .await?;
            if damaged != 0 {
                return Err(StoreError::Integrity(format!(
                    "verify_heapam found {damaged} damaged tuples in {table}"
                )));
            }
        }
        let indexes: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM (SELECT bt_index_check(i.indexrelid) FROM pg_index i \
             JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam \
             WHERE a.amname = 'btree' AND i.indrelid = ANY(ARRAY[$1::regclass, $2::regclass, \
             $3::regclass])) AS checked",
        )
        .bind(TABLES[0])
        .bind(TABLES[1])
        .bind(TABLES[2])
        .fetch_one(&self.pool)
        .await?;
        Ok(format!(
            "PostgreSQL: every row read, amcheck verify_heapam ok on {} tables, \
             bt_index_check ok on {indexes} indexes",
            TABLES.len()
        ))
    }
}

/// fray's tables, for the integrity check.
const TABLES: [&str; 3] = ["fights", "fight_tokens", "fight_log"];

/// The URL without its password, for messages.
fn shown_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

sql_store!(
    PostgresStore,
    "postgres",
    postgres_sql,
    Some("SELECT pg_notify('fray_fights', $1)")
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_in_order() {
        assert_eq!(
            postgres_sql("INSERT INTO t (a, b) VALUES (?, ?)"),
            "INSERT INTO t (a, b) VALUES ($1, $2)"
        );
    }

    #[test]
    fn a_password_is_not_shown() {
        assert_eq!(
            shown_url("postgres://fray:secret@127.0.0.1:5432/fray"),
            "postgres://fray:***@127.0.0.1:5432/fray"
        );
        assert_eq!(shown_url("postgres://fray@h/db"), "postgres://fray@h/db");
    }
}
