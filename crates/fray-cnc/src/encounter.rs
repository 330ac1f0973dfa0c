//! C&C encounter files: sides, combatants (from the bestiary with a count, or characters built
//! from a class), positions, awareness and situational state, CK options and standing modifiers,
//! and an optional script. The common keys are read by `fray_core::loader`; this module builds
//! C&C's combatants and reads C&C's own tables. Every problem is reported at once, located.

use crate::content::{
    attribute_index, ArmorDef, ClassDef, Content, ContentFile, Magic, MagicDef, MagicKind,
    MonsterDef, ShieldDef, Size, Weapon, WeaponDef,
};
use crate::state::{
    AttackForm, Concealment, Cond, Cover, Fighter, Maneuvers, Options, Profile, StandingModifier,
    State,
};
use fray_core::catalog::ContentSet;
use fray_core::conditions::{Conditions, Expiry};
use fray_core::loader::{CombatantBuilder, CombatantEntry, Loader, Placed};
use fray_core::span::{FileError, FileErrors, SourceFile};
use fray_core::{Direction, Roster, RulesetId};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use toml::Spanned;

/// A loaded C&C encounter: the starting state, limits and script.
pub type Encounter = fray_core::Encounter<State>;

fray_core::encounter_file! {
    /// A C&C encounter file: the common keys plus C&C's own tables.
    struct EncounterDef for CombatantDef {
        #[serde(default)]
        options: OptionsDef,
        #[serde(default)]
        surprise: Option<SurpriseDef>,
        #[serde(default)]
        modifiers: Vec<ModifierDef>,
        #[serde(default)]
        falls: Vec<FallDef>,
        // The encounter's own content, in the content files' format (`[[monster]]`, …).
        #[serde(default)]
        weapon: Vec<WeaponDef>,
        #[serde(default)]
        armor: Vec<ArmorDef>,
        #[serde(default)]
        shield: Vec<ShieldDef>,
        #[serde(default)]
        monster: Vec<MonsterDef>,
        #[serde(default)]
        class: Vec<ClassDef>,
        #[serde(default)]
        spell: Vec<MagicDef>,
        #[serde(default)]
        item: Vec<MagicDef>,
        #[serde(default)]
        ability: Vec<MagicDef>,
    }
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

fray_core::combatant_entry! {
    /// One `[[combatants]]` entry: the common keys plus a monster or a class and its gear.
    struct CombatantDef {
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
}

fn no_magic() -> Spanned<BTreeMap<String, u8>> {
    Spanned::new(0..0, BTreeMap::new())
}

/// Reads an encounter file's text.
pub fn load(path: &str, text: &str, content: &Content) -> Result<Encounter, FileErrors> {
    fray_core::loader::load(
        path,
        text,
        Builder {
            content: Cow::Borrowed(content),
            magic: Vec::new(),
        },
    )
}

fn field(i: usize, name: &str) -> Option<String> {
    Some(format!("combatants[{i}].{name}"))
}

/// Builds C&C combatants; collects the encounter's table of spells, items and abilities.
struct Builder<'c> {
    content: Cow<'c, Content>,
    magic: Vec<Magic>,
}

impl CombatantBuilder for Builder<'_> {
    type File = EncounterDef;
    type Member = (Profile, Fighter);
    type State = State;
    const RULESET: RulesetId = RulesetId::Cnc;
    const RESERVES: bool = true;

    fn prepare(&mut self, cx: &mut Loader<'_>, def: &EncounterDef) {
        let inline = ContentFile {
            weapon: def.weapon.clone(),
            armor: def.armor.clone(),
            shield: def.shield.clone(),
            monster: def.monster.clone(),
            class: def.class.clone(),
            attribute_modifiers: None,
            spell: def.spell.clone(),
            item: def.item.clone(),
            ability: def.ability.clone(),
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
        let content: &Content = &self.content;
        let mut profile = build_profile(&file, i, c, content, errors)?;
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
            &file,
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
            &file,
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
                let catalog = match kind {
                    MagicKind::Spell => &content.spells,
                    MagicKind::Item => &content.items,
                    MagicKind::Ability => &content.abilities,
                };
                let Some(m) = catalog.get(id) else {
                    errors.push(file.error(
                        list.span(),
                        field(i, name),
                        catalog.unknown(
                            kind.key(),
                            id,
                            &format!("fray content cnc {}s", kind.key()),
                        ),
                    ));
                    continue;
                };
                let index = match self.magic.iter().position(|x| x == m) {
                    Some(ix) => ix as u16,
                    None => {
                        self.magic.push(m.clone());
                        (self.magic.len() - 1) as u16
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
        let fighter = Fighter {
            side: fray_core::SideId(0),
            pos: fray_core::Pos::new(0, 0),
            facing: Direction::North,
            hp: start_hp,
            subdual_taken: 0,
            subdual_running: 0,
            conditions,
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
            gone: None,
            ready: false,
            spells_left,
            items_left,
            items_ready,
            abilities_left,
            casting: None,
            dealt: 0,
            taken: 0,
        };
        Some((profile, fighter))
    }

    fn place(&self, (_, fighter): &mut (Profile, Fighter), placed: Placed) {
        fighter.side = placed.side;
        fighter.pos = placed.pos;
        fighter.facing = placed.facing;
    }

    fn finish(
        self,
        cx: &mut Loader<'_>,
        def: &EncounterDef,
        roster: Roster,
        members: Vec<(Profile, Fighter)>,
    ) -> State {
        let file = cx.file;
        let options = read_options(&file, def, &roster, &cx.unbuilt, &mut cx.errors);
        let modifiers = read_modifiers(&file, def, &roster, &cx.unbuilt, &mut cx.errors);
        let (profiles, mut fighters): (Vec<Profile>, Vec<Fighter>) = members.into_iter().unzip();
        for (fighter, info) in fighters.iter_mut().zip(&roster.combatants) {
            if info.reserve {
                fighter.gone = Some(fray_core::Standing::Reserve);
            }
        }
        State::new(
            Arc::new(roster),
            profiles.into(),
            fighters,
            Arc::new(options),
            modifiers.into(),
            self.magic.into(),
        )
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
            errors.push(
                file.error(
                    v.span(),
                    field(i, name),
                    content
                        .weapons
                        .unknown("weapon", v.get_ref(), "fray content cnc weapons"),
                ),
            );
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
                errors.push(
                    file.error(
                        m.span(),
                        field(i, "monster"),
                        content.monsters.unknown(
                            "monster",
                            m.get_ref(),
                            "fray content cnc monsters",
                        ),
                    ),
                );
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
                errors.push(
                    file.error(
                        cl.span(),
                        field(i, "class"),
                        content
                            .classes
                            .unknown("class", cl.get_ref(), "fray content cnc classes"),
                    ),
                );
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
                    c.id_span(),
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
            let armor =
                match &c.armor {
                    Some(a) => match content.armor.get(a.get_ref()) {
                        Some(a) => Some(a.clone()),
                        None => {
                            errors.push(file.error(
                                a.span(),
                                field(i, "armor"),
                                content.armor.unknown(
                                    "armour",
                                    a.get_ref(),
                                    "fray content cnc armour",
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
                        errors.push(file.error(
                            s.span(),
                            field(i, "shield"),
                            content.shields.unknown(
                                "shield",
                                s.get_ref(),
                                "fray content cnc armour",
                            ),
                        ));
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
                c.id_span(),
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
            c.hp.as_ref().map_or(c.id_span(), |h| h.span()),
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
    unbuilt: &BTreeSet<String>,
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
            // Its entry's own error is reported already (one mistake, one error).
            None if unbuilt.contains(fall.who.get_ref()) => {}
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
    unbuilt: &BTreeSet<String>,
    errors: &mut Vec<FileError>,
) -> Vec<StandingModifier> {
    let mut out = Vec::new();
    for (i, m) in def.modifiers.iter().enumerate() {
        let mut who = |v: &Option<Spanned<String>>, name: &str| {
            v.as_ref().and_then(|v| {
                let found = roster.find(v.get_ref());
                if found.is_none() && !unbuilt.contains(v.get_ref()) {
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

#[cfg(test)]
mod tests {
    use super::*;

    const UNA: &str = "schema = 1\nruleset = \"cnc\"\n\n[[sides]]\nid = \"elves\"\n\n[[sides]]\n\
        id = \"orcs\"\n\n[[combatants]]\nid = \"una\"\nside = \"elves\"\nat = [0, 0]\n\
        class = \"fighter\"\nlevel = LEVEL\nhp = 10\n\n[[combatants]]\nid = \"orc\"\n\
        side = \"orcs\"\nat = [8, 0]\nmonster = \"orc\"\n\n[[falls]]\nwho = \"una\"\nfeet = 10\n\n\
        [[modifiers]]\nattacker = \"una\"\nvalue = 2\nreason = \"high ground\"\n\n\
        [script]\nchoices = [\"una: attack orc\"]\n";

    fn errors(text: &str) -> Vec<String> {
        let content = Content::embedded().unwrap_or_else(|e| panic!("{e}"));
        match load("e.toml", text, &content) {
            Ok(_) => Vec::new(),
            Err(e) => e.0.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn one_mistake_is_one_error() {
        assert_eq!(errors(&UNA.replace("LEVEL", "1")), Vec::<String>::new());
        // A combatant that cannot be built is not reported again where falls, modifiers and the
        // script name it.
        assert_eq!(
            errors(&UNA.replace("LEVEL", "-1")),
            vec![
                "e.toml:15:9: field `combatants[0].level`: expected a level from 1 to 20"
                    .to_string()
            ]
        );
    }

    #[test]
    fn an_encounter_defines_its_own_content() {
        let base = UNA.replace("LEVEL", "1");
        let text = base.replace("monster = \"orc\"", "monster = \"dire badger\"").replace(
            "class = \"fighter\"",
            "class = \"fighter\"\nweapon = \"long sword +1\"",
        ) + "\n[[weapon]]\nid = \"long sword +1\"\ndamage = \"1d8\"\nkind = \"melee\"\nmagic = 1\n\n\
              [[monster]]\nid = \"dire badger\"\nhit_dice = 3\nhp = 20\nac = 15\nmovement = 20\n\
              [[monster.attacks]]\nname = \"claw\"\ndamage = \"1d6\"\n\n\
              [[monster]]\nid = \"orc\"\nhit_dice = 1\nhp = 9\nac = 13\nmovement = 30\n\
              [[monster.attacks]]\nweapon = \"battle axe\"\n";
        let content = Content::embedded().unwrap_or_else(|e| panic!("{e}"));
        let e = load("e.toml", &text, &content).unwrap_or_else(|e| panic!("{e}"));
        let s = &e.state;
        let una = s.roster.find("una").unwrap();
        let badger = s.roster.find("orc").unwrap();
        assert_eq!(s.p(una).melee[0].magic, 1, "the encounter's +1 sword");
        assert_eq!(s.p(badger).max_hp, 20, "the encounter's own monster");
        assert_eq!(e.name, "e.toml");
        // The built-in content is untouched, and a second definition in one file is an error.
        assert!(content.monsters.get("dire badger").is_none());
        let twice = text.clone()
            + "\n[[weapon]]\nid = \"long sword +1\"\ndamage = \"1d8\"\nkind = \"melee\"\n";
        let err = errors(&twice);
        assert_eq!(err.len(), 1, "{err:?}");
        assert!(
            err[0].contains("duplicate weapon `long sword +1`: already defined at e.toml:"),
            "{err:?}"
        );
    }

    #[test]
    fn spell_names_are_written_alike_in_files_and_choices() {
        let base = UNA
            .replace("LEVEL", "1")
            .replace("\"una: attack orc\"", "\"una: cast magic-missile orc\"");
        for spelling in ["magic missile", "magic-missile", "Magic_Missile"] {
            let text = base.replace(
                "class = \"fighter\"",
                &format!("class = \"fighter\"\nspells = {{ \"{spelling}\" = 1 }}"),
            );
            assert_eq!(errors(&text), Vec::<String>::new(), "{spelling}");
        }
    }
}
