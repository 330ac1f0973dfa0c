//! The event log: what happened, each ruling naming its rule. Events are data; the text and JSON
//! renderings live here too so every front end says the same thing.
//!
//! Events go to an [`EventSink`]. The simulator uses [`NullSink`], which is disabled, and rules
//! build events lazily (see [`crate::Table::emit`]), so a simulated fight allocates nothing for them.

use crate::grid::Pos;
use crate::ids::{CombatantId, SideId};
use crate::roster::Roster;
use crate::ruleset::EndReason;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Version of the event-log schema.
pub const EVENT_SCHEMA: u32 = 1;

/// A named modifier applied to a roll or a value, with the rule that grants it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Modifier {
    /// What it is (`BtH`, `STR`, `charge`, `flank`…, or a GM's ruling in the GM's words).
    pub label: std::borrow::Cow<'static, str>,
    /// The rule that grants it (e.g. `CNC-R17.5`), or "" for plain statistics.
    pub rule: &'static str,
    /// The amount.
    pub value: i32,
}

impl Modifier {
    /// A modifier.
    pub const fn new(label: &'static str, rule: &'static str, value: i32) -> Self {
        Modifier {
            label: std::borrow::Cow::Borrowed(label),
            rule,
            value,
        }
    }

    /// A modifier whose label is made at run time (a GM's ruling keeps its reason).
    pub fn owned(label: String, rule: &'static str, value: i32) -> Self {
        Modifier {
            label: std::borrow::Cow::Owned(label),
            rule,
            value,
        }
    }
}

/// The result of an attack roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AttackResult {
    /// Missed.
    Miss,
    /// Hit.
    Hit,
    /// A critical hit (systems that have them).
    Critical,
    /// A grievous hit (Spelljammer: a critical that also wears down armour).
    Grievous,
    /// A critical fumble: a miss with a mishap (systems with fumble tables, OSR-R18, ODD-R11.2).
    Fumble,
}

impl AttackResult {
    /// `hit`, `miss`, `critical`, `grievous`, `fumble`.
    pub fn key(self) -> &'static str {
        match self {
            AttackResult::Miss => "miss",
            AttackResult::Hit => "hit",
            AttackResult::Critical => "critical",
            AttackResult::Grievous => "grievous",
            AttackResult::Fumble => "fumble",
        }
    }
    /// True for any hit (a fumble is a miss).
    pub fn is_hit(self) -> bool {
        !matches!(self, AttackResult::Miss | AttackResult::Fumble)
    }
    /// True for a critical hit, grievous ones included.
    pub fn is_critical(self) -> bool {
        matches!(self, AttackResult::Critical | AttackResult::Grievous)
    }
}

/// Who a check is made for: one combatant, or a whole side (a group roll).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Subject {
    /// A combatant.
    Combatant(CombatantId),
    /// A side.
    Side(SideId),
}

