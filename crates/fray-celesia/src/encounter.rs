//! Legends of Celesia encounter files: sides, combatants (a creature from the bestiary, or a
//! character built from a class and level with its scores and gear), awareness (CEL-R2.1,
//! CEL-G1), the GM's `[options]` (CEL-G8) and an optional script. The common keys are read by
//! `fray_core::loader`; this module builds Celesia's combatants and reads its own tables.

use crate::content::{
    read_feats, read_scores, ArmorFile, ClassFile, Content, ContentFile, MonsterFile, ShieldFile,
    Size, Weapon, WeaponFile, WeaponKind,
};
use crate::rules::shield::ShieldAt;
use crate::state::{Device, Fighter, Injuries, Options, Profile, State, CON};
use fray_core::catalog::ContentSet;
use fray_core::loader::{CombatantBuilder, CombatantEntry, Loader, Placed};
use fray_core::span::{FileError, FileErrors, SourceFile};
use fray_core::{CombatantId, Roster, RulesetId};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// A loaded Celesia encounter.
pub type Encounter = fray_core::Encounter<State>;

fray_core::encounter_file! {
    /// A Celesia encounter file: the common keys plus Celesia's own tables.
    struct EncounterDef for CombatantDef {
        #[serde(default)]
        options: OptionsDef,
        #[serde(default)]
        weapon: Vec<WeaponFile>,
        #[serde(default)]
        armor: Vec<ArmorFile>,
        #[serde(default)]
        shield: Vec<ShieldFile>,
        #[serde(default)]
        class: Vec<ClassFile>,
        #[serde(default)]
        monster: Vec<MonsterFile>,
        #[serde(default)]
        device: Vec<DeviceDef>,
        #[serde(default)]
        hazard: Vec<HazardDef>,
        #[serde(default)]
        obstacle: Vec<TerrainDef>,
        #[serde(default)]
        difficult: Vec<TerrainDef>,
        #[serde(default)]
        stance: Vec<crate::initiator::StanceFile>,
        #[serde(default)]
        strike: Vec<crate::initiator::StrikeFile>,
        #[serde(default)]
        boost: Vec<crate::initiator::BoostFile>,
        #[serde(default)]
        counter: Vec<crate::initiator::CounterFile>,
    }
}

/// One `[[obstacle]]` or `[[difficult]]`: squares of the map that are obstacles (a stray shot
/// stops there, nobody stands there or moves through, CEL-R7.3) or difficult terrain (no Step
/// into or out of it, no charge across it, CEL-R9 Step, R11). [`rules::terrain`]
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainDef {
    squares: Spanned<Vec<[i64; 2]>>,
}

/// One `[[hazard]]`: hazardous squares with a name, and the damage a creature placed there
/// takes if the file gives it (else what the hazard does is the GM's). [CEL-R10.10 Move]
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct HazardDef {
    name: Spanned<String>,
    squares: Spanned<Vec<[i64; 2]>>,
    damage: Option<Spanned<String>>,
}

/// One `[[device]]`: something Disable Device works on (CEL-R13, CEL-G3).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct DeviceDef {
    id: Spanned<String>,
    name: Option<String>,
    at: Spanned<[i64; 2]>,
    acts: Spanned<i64>,
    #[serde(default = "yes")]
    consecutive: bool,
    dc: Option<Spanned<i64>>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionsDef {
    flatfooted_until_regular_turn: Option<bool>,
    ranged_attack_provokes: Option<bool>,
    crit_confirmation: Option<bool>,
    crit_deck: Option<bool>,
    range_penalty: Option<Spanned<i64>>,
    multiple_attack_penalty: Option<Spanned<Vec<i64>>>,
    crippling_injuries: Option<bool>,
    massive_before_negation: Option<bool>,
    unarmed_str_only: Option<bool>,
    lethal_unarmed_minus_4: Option<bool>,
    minimum_damage: Option<Spanned<i64>>,
    scaling_choose_lower: Option<bool>,
    free_actions_per_turn: Option<Spanned<i64>>,
    strenuous_free_actions: Option<Spanned<Vec<String>>>,
    cmd_base: Option<Spanned<i64>>,
    flanking: Option<bool>,
    bleed_timing: Option<Spanned<String>>,
    weakened_attack_inverted: Option<bool>,
    splash_stray_increments: Option<Spanned<i64>>,
    multiweapon_repeat: Option<bool>,
    find_tracks_acts: Option<Spanned<i64>>,
    pick_up_acts: Option<Spanned<i64>>,
    pick_up_consecutive: Option<bool>,
    fastened_cmd: Option<Spanned<i64>>,
    retrieve_acts: Option<Spanned<i64>>,
    retrieve_consecutive: Option<bool>,
    untie_acts: Option<Spanned<i64>>,
    untie_consecutive: Option<bool>,
    nonlethal_coup_twice_max_hp: Option<bool>,
    prepare_components: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
    fire_damage: Option<Spanned<String>>,
    fire_save: Option<Spanned<String>>,
    fire_dc: Option<Spanned<i64>>,
    sleight_dc: Option<Spanned<i64>>,
    treat_wound_dc: Option<Spanned<i64>>,
    search_dc: Option<Spanned<i64>>,
    search_feet: Option<Spanned<i64>>,
    handle_dc: Option<Spanned<i64>>,
    push_dc: Option<Spanned<i64>>,
    handle_feet: Option<Spanned<i64>>,
}

fray_core::combatant_entry! {
    /// One `[[combatants]]` entry: the common keys plus a creature or a class and its gear.
    struct CombatantDef {
        monster: Option<Spanned<String>>,
        class: Option<Spanned<String>>,
        level: Option<Spanned<i64>>,
        hp: Option<Spanned<i64>>,
        start_hp: Option<Spanned<i64>>,
        nonlethal: Option<Spanned<i64>>,
        scores: Option<Spanned<BTreeMap<String, i64>>>,
        ability_penalty: Option<Spanned<BTreeMap<String, i64>>>,
        con_damage: Option<Spanned<i64>>,
        con_drain: Option<Spanned<i64>>,
        weapon: Option<Spanned<String>>,
        ranged: Option<Spanned<String>>,
        armor: Option<Spanned<String>>,
        shield: Option<Spanned<String>>,
        #[serde(default)]
        feats: Vec<Spanned<String>>,
        speed: Option<Spanned<i64>>,
        size: Option<Spanned<String>>,
        aware: Option<bool>,
        #[serde(default)]
        prone: bool,
        dv_bonus: Option<Spanned<i64>>,
        fort: Option<Spanned<i64>>,
        #[serde(default)]
        concealed: bool,
        disable_device: Option<Spanned<i64>>,
        spell_resistance: Option<Spanned<i64>>,
        heal: Option<Spanned<i64>>,
        escape_artist: Option<Spanned<i64>>,
        sleight_of_hand: Option<Spanned<i64>>,
        lore: Option<Spanned<i64>>,
        perception: Option<Spanned<i64>>,
        #[serde(default)]
        items: Vec<Spanned<String>>,
        #[serde(default)]
        invisible: bool,
        #[serde(default)]
        stored: Vec<Spanned<String>>,
        #[serde(default)]
        fastened: Vec<Spanned<String>>,
        #[serde(default)]
        locked_gauntlet: bool,
        #[serde(default)]
        netted: bool,
        #[serde(default)]
        on_fire: bool,
        conditions: Option<Spanned<Vec<Spanned<String>>>>,
        shield_strapped: Option<Spanned<bool>>,
        rope: Option<Spanned<i64>>,
        ammo: Option<Spanned<i64>>,
        loaded: Option<Spanned<i64>>,
        #[serde(default)]
        cartridges: bool,
        burn: Option<Spanned<i64>>,
        head_injuries: Option<Spanned<i64>>,
        #[serde(default)]
        injuries: Vec<Spanned<String>>,
        in_hand: Option<Spanned<Vec<String>>>,
        two_handed_grip: Option<Spanned<bool>>,
        mount: Option<Spanned<String>>,
        ride: Option<Spanned<i64>>,
        #[serde(default)]
        military_saddle: bool,
        combat_trained: Option<bool>,
        #[serde(default)]
        spells: Vec<Spanned<String>>,
        caster_level: Option<Spanned<i64>>,
        spell_dc: Option<Spanned<i64>>,
        concentration: Option<Spanned<i64>>,
        slots: Option<Spanned<Vec<i64>>>,
        reflex: Option<Spanned<i64>>,
        will: Option<Spanned<i64>>,
        intimidate: Option<Spanned<i64>>,
        survival: Option<Spanned<i64>>,
        spellcraft: Option<Spanned<i64>>,
        #[serde(default)]
        knows_maneuver: bool,
        #[serde(default)]
        stances: Vec<Spanned<String>>,
        #[serde(default)]
        maneuvers: Vec<Spanned<String>>,
        bluff: Option<Spanned<i64>>,
        sense_motive: Option<Spanned<i64>>,
        humanoid: Option<bool>,
        mindless: Option<bool>,
        handle_animal: Option<Spanned<i64>>,
        handle_free: Option<Spanned<bool>>,
        handler: Option<Spanned<String>>,
        tricks: Option<Spanned<Vec<Spanned<String>>>>,
        companion: Option<Spanned<bool>>,
    }
}

