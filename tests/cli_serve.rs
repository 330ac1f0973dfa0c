//! `fray serve` as a person starts it: it prints its address, the GM link with the server's
//! key and where the API is documented, and serves them; a bad `--db` is refused.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

/// A plain HTTP/1.1 GET; returns the status line and the body.
fn get(addr: &str, path: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let status = response.lines().next().unwrap_or_default().to_string();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn serve_prints_the_gm_link_and_serves_the_api() {
    let dir = std::env::temp_dir().join(format!("fray-cli-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("fray serve starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let second = lines.next().unwrap().unwrap();
    let addr = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .expect("an address")
        .to_string();
    assert!(first.contains("fray-serve.db"), "{first}");
    assert!(second.starts_with("GM link"), "{second}");
    let key = second.split("?key=").nth(1).expect("the key");
    assert_eq!(key.len(), 64, "{second}");
    let (status, body) = get(&addr, "/api/v1/openapi.json");
    assert!(status.contains("200"), "{status}");
    let doc: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert!(doc["paths"]["/api/v1/fights"].is_object());
    let (status, body) = get(&addr, "/api/v1/fights");
    assert!(status.contains("401"), "{status}");
    assert!(body.contains("\"error\""), "{body}");
    child.kill().unwrap();
    child.wait().unwrap();
    // The default database is a SQLite file in the working directory.
    assert!(dir.join("fray-serve.db").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_unknown_database_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args([
            "serve",
            "--db",
            "mysql://localhost/x",
            "--addr",
            "127.0.0.1:0",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("give sqlite://FILE or postgres://"), "{err}");
}