/// One thing that happened in a fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Event {
    /// A new round begins.
    RoundStarted,
    /// A segmented round's count is over: what follows happens at the end of the round, in no
    /// segment. A marker for renderers (not shown in the text log or the JSON Lines).
    SegmentsOver,
    /// A check: dice rolled against a number for a purpose (surprise, spotting an ambush, keeping
    /// one's feet, morale, a save, stabilising…).
    Check {
        /// Who checks (a combatant, or a side for a group roll).
        who: Subject,
        /// What for, as a noun (`surprise`, `ambush`, `footing`, `morale`…).
        purpose: &'static str,
        /// The dice rolled (`d20`, `d100`, `2d6`, `2d20kh1`).
        dice: String,
        /// The dice's total (the kept dice).
        roll: u32,
        /// Modifiers added to the roll.
        modifiers: Vec<Modifier>,
        /// Roll plus modifiers.
        total: i32,
        /// What the total is compared with (`CL`, `PER`, `2× DEX`…).
        against: &'static str,
        /// The number compared with.
        target: i32,
        /// True when the check succeeds at or under the target (roll-under systems), false when
        /// it must reach the target.
        under: bool,
        /// Whether it succeeded (`None` when the result is a degree rather than pass/fail).
        success: Option<bool>,
        /// The result in words (`surprised`, `not surprised`, `2× PER`, `keeps its feet`).
        result: String,
        /// The rule.
        rule: &'static str,
    },
    /// A combatant's turn begins (its moment to act in the order).
    TurnStarted {
        /// Whose turn.
        who: CombatantId,
    },
    /// A combatant's turn ends.
    TurnEnded {
        /// Whose turn.
        who: CombatantId,
    },
    /// Something a combatant does that no other event tells: tends a wound, aims, readies an
    /// item, strikes first, takes a free action…
    Acted {
        /// Who.
        who: CombatantId,
        /// What, as a fixed phrase (`tends wounds`, `aims`, `strikes first`…).
        act: &'static str,
        /// On whom, if anyone.
        on: Option<CombatantId>,
        /// The particulars, in words (may be empty).
        detail: String,
        /// The rule.
        rule: &'static str,
    },
    /// Something a combatant does not get or does not take, and why: a free attack declined or
    /// denied, a charge that is not one, a move that is blocked…
    Forgone {
        /// Who goes without.
        who: CombatantId,
        /// What, as a fixed phrase (`free attack`, `charge`, `first strike`, `move`…).
        what: &'static str,
        /// On whom it would have been, if anyone.
        on: Option<CombatantId>,
        /// Why, in words.
        reason: String,
        /// The rule.
        rule: &'static str,
    },
    /// A spell's or an item's progress: begun, continued, readied, used, lost, wasted.
    Casting {
        /// The caster or user.
        who: CombatantId,
        /// The spell or item.
        spell: String,
        /// Its target, if any.
        on: Option<CombatantId>,
        /// The stage (`begins`, `continues`, `readies`, `uses`, `lost`, `wasted`).
        stage: &'static str,
        /// The particulars, in words (when it goes off, why it was lost…; may be empty).
        detail: String,
        /// The rule.
        rule: &'static str,
    },
    /// A combatant held in reserve comes into the fight (a reinforcement the GM brings in).
    Arrived {
        /// Who.
        who: CombatantId,
        /// The square it arrives on.
        at: Pos,
        /// The rule.
        rule: &'static str,
    },
    /// Squares covered for a while by something that is not a combatant (burning oil on the
    /// ground, a cloud): it begins, or it ends.
    Area {
        /// Who made it, if anyone.
        by: Option<CombatantId>,
        /// What it is (`burning oil`).
        label: String,
        /// The squares it covers.
        squares: Vec<Pos>,
        /// The last round it lasts (it ends when that round ends).
        last_round: u32,
        /// True when it begins, false when it ends.
        begins: bool,
        /// The rule.
        rule: &'static str,
    },
    /// A fall.
    Fell {
        /// Who falls.
        who: CombatantId,
        /// How far, in feet.
        feet: i32,
        /// The rule.
        rule: &'static str,
    },
    /// A lasting wound from a table (Spelljammer's grievous wounds): its name and its penalties
    /// for the rest of the fight.
    Wounded {
        /// Who.
        who: CombatantId,
        /// The table's d100.
        roll: u32,
        /// The wound, as the table names it (`none` when the table names none).
        wound: String,
        /// Its lasting penalties.
        modifiers: Vec<Modifier>,
        /// The rule.
        rule: &'static str,
    },
    /// What a combatant's ranged weapon has left after a shot or a load: the rounds loaded and
    /// the ammunition (or thrown weapons) counted. Its controller's and the GM's only.
    Ammunition {
        /// Whose weapon.
        who: CombatantId,
        /// The weapon (`light crossbow`).
        weapon: String,
        /// Rounds loaded and the weapon's capacity, for a weapon that is loaded.
        loaded: Option<(u8, u8)>,
        /// Ammunition (or thrown weapons) left, where counted.
        left: Option<u16>,
        /// The rule.
        rule: &'static str,
    },
    /// What a combatant's side learns by a check of its own: a foe's identity and abilities
    /// (Recall Knowledge), or the square where a hidden creature is (Search). Its side's and
    /// the GM's only.
    Learned {
        /// Who learned it (its side learns it).
        who: CombatantId,
        /// Whom it is about.
        about: CombatantId,
        /// What was learned, in words.
        facts: String,
        /// The square learned, where one is.
        at: Option<Pos>,
        /// The rule.
        rule: &'static str,
    },
    /// Lasting wear on a combatant's gear (armour losing protection).
    Worn {
        /// Whose gear.
        who: CombatantId,
        /// What wears (`PROT`).
        what: &'static str,
        /// By how much it drops.
        by: i32,
        /// How much is left until repaired.
        left: i32,
        /// The rule.
        rule: &'static str,
    },
    /// An announcement before initiative.
    Declared {
        /// Who declares.
        who: CombatantId,
        /// What (`charge orc-1`, `dodge`…).
        declaration: String,
        /// The rule.
        rule: &'static str,
    },
    /// An initiative roll.
    Initiative {
        /// Who rolled.
        who: CombatantId,
        /// The die.
        roll: u32,
        /// Total after modifiers.
        total: i32,
        /// The rule.
        rule: &'static str,
    },
    /// One initiative roll for one action of a combatant (systems with an initiative per attack).
    ActionInitiative {
        /// Who rolled.
        who: CombatantId,
        /// Which action (`attack 2`, `cast bolt`…).
        action: String,
        /// Sides of the die rolled.
        die: u16,
        /// The die.
        roll: u32,
        /// Modifiers added to the die.
        modifiers: Vec<Modifier>,
        /// The initiative (segment) the action happens on.
        total: i32,
        /// The rule.
        rule: &'static str,
    },
    /// A new segment (initiative count) of a segmented round begins.
    Segment {
        /// The count.
        segment: i32,
        /// The part of the round (`pre-movement`, `movement`, `post-movement`).
        phase: &'static str,
    },
    /// A roll-under strike: d100 against strike chance minus defence.
    Strike {
        /// Attacker.
        attacker: CombatantId,
        /// Defender.
        target: CombatantId,
        /// The attack (`long sword`, `free attack`…).
        attack: String,
        /// Strike chance before modifiers.
        strike: i32,
        /// Modifiers to the strike chance.
        strike_modifiers: Vec<Modifier>,
        /// Defence before modifiers.
        defense: i32,
        /// Modifiers to the defence.
        defense_modifiers: Vec<Modifier>,
        /// The number to roll at or under (modified strike chance).
        needed: i32,
        /// The d100.
        roll: u32,
        /// The result.
        result: AttackResult,
        /// The rule.
        rule: &'static str,
    },
    /// A group initiative roll for a whole side.
    SideInitiative {
        /// The side.
        side: SideId,
        /// The die.
        roll: u32,
        /// The rule.
        rule: &'static str,
    },
    /// The order of action this round; each inner list acts simultaneously.
    Order {
        /// Groups in order.
        groups: Vec<Vec<CombatantId>>,
    },
    /// A combatant moved.
    Moved {
        /// Who.
        who: CombatantId,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
        /// Distance in feet.
        feet: i32,
        /// `walk`, `jog`, `run`, `charge`, `half move`…
        mode: &'static str,
        /// True when the mover cannot be seen by its foes (invisible, hidden): only its own
        /// side and the GM see the move.
        hidden: bool,
        /// The rule.
        rule: &'static str,
    },
    /// An attack roll against a defence.
    Attack {
        /// Attacker.
        attacker: CombatantId,
        /// Defender.
        target: CombatantId,
        /// The attack (`long sword`, `grapple`, `free attack (hasty disengagement)`…).
        attack: String,
        /// The die.
        roll: u32,
        /// Modifiers added to the roll.
        modifiers: Vec<Modifier>,
        /// Roll plus modifiers.
        total: i32,
        /// What it must reach (`AC`, `grapple AC`…).
        defense: &'static str,
        /// The defence value, after its own adjustments.
        versus: i32,
        /// Adjustments to the defence value.
        defense_modifiers: Vec<Modifier>,
        /// The result.
        result: AttackResult,
        /// The rule.
        rule: &'static str,
    },
    /// Damage dealt.
    Damage {
        /// Who takes it.
        target: CombatantId,
        /// Dice total before modifiers.
        roll: i32,
        /// Modifiers to the damage.
        modifiers: Vec<Modifier>,
        /// Normal damage taken.
        normal: i32,
        /// Subdual (temporary) damage taken.
        subdual: i32,
        /// Hit points after.
        hp: i32,
        /// The rule.
        rule: &'static str,
    },
    /// Healing received.
    Healed {
        /// Who.
        who: CombatantId,
        /// Points restored.
        amount: i32,
        /// Hit points after.
        hp: i32,
        /// The rule.
        rule: &'static str,
    },
    /// A condition gained or lost.
    Condition {
        /// Who.
        who: CombatantId,
        /// The condition (`prone`, `held`, `charging`…).
        condition: &'static str,
        /// Gained (true) or lost (false).
        gained: bool,
        /// The rule.
        rule: &'static str,
    },
    /// A change of state (`unconscious`, `grievously wounded`, `mortally wounded`, `dead`…).
    Status {
        /// Who.
        who: CombatantId,
        /// New state.
        status: &'static str,
        /// Hit points now.
        hp: i32,
        /// The rule.
        rule: &'static str,
    },
    /// A combatant loses its action.
    Skipped {
        /// Who.
        who: CombatantId,
        /// Why.
        reason: &'static str,
        /// The rule.
        rule: &'static str,
    },
    /// The map changed: squares became obstacles or difficult terrain, or plain ground again
    /// (a GM's ruling on the terrain). The map is in plain sight: everyone sees it.
    Terrain {
        /// What the squares are now: `obstacle`, `difficult` or `clear`.
        change: &'static str,
        /// The squares changed, in the order named.
        squares: Vec<Pos>,
        /// The rule.
        rule: &'static str,
    },
    /// A GM's ruling (an adjustment, a decision the seed leaves to the GM), with its reason.
    Ruling {
        /// The rule.
        rule: &'static str,
        /// The text.
        text: String,
    },
    /// The fight is over.
    End {
        /// The winning side, if any.
        winner: Option<SideId>,
        /// Rounds played.
        rounds: u32,
        /// Why: the foes fell, the foes routed, or a limit (rounds, or answers per fight)
        /// stopped the fight (a stalemate).
        reason: EndReason,
        /// The limit that stopped the fight inside a round (e.g. "answers per fight"); `None`
        /// for the round limit and for fights that ended on their own.
        limit: Option<&'static str>,
        /// How each losing side left the fight ([`EndReason::Defeated`] or
        /// [`EndReason::Routed`]), in side order; empty for a stalemate.
        losers: Vec<(SideId, EndReason)>,
    },
}