/// CEL-R11, R14, R15: the entry's `stances` and `maneuvers`, each a known entry of the right
/// kind of `Content::maneuvers` (a stance in `stances`, a strike or counter in `maneuvers`),
/// once, as their keys.
fn read_known(
    file: &SourceFile<'_>,
    i: usize,
    c: &CombatantDef,
    content: &Content,
    errors: &mut Vec<FileError>,
) -> Vec<String> {
    let mut keys = Vec::new();
    for (list, name) in [(&c.stances, "stances"), (&c.maneuvers, "maneuvers")] {
        for (j, entry) in list.iter().enumerate() {
            let at = Some(format!("combatants[{i}].{name}[{j}]"));
            let Some(m) = content.maneuvers.get(entry.get_ref()) else {
                errors.push(file.error(
                    entry.span(),
                    at,
                    content.maneuvers.unknown(
                        "maneuver or stance",
                        entry.get_ref(),
                        "content/celesia/maneuvers.toml",
                    ),
                ));
                continue;
            };
            let stance = m.stance().is_some();
            if stance != (name == "stances") {
                errors.push(file.error(
                    entry.span(),
                    at,
                    format!(
                        "`{}` is a {}: list stances in `stances`, strikes, boosts and \
                         counters in `maneuvers`",
                        entry.get_ref(),
                        m.what()
                    ),
                ));
                continue;
            }
            if keys.contains(&m.key()) {
                errors.push(file.error(entry.span(), at, "listed twice"));
                continue;
            }
            keys.push(m.key());
        }
    }
    keys
}

/// CEL-R11, R14, R15: every stance, strike and counter the combatants know, once each, in the
/// order first listed (at most `initiator::MAX_BOOK`), each profile's `known` bits over it.
fn maneuver_book(
    file: &SourceFile<'_>,
    def: &EncounterDef,
    state: &mut State,
    content: &Content,
    errors: &mut Vec<FileError>,
) -> Arc<[crate::initiator::Maneuver]> {
    let mut book: Vec<crate::initiator::Maneuver> = Vec::new();
    let mut profiles: Vec<Profile> = state.profiles.to_vec();
    if profiles.iter().all(|p| p.initiator.is_empty()) {
        return book.into();
    }
    for (i, p) in profiles.iter_mut().enumerate() {
        for key in &p.initiator {
            let place = match book.iter().position(|m| &m.key() == key) {
                Some(b) => b,
                None => {
                    if book.len() == crate::initiator::MAX_BOOK {
                        errors.push(file.error(
                            def.combatants.get(i).map_or(0..0, |c| c.id_span()),
                            Some(format!("combatants[{i}].maneuvers")),
                            format!(
                                "the combatants know more than {} stances, strikes and \
                                 counters between them",
                                crate::initiator::MAX_BOOK
                            ),
                        ));
                        return book.into();
                    }
                    let Some(m) = content.maneuvers.get(key) else {
                        continue;
                    };
                    book.push(m.clone());
                    book.len() - 1
                }
            };
            p.known |= 1 << place;
        }
    }
    state.profiles = profiles.into();
    book.into()
}

/// Reads an encounter file's text.
pub fn load(path: &str, text: &str, content: &Content) -> Result<Encounter, FileErrors> {
    fray_core::loader::load(
        path,
        text,
        Builder {
            content: Cow::Borrowed(content),
        },
    )
}

fn field(i: usize, name: &str) -> String {
    format!("combatants[{i}].{name}")
}

struct Builder<'c> {
    content: Cow<'c, Content>,
}

fn int(
    file: &SourceFile<'_>,
    i: usize,
    name: &str,
    value: &Option<Spanned<i64>>,
    (lo, hi): (i64, i64),
    errors: &mut Vec<FileError>,
) -> Option<i32> {
    let v = value.as_ref()?;
    let n = *v.get_ref();
    if (lo..=hi).contains(&n) {
        Some(n as i32)
    } else {
        errors.push(file.error(
            v.span(),
            Some(field(i, name)),
            format!("expected a whole number from {lo} to {hi}, found {n}"),
        ));
        None
    }
}

