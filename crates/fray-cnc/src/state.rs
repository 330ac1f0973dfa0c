//! The state of a C&C fight: each combatant's fixed profile and changing condition, the options
//! (CK hooks and ambiguity toggles) and standing CK modifiers.

use crate::content::{DamageDice, Magic, ShieldSize, Size, Weapon};
use fray_core::conditions::Conditions;
use fray_core::{CombatantId, Direction, Nearby, Occupancy, Pos, Roster, SideId};
use std::sync::Arc;

/// Conditions a C&C combatant can be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Prone (CNC-R15.2).
    Prone,
    /// Blind (CNC-R15.2).
    Blind,
    /// Invisible (CNC-R15.2).
    Invisible,
    /// Stunned (CNC-R15.2).
    Stunned,
    /// Cowering (CNC-R15.2).
    Cowering,
    /// Unaware of its attackers: loses DEX to AC (CNC-R16.4).
    Unaware,
    /// Surprised: no action, loses DEX to AC (CNC-R1, CNC-R16.4).
    Surprised,
    /// Charging this round: −4 AC (CNC-R6.4).
    Charging,
    /// Overbore this round: −2 AC (CNC-R13.4).
    Overbearing,
    /// Hasty disengagement this round: −2 AC (CNC-R17.2a).
    HastyDisengage,
    /// Dodging this round: +2 AC against 3 attacks (CNC-R17.1).
    Dodging,
    /// Evading this round: +4 AC against one opponent (CNC-R17.4).
    Evading,
}

impl fray_core::conditions::ConditionKind for Cond {
    fn bit(self) -> u32 {
        self as u32
    }
    fn key(self) -> &'static str {
        Cond::key(self)
    }
    fn rule(self) -> &'static str {
        Cond::rule(self)
    }
    fn ends_quietly(self) -> bool {
        self.this_round_only()
    }
}

impl Cond {
    /// The rule the condition comes from.
    pub fn rule(self) -> &'static str {
        match self {
            Cond::Prone | Cond::Blind | Cond::Invisible | Cond::Stunned | Cond::Cowering => {
                "CNC-R15.2"
            }
            Cond::Unaware => "CNC-R16.4",
            Cond::Surprised => "CNC-R1",
            Cond::Charging => "CNC-R6.4",
            Cond::Overbearing => "CNC-R13.4",
            Cond::HastyDisengage => "CNC-R17.2a",
            Cond::Dodging => "CNC-R17.1",
            Cond::Evading => "CNC-R17.4",
        }
    }

    /// Lasts exactly the round it is announced or taken in (its end needs no log line).
    pub fn this_round_only(self) -> bool {
        matches!(
            self,
            Cond::Charging
                | Cond::Overbearing
                | Cond::HastyDisengage
                | Cond::Dodging
                | Cond::Evading
        )
    }

    /// Name used in files and events.
    pub fn key(self) -> &'static str {
        match self {
            Cond::Prone => "prone",
            Cond::Blind => "blind",
            Cond::Invisible => "invisible",
            Cond::Stunned => "stunned",
            Cond::Cowering => "cowering",
            Cond::Unaware => "unaware",
            Cond::Surprised => "surprised",
            Cond::Charging => "charging",
            Cond::Overbearing => "overbearing",
            Cond::HastyDisengage => "hastily disengaging",
            Cond::Dodging => "dodging",
            Cond::Evading => "evading",
        }
    }

    /// Conditions an encounter file may set at the start.
    pub const SETTABLE: [Cond; 6] = [
        Cond::Prone,
        Cond::Blind,
        Cond::Invisible,
        Cond::Stunned,
        Cond::Cowering,
        Cond::Unaware,
    ];
}

/// Cover between a combatant and its attackers (CNC-R16.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Cover {
    /// None.
    #[default]
    None,
    /// 1/4: +2 AC.
    Quarter,
    /// 1/2: +4 AC.
    Half,
    /// 3/4: +6 AC.
    ThreeQuarters,
    /// Full: +10 AC.
    Full,
}

