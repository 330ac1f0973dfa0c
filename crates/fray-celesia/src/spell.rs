//! Spells as effect data (`content/celesia/spells.toml`, `[[spell]]`): what the seed's rules
//! need of a spell — its level, casting time (CEL-R9 swift = simple, R11 standard, R12 full,
//! R13 1-round), whether casting provokes (R3.5), its range, a touch attack or a save with its
//! outcome (R6, R16), and its effect: damage dice (per caster level where the spell says),
//! healing (cure light wounds, for the wands and scrolls that cast it, CEL-R11) or haste
//! (R3.4). The seed lists no spells: the file's spells are sample content with
//! Pathfinder's numbers.

use fray_core::span::{FileError, SourceFile};
use fray_core::DamageDice;
use serde::Deserialize;
use toml::Spanned;

/// Casting time. [CEL-R3.6, R9, R11, R12, R13]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Casting {
    /// Swift: a simple action, 1 act (Cast a Swift Spell, CEL-R9).
    Simple,
    /// Standard: 2 consecutive acts (CEL-R11).
    Standard,
    /// Full: 3 consecutive acts (CEL-R12).
    Full,
    /// 1 round: a 1-round action (CEL-R13, R3.7).
    OneRound,
}

impl Casting {
    const KEYS: [(&'static str, Casting); 4] = [
        ("simple", Casting::Simple),
        ("standard", Casting::Standard),
        ("full", Casting::Full),
        ("1-round", Casting::OneRound),
    ];
    /// Its key in the file.
    pub fn key(self) -> &'static str {
        Casting::KEYS
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("?", |(k, _)| k)
    }
    /// Acts (a 1-round action: 3, or the turn's last 1–2 split, `rules::one_round`).
    pub fn acts(self) -> i32 {
        match self {
            Casting::Simple => 1,
            Casting::Standard => 2,
            Casting::Full | Casting::OneRound => 3,
        }
    }
}

/// Range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Range {
    /// The caster only.
    Personal,
    /// Touch: a creature next to the caster.
    Touch,
    /// Up to this many feet.
    Feet(i32),
}

/// The attack roll a spell makes. [CEL-R6.1]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TouchAttack {
    /// Melee touch attack.
    Melee,
    /// Ranged touch attack.
    Ranged,
}

/// A saving throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Save {
    /// Fortitude.
    Fort,
    /// Reflex.
    Reflex,
    /// Will.
    Will,
}

impl Save {
    /// Its name in the log.
    pub fn name(self) -> &'static str {
        match self {
            Save::Fort => "Fort",
            Save::Reflex => "Reflex",
            Save::Will => "Will",
        }
    }
}

/// What a successful save does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OnSave {
    /// Half damage (rounded down).
    Half,
    /// No effect.
    Negates,
}

/// The area a spell fills, measured from its aim (a creature): each creature in it is affected
/// and saves separately, allies and the caster too (adopted reading; the seed gives no areas).
/// Distances are fray's grid distances (Chebyshev squares of 5 ft).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Area {
    /// Every creature whose space is within this many feet of the aimed creature's space
    /// (a burst centred on it).
    Burst(i32),
    /// A quarter circle this many feet long from the caster toward the aimed creature: within
    /// 45° of that direction.
    Cone(i32),
    /// A line 5 ft wide and this many feet long from the caster through the aimed creature.
    Line(i32),
}

impl Area {
    /// Its words in the log (`20-ft burst`).
    pub fn text(self) -> String {
        match self {
            Area::Burst(ft) => format!("{ft}-ft burst"),
            Area::Cone(ft) => format!("{ft}-ft cone"),
            Area::Line(ft) => format!("{ft}-ft line"),
        }
    }
}

/// A penalty to an ability score, timed (ray of enfeeblement, CEL-E5–E7): its size is the
/// `Timed::magnitude`. The score falls by it (not below 1), so the modifier falls wherever the
/// ability counts (`State::m`, `State::score`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Drained {
    /// A penalty to Strength.
    Strength,
    /// A penalty to Dexterity.
    Dexterity,
    /// A penalty to Constitution.
    Constitution,
    /// A penalty to Intelligence.
    Intelligence,
    /// A penalty to Wisdom.
    Wisdom,
    /// A penalty to Charisma.
    Charisma,
}

impl Drained {
    /// Every one, in the order of the ability indices (`state::STR` … `state::CHA`).
    pub const ALL: [Drained; 6] = [
        Drained::Strength,
        Drained::Dexterity,
        Drained::Constitution,
        Drained::Intelligence,
        Drained::Wisdom,
        Drained::Charisma,
    ];

    /// The penalty to ability `ix` (`state::STR` …).
    #[inline]
    pub fn of(ix: usize) -> Drained {
        Drained::ALL[ix.min(5)]
    }

