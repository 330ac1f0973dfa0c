//! OD&D content as data: weapons, armour, shields, classes, monsters, spells and the DM's tables
//! (attack matrix, saves, ability bonuses, morale, reaction and fumble labels), read from
//! `content/odd/*.toml` (embedded at build time). An encounter may add or replace any of them.

use fray_core::catalog::{ContentSet, ContentTable};
use fray_core::damage::DamageDice;
use fray_core::span::{FileError, SourceFile};
use fray_core::Catalog;
use serde::Deserialize;
use toml::Spanned;

/// The embedded content files, `(path, text)`.
pub const CONTENT_FILES: [(&str, &str); 6] = [
    (
        "content/odd/weapons.toml",
        include_str!("../../../content/odd/weapons.toml"),
    ),
    (
        "content/odd/armor.toml",
        include_str!("../../../content/odd/armor.toml"),
    ),
    (
        "content/odd/classes.toml",
        include_str!("../../../content/odd/classes.toml"),
    ),
    (
        "content/odd/monsters.toml",
        include_str!("../../../content/odd/monsters.toml"),
    ),
    (
        "content/odd/spells.toml",
        include_str!("../../../content/odd/spells.toml"),
    ),
    (
        "content/odd/tables.toml",
        include_str!("../../../content/odd/tables.toml"),
    ),
];

/// What a weapon is for. [Seed: COMBAT › Ranged Attack / Ranged Damage]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponKind {
    /// A melee weapon.
    Melee,
    /// A bow (DEX to hit and damage, ODD-R8).
    Bow,
    /// A great bow (STR instead of DEX, ODD-R8).
    GreatBow,
    /// A crossbow (fires every other round, ODD-R8.3).
    Crossbow,
    /// A melee weapon that can also be thrown.
    Thrown,
    /// A sling.
    Sling,
    /// A firearm (ODD-R8.4).
    Firearm,
}

/// Every weapon kind with its key.
pub const WEAPON_KINDS: [(&str, WeaponKind); 7] = [
    ("melee", WeaponKind::Melee),
    ("bow", WeaponKind::Bow),
    ("great-bow", WeaponKind::GreatBow),
    ("crossbow", WeaponKind::Crossbow),
    ("thrown", WeaponKind::Thrown),
    ("sling", WeaponKind::Sling),
    ("firearm", WeaponKind::Firearm),
];

impl WeaponKind {
    /// Its key in files.
    pub fn key(self) -> &'static str {
        WEAPON_KINDS
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("melee", |(n, _)| n)
    }
    /// Can be used in melee.
    pub fn melee(self) -> bool {
        matches!(self, WeaponKind::Melee | WeaponKind::Thrown)
    }
    /// Can be shot or thrown.
    pub fn missile(self) -> bool {
        self != WeaponKind::Melee
    }
}

/// A weapon.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Weapon {
    /// Its name.
    pub name: String,
    /// Damage dice.
    pub damage: DamageDice,
    /// What it is for.
    pub kind: WeaponKind,
    /// One- or two-handed.
    pub hands: u8,
    /// Untrained damage die by size (D3, D4, D6; ODD-R15).
    pub size: &'static str,
    /// Reach class (ODD-R20).
    pub reach: i32,
    /// Short, medium and long range limits in inches (missiles).
    pub range: [i32; 3],
    /// Tags (spear, pike, polearm, lance, whip, blunt, axe, improvised).
    pub tags: Vec<String>,
}

impl Weapon {
    /// Has this tag.
    pub fn has(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }
}

/// Armour (descending AC).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Armor {
    /// Its name.
    pub name: String,
    /// AC worn.
    pub ac: i32,
    /// Light armour (swashbucklers, ODD-R7).
    pub light: bool,
}

/// A shield.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Shield {
    /// Its name.
    pub name: String,
    /// AC points it improves.
    pub bonus: i32,
}

