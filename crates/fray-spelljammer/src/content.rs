//! Spelljammer content as data: weapons (SC and damage), armour (DEF and PROT), shields, monsters
//! and spells, read from `content/spelljammer/*.toml` (embedded at build time).
//!
//! The types here are what the rules read; [`Content::embedded`] loads and validates the files.

use fray_core::catalog::ContentSet;
use fray_core::catalog::ContentTable;
use fray_core::span::{FileError, FileErrors, SourceFile};
use fray_core::Catalog;
use serde::Deserialize;
use toml::Spanned;

/// The embedded content files, `(path, text)`.
pub const CONTENT_FILES: [(&str, &str); 4] = [
    (
        "content/spelljammer/weapons.toml",
        include_str!("../../../content/spelljammer/weapons.toml"),
    ),
    (
        "content/spelljammer/armor.toml",
        include_str!("../../../content/spelljammer/armor.toml"),
    ),
    (
        "content/spelljammer/monsters.toml",
        include_str!("../../../content/spelljammer/monsters.toml"),
    ),
    (
        "content/spelljammer/spells.toml",
        include_str!("../../../content/spelljammer/spells.toml"),
    ),
];

/// Creature size. [Seed: Ranged Modifiers › Size Modifiers; Taking Damage]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Size {
    /// Tiny.
    Tiny,
    /// Small.
    Small,
    /// Medium (characters).
    #[default]
    Medium,
    /// Large.
    Large,
    /// Giant.
    Giant,
}

impl Size {
    /// Name in files.
    pub fn key(self) -> &'static str {
        match self {
            Size::Tiny => "tiny",
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
            Size::Giant => "giant",
        }
    }
    /// Parses a name.
    pub fn from_key(key: &str) -> Option<Size> {
        [
            Size::Tiny,
            Size::Small,
            Size::Medium,
            Size::Large,
            Size::Giant,
        ]
        .into_iter()
        .find(|s| s.key() == key)
    }
}

/// Weapon specialisation (none, specialist, double specialist "DS").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Specialization {
    /// Not specialised.
    #[default]
    None,
    /// Specialist.
    Specialist,
    /// Double specialist.
    Double,
}

/// Kind of ranged weapon, for the penalty of shooting in melee. [Seed: Using a Ranged Weapon in Melee]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RangedClass {
    /// Hand crossbow.
    HandCrossbow,
    /// Light or heavy crossbow.
    Crossbow,
    /// Short or long bow.
    Bow,
    /// Thrown weapon (javelin, spear, dagger): no melee penalty in the seed.
    Thrown,
}

/// A penetrating missile that sticks on a critical or grievous hit. [Seed: Ranged › Critical or Grievous Hits]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Missile {
    /// Arrow or quarrel: −2 DEX, 1 bleeding per round.
    Arrow,
    /// Javelin: −3 DEX, 2 bleeding.
    Javelin,
    /// Spear (the seed's second "javelin" row, SJ-A2): −4 DEX, 5 bleeding.
    Spear,
}

/// Damage dice (`fray-core`'s one damage type, under the name the Spelljammer rules use).
pub use fray_core::DamageDice as Damage;

/// A weapon from `weapons.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Weapon {
    /// Name (`long sword`).
    pub name: String,
    /// Strike chance added to the wielder's base SC.
    pub sc: i32,
    /// Damage.
    pub damage: Damage,
    /// Melee reach in feet (0: not a melee weapon).
    pub reach: i32,
    /// Range in feet (0: not a ranged weapon).
    pub range: i32,
    /// Kind of ranged weapon, when it is one.
    pub class: Option<RangedClass>,
    /// The missile it leaves stuck on a critical, when penetrating.
    pub missile: Option<Missile>,
}

/// Armour from `armor.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Armor {
    /// Name.
    pub name: String,
    /// DEF it gives.
    pub def: i32,
    /// PROT: subtracted from the damage of normal hits.
    pub prot: i32,
}

/// A shield from `armor.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Shield {
    /// Name.
    pub name: String,
    /// DEF it gives when ready (the Shield-skill part of DEF).
    pub def: i32,
}

/// How a spell's casting time is found. [Seed: Casting Cleric Spells; Casting Mage Spells]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpellKind {
    /// A cleric spell with its own casting time in segments (a 1-round time is 15, SJ-A12).
    Cleric {
        /// Casting time in segments.
        time: i32,
    },
    /// A mage spell of general knowledge (GK).
    MageGeneral,
    /// A mage spell of specific knowledge (SK).
    MageSpecific,
}

