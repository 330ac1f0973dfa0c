//! Legends of Celesia combat (seed `000_4c39471390719d24.txt`, spec `celesia.md`) on the fray
//! engine: initiative once and the surprise round, the 3-act turn with reactions, advantage as
//! kept d20s, degrees of success and criticals, attacks of opportunity, disabled/dying/dead,
//! crippling injuries and massive damage.
//!
//! [`Celesia`] implements [`fray_core::Ruleset`]. Rules live in [`rules`], one module per part
//! of the seed; content (weapons, armour, classes, creatures) is data in `content/celesia/`.

#![forbid(unsafe_code)]

pub mod animal_tactics;
pub mod caster_tactics;
pub mod choice;
pub mod content;
pub mod counter_tactics;
pub mod encounter;
pub mod feint_tactics;
#[cfg(test)]
pub(crate) mod fixture;
pub mod foe_sight;
pub mod grip_tactics;
pub mod heal_tactics;
pub mod hinder_tactics;
pub mod initiator;
pub mod initiator_tactics;
pub mod magus_tactics;
pub mod maneuver_tactics;
pub mod natural_ranged_tactics;
pub mod rules;
pub mod space;
pub mod spell;
pub mod spell_value;
pub mod state;
pub mod support_tactics;
pub mod tactics;

pub use choice::Choice;
pub use content::Content;
pub use encounter::{load, Encounter};
pub use state::State;

use fray_core::board::{Board, Piece};
use fray_core::protocol::{ChoiceRequest, Illegal, Interrupt};
use fray_core::ruleset::{
    AttackPlay, Criticals, Outcome, RuleStatus, Ruleset, RulesetBundle, RulesetId,
};
use fray_core::span::FileErrors;
use fray_core::{CombatantId, Roster, Table};
use rules::attack::Form;

/// The Legends of Celesia ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Celesia;

impl Ruleset for Celesia {
    const ID: RulesetId = RulesetId::Celesia;
    type State = State;
    type Choice = Choice;

    fn roster(state: &State) -> &Roster {
        &state.roster
    }

    fn begin(state: &mut State, table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        rules::round::begin(state, table)
    }

    fn play_round(state: &mut State, table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        rules::round::play_round(state, table)
    }

    fn round_step(state: &mut State, table: &mut Table<'_, Self>) -> Result<bool, Interrupt> {
        rules::round::round_step(state, table)
    }

