//! The initiator's maneuvers and stances as content data (`content/celesia/maneuvers.toml`:
//! `[[stance]]`, `[[strike]]`, `[[boost]]`, `[[counter]]`). The seed names the actions — Initiate
//! or Change Stance (CEL-R14), Initiate Standard Strike (CEL-R11), Initiate Full-Attack Strike
//! (CEL-R12), Initiate Boost (CEL-R9), Counter and Use an Immediate-Action Ability (CEL-R15) —
//! and Martial Power's "knowledge of at least one maneuver or stance"
//! (CEL-R16.5), but defines no maneuver or stance: the GM supplies them as data, read here with
//! every error naming its file, line and field. The file's entries are fray's sample content,
//! not the seed's.

use crate::state::Trick;
use fray_core::span::{FileError, SourceFile};
use fray_core::DamageDice;
use serde::Deserialize;
use toml::Spanned;

/// Most maneuvers and stances an encounter's combatants know between them (`State::maneuver_book`;
/// each fighter counts the uses of each in a fixed array).
pub const MAX_BOOK: usize = 16;
/// Most uses a fight of one strike or counter (`uses`).
pub const MAX_USES: i64 = 20;
/// Most rounds a strike's condition lasts (`rounds`).
pub const MAX_ROUNDS: i64 = 10;
/// Most attacks one strike makes (`attacks`).
pub const MAX_STRIKE_ATTACKS: i64 = 4;
/// Most dice a strike or boost adds to a hit's damage (`dice`).
pub const MAX_EXTRA_DICE: u16 = 20;

/// A stance: modifiers that hold while it is active. [CEL-R14 Initiate or Change Stance]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Stance {
    /// To its attack rolls.
    pub attack: i32,
    /// To its damage rolls (a hit's damage).
    pub damage: i32,
    /// To its DV.
    pub dv: i32,
    /// To its saving throws (Fortitude, Reflex, Will).
    pub saves: i32,
    /// To its speed, in feet.
    pub speed: i32,
}

/// A strike's initiation action: the seed's two strike actions. [CEL-R11 Initiate Standard
/// Strike, CEL-R12 Initiate Full-Attack Strike]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Initiation {
    /// "an initiation action of standard": a standard action, 2 consecutive acts (CEL-R11).
    Standard,
    /// "an initiation action of full-attack": a full action, 3 consecutive acts (CEL-R12).
    FullAttack,
    /// "… or full-round": a full action too, 3 consecutive acts (CEL-R12; the seed's
    /// conversion, "Full-Attack and Full-Round Actions Are Full Actions (3 acts)").
    FullRound,
}

impl Initiation {
    /// The words of the data (`standard`, `full-attack`, `full-round`).
    pub const KEYS: [(&'static str, Initiation); 3] = [
        ("standard", Initiation::Standard),
        ("full-attack", Initiation::FullAttack),
        ("full-round", Initiation::FullRound),
    ];

    /// Acts the initiation takes: 2 for a standard action, 3 for a full one. [CEL-R3.1]
    pub fn acts(self) -> i32 {
        match self {
            Initiation::Standard => 2,
            Initiation::FullAttack | Initiation::FullRound => 3,
        }
    }

    /// The rule of its action (`CEL-R11` standard, `CEL-R12` full).
    pub fn rule(self) -> &'static str {
        match self {
            Initiation::Standard => "CEL-R11",
            Initiation::FullAttack | Initiation::FullRound => "CEL-R12",
        }
    }

    /// Its word in the data and the log.
    pub fn key(self) -> &'static str {
        match self {
            Initiation::Standard => "standard",
            Initiation::FullAttack => "full-attack",
            Initiation::FullRound => "full-round",
        }
    }
}

/// A strike: `attacks` melee attacks with the wielded weapon, each with the strike's own
/// modifiers, initiated as a standard action (2 acts) or a full action (3 acts). [CEL-R11
/// Initiate Standard Strike, CEL-R12 Initiate Full-Attack Strike]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Strike {
    /// To the strike's attack roll.
    pub attack: i32,
    /// Dice added to the hit's damage (rolled once, not multiplied on a critical).
    pub dice: Option<DamageDice>,
    /// Added to the hit's damage.
    pub damage: i32,
    /// A condition a hit gives, for `rounds` rounds (until the start of the striker's turn that
    /// many rounds on, CEL-A39).
    pub condition: Option<Trick>,
    /// Rounds the condition lasts.
    pub rounds: u8,
    /// Initiating it provokes attacks of opportunity (Provoke subtype).
    pub provoke: bool,
    /// Its initiation action (standard by default).
    pub initiation: Initiation,
    /// Melee attacks it makes on its foe, each with its numbers (1 to [`MAX_STRIKE_ATTACKS`]).
    pub attacks: u8,
}

