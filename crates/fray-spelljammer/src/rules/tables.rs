//! The seed's tables and small formulas as pure functions.
//!
//! Everything here is deterministic arithmetic on numbers the caller already has: no I/O, no
//! dice, no combat state. Each function names the seed section and the spec rule it encodes.
//!
//! Ladder results (`k×` STAT rolls, SJ-A1) are passed as `u8` steps: 1 is the best result,
//! higher is worse, and 5 means "5× or worse". A step of 0 is never produced by [`ladder`]; the
//! functions that take a step treat 0 like a failed roll (the worst row) unless stated otherwise.

use crate::content::{Missile, RangedClass, Size, Specialization, SpellKind};
use crate::state::Lighting;
use fray_core::event::AttackResult;

// ---------------------------------------------------------------------------------------------
// Initiative
// ---------------------------------------------------------------------------------------------

/// Initiative at or below which an attack or action is lost. [Seed: Initiative] SJ-R2.5
pub const LOST_AT: i32 = -6;

/// The last segment of a round on which anything still happens. [Seed: The Initiative Round] SJ-R3.1
pub const LAST_SEGMENT: i32 = -5;

/// The first segment of the movement phase (movement runs 10..=1). [Seed: The Initiative Round] SJ-R3.1
pub const MOVEMENT_FIRST: i32 = 10;

/// The last segment of the movement phase. [Seed: The Initiative Round] SJ-R3.1
pub const MOVEMENT_LAST: i32 = 1;

/// Default initiative die chain: d10, d8, d6, d4, then d2. [Seed: Initiative] SJ-R2.3 / SJ-A9
pub const DEFAULT_DIE_CHAIN: [u16; 5] = [10, 8, 6, 4, 2];

/// Whether an action at this initiative is lost (−6 or later). [Seed: Initiative] SJ-R2.5
pub fn is_lost(initiative: i32) -> bool {
    initiative <= LOST_AT
}

/// Die size for the `n`-th (0-based) attack: `chain[n]`, else the last entry. [Seed: Initiative] SJ-R2.3 / SJ-A9
///
/// An empty chain falls back to [`DEFAULT_DIE_CHAIN`].
pub fn initiative_die(chain: &[u16], n: usize) -> u16 {
    let chain = if chain.is_empty() {
        &DEFAULT_DIE_CHAIN[..]
    } else {
        chain
    };
    chain.get(n).or_else(|| chain.last()).copied().unwrap_or(10)
}