/// Where events go.
pub trait EventSink {
    /// False when events are thrown away (rules then skip building them).
    fn enabled(&self) -> bool;
    /// Takes one event of the given round.
    fn push(&mut self, round: u32, event: Event);
}

/// Throws every event away; disabled.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct NullSink;

impl EventSink for NullSink {
    fn enabled(&self) -> bool {
        false
    }
    fn push(&mut self, _round: u32, _event: Event) {}
}

/// Keeps every event with its round.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct VecSink {
    /// `(round, event)` in order.
    pub events: Vec<(u32, Event)>,
}

impl EventSink for VecSink {
    fn enabled(&self) -> bool {
        true
    }
    fn push(&mut self, round: u32, event: Event) {
        self.events.push((round, event));
    }
}

/// ` +2 BtH (CNC-R7.1) -4 prone (CNC-R15.2)`: modifiers as the log writes them.
pub fn modifiers_text(out: &mut String, modifiers: &[Modifier]) {
    for m in modifiers {
        let sign = if m.value < 0 { '-' } else { '+' };
        let _ = write!(out, " {sign}{} {}", m.value.abs(), m.label);
        if !m.rule.is_empty() {
            let _ = write!(out, " ({})", m.rule);
        }
    }
}

fn modifiers_json(modifiers: &[Modifier]) -> Value {
    Value::Array(
        modifiers
            .iter()
            .map(|m| json!({"label": m.label, "rule": m.rule, "value": m.value}))
            .collect(),
    )
}

