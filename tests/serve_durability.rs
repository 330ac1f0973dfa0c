//! Durability of `fray serve` (issue 18): the real binary, with 100 fights answered as fast as
//! they can, is killed with SIGKILL; restarted on the same database, every answer it
//! acknowledged is in its fight's log (the export), every fight resumes (its view loads and a
//! further answer is accepted) and the database passes its integrity check
//! (`fray_serve::store::Store::check`). On SQLite always; on PostgreSQL too when
//! `FRAY_TEST_PG_URL` is set (otherwise that test says it is skipped). 127.0.0.1 only; every
//! wait is bounded.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Fights driven at once.
const FIGHTS: usize = 100;
/// Acknowledged answers after which the server is killed.
const ACKS_BEFORE_KILL: usize = 300;
/// Fewest acknowledged answers for the run to count (a slow machine may not reach the target
/// within [`DRIVE_LIMIT`]).
const ACKS_AT_LEAST: usize = 100;
/// Longest time the fights are driven before the kill, whatever the count.
const DRIVE_LIMIT: Duration = Duration::from_secs(20);
/// Longest wait for one request or for the server to start.
const WAIT: Duration = Duration::from_secs(15);
/// Twelve combatants, no players: the GM is asked everything, and the fight lasts.
const ENCOUNTER: &str = include_str!("../examples/cnc/bench.toml");

/// A `fray serve` process; killed (SIGKILL) when dropped.
struct Server {
    child: Child,
    addr: String,
    key: String,
}

impl Server {
    /// Starts `fray serve --db DB` on a free port of 127.0.0.1 and reads the address and key
    /// it prints.
    fn start(db: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
            .args(["serve", "--db", db, "--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("fray serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let first = rx
            .recv_timeout(WAIT)
            .expect("fray serve prints its address");
        let second = rx
            .recv_timeout(WAIT)
            .expect("fray serve prints the GM link");
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {first}"))
            .to_string();
        let key = second
            .split("?key=")
            .nth(1)
            .unwrap_or_else(|| panic!("no key in {second}"))
            .to_string();
        Server { child, addr, key }
    }

    /// `kill -9`, and waits for the process to be gone.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Decodes a chunked HTTP body.
fn unchunk(mut body: &str) -> Option<String> {
    let mut out = String::new();
    loop {
        let (size, rest) = body.split_once("\r\n")?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(out);
        }
        out.push_str(rest.get(..size)?);
        body = rest.get(size + 2..)?;
    }
}

/// One HTTP/1.1 request with the bearer `token`; the status and the JSON body. Any failure
/// (refused, reset, cut short, not JSON) is an error: the server did not acknowledge.
fn request(
    addr: &str,
    method: &str,
    path: &str,
    token: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), String> {
    let socket = addr.parse().map_err(|e| format!("{addr}: {e}"))?;
    let mut stream = TcpStream::connect_timeout(&socket, WAIT).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(WAIT))
        .map_err(|e| e.to_string())?;
    stream
        .set_write_timeout(Some(WAIT))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| e.to_string())?;
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .map_err(|e| e.to_string())?;
    let (head, body) = response
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("a response cut short: {response:?}"))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status in {head:?}"))?;
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        unchunk(body).ok_or_else(|| format!("a chunked body cut short: {body:?}"))?
    } else {
        body.to_string()
    };
    let json = serde_json::from_str(&body).map_err(|e| format!("not JSON ({e}): {body:?}"))?;
    Ok((status, json))
}

/// The answer to a pending request: fray rolls the dice; the first option of a choice.
fn answer_to(pending: &Value) -> String {
    match pending["kind"].as_str() {
        Some("roll") => "r".to_string(),
        _ => pending["options"][0]
            .as_str()
            .unwrap_or_else(|| panic!("a choice without options: {pending}"))
            .to_string(),
    }
}

/// A created fight: its id and the GM's token.
#[derive(Debug, Clone)]
struct Fight {
    id: String,
    gm: String,
}

/// What one driver saw: the answers acknowledged (sequence number, text), in order, and the
/// first failure seen while the server was meant to be up.
#[derive(Debug, Default)]
struct Driven {
    acked: Vec<(u64, String)>,
    failure: Option<String>,
}

/// Answers `fight`'s requests as the GM as fast as the server takes them, until the server is
/// gone, the fight asks nothing more or `killed` is set.
fn drive(addr: &str, fight: &Fight, acks: &AtomicUsize, killed: &AtomicBool) -> Driven {
    let mut driven = Driven::default();
    let path = format!("/api/v1/fights/{}", fight.id);
    let fail = |message: String, driven: &mut Driven| {
        if !killed.load(Ordering::SeqCst) {
            driven.failure = Some(message);
        }
    };
    let mut view = match request(addr, "GET", &path, &fight.gm, None) {
        Ok((200, view)) => view,
        Ok((status, body)) => {
            fail(format!("view: {status} {body}"), &mut driven);
            return driven;
        }
        Err(e) => {
            fail(format!("view: {e}"), &mut driven);
            return driven;
        }
    };
    while !killed.load(Ordering::SeqCst) && !view["pending"].is_null() {
        let seq = view["seq"].as_u64().expect("the GM's view has seq");
        let answer = answer_to(&view["pending"]);
        let body = json!({ "version": view["version"], "answer": answer });
        match request(
            addr,
            "POST",
            &format!("{path}/answer"),
            &fight.gm,
            Some(&body),
        ) {
            Ok((200, next)) => {
                driven.acked.push((seq, answer));
                acks.fetch_add(1, Ordering::SeqCst);
                view = next;
            }
            Ok((status, body)) => {
                fail(format!("answer {seq}: {status} {body}"), &mut driven);
                break;
            }
            Err(e) => {
                fail(format!("answer {seq}: {e}"), &mut driven);
                break;
            }
        }
    }
    driven
}