    /// The ability's key in content (`str`).
    pub fn short(self) -> &'static str {
        ["str", "dex", "con", "int", "wis", "cha"][self as usize]
    }

    /// The ability's name (`Strength`).
    pub fn name(self) -> &'static str {
        [
            "Strength",
            "Dexterity",
            "Constitution",
            "Intelligence",
            "Wisdom",
            "Charisma",
        ][self as usize]
    }
}

impl Drained {
    /// The condition's name in the log (`under a Dexterity penalty`), whatever its source.
    pub fn key(self) -> &'static str {
        match self {
            Drained::Strength => "weakened (a Strength penalty)",
            Drained::Dexterity => "under a Dexterity penalty",
            Drained::Constitution => "under a Constitution penalty",
            Drained::Intelligence => "under an Intelligence penalty",
            Drained::Wisdom => "under a Wisdom penalty",
            Drained::Charisma => "under a Charisma penalty",
        }
    }
}

/// Where an ability penalty comes from. Each source keeps its own entry: a spell's ends with
/// the spell, a lasting one (the entry's `ability_penalty`, the GM's `cond WHO dex-N`) stays.
/// Penalties of different sources stack; of one source, the larger stands. [CEL-R6.2, adopted
/// reading: the seed is silent on stacking ability penalties, and stacks what comes "from
/// different sources" where it speaks (base attack bonuses, advantage and disadvantage)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PenaltySource {
    /// A spell's (ray of enfeeblement), until the spell ends.
    Spell,
    /// From before the fight or the GM's: the whole fight, until the GM ends it.
    Lasting,
    /// Ability damage to Constitution (the entry's `con_damage`, the GM's `rule con WHO -N`):
    /// the score falls by it down to 0, where the creature dies (CEL-R17.9;
    /// `rules::con_loss`).
    Damage,
    /// Ability drain to Constitution (`con_drain`, `rule con WHO -N drain`), as damage.
    /// [CEL-R17.9]
    Drain,
}

/// An ability penalty of one source, the kind kept in `Fighter::drained`; its size is the
/// `Timed::magnitude`. [CEL-R6.2]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Penalized {
    /// The ability.
    pub ability: Drained,
    /// Its source.
    pub source: PenaltySource,
}

impl Penalized {
    /// A spell's penalty to `ability`.
    pub fn spell(ability: Drained) -> Penalized {
        Penalized {
            ability,
            source: PenaltySource::Spell,
        }
    }

    /// A lasting penalty to `ability`.
    pub fn lasting(ability: Drained) -> Penalized {
        Penalized {
            ability,
            source: PenaltySource::Lasting,
        }
    }
}

impl Penalized {
    /// Ability damage (`drain`: drain) to Constitution. [CEL-R17.9]
    pub fn con_loss(drain: bool) -> Penalized {
        Penalized {
            ability: Drained::Constitution,
            source: if drain {
                PenaltySource::Drain
            } else {
                PenaltySource::Damage
            },
        }
    }
}

impl fray_core::conditions::ConditionKind for Penalized {
    fn bit(self) -> u32 {
        self.ability as u32 + 6 * self.source as u32
    }
    fn key(self) -> &'static str {
        match self.source {
            PenaltySource::Damage => "under Constitution damage",
            PenaltySource::Drain => "under Constitution drain",
            PenaltySource::Spell | PenaltySource::Lasting => self.ability.key(),
        }
    }
    fn rule(self) -> &'static str {
        match self.source {
            PenaltySource::Damage | PenaltySource::Drain => "CEL-R17.9",
            PenaltySource::Spell | PenaltySource::Lasting => "CEL-R6.2",
        }
    }
}

/// The total penalty to ability `ix` in `drained`: every source's, added (out of line: only a
/// combatant under a penalty reads it). [CEL-R6.2]
#[inline(never)]
pub fn penalty_to(drained: &fray_core::conditions::Conditions<Penalized>, ix: usize) -> i32 {
    let ability = Drained::of(ix);
    [Penalized::spell(ability), Penalized::lasting(ability)]
        .iter()
        .filter_map(|&k| drained.get(k))
        .map(|t| t.magnitude.max(0))
        .sum()
}

/// The Constitution `drained` has lost to ability damage and drain (0 for any other
/// ability): the score falls by it down to 0, not to 1 as under a penalty. [CEL-R17.9]
#[inline(never)]
pub fn loss_to(drained: &fray_core::conditions::Conditions<Penalized>, ix: usize) -> i32 {
    if ix != crate::state::CON {
        return 0;
    }
    [Penalized::con_loss(false), Penalized::con_loss(true)]
        .iter()
        .filter_map(|&k| drained.get(k))
        .map(|t| t.magnitude.max(0))
        .sum()
}

