//! The canonical key of an OSR state for exact odds (`Ruleset::odds_key`): the state at a
//! settled point ([`super::round::round_step`]) with what no rule reads again forgotten, so
//! that the fight programme merges states that differ only there.

use crate::choice::Action;
use crate::state::{Fighter, Paused, Plan, State};
use fray_core::grid::Bearing;
use fray_core::{Direction, Pos};
use std::borrow::Cow;

/// `state` as exact odds keep it: at every point the damage tallies and a dead combatant's hit
/// points ([`forget_tallies`]), the rest of a dead combatant's record once it can no longer act
/// ([`forget_the_dead`]), and a knocked-out combatant's hit points where nothing in the
/// fight heals by an amount ([`forget_knocked_out_hp`]), the round marks of conditions that are
/// over ([`forget_past_marks`]), and where no square can change again the facings, each
/// replaced by the first that reads alike ([`forget_facings`]); inside a round (`State::paused` set: the countdown or the held
/// sets still to come) the initiative numbers' values, of which only the order is read
/// ([`rank_numbers`]); between rounds (`State::paused` is `Paused::No`: a round's end, or the
/// fight before its first round, where the first round's start resets the same records before
/// reading them) what the next round resets ([`forget_round`]).
pub fn odds_key(state: &State) -> Cow<'_, State> {
    let mut key = state.clone();
    forget_tallies(&mut key);
    forget_the_dead(&mut key);
    forget_knocked_out_hp(&mut key);
    forget_past_marks(&mut key);
    forget_facings(&mut key);
    if key.paused == Paused::No {
        forget_round(&mut key);
    } else {
        rank_numbers(&mut key);
    }
    Cow::Owned(key)
}

/// [`odds_key`] for a fight that plays no round after `last` (its round limit,
/// `Ruleset::odds_key_within`): besides, the round marks of timed conditions past `last`
/// ([`forget_after`]).
pub fn odds_key_within(state: &State, last: u32) -> Cow<'_, State> {
    let mut key = odds_key(state).into_owned();
    forget_after(&mut key, last);
    Cow::Owned(key)
}

/// Where no round after `last` is played ([`odds_key_within`]): every round a rule reads a
/// mark against is at most `last` (the programme stops each branch at the end of round
/// `last`, a stalemate, reading nothing more), so a mark past `last` reads as `last` does, or
/// as none, and is set so, so that those who fumbled, were shaken or blinded for different
/// lengths past the limit merge. Field by field (the reads as in [`forget_past_marks`]):
/// - `no_attack_round`, `ground_fire_round` are read only as `== round`: a mark past `last`
///   reads as 0 does, and each is overwritten when set again: 0;
/// - `shaken_until`, `blinded_until`, `reloading_until` are read as `>= round` (and `> 0`) or
///   `< round` with `round <= last`: a mark past `last` reads as `last` does; raised with `max`
///   (a new mark gives `last` or more either way, and reads alike) or overwritten; at a round's
///   end read as `== round` only for the log: `last`;
/// - `pending_until` (a critical's condition not yet settled, OSR-A32) becomes one of those
///   marks with `max` as its number ends: `last`;
/// - a stumble (`Fighter::stumbling`: `from <= round <= until`) that ends past `last` ends at
///   `last` for every round read; one that begins past `last` is never read, and neither is a
///   new one (set in a round at least `from − 1 >= last`, it too begins past `last`, and its
///   `from` is overwritten): both marks 0, as with none.
fn forget_after(state: &mut State, last: u32) {
    for f in &mut state.fighters {
        for mark in [&mut f.no_attack_round, &mut f.ground_fire_round] {
            if *mark > last {
                *mark = 0;
            }
        }
        for mark in [
            &mut f.shaken_until,
            &mut f.blinded_until,
            &mut f.reloading_until,
            &mut f.pending_until,
        ] {
            *mark = (*mark).min(last);
        }
        if f.stumble_from > last {
            (f.stumble_from, f.stumble_until) = (0, 0);
        } else {
            f.stumble_until = f.stumble_until.min(last);
        }
    }
}

