//! The state of a Legends of Celesia fight: each combatant's fixed [`Profile`] (scores, BAB,
//! DV parts, attack forms, feats) and its changing [`Fighter`] record (hit points, nonlethal
//! damage, initiative, acts and reactions left, flat-footed, conditions, crippling injuries), the
//! fixed initiative order, the GM's [`Options`], and what the pending request is about.

use crate::content::{Feats, Hands, Size, Weapon, WeaponKind};
use fray_core::{CombatantId, Occupancy, Pos, Roster, SideId, Standing};
use std::sync::Arc;

/// `floor((score − 10) / 2)`, the d20 ability modifier (CEL-A30).
#[inline]
pub fn modifier(score: i32) -> i32 {
    (score - 10).div_euclid(2)
}

/// `max(0, modifier)`: a "bonus" where only a positive value counts (spec §0).
pub fn bonus(score: i32) -> i32 {
    modifier(score).max(0)
}

/// Index of each ability in `scores`.
pub const STR: usize = 0;
/// DEX.
pub const DEX: usize = 1;
/// CON.
pub const CON: usize = 2;
/// INT.
pub const INT: usize = 3;
/// WIS.
pub const WIS: usize = 4;
/// CHA.
pub const CHA: usize = 5;

/// What does not change during a fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Profile {
    /// Character level or creature's level (0 for creatures).
    pub level: i32,
    /// Base attack bonus. [CEL-R4.3]
    pub bab: i32,
    /// Ability scores STR, DEX, CON, INT, WIS, CHA.
    pub scores: [i32; 6],
    /// Size.
    pub size: Size,
    /// Maximum hit points.
    pub max_hp: i32,
    /// DV bonuses besides DEX, size and a character's shield (armour, natural armour; a
    /// creature's shield from its bestiary entry).
    pub dv_bonus: i32,
    /// A character's shield (its entry's `shield`): its bonus counts while it is strapped on
    /// (`Fighter::shield`). [CEL-R9 Ready or Drop a Shield]
    pub shield: Option<crate::content::Shield>,
    /// Sneak attack d6s (a rogue's, by class and level; 0: none). [CEL-R12]
    pub sneak_dice: i32,
    /// Highest DEX bonus to DV (armour).
    pub max_dex: i32,
    /// Speed in feet.
    pub speed: i32,
    /// Fortitude save bonus (base save + CON modifier).
    pub fort: i32,
    /// Melee attack forms, the wielded weapon first.
    pub melee: Vec<Weapon>,
    /// A ranged weapon.
    pub ranged: Option<Weapon>,
    /// Feats and features.
    pub feats: Feats,
    /// Immune to critical hits.
    pub immune_crit: bool,
    /// Disable Device skill bonus (the GM's number; the seed has no skill tables). [CEL-R13]
    pub disable_device: i32,
    /// Spell resistance (0: none): a spell that allows it needs a caster level check of at
    /// least this number to affect it. [CEL-R9 Lower or Reactivate Spell Resistance]
    pub spell_resistance: i32,
    /// Ride skill bonus (the GM's number; the seed has no skill tables). [CEL-R21]
    pub ride: i32,
    /// Rides in a military saddle (75% to stay in it when knocked out). [CEL-R21.11]
    pub military_saddle: bool,
    /// A mount with combat training (without it, its rider must control it each round).
    /// [CEL-R21.1]
    pub combat_trained: bool,
    /// The key of the mount it starts on, as the encounter names it (the loader resolves it).
    pub mount_key: Option<String>,
    /// Legs, arms, eyes (crippling injuries).
    pub legs: i32,
    /// Arms.
    pub arms: i32,
    /// Heal skill bonus (the GM's number; the seed has no skill tables). [CEL-R17.7]
    pub heal: i32,
    /// Escape Artist skill bonus (the GM's number; the seed has no skill tables). [CEL-R9
    /// Escape a Grapple, R10.10 Tie Up]
    pub escape_artist: i32,
    /// Sleight of Hand skill bonus (the GM's number; the seed has no skill tables). [CEL-R11
    /// Sleight of Hand]
    pub sleight_of_hand: i32,
    /// Lore skill bonus (`lore`, the GM's number, default 0; the seed has no skill tables).
    /// [CEL-R9 Recall Knowledge]
    pub lore: i32,
    /// Perception skill bonus (`perception`, the GM's number, default 0). [CEL-R9 Search]
    pub perception: i32,
    /// The bestiary name of a monster (`monster = …`), what Recall Knowledge identifies it as;
    /// `None` for a character of a class. [CEL-R9 Recall Knowledge]
    pub bestiary: Option<String>,
    /// Handle Animal skill bonus (`handle_animal`, default its CHA modifier: Pathfinder's is a
    /// Charisma skill). [CEL-R9 Handle an Animal, R12 Push an Animal]
    pub handle_animal: i32,
    /// A class ability lets it handle its animal as a free action (`handle_free`), once a turn.
    /// [CEL-R9 Handle an Animal: "Some class abilities let characters attempt this as a free
    /// action"]
    pub handle_free: bool,
    /// A trained animal's handler, tricks and companionship (`handler`, `tricks`, `companion`).
    /// [CEL-R9 Handle an Animal, R12 Push an Animal]
    pub animal: Option<crate::rules::animal::Trained>,
    /// It is some trained animal's handler (its default tactics look at its animals). [CEL-R9]
    pub handles: bool,
    /// Items other than weapons it carries (`items`), one entry per item. [CEL-R11, R12]
    pub items: Vec<crate::rules::item::Gear>,
    /// Items stored in a container on its person (`stored`): each is retrieved (Manipulate an
    /// Item) before it is used. [CEL-R9]
    pub stored: Vec<crate::rules::item::Gear>,
    /// The names of its items at hand fastened to it (`fastened`: on a belt, a bandolier):
    /// +5 to its CMD against a steal of one. [CEL-R10.13]
    pub fastened: Vec<String>,
    /// Reflex and Will save bonuses (the GM's numbers, by default the DEX and WIS modifiers:
    /// the seed gives no save progression). [CEL-R6.2]
    pub reflex: i32,
    /// Will save bonus.
    pub will: i32,
    /// Its spells and how it casts them (none for most). [CEL-R6, R9–R14]
    pub magic: std::sync::Arc<Magic>,
    /// Its firearm ammunition is cartridges (encounter `cartridges = true`): a simple firearm
    /// loads one step faster. [CEL-R12, R13 Load a … Simple Firearm]
    pub cartridges: bool,
    /// What the GM says of it for the actions the seed leaves to the GM (Intimidate,
    /// Survival, a known maneuver or stance). [CEL-R9, R13, R16.5]
    pub gm_said: crate::rules::ruling::GmSaid,
    /// The stances, strikes and counters it knows (`stances`, `maneuvers`), as keys of
    /// `Content::maneuvers`. [CEL-R11, R14, R15, R16.5]
    pub initiator: Vec<String>,
    /// The same, as bits over `State::maneuver_book` (bit `i`: place `i`; 0: it knows none).
    pub known: u16,
}

impl Profile {
    /// The modifier of ability `ix` as the profile gives it (without spells' penalties: see
    /// `State::m`).
    #[inline]
    pub fn m(&self, ix: usize) -> i32 {
        modifier(self.scores[ix])
    }
    /// CON score (the dying thresholds, CEL-R17).
    #[inline]
    pub fn con(&self) -> i32 {
        self.scores[CON]
    }
    /// Total initiative modifier: DEX + Improved Initiative. [CEL-R1.1]
    pub fn initiative_modifier(&self) -> i32 {
        self.m(DEX) + if self.feats.improved_initiative { 4 } else { 0 }
    }
    /// Armed: a weapon or natural attack, or Improved Unarmed Strike. [CEL-R8.2, R8.3]
    pub fn armed(&self) -> bool {
        self.feats.improved_unarmed || self.melee.iter().any(|w| w.kind != WeaponKind::Unarmed)
    }
    /// Reactions gained at the end of a turn: 1, + bonus(DEX) with Combat Reflexes. [CEL-R3.3]
    pub fn reactions_per_round(&self) -> i32 {
        1 + if self.feats.combat_reflexes {
            bonus(self.scores[DEX])
        } else {
            0
        }
    }
    /// Longest melee reach in squares.
    pub fn reach_squares(&self) -> i32 {
        self.melee
            .iter()
            .map(|w| w.reach / fray_core::grid::SQUARE_FT)
            .max()
            .unwrap_or(1)
            .max(1)
    }
}

/// A body part that crippling injuries disable and then sever. [CEL-R18]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Part {
    /// How many the creature has.
    pub total: u8,
    /// Injured (not severed).
    pub injured: u8,
    /// Severed or destroyed.
    pub severed: u8,
}

impl Part {
    /// A part of which the creature has `total`.
    pub fn of(total: i32) -> Part {
        Part {
            total: total.clamp(0, 40) as u8,
            injured: 0,
            severed: 0,
        }
    }
    /// Lost the use of (injured or severed).
    pub fn lost(&self) -> u8 {
        self.injured + self.severed
    }
    /// Still usable.
    pub fn intact(&self) -> u8 {
        self.total.saturating_sub(self.lost())
    }
    /// A further injury is possible ("reroll if all … have been severed").
    pub fn available(&self) -> bool {
        self.severed < self.total
    }
    /// One more injury: an intact one is injured; when none is intact, an injured one is
    /// severed. True when one was severed.
    pub fn injure(&mut self) -> bool {
        if self.intact() > 0 {
            self.injured += 1;
            false
        } else {
            self.injured = self.injured.saturating_sub(1);
            self.severed += 1;
            true
        }
    }
}

/// Crippling injuries taken. [CEL-R18]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Injuries {
    /// Every injury taken (the CON-score cap counts them all, CEL-A41).
    pub count: u8,
    /// Scars.
    pub scars: u8,
    /// Major scars.
    pub major_scars: u8,
    /// Fingers (5 per arm).
    pub fingers: Part,
    /// Eyes (2).
    pub eyes: Part,
    /// Hands (1 per arm).
    pub hands: Part,
    /// Head injuries (at most 5).
    pub head: u8,
    /// Feet/legs.
    pub legs: Part,
    /// Arms.
    pub arms: Part,
}

/// One row of Table: Crippling Injuries. [CEL-R18]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Injury {
    /// 1–4: Scar, negates 5.
    Scar,
    /// 5–8: Major Scar, 10.
    MajorScar,
    /// 9–10: Finger Injury, 15.
    Finger,
    /// 11–12: Eye Injury, 20.
    Eye,
    /// 13–14: Hand Injury, 25.
    Hand,
    /// 15–16: Head Injury, 30.
    Head,
    /// 17–18: Foot/Leg Injury, 35.
    Leg,
    /// 19–20: Arm Injury, 40.
    Arm,
}

impl Injury {
    /// Every row, in table order.
    pub const ALL: [Injury; 8] = [
        Injury::Scar,
        Injury::MajorScar,
        Injury::Finger,
        Injury::Eye,
        Injury::Hand,
        Injury::Head,
        Injury::Leg,
        Injury::Arm,
    ];
    /// Word in choices.
    pub fn key(self) -> &'static str {
        match self {
            Injury::Scar => "scar",
            Injury::MajorScar => "major-scar",
            Injury::Finger => "finger",
            Injury::Eye => "eye",
            Injury::Hand => "hand",
            Injury::Head => "head",
            Injury::Leg => "leg",
            Injury::Arm => "arm",
        }
    }
    /// The table's name.
    pub fn name(self) -> &'static str {
        match self {
            Injury::Scar => "scar",
            Injury::MajorScar => "major scar",
            Injury::Finger => "finger injury",
            Injury::Eye => "eye injury",
            Injury::Hand => "hand injury",
            Injury::Head => "head injury",
            Injury::Leg => "foot/leg injury",
            Injury::Arm => "arm injury",
        }
    }
    /// Damage negated. [CEL-R18 table]
    pub fn negates(self) -> i32 {
        match self {
            Injury::Scar => 5,
            Injury::MajorScar => 10,
            Injury::Finger => 15,
            Injury::Eye => 20,
            Injury::Hand => 25,
            Injury::Head => 30,
            Injury::Leg => 35,
            Injury::Arm => 40,
        }
    }
    /// The row of a d20 result (1–20). [CEL-R18 table]
    pub fn of_roll(roll: i32) -> Injury {
        match roll {
            ..=4 => Injury::Scar,
            5..=8 => Injury::MajorScar,
            9..=10 => Injury::Finger,
            11..=12 => Injury::Eye,
            13..=14 => Injury::Hand,
            15..=16 => Injury::Head,
            17..=18 => Injury::Leg,
            _ => Injury::Arm,
        }
    }
    /// Parses a key.
    pub fn from_key(key: &str) -> Option<Injury> {
        let key = fray_core::catalog::name_key(key);
        Injury::ALL.into_iter().find(|i| i.key() == key)
    }
}

