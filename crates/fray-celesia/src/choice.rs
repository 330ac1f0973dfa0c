//! Choices in a Legends of Celesia fight and their canonical text: the actions of a turn (one
//! asked per act while acts remain), reactions (attacks of opportunity) and the victim's
//! crippling-injury choice.

use crate::rules::animal::Trick as AnimalTrick;
use crate::rules::belonging::Belonging;
use crate::rules::magus::Defensively;
use crate::rules::ready::{Readied, Trigger};
use crate::state::{HoldUse, Injury, Item, Special, State, Trick};
use fray_core::conditions::ConditionKind;
use fray_core::protocol::{Illegal, Question};
use fray_core::{CombatantId, Direction, Pos};

/// One choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Attack, Melee / Natural with the numbered melee form (simple, 1 act). [CEL-R9]
    Attack(CombatantId, u8),
    /// Attack, Ranged (simple, 1 act). [CEL-R9, R7]
    Shoot(CombatantId),
    /// Attack, Unarmed (simple, 1 act; provokes from an armed target). [CEL-R8]
    Unarmed(CombatantId),
    /// Move toward a foe, up to speed (simple, 1 act, Provoke). [CEL-R9 Move]
    Approach(CombatantId),
    /// Move to a square within speed (simple, 1 act, Provoke). [CEL-R9 Move]
    MoveTo(Pos),
    /// Step 5 ft (simple, 1 act, no provoke). [CEL-R9 Step]
    Step(Direction),
    /// Charge a foe (standard, 2 acts, Provoke). [CEL-R11 Charge]
    Charge(CombatantId),
    /// Combat Maneuver: Trip (simple, 1 act). [CEL-R10.6]
    Trip(CombatantId),
    /// Combat Maneuver: Bull Rush (simple, 1 act). [CEL-R10.2]
    BullRush(CombatantId),
    /// Combat Maneuver: Disarm (simple, 1 act): the item the foe drops, and the second one it
    /// drops if the check beats its CMD by 10 or more. [CEL-R10.3]
    Disarm(CombatantId, Belonging, Option<Belonging>),
    /// Combat Maneuver: Grapple (standard, 2 acts, Provoke; simple with Improved Grapple).
    /// [CEL-R10.9]
    Grapple(CombatantId),
    /// Combat Maneuver: Grapple, Continued, and what to do if it succeeds (standard; simple
    /// with Improved Grapple; Move adds its act). [CEL-R10.10, R10.11]
    Maintain(HoldUse),
    /// Release the grapple it started (free). [CEL-R10.9]
    Release,
    /// Escape a Grapple, or (`true`) take control of it (simple, 1 act). [CEL-R9]
    Escape(bool),
    /// Combat Maneuver: Overrun through the foe's square (simple, 1 act). [CEL-R10.4]
    Overrun(CombatantId),
    /// Combat Maneuver: Sunder the foe's item, destroying it (`true`) or sparing it at 1 hit
    /// point if its hit points run out (simple, 1 act). [CEL-R10.5]
    Sunder(CombatantId, Item, bool),
    /// Combat Maneuver: Drag the foe in a direction (standard, 2 acts). [CEL-R10.8]
    Drag(CombatantId, Direction),
    /// Combat Maneuver: Reposition the foe toward a square (standard, 2 acts). [CEL-R10.12]
    Reposition(CombatantId, Pos),
    /// Combat Maneuver: Steal the foe's item (standard, 2 acts). [CEL-R10.13]
    Steal(CombatantId, Belonging),
    /// Manipulate an Item: pick up a weapon it dropped (simple, 1 act, Provoke). [CEL-R9]
    PickUp(Item),
    /// Manipulate an Item: pick up an item (not a weapon) it dropped, its place in
    /// `State::gear_book` (simple, 1 act, Provoke). [CEL-R9, R10.3]
    PickUpGear(u8),
    /// Manipulate an Item: pick up a rope it dropped (simple, 1 act, Provoke). [CEL-R9,
    /// R10.3, R10.10]
    PickUpRope,
    /// Mount a Steed (simple, 1 act, Provoke). [CEL-R9, R21]
    Mount(CombatantId),
    /// Dismount a Steed to a square next to it (simple, 1 act, Provoke). [CEL-R9, R21]
    Dismount(Pos),
    /// Let an overrunning foe pass through (the foe's choice). [CEL-R10.4]
    LetPass,
    /// Stand in the overrunning foe's way: it must make its check. [CEL-R10.4]
    Block,
    /// Coup de Grace with the numbered melee form, dealing nonlethal damage (`true`) or lethal
    /// (full, 3 acts, Provoke). [CEL-R12]
    CoupDeGrace(CombatantId, u8, bool),
    /// Combat Maneuver: Dirty Trick, giving the named condition (standard, 2 acts). [CEL-R10.7]
    DirtyTrick(CombatantId, Trick),
    /// End a dirty trick's condition on itself or an adjacent ally (simple, 1 act, no
    /// provoke). [CEL-R10.7]
    Clear(CombatantId, Trick),
    /// Aid Another: help FRIEND against FOE, on its next attack roll, its DV, its next save
    /// against FOE's spell or its touch DV against FOE's next spell attack (simple, 1 act).
    /// [CEL-R9]
    Aid(CombatantId, CombatantId, crate::rules::aid::AidTo),
    /// Aid Another on FRIEND's next check of a skill (simple, 1 act). [CEL-R9, R6.4]
    AidSkill(CombatantId, crate::rules::aid_check::Skill),
    /// Weakened Attack: −n on the next attack roll, −2n on its damage (free). [CEL-R16.11]
    Weaken(u8),
    /// Cleave: after a melee hit, a free melee attack on a foe next to the one hit. [CEL-R16.1]
    Cleave(CombatantId),
    /// Run to a square within 4 × speed (full, 3 acts, Provoke). [CEL-R12 Run]
    Run(Pos),
    /// Disable Device on the numbered device: every act left this turn, up to the acts it
    /// still needs (complex, Provoke). [CEL-R13]
    Disable(u8),
    /// Total Defense (standard, 2 acts). [CEL-R11]
    TotalDefense,
    /// Fighting Defensively (free, at the start of the turn). [CEL-R14]
    Defensive,
    /// Stand Up (simple, 1 act, Provoke). [CEL-R9]
    StandUp,
    /// Drop Prone (free). [CEL-R14]
    DropProne,
    /// Deal nonlethal damage with lethal melee weapons (`Some(true)`), lethal damage with
    /// nonlethal weapons and unarmed strikes (`Some(false)`), at disadvantage on those attacks,
    /// or each weapon's own damage again (`None`); not an action, part of attacking. [CEL-R20.5]
    Deal(Option<bool>),
    /// Use a special attack option until the start of the next turn (free). [CEL-R16]
    Special(Special),
    /// End the turn, leaving the acts unspent.
    End,
    /// Delay the turn, before any action (free). [CEL-R1.7]
    Delay,
    /// End the delay now, after the combatant that just acted. [CEL-R1.7]
    Rejoin,
    /// Keep delaying.
    Wait,
    /// Take the attack of opportunity offered (reaction). [CEL-R15]
    Opportunity(CombatantId),
    /// Let the reaction pass.
    Decline,
    /// Take this crippling injury instead of some damage. [CEL-R18.1]
    Injury(Injury),
    /// Take the damage whole.
    NoInjury,
    /// Mount a Steed as a free action: a DC 20 Ride check, failed, it provokes. [CEL-R9, R21]
    FastMount(CombatantId),
    /// Dismount a Steed as a free action: a DC 20 Ride check, failed, it provokes. [CEL-R9, R21]
    FastDismount(Pos),
    /// Guide the mount with the knees to use both hands this turn (free, DC 5 Ride).
    /// [CEL-R21.4]
    Knees,
    /// Take (`true`) or release its light or one-handed melee weapon in both hands (free, its
    /// own turn; a reading). [CEL-R5.1, R16.6]
    Grip(bool),
    /// Ready a simple action for a trigger; the turn ends at once (simple, 1 act). [CEL-R3.9]
    Ready(Trigger, Readied),
    /// Complete the readied action against the foe that set the trigger off (reaction).
    /// [CEL-R15]
    Complete(CombatantId),
    /// Counterspell the spell the foe is casting (reaction, Provoke). [CEL-R15]
    Counterspell(CombatantId),
    /// Identify the spell the foe is casting (a free action, even off its own turn). [CEL-R14]
    Identify(CombatantId),
    /// Crawl 5 ft while prone (simple, 1 act, Provoke). [CEL-R9]
    Crawl(Direction),
    /// Steady Aim: +4 per act on the next ranged attack (simple, 1 act, Provoke). [CEL-R9]
    SteadyAim,
    /// Drop an Item into its own space (free). [CEL-R14]
    DropItem(Item),
    /// Weakened Attack (a): −n on the next attack's ability damage bonus, not below 0 (free).
    /// [CEL-R16.11]
    WeakenAbility(u8),
    /// Weakened Attack (b): up to n degree-of-success dice of the next attack not rolled
    /// (free). [CEL-R16.11]
    WeakenDegrees(u8),
    /// Move along with the foe just bull-rushed (simple, 1 act, Provoke). [CEL-R10.2]
    Follow,
    /// Combat Maneuver: Overrun along a straight move to a square within speed, through every
    /// foe's space on the way (simple, 1 act). [CEL-R10.4]
    OverrunTo(Pos),
    /// Provide First Aid: a Heal check to stabilize a dying creature next to it (standard,
    /// 2 acts, Provoke). [CEL-R11, R17.7]
    FirstAid(CombatantId),
    /// Treat a Wound: a Heal check to stop the bleeding of a creature next to it or of itself
    /// (standard, 2 acts, Provoke). [CEL-R11]
    TreatWound(CombatantId),
    /// A special attack option at a step below the one BAB gives, where the
    /// `scaling_choose_lower` toggle allows it (free). [CEL-R16, CEL-A20]
    SpecialStep(Special, u8),
    /// Draw a Weapon into free hands (simple, 1 act, Provoke). [CEL-R9]
    Draw(Item),
    /// Sheathe a Weapon, freeing its hands (simple, 1 act, Provoke). [CEL-R9]
    Sheathe(Item),
    /// Cast the numbered spell of `State::spellbook` on a target (or itself), defensively
    /// (`true`, CEL-R14) or not: acts by its casting time, Provoke. [CEL-R9–R13]
    Cast(u8, Option<CombatantId>, bool),
    /// Load its ranged weapon with a bolt, barrel or cartridge (a repeating crossbow: a case);
    /// the acts its weapon's rule gives (Provoke). [CEL-R9, R11, R12, R13]
    Load,
    /// Prepare a Flask of Oil as a Splash Weapon (standard, 2 acts, Provoke). [CEL-R11]
    Prepare,
    /// Multiweapon Fighting: the main-hand form, then the off-hand form, at the foe (simple,
    /// 1 act). [CEL-R9]
    Multiweapon(CombatantId, u8, u8),
    /// Draw two light or one-handed weapons in the time of one (Two-Weapon Fighting). [CEL-R9]
    DrawTwo(Item, Item),
    /// Demoralize a foe within 30 ft with Intimidate (simple, 1 act). [CEL-R9]
    Demoralize(CombatantId),
    /// Feint a foe with Bluff (standard, 2 acts; simple with Improved Feint). [CEL-R11]
    Feint(CombatantId),
    /// Find Tracks with Survival (complex: 3 consecutive acts or the GM's number, Provoke).
    /// [CEL-R13]
    FindTracks,
    /// Recall Knowledge: a Lore check to identify a foe monster and its abilities (simple,
    /// 1 act). [CEL-R9]
    Recall(CombatantId),
    /// Search: a Perception check to find the invisible creatures nearby (simple, 1 act).
    /// [CEL-R9]
    Search,
    /// Handle an Animal: command a trained animal to do a trick it knows, on a foe for
    /// `attack` (simple, 1 act). [CEL-R9]
    Handle(CombatantId, AnimalTrick, Option<CombatantId>),
    /// Push an Animal: command it to do a trick it does not know (full, 3 acts; simple, 1 act,
    /// for an animal companion). [CEL-R12]
    Push(CombatantId, AnimalTrick, Option<CombatantId>),
    /// The GM's ruling: the DC of a check the seed gives none for. [CEL-R9, R13]
    Dc(u8),
    /// The GM's ruling: a demoralized foe is shaken for this many rounds. [CEL-R9]
    Shaken(u8),
    /// The GM's ruling: a demoralized foe suffers nothing. [CEL-R9]
    NoEffect,
    /// The GM's ruling: the next Find Tracks after a lost trail takes this many acts.
    /// [CEL-R13]
    RetryActs(u8),
    /// The GM's ruling: the Critical Hit Deck's card says the critical hit deals normal damage
    /// (`true`: maximized, not multiplied) or not (the usual critical). [CEL-G6, R5.6]
    CritCard(bool),
    /// Escape a Grapple (or, `true`, take control of it), or escape the ropes tying it up, with
    /// an Escape Artist check instead of a combat maneuver check (simple, 1 act). [CEL-R9,
    /// R10.10 Tie Up]
    EscapeArtist(bool),
    /// Drink a Liquid or Apply an Oil: the numbered item of `State::gear_book` (standard,
    /// 2 acts, Provoke). [CEL-R11]
    Drink(u8),
    /// Administer a Potion or Elixir, or Apply an Oil, to an unconscious creature next to it
    /// (full, 3 acts, Provoke). [CEL-R12]
    Administer(u8, CombatantId),
    /// Use a Command Word, Spell Trigger or Spell Completion Item on itself or on a creature
    /// next to it (standard, 2 acts; the spell completion item provokes). [CEL-R11]
    UseItem(u8, Option<CombatantId>),
    /// Manipulate an Item: take the numbered item of `State::gear_book` out of a container on
    /// its person, to hand (simple, 1 act, Provoke). [CEL-R9]
    Retrieve(u8),
    /// Remove the ropes tying up a creature next to it ("the ropes pin the creature until they
    /// are removed"; Manipulate an Item, simple, 1 act, Provoke, a reading). [CEL-R10.10, R9]
    Untie(CombatantId),
    /// Escape from a Net: a DC 20 Escape Artist check (standard, 2 acts, Provoke). [CEL-R11]
    EscapeNet,
    /// Extinguish Flames: another save against the fire at +4 (standard, 2 acts, Provoke).
    /// [CEL-R11]
    Extinguish,
    /// Sleight of Hand: take an item of `State::gear_book` or a rope (`Belonging::Gear`,
    /// `Belonging::Rope`) from the creature next to it (standard, 2 acts, or `true`: simple,
    /// 1 act, at −20; Provoke). [CEL-R11]
    Sleight(Belonging, CombatantId, bool),
    /// About to be placed on a hazardous square: try to free itself from the grapple as a
    /// reaction at +4, by a combat maneuver check or (`true`) Escape Artist. [CEL-R10.10 Move]
    FreeItself(bool),
    /// Ready a Shield: strap it on, gaining its shield bonus to DV (simple, 1 act, Provoke;
    /// free with a Move at BAB +1). [CEL-R9]
    ReadyShield,
    /// Drop a Shield: unstrap and drop it (simple, 1 act, Provoke; free with a Move at
    /// BAB +1). [CEL-R9]
    DropShield,
    /// Manipulate an Item: pick up the shield it dropped, carried (not strapped on) afterwards
    /// (simple, 1 act, Provoke). [CEL-R9]
    PickUpShield,
    /// Lower (`true`) its active spell resistance, or reactivate it (simple, 1 act, no
    /// provocation). [CEL-R9 Lower or Reactivate Spell Resistance]
    SpellResistance(bool),
    /// Spell Combat: melee form `form` at the foe at −2, then the numbered magus spell of
    /// `State::spellbook` on its aim, cast defensively or not (simple, 1 act, Provoke).
    /// [CEL-R9 Spell Combat]
    SpellCombat(CombatantId, u8, u8, Option<CombatantId>, Defensively),
    /// Spellstrike: the numbered magus touch spell delivered by melee form `form` on the foe
    /// instead of a touch attack, cast defensively (`true`) or not (standard, 2 acts,
    /// Provoke). [CEL-R11 Spellstrike]
    Spellstrike(CombatantId, u8, u8, bool),
    /// Dismiss a Spell: end the numbered dismissible spell's effects it cast (the casting
    /// affecting WHO, or every casting) (simple, 1 act, no provocation). [CEL-R9]
    Dismiss(u8, Option<CombatantId>),
    /// Direct or Redirect a Spell: point its spell's weapon at WHO (simple, 1 act, no
    /// provocation). [CEL-R9]
    Redirect(CombatantId),
    /// Concentrate to Maintain an Active Spell: the numbered concentration spell it cast (the
    /// casting affecting WHO, or every casting) holds through its next turn (standard, 2 acts,
    /// no provocation). [CEL-R11]
    Concentrate(u8, Option<CombatantId>),
    /// Cease Concentrating on a Spell: the numbered concentration spell it cast ends (free).
    /// [CEL-R14]
    Cease(u8, Option<CombatantId>),
    /// Lock or Unlock a Weapon in a Locked Gauntlet: lock the melee weapon in hand into its
    /// locked gauntlet (standard, 2 acts, Provoke). [CEL-R11]
    Lock(Item),
    /// Lock or Unlock a Weapon in a Locked Gauntlet: unlock the weapon locked in it (standard,
    /// 2 acts, Provoke). [CEL-R11]
    Unlock(Item),
    /// Initiate or Change Stance: the stance at this place of `State::maneuver_book` (free, once
    /// per turn). [CEL-R14]
    Stance(u8),
    /// Initiate Standard Strike or Initiate Full-Attack Strike: the strike at this place of
    /// `State::maneuver_book` on the foe (standard, 2 acts, or full, 3 acts, by its data's
    /// `initiation`: `rules::strike::acts`; Provoke if its data says so). [CEL-R11, R12]
    Strike(u8, CombatantId),
    /// Initiate Boost: the boost at this place of `State::maneuver_book` (simple, 1 act;
    /// Provoke if its data says so). [CEL-R9]
    Boost(u8),
    /// Counter, or Use an Immediate-Action Ability: the one at this place of
    /// `State::maneuver_book`, against the attack declared on it (reaction). [CEL-R15]
    Counter(u8),
}