impl Cover {
    /// AC adjustment. [Seed: 10. Armor Class › Cover]
    pub fn ac_bonus(self) -> i32 {
        match self {
            Cover::None => 0,
            Cover::Quarter => 2,
            Cover::Half => 4,
            Cover::ThreeQuarters => 6,
            Cover::Full => 10,
        }
    }
}

/// Concealment of a defender (CNC-R15.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Concealment {
    /// None.
    #[default]
    None,
    /// 1/4 (light fog): −2.
    Quarter,
    /// 1/2 (dense fog): −4.
    Half,
    /// 3/4 (near darkness): −6.
    ThreeQuarters,
    /// Complete: −10.
    Complete,
}

impl Concealment {
    /// To-hit modifier. [Seed: 9. Situational Modifiers]
    pub fn to_hit(self) -> i32 {
        match self {
            Concealment::None => 0,
            Concealment::Quarter => -2,
            Concealment::Half => -4,
            Concealment::ThreeQuarters => -6,
            Concealment::Complete => -10,
        }
    }
}

/// One attack a combatant can make with a melee or ranged weapon or a natural weapon.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AttackForm {
    /// Name (`long sword`, `bite`).
    pub name: String,
    /// Damage dice.
    pub damage: DamageDice,
    /// Reach in feet.
    pub reach: i32,
    /// Magic bonus to hit and damage.
    pub magic: i32,
    /// Deals subdual damage.
    pub subdual: bool,
    /// A touch attack (CNC-R14).
    pub touch: bool,
    /// A natural weapon (claw, bite, fist): its damage is the description's, without STR.
    pub natural: bool,
}

impl AttackForm {
    /// The melee attack form of a weapon.
    pub fn of_weapon(w: &Weapon) -> AttackForm {
        AttackForm {
            name: w.id.clone(),
            damage: w.damage,
            reach: w.reach,
            magic: w.magic,
            subdual: false,
            touch: false,
            natural: false,
        }
    }
}

/// What does not change during a fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Profile {
    /// Level (characters) or hit dice (monsters).
    pub level: i32,
    /// Bonus to hit (monsters: hit dice, CNC-R7.2).
    pub bth: i32,
    /// Attribute scores STR DEX CON INT WIS CHA.
    pub scores: [i32; 6],
    /// Their modifiers.
    pub mods: [i32; 6],
    /// Prime attributes.
    pub primes: [bool; 6],
    /// Hit points at full health.
    pub max_hp: i32,
    /// True for monsters (touch AC is 10 flat, CNC-R14.1).
    pub monster: bool,
    /// AC before DEX, shield, cover and round effects: 10 + armour (+ magic), or a monster's AC.
    pub base_ac: i32,
    /// Protective magic that also counts against touch attacks (rings, spells; CNC-R14.2).
    pub deflection: i32,
    /// Shield carried.
    pub shield: Option<ShieldSize>,
    /// Movement rate in feet.
    pub movement: i32,
    /// Size.
    pub size: Size,
    /// Melee attack routine (one action makes all of them; characters have one).
    pub melee: Vec<AttackForm>,
    /// Off-hand weapon for two-weapon fighting.
    pub off_hand: Option<AttackForm>,
    /// Ranged weapon.
    pub ranged: Option<Weapon>,
    /// May disarm (CNC-R17.3, CNC-A24).
    pub can_disarm: bool,
    /// Rogue/assassin back attack: the rear +2 is not added again (CNC-R17.6).
    pub back_attack: bool,
    /// Monk (CNC-R17.8).
    pub monk: bool,
    /// Fights with a weapon that can be knocked away (CNC-R17.3).
    pub armed: bool,
    /// Longest melee reach in feet (cached from `melee`).
    pub reach_ft: i32,
    /// Spells it can cast, as indices into [`State::magic`] (casts left are in
    /// [`Fighter::spells_left`], same order).
    pub spells: Vec<u16>,
    /// Items it carries, as indices into [`State::magic`] (counts and readiness are in the
    /// [`Fighter`], same order).
    pub items: Vec<u16>,
    /// Class and racial abilities, as indices into [`State::magic`] (uses left are in
    /// [`Fighter::abilities_left`], same order).
    pub abilities: Vec<u16>,
}