/// What a spell does when it goes off (effect data; the seed has no spell list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpellEffect {
    /// Damage to the target; `prot` says whether the target's PROT reduces it.
    Damage {
        /// Damage dice.
        dice: Damage,
        /// PROT applies.
        prot: bool,
    },
    /// Healing of the target.
    Heal {
        /// Hit points restored.
        dice: Damage,
    },
}

/// A spell from `spells.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SpellDef {
    /// Name.
    pub name: String,
    /// Cleric or mage (GK/SK).
    pub kind: SpellKind,
    /// Effect.
    pub effect: SpellEffect,
    /// Range in feet (0: touch, 5 ft).
    pub range: i32,
}

/// A monster from `monsters.toml` (our own numbers).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MonsterDef {
    /// Key (`orc`).
    pub key: String,
    /// Display name.
    pub name: String,
    /// Size.
    pub size: Size,
    /// Hit points.
    pub hp: i32,
    /// CON, DEX, PER.
    pub con: i32,
    /// DEX.
    pub dex: i32,
    /// PER.
    pub per: i32,
    /// Initiative modifier from DEX.
    pub dex_mod: i32,
    /// Tactical movement rate in feet per round.
    pub tmr: i32,
    /// DEF apart from DEX and shield.
    pub def: i32,
    /// DEF from DEX.
    pub def_dex: i32,
    /// PROT.
    pub prot: i32,
    /// Attacks per round.
    pub attacks: u8,
    /// Base strike chance added to each weapon's SC.
    pub sc: i32,
    /// Melee attack forms (weapon names or natural weapons as weapons).
    pub melee: Vec<Weapon>,
    /// A ranged weapon.
    pub ranged: Option<Weapon>,
    /// Weapon rank (for Defending).
    pub weapon_rank: i32,
    /// Semi-independent tentacle pairs counted as attackers (1 for ordinary creatures).
    pub attacker_count: i32,
}

/// Every content file, loaded and validated.
#[derive(Debug, Clone, Default)]
pub struct Content {
    /// Weapons (natural weapons too).
    pub weapons: Catalog<Weapon>,
    /// Armour.
    pub armor: Catalog<Armor>,
    /// Shields.
    pub shields: Catalog<Shield>,
    /// Monsters.
    pub monsters: Catalog<MonsterDef>,
    /// Spells.
    pub spells: Catalog<SpellDef>,
}

impl Specialization {
    /// Every specialisation, in order.
    pub const ALL: [Specialization; 3] = [
        Specialization::None,
        Specialization::Specialist,
        Specialization::Double,
    ];
    /// Name in files.
    pub fn key(self) -> &'static str {
        match self {
            Specialization::None => "none",
            Specialization::Specialist => "specialist",
            Specialization::Double => "double",
        }
    }
    /// Parses a name (`none`, `specialist`, `double`; `ds` for double).
    pub fn from_key(key: &str) -> Option<Specialization> {
        match key.trim().to_ascii_lowercase().as_str() {
            "ds" | "double specialist" => Some(Specialization::Double),
            k => Specialization::ALL.into_iter().find(|s| s.key() == k),
        }
    }
}

impl RangedClass {
    /// Every class, in order.
    pub const ALL: [RangedClass; 4] = [
        RangedClass::Bow,
        RangedClass::Crossbow,
        RangedClass::HandCrossbow,
        RangedClass::Thrown,
    ];
    /// Name in files.
    pub fn key(self) -> &'static str {
        match self {
            RangedClass::HandCrossbow => "hand crossbow",
            RangedClass::Crossbow => "crossbow",
            RangedClass::Bow => "bow",
            RangedClass::Thrown => "thrown",
        }
    }
    /// Parses a name.
    pub fn from_key(key: &str) -> Option<RangedClass> {
        RangedClass::ALL.into_iter().find(|c| c.key() == key)
    }
}

impl Missile {
    /// Every missile, in order.
    pub const ALL: [Missile; 3] = [Missile::Arrow, Missile::Javelin, Missile::Spear];
    /// Name in files.
    pub fn key(self) -> &'static str {
        match self {
            Missile::Arrow => "arrow",
            Missile::Javelin => "javelin",
            Missile::Spear => "spear",
        }
    }
    /// Parses a name (`quarrel` reads as `arrow`).
    pub fn from_key(key: &str) -> Option<Missile> {
        match key {
            "quarrel" => Some(Missile::Arrow),
            k => Missile::ALL.into_iter().find(|m| m.key() == k),
        }
    }
}

impl Size {
    /// Every size, smallest first.
    pub const ALL: [Size; 5] = [
        Size::Tiny,
        Size::Small,
        Size::Medium,
        Size::Large,
        Size::Giant,
    ];
}

pub use fray_core::loader::one_of;

