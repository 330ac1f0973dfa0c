//! C&C content as data: weapons, armour, shields, monsters, classes and the attribute-modifier
//! table, read from `content/cnc/*.toml` (embedded at build time) and validated on load, every
//! problem reported with file, line and field.

use fray_core::catalog::ContentSet;
use fray_core::catalog::ContentTable;
use fray_core::span::{FileError, FileErrors, SourceFile};
use fray_core::Catalog;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The embedded content files, `(path, text)`.
pub const CONTENT_FILES: [(&str, &str); 6] = [
    (
        "content/cnc/weapons.toml",
        include_str!("../../../content/cnc/weapons.toml"),
    ),
    (
        "content/cnc/armor.toml",
        include_str!("../../../content/cnc/armor.toml"),
    ),
    (
        "content/cnc/monsters.toml",
        include_str!("../../../content/cnc/monsters.toml"),
    ),
    (
        "content/cnc/classes.toml",
        include_str!("../../../content/cnc/classes.toml"),
    ),
    (
        "content/cnc/magic.toml",
        include_str!("../../../content/cnc/magic.toml"),
    ),
    (
        "content/cnc/attributes.toml",
        include_str!("../../../content/cnc/attributes.toml"),
    ),
];

pub use fray_core::DamageDice;

/// How a weapon is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    /// Hand-to-hand.
    Melee,
    /// Thrown: ranged, adds STR to damage (CNC-R8.2); also usable in melee if `melee = true`.
    Thrown,
    /// Propelled (bows, crossbows, slings): ranged, no STR to damage (CNC-R8.2).
    Propelled,
}

/// A weapon.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Weapon {
    /// Key (`long sword`).
    pub id: String,
    /// Damage dice.
    pub damage: DamageDice,
    /// Melee, thrown or propelled.
    pub kind: WeaponKind,
    /// Range increment in feet (ranged weapons).
    pub range_increment: i32,
    /// Reach in feet (melee).
    pub reach: i32,
    /// A crossbow: its bolts fly on to long range when they miss (CNC-R8.4).
    pub crossbow: bool,
    /// Can also be used in melee (a thrown dagger or spear).
    pub melee_too: bool,
    /// Magic bonus to hit and damage.
    pub magic: i32,
}

impl Weapon {
    /// True for thrown and propelled weapons.
    pub fn is_ranged(&self) -> bool {
        !matches!(self.kind, WeaponKind::Melee)
    }
    /// True when it can strike in melee.
    pub fn is_melee(&self) -> bool {
        matches!(self.kind, WeaponKind::Melee) || self.melee_too
    }
}

/// Shield sizes and the number of attackers each shield covers (CNC-R16.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShieldSize {
    /// Covers 1 attacker.
    Small,
    /// Covers 2 attackers.
    Medium,
    /// Covers 3 attackers.
    Large,
}

impl ShieldSize {
    /// Attackers per round the shield's +1 applies against. [Seed: 10. Armor Class › Shields]
    pub fn attackers(self) -> u8 {
        match self {
            ShieldSize::Small => 1,
            ShieldSize::Medium => 2,
            ShieldSize::Large => 3,
        }
    }
}

/// Body armour.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Armor {
    /// Key.
    pub id: String,
    /// AC bonus (CNC-R16.2).
    pub bonus: i32,
    /// Magic bonus (does not count against touch attacks, CNC-R14.2).
    pub magic: i32,
}

/// A shield.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Shield {
    /// Key.
    pub id: String,
    /// Size.
    pub size: ShieldSize,
}

/// Size categories, ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    /// Tiny.
    Tiny,
    /// Small.
    Small,
    /// Medium.
    Medium,
    /// Large.
    Large,
    /// Huge.
    Huge,
    /// Gargantuan.
    Gargantuan,
}

impl Size {
    /// Index in the ordered list.
    pub fn rank(self) -> i32 {
        self as i32
    }
}

