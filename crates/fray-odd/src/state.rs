//! The state of an OD&D fight: fixed [`Profile`]s behind an `Arc`, changing [`Fighter`]s, the
//! morale and initiative [`Group`]s, the encounter's set-up and the DM's [`Options`].

use crate::content::{ClassGroup, MonsterAttack, Spell, Tables, Weapon};
use fray_core::damage::DamageDice;
use fray_core::{CombatantId, Occupancy, Pos, Roster, SideId, Standing};
use std::sync::Arc;

/// One attack form: a weapon, or a monster's natural attack.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Form {
    /// Its name.
    pub name: String,
    /// Damage dice.
    pub damage: DamageDice,
    /// The weapon, when it is one.
    pub weapon: Option<Weapon>,
    /// Large horns or tusks (ODD-R26.10).
    pub horns: bool,
}

impl Form {
    /// A weapon's form.
    pub fn of_weapon(w: &Weapon) -> Form {
        Form {
            name: w.name.clone(),
            damage: w.damage,
            weapon: Some(w.clone()),
            horns: false,
        }
    }
    /// A monster's attack.
    pub fn of_attack(a: &MonsterAttack) -> Form {
        Form {
            name: a.name.clone(),
            damage: a.damage,
            weapon: a.weapon.clone(),
            horns: a.horns,
        }
    }
    /// One-handed weapon (natural attacks count as one-handed).
    pub fn one_handed(&self) -> bool {
        self.weapon.as_ref().is_none_or(|w| w.hands == 1)
    }
}

/// What a combatant is, fixed for the fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Profile {
    /// Class group (monsters: [`ClassGroup::Monster`]).
    pub group: ClassGroup,
    /// A character (PC or important NPC: rolls its own initiative, never checks morale).
    pub character: bool,
    /// XP level, or hit dice for monsters.
    pub level: i32,
    /// The "+" of a monster's hit dice.
    pub plus: i32,
    /// Counts as a Normal Man (ODD-R10, ODD-A6).
    pub normal_man: bool,
    /// AC of armour or hide (descending), before shield and DEX.
    pub ac: i32,
    /// Shield bonus (AC points).
    pub shield: i32,
    /// DEX bonus to AC.
    pub dex_ac: i32,
    /// STR score.
    pub str_score: i32,
    /// STR bonus.
    pub str_bonus: i32,
    /// DEX bonus.
    pub dex_bonus: i32,
    /// PSY bonus.
    pub psy_bonus: i32,
    /// Fights as a swashbuckler (DEX instead of STR, ODD-R7).
    pub swashbuckler: bool,
    /// Matrix: roll needed against AC 9.
    pub attack_ac9: i32,
    /// Save vs Paralysis target.
    pub paralysis: i32,
    /// Melee attack routine.
    pub melee: Vec<Form>,
    /// Missile weapon.
    pub missile: Option<Weapon>,
    /// Missile kinds fired on the run (ODD-R16.3, R16.4).
    pub fire_on_run: Vec<crate::content::WeaponKind>,
    /// Movement per Turn, inches.
    pub move_in: i32,
    /// Morale score (ODD-A27).
    pub morale: i32,
    /// Tagged leader (ODD-A29).
    pub leader: bool,
    /// Hit points at full health (a unit: its rolled total; 0 = roll at the start).
    pub max_hp: i32,
    /// Men in a mass-combat unit (ODD-R31.1); 1 for a single combatant.
    pub figures: u32,
    /// Has a magic or silver weapon.
    pub magic_weapon: bool,
    /// Only magic or silver weapons hit it.
    pub needs_magic: bool,
    /// Florentine fighting (ODD-R21).
    pub florentine: bool,
    /// Mounted (ODD-R18.1).
    pub mounted: bool,
    /// Large (lance damage 3D6, ODD-R26.8).
    pub large: bool,
    /// Bigger than an ogre: no whip entangles it (ODD-R14.1).
    pub huge: bool,
    /// Special attack on a natural roll of at least this (ODD-R12.4).
    pub special: Option<crate::content::Special>,
    /// Weapon tags that work best against it (ODD-R13).
    pub weak_to: Vec<String>,
    /// Intelligent: it stops for flung treasure, not for food (ODD-R30.4).
    pub intelligent: bool,
    /// Spells known.
    pub spells: Vec<Spell>,
    /// Its bare hands, when disarmed (ODD-R25.2, R27).
    pub unarmed: Option<Form>,
    /// Its second weapon when fighting Florentine (ODD-R21.2).
    pub offhand: Option<Form>,
    /// Fights from higher ground (ODD-R18.2).
    pub high_ground: bool,
    /// Magically hasted: twice the movement, and acts before all who are not (ODD-R4.5).
    pub hasted: bool,
    /// Cover against attacks on it, in percent: 25, 50 or 75 (ODD-R9).
    pub cover: i32,
    /// Its back to a wall: it faces all its attackers, who get no +1 for surrounding it
    /// (ODD-R19.2, ODD-G8).
    pub back_to_wall: bool,
    /// How many can attack it in melee in one round (ODD-R19.1: 6 around a human-sized
    /// character; more or fewer for larger or smaller creatures, ODD-G8).
    pub surround: u8,
}

