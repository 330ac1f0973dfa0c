//! "Who wins from here, exactly" (issue 17) through a real listener: the GM's answer is
//! `fray odds --fight`'s exact fractions, a player's token is refused, inside a round and past
//! the programme's limits it says why and points at the Monte Carlo `sim`, the GM's page has
//! the button and its HTML result, no more than `MAX_EXACT_JOBS` computations run at once, and
//! one still running when the server stops waiting (503) is answered from when it ends.
//! One test (one process): the running computations are counted over the whole server process.

mod common;

use common::{duel, tokens, TestServer};
use fray_serve::Limits;
use serde_json::{json, Value};

/// The C&C duel of docs/odds.md: its exact answer is known (`fray odds … --fight`).
const DUEL: &str = include_str!("../../../examples/cnc/duel.toml");

/// Spelljammer's duel, whose rounds have settled points inside them.
const SJ_DUEL: &str = include_str!("../../../examples/spelljammer/duel.toml");

async fn exact(s: &TestServer, id: &str, token: &str) -> (u16, Value) {
    exact_with(s, id, token, "").await
}

/// [`exact`] with `query` (`?max_work=N`, or nothing).
async fn exact_with(s: &TestServer, id: &str, token: &str, query: &str) -> (u16, Value) {
    s.call(
        "GET",
        &format!("/api/v1/fights/{id}/exact{query}"),
        Some(token),
        None,
    )
    .await
}

/// [`exact_with`], asked again while the computation is still running (as [`exact_when_done`]).
async fn exact_with_when_done(s: &TestServer, id: &str, token: &str, query: &str) -> (u16, Value) {
    for _ in 0..60 {
        let (status, body) = exact_with(s, id, token, query).await;
        if status != 503 {
            return (status, body);
        }
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    }
    panic!("the exact computation did not end in two minutes");
}

/// [`exact`], asked again while the computation is still running (503: a loaded machine may
/// take longer than the server waits), for at most two minutes.
async fn exact_when_done(s: &TestServer, id: &str, token: &str) -> (u16, Value) {
    for _ in 0..60 {
        let (status, body) = exact(s, id, token).await;
        if status != 503 {
            return (status, body);
        }
        assert!(
            body["error"].as_str().unwrap().contains("still running"),
            "{body}"
        );
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    }
    panic!("the exact computation did not end in two minutes");
}

async fn page(s: &TestServer, path: &str) -> String {
    let response = reqwest::get(format!("{}{path}", s.base)).await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    response.text().await.unwrap()
}

/// The GM answers the pending request of fight `id` with `text`.
async fn answer(s: &TestServer, id: &str, gm: &str, text: &str) {
    let (_, view) = s
        .call("GET", &format!("/api/v1/fights/{id}"), Some(gm), None)
        .await;
    let (status, answered) = s
        .call(
            "POST",
            &format!("/api/v1/fights/{id}/answer"),
            Some(gm),
            Some(json!({ "version": view["version"], "answer": text })),
        )
        .await;
    assert_eq!(status, 200, "{text}: {answered}");
}

