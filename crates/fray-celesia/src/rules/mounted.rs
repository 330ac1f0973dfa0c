//! Mounted combat (CEL-R21): the mount acting on its rider's initiative count just before it
//! (R21.2), carrying it (the rider shares its square, R21.3), the act cap after a move of more
//! than 5 ft (R21.6), the Ride check to control a frightened mount (R21.1), higher ground (R21.5),
//! the mounted charge (R21.7), shooting from a moving mount (R21.8), a falling mount (R21.10), a
//! rider knocked out of the saddle (R21.11), mounting and dismounting (CEL-R9).

use crate::choice::Choice;
use crate::content::Weapon;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt, RollPurpose, RollRequest};
use fray_core::{Board, CombatantId, Pos, Table};

/// The skill of a rider's checks (a friend may aid them, CEL-R9).
const RIDE: super::aid_check::Skill = super::aid_check::Skill::Ride;

/// A mount with a rider: it rolls no initiative of its own. [CEL-R21.2]
pub fn ridden(state: &State, who: CombatantId) -> bool {
    state.f(who).rider.is_some()
}

/// Puts each ridden mount in the order just before its rider, on the rider's count: "your mount
/// acts on your initiative count as you direct it", and the rider attacks once the mount has
/// carried it (R21.6). [CEL-R21.2]
pub fn seat_in_order(state: &mut State, order: &mut Vec<CombatantId>) {
    for mount in state.ids().collect::<Vec<_>>() {
        let Some(rider) = state.f(mount).rider else {
            continue;
        };
        order.retain(|&c| c != mount);
        let at = order
            .iter()
            .position(|&c| c == rider)
            .unwrap_or(order.len());
        order.insert(at, mount);
        let initiative = state.f(rider).initiative;
        state.fm(mount).initiative = initiative;
    }
}

/// CEL-R21.1: at the start of a ridden mount's turn, if it has no combat training, its rider
/// makes a DC 20 Ride check (a simple action of the rider's). Passed, the mount acts and the
/// rider has two acts left; failed, the check takes the rider's whole turn and the frightened
/// mount does nothing. A disabled rider takes 1 damage per act the check used (CEL-R17.2).
/// Returns whether the mount may act.
#[inline(always)]
pub fn control(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mount: CombatantId,
) -> Result<bool, Interrupt> {
    // At every turn: this test inline in the caller, the rest out of line (issue 16).
    match state.f(mount).rider {
        Some(rider) => control_ridden(state, table, mount, rider),
        None => Ok(true),
    }
}

/// [`control`], for a mount with its rider.
#[inline(never)]
fn control_ridden(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mount: CombatantId,
    rider: CombatantId,
) -> Result<bool, Interrupt> {
    if state.p(mount).combat_trained || !state.up(rider) {
        return Ok(true);
    }
    let passed = super::D20Check {
        purpose: "control a frightened mount",
        modifier: "Ride",
        bonus: state.p(rider).ride,
        dc: 20,
        kind: super::CheckKind::Crippling(super::Crippled::Ride),
        results: ("in control", "loses control"),
        rule: "CEL-R21.1",
    }
    .roll_skill(RIDE, state, table, rider)?;
    // CEL-R17.2 (seed: Disabled): "each act ... used while disabled inflicts 1 point of damage":
    // the check's simple action, or, failed, the whole turn it becomes (every act it had).
    let used = if passed {
        1
    } else {
        super::round::budget(state, rider).0
    };
    state.fm(rider).control = Some(passed);
    super::injury::strain(state, table, rider, used);
    if !passed {
        table.emit(|| Event::Skipped {
            who: mount,
            reason: "frightened by combat: its rider lost control",
            rule: "CEL-R21.1",
        });
    }
    Ok(passed)
}

/// The rider's act budget: the control check's simple action or whole turn (R21.1), at most two
/// acts after its mount moved more than 5 ft this round (R21.6). `(acts, reason)` to apply.
#[inline]
pub fn budget(state: &State, rider: CombatantId, acts: i32) -> (i32, Option<&'static str>) {
    // At every turn: this test inline in the caller, the rest out of line (issue 16). Neither
    // controlling a mount nor riding, nothing below applies.
    let f = state.f(rider);
    if f.control.is_none() && f.riding.is_none() {
        return (acts, None);
    }
    rider_budget(state, rider, acts)
}

