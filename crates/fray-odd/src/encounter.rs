//! OD&D encounter files: sides, combatants (a monster, or a character of a class), units of
//! figures for mass combat, the encounter's set-up (`[encounter]`, `[[surprise]]`), the DM's
//! `[options]` and the encounter's own content (`[[monster]]`, `[[reaction]]`, …), validated
//! with every error located. Format: `docs/encounters.md` (section "OD&D").

use crate::content::{ClassGroup, Content, ContentFile, Weapon};
use crate::rules::tables;
use crate::state::{
    Fighter, Form, Group, Options, Profile, Round, Setup, State, Stealth, Surprise,
};
use fray_core::catalog::ContentSet;
use fray_core::loader::{CombatantBuilder, Loader, Placed};
use fray_core::{Pos, Roster, RulesetId, SideId};
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::Arc;
use toml::Spanned;

/// A loaded OD&D encounter.
pub type Encounter = fray_core::Encounter<State>;

/// Reads an encounter file.
pub fn load(
    path: &str,
    text: &str,
    content: &Content,
) -> Result<Encounter, fray_core::span::FileErrors> {
    fray_core::loader::load(
        path,
        text,
        Builder {
            content: Cow::Borrowed(content),
        },
    )
}

struct Builder<'c> {
    content: Cow<'c, Content>,
}

fray_core::encounter_file! {
    /// An OD&D encounter file.
    struct EncounterDef for CombatantDef {
        #[serde(default)]
        options: OptionsDef,
        #[serde(default)]
        encounter: SetupDef,
        #[serde(default)]
        surprise: Vec<SurpriseDef>,
        #[serde(default)]
        weapon: Vec<crate::content::WeaponFile>,
        #[serde(default)]
        armor: Vec<crate::content::ArmorFile>,
        #[serde(default)]
        shield: Vec<crate::content::ShieldFile>,
        #[serde(default)]
        class: Vec<crate::content::ClassFile>,
        #[serde(default)]
        monster: Vec<crate::content::MonsterFile>,
        #[serde(default)]
        spell: Vec<crate::content::SpellFile>,
        #[serde(default)]
        reaction: Vec<crate::content::BandFile>,
        #[serde(default)]
        fumble: Vec<crate::content::BandFile>,
        #[serde(default)]
        objects: Vec<ObjectDef>,
    }
}

/// One `[[objects]]` entry: a thing an axe may chop (ODD-R13).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectDef {
    id: Spanned<String>,
    name: Option<String>,
    at: Spanned<Vec<i64>>,
}