impl Profile {
    /// Reach class of its melee weapon; natural attacks 2, a large creature's 4 (ODD-R20).
    pub fn reach(&self) -> i32 {
        let natural = if self.large { 4 } else { 2 };
        self.melee
            .first()
            .and_then(|f| f.weapon.as_ref())
            .map_or(natural, |w| w.reach)
    }
    /// The attacks it can make in a tight space, as inside a swallower: daggers (ODD-R13).
    pub fn tight_space_forms(&self) -> impl Iterator<Item = &Form> {
        self.melee
            .iter()
            .chain(self.offhand.iter())
            .filter(|f| f.weapon.as_ref().is_some_and(|w| w.has("dagger")))
    }
    /// A fighter-type (ODD-R7).
    pub fn fighter_type(&self) -> bool {
        self.group == ClassGroup::Fighter
    }
    /// XP level or HD, for fumbles and saves.
    pub fn level_or_hd(&self) -> i32 {
        self.level
    }
    /// A mass-combat unit.
    pub fn is_unit(&self) -> bool {
        self.figures > 1
    }
}

/// What a combatant plans for the round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Round {
    /// Has taken its action (or its first-slot attacks).
    pub acted: bool,
    /// Attacks kept for the end of the round (ODD-R4.6, ODD-A8).
    pub last_attacks: u8,
    /// Parrying: AC 2 better (ODD-R24).
    pub parry: bool,
    /// Withdrawing: AC 2 better (ODD-R17.2).
    pub withdrawing: bool,
    /// Charged this round: no DEX to AC (ODD-R26.4).
    pub charging: bool,
    /// Moved this round (DEX to AC, ODD-R6.2).
    pub moved: bool,
    /// The foes it has used its shield against this round (ODD-R19.3).
    pub shield_used: [Option<CombatantId>; 2],
    /// A spell it is casting this round: spell index and target.
    pub casting: Option<(u8, CombatantId)>,
    /// Hit and damaged by a foe that acted before it (ODD-R29.2).
    pub hit_earlier: bool,
    /// Hit and damaged by a foe on its own count (ODD-R29.1).
    pub hit_same_count: bool,
    /// The action chosen in the first slot, kept for its own count (ODD-A32).
    pub planned: Option<crate::Choice>,
}