/// [`budget`], for a rider.
#[inline(never)]
fn rider_budget(state: &State, rider: CombatantId, acts: i32) -> (i32, Option<&'static str>) {
    match state.f(rider).control {
        Some(false) => {
            return (
                0,
                Some("controlling its frightened mount took its turn (CEL-R21.1)"),
            )
        }
        Some(true) => {
            return (
                (acts - 1).min(2),
                Some("-1 the Ride check to control its frightened mount (CEL-R21.1)"),
            )
        }
        None => {}
    }
    let moved = state
        .f(rider)
        .riding
        .is_some_and(|m| state.f(m).moved_ft > 5);
    if moved && acts > 2 {
        (
            2,
            Some("its mount moved more than 5 ft: two acts (CEL-R21.6)"),
        )
    } else {
        (acts, None)
    }
}

/// CEL-R21.5: +1 on melee attacks from the saddle against a creature on foot smaller than the
/// mount (higher ground).
pub fn higher_ground(state: &State, attacker: CombatantId, target: CombatantId, w: &Weapon) -> i32 {
    let Some(mount) = state.f(attacker).riding else {
        return 0;
    };
    let on_foot = state.f(target).riding.is_none();
    let smaller = (state.p(target).size as i32) < state.p(mount).size as i32;
    i32::from(!w.kind.is_ranged() && on_foot && smaller)
}

/// CEL-R21.8: a ranged attack from a mount taking a double move (a second Move act this turn,
/// or more than its speed) takes −4; from a running mount (four times its speed), −8.
pub fn moving_mount_penalty(state: &State, attacker: CombatantId, w: &Weapon) -> i32 {
    let Some(mount) = state.f(attacker).riding else {
        return 0;
    };
    if !w.kind.is_ranged() {
        return 0;
    }
    if state.f(mount).running {
        -8
    } else if moved_on(state, mount) {
        -4
    } else {
        0
    }
}

/// Shooting along the mount's move (CEL-R21.8). On a mount: the Move acts begun this turn (each
/// an increment of its speed) and whether it takes a double move. On a rider: the shots it made
/// during its mount's turn (spent from its own turn's acts) and whether its own turn's shot,
/// the one at the mount's last increment, is made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Saddle {
    /// Move acts the mount has begun this turn.
    pub increments: u8,
    /// The mount took a second Move act this turn.
    pub double_move: bool,
    /// Shots its rider made during this round's move of its mount.
    pub shots: u8,
    /// Its rider made its shot at the mount's last increment (its own turn).
    pub end_shot: bool,
}

/// Did `mount` move on past one increment of its speed this turn (a double move, a charge or a
/// run)? [CEL-R21.8]
fn moved_on(state: &State, mount: CombatantId) -> bool {
    let m = state.f(mount);
    m.running || m.saddle.double_move || m.moved_ft > state.p(mount).speed
}

/// CEL-R21.8: "you make your attack rolls each time when your mount has completed one
/// increment of its speed". Before a ridden mount's second (or later) Move act, the point where
/// it has completed one increment and moves on: it now takes a double move, and its rider may
/// shoot there.
#[inline(always)]
pub fn before_move(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mount: CombatantId,
    choice: &Choice,
) -> Result<(), Interrupt> {
    // After every action: this test inline in the caller, the rest out of line (issue 16).
    if state.f(mount).rider.is_none() || !matches!(choice, Choice::Approach(_) | Choice::MoveTo(_))
    {
        return Ok(());
    }
    ridden_move(state, table, mount)
}

/// [`before_move`], for a ridden mount's Move.
#[inline(never)]
fn ridden_move(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mount: CombatantId,
) -> Result<(), Interrupt> {
    let f = state.fm(mount);
    f.saddle.increments = f.saddle.increments.saturating_add(1);
    if f.saddle.increments >= 2 {
        f.saddle.double_move = true;
        increment_done(state, table, mount)?;
    }
    Ok(())
}

/// The rider of `mount` that could shoot at an increment now: up, with a ranged weapon, and
/// with a shot of its two acts (R21.6) left. [CEL-R21.8]
pub fn saddle_rider(state: &State, mount: CombatantId) -> Option<CombatantId> {
    let rider = state.f(mount).rider?;
    let ok = state.up(rider)
        && state.f(rider).riding == Some(mount)
        && state.ranged_weapon(rider).is_some()
        && state.f(rider).saddle.shots < 2;
    ok.then_some(rider)
}