impl Injuries {
    /// The injuries of a creature with these limbs.
    pub fn of(legs: i32, arms: i32) -> Injuries {
        Injuries {
            fingers: Part::of(5 * arms),
            eyes: Part::of(2),
            hands: Part::of(arms),
            legs: Part::of(legs),
            arms: Part::of(arms),
            ..Injuries::default()
        }
    }
    /// Whether `injury` can still be taken (the table's "reroll" clauses, CEL-R18.6).
    pub fn available(&self, injury: Injury) -> bool {
        match injury {
            Injury::Scar | Injury::MajorScar => true,
            Injury::Finger => self.fingers.available(),
            Injury::Eye => self.eyes.available(),
            Injury::Hand => self.hands.available(),
            Injury::Head => self.head < 5,
            Injury::Leg => self.legs.available(),
            Injury::Arm => self.arms.available(),
        }
    }
    /// Takes `injury`; returns the bleed damage gained by a severing. [CEL-R18 table]
    pub fn take(&mut self, injury: Injury) -> i32 {
        self.count = self.count.saturating_add(1);
        match injury {
            Injury::Scar => self.scars += 1,
            Injury::MajorScar => self.major_scars += 1,
            Injury::Finger => {
                self.fingers.injure();
                // All the fingers of a hand lost: that hand is lost too.
                let hands_without_fingers = self.fingers.lost() / 5;
                if hands_without_fingers > self.hands.lost() && self.hands.intact() > 0 {
                    self.hands.injured += 1;
                }
            }
            Injury::Eye => {
                self.eyes.injure();
            }
            Injury::Hand => {
                if self.hands.injure() {
                    return 1;
                }
            }
            Injury::Head => self.head += 1,
            Injury::Leg => {
                if self.legs.injure() {
                    return 2;
                }
            }
            Injury::Arm => {
                if self.arms.injure() {
                    return 2;
                }
            }
        }
        0
    }
    /// Blind: every eye injured or destroyed.
    pub fn blind(&self) -> bool {
        self.eyes.total > 0 && self.eyes.intact() == 0
    }
    /// Melee attacks against it gain advantage (an arm injury).
    pub fn arm_hurt(&self) -> bool {
        self.arms.lost() > 0
    }
    /// The use of all its hands lost (hand injuries, or every arm injured): no spell with a
    /// somatic component (CEL-R18 Hand Injury). A creature without hands has none to lose.
    pub fn all_hands_lost(&self) -> bool {
        self.hands.total > 0 && self.hands.intact().min(self.arms.intact()) == 0
    }
    /// Cannot charge or run (a foot/leg injury).
    pub fn leg_hurt(&self) -> bool {
        self.legs.lost() > 0
    }
    /// Half speed: the use of half its legs lost.
    pub fn half_speed(&self) -> bool {
        self.legs.total > 0 && 2 * self.legs.lost() >= self.legs.total
    }
    /// No legs left: prone, crawl only.
    pub fn legless(&self) -> bool {
        self.legs.total > 0 && self.legs.intact() == 0
    }
    /// Permanently sickened (2+ head injuries).
    pub fn sickened(&self) -> bool {
        self.head >= 2
    }
    /// Permanently confused (3+ head injuries; `rules::confusion`).
    pub fn confused(&self) -> bool {
        self.head >= 3
    }
    /// Permanently staggered (4+ head injuries).
    pub fn staggered(&self) -> bool {
        self.head >= 4
    }
}

/// A special attack option. [CEL-R16]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Special {
    /// Power Attack: −k melee attack, +2k damage (×1.5 two-handed or primary natural, ×0.5
    /// secondary natural). STR 13, BAB +1. [CEL-R16.6]
    PowerAttack,
    /// Precision Strike: −k melee attack, +2k damage (×0.5 secondary natural). DEX 13, BAB +1.
    /// [CEL-R16.7]
    PrecisionStrike,
    /// Combat Expertise: −k melee attack, +3k dodge DV. INT 13; before the first melee attack
    /// of the turn. [CEL-R16.2]
    CombatExpertise,
    /// Reckless Offense: −k DV, +2k melee attack. BAB +1. [CEL-R16.9]
    RecklessOffense,
    /// Deadly Aim: −k ranged attack, +2k damage. DEX 13, BAB +1. [CEL-R16.3]
    DeadlyAim,
    /// Reckless Aim: −k DV, +2k ranged attack. [CEL-R16.8]
    RecklessAim,
    /// Lunge: +5 ft reach until the end of the turn, −2 DV until the start of the next.
    /// BAB +6; before any attack. [CEL-R16.4]
    Lunge,
    /// Martial Power: −m attack rolls, +2m temporary hit points (3m with a shield) until the
    /// start of the next turn. CON 13 and a known maneuver or stance; before the first melee
    /// attack of the turn. [CEL-R16.5]
    MartialPower,
}

impl Special {
    /// Every option.
    pub const ALL: [Special; 8] = [
        Special::PowerAttack,
        Special::PrecisionStrike,
        Special::CombatExpertise,
        Special::RecklessOffense,
        Special::DeadlyAim,
        Special::RecklessAim,
        Special::Lunge,
        Special::MartialPower,
    ];
    /// Words in choices.
    pub fn key(self) -> &'static str {
        match self {
            Special::PowerAttack => "power-attack",
            Special::PrecisionStrike => "precision-strike",
            Special::CombatExpertise => "combat-expertise",
            Special::RecklessOffense => "reckless-offense",
            Special::DeadlyAim => "deadly-aim",
            Special::RecklessAim => "reckless-aim",
            Special::Lunge => "lunge",
            Special::MartialPower => "martial-power",
        }
    }
    /// Parses a key.
    pub fn from_key(key: &str) -> Option<Special> {
        let key = fray_core::catalog::name_key(key);
        Special::ALL.into_iter().find(|s| s.key() == key)
    }
    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// The special attack options in use. [CEL-R16]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Specials(u8);