impl Profile {
    /// STR modifier.
    pub fn str_mod(&self) -> i32 {
        self.mods[0]
    }
    /// DEX modifier.
    pub fn dex_mod(&self) -> i32 {
        self.mods[1]
    }
    /// Longest melee reach in feet.
    pub fn reach(&self) -> i32 {
        self.reach_ft
    }

    /// Computes the cached reach from the melee routine (call after changing `melee`).
    pub fn with_reach(mut self) -> Self {
        self.reach_ft = self.melee.iter().map(|a| a.reach).max().unwrap_or(5);
        self
    }
}

/// A spell with a casting time of 2 or more rounds, under way (CNC-R4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Casting {
    /// The spell, an index into [`State::magic`].
    pub spell: u16,
    /// Its target.
    pub target: CombatantId,
    /// The round in which it goes off, at the caster's turn.
    pub goes_off: u32,
}

/// A declaration made before initiative (CNC-R6.1, CNC-R17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Declared {
    /// Nothing announced; rolls initiative.
    #[default]
    Nothing,
    /// A charge at a target.
    Charge(CombatantId),
    /// Dodge.
    Dodge,
    /// Evade one opponent.
    Evade(CombatantId),
    /// Hasty disengagement.
    DisengageHasty,
    /// Fighting disengagement.
    DisengageFighting,
}

impl Declared {
    /// Declarers other than chargers do not roll initiative (CNC-R17).
    pub fn skips_initiative(self) -> bool {
        !matches!(self, Declared::Nothing | Declared::Charge(_))
    }
}

/// A combatant during the fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fighter {
    /// Its side.
    pub side: SideId,
    /// Square. Change it only with [`State::set_square`], which keeps the occupancy index.
    pub pos: Pos,
    /// Facing.
    pub facing: Direction,
    /// Current hit points.
    pub hp: i32,
    /// Of the damage taken, how much is subdual (CNC-R21.3).
    pub subdual_taken: i32,
    /// Running subdual total for the 1-in-5 conversion (CNC-A9).
    pub subdual_running: i32,
    /// Conditions.
    pub conditions: Conditions<Cond>,
    /// This round's declaration.
    pub declared: Declared,
    /// Acted this round.
    pub acted: bool,
    /// The first three distinct attackers this round, in order (a shield covers up to three,
    /// CNC-R16.3, CNC-A7).
    pub attackers: [Option<CombatantId>; 3],
    /// Attacks received while dodging this round.
    pub dodged: u8,
    /// Round in which it was first at −7..−9 (CNC-A11).
    pub mortal_since: Option<u32>,
    /// Round in which someone aided its wounds.
    pub aided_in: Option<u32>,
    /// Who holds it in a grapple.
    pub held_by: Option<CombatantId>,
    /// Lost its weapon (CNC-R17.3).
    pub disarmed: bool,
    /// Round after which it no longer counts as engaged (fighting disengagement, CNC-R17.2b).
    pub disengaged_in: Option<u32>,
    /// Who it may not attack again this round (after a free attack, CNC-R17.2a).
    pub free_attacked: Option<CombatantId>,
    /// Its charge gets no +2 damage: negated by a hit (CNC-R6.5), or no charge movement
    /// (CNC-R6.2).
    pub charge_negated: bool,
    /// Cover it stands behind.
    pub cover: Cover,
    /// Concealment it enjoys.
    pub concealment: Concealment,
    /// Elevation in feet.
    pub elevation: i32,
    /// Mounted or on an unstable platform.
    pub mounted: bool,
    /// Dead (−10 or worse).
    pub dead: bool,
    /// Left the fight on the CK's word (fled, surrendered, captured): off the map, out of
    /// reach, no longer acting.
    pub gone: Option<fray_core::Standing>,
    /// Able to act when its initiative group began (simultaneous actors all act, spec §1).
    pub ready: bool,
    /// Casts left of each of the profile's spells.
    pub spells_left: Vec<u8>,
    /// Uses left of each of the profile's items.
    pub items_left: Vec<u8>,
    /// Whether each item is readied (at hand) or packed away (CNC-R4.6).
    pub items_ready: Vec<bool>,
    /// Uses left of each of the profile's abilities.
    pub abilities_left: Vec<u8>,
    /// A spell being cast over several rounds (CNC-R4.3).
    pub casting: Option<Casting>,
    /// Damage dealt to others so far (statistics).
    pub dealt: i32,
    /// Damage taken so far (statistics).
    pub taken: i32,
}