/// `who`'s ability penalties in words for the status, one per source (`Dexterity -4
/// (lasting)`, `Strength -3 (ray of enfeeblement's: until Mira's turn, round 4)`), in the
/// abilities' order. [CEL-R6.2]
pub fn penalty_words(state: &crate::state::State, who: fray_core::CombatantId) -> Vec<String> {
    use fray_core::conditions::Expiry;
    let drained = &state.f(who).drained;
    if drained.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for drain in [false, true] {
        if let Some(t) = drained.get(Penalized::con_loss(drain)) {
            let what = if drain { "drain" } else { "damage" };
            out.push(format!("Constitution {what} {}", t.magnitude));
        }
    }
    for ability in Drained::ALL {
        for kind in [Penalized::lasting(ability), Penalized::spell(ability)] {
            let Some(t) = drained.get(kind) else {
                continue;
            };
            let how = match (kind.source, t.expiry) {
                (PenaltySource::Lasting, _) => "lasting".to_string(),
                (PenaltySource::Spell, Expiry::StartOfTurn { who: caster, round }) => format!(
                    "a spell's: until {}'s turn, round {round}",
                    state.roster.name(caster)
                ),
                (PenaltySource::Spell | PenaltySource::Damage | PenaltySource::Drain, _) => {
                    "a spell's".to_string()
                }
            };
            out.push(format!("{} -{} ({how})", ability.name(), t.magnitude));
        }
    }
    out
}

/// The most a combatant's entry may lower an ability score by (`ability_penalty`).
pub const MAX_LASTING_PENALTY: i64 = 50;

/// Reads an entry's lasting ability penalties, `ability_penalty = { dex = 4, … }` (each 1 to
/// 50): penalties (or ability damage) it has from before the fight, lowering the score as a
/// spell's penalty does (`State::score`: not below 1) for the whole fight, from initiative on
/// (CEL-R1.1: "Each character applies his or her Dexterity modifier"). [CEL-R6.2, adopted
/// reading]
pub(crate) fn read_lasting_penalties(
    file: &SourceFile<'_>,
    field: &str,
    penalties: &Spanned<std::collections::BTreeMap<String, i64>>,
    into: &mut fray_core::conditions::Conditions<Penalized>,
    errors: &mut Vec<FileError>,
) {
    use fray_core::conditions::{Expiry, Timed};
    for (name, &n) in penalties.get_ref() {
        let Some(ix) = crate::content::ability_index(name) else {
            errors.push(file.error(
                penalties.span(),
                Some(field.to_string()),
                format!("unknown ability `{name}`; expected str, dex, con, int, wis, cha"),
            ));
            continue;
        };
        if !(1..=MAX_LASTING_PENALTY).contains(&n) {
            errors.push(file.error(
                penalties.span(),
                Some(field.to_string()),
                format!(
                    "the penalty to `{name}` must be from 1 to {MAX_LASTING_PENALTY} (the score \
                     falls by it), found {n}"
                ),
            ));
            continue;
        }
        into.add_timed(
            Timed::new(Penalized::lasting(Drained::of(ix)), Expiry::Indefinite).of(n as i32),
        );
    }
}

/// An ability penalty a spell gives: dice, +1 per `per_levels` caster levels up to `max_bonus`
/// (ray of enfeeblement: 1d6 + 1 per 2 levels, at most +5). [CEL-E5–E7]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Penalty {
    /// The ability.
    pub ability: Drained,
    /// Its dice.
    pub dice: DamageDice,
    /// +1 per this many (effective) caster levels (0: none).
    pub per_levels: i32,
    /// The most that bonus adds.
    pub max_bonus: i32,
}

impl Penalty {
    /// The bonus added to the dice at effective caster level `cl`.
    pub fn bonus(self, cl: i32) -> i32 {
        if self.per_levels > 0 {
            (cl / self.per_levels).min(self.max_bonus)
        } else {
            0
        }
    }
}

/// Hit points a spell heals: dice + 1 per (effective) caster level, at most `max_bonus` (cure
/// light wounds: 1d8 + 1 per level, at most +5). [CEL-R11 Use a Spell Trigger Item, adopted
/// reading: Pathfinder's numbers, the seed lists no spells]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Healing {
    /// Its dice (with their own bonus).
    pub dice: DamageDice,
    /// The most the caster level adds (0: nothing).
    pub max_bonus: i32,
}

impl Healing {
    /// The bonus added to the dice at effective caster level `cl`.
    pub fn bonus(self, cl: i32) -> i32 {
        cl.clamp(0, self.max_bonus)
    }
}