/// When a boost's effects end: the two ends the seed's own effects state ("until the end of
/// your turn", the charge's advantage; "until the start of your next turn", Martial Power's).
/// [CEL-R9 Initiate Boost]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Until {
    /// At the end of the turn it is initiated in.
    EndOfTurn,
    /// At the start of the initiator's next turn (its attacks of opportunity and DV between
    /// turns count it).
    StartOfNextTurn,
}

impl Until {
    /// The words of the data (`end-of-turn`, `start-of-next-turn`).
    pub const KEYS: [(&'static str, Until); 2] = [
        ("end-of-turn", Until::EndOfTurn),
        ("start-of-next-turn", Until::StartOfNextTurn),
    ];

    /// Its end in words (`until the end of its turn`).
    pub fn words(self) -> &'static str {
        match self {
            Until::EndOfTurn => "until the end of its turn",
            Until::StartOfNextTurn => "until the start of its next turn",
        }
    }
}

/// A boost: modifiers that hold from its initiation (a simple action, 1 act) until its stated
/// end — to attack rolls, to a hit's damage (a bonus and dice), to DV. [CEL-R9 Initiate Boost]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Boost {
    /// To its attack rolls.
    pub attack: i32,
    /// Added to each hit's damage.
    pub damage: i32,
    /// Dice added to each hit's damage (rolled once a hit, not multiplied on a critical).
    pub dice: Option<DamageDice>,
    /// To its DV.
    pub dv: i32,
    /// When its effects end.
    pub until: Until,
    /// Initiating it provokes attacks of opportunity (its data's subtype; the seed's Initiate
    /// Boost has none).
    pub provoke: bool,
}

/// A counter or an immediate-action ability: a reaction when a foe attacks it, before the attack
/// resolves — a bonus to its DV against that attack. [CEL-R15 Counter, Use an Immediate-Action
/// Ability]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Counter {
    /// To its DV against the triggering attack.
    pub dv: i32,
    /// An immediate-action ability (`Use an Immediate-Action Ability`), not a Counter maneuver.
    pub immediate: bool,
    /// Using it provokes (an immediate-action ability's subtype, given by its data; a Counter
    /// has none: the seed's table gives it no subtype).
    pub provoke: bool,
}

/// What one entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A stance.
    Stance(Stance),
    /// A strike maneuver.
    Strike(Strike),
    /// A boost maneuver.
    Boost(Boost),
    /// A counter maneuver or an immediate-action ability.
    Counter(Counter),
}

/// One maneuver or stance.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Maneuver {
    /// Its name (its key in `stances`/`maneuvers` and in choices, spaces as `-`).
    pub name: String,
    /// What it is.
    pub kind: Kind,
    /// Uses a fight (a strike or counter is readied once used: spent, CEL-R15 "a Counter maneuver
    /// that you have readied"; a stance has no count).
    pub uses: u8,
}

impl Maneuver {
    /// Its key in choices: the name with spaces as `-`, lower case.
    pub fn key(&self) -> String {
        fray_core::catalog::name_key(&self.name)
    }

    /// The stance, if it is one.
    pub fn stance(&self) -> Option<Stance> {
        match self.kind {
            Kind::Stance(s) => Some(s),
            _ => None,
        }
    }

    /// The strike, if it is one.
    pub fn strike(&self) -> Option<Strike> {
        match self.kind {
            Kind::Strike(s) => Some(s),
            _ => None,
        }
    }

    /// The boost, if it is one.
    pub fn boost(&self) -> Option<Boost> {
        match self.kind {
            Kind::Boost(b) => Some(b),
            _ => None,
        }
    }

    /// The counter or immediate-action ability, if it is one.
    pub fn counter(&self) -> Option<Counter> {
        match self.kind {
            Kind::Counter(c) => Some(c),
            _ => None,
        }
    }