/// One natural or weapon attack of a monster's routine.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MonsterAttack {
    /// Name (`bite`, `claw`, or the weapon's id).
    pub name: String,
    /// The weapon used, if any.
    pub weapon: Option<Weapon>,
    /// Damage (natural attacks).
    pub damage: DamageDice,
    /// Deals subdual damage (CNC-R21.1).
    pub subdual: bool,
    /// A touch attack (CNC-R14).
    pub touch: bool,
    /// Reach in feet.
    pub reach: i32,
}

/// A monster from the bestiary.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Monster {
    /// Key (`orc`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Hit dice count: also its BtH (CNC-R7.2).
    pub hit_dice: u16,
    /// Hit die sides.
    pub hit_die: u16,
    /// Typical hit points.
    pub hp: i32,
    /// Armour class.
    pub ac: i32,
    /// Movement rate in feet.
    pub movement: i32,
    /// Size.
    pub size: Size,
    /// Attribute scores (STR DEX CON INT WIS CHA); 10 where not listed (CNC-A26).
    pub scores: [i32; 6],
    /// Prime attributes (indices into `scores`).
    pub primes: Vec<usize>,
    /// Its attack routine (one action makes every attack).
    pub attacks: Vec<MonsterAttack>,
    /// A ranged weapon it carries, if any.
    pub ranged: Option<Weapon>,
    /// May attempt disarms (CNC-A24: CK enables).
    pub can_disarm: bool,
    /// A line of description.
    pub description: String,
}

/// A character class.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Class {
    /// Key (`fighter`).
    pub id: String,
    /// Hit die sides.
    pub hit_die: u16,
    /// BtH by level, index 0 = level 1.
    pub bth: Vec<i32>,
    /// Prime attribute (index into the scores).
    pub prime: usize,
    /// May disarm (CNC-R17.3).
    pub can_disarm: bool,
    /// Gets the rogue/assassin back attack (rear bonus included in it, CNC-R17.6).
    pub back_attack: bool,
    /// Monk rules for two-weapon fighting (CNC-R17.8).
    pub monk: bool,
}

/// Everything the C&C content files define.
#[derive(Debug, Clone, Default)]
pub struct Content {
    /// Weapons by key.
    pub weapons: Catalog<Weapon>,
    /// Armour by key.
    pub armor: Catalog<Armor>,
    /// Shields by key.
    pub shields: Catalog<Shield>,
    /// Monsters by key.
    pub monsters: Catalog<Monster>,
    /// Classes by key.
    pub classes: Catalog<Class>,
    /// Attribute modifier table: `(lowest score, modifier)`, ascending.
    pub attribute_modifiers: Vec<(i32, i32)>,
    /// Spells by key.
    pub spells: Catalog<Magic>,
    /// Usable items by key.
    pub items: Catalog<Magic>,
    /// Class and racial abilities by key.
    pub abilities: Catalog<Magic>,
}

/// What a spell or item does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    /// Restores hit points.
    Heal,
    /// Deals damage.
    Damage,
}

/// Whom a spell or item may be aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aim {
    /// Only the user.
    #[serde(rename = "self")]
    Myself,
    /// A friend, the user included.
    Ally,
    /// A foe.
    Foe,
}

/// A spell or a usable item, as effect data.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Magic {
    /// Key.
    pub id: String,
    /// Heal or damage.
    pub effect: EffectKind,
    /// Dice of the effect.
    pub dice: DamageDice,
    /// Whom it may target.
    pub target: Aim,
    /// Range in feet (5 = touch).
    pub range: i32,
    /// Casting time in rounds (spells; items take effect at once).
    pub casting_time: u32,
    /// Illusory damage (CNC-R20.3).
    pub illusion: bool,
    /// Spell, item or ability.
    pub kind: MagicKind,
    /// An ability that involves movement (the CK decides, CNC-G6): its user may first move up to
    /// its movement rate to come within range.
    pub moves: bool,
}

/// How a [`Magic`] is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MagicKind {
    /// Cast (CNC-R4.3).
    Spell,
    /// Used (CNC-R4.6).
    Item,
    /// A class or racial ability (CNC-R4.5).
    Ability,
}

