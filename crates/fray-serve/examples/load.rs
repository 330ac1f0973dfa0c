//! The load benchmark of `fray serve` (issue 18; not a timed test): a server on 127.0.0.1 in
//! this process, `--fights N` fights of `examples/cnc/bench.toml` (twelve combatants; the fighters'
//! requests go to the GM's link, fray plays the orcs), each with its GM's WebSocket open and a task that answers its requests
//! as the GM one after another, all fights at once. Prints the answers per second and the
//! latency from sending an answer to the WebSocket push of the view it made (p50, p99), and
//! that of the HTTP acknowledgement.
//!
//! ```sh
//! cargo run --release -p fray-serve --example load -- --fights 100
//! cargo run --release -p fray-serve --example load -- --fights 1000 --db postgres://USER@HOST:PORT/DB
//! ```
//!
//! Options: `--fights N` (default 100), `--answers N` per fight (default 20), `--db URL`
//! (default a new SQLite file in a temporary directory), `--max-fights N` (the server's fight
//! limit, default the server's: raise it when the database already holds many fights).

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// The fight every task plays.
const ENCOUNTER: &str = include_str!("../../../examples/cnc/bench.toml");
/// Longest wait for one push or one response: a stuck server fails the run.
const WAIT: Duration = Duration::from_secs(60);

/// The options.
#[derive(Debug)]
struct Options {
    fights: usize,
    answers: usize,
    db: Option<String>,
    max_fights: Option<u64>,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        fights: 100,
        answers: 20,
        db: None,
        max_fights: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        let number = |v: String| v.parse::<usize>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--fights" => options.fights = number(value()?)?,
            "--answers" => options.answers = number(value()?)?,
            "--db" => options.db = Some(value()?),
            "--max-fights" => options.max_fights = Some(number(value()?)? as u64),
            other => {
                return Err(format!(
                    "unknown option {other}: give --fights N, --answers N, --db URL, --max-fights N"
                ))
            }
        }
    }
    Ok(options)
}

/// What one fight's task measured.
#[derive(Debug, Default)]
struct Measured {
    /// From sending each answer to its acknowledgement (HTTP 200).
    acked: Vec<Duration>,
    /// From sending each answer to the WebSocket push of the view it made.
    pushed: Vec<Duration>,
}

/// The answer to a pending request: fray rolls the dice; the first option of a choice.
fn answer_to(pending: &Value) -> Result<String, String> {
    match pending["kind"].as_str() {
        Some("roll") => Ok("r".to_string()),
        _ => pending["options"][0]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("a choice without options: {pending}")),
    }
}

/// Creates one fight; returns its id and the GM's token.
async fn create(
    client: &reqwest::Client,
    base: &str,
    key: &str,
    seed: usize,
) -> Result<(String, String), String> {
    let body = json!({ "encounter": ENCOUNTER, "name": "bench.toml", "seed": seed });
    let response = client
        .post(format!("{base}/api/v1/fights"))
        .bearer_auth(key)
        .json(&body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status();
    let created: Value = response.json().await.map_err(|e| e.to_string())?;
    if status != 201 {
        return Err(format!("creating a fight: {status} {created}"));
    }
    let text = |v: &Value| v.as_str().map(str::to_string).ok_or("no id or token");
    Ok((text(&created["id"])?, text(&created["gm"]["token"])?))
}

/// The next view the socket pushes.
async fn next_view<S>(ws: &mut S) -> Result<Value, String>
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        match tokio::time::timeout(WAIT, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                let frame: Value = serde_json::from_str(&t).map_err(|e| e.to_string())?;
                return Ok(frame["view"].clone());
            }
            Ok(Some(Ok(_))) => {}
            other => return Err(format!("no push: {other:?}")),
        }
    }
}