    /// What it is, in a word (`stance`, `strike`, `boost`, `counter`, `immediate-action
    /// ability`).
    pub fn what(&self) -> &'static str {
        match self.kind {
            Kind::Stance(_) => "stance",
            Kind::Strike(_) => "strike",
            Kind::Boost(_) => "boost",
            Kind::Counter(c) if c.immediate => "immediate-action ability",
            Kind::Counter(_) => "counter",
        }
    }
}

/// One `[[stance]]` of a content file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StanceFile {
    name: Spanned<String>,
    attack: Option<Spanned<i64>>,
    damage: Option<Spanned<i64>>,
    dv: Option<Spanned<i64>>,
    saves: Option<Spanned<i64>>,
    speed: Option<Spanned<i64>>,
    #[allow(dead_code)]
    description: Option<String>,
}

/// One `[[strike]]` of a content file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StrikeFile {
    name: Spanned<String>,
    attack: Option<Spanned<i64>>,
    dice: Option<Spanned<String>>,
    damage: Option<Spanned<i64>>,
    condition: Option<Spanned<String>>,
    rounds: Option<Spanned<i64>>,
    #[serde(default)]
    provoke: bool,
    uses: Option<Spanned<i64>>,
    initiation: Option<Spanned<String>>,
    attacks: Option<Spanned<i64>>,
    #[allow(dead_code)]
    description: Option<String>,
}

/// One `[[boost]]` of a content file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoostFile {
    name: Spanned<String>,
    attack: Option<Spanned<i64>>,
    dice: Option<Spanned<String>>,
    damage: Option<Spanned<i64>>,
    dv: Option<Spanned<i64>>,
    until: Spanned<String>,
    #[serde(default)]
    provoke: bool,
    uses: Option<Spanned<i64>>,
    #[allow(dead_code)]
    description: Option<String>,
}

/// One `[[counter]]` of a content file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CounterFile {
    name: Spanned<String>,
    trigger: Spanned<String>,
    dv: Spanned<i64>,
    #[serde(default)]
    immediate: bool,
    provoke: Option<Spanned<bool>>,
    uses: Option<Spanned<i64>>,
    #[allow(dead_code)]
    description: Option<String>,
}

/// The triggers a counter may name (one so far: "a foe attacks you").
pub const TRIGGERS: [&str; 1] = ["foe-attacks"];

fn int(
    file: &SourceFile<'_>,
    at: &str,
    name: &str,
    v: &Option<Spanned<i64>>,
    (lo, hi, default): (i64, i64, i32),
    errors: &mut Vec<FileError>,
) -> i32 {
    crate::content::check_int(file, &format!("{at}.{name}"), v, (lo, hi, default), errors)
}

/// Reads and checks one `[[stance]]` (`at`: `stance[0]`).
pub(crate) fn read_stance(
    file: &SourceFile<'_>,
    at: &str,
    s: &StanceFile,
    errors: &mut Vec<FileError>,
) -> Option<(Maneuver, std::ops::Range<usize>)> {
    let before = errors.len();
    let speed = int(file, at, "speed", &s.speed, (-30, 30, 0), errors);
    if speed % 5 != 0 {
        errors.push(file.error(
            s.speed.as_ref().map_or(0..0, |v| v.span()),
            Some(format!("{at}.speed")),
            format!("a speed change is in feet, a multiple of 5; found {speed}"),
        ));
    }
    let stance = Stance {
        attack: int(file, at, "attack", &s.attack, (-10, 10, 0), errors),
        damage: int(file, at, "damage", &s.damage, (-10, 20, 0), errors),
        dv: int(file, at, "dv", &s.dv, (-10, 10, 0), errors),
        saves: int(file, at, "saves", &s.saves, (-10, 10, 0), errors),
        speed,
    };
    name_ok(file, at, &s.name, errors);
    (errors.len() == before).then(|| {
        (
            Maneuver {
                name: s.name.get_ref().clone(),
                kind: Kind::Stance(stance),
                uses: 0,
            },
            s.name.span(),
        )
    })
}

