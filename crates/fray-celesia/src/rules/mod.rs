//! The rules of Legends of Celesia combat, one module per part of the seed.

pub mod aid;
pub mod aid_check;
pub mod ammo;
pub mod animal;
pub mod attack;
pub mod belonging;
pub mod boost;
pub mod complex;
pub mod con_loss;
pub mod concealment;
pub mod confusion;
pub mod counter;
pub mod counterspell;
pub mod crit_deck;
pub mod degrees;
pub mod escape;
pub mod feint;
pub mod fire;
pub mod first_aid;
pub mod gauntlet;
pub mod grapple;
pub mod grip;
pub mod hazard;
pub mod injury;
pub mod intervene;
pub mod item;
pub mod legal;
pub mod line_of_effect;
pub mod magus;
pub mod maneuver;
pub mod maneuver_legal;
pub mod mounted;
pub mod movement;
pub mod multiweapon;
pub mod odds_key;
pub mod one_round;
pub mod ready;
pub mod recall;
pub mod round;
pub mod ruling;
pub mod run;
pub mod search;
pub mod shield;
pub mod simple;
pub mod sleight;
pub mod special;
pub mod spell;
pub mod spell_area;
pub mod spell_components;
pub mod spell_identify;
pub mod spell_lasting;
pub mod spell_resistance;
pub mod spell_weapon;
pub mod stance;
pub mod stray;
pub mod strike;
pub mod table_condition;
pub mod terrain;
pub mod thrown;
pub mod treat_wound;
pub mod wield;

use fray_core::event::Modifier;

/// Named modifiers of one roll, kept on the stack (the simulator allocates nothing for them);
/// turned into the event's list only when events are kept. The first `len` are `Some`.
#[derive(Debug, Clone, Copy)]
pub struct Mods {
    items: [Option<(&'static str, &'static str, i32)>; 12],
    len: usize,
}

impl Default for Mods {
    /// None. Written out (not derived) so that it is built in place: the derived one calls the
    /// array's `default` and copies its 480 bytes, on every attack bonus and defence. `None`
    /// is one word per entry to write (a null name), not five (issue 16).
    #[inline]
    fn default() -> Self {
        Mods {
            items: [None; 12],
            len: 0,
        }
    }
}

impl Mods {
    /// Adds a modifier (zero ones are left out; past twelve they are summed into the last).
    #[inline]
    pub fn push(&mut self, label: &'static str, rule: &'static str, value: i32) {
        if value == 0 {
            return;
        }
        if self.len < self.items.len() {
            self.items[self.len] = Some((label, rule, value));
            self.len += 1;
        } else if let Some(last) = &mut self.items[self.len - 1] {
            last.2 += value;
        }
    }
    /// Their sum.
    #[inline]
    pub fn total(&self) -> i32 {
        self.items[..self.len].iter().flatten().map(|m| m.2).sum()
    }
    /// As event modifiers.
    pub fn to_vec(&self) -> Vec<Modifier> {
        self.items[..self.len]
            .iter()
            .flatten()
            .map(|&(l, r, v)| Modifier::new(l, r, v))
            .collect()
    }
}

/// Where a roll's named modifiers go: [`Mods`] keeps them for the log, [`Total`] only sums them
/// (the default tactics weigh totals and never log them, so they build no list).
pub trait ModifierSink {
    /// Adds a modifier.
    fn push(&mut self, label: &'static str, rule: &'static str, value: i32);
}

impl ModifierSink for Mods {
    #[inline]
    fn push(&mut self, label: &'static str, rule: &'static str, value: i32) {
        Mods::push(self, label, rule, value);
    }
}

/// The sum of modifiers without their names: the same as [`Mods::total`] of the same pushes
/// (a zero one adds nothing there either; past twelve, `Mods` sums into its last).
#[derive(Debug, Clone, Copy, Default)]
pub struct Total(pub i32);

impl ModifierSink for Total {
    #[inline]
    fn push(&mut self, _label: &'static str, _rule: &'static str, value: i32) {
        self.0 += value;
    }
}

