//! Two servers on one PostgreSQL database serve the same fight consistently: an answer given
//! through one reaches the WebSocket clients of the other (LISTEN/NOTIFY), and two answers to
//! the same request through both are resolved by the sequence number. Runs when
//! `FRAY_TEST_PG_URL` is set (`.ci/run` sets it); otherwise says it is skipped.

mod common;

use common::{duel, simple_answer, tokens, TestServer};
use fray_serve::Limits;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_through_one_server_reaches_the_others_sockets() {
    let Ok(url) = std::env::var("FRAY_TEST_PG_URL") else {
        eprintln!("skipped: FRAY_TEST_PG_URL is not set (no PostgreSQL to test against)");
        return;
    };
    let a = TestServer::start(&url, Limits::default()).await;
    let b = TestServer::start(&url, Limits::default()).await;
    let (id, gm, _, _) = tokens(&a.create(&duel(9), 3).await);
    let path = format!("/api/v1/fights/{id}");
    let ws_url = format!("{}{path}/ws?token={gm}", b.base.replace("http", "ws"));
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_url)
        .await
        .expect("websocket");
    let frame = |m: Option<Result<Message, _>>| match m {
        Some(Ok(Message::Text(t))) => serde_json::from_str::<Value>(&t).unwrap(),
        other => panic!("no frame: {other:?}"),
    };
    let first = frame(ws.next().await);
    assert_eq!(first["view"]["seq"], 0);

    // Answer through A: B's socket is pushed the new view.
    let (_, v) = a.call("GET", &path, Some(&gm), None).await;
    let body = json!({ "version": v["version"], "answer": simple_answer(&v["pending"]) });
    let (status, after) = a
        .call("POST", &format!("{path}/answer"), Some(&gm), Some(body))
        .await;
    assert_eq!(status, 200, "{after}");
    let pushed = tokio::time::timeout(std::time::Duration::from_secs(5), ws.next())
        .await
        .expect("B pushes within 5 s");
    assert_eq!(frame(pushed)["view"], after);

    // The same request answered through A and B at once: one wins, the other is a conflict.
    let (_, v) = b.call("GET", &path, Some(&gm), None).await;
    assert_eq!(v, after);
    let body = json!({ "version": v["version"], "answer": simple_answer(&v["pending"]) });
    let answer_path = format!("{path}/answer");
    let (x, y) = tokio::join!(
        a.call("POST", &answer_path, Some(&gm), Some(body.clone())),
        b.call("POST", &answer_path, Some(&gm), Some(body))
    );
    let mut statuses = [x.0, y.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{x:?} {y:?}");
    let (_, va) = a.call("GET", &path, Some(&gm), None).await;
    let (_, vb) = b.call("GET", &path, Some(&gm), None).await;
    assert_eq!(va, vb);
    assert_eq!(va["seq"], 2);
    a.stop().await;
    b.stop().await;
}
