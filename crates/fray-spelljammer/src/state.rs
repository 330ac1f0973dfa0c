//! The state of a Spelljammer fight: each combatant's fixed [`Profile`] (behind an `Arc`) and
//! changing [`Fighter`] record, the round's schedule of actions by segment, the GM's options
//! (every SJ-A toggle and SJ-G hook that is data) and standing overrides.

use crate::choice::Declaration;
use crate::content::{Damage, Missile, RangedClass, Size, Specialization, SpellDef};
use fray_core::{CombatantId, Occupancy, Pos, Roster, SideId};
use std::sync::Arc;

/// One attack form: a weapon (or natural weapon) in a combatant's hands, with its total SC.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AttackForm {
    /// Name (`long sword`, `claw`).
    pub name: String,
    /// Strike chance with it (base SC + weapon SC).
    pub sc: i32,
    /// Damage.
    pub damage: Damage,
    /// Melee reach in feet (0 for a ranged-only weapon).
    pub reach: i32,
    /// Range in feet (0 for melee-only).
    pub range: i32,
    /// Kind of ranged weapon.
    pub class: Option<RangedClass>,
    /// The missile it leaves stuck on a critical.
    pub missile: Option<Missile>,
    /// Held in the off hand (−20 SC, −2 damage unless ambidextrous; SJ-R20).
    pub offhand: bool,
}

/// A spell a combatant can cast.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Spell {
    /// The spell.
    pub def: SpellDef,
    /// The caster's rank in it (mage spells; 0 for cleric spells).
    pub rank: i32,
}

/// What does not change during a fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Profile {
    /// Size (ranged size modifier, stun CON bonus).
    pub size: Size,
    /// Starting (maximum) hit points.
    pub max_hp: i32,
    /// CON (stun).
    pub con: i32,
    /// DEX (DEX rolls).
    pub dex: i32,
    /// PER (ambush, invisible foes).
    pub per: i32,
    /// Initiative modifier from DEX.
    pub dex_mod: i32,
    /// Tactical movement rate, feet per round.
    pub tmr: i32,
    /// DEF from armour, nature and anything not listed below.
    pub def_base: i32,
    /// DEF from DEX.
    pub def_dex: i32,
    /// DEF from the Defense skill.
    pub def_skill: i32,
    /// DEF from the shield (Shield skill), when the shield is ready.
    pub def_shield: i32,
    /// Magical DEF that is "always on" (kept even when surprised out of combat, SJ-G10).
    pub def_magic: i32,
    /// Armour PROT (before grievous reductions).
    pub prot: i32,
    /// Attacks per round.
    pub attacks: u8,
    /// Melee attack forms; attack `i` of a round uses form `i % len`.
    pub melee: Vec<AttackForm>,
    /// Ranged attack form.
    pub ranged: Option<AttackForm>,
    /// Rank with the weapon (Defending, shooting into melee).
    pub weapon_rank: i32,
    /// Specialisation with the weapon.
    pub specialization: Specialization,
    /// Master Bowman rank.
    pub master_bowman: i32,
    /// Ambidextrous: no off-hand penalty.
    pub ambidextrous: bool,
    /// Range of Field skill rank (reduces the multiple-attacker bonus by the GM's amount, SJ-G6).
    pub range_of_field: i32,
    /// How many attackers it counts as (tentacle pairs, SJ-G7); 1 normally.
    pub attacker_count: i32,
    /// Encumbered: −10 SC attacking, −10 DEF defending.
    pub encumbered: bool,
    /// Sees in the dark: exempt from lighting (SJ-G11).
    pub darkvision: bool,
    /// How it moves whenever it is not standing still, for missiles aimed at it: sprinting,
    /// fast sprinting, dodging or on a moving mount (SJ-R23.1); `None`: from its declaration.
    pub pace: Option<crate::rules::tables::TargetPace>,
    /// Spells it can cast.
    pub spells: Vec<Spell>,
    /// Healing of one potion it carries.
    pub potion: Option<Damage>,
}

/// A missile stuck in a combatant. [Seed: Ranged › Critical or Grievous Hits]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stuck {
    /// The missile.
    pub missile: Missile,
    /// Stuck by a grievous hit (DEX penalty 1 worse).
    pub grievous: bool,
}