/// Reasons for advantage or disadvantage, counted once each (CEL-A5).
#[derive(Debug, Clone, Copy)]
pub struct Sources {
    /// The first `len` entries are `Some`; the rest `None` (one word to build each, not two).
    items: [Option<&'static str>; 10],
    len: usize,
}

impl Default for Sources {
    /// None. Written out (not derived) so that it is built in place, as [`Mods::default`].
    #[inline]
    fn default() -> Self {
        Sources {
            items: [None; 10],
            len: 0,
        }
    }
}

impl Sources {
    /// Adds a source once.
    #[inline]
    pub fn add(&mut self, name: &'static str) {
        if !self.items[..self.len].contains(&Some(name)) && self.len < self.items.len() {
            self.items[self.len] = Some(name);
            self.len += 1;
        }
    }
    /// How many distinct sources.
    #[inline]
    pub fn count(&self) -> i32 {
        self.len as i32
    }
    /// Their names, joined.
    pub fn text(&self) -> String {
        self.items[..self.len]
            .iter()
            .flatten()
            .copied()
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Appends a roll's advantage and disadvantage sources and its kept-dice pool to the name of
/// the attack the log shows (`longsword; advantage: flanked target; 2d20kh1 [...]`). [CEL-R4.5]
pub fn name_sources(name: &mut String, adv: &Sources, dis: &Sources, pool: Option<&str>) {
    if adv.count() > 0 {
        name.push_str(&format!("; advantage: {}", adv.text()));
    }
    if dis.count() > 0 {
        name.push_str(&format!("; disadvantage: {}", dis.text()));
    }
    if let Some(pool) = pool {
        name.push_str(&format!("; {pool}"));
    }
}

/// What a d20 roll other than an attack is, as the advantage table names them (CEL-R4.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckKind {
    /// A Fortitude or Reflex saving throw.
    Save,
    /// A Will saving throw (a head injury gives it disadvantage, CEL-R18).
    Will,
    /// An ability check (Constitution to keep running).
    Ability,
    /// A skill check; `physical` for a Strength or Dexterity skill (Disable Device); every
    /// other skill is an Intelligence, Wisdom or Charisma one (Heal, Intimidate, Spellcraft,
    /// Survival, Bluff; a concentration check, the caster's casting ability's, CEL-A34).
    Skill {
        /// STR- or DEX-based.
        physical: bool,
    },
    /// A check of a skill the crippling-injury table names (CEL-R18): a skill check as above,
    /// with its injuries' numbers and disadvantage too.
    Crippling(Crippled),
}

/// The skills fray rolls that Table: Crippling Injuries names (CEL-R18: Finger −1, Hand, Arm,
/// Foot/Leg disadvantage; Scar and Major Scar +1 Intimidate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Crippled {
    /// Ride (finger, hand, leg, arm rows).
    Ride,
    /// Disable Device (finger, hand, arm rows).
    DisableDevice,
    /// Sleight of Hand (finger, hand, arm rows).
    SleightOfHand,
    /// Intimidate (the scars' +1).
    Intimidate,
}

impl Crippled {
    /// A Strength or Dexterity skill (blindness gives it disadvantage, CEL-R4.5 row 1); else a
    /// Charisma one (a head injury does, CEL-R18).
    pub fn physical(self) -> bool {
        self != Crippled::Intimidate
    }

    /// CEL-R18: the injuries' disadvantage sources on this skill: "Hand Injury: disadvantage
    /// penalty on all Climb, Craft, Disable Device, Perform (...), Ride, Sleight of Hand, and
    /// Swim checks", the Arm Injury's the same (and Acrobatics), the Foot/Leg Injury's on
    /// "Acrobatics, Climb, Perform (dance), Ride, and Stealth checks". Each row one source,
    /// however many of that part are hurt (CEL-A5, A23).
    pub fn disadvantage(self, injuries: &crate::state::Injuries, dis: &mut Sources) {
        if self == Crippled::Intimidate {
            return;
        }
        if injuries.hands.lost() > 0 {
            dis.add("hand injury");
        }
        if injuries.arms.lost() > 0 {
            dis.add("arm injury");
        }
        if self == Crippled::Ride && injuries.legs.lost() > 0 {
            dis.add("leg injury");
        }
    }

