//! C&C encounter files: sides, combatants (from the bestiary with a count, or characters built
//! from a class), positions, awareness and situational state, CK options and standing modifiers,
//! and an optional script. Every problem in the file is reported at once, with line and field.

use crate::content::{attribute_index, Content, MagicKind, Size, Weapon};
use crate::state::{
    AttackForm, Concealment, Cond, Cover, Fighter, Maneuvers, Options, Profile, StandingModifier,
    State,
};
use fray_core::conditions::{Conditions, Expiry};
use fray_core::driver::ScriptedChoice;
use fray_core::encounter::{
    check_squares, member_keys, member_names, parse_direction, roster_of_sides, Placement,
    ScriptDef, SideDef, MAX_COMBATANTS,
};
use fray_core::roster::CombatantInfo;
use fray_core::span::{FileError, FileErrors, SourceFile};
use fray_core::{Direction, Limits, Roster, SideId};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// A loaded encounter: the starting state, limits and script.
#[derive(Debug, Clone)]
pub struct Encounter {
    /// Name.
    pub name: String,
    /// The starting state.
    pub state: State,
    /// Limits (rounds).
    pub limits: Limits,
    /// Scripted die faces.
    pub dice: Vec<u32>,
    /// Scripted choices.
    pub choices: Vec<ScriptedChoice>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EncounterDef {
    #[allow(dead_code)]
    schema: u32,
    #[allow(dead_code)]
    ruleset: String,
    name: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    max_rounds: Option<Spanned<u32>>,
    #[serde(default)]
    options: OptionsDef,
    #[serde(default)]
    surprise: Option<SurpriseDef>,
    sides: Vec<SideDef>,
    combatants: Vec<CombatantDef>,
    #[serde(default)]
    modifiers: Vec<ModifierDef>,
    #[serde(default)]
    falls: Vec<FallDef>,
    #[serde(default)]
    script: ScriptDef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionsDef {
    grapple_size_literal: Option<bool>,
    fall_max_dice: Option<u32>,
    group_initiative: Option<bool>,
    group_ties_simultaneous: Option<bool>,
    zero_hp_conscious: Option<bool>,
    overbear_uses_bth: Option<bool>,
    grapple_modifier: Option<i32>,
    cover_forbids_attacks: Option<bool>,
    check_base_prime: Option<i32>,
    check_base_nonprime: Option<i32>,
    subdual_kills: Option<bool>,
    #[serde(default)]
    maneuvers: ManeuversDef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ManeuversDef {
    dodge: Option<bool>,
    disengage: Option<bool>,
    disarm: Option<bool>,
    evade: Option<bool>,
    flank: Option<bool>,
    rear: Option<bool>,
    two_weapon: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SurpriseDef {
    sides: Vec<Spanned<String>>,
    #[serde(default)]
    modifier: BTreeMap<String, i32>,
    #[serde(default)]
    individual: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FallDef {
    who: Spanned<String>,
    feet: Spanned<i32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModifierDef {
    attacker: Option<Spanned<String>>,
    target: Option<Spanned<String>>,
    value: Spanned<i32>,
    reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatantDef {
    id: Spanned<String>,
    name: Option<String>,
    side: Spanned<String>,
    count: Option<Spanned<u32>>,
    at: Spanned<Placement>,
    facing: Option<Spanned<String>>,
    monster: Option<Spanned<String>>,
    class: Option<Spanned<String>>,
    level: Option<Spanned<i32>>,
    hp: Option<Spanned<i32>>,
    start_hp: Option<Spanned<i32>>,
    ac: Option<i32>,
    scores: Option<Spanned<BTreeMap<String, i32>>>,
    primes: Option<Spanned<Vec<String>>>,
    weapon: Option<Spanned<String>>,
    off_hand: Option<Spanned<String>>,
    ranged: Option<Spanned<String>>,
    armor: Option<Spanned<String>>,
    armor_penalty: Option<i32>,
    shield: Option<Spanned<String>>,
    deflection: Option<i32>,
    movement: Option<i32>,
    size: Option<Size>,
    #[serde(default)]
    conditions: Vec<Spanned<String>>,
    cover: Option<Spanned<String>>,
    concealment: Option<Spanned<String>>,
    elevation: Option<i32>,
    #[serde(default)]
    mounted: bool,
    aware: Option<bool>,
    disarm: Option<bool>,
    #[serde(default = "no_magic")]
    spells: Spanned<BTreeMap<String, u8>>,
    #[serde(default = "no_magic")]
    items: Spanned<BTreeMap<String, u8>>,
    #[serde(default = "no_magic")]
    packed: Spanned<BTreeMap<String, u8>>,
    #[serde(default = "no_magic")]
    abilities: Spanned<BTreeMap<String, u8>>,
}

fn no_magic() -> Spanned<BTreeMap<String, u8>> {
    Spanned::new(0..0, BTreeMap::new())
}

/// Reads an encounter file's text.
pub fn load(path: &str, text: &str, content: &Content) -> Result<Encounter, FileErrors> {
    let file = SourceFile::new(path, text);
    let def: EncounterDef =
        toml::from_str(text).map_err(|e| FileErrors(vec![file.toml_error(&e)]))?;
    let mut errors = Vec::new();
    let encounter = build(&file, &def, content, &mut errors);
    if errors.is_empty() {
        Ok(encounter)
    } else {
        Err(FileErrors(errors))
    }
}

fn field(i: usize, name: &str) -> Option<String> {
    Some(format!("combatants[{i}].{name}"))
}

fn build(
    file: &SourceFile<'_>,
    def: &EncounterDef,
    content: &Content,
    errors: &mut Vec<FileError>,
) -> Encounter {
    let mut roster = roster_of_sides(file, &def.sides, errors);
    let mut profiles = Vec::new();
    let mut fighters = Vec::new();
    let mut magic: Vec<crate::content::Magic> = Vec::new();
    let mut placed = Vec::new();
    for (i, c) in def.combatants.iter().enumerate() {
        let side = match roster.find_side(c.side.get_ref()) {
            Some(s) => s,
            None => {
                errors.push(file.error(
                    c.side.span(),
                    field(i, "side"),
                    format!(
                            "unknown side `{}`; the sides are {}",
                            c.side.get_ref(),
                            roster
                                .sides
                                .iter()
                                .map(|s| s.key.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                ));
                SideId(0)
            }
        };
        let count = c.count.as_ref().map_or(1, |n| *n.get_ref()) as usize;
        if count == 0 || count > MAX_COMBATANTS {
            errors.push(file.error(
                c.count.as_ref().map_or(c.id.span(), |n| n.span()),
                field(i, "count"),
                format!("expected between 1 and {MAX_COMBATANTS}"),
            ));
            continue;
        }
        let squares = match c.at.get_ref().squares(count) {
            Ok(s) => s,
            Err(msg) => {
                errors.push(file.error(c.at.span(), field(i, "at"), msg));
                continue;
            }
        };
        let Some(mut profile) = build_profile(file, i, c, content, errors) else {
            continue;
        };
        let facing = match &c.facing {
            Some(f) => parse_direction(f.get_ref()).unwrap_or_else(|| {
                errors.push(file.error(
                    f.span(),
                    field(i, "facing"),
                    "expected north, north-east, east, … (or n, ne, e, …)",
                ));
                Direction::North
            }),
            None => default_facing(&def.sides, c.side.get_ref()),
        };
        let mut conditions = Conditions::default();
        for cond in &c.conditions {
            match Cond::SETTABLE
                .iter()
                .find(|k| k.key() == cond.get_ref().as_str())
            {
                // Prone from the file lasts through round 1 (the creature gets up after that).
                Some(Cond::Prone) => {
                    conditions.add(Cond::Prone, Expiry::EndOfRound(1));
                }
                Some(k) => {
                    conditions.add(*k, Expiry::Indefinite);
                }
                None => errors.push(file.error(
                    cond.span(),
                    field(i, "conditions"),
                    format!(
                            "unknown condition `{}`; expected one of {}",
                            cond.get_ref(),
                            Cond::SETTABLE
                                .iter()
                                .map(|k| k.key())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                )),
            }
        }
        if c.aware == Some(false) {
            conditions.add(Cond::Unaware, Expiry::Indefinite);
        }
        let cover = read_level(
            file,
            i,
            "cover",
            &c.cover,
            errors,
            &[
                ("none", Cover::None),
                ("quarter", Cover::Quarter),
                ("half", Cover::Half),
                ("three-quarters", Cover::ThreeQuarters),
                ("full", Cover::Full),
            ],
        );
        let concealment = read_level(
            file,
            i,
            "concealment",
            &c.concealment,
            errors,
            &[
                ("none", Concealment::None),
                ("quarter", Concealment::Quarter),
                ("half", Concealment::Half),
                ("three-quarters", Concealment::ThreeQuarters),
                ("complete", Concealment::Complete),
            ],
        );
        let name = c.name.clone().unwrap_or_else(|| match &c.monster {
            Some(m) => content
                .monsters
                .get(m.get_ref())
                .map_or_else(|| m.get_ref().clone(), |m| m.name.clone()),
            None => c.id.get_ref().clone(),
        });
        let start_hp = match &c.start_hp {
            Some(h) if *h.get_ref() > profile.max_hp || *h.get_ref() <= -10 => {
                errors.push(file.error(
                    h.span(),
                    field(i, "start_hp"),
                    format!("expected between -9 and the maximum, {}", profile.max_hp),
                ));
                profile.max_hp
            }
            Some(h) => *h.get_ref(),
            None => profile.max_hp,
        };
        // Spells and items (CNC-R4.3, CNC-R4.6): indices into the encounter's magic table.
        let mut spells_left = Vec::new();
        let mut items_left = Vec::new();
        let mut items_ready = Vec::new();
        let mut abilities_left = Vec::new();
        for (name, list, kind, ready) in [
            ("spells", &c.spells, MagicKind::Spell, true),
            ("items", &c.items, MagicKind::Item, true),
            ("packed", &c.packed, MagicKind::Item, false),
            ("abilities", &c.abilities, MagicKind::Ability, true),
        ] {
            for (id, uses) in list.get_ref() {
                let found = match kind {
                    MagicKind::Spell => content.spells.get(id),
                    MagicKind::Item => content.items.get(id),
                    MagicKind::Ability => content.abilities.get(id),
                };
                let Some(m) = found else {
                    errors.push(file.error(
                        list.span(),
                        field(i, name),
                        format!("unknown {} `{id}`; see content/cnc/magic.toml", kind.key()),
                    ));
                    continue;
                };
                let index = match magic.iter().position(|x| x == m) {
                    Some(ix) => ix as u16,
                    None => {
                        magic.push(m.clone());
                        (magic.len() - 1) as u16
                    }
                };
                match kind {
                    MagicKind::Spell => {
                        profile.spells.push(index);
                        spells_left.push(*uses);
                    }
                    MagicKind::Item => {
                        profile.items.push(index);
                        items_left.push(*uses);
                        items_ready.push(ready);
                    }
                    MagicKind::Ability => {
                        profile.abilities.push(index);
                        abilities_left.push(*uses);
                    }
                }
            }
        }
        let keys = member_keys(c.id.get_ref(), count);
        let names = member_names(&name, count);
        for ((key, name), pos) in keys.into_iter().zip(names).zip(squares) {
            if roster.find(&key).is_some() {
                errors.push(file.error(
                    c.id.span(),
                    field(i, "id"),
                    format!("duplicate combatant `{key}`"),
                ));
            }
            placed.push((key.clone(), pos, c.at.span()));
            roster.combatants.push(CombatantInfo { key, name, side });
            fighters.push(Fighter {
                side,
                pos,
                facing,
                hp: start_hp,
                subdual_taken: 0,
                subdual_running: 0,
                conditions: conditions.clone(),
                declared: Default::default(),
                acted: false,
                attackers: [None; 3],
                dodged: 0,
                // Already mortally wounded at the start: bleeds from the end of round 1 (CNC-A11).
                mortal_since: (-9..=-7).contains(&start_hp).then_some(0),
                aided_in: None,
                held_by: None,
                disarmed: false,
                disengaged_in: None,
                free_attacked: None,
                charge_negated: false,
                cover,
                concealment,
                elevation: c.elevation.unwrap_or(0),
                mounted: c.mounted,
                dead: false,
                ready: false,
                spells_left: spells_left.clone(),
                items_left: items_left.clone(),
                items_ready: items_ready.clone(),
                abilities_left: abilities_left.clone(),
                casting: None,
                dealt: 0,
                taken: 0,
            });
            profiles.push(profile.clone());
        }
    }
    if fighters.len() > MAX_COMBATANTS {
        errors.push(file.file_error(format!("more than {MAX_COMBATANTS} combatants")));
    }
    check_squares(file, &placed, errors);
    let options = read_options(file, def, &roster, errors);
    let modifiers = read_modifiers(file, def, &roster, errors);
    let mut limits = Limits::default();
    if let Some(r) = &def.max_rounds {
        if *r.get_ref() == 0 || *r.get_ref() > Limits::MAX_ROUNDS_CEILING {
            errors.push(file.error(
                r.span(),
                Some("max_rounds".into()),
                format!("expected between 1 and {}", Limits::MAX_ROUNDS_CEILING),
            ));
        } else {
            limits.max_rounds = *r.get_ref();
        }
    }
    let (dice, choices) = def.script.read(file, errors);
    for (i, choice) in choices.iter().enumerate() {
        if choice.who != "gm" && roster.find(&choice.who).is_none() {
            errors.push(file.error(
                def.script.choices[i].span(),
                Some(format!("script.choices[{i}]")),
                format!("no combatant `{}` in this encounter", choice.who),
            ));
        }
    }
    Encounter {
        name: def.name.clone().unwrap_or_else(|| file.path.to_string()),
        state: State {
            roster: Arc::new(roster),
            profiles: profiles.into(),
            fighters,
            options: Arc::new(options),
            modifiers: modifiers.into(),
            round: 0,
            magic: magic.into(),
        },
        limits,
        dice,
        choices,
    }
}

fn default_facing(sides: &[SideDef], side: &str) -> Direction {
    // The first side faces east, the others west, unless told otherwise.
    if sides.first().is_some_and(|s| s.id.get_ref() == side) {
        Direction::East
    } else {
        Direction::West
    }
}

fn read_level<T: Copy + Default>(
    file: &SourceFile<'_>,
    i: usize,
    name: &str,
    value: &Option<Spanned<String>>,
    errors: &mut Vec<FileError>,
    table: &[(&str, T)],
) -> T {
    let Some(v) = value else { return T::default() };
    match table.iter().find(|(k, _)| *k == v.get_ref().as_str()) {
        Some((_, t)) => *t,
        None => {
            errors.push(file.error(
                v.span(),
                field(i, name),
                format!(
                    "expected one of {}",
                    table.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
                ),
            ));
            T::default()
        }
    }
}

fn lookup_weapon(
    file: &SourceFile<'_>,
    i: usize,
    name: &str,
    value: &Option<Spanned<String>>,
    content: &Content,
    errors: &mut Vec<FileError>,
) -> Option<Weapon> {
    let v = value.as_ref()?;
    match content.weapons.get(v.get_ref()) {
        Some(w) => Some(w.clone()),
        None => {
            errors.push(file.error(
                v.span(),
                field(i, name),
                format!(
                    "unknown weapon `{}`; see content/cnc/weapons.toml",
                    v.get_ref()
                ),
            ));
            None
        }
    }
}

fn build_profile(
    file: &SourceFile<'_>,
    i: usize,
    c: &CombatantDef,
    content: &Content,
    errors: &mut Vec<FileError>,
) -> Option<Profile> {
    let before = errors.len();
    let mut scores = [10; 6];
    let mut primes = [false; 6];
    let mut profile = match (&c.monster, &c.class) {
        (Some(m), None) => {
            let Some(monster) = content.monsters.get(m.get_ref()) else {
                errors.push(file.error(
                    m.span(),
                    field(i, "monster"),
                    format!(
                        "unknown monster `{}`; see content/cnc/monsters.toml",
                        m.get_ref()
                    ),
                ));
                return None;
            };
            scores = monster.scores;
            for &p in &monster.primes {
                primes[p] = true;
            }
            let melee: Vec<AttackForm> = monster
                .attacks
                .iter()
                .map(|a| AttackForm {
                    name: a.name.clone(),
                    damage: a.damage,
                    reach: a.reach,
                    magic: a.weapon.as_ref().map_or(0, |w| w.magic),
                    subdual: a.subdual,
                    touch: a.touch,
                    natural: a.weapon.is_none(),
                })
                .collect();
            let hd = i32::from(monster.hit_dice);
            Profile {
                level: hd,
                // A monster's BtH is its number of hit dice (CNC-R7.2).
                bth: hd,
                scores,
                mods: [0; 6],
                primes,
                max_hp: monster.hp,
                monster: true,
                base_ac: monster.ac,
                deflection: 0,
                shield: None,
                movement: monster.movement,
                size: monster.size,
                armed: monster.attacks.iter().any(|a| a.weapon.is_some()),
                melee,
                off_hand: None,
                ranged: monster.ranged.clone(),
                can_disarm: monster.can_disarm,
                back_attack: false,
                monk: false,
                reach_ft: 5,
                spells: Vec::new(),
                items: Vec::new(),
                abilities: Vec::new(),
            }
        }
        (None, Some(cl)) => {
            let Some(class) = content.classes.get(cl.get_ref()) else {
                errors.push(file.error(
                    cl.span(),
                    field(i, "class"),
                    format!(
                        "unknown class `{}`; see content/cnc/classes.toml",
                        cl.get_ref()
                    ),
                ));
                return None;
            };
            let level = c.level.as_ref().map_or(1, |l| *l.get_ref());
            if level < 1 || level as usize > class.bth.len() {
                errors.push(file.error(
                    c.level.as_ref().map_or(cl.span(), |l| l.span()),
                    field(i, "level"),
                    format!("expected a level from 1 to {}", class.bth.len()),
                ));
                return None;
            }
            primes[class.prime] = true;
            let Some(hp) = &c.hp else {
                errors.push(file.error(
                    c.id.span(),
                    field(i, "hp"),
                    "a character needs `hp` (its hit points)",
                ));
                return None;
            };
            let weapon = lookup_weapon(file, i, "weapon", &c.weapon, content, errors)
                .or_else(|| content.weapons.get("unarmed strike").cloned());
            let melee = weapon
                .iter()
                .filter(|w| w.is_melee())
                .map(AttackForm::of_weapon)
                .collect::<Vec<_>>();
            let ranged = lookup_weapon(file, i, "ranged", &c.ranged, content, errors)
                .or_else(|| weapon.clone().filter(|w| w.is_ranged()));
            if let (Some(r), Some(v)) = (&ranged, &c.ranged) {
                if !r.is_ranged() {
                    errors.push(file.error(
                        v.span(),
                        field(i, "ranged"),
                        format!("`{}` is not a missile weapon", r.id),
                    ));
                }
            }
            let off_hand = lookup_weapon(file, i, "off_hand", &c.off_hand, content, errors)
                .map(|w| AttackForm::of_weapon(&w));
            let armor = match &c.armor {
                Some(a) => match content.armor.get(a.get_ref()) {
                    Some(a) => Some(a.clone()),
                    None => {
                        errors.push(file.error(
                            a.span(),
                            field(i, "armor"),
                            format!(
                                "unknown armour `{}`; see content/cnc/armor.toml",
                                a.get_ref()
                            ),
                        ));
                        None
                    }
                },
                None => None,
            };
            let shield = match &c.shield {
                Some(s) => match content.shields.get(s.get_ref()) {
                    Some(s) => Some(s.size),
                    None => {
                        errors.push(file.error(s.span(), field(i, "shield"), format!("unknown shield `{}`; expected small shield, medium shield or large shield", s.get_ref())));
                        None
                    }
                },
                None => None,
            };
            // AC = 10 + armour bonus (less CK penalties such as rust, CNC-R16.7) + magic armour.
            let armor_bonus = armor.as_ref().map_or(0, |a| {
                (a.bonus - c.armor_penalty.unwrap_or(0)).max(0) + a.magic
            });
            Profile {
                level,
                bth: class.bth[level as usize - 1],
                scores,
                mods: [0; 6],
                primes,
                max_hp: *hp.get_ref(),
                monster: false,
                base_ac: 10 + armor_bonus,
                deflection: c.deflection.unwrap_or(0),
                shield,
                movement: 30,
                size: Size::Medium,
                armed: true,
                melee: if melee.is_empty() {
                    content
                        .weapons
                        .get("unarmed strike")
                        .map(AttackForm::of_weapon)
                        .into_iter()
                        .collect()
                } else {
                    melee
                },
                off_hand,
                ranged,
                can_disarm: class.can_disarm,
                back_attack: class.back_attack,
                monk: class.monk,
                reach_ft: 5,
                spells: Vec::new(),
                items: Vec::new(),
                abilities: Vec::new(),
            }
        }
        _ => {
            errors.push(file.error(
                c.id.span(),
                field(i, "monster"),
                "give exactly one of `monster = \"…\"` or `class = \"…\"`",
            ));
            return None;
        }
    };
    if let Some(s) = &c.scores {
        for (name, value) in s.get_ref() {
            match attribute_index(name) {
                Some(ix) if (1..=30).contains(value) => profile.scores[ix] = *value,
                Some(_) => errors.push(file.error(
                    s.span(),
                    field(i, "scores"),
                    format!("`{name}` must be between 1 and 30"),
                )),
                None => errors.push(file.error(
                    s.span(),
                    field(i, "scores"),
                    format!("unknown attribute `{name}`; expected str, dex, con, int, wis, cha"),
                )),
            }
        }
    }
    if let Some(p) = &c.primes {
        for name in p.get_ref() {
            match attribute_index(name) {
                Some(ix) => profile.primes[ix] = true,
                None => errors.push(file.error(
                    p.span(),
                    field(i, "primes"),
                    format!("unknown attribute `{name}`"),
                )),
            }
        }
    }
    for ix in 0..6 {
        profile.mods[ix] = content.modifier(profile.scores[ix]);
    }
    if profile.monster {
        // A monster's listed AC already counts its DEX; keep DEX separate so it can be lost.
        profile.base_ac = c.ac.unwrap_or(profile.base_ac) - profile.dex_mod();
        if let Some(hp) = &c.hp {
            profile.max_hp = *hp.get_ref();
        }
    } else if let Some(ac) = c.ac {
        profile.base_ac = ac;
    }
    if let Some(m) = c.movement {
        profile.movement = m.max(5);
    }
    if let Some(s) = c.size {
        profile.size = s;
    }
    if let Some(d) = c.disarm {
        profile.can_disarm = d;
    }
    if profile.max_hp < 1 {
        errors.push(file.error(
            c.hp.as_ref().map_or(c.id.span(), |h| h.span()),
            field(i, "hp"),
            "expected at least 1 hit point",
        ));
    }
    if errors.len() > before {
        return None;
    }
    Some(profile.with_reach())
}

fn read_options(
    file: &SourceFile<'_>,
    def: &EncounterDef,
    roster: &Roster,
    errors: &mut Vec<FileError>,
) -> Options {
    let o = &def.options;
    let d = Options::default();
    let m = &o.maneuvers;
    let dm = Maneuvers::default();
    let mut options = Options {
        grapple_size_literal: o.grapple_size_literal.unwrap_or(d.grapple_size_literal),
        fall_max_dice: o.fall_max_dice.or(d.fall_max_dice),
        group_initiative: o.group_initiative.unwrap_or(d.group_initiative),
        group_ties_simultaneous: o
            .group_ties_simultaneous
            .unwrap_or(d.group_ties_simultaneous),
        zero_hp_conscious: o.zero_hp_conscious.unwrap_or(d.zero_hp_conscious),
        overbear_uses_bth: o.overbear_uses_bth.unwrap_or(d.overbear_uses_bth),
        grapple_modifier: o.grapple_modifier.unwrap_or(d.grapple_modifier),
        cover_forbids_attacks: o.cover_forbids_attacks.unwrap_or(d.cover_forbids_attacks),
        check_base_prime: o.check_base_prime.unwrap_or(d.check_base_prime),
        check_base_nonprime: o.check_base_nonprime.unwrap_or(d.check_base_nonprime),
        subdual_kills: o.subdual_kills.unwrap_or(d.subdual_kills),
        maneuvers: Maneuvers {
            dodge: m.dodge.unwrap_or(dm.dodge),
            disengage: m.disengage.unwrap_or(dm.disengage),
            disarm: m.disarm.unwrap_or(dm.disarm),
            evade: m.evade.unwrap_or(dm.evade),
            flank: m.flank.unwrap_or(dm.flank),
            rear: m.rear.unwrap_or(dm.rear),
            two_weapon: m.two_weapon.unwrap_or(dm.two_weapon),
        },
        surprise: Vec::new(),
        surprise_individual: false,
        falls: Vec::new(),
    };
    for (i, fall) in def.falls.iter().enumerate() {
        let feet = *fall.feet.get_ref();
        if !(0..=1000).contains(&feet) {
            errors.push(file.error(
                fall.feet.span(),
                Some(format!("falls[{i}].feet")),
                "expected 0 to 1000 feet",
            ));
        }
        match roster.find(fall.who.get_ref()) {
            Some(id) => options.falls.push((id, feet.clamp(0, 1000))),
            None => errors.push(file.error(
                fall.who.span(),
                Some(format!("falls[{i}].who")),
                format!("no combatant `{}`", fall.who.get_ref()),
            )),
        }
    }
    if let Some(s) = &def.surprise {
        options.surprise_individual = s.individual;
        for (i, side) in s.sides.iter().enumerate() {
            match roster.find_side(side.get_ref()) {
                Some(id) => options
                    .surprise
                    .push((id, s.modifier.get(side.get_ref()).copied().unwrap_or(0))),
                None => errors.push(file.error(
                    side.span(),
                    Some(format!("surprise.sides[{i}]")),
                    format!("unknown side `{}`", side.get_ref()),
                )),
            }
        }
    }
    options
}

fn read_modifiers(
    file: &SourceFile<'_>,
    def: &EncounterDef,
    roster: &Roster,
    errors: &mut Vec<FileError>,
) -> Vec<StandingModifier> {
    let mut out = Vec::new();
    for (i, m) in def.modifiers.iter().enumerate() {
        let mut who = |v: &Option<Spanned<String>>, name: &str| {
            v.as_ref().and_then(|v| {
                let found = roster.find(v.get_ref());
                if found.is_none() {
                    errors.push(file.error(
                        v.span(),
                        Some(format!("modifiers[{i}].{name}")),
                        format!("no combatant `{}`", v.get_ref()),
                    ));
                }
                found
            })
        };
        let attacker = who(&m.attacker, "attacker");
        let target = who(&m.target, "target");
        if m.value.get_ref().abs() > 30 {
            errors.push(file.error(
                m.value.span(),
                Some(format!("modifiers[{i}].value")),
                "expected a modifier between −30 and +30",
            ));
        }
        out.push(StandingModifier {
            attacker,
            target,
            value: *m.value.get_ref(),
            reason: m.reason.clone(),
        });
    }
    out
}
