//! Ready (CEL-R3.9, R9: a simple action) and Complete a Readied Action (CEL-R15: a reaction):
//! the readier names a simple action and one of the seed's definite triggers, pays 1 act, and
//! its turn ends at once; when the trigger happens before the start of its next turn it may
//! take the readied action as a reaction, spending one of the reactions it gained at the end
//! of its turn (CEL-A42). The triggers are the seed's three examples: a foe moves adjacent, a
//! foe attacks, a foe casts a spell. Readied actions chain: a readied attack can trigger another
//! combatant's "if a foe attacks me" (CEL-R3.5). A standard or full action can be readied too
//! ("You ready a single simple or complex action", CEL-A42: it must fit in the acts left after
//! Ready's): a charge, a grapple, a feint, a dirty trick, a drag, a reposition, a steal (of
//! any item a steal on a turn names), a spell at the foe, locking or unlocking a weapon in a
//! locked gauntlet; it is taken whole in the one reaction, on a budget of its own acts. An
//! action no longer legal when the trigger happens (the foe lacks the item named, the weapon
//! to lock was knocked away) lets the trigger pass: nothing is asked and it stays readied. A 1-round
//! action cannot be readied (adopted reading: it spans the readier's turns, CEL-R3.7, and a
//! reaction is one moment). First aid and a coup de grace are not readied: a readied action is
//! aimed at the foe that sets the trigger off, and neither a dying friend nor a helpless foe
//! can move, attack or cast (adopted reading).

use super::belonging::Belonging;
use super::{legal, round};
use crate::choice::Choice;
use crate::state::{Asking, Item, State, Trick};
use crate::Celesia;
use fray_core::conditions::ConditionKind;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Direction, Pos, Table};

/// A definite trigger from the seed's examples ("if a foe attacks me", "if a foe casts a
/// spell", "if a foe moves adjacent to me"). [CEL-R3.9]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Trigger {
    /// A foe, by its own action, ends a move next to the readier (it was not next to it).
    FoeAdjacent,
    /// A foe declares an attack on the readier (melee, natural, unarmed, ranged, cleave, coup
    /// de grace); the readied action resolves before the attack.
    FoeAttacks,
    /// A foe begins casting a spell (`cast`, a 1-round spell's start, Spell Combat's spell,
    /// Spellstrike, a spell from an item); the readied action resolves before the spell.
    FoeCasts,
}

impl Trigger {
    /// The triggers, in the order options list them.
    pub const ALL: [Trigger; 3] = [Trigger::FoeAdjacent, Trigger::FoeAttacks, Trigger::FoeCasts];

    /// The key in choices (`foe-adjacent`, `foe-attacks`, `foe-casts`).
    pub fn key(self) -> &'static str {
        match self {
            Trigger::FoeAdjacent => "foe-adjacent",
            Trigger::FoeAttacks => "foe-attacks",
            Trigger::FoeCasts => "foe-casts",
        }
    }

    /// The trigger named by `key`.
    pub fn from_key(key: &str) -> Option<Trigger> {
        Trigger::ALL.into_iter().find(|t| t.key() == key)
    }

    /// The seed's words for it.
    fn phrase(self) -> &'static str {
        match self {
            Trigger::FoeAdjacent => "if a foe moves adjacent to it",
            Trigger::FoeAttacks => "if a foe attacks it",
            Trigger::FoeCasts => "if a foe casts a spell",
        }
    }
}

/// The action readied, simple, standard or full; those aimed at a creature are aimed at the foe
/// that sets the trigger off (the readier cannot know it sooner). [CEL-R3.9]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Readied {
    /// Attack, Melee / Natural with the numbered form. [CEL-R9]
    Attack(u8),
    /// Attack, Ranged. [CEL-R9, R7]
    Shoot,
    /// Attack, Unarmed (it still provokes from an armed foe). [CEL-R8]
    Unarmed,
    /// Combat Maneuver: Trip. [CEL-R10.6]
    Trip,
    /// Combat Maneuver: Bull Rush. [CEL-R10.2]
    BullRush,
    /// Step 5 ft in a direction. [CEL-R9]
    Step(Direction),
    /// Charge (standard, 2 acts). [CEL-R10]
    Charge,
    /// Combat Maneuver: Grapple (standard, 2 acts; 1 with Improved Grapple). [CEL-R10.9]
    Grapple,
    /// Feint (standard, 2 acts; 1 with Improved Feint). [CEL-R11]
    Feint,
    /// Cast the numbered spell of the spellbook at the foe (its casting time's acts; not a
    /// 1-round spell), defensively when `true`. [CEL-R9, R14]
    Cast(u8, bool),
    /// Combat Maneuver: Dirty Trick with this condition (standard, 2 acts). [CEL-R10.7]
    DirtyTrick(Trick),
    /// Combat Maneuver: Drag the foe in a direction (standard, 2 acts). [CEL-R10.8]
    Drag(Direction),
    /// Combat Maneuver: Reposition the foe to a square (standard, 2 acts). [CEL-R10.12]
    Reposition(Pos),
    /// Combat Maneuver: Steal the foe's item, named as for a steal on a turn: a weapon, an
    /// item at hand, a rope or a shield (standard, 2 acts). [CEL-R10.13]
    Steal(Belonging),
    /// Lock the melee weapon in hand into its locked gauntlet (standard, 2 acts). [CEL-R11]
    Lock(Item),
    /// Unlock the weapon locked in its locked gauntlet (standard, 2 acts). [CEL-R11]
    Unlock(Item),
}

