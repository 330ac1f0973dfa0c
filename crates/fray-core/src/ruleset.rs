//! The [`Ruleset`] trait every rule system implements, and the fixed list of ruleset ids.

use crate::protocol::{ChoiceRequest, Illegal, Interrupt};
use crate::roster::Roster;
use crate::runner::Table;
use crate::SideId;
use std::borrow::Cow;
use std::fmt::Debug;
use std::hash::Hash;

/// The rule systems fray knows, one per seed document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RulesetId {
    /// Castles & Crusades (seed 002).
    Cnc,
    /// Spelljammer d100 house rules (seed 003).
    Spelljammer,
    /// "17 Combat", a B/X-style chapter (seed 001).
    Osr,
    /// OD&D house rules (seed 004).
    Odd,
    /// Legends of Celesia (seed 000).
    Celesia,
}

impl RulesetId {
    /// Every ruleset id, in a fixed order.
    pub const ALL: [RulesetId; 5] = [
        RulesetId::Cnc,
        RulesetId::Spelljammer,
        RulesetId::Osr,
        RulesetId::Odd,
        RulesetId::Celesia,
    ];

    /// The id used in files and on the command line.
    pub fn key(self) -> &'static str {
        match self {
            RulesetId::Cnc => "cnc",
            RulesetId::Spelljammer => "spelljammer",
            RulesetId::Osr => "osr",
            RulesetId::Odd => "odd",
            RulesetId::Celesia => "celesia",
        }
    }

    /// The system's name.
    pub fn name(self) -> &'static str {
        match self {
            RulesetId::Cnc => "Castles & Crusades",
            RulesetId::Spelljammer => "Spelljammer d100 house rules",
            RulesetId::Osr => "17 Combat (B/X-style)",
            RulesetId::Odd => "OD&D house rules",
            RulesetId::Celesia => "Legends of Celesia",
        }
    }

    /// The seed document the system comes from.
    pub fn seed_file(self) -> &'static str {
        match self {
            RulesetId::Cnc => "002_d052e44c4a5aca00.txt",
            RulesetId::Spelljammer => "003_abb45db44eb0a0ba.txt",
            RulesetId::Osr => "001_531e683ac1309b4e.txt",
            RulesetId::Odd => "004_6a582973b5aa35ae.txt",
            RulesetId::Celesia => "000_4c39471390719d24.txt",
        }
    }

    /// How many numbered rules (`…-R1` to `…-Rn`) the system's spec lists.
    pub fn spec_rules(self) -> u16 {
        match self {
            RulesetId::Cnc => 22,
            RulesetId::Spelljammer => 23,
            RulesetId::Osr => 32,
            RulesetId::Odd => 32,
            RulesetId::Celesia => 21,
        }
    }

    /// Parses a key (`cnc`, …).
    pub fn from_key(key: &str) -> Option<RulesetId> {
        RulesetId::ALL.into_iter().find(|id| id.key() == key)
    }
}

/// Whether a fight is over, who won, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Two or more sides can still fight.
    Ongoing,
    /// Only this side has anyone able to fight; the others were beaten as the reason says.
    Won(SideId, EndReason),
    /// Nobody is left able to fight.
    NoneStanding(EndReason),
}

/// Why a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EndReason {
    /// Every combatant out of the fight is down or dead: it was won by beating the foes down
    /// ("by kill").
    #[default]
    Defeated,
    /// Nobody on the losing sides fights on, and at least one of them fled, surrendered or was
    /// captured rather than fell ("the goblins routed"; OD&D morale, ODD-R5.6, ODD-R32.2).
    Routed,
    /// A limit stopped the fight: the round limit, or a limit reached inside a round (the
    /// answers per fight). Never an [`Outcome`] of the rules; only a [`crate::FightEnd`]'s.
    Limit,
}

impl EndReason {
    /// `defeated`, `routed`, `limit`: the word in JSON and CSV.
    pub fn key(self) -> &'static str {
        match self {
            EndReason::Defeated => "defeated",
            EndReason::Routed => "routed",
            EndReason::Limit => "limit",
        }
    }

    /// How a side that lost left the fight, given whether any of its members routed (fled,
    /// surrendered or was captured) rather than fell.
    pub fn of_losers(any_routed: bool) -> EndReason {
        if any_routed {
            EndReason::Routed
        } else {
            EndReason::Defeated
        }
    }
}