impl Fighter {
    /// Able to act: above 0 hit points and alive (CNC-R19).
    pub fn is_up(&self) -> bool {
        !self.dead && self.hp >= 1 && self.gone.is_none()
    }

    /// On the map: neither dead nor gone (it blocks its square and can be reached).
    pub fn present(&self) -> bool {
        !self.dead && self.gone.is_none()
    }

    /// Still in the exchange: up, or felled by someone of its own initiative group, whose
    /// members all act simultaneously (spec §1 step 6, CNC-R2.2) — it still strikes and can
    /// still be struck within that group.
    pub fn fights_on(&self) -> bool {
        self.is_up() || self.ready
    }
}

/// The CK hooks and ambiguity toggles of C&C (spec §3 and §5).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Options {
    /// CNC-A3 / CNC-G16: the printed grapple size direction.
    pub grapple_size_literal: bool,
    /// CNC-A2 / CNC-G16: cap on falling dice.
    pub fall_max_dice: Option<u32>,
    /// CNC-R2.3 / CNC-G3.
    pub group_initiative: bool,
    /// CNC-R2.3: sides whose group-initiative rolls tie act simultaneously (true) instead of
    /// rolling again (false, the default).
    pub group_ties_simultaneous: bool,
    /// CNC-G12 / CNC-A10: a creature at 0 HP stays conscious.
    pub zero_hp_conscious: bool,
    /// CNC-G7: BtH counts toward overbearing.
    pub overbear_uses_bth: bool,
    /// CNC-G7: extra modifier to pummel and overbear attempts.
    pub grapple_modifier: i32,
    /// CNC-G8: a creature in cover cannot attack.
    pub cover_forbids_attacks: bool,
    /// CNC-G2: SIEGE challenge base for a prime attribute.
    pub check_base_prime: i32,
    /// CNC-G2: SIEGE challenge base for a non-prime attribute.
    pub check_base_nonprime: i32,
    /// CNC-G14: the optional maneuvers module.
    pub maneuvers: Maneuvers,
    /// CNC-G1: sides that may be surprised, with the CK's modifier.
    pub surprise: Vec<(SideId, i32)>,
    /// CNC-G1: each member checks (true) or the best member checks for the party (false).
    pub surprise_individual: bool,
    /// CNC-G10: subdual damage to −10 kills (true) or leaves unconscious 24 h (false).
    pub subdual_kills: bool,
    /// CK rulings: who falls how far before the first round (CNC-R22).
    pub falls: Vec<(CombatantId, i32)>,
}

/// CNC-G14: which optional maneuvers are in play (all by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Maneuvers {
    /// Dodge (CNC-R17.1).
    pub dodge: bool,
    /// Disengaging (CNC-R17.2).
    pub disengage: bool,
    /// Disarm (CNC-R17.3).
    pub disarm: bool,
    /// Evade (CNC-R17.4).
    pub evade: bool,
    /// Flank attacks (CNC-R17.5).
    pub flank: bool,
    /// Rear attacks (CNC-R17.6).
    pub rear: bool,
    /// Two-weapon fighting (CNC-R17.7).
    pub two_weapon: bool,
}

