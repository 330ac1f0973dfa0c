//! Legends of Celesia content as data: weapons, armour, shields, classes (BAB and Fortitude by
//! level, 1–10) and creatures, read from `content/celesia/*.toml` (embedded at build time).
//!
//! The seed gives no weapon, armour or creature statistics (it converts Pathfinder's action
//! economy); the numbers are Pathfinder's, as `docs/celesia.md` says.

use fray_core::catalog::{ContentSet, ContentTable};
use fray_core::loader::one_of;
use fray_core::span::{FileError, FileErrors, SourceFile};
use fray_core::{Catalog, DamageDice};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The embedded content files, `(path, text)`.
pub const CONTENT_FILES: [(&str, &str); 7] = [
    (
        "content/celesia/weapons.toml",
        include_str!("../../../content/celesia/weapons.toml"),
    ),
    (
        "content/celesia/armor.toml",
        include_str!("../../../content/celesia/armor.toml"),
    ),
    (
        "content/celesia/classes.toml",
        include_str!("../../../content/celesia/classes.toml"),
    ),
    (
        "content/celesia/monsters.toml",
        include_str!("../../../content/celesia/monsters.toml"),
    ),
    (
        "content/celesia/spells.toml",
        include_str!("../../../content/celesia/spells.toml"),
    ),
    (
        "content/celesia/items.toml",
        include_str!("../../../content/celesia/items.toml"),
    ),
    (
        "content/celesia/maneuvers.toml",
        include_str!("../../../content/celesia/maneuvers.toml"),
    ),
];

/// Size category. [Seed: Combat Statistics › Attack Bonus ("size modifier")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Size {
    /// Small.
    Small,
    /// Medium.
    #[default]
    Medium,
    /// Large.
    Large,
    /// Huge.
    Huge,
}

impl Size {
    /// Every size, smallest first.
    pub const ALL: [Size; 4] = [Size::Small, Size::Medium, Size::Large, Size::Huge];
    /// Name in files.
    pub fn key(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
            Size::Huge => "huge",
        }
    }
    /// The size modifier to attack rolls and DV (Pathfinder's, CEL-A34).
    pub fn modifier(self) -> i32 {
        match self {
            Size::Small => 1,
            Size::Medium => 0,
            Size::Large => -1,
            Size::Huge => -2,
        }
    }
    /// Unarmed strike damage by size. [CEL-R5.4]
    pub fn unarmed_damage(self) -> DamageDice {
        let sides = match self {
            Size::Small => 2,
            Size::Medium => 3,
            Size::Large => 4,
            Size::Huge => 6,
        };
        DamageDice {
            count: 1,
            sides,
            bonus: 0,
        }
    }
}

/// How a weapon attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponKind {
    /// A melee weapon.
    Melee,
    /// A natural weapon (claw, bite): melee, 1.5× positive STR and DEX on damage. [CEL-R5.2]
    Natural,
    /// An unarmed strike: melee, light, nonlethal, provokes from an armed target. [CEL-R8]
    Unarmed,
    /// A projectile weapon (bow, crossbow): DEX + WIS. [CEL-R4.2, R5.3]
    Projectile,
    /// A thrown weapon: STR + DEX + WIS. [CEL-R4.2, R5.3]
    Thrown,
    /// A natural ranged attack (a spit, a quill): STR + DEX + WIS to hit, 1.5× each positive
    /// one on damage. [CEL-R5.2, Seed: Attack, Natural]
    NaturalRanged,
}

impl WeaponKind {
    /// Every kind.
    pub const ALL: [WeaponKind; 6] = [
        WeaponKind::Melee,
        WeaponKind::Natural,
        WeaponKind::Unarmed,
        WeaponKind::Projectile,
        WeaponKind::Thrown,
        WeaponKind::NaturalRanged,
    ];
    /// Name in files.
    pub fn key(self) -> &'static str {
        match self {
            WeaponKind::Melee => "melee",
            WeaponKind::Natural => "natural",
            WeaponKind::Unarmed => "unarmed",
            WeaponKind::Projectile => "projectile",
            WeaponKind::Thrown => "thrown",
            WeaponKind::NaturalRanged => "natural ranged",
        }
    }
    /// A ranged kind.
    pub fn is_ranged(self) -> bool {
        matches!(
            self,
            WeaponKind::Projectile | WeaponKind::Thrown | WeaponKind::NaturalRanged
        )
    }
    /// A natural form (melee or ranged): part of the body, never held, dropped or sundered.
    pub fn is_natural(self) -> bool {
        matches!(self, WeaponKind::Natural | WeaponKind::NaturalRanged)
    }
}

/// How many hands a weapon takes. [CEL-R5.1]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hands {
    /// A light weapon (no 1.5× in two hands).
    Light,
    /// One-handed.
    One,
    /// Two-handed: 1.5× positive STR and DEX on damage.
    Two,
}

impl Hands {
    /// Every kind.
    pub const ALL: [Hands; 3] = [Hands::Light, Hands::One, Hands::Two];
    /// Name in files.
    pub fn key(self) -> &'static str {
        match self {
            Hands::Light => "light",
            Hands::One => "one",
            Hands::Two => "two",
        }
    }
}

/// How a ranged weapon is loaded before each shot (CEL-R9, R11, R12, R13 "Load …"); `None`
/// for a bow (Draw and Nock an Arrow is free, CEL-R14), a sling or a thrown weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Loading {
    /// Nothing to load: each shot only draws its ammunition (free, CEL-R9, R14).
    None,
    /// A hand or light crossbow: simple; free with Rapid Reload. [CEL-R9]
    LightCrossbow,
    /// A heavy crossbow: standard; simple with Rapid Reload. [CEL-R11]
    HeavyCrossbow,
    /// A repeating crossbow: a new case of 5 bolts, standard; simple with Rapid Reload. [CEL-R11]
    RepeatingCrossbow,
    /// A simple firearm, a barrel at a time: one-handed full (CEL-R12), two-handed 1-round
    /// (CEL-R13); Rapid Reload or a cartridge one step less, both two steps less.
    SimpleFirearm,
    /// A martial firearm, a cartridge at a time: simple; free with Rapid Reload, at most 3
    /// cartridges a turn. [CEL-R9]
    MartialFirearm,
}

impl Loading {
    /// Every kind.
    pub const ALL: [Loading; 6] = [
        Loading::None,
        Loading::LightCrossbow,
        Loading::HeavyCrossbow,
        Loading::RepeatingCrossbow,
        Loading::SimpleFirearm,
        Loading::MartialFirearm,
    ];
    /// Name in files.
    pub fn key(self) -> &'static str {
        match self {
            Loading::None => "none",
            Loading::LightCrossbow => "light crossbow",
            Loading::HeavyCrossbow => "heavy crossbow",
            Loading::RepeatingCrossbow => "repeating crossbow",
            Loading::SimpleFirearm => "simple firearm",
            Loading::MartialFirearm => "martial firearm",
        }
    }
    /// A firearm (its stray shots fly further, CEL-R7.3).
    pub fn firearm(self) -> bool {
        matches!(self, Loading::SimpleFirearm | Loading::MartialFirearm)
    }
}