/// At a round's end ([`odds_key`]): forgets what the next round resets
/// before any rule reads it, so that end states that differ only there merge: the plans,
/// dodges, charges and disrupted casting ([`super::round::clear_round`]), the number being resolved, who
/// stood when it began, and the moves made on it (each set again as a number begins, before
/// it is read).
fn forget_round(state: &mut State) {
    super::round::clear_round(state);
    state.number = 0;
    state.up_at_number.clear();
    for f in &mut state.fighters {
        f.moved_on_number = false;
        f.moved_feet = 0;
    }
}

/// At every settled point ([`odds_key`]): forgets what no rule reads, so
/// that states that differ only there merge: the damage dealt and taken (a report's tallies)
/// and a dead combatant's hit points (death is final, OSR-A28; nothing reads them but a
/// report).
fn forget_tallies(state: &mut State) {
    for f in &mut state.fighters {
        f.dealt = 0;
        f.taken = 0;
        if f.dead {
            f.hp = 0;
        }
    }
}

/// At every settled point ([`odds_key`]): a dead combatant that can no longer act this round
/// reduced to its side, its square and its death, so that those killed with different plans,
/// conditions, facings or weapons merge. Death is final (OSR-A28: no rule makes one dead
/// anything else), and no rule reads the rest of a dead combatant's record:
/// - while the number it stood at the start of still has actors to come (simultaneity,
///   OSR-A32: `State::stood_at_number`), it may still act on it (`countdown` reads
///   `up_at_number` and `plan.done`) and answer a sloppy fumble or a move with a free attack
///   or parting shot (`attack::free_forms`): such a one is kept whole; a later number's actors
///   are those up when it begins, `up_at_number` is set again as it begins (before any rule
///   reads it: the GM's intervention point does not) and emptied as the countdown ends, and
///   the held sets act only if up (OSR-A39), so no other dead combatant acts again;
/// - every other attack, stray missile (OSR-R27.2), tending (OSR-R30.3), flask or fire
///   (OSR-R25) reaches only combatants up or on the map, which the dead are not
///   (`Fighter::is_up`, `Fighter::on_map`), and tactics choose among foes and friends up;
/// - the round's end reads its timed conditions and its running only to report them, or to
///   tire one who ran (OSR-R13.2: never read again of the dead);
/// - the outcome reads only `dead`, and reports list the dead at 0 hp.
fn forget_the_dead(state: &mut State) {
    let number_goes_on =
        matches!(&state.paused, Paused::Countdown { actors, .. } if !actors.is_empty());
    if !number_goes_on {
        // Set again before it is read (see above).
        state.up_at_number.clear();
    }
    for (i, f) in state.fighters.iter_mut().enumerate() {
        let stands_for_the_number = state.up_at_number.get(i) == Some(&true);
        if f.dead && !stands_for_the_number {
            *f = dead_record(f);
        } else if f.dead {
            // A critical's condition pending on one killed on this number takes hold only as
            // the number ends (`attack::settle_number`, OSR-A32), when it no longer acts: never
            // read.
            (f.pending, f.pending_until) = (0, 0);
        }
    }
}

/// The first round a rule may still read at this settled point: the current one inside a
/// round, the next one at a round's end (`State::paused` is `Paused::No`, `State::round` the
/// round just ended, or 0 before the first).
fn first_round_to_come(state: &State) -> u32 {
    if state.paused == Paused::No {
        state.round + 1
    } else {
        state.round
    }
}

