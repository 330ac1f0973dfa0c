//! The fights a server has open: each one's session (replayed from the store's log when first
//! asked for), its tokens, the channel that tells its WebSocket viewers something changed, and
//! the limits that keep one server within bounds.

use crate::action::{Action, ActionError};
use crate::store::{FightSetup, LogEntry, Store, StoreError};
use crate::view::{answers, view, Role};
use fray_core::audience::Viewer;
use fray_engine::session::Session;
use fray_engine::Library;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::{broadcast, Mutex};

/// The limits of one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most fights kept.
    pub fights: u64,
    /// Most log entries (answers, undos, interventions…) per fight.
    pub entries: u64,
    /// Most WebSocket connections per fight.
    pub sockets: usize,
    /// Largest request body, in bytes.
    pub body_bytes: usize,
    /// Most runs of one "who wins from here" simulation.
    pub sim_runs: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            fights: 10_000,
            entries: 20_000,
            sockets: 64,
            body_bytes: 1 << 20,
            sim_runs: 10_000,
        }
    }
}

/// Why a request about a fight failed; each maps to one HTTP status.
#[derive(Debug, thiserror::Error)]
pub enum FightError {
    /// No fight has this id and token (the same answer either way, so ids cannot be probed).
    #[error("no fight with this id and token")]
    NotFound,
    /// The role may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// The viewer answered from an old view, or another answer won the race.
    #[error("{0}")]
    Conflict(String),
    /// The answer or command was refused (the same message as `fray run`).
    #[error("{0}")]
    Refused(String),
    /// A limit was reached.
    #[error("{0}")]
    Limit(String),
    /// The store failed.
    #[error("{0}")]
    Store(StoreError),
    /// A stored log no longer replays (the content changed under it).
    #[error("{0}")]
    Broken(String),
}

impl From<StoreError> for FightError {
    fn from(e: StoreError) -> FightError {
        match e {
            StoreError::Conflict { .. } => FightError::Conflict(e.to_string()),
            e => FightError::Store(e),
        }
    }
}

impl From<ActionError> for FightError {
    fn from(e: ActionError) -> FightError {
        FightError::Refused(e.to_string())
    }
}

/// A fight's session and how much of the stored log it has replayed.
#[derive(Debug)]
pub struct Live {
    /// The session.
    pub session: Session,
    /// How many log entries it has applied (the next entry's sequence number).
    pub seq: u64,
}

/// One open fight.
#[derive(Debug)]
pub struct Fight {
    /// Its id.
    pub id: String,
    /// Its tokens as stored: hash of the token → role (the tokens themselves are not kept).
    token_hashes: HashMap<String, Role>,
    /// The token each role last opened the fight with here, in memory only: a page's links
    /// carry it ([`Fight::token_of`]).
    presented: std::sync::Mutex<Vec<(Role, String)>>,
    /// The session, one writer at a time.
    pub live: Mutex<Live>,
    /// Tells the fight's sockets that it changed.
    pub changed: broadcast::Sender<()>,
    /// Its open WebSockets.
    sockets: AtomicUsize,
}

impl Fight {
    /// The role `token` opens in this fight: looked up by the token's hash, as stored.
    pub fn role(&self, token: &str) -> Option<&Role> {
        let role = self.token_hashes.get(&crate::token::hash(token))?;
        if let Ok(mut presented) = self.presented.lock() {
            match presented.iter_mut().find(|(r, _)| r == role) {
                Some((_, known)) => token.clone_into(known),
                None => presented.push((role.clone(), token.to_string())),
            }
        }
        Some(role)
    }

    /// The token of `role`, to build its page's links: the one it opened the fight with
    /// (through [`Fight::role`]) in this process; `None` before it has.
    pub fn token_of(&self, role: &Role) -> Option<String> {
        let presented = self.presented.lock().ok()?;
        presented
            .iter()
            .find(|(r, _)| r == role)
            .map(|(_, token)| token.clone())
    }

    /// Takes a WebSocket slot, or says the limit is reached.
    pub fn open_socket(self: &Arc<Self>, limit: usize) -> Result<SocketSlot, FightError> {
        let before = self.sockets.fetch_add(1, Ordering::SeqCst);
        let slot = SocketSlot {
            fight: Arc::clone(self),
        };
        if before >= limit {
            return Err(FightError::Limit(format!(
                "at most {limit} connections per fight"
            )));
        }
        Ok(slot)
    }
}