/// A spell being cast. [Seed: Casting Cleric/Mage Spells]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Casting {
    /// Index into the profile's spells.
    pub spell: u8,
    /// The target.
    pub target: CombatantId,
    /// Round in which it goes off.
    pub off_round: u32,
    /// Segment on which it goes off.
    pub off_segment: i32,
    /// Round in which the casting state begins (the next round for a deferred start, SJ-A12).
    pub from_round: u32,
    /// Segment on which the casting state begins.
    pub from_segment: i32,
}

/// How a combatant moves this round (derived from its declaration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MovePlan {
    /// Feet left to move this round.
    pub feet_left: i32,
    /// Tenths of a foot banked toward the next 5-ft square.
    pub banked: i32,
    /// Tenths of a foot gained per segment.
    pub per_segment: i32,
    /// First segment it moves on (10 … 1).
    pub from_segment: i32,
    /// Last segment it moves on (≥ 1).
    pub to_segment: i32,
    /// Moving away from foes (withdrawing) rather than toward its target.
    pub away: bool,
    /// Speed class for ranged target-movement modifiers: 0 still, 1 walking, 2 running.
    pub pace: u8,
}

/// One scheduled action of the round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scheduled {
    /// Who acts.
    pub who: CombatantId,
    /// Segment it happens on.
    pub segment: i32,
    /// What it is.
    pub kind: ActionKind,
}

/// What a scheduled action does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// The `n`th attack of the round (0-based) at the current target.
    Attack {
        /// Index of the attack.
        n: u8,
        /// Ranged.
        ranged: bool,
    },
    /// A spell goes off.
    SpellOff,
    /// A potion is drunk.
    Potion,
    /// A dropped weapon is picked up.
    PickUp,
    /// The round's free actions, at the combatant's earliest initiative (SJ-R17.7).
    Free,
    /// First Aid on the declared patient (SJ-R23.6, SJ-G13).
    FirstAid,
}

/// What a combatant declared and what follows from it for this round.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Plan {
    /// The declaration.
    pub declaration: Declaration,
    /// Current target (after re-targeting).
    pub target: Option<CombatantId>,
    /// DEF bonus from Defending / Full / Desperate Defense.
    pub def_bonus: i32,
    /// SC given up for Defending.
    pub sc_penalty: i32,
    /// Attacks made so far this round.
    pub attacks_made: u8,
    /// Attacks scheduled this round (after losses).
    pub attacks_planned: u8,
    /// The 5-ft free move was used this round (SJ-R17.1).
    pub free_move_used: bool,
    /// Segment of its last attack this round (attack-and-move).
    pub last_attack: Option<i32>,
    /// Movement this round.
    pub movement: Option<MovePlan>,
    /// −15 DEF while picking up a dropped weapon (SJ-R21, SJ-A20).
    pub picking_up: bool,
    /// Its remaining actions were lost (stunned, forced to move under "no movement").
    pub actions_lost: bool,
    /// It only aimed this round: no shot was left after careful aim (SJ-A21).
    pub aim_only: bool,
    /// Whom it has struck in melee this round (multiple attackers, SJ-R18.2, SJ-A26).
    pub melee_struck: Vec<CombatantId>,
}

/// What changes during a fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fighter {
    /// Its side.
    pub side: SideId,
    /// Where it stands. Change it only with [`State::set_square`], which keeps the occupancy
    /// index.
    pub pos: Pos,
    /// Hit points.
    pub hp: i32,
    /// PROT lost to grievous hits (until the armour is repaired).
    pub prot_lost: i32,
    /// Out of the fight (0 hp or less).
    pub down: bool,
    /// Dead.
    pub dead: bool,
    /// Off the map without falling: held in reserve, or fled, surrendered or captured on the
    /// GM's word (then also `down`, so no rule reaches it).
    pub gone: Option<fray_core::Standing>,
    /// Stunned for the rest of the round (SJ-R11).
    pub stunned: bool,
    /// A spell being cast.
    pub casting: Option<Casting>,
    /// Missiles stuck in it.
    pub stuck: Vec<Stuck>,
    /// Its weapon lies at its feet.
    pub weapon_dropped: bool,
    /// Its shield is slung (not ready).
    pub shield_slung: bool,
    /// Potions left.
    pub potions: u8,
    /// It only aimed last round (SJ-A21): this round's first shot gets +15 if it stays still.
    pub aimed: bool,
    /// It held its action from last round (a 1-round spell may start on 10).
    pub held: bool,
    /// Invisible to foes without a targeting sense.
    pub invisible: bool,
    /// Cover against missiles (SJ-R23.3).
    pub cover: crate::rules::tables::Cover,
    /// This round's plan.
    pub plan: Plan,
    /// SC and DEF lost to grievous wounds from the GM's table (SJ-G4), for the rest of the fight.
    pub wounds: (i32, i32),
    /// Damage dealt to foes.
    pub dealt: i32,
    /// Damage taken.
    pub taken: i32,
}