/// At every settled point ([`odds_key`]): the round marks of the timed conditions that are
/// over reset to 0, so that those who fumbled, were shaken or blinded in different rounds
/// (or not at all) merge once the condition has run out. Every rule reads each mark against
/// the round being played, which is never before [`first_round_to_come`] (`now`), and a mark
/// before `now` reads as 0 does:
/// - `no_attack_round` (a fumble's "no attack next round", OSR-R18.1, A43) is read only as
///   `== round`: false for a past mark and for 0;
/// - `stumble_until`/`stumble_from` (OSR-R18.1, A43) are read only by `Fighter::stumbling`
///   (`from <= round <= until`, `until > 0`): false for a past `until` and for 0; a new stumble
///   sets `from` and raises `until` with `max`, and a past `until` is below the new one, as 0
///   is; a `from` at or before `now` reads as `now` does (every round read is at least `now`,
///   and a new stumble overwrites it), so it is set to `now`;
/// - `shaken_until`, `blinded_until` (OSR-R17.4) are read as `>= round` (false for a past mark
///   and 0), raised with `max` (a past mark is below the new one), and at a round's end as
///   `== round` (the round's end reports the condition over; `round > 0`): false for both;
/// - `reloading_until` (OSR-R23) is read as `>= round` with `> 0`, or `< round` or `== 0`:
///   alike for a past mark and 0;
/// - `ground_fire_round` (OSR-R25.5) is read only as `== round`.
///
/// `burning_round` is read as `> 0` and is reset by the round's end it names, so it is kept.
fn forget_past_marks(state: &mut State) {
    let now = first_round_to_come(state);
    let past = |mark: &mut u32| {
        if *mark < now {
            *mark = 0;
        }
    };
    for f in &mut state.fighters {
        past(&mut f.no_attack_round);
        past(&mut f.shaken_until);
        past(&mut f.blinded_until);
        past(&mut f.reloading_until);
        past(&mut f.ground_fire_round);
        if f.stumble_until < now {
            f.stumble_until = 0;
            f.stumble_from = 0;
        } else if f.stumble_from < now {
            f.stumble_from = now;
        }
    }
}

/// Whether `i` may still act or be attacked: not dead, or dead on the number being resolved
/// and still among those who stood when it began (OSR-A32; its record is kept whole,
/// [`forget_the_dead`]).
fn active(state: &State, i: usize) -> bool {
    !state.fighters[i].dead || state.up_at_number.get(i) == Some(&true)
}

/// Whether no combatant's square can change for the rest of the fight, under the default
/// tactics and with no GM stepping in (exact odds play none): every combatant is dead or up
/// (none down, fled, in reserve, held, holding, tending, or having taken non-lethal damage);
/// every active one ([`active`]) is within 5 ft of every active foe, fights with natural
/// weapons only (never disarmed, never dropped: no weapon to recover, no punch, OSR-R18.1,
/// R17.4), has no missile, second weapon, spell, oil or holy water, and has declared nothing,
/// a dodge, or a lethal attack with no move after it. Then nothing moves anyone: the default
/// tactics declare a dodge (a fumble's lost attack) or an attack on the nearest foe up
/// (`tactics::declare`: no charge, set or shot where every foe is adjacent); an attack on an
/// adjacent foe, or on another in reach if it fell (OSR-A33, `legal::retargets`), moves no one
/// (`approach`, `simultaneous_moves` move only those out of reach); parting shots and
/// interceptions come only with a move, a grab only with a grapple, a revive only with
/// tending; and none of it is undone later: the dead stay dead, lethal blows knock no one out
/// (OSR-R30.2), no one is healed, and every new declaration is again one of those.
fn squares_settled(state: &State) -> bool {
    let n = state.fighters.len();
    for (i, f) in state.fighters.iter().enumerate() {
        if !f.dead && !f.is_up() {
            return false;
        }
        if !active(state, i) {
            continue;
        }
        let p = &state.profiles[i];
        let plain = matches!(
            f.plan.action,
            Action::Nothing
                | Action::Dodge
                | Action::Attack {
                    flat: false,
                    then: None,
                    ..
                }
        );
        let still = f.held_by.is_none()
            && f.holding.is_none()
            && f.tending.is_none()
            && !f.nonlethal
            && !f.disarmed
            && !f.broken
            && f.oil == 0
            && f.holy_water == 0
            && f.plan.then.is_none();
        let natural = !p.melee.is_empty()
            && p.melee.iter().all(|w| w.natural)
            && p.missile.is_none()
            && p.offhand.is_none()
            && p.spells.is_empty();
        if !(plain && still && natural) {
            return false;
        }
    }
    (0..n).all(|i| {
        (0..n).all(|j| {
            let (a, b) = (&state.fighters[i], &state.fighters[j]);
            a.side == b.side
                || !active(state, i)
                || !active(state, j)
                || a.pos.squares_to(b.pos) <= 1
        })
    })
}