/// The free actions of CEL-R14 and elsewhere that fray plays, by the word the GM names them
/// with (`strenuous_free_actions`, CEL-G4).
pub const FREE_ACTIONS: [&str; 16] = [
    "release",
    "fast-mount",
    "fast-dismount",
    "knees",
    "fight-defensively",
    "drop-prone",
    "special-attack",
    "cleave",
    "weaken",
    "drop",
    "cast-defensively",
    "identify",
    "cease",
    "handle",
    "stance",
    "grip",
];

impl Choice {
    /// The free action this is (a word of [`FREE_ACTIONS`]), if it is one: counted against
    /// `free_actions_per_turn` (CEL-G2) and strenuous where the GM says (CEL-G4).
    #[inline]
    pub fn free_action(self) -> Option<&'static str> {
        Some(match self {
            Choice::Release => "release",
            Choice::FastMount(_) => "fast-mount",
            Choice::FastDismount(_) => "fast-dismount",
            Choice::Knees => "knees",
            Choice::Defensive => "fight-defensively",
            Choice::DropProne => "drop-prone",
            Choice::Special(_) | Choice::SpecialStep(..) => "special-attack",
            Choice::Cleave(_) => "cleave",
            Choice::Weaken(_) | Choice::WeakenAbility(_) | Choice::WeakenDegrees(_) => "weaken",
            Choice::DropItem(_) => "drop",
            // CEL-R14 Cast Defensively: "you can take a free action to do so defensively".
            Choice::Cast(_, _, true) => "cast-defensively",
            Choice::SpellCombat(.., Defensively::Yes | Defensively::TradingInt)
            | Choice::Spellstrike(.., true) => "cast-defensively",
            // CEL-R14 Identify a Spell Being Cast: a free action, taken off its own turn too.
            Choice::Identify(_) => "identify",
            // CEL-R14 Cease Concentrating on a Spell.
            Choice::Cease(..) => "cease",
            // CEL-R14 Initiate or Change Stance.
            Choice::Stance(_) => "stance",
            // A change of grip (Pathfinder's free action; a reading, docs/celesia.md).
            Choice::Grip(_) => "grip",
            _ => return None,
        })
    }

    /// The creature an attack, a charge or a move toward one goes at, if this is one (what a
    /// confused creature's behaviour and a handled animal's `attack` command are carried out by).
    pub fn goes_at(self) -> Option<CombatantId> {
        match self {
            Choice::Attack(t, _)
            | Choice::Unarmed(t)
            | Choice::Shoot(t)
            | Choice::Multiweapon(t, ..)
            | Choice::Strike(_, t)
            | Choice::Charge(t)
            | Choice::Approach(t) => Some(t),
            _ => None,
        }
    }

    /// Acts the action costs (0: free or not an action). [CEL-R3.1]
    pub fn acts(self) -> i32 {
        match self {
            Choice::Attack(..)
            | Choice::Shoot(_)
            | Choice::Unarmed(_)
            | Choice::Approach(_)
            | Choice::MoveTo(_)
            | Choice::Step(_)
            | Choice::StandUp
            | Choice::Trip(_)
            | Choice::BullRush(_)
            | Choice::Disarm(..)
            | Choice::Clear(..)
            | Choice::Aid(..)
            | Choice::AidSkill(..)
            | Choice::Escape(_)
            | Choice::EscapeArtist(_)
            | Choice::Overrun(_)
            | Choice::Sunder(..)
            | Choice::PickUp(_)
            | Choice::PickUpGear(_)
            | Choice::PickUpRope
            | Choice::Mount(_)
            | Choice::Dismount(_)
            | Choice::Ready(..)
            | Choice::Crawl(_)
            | Choice::SteadyAim
            | Choice::Follow
            | Choice::OverrunTo(_)
            | Choice::Draw(_)
            | Choice::DrawTwo(..)
            | Choice::Multiweapon(..)
            | Choice::Demoralize(_)
            | Choice::Recall(_)
            | Choice::Search
            | Choice::Handle(..)
            | Choice::Retrieve(_)
            | Choice::Untie(_)
            | Choice::ReadyShield
            | Choice::DropShield
            | Choice::PickUpShield
            | Choice::SpellResistance(_)
            | Choice::Dismiss(..)
            | Choice::Redirect(_)
            | Choice::SpellCombat(..)
            | Choice::Boost(_)
            | Choice::Sleight(.., true)
            | Choice::Sheathe(_) => 1,
            Choice::Charge(_)
            | Choice::TotalDefense
            | Choice::DirtyTrick(..)
            | Choice::Drag(..)
            | Choice::Reposition(..)
            | Choice::Steal(..)
            | Choice::Drink(_)
            | Choice::UseItem(..)
            | Choice::EscapeNet
            | Choice::Extinguish
            | Choice::Sleight(.., false)
            | Choice::FirstAid(_)
            | Choice::TreatWound(_)
            | Choice::Spellstrike(..)
            | Choice::Concentrate(..)
            | Choice::Lock(_)
            | Choice::Unlock(_)
            // A standard strike; a full-attack strike takes 3 (rules::strike::acts).
            | Choice::Strike(..)
            | Choice::Feint(_) => 2,
            // Grapple and Grapple, Continued: 2, 1 with Improved Grapple (rules::grapple::acts).
            Choice::Grapple(_) | Choice::Maintain(_) => 2,
            // Push an Animal: 1 for an animal companion (rules::animal::push_acts).
            Choice::CoupDeGrace(..)
            | Choice::Run(_)
            | Choice::Administer(..)
            | Choice::Push(..) => 3,
            // A complex action takes what is left of the turn (rules::complex::cost).
            Choice::Disable(_) | Choice::FindTracks => 1,
            _ => 0,
        }
    }
}