/// CEL-R21.8: the mount has completed an increment of its speed and moves on: its rider is
/// asked whether to shoot there (`shoot WHO`, at −4 in a double move, −8 running; `knees` first
/// for a two-handed bow; `wait`). The shot is one of the two acts its own turn would have
/// (R21.6): that turn has one act fewer.
pub fn increment_done(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mount: CombatantId,
) -> Result<(), Interrupt> {
    let Some(rider) = saddle_rider(state, mount) else {
        return Ok(());
    };
    let allowance = super::round::budget(state, rider).0.min(2);
    if allowance <= 0 {
        return Ok(());
    }
    state.fm(rider).acts_left = allowance;
    loop {
        let choice = super::legal::ask(
            state,
            table,
            crate::state::Asking::Saddle { rider, mount },
            "CEL-R21.8",
        )?;
        match choice {
            Choice::Knees => super::round::perform(state, table, rider, choice)?,
            Choice::Shoot(_) => {
                super::round::perform(state, table, rider, choice)?;
                let f = state.fm(rider);
                f.saddle.shots += 1;
                // That shot is this increment's, not the last one's.
                f.saddle.end_shot = false;
                break;
            }
            _ => break,
        }
    }
    state.fm(rider).acts_left = 0;
    Ok(())
}

/// CEL-R21.8: a ridden mount's run (CEL-R12: four times its speed, straight) to `to`, stopping
/// at each increment of its speed — the squares 1, 2 and 3 times its speed along the line, where
/// its space is free — for its rider's shot there (at −8). Without a rider who could shoot it is
/// one move.
pub fn run_to(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mount: CombatantId,
    to: Pos,
) -> Result<(), Interrupt> {
    if saddle_rider(state, mount).is_some() {
        let from = state.f(mount).pos;
        let (total, step) = (from.squares_to(to), state.speed_squares(mount));
        state.fm(mount).running = true;
        for k in 1..4 {
            let along = k * step;
            if step <= 0 || along >= total || !state.up(mount) {
                break;
            }
            let at = from.point_on_line(to, along);
            if state.square_free(at, mount) {
                super::round::move_to(state, table, mount, at, "run", "CEL-R12");
                increment_done(state, table, mount)?;
            }
        }
        if !state.square_free(to, mount) {
            return Ok(());
        }
    }
    super::round::move_to(state, table, mount, to, "run", "CEL-R12");
    Ok(())
}

/// CEL-R21.8 with CEL-R11 Charge: a ridden mount's charge to `to`. A charge farther than the
/// mount's speed covers a double move's ground (up to twice its speed): where it has completed
/// one increment of its speed along the charge's line (if its space is free there), its rider
/// may shoot, at the double move's −4, and the charge goes on to its end. A charge no farther
/// than its speed is one increment: the rider's shot comes in its own turn (R21.6). The seed
/// forbids neither; it names no penalty for a charge but the double move's and the run's.
/// The mount's space where it completes its speed is a square of the charge's line, which
/// CEL-R11 keeps clear ("If anything hinders or blocks your movement along the path of a
/// charge, you can't take the charge action"; `movement::clear_line`), so it is free there:
/// the test below only guards the invariant.
pub fn charge_to(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mount: CombatantId,
    to: Pos,
) -> Result<(), Interrupt> {
    let (from, step) = (state.f(mount).pos, state.speed_squares(mount));
    if saddle_rider(state, mount).is_some() && step > 0 && from.squares_to(to) > step {
        let at = from.point_on_line(to, step);
        if state.square_free(at, mount) {
            super::round::move_to(state, table, mount, at, "charge", "CEL-R11");
            state.fm(mount).saddle.double_move = true;
            increment_done(state, table, mount)?;
        }
    }
    super::round::move_to(state, table, mount, to, "charge", "CEL-R11");
    Ok(())
}

/// A rider's shot: noted for the one-shot-at-the-last-increment limit. [CEL-R21.8]
pub fn note_shot(state: &mut State, who: CombatantId) {
    if state.f(who).riding.is_some() {
        state.fm(who).saddle.end_shot = true;
    }
}

/// The options at an increment of the mount's move: a shot at each foe it may shoot, the
/// knees, or wait. [CEL-R21.8]
pub fn saddle_options(state: &State, rider: CombatantId, out: &mut Vec<Choice>) {
    for t in state.ids() {
        let c = Choice::Shoot(t);
        if state.enemies(rider, t) && super::legal::check_action(false, state, rider, &c).is_ok() {
            out.push(c);
        }
    }
    if super::legal::check_action(false, state, rider, &Choice::Knees).is_ok() {
        out.push(Choice::Knees);
    }
    out.push(Choice::Wait);
}