impl Specials {
    /// In use.
    pub fn has(self, s: Special) -> bool {
        self.0 & s.bit() != 0
    }
    /// Starts using one.
    pub fn add(&mut self, s: Special) {
        self.0 |= s.bit();
    }
    /// None in use.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// A caster's spells, caster level, spell DC and concentration bonus (the GM's numbers: the
/// seed names them, "The spell DC is 17", but gives no formula). [CEL-R6, R14, R21.9]
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Magic {
    /// Its spells, in the order the encounter lists them.
    pub spells: Vec<crate::spell::Spell>,
    /// Caster level.
    pub caster_level: i32,
    /// The DC of saves against its spells.
    pub spell_dc: i32,
    /// Concentration check bonus (casting defensively, casting on a moving mount).
    pub concentration: i32,
    /// Spell slots per day by spell level (index 1–9; level 0 is cast at will); `None`: no
    /// count kept (the encounter gives no `slots`). [CEL-R9, adopted reading]
    pub slots: Option<[u8; 10]>,
}

/// What changes during a fight.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Fighter {
    /// Side.
    pub side: SideId,
    /// Square. Change it only with [`State::set_square`].
    pub pos: Pos,
    /// Hit points.
    pub hp: i32,
    /// Nonlethal damage taken (with burn damage, CEL-R20).
    pub nonlethal: i32,
    /// Aware of its foes at the start. [CEL-R2.1]
    pub aware: bool,
    /// Initiative total, natural die and total modifier. [CEL-R1]
    pub initiative: i32,
    /// The natural initiative die.
    pub initiative_die: u32,
    /// Regular turns begun.
    pub turns: u32,
    /// Flat-footed. [CEL-R2.5]
    pub flat_footed: bool,
    /// Reactions left. [CEL-R3.3]
    pub reactions: i32,
    /// Acts left this turn. [CEL-R3.2]
    pub acts_left: i32,
    /// Attacks made this turn (for the GM's multiple-attack penalty, CEL-A13).
    pub attacks_this_turn: u8,
    /// Has declared a melee attack (melee, natural or unarmed) this turn: Combat Expertise and
    /// Martial Power are chosen only up to the first one. [CEL-R16.2, R16.5]
    pub melee_attacked: bool,
    /// Has taken an action (or a free action) this turn.
    pub acted: bool,
    /// Delaying its turn. [CEL-R1.7]
    pub delaying: bool,
    /// Prone.
    pub prone: bool,
    /// Stable (dying but no longer losing hit points). [CEL-R17.6]
    pub stable: bool,
    /// Dead. [CEL-R17.9]
    pub dead: bool,
    /// Gone from the fight on the GM's word (fled, surrendered, captured).
    pub gone: Option<Standing>,
    /// Charged: enemies have advantage against it until the start of its next turn. [CEL-R11]
    pub charged: bool,
    /// The foe its charge designated (advantage on melee attacks until the end of its turn).
    pub charge_target: Option<CombatantId>,
    /// Total Defense DV bonus until the start of its next turn. [CEL-R11]
    pub total_defense: i32,
    /// Its feints that worked, not yet spent on an attack. [CEL-R11 Feint]
    pub feints: Vec<crate::rules::feint::Feinted>,
    /// Fighting defensively: its +BAB DV lasts until the start of its next turn. [CEL-R14]
    pub defensive: bool,
    /// Fighting defensively this turn: disadvantage on its attack rolls until the turn ends,
    /// not on attacks of opportunity or readied attacks on others' turns (spec CEL-R14:
    /// "disadvantage on all attack rolls that turn"; seed: "fight defensively when
    /// attacking"). [CEL-R14]
    pub defensive_attacks: bool,
    /// The damage its melee attacks deal against their weapons' kind, until it says otherwise:
    /// `Some(true)` nonlethal, `Some(false)` lethal, `None` each weapon's own. [CEL-R20.5]
    pub deal_nonlethal: Option<bool>,
    /// Special attack options chosen, until the start of its next turn. [CEL-R16]
    pub specials: Specials,
    /// Crippling injuries. [CEL-R18]
    pub injuries: Injuries,
    /// Bleed damage each turn. [CEL-R18, CEL-G12]
    pub bleed: i32,
    /// Confused (three head injuries, or the GM's word), with this turn's behaviour.
    /// [CEL-R18, CEL-A34; `rules::confusion`]
    pub confusion: crate::rules::confusion::Confusion,
    /// Damage dealt to foes.
    pub dealt: i32,
    /// Damage taken.
    pub taken: i32,
    /// Ran in its last turn: no DEX bonus to DV until the start of its next turn. [CEL-R12 Run]
    pub running: bool,
    /// Rounds run in a row. [CEL-R12 Run]
    pub run_rounds: u16,
    /// Constitution checks made to keep running (the next DC is 10 + this). [CEL-R12 Run]
    pub run_checks: u16,
    /// Staggered from running until the start of its turn in this round (0: not). [CEL-R12 Run]
    pub fatigued_until: u32,
    /// Total concealment, on the GM's word (CEL-G11): a coup de grace takes 6 acts. [CEL-R12]
    pub concealed: bool,
    /// Invisible, on the GM's word: advantage on its attacks against sighted foes, disadvantage
    /// on checks to grapple it, total concealment, its moves shown to its own side only.
    /// [CEL-R4.5 rows 8, 11; CEL-A28, A34]
    pub invisible: bool,
    /// The sides (bit `SideId`) that identified it by Recall Knowledge: known, it stays known.
    /// [CEL-R9 Recall Knowledge]
    pub known_to: u32,
    /// A trained animal's last successful command, standing until another replaces it or its
    /// trick is done. [CEL-R9 Handle an Animal, R12 Push an Animal]
    pub command: Option<crate::rules::animal::Command>,
    /// Tied up: the ropes pin it until it escapes them (this DC, 20 + the binder's CMB).
    /// [CEL-R10.10 Tie Up]
    pub tied: Option<i32>,
    /// Ropes it has at hand to tie a grappled foe up with. [CEL-R10.10 Tie Up]
    pub ropes: u8,
    /// The items it carries: (place in `State::gear_book`, uses left). [CEL-R11, R12]
    pub gear: Vec<(u8, u8)>,
    /// The items stored in a container on its person, the same way: retrieved to hand
    /// (Manipulate an Item) before use. [CEL-R9]
    pub packed: Vec<(u8, u8)>,
    /// The kinds of its items at hand fastened to it (places in `State::gear_book`): +5 to its
    /// CMD against a steal of one. [CEL-R10.13]
    pub fastened: Vec<u8>,
    /// Its locked gauntlet and the weapon locked in it (`locked_gauntlet`). [CEL-R11 Lock or
    /// Unlock a Weapon in a Locked Gauntlet]
    pub gauntlet: crate::rules::gauntlet::Gauntlet,
    /// Entangled by a net until it escapes it (Escape from a Net): disadvantage on its attack
    /// rolls (CEL-R4.5 row 7). [CEL-R11]
    pub netted: bool,
    /// On fire, on the GM's word (the seed has no rule for catching fire): it burns at the
    /// start of each of its turns until a save puts the fire out (`rules::fire`). [CEL-R11
    /// Extinguish Flames]
    pub on_fire: bool,
    /// Unconscious from a nonlethal coup de grace's failed Fortitude save, until healed.
    /// [CEL-R12]
    pub out_cold: bool,
    /// Where its shield is (for a character with one: `Profile::shield`). [CEL-R9]
    pub shield: crate::rules::shield::ShieldAt,
    /// The shield bonus to DV it has now: its shield's while strapped on, else 0. [CEL-R9]
    pub shield_dv: i32,
    /// Its spell resistance is lowered (Lower or Reactivate Spell Resistance), until it
    /// reactivates it. [CEL-R9]
    pub sr_lowered: bool,
    /// The complex action in progress, with its acts committed so far. [CEL-R3.8, R13]
    pub task: Option<Task>,
    /// Acts of its turns gone by, spent or left unspent: consecutiveness is judged on it.
    /// [CEL-R3.1]
    pub act_clock: u32,
    /// Advantage-table conditions with their cause (a dirty trick, a spell, Demoralize), each
    /// until the start of its giver's turn. [CEL-R10.7, R6.2, R9, A39]
    pub tricks: fray_core::conditions::Conditions<Caused>,
    /// The table's conditions with no cause in the seed (cowering, stunned …), the GM's.
    /// [CEL-R4.5, G13]
    pub table_conditions: crate::rules::table_condition::TableConditions,
    /// Taking a reaction now (a readied action, freeing itself from a hazard): its skill
    /// checks are made as reactions (a fascinated creature's have disadvantage). [CEL-R4.5
    /// row 8; R3.9, R10.10]
    pub reacting: bool,
    /// Extra reach of its own attacks until the end of its turn (Lunge, CEL-R16.4), in feet.
    pub reach_bonus: i32,
    /// Items it has dropped (a disarm, CEL-R10.3): bit `i` for melee form `i`.
    pub dropped: u64,
    /// Its ranged weapon is dropped. [CEL-R10.3]
    pub dropped_ranged: bool,
    /// Weakened Attack declared for its next attack: −n attack, −2n damage. [CEL-R16.11]
    pub weakened: u8,
    /// The foe its last melee attack action (or cleave) hit this turn, and the form, while a
    /// cleave may follow it. [CEL-R16.1]
    pub cleave_from: Option<(CombatantId, u8)>,
    /// Foes attacked in this attack action and its cleaves (none twice). [CEL-R16.1]
    pub cleave_chain: Vec<CombatantId>,
    /// The round of its last cleave (one per round). [CEL-R16.1]
    pub cleave_round: Option<u32>,
    /// Cleaved: every foe has advantage against it until the start of its next turn.
    /// [CEL-R16.1]
    pub cleaving: bool,
    /// Aid Another it has been given, not yet used. [CEL-R9, R6.4]
    pub aids: Vec<Aid>,
    /// Aid Another on its skill checks, not yet used. [CEL-R9, R6.4]
    pub skill_aids: Vec<crate::rules::aid_check::SkillAid>,
    /// The grapple it started and holds (the initiator's side of it). [CEL-R10.9]
    pub hold: Option<Hold>,
    /// The grappler holding it. [CEL-R10.9]
    pub held_by: Option<CombatantId>,
    /// Has taken Grapple, Continued this turn. [CEL-R10.10]
    pub maintained: bool,
    /// Escape a Grapple attempts this turn (the 2nd at −5, the 3rd and later at −10). [CEL-R9]
    pub escapes: u8,
    /// Where the weapons it dropped lie (a disarm, CEL-R10.3), to be picked up (CEL-R9
    /// Manipulate an Item).
    pub on_ground: Vec<(Item, Pos)>,
    /// Its items (not weapons) a disarm made it drop: (place in `State::gear_book`, uses left,
    /// where it lies), to be picked up (CEL-R10.3, CEL-R9 Manipulate an Item).
    pub gear_on_ground: Vec<(u8, u8, Pos)>,
    /// Where the ropes a disarm made it drop lie, one square a rope (CEL-R10.3, R10.10).
    pub ropes_on_ground: Vec<Pos>,
    /// Where its thrown weapons (counted with `ammo`) lie, one square a weapon, to be picked up
    /// (CEL-R7.3, CEL-R9 Manipulate an Item; `rules::ammo`).
    pub thrown: Vec<Pos>,
    /// Where the thrown weapon in flight now lands (`rules::ammo::fly`).
    pub flight: Option<Pos>,
    /// Hit points its items have lost to sunders. [CEL-R10.5]
    pub item_damage: Vec<(Item, i32)>,
    /// The mount it rides. [CEL-R21]
    pub riding: Option<CombatantId>,
    /// The rider on it (a mount). [CEL-R21]
    pub rider: Option<CombatantId>,
    /// Feet it has moved since its turn began. [CEL-R21.6, R21.8]
    pub moved_ft: i32,
    /// A mount that lost its rider: it avoids combat. [CEL-R21.11]
    pub riderless: bool,
    /// Shooting along its mount's move: a mount's increments this turn, a rider's shots.
    /// [CEL-R21.8]
    pub saddle: crate::rules::mounted::Saddle,
    /// Knocked out in the saddle and its 50% (75%) roll to stay in it made. [CEL-R21.11]
    pub saddle_checked: bool,
    /// This round's Ride check to control a frightened mount: passed or failed. [CEL-R21.1]
    pub control: Option<bool>,
    /// Its mount charged this foe just before its turn. [CEL-R21.7]
    pub mount_charge: Option<CombatantId>,
    /// This turn's Ride check to guide its mount with the knees: passed or failed. [CEL-R21.4]
    pub knees: Option<bool>,
    /// Its light or one-handed melee weapon held in both hands (`rules::grip`). [CEL-R5.1]
    pub grip: bool,
    /// The action it readied and its trigger, until the start of its next turn. [CEL-R3.9]
    pub readied: Option<(crate::rules::ready::Trigger, crate::rules::ready::Readied)>,
    /// Steady Aim acts spent in a row for its next ranged attack. [CEL-R9]
    pub aim_acts: u16,
    /// Its `act_clock` right after its last Steady Aim act. [CEL-R9]
    pub aim_clock: u32,
    /// Weakened Attack (a) declared for its next attack: −n ability damage bonus. [CEL-R16.11]
    pub weaken_ability: u8,
    /// Weakened Attack (b) declared for its next attack: n degree dice fewer. [CEL-R16.11]
    pub weaken_degrees: u8,
    /// The bull rush it may move along with (CEL-R10.2), until it acts again.
    pub follow: Option<Follow>,
    /// The step chosen below BAB's for each special attack in use, by `Special` order (0: BAB's
    /// own). [CEL-A20 `scaling_choose_lower`]
    pub special_steps: [u8; 8],
    /// Its encounter entry says what it holds (`in_hand`): weapons not in hand are sheathed
    /// and must be drawn. [CEL-R9 Draw or Sheathe]
    pub hands_tracked: bool,
    /// Melee forms put away (bit n: form n), while its hands are tracked. [CEL-R9]
    pub sheathed: u64,
    /// Its ranged weapon put away, while its hands are tracked. [CEL-R9]
    pub ranged_sheathed: bool,
    /// Its turn count and act clock right after its last Move, while no act has followed it
    /// and no weapon has been drawn with it (BAB +1: a free draw with the Move). [CEL-R9]
    pub move_at: Option<(u32, u32)>,
    /// Its turn count and act clock right after its last Charge, while no act has followed it
    /// and no weapon has been drawn during it (BAB +1: "you can draw a weapon as a free action
    /// at any point during the charge"). [CEL-R11 Charge]
    pub charge_at: Option<(u32, u32)>,
    /// Burn damage taken: like nonlethal damage, counted with it for staggered and
    /// unconscious, and healed only by a full night's rest. [CEL-R20.7]
    pub burn: i32,
    /// The 1-round action it is performing, until it completes. [CEL-R3.7]
    pub one_round: Option<crate::rules::one_round::OneRound>,
    /// Free actions taken this turn (counted against `free_actions_per_turn`). [CEL-G2]
    pub free_actions: u8,
    /// This turn's Spell Combat and spells, and the Spell Combat attack under way.
    /// [CEL-R9 Spell Combat, R11 Spellstrike]
    pub magus: crate::rules::magus::MagusTurn,
    /// The GM's adjustment to its DV (`cond WHO dv+N`): cover, or any ruling. [CEL-G11, G13]
    pub gm_dv: i32,
    /// The GM's adjustment to the DC of its saves and checks (`cond WHO dc+N`). [CEL-G13]
    pub gm_dc: i32,
    /// Temporary hit points (Martial Power's, until the start of its next turn), lost before
    /// hit points. [CEL-R16.5]
    pub temp_hp: i32,
    /// The acts its next Find Tracks needs, once the GM has ruled after a lost trail (0: the
    /// `find_tracks_acts` option's). [CEL-R13, CEL-G3]
    pub tracks_acts: u8,
    /// Hasted by this caster until the start of the caster's turn in this round. [CEL-R3.4,
    /// A39]
    pub haste: Option<(CombatantId, u32)>,
    /// Ability penalties, one entry per ability and source: a spell's until the start of its
    /// caster's turn, a lasting one (the entry's, the GM's) for the fight; they stack
    /// (`spell::penalty_to`). [CEL-R6.2, E5–E7]
    pub drained: fray_core::conditions::Conditions<crate::spell::Penalized>,
    /// Spell slots spent today, by spell level. [CEL-R9, adopted reading]
    pub slots_spent: [u8; 10],
    /// Its dismissible and concentration spells' lasting effects, one per creature each
    /// affects (`rules::spell_lasting`; stale ones are dropped as they are looked at). [CEL-R9
    /// Dismiss a Spell, R11 Concentrate to Maintain an Active Spell, R14 Cease Concentrating]
    pub lasting: Vec<crate::rules::spell_lasting::Lasting>,
    /// Its spell's weapon and the target it attacks (`rules::spell_weapon`). [CEL-R9 Direct or
    /// Redirect a Spell]
    pub spell_weapon: Option<crate::rules::spell_weapon::Guided>,
    /// Ammunition (or thrown weapons) left for its ranged weapon; `None`: not counted (its
    /// entry gives no `ammo`). [CEL-R9 Draw or Sheathe: drawing ammunition]
    pub ammo: Option<u16>,
    /// Barrels, cartridges or bolts loaded in its ranged weapon (a weapon with `load`).
    /// [CEL-R9–R13 Load]
    pub loaded: u8,
    /// Cartridges loaded as free actions (Rapid Reload) this turn: at most 3. [CEL-R9]
    pub free_loads: u8,
    /// Its flask of oil is prepared with a fuse and may be thrown. [CEL-R11]
    pub prepared: bool,
    /// The turn count of its last Multiweapon Fighting action (once per turn). [CEL-R9]
    pub multiweapon_turn: Option<u32>,
    /// The turn count of its last Handle an Animal taken as a free action (`handle_free`: once
    /// a turn). [CEL-R9]
    pub free_handle_turn: Option<u32>,
    /// The attack being made is a Multiweapon Fighting one: its penalty, and whether it is an
    /// off-hand attack (half the positive STR and DEX on damage). [CEL-R9, R5.1]
    pub hand: Option<(i32, bool)>,
    /// Its active stance (a place in `State::maneuver_book`). [CEL-R14 Initiate or Change
    /// Stance]
    pub stance: Option<u8>,
    /// The turn (its `turns` count) it last initiated or changed its stance in: once per turn.
    /// [CEL-R14]
    pub stance_turn: Option<u32>,
    /// Uses spent of each strike and counter, by place in `State::maneuver_book`: one used up is
    /// no longer readied. [CEL-R11, R15]
    pub maneuvers_spent: [u8; crate::initiator::MAX_BOOK],
    /// The strike being made now (its attack roll and damage read it). [CEL-R11, R12]
    pub striking: Option<u8>,
    /// Its boosts in effect, as bits over `State::maneuver_book` (their modifiers read by
    /// attack, damage and DV; ended at their `until`). [CEL-R9 Initiate Boost]
    pub boosted: u16,
    /// In a stance, making a strike or boosted: whether attack rolls, damage and DV read the
    /// initiator's modifiers (one look for everyone else; kept by `rules::stance::refresh`).
    /// [CEL-R9, R11, R12, R14]
    pub maneuvering: bool,
    /// A counter's DV bonus against the next attack of this foe (the attack that triggered it),
    /// until that attack or the start of its next turn. [CEL-R15 Counter]
    pub countering: Option<(CombatantId, i32)>,
}

