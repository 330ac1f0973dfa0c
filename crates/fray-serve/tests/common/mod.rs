//! What the integration tests share: temporary SQLite files, a server on 127.0.0.1, an HTTP
//! client that speaks the API, and a small fight with a player side.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// A fresh SQLite URL in a per-test temporary directory.
pub fn sqlite_url(name: &str) -> (String, PathBuf) {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "fray-serve-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("fights.db");
    (format!("sqlite://{}", file.display()), file)
}

/// Two fighters played by Alice against two orcs the GM runs (fray plays them); the orcs'
/// hit points are `orc_hp` (a GM-only fact).
pub fn duel(orc_hp: u32) -> String {
    format!(
        r#"schema = 1
ruleset = "cnc"
name = "Two fighters against two orcs"
max_rounds = 30

[[sides]]
id = "heroes"
name = "The heroes"
player = "alice"

[[sides]]
id = "orcs"
name = "The orcs"

[[combatants]]
id = "fighter"
name = "Fighter"
side = "heroes"
count = 2
at = [[0, 0], [0, 1]]
class = "fighter"
level = 3
hp = 24
scores = {{ str = 16, dex = 12, con = 14, int = 10, wis = 10, cha = 10 }}
weapon = "long sword"
armor = "chain mail"
shield = "medium shield"

[[combatants]]
id = "orc"
side = "orcs"
count = 2
at = [[2, 0], [2, 1]]
monster = "orc"
hp = {orc_hp}
"#
    )
}

/// A server on a free port of 127.0.0.1, serving until dropped.
pub struct TestServer {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The server's key.
    pub key: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: Option<tokio::task::JoinHandle<()>>,
}

impl TestServer {
    pub async fn start(db: &str, limits: fray_serve::Limits) -> TestServer {
        let server = fray_serve::Server::bind(db, "127.0.0.1:0", limits)
            .await
            .expect("server starts");
        let base = format!("http://{}", server.addr().expect("addr"));
        let key = server.key().to_string();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let done = tokio::spawn(async move {
            server
                .run(async {
                    let _ = stopped.await;
                })
                .await
                .expect("serves");
        });
        TestServer {
            base,
            key,
            stop: Some(stop),
            done: Some(done),
        }
    }

    /// Stops the server and waits until it has.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(done) = self.done.take() {
            let _ = done.await;
        }
    }

    /// Creates a fight; returns the response body.
    pub async fn create(&self, encounter: &str, seed: u64) -> Value {
        let (status, body) = self
            .call(
                "POST",
                "/api/v1/fights",
                Some(&self.key),
                Some(json!({ "encounter": encounter, "name": "duel.toml", "seed": seed })),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        body
    }

    /// One request; returns the status and the JSON body.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let (status, text) = self.call_text(method, path, token, body).await;
        let json = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        (status, json)
    }

    /// One request; returns the status and the body's bytes as text.
    pub async fn call_text(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, String) {
        let client = reqwest::Client::new();
        let url = format!("{}{path}", self.base);
        let mut request = match method {
            "GET" => client.get(url),
            "POST" => client.post(url),
            other => panic!("method {other}"),
        };
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        (status, response.text().await.expect("body"))
    }
}

/// The tokens of a created fight: (id, GM token, heroes' token, orcs' token).
pub fn tokens(created: &Value) -> (String, String, String, String) {
    let s = |v: &Value| v.as_str().expect("string").to_string();
    let side = |key: &str| {
        created["players"]
            .as_array()
            .expect("players")
            .iter()
            .find(|p| p["role"] == format!("side:{key}"))
            .map(|p| s(&p["token"]))
            .expect("side token")
    };
    (
        s(&created["id"]),
        s(&created["gm"]["token"]),
        side("heroes"),
        side("orcs"),
    )
}

/// The answer a test gives to a pending request: fray rolls the dice; the first option.
pub fn simple_answer(pending: &Value) -> String {
    match pending["kind"].as_str() {
        Some("roll") => "r".to_string(),
        _ => pending["options"][0]
            .as_str()
            .expect("a choice has options")
            .to_string(),
    }
}
