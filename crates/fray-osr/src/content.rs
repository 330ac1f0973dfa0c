//! "17 Combat" content as data: weapons, armour, shields, monsters, classes and spells, read from
//! `content/osr/*.toml` (embedded at build time). The chapter gives none of these numbers
//! (OSR-A55); they are B/X's, and an encounter may define its own.

use fray_core::catalog::{ContentSet, ContentTable};
use fray_core::span::{FileError, FileErrors, SourceFile};
use fray_core::{Catalog, DamageDice};
use serde::Deserialize;
use toml::Spanned;

/// The embedded content files, `(path, text)`.
pub const CONTENT_FILES: [(&str, &str); 5] = [
    (
        "content/osr/weapons.toml",
        include_str!("../../../content/osr/weapons.toml"),
    ),
    (
        "content/osr/armor.toml",
        include_str!("../../../content/osr/armor.toml"),
    ),
    (
        "content/osr/monsters.toml",
        include_str!("../../../content/osr/monsters.toml"),
    ),
    (
        "content/osr/classes.toml",
        include_str!("../../../content/osr/classes.toml"),
    ),
    (
        "content/osr/spells.toml",
        include_str!("../../../content/osr/spells.toml"),
    ),
];

/// Creature size, for the grapple check (OSR-R32.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Size {
    /// Small: −4.
    Small,
    /// Medium: +0.
    #[default]
    Medium,
    /// Large: +4.
    Large,
}

impl Size {
    /// Every size.
    pub const ALL: [Size; 3] = [Size::Small, Size::Medium, Size::Large];
    /// Name in files.
    pub fn key(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
        }
    }
    /// Parses a name.
    pub fn from_key(key: &str) -> Option<Size> {
        Size::ALL.into_iter().find(|s| s.key() == key)
    }
}

/// Kind of armour worn, for brawling (OSR-R31.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ArmorKind {
    /// No armour.
    #[default]
    None,
    /// Leather.
    Leather,
    /// Metal armour.
    Metal,
}

impl ArmorKind {
    /// Every kind.
    pub const ALL: [ArmorKind; 3] = [ArmorKind::None, ArmorKind::Leather, ArmorKind::Metal];
    /// Name in files.
    pub fn key(self) -> &'static str {
        match self {
            ArmorKind::None => "none",
            ArmorKind::Leather => "leather",
            ArmorKind::Metal => "metal",
        }
    }
}

/// A weapon (or a monster's natural attack form).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Weapon {
    /// Name (`long sword`, `claw`).
    pub name: String,
    /// Damage dice (the flat part holds magic and a monster's damage bonus, not Strength).
    pub damage: DamageDice,
    /// Usable in melee.
    pub melee: bool,
    /// Short, medium and long range in feet, for a missile or thrown weapon (OSR-R21).
    pub range: Option<[i32; 3]>,
    /// Long reach: may intercept a closing foe (OSR-R12).
    pub long_reach: bool,
    /// Suitable for a charge (OSR-R14.2).
    pub charge: bool,
    /// May be set against a charge (OSR-R15.1).
    pub set: bool,
    /// Small enough to be the secondary of two weapons (OSR-R29.1).
    pub small: bool,
    /// Rounds of reloading after a shot (OSR-R23).
    pub reload: u8,
    /// A missile that adds the Strength bonus to damage (thrown weapons, slings, OSR-R7.2).
    pub strength_damage: bool,
    /// May strike with the flat for non-lethal damage (OSR-R30.1).
    pub subdual: bool,
    /// A natural attack (claw, bite): never disarmed, never dropped.
    pub natural: bool,
}

impl Weapon {
    /// Thrown (a melee weapon with a range): its missile damage adds Strength.
    pub fn thrown(&self) -> bool {
        self.melee && self.range.is_some()
    }
}

/// Armour.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Armor {
    /// Name.
    pub name: String,
    /// Ascending AC it gives.
    pub ac: i32,
    /// Kind.
    pub kind: ArmorKind,
}

/// A shield.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Shield {
    /// Name.
    pub name: String,
    /// AC it adds.
    pub ac: i32,
}

/// A class and its tables by level (1 to 10).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Class {
    /// Name.
    pub name: String,
    /// Hit die.
    pub hit_die: i32,
    /// Attack bonus by level.
    pub attack_bonus: [i32; 10],
    /// Save vs death ray by level.
    pub save_death: [i32; 10],
    /// Save vs spells by level.
    pub save_spells: [i32; 10],
    /// Elves are surprised on 15 (OSR-R2.2).
    pub elf: bool,
}