/// A fighter's record copied (the simulator copies the whole state for every fight): its lists
/// are copied only when they hold something, an empty one is a new empty list without asking
/// the allocator (issue 16: fourteen lists a fighter, nearly all empty, cost 2% of the bench).
/// Every other field is `Copy` and copied as it is (`..*self`): a field that is not must be
/// listed here, and the compiler says so.
impl Clone for Fighter {
    fn clone(&self) -> Self {
        Fighter {
            feints: copy_list(&self.feints),
            gear: copy_list(&self.gear),
            packed: copy_list(&self.packed),
            fastened: copy_list(&self.fastened),
            tricks: self.tricks.clone(),
            cleave_chain: copy_list(&self.cleave_chain),
            aids: copy_list(&self.aids),
            skill_aids: copy_list(&self.skill_aids),
            on_ground: copy_list(&self.on_ground),
            gear_on_ground: copy_list(&self.gear_on_ground),
            ropes_on_ground: copy_list(&self.ropes_on_ground),
            thrown: copy_list(&self.thrown),
            item_damage: copy_list(&self.item_damage),
            drained: self.drained.clone(),
            lasting: copy_list(&self.lasting),
            ..*self
        }
    }
}

/// A copy of `list`: a new empty list when it is empty ([`Fighter`]'s `clone`).
#[inline]
fn copy_list<T: Clone>(list: &[T]) -> Vec<T> {
    if list.is_empty() {
        Vec::new()
    } else {
        list.to_vec()
    }
}

/// A grapple held by its initiator. [CEL-R10.9–R10.11]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hold {
    /// The creature grappled.
    pub target: CombatantId,
    /// It is pinned. [CEL-R10.10 Pin]
    pub pinned: bool,
    /// It is in a chokehold. [CEL-R10.11]
    pub choke: bool,
}

/// What a grappler does with a successful Grapple, Continued. [CEL-R10.10, R10.11]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HoldUse {
    /// Pin the target.
    Pin,
    /// Pin the target and try a chokehold (a second check without the +5). [CEL-R10.11]
    Choke,
    /// Deal the damage of the numbered melee form (unarmed, natural, light or one-handed),
    /// lethal or (`true`) nonlethal.
    Damage(u8, bool),
    /// Take a Move simple action (1 more act) to this square, carrying the target, which is put
    /// in a square next to the grappler.
    Move(Pos),
    /// The same Move to the first square, then the target placed on the second, a space next to
    /// the grappler's (a hazardous one lets it try to free itself at +4). [CEL-R10.10 Move]
    Place(Pos, Pos),
    /// Tie the foe up with a rope in hand: the check at −10 instead of +5 (CEL-A33); success:
    /// the ropes pin it. [CEL-R10.10 Tie Up]
    Tie,
}

/// Aid Another given to a combatant: a bonus on its next attack roll against `foe`, or to its
/// DV against `foe`'s next attack, until the start of the aider's next turn. [CEL-R9, R6.4]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Aid {
    /// Who gave it.
    pub aider: CombatantId,
    /// Against whom.
    pub foe: CombatantId,
    /// What it goes on: an attack roll, DV, a save or touch DV against the foe's spell.
    pub to: crate::rules::aid::AidTo,
    /// The bonus (a penalty when negative, CEL-A17).
    pub amount: i32,
}

/// A bull rush's push that its attacker may move along with (CEL-R10.2): the direction and
/// squares the foe was pushed, and the attacker's act clock and turn right after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Follow {
    /// The push's direction.
    pub dir: fray_core::Direction,
    /// Squares pushed.
    pub squares: u8,
    /// The attacker's `act_clock` right after the bull rush.
    pub clock: u32,
    /// The attacker's `turns` then.
    pub turn: u32,
}

/// An item a disarm makes a foe drop: the numbered melee form or the ranged weapon.
/// [CEL-R10.3]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// Melee form `n` (a manufactured weapon).
    Melee(u8),
    /// The ranged weapon.
    Ranged,
}

impl Item {
    /// Its key in a choice: the form number or `ranged`.
    pub fn key(self) -> String {
        match self {
            Item::Melee(i) => i.to_string(),
            Item::Ranged => "ranged".into(),
        }
    }
}

/// A condition a dirty trick gives (CEL-R10.7), with what it does in a fight: the advantage
/// table's rows (CEL-R4.5). Timed by `fray_core::conditions` (CEL-A39).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Trick {
    /// Attack rolls against it have advantage (row 3).
    Blinded,
    /// Disadvantage on its attack rolls (row 5).
    Dazzled,
    /// Disadvantage on initiative and opposed Perception (row 6): nothing once initiative is
    /// rolled.
    Deafened,
    /// Disadvantage on its attack rolls (row 7).
    Entangled,
    /// Disadvantage on its attack rolls, saves and checks (row 15).
    Shaken,
    /// Disadvantage on its attack rolls, saves and checks (row 16).
    Sickened,
}

impl Trick {
    /// Every one, in the seed's order.
    pub const ALL: [Trick; 6] = [
        Trick::Blinded,
        Trick::Dazzled,
        Trick::Deafened,
        Trick::Entangled,
        Trick::Shaken,
        Trick::Sickened,
    ];
    /// Parses a key.
    pub fn from_key(key: &str) -> Option<Trick> {
        use fray_core::conditions::ConditionKind;
        let key = fray_core::catalog::name_key(key);
        Trick::ALL.into_iter().find(|t| t.key() == key)
    }
    /// Its disadvantage on the bearer's attack rolls, named as the source.
    pub fn attack_disadvantage(self) -> Option<&'static str> {
        match self {
            Trick::Dazzled => Some("dazzled"),
            Trick::Entangled => Some("entangled"),
            Trick::Shaken => Some("shaken"),
            Trick::Sickened => Some("sickened"),
            Trick::Blinded | Trick::Deafened => None,
        }
    }
}

impl fray_core::conditions::ConditionKind for Trick {
    fn bit(self) -> u32 {
        self as u32
    }
    fn key(self) -> &'static str {
        match self {
            Trick::Blinded => "blinded",
            Trick::Dazzled => "dazzled",
            Trick::Deafened => "deafened",
            Trick::Entangled => "entangled",
            Trick::Shaken => "shaken",
            Trick::Sickened => "sickened",
        }
    }
    fn rule(self) -> &'static str {
        "CEL-R10.7"
    }
}

/// What gave a timed advantage-table condition: it names the rule of the condition's end, and
/// only a dirty trick's can be cleared with an act (CEL-R10.7: "a condition applied by a dirty
/// trick").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cause {
    /// A dirty trick. [CEL-R10.7]
    DirtyTrick,
    /// A spell's effect on a failed save. [CEL-R6.2]
    Spell,
    /// Demoralize (Intimidate), the GM's effect. [CEL-R9]
    Demoralize,
    /// A strike maneuver's hit. [CEL-R11 Initiate Standard Strike]
    Strike,
    /// The GM, in the encounter or mid-fight, until the GM ends it. [CEL-G13]
    Gm,
}

impl Cause {
    /// The rule the condition comes from.
    pub fn rule(self) -> &'static str {
        match self {
            Cause::DirtyTrick => "CEL-R10.7",
            Cause::Spell => "CEL-R6.2",
            Cause::Demoralize => "CEL-R9",
            Cause::Strike => "CEL-R11",
            Cause::Gm => "CEL-G13",
        }
    }
}

/// A condition of the advantage table with its cause: the same condition from two causes is
/// two entries, each timed and ended on its own. [CEL-R10.7, R6.2, R9]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Caused {
    /// The condition.
    pub trick: Trick,
    /// What gave it.
    pub cause: Cause,
}

impl Caused {
    /// `trick` given by a dirty trick. [CEL-R10.7]
    pub fn dirty_trick(trick: Trick) -> Caused {
        Caused {
            trick,
            cause: Cause::DirtyTrick,
        }
    }

    /// `trick` set by the GM, in the encounter or mid-fight. [CEL-G13]
    pub fn gm(trick: Trick) -> Caused {
        Caused {
            trick,
            cause: Cause::Gm,
        }
    }

    /// Every cause of `trick` (for a presence test that ignores the cause).
    fn each(trick: Trick) -> [Caused; 5] {
        [
            Cause::DirtyTrick,
            Cause::Spell,
            Cause::Demoralize,
            Cause::Strike,
            Cause::Gm,
        ]
        .map(|cause| Caused { trick, cause })
    }
}

impl fray_core::conditions::ConditionKind for Caused {
    fn bit(self) -> u32 {
        self.cause as u32 * Trick::ALL.len() as u32 + self.trick as u32
    }
    fn key(self) -> &'static str {
        fray_core::conditions::ConditionKind::key(self.trick)
    }
    fn rule(self) -> &'static str {
        self.cause.rule()
    }
}

impl Fighter {
    /// Has `trick`, whatever gave it. [CEL-R4.5]
    #[inline]
    pub fn has_trick(&self, trick: Trick) -> bool {
        !self.tricks.is_empty() && Caused::each(trick).iter().any(|&c| self.tricks.has(c))
    }

    /// Its advantage-table conditions, each once whatever its causes, in the seed's order.
    /// None without a look at each kind when it has no condition at all (the usual case:
    /// every attack and check asks, issue 16).
    pub fn trick_kinds(&self) -> impl Iterator<Item = Trick> + '_ {
        let kinds = if self.tricks.is_empty() {
            &Trick::ALL[..0]
        } else {
            &Trick::ALL[..]
        };
        kinds.iter().copied().filter(|&t| self.has_trick(t))
    }
}

/// What a complex action is for. [CEL-R3.8, R12, R13]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskKind {
    /// A coup de grace against a foe with total concealment (6 acts), with this melee form,
    /// nonlethal (`true`) or lethal.
    CoupDeGrace(CombatantId, u8, bool),
    /// Disable Device on the numbered device.
    Disable(u8),
    /// Find Tracks (at least 3 consecutive acts, more as the GM rules). [CEL-R13, CEL-G3]
    FindTracks,
    /// Manipulate an Item the GM rules complex: picking up this item. [CEL-R9, CEL-G3]
    PickUp(Item),
    /// Manipulate an Item the GM rules complex: picking up its dropped shield. [CEL-R9,
    /// CEL-G3]
    PickUpShield,
    /// Manipulate an Item the GM rules complex: picking up its dropped item (its place in
    /// `State::gear_book`). [CEL-R9, CEL-G3]
    PickUpGear(u8),
    /// Manipulate an Item the GM rules complex: picking up a rope it dropped. [CEL-R9,
    /// CEL-G3]
    PickUpRope,
    /// Manipulate an Item the GM rules complex: retrieving this stored item (its place in
    /// `State::gear_book`). [CEL-R9, CEL-G3]
    Retrieve(u8),
    /// Manipulate an Item the GM rules complex: removing this creature's ropes. [CEL-R9,
    /// R10.10, CEL-G3]
    Untie(CombatantId),
}

/// A complex action in progress: acts committed so far, out of those it needs. [CEL-R3.8]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Task {
    /// The action.
    pub kind: TaskKind,
    /// Acts committed.
    pub done: u8,
    /// Acts it needs.
    pub needed: u8,
    /// The acts must be consecutive (any other act, or acts left unspent, start it over).
    pub consecutive: bool,
    /// The committer's `act_clock` after the last act committed.
    pub clock: u32,
}

/// A device on the battlefield that Disable Device works on (CEL-R13, CEL-G3: the GM sets
/// its acts and whether they must be consecutive).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Device {
    /// Key in choices (`disable KEY`).
    pub key: String,
    /// Name in the log.
    pub name: String,
    /// Its square; a worker stands on it or next to it.
    pub pos: Pos,
    /// Acts to disable it.
    pub acts: u8,
    /// Whether the acts must be consecutive.
    pub consecutive: bool,
    /// The Disable Device check's DC when the acts are in, if the GM calls for one.
    pub dc: Option<i32>,
}

impl Fighter {
    /// Dead or gone.
    #[inline]
    pub fn absent(&self) -> bool {
        self.dead || self.gone.is_some()
    }
}