/// ODD-R13: the `[[objects]]` an axe may chop (hawsers, wooden doors): a key unique among
/// them, a name, a square.
fn objects(cx: &mut Loader<'_>, defs: &[ObjectDef]) -> Vec<crate::state::Object> {
    if defs.len() > State::MAX_OBJECTS {
        cx.file_error(format!(
            "{} [[objects]]: at most {} may be listed",
            defs.len(),
            State::MAX_OBJECTS
        ));
        return Vec::new();
    }
    let mut out: Vec<crate::state::Object> = Vec::new();
    for (k, d) in defs.iter().enumerate() {
        let key = d.id.get_ref().trim();
        if key.is_empty() || key.contains(char::is_whitespace) {
            cx.error(
                d.id.span(),
                format!("objects[{k}].id"),
                "expected a key: one word, not empty",
            );
            continue;
        }
        if out.iter().any(|o| o.key == key) {
            cx.error(
                d.id.span(),
                format!("objects[{k}].id"),
                format!("`{key}` names another object already"),
            );
            continue;
        }
        let at = d.at.get_ref();
        if at.len() != 2 || at.iter().any(|c| c.abs() > 10_000) {
            cx.error(
                d.at.span(),
                format!("objects[{k}].at"),
                "expected a square [x, y], whole numbers from -10000 to 10000",
            );
            continue;
        }
        out.push(crate::state::Object {
            key: key.to_string(),
            name: d.name.clone().unwrap_or_else(|| key.to_string()),
            pos: Pos::new(at[0] as i32, at[1] as i32),
        });
    }
    out
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionsDef {
    reroll_initiative: Option<bool>,
    party_initiative: Option<bool>,
    hireling_morale: Option<bool>,
    all_characters_multiattack: Option<bool>,
    critical_multiplier: Option<Spanned<i64>>,
    leader_upset: Option<bool>,
    inch_ft: Option<Spanned<i64>>,
    min_damage: Option<Spanned<i64>>,
    mass: Option<bool>,
    multiplier_alive: Option<bool>,
    morale: Option<Spanned<i64>>,
    pursue_upto: Option<Spanned<i64>>,
    reach_advantage: Option<Spanned<i64>>,
    utility_bonus: Option<Spanned<i64>>,
    round_minutes: Option<Spanned<i64>>,
    shortcut: Option<bool>,
    pursuit_between: Option<Spanned<String>>,
    friendly_fire: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupDef {
    surprise: Option<bool>,
    outdoors: Option<bool>,
    distance: Option<Spanned<i64>>,
    reaction: Option<Spanned<String>>,
    morale_at_start: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SurpriseDef {
    side: Spanned<String>,
    surprises_on: Option<Spanned<i64>>,
    surprised_on: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpellRef {
    name: Spanned<String>,
    count: Option<Spanned<i64>>,
}

fray_core::combatant_entry! {
    /// One `[[combatants]]` entry: the common keys plus a monster or a class.
    struct CombatantDef {
        monster: Option<Spanned<String>>,
        class: Option<Spanned<String>>,
        level: Option<Spanned<i64>>,
        hp: Option<Spanned<i64>>,
        ac: Option<Spanned<i64>>,
        armor: Option<Spanned<String>>,
        shield: Option<Spanned<String>>,
        weapon: Option<Spanned<String>>,
        ranged: Option<Spanned<String>>,
        str: Option<Spanned<i64>>,
        dex: Option<Spanned<i64>>,
        psy: Option<Spanned<i64>>,
        str_bonus: Option<Spanned<i64>>,
        dex_bonus: Option<Spanned<i64>>,
        psy_bonus: Option<Spanned<i64>>,
        swashbuckler: Option<bool>,
        attack_ac9: Option<Spanned<i64>>,
        paralysis: Option<Spanned<i64>>,
        #[serde(rename = "move")]
        move_in: Option<Spanned<i64>>,
        morale: Option<Spanned<i64>>,
        leader: Option<bool>,
        figures: Option<Spanned<i64>>,
        normal_man: Option<bool>,
        florentine: Option<bool>,
        mounted: Option<bool>,
        large: Option<bool>,
        magic_weapon: Option<bool>,
        untrained: Option<bool>,
        offhand: Option<Spanned<String>>,
        high_ground: Option<bool>,
        hasted: Option<bool>,
        cover: Option<Spanned<i64>>,
        back_to_wall: Option<bool>,
        surround: Option<Spanned<i64>>,
        #[serde(default)]
        spells: Vec<SpellRef>,
    }
}

/// ODD-R15: the untrained damage die by weapon size.
fn untrained_die(size: &str) -> fray_core::damage::DamageDice {
    let sides = match size {
        "small" => 3,
        "medium" => 4,
        _ => 6,
    };
    fray_core::damage::DamageDice {
        count: 1,
        sides,
        bonus: 0,
    }
}

fn field(i: usize, name: &str) -> String {
    format!("combatants[{i}].{name}")
}

impl CombatantBuilder for Builder<'_> {
    type File = EncounterDef;
    type Member = (Profile, Fighter);
    type State = State;
    const RULESET: RulesetId = RulesetId::Odd;

    fn prepare(&mut self, cx: &mut Loader<'_>, def: &EncounterDef) {
        let inline = ContentFile {
            weapon: def.weapon.clone(),
            armor: def.armor.clone(),
            shield: def.shield.clone(),
            class: def.class.clone(),
            monster: def.monster.clone(),
            spell: def.spell.clone(),
            reaction: def.reaction.clone(),
            fumble: def.fumble.clone(),
            ..ContentFile::default()
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
        let content = &*self.content;
        let tables = &content.tables;
        let before = cx.errors.len();
        let weapon = |cx: &mut Loader<'_>, name: &str, v: &Option<Spanned<String>>| {
            let v = v.as_ref()?;
            let found = content.weapon(v.get_ref()).cloned();
            if found.is_none() {
                cx.error(
                    v.span(),
                    field(i, name),
                    content
                        .weapons
                        .unknown("weapon", v.get_ref(), "fray content odd weapons"),
                );
            }
            found
        };
        let melee_weapon: Option<Weapon> = weapon(cx, "weapon", &c.weapon);
        let offhand: Option<Weapon> = weapon(cx, "offhand", &c.offhand);
        let cover = match &c.cover {
            Some(v) if [0, 25, 50, 75].contains(v.get_ref()) => *v.get_ref() as i32,
            Some(v) => {
                cx.error(
                    v.span(),
                    field(i, "cover"),
                    "cover is 25, 50 or 75 (percent; ODD-R9)",
                );
                0
            }
            None => 0,
        };
        let back_to_wall = c.back_to_wall.unwrap_or(false);
        // ODD-R19.1: 6 of about human size around a human-sized one; the DM's number else.
        let surround = cx
            .int(field(i, "surround"), c.surround.as_ref(), 1, 24)
            .unwrap_or(6) as u8;
        let missile: Option<Weapon> = weapon(cx, "ranged", &c.ranged);
        if let (Some(w), Some(v)) = (&missile, &c.ranged) {
            if !w.kind.missile() {
                cx.error(
                    v.span(),
                    field(i, "ranged"),
                    format!("`{}` is not a missile weapon", w.name),
                );
            }
        }
        let score = |cx: &mut Loader<'_>, name: &str, v: &Option<Spanned<i64>>| {
            cx.int(field(i, name), v.as_ref(), 3, 25).unwrap_or(10)
        };
        let (str_score, dex, psy) = (
            score(cx, "str", &c.str),
            score(cx, "dex", &c.dex),
            score(cx, "psy", &c.psy),
        );
        let bonus = |cx: &mut Loader<'_>, name: &str, v: &Option<Spanned<i64>>, s: i32| {
            cx.int(field(i, name), v.as_ref(), -5, 5)
                .unwrap_or_else(|| tables.bonus(s))
        };
        let str_bonus = bonus(cx, "str_bonus", &c.str_bonus, str_score);
        let dex_bonus = bonus(cx, "dex_bonus", &c.dex_bonus, dex);
        let psy_bonus = bonus(cx, "psy_bonus", &c.psy_bonus, psy);
        let shield = match &c.shield {
            Some(v) => match content.shields.get(v.get_ref()) {
                Some(s) => s.bonus,
                None => {
                    cx.error(
                        v.span(),
                        field(i, "shield"),
                        content
                            .shields
                            .unknown("shield", v.get_ref(), "fray content odd armour"),
                    );
                    0
                }
            },
            None => 0,
        };
        let armor = match &c.armor {
            Some(v) => {
                let found = content.armor.get(v.get_ref()).cloned();
                if found.is_none() {
                    cx.error(
                        v.span(),
                        field(i, "armor"),
                        content
                            .armor
                            .unknown("armour", v.get_ref(), "fray content odd armour"),
                    );
                }
                found
            }
            None => None,
        };
        let ac_override = cx.int(field(i, "ac"), c.ac.as_ref(), -10, 10);
        let level = cx.int(field(i, "level"), c.level.as_ref(), 0, 40);
        let figures = cx
            .int(field(i, "figures"), c.figures.as_ref(), 1, 1000)
            .unwrap_or(1) as u32;
        let hp = cx
            .int(field(i, "hp"), c.hp.as_ref(), 1, 100_000)
            .unwrap_or(0);
        let move_override = cx.int(field(i, "move"), c.move_in.as_ref(), 0, 48);
        let morale_override = cx.int(field(i, "morale"), c.morale.as_ref(), 2, 12);
        let ac9_override = cx.int(field(i, "attack_ac9"), c.attack_ac9.as_ref(), -20, 30);
        let paralysis_override = cx.int(field(i, "paralysis"), c.paralysis.as_ref(), 1, 30);
        let mut spells = Vec::new();
        let mut spells_left = Vec::new();
        for (k, s) in c.spells.iter().enumerate() {
            match content.spells.get(s.name.get_ref()) {
                Some(spell) => {
                    spells.push(spell.clone());
                    let n = cx
                        .int(
                            format!("combatants[{i}].spells[{k}].count"),
                            s.count.as_ref(),
                            1,
                            20,
                        )
                        .unwrap_or(1);
                    spells_left.push(n as u8);
                }
                None => cx.error(
                    s.name.span(),
                    format!("combatants[{i}].spells[{k}].name"),
                    content
                        .spells
                        .unknown("spell", s.name.get_ref(), "fray content odd spells"),
                ),
            }
        }
        let mut profile = match (&c.monster, &c.class) {
            (Some(m), None) => {
                let Some(mon) = content.monsters.get(m.get_ref()) else {
                    cx.error(
                        m.span(),
                        field(i, "monster"),
                        content.monsters.unknown(
                            "monster",
                            m.get_ref(),
                            "fray content odd monsters",
                        ),
                    );
                    return None;
                };
                let melee = match &melee_weapon {
                    Some(w) => vec![Form::of_weapon(w)],
                    None => mon.attacks.iter().map(Form::of_attack).collect(),
                };
                Profile {
                    group: ClassGroup::Monster,
                    character: false,
                    level: mon.hd,
                    plus: mon.plus,
                    normal_man: c
                        .normal_man
                        .or(mon.normal_man)
                        .unwrap_or(mon.hd <= 1 && mon.plus <= 0),
                    ac: ac_override.unwrap_or(mon.ac),
                    shield,
                    dex_ac: 0,
                    str_score,
                    str_bonus: 0,
                    dex_bonus: 0,
                    psy_bonus: 0,
                    swashbuckler: false,
                    attack_ac9: ac9_override.unwrap_or_else(|| {
                        crate::content::row_value(
                            &tables.monster_attack,
                            tables::monster_hd_tenths(mon.hd, mon.plus),
                        )
                    }),
                    paralysis: paralysis_override.unwrap_or_else(|| {
                        crate::content::row_value(&tables.monster_paralysis, mon.hd)
                    }),
                    melee,
                    missile: missile.clone().or_else(|| mon.ranged.clone()),
                    fire_on_run: Vec::new(),
                    move_in: move_override.unwrap_or(mon.move_in),
                    morale: morale_override.or(mon.morale).unwrap_or(tables.morale),
                    leader: c.leader.unwrap_or(false),
                    max_hp: hp,
                    figures,
                    magic_weapon: c.magic_weapon.unwrap_or(false),
                    needs_magic: mon.needs_magic,
                    florentine: c.florentine.unwrap_or(false),
                    mounted: c.mounted.unwrap_or(false),
                    large: c.large.unwrap_or(mon.size == "large" || mon.size == "huge"),
                    huge: mon.size == "huge",
                    special: mon.special.clone(),
                    weak_to: mon.weak_to.clone(),
                    intelligent: mon.intelligent,
                    spells,
                    unarmed: content.weapon("empty hand").map(Form::of_weapon),
                    offhand: offhand.as_ref().map(Form::of_weapon),
                    high_ground: c.high_ground.unwrap_or(false),
                    hasted: c.hasted.unwrap_or(false),
                    cover,
                    back_to_wall,
                    surround,
                }
            }
            (None, Some(k)) => {
                let Some(class) = content.classes.get(k.get_ref()) else {
                    cx.error(
                        k.span(),
                        field(i, "class"),
                        content
                            .classes
                            .unknown("class", k.get_ref(), "fray content odd classes"),
                    );
                    return None;
                };
                let level = level.unwrap_or(1);
                let melee_weapon = melee_weapon
                    .clone()
                    .or_else(|| content.weapon("empty hand").cloned());
                let light = armor.as_ref().is_none_or(|a| a.light);
                let one_handed = melee_weapon.as_ref().is_none_or(|w| w.hands == 1);
                let swash = c.swashbuckler.unwrap_or(false);
                if swash && !(class.swashbuckler && light && one_handed) {
                    cx.error(
                        0..0,
                        field(i, "swashbuckler"),
                        "only a fighter or pirate in light armour with a one-handed weapon \
                         fights as a swashbuckler (ODD-R7)",
                    );
                }
                let armour_ac = armor.as_ref().map_or(9, |a| a.ac);
                Profile {
                    group: class.group,
                    character: true,
                    level,
                    plus: 0,
                    normal_man: c.normal_man.unwrap_or(level <= 1),
                    ac: ac_override.unwrap_or(armour_ac),
                    shield,
                    dex_ac: dex_bonus,
                    str_score,
                    str_bonus,
                    dex_bonus,
                    psy_bonus,
                    swashbuckler: swash,
                    attack_ac9: ac9_override
                        .unwrap_or_else(|| crate::content::row_value(&class.attack, level)),
                    paralysis: paralysis_override
                        .unwrap_or_else(|| crate::content::row_value(&class.paralysis, level)),
                    melee: melee_weapon.iter().map(Form::of_weapon).collect(),
                    missile: missile.clone(),
                    fire_on_run: class.fire_on_run.clone(),
                    move_in: move_override.unwrap_or(if armour_ac >= 9 {
                        12
                    } else if light {
                        9
                    } else {
                        6
                    }),
                    morale: morale_override.unwrap_or(tables.morale),
                    leader: c.leader.unwrap_or(false),
                    max_hp: hp,
                    figures,
                    magic_weapon: c.magic_weapon.unwrap_or(false),
                    needs_magic: false,
                    florentine: c.florentine.unwrap_or(false),
                    mounted: c.mounted.unwrap_or(false),
                    large: c.large.unwrap_or(false),
                    huge: false,
                    special: None,
                    weak_to: Vec::new(),
                    intelligent: true,
                    spells,
                    unarmed: content.weapon("empty hand").map(Form::of_weapon),
                    offhand: offhand.as_ref().map(Form::of_weapon),
                    high_ground: c.high_ground.unwrap_or(false),
                    hasted: c.hasted.unwrap_or(false),
                    cover,
                    back_to_wall,
                    surround,
                }
            }
            _ => {
                let span = c
                    .monster
                    .as_ref()
                    .map_or_else(|| c.id.as_ref().map_or(0..0, |s| s.span()), |m| m.span());
                cx.error(
                    span,
                    field(i, "monster"),
                    "give exactly one of `monster` (from the content) or `class` (a character)",
                );
                return None;
            }
        };
        // ODD-R15: a weapon it is not trained in: it attacks as a Normal Man, for D3, D4 or D6
        // by the weapon's size.
        if c.untrained.unwrap_or(false) {
            if let Some(normal) = content.classes.get("normal man") {
                profile.attack_ac9 = crate::content::row_value(&normal.attack, 0);
            }
            for form in &mut profile.melee {
                if let Some(w) = &form.weapon {
                    form.damage = untrained_die(w.size);
                }
            }
            if let Some(w) = &mut profile.missile {
                w.damage = untrained_die(w.size);
            }
        }
        if figures > 1 && (profile.level.max(1) as u32) * figures > 60_000 {
            cx.error(
                0..0,
                field(i, "figures"),
                "a unit of more than 60,000 hit dice is beyond the limit",
            );
        }
        if figures > 1 {
            profile.normal_man = c
                .normal_man
                .unwrap_or(profile.level <= 1 && profile.plus <= 0);
        }
        if cx.errors.len() > before {
            return None;
        }
        let fighter = Fighter {
            side: SideId(0),
            pos: Pos::new(0, 0),
            facing: fray_core::grid::Direction::East,
            turn_to: None,
            hp,
            max_hp: hp,
            dead: false,
            gone: None,
            group: 0,
            initiative: 0,
            charged: false,
            shot_round: None,
            caught: false,
            spells_left,
            round: Round::default(),
            dealt: 0,
            taken: 0,
            temp: 0,
            punches: Vec::new(),
            disarmed: false,
            dismounted: false,
            knocked_down: None,
            swallowed_by: None,
            stunned_until: 0,
            pinned_by: Vec::new(),
            struggling: false,
            from_behind: Vec::new(),
            melee_attackers: Vec::new(),
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
        let o = &def.options;
        let tables = {
            let mut t = self.content.tables.clone();
            if let Some(m) = cx.int("options.morale", o.morale.as_ref(), 2, 12) {
                t.morale = m;
            }
            if let Some(p) = cx.int("options.pursue_upto", o.pursue_upto.as_ref(), 1, 12) {
                t.pursue_upto = p;
            }
            t
        };
        let options = Options {
            reroll_initiative: o.reroll_initiative.unwrap_or(false),
            party_initiative: o.party_initiative.unwrap_or(false),
            hireling_morale: o.hireling_morale.unwrap_or(false),
            all_characters_multiattack: o.all_characters_multiattack.unwrap_or(false),
            critical_multiplier: cx
                .int(
                    "options.critical_multiplier",
                    o.critical_multiplier.as_ref(),
                    1,
                    5,
                )
                .unwrap_or(2),
            leader_upset: o.leader_upset.unwrap_or(true),
            inch_ft: cx
                .int("options.inch_ft", o.inch_ft.as_ref(), 1, 30)
                .unwrap_or(10),
            min_damage: cx
                .int("options.min_damage", o.min_damage.as_ref(), 0, 1)
                .unwrap_or(1),
            mass: o.mass.unwrap_or(false),
            multiplier_alive: o.multiplier_alive.unwrap_or(false),
            reach_advantage: cx
                .int("options.reach_advantage", o.reach_advantage.as_ref(), 1, 10)
                .unwrap_or(2),
            utility_bonus: cx
                .int("options.utility_bonus", o.utility_bonus.as_ref(), 0, 10)
                .unwrap_or(0),
            round_minutes: cx
                .int("options.round_minutes", o.round_minutes.as_ref(), 1, 10)
                .unwrap_or(1) as u32,
            shortcut: o.shortcut.unwrap_or(false),
            pursuit_between: o.pursuit_between.as_ref().and_then(|v| {
                let table = crate::choice::Between::ALL.map(|b| (b.text(), b));
                cx.keyword("options.pursuit_between", "ruling", v, &table)
            }),
            friendly_fire: o.friendly_fire.unwrap_or(false),
        };
        let e = &def.encounter;
        let reaction = e
            .reaction
            .as_ref()
            .and_then(|r| cx.side("encounter.reaction", r));
        let mut stealth = vec![Stealth::default(); roster.sides.len()];
        for (k, s) in def.surprise.iter().enumerate() {
            let Some(side) = cx.side(format!("surprise[{k}].side"), &s.side) else {
                continue;
            };
            let st = &mut stealth[side.index()];
            if let Some(v) = cx.int(
                format!("surprise[{k}].surprises_on"),
                s.surprises_on.as_ref(),
                0,
                6,
            ) {
                st.surprises_on = v;
            }
            if let Some(v) = cx.int(
                format!("surprise[{k}].surprised_on"),
                s.surprised_on.as_ref(),
                0,
                6,
            ) {
                st.surprised_on = v;
            }
        }
        let setup = Setup {
            surprise: e.surprise.unwrap_or(false),
            stealth,
            outdoors: e.outdoors.unwrap_or(false),
            distance: cx.int("encounter.distance", e.distance.as_ref(), 0, 10_000),
            reaction,
            morale_at_start: e.morale_at_start.unwrap_or(false),
        };
        let (profiles, mut fighters): (Vec<Profile>, Vec<Fighter>) = members.into_iter().unzip();
        // Groups: one per `[[combatants]]` entry, in order of first appearance.
        let mut groups: Vec<Group> = Vec::new();
        for (i, info) in roster.combatants.iter().enumerate() {
            let g = match groups.iter().position(|g| g.key == info.group) {
                Some(g) => g,
                None => {
                    groups.push(Group {
                        key: info.group.clone(),
                        side: info.side,
                        members: Vec::new(),
                        checks_morale: false,
                        one_die: !profiles[i].character,
                        morale: profiles[i].morale,
                        passes: 0,
                        started: false,
                        first_death: false,
                        half_down: false,
                        upset: false,
                        routed: false,
                    });
                    groups.len() - 1
                }
            };
            groups[g].members.push(fray_core::CombatantId(i as u16));
            fighters[i].group = g as u16;
        }
        for g in &mut groups {
            // ODD-R4.1: each player rolls for its character; the DM one die per group.
            g.one_die = g.members.len() > 1 || !profiles[g.members[0].index()].character;
            let side = g.side;
            let pc_side = profiles
                .iter()
                .zip(&fighters)
                .any(|(p, f)| p.character && f.side == side);
            let monsters = g.members.iter().all(|m| !profiles[m.index()].character);
            g.checks_morale = monsters && (!pc_side || options.hireling_morale);
        }
        State {
            occupancy: fray_core::Occupancy::new(fighters.iter().map(|f| f.pos)),
            roster,
            profiles: Arc::new(profiles),
            fighters,
            groups,
            options,
            setup,
            tables: Arc::new(tables),
            surprise: Surprise::None,
            distance: 0,
            round: 0,
            initiative_rolled: false,
            asking: None,
            slot: crate::state::Slot::None,
            pressing: false,
            reaction: None,
            grapples: Vec::new(),
            reroll_next: false,
            set_against: None,
            pursuing: None,
            lure: None,
            objects: Arc::new(objects(cx, &def.objects)),
            chopped: 0,
            paused: crate::state::Paused::No,
        }
    }
}