impl Readied {
    /// The action it becomes against the triggering foe.
    pub fn against(self, foe: CombatantId) -> Choice {
        match self {
            Readied::Attack(form) => Choice::Attack(foe, form),
            Readied::Shoot => Choice::Shoot(foe),
            Readied::Unarmed => Choice::Unarmed(foe),
            Readied::Trip => Choice::Trip(foe),
            Readied::BullRush => Choice::BullRush(foe),
            Readied::Step(d) => Choice::Step(d),
            Readied::Charge => Choice::Charge(foe),
            Readied::Grapple => Choice::Grapple(foe),
            Readied::Feint => Choice::Feint(foe),
            Readied::Cast(i, defensively) => Choice::Cast(i, Some(foe), defensively),
            Readied::DirtyTrick(trick) => Choice::DirtyTrick(foe, trick),
            Readied::Drag(d) => Choice::Drag(foe, d),
            Readied::Reposition(to) => Choice::Reposition(foe, to),
            Readied::Steal(item) => Choice::Steal(foe, item),
            Readied::Lock(item) => Choice::Lock(item),
            Readied::Unlock(item) => Choice::Unlock(item),
        }
    }

    /// Whether it is more than a simple action (CEL-R3.9's "complex action").
    pub fn complex(self) -> bool {
        matches!(
            self,
            Readied::Charge
                | Readied::Grapple
                | Readied::Feint
                | Readied::Cast(..)
                | Readied::DirtyTrick(_)
                | Readied::Drag(_)
                | Readied::Reposition(_)
                | Readied::Steal(_)
                | Readied::Lock(_)
                | Readied::Unlock(_)
        )
    }

    /// The text in choices (`attack 0`, `shoot`, `step n`, `cast SPELL`, `steal item NAME`), a
    /// spell and an item named from the encounter's books.
    pub fn text(self, state: &State) -> String {
        let spellbook = &state.spellbook;
        match self {
            Readied::Attack(form) => format!("attack {form}"),
            Readied::Shoot => "shoot".into(),
            Readied::Unarmed => "unarmed".into(),
            Readied::Trip => "trip".into(),
            Readied::BullRush => "bull-rush".into(),
            Readied::Step(d) => format!("step {}", crate::choice::dir_key(d)),
            Readied::Charge => "charge".into(),
            Readied::Grapple => "grapple".into(),
            Readied::Feint => "feint".into(),
            Readied::Cast(i, defensively) => format!(
                "cast {}{}",
                spellbook
                    .get(usize::from(i))
                    .map_or_else(|| format!("#{i}"), |s| s.key()),
                if defensively { " defensively" } else { "" }
            ),
            Readied::DirtyTrick(trick) => format!("dirty-trick {}", trick.key()),
            Readied::Drag(d) => format!("drag {}", crate::choice::dir_key(d)),
            Readied::Reposition(to) => format!("reposition {} {}", to.x, to.y),
            Readied::Steal(item) => format!("steal {}", item.text(state)),
            Readied::Lock(item) => format!("lock {}", item.key()),
            Readied::Unlock(item) => format!("unlock {}", item.key()),
        }
    }