/// Moves a combatant's later tied attacks one segment later until all differ. [Seed: Initiative] SJ-R2.4
///
/// Index order is attack order: an attack equal to any earlier one drops by 1, repeatedly.
/// `[7, 7]` → `[7, 6]`; `[7, 7, 6]` → `[7, 6, 5]`.
pub fn separate_own_ties(initiatives: &mut [i32]) {
    for i in 1..initiatives.len() {
        let (earlier, rest) = initiatives.split_at_mut(i);
        let current = &mut rest[0];
        while earlier.contains(current) {
            *current -= 1;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Hitting, criticals and grievous hits
// ---------------------------------------------------------------------------------------------

/// The critical/grievous table: (lowest MSC of the row, grievous max, critical max).
/// [Seed: Critical and Grievous Hits] SJ-R8.1
const CRIT_TABLE: [(i32, i32, i32); 20] = [
    (1, 0, 1),
    (10, 1, 2),
    (17, 1, 3),
    (24, 1, 4),
    (29, 2, 5),
    (37, 2, 6),
    (44, 2, 7),
    (50, 3, 8),
    (57, 3, 9),
    (64, 3, 10),
    (70, 4, 11),
    (77, 4, 12),
    (84, 4, 13),
    (90, 5, 14),
    (97, 5, 15),
    (104, 5, 16),
    (110, 6, 17),
    (117, 6, 18),
    (124, 6, 19),
    (130, 7, 20),
];

/// Critical/grievous row `(grievous max, critical max)` for a modified strike chance. [Seed: Critical and Grievous Hits] SJ-R8.1
///
/// MSC ≤ 0 gives `(0, 0)` (SJ-A4); the "-" grievous entry of the 01…09 row is 0 (SJ-A3);
/// MSC ≥ 130 uses the "130+" row.
pub fn crit_row(msc: i32) -> (i32, i32) {
    CRIT_TABLE
        .iter()
        .rev()
        .find(|(low, _, _)| msc >= *low)
        .map_or((0, 0), |&(_, g, c)| (g, c))
}

/// Outcome of a natural d100 `roll` against a modified strike chance. [Seed: Hitting; Automatic Hits and Misses] SJ-R9
///
/// ≥ 96 miss; 01 grievous; 02 at least critical; 03 at least hit; otherwise roll ≤ MSC with the
/// crit row deciding critical and grievous.
pub fn strike_result(msc: i32, roll: u32) -> AttackResult {
    if roll >= 96 {
        return AttackResult::Miss;
    }
    let (g_max, c_max) = crit_row(msc);
    let r = i64::from(roll);
    if roll == 1 || r <= i64::from(g_max) {
        AttackResult::Grievous
    } else if roll == 2 || r <= i64::from(c_max) {
        AttackResult::Critical
    } else if roll == 3 || r <= i64::from(msc) {
        AttackResult::Hit
    } else {
        AttackResult::Miss
    }
}

/// The classes of the d100 that [`strike_result`] reads alike at this MSC, as the lowest face of
/// each after the first ([`fray_core::FaceClasses`]): a grievous hit (01 and the crit row's
/// grievous faces), a critical, a hit, a miss (96 and above always). Exact odds branch once
/// per class instead of once per face; the strike reads its d100 only through the result.
/// [Seed: Hitting; Automatic Hits and Misses] SJ-R9
pub fn strike_classes(msc: i32) -> fray_core::FaceClasses {
    let (g_max, c_max) = crit_row(msc);
    let grievous = g_max.clamp(1, 95);
    let critical = c_max.clamp(2, 95).max(grievous);
    let hit = msc.clamp(3, 95).max(critical);
    fray_core::FaceClasses::at(&[grievous + 1, critical + 1, hit + 1])
}

/// Number of d100 results (out of 100) that hit at this MSC: `clamp(msc, 3, 95)`. [Seed: Hitting; Automatic Hits and Misses] SJ-R7 / SJ-A24
pub fn hit_chance(msc: i32) -> i32 {
    msc.clamp(3, 95)
}

// ---------------------------------------------------------------------------------------------
// Stun
// ---------------------------------------------------------------------------------------------

/// Effective CON for stun: +2 Large, +4 Giant, +1 per 10 HP (or fraction) above 100. [Seed: Taking Damage] SJ-R11.2
pub fn effective_con(con: i32, size: Size, max_hp: i32) -> i32 {
    let size_bonus = match size {
        Size::Large => 2,
        Size::Giant => 4,
        Size::Tiny | Size::Small | Size::Medium => 0,
    };
    let excess = (max_hp - 100).max(0);
    con + size_bonus + (excess + 9) / 10
}

/// Damage taken above which a hit stuns: CON up to 25, then `2·CON − 25`. [Seed: Taking Damage] SJ-R11.3 / SJ-A6
pub fn stun_threshold(effective_con: i32) -> i32 {
    if effective_con <= 25 {
        effective_con
    } else {
        2 * effective_con - 25
    }
}

/// Whether one hit's damage taken (after PROT) stuns the target. [Seed: Taking Damage] SJ-R11.1 / SJ-A5
pub fn stuns(taken: i32, con: i32, size: Size, max_hp: i32) -> bool {
    taken > stun_threshold(effective_con(con, size, max_hp))
}

// ---------------------------------------------------------------------------------------------
// Wounds
// ---------------------------------------------------------------------------------------------

/// Wound band of an HP value: 0 above 20, 1 at ≤ 20, 2 at ≤ 10, 3 at ≤ 5. [Seed: Wound Modifiers] SJ-R12.2
pub fn wound_tier(hp: i32) -> u8 {
    if hp <= 5 {
        3
    } else if hp <= 10 {
        2
    } else if hp <= 20 {
        1
    } else {
        0
    }
}

/// Wound band that actually applies, after the starting-HP exception (0 if none). [Seed: Wound Modifiers] SJ-R12.2
pub fn effective_wound_tier(hp: i32, max_hp: i32) -> u8 {
    let tier = wound_tier(hp);
    if tier <= wound_tier(max_hp) {
        0
    } else {
        tier
    }
}

/// Wound modifier to all actions and TMR, with the starting-HP exception. [Seed: Wound Modifiers] SJ-R12.1 / SJ-R12.2
pub fn wound_modifier(hp: i32, max_hp: i32) -> i32 {
    [0, -10, -20, -30][usize::from(effective_wound_tier(hp, max_hp))]
}

/// Display label of a wound state ("critically wounded" for the ≤ 5 band). [Seed: Wound Modifiers] SJ-R12.1 / SJ-A8
///
/// The numbered bands are named only when their modifier applies (after the starting-HP
/// exception); otherwise the label is "bloodied" below 50 % of max HP, "wounded" below max,
/// "unhurt" at or above max.
pub fn wound_label(hp: i32, max_hp: i32) -> &'static str {
    match effective_wound_tier(hp, max_hp) {
        3 => "critically wounded",
        2 => "very badly wounded",
        1 => "badly wounded",
        _ if i64::from(hp) * 2 < i64::from(max_hp) => "bloodied",
        _ if hp < max_hp => "wounded",
        _ => "unhurt",
    }
}

/// TMR after a wound modifier: `tmr + modifier` (min 0), or a percentage cut when toggled. [Seed: Wound Modifiers] SJ-A7
pub fn wounded_tmr(tmr: i32, modifier: i32, percent: bool) -> i32 {
    let value = if percent {
        tmr * (100 + modifier) / 100
    } else {
        tmr + modifier
    };
    value.max(0)
}

// ---------------------------------------------------------------------------------------------
// Spells
// ---------------------------------------------------------------------------------------------

/// Mage casting time by spell rank, GK or SK; ranks above 22 use row 22. [Seed: Casting Mage Spells] SJ-R15.3 / SJ-A15
///
/// Ranks below 1 are treated as rank 1.
pub fn mage_casting_time(rank: i32, specific: bool) -> i32 {
    let general = match rank.max(1) {
        1..=5 => 6,
        6..=10 => 5,
        11..=15 => 4,
        16..=20 => 3,
        21 => 2,
        _ => 1,
    };
    if specific {
        general + 1
    } else {
        general
    }
}

/// Casting time in segments: the cleric spell's own time, or the mage table. [Seed: Casting Cleric Spells; Casting Mage Spells] SJ-R15.2 / SJ-R15.3
pub fn casting_time(kind: SpellKind, rank: i32) -> i32 {
    match kind {
        SpellKind::Cleric { time } => time,
        SpellKind::MageGeneral => mage_casting_time(rank, false),
        SpellKind::MageSpecific => mage_casting_time(rank, true),
    }
}

/// Segment a spell started at `start` goes off, or `None` if that would be ≤ −6 (deferred). [Seed: Casting Cleric Spells; The Initiative Round] SJ-R15.1 / SJ-R15.4
pub fn spell_goes_off(start: i32, casting_time: i32) -> Option<i32> {
    let at = start - casting_time;
    (!is_lost(at)).then_some(at)
}

// ---------------------------------------------------------------------------------------------
// Attribute ladders
// ---------------------------------------------------------------------------------------------

/// Ladder result: the smallest `k` in `1..=max_k` with `roll ≤ k·stat`, else `max_k + 1`. [Seed: Ambush; Attack and Move; Invisible Foe; Picking Up] SJ-A1
pub fn ladder(roll: u32, stat: i32, max_k: u8) -> u8 {
    (1..=max_k)
        .find(|&k| i64::from(roll) <= i64::from(k) * i64::from(stat))
        .unwrap_or_else(|| max_k.saturating_add(1))
}

// ---------------------------------------------------------------------------------------------
// Combining actions
// ---------------------------------------------------------------------------------------------

/// Attacks kept when moving (½ TMR) then attacking: lose ⌊n/2⌋. [Seed: Combining Actions › Move and Attack] SJ-R17.1
pub fn attacks_move_attack(n: u8) -> u8 {
    n - n / 2
}

/// Attacks kept when running and attacking: `max(1, ⌊n/2⌋)` (0 stays 0). [Seed: Run and Attack] SJ-R17.3
pub fn attacks_run_attack(n: u8) -> u8 {
    if n == 0 {
        0
    } else {
        (n / 2).max(1)
    }
}

/// Attacks kept after a half-round action (ready shield, drink potion): lose ⌈n/2⌉. [Seed: Ready Shield; Drink Potion] SJ-R17.5 / SJ-R17.6
pub fn attacks_half_round(n: u8) -> u8 {
    n / 2
}

/// First movement segment after attacking, from the last attack's segment and the DEX ladder step. [Seed: Attack and Move] SJ-R17.2 / SJ-A25
///
/// Last attack > 10 → `Some(10)`; 2..=10 → `Some(s − k)` when `1 ≤ k ≤ 4` and `s − k ≥ 1`;
/// otherwise (5× or worse, `s ≤ 1`) `None`. Movement then runs down to segment 1.
pub fn attack_move_start(last_attack: i32, dex_step: u8) -> Option<i32> {
    if last_attack > MOVEMENT_FIRST {
        return Some(MOVEMENT_FIRST);
    }
    if last_attack < 2 || !(1..=4).contains(&dex_step) {
        return None;
    }
    let start = last_attack - i32::from(dex_step);
    (start >= MOVEMENT_LAST).then_some(start)
}

// ---------------------------------------------------------------------------------------------
// Defensive modes
// ---------------------------------------------------------------------------------------------

/// Largest SC sacrifice allowed when Defending: 5 × weapon rank. [Seed: Defending] SJ-R19
pub fn max_sacrifice(weapon_rank: i32) -> i32 {
    5 * weapon_rank.max(0)
}

/// DEF bonus for an SC sacrifice `S` when Defending: ⌊S/2⌋. [Seed: Defending] SJ-R19
pub fn defending_bonus(sacrifice: i32) -> i32 {
    sacrifice.max(0) / 2
}

/// ⌈2.5 × rank⌉ for a non-negative rank.
fn two_and_a_half(weapon_rank: i32) -> i32 {
    (5 * weapon_rank.max(0) + 1) / 2
}

/// DEF bonus of Full Defense: 5 + ⌈2.5 × rank⌉. [Seed: Full Defense] SJ-R19
pub fn full_defense_bonus(weapon_rank: i32) -> i32 {
    5 + two_and_a_half(weapon_rank)
}

/// DEF bonus of Desperate Defense: 20 + ⌈2.5 × rank⌉. [Seed: Desperate Defense] SJ-R19
pub fn desperate_defense_bonus(weapon_rank: i32) -> i32 {
    20 + two_and_a_half(weapon_rank)
}

// ---------------------------------------------------------------------------------------------
// Melee modifiers
// ---------------------------------------------------------------------------------------------

/// SC modifier for the lighting, for attackers relying on normal sight. [Seed: Lighting Modifiers] SJ-R18.4 / SJ-A18
pub fn lighting_modifier(lighting: Lighting) -> i32 {
    match lighting {
        Lighting::Bright => 0,
        Lighting::Starry => -10,
        Lighting::Cloudy => -20,
        Lighting::Cave => -40,
        Lighting::PitchBlack => -60,
    }
}

/// SC bonus per attacker: `max(0, 10·(attackers − 1) − RoF rank × step)`. [Seed: Multiple Attackers] SJ-R18.2 / SJ-G6
pub fn multiple_attacker_bonus(attackers: i32, range_of_field: i32, step_per_rank: i32) -> i32 {
    (10 * (attackers - 1) - range_of_field * step_per_rank).max(0)
}

/// `(SC, DEF)` modifiers against an unseen foe by PER ladder step: 1× (−10, −5), 2× (−20, −10), else (−40, −20). [Seed: Invisible Foe] SJ-R18.1
pub fn invisible_penalty(per_step: u8) -> (i32, i32) {
    match per_step {
        1 => (-10, -5),
        2 => (-20, -10),
        _ => (-40, -20),
    }
}

/// SC bonus against a stunned target. [Seed: Target Stunned] SJ-R18.3
pub const STUNNED_TARGET_SC: i32 = 10;

// ---------------------------------------------------------------------------------------------
// Picking up a dropped weapon
// ---------------------------------------------------------------------------------------------

/// Outcome of trying to pick up one's dropped weapon. [Seed: Picking Up a Dropped Weapon] SJ-R21.3
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PickUp {
    /// 1× DEX: retrieved, and one attack this round at −5 initiative.
    RetrievedWithAttack,
    /// 2×–4× DEX: retrieved, no attack this round.
    Retrieved,
    /// 5× or worse: not retrieved.
    NotRetrieved,
}

/// Pick-up outcome by DEX ladder step: 1 with attack, 2..=4 retrieved, else not. [Seed: Picking Up a Dropped Weapon] SJ-R21.3
pub fn pick_up_result(dex_step: u8) -> PickUp {
    match dex_step {
        1 => PickUp::RetrievedWithAttack,
        2..=4 => PickUp::Retrieved,
        _ => PickUp::NotRetrieved,
    }
}

// ---------------------------------------------------------------------------------------------
// Surprise and ambush
// ---------------------------------------------------------------------------------------------

/// Target's DEF under surprise: half (rounded down) in combat, only always-on magic DEF out of combat. [Seed: Surprise] SJ-R13
pub fn surprise_def(normal_def: i32, always_on: i32, out_of_combat: bool) -> i32 {
    if out_of_combat {
        always_on
    } else {
        normal_def.div_euclid(2)
    }
}

/// Attacker's SC bonus for surprise: +10 in combat, +25 out of combat. [Seed: Surprise] SJ-R13
pub fn surprise_sc_bonus(out_of_combat: bool) -> i32 {
    if out_of_combat {
        25
    } else {
        10
    }
}

/// Ambushers' SC bonus by the target's PER ladder step: 1–2 → 0, 3 → +10, 4 → +20, 5+ → +30. [Seed: Ambush] SJ-R14.1
pub fn ambush_sc_bonus(step: u8) -> i32 {
    match step {
        1 | 2 => 0,
        3 => 10,
        4 => 20,
        _ => 30,
    }
}

/// Ambushers' damage bonus by the target's PER ladder step: +2 at 5× or worse. [Seed: Ambush] SJ-R14.1
pub fn ambush_damage_bonus(step: u8) -> i32 {
    if step == 0 || step >= 5 {
        2
    } else {
        0
    }
}

/// Attacks a target may make in the ambushers' surprise round: 1× all, 2× one, 3×+ none. [Seed: Ambush] SJ-R14.1 / SJ-A14
pub fn ambush_attacks_allowed(step: u8, normal: u8) -> u8 {
    match step {
        1 => normal,
        2 => normal.min(1),
        _ => 0,
    }
}

/// An ally's PER step after a 1× warning: one step better, never better than 1×. [Seed: Ambush] SJ-R14.1 / SJ-A14
pub fn ambush_warned(step: u8) -> u8 {
    if step <= 1 {
        step
    } else {
        step - 1
    }
}

// ---------------------------------------------------------------------------------------------
// Ranged modifiers
// ---------------------------------------------------------------------------------------------

/// Ranged SC modifier for the target's size. [Seed: Ranged Modifiers › Size Modifiers] SJ-R23.4
pub fn size_modifier(size: Size) -> i32 {
    match size {
        Size::Tiny => -10,
        Size::Small => -5,
        Size::Medium => 0,
        Size::Large => 5,
        Size::Giant => 10,
    }
}

/// Cover of a ranged target (more than half its body hidden). [Seed: Ranged Modifiers › Cover Modifiers] SJ-R23.3
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Cover {
    /// No cover.
    #[default]
    None,
    /// Soft cover (hides only): −10.
    Soft,
    /// Hard cover (stops or deflects): −20.
    Hard,
}

impl Cover {
    /// Name in files and choices.
    pub fn key(self) -> &'static str {
        match self {
            Cover::None => "none",
            Cover::Soft => "soft",
            Cover::Hard => "hard",
        }
    }
    /// Parses a name.
    pub fn from_key(key: &str) -> Option<Cover> {
        [Cover::None, Cover::Soft, Cover::Hard]
            .into_iter()
            .find(|c| c.key() == key)
    }
}

/// Ranged SC modifier for cover: soft −10, hard −20. [Seed: Ranged Modifiers › Cover Modifiers] SJ-R23.3
pub fn cover_modifier(cover: Cover) -> i32 {
    match cover {
        Cover::None => 0,
        Cover::Soft => -10,
        Cover::Hard => -20,
    }
}

/// How a ranged target is moving. [Seed: Ranged Modifiers › Movement Modifiers] SJ-R23.1
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TargetPace {
    /// Stationary: +10.
    Stationary,
    /// Walking (normal TMR): −0.
    #[default]
    Walking,
    /// Running (2× TMR): −10.
    Running,
    /// Sprinting (3× TMR): −20.
    Sprinting,
    /// Fast sprinting (4× TMR): −30.
    FastSprinting,
    /// Dodging: −20.
    Dodging,
    /// On a moving mount or wagon: −10.
    Mounted,
}

impl TargetPace {
    /// Every pace, in the seed's order.
    pub const ALL: [TargetPace; 7] = [
        TargetPace::Stationary,
        TargetPace::Walking,
        TargetPace::Running,
        TargetPace::Sprinting,
        TargetPace::FastSprinting,
        TargetPace::Dodging,
        TargetPace::Mounted,
    ];

    /// Name in files and choices.
    pub fn key(self) -> &'static str {
        match self {
            TargetPace::Stationary => "stationary",
            TargetPace::Walking => "walking",
            TargetPace::Running => "running",
            TargetPace::Sprinting => "sprinting",
            TargetPace::FastSprinting => "fast_sprinting",
            TargetPace::Dodging => "dodging",
            TargetPace::Mounted => "mounted",
        }
    }
    /// Parses a name.
    pub fn from_key(key: &str) -> Option<TargetPace> {
        TargetPace::ALL.into_iter().find(|p| p.key() == key)
    }
}