/// The GM's toggles and numbers (CEL-G8 and the rest of spec §5 that the engine reads).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Options {
    /// Flat-footed lasts until the first *regular* turn (CEL-A4, default on).
    pub flatfooted_until_regular_turn: bool,
    /// Ranged attacks provoke (CEL-A38, default off).
    pub ranged_attack_provokes: bool,
    /// A critical threat must be confirmed by a second attack roll (CEL-A3, default off).
    pub crit_confirmation: bool,
    /// The GM plays the Critical Hit Deck: asked after each critical hit whether the card
    /// drawn says the attack deals normal damage (CEL-G6, default off; `rules::crit_deck`).
    pub crit_deck: bool,
    /// Penalty per full range increment beyond the first (CEL-A2, default −2).
    pub range_penalty: i32,
    /// Penalty to the 1st, 2nd and 3rd+ attack of a turn (CEL-A13, default 0, 0, 0).
    pub multiple_attack_penalty: [i32; 3],
    /// Voluntary crippling injuries are offered (CEL-R18.1, default on).
    pub crippling_injuries: bool,
    /// Massive damage is judged on the damage before an injury negates any (CEL-A24, default on).
    pub massive_before_negation: bool,
    /// Unarmed strikes add only STR to damage (CEL-A15 toggle, default off: STR + DEX).
    pub unarmed_str_only: bool,
    /// A lethal unarmed strike takes −4 instead of disadvantage (CEL-A6, G8; default off).
    pub lethal_unarmed_minus_4: bool,
    /// Least damage a hit deals (Pathfinder's 1; see docs/celesia.md).
    pub minimum_damage: i32,
    /// A special attack's step may be chosen below the one BAB gives (CEL-A20 toggle, default
    /// off: the step is fixed by BAB).
    pub scaling_choose_lower: bool,
    /// Free actions a combatant may take in a turn (CEL-G2; default none: "as many free
    /// actions in a turn as you wish").
    pub free_actions_per_turn: Option<u8>,
    /// The free actions (by their [`crate::choice::Choice::free_action`] word) the GM deems
    /// strenuous: each costs a disabled creature 1 hit point, as an act does (CEL-G4, CEL-R17.2;
    /// default none).
    pub strenuous_free_actions: Vec<&'static str>,
    /// The base of CMD (CEL-A7, G7; default 10).
    pub cmd_base: i32,
    /// Flanking gives advantage (CEL-A35, G7; default on, Pathfinder's opposite sides).
    pub flanking: bool,
    /// Bleeding comes at the end of the bleeder's turn instead of its start (CEL-G12; default
    /// off: the start of its turn).
    pub bleed_at_turn_end: bool,
    /// Weakened Attack's step gives +1 to the attack roll instead of −1 (CEL-A10 toggle, G8;
    /// default off: the seed's literal −1).
    pub weakened_attack_inverted: bool,
    /// Range increments a missed splash weapon flies on past the one its target is in, up to
    /// its maximum range (CEL-R7.3 names splash weapons an exception without saying how far
    /// they fly; default 4, the firearms' number; 0: like any thrown weapon).
    pub splash_stray_increments: i32,
    /// With the Multiweapon Fighting feat, the action may be taken more than once a turn (the
    /// seed's "and meet certain requirements" are the GM's to judge; default off).
    pub multiweapon_repeat: bool,
    /// Acts Find Tracks takes, consecutive (CEL-R13 "at least 3 consecutive acts and may take
    /// more, as determined by the GM", CEL-G3; default 3).
    pub find_tracks_acts: u8,
    /// Acts picking up an item takes (CEL-R9 Manipulate an Item: "the GM might rule that
    /// manipulating an item is a complex action and determine the number of actions", CEL-G3;
    /// default 1, the seed's simple action).
    pub pick_up_acts: u8,
    /// The CMD bonus an item fastened to a foe gives against a steal (CEL-R10.13 "a +5 (or
    /// higher) bonus": the GM's "higher"; default 5, 5–50).
    pub fastened_cmd: i32,
    /// Whether those acts must be consecutive ("those actions may need to be committed
    /// consecutively"; default true).
    pub pick_up_consecutive: bool,
    /// Acts retrieving a stored item takes, and whether they must be consecutive (CEL-R9
    /// Manipulate an Item: "retrieve … an item in a container on your person", the GM's
    /// complex ruling, CEL-G3; default 1 and true).
    pub retrieve_acts: u8,
    /// See `retrieve_acts`.
    pub retrieve_consecutive: bool,
    /// Acts removing the ropes of a tied-up creature takes (`untie`, Manipulate an Item, a
    /// reading), and whether they must be consecutive (CEL-G3; default 1 and true).
    pub untie_acts: u8,
    /// See `untie_acts`.
    pub untie_consecutive: bool,
    /// A nonlethal coup de grace's nonlethal damage turns lethal only past twice the maximum
    /// hit points (the coup de grace note; CEL-A8, G8 toggle; default off: CEL-R20.4's
    /// maximum hit points, as for all nonlethal damage).
    pub nonlethal_coup_twice_max_hp: bool,
    /// The GM's rulings on preparing a spell's material component or focus: the spell's name
    /// and the acts it takes (1 simple, 2 advanced; absent: free). [CEL-R14, CEL-G3, A27]
    pub prepare_components: Vec<(String, u8)>,
    /// What burning does to a creature on fire at the start of each of its turns (CEL-R11
    /// Extinguish Flames names the fire, not its numbers; default Pathfinder's: a DC 15
    /// Reflex save puts it out, else 1d6 fire damage; `rules::fire`).
    pub fire: crate::rules::fire::Fire,
    /// The DC of Sleight of Hand to take an object from a creature (CEL-R11 Sleight of Hand
    /// gives none; default Pathfinder's 20; `rules::sleight`).
    pub sleight_dc: i32,
    /// The DC of the Heal check that stops bleeding (CEL-R11 Treat a Wound gives none; default
    /// Pathfinder's 15; `rules::treat_wound`).
    pub treat_wound_dc: i32,
    /// The DC of the Perception check of Search to find an invisible creature (CEL-R9 Search
    /// gives none; default Pathfinder's 20 to notice one; `rules::search`).
    pub search_dc: i32,
    /// How far Search finds invisible creatures, in feet (default Pathfinder's 30).
    pub search_feet: i32,
    /// The DC of Handle an Animal (CEL-R9 gives none; default Pathfinder's 10).
    pub handle_dc: i32,
    /// The DC of Push an Animal before the seed's +2 for a hurt animal (CEL-R12 gives none;
    /// default Pathfinder's 25).
    pub push_dc: i32,
    /// How far a handler's command reaches an animal it sees, in feet (default 60, fray's).
    pub handle_feet: i32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            flatfooted_until_regular_turn: true,
            ranged_attack_provokes: false,
            crit_confirmation: false,
            crit_deck: false,
            range_penalty: -2,
            multiple_attack_penalty: [0, 0, 0],
            crippling_injuries: true,
            massive_before_negation: true,
            unarmed_str_only: false,
            lethal_unarmed_minus_4: false,
            minimum_damage: 1,
            scaling_choose_lower: false,
            free_actions_per_turn: None,
            strenuous_free_actions: Vec::new(),
            cmd_base: 10,
            flanking: true,
            bleed_at_turn_end: false,
            weakened_attack_inverted: false,
            splash_stray_increments: 4,
            multiweapon_repeat: false,
            find_tracks_acts: 3,
            pick_up_acts: 1,
            fastened_cmd: 5,
            pick_up_consecutive: true,
            retrieve_acts: 1,
            retrieve_consecutive: true,
            untie_acts: 1,
            untie_consecutive: true,
            nonlethal_coup_twice_max_hp: false,
            prepare_components: Vec::new(),
            fire: crate::rules::fire::Fire::default(),
            sleight_dc: crate::rules::sleight::DEFAULT_DC,
            treat_wound_dc: crate::rules::treat_wound::DEFAULT_DC,
            search_dc: crate::rules::search::DEFAULT_DC,
            search_feet: crate::rules::search::DEFAULT_FEET,
            handle_dc: crate::rules::animal::DEFAULT_HANDLE_DC,
            push_dc: crate::rules::animal::DEFAULT_PUSH_DC,
            handle_feet: crate::rules::animal::DEFAULT_FEET,
        }
    }
}

/// What the pending request is about (requests carry no payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Asking {
    /// Nothing.
    #[default]
    Nothing,
    /// `who`'s next action on its turn.
    Action(CombatantId),
    /// Whether delaying `who` ends its delay now. [CEL-R1.7]
    Delayed(CombatantId),
    /// Whether `reactor` takes an attack of opportunity on `provoker`. [CEL-R15]
    Opportunity {
        /// Who may react.
        reactor: CombatantId,
        /// Who provoked.
        provoker: CombatantId,
    },
    /// Whether `foe` lets the overrunning `mover` pass through its square. [CEL-R10.4]
    LetPass {
        /// Whose square it is.
        foe: CombatantId,
        /// Who overruns.
        mover: CombatantId,
    },
    /// Whether `who` takes a crippling injury to negate some of `damage`. [CEL-R18.1]
    Injury {
        /// Who is hurt.
        who: CombatantId,
        /// The damage that would bring it to 0 or below.
        damage: i32,
    },
    /// Whether `rider` shoots now, its mount `mount` having completed an increment of its
    /// speed with more of its move to come. [CEL-R21.8]
    Saddle {
        /// Who may shoot.
        rider: CombatantId,
        /// Its moving mount.
        mount: CombatantId,
    },
    /// Whether `reactor`, which identified the spell `caster` begins to cast, counterspells it.
    /// [CEL-R15 Counterspell]
    Counterspell {
        /// Who may counterspell.
        reactor: CombatantId,
        /// The foe casting.
        caster: CombatantId,
        /// The spell it casts (its index in `State::spellbook`).
        spell: u8,
    },
    /// Whether `who` identifies the spell `caster` begins to cast (a free action). [CEL-R14]
    Identify {
        /// Who may identify it.
        who: CombatantId,
        /// The foe casting.
        caster: CombatantId,
    },
    /// Whether `reactor` uses a counter or an immediate-action ability against the attack `foe`
    /// declares on it, before it resolves. [CEL-R15 Counter, Use an Immediate-Action Ability]
    Counter {
        /// Who is attacked.
        reactor: CombatantId,
        /// The foe attacking.
        foe: CombatantId,
    },
    /// Whether `reactor` completes its readied action against `foe`, who set the trigger off.
    /// [CEL-R3.9, R15]
    Readied {
        /// Who readied the action.
        reactor: CombatantId,
        /// The foe that set the trigger off.
        foe: CombatantId,
    },
    /// Whether `who`, about to be placed on a hazardous square by `grappler`, tries to free
    /// itself as a reaction at +4. [CEL-R10.10 Move]
    Hazard {
        /// Who is being placed.
        who: CombatantId,
        /// Who grapples it.
        grappler: CombatantId,
    },
    /// The GM's ruling on a number the seed leaves to the GM. [CEL-R9, R13]
    Ruling {
        /// Whose action it is.
        who: CombatantId,
        /// What the GM rules on.
        about: crate::rules::ruling::About,
    },
}

/// The whole state of a fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Names.
    pub roster: Arc<Roster>,
    /// Fixed statistics, in roster order.
    pub profiles: Arc<[Profile]>,
    /// Changing records, in roster order.
    pub fighters: Vec<Fighter>,
    /// The GM's options.
    pub options: Arc<Options>,
    /// The initiative order, fixed for the encounter. [CEL-R1.2]
    pub order: Vec<CombatantId>,
    /// The round (0: the surprise round).
    pub round: u32,
    /// In the surprise round. [CEL-R2.2]
    pub surprise_round: bool,
    /// Who stands where.
    pub occupancy: Occupancy,
    /// The longest reach in squares of anyone (bounds the threat search).
    pub reach_squares: i32,
    /// The pending request's subject.
    pub asking: Asking,
    /// Every spell some combatant of the encounter knows, once each, in the order they are
    /// first listed: `Choice::Cast` names one by its place here. [CEL-R9–R13]
    pub spellbook: Arc<[crate::spell::Spell]>,
    /// Every kind of item some combatant carries, once each, in the order first listed:
    /// `Choice::Drink` and the other item actions name one by its place here. [CEL-R11, R12]
    pub gear_book: Arc<[crate::rules::item::Gear]>,
    /// Every stance, strike and counter some combatant knows, once each, in the order first
    /// listed: `Choice::Stance`, `Choice::Strike` and `Choice::Counter` name one by its place
    /// here (at most `initiator::MAX_BOOK`). [CEL-R11, R14, R15]
    pub maneuver_book: Arc<[crate::initiator::Maneuver]>,
    /// The devices of the encounter. [CEL-R13]
    pub devices: Arc<[Device]>,
    /// Which devices are disabled.
    pub disabled: Vec<bool>,
    /// The hazardous squares: the map's and the GM's. [CEL-R10.10 Move]
    pub hazards: Arc<[crate::rules::hazard::Hazard]>,
    /// The map's obstacles and difficult terrain (`rules::terrain`). [CEL-R7.3, R9 Step]
    pub terrain: Arc<crate::rules::terrain::Terrain>,
    /// A regular round paused after an action (exact odds' settled points,
    /// `rules::round::round_step`); `None` between rounds.
    pub paused: Option<Paused>,
    /// The last charge or approach destination worked out, until the next question or move
    /// (`rules::movement::LastDestination`; no part of equality or hashing).
    pub destination: crate::rules::movement::LastDestination,
    /// A thrown weapon has landed or a creature has been tied up in this fight (never
    /// cleared): only then do the default tactics look for a thrown weapon lying in reach or an
    /// ally to untie (`tactics`; a cache, no state of the rules).
    pub strewn: bool,
    /// Someone has ridden a mount or held a creature in a grapple in this fight (never cleared:
    /// set where `riding` or `hold` becomes `Some`): only then do the passes after every action
    /// look for a fallen mount or a broken hold (`rules::round::tidy`; a cache, no part of
    /// equality or hashing).
    pub linked: CacheFlag,
    /// Someone has bled in this fight (never cleared: set where `bleed` grows,
    /// `rules::injury`): only then do the default tactics look for a wound to treat
    /// (`tactics`; a cache, no part of equality or hashing: where it is set but nobody bleeds,
    /// the look finds nothing, as where it is not).
    pub bled: CacheFlag,
    /// Some spell of the encounter's spellbook gives its target extra acts (haste): only then
    /// do the default tactics weigh casting one on an ally (`support_tactics`; worked out once
    /// on load; a cache, no part of equality or hashing).
    pub helping: CacheFlag,
    /// As the fight began (nobody flat-footed), some combatant with a friend needed a natural
    /// 18 or more to hit some foe with its best melee form: only then do the default tactics
    /// weigh Aid Another (`support_tactics`; worked out once on load; a cache, no part of
    /// equality or hashing).
    pub aiding: CacheFlag,
    /// Some combatant knows a spell that heals: only then do the default tactics weigh healing
    /// an ally by spell (`heal_tactics`; worked out once on load; a cache, no part of equality
    /// or hashing).
    pub healing: CacheFlag,
    /// Some combatant knows a spell that gives a condition or an ability penalty: only then do
    /// the default tactics weigh casting one on a foe (`hinder_tactics`; worked out once on
    /// load; a cache, no part of equality or hashing).
    pub hindering: CacheFlag,
    /// Someone has held a weapon in both hands in this fight (`rules::grip`: from the
    /// encounter's `two_handed_grip`, or a `grip two`): only then does `grip::settle` look at
    /// everyone after each action (a cache, no part of equality or hashing).
    pub gripped: CacheFlag,
    /// Someone has been aided in this fight (never cleared: set where an aid is given,
    /// `rules::aid`, `rules::aid_check`): only then does a turn's start look for the aids its
    /// combatant gave, to end them (`rules::round`; a cache, no part of equality or hashing).
    pub aided: CacheFlag,
    /// Someone has delayed its turn in this fight (never cleared: set where `delaying` becomes
    /// true, `rules::round`): only then does the end of a turn look for a delaying combatant to
    /// rejoin (a cache, no part of equality or hashing).
    pub delayed: CacheFlag,
    /// As the fight began, some combatant held its weapon in both hands or could take it so
    /// (`rules::grip`): only then do the default tactics weigh `grip two` and `grip one`
    /// (`grip_tactics`; worked out once on load; a cache, no part of equality or hashing).
    pub grip_minded: CacheFlag,
    /// Two combatants last found standing on different sides (`Ruleset::outcome`; a cache, no
    /// part of equality or hashing).
    pub standing_pair: StandingPair,
    /// The default tactics' last foe searches, kept for the same combatant's next decision
    /// while their answers hold (`foe_sight`; no part of equality or hashing).
    pub foe_sight: crate::foe_sight::FoeSight,
}