    /// Reads `attack [FORM]`, `shoot`, `unarmed`, `trip`, `bull-rush`, `step DIR`, `charge`,
    /// `grapple`, `feint`, `cast SPELL [defensively]` (a spell of the spellbook), `dirty-trick
    /// CONDITION`, `drag DIR`, `reposition X Y`, `steal ITEM` (as a steal on a turn names it:
    /// the one parser of `choice::belongings`), `lock FORM`, `unlock FORM`.
    pub fn parse(words: &[&str], state: &State) -> Result<Readied, Illegal> {
        let unknown = || {
            crate::choice::unreadable(format!(
                "`{}` cannot be readied: attack [FORM], shoot, unarmed, trip, bull-rush, step \
                 DIR, charge, grapple, feint, dirty-trick CONDITION, drag DIR, reposition X Y, \
                 steal ITEM (a form number, ranged, shield, rope or item NAME), lock FORM, \
                 unlock FORM or cast SPELL [defensively]",
                words.join(" ")
            ))
        };
        let spell = |key: &str| {
            let i = state
                .spellbook
                .iter()
                .position(|s| s.key().eq_ignore_ascii_case(key))
                .ok_or_else(unknown)?;
            u8::try_from(i).map_err(|_| unknown())
        };
        let direction = |d: &str| fray_core::encounter::parse_direction(d).ok_or_else(unknown);
        Ok(match words {
            ["attack"] => Readied::Attack(0),
            ["attack", form] => Readied::Attack(form.parse().map_err(|_| unknown())?),
            ["shoot"] => Readied::Shoot,
            ["unarmed"] => Readied::Unarmed,
            ["trip"] => Readied::Trip,
            ["bull-rush"] => Readied::BullRush,
            ["step", d] => Readied::Step(direction(d)?),
            ["charge"] => Readied::Charge,
            ["grapple"] => Readied::Grapple,
            ["feint"] => Readied::Feint,
            ["cast", key] => Readied::Cast(spell(key)?, false),
            ["cast", key, "defensively"] => Readied::Cast(spell(key)?, true),
            ["dirty-trick", c] => Readied::DirtyTrick(Trick::from_key(c).ok_or_else(unknown)?),
            ["drag", d] => Readied::Drag(direction(d)?),
            ["reposition", x, y] => Readied::Reposition(Pos::new(
                x.parse().map_err(|_| unknown())?,
                y.parse().map_err(|_| unknown())?,
            )),
            ["steal", rest @ ..] => match crate::choice::belongings(state, rest)?.as_slice() {
                [one] => Readied::Steal(*one),
                _ => {
                    return Err(crate::choice::unreadable(
                        "`steal ITEM`: one item, chosen when readied".to_string(),
                    ))
                }
            },
            ["lock", form] => Readied::Lock(crate::choice::weapon_item(form)?),
            ["unlock", form] => Readied::Unlock(crate::choice::weapon_item(form)?),
            _ => return Err(unknown()),
        })
    }
}

/// The ready options: each trigger with each action the readier has the means for.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let mut actions: Vec<Readied> = state
        .melee_forms(who)
        .filter(|(_, w)| w.kind != crate::content::WeaponKind::Unarmed)
        .map(|(i, _)| Readied::Attack(i as u8))
        .collect();
    actions.extend([
        Readied::Shoot,
        Readied::Unarmed,
        Readied::Trip,
        Readied::BullRush,
    ]);
    actions.extend(Direction::ALL.map(Readied::Step));
    // CEL-R3.9, A42: a standard or full action, if it fits in the acts left after Ready's
    // (`check`, which the options pass through).
    {
        actions.extend([Readied::Charge, Readied::Grapple, Readied::Feint]);
        // The foe's items and the squares around it are not known before it comes: a steal of
        // its first form or ranged weapon, and a reposition (a square), are typed, not offered.
        actions.extend(Trick::ALL.map(Readied::DirtyTrick));
        actions.extend(Direction::ALL.map(Readied::Drag));
        // CEL-R11: locking the weapon in hand, or unlocking the locked one, with a gauntlet.
        let mut gauntlet = Vec::new();
        super::gauntlet::options(state, who, &mut gauntlet);
        actions.extend(gauntlet.into_iter().filter_map(|choice| match choice {
            Choice::Lock(item) => Some(Readied::Lock(item)),
            Choice::Unlock(item) => Some(Readied::Unlock(item)),
            _ => None,
        }));
        for i in 0..state.spellbook.len().min(usize::from(u8::MAX)) {
            if super::spell::known(state, who, i)
                && state.spellbook[i].range != crate::spell::Range::Personal
            {
                actions.extend([Readied::Cast(i as u8, false), Readied::Cast(i as u8, true)]);
            }
        }
    }
    for trigger in Trigger::ALL {
        for &readied in &actions {
            out.push(Choice::Ready(trigger, readied));
        }
    }
}

