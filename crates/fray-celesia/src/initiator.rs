//! The initiator's maneuvers and stances as content data (`content/celesia/maneuvers.toml`:
//! `[[stance]]`, `[[strike]]`, `[[counter]]`). The seed names the actions — Initiate or Change
//! Stance (CEL-R14), Initiate Standard Strike (CEL-R11), Counter and Use an Immediate-Action
//! Ability (CEL-R15) — and Martial Power's "knowledge of at least one maneuver or stance"
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

/// A standard strike: a melee attack with the wielded weapon (2 acts) with its own modifiers.
/// [CEL-R11 Initiate Standard Strike]
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

    /// The counter or immediate-action ability, if it is one.
    pub fn counter(&self) -> Option<Counter> {
        match self.kind {
            Kind::Counter(c) => Some(c),
            _ => None,
        }
    }

    /// What it is, in a word (`stance`, `strike`, `counter`, `immediate-action ability`).
    pub fn what(&self) -> &'static str {
        match self.kind {
            Kind::Stance(_) => "stance",
            Kind::Strike(_) => "strike",
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
    let dice = s.dice.as_ref().and_then(|d| {
        let dice = DamageDice::parse_dice(d.get_ref()).filter(|x| x.count <= 20);
        if dice.is_none() {
            errors.push(file.error(
                d.span(),
                Some(format!("{at}.dice")),
                "expected damage dice like `1d6` or `2d4+1` (at most 20 dice)",
            ));
        }
        dice
    });
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
    let strike = Strike {
        attack: int(file, at, "attack", &s.attack, (-10, 10, 0), errors),
        dice,
        damage: int(file, at, "damage", &s.damage, (-10, 40, 0), errors),
        condition,
        rounds: rounds as u8,
        provoke: s.provoke,
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
