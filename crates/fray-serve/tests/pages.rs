//! The web pages through a real listener: the GM creates a fight with a form, the GM's page
//! shows the orcs' hit points and the player's never does, the command bar answers and undoes,
//! and htmx is served from the server itself.

mod common;

use common::{duel, tokens, TestServer};
use fray_serve::Limits;

async fn get(s: &TestServer, path: &str) -> (u16, String) {
    let response = reqwest::get(format!("{}{path}", s.base)).await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

async fn post_form(s: &TestServer, path: &str, form: &[(&str, &str)]) -> (u16, String) {
    let body: String = form
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&");
    let response = reqwest::Client::new()
        .post(format!("{}{path}", s.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

/// Percent-encodes a form value.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The hidden version input of a panel.
fn version(html: &str) -> String {
    let at = html.find("id=\"version\"").expect("a version");
    let rest = &html[at..];
    let value = rest.find("value=\"").unwrap() + 7;
    rest[value..value + 16].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gm_and_a_player_use_their_pages() {
    let (db, _) = common::sqlite_url("pages");
    let s = TestServer::start(&db, Limits::default()).await;
    let (status, home) = get(&s, &format!("/?key={}", s.key)).await;
    assert_eq!(status, 200);
    assert!(home.contains("<textarea"), "{home}");
    let (status, htmx) = get(&s, "/static/htmx.min.js").await;
    assert_eq!(status, 200);
    assert!(htmx.starts_with("var htmx="));

    // The form creates a fight and lists its links; a wrong key is refused.
    let (status, _) = post_form(&s, "/fights", &[("key", "nope"), ("encounter", &duel(77))]).await;
    assert_eq!(status, 401);
    let (status, created) = post_form(
        &s,
        "/fights",
        &[
            ("key", &s.key),
            ("encounter", &duel(77)),
            ("name", "duel.toml"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created.matches("/fights/").count(), 3, "{created}");

    // Through the API too, to know the tokens.
    let (id, gm, heroes, _) = tokens(&s.create(&duel(77), 9).await);
    let (status, gm_page) = get(&s, &format!("/fights/{id}?token={gm}")).await;
    assert_eq!(status, 200);
    assert!(
        gm_page.contains("<td>77/77</td>"),
        "the GM sees the orcs' hit points"
    );
    assert!(gm_page.contains("Undo"));
    let (status, player_page) = get(&s, &format!("/fights/{id}?token={heroes}")).await;
    assert_eq!(status, 200);
    // (Ids, tokens and versions are hex and may hold "77": look for hit points as the table
    // shows them, `<td>77/77</td>`.)
    let near: Vec<&str> = player_page
        .match_indices(">77/")
        .chain(player_page.match_indices("/77<"))
        .map(|(i, _)| {
            player_page
                .get(i..(i + 8).min(player_page.len()))
                .unwrap_or("?")
        })
        .collect();
    assert!(
        near.is_empty(),
        "a player saw the orcs' hit points: {near:?}"
    );
    assert!(player_page.contains("24/24"), "the player sees their own");
    assert!(!player_page.contains("Undo"));
    assert!(player_page.contains("name=\"viewport\""));
    let (status, _) = get(&s, &format!("/fights/{id}?token=wrong")).await;
    assert_eq!(status, 404);

    // The command bar: a player's answer to a GM request is refused; the GM answers and undoes.
    let panel = |token: String| {
        let s = &s;
        let id = id.clone();
        async move { get(s, &format!("/fights/{id}/panel?token={token}")).await.1 }
    };
    let g = panel(gm.clone()).await;
    let p = panel(heroes.clone()).await;
    let (asker, page) = if p.contains("id=\"asked\"") {
        (heroes.clone(), p)
    } else {
        (gm.clone(), g)
    };
    let (_, v) = s
        .call("GET", &format!("/api/v1/fights/{id}"), Some(&asker), None)
        .await;
    let line = common::simple_answer(&v["pending"]);
    let (status, after) = post_form(
        &s,
        &format!("/fights/{id}/do?token={asker}"),
        &[("version", &version(&page)), ("line", &line)],
    )
    .await;
    assert_eq!(status, 200);
    assert!(!after.contains("class=\"error\""), "{after}");
    let g1 = panel(gm.clone()).await;
    let (_, undone) = post_form(
        &s,
        &format!("/fights/{id}/do?token={gm}"),
        &[("version", &version(&g1)), ("line", "undo")],
    )
    .await;
    assert!(!undone.contains("class=\"error\""), "{undone}");
    let (_, stale) = post_form(
        &s,
        &format!("/fights/{id}/do?token={gm}"),
        &[("version", &version(&g1)), ("line", "redo")],
    )
    .await;
    assert!(stale.contains("changed since your view"), "{stale}");
    let (_, refused) = post_form(
        &s,
        &format!("/fights/{id}/do?token={heroes}"),
        &[
            ("version", &version(&panel(heroes.clone()).await)),
            ("line", "undo"),
        ],
    )
    .await;
    assert!(refused.contains("only the GM undoes"), "{refused}");
    assert!(!refused.contains(">77/") && !refused.contains("/77<"));
    s.stop().await;
}

/// The GM's page: a grid map of the squares (with its text alternative), the odds of an attack
/// and "who wins from here" as HTML, and who fray plays switched from the page; none of it on
/// a player's page or open to a player's token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gm_page_has_the_map_the_odds_who_wins_and_who_plays() {
    let (db, _) = common::sqlite_url("gm-page");
    let s = TestServer::start(&db, Limits::default()).await;
    let (id, gm, heroes, _) = tokens(&s.create(&duel(7), 3).await);
    let (_, page) = get(&s, &format!("/fights/{id}?token={gm}")).await;
    assert!(page.contains("<svg id=\"map\""), "{page}");
    // duel(): fighters at (0,0), (0,1); orcs at (2,0), (2,1).
    for square in [
        "(fighter-1), heroes, up, at 0,0",
        "(fighter-2), heroes, up, at 0,1",
        "(orc-1), orcs, up, at 2,0",
        "(orc-2), orcs, up, at 2,1",
    ] {
        assert!(
            page.contains(square),
            "{square} missing from the map's text"
        );
    }
    assert!(
        page.contains("id=\"plays-orc-1\""),
        "a switch per combatant"
    );
    // The odds form aims at a foe the request names (or the first foe standing).
    let target = &page[page.find("id=\"odds-target\"").expect("odds form")..];
    let target = &target[..target.find("</select>").unwrap()];
    assert!(
        target.contains("value=\"orc-1\" selected") || target.contains("value=\"orc-2\" selected"),
        "{target}"
    );
    let (_, player_page) = get(&s, &format!("/fights/{id}?token={heroes}")).await;
    assert!(!player_page.contains("id=\"map\""));
    assert!(!player_page.contains("odds-form") && !player_page.contains("plays-"));

    // The odds of fighter-1 attacking orc-1, as `fray odds` gives them; the player is refused.
    let odds = format!("/fights/{id}/odds?attacker=fighter-1&target=orc-1&weapon=");
    let (status, html) = get(&s, &format!("{odds}&token={gm}")).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("fighter-1 attacks orc-1") && html.contains("<th>hit</th>"),
        "{html}"
    );
    let (_, api) = s
        .call(
            "GET",
            &format!("/api/v1/fights/{id}/odds?attacker=fighter-1&target=orc-1"),
            Some(&gm),
            None,
        )
        .await;
    assert!(
        html.contains(&format!("<td>{} (", api["hit"].as_str().unwrap())),
        "{html} vs {api}"
    );
    let (_, refused) = get(&s, &format!("{odds}&token={heroes}")).await;
    assert!(refused.contains("only the GM"), "{refused}");
    let (_, refused) = get(&s, &format!("/fights/{id}/odds?target=nobody&token={gm}")).await;
    assert!(refused.contains("class=\"error\""), "{refused}");

    // Who wins from here; a bad number of runs is a message.
    let (_, sim) = get(&s, &format!("/fights/{id}/sim?runs=50&token={gm}")).await;
    assert!(
        sim.contains("<pre id=\"sim\">") && sim.contains("50 runs"),
        "{sim}"
    );
    let (_, bad) = get(&s, &format!("/fights/{id}/sim?runs=x&token={gm}")).await;
    assert!(bad.contains("runs:"), "{bad}");
    let (_, refused) = get(&s, &format!("/fights/{id}/sim?token={heroes}")).await;
    assert!(refused.contains("only the GM"), "{refused}");

    // `manual orc-1` from the command bar: the GM is asked for orc-1 from now on; `auto`
    // gives it back to fray. A player may not switch it.
    let played_by = |who: &'static str| {
        let s = &s;
        let (id, gm) = (id.clone(), gm.clone());
        async move {
            let (_, v) = s
                .call("GET", &format!("/api/v1/fights/{id}"), Some(&gm), None)
                .await;
            let c = v["combatants"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["id"] == who)
                .cloned()
                .unwrap();
            (c["played_by"].as_str().unwrap().to_string(), v)
        }
    };
    assert_eq!(played_by("orc-1").await.0, "fray");
    let (_, refused) = post_form(
        &s,
        &format!("/fights/{id}/do?token={heroes}"),
        &[
            (
                "version",
                &version(
                    &get(&s, &format!("/fights/{id}/panel?token={heroes}"))
                        .await
                        .1,
                ),
            ),
            ("line", "auto side:heroes"),
        ],
    )
    .await;
    assert!(refused.contains("only the GM"), "{refused}");
    let panel = get(&s, &format!("/fights/{id}/panel?token={gm}")).await.1;
    let (_, after) = post_form(
        &s,
        &format!("/fights/{id}/do?token={gm}"),
        &[("version", &version(&panel)), ("line", "manual orc-1")],
    )
    .await;
    assert!(!after.contains("class=\"error\""), "{after}");
    let (plays, v) = played_by("orc-1").await;
    assert_eq!(plays, "person");
    assert_eq!(v["combatants"][2]["at"], serde_json::json!([2, 0]));
    // Through the API's intervene too, and a name that names nobody is refused.
    let (status, body) = s
        .call(
            "POST",
            &format!("/api/v1/fights/{id}/intervene"),
            Some(&gm),
            Some(serde_json::json!({"version": v["version"], "command": "auto orc-*"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(played_by("orc-1").await.0, "fray");
    let (status, body) = s
        .call(
            "POST",
            &format!("/api/v1/fights/{id}/intervene"),
            Some(&gm),
            Some(serde_json::json!({"version": body["version"], "command": "manual goblin-9"})),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(body["error"].as_str().unwrap().contains("names nobody"));
    // Squares are the GM's: a player's view has none.
    let (_, pv) = s
        .call("GET", &format!("/api/v1/fights/{id}"), Some(&heroes), None)
        .await;
    assert!(pv["combatants"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c.get("at").is_none() && c.get("played_by").is_none()));
    s.stop().await;
}
