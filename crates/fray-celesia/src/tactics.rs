//! The default tactics: what a sensible player of a combatant would choose. Every choice is
//! checked against the rules before it is made (the property tests hold it to that).
//!
//! On its turn a mount without its rider withdraws (the free square within its speed farthest
//! from its nearest foe), a rider with a two-handed weapon guides its mount with the knees
//! (CEL-R21.4), a grappler continues its grapple (pins, then ties up with a rope a pinned foe
//! no other foe threatens it over; else places the foe on a hazard a Move reaches; else squeezes
//! it; lets a tied-up foe go, CEL-R10.10), a combatant stands up if prone, unties an ally tied
//! up next to it (CEL-R10.10), and with no foe in reach walks over to one to untie,
//! at half its hit points or below drinks a healing potion (retrieving a stored one first,
//! CEL-R9), puts out the fire it is on unless a blow in reach could finish a foe (CEL-R11
//! Extinguish Flames), escapes a net when its check succeeds at least half the time, or when
//! no foe is in reach (CEL-R11), picks up a weapon it dropped (and, unthreatened, a shield it
//! dropped, then straps it on), heals a dying ally its healing spell reaches
//! ([`crate::heal_tactics`]), casts a spell worth more than its blows
//! ([`crate::caster_tactics`]), strikes the weakest foe in reach with its best form (a reach
//! weapon steps back from a foe too close), or trips or disarms it, feints it, or takes a
//! magus's Spell Combat or Spellstrike on it when that is worth more
//! ([`crate::maneuver_tactics`], [`crate::feint_tactics`], [`crate::magus_tactics`]); held in
//! a grapple with no blow, or tied up, it tries the likelier
//! escape while one can succeed, else takes total defense (CEL-R9, R10.10, R11); with its
//! counted thrown weapons all
//! thrown and no foe within this turn's reach it picks one up (its own or one of its kind),
//! walking to it first (CEL-R7.3, R9); it shoots when no foe is in reach (a bow at any range; a
//! thrown weapon only at foes it cannot reach this turn), charges with three acts left a foe
//! one Move would not bring it next to, else moves toward the nearest foe. It always takes an attack of opportunity, takes a
//! crippling injury (permanent) only when the damage would kill it, and counters a foe's spell
//! worth more than its reaction ([`crate::counter_tactics`]).

use crate::choice::Choice;
use crate::content::WeaponKind;
use crate::rules::legal::check_action;
use crate::rules::movement::frame;
use crate::state::{reaches, Asking, Band, Injury, State, CON};
use fray_core::{Board, ChoiceRequest, CombatantId};

/// The default choice for the pending request.
pub fn choose(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
    let pick = match state.asking {
        Asking::Action(who) => action(state, who),
        Asking::Delayed(_) => Choice::Rejoin,
        Asking::Opportunity { provoker, .. } => Choice::Opportunity(provoker),
        Asking::Injury { who, damage } => injury(state, who, damage),
        Asking::LetPass { .. } => Choice::Block,
        Asking::Hazard { who, .. } => crate::rules::hazard::default_choice(state, who),
        Asking::Readied { foe, .. } => Choice::Complete(foe),
        Asking::Counter { reactor, .. } => crate::initiator_tactics::counter(state, reactor),
        // CEL-R15: a foe's spell worth more than the reaction is kept for is countered.
        Asking::Counterspell {
            reactor,
            caster,
            spell,
        } => crate::counter_tactics::answer(state, reactor, caster, spell),
        // A free action that costs nothing unless the GM limits or strains it: taken.
        Asking::Identify { caster, .. } => Choice::Identify(caster),
        Asking::Ruling { about, .. } => crate::rules::ruling::default_ruling(about),
        Asking::Saddle { rider, .. } => saddle(state, rider, request.options),
        Asking::Nothing => Choice::End,
    };
    if request.options.is_empty() || request.options.contains(&pick) {
        pick
    } else {
        request.options[0]
    }
}

/// Along its mount's move (CEL-R21.8): the knees first for a two-handed bow, then a shot at the
/// nearest foe it may shoot (fewest hit points among the nearest), else wait.
fn saddle(state: &State, rider: CombatantId, options: &[Choice]) -> Choice {
    if options.contains(&Choice::Knees) {
        return Choice::Knees;
    }
    options
        .iter()
        .filter_map(|c| match *c {
            Choice::Shoot(t) => Some((state.gap(rider, t), state.f(t).hp, t)),
            _ => None,
        })
        .min_by_key(|&(gap, hp, _)| (gap, hp))
        .map_or(Choice::Wait, |(_, _, t)| Choice::Shoot(t))
}

fn legal(state: &State, who: CombatantId, c: Choice) -> Option<Choice> {
    check_action(false, state, who, &c).ok().map(|()| c)
}

fn average(w: &crate::content::Weapon) -> i32 {
    i32::from(w.damage.count) * (i32::from(w.damage.sides) + 1) + 2 * w.damage.bonus
}

/// Whether a melee form of `who` reaching a foe up deals on average at least that foe's hit
/// points (the blow that would finish it this turn).
fn can_finish_foe(state: &State, who: CombatantId) -> bool {
    let mut finish = false;
    state.each_foe_within(who, state.reach_squares, |t| {
        let gap = state.gap(who, t);
        finish |= state.up(t)
            && state
                .melee_forms(who)
                .any(|(_, w)| reaches(w, gap) && average(w) >= 2 * state.f(t).hp);
    });
    finish
}

/// The act the default tactics choose for `who`: [`plan`]'s, with a change of grip before it
/// where one is worth it (`grip_tactics`, looked at only where someone could grip).
pub(crate) fn action(state: &State, who: CombatantId) -> Choice {
    let c = plan(state, who);
    if state.grip_minded.0 {
        crate::grip_tactics::adjust(state, who, c)
    } else {
        c
    }
}

