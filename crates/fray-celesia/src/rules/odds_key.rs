//! The canonical key of a Celesia state for exact odds (`Ruleset::odds_key`): the state with
//! what no rule reads again forgotten, so that the fight programme merges states that differ
//! only there.

use crate::state::State;
use std::borrow::Cow;

/// `state` as exact odds keep it at a settled point (a round's end, or a point inside a round,
/// [`super::round::round_step`], which has already forgotten the initiative totals and the
/// damage tallies). What it forgets besides is a dead combatant's record, and why no rule
/// reads it again (every read of each field was checked):
///
/// - Death is final: nothing sets `dead` back; `State::band` is Dead on `dead` before it reads
///   the hit points; `Fighter::absent` and `State::up` are read from `dead`.
/// - Its own turns: `open_turn` returns at once for an absent combatant, so none of its turn
///   records is read by a turn of its own again (its act budget, its acts and attacks this
///   turn, `acted`, feet moved, free actions, the turn and act counters that a Steady Aim, a
///   follow after a bull rush, a draw on the move, a multiweapon turn or a task compare with,
///   the natural initiative die of its first turn), nor its bleeding (read at its turn, and by
///   `stabilize`, which returns at once when `dead`), nor its own tactics.
/// - Others' turns: a foe's tactics pick targets among those `State::up` and the attack's
///   legality refuses an `absent` target, so what an attack reads of its target (flat-footed,
///   total defense, fighting defensively, open after charging, its hit points in the tactics'
///   weakest-foe key and trip or disarm test) is never read; as a reactor,
///   `can_take_opportunity` and a readied action's `can_complete` are false for one not up
///   whatever its reactions (`State::threatens` requires `up`); First Aid needs a Dying
///   patient; a healing item (`item::heal`'s callers) and the GM's hit-point change refuse a
///   dead or absent combatant; damage it may still take (a stray missile) only lowers its hit
///   points, with the injury, massive-damage and band checks skipped on `dead`
///   (`injury::damage`, `settle`).
/// - Its place in the order: `open_turn` skips an absent combatant's turn with nothing done
///   (no tricks expire, no bleeding), and the only other reads of the order either filter out
///   the absent (a reckless attack's bystanders, a stray missile's occupants, a spell's
///   area), or ask whether it can react (a readied action's watchers: `can_complete` needs
///   `up`), or place a delaying combatant after the one whose turn just ended (CEL-R1.7): so
///   it is dropped from the order and from the turns still to come in the round
///   (`State::paused`) while nobody delays and no dead combatant has a readied action.
///
/// So it is set to: hit points −2 × CON (the first of the Dead band, CEL-R17.9; `fray odds
/// --round` lists a dead Celesia combatant there), no bleeding, and the turn records as a
/// combatant that has had no turn holds them. Its square, items on the ground and
/// everything else others may read are kept.
pub fn odds_key(state: &State) -> Cow<'_, State> {
    if !state.fighters.iter().any(|f| f.dead) {
        return Cow::Borrowed(state);
    }
    let mut key = state.clone();
    for (f, p) in key.fighters.iter_mut().zip(state.profiles.iter()) {
        if f.dead {
            f.hp = -2 * p.con();
            f.bleed = 0;
            f.initiative_die = 0;
            f.turns = 0;
            f.act_clock = 0;
            f.reactions = 0;
            f.acts_left = 0;
            f.attacks_this_turn = 0;
            f.acted = false;
            f.flat_footed = false;
            f.moved_ft = 0;
            f.total_defense = 0;
            f.defensive = false;
            f.charged = false;
            f.charge_target = None;
            f.free_actions = 0;
        }
    }
    let nobody_delays = key.fighters.iter().all(|f| !f.delaying);
    if nobody_delays && key.fighters.iter().all(|f| !f.dead || f.readied.is_none()) {
        let fighters = &key.fighters;
        let alive = |c: &crate::CombatantId| !fighters[c.index()].dead;
        key.order.retain(alive);
        if let Some(paused) = key.paused.as_mut() {
            paused.rest.retain(alive);
        }
    }
    Cow::Owned(key)
}