/// Checks one fight after the restart: every acknowledged answer is in its log in order,
/// nothing else but possibly the one answer in flight at the kill, and the fight resumes.
fn check_fight(addr: &str, fight: &Fight, driven: &Driven) {
    let path = format!("/api/v1/fights/{}", fight.id);
    let (status, log) = request(addr, "GET", &format!("{path}/log"), &fight.gm, None)
        .unwrap_or_else(|e| panic!("fight {}: log: {e}", fight.id));
    assert_eq!(status, 200, "fight {}: log: {log}", fight.id);
    let entries = log["entries"].as_array().expect("entries");
    let acked = &driven.acked;
    // One request at a time per fight: at most the one in flight at the kill is there unacked.
    assert!(
        entries.len() == acked.len() || entries.len() == acked.len() + 1,
        "fight {}: {} acknowledged answers, {} in the log",
        fight.id,
        acked.len(),
        entries.len()
    );
    for (i, entry) in entries.iter().enumerate() {
        assert_eq!(entry["seq"], i, "fight {}: {entry}", fight.id);
        assert_eq!(entry["who"], "gm", "fight {}: {entry}", fight.id);
    }
    for (seq, answer) in acked {
        let entry = &entries[usize::try_from(*seq).unwrap()];
        assert_eq!(
            entry["action"],
            json!({ "do": "answer", "text": answer }),
            "fight {}: acknowledged answer {seq} lost or changed",
            fight.id
        );
    }
    // It resumes: the view loads from the replayed log and a further answer is taken.
    let (status, view) = request(addr, "GET", &path, &fight.gm, None)
        .unwrap_or_else(|e| panic!("fight {}: view: {e}", fight.id));
    assert_eq!(status, 200, "fight {}: {view}", fight.id);
    assert_eq!(view["seq"], entries.len(), "fight {}", fight.id);
    assert!(!view["pending"].is_null(), "fight {}: {view}", fight.id);
    let body = json!({ "version": view["version"], "answer": answer_to(&view["pending"]) });
    let (status, after) = request(
        addr,
        "POST",
        &format!("{path}/answer"),
        &fight.gm,
        Some(&body),
    )
    .unwrap_or_else(|e| panic!("fight {}: answer: {e}", fight.id));
    assert_eq!(status, 200, "fight {}: {after}", fight.id);
    assert_eq!(after["seq"], entries.len() + 1, "fight {}", fight.id);
}

/// The whole test on the database `db`.
fn survives_kill_9(db: &str) {
    let mut server = Server::start(db);
    let fights: Vec<Fight> = (0..FIGHTS)
        .map(|i| {
            let body = json!({ "encounter": ENCOUNTER, "name": "bench.toml", "seed": i });
            let (status, created) = request(
                &server.addr,
                "POST",
                "/api/v1/fights",
                &server.key,
                Some(&body),
            )
            .expect("create a fight");
            assert_eq!(status, 201, "{created}");
            Fight {
                id: created["id"].as_str().expect("id").to_string(),
                gm: created["gm"]["token"].as_str().expect("token").to_string(),
            }
        })
        .collect();

    let acks = Arc::new(AtomicUsize::new(0));
    let killed = Arc::new(AtomicBool::new(false));
    let drivers: Vec<_> = fights
        .iter()
        .map(|fight| {
            let (addr, fight) = (server.addr.clone(), fight.clone());
            let (acks, killed) = (Arc::clone(&acks), Arc::clone(&killed));
            std::thread::spawn(move || drive(&addr, &fight, &acks, &killed))
        })
        .collect();
    let started = Instant::now();
    while acks.load(Ordering::SeqCst) < ACKS_BEFORE_KILL && started.elapsed() < DRIVE_LIMIT {
        std::thread::sleep(Duration::from_millis(1));
    }
    killed.store(true, Ordering::SeqCst);
    server.kill();
    let driven: Vec<Driven> = drivers
        .into_iter()
        .map(|d| d.join().expect("a driver panicked"))
        .collect();
    for (fight, d) in fights.iter().zip(&driven) {
        assert!(d.failure.is_none(), "fight {}: {:?}", fight.id, d.failure);
    }
    let total: usize = driven.iter().map(|d| d.acked.len()).sum();
    eprintln!(
        "{db}: {total} answers acknowledged in {:.1} s before kill -9",
        started.elapsed().as_secs_f64()
    );
    assert!(total >= ACKS_AT_LEAST, "only {total} answers acknowledged");

    let server = Server::start(db);
    for (fight, d) in fights.iter().zip(&driven) {
        check_fight(&server.addr, fight, d);
    }
    let checked = fray_serve::check_blocking(db).expect("the database passes its check");
    eprintln!("{db}: {checked}");
}

#[test]
fn sqlite_keeps_every_acknowledged_answer_through_kill_9() {
    let dir = std::env::temp_dir().join(format!("fray-durability-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    survives_kill_9(&format!("sqlite://{}", dir.join("fights.db").display()));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn postgres_keeps_every_acknowledged_answer_through_kill_9() {
    let Ok(url) = std::env::var("FRAY_TEST_PG_URL") else {
        eprintln!("skipped: FRAY_TEST_PG_URL is not set (no PostgreSQL to test against)");
        return;
    };
    survives_kill_9(&url);
}