/// CEL-R3.9, A42: Ready costs 1 act and the readied action (simple, standard or full) must fit
/// in the acts left after it; the readier must have the means (a form, a ranged weapon, an
/// unarmed strike, a speed above 5 ft to step, a known spell aimed at a creature, a Bluff
/// bonus, a hand free to steal with, a locked gauntlet it can lock or unlock now); a 1-round action cannot be readied (adopted reading), nor more than a simple action
/// by a staggered creature (CEL-R20.2). Whether the readied action reaches its foe is judged
/// when the trigger happens.
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    readied: Readied,
) -> Result<(), Illegal> {
    let f = state.f(who);
    if f.acts_left < 2 {
        return no(explain, "CEL-R3.9", || {
            "Ready costs 1 act and the readied action needs 1 more act left".to_string()
        });
    }
    if readied.complex() {
        complex_check(explain, state, who, readied)?;
    }
    let p = state.p(who);
    let (able, need) = match readied {
        Readied::Attack(form) => (
            state.melee_forms(who).any(|(i, w)| {
                i == usize::from(form) && w.kind != crate::content::WeaponKind::Unarmed
            }),
            "a usable melee form with that number",
        ),
        Readied::Shoot => (state.ranged_weapon(who).is_some(), "a usable ranged weapon"),
        Readied::Unarmed => (
            p.melee
                .iter()
                .any(|w| w.kind == crate::content::WeaponKind::Unarmed),
            "an unarmed strike",
        ),
        Readied::Trip
        | Readied::BullRush
        | Readied::Charge
        | Readied::Grapple
        | Readied::DirtyTrick(_)
        | Readied::Drag(_)
        | Readied::Reposition(_) => (true, ""),
        // CEL-R10.13: its hands do not change before the trigger (its turn ends).
        Readied::Steal(_) => (
            super::wield::hand_free(state, who),
            "a free hand (CEL-R10.13: no two-handed weapon, a hand not holding a weapon or a \
             strapped shield)",
        ),
        Readied::Feint => (
            p.gm_said.feint.bluff.is_some(),
            "a `bluff` bonus (Feint uses the Bluff skill)",
        ),
        Readied::Cast(..) => (true, ""),
        // CEL-R11: its gauntlet and hands do not change before the trigger (its turn ends)
        // but by a foe's doing, which `can_complete` judges then.
        Readied::Lock(item) | Readied::Unlock(item) => {
            let lock = matches!(readied, Readied::Lock(_));
            if let Err(why) = super::gauntlet::check(explain, state, who, item, lock) {
                return no(explain, "CEL-R3.9", || {
                    format!(
                        "to ready `{}` it must be able to take it: {} ({})",
                        readied.text(state),
                        why.reason,
                        why.rule
                    )
                });
            }
            (true, "")
        }
        Readied::Step(_) => (
            p.speed > 5 && !f.prone,
            "a speed above 5 ft and to be standing",
        ),
    };
    Illegal::unless(able, explain, "CEL-R3.9", || {
        format!("to ready `{}` it needs {need}", readied.text(state))
    })
}

/// Acts the readied action takes when completed (its own cost, as on the readier's turn).
/// [CEL-R3.1, A42]
fn acts(state: &State, who: CombatantId, readied: Readied) -> i32 {
    // The foe does not change what these cost: `who` stands in for the one to come.
    super::complex::cost(state, who, &readied.against(who))
}

/// CEL-R3.9, A42 for a readied standard or full action: it fits in the acts left after Ready's,
/// it is not a 1-round action (adopted reading), the readier is not staggered (CEL-R20.2), and
/// a spell is one it knows, aimed at a creature, with a slot left.
fn complex_check(
    explain: bool,
    state: &State,
    who: CombatantId,
    readied: Readied,
) -> Result<(), Illegal> {
    let text = || readied.text(state);
    if let Readied::Cast(i, _) = readied {
        let i = usize::from(i);
        let Some(spell) = state.spellbook.get(i) else {
            return no(explain, "CEL-R3.9", || format!("no spell #{i}"));
        };
        if !super::spell::known(state, who, i) {
            return no(explain, "CEL-R3.9", || {
                format!("to ready `{}` it must know the spell", text())
            });
        }
        if spell.range == crate::spell::Range::Personal {
            return no(explain, "CEL-R3.9", || {
                format!(
                    "`{}`: a readied spell is cast at the foe that sets the trigger off, and \
                     this one is personal",
                    text()
                )
            });
        }
    }
    if super::one_round::kind(state, who, &readied.against(who)).is_some() {
        return no(explain, "CEL-R3.7", || {
            format!(
                "`{}` is a 1-round action: it spans the readier's turns and cannot be taken in \
                 a reaction's moment (adopted reading)",
                text()
            )
        });
    }
    let need = acts(state, who, readied);
    let left = state.f(who).acts_left - 1;
    if need > left {
        return no(explain, "CEL-A42", || {
            format!(
                "`{}` takes {need} acts and {left} {} left after Ready's act",
                text(),
                if left == 1 { "is" } else { "are" }
            )
        });
    }
    Illegal::unless(
        need <= 1 || !state.staggered(who),
        explain,
        "CEL-R20.2",
        || "a staggered creature takes only a single simple action".to_string(),
    )
}

