//! The choices a Spelljammer combatant or GM makes, and their canonical text.
//!
//! A [`Declaration`] is everything a combatant declares at the start of the round (SJ-R1):
//! its intent (attack, shoot, cast, defend, move, withdraw…), movement mode, Defending amount and
//! the extras (careful aim, draw/sheathe, ready shield, potion).
//!
//! Canonical text (what [`text`] writes; [`parse`] reads it back, and is liberal about case,
//! spaces in spell names, `_` for `-`, two-word spellings and the order of the extras):
//!
//! ```text
//! declaration := intent [movement] [defend N] [aim] [draw | sheathe-draw] [ready-shield] [potion | potion-move]
//!                [free [N]]
//! intent      := attack KEY | shoot KEY | cast SPELL at KEY | full-defense | desperate-defense
//!              | move toward KEY | run toward KEY | withdraw | pick-up | first-aid KEY | hold
//!              | nothing
//! movement    := no-movement | move-attack | run-attack | attack-move      (absent: stand)
//! other       := retarget KEY | retarget none | yes | no | push DIRECTION
//! ```
//!
//! `SPELL` is the spell's name with spaces written as hyphens (`bolt-of-energy`); `DIRECTION` is
//! `north`, `north-east`, `east`, … (`n`, `ne`… are read too). Example:
//! `attack orc-1 move-attack defend 10 draw ready-shield`.

use crate::content::SpellEffect;
use crate::state::{Asking, State};
use fray_core::encounter::parse_direction;
use fray_core::{CombatantId, Direction, Illegal};

/// What the combatant means to do this round. [Seed: Action Declaration]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Intent {
    /// Do nothing (or only extras such as drinking a potion).
    #[default]
    Nothing,
    /// Melee attacks on a target.
    Attack(CombatantId),
    /// Ranged attacks on a target.
    Shoot(CombatantId),
    /// Cast a spell (index into the profile's spells) at a target.
    Cast {
        /// Spell index.
        spell: u8,
        /// Target.
        target: CombatantId,
    },
    /// Full Defense: no attacks (SJ-R19).
    FullDefense,
    /// Desperate Defense: nothing else at all (SJ-R19).
    DesperateDefense,
    /// Move toward a combatant, no attack.
    Move(CombatantId),
    /// Run (2× TMR) toward a combatant, no attack.
    Run(CombatantId),
    /// Withdraw from melee (SJ-R22): move away from foes at full TMR.
    Withdraw,
    /// Pick up a dropped weapon (SJ-R21).
    PickUp,
    /// Hold the action into the next round (a 1-round spell may then start on 10, SJ-R4.2).
    Hold,
    /// First Aid on itself or a friend next to it: pull out a stuck missile (SJ-R23.6, SJ-G13).
    FirstAid(CombatantId),
}

/// How an attacker combines movement with its attacks. [Seed: Initiative; Combining Actions]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Movement {
    /// Stand and fight; a 5-ft free move is allowed (SJ-R17.1).
    #[default]
    Stand,
    /// "No movement": +3 initiative, −20 DEF, not even the free move (SJ-R5).
    NoMovement,
    /// Move up to ½ TMR then attack: −5 initiative, lose ⌊n/2⌋ attacks (SJ-R17.1).
    MoveAttack,
    /// Run up to TMR then attack: −7 initiative, −25 SC, keep max(1, ⌊n/2⌋) (SJ-R17.3).
    RunAttack,
    /// Attack, then move by the DEX ladder (SJ-R17.2).
    AttackMove,
}

/// Drawing and sheathing weapons at the start of the round (SJ-R17.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Draw {
    /// Nothing drawn.
    #[default]
    None,
    /// Draw a weapon: −5 initiative.
    Draw,
    /// Sheathe one weapon and draw another: −10 initiative and one action lost.
    SheatheDraw,
}

