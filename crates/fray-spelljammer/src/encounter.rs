//! Spelljammer encounter files: sides, combatants (from monsters or written out), options,
//! surprise, ambush, overrides and a script, validated with every error located.
//!
//! The common keys are read by `fray_core::loader`; this module builds Spelljammer's combatants
//! and reads its own tables. The format is described in `docs/encounters.md` (section
//! "Spelljammer"). Every problem in a file is reported at once, each with file, line, column and
//! field (`combatants[2].weapon`).

use crate::content::{
    one_of, ArmorFile, Content, ContentFile, Damage, MonsterFile, ShieldFile, Size, Specialization,
    SpellFile, Weapon, WeaponFile,
};
use crate::rules::tables::{self, Cover, TargetPace};
use crate::state::{
    Ambush, AttackForm, Fighter, ForcedMove, GrievousWound, Lighting, Options, Override, Plan,
    Profile, Spell, State, SurpriseKind, SurpriseRuling,
};
use fray_core::catalog::ContentSet;
use fray_core::loader::{CombatantBuilder, CombatantEntry, Loader, Placed};
use fray_core::span::{FileError, FileErrors, SourceFile};
use fray_core::{Limits, Pos, Roster, RulesetId, SideId};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// Every cover, for messages.
const COVERS: [Cover; 3] = [Cover::None, Cover::Soft, Cover::Hard];

/// Healing of a potion when `potions` is given without `potion` dice.
pub const DEFAULT_POTION: Damage = Damage {
    count: 2,
    sides: 4,
    bonus: 2,
};

/// A loaded Spelljammer encounter.
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

/// Builds Spelljammer combatants.
struct Builder<'c> {
    content: Cow<'c, Content>,
}

impl CombatantBuilder for Builder<'_> {
    type File = EncounterDef;
    type Member = (Profile, Fighter);
    type State = State;
    const RULESET: RulesetId = RulesetId::Spelljammer;
    const RESERVES: bool = true;

    fn prepare(&mut self, cx: &mut Loader<'_>, def: &EncounterDef) {
        let inline = ContentFile {
            weapon: def.weapon.clone(),
            armor: def.armor.clone(),
            shield: def.shield.clone(),
            monster: def.monster.clone(),
            spell: def.spell.clone(),
        };
        if let Cow::Owned(content) = self.content.with_inline(&cx.file, &inline, &mut cx.errors) {
            self.content = Cow::Owned(content);
        }
    }

    fn default_name(&self, c: &CombatantDef) -> Option<String> {
        let m = c.monster.as_ref()?;
        self.content.monster(m.get_ref()).map(|m| m.name.clone())
    }

    fn member(
        &mut self,
        cx: &mut Loader<'_>,
        i: usize,
        c: &CombatantDef,
    ) -> Option<(Profile, Fighter)> {
        let file = cx.file;
        let errors = &mut cx.errors;
        let profile = build_profile(&file, i, c, &self.content, errors)?;
        let hp = match &c.start_hp {
            Some(_) => int(
                &file,
                field(i, "start_hp"),
                &c.start_hp,
                1,
                profile.max_hp.into(),
                errors,
            )
            .unwrap_or(profile.max_hp),
            None => profile.max_hp,
        };
        let potions = int(&file, field(i, "potions"), &c.potions, 0, 50, errors).unwrap_or(0);
        let cover = match &c.cover {
            Some(v) => Cover::from_key(v.get_ref()).unwrap_or_else(|| {
                errors.push(file.error(
                    v.span(),
                    field(i, "cover"),
                    format!(
                        "unknown cover `{}`; expected one of {}",
                        v.get_ref(),
                        one_of(COVERS.iter().map(|c| c.key()))
                    ),
                ));
                Cover::None
            }),
            None => Cover::None,
        };
        let fighter = Fighter {
            side: SideId(0),
            pos: Pos::new(0, 0),
            hp,
            prot_lost: 0,
            down: false,
            gone: None,
            dead: false,
            stunned: false,
            casting: None,
            stuck: Vec::new(),
            weapon_dropped: c.weapon_dropped.unwrap_or(false),
            shield_slung: c.shield_slung.unwrap_or(false),
            potions: potions as u8,
            aimed: false,
            wounds: (0, 0),
            held: false,
            invisible: c.invisible.unwrap_or(false),
            cover,
            plan: Plan::default(),
            dealt: 0,
            taken: 0,
        };
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
        let side_keys = one_of(roster.sides.iter().map(|s| s.key.as_str()));
        let errors = &mut cx.errors;
        let options = read_options(&file, &def.options, &roster, errors);
        let ambush = def
            .ambush
            .as_ref()
            .and_then(|a| match roster.find_side(a.by.get_ref()) {
                Some(by) => Some(Ambush { by }),
                None => {
                    errors.push(file.error(
                        a.by.span(),
                        Some("ambush.by".to_string()),
                        format!(
                            "unknown side `{}`; the sides are {side_keys}",
                            a.by.get_ref()
                        ),
                    ));
                    None
                }
            });
        let surprises = read_surprises(cx, def);
        let overrides = read_overrides(cx, def);
        let forced_moves = read_forced_moves(cx, def);
        let grievous_wounds = read_grievous_wounds(&file, def, &mut cx.errors);
        let (profiles, mut fighters): (Vec<Profile>, Vec<Fighter>) = members.into_iter().unzip();
        for (fighter, info) in fighters.iter_mut().zip(&roster.combatants) {
            if info.reserve {
                fighter.down = true;
                fighter.gone = Some(fray_core::Standing::Reserve);
            }
        }
        State {
            occupancy: fray_core::Occupancy::new(fighters.iter().map(|f| f.pos)),
            roster,
            profiles: Arc::new(profiles),
            fighters,
            options,
            surprises,
            overrides,
            forced_moves,
            grievous_wounds,
            ambush,
            ambush_results: Vec::new(),
            round: 0,
            segment: 0,
            schedule: Vec::new(),
            segment_start: Vec::new(),
            paused: None,
            acts_left: Vec::new(),
            asking: None,
        }
    }
}