/// Where a combatant stands in a fight: still fighting, fallen (down or dead), or gone from the
/// fight without falling (fled, surrendered, captured).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Standing {
    /// Able to fight.
    #[default]
    Up,
    /// Unable to act (unconscious, dying, helpless) but alive.
    Down,
    /// Dead (a unit: slain to a man, ODD-R31.5).
    Dead,
    /// Ran away and out of the fight (a failed morale check, ODD-R5.6; a Run Away, OSR-A51).
    Fled,
    /// Gave up (a GM's ruling, ODD-A35).
    Surrendered,
    /// Taken prisoner.
    Captured,
    /// Held in reserve off the map (`reserve = true`) and never brought into the fight by the
    /// GM's `add`.
    Reserve,
}

impl Standing {
    /// Every standing, in a fixed order.
    pub const ALL: [Standing; 7] = [
        Standing::Up,
        Standing::Down,
        Standing::Dead,
        Standing::Fled,
        Standing::Surrendered,
        Standing::Captured,
        Standing::Reserve,
    ];

    /// `up`, `down`, `dead`, `fled`, `surrendered`, `captured`, `reserve`.
    pub fn key(self) -> &'static str {
        match self {
            Standing::Up => "up",
            Standing::Down => "down",
            Standing::Dead => "dead",
            Standing::Fled => "fled",
            Standing::Surrendered => "surrendered",
            Standing::Captured => "captured",
            Standing::Reserve => "reserve",
        }
    }

    /// Still able to fight.
    pub fn is_up(self) -> bool {
        self == Standing::Up
    }

    /// Fallen: down or dead.
    pub fn has_fallen(self) -> bool {
        matches!(self, Standing::Down | Standing::Dead)
    }

    /// Gone from the fight without falling: fled, surrendered or captured.
    pub fn has_routed(self) -> bool {
        matches!(
            self,
            Standing::Fled | Standing::Surrendered | Standing::Captured
        )
    }
}

/// One combatant's standing at the end of a fight, for statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Its side.
    pub side: SideId,
    /// Hit points left (a unit: its hit-point total).
    pub hp: i32,
    /// Hit points at full health.
    pub max_hp: i32,
    /// Damage it dealt to foes.
    pub dealt: i32,
    /// Damage it took.
    pub taken: i32,
    /// Up, down, dead, fled, surrendered or captured.
    pub standing: Standing,
    /// Figures it stands for: the men of a mass-combat unit (ODD-R31), 1 for a single combatant.
    pub figures: u32,
    /// Figures still alive at the end, whatever the standing (a unit's men alive, ODD-R31.6;
    /// a single combatant: 1, or 0 when dead).
    pub figures_left: u32,
}

impl Default for Tally {
    /// A single combatant, up, of the first side, with no hit points.
    fn default() -> Self {
        Tally::single(SideId::default(), 0, 0, Standing::Up)
    }
}

impl Tally {
    /// A single combatant (one figure, alive unless dead) that has dealt and taken no damage yet.
    pub fn single(side: SideId, hp: i32, max_hp: i32, standing: Standing) -> Tally {
        Tally {
            side,
            hp,
            max_hp,
            dealt: 0,
            taken: 0,
            standing,
            figures: 1,
            figures_left: u32::from(standing != Standing::Dead),
        }
    }

    /// Still able to fight.
    pub fn is_up(&self) -> bool {
        self.standing.is_up()
    }

    /// Down or dead (out of the fight by its wounds).
    pub fn is_down(&self) -> bool {
        self.standing.has_fallen()
    }

    /// Dead.
    pub fn is_dead(&self) -> bool {
        self.standing == Standing::Dead
    }

    /// Fled, surrendered or captured.
    pub fn has_routed(&self) -> bool {
        self.standing.has_routed()
    }
}

