//! The API through a real listener on 127.0.0.1: creating fights, views per role, answers
//! with their permissions and conflicts, undo/redo, interventions, odds, simulation, the log,
//! WebSocket pushes, limits, and a fight resumed by a restarted server.

mod common;

use common::{duel, simple_answer, tokens, TestServer};
use fray_serve::Limits;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

async fn view(s: &TestServer, id: &str, token: &str) -> Value {
    let (status, body) = s
        .call("GET", &format!("/api/v1/fights/{id}"), Some(token), None)
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn answer(
    s: &TestServer,
    id: &str,
    token: &str,
    version: &Value,
    text: &str,
) -> (u16, Value) {
    s.call(
        "POST",
        &format!("/api/v1/fights/{id}/answer"),
        Some(token),
        Some(json!({ "version": version, "answer": text })),
    )
    .await
}

/// Answers the waiting request as whoever is asked (the heroes' player for the fighters, the
/// GM for the rest); returns false when the fight is over.
async fn step(s: &TestServer, id: &str, gm: &str, heroes: &str) -> bool {
    let player = view(s, id, heroes).await;
    let (token, v) = if player["pending"].is_null() {
        (gm, view(s, id, gm).await)
    } else {
        (heroes, player)
    };
    if v["pending"].is_null() {
        assert!(!v["over"].is_null(), "nothing asked but not over: {v}");
        return false;
    }
    let (status, body) = answer(s, id, token, &v["version"], &simple_answer(&v["pending"])).await;
    assert_eq!(status, 200, "{body}");
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fight_is_created_viewed_answered_undone_and_resumed_after_a_restart() {
    let (db, _) = common::sqlite_url("api");
    let s = TestServer::start(&db, Limits::default()).await;

    // Creating needs the server's key; a broken encounter says what is wrong.
    let (status, body) = s
        .call(
            "POST",
            "/api/v1/fights",
            None,
            Some(json!({ "encounter": duel(9) })),
        )
        .await;
    assert_eq!(status, 401, "{body}");
    let (status, body) = s
        .call(
            "POST",
            "/api/v1/fights",
            Some(&s.key),
            Some(json!({ "encounter": "schema = 1\nruleset = \"nope\"", "name": "bad.toml" })),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("bad.toml"),
        "{body}"
    );

    let created = s.create(&duel(9), 7).await;
    let (id, gm, heroes, orcs) = tokens(&created);
    assert_eq!(gm.len(), 64);
    assert!(created["gm"]["url"].as_str().unwrap().contains(&gm));
    let (status, listed) = s.call("GET", "/api/v1/fights", Some(&s.key), None).await;
    assert_eq!(status, 200);
    assert_eq!(listed[0]["id"], id.as_str());

    // A wrong token and an unknown fight get the same answer.
    let (status, a) = s
        .call("GET", &format!("/api/v1/fights/{id}"), Some("wrong"), None)
        .await;
    let (_, b) = s.call("GET", "/api/v1/fights/0123", Some(&gm), None).await;
    assert_eq!((status, &a), (404, &b));

    // A GM intervention, in fray run's grammar, before anyone answers.
    let g0 = view(&s, &id, &gm).await;
    let (status, body) = s
        .call(
            "POST",
            &format!("/api/v1/fights/{id}/intervene"),
            Some(&gm),
            Some(json!({ "version": g0["version"], "command": "hp orc-1 -2" })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seq"], 1);

    // The GM sees the orcs' hit points; the heroes' player does not, nor the answer count.
    let g = view(&s, &id, &gm).await;
    let p = view(&s, &id, &heroes).await;
    let orc = |v: &Value| {
        v["combatants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "orc-1")
            .cloned()
            .unwrap()
    };
    assert_eq!((&orc(&g)["hp"], &orc(&g)["max_hp"]), (&json!(7), &json!(9)));
    assert!(orc(&p).get("hp").is_none(), "{p}");
    assert_eq!(g["seq"], 1);
    assert!(p.get("seq").is_none());
    assert_eq!(p["viewer"], "side:heroes");
    let fighter = p["combatants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "fighter-1")
        .unwrap();
    assert_eq!(fighter["hp"], 24);

    // The orcs' side (the GM's, played by fray) is never asked anything.
    let o = view(&s, &id, &orcs).await;
    assert!(o["pending"].is_null(), "{o}");

    // Whoever is asked answers; a stale version is a conflict; a player may not undo.
    assert!(step(&s, &id, &gm, &heroes).await);
    let g1 = view(&s, &id, &gm).await;
    assert_eq!(g1["seq"], 2);
    let (status, body) = answer(&s, &id, &gm, &g["version"], "r").await;
    assert_eq!(status, 409, "{body}");
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("changed since your view"));
    let p1 = view(&s, &id, &heroes).await;
    let (status, body) = s
        .call(
            "POST",
            &format!("/api/v1/fights/{id}/undo"),
            Some(&heroes),
            Some(json!({ "version": p1["version"] })),
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str().unwrap()),
        (403, "only the GM undoes, redoes and intervenes")
    );

    // An impossible answer is refused with fray run's message, and changes nothing.
    let asked = if p1["pending"].is_null() {
        &gm
    } else {
        &heroes
    };
    let v = view(&s, &id, asked).await;
    let bad = if v["pending"]["kind"] == "roll" {
        "999"
    } else {
        "dance a jig"
    };
    let (status, body) = answer(&s, &id, asked, &v["version"], bad).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(view(&s, &id, asked).await["version"], v["version"]);

    // A player answering when nothing is asked of their side is told so.
    if p1["pending"].is_null() {
        let (status, body) = answer(&s, &id, &heroes, &p1["version"], "r").await;
        assert_eq!(
            (status, body["error"].as_str().unwrap()),
            (403, "nothing is asked of your side")
        );
    }

    // Undo takes the answer back (the GM's view is as before), redo gives it again.
    let (status, undone) = s
        .call(
            "POST",
            &format!("/api/v1/fights/{id}/undo"),
            Some(&gm),
            Some(json!({ "version": g1["version"] })),
        )
        .await;
    assert_eq!(status, 200, "{undone}");
    assert_eq!(undone["events"], g["events"]);
    assert_eq!(undone["seq"], 3, "undo is an entry of the log too");
    let (status, redone) = s
        .call(
            "POST",
            &format!("/api/v1/fights/{id}/redo"),
            Some(&gm),
            Some(json!({ "version": undone["version"] })),
        )
        .await;
    assert_eq!(status, 200, "{redone}");
    assert_eq!(redone["events"], g1["events"]);

    // A bad intervention says why.
    let (status, body) = s
        .call(
            "POST",
            &format!("/api/v1/fights/{id}/intervene"),
            Some(&gm),
            Some(json!({ "version": redone["version"], "command": "juggle orc-1" })),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("not an intervention"),
        "{body}"
    );

    // Odds and simulations read GM-only facts.
    let (status, odds) = s
        .call(
            "GET",
            &format!("/api/v1/fights/{id}/odds?attacker=fighter-1&target=orc-1"),
            Some(&gm),
            None,
        )
        .await;
    assert_eq!(status, 200, "{odds}");
    assert!(odds["hit_p"].as_f64().unwrap() > 0.0);
    let (status, _) = s
        .call(
            "GET",
            &format!("/api/v1/fights/{id}/odds?attacker=fighter-1&target=orc-1"),
            Some(&heroes),
            None,
        )
        .await;
    assert_eq!(status, 403);
    let (status, sim) = s
        .call(
            "GET",
            &format!("/api/v1/fights/{id}/sim?runs=50&seed=3"),
            Some(&gm),
            None,
        )
        .await;
    assert_eq!(status, 200, "{sim}");
    assert!(sim["text"].as_str().unwrap().contains("50 runs"), "{sim}");
    let (status, _) = s
        .call(
            "GET",
            &format!("/api/v1/fights/{id}/sim?runs=0"),
            Some(&gm),
            None,
        )
        .await;
    assert_eq!(status, 422);

    // Play on to the end.
    let mut steps = 0;
    while step(&s, &id, &gm, &heroes).await {
        steps += 1;
        assert!(steps < 2000, "the fight does not end");
    }
    let end = view(&s, &id, &gm).await;
    let (status, log) = s
        .call("GET", &format!("/api/v1/fights/{id}/log"), Some(&gm), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(log["seed"], "7");
    let entries = log["entries"].as_array().unwrap();
    assert_eq!(entries.len() as u64, end["seq"].as_u64().unwrap());
    assert!(entries.iter().any(|e| e["who"] == "side:heroes"));
    assert_eq!(
        entries[0]["action"],
        json!({ "do": "intervene", "text": "hp orc-1 -2" })
    );
    assert_eq!(entries[2]["action"], json!({ "do": "undo" }));
    assert_eq!(entries[3]["action"], json!({ "do": "redo" }));
    let (status, _) = s
        .call(
            "GET",
            &format!("/api/v1/fights/{id}/log"),
            Some(&heroes),
            None,
        )
        .await;
    assert_eq!(status, 403);

    // A new server on the same database resumes the fight exactly.
    let heroes_end = view(&s, &id, &heroes).await;
    s.stop().await;
    let s = TestServer::start(&db, Limits::default()).await;
    assert_eq!(view(&s, &id, &gm).await, end);
    assert_eq!(view(&s, &id, &heroes).await, heroes_end);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_concurrent_answers_to_one_request_one_wins() {
    let (db, _) = common::sqlite_url("race");
    let s = TestServer::start(&db, Limits::default()).await;
    let (id, gm, _, _) = tokens(&s.create(&duel(9), 11).await);
    let v = view(&s, &id, &gm).await;
    let text = simple_answer(&v["pending"]);
    let (a, b) = tokio::join!(
        answer(&s, &id, &gm, &v["version"], &text),
        answer(&s, &id, &gm, &v["version"], &text)
    );
    let mut statuses = [a.0, b.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{a:?} {b:?}");
    assert_eq!(view(&s, &id, &gm).await["seq"], 1);
    s.stop().await;
}

/// Opens a viewer's WebSocket.
async fn socket(
    s: &TestServer,
    id: &str,
    token: &str,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    let url = format!(
        "{}/api/v1/fights/{id}/ws?token={token}",
        s.base.replace("http", "ws")
    );
    tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket")
        .0
}

/// The next frame's text, or None when none comes within a short while.
async fn next_frame(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> Option<String> {
    match tokio::time::timeout(std::time::Duration::from_millis(500), ws.next()).await {
        Ok(Some(Ok(Message::Text(text)))) => Some(text.to_string()),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_push_each_viewers_view_when_it_changes() {
    let (db, _) = common::sqlite_url("ws");
    let s = TestServer::start(&db, Limits::default()).await;
    let (id, gm, heroes, _) = tokens(&s.create(&duel(9), 5).await);
    let mut gm_ws = socket(&s, &id, &gm).await;
    let mut hero_ws = socket(&s, &id, &heroes).await;
    let first: Value = serde_json::from_str(&next_frame(&mut gm_ws).await.unwrap()).unwrap();
    assert_eq!(first["type"], "view");
    assert_eq!(first["view"], view(&s, &id, &gm).await);
    let first: Value = serde_json::from_str(&next_frame(&mut hero_ws).await.unwrap()).unwrap();
    assert_eq!(first["view"], view(&s, &id, &heroes).await);

    // Each answer pushes the GM a new view; the player gets exactly their new view, or
    // nothing when nothing they can see changed.
    for _ in 0..6 {
        let before = view(&s, &id, &heroes).await;
        assert!(step(&s, &id, &gm, &heroes).await);
        let g: Value = serde_json::from_str(&next_frame(&mut gm_ws).await.unwrap()).unwrap();
        assert_eq!(g["view"], view(&s, &id, &gm).await);
        let now = view(&s, &id, &heroes).await;
        let pushed = next_frame(&mut hero_ws).await;
        if now["version"] == before["version"] {
            assert_eq!(pushed, None);
        } else {
            let p: Value = serde_json::from_str(&pushed.unwrap()).unwrap();
            assert_eq!(p["view"], now);
            let text = p.to_string();
            assert!(!text.contains("\"seq\""), "{text}");
        }
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_are_kept() {
    let (db, _) = common::sqlite_url("limits");
    let limits = Limits {
        fights: 1,
        entries: 2,
        sockets: 1,
        body_bytes: 64 * 1024,
        sim_runs: 100,
    };
    let s = TestServer::start(&db, limits).await;
    let (id, gm, _, _) = tokens(&s.create(&duel(9), 1).await);
    let (status, body) = s
        .call(
            "POST",
            "/api/v1/fights",
            Some(&s.key),
            Some(json!({ "encounter": duel(9) })),
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str().unwrap()),
        (429, "this server keeps at most 1 fights")
    );
    let (status, body) = s
        .call(
            "POST",
            "/api/v1/fights",
            Some(&s.key),
            Some(json!({ "encounter": "#".repeat(100_000) })),
        )
        .await;
    assert_eq!(status, 413, "{body}");
    assert!(body["error"].is_string(), "{body}");
    let (status, body) = s
        .call(
            "GET",
            &format!("/api/v1/fights/{id}/sim?runs=101"),
            Some(&gm),
            None,
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str().unwrap()),
        (422, "runs: from 1 to 100")
    );
    for _ in 0..2 {
        let v = view(&s, &id, &gm).await;
        let (status, body) =
            answer(&s, &id, &gm, &v["version"], &simple_answer(&v["pending"])).await;
        assert_eq!(status, 200, "{body}");
    }
    let v = view(&s, &id, &gm).await;
    let (status, body) = answer(&s, &id, &gm, &v["version"], &simple_answer(&v["pending"])).await;
    assert_eq!(
        (status, body["error"].as_str().unwrap()),
        (429, "a fight keeps at most 2 answers and commands")
    );
    let _held = socket(&s, &id, &gm).await;
    let url = format!(
        "{}/api/v1/fights/{id}/ws?token={gm}",
        s.base.replace("http", "ws")
    );
    let refused = tokio_tungstenite::connect_async(url).await;
    assert!(refused.is_err(), "a second socket is refused");
    let (status, body) = s.call("GET", "/api/v1/nothing", None, None).await;
    assert_eq!(status, 404, "{body}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_document_names_every_endpoint() {
    let (db, _) = common::sqlite_url("openapi");
    let s = TestServer::start(&db, Limits::default()).await;
    let (status, doc) = s.call("GET", "/api/v1/openapi.json", None, None).await;
    assert_eq!(status, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/api/v1/fights",
        "/api/v1/fights/{id}",
        "/api/v1/fights/{id}/answer",
        "/api/v1/fights/{id}/undo",
        "/api/v1/fights/{id}/redo",
        "/api/v1/fights/{id}/intervene",
        "/api/v1/fights/{id}/odds",
        "/api/v1/fights/{id}/sim",
        "/api/v1/fights/{id}/log",
        "/api/v1/fights/{id}/ws",
    ] {
        assert!(paths.contains_key(path), "{path} missing");
    }
    assert!(doc["components"]["schemas"]["ViewDoc"].is_object());
    // Every operation documents the errors met before its handler decides (schemathesis
    // checks the statuses against the document: scripts/schemathesis.sh).
    for (path, item) in paths {
        for (method, operation) in item.as_object().unwrap() {
            // A parameter is a path parameter exactly when the path names it; every other one
            // (odds' attacker, sim's runs, the socket's token, exact's max_work) is a query's.
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let name = parameter["name"].as_str().unwrap();
                let place = if path.contains(&format!("{{{name}}}")) {
                    "path"
                } else {
                    "query"
                };
                assert_eq!(parameter["in"], place, "{method} {path}: {name}");
            }
            let responses = operation["responses"].as_object().unwrap();
            for status in ["400", "401", "404"] {
                assert!(responses.contains_key(status), "{method} {path}: {status}");
            }
            if operation.get("requestBody").is_some() {
                for status in ["413", "415", "429"] {
                    assert!(responses.contains_key(status), "{method} {path}: {status}");
                }
            }
        }
    }
    // A query that does not read and a WebSocket request that is no handshake are JSON errors.
    let created = s.create(&duel(5), 1).await;
    let (id, gm, _, _) = tokens(&created);
    let (status, body) = s
        .call(
            "GET",
            &format!("/api/v1/fights/{id}/odds?runs=x"),
            Some(&gm),
            None,
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("target"), "{body}");
    let (status, body) = s
        .call(
            "GET",
            &format!("/api/v1/fights/{id}/ws?token={gm}"),
            None,
            None,
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].is_string(), "{body}");
    let (status, body) = s
        .call(
            "GET",
            &format!("/api/v1/fights/{id}/ws?token=nope"),
            None,
            None,
        )
        .await;
    assert_eq!(status, 404, "{body}");
    s.stop().await;
}