/// Ranged SC modifier for the target's movement. [Seed: Ranged Modifiers › Movement Modifiers] SJ-R23.1
pub fn target_movement_modifier(pace: TargetPace) -> i32 {
    match pace {
        TargetPace::Stationary => 10,
        TargetPace::Walking => 0,
        TargetPace::Running => -10,
        TargetPace::Sprinting => -20,
        TargetPace::FastSprinting => -30,
        TargetPace::Dodging => -20,
        TargetPace::Mounted => -10,
    }
}

/// SC bonus for Careful Aim. [Seed: Ranged Modifiers › Careful Aim] SJ-R23.2
pub const CAREFUL_AIM_SC: i32 = 15;

/// SC penalty for using a ranged weapon in melee, by weapon and specialisation (thrown: 0). [Seed: Using a Ranged Weapon in Melee] SJ-R23.5
pub fn ranged_in_melee_penalty(class: RangedClass, spec: Specialization) -> i32 {
    let [normal, specialist, double] = match class {
        RangedClass::HandCrossbow => [-10, -5, 0],
        RangedClass::Crossbow => [-20, -15, -10],
        RangedClass::Bow => [-30, -20, -10],
        RangedClass::Thrown => [0, 0, 0],
    };
    match spec {
        Specialization::None => normal,
        Specialization::Specialist => specialist,
        Specialization::Double => double,
    }
}