impl Event {
    /// The event's `type` in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::RoundStarted => "round",
            Event::SegmentsOver => "segments_over",
            Event::Check { .. } => "check",
            Event::TurnStarted { .. } => "turn_started",
            Event::TurnEnded { .. } => "turn_ended",
            Event::Acted { .. } => "act",
            Event::Forgone { .. } => "forgo",
            Event::Casting { .. } => "casting",
            Event::Arrived { .. } => "arrive",
            Event::Area { .. } => "area",
            Event::Fell { .. } => "fall",
            Event::Worn { .. } => "wear",
            Event::Ammunition { .. } => "ammunition",
            Event::Learned { .. } => "learn",
            Event::Wounded { .. } => "wound",
            Event::Declared { .. } => "declare",
            Event::Initiative { .. } => "initiative",
            Event::SideInitiative { .. } => "side_initiative",
            Event::ActionInitiative { .. } => "action_initiative",
            Event::Segment { .. } => "segment",
            Event::Strike { .. } => "strike",
            Event::Order { .. } => "order",
            Event::Moved { .. } => "move",
            Event::Attack { .. } => "attack",
            Event::Damage { .. } => "damage",
            Event::Healed { .. } => "heal",
            Event::Condition { .. } => "condition",
            Event::Status { .. } => "status",
            Event::Skipped { .. } => "skip",
            Event::Terrain { .. } => "terrain",
            Event::Ruling { .. } => "ruling",
            Event::End { .. } => "end",
        }
    }

    /// One line of readable text.
    pub fn describe(&self, roster: &Roster) -> String {
        self.describe_shown(roster, &|_| true)
    }

    /// One line of readable text, leaving out the private fields `shows` hides (see
    /// [`crate::audience`]: a player's view of a foe's hit points or armour class).
    pub fn describe_shown(&self, roster: &Roster, shows: &dyn Fn(&'static str) -> bool) -> String {
        let n = |id: CombatantId| roster.name(id).to_string();
        let mut s = String::new();
        match self {
            Event::RoundStarted => s.push_str("new round"),
            Event::SegmentsOver => s.push_str("end of the segment count"),
            Event::Check {
                who,
                purpose,
                dice,
                roll,
                modifiers,
                total,
                against,
                target,
                under: _,
                success: _,
                result,
                rule,
            } => {
                let whose = match who {
                    Subject::Combatant(id) => n(*id),
                    Subject::Side(side) => roster.sides[side.index()].name.clone(),
                };
                let _ = write!(s, "{whose}'s {purpose} check ({rule}): {dice} {roll}");
                if !modifiers.is_empty() {
                    modifiers_text(&mut s, modifiers);
                    let _ = write!(s, " = {total}");
                }
                // A check against no number (a distance, a retreat roll) says only its result.
                if against.is_empty() {
                    let _ = write!(s, ": {result}");
                } else {
                    let _ = write!(s, " vs {against} {target}: {result}");
                }
            }
            Event::TurnStarted { who } => {
                let _ = write!(s, "{}'s turn", n(*who));
            }
            Event::TurnEnded { who } => {
                let _ = write!(s, "{}'s turn ends", n(*who));
            }
            Event::Acted {
                who,
                act,
                on,
                detail,
                rule,
            } => {
                let _ = write!(s, "{} {act}", n(*who));
                if let Some(on) = on {
                    let _ = write!(s, " {}", n(*on));
                }
                if !detail.is_empty() {
                    let _ = write!(s, ": {detail}");
                }
                let _ = write!(s, " ({rule})");
            }
            Event::Forgone {
                who,
                what,
                on,
                reason,
                rule,
            } => {
                let _ = write!(s, "no {what} for {}", n(*who));
                if let Some(on) = on {
                    let _ = write!(s, " on {}", n(*on));
                }
                let _ = write!(s, ": {reason} ({rule})");
            }
            Event::Casting {
                who,
                spell,
                on,
                stage,
                detail,
                rule,
            } => {
                let _ = write!(s, "{} {stage} {spell}", n(*who));
                if let Some(on) = on {
                    let _ = write!(s, " on {}", n(*on));
                }
                if !detail.is_empty() {
                    let _ = write!(s, ": {detail}");
                }
                let _ = write!(s, " ({rule})");
            }
            Event::Arrived { who, at, rule } => {
                let _ = write!(s, "{} arrives at ({}, {}) ({rule})", n(*who), at.x, at.y);
            }
            Event::Area {
                by,
                label,
                squares,
                last_round,
                begins,
                rule,
            } => {
                let mut label = label.clone();
                if let Some(first) = label.get_mut(..1) {
                    first.make_ascii_uppercase();
                }
                let at = squares
                    .iter()
                    .map(|p| format!("({}, {})", p.x, p.y))
                    .collect::<Vec<_>>()
                    .join(", ");
                if *begins {
                    let _ = write!(s, "{label} covers {at}");
                    if let Some(by) = by {
                        let _ = write!(s, ", set by {}", n(*by));
                    }
                    let _ = write!(s, ", until the end of round {last_round} ({rule})");
                } else {
                    let _ = write!(s, "{label} at {at} is gone ({rule})");
                }
            }
            Event::Fell { who, feet, rule } => {
                let _ = write!(s, "{} falls {feet} ft ({rule})", n(*who));
            }
            Event::Wounded {
                who,
                roll,
                wound,
                modifiers,
                rule,
            } => {
                let _ = write!(
                    s,
                    "{} suffers a lasting wound ({rule}): d100 {roll} → {wound}",
                    n(*who)
                );
                if !modifiers.is_empty() {
                    s.push_str(" for the rest of the fight:");
                    modifiers_text(&mut s, modifiers);
                }
            }
            Event::Ammunition {
                who,
                weapon,
                loaded,
                left,
                rule,
            } => {
                let _ = write!(s, "{}'s {weapon}:", n(*who));
                if let Some((l, capacity)) = loaded {
                    let _ = write!(s, " {l} of {capacity} loaded");
                }
                if let Some(n) = left {
                    let comma = if loaded.is_some() { "," } else { "" };
                    let _ = write!(s, "{comma} {n} left");
                }
                let _ = write!(s, " ({rule})");
            }
            Event::Learned {
                who,
                about,
                facts,
                at,
                rule,
            } => {
                let _ = write!(s, "{} learns of {}", n(*who), n(*about));
                if let Some(at) = at {
                    let _ = write!(s, " at ({}, {})", at.x, at.y);
                }
                if !facts.is_empty() {
                    let _ = write!(s, ": {facts}");
                }
                let _ = write!(s, " ({rule})");
            }
            Event::Worn {
                who,
                what,
                by,
                left,
                rule,
            } => {
                let _ = write!(s, "{}'s armour loses {by} {what} ({rule})", n(*who));
                if shows("left") {
                    let _ = write!(s, "; {left} left until repaired");
                }
            }
            Event::Declared {
                who,
                declaration,
                rule,
            } => {
                let _ = write!(s, "{} announces {declaration} ({rule})", n(*who));
            }
            Event::Initiative {
                who,
                roll,
                total,
                rule,
            } => {
                let _ = write!(s, "{} initiative ({rule}): {roll}", n(*who));
                if *total != *roll as i32 {
                    let _ = write!(s, " → {total}");
                }
            }
            Event::ActionInitiative {
                who,
                action,
                die,
                roll,
                modifiers,
                total,
                rule,
            } => {
                let _ = write!(s, "{} {action} initiative ({rule}): d{die} {roll}", n(*who));
                modifiers_text(&mut s, modifiers);
                let _ = write!(s, " = {total}");
            }
            Event::Segment { segment, phase } => {
                let _ = write!(s, "segment {segment} ({phase})");
            }
            Event::Strike {
                attacker,
                target,
                attack,
                strike,
                strike_modifiers,
                defense,
                defense_modifiers,
                needed,
                roll,
                result,
                rule,
            } => {
                let _ = write!(
                    s,
                    "{} strikes {} with {attack} ({rule}): SC {strike}",
                    n(*attacker),
                    n(*target)
                );
                modifiers_text(&mut s, strike_modifiers);
                if shows("defense") {
                    let _ = write!(s, " vs DEF {defense}");
                    modifiers_text(&mut s, defense_modifiers);
                    let _ = write!(s, " → need {needed};");
                } else {
                    s.push_str(" vs DEF ?;");
                }
                let _ = write!(s, " d100 {roll} — {}", result.key());
            }
            Event::SideInitiative { side, roll, rule } => {
                let _ = write!(
                    s,
                    "{} group initiative ({rule}): {roll}",
                    roster.sides[side.index()].name
                );
            }
            Event::Order { groups } => {
                s.push_str("order: ");
                let parts: Vec<String> = groups
                    .iter()
                    .map(|g| g.iter().map(|id| n(*id)).collect::<Vec<_>>().join(" & "))
                    .collect();
                s.push_str(&parts.join(", "));
            }
            Event::Moved {
                who,
                from,
                to,
                feet,
                mode,
                hidden: _,
                rule,
            } => {
                let _ = write!(
                    s,
                    "{} moves {feet} ft ({mode}) from ({},{}) to ({},{}) ({rule})",
                    n(*who),
                    from.x,
                    from.y,
                    to.x,
                    to.y
                );
            }
            Event::Attack {
                attacker,
                target,
                attack,
                roll,
                modifiers,
                total,
                defense,
                versus,
                defense_modifiers,
                result,
                rule,
            } => {
                let _ = write!(
                    s,
                    "{} attacks {} with {attack} ({rule}): d20 {roll}",
                    n(*attacker),
                    n(*target)
                );
                modifiers_text(&mut s, modifiers);
                if shows("versus") {
                    let _ = write!(s, " = {total} vs {defense} {versus}");
                    if !defense_modifiers.is_empty() {
                        s.push_str(" [");
                        modifiers_text(&mut s, defense_modifiers);
                        s.push_str(" ]");
                    }
                } else {
                    let _ = write!(s, " = {total} vs {defense} ?");
                }
                let _ = write!(s, " — {}", result.key());
            }
            Event::Damage {
                target,
                roll,
                modifiers,
                normal,
                subdual,
                hp,
                rule,
            } => {
                let _ = write!(s, "{} takes damage ({rule}):", n(*target));
                // Damage without dice (bleeding, a flat amount) shows only what makes it up.
                if *roll != 0 || modifiers.is_empty() {
                    let _ = write!(s, " roll {roll}");
                }
                modifiers_text(&mut s, modifiers);
                let _ = write!(s, " → {normal} normal");
                if *subdual != 0 {
                    let _ = write!(s, " + {subdual} subdual");
                }
                if shows("hp") {
                    let _ = write!(s, "; {hp} hp left");
                }
            }
            Event::Healed {
                who,
                amount,
                hp,
                rule,
            } => {
                let _ = write!(s, "{} heals {amount} ({rule})", n(*who));
                if shows("hp") {
                    let _ = write!(s, "; {hp} hp");
                }
            }
            Event::Condition {
                who,
                condition,
                gained,
                rule,
            } => {
                let verb = if *gained { "is now" } else { "is no longer" };
                let _ = write!(s, "{} {verb} {condition} ({rule})", n(*who));
            }
            Event::Status {
                who,
                status,
                hp,
                rule,
            } => {
                if shows("hp") {
                    let _ = write!(s, "{} is {status} at {hp} hp ({rule})", n(*who));
                } else {
                    let _ = write!(s, "{} is {status} ({rule})", n(*who));
                }
            }
            Event::Skipped { who, reason, rule } => {
                let _ = write!(s, "{} cannot act: {reason} ({rule})", n(*who));
            }
            Event::Terrain {
                change,
                squares,
                rule,
            } => {
                let at = squares
                    .iter()
                    .map(|p| format!("({}, {})", p.x, p.y))
                    .collect::<Vec<_>>()
                    .join(", ");
                let now = match *change {
                    "obstacle" => "Obstacles now stand at",
                    "difficult" => "Difficult terrain now covers",
                    _ => "Plain ground again at",
                };
                let _ = write!(s, "{now} {at} ({rule})");
            }
            Event::Ruling { rule, text } => {
                let _ = write!(s, "{text} ({rule})");
            }
            Event::End {
                winner,
                rounds,
                reason,
                limit,
                losers,
            } => {
                let plural = if *rounds == 1 { "round" } else { "rounds" };
                match (winner, reason) {
                    (_, EndReason::Limit) => {
                        let what = limit.unwrap_or("round");
                        let _ =
                            write!(s, "stalemate: {what} limit reached after {rounds} {plural}");
                    }
                    (Some(side), _) => {
                        let _ = write!(
                            s,
                            "{} win after {rounds} {plural}: {}",
                            roster.sides[side.index()].name,
                            losers_text(losers, roster)
                        );
                    }
                    (None, EndReason::Defeated) => {
                        let _ = write!(s, "nobody is left standing after {rounds} {plural}");
                    }
                    (None, EndReason::Routed) => {
                        let _ = write!(
                            s,
                            "nobody is left fighting after {rounds} {plural}: {}",
                            losers_text(losers, roster)
                        );
                    }
                }
            }
        }
        s
    }

    /// The JSON object of the event (one line of the JSON Lines log).
    pub fn to_json(&self, round: u32, roster: &Roster) -> Value {
        let k = |id: &CombatantId| Value::String(roster.key(*id).to_string());
        let pos = |p: &Pos| json!([p.x, p.y]);
        let mut v = match self {
            Event::RoundStarted | Event::SegmentsOver => json!({}),
            Event::Check {
                who,
                purpose,
                dice,
                roll,
                modifiers,
                total,
                against,
                target,
                under,
                success,
                result,
                rule,
            } => {
                let mut v = json!({"purpose": purpose, "dice": dice, "roll": roll,
                        "modifiers": modifiers_json(modifiers), "total": total,
                        "against": against, "target": target, "under": under,
                        "success": success, "result": result, "rule": rule});
                match who {
                    Subject::Combatant(id) => v["who"] = k(id),
                    Subject::Side(side) => v["side"] = json!(roster.side_key(*side)),
                }
                v
            }
            Event::TurnStarted { who } | Event::TurnEnded { who } => json!({"who": k(who)}),
            Event::Acted {
                who,
                act,
                on,
                detail,
                rule,
            } => json!({"who": k(who), "act": act, "on": on.as_ref().map(k), "detail": detail,
                        "rule": rule}),
            Event::Forgone {
                who,
                what,
                on,
                reason,
                rule,
            } => json!({"who": k(who), "what": what, "on": on.as_ref().map(k), "reason": reason,
                        "rule": rule}),
            Event::Casting {
                who,
                spell,
                on,
                stage,
                detail,
                rule,
            } => json!({"who": k(who), "spell": spell, "on": on.as_ref().map(k), "stage": stage,
                        "detail": detail, "rule": rule}),
            Event::Arrived { who, at, rule } => {
                json!({"who": k(who), "at": [at.x, at.y], "rule": rule})
            }
            Event::Area {
                by,
                label,
                squares,
                last_round,
                begins,
                rule,
            } => json!({"by": by.as_ref().map(k), "label": label,
                        "squares": squares.iter().map(pos).collect::<Vec<_>>(),
                        "last_round": last_round,
                        "stage": if *begins { "begins" } else { "ends" }, "rule": rule}),
            Event::Fell { who, feet, rule } => json!({"who": k(who), "feet": feet, "rule": rule}),
            Event::Wounded {
                who,
                roll,
                wound,
                modifiers,
                rule,
            } => json!({"who": k(who), "roll": roll, "wound": wound,
                        "modifiers": modifiers_json(modifiers), "rule": rule}),
            Event::Worn {
                who,
                what,
                by,
                left,
                rule,
            } => json!({"who": k(who), "what": what, "by": by, "left": left, "rule": rule}),
            Event::Ammunition {
                who,
                weapon,
                loaded,
                left,
                rule,
            } => json!({"who": k(who), "weapon": weapon, "loaded": loaded.map(|l| l.0),
                        "capacity": loaded.map(|l| l.1), "left": left, "rule": rule}),
            Event::Learned {
                who,
                about,
                facts,
                at,
                rule,
            } => json!({"who": k(who), "about": k(about), "facts": facts,
                        "at": at.as_ref().map(pos), "rule": rule}),
            Event::Declared {
                who,
                declaration,
                rule,
            } => json!({"who": k(who), "declaration": declaration, "rule": rule}),
            Event::Initiative {
                who,
                roll,
                total,
                rule,
            } => json!({"who": k(who), "roll": roll, "total": total, "rule": rule}),
            Event::ActionInitiative {
                who,
                action,
                die,
                roll,
                modifiers,
                total,
                rule,
            } => json!({"who": k(who), "action": action, "die": die, "roll": roll,
                        "modifiers": modifiers_json(modifiers), "total": total, "rule": rule}),
            Event::Segment { segment, phase } => json!({"segment": segment, "phase": phase}),
            Event::Strike {
                attacker,
                target,
                attack,
                strike,
                strike_modifiers,
                defense,
                defense_modifiers,
                needed,
                roll,
                result,
                rule,
            } => json!({"attacker": k(attacker), "target": k(target), "attack": attack,
                        "strike": strike, "strike_modifiers": modifiers_json(strike_modifiers),
                        "defense": defense, "defense_modifiers": modifiers_json(defense_modifiers),
                        "needed": needed, "roll": roll, "result": result.key(), "rule": rule}),
            Event::SideInitiative { side, roll, rule } => {
                json!({"side": roster.side_key(*side), "roll": roll, "rule": rule})
            }
            Event::Order { groups } => json!({"groups": groups
                .iter()
                .map(|g| g.iter().map(k).collect::<Vec<_>>())
                .collect::<Vec<_>>()}),
            Event::Moved {
                who,
                from,
                to,
                feet,
                mode,
                hidden,
                rule,
            } => json!({"who": k(who), "from": pos(from), "to": pos(to), "feet": feet,
                        "mode": mode, "hidden": hidden, "rule": rule}),
            Event::Attack {
                attacker,
                target,
                attack,
                roll,
                modifiers,
                total,
                defense,
                versus,
                defense_modifiers,
                result,
                rule,
            } => json!({"attacker": k(attacker), "target": k(target), "attack": attack,
                        "roll": roll, "modifiers": modifiers_json(modifiers), "total": total,
                        "defense": defense, "versus": versus,
                        "defense_modifiers": modifiers_json(defense_modifiers),
                        "result": result.key(), "rule": rule}),
            Event::Damage {
                target,
                roll,
                modifiers,
                normal,
                subdual,
                hp,
                rule,
            } => json!({"target": k(target), "roll": roll, "modifiers": modifiers_json(modifiers),
                        "normal": normal, "subdual": subdual, "hp": hp, "rule": rule}),
            Event::Healed {
                who,
                amount,
                hp,
                rule,
            } => json!({"who": k(who), "amount": amount, "hp": hp, "rule": rule}),
            Event::Condition {
                who,
                condition,
                gained,
                rule,
            } => json!({"who": k(who), "condition": condition, "gained": gained, "rule": rule}),
            Event::Status {
                who,
                status,
                hp,
                rule,
            } => json!({"who": k(who), "status": status, "hp": hp, "rule": rule}),
            Event::Skipped { who, reason, rule } => {
                json!({"who": k(who), "reason": reason, "rule": rule})
            }
            Event::Terrain {
                change,
                squares,
                rule,
            } => json!({"change": change,
                        "squares": squares.iter().map(pos).collect::<Vec<_>>(), "rule": rule}),
            Event::Ruling { rule, text } => json!({"rule": rule, "text": text}),
            Event::End {
                winner,
                rounds,
                reason,
                limit,
                losers,
            } => {
                let text = match reason {
                    EndReason::Limit => format!("{} limit", limit.unwrap_or("round")),
                    _ => losers_text(losers, roster),
                };
                let losers: Vec<Value> = losers
                    .iter()
                    .map(|(side, by)| json!({"side": roster.side_key(*side), "by": by.key()}))
                    .collect();
                json!({"winner": winner.map(|s| roster.side_key(s).to_string()),
                       "rounds": rounds, "stalemate": *reason == EndReason::Limit,
                       "ending": reason.key(), "reason": text, "losers": losers})
            }
        };
        if let Value::Object(map) = &mut v {
            let mut out = serde_json::Map::new();
            out.insert("schema".into(), json!(EVENT_SCHEMA));
            out.insert("type".into(), json!(self.kind()));
            out.insert("round".into(), json!(round));
            out.append(map);
            return Value::Object(out);
        }
        v
    }
}