/// Reads and checks one `[[strike]]` (`at`: `strike[0]`).
pub(crate) fn read_strike(
    file: &SourceFile<'_>,
    at: &str,
    s: &StrikeFile,
    errors: &mut Vec<FileError>,
) -> Option<(Maneuver, std::ops::Range<usize>)> {
    let before = errors.len();
    let dice = extra_dice(file, at, &s.dice, errors);
    let condition = s.condition.as_ref().and_then(|c| {
        let trick = Trick::from_key(c.get_ref());
        if trick.is_none() {
            errors.push(file.error(
                c.span(),
                Some(format!("{at}.condition")),
                format!(
                    "unknown condition `{}`; expected one of {}",
                    c.get_ref(),
                    fray_core::loader::one_of(
                        Trick::ALL
                            .iter()
                            .map(|t| fray_core::conditions::ConditionKind::key(*t))
                    )
                ),
            ));
        }
        trick
    });
    if s.rounds.is_some() && s.condition.is_none() {
        errors.push(file.error(
            s.rounds.as_ref().map_or(0..0, |r| r.span()),
            Some(format!("{at}.rounds")),
            "`rounds` goes with `condition`",
        ));
    }
    let rounds = int(file, at, "rounds", &s.rounds, (1, MAX_ROUNDS, 1), errors);
    let initiation = crate::content::keyword(
        file,
        &format!("{at}.initiation"),
        &s.initiation,
        &Initiation::KEYS,
        Initiation::Standard,
        errors,
    );
    let attacks = int(
        file,
        at,
        "attacks",
        &s.attacks,
        (1, MAX_STRIKE_ATTACKS, 1),
        errors,
    );
    let strike = Strike {
        attack: int(file, at, "attack", &s.attack, (-10, 10, 0), errors),
        dice,
        damage: int(file, at, "damage", &s.damage, (-10, 40, 0), errors),
        condition,
        rounds: rounds as u8,
        provoke: s.provoke,
        initiation,
        attacks: attacks as u8,
    };
    let uses = int(file, at, "uses", &s.uses, (1, MAX_USES, 1), errors);
    name_ok(file, at, &s.name, errors);
    (errors.len() == before).then(|| {
        (
            Maneuver {
                name: s.name.get_ref().clone(),
                kind: Kind::Strike(strike),
                uses: uses as u8,
            },
            s.name.span(),
        )
    })
}

/// Reads and checks one `[[boost]]` (`at`: `boost[0]`): an `until` of the two ends, and at
/// least one effect (a boost of no effect is a mistake in the data).
pub(crate) fn read_boost(
    file: &SourceFile<'_>,
    at: &str,
    b: &BoostFile,
    errors: &mut Vec<FileError>,
) -> Option<(Maneuver, std::ops::Range<usize>)> {
    let before = errors.len();
    let until = crate::content::keyword(
        file,
        &format!("{at}.until"),
        &Some(b.until.clone()),
        &Until::KEYS,
        Until::EndOfTurn,
        errors,
    );
    let boost = Boost {
        attack: int(file, at, "attack", &b.attack, (-10, 10, 0), errors),
        damage: int(file, at, "damage", &b.damage, (-10, 40, 0), errors),
        dice: extra_dice(file, at, &b.dice, errors),
        dv: int(file, at, "dv", &b.dv, (-10, 10, 0), errors),
        until,
        provoke: b.provoke,
    };
    if errors.len() == before
        && boost.attack == 0
        && boost.damage == 0
        && boost.dice.is_none()
        && boost.dv == 0
    {
        errors.push(file.error(
            b.name.span(),
            Some(format!("{at}.name")),
            "a boost needs an effect: one of `attack`, `damage`, `dice` or `dv` not 0",
        ));
    }
    let uses = int(file, at, "uses", &b.uses, (1, MAX_USES, 1), errors);
    name_ok(file, at, &b.name, errors);
    (errors.len() == before).then(|| {
        (
            Maneuver {
                name: b.name.get_ref().clone(),
                kind: Kind::Boost(boost),
                uses: uses as u8,
            },
            b.name.span(),
        )
    })
}

/// A strike's or boost's `dice`: damage dice, at most [`MAX_EXTRA_DICE`].
fn extra_dice(
    file: &SourceFile<'_>,
    at: &str,
    dice: &Option<Spanned<String>>,
    errors: &mut Vec<FileError>,
) -> Option<DamageDice> {
    let d = dice.as_ref()?;
    let parsed = DamageDice::parse_dice(d.get_ref()).filter(|x| x.count <= MAX_EXTRA_DICE);
    if parsed.is_none() {
        errors.push(file.error(
            d.span(),
            Some(format!("{at}.dice")),
            format!("expected damage dice like `1d6` or `2d4+1` (at most {MAX_EXTRA_DICE} dice)"),
        ));
    }
    parsed
}