    /// A dead combatant's hit points and bleeding forgotten (see `rules::odds_key::odds_key`).
    fn odds_key(state: &State) -> std::borrow::Cow<'_, State> {
        rules::odds_key::odds_key(state)
    }

    fn outcome(state: &State) -> Outcome {
        // Ongoing while two sides have someone standing (asked after every action: the
        // shared reckoning builds every piece, `up` and all, before it looks at the side).
        // Records and statistics side by side (`Board::stands` without an id lookup each).
        // The first one standing, then anyone standing on another side, looked for from the
        // end of the roster (where the other side usually is; issue 16): the same answer as
        // one pass from the start.
        let n = state.fighters.len().min(state.profiles.len());
        let (fighters, profiles) = (&state.fighters[..n], &state.profiles[..n]);
        let stands = |i: usize| !fighters[i].riderless && state::up_of(&fighters[i], &profiles[i]);
        // The two last found standing on different sides, first (`State::standing_pair`).
        if let Some((a, b)) = state.standing_pair.get() {
            if a < n && b < n && fighters[a].side != fighters[b].side && stands(a) && stands(b) {
                return Outcome::Ongoing;
            }
        }
        if let Some(first) = (0..n).find(|&i| stands(i)) {
            let side = fighters[first].side;
            if let Some(other) = (first + 1..n)
                .rev()
                .find(|&i| fighters[i].side != side && stands(i))
            {
                state.standing_pair.set(first, other);
                return Outcome::Ongoing;
            }
        }
        state.outcome_by_side()
    }

    fn choice_text(state: &State, choice: &Choice) -> String {
        choice::text(state, choice)
    }

    fn parse_choice(
        state: &State,
        _request: &ChoiceRequest<'_, Choice>,
        text: &str,
    ) -> Result<Choice, Illegal> {
        choice::parse(state, text)
    }

    fn answers(question: fray_core::protocol::Question, choice: &Choice) -> bool {
        choice::answers(question, choice)
    }

    fn check_choice(
        state: &State,
        request: &ChoiceRequest<'_, Choice>,
        choice: &Choice,
    ) -> Result<(), Illegal> {
        rules::legal::check_request(state, request, choice)
    }

    fn tallies(state: &State, out: &mut Vec<fray_core::Tally>) {
        out.clear();
        out.extend(state.ids().map(|id| {
            let (f, p) = (state.f(id), state.p(id));
            fray_core::Tally {
                dealt: f.dealt,
                taken: f.taken,
                ..fray_core::Tally::single(f.side, f.hp, p.max_hp, state.standing(id))
            }
        }));
    }

    fn tactics(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
        tactics::choose(state, request)
    }

    fn conditions(state: &State, who: CombatantId) -> Vec<String> {
        let f = state.f(who);
        let mut out = Vec::new();
        match state.band(who) {
            state::Band::Disabled => out.push("disabled".to_string()),
            state::Band::Dying if f.stable => out.push("dying (stable)".to_string()),
            state::Band::Dying => out.push("dying".to_string()),
            _ => {}
        }
        if state.knocked_out(who) {
            out.push("unconscious".into());
        } else if state.staggered(who) {
            out.push("staggered".into());
        }
        if f.confusion.on {
            out.push(match f.confusion.attacked_by {
                Some(a) => format!("confused (attacks {} back)", state.roster.key(a)),
                None => "confused".to_string(),
            });
        }
        if f.gm_dv != 0 {
            out.push(format!("DV {:+} (GM)", f.gm_dv));
        }
        if f.gm_dc != 0 {
            out.push(format!("save and check DCs {:+} (GM)", f.gm_dc));
        }
        if f.temp_hp > 0 {
            out.push(format!("{} temporary hp", f.temp_hp));
        }
        // CEL-R20.5 Changing damage type.
        match f.deal_nonlethal {
            Some(true) => out.push("dealing nonlethal damage".to_string()),
            Some(false) => out.push("dealing lethal damage".to_string()),
            None => {}
        }
        // Seed, Attack, Melee: a one-handed weapon held in both hands (`rules::grip`).
        if f.grip {
            out.push("weapon in both hands".to_string());
        }
        // CEL-R9 Ready or Drop a Shield.
        if let Some(s) = &state.p(who).shield {
            match f.shield {
                rules::shield::ShieldAt::Carried => {
                    out.push(format!("{} carried, not strapped on", s.name))
                }
                rules::shield::ShieldAt::Dropped(_) => out.push(format!("{} dropped", s.name)),
                rules::shield::ShieldAt::Strapped => {}
            }
        }
        // CEL-R10.3: items a disarm made it drop, until picked up.
        for &(book, _, _) in &f.gear_on_ground {
            let name = rules::belonging::Belonging::Gear(book).name(state, who);
            out.push(format!("{name} dropped"));
        }
        if !f.ropes_on_ground.is_empty() {
            out.push(format!("{} rope(s) dropped", f.ropes_on_ground.len()));
        }
        for (on, name) in [
            (f.flat_footed, "flat-footed"),
            (f.prone, "prone"),
            (f.charged, "open after charging"),
            (f.total_defense > 0, "total defense"),
            (f.defensive, "fighting defensively"),
            (f.running, "running"),
            (f.concealed, "concealed"),
            (f.invisible, "invisible"),
            (f.tied.is_some(), "tied up"),
            (f.sr_lowered, "spell resistance lowered"),
            (f.netted, crate::rules::escape::NETTED),
            (f.on_fire, crate::rules::fire::ON_FIRE),
            (f.riding.is_some(), "mounted"),
            (f.riderless, "without its rider"),
            (state.grappled(who), "grappled"),
            (state.pinned(who), "pinned"),
            (
                f.held_by
                    .is_some_and(|g| state.f(g).hold.is_some_and(|h| h.choke)),
                "in a chokehold",
            ),
        ] {
            if on {
                out.push(name.to_string());
            }
        }
        for trick in f.trick_kinds() {
            out.push(fray_core::conditions::ConditionKind::key(trick).to_string());
        }
        out.extend(f.table_conditions.iter().map(|c| c.key().to_string()));
        if f.acts_left > 0 {
            out.push(format!("{} acts left", f.acts_left));
        }
        if let Some(t) = f.task.filter(|t| !t.consecutive || t.clock == f.act_clock) {
            out.push(format!("complex action {} of {} acts", t.done, t.needed));
        }
        out.push(format!(
            "{} reaction{}",
            f.reactions,
            if f.reactions == 1 { "" } else { "s" }
        ));
        if f.nonlethal > 0 {
            out.push(format!("{} nonlethal", f.nonlethal));
        }
        if f.burn > 0 {
            out.push(format!("{} burn", f.burn));
        }
        if f.injuries.count > 0 {
            out.push(format!("{} crippling injuries", f.injuries.count));
        }
        if f.bleed > 0 {
            out.push(format!("bleeding {}", f.bleed));
        }
        out.extend(spell::penalty_words(state, who));
        out.extend(rules::stance::status_words(state, who));
        out
    }

    /// The hazardous squares (the map's and the GM's), each with its name and what it does.
    /// [CEL-R10.10 Move]
    fn map_features(state: &State) -> Vec<String> {
        rules::hazard::words(state)
    }

    /// The obstacles and difficult terrain (the encounter's and the GM's). [CEL-R7.3, R9, R11]
    fn terrain(state: &State) -> fray_core::ruleset::MapTerrain {
        fray_core::ruleset::MapTerrain {
            obstacles: state.terrain.obstacles().to_vec(),
            difficult: state.terrain.difficult().to_vec(),
        }
    }

    fn intervene(
        state: &mut State,
        table: &mut Table<'_, Self>,
        intervention: &fray_core::intervention::Intervention,
    ) -> Result<(), Interrupt> {
        rules::intervene::intervene(state, table, intervention)
    }
}