/// Is square `to` next to `mount`'s space (CEL-R21.3: 2 × 2 for a horse)?
fn beside_mount(state: &State, mount: CombatantId, to: Pos) -> bool {
    crate::space::gap(to, 1, state.f(mount).pos, state.side(mount)) == 1
}

/// The free square next to the space of the mount `rider` leaves where it lands: the first
/// clockwise from the square north of the space's north-west square, or the mount's square
/// itself if every one is taken. [CEL-R21.10, R21.11]
fn landing(state: &State, rider: CombatantId, mount: CombatantId) -> Pos {
    let at = state.f(mount).pos;
    let rider_alone = |p: Pos| {
        !state
            .occupancy
            .any_at(p, |o| o != rider && o != mount && !state.f(o).absent())
    };
    crate::space::ring(at, state.side(mount), 1)
        .find(|&p| rider_alone(p))
        .unwrap_or(at)
}

/// The rider leaves the saddle for `to`.
fn unseat(state: &mut State, rider: CombatantId, to: Pos) {
    if let Some(mount) = state.fm(rider).riding.take() {
        state.fm(mount).rider = None;
    }
    state.set_square(rider, to);
}

/// A fall: 1d6 damage (R21.10, R21.11) and the rider on the ground next to its mount.
fn fall(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    rider: CombatantId,
    rule: &'static str,
) -> Result<(), Interrupt> {
    let at = state.f(rider).pos;
    let to = state
        .f(rider)
        .riding
        .map_or(at, |mount| landing(state, rider, mount));
    unseat(state, rider, to);
    table.emit(|| Event::Moved {
        who: rider,
        from: at,
        to,
        feet: at.feet_to(to),
        mode: "falls",
        hidden: super::concealment::hidden(state, rider),
        rule,
    });
    let damage = table.roll(RollRequest::new(
        1,
        6,
        Some(rider),
        RollPurpose::Damage,
        rule,
    ))?;
    super::injury::lose_hp(state, table, rider, damage as i32, "fall", rule);
    Ok(())
}

/// The condition of a mount whose rider is knocked out in the saddle. [CEL-R21.2, R21.11]
const UNGUIDED: &str = "unguided, its rider knocked out: avoids combat";

/// After each action: a rider whose mount fell (down or gone) makes a DC 15 Ride check for a
/// soft fall, else takes 1d6 (R21.10); a rider knocked out (down) stays in the saddle on d100 ≤
/// 50 (75 with a military saddle), else falls and takes 1d6; either way its mount, without it
/// to guide it, avoids combat (R21.11), until a rider still in the saddle is up again (R21.2).
pub fn tidy(state: &mut State, table: &mut Table<'_, Celesia>) -> Result<(), Interrupt> {
    // Run after every action: nobody riding (most fights) is one quick pass.
    if state.fighters.iter().all(|f| f.riding.is_none()) {
        return Ok(());
    }
    for rider in state.ids() {
        let Some(mount) = state.f(rider).riding else {
            continue;
        };
        if !state.up(mount) {
            let soft = super::D20Check {
                purpose: "soft fall from a falling mount",
                modifier: "Ride",
                bonus: state.p(rider).ride,
                dc: 15,
                kind: super::CheckKind::Crippling(super::Crippled::Ride),
                results: ("lands softly", "falls hard"),
                rule: "CEL-R21.10",
            };
            let landed = state.up(rider) && soft.roll_skill(RIDE, state, table, rider)?;
            if landed {
                let at = state.f(rider).pos;
                let to = landing(state, rider, mount);
                unseat(state, rider, to);
                table.emit(|| Event::Moved {
                    who: rider,
                    from: at,
                    to,
                    feet: at.feet_to(to),
                    mode: "dismounts",
                    hidden: super::concealment::hidden(state, rider),
                    rule: "CEL-R21.10",
                });
            } else {
                fall(state, table, rider, "CEL-R21.10")?;
            }
            continue;
        }
        if state.up(rider) {
            // R21.11: "If you are knocked unconscious, you have a 50% chance to stay in the
            // saddle": each time, so a rider up again rolls again when next knocked out.
            if state.f(rider).saddle_checked {
                state.fm(rider).saddle_checked = false;
            }
            // R21.2: a rider up again in the saddle directs its mount again.
            if state.f(mount).riderless {
                state.fm(mount).riderless = false;
                table.emit(|| Event::Condition {
                    who: mount,
                    condition: UNGUIDED,
                    gained: false,
                    rule: "CEL-R21.2",
                });
            }
            continue;
        }
        if state.f(rider).saddle_checked || state.f(rider).absent() {
            continue;
        }
        state.fm(rider).saddle_checked = true;
        let chance: i32 = if state.p(rider).military_saddle {
            75
        } else {
            50
        };
        let roll = table.roll(RollRequest::new(
            1,
            100,
            Some(rider),
            RollPurpose::Other,
            "CEL-R21.11",
        ))?;
        let stays = roll as i32 <= chance;
        table.emit(|| Event::Check {
            who: fray_core::event::Subject::Combatant(rider),
            purpose: "stay in the saddle",
            dice: "d100".into(),
            roll,
            modifiers: Vec::new(),
            total: roll as i32,
            against: "chance",
            target: chance,
            under: true,
            success: Some(stays),
            result: if stays {
                "stays in the saddle"
            } else {
                "falls"
            }
            .into(),
            rule: "CEL-R21.11",
        });
        if stays {
            // R21.2, R21.11: the mount "will not use any of them unless directed by its rider",
            // and "without you to guide it, your mount avoids combat": a rider knocked out in
            // the saddle guides it no more than one on the ground (a reading, audit 9).
            state.fm(mount).riderless = true;
            table.emit(|| Event::Condition {
                who: mount,
                condition: UNGUIDED,
                gained: true,
                rule: "CEL-R21.11",
            });
        } else {
            fall(state, table, rider, "CEL-R21.11")?;
            state.fm(mount).riderless = true;
            table.emit(|| Event::Condition {
                who: mount,
                condition: "without its rider: avoids combat",
                gained: true,
                rule: "CEL-R21.11",
            });
        }
    }
    Ok(())
}

