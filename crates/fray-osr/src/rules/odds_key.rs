//! The canonical key of an OSR state for exact odds (`Ruleset::odds_key`): the state at a
//! settled point ([`super::round::round_step`]) with what no rule reads again forgotten, so
//! that the fight programme merges states that differ only there.

use crate::content::SpellEffect;
use crate::state::{Fighter, Paused, Plan, State};
use fray_core::{CombatantId, Direction};
use std::borrow::Cow;

/// `state` as exact odds keep it: at every point the damage tallies and a dead combatant's hit
/// points ([`forget_tallies`]), the rest of a dead combatant's record once it can no longer act
/// ([`forget_the_dead`]), and a knocked-out combatant's hit points where nothing in the
/// fight heals by an amount ([`forget_knocked_out_hp`]); inside a round (`State::paused` set: the countdown or the held
/// sets still to come) the initiative numbers' values, of which only the order is read
/// ([`rank_numbers`]); between rounds (`State::paused` is `Paused::No`: a round's end, or the
/// fight before its first round, where the first round's start resets the same records before
/// reading them) what the next round resets ([`forget_round`]).
pub fn odds_key(state: &State) -> Cow<'_, State> {
    let mut key = state.clone();
    forget_tallies(&mut key);
    forget_the_dead(&mut key);
    forget_knocked_out_hp(&mut key);
    if key.paused == Paused::No {
        forget_round(&mut key);
    } else {
        rank_numbers(&mut key);
    }
    Cow::Owned(key)
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
/// - it acts only if it stood when its number began and is still among that number's actors
///   (simultaneity, OSR-A32: `countdown` reads `up_at_number` and `plan.done`): such a one is
///   kept whole; a later number's actors are those up when it begins, and the held sets act
///   only if up (OSR-A39), so no other dead combatant acts again;
/// - every attack, free attack (OSR-R18.1), stray missile (OSR-R27.2), tending (OSR-R30.3),
///   flask or fire (OSR-R25) reaches only combatants up or on the map, which the dead are not
///   (`Fighter::is_up`, `Fighter::on_map`), and tactics choose among foes and friends up;
/// - the round's end reads its timed conditions and its running only to report them, or to
///   tire one who ran (OSR-R13.2: never read again of the dead);
/// - the outcome reads only `dead`, and reports list the dead at 0 hp.
fn forget_the_dead(state: &mut State) {
    let actors: &[CombatantId] = match &state.paused {
        Paused::Countdown { actors, .. } => actors,
        _ => &[],
    };
    for (i, f) in state.fighters.iter_mut().enumerate() {
        let still_acts = !f.plan.done
            && state.up_at_number.get(i) == Some(&true)
            && actors.contains(&CombatantId(i as u16));
        if f.dead && !still_acts {
            *f = dead_record(f);
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
    let heals = state.profiles.iter().any(|p| {
        p.spells
            .iter()
            .any(|s| matches!(s.effect, SpellEffect::Heal(_)))
    });
    if heals {
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