/// What changes during the fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fighter {
    /// Its side.
    pub side: SideId,
    /// Its square.
    pub pos: Pos,
    /// The way it faces (flanks and rear, ODD-R22, R23).
    pub facing: fray_core::grid::Direction,
    /// The way it turns to at the end of this moment (it faced the foe it attacked): the
    /// others acting at the same moment see its facing from the moment's start.
    pub turn_to: Option<fray_core::grid::Direction>,
    /// Hit points (a unit: its hit-point total).
    pub hp: i32,
    /// Hit points at full health.
    pub max_hp: i32,
    /// Dead (a unit: slain to a man).
    pub dead: bool,
    /// Gone from the fight without falling (fled, surrendered, captured).
    pub gone: Option<Standing>,
    /// Its morale and initiative group (index into [`State::groups`]).
    pub group: u16,
    /// Its own initiative roll (characters) or its group's.
    pub initiative: i32,
    /// Has charged this encounter (once per Turn, ODD-R26.3).
    pub charged: bool,
    /// The round its crossbow last fired (ODD-R8.3).
    pub shot_round: Option<u32>,
    /// Caught by a faster pursuer: attacked at +2 (ODD-R30.8).
    pub caught: bool,
    /// Spells left to cast, by index into its profile's spells.
    pub spells_left: Vec<u8>,
    /// This round's plan and marks.
    pub round: Round,
    /// Damage dealt.
    pub dealt: i32,
    /// Damage taken.
    pub taken: i32,
    /// Temporary (subdual) damage (ODD-R27).
    pub temp: i32,
    /// Empty-hand damage rolls made on each target (ODD-A16): (target, rolls).
    pub punches: Vec<(CombatantId, u32)>,
    /// Lost its weapon (ODD-R14, R25.2): fights with its bare hands.
    pub disarmed: bool,
    /// Pulled off its mount (ODD-R25.1).
    pub dismounted: bool,
    /// Knocked off its feet, by the rule that did it (a whip ODD-R14, a special attack
    /// ODD-R12.4): its next action is spent getting up.
    pub knocked_down: Option<&'static str>,
    /// Swallowed whole by this foe (ODD-R12.4): it fights only that foe, with a dagger (ODD-R13).
    pub swallowed_by: Option<CombatantId>,
    /// Stunned until the end of this round (ODD-R28.3).
    pub stunned_until: u32,
    /// Pinned helplessly by these grapplers (ODD-R28.3, ODD-A21).
    pub pinned_by: Vec<CombatantId>,
    /// Struggling in a grapple this round: it cannot use its weapon (ODD-R28.3).
    pub struggling: bool,
    /// Attacked from behind: by whom and in which round (ODD-R23.1, R23.2).
    pub from_behind: Vec<(CombatantId, u32)>,
    /// Who attacked it in melee, and in which round (the current one only, ODD-R19.1).
    pub melee_attackers: Vec<(CombatantId, u32)>,
}

impl Fighter {
    /// ODD-R19.1: whether `by` may attack it in melee in round `round`: it is one of its
    /// attackers already, or fewer than `surround` have attacked it.
    pub fn room_for(&self, by: CombatantId, round: u32, surround: u8) -> bool {
        let mut now = self.melee_attackers.iter().filter(|&&(_, r)| r == round);
        let count = now.clone().count();
        count < usize::from(surround) || now.any(|&(o, _)| o == by)
    }
    /// Attacked from behind by `by` in round `round` (ODD-R23.1).
    pub fn behind_by(&self, by: CombatantId, round: u32) -> bool {
        self.from_behind.contains(&(by, round))
    }
    /// Still able to fight: alive, conscious and present.
    pub fn is_up(&self) -> bool {
        self.hp > 0 && self.temp < self.hp && !self.dead && self.gone.is_none()
    }
}

/// A morale and initiative group: a `[[combatants]]` entry (ODD-R4.1, ODD-R5.3).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Group {
    /// Its key (the entry's id).
    pub key: String,
    /// Its side.
    pub side: SideId,
    /// Its members, in roster order.
    pub members: Vec<CombatantId>,
    /// It checks morale (monsters; PC-side hirelings by option, ODD-A33).
    pub checks_morale: bool,
    /// It rolls one initiative die for all (DM groups).
    pub one_die: bool,
    /// Its morale score.
    pub morale: i32,
    /// Morale checks passed (ODD-R5.2).
    pub passes: u8,
    /// Checks done: start, first death, half down.
    pub started: bool,
    /// The first-death check is done.
    pub first_death: bool,
    /// The 50% check is done.
    pub half_down: bool,
    /// A big upset waits for its check (a leader fell, ODD-A29).
    pub upset: bool,
    /// Failed morale: its members run away (ODD-R5.6).
    pub routed: bool,
}

