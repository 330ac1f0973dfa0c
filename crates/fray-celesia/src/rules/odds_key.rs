//! The canonical key of a Celesia state for exact odds (`Ruleset::odds_key`): the state with
//! what no rule reads again forgotten, so that the fight programme merges states that differ
//! only there.

use crate::state::State;
use std::borrow::Cow;

/// `state` as exact odds keep it at a settled point (a round's end, or a point inside a round,
/// [`super::round::round_step`]): every combatant's initiative total, natural initiative die
/// once read and damage tallies ([`forget_unread`]), and a dead combatant's record. Why no rule
/// reads a dead combatant's record again (every read of each field was checked):
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
///   patient; a healing item or spell (`item::heal`'s callers: a spell's aim through
///   `spell::in_range`, its area's creatures filtered) and the GM's hit-point change refuse a
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
    if !state.fighters.iter().any(|f| f.dead || unread(f)) {
        return Cow::Borrowed(state);
    }
    let mut key = state.clone();
    forget_unread(&mut key);
    for (f, p) in key.fighters.iter_mut().zip(state.profiles.iter()) {
        if f.dead {
            f.hp = -2 * p.con();
            f.bleed = 0;
            // Burning is read only at the start of its own turns (`rules::fire::burn`).
            f.on_fire = false;
            // Its confusion's turn, attacker and devotion: read only on its turns and as a
            // reactor (`rules::confusion`), never again.
            (
                f.confusion.turn,
                f.confusion.attacked_by,
                f.confusion.devoted,
            ) = (None, None, None);
            f.initiative_die = 0;
            f.turns = 0;
            f.act_clock = 0;
            f.reactions = 0;
            f.acts_left = 0;
            f.attacks_this_turn = 0;
            f.melee_attacked = false;
            f.acted = false;
            f.flat_footed = false;
            f.moved_ft = 0;
            f.total_defense = 0;
            f.defensive = false;
            f.defensive_attacks = false;
            f.deal_nonlethal = None;
            f.charged = false;
            f.charge_target = None;
            f.free_actions = 0;
            f.magus = Default::default();
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

/// Whether the key forgets something of `f`'s record whoever it is ([`forget_unread`]).
fn unread(f: &crate::state::Fighter) -> bool {
    f.initiative != 0 || f.initiative_die != kept_die(f) || f.dealt != 0 || f.taken != 0
}

/// The natural initiative die `f` keeps: none once its first regular turn has begun and it is
/// not delaying (read only for that turn's acts, CEL-R1.4, R1.5; a delayed turn taken on
/// rejoining counts its acts then, CEL-R1.7), and before that only a natural 1 or 20.
fn kept_die(f: &crate::state::Fighter) -> u32 {
    let first_turn_due = f.turns == 0 || f.delaying;
    if first_turn_due && matches!(f.initiative_die, 1 | 20) {
        f.initiative_die
    } else {
        0
    }
}

/// Forgets what no rule reads again, of every combatant: the initiative total once the order is
/// fixed (read only to sort it, CEL-R1.2, R21.2; the order is in the state), the natural
/// initiative die but what [`kept_die`] keeps, and the damage dealt and taken (tallies for
/// reports, never read by a rule). The round's end has nothing else to forget: every per-turn
/// record is reset at its owner's next turn, and a foe may read it before (a charge, total
/// defense, a reaction).
fn forget_unread(state: &mut State) {
    for f in state.fighters.iter_mut() {
        f.initiative = 0;
        f.initiative_die = kept_die(f);
        f.dealt = 0;
        f.taken = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::Fixture;
    use crate::state::Paused;
    use crate::CombatantId;

    /// A fighter of CON `con`, 5 hp, with a longsword.
    fn fighter(con: u8) -> String {
        format!(
            "class = \"fighter\"\nlevel = 1\nhp = 5\nscores = {{ con = {con} }}\n\
             weapon = \"longsword\""
        )
    }

    /// One fighter against two, the second of the two (CON 6) dead at −13 hp, in round 2 between
    /// turns: the first fighter's turn is over and the others' are to come.
    fn one_dead() -> State {
        let mut s = Fixture::new()
            .with("a", "x", [0, 0], &fighter(10))
            .with("b", "y", [1, 0], &fighter(12))
            .with("c", "y", [1, 1], &fighter(6))
            .state();
        s.round = 2;
        s.order = vec![CombatantId(0), CombatantId(2), CombatantId(1)];
        s.paused = Some(Paused {
            who: None,
            rest: vec![CombatantId(2), CombatantId(1)],
        });
        let c = &mut s.fighters[2];
        c.dead = true;
        c.hp = -13;
        s
    }

    /// CEL-R17.9: a dead combatant stands at −2 × CON, whatever blow killed it.
    #[test]
    fn a_dead_fighter_stands_at_the_first_hit_point_of_the_dead_band() {
        let s = one_dead();
        assert_eq!(s.profiles[2].con(), 6);
        let key = odds_key(&s);
        assert_eq!(key.fighters[2].hp, -12);
        // The living keep their hit points, and the key is a key: keying it changes nothing.
        assert_eq!(key.fighters[0].hp, s.fighters[0].hp);
        assert_eq!(key.fighters[1].hp, s.fighters[1].hp);
        assert_eq!(*odds_key(&key), *key);
    }

    /// States that differ only in what a dead fighter no rule reads again (its hit points, its
    /// bleeding, its turn records) merge.
    #[test]
    fn states_that_differ_only_in_a_dead_fighters_record_have_one_key() {
        let s = one_dead();
        let mut t = s.clone();
        let c = &mut t.fighters[2];
        c.hp = -20;
        c.bleed = 2;
        c.initiative_die = 17;
        c.turns = 2;
        c.act_clock = 5;
        c.reactions = 1;
        c.acts_left = 1;
        c.attacks_this_turn = 2;
        c.acted = true;
        c.flat_footed = true;
        c.moved_ft = 15;
        c.total_defense = 4;
        c.defensive = true;
        c.defensive_attacks = true;
        c.charged = true;
        c.charge_target = Some(CombatantId(0));
        c.free_actions = 1;
        assert_ne!(s, t);
        assert_eq!(odds_key(&s), odds_key(&t));
    }

    /// What a living fighter has is kept: hit points, or bleeding, apart give apart keys; so do
    /// a dead fighter's square (others may read it), and whether it is dead at all.
    #[test]
    fn states_that_differ_in_a_living_fighter_have_apart_keys() {
        let s = one_dead();
        let mut hurt = s.clone();
        hurt.fighters[1].hp -= 1;
        assert_ne!(odds_key(&s), odds_key(&hurt));
        let mut bleeding = s.clone();
        bleeding.fighters[0].bleed = 1;
        assert_ne!(odds_key(&s), odds_key(&bleeding));
        let mut moved = s.clone();
        let to = fray_core::Pos {
            x: 2,
            ..moved.fighters[2].pos
        };
        moved.set_square(CombatantId(2), to);
        assert_ne!(odds_key(&s), odds_key(&moved));
        let mut living = s.clone();
        living.fighters[2].dead = false;
        living.fighters[2].hp = -12;
        assert_ne!(*odds_key(&s), *odds_key(&living));
    }

    /// With nobody dead and nothing of the initiative or the tallies left to forget, the key is
    /// the state itself, borrowed (nothing cloned).
    #[test]
    fn with_nobody_dead_the_key_is_the_state_itself() {
        let mut s = one_dead();
        s.fighters[2].dead = false;
        s.fighters[2].bleed = 1;
        let key = odds_key(&s);
        assert!(matches!(key, Cow::Borrowed(_)));
        assert_eq!(*key, s);
    }

    /// What `round_step` forgot before and the key forgets now (so that stepping a round is
    /// `play_round`): the initiative totals and the tallies of everyone; a natural initiative
    /// die once its owner's first turn has begun, and before it all but a natural 1 or 20
    /// (CEL-R1.4, R1.5).
    #[test]
    fn the_initiative_totals_read_dice_and_tallies_are_forgotten() {
        let mut s = one_dead();
        s.fighters[2].dead = false;
        s.fighters[2].hp = 5;
        let a = &mut s.fighters[0];
        a.initiative = 21;
        a.initiative_die = 20;
        a.turns = 0;
        a.dealt = 7;
        s.fighters[1].initiative_die = 13;
        s.fighters[1].taken = 7;
        s.fighters[2].initiative_die = 20;
        s.fighters[2].turns = 1;
        let key = odds_key(&s);
        assert!(matches!(key, Cow::Owned(_)));
        let f = &key.fighters;
        assert_eq!(
            (f[0].initiative, f[0].initiative_die, f[0].dealt),
            (0, 20, 0)
        );
        assert_eq!((f[1].initiative_die, f[1].taken), (0, 0));
        assert_eq!(f[2].initiative_die, 0, "its first turn has begun");
        assert_eq!(f[2].hp, 5);
        assert_eq!(*odds_key(&key), *key);
    }

    /// A dead fighter leaves the order and the turns still to come, unless somebody delays
    /// (CEL-R1.7's rejoin reads the order) or the dead has a readied action.
    #[test]
    fn a_dead_fighter_leaves_the_order_while_nobody_delays() {
        let s = one_dead();
        let key = odds_key(&s);
        assert_eq!(key.order, vec![CombatantId(0), CombatantId(1)]);
        assert_eq!(key.paused.as_ref().unwrap().rest, vec![CombatantId(1)]);
        let mut delaying = s.clone();
        delaying.fighters[1].delaying = true;
        let key = odds_key(&delaying);
        assert_eq!(key.order, s.order);
        assert_eq!(key.paused, s.paused);
        let mut readied = s.clone();
        readied.fighters[2].readied = Some((
            crate::rules::ready::Trigger::FoeAttacks,
            crate::rules::ready::Readied::Attack(0),
        ));
        assert_eq!(odds_key(&readied).order, s.order);
    }
}