/// The side a facing's foe order looks ahead to (`legal::foe_order`: east for a facing with no
/// east–west part).
fn ahead(facing: Direction) -> i32 {
    match facing.delta().0.signum() {
        0 => 1,
        x => x,
    }
}

/// At every settled point ([`odds_key`]) where no square can change again
/// ([`squares_settled`]): each active combatant's facing replaced by the first direction
/// (clockwise from north) that reads alike, so that those who last struck different foes
/// merge. A facing is read only by an attack on its combatant (from behind or not, OSR-R19:
/// `attack::from_behind`, whether the attacker's square is in front) and by its own order of
/// foes (`legal::foe_order`: the side it looks ahead to, [`ahead`]); with the squares fixed,
/// the only attackers are its active foes on their squares now (friends never attack it: no
/// missile, so no stray one, OSR-R27, and no spell), so two facings that put each of those
/// squares alike in front or not, and look ahead to the same side, read alike in every rule
/// until the combatant strikes or moves, which sets its facing anew (`attack::face`).
fn forget_facings(state: &mut State) {
    if !squares_settled(state) {
        return;
    }
    let n = state.fighters.len();
    for i in 0..n {
        if !active(state, i) {
            continue;
        }
        let me = state.fighters[i];
        let foes: Vec<Pos> = (0..n)
            .filter(|&j| active(state, j) && state.fighters[j].side != me.side)
            .map(|j| state.fighters[j].pos)
            .collect();
        let front = |d: Direction, at: Pos| d.bearing_of(me.pos, at) == Bearing::Front;
        let alike = |d: Direction| {
            ahead(d) == ahead(me.facing)
                && foes.iter().all(|&at| front(d, at) == front(me.facing, at))
        };
        if let Some(first) = Direction::ALL.into_iter().find(|&d| alike(d)) {
            state.fighters[i].facing = first;
        }
    }
    forget_done_plans(state);
}

/// Where no square can change again ([`squares_settled`]), inside a round: the plan of each
/// combatant that has acted this round reduced to that (`done`), with its initiative the
/// number being resolved, so that those who acted in different orders or at different foes
/// merge. Its plan is read only while it has not acted (`begin_number`, `countdown`,
/// `number_of`, `acts_now`, `simultaneous_moves`, `delayed_from_earlier` read the plans of
/// those not done), or for what it cannot have there: a spell being cast (`attack::attack`,
/// OSR-R28.3), a charge, a set or an interception (no move, OSR-R12, R15), putting out oil or
/// running (the round's end); a dodge is `Fighter::dodging`, kept. `clear_round` forgets the
/// plan as the next round begins.
fn forget_done_plans(state: &mut State) {
    if state.paused == Paused::No {
        return;
    }
    let number = state.number;
    for f in &mut state.fighters {
        if f.plan.done && !f.dead {
            f.plan = Plan {
                done: true,
                initiative: number,
                ..Plan::default()
            };
        }
    }
}