impl RulesetBundle for Celesia {
    type Content = Content;
    const CONTENT_FILES: &'static [(&'static str, &'static str)] = &content::CONTENT_FILES;
    /// Every rule is played at least in part; the `partial` ones are listed (docs/celesia.md,
    /// *What fray does not play, and why*: each part left out is one the seed names without
    /// defining it). R9 all but Search of an area (no traps, hidden objects or footprints;
    /// Search for invisible creatures is played); Initiate Boost is played over the GM's boosts
    /// as data (`rules::boost`);
    /// Handle an Animal (free with `handle_free`, `rules::animal`) and Direct or Redirect a
    /// Spell (a spell's weapon, `rules::spell_weapon`) are played; Demoralize and Recall
    /// Knowledge take their DCs from the GM's rulings. R11 all but Treat Poison (the seed
    /// defines no poison; Initiate Standard Strike: the GM's strikes as data, `rules::strike`;
    /// Treat a Wound: `rules::treat_wound`; Lock or Unlock a Weapon in a Locked Gauntlet:
    /// `rules::gauntlet`). R12 Run, Initiate Full-Attack Strike (the GM's strikes with
    /// `initiation = "full-attack"`, `rules::strike`), Coup de Grace (lethal and nonlethal, a rogue's sneak attack
    /// on it), full-action spells, Load a One-Handed Simple Firearm, Administer a Potion and
    /// Push an Animal (not past an animal's limits). R13 Disable Device, Find Tracks (the GM's
    /// rulings), 1-round spells and Load a Two-Handed Simple Firearm. R14 all but other
    /// abilities' free actions (stances: the GM's data, `rules::stance`). R15 attacks of
    /// opportunity, readied actions, counterspells with the same spell, Counter and
    /// immediate-action abilities on "a foe attacks you" (`rules::counter`), not counterspells
    /// with another spell. R20 all but a source of burn. R3 (every readied action and trigger
    /// of the seed, 1-round and complex actions), R17 (R17.7 first aid, the bleeding R17.5
    /// names stopped by Treat a Wound; Constitution damage and drain: `rules::con_loss`), R6
    /// (spells with spell resistance, Aid Another on attacks, skills and spells, Spell Combat
    /// and Spellstrike), R10 (every maneuver, on items, ropes and shields too), R18 (the
    /// confusion of three head injuries, `rules::confusion`, the injuries on the skills fray
    /// rolls) and R21 (R21.8: shots at each increment of the mount's move) are played whole.
    const RULES: RuleStatus = RuleStatus {
        prefix: "CEL-R",
        total: 21,
        missing: &[],
        partial: &[9, 11, 12, 13, 14, 15, 20],
    };
    const CRITICALS: Criticals = Criticals::Critical;
    const SINGLE_ATTACK: AttackPlay<Self> = single_attack;
    const ROUTINE: Option<fray_core::ruleset::RoutineBlow<Self>> = Some(routine_blow);

    fn load(path: &str, text: &str, content: &Content) -> Result<Encounter, FileErrors> {
        encounter::load(path, text, content)
    }

    fn content_tables(content: &Content) -> Vec<fray_core::catalog::ContentTable> {
        content.tables()
    }

    fn set_situation(
        state: &mut State,
        attacker: CombatantId,
        _target: CombatantId,
        situation: &fray_core::ruleset::Situation,
    ) -> Result<(), String> {
        choose_weapon(state, attacker, situation)
    }
}