/// A stuck missile's `(DEX penalty, bleeding per round)`; a grievous hit is 1 worse on DEX. [Seed: Ranged › Critical or Grievous Hits] SJ-R23.6 / SJ-A2
pub fn stuck_effect(missile: Missile, grievous: bool) -> (i32, i32) {
    let (dex, bleed) = match missile {
        Missile::Arrow => (-2, 1),
        Missile::Javelin => (-3, 2),
        Missile::Spear => (-4, 5),
    };
    (if grievous { dex - 1 } else { dex }, bleed)
}

/// Shooting into melee: the total at or below which the shot goes to a friend. [Seed: Shooting Into Melee] SJ-R23.7 / SJ-A22
///
/// The six printed rows are used as given. Other combinations use `20 + 10·F − 10·(O − 1)`
/// clamped to `[5, 95]` when `fallback`, else `None`. No friend or no opponent → `None`.
pub fn shoot_into_melee_threshold(friends: i32, opponents: i32, fallback: bool) -> Option<i32> {
    if friends < 1 || opponents < 1 {
        return None;
    }
    let printed = match (friends, opponents) {
        (1, 1) => Some(30),
        (1, 2) => Some(20),
        (1, 3) => Some(10),
        (2, 1) => Some(40),
        (3, 1) => Some(50),
        (3, 2) => Some(45),
        _ => None,
    };
    printed.or_else(|| fallback.then(|| (20 + 10 * friends - 10 * (opponents - 1)).clamp(5, 95)))
}

/// Highest natural d100 that always goes to a friend: 05, 03 for specialists, 01 for DS. [Seed: Shooting Into Melee] SJ-R23.7
pub fn natural_friend_max(spec: Specialization) -> u32 {
    match spec {
        Specialization::None => 5,
        Specialization::Specialist => 3,
        Specialization::Double => 1,
    }
}

/// Bonus added to the shooting-into-melee d100: rank + 2 × Master Bowman (+5 / +10). [Seed: Shooting Into Melee] SJ-R23.7
pub fn shoot_into_melee_bonus(weapon_rank: i32, master_bowman: i32, spec: Specialization) -> i32 {
    let spec_bonus = match spec {
        Specialization::None => 0,
        Specialization::Specialist => 5,
        Specialization::Double => 10,
    };
    weapon_rank + 2 * master_bowman + spec_bonus
}

#[cfg(test)]
mod tests {
    use super::*;
    use AttackResult::{Critical, Grievous, Hit, Miss};

    /// SJ-R9: every face of the d100 gives the result of the lowest face of its class
    /// ([`strike_classes`]), at every MSC from far below the table to far above it, so exact
    /// odds may answer a class with its lowest face; and the four classes are those results.
    #[test]
    fn strike_classes_group_faces_of_one_result() {
        for msc in -60..=160 {
            let classes = strike_classes(msc);
            let mut lowest: Vec<Option<u32>> = vec![None; 5];
            for roll in 1..=100u32 {
                let class = classes.of(roll);
                let first = *lowest[class].get_or_insert(roll);
                assert_eq!(
                    strike_result(msc, roll),
                    strike_result(msc, first),
                    "MSC {msc}, face {roll} against its class's lowest, {first}"
                );
            }
            let results: Vec<AttackResult> = lowest
                .iter()
                .flatten()
                .map(|&f| strike_result(msc, f))
                .collect();
            let mut distinct = results.clone();
            distinct.dedup();
            assert_eq!(distinct, results, "MSC {msc}: one class a result");
        }
        assert_eq!(strike_result(50, 1), Grievous);
        assert_eq!(strike_classes(50).of(96), 3, "96 misses: the last class");
    }

    // --- SJ-E2, SJ-R2.4 ties; SJ-R2.3 dice ---