/// One rule system. Rules do no I/O and own no randomness: every die and every decision goes
/// through the [`Table`].
pub trait Ruleset: Sized + 'static {
    /// Which system this is.
    const ID: RulesetId;
    /// The whole state of a fight under these rules (positions, hit points, conditions…).
    /// Equal states (`Eq`) must have the same future: exact odds merge them
    /// ([`crate::distinct::Distinct`]), so derive `PartialEq` over every field.
    type State: Clone + Debug + Eq + Hash;
    /// An answer to a choice request (an action, a declaration, yes/no…).
    type Choice: Clone + Debug + PartialEq;

    /// Names of sides and combatants.
    fn roster(state: &Self::State) -> &Roster;

    /// Before the first round: surprise and anything else that happens once.
    fn begin(state: &mut Self::State, table: &mut Table<'_, Self>) -> Result<(), Interrupt>;

    /// Plays one round.
    fn play_round(state: &mut Self::State, table: &mut Table<'_, Self>) -> Result<(), Interrupt>;

    /// Plays the round on from where `state` stands to its next settled point inside it, or to
    /// its end: `Ok(true)` when the round is over (`play_round` is these steps one after
    /// another). A settled point is one where the state alone says how the round goes on (it
    /// records whose segment, act or blow is next, and what was declared): nothing of the
    /// round is left on the stack. Exact odds (`fray odds --fight`) merge equal states there,
    /// so its work is the distinct states at each point times the faces of the next rolls
    /// rather than the product over the round. Default: no inner points, the whole round.
    fn round_step(state: &mut Self::State, table: &mut Table<'_, Self>) -> Result<bool, Interrupt> {
        Self::play_round(state, table).map(|()| true)
    }

    /// The state exact odds keep for `state` at a settled point (a round's end, or a point
    /// inside a round, [`Ruleset::round_step`]): `state` with what can change neither its
    /// future nor the odds reported forgotten (damage tallies, a dead combatant's hit
    /// points…), so that states that differ only there merge ([`crate::distinct::Distinct`]).
    /// It must keep every field a rule may read again, and each ruleset that overrides it
    /// proves so field by field in its doc comment; `fray odds --round` reports the figures
    /// of the kept state. Default: the state itself.
    fn odds_key(state: &Self::State) -> Cow<'_, Self::State> {
        Cow::Borrowed(state)
    }

    /// [`Ruleset::odds_key`] for a fight that plays no round after `last` (its round limit):
    /// what only a later round would read may be forgotten too (a condition's mark for a
    /// round past `last`), since the programme stops every branch at the end of round `last`
    /// (a stalemate) without reading it. The same proof as `odds_key`'s, each field read
    /// only in rounds after `last` named. Default: [`Ruleset::odds_key`].
    fn odds_key_within(state: &Self::State, last: u32) -> Cow<'_, Self::State> {
        let _ = last;
        Self::odds_key(state)
    }

    /// Whether the fight is over.
    fn outcome(state: &Self::State) -> Outcome;

    /// The canonical text of a choice (`attack orc-2`), used in logs and scripts.
    fn choice_text(state: &Self::State, choice: &Self::Choice) -> String;

    /// Reads a choice typed by a person or a script. The result is checked by
    /// [`Ruleset::check_choice`] afterwards.
    fn parse_choice(
        state: &Self::State,
        request: &ChoiceRequest<'_, Self::Choice>,
        text: &str,
    ) -> Result<Self::Choice, Illegal>;

    /// Is this choice of the kind `question` asks for (a declaration, an action, a yes/no)?
    /// Scripts use it to leave a scripted choice for the request it is meant for.
    fn answers(question: crate::protocol::Question, choice: &Self::Choice) -> bool;

    /// Is this choice allowed here? Refusals name the rule that forbids it.
    fn check_choice(
        state: &Self::State,
        request: &ChoiceRequest<'_, Self::Choice>,
        choice: &Self::Choice,
    ) -> Result<(), Illegal>;

    /// Each combatant's standing, in roster order (cleared and refilled).
    fn tallies(state: &Self::State, out: &mut Vec<Tally>);

    /// The conditions a combatant has now, in words, for a tracker's status (`prone`,
    /// `stunned`, `casting bolt of energy`). None by default.
    fn conditions(state: &Self::State, who: crate::CombatantId) -> Vec<String> {
        let _ = (state, who);
        Vec::new()
    }

    /// The map's features now, in words, for the GM's status (`hazard: fire pit at 3 1`). Shown
    /// only to those shown the combatants' squares (the GM: a player's view carries no
    /// squares). None by default.
    fn map_features(state: &Self::State) -> Vec<String> {
        let _ = state;
        Vec::new()
    }

    /// The map's terrain now (obstacle and difficult squares), for the trackers' maps and
    /// status. Seen by everyone: a wall or rubble is in plain sight. None by default.
    fn terrain(state: &Self::State) -> MapTerrain {
        let _ = state;
        MapTerrain::default()
    }

    /// Applies a GM intervention at an intervention point (see
    /// [`crate::runner::Table::intervention_point`]). A ruleset supports those its state can
    /// take; the rest are refused ([`crate::intervention::Intervention::refused`]), saying why.
    fn intervene(
        state: &mut Self::State,
        table: &mut Table<'_, Self>,
        intervention: &crate::intervention::Intervention,
    ) -> Result<(), Interrupt> {
        let _ = (state, table);
        Err(intervention.refused(format!("{} takes no GM interventions", Self::ID.name())))
    }

    /// The default tactics: what a sensible player of this combatant would choose.
    fn tactics(state: &Self::State, request: &ChoiceRequest<'_, Self::Choice>) -> Self::Choice;
}

