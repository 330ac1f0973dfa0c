//! CEL-R7.3 stray shots: a ranged attack that misses flies on along the line from the
//! shooter's square through its target's, and may hit a creature beyond the target, tested
//! with the original attack roll against that creature's DV + 4 (soft cover).

use super::attack::{confirm_critical, damage, defense, degrees};
use super::Mods;
use crate::content::Weapon;
use crate::state::State;
use crate::Celesia;
use fray_core::event::{AttackResult, Event};
use fray_core::grid::SQUARE_FT;
use fray_core::protocol::Interrupt;
use fray_core::{CombatantId, Pos, Table};

/// CEL-R7.3 step 3: the soft cover the original target gives a creature behind it.
pub const STRAY_COVER: i32 = 4;

/// CEL-R7.3 step 4: how far, in feet from the shooter, a missed projectile or thrown weapon
/// flies: to the end of the range increment its target is in (firearms and splash weapons fly
/// further: `ammo::stray_travel_ft`).
pub fn travel_ft(range_increment: i32, target_ft: i32) -> i32 {
    if range_increment <= 0 {
        return target_ft;
    }
    let increment = ((target_ft + range_increment - 1) / range_increment).max(1);
    increment * range_increment
}

/// CEL-R7.3 steps 1–2: the creatures a stray shot may hit, in the order the shot reaches them
/// (nearest the target first): those on the squares of the line after it has left the target's
/// space, up to `limit_ft` from the shooter, each once; on a square shared (a rider and its
/// mount) in initiative order. The line runs from the middle of the shooter's square through
/// the middle of the target's (the seed's words); for a Large shooter or target (CEL-R21.3, a
/// rider sharing its mount's space) those are the squares of the two spaces nearest each other,
/// the squares distances are measured between (`space::nearest`), not the north-west corners.
pub fn stray_candidates(
    state: &State,
    attacker: CombatantId,
    target: CombatantId,
    limit_ft: i32,
) -> Vec<CombatantId> {
    let (from, to) = crate::space::nearest(
        state.f(attacker).pos,
        state.side(attacker),
        state.f(target).pos,
        state.side(target),
    );
    let mut found: Vec<CombatantId> = Vec::new();
    if from == to {
        return found;
    }
    let n = (limit_ft / SQUARE_FT).max(0);
    // The line's `i`-th square is `i` squares from `from` (Chebyshev), and every square of the
    // target's space is at least `first` from it (`to` is its nearest): the squares before
    // `first` are neither in the target's space nor past it, so none of them is visited.
    let first = from.squares_to(to);
    // The line counts only once it has passed through the target's space (a straight line
    // leaves a box once); nothing is allocated until a creature is found. `entered`: the last
    // square of the line seen in the target's space, until the line is past it.
    let mut entered: Option<i32> = None;
    let mut past = false;
    let mut visit = |i: i32| {
        let square = from.point_on_line(to, i);
        if !past {
            let here = state.occupancy.any_at(square, |o| o == target);
            match entered {
                // An unvisited square between two visited ones has nobody on it: the line left
                // the target's space there if it skipped one after the last in it.
                Some(last) if !(here && i == last + 1) => past = true,
                _ => {
                    if here {
                        entered = Some(i);
                    }
                    return;
                }
            }
        }
        let start = found.len();
        state.occupancy.each_within(square, 0, |who, _| {
            if who != attacker && who != target && !state.f(who).absent() && !found.contains(&who) {
                found.push(who);
            }
        });
        found[start..].sort_by_key(|&c| state.order.iter().position(|&o| o == c));
    };
    // Only the squares of the line someone stands on are visited, found from the occupants (a
    // handful) instead of probing every square out to the limit; past `LINE_HITS` of them,
    // every square.
    let mut hits = [0i32; LINE_HITS];
    let mut len = 0;
    let mut every_square = false;
    let along = Along::of(from, to);
    for who in 0..state.occupancy.len() as u16 {
        for p in state.occupancy.squares_of(CombatantId(who)) {
            let Some(i) = along.index(from, to, first, n, p) else {
                continue;
            };
            if len == LINE_HITS {
                every_square = true;
            } else {
                hits[len] = i;
                len += 1;
            }
        }
    }
    if every_square {
        (first..=n).for_each(&mut visit);
    } else {
        let hits = &mut hits[..len];
        hits.sort_unstable();
        let mut last = 0;
        for &i in hits.iter() {
            if i != last {
                visit(i);
                last = i;
            }
        }
    }
    found
}

/// How many occupied squares of a stray shot's line [`stray_candidates`] lists before it
/// walks every square instead.
const LINE_HITS: usize = 32;

/// The longer axis of the line from `from` through `to` and its direction there, worked out
/// once for every occupant [`stray_candidates`] looks at.
#[derive(Clone, Copy)]
struct Along {
    /// The line moves along x (as far along x as along y, or farther).
    x: bool,
    /// −1, 0 or 1: the direction along that axis.
    sign: i32,
}

impl Along {
    fn of(from: Pos, to: Pos) -> Along {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if dx.abs() >= dy.abs() {
            Along {
                x: true,
                sign: dx.signum(),
            }
        } else {
            Along {
                x: false,
                sign: dy.signum(),
            }
        }
    }