impl MagicKind {
    /// `spell`, `item`, `ability`.
    pub fn key(self) -> &'static str {
        match self {
            MagicKind::Spell => "spell",
            MagicKind::Item => "item",
            MagicKind::Ability => "ability",
        }
    }
}

/// The attribute names, in score order.
pub const ATTRIBUTES: [&str; 6] = ["str", "dex", "con", "int", "wis", "cha"];

/// Index of an attribute name.
pub fn attribute_index(name: &str) -> Option<usize> {
    ATTRIBUTES.iter().position(|a| a.eq_ignore_ascii_case(name))
}

impl ContentFile {
    /// No definitions at all.
    fn is_empty(&self) -> bool {
        self.weapon.is_empty()
            && self.armor.is_empty()
            && self.shield.is_empty()
            && self.monster.is_empty()
            && self.class.is_empty()
            && self.spell.is_empty()
            && self.item.is_empty()
            && self.ability.is_empty()
            && self.attribute_modifiers.is_none()
    }
}

impl Content {
    /// The modifier of an attribute score.
    pub fn modifier(&self, score: i32) -> i32 {
        self.attribute_modifiers
            .iter()
            .rev()
            .find(|(low, _)| score >= *low)
            .map_or(0, |(_, m)| *m)
    }

    /// Loads the embedded content; every problem in every file is reported together.
    pub fn embedded() -> Result<Content, FileErrors> {
        Content::load(&CONTENT_FILES)
    }

    fn read_monster(
        &self,
        file: &SourceFile<'_>,
        i: usize,
        m: &MonsterDef,
        errors: &mut Vec<FileError>,
    ) -> Option<Monster> {
        let before = errors.len();
        let field = |f: &str| Some(format!("monster[{i}].{f}"));
        let mut scores = [10; 6];
        for (name, value) in &m.scores {
            match attribute_index(name) {
                Some(ix) => scores[ix] = *value,
                None => errors.push(file.error(
                    m.id.span(),
                    field("scores"),
                    format!("unknown attribute `{name}`; expected str, dex, con, int, wis, cha"),
                )),
            }
        }
        let mut primes = Vec::new();
        for p in &m.primes {
            match p.as_str() {
                "physical" => primes.extend([0, 1, 2]),
                "mental" => primes.extend([3, 4, 5]),
                other => match attribute_index(other) {
                    Some(ix) => primes.push(ix),
                    None => errors.push(file.error(
                        m.id.span(),
                        field("primes"),
                        format!(
                            "unknown prime `{other}`; expected physical, mental or an attribute"
                        ),
                    )),
                },
            }
        }
        let mut attacks = Vec::new();
        for (j, a) in m.attacks.iter().enumerate() {
            let weapon =
                match &a.weapon {
                    Some(w) => match self.weapons.get(w.get_ref()) {
                        Some(w) => Some(w.clone()),
                        None => {
                            errors.push(file.error(
                                w.span(),
                                field(&format!("attacks[{j}].weapon")),
                                self.weapons.unknown(
                                    "weapon",
                                    w.get_ref(),
                                    "fray content cnc weapons",
                                ),
                            ));
                            None
                        }
                    },
                    None => None,
                };
            let damage = match (&a.damage, &weapon) {
                (Some(d), _) => match DamageDice::parse(d.get_ref()) {
                    Some(d) => d,
                    None => {
                        errors.push(file.error(
                            d.span(),
                            field(&format!("attacks[{j}].damage")),
                            "expected damage dice like `1d6` or `2d4+1`",
                        ));
                        continue;
                    }
                },
                (None, Some(w)) => w.damage,
                (None, None) => {
                    errors.push(file.error(
                        m.id.span(),
                        field(&format!("attacks[{j}]")),
                        "an attack needs `damage` or a `weapon`",
                    ));
                    continue;
                }
            };
            // Natural weapons deal what the description gives, bonus included (CNC-R20.2).
            let damage = DamageDice {
                bonus: damage.bonus + a.damage_bonus,
                ..damage
            };
            let name = a
                .name
                .clone()
                .or_else(|| weapon.as_ref().map(|w| w.id.clone()))
                .unwrap_or_else(|| "natural attack".to_string());
            let reach = a
                .reach
                .or_else(|| weapon.as_ref().map(|w| w.reach))
                .unwrap_or(5);
            attacks.push(MonsterAttack {
                name,
                weapon,
                damage,
                subdual: a.subdual,
                touch: a.touch,
                reach,
            });
        }
        if attacks.is_empty() {
            errors.push(file.error(
                m.id.span(),
                field("attacks"),
                "a monster needs at least one attack",
            ));
        }
        let ranged = match &m.ranged {
            Some(r) => match self.weapons.get(r.get_ref()) {
                Some(w) if w.is_ranged() => Some(w.clone()),
                Some(_) => {
                    errors.push(file.error(
                        r.span(),
                        field("ranged"),
                        format!("`{}` is not a ranged weapon", r.get_ref()),
                    ));
                    None
                }
                None => {
                    errors.push(
                        file.error(
                            r.span(),
                            field("ranged"),
                            self.weapons
                                .unknown("weapon", r.get_ref(), "fray content cnc weapons"),
                        ),
                    );
                    None
                }
            },
            None => None,
        };
        let hit_dice = *m.hit_dice.get_ref();
        if hit_dice == 0 || hit_dice > 50 {
            errors.push(file.error(
                m.hit_dice.span(),
                field("hit_dice"),
                "expected between 1 and 50 hit dice",
            ));
        }
        if *m.hp.get_ref() < 1 {
            errors.push(file.error(m.hp.span(), field("hp"), "expected at least 1 hit point"));
        }
        if errors.len() > before {
            return None;
        }
        Some(Monster {
            id: m.id.get_ref().clone(),
            name: m.name.clone().unwrap_or_else(|| m.id.get_ref().clone()),
            hit_dice,
            hit_die: m.hit_die,
            hp: *m.hp.get_ref(),
            ac: m.ac,
            movement: m.movement,
            size: m.size,
            scores,
            primes,
            attacks,
            ranged,
            can_disarm: m.disarm,
            description: m.description.clone().unwrap_or_default(),
        })
    }
}