/// Opens the GM's socket, waits for `start`, then answers `answers` requests, each timed to
/// its acknowledgement and to the push of its view.
async fn play(
    client: reqwest::Client,
    base: String,
    (id, gm): (String, String),
    answers: usize,
    start: std::sync::Arc<tokio::sync::Barrier>,
) -> Result<Measured, String> {
    let ws_url = format!(
        "{}/api/v1/fights/{id}/ws?token={gm}",
        base.replace("http", "ws")
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_url)
        .await
        .map_err(|e| format!("websocket: {e}"))?;
    let mut view = next_view(&mut ws).await?;
    start.wait().await;
    let mut measured = Measured::default();
    let url = format!("{base}/api/v1/fights/{id}/answer");
    for _ in 0..answers {
        if view["pending"].is_null() {
            break;
        }
        let body = json!({ "version": view["version"], "answer": answer_to(&view["pending"])? });
        let sent = Instant::now();
        let response =
            tokio::time::timeout(WAIT, client.post(&url).bearer_auth(&gm).json(&body).send())
                .await
                .map_err(|_| "no acknowledgement".to_string())?
                .map_err(|e| e.to_string())?;
        let status = response.status();
        let after: Value = response.json().await.map_err(|e| e.to_string())?;
        if status != 200 {
            return Err(format!("answer: {status} {after}"));
        }
        measured.acked.push(sent.elapsed());
        let seq = after["seq"].as_u64().ok_or("no seq")?;
        loop {
            view = next_view(&mut ws).await?;
            if view["seq"].as_u64() >= Some(seq) {
                break;
            }
        }
        measured.pushed.push(sent.elapsed());
    }
    Ok(measured)
}

/// The `p`-th percentile of sorted durations, in milliseconds.
fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let options = options()?;
    let temp = std::env::temp_dir().join(format!("fray-load-{}", std::process::id()));
    let db = match &options.db {
        Some(db) => db.clone(),
        None => {
            std::fs::create_dir_all(&temp).map_err(|e| e.to_string())?;
            format!("sqlite://{}", temp.join("fights.db").display())
        }
    };
    let limits = fray_serve::Limits {
        fights: options
            .max_fights
            .unwrap_or(fray_serve::Limits::default().fights),
        ..fray_serve::Limits::default()
    };
    let server = fray_serve::Server::bind(&db, "127.0.0.1:0", limits)
        .await
        .map_err(|e| e.to_string())?;
    let base = format!("http://{}", server.addr().map_err(|e| e.to_string())?);
    let key = server.key().to_string();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));

    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(options.fights)
        .build()
        .map_err(|e| e.to_string())?;
    let mut fights = Vec::with_capacity(options.fights);
    for seed in 0..options.fights {
        fights.push(create(&client, &base, &key, seed).await?);
    }
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(options.fights + 1));
    let tasks: Vec<_> = fights
        .into_iter()
        .map(|fight| {
            let task = play(
                client.clone(),
                base.clone(),
                fight,
                options.answers,
                start.clone(),
            );
            tokio::spawn(task)
        })
        .collect();
    start.wait().await;
    let began = Instant::now();
    let mut acked = Vec::new();
    let mut pushed = Vec::new();
    for task in tasks {
        let measured = task.await.map_err(|e| e.to_string())??;
        acked.extend(measured.acked);
        pushed.extend(measured.pushed);
    }
    let elapsed = began.elapsed().as_secs_f64();
    let _ = stop.send(());
    let _ = serving.await;
    acked.sort_unstable();
    pushed.sort_unstable();
    let kind = db.split("://").next().unwrap_or("?");
    println!(
        "{kind}: {} fights, {} answers in {elapsed:.2} s: {:.0} answers/s; \
         answer to push p50 {:.1} ms, p99 {:.1} ms; answer to ack p50 {:.1} ms, p99 {:.1} ms",
        options.fights,
        pushed.len(),
        pushed.len() as f64 / elapsed,
        percentile(&pushed, 50.0),
        percentile(&pushed, 99.0),
        percentile(&acked, 50.0),
        percentile(&acked, 99.0),
    );
    if options.db.is_none() {
        std::fs::remove_dir_all(&temp).ok();
    }
    Ok(())
}