/// A combatant's declaration for the round (SJ-R1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Declaration {
    /// What it means to do.
    pub intent: Intent,
    /// How it moves.
    pub movement: Movement,
    /// SC sacrificed for DEF (Defending, SJ-R19), 0 … 5 × weapon rank.
    pub defending: u8,
    /// Careful Aim (SJ-R23.2).
    pub aim: bool,
    /// Draw or sheathe-and-draw.
    pub draw: Draw,
    /// Ready a slung shield (SJ-R17.5).
    pub ready_shield: bool,
    /// Drink a potion (SJ-R17.6).
    pub potion: bool,
    /// Pay for the potion with half the movement instead of half the attacks (token
    /// `potion-move`; SJ-R17.6 "lose half your attacks … or half your movement"). Without it an
    /// attacker pays with attacks and anyone else with movement.
    pub potion_move: bool,
    /// Free actions (SJ-R17.7): the first costs nothing, each further one a regular action.
    pub free: u8,
}

/// Most free actions one declaration may list (a limit; each beyond the first costs an attack).
pub const MAX_FREE_ACTIONS: u8 = 5;

/// An answer to a Spelljammer choice request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// The round's declaration (Question::Declaration).
    Declare(Declaration),
    /// GM: where a declared attack goes when its target is gone (SJ-G1); `None`: lost.
    Retarget(Option<CombatantId>),
    /// Yes (take a free attack, allow it, a grievous wound…).
    Yes,
    /// No.
    No,
    /// Push a desperately defending target 10 ft in a direction (SJ-R19, SJ-G8).
    Push(Direction),
}

impl Intent {
    /// The combatant the intent is aimed at, if any.
    pub fn target(self) -> Option<CombatantId> {
        match self {
            Intent::Attack(t) | Intent::Shoot(t) | Intent::Move(t) | Intent::Run(t) => Some(t),
            Intent::Cast { target, .. } => Some(target),
            Intent::FirstAid(t) => Some(t),
            _ => None,
        }
    }
}

impl Movement {
    /// Its token in a declaration (`None` for [`Movement::Stand`], which is not written).
    pub fn key(self) -> Option<&'static str> {
        match self {
            Movement::Stand => None,
            Movement::NoMovement => Some("no-movement"),
            Movement::MoveAttack => Some("move-attack"),
            Movement::RunAttack => Some("run-attack"),
            Movement::AttackMove => Some("attack-move"),
        }
    }
}

/// The canonical name of a direction (`north`, `north-east`, …).
pub fn direction_key(dir: Direction) -> &'static str {
    match dir {
        Direction::North => "north",
        Direction::NorthEast => "north-east",
        Direction::East => "east",
        Direction::SouthEast => "south-east",
        Direction::South => "south",
        Direction::SouthWest => "south-west",
        Direction::West => "west",
        Direction::NorthWest => "north-west",
    }
}

/// A spell name as one word: spaces become hyphens (`bolt of energy` → `bolt-of-energy`).
pub fn spell_word(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join("-")
}