    #[test]
    fn e2_own_ties_move_later() {
        let mut v = [7, 7];
        separate_own_ties(&mut v);
        assert_eq!(v, [7, 6]);
        let mut v = [7, 7, 6];
        separate_own_ties(&mut v);
        assert_eq!(v, [7, 6, 5]);
        let mut v = [9, 4, 2];
        separate_own_ties(&mut v);
        assert_eq!(v, [9, 4, 2]);
        let mut v = [5, 5, 5, 5];
        separate_own_ties(&mut v);
        assert_eq!(v, [5, 4, 3, 2]);
        let mut v: [i32; 0] = [];
        separate_own_ties(&mut v);
    }

    #[test]
    fn die_chain() {
        let chain = [10, 8, 6, 4, 2];
        assert_eq!(initiative_die(&chain, 0), 10);
        assert_eq!(initiative_die(&chain, 1), 8);
        assert_eq!(initiative_die(&chain, 2), 6);
        assert_eq!(initiative_die(&chain, 3), 4);
        assert_eq!(initiative_die(&chain, 4), 2);
        assert_eq!(initiative_die(&chain, 9), 2);
        assert_eq!(initiative_die(&[10, 8], 5), 8);
        assert_eq!(initiative_die(&[], 1), 8);
    }

    // --- SJ-E23, SJ-R2.5 ---

    #[test]
    fn e23_initiative_loss() {
        assert!(is_lost(1 - 1 - 7));
        assert!(is_lost(-6));
        assert!(!is_lost(-5));
        assert!(!is_lost(LAST_SEGMENT));
        assert!(is_lost(LOST_AT));
    }

    // --- SJ-E3, SJ-E22, SJ-R7/R8/R9 ---

    #[test]
    fn e3_bands() {
        // SC 112 vs DEF 40.
        let msc = 112 - 40;
        assert_eq!(msc, 72);
        assert_eq!(crit_row(msc), (4, 11));
        assert_eq!(strike_result(msc, 73), Miss);
        assert_eq!(strike_result(msc, 50), Hit);
        assert_eq!(strike_result(msc, 11), Critical);
        assert_eq!(strike_result(msc, 4), Grievous);
        assert_eq!(strike_result(msc, 97), Miss);
        assert_eq!(strike_result(msc, 72), Hit);
        assert_eq!(strike_result(msc, 12), Hit);
        assert_eq!(strike_result(msc, 5), Critical);
    }

    #[test]
    fn e22_low_msc_automatic() {
        assert_eq!(strike_result(-15, 1), Grievous);
        assert_eq!(strike_result(-15, 2), Critical);
        assert_eq!(strike_result(-15, 3), Hit);
        assert_eq!(strike_result(-15, 4), Miss);
        assert_eq!(crit_row(0), (0, 0));
        assert_eq!(crit_row(-15), (0, 0));
        assert_eq!(strike_result(0, 1), Grievous);
        assert_eq!(strike_result(0, 2), Critical);
        assert_eq!(strike_result(0, 3), Hit);
        assert_eq!(strike_result(0, 4), Miss);
    }

    #[test]
    fn automatic_overrides_table_a3() {
        // Row 01…09: no grievous, crit 01, yet 01 is grievous and 02 is critical.
        assert_eq!(crit_row(5), (0, 1));
        assert_eq!(strike_result(5, 1), Grievous);
        assert_eq!(strike_result(5, 2), Critical);
        assert_eq!(strike_result(5, 3), Hit);
        assert_eq!(strike_result(5, 5), Hit);
        assert_eq!(strike_result(5, 6), Miss);
        // 96–100 always miss, whatever the MSC.
        for roll in 96..=100 {
            assert_eq!(strike_result(500, roll), Miss);
        }
        assert_eq!(strike_result(500, 95), Hit);
        assert_eq!(strike_result(500, 7), Grievous);
        assert_eq!(strike_result(500, 20), Critical);
        assert_eq!(strike_result(500, 21), Hit);
    }

    /// The table of SJ-R8.1 as printed: (MSC low, MSC high, grievous max, critical max).
    const PRINTED: [(i32, i32, i32, i32); 20] = [
        (1, 9, 0, 1),
        (10, 16, 1, 2),
        (17, 23, 1, 3),
        (24, 28, 1, 4),
        (29, 36, 2, 5),
        (37, 43, 2, 6),
        (44, 49, 2, 7),
        (50, 56, 3, 8),
        (57, 63, 3, 9),
        (64, 69, 3, 10),
        (70, 76, 4, 11),
        (77, 83, 4, 12),
        (84, 89, 4, 13),
        (90, 96, 5, 14),
        (97, 103, 5, 15),
        (104, 109, 5, 16),
        (110, 116, 6, 17),
        (117, 123, 6, 18),
        (124, 129, 6, 19),
        (130, 130, 7, 20),
    ];

    #[test]
    fn crit_table_row_boundaries() {
        for &(low, high, g, c) in &PRINTED {
            assert_eq!(crit_row(low), (g, c), "msc {low}");
            assert_eq!(crit_row(high), (g, c), "msc {high}");
            assert_eq!(crit_row((low + high) / 2), (g, c));
        }
        assert_eq!(crit_row(9), (0, 1));
        assert_eq!(crit_row(10), (1, 2));
        assert_eq!(crit_row(16), (1, 2));
        assert_eq!(crit_row(17), (1, 3));
        assert_eq!(crit_row(28), (1, 4));
        assert_eq!(crit_row(29), (2, 5));
        assert_eq!(crit_row(96), (5, 14));
        assert_eq!(crit_row(97), (5, 15));
        assert_eq!(crit_row(129), (6, 19));
        assert_eq!(crit_row(130), (7, 20));
        assert_eq!(crit_row(200), (7, 20));
        assert_eq!(crit_row(i32::MAX), (7, 20));
        assert_eq!(crit_row(1), (0, 1));
        assert_eq!(crit_row(0), (0, 0));
    }

    #[test]
    fn hit_chance_caps_at_95() {
        for msc in [-50, 0, 1, 3, 4, 50, 95, 96, 97, 130, 300] {
            let hits = (1..=100).filter(|&r| strike_result(msc, r) != Miss).count() as i32;
            assert_eq!(hits, hit_chance(msc), "msc {msc}");
        }
        assert_eq!(hit_chance(96), 95);
        assert_eq!(hit_chance(150), 95);
        assert_eq!(hit_chance(72), 72);
        assert_eq!(hit_chance(-15), 3);
        // For MSC ≥ 96 every roll 1..=95 hits and 96..=100 misses.
        for msc in [96, 110, 200] {
            assert!((1..=95).all(|r| strike_result(msc, r) != Miss));
            assert!((96..=100).all(|r| strike_result(msc, r) == Miss));
        }
    }