/// Readies the action: its turn ends at once (the acts left are not spent). [CEL-R3.9]
pub fn ready(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    trigger: Trigger,
    readied: Readied,
) {
    state.fm(who).readied = Some((trigger, readied));
    table.emit(|| Event::Acted {
        who,
        act: "readies an action",
        on: None,
        detail: format!(
            "{} {}; its turn ends (the readied action uses a reaction)",
            readied.text(state),
            trigger.phrase()
        ),
        rule: "CEL-R3.9",
    });
}

/// At the start of its turn an unused readied action is lost. [CEL-R3.9]
pub fn lapse(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    if let Some((trigger, readied)) = state.fm(who).readied.take() {
        table.emit(|| Event::Forgone {
            who,
            what: "readied action",
            on: None,
            reason: format!(
                "{} {}: not taken before its turn, so it is lost",
                readied.text(state),
                trigger.phrase()
            ),
            rule: "CEL-R3.9",
        });
    }
}

/// The creature an action attacks, if it is an attack (for "if a foe attacks me").
#[inline]
pub fn attacked(choice: &Choice) -> Option<CombatantId> {
    match *choice {
        Choice::Attack(t, _)
        | Choice::Shoot(t)
        | Choice::Unarmed(t)
        | Choice::CoupDeGrace(t, ..)
        | Choice::SpellCombat(t, ..)
        | Choice::Spellstrike(t, ..)
        | Choice::Cleave(t)
        | Choice::Strike(_, t) => Some(t),
        _ => None,
    }
}

/// CEL-R3.9, R15: `attacker` declares an attack on `target`: a target that readied an action
/// for "if a foe attacks me" may take it first. Returns whether the attack can still be made
/// (the attacker still up, the attack still legal: a readied step may have taken the target
/// out of reach).
#[inline]
pub fn before_attack(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    choice: &Choice,
) -> Result<bool, Interrupt> {
    // Before every action: this test inline in the caller, the rest out of line (issue 16).
    match attacked(choice) {
        Some(target) if matches!(state.f(target).readied, Some((Trigger::FoeAttacks, _))) => {
            readied_for_attack(state, table, attacker, target, choice)
        }
        _ => Ok(true),
    }
}

/// [`before_attack`], on a target that readied an action for a foe's attack.
#[inline(never)]
fn readied_for_attack(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    choice: &Choice,
) -> Result<bool, Interrupt> {
    if !state.enemies(target, attacker) {
        return Ok(true);
    }
    if !fire(state, table, target, attacker)? {
        return Ok(true);
    }
    let still = state.up(attacker) && legal::check_deed(false, state, attacker, choice).is_ok();
    if !still && state.up(attacker) {
        table.emit(|| Event::Forgone {
            who: attacker,
            what: "attack",
            on: Some(target),
            reason: "no longer possible after the readied action".into(),
            rule: "CEL-R3.9",
        });
    }
    Ok(still)
}

/// CEL-R3.9, R15: `mover` moved from `from` by its own action: each foe (in initiative order)
/// that readied an action for "if a foe moves adjacent to me", and that `mover` was not next
/// to before, may take it now that `mover` is.
#[inline(always)]
pub fn after_move(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mover: CombatantId,
    from: Pos,
) -> Result<(), Interrupt> {
    // After every action: this test inline in the caller, the rest out of line (issue 16).
    if state.f(mover).pos == from {
        return Ok(());
    }
    moved_near(state, table, mover, from)
}

/// [`after_move`], for a combatant that moved.
#[inline(never)]
fn moved_near(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    mover: CombatantId,
    from: Pos,
) -> Result<(), Interrupt> {
    // Most moves have nobody waiting for a foe to come near (issue 16: no list built then).
    if !state
        .fighters
        .iter()
        .any(|f| matches!(f.readied, Some((Trigger::FoeAdjacent, _))))
    {
        return Ok(());
    }
    let watchers: Vec<CombatantId> = state
        .order
        .iter()
        .copied()
        .filter(|&r| {
            let f = state.f(r);
            matches!(f.readied, Some((Trigger::FoeAdjacent, _)))
                && state.enemies(r, mover)
                && state.gap_from(mover, from, r) > 1
                && state.gap(mover, r) <= 1
        })
        .collect();
    for reactor in watchers {
        if !state.up(mover) || state.gap(mover, reactor) > 1 {
            break;
        }
        fire(state, table, reactor, mover)?;
    }
    Ok(())
}

