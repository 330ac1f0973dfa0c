//! "17 Combat" encounter files: sides, combatants (from a monster, or written out with a class
//! and level), `[options]` (the GM hooks and toggles), `[surprise]` and a script, with every
//! error located. The common keys are read by `fray_core::loader`.

use crate::content::{
    ArmorFile, ArmorKind, ClassFile, Content, ContentFile, MonsterFile, ShieldFile, Size,
    SpellFile, Weapon, WeaponFile,
};
use crate::state::{Fighter, Options, Profile, State, Surprise};
use fray_core::catalog::ContentSet;
use fray_core::loader::{CombatantBuilder, Loader, Placed};
use fray_core::span::{FileError, FileErrors, SourceFile};
use fray_core::{Pos, Roster, RulesetId, SideId};
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::Arc;
use toml::Spanned;

/// A loaded OSR encounter.
pub type Encounter = fray_core::Encounter<State>;

/// Reads an encounter file.
pub fn load(path: &str, text: &str, content: &Content) -> Result<Encounter, FileErrors> {
    fray_core::loader::load(
        path,
        text,
        Builder {
            content: Cow::Borrowed(content),
        },
    )
}

/// The B/X ability modifier of a score (3: −3, 4–5: −2, 6–8: −1, 9–12: 0, 13–15: +1,
/// 16–17: +2, 18: +3).
pub fn ability_mod(score: i32) -> i32 {
    match score {
        i32::MIN..=3 => -3,
        4..=5 => -2,
        6..=8 => -1,
        9..=12 => 0,
        13..=15 => 1,
        16..=17 => 2,
        _ => 3,
    }
}

struct Builder<'c> {
    content: Cow<'c, Content>,
}