    #[test]
    fn results_are_ordered_by_roll() {
        // Within a row, lower rolls are never worse results.
        let rank = |r: AttackResult| match r {
            Miss => 0,
            Hit => 1,
            Critical => 2,
            Grievous => 3,
            AttackResult::Fumble => panic!("Spelljammer has no fumbles (SJ-R7)"),
        };
        for msc in -20..=150 {
            for roll in 1..100 {
                assert!(rank(strike_result(msc, roll)) >= rank(strike_result(msc, roll + 1)));
            }
        }
    }

    // --- SJ-E18, SJ-R11 ---

    #[test]
    fn e18_stun() {
        assert!(stuns(15, 14, Size::Medium, 30));
        assert!(!stuns(14, 14, Size::Medium, 30));
        assert_eq!(stun_threshold(30), 35);
        assert!(stuns(36, 30, Size::Medium, 80));
        assert!(!stuns(35, 30, Size::Medium, 80));
        assert_eq!(effective_con(24, Size::Large, 50), 26);
        assert_eq!(stun_threshold(effective_con(24, Size::Large, 50)), 27);
        assert_eq!(effective_con(20, Size::Medium, 125), 23);
        assert!(stuns(24, 20, Size::Medium, 125));
        assert!(!stuns(23, 20, Size::Medium, 125));
    }

    #[test]
    fn effective_con_parts() {
        assert_eq!(effective_con(10, Size::Giant, 10), 14);
        assert_eq!(effective_con(10, Size::Tiny, 10), 10);
        assert_eq!(effective_con(10, Size::Small, 10), 10);
        assert_eq!(effective_con(10, Size::Medium, 100), 10);
        assert_eq!(effective_con(10, Size::Medium, 101), 11);
        assert_eq!(effective_con(10, Size::Medium, 110), 11);
        assert_eq!(effective_con(10, Size::Medium, 111), 12);
        assert_eq!(effective_con(10, Size::Giant, 200), 24);
    }

    #[test]
    fn stun_table_rows() {
        let printed = [
            (26, 27),
            (27, 29),
            (28, 31),
            (29, 33),
            (30, 35),
            (31, 37),
            (32, 39),
            (33, 41),
            (34, 43),
            (35, 45),
        ];
        for (con, threshold) in printed {
            assert_eq!(stun_threshold(con), threshold, "CON {con}");
        }
        assert_eq!(stun_threshold(25), 25);
        assert_eq!(stun_threshold(14), 14);
        assert_eq!(stun_threshold(36), 47);
        assert_eq!(stun_threshold(40), 55);
    }

    // --- SJ-E16, SJ-R12 ---

    #[test]
    fn e16_starting_hp_18() {
        for hp in 11..=18 {
            assert_eq!(wound_modifier(hp, 18), 0, "hp {hp}");
        }
        for hp in 6..=10 {
            assert_eq!(wound_modifier(hp, 18), -20, "hp {hp}");
        }
        for hp in -5..=5 {
            assert_eq!(wound_modifier(hp, 18), -30, "hp {hp}");
        }
    }

    #[test]
    fn e16_starting_hp_50() {
        for hp in 21..=50 {
            assert_eq!(wound_modifier(hp, 50), 0, "hp {hp}");
        }
        for hp in 11..=20 {
            assert_eq!(wound_modifier(hp, 50), -10, "hp {hp}");
        }
        for hp in 6..=10 {
            assert_eq!(wound_modifier(hp, 50), -20, "hp {hp}");
        }
        for hp in -5..=5 {
            assert_eq!(wound_modifier(hp, 50), -30, "hp {hp}");
        }
    }

    #[test]
    fn wound_tiers_and_exception() {
        assert_eq!(wound_tier(21), 0);
        assert_eq!(wound_tier(20), 1);
        assert_eq!(wound_tier(11), 1);
        assert_eq!(wound_tier(10), 2);
        assert_eq!(wound_tier(6), 2);
        assert_eq!(wound_tier(5), 3);
        assert_eq!(wound_tier(0), 3);
        // Starting HP 8 (tier 2): no modifier until 5, then −30.
        assert_eq!(wound_modifier(8, 8), 0);
        assert_eq!(wound_modifier(6, 8), 0);
        assert_eq!(wound_modifier(5, 8), -30);
        // Starting HP 4: never a modifier.
        assert_eq!(wound_modifier(1, 4), 0);
    }

    #[test]
    fn wound_labels() {
        assert_eq!(wound_label(50, 50), "unhurt");
        assert_eq!(wound_label(49, 50), "wounded");
        assert_eq!(wound_label(25, 50), "wounded");
        assert_eq!(wound_label(24, 50), "bloodied");
        assert_eq!(wound_label(21, 50), "bloodied");
        assert_eq!(wound_label(20, 50), "badly wounded");
        assert_eq!(wound_label(10, 50), "very badly wounded");
        assert_eq!(wound_label(5, 50), "critically wounded");
        // Exception: starting HP 18 is not "badly wounded" at 15.
        assert_eq!(wound_label(18, 18), "unhurt");
        assert_eq!(wound_label(15, 18), "wounded");
        assert_eq!(wound_label(11, 18), "wounded");
        assert_eq!(wound_label(10, 18), "very badly wounded");
    }

    #[test]
    fn wounded_tmr_a7() {
        assert_eq!(wounded_tmr(30, -10, false), 20);
        assert_eq!(wounded_tmr(30, -30, false), 0);
        assert_eq!(wounded_tmr(20, -30, false), 0);
        assert_eq!(wounded_tmr(30, 0, false), 30);
        assert_eq!(wounded_tmr(30, -10, true), 27);
        assert_eq!(wounded_tmr(40, -30, true), 28);
        assert_eq!(wounded_tmr(40, 0, true), 40);
    }

    // --- SJ-E4, SJ-E5, SJ-R15 ---

    #[test]
    fn e4_cleric_timing() {
        let t = casting_time(SpellKind::Cleric { time: 5 }, 1);
        assert_eq!(t, 5);
        assert_eq!(spell_goes_off(8, t), Some(3));
        assert_eq!(spell_goes_off(3, t), Some(-2));
        assert_eq!(spell_goes_off(0, t), Some(-5));
        assert_eq!(spell_goes_off(-1, t), None);
        // A 1-round spell (15 segments, SJ-A12) only fits from initiative 10.
        assert_eq!(spell_goes_off(10, 15), Some(-5));
        assert_eq!(spell_goes_off(9, 15), None);
    }

    #[test]
    fn e5_mage_timing() {
        let t = casting_time(SpellKind::MageSpecific, 8);
        assert_eq!(t, 6);
        assert_eq!(spell_goes_off(9, t), Some(3));
        assert_eq!(spell_goes_off(2, t), Some(-4));
    }