impl Builder<'_> {
    #[allow(clippy::too_many_arguments)]
    fn lookup<T: Clone>(
        &self,
        file: &SourceFile<'_>,
        i: usize,
        name: &str,
        value: &Option<Spanned<String>>,
        catalog: &fray_core::Catalog<T>,
        kind: &str,
        errors: &mut Vec<FileError>,
    ) -> Option<T> {
        let v = value.as_ref()?;
        let found = catalog.get(v.get_ref()).cloned();
        if found.is_none() {
            errors.push(file.error(
                v.span(),
                Some(field(i, name)),
                catalog.unknown(kind, v.get_ref(), &format!("fray content celesia {kind}s")),
            ));
        }
        found
    }

    fn profile(
        &self,
        file: &SourceFile<'_>,
        i: usize,
        c: &CombatantDef,
        errors: &mut Vec<FileError>,
    ) -> Option<Profile> {
        let before = errors.len();
        let content: &Content = &self.content;
        let mut profile = match (&c.monster, &c.class) {
            (Some(m), None) => {
                let Some(mon) = content.monsters.get(m.get_ref()) else {
                    errors.push(file.error(
                        m.span(),
                        Some(field(i, "monster")),
                        content.monsters.unknown(
                            "monster",
                            m.get_ref(),
                            "fray content celesia monsters",
                        ),
                    ));
                    return None;
                };
                Profile {
                    level: 0,
                    bab: mon.bab,
                    scores: mon.scores,
                    size: mon.size,
                    max_hp: mon.hp,
                    dv_bonus: mon.dv_bonus,
                    shield: None,
                    sneak_dice: 0,
                    max_dex: mon.max_dex,
                    speed: mon.speed,
                    fort: mon.fort,
                    // CEL-R8: "Any part of your body counts as an unarmed strike … You need to
                    // be rendered helpless to prevent you from using unarmed strikes": every
                    // creature has one, after its own forms (their numbers stay).
                    melee: {
                        let mut melee = mon.attacks.clone();
                        if !melee.iter().any(|w| w.kind == WeaponKind::Unarmed) {
                            melee.push(Weapon::unarmed(mon.size));
                        }
                        melee
                    },
                    ranged: mon.ranged.clone(),
                    feats: mon.feats,
                    immune_crit: mon.immune_crit,
                    disable_device: 0,
                    spell_resistance: 0,
                    ride: 0,
                    military_saddle: false,
                    combat_trained: true,
                    mount_key: None,
                    legs: mon.legs,
                    arms: mon.arms,
                    heal: 0,
                    escape_artist: 0,
                    sleight_of_hand: 0,
                    lore: 0,
                    perception: 0,
                    bestiary: Some(mon.name.clone()),
                    handle_animal: 0,
                    handle_free: false,
                    animal: None,
                    handles: false,
                    items: Vec::new(),
                    stored: Vec::new(),
                    fastened: Vec::new(),
                    reflex: 0,
                    will: 0,
                    magic: Default::default(),
                    cartridges: false,
                    gm_said: Default::default(),
                    initiator: Vec::new(),
                    known: 0,
                }
            }
            (None, Some(cl)) => {
                let Some(class) = content.classes.get(cl.get_ref()) else {
                    errors.push(file.error(
                        cl.span(),
                        Some(field(i, "class")),
                        content.classes.unknown(
                            "class",
                            cl.get_ref(),
                            "fray content celesia classes",
                        ),
                    ));
                    return None;
                };
                let level = int(
                    file,
                    i,
                    "level",
                    &c.level,
                    (1, class.bab.len() as i64),
                    errors,
                )
                .unwrap_or(1);
                let Some(hp) = &c.hp else {
                    errors.push(file.error(
                        c.id_span(),
                        Some(field(i, "hp")),
                        "a character needs `hp` (its hit points)",
                    ));
                    return None;
                };
                let hp = *hp.get_ref() as i32;
                let mut scores = [10; 6];
                if let Some(s) = &c.scores {
                    read_scores(file, &field(i, "scores"), s, &mut scores, errors);
                }
                let mut melee: Vec<Weapon> = self
                    .lookup(
                        file,
                        i,
                        "weapon",
                        &c.weapon,
                        &content.weapons,
                        "weapon",
                        errors,
                    )
                    .into_iter()
                    .collect();
                if let (Some(w), Some(v)) = (melee.first(), &c.weapon) {
                    if w.kind.is_ranged() && w.kind != WeaponKind::Thrown {
                        errors.push(file.error(
                            v.span(),
                            Some(field(i, "weapon")),
                            format!("`{}` is a projectile weapon; name it in `ranged`", w.name),
                        ));
                    }
                }
                melee.push(Weapon::unarmed(Size::Medium));
                let ranged = self.lookup(
                    file,
                    i,
                    "ranged",
                    &c.ranged,
                    &content.weapons,
                    "weapon",
                    errors,
                );
                if let (Some(r), Some(v)) = (&ranged, &c.ranged) {
                    if !r.kind.is_ranged() {
                        errors.push(file.error(
                            v.span(),
                            Some(field(i, "ranged")),
                            format!("`{}` is not a projectile or thrown weapon", r.name),
                        ));
                    }
                }
                let armor =
                    self.lookup(file, i, "armor", &c.armor, &content.armor, "armour", errors);
                let shield = self.lookup(
                    file,
                    i,
                    "shield",
                    &c.shield,
                    &content.shields,
                    "shield",
                    errors,
                );
                let lv = level as usize - 1;
                let mut feats = class.feats;
                if class.uncanny_dodge.is_some_and(|l| level >= l) {
                    feats.uncanny_dodge = true;
                }
                // CEL-R9 Spell Combat, R11 Spellstrike: the magus's class features by level.
                feats.spell_combat |= class.spell_combat.is_some_and(|l| level >= l);
                feats.spellstrike |= class.spellstrike.is_some_and(|l| level >= l);
                Profile {
                    level,
                    bab: class.bab[lv],
                    scores,
                    size: Size::Medium,
                    max_hp: hp,
                    dv_bonus: armor.as_ref().map_or(0, |a| a.dv),
                    shield,
                    sneak_dice: class.sneak_attack.get(lv).copied().unwrap_or(0),
                    max_dex: armor.as_ref().map_or(30, |a| a.max_dex),
                    speed: 30,
                    fort: class.fort[lv] + crate::state::modifier(scores[CON]),
                    melee,
                    ranged,
                    feats,
                    immune_crit: false,
                    disable_device: 0,
                    spell_resistance: 0,
                    ride: 0,
                    military_saddle: false,
                    combat_trained: true,
                    mount_key: None,
                    legs: 2,
                    arms: 2,
                    heal: 0,
                    escape_artist: 0,
                    sleight_of_hand: 0,
                    lore: 0,
                    perception: 0,
                    bestiary: None,
                    handle_animal: 0,
                    handle_free: false,
                    animal: None,
                    handles: false,
                    items: Vec::new(),
                    stored: Vec::new(),
                    fastened: Vec::new(),
                    reflex: 0,
                    will: 0,
                    magic: Default::default(),
                    cartridges: false,
                    gm_said: Default::default(),
                    initiator: Vec::new(),
                    known: 0,
                }
            }
            _ => {
                errors.push(file.error(
                    c.id_span(),
                    Some(field(i, "monster")),
                    "give exactly one of `monster = \"…\"` or `class = \"…\"`",
                ));
                return None;
            }
        };
        if c.monster.is_some() {
            if let Some(s) = &c.scores {
                read_scores(file, &field(i, "scores"), s, &mut profile.scores, errors);
            }
            if let Some(hp) = int(file, i, "hp", &c.hp, (1, 100_000), errors) {
                profile.max_hp = hp;
            }
            for (name, v) in [
                ("weapon", &c.weapon),
                ("armor", &c.armor),
                ("shield", &c.shield),
            ] {
                if let Some(v) = v {
                    errors.push(file.error(
                        v.span(),
                        Some(field(i, name)),
                        "a creature's gear is in its bestiary entry; define a `[[monster]]` in \
                         the encounter to change it",
                    ));
                }
            }
        }
        if c.class.is_some() && !(1..=100_000).contains(&profile.max_hp) {
            errors.push(file.error(
                c.hp.as_ref().map_or(c.id_span(), |h| h.span()),
                Some(field(i, "hp")),
                "expected at least 1 hit point",
            ));
        }
        read_feats(
            file,
            &field(i, "feats"),
            &c.feats,
            &mut profile.feats,
            errors,
        );
        if let Some(s) = int(file, i, "speed", &c.speed, (5, 200), errors) {
            profile.speed = s;
        }
        if let Some(d) = int(file, i, "dv_bonus", &c.dv_bonus, (-10, 60), errors) {
            profile.dv_bonus = d;
        }
        if let Some(f) = int(file, i, "fort", &c.fort, (-10, 40), errors) {
            profile.fort = f;
        }
        if let Some(d) = int(
            file,
            i,
            "disable_device",
            &c.disable_device,
            (-10, 60),
            errors,
        ) {
            profile.disable_device = d;
        }
        // CEL-R9 Lower or Reactivate Spell Resistance: the seed names spell resistance and
        // gives no numbers; Pathfinder's run to the 30s (`rules::spell_resistance`).
        if let Some(sr) = int(
            file,
            i,
            "spell_resistance",
            &c.spell_resistance,
            (1, 50),
            errors,
        ) {
            profile.spell_resistance = sr;
        }
        if let Some(h) = int(file, i, "heal", &c.heal, (-10, 60), errors) {
            profile.heal = h;
        }
        if let Some(e) = int(
            file,
            i,
            "escape_artist",
            &c.escape_artist,
            (-10, 60),
            errors,
        ) {
            profile.escape_artist = e;
        }
        if let Some(e) = int(
            file,
            i,
            "sleight_of_hand",
            &c.sleight_of_hand,
            (-10, 60),
            errors,
        ) {
            profile.sleight_of_hand = e;
        }
        // CEL-R9 Recall Knowledge (Lore) and Search (Perception).
        if let Some(l) = int(file, i, "lore", &c.lore, (-10, 60), errors) {
            profile.lore = l;
        }
        if let Some(p) = int(file, i, "perception", &c.perception, (-10, 60), errors) {
            profile.perception = p;
        }
        // CEL-R11, R12 items at hand; CEL-R9 items stored in a container (`stored`).
        for (key, names) in [("items", &c.items), ("stored", &c.stored)] {
            if names.len() > MAX_ITEMS {
                errors.push(file.error(
                    names[MAX_ITEMS].span(),
                    Some(field(i, key)),
                    format!("at most {MAX_ITEMS} items"),
                ));
            }
            for name in names.iter().take(MAX_ITEMS) {
                match content.items.get(name.get_ref()) {
                    Some(gear) if key == "items" => profile.items.push(gear.clone()),
                    Some(gear) => profile.stored.push(gear.clone()),
                    None => {
                        errors.push(file.error(
                            name.span(),
                            Some(field(i, key)),
                            content.items.unknown(
                                "item",
                                name.get_ref(),
                                "fray content celesia items",
                            ),
                        ))
                    }
                }
            }
        }
        // CEL-R10.13: items at hand fastened to it (+5 CMD against a steal of one).
        if c.fastened.len() > MAX_ITEMS {
            errors.push(file.error(
                c.fastened[MAX_ITEMS].span(),
                Some(field(i, "fastened")),
                format!("at most {MAX_ITEMS} items"),
            ));
        }
        for name in c.fastened.iter().take(MAX_ITEMS) {
            let listed = content
                .items
                .get(name.get_ref())
                .filter(|gear| profile.items.iter().any(|g| g.name == gear.name));
            match listed {
                Some(gear) => profile.fastened.push(gear.name.clone()),
                None => errors.push(file.error(
                    name.span(),
                    Some(field(i, "fastened")),
                    format!(
                        "`{}` is not among its `items` (only an item at hand can be fastened \
                         to it; `stored` ones are in a container, securely worn)",
                        name.get_ref()
                    ),
                )),
            }
        }
        profile.cartridges = c.cartridges;
        // CEL-R11 Feint: a monster is a humanoid or has no Intelligence score as its content
        // says; a character of a class is a humanoid with one (a reading); the entry may say
        // otherwise (`humanoid`, `mindless`).
        let (humanoid, mindless) = match c
            .monster
            .as_ref()
            .and_then(|m| content.monsters.get(m.get_ref()))
        {
            Some(mon) => (mon.humanoid, mon.mindless),
            None => (true, false),
        };
        let feint = crate::rules::feint::FeintSaid {
            bluff: int(file, i, "bluff", &c.bluff, (-10, 60), errors),
            sense_motive: int(file, i, "sense_motive", &c.sense_motive, (-10, 60), errors),
            non_humanoid: !c.humanoid.unwrap_or(humanoid),
            mindless: c.mindless.unwrap_or(mindless),
        };
        // CEL-R9, R13, R16.5: what the GM says of it for the actions the seed leaves to the GM.
        profile.gm_said = crate::rules::ruling::GmSaid {
            feint,
            intimidate: int(file, i, "intimidate", &c.intimidate, (-10, 60), errors),
            survival: int(file, i, "survival", &c.survival, (-10, 60), errors),
            spellcraft: int(file, i, "spellcraft", &c.spellcraft, (-10, 60), errors),
            knows_maneuver: c.knows_maneuver,
        };
        profile.initiator = read_known(file, i, c, content, errors);
        if let Some(r) = int(file, i, "ride", &c.ride, (-10, 60), errors) {
            profile.ride = r;
        }
        profile.military_saddle = c.military_saddle;
        profile.combat_trained = c.combat_trained.unwrap_or(true);
        profile.mount_key = c.mount.as_ref().map(|m| m.get_ref().clone());
        if let Some(s) = &c.size {
            match Size::ALL.iter().find(|z| z.key() == s.get_ref()) {
                Some(z) => {
                    profile.size = *z;
                    for w in &mut profile.melee {
                        if w.kind == WeaponKind::Unarmed {
                            *w = Weapon::unarmed(*z);
                        }
                    }
                }
                None => errors.push(file.error(
                    s.span(),
                    Some(field(i, "size")),
                    "expected small, medium, large or huge",
                )),
            }
        }
        profile.reflex = int(file, i, "reflex", &c.reflex, (-10, 40), errors)
            .unwrap_or_else(|| crate::state::modifier(profile.scores[crate::state::DEX]));
        profile.will = int(file, i, "will", &c.will, (-10, 40), errors)
            .unwrap_or_else(|| crate::state::modifier(profile.scores[crate::state::WIS]));
        if let Some(magic) = self.magic(file, i, c, errors) {
            profile.magic = std::sync::Arc::new(magic);
        }
        // CEL-R9 Handle an Animal, R12 Push an Animal: a Charisma skill (Pathfinder's).
        profile.handle_animal = int(
            file,
            i,
            "handle_animal",
            &c.handle_animal,
            (-10, 60),
            errors,
        )
        .unwrap_or_else(|| profile.m(crate::state::CHA));
        profile.handle_free = c.handle_free.as_ref().is_some_and(|b| *b.get_ref());
        profile.animal = read_trained(file, i, c, &profile, errors);
        (errors.len() == before).then_some(profile)
    }

    /// A caster's `spells` (from the content's spells) with its `caster_level`, `spell_dc` and
    /// `concentration` (default: the caster level). [CEL-R6, R14]
    fn magic(
        &self,
        file: &SourceFile<'_>,
        i: usize,
        c: &CombatantDef,
        errors: &mut Vec<FileError>,
    ) -> Option<crate::state::Magic> {
        let caster_level = int(file, i, "caster_level", &c.caster_level, (1, 40), errors);
        let spell_dc = int(file, i, "spell_dc", &c.spell_dc, (1, 100), errors);
        let concentration = int(
            file,
            i,
            "concentration",
            &c.concentration,
            (-10, 60),
            errors,
        );
        if c.spells.is_empty() {
            for (name, v) in [
                ("caster_level", &c.caster_level),
                ("spell_dc", &c.spell_dc),
                ("concentration", &c.concentration),
            ] {
                if let Some(v) = v {
                    errors.push(file.error(
                        v.span(),
                        Some(field(i, name)),
                        "only a caster (a combatant with `spells`) has this",
                    ));
                }
            }
            if let Some(v) = &c.slots {
                errors.push(file.error(
                    v.span(),
                    Some(field(i, "slots")),
                    "only a caster (a combatant with `spells`) has this",
                ));
            }
            return None;
        }
        let mut spells = Vec::new();
        for (j, name) in c.spells.iter().enumerate().take(64) {
            match self.content.spells.get(name.get_ref()) {
                Some(sp) => spells.push(sp.clone()),
                None => errors.push(file.error(
                    name.span(),
                    Some(format!("combatants[{i}].spells[{j}]")),
                    self.content.spells.unknown(
                        "spell",
                        name.get_ref(),
                        "content/celesia/spells.toml",
                    ),
                )),
            }
        }
        if c.spells.len() > 64 {
            errors.push(file.error(
                c.spells[64].span(),
                Some(field(i, "spells")),
                "at most 64 spells",
            ));
        }
        let Some(caster_level) = caster_level else {
            errors.push(file.error(
                c.id_span(),
                Some(field(i, "caster_level")),
                "a caster needs `caster_level` (CEL-R6: degrees change it)",
            ));
            return None;
        };
        let needs_dc = spells.iter().any(|s| s.save.is_some());
        if needs_dc && spell_dc.is_none() {
            errors.push(file.error(
                c.id_span(),
                Some(field(i, "spell_dc")),
                "a caster of a spell that allows a save needs `spell_dc` (the seed gives no \
                 formula: \"The spell DC is 17\")",
            ));
            return None;
        }
        let slots = match &c.slots {
            None => None,
            Some(v) => {
                let mut per_level = [0u8; 10];
                let list = v.get_ref();
                if list.len() > 9 || list.iter().any(|n| !(0..=99).contains(n)) {
                    errors.push(file.error(
                        v.span(),
                        Some(field(i, "slots")),
                        "expected at most 9 whole numbers from 0 to 99: the slots of spell \
                         levels 1, 2, 3… (level 0 is cast at will)",
                    ));
                    return None;
                }
                for (level, n) in list.iter().enumerate() {
                    per_level[level + 1] = *n as u8;
                }
                Some(per_level)
            }
        };
        Some(crate::state::Magic {
            spells,
            caster_level,
            spell_dc: spell_dc.unwrap_or(0),
            concentration: concentration.unwrap_or(caster_level),
            slots,
        })
    }
}