impl Group {
    /// Fights to the death (two passes, ODD-R5.2).
    pub fn fearless(&self) -> bool {
        self.passes >= 2
    }
}

/// Per-side surprise values (ODD-R2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stealth {
    /// Surprises others on 1..=this.
    pub surprises_on: i32,
    /// Is surprised on 1..=this.
    pub surprised_on: i32,
}

impl Default for Stealth {
    fn default() -> Self {
        Stealth {
            surprises_on: 2,
            surprised_on: 2,
        }
    }
}

/// The encounter's set-up (ODD-R1 to R3).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Setup {
    /// Surprise is possible (ODD-G1).
    pub surprise: bool,
    /// Each side's surprise values.
    pub stealth: Vec<Stealth>,
    /// Outdoors: distances in yards (ODD-R3.1).
    pub outdoors: bool,
    /// The distance between the groups, if known (ft or yd); rolled otherwise.
    pub distance: Option<i32>,
    /// The side whose reaction is uncertain (ODD-R3.2).
    pub reaction: Option<SideId>,
    /// A start-of-conflict morale check (ODD-R5.4a).
    pub morale_at_start: bool,
}

/// The DM's toggles (ODD-A*, ODD-G*).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Options {
    /// Re-roll initiative every round (ODD-R4.3, ODD-A9; default off).
    pub reroll_initiative: bool,
    /// One initiative die for each side's characters (ODD-R4.3; default off).
    pub party_initiative: bool,
    /// PC-side non-character groups check morale too (ODD-A33; default off).
    pub hireling_morale: bool,
    /// Every character, not only fighter-types, gets level attacks against Normal Men (ODD-A6).
    pub all_characters_multiattack: bool,
    /// Critical hit damage multiplier (ODD-A10; default 2).
    pub critical_multiplier: i32,
    /// The fall of a leader is a big upset (ODD-A29; default on).
    pub leader_upset: bool,
    /// Feet per inch of movement (ODD-A19; default 10).
    pub inch_ft: i32,
    /// Least damage of a hit before the natural-20 reduction (default 1).
    pub min_damage: i32,
    /// Mass combat: the round body of ODD-R31 (default off).
    pub mass: bool,
    /// A unit's ×N is its men still alive rather than its original size (ODD-A37 toggle).
    pub multiplier_alive: bool,
    /// Reach classes that make a "sufficient reach advantage" (ODD-R20, ODD-G9; default 2).
    pub reach_advantage: i32,
    /// The Normal Men shortcut: a fighter's attacks against Normal Men become expected kills,
    /// no dice (ODD-R10.3, ODD-G5; default off).
    pub shortcut: bool,
    /// Minutes in a melee round (ODD-A19; default 1): ten make a Turn, when temporary damage
    /// is regained (ODD-R27.3).
    pub round_minutes: u32,
    /// To hit with a weapon a foe is weak to (ODD-R13, ODD-G13: blunt against skeletons). The
    /// seed gives no number ("DM adjudication tags, not numeric rules"), so it is 0 until the
    /// DM sets one.
    pub utility_bonus: i32,
    /// What lies between a quarry and faster pursuing monsters, when the DM fixes it for the
    /// fight (ODD-R30.3, R30.5); `None`: the DM rules each chase (a choice).
    pub pursuit_between: Option<crate::choice::Between>,
    /// Missiles shot into a melee may hit a friend (ODD-A25, a DM hook; default off).
    pub friendly_fire: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            reroll_initiative: false,
            party_initiative: false,
            hireling_morale: false,
            all_characters_multiattack: false,
            critical_multiplier: 2,
            leader_upset: true,
            inch_ft: 10,
            min_damage: 1,
            mass: false,
            multiplier_alive: false,
            reach_advantage: 2,
            utility_bonus: 0,
            round_minutes: 1,
            shortcut: false,
            pursuit_between: None,
            friendly_fire: false,
        }
    }
}