/// What a spell does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpellEffect {
    /// Damage to the target, no attack roll.
    Damage(DamageDice),
    /// Healing of the target.
    Heal(DamageDice),
}

/// A spell.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Spell {
    /// Name.
    pub name: String,
    /// Effect.
    pub effect: SpellEffect,
    /// Range in feet.
    pub range: i32,
}

/// A monster.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Monster {
    /// Key.
    pub key: String,
    /// Display name.
    pub name: String,
    /// Hit dice as written.
    pub hit_dice: String,
    /// Hit points.
    pub hp: i32,
    /// Ascending AC.
    pub ac: i32,
    /// Attack bonus.
    pub attack_bonus: i32,
    /// Encounter movement, feet per round.
    pub movement: i32,
    /// Size.
    pub size: Size,
    /// Save vs death ray.
    pub save_death: i32,
    /// Save vs spells.
    pub save_spells: i32,
    /// Dexterity bonus (0 unless the stat block gives one, OSR-A29).
    pub dex_mod: i32,
    /// Its attack routine (one weapon, or natural forms).
    pub attacks: Vec<Weapon>,
    /// A missile weapon.
    pub missile: Option<Weapon>,
    /// Undead (holy water).
    pub undead: bool,
    /// Fire-resistant (burning oil, OSR-R25.6).
    pub fire_resistant: bool,
    /// Allowed to charge with its natural attacks (OSR-A13, OSR-G2).
    pub charges: bool,
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
    /// Spells.
    pub spells: Catalog<Spell>,
    /// Monsters.
    pub monsters: Catalog<Monster>,
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
    pub(crate) spell: Vec<SpellFile>,
    #[serde(default)]
    pub(crate) monster: Vec<MonsterFile>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WeaponFile {
    name: Spanned<String>,
    damage: Spanned<String>,
    melee: Option<bool>,
    range: Option<Spanned<[i32; 3]>>,
    long_reach: Option<bool>,
    charge: Option<bool>,
    set: Option<bool>,
    small: Option<bool>,
    reload: Option<Spanned<u8>>,
    rate: Option<Spanned<String>>,
    strength_damage: Option<bool>,
    subdual: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArmorFile {
    name: Spanned<String>,
    ac: Spanned<i32>,
    kind: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShieldFile {
    name: Spanned<String>,
    ac: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClassFile {
    name: Spanned<String>,
    hit_die: i32,
    attack_bonus: [i32; 10],
    save_death: [i32; 10],
    save_spells: [i32; 10],
    elf: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpellFile {
    name: Spanned<String>,
    effect: Spanned<String>,
    dice: Spanned<String>,
    range: Option<i32>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NaturalFile {
    name: String,
    damage: Spanned<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MonsterFile {
    key: Spanned<String>,
    name: Option<String>,
    hit_dice: Option<String>,
    hp: Spanned<i32>,
    ac: i32,
    attack_bonus: i32,
    #[serde(rename = "move")]
    movement: Option<i32>,
    size: Option<Spanned<String>>,
    save_death: Option<i32>,
    save_spells: Option<i32>,
    dex_mod: Option<i32>,
    damage_bonus: Option<i32>,
    weapon: Option<Spanned<String>>,
    #[serde(default)]
    attacks: Vec<NaturalFile>,
    missile: Option<Spanned<String>>,
    undead: Option<bool>,
    fire_resistant: Option<bool>,
    charges: Option<bool>,
}

fn damage(
    file: &SourceFile<'_>,
    at: &str,
    text: &Spanned<String>,
    errors: &mut Vec<FileError>,
) -> Option<DamageDice> {
    let d = DamageDice::parse_dice(text.get_ref());
    if d.is_none() {
        errors.push(file.error(
            text.span(),
            Some(format!("{at}.damage")),
            "expected damage dice like `1d8` or `2d4+1`",
        ));
    }
    d
}

/// A natural attack form.
pub fn natural(name: &str, damage: DamageDice) -> Weapon {
    Weapon {
        name: name.to_string(),
        damage,
        melee: true,
        range: None,
        long_reach: false,
        charge: false,
        set: false,
        small: false,
        reload: 0,
        strength_damage: false,
        subdual: true,
        natural: true,
    }
}

impl Content {
    /// Loads the content embedded from `content/osr/`.
    pub fn embedded() -> Result<Content, FileErrors> {
        Content::load(&CONTENT_FILES)
    }

    /// A weapon, with an error at `span` if unknown.
    pub(crate) fn weapon_at(
        &self,
        file: &SourceFile<'_>,
        field: String,
        name: &Spanned<String>,
        errors: &mut Vec<FileError>,
    ) -> Option<Weapon> {
        let w = self.weapons.get(name.get_ref()).cloned();
        if w.is_none() {
            errors.push(
                file.error(
                    name.span(),
                    Some(field),
                    self.weapons
                        .unknown("weapon", name.get_ref(), "fray content osr weapons"),
                ),
            );
        }
        w
    }

    /// The content as `fray content` lists it.
    pub fn tables(&self) -> Vec<ContentTable> {
        vec![
            ContentTable::of(
                "weapons",
                &["damage", "range", "notes"],
                &self.weapons,
                |w| {
                    let mut notes = Vec::new();
                    for (has, n) in [
                        (w.long_reach, "long reach"),
                        (w.charge, "charge"),
                        (w.set, "set"),
                        (w.small, "small"),
                        (!w.subdual, "no subdual"),
                    ] {
                        if has {
                            notes.push(n.to_string());
                        }
                    }
                    if w.reload > 0 {
                        notes.push(format!("reload {}", w.reload));
                    }
                    (
                        w.name.clone(),
                        vec![
                            w.damage.text(),
                            w.range
                                .map_or("-".into(), |r| format!("{}/{}/{}", r[0], r[1], r[2])),
                            notes.join(", "),
                        ],
                    )
                },
            ),
            ContentTable::of("armour", &["AC", "kind"], &self.armor, |a| {
                (a.name.clone(), vec![a.ac.to_string(), a.kind.key().into()])
            }),
            ContentTable::of("shields", &["AC"], &self.shields, |s| {
                (s.name.clone(), vec![format!("+{}", s.ac)])
            }),
            ContentTable::of(
                "classes",
                &["hit die", "attack bonus 1-10"],
                &self.classes,
                |c| {
                    (
                        c.name.clone(),
                        vec![
                            format!("d{}", c.hit_die),
                            c.attack_bonus
                                .iter()
                                .map(|b| format!("+{b}"))
                                .collect::<Vec<_>>()
                                .join(" "),
                        ],
                    )
                },
            ),
            ContentTable::of("spells", &["effect", "range"], &self.spells, |s| {
                let effect = match s.effect {
                    SpellEffect::Damage(d) => format!("damage {d}"),
                    SpellEffect::Heal(d) => format!("heal {d}"),
                };
                (s.name.clone(), vec![effect, s.range.to_string()])
            }),
            ContentTable::of(
                "monsters",
                &["HD", "hp", "AC", "AB", "move", "attacks"],
                &self.monsters,
                |m| {
                    (
                        m.key.clone(),
                        vec![
                            m.hit_dice.clone(),
                            m.hp.to_string(),
                            m.ac.to_string(),
                            format!("+{}", m.attack_bonus),
                            m.movement.to_string(),
                            m.attacks
                                .iter()
                                .map(|a| format!("{} {}", a.name, a.damage))
                                .collect::<Vec<_>>()
                                .join(", "),
                        ],
                    )
                },
            ),
        ]
    }
}

impl ContentSet for Content {
    type File = ContentFile;

    fn read_items(&mut self, file: &SourceFile<'_>, p: &ContentFile, errors: &mut Vec<FileError>) {
        for (i, w) in p.weapon.iter().enumerate() {
            let at = format!("weapon[{i}]");
            let Some(dice) = damage(file, &at, &w.damage, errors) else {
                continue;
            };
            let range = w.range.as_ref().map(|r| *r.get_ref());
            if let (Some(r), Some(s)) = (range, &w.range) {
                if !(r[0] > 0 && r[0] <= r[1] && r[1] <= r[2] && r[2] <= 5000) {
                    errors.push(file.error(
                        s.span(),
                        Some(format!("{at}.range")),
                        "expected [short, medium, long] in feet, each at least the one before",
                    ));
                    continue;
                }
            }
            let melee = w.melee.unwrap_or(true);
            if !melee && range.is_none() {
                errors.push(file.error(
                    w.name.span(),
                    Some(format!("{at}.range")),
                    "a weapon that is not for melee needs `range`",
                ));
                continue;
            }
            let reload = match (&w.rate, &w.reload) {
                (Some(rate), Some(_)) => {
                    errors.push(file.error(
                        rate.span(),
                        Some(format!("{at}.rate")),
                        "give `rate` or `reload`, not both",
                    ));
                    continue;
                }
                (Some(rate), None) => match reload_of_rate(rate.get_ref()) {
                    Some(r) => r,
                    None => {
                        errors.push(file.error(
                            rate.span(),
                            Some(format!("{at}.rate")),
                            "expected a rate of fire \"1/N\" with N from 1 to 11 (\"1/6\": once \
                             every 6 rounds, OSR-R23.4)",
                        ));
                        continue;
                    }
                },
                (None, reload) => reload.as_ref().map_or(0, |r| *r.get_ref()).min(10),
            };
            let weapon = Weapon {
                name: w.name.get_ref().clone(),
                damage: dice,
                melee,
                range,
                long_reach: w.long_reach.unwrap_or(false),
                charge: w.charge.unwrap_or(false),
                set: w.set.unwrap_or(false),
                small: w.small.unwrap_or(false),
                reload,
                strength_damage: w.strength_damage.unwrap_or(melee && range.is_some()),
                subdual: w.subdual.unwrap_or(true),
                natural: false,
            };
            self.weapons.insert(
                "weapon",
                w.name.get_ref(),
                weapon,
                file,
                w.name.span(),
                format!("{at}.name"),
                errors,
            );
        }
        for (i, a) in p.armor.iter().enumerate() {
            let at = format!("armor[{i}]");
            let kind = match &a.kind {
                None => ArmorKind::None,
                Some(k) => match ArmorKind::ALL.into_iter().find(|x| x.key() == k.get_ref()) {
                    Some(k) => k,
                    None => {
                        errors.push(file.error(
                            k.span(),
                            Some(format!("{at}.kind")),
                            "unknown armour kind; expected one of none, leather, metal",
                        ));
                        continue;
                    }
                },
            };
            if !(0..=40).contains(a.ac.get_ref()) {
                errors.push(file.error(
                    a.ac.span(),
                    Some(format!("{at}.ac")),
                    "expected an AC from 0 to 40",
                ));
                continue;
            }
            let armor = Armor {
                name: a.name.get_ref().clone(),
                ac: *a.ac.get_ref(),
                kind,
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
        for (i, s) in p.shield.iter().enumerate() {
            let shield = Shield {
                name: s.name.get_ref().clone(),
                ac: s.ac,
            };
            self.shields.insert(
                "shield",
                s.name.get_ref(),
                shield,
                file,
                s.name.span(),
                format!("shield[{i}].name"),
                errors,
            );
        }
        for (i, c) in p.class.iter().enumerate() {
            let class = Class {
                name: c.name.get_ref().clone(),
                hit_die: c.hit_die,
                attack_bonus: c.attack_bonus,
                save_death: c.save_death,
                save_spells: c.save_spells,
                elf: c.elf.unwrap_or(false),
            };
            self.classes.insert(
                "class",
                c.name.get_ref(),
                class,
                file,
                c.name.span(),
                format!("class[{i}].name"),
                errors,
            );
        }
        for (i, s) in p.spell.iter().enumerate() {
            let at = format!("spell[{i}]");
            let Some(dice) = DamageDice::parse(s.dice.get_ref()) else {
                errors.push(file.error(
                    s.dice.span(),
                    Some(format!("{at}.dice")),
                    "expected dice like `1d6+1`",
                ));
                continue;
            };
            let effect = match s.effect.get_ref().as_str() {
                "damage" => SpellEffect::Damage(dice),
                "heal" => SpellEffect::Heal(dice),
                other => {
                    errors.push(file.error(
                        s.effect.span(),
                        Some(format!("{at}.effect")),
                        format!("unknown effect `{other}`; expected damage or heal"),
                    ));
                    continue;
                }
            };
            let spell = Spell {
                name: s.name.get_ref().clone(),
                effect,
                range: s.range.unwrap_or(5).clamp(5, 5000),
            };
            self.spells.insert(
                "spell",
                s.name.get_ref(),
                spell,
                file,
                s.name.span(),
                format!("{at}.name"),
                errors,
            );
        }
    }

    fn read_dependents(
        &mut self,
        file: &SourceFile<'_>,
        p: &ContentFile,
        errors: &mut Vec<FileError>,
    ) {
        for (i, m) in p.monster.iter().enumerate() {
            let at = format!("monster[{i}]");
            let before = errors.len();
            let bonus = m.damage_bonus.unwrap_or(0);
            let mut attacks = Vec::new();
            if let Some(w) = &m.weapon {
                if let Some(mut w) = self.weapon_at(file, format!("{at}.weapon"), w, errors) {
                    w.damage.bonus += bonus;
                    attacks.push(w);
                }
            }
            for (j, n) in m.attacks.iter().enumerate() {
                if let Some(d) = damage(file, &format!("{at}.attacks[{j}]"), &n.damage, errors) {
                    let mut w = natural(&n.name, d);
                    w.damage.bonus += bonus;
                    attacks.push(w);
                }
            }
            if m.weapon.is_none() && m.attacks.is_empty() {
                errors.push(file.error(
                    m.key.span(),
                    Some(format!("{at}.attacks")),
                    "a monster needs `weapon` or `attacks`",
                ));
            }
            let missile = m
                .missile
                .as_ref()
                .and_then(|w| self.weapon_at(file, format!("{at}.missile"), w, errors));
            let size = match &m.size {
                None => Size::Medium,
                Some(s) => Size::from_key(s.get_ref()).unwrap_or_else(|| {
                    errors.push(file.error(
                        s.span(),
                        Some(format!("{at}.size")),
                        "unknown size; expected one of small, medium, large",
                    ));
                    Size::Medium
                }),
            };
            if !(1..=10_000).contains(m.hp.get_ref()) {
                errors.push(file.error(
                    m.hp.span(),
                    Some(format!("{at}.hp")),
                    "expected hit points from 1 to 10000",
                ));
            }
            if errors.len() > before {
                continue;
            }
            let monster = Monster {
                key: m.key.get_ref().clone(),
                name: m.name.clone().unwrap_or_else(|| m.key.get_ref().clone()),
                hit_dice: m.hit_dice.clone().unwrap_or_else(|| "1".into()),
                hp: *m.hp.get_ref(),
                ac: m.ac,
                attack_bonus: m.attack_bonus,
                movement: m.movement.unwrap_or(40).clamp(0, 1000),
                size,
                save_death: m.save_death.unwrap_or(14),
                save_spells: m.save_spells.unwrap_or(17),
                dex_mod: m.dex_mod.unwrap_or(0),
                attacks,
                missile,
                undead: m.undead.unwrap_or(false),
                fire_resistant: m.fire_resistant.unwrap_or(false),
                charges: m.charges.unwrap_or(false),
            };
            self.monsters.insert(
                "monster",
                m.key.get_ref(),
                monster,
                file,
                m.key.span(),
                format!("{at}.key"),
                errors,
            );
        }
    }

    fn seal(&mut self) {
        self.weapons.seal();
        self.armor.seal();
        self.shields.seal();
        self.classes.seal();
        self.spells.seal();
        self.monsters.seal();
    }

    fn defines_nothing(p: &ContentFile) -> bool {
        p.weapon.is_empty()
            && p.armor.is_empty()
            && p.shield.is_empty()
            && p.class.is_empty()
            && p.spell.is_empty()
            && p.monster.is_empty()
    }
}

/// OSR-R23.4: a rate of fire written as a fraction, "1/N" (once every N rounds), as the rounds
/// spent reloading after a shot (N − 1).
fn reload_of_rate(rate: &str) -> Option<u8> {
    let (one, n) = rate.trim().split_once('/')?;
    let n: u8 = n.trim().parse().ok()?;
    (one.trim() == "1" && (1..=11).contains(&n)).then(|| n - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_content_loads_with_the_fifteen_monsters() {
        let c = Content::embedded().expect("content");
        for m in [
            "goblin",
            "kobold",
            "orc",
            "hobgoblin",
            "gnoll",
            "bugbear",
            "skeleton",
            "zombie",
            "ghoul",
            "giant rat",
            "wolf",
            "ogre",
            "troll",
            "owlbear",
            "red dragon",
        ] {
            assert!(c.monsters.get(m).is_some(), "{m}");
        }
        assert_eq!(
            c.classes.get("fighter").expect("fighter").attack_bonus[3],
            2
        );
        assert!(c.weapons.get("spear").expect("spear").long_reach);
    }

    /// OSR-R23.4: "1/6" means once every six rounds (five of reloading); nonsense is refused.
    #[test]
    fn rates_of_fire() {
        assert_eq!(super::reload_of_rate("1/6"), Some(5));
        assert_eq!(super::reload_of_rate(" 1 / 2 "), Some(1));
        assert_eq!(super::reload_of_rate("1/1"), Some(0));
        for bad in ["2/6", "1/0", "1/12", "6", "1/x", ""] {
            assert_eq!(super::reload_of_rate(bad), None, "{bad}");
        }
    }
}