/// Which question a choice answers.
pub fn answers(question: Question, choice: &Choice) -> bool {
    match choice {
        Choice::Opportunity(_)
        | Choice::Decline
        | Choice::Injury(_)
        | Choice::NoInjury
        | Choice::LetPass
        | Choice::Block
        | Choice::Complete(_)
        | Choice::Counterspell(_)
        | Choice::FreeItself(_)
        | Choice::Counter(_)
        | Choice::Identify(_) => question == Question::Reaction,
        Choice::Dc(_)
        | Choice::Shaken(_)
        | Choice::NoEffect
        | Choice::RetryActs(_)
        | Choice::CritCard(_) => question == Question::Ruling,
        _ => question == Question::Action,
    }
}

/// The canonical text (`attack orc-2`, `charge orc-1`, `aoo fighter-1`, `injury arm`).
pub fn text(state: &State, choice: &Choice) -> String {
    let k = |id: &CombatantId| state.roster.key(*id).to_string();
    match choice {
        Choice::Attack(t, 0) => format!("attack {}", k(t)),
        Choice::Attack(t, form) => format!("attack {} {}", k(t), form),
        Choice::Shoot(t) => format!("shoot {}", k(t)),
        Choice::Unarmed(t) => format!("unarmed {}", k(t)),
        Choice::Approach(t) => format!("approach {}", k(t)),
        Choice::MoveTo(p) => format!("move {} {}", p.x, p.y),
        Choice::Step(d) => format!("step {}", dir_key(*d)),
        Choice::Charge(t) => format!("charge {}", k(t)),
        Choice::Trip(t) => format!("trip {}", k(t)),
        Choice::BullRush(t) => format!("bull-rush {}", k(t)),
        Choice::Disarm(t, item, None) => format!("disarm {} {}", k(t), item.text(state)),
        Choice::Disarm(t, item, Some(second)) => {
            format!(
                "disarm {} {} {}",
                k(t),
                item.text(state),
                second.text(state)
            )
        }
        Choice::Grapple(t) => format!("grapple {}", k(t)),
        Choice::Maintain(HoldUse::Pin) => "maintain pin".into(),
        Choice::Maintain(HoldUse::Choke) => "maintain choke".into(),
        Choice::Maintain(HoldUse::Damage(form, nonlethal)) => format!(
            "maintain damage {form} {}",
            if *nonlethal { "nonlethal" } else { "lethal" }
        ),
        Choice::Maintain(HoldUse::Move(p)) => format!("maintain move {} {}", p.x, p.y),
        Choice::Maintain(HoldUse::Place(p, q)) => {
            format!("maintain move {} {} place {} {}", p.x, p.y, q.x, q.y)
        }
        Choice::Maintain(HoldUse::Tie) => "maintain tie".into(),
        Choice::Release => "release".into(),
        Choice::Escape(false) => "escape".into(),
        Choice::Escape(true) => "escape control".into(),
        Choice::EscapeArtist(false) => "escape artist".into(),
        Choice::EscapeArtist(true) => "escape control artist".into(),
        Choice::Drink(b) => format!("drink {}", item_key(state, *b)),
        Choice::Administer(b, t) => format!("administer {} {}", item_key(state, *b), k(t)),
        Choice::UseItem(b, None) => format!("use {}", item_key(state, *b)),
        Choice::UseItem(b, Some(t)) => format!("use {} {}", item_key(state, *b), k(t)),
        Choice::Retrieve(b) => format!("retrieve {}", item_key(state, *b)),
        Choice::Untie(t) => format!("untie {}", k(t)),
        Choice::EscapeNet => "escape net".into(),
        Choice::Extinguish => "extinguish".into(),
        Choice::Sleight(b, t, quick) => format!(
            "sleight {} {}{}",
            sleight_object_text(state, *b),
            k(t),
            if *quick { " quick" } else { "" }
        ),
        Choice::FreeItself(false) => "free-itself".into(),
        Choice::FreeItself(true) => "free-itself artist".into(),
        Choice::Overrun(t) => format!("overrun {}", k(t)),
        Choice::Sunder(t, item, true) => format!("sunder {} {}", k(t), item.key()),
        Choice::Sunder(t, item, false) => format!("sunder {} {} spare", k(t), item.key()),
        Choice::Drag(t, d) => format!("drag {} {}", k(t), dir_key(*d)),
        Choice::Reposition(t, p) => format!("reposition {} {} {}", k(t), p.x, p.y),
        Choice::Steal(t, item) => format!("steal {} {}", k(t), item.text(state)),
        Choice::PickUp(item) => format!("pick-up {}", item.key()),
        Choice::PickUpGear(book) => format!("pick-up {}", Belonging::Gear(*book).text(state)),
        Choice::PickUpRope => "pick-up rope".into(),
        Choice::Mount(m) => format!("mount {}", k(m)),
        Choice::Dismount(p) => format!("dismount {} {}", p.x, p.y),
        Choice::FastMount(m) => format!("mount {} fast", k(m)),
        Choice::FastDismount(p) => format!("dismount {} {} fast", p.x, p.y),
        Choice::Knees => "knees".into(),
        Choice::Grip(two) => format!("grip {}", if *two { "two" } else { "one" }),
        Choice::LetPass => "let-pass".into(),
        Choice::Block => "block".into(),
        Choice::CoupDeGrace(t, form, nonlethal) => format!(
            "coup-de-grace {}{}{}",
            k(t),
            match *form {
                0 => String::new(),
                crate::rules::ammo::RANGED_FORM => " ranged".into(),
                n => format!(" {n}"),
            },
            if *nonlethal { " nonlethal" } else { "" }
        ),
        Choice::DirtyTrick(t, c) => format!("dirty-trick {} {}", k(t), c.key()),
        Choice::Clear(t, c) => format!("clear {} {}", k(t), c.key()),
        Choice::Aid(friend, foe, to) => format!("aid {} {} {}", k(friend), k(foe), to.key()),
        Choice::AidSkill(friend, skill) => format!("aid {} {}", k(friend), skill.key()),
        Choice::Weaken(n) => format!("weaken {n}"),
        Choice::Cleave(t) => format!("cleave {}", k(t)),
        Choice::Run(p) => format!("run {} {}", p.x, p.y),
        Choice::Disable(d) => format!(
            "disable {}",
            state
                .devices
                .get(usize::from(*d))
                .map_or("?", |d| d.key.as_str())
        ),
        Choice::TotalDefense => "total defense".into(),
        Choice::Defensive => "fight defensively".into(),
        Choice::StandUp => "stand up".into(),
        Choice::DropProne => "drop prone".into(),
        Choice::Deal(Some(true)) => "deal nonlethal".into(),
        Choice::Deal(Some(false)) => "deal lethal".into(),
        Choice::Deal(None) => "deal weapon".into(),
        Choice::Special(sp) => sp.key().into(),
        Choice::End => "end".into(),
        Choice::Delay => "delay".into(),
        Choice::Rejoin => "rejoin".into(),
        Choice::Wait => "wait".into(),
        Choice::Opportunity(t) => format!("aoo {}", k(t)),
        Choice::Decline => "decline".into(),
        Choice::Injury(i) => format!("injury {}", i.key()),
        Choice::NoInjury => "no injury".into(),
        Choice::Ready(trigger, readied) => {
            format!("ready {} {}", trigger.key(), readied.text(state))
        }
        Choice::Complete(t) => format!("complete {}", k(t)),
        Choice::Counterspell(t) => format!("counterspell {}", k(t)),
        Choice::Identify(t) => format!("identify {}", k(t)),
        Choice::Crawl(d) => format!("crawl {}", dir_key(*d)),
        Choice::SteadyAim => "steady aim".into(),
        Choice::DropItem(item) => format!("drop {}", item.key()),
        Choice::WeakenAbility(n) => format!("weaken ability {n}"),
        Choice::WeakenDegrees(n) => format!("weaken degrees {n}"),
        Choice::Follow => "follow".into(),
        Choice::OverrunTo(p) => format!("overrun {} {}", p.x, p.y),
        Choice::FirstAid(t) => format!("first-aid {}", k(t)),
        Choice::TreatWound(t) => format!("treat-wound {}", k(t)),
        Choice::SpecialStep(sp, n) => format!("{} {n}", sp.key()),
        Choice::Draw(item) => format!("draw {}", item.key()),
        Choice::ReadyShield => "ready shield".into(),
        Choice::DropShield => "drop shield".into(),
        Choice::PickUpShield => "pick-up shield".into(),
        Choice::SpellResistance(true) => "spell-resistance lower".into(),
        Choice::SpellResistance(false) => "spell-resistance reactivate".into(),
        Choice::Sheathe(item) => format!("sheathe {}", item.key()),
        Choice::Lock(item) => format!("lock {}", item.key()),
        Choice::Unlock(item) => format!("unlock {}", item.key()),
        Choice::Redirect(t) => format!("redirect {}", k(t)),
        Choice::Dismiss(i, t) | Choice::Concentrate(i, t) | Choice::Cease(i, t) => {
            let verb = match choice {
                Choice::Dismiss(..) => "dismiss",
                Choice::Concentrate(..) => "concentrate",
                _ => "cease",
            };
            let spell = state
                .spellbook
                .get(usize::from(*i))
                .map_or("?".to_string(), |s| s.key());
            match t {
                Some(t) => format!("{verb} {spell} {}", k(t)),
                None => format!("{verb} {spell}"),
            }
        }
        Choice::Cast(i, t, defensively) => {
            let mut text = format!(
                "cast {}",
                state
                    .spellbook
                    .get(usize::from(*i))
                    .map_or("?".to_string(), |s| s.key())
            );
            if let Some(t) = t {
                text.push(' ');
                text.push_str(&k(t));
            }
            if *defensively {
                text.push_str(" defensively");
            }
            text
        }
        Choice::Load => "load".into(),
        Choice::Prepare => "prepare".into(),
        Choice::Multiweapon(t, main, off) => format!("multiweapon {} {main} {off}", k(t)),
        Choice::DrawTwo(a, b) => format!("draw {} {}", a.key(), b.key()),
        Choice::Demoralize(t) => format!("demoralize {}", k(t)),
        Choice::Feint(t) => format!("feint {}", k(t)),
        Choice::Stance(m) => format!("stance {}", maneuver_key(state, *m)),
        Choice::Strike(m, t) => format!("strike {} {}", maneuver_key(state, *m), k(t)),
        Choice::Boost(m) => format!("boost {}", maneuver_key(state, *m)),
        Choice::Counter(m) => format!("counter {}", maneuver_key(state, *m)),
        Choice::FindTracks => "find-tracks".into(),
        Choice::Recall(t) => format!("recall {}", k(t)),
        Choice::Search => "search".into(),
        Choice::Handle(a, trick, on) | Choice::Push(a, trick, on) => {
            let verb = if matches!(choice, Choice::Handle(..)) {
                "handle"
            } else {
                "push"
            };
            match on {
                Some(t) => format!("{verb} {} {} {}", k(a), trick.key(), k(t)),
                None => format!("{verb} {} {}", k(a), trick.key()),
            }
        }
        Choice::Dc(n) => format!("dc {n}"),
        Choice::Shaken(n) => format!("shaken {n}"),
        Choice::NoEffect => "no effect".into(),
        Choice::RetryActs(n) => format!("acts {n}"),
        Choice::CritCard(true) => "normal damage".into(),
        Choice::CritCard(false) => "usual critical".into(),
        Choice::SpellCombat(..) | Choice::Spellstrike(..) => {
            crate::rules::magus::text(state, choice)
        }
    }
}