impl Default for Maneuvers {
    fn default() -> Self {
        Maneuvers {
            dodge: true,
            disengage: true,
            disarm: true,
            evade: true,
            flank: true,
            rear: true,
            two_weapon: true,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            grapple_size_literal: false,
            fall_max_dice: None,
            group_initiative: false,
            group_ties_simultaneous: false,
            zero_hp_conscious: false,
            overbear_uses_bth: false,
            grapple_modifier: 0,
            cover_forbids_attacks: false,
            check_base_prime: 12,
            check_base_nonprime: 18,
            maneuvers: Maneuvers::default(),
            surprise: Vec::new(),
            surprise_individual: false,
            subdual_kills: false,
            falls: Vec::new(),
        }
    }
}

/// A standing CK situational modifier (CNC-G4), recorded as a ruling each time it applies.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StandingModifier {
    /// Attacker it applies to (None: any).
    pub attacker: Option<CombatantId>,
    /// Target it applies to (None: any).
    pub target: Option<CombatantId>,
    /// To-hit modifier.
    pub value: i32,
    /// The CK's reason.
    pub reason: String,
}

/// The whole state of a C&C fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Names.
    pub roster: Arc<Roster>,
    /// Fixed profiles, by combatant id.
    pub profiles: Arc<[Profile]>,
    /// Changing state, by combatant id.
    pub fighters: Vec<Fighter>,
    /// CK hooks.
    pub options: Arc<Options>,
    /// CK standing modifiers.
    pub modifiers: Arc<[StandingModifier]>,
    /// The round being played (0 = the surprise round or before the fight).
    pub round: u32,
    /// The spells and items of this encounter (choices refer to them by index).
    pub magic: Arc<[Magic]>,
    /// Who stands on which square (kept by [`State::set_square`]).
    pub occupancy: Occupancy,
    /// The longest melee reach of anyone in the fight, in squares (at least 1): how far to look
    /// for foes that reach a combatant.
    pub reach_squares: i32,
    /// Whether anyone may be holding anyone (see [`HoldsSeen`]).
    pub holds_seen: HoldsSeen,
    /// Where a round stands when it pauses at a settled point inside it (exact odds,
    /// `rules::round::round_step`): the initiative groups still to act, in order. `None`
    /// outside a round and in ordinary play.
    pub paused: Option<crate::rules::round::Order>,
}

/// Set once anyone in the fight has been held (and never cleared): while it is not, a move
/// need not look for holds to release. Derived from the fighters' `held_by`, so it adds
/// nothing to equality or hashing (like the occupancy index).
#[derive(Debug, Clone, Copy, Default)]
pub struct HoldsSeen(pub bool);

impl PartialEq for HoldsSeen {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Eq for HoldsSeen {}

impl std::hash::Hash for HoldsSeen {
    fn hash<H: std::hash::Hasher>(&self, _state: &mut H) {}
}

impl State {
    /// Combatant ids in roster order.
    pub fn ids(&self) -> impl Iterator<Item = CombatantId> {
        (0..self.fighters.len() as u16).map(CombatantId)
    }
    /// A fighter.
    pub fn f(&self, id: CombatantId) -> &Fighter {
        &self.fighters[id.index()]
    }
    /// A fighter, mutably.
    pub fn f_mut(&mut self, id: CombatantId) -> &mut Fighter {
        &mut self.fighters[id.index()]
    }
    /// A profile.
    pub fn p(&self, id: CombatantId) -> &Profile {
        &self.profiles[id.index()]
    }
    /// The first of `who`'s slots holding `item` (an index into [`State::magic`]) with uses left
    /// that is readied (`ready`) or packed away (`!ready`). [CNC-R4.6]
    pub fn item_slot(&self, who: CombatantId, item: u16, ready: bool) -> Option<usize> {
        let (p, f) = (self.p(who), self.f(who));
        (0..p.items.len())
            .find(|&k| p.items[k] == item && f.items_left[k] > 0 && f.items_ready[k] == ready)
    }