    /// CEL-R18: the injuries' number on this skill: "Finger Injury: -1 penalty to all Climb,
    /// Craft, Disable Device, Perform (...), Ride, and Sleight of Hand checks", −1 per finger
    /// lost; "Scar ... +1 bonus to Intimidate checks" (and the Major Scar's), +1 per scar —
    /// numeric penalties and bonuses stack (CEL-A23).
    pub fn modifier(self, injuries: &crate::state::Injuries) -> Option<Modifier> {
        let (name, value) = match self {
            Crippled::Intimidate => (
                "scars",
                i32::from(injuries.scars) + i32::from(injuries.major_scars),
            ),
            _ => ("finger injuries", -i32::from(injuries.fingers.lost())),
        };
        (value != 0).then(|| Modifier::new(name, "CEL-R18", value))
    }
}

/// Disadvantage on `who`'s saves and checks: shaken and sickened (a dirty trick's, or two head
/// injuries), frightened and panicked (the GM's), blind on Strength and Dexterity skill checks, and a head injury on Intelligence,
/// Wisdom and Charisma skill checks and Will saves. [CEL-R4.5 rows 1, 9, 12, 15, 16; CEL-R10.7;
/// CEL-R18]
pub fn check_disadvantage(
    state: &crate::state::State,
    who: fray_core::CombatantId,
    kind: CheckKind,
) -> Sources {
    use crate::state::Trick;
    let f = state.f(who);
    let mut dis = Sources::default();
    if f.has_trick(Trick::Shaken) {
        dis.add("shaken");
    }
    if f.has_trick(Trick::Sickened) || f.injuries.sickened() {
        dis.add("sickened");
    }
    // CEL-R4.5 rows 9, 12: frightened, panicked.
    table_condition::check_disadvantage(f, kind, &mut dis);
    let (physical, mental) = match kind {
        CheckKind::Skill { physical } => (physical, !physical),
        CheckKind::Crippling(skill) => {
            skill.disadvantage(&f.injuries, &mut dis);
            (skill.physical(), !skill.physical())
        }
        _ => (false, false),
    };
    if physical && (f.has_trick(Trick::Blinded) || f.injuries.blind()) {
        dis.add("blind");
    }
    // CEL-R18 Head Injury: "disadvantage to all Intelligence-, Wisdom-, and Charisma-based
    // checks and skill checks, and to Will saving throws" (one head injury on; more do not
    // stack it: one source, CEL-A5).
    if f.injuries.head > 0 && (kind == CheckKind::Will || mental) {
        dis.add("head injury");
    }
    dis
}

/// Rolls `who`'s d20 for a save or check with its disadvantage (|n| + 1 d20s, the lowest kept,
/// CEL-R4.5): the kept die and the dice's text for the log (`d20`, or
/// `2d20kl1 [(3), 17] (disadvantage: shaken)`).
pub fn roll_check_die(
    state: &crate::state::State,
    table: &mut fray_core::Table<'_, crate::Celesia>,
    who: fray_core::CombatantId,
    kind: CheckKind,
    rule: &'static str,
) -> Result<(u32, String), fray_core::Interrupt> {
    roll_check_die_with(table, who, check_disadvantage(state, who, kind), rule)
}

/// [`roll_check_die`] with the disadvantage sources given (a check's own besides the
/// bearer's: a major scar's on Bluff, CEL-R18).
pub fn roll_check_die_with(
    table: &mut fray_core::Table<'_, crate::Celesia>,
    who: fray_core::CombatantId,
    dis: Sources,
    rule: &'static str,
) -> Result<(u32, String), fray_core::Interrupt> {
    let (die, pool) = attack::roll_d20(
        table,
        who,
        -dis.count(),
        fray_core::protocol::RollPurpose::Check,
        rule,
    )?;
    let dice = match pool {
        Some(pool) if table.events_enabled() => format!("{pool} (disadvantage: {})", dis.text()),
        _ => "d20".to_string(),
    };
    Ok((die, dice))
}

/// CEL-G13 ("manual adjustment of any roll, DC, DV or HP"): `dc` moved by the GM's adjustment to
/// the DCs of `who`'s saves and checks (`cond WHO dc+N`), and the words the log sets before it.
pub fn gm_adjusted_dc(
    state: &crate::state::State,
    who: fray_core::CombatantId,
    dc: i32,
) -> (i32, &'static str) {
    match state.f(who).gm_dc {
        0 => (dc, "DC"),
        gm => (dc + gm, "GM-adjusted DC"),
    }
}

/// A d20 check of `who` with one named modifier against a DC (a success at DC or more), logged
/// with the words for its two outcomes: saves and ability or skill checks alike, with their
/// disadvantage (CEL-R4.5).
#[derive(Debug, Clone, Copy)]
pub struct D20Check {
    /// What the check is for (`coup de grace`, `keep running`).
    pub purpose: &'static str,
    /// The modifier's name (`Fort`, `CON`).
    pub modifier: &'static str,
    /// The modifier.
    pub bonus: i32,
    /// The DC.
    pub dc: i32,
    /// A save, an ability check or a skill check.
    pub kind: CheckKind,
    /// The log's words on success and on failure.
    pub results: (&'static str, &'static str),
    /// The rule.
    pub rule: &'static str,
}

impl D20Check {
    /// Rolls the d20 (with disadvantage where the bearer's conditions give it), logs the check
    /// and says whether it succeeded.
    pub fn roll(
        &self,
        state: &crate::state::State,
        table: &mut fray_core::Table<'_, crate::Celesia>,
        who: fray_core::CombatantId,
    ) -> Result<bool, fray_core::Interrupt> {
        Ok(self.roll_aided(state, table, who, 0)?.0)
    }