    #[test]
    fn mage_table() {
        let printed = [
            (1, 5, 6, 7),
            (6, 10, 5, 6),
            (11, 15, 4, 5),
            (16, 20, 3, 4),
            (21, 21, 2, 3),
            (22, 22, 1, 2),
        ];
        for (low, high, gk, sk) in printed {
            for rank in low..=high {
                assert_eq!(mage_casting_time(rank, false), gk, "GK rank {rank}");
                assert_eq!(mage_casting_time(rank, true), sk, "SK rank {rank}");
                assert_eq!(casting_time(SpellKind::MageGeneral, rank), gk);
                assert_eq!(casting_time(SpellKind::MageSpecific, rank), sk);
            }
        }
        // SJ-A15: above 22 use row 22; below 1 treat as 1.
        assert_eq!(mage_casting_time(23, false), 1);
        assert_eq!(mage_casting_time(40, true), 2);
        assert_eq!(mage_casting_time(0, false), 6);
        assert_eq!(mage_casting_time(-3, true), 7);
    }

    // --- SJ-A1 ladder ---

    #[test]
    fn ladder_steps() {
        // DEX 15: 1× ≤ 15, 2× ≤ 30, 3× ≤ 45, 4× ≤ 60.
        assert_eq!(ladder(1, 15, 4), 1);
        assert_eq!(ladder(15, 15, 4), 1);
        assert_eq!(ladder(16, 15, 4), 2);
        assert_eq!(ladder(30, 15, 4), 2);
        assert_eq!(ladder(45, 15, 4), 3);
        assert_eq!(ladder(60, 15, 4), 4);
        assert_eq!(ladder(61, 15, 4), 5);
        assert_eq!(ladder(100, 15, 4), 5);
        assert_eq!(ladder(50, 0, 4), 5);
        assert_eq!(ladder(50, 10, 0), 1);
        assert_eq!(ladder(50, 10, u8::MAX), 5);
    }

    // --- SJ-E6, E7, E8, E10, E11, SJ-R17 ---

    #[test]
    fn e6_move_and_attack() {
        assert_eq!(attacks_move_attack(1), 1);
        assert_eq!(attacks_move_attack(2), 1);
        assert_eq!(attacks_move_attack(3), 2);
        assert_eq!(attacks_move_attack(4), 2);
        assert_eq!(attacks_move_attack(5), 3);
        assert_eq!(attacks_move_attack(0), 0);
    }

    #[test]
    fn e7_attack_then_move() {
        assert_eq!(attack_move_start(3, 4), None);
        assert_eq!(attack_move_start(8, 2), Some(6));
        assert_eq!(attack_move_start(12, 5), Some(10));
        assert_eq!(attack_move_start(11, 1), Some(10));
        assert_eq!(attack_move_start(10, 1), Some(9));
        assert_eq!(attack_move_start(10, 4), Some(6));
        assert_eq!(attack_move_start(10, 5), None);
        assert_eq!(attack_move_start(2, 1), Some(1));
        assert_eq!(attack_move_start(2, 2), None);
        assert_eq!(attack_move_start(1, 1), None);
        assert_eq!(attack_move_start(-3, 1), None);
        assert_eq!(attack_move_start(5, 0), None);
    }

    #[test]
    fn e8_run_and_attack() {
        assert_eq!(attacks_run_attack(1), 1);
        assert_eq!(attacks_run_attack(2), 1);
        assert_eq!(attacks_run_attack(3), 1);
        assert_eq!(attacks_run_attack(4), 2);
        assert_eq!(attacks_run_attack(5), 2);
        assert_eq!(attacks_run_attack(0), 0);
    }

    #[test]
    fn e10_e11_half_round_actions() {
        // Ready shield / drink potion: 3 attacks → 1, 1 → 0.
        assert_eq!(attacks_half_round(3), 1);
        assert_eq!(attacks_half_round(1), 0);
        assert_eq!(attacks_half_round(2), 1);
        assert_eq!(attacks_half_round(4), 2);
        assert_eq!(attacks_half_round(5), 2);
        assert_eq!(attacks_half_round(0), 0);
    }

    // --- SJ-E13, E14, E20, SJ-R19 ---

    #[test]
    fn e13_defending() {
        assert_eq!(defending_bonus(20), 10);
        assert_eq!(defending_bonus(25), 12);
        assert_eq!(defending_bonus(30), 15);
        assert_eq!(defending_bonus(0), 0);
        assert_eq!(max_sacrifice(4), 20);
        assert_eq!(max_sacrifice(0), 0);
    }

    #[test]
    fn e14_full_defense() {
        assert_eq!(full_defense_bonus(5), 18);
        assert_eq!(30 + full_defense_bonus(5), 48);
        assert_eq!(full_defense_bonus(4), 15);
        assert_eq!(full_defense_bonus(0), 5);
    }

    #[test]
    fn e20_desperate_defense() {
        assert_eq!(desperate_defense_bonus(5), 33);
        assert_eq!(30 + desperate_defense_bonus(5), 63);
        assert_eq!(desperate_defense_bonus(4), 30);
        assert_eq!(desperate_defense_bonus(1), 23);
    }

    // --- SJ-E21, SJ-R13 ---

    #[test]
    fn e21_surprise() {
        let def = surprise_def(41, 0, false);
        assert_eq!(def, 20);
        assert_eq!(90 + surprise_sc_bonus(false) - def, 80);
        assert_eq!(surprise_sc_bonus(true), 25);
        assert_eq!(surprise_def(41, 5, true), 5);
        assert_eq!(surprise_def(-5, 0, false), -3);
    }

    // --- SJ-E19, SJ-R14 ---

    #[test]
    fn e19_ambush() {
        assert_eq!(ambush_sc_bonus(1), 0);
        assert_eq!(ambush_sc_bonus(2), 0);
        assert_eq!(ambush_sc_bonus(3), 10);
        assert_eq!(ambush_sc_bonus(4), 20);
        assert_eq!(ambush_sc_bonus(5), 30);
        assert_eq!(ambush_sc_bonus(9), 30);
        for step in 1..=4 {
            assert_eq!(ambush_damage_bonus(step), 0);
        }
        assert_eq!(ambush_damage_bonus(5), 2);
        assert_eq!(ambush_attacks_allowed(1, 3), 3);
        assert_eq!(ambush_attacks_allowed(2, 3), 1);
        assert_eq!(ambush_attacks_allowed(2, 0), 0);
        assert_eq!(ambush_attacks_allowed(3, 3), 0);
        assert_eq!(ambush_attacks_allowed(5, 3), 0);
        // The scout's 1× warning: the ally's 3× becomes 2×.
        let ally = ambush_warned(3);
        assert_eq!(ally, 2);
        assert_eq!(ambush_sc_bonus(ally), 0);
        assert_eq!(ambush_attacks_allowed(ally, 2), 1);
        assert_eq!(ambush_warned(1), 1);
        assert_eq!(ambush_warned(5), 4);
    }

    // --- SJ-E12, SJ-R18 ---

    #[test]
    fn e12_multiple_attackers() {
        assert_eq!(multiple_attacker_bonus(1, 0, 5), 0);
        assert_eq!(multiple_attacker_bonus(2, 0, 5), 10);
        assert_eq!(multiple_attacker_bonus(3, 0, 5), 20);
        assert_eq!(multiple_attacker_bonus(3, 2, 5), 10);
        assert_eq!(multiple_attacker_bonus(3, 10, 5), 0);
    }