/// A weapon a spell makes, that attacks its caster's chosen target once each round and can be
/// pointed at a new one (Pathfinder's spiritual weapon: "It uses your base attack bonus ... plus
/// your Wisdom modifier as its attack bonus ... deals 1d8 force damage +1 per three caster
/// levels (maximum +5)"). [CEL-R9 Direct or Redirect a Spell; `rules::spell_weapon`]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpellWeapon {
    /// Its damage dice (`weapon`).
    pub dice: DamageDice,
    /// The caster's ability added to its BAB for the attack (`weapon_ability`).
    pub ability: Drained,
    /// +1 damage per this many caster levels (`weapon_per_levels`; 0: none).
    pub per_levels: i32,
    /// The most that bonus adds (`max_bonus`).
    pub max_bonus: i32,
    /// Lowest natural die that threatens a critical: 20, or the threat of the weapon named by
    /// `weapon_shape` (its entry in weapons.toml). [CEL-R5.6]
    pub threat: u32,
    /// Critical multiplier: ×2, or the multiplier of the weapon named by `weapon_shape`.
    /// [CEL-R5.6]
    pub multiplier: i32,
}

impl SpellWeapon {
    /// The damage bonus at caster level `cl`.
    pub fn bonus(self, cl: i32) -> i32 {
        if self.per_levels > 0 {
            (cl / self.per_levels).clamp(0, self.max_bonus)
        } else {
            0
        }
    }
}

/// How long a spell's condition or penalty lasts (Pathfinder's "Duration" line for the sample
/// spells). [CEL-R6.2, A39; CEL-R11 Concentrate to Maintain an Active Spell]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Duration {
    /// `rounds_per_level` rounds per effective caster level, until the start of the caster's
    /// turn that many rounds on (CEL-A39).
    Rounds,
    /// For the fight, unless dismissed (Pathfinder's "permanent").
    Permanent,
    /// As long as the caster concentrates: each of its later turns it takes Concentrate to
    /// Maintain an Active Spell (CEL-R11), or the spell ends with that turn; Cease
    /// Concentrating (CEL-R14) ends it at once.
    Concentration,
}

impl Duration {
    /// The `duration` keys.
    pub const KEYS: [(&'static str, Duration); 3] = [
        ("rounds", Duration::Rounds),
        ("permanent", Duration::Permanent),
        ("concentration", Duration::Concentration),
    ];
}

/// A spell.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Spell {
    /// Name (its key in `spells = [...]` and in `cast NAME`, spaces as `-`).
    pub name: String,
    /// Spell level (0–9): concentration DCs (CEL-R14, R21.9).
    pub level: i32,
    /// Casting time.
    pub casting: Casting,
    /// Casting it provokes (the Cast rows of CEL-R9–R13 all do).
    pub provoke: bool,
    /// Range.
    pub range: Range,
    /// Its attack roll, if any.
    pub attack: Option<TouchAttack>,
    /// Its save and what success does, if any.
    pub save: Option<(Save, OnSave)>,
    /// Damage dice: per caster level when `per_level`.
    pub damage: Option<DamageDice>,
    /// The damage dice are rolled once per (effective) caster level.
    pub per_level: bool,
    /// The most caster levels the damage counts (0: no cap).
    pub max_levels: i32,
    /// The hit points it heals, if it heals.
    pub heal: Option<Healing>,
    /// The weapon it makes, if it makes one (it lasts `rounds_per_level` rounds per caster
    /// level). [CEL-R9 Direct or Redirect a Spell]
    pub weapon: Option<SpellWeapon>,
    /// The weapon of weapons.toml whose threat range and multiplier its weapon takes
    /// (`weapon_shape`; taken as an encounter loads, so an encounter's own weapon of that
    /// name counts). [CEL-R5.6]
    pub weapon_shape: Option<String>,
    /// Haste for this many rounds per (effective) caster level (0: not haste). [CEL-R3.4]
    pub haste_rounds_per_level: i32,
    /// A condition it gives (the advantage table's conditions, CEL-R4.5), for
    /// `rounds_per_level` rounds per effective caster level.
    pub condition: Option<crate::state::Trick>,
    /// An ability penalty it gives, for `rounds_per_level` rounds per effective caster level.
    pub penalty: Option<Penalty>,
    /// Rounds per effective caster level a condition or penalty lasts (CEL-A39: until the
    /// start of the caster's turn that many rounds on).
    pub rounds_per_level: i32,
    /// How long a condition or penalty lasts (default: rounds per level).
    pub duration: Duration,
    /// Dismissible (Pathfinder's "(D)"): its caster may end it with Dismiss a Spell. [CEL-R9]
    pub dismissible: bool,
    /// It has a material component or a focus (Pathfinder's "M" or "F"): preparing it is a free
    /// action while casting, or the GM's simple or advanced action. [CEL-R14, CEL-G3]
    pub material: bool,
    /// Its area, if it fills one.
    pub area: Option<Area>,
    /// It has a somatic component (default: every sample spell, Pathfinder's, has one): a
    /// caster who has lost the use of all its hands cannot cast it. [CEL-R18 Hand Injury]
    pub somatic: bool,
    /// A creature's spell resistance applies to it (Pathfinder's "Spell Resistance" line for
    /// the sample spells). [CEL-R9 Lower or Reactivate Spell Resistance; `rules::spell_resistance`]
    pub spell_resistance: bool,
    /// On the magus spell list (Pathfinder's, for the sample spells): what Spell Combat and
    /// Spellstrike may cast. [CEL-R9 Spell Combat, R11 Spellstrike]
    pub magus: bool,
}