/// A side's name inside a sentence: "The goblins" becomes "the goblins".
fn side_in_sentence(name: &str) -> String {
    match name.strip_prefix("The ") {
        Some(rest) => format!("the {rest}"),
        None => name.to_string(),
    }
}

/// How the losing sides left the fight, in words: "the goblins routed", "the orcs fell",
/// "the goblins routed and the wolves fell".
fn losers_text(losers: &[(SideId, EndReason)], roster: &Roster) -> String {
    let parts: Vec<String> = losers
        .iter()
        .map(|(side, by)| {
            let verb = match by {
                EndReason::Routed => "routed",
                EndReason::Defeated | EndReason::Limit => "fell",
            };
            format!(
                "{} {verb}",
                side_in_sentence(&roster.sides[side.index()].name)
            )
        })
        .collect();
    match parts.split_last() {
        None => "nobody was left to fight them".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The JSON Lines objects of a fight's events, in order: every event inside a segment of a
/// segmented round (after a [`Event::Segment`], before the round's [`Event::SegmentsOver`] or the
/// next round) carries `"segment"`; the [`Event::SegmentsOver`] marker is not written.
pub fn json_lines(events: &[(u32, Event)], roster: &Roster) -> Vec<Value> {
    let mut out = Vec::with_capacity(events.len());
    let mut segment: Option<i32> = None;
    for (round, event) in events {
        match event {
            Event::SegmentsOver => {
                segment = None;
                continue;
            }
            Event::RoundStarted => segment = None,
            Event::Segment { segment: s, .. } => segment = Some(*s),
            Event::End { .. } => segment = None,
            _ => {}
        }
        let mut v = event.to_json(*round, roster);
        if let (Some(s), Some(map)) = (segment, v.as_object_mut()) {
            map.entry("segment").or_insert(json!(s));
        }
        out.push(v);
    }
    out
}