/// A flag that only lets a pass skip work ([`State::linked`]: someone has ridden or held in this
/// fight; [`State::bled`]: someone has bled; [`State::helping`], [`State::aiding`]: worked out
/// once on load from the encounter, the same for every state of its fights). No part of
/// equality or hashing: two states
/// otherwise equal have the same riders, holds and bleeding, and either one's flag is true of
/// them (false only while nobody rides, holds or bleeds), so exact odds merge them as before
/// (issue 16).
#[derive(Debug, Clone, Copy, Default)]
pub struct CacheFlag(pub bool);

impl PartialEq for CacheFlag {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for CacheFlag {}

impl std::hash::Hash for CacheFlag {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// Two combatants last found standing on different sides, asked first by `Ruleset::outcome`
/// (after every action; issue 16): while both still stand the fight goes on, whoever else has
/// fallen. Only a hint: `outcome` checks that both stand and that their sides differ, so it
/// never changes an answer, and it takes no part in equality or hashing. Atomic, since a state
/// may be shared between threads (a session's checkpoints).
pub struct StandingPair(std::sync::atomic::AtomicU32);

impl StandingPair {
    /// The pair last remembered, if any.
    #[inline]
    pub fn get(&self) -> Option<(usize, usize)> {
        let v = self.0.load(std::sync::atomic::Ordering::Relaxed);
        (v != u32::MAX).then_some(((v & 0xffff) as usize, (v >> 16) as usize))
    }