/// The key of item `book` of `State::gear_book` (`potion-of-cure-light-wounds`).
fn item_key(state: &State, book: u8) -> String {
    state
        .gear_book
        .get(usize::from(book))
        .map_or_else(|| "?".to_string(), |g| g.key())
}

/// `n`, `ne`, `e`, … for a direction.
pub fn dir_key(d: Direction) -> &'static str {
    match d {
        Direction::North => "n",
        Direction::NorthEast => "ne",
        Direction::East => "e",
        Direction::SouthEast => "se",
        Direction::South => "s",
        Direction::SouthWest => "sw",
        Direction::West => "w",
        Direction::NorthWest => "nw",
    }
}

/// The place in `State::spellbook` of the spell named `w` (`shocking-grasp`).
fn spell_index(state: &State, w: &str) -> Result<u8, Illegal> {
    let found = state
        .spellbook
        .iter()
        .position(|s| s.key().eq_ignore_ascii_case(w))
        .ok_or_else(|| {
            let keys: Vec<String> = state.spellbook.iter().map(|s| s.key()).collect();
            unreadable(format!(
                "no spell `{w}` among the encounter's{}",
                fray_core::loader::did_you_mean(w, keys.iter().map(String::as_str))
            ))
        })?;
    u8::try_from(found).map_err(|_| unreadable(format!("spell `{w}` is past the 256th")))
}