/// A weapon (or natural attack form).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Weapon {
    /// Name.
    pub name: String,
    /// Base damage dice (and a flat bonus, e.g. magic).
    pub damage: DamageDice,
    /// How it attacks.
    pub kind: WeaponKind,
    /// Hands.
    pub hands: Hands,
    /// Lowest natural die that threatens a critical (20 unless the weapon says). [CEL-R5.6]
    pub threat: u32,
    /// Critical multiplier (×2 unless the weapon says). [CEL-R5.6]
    pub multiplier: i32,
    /// Melee reach in feet (5, or 10 for a reach weapon).
    pub reach: i32,
    /// A reach weapon: strikes at its reach but not adjacent foes. [CEL-R9 Attack, Melee]
    pub reach_only: bool,
    /// Range increment in feet (ranged kinds).
    pub range: i32,
    /// Deals nonlethal damage. [CEL-R20]
    pub nonlethal: bool,
    /// A secondary natural attack (CEL-A14; data only for now).
    pub secondary: bool,
    /// How it is loaded (ranged weapons). [CEL-R9–R13 Load]
    pub load: Loading,
    /// Barrels, cartridges or bolts it holds loaded (1 unless the weapon says; a repeating
    /// crossbow's case holds 5). [CEL-R11, R12, R13 Load]
    pub capacity: u8,
    /// A splash weapon (a thrown flask): its stray shot is not stopped at the end of its range
    /// increment (CEL-R7.3); a flask of oil must be prepared first (CEL-R11).
    pub splash: bool,
    /// A double weapon: its other end's damage dice (CEL-R9 Multiweapon Fighting "with a double
    /// weapon").
    pub double: Option<DamageDice>,
}

impl Weapon {
    /// Maximum range in feet: 5 increments thrown, 10 projectile, 5 for a simple firearm
    /// (CEL-R7.1, R7.3 "five for simple firearms, ten for martial firearms"); 5 for a natural
    /// ranged attack, which adds a thrown weapon's abilities (a reading: the seed gives none).
    pub fn max_range(&self) -> i32 {
        match self.kind {
            WeaponKind::Thrown | WeaponKind::NaturalRanged => 5 * self.range,
            WeaponKind::Projectile if self.load == Loading::SimpleFirearm => 5 * self.range,
            WeaponKind::Projectile => 10 * self.range,
            _ => 0,
        }
    }
    /// An unarmed strike of a creature of `size`. [CEL-R5.4]
    pub fn unarmed(size: Size) -> Weapon {
        Weapon {
            name: "unarmed strike".into(),
            damage: size.unarmed_damage(),
            kind: WeaponKind::Unarmed,
            hands: Hands::Light,
            threat: 20,
            multiplier: 2,
            reach: 5,
            reach_only: false,
            range: 0,
            nonlethal: true,
            secondary: false,
            load: Loading::None,
            capacity: 1,
            splash: false,
            double: None,
        }
    }
}

/// Body armour.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Armor {
    /// Name.
    pub name: String,
    /// Armour bonus to DV.
    pub dv: i32,
    /// Highest DEX bonus to DV it allows.
    pub max_dex: i32,
}

/// A shield.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Shield {
    /// Name.
    pub name: String,
    /// Shield bonus to DV.
    pub dv: i32,
    /// Strapped on, it takes its hand (`hand = false`: a buckler's arm still wields a weapon,
    /// Pathfinder's). [CEL-R9 Ready or Drop a Shield; `rules::shield::hands_taken`]
    pub hand: bool,
}

/// A character class: base attack bonus and Fortitude save by level (1–10). [CEL-R4.3]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Class {
    /// Key.
    pub key: String,
    /// BAB at levels 1, 2, …
    pub bab: Vec<i32>,
    /// Base Fortitude save at levels 1, 2, …
    pub fort: Vec<i32>,
    /// The level from which it has uncanny dodge (barbarians, rogues). [CEL-R2.6]
    pub uncanny_dodge: Option<i32>,
    /// Sneak attack d6s at levels 1, 2, … (rogues; empty: none). The seed names "a rogue's
    /// sneak attack" (CEL-R5.6, R12) and gives no dice: Pathfinder's. [CEL-R12, CEL-A34]
    pub sneak_attack: Vec<i32>,
    /// Feats and features from level 1 (a monk's armed unarmed strike, CEL-R8.3).
    pub feats: Feats,
    /// The level from which it has the spell combat class feature (a magus: Pathfinder's 1st).
    /// [CEL-R9 Spell Combat]
    pub spell_combat: Option<i32>,
    /// The level from which it has the spellstrike class feature (a magus: Pathfinder's 2nd).
    /// [CEL-R11 Spellstrike]
    pub spellstrike: Option<i32>,
}

/// Feats and features the rules read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Feats {
    /// Combat Reflexes: + bonus(DEX) reactions; AoOs while flat-footed. [CEL-R3.3, R2.5]
    pub combat_reflexes: bool,
    /// Improved Unarmed Strike: armed when unarmed. [CEL-R8.3]
    pub improved_unarmed: bool,
    /// Precise Shot: no disadvantage shooting into melee. [CEL-R7.2]
    pub precise_shot: bool,
    /// Improved Initiative: +4 initiative (Pathfinder's feat). [CEL-R1.1]
    pub improved_initiative: bool,
    /// Uncanny dodge: never flat-footed. [CEL-R2.6]
    pub uncanny_dodge: bool,
    /// Improved Grapple: starting and continuing a grapple are simple actions. [CEL-R10.9]
    pub improved_grapple: bool,
    /// Greater Grapple: a chokehold cuts the blood flow. [CEL-R10.11]
    pub greater_grapple: bool,
    /// Improved Bull Rush: the pushed foe's movement provokes. [CEL-R10.2]
    pub improved_bull_rush: bool,
    /// Improved Drag: the dragged foe's movement provokes. [CEL-R10.8]
    pub improved_drag: bool,
    /// Rapid Reload (with its ranged weapon): loading takes less. [CEL-R9, R11–R13 Load]
    pub rapid_reload: bool,
    /// Quick Draw: draw a weapon as a free action without provoking. [CEL-R9 Draw or Sheathe]
    pub quick_draw: bool,
    /// Two-Weapon Fighting: draw two light or one-handed weapons at once. [CEL-R9]
    pub two_weapon_fighting: bool,
    /// Multiweapon Fighting: lighter off-hand penalties. [CEL-R9 Multiweapon Fighting]
    pub multiweapon_fighting: bool,
    /// Improved Feint: a feint is a simple action. [CEL-R11 Feint]
    pub improved_feint: bool,
    /// The spell combat class feature (a magus's). [CEL-R9 Spell Combat]
    pub spell_combat: bool,
    /// The spellstrike class feature (a magus's). [CEL-R11 Spellstrike]
    pub spellstrike: bool,
}