impl Fighter {
    /// Able to act.
    pub fn is_up(&self) -> bool {
        !self.down
    }
}

/// Lighting of the fight. [Seed: Lighting Modifiers]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lighting {
    /// Daylight or good light.
    #[default]
    Bright,
    /// Starry night or shadowy interior: −10.
    Starry,
    /// Cloudy night: −20.
    Cloudy,
    /// Cave or unlit interior: −40.
    Cave,
    /// Pitch black: −60.
    PitchBlack,
}

/// Which surprise applies to an attack. [Seed: Surprise]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SurpriseKind {
    /// In combat: +10 SC, half DEF.
    InCombat,
    /// Out of combat: +25 SC, only always-on magical DEF.
    OutOfCombat,
}

/// A GM ruling that an attacker's attacks on a target in a round are a surprise (SJ-G9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SurpriseRuling {
    /// Attacker.
    pub attacker: CombatantId,
    /// Target.
    pub target: CombatantId,
    /// Round.
    pub round: u32,
    /// Kind.
    pub kind: SurpriseKind,
}

/// A standing GM adjustment (SJ-G15): added to SC or DEF of `who` in the given rounds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Override {
    /// Whose numbers.
    pub who: CombatantId,
    /// SC adjustment.
    pub sc: i32,
    /// DEF adjustment.
    pub def: i32,
    /// PROT adjustment.
    pub prot: i32,
    /// Initiative adjustment.
    pub initiative: i32,
    /// Hit points gained (or lost, if negative) once, at the start of `from_round`.
    pub hp: i32,
    /// First round (1-based; 0 = the ambush surprise round).
    pub from_round: u32,
    /// Last round.
    pub to_round: u32,
    /// The GM's reason, shown as the ruling.
    pub reason: String,
}

/// A GM ruling that circumstances force `who` to move (SJ-R5.3): on `segment` of `round` it is
/// moved to `to`. Under a "no movement" declaration it then loses its remaining actions, rolls
/// 2× DEX or falls, and loses the spell it is casting.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ForcedMove {
    /// Who is moved.
    pub who: CombatantId,
    /// Round (0 = the ambush surprise round).
    pub round: u32,
    /// Segment, before that segment's movement and actions.
    pub segment: i32,
    /// Where it ends up.
    pub to: Pos,
    /// The GM's reason, shown in the log.
    pub reason: String,
}

/// One line of the GM's grievous-wound table (SJ-G4): a d100 at or below `upto` (and above the
/// previous line's) gives this wound, whose SC and DEF penalties last the rest of the fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GrievousWound {
    /// Highest d100 result of this line.
    pub upto: i32,
    /// What the wound is (shown in the log).
    pub wound: String,
    /// SC change for the rest of the fight (usually negative).
    pub sc: i32,
    /// DEF change for the rest of the fight (usually negative).
    pub def: i32,
    /// Extra hit points lost at once.
    pub damage: i32,
}

/// The ambush of the encounter. [Seed: Ambush]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ambush {
    /// The side springing it.
    pub by: SideId,
}

/// Ambush result of one target for the surprise round (SJ-R14): the PER ladder step 1…5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AmbushResult {
    /// Who.
    pub who: CombatantId,
    /// Ladder step after warnings (1 best … 5 completely surprised).
    pub step: u8,
}