/// Reads and checks one `[[counter]]` (`at`: `counter[0]`).
pub(crate) fn read_counter(
    file: &SourceFile<'_>,
    at: &str,
    c: &CounterFile,
    errors: &mut Vec<FileError>,
) -> Option<(Maneuver, std::ops::Range<usize>)> {
    let before = errors.len();
    if !TRIGGERS.contains(&c.trigger.get_ref().as_str()) {
        errors.push(file.error(
            c.trigger.span(),
            Some(format!("{at}.trigger")),
            format!(
                "unknown trigger `{}`; expected one of {}",
                c.trigger.get_ref(),
                fray_core::loader::one_of(TRIGGERS.iter().copied())
            ),
        ));
    }
    if let (Some(p), false) = (&c.provoke, c.immediate) {
        errors.push(file.error(
            p.span(),
            Some(format!("{at}.provoke")),
            "a Counter has no subtype (CEL-R15): `provoke` goes with `immediate = true`, an \
             immediate-action ability whose subtype varies",
        ));
    }
    let dv = int(file, at, "dv", &Some(c.dv.clone()), (1, 10, 0), errors);
    let uses = int(file, at, "uses", &c.uses, (1, MAX_USES, 1), errors);
    name_ok(file, at, &c.name, errors);
    (errors.len() == before).then(|| {
        (
            Maneuver {
                name: c.name.get_ref().clone(),
                kind: Kind::Counter(Counter {
                    dv,
                    immediate: c.immediate,
                    provoke: c.provoke.as_ref().is_some_and(|p| *p.get_ref()),
                }),
                uses: uses as u8,
            },
            c.name.span(),
        )
    })
}