impl Feats {
    /// The names files use.
    pub const NAMES: [&'static str; 16] = [
        "combat reflexes",
        "improved unarmed strike",
        "precise shot",
        "improved initiative",
        "uncanny dodge",
        "improved grapple",
        "greater grapple",
        "improved bull rush",
        "improved drag",
        "rapid reload",
        "quick draw",
        "two-weapon fighting",
        "multiweapon fighting",
        "improved feint",
        "spell combat",
        "spellstrike",
    ];
    /// Sets a feat by name; false when unknown.
    pub fn set(&mut self, name: &str) -> bool {
        match fray_core::catalog::name_key(name).as_str() {
            "combat-reflexes" => self.combat_reflexes = true,
            "improved-unarmed-strike" => self.improved_unarmed = true,
            "precise-shot" => self.precise_shot = true,
            "improved-initiative" => self.improved_initiative = true,
            "uncanny-dodge" => self.uncanny_dodge = true,
            "improved-grapple" => self.improved_grapple = true,
            "greater-grapple" => self.greater_grapple = true,
            "improved-bull-rush" => self.improved_bull_rush = true,
            "improved-drag" => self.improved_drag = true,
            "rapid-reload" => self.rapid_reload = true,
            "quick-draw" => self.quick_draw = true,
            "two-weapon-fighting" => self.two_weapon_fighting = true,
            "multiweapon-fighting" => self.multiweapon_fighting = true,
            "improved-feint" => self.improved_feint = true,
            "spell-combat" => self.spell_combat = true,
            "spellstrike" => self.spellstrike = true,
            _ => return false,
        }
        true
    }
    /// Names of the feats held.
    pub fn names(&self) -> Vec<&'static str> {
        let flags = [
            self.combat_reflexes,
            self.improved_unarmed,
            self.precise_shot,
            self.improved_initiative,
            self.uncanny_dodge,
            self.improved_grapple,
            self.greater_grapple,
            self.improved_bull_rush,
            self.improved_drag,
            self.rapid_reload,
            self.quick_draw,
            self.two_weapon_fighting,
            self.multiweapon_fighting,
            self.improved_feint,
            self.spell_combat,
            self.spellstrike,
        ];
        Feats::NAMES
            .iter()
            .zip(flags)
            .filter_map(|(n, f)| f.then_some(*n))
            .collect()
    }
}

/// A creature.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Monster {
    /// Key.
    pub key: String,
    /// Display name.
    pub name: String,
    /// Size.
    pub size: Size,
    /// Hit points.
    pub hp: i32,
    /// Base attack bonus.
    pub bab: i32,
    /// Ability scores STR, DEX, CON, INT, WIS, CHA.
    pub scores: [i32; 6],
    /// DV bonuses besides DEX and size (armour, shield, natural armour).
    pub dv_bonus: i32,
    /// Highest DEX bonus to DV its armour allows.
    pub max_dex: i32,
    /// Speed in feet.
    pub speed: i32,
    /// Fortitude save bonus.
    pub fort: i32,
    /// Melee attack forms.
    pub attacks: Vec<Weapon>,
    /// A ranged weapon.
    pub ranged: Option<Weapon>,
    /// Feats.
    pub feats: Feats,
    /// Immune to critical hits (so to crippling injuries and massive damage). [CEL-R18.4, R19.4]
    pub immune_crit: bool,
    /// A humanoid (`humanoid = true`): feinting any other creature takes −4. [CEL-R11]
    pub humanoid: bool,
    /// Lacks an Intelligence score (`mindless = true`): it cannot be feinted. [CEL-R11]
    pub mindless: bool,
    /// Legs (for crippling injuries).
    pub legs: i32,
    /// Arms.
    pub arms: i32,
}

/// Every content file, loaded and validated.
#[derive(Debug, Clone, Default)]
pub struct Content {
    /// Weapons.
    pub weapons: Catalog<Weapon>,
    /// Armour.
    pub armor: Catalog<Armor>,
    /// Shields.
    pub shields: Catalog<Shield>,
    /// Classes.
    pub classes: Catalog<Class>,
    /// Creatures.
    pub monsters: Catalog<Monster>,
    /// Spells (sample content, `crate::spell`).
    pub spells: Catalog<crate::spell::Spell>,
    /// Items other than weapons (`crate::rules::item`). [CEL-R11, R12]
    pub items: Catalog<crate::rules::item::Gear>,
    /// The initiator's stances, strikes and counters (sample content, `crate::initiator`).
    /// [CEL-R11, R14, R15, R16.5]
    pub maneuvers: Catalog<crate::initiator::Maneuver>,
}