/// CEL-R3.9, R15: `caster` begins casting a spell (its own or an item's): each foe (in
/// initiative order) that readied an action for "if a foe casts a spell" may take it first, as
/// attacks of opportunity come before the casting (CEL-R3.5). The seed gives no concentration
/// check for damage: the casting goes on unless the caster is dropped. Returns whether it is
/// still up.
pub fn before_cast(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    caster: CombatantId,
) -> Result<bool, Interrupt> {
    let watchers: Vec<CombatantId> = state
        .order
        .iter()
        .copied()
        .filter(|&r| {
            matches!(state.f(r).readied, Some((Trigger::FoeCasts, _))) && state.enemies(r, caster)
        })
        .collect();
    for reactor in watchers {
        if !state.up(caster) {
            break;
        }
        fire(state, table, reactor, caster)?;
    }
    Ok(state.up(caster))
}

/// May `reactor` complete its readied action against `foe` now: up, a reaction left (CEL-A42),
/// and the action legal against that foe.
pub fn can_complete(state: &State, reactor: CombatantId, foe: CombatantId) -> bool {
    let f = state.f(reactor);
    let Some((_, readied)) = f.readied else {
        return false;
    };
    f.reactions > 0
        && state.up(reactor)
        && legal::check_deed(false, state, reactor, &readied.against(foe)).is_ok()
}