/// A map's terrain, for the trackers ([`Ruleset::terrain`]): the squares nobody stands on or sees
/// through, and those that hamper movement, each north to south, west to east.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapTerrain {
    /// The obstacle squares.
    pub obstacles: Vec<crate::Pos>,
    /// The difficult-terrain squares.
    pub difficult: Vec<crate::Pos>,
}

impl MapTerrain {
    /// No terrain at all?
    pub fn is_empty(&self) -> bool {
        self.obstacles.is_empty() && self.difficult.is_empty()
    }
}

/// Which of its spec's numbered rules a ruleset implements: all of `prefix1` … `prefixN` but
/// the `missing` ones, the `partial` ones only in part (the ruleset's doc says which parts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleStatus {
    /// The rule prefix, e.g. `CNC-R`.
    pub prefix: &'static str,
    /// How many numbered rules the spec lists.
    pub total: u16,
    /// The numbers not implemented yet.
    pub missing: &'static [u16],
    /// The numbers implemented in part (counted as implemented, named apart).
    pub partial: &'static [u16],
}

impl RuleStatus {
    /// How many rules are implemented.
    pub fn implemented(&self) -> usize {
        usize::from(self.total) - self.missing.len()
    }

    /// Every rule id with whether it is implemented, in order.
    pub fn rules(&self) -> impl Iterator<Item = (String, bool)> + '_ {
        (1..=self.total).map(|n| (format!("{}{n}", self.prefix), !self.missing.contains(&n)))
    }

    /// The ids of the rules implemented only in part, in order.
    pub fn partial_rules(&self) -> Vec<String> {
        let mut numbers = self.partial.to_vec();
        numbers.sort_unstable();
        numbers
            .iter()
            .map(|n| format!("{}{n}", self.prefix))
            .collect()
    }
}

/// Which extra outcomes an attack can have, for exact odds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criticals {
    /// None (C&C has no critical hits and no fumbles).
    None,
    /// Critical hits.
    Critical,
    /// Critical and grievous hits (Spelljammer).
    Grievous,
    /// Critical hits and critical fumbles (OSR-R17/R18; OD&D's natural 1, ODD-R11).
    CriticalAndFumble,
}

impl Criticals {
    /// Attacks can be critical hits.
    pub fn has_critical(self) -> bool {
        self != Criticals::None
    }

    /// Attacks can be grievous hits.
    pub fn has_grievous(self) -> bool {
        self == Criticals::Grievous
    }

    /// Attacks can be fumbles.
    pub fn has_fumble(self) -> bool {
        self == Criticals::CriticalAndFumble
    }
}

/// One attack played alone from a state, for exact odds (`fray odds`).
pub type AttackPlay<R> = fn(
    &mut <R as Ruleset>::State,
    &mut Table<'_, R>,
    crate::CombatantId,
    crate::CombatantId,
) -> Result<(), Interrupt>;

/// One blow of an attacker's whole action (its routine: every attack of a multi-attack monster),
/// for `fray odds --routine`: plays blow `blow` (from 0) of `attacker`'s routine against
/// `target` from `state`, where the routine started in `start` (blow 0 closes in first, as
/// [`RulesetBundle::SINGLE_ATTACK`] does). Returns false, leaving `state` as it is, when the
/// routine has no such blow or is over (the target fell). The rest of the routine must depend
/// on nothing but `start` and `state` (no locals carried between blows): that is what lets
/// `fray odds` merge equal states between blows.
pub type RoutineBlow<R> = fn(
    &<R as Ruleset>::State,
    &mut <R as Ruleset>::State,
    &mut Table<'_, R>,
    crate::CombatantId,
    crate::CombatantId,
    usize,
) -> Result<bool, Interrupt>;

/// The situation `fray odds` sets before an attack: the weapon to use (`--weapon`) and
/// situational options (`--situation flank`, `--situation cover=half`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Situation {
    /// The attack form or weapon to use, by name.
    pub weapon: Option<String>,
    /// Options as `(name, value)`; a bare name has an empty value.
    pub options: Vec<(String, String)>,
}

/// Which attack `--weapon` kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeaponKept {
    /// A melee form (the others and the missile weapon are set aside).
    Melee,
    /// The missile weapon (the melee forms are set aside).
    Ranged,
}