    /// True when `a` and `b` are on different sides.
    pub fn enemies(&self, a: CombatantId, b: CombatantId) -> bool {
        self.f(a).side != self.f(b).side
    }
    /// The state of a fight between `fighters` with `profiles` (the index built from their
    /// squares).
    pub fn new(
        roster: Arc<Roster>,
        profiles: Arc<[Profile]>,
        fighters: Vec<Fighter>,
        options: Arc<Options>,
        modifiers: Arc<[StandingModifier]>,
        magic: Arc<[Magic]>,
    ) -> State {
        let occupancy = Occupancy::with_layers(fighters.iter().map(|f| (f.pos, f.side.0)));
        let holds_seen = HoldsSeen(fighters.iter().any(|f| f.held_by.is_some()));
        let reach_squares = profiles
            .iter()
            .map(|p| p.reach_ft / fray_core::grid::SQUARE_FT)
            .max()
            .unwrap_or(1)
            .max(1);
        State {
            roster,
            profiles,
            fighters,
            options,
            modifiers,
            round: 0,
            magic,
            occupancy,
            reach_squares,
            holds_seen,
            paused: None,
        }
    }

    /// Puts `id` on square `to`, keeping the occupancy index (the only way positions change).
    pub fn set_square(&mut self, id: CombatantId, to: Pos) {
        self.fighters[id.index()].pos = to;
        self.occupancy.move_to(id, to);
    }

    /// Keeps `id` in its side's layer of the occupancy index while it fights on, and in the
    /// out-of-fight layer otherwise (so the nearest-foe search skips the fallen). Called
    /// wherever hit points, death, leaving or the simultaneous-moment readiness change.
    pub fn refresh_layer(&mut self, id: CombatantId) {
        let f = &self.fighters[id.index()];
        let layer = if f.fights_on() {
            f.side.0
        } else {
            fray_core::occupancy::OUT_OF_FIGHT
        };
        self.occupancy.set_layer(id, layer);
    }

    /// `held` is now held by `holder` (the only way a hold begins: see [`HoldsSeen`]).
    pub fn set_held(&mut self, held: CombatantId, holder: CombatantId) {
        self.fighters[held.index()].held_by = Some(holder);
        self.holds_seen = HoldsSeen(true);
    }

    /// Who stands on a square (the dead are cleared away; ties: lowest id).
    pub fn occupant(&self, pos: Pos) -> Option<CombatantId> {
        self.occupancy.first_at(pos, |id| self.f(id).present())
    }
    /// Is any able foe of `id` within reach of it (see [`State::engaged_foes`])?
    pub fn engaged(&self, id: CombatantId, round: u32) -> bool {
        let me = self.f(id);
        let (pos, side) = (me.pos, me.side);
        if me.disengaged_in.is_some_and(|r| r + 1 == round) {
            return false;
        }
        // Friends (the searcher's layer) and the fallen (OUT_OF_FIGHT: none is up) are skipped
        // unread.
        self.occupancy
            .any_within_outside(pos, self.reach_squares, side.0, |o, _| {
                let f = self.f(o);
                f.side != side && f.is_up() && f.pos.within_reach(pos, self.p(o).reach_ft)
            })
    }

    /// Able foes of `id` that are within its melee reach... or that reach it, in id order.
    pub fn engaged_foes(&self, id: CombatantId, round: u32) -> impl Iterator<Item = CombatantId> {
        let me = self.f(id);
        let (pos, side) = (me.pos, me.side);
        let disengaged = me.disengaged_in.is_some_and(|r| r + 1 == round);
        let radius = if disengaged { -1 } else { self.reach_squares };
        let found: Nearby = if disengaged {
            Nearby::default()
        } else {
            self.occupancy.within(pos, radius, |o| {
                let f = self.f(o);
                f.side != side && f.is_up() && f.pos.within_reach(pos, self.p(o).reach_ft)
            })
        };
        found.into_iter()
    }
}