impl CombatantBuilder for Builder<'_> {
    type File = EncounterDef;
    type Member = (Profile, Fighter);
    type State = State;
    const RULESET: RulesetId = RulesetId::Celesia;

    fn prepare(&mut self, cx: &mut Loader<'_>, def: &EncounterDef) {
        let inline = ContentFile {
            weapon: def.weapon.clone(),
            armor: def.armor.clone(),
            shield: def.shield.clone(),
            class: def.class.clone(),
            monster: def.monster.clone(),
            spell: Vec::new(),
            item: Vec::new(),
            stance: def.stance.clone(),
            strike: def.strike.clone(),
            boost: def.boost.clone(),
            counter: def.counter.clone(),
        };
        if let Cow::Owned(content) = self.content.with_inline(&cx.file, &inline, &mut cx.errors) {
            self.content = Cow::Owned(content);
        }
    }

    fn default_name(&self, c: &CombatantDef) -> Option<String> {
        let m = c.monster.as_ref()?;
        Some(
            self.content
                .monsters
                .get(m.get_ref())
                .map_or_else(|| m.get_ref().clone(), |m| m.name.clone()),
        )
    }

    fn member(
        &mut self,
        cx: &mut Loader<'_>,
        i: usize,
        c: &CombatantDef,
    ) -> Option<(Profile, Fighter)> {
        let file = cx.file;
        let errors = &mut cx.errors;
        let profile = self.profile(&file, i, c, errors)?;
        let con = profile.con();
        let hp = match int(&file, i, "start_hp", &c.start_hp, (-1000, 100_000), errors) {
            Some(h) if h > profile.max_hp || h <= -2 * con => {
                errors.push(file.error(
                    c.start_hp.as_ref().map_or(0..0, |s| s.span()),
                    Some(field(i, "start_hp")),
                    format!(
                        "expected more than -{} (dead) and at most the maximum, {}",
                        2 * con,
                        profile.max_hp
                    ),
                ));
                return None;
            }
            Some(h) => h,
            None => profile.max_hp,
        };
        let nonlethal = int(&file, i, "nonlethal", &c.nonlethal, (0, 100_000), errors).unwrap_or(0);
        let burn = int(&file, i, "burn", &c.burn, (0, 100_000), errors).unwrap_or(0);
        // CEL-R9 Ready or Drop a Shield: its shield is strapped on unless the entry says not.
        let shield = match &c.shield_strapped {
            Some(s) if profile.shield.is_none() => {
                errors.push(file.error(
                    s.span(),
                    Some(field(i, "shield_strapped")),
                    "it has no shield to strap on: give the character a `shield` (a creature's \
                     comes with its bestiary entry)",
                ));
                ShieldAt::Strapped
            }
            Some(s) if !*s.get_ref() => ShieldAt::Carried,
            _ => ShieldAt::Strapped,
        };
        let fighter = Fighter {
            side: fray_core::SideId(0),
            pos: fray_core::Pos::new(0, 0),
            hp,
            nonlethal,
            aware: c.aware.unwrap_or(true),
            initiative: 0,
            initiative_die: 0,
            turns: 0,
            flat_footed: !profile.feats.uncanny_dodge,
            reactions: 0,
            acts_left: 0,
            attacks_this_turn: 0,
            melee_attacked: false,
            magus: Default::default(),
            acted: false,
            delaying: false,
            prone: c.prone,
            stable: false,
            dead: false,
            gone: None,
            charged: false,
            charge_target: None,
            total_defense: 0,
            feints: Vec::new(),
            defensive: false,
            defensive_attacks: false,
            deal_nonlethal: None,
            specials: Default::default(),
            injuries: Injuries::of(profile.legs, profile.arms),
            bleed: 0,
            confusion: Default::default(),
            dealt: 0,
            taken: 0,
            running: false,
            run_rounds: 0,
            run_checks: 0,
            fatigued_until: 0,
            concealed: c.concealed,
            invisible: c.invisible,
            known_to: 0,
            command: None,
            tied: None,
            ropes: int(
                &file,
                i,
                "rope",
                &c.rope,
                (0, i64::from(crate::rules::belonging::MAX_ROPES)),
                errors,
            )
            .unwrap_or(0) as u8,
            gear: Vec::new(),
            packed: Vec::new(),
            fastened: Vec::new(),
            // CEL-R11 Lock or Unlock a Weapon in a Locked Gauntlet: it wears one, empty.
            gauntlet: if c.locked_gauntlet {
                crate::rules::gauntlet::Gauntlet::Open
            } else {
                crate::rules::gauntlet::Gauntlet::None
            },
            netted: c.netted,
            on_fire: c.on_fire,
            out_cold: false,
            shield,
            shield_dv: if shield == ShieldAt::Strapped {
                profile.shield.as_ref().map_or(0, |s| s.dv)
            } else {
                0
            },
            task: None,
            act_clock: 0,
            tricks: Default::default(),
            table_conditions: Default::default(),
            reacting: false,
            reach_bonus: 0,
            dropped: 0,
            dropped_ranged: false,
            weakened: 0,
            cleave_from: None,
            cleave_chain: Vec::new(),
            cleave_round: None,
            cleaving: false,
            aids: Vec::new(),
            skill_aids: Vec::new(),
            riding: None,
            rider: None,
            moved_ft: 0,
            riderless: false,
            saddle_checked: false,
            saddle: Default::default(),
            control: None,
            mount_charge: None,
            knees: None,
            grip: false,
            readied: None,
            stance: None,
            stance_turn: None,
            maneuvers_spent: [0; crate::initiator::MAX_BOOK],
            striking: None,
            boosted: 0,
            maneuvering: false,
            countering: None,
            aim_acts: 0,
            aim_clock: 0,
            weaken_ability: 0,
            weaken_degrees: 0,
            hold: None,
            held_by: None,
            maintained: false,
            escapes: 0,
            on_ground: Vec::new(),
            gear_on_ground: Vec::new(),
            ropes_on_ground: Vec::new(),
            thrown: Vec::new(),
            flight: None,
            item_damage: Vec::new(),
            follow: None,
            burn,
            special_steps: [0; 8],
            hands_tracked: false,
            sr_lowered: false,
            sheathed: 0,
            ranged_sheathed: false,
            move_at: None,
            charge_at: None,
            one_round: None,
            free_actions: 0,
            gm_dv: 0,
            gm_dc: 0,
            temp_hp: 0,
            tracks_acts: 0,
            haste: None,
            drained: Default::default(),
            slots_spent: [0; 10],
            lasting: Vec::new(),
            spell_weapon: None,
            ammo: None,
            loaded: 0,
            free_loads: 0,
            prepared: false,
            multiweapon_turn: None,
            free_handle_turn: None,
            hand: None,
        };
        let mut fighter = fighter;
        read_conditions(&file, i, c, &mut fighter, errors);
        // CEL-R18: head injuries taken before the fight (counted toward the CON cap, as any
        // injury); three or more: permanently confused (`rules::confusion`).
        let head = int(&file, i, "head_injuries", &c.head_injuries, (0, 5), errors).unwrap_or(0);
        fighter.injuries.head = head as u8;
        fighter.injuries.count = head as u8;
        read_injuries(
            &file,
            &field(i, "injuries"),
            &c.injuries,
            con,
            &mut fighter,
            errors,
        );
        fighter.confusion.on = fighter.injuries.confused();
        // CEL-R6.2: ability penalties it has from before the fight (adopted reading).
        if let Some(p) = &c.ability_penalty {
            let at = field(i, "ability_penalty");
            crate::spell::read_lasting_penalties(&file, &at, p, &mut fighter.drained, errors);
            if crate::state::band_of(&fighter, &profile) == crate::state::Band::Dead {
                errors.push(file.error(
                    p.span(),
                    Some(at),
                    "its Constitution penalty puts its `start_hp` at the dead band \
                     (-2 x the Constitution score, CEL-R17)",
                ));
                return None;
            }
        }
        // CEL-R17.9: Constitution damage and drain from before the fight, down to a score of 1
        // (at 0 it would be dead).
        for (key, value, drain) in [
            ("con_damage", &c.con_damage, false),
            ("con_drain", &c.con_drain, true),
        ] {
            let Some(v) = value else { continue };
            let left = crate::state::score_of(&fighter, &profile, crate::state::CON);
            let n = *v.get_ref();
            if !(1..i64::from(left)).contains(&n) {
                errors.push(file.error(
                    v.span(),
                    Some(field(i, key)),
                    format!(
                        "expected a whole number from 1 to {}: its Constitution score is {left} \
                         here, and Constitution damage or drain that reduces it to 0 kills \
                         (CEL-R17.9), found {n}",
                        left - 1
                    ),
                ));
                return None;
            }
            crate::rules::con_loss::set_lost_in(&mut fighter.drained, drain, n as i32);
            if crate::state::band_of(&fighter, &profile) == crate::state::Band::Dead {
                errors.push(file.error(
                    v.span(),
                    Some(field(i, key)),
                    "it puts its `start_hp` at the dead band (-2 x the Constitution score,                      CEL-R17)",
                ));
                return None;
            }
        }
        // CEL-R9 Draw or Sheathe: what it holds at the start; the rest is put away.
        if let Some(keys) = &c.in_hand {
            let shield_hand = i32::from(
                fighter.shield == ShieldAt::Strapped
                    && profile.shield.as_ref().is_some_and(|s| s.hand),
            );
            match crate::rules::wield::start_in_hand(&profile, keys.get_ref(), shield_hand) {
                Ok((sheathed, ranged)) => {
                    fighter.hands_tracked = true;
                    fighter.sheathed = sheathed;
                    fighter.ranged_sheathed = ranged;
                }
                Err(reason) => {
                    errors.push(file.error(keys.span(), Some(field(i, "in_hand")), &reason))
                }
            }
        }
        // CEL-R5.1: its one-handed melee weapon held in both hands from the start (checked
        // once the fight is set up: `check_grips`).
        fighter.grip = c.two_handed_grip.as_ref().is_some_and(|g| *g.get_ref());
        // CEL-R9–R13: ammunition counted where the entry gives it, and what is loaded at the
        // start (a weapon that is loaded starts full unless `loaded` says less).
        match crate::rules::ammo::start(
            &profile,
            int(&file, i, "ammo", &c.ammo, (0, 10_000), errors),
            int(&file, i, "loaded", &c.loaded, (0, 12), errors),
        ) {
            Ok((ammo, loaded)) => {
                fighter.ammo = ammo;
                fighter.loaded = loaded;
            }
            Err((key, reason)) => {
                let span = match key {
                    "loaded" => c.loaded.as_ref().map(|s| s.span()),
                    _ => c.ammo.as_ref().map(|s| s.span()),
                };
                errors.push(file.error(
                    span.unwrap_or_else(|| c.id_span()),
                    Some(field(i, key)),
                    &reason,
                ));
            }
        }
        Some((profile, fighter))
    }

    fn place(&self, (_, fighter): &mut (Profile, Fighter), placed: Placed) {
        fighter.side = placed.side;
        fighter.pos = placed.pos;
    }

    fn finish(
        self,
        cx: &mut Loader<'_>,
        def: &EncounterDef,
        roster: Roster,
        members: Vec<(Profile, Fighter)>,
    ) -> State {
        let file = cx.file;
        let mut options = read_options(&file, &def.options, &mut cx.errors);
        options.prepare_components = read_components(
            &file,
            &def.options.prepare_components,
            &self.content,
            &mut cx.errors,
        );
        let devices = read_devices(&file, &def.device, &roster, &mut cx.errors);
        let (profiles, fighters): (Vec<Profile>, Vec<Fighter>) = members.into_iter().unzip();
        let mut state = State::new(
            Arc::new(roster),
            profiles.into(),
            fighters,
            Arc::new(options),
        );
        state.disabled = vec![false; devices.len()];
        state.devices = devices.into();
        state.hazards = read_hazards(&file, &def.hazard, &mut cx.errors).into();
        let mut book: Vec<crate::spell::Spell> = Vec::new();
        for p in state.profiles.iter() {
            // CEL-R11: the spells of the items it carries too (`rules::item`).
            let items = p.items.iter().chain(&p.stored);
            for sp in p.magic.spells.iter().chain(items.filter_map(|g| g.spell())) {
                if !book.iter().any(|b| b.name == sp.name) {
                    let mut sp = sp.clone();
                    // CEL-R5.6: a spell's weapon takes its shape's critical (checked on load).
                    let shape = sp
                        .weapon_shape
                        .as_deref()
                        .and_then(|n| self.content.weapons.get(n));
                    if let (Some(w), Some(shape)) = (sp.weapon.as_mut(), shape) {
                        w.shaped_as(shape);
                    }
                    book.push(sp);
                }
            }
        }
        state.spellbook = book.into();
        state.maneuver_book = maneuver_book(&file, def, &mut state, &self.content, &mut cx.errors);
        // CEL-R11, R12: the kinds of items carried, once each; each combatant's items by them.
        let mut gear_book: Vec<crate::rules::item::Gear> = Vec::new();
        for id in 0..state.fighters.len() {
            let (items, stored) = (
                state.profiles[id].items.clone(),
                state.profiles[id].stored.clone(),
            );
            for (gear, packed) in items
                .into_iter()
                .map(|g| (g, false))
                .chain(stored.into_iter().map(|g| (g, true)))
            {
                let book = match gear_book.iter().position(|g| g.name == gear.name) {
                    Some(b) => b,
                    None => {
                        gear_book.push(gear.clone());
                        gear_book.len() - 1
                    }
                };
                let book = u8::try_from(book).unwrap_or(u8::MAX);
                let fastened = !packed && state.profiles[id].fastened.contains(&gear.name);
                let f = &mut state.fighters[id];
                if packed { &mut f.packed } else { &mut f.gear }.push((book, gear.uses));
                if fastened && !f.fastened.contains(&book) {
                    f.fastened.push(book);
                }
            }
        }
        state.gear_book = gear_book.into();
        seat_riders(&file, def, &mut state, &mut cx.errors);
        check_grips(&file, def, &state, &mut cx.errors);
        state.gripped = crate::state::CacheFlag(state.ids().any(|id| state.f(id).grip));
        link_handlers(&file, def, &mut state, &mut cx.errors);
        fill_spaces(&file, def, &mut state, &mut cx.errors);
        state.terrain = read_terrain(&file, def, &state, &mut cx.errors).into();
        crate::support_tactics::prepare(&mut state);
        crate::heal_tactics::prepare(&mut state);
        crate::hinder_tactics::prepare(&mut state);
        crate::grip_tactics::prepare(&mut state);
        state
    }

    /// A rider and its mount share a square (CEL-R21.3).
    fn may_share(&self, first: &(Profile, Fighter), second: &(Profile, Fighter)) -> bool {
        first.0.mount_key.is_some() != second.0.mount_key.is_some()
    }
}