fn created_ids(created: &Value) -> (String, String) {
    let s = |v: &Value| v.as_str().expect("string").to_string();
    (s(&created["id"]), s(&created["gm"]["token"]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exact_odds_from_here_for_the_gm_only_within_limits() {
    let (db, _) = common::sqlite_url("exact");
    let s = TestServer::start(&db, Limits::default()).await;

    // Several fights asked at once: at most MAX_EXACT_JOBS run, the others are refused (each
    // runs for a second or more; the requests leave together).
    let mut fights = Vec::new();
    for seed in 1..=4 {
        fights.push(created_ids(&s.create(DUEL, seed).await));
    }
    let calls: Vec<_> = fights
        .iter()
        .cloned()
        .map(|(id, gm)| {
            let (base, key) = (s.base.clone(), gm);
            tokio::spawn(async move {
                let response = reqwest::Client::new()
                    .get(format!("{base}/api/v1/fights/{id}/exact"))
                    .bearer_auth(key)
                    .send()
                    .await
                    .unwrap();
                let status = response.status().as_u16();
                (status, response.json::<Value>().await.unwrap())
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for call in calls {
        let (status, body) = call.await.unwrap();
        match status {
            200 => assert_eq!(body["sides"][0]["wins"]["exact"], "364871/829440", "{body}"),
            429 => assert!(
                body["error"]
                    .as_str()
                    .unwrap()
                    .contains("exact computations are running"),
                "{body}"
            ),
            // Still running after the server's wait: it goes on.
            503 => assert!(
                body["error"].as_str().unwrap().contains("still running"),
                "{body}"
            ),
            other => panic!("status {other}: {body}"),
        }
        statuses.push(status);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    assert!(
        statuses.iter().filter(|&&s| s != 429).count() <= fray_serve::api::MAX_EXACT_JOBS,
        "{statuses:?}"
    );

    // Before the first answer: the duel's exact answer, as `fray odds duel.toml --fight` (asked
    // again while it runs; then kept).
    let (id, gm) = fights[0].clone();
    let (status, body) = exact_when_done(&s, &id, &gm).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["after_round"], 0);
    assert_eq!(body["sides"][0]["side"], "west");
    assert_eq!(body["sides"][0]["wins"]["exact"], "364871/829440");
    assert_eq!(body["sides"][1]["wins"]["exact"], "48841/92160");
    assert_eq!(body["stalemate"]["exact"], "625/20736");
    assert_eq!(body["nobody_standing"]["exact"], "0");
    assert!((body["sides"][0]["wins"]["p"].as_f64().unwrap() - 0.4399).abs() < 1e-4);
    assert_eq!(body["ends_in_round"][0], json!([1, "7/12"]));
    assert_eq!(body["max_rounds"], 4);

    // The GM's page has the button; its result is the same answer, as HTML.
    let gm_page = page(&s, &format!("/fights/{id}?token={gm}")).await;
    assert!(gm_page.contains("id=\"exact-button\""), "{gm_page}");
    let html = page(&s, &format!("/fights/{id}/exact?token={gm}")).await;
    assert!(
        html.contains("Who wins, exactly (before round 1)") && html.contains("364871/829440"),
        "{html}"
    );

    // One answer into round 1: it says so, and points at the Monte Carlo answer.
    answer(&s, &id, &gm, "none").await;
    let (status, body) = exact(&s, &id, &gm).await;
    assert_eq!(status, 422, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("in the middle of round 1") && error.contains("/sim"),
        "{error}"
    );
    let html = page(&s, &format!("/fights/{id}/exact?token={gm}")).await;
    assert!(html.contains("in the middle of round 1"), "{html}");

    // Inside a Spelljammer round, after West's strike (a settled point of its `round_step`):
    // the answer from there, as `fray run`'s `exact` gives it after the same answers.
    let (id, gm) = created_ids(&s.create(SJ_DUEL, 1).await);
    for given in ["attack e-marine", "attack w-marine", "5", "3", "90"] {
        answer(&s, &id, &gm, given).await;
    }
    let (status, body) = exact_when_done(&s, &id, &gm).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["inside_round"], 1, "{body}");
    assert_eq!(body["after_round"], 0, "{body}");
    assert_eq!(
        body["sides"][0]["wins"]["exact"], "2475094520899/6400000000000",
        "{body}"
    );
    let html = page(&s, &format!("/fights/{id}/exact?token={gm}")).await;
    assert!(
        html.contains("Who wins, exactly (from a settled point inside round 1)"),
        "{html}"
    );

    // A fight with a player side: the player's token is refused (GM-only facts), and the page
    // has no button for the player. The GM's answer: refused by the programme's limits (two
    // 24-hp fighters against two orcs), or inside round 1 (fray answered for the orcs): either
    // way with the reason and the pointer to `sim`.
    let (id, gm, heroes, _) = tokens(&s.create(&duel(5), 1).await);
    let (status, body) = exact(&s, &id, &heroes).await;
    assert_eq!(status, 403, "{body}");
    let player_page = page(&s, &format!("/fights/{id}?token={heroes}")).await;
    assert!(!player_page.contains("exact-button"));
    let html = page(&s, &format!("/fights/{id}/exact?token={heroes}")).await;
    assert!(html.contains("only the GM"), "{html}");
    let (status, body) = exact_when_done(&s, &id, &gm).await;
    assert_eq!(status, 422, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        (error.starts_with("no exact answer: ") || error.contains("in the middle of round 1"))
            && error.contains("/sim"),
        "{error}"
    );

    // A fight the probes let through but that will not fit a budget of 250,000 units
    // (Spelljammer's duel at 20 hp a marine over 2 rounds, which needs 371,576): refused
    // partway through, at a settled point where its projection passes the budget, as `fray
    // odds --fight --max-work 250000` refuses it, with the pointer to `sim`.
    let big = SJ_DUEL
        .replace("\nhp = 1\n", "\nhp = 20\n")
        .replace("\nmax_rounds = 3\n", "\nmax_rounds = 2\n");
    assert_eq!(big.matches("\nhp = 20\n").count(), 2, "both marines");
    assert!(big.contains("\nmax_rounds = 2\n"));
    let (id, gm) = created_ids(&s.create(&big, 1).await);
    let (status, body) = exact_with_when_done(&s, &id, &gm, "?max_work=250000").await;
    assert_eq!(status, 422, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.starts_with("no exact answer: about ")
            && error.contains("units of work over the fight's rounds, projected from the")
            && !error.contains("(0 spent")
            && error.contains("/sim"),
        "{error}"
    );

    // `?max_work=N` weighs the programme against N units of work, as `fray odds --fight
    // --max-work N`: within twice the duel's branches (its probes' estimate, 2,725, under 1.5
    // times the budget), the default's answer; past a tiny
    // budget, refused (422) with the budget named and the pointer to `sim`; out of range, 422
    // naming the limit; not a number, or another parameter, 400.
    let (id, gm) = fights[1].clone();
    let (status, default) = exact_when_done(&s, &id, &gm).await;
    assert_eq!(status, 200, "{default}");
    let within = format!("?max_work={}", 2 * default["branches"].as_u64().unwrap());
    let (status, body) = exact_with_when_done(&s, &id, &gm, &within).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body, default,
        "within a budget it fits, the default's answer"
    );
    let (status, body) = exact_with_when_done(&s, &id, &gm, "?max_work=10").await;
    assert_eq!(status, 422, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.starts_with("no exact answer: ")
            && error.contains("at most 10)")
            && error.contains("/sim"),
        "{error}"
    );
    for query in ["?max_work=0", "?max_work=5000001"] {
        let (status, body) = exact_with(&s, &id, &gm, query).await;
        assert_eq!(status, 422, "{query}: {body}");
        assert_eq!(
            body["error"], "max_work: from 1 to 5000000 units of work",
            "{query}: {body}"
        );
    }
    for query in ["?max_work=many", "?max_work=-1", "?work=10"] {
        let (status, body) = exact_with(&s, &id, &gm, query).await;
        assert_eq!(status, 400, "{query}: {body}");
    }

    // The schema documents the operation, its budget and its refusals.
    let (_, doc) = s.call("GET", "/api/v1/openapi.json", None, None).await;
    let op = &doc["paths"]["/api/v1/fights/{id}/exact"]["get"];
    for status in ["200", "403", "422", "429", "503"] {
        assert!(op["responses"].get(status).is_some(), "{status}: {op}");
    }
    let max_work = op["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "max_work")
        .unwrap_or_else(|| panic!("max_work: {op}"));
    assert_eq!(max_work["in"], "query", "{max_work}");
    assert_eq!(max_work["schema"]["minimum"], 1, "{max_work}");
    assert_eq!(max_work["schema"]["maximum"], 5_000_000, "{max_work}");
    s.stop().await;
}