/// The GM's options: every SJ-A toggle and the SJ-G hooks that are data.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Options {
    /// Initiative dice for the 1st, 2nd, … attacks (SJ-A9; the last repeats).
    pub die_chain: Vec<u16>,
    /// Wound modifiers reduce TMR by a percentage instead of feet (SJ-A7 toggle).
    pub tmr_percent: bool,
    /// Segments of a "1 round" casting time (SJ-A12).
    pub one_round_cast: i32,
    /// A hit that deals damage interrupts a spell being cast (SJ-A16); false: the GM rules.
    pub damage_interrupts: bool,
    /// Stun interrupts a spell being cast (SJ-A17).
    pub stun_interrupts: bool,
    /// Use the fallback formula for shooting-into-melee combinations missing from the table
    /// (SJ-A22); false: the GM rules.
    pub shoot_fallback: bool,
    /// Lighting (SJ-G11).
    pub lighting: Lighting,
    /// SC points each Range of Field rank takes off the multiple-attacker bonus (SJ-G6).
    pub range_of_field_step: i32,
    /// Percent chance that a grievous hit causes a grievous wound (SJ-G4; 0: none).
    pub grievous_wound_chance: i32,
    /// The GM is asked whether each withdrawal gives a free attack (SJ-G5); false: R22.2 decides.
    pub ask_free_attack: bool,
    /// The GM is asked where declared attacks go when the target is gone (SJ-G1); false: the
    /// nearest eligible foe.
    pub ask_retarget: bool,
    /// Extra SC penalty against very fast targets (SJ-G3), by combatant.
    pub fast_targets: Vec<(CombatantId, i32)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            die_chain: vec![10, 8, 6, 4, 2],
            tmr_percent: false,
            one_round_cast: 15,
            damage_interrupts: true,
            stun_interrupts: true,
            shoot_fallback: true,
            lighting: Lighting::Bright,
            range_of_field_step: 5,
            grievous_wound_chance: 0,
            ask_free_attack: false,
            ask_retarget: false,
            fast_targets: Vec::new(),
        }
    }
}

/// What a pending choice request is about (requests carry no payload; the tactics, the option
/// lists and the legality checks read it here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Asking {
    /// Declarations for the round (SJ-R1.1): `Choice::Declare`.
    Declaration(CombatantId),
    /// GM: the declared target of `who` is gone; where does the attack go? (SJ-R1.2, SJ-G1):
    /// `Choice::Retarget`.
    Retarget(CombatantId),
    /// `by` may take a free attack on `on`, who withdraws (SJ-R22.1): `Yes` / `No`.
    FreeAttack {
        /// The opponent offered the free attack.
        by: CombatantId,
        /// The withdrawing combatant.
        on: CombatantId,
    },
    /// GM: does `on`'s withdrawal give `by` a free attack? (SJ-R22.5, SJ-G5): `Yes` / `No`.
    FreeAttackRuling {
        /// The opponent.
        by: CombatantId,
        /// The withdrawing combatant.
        on: CombatantId,
    },
    /// `by` may push the desperately defending `target` 10 ft instead of attacking (SJ-R19,
    /// SJ-G8): `Push(direction)` or `No`.
    Push {
        /// The attacker.
        by: CombatantId,
        /// The defender.
        target: CombatantId,
    },
    /// GM: is the spell of `caster` interrupted by this hit? (SJ-R16.3, SJ-G2): `Yes` / `No`.
    Interruption {
        /// The caster.
        caster: CombatantId,
    },
    /// GM: does `by`'s First Aid pull a stuck missile out of `patient`? (SJ-G13; the First Aid
    /// skill is outside the seed): `Yes` / `No`.
    FirstAid {
        /// The one giving First Aid.
        by: CombatantId,
        /// The one with the stuck missile.
        patient: CombatantId,
    },
    /// GM: a shot by `by` into a melee the table does not cover: does it go to a friend?
    /// (SJ-A22, SJ-G14): `Yes` / `No`.
    ShootIntoMelee {
        /// The shooter.
        by: CombatantId,
    },
}

/// The whole state of a fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Names of sides and combatants.
    pub roster: Roster,
    /// Fixed profiles, by combatant.
    pub profiles: Arc<Vec<Profile>>,
    /// Changing records, by combatant.
    pub fighters: Vec<Fighter>,
    /// The GM's options.
    pub options: Options,
    /// Surprise rulings (SJ-G9).
    pub surprises: Vec<SurpriseRuling>,
    /// Standing GM adjustments (SJ-G15).
    pub overrides: Vec<Override>,
    /// Moves the GM forces on combatants (SJ-R5.3).
    pub forced_moves: Vec<ForcedMove>,
    /// The GM's grievous-wound table (SJ-G4), in rising `upto` order; empty: none.
    pub grievous_wounds: Vec<GrievousWound>,
    /// The ambush, if any (played in `begin`).
    pub ambush: Option<Ambush>,
    /// Ambush results for the surprise round.
    pub ambush_results: Vec<AmbushResult>,
    /// The round being played (0 = the ambush surprise round).
    pub round: u32,
    /// The segment being resolved.
    pub segment: i32,
    /// The segment in which the round stands paused after an action, or the segment above the
    /// first after the initiatives (a settled point of exact odds, `rules::round::round_step`);
    /// `None` outside a round.
    pub paused: Option<i32>,
    /// The actions of the segment being resolved not taken yet, each with whether it could
    /// act when the segment began (SJ-A11); empty outside a segment's actions.
    pub acts_left: Vec<(Scheduled, bool)>,
    /// This round's schedule, in resolution order.
    pub schedule: Vec<Scheduled>,
    /// What the pending choice request is about.
    pub asking: Option<Asking>,
    /// How everyone stood when the current segment's actions began (empty outside them).
    pub segment_start: Vec<AtSegmentStart>,
    /// Who stands on which square (kept by [`State::set_square`]; build it with
    /// `Occupancy::new` over the fighters' squares).
    pub occupancy: Occupancy,
}