/// Class group for the bonuses of ODD-R7/R8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClassGroup {
    /// Fighter-types (fighters, rangers, barbarians, dwarves, hobbits, paladins, pirates).
    Fighter,
    /// Thieves.
    Thief,
    /// Clerics.
    Cleric,
    /// Magic-users.
    MagicUser,
    /// Normal men.
    Normal,
    /// Monsters (not a class: their own matrix, ODD-A1).
    Monster,
}

/// The class groups a file may name.
pub const CLASS_GROUPS: [(&str, ClassGroup); 5] = [
    ("fighter", ClassGroup::Fighter),
    ("thief", ClassGroup::Thief),
    ("cleric", ClassGroup::Cleric),
    ("magic-user", ClassGroup::MagicUser),
    ("normal", ClassGroup::Normal),
];

/// A class.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Class {
    /// Its name.
    pub name: String,
    /// Its bonus group.
    pub group: ClassGroup,
    /// May fight as a swashbuckler (ODD-R7).
    pub swashbuckler: bool,
    /// Missile kinds it fires on the run (ODD-R16.3, R16.4).
    pub fire_on_run: Vec<WeaponKind>,
    /// Attack matrix rows: (from level, need against AC 9).
    pub attack: Vec<(i32, i32)>,
    /// Save vs Paralysis rows: (from level, target).
    pub paralysis: Vec<(i32, i32)>,
}

/// One natural attack or weapon of a monster.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MonsterAttack {
    /// The attack's name.
    pub name: String,
    /// Its weapon, if it uses one.
    pub weapon: Option<Weapon>,
    /// Damage dice.
    pub damage: DamageDice,
    /// Large horns or tusks: the attack a charge strikes with (ODD-R26.10).
    pub horns: bool,
}

/// What a monster's special attack does (ODD-R12.4; the DM's, ODD-G6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpecialEffect {
    /// Only its label (the DM adjudicates).
    Label,
    /// Knocks the foe to the ground: its next action is spent getting up (a dire wolf).
    Knockdown,
    /// Extra damage dice (an owlbear's crushing hug).
    Damage(DamageDice),
    /// Swallows the foe whole (a sea dragon): inside, it fights only with a dagger (ODD-R13).
    Swallow,
}

/// A monster's special attack: on a natural roll of `on` or more after a hit (ODD-R12.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Special {
    /// The natural roll that triggers it.
    pub on: i32,
    /// Its label.
    pub label: String,
    /// What it does.
    pub effect: SpecialEffect,
}

/// A monster.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Monster {
    /// Its name.
    pub name: String,
    /// Hit dice.
    pub hd: i32,
    /// The "+" of its hit dice.
    pub plus: i32,
    /// AC (descending).
    pub ac: i32,
    /// Movement in inches per Turn.
    pub move_in: i32,
    /// Its attack routine.
    pub attacks: Vec<MonsterAttack>,
    /// Its missile weapon.
    pub ranged: Option<Weapon>,
    /// Morale score (ODD-A27), if not the default.
    pub morale: Option<i32>,
    /// Counts as a Normal Man (ODD-R10), if tagged.
    pub normal_man: Option<bool>,
    /// Size (small, man, large, or huge: bigger than an ogre, ODD-R14.1).
    pub size: &'static str,
    /// Intelligent.
    pub intelligent: bool,
    /// Only magic or silver weapons hit it.
    pub needs_magic: bool,
    /// A special attack on a high natural roll (ODD-R12.4).
    pub special: Option<Special>,
    /// Weapon tags that work best against it (ODD-R13: blunt weapons against skeletons).
    pub weak_to: Vec<String>,
}

/// A spell as effect data.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Spell {
    /// Its name.
    pub name: String,
    /// Spell level.
    pub level: i32,
    /// Range in inches (0: touch).
    pub range: i32,
    /// Damage to a foe (always hits).
    pub damage: Option<DamageDice>,
    /// Healing of an ally.
    pub heal: Option<DamageDice>,
}

/// A row of a 2d6 or d20 table with a label.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Band {
    /// The highest roll of the row.
    pub upto: i32,
    /// What the log says.
    pub label: String,
    /// The result kind (reaction: hostile, uncertain, friendly).
    pub result: Reaction,
}