/// A name compared liberally: lower case, `-` and `_` read as spaces, spaces collapsed.
fn loose(name: &str) -> String {
    name.to_ascii_lowercase()
        .replace(['-', '_'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The combatant the pending request is put to, when the state says so.
fn asked(state: &State) -> Option<CombatantId> {
    match state.asking? {
        Asking::Declaration(id) => Some(id),
        Asking::FreeAttack { by, .. } | Asking::Push { by, .. } => Some(by),
        _ => None,
    }
}

/// Who casts spell `spell` at `target` in a declaration being written without its caster: the
/// combatant being asked; else the first (in roster order) whose spell of that number suits the
/// target (a heal on a friend, a harmful spell on a foe) and that either declared exactly that or
/// has not declared yet (up, not casting); else the first whose spell suits; else the first with
/// a spell of that number. Only a guess: [`declaration_text`] takes the caster.
fn caster_of(state: &State, spell: u8, target: CombatantId) -> Option<CombatantId> {
    if let Some(id) = asked(state) {
        return Some(id);
    }
    let intent = Intent::Cast { spell, target };
    let has = |c: CombatantId| state.p(c).spells.get(spell as usize);
    let valid_target = target.index() < state.fighters.len();
    let fits = |c: CombatantId| {
        has(c).is_some_and(|s| {
            valid_target
                && match s.def.effect {
                    SpellEffect::Heal { .. } => !state.foes(c, target),
                    SpellEffect::Damage { .. } => state.foes(c, target),
                }
        })
    };
    let undeclared = |c: CombatantId| {
        let f = state.f(c);
        f.is_up() && f.casting.is_none() && f.plan.declaration == Declaration::default()
    };
    state
        .ids()
        .find(|&c| fits(c) && (state.f(c).plan.declaration.intent == intent || undeclared(c)))
        .or_else(|| state.ids().find(|&c| fits(c)))
        .or_else(|| state.ids().find(|&c| has(c).is_some()))
}

/// The canonical text of a choice.
///
/// The text of a `cast` names the spell, which is one of its caster's spells: the caster is the
/// combatant the pending request (`state.asking`) is put to. Without one, use
/// [`declaration_text`], which takes the caster.
pub fn text(state: &State, choice: &Choice) -> String {
    match *choice {
        Choice::Declare(d) => {
            let caster = match d.intent {
                Intent::Cast { spell, target } => caster_of(state, spell, target),
                _ => None,
            };
            write_declaration(state, caster, &d)
        }
        Choice::Retarget(Some(t)) => format!("retarget {}", state.roster.key(t)),
        Choice::Retarget(None) => "retarget none".into(),
        Choice::Yes => "yes".into(),
        Choice::No => "no".into(),
        Choice::Push(dir) => format!("push {}", direction_key(dir)),
    }
}

/// The canonical text of `who`'s declaration.
pub fn declaration_text(state: &State, who: CombatantId, d: &Declaration) -> String {
    write_declaration(state, Some(who), d)
}

fn write_declaration(state: &State, caster: Option<CombatantId>, d: &Declaration) -> String {
    let key = |t: CombatantId| state.roster.key(t);
    let mut out = match d.intent {
        Intent::Nothing => "nothing".to_string(),
        Intent::Attack(t) => format!("attack {}", key(t)),
        Intent::Shoot(t) => format!("shoot {}", key(t)),
        Intent::Cast { spell, target } => {
            let name = caster
                .and_then(|c| state.p(c).spells.get(spell as usize))
                .map(|s| spell_word(&s.def.name))
                .unwrap_or_else(|| format!("#{spell}"));
            format!("cast {name} at {}", key(target))
        }
        Intent::FullDefense => "full-defense".into(),
        Intent::DesperateDefense => "desperate-defense".into(),
        Intent::Move(t) => format!("move toward {}", key(t)),
        Intent::Run(t) => format!("run toward {}", key(t)),
        Intent::Withdraw => "withdraw".into(),
        Intent::PickUp => "pick-up".into(),
        Intent::FirstAid(t) => format!("first-aid {}", key(t)),
        Intent::Hold => "hold".into(),
    };
    if let Some(m) = d.movement.key() {
        out.push(' ');
        out.push_str(m);
    }
    if d.defending > 0 {
        out.push_str(&format!(" defend {}", d.defending));
    }
    if d.aim {
        out.push_str(" aim");
    }
    match d.draw {
        Draw::None => {}
        Draw::Draw => out.push_str(" draw"),
        Draw::SheatheDraw => out.push_str(" sheathe-draw"),
    }
    if d.ready_shield {
        out.push_str(" ready-shield");
    }
    if d.potion {
        out.push_str(if d.potion_move {
            " potion-move"
        } else {
            " potion"
        });
    }
    match d.free {
        0 => {}
        1 => out.push_str(" free"),
        n => out.push_str(&format!(" free {n}")),
    }
    out
}

const EXPECTED: &str = "expected a declaration (`attack KEY`, `shoot KEY`, `cast SPELL at KEY`, \
     `full-defense`, `desperate-defense`, `move toward KEY`, `run toward KEY`, `withdraw`, \
     `pick-up`, `first-aid KEY`, `hold`, `nothing`, then optionally `no-movement` | `move-attack` | `run-attack` | \
     `attack-move`, `defend N`, `aim`, `draw` | `sheathe-draw`, `ready-shield`, `potion` | \
     `potion-move`, \
     `free [N]`), or \
     `retarget KEY`, `retarget none`, `yes`, `no`, `push DIRECTION`";

fn unreadable(text: &str, why: &str) -> Illegal {
    Illegal {
        rule: "SJ-R1.1",
        reason: if why.is_empty() {
            format!("cannot read `{text}`; {EXPECTED}")
        } else {
            format!("cannot read `{text}`: {why}; {EXPECTED}")
        },
    }
}

/// Finds a combatant by key, or says which keys there are.
fn combatant(state: &State, word: Option<&str>, text: &str) -> Result<CombatantId, Illegal> {
    let Some(word) = word else {
        return Err(unreadable(text, "a combatant key is missing"));
    };
    state.roster.find(word).ok_or_else(|| {
        let keys: Vec<&str> = state
            .roster
            .combatants
            .iter()
            .take(8)
            .map(|c| c.key.as_str())
            .collect();
        let more = if state.roster.combatants.len() > keys.len() {
            ", …"
        } else {
            ""
        };
        Illegal {
            rule: "SJ-R1.1",
            reason: format!(
                "no combatant `{word}` in this fight; expected a combatant key ({}{more})",
                keys.join(", ")
            ),
        }
    })
}

/// Joins the two-word spellings into one token, and splits `defend-10` / `defend=10`.
fn tokens(text: &str) -> Vec<String> {
    let lower = text.trim().to_ascii_lowercase().replace('_', "-");
    let words: Vec<&str> = lower.split_whitespace().collect();
    const PAIRS: [(&str, &str, &str); 15] = [
        ("full", "defense", "full-defense"),
        ("full", "defence", "full-defense"),
        ("full", "parry", "full-defense"),
        ("desperate", "defense", "desperate-defense"),
        ("desperate", "defence", "desperate-defense"),
        ("no", "movement", "no-movement"),
        ("pick", "up", "pick-up"),
        ("ready", "shield", "ready-shield"),
        ("careful", "aim", "aim"),
        ("drink", "potion", "potion"),
        ("draw", "weapon", "draw"),
        ("sheathe", "draw", "sheathe-draw"),
        ("sheath", "draw", "sheathe-draw"),
        ("free", "action", "free-action"),
        ("first", "aid", "first-aid"),
    ];
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if let Some(next) = words.get(i + 1) {
            if let Some((_, _, joined)) = PAIRS.iter().find(|(a, b, _)| *a == w && b == next) {
                out.push((*joined).to_string());
                i += 2;
                continue;
            }
        }
        match w
            .strip_prefix("defending")
            .or_else(|| w.strip_prefix("defend"))
            .and_then(|rest| rest.strip_prefix(['-', '=']))
        {
            Some(n) if !n.is_empty() => {
                out.push("defend".into());
                out.push(n.to_string());
            }
            _ => out.push(w.to_string()),
        }
        i += 1;
    }
    out
}

/// Is `w` one of the optional tokens that follow the intent?
fn is_extra(w: &str) -> bool {
    movement_token(w).is_some()
        || matches!(
            w,
            "defend"
                | "defending"
                | "aim"
                | "draw"
                | "sheathe-draw"
                | "sheath-draw"
                | "sheathe-and-draw"
                | "ready-shield"
                | "potion"
                | "potion-move"
                | "potion-movement"
                | "free"
                | "free-action"
        )
}

fn movement_token(w: &str) -> Option<Movement> {
    Some(match w {
        "stand" => Movement::Stand,
        "no-movement" | "nomove" | "no-move" => Movement::NoMovement,
        "move-attack" | "move-and-attack" | "move-then-attack" => Movement::MoveAttack,
        "run-attack" | "run-and-attack" | "run-then-attack" => Movement::RunAttack,
        "attack-move" | "attack-and-move" | "attack-then-move" => Movement::AttackMove,
        _ => return None,
    })
}

/// Reads a choice's text (case-insensitive). Legality is checked separately
/// ([`crate::rules::legal`]); unknown combatants and spells are refused here.
pub fn parse(state: &State, text: &str) -> Result<Choice, Illegal> {
    let owned = tokens(text);
    let words: Vec<&str> = owned.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => Err(unreadable(text, "it is empty")),
        ["yes" | "y"] => Ok(Choice::Yes),
        ["no" | "n"] => Ok(Choice::No),
        ["push", dir] => parse_direction(dir)
            .map(Choice::Push)
            .ok_or_else(|| Illegal {
                rule: "SJ-R19",
                reason: format!(
                    "`{dir}` is not a direction; expected north, north-east, east, south-east, \
                     south, south-west, west or north-west"
                ),
            }),
        ["push", ..] => Err(unreadable(text, "`push` takes one direction")),
        ["retarget", "none" | "nobody" | "nothing" | "lost"] => Ok(Choice::Retarget(None)),
        ["retarget", who] => Ok(Choice::Retarget(Some(combatant(state, Some(who), text)?))),
        ["retarget", ..] => Err(unreadable(
            text,
            "`retarget` takes a combatant key or `none`",
        )),
        _ => parse_declaration(state, &words, text).map(Choice::Declare),
    }
}

fn parse_declaration(state: &State, words: &[&str], text: &str) -> Result<Declaration, Illegal> {
    let mut d = Declaration::default();
    let word = |i: usize| words.get(i).copied();
    let toward = |i: usize| match word(i) {
        Some("toward" | "towards" | "to" | "at") => i + 1,
        _ => i,
    };
    let rest = match words[0] {
        "attack" | "melee" | "fight" => {
            d.intent = Intent::Attack(combatant(state, word(1), text)?);
            2
        }
        "shoot" | "fire" | "throw" => {
            d.intent = Intent::Shoot(combatant(state, word(1), text)?);
            2
        }
        "move" | "walk" | "advance" => {
            let i = toward(1);
            d.intent = Intent::Move(combatant(state, word(i), text)?);
            i + 1
        }
        "run" => {
            let i = toward(1);
            d.intent = Intent::Run(combatant(state, word(i), text)?);
            i + 1
        }
        "cast" => {
            let (intent, next) = parse_cast(state, words, text)?;
            d.intent = intent;
            next
        }
        "full-defense" | "full-defence" | "full-parry" => {
            d.intent = Intent::FullDefense;
            1
        }
        "desperate-defense" | "desperate-defence" => {
            d.intent = Intent::DesperateDefense;
            1
        }
        "withdraw" | "retreat" => {
            d.intent = Intent::Withdraw;
            1
        }
        "pick-up" | "pickup" => {
            d.intent = Intent::PickUp;
            1
        }
        "first-aid" | "firstaid" => {
            let i = toward(1);
            d.intent = Intent::FirstAid(combatant(state, word(i), text)?);
            i + 1
        }
        "hold" | "wait" | "delay" => {
            d.intent = Intent::Hold;
            1
        }
        "nothing" | "none" | "pass" => 1,
        w if is_extra(w) => 0,
        _ => return Err(unreadable(text, "")),
    };
    parse_extras(&mut d, &words[rest.min(words.len())..], text)?;
    Ok(d)
}

/// `cast NAME at KEY`, `cast NAME KEY` (a one-word name), or `cast NAME` (at the caster itself).
fn parse_cast(state: &State, words: &[&str], text: &str) -> Result<(Intent, usize), Illegal> {
    let caster = asked(state);
    let at = words.iter().position(|w| *w == "at" || *w == "on");
    let (name, target, next) = match at {
        Some(k) if k > 1 => (
            words[1..k].join(" "),
            Some(words.get(k + 1).copied()),
            k + 2,
        ),
        Some(_) => return Err(unreadable(text, "the spell's name is missing")),
        None => {
            // The name runs up to the first combatant key or extra token.
            let end = (1..words.len())
                .find(|&j| j > 1 && (state.roster.find(words[j]).is_some() || is_extra(words[j])))
                .unwrap_or(words.len());
            if end <= 1 {
                return Err(unreadable(text, "the spell's name is missing"));
            }
            match words.get(end) {
                Some(w) if !is_extra(w) => (words[1..end].join(" "), Some(Some(*w)), end + 1),
                _ => (words[1..end].join(" "), None, end),
            }
        }
    };
    let spell = find_spell(state, caster, &name)?;
    let target = match target {
        Some(w) => combatant(state, w, text)?,
        None => caster.ok_or_else(|| unreadable(text, "whom is the spell cast at?"))?,
    };
    Ok((Intent::Cast { spell, target }, next))
}

/// A spell by name (or `#N`, its number) among the caster's spells. Without a declaring caster
/// (a script read ahead of its request), any combatant's spell of that name is accepted.
fn find_spell(state: &State, caster: Option<CombatantId>, name: &str) -> Result<u8, Illegal> {
    let wanted = loose(name);
    let in_profile = |c: CombatantId| -> Option<u8> {
        let spells = &state.p(c).spells;
        if let Some(n) = name.strip_prefix('#').and_then(|n| n.parse::<usize>().ok()) {
            return (n < spells.len()).then_some(n as u8);
        }
        spells
            .iter()
            .position(|s| loose(&s.def.name) == wanted)
            .map(|i| i as u8)
    };
    let declaring = match state.asking {
        Some(Asking::Declaration(id)) => Some(id),
        _ => None,
    };
    let found = match declaring {
        Some(id) => in_profile(id),
        None => caster
            .and_then(in_profile)
            .or_else(|| state.ids().find_map(in_profile)),
    };
    found.ok_or_else(|| {
        let (who, known) = match declaring.or(caster) {
            Some(c) => {
                let known: Vec<String> = state
                    .p(c)
                    .spells
                    .iter()
                    .map(|s| spell_word(&s.def.name))
                    .collect();
                (state.roster.name(c).to_string(), known)
            }
            None => ("nobody in this fight".to_string(), Vec::new()),
        };
        Illegal {
            rule: "SJ-R1.1",
            reason: if known.is_empty() {
                format!("{who} knows no spell `{name}`; it has no spells")
            } else {
                format!(
                    "{who} knows no spell `{name}`; expected one of: {}",
                    known.join(", ")
                )
            },
        }
    })
}

fn parse_extras(d: &mut Declaration, words: &[&str], text: &str) -> Result<(), Illegal> {
    let mut moved = false;
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if let Some(m) = movement_token(w) {
            if moved && d.movement != m {
                return Err(unreadable(text, "two movement modes"));
            }
            moved = true;
            d.movement = m;
        } else {
            match w {
                "defend" | "defending" => {
                    let n = words.get(i + 1).and_then(|n| n.parse::<u8>().ok());
                    let Some(n) = n else {
                        return Err(unreadable(
                            text,
                            "`defend` takes the SC given up, a number from 0 to 255",
                        ));
                    };
                    d.defending = n;
                    i += 1;
                }
                "aim" => d.aim = true,
                "draw" | "sheathe-draw" | "sheath-draw" | "sheathe-and-draw" => {
                    let new = if w == "draw" {
                        Draw::Draw
                    } else {
                        Draw::SheatheDraw
                    };
                    if d.draw != Draw::None && d.draw != new {
                        return Err(unreadable(text, "`draw` and `sheathe-draw` together"));
                    }
                    d.draw = new;
                }
                "ready-shield" => d.ready_shield = true,
                "potion" => d.potion = true,
                "potion-move" | "potion-movement" => {
                    d.potion = true;
                    d.potion_move = true;
                }
                "full-defense" | "full-defence" | "full-parry" | "desperate-defense"
                | "desperate-defence" => {
                    return Err(Illegal {
                        rule: "SJ-R19",
                        reason: format!(
                            "`{w}` is a declaration of its own: Full and Desperate Defense allow \
                             no attack, shot, spell or movement beside them"
                        ),
                    });
                }
                "free" | "free-action" => {
                    match words.get(i + 1).and_then(|n| n.parse::<u8>().ok()) {
                        Some(n) => {
                            d.free = d.free.saturating_add(n);
                            i += 1;
                        }
                        None => d.free = d.free.saturating_add(1),
                    }
                }
                other => {
                    return Err(unreadable(text, &format!("unexpected `{other}`")));
                }
            }
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::legal::testkit::*;

    fn asked_of(who: CombatantId) -> State {
        let mut s = fight();
        s.asking = Some(Asking::Declaration(who));
        s
    }

    fn round_trip(state: &State, t: &str) -> Choice {
        let c = parse(state, t).unwrap_or_else(|e| panic!("`{t}`: {e}"));
        assert_eq!(text(state, &c), t);
        c
    }

    #[test]
    fn canonical_texts_round_trip() {
        let hero = asked_of(HERO);
        for t in [
            "nothing",
            "attack orc-1",
            "shoot orc-2",
            "full-defense",
            "desperate-defense",
            "move toward orc-1",
            "run toward orc-2",
            "withdraw",
            "pick-up",
            "first-aid hero",
            "first-aid orc-1",
            "hold",
            "attack orc-1 no-movement",
            "attack orc-1 move-attack defend 10 draw ready-shield potion",
            "attack orc-2 run-attack",
            "attack orc-1 attack-move defend 20 sheathe-draw",
            "attack orc-1 free",
            "move toward orc-2 free 2",
            "shoot orc-2 no-movement aim",
            "nothing potion",
            "full-defense ready-shield",
            "retarget orc-2",
            "retarget none",
            "yes",
            "no",
            "push north",
            "push north-east",
            "push south-west",
        ] {
            round_trip(&hero, t);
        }
        let mage = asked_of(MAGE);
        for t in [
            "cast bolt-of-energy at orc-1",
            "cast cure-wounds at mage no-movement",
        ] {
            round_trip(&mage, t);
        }
    }

    #[test]
    fn parsed_values() {
        let s = asked_of(HERO);
        assert_eq!(
            parse(
                &s,
                "attack orc-1 move-attack defend 10 aim draw ready-shield potion"
            ),
            Ok(Choice::Declare(Declaration {
                intent: Intent::Attack(ORC1),
                movement: Movement::MoveAttack,
                defending: 10,
                aim: true,
                draw: Draw::Draw,
                ready_shield: true,
                potion: true,
                potion_move: false,
                free: 0,
            }))
        );
        assert_eq!(
            parse(&s, "shoot orc-1 potion-move"),
            Ok(Choice::Declare(Declaration {
                intent: Intent::Shoot(ORC1),
                potion: true,
                potion_move: true,
                ..Declaration::default()
            }))
        );
        assert_eq!(parse(&s, "push ne"), Ok(Choice::Push(Direction::NorthEast)));
        assert_eq!(
            parse(&s, "retarget orc-1"),
            Ok(Choice::Retarget(Some(ORC1)))
        );
        let m = asked_of(MAGE);
        assert_eq!(
            parse(&m, "cast bolt-of-energy at orc-2"),
            Ok(Choice::Declare(Declaration {
                intent: Intent::Cast {
                    spell: 0,
                    target: ORC2
                },
                ..Declaration::default()
            }))
        );
    }

    #[test]
    fn parsing_is_liberal() {
        let s = asked_of(HERO);
        let same = |a: &str, b: &str| {
            assert_eq!(parse(&s, a), parse(&s, b), "`{a}` vs `{b}`");
            assert!(parse(&s, a).is_ok(), "{a}");
        };
        same("  Attack   ORC-1 ", "attack orc-1");
        same(
            "attack orc-1 potion defend 5 move-attack",
            "attack orc-1 move-attack defend 5 potion",
        );
        same("attack orc-1 defend-5", "attack orc-1 defend 5");
        same("full defense", "full-defense");
        same("full_defense", "full-defense");
        same("desperate defence", "desperate-defense");
        same("pick up", "pick-up");
        same("move orc-1", "move toward orc-1");
        same("run to orc-2", "run toward orc-2");
        same(
            "shoot orc-2 no movement careful aim",
            "shoot orc-2 no-movement aim",
        );
        same("attack orc-1 stand", "attack orc-1");
        same(
            "attack orc-1 free action free action",
            "attack orc-1 free 2",
        );
        same("attack orc-1 free 1", "attack orc-1 free");
        same("potion", "nothing potion");
        same("none", "nothing");
        same("push NE", "push north-east");
        same("retarget nobody", "retarget none");
        let m = asked_of(MAGE);
        let same = |a: &str, b: &str| {
            assert_eq!(parse(&m, a), parse(&m, b), "`{a}` vs `{b}`");
            assert!(parse(&m, a).is_ok(), "{a}");
        };
        same(
            "cast bolt of energy at orc-1",
            "cast bolt-of-energy at orc-1",
        );
        same("cast Bolt_Of_Energy orc-1", "cast bolt-of-energy at orc-1");
        same("cast cure wounds", "cast cure-wounds at mage");
        same(
            "cast cure wounds no-movement",
            "cast cure-wounds at mage no-movement",
        );
        same("cast #1 at mage", "cast cure-wounds at mage");
    }

    #[test]
    fn unknown_names_are_refused() {
        let s = asked_of(HERO);
        let e = parse(&s, "attack goblin-7").unwrap_err();
        assert_eq!(e.rule, "SJ-R1.1");
        assert!(
            e.reason.contains("goblin-7") && e.reason.contains("orc-1"),
            "{}",
            e.reason
        );
        let e = parse(&s, "cast bolt-of-energy at orc-1").unwrap_err();
        assert_eq!(e.rule, "SJ-R1.1");
        assert!(e.reason.contains("no spells"), "{}", e.reason);
        let m = asked_of(MAGE);
        let e = parse(&m, "cast fireball at orc-1").unwrap_err();
        assert_eq!(e.rule, "SJ-R1.1");
        assert!(
            e.reason.contains("fireball") && e.reason.contains("bolt-of-energy, cure-wounds"),
            "{}",
            e.reason
        );
        for bad in [
            "",
            "dance",
            "attack",
            "attack orc-1 sideways",
            "attack orc-1 defend",
            "attack orc-1 defend lots",
            "attack orc-1 move-attack run-attack",
            "push up",
            "retarget",
        ] {
            assert!(parse(&s, bad).is_err(), "`{bad}` was read");
        }
        assert_eq!(parse(&s, "push up").unwrap_err().rule, "SJ-R19");
    }

    #[test]
    fn spells_read_ahead_of_their_request() {
        // A script line read while another request is pending: the spell is found by name.
        let s = fight();
        assert_eq!(
            parse(&s, "cast cure-wounds at hero"),
            Ok(Choice::Declare(Declaration {
                intent: Intent::Cast {
                    spell: 1,
                    target: HERO
                },
                ..Declaration::default()
            }))
        );
        // Written without a pending request: the caster is found from the spell and target.
        let c = parse(&s, "cast bolt-of-energy at orc-1").unwrap();
        assert_eq!(text(&s, &c), "cast bolt-of-energy at orc-1");
        let Choice::Declare(d) = c else {
            unreachable!()
        };
        assert_eq!(
            declaration_text(&s, MAGE, &d),
            "cast bolt-of-energy at orc-1"
        );
    }
}
