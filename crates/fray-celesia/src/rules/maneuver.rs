//! Combat maneuvers beyond trip, bull rush, disarm and dirty trick (those are in
//! [`super::attack::maneuver`]): the shared check (CEL-R10.1: d20 + CMB against CMD, with
//! advantage and disadvantage, CEL-R4.5 rows 10 and 11), overrun (CEL-R10.4), sunder (R10.5),
//! drag (R10.8), reposition (R10.12) and steal (R10.13), and picking a dropped weapon up again
//! (CEL-R9 Manipulate an Item).

use super::attack::{cmb, cmd, roll_d20};
use super::belonging::Belonging;
use super::{legal, Mods, Sources};
use crate::choice::Choice;
use crate::state::{reaches, Asking, Item, State};
use crate::Celesia;
use fray_core::event::{AttackResult, Event};
use fray_core::protocol::{Interrupt, RollPurpose, RollRequest};
use fray_core::{Board, CombatantId, Direction, Pos, Table};

/// One combat maneuver check: what it is, its modifiers and its advantage sources.
#[derive(Debug, Clone, Copy)]
pub struct Attempt {
    /// The maneuver's name in the log (`overrun`).
    pub name: &'static str,
    /// Its rule.
    pub rule: &'static str,
    /// CMB and any other modifier of the check.
    pub bonus: Mods,
    /// The defender's CMD modifiers over 10.
    pub defense: Mods,
    /// Advantage sources (a charge's, CEL-R11).
    pub advantage: Sources,
    /// Disadvantage sources besides being grappled (an invisible target of a grapple,
    /// CEL-R4.5 row 11).
    pub disadvantage: Sources,
    /// A check to grapple or escape a grapple: being grappled gives it no disadvantage
    /// (CEL-R4.5 row 10).
    pub grapple: bool,
}

/// What a maneuver check came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// d20 + modifiers.
    pub total: i32,
    /// The CMD.
    pub versus: i32,
}

impl Checked {
    /// Succeeded: the total is at least the CMD. [CEL-R10.1]
    pub fn success(self) -> bool {
        self.total >= self.versus
    }
    /// By how much it beat the CMD (negative when it failed).
    pub fn excess(self) -> i32 {
        self.total - self.versus
    }
}

impl Attempt {
    /// A maneuver with the attacker's CMB against the target's CMD (+2 per leg beyond two when
    /// `legs`). [CEL-R10.1, A7]
    pub fn new(
        state: &State,
        attacker: CombatantId,
        target: CombatantId,
        name: &'static str,
        rule: &'static str,
        legs: bool,
    ) -> Attempt {
        let mut advantage = Sources::default();
        if matches!(name, "bull rush" | "overrun")
            && state.f(attacker).charge_target == Some(target)
        {
            advantage.add("charging");
        }
        Attempt {
            name,
            rule,
            bonus: cmb(state, attacker),
            defense: cmd(state, target, legs),
            advantage,
            disadvantage: Sources::default(),
            grapple: false,
        }
    }

    /// Rolls the check and logs it as an attack against the CMD. A grappled attacker has
    /// disadvantage except to grapple or escape (CEL-R4.5 row 10).
    pub fn roll(
        &self,
        state: &State,
        table: &mut Table<'_, Celesia>,
        attacker: CombatantId,
        target: CombatantId,
    ) -> Result<Checked, Interrupt> {
        let mut disadvantage = self.disadvantage;
        if state.grappled(attacker) && !self.grapple {
            disadvantage.add("grappled");
        }
        let (mut adv, rule) = (self.advantage, self.rule);
        // CEL-R4.5 row 11: a stunned target.
        super::table_condition::maneuver_advantage(state.f(target), &mut adv);
        let net = adv.count() - disadvantage.count();
        let (die, pool) = roll_d20(table, attacker, net, RollPurpose::Attack, rule)?;
        let total = die as i32 + self.bonus.total();
        let versus = 10 + self.defense.total();
        let checked = Checked { total, versus };
        table.emit(|| {
            let mut attack = self.name.to_string();
            if adv.count() > 0 {
                attack.push_str(&format!("; advantage: {}", adv.text()));
            }
            if disadvantage.count() > 0 {
                attack.push_str(&format!("; disadvantage: {}", disadvantage.text()));
            }
            if let Some(pool) = &pool {
                attack.push_str(&format!("; {pool}"));
            }
            Event::Attack {
                attacker,
                target,
                attack,
                roll: die,
                modifiers: self.bonus.to_vec(),
                total,
                defense: "CMD",
                versus,
                defense_modifiers: self.defense.to_vec(),
                result: if checked.success() {
                    AttackResult::Hit
                } else {
                    AttackResult::Miss
                },
                rule,
            }
        });
        Ok(checked)
    }
}