/// The record every dead combatant shares ([`forget_the_dead`]): its side and square kept.
fn dead_record(f: &Fighter) -> Fighter {
    Fighter {
        facing: Direction::North,
        dead: true,
        ..Fighter::fresh(f.side, f.pos, 0)
    }
}

/// At every settled point ([`odds_key`]), where no combatant knows a healing spell: a
/// knocked-out combatant's hit points set to 0, so that those knocked out by blows of different
/// sizes merge. Its hit points are at most 0 (it was knocked out at 0 or below, OSR-R30.2, and
/// only healing raises them), and what reads them gives the same at any value at most 0:
/// - any damage to one knocked out kills it, and none leaves it as it is (OSR-R30.4, A28:
///   `attack::hurt` reads only whether it was down);
/// - a friend's tending sets them to 1 when it is done (OSR-R30.3; the amount healed is a
///   report's);
/// - tactics read the hit points of friends still up;
/// - a healing spell adds its roll to them (OSR-R8.1): hence no combatant may know one;
/// - a GM's change of hit points is not played by exact odds (no GM steps in);
/// - reports: `--round` lists one knocked out at 0 hp, as it lists the dead.
fn forget_knocked_out_hp(state: &mut State) {
    if state.heals() {
        return;
    }
    for f in &mut state.fighters {
        if f.down && !f.dead {
            f.hp = 0;
        }
    }
}