/// A weapon held in both hands (not a natural attack): a rider needs its knees on the mount to
/// use it. [CEL-R21.4]
pub fn both_hands(w: &Weapon) -> bool {
    w.hands == crate::content::Hands::Two
        && !matches!(
            w.kind,
            crate::content::WeaponKind::Natural | crate::content::WeaponKind::Unarmed
        )
}

/// CEL-R21.4: "With a DC 5 Ride check, you can guide your mount with your knees so as to use both
/// hands to attack or defend yourself. This is a free action." Made once a turn; passed, the
/// rider may use two-handed weapons until its turn ends.
pub fn knees(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    rider: CombatantId,
) -> Result<(), Interrupt> {
    let passed = super::D20Check {
        purpose: "guide the mount with the knees",
        modifier: "Ride",
        bonus: state.p(rider).ride,
        dc: 5,
        kind: super::CheckKind::Crippling(super::Crippled::Ride),
        results: ("both hands free", "a hand stays on the reins"),
        rule: "CEL-R21.4",
    }
    .roll_skill(RIDE, state, table, rider)?;
    state.fm(rider).knees = Some(passed);
    Ok(())
}

/// CEL-R21.7, CEL-A26: a lance deals double damage on a mounted charge — the rider's attack on
/// the foe its mount charged this turn.
pub fn lance_charge(state: &State, attacker: CombatantId, target: CombatantId, w: &Weapon) -> bool {
    let f = state.f(attacker);
    w.name == "lance" && f.riding.is_some() && f.charged && f.charge_target == Some(target)
}

/// CEL-R9 Mount or Dismount a Steed (simple, Provoke): `rider` climbs onto `mount`, or, with no
/// mount given, gets down to square `to`. The action happens if the rider can still act. With
/// `fast`, it is a free action with a DC 20 Ride check, and only a failed check provokes.
pub fn mount_or_dismount(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    rider: CombatantId,
    mount: Option<CombatantId>,
    to: Pos,
    fast: bool,
) -> Result<(), Interrupt> {
    let quick = fast
        && super::D20Check {
            purpose: if mount.is_some() {
                "mount as a free action"
            } else {
                "dismount as a free action"
            },
            modifier: "Ride",
            bonus: state.p(rider).ride,
            dc: 20,
            kind: super::CheckKind::Crippling(super::Crippled::Ride),
            results: ("does not provoke", "provokes"),
            rule: "CEL-R9",
        }
        .roll_skill(RIDE, state, table, rider)?;
    if !quick && !super::round::provoke(state, table, rider, None)? {
        return Ok(());
    }
    let from = state.f(rider).pos;
    match mount {
        Some(m) => {
            let at = state.f(m).pos;
            state.set_square(rider, at);
            state.fm(rider).riding = Some(m);
            state.linked = crate::state::CacheFlag(true);
            let f = state.fm(m);
            f.rider = Some(rider);
            f.riderless = false;
            table.emit(|| Event::Moved {
                who: rider,
                from,
                to: at,
                feet: from.feet_to(at),
                mode: "mounts",
                hidden: super::concealment::hidden(state, rider),
                rule: "CEL-R9",
            });
        }
        None => {
            unseat(state, rider, to);
            table.emit(|| Event::Moved {
                who: rider,
                from,
                to,
                feet: from.feet_to(to),
                mode: "dismounts",
                hidden: super::concealment::hidden(state, rider),
                rule: "CEL-R9",
            });
        }
    }
    Ok(())
}