/// How a combatant stood when a segment's actions began. Actions on one segment are
/// simultaneous (SJ-A11): they see these values, not each other's effects, which are applied as
/// they are rolled and seen from the next segment on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AtSegmentStart {
    /// Hit points (for wound modifiers).
    pub hp: i32,
    /// Stunned (for the +10 against a stunned target).
    pub stunned: bool,
    /// Still in the fight (a target felled on this segment is still struck).
    pub up: bool,
}

impl State {
    /// A combatant's profile.
    pub fn p(&self, id: CombatantId) -> &Profile {
        &self.profiles[id.index()]
    }
    /// A combatant's record.
    pub fn f(&self, id: CombatantId) -> &Fighter {
        &self.fighters[id.index()]
    }
    /// A combatant's record, to change.
    pub fn f_mut(&mut self, id: CombatantId) -> &mut Fighter {
        &mut self.fighters[id.index()]
    }
    /// Puts `id` on square `to`, keeping the occupancy index (the only way positions change).
    pub fn set_square(&mut self, id: CombatantId, to: Pos) {
        self.fighters[id.index()].pos = to;
        self.occupancy.move_to(id, to);
    }
    /// Every combatant id.
    pub fn ids(&self) -> impl Iterator<Item = CombatantId> {
        (0..self.fighters.len() as u16).map(CombatantId)
    }
    /// Are two combatants foes?
    pub fn foes(&self, a: CombatantId, b: CombatantId) -> bool {
        self.f(a).side != self.f(b).side
    }
    /// Foes of `id` still able to fight.
    pub fn foes_up(&self, id: CombatantId) -> impl Iterator<Item = CombatantId> + '_ {
        self.ids()
            .filter(move |&o| self.foes(id, o) && self.f(o).is_up())
    }
    /// Is `id` within melee reach of a foe still up (in melee)?
    pub fn in_melee(&self, id: CombatantId) -> bool {
        self.foes_up(id).any(|o| {
            self.f(o)
                .pos
                .within_reach(self.f(id).pos, self.reach(o).max(5))
        })
    }
    /// Hit points as the current segment's simultaneous actions see them (SJ-A11).
    pub fn hp_seen(&self, id: CombatantId) -> i32 {
        self.segment_start
            .get(id.index())
            .map_or(self.f(id).hp, |s| s.hp)
    }
    /// Stunned, as the current segment's simultaneous actions see it (SJ-A11).
    pub fn stunned_seen(&self, id: CombatantId) -> bool {
        self.segment_start
            .get(id.index())
            .map_or(self.f(id).stunned, |s| s.stunned)
    }
    /// Still in the fight, as the current segment's simultaneous actions see it (SJ-A11).
    pub fn up_seen(&self, id: CombatantId) -> bool {
        self.segment_start
            .get(id.index())
            .map_or(self.f(id).is_up(), |s| s.up)
    }
    /// Does `id`'s spell go off on the segment whose actions are being resolved? Then a blow
    /// landing on the same segment cannot stop it (SJ-A11).
    pub fn spell_goes_off_now(&self, id: CombatantId) -> bool {
        !self.segment_start.is_empty()
            && self
                .f(id)
                .casting
                .is_some_and(|c| c.off_round == self.round && c.off_segment == self.segment)
    }
    /// Longest melee reach of a combatant (5 ft at least when it has a melee form).
    pub fn reach(&self, id: CombatantId) -> i32 {
        self.p(id).melee.iter().map(|m| m.reach).max().unwrap_or(0)
    }
}