/// The tables of one content file (or an encounter's own definitions).
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
    pub(crate) class: Vec<ClassFile>,
    #[serde(default)]
    pub(crate) monster: Vec<MonsterFile>,
    #[serde(default)]
    pub(crate) spell: Vec<crate::spell::SpellFile>,
    #[serde(default)]
    pub(crate) item: Vec<crate::rules::item::GearFile>,
    #[serde(default)]
    pub(crate) stance: Vec<crate::initiator::StanceFile>,
    #[serde(default)]
    pub(crate) strike: Vec<crate::initiator::StrikeFile>,
    #[serde(default)]
    pub(crate) boost: Vec<crate::initiator::BoostFile>,
    #[serde(default)]
    pub(crate) counter: Vec<crate::initiator::CounterFile>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WeaponFile {
    pub(crate) name: Spanned<String>,
    pub(crate) damage: Spanned<String>,
    pub(crate) kind: Option<Spanned<String>>,
    pub(crate) hands: Option<Spanned<String>>,
    pub(crate) threat: Option<Spanned<i64>>,
    pub(crate) multiplier: Option<Spanned<i64>>,
    #[serde(default)]
    pub(crate) reach_weapon: bool,
    pub(crate) range: Option<Spanned<i64>>,
    #[serde(default)]
    pub(crate) nonlethal: bool,
    #[serde(default)]
    pub(crate) secondary: bool,
    pub(crate) load: Option<Spanned<String>>,
    pub(crate) capacity: Option<Spanned<i64>>,
    #[serde(default)]
    pub(crate) splash: bool,
    pub(crate) double: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArmorFile {
    name: Spanned<String>,
    dv: Spanned<i64>,
    max_dex: Option<Spanned<i64>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShieldFile {
    name: Spanned<String>,
    dv: Spanned<i64>,
    hand: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClassFile {
    key: Spanned<String>,
    bab: Spanned<Vec<i64>>,
    fort: Spanned<Vec<i64>>,
    uncanny_dodge: Option<Spanned<i64>>,
    sneak_attack: Option<Spanned<Vec<i64>>>,
    #[serde(default)]
    feats: Vec<Spanned<String>>,
    spell_combat: Option<Spanned<i64>>,
    spellstrike: Option<Spanned<i64>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AttackFile {
    weapon: Option<Spanned<String>>,
    name: Option<String>,
    damage: Option<Spanned<String>>,
    threat: Option<Spanned<i64>>,
    multiplier: Option<Spanned<i64>>,
    reach: Option<Spanned<i64>>,
    #[serde(default)]
    secondary: bool,
}

/// A monster's natural ranged attack (a spit, a quill). [Seed: Attack, Natural]
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NaturalRangedFile {
    name: Spanned<String>,
    damage: Spanned<String>,
    range: Option<Spanned<i64>>,
    threat: Option<Spanned<i64>>,
    multiplier: Option<Spanned<i64>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MonsterFile {
    key: Spanned<String>,
    name: Option<String>,
    size: Option<Spanned<String>>,
    hp: Spanned<i64>,
    bab: Spanned<i64>,
    scores: Spanned<BTreeMap<String, i64>>,
    dv_bonus: Option<Spanned<i64>>,
    max_dex: Option<Spanned<i64>>,
    speed: Option<Spanned<i64>>,
    fort: Option<Spanned<i64>>,
    #[serde(default)]
    attacks: Vec<AttackFile>,
    ranged: Option<Spanned<String>>,
    natural_ranged: Option<NaturalRangedFile>,
    #[serde(default)]
    feats: Vec<Spanned<String>>,
    #[serde(default)]
    immune_crit: bool,
    #[serde(default)]
    humanoid: bool,
    #[serde(default)]
    mindless: bool,
    legs: Option<Spanned<i64>>,
    arms: Option<Spanned<i64>>,
    #[allow(dead_code)]
    description: Option<String>,
}

/// The index of an ability by its short name (`str`, `dex`, …).
pub fn ability_index(name: &str) -> Option<usize> {
    ["str", "dex", "con", "int", "wis", "cha"]
        .iter()
        .position(|a| *a == name.to_ascii_lowercase())
}

/// Checks an optional integer field against `lo..=hi`; `default` when absent or wrong.
pub(crate) fn check_int(
    file: &SourceFile<'_>,
    field: &str,
    value: &Option<Spanned<i64>>,
    (lo, hi, default): (i64, i64, i32),
    errors: &mut Vec<FileError>,
) -> i32 {
    let Some(v) = value else { return default };
    let n = *v.get_ref();
    if (lo..=hi).contains(&n) {
        n as i32
    } else {
        errors.push(file.error(
            v.span(),
            Some(field.to_string()),
            format!("expected a whole number from {lo} to {hi}, found {n}"),
        ));
        default
    }
}

pub(crate) fn keyword<T: Copy>(
    file: &SourceFile<'_>,
    field: &str,
    value: &Option<Spanned<String>>,
    table: &[(&'static str, T)],
    default: T,
    errors: &mut Vec<FileError>,
) -> T {
    let Some(v) = value else { return default };
    match table.iter().find(|(k, _)| *k == v.get_ref().as_str()) {
        Some((_, t)) => *t,
        None => {
            errors.push(file.error(
                v.span(),
                Some(field.to_string()),
                format!(
                    "unknown value `{}`; expected one of {}",
                    v.get_ref(),
                    one_of(table.iter().map(|(k, _)| *k))
                ),
            ));
            default
        }
    }
}

/// Reads scores `{ str = 16, … }` (1 to 50), filling the rest with 10.
pub(crate) fn read_scores(
    file: &SourceFile<'_>,
    field: &str,
    scores: &Spanned<BTreeMap<String, i64>>,
    into: &mut [i32; 6],
    errors: &mut Vec<FileError>,
) {
    for (name, value) in scores.get_ref() {
        match ability_index(name) {
            Some(ix) if (1..=50).contains(value) => into[ix] = *value as i32,
            Some(_) => errors.push(file.error(
                scores.span(),
                Some(field.to_string()),
                format!("`{name}` must be between 1 and 50"),
            )),
            None => errors.push(file.error(
                scores.span(),
                Some(field.to_string()),
                format!("unknown ability `{name}`; expected str, dex, con, int, wis, cha"),
            )),
        }
    }
}

/// Reads feat names into `feats`.
pub(crate) fn read_feats(
    file: &SourceFile<'_>,
    field: &str,
    names: &[Spanned<String>],
    feats: &mut Feats,
    errors: &mut Vec<FileError>,
) {
    for (j, n) in names.iter().enumerate() {
        if !feats.set(n.get_ref()) {
            errors.push(file.error(
                n.span(),
                Some(format!("{field}[{j}]")),
                format!(
                    "unknown feat `{}`; expected one of {}",
                    n.get_ref(),
                    one_of(Feats::NAMES)
                ),
            ));
        }
    }
}

pub(crate) fn read_weapon(
    file: &SourceFile<'_>,
    at: &str,
    w: &WeaponFile,
    errors: &mut Vec<FileError>,
) -> Option<Weapon> {
    let before = errors.len();
    let damage = DamageDice::parse_dice(w.damage.get_ref());
    if damage.is_none() {
        errors.push(file.error(
            w.damage.span(),
            Some(format!("{at}.damage")),
            "expected damage dice like `1d8` or `2d4+1`",
        ));
    }
    // A natural ranged attack is a monster's (`natural_ranged`), not a weapon to carry.
    let kinds: Vec<(&'static str, WeaponKind)> = WeaponKind::ALL
        .iter()
        .filter(|k| **k != WeaponKind::NaturalRanged)
        .map(|k| (k.key(), *k))
        .collect();
    let kind = keyword(
        file,
        &format!("{at}.kind"),
        &w.kind,
        &kinds,
        WeaponKind::Melee,
        errors,
    );
    let hands: Vec<(&'static str, Hands)> = Hands::ALL.iter().map(|k| (k.key(), *k)).collect();
    let default_hands = match kind {
        WeaponKind::Natural | WeaponKind::Unarmed => Hands::Light,
        _ => Hands::One,
    };
    let hands = keyword(
        file,
        &format!("{at}.hands"),
        &w.hands,
        &hands,
        default_hands,
        errors,
    );
    let threat = check_int(
        file,
        &format!("{at}.threat"),
        &w.threat,
        (2, 20, 20),
        errors,
    );
    let multiplier = check_int(
        file,
        &format!("{at}.multiplier"),
        &w.multiplier,
        (2, 6, 2),
        errors,
    );
    let range = check_int(file, &format!("{at}.range"), &w.range, (0, 1000, 0), errors);
    let loads: Vec<(&'static str, Loading)> = Loading::ALL.iter().map(|k| (k.key(), *k)).collect();
    let load = keyword(
        file,
        &format!("{at}.load"),
        &w.load,
        &loads,
        Loading::None,
        errors,
    );
    let default_capacity = if load == Loading::RepeatingCrossbow {
        5
    } else {
        1
    };
    let capacity = check_int(
        file,
        &format!("{at}.capacity"),
        &w.capacity,
        (1, 12, default_capacity),
        errors,
    );
    if load != Loading::None && kind != WeaponKind::Projectile {
        errors.push(file.error(
            w.name.span(),
            Some(format!("{at}.load")),
            "only a projectile weapon (a crossbow or a firearm) is loaded",
        ));
    }
    if w.splash && kind != WeaponKind::Thrown {
        errors.push(file.error(
            w.name.span(),
            Some(format!("{at}.splash")),
            "a splash weapon is thrown (`kind = \"thrown\"`)",
        ));
    }
    if kind.is_ranged() && range == 0 {
        errors.push(file.error(
            w.name.span(),
            Some(format!("{at}.range")),
            "a projectile or thrown weapon needs `range`, its range increment in feet",
        ));
    }
    // CEL-R9 Multiweapon Fighting: a double weapon, held in both hands, strikes with either end.
    let double = w.double.as_ref().and_then(|d| {
        let dice = DamageDice::parse_dice(d.get_ref());
        if dice.is_none() {
            errors.push(file.error(
                d.span(),
                Some(format!("{at}.double")),
                "expected the other end's damage dice like `1d6`",
            ));
        } else if kind != WeaponKind::Melee || hands != Hands::Two {
            errors.push(file.error(
                d.span(),
                Some(format!("{at}.double")),
                "a double weapon is a two-handed melee weapon (`hands = \"two\"`)",
            ));
        }
        dice
    });
    if errors.len() > before {
        return None;
    }
    Some(Weapon {
        name: w.name.get_ref().clone(),
        damage: damage?,
        kind,
        hands,
        threat: threat as u32,
        multiplier,
        reach: if w.reach_weapon { 10 } else { 5 },
        reach_only: w.reach_weapon,
        range,
        nonlethal: w.nonlethal || kind == WeaponKind::Unarmed,
        secondary: w.secondary,
        load,
        capacity: capacity as u8,
        splash: w.splash,
        double,
    })
}

/// A natural attack form named `name` with damage `dice`: melee, light, reach 5 (the caller
/// sets its reach, or its kind and range). [CEL-R5.2, Seed: Attack, Natural]
fn natural_form(
    file: &SourceFile<'_>,
    at: &str,
    name: &str,
    dice: &Spanned<String>,
    (threat, multiplier): (&Option<Spanned<i64>>, &Option<Spanned<i64>>),
    errors: &mut Vec<FileError>,
) -> Option<Weapon> {
    let Some(damage) = DamageDice::parse_dice(dice.get_ref()) else {
        errors.push(file.error(
            dice.span(),
            Some(format!("{at}.damage")),
            "expected damage dice like `1d6` or `2d4+1`",
        ));
        return None;
    };
    Some(Weapon {
        name: name.to_string(),
        damage,
        kind: WeaponKind::Natural,
        hands: Hands::Light,
        threat: check_int(file, &format!("{at}.threat"), threat, (2, 20, 20), errors) as u32,
        multiplier: check_int(
            file,
            &format!("{at}.multiplier"),
            multiplier,
            (2, 6, 2),
            errors,
        ),
        reach: 5,
        reach_only: false,
        range: 0,
        nonlethal: false,
        secondary: false,
        load: Loading::None,
        capacity: 1,
        splash: false,
        double: None,
    })
}

/// Most feet a natural ranged attack's range increment may be (fray's limit; the seed gives
/// none).
pub const MAX_NATURAL_RANGE: i64 = 100;

/// A monster's natural ranged attack: its range increment is required (the seed gives none).
/// [Seed: Attack, Natural "If your natural attack is a ranged attack"]
fn natural_ranged(
    file: &SourceFile<'_>,
    at: &str,
    n: &NaturalRangedFile,
    errors: &mut Vec<FileError>,
) -> Option<Weapon> {
    let Some(r) = &n.range else {
        errors.push(file.error(
            n.name.span(),
            Some(format!("{at}.range")),
            "a natural ranged attack needs `range`, its range increment in feet",
        ));
        return None;
    };
    let before = errors.len();
    let range = check_int(
        file,
        &format!("{at}.range"),
        &Some(r.clone()),
        (5, MAX_NATURAL_RANGE, 5),
        errors,
    );
    let w = natural_form(
        file,
        at,
        n.name.get_ref(),
        &n.damage,
        (&n.threat, &n.multiplier),
        errors,
    )?;
    (errors.len() == before).then_some(Weapon {
        kind: WeaponKind::NaturalRanged,
        range,
        ..w
    })
}

impl Content {
    /// Loads the content embedded from `content/celesia/`.
    pub fn embedded() -> Result<Content, FileErrors> {
        Content::load(&CONTENT_FILES)
    }

    fn weapon_named(
        &self,
        file: &SourceFile<'_>,
        field: &str,
        name: &Spanned<String>,
        errors: &mut Vec<FileError>,
    ) -> Option<Weapon> {
        let found = self.weapons.get(name.get_ref()).cloned();
        if found.is_none() {
            errors.push(
                file.error(
                    name.span(),
                    Some(field.to_string()),
                    self.weapons
                        .unknown("weapon", name.get_ref(), "fray content celesia weapons"),
                ),
            );
        }
        found
    }

    fn read_monster(
        &self,
        file: &SourceFile<'_>,
        i: usize,
        m: &MonsterFile,
        errors: &mut Vec<FileError>,
    ) -> Option<Monster> {
        let at = format!("monster[{i}]");
        let f = |name: &str| format!("{at}.{name}");
        let before = errors.len();
        let sizes: Vec<(&'static str, Size)> = Size::ALL.iter().map(|s| (s.key(), *s)).collect();
        let size = keyword(file, &f("size"), &m.size, &sizes, Size::Medium, errors);
        let hp = check_int(file, &f("hp"), &Some(m.hp.clone()), (1, 100_000, 1), errors);
        let bab = check_int(file, &f("bab"), &Some(m.bab.clone()), (0, 40, 0), errors);
        let mut scores = [10; 6];
        read_scores(file, &f("scores"), &m.scores, &mut scores, errors);
        let dv_bonus = check_int(file, &f("dv_bonus"), &m.dv_bonus, (-10, 60, 0), errors);
        let max_dex = check_int(file, &f("max_dex"), &m.max_dex, (0, 30, 30), errors);
        let speed = check_int(file, &f("speed"), &m.speed, (5, 200, 30), errors);
        let fort = check_int(file, &f("fort"), &m.fort, (-10, 40, 0), errors);
        let legs = check_int(file, &f("legs"), &m.legs, (0, 8, 2), errors);
        let arms = check_int(file, &f("arms"), &m.arms, (0, 8, 2), errors);
        let mut feats = Feats::default();
        read_feats(file, &f("feats"), &m.feats, &mut feats, errors);
        let mut attacks = Vec::new();
        for (j, a) in m.attacks.iter().enumerate() {
            let af = format!("{at}.attacks[{j}]");
            let weapon = match (&a.weapon, &a.damage) {
                (Some(w), None) => self
                    .weapon_named(file, &format!("{af}.weapon"), w, errors)
                    .filter(|w| !w.kind.is_ranged() || w.kind == WeaponKind::Thrown),
                (None, Some(d)) => natural_form(
                    file,
                    &af,
                    a.name.as_deref().unwrap_or("natural attack"),
                    d,
                    (&a.threat, &a.multiplier),
                    errors,
                )
                .map(|w| Weapon {
                    reach: check_int(file, &format!("{af}.reach"), &a.reach, (5, 30, 5), errors),
                    secondary: a.secondary,
                    ..w
                }),
                _ => {
                    errors.push(file.error(
                        m.key.span(),
                        Some(af.clone()),
                        "an attack names a `weapon` or gives a natural attack's `name` and \
                         `damage`",
                    ));
                    None
                }
            };
            attacks.extend(weapon);
        }
        if m.attacks.is_empty() {
            attacks.push(Weapon::unarmed(size));
        }
        let ranged = match &m.ranged {
            Some(r) => {
                let w = self.weapon_named(file, &f("ranged"), r, errors);
                if w.as_ref().is_some_and(|w| !w.kind.is_ranged()) {
                    errors.push(file.error(
                        r.span(),
                        Some(f("ranged")),
                        format!("`{}` is not a projectile or thrown weapon", r.get_ref()),
                    ));
                }
                w
            }
            None => None,
        };
        let ranged = match (&m.natural_ranged, ranged) {
            (Some(n), w) => {
                if w.is_some() {
                    errors.push(file.error(
                        n.name.span(),
                        Some(f("natural_ranged")),
                        "a monster has one ranged form: `ranged` or `natural_ranged`, not both",
                    ));
                }
                natural_ranged(file, &f("natural_ranged"), n, errors)
            }
            (None, w) => w,
        };
        if errors.len() > before {
            return None;
        }
        Some(Monster {
            key: m.key.get_ref().clone(),
            name: m.name.clone().unwrap_or_else(|| m.key.get_ref().clone()),
            size,
            hp,
            bab,
            scores,
            dv_bonus,
            max_dex,
            speed,
            fort,
            attacks,
            ranged,
            feats,
            immune_crit: m.immune_crit,
            humanoid: m.humanoid,
            mindless: m.mindless,
            legs,
            arms,
        })
    }

    /// Every kind of content with its key numbers, for `fray content celesia`.
    pub fn tables(&self) -> Vec<ContentTable> {
        let weapon_text = |w: &Weapon| {
            let crit = if w.threat < 20 {
                format!("{}-20/×{}", w.threat, w.multiplier)
            } else {
                format!("×{}", w.multiplier)
            };
            format!("{} {} {crit}", w.name, w.damage)
        };
        let mut armour =
            ContentTable::of("armour", &["DV", "max DEX"], &self.armor, |a: &Armor| {
                (
                    a.name.clone(),
                    vec![format!("+{}", a.dv), a.max_dex.to_string()],
                )
            });
        armour.rows.extend(
            ContentTable::of("armour", &[], &self.shields, |s: &Shield| {
                (
                    s.name.clone(),
                    vec![format!("+{} (shield)", s.dv), String::new()],
                )
            })
            .rows,
        );
        vec![
            ContentTable::of(
                "monsters",
                &[
                    "name", "size", "hp", "BAB", "scores", "DV bonus", "speed", "attacks",
                ],
                &self.monsters,
                |m: &Monster| {
                    let attacks: Vec<String> = m
                        .attacks
                        .iter()
                        .chain(m.ranged.iter())
                        .map(weapon_text)
                        .collect();
                    (
                        m.key.clone(),
                        vec![
                            m.name.clone(),
                            m.size.key().to_string(),
                            m.hp.to_string(),
                            format!("+{}", m.bab),
                            m.scores
                                .iter()
                                .map(i32::to_string)
                                .collect::<Vec<_>>()
                                .join("/"),
                            format!("+{}", m.dv_bonus),
                            m.speed.to_string(),
                            attacks.join(", "),
                        ],
                    )
                },
            ),
            ContentTable::of(
                "weapons",
                &[
                    "damage", "kind", "hands", "critical", "reach ft", "range ft",
                ],
                &self.weapons,
                |w: &Weapon| {
                    (
                        w.name.clone(),
                        vec![
                            w.damage.to_string(),
                            w.kind.key().to_string(),
                            w.hands.key().to_string(),
                            if w.threat < 20 {
                                format!("{}-20/×{}", w.threat, w.multiplier)
                            } else {
                                format!("×{}", w.multiplier)
                            },
                            w.reach.to_string(),
                            if w.range > 0 {
                                w.range.to_string()
                            } else {
                                String::new()
                            },
                        ],
                    )
                },
            ),
            armour,
            ContentTable::of(
                "items",
                &["use", "does", "uses"],
                &self.items,
                |g: &crate::rules::item::Gear| {
                    (
                        g.name.clone(),
                        vec![g.how.key().to_string(), g.does(), g.uses.to_string()],
                    )
                },
            ),
            ContentTable::of(
                "classes",
                &[
                    "BAB by level",
                    "Fort by level",
                    "uncanny dodge",
                    "sneak attack by level",
                    "spell combat",
                    "spellstrike",
                ],
                &self.classes,
                |c: &Class| {
                    let list = |v: &[i32]| {
                        v.iter()
                            .map(|n| format!("+{n}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    (
                        c.key.clone(),
                        vec![
                            list(&c.bab),
                            list(&c.fort),
                            c.uncanny_dodge
                                .map_or(String::new(), |l| format!("from level {l}")),
                            c.sneak_attack
                                .iter()
                                .map(|n| format!("{n}d6"))
                                .collect::<Vec<_>>()
                                .join(" "),
                            c.spell_combat
                                .map_or(String::new(), |l| format!("from level {l}")),
                            c.spellstrike
                                .map_or(String::new(), |l| format!("from level {l}")),
                        ],
                    )
                },
            ),
        ]
    }
}

impl ContentFile {
    fn is_empty(&self) -> bool {
        self.weapon.is_empty()
            && self.armor.is_empty()
            && self.shield.is_empty()
            && self.class.is_empty()
            && self.monster.is_empty()
            && self.spell.is_empty()
            && self.item.is_empty()
            && self.stance.is_empty()
            && self.strike.is_empty()
            && self.counter.is_empty()
    }
}

/// Most levels a class lists.
pub const MAX_LEVEL: usize = 20;

impl Content {
    /// The file's `[[stance]]`, `[[strike]]`, `[[boost]]` and `[[counter]]` entries, one catalog
    /// for the four (a name is unique across them: `stance NAME`, `strike NAME`, `boost NAME`).
    /// [CEL-R9, R11, R12, R14, R15]
    fn read_maneuvers(
        &mut self,
        file: &SourceFile<'_>,
        parsed: &ContentFile,
        errors: &mut Vec<FileError>,
    ) {
        use crate::initiator::{read_boost, read_counter, read_stance, read_strike};
        let stances = parsed.stance.iter().enumerate().map(|(i, s)| {
            let at = format!("stance[{i}]");
            (read_stance(file, &at, s, errors), at)
        });
        let mut read: Vec<_> = stances.collect();
        for (i, s) in parsed.strike.iter().enumerate() {
            let at = format!("strike[{i}]");
            read.push((read_strike(file, &at, s, errors), at));
        }
        for (i, b) in parsed.boost.iter().enumerate() {
            let at = format!("boost[{i}]");
            read.push((read_boost(file, &at, b, errors), at));
        }
        for (i, c) in parsed.counter.iter().enumerate() {
            let at = format!("counter[{i}]");
            read.push((read_counter(file, &at, c, errors), at));
        }
        for (found, at) in read {
            if let Some((m, span)) = found {
                let key = m.key();
                self.maneuvers.insert(
                    "maneuver",
                    &key,
                    m,
                    file,
                    span,
                    format!("{at}.name"),
                    errors,
                );
            }
        }
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
                self.weapons.insert(
                    "weapon",
                    &name,
                    weapon,
                    file,
                    w.name.span(),
                    format!("{at}.name"),
                    errors,
                );
            }
        }
        for (i, a) in parsed.armor.iter().enumerate() {
            let at = format!("armor[{i}]");
            let before = errors.len();
            let dv = check_int(
                file,
                &format!("{at}.dv"),
                &Some(a.dv.clone()),
                (0, 30, 0),
                errors,
            );
            let max_dex = check_int(
                file,
                &format!("{at}.max_dex"),
                &a.max_dex,
                (0, 30, 30),
                errors,
            );
            if errors.len() == before {
                let armor = Armor {
                    name: a.name.get_ref().clone(),
                    dv,
                    max_dex,
                };
                self.armor.insert(
                    "armour",
                    a.name.get_ref(),
                    armor,
                    file,
                    a.name.span(),
                    format!("{at}.name"),
                    errors,
                );
            }
        }
        for (i, s) in parsed.shield.iter().enumerate() {
            let at = format!("shield[{i}]");
            let before = errors.len();
            let dv = check_int(
                file,
                &format!("{at}.dv"),
                &Some(s.dv.clone()),
                (0, 10, 0),
                errors,
            );
            if errors.len() == before {
                let shield = Shield {
                    name: s.name.get_ref().clone(),
                    dv,
                    hand: s.hand.unwrap_or(true),
                };
                self.shields.insert(
                    "shield",
                    s.name.get_ref(),
                    shield,
                    file,
                    s.name.span(),
                    format!("{at}.name"),
                    errors,
                );
            }
        }
        for (i, sp) in parsed.spell.iter().enumerate() {
            let at = format!("spell[{i}]");
            if let Some(spell) = crate::spell::read(file, &at, sp, errors) {
                let key = spell.key();
                self.spells.insert(
                    "spell",
                    &key,
                    spell,
                    file,
                    sp.name_span(),
                    format!("{at}.name"),
                    errors,
                );
            }
        }
        self.read_maneuvers(file, parsed, errors);
        for (i, c) in parsed.class.iter().enumerate() {
            let at = format!("class[{i}]");
            let before = errors.len();
            let mut table = |name: &str, v: &Spanned<Vec<i64>>| -> Vec<i32> {
                let list = v.get_ref();
                if list.is_empty()
                    || list.len() > MAX_LEVEL
                    || list.iter().any(|n| !(0..=40).contains(n))
                {
                    errors.push(file.error(
                        v.span(),
                        Some(format!("{at}.{name}")),
                        format!("expected 1 to {MAX_LEVEL} values from 0 to 40, one per level"),
                    ));
                }
                list.iter().map(|n| *n as i32).collect()
            };
            let bab = table("bab", &c.bab);
            let fort = table("fort", &c.fort);
            let sneak = c
                .sneak_attack
                .as_ref()
                .map(|v| (table("sneak_attack", v), v.span()));
            if bab.len() != fort.len() {
                errors.push(file.error(
                    c.fort.span(),
                    Some(format!("{at}.fort")),
                    "`bab` and `fort` need one value per level each",
                ));
            }
            let sneak_attack = match sneak {
                Some((dice, span)) => {
                    if dice.len() != bab.len() {
                        errors.push(file.error(
                            span,
                            Some(format!("{at}.sneak_attack")),
                            "`sneak_attack` needs one value per level, as `bab` has",
                        ));
                    }
                    dice
                }
                None => Vec::new(),
            };
            let uncanny_dodge = c.uncanny_dodge.as_ref().map(|_| {
                check_int(
                    file,
                    &format!("{at}.uncanny_dodge"),
                    &c.uncanny_dodge,
                    (1, 20, 1),
                    errors,
                )
            });
            // The level a class feature comes at, 1 to 20, as uncanny dodge's.
            let from_level = |name: &str, v: &Option<Spanned<i64>>, errors: &mut Vec<FileError>| {
                v.as_ref()
                    .map(|_| check_int(file, &format!("{at}.{name}"), v, (1, 20, 1), errors))
            };
            let spell_combat = from_level("spell_combat", &c.spell_combat, errors);
            let spellstrike = from_level("spellstrike", &c.spellstrike, errors);
            let mut feats = Feats::default();
            read_feats(file, &format!("{at}.feats"), &c.feats, &mut feats, errors);
            if errors.len() == before {
                let class = Class {
                    key: c.key.get_ref().clone(),
                    bab,
                    fort,
                    uncanny_dodge,
                    sneak_attack,
                    feats,
                    spell_combat,
                    spellstrike,
                };
                self.classes.insert(
                    "class",
                    c.key.get_ref(),
                    class,
                    file,
                    c.key.span(),
                    format!("{at}.key"),
                    errors,
                );
            }
        }
    }

    fn read_dependents(
        &mut self,
        file: &SourceFile<'_>,
        parsed: &ContentFile,
        errors: &mut Vec<FileError>,
    ) {
        // A spell's weapon names a weapon of some file (CEL-R9, R5.6): checked once every
        // file's weapons are read; its numbers are taken as an encounter loads.
        for (i, sp) in parsed.spell.iter().enumerate() {
            crate::spell::check_weapon_shape(
                file,
                &format!("spell[{i}]"),
                sp,
                &self.weapons,
                errors,
            );
        }
        // Items after every file's spells: an item may cast one (CEL-R11).
        for (i, it) in parsed.item.iter().enumerate() {
            let at = format!("item[{i}]");
            if let Some(gear) = crate::rules::item::read(file, &at, it, &self.spells, errors) {
                let key = gear.name.clone();
                self.items.insert(
                    "item",
                    &key,
                    gear,
                    file,
                    it.name_span(),
                    format!("{at}.name"),
                    errors,
                );
            }
        }
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
        self.classes.seal();
        self.monsters.seal();
        self.spells.seal();
        self.items.seal();
        self.maneuvers.seal();
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
        assert!(c.monsters.len() >= 15, "{}", c.monsters.len());
        let hammer = c.weapons.get("warhammer").unwrap();
        assert_eq!((hammer.damage.count, hammer.damage.sides), (1, 8));
        assert_eq!(hammer.multiplier, 3);
        let sword = c.weapons.get("longsword").unwrap();
        assert_eq!((sword.threat, sword.multiplier), (19, 2));
        for class in [
            "fighter",
            "barbarian",
            "rogue",
            "cleric",
            "wizard",
            "ranger",
            "monk",
        ] {
            let k = c.classes.get(class).unwrap();
            assert_eq!(k.bab.len(), 10, "{class}: levels 1-10");
        }
        assert_eq!(c.classes.get("fighter").unwrap().bab[2], 3);
        assert_eq!(c.classes.get("rogue").unwrap().uncanny_dodge, Some(4));
    }

    #[test]
    fn bad_content_is_located() {
        let err = Content::load(&[(
            "c.toml",
            "[[weapon]]\nname = \"bow\"\ndamage = \"1d6\"\nkind = \"projectile\"\n",
        )])
        .unwrap_err();
        assert!(err.to_string().contains("weapon[0].range"), "{err}");
        let err = Content::load(&[("c.toml", "[[weapon]]\nname = \"x\"\ndamage = \"1x6\"\n")])
            .unwrap_err();
        assert!(err.to_string().contains("weapon[0].damage"), "{err}");
    }

    /// A spell's `weapon_shape` names a weapon of some content file, read after every file's
    /// weapons (here the weapon's file comes second); an unknown one, or one without
    /// `weapon`, is refused naming file, line and field. [CEL-R9, R5.6]
    #[test]
    fn a_spell_weapons_shape_is_a_known_weapon() {
        let spell = |shape: &str, weapon: &str| {
            format!(
                "[[spell]]\nname = \"blade\"\nspell_resistance = false\nlevel = 2\ncasting = \"standard\"\n\
                 range = \"ranged\"\nrange_ft = 100\n{weapon}rounds_per_level = 1\n\
                 weapon_shape = \"{shape}\"\n"
            )
        };
        let dice = "weapon = \"1d8\"\nweapon_ability = \"wis\"\n";
        let axe = "[[weapon]]\nname = \"axe\"\ndamage = \"1d8\"\nthreat = 19\nmultiplier = 3\n";
        let c = Content::load(&[("s.toml", &spell("axe", dice)), ("w.toml", axe)]).unwrap();
        let blade = c.spells.get("blade").unwrap();
        assert_eq!(blade.weapon_shape.as_deref(), Some("axe"));
        let w = blade.weapon.unwrap();
        assert_eq!(
            (w.threat, w.multiplier),
            (20, 2),
            "taken as an encounter loads"
        );
        let err = Content::load(&[("s.toml", &spell("axes", dice)), ("w.toml", axe)])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("s.toml:11") && err.contains("spell[0].weapon_shape"),
            "{err}"
        );
        assert!(err.contains("unknown weapon `axes`"), "{err}");
        let err = Content::load(&[("s.toml", &spell("axe", "")), ("w.toml", axe)])
            .unwrap_err()
            .to_string();
        assert!(err.contains("`weapon_shape` goes with `weapon`"), "{err}");
    }

    /// CEL-R12 sneak attack: one count of d6s per level, as `bab` has, each 0 to 40; anything
    /// else is refused naming the field.
    /// The magus's class features by level (CEL-R9, R11) are checked like uncanny dodge's: 1
    /// to 20, the error naming file, line and field; a spell's `magus` must be true or false.
    #[test]
    fn bad_magus_features_are_located() {
        let text = "[[class]]\nkey = \"blade\"\nbab = [0, 1]\nfort = [2, 3]\nspell_combat = 0\n\
                    spellstrike = 30\n";
        let err = Content::load(&[("c.toml", text)]).unwrap_err().to_string();
        assert!(
            err.contains("c.toml:5") && err.contains("class[0].spell_combat"),
            "{err}"
        );
        assert!(
            err.contains("c.toml:6") && err.contains("class[0].spellstrike"),
            "{err}"
        );
        let text = "[[spell]]\nname = \"zap\"\nlevel = 1\ncasting = \"standard\"\n\
                    range = \"touch\"\nattack = \"melee touch\"\ndamage = \"1d6\"\nmagus = \"yes\"\n";
        let err = Content::load(&[("s.toml", text)]).unwrap_err().to_string();
        assert!(err.contains("s.toml:8") && err.contains("magus"), "{err}");
        let c = Content::embedded().unwrap_or_else(|e| panic!("{e}"));
        let magus = c.classes.get("magus").expect("magus");
        assert_eq!((magus.spell_combat, magus.spellstrike), (Some(1), Some(2)));
        let on_list: Vec<&str> = c
            .spells
            .iter()
            .filter(|s| s.magus)
            .map(|s| s.name.as_str())
            .collect();
        assert!(on_list.contains(&"shocking grasp") && !on_list.contains(&"quick flame"));
    }

    #[test]
    fn bad_sneak_attack_is_located() {
        for sneak in ["[1, 1]", "[1, 1, 99]"] {
            let text = format!(
                "[[class]]\nkey = \"thief\"\nbab = [0, 1, 2]\nfort = [0, 0, 1]\nsneak_attack = {sneak}\n"
            );
            let err = Content::load(&[("c.toml", text.as_str())]).unwrap_err();
            assert!(
                err.to_string().contains("class[0].sneak_attack"),
                "{sneak}: {err}"
            );
        }
    }

    /// CEL-R9: a double weapon's other end, on a two-handed melee weapon only.
    #[test]
    fn double_weapons() {
        let c = Content::embedded().expect("content");
        let staff = c.weapons.get("quarterstaff").expect("quarterstaff");
        assert_eq!(staff.double.map(|d| (d.count, d.sides)), Some((1, 6)));
        assert_eq!(c.weapons.get("longsword").expect("longsword").double, None);
        for (text, field) in [
            (
                "name = \"x\"\ndamage = \"1d8\"\ndouble = \"1d6\"\n",
                "weapon[0].double",
            ),
            (
                "name = \"x\"\ndamage = \"1d8\"\nhands = \"two\"\ndouble = \"d\"\n",
                "weapon[0].double",
            ),
        ] {
            let err = Content::load(&[("c.toml", &format!("[[weapon]]\n{text}"))]).unwrap_err();
            assert!(err.to_string().contains(field), "{err}");
        }
    }
}
