//! End-to-end tests of the state-merging exact odds (issue 17) through the real binary:
//! `fray odds --fight` against a 200,000-run `fray sim` of the same file, `--round` summing to
//! one, `--routine` against the convolution of its blows enumerated alone, and the refusals.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeMap;
#[path = "support/wilson.rs"]
mod wilson;
use wilson::wilson_999;
#[path = "support/cli.rs"]
mod cli;
use cli::{fray, scratch, stderr};

fn json(args: &[&str]) -> serde_json::Value {
    let o = fray(args);
    assert!(o.status.success(), "fray {args:?} failed: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

fn fraction(v: &serde_json::Value) -> BigRational {
    let text = v.as_str().expect("an exact fraction as text");
    match text.split_once('/') {
        Some((n, d)) => BigRational::new(n.parse().unwrap(), d.parse().unwrap()),
        None => BigRational::from_integer(text.parse::<BigInt>().unwrap()),
    }
}

fn to_f64(p: &BigRational) -> f64 {
    num_traits::ToPrimitive::to_f64(p).unwrap()
}

/// A fresh scratch directory for one test.
/// `file` written in `dir` with `text`; its path as text.
fn write(dir: &std::path::Path, file: &str, text: &str) -> String {
    let path = dir.join(file);
    std::fs::write(&path, text).expect("scratch file");
    path.display().to_string()
}

/// An encounter of two sides, `a` and `b`, named `name`, under `ruleset`: `head` (an
/// `[options]` table, or nothing) then `combatants` (`[[combatants]]` tables).
fn encounter(ruleset: &str, name: &str, head: &str, combatants: &str) -> String {
    format!(
        "schema = 1\nruleset = \"{ruleset}\"\nname = \"{name}\"\n{head}\
         [[sides]]\nid = \"a\"\n[[sides]]\nid = \"b\"\n{combatants}"
    )
}

/// One `[[combatants]]` table: `id` on `side` at `at`, then `rest` (its lines: `monster = …`).
fn combatant(id: &str, side: &str, at: [i32; 2], rest: &str) -> String {
    format!(
        "[[combatants]]\nid = \"{id}\"\nside = \"{side}\"\nat = [{}, {}]\n{rest}\n",
        at[0], at[1]
    )
}

/// The odds of `attacker`'s attack on `target` in `file`, as JSON, with `extra` flags
/// (`--routine`, `--weapon NAME`, `--situation …`).
fn attack_json(file: &str, attacker: &str, target: &str, extra: &[&str]) -> serde_json::Value {
    let base = [
        "odds",
        file,
        "--attacker",
        attacker,
        "--target",
        target,
        "--json",
    ];
    json(&[&base[..], extra].concat())
}

/// Runs `fray args`, which must be refused (exit 2, nothing on stdout) pointing to the
/// simulator; returns its message.
fn refused_for_sim(args: &[&str]) -> String {
    let o = fray(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "fray {args:?}: {err}");
    assert!(o.stdout.is_empty(), "fray {args:?}");
    assert!(err.contains("fray sim FILE --target-ci"), "{err}");
    err
}

/// The exact chances of `file`'s fight lie inside the 99.9% intervals of 200,000 simulated fights
/// (each side's win, the stalemate at the round limit), and they sum to one; returns the exact
/// answer (JSON).
fn fight_agrees_with_sim(file: &str) -> serde_json::Value {
    let exact = json(&["odds", file, "--fight", "--json"]);
    assert_eq!(exact["schema"], 1);
    let e = &exact["exact"];
    let mut total = fraction(&e["none_standing"]) + fraction(&e["stalemate"]);
    let sim = json(&["sim", file, "-n", "200000", "--seed", "17", "--json"]);
    let runs = sim["runs"].as_u64().unwrap();
    assert_eq!(runs, 200_000);
    for side in sim["sides"].as_array().unwrap() {
        let id = side["id"].as_str().unwrap();
        let p = fraction(&e["wins"][id]);
        total += &p;
        let (lo, hi) = wilson_999(side["wins"].as_u64().unwrap(), runs);
        let p = to_f64(&p);
        assert!(
            lo <= p && p <= hi,
            "{file}: {id} wins {p} exactly, sim {lo}–{hi}"
        );
        // The JSON number is the same f64 up to serde_json's parsing, which is not correctly
        // rounded without its `float_roundtrip` feature (off by one ulp on the OD&D 2 vs 2).
        let shown = exact["wins"][id].as_f64().unwrap();
        assert!(
            (shown - p).abs() <= 2.0 * f64::EPSILON * p,
            "{file}: {shown} ≠ {p}"
        );
    }
    let stalemate = to_f64(&fraction(&e["stalemate"]));
    let (lo, hi) = wilson_999(sim["draws"]["round_limit"].as_u64().unwrap(), runs);
    assert!(
        lo <= stalemate && stalemate <= hi,
        "{file}: stalemate {stalemate}, sim {lo}–{hi}"
    );
    assert_eq!(total, BigRational::one(), "{file}: the chances sum to one");
    assert!(exact["states"].as_u64().unwrap() >= 1);
    exact
}

#[test]
fn cnc_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/cnc/duel.toml");
}

#[test]
fn odd_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/odd/duel.toml");
}

/// Spelljammer's round is merged after every action of a segment (`rules::round::round_step`):
/// two d10 initiatives and a d100 per strike would be too wide for one round otherwise.
#[test]
fn spelljammer_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/spelljammer/duel.toml");
}