/// The trigger happened: `reactor`, if it may complete its readied action against `foe` now
/// ([`can_complete`]; else nothing is asked or logged), is asked whether it does and, if so,
/// performs it as a reaction (no act spent, one reaction spent, 1 damage while disabled as
/// `perform` deals for its one act: CEL-R17.2). Returns whether it did.
fn fire(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    reactor: CombatantId,
    foe: CombatantId,
) -> Result<bool, Interrupt> {
    let Some((trigger, readied)) = state.f(reactor).readied else {
        return Ok(false);
    };
    // Only a readier that could take its action against this foe now is asked (and logged):
    // one out of reach, without a reaction or otherwise unable lets the trigger pass silently
    // and keeps its action readied (a caster across the field would else log a "forgone" for
    // every watcher on every spell). One that could but for its spent reaction is told so
    // (CEL-A42): the trigger came and the action is not taken.
    if !can_complete(state, reactor, foe) {
        let f = state.f(reactor);
        if f.reactions == 0
            && state.up(reactor)
            && legal::check_deed(false, state, reactor, &readied.against(foe)).is_ok()
        {
            table.emit(|| Event::Forgone {
                who: reactor,
                what: "readied action",
                on: Some(foe),
                reason: "its reaction is spent".into(),
                rule: "CEL-A42",
            });
        }
        return Ok(false);
    }
    let choice = legal::ask(state, table, Asking::Readied { reactor, foe }, "CEL-R15")?;
    if choice != Choice::Complete(foe) {
        table.emit(|| Event::Forgone {
            who: reactor,
            what: "readied action",
            on: Some(foe),
            reason: "declined (it stays readied)".into(),
            rule: "CEL-R15",
        });
        return Ok(false);
    }
    {
        let f = state.fm(reactor);
        f.readied = None;
        f.reactions -= 1;
    }
    table.emit(|| Event::Acted {
        who: reactor,
        act: "completes its readied action on",
        on: Some(foe),
        detail: format!("{} ({})", readied.text(state), trigger.phrase()),
        rule: "CEL-R15",
    });
    // A reaction is no act: perform it on a budget of its own acts (1 for a simple action, a
    // standard or full action's whole cost: it is taken whole, CEL-A42), then put the turn's
    // record back.
    let (acts_left, act_clock, acted) = {
        let f = state.f(reactor);
        (f.acts_left, f.act_clock, f.acted)
    };
    let choice = readied.against(foe);
    let budget = if readied.complex() {
        super::complex::cost(state, reactor, &choice)
    } else {
        1
    };
    state.fm(reactor).acts_left = budget;
    state.fm(reactor).reacting = true;
    let done = round::perform(state, table, reactor, choice);
    state.fm(reactor).reacting = false;
    done?;
    let f = state.fm(reactor);
    f.acts_left = acts_left;
    f.act_clock = act_clock;
    f.acted = acted;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::Fixture;

    /// A wizard with a standard spell and a 1-round one, with `acts` acts left.
    fn wizard(acts: i32) -> State {
        let mut s = Fixture::new()
            .with(
                "wyn",
                "h",
                [0, 0],
                "class = \"wizard\"\nlevel = 3\nhp = 12\nweapon = \"dagger\"\n\
                 spells = [\"shocking grasp\", \"slow bolt\"]\ncaster_level = 3\nspell_dc = 14",
            )
            .monster("orc", "f", [5, 0], "orc")
            .state();
        s.fm(CombatantId(0)).acts_left = acts;
        s
    }

    #[test]
    fn a_readied_standard_action_needs_its_acts_after_readys_and_no_round() {
        let wyn = CombatantId(0);
        let s = wizard(3);
        let book: Vec<String> = s.spellbook.iter().map(|sp| sp.key()).collect();
        let at = |key: &str| book.iter().position(|k| k == key).unwrap() as u8;
        let grasp = Readied::Cast(at("shocking-grasp"), false);
        assert!(check(false, &s, wyn, grasp).is_ok());
        assert!(check(false, &s, wyn, Readied::Charge).is_ok());
        // Feint needs a Bluff bonus.
        assert!(check(false, &s, wyn, Readied::Feint).is_err());
        let bolt = check(true, &s, wyn, Readied::Cast(at("slow-bolt"), false)).unwrap_err();
        assert_eq!(bolt.rule, "CEL-R3.7", "{bolt}");
        let s = wizard(2);
        let short = check(true, &s, wyn, grasp).unwrap_err();
        assert_eq!(short.rule, "CEL-A42", "{short}");
        assert!(
            short.reason.contains("takes 2 acts and 1 is left"),
            "{short}"
        );
        // A maneuver that is a standard action does not fit either.
        for maneuver in [
            Readied::DirtyTrick(Trick::Dazzled),
            Readied::Drag(Direction::North),
            Readied::Reposition(Pos::new(1, 1)),
            Readied::Steal(Belonging::Weapon(Item::Melee(0))),
        ] {
            let refused = check(true, &s, wyn, maneuver).unwrap_err();
            assert_eq!(refused.rule, "CEL-A42", "{refused}");
            assert!(check(false, &wizard(3), wyn, maneuver).is_ok());
        }
        // A simple action still fits.
        assert!(check(false, &s, wyn, Readied::Attack(0)).is_ok());
        let mut offered = Vec::new();
        options(&wizard(3), wyn, &mut offered);
        assert!(offered.contains(&Choice::Ready(Trigger::FoeAttacks, grasp)));
        assert!(offered.contains(&Choice::Ready(Trigger::FoeCasts, grasp)));
        assert!(offered.contains(&Choice::Ready(
            Trigger::FoeCasts,
            Readied::DirtyTrick(Trick::Sickened)
        )));
        assert!(offered.contains(&Choice::Ready(
            Trigger::FoeAdjacent,
            Readied::Drag(Direction::East)
        )));
        let text = grasp.text(&s);
        assert_eq!(text, "cast shocking-grasp");
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(Readied::parse(&words, &s), Ok(grasp));
    }

    /// CEL-R3.9, R10.13: a steal is readied only with a hand free to take the item with.
    #[test]
    fn a_readied_steal_needs_a_free_hand() {
        let fighter = |weapon: &str| {
            let mut s = Fixture::new()
                .with(
                    "hal",
                    "h",
                    [0, 0],
                    &format!("class = \"fighter\"\nhp = 12\nweapon = \"{weapon}\""),
                )
                .monster("orc", "f", [5, 0], "orc")
                .state();
            s.fm(CombatantId(0)).acts_left = 3;
            s
        };
        let hal = CombatantId(0);
        let steal = Readied::Steal(Belonging::Weapon(Item::Melee(0)));
        assert!(check(false, &fighter("longsword"), hal, steal).is_ok());
        let refused = check(true, &fighter("greatsword"), hal, steal).unwrap_err();
        assert_eq!(refused.rule, "CEL-R3.9", "{refused}");
        assert!(refused.reason.contains("a free hand"), "{refused}");
        // The other maneuvers need no hand.
        assert!(check(
            false,
            &fighter("greatsword"),
            hal,
            Readied::Drag(Direction::West)
        )
        .is_ok());
    }

    #[test]
    fn readied_actions_read_back_from_their_text() {
        let s = Fixture::new()
            .with(
                "hal",
                "h",
                [0, 0],
                "class = \"fighter\"\nhp = 12\nweapon = \"longsword\"\n\
                 items = [\"potion of cure light wounds\"]",
            )
            .monster("orc", "f", [5, 0], "orc")
            .state();
        let potion = s
            .gear_book
            .iter()
            .position(|g| g.name == "potion of cure light wounds")
            .unwrap() as u8;
        let all = [
            Readied::Attack(0),
            Readied::Attack(2),
            Readied::Shoot,
            Readied::Unarmed,
            Readied::Trip,
            Readied::BullRush,
            Readied::Step(Direction::SouthWest),
            Readied::Charge,
            Readied::Grapple,
            Readied::Feint,
            Readied::DirtyTrick(Trick::Sickened),
            Readied::Drag(Direction::North),
            Readied::Reposition(Pos::new(-2, 7)),
            Readied::Steal(Belonging::Weapon(Item::Melee(1))),
            Readied::Steal(Belonging::Weapon(Item::Ranged)),
            Readied::Steal(Belonging::Gear(potion)),
            Readied::Steal(Belonging::Rope),
            Readied::Steal(Belonging::Shield),
            Readied::Lock(Item::Melee(0)),
            Readied::Unlock(Item::Melee(3)),
        ];
        for readied in all {
            let text = readied.text(&s);
            let words: Vec<&str> = text.split_whitespace().collect();
            assert_eq!(Readied::parse(&words, &s), Ok(readied), "{text}");
        }
        assert_eq!(
            Readied::Steal(Belonging::Gear(potion)).text(&s),
            "steal item potion-of-cure-light-wounds"
        );
        assert_eq!(Readied::parse(&["attack"], &s), Ok(Readied::Attack(0)));
        assert_eq!(Readied::parse(&["charge"], &s), Ok(Readied::Charge));
        assert!(Readied::parse(&["cast", "fireball"], &s).is_err());
        assert!(Readied::parse(&["run"], &s)
            .unwrap_err()
            .reason
            .contains("cannot be readied"));
        // The steal's item words are the one parser's: an unknown item is named, with the
        // nearest; two items are one too many.
        let unknown =
            Readied::parse(&["steal", "item", "potion-of-cure-light-wound"], &s).unwrap_err();
        assert!(unknown.reason.contains("no item"), "{unknown}");
        assert!(Readied::parse(&["steal", "0", "rope"], &s).is_err());
        assert!(Readied::parse(&["steal"], &s).is_err());
        for trigger in Trigger::ALL {
            assert_eq!(Trigger::from_key(trigger.key()), Some(trigger));
        }
        assert_eq!(Trigger::from_key("foe-casts"), Some(Trigger::FoeCasts));
        assert_eq!(Trigger::from_key("foe-heals"), None);
    }

    /// CEL-R3.9, R11: lock and unlock are readied only when they could be taken now (a
    /// gauntlet, the weapon in hand, the gauntlet empty or holding that weapon), are offered so,
    /// and need the standard action's acts (CEL-A42).
    #[test]
    fn a_readied_lock_needs_a_gauntlet_it_can_use() {
        let kira = |gauntlet: bool, acts: i32| {
            let mut s = Fixture::new()
                .with(
                    "kira",
                    "h",
                    [0, 0],
                    &format!(
                        "class = \"fighter\"\nhp = 12\nweapon = \"longsword\"\n\
                         locked_gauntlet = {gauntlet}"
                    ),
                )
                .monster("orc", "f", [5, 0], "orc")
                .state();
            s.fm(CombatantId(0)).acts_left = acts;
            s
        };
        let who = CombatantId(0);
        let lock = Readied::Lock(Item::Melee(0));
        assert!(check(false, &kira(true, 3), who, lock).is_ok());
        let none = check(true, &kira(false, 3), who, lock).unwrap_err();
        assert_eq!(none.rule, "CEL-R3.9", "{none}");
        assert!(none.reason.contains("no locked gauntlet"), "{none}");
        let short = check(true, &kira(true, 2), who, lock).unwrap_err();
        assert_eq!(short.rule, "CEL-A42", "{short}");
        let unlock = Readied::Unlock(Item::Melee(0));
        let refused = check(true, &kira(true, 3), who, unlock).unwrap_err();
        assert!(
            refused.reason.contains("not the weapon locked"),
            "{refused}"
        );
        let mut locked = kira(true, 3);
        locked.fm(who).gauntlet = super::super::gauntlet::Gauntlet::Locked(0);
        assert!(check(false, &locked, who, unlock).is_ok());
        assert!(check(false, &locked, who, lock).is_err(), "locked already");
        let mut offered = Vec::new();
        options(&locked, who, &mut offered);
        assert!(offered.contains(&Choice::Ready(Trigger::FoeAttacks, unlock)));
        assert!(!offered.contains(&Choice::Ready(Trigger::FoeAttacks, lock)));
        let mut offered = Vec::new();
        options(&kira(false, 3), who, &mut offered);
        assert!(!offered
            .iter()
            .any(|c| matches!(c, Choice::Ready(_, Readied::Lock(_) | Readied::Unlock(_)))));
    }
}