/// The key of the maneuver or stance at place `m` of `State::maneuver_book`.
fn maneuver_key(state: &State, m: u8) -> String {
    state
        .maneuver_book
        .get(usize::from(m))
        .map_or_else(|| "?".into(), |x| x.key())
}

/// The place in `State::maneuver_book` of the stance, strike or counter named `w`
/// (`iron-guard`). [CEL-R11, R14, R15]
fn maneuver_index(state: &State, w: &str) -> Result<u8, Illegal> {
    let key = fray_core::catalog::name_key(w);
    let found = state
        .maneuver_book
        .iter()
        .position(|m| m.key() == key)
        .ok_or_else(|| {
            let keys: Vec<String> = state.maneuver_book.iter().map(|m| m.key()).collect();
            unreadable(format!(
                "no stance, strike, boost or counter `{w}` known in this encounter{}",
                fray_core::loader::did_you_mean(w, keys.iter().map(String::as_str))
            ))
        })?;
    // The book holds at most `initiator::MAX_BOOK` (16) entries.
    Ok(found as u8)
}

pub(crate) fn unreadable(reason: String) -> Illegal {
    Illegal {
        rule: "CEL-R3",
        reason,
    }
}

/// The place in `State::gear_book` of the item named `w` (`potion-of-cure-light-wounds`).
fn gear_index(state: &State, w: &str) -> Result<u8, Illegal> {
    let key = fray_core::catalog::name_key(w).replace(' ', "-");
    let found = state
        .gear_book
        .iter()
        .position(|g| g.key() == key)
        .ok_or_else(|| {
            let keys: Vec<String> = state.gear_book.iter().map(|g| g.key()).collect();
            unreadable(format!(
                "no item `{w}` among the encounter's{}",
                fray_core::loader::did_you_mean(w, keys.iter().map(String::as_str))
            ))
        })?;
    u8::try_from(found).map_err(|_| unreadable(format!("item `{w}` is past the 256th")))
}

