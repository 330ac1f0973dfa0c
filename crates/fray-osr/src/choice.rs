//! Choices: declarations (OSR-R3) and reactions, with their canonical text.

use crate::state::State;
use fray_core::catalog::name_key;
use fray_core::protocol::Illegal;
use fray_core::{CombatantId, Pos};

/// What a holder may try to take from the creature it holds (OSR-R32.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// Its weapon in hand.
    Weapon,
    /// A flask of oil.
    Oil,
    /// A flask of holy water.
    HolyWater,
}

impl Item {
    /// Its word in a choice.
    pub fn word(self) -> &'static str {
        match self {
            Item::Weapon => "weapon",
            Item::Oil => "oil",
            Item::HolyWater => "holy-water",
        }
    }
}

/// A declared action (OSR-R3.1, OSR-R3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Action {
    /// Nothing this round.
    #[default]
    Nothing,
    /// Move (up to its movement) and attack in melee (OSR-R6, OSR-R7); `flat` strikes with the
    /// flat of the blade (OSR-R30).
    Attack {
        /// Target.
        target: CombatantId,
        /// Non-lethal.
        flat: bool,
        /// Then move toward this square with the movement left (split movement, OSR-R6.1).
        then: Option<Pos>,
    },
    /// Move and shoot (OSR-R21), then move toward a square with the movement left (split
    /// movement, OSR-R6.1).
    Shoot(CombatantId, Option<Pos>),
    /// Charge (OSR-R14).
    Charge(CombatantId),
    /// Set weapon against a charge: a held action (OSR-R15).
    Set,
    /// Fighting withdrawal: back away at half movement, fighting (OSR-R16.2).
    Withdraw,
    /// Run away at double movement (OSR-R13).
    Run,
    /// Move toward a square, up to its movement, and take no other action (OSR-R6.1); a holder
    /// drags the creature it holds along at half its speed, if the GM rules it strong enough
    /// (OSR-R32.3).
    Move(Pos),
    /// Parry and dodge: +2 AC this round (OSR-R9).
    Dodge,
    /// Cast a spell at a target (OSR-R8, OSR-R28): the caster, the index into its spells, the
    /// target.
    Cast(CombatantId, u8, CombatantId),
    /// The same, delayed until just before the target's own action (OSR-R28.5, OSR-A53): cast
    /// by one who acts earlier, it resolves first and makes a target that is casting save or
    /// lose its spell.
    CastDelayed(CombatantId, u8, CombatantId),
    /// Grapple (OSR-R32).
    Grapple(CombatantId),
    /// Punch (OSR-R31.1).
    Punch(CombatantId),
    /// Kick (OSR-R31.2).
    Kick(CombatantId),
    /// Throw a flask of oil (OSR-R25).
    Oil(CombatantId),
    /// Throw holy water (OSR-R26).
    HolyWater(CombatantId),
    /// Pour a flask of oil on a square within 5 ft and light it: it burns on the ground for 10
    /// rounds (OSR-R25.5).
    SpillOil(Pos),
    /// Put out burning oil (OSR-R25.2).
    PutOut,
    /// Reload a crossbow (OSR-R23).
    Reload,
    /// Pick up a dropped or knocked-away weapon (OSR-A6).
    Recover,
    /// Wait for a creature and attack it on its number, simultaneously (OSR-R11.1).
    Hold(CombatantId),
    /// Perform a feat, adjudicated by the GM (OSR-R10, OSR-A16).
    Feat,
    /// Keep the creature it holds from speaking, while the hold lasts (OSR-R32.3).
    Silence,
    /// Try to take an item from the creature it holds: an extra attack roll (OSR-R32.3).
    Take(Item),
    /// Tend a knocked-out friend in an adjacent square: after 2d10 consecutive rounds of it,
    /// the friend wakes with 1 hp (OSR-R30.3, OSR-A15).
    Revive(CombatantId),
}

impl Action {
    /// The target it names, if any.
    pub fn target(self) -> Option<CombatantId> {
        match self {
            Action::Attack { target, .. } => Some(target),
            Action::Shoot(t, _)
            | Action::Charge(t)
            | Action::Cast(_, _, t)
            | Action::CastDelayed(_, _, t)
            | Action::Grapple(t)
            | Action::Punch(t)
            | Action::Kick(t)
            | Action::Oil(t)
            | Action::HolyWater(t)
            | Action::Hold(t) => Some(t),
            _ => None,
        }
    }

    /// The same action at another target (OSR-A33).
    pub fn at(self, t: CombatantId) -> Action {
        match self {
            Action::Attack { flat, then, .. } => Action::Attack {
                target: t,
                flat,
                then,
            },
            Action::Shoot(_, then) => Action::Shoot(t, then),
            Action::Charge(_) => Action::Charge(t),
            Action::Cast(c, s, _) => Action::Cast(c, s, t),
            Action::CastDelayed(c, s, _) => Action::CastDelayed(c, s, t),
            Action::Grapple(_) => Action::Grapple(t),
            Action::Punch(_) => Action::Punch(t),
            Action::Kick(_) => Action::Kick(t),
            Action::Oil(_) => Action::Oil(t),
            Action::HolyWater(_) => Action::HolyWater(t),
            Action::Hold(_) => Action::Hold(t),
            other => other,
        }
    }