impl Board for State {
    fn combatant_count(&self) -> usize {
        self.fighters.len()
    }
    /// A fallen body still fills its square; the dead and the gone do not. A mount without its
    /// rider avoids combat (CEL-R21.11): it no longer counts as standing for its side.
    fn piece(&self, who: CombatantId) -> Piece {
        let f = self.f(who);
        Piece::new(f.side, f.pos, self.stands(who), !f.absent())
    }
    // The parts of `piece` on their own (the shared searches ask for one at a time; `up`
    // is the costly one).
    fn side_of(&self, who: CombatantId) -> fray_core::SideId {
        self.f(who).side
    }
    fn square_of(&self, who: CombatantId) -> fray_core::Pos {
        self.f(who).pos
    }
    #[inline]
    fn stands(&self, who: CombatantId) -> bool {
        !self.f(who).riderless && self.up(who)
    }
    fn blocks(&self, who: CombatantId) -> bool {
        !self.f(who).absent()
    }
    /// [`Board::nearest_foe`], searching outside the mover's side's layer (`State::new` puts
    /// each side in its own layer, sides never change, and no side is numbered as high as
    /// `OUT_OF_FIGHT`: at most 32 sides): friends are not even looked at.
    ///
    /// The answer of `Occupancy::nearest_outside` — the least (distance in squares, id) over
    /// every occupied square outside the layer whose occupant stands — found by reading those
    /// squares (a fight's dozen or so) instead of probing rings of cells, and asking whether
    /// one stands only when it would be the best so far (issue 16: the ring search cost 4%).
    fn nearest_foe(&self, who: CombatantId) -> Option<CombatantId> {
        self.nearest_foe_noting_fallen(who).0
    }
    /// [`Board::nearest_foe_distance`], searching outside the side's layer (as `nearest_foe`).
    fn nearest_foe_distance(&self, who: CombatantId, at: fray_core::Pos) -> Option<i32> {
        let side = self.f(who).side;
        self.occupancy
            .nearest_outside(at, i32::MAX, side.0, |other, _| {
                (self.f(other).side != side && self.stands(other)).then_some(())
            })
            .map(|(d, (), _)| d)
    }
    /// Up, down (dying, unconscious) or dead — or gone, on the GM's word.
    fn standing(&self, who: CombatantId) -> fray_core::Standing {
        let f = self.f(who);
        if let Some(gone) = f.gone {
            gone
        } else if self.up(who) {
            fray_core::Standing::Up
        } else if f.dead {
            fray_core::Standing::Dead
        } else {
            fray_core::Standing::Down
        }
    }
    fn occupancy(&self) -> &fray_core::Occupancy {
        &self.occupancy
    }
    /// Free for `except` to stand on: every square of its space (CEL-R21.3).
    fn square_free(&self, pos: fray_core::Pos, except: CombatantId) -> bool {
        self.space_free(pos, except)
    }
}