fray_core::encounter_file! {
    /// A Spelljammer encounter file: the common keys plus Spelljammer's own tables.
    struct EncounterDef for CombatantDef {
        #[serde(default)]
        options: OptionsDef,
        ambush: Option<AmbushDef>,
        #[serde(default)]
        surprise: Vec<SurpriseDef>,
        #[serde(default)]
        overrides: Vec<OverrideDef>,
        #[serde(default)]
        forced_moves: Vec<ForcedMoveDef>,
        #[serde(default)]
        grievous_wounds: Vec<GrievousWoundDef>,
        // The encounter's own content, in the content files' format (`[[monster]]`, …).
        #[serde(default)]
        weapon: Vec<WeaponFile>,
        #[serde(default)]
        armor: Vec<ArmorFile>,
        #[serde(default)]
        shield: Vec<ShieldFile>,
        #[serde(default)]
        monster: Vec<MonsterFile>,
        #[serde(default)]
        spell: Vec<SpellFile>,
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionsDef {
    die_chain: Option<Spanned<Vec<Spanned<i64>>>>,
    tmr_percent: Option<bool>,
    one_round_cast: Option<Spanned<i64>>,
    damage_interrupts: Option<bool>,
    stun_interrupts: Option<bool>,
    shoot_fallback: Option<bool>,
    lighting: Option<Spanned<String>>,
    range_of_field_step: Option<Spanned<i64>>,
    grievous_wound_chance: Option<Spanned<i64>>,
    ask_free_attack: Option<bool>,
    ask_retarget: Option<bool>,
    fast_targets: Option<Spanned<BTreeMap<String, i64>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AmbushDef {
    by: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SurpriseDef {
    attacker: Spanned<String>,
    target: Spanned<String>,
    round: Option<Spanned<i64>>,
    kind: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OverrideDef {
    who: Spanned<String>,
    sc: Option<Spanned<i64>>,
    def: Option<Spanned<i64>>,
    prot: Option<Spanned<i64>>,
    initiative: Option<Spanned<i64>>,
    hp: Option<Spanned<i64>>,
    from_round: Option<Spanned<i64>>,
    to_round: Option<Spanned<i64>>,
    reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GrievousWoundDef {
    upto: Spanned<i64>,
    wound: String,
    sc: Option<Spanned<i64>>,
    def: Option<Spanned<i64>>,
    damage: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ForcedMoveDef {
    who: Spanned<String>,
    round: Option<Spanned<i64>>,
    segment: Option<Spanned<i64>>,
    to: [i32; 2],
    reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpellRef {
    name: Spanned<String>,
    rank: Option<Spanned<i64>>,
}

fray_core::combatant_entry! {
    /// One `[[combatants]]` entry: the common keys plus a monster or written-out statistics.
    struct CombatantDef {
    monster: Option<Spanned<String>>,
    hp: Option<Spanned<i64>>,
    start_hp: Option<Spanned<i64>>,
    con: Option<Spanned<i64>>,
    dex: Option<Spanned<i64>>,
    per: Option<Spanned<i64>>,
    dex_mod: Option<Spanned<i64>>,
    tmr: Option<Spanned<i64>>,
    sc: Option<Spanned<i64>>,
    attacks: Option<Spanned<i64>>,
    weapon: Option<Spanned<String>>,
    #[serde(alias = "off_hand")]
    offhand: Option<Spanned<String>>,
    ranged: Option<Spanned<String>>,
    damage_bonus: Option<Spanned<i64>>,
    armor: Option<Spanned<String>>,
    shield: Option<Spanned<String>>,
    shield_slung: Option<bool>,
    def: Option<Spanned<i64>>,
    prot: Option<Spanned<i64>>,
    def_dex: Option<Spanned<i64>>,
    def_skill: Option<Spanned<i64>>,
    def_magic: Option<Spanned<i64>>,
    weapon_rank: Option<Spanned<i64>>,
    specialization: Option<Spanned<String>>,
    master_bowman: Option<Spanned<i64>>,
    ambidextrous: Option<bool>,
    range_of_field: Option<Spanned<i64>>,
    attacker_count: Option<Spanned<i64>>,
    size: Option<Spanned<String>>,
    encumbered: Option<bool>,
    darkvision: Option<bool>,
    pace: Option<Spanned<String>>,
    invisible: Option<bool>,
    cover: Option<Spanned<String>>,
    weapon_dropped: Option<bool>,
    potions: Option<Spanned<i64>>,
    potion: Option<Spanned<String>>,
    #[serde(default)]
    spells: Vec<SpellRef>,
    }
}

fn field(i: usize, name: &str) -> Option<String> {
    Some(format!("combatants[{i}].{name}"))
}

/// An optional whole number checked against `lo..=hi`; an error names `at`.
fn int(
    file: &SourceFile<'_>,
    at: Option<String>,
    value: &Option<Spanned<i64>>,
    lo: i64,
    hi: i64,
    errors: &mut Vec<FileError>,
) -> Option<i32> {
    let v = value.as_ref()?;
    let n = *v.get_ref();
    if (lo..=hi).contains(&n) {
        Some(n as i32)
    } else {
        errors.push(file.error(
            v.span(),
            at,
            format!("expected a whole number from {lo} to {hi}, found {n}"),
        ));
        None
    }
}

/// Looks up a weapon named in a combatant's field, reporting unknown names with the known ones.
fn lookup_weapon<'a>(
    file: &SourceFile<'_>,
    i: usize,
    name: &str,
    value: &Option<Spanned<String>>,
    content: &'a Content,
    errors: &mut Vec<FileError>,
) -> Option<&'a Weapon> {
    let v = value.as_ref()?;
    let found = content.weapon(v.get_ref());
    if found.is_none() {
        errors.push(
            file.error(
                v.span(),
                field(i, name),
                content
                    .weapons
                    .unknown("weapon", v.get_ref(), "fray content spelljammer weapons"),
            ),
        );
    }
    found
}

fn form(w: &Weapon, base_sc: i32, bonus: i32, offhand: bool) -> AttackForm {
    AttackForm {
        name: w.name.clone(),
        sc: base_sc + w.sc,
        damage: Damage {
            bonus: w.damage.bonus + bonus,
            ..w.damage
        },
        reach: w.reach,
        range: w.range,
        class: w.class,
        missile: w.missile,
        offhand,
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
    let monster = match &c.monster {
        Some(m) => match content.monster(m.get_ref()) {
            Some(m) => Some(m),
            None => {
                errors.push(file.error(
                    m.span(),
                    field(i, "monster"),
                    content.monsters.unknown(
                        "monster",
                        m.get_ref(),
                        "fray content spelljammer monsters",
                    ),
                ));
                return None;
            }
        },
        None => None,
    };
    let get = |name: &str, v: &Option<Spanned<i64>>, lo: i64, hi: i64, errs: &mut Vec<_>| {
        int(file, field(i, name), v, lo, hi, errs)
    };
    let hp = get("hp", &c.hp, 1, 100_000, errors).or(monster.map(|m| m.hp));
    let sc = get("sc", &c.sc, -100, 500, errors).or(monster.map(|m| m.sc));
    if monster.is_none() {
        for (name, value) in [("hp", &c.hp), ("sc", &c.sc)] {
            if value.is_none() {
                errors.push(file.error(
                    c.id_span(),
                    field(i, name),
                    format!(
                        "missing; a combatant without `monster = \"…\"` needs `{name}` (its {})",
                        if name == "hp" {
                            "hit points"
                        } else {
                            "base Strike Chance"
                        }
                    ),
                ));
            }
        }
    }
    let con = get("con", &c.con, 1, 50, errors).or(monster.map(|m| m.con));
    let dex = get("dex", &c.dex, 1, 50, errors).or(monster.map(|m| m.dex));
    let per = get("per", &c.per, 1, 50, errors).or(monster.map(|m| m.per));
    let dex_mod = get("dex_mod", &c.dex_mod, -20, 20, errors).or(monster.map(|m| m.dex_mod));
    let tmr = get("tmr", &c.tmr, 0, 1000, errors).or(monster.map(|m| m.tmr));
    let attacks =
        get("attacks", &c.attacks, 1, 5, errors).or(monster.map(|m| i32::from(m.attacks)));
    let def = get("def", &c.def, -100, 200, errors).or(monster.map(|m| m.def));
    let prot = get("prot", &c.prot, 0, 50, errors).or(monster.map(|m| m.prot));
    let def_dex = get("def_dex", &c.def_dex, -100, 100, errors).or(monster.map(|m| m.def_dex));
    let def_skill = get("def_skill", &c.def_skill, -100, 100, errors);
    let def_magic = get("def_magic", &c.def_magic, -100, 100, errors);
    let bonus = get("damage_bonus", &c.damage_bonus, -50, 100, errors).unwrap_or(0);
    let weapon_rank =
        get("weapon_rank", &c.weapon_rank, 0, 50, errors).or(monster.map(|m| m.weapon_rank));
    let master_bowman = get("master_bowman", &c.master_bowman, 0, 50, errors);
    let range_of_field = get("range_of_field", &c.range_of_field, 0, 50, errors);
    let attacker_count = get("attacker_count", &c.attacker_count, 1, 10, errors)
        .or(monster.map(|m| m.attacker_count));
    let size = match &c.size {
        Some(s) => Size::from_key(s.get_ref()).or_else(|| {
            errors.push(file.error(
                s.span(),
                field(i, "size"),
                format!(
                    "unknown size `{}`; expected one of {}",
                    s.get_ref(),
                    one_of(Size::ALL.iter().map(|s| s.key()))
                ),
            ));
            None
        }),
        None => monster.map(|m| m.size),
    };
    // How missiles see it move when it is not standing still (SJ-R23.1, SJ-G3): the paces no
    // declaration gives.
    const PACES: [TargetPace; 4] = [
        TargetPace::Sprinting,
        TargetPace::FastSprinting,
        TargetPace::Dodging,
        TargetPace::Mounted,
    ];
    let pace = c.pace.as_ref().and_then(|v| {
        let wanted = v
            .get_ref()
            .trim()
            .to_ascii_lowercase()
            .replace([' ', '-'], "_");
        let found = PACES.into_iter().find(|p| p.key() == wanted);
        if found.is_none() {
            errors.push(file.error(
                v.span(),
                field(i, "pace"),
                format!(
                    "unknown pace `{}`; expected one of {}",
                    v.get_ref(),
                    one_of(PACES.iter().map(|p| p.key()))
                ),
            ));
        }
        found
    });
    let specialization = match &c.specialization {
        Some(s) => Specialization::from_key(s.get_ref()).unwrap_or_else(|| {
            errors.push(file.error(
                s.span(),
                field(i, "specialization"),
                format!(
                    "unknown specialization `{}`; expected one of {}",
                    s.get_ref(),
                    one_of(Specialization::ALL.iter().map(|s| s.key()))
                ),
            ));
            Specialization::None
        }),
        None => Specialization::None,
    };
    let base_sc = sc.unwrap_or(0);

    // Attack forms: the file's weapon replaces the monster's; an off-hand weapon is appended.
    let weapon = lookup_weapon(file, i, "weapon", &c.weapon, content, errors);
    let offhand = lookup_weapon(file, i, "offhand", &c.offhand, content, errors);
    let ranged_weapon = lookup_weapon(file, i, "ranged", &c.ranged, content, errors);
    for (name, w, value) in [
        ("weapon", weapon, &c.weapon),
        ("offhand", offhand, &c.offhand),
    ] {
        if let (Some(w), Some(v)) = (w, value) {
            if w.reach == 0 {
                errors.push(file.error(
                    v.span(),
                    field(i, name),
                    format!(
                        "`{}` is not a melee weapon (reach 0); name it in `ranged`",
                        w.name
                    ),
                ));
            }
        }
    }
    if let (Some(w), Some(v)) = (ranged_weapon, &c.ranged) {
        if w.range == 0 {
            errors.push(file.error(
                v.span(),
                field(i, "ranged"),
                format!("`{}` is not a ranged weapon (range 0)", w.name),
            ));
        }
    }
    let mut melee: Vec<AttackForm> = match (weapon, monster) {
        (Some(w), _) => vec![form(w, base_sc, bonus, false)],
        (None, Some(m)) => m
            .melee
            .iter()
            .map(|w| form(w, base_sc, bonus, false))
            .collect(),
        (None, None) => content
            .weapon("unarmed")
            .map(|w| form(w, base_sc, bonus, false))
            .into_iter()
            .collect(),
    };
    if let Some(w) = offhand {
        melee.push(form(w, base_sc, bonus, true));
    }
    let ranged = match (ranged_weapon, monster) {
        (Some(w), _) => {
            let thrown = w.class == Some(crate::content::RangedClass::Thrown);
            Some(form(w, base_sc, if thrown { bonus } else { 0 }, false))
        }
        (None, Some(m)) => m.ranged.as_ref().map(|w| {
            let thrown = w.class == Some(crate::content::RangedClass::Thrown);
            form(w, base_sc, if thrown { bonus } else { 0 }, false)
        }),
        (None, None) => None,
    };

    let armor =
        match &c.armor {
            Some(a) => match content.armor(a.get_ref()) {
                Some(a) => Some(a),
                None => {
                    errors.push(file.error(
                        a.span(),
                        field(i, "armor"),
                        content.armor.unknown(
                            "armour",
                            a.get_ref(),
                            "fray content spelljammer armour",
                        ),
                    ));
                    None
                }
            },
            None => None,
        };
    let shield = match &c.shield {
        Some(s) => match content.shield(s.get_ref()) {
            Some(s) => Some(s),
            None => {
                errors.push(file.error(
                    s.span(),
                    field(i, "shield"),
                    content.shields.unknown(
                        "shield",
                        s.get_ref(),
                        "fray content spelljammer armour",
                    ),
                ));
                None
            }
        },
        None => None,
    };
    if c.shield_slung == Some(true) && c.shield.is_none() {
        errors.push(file.error(
            c.id_span(),
            field(i, "shield_slung"),
            "`shield_slung = true` needs a `shield`",
        ));
    }

    let mut spells = Vec::new();
    for (j, s) in c.spells.iter().enumerate() {
        let at = format!("combatants[{i}].spells[{j}]");
        let Some(spell) = content.spell(s.name.get_ref()) else {
            errors.push(file.error(
                s.name.span(),
                Some(format!("{at}.name")),
                content.spells.unknown(
                    "spell",
                    s.name.get_ref(),
                    "fray content spelljammer spells",
                ),
            ));
            continue;
        };
        let mage = !matches!(spell.kind, crate::content::SpellKind::Cleric { .. });
        let rank = int(file, Some(format!("{at}.rank")), &s.rank, 0, 50, errors);
        let rank = match rank {
            Some(0) if mage => {
                errors.push(file.error(
                    s.rank.as_ref().map_or(s.name.span(), |r| r.span()),
                    Some(format!("{at}.rank")),
                    "a mage spell needs a rank of at least 1",
                ));
                0
            }
            Some(r) => r,
            None if mage => 1,
            None => 0,
        };
        spells.push(Spell {
            def: spell.clone(),
            rank,
        });
    }
    if spells.len() > usize::from(u8::MAX) {
        errors.push(file.error(
            c.id_span(),
            field(i, "spells"),
            "at most 255 spells per combatant",
        ));
    }
    let potion = match &c.potion {
        Some(p) => match Damage::parse_dice(p.get_ref()) {
            Some(d) => Some(d),
            None => {
                errors.push(file.error(
                    p.span(),
                    field(i, "potion"),
                    "expected the healing of one potion as dice, e.g. `2d4+2`",
                ));
                None
            }
        },
        None => c
            .potions
            .as_ref()
            .filter(|n| *n.get_ref() > 0)
            .map(|_| DEFAULT_POTION),
    };

    if errors.len() > before {
        return None;
    }
    Some(Profile {
        size: size.unwrap_or_default(),
        max_hp: hp.unwrap_or(1),
        con: con.unwrap_or(10),
        dex: dex.unwrap_or(10),
        per: per.unwrap_or(10),
        dex_mod: dex_mod.unwrap_or(0),
        tmr: tmr.unwrap_or(60),
        def_base: armor.map_or(0, |a| a.def) + def.unwrap_or(0),
        def_dex: def_dex.unwrap_or(0),
        def_skill: def_skill.unwrap_or(0),
        def_shield: shield.map_or(0, |s| s.def),
        def_magic: def_magic.unwrap_or(0),
        prot: armor.map_or(0, |a| a.prot) + prot.unwrap_or(0),
        attacks: attacks.unwrap_or(1) as u8,
        melee,
        ranged,
        weapon_rank: weapon_rank.unwrap_or(0),
        specialization,
        master_bowman: master_bowman.unwrap_or(0),
        ambidextrous: c.ambidextrous.unwrap_or(false),
        range_of_field: range_of_field.unwrap_or(0),
        attacker_count: attacker_count.unwrap_or(1),
        encumbered: c.encumbered.unwrap_or(false),
        darkvision: c.darkvision.unwrap_or(false),
        pace,
        spells,
        potion,
    })
}

/// The lighting names in files.
const LIGHTING: [(&str, Lighting); 5] = [
    ("bright", Lighting::Bright),
    ("starry", Lighting::Starry),
    ("cloudy", Lighting::Cloudy),
    ("cave", Lighting::Cave),
    ("pitch black", Lighting::PitchBlack),
];

fn read_options(
    file: &SourceFile<'_>,
    o: &OptionsDef,
    roster: &Roster,
    errors: &mut Vec<FileError>,
) -> Options {
    let d = Options::default();
    let opt = |name: &str| Some(format!("options.{name}"));
    let mut die_chain = d.die_chain.clone();
    if let Some(chain) = &o.die_chain {
        if chain.get_ref().is_empty() || chain.get_ref().len() > 20 {
            errors.push(file.error(
                chain.span(),
                opt("die_chain"),
                "expected 1 to 20 dice, e.g. [10, 8, 6, 4, 2]",
            ));
        }
        die_chain = chain
            .get_ref()
            .iter()
            .enumerate()
            .filter_map(|(j, die)| {
                int(
                    file,
                    opt(&format!("die_chain[{j}]")),
                    &Some(die.clone()),
                    2,
                    100,
                    errors,
                )
                .map(|n| n as u16)
            })
            .collect();
    }
    let lighting = match &o.lighting {
        Some(l) => {
            let key = l
                .get_ref()
                .trim()
                .to_ascii_lowercase()
                .replace(['-', '_'], " ");
            LIGHTING
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| *v)
                .unwrap_or_else(|| {
                    errors.push(file.error(
                        l.span(),
                        opt("lighting"),
                        format!(
                            "unknown lighting `{}`; expected one of {}",
                            l.get_ref(),
                            one_of(LIGHTING.iter().map(|(k, _)| *k))
                        ),
                    ));
                    d.lighting
                })
        }
        None => d.lighting,
    };
    let mut fast_targets = Vec::new();
    if let Some(fast) = &o.fast_targets {
        for (key, value) in fast.get_ref() {
            match roster.find(key) {
                Some(id) if (-100..=100).contains(value) => fast_targets.push((id, *value as i32)),
                Some(_) => errors.push(file.error(
                    fast.span(),
                    opt(&format!("fast_targets.{key}")),
                    format!("expected an SC modifier from -100 to 100, found {value}"),
                )),
                None => errors.push(file.error(
                    fast.span(),
                    opt(&format!("fast_targets.{key}")),
                    format!("no combatant `{key}` in this encounter"),
                )),
            }
        }
    }
    Options {
        die_chain,
        tmr_percent: o.tmr_percent.unwrap_or(d.tmr_percent),
        one_round_cast: int(
            file,
            opt("one_round_cast"),
            &o.one_round_cast,
            1,
            30,
            errors,
        )
        .unwrap_or(d.one_round_cast),
        damage_interrupts: o.damage_interrupts.unwrap_or(d.damage_interrupts),
        stun_interrupts: o.stun_interrupts.unwrap_or(d.stun_interrupts),
        shoot_fallback: o.shoot_fallback.unwrap_or(d.shoot_fallback),
        lighting,
        range_of_field_step: int(
            file,
            opt("range_of_field_step"),
            &o.range_of_field_step,
            0,
            100,
            errors,
        )
        .unwrap_or(d.range_of_field_step),
        grievous_wound_chance: int(
            file,
            opt("grievous_wound_chance"),
            &o.grievous_wound_chance,
            0,
            100,
            errors,
        )
        .unwrap_or(d.grievous_wound_chance),
        ask_free_attack: o.ask_free_attack.unwrap_or(d.ask_free_attack),
        ask_retarget: o.ask_retarget.unwrap_or(d.ask_retarget),
        fast_targets,
    }
}

fn read_surprises(cx: &mut Loader<'_>, def: &EncounterDef) -> Vec<SurpriseRuling> {
    let source = cx.file;
    let file = &source;
    let mut out = Vec::new();
    for (i, s) in def.surprise.iter().enumerate() {
        let at = |f: &str| format!("surprise[{i}].{f}");
        let attacker = cx.combatant(at("attacker"), &s.attacker);
        let target = cx.combatant(at("target"), &s.target);
        let round = match &s.round {
            Some(_) => int(
                file,
                Some(at("round")),
                &s.round,
                0,
                i64::from(Limits::MAX_ROUNDS_CEILING),
                &mut cx.errors,
            ),
            None => Some(1),
        };
        let kind = match s
            .kind
            .get_ref()
            .trim()
            .to_ascii_lowercase()
            .replace(['-', '_'], " ")
            .as_str()
        {
            "in combat" => Some(SurpriseKind::InCombat),
            "out of combat" => Some(SurpriseKind::OutOfCombat),
            _ => {
                cx.errors.push(file.error(
                    s.kind.span(),
                    Some(at("kind")),
                    format!(
                        "unknown surprise `{}`; expected \"in combat\" or \"out of combat\"",
                        s.kind.get_ref()
                    ),
                ));
                None
            }
        };
        if let (Some(attacker), Some(target)) = (attacker, target) {
            if attacker == target {
                cx.errors.push(file.error(
                    s.target.span(),
                    Some(at("target")),
                    "a combatant cannot surprise itself",
                ));
            }
        }
        if let (Some(attacker), Some(target), Some(round), Some(kind)) =
            (attacker, target, round, kind)
        {
            out.push(SurpriseRuling {
                attacker,
                target,
                round: round as u32,
                kind,
            });
        }
    }
    out
}

fn read_overrides(cx: &mut Loader<'_>, def: &EncounterDef) -> Vec<Override> {
    let source = cx.file;
    let file = &source;
    let mut out = Vec::new();
    let ceiling = i64::from(Limits::MAX_ROUNDS_CEILING);
    for (i, o) in def.overrides.iter().enumerate() {
        let at = |f: &str| Some(format!("overrides[{i}].{f}"));
        let before = cx.errors.len();
        let person = cx.combatant(format!("overrides[{i}].who"), &o.who);
        let sc = int(file, at("sc"), &o.sc, -200, 200, &mut cx.errors).unwrap_or(0);
        let def_ = int(file, at("def"), &o.def, -200, 200, &mut cx.errors).unwrap_or(0);
        let prot = int(file, at("prot"), &o.prot, -50, 50, &mut cx.errors).unwrap_or(0);
        let initiative = int(
            file,
            at("initiative"),
            &o.initiative,
            -50,
            50,
            &mut cx.errors,
        )
        .unwrap_or(0);
        let hp = int(file, at("hp"), &o.hp, -1000, 1000, &mut cx.errors).unwrap_or(0);
        let from_round = int(
            file,
            at("from_round"),
            &o.from_round,
            0,
            ceiling,
            &mut cx.errors,
        )
        .unwrap_or(1);
        let to_round = match &o.to_round {
            Some(_) => int(
                file,
                at("to_round"),
                &o.to_round,
                0,
                ceiling,
                &mut cx.errors,
            )
            .unwrap_or(0),
            None => Limits::MAX_ROUNDS_CEILING as i32,
        };
        if to_round < from_round && cx.errors.len() == before {
            cx.errors.push(file.error(
                o.to_round.as_ref().map_or(o.who.span(), |r| r.span()),
                at("to_round"),
                format!("`to_round` ({to_round}) is before `from_round` ({from_round})"),
            ));
        }
        if let Some(who) = person {
            out.push(Override {
                who,
                sc,
                def: def_,
                prot,
                initiative,
                hp,
                from_round: from_round as u32,
                to_round: to_round as u32,
                reason: o.reason.clone(),
            });
        }
    }
    out
}

/// `[[grievous_wounds]]`: the GM's grievous-wound table (SJ-G4), lines in rising `upto` order.
fn read_grievous_wounds(
    file: &SourceFile<'_>,
    def: &EncounterDef,
    errors: &mut Vec<FileError>,
) -> Vec<GrievousWound> {
    let mut out: Vec<GrievousWound> = Vec::new();
    for (i, w) in def.grievous_wounds.iter().enumerate() {
        let at = |f: &str| Some(format!("grievous_wounds[{i}].{f}"));
        let upto = int(file, at("upto"), &Some(w.upto.clone()), 1, 100, errors);
        let sc = int(file, at("sc"), &w.sc, -200, 200, errors).unwrap_or(0);
        let def_ = int(file, at("def"), &w.def, -200, 200, errors).unwrap_or(0);
        let damage = int(file, at("damage"), &w.damage, 0, 1000, errors).unwrap_or(0);
        let Some(upto) = upto else { continue };
        if let Some(last) = out.last() {
            if upto <= last.upto {
                errors.push(file.error(
                    w.upto.span(),
                    at("upto"),
                    format!(
                        "`upto` must rise from line to line: {upto} is not above the previous {}",
                        last.upto
                    ),
                ));
                continue;
            }
        }
        out.push(GrievousWound {
            upto,
            wound: w.wound.clone(),
            sc,
            def: def_,
            damage,
        });
    }
    out
}

/// `[[forced_moves]]`: the GM moves a combatant on a segment (SJ-R5.3).
fn read_forced_moves(cx: &mut Loader<'_>, def: &EncounterDef) -> Vec<ForcedMove> {
    let source = cx.file;
    let file = &source;
    let mut out = Vec::new();
    let ceiling = i64::from(Limits::MAX_ROUNDS_CEILING);
    for (i, m) in def.forced_moves.iter().enumerate() {
        let at = |f: &str| Some(format!("forced_moves[{i}].{f}"));
        let person = cx.combatant(format!("forced_moves[{i}].who"), &m.who);
        let round = match &m.round {
            Some(_) => int(file, at("round"), &m.round, 0, ceiling, &mut cx.errors),
            None => Some(1),
        };
        let segment = match &m.segment {
            Some(_) => int(
                file,
                at("segment"),
                &m.segment,
                i64::from(tables::LAST_SEGMENT),
                10,
                &mut cx.errors,
            ),
            None => Some(10),
        };
        if let (Some(who), Some(round), Some(segment)) = (person, round, segment) {
            out.push(ForcedMove {
                who,
                round: round as u32,
                segment,
                to: Pos::new(m.to[0], m.to[1]),
                reason: m.reason.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Missile, RangedClass};
    use fray_core::{CombatantId, Pos};

    fn content() -> Content {
        Content::embedded().unwrap_or_else(|e| panic!("{e}"))
    }

    fn ok(path: &str, text: &str) -> Encounter {
        load(path, text, &content()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn errs(text: &str) -> Vec<FileError> {
        load("e.toml", text, &content()).unwrap_err().0
    }

    const HEAD: &str =
        "schema = 1\nruleset = \"spelljammer\"\n[[sides]]\nid = \"a\"\n[[sides]]\nid = \"b\"\n";

    const EXAMPLES: [(&str, &str); 4] = [
        (
            "examples/spelljammer/bench.toml",
            include_str!("../../../examples/spelljammer/bench.toml"),
        ),
        (
            "examples/spelljammer/skirmish.toml",
            include_str!("../../../examples/spelljammer/skirmish.toml"),
        ),
        (
            "examples/spelljammer/ambush.toml",
            include_str!("../../../examples/spelljammer/ambush.toml"),
        ),
        (
            "examples/spelljammer/sc112-def40.toml",
            include_str!("../../../examples/spelljammer/sc112-def40.toml"),
        ),
    ];

    #[test]
    fn every_example_loads() {
        for (path, text) in EXAMPLES {
            let e = ok(path, text);
            assert!(e.state.fighters.len() >= 2, "{path}");
            assert_eq!(e.state.fighters.len(), e.state.profiles.len());
            assert_eq!(e.state.fighters.len(), e.state.roster.combatants.len());
            for (f, p) in e.state.fighters.iter().zip(e.state.profiles.iter()) {
                assert_eq!(f.hp, p.max_hp, "{path}");
                assert!(!p.melee.is_empty() || p.ranged.is_some(), "{path}");
            }
        }
    }

    #[test]
    fn bench_builds_the_fighters_and_orcs() {
        let e = ok(EXAMPLES[0].0, EXAMPLES[0].1);
        let s = &e.state;
        assert_eq!(s.fighters.len(), 12);
        assert_eq!(s.roster.combatants[0].key, "fighter-1");
        assert_eq!(s.roster.combatants[4].key, "orc-1");
        let c = content();
        let chain = c.armor("chain mail").unwrap();
        let shield = c.shield("medium shield").unwrap();
        let f = s.p(CombatantId(0));
        assert_eq!(f.max_hp, 40);
        assert_eq!((f.con, f.dex, f.dex_mod, f.tmr), (14, 14, 1, 60));
        assert_eq!(f.attacks, 2);
        assert_eq!(f.weapon_rank, 4);
        assert_eq!(f.melee.len(), 1);
        assert_eq!(f.melee[0].name, "long sword");
        assert_eq!(f.melee[0].sc, 100 + c.weapon("long sword").unwrap().sc);
        assert_eq!(f.def_base, chain.def);
        assert_eq!(f.def_shield, shield.def);
        assert_eq!(f.prot, chain.prot);
        let orc = c.monster("orc").unwrap();
        let o = s.p(CombatantId(4));
        assert_eq!(o.max_hp, orc.hp);
        assert_eq!(o.melee[0].sc, orc.sc + orc.melee[0].sc);
        assert_eq!(
            (o.def_base, o.def_dex, o.prot),
            (orc.def, orc.def_dex, orc.prot)
        );
        assert_eq!(s.f(CombatantId(4)).side, SideId(1));
        // About 60 ft (12 squares) apart.
        assert_eq!(s.f(CombatantId(4)).pos.x - s.f(CombatantId(0)).pos.x, 12);
        assert_eq!(s.round, 0);
        assert!(s.schedule.is_empty() && s.asking.is_none() && s.ambush.is_none());
    }

    #[test]
    fn sc112_def40_has_the_seed_numbers() {
        let e = ok(EXAMPLES[3].0, EXAMPLES[3].1);
        let s = &e.state;
        assert_eq!(s.fighters.len(), 2);
        let a = s.p(CombatantId(0));
        assert_eq!(a.melee.len(), 1);
        assert_eq!(a.melee[0].sc, 112);
        assert_eq!(a.melee[0].damage.text(), "1d8+4");
        assert_eq!(a.attacks, 1);
        let t = s.p(CombatantId(1));
        let total_def = t.def_base + t.def_dex + t.def_skill + t.def_shield + t.def_magic;
        assert_eq!(total_def, 40);
        assert_eq!(t.prot, 3);
        assert!(s
            .f(CombatantId(0))
            .pos
            .within_reach(s.f(CombatantId(1)).pos, 5));
    }

    #[test]
    fn skirmish_and_ambush_carry_their_extras() {
        let e = ok(EXAMPLES[1].0, EXAMPLES[1].1);
        let s = &e.state;
        let mage = s.roster.find("mage").unwrap();
        assert!(!s.p(mage).spells.is_empty());
        assert!(s.p(mage).spells.iter().all(|sp| sp.rank >= 1));
        let archer = s.roster.find("archer-2").unwrap();
        let bow = s.p(archer).ranged.as_ref().unwrap();
        assert_eq!(bow.class, Some(RangedClass::Bow));
        assert_eq!(bow.missile, Some(Missile::Arrow));
        let e = ok(EXAMPLES[2].0, EXAMPLES[2].1);
        assert!(e.state.ambush.is_some());
    }

    #[test]
    fn written_out_combatant_with_everything() {
        let text = format!(
            "max_rounds = 20\n{HEAD}\
             [[combatants]]\nid = \"una\"\nname = \"Una\"\nside = \"a\"\nat = [0, 0]\n\
             hp = 30\ncon = 12\ndex = 16\nper = 14\ndex_mod = 2\ntmr = 60\nsc = 90\nattacks = 2\n\
             weapon = \"long sword\"\noffhand = \"dagger\"\nranged = \"long bow\"\n\
             armor = \"leather\"\nshield = \"buckler\"\nshield_slung = true\ndef = 3\n\
             def_dex = 10\ndef_skill = 5\ndef_magic = 4\nweapon_rank = 5\n\
             specialization = \"double\"\nmaster_bowman = 2\nambidextrous = true\n\
             range_of_field = 1\nsize = \"small\"\nencumbered = true\ndarkvision = true\n\
             invisible = true\ncover = \"soft\"\nweapon_dropped = true\npotions = 2\npotion = \"2d4+2\"\n\
             spells = [{{ name = \"bolt of energy\", rank = 8 }}, {{ name = \"cure wounds\" }}]\n\
             [[combatants]]\nid = \"orc\"\nside = \"b\"\ncount = 2\nat = [[1, 0], [1, 1]]\n\
             monster = \"orc\"\nhp = 12\n\
             [options]\ndie_chain = [10, 8, 6]\ntmr_percent = true\none_round_cast = 14\n\
             damage_interrupts = false\nstun_interrupts = false\nshoot_fallback = false\n\
             lighting = \"pitch black\"\nrange_of_field_step = 10\ngrievous_wound_chance = 25\n\
             ask_free_attack = true\nask_retarget = true\nfast_targets = {{ \"orc-1\" = -10 }}\n\
             [ambush]\nby = \"b\"\n\
             [[surprise]]\nattacker = \"una\"\ntarget = \"orc-1\"\nround = 1\nkind = \"in combat\"\n\
             [[overrides]]\nwho = \"una\"\nsc = 5\ndef = -5\nprot = 1\ninitiative = 2\n\
             from_round = 1\nto_round = 2\nreason = \"blessed\"\n\
             [script]\ndice = [5, 6]\nchoices = [\"una: attack orc-1\"]\n"
        );
        let e = ok("e.toml", &text);
        let s = &e.state;
        let c = content();
        let p = s.p(CombatantId(0));
        assert_eq!(p.melee.len(), 2);
        assert!(p.melee[1].offhand && !p.melee[0].offhand);
        assert_eq!(p.melee[1].sc, 90 + c.weapon("dagger").unwrap().sc);
        assert_eq!(p.ranged.as_ref().unwrap().name, "long bow");
        assert_eq!(p.def_base, c.armor("leather").unwrap().def + 3);
        assert_eq!(p.def_shield, c.shield("buckler").unwrap().def);
        assert_eq!((p.def_dex, p.def_skill, p.def_magic), (10, 5, 4));
        assert_eq!(p.specialization, Specialization::Double);
        assert_eq!(p.size, Size::Small);
        assert!(p.ambidextrous && p.encumbered && p.darkvision);
        assert_eq!(p.spells.len(), 2);
        assert_eq!((p.spells[0].rank, p.spells[1].rank), (8, 0));
        assert_eq!(p.potion.unwrap().text(), "2d4+2");
        let f = s.f(CombatantId(0));
        assert!(f.shield_slung && f.invisible && f.weapon_dropped);
        assert_eq!(f.cover, Cover::Soft);
        assert_eq!(f.potions, 2);
        assert_eq!(s.p(CombatantId(1)).max_hp, 12);
        assert_eq!(s.f(CombatantId(2)).pos, Pos::new(1, 1));
        let o = &s.options;
        assert_eq!(o.die_chain, vec![10, 8, 6]);
        assert_eq!(o.lighting, Lighting::PitchBlack);
        assert_eq!(o.one_round_cast, 14);
        assert!(o.tmr_percent && !o.damage_interrupts && !o.stun_interrupts);
        assert!(!o.shoot_fallback && o.ask_free_attack && o.ask_retarget);
        assert_eq!((o.range_of_field_step, o.grievous_wound_chance), (10, 25));
        assert_eq!(o.fast_targets, vec![(CombatantId(1), -10)]);
        assert_eq!(s.ambush.as_ref().unwrap().by, SideId(1));
        assert_eq!(s.surprises.len(), 1);
        assert_eq!(s.surprises[0].kind, SurpriseKind::InCombat);
        assert_eq!(s.overrides[0].initiative, 2);
        assert_eq!(s.overrides[0].to_round, 2);
        assert_eq!(e.limits.max_rounds, 20);
        assert_eq!(e.dice, vec![5, 6]);
        assert_eq!(e.choices[0].who, "una");
    }

    fn one(text: &str) -> FileError {
        let e = errs(text);
        assert_eq!(e.len(), 1, "{e:?}");
        e[0].clone()
    }

    #[test]
    fn unknown_monster_names_line_field_and_known_ones() {
        let text = format!(
            "{HEAD}[[combatants]]\nid = \"x\"\nside = \"a\"\nat = [0, 0]\nmonster = \"dragon\"\n\
             [[combatants]]\nid = \"y\"\nside = \"b\"\nat = [1, 0]\nmonster = \"orc\"\n"
        );
        let e = one(&text);
        assert_eq!((e.line, e.column), (11, 11));
        assert_eq!(e.field.as_deref(), Some("combatants[0].monster"));
        assert!(
            e.message.contains("unknown monster `dragon`"),
            "{}",
            e.message
        );
        assert!(
            e.message
                .contains("`fray content spelljammer monsters` lists them all"),
            "{}",
            e.message
        );
        assert!(e
            .to_string()
            .starts_with("e.toml:11:11: field `combatants[0].monster`"));
    }

    #[test]
    fn unknown_weapon_armor_shield_spell_are_each_located() {
        let text = format!(
            "{HEAD}[[combatants]]\nid = \"x\"\nside = \"a\"\nat = [0, 0]\nhp = 10\nsc = 50\n\
             weapon = \"lightsaber\"\narmor = \"mithril\"\nshield = \"door\"\n\
             ranged = \"long sword\"\nspells = [{{ name = \"wish\" }}]\n\
             [[combatants]]\nid = \"y\"\nside = \"b\"\nat = [1, 0]\nmonster = \"orc\"\n"
        );
        let e = errs(&text);
        let fields: Vec<_> = e
            .iter()
            .map(|e| (e.line, e.field.clone().unwrap_or_default()))
            .collect();
        assert_eq!(
            fields,
            vec![
                (13, "combatants[0].weapon".to_string()),
                (16, "combatants[0].ranged".to_string()),
                (14, "combatants[0].armor".to_string()),
                (15, "combatants[0].shield".to_string()),
                (17, "combatants[0].spells[0].name".to_string()),
            ]
        );
        assert!(e[0]
            .message
            .contains("unknown weapon `lightsaber`; `fray content spelljammer weapons`"));
        assert!(e[1].message.contains("not a ranged weapon"));
    }

    #[test]
    fn bad_size_and_specialization() {
        let text = format!(
            "{HEAD}[[combatants]]\nid = \"x\"\nside = \"a\"\nat = [0, 0]\nmonster = \"orc\"\n\
             size = \"enormous\"\n\
             [[combatants]]\nid = \"y\"\nside = \"b\"\nat = [1, 0]\nmonster = \"orc\"\n\
             specialization = \"triple\"\n"
        );
        let e = errs(&text);
        assert_eq!(e.len(), 2);
        assert_eq!(
            (e[0].line, e[0].field.as_deref()),
            (12, Some("combatants[0].size"))
        );
        assert!(e[0].message.contains("tiny, small, medium, large, giant"));
        assert_eq!(
            (e[1].line, e[1].field.as_deref()),
            (18, Some("combatants[1].specialization"))
        );
    }

    #[test]
    fn duplicate_ids_and_shared_squares() {
        let text = format!(
            "{HEAD}[[combatants]]\nid = \"orc\"\nside = \"a\"\nat = [0, 0]\nmonster = \"orc\"\n\
             [[combatants]]\nid = \"orc\"\nside = \"b\"\nat = [3, 0]\nmonster = \"orc\"\n"
        );
        let e = one(&text);
        assert_eq!((e.line, e.field.as_deref()), (13, Some("combatants[1].id")));
        assert!(e.message.contains("duplicate combatant `orc`"));
        let text = format!(
            "{HEAD}[[combatants]]\nid = \"x\"\nside = \"a\"\nat = [0, 0]\nmonster = \"orc\"\n\
             [[combatants]]\nid = \"y\"\nside = \"b\"\nat = [0, 0]\nmonster = \"orc\"\n"
        );
        let e = one(&text);
        assert_eq!((e.line, e.field.as_deref()), (15, Some("at")));
        assert!(e.message.contains("both placed on square [0, 0]"));
    }

    #[test]
    fn bad_toml_and_bad_numbers_are_located() {
        let e = one(&format!("{HEAD}[[combatants]]\nid = \"x\nside = \"a\"\n"));
        assert_eq!(e.line, 8);
        let e = one(&format!(
            "{HEAD}[[combatants]]\nid = \"x\"\nside = \"a\"\nat = [0, 0]\nmonster = \"orc\"\nmood = 3\n"
        ));
        assert_eq!(e.line, 12, "{e}");
        assert!(e.message.contains("mood"), "{e}");
        let text = format!(
            "{HEAD}[[combatants]]\nid = \"x\"\nside = \"a\"\nat = [0, 0]\nmonster = \"orc\"\n\
             attacks = 6\n\
             [[combatants]]\nid = \"y\"\nside = \"b\"\nat = [1, 0]\nhp = 0\nsc = 40\n\
             [options]\ndie_chain = [10, 1]\nlighting = \"dusk\"\n"
        );
        let e = errs(&text);
        let fields: Vec<_> = e
            .iter()
            .map(|e| (e.line, e.field.clone().unwrap_or_default()))
            .collect();
        assert_eq!(
            fields,
            vec![
                (12, "combatants[0].attacks".to_string()),
                (17, "combatants[1].hp".to_string()),
                (20, "options.die_chain[1]".to_string()),
                (21, "options.lighting".to_string()),
            ]
        );
    }

    #[test]
    fn written_out_needs_hp_and_sc_and_names_are_checked() {
        let text = format!(
            "{HEAD}[[combatants]]\nid = \"x\"\nside = \"c\"\nat = [0, 0]\n\
             [[combatants]]\nid = \"y z\"\nside = \"b\"\nat = [1, 0]\nmonster = \"orc\"\n\
             pace = \"teleporting\"\n\
             [[surprise]]\nattacker = \"x\"\ntarget = \"nobody\"\nkind = \"sneaky\"\n\
             [[overrides]]\nwho = \"ghost\"\nreason = \"x\"\nhp = 5000\n\
             [ambush]\nby = \"c\"\n\
             [script]\nchoices = [\"bob: attack x\"]\n"
        );
        let e = errs(&text);
        let fields: Vec<_> = e
            .iter()
            .map(|e| e.field.clone().unwrap_or_default())
            .collect();
        for f in [
            "combatants[0].side",
            "combatants[0].hp",
            "combatants[0].sc",
            "combatants[1].id",
            "surprise[0].target",
            "surprise[0].kind",
            "combatants[1].pace",
            "overrides[0].who",
            "overrides[0].hp",
            "ambush.by",
            "script.choices[0]",
        ] {
            assert!(fields.iter().any(|x| x == f), "{f} missing from {fields:?}");
        }
        assert!(e.iter().all(|e| e.line > 0), "{e:?}");
    }

    #[test]
    fn too_many_combatants() {
        let text = format!(
            "{HEAD}[[combatants]]\nid = \"x\"\nside = \"a\"\ncount = 400\nat = [0, 0]\n\
             monster = \"orc\"\n\
             [[combatants]]\nid = \"y\"\nside = \"b\"\ncount = 200\nat = [0, 1]\nmonster = \"orc\"\n"
        );
        let e = one(&text);
        assert_eq!(e.field.as_deref(), Some("combatants[1].count"));
        let e = one(&format!(
            "{HEAD}[[combatants]]\nid = \"x\"\nside = \"a\"\ncount = 501\nat = [0, 0]\nmonster = \"orc\"\n"
        ));
        assert_eq!(
            (e.line, e.field.as_deref()),
            (10, Some("combatants[0].count"))
        );
    }

    #[test]
    fn wrong_ruleset_is_refused() {
        let e = errs("schema = 1\nruleset = \"cnc\"\n");
        assert_eq!(e[0].field.as_deref(), Some("ruleset"));
    }

    #[test]
    fn an_encounter_defines_its_own_content() {
        let text = format!(
            "{HEAD}[[combatants]]\nid = \"x\"\nside = \"a\"\nat = [0, 0]\nhp = 10\nsc = 50\n\
             weapon = \"star blade\"\n\
             [[combatants]]\nid = \"y\"\nside = \"b\"\nat = [1, 0]\nmonster = \"void eel\"\n\
             [[weapon]]\nname = \"star blade\"\nsc = 10\ndamage = \"2d6\"\n\
             [[monster]]\nkey = \"void eel\"\nhp = 30\nattacks = 1\nsc = 55\nweapons = [\"star blade\"]\n"
        );
        let e = ok("e.toml", &text);
        let x = e.state.roster.find("x").unwrap();
        let y = e.state.roster.find("y").unwrap();
        assert_eq!(e.state.p(x).melee[0].damage.to_string(), "2d6");
        assert_eq!(e.state.p(y).max_hp, 30);
        assert!(
            content().monster("void eel").is_none(),
            "built-in content untouched"
        );
        let twice = format!("{text}[[monster]]\nkey = \"void eel\"\nhp = 5\nattacks = 1\nsc = 40\nweapons = [\"dagger\"]\n");
        let e = errs(&twice);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0]
            .message
            .contains("duplicate monster `void eel`: already defined at e.toml:"));
    }
}