    /// May a move follow it (`… then X Y`, OSR-R6.1)? Spells, flasks, recovering a weapon and
    /// feats; attacks and shots carry their own `then`, and the rest are movement themselves or
    /// keep the combatant where it is for the round.
    pub fn moves_after(self) -> bool {
        matches!(
            self,
            Action::Cast(..)
                | Action::CastDelayed(..)
                | Action::Oil(_)
                | Action::HolyWater(_)
                | Action::SpillOil(_)
                | Action::Recover
                | Action::Feat
        )
    }

    /// Is it an attack (which dodging forgoes, and a "no attack" round forbids)?
    pub fn is_attack(self) -> bool {
        matches!(
            self,
            Action::Attack { .. }
                | Action::Shoot(..)
                | Action::Charge(_)
                | Action::Set
                | Action::Grapple(_)
                | Action::Punch(_)
                | Action::Kick(_)
                | Action::Oil(_)
                | Action::HolyWater(_)
                | Action::Hold(_)
                | Action::Take(_)
        )
    }
}

/// Any answer to an OSR question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// A declaration.
    Declare(Action),
    /// A declaration, then a move toward a square with the movement left (split movement,
    /// OSR-R6.1), for the actions that do not name their own (`cast … then X Y`).
    DeclareThen(Action, Pos),
    /// Take the reaction (with attack form `n` of a routine, OSR-R16.1).
    Yes(u8),
    /// Decline it.
    No,
    /// A new target (OSR-A33), or none.
    Target(Option<CombatantId>),
}

/// The canonical text of a choice.
pub fn text(state: &State, choice: &Choice) -> String {
    let k = |id: CombatantId| state.roster.key(id).to_string();
    match *choice {
        Choice::Declare(a) => action_text(state, a),
        Choice::DeclareThen(a, to) => format!("{} then {} {}", action_text(state, a), to.x, to.y),
        Choice::Yes(0) => "yes".into(),
        Choice::Yes(n) => format!("yes {n}"),
        Choice::No => "no".into(),
        Choice::Target(Some(t)) => format!("target {}", k(t)),
        Choice::Target(None) => "target none".into(),
    }
}

/// The text of a declaration.
pub fn action_text(state: &State, a: Action) -> String {
    let k = |id: CombatantId| state.roster.key(id).to_string();
    match a {
        Action::Nothing => "nothing".into(),
        Action::Attack { target, flat, then } => format!(
            "attack {}{}{}",
            k(target),
            if flat { " flat" } else { "" },
            then.map_or(String::new(), |p| format!(" then {} {}", p.x, p.y))
        ),
        Action::Shoot(t, then) => format!(
            "shoot {}{}",
            k(t),
            then.map_or(String::new(), |p| format!(" then {} {}", p.x, p.y))
        ),
        Action::Charge(t) => format!("charge {}", k(t)),
        Action::Set => "set".into(),
        Action::Withdraw => "withdraw".into(),
        Action::Run => "run".into(),
        Action::Dodge => "dodge".into(),
        Action::Cast(c, s, t) | Action::CastDelayed(c, s, t) => {
            let spell = state
                .p(c)
                .spells
                .get(usize::from(s))
                .map_or_else(|| s.to_string(), |sp| name_key(&sp.name));
            let delayed = if matches!(a, Action::CastDelayed(..)) {
                " delayed"
            } else {
                ""
            };
            format!("cast {spell} at {}{delayed}", k(t))
        }
        Action::Grapple(t) => format!("grapple {}", k(t)),
        Action::Punch(t) => format!("punch {}", k(t)),
        Action::Kick(t) => format!("kick {}", k(t)),
        Action::Oil(t) => format!("oil {}", k(t)),
        Action::HolyWater(t) => format!("holy-water {}", k(t)),
        Action::SpillOil(at) => format!("spill-oil {} {}", at.x, at.y),
        Action::PutOut => "put-out".into(),
        Action::Move(to) => format!("move {} {}", to.x, to.y),
        Action::Silence => "silence".into(),
        Action::Take(item) => format!("take {}", item.word()),
        Action::Revive(t) => format!("revive {}", state.roster.key(t)),
        Action::Reload => "reload".into(),
        Action::Recover => "recover".into(),
        Action::Hold(t) => format!("hold {}", k(t)),
        Action::Feat => "feat".into(),
    }
}

/// The square `X Y` of a choice's text.
fn square(x: &str, y: &str) -> Result<Pos, Illegal> {
    let n = |w: &str| {
        w.parse::<i32>()
            .map_err(|_| bad(format!("`{w}` is not a whole number")))
    };
    Ok(Pos::new(n(x)?, n(y)?))
}

fn bad(reason: String) -> Illegal {
    Illegal {
        rule: "OSR-R3",
        reason,
    }
}