    #[test]
    fn invisible_foe() {
        assert_eq!(invisible_penalty(1), (-10, -5));
        assert_eq!(invisible_penalty(2), (-20, -10));
        assert_eq!(invisible_penalty(3), (-40, -20));
        assert_eq!(invisible_penalty(5), (-40, -20));
    }

    #[test]
    fn lighting() {
        assert_eq!(lighting_modifier(Lighting::Bright), 0);
        assert_eq!(lighting_modifier(Lighting::Starry), -10);
        assert_eq!(lighting_modifier(Lighting::Cloudy), -20);
        assert_eq!(lighting_modifier(Lighting::Cave), -40);
        assert_eq!(lighting_modifier(Lighting::PitchBlack), -60);
    }

    #[test]
    fn pick_up() {
        assert_eq!(pick_up_result(1), PickUp::RetrievedWithAttack);
        assert_eq!(pick_up_result(2), PickUp::Retrieved);
        assert_eq!(pick_up_result(4), PickUp::Retrieved);
        assert_eq!(pick_up_result(5), PickUp::NotRetrieved);
    }

    // --- SJ-R23 ranged ---

    #[test]
    fn ranged_modifier_tables() {
        assert_eq!(size_modifier(Size::Tiny), -10);
        assert_eq!(size_modifier(Size::Small), -5);
        assert_eq!(size_modifier(Size::Medium), 0);
        assert_eq!(size_modifier(Size::Large), 5);
        assert_eq!(size_modifier(Size::Giant), 10);
        assert_eq!(cover_modifier(Cover::None), 0);
        assert_eq!(cover_modifier(Cover::Soft), -10);
        assert_eq!(cover_modifier(Cover::Hard), -20);
        assert_eq!(target_movement_modifier(TargetPace::Stationary), 10);
        assert_eq!(target_movement_modifier(TargetPace::Walking), 0);
        assert_eq!(target_movement_modifier(TargetPace::Running), -10);
        assert_eq!(target_movement_modifier(TargetPace::Sprinting), -20);
        assert_eq!(target_movement_modifier(TargetPace::FastSprinting), -30);
        assert_eq!(target_movement_modifier(TargetPace::Dodging), -20);
        assert_eq!(target_movement_modifier(TargetPace::Mounted), -10);
    }

    #[test]
    fn keys_round_trip() {
        for c in [Cover::None, Cover::Soft, Cover::Hard] {
            assert_eq!(Cover::from_key(c.key()), Some(c));
        }
        assert_eq!(Cover::from_key("soft"), Some(Cover::Soft));
        assert_eq!(Cover::from_key("thick"), None);
        assert_eq!(Cover::default(), Cover::None);
        for p in TargetPace::ALL {
            assert_eq!(TargetPace::from_key(p.key()), Some(p));
        }
        assert_eq!(
            TargetPace::from_key("fast_sprinting"),
            Some(TargetPace::FastSprinting)
        );
        assert_eq!(TargetPace::from_key("flying"), None);
    }

    #[test]
    fn ranged_in_melee() {
        use Specialization::{Double, None as Plain, Specialist};
        assert_eq!(
            ranged_in_melee_penalty(RangedClass::HandCrossbow, Plain),
            -10
        );
        assert_eq!(
            ranged_in_melee_penalty(RangedClass::HandCrossbow, Specialist),
            -5
        );
        assert_eq!(
            ranged_in_melee_penalty(RangedClass::HandCrossbow, Double),
            0
        );
        assert_eq!(ranged_in_melee_penalty(RangedClass::Crossbow, Plain), -20);
        assert_eq!(
            ranged_in_melee_penalty(RangedClass::Crossbow, Specialist),
            -15
        );
        assert_eq!(ranged_in_melee_penalty(RangedClass::Crossbow, Double), -10);
        assert_eq!(ranged_in_melee_penalty(RangedClass::Bow, Plain), -30);
        assert_eq!(ranged_in_melee_penalty(RangedClass::Bow, Specialist), -20);
        assert_eq!(ranged_in_melee_penalty(RangedClass::Bow, Double), -10);
        assert_eq!(ranged_in_melee_penalty(RangedClass::Thrown, Plain), 0);
    }

    #[test]
    fn e17_stuck_missiles() {
        assert_eq!(stuck_effect(Missile::Arrow, false), (-2, 1));
        assert_eq!(stuck_effect(Missile::Javelin, false), (-3, 2));
        assert_eq!(stuck_effect(Missile::Spear, false), (-4, 5));
        assert_eq!(stuck_effect(Missile::Arrow, true), (-3, 1));
        assert_eq!(stuck_effect(Missile::Javelin, true), (-4, 2));
        assert_eq!(stuck_effect(Missile::Spear, true), (-5, 5));
    }

    #[test]
    fn shooting_into_melee_table() {
        assert_eq!(shoot_into_melee_threshold(1, 1, false), Some(30));
        assert_eq!(shoot_into_melee_threshold(1, 2, false), Some(20));
        assert_eq!(shoot_into_melee_threshold(1, 3, false), Some(10));
        assert_eq!(shoot_into_melee_threshold(2, 1, false), Some(40));
        assert_eq!(shoot_into_melee_threshold(3, 1, false), Some(50));
        assert_eq!(shoot_into_melee_threshold(3, 2, false), Some(45));
        // Printed rows win over the fallback (3F/2O would be 40 by the formula).
        assert_eq!(shoot_into_melee_threshold(3, 2, true), Some(45));
        // Missing combinations.
        assert_eq!(shoot_into_melee_threshold(2, 2, false), None);
        assert_eq!(shoot_into_melee_threshold(2, 2, true), Some(30));
        assert_eq!(shoot_into_melee_threshold(4, 1, true), Some(60));
        assert_eq!(shoot_into_melee_threshold(1, 4, true), Some(5));
        assert_eq!(shoot_into_melee_threshold(1, 9, true), Some(5));
        assert_eq!(shoot_into_melee_threshold(9, 1, true), Some(95));
        assert_eq!(shoot_into_melee_threshold(0, 1, true), None);
        assert_eq!(shoot_into_melee_threshold(1, 0, true), None);
    }

    #[test]
    fn shooting_into_melee_roll_parts() {
        assert_eq!(natural_friend_max(Specialization::None), 5);
        assert_eq!(natural_friend_max(Specialization::Specialist), 3);
        assert_eq!(natural_friend_max(Specialization::Double), 1);
        assert_eq!(shoot_into_melee_bonus(4, 0, Specialization::None), 4);
        assert_eq!(shoot_into_melee_bonus(4, 2, Specialization::Specialist), 13);
        assert_eq!(shoot_into_melee_bonus(4, 2, Specialization::Double), 18);
    }
}