/// The nearest squares of `a`'s and `b`'s spaces (CEL-R21.3): a Large foe is measured from
/// its square nearest the attacker, not from its north-west one.
pub fn facing(state: &State, a: CombatantId, b: CombatantId) -> (Pos, Pos) {
    let (fa, fb) = (state.f(a), state.f(b));
    crate::space::nearest(fa.pos, state.side(a), fb.pos, state.side(b))
}

/// The direction a bull rush pushes `target`: straight back from `attacker`, between the
/// nearest squares of their spaces. [CEL-R10.2, R21.3]
pub fn push_direction(
    state: &State,
    attacker: CombatantId,
    target: CombatantId,
) -> Option<Direction> {
    let (a, b) = facing(state, attacker, target);
    a.direction_to(b)
}

/// An overrun's line through one foe: where it ends (the mover's space just past the foe's),
/// where a failed one stops (just before it), and whether the squares before the foe are free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverrunLine {
    /// The mover's square just beyond the foe's space.
    pub beyond: Pos,
    /// The mover's square just before it ("directly in front of the opponent").
    pub before: Pos,
    /// Every square of the line before the foe's space is free for the mover.
    pub clear: bool,
}

/// The straight line of `mover`'s square through `target`'s space, parallel to the line between
/// the nearest squares of their spaces (for two one-square pieces: the line through the foe's
/// square). [CEL-R10.4, R21.3]
pub fn overrun_line(state: &State, mover: CombatantId, target: CombatantId) -> OverrunLine {
    let (from, at) = (state.f(mover).pos, state.f(target).pos);
    let (sm, st) = (state.side(mover), state.side(target));
    let (a, b) = facing(state, mover, target);
    let through = Pos::new(from.x + b.x - a.x, from.y + b.y - a.y);
    let overlaps = |p: Pos| crate::space::gap(p, sm, at, st) == 0;
    let limit = from.squares_to(through) + sm + st + 1;
    let first = (1..=limit)
        .find(|&i| overlaps(from.point_on_line(through, i)))
        .unwrap_or(limit);
    let past = (first..=limit + 1)
        .find(|&i| !overlaps(from.point_on_line(through, i)))
        .unwrap_or(limit + 1);
    OverrunLine {
        beyond: from.point_on_line(through, past),
        before: from.point_on_line(through, first - 1),
        clear: (1..first).all(|i| state.square_free(from.point_on_line(through, i), mover)),
    }
}

/// The square just beyond `target` on the straight line from `mover` through it, where an
/// overrun ends, and the square just before it, where a failed one stops. [CEL-R10.4]
pub fn overrun_squares(state: &State, mover: CombatantId, target: CombatantId) -> (Pos, Pos) {
    let line = overrun_line(state, mover, target);
    (line.beyond, line.before)
}

/// CEL-R10.4 Overrun: `mover` moves straight through `target`'s square to the square beyond
/// it. The foe may let it pass (its choice); otherwise the check (+2 CMD per leg beyond two):
/// success, it passes; 5 or more over, the foe is knocked prone too; failure, it stops in the
/// square in front of the foe.
pub fn overrun(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mover: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let (beyond, before) = overrun_squares(state, mover, target);
    match pass_through(state, table, mover, target)? {
        Passed::No => super::round::move_to(state, table, mover, before, "move", "CEL-R10.4"),
        passed => {
            super::round::move_to(state, table, mover, beyond, "overrun", "CEL-R10.4");
            passed.knock_prone(state, table, target);
        }
    }
    Ok(())
}

/// How one foe met in an overrun was passed. [CEL-R10.4]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Passed {
    /// It stopped the mover.
    No,
    /// The mover passed through.
    Yes,
    /// The mover passed through, 5 or more over its CMD: the foe is knocked prone.
    Prone,
}

impl Passed {
    /// The foe falls prone after the mover has passed, if the check beat its CMD by 5.
    fn knock_prone(self, state: &mut State, table: &mut Table<'_, Celesia>, target: CombatantId) {
        if self == Passed::Prone && !state.f(target).prone {
            state.fm(target).prone = true;
            table.emit(|| Event::Condition {
                who: target,
                condition: "prone",
                gained: true,
                rule: "CEL-R10.4",
            });
        }
    }
}