/// The act the default tactics choose for `who`, its grip as it is.
pub(crate) fn plan(state: &State, who: CombatantId) -> Choice {
    let f = state.f(who);
    // Each act while disabled costs a hit point (CEL-R17.2): do not act into the dying band.
    // Unless every foe still up is as badly off (else two such foes would wait forever).
    if state.band(who) == Band::Disabled && f.hp - 1 <= -state.score(who, CON) {
        let foes_healthy = state
            .ids()
            .any(|o| state.enemies(o, who) && state.up(o) && state.band(o) == Band::Healthy);
        if foes_healthy {
            return Choice::End;
        }
    }
    // CEL-A34: confused, bound to attack the nearest creature or its attacker this turn.
    if f.confusion.turn.is_some() {
        if let Some(c) = crate::rules::confusion::tactic(state, who) {
            return c;
        }
    }
    // CEL-R9, R12: a trained animal does as commanded; a handler commands a waiting one.
    if let Some(c) = crate::animal_tactics::turn(state, who) {
        return c;
    }
    // CEL-R14: an initiator with no stance takes one (a free action).
    if let Some(c) = crate::initiator_tactics::stance(state, who) {
        return c;
    }
    // CEL-R21.11, CEL-G10: a mount without its rider avoids combat: it withdraws.
    if f.riderless {
        return withdraw(state, who).unwrap_or(Choice::End);
    }
    // CEL-R21.4: a rider with a two-handed weapon guides its mount with the knees first.
    if f.riding.is_some() && f.knees.is_none() {
        let p = state.p(who);
        let two = p
            .melee
            .first()
            .is_some_and(crate::rules::mounted::both_hands)
            || p.ranged
                .as_ref()
                .is_some_and(crate::rules::mounted::both_hands);
        if two {
            if let Some(c) = legal(state, who, Choice::Knees) {
                return c;
            }
        }
    }
    // CEL-R10.10: a grapple it started is continued (or let go) at the start of its turn.
    if let Some(hold) = f.hold {
        if !f.maintained {
            return grapple_continued(state, who, hold.target);
        }
    }
    if f.prone {
        if let Some(c) = legal(state, who, Choice::StandUp) {
            return c;
        }
    }
    // CEL-R10.10: an ally tied up next to it is untied (Manipulate an Item, a reading).
    if state.strewn {
        if let Some(c) = untie(state, who) {
            return c;
        }
    }
    // CEL-R9, R11: at half its hit points or below, a healing potion: drunk if at hand, else
    // retrieved from its container first.
    if !(f.gear.is_empty() && f.packed.is_empty()) && 2 * f.hp <= state.p(who).max_hp {
        if let Some(c) = potion(state, who) {
            return c;
        }
    }
    // CEL-R11 Extinguish Flames: on fire, it puts the fire out first, unless a blow in reach
    // could finish a foe this turn (a foe whose hit points its form's average damage reaches).
    if f.on_fire && !can_finish_foe(state, who) {
        if let Some(c) = legal(state, who, Choice::Extinguish) {
            return c;
        }
    }
    // CEL-R11 Escape from a Net: netted (the GM's word; entangled, every attack of its has
    // disadvantage), it tries to escape first when its DC 20 Escape Artist check succeeds at
    // least half the time (a d20 of 11 or more); else only when no foe is in its reach.
    if f.netted && 11 + state.p(who).escape_artist >= crate::rules::escape::NET_DC {
        if let Some(c) = legal(state, who, Choice::EscapeNet) {
            return c;
        }
    }
    // A weapon it dropped (disarmed) lies on or next to its square: it picks it up (CEL-R9
    // Manipulate an Item).
    for &(item, _) in &f.on_ground {
        if let Some(c) = legal(state, who, Choice::PickUp(item)) {
            return c;
        }
    }
    // CEL-R9: with nothing in hand, draw a weapon.
    if let Some(c) = crate::rules::wield::tactic(state, who) {
        return c;
    }
    // CEL-R9 Ready or Drop a Shield, Manipulate an Item: a dropped shield is picked up, a
    // carried one strapped on.
    if let Some(c) = crate::rules::shield::tactic(state, who) {
        return c;
    }
    // CEL-R17.4, R17.8: a dying ally its healing spell reaches is healed first.
    if state.healing.0 {
        if let Some(c) = crate::heal_tactics::dying_ally(state, who) {
            return c;
        }
    }
    // CEL-R9 Direct or Redirect a Spell: a spell's weapon whose target is down is pointed at
    // another foe.
    if let Some(c) = crate::rules::spell_weapon::tactic(state, who) {
        return c;
    }
    if let Some(c) = crate::rules::spell_weapon::cast_tactic(state, who) {
        return c;
    }
    // CEL-R9, R11, R12 Cast: a damaging spell worth more than the blows its acts would be
    // (`crate::caster_tactics`), unless a blow in reach could finish a foe.
    if let Some(c) = crate::caster_tactics::cast(state, who).filter(|_| !can_finish_foe(state, who))
    {
        return c;
    }
    // The weakest foe in reach, with the best form that reaches it.
    let pos = f.pos;
    // The least key wins whatever order the foes come in (the key ends with the foe's id). A
    // foe it holds a feint on comes first (CEL-R11: the feint is for its next attack on it).
    let mut best: Option<((bool, i32, CombatantId), Choice)> = None;
    let feinted = |t| !f.feints.is_empty() && crate::rules::feint::holds(state, who, t);
    // A search that found no foe up in reach is kept for its next decision while those it
    // found down stay down and nobody moves (`foe_sight`; issue 16: a shooter's every shot).
    let reach = state.reach_squares;
    if !state.foe_sight.nobody_in_reach(state, who, reach) {
        let mut anyone = false;
        let down = state.each_foe_within_noting_down(who, reach, |t| {
            anyone = true;
            let key = (!feinted(t), state.f(t).hp, t);
            if best.is_some_and(|(k, _)| key >= k) {
                // Not better than the best so far (the best itself: a foe of several squares
                // comes once per square), legal or not: its form and legality are not worked
                // out.
                return;
            }
            let gap = state.gap(who, t);
            let form = state
                .melee_forms(who)
                .filter(|(_, w)| w.kind != WeaponKind::Unarmed && reaches(w, gap))
                .max_by_key(|(i, w)| (average(w), -(*i as i32)))
                .map(|(i, _)| Choice::Attack(t, i as u8))
                .or_else(|| {
                    (gap == 1
                        && state
                            .p(who)
                            .melee
                            .iter()
                            .all(|w| w.kind == WeaponKind::Unarmed))
                    .then_some(Choice::Unarmed(t))
                });
            if let Some(c) = form.and_then(|c| legal(state, who, c)) {
                best = Some((key, c));
            }
        });
        if !anyone {
            state
                .foe_sight
                .note_nobody_in_reach(state, who, reach, down);
        }
    }
    if let Some((_, c)) = best {
        return instead_of_blow(state, who, c);
    }
    // CEL-R10.9 Grapple, R10.10 Tie Up: held with no blow it may strike (a pinned creature may
    // do nothing but try to escape), or tied up, it tries to escape while it can succeed.
    if f.held_by.is_some() || f.tied.is_some() {
        return escape_held(state, who);
    }
    if f.netted {
        if let Some(c) = legal(state, who, Choice::EscapeNet) {
            return c;
        }
    }
    // CEL-R11 Treat a Wound: no foe in reach, it stops its own bleeding or a friend's next to it
    // (looked for only once someone has bled in this fight, `State::bled`).
    if state.bled.0 {
        if let Some(c) = treat_wound(state, who) {
            return c;
        }
    }
    // CEL-R10.10, R9: no foe in reach, it walks over to a tied-up ally to untie it.
    if state.strewn {
        if let Some(c) = walk_to_untie(state, who) {
            return c;
        }
    }
    // Kept from its last decision while it still holds (`foe_sight`).
    let nearest = state.foe_sight.nearest_foe(state, who);
    // Foes too close for a reach weapon (CEL-R9 Attack, Melee): step back to strike them.
    if let Some(t) = nearest {
        if state.gap(who, t) == 1 && state.melee_forms(who).any(|(_, w)| w.reach_only) {
            for d in fray_core::Direction::ALL {
                let gap = state.gap_from(who, pos.step(d), t);
                let can_strike = state
                    .melee_forms(who)
                    .any(|(_, w)| w.kind != WeaponKind::Unarmed && reaches(w, gap));
                if can_strike {
                    if let Some(c) = legal(state, who, Choice::Step(d)) {
                        return c;
                    }
                }
            }
        }
    }
    // CEL-R7.3, R9: its counted thrown weapons all thrown, it takes one up again (its own or
    // one of its kind) while no foe can be reached this turn.
    if state.strewn && f.ammo == Some(0) && crate::rules::thrown::tracked(state, who) {
        let far = nearest
            .is_none_or(|t| state.gap(who, t) - 1 > state.speed_squares(who) * f.acts_left.max(1));
        if far {
            if let Some(c) = fetch_thrown(state, who) {
                return c;
            }
        }
    }
    if let (Some(t), Some(w)) = (nearest, state.ranged_weapon(who)) {
        let d = state.gap(who, t);
        let out_of_reach = d - 1 > state.speed_squares(who) * f.acts_left.max(1);
        if w.kind == WeaponKind::Projectile || out_of_reach {
            if let Some(c) = legal(state, who, Choice::Shoot(t)) {
                return c;
            }
            // CEL-R9–R13: an empty crossbow or firearm is loaded (a flask prepared) first.
            if let Some(c) = crate::rules::ammo::tactic(state, who) {
                return c;
            }
        }
    }
    if let Some(t) = nearest {
        // CEL-R11 Charge: two acts for the move, then one blow at advantage, and foes have
        // advantage against it until its next turn. A foe one Move brings next to it is
        // approached instead: a Move and two blows (2a) beat one blow at advantage (2a − a²).
        if f.acts_left >= 3 && state.gap(who, t) - 1 > state.speed_squares(who) {
            if let Some(c) = legal(state, who, Choice::Charge(t)) {
                return c;
            }
        }
        if let Some(c) = legal(state, who, Choice::Approach(t)) {
            return c;
        }
    }
    Choice::End
}