impl Content {
    /// Loads the content embedded from `content/spelljammer/`; every problem in every file is
    /// reported together.
    pub fn embedded() -> Result<Content, FileErrors> {
        Content::load(&CONTENT_FILES)
    }

    /// A weapon by name.
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons.get(name)
    }
    /// Armour by name.
    pub fn armor(&self, name: &str) -> Option<&Armor> {
        self.armor.get(name)
    }
    /// A shield by name.
    pub fn shield(&self, name: &str) -> Option<&Shield> {
        self.shields.get(name)
    }
    /// A monster by key.
    pub fn monster(&self, key: &str) -> Option<&MonsterDef> {
        self.monsters.get(key)
    }
    /// A spell by name.
    pub fn spell(&self, name: &str) -> Option<&SpellDef> {
        self.spells.get(name)
    }

    fn read_monster(
        &self,
        file: &SourceFile<'_>,
        i: usize,
        m: &MonsterFile,
        errors: &mut Vec<FileError>,
    ) -> Option<MonsterDef> {
        let at = format!("monster[{i}]");
        let field = |f: &str| Some(format!("{at}.{f}"));
        let before = errors.len();
        let size = match &m.size {
            Some(s) => Size::from_key(s.get_ref()).unwrap_or_else(|| {
                errors.push(file.error(
                    s.span(),
                    field("size"),
                    format!(
                        "unknown size `{}`; expected one of {}",
                        s.get_ref(),
                        one_of(Size::ALL.iter().map(|s| s.key()))
                    ),
                ));
                Size::Medium
            }),
            None => Size::Medium,
        };
        let hp = check_int(file, &at, "hp", &Some(m.hp.clone()), 1, 100_000, errors);
        let con = check_int(file, &at, "con", &m.con, 1, 50, errors);
        let dex = check_int(file, &at, "dex", &m.dex, 1, 50, errors);
        let per = check_int(file, &at, "per", &m.per, 1, 50, errors);
        let dex_mod = check_int(file, &at, "dex_mod", &m.dex_mod, -20, 20, errors);
        let tmr = check_int(file, &at, "tmr", &m.tmr, 0, 1000, errors);
        let def = check_int(file, &at, "def", &m.def, -100, 200, errors);
        let def_dex = check_int(file, &at, "def_dex", &m.def_dex, -100, 100, errors);
        let prot = check_int(file, &at, "prot", &m.prot, 0, 50, errors);
        let attacks = check_int(file, &at, "attacks", &Some(m.attacks.clone()), 1, 5, errors);
        let sc = check_int(file, &at, "sc", &Some(m.sc.clone()), -100, 500, errors);
        let weapon_rank = check_int(file, &at, "weapon_rank", &m.weapon_rank, 0, 50, errors);
        let attacker_count = check_int(
            file,
            &at,
            "attacker_count",
            &m.attacker_count,
            1,
            10,
            errors,
        );
        let bonus = check_int(file, &at, "damage_bonus", &m.damage_bonus, -50, 100, errors);
        let mut melee = Vec::new();
        for (j, name) in m.weapons.iter().enumerate() {
            match self.weapon(name.get_ref()) {
                Some(w) if w.reach > 0 => {
                    let mut w = w.clone();
                    w.damage.bonus += bonus;
                    melee.push(w);
                }
                Some(_) => errors.push(file.error(
                    name.span(),
                    field(&format!("weapons[{j}]")),
                    format!(
                        "`{}` is not a melee weapon (reach 0); name it in `ranged`",
                        name.get_ref()
                    ),
                )),
                None => errors.push(file.error(
                    name.span(),
                    field(&format!("weapons[{j}]")),
                    self.weapons.unknown(
                        "weapon",
                        name.get_ref(),
                        "fray content spelljammer weapons",
                    ),
                )),
            }
        }
        for (j, n) in m.natural.iter().enumerate() {
            let nat = format!("{at}.natural[{j}]");
            let Some(mut damage) = Damage::parse_dice(n.damage.get_ref()) else {
                errors.push(file.error(
                    n.damage.span(),
                    Some(format!("{nat}.damage")),
                    "expected damage dice like `1d6` or `2d4+1`",
                ));
                continue;
            };
            damage.bonus += bonus;
            let sc = check_int(file, &nat, "sc", &n.sc, -100, 100, errors);
            let reach = match &n.reach {
                Some(_) => check_int(file, &nat, "reach", &n.reach, 5, 100, errors),
                None => 5,
            };
            melee.push(Weapon {
                name: n.name.clone(),
                sc,
                damage,
                reach,
                range: 0,
                class: None,
                missile: None,
            });
        }
        if melee.is_empty() && m.weapons.is_empty() && m.natural.is_empty() {
            errors.push(file.error(
                m.key.span(),
                field("weapons"),
                "a monster needs at least one melee attack form: `weapons = [\"claw\"]` or a \
                 `[[monster.natural]]`",
            ));
        }
        let ranged = match &m.ranged {
            Some(r) => match self.weapon(r.get_ref()) {
                Some(w) if w.range > 0 => {
                    let mut w = w.clone();
                    if w.class == Some(RangedClass::Thrown) {
                        w.damage.bonus += bonus;
                    }
                    Some(w)
                }
                Some(_) => {
                    errors.push(file.error(
                        r.span(),
                        field("ranged"),
                        format!("`{}` is not a ranged weapon (range 0)", r.get_ref()),
                    ));
                    None
                }
                None => {
                    errors.push(file.error(
                        r.span(),
                        field("ranged"),
                        self.weapons.unknown(
                            "weapon",
                            r.get_ref(),
                            "fray content spelljammer weapons",
                        ),
                    ));
                    None
                }
            },
            None => None,
        };
        if errors.len() > before {
            return None;
        }
        Some(MonsterDef {
            key: m.key.get_ref().clone(),
            name: m.name.clone().unwrap_or_else(|| m.key.get_ref().clone()),
            size,
            hp,
            con,
            dex,
            per,
            dex_mod,
            tmr,
            def,
            def_dex,
            prot,
            attacks: attacks as u8,
            sc,
            melee,
            ranged,
            weapon_rank,
            attacker_count,
        })
    }
}