/// One foe met in an overrun: it lets the mover pass (its choice), or stands in the way and
/// the check decides (5 or more over: it is knocked prone too). [CEL-R10.4]
fn pass_through(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mover: CombatantId,
    target: CombatantId,
) -> Result<Passed, Interrupt> {
    let answer = legal::ask(
        state,
        table,
        Asking::LetPass { foe: target, mover },
        "CEL-R10.4",
    )?;
    let lets = answer == Choice::LetPass;
    table.emit(|| Event::Acted {
        who: target,
        act: if lets {
            "lets pass"
        } else {
            "stands in the way of"
        },
        on: Some(mover),
        detail: String::new(),
        rule: "CEL-R10.4",
    });
    if lets {
        return Ok(Passed::Yes);
    }
    super::confusion::attacked(state, mover, target);
    let checked = Attempt::new(state, mover, target, "overrun", "CEL-R10.4", true)
        .roll(state, table, mover, target)?;
    Ok(if !checked.success() {
        Passed::No
    } else if checked.excess() >= 5 {
        Passed::Prone
    } else {
        Passed::Yes
    })
}

/// The others whose spaces `mover`'s space enters moving straight to `to`, in the order it
/// meets them, each with the step of the line where it enters it (1 = the first square).
/// [CEL-R10.4 "over the course of this action"]
pub fn in_the_way(state: &State, mover: CombatantId, to: Pos) -> Vec<(i32, CombatantId)> {
    let (from, sm) = (state.f(mover).pos, state.side(mover));
    let f = state.f(mover);
    let mut met: Vec<(i32, CombatantId)> = Vec::new();
    for i in 1..=from.squares_to(to) {
        let p = from.point_on_line(to, i);
        for o in state.ids() {
            let fo = state.f(o);
            let skip = o == mover || Some(o) == f.rider || Some(o) == f.riding || fo.absent();
            if skip || met.iter().any(|&(_, m)| m == o) {
                continue;
            }
            if crate::space::gap(p, sm, fo.pos, state.side(o)) == 0 {
                met.push((i, o));
            }
        }
    }
    met
}

/// CEL-R10.4 Overrun along a whole move: `mover` moves straight to `to` (within its speed),
/// trying to pass through each foe's space on the way in the order it meets them; a foe that
/// stops it stops the move in the last square before that foe's space where it may stand.
pub fn overrun_to(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mover: CombatantId,
    to: Pos,
) -> Result<(), Interrupt> {
    let from = state.f(mover).pos;
    let mut fallen = Vec::new();
    for (step, foe) in in_the_way(state, mover, to) {
        if state.f(foe).absent() || !state.up(foe) || !state.up(mover) {
            continue;
        }
        match pass_through(state, table, mover, foe)? {
            Passed::No => {
                let stop = (0..step)
                    .rev()
                    .map(|i| from.point_on_line(to, i))
                    .find(|&p| p == from || state.square_free(p, mover))
                    .unwrap_or(from);
                super::round::move_to(state, table, mover, stop, "move", "CEL-R10.4");
                for (passed, foe) in fallen {
                    Passed::knock_prone(passed, state, table, foe);
                }
                return Ok(());
            }
            passed => fallen.push((passed, foe)),
        }
    }
    super::round::move_to(state, table, mover, to, "overrun", "CEL-R10.4");
    for (passed, foe) in fallen {
        Passed::knock_prone(passed, state, table, foe);
    }
    Ok(())
}

/// The melee form a sunder strikes with: the first usable one that reaches the foe (an unarmed
/// strike included).
pub fn sundering_form(state: &State, who: CombatantId, target: CombatantId) -> Option<usize> {
    let gap = state.gap(who, target);
    state
        .melee_forms(who)
        .find(|(_, w)| reaches(w, gap))
        .map(|(i, _)| i)
}