/// A WebSocket's slot in its fight's count: given back when dropped.
#[derive(Debug)]
pub struct SocketSlot {
    fight: Arc<Fight>,
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        self.fight.sockets.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Every fight this server has open, over one store.
#[derive(Debug)]
pub struct Fights {
    store: Box<dyn Store>,
    library: Library,
    /// The limits.
    pub limits: Limits,
    open: Mutex<HashMap<String, Arc<Fight>>>,
    /// Serialises fight creation, so the fight limit holds.
    creating: Mutex<()>,
}

/// A new fight's tokens, as returned to whoever created it.
#[derive(Debug, Clone)]
pub struct Created {
    /// The fight's id.
    pub id: String,
    /// The GM's token.
    pub gm_token: String,
    /// Per side, in encounter order: its key, its name, its players' token.
    pub sides: Vec<(String, String, String)>,
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Fights {
    /// The fights kept in `store`.
    pub fn new(store: Box<dyn Store>, library: Library, limits: Limits) -> Fights {
        Fights {
            store,
            library,
            limits,
            open: Mutex::new(HashMap::new()),
            creating: Mutex::new(()),
        }
    }

    /// The store.
    pub fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    /// Creates a fight from encounter `text` (named `name` in messages) with fray's dice
    /// seeded by `seed` (random when `None`): one GM token and one token per side.
    pub async fn create(
        &self,
        name: &str,
        text: &str,
        seed: Option<u64>,
    ) -> Result<Created, FightError> {
        let seed = match seed {
            Some(seed) => seed,
            None => crate::token::random_seed().map_err(FightError::Broken)?,
        };
        let session = Session::new(name, text, &self.library, seed)
            .map_err(|e| FightError::Refused(e.to_string()))?;
        let token = || crate::token::token().map_err(FightError::Broken);
        let gm_token = token()?;
        let mut sides = Vec::new();
        for side in &session.roster().sides {
            sides.push((side.key.clone(), side.name.clone(), token()?));
        }
        let id = crate::token::fight_id().map_err(FightError::Broken)?;
        let mut token_hashes = vec![(crate::token::hash(&gm_token), "gm".to_string())];
        token_hashes.extend(
            sides
                .iter()
                .map(|(key, _, t)| (crate::token::hash(t), format!("side:{key}"))),
        );
        let setup = FightSetup {
            id: id.clone(),
            created_ms: now_ms(),
            name: name.to_string(),
            encounter: text.to_string(),
            seed,
            token_hashes,
        };
        {
            let _one_at_a_time = self.creating.lock().await;
            let count = self.store.fight_count().await?;
            if count >= self.limits.fights {
                return Err(FightError::Limit(format!(
                    "this server keeps at most {} fights",
                    self.limits.fights
                )));
            }
            self.store.create_fight(&setup).await?;
        }
        self.open
            .lock()
            .await
            .insert(id.clone(), Arc::new(fight_of(&setup, session, 0)));
        Ok(Created {
            id,
            gm_token,
            sides,
        })
    }

    /// The open fight `id`, loaded from the store (and its log replayed) when not yet open.
    pub async fn get(&self, id: &str) -> Result<Arc<Fight>, FightError> {
        if let Some(fight) = self.open.lock().await.get(id) {
            return Ok(Arc::clone(fight));
        }
        if id.len() > 64 {
            return Err(FightError::NotFound);
        }
        let setup = self.store.fight(id).await?.ok_or(FightError::NotFound)?;
        let session = Session::new(&setup.name, &setup.encounter, &self.library, setup.seed)
            .map_err(|e| FightError::Broken(format!("fight {id}: {e}")))?;
        let fight = Arc::new(fight_of(&setup, session, 0));
        {
            let mut live = fight.live.lock().await;
            self.catch_up(&fight, &mut live).await?;
        }
        let mut open = self.open.lock().await;
        Ok(Arc::clone(open.entry(id.to_string()).or_insert(fight)))
    }

    /// The fight `id` and the role `token` has in it.
    pub async fn open(&self, id: &str, token: &str) -> Result<(Arc<Fight>, Role), FightError> {
        let fight = self.get(id).await?;
        let role = fight.role(token).cloned().ok_or(FightError::NotFound)?;
        Ok((fight, role))
    }

    /// Brings fight `id` up to date if it is open here (another process appended to it).
    pub async fn refresh(&self, id: &str) -> Result<(), FightError> {
        let fight = self.open.lock().await.get(id).map(Arc::clone);
        if let Some(fight) = fight {
            let mut live = fight.live.lock().await;
            self.catch_up(&fight, &mut live).await?;
        }
        Ok(())
    }

    /// Applies the entries another process wrote since `live` was last brought up to date;
    /// tells the fight's sockets when there were any.
    pub async fn catch_up(&self, fight: &Fight, live: &mut Live) -> Result<(), FightError> {
        let entries = self.store.log(&fight.id, live.seq).await?;
        if entries.is_empty() {
            return Ok(());
        }
        for entry in entries {
            let action: Action = serde_json::from_str(&entry.entry).map_err(|e| {
                FightError::Broken(format!("fight {}: entry {}: {e}", fight.id, entry.seq))
            })?;
            action
                .apply(&mut live.session, &self.library)
                .map_err(|e| {
                    FightError::Broken(format!(
                        "fight {}: entry {} ({}) no longer replays: {e}",
                        fight.id, entry.seq, entry.entry
                    ))
                })?;
            live.seq = entry.seq + 1;
        }
        let _ = fight.changed.send(());
        Ok(())
    }

    /// The view `role` has of `fight` now.
    pub async fn view(&self, fight: &Fight, role: &Role) -> Result<Value, FightError> {
        let mut live = fight.live.lock().await;
        self.catch_up(fight, &mut live).await?;
        view_of(&live, role)
    }

    /// The view `role` has of `fight` now and its log in words (`fray run`'s `log`, filtered
    /// for the role by the same audiences), taken together.
    pub async fn view_and_log(
        &self,
        fight: &Fight,
        role: &Role,
    ) -> Result<(Value, String), FightError> {
        let mut live = fight.live.lock().await;
        self.catch_up(fight, &mut live).await?;
        let viewer = viewer_of(&live, role)?;
        let log =
            fray_engine::render::text_log_for(viewer, live.session.events(), live.session.roster());
        Ok((view_of(&live, role)?, log))
    }

    /// Does `action` as `role`, from the view of version `version`: checks that the role may,
    /// that its view is current, applies it to a copy of the session, writes it to the store
    /// and only then keeps it. Returns the role's new view.
    pub async fn act(
        &self,
        fight: &Fight,
        role: &Role,
        version: &str,
        action: Action,
    ) -> Result<Value, FightError> {
        action.check()?;
        let mut live = fight.live.lock().await;
        self.catch_up(fight, &mut live).await?;
        let viewer = viewer_of(&live, role)?;
        if viewer != Viewer::Gm && !matches!(action, Action::Answer { .. }) {
            return Err(FightError::Forbidden(
                "only the GM undoes, redoes and intervenes".to_string(),
            ));
        }
        let now = view_of(&live, role)?;
        let current = now["version"].as_str().unwrap_or_default();
        if version != current {
            return Err(FightError::Conflict(format!(
                "the fight changed since your view (version {version}; now {current}): \
                 reload and answer again"
            )));
        }
        if viewer != Viewer::Gm {
            let roster = live.session.roster();
            let yours = live
                .session
                .pending()
                .is_some_and(|r| answers(viewer, r.asked(), roster));
            if !yours {
                return Err(FightError::Forbidden(
                    "nothing is asked of your side".to_string(),
                ));
            }
        }
        if live.seq >= self.limits.entries {
            return Err(FightError::Limit(format!(
                "a fight keeps at most {} answers and commands",
                self.limits.entries
            )));
        }
        let mut next = live.session.clone();
        action.apply(&mut next, &self.library)?;
        let entry = LogEntry {
            seq: live.seq,
            who: role.text(),
            at_ms: now_ms(),
            entry: serde_json::to_string(&action).unwrap_or_default(),
        };
        self.store.append(&fight.id, &entry).await?;
        live.session = next;
        live.seq += 1;
        let _ = fight.changed.send(());
        view_of(&live, role)
    }

    /// A copy of the fight's session as it stands (for odds and simulations, which take long).
    pub async fn snapshot(&self, fight: &Fight) -> Result<Session, FightError> {
        let mut live = fight.live.lock().await;
        self.catch_up(fight, &mut live).await?;
        Ok(live.session.clone())
    }
}

/// A fight, not yet in the open map.
fn fight_of(setup: &FightSetup, session: Session, seq: u64) -> Fight {
    let token_hashes = setup
        .token_hashes
        .iter()
        .filter_map(|(t, r)| Role::parse(r).map(|r| (t.clone(), r)))
        .collect();
    Fight {
        id: setup.id.clone(),
        token_hashes,
        presented: std::sync::Mutex::new(Vec::new()),
        live: Mutex::new(Live { session, seq }),
        changed: broadcast::channel(16).0,
        sockets: AtomicUsize::new(0),
    }
}

/// The viewer a role is in this fight.
fn viewer_of(live: &Live, role: &Role) -> Result<Viewer, FightError> {
    role.viewer(live.session.roster())
        .ok_or_else(|| FightError::Broken(format!("the role {} names no side", role.text())))
}

/// The role's view of the live fight.
pub fn view_of(live: &Live, role: &Role) -> Result<Value, FightError> {
    Ok(view(&live.session, viewer_of(live, role)?, live.seq))
}