/// What a reaction means for the fight (ODD-R3.2, ODD-A28).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reaction {
    /// They attack.
    Hostile,
    /// They observe; the DM decides.
    Uncertain,
    /// They talk or leave.
    Friendly,
}

/// Reaction results by key.
pub const REACTIONS: [(&str, Reaction); 3] = [
    ("hostile", Reaction::Hostile),
    ("uncertain", Reaction::Uncertain),
    ("friendly", Reaction::Friendly),
];

/// The DM's tables (ODD-G2, G3, G4).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Tables {
    /// Monster attack matrix rows: (from HD in tenths, need against AC 9).
    pub monster_attack: Vec<(i32, i32)>,
    /// Monster Save vs Paralysis rows: (from HD, target).
    pub monster_paralysis: Vec<(i32, i32)>,
    /// Ability bonus rows: (from score, bonus).
    pub ability_bonus: Vec<(i32, i32)>,
    /// Default morale score.
    pub morale: i32,
    /// Pursue on 2d6 at or under this.
    pub pursue_upto: i32,
    /// The reaction table.
    pub reaction: Vec<Band>,
    /// The critical-fumble table.
    pub fumble: Vec<Band>,
}

/// The value of the last row whose start is at most `at` (rows sorted by start); the first
/// row's value below them all.
pub fn row_value(rows: &[(i32, i32)], at: i32) -> i32 {
    let mut value = rows.first().map_or(0, |r| r.1);
    for &(from, v) in rows {
        if at >= from {
            value = v;
        }
    }
    value
}

impl Tables {
    /// The bonus of an ability score.
    pub fn bonus(&self, score: i32) -> i32 {
        row_value(&self.ability_bonus, score)
    }
    /// The row of a roll in a labelled table.
    pub fn band(rows: &[Band], roll: i32) -> Option<&Band> {
        rows.iter().find(|b| roll <= b.upto).or(rows.last())
    }
}

/// Every catalogue.
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
    /// Monsters.
    pub monsters: Catalog<Monster>,
    /// Spells.
    pub spells: Catalog<Spell>,
    /// The DM's tables.
    pub tables: Tables,
}