/// Reads a choice as typed (`attack orc-1`, `cast magic-missile at orc-2`, `yes`, `yes 2`).
pub fn parse(state: &State, who: Option<CombatantId>, text: &str) -> Result<Choice, Illegal> {
    let words: Vec<&str> = text.split_whitespace().collect();
    // `ACTION then X Y` (OSR-R6.1) for actions whose own words do not take it.
    if let [first, .., then, x, y] = words.as_slice() {
        if *then == "then" && !matches!(*first, "attack" | "shoot") {
            let action = words[..words.len() - 3].join(" ");
            return match parse(state, who, &action)? {
                Choice::Declare(a) => Ok(Choice::DeclareThen(a, square(x, y)?)),
                _ => Err(bad(format!(
                    "`{text}`: only a declaration can be followed by a move"
                ))),
            };
        }
    }
    let target = |w: &str| {
        state
            .roster
            .find(&w.to_ascii_lowercase())
            .ok_or_else(|| bad(format!("no combatant `{w}`")))
    };
    let expected = || {
        bad(format!(
            "`{text}` is not a choice: expected e.g. `attack KEY`, `attack KEY then X Y`, `shoot KEY`, `shoot KEY then X Y`, `charge KEY`, \
             `set`, `withdraw`, `run`, `dodge`, `cast SPELL at KEY [delayed]`, `grapple KEY`, `punch KEY`, \
             `kick KEY`, `oil KEY`, `holy-water KEY`, `spill-oil X Y`, `move X Y`, `put-out`, `reload`, `recover`, \
             `silence`, `take weapon|oil|holy-water`, `revive KEY`, `feat`, `nothing`, `ACTION then X Y`, `yes`, `no`, `target KEY`"
        ))
    };
    let a = match words.as_slice() {
        ["nothing"] => Action::Nothing,
        ["attack", t, rest @ ..] => {
            let (flat, rest) = match rest {
                ["flat", more @ ..] => (true, more),
                more => (false, more),
            };
            let then = match rest {
                [] => None,
                ["then", x, y] => {
                    let n = |w: &str| {
                        w.parse::<i32>()
                            .map_err(|_| bad(format!("`{w}` is not a whole number")))
                    };
                    Some(Pos::new(n(x)?, n(y)?))
                }
                _ => return Err(expected()),
            };
            Action::Attack {
                target: target(t)?,
                flat,
                then,
            }
        }
        ["shoot", t] => Action::Shoot(target(t)?, None),
        ["shoot", t, "then", x, y] => Action::Shoot(target(t)?, Some(square(x, y)?)),
        ["charge", t] => Action::Charge(target(t)?),
        ["set"] => Action::Set,
        ["withdraw"] => Action::Withdraw,
        ["run"] => Action::Run,
        ["dodge"] => Action::Dodge,
        ["cast", spell, "at", t, rest @ ..] => {
            let delayed = match rest {
                [] => false,
                ["delayed"] => true,
                _ => return Err(expected()),
            };
            let t = target(t)?;
            let caster = who.ok_or_else(expected)?;
            let key = name_key(spell);
            let i = state
                .p(caster)
                .spells
                .iter()
                .position(|s| name_key(&s.name) == key)
                .ok_or_else(|| Illegal {
                    rule: "OSR-R8",
                    reason: format!("{} knows no spell `{spell}`", state.roster.name(caster)),
                })?;
            if delayed {
                Action::CastDelayed(caster, i as u8, t)
            } else {
                Action::Cast(caster, i as u8, t)
            }
        }
        ["grapple", t] => Action::Grapple(target(t)?),
        ["punch", t] => Action::Punch(target(t)?),
        ["kick", t] => Action::Kick(target(t)?),
        ["oil", t] => Action::Oil(target(t)?),
        ["holy-water", t] => Action::HolyWater(target(t)?),
        ["spill-oil", x, y] => Action::SpillOil(square(x, y)?),
        ["put-out"] => Action::PutOut,
        ["move", x, y] => Action::Move(square(x, y)?),
        ["silence"] => Action::Silence,
        ["take", "weapon"] => Action::Take(Item::Weapon),
        ["take", "oil"] => Action::Take(Item::Oil),
        ["take", "holy-water"] => Action::Take(Item::HolyWater),
        ["revive", t] => Action::Revive(target(t)?),
        ["reload"] => Action::Reload,
        ["recover"] => Action::Recover,
        ["hold", t] => Action::Hold(target(t)?),
        ["feat"] => Action::Feat,
        ["yes"] => return Ok(Choice::Yes(0)),
        ["yes", n] => {
            return n
                .parse::<u8>()
                .map(Choice::Yes)
                .map_err(|_| bad(format!("`yes {n}`: give the number of the attack form")))
        }
        ["no"] => return Ok(Choice::No),
        ["target", "none"] => return Ok(Choice::Target(None)),
        ["target", t] => return Ok(Choice::Target(Some(target(t)?))),
        _ => return Err(expected()),
    };
    Ok(Choice::Declare(a))
}