/// Checks an optional integer field against `lo..=hi`, reporting `at.name`; returns the value
/// (0 when absent or out of range).
fn check_int(
    file: &SourceFile<'_>,
    at: &str,
    name: &str,
    value: &Option<Spanned<i64>>,
    lo: i64,
    hi: i64,
    errors: &mut Vec<FileError>,
) -> i32 {
    let Some(v) = value else { return 0 };
    let n = *v.get_ref();
    if (lo..=hi).contains(&n) {
        n as i32
    } else {
        errors.push(file.error(
            v.span(),
            Some(format!("{at}.{name}")),
            format!("expected a whole number from {lo} to {hi}, found {n}"),
        ));
        0
    }
}

fn read_weapon(
    file: &SourceFile<'_>,
    at: &str,
    w: &WeaponFile,
    errors: &mut Vec<FileError>,
) -> Option<Weapon> {
    let before = errors.len();
    let damage = Damage::parse_dice(w.damage.get_ref());
    if damage.is_none() {
        errors.push(file.error(
            w.damage.span(),
            Some(format!("{at}.damage")),
            "expected damage dice like `1d8` or `2d4+1`",
        ));
    }
    let sc = check_int(file, at, "sc", &w.sc, -100, 100, errors);
    let range = check_int(file, at, "range", &w.range, 0, 5000, errors);
    let class = match &w.class {
        Some(c) => {
            let class = RangedClass::from_key(c.get_ref());
            if class.is_none() {
                errors.push(file.error(
                    c.span(),
                    Some(format!("{at}.class")),
                    format!(
                        "unknown ranged class `{}`; expected one of {}",
                        c.get_ref(),
                        one_of(RangedClass::ALL.iter().map(|c| c.key()))
                    ),
                ));
            } else if range == 0 {
                errors.push(file.error(
                    c.span(),
                    Some(format!("{at}.range")),
                    "a ranged weapon needs `range` (feet, more than 0)",
                ));
            }
            class
        }
        None => {
            if range > 0 {
                errors.push(file.error(
                    w.range.as_ref().map_or(w.name.span(), |r| r.span()),
                    Some(format!("{at}.class")),
                    format!(
                        "a weapon with a range needs `class`, one of {}",
                        one_of(RangedClass::ALL.iter().map(|c| c.key()))
                    ),
                ));
            }
            None
        }
    };
    let missile = match &w.missile {
        Some(m) => {
            let missile = Missile::from_key(m.get_ref());
            if missile.is_none() {
                errors.push(file.error(
                    m.span(),
                    Some(format!("{at}.missile")),
                    format!(
                        "unknown missile `{}`; expected one of {} (or quarrel)",
                        m.get_ref(),
                        one_of(Missile::ALL.iter().map(|m| m.key()))
                    ),
                ));
            } else if w.class.is_none() {
                errors.push(file.error(
                    m.span(),
                    Some(format!("{at}.missile")),
                    "only a ranged weapon (with `class` and `range`) shoots a missile",
                ));
            }
            missile
        }
        None => None,
    };
    // Bows and crossbows are not melee weapons unless a reach is given.
    let default_reach = match class {
        Some(RangedClass::Thrown) | None => 5,
        Some(_) => 0,
    };
    let reach = match &w.reach {
        Some(_) => check_int(file, at, "reach", &w.reach, 0, 100, errors),
        None => default_reach,
    };
    if reach == 0 && range == 0 && errors.len() == before {
        errors.push(file.error(
            w.name.span(),
            Some(format!("{at}.reach")),
            "a weapon needs a melee `reach` or a `range`",
        ));
    }
    if errors.len() > before {
        return None;
    }
    Some(Weapon {
        name: w.name.get_ref().clone(),
        sc,
        damage: damage?,
        reach,
        range,
        class,
        missile,
    })
}

