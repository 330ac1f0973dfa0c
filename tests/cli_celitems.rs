//! Celesia items through the real `fray` binary (issue 16): a readied steal naming any item a
//! steal on a turn names (CEL-R3.9, R10.13), Sleight of Hand taking a rope (CEL-R11), and a
//! readied lock in a locked gauntlet (CEL-R3.9, R11) — scripted `fray fight --strict` runs of
//! the golden encounters and of variants written to a scratch directory, and their refusals.

#[path = "support/cli.rs"]
mod cli;
use cli::{fray, scratch, stderr, stdout};

const GOLDEN: &str = "tests/golden/celesia";

/// `fray fight FILE --strict [EXTRA…]`: its stdout, or a failure showing its stderr.
fn fight(file: &str, extra: &[&str]) -> String {
    let mut args = vec!["fight", file, "--strict"];
    args.extend_from_slice(extra);
    let out = fray(&args);
    assert!(out.status.success(), "{file}: {}", stderr(&out));
    stdout(&out)
}

/// The readied steal takes the potion from the orc that carries it, not the one without; the
/// same encounter with the steal readied as `steal rope` takes a rope instead, and with the
/// readied steal naming the shield of an orc that has none, nobody is asked.
#[test]
fn a_readied_steal_takes_any_item() {
    let file = format!("{GOLDEN}/jc1-ready-steal-an-item.toml");
    let log = fight(&file, &[]);
    assert!(
        log.contains("Hal readies an action: steal item potion-of-cure-light-wounds if a foe moves adjacent to it"),
        "{log}"
    );
    assert!(!log.contains("on Orc A"), "orc A carries no potion: {log}");
    assert!(
        log.contains("Hal steals from Orc B: potion of cure light wounds (CEL-R10.13)"),
        "{log}"
    );
    let text = std::fs::read_to_string(&file).expect("jc1");
    let dir = scratch("steal");
    let rope = dir.join("rope.toml");
    let with_rope = text
        .replace("items = [\"potion of cure light wounds\"]", "rope = 2")
        .replace("steal item potion-of-cure-light-wounds", "steal rope");
    std::fs::write(&rope, with_rope).expect("write");
    let log = fight(rope.to_str().expect("path"), &[]);
    assert!(
        log.contains("Hal steals from Orc B: rope (CEL-R10.13)"),
        "{log}"
    );
    // A shield neither orc has: the trigger passes twice and nobody is asked (the script,
    // without its `complete`, answers every request of the strict run).
    let shield = dir.join("shield.toml");
    let no_shield = text
        .replace("steal item potion-of-cure-light-wounds", "steal shield")
        .replace("\"hal: complete orc-b\", ", "")
        .replace("dice = [18, 10, 5, 12]", "dice = [18, 10, 5]");
    std::fs::write(&shield, no_shield).expect("write");
    let log = fight(shield.to_str().expect("path"), &[]);
    assert!(!log.contains("completes its readied action"), "{log}");
    assert!(!log.contains("steals from"), "{log}");
}

/// Sleight of Hand takes a rope (after a quick try failing by 5 or more, which provokes from
/// the victim); with no rope to take it is refused naming CEL-R11, and a weapon is Steal's.
#[test]
fn sleight_of_hand_takes_a_rope() {
    let log = fight(
        &format!("{GOLDEN}/jc2-sleight-of-hand-takes-a-rope.toml"),
        &[],
    );
    assert!(
        log.contains("Rue is caught reaching for Orc: the rope: failed by 5 or more, it provokes (CEL-R3.12)"),
        "{log}"
    );
    assert!(
        log.contains("Rue takes from Orc: the rope (Sleight of Hand), to hand (CEL-R11)"),
        "{log}"
    );
    for (file, why) in [
        (
            "yy1-sleight-of-hand-no-rope",
            "orc has no rope at hand (CEL-R11)",
        ),
        (
            "yy2-sleight-of-hand-not-a-weapon",
            "is taken by Steal (CEL-R10.13) (CEL-R11)",
        ),
    ] {
        let out = fray(&["fight", &format!("{GOLDEN}/{file}.toml"), "--strict"]);
        assert_eq!(out.status.code(), Some(2), "{file}: {}", stderr(&out));
        assert!(stderr(&out).contains(why), "{file}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "nothing printed before the error");
    }
}

/// The readied lock is completed when Hal comes next to Kira, and his steal meets CMD 18: a
/// d20 9 (17) fails, a d20 10 (18) takes the longsword though it is locked. Without a
/// gauntlet the lock is refused when readied, naming CEL-R3.9 and CEL-R11's reason.
#[test]
fn a_readied_lock_fastens_the_weapon() {
    let file = format!("{GOLDEN}/jc3-ready-lock.toml");
    let log = fight(&file, &[]);
    assert!(
        log.contains("Kira completes its readied action on Hal: lock 0 (if a foe moves adjacent to it) (CEL-R15)"),
        "{log}"
    );
    assert!(
        log.contains("= 17 vs CMD 18 [ +1 BAB (CEL-A7) +1 STR (CEL-A7) +1 DEX (CEL-A7) +5 locked in a locked gauntlet (fastened) (CEL-R10.13) ] — miss"),
        "{log}"
    );
    let log = fight(&file, &["--dice", "5,18,10"]);
    assert!(log.contains("= 18 vs CMD 18"), "{log}");
    assert!(log.contains("Hal steals from Kira: longsword"), "{log}");
    let out = fray(&[
        "fight",
        &format!("{GOLDEN}/yy0-ready-lock-without-a-gauntlet.toml"),
        "--strict",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("to ready `lock 0` it must be able to take it: it wears no locked gauntlet")
            && err.contains("(CEL-R3.9)"),
        "{err}"
    );
}
