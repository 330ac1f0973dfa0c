//! The fight state: fixed profiles (behind an `Arc`), changing fighters, the round's
//! declarations and initiative, the GM's options.

use crate::choice::Action;
use crate::content::{ArmorKind, Size, Spell, Weapon};
use fray_core::board::{Board, Piece};
use fray_core::{CombatantId, Direction, Occupancy, Pos, Roster, SideId, Standing};
use std::sync::Arc;

/// What a combatant is, fixed for the fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Profile {
    /// Attack bonus (class and level, or the monster's).
    pub attack_bonus: i32,
    /// Strength bonus.
    pub str_mod: i32,
    /// Dexterity bonus.
    pub dex_mod: i32,
    /// Constitution score (the running limit, OSR-R13.2).
    pub con: i32,
    /// AC from armour, shield, Dexterity and magic.
    pub ac: i32,
    /// Touch AC: 10 + Dexterity bonus (OSR-A19).
    pub touch_ac: i32,
    /// Hit points at full health.
    pub max_hp: i32,
    /// Encounter movement in feet per round.
    pub movement: i32,
    /// Size.
    pub size: Size,
    /// An elf (surprised on 15).
    pub elf: bool,
    /// Save vs death ray.
    pub save_death: i32,
    /// Save vs spells.
    pub save_spells: i32,
    /// Melee attack forms: a character's weapon, or a monster's routine (all on one action).
    pub melee: Vec<Weapon>,
    /// A monster's routine: every form on its action (OSR-R7.3).
    pub routine: bool,
    /// A smaller second weapon (two-weapon style, OSR-R29).
    pub offhand: Option<Weapon>,
    /// A missile weapon.
    pub missile: Option<Weapon>,
    /// Armour worn.
    pub armor: ArmorKind,
    /// Spells known (one cast per round, as many times as `spell_uses`).
    pub spells: Vec<Spell>,
    /// Undead.
    pub undead: bool,
    /// Fire-resistant.
    pub fire_resistant: bool,
    /// May charge with natural attacks (OSR-A13).
    pub charges: bool,
    /// Modifier to the critical special roll (OSR-A5).
    pub crit_bonus: i32,
    /// Magic or silver needed to hurt it (OSR-R17.1, OSR-G11).
    pub needs_magic: bool,
    /// Its weapons are magic or silver.
    pub magic_weapon: bool,
    /// A monster (no class).
    pub monster: bool,
}

/// The round's declaration and initiative of one combatant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Plan {
    /// Its declared action (OSR-R3).
    pub action: Action,
    /// Then a move toward this square with the movement left (OSR-R6.1), for actions that do
    /// not carry their own.
    pub then: Option<Pos>,
    /// Its initiative this round (OSR-R4).
    pub initiative: i32,
    /// Has it acted (or lost its action) this round.
    pub done: bool,
    /// Its action was moved to another number (interception, set, OSR-R12, OSR-R15).
    pub moved_to: Option<i32>,
}

