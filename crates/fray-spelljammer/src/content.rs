//! Spelljammer content as data: weapons (SC and damage), armour (DEF and PROT), shields, monsters
//! and spells, read from `content/spelljammer/*.toml` (embedded at build time).
//!
//! The types here are what the rules read; [`Content::embedded`] loads and validates the files.

use fray_core::span::FileErrors;

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
        [Size::Tiny, Size::Small, Size::Medium, Size::Large, Size::Giant]
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

/// Damage dice: `count`d`sides` + `bonus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Damage {
    /// Number of dice.
    pub count: u16,
    /// Sides per die.
    pub sides: u16,
    /// Flat bonus.
    pub bonus: i32,
}

impl Damage {
    /// `1d8+4`-style text.
    pub fn text(&self) -> String {
        match self.bonus {
            0 => format!("{}d{}", self.count, self.sides),
            b if b > 0 => format!("{}d{}+{b}", self.count, self.sides),
            b => format!("{}d{}{b}", self.count, self.sides),
        }
    }
}

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
    pub weapons: Vec<Weapon>,
    /// Armour.
    pub armor: Vec<Armor>,
    /// Shields.
    pub shields: Vec<Shield>,
    /// Monsters.
    pub monsters: Vec<MonsterDef>,
    /// Spells.
    pub spells: Vec<SpellDef>,
}

impl Content {
    /// Loads the content embedded from `content/spelljammer/`.
    pub fn embedded() -> Result<Content, FileErrors> {
        Ok(Content::default())
    }

    /// A weapon by name.
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.name == name)
    }
    /// Armour by name.
    pub fn armor(&self, name: &str) -> Option<&Armor> {
        self.armor.iter().find(|a| a.name == name)
    }
    /// A shield by name.
    pub fn shield(&self, name: &str) -> Option<&Shield> {
        self.shields.iter().find(|s| s.name == name)
    }
    /// A monster by key.
    pub fn monster(&self, key: &str) -> Option<&MonsterDef> {
        self.monsters.iter().find(|m| m.key == key)
    }
    /// A spell by name.
    pub fn spell(&self, name: &str) -> Option<&SpellDef> {
        self.spells.iter().find(|s| s.name == name)
    }
}
