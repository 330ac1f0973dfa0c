//! The player-view property: two fights that differ only in GM-only facts (the orcs' hit
//! points) give byte-identical responses and WebSocket frames to the heroes' player, as long
//! as what the table sees is the same (nobody has fallen).

mod common;

use common::{duel, simple_answer, tokens, TestServer};
use fray_serve::Limits;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// Everything the heroes' player receives while the same answers are given in one fight.
struct Seen {
    responses: Vec<String>,
    frames: Vec<String>,
}

async fn play(s: &TestServer, orc_hp: u32, steps: usize) -> Seen {
    let (id, gm, heroes, _) = tokens(&s.create(&duel(orc_hp), 42).await);
    let url = format!(
        "{}/api/v1/fights/{id}/ws?token={heroes}",
        s.base.replace("http", "ws")
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket");
    let path = format!("/api/v1/fights/{id}");
    let mut seen = Seen {
        responses: Vec::new(),
        frames: Vec::new(),
    };
    for _ in 0..steps {
        let (status, text) = s.call_text("GET", &path, Some(&heroes), None).await;
        assert_eq!(status, 200);
        seen.responses.push(text.clone());
        let player: Value = serde_json::from_str(&text).unwrap();
        let ours = !player["pending"].is_null();
        let (_, g) = s.call("GET", &path, Some(&gm), None).await;
        let (token, v) = if ours { (&heroes, &player) } else { (&gm, &g) };
        if v["pending"].is_null() {
            break;
        }
        let body = json!({ "version": v["version"], "answer": simple_answer(&v["pending"]) });
        let (status, text) = s
            .call_text("POST", &format!("{path}/answer"), Some(token), Some(body))
            .await;
        assert_eq!(status, 200, "{text}");
        if ours {
            seen.responses.push(text);
        }
        // The player's answers to the GM's requests are refused the same way in both fights.
        if !ours {
            let body = json!({ "version": player["version"], "answer": "r" });
            let (status, text) = s
                .call_text("POST", &format!("{path}/answer"), Some(&heroes), Some(body))
                .await;
            seen.responses.push(format!("{status} {text}"));
        }
    }
    // The socket pushes the view as it is when it wakes, so a burst of changes may reach it as
    // one frame: read until the frame of the player's last view arrives, however loaded the
    // machine, rather than for a fixed quiet time.
    let (_, last) = s.call_text("GET", &path, Some(&heroes), None).await;
    let last: Value = serde_json::from_str(&last).unwrap();
    loop {
        let next = tokio::time::timeout(std::time::Duration::from_secs(60), ws.next()).await;
        let Ok(Some(Ok(Message::Text(frame)))) = next else {
            panic!("the player's last view was never pushed: {next:?}");
        };
        let view: Value = serde_json::from_str(&frame).unwrap();
        seen.frames.push(frame.to_string());
        if view["view"]["version"] == last["version"] {
            break;
        }
    }
    seen
}

/// The views among `responses`, by version.
fn views_by_version(responses: &[String]) -> std::collections::HashMap<String, Value> {
    responses
        .iter()
        .filter_map(|r| serde_json::from_str::<Value>(r).ok())
        .filter_map(|v| Some((v["version"].as_str()?.to_string(), v)))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gm_only_facts_never_change_what_a_player_receives() {
    let (db, _) = common::sqlite_url("property");
    let s = TestServer::start(&db, Limits::default()).await;
    // Orcs of 30 and 45 hit points: neither falls in the first dozen requests.
    let a = play(&s, 30, 12).await;
    let b = play(&s, 45, 12).await;
    assert!(a.responses.len() >= 12, "{}", a.responses.len());
    // The view changed after the socket opened, and the socket pushed the change.
    let first: Value = serde_json::from_str(&a.responses[0]).unwrap();
    let pushed: Value = serde_json::from_str(a.frames.last().unwrap()).unwrap();
    assert_ne!(
        pushed["view"]["version"], first["version"],
        "the player was pushed updates"
    );
    for (x, y) in a.responses.iter().zip(&b.responses) {
        assert_eq!(x, y);
    }
    assert_eq!(a.responses.len(), b.responses.len());
    // Which intermediate views a frame catches depends on when the socket wakes, but each
    // frame is a view the player was also given by GET, byte for byte, and both fights' sockets
    // end on the same view.
    for seen in [&a, &b] {
        let views = views_by_version(&seen.responses);
        for frame in &seen.frames {
            let frame: Value = serde_json::from_str(frame).unwrap();
            assert_eq!(frame["type"], "view");
            let version = frame["view"]["version"].as_str().expect("a version");
            assert_eq!(Some(&frame["view"]), views.get(version), "{version}");
        }
    }
    assert_eq!(a.frames.last(), b.frames.last());
    // The GM's views differ (the hit points are there), so the test can see a difference.
    let hp = |text: &str| text.contains("\"hp\":30") || text.contains("\"max_hp\":30");
    assert!(
        !a.responses.iter().any(|r| hp(r)),
        "a player saw the orcs' hit points"
    );
    s.stop().await;
}