/// Sets up an attack for `fray odds`, with neither flat-footed (a blow in the thick of the
/// fight), round 1: a melee blow with its best form if the target is in reach or no shot is
/// possible (closing in first, to the nearest square from which it can strike), else a shot.
/// On a map with obstacles a blow or a shot needs a line of effect to the target (CEL-R7.1, R9;
/// `rules::line_of_effect`): a form in reach across a wall is passed over, and closing in goes
/// to the nearest free square from which a form reaches with a line. The form it attacks with;
/// `None` when it has none; refused, naming the rule, when an obstacle leaves it no blow and no
/// shot.
fn open_attack(
    state: &mut State,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<Option<Form>, Interrupt> {
    state.round = 1;
    state.fm(attacker).flat_footed = false;
    state.fm(target).flat_footed = false;
    let from = state.f(attacker).pos;
    let best = |s: &State, from| {
        let gap = s.gap_from(attacker, from, target);
        if !rules::line_of_effect::open_from(s, attacker, from, target) {
            return None;
        }
        s.melee_forms(attacker)
            .filter(|(_, w)| state::reaches(w, gap))
            .max_by_key(|(i, w)| {
                (
                    w.kind != content::WeaponKind::Unarmed,
                    i32::from(w.damage.count) * i32::from(w.damage.sides),
                    -(*i as i32),
                )
            })
            .map(|(i, _)| i)
    };
    if let Some(form) = best(state, from) {
        return Ok(Some(Form::Melee(form)));
    }
    let in_line = rules::line_of_effect::open(state, attacker, target);
    if let Some(w) = state.ranged_weapon(attacker) {
        if state.feet_between(attacker, target) <= w.max_range() && in_line {
            return Ok(Some(Form::Ranged));
        }
    }
    let walled = state.terrain.has_obstacles();
    let square = if walled {
        rules::movement::strike_square_anywhere(state, attacker, target)
    } else {
        state.strike_square(attacker, target, 1)
    };
    let Some(square) = square else {
        // Refused only where the obstacles are why: no line from here, or a square a blow
        // would strike from on an open map.
        if walled && (!in_line || state.strike_square(attacker, target, 1).is_some()) {
            return Err(no_line_for_odds(state, attacker, target, in_line));
        }
        return Ok(None);
    };
    state.set_square(attacker, square);
    Ok(best(state, square).map(Form::Melee))
}

/// `fray odds`'s refusal when obstacles leave `attacker` neither a blow nor a shot at `target`.
/// [CEL-R9; `rules::line_of_effect`]
fn no_line_for_odds(
    state: &State,
    attacker: CombatantId,
    target: CombatantId,
    in_line: bool,
) -> Interrupt {
    let (a, t) = (state.roster.key(attacker), state.roster.key(target));
    let reason = if in_line {
        format!(
            "{a} has no shot at {t} and no free square from which a blow reaches {t} with a \
             line of effect to it"
        )
    } else {
        format!(
            "an obstacle blocks every line from {a} to {t} (no line of effect or sight), and no \
             free square from which a blow reaches {t} has one"
        )
    };
    let illegal = Illegal {
        rule: "CEL-R9",
        reason,
    };
    Interrupt::illegal_choice(
        fray_core::protocol::Chooser::Combatant(attacker),
        format!("attack {t}"),
        illegal,
    )
}

/// One attack by `attacker` on `target`, as `fray odds` enumerates it, set up by
/// [`open_attack`].
pub fn single_attack(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let Some(form) = open_attack(state, attacker, target)? else {
        return Ok(());
    };
    let rule = match form {
        Form::Melee(_) => "CEL-R9",
        Form::Ranged => "CEL-R7",
    };
    rules::attack::attack(state, table, attacker, target, form, None, rule)?;
    Ok(())
}

/// Blow `blow` of `attacker`'s turn of attacks on `target`, for `fray odds --routine`, set up
/// as [`single_attack`] is: the acts of a turn (CEL-R3.2, [`rules::round::budget`] on the
/// starting state), each spent on a Strike with the form [`open_attack`] picks (a shot,
/// CEL-R7, when that is what it picks), each played by [`rules::round::perform`], what a fight
/// runs for each act; the multiple-attack penalty grows with each (CEL-A13). They stop when
/// the acts are spent, the attacker is down, or the target is out of the fight (a fight's
/// tactics turn to another foe, which changes nothing for this target). Merging between blows
/// is sound: the form and the budget are judged from `start`; the acts left, the attacks made
/// this turn and every effect of a blow are in the state.
pub fn routine_blow(
    start: &State,
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    blow: usize,
) -> Result<bool, Interrupt> {
    let mut opened = start.clone();
    let Some(form) = open_attack(&mut opened, attacker, target)? else {
        return Ok(false);
    };
    if blow == 0 {
        open_attack(state, attacker, target)?;
        let acts = rules::round::budget(&opened, attacker).0;
        let f = state.fm(attacker);
        f.attacks_this_turn = 0;
        f.melee_attacked = false;
        f.acts_left = acts;
    }
    let choice = match form {
        Form::Melee(i) => Choice::Attack(target, i as u8),
        Form::Ranged => Choice::Shoot(target),
    };
    let cost = rules::complex::cost(state, attacker, &choice);
    if state.f(attacker).acts_left < cost || !state.up(attacker) || !state.up(target) {
        return Ok(false);
    }
    rules::round::perform(state, table, attacker, choice)?;
    Ok(true)
}

/// `fray odds --weapon NAME` for Celesia: keeps only the named melee form(s) or the ranged
/// weapon (Celesia takes no other situational option).
fn choose_weapon(
    state: &mut State,
    attacker: CombatantId,
    situation: &fray_core::ruleset::Situation,
) -> Result<(), String> {
    let Some(weapon) = situation.only_weapon("celesia")? else {
        return Ok(());
    };
    let mut profiles = state.profiles.to_vec();
    let p = &mut profiles[attacker.index()];
    fray_core::ruleset::keep_named_weapon(
        state.roster.name(attacker),
        weapon,
        &mut p.melee,
        &mut p.ranged,
        |w| &w.name,
        |w| &w.name,
    )?;
    state.profiles = profiles.into();
    Ok(())
}
