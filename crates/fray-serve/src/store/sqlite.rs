//! The SQLite store: one file, write-ahead log, full sync, a busy timeout, foreign keys on.

use super::sql::sql_store;
use super::{
    is_unique_violation, seed_of, seed_text, seq_value, FightSetup, FightSummary, LogEntry, Store,
    StoreError, MIGRATIONS,
};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};
use std::time::Duration;

/// How long a writer waits for another to finish before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Fights kept in one SQLite file.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
}

/// SQLite takes `?` placeholders as they are.
fn sqlite_sql(sql: &str) -> String {
    sql.to_string()
}

impl SqliteStore {
    /// Opens (creating if needed) the database file at `path` and migrates it.
    pub async fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(BUSY_TIMEOUT)
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await
            .map_err(|e| StoreError::Database(format!("{path}: {e}")))?;
        let store = SqliteStore { pool };
        store.migrate(None).await?;
        Ok(store)
    }

    /// One process per SQLite file: there is nobody else to hear from.
    async fn listen(
        &self,
    ) -> Result<Option<tokio::sync::mpsc::UnboundedReceiver<String>>, StoreError> {
        Ok(None)
    }

    /// `PRAGMA integrity_check` must say `ok`.
    async fn integrity(&self) -> Result<(), StoreError> {
        let result: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(&self.pool)
            .await?;
        if result == "ok" {
            Ok(())
        } else {
            Err(StoreError::Database(format!("integrity check: {result}")))
        }
    }
}

sql_store!(SqliteStore, "sqlite", sqlite_sql, None);