/// Keeps only the attack named `weapon` (spelled either way, see `catalog::name_key`) among a
/// combatant's melee forms and missile weapon; else the names it has, for the message.
pub fn keep_weapon<M, W>(
    weapon: &str,
    melee: &mut Vec<M>,
    ranged: &mut Option<W>,
    melee_name: impl Fn(&M) -> &str,
    ranged_name: impl Fn(&W) -> &str,
) -> Result<WeaponKept, Vec<String>> {
    use crate::catalog::name_key;
    let key = name_key(weapon);
    if melee.iter().any(|m| name_key(melee_name(m)) == key) {
        melee.retain(|m| name_key(melee_name(m)) == key);
        *ranged = None;
        Ok(WeaponKept::Melee)
    } else if ranged
        .as_ref()
        .is_some_and(|w| name_key(ranged_name(w)) == key)
    {
        melee.clear();
        Ok(WeaponKept::Ranged)
    } else {
        Err(melee
            .iter()
            .map(|m| melee_name(m).to_string())
            .chain(ranged.iter().map(|w| ranged_name(w).to_string()))
            .collect())
    }
}

/// [`keep_weapon`] with the refusal every ruleset gives `fray odds --weapon`: "Fighter 1 has no
/// weapon `axe`; it attacks with long sword".
pub fn keep_named_weapon<M, W>(
    who: &str,
    weapon: &str,
    melee: &mut Vec<M>,
    ranged: &mut Option<W>,
    melee_name: impl Fn(&M) -> &str,
    ranged_name: impl Fn(&W) -> &str,
) -> Result<WeaponKept, String> {
    keep_weapon(weapon, melee, ranged, melee_name, ranged_name).map_err(|names| {
        format!(
            "{who} has no weapon `{weapon}`; it attacks with {}",
            names.join(", ")
        )
    })
}

impl Situation {
    /// The weapon of a ruleset whose only situation is `--weapon`; any other option is refused:
    /// "unknown situation `cover` for osr; it takes only --weapon".
    pub fn only_weapon(&self, ruleset: &str) -> Result<Option<&str>, String> {
        match self.options.first() {
            Some((name, _)) => Err(format!(
                "unknown situation `{name}` for {ruleset}; it takes only --weapon"
            )),
            None => Ok(self.weapon.as_deref()),
        }
    }

    /// Nothing set.
    pub fn is_empty(&self) -> bool {
        self.weapon.is_none() && self.options.is_empty()
    }
}

/// Everything the engine needs of a ruleset crate beyond its rules: its content, its encounter
/// loader, its single-attack hook for exact odds, and how much of its spec it implements. The
/// engine's one registration list names each ruleset type once.
pub trait RulesetBundle: Ruleset {
    /// Its content (weapons, monsters…), loaded once.
    type Content: crate::catalog::ContentSet + Debug + Send + Sync;

    /// The content files built into fray, as `(path, text)`.
    const CONTENT_FILES: &'static [(&'static str, &'static str)];

    /// How much of the spec is implemented.
    const RULES: RuleStatus;

    /// Extra attack outcomes for exact odds.
    const CRITICALS: Criticals;

    /// Loads the content embedded in the build.
    fn embedded_content() -> Result<Self::Content, crate::span::FileErrors> {
        crate::catalog::ContentSet::load(Self::CONTENT_FILES)
    }

    /// Reads an encounter file of this ruleset.
    fn load(
        path: &str,
        text: &str,
        content: &Self::Content,
    ) -> Result<crate::loader::Encounter<Self::State>, crate::span::FileErrors>;

    /// One attack from `attacker` on `target`, alone (closing in first if the rules allow).
    const SINGLE_ATTACK: AttackPlay<Self>;

    /// The attacker's whole action blow by blow, for `fray odds --routine` (`None`: not
    /// available for this ruleset yet).
    const ROUTINE: Option<RoutineBlow<Self>> = None;

    /// The situational options `fray odds --situation` accepts: `(name, what it sets)`.
    const SITUATIONS: &'static [(&'static str, &'static str)] = &[];

    /// Sets up the starting state of `fray odds` as asked: the weapon (`--weapon`) and every
    /// situational option. An unknown weapon or option is an error saying what is accepted.
    fn set_situation(
        state: &mut Self::State,
        attacker: crate::CombatantId,
        target: crate::CombatantId,
        situation: &Situation,
    ) -> Result<(), String> {
        let _ = (state, attacker, target);
        if situation.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} takes no --weapon or --situation",
                Self::ID.key()
            ))
        }
    }

    /// The content as `fray content` lists it, one table per kind.
    fn content_tables(content: &Self::Content) -> Vec<crate::catalog::ContentTable>;
}