fn read_weapon(
    file: &SourceFile<'_>,
    at: &str,
    w: &WeaponDef,
    errors: &mut Vec<FileError>,
) -> Option<Weapon> {
    let damage = match DamageDice::parse(w.damage.get_ref()) {
        Some(d) => d,
        None => {
            errors.push(file.error(
                w.damage.span(),
                Some(format!("{at}.damage")),
                "expected damage dice like `1d8` or `2d4+1`",
            ));
            return None;
        }
    };
    let ranged = !matches!(w.kind, WeaponKind::Melee);
    if ranged && w.range_increment.unwrap_or(0) <= 0 {
        errors.push(file.error(
            w.id.span(),
            Some(format!("{at}.range_increment")),
            "a thrown or propelled weapon needs a range increment in feet",
        ));
        return None;
    }
    Some(Weapon {
        id: w.id.get_ref().clone(),
        damage,
        kind: w.kind,
        range_increment: w.range_increment.unwrap_or(0),
        reach: w.reach.unwrap_or(5),
        crossbow: w.crossbow,
        melee_too: w.melee,
        magic: w.magic,
    })
}

/// The tables of one content file (or of an encounter's own definitions).
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ContentFile {
    #[serde(default)]
    pub(crate) weapon: Vec<WeaponDef>,
    #[serde(default)]
    pub(crate) armor: Vec<ArmorDef>,
    #[serde(default)]
    pub(crate) shield: Vec<ShieldDef>,
    #[serde(default)]
    pub(crate) monster: Vec<MonsterDef>,
    #[serde(default)]
    pub(crate) class: Vec<ClassDef>,
    #[serde(default)]
    pub(crate) attribute_modifiers: Option<Spanned<Vec<[i32; 2]>>>,
    #[serde(default)]
    pub(crate) spell: Vec<MagicDef>,
    #[serde(default)]
    pub(crate) item: Vec<MagicDef>,
    #[serde(default)]
    pub(crate) ability: Vec<MagicDef>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MagicDef {
    id: Spanned<String>,
    effect: EffectKind,
    dice: Spanned<String>,
    target: Aim,
    #[serde(default)]
    range: i32,
    #[serde(default = "one")]
    casting_time: Spanned<u32>,
    #[serde(default)]
    illusion: bool,
    #[serde(default)]
    movement: bool,
}

fn one() -> Spanned<u32> {
    Spanned::new(0..0, 1)
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WeaponDef {
    id: Spanned<String>,
    damage: Spanned<String>,
    kind: WeaponKind,
    range_increment: Option<i32>,
    reach: Option<i32>,
    #[serde(default)]
    crossbow: bool,
    #[serde(default)]
    melee: bool,
    #[serde(default)]
    magic: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArmorDef {
    id: Spanned<String>,
    bonus: Spanned<i32>,
    #[serde(default)]
    magic: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShieldDef {
    id: Spanned<String>,
    size: ShieldSize,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MonsterAttackDef {
    name: Option<String>,
    weapon: Option<Spanned<String>>,
    damage: Option<Spanned<String>>,
    reach: Option<i32>,
    #[serde(default)]
    subdual: bool,
    #[serde(default)]
    touch: bool,
    /// The damage bonus the monster's description gives this attack (CNC-R20.2).
    #[serde(default)]
    damage_bonus: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MonsterDef {
    id: Spanned<String>,
    name: Option<String>,
    hit_dice: Spanned<u16>,
    #[serde(default = "default_hit_die")]
    hit_die: u16,
    hp: Spanned<i32>,
    ac: i32,
    movement: i32,
    #[serde(default = "default_size")]
    size: Size,
    #[serde(default)]
    scores: BTreeMap<String, i32>,
    #[serde(default)]
    primes: Vec<String>,
    attacks: Vec<MonsterAttackDef>,
    ranged: Option<Spanned<String>>,
    #[serde(default)]
    disarm: bool,
    #[serde(default)]
    description: Option<String>,
}

fn default_hit_die() -> u16 {
    8
}

fn default_size() -> Size {
    Size::Medium
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClassDef {
    id: Spanned<String>,
    hit_die: u16,
    bth: Spanned<Vec<i32>>,
    prime: Spanned<String>,
    #[serde(default)]
    disarm: bool,
    #[serde(default)]
    back_attack: bool,
    #[serde(default)]
    monk: bool,
}

/// Lower-case words for a content enum (`Propelled` → `propelled`).
fn word(value: impl std::fmt::Debug) -> String {
    format!("{value:?}").to_lowercase()
}

impl Content {
    /// Every kind of content with its key numbers, for `fray content cnc`.
    pub fn tables(&self) -> Vec<ContentTable> {
        let magic = |kind: &'static str, list: &Catalog<Magic>| {
            ContentTable::of(
                kind,
                &["effect", "dice", "target", "range ft", "casting rounds"],
                list,
                |m: &Magic| {
                    (
                        // Written as choices write it (files may use either spelling).
                        fray_core::catalog::name_key(&m.id),
                        vec![
                            word(m.effect),
                            m.dice.to_string(),
                            word(m.target),
                            m.range.to_string(),
                            m.casting_time.to_string(),
                        ],
                    )
                },
            )
        };
        let mut armour = ContentTable::of(
            "armour",
            &["AC bonus", "magic"],
            &self.armor,
            |a: &Armor| {
                (
                    a.id.clone(),
                    vec![format!("+{}", a.bonus), a.magic.to_string()],
                )
            },
        );
        armour.rows.extend(
            ContentTable::of("armour", &[], &self.shields, |s: &Shield| {
                (
                    s.id.clone(),
                    vec![format!("{} shield", word(s.size)), String::new()],
                )
            })
            .rows,
        );
        vec![
            ContentTable::of(
                "monsters",
                &["name", "HD", "hp", "AC", "move ft", "size", "attacks"],
                &self.monsters,
                |m: &Monster| {
                    let attacks: Vec<String> = m
                        .attacks
                        .iter()
                        .map(|a| format!("{} {}", a.name, a.damage))
                        .collect();
                    (
                        m.id.clone(),
                        vec![
                            m.name.clone(),
                            m.hit_dice.to_string(),
                            m.hp.to_string(),
                            m.ac.to_string(),
                            m.movement.to_string(),
                            word(m.size),
                            attacks.join(", "),
                        ],
                    )
                },
            ),
            ContentTable::of(
                "classes",
                &["hit die", "prime", "BtH at 1st", "abilities"],
                &self.classes,
                |c: &Class| {
                    let abilities: Vec<&str> = [
                        (c.can_disarm, "disarm"),
                        (c.back_attack, "back attack"),
                        (c.monk, "monk"),
                    ]
                    .iter()
                    .filter_map(|(has, name)| has.then_some(*name))
                    .collect();
                    (
                        c.id.clone(),
                        vec![
                            format!("d{}", c.hit_die),
                            ATTRIBUTES[c.prime].to_string(),
                            format!("{:+}", c.bth.first().copied().unwrap_or(0)),
                            abilities.join(", "),
                        ],
                    )
                },
            ),
            ContentTable::of(
                "weapons",
                &["damage", "kind", "range increment ft", "reach ft", "magic"],
                &self.weapons,
                |w: &Weapon| {
                    (
                        w.id.clone(),
                        vec![
                            w.damage.to_string(),
                            word(w.kind),
                            w.range_increment.to_string(),
                            w.reach.to_string(),
                            w.magic.to_string(),
                        ],
                    )
                },
            ),
            armour,
            magic("spells", &self.spells),
            magic("items", &self.items),
            magic("abilities", &self.abilities),
        ]
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
            if let Some(weapon) = read_weapon(file, &format!("weapon[{i}]"), w, errors) {
                self.weapons.insert(
                    "weapon",
                    w.id.get_ref(),
                    weapon,
                    file,
                    w.id.span(),
                    format!("weapon[{i}].id"),
                    errors,
                );
            }
        }
        for (i, a) in parsed.armor.iter().enumerate() {
            if *a.bonus.get_ref() < 0 || *a.bonus.get_ref() > 20 {
                errors.push(file.error(
                    a.bonus.span(),
                    Some(format!("armor[{i}].bonus")),
                    "expected an AC bonus between 0 and 20",
                ));
            }
            self.armor.insert(
                "armour",
                a.id.get_ref(),
                Armor {
                    id: a.id.get_ref().clone(),
                    bonus: *a.bonus.get_ref(),
                    magic: a.magic,
                },
                file,
                a.id.span(),
                format!("armor[{i}].id"),
                errors,
            );
        }
        for (i, s) in parsed.shield.iter().enumerate() {
            self.shields.insert(
                "shield",
                s.id.get_ref(),
                Shield {
                    id: s.id.get_ref().clone(),
                    size: s.size,
                },
                file,
                s.id.span(),
                format!("shield[{i}].id"),
                errors,
            );
        }
        for (i, c) in parsed.class.iter().enumerate() {
            let prime = match attribute_index(c.prime.get_ref()) {
                Some(p) => p,
                None => {
                    errors.push(file.error(
                        c.prime.span(),
                        Some(format!("class[{i}].prime")),
                        "expected one of str, dex, con, int, wis, cha",
                    ));
                    0
                }
            };
            if c.bth.get_ref().is_empty() {
                errors.push(file.error(
                    c.bth.span(),
                    Some(format!("class[{i}].bth")),
                    "expected the BtH for each level, starting at level 1",
                ));
            }
            self.classes.insert(
                "class",
                c.id.get_ref(),
                Class {
                    id: c.id.get_ref().clone(),
                    hit_die: c.hit_die,
                    bth: c.bth.get_ref().clone(),
                    prime,
                    can_disarm: c.disarm,
                    back_attack: c.back_attack,
                    monk: c.monk,
                },
                file,
                c.id.span(),
                format!("class[{i}].id"),
                errors,
            );
        }
        for (magic_kind, list, into) in [
            (MagicKind::Spell, &parsed.spell, &mut self.spells),
            (MagicKind::Item, &parsed.item, &mut self.items),
            (MagicKind::Ability, &parsed.ability, &mut self.abilities),
        ] {
            let kind = magic_kind.key();
            for (i, m) in list.iter().enumerate() {
                let Some(dice) = DamageDice::parse(m.dice.get_ref()) else {
                    errors.push(file.error(
                        m.dice.span(),
                        Some(format!("{kind}[{i}].dice")),
                        "expected dice like `1d8` or `2d4+2`",
                    ));
                    continue;
                };
                let time = *m.casting_time.get_ref();
                if !(1..=10).contains(&time) {
                    errors.push(file.error(
                        m.casting_time.span(),
                        Some(format!("{kind}[{i}].casting_time")),
                        "expected a casting time from 1 to 10 rounds",
                    ));
                }
                let magic = Magic {
                    id: m.id.get_ref().clone(),
                    effect: m.effect,
                    dice,
                    target: m.target,
                    range: m.range.max(0),
                    casting_time: time.clamp(1, 10),
                    illusion: m.illusion,
                    kind: magic_kind,
                    moves: m.movement,
                };
                into.insert(
                    kind,
                    m.id.get_ref(),
                    magic,
                    file,
                    m.id.span(),
                    format!("{kind}[{i}].id"),
                    errors,
                );
            }
        }
        if let Some(table) = &parsed.attribute_modifiers {
            let rows = table.get_ref();
            let sorted = rows.windows(2).all(|w| w[0][0] < w[1][0]);
            if rows.is_empty() || !sorted {
                errors.push(file.error(
                    table.span(),
                    Some("attribute_modifiers".to_string()),
                    "expected [[lowest score, modifier], …] in ascending score order",
                ));
            }
            self.attribute_modifiers = rows.iter().map(|r| (r[0], r[1])).collect();
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
                self.monsters.insert(
                    "monster",
                    m.id.get_ref(),
                    monster,
                    file,
                    m.id.span(),
                    format!("monster[{i}].id"),
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
        self.classes.seal();
        self.spells.seal();
        self.items.seal();
        self.abilities.seal();
    }

    fn defines_nothing(parsed: &ContentFile) -> bool {
        parsed.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_ids_name_both_places() {
        let text = "[[armor]]\nid = \"hide\"\nbonus = 3\n\n[[armor]]\nid = \"hide\"\nbonus = 4\n\n\
                    [[class]]\nid = \"monk\"\nhit_die = 8\nbth = [0]\nprime = \"dex\"\n\n\
                    [[class]]\nid = \"monk\"\nhit_die = 8\nbth = [0]\nprime = \"dex\"\n";
        let err = Content::load(&[("a.toml", text)]).unwrap_err();
        let messages: Vec<String> = err.0.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            vec![
                "a.toml:6:6: field `armor[1].id`: duplicate armour `hide`: already defined at a.toml:2",
                "a.toml:16:6: field `class[1].id`: duplicate class `monk`: already defined at a.toml:10",
            ]
        );
    }

    #[test]
    fn embedded_content_loads() {
        let content = Content::embedded().unwrap_or_else(|e| panic!("{e}"));
        assert!(content.monsters.len() >= 12);
        assert!(content.weapons.get("long sword").is_some());
        assert_eq!(content.armor.get("chain mail").map(|a| a.bonus), Some(5));
    }

    #[test]
    fn bad_content_is_located() {
        let text = "[[weapon]]\nid = \"club\"\ndamage = \"1x6\"\nkind = \"melee\"\n";
        let err = Content::load(&[("w.toml", text)]).unwrap_err();
        assert_eq!(err.0.len(), 1);
        assert_eq!(err.0[0].line, 3);
        assert_eq!(err.0[0].field.as_deref(), Some("weapon[0].damage"));
    }
}