/// The tables a content file (or an encounter's own definitions) may hold.
#[derive(Debug, Clone, Default, Deserialize)]
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
    pub(crate) spell: Vec<SpellFile>,
    pub(crate) monster_attack: Option<Spanned<Vec<[i64; 2]>>>,
    pub(crate) monster_paralysis: Option<Spanned<Vec<[i64; 2]>>>,
    pub(crate) ability_bonus: Option<Spanned<Vec<[i64; 2]>>>,
    pub(crate) morale: Option<Spanned<i64>>,
    pub(crate) pursue_upto: Option<Spanned<i64>>,
    #[serde(default)]
    pub(crate) reaction: Vec<BandFile>,
    #[serde(default)]
    pub(crate) fumble: Vec<BandFile>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WeaponFile {
    name: Spanned<String>,
    damage: Spanned<String>,
    kind: Option<Spanned<String>>,
    hands: Option<Spanned<i64>>,
    size: Option<Spanned<String>>,
    reach: Option<Spanned<i64>>,
    range: Option<Spanned<Vec<i64>>>,
    #[serde(default)]
    tags: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArmorFile {
    name: Spanned<String>,
    ac: Spanned<i64>,
    #[serde(default)]
    light: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShieldFile {
    name: Spanned<String>,
    bonus: Spanned<i64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClassFile {
    name: Spanned<String>,
    group: Spanned<String>,
    #[serde(default)]
    swashbuckler: bool,
    #[serde(default)]
    fire_on_run: Vec<Spanned<String>>,
    attack: Spanned<Vec<[i64; 2]>>,
    paralysis: Spanned<Vec<[i64; 2]>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AttackFile {
    name: Option<String>,
    weapon: Option<Spanned<String>>,
    damage: Option<Spanned<String>>,
    #[serde(default)]
    horns: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpecialFile {
    on: Spanned<i64>,
    effect: String,
    kind: Option<Spanned<String>>,
    damage: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MonsterFile {
    name: Spanned<String>,
    hd: Spanned<i64>,
    plus: Option<Spanned<i64>>,
    ac: Spanned<i64>,
    #[serde(rename = "move")]
    move_in: Option<Spanned<i64>>,
    #[serde(default)]
    attacks: Vec<AttackFile>,
    ranged: Option<Spanned<String>>,
    morale: Option<Spanned<i64>>,
    normal_man: Option<bool>,
    size: Option<Spanned<String>>,
    #[serde(default)]
    intelligent: bool,
    #[serde(default)]
    needs_magic: bool,
    special: Option<SpecialFile>,
    #[serde(default)]
    weak_to: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpellFile {
    name: Spanned<String>,
    level: Option<Spanned<i64>>,
    range: Option<Spanned<i64>>,
    damage: Option<Spanned<String>>,
    heal: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BandFile {
    upto: Spanned<i64>,
    label: String,
    result: Option<Spanned<String>>,
}

/// A whole number checked against `lo..=hi`.
fn int(
    file: &SourceFile<'_>,
    field: String,
    v: &Spanned<i64>,
    lo: i64,
    hi: i64,
    errors: &mut Vec<FileError>,
) -> i32 {
    let n = *v.get_ref();
    if (lo..=hi).contains(&n) {
        n as i32
    } else {
        errors.push(file.error(
            v.span(),
            Some(field),
            format!("expected a whole number from {lo} to {hi}, found {n}"),
        ));
        lo as i32
    }
}

/// Damage dice, reporting a malformed expression.
fn dice(
    file: &SourceFile<'_>,
    field: String,
    v: &Spanned<String>,
    errors: &mut Vec<FileError>,
) -> DamageDice {
    DamageDice::parse(v.get_ref()).unwrap_or_else(|| {
        errors.push(file.error(
            v.span(),
            Some(field),
            format!(
                "`{}` is not damage dice; expected e.g. `1d6+1`, `2d6` or `1d4`",
                v.get_ref()
            ),
        ));
        DamageDice {
            count: 1,
            sides: 6,
            bonus: 0,
        }
    })
}

/// A keyword from a table.
fn keyword<T: Copy>(
    file: &SourceFile<'_>,
    field: String,
    what: &str,
    v: &Spanned<String>,
    table: &[(&'static str, T)],
    errors: &mut Vec<FileError>,
) -> Option<T> {
    let found = table
        .iter()
        .find(|(k, _)| *k == v.get_ref().as_str())
        .map(|(_, t)| *t);
    if found.is_none() {
        errors.push(file.error(
            v.span(),
            Some(field),
            format!(
                "unknown {what} `{}`; expected one of {}",
                v.get_ref(),
                table.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    found
}

/// Rows `[from, value]` checked to be in increasing order of `from`.
fn rows(
    file: &SourceFile<'_>,
    field: &str,
    v: &Spanned<Vec<[i64; 2]>>,
    errors: &mut Vec<FileError>,
) -> Vec<(i32, i32)> {
    let out: Vec<(i32, i32)> = v
        .get_ref()
        .iter()
        .map(|[a, b]| {
            (
                (*a).clamp(-1000, 1000) as i32,
                (*b).clamp(-1000, 1000) as i32,
            )
        })
        .collect();
    if out.is_empty() || out.windows(2).any(|w| w[0].0 >= w[1].0) {
        errors.push(file.error(
            v.span(),
            Some(field.to_string()),
            "expected at least one row `[from, value]`, in increasing order of `from`",
        ));
    }
    out
}

const SIZES: [(&str, &str); 3] = [("small", "small"), ("medium", "medium"), ("large", "large")];
const SPECIAL_KINDS: [(&str, &str); 4] = [
    ("label", "label"),
    ("knockdown", "knockdown"),
    ("damage", "damage"),
    ("swallow", "swallow"),
];

/// ODD-R12.4: a monster's special attack, its kind checked (`damage` needs its dice).
fn special(
    file: &SourceFile<'_>,
    f: &dyn Fn(&str) -> String,
    s: &SpecialFile,
    errors: &mut Vec<FileError>,
) -> Special {
    let on = int(file, f("special.on"), &s.on, 2, 20, errors);
    let kind = s
        .kind
        .as_ref()
        .and_then(|k| {
            keyword(
                file,
                f("special.kind"),
                "special kind",
                k,
                &SPECIAL_KINDS,
                errors,
            )
        })
        .unwrap_or("label");
    let effect = match (kind, &s.damage) {
        ("damage", Some(d)) => SpecialEffect::Damage(dice(file, f("special.damage"), d, errors)),
        ("damage", None) => {
            errors.push(file.error(
                s.on.span(),
                Some(f("special.damage")),
                "a `damage` special attack needs its `damage` dice",
            ));
            SpecialEffect::Label
        }
        ("knockdown", _) => SpecialEffect::Knockdown,
        ("swallow", _) => SpecialEffect::Swallow,
        _ => SpecialEffect::Label,
    };
    Special {
        on,
        label: s.effect.clone(),
        effect,
    }
}

const MONSTER_SIZES: [(&str, &str); 4] = [
    ("small", "small"),
    ("man", "man"),
    ("large", "large"),
    ("huge", "huge"),
];

fn read_weapon(
    file: &SourceFile<'_>,
    at: &str,
    w: &WeaponFile,
    errors: &mut Vec<FileError>,
) -> Weapon {
    let f = |name: &str| format!("{at}.{name}");
    let kind = w
        .kind
        .as_ref()
        .and_then(|k| keyword(file, f("kind"), "weapon kind", k, &WEAPON_KINDS, errors))
        .unwrap_or(WeaponKind::Melee);
    let range = match &w.range {
        Some(r) if r.get_ref().len() == 3 && r.get_ref().iter().all(|n| (0..=100).contains(n)) => {
            let v = r.get_ref();
            [v[0] as i32, v[1] as i32, v[2] as i32]
        }
        Some(r) => {
            errors.push(file.error(
                r.span(),
                Some(f("range")),
                "expected three range limits in inches, `[short, medium, long]`, each 0 to 100",
            ));
            [0; 3]
        }
        None => [0; 3],
    };
    if kind.missile() && range[2] == 0 {
        errors.push(file.error(
            w.name.span(),
            Some(f("range")),
            format!(
                "a {} weapon needs `range = [short, medium, long]`",
                kind.key()
            ),
        ));
    }
    Weapon {
        name: w.name.get_ref().clone(),
        damage: dice(file, f("damage"), &w.damage, errors),
        kind,
        hands: w
            .hands
            .as_ref()
            .map_or(1, |h| int(file, f("hands"), h, 1, 2, errors) as u8),
        size: w
            .size
            .as_ref()
            .and_then(|s| keyword(file, f("size"), "weapon size", s, &SIZES, errors))
            .unwrap_or("medium"),
        reach: w
            .reach
            .as_ref()
            .map_or(2, |r| int(file, f("reach"), r, 0, 10, errors)),
        range,
        tags: w.tags.clone(),
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
            let weapon = read_weapon(file, &at, w, errors);
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
        for (i, a) in parsed.armor.iter().enumerate() {
            let at = format!("armor[{i}]");
            let armor = Armor {
                name: a.name.get_ref().clone(),
                ac: int(file, format!("{at}.ac"), &a.ac, -10, 10, errors),
                light: a.light,
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
        for (i, s) in parsed.shield.iter().enumerate() {
            let at = format!("shield[{i}]");
            let shield = Shield {
                name: s.name.get_ref().clone(),
                bonus: int(file, format!("{at}.bonus"), &s.bonus, 0, 5, errors),
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
        for (i, c) in parsed.class.iter().enumerate() {
            let at = format!("class[{i}]");
            let group = keyword(
                file,
                format!("{at}.group"),
                "class group",
                &c.group,
                &CLASS_GROUPS,
                errors,
            )
            .unwrap_or(ClassGroup::Normal);
            let fire_on_run = c
                .fire_on_run
                .iter()
                .filter_map(|k| {
                    keyword(
                        file,
                        format!("{at}.fire_on_run"),
                        "weapon kind",
                        k,
                        &WEAPON_KINDS,
                        errors,
                    )
                })
                .collect();
            let class = Class {
                name: c.name.get_ref().clone(),
                group,
                swashbuckler: c.swashbuckler,
                fire_on_run,
                attack: rows(file, &format!("{at}.attack"), &c.attack, errors),
                paralysis: rows(file, &format!("{at}.paralysis"), &c.paralysis, errors),
            };
            self.classes.insert(
                "class",
                c.name.get_ref(),
                class,
                file,
                c.name.span(),
                format!("{at}.name"),
                errors,
            );
        }
        for (i, s) in parsed.spell.iter().enumerate() {
            let at = format!("spell[{i}]");
            let spell = Spell {
                name: s.name.get_ref().clone(),
                level: s
                    .level
                    .as_ref()
                    .map_or(1, |l| int(file, format!("{at}.level"), l, 1, 9, errors)),
                range: s
                    .range
                    .as_ref()
                    .map_or(0, |r| int(file, format!("{at}.range"), r, 0, 100, errors)),
                damage: s
                    .damage
                    .as_ref()
                    .map(|d| dice(file, format!("{at}.damage"), d, errors)),
                heal: s
                    .heal
                    .as_ref()
                    .map(|d| dice(file, format!("{at}.heal"), d, errors)),
            };
            if spell.damage.is_none() == spell.heal.is_none() {
                errors.push(file.error(
                    s.name.span(),
                    Some(format!("{at}.damage")),
                    "a spell needs exactly one of `damage` or `heal`",
                ));
            }
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
        let t = &mut self.tables;
        if let Some(r) = &parsed.monster_attack {
            t.monster_attack = rows(file, "monster_attack", r, errors);
        }
        if let Some(r) = &parsed.monster_paralysis {
            t.monster_paralysis = rows(file, "monster_paralysis", r, errors);
        }
        if let Some(r) = &parsed.ability_bonus {
            t.ability_bonus = rows(file, "ability_bonus", r, errors);
        }
        if let Some(m) = &parsed.morale {
            t.morale = int(file, "morale".into(), m, 2, 12, errors);
        }
        if let Some(m) = &parsed.pursue_upto {
            t.pursue_upto = int(file, "pursue_upto".into(), m, 1, 12, errors);
        }
        if !parsed.reaction.is_empty() {
            t.reaction = read_bands(file, "reaction", &parsed.reaction, 12, true, errors);
        }
        if !parsed.fumble.is_empty() {
            t.fumble = read_bands(file, "fumble", &parsed.fumble, 20, false, errors);
        }
    }

    fn read_dependents(
        &mut self,
        file: &SourceFile<'_>,
        parsed: &ContentFile,
        errors: &mut Vec<FileError>,
    ) {
        for (i, m) in parsed.monster.iter().enumerate() {
            let at = format!("monster[{i}]");
            let f = |name: &str| format!("{at}.{name}");
            let mut attacks = Vec::new();
            for (k, a) in m.attacks.iter().enumerate() {
                let af = |name: &str| format!("{at}.attacks[{k}].{name}");
                let weapon =
                    a.weapon.as_ref().and_then(|w| {
                        let found = self.weapons.get(w.get_ref()).cloned();
                        if found.is_none() {
                            errors.push(file.error(
                                w.span(),
                                Some(af("weapon")),
                                self.weapons.unknown(
                                    "weapon",
                                    w.get_ref(),
                                    "fray content odd weapons",
                                ),
                            ));
                        }
                        found
                    });
                let damage = match (&a.damage, &weapon) {
                    (Some(d), _) => dice(file, af("damage"), d, errors),
                    (None, Some(w)) => w.damage,
                    (None, None) => {
                        if a.weapon.is_none() {
                            errors.push(file.error(
                                m.name.span(),
                                Some(af("damage")),
                                "an attack needs a `weapon` or `damage` dice",
                            ));
                        }
                        continue;
                    }
                };
                let name = a
                    .name
                    .clone()
                    .or_else(|| weapon.as_ref().map(|w| w.name.clone()))
                    .unwrap_or_else(|| "attack".to_string());
                attacks.push(MonsterAttack {
                    name,
                    weapon,
                    damage,
                    horns: a.horns,
                });
            }
            if m.attacks.is_empty() {
                errors.push(file.error(
                    m.name.span(),
                    Some(f("attacks")),
                    "a monster needs at least one attack",
                ));
            }
            let ranged = m.ranged.as_ref().and_then(|w| {
                let found = self.weapons.get(w.get_ref()).cloned();
                match &found {
                    None => errors.push(
                        file.error(
                            w.span(),
                            Some(f("ranged")),
                            self.weapons
                                .unknown("weapon", w.get_ref(), "fray content odd weapons"),
                        ),
                    ),
                    Some(found) if !found.kind.missile() => errors.push(file.error(
                        w.span(),
                        Some(f("ranged")),
                        format!("`{}` is not a missile weapon", found.name),
                    )),
                    _ => {}
                }
                found
            });
            let monster = Monster {
                name: m.name.get_ref().clone(),
                hd: int(file, f("hd"), &m.hd, 0, 50, errors),
                plus: m
                    .plus
                    .as_ref()
                    .map_or(0, |p| int(file, f("plus"), p, -3, 20, errors)),
                ac: int(file, f("ac"), &m.ac, -10, 10, errors),
                move_in: m
                    .move_in
                    .as_ref()
                    .map_or(12, |v| int(file, f("move"), v, 0, 48, errors)),
                attacks,
                ranged,
                morale: m
                    .morale
                    .as_ref()
                    .map(|v| int(file, f("morale"), v, 2, 12, errors)),
                normal_man: m.normal_man,
                size: m
                    .size
                    .as_ref()
                    .and_then(|s| keyword(file, f("size"), "size", s, &MONSTER_SIZES, errors))
                    .unwrap_or("man"),
                intelligent: m.intelligent,
                needs_magic: m.needs_magic,
                special: m.special.as_ref().map(|s| special(file, &f, s, errors)),
                weak_to: m.weak_to.clone(),
            };
            self.monsters.insert(
                "monster",
                m.name.get_ref(),
                monster,
                file,
                m.name.span(),
                format!("{at}.name"),
                errors,
            );
        }
    }

    fn seal(&mut self) {
        self.weapons.seal();
        self.armor.seal();
        self.shields.seal();
        self.classes.seal();
        self.monsters.seal();
        self.spells.seal();
    }

    fn defines_nothing(p: &ContentFile) -> bool {
        p.weapon.is_empty()
            && p.armor.is_empty()
            && p.shield.is_empty()
            && p.class.is_empty()
            && p.monster.is_empty()
            && p.spell.is_empty()
            && p.monster_attack.is_none()
            && p.monster_paralysis.is_none()
            && p.ability_bonus.is_none()
            && p.morale.is_none()
            && p.pursue_upto.is_none()
            && p.reaction.is_empty()
            && p.fumble.is_empty()
    }
}

fn read_bands(
    file: &SourceFile<'_>,
    what: &str,
    bands: &[BandFile],
    max: i64,
    needs_result: bool,
    errors: &mut Vec<FileError>,
) -> Vec<Band> {
    let mut out: Vec<Band> = Vec::new();
    for (i, b) in bands.iter().enumerate() {
        let at = format!("{what}[{i}]");
        let upto = int(file, format!("{at}.upto"), &b.upto, 1, max, errors);
        if out.last().is_some_and(|l| l.upto >= upto) {
            errors.push(file.error(
                b.upto.span(),
                Some(format!("{at}.upto")),
                "rows go in increasing order of `upto`",
            ));
        }
        let result = match &b.result {
            Some(r) => keyword(
                file,
                format!("{at}.result"),
                "reaction",
                r,
                &REACTIONS,
                errors,
            )
            .unwrap_or(Reaction::Uncertain),
            None if needs_result => {
                errors.push(file.error(
                    b.upto.span(),
                    Some(format!("{at}.result")),
                    "a reaction row needs `result` (hostile, uncertain or friendly)",
                ));
                Reaction::Uncertain
            }
            None => Reaction::Uncertain,
        };
        out.push(Band {
            upto,
            label: b.label.clone(),
            result,
        });
    }
    if out.last().is_some_and(|l| i64::from(l.upto) != max) {
        errors.push(file.file_error(format!(
            "the last `{what}` row must go up to {max} (every roll needs a row)"
        )));
    }
    out
}

impl Content {
    /// A weapon by name.
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons.get(name)
    }

    /// The content as `fray content` lists it.
    pub fn tables(&self) -> Vec<ContentTable> {
        let mut armour = ContentTable::of("armour", &["AC", "light"], &self.armor, |a: &Armor| {
            (
                a.name.clone(),
                vec![a.ac.to_string(), if a.light { "yes" } else { "" }.into()],
            )
        });
        armour.rows.extend(
            ContentTable::of("armour", &[], &self.shields, |s: &Shield| {
                (
                    s.name.clone(),
                    vec![format!("-{} (shield)", s.bonus), String::new()],
                )
            })
            .rows,
        );
        vec![
            ContentTable::of(
                "monsters",
                &["HD", "AC", "move", "attacks", "morale"],
                &self.monsters,
                |m: &Monster| {
                    let hd = match m.plus {
                        0 => m.hd.to_string(),
                        p => format!("{}{p:+}", m.hd),
                    };
                    (
                        m.name.clone(),
                        vec![
                            hd,
                            m.ac.to_string(),
                            format!("{}\"", m.move_in),
                            m.attacks
                                .iter()
                                .map(|a| format!("{} {}", a.name, a.damage))
                                .collect::<Vec<_>>()
                                .join(", "),
                            m.morale.map_or("default".into(), |v| v.to_string()),
                        ],
                    )
                },
            ),
            ContentTable::of(
                "weapons",
                &["damage", "kind", "hands", "reach", "range"],
                &self.weapons,
                |w: &Weapon| {
                    (
                        w.name.clone(),
                        vec![
                            w.damage.to_string(),
                            w.kind.key().into(),
                            w.hands.to_string(),
                            w.reach.to_string(),
                            if w.range[2] > 0 {
                                format!("{}/{}/{}\"", w.range[0], w.range[1], w.range[2])
                            } else {
                                String::new()
                            },
                        ],
                    )
                },
            ),
            armour,
            ContentTable::of("classes", &["group"], &self.classes, |c: &Class| {
                let group = CLASS_GROUPS
                    .iter()
                    .find(|(_, g)| *g == c.group)
                    .map_or("", |(k, _)| k);
                (c.name.clone(), vec![group.to_string()])
            }),
            ContentTable::of("spells", &["level", "effect"], &self.spells, |s: &Spell| {
                let effect = match (s.damage, s.heal) {
                    (Some(d), _) => format!("damage {d}"),
                    (_, Some(h)) => format!("heal {h}"),
                    _ => String::new(),
                };
                (s.name.clone(), vec![s.level.to_string(), effect])
            }),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_content_loads() {
        let c = Content::load(&CONTENT_FILES).expect("content loads");
        assert!(c.monsters.len() >= 15);
        assert_eq!(c.tables.morale, 7);
        assert_eq!(c.tables.pursue_upto, 7);
        assert_eq!(c.tables.reaction.len(), 3);
        assert_eq!(
            c.weapon("sword").expect("sword").damage.to_string(),
            "1d6+1"
        );
        assert_eq!(c.tables.bonus(16), 2);
        assert_eq!(c.tables.bonus(12), 0);
    }
}