/// CEL-R10.5 Sunder: on a success the sunderer's weapon damage (dice and ability bonus) less
/// the item's hardness comes off its hit points; at half or less it is broken (disadvantage on
/// attacks with it, CEL-R4.5 row 2); at 0 or less it is destroyed, or, if the sunderer spares
/// it, left at 1 hit point.
pub fn sunder(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
    item: Item,
    destroy: bool,
) -> Result<(), Interrupt> {
    super::confusion::attacked(state, who, target);
    let checked = Attempt::new(state, who, target, "sunder", "CEL-R10.5", false)
        .roll(state, table, who, target)?;
    let (Some(form), Some(w)) = (
        sundering_form(state, who, target),
        state.held(target, item).cloned(),
    ) else {
        return Ok(());
    };
    if !checked.success() {
        return Ok(());
    }
    let profiles = state.profiles.clone();
    let weapon = &profiles[who.index()].melee[form];
    let rolled = table.roll(RollRequest::new(
        weapon.damage.count,
        weapon.damage.sides,
        Some(who),
        RollPurpose::Damage,
        "CEL-R10.5",
    ))? as i32;
    let mut m = Mods::default();
    super::attack::ability_damage(state, who, weapon, &mut m);
    m.push("weapon", "", weapon.damage.bonus);
    let damage = (rolled + m.total()).max(0);
    let (hp, hardness) = State::item_toughness(&w);
    let lost_before = state.item_damage(target, item);
    let through = (damage - hardness).max(0);
    let mut lost = lost_before + through;
    let destroyed = lost >= hp && destroy;
    if lost >= hp && !destroy {
        lost = hp - 1;
    }
    {
        let f = state.fm(target);
        f.item_damage.retain(|(i, _)| *i != item);
        f.item_damage.push((item, lost));
    }
    table.emit(|| Event::Acted {
        who,
        act: "sunders",
        on: Some(target),
        detail: format!(
            "{}: {damage} damage, hardness {hardness}: {through} off its {hp} hit points, {} left{}",
            w.name,
            (hp - lost).max(0),
            if destroyed {
                ": destroyed"
            } else if 2 * (hp - lost) <= hp && through > 0 {
                ": broken"
            } else {
                ""
            }
        ),
        rule: "CEL-R10.5",
    });
    if destroyed {
        state.lose_item(target, item);
    }
    Ok(())
}

/// Is `at` free for `a` and `b` moving together (neither counts as in the way)?
fn free_for_pair(state: &State, at: Pos, a: CombatantId, b: CombatantId) -> bool {
    !state
        .occupancy
        .any_at(at, |o| o != a && o != b && state.piece(o).blocks)
}

/// CEL-R10.8 Drag: success moves the dragger 5 ft in `dir`, and 5 ft more per full 5 over the
/// CMD (not beyond its speed), the foe moving with it, staying next to it. Neither movement
/// provokes (no Improved Drag in fray). The move stops where either would enter a taken square.
pub fn drag(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
    dir: Direction,
) -> Result<(), Interrupt> {
    super::confusion::attacked(state, who, target);
    let checked = Attempt::new(state, who, target, "drag", "CEL-R10.8", false)
        .roll(state, table, who, target)?;
    if !checked.success() {
        return Ok(());
    }
    let squares = (1 + checked.excess() / 5).min(state.speed_squares(who));
    let (start, target_start) = (state.f(who).pos, state.f(target).pos);
    let (mut at, mut target_at) = (start, target_start);
    for _ in 0..squares {
        let (next, target_next) = (at.step(dir), target_at.step(dir));
        if !free_for_pair(state, next, who, target)
            || !free_for_pair(state, target_next, who, target)
        {
            break;
        }
        at = next;
        target_at = target_next;
    }
    if at == start {
        return Ok(());
    }
    // CEL-R10.8: with Improved Drag the dragged foe's movement provokes (before it moves; it
    // is dragged even if one drops it).
    if state.p(who).feats.improved_drag {
        super::round::provoke(state, table, target, None)?;
    }
    // Moved together: set both before logging (neither blocks the other in between).
    state.set_square(who, at);
    state.set_square(target, target_at);
    for (mover, from, to, mode) in [
        (who, start, at, "drag"),
        (target, target_start, target_at, "dragged"),
    ] {
        table.emit(|| Event::Moved {
            who: mover,
            from,
            to,
            feet: from.feet_to(to),
            mode,
            hidden: super::concealment::hidden(state, mover),
            rule: "CEL-R10.8",
        });
    }
    Ok(())
}

/// Would `who` threaten `target` standing on `at` (a melee form that reaches it from where
/// `who` stands)?
fn threatens_square(state: &State, who: CombatantId, target: CombatantId, at: Pos) -> bool {
    let gap = state.gap_from(target, at, who);
    state.melee_forms(who).any(|(_, w)| reaches(w, gap))
}