/// A combatant as it changes during the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fighter {
    /// Side.
    pub side: SideId,
    /// Square. Change it only with [`State::set_square`].
    pub pos: Pos,
    /// Facing (the last direction it moved or struck).
    pub facing: Direction,
    /// Hit points.
    pub hp: i32,
    /// Took some non-lethal damage this fight (OSR-R30.2, OSR-A56).
    pub nonlethal: bool,
    /// Unconscious (knocked out, OSR-R30.2).
    pub down: bool,
    /// Dead.
    pub dead: bool,
    /// Ran away out of the fight (OSR-R13, OSR-A51).
    pub fled: bool,
    /// Held in reserve off the map until the GM brings it in (`reserve = true`, `add`).
    pub reserve: bool,
    /// Surprised in round 1 (OSR-R2.4).
    pub surprised: bool,
    /// This round's plan.
    pub plan: Plan,
    /// Parrying and dodging this round: +2 AC (OSR-R9).
    pub dodging: bool,
    /// Charged this round: −2 AC from the charge on (OSR-R14.4).
    pub charging: bool,
    /// Attacked while casting this round (OSR-R28.3).
    pub attacked_casting: bool,
    /// Shaken until the end of this round (OSR-R17.4).
    pub shaken_until: u32,
    /// Blinded until the end of this round.
    pub blinded_until: u32,
    /// Prone until it stands.
    pub prone: bool,
    /// Its weapon was knocked away (until recovered).
    pub disarmed: bool,
    /// Its weapon broke (OSR-R18).
    pub broken: bool,
    /// Its weapon was taken by the creature holding it (OSR-R32.3): it cannot recover it.
    pub weapon_taken: bool,
    /// No attack in this round (a fumble's "no attack next round").
    pub no_attack_round: u32,
    /// −1 to combat rolls until the end of this round (stumble).
    pub stumble_until: u32,
    /// … from the start of this round (the round after the fumble, OSR-A43).
    pub stumble_from: u32,
    /// Reloading its crossbow until the end of this round (OSR-R23).
    pub reloading_until: u32,
    /// Rounds run (OSR-R13.2).
    pub rounds_run: u32,
    /// Fatigued: may only walk (OSR-R13.2).
    pub fatigued: bool,
    /// The foe it holds in a grapple (OSR-R32).
    pub holding: Option<CombatantId>,
    /// The foe holding it.
    pub held_by: Option<CombatantId>,
    /// Kept from speaking by its holder (OSR-R32.3).
    pub silenced: bool,
    /// Burning oil: the second 1d8 lands at the end of this round (OSR-R25.2).
    pub burning_round: u32,
    /// The last round it stood in or moved through burning oil on the ground (OSR-R25.5).
    pub ground_fire_round: u32,
    /// Flasks of oil carried.
    pub oil: u8,
    /// Loaded crossbows carried besides the one in hand (OSR-R23.5).
    pub spare_loaded: u8,
    /// Tending a knocked-out friend (OSR-R30.3, OSR-A15).
    pub tending: Option<Tending>,
    /// Oil flasks with a fuse or wick (splash, OSR-R25.3).
    pub fused: bool,
    /// Flasks of holy water carried.
    pub holy_water: u8,
    /// Cover or concealment in percent (25, 50, 75, 90), OSR-R22.
    pub cover: u8,
    /// Concealment only (affects melee too) rather than cover.
    pub concealed: bool,
    /// The condition chart's lines (bit `d4 − 1`, OSR-R17.4) that criticals gave it on the
    /// current number, taking hold as the number ends (simultaneity, OSR-A32).
    pub pending: u8,
    /// … lasting until this round.
    pub pending_until: u32,
    /// Already made its move on the current number, stepping along with the others acting on
    /// it (OSR-R4.3, OSR-A32).
    pub moved_on_number: bool,
    /// Feet moved on the current number (split movement, OSR-R6.1).
    pub moved_feet: i32,
    /// Damage dealt to foes.
    pub dealt: i32,
    /// Damage taken.
    pub taken: i32,
}

/// A helper's tending of a knocked-out friend (OSR-R30.3, OSR-A15): `needed` rounds (2d10),
/// `done` so far, the last in round `last`; a round missed starts it over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tending {
    /// The friend.
    pub who: CombatantId,
    /// Rounds needed (the 2d10 roll).
    pub needed: u32,
    /// Rounds of tending done.
    pub done: u32,
    /// The round of the last tending.
    pub last: u32,
}

impl Fighter {
    /// A fighter on `side` at `pos`, facing east, with `hp` hit points and nothing else: no
    /// condition, plan, gear count or record yet.
    pub fn fresh(side: SideId, pos: Pos, hp: i32) -> Fighter {
        Fighter {
            side,
            pos,
            facing: Direction::East,
            hp,
            nonlethal: false,
            down: false,
            dead: false,
            fled: false,
            reserve: false,
            surprised: false,
            plan: Plan::default(),
            dodging: false,
            charging: false,
            attacked_casting: false,
            shaken_until: 0,
            blinded_until: 0,
            prone: false,
            disarmed: false,
            weapon_taken: false,
            broken: false,
            no_attack_round: 0,
            stumble_until: 0,
            stumble_from: 0,
            reloading_until: 0,
            rounds_run: 0,
            fatigued: false,
            holding: None,
            held_by: None,
            silenced: false,
            burning_round: 0,
            ground_fire_round: 0,
            oil: 0,
            spare_loaded: 0,
            tending: None,
            fused: false,
            holy_water: 0,
            cover: 0,
            concealed: false,
            pending: 0,
            pending_until: 0,
            moved_on_number: false,
            moved_feet: 0,
            dealt: 0,
            taken: 0,
        }
    }

    /// Stumbling in `round`: −1 to attack, damage and initiative (OSR-R18.1, OSR-A10, A43).
    pub fn stumbling(&self, round: u32) -> bool {
        self.stumble_from <= round && round <= self.stumble_until && self.stumble_until > 0
    }