/// A weapon named by its melee form number or `ranged`.
pub(crate) fn weapon_item(w: &str) -> Result<Item, Illegal> {
    match w {
        "ranged" => Ok(Item::Ranged),
        _ => w.parse::<u8>().map(Item::Melee).map_err(|_| {
            unreadable(format!(
                "`{w}`: name the item by its melee form number or `ranged` (a disarm or a \
                 steal: `shield`, `rope` or `item NAME` too)"
            ))
        }),
    }
}

/// CEL-R10.3, R10.13: the items a disarm, a steal (taken or readied) or a Sleight of Hand
/// names: a weapon (form number or `ranged`), `shield`, `rope`, or `item NAME` (an item it
/// carries).
pub(crate) fn belongings(state: &State, rest: &[&str]) -> Result<Vec<Belonging>, Illegal> {
    let mut out = Vec::new();
    let mut words = rest.iter();
    while let Some(&w) = words.next() {
        out.push(match w {
            "shield" => Belonging::Shield,
            "rope" => Belonging::Rope,
            "item" => {
                let name = words.next().ok_or_else(|| {
                    unreadable("`item NAME`: the item's name (`item potion-of-…`)".to_string())
                })?;
                Belonging::Gear(gear_index(state, name)?)
            }
            _ => Belonging::Weapon(weapon_item(w)?),
        });
    }
    Ok(out)
}

/// Whether `w` is a word `belongings` reads as something other than an item's name.
fn belonging_word(w: &str) -> bool {
    matches!(w, "shield" | "rope" | "item") || weapon_item(w).is_ok()
}

/// What a Sleight of Hand names: an item by its bare name (`potion-of-…`, as before ropes), or
/// as `belongings` reads it (`rope`, `item NAME`; a weapon or a shield, which the rule
/// refuses). [CEL-R11]
fn sleight_object(state: &State, words: &[&str]) -> Result<Belonging, Illegal> {
    if let [name] = words {
        if !belonging_word(name) {
            return Ok(Belonging::Gear(gear_index(state, name)?));
        }
    }
    match belongings(state, words)?.as_slice() {
        [one] => Ok(*one),
        _ => Err(unreadable(
            "`sleight ITEM WHO [quick]`: one item (its name, or `item NAME`) or `rope`".to_string(),
        )),
    }
}

/// A Sleight of Hand's object in a choice: an item by its bare name unless the name is one of
/// `belongings`' words (then `item NAME`), a rope `rope`.
fn sleight_object_text(state: &State, object: Belonging) -> String {
    match object {
        Belonging::Gear(book) if !belonging_word(&item_key(state, book)) => item_key(state, book),
        _ => object.text(state),
    }
}