/// Gives each Large or larger combatant, and each rider, its whole space in the occupancy index
/// (CEL-R21.3), and refuses a space that takes in another's square (a rider's mount aside).
fn fill_spaces(
    file: &SourceFile<'_>,
    def: &EncounterDef,
    state: &mut State,
    errors: &mut Vec<FileError>,
) {
    let big: Vec<CombatantId> = state.ids().filter(|&id| state.side(id) > 1).collect();
    for &id in &big {
        state.settle(id);
    }
    // A rider's space is its mount's: the mount reports a clash.
    for &id in big.iter().filter(|&&id| state.f(id).riding.is_none()) {
        let f = state.f(id);
        let (rider, mount) = (f.rider, f.riding);
        let mut clash = None;
        for q in crate::space::squares(f.pos, state.side(id)) {
            clash = clash.or(state.occupancy.first_at(q, |o| {
                o != id && Some(o) != rider && Some(o) != mount && state.f(o).riding != Some(id)
            }));
        }
        let Some(other) = clash else { continue };
        if other < id && big.contains(&other) {
            continue; // reported once, at the first of the two
        }
        let group = &state.roster.combatants[id.index()].group;
        let entry = def
            .combatants
            .iter()
            .position(|c| c.id.as_ref().is_some_and(|i| i.get_ref() == group));
        let span = entry
            .and_then(|i| def.combatants[i].at.as_ref())
            .map_or(0..0, |a| a.span());
        errors.push(file.error(
            span,
            Some(format!("combatants[{}].at", entry.unwrap_or(0))),
            format!(
                "`{}` fills {} × {} squares from its `at` (its size's space, CEL-R21.3), \
                 which takes in the square of `{}`",
                state.roster.key(id),
                state.side(id),
                state.side(id),
                state.roster.key(other)
            ),
        ));
    }
}