    /// Still fighting.
    pub fn is_up(&self) -> bool {
        !self.down && !self.dead && !self.fled && !self.reserve
    }

    /// On the map: neither dead, fled nor held in reserve (a body still fills its square).
    pub fn on_map(&self) -> bool {
        !self.dead && !self.fled && !self.reserve
    }
}

/// The GM's options and the seed's toggles (OSR-G*, `[options]`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Options {
    /// Roll initiative once for the whole fight rather than every round (OSR-A2 toggle).
    pub initiative_once: bool,
    /// Surprise as a save: surprised if the roll is under the DC (OSR-A1 toggle).
    pub surprise_save: bool,
    /// Missiles that miss into a melee may hit allies (OSR-R27, OSR-G4).
    pub stray_missiles: bool,
    /// Charges are allowed at all (OSR-G2).
    pub charges: bool,
    /// Monsters may be knocked out by non-lethal damage (OSR-A58).
    pub knockout_monsters: bool,
    /// Kicks deal lethal damage and add no Strength (OSR-A18 toggle).
    pub kick_lethal: bool,
    /// Rounds a crit's Shaken and Blinded last, this one included (OSR-A6: 2).
    pub condition_rounds: u32,
    /// Crossbows start loaded (OSR-A47).
    pub crossbows_loaded: bool,
    /// A fused flask's direct target takes only the splash (OSR-A49 toggle).
    pub fused_direct_splash_only: bool,
    /// The directly hit undead also takes holy water's splash (OSR-A50).
    pub holy_direct_splash: bool,
    /// A combatant that runs away leaves the fight (OSR-A51 reading).
    pub run_away_leaves: bool,
    /// A caster attacked while casting saves vs death ray instead of vs spells (OSR-A12's
    /// "GM-configurable" category, OSR-G8).
    pub disruption_vs_death: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            initiative_once: false,
            surprise_save: false,
            stray_missiles: true,
            charges: true,
            knockout_monsters: true,
            kick_lethal: false,
            condition_rounds: 2,
            crossbows_loaded: true,
            fused_direct_splash_only: false,
            holy_direct_splash: true,
            run_away_leaves: true,
            disruption_vs_death: false,
        }
    }
}

/// Surprise as the GM sets it (OSR-R2, OSR-G1).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Surprise {
    /// The sides that might be surprised (each rolls one d20).
    pub sides: Vec<SideId>,
    /// The sides well hidden and prepared to ambush (+3 to the others' roll).
    pub ambushers: Vec<SideId>,
}

/// The question pending (requests carry no payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Asking {
    /// A combatant's declaration.
    Declaration(CombatantId),
    /// A parting shot at a mover (OSR-R16.1).
    PartingShot {
        /// Who may take it.
        by: CombatantId,
        /// At whom.
        at: CombatantId,
    },
    /// An interception of a closing foe (OSR-R12).
    Intercept {
        /// Who may intercept.
        by: CombatantId,
        /// The closer.
        at: CombatantId,
    },
    /// The free attack of a sloppy fumble (OSR-R18).
    FreeAttack {
        /// Who may take it.
        by: CombatantId,
        /// At whom.
        at: CombatantId,
    },
    /// A new target for a declared action whose target is gone (OSR-A33).
    Retarget {
        /// Whose action.
        who: CombatantId,
    },
    /// The GM's ruling: is the holder strong enough to move the creature it holds (OSR-R32.3)?
    StrongEnough {
        /// The holder.
        holder: CombatantId,
        /// The creature held.
        held: CombatantId,
    },
}

/// A settled point inside a round at which the round stands paused, for exact odds
/// (`rules::round::round_step`): what is left of the countdown (OSR-R5). Ordinary play goes
/// through these points without stopping; between rounds the round is not paused.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Paused {
    /// Not paused: the next step starts a round.
    #[default]
    No,
    /// In the countdown (OSR-R5): declared and initiative rolled, or after an action on the
    /// number being resolved (`State::number`).
    Countdown {
        /// The numbers not yet begun, highest first.
        numbers: Vec<i32>,
        /// The combatants acting on the current number who have not yet been taken, in order
        /// (each still checked, as it comes, for having acted and for standing when the number
        /// began).
        actors: Vec<CombatantId>,
    },
    /// After the countdown: held sets that no charge came for act (OSR-A39), looked at from
    /// this combatant on.
    Held(u16),
}