/// Reads a typed or scripted choice.
pub fn parse(state: &State, input: &str) -> Result<Choice, Illegal> {
    let words: Vec<&str> = input.split_whitespace().collect();
    let who = |w: &str| {
        state.roster.find(w).ok_or_else(|| {
            let keys = state.roster.combatants.iter().map(|c| c.key.as_str());
            unreadable(format!(
                "no combatant `{w}`{}",
                fray_core::loader::did_you_mean(w, keys)
            ))
        })
    };
    let trick = |w: &str| {
        Trick::from_key(w).ok_or_else(|| {
            unreadable(format!(
                "unknown condition `{w}`; one of {}",
                Trick::ALL.map(|t| t.key()).join(", ")
            ))
        })
    };
    let gear = |w: &str| gear_index(state, w);
    let number = |w: &str| {
        w.parse::<i32>()
            .map_err(|_| unreadable(format!("`{w}` is not a whole number")))
    };
    let item = weapon_item;
    let belongings = |rest: &[&str]| belongings(state, rest);
    Ok(match words.as_slice() {
        ["attack", t] => Choice::Attack(who(t)?, 0),
        ["attack", t, form] => {
            let n = number(form)?;
            Choice::Attack(
                who(t)?,
                u8::try_from(n).map_err(|_| unreadable(format!("no attack form {n}")))?,
            )
        }
        ["shoot", t] => Choice::Shoot(who(t)?),
        ["unarmed", t] => Choice::Unarmed(who(t)?),
        ["approach", t] => Choice::Approach(who(t)?),
        ["move", x, y] => Choice::MoveTo(Pos::new(number(x)?, number(y)?)),
        ["step", d] => Choice::Step(
            fray_core::encounter::parse_direction(d)
                .ok_or_else(|| unreadable(format!("`{d}` is not a direction (n, ne, e, …)")))?,
        ),
        ["charge", t] => Choice::Charge(who(t)?),
        ["trip", t] => Choice::Trip(who(t)?),
        ["bull-rush", t] => Choice::BullRush(who(t)?),
        ["disarm", t, rest @ ..] => match belongings(rest)?.as_slice() {
            [first] => Choice::Disarm(who(t)?, *first, None),
            [first, second] => Choice::Disarm(who(t)?, *first, Some(*second)),
            _ => {
                return Err(unreadable(
                    "`disarm WHO ITEM [ITEM]`: one item, or two for a check 10 or more over \
                     the CMD"
                        .to_string(),
                ))
            }
        },
        ["grapple", t] => Choice::Grapple(who(t)?),
        ["maintain", "pin"] => Choice::Maintain(HoldUse::Pin),
        ["maintain", "choke"] => Choice::Maintain(HoldUse::Choke),
        ["maintain", "tie"] => Choice::Maintain(HoldUse::Tie),
        ["maintain", "damage", form, how] => {
            let n = number(form)?;
            Choice::Maintain(HoldUse::Damage(
                u8::try_from(n).map_err(|_| unreadable(format!("no attack form {n}")))?,
                match *how {
                    "lethal" => false,
                    "nonlethal" => true,
                    _ => {
                        return Err(unreadable(format!(
                            "`{how}`: the damage is `lethal` or `nonlethal`"
                        )))
                    }
                },
            ))
        }
        ["maintain", "move", x, y] => {
            Choice::Maintain(HoldUse::Move(Pos::new(number(x)?, number(y)?)))
        }
        ["maintain", "move", x, y, "place", px, py] => Choice::Maintain(HoldUse::Place(
            Pos::new(number(x)?, number(y)?),
            Pos::new(number(px)?, number(py)?),
        )),
        ["release"] => Choice::Release,
        ["escape"] => Choice::Escape(false),
        ["escape", "control"] => Choice::Escape(true),
        ["escape", "artist"] => Choice::EscapeArtist(false),
        ["escape", "control", "artist"] => Choice::EscapeArtist(true),
        ["drink", i] => Choice::Drink(gear(i)?),
        ["administer", i, t] => Choice::Administer(gear(i)?, who(t)?),
        ["use", i] => Choice::UseItem(gear(i)?, None),
        ["use", i, t] => Choice::UseItem(gear(i)?, Some(who(t)?)),
        ["retrieve", i] => Choice::Retrieve(gear(i)?),
        ["untie", t] => Choice::Untie(who(t)?),
        ["escape", "net"] => Choice::EscapeNet,
        ["extinguish"] => Choice::Extinguish,
        ["sleight", object @ .., t, "quick"] if !object.is_empty() => {
            Choice::Sleight(sleight_object(state, object)?, who(t)?, true)
        }
        ["sleight", object @ .., t] if !object.is_empty() => {
            Choice::Sleight(sleight_object(state, object)?, who(t)?, false)
        }
        ["overrun", t] => Choice::Overrun(who(t)?),
        ["overrun", x, y] => Choice::OverrunTo(Pos::new(number(x)?, number(y)?)),
        ["follow"] => Choice::Follow,
        ["sunder", t, i] => Choice::Sunder(who(t)?, item(i)?, true),
        ["sunder", t, i, "spare"] => Choice::Sunder(who(t)?, item(i)?, false),
        ["drag", t, d] => Choice::Drag(
            who(t)?,
            fray_core::encounter::parse_direction(d)
                .ok_or_else(|| unreadable(format!("`{d}` is not a direction (n, ne, e, …)")))?,
        ),
        ["reposition", t, x, y] => Choice::Reposition(who(t)?, Pos::new(number(x)?, number(y)?)),
        ["steal", t, rest @ ..] => match belongings(rest)?.as_slice() {
            [one] => Choice::Steal(who(t)?, *one),
            _ => {
                return Err(unreadable(
                    "`steal WHO ITEM`: one item, chosen before the check".to_string(),
                ))
            }
        },
        ["pick-up", "shield"] => Choice::PickUpShield,
        ["pick-up", "item", i] => Choice::PickUpGear(gear(i)?),
        ["pick-up", "rope"] => Choice::PickUpRope,
        ["pick-up", i] => Choice::PickUp(item(i)?),
        ["mount", m] => Choice::Mount(who(m)?),
        ["dismount", x, y] => Choice::Dismount(Pos::new(number(x)?, number(y)?)),
        ["mount", m, "fast"] => Choice::FastMount(who(m)?),
        ["dismount", x, y, "fast"] => Choice::FastDismount(Pos::new(number(x)?, number(y)?)),
        ["knees"] => Choice::Knees,
        ["grip", "two"] => Choice::Grip(true),
        ["grip", "one"] => Choice::Grip(false),
        ["let-pass"] => Choice::LetPass,
        ["block"] => Choice::Block,
        ["coup-de-grace", t, rest @ ..] if rest.len() <= 2 => {
            let (form, nonlethal) = match rest {
                [] => ("0", false),
                ["nonlethal"] => ("0", true),
                [form] => (*form, false),
                [form, "nonlethal"] => (*form, true),
                _ => {
                    return Err(unreadable(
                        "coup-de-grace WHO [FORM|ranged] [nonlethal]".to_string(),
                    ))
                }
            };
            let form = if form == "ranged" {
                crate::rules::ammo::RANGED_FORM
            } else {
                let n = number(form)?;
                u8::try_from(n).map_err(|_| unreadable(format!("no attack form {n}")))?
            };
            Choice::CoupDeGrace(who(t)?, form, nonlethal)
        }
        ["dirty-trick", t, c] => Choice::DirtyTrick(who(t)?, trick(c)?),
        ["clear", t, c] => Choice::Clear(who(t)?, trick(c)?),
        ["weaken", n] => {
            let n = number(n)?;
            Choice::Weaken(
                u8::try_from(n).map_err(|_| unreadable(format!("cannot weaken by {n}")))?,
            )
        }
        ["cleave", t] => Choice::Cleave(who(t)?),
        ["aid", friend, foe, how] => Choice::Aid(
            who(friend)?,
            who(foe)?,
            crate::rules::aid::AidTo::from_key(how).ok_or_else(|| {
                unreadable(format!(
                    "`{how}`: aid the friend's `attack`, its `defense`, its `save` against \
                     the foe's spell or its `touch` DV against it"
                ))
            })?,
        ),
        ["aid", friend, skill] => Choice::AidSkill(
            who(friend)?,
            crate::rules::aid_check::Skill::from_key(skill)
                .ok_or_else(|| crate::rules::aid_check::unknown_skill(skill))?,
        ),
        ["run", x, y] => Choice::Run(Pos::new(number(x)?, number(y)?)),
        ["disable", d] => {
            let found = state
                .devices
                .iter()
                .position(|dev| dev.key.eq_ignore_ascii_case(d))
                .ok_or_else(|| {
                    let keys = state.devices.iter().map(|dev| dev.key.as_str());
                    unreadable(format!(
                        "no device `{d}`{}",
                        fray_core::loader::did_you_mean(d, keys)
                    ))
                })?;
            Choice::Disable(found as u8)
        }
        ["total", "defense"] => Choice::TotalDefense,
        ["fight", "defensively"] => Choice::Defensive,
        ["stand", "up"] => Choice::StandUp,
        ["drop", "prone"] => Choice::DropProne,
        ["deal", "nonlethal"] => Choice::Deal(Some(true)),
        ["deal", "lethal"] => Choice::Deal(Some(false)),
        ["deal", "weapon"] => Choice::Deal(None),
        [one] if Special::from_key(one).is_some() => {
            Choice::Special(Special::from_key(one).unwrap_or(Special::PowerAttack))
        }
        ["end"] => Choice::End,
        ["delay"] => Choice::Delay,
        ["rejoin"] => Choice::Rejoin,
        ["wait"] => Choice::Wait,
        ["aoo", t] => Choice::Opportunity(who(t)?),
        ["decline"] => Choice::Decline,
        ["free-itself"] => Choice::FreeItself(false),
        ["free-itself", "artist"] => Choice::FreeItself(true),
        ["injury", i] => Choice::Injury(Injury::from_key(i).ok_or_else(|| {
            unreadable(format!(
                "unknown injury `{i}`; one of {}",
                Injury::ALL
                    .iter()
                    .map(|i| i.key())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?),
        ["no", "injury"] => Choice::NoInjury,
        ["ready", "shield"] => Choice::ReadyShield,
        ["drop", "shield"] => Choice::DropShield,
        ["spell-resistance", "lower"] => Choice::SpellResistance(true),
        ["spell-resistance", "reactivate"] => Choice::SpellResistance(false),
        ["ready", trigger, readied @ ..] => Choice::Ready(
            Trigger::from_key(trigger).ok_or_else(|| {
                unreadable(format!(
                    "`{trigger}` is not a trigger: foe-adjacent, foe-attacks or foe-casts"
                ))
            })?,
            Readied::parse(readied, state)?,
        ),
        ["complete", t] => Choice::Complete(who(t)?),
        ["counterspell", t] => Choice::Counterspell(who(t)?),
        ["identify", t] => Choice::Identify(who(t)?),
        ["crawl", d] => Choice::Crawl(
            fray_core::encounter::parse_direction(d)
                .ok_or_else(|| unreadable(format!("`{d}` is not a direction (n, ne, e, …)")))?,
        ),
        ["steady", "aim"] => Choice::SteadyAim,
        ["drop", i] => Choice::DropItem(item(i)?),
        ["weaken", part @ ("ability" | "degrees"), n] => {
            let n = number(n)?;
            let n = u8::try_from(n).map_err(|_| unreadable(format!("cannot weaken by {n}")))?;
            if *part == "ability" {
                Choice::WeakenAbility(n)
            } else {
                Choice::WeakenDegrees(n)
            }
        }
        ["first-aid", t] => Choice::FirstAid(who(t)?),
        ["treat-wound", t] => Choice::TreatWound(who(t)?),
        // CEL-R11 Treat Poison: named, refused with why (the seed defines no poison).
        ["treat-poison", ..] => {
            return Err(Illegal {
                rule: crate::rules::treat_wound::RULE,
                reason: crate::rules::treat_wound::NO_POISON.to_string(),
            })
        }
        ["draw", i] => Choice::Draw(item(i)?),
        ["sheathe", i] => Choice::Sheathe(item(i)?),
        ["lock", i] => Choice::Lock(item(i)?),
        ["unlock", i] => Choice::Unlock(item(i)?),
        [kind @ ("spell-combat" | "spellstrike"), rest @ ..] => {
            crate::rules::magus::parse(kind, rest, who, |w| spell_index(state, w))?
        }
        ["cast", spell, rest @ ..] if rest.len() <= 2 => {
            let found = spell_index(state, spell)?;
            let (target, defensively) = match rest {
                [] => (None, false),
                ["defensively"] => (None, true),
                [t] => (Some(who(t)?), false),
                [t, "defensively"] => (Some(who(t)?), true),
                _ => {
                    return Err(unreadable(
                        "cast SPELL [TARGET] [defensively]".to_string(),
                    ))
                }
            };
            Choice::Cast(found, target, defensively)
        }
        ["redirect", t] => Choice::Redirect(who(t)?),
        [verb @ ("dismiss" | "concentrate" | "cease"), spell, rest @ ..] if rest.len() <= 1 => {
            let found = spell_index(state, spell)?;
            let on = match rest {
                [t] => Some(who(t)?),
                _ => None,
            };
            match *verb {
                "dismiss" => Choice::Dismiss(found, on),
                "concentrate" => Choice::Concentrate(found, on),
                _ => Choice::Cease(found, on),
            }
        }
        ["load"] => Choice::Load,
        ["prepare"] => Choice::Prepare,
        ["draw", a, b] => Choice::DrawTwo(item(a)?, item(b)?),
        ["multiweapon", t, main, off] => {
            let form = |w: &str| {
                let n = number(w)?;
                u8::try_from(n).map_err(|_| unreadable(format!("no attack form {n}")))
            };
            Choice::Multiweapon(who(t)?, form(main)?, form(off)?)
        }
        ["demoralize", t] => Choice::Demoralize(who(t)?),
        ["feint", t] => Choice::Feint(who(t)?),
        ["stance", m] => Choice::Stance(maneuver_index(state, m)?),
        ["strike", m, t] => Choice::Strike(maneuver_index(state, m)?, who(t)?),
        ["boost", m] => Choice::Boost(maneuver_index(state, m)?),
        ["counter", m] => Choice::Counter(maneuver_index(state, m)?),
        ["find-tracks"] => Choice::FindTracks,
        ["recall", t] => Choice::Recall(who(t)?),
        ["search"] => Choice::Search,
        [verb @ ("handle" | "push"), a, trick, rest @ ..] if rest.len() <= 1 => {
            let trick = AnimalTrick::from_key(trick).ok_or_else(|| {
                unreadable(format!(
                    "no trick `{trick}` fray plays; one of {}",
                    AnimalTrick::ALL.map(|t| t.key()).join(", ")
                ))
            })?;
            let on = match rest {
                [t] => Some(who(t)?),
                _ => None,
            };
            if *verb == "handle" {
                Choice::Handle(who(a)?, trick, on)
            } else {
                Choice::Push(who(a)?, trick, on)
            }
        }
        ["no", "effect"] => Choice::NoEffect,
        ["normal", "damage"] => Choice::CritCard(true),
        ["usual", "critical"] => Choice::CritCard(false),
        [ruling @ ("dc" | "shaken" | "acts"), n] => {
            let n = number(n)?;
            let n = u8::try_from(n)
                .map_err(|_| unreadable(format!("`{ruling} {n}`: a number from 0 to 255")))?;
            match *ruling {
                "dc" => Choice::Dc(n),
                "shaken" => Choice::Shaken(n),
                _ => Choice::RetryActs(n),
            }
        }
        [one, n] if Special::from_key(one).is_some_and(|s| s != Special::Lunge) => {
            let n = number(n)?;
            Choice::SpecialStep(
                Special::from_key(one).unwrap_or(Special::PowerAttack),
                u8::try_from(n).map_err(|_| unreadable(format!("no step {n}")))?,
            )
        }
        _ => {
            return Err(unreadable(format!(
                "cannot read `{input}`: expected attack WHO [FORM], shoot WHO, unarmed WHO, \
                 approach WHO, move X Y, step DIR, charge WHO, trip WHO, bull-rush WHO, follow, \
                 disarm WHO ITEM [ITEM] (ITEM: a form number, ranged, shield, rope or item NAME), \
                 grapple WHO, maintain pin|choke|damage FORM \
                 lethal|nonlethal|move X Y|tie, release, escape [control] [artist], drink ITEM, administer ITEM WHO, use ITEM [WHO], overrun WHO|X Y, sunder WHO \
                 ITEM [spare], drag WHO DIR, reposition WHO X Y, steal WHO ITEM, pick-up ITEM|rope|item NAME, \
                 mount WHO [fast], dismount X Y [fast], knees, grip two|one, \
                 dirty-trick WHO CONDITION, clear WHO CONDITION, weaken N, cleave WHO, lunge, \
                 aid FRIEND FOE attack|defense|save|touch, aid FRIEND SKILL, \
                 coup-de-grace WHO [FORM] [nonlethal], run X Y, disable DEVICE, total defense, fight \
                 defensively, stand up, drop prone, deal nonlethal|lethal|weapon, power-attack, precision-strike, \
                 combat-expertise, reckless-offense, deadly-aim, reckless-aim, delay, end, ready \
                 foe-adjacent|foe-attacks|foe-casts ACTION, crawl DIR, steady aim, drop ITEM, weaken \
                 ability|degrees N, first-aid WHO, treat-wound WHO, power-attack|… STEP, draw ITEM [ITEM], sheathe ITEM, lock ITEM, unlock ITEM, ready shield, drop shield, pick-up shield, spell-resistance lower|reactivate, load, prepare, multiweapon WHO MAIN OFF, cast SPELL [WHO] [defensively], spell-combat FOE [FORM] SPELL [WHO] [defensively [int]], spellstrike FOE [FORM] SPELL [defensively], demoralize WHO, find-tracks, stance NAME, strike NAME WHO, boost NAME; rejoin, wait; or aoo WHO, decline, injury KIND, \
                 no injury, let-pass, block, complete WHO; the GM: dc N, shaken N, no effect, acts N, normal damage, usual critical"
            )))
        }
    })
}