/// Where a small fight is far too long to enumerate, `--fight` says so at once and points to
/// the simulator (never a hang, never a wrong answer): OSR's armed duel with 30 hp each and 20
/// rounds, refused by the probes before any branch is played or, since its damage dice branch
/// by whether they drop the victim, at the first settled point, after a few hundred units of the
/// budget's 5,000,000 (with 9 hp and six rounds it is no longer refused at once since its d20s
/// branch by class).
#[test]
fn fights_too_wide_to_enumerate_are_refused_at_once_with_the_way_out() {
    let dir = scratch("osr-long-duel");
    let fighter = |weapon: &str, armor: &str| {
        format!(
            "facing = \"east\"\nclass = \"fighter\"\nlevel = 1\nhp = 30\n\
             weapon = \"{weapon}\"\narmor = \"{armor}\""
        )
    };
    let combatants = [
        combatant("w", "a", [0, 0], &fighter("long sword", "chain mail")),
        combatant("e", "b", [1, 0], &fighter("short sword", "leather")),
    ]
    .concat();
    let text = encounter("osr", "Long armed duel", "max_rounds = 20\n", &combatants);
    let file = write(&dir, "long.toml", &text);
    let err = refused_for_sim(&["odds", &file, "--fight"]);
    let spent = if err.contains("(0 played, at most 5000000)") {
        0
    } else {
        let before = err
            .split(" spent, at most 5000000)")
            .next()
            .filter(|head| head.len() < err.len())
            .unwrap_or_else(|| panic!("neither refused at once nor at a settled point: {err}"));
        let n = before.rsplit('(').next().unwrap_or_default();
        n.parse::<u64>()
            .unwrap_or_else(|_| panic!("units spent {n:?} in {err}"))
    };
    assert!(
        spent <= 5_000,
        "refused only after {spent} units of the budget's 5,000,000: {err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A full-strength C&C 2 vs 2 (two kobolds and two goblins with their own hit points and no
/// round limit of their own) fits each step of a round but not the whole fight: refused before
/// playing any branch, by probes over every round, with the way out. (The full-strength duel
/// used here before now answers within the budget, its rounds split at C&C's settled points.)
#[test]
fn a_fight_too_long_to_enumerate_is_refused_before_playing_it() {
    let dir = scratch("full-two-against-two");
    let monster = |m: &str| format!("monster = \"{m}\"");
    let combatants = [
        combatant("kobold-1", "a", [0, 0], &monster("kobold")),
        combatant("kobold-2", "a", [0, 1], &monster("kobold")),
        combatant("goblin-1", "b", [1, 0], &monster("goblin")),
        combatant("goblin-2", "b", [1, 1], &monster("goblin")),
    ]
    .concat();
    let text = encounter("cnc", "Full two against two", "", &combatants);
    let file = write(&dir, "full.toml", &text);
    let err = refused_for_sim(&["odds", &file, "--fight"]);
    assert!(err.contains("branches over the fight's rounds"), "{err}");
    assert!(err.contains("(0 played, at most 5000000)"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--round` of `file`: its outcomes and each combatant's hit points sum to one, and P(the fight
/// is over after round 1) is the fight's P(it ends in round 1); returns the `--round` answer.
fn first_round_agrees_with_the_fight(file: &str) -> serde_json::Value {
    let round = json(&["odds", file, "--round", "--json"]);
    assert_eq!(round["schema"], 1);
    let outcomes = round["outcomes"].as_array().unwrap();
    let total: BigRational = outcomes.iter().map(|o| fraction(&o["exact"])).sum();
    assert_eq!(total, BigRational::one());
    for c in round["combatants"].as_array().unwrap() {
        let hp: BigRational = c["exact"]["hp"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| fraction(&pair[1]))
            .sum();
        assert_eq!(hp, BigRational::one(), "{c}");
    }
    // P(the fight is over after round 1) is the fight's P(it ends in round 1).
    let fight = json(&["odds", file, "--fight", "--json"]);
    let first = fight["exact"]["ends_in_round"]
        .as_array()
        .unwrap()
        .iter()
        .find(|pair| pair[0] == 1)
        .map(|pair| fraction(&pair[1]))
        .unwrap_or_else(BigRational::zero);
    assert_eq!(fraction(&round["exact"]["over"]), first);
    round
}

#[test]
fn the_first_round_distribution_sums_to_one_and_agrees_with_the_fight() {
    let file = "examples/cnc/duel.toml";
    first_round_agrees_with_the_fight(file);
    // The text shows each chance as a percentage and an exact fraction.
    let o = fray(&["odds", file, "--round"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("fight over after the round"), "{text}");
    assert!(text.contains('/'), "{text}");
}

/// Spelljammer's `--round` is played step by step (merged after every action of a segment, as
/// `--fight` is): too wide for one round branch by branch (it was refused, about 2.3e7
/// branches), it now answers, agrees with the fight, and each marine's P(down) after the round
/// and P(the fight goes on) lie inside the 99.9% intervals of 200,000 one-round simulations.
#[test]
fn spelljammer_first_round_is_played_step_by_step() {
    let file = "examples/spelljammer/duel.toml";
    let round = first_round_agrees_with_the_fight(file);
    let sim = json(&[
        "sim",
        file,
        "-n",
        "200000",
        "--seed",
        "17",
        "--max-rounds",
        "1",
        "--json",
    ]);
    let runs = sim["runs"].as_u64().unwrap();
    let inside = |p: &BigRational, hits: u64, what: &str| {
        let (lo, hi) = wilson_999(hits, runs);
        let p = to_f64(p);
        assert!(lo <= p && p <= hi, "{what}: {p} exactly, sim {lo}–{hi}");
    };
    let goes_on = BigRational::one() - fraction(&round["exact"]["over"]);
    inside(
        &goes_on,
        sim["draws"]["round_limit"].as_u64().unwrap(),
        "goes on",
    );
    let simulated = sim["combatants"].as_array().unwrap();
    for (c, s) in round["combatants"]
        .as_array()
        .unwrap()
        .iter()
        .zip(simulated)
    {
        assert_eq!(c["id"], s["id"]);
        let down: BigRational = c["exact"]["standing"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|pair| pair[0] != "up")
            .map(|pair| fraction(&pair[1]))
            .sum();
        let fallen = s["down"].as_u64().unwrap() + s["dead"].as_u64().unwrap();
        inside(&down, fallen, c["id"].as_str().unwrap());
    }
}

/// A Spelljammer duel of 4-hp marines was refused before any branch was played (probes, about
/// 7.5e6; the 3-hp duel after playing the budget): with the round merged after the initiatives
/// and the segments kept as an order (`rules::round::round_step`, `rules::odds_key`), it answers
/// (474,108 branches), its chances summing to one.
#[test]
fn a_spelljammer_duel_of_four_hp_answers_since_its_initiatives_merge() {
    let dir = scratch("sj-four");
    let text = std::fs::read_to_string("examples/spelljammer/duel.toml").unwrap();
    let lines: String = text
        .lines()
        .map(|l| match l {
            "hp = 1" => "hp = 4\n".to_string(),
            _ => format!("{l}\n"),
        })
        .collect();
    assert!(lines.contains("hp = 4\n"));
    let file = write(&dir, "duel-4.toml", &lines);
    let exact = json(&["odds", &file, "--fight", "--json"]);
    let e = &exact["exact"];
    let total = fraction(&e["wins"]["west"])
        + fraction(&e["wins"]["east"])
        + fraction(&e["none_standing"])
        + fraction(&e["stalemate"]);
    assert_eq!(total, BigRational::one());
    assert!(fraction(&e["wins"]["west"]) > BigRational::zero());
    let _ = std::fs::remove_dir_all(dir);
}

/// A three-attack monster on a target that cannot drop: its blows are independent, so the
/// whole action's damage is the convolution of its blows' damage, each enumerated alone by
/// the one-attack odds (`--weapon` keeps only the forms of that name).
#[test]
fn a_routine_of_independent_blows_is_the_convolution_of_its_blows() {
    let dir = scratch("routine");
    let text = encounter(
        "cnc",
        "Bear",
        "",
        &(combatant("bear", "a", [0, 0], "monster = \"brown bear\"")
            + &combatant("ogre", "b", [1, 0], "monster = \"brown bear\"\nhp = 500")),
    );
    let file = write(&dir, "bear.toml", &text);
    let (routine, blows) = routine_and_blows(&file, "bear", "ogre", &["claw", "bite"]);
    // C&C's one-attack odds are the whole routine: `--weapon claw` is both claws.
    assert_eq!(routine["blows"], 3);
    assert_eq!(fraction(&routine["exact"]["down"]), BigRational::zero());
    let claws = attack_json(&file, "bear", "ogre", &["--weapon", "claw", "--routine"]);
    assert_eq!(pmf(&claws), blows[0]);
    let _ = std::fs::remove_dir_all(dir);
}

/// The damage distribution of an odds answer, exactly.
fn pmf(v: &serde_json::Value) -> BTreeMap<i64, BigRational> {
    v["exact"]["damage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| (pair[0].as_i64().unwrap(), fraction(&pair[1])))
        .collect()
}

/// Asks `--routine` of `attacker` on `target` and the one-attack odds (`--weapon`) of each of
/// `weapons`, and checks that the routine's damage is exactly the convolution of those one-attack
/// damages. Returns the routine's answer and the one-attack damages, in order.
fn routine_and_blows(
    file: &str,
    attacker: &str,
    target: &str,
    weapons: &[&str],
) -> (serde_json::Value, Vec<BTreeMap<i64, BigRational>>) {
    routine_and_blows_in(file, attacker, target, weapons, &[])
}

/// [`routine_and_blows`] with the same `situation` flags (`--situation …`) for the routine and
/// for each one-attack answer.
fn routine_and_blows_in(
    file: &str,
    attacker: &str,
    target: &str,
    weapons: &[&str],
    situation: &[&str],
) -> (serde_json::Value, Vec<BTreeMap<i64, BigRational>>) {
    let blows: Vec<BTreeMap<i64, BigRational>> = weapons
        .iter()
        .map(|w| {
            pmf(&attack_json(
                file,
                attacker,
                target,
                &[situation, &["--weapon", *w]].concat(),
            ))
        })
        .collect();
    let mut expected: BTreeMap<i64, BigRational> = BTreeMap::from([(0, BigRational::one())]);
    for blow in &blows {
        let mut next = BTreeMap::new();
        for (a, p) in &expected {
            for (b, q) in blow {
                *next.entry(a + b).or_insert_with(BigRational::zero) += p * q;
            }
        }
        expected = next;
    }
    let routine = attack_json(
        file,
        attacker,
        target,
        &[situation, &["--routine"]].concat(),
    );
    assert_eq!(routine["schema"], 1);
    assert_eq!(pmf(&routine), expected, "{routine}");
    (routine, blows)
}

/// An OSR owlbear's claw/claw/bite (OSR-R7.3) on a troll that cannot drop is exactly the
/// convolution of its three blows alone (the one-attack odds play one form). The troll's AC 0
/// makes every roll but a natural 1 hit, so a crit's prone or blinded troll (OSR-R17.4) hits no
/// more often and the blows stay independent. On a troll of 9 hp, P(down) is exactly
/// P(total damage >= 9) of the 500-hp troll (the blows go on at a fallen target, as in a fight);
/// on 1 hp it is 1 - (1/20)^3, every blow missing only on a 1.
#[test]
fn an_osr_monster_routine_is_the_convolution_of_its_blows() {
    routine_checks(
        "osr-routine",
        osr_owlbear,
        ("owlbear", "troll"),
        &["claw", "claw", "bite"],
        BigRational::new(BigInt::from(7999), BigInt::from(8000)),
    );
}

/// An OSR owlbear and a troll of `hp` hit points and AC 0, 3 squares apart.
fn osr_owlbear(hp: u32) -> String {
    encounter(
        "osr",
        "Owlbear",
        "",
        &(combatant("owlbear", "a", [0, 0], "monster = \"owlbear\"")
            + &combatant(
                "troll",
                "b",
                [3, 0],
                &format!("monster = \"troll\"\nhp = {hp}\nac = 0"),
            )),
    )
}

/// Checks a routine of `blows.len()` blows by `who.0` on `who.1` in the encounter `text(hp)`
/// (the target given `hp` hit points): on 500 hp it is exactly the convolution of its blows
/// alone and never fells the target; on 9 hp P(down) is exactly P(total damage >= 9) on 500 hp
/// (damage only adds up, whether the blows go on at a fallen target or stop); on 1 hp it is
/// `one_hp_down`.
fn routine_checks(
    name: &str,
    text: impl Fn(u32) -> String,
    who: (&str, &str),
    blows: &[&str],
    one_hp_down: BigRational,
) {
    let dir = scratch(name);
    let file = |hp: u32| write(&dir, &format!("{name}-{hp}.toml"), &text(hp));
    let big = file(500);
    let (routine, _) = routine_and_blows(&big, who.0, who.1, blows);
    assert_eq!(routine["blows"], blows.len());
    assert_eq!(fraction(&routine["exact"]["down"]), BigRational::zero());
    let at_least_9: BigRational = pmf(&routine)
        .into_iter()
        .filter(|(d, _)| *d >= 9)
        .map(|(_, p)| p)
        .sum();
    let down = |hp: u32| {
        let v = attack_json(&file(hp), who.0, who.1, &["--routine"]);
        fraction(&v["exact"]["down"])
    };
    assert_eq!(down(9), at_least_9);
    assert_eq!(down(1), one_hp_down);
    let _ = std::fs::remove_dir_all(dir);
}

/// OSR `--routine` takes the situations of one attack (issue 17), stored as the attacker's
/// declared action: with the flat of the blade (OSR-R30.1: −4, half damage) the owlbear's
/// claw/claw/bite on the AC 0 troll is still exactly the convolution of its blows, each made
/// flat; a charge (OSR-R14.3) or a spear set against the troll's charge (OSR-R15.1) is one blow
/// with the spear, the dagger not swung (OSR-R29: not on a charge or a set), exactly the
/// one-attack odds of the same situation and not the plain routine; a set needs a settable
/// weapon.
#[test]
fn an_osr_routine_takes_the_situations_of_one_attack() {
    let dir = scratch("osr-situations");
    let owlbear = write(&dir, "owlbear.toml", &osr_owlbear(500));
    let (plain, _) = routine_and_blows(&owlbear, "owlbear", "troll", &["claw", "claw", "bite"]);
    let (flat, _) = routine_and_blows_in(
        &owlbear,
        "owlbear",
        "troll",
        &["claw", "claw", "bite"],
        &["--situation", "flat"],
    );
    assert_ne!(
        pmf(&flat),
        pmf(&plain),
        "the flat of the blade halves the damage"
    );

    let spearman = encounter(
        "osr",
        "Spear and dagger",
        "",
        &(combatant(
            "spearman",
            "a",
            [0, 0],
            "class = \"fighter\"\nlevel = 2\nstr = 13\nweapon = \"spear\"\noffhand = \"dagger\"",
        ) + &combatant("troll", "b", [3, 0], "monster = \"troll\"\nhp = 500")),
    );
    let spearman = write(&dir, "spearman.toml", &spearman);
    let odds = |extra: &[&str]| attack_json(&spearman, "spearman", "troll", extra);
    let plain = odds(&["--routine"]);
    assert_eq!(plain["blows"], 2, "the spear and the dagger (OSR-R29)");
    for situation in ["charge", "set"] {
        let routine = odds(&["--routine", "--situation", situation]);
        assert_eq!(routine["blows"], 1, "{situation}: the spear alone");
        let one = odds(&["--situation", situation]);
        assert_eq!(pmf(&routine), pmf(&one), "{situation}");
        assert_ne!(pmf(&routine), pmf(&plain), "{situation}");
        // Double damage: every total a hit can do is even.
        assert!(pmf(&one).keys().all(|d| d % 2 == 0), "{situation}: {one}");
    }
    let refused = fray(&[
        "odds",
        &owlbear,
        "--attacker",
        "owlbear",
        "--target",
        "troll",
        "--routine",
        "--situation",
        "set",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("no weapon that can be set against a charge (OSR-R15.1)"),
        "{refused:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// An OD&D owlbear's claw/claw/bite (ODD-R10.1: a monster makes all its attacks) on a troll
/// that cannot drop is exactly the convolution of its three blows alone (a critical multiplies
/// the damage and a fumble is a miss: nothing a blow leaves changes the next). The troll's AC 4
/// takes a 10 on the d20 from an HD 5 monster (ODD-A1), so on 1 hp P(down) is
/// 1 - (9/20)^3; the routine stops there (a fight forgoes attacks on a fallen target).
#[test]
fn an_odd_monster_routine_is_the_convolution_of_its_blows() {
    let text = |hp: u32| {
        encounter(
            "odd",
            "Owlbear",
            "",
            &(combatant("owlbear", "a", [0, 0], "monster = \"Owlbear\"")
                + &combatant(
                    "troll",
                    "b",
                    [3, 0],
                    &format!("monster = \"Troll\"\nhp = {hp}"),
                )),
        )
    };
    routine_checks(
        "odd-routine",
        text,
        ("owlbear", "troll"),
        &["claw", "claw", "bite"],
        BigRational::new(BigInt::from(7271), BigInt::from(8000)),
    );
}

/// A Spelljammer troll's three attacks a round (SJ-R2: claw, claw, bite, each on its own
/// segment in a fight) on an ogre that cannot drop are exactly the convolution of its three
/// blows alone: PROT 0 leaves nothing for a grievous hit to wear (SJ-R8.3), and CON 50 keeps
/// any hit from stunning it (SJ-R11.1, which would ease the next strike). Each strike needs 67
/// or less on the d100 (SC 75 against DEF 8), so on 1 hp P(down) is 1 - (33/100)^3.
#[test]
fn a_spelljammer_routine_is_the_convolution_of_its_blows() {
    let text = |hp: u32| {
        encounter(
            "spelljammer",
            "Troll",
            "",
            &(combatant("troll", "a", [0, 0], "monster = \"troll\"")
                + &combatant(
                    "ogre",
                    "b",
                    [3, 0],
                    &format!("monster = \"ogre\"\nhp = {hp}\nprot = 0\ncon = 50"),
                )),
        )
    };
    routine_checks(
        "sj-routine",
        text,
        ("troll", "ogre"),
        &["claw", "claw", "bite"],
        BigRational::new(BigInt::from(964_063), BigInt::from(1_000_000)),
    );
}

/// A Celesia troll's turn of attacks (CEL-R3.2, R3.10: three acts, a Strike each, with its
/// best form, the bite) on an ogre that cannot drop is exactly the convolution of three bites
/// alone: the seed gives no penalty to later attacks (CEL-A13), so each needs 6+ on the d20
/// (BAB +4, STR +5, DEX +2, size -1 against DV 16), and on 1 hp P(down) is 1 - (1/4)^3. With
/// the GM's PF-style -5/-10 (`multiple_attack_penalty`, CEL-G8) the second needs 11+ and the
/// third 16+: P(no damage) is exactly 1/4 * 1/2 * 3/4.
#[test]
fn a_celesia_turn_of_attacks_is_the_convolution_of_its_blows() {
    let text = |hp: u32, penalty: &str| {
        encounter(
            "celesia",
            "Troll",
            &format!("[options]\nmultiple_attack_penalty = {penalty}\n"),
            &(combatant("troll", "a", [0, 0], "monster = \"troll\"")
                + &combatant(
                    "ogre",
                    "b",
                    [3, 0],
                    &format!("monster = \"ogre\"\nhp = {hp}"),
                )),
        )
    };
    routine_checks(
        "cel-routine",
        |hp| text(hp, "[0, 0, 0]"),
        ("troll", "ogre"),
        &["bite", "bite", "bite"],
        BigRational::new(BigInt::from(63), BigInt::from(64)),
    );
    let dir = scratch("cel-penalty");
    let file = write(&dir, "penalty.toml", &text(500, "[0, -5, -10]"));
    let v = attack_json(&file, "troll", "ogre", &["--routine"]);
    assert_eq!(
        pmf(&v)[&0],
        BigRational::new(BigInt::from(3), BigInt::from(32)),
        "{v}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The brown bear's routine on another brown bear (refused by the one-attack odds past a
/// million branches before issue 17) answers quickly, merging states between blows; and a
/// target that can drop stops the routine (P(down) > 0).
#[test]
fn the_brown_bear_routine_answers_quickly() {
    let dir = scratch("bears");
    let text = encounter(
        "cnc",
        "Bears",
        "",
        &(combatant("bear", "a", [0, 0], "monster = \"brown bear\"")
            + &combatant("other", "b", [1, 0], "monster = \"brown bear\"")
            + &combatant("orc", "b", [0, 1], "monster = \"orc\"")),
    );
    let file = write(&dir, "bears.toml", &text);
    let v = attack_json(&file, "bear", "other", &["--routine"]);
    let total: BigRational = v["exact"]["damage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| fraction(&pair[1]))
        .sum();
    assert_eq!(total, BigRational::one());
    assert_eq!(v["damage"].as_array().unwrap().last().unwrap()[0], 22);
    let orc = attack_json(&file, "bear", "orc", &["--routine"]);
    assert!(orc["down"].as_f64().unwrap() > 0.5, "{orc}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    // --fight names no attacker; --routine needs one.
    let o = fray(&[
        "odds",
        "examples/cnc/duel.toml",
        "--fight",
        "--attacker",
        "kobold",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = fray(&["odds", "examples/cnc/duel.toml", "--routine"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A state limit too small for the fight: refused, pointing to the simulator.
    refused_for_sim(&[
        "odds",
        "examples/cnc/mirror.toml",
        "--round",
        "--max-states",
        "1",
    ]);
}

/// Celesia's round is merged before every turn and after every act (`rules::round::round_step`):
/// the initiative d20s and three acts a turn, a d20 and damage each, would be too wide for one
/// round otherwise. Fighters of CON 6 are dying at −6 hp (CEL-R17.3), so the duel is over in a
/// few rounds.
#[test]
fn celesia_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/celesia/duel-exact.toml");
}

/// OSR's round is merged after the declarations and initiatives and after every action of the
/// countdown (`rules::round::round_step`, OSR-R3 to R5). The bout is bare-handed (punches are
/// non-lethal, so the fallen are knocked out); the armed duel is below.
#[test]
fn osr_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/osr/duel-exact.toml");
}

/// OD&D's round is merged after the declarations and first attacks and after every turn on an
/// initiative count (`rules::round::round_step`, ODD-R4.1), and its canonical key
/// (`rules::odds_key`) keeps only the order of the four initiative dice (rolled once for the
/// encounter): a 2 vs 2 of 2-hp fighters and orcs answers, inside the simulator's intervals.
#[test]
fn odd_two_against_two_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/odd/skirmish-exact.toml");
}

/// The canonical keys forget how far below 0 a fallen combatant stands (OD&D: the dead,
/// ODD-A40; Spelljammer: out of the fight, with nothing that heals): `--round` lists the fallen
/// at 0 hp, so P(0 hp) is exactly P(fallen) and no hit points are below 0; the first round still
/// agrees with the fight.
#[test]
fn first_round_lists_the_fallen_at_zero_hp() {
    let odd = first_round_agrees_with_the_fight("examples/odd/skirmish-exact.toml");
    let sj = json(&[
        "odds",
        "examples/spelljammer/duel.toml",
        "--round",
        "--json",
    ]);
    for (round, fallen) in [(odd, "dead"), (sj, "down")] {
        for c in round["combatants"].as_array().unwrap() {
            let chance = |list: &str, key: serde_json::Value| {
                c["exact"][list]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|pair| pair[0] == key)
                    .map(|pair| fraction(&pair[1]))
                    .unwrap_or_else(BigRational::zero)
            };
            for pair in c["exact"]["hp"].as_array().unwrap() {
                assert!(pair[0].as_i64().unwrap() >= 0, "{c}");
            }
            let at_zero = chance("hp", 0.into());
            assert!(at_zero > BigRational::zero(), "{c}");
            assert_eq!(at_zero, chance("standing", fallen.into()), "{c}");
        }
    }
}

/// C&C's round is merged after the initiative and after each initiative group
/// (`rules::round::round_step`, CNC-R2, CNC-R4): four d10 initiatives, then a d20 and a damage
/// die a blow, would be far too wide for one round of a 2 vs 2 otherwise (it was refused, about
/// 1.3e10 branches estimated). With no missile weapon or magic in the fight, a grievously
/// wounded body's hit points and facing are forgotten at those points (nothing reaches it
/// again), so the fallen merge.
#[test]
fn cnc_two_against_two_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/cnc/skirmish-exact.toml");
}

// oddosr

/// Spelljammer's round is also merged after the declarations and initiatives
/// (`rules::round::round_step`, SJ-R2), and where nobody moves or casts its canonical key keeps
/// the segments only as an order (`rules::odds_key`): the four initiative d10s of a 2 vs 2
/// (10,000 schedules) merge into the 75 orders of four actions, and the fight answers (it was
/// refused at once, about 2.0e7 branches estimated), inside the simulator's intervals.
#[test]
fn spelljammer_two_against_two_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/spelljammer/skirmish-exact.toml");
}

// oddosr3

/// OSR's armed duel (`examples/osr/duel-armed-exact.toml`): a sloppy fumble's free attacks,
/// which may chain without end (OSR-R18.1, OSR-A10), are summed inside the step where they come
/// back to an equal state, and the round is merged after every action as a bare-handed bout's
/// is; the exact chances lie inside the simulator's intervals.
#[test]
fn osr_armed_duel_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/osr/duel-armed-exact.toml");
}

// oddosr4

/// OSR's 2 vs 2 (`examples/osr/skirmish-exact.toml`, four 1-hp giant rats, two rounds): the
/// round merged after every action (`rules::round::round_step`), the d20s read only by class
/// branching once per class (`fray_core::FaceClasses`: an attack's natural 1, miss, hit and
/// natural 20, OSR-R17, R18), the initiative d6s once per order of their totals
/// (`fray_core::ranked`, OSR-R4), a dead rat's record forgotten once it can no longer act,
/// and, no rat able to move, the facings that read alike and the plans of those who acted
/// (`rules::odds_key`, OSR-A28, A32, R19), the marks past the last round too. The exact
/// chances lie inside the simulator's intervals, and each side can win, exactly as often as
/// the other.
#[test]
fn osr_two_against_two_fight_odds_agree_with_the_simulator() {
    let exact = fight_agrees_with_sim("examples/osr/skirmish-exact.toml");
    for side in ["west", "east"] {
        assert!(fraction(&exact["exact"]["wins"][side]) > BigRational::zero());
    }
    // The sides are alike but for their squares, and the simultaneous on one number resolve
    // against the state at its start (OSR-A32): neither gains by the order they are taken in.
    assert_eq!(
        exact["exact"]["wins"]["west"], exact["exact"]["wins"]["east"],
        "{exact}"
    );
}

// oddcel

/// Celesia's 2 vs 2 (`examples/celesia/skirmish-exact.toml`): the four initiative d20s are
/// merged before the first turn and each act after it (`rules::round::round_step`, CEL-R1.2,
/// R3), and a dead fighter's record and place in the order are forgotten (`rules::odds_key`,
/// CEL-R17.9), so the states at each point stay in the low thousands.
#[test]
fn celesia_two_against_two_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/celesia/skirmish-exact.toml");
}

// celkey

/// A Celesia fighter of 1 hp, CON 2 and `scores`, with `weapon` and chainmail: disabled down
/// to −1 hp, dying at −2 and −3, dead from −4 (CEL-R17.2, R17.3, R17.9).
fn celesia_fighter(id: &str, side: &str, at: [i32; 2], scores: &str, weapon: &str) -> String {
    combatant(
        id,
        side,
        at,
        &format!(
            "class = \"fighter\"\nlevel = 1\nhp = 1\nscores = {{ {scores}, con = 2 }}\n\
             weapon = \"{weapon}\"\narmor = \"chainmail\""
        ),
    )
}

/// `fray odds --round` lists a dead Celesia fighter at −2 × CON hit points, the first of the
/// Dead band (CEL-R17.9, `rules::odds_key`): whatever blow killed it, no line lies below that
/// point, and that line's chance is exactly the fighter's P(dead). One West longsword (1d8 + 2
/// from STR 15) against two East short swords, all of 1 hp and CON 2, so each of the three may
/// end the round up, dying (−2, −3) or dead (a longsword's −2 to −9 without the key); the East
/// side goes on after one of its fighters dies, so the dead one's record and place in the order
/// are forgotten inside the round too, and the round still agrees with the fight.
#[test]
fn first_round_lists_a_dead_celesia_fighter_at_minus_twice_con() {
    let dir = scratch("celesia-dead");
    let combatants = [
        celesia_fighter("west", "a", [0, 0], "str = 15, dex = 10", "longsword"),
        celesia_fighter("east-1", "b", [1, 0], "str = 12, dex = 16", "short sword"),
        celesia_fighter("east-2", "b", [1, 1], "str = 12, dex = 14", "short sword"),
    ]
    .concat();
    let head = "max_rounds = 2\n[options]\ncrippling_injuries = false\n";
    let file = write(
        &dir,
        "dead.toml",
        &encounter("celesia", "Dead at -2 CON", head, &combatants),
    );
    let round = first_round_agrees_with_the_fight(&file);
    let dead_at = -2 * 2;
    for c in round["combatants"].as_array().unwrap() {
        let chance = |list: &str, key: serde_json::Value| {
            c["exact"][list]
                .as_array()
                .unwrap()
                .iter()
                .find(|pair| pair[0] == key)
                .map(|pair| fraction(&pair[1]))
                .unwrap_or_else(BigRational::zero)
        };
        for pair in c["exact"]["hp"].as_array().unwrap() {
            assert!(pair[0].as_i64().unwrap() >= dead_at, "{c}");
        }
        let dead = chance("standing", "dead".into());
        assert!(dead > BigRational::zero(), "{c}");
        assert_eq!(chance("hp", dead_at.into()), dead, "{c}");
        // The dying lie above the Dead band: P(down) is P(−2 or −3 hp).
        let dying = chance("hp", (-2).into()) + chance("hp", (-3).into());
        assert_eq!(dying, chance("standing", "down".into()), "{c}");
    }
    // The text shows the same line.
    let o = fray(&["odds", &file, "--round"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("  -4 hp"), "{text}");
    assert!(!text.contains("  -5 hp"), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

// oddbudget

/// Initiative ties rolled off (CEL-R1.3) in a Celesia duel of equal DEX modifiers: a roll-off
/// that ties again is the same roll-off once more, a cycle the enumerator sums exactly
/// (`rules::round::roll_off`, `Table::recurrence`), so the duel is answered (it was refused at
/// once, the probes weighing the roll-offs without end). Its chances agree with a 200,000-run
/// `fray sim`; and two fighters alike in everything but their square win exactly as often as
/// each other, so the roll-off gives neither the first turn more often (fairness: file order
/// gives no edge).
#[test]
fn a_celesia_duel_of_equal_initiative_modifiers_is_answered() {
    let dir = scratch("celesia-tied");
    let fighter = |id: &str, side: &str, at: [i32; 2], scores: &str, weapon: &str| {
        combatant(
            id,
            side,
            at,
            &format!(
                "class = \"fighter\"\nlevel = 1\nhp = 2\nscores = {{ {scores}, con = 6 }}\n\
                 weapon = \"{weapon}\"\narmor = \"chainmail\""
            ),
        )
    };
    let head = "max_rounds = 3\n";
    let unlike = [
        fighter("west", "a", [0, 0], "str = 15, dex = 12", "longsword"),
        fighter("east", "b", [1, 0], "str = 12, dex = 13", "short sword"),
    ]
    .concat();
    let file = write(
        &dir,
        "tied.toml",
        &encounter("celesia", "Tied initiative", head, &unlike),
    );
    fight_agrees_with_sim(&file);
    let alike = [
        fighter("west", "a", [0, 0], "str = 15, dex = 12", "longsword"),
        fighter("east", "b", [1, 0], "str = 15, dex = 12", "longsword"),
    ]
    .concat();
    let file = write(
        &dir,
        "alike.toml",
        &encounter("celesia", "Alike", head, &alike),
    );
    let exact = json(&["odds", &file, "--fight", "--json"]);
    let wins = &exact["exact"]["wins"];
    assert!(fraction(&wins["a"]) > BigRational::zero(), "{exact}");
    assert_eq!(fraction(&wins["a"]), fraction(&wins["b"]), "{exact}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The full-strength C&C duel (a 3-hp kobold against a 4-hp goblin, the default 100 rounds):
/// each state keeps the largest answer count that reaches it (`fight_odds::Counts`), so the
/// counts no longer spread over the rounds and multiply the work (it ran for minutes, neither
/// answered nor refused, the counts unweighed by the budget): it answers within the budget of
/// work units, the same answer each time (counted, never timed), and agrees with `fray sim`.
#[test]
fn the_full_strength_cnc_duel_answers_within_its_budget() {
    let dir = scratch("cnc-full-duel");
    let combatants = [
        combatant("kobold", "a", [0, 0], "monster = \"kobold\"\nhp = 3"),
        combatant("goblin", "b", [1, 0], "monster = \"goblin\"\nhp = 4"),
    ]
    .concat();
    let file = write(
        &dir,
        "full-duel.toml",
        &encounter("cnc", "Full-strength duel", "", &combatants),
    );
    let args = ["odds", file.as_str(), "--fight", "--json"];
    let (first, again) = (fray(&args), fray(&args));
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(first.stdout, again.stdout, "the same answer each time");
    let exact: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    let branches = exact["branches"].as_u64().unwrap();
    assert!(
        branches <= fray_core::fight_odds::MAX_FIGHT_BRANCHES as u64,
        "{branches}"
    );
    // Long fights are carried to the end: some state still stands after 40 rounds.
    let rounds = exact["exact"]["ends_in_round"].as_array().unwrap().len();
    assert!(rounds > 40, "{rounds}");
    // Each side's win against 200,000 simulated fights (the stalemate at 100 rounds, some
    // 1e-31, is below what an interval can tell from zero).
    let sim = json(&["sim", &file, "-n", "200000", "--seed", "17", "--json"]);
    let mut total =
        fraction(&exact["exact"]["none_standing"]) + fraction(&exact["exact"]["stalemate"]);
    for side in sim["sides"].as_array().unwrap() {
        let id = side["id"].as_str().unwrap();
        let p = fraction(&exact["exact"]["wins"][id]);
        total += &p;
        let (lo, hi) = wilson_999(side["wins"].as_u64().unwrap(), 200_000);
        let p = to_f64(&p);
        assert!(lo <= p && p <= hi, "{id} wins {p} exactly, sim {lo}–{hi}");
    }
    assert_eq!(total, BigRational::one(), "the chances sum to one");
    let _ = std::fs::remove_dir_all(dir);
}

// oddbudget2

/// Spelljammer's duel (`examples/spelljammer/duel.toml`, 3 rounds) with `hp` hit points a
/// marine and `rounds` rounds, as a scratch file in `dir`.
fn spelljammer_duel_of(dir: &std::path::Path, hp: u32, rounds: u32) -> String {
    let text = std::fs::read_to_string("examples/spelljammer/duel.toml")
        .unwrap()
        .replace("\nhp = 1\n", &format!("\nhp = {hp}\n"))
        .replace("\nmax_rounds = 3\n", &format!("\nmax_rounds = {rounds}\n"));
    assert_eq!(
        text.matches(&format!("\nhp = {hp}\n")).count(),
        2,
        "both marines"
    );
    assert!(text.contains(&format!("\nmax_rounds = {rounds}\n")));
    write(dir, &format!("duel-{hp}hp-{rounds}r.toml"), &text)
}

/// The units of work a refusal says were spent (`(N spent, at most M)`), and its limit.
fn spent_of(err: &str) -> (u64, u64) {
    let (head, tail) = err
        .split_once(" spent, at most ")
        .unwrap_or_else(|| panic!("a refusal with its units spent: {err}"));
    let spent = head.rsplit_once('(').expect("(N spent").1;
    let limit = tail.split(')').next().unwrap();
    (spent.parse().unwrap(), limit.parse().unwrap())
}

/// A fight the probes let through but that will not fit (Spelljammer's duel at 20 hp a marine,
/// 2 rounds: its states outgrow what the probes see; since its d100s are read by class, SJ-R9,
/// it needs 371,576 units, so it is weighed against a budget of [`TWENTY_HP_WORK`]) is refused
/// partway through, at a settled point where its counted states project past the budget, not
/// after spending the whole budget: the message names the projection, the units spent, and
/// the way out (docs/odds.md, "Limits").
#[test]
fn a_fight_that_will_not_fit_is_refused_partway_by_its_projection() {
    let dir = scratch("spelljammer-twenty-hp");
    let file = spelljammer_duel_of(&dir, 20, 2);
    let err = refused_for_sim(&["odds", &file, "--fight", "--max-work", TWENTY_HP_WORK]);
    assert!(
        err.contains("units of work over the fight's rounds, projected from the"),
        "{err}"
    );
    let (spent, limit) = spent_of(&err);
    assert_eq!(limit.to_string(), TWENTY_HP_WORK, "{err}");
    assert!(
        spent > 0 && spent < limit,
        "partway, before the budget is spent: {err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A budget Spelljammer's duel at 20 hp a marine over 2 rounds does not fit (it needs 371,576
/// units).
const TWENTY_HP_WORK: &str = "250000";

/// A budget the 4-hp duel does not fit (it needs 21,670 units since its d100s are read by
/// class; 474,108 before): refused partway through.
const PARTWAY_WORK: &str = "20000";

/// `--max-work N` weighs every refusal against N units of work: a fight that answers within
/// the default budget (Spelljammer's duel at 4 hp a marine) is refused past a smaller one,
/// partway through or at once, each time with the way out; within a budget it fits, its answer
/// is the default's, byte for byte; and a budget past the default is refused as bad input.
#[test]
fn max_work_weighs_the_refusals_against_a_smaller_budget() {
    let dir = scratch("spelljammer-four-hp-work");
    let file = spelljammer_duel_of(&dir, 4, 3);
    let answered = fray(&["odds", &file, "--fight", "--json"]);
    assert!(answered.status.success(), "{}", stderr(&answered));
    let exact: serde_json::Value = serde_json::from_slice(&answered.stdout).unwrap();
    let branches = exact["branches"].as_u64().unwrap();
    let within = (branches + 1).to_string();
    let again = fray(&["odds", &file, "--fight", "--json", "--max-work", &within]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(
        again.stdout, answered.stdout,
        "the same answer within a budget that fits"
    );
    // Partway: played, then refused at a settled point (its projection or its budget spent).
    let partway = refused_for_sim(&["odds", &file, "--fight", "--max-work", PARTWAY_WORK]);
    let (spent, limit) = spent_of(&partway);
    assert_eq!(limit.to_string(), PARTWAY_WORK, "{partway}");
    assert!(spent > 0 && spent <= limit, "{partway}");
    // At once: the probes' estimate past 1.5 times a tiny budget.
    let at_once = refused_for_sim(&["odds", &file, "--fight", "--max-work", "1000"]);
    assert!(
        at_once.contains("estimated by seeded probes before playing any (0 played, at most 1000)"),
        "{at_once}"
    );
    let past = fray(&["odds", &file, "--fight", "--max-work", "5000001"]);
    assert_eq!(past.status.code(), Some(2), "{}", stderr(&past));
    assert!(stderr(&past).contains("--max-work"), "{}", stderr(&past));
    let _ = std::fs::remove_dir_all(dir);
}

// oddosr5

/// `examples/osr/duel.toml --fight` (two armed fighters of 2 hp, three rounds) answers, where it
/// ran for minutes: its hits' damage dice branch once for each total that leaves the victim
/// standing and once for all that drop it (`attack::damage_classes`, OSR-R30.2, A28), and a
/// fumble's round marks are forgotten once over (`rules::odds_key`); its exact chances lie
/// inside the simulator's intervals.
#[test]
fn osr_duel_fight_odds_agree_with_the_simulator() {
    fight_agrees_with_sim("examples/osr/duel.toml");
}

/// The odds of one OSR attack report the damage itself, past what drops the target (2 hp): there
/// a hit's dice are not read by whether they drop it (`attack::damage_classes`, `State::single`).
#[test]
fn osr_one_attack_odds_report_damage_past_the_targets_hit_points() {
    let v = attack_json("examples/osr/duel.toml", "w-fighter", "e-fighter", &[]);
    let damage = v["damage"].as_array().unwrap();
    // A long sword's d8 + 1 each apart (2 to 9), and a critical's more.
    assert!(damage.len() > 9, "{v}");
    assert!(damage.last().unwrap()[0].as_i64().unwrap() > 9, "{v}");
}

/// `fray odds FILE --fight` of two 1-hp giant rats face to face for `rounds` rounds, the `b` rat's
/// blocks first when `b_first`: the exact JSON.
fn rat_mirror(dir: &std::path::Path, rounds: u32, b_first: bool) -> serde_json::Value {
    let a = combatant(
        "a-rat",
        "a",
        [0, 0],
        "monster = \"giant rat\"\nhp = 1\nfacing = \"east\"",
    );
    let b = combatant(
        "b-rat",
        "b",
        [1, 0],
        "monster = \"giant rat\"\nhp = 1\nfacing = \"west\"",
    );
    let rats = if b_first { b + &a } else { a + &b };
    let head = format!("max_rounds = {rounds}\n");
    let text = encounter("osr", "Rat mirror", &head, &rats);
    let file = write(dir, &format!("rats-{rounds}-{b_first}.toml"), &text);
    json(&["odds", &file, "--fight", "--json"])
}

/// OSR-A32 ("Equal initiative numbers act simultaneously"): actions on one number resolve
/// against the state at its start, so a rat killed on a number still answers its killer's
/// sloppy fumble with a free attack (OSR-R18.1) as it would had it struck first. Two mirror
/// rats then win exactly as often as each other, over one round (where the countdown's order of
/// the simultaneous is west first) and two, whichever of their blocks the file gives first.
#[test]
fn osr_mirror_rats_win_exactly_as_often_as_each_other() {
    let dir = scratch("osr-rat-mirror");
    for rounds in [1, 2] {
        let v = rat_mirror(&dir, rounds, false);
        let (a, b) = (
            fraction(&v["exact"]["wins"]["a"]),
            fraction(&v["exact"]["wins"]["b"]),
        );
        assert!(a > BigRational::zero(), "{v}");
        assert_eq!(a, b, "{v}");
        let swapped = rat_mirror(&dir, rounds, true);
        assert_eq!(swapped["exact"]["wins"], v["exact"]["wins"], "{swapped}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

// odds7

/// `fray odds FILE --fight --json`'s exact chances (`"exact"`) and its branches.
fn exact_and_branches(file: &str) -> (serde_json::Value, u64) {
    let v = json(&["odds", file, "--fight", "--json"]);
    (v["exact"].clone(), v["branches"].as_u64().unwrap())
}

/// A fight with its initiative dice rolled ranked (one branch per order of their totals,
/// `Table::roll_ranked`) against the same fight with the ranking off (`unranked`, a file the
/// rules play alike): the same exact chances, and fewer branches.
fn ranked_initiative_is_exact(ranked: &str, unranked: &str) {
    let (exact, branches) = exact_and_branches(ranked);
    let (plain, plain_branches) = exact_and_branches(unranked);
    assert_eq!(exact, plain, "{ranked}: the same chances ranked or not");
    assert!(
        branches < plain_branches,
        "{ranked}: {branches} branches ranked, {plain_branches} not"
    );
}

/// Spelljammer's d10 initiatives (SJ-R2), one a marine, are rolled ranked where only the order
/// of the segments is read (`rules::round::ranked_initiatives`): its duel answers exactly as
/// the same duel does with a forced move after the round limit (SJ-R5.3: a forced move reads a
/// segment's value, so neither the dice nor the key rank there, and it never happens).
#[test]
fn spelljammer_ranked_initiative_changes_no_chance() {
    let dir = scratch("spelljammer-ranked");
    let text = std::fs::read_to_string("examples/spelljammer/duel.toml").unwrap();
    let forced = "\n[[forced_moves]]\nwho = \"w-marine\"\nround = 50\nsegment = 5\nto = [0, 1]\nreason = \"never\"\n";
    let unranked = write(&dir, "forced.toml", &(text + forced));
    ranked_initiative_is_exact("examples/spelljammer/duel.toml", &unranked);
    let _ = std::fs::remove_dir_all(dir);
}

/// OD&D's initiative d6s, rolled once for the encounter (ODD-R4.1), are rolled ranked
/// (`rules::round::ranked_initiative`): its duel over one round answers exactly as it does with
/// the DM's toggle that rolls initiative again every round (ODD-R4.3, ODD-A9: new dice would
/// meet the counts, so neither the dice nor the key rank there), which over one round rolls
/// nothing again.
#[test]
fn odd_ranked_initiative_changes_no_chance() {
    let dir = scratch("odd-ranked");
    let text = std::fs::read_to_string("examples/odd/duel.toml")
        .unwrap()
        .replace("\nmax_rounds = 3\n", "\nmax_rounds = 1\n");
    let reroll = text.replace(
        "\n[encounter]\n",
        "\n[options]\nreroll_initiative = true\n\n[encounter]\n",
    );
    assert_ne!(reroll, text);
    let ranked = write(&dir, "once.toml", &text);
    let unranked = write(&dir, "reroll.toml", &reroll);
    ranked_initiative_is_exact(&ranked, &unranked);
    let _ = std::fs::remove_dir_all(dir);
}

/// CEL-G6: under `crit_deck = true` the GM is asked at each critical hit whether the drawn card
/// says normal damage; `fray odds` answers as the stand-in GM (no card: the usual critical), so
/// its exact answer, one attack and a whole turn of them, is the one without the deck.
#[test]
fn celesia_odds_with_the_critical_hit_deck_are_the_usual_criticals() {
    let dir = scratch("celesia-crit-deck");
    let combatants = combatant(
        "bar",
        "a",
        [0, 0],
        "class = \"fighter\"\nlevel = 10\nhp = 40\nscores = { str = 18, dex = 14 }\n\
         weapon = \"warhammer\"",
    ) + &combatant("orc", "b", [1, 0], "monster = \"orc\"\nhp = 30");
    let plain = write(
        &dir,
        "plain.toml",
        &encounter("celesia", "deck", "", &combatants),
    );
    let deck = write(
        &dir,
        "deck.toml",
        &encounter(
            "celesia",
            "deck",
            "[options]\ncrit_deck = true\n",
            &combatants,
        ),
    );
    for extra in [&[][..], &["--routine"][..]] {
        let (a, b) = (
            attack_json(&plain, "bar", "orc", extra),
            attack_json(&deck, "bar", "orc", extra),
        );
        assert_eq!(a["exact"], b["exact"], "{extra:?}");
        assert!(a["exact"].to_string().len() > 10, "{a}");
    }
}