/// What being mounted forbids: a rider moves only on its mount (it directs the mount's moves,
/// R21.2) or dismounts first; a mount that lost its rider, or whose rider is knocked out in the
/// saddle, avoids combat (R21.11: it may move, defend or end its turn, not attack). Mounting needs a riderless mount of its side, up and
/// larger than it, next to it; dismounting, a free square next to it. [CEL-R9]
#[inline]
pub fn limits(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    // In every legality check: this test inline in the caller, the rest out of line (issue
    // 16). Exact: below, every refusal but mounting's, dismounting's and the knees' needs it to
    // ride or be a riderless mount.
    let f = state.f(who);
    if f.riding.is_none()
        && !f.riderless
        && !matches!(
            choice,
            Choice::Mount(_)
                | Choice::FastMount(_)
                | Choice::Dismount(_)
                | Choice::FastDismount(_)
                | Choice::Knees
        )
    {
        return Ok(());
    }
    mounted_limits(explain, state, who, choice)
}

/// [`limits`], for a rider, a riderless mount, or a choice to mount, dismount or guide.
#[inline(never)]
fn mounted_limits(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let f = state.f(who);
    match *choice {
        Choice::Mount(m) | Choice::FastMount(m) => {
            let ok = f.riding.is_none()
                && f.rider.is_none()
                && m != who
                && !state.enemies(who, m)
                && state.up(m)
                && state.f(m).rider.is_none()
                && state.f(m).riding.is_none()
                && (state.p(m).size as i32) > state.p(who).size as i32
                && state.gap(who, m) == 1;
            return Illegal::unless(ok, explain, "CEL-R9", || {
                "mount a riderless, larger creature of its side, up and next to it".to_string()
            });
        }
        Choice::Dismount(to) | Choice::FastDismount(to) => {
            return Illegal::unless(
                f.riding.is_some_and(|m| beside_mount(state, m, to)) && state.square_free(to, who),
                explain,
                "CEL-R9",
                || "dismount onto a free square next to its mount, from the saddle".to_string(),
            );
        }
        Choice::Knees => {
            return Illegal::unless(
                f.riding.is_some() && f.knees.is_none(),
                explain,
                "CEL-R21.4",
                || "guide a mount with the knees from its saddle, once a turn".to_string(),
            );
        }
        Choice::Attack(_, form) if f.riding.is_some() && f.knees != Some(true) => {
            let two = state
                .melee_forms(who)
                .find(|(i, _)| *i == usize::from(form))
                .is_some_and(|(_, w)| both_hands(w));
            if two {
                return no(explain, "CEL-R21.4", || {
                    "a two-handed weapon from the saddle needs both hands: guide the mount with \
                     the knees first (`knees`, a DC 5 Ride check, free)"
                        .to_string()
                });
            }
        }
        Choice::Multiweapon(_, a, b)
            if f.riding.is_some()
                && f.knees != Some(true)
                && super::multiweapon::both_ends(state, who, a, b) =>
        {
            return no(explain, "CEL-R21.4", || {
                "a double weapon needs both hands, and one is on the reins: guide the mount with \
                 the knees first (`knees`, a DC 5 Ride check, free); in one hand it is used \
                 neither as a double weapon nor at all (it is two-handed, CEL-R9, R18)"
                    .to_string()
            });
        }
        Choice::Multiweapon(_, a, b)
            if f.riding.is_some()
                && f.knees != Some(true)
                && super::multiweapon::both_held(state, who, a, b) =>
        {
            return no(explain, "CEL-R21.4", || {
                "a weapon in each hand from the saddle: guide the mount with the knees first \
                 (`knees`, a DC 5 Ride check, free)"
                    .to_string()
            });
        }
        Choice::Shoot(_) if f.riding.is_some_and(|m| moved_on(state, m)) && f.saddle.end_shot => {
            return no(explain, "CEL-R21.8", || {
                "its mount moved on past an increment of its speed: one attack roll at each \
                 increment it completed, and this last one's is made"
                    .to_string()
            });
        }
        Choice::Shoot(_)
            if f.riding.is_some()
                && f.knees != Some(true)
                && state.ranged_weapon(who).is_some_and(both_hands) =>
        {
            return no(explain, "CEL-R21.4", || {
                "a two-handed weapon from the saddle needs both hands: guide the mount with the \
                 knees first (`knees`, a DC 5 Ride check, free)"
                    .to_string()
            });
        }
        _ => {}
    }
    let moves = matches!(
        choice,
        Choice::Approach(_)
            | Choice::MoveTo(_)
            | Choice::Step(_)
            | Choice::Charge(_)
            | Choice::Run(_)
            | Choice::Overrun(_)
            | Choice::Drag(..)
            | Choice::Follow
            | Choice::OverrunTo(_)
    );
    if f.riding.is_some() && moves {
        return no(explain, "CEL-R21.2", || {
            "mounted: it moves on its mount (the mount's move), or dismounts first".to_string()
        });
    }
    let fights = !matches!(
        choice,
        Choice::End
            | Choice::Delay
            | Choice::MoveTo(_)
            | Choice::Step(_)
            | Choice::Run(_)
            | Choice::TotalDefense
            | Choice::StandUp
    );
    Illegal::unless(!(f.riderless && fights), explain, "CEL-R21.11", || {
        "without its rider to guide it (fallen, or knocked out in the saddle) the mount avoids \
         combat (it may move away or defend)"
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    /// Kay on a light horse at 0 0 (her bow and longsword; the horse fills 0 0 to 1 1), an orc
    /// at 2 0, next to the horse's space.
    fn mounted() -> State {
        Fixture::new()
            .with(
                "kay",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nranged = \"shortbow\"\nmount = \"horse\""),
            )
            .monster("horse", "heroes", [0, 0], "light horse")
            .monster("orc", "orcs", [2, 0], "orc")
            .state()
    }

    /// CEL-R21.8: −4 shooting while the mount has moved more than its speed, −8 while it runs;
    /// nothing on melee attacks.
    #[test]
    fn shooting_from_a_moving_mount() {
        let mut s = mounted();
        let (kay, horse) = (CombatantId(0), CombatantId(1));
        assert_eq!(s.f(kay).riding, Some(horse));
        let bow = s.p(kay).ranged.clone().expect("bow");
        let sword = s.p(kay).melee[0].clone();
        assert_eq!(moving_mount_penalty(&s, kay, &bow), 0);
        s.fm(horse).moved_ft = 55;
        assert_eq!(moving_mount_penalty(&s, kay, &bow), -4);
        assert_eq!(moving_mount_penalty(&s, kay, &sword), 0);
        s.fm(horse).running = true;
        assert_eq!(moving_mount_penalty(&s, kay, &bow), -8);
        // A second Move act is a double move, however short the two moves were.
        s.fm(horse).running = false;
        s.fm(horse).moved_ft = 20;
        assert_eq!(moving_mount_penalty(&s, kay, &bow), 0);
        s.fm(horse).saddle.double_move = true;
        assert_eq!(moving_mount_penalty(&s, kay, &bow), -4);
    }

    /// CEL-R21.8: a rider's shots along its mount's move come out of its own turn's two acts
    /// (R21.6), and once its mount moved on, its own turn has one shot (the last increment's).
    #[test]
    fn shots_along_the_move_spend_the_riders_acts() {
        let mut s = mounted();
        let (kay, horse) = (CombatantId(0), CombatantId(1));
        s.fm(horse).moved_ft = 100;
        assert_eq!(super::super::round::budget(&s, kay).0, 2);
        assert_eq!(saddle_rider(&s, horse), Some(kay));
        s.fm(kay).saddle.shots = 1;
        assert_eq!(super::super::round::budget(&s, kay).0, 1);
        s.fm(kay).saddle.shots = 2;
        assert_eq!(super::super::round::budget(&s, kay).0, 0);
        assert_eq!(saddle_rider(&s, horse), None, "two shots: no more");
        s.fm(kay).saddle.shots = 0;
        s.fm(kay).knees = Some(true);
        s.fm(kay).acts_left = 2;
        let orc = CombatantId(2);
        assert!(limits(false, &s, kay, &Choice::Shoot(orc)).is_ok());
        note_shot(&mut s, kay);
        assert!(limits(false, &s, kay, &Choice::Shoot(orc)).is_err());
        s.fm(horse).moved_ft = 10;
        assert!(
            limits(false, &s, kay, &Choice::Shoot(orc)).is_ok(),
            "a single increment: shots as its acts allow"
        );
    }

    /// CEL-R21.2, R21.11: a rider knocked out who stays in the saddle (d100 50) guides its
    /// mount no more: the horse's attack is refused, its move is not; up again (healed to 1 hp),
    /// she guides it again and it may attack.
    #[test]
    fn a_rider_knocked_out_in_the_saddle_guides_nothing() {
        use fray_core::driver::ScriptedDriver;
        use fray_core::event::VecSink;
        use fray_core::runner::Limits;
        let mut s = mounted();
        let (kay, horse, orc) = (CombatantId(0), CombatantId(1), CombatantId(2));
        let hoof = Choice::Attack(orc, 0);
        assert!(limits(false, &s, horse, &hoof).is_ok());
        s.fm(kay).hp = -15;
        assert!(!s.up(kay));
        let mut driver = ScriptedDriver::new(vec![50, 51, 3], Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        tidy(&mut s, &mut table).expect("scripted dice");
        assert_eq!(s.f(kay).riding, Some(horse), "d100 50: stays in the saddle");
        assert!(limits(false, &s, horse, &hoof).is_err());
        assert!(limits(false, &s, horse, &Choice::End).is_ok());
        s.fm(kay).hp = 1;
        tidy(&mut s, &mut table).expect("no die");
        assert!(limits(false, &s, horse, &hoof).is_ok());
        // Knocked out a second time, Kay rolls again (R21.11: each time): d100 51 falls.
        s.fm(kay).hp = -15;
        tidy(&mut s, &mut table).expect("scripted dice");
        assert_eq!(
            s.f(kay).riding,
            None,
            "d100 51: falls the second time (1d6 3)"
        );
    }

    /// CEL-R21.3, R21.2: the rider shares the mount's square and moves with it; pushed off its
    /// square, it is no longer mounted.
    #[test]
    fn the_mount_carries_its_rider() {
        let mut s = mounted();
        let (kay, horse) = (CombatantId(0), CombatantId(1));
        // CEL-R21.3: the Large horse fills 2 × 2 squares and Kay shares all four.
        let space = |s: &State, who| {
            let mut v: Vec<Pos> = s.occupancy.squares_of(who).collect();
            v.sort();
            v
        };
        let four = vec![
            Pos::new(0, 0),
            Pos::new(0, 1),
            Pos::new(1, 0),
            Pos::new(1, 1),
        ];
        assert_eq!((space(&s, horse), space(&s, kay)), (four.clone(), four));
        let orc = CombatantId(2);
        assert_eq!(
            s.gap(kay, orc),
            1,
            "the orc is next to the horse's east squares"
        );
        assert!(s.threatens(kay, orc) && s.threatens(orc, kay));
        assert!(
            !s.square_free(Pos::new(1, 1), orc),
            "inside the horse's space"
        );
        assert!(s.square_free(Pos::new(2, 1), orc));
        s.set_square(horse, Pos::new(0, 3));
        assert_eq!(s.f(kay).pos, Pos::new(0, 3));
        assert_eq!(space(&s, kay), space(&s, horse));
        assert_eq!(space(&s, horse)[3], Pos::new(1, 4));
        assert!(!s.threatens(kay, orc));
        assert_eq!(s.f(horse).moved_ft, 15);
        s.set_square(kay, Pos::new(0, 6));
        assert_eq!((s.f(kay).riding, s.f(horse).rider), (None, None));
        assert_eq!(space(&s, kay), vec![Pos::new(0, 6)], "on foot: one square");
    }

    /// CEL-R21.5: +1 in melee against a smaller creature on foot.
    #[test]
    fn higher_ground_against_the_smaller_on_foot() {
        let s = mounted();
        let (kay, orc) = (CombatantId(0), CombatantId(2));
        let sword = s.p(kay).melee[0].clone();
        assert_eq!(higher_ground(&s, kay, orc, &sword), 1);
        assert_eq!(higher_ground(&s, orc, kay, &s.p(orc).melee[0].clone()), 0);
    }
}