/// The squares a reposition of `target` toward `to` crosses, in order, as far as the rule lets
/// it go: free squares, all but the last within the mover's threatened area, the last at
/// least next to it. [CEL-R10.12]
pub fn reposition_path(state: &State, who: CombatantId, target: CombatantId, to: Pos) -> Vec<Pos> {
    let from = state.f(target).pos;
    let steps = from.squares_to(to).min(12);
    let mut path = Vec::new();
    for i in 1..=steps {
        let p = from.point_on_line(to, i);
        if !state.square_free(p, target) {
            break;
        }
        let threatened = threatens_square(state, who, target, p);
        let next_to = Direction::ALL
            .into_iter()
            .any(|d| threatens_square(state, who, target, p.step(d)));
        if !threatened && !next_to {
            break;
        }
        path.push(p);
        if !threatened {
            break; // only the last 5 ft may leave the threatened area
        }
    }
    path
}

/// CEL-R10.12 Reposition: success moves the foe 5 ft toward `to`, and 5 ft more per full 5
/// over the CMD, along [`reposition_path`].
pub fn reposition(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
    to: Pos,
) -> Result<(), Interrupt> {
    super::confusion::attacked(state, who, target);
    let checked = Attempt::new(state, who, target, "reposition", "CEL-R10.12", false)
        .roll(state, table, who, target)?;
    if !checked.success() {
        return Ok(());
    }
    let squares = (1 + checked.excess() / 5) as usize;
    let path = reposition_path(state, who, target, to);
    if let Some(&end) = path.get(squares.min(path.len()).saturating_sub(1)) {
        let from = state.f(target).pos;
        state.set_square(target, end);
        table.emit(|| Event::Moved {
            who: target,
            from,
            to: end,
            feet: from.feet_to(end),
            mode: "repositioned",
            hidden: super::concealment::hidden(state, target),
            rule: "CEL-R10.12",
        });
    }
    Ok(())
}

/// CEL-R10.13 Steal: success takes the chosen item from the foe: a weapon the thief fights
/// with ([`take_up`]), an item it carries at hand or a carried shield
/// ([`super::belonging::take`]); an item fastened to the foe gives it +5 CMD (a securely worn
/// one cannot be named: `belonging::check`).
pub fn steal(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
    chosen: Belonging,
) -> Result<(), Interrupt> {
    super::confusion::attacked(state, who, target);
    let mut attempt = Attempt::new(state, who, target, "steal", "CEL-R10.13", false);
    super::belonging::fastened_defense(state, target, chosen, &mut attempt.defense);
    if let Belonging::Weapon(item) = chosen {
        super::gauntlet::fastened_defense(state, target, item, &mut attempt.defense);
    }
    let checked = attempt.roll(state, table, who, target)?;
    if !checked.success() {
        return Ok(());
    }
    let Belonging::Weapon(item) = chosen else {
        super::belonging::take(state, table, who, target, chosen);
        return Ok(());
    };
    let Some(name) = state.held(target, item).map(|w| w.name.clone()) else {
        return Ok(());
    };
    let weapon = state.held(target, item).cloned();
    let wear = state.item_damage(target, item);
    state.lose_item(target, item);
    table.emit(|| Event::Acted {
        who,
        act: "steals from",
        on: Some(target),
        detail: name,
        rule: "CEL-R10.13",
    });
    if let Some(w) = weapon {
        take_up(state, table, who, w, wear);
    }
    Ok(())
}

/// The most attack forms a combatant may have (the dropped-weapon record holds 64).
const MAX_FORMS: usize = 64;