fn read_spell(
    file: &SourceFile<'_>,
    at: &str,
    s: &SpellFile,
    errors: &mut Vec<FileError>,
) -> Option<SpellDef> {
    let before = errors.len();
    let dice = Damage::parse_dice(s.dice.get_ref());
    if dice.is_none() {
        errors.push(file.error(
            s.dice.span(),
            Some(format!("{at}.dice")),
            "expected dice like `3d6` or `2d4+2`",
        ));
    }
    let kind = match s.kind.get_ref().as_str() {
        "cleric" => match &s.time {
            Some(_) => Some(SpellKind::Cleric {
                time: check_int(file, at, "time", &s.time, 1, 15, errors),
            }),
            None => {
                errors.push(file.error(
                    s.kind.span(),
                    Some(format!("{at}.time")),
                    "a cleric spell needs `time`, its casting time in segments (1 round = 15)",
                ));
                None
            }
        },
        "gk" | "sk" => {
            if let Some(t) = &s.time {
                errors.push(file.error(
                    t.span(),
                    Some(format!("{at}.time")),
                    "a mage spell's casting time comes from the caster's rank; remove `time`",
                ));
            }
            Some(if s.kind.get_ref() == "gk" {
                SpellKind::MageGeneral
            } else {
                SpellKind::MageSpecific
            })
        }
        other => {
            errors.push(file.error(
                s.kind.span(),
                Some(format!("{at}.kind")),
                format!("unknown spell kind `{other}`; expected one of cleric, gk, sk"),
            ));
            None
        }
    };
    let effect = match (s.effect.get_ref().as_str(), dice) {
        ("damage", Some(dice)) => Some(SpellEffect::Damage {
            dice,
            prot: s.prot.unwrap_or(false),
        }),
        ("heal", Some(dice)) => {
            if s.prot.is_some() {
                errors.push(file.error(
                    s.effect.span(),
                    Some(format!("{at}.prot")),
                    "`prot` is only for damage spells",
                ));
            }
            Some(SpellEffect::Heal { dice })
        }
        ("damage" | "heal", None) => None,
        (other, _) => {
            errors.push(file.error(
                s.effect.span(),
                Some(format!("{at}.effect")),
                format!("unknown effect `{other}`; expected damage or heal"),
            ));
            None
        }
    };
    let range = check_int(file, at, "range", &s.range, 0, 5000, errors);
    if errors.len() > before {
        return None;
    }
    Some(SpellDef {
        name: s.name.get_ref().clone(),
        kind: kind?,
        effect: effect?,
        range,
    })
}