    /// [`D20Check::roll`] with an Aid Another bonus (or penalty) taken for it (CEL-R9, R6.4;
    /// logged as its own modifier when not 0): whether it succeeded, its total and the DC it
    /// was against (the GM's adjustment included).
    pub fn roll_aided(
        &self,
        state: &crate::state::State,
        table: &mut fray_core::Table<'_, crate::Celesia>,
        who: fray_core::CombatantId,
        aid: i32,
    ) -> Result<(bool, i32, i32), fray_core::Interrupt> {
        let (roll, dice) = roll_check_die(state, table, who, self.kind, self.rule)?;
        // CEL-R18: the crippling injuries' number on a skill the table names.
        let crippled = match self.kind {
            CheckKind::Crippling(skill) => skill.modifier(&state.f(who).injuries),
            _ => None,
        };
        let total = roll as i32 + self.bonus + aid + crippled.as_ref().map_or(0, |m| m.value);
        let (dc, against) = gm_adjusted_dc(state, who, self.dc);
        let success = total >= dc;
        table.emit(|| fray_core::event::Event::Check {
            who: fray_core::event::Subject::Combatant(who),
            purpose: self.purpose,
            dice,
            roll,
            modifiers: {
                let mut m = vec![Modifier::new(self.modifier, "", self.bonus)];
                if aid != 0 {
                    m.push(Modifier::new("aid another", "CEL-R9", aid));
                }
                m.extend(crippled.clone());
                m
            },
            total,
            against,
            target: dc,
            under: false,
            success: Some(success),
            result: if success {
                self.results.0
            } else {
                self.results.1
            }
            .into(),
            rule: self.rule,
        });
        Ok((success, total, dc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::state::Injury;
    use fray_core::CombatantId;

    /// CEL-R18: the crippling injuries on the skills fray rolls that the table names — a
    /// finger's −1 each (stacking, CEL-A23), a hand's, an arm's and (Ride only) a leg's
    /// disadvantage, one source each, and the scars' +1 Intimidate; Escape Artist is named by
    /// no row.
    #[test]
    fn crippling_injuries_on_named_skills() {
        let mut s = Fixture::new()
            .with("ann", "h", [0, 0], FIGHTER)
            .monster("orc", "o", [1, 0], "orc")
            .state();
        let ann = CombatantId(0);
        let ride = CheckKind::Crippling(Crippled::Ride);
        let device = CheckKind::Crippling(Crippled::DisableDevice);
        let intimidate = aid_check::Skill::Intimidate.kind();
        assert_eq!(aid_check::Skill::Ride.kind(), ride);
        assert_eq!(check_disadvantage(&s, ann, ride).count(), 0);
        assert_eq!(Crippled::Ride.modifier(&s.f(ann).injuries), None);
        for injury in [Injury::Finger, Injury::Finger, Injury::Leg, Injury::Scar] {
            s.fm(ann).injuries.take(injury);
        }
        s.fm(ann).injuries.take(Injury::MajorScar);
        let inj = s.f(ann).injuries;
        assert_eq!(Crippled::Ride.modifier(&inj).map(|m| m.value), Some(-2));
        assert_eq!(
            Crippled::SleightOfHand.modifier(&inj).map(|m| m.value),
            Some(-2)
        );
        assert_eq!(
            Crippled::Intimidate.modifier(&inj).map(|m| m.value),
            Some(2)
        );
        // The leg: Ride's disadvantage, not Disable Device's.
        assert_eq!(check_disadvantage(&s, ann, ride).text(), "leg injury");
        assert_eq!(check_disadvantage(&s, ann, device).count(), 0);
        s.fm(ann).injuries.take(Injury::Hand);
        s.fm(ann).injuries.take(Injury::Arm);
        assert_eq!(check_disadvantage(&s, ann, ride).count(), 3);
        assert_eq!(check_disadvantage(&s, ann, device).count(), 2);
        // Intimidate is a Charisma skill: no hand or arm row; a head injury's disadvantage.
        assert_eq!(check_disadvantage(&s, ann, intimidate).count(), 0);
        s.fm(ann).injuries.take(Injury::Head);
        assert_eq!(
            check_disadvantage(&s, ann, intimidate).text(),
            "head injury"
        );
        assert_eq!(check_disadvantage(&s, ann, device).count(), 2);
        let escape = aid_check::Skill::EscapeArtist.kind();
        assert_eq!(check_disadvantage(&s, ann, escape).count(), 0);
    }
}