/// CEL-R10.13 "you take the item": the thief fights with the stolen weapon from its next act
/// on. A melee weapon becomes its next melee form (the form number the log gives), or gives it
/// back a form it lost to a steal when it is the same weapon; a ranged weapon becomes its
/// ranged weapon if it has none left (else it only holds it). The weapon keeps the damage a
/// sunder did to it.
fn take_up(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    w: crate::content::Weapon,
    wear: i32,
) {
    let p = state.p(who);
    let item = if w.kind.is_ranged() {
        let none_left = p.ranged.is_none()
            || (state.f(who).dropped_ranged && lying_at(state, who, Item::Ranged).is_none());
        none_left.then_some(Item::Ranged)
    } else {
        let lost = p.melee.iter().enumerate().find(|&(i, m)| {
            let item = Item::Melee(i as u8);
            *m == w && state.dropped(who, item) && lying_at(state, who, item).is_none()
        });
        match lost {
            Some((i, _)) => Some(Item::Melee(i as u8)),
            None => (p.melee.len() < MAX_FORMS).then_some(Item::Melee(p.melee.len() as u8)),
        }
    };
    let Some(item) = item else {
        table.emit(|| Event::Acted {
            who,
            act: "holds",
            on: None,
            detail: format!("{}, without a use for it", w.name),
            rule: "CEL-R10.13",
        });
        return;
    };
    let name = w.name.clone();
    let mut profiles = state.profiles.to_vec();
    let profile = &mut profiles[who.index()];
    match item {
        Item::Ranged => profile.ranged = Some(w),
        Item::Melee(i) if usize::from(i) == profile.melee.len() => profile.melee.push(w),
        Item::Melee(_) => {}
    }
    state.reach_squares = state.reach_squares.max(profile.reach_squares());
    state.profiles = profiles.into();
    state.pick_up(who, item);
    let f = state.fm(who);
    f.item_damage.retain(|(i, _)| *i != item);
    if wear > 0 {
        f.item_damage.push((item, wear));
    }
    table.emit(|| Event::Acted {
        who,
        act: "takes up",
        on: None,
        detail: format!("{name} (form {})", item.key()),
        rule: "CEL-R10.13",
    });
}

/// CEL-R10.2 Bull Rush, success: the foe is pushed straight back from the attacker ([`push_direction`]), 5 ft and
/// 5 ft more per full 5 over its CMD, stopping before a taken square. With Improved Bull Rush
/// its movement provokes (the attacks come before it moves; it is pushed even if one drops
/// it). The attacker may then move along with it ([`follow`]).
pub fn push(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    excess: i32,
) -> Result<(), Interrupt> {
    let at = state.f(target).pos;
    let Some(dir) = push_direction(state, attacker, target) else {
        return Ok(());
    };
    let squares = 1 + excess / 5;
    let to = state.push_destination(target, dir, squares as u32);
    if to == at {
        return Ok(());
    }
    if state.p(attacker).feats.improved_bull_rush {
        super::round::provoke(state, table, target, None)?;
    }
    state.set_square(target, to);
    table.emit(|| Event::Moved {
        who: target,
        from: at,
        to,
        feet: at.feet_to(to),
        mode: "pushed",
        hidden: super::concealment::hidden(state, target),
        rule: "CEL-R10.2",
    });
    let f = state.fm(attacker);
    f.follow = Some(crate::state::Follow {
        dir,
        squares: at.squares_to(to) as u8,
        clock: f.act_clock,
        turn: f.turns,
    });
    Ok(())
}

/// CEL-R10.2 "You can choose to move along with the target if you have the necessary acts":
/// right after a bull rush that pushed its foe (no act between), a Move (1 act, provokes
/// like any Move, CEL-R9) the same distance in the same direction, stopping before a taken
/// square.
pub fn follow(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    let Some(along) = state.fm(who).follow.take() else {
        return Ok(());
    };
    if !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    let mut to = state.f(who).pos;
    for _ in 0..i32::from(along.squares).min(state.speed_squares(who)) {
        let next = to.step(along.dir);
        if !state.square_free(next, who) {
            break;
        }
        to = next;
    }
    super::round::move_to(state, table, who, to, "moves along", "CEL-R10.2");
    Ok(())
}

/// Where `who`'s dropped `item` lies, if it is on the ground.
pub fn lying_at(state: &State, who: CombatantId, item: Item) -> Option<Pos> {
    state
        .f(who)
        .on_ground
        .iter()
        .find(|(i, _)| *i == item)
        .map(|(_, p)| *p)
}

/// CEL-R9 Manipulate an Item: pick up a weapon it dropped, standing on or next to its square.
/// The action provokes; it happens if the combatant can still act.
pub fn pick_up(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    item: Item,
) -> Result<(), Interrupt> {
    if !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    hold_picked_up(state, table, who, item);
    Ok(())
}

/// The item is in its hands (the Manipulate an Item's provocation done). [CEL-R9]
pub fn hold_picked_up(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    item: Item,
) {
    // CEL-R7.3: a thrown weapon of its that landed, back in its supply (`rules::thrown`).
    if item == Item::Ranged
        && lying_at(state, who, item).is_none()
        && super::thrown::pick_up(state, table, who)
    {
        return;
    }
    state.pick_up(who, item);
    let name = state.held(who, item).map(|w| w.name.clone());
    if let Some(name) = name {
        table.emit(|| Event::Acted {
            who,
            act: "picks up",
            on: None,
            detail: name,
            rule: "CEL-R9",
        });
    }
}