/// Seats each rider on the mount its `mount` key names: a combatant of its own side on its own
/// square, not itself a rider, with one rider. [CEL-R21.2, R21.3]
/// Refuses a `two_handed_grip` its combatant cannot hold (`rules::grip::refusal`), naming the
/// rule. [CEL-R5.1, R9, R18]
fn check_grips(
    file: &SourceFile<'_>,
    def: &EncounterDef,
    state: &State,
    errors: &mut Vec<FileError>,
) {
    let mut reported = Vec::new();
    for id in state.ids().filter(|&id| state.f(id).grip) {
        let Some((rule, why)) = crate::rules::grip::refusal(state, id, true) else {
            continue;
        };
        let group = &state.roster.combatants[id.index()].group;
        let entry = def
            .combatants
            .iter()
            .position(|c| c.id.as_ref().is_some_and(|k| k.get_ref() == group));
        let span = entry
            .and_then(|i| def.combatants[i].two_handed_grip.as_ref())
            .map_or(0..0, |g| g.span());
        let field = Some(format!(
            "combatants[{}].two_handed_grip",
            entry.unwrap_or(0)
        ));
        // A group's members share the entry: one error for it.
        if reported.contains(&entry) {
            continue;
        }
        reported.push(entry);
        errors.push(file.error(span, field, format!("{why} ({rule})")));
    }
}

fn seat_riders(
    file: &SourceFile<'_>,
    def: &EncounterDef,
    state: &mut State,
    errors: &mut Vec<FileError>,
) {
    for rider in state.ids().collect::<Vec<_>>() {
        let Some(key) = state.p(rider).mount_key.clone() else {
            continue;
        };
        let group = &state.roster.combatants[rider.index()].group;
        let entry = def
            .combatants
            .iter()
            .position(|c| c.id.as_ref().is_some_and(|id| id.get_ref() == group));
        let span = entry
            .and_then(|i| def.combatants[i].mount.as_ref())
            .map_or(0..0, |m| m.span());
        let field = Some(format!("combatants[{}].mount", entry.unwrap_or(0)));
        let mount = state.roster.find(&key).filter(|&m| {
            m != rider
                && state.f(m).side == state.f(rider).side
                && state.f(m).pos == state.f(rider).pos
                && state.p(m).mount_key.is_none()
                && state.f(m).rider.is_none()
        });
        match mount {
            Some(m) => {
                state.fm(rider).riding = Some(m);
                state.fm(m).rider = Some(rider);
                state.linked = crate::state::CacheFlag(true);
            }
            None => errors.push(file.error(
                span,
                field,
                format!(
                    "`{key}` is not a mount for it: expected a combatant of its side on its \
                     square, not itself riding, with no other rider"
                ),
            )),
        }
    }
}

/// The entry's `conditions`: each a condition of the advantage table (CEL-R4.5), once, at
/// most all eleven; each lasts until the GM ends it (`cond WHO -NAME`). [CEL-G13]
fn read_conditions(
    file: &SourceFile<'_>,
    i: usize,
    c: &CombatantDef,
    fighter: &mut Fighter,
    errors: &mut Vec<FileError>,
) {
    use crate::rules::table_condition::{Settable, MAX_LISTED};
    let list = c
        .conditions
        .as_ref()
        .map_or(&[][..], |t| t.get_ref().as_slice());
    if let Some(extra) = list.get(MAX_LISTED) {
        errors.push(file.error(
            extra.span(),
            Some(field(i, "conditions")),
            format!("at most {MAX_LISTED} conditions (each once)"),
        ));
    }
    for name in list.iter().take(MAX_LISTED) {
        match Settable::named(name.get_ref()) {
            Some(s) if s.set_on(fighter) => errors.push(file.error(
                name.span(),
                Some(field(i, "conditions")),
                format!("`{}` is listed twice", name.get_ref()),
            )),
            Some(s) => s.put(fighter, true),
            None => errors.push(file.error(
                name.span(),
                Some(field(i, "conditions")),
                format!(
                    "no condition `{}` of the advantage table (CEL-R4.5); expected one of {}",
                    name.get_ref(),
                    Settable::names()
                ),
            )),
        }
    }
}

/// A trained animal's `handler`, `tricks` and `companion` (the handler resolved later,
/// [`link_handlers`]): the creature an animal (INT 1 or 2, not mindless), each trick one fray
/// plays, once. [CEL-R9 Handle an Animal, R12 Push an Animal]
fn read_trained(
    file: &SourceFile<'_>,
    i: usize,
    c: &CombatantDef,
    profile: &Profile,
    errors: &mut Vec<FileError>,
) -> Option<crate::rules::animal::Trained> {
    use crate::rules::animal::{is_animal, Trick, Tricks};
    let Some(handler) = &c.handler else {
        for (key, span) in [
            ("tricks", c.tricks.as_ref().map(|t| t.span())),
            ("companion", c.companion.as_ref().map(|t| t.span())),
        ] {
            if let Some(span) = span {
                errors.push(file.error(
                    span,
                    Some(field(i, key)),
                    format!("`{key}` is a trained animal's: name its `handler` too"),
                ));
            }
        }
        return None;
    };
    let int = profile.scores[crate::state::INT];
    if !is_animal(int, profile.gm_said.feint.mindless) {
        errors.push(file.error(
            handler.span(),
            Some(field(i, "handler")),
            format!(
                "only an animal is handled: a creature of animal Intelligence (INT 1 or 2, CEL-R11 \
                 Feint's words), not mindless; this one has INT {int}"
            ),
        ));
    }
    let mut tricks = Tricks::default();
    let list = c
        .tricks
        .as_ref()
        .map_or(&[][..], |t| t.get_ref().as_slice());
    if let Some(extra) = list.get(Trick::ALL.len()) {
        errors.push(file.error(
            extra.span(),
            Some(field(i, "tricks")),
            format!("at most {} tricks (each once)", Trick::ALL.len()),
        ));
    }
    for name in list.iter().take(Trick::ALL.len()) {
        match Trick::from_key(name.get_ref()) {
            Some(t) if tricks.knows(t) => errors.push(file.error(
                name.span(),
                Some(field(i, "tricks")),
                format!("`{}` is listed twice", name.get_ref()),
            )),
            Some(t) => tricks.learn(t),
            None => errors.push(file.error(
                name.span(),
                Some(field(i, "tricks")),
                format!(
                    "no trick `{}` fray plays; expected one of {}",
                    name.get_ref(),
                    Trick::ALL.map(|t| t.key()).join(", ")
                ),
            )),
        }
    }
    Some(crate::rules::animal::Trained {
        handler_key: handler.get_ref().clone(),
        handler: CombatantId(0),
        tricks,
        companion: c.companion.as_ref().is_some_and(|b| *b.get_ref()),
    })
}

/// Resolves each trained animal's `handler`: a combatant of its side, not itself, no trained
/// animal. [CEL-R9 Handle an Animal]
fn link_handlers(
    file: &SourceFile<'_>,
    def: &EncounterDef,
    state: &mut State,
    errors: &mut Vec<FileError>,
) {
    let mut links: Vec<(CombatantId, CombatantId)> = Vec::new();
    for animal in state.ids() {
        let Some(trained) = &state.p(animal).animal else {
            continue;
        };
        let key = &trained.handler_key;
        let handler = state.roster.find(key).filter(|&h| {
            h != animal && state.f(h).side == state.f(animal).side && state.p(h).animal.is_none()
        });
        match handler {
            Some(h) => links.push((animal, h)),
            None => {
                let group = &state.roster.combatants[animal.index()].group;
                let entry = def
                    .combatants
                    .iter()
                    .position(|c| c.id.as_ref().is_some_and(|id| id.get_ref() == group));
                let span = entry
                    .and_then(|i| def.combatants[i].handler.as_ref())
                    .map_or(0..0, |h| h.span());
                errors.push(file.error(
                    span,
                    Some(format!("combatants[{}].handler", entry.unwrap_or(0))),
                    format!(
                        "`{key}` is not a handler for it: expected a combatant of its side, not \
                         itself a trained animal"
                    ),
                ));
            }
        }
    }
    // CEL-R9: a class ability handling an animal as a free action needs an animal it handles.
    for (i, c) in def.combatants.iter().enumerate() {
        let Some(free) = c.handle_free.as_ref().filter(|b| *b.get_ref()) else {
            continue;
        };
        let handles = links.iter().any(|&(_, h)| {
            c.id.as_ref()
                .is_some_and(|id| state.roster.combatants[h.index()].group == *id.get_ref())
        });
        if !handles {
            errors.push(file.error(
                free.span(),
                Some(format!("combatants[{i}].handle_free")),
                "`handle_free` (a class ability: Handle an Animal as a free action, CEL-R9) \
                 needs an animal whose `handler` it is",
            ));
        }
    }
    if links.is_empty() {
        return;
    }
    let mut profiles = state.profiles.to_vec();
    for (animal, handler) in links {
        if let Some(t) = profiles[animal.index()].animal.as_mut() {
            t.handler = handler;
        }
        profiles[handler.index()].handles = true;
    }
    state.profiles = profiles.into();
}

/// At most this many items carried by one combatant. [CEL-R11, R12]
const MAX_ITEMS: usize = 32;

/// Damage dice (`2d6`, `1d6+1`) at `field`, at most `max_count` dice: else an error naming the
/// field and the limits.
fn read_dice(
    file: &SourceFile<'_>,
    text: &Spanned<String>,
    field: Option<String>,
    max_count: u16,
    errors: &mut Vec<FileError>,
) -> Option<fray_core::damage::DamageDice> {
    use fray_core::damage::DamageDice;
    let dice = DamageDice::parse_dice(text.get_ref()).filter(|d| d.count <= max_count);
    if dice.is_none() {
        errors.push(file.error(
            text.span(),
            field,
            format!(
                "expected damage dice such as `2d6` or `1d6+1` (1 to {max_count} dice of 2 to {} sides, a bonus within ±{}), found `{}`",
                DamageDice::MAX_SIDES,
                DamageDice::MAX_BONUS,
                text.get_ref()
            ),
        ));
    }
    dice
}

