//! The SQL both stores share, written once: a macro implements [`Store`](super::Store) for a
//! store type with a `pool` field, given how its placeholders are written.

/// Implements the migrations and [`Store`](super::Store) for `$store` (a struct with a `pool`),
/// its SQL passed through `$sql` (which numbers the `?` placeholders where the database wants);
/// `$notify`, when `Some`, is run with the fight's id in each append's transaction (to tell
/// other processes, delivered on commit).
macro_rules! sql_store {
    ($store:ident, $kind:literal, $sql:path, $notify:expr) => {
        impl $store {
            /// Applies the migrations not yet applied, in one transaction, after `lock` (a
            /// statement that serialises concurrent migrations, where the database has one).
            async fn migrate(&self, lock: Option<&str>) -> Result<(), StoreError> {
                let mut tx = self.pool.begin().await?;
                if let Some(lock) = lock {
                    sqlx::query(lock).execute(&mut *tx).await?;
                }
                sqlx::query("CREATE TABLE IF NOT EXISTS fray_schema (version BIGINT NOT NULL)")
                    .execute(&mut *tx)
                    .await?;
                let done: Option<i64> = sqlx::query_scalar("SELECT MAX(version) FROM fray_schema")
                    .fetch_one(&mut *tx)
                    .await?;
                let done = usize::try_from(done.unwrap_or(0)).unwrap_or(0);
                for (i, step) in MIGRATIONS.iter().enumerate().skip(done) {
                    match step {
                        Migration::Sql(sql) => {
                            sqlx::query(sql).execute(&mut *tx).await?;
                        }
                        Migration::HashTokens => {
                            let clear: Vec<String> =
                                sqlx::query_scalar("SELECT token FROM fight_tokens")
                                    .fetch_all(&mut *tx)
                                    .await?;
                            for token in clear {
                                sqlx::query(&$sql("UPDATE fight_tokens SET token = ? WHERE token = ?"))
                                    .bind(crate::token::hash(&token))
                                    .bind(&token)
                                    .execute(&mut *tx)
                                    .await?;
                            }
                        }
                    }
                    sqlx::query(&$sql("INSERT INTO fray_schema (version) VALUES (?)"))
                        .bind(i64::try_from(i + 1).unwrap_or(i64::MAX))
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                Ok(())
            }
        }

        #[async_trait::async_trait]
        impl Store for $store {
            fn kind(&self) -> &'static str {
                $kind
            }

            async fn check(&self) -> Result<String, StoreError> {
                let engine = self.integrity().await?;
                let gaps: Vec<String> = sqlx::query_scalar(LOG_GAPS).fetch_all(&self.pool).await?;
                if !gaps.is_empty() {
                    return Err(StoreError::Integrity(format!(
                        "the log of fight {} is not numbered from 0 without gaps",
                        gaps.join(", ")
                    )));
                }
                let orphans: i64 = sqlx::query_scalar(LOG_ORPHANS).fetch_one(&self.pool).await?;
                if orphans != 0 {
                    return Err(StoreError::Integrity(format!(
                        "{orphans} log entries belong to no fight"
                    )));
                }
                let fights: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM fights")
                    .fetch_one(&self.pool)
                    .await?;
                let entries: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM fight_log")
                    .fetch_one(&self.pool)
                    .await?;
                Ok(format!(
                    "{engine}; {fights} fights, {entries} log entries, each log numbered from 0 \
                     without gaps"
                ))
            }

            async fn changes(
                &self,
            ) -> Result<Option<tokio::sync::mpsc::UnboundedReceiver<String>>, StoreError> {
                self.listen().await
            }

            async fn create_fight(&self, setup: &FightSetup) -> Result<(), StoreError> {
                let mut tx = self.pool.begin().await?;
                sqlx::query(&$sql("INSERT INTO fights (id, created_ms, name, encounter, seed) VALUES (?, ?, ?, ?, ?)"),
                )
                .bind(&setup.id)
                .bind(setup.created_ms)
                .bind(&setup.name)
                .bind(&setup.encounter)
                .bind(seed_text(setup.seed))
                .execute(&mut *tx)
                .await?;
                for (token_hash, role) in &setup.token_hashes {
                    sqlx::query(&$sql("INSERT INTO fight_tokens (token_hash, fight_id, role) VALUES (?, ?, ?)"))
                        .bind(token_hash)
                        .bind(&setup.id)
                        .bind(role)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn fight_count(&self) -> Result<u64, StoreError> {
                let n: i64 = sqlx::query_scalar(&$sql("SELECT COUNT(*) FROM fights"))
                    .fetch_one(&self.pool)
                    .await?;
                Ok(u64::try_from(n).unwrap_or(0))
            }

            async fn list_fights(&self, limit: u32) -> Result<Vec<FightSummary>, StoreError> {
                let rows = sqlx::query(&$sql("SELECT id, name, created_ms FROM fights ORDER BY created_ms DESC, id LIMIT ?"),
                )
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok(FightSummary {
                            id: r.try_get("id")?,
                            name: r.try_get("name")?,
                            created_ms: r.try_get("created_ms")?,
                        })
                    })
                    .collect()
            }

            async fn fight(&self, id: &str) -> Result<Option<FightSetup>, StoreError> {
                let Some(row) =
                    sqlx::query(&$sql("SELECT id, created_ms, name, encounter, seed FROM fights WHERE id = ?"))
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?
                else {
                    return Ok(None);
                };
                let token_hashes = sqlx::query(&$sql("SELECT token_hash, role FROM fight_tokens WHERE fight_id = ? ORDER BY role, token_hash"),
                )
                .bind(id)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| Ok((r.try_get("token_hash")?, r.try_get("role")?)))
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
                Ok(Some(FightSetup {
                    id: row.try_get("id")?,
                    created_ms: row.try_get("created_ms")?,
                    name: row.try_get("name")?,
                    encounter: row.try_get("encounter")?,
                    seed: seed_of(&row.try_get::<String, _>("seed")?)?,
                    token_hashes,
                }))
            }

            async fn role_of(&self, token_hash: &str) -> Result<Option<(String, String)>, StoreError> {
                let row = sqlx::query(&$sql("SELECT fight_id, role FROM fight_tokens WHERE token_hash = ?"))
                    .bind(token_hash)
                    .fetch_optional(&self.pool)
                    .await?;
                Ok(match row {
                    Some(r) => Some((r.try_get("fight_id")?, r.try_get("role")?)),
                    None => None,
                })
            }

            async fn append(&self, fight_id: &str, entry: &LogEntry) -> Result<(), StoreError> {
                let mut tx = self.pool.begin().await?;
                let result = sqlx::query(&$sql(
                    "INSERT INTO fight_log (fight_id, seq, who, at_ms, entry) VALUES (?, ?, ?, ?, ?)",
                ))
                .bind(fight_id)
                .bind(seq_value(entry.seq)?)
                .bind(&entry.who)
                .bind(entry.at_ms)
                .bind(&entry.entry)
                .execute(&mut *tx)
                .await;
                match result {
                    Ok(_) => {}
                    Err(e) if is_unique_violation(&e) => {
                        return Err(StoreError::Conflict { seq: entry.seq })
                    }
                    Err(e) => return Err(e.into()),
                }
                let notify: Option<&str> = $notify;
                if let Some(notify) = notify {
                    sqlx::query(notify).bind(fight_id).execute(&mut *tx).await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn log(&self, fight_id: &str, from: u64) -> Result<Vec<LogEntry>, StoreError> {
                let rows = sqlx::query(&$sql("SELECT seq, who, at_ms, entry FROM fight_log WHERE fight_id = ? AND seq >= ? \
                     ORDER BY seq"),
                )
                .bind(fight_id)
                .bind(seq_value(from)?)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok(LogEntry {
                            seq: u64::try_from(r.try_get::<i64, _>("seq")?).unwrap_or(0),
                            who: r.try_get("who")?,
                            at_ms: r.try_get("at_ms")?,
                            entry: r.try_get("entry")?,
                        })
                    })
                    .collect()
            }
        }
    };
}

pub(super) use sql_store;