fray_core::encounter_file! {
    /// An OSR encounter file.
    struct EncounterDef for CombatantDef {
        #[serde(default)]
        options: OptionsDef,
        surprise: Option<SurpriseDef>,
        #[serde(default)]
        weapon: Vec<WeaponFile>,
        #[serde(default)]
        armor: Vec<ArmorFile>,
        #[serde(default)]
        shield: Vec<ShieldFile>,
        #[serde(default)]
        class: Vec<ClassFile>,
        #[serde(default)]
        spell: Vec<SpellFile>,
        #[serde(default)]
        monster: Vec<MonsterFile>,
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionsDef {
    initiative_once: Option<bool>,
    surprise_save: Option<bool>,
    stray_missiles: Option<bool>,
    charges: Option<bool>,
    knockout_monsters: Option<bool>,
    kick_lethal: Option<bool>,
    condition_rounds: Option<Spanned<i64>>,
    crossbows_loaded: Option<bool>,
    fused_direct_splash_only: Option<bool>,
    holy_direct_splash: Option<bool>,
    run_away_leaves: Option<bool>,
    disruption_vs_death: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SurpriseDef {
    #[serde(default)]
    sides: Vec<Spanned<String>>,
    #[serde(default)]
    ambushers: Vec<Spanned<String>>,
}

fray_core::combatant_entry! {
    /// One `[[combatants]]` entry.
    struct CombatantDef {
        monster: Option<Spanned<String>>,
        class: Option<Spanned<String>>,
        level: Option<Spanned<i64>>,
        hp: Option<Spanned<i64>>,
        start_hp: Option<Spanned<i64>>,
        ac: Option<Spanned<i64>>,
        attack_bonus: Option<Spanned<i64>>,
        str: Option<Spanned<i64>>,
        dex: Option<Spanned<i64>>,
        con: Option<Spanned<i64>>,
        weapon: Option<Spanned<String>>,
        offhand: Option<Spanned<String>>,
        missile: Option<Spanned<String>>,
        armor: Option<Spanned<String>>,
        shield: Option<Spanned<String>>,
        #[serde(rename = "move")]
        movement: Option<Spanned<i64>>,
        size: Option<Spanned<String>>,
        elf: Option<bool>,
        save_death: Option<Spanned<i64>>,
        save_spells: Option<Spanned<i64>>,
        /// The GM's touch AC (OSR-G8; default 10 + DEX bonus, OSR-A19).
        touch_ac: Option<Spanned<i64>>,
        #[serde(default)]
        spells: Vec<Spanned<String>>,
        oil: Option<Spanned<i64>>,
        spare_crossbows: Option<Spanned<i64>>,
        fused: Option<bool>,
        holy_water: Option<Spanned<i64>>,
        cover: Option<Spanned<i64>>,
        concealed: Option<bool>,
        crit_bonus: Option<Spanned<i64>>,
        needs_magic: Option<bool>,
        magic_weapon: Option<bool>,
        charges: Option<bool>,
        undead: Option<bool>,
        fire_resistant: Option<bool>,
    }
}

fn int(
    file: &SourceFile<'_>,
    errors: &mut Vec<FileError>,
    field: String,
    v: &Option<Spanned<i64>>,
    lo: i64,
    hi: i64,
) -> Option<i32> {
    let v = v.as_ref()?;
    let n = *v.get_ref();
    if (lo..=hi).contains(&n) {
        Some(n as i32)
    } else {
        errors.push(file.error(
            v.span(),
            Some(field),
            format!("expected a whole number from {lo} to {hi}, found {n}"),
        ));
        None
    }
}

impl CombatantBuilder for Builder<'_> {
    type File = EncounterDef;
    type Member = (Profile, Fighter);
    type State = State;
    const RULESET: RulesetId = RulesetId::Osr;
    const RESERVES: bool = true;

    fn prepare(&mut self, cx: &mut Loader<'_>, def: &EncounterDef) {
        let inline = ContentFile {
            weapon: def.weapon.clone(),
            armor: def.armor.clone(),
            shield: def.shield.clone(),
            class: def.class.clone(),
            spell: def.spell.clone(),
            monster: def.monster.clone(),
        };
        if let Cow::Owned(content) = self.content.with_inline(&cx.file, &inline, &mut cx.errors) {
            self.content = Cow::Owned(content);
        }
    }

    fn default_name(&self, c: &CombatantDef) -> Option<String> {
        let m = c.monster.as_ref()?;
        self.content
            .monsters
            .get(m.get_ref())
            .map(|m| m.name.clone())
    }

    fn member(
        &mut self,
        cx: &mut Loader<'_>,
        i: usize,
        c: &CombatantDef,
    ) -> Option<(Profile, Fighter)> {
        let file = cx.file;
        let errors = &mut cx.errors;
        let before = errors.len();
        let f = |n: &str| format!("combatants[{i}].{n}");
        let content = &self.content;
        let monster = match &c.monster {
            Some(m) => match content.monsters.get(m.get_ref()) {
                Some(m) => Some(m.clone()),
                None => {
                    errors.push(file.error(
                        m.span(),
                        Some(f("monster")),
                        content.monsters.unknown(
                            "monster",
                            m.get_ref(),
                            "fray content osr monsters",
                        ),
                    ));
                    return None;
                }
            },
            None => None,
        };
        let class =
            match &c.class {
                Some(k) => match content.classes.get(k.get_ref()) {
                    Some(k) => Some(k.clone()),
                    None => {
                        errors.push(file.error(
                            k.span(),
                            Some(f("class")),
                            content.classes.unknown(
                                "class",
                                k.get_ref(),
                                "fray content osr classes",
                            ),
                        ));
                        None
                    }
                },
                None => None,
            };
        let level = int(&file, errors, f("level"), &c.level, 1, 10).unwrap_or(1);
        let score = |errors: &mut Vec<FileError>, n: &str, v: &Option<Spanned<i64>>| {
            int(&file, errors, f(n), v, 3, 18)
        };
        let str_score = score(errors, "str", &c.str);
        let dex_score = score(errors, "dex", &c.dex);
        let con = score(errors, "con", &c.con).unwrap_or(10);
        let str_mod = str_score.map_or(0, ability_mod);
        let dex_mod = dex_score.map_or(monster.as_ref().map_or(0, |m| m.dex_mod), ability_mod);
        let weapon_of = |errors: &mut Vec<FileError>, n: &str, w: &Option<Spanned<String>>| {
            w.as_ref()
                .and_then(|w| content.weapon_at(&file, f(n), w, errors))
        };
        let weapon = weapon_of(errors, "weapon", &c.weapon);
        let offhand = weapon_of(errors, "offhand", &c.offhand);
        let missile = weapon_of(errors, "missile", &c.missile);
        if let (Some(o), Some(span)) = (&offhand, &c.offhand) {
            if !o.small {
                errors.push(file.error(
                    span.span(),
                    Some(f("offhand")),
                    "the second weapon must be the smaller one (OSR-R29.1): a weapon marked small",
                ));
            }
        }
        if let (Some(m), Some(span)) = (&missile, &c.missile) {
            if m.range.is_none() {
                errors.push(file.error(
                    span.span(),
                    Some(f("missile")),
                    "this weapon has no range",
                ));
            }
        }
        let armor = match &c.armor {
            Some(a) => match content.armor.get(a.get_ref()) {
                Some(a) => Some(a.clone()),
                None => {
                    errors.push(
                        file.error(
                            a.span(),
                            Some(f("armor")),
                            content
                                .armor
                                .unknown("armour", a.get_ref(), "fray content osr armour"),
                        ),
                    );
                    None
                }
            },
            None => None,
        };
        let shield =
            match &c.shield {
                Some(s) => match content.shields.get(s.get_ref()) {
                    Some(s) => s.ac,
                    None => {
                        errors.push(file.error(
                            s.span(),
                            Some(f("shield")),
                            content.shields.unknown(
                                "shield",
                                s.get_ref(),
                                "fray content osr shields",
                            ),
                        ));
                        0
                    }
                },
                None => 0,
            };
        let mut spells = Vec::new();
        for (j, s) in c.spells.iter().enumerate() {
            match content.spells.get(s.get_ref()) {
                Some(sp) => spells.push(sp.clone()),
                None => errors.push(
                    file.error(
                        s.span(),
                        Some(f(&format!("spells[{j}]"))),
                        content
                            .spells
                            .unknown("spell", s.get_ref(), "fray content osr spells"),
                    ),
                ),
            }
        }
        if monster.is_none() && class.is_none() && c.attack_bonus.is_none() {
            errors.push(file.error(
                c.id_span_or(0..0),
                Some(f("monster")),
                "a combatant needs `monster`, or `class` (with `level`), or `attack_bonus`",
            ));
        }
        let size = match &c.size {
            Some(s) => Size::from_key(s.get_ref()).unwrap_or_else(|| {
                errors.push(file.error(
                    s.span(),
                    Some(f("size")),
                    "unknown size; expected one of small, medium, large",
                ));
                Size::Medium
            }),
            None => monster.as_ref().map_or(Size::Medium, |m| m.size),
        };
        let lvl = (level - 1) as usize;
        let attack_bonus = int(&file, errors, f("attack_bonus"), &c.attack_bonus, -10, 30)
            .or(monster.as_ref().map(|m| m.attack_bonus))
            .or(class.as_ref().map(|k| k.attack_bonus[lvl]))
            .unwrap_or(0);
        let max_hp = int(&file, errors, f("hp"), &c.hp, 1, 10_000)
            .or(monster.as_ref().map(|m| m.hp))
            .or(class.as_ref().map(|k| {
                // Average of the hit die, rounded up, per level, plus CON.
                ((k.hit_die / 2 + 1 + ability_mod(con)).max(1)) * level
            }))
            .unwrap_or(4);
        let worn = armor.as_ref().map_or(10, |a| a.ac);
        let ac = int(&file, errors, f("ac"), &c.ac, -10, 40)
            .or(monster.as_ref().map(|m| m.ac))
            .unwrap_or(worn + shield + dex_mod);
        let movement = int(&file, errors, f("move"), &c.movement, 0, 1000)
            .or(monster.as_ref().map(|m| m.movement))
            .unwrap_or(match armor.as_ref().map(|a| a.kind) {
                Some(ArmorKind::Metal) if worn >= 16 => 20,
                Some(ArmorKind::Metal) => 30,
                _ => 40,
            });
        let mut melee: Vec<Weapon> = Vec::new();
        let mut routine = false;
        if let Some(w) = &weapon {
            if w.melee {
                melee.push(w.clone());
            }
        }
        if let Some(m) = &monster {
            if melee.is_empty() {
                melee = m.attacks.iter().filter(|w| w.melee).cloned().collect();
                routine = m.attacks.len() > 1;
            }
        }
        let missile = missile
            .or_else(|| weapon.clone().filter(|w| !w.melee))
            .or(monster.as_ref().and_then(|m| m.missile.clone()));
        let start_hp =
            int(&file, errors, f("start_hp"), &c.start_hp, -100, 10_000).unwrap_or(max_hp);
        // OSR-R23.5: loaded crossbows carried besides the one in hand, swapped in to fire.
        let spare_crossbows = int(
            &file,
            errors,
            f("spare_crossbows"),
            &c.spare_crossbows,
            0,
            10,
        )
        .unwrap_or(0);
        if spare_crossbows > 0 && !missile.as_ref().is_some_and(|m| matches!(m.reload, 1 | 2)) {
            if let Some(v) = &c.spare_crossbows {
                errors.push(file.error(
                    v.span(),
                    Some(f("spare_crossbows")),
                    "spare loaded crossbows need a crossbow as the `missile` (OSR-R23.5)",
                ));
            }
        }
        let cover = match int(&file, errors, f("cover"), &c.cover, 0, 90) {
            None | Some(0) => 0,
            Some(p @ (25 | 50 | 75 | 90)) => p as u8,
            Some(_) => {
                if let Some(v) = &c.cover {
                    errors.push(file.error(
                        v.span(),
                        Some(f("cover")),
                        "cover or concealment is 25, 50, 75 or 90 (percent, OSR-R22)",
                    ));
                }
                0
            }
        };
        if errors.len() > before {
            return None;
        }
        let profile = Profile {
            attack_bonus,
            str_mod,
            dex_mod,
            con,
            ac,
            touch_ac: int(&file, errors, f("touch_ac"), &c.touch_ac, 0, 40).unwrap_or(10 + dex_mod),
            max_hp,
            movement,
            size,
            elf: c.elf.unwrap_or(class.as_ref().is_some_and(|k| k.elf)),
            save_death: int(&file, errors, f("save_death"), &c.save_death, 1, 30)
                .or(monster.as_ref().map(|m| m.save_death))
                .or(class.as_ref().map(|k| k.save_death[lvl]))
                .unwrap_or(14),
            save_spells: int(&file, errors, f("save_spells"), &c.save_spells, 1, 30)
                .or(monster.as_ref().map(|m| m.save_spells))
                .or(class.as_ref().map(|k| k.save_spells[lvl]))
                .unwrap_or(17),
            melee,
            routine,
            offhand,
            missile,
            armor: armor.map_or(ArmorKind::None, |a| a.kind),
            spells,
            undead: c
                .undead
                .unwrap_or(monster.as_ref().is_some_and(|m| m.undead)),
            fire_resistant: c
                .fire_resistant
                .unwrap_or(monster.as_ref().is_some_and(|m| m.fire_resistant)),
            charges: c
                .charges
                .unwrap_or(monster.as_ref().is_some_and(|m| m.charges)),
            crit_bonus: int(&file, errors, f("crit_bonus"), &c.crit_bonus, -19, 19).unwrap_or(0),
            needs_magic: c.needs_magic.unwrap_or(false),
            magic_weapon: c.magic_weapon.unwrap_or(false),
            monster: monster.is_some() && class.is_none(),
        };
        let fighter = Fighter {
            oil: int(&file, errors, f("oil"), &c.oil, 0, 20).unwrap_or(0) as u8,
            spare_loaded: spare_crossbows as u8,
            fused: c.fused.unwrap_or(false),
            holy_water: int(&file, errors, f("holy_water"), &c.holy_water, 0, 20).unwrap_or(0)
                as u8,
            cover,
            concealed: c.concealed.unwrap_or(false),
            ..Fighter::fresh(SideId(0), Pos::new(0, 0), start_hp)
        };
        Some((profile, fighter))
    }

    fn place(&self, (_, f): &mut (Profile, Fighter), placed: Placed) {
        f.side = placed.side;
        f.pos = placed.pos;
        f.facing = placed.facing;
    }

    fn finish(
        self,
        cx: &mut Loader<'_>,
        def: &EncounterDef,
        roster: Roster,
        members: Vec<(Profile, Fighter)>,
    ) -> State {
        let file = cx.file;
        let o = &def.options;
        let d = Options::default();
        let condition_rounds = int(
            &file,
            &mut cx.errors,
            "options.condition_rounds".into(),
            &o.condition_rounds,
            1,
            100,
        )
        .map_or(d.condition_rounds, |n| n as u32);
        let options = Options {
            initiative_once: o.initiative_once.unwrap_or(d.initiative_once),
            surprise_save: o.surprise_save.unwrap_or(d.surprise_save),
            stray_missiles: o.stray_missiles.unwrap_or(d.stray_missiles),
            charges: o.charges.unwrap_or(d.charges),
            knockout_monsters: o.knockout_monsters.unwrap_or(d.knockout_monsters),
            kick_lethal: o.kick_lethal.unwrap_or(d.kick_lethal),
            condition_rounds,
            crossbows_loaded: o.crossbows_loaded.unwrap_or(d.crossbows_loaded),
            fused_direct_splash_only: o
                .fused_direct_splash_only
                .unwrap_or(d.fused_direct_splash_only),
            holy_direct_splash: o.holy_direct_splash.unwrap_or(d.holy_direct_splash),
            run_away_leaves: o.run_away_leaves.unwrap_or(d.run_away_leaves),
            disruption_vs_death: o.disruption_vs_death.unwrap_or(d.disruption_vs_death),
        };
        let surprise = def.surprise.as_ref().map(|s| {
            let mut read = |list: &[Spanned<String>], name: &str| {
                list.iter()
                    .enumerate()
                    .filter_map(|(i, k)| cx.side(format!("surprise.{name}[{i}]"), k))
                    .collect::<Vec<_>>()
            };
            let mut sides = read(&s.sides, "sides");
            let ambushers = read(&s.ambushers, "ambushers");
            if s.sides.is_empty() {
                // Every side not lying in ambush might be surprised.
                sides = (0..roster.sides.len() as u8)
                    .map(SideId)
                    .filter(|x| !ambushers.contains(x))
                    .collect();
            }
            Surprise { sides, ambushers }
        });
        let (profiles, mut fighters): (Vec<Profile>, Vec<Fighter>) = members.into_iter().unzip();
        for (fighter, info) in fighters.iter_mut().zip(&roster.combatants) {
            fighter.reserve = info.reserve;
        }
        if !options.crossbows_loaded {
            for (p, f) in profiles.iter().zip(fighters.iter_mut()) {
                if p.missile.as_ref().is_some_and(|m| m.reload > 0) {
                    f.reloading_until = u32::from(p.missile.as_ref().map_or(0, |m| m.reload));
                }
            }
        }
        State {
            occupancy: fray_core::Occupancy::new(fighters.iter().map(|f| f.pos)),
            up_at_number: Vec::new(),
            roster,
            profiles: Arc::new(profiles),
            fighters,
            options,
            surprise,
            round: 0,
            number: 0,
            areas: fray_core::Areas::default(),
            asking: None,
            paused: crate::state::Paused::No,
            single: false,
        }
    }
}

trait IdSpan {
    fn id_span_or(&self, or: std::ops::Range<usize>) -> std::ops::Range<usize>;
}

impl IdSpan for CombatantDef {
    fn id_span_or(&self, or: std::ops::Range<usize>) -> std::ops::Range<usize> {
        use fray_core::loader::CombatantEntry;
        let s = self.id_span();
        if s.is_empty() {
            or
        } else {
            s
        }
    }
}
