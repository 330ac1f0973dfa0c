//! End-to-end: Legends of Celesia's Direct or Redirect a Spell (CEL-R9, issue 16,
//! `rules::spell_weapon`) through the real `fray` binary: a scripted spiritual weapon redirected
//! when its target drops, its event log in JSON, and the default tactics redirecting it in a
//! seeded fight.

#[path = "support/cli.rs"]
mod cli;
use cli::{fray, stderr, stdout};

/// jm01: the weapon attacks Grub twice, Vela redirects it to Snag (1 act), and its next attack
/// is on Snag; at the start of round 4 it is gone.
#[test]
fn a_spiritual_weapon_is_redirected_when_its_target_drops() {
    let out = fray(&[
        "fight",
        "--strict",
        "tests/golden/celesia/jm01-spiritual-weapon-redirect.toml",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let dying = text.find("Grub is dying at -14 hp").expect("Grub drops");
    let redirect = text
        .find("Vela redirects its spell's weapon to Snag: spiritual weapon")
        .expect("redirected");
    let on_snag = text
        .find("Vela attacks Snag with spiritual weapon (spell weapon)")
        .expect("attacks Snag");
    let gone = text
        .find("Vela loses its spell's weapon: spiritual weapon: its duration is over (CEL-R9)")
        .expect("ends with its rounds");
    assert!(
        dying < redirect && redirect < on_snag && on_snag < gone,
        "{text}"
    );
    assert_eq!(
        text.matches("attacks Grub with spiritual weapon").count(),
        2
    );
    assert!(
        !text.contains("attack of opportunity"),
        "the redirect provokes nothing"
    );
    let json = fray(&[
        "fight",
        "--strict",
        "--json",
        "tests/golden/celesia/jm01-spiritual-weapon-redirect.toml",
    ]);
    let lines = stdout(&json);
    let attacks: Vec<&str> = lines
        .lines()
        .filter(|l| l.contains("\"attack\":\"spiritual weapon (spell weapon)\""))
        .collect();
    assert_eq!(attacks.len(), 3, "{lines}");
    assert!(attacks.iter().all(|l| l.contains("\"attacker\":\"vela\"")));
    assert!(attacks[2].contains("\"target\":\"snag\"") && attacks[2].contains("\"critical\""));
}

/// The default tactics cast the weapon and point it at a new foe once its target is down:
/// every redirect in these seeded fights is followed by the weapon's attack on that foe (or the
/// fight's end), and the same seed gives the same fight.
#[test]
fn the_default_tactics_redirect_the_weapon() {
    let file = std::env::temp_dir().join(format!("fray-celredirect-{}.toml", std::process::id()));
    std::fs::write(&file, ENCOUNTER).expect("write");
    let path = file.to_str().expect("path");
    let mut redirects = 0;
    for seed in ["1", "2", "3", "4", "5"] {
        let out = fray(&["fight", path, "--seed", seed]);
        assert!(out.status.success(), "{}", stderr(&out));
        let again = fray(&["fight", path, "--seed", seed]);
        assert_eq!(out.stdout, again.stdout, "seed {seed}");
        let text = stdout(&out);
        assert!(
            text.contains("Vela casts a standard-action spell on"),
            "{text}"
        );
        for (at, _) in text.match_indices("Vela redirects its spell's weapon to ") {
            redirects += 1;
            let rest = &text[at + "Vela redirects its spell's weapon to ".len()..];
            let foe = &rest[..rest.find(':').expect("name")];
            let next = rest.find("with spiritual weapon (spell weapon)");
            if let Some(next) = next {
                let line_start = rest[..next].rfind('\n').map_or(0, |n| n + 1);
                assert!(
                    rest[line_start..next].contains(&format!("attacks {foe} ")),
                    "seed {seed}: the weapon's next attack is on {foe}\n{text}"
                );
            }
        }
    }
    assert!(redirects >= 2, "{redirects} redirects in five fights");
    let _ = std::fs::remove_file(&file);
}

const ENCOUNTER: &str = r#"schema = 1
ruleset = "celesia"
name = "a cleric's spiritual weapon against three goblins"
max_rounds = 12

[[sides]]
id = "clerics"

[[sides]]
id = "goblins"

[[combatants]]
id = "vela"
name = "Vela"
side = "clerics"
at = [0, 0]
class = "cleric"
level = 5
hp = 120
scores = { wis = 16 }
weapon = "longsword"
spells = ["spiritual weapon"]
caster_level = 5
spell_dc = 14

[[combatants]]
id = "gob-1"
name = "Goblin 1"
side = "goblins"
at = [10, 0]
monster = "goblin"

[[combatants]]
id = "gob-2"
name = "Goblin 2"
side = "goblins"
at = [10, 2]
monster = "goblin"

[[combatants]]
id = "gob-3"
name = "Goblin 3"
side = "goblins"
at = [11, 4]
monster = "goblin"
"#;