impl Spell {
    /// Its key in choices: the name with spaces as `-`.
    pub fn key(&self) -> String {
        self.name.to_ascii_lowercase().replace(' ', "-")
    }
}

/// Reads a spell's weapon (`weapon`, `weapon_ability`, `weapon_per_levels`, `max_bonus`): a
/// ranged spell with no attack roll, save or area of its own, lasting rounds. [CEL-R9 Direct
/// or Redirect a Spell]
fn read_weapon(
    file: &SourceFile<'_>,
    at: &str,
    s: &SpellFile,
    range: Option<Range>,
    errors: &mut Vec<FileError>,
) -> Option<SpellWeapon> {
    let f = |name: &str| format!("{at}.{name}");
    let Some(w) = &s.weapon else {
        for (key, span) in [
            (
                "weapon_ability",
                s.weapon_ability.as_ref().map(|v| v.span()),
            ),
            (
                "weapon_per_levels",
                s.weapon_per_levels.as_ref().map(|v| v.span()),
            ),
            ("weapon_shape", s.weapon_shape.as_ref().map(|v| v.span())),
        ] {
            if let Some(span) = span {
                errors.push(file.error(span, Some(f(key)), format!("`{key}` goes with `weapon`")));
            }
        }
        return None;
    };
    let dice = DamageDice::parse_dice(w.get_ref());
    if dice.is_none() {
        errors.push(file.error(
            w.span(),
            Some(f("weapon")),
            "expected damage dice like `1d8`",
        ));
    }
    let key = s.weapon_ability.as_ref().map(|a| a.get_ref().as_str());
    let ability = Drained::ALL.into_iter().find(|a| Some(a.short()) == key);
    if ability.is_none() {
        errors.push(file.error(
            s.weapon_ability.as_ref().map_or(w.span(), |a| a.span()),
            Some(f("weapon_ability")),
            format!(
                "a weapon needs `weapon_ability` (added to its caster's BAB), one of {}",
                fray_core::loader::one_of(Drained::ALL.iter().map(|a| a.short()))
            ),
        ));
    }
    if !matches!(range, Some(Range::Feet(_))) {
        errors.push(file.error(
            s.range.span(),
            Some(f("range")),
            "a spell's weapon attacks a target within its range: `range = \"ranged\"`",
        ));
    }
    for (key, given) in [
        ("attack", s.attack.is_some()),
        ("save", s.save.is_some()),
        ("area", s.area.is_some()),
        ("per_level", s.per_level),
    ] {
        if given {
            errors.push(file.error(
                w.span(),
                Some(f(key)),
                format!("a spell's weapon makes its own attack rolls: no `{key}`"),
            ));
        }
    }
    if s.duration.as_ref().is_some_and(|d| d.get_ref() != "rounds") {
        errors.push(file.error(
            w.span(),
            Some(f("duration")),
            "a spell's weapon lasts `rounds_per_level` rounds per caster level",
        ));
    }
    let per_levels = crate::content::check_int(
        file,
        &f("weapon_per_levels"),
        &s.weapon_per_levels,
        (1, 40, 0),
        errors,
    );
    let max_bonus =
        crate::content::check_int(file, &f("max_bonus"), &s.max_bonus, (0, 100, 0), errors);
    Some(SpellWeapon {
        dice: dice?,
        ability: ability?,
        per_levels,
        max_bonus,
        // Seed, Attack: "Unless otherwise specified, the threat range for a critical hit on an
        // attack roll is 20, and the multiplier is ×2"; `weapon_shape` is resolved once every
        // weapon is read ([`weapon_shape`]).
        threat: 20,
        multiplier: 2,
    })
}

/// One `[[spell]]` of a content file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpellFile {
    name: Spanned<String>,
    level: Spanned<i64>,
    casting: Spanned<String>,
    provoke: Option<bool>,
    somatic: Option<bool>,
    spell_resistance: Option<Spanned<bool>>,
    magus: Option<bool>,
    range: Spanned<String>,
    range_ft: Option<Spanned<i64>>,
    attack: Option<Spanned<String>>,
    save: Option<Spanned<String>>,
    on_save: Option<Spanned<String>>,
    damage: Option<Spanned<String>>,
    #[serde(default)]
    per_level: bool,
    max_levels: Option<Spanned<i64>>,
    heal: Option<Spanned<String>>,
    weapon: Option<Spanned<String>>,
    weapon_ability: Option<Spanned<String>>,
    weapon_per_levels: Option<Spanned<i64>>,
    weapon_shape: Option<Spanned<String>>,
    haste_rounds_per_level: Option<Spanned<i64>>,
    condition: Option<Spanned<String>>,
    penalty: Option<Spanned<String>>,
    ability: Option<Spanned<String>>,
    penalty_per_levels: Option<Spanned<i64>>,
    max_bonus: Option<Spanned<i64>>,
    rounds_per_level: Option<Spanned<i64>>,
    duration: Option<Spanned<String>>,
    dismissible: Option<bool>,
    material: Option<bool>,
    focus: Option<bool>,
    area: Option<Spanned<String>>,
    area_ft: Option<Spanned<i64>>,
    #[allow(dead_code)]
    description: Option<String>,
}