/// Which side surprised which in the encounter (ODD-R2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Surprise {
    /// Nobody (or both: they cancel).
    #[default]
    None,
    /// These sides were surprised (a bit set by side index).
    Surprised(u32),
}

/// The whole fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Names.
    pub roster: Roster,
    /// Fixed profiles.
    pub profiles: Arc<Vec<Profile>>,
    /// Changing fighters.
    pub fighters: Vec<Fighter>,
    /// Groups.
    pub groups: Vec<Group>,
    /// The occupancy index.
    pub occupancy: Occupancy,
    /// The DM's options.
    pub options: Options,
    /// The encounter set-up.
    pub setup: Setup,
    /// The DM's tables.
    pub tables: Arc<Tables>,
    /// Who was surprised.
    pub surprise: Surprise,
    /// The distance between the groups (ft or yd).
    pub distance: i32,
    /// Round number (0: the surprise round).
    pub round: u32,
    /// Initiative rolled.
    pub initiative_rolled: bool,
    /// The combatant a pending request is about.
    pub asking: Option<CombatantId>,
    /// Slot of the round being played (first, count, last).
    pub slot: Slot,
    /// Attacks against Normal Men go on after a target fell: only those in melee may be chosen.
    pub pressing: bool,
    /// The reaction rolled (ODD-R3.2), for the DM's ruling.
    pub reaction: Option<crate::content::Reaction>,
    /// Grapples that hit this count: (target, grappler) (ODD-R28.1).
    pub grapples: Vec<(CombatantId, CombatantId)>,
    /// Initiative is rolled again at the next round (ODD-R28.4).
    pub reroll_next: bool,
    /// The charger a spear may be set against now (ODD-R26.6).
    pub set_against: Option<CombatantId>,
    /// The quarry a character is asked whether to pursue now (ODD-R30.1).
    pub pursuing: Option<CombatantId>,
    /// The lure a fleeing quarry may throw down now: food (true) or treasure (ODD-R30.4).
    pub lure: Option<bool>,
    /// Things on the field an axe may chop (`[[objects]]`: hawsers, wooden doors, ODD-R13).
    pub objects: Arc<Vec<Object>>,
    /// The objects chopped through, a bit by index (the DM's ruling, ODD-R13).
    pub chopped: u64,
    /// Where the round stands paused at a settled point of exact odds
    /// (`rules::round::round_step`); [`Paused::No`] outside one.
    pub paused: Paused,
}

/// What is left of a round paused at a settled point inside it (`rules::round::round_step`):
/// the initiative counts not begun and, on the count being played (`State::slot`), its actors
/// as they stood when it began and how many have taken their turn.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Paused {
    /// Not paused: the round has not begun, or is over.
    #[default]
    No,
    /// After the spell declarations and the fighters' first attacks (ODD-R29, R4.6): these
    /// initiative counts are still to be played, highest first.
    Counts(Vec<i32>),
    /// After a turn on the count `State::slot` names (ODD-R4.1): its actors, in roster order
    /// as they stood when it began (a combatant felled on its count still acts), the first
    /// `taken` of them done; then the counts after it.
    Turns {
        /// The count's actors.
        actors: Vec<CombatantId>,
        /// How many of them have taken their turn.
        taken: usize,
        /// The counts not begun, highest first.
        counts: Vec<i32>,
    },
}

/// A thing on the field that a combatant may `chop` with an axe (ODD-R13: "an axe is good
/// for chopping through hawser lines or wooden doors"). fray has no walls or obstacles: what a
/// chopped-through door or hawser opens or drops is the DM's to play.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Object {
    /// Its key (`chop KEY`).
    pub key: String,
    /// Its name.
    pub name: String,
    /// Its square.
    pub pos: Pos,
}

impl State {
    /// Most objects an encounter may list (the chopped ones are a bit each).
    pub const MAX_OBJECTS: usize = 64;
    /// Whether object `o` has been chopped through (ODD-R13).
    pub fn is_chopped(&self, o: u8) -> bool {
        self.chopped & (1u64 << o) != 0
    }
}