/// The tables of one content file (or of an encounter's own definitions).
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ContentFile {
    #[serde(default)]
    pub(crate) weapon: Vec<WeaponFile>,
    #[serde(default)]
    pub(crate) armor: Vec<ArmorFile>,
    #[serde(default)]
    pub(crate) shield: Vec<ShieldFile>,
    #[serde(default)]
    pub(crate) monster: Vec<MonsterFile>,
    #[serde(default)]
    pub(crate) spell: Vec<SpellFile>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WeaponFile {
    name: Spanned<String>,
    sc: Option<Spanned<i64>>,
    damage: Spanned<String>,
    reach: Option<Spanned<i64>>,
    range: Option<Spanned<i64>>,
    class: Option<Spanned<String>>,
    missile: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArmorFile {
    name: Spanned<String>,
    def: Option<Spanned<i64>>,
    prot: Option<Spanned<i64>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShieldFile {
    name: Spanned<String>,
    def: Option<Spanned<i64>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NaturalFile {
    name: String,
    damage: Spanned<String>,
    sc: Option<Spanned<i64>>,
    reach: Option<Spanned<i64>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MonsterFile {
    key: Spanned<String>,
    name: Option<String>,
    size: Option<Spanned<String>>,
    hp: Spanned<i64>,
    #[serde(default = "ten")]
    con: Option<Spanned<i64>>,
    #[serde(default = "ten")]
    dex: Option<Spanned<i64>>,
    #[serde(default = "ten")]
    per: Option<Spanned<i64>>,
    dex_mod: Option<Spanned<i64>>,
    #[serde(default = "sixty")]
    tmr: Option<Spanned<i64>>,
    def: Option<Spanned<i64>>,
    def_dex: Option<Spanned<i64>>,
    prot: Option<Spanned<i64>>,
    attacks: Spanned<i64>,
    sc: Spanned<i64>,
    #[serde(default)]
    weapons: Vec<Spanned<String>>,
    #[serde(default)]
    natural: Vec<NaturalFile>,
    damage_bonus: Option<Spanned<i64>>,
    ranged: Option<Spanned<String>>,
    weapon_rank: Option<Spanned<i64>>,
    #[serde(default = "one")]
    attacker_count: Option<Spanned<i64>>,
    #[allow(dead_code)]
    description: Option<String>,
}

fn ten() -> Option<Spanned<i64>> {
    Some(Spanned::new(0..0, 10))
}

fn sixty() -> Option<Spanned<i64>> {
    Some(Spanned::new(0..0, 60))
}

fn one() -> Option<Spanned<i64>> {
    Some(Spanned::new(0..0, 1))
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpellFile {
    name: Spanned<String>,
    kind: Spanned<String>,
    time: Option<Spanned<i64>>,
    effect: Spanned<String>,
    dice: Spanned<String>,
    prot: Option<bool>,
    range: Option<Spanned<i64>>,
}

impl Content {
    /// Every kind of content with its key numbers, for `fray content spelljammer`.
    pub fn tables(&self) -> Vec<ContentTable> {
        let weapon_row = |w: &Weapon| {
            (
                w.name.clone(),
                vec![
                    format!("{:+}", w.sc),
                    w.damage.to_string(),
                    w.reach.to_string(),
                    if w.range > 0 {
                        w.range.to_string()
                    } else {
                        String::new()
                    },
                    w.class.map_or(String::new(), |c| c.key().to_string()),
                ],
            )
        };
        let mut armour = ContentTable::of("armour", &["DEF", "PROT"], &self.armor, |a: &Armor| {
            (
                a.name.clone(),
                vec![format!("+{}", a.def), a.prot.to_string()],
            )
        });
        armour.rows.extend(
            ContentTable::of("armour", &[], &self.shields, |s: &Shield| {
                (
                    s.name.clone(),
                    vec![format!("+{} (shield)", s.def), String::new()],
                )
            })
            .rows,
        );
        vec![
            ContentTable::of(
                "monsters",
                &[
                    "name", "hp", "SC", "DEF", "PROT", "TMR", "attacks", "weapons",
                ],
                &self.monsters,
                |m: &MonsterDef| {
                    let weapons: Vec<String> = m
                        .melee
                        .iter()
                        .chain(m.ranged.iter())
                        .map(|w| format!("{} {}", w.name, w.damage))
                        .collect();
                    (
                        m.key.clone(),
                        vec![
                            m.name.clone(),
                            m.hp.to_string(),
                            m.sc.to_string(),
                            (m.def + m.def_dex).to_string(),
                            m.prot.to_string(),
                            m.tmr.to_string(),
                            m.attacks.to_string(),
                            weapons.join(", "),
                        ],
                    )
                },
            ),
            ContentTable::of(
                "weapons",
                &["SC", "damage", "reach ft", "range ft", "class"],
                &self.weapons,
                weapon_row,
            ),
            armour,
            ContentTable::of(
                "spells",
                &["kind", "effect", "range ft"],
                &self.spells,
                |s: &SpellDef| {
                    let kind = match s.kind {
                        SpellKind::Cleric { time } => format!("cleric, {time} segments"),
                        SpellKind::MageGeneral => "mage (general)".to_string(),
                        SpellKind::MageSpecific => "mage (specific)".to_string(),
                    };
                    let effect = match s.effect {
                        SpellEffect::Damage { dice, prot } => {
                            format!("damage {dice}{}", if prot { "" } else { ", ignores PROT" })
                        }
                        SpellEffect::Heal { dice } => format!("heal {dice}"),
                    };
                    // Written as declarations write it (files may use either spelling).
                    let name = fray_core::catalog::name_key(&s.name);
                    (name, vec![kind, effect, s.range.to_string()])
                },
            ),
        ]
    }
}

impl ContentFile {
    /// No definitions at all.
    fn is_empty(&self) -> bool {
        self.weapon.is_empty()
            && self.armor.is_empty()
            && self.shield.is_empty()
            && self.monster.is_empty()
            && self.spell.is_empty()
    }
}

impl ContentSet for Content {
    type File = ContentFile;

    fn read_items(
        &mut self,
        file: &SourceFile<'_>,
        parsed: &ContentFile,
        errors: &mut Vec<FileError>,
    ) {
        for (i, w) in parsed.weapon.iter().enumerate() {
            let at = format!("weapon[{i}]");
            if let Some(weapon) = read_weapon(file, &at, w, errors) {
                let name = weapon.name.clone();
                let span = w.name.span();
                self.weapons.insert(
                    "weapon",
                    &name,
                    weapon,
                    file,
                    span,
                    format!("{at}.name"),
                    errors,
                );
            }
        }
        for (i, a) in parsed.armor.iter().enumerate() {
            let at = format!("armor[{i}]");
            let before = errors.len();
            let def = check_int(file, &at, "def", &a.def, 0, 100, errors);
            let prot = check_int(file, &at, "prot", &a.prot, 0, 20, errors);
            if errors.len() == before {
                let armor = Armor {
                    name: a.name.get_ref().clone(),
                    def,
                    prot,
                };
                let name = a.name.get_ref();
                let field = format!("{at}.name");
                self.armor
                    .insert("armour", name, armor, file, a.name.span(), field, errors);
            }
        }
        for (i, s) in parsed.shield.iter().enumerate() {
            let at = format!("shield[{i}]");
            let before = errors.len();
            let def = check_int(file, &at, "def", &s.def, 0, 100, errors);
            if errors.len() == before {
                let shield = Shield {
                    name: s.name.get_ref().clone(),
                    def,
                };
                let field = format!("{at}.name");
                self.shields.insert(
                    "shield",
                    s.name.get_ref(),
                    shield,
                    file,
                    s.name.span(),
                    field,
                    errors,
                );
            }
        }
        for (i, s) in parsed.spell.iter().enumerate() {
            let at = format!("spell[{i}]");
            if let Some(spell) = read_spell(file, &at, s, errors) {
                let name = spell.name.clone();
                let field = format!("{at}.name");
                self.spells
                    .insert("spell", &name, spell, file, s.name.span(), field, errors);
            }
        }
    }

    fn read_dependents(
        &mut self,
        file: &SourceFile<'_>,
        parsed: &ContentFile,
        errors: &mut Vec<FileError>,
    ) {
        for (i, m) in parsed.monster.iter().enumerate() {
            if let Some(monster) = self.read_monster(file, i, m, errors) {
                let key = monster.key.clone();
                self.monsters.insert(
                    "monster",
                    &key,
                    monster,
                    file,
                    m.key.span(),
                    format!("monster[{i}].key"),
                    errors,
                );
            }
        }
    }

    fn seal(&mut self) {
        self.weapons.seal();
        self.armor.seal();
        self.shields.seal();
        self.monsters.seal();
        self.spells.seal();
    }

    fn defines_nothing(parsed: &ContentFile) -> bool {
        parsed.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_content_loads() {
        let c = Content::embedded().unwrap_or_else(|e| panic!("{e}"));
        assert!(c.weapons.len() >= 15);
        assert!(c.monsters.len() >= 10);
        let sword = c.weapon("long sword").unwrap();
        assert_eq!(
            (sword.sc, sword.damage.text(), sword.reach),
            (0, "1d8".into(), 5)
        );
        let bow = c.weapon("long bow").unwrap();
        assert_eq!(bow.reach, 0);
        assert_eq!(bow.class, Some(RangedClass::Bow));
        assert_eq!(bow.missile, Some(Missile::Arrow));
        let spear = c.weapon("spear").unwrap();
        assert_eq!(spear.class, Some(RangedClass::Thrown));
        assert_eq!(spear.missile, Some(Missile::Spear));
        assert_eq!(c.weapon("javelin").unwrap().missile, Some(Missile::Javelin));
        for w in [
            "hand crossbow",
            "light crossbow",
            "heavy crossbow",
            "short bow",
        ] {
            assert!(c.weapon(w).unwrap().range > 0, "{w}");
        }
        let chain = c.armor("chain mail").unwrap();
        assert!(chain.def > 0 && chain.prot > 0);
        assert!(c.shield("medium shield").unwrap().def > 0);
        let roper = c.monster("roper").unwrap();
        assert_eq!(roper.attacker_count, 3);
        assert_eq!(roper.size, Size::Large);
        let troll = c.monster("troll").unwrap();
        assert_eq!(troll.melee.len(), 3);
        // The troll's strength bonus is in its attack forms.
        assert_eq!(troll.melee[0].damage.bonus, 2);
        for key in [
            "orc",
            "goblin",
            "hobgoblin",
            "ogre",
            "giant spider",
            "skeleton",
            "gnoll",
            "bugbear",
            "troll",
            "neogi",
        ] {
            assert!(c.monster(key).is_some(), "{key}");
        }
        assert_eq!(
            c.spell("bolt of energy").unwrap().kind,
            SpellKind::MageSpecific
        );
        assert_eq!(
            c.spell("magic missile").unwrap().kind,
            SpellKind::MageGeneral
        );
        assert_eq!(
            c.spell("cure wounds").unwrap().kind,
            SpellKind::Cleric { time: 5 }
        );
        assert_eq!(
            c.spell("flame strike").unwrap().kind,
            SpellKind::Cleric { time: 15 }
        );
        assert!(matches!(
            c.spell("bolt of energy").unwrap().effect,
            SpellEffect::Damage { prot: false, .. }
        ));
    }

    fn load_err(text: &str) -> FileError {
        let err = Content::load(&[("c.toml", text)]).unwrap_err();
        assert_eq!(err.0.len(), 1, "{err}");
        err.0[0].clone()
    }

    #[test]
    fn bad_weapons_are_located() {
        let e = load_err("[[weapon]]\nname = \"club\"\ndamage = \"1x6\"\n");
        assert_eq!((e.line, e.field.as_deref()), (3, Some("weapon[0].damage")));
        let e = load_err("[[weapon]]\nname = \"bow\"\ndamage = \"1d6\"\nrange = 100\n");
        assert_eq!((e.line, e.field.as_deref()), (4, Some("weapon[0].class")));
        let e = load_err(
            "[[weapon]]\nname = \"bow\"\ndamage = \"1d6\"\nrange = 100\nclass = \"sling\"\n",
        );
        assert_eq!((e.line, e.field.as_deref()), (5, Some("weapon[0].class")));
        assert!(e.message.contains("bow, crossbow"), "{}", e.message);
        let e = load_err("[[weapon]]\nname = \"a\"\ndamage = \"1d6\"\n[[weapon]]\nname = \"a\"\ndamage = \"1d4\"\n");
        assert_eq!((e.line, e.field.as_deref()), (5, Some("weapon[1].name")));
        let e = load_err("[[weapon]]\nname = \"a\"\ndamage = \"1d6\"\nsharpness = 3\n");
        assert_eq!(e.line, 4);
    }

    #[test]
    fn bad_monsters_are_located() {
        let base = "[[weapon]]\nname = \"claw\"\ndamage = \"1d4\"\n";
        let e = load_err(&format!(
            "{base}[[monster]]\nkey = \"imp\"\nhp = 5\nattacks = 1\nsc = 40\nweapons = [\"claws\"]\n"
        ));
        assert_eq!(
            (e.line, e.field.as_deref()),
            (9, Some("monster[0].weapons[0]"))
        );
        assert!(e.message.contains("did you mean `claw`?"), "{}", e.message);
        let e = load_err(&format!(
            "{base}[[monster]]\nkey = \"imp\"\nsize = \"huge\"\nhp = 5\nattacks = 1\nsc = 40\nweapons = [\"claw\"]\n"
        ));
        assert_eq!((e.line, e.field.as_deref()), (6, Some("monster[0].size")));
        let e = load_err(&format!(
            "{base}[[monster]]\nkey = \"imp\"\nhp = 0\nattacks = 1\nsc = 40\nweapons = [\"claw\"]\n"
        ));
        assert_eq!((e.line, e.field.as_deref()), (6, Some("monster[0].hp")));
        let e = load_err(&format!(
            "{base}[[monster]]\nkey = \"imp\"\nhp = 5\nattacks = 6\nsc = 40\nweapons = [\"claw\"]\n"
        ));
        assert_eq!(
            (e.line, e.field.as_deref()),
            (7, Some("monster[0].attacks"))
        );
        let e = load_err(&format!(
            "{base}[[monster]]\nkey = \"imp\"\nhp = 5\nattacks = 1\nsc = 40\n"
        ));
        assert_eq!(e.field.as_deref(), Some("monster[0].weapons"));
    }

    #[test]
    fn bad_spells_are_located() {
        let e = load_err(
            "[[spell]]\nname = \"heal\"\nkind = \"cleric\"\neffect = \"heal\"\ndice = \"1d8\"\n",
        );
        assert_eq!((e.line, e.field.as_deref()), (3, Some("spell[0].time")));
        let e = load_err(
            "[[spell]]\nname = \"zap\"\nkind = \"sk\"\neffect = \"zap\"\ndice = \"1d8\"\n",
        );
        assert_eq!((e.line, e.field.as_deref()), (4, Some("spell[0].effect")));
    }
}