fn pick<T: Copy>(
    file: &SourceFile<'_>,
    field: String,
    v: &Spanned<String>,
    table: &[(&str, T)],
    errors: &mut Vec<FileError>,
) -> Option<T> {
    let found = table.iter().find(|(k, _)| *k == v.get_ref().as_str());
    if found.is_none() {
        errors.push(file.error(
            v.span(),
            Some(field),
            format!(
                "unknown value `{}`; expected one of {}",
                v.get_ref(),
                fray_core::loader::one_of(table.iter().map(|(k, _)| *k))
            ),
        ));
    }
    found.map(|(_, t)| *t)
}

impl SpellFile {
    /// Where its name is.
    pub(crate) fn name_span(&self) -> std::ops::Range<usize> {
        self.name.span()
    }
}

/// Checks that the weapon a spell's `weapon_shape` names is a weapon of the content (every
/// file's weapons read), an error naming the field otherwise. [CEL-R9, R5.6]
pub(crate) fn check_weapon_shape(
    file: &SourceFile<'_>,
    at: &str,
    s: &SpellFile,
    weapons: &fray_core::catalog::Catalog<crate::content::Weapon>,
    errors: &mut Vec<FileError>,
) {
    let Some(shape) = s.weapon.as_ref().and(s.weapon_shape.as_ref()) else {
        return;
    };
    if weapons.get(shape.get_ref()).is_none() {
        errors.push(file.error(
            shape.span(),
            Some(format!("{at}.weapon_shape")),
            weapons.unknown("weapon", shape.get_ref(), "fray content celesia weapons"),
        ));
    }
}

impl SpellWeapon {
    /// Takes the threat range and multiplier of `shape`, the weapon its spell's
    /// `weapon_shape` names (Pathfinder's spiritual weapon takes the deity's favoured
    /// weapon's). [CEL-R5.6]
    pub fn shaped_as(&mut self, shape: &crate::content::Weapon) {
        self.threat = shape.threat;
        self.multiplier = shape.multiplier;
    }
}