/// The `[[hazard]]` tables: a name of 1 to `MAX_NAME` characters, 1 or more squares, each
/// hazardous once, at most `MAX_HAZARDS` in all, and damage dice (`2d6`, `1d6+1`) if given.
/// [CEL-R10.10 Move]
fn read_hazards(
    file: &SourceFile<'_>,
    defs: &[HazardDef],
    errors: &mut Vec<FileError>,
) -> Vec<crate::rules::hazard::Hazard> {
    use crate::rules::hazard::{Hazard, MAX_HAZARDS, MAX_NAME};
    use fray_core::damage::DamageDice;
    let mut out: Vec<Hazard> = Vec::new();
    if let Some(d) = defs.get(MAX_HAZARDS) {
        // Each table holds at least one square, so more tables than squares cannot fit.
        errors.push(file.error(
            d.name.span(),
            Some(format!("hazard[{MAX_HAZARDS}]")),
            format!("at most {MAX_HAZARDS} `[[hazard]]` tables (and {MAX_HAZARDS} hazardous squares in all)"),
        ));
        return out;
    }
    for (i, d) in defs.iter().enumerate() {
        let at = |name: &str| Some(format!("hazard[{i}].{name}"));
        let name = d.name.get_ref().trim();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.contains('\n') {
            errors.push(file.error(
                d.name.span(),
                at("name"),
                format!("expected a name of 1 to {MAX_NAME} characters on one line"),
            ));
            continue;
        }
        let damage = match &d.damage {
            Some(text) => {
                match read_dice(file, text, at("damage"), DamageDice::MAX_COUNT, errors) {
                    Some(dice) => Some(dice),
                    None => continue,
                }
            }
            None => None,
        };
        let squares = d.squares.get_ref();
        if squares.is_empty() {
            errors.push(file.error(
                d.squares.span(),
                at("squares"),
                "expected at least one square, e.g. `squares = [[3, 4]]`",
            ));
            continue;
        }
        for &[x, y] in squares {
            let fits = |v: i64| (-1_000_000..=1_000_000).contains(&v);
            let problem = if !fits(x) || !fits(y) {
                Some(format!("square [{x}, {y}] out of range (±1000000)"))
            } else if out
                .iter()
                .any(|h| h.at == fray_core::Pos::new(x as i32, y as i32))
            {
                Some(format!("square [{x}, {y}] is hazardous twice"))
            } else if out.len() >= MAX_HAZARDS {
                Some(format!("at most {MAX_HAZARDS} hazardous squares"))
            } else {
                None
            };
            if let Some(problem) = problem {
                errors.push(file.error(d.squares.span(), at("squares"), problem));
                break;
            }
            out.push(Hazard {
                name: name.to_string(),
                at: fray_core::Pos::new(x as i32, y as i32),
                damage,
            });
        }
    }
    out
}

/// The `[[obstacle]]` and `[[difficult]]` tables: 1 or more squares each, within ±1000000,
/// each named once in all of them, at most `terrain::MAX_SQUARES` of each kind, and no obstacle
/// under a combatant's space (nobody is set up on one). [CEL-R7.3, R9 Step]
fn read_terrain(
    file: &SourceFile<'_>,
    def: &EncounterDef,
    state: &State,
    errors: &mut Vec<FileError>,
) -> crate::rules::terrain::Terrain {
    use crate::rules::terrain::{Terrain, MAX_SQUARES};
    use fray_core::Pos;
    let mut lists: [Vec<Pos>; 2] = [Vec::new(), Vec::new()];
    let mut seen: std::collections::BTreeSet<(i32, i32)> = Default::default();
    for (kind, defs) in [("obstacle", &def.obstacle), ("difficult", &def.difficult)] {
        let obstacle = kind == "obstacle";
        for (i, d) in defs.iter().enumerate() {
            let at = Some(format!("{kind}[{i}].squares"));
            let squares = d.squares.get_ref();
            if squares.is_empty() {
                errors.push(file.error(
                    d.squares.span(),
                    at,
                    "expected at least one square, e.g. `squares = [[3, 4]]`",
                ));
                continue;
            }
            for &[x, y] in squares {
                let fits = |v: i64| (-1_000_000..=1_000_000).contains(&v);
                let p = Pos::new(x as i32, y as i32);
                let list = &mut lists[usize::from(!obstacle)];
                let standing = if obstacle && fits(x) && fits(y) {
                    state.ids().find(|&id| {
                        !state.f(id).absent()
                            && crate::space::squares(state.f(id).pos, state.side(id))
                                .any(|q| q == p)
                    })
                } else {
                    None
                };
                let problem = if !fits(x) || !fits(y) {
                    Some(format!("square [{x}, {y}] out of range (±1000000)"))
                } else if !seen.insert((p.x, p.y)) {
                    Some(format!(
                        "square [{x}, {y}] is named twice among the obstacles and difficult terrain"
                    ))
                } else if list.len() >= MAX_SQUARES {
                    Some(format!("at most {MAX_SQUARES} {kind} squares"))
                } else {
                    standing.map(|id| {
                        format!(
                            "square [{x}, {y}] is an obstacle under `{}`'s space: nobody \
                             stands on an obstacle",
                            state.roster.key(id)
                        )
                    })
                };
                if let Some(problem) = problem {
                    errors.push(file.error(d.squares.span(), at.clone(), problem));
                    break;
                }
                list.push(p);
            }
        }
    }
    let [obstacles, difficult] = lists;
    Terrain::new(obstacles, difficult)
}

/// At most this many devices in one encounter.
const MAX_DEVICES: usize = 64;

/// The `[[device]]` tables: unique keys not naming a combatant, 1–100 acts, a DC of 0–100.
/// [CEL-R13, CEL-G3]
fn read_devices(
    file: &SourceFile<'_>,
    defs: &[DeviceDef],
    roster: &Roster,
    errors: &mut Vec<FileError>,
) -> Vec<Device> {
    let mut out: Vec<Device> = Vec::new();
    if defs.len() > MAX_DEVICES {
        errors.push(file.error(
            0..0,
            Some("device".into()),
            format!("at most {MAX_DEVICES} devices"),
        ));
        return out;
    }
    for (i, d) in defs.iter().enumerate() {
        let at = |name: &str| Some(format!("device[{i}].{name}"));
        let key = d.id.get_ref().clone();
        if key.is_empty()
            || roster.find(&key).is_some()
            || out.iter().any(|o| o.key == key)
            || key.split_whitespace().count() != 1
        {
            errors.push(file.error(
                d.id.span(),
                at("id"),
                "expected one word, not used by a combatant or another device",
            ));
            continue;
        }
        let acts = *d.acts.get_ref();
        if !(1..=100).contains(&acts) {
            errors.push(file.error(
                d.acts.span(),
                at("acts"),
                format!("expected a whole number from 1 to 100, found {acts}"),
            ));
            continue;
        }
        let [x, y] = *d.at.get_ref();
        let (Ok(x), Ok(y)) = (i32::try_from(x), i32::try_from(y)) else {
            errors.push(file.error(d.at.span(), at("at"), "square out of range"));
            continue;
        };
        let dc = match &d.dc {
            Some(dc) if !(0..=100).contains(dc.get_ref()) => {
                errors.push(file.error(
                    dc.span(),
                    at("dc"),
                    "expected a whole number from 0 to 100",
                ));
                continue;
            }
            Some(dc) => Some(*dc.get_ref() as i32),
            None => None,
        };
        out.push(Device {
            name: d.name.clone().unwrap_or_else(|| key.clone()),
            key,
            pos: fray_core::Pos::new(x, y),
            acts: acts as u8,
            consecutive: d.consecutive,
            dc,
        });
    }
    out
}

/// The GM's `prepare_components = { SPELL = "free" | "simple" | "advanced" }`: each a spell of
/// the content with a material component or focus, not a 1-round one, at most 64. [CEL-R14,
/// CEL-G3, A27]
fn read_components(
    file: &SourceFile<'_>,
    rulings: &Option<Spanned<BTreeMap<String, Spanned<String>>>>,
    content: &Content,
    errors: &mut Vec<FileError>,
) -> Vec<(String, u8)> {
    let Some(rulings) = rulings else {
        return Vec::new();
    };
    let field = |name: &str| Some(format!("options.prepare_components.{name}"));
    if rulings.get_ref().len() > crate::rules::spell_components::MAX_RULINGS {
        errors.push(file.error(
            rulings.span(),
            Some("options.prepare_components".into()),
            format!(
                "at most {} spells",
                crate::rules::spell_components::MAX_RULINGS
            ),
        ));
        return Vec::new();
    }
    let mut out = Vec::new();
    for (name, word) in rulings.get_ref() {
        let rules = crate::rules::spell_components::RULINGS;
        let Some(&(_, acts)) = rules.iter().find(|(w, _)| *w == word.get_ref().as_str()) else {
            errors.push(file.error(
                word.span(),
                field(name),
                "expected \"free\", \"simple\" (1 act) or \"advanced\" (2 acts, CEL-A27)",
            ));
            continue;
        };
        let Some(spell) = content.spells.get(name) else {
            errors.push(
                file.error(
                    word.span(),
                    field(name),
                    content
                        .spells
                        .unknown("spell", name, "content/celesia/spells.toml"),
                ),
            );
            continue;
        };
        if !spell.material {
            errors.push(file.error(
                word.span(),
                field(name),
                format!(
                    "{} has no material component or focus to prepare (`material` or `focus` \
                     in spells.toml)",
                    spell.name
                ),
            ));
        } else if spell.casting == crate::spell::Casting::OneRound && acts > 0 {
            errors.push(file.error(
                word.span(),
                field(name),
                format!(
                    "{} takes a round to cast (CEL-R3.7): fray adds no acts to a 1-round casting",
                    spell.name
                ),
            ));
        } else {
            out.push((spell.name.clone(), acts));
        }
    }
    out
}