/// CEL-R11 Treat a Wound, with no foe in reach: of itself and the allies next to it that are
/// bleeding and not dying (a dying creature's stabilization fails while it bleeds, but the
/// default tactics give no first aid either: both are for people), the one that bleeds most,
/// then the one with the fewest hit points, then the first in the roster.
fn treat_wound(state: &State, who: CombatantId) -> Option<Choice> {
    let mut best: Option<(i32, i32, CombatantId)> = None;
    let mut weigh = |t: CombatantId| {
        let f = state.f(t);
        if f.bleed > 0 && !f.absent() && state.band(t) != Band::Dying && !state.enemies(who, t) {
            let key = (-f.bleed, f.hp, t);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
    };
    weigh(who);
    for t in state.near(who, 1, |o| o != who) {
        weigh(t);
    }
    best.and_then(|(_, _, t)| legal(state, who, Choice::TreatWound(t)))
}

/// The blow `blow` (an `Attack` with a melee form), or a trip, a disarm, a feint of its foe,
/// the magus's Spell Combat or Spellstrike, or a natural ranged attack on it when one gains
/// more over it (issue 16; [`crate::maneuver_tactics`], [`crate::feint_tactics`],
/// [`crate::magus_tactics`], [`crate::natural_ranged_tactics`]; the first
/// of those when they gain the same). A foe it holds a feint on
/// is struck: the feint is for that blow (CEL-R11).
fn instead_of_blow(state: &State, who: CombatantId, blow: Choice) -> Choice {
    if let Choice::Attack(t, _) = blow {
        if crate::rules::feint::holds(state, who, t) {
            return blow;
        }
    }
    let maneuver = crate::maneuver_tactics::best(state, who, blow);
    let feint = crate::feint_tactics::gain(state, who, blow);
    let magus = crate::magus_tactics::gain(state, who, blow);
    let aid = crate::support_tactics::aid(state, who, blow);
    // An initiator's strike and boost (one look at `known` for everyone else).
    let (strike, boost) = if state.p(who).known == 0 {
        (None, None)
    } else {
        (
            crate::initiator_tactics::strike_gain(state, who, blow),
            crate::initiator_tactics::boost_gain(state, who, blow),
        )
    };
    let spit = crate::natural_ranged_tactics::gain(state, who, blow);
    // The greatest gain; the first of equals (a maneuver, a feint, the magus's, an aid, a
    // strike, a boost, then a natural ranged attack).
    let mut best: Option<(f64, Choice)> = None;
    for (g, c) in [maneuver, feint, magus, aid, strike, boost, spit]
        .into_iter()
        .flatten()
    {
        if best.is_none_or(|(b, _)| g > b) {
            best = Some((g, c));
        }
    }
    best.map_or(blow, |(_, c)| c)
}

/// Held in a grapple with no blow it may strike, or tied up (CEL-R9 Escape a Grapple, CEL-R10.10
/// Tie Up): the escape with the better chance — the combat maneuver check (d20 + CMB) or
/// Escape Artist (d20 + its bonus, with its disadvantage sources), each with this turn's −5 or
/// −10 for a repeated try, against the grappler's CMD or the ropes' DC; the combat maneuver
/// when they are equal. When neither can succeed, total defense if it may take it (not pinned,
/// not taken this turn, CEL-R11), else the end of its turn.
fn escape_held(state: &State, who: CombatantId) -> Choice {
    use crate::maneuver_tactics::chance;
    use crate::rules::{attack, escape, CheckKind, Total};
    let f = state.f(who);
    let versus = match (f.held_by, f.tied) {
        (Some(grappler), _) => {
            let mut cmd = Total::default();
            attack::cmd_into(state, grappler, false, &mut cmd);
            10 + cmd.0
        }
        (None, Some(dc)) => dc,
        (None, None) => return Choice::End,
    };
    let again = escape::repeat_penalty(f.escapes);
    let mut cmb = Total::default();
    attack::cmb_into(state, who, &mut cmb);
    let by_maneuver = chance(cmb.0 + again, versus, 0, false);
    let dis = crate::rules::check_disadvantage(state, who, CheckKind::Skill { physical: true });
    let by_artist = chance(
        state.p(who).escape_artist + again,
        versus,
        -dis.count(),
        false,
    );
    let tries = if by_artist > by_maneuver {
        [
            (by_artist, Choice::EscapeArtist(false)),
            (by_maneuver, Choice::Escape(false)),
        ]
    } else {
        [
            (by_maneuver, Choice::Escape(false)),
            (by_artist, Choice::EscapeArtist(false)),
        ]
    };
    tries
        .into_iter()
        .filter(|&(p, _)| p > 0.0)
        .find_map(|(_, c)| legal(state, who, c))
        .or_else(|| {
            (f.total_defense == 0)
                .then(|| legal(state, who, Choice::TotalDefense))
                .flatten()
        })
        .unwrap_or(Choice::End)
}

/// An ally up and tied up next to `who`, untied (the first in roster order: one act each).
/// [CEL-R10.10, R9]
fn untie(state: &State, who: CombatantId) -> Option<Choice> {
    state
        .near(who, 1, |o| {
            o != who && !state.enemies(who, o) && state.f(o).tied.is_some() && state.up(o)
        })
        .into_iter()
        .find_map(|t| legal(state, who, Choice::Untie(t)))
}

/// A healing potion for `who`: one at hand drunk, else a stored one retrieved. [CEL-R9, R11]
fn potion(state: &State, who: CombatantId) -> Option<Choice> {
    use crate::rules::item::{Effect, ItemUse};
    let f = state.f(who);
    let heals = |&(book, uses): &(u8, u8)| {
        let g = state.gear_book.get(usize::from(book))?;
        (uses > 0 && g.how == ItemUse::Liquid && matches!(g.effect, Effect::Heal(_)))
            .then_some(book)
    };
    f.gear
        .iter()
        .filter_map(heals)
        .find_map(|b| legal(state, who, Choice::Drink(b)))
        .or_else(|| {
            f.packed
                .iter()
                .filter_map(heals)
                .find_map(|b| legal(state, who, Choice::Retrieve(b)))
        })
}

/// A thrown weapon `who` may take up: picked up if in reach, else a move beside the nearest one
/// ([`move_beside`]). [CEL-R7.3, R9]
fn fetch_thrown(state: &State, who: CombatantId) -> Option<Choice> {
    let pick = Choice::PickUp(crate::state::Item::Ranged);
    if let Some(c) = legal(state, who, pick) {
        return Some(c);
    }
    let at = crate::rules::thrown::nearest_lying(state, who)?;
    move_beside(state, who, at, 1)
}

/// A move of `who` to the free square on or next to the space of side `side` on `at` that is
/// nearest to `who` (ties in the mover's frame, as every move's: north first, then the one less
/// far forward toward `at` — never west first, which would favour one side of a mirror match),
/// else as far toward `at` as one move goes. [CEL-R9 Move]
#[cold]
#[inline(never)]
fn move_beside(state: &State, who: CombatantId, at: fray_core::Pos, side: i32) -> Option<Choice> {
    let pos = state.f(who).pos;
    let mut squares: Vec<fray_core::Pos> = (-1..=side)
        .flat_map(|dy| (-1..=side).map(move |dx| fray_core::Pos::new(at.x + dx, at.y + dy)))
        .filter(|&p| p != pos && state.square_free(p, who))
        .collect();
    squares.sort_by_key(|&p| (pos.squares_to(p), frame(pos, at, p), p.y, p.x));
    squares
        .into_iter()
        .find_map(|p| legal(state, who, Choice::MoveTo(p)))
        .or_else(|| {
            // Beyond one move: as far as it may go along the line toward it.
            let d = pos.squares_to(at).min(state.speed_squares(who));
            (1..d).rev().find_map(|i| {
                let p = pos.point_on_line(at, i);
                (state.square_free(p, who))
                    .then(|| legal(state, who, Choice::MoveTo(p)))
                    .flatten()
            })
        })
}

/// Grapple, Continued at the start of its turn (CEL-R10.10; "Default tactics" in
/// docs/celesia.md): a foe tied up already is let go (the ropes hold it, CEL-R10.10 Tie Up);
/// with a rope, a pinned foe is tied up while no other foe threatens the grappler, and a foe not
/// pinned yet is pinned first; else, when a hazard is in reach of a Move's end, the foe is
/// placed on it (the shortest Move); else it is squeezed with the form of most mean damage
/// (lethal), else pinned.
#[cold]
#[inline(never)]
fn grapple_continued(state: &State, who: CombatantId, t: CombatantId) -> Choice {
    use crate::state::HoldUse;
    if state.f(t).tied.is_some() {
        return Choice::Release;
    }
    let maintain = |u| legal(state, who, Choice::Maintain(u));
    if state.f(who).ropes > 0 {
        if !state.pinned(t) {
            if let Some(c) = maintain(HoldUse::Pin) {
                return c;
            }
        } else if !state
            .ids()
            .any(|o| o != t && state.enemies(who, o) && state.threatens(o, who))
        {
            if let Some(c) = maintain(HoldUse::Tie) {
                return c;
            }
        }
    }
    if !state.hazards.is_empty() {
        if let Some(c) = hazard_place(state, who) {
            return c;
        }
    }
    state
        .melee_forms(who)
        .filter(|&(i, _)| crate::rules::grapple::squeezes_with(state, who, i as u8))
        .max_by_key(|(i, w)| (average(w), -(*i as i32)))
        .and_then(|(i, _)| maintain(HoldUse::Damage(i as u8, false)))
        .or_else(|| maintain(HoldUse::Pin))
        .unwrap_or(Choice::Release)
}

/// The Move of Grapple, Continued that places the foe on a hazard (CEL-R10.10 Move): the end
/// square nearest `who` (ties in the mover's frame toward the hazard: north first, then the less
/// far forward; then the hazard first marked) from which a hazard is a legal placement.
#[cold]
#[inline(never)]
fn hazard_place(state: &State, who: CombatantId) -> Option<Choice> {
    use crate::state::HoldUse;
    let pos = state.f(who).pos;
    let speed = state.speed_squares(who);
    let mut moves: Vec<(i32, usize, fray_core::Pos, fray_core::Pos)> = Vec::new();
    let within = |h: &&crate::rules::hazard::Hazard| h.at.squares_to(pos) <= speed + 3;
    for (k, h) in state.hazards.iter().enumerate().filter(|(_, h)| within(h)) {
        for dy in -speed..=speed {
            for dx in -speed..=speed {
                let p = fray_core::Pos::new(pos.x + dx, pos.y + dy);
                if p != pos && h.at.squares_to(p) <= 3 {
                    moves.push((dx.abs().max(dy.abs()), k, p, h.at));
                }
            }
        }
    }
    moves.sort_by_key(|&(d, k, p, q)| (d, frame(pos, q, p), k, p.y, p.x));
    moves
        .into_iter()
        .find_map(|(_, _, p, q)| legal(state, who, Choice::Maintain(HoldUse::Place(p, q))))
}

/// With no foe in reach, a move toward the nearest ally up and tied up (ties in the mover's
/// frame toward its nearest foe: north first, then the less far forward; roster order only
/// where those tie too), to untie it on a later act. [CEL-R10.10, R9]
#[cold]
#[inline(never)]
fn walk_to_untie(state: &State, who: CombatantId) -> Option<Choice> {
    let pos = state.f(who).pos;
    let toward = state.nearest_foe(who).map_or(pos, |foe| state.f(foe).pos);
    let ally = state
        .ids()
        .filter(|&o| o != who && !state.enemies(who, o) && state.f(o).tied.is_some() && state.up(o))
        .min_by_key(|&o| {
            let at = state.f(o).pos;
            (pos.squares_to(at), frame(pos, toward, at), o)
        })?;
    move_beside(state, who, state.f(ally).pos, state.side(ally))
}

/// A riderless mount's withdrawal (CEL-R21.11 "avoids combat", CEL-G10): a Move to the free
/// square within its speed farthest from its nearest foe still up (ties: the nearer square, then
/// north first, then the one farther back from that foe), if that is farther than where it
/// stands.
fn withdraw(state: &State, who: CombatantId) -> Option<Choice> {
    let at = state.f(who).pos;
    let speed = state.speed_squares(who);
    let away = |p| state.nearest_foe_distance(who, p).unwrap_or(i32::MAX);
    let now = away(at);
    // East–west ties go away from the nearest foe (the mover's frame: mirror matches are fair).
    let back = state
        .nearest_foe(who)
        .map_or(0, |foe| (at.x - state.f(foe).pos.x).signum());
    let mut best: Option<((i32, i32, i32, i32), fray_core::Pos)> = None;
    for dy in -speed..=speed {
        for dx in -speed..=speed {
            let p = fray_core::Pos::new(at.x + dx, at.y + dy);
            if p == at || !state.square_free(p, who) {
                continue;
            }
            let key = (-away(p), dx.abs().max(dy.abs()), dy, -dx * back);
            if -key.0 > now && best.is_none_or(|(k, _)| key < k) {
                best = Some((key, p));
            }
        }
    }
    best.and_then(|(_, p)| legal(state, who, Choice::MoveTo(p)))
}

/// Take an injury (permanent) only when the damage would kill: the smallest that keeps it alive,
/// else the largest there is.
fn injury(state: &State, who: CombatantId, damage: i32) -> Choice {
    let (hp, con) = (state.f(who).hp, state.score(who, CON));
    if hp - damage > -2 * con {
        return Choice::NoInjury;
    }
    let injuries = state.f(who).injuries;
    let mut available = Injury::ALL.into_iter().filter(|i| injuries.available(*i));
    available
        .clone()
        .find(|i| hp - (damage - i.negates()).max(0) > -2 * con)
        .or_else(|| available.next_back())
        .map_or(Choice::NoInjury, Choice::Injury)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use fray_core::Pos;

    /// A blow or a maneuver against `t` (a fighter trips a sturdy orc rather than strike it).
    fn strikes(c: Choice, t: CombatantId) -> bool {
        matches!(c, Choice::Attack(o, _) | Choice::Trip(o) if o == t)
    }

    /// A netted fighter escapes the net before it strikes when its check succeeds at least
    /// half the time (Escape Artist +9: 11 or more); with less, it strikes entangled, and
    /// escapes when no foe is in reach; free of it, it strikes. [CEL-R11]
    #[test]
    fn a_netted_fighter_escapes_the_net_when_it_is_likely_to() {
        let netted = |bonus: i32| {
            Fixture::new()
                .with(
                    "hal",
                    "heroes",
                    [0, 0],
                    &format!("{FIGHTER}\nnetted = true\nescape_artist = {bonus}"),
                )
                .monster("orc", "orcs", [1, 0], "orc")
                .state()
        };
        let (hal, orc) = (CombatantId(0), CombatantId(1));
        let mut s = netted(9);
        s.fm(hal).acts_left = 3;
        assert_eq!(action(&s, hal), Choice::EscapeNet);
        let mut s = netted(8);
        s.fm(hal).acts_left = 3;
        assert!(strikes(action(&s, hal), orc), "9 or less: a 45% chance");
        s.set_square(orc, Pos::new(5, 0));
        assert_eq!(action(&s, hal), Choice::EscapeNet, "no foe in reach");
        s.set_square(orc, Pos::new(1, 0));
        s.fm(hal).netted = false;
        assert!(strikes(action(&s, hal), orc));
    }

    /// On fire, it extinguishes the flames before it strikes, unless its blow could finish the
    /// foe in reach (the longsword's average 4.5 reaches an orc at 4 hp). [CEL-R11]
    #[test]
    fn a_burning_fighter_puts_the_fire_out_unless_it_can_finish_a_foe() {
        let mut s = Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                &format!(
                    "{FIGHTER}
on_fire = true"
                ),
            )
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        let (hal, orc) = (CombatantId(0), CombatantId(1));
        s.fm(hal).acts_left = 3;
        assert_eq!(action(&s, hal), Choice::Extinguish);
        s.fm(orc).hp = 4;
        assert!(strikes(action(&s, hal), orc), "a blow may finish it");
        s.fm(orc).hp = 5;
        assert_eq!(action(&s, hal), Choice::Extinguish);
        s.fm(hal).acts_left = 1;
        assert!(
            strikes(action(&s, hal), orc),
            "one act: no Extinguish Flames"
        );
        s.fm(hal).acts_left = 3;
        s.fm(hal).on_fire = false;
        assert!(strikes(action(&s, hal), orc));
    }

    /// With no foe in reach, the bleeding ally next to it that bleeds most (itself included) is
    /// treated; not a foe, not a dying ally, not with one act left; a foe in reach is struck
    /// first. [CEL-R11 Treat a Wound]
    #[test]
    fn with_no_foe_in_reach_a_bleeding_ally_is_treated() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .with("ann", "heroes", [0, 1], FIGHTER)
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        let (hal, ann, orc) = (CombatantId(0), CombatantId(1), CombatantId(2));
        s.fm(hal).acts_left = 3;
        s.fm(ann).bleed = 2;
        assert!(strikes(action(&s, hal), orc), "a foe in reach comes first");
        s.set_square(orc, Pos::new(6, 0));
        assert!(
            !matches!(action(&s, hal), Choice::TreatWound(_)),
            "the cheap flag is off"
        );
        s.bled = crate::state::CacheFlag(true);
        assert_eq!(action(&s, hal), Choice::TreatWound(ann));
        s.fm(hal).bleed = 1;
        assert_eq!(action(&s, hal), Choice::TreatWound(ann), "Ann bleeds more");
        s.fm(hal).bleed = 2;
        s.fm(hal).hp = 20;
        assert_eq!(
            action(&s, hal),
            Choice::TreatWound(hal),
            "as much, fewer hp"
        );
        s.fm(hal).bleed = 0;
        s.fm(ann).hp = -12;
        assert_eq!(crate::state::Band::Dying, s.band(ann));
        assert!(
            !matches!(action(&s, hal), Choice::TreatWound(_)),
            "dying: first aid is for people"
        );
        s.fm(ann).hp = 10;
        s.fm(orc).bleed = 2;
        s.set_square(orc, Pos::new(1, 1));
        s.fm(ann).bleed = 0;
        assert_eq!(treat_wound(&s, hal), None, "a foe is not treated");
        s.set_square(orc, Pos::new(6, 0));
        s.fm(ann).bleed = 2;
        s.fm(hal).acts_left = 1;
        assert!(
            !matches!(action(&s, hal), Choice::TreatWound(_)),
            "one act: no standard action"
        );
    }

    /// A tied-up ally next to it is untied before any blow; a tied-up foe is not, nor an ally
    /// out of reach. [CEL-R10.10]
    #[test]
    fn an_ally_tied_up_next_to_it_is_untied() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .with("ann", "heroes", [0, 1], FIGHTER)
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        let (hal, ann, orc) = (CombatantId(0), CombatantId(1), CombatantId(2));
        s.fm(hal).acts_left = 3;
        s.fm(ann).tied = Some(25);
        assert!(strikes(action(&s, hal), orc), "the cheap flag is off");
        s.strewn = true;
        assert_eq!(action(&s, hal), Choice::Untie(ann));
        s.fm(ann).tied = None;
        s.fm(orc).tied = Some(25);
        assert!(strikes(action(&s, hal), orc), "a foe stays tied");
        s.fm(orc).tied = None;
        s.fm(ann).tied = Some(25);
        s.set_square(ann, Pos::new(0, 3));
        assert!(strikes(action(&s, hal), orc), "not next to it");
    }

    /// At half its hit points a fighter retrieves its stored potion, then drinks it; healthy,
    /// it strikes. [CEL-R9, R11]
    #[test]
    fn a_hurt_fighter_retrieves_then_drinks_a_healing_potion() {
        let mut s = Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nstored = [\"potion of cure light wounds\"]"),
            )
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        let (hal, orc) = (CombatantId(0), CombatantId(1));
        s.fm(hal).acts_left = 3;
        assert!(strikes(action(&s, hal), orc), "healthy");
        s.fm(hal).hp = 15;
        assert_eq!(action(&s, hal), Choice::Retrieve(0));
        let potion = s.fm(hal).packed.remove(0);
        s.fm(hal).gear.push(potion);
        assert_eq!(action(&s, hal), Choice::Drink(0));
        s.fm(hal).gear[0].1 = 0;
        assert!(strikes(action(&s, hal), orc), "none left");
    }

    /// With its counted javelins all thrown and the foe beyond this turn's reach, a thrower
    /// walks to the nearest one lying, then picks it up; a goblin with javelins of its own
    /// picks up an ally's. [CEL-R7.3, R9]
    #[test]
    fn a_thrower_with_none_left_fetches_a_javelin() {
        let javelin = format!("{FIGHTER}\nranged = \"javelin\"\nammo = 0");
        let mut s = Fixture::new()
            .with("bo", "heroes", [0, 0], &javelin)
            .with("cy", "heroes", [0, 2], &javelin)
            .monster("orc", "orcs", [30, 0], "orc")
            .state();
        let (bo, cy) = (CombatantId(0), CombatantId(1));
        s.fm(bo).acts_left = 3;
        s.fm(bo).thrown.push(Pos::new(4, 0));
        s.strewn = true;
        // 3 -1 and 3 0 are as near: north first.
        assert_eq!(action(&s, bo), Choice::MoveTo(Pos::new(3, -1)));
        s.set_square(bo, Pos::new(3, -1));
        assert_eq!(action(&s, bo), Choice::PickUp(crate::state::Item::Ranged));
        // Cy picks up Bo's: the same weapon, into its own counted supply.
        s.set_square(cy, Pos::new(4, 1));
        s.fm(cy).acts_left = 3;
        assert_eq!(action(&s, cy), Choice::PickUp(crate::state::Item::Ranged));
    }
    /// The walk to a tied-up ally breaks ties in the mover's frame, so a mirror image walks to
    /// the mirror square: beside an ally two squares east and four south the squares 1 3, 2 3
    /// and 3 3 are as near (3 squares), and the less far forward is taken — 1 3 east, -1 3 in
    /// the mirror (west first would take -3 3 there, the farthest forward). [CEL-R9 Move]
    #[test]
    fn the_walk_to_untie_is_the_same_in_a_mirror() {
        for east in [1, -1] {
            let mut s = Fixture::new()
                .with("hal", "heroes", [0, 0], FIGHTER)
                .with("ann", "heroes", [2 * east, 4], FIGHTER)
                .monster("orc", "orcs", [30 * east, 0], "orc")
                .state();
            let (hal, ann) = (CombatantId(0), CombatantId(1));
            s.fm(hal).acts_left = 3;
            s.fm(ann).tied = Some(25);
            s.strewn = true;
            assert_eq!(
                action(&s, hal),
                Choice::MoveTo(Pos::new(east, 3)),
                "ally {} squares east",
                2 * east
            );
        }
    }
    /// With no foe in reach, a fighter walks to the free square beside a tied-up ally nearest
    /// to it (ties: north, then the less far forward), then unties it; with a foe in reach, it strikes first.
    /// [CEL-R10.10, R9]
    #[test]
    fn a_fighter_walks_over_to_untie_an_ally() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .with("ann", "heroes", [0, 4], FIGHTER)
            .monster("orc", "orcs", [30, 0], "orc")
            .state();
        let (hal, ann, orc) = (CombatantId(0), CombatantId(1), CombatantId(2));
        s.fm(hal).acts_left = 3;
        s.fm(ann).tied = Some(25);
        s.strewn = true;
        assert_eq!(action(&s, hal), Choice::MoveTo(Pos::new(-1, 3)));
        s.set_square(hal, Pos::new(-1, 3));
        assert_eq!(action(&s, hal), Choice::Untie(ann));
        s.set_square(hal, Pos::new(0, 0));
        s.set_square(orc, Pos::new(1, 0));
        assert!(
            strikes(action(&s, hal), orc),
            "a foe in reach is struck first"
        );
        s.set_square(orc, Pos::new(30, 0));
        s.fm(ann).tied = None;
        assert!(
            !matches!(action(&s, hal), Choice::MoveTo(_)),
            "nobody tied: it goes for the foe"
        );
    }

    /// A grappler with a rope pins its foe, then ties it up while no other foe threatens it
    /// (another orc next to it: it squeezes instead), and lets a tied foe go; without a rope it
    /// places the foe on a hazard a Move reaches, else squeezes it. [CEL-R10.10]
    #[test]
    fn a_grappler_pins_ties_up_and_places_on_a_hazard() {
        use crate::state::{Hold, HoldUse};
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], &format!("{FIGHTER}\nrope = 1"))
            .monster("orc", "orcs", [1, 0], "orc")
            .monster("orc2", "orcs", [20, 0], "orc")
            .state();
        let (hal, orc, orc2) = (CombatantId(0), CombatantId(1), CombatantId(2));
        s.fm(hal).acts_left = 3;
        let hold = |pinned| Hold {
            target: orc,
            pinned,
            choke: false,
        };
        s.fm(hal).hold = Some(hold(false));
        s.fm(orc).held_by = Some(hal);
        assert_eq!(action(&s, hal), Choice::Maintain(HoldUse::Pin));
        s.fm(hal).hold = Some(hold(true));
        assert_eq!(action(&s, hal), Choice::Maintain(HoldUse::Tie));
        s.set_square(orc2, Pos::new(0, 1));
        assert!(
            matches!(action(&s, hal), Choice::Maintain(HoldUse::Damage(_, false))),
            "another foe threatens it: no tying"
        );
        s.set_square(orc2, Pos::new(20, 0));
        s.fm(orc).tied = Some(25);
        assert_eq!(action(&s, hal), Choice::Release, "the ropes hold it");
        s.fm(orc).tied = None;
        s.fm(hal).ropes = 0;
        assert!(matches!(
            action(&s, hal),
            Choice::Maintain(HoldUse::Damage(_, false))
        ));
        s.hazards = vec![crate::rules::hazard::Hazard {
            name: "fire pit".into(),
            at: Pos::new(3, 1),
            damage: None,
        }]
        .into();
        match action(&s, hal) {
            Choice::Maintain(HoldUse::Place(p, q)) => {
                assert_eq!(q, Pos::new(3, 1));
                assert_eq!(p.squares_to(Pos::new(0, 0)), 2, "the shortest Move: {p:?}");
            }
            other => panic!("expected a placement on the pit, got {other:?}"),
        }
        s.fm(hal).maintained = true;
        assert!(
            !matches!(action(&s, hal), Choice::Maintain(_)),
            "once a turn"
        );
    }
    /// Held with no blow it may strike — pinned, or grappled with only a two-handed weapon
    /// (the orc's falchion) — a combatant tries to escape the grapple; held with a one-handed
    /// weapon, it strikes the grappler. [CEL-R10.9, CEL-A34]
    #[test]
    fn a_held_fighter_with_no_blow_tries_to_escape() {
        use crate::state::Hold;
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [1, 0], "orc")
            .with("bea", "orcs", [0, 1], FIGHTER)
            .state();
        let (hal, orc, bea) = (CombatantId(0), CombatantId(1), CombatantId(2));
        let hold = |target, pinned| Hold {
            target,
            pinned,
            choke: false,
        };
        s.fm(orc).acts_left = 3;
        s.fm(orc).held_by = Some(hal);
        s.fm(hal).hold = Some(hold(orc, true));
        assert_eq!(action(&s, orc), Choice::Escape(false), "pinned");
        s.fm(hal).hold = Some(hold(orc, false));
        assert_eq!(
            action(&s, orc),
            Choice::Escape(false),
            "grappled, a two-handed falchion only"
        );
        s.fm(orc).held_by = None;
        s.fm(bea).acts_left = 3;
        s.fm(bea).held_by = Some(hal);
        s.fm(hal).hold = Some(hold(bea, false));
        let c = action(&s, bea);
        assert!(strikes(c, hal), "grappled with a longsword: {c:?}");
    }

    /// A held orc (CMB +4: BAB 1, STR 17) against a grappler of CMD 24 (fighter 10, STR 18)
    /// escapes only on a natural 20 (d20 + 4 ≥ 24); its second try, at −5, cannot succeed, so
    /// it takes total defense instead, or, pinned (it may only escape), ends its turn. With
    /// Escape Artist +10 it escapes that way (d20 + 10 ≥ 24: 35%; −5: 10%). Tied up and not
    /// held, against the ropes' DC 25, only Escape Artist can succeed (d20 + 4 ≤ 24).
    /// [CEL-R9 Escape a Grapple, R10.10 Tie Up, R11 Total Defense]
    #[test]
    fn a_held_orc_stops_trying_escapes_that_cannot_succeed() {
        use crate::state::Hold;
        let (hal, orc) = (CombatantId(0), CombatantId(1));
        let held = |artist: i32, pinned: bool, escapes: u8| {
            let strong = "class = \"fighter\"\nlevel = 10\nhp = 80\nweapon = \"longsword\"\n\
                          scores = { str = 18, dex = 10, con = 10 }";
            let mut s = Fixture::new()
                .with("hal", "heroes", [0, 0], strong)
                .with(
                    "orc",
                    "orcs",
                    [1, 0],
                    &format!("monster = \"orc\"\nescape_artist = {artist}"),
                )
                .state();
            s.fm(orc).acts_left = 3;
            s.fm(orc).escapes = escapes;
            s.fm(orc).held_by = Some(hal);
            s.fm(hal).hold = Some(Hold {
                target: orc,
                pinned,
                choke: false,
            });
            s
        };
        assert_eq!(
            action(&held(0, false, 0), orc),
            Choice::Escape(false),
            "a natural 20 frees it"
        );
        let mut s = held(0, false, 1);
        assert_eq!(action(&s, orc), Choice::TotalDefense, "at −5 it cannot");
        s.fm(orc).total_defense = 7;
        assert_eq!(action(&s, orc), Choice::End, "in total defense already");
        assert_eq!(
            action(&held(0, true, 1), orc),
            Choice::End,
            "pinned: only escapes"
        );
        assert_eq!(action(&held(0, true, 0), orc), Choice::Escape(false));
        assert_eq!(
            action(&held(10, true, 0), orc),
            Choice::EscapeArtist(false),
            "35% against 5%"
        );
        assert_eq!(
            action(&held(10, true, 1), orc),
            Choice::EscapeArtist(false),
            "10% at −5"
        );
        // Tied up (DC 25) and let go.
        for (artist, dc, pick) in [
            (10, 25, Choice::EscapeArtist(false)),
            (0, 25, Choice::End),
            (0, 20, Choice::Escape(false)),
        ] {
            let mut s = held(artist, false, 0);
            s.fm(hal).hold = None;
            s.fm(orc).held_by = None;
            s.fm(orc).tied = Some(dc);
            assert_eq!(action(&s, orc), pick, "Escape Artist +{artist}, DC {dc}");
        }
    }

    /// A foe one Move brings next to it is approached (a Move and two blows), not charged
    /// (one blow at advantage, and foes' advantage on the charger); a foe farther off is
    /// charged with three acts left. Speed 30 ft: 6 squares. [CEL-R9 Move, R11 Charge]
    #[test]
    fn a_foe_one_move_away_is_approached_not_charged() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [7, 0], "orc")
            .state();
        let (hal, orc) = (CombatantId(0), CombatantId(1));
        s.fm(hal).acts_left = 3;
        assert_eq!(s.speed_squares(hal), 6);
        assert_eq!(action(&s, hal), Choice::Approach(orc), "6 squares between");
        s.set_square(orc, Pos::new(8, 0));
        assert_eq!(action(&s, hal), Choice::Charge(orc), "7 squares between");
        s.fm(hal).acts_left = 2;
        assert_eq!(action(&s, hal), Choice::Approach(orc), "two acts left");
    }
}