/// The whole fight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Names.
    pub roster: Roster,
    /// Fixed profiles.
    pub profiles: Arc<Vec<Profile>>,
    /// Changing fighters.
    pub fighters: Vec<Fighter>,
    /// Occupancy index.
    pub occupancy: Occupancy,
    /// Options.
    pub options: Options,
    /// Surprise, if possible.
    pub surprise: Option<Surprise>,
    /// The round being played.
    pub round: u32,
    /// The initiative number being resolved.
    pub number: i32,
    /// Who stood at the start of the current number (simultaneity, OSR-A32), during the
    /// countdown only: empty before it and after its last number.
    pub up_at_number: Vec<bool>,
    /// Oil burning on the ground (OSR-R25.5).
    pub areas: fray_core::Areas,
    /// The pending question.
    pub asking: Option<Asking>,
    /// Where the round stands paused, at a settled point inside it (exact odds only).
    pub paused: Paused,
    /// Playing one attack alone for `fray odds`: a fumble's free attack by the target (another
    /// attack, which could fumble in turn) is not played.
    pub single: bool,
}

impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.fighters.hash(h);
        self.round.hash(h);
        self.number.hash(h);
        self.asking.hash(h);
        self.paused.hash(h);
    }
}

impl State {
    /// A fighter.
    pub fn f(&self, id: CombatantId) -> &Fighter {
        &self.fighters[id.index()]
    }

    /// Someone in the fight knows a spell that heals by an amount (OSR-R8.1): only then are a
    /// knocked-out combatant's hit points read again.
    pub fn heals(&self) -> bool {
        self.profiles.iter().any(|p| {
            p.spells
                .iter()
                .any(|s| matches!(s.effect, crate::content::SpellEffect::Heal(_)))
        })
    }

    /// Stood when the number being resolved began (simultaneity, OSR-A32): false outside the
    /// countdown.
    pub fn stood_at_number(&self, id: CombatantId) -> bool {
        self.up_at_number.get(id.index()) == Some(&true)
    }

    /// A fighter, to change.
    pub fn f_mut(&mut self, id: CombatantId) -> &mut Fighter {
        &mut self.fighters[id.index()]
    }
    /// A profile.
    pub fn p(&self, id: CombatantId) -> &Profile {
        &self.profiles[id.index()]
    }
    /// Every id.
    pub fn ids(&self) -> impl Iterator<Item = CombatantId> {
        (0..self.fighters.len() as u16).map(CombatantId)
    }
    /// Puts `id` on `to`, keeping the occupancy index (the only way squares change).
    pub fn set_square(&mut self, id: CombatantId, to: Pos) {
        self.fighters[id.index()].pos = to;
        self.occupancy.move_to(id, to);
        // OSR-R25.5: moving through burning ground counts as much as standing in it.
        if !self.areas.is_empty() && self.areas.covering(to).next().is_some() {
            self.fighters[id.index()].ground_fire_round = self.round;
        }
    }
    /// Foes of `id`.
    pub fn foes(&self, id: CombatantId, a: CombatantId) -> bool {
        self.f(id).side != self.f(a).side
    }
    /// Standing foes of `id` adjacent to it (within 5 ft), by id.
    pub fn adjacent_foes(&self, id: CombatantId) -> Vec<CombatantId> {
        let me = self.f(id);
        let mut out = Vec::new();
        self.occupancy.each_within(me.pos, 1, |o, _| {
            let f = self.f(o);
            if f.side != me.side && f.is_up() {
                out.push(o);
            }
        });
        out.sort_unstable();
        out.dedup();
        out
    }
    /// Is `pos` free for `who` to end a move on?
    pub fn free(&self, pos: Pos, who: CombatantId) -> bool {
        self.square_free(pos, who)
    }
}

impl Board for State {
    fn combatant_count(&self) -> usize {
        self.fighters.len()
    }
    /// Everyone still on the map blocks its square (the fallen too: a body fills it); the fled
    /// and those held in reserve do not.
    fn piece(&self, who: CombatantId) -> Piece {
        let f = self.f(who);
        Piece::new(f.side, f.pos, f.is_up(), f.on_map())
    }
    fn standing(&self, who: CombatantId) -> Standing {
        let f = self.f(who);
        if f.reserve {
            Standing::Reserve
        } else if f.fled {
            Standing::Fled
        } else if f.dead {
            Standing::Dead
        } else if f.down {
            Standing::Down
        } else {
            Standing::Up
        }
    }
    fn occupancy(&self) -> &Occupancy {
        &self.occupancy
    }
}