/// A name is 1 to 40 characters, not `none` (the word that leaves a stance).
fn name_ok(file: &SourceFile<'_>, at: &str, name: &Spanned<String>, errors: &mut Vec<FileError>) {
    let n = name.get_ref().trim();
    if n.is_empty() || n.len() > 40 || n.eq_ignore_ascii_case("none") {
        errors.push(file.error(
            name.span(),
            Some(format!("{at}.name")),
            "expected a name of 1 to 40 characters (not `none`)",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::{Initiation, Until};
    use crate::content::Content;
    use fray_core::catalog::ContentSet;

    fn load(text: &str) -> Result<Content, String> {
        Content::load(&[("m.toml", text)]).map_err(|e| e.to_string())
    }

    #[test]
    fn the_sample_maneuvers_load() {
        let c = Content::embedded().unwrap_or_else(|e| panic!("{e}"));
        let guard = c.maneuvers.get("iron-guard").expect("iron guard");
        assert_eq!(guard.stance().map(|s| s.dv), Some(2));
        let cut = c.maneuvers.get("sapphire cut").expect("sapphire cut");
        assert_eq!(cut.strike().map(|s| s.attack), Some(2));
        let parry = c.maneuvers.get("deflecting-parry").expect("parry");
        assert_eq!(parry.counter().map(|k| k.immediate), Some(false));
        assert!(c
            .maneuvers
            .iter()
            .any(|m| m.what() == "immediate-action ability"));
        assert!(c.maneuvers.iter().filter(|m| m.what() == "stance").count() >= 2);
        assert!(c.maneuvers.iter().filter(|m| m.what() == "strike").count() >= 2);
        let storm = c.maneuvers.get("storm of blades").and_then(|m| m.strike());
        let storm = storm.expect("storm of blades");
        assert_eq!(
            (storm.initiation, storm.attacks),
            (Initiation::FullAttack, 2)
        );
        assert_eq!(storm.initiation.acts(), 3);
        assert_eq!(
            cut.strike().map(|s| s.initiation),
            Some(Initiation::Standard)
        );
        let edge = c.maneuvers.get("sharpened-edge").and_then(|m| m.boost());
        assert_eq!(
            edge.map(|b| (b.attack, b.until)),
            Some((1, Until::EndOfTurn))
        );
        let skin = c.maneuvers.get("stone skin").expect("stone skin");
        assert_eq!(skin.what(), "boost");
        assert_eq!(
            skin.boost().map(|b| (b.dv, b.until)),
            Some((2, Until::StartOfNextTurn))
        );
        assert_eq!(skin.uses, 2);
    }

    /// Boosts and full-attack strikes: every bad field named with its file, line and field.
    #[test]
    fn bad_boosts_and_full_attack_strikes_name_file_line_and_field() {
        let err = load("[[boost]]\nname = \"b\"\nattack = 1\n").unwrap_err();
        assert!(
            err.contains("m.toml:1") && err.contains("missing key `until`"),
            "{err}"
        );
        let err =
            load("[[boost]]\nname = \"b\"\nuntil = \"next-round\"\nattack = 1\n").unwrap_err();
        assert!(
            err.contains("m.toml:3")
                && err.contains("boost[0].until")
                && err.contains("end-of-turn"),
            "{err}"
        );
        let err = load("[[boost]]\nname = \"b\"\nuntil = \"end-of-turn\"\n").unwrap_err();
        assert!(
            err.contains("m.toml:2") && err.contains("boost[0].name") && err.contains("an effect"),
            "{err}"
        );
        let err = load("[[boost]]\nname = \"b\"\nuntil = \"end-of-turn\"\ndice = \"21d6\"\n")
            .unwrap_err();
        assert!(
            err.contains("m.toml:4") && err.contains("boost[0].dice") && err.contains("at most 20"),
            "{err}"
        );
        let err = load("[[boost]]\nname = \"b\"\nuntil = \"end-of-turn\"\ndv = 11\n").unwrap_err();
        assert!(err.contains("boost[0].dv"), "{err}");
        let err = load("[[boost]]\nname = \"b\"\nuntil = \"end-of-turn\"\ndv = 1\nuses = 0\n")
            .unwrap_err();
        assert!(err.contains("boost[0].uses"), "{err}");
        let err = load("[[boost]]\nname = \"b\"\nuntil = \"end-of-turn\"\ndv = 1\nrounds = 2\n")
            .unwrap_err();
        assert!(err.contains("rounds"), "{err}");
        let err = load("[[strike]]\nname = \"s\"\ninitiation = \"swift\"\n").unwrap_err();
        assert!(
            err.contains("m.toml:3")
                && err.contains("strike[0].initiation")
                && err.contains("full-round"),
            "{err}"
        );
        let err = load("[[strike]]\nname = \"s\"\nattacks = 5\n").unwrap_err();
        assert!(
            err.contains("m.toml:3") && err.contains("strike[0].attacks"),
            "{err}"
        );
        let err = load(
            "[[strike]]\nname = \"s\"\n[[boost]]\nname = \"S\"\nuntil = \"end-of-turn\"\ndv = 1\n",
        )
        .unwrap_err();
        assert!(err.contains("duplicate maneuver"), "{err}");
        let ok = load(
            "[[strike]]\nname = \"s\"\ninitiation = \"full-round\"\nattacks = 4\n\
             [[boost]]\nname = \"b\"\nuntil = \"start-of-next-turn\"\ndamage = -2\n",
        );
        assert!(ok.is_ok(), "{:?}", ok.err());
    }

    #[test]
    fn bad_maneuvers_name_file_line_and_field() {
        let err = load("[[strike]]\nname = \"x\"\nattack = 40\n").unwrap_err();
        assert!(
            err.contains("m.toml:3") && err.contains("strike[0].attack"),
            "{err}"
        );
        let err = load("[[counter]]\nname = \"p\"\ntrigger = \"foe-casts\"\ndv = 2\n").unwrap_err();
        assert!(
            err.contains("m.toml:3") && err.contains("counter[0].trigger"),
            "{err}"
        );
        let err =
            load("[[counter]]\nname = \"p\"\ntrigger = \"foe-attacks\"\ndv = 2\nprovoke = true\n")
                .unwrap_err();
        assert!(
            err.contains("counter[0].provoke") && err.contains("CEL-R15"),
            "{err}"
        );
        let err = load("[[strike]]\nname = \"x\"\ncondition = \"on fire\"\n").unwrap_err();
        assert!(err.contains("strike[0].condition"), "{err}");
        let err = load("[[stance]]\nname = \"s\"\nspeed = 7\n").unwrap_err();
        assert!(err.contains("stance[0].speed"), "{err}");
        let err = load("[[stance]]\nname = \"s\"\n[[strike]]\nname = \"S\"\n").unwrap_err();
        assert!(err.contains("duplicate maneuver"), "{err}");
        let err = load("[[strike]]\nname = \"x\"\nuses = 21\n").unwrap_err();
        assert!(err.contains("strike[0].uses"), "{err}");
    }
}