/// Reads and checks one `[[spell]]` (`at`: `spell[3]`), every error with its file, line and
/// field.
pub(crate) fn read(
    file: &SourceFile<'_>,
    at: &str,
    s: &SpellFile,
    errors: &mut Vec<FileError>,
) -> Option<Spell> {
    let before = errors.len();
    let f = |name: &str| format!("{at}.{name}");
    let int = |name: &str, v: &Option<Spanned<i64>>, lo, hi, d, errors: &mut Vec<FileError>| {
        crate::content::check_int(file, &f(name), v, (lo, hi, d), errors)
    };
    let level = int("level", &Some(s.level.clone()), 0, 9, 0, errors);
    let casting = pick(file, f("casting"), &s.casting, &Casting::KEYS, errors);
    let range = match s.range.get_ref().as_str() {
        "personal" | "touch" if s.range_ft.is_some() => {
            errors.push(file.error(
                s.range_ft.as_ref().map_or(0..0, |r| r.span()),
                Some(f("range_ft")),
                "`range_ft` goes with `range = \"ranged\"` only",
            ));
            None
        }
        "personal" => Some(Range::Personal),
        "touch" => Some(Range::Touch),
        "ranged" => match &s.range_ft {
            Some(_) => Some(Range::Feet(int(
                "range_ft",
                &s.range_ft,
                5,
                10_000,
                5,
                errors,
            ))),
            None => {
                errors.push(file.error(
                    s.range.span(),
                    Some(f("range_ft")),
                    "a ranged spell needs `range_ft`, its range in feet",
                ));
                None
            }
        },
        other => {
            errors.push(file.error(
                s.range.span(),
                Some(f("range")),
                format!("unknown value `{other}`; expected one of personal, touch, ranged"),
            ));
            None
        }
    };
    let attack = s.attack.as_ref().and_then(|a| {
        pick(
            file,
            f("attack"),
            a,
            &[
                ("melee touch", TouchAttack::Melee),
                ("ranged touch", TouchAttack::Ranged),
            ],
            errors,
        )
    });
    match (attack, range) {
        (Some(TouchAttack::Melee), Some(r)) if r != Range::Touch => errors.push(file.error(
            s.range.span(),
            Some(f("range")),
            "a melee touch attack needs `range = \"touch\"`",
        )),
        (Some(TouchAttack::Ranged), Some(r)) if !matches!(r, Range::Feet(_)) => {
            errors.push(file.error(
                s.range.span(),
                Some(f("range")),
                "a ranged touch attack needs `range = \"ranged\"` and `range_ft`",
            ))
        }
        _ => {}
    }
    let save_kind = s.save.as_ref().and_then(|v| {
        pick(
            file,
            f("save"),
            v,
            &[
                ("fort", Save::Fort),
                ("reflex", Save::Reflex),
                ("will", Save::Will),
            ],
            errors,
        )
    });
    let on_save = s.on_save.as_ref().and_then(|v| {
        pick(
            file,
            f("on_save"),
            v,
            &[("half", OnSave::Half), ("negates", OnSave::Negates)],
            errors,
        )
    });
    let save = match (save_kind, on_save, &s.save, &s.on_save) {
        (Some(k), Some(o), _, _) => Some((k, o)),
        (_, _, Some(v), None) => {
            errors.push(file.error(
                v.span(),
                Some(f("on_save")),
                "a save needs `on_save`: half or negates",
            ));
            None
        }
        (_, _, None, Some(v)) => {
            errors.push(file.error(
                v.span(),
                Some(f("save")),
                "`on_save` needs `save`: fort, reflex or will",
            ));
            None
        }
        _ => None,
    };
    let damage = s.damage.as_ref().and_then(|d| {
        let dice = DamageDice::parse_dice(d.get_ref());
        if dice.is_none() {
            errors.push(file.error(
                d.span(),
                Some(f("damage")),
                "expected damage dice like `1d6` or `2d4+1`",
            ));
        }
        dice
    });
    let max_levels = int("max_levels", &s.max_levels, 0, 40, 0, errors);
    let heal = s.heal.as_ref().and_then(|h| {
        let dice = DamageDice::parse_dice(h.get_ref());
        if dice.is_none() {
            errors.push(file.error(h.span(), Some(f("heal")), "expected dice like `1d8`"));
        }
        Some(Healing {
            dice: dice?,
            max_bonus: int("max_bonus", &s.max_bonus, 0, 100, 0, errors),
        })
    });
    if let Some(h) = &s.heal {
        // A healing spell is cast on a willing creature: Pathfinder's "Will half (harmless)"
        // and touch attack are for unwilling ones (undead), which fray does not play.
        for (key, given) in [
            ("attack", s.attack.is_some()),
            ("save", s.save.is_some()),
            ("per_level", s.per_level),
        ] {
            if given {
                errors.push(file.error(
                    h.span(),
                    Some(f(key)),
                    format!("a healing spell has no `{key}` (its caster level adds to `heal`, up to `max_bonus`)"),
                ));
            }
        }
    }
    let weapon = read_weapon(file, at, s, range, errors);
    if s.max_bonus.is_some() && s.penalty.is_none() && s.heal.is_none() && s.weapon.is_none() {
        errors.push(file.error(
            s.max_bonus.as_ref().map_or(0..0, |m| m.span()),
            Some(f("max_bonus")),
            "`max_bonus` goes with `penalty`, `heal` or `weapon`",
        ));
    }
    let haste = int(
        "haste_rounds_per_level",
        &s.haste_rounds_per_level,
        1,
        100,
        0,
        errors,
    );
    let condition = s.condition.as_ref().and_then(|c| {
        let trick = crate::state::Trick::from_key(c.get_ref());
        if trick.is_none() {
            errors.push(file.error(
                c.span(),
                Some(f("condition")),
                format!(
                    "unknown condition `{}`; expected one of {}",
                    c.get_ref(),
                    fray_core::loader::one_of(crate::state::Trick::ALL.iter().map(|t| {
                        fray_core::conditions::ConditionKind::key(*t)
                    }))
                ),
            ));
        }
        trick
    });
    let penalty = s.penalty.as_ref().and_then(|d| {
        let dice = DamageDice::parse_dice(d.get_ref());
        if dice.is_none() {
            errors.push(file.error(d.span(), Some(f("penalty")), "expected dice like `1d6`"));
        }
        let key = s.ability.as_ref().map(|a| a.get_ref().as_str());
        let ability = Drained::ALL.into_iter().find(|a| Some(a.short()) == key);
        if ability.is_none() {
            errors.push(file.error(
                s.ability.as_ref().map_or(d.span(), |a| a.span()),
                Some(f("ability")),
                format!(
                    "a penalty needs `ability`, one of {}",
                    fray_core::loader::one_of(Drained::ALL.iter().map(|a| a.short()))
                ),
            ));
        }
        Some(Penalty {
            ability: ability?,
            dice: dice?,
            per_levels: int(
                "penalty_per_levels",
                &s.penalty_per_levels,
                1,
                40,
                0,
                errors,
            ),
            max_bonus: int("max_bonus", &s.max_bonus, 0, 100, 0, errors),
        })
    });
    let rounds_per_level = int("rounds_per_level", &s.rounds_per_level, 1, 100, 0, errors);
    let duration = s.duration.as_ref().map_or(Some(Duration::Rounds), |d| {
        pick(file, f("duration"), d, &Duration::KEYS, errors)
    });
    let timed = s.condition.is_some() || s.penalty.is_some() || s.weapon.is_some();
    if let Some(d) = s.duration.as_ref().filter(|_| !timed) {
        errors.push(file.error(
            d.span(),
            Some(f("duration")),
            "only a condition or a penalty has a `duration`",
        ));
    }
    let by_rounds = duration == Some(Duration::Rounds);
    if timed && by_rounds != (rounds_per_level > 0) || !timed && rounds_per_level > 0 {
        errors.push(file.error(
            s.name.span(),
            Some(f("rounds_per_level")),
            "a condition or a penalty lasting rounds needs `rounds_per_level`, and only it has \
             it (a permanent or concentration one has none)",
        ));
    }
    if !by_rounds
        && s.condition.is_some()
        && s.on_save.as_ref().is_some_and(|o| o.get_ref() == "half")
    {
        errors.push(file.error(
            s.name.span(),
            Some(f("on_save")),
            "a save that halves a condition halves its rounds: a permanent or concentration \
             condition has none to halve",
        ));
    }
    let effects = [
        s.damage.is_some(),
        s.heal.is_some(),
        haste > 0,
        s.condition.is_some(),
        s.penalty.is_some(),
        s.weapon.is_some(),
    ];
    if effects.iter().filter(|e| **e).count() != 1 {
        errors.push(file.error(
            s.name.span(),
            Some(f("damage")),
            "a spell has one effect: `damage`, `heal`, `haste_rounds_per_level`, `condition`, \
             `penalty` or `weapon`",
        ));
    }
    let area = match (&s.area, &s.area_ft) {
        (None, None) => None,
        (Some(a), Some(_)) => {
            let ft = int("area_ft", &s.area_ft, 5, 1000, 5, errors);
            pick(
                file,
                f("area"),
                a,
                &[
                    ("burst", Area::Burst(ft)),
                    ("cone", Area::Cone(ft)),
                    ("line", Area::Line(ft)),
                ],
                errors,
            )
        }
        (Some(a), None) => {
            errors.push(file.error(
                a.span(),
                Some(f("area_ft")),
                "an area needs `area_ft`, its size in feet",
            ));
            None
        }
        (None, Some(a)) => {
            errors.push(file.error(
                a.span(),
                Some(f("area")),
                "`area_ft` needs `area`: burst, cone or line",
            ));
            None
        }
    };
    if area.is_some() && (s.attack.is_some() || haste > 0) {
        errors.push(file.error(
            s.name.span(),
            Some(f("area")),
            "an area spell makes no attack roll and is not haste",
        ));
    }
    if area.is_some() && !matches!(range, Some(Range::Feet(_))) {
        errors.push(file.error(
            s.range.span(),
            Some(f("range")),
            "an area spell is aimed at a creature in range: `range = \"ranged\"`",
        ));
    }
    if s.per_level && s.damage.is_none() {
        errors.push(file.error(
            s.name.span(),
            Some(f("per_level")),
            "`per_level` goes with `damage`",
        ));
    }
    if range == Some(Range::Personal) && (s.attack.is_some() || s.save.is_some()) {
        errors.push(file.error(
            s.range.span(),
            Some(f("range")),
            "a personal spell makes no attack and allows no save",
        ));
    }
    // CEL-R9: whether spell resistance applies is part of every spell (no default hides it).
    if s.spell_resistance.is_none() {
        errors.push(file.error(
            s.name.span(),
            Some(f("spell_resistance")),
            "give `spell_resistance = true` or `false`: whether a creature's spell resistance \
             applies to the spell (Pathfinder's \"Spell Resistance\" line)",
        ));
    }
    if errors.len() > before {
        return None;
    }
    Some(Spell {
        name: s.name.get_ref().clone(),
        level,
        casting: casting?,
        provoke: s.provoke.unwrap_or(true),
        range: range?,
        attack,
        save,
        damage,
        per_level: s.per_level,
        max_levels,
        heal,
        weapon,
        weapon_shape: s.weapon_shape.as_ref().map(|n| n.get_ref().clone()),
        haste_rounds_per_level: haste,
        condition,
        penalty,
        rounds_per_level,
        duration: duration?,
        dismissible: s.dismissible.unwrap_or(false),
        material: s.material.unwrap_or(false) || s.focus.unwrap_or(false),
        area,
        somatic: s.somatic.unwrap_or(true),
        spell_resistance: s.spell_resistance.as_ref().is_some_and(|v| *v.get_ref()),
        magus: s.magus.unwrap_or(false),
    })
}