/// Where in the round the fight is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Slot {
    /// Before the round.
    #[default]
    None,
    /// The surprise round (ODD-R2.3).
    Surprise,
    /// Multi-attack fighters' first attacks (ODD-R4.6).
    First,
    /// An initiative count.
    Count(i32),
    /// Multi-attack fighters' last attacks.
    Last,
}

impl State {
    /// A profile.
    pub fn p(&self, id: CombatantId) -> &Profile {
        &self.profiles[id.index()]
    }
    /// A fighter.
    pub fn f(&self, id: CombatantId) -> &Fighter {
        &self.fighters[id.index()]
    }
    /// A fighter, to change.
    pub fn f_mut(&mut self, id: CombatantId) -> &mut Fighter {
        &mut self.fighters[id.index()]
    }
    /// Every id.
    pub fn ids(&self) -> impl Iterator<Item = CombatantId> {
        (0..self.fighters.len() as u16).map(CombatantId)
    }
    /// Moves a combatant, keeping the occupancy index; those it has swallowed go with it:
    /// they are inside it (ODD-R12.4).
    pub fn set_square(&mut self, id: CombatantId, to: Pos) {
        self.fighters[id.index()].pos = to;
        self.occupancy.move_to(id, to);
        for i in 0..self.fighters.len() {
            if self.fighters[i].swallowed_by == Some(id) {
                self.fighters[i].pos = to;
                self.occupancy.move_to(CombatantId(i as u16), to);
            }
        }
    }
    /// Foes?
    pub fn foes(&self, a: CombatantId, b: CombatantId) -> bool {
        self.f(a).side != self.f(b).side
    }
    /// Was this side surprised?
    pub fn side_surprised(&self, side: SideId) -> bool {
        match self.surprise {
            Surprise::None => false,
            Surprise::Surprised(bits) => bits & (1 << side.0) != 0,
        }
    }
    /// Feet per square of the grid.
    pub const SQUARE_FT: i32 = 5;
    /// Full Turn movement in squares.
    pub fn move_squares(&self, id: CombatantId) -> i32 {
        self.move_inches(id) * self.options.inch_ft / Self::SQUARE_FT
    }
    /// Turn movement in inches: twice the rate when hasted (ODD-R4.5).
    pub fn move_inches(&self, id: CombatantId) -> i32 {
        let haste = if self.p(id).hasted { 2 } else { 1 };
        haste * self.p(id).move_in
    }
    /// Its group failed morale: it runs away (ODD-R5.6).
    pub fn routed(&self, id: CombatantId) -> bool {
        self.groups[usize::from(self.f(id).group)].routed
    }
    /// Within melee range (10 ft, ODD-R17.1).
    pub fn in_melee(&self, a: CombatantId, b: CombatantId) -> bool {
        self.options.mass || self.f(a).pos.feet_to(self.f(b).pos) <= 10
    }
    /// Engaged: a standing foe within 10 ft (ODD-R17.1); one swallowed is inside its
    /// swallower and holds no one (ODD-R12.4).
    pub fn engaged(&self, id: CombatantId) -> bool {
        self.ids().any(|o| {
            self.foes(id, o)
                && self.f(o).is_up()
                && self.f(o).swallowed_by.is_none()
                && self.in_melee(id, o)
        })
    }
    /// The end of a moment (an initiative count, a slot): everyone turns to the foe it faced.
    pub fn end_of_moment(&mut self) {
        for f in &mut self.fighters {
            if let Some(d) = f.turn_to.take() {
                f.facing = d;
            }
        }
    }
    /// Men alive in a unit (ODD-R31.6): ceil(hp / (original / N)); a single combatant 1 or 0.
    pub fn men_alive(&self, id: CombatantId) -> u32 {
        let (f, p) = (self.f(id), self.p(id));
        if f.dead || f.hp <= 0 {
            return 0;
        }
        crate::rules::tables::men_alive(f.hp, f.max_hp, p.figures)
    }
}
