//! Where fights are kept: one [`Store`] trait with a SQLite and a PostgreSQL implementation.
//!
//! A fight is its setup (encounter text, name, seed) with one access token per role, and an
//! append-only log of what people did (answers, undo, redo, interventions), each entry with
//! its sequence number, who gave it and when. An entry is acknowledged only after its
//! transaction commits; two writers racing for the same sequence number get
//! [`StoreError::Conflict`] for all but one. PostgreSQL announces each append to every process
//! (LISTEN/NOTIFY on [`CHANNEL`]).

mod postgres;
mod sql;
mod sqlite;

pub use postgres::{PostgresStore, CHANNEL};
pub use sqlite::SqliteStore;

/// One step of the database schema.
#[derive(Debug, Clone, Copy)]
enum Migration {
    /// A statement.
    Sql(&'static str),
    /// Replaces each token stored in the clear (databases of migrations 1 to 3) by its hash
    /// ([`crate::token::hash`]): links given before keep working.
    HashTokens,
}

/// The database schema, one migration per entry, applied in order on start; the number of
/// migrations applied is kept in `fray_schema`.
const MIGRATIONS: &[Migration] = &[
    Migration::Sql(
        "CREATE TABLE fights (
        id TEXT PRIMARY KEY,
        created_ms BIGINT NOT NULL,
        name TEXT NOT NULL,
        encounter TEXT NOT NULL,
        seed TEXT NOT NULL
    )",
    ),
    Migration::Sql(
        "CREATE TABLE fight_tokens (
        token TEXT PRIMARY KEY,
        fight_id TEXT NOT NULL REFERENCES fights(id),
        role TEXT NOT NULL
    )",
    ),
    Migration::Sql(
        "CREATE TABLE fight_log (
        fight_id TEXT NOT NULL REFERENCES fights(id),
        seq BIGINT NOT NULL,
        who TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (fight_id, seq)
    )",
    ),
    Migration::HashTokens,
    Migration::Sql("ALTER TABLE fight_tokens RENAME COLUMN token TO token_hash"),
];

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another entry already has this sequence number (a concurrent answer won).
    #[error(
        "the fight changed meanwhile (entry {seq} was already written): reload and answer again"
    )]
    Conflict {
        /// The sequence number taken.
        seq: u64,
    },
    /// The database URL names no store fray knows.
    #[error("--db `{0}`: give sqlite://FILE or postgres://USER@HOST:PORT/DB")]
    Url(String),
    /// The database failed.
    #[error("database: {0}")]
    Database(String),
    /// The integrity check found something wrong.
    #[error("integrity check: {0}")]
    Integrity(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

/// A new fight's setup and tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FightSetup {
    /// The fight's id (random, unguessable).
    pub id: String,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// The encounter's file name, for messages.
    pub name: String,
    /// The encounter's TOML text.
    pub encounter: String,
    /// The seed of fray's dice.
    pub seed: u64,
    /// The access tokens as stored: `(hash of the token, role)` ([`crate::token::hash`]),
    /// role `gm` or `side:KEY`. The tokens themselves are never stored.
    pub token_hashes: Vec<(String, String)>,
}

/// One entry of a fight's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    /// Its position in the log, from 0, without gaps.
    pub seq: u64,
    /// Who gave it: `gm` or `side:KEY`.
    pub who: String,
    /// When, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// What was done, as JSON (see `crate::action::Action`).
    pub entry: String,
}

/// A fight in a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FightSummary {
    /// Its id.
    pub id: String,
    /// Its encounter's file name.
    pub name: String,
    /// When it was created (ms since the epoch).
    pub created_ms: i64,
}

/// Where fights are kept.
#[async_trait::async_trait]
pub trait Store: Send + Sync + std::fmt::Debug {
    /// Which kind of database (`sqlite`, `postgres`), for messages.
    fn kind(&self) -> &'static str;
    /// Saves a new fight with its tokens, in one transaction.
    async fn create_fight(&self, setup: &FightSetup) -> Result<(), StoreError>;
    /// How many fights are kept.
    async fn fight_count(&self) -> Result<u64, StoreError>;
    /// The most recent fights, newest first, at most `limit`.
    async fn list_fights(&self, limit: u32) -> Result<Vec<FightSummary>, StoreError>;
    /// A fight's setup (its tokens included), if it exists.
    async fn fight(&self, id: &str) -> Result<Option<FightSetup>, StoreError>;
    /// The fight and role the token whose hash is `token_hash` opens, if any.
    async fn role_of(&self, token_hash: &str) -> Result<Option<(String, String)>, StoreError>;
    /// Appends one entry; [`StoreError::Conflict`] when its sequence number is taken.
    /// Returns once the entry is committed.
    async fn append(&self, fight_id: &str, entry: &LogEntry) -> Result<(), StoreError>;
    /// A fight's log entries from sequence number `from` on, in order.
    async fn log(&self, fight_id: &str, from: u64) -> Result<Vec<LogEntry>, StoreError>;
    /// The ids of fights other processes appended to, as they do (PostgreSQL's
    /// LISTEN/NOTIFY); `None` where the database cannot tell (SQLite: one process).
    async fn changes(
        &self,
    ) -> Result<Option<tokio::sync::mpsc::UnboundedReceiver<String>>, StoreError>;
    /// Checks the database: the engine's own check (SQLite's `integrity_check` and
    /// `foreign_key_check`; on PostgreSQL a read of every row and, where the `amcheck`
    /// extension is installed, `verify_heapam` and `bt_index_check`), then fray's invariants
    /// (every log entry belongs to a fight; each fight's log numbered from 0 without gaps).
    /// Returns what was checked, for messages; [`StoreError::Integrity`] names what is wrong.
    async fn check(&self) -> Result<String, StoreError>;
}

/// Opens the store a `--db` URL names (`sqlite://FILE`, `postgres://…`) and runs its
/// migrations.
pub async fn open(url: &str) -> Result<Box<dyn Store>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Box::new(PostgresStore::open(url).await?))
    } else if let Some(path) = url.strip_prefix("sqlite://") {
        Ok(Box::new(SqliteStore::open(path).await?))
    } else {
        Err(StoreError::Url(url.to_string()))
    }
}

/// The seed as stored (text: SQL has no unsigned 64-bit integer).
fn seed_text(seed: u64) -> String {
    seed.to_string()
}

/// Reads a stored seed.
fn seed_of(text: &str) -> Result<u64, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Database(format!("a stored seed `{text}` is not a number")))
}

/// A sequence number as stored (BIGINT).
fn seq_value(seq: u64) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|_| StoreError::Database(format!("sequence number {seq} too large")))
}

/// fray's own invariants, checked by [`Store::check`] on both databases: the fights whose
/// log is not numbered from 0 without gaps, and the log entries of no fight.
const LOG_GAPS: &str = "SELECT fight_id FROM fight_log GROUP BY fight_id \
     HAVING MIN(seq) <> 0 OR COUNT(*) <> MAX(seq) + 1 ORDER BY fight_id";
const LOG_ORPHANS: &str =
    "SELECT COUNT(*) FROM fight_log WHERE fight_id NOT IN (SELECT id FROM fights)";

/// Whether a database error is a unique-key violation (a sequence number taken).
fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}
