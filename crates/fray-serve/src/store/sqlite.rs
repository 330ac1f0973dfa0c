//! The SQLite store: one file, write-ahead log, full sync, a busy timeout, foreign keys on.

use super::sql::sql_store;
use super::{
    is_unique_violation, seed_of, seed_text, seq_value, FightSetup, FightSummary, LogEntry,
    Migration, Store, StoreError, LOG_GAPS, LOG_ORPHANS, MIGRATIONS,
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

    /// `PRAGMA integrity_check` must say `ok` and `PRAGMA foreign_key_check` find nothing.
    async fn integrity(&self) -> Result<String, StoreError> {
        let found: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_all(&self.pool)
            .await?;
        if found != ["ok"] {
            return Err(StoreError::Integrity(found.join("; ")));
        }
        let dangling = sqlx::query("PRAGMA foreign_key_check")
            .fetch_all(&self.pool)
            .await?
            .len();
        if dangling != 0 {
            return Err(StoreError::Integrity(format!(
                "{dangling} rows refer to a fight that does not exist"
            )));
        }
        Ok("SQLite integrity_check ok, foreign_key_check ok".to_string())
    }
}

sql_store!(SqliteStore, "sqlite", sqlite_sql, None);