fn read_options(file: &SourceFile<'_>, o: &OptionsDef, errors: &mut Vec<FileError>) -> Options {
    let d = Options::default();
    let num = |name: &str,
               v: &Option<Spanned<i64>>,
               lo: i64,
               hi: i64,
               default: i32,
               errors: &mut Vec<FileError>| match v {
        Some(v) if (lo..=hi).contains(v.get_ref()) => *v.get_ref() as i32,
        Some(v) => {
            errors.push(file.error(
                v.span(),
                Some(format!("options.{name}")),
                format!("expected a whole number from {lo} to {hi}"),
            ));
            default
        }
        None => default,
    };
    let mut map = d.multiple_attack_penalty;
    if let Some(list) = &o.multiple_attack_penalty {
        if list.get_ref().len() != 3 || list.get_ref().iter().any(|n| !(-20..=0).contains(n)) {
            errors.push(file.error(
                list.span(),
                Some("options.multiple_attack_penalty".into()),
                "expected three penalties from -20 to 0: the 1st, 2nd and 3rd+ attack of a turn",
            ));
        } else {
            for (k, n) in list.get_ref().iter().enumerate() {
                map[k] = *n as i32;
            }
        }
    }
    // CEL-G4: the free actions the GM deems strenuous, by the words of `Choice::free_action`.
    let mut strenuous = Vec::new();
    if let Some(list) = &o.strenuous_free_actions {
        for name in list.get_ref() {
            match crate::choice::FREE_ACTIONS.iter().find(|&&f| f == name) {
                Some(&f) if !strenuous.contains(&f) => strenuous.push(f),
                Some(_) => {}
                None => errors.push(file.error(
                    list.span(),
                    Some("options.strenuous_free_actions".into()),
                    format!(
                        "`{name}` is not a free action; the free actions are: {}",
                        crate::choice::FREE_ACTIONS.join(", ")
                    ),
                )),
            }
        }
    }
    // CEL-G12: when bleeding comes.
    let bleed_at_turn_end = match &o.bleed_timing {
        None => d.bleed_at_turn_end,
        Some(t) => match t.get_ref().as_str() {
            "turn-start" => false,
            "turn-end" => true,
            _ => {
                errors.push(file.error(
                    t.span(),
                    Some("options.bleed_timing".into()),
                    "expected \"turn-start\" (the default) or \"turn-end\"",
                ));
                d.bleed_at_turn_end
            }
        },
    };
    // CEL-R11 Extinguish Flames: what burning does (the seed gives no numbers; `rules::fire`).
    let fire_damage = o.fire_damage.as_ref().and_then(|t| {
        read_dice(
            file,
            t,
            Some("options.fire_damage".into()),
            crate::rules::fire::MAX_FIRE_DICE,
            errors,
        )
    });
    let fire_save = match &o.fire_save {
        None => d.fire.save,
        Some(t) => match t.get_ref().as_str() {
            "fort" => crate::spell::Save::Fort,
            "reflex" => crate::spell::Save::Reflex,
            "will" => crate::spell::Save::Will,
            _ => {
                errors.push(file.error(
                    t.span(),
                    Some("options.fire_save".into()),
                    "expected \"reflex\" (the default), \"fort\" or \"will\"",
                ));
                d.fire.save
            }
        },
    };
    let fire = crate::rules::fire::Fire {
        damage: fire_damage.unwrap_or(d.fire.damage),
        save: fire_save,
        dc: num("fire_dc", &o.fire_dc, 1, 60, d.fire.dc, errors),
    };
    Options {
        flatfooted_until_regular_turn: o
            .flatfooted_until_regular_turn
            .unwrap_or(d.flatfooted_until_regular_turn),
        ranged_attack_provokes: o.ranged_attack_provokes.unwrap_or(d.ranged_attack_provokes),
        crit_confirmation: o.crit_confirmation.unwrap_or(d.crit_confirmation),
        crit_deck: o.crit_deck.unwrap_or(d.crit_deck),
        range_penalty: num(
            "range_penalty",
            &o.range_penalty,
            -10,
            0,
            d.range_penalty,
            errors,
        ),
        multiple_attack_penalty: map,
        crippling_injuries: o.crippling_injuries.unwrap_or(d.crippling_injuries),
        massive_before_negation: o
            .massive_before_negation
            .unwrap_or(d.massive_before_negation),
        unarmed_str_only: o.unarmed_str_only.unwrap_or(d.unarmed_str_only),
        lethal_unarmed_minus_4: o.lethal_unarmed_minus_4.unwrap_or(d.lethal_unarmed_minus_4),
        scaling_choose_lower: o.scaling_choose_lower.unwrap_or(d.scaling_choose_lower),
        minimum_damage: num(
            "minimum_damage",
            &o.minimum_damage,
            0,
            1,
            d.minimum_damage,
            errors,
        ),
        free_actions_per_turn: o.free_actions_per_turn.as_ref().map(|_| {
            num(
                "free_actions_per_turn",
                &o.free_actions_per_turn,
                0,
                20,
                0,
                errors,
            ) as u8
        }),
        strenuous_free_actions: strenuous,
        cmd_base: num("cmd_base", &o.cmd_base, 0, 30, d.cmd_base, errors),
        fastened_cmd: num(
            "fastened_cmd",
            &o.fastened_cmd,
            5,
            50,
            d.fastened_cmd,
            errors,
        ),
        flanking: o.flanking.unwrap_or(d.flanking),
        bleed_at_turn_end,
        weakened_attack_inverted: o
            .weakened_attack_inverted
            .unwrap_or(d.weakened_attack_inverted),
        multiweapon_repeat: o.multiweapon_repeat.unwrap_or(d.multiweapon_repeat),
        find_tracks_acts: num(
            "find_tracks_acts",
            &o.find_tracks_acts,
            3,
            i64::from(crate::rules::ruling::MAX_TRACKS_ACTS),
            i32::from(d.find_tracks_acts),
            errors,
        ) as u8,
        pick_up_acts: num("pick_up_acts", &o.pick_up_acts, 1, 100, 1, errors) as u8,
        pick_up_consecutive: o.pick_up_consecutive.unwrap_or(d.pick_up_consecutive),
        retrieve_acts: num("retrieve_acts", &o.retrieve_acts, 1, 100, 1, errors) as u8,
        retrieve_consecutive: o.retrieve_consecutive.unwrap_or(d.retrieve_consecutive),
        untie_acts: num("untie_acts", &o.untie_acts, 1, 100, 1, errors) as u8,
        untie_consecutive: o.untie_consecutive.unwrap_or(d.untie_consecutive),
        nonlethal_coup_twice_max_hp: o
            .nonlethal_coup_twice_max_hp
            .unwrap_or(d.nonlethal_coup_twice_max_hp),
        prepare_components: Vec::new(),
        fire,
        sleight_dc: num("sleight_dc", &o.sleight_dc, 1, 60, d.sleight_dc, errors),
        // CEL-R11 Treat a Wound: the Heal check's DC (the seed gives none; `rules::treat_wound`).
        treat_wound_dc: num(
            "treat_wound_dc",
            &o.treat_wound_dc,
            crate::rules::treat_wound::DC_RANGE.0,
            crate::rules::treat_wound::DC_RANGE.1,
            d.treat_wound_dc,
            errors,
        ),
        search_dc: num("search_dc", &o.search_dc, 1, 60, d.search_dc, errors),
        handle_dc: num("handle_dc", &o.handle_dc, 1, 60, d.handle_dc, errors),
        push_dc: num("push_dc", &o.push_dc, 1, 60, d.push_dc, errors),
        handle_feet: num(
            "handle_feet",
            &o.handle_feet,
            5,
            i64::from(crate::rules::animal::MAX_FEET),
            d.handle_feet,
            errors,
        ),
        search_feet: num(
            "search_feet",
            &o.search_feet,
            5,
            i64::from(crate::rules::search::MAX_FEET),
            d.search_feet,
            errors,
        ),
        splash_stray_increments: num(
            "splash_stray_increments",
            &o.splash_stray_increments,
            0,
            4,
            d.splash_stray_increments,
            errors,
        ),
    }
}

/// CEL-R18: crippling injuries from before the fight (`injuries = ["finger", "scar", …]`, the
/// words of `injury KIND`), each taken in order as in play, after `head_injuries`. Refused,
/// naming the field: an unknown word, one past the cap of the CON score (R18.2), one the table
/// says to reroll (R18.6: every such part severed), and one that would sever a hand, leg or
/// arm (its bleeding would come from before the fight, which fray does not keep: the GM gives
/// the bleed in play). With every leg lost it starts prone.
fn read_injuries(
    file: &SourceFile<'_>,
    at: &str,
    words: &[Spanned<String>],
    con: i32,
    fighter: &mut Fighter,
    errors: &mut Vec<FileError>,
) {
    for word in words {
        let Some(injury) = crate::state::Injury::from_key(word.get_ref()) else {
            errors.push(file.error(
                word.span(),
                Some(at.to_string()),
                format!(
                    "`{}` is no crippling injury (scar, major-scar, finger, eye, hand, head, leg, arm)",
                    word.get_ref()
                ),
            ));
            return;
        };
        let inj = &mut fighter.injuries;
        let problem = if i32::from(inj.count) >= con {
            Some(format!(
                "at most its CON score ({con}) injuries (CEL-R18.2)"
            ))
        } else if !inj.available(injury) {
            Some(format!(
                "no {} can be taken any more (CEL-R18.6)",
                injury.name()
            ))
        } else {
            let mut after = *inj;
            (after.take(injury) > 0).then(|| {
                format!(
                    "a {} here severs a limb: its bleeding is not kept from before the fight",
                    injury.name()
                )
            })
        };
        if let Some(problem) = problem {
            errors.push(file.error(word.span(), Some(at.to_string()), problem));
            return;
        }
        inj.take(injury);
    }
    if fighter.injuries.legless() {
        fighter.prone = true;
    }
}