/// At a settled point inside a round ([`odds_key`]): the initiative
/// numbers (every fighter's initiative and moved action, the number being resolved, the
/// numbers not yet begun) replaced by their ranks among themselves, 1 the lowest, so that
/// states whose numbers stand in the same order merge. Only their order is read (the
/// countdown, OSR-R5; a set against a charge, OSR-R15.2; an interception, OSR-R12.1; a delayed
/// spell, OSR-R28.5), never their values. Not with initiative rolled once for the fight (OSR-A2
/// toggle): its numbers are kept across rounds to meet new rolls, and 0 marks "not rolled".
fn rank_numbers(state: &mut State) {
    if state.options.initiative_once {
        return;
    }
    let mut values: Vec<i32> = Vec::with_capacity(2 * state.fighters.len() + 1);
    // A dead combatant's plan, forgotten ([`forget_the_dead`]), is no number of the round.
    for f in state
        .fighters
        .iter()
        .filter(|f| !(f.dead && f.plan == Plan::default()))
    {
        values.push(f.plan.initiative);
        values.extend(f.plan.moved_to);
    }
    values.push(state.number);
    if let Paused::Countdown { numbers, .. } = &state.paused {
        values.extend(numbers.iter().copied());
    }
    values.sort_unstable();
    values.dedup();
    let rank = |v: i32| values.binary_search(&v).map_or(v, |r| r as i32 + 1);
    for f in &mut state.fighters {
        f.plan.initiative = rank(f.plan.initiative);
        f.plan.moved_to = f.plan.moved_to.map(rank);
    }
    state.number = rank(state.number);
    if let Paused::Countdown { numbers, .. } = &mut state.paused {
        for n in numbers {
            *n = rank(*n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::content::SpellEffect;
    use fray_core::CombatantId;

    /// Two bare-handed brawlers, the second knocked out at `hp`, and a third fighter who knows
    /// `spell` (none: no spell).
    fn bout(hp: i32, spell: Option<&str>) -> State {
        let spells = spell.map_or(String::new(), |s| format!("spells = [\"{s}\"]\n"));
        let text = format!(
            "schema = 1\nruleset = \"osr\"\nname = \"bout\"\n\
             [[sides]]\nid = \"w\"\nname = \"W\"\n[[sides]]\nid = \"e\"\nname = \"E\"\n\
             [[combatants]]\nid = \"a\"\nname = \"A\"\nside = \"w\"\nat = [0, 0]\n\
             class = \"fighter\"\nlevel = 1\nhp = 2\n\
             [[combatants]]\nid = \"b\"\nname = \"B\"\nside = \"e\"\nat = [1, 0]\n\
             class = \"fighter\"\nlevel = 1\nhp = 2\n\
             [[combatants]]\nid = \"c\"\nname = \"C\"\nside = \"e\"\nat = [1, 1]\n\
             class = \"cleric\"\nlevel = 1\nhp = 2\n{spells}"
        );
        let content = Content::embedded().unwrap();
        let mut state = crate::load("bout.toml", &text, &content).unwrap().state;
        let b = &mut state.fighters[1];
        b.hp = hp;
        b.down = true;
        b.nonlethal = true;
        state
    }

    /// OSR-R30.2, R30.4: knocked out at −1 or at −4 are one state for exact odds (no one heals by
    /// an amount), at 0 hp, still knocked out and still having taken non-lethal damage.
    #[test]
    fn the_knocked_out_merge_whatever_their_hit_points() {
        let (one, four) = (bout(-1, None), bout(-4, None));
        assert_ne!(one, four);
        let (k1, k4) = (odds_key(&one), odds_key(&four));
        assert_eq!(k1, k4);
        assert_eq!(k1.fighters[1].hp, 0);
        assert!(k1.fighters[1].down && k1.fighters[1].nonlethal);
    }

    /// `bout`'s second brawler killed instead, having fumbled (`stumble`) and faced `facing`.
    fn killed(stumble: u32, facing: Direction) -> State {
        let mut state = bout(-3, None);
        let b = &mut state.fighters[1];
        (b.down, b.dead, b.nonlethal) = (false, true, false);
        b.stumble_until = stumble;
        b.no_attack_round = stumble;
        b.facing = facing;
        b.plan.initiative = 4;
        b.plan.done = true;
        state
    }

    /// OSR-A28: the dead merge whatever their plans, conditions and facing once they can no
    /// longer act; one dead on its own number, still among its actors, is kept whole
    /// (simultaneity, OSR-A32).
    #[test]
    fn the_dead_merge_once_they_can_no_longer_act() {
        let (a, b) = (killed(2, Direction::East), killed(3, Direction::West));
        assert_ne!(a, b);
        assert_eq!(odds_key(&a), odds_key(&b));
        let k = odds_key(&a);
        assert!(k.fighters[1].dead && k.fighters[1].plan == Plan::default());
        assert_eq!(k.fighters[1].pos, a.fighters[1].pos);
        // Still to act on the number being resolved: kept.
        let acting = |mut s: State| {
            s.fighters[1].plan.done = false;
            s.number = 4;
            s.up_at_number = vec![true; 3];
            s.paused = Paused::Countdown {
                numbers: Vec::new(),
                actors: vec![CombatantId(1)],
            };
            s
        };
        let (a, b) = (acting(a), acting(b));
        assert_ne!(odds_key(&a), odds_key(&b));
        assert_eq!(odds_key(&a).fighters[1].stumble_until, 2);
    }

    /// `bout` at the end of round `round`, its first brawler having fumbled in round 1 (no attack
    /// in round 2, stumbling in rounds 2–3) and been shaken until round 2.
    fn marked(round: u32) -> State {
        let mut state = bout(-1, None);
        state.round = round;
        let a = &mut state.fighters[0];
        (a.no_attack_round, a.stumble_from, a.stumble_until) = (2, 2, 3);
        a.shaken_until = 2;
        state
    }

    /// OSR-R18.1, A43, R17.4: once a timed condition is over its round marks are forgotten; one
    /// still to come is kept, a stumble's start brought up to the first round still to come.
    #[test]
    fn the_marks_of_conditions_over_are_forgotten() {
        let clean = |round: u32| {
            let mut s = bout(-1, None);
            s.round = round;
            s
        };
        // After round 3 every mark is past: the fumbler is one with a fighter who never fumbled.
        assert_ne!(marked(3), clean(3));
        assert_eq!(odds_key(&marked(3)), odds_key(&clean(3)));
        // After round 2 the stumble still has round 3 to run: kept, from round 3.
        let k = odds_key(&marked(2)).into_owned();
        let a = &k.fighters[0];
        assert_eq!((a.no_attack_round, a.shaken_until), (0, 0));
        assert_eq!((a.stumble_from, a.stumble_until), (3, 3));
        assert!(a.stumbling(3) && !a.stumbling(4));
        // After round 1 everything is still to come.
        let k = odds_key(&marked(1)).into_owned();
        let a = &k.fighters[0];
        assert_eq!((a.no_attack_round, a.shaken_until), (2, 2));
        assert_eq!((a.stumble_from, a.stumble_until), (2, 3));
    }

    /// Two rats against two, all adjacent (as `examples/osr/skirmish-exact.toml`), the first
    /// West rat facing `facing`; `monster` false: fighters with swords instead.
    fn rats(facing: Direction, monster: bool) -> State {
        let who = if monster {
            "monster = \"giant rat\"\nhp = 1\n"
        } else {
            "class = \"fighter\"\nlevel = 1\nhp = 1\n"
        };
        let mut text = String::from(
            "schema = 1\nruleset = \"osr\"\nname = \"rats\"\n\
             [[sides]]\nid = \"w\"\nname = \"W\"\n[[sides]]\nid = \"e\"\nname = \"E\"\n",
        );
        for (id, side, at) in [
            ("a", "w", "[0, 0]"),
            ("b", "w", "[0, 1]"),
            ("c", "e", "[1, 0]"),
            ("d", "e", "[1, 1]"),
        ] {
            text += &format!(
                "[[combatants]]\nid = \"{id}\"\nname = \"{id}\"\nside = \"{side}\"\nat = {at}\n{who}"
            );
        }
        let content = Content::embedded().unwrap();
        let mut state = crate::load("rats.toml", &text, &content).unwrap().state;
        state.fighters[0].facing = facing;
        state
    }

    /// OSR-R19: where no square can change again, facings that put every foe alike in front
    /// (or not) merge; one that puts a foe behind does not; with swords (a weapon can be
    /// dropped, OSR-R18.1, and its bearer may then move) nothing merges.
    #[test]
    fn facings_that_read_alike_merge_where_no_one_can_move() {
        // Foes east (1, 0) and south-east (1, 1) of the first rat: both in front of east and
        // of south-east; south-east is on the flank of north.
        let (east, south_east) = (
            rats(Direction::East, true),
            rats(Direction::SouthEast, true),
        );
        assert_ne!(east, south_east);
        assert_eq!(odds_key(&east), odds_key(&south_east));
        assert_ne!(odds_key(&east), odds_key(&rats(Direction::North, true)));
        assert_ne!(
            odds_key(&rats(Direction::East, false)),
            odds_key(&rats(Direction::SouthEast, false))
        );
    }

    /// A fighter still up keeps its hit points.
    #[test]
    fn a_fighter_up_keeps_its_hit_points() {
        let mut a = bout(-1, None);
        let mut b = a.clone();
        a.fighters[0].hp = 1;
        b.fighters[0].hp = 2;
        assert_ne!(odds_key(&a), odds_key(&b));
    }

    /// OSR-R8.1: where someone knows a healing spell, a knocked-out combatant's hit points are
    /// read (the spell adds its roll to them), so they are kept.
    #[test]
    fn with_a_healer_the_knocked_out_keep_their_hit_points() {
        let (one, four) = (
            bout(-1, Some("cure light wounds")),
            bout(-4, Some("cure light wounds")),
        );
        assert!(one.profiles[2]
            .spells
            .iter()
            .any(|s| matches!(s.effect, SpellEffect::Heal(_))));
        assert_ne!(odds_key(&one), odds_key(&four));
        assert_eq!(odds_key(&one).fighters[1].hp, -1);
    }
}