    /// The `i` (`first` ≤ `i` ≤ `n`) for which `square` is the `i`-th of the line from `from`
    /// through `to` ([`Pos::point_on_line`]), if any. Along its longer axis the line moves one
    /// square a step, so only one `i` can be it.
    ///
    /// Only the other axis is worked out ([`Pos::point_on_line`]'s rounding on it): along the
    /// longer one the `i`-th square is `i` steps on (`i` ≥ `first` ≥ 1, `from` ≠ `to`), which
    /// is how `i` was found (issue 16: asked for every occupant of every stray shot).
    #[inline]
    fn index(self, from: Pos, to: Pos, first: i32, n: i32, square: Pos) -> Option<i32> {
        let (i, minor, from_minor, d_minor, steps) = if self.x {
            (
                (square.x - from.x) * self.sign,
                square.y,
                from.y,
                to.y - from.y,
                (to.x - from.x).abs(),
            )
        } else {
            (
                (square.y - from.y) * self.sign,
                square.x,
                from.x,
                to.x - from.x,
                (to.y - from.y).abs(),
            )
        };
        ((first..=n).contains(&i) && from_minor + div_round(d_minor * i, steps) == minor)
            .then_some(i)
    }
}

/// `num / den` rounded half away from zero (`den` > 0), as [`Pos::point_on_line`] rounds.
#[inline]
fn div_round(num: i32, den: i32) -> i32 {
    let q = (2 * num.abs() + den) / (2 * den);
    if num < 0 {
        -q
    } else {
        q
    }
}

/// CEL-R7.3: after `attacker`'s ranged attack with `w` missed `target` with the natural `die`
/// and the `total`, tests each creature beyond the target in turn with that same roll against
/// its DV + 4; the first hit takes the weapon's damage (degrees of success and a critical as
/// for any hit with that roll) and ends the shot. A natural 1 hits nobody (CEL-A3). Under
/// `crit_confirmation` (CEL-A3) a critical is confirmed by a second roll with the original
/// attack's `net` advantage count (a reading: the stray shot is that attack, rolled once,
/// flying on; its sources were judged against the intended target) and its bonuses, against
/// the same DV + 4.
#[allow(clippy::too_many_arguments)]
pub fn stray_shot(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    w: &Weapon,
    die: u32,
    total: i32,
    bonus: &Mods,
    net: i32,
) -> Result<(), Interrupt> {
    let target_ft = state.feet_between(attacker, target);
    let mut limit_ft = super::ammo::stray_travel_ft(state, w, target_ft);
    // CEL-R7.3 "continue that line until it hits an obstacle": the flight ends at the first
    // obstacle square on the line past the target (`rules::terrain`).
    let mut wall = String::new();
    if state.terrain.has_obstacles() {
        let (from, to) = crate::space::nearest(
            state.f(attacker).pos,
            state.side(attacker),
            state.f(target).pos,
            state.side(target),
        );
        let (first, n) = (from.squares_to(to), limit_ft / SQUARE_FT);
        if let Some(i) = super::terrain::first_obstacle(state, from, to, first, n) {
            let at = from.point_on_line(to, i);
            limit_ft = (i - 1) * SQUARE_FT;
            wall = format!(", stopped by the obstacle at {} {}", at.x, at.y);
        }
    }
    let candidates = stray_candidates(state, attacker, target, limit_ft);
    // CEL-R7.3: "The projectile then falls to the ground after this distance if it does not
    // strike any creature" (a thrown weapon, `thrown`, lands there).
    let (from, through) = (state.f(attacker).pos, state.f(target).pos);
    super::thrown::fly_on(state, attacker, from.point_on_line(through, limit_ft / 5));
    for victim in candidates {
        let mut dv_mods = defense(state, victim);
        dv_mods.push("soft cover (the target)", "CEL-R7.3", STRAY_COVER);
        let dv = 10 + dv_mods.total();
        let hit = die != 1 && total >= dv;
        let mut critical = hit && die >= w.threat && !state.p(victim).immune_crit;
        let mut confirmation = String::new();
        if critical && state.options.crit_confirmation {
            let (confirmed, text) = confirm_critical(table, attacker, net, bonus.total(), dv)?;
            critical = confirmed;
            confirmation = text;
        }
        let result = if critical {
            AttackResult::Critical
        } else if hit {
            AttackResult::Hit
        } else {
            AttackResult::Miss
        };
        table.emit(|| Event::Attack {
            attacker,
            target: victim,
            attack: format!(
                "{} (stray shot past {}, flying to {limit_ft} ft{wall}){confirmation}",
                w.name,
                state.roster.name(target)
            ),
            roll: die,
            modifiers: bonus.to_vec(),
            total,
            defense: "DV",
            versus: dv,
            defense_modifiers: dv_mods.to_vec(),
            result,
            rule: "CEL-R7.3",
        });
        if hit {
            let at = state.f(victim).pos;
            super::thrown::fly_on(state, attacker, at);
            let extra = degrees(total, dv);
            let critical = super::crit_deck::draw(state, table, attacker, victim, critical)?;
            damage(
                state, table, attacker, victim, w, critical, extra, "CEL-R7.3",
            )?;
            return Ok(());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stray_shot_flies_to_the_end_of_its_increment() {
        // A longbow (100 ft increments) shot at a target 30 ft away flies on to 100 ft; at
        // 100 ft exactly it stops there; at 105 ft it flies to 200 ft.
        assert_eq!(travel_ft(100, 30), 100);
        assert_eq!(travel_ft(100, 100), 100);
        assert_eq!(travel_ft(100, 105), 200);
        assert_eq!(travel_ft(10, 5), 10);
    }
}