    /// Remembers `a` and `b` (indices of the roster).
    #[inline]
    pub fn set(&self, a: usize, b: usize) {
        let v = (a as u32 & 0xffff) | ((b as u32) << 16);
        self.0.store(v, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Default for StandingPair {
    fn default() -> Self {
        StandingPair(std::sync::atomic::AtomicU32::new(u32::MAX))
    }
}

impl Clone for StandingPair {
    fn clone(&self) -> Self {
        StandingPair(std::sync::atomic::AtomicU32::new(
            self.0.load(std::sync::atomic::Ordering::Relaxed),
        ))
    }
}

impl PartialEq for StandingPair {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for StandingPair {}

impl std::hash::Hash for StandingPair {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl std::fmt::Debug for StandingPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StandingPair")
    }
}

/// Where a regular round stands when it pauses before a turn or after an action
/// (`rules::round::round_step`): whose turn it is, and the turns still to come after it, in the
/// order the round began with (a delayed turn's new place counts from the next round, CEL-R1.7).
/// [CEL-R1.2, R3]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Paused {
    /// Whose turn it is, paused after one of its actions; `None` between turns (the next is the
    /// first of `rest`).
    pub who: Option<CombatantId>,
    /// The turns of the round still to come after it.
    pub rest: Vec<CombatantId>,
}

impl State {
    /// The state of a fight between `fighters` with `profiles`.
    pub fn new(
        roster: Arc<Roster>,
        profiles: Arc<[Profile]>,
        fighters: Vec<Fighter>,
        options: Arc<Options>,
    ) -> State {
        let occupancy = Occupancy::with_layers(fighters.iter().map(|f| (f.pos, f.side.0)));
        let reach_squares = profiles
            .iter()
            .map(Profile::reach_squares)
            .max()
            .unwrap_or(1);
        State {
            roster,
            profiles,
            fighters,
            options,
            order: Vec::new(),
            round: 0,
            surprise_round: false,
            occupancy,
            reach_squares,
            asking: Asking::Nothing,
            devices: Arc::from(Vec::new()),
            disabled: Vec::new(),
            hazards: Arc::from(Vec::new()),
            terrain: Default::default(),
            paused: None,
            spellbook: Arc::from(Vec::new()),
            gear_book: Arc::from(Vec::new()),
            maneuver_book: Arc::from(Vec::new()),
            destination: Default::default(),
            strewn: false,
            linked: CacheFlag(false),
            bled: CacheFlag(false),
            helping: CacheFlag(false),
            aiding: CacheFlag(false),
            healing: CacheFlag(false),
            hindering: CacheFlag(false),
            gripped: CacheFlag(false),
            aided: CacheFlag(false),
            delayed: CacheFlag(false),
            grip_minded: CacheFlag(false),
            standing_pair: Default::default(),
            foe_sight: Default::default(),
        }
    }

    /// A combatant's record.
    #[inline]
    pub fn f(&self, id: CombatantId) -> &Fighter {
        &self.fighters[id.index()]
    }
    /// A combatant's record, to change.
    pub fn fm(&mut self, id: CombatantId) -> &mut Fighter {
        &mut self.fighters[id.index()]
    }
    /// A combatant's statistics.
    #[inline]
    pub fn p(&self, id: CombatantId) -> &Profile {
        &self.profiles[id.index()]
    }
    /// Every combatant id, in roster order.
    pub fn ids(&self) -> impl Iterator<Item = CombatantId> {
        (0..self.fighters.len() as u16).map(CombatantId)
    }
    /// Puts `id` on square `to` (its space's north-west square), keeping the occupancy index
    /// (the only way positions change). A mount carries its rider along (CEL-R21.2, R21.3: the
    /// rider shares its space); a rider moved off its mount's square (pushed, dragged) is no
    /// longer mounted (a reading).
    pub fn set_square(&mut self, id: CombatantId, to: Pos) {
        self.destination.forget();
        let from = self.fighters[id.index()].pos;
        let f = &mut self.fighters[id.index()];
        f.pos = to;
        f.moved_ft += from.feet_to(to);
        if let Some(mount) = self.fighters[id.index()].riding {
            if self.fighters[mount.index()].pos != to {
                self.fighters[id.index()].riding = None;
                self.fighters[mount.index()].rider = None;
            }
        }
        self.settle(id);
        if let Some(rider) = self.fighters[id.index()].rider {
            self.fighters[rider.index()].pos = to;
            self.settle(rider);
        }
    }

    /// Brings the occupancy index to `id`'s square and space (after a move, mounting or
    /// dismounting). [CEL-R21.3]
    pub fn settle(&mut self, id: CombatantId) {
        // Squares change: what the tactics kept of the foes' is forgotten (`foe_sight`).
        self.foe_sight.forget();
        let (at, side) = (self.f(id).pos, self.side(id));
        if side == 1 && self.occupancy.squares_of(id).nth(1).is_none() {
            self.occupancy.move_to(id, at);
        } else {
            let squares: Vec<Pos> = crate::space::squares(at, side).collect();
            self.occupancy.set_squares(id, &squares);
        }
    }

    /// Squares across `id`'s space: its size's, or its mount's while it rides. [CEL-R21.3]
    /// Inlined, as [`State::gap_from`].
    #[inline(always)]
    pub fn side(&self, id: CombatantId) -> i32 {
        let size = match self.f(id).riding {
            Some(mount) => self.p(mount).size,
            None => self.p(id).size,
        };
        crate::space::side(size)
    }

    /// Squares between the nearest squares of `a`'s and `b`'s spaces (0: they overlap).
    #[inline(always)]
    pub fn gap(&self, a: CombatantId, b: CombatantId) -> i32 {
        self.gap_from(a, self.f(a).pos, b)
    }

    /// [`State::gap`] with `a` standing on `at`. Inlined where it is asked (690,000 times in
    /// 2,000 fights of the bench: the call cost a fifth of it; issue 16).
    #[inline(always)]
    pub fn gap_from(&self, a: CombatantId, at: Pos, b: CombatantId) -> i32 {
        crate::space::gap(at, self.side(a), self.f(b).pos, self.side(b))
    }

    /// The modifier of `who`'s ability `ix` from its current score ([`State::score`]).
    /// [CEL-R6.2, E5–E7]
    /// Inlined where it is read (every attack, every damage the tactics weigh; issue 16),
    /// with a penalty's case ([`State::drained_m`]) out of line.
    #[inline(always)]
    pub fn m(&self, who: CombatantId, ix: usize) -> i32 {
        if self.f(who).drained.is_empty() {
            return self.p(who).m(ix);
        }
        self.drained_m(who, ix)
    }

    /// [`State::m`] of a combatant with an ability penalty.
    #[inline(never)]
    fn drained_m(&self, who: CombatantId, ix: usize) -> i32 {
        modifier(self.score(who, ix))
    }

    /// `who`'s current score of ability `ix`: the profile's, less the penalty a spell gave it
    /// (the score falls by the penalty, not below 1). [CEL-R6.2, E5–E7]
    #[inline]
    pub fn score(&self, who: CombatantId, ix: usize) -> i32 {
        score_of(self.f(who), self.p(who), ix)
    }

    /// `who`'s save bonus `base` (its Fortitude, Reflex or Will, which hold the profile's
    /// modifier of `ability`), moved by an ability penalty's change to that modifier: CON for
    /// Fortitude, DEX for Reflex, WIS for Will (Pathfinder's, CEL-A34). [CEL-R6.2]
    #[inline]
    pub fn save(&self, who: CombatantId, base: i32, ability: usize) -> i32 {
        if self.f(who).drained.is_empty() {
            return base;
        }
        base + self.m(who, ability) - self.p(who).m(ability)
    }

    /// Reactions gained at the end of a turn: 1, + the current DEX bonus with Combat Reflexes.
    /// [CEL-R3.3, R6.2]
    pub fn reactions_per_round(&self, who: CombatantId) -> i32 {
        let p = self.p(who);
        if !p.feats.combat_reflexes || self.f(who).drained.is_empty() {
            return p.reactions_per_round();
        }
        1 + bonus(self.score(who, DEX))
    }

    /// `who`'s total initiative modifier: its current DEX modifier (an ability penalty counts)
    /// + Improved Initiative. [CEL-R1.1, R6.2]
    pub fn initiative_modifier(&self, who: CombatantId) -> i32 {
        self.save(who, self.p(who).initiative_modifier(), DEX)
    }

    /// `who`'s bonus `base` in a skill keyed to `ability` (the parent game's, CEL-A34:
    /// Intimidate CHA, Spellcraft INT), moved by a penalty's change to that modifier, as a
    /// save's is. [CEL-R6.2, adopted reading]
    pub fn skill(&self, who: CombatantId, base: i32, ability: usize) -> i32 {
        self.save(who, base, ability)
    }

    /// The active stance's bonus to `who`'s saves (0 without one). [CEL-R14]
    #[inline]
    pub fn stance_saves(&self, who: CombatantId) -> i32 {
        if self.f(who).stance.is_none() {
            return 0;
        }
        crate::rules::stance::saves(self, who)
    }

    /// Fortitude save bonus (CON penalties count; a stance's too, CEL-R14). [CEL-R6.2]
    pub fn fort(&self, who: CombatantId) -> i32 {
        self.save(who, self.p(who).fort, CON) + self.stance_saves(who)
    }

    /// Feet between `a`'s and `b`'s spaces. Inlined, as [`State::gap`] (245,000 calls in
    /// 2,000 fights of the bench, every attack and shot; issue 16).
    #[inline(always)]
    pub fn feet_between(&self, a: CombatantId, b: CombatantId) -> i32 {
        self.gap(a, b) * fray_core::grid::SQUARE_FT
    }

    /// Is `at` free for `who` to stand on: every square of its space there free of others who
    /// block (its own rider or mount aside)? [CEL-R21.3]
    pub fn space_free(&self, at: Pos, who: CombatantId) -> bool {
        let f = self.f(who);
        let (rider, mount) = (f.rider, f.riding);
        let blocks = |o: CombatantId| {
            o != who && Some(o) != rider && Some(o) != mount && !self.f(o).absent()
        };
        // The squares of `space::squares`, in its order, without its iterator chain (this runs
        // for every square a move or a strike-square search looks at).
        let s = self.side(who);
        for dy in 0..s {
            for dx in 0..s {
                if self
                    .occupancy
                    .any_at(Pos::new(at.x + dx, at.y + dy), blocks)
                {
                    return false;
                }
            }
        }
        // No standing on an obstacle (`rules::terrain`; asked only when the map has some).
        !(self.terrain.has_obstacles() && self.terrain.space_blocked(at, s))
    }

    /// True when `a` and `b` are on different sides.
    pub fn enemies(&self, a: CombatantId, b: CombatantId) -> bool {
        self.f(a).side != self.f(b).side
    }

    /// The band of its hit points. [CEL-R17, CEL-A11]
    #[inline]
    pub fn band(&self, id: CombatantId) -> Band {
        band_of(self.f(id), self.p(id))
    }

    /// Unconscious from nonlethal damage: NL with burn exceeds current hit points (CEL-R20.3,
    /// R20.7), or a nonlethal coup de grace's failed save (CEL-R12).
    #[inline]
    pub fn knocked_out(&self, id: CombatantId) -> bool {
        let f = self.f(id);
        f.out_cold || nonlethal_unconscious(f.nonlethal + f.burn, f.hp)
    }

    /// Knocks `id` unconscious: a nonlethal coup de grace's failed Fortitude save (CEL-R12).
    /// The seed gives no end; any healing ends it (a reading: healing is what removes
    /// nonlethal damage, CEL-R20.6; `rules::item::heal`).
    pub fn knock_out(&mut self, id: CombatantId) {
        self.fm(id).out_cold = true;
    }

    /// Staggered: nonlethal damage with burn at least half its current hit points (CEL-R20.2,
    /// R20.7), four
    /// head injuries (CEL-R18), or a failed check to keep running (CEL-R12 Run).
    pub fn staggered(&self, id: CombatantId) -> bool {
        let f = self.f(id);
        nonlethal_staggered(f.nonlethal + f.burn, f.hp)
            || f.injuries.staggered()
            || f.fatigued_until > 0
    }

    /// Able to act: present, not dying or dead, not unconscious. Inlined where it is asked
    /// (1.5 million times in 2,000 fights of the bench; issue 16), the profile read only at 0
    /// hit points or below ([`up_of`]).
    #[inline(always)]
    pub fn up(&self, id: CombatantId) -> bool {
        let f = self.f(id);
        if f.hp > 0 {
            return up_above_zero(f);
        }
        up_at_zero_or_below(f, self.p(id))
    }

    /// Helpless (dying or unconscious; CEL-A34).
    #[inline]
    pub fn helpless(&self, id: CombatantId) -> bool {
        !self.f(id).absent() && !self.up(id)
    }

    /// Speed in squares: halved while disabled (CEL-R17.2) or with half the legs lost (CEL-R18);
    /// 1 (a crawl) with none left.
    pub fn speed_squares(&self, id: CombatantId) -> i32 {
        let f = self.f(id);
        let mut feet = self.p(id).speed;
        if f.injuries.legless() {
            return 1;
        }
        if f.stance.is_some() {
            // CEL-R14: the stance's change to its speed, before halving.
            feet = (feet + crate::rules::stance::active(self, id).map_or(0, |s| s.speed)).max(0);
        }
        if self.band(id) == Band::Disabled {
            feet /= 2;
        }
        if f.injuries.half_speed() {
            feet /= 2;
        }
        (feet / fray_core::grid::SQUARE_FT).max(1)
    }

    /// The melee forms `id` can use: a two-handed weapon needs two intact hands, any held
    /// weapon one (CEL-R18 hand and arm injuries); natural attacks and unarmed strikes remain.
    pub fn melee_forms(&self, id: CombatantId) -> impl Iterator<Item = (usize, &Weapon)> {
        let hands = self.weapon_hands(id);
        let armless = self.p(id).arms == 0;
        self.p(id)
            .melee
            .iter()
            .enumerate()
            .filter(move |(i, _)| {
                !self.dropped(id, Item::Melee(*i as u8))
                    && !self.sheathed(id, Item::Melee(*i as u8))
            })
            .filter(move |(_, w)| match w.kind {
                WeaponKind::Natural | WeaponKind::Unarmed => true,
                _ if armless => true,
                _ => match w.hands {
                    Hands::Two => hands >= 2,
                    _ => hands >= 1,
                },
            })
    }

    /// The intact hands (and arms) `id` has for its weapons: CEL-R18 Hand Injury, "cannot hold
    /// items in that hand"; with a hand or arm lost, while its hands are tracked, a strapped
    /// shield that takes a hand (`rules::shield::hands_taken`) holds one of those left.
    fn weapon_hands(&self, id: CombatantId) -> u8 {
        let i = &self.f(id).injuries;
        let hands = i.hands.intact().min(i.arms.intact());
        if i.hands.lost() == 0 && i.arms.lost() == 0 {
            return hands;
        }
        let shield = u8::from(crate::rules::shield::hands_taken(self, id) > 0);
        hands.saturating_sub(shield)
    }

    /// The ranged weapon `id` can use, if any.
    pub fn ranged_weapon(&self, id: CombatantId) -> Option<&Weapon> {
        let hands = self.weapon_hands(id);
        if self.f(id).dropped_ranged || self.sheathed(id, Item::Ranged) {
            return None;
        }
        // A natural ranged attack (a spit, a quill) takes no hand.
        self.p(id).ranged.as_ref().filter(|w| match w.hands {
            _ if w.kind == WeaponKind::NaturalRanged => true,
            Hands::Two => hands >= 2,
            _ => hands >= 1,
        })
    }

    /// Whether `id` has dropped `item`. [CEL-R10.3]
    pub fn dropped(&self, id: CombatantId, item: Item) -> bool {
        let f = self.f(id);
        match item {
            Item::Melee(i) => i < 64 && f.dropped & (1 << i) != 0,
            Item::Ranged => f.dropped_ranged,
        }
    }

    /// The item's weapon if `id` holds it: a manufactured weapon (not a natural attack nor an
    /// unarmed strike) it has not dropped. [CEL-R10.3]
    pub fn held(&self, id: CombatantId, item: Item) -> Option<&Weapon> {
        let w = match item {
            Item::Melee(i) => self.p(id).melee.get(usize::from(i))?,
            Item::Ranged => self.p(id).ranged.as_ref()?,
        };
        (crate::rules::wield::manufactured(w)
            && !self.dropped(id, item)
            && !self.sheathed(id, item))
        .then_some(w)
    }

    /// Whether `item` is put away (only while `id`'s hands are tracked). [CEL-R9 Draw or Sheathe]
    pub fn sheathed(&self, id: CombatantId, item: Item) -> bool {
        let f = self.f(id);
        f.hands_tracked
            && match item {
                Item::Melee(i) => i < 64 && f.sheathed & (1 << i) != 0,
                Item::Ranged => f.ranged_sheathed,
            }
    }

    /// Puts `item` away (`true`) or in hand. [CEL-R9 Draw or Sheathe]
    pub fn set_sheathed(&mut self, id: CombatantId, item: Item, away: bool) {
        let f = self.fm(id);
        match item {
            Item::Melee(i) if i < 64 => {
                if away {
                    f.sheathed |= 1 << i;
                } else {
                    f.sheathed &= !(1 << i);
                }
            }
            Item::Melee(_) => {}
            Item::Ranged => f.ranged_sheathed = away,
        }
    }

    /// `id` gets back an item it dropped (CEL-R9 Manipulate an Item).
    pub fn pick_up(&mut self, id: CombatantId, item: Item) {
        let f = self.fm(id);
        f.on_ground.retain(|(i, _)| *i != item);
        match item {
            Item::Melee(i) if i < 64 => f.dropped &= !(1 << i),
            Item::Melee(_) => {}
            Item::Ranged => f.dropped_ranged = false,
        }
    }

    /// `id` drops `item` (a disarm, CEL-R10.3): it lies on `id`'s square until picked up.
    pub fn drop_item(&mut self, id: CombatantId, item: Item) {
        self.lose_item(id, item);
        let f = self.fm(id);
        let at = f.pos;
        f.on_ground.push((item, at));
    }

    /// `id` no longer has `item` (stolen, CEL-R10.13; destroyed, CEL-R10.5): not on the ground.
    pub fn lose_item(&mut self, id: CombatantId, item: Item) {
        crate::rules::gauntlet::let_go(self, id, item);
        let f = self.fm(id);
        match item {
            Item::Melee(i) if i < 64 => f.dropped |= 1 << i,
            Item::Melee(_) => {}
            Item::Ranged => f.dropped_ranged = true,
        }
    }

    /// The form `attacker` strikes `target` with: form `form` if it reaches, else none.
    pub fn form_reaching(
        &self,
        attacker: CombatantId,
        target: CombatantId,
        form: usize,
    ) -> Option<&Weapon> {
        let gap = self.gap(attacker, target);
        self.melee_forms(attacker)
            .find(|(i, _)| *i == form)
            .map(|(_, w)| w)
            .filter(|w| reaches(w, gap))
    }

    /// Does `who` threaten `target` (a melee form that reaches it, armed, able, with a line of
    /// effect to it past the map's obstacles)? A pinned creature can take no attack
    /// (Pathfinder's pinned, CEL-A34: it can only try to escape), so it threatens nobody.
    /// [CEL-R15, R7.2, R10.10; `rules::line_of_effect`]
    pub fn threatens(&self, who: CombatantId, target: CombatantId) -> bool {
        if !self.up(who) || !self.p(who).armed() || self.pinned(who) {
            return false;
        }
        let gap = self.gap(who, target);
        (self
            .melee_forms(who)
            .any(|(_, w)| w.kind != WeaponKind::Unarmed && reaches(w, gap))
            || (self.p(who).feats.improved_unarmed
                && self
                    .melee_forms(who)
                    .any(|(_, w)| w.kind == WeaponKind::Unarmed && reaches(w, gap))))
            && crate::rules::line_of_effect::open(self, who, target)
    }

    /// Grappled: holding a grapple it started, or held in one. [CEL-R10.9]
    pub fn grappled(&self, id: CombatantId) -> bool {
        let f = self.f(id);
        f.hold.is_some() || f.held_by.is_some()
    }

    /// Pinned by its grappler. [CEL-R10.10 Pin]
    pub fn pinned(&self, id: CombatantId) -> bool {
        let f = self.f(id);
        // CEL-R10.10 Tie Up: "the ropes pin the creature until they are removed".
        f.tied.is_some()
            || f.held_by
                .is_some_and(|g| self.f(g).hold.is_some_and(|h| h.pinned))
    }

    /// Pinning a foe: it loses its DEX bonus to DV. [CEL-R10.10 Pin]
    pub fn pinning(&self, id: CombatantId) -> bool {
        self.f(id).hold.is_some_and(|h| h.pinned)
    }

    /// Hit points of a weapon for a sunder, and its hardness (Pathfinder's table for blades,
    /// by how it is held; bows 5 and 5: a reading, the seed gives none). [CEL-R10.5]
    pub fn item_toughness(w: &Weapon) -> (i32, i32) {
        match (w.kind, w.hands) {
            (WeaponKind::Projectile, _) => (5, 5),
            (_, Hands::Light) => (2, 10),
            (_, Hands::One) => (5, 10),
            (_, Hands::Two) => (10, 10),
        }
    }

    /// Damage `id`'s item has taken from sunders.
    pub fn item_damage(&self, id: CombatantId, item: Item) -> i32 {
        self.f(id)
            .item_damage
            .iter()
            .find(|(i, _)| *i == item)
            .map_or(0, |(_, d)| *d)
    }

    /// Broken: a sundered item at half its hit points or less. [CEL-R10.5]
    pub fn broken(&self, id: CombatantId, item: Item) -> bool {
        let lost = self.item_damage(id, item);
        lost > 0
            && self.held(id, item).is_some_and(|w| {
                let (hp, _) = State::item_toughness(w);
                2 * (hp - lost) <= hp
            })
    }

    /// The item a weapon of `id`'s profile is (to find whether it is broken).
    pub fn item_of(&self, id: CombatantId, w: &Weapon) -> Option<Item> {
        let p = self.p(id);
        if p.ranged.as_ref().is_some_and(|r| std::ptr::eq(r, w)) {
            return Some(Item::Ranged);
        }
        p.melee
            .iter()
            .position(|m| std::ptr::eq(m, w))
            .map(|i| Item::Melee(i as u8))
    }

    /// Everyone with a square within `radius` squares of some square of `id`'s space for whom
    /// `counts` holds, each once, in id order (the occupancy search, widened by `id`'s space).
    pub fn near(
        &self,
        id: CombatantId,
        radius: i32,
        counts: impl FnMut(CombatantId) -> bool,
    ) -> fray_core::occupancy::Nearby {
        let side = self.side(id);
        let at = self.f(id).pos;
        if side == 1 {
            return self.occupancy.within(at, radius, counts);
        }
        // The centre square of the space (its south-east one of the middle four when even),
        // widened to cover every square within `radius` of any of its squares.
        let centre = Pos::new(at.x + side / 2, at.y + side / 2);
        self.occupancy.within(centre, radius + side / 2, counts)
    }

    /// Is anyone with a square within `radius` squares of some square of `id`'s space someone
    /// for whom `counts` holds? The area of [`State::near`], without listing who is in it:
    /// stops at the first.
    pub fn any_near(
        &self,
        id: CombatantId,
        radius: i32,
        mut counts: impl FnMut(CombatantId) -> bool,
    ) -> bool {
        let side = self.side(id);
        let at = self.f(id).pos;
        let (centre, radius) = if side == 1 {
            (at, radius)
        } else {
            (
                Pos::new(at.x + side / 2, at.y + side / 2),
                radius + side / 2,
            )
        };
        self.occupancy.any_within(centre, radius, |o, _| counts(o))
    }

    /// [`State::any_near`] among side `side` only: the other sides' pieces are not walked
    /// (`State::new` puts each side in its own layer of the occupancy index, and sides never
    /// change), so `counts` is asked only about that side's combatants.
    pub fn any_near_on(
        &self,
        id: CombatantId,
        radius: i32,
        side: SideId,
        mut counts: impl FnMut(CombatantId) -> bool,
    ) -> bool {
        let size = self.side(id);
        let at = self.f(id).pos;
        let (centre, radius) = if size == 1 {
            (at, radius)
        } else {
            (
                Pos::new(at.x + size / 2, at.y + size / 2),
                radius + size / 2,
            )
        };
        self.occupancy
            .any_within_inside(centre, radius, [side.0, side.0], |o, _| counts(o))
    }

    /// Calls `visit` with each standing foe of `id` within `radius` squares, in no particular
    /// order (a foe of several squares may come once per square). The search does not look at
    /// `id`'s own side: `State::new` puts each side in its own layer of the occupancy index, sides
    /// never change, and no side is numbered as high as `OUT_OF_FIGHT` (at most 32 sides).
    pub fn each_foe_within(&self, id: CombatantId, radius: i32, visit: impl FnMut(CombatantId)) {
        self.each_foe_within_noting_down(id, radius, visit);
    }

    /// [`State::each_foe_within`], returning the foes within `radius` that are not up, as bits
    /// of their roster indices (the first 64; `foe_sight` keeps them).
    pub fn each_foe_within_noting_down(
        &self,
        id: CombatantId,
        radius: i32,
        mut visit: impl FnMut(CombatantId),
    ) -> u64 {
        let (pos, side, size) = (self.f(id).pos, self.f(id).side, self.side(id));
        let mut down = 0u64;
        self.occupancy
            .each_within_outside(pos, radius + size - 1, side.0, |o, _| {
                let f = self.f(o);
                if f.side != side && crate::space::gap(pos, size, f.pos, self.side(o)) <= radius {
                    if self.up(o) {
                        visit(o);
                    } else {
                        down |= roster_bit(o);
                    }
                }
            });
        down
    }

    /// [`fray_core::Board::nearest_foe`]: the least (distance in squares, id) over every
    /// occupied square of a foe that stands, asking whether one stands only when it would be
    /// the best so far; with the foes so asked that did not stand, as bits of their roster
    /// indices (the first 64): every foe nearer than the answer is among them (`foe_sight`
    /// keeps them). The search reads the squares outside the mover's side's layer (see
    /// [`State::each_foe_within`]): friends are not even looked at.
    pub fn nearest_foe_noting_fallen(&self, who: CombatantId) -> (Option<CombatantId>, u64) {
        use fray_core::Board;
        let (side, square) = (self.f(who).side, self.f(who).pos);
        let mut best: Option<(i32, CombatantId)> = None;
        let mut fallen = 0u64;
        // Every square: the whole board lies within this radius of any square.
        self.occupancy
            .each_within_outside(square, i32::MAX / 4, side.0, |other, at| {
                let key = (at.squares_to(square), other);
                if best.is_none_or(|b| key < b) && self.f(other).side != side {
                    if self.stands(other) {
                        best = Some(key);
                    } else {
                        fallen |= roster_bit(other);
                    }
                }
            });
        (best.map(|(_, id)| id), fallen)
    }
}

/// `id`'s bit in a word of roster indices (none past the 64th).
#[inline]
fn roster_bit(id: CombatantId) -> u64 {
    1u64.checked_shl(u32::from(id.0)).unwrap_or(0)
}

/// Can weapon `w` reach a foe `gap` squares away (nearest square to nearest square, see
/// [`State::gap`])? A reach weapon cannot strike adjacent foes; nobody strikes a space it shares.
#[inline]
pub fn reaches(w: &Weapon, gap: i32) -> bool {
    reaches_plus(w, gap, 0)
}

/// [`reaches`] with `extra` feet of reach (Lunge, CEL-R16.4).
#[inline]
pub fn reaches_plus(w: &Weapon, gap: i32, extra: i32) -> bool {
    let d = gap * fray_core::grid::SQUARE_FT;
    gap > 0 && d <= w.reach.max(5) + extra && !(w.reach_only && d <= 5)
}

/// Staggered by nonlethal damage: NL ≥ half the current hit points. [CEL-R20.2]
pub fn nonlethal_staggered(nonlethal: i32, hp: i32) -> bool {
    nonlethal > 0 && 2 * nonlethal >= hp
}

/// The current score of ability `ix`: the profile's, less its Constitution damage and drain
/// (down to 0, CEL-R17.9), less its penalties (every source's), not below 1 (CEL-R6.2, E5–E7).
#[inline]
pub fn score_of(f: &Fighter, p: &Profile, ix: usize) -> i32 {
    let score = p.scores[ix];
    if f.drained.is_empty() {
        return score;
    }
    let score = score - crate::spell::loss_to(&f.drained, ix);
    if score <= 0 {
        return 0;
    }
    match crate::spell::penalty_to(&f.drained, ix) {
        0 => score,
        n => (score - n).max(1),
    }
}

/// [`State::band`] from the combatant's record and statistics: the bands are in the current
/// Constitution score (a spell's penalty lowers it, CEL-R6.2). [CEL-R17, CEL-A11]
#[inline]
pub fn band_of(f: &Fighter, p: &Profile) -> Band {
    // Above 0 hit points, healthy whatever the CON score (at least 1: scores run 1 to 50, a
    // penalty leaves at least 1), without reading it (asked for everyone, often; issue 16).
    if f.hp > 0 && !f.dead {
        return Band::Healthy;
    }
    let c = score_of(f, p, CON);
    if f.dead || f.hp <= -2 * c {
        Band::Dead
    } else if f.hp <= -c {
        Band::Dying
    } else if f.hp <= 0 {
        Band::Disabled
    } else {
        Band::Healthy
    }
}

/// [`State::up`] from the combatant's record and statistics: present, not dying or dead, not
/// unconscious from nonlethal damage.
#[inline(always)]
pub fn up_of(f: &Fighter, p: &Profile) -> bool {
    if f.hp > 0 {
        return up_above_zero(f);
    }
    up_at_zero_or_below(f, p)
}

/// [`up_of`] above 0 hit points: healthy whatever the Constitution score ([`band_of`]), so
/// the profile is not read (the dead are absent).
#[inline(always)]
fn up_above_zero(f: &Fighter) -> bool {
    !f.absent() && !nonlethal_unconscious(f.nonlethal + f.burn, f.hp) && !f.out_cold
}

/// [`up_of`] at 0 hit points or below: disabled (up) or dying (down) by the Constitution
/// score. [CEL-R17]
#[inline(never)]
fn up_at_zero_or_below(f: &Fighter, p: &Profile) -> bool {
    !f.absent()
        && matches!(band_of(f, p), Band::Healthy | Band::Disabled)
        && !nonlethal_unconscious(f.nonlethal + f.burn, f.hp)
        && !f.out_cold
}

/// Unconscious by nonlethal damage: NL > current hit points. [CEL-R20.3]
#[inline]
pub fn nonlethal_unconscious(nonlethal: i32, hp: i32) -> bool {
    nonlethal > 0 && nonlethal > hp
}

/// How `amount` nonlethal damage splits into (nonlethal, lethal) when `nonlethal` is already
/// taken: past the maximum hit points it is lethal. [CEL-R20.4]
pub fn nonlethal_split(amount: i32, nonlethal: i32, max_hp: i32) -> (i32, i32) {
    let room = (max_hp - nonlethal).max(0);
    let nl = amount.min(room);
    (nl, amount - nl)
}

/// The hit-point bands. [CEL-R17, CEL-A11]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Band {
    /// HP ≥ 1.
    Healthy,
    /// −CON < HP ≤ 0.
    Disabled,
    /// −2·CON < HP ≤ −CON.
    Dying,
    /// HP ≤ −2·CON.
    Dead,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_are_the_d20_formula() {
        assert_eq!(
            [1, 8, 9, 10, 11, 12, 13, 16, 17, 21].map(modifier),
            [-5, -1, -1, 0, 0, 1, 1, 3, 3, 5]
        );
        assert_eq!(bonus(8), 0);
    }

    /// CEL-E17: 30 hp, NL 15: staggered; NL 31: unconscious; max 40 with NL 40, 5 more
    /// nonlethal is 5 lethal.
    #[test]
    fn e17_nonlethal_thresholds() {
        assert!(nonlethal_staggered(15, 30) && !nonlethal_unconscious(15, 30));
        assert!(!nonlethal_staggered(14, 30));
        assert!(nonlethal_unconscious(31, 30));
        assert_eq!(nonlethal_split(5, 40, 40), (0, 5));
        assert_eq!(nonlethal_split(5, 38, 40), (2, 3));
    }

    /// CEL-E12: CON 12: disabled 0 … −11, dying −12 … −23, dead at −24.
    #[test]
    fn e12_bands() {
        let band = |hp: i32, c: i32| {
            if hp <= -2 * c {
                Band::Dead
            } else if hp <= -c {
                Band::Dying
            } else if hp <= 0 {
                Band::Disabled
            } else {
                Band::Healthy
            }
        };
        assert_eq!(band(0, 12), Band::Disabled);
        assert_eq!(band(-11, 12), Band::Disabled);
        assert_eq!(band(-12, 12), Band::Dying);
        assert_eq!(band(-23, 12), Band::Dying);
        assert_eq!(band(-24, 12), Band::Dead);
    }

    #[test]
    fn parts_are_injured_then_severed() {
        let mut arms = Part::of(2);
        assert!(!arms.injure() && !arms.injure());
        assert_eq!(arms.intact(), 0);
        assert!(arms.injure(), "a third arm injury severs one");
        assert!(arms.injure());
        assert!(!arms.available(), "reroll: every arm severed");
    }

    #[test]
    fn injuries_read_the_table() {
        assert_eq!(Injury::of_roll(4), Injury::Scar);
        assert_eq!(Injury::of_roll(10), Injury::Finger);
        assert_eq!(Injury::of_roll(20), Injury::Arm);
        assert_eq!(Injury::Head.negates(), 30);
        let mut i = Injuries::of(2, 2);
        assert_eq!(i.take(Injury::Leg), 0);
        assert!(i.half_speed() && !i.legless());
        i.take(Injury::Leg);
        assert!(i.legless());
        assert_eq!(i.take(Injury::Leg), 2, "severing a leg bleeds 2");
        for _ in 0..5 {
            i.take(Injury::Head);
        }
        assert!(!i.available(Injury::Head));
        assert!(i.sickened() && i.staggered());
    }
}
