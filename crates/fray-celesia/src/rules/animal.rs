//! Handle an Animal (CEL-R9, simple: "You command an animal to perform a trick it knows by
//! attempting a Handle Animal check") and Push an Animal (CEL-R12, full: "… a trick it doesn't
//! know but is physically capable of doing … If the animal has taken hit point damage,
//! nonlethal damage, or ability score damage, the DC of this check increases by 2. Characters
//! with animal companions … can push their companions as simple actions instead").
//!
//! A trained animal is a combatant whose entry names its `handler` (a combatant of its side),
//! the `tricks` it knows (a closed list, [`Trick`]) and whether it is an animal `companion`. It
//! does not act on its own: on its turn it may do only what its last successful command says
//! ([`obeys`]), and with no command it takes no action. The seed gives no DCs and no trick
//! list: Pathfinder's are the defaults (`handle_dc` 10, `push_dc` 25; its tricks attack, come,
//! defend, down, heel, stay), each reading in docs/celesia.md *Readings*.

use super::line_of_effect;
use crate::choice::Choice;
use crate::state::{State, CHA};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// The rule of Handle an Animal.
pub const HANDLE_RULE: &str = "CEL-R9";

/// The rule of Push an Animal.
pub const PUSH_RULE: &str = "CEL-R12";

/// Pathfinder's DC to handle an animal (the default of `handle_dc`).
pub const DEFAULT_HANDLE_DC: i32 = 10;

/// Pathfinder's DC to push an animal (the default of `push_dc`).
pub const DEFAULT_PUSH_DC: i32 = 25;

/// The seed's increase of the push DC for a hurt animal. [CEL-R12 Push an Animal]
pub const HURT_DC: i32 = 2;

/// How far a handler's command carries, in feet (the default of `handle_feet`; the seed and
/// Pathfinder give no range: fray's reading).
pub const DEFAULT_FEET: i32 = 60;

/// The farthest `handle_feet` the GM may set.
pub const MAX_FEET: i32 = 1000;

/// A trick fray plays (Pathfinder's Handle Animal tricks whose effect in a fight fray can state
/// exactly; docs/celesia.md *Readings*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Trick {
    /// Attack the foe the handler points to, until it is down or gone.
    Attack,
    /// Come to its handler: move next to it; done once it ends a turn there.
    Come,
    /// Defend its handler: stay by it, attack only foes next to it.
    Defend,
    /// Break off from combat: no attack; it may move or take total defense.
    Down,
    /// Guard: stay in place and keep others from approaching: attack a foe next to it, and
    /// make attacks of opportunity on any foe it threatens.
    Guard,
    /// Follow its handler closely: move next to it, no attack.
    Heel,
    /// Stay in place: no action.
    Stay,
}

impl Trick {
    /// Every trick, in the order the lists give them.
    pub const ALL: [Trick; 7] = [
        Trick::Attack,
        Trick::Come,
        Trick::Defend,
        Trick::Down,
        Trick::Guard,
        Trick::Heel,
        Trick::Stay,
    ];

    /// The key in files and commands.
    pub fn key(self) -> &'static str {
        match self {
            Trick::Attack => "attack",
            Trick::Come => "come",
            Trick::Defend => "defend",
            Trick::Down => "down",
            Trick::Guard => "guard",
            Trick::Heel => "heel",
            Trick::Stay => "stay",
        }
    }

    /// The trick of a key.
    pub fn from_key(key: &str) -> Option<Trick> {
        Trick::ALL.into_iter().find(|t| t.key() == key)
    }

    /// Whether the command names a foe (`attack FOE`).
    pub fn needs_target(self) -> bool {
        self == Trick::Attack
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// The tricks an animal knows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Tricks(u8);

impl Tricks {
    /// Whether it knows `trick`.
    pub fn knows(self, trick: Trick) -> bool {
        self.0 & trick.bit() != 0
    }

    /// Learns `trick`.
    pub fn learn(&mut self, trick: Trick) {
        self.0 |= trick.bit();
    }
}

/// A trained animal's handling (the entry's `handler`, `tricks`, `companion`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Trained {
    /// Its handler's key as the entry says it (resolved when the encounter is built).
    pub handler_key: String,
    /// Its handler.
    pub handler: CombatantId,
    /// The tricks it knows.
    pub tricks: Tricks,
    /// An animal companion: its handler pushes it as a simple action.
    pub companion: bool,
}

/// A command that stands: the trick and the foe it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Command {
    /// The trick.
    pub trick: Trick,
    /// The foe of `attack`.
    pub target: Option<CombatantId>,
}

/// Whether a creature with these INT score and mind is an animal: "animal Intelligence (1 or
/// 2)", the seed's words (CEL-R11 Feint); a mindless creature is none.
pub fn is_animal(int: i32, mindless: bool) -> bool {
    (1..=2).contains(&int) && !mindless
}

/// `who`'s handling, if it is a trained animal not ridden (a ridden mount acts as its rider
/// directs, CEL-R21: its rider's rules, not these).
pub fn trained(state: &State, who: CombatantId) -> Option<&Trained> {
    state
        .p(who)
        .animal
        .as_ref()
        .filter(|_| state.f(who).rider.is_none())
}

/// The command `animal` is carrying out now: its last successful one, unless done (an attack
/// whose foe is down or gone). [CEL-R9 Handle an Animal]
pub fn current(state: &State, animal: CombatantId) -> Option<Command> {
    let c = state.f(animal).command?;
    match c.target {
        Some(t) if !state.up(t) => None,
        _ => Some(c),
    }
}

/// The DC to handle (or push) `animal`: `handle_dc`, or `push_dc` + 2 if it has taken hit
/// point, nonlethal or ability damage (Constitution damage or drain; a spell's penalty is no
/// damage). [CEL-R9, R12]
pub fn dc(state: &State, animal: CombatantId, push: bool) -> (i32, bool) {
    if !push {
        return (state.options.handle_dc, false);
    }
    let f = state.f(animal);
    let ability_damage = f.drained.iter().any(|p| {
        matches!(
            p.source,
            crate::spell::PenaltySource::Damage | crate::spell::PenaltySource::Drain
        )
    });
    let hurt = f.hp < state.p(animal).max_hp || f.nonlethal > 0 || ability_damage;
    (state.options.push_dc + if hurt { HURT_DC } else { 0 }, hurt)
}

/// Acts Handle an Animal takes `who`: none (a free action) with its class ability
/// `handle_free`, once a turn, while the GM's free-action limit allows one (CEL-G2); else 1 (a
/// simple action). [CEL-R9: "Some class abilities let characters attempt this as a free
/// action"; adopted reading: one free attempt a turn]
pub fn handle_acts(state: &State, who: CombatantId) -> i32 {
    let f = state.f(who);
    let free = state.p(who).handle_free
        && f.free_handle_turn != Some(f.turns)
        && super::legal::free_action_left(false, state, who, "handle").is_ok();
    if free {
        0
    } else {
        1
    }
}

/// Acts a push takes: 3 (a full action), 1 for an animal companion. [CEL-R12]
pub fn push_acts(state: &State, animal: CombatantId) -> i32 {
    if state.p(animal).animal.as_ref().is_some_and(|a| a.companion) {
        1
    } else {
        3
    }
}

/// The commands `who` may give its animals now (the legality check filters them).
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if !state.p(who).handles {
        return;
    }
    for a in state.ids() {
        let Some(t) = trained(state, a).filter(|t| t.handler == who) else {
            continue;
        };
        for trick in Trick::ALL {
            let make = |target| {
                if t.tricks.knows(trick) {
                    Choice::Handle(a, trick, target)
                } else {
                    Choice::Push(a, trick, target)
                }
            };
            if trick.needs_target() {
                for foe in state.ids().filter(|&o| state.enemies(a, o) && state.up(o)) {
                    out.push(make(Some(foe)));
                }
            } else {
                out.push(make(None));
            }
        }
    }
}

/// Whether `who` may handle (or push) `animal` to do `trick` on `target`: its handler, the
/// animal up, in sight and within `handle_feet`, the trick known (handle) or not (push), the
/// foe of `attack` a foe of the animal the handler sees. [CEL-R9, R12]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    (animal, trick, target): (CombatantId, Trick, Option<CombatantId>),
    push: bool,
) -> Result<(), Illegal> {
    let rule = if push { PUSH_RULE } else { HANDLE_RULE };
    let name = |c: CombatantId| state.roster.key(c).to_string();
    let Some(t) = state.p(animal).animal.as_ref() else {
        return no(explain, rule, || {
            format!(
                "{} is no trained animal (its entry names no `handler`)",
                name(animal)
            )
        });
    };
    if t.handler != who {
        return no(explain, rule, || {
            format!(
                "only its handler, {}, commands {}",
                name(t.handler),
                name(animal)
            )
        });
    }
    if !state.up(animal) {
        return no(explain, rule, || format!("{} is down", name(animal)));
    }
    if state.f(animal).rider.is_some() {
        return no(explain, "CEL-R21", || {
            format!(
                "{} is ridden: a mount acts as its rider directs",
                name(animal)
            )
        });
    }
    let feet = state.options.handle_feet;
    if state.feet_between(who, animal) > feet {
        return no(explain, rule, || {
            format!(
                "{} is more than {feet} ft away (`handle_feet`): a command reaches an animal \
                 within sight and that range",
                name(animal)
            )
        });
    }
    line_of_effect::check(explain, state, who, animal, rule)?;
    let knows = t.tricks.knows(trick);
    if knows && push {
        return no(explain, PUSH_RULE, || {
            format!(
                "{} knows `{}`: handle it (CEL-R9 Handle an Animal); fray plays no push past \
                 an animal's limits",
                name(animal),
                trick.key()
            )
        });
    }
    if !knows && !push {
        return no(explain, HANDLE_RULE, || {
            format!(
                "{} does not know `{}`: push it (CEL-R12 Push an Animal)",
                name(animal),
                trick.key()
            )
        });
    }
    match (trick.needs_target(), target) {
        (true, None) => no(explain, rule, || {
            format!("`{}` names the foe to attack", trick.key())
        }),
        (false, Some(_)) => no(explain, rule, || format!("`{}` names no foe", trick.key())),
        (true, Some(foe)) => {
            if !state.enemies(animal, foe) || !state.up(foe) {
                return no(explain, rule, || {
                    format!("{} is no foe of {} still up", name(foe), name(animal))
                });
            }
            line_of_effect::check(explain, state, who, foe, rule)
        }
        (false, None) => Ok(()),
    }
}

/// Handle an Animal or Push an Animal: a Handle Animal check (d20 + the handler's
/// `handle_animal`, default its CHA modifier) against the DC ([`dc`]); on a success the command
/// stands (the last one is replaced), on a failure nothing changes. [CEL-R9, R12]
pub fn command(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    (animal, trick, target): (CombatantId, Trick, Option<CombatantId>),
    push: bool,
) -> Result<(), Interrupt> {
    let rule = if push { PUSH_RULE } else { HANDLE_RULE };
    let (dc, hurt) = dc(state, animal, push);
    let words = said(state, trick, target);
    table.emit(|| Event::Acted {
        who,
        act: if push { "pushes" } else { "commands" },
        on: Some(animal),
        detail: if hurt {
            format!("`{words}` (Handle Animal, DC {dc}: +{HURT_DC} the animal is hurt)")
        } else {
            format!("`{words}` (Handle Animal, DC {dc})")
        },
        rule,
    });
    let check = super::D20Check {
        purpose: if push {
            "Push an Animal"
        } else {
            "Handle an Animal"
        },
        modifier: "Handle Animal",
        bonus: state.skill(who, state.p(who).handle_animal, CHA),
        dc,
        kind: super::CheckKind::Skill { physical: false },
        results: ("the animal obeys", "the animal does not obey"),
        rule,
    };
    if !check.roll(state, table, who)? {
        return Ok(());
    }
    state.fm(animal).command = Some(Command { trick, target });
    table.emit(|| Event::Acted {
        who: animal,
        act: "obeys",
        on: None,
        detail: format!("`{words}`, until another command replaces it or it is done"),
        rule,
    });
    Ok(())
}

/// The command in words (`attack orc-1`, `come`).
fn said(state: &State, trick: Trick, target: Option<CombatantId>) -> String {
    match target {
        Some(t) => format!("{} {}", trick.key(), state.roster.key(t)),
        None => trick.key().to_string(),
    }
}

/// Whether `choice` brings `animal` toward its handler: a move toward it, or a move or step to
/// a square nearer it.
fn toward_handler(state: &State, animal: CombatantId, handler: CombatantId, c: &Choice) -> bool {
    let nearer = |to| state.gap_from(animal, to, handler) < state.gap(animal, handler);
    match *c {
        Choice::Approach(t) => t == handler,
        Choice::MoveTo(to) => nearer(to),
        Choice::Step(d) => nearer(state.f(animal).pos.step(d)),
        _ => false,
    }
}

/// Whether `foe` is next to `handler` (the foes `defend` attacks).
fn at_handler(state: &State, handler: CombatantId, foe: CombatantId) -> bool {
    state.enemies(handler, foe) && state.gap(handler, foe) == 1
}

/// Whether a trained animal's command lets it take `choice` on its turn (ending the turn always
/// does): `attack FOE` an attack on, a charge of or a move toward FOE, a step, standing up;
/// `come`, `heel` a move or step toward its handler, standing up; `defend` those, and an attack
/// on (or a move toward) a foe next to its handler; `down` a move, a step, standing up, total
/// defense; `stay`, or no command, nothing. [CEL-R9 Handle an Animal]
pub fn obeys(
    explain: bool,
    state: &State,
    animal: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let Some(t) = trained(state, animal) else {
        return Ok(());
    };
    if *choice == Choice::End {
        return Ok(());
    }
    let handler = t.handler;
    let command = current(state, animal);
    let ok = match command.map(|c| (c.trick, c.target)) {
        None | Some((Trick::Stay, _)) => false,
        Some((Trick::Attack, foe)) => {
            matches!(choice, Choice::Step(_) | Choice::StandUp)
                || choice.goes_at().is_some_and(|t| Some(t) == foe)
        }
        Some((Trick::Come | Trick::Heel, _)) => {
            *choice == Choice::StandUp || toward_handler(state, animal, handler, choice)
        }
        Some((Trick::Defend, _)) => {
            *choice == Choice::StandUp
                || toward_handler(state, animal, handler, choice)
                || choice
                    .goes_at()
                    .is_some_and(|t| at_handler(state, handler, t))
        }
        Some((Trick::Down, _)) => matches!(
            choice,
            Choice::MoveTo(_) | Choice::Step(_) | Choice::StandUp | Choice::TotalDefense
        ),
        Some((Trick::Guard, _)) => {
            *choice == Choice::StandUp
                || matches!(*choice, Choice::Attack(t, _) | Choice::Unarmed(t)
                    if state.enemies(animal, t) && state.gap(animal, t) <= 1)
        }
    };
    Illegal::unless(ok, explain, HANDLE_RULE, || {
        let now = match command {
            Some(c) => format!("its command is `{}`", said(state, c.trick, c.target)),
            None => "it has no command".to_string(),
        };
        format!(
            "a trained animal does only what its handler commands ({now}; {})",
            match command.map(|c| c.trick) {
                None | Some(Trick::Stay) => "it takes no action",
                Some(Trick::Attack) => "it attacks, charges or moves toward that foe, or steps",
                Some(Trick::Come | Trick::Heel) => "it moves toward its handler",
                Some(Trick::Defend) =>
                    "it moves toward its handler or attacks a foe next to its handler",
                Some(Trick::Down) => "it moves, steps or takes total defense, and attacks nobody",
                Some(Trick::Guard) => "it stays where it is and attacks only a foe next to it",
            }
        )
    })
}

/// The moves toward its handler a `come`, `heel` or `defend` animal has beyond the usual list
/// (which moves toward foes only).
pub fn animal_options(state: &State, animal: CombatantId, out: &mut Vec<Choice>) {
    let Some(t) = trained(state, animal) else {
        return;
    };
    let toward = matches!(
        current(state, animal).map(|c| c.trick),
        Some(Trick::Come | Trick::Heel | Trick::Defend)
    );
    if toward && state.up(t.handler) {
        out.push(Choice::Approach(t.handler));
    }
}

/// Whether a trained animal makes an attack of opportunity on `foe`: only on the foe of its
/// `attack` command, or under `defend` on a foe next to its handler; with any other command or
/// none, on nobody. [CEL-R9, R15]
pub fn may_strike(state: &State, animal: CombatantId, foe: CombatantId) -> bool {
    let Some(t) = trained(state, animal) else {
        return true;
    };
    match current(state, animal) {
        Some(Command {
            trick: Trick::Attack,
            target,
        }) => target == Some(foe),
        Some(Command {
            trick: Trick::Defend,
            ..
        }) => at_handler(state, t.handler, foe),
        // Guard: "prevents others from approaching": any foe it threatens.
        Some(Command {
            trick: Trick::Guard,
            ..
        }) => state.enemies(animal, foe),
        _ => false,
    }
}

/// At the end of a trained animal's turn, a trick that is done ends: `come` once it is next to
/// its handler, `attack` once its foe is down or gone. [CEL-R9 Handle an Animal]
#[inline]
pub fn end_of_turn(state: &mut State, table: &mut Table<'_, Celesia>, animal: CombatantId) {
    // At every turn's end: this test inline in the caller, the rest out of line (issue 16).
    if let Some(c) = state.f(animal).command {
        command_done(state, table, animal, c);
    }
}

/// [`end_of_turn`], for an animal under the command `c`.
#[inline(never)]
fn command_done(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    animal: CombatantId,
    c: Command,
) {
    let Some(handler) = trained(state, animal).map(|t| t.handler) else {
        return;
    };
    let done = match c.trick {
        Trick::Come => state.gap(animal, handler) <= 1,
        Trick::Attack => current(state, animal).is_none(),
        _ => false,
    };
    if done {
        state.fm(animal).command = None;
        let words = said(state, c.trick, c.target);
        table.emit(|| Event::Acted {
            who: animal,
            act: "has done its trick",
            on: None,
            detail: format!("`{words}`: it waits for its next command"),
            rule: HANDLE_RULE,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::state::Asking;
    use fray_core::driver::ScriptedDriver;
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;

    const RHEA: CombatantId = CombatantId(0);
    const GREY: CombatantId = CombatantId(1);
    const ASH: CombatantId = CombatantId(2);
    const ORC: CombatantId = CombatantId(3);

    /// Rhea (Handle Animal +5) between her wolf Grey (knows attack, come) and her companion Ash
    /// (knows attack), an orc next to Grey.
    fn fight() -> State {
        let mut s = Fixture::new()
            .with(
                "rhea",
                "rangers",
                [0, 1],
                &format!("{FIGHTER}\nhandle_animal = 5"),
            )
            .with(
                "grey",
                "rangers",
                [0, 0],
                "monster = \"wolf\"\nhandler = \"rhea\"\ntricks = [\"attack\", \"come\"]",
            )
            .with(
                "ash",
                "rangers",
                [0, 3],
                "monster = \"wolf\"\nhandler = \"rhea\"\ntricks = [\"attack\"]\ncompanion = true",
            )
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        for id in s.ids().collect::<Vec<_>>() {
            s.fm(id).acts_left = 3;
        }
        s
    }

    fn legal(s: &State, who: CombatantId, c: Choice) -> bool {
        super::super::legal::check_action(false, s, who, &c).is_ok()
    }

    fn command_with(s: &mut State, die: u32, order: (CombatantId, Trick, bool)) -> Vec<Event> {
        let mut driver = ScriptedDriver::new(vec![die], Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        let (animal, trick, push) = order;
        let on = trick.needs_target().then_some(ORC);
        command(s, &mut table, RHEA, (animal, trick, on), push).expect("scripted");
        drop(table);
        sink.events.into_iter().map(|(_, e)| e).collect()
    }

    /// The push DC is 25, +2 once the animal has taken hit point, nonlethal or Constitution
    /// damage; a spell's ability penalty is no damage. Handling is DC 10 whatever its state.
    #[test]
    fn push_dc_rises_for_a_hurt_animal() {
        let mut s = fight();
        assert_eq!(dc(&s, GREY, true), (25, false));
        assert_eq!(dc(&s, GREY, false), (10, false));
        s.fm(GREY).nonlethal = 1;
        assert_eq!(dc(&s, GREY, true), (27, true));
        assert_eq!(dc(&s, GREY, false), (10, false));
        s.fm(GREY).nonlethal = 0;
        s.fm(GREY).hp -= 1;
        assert_eq!(dc(&s, GREY, true), (27, true));
        s.fm(GREY).hp += 1;
        use crate::spell::{Drained, Penalized, PenaltySource};
        use fray_core::conditions::Expiry;
        let spell = Penalized::spell(Drained::Strength);
        s.fm(GREY).drained.add(spell, Expiry::Indefinite);
        assert_eq!(dc(&s, GREY, true), (25, false));
        let con = Penalized {
            ability: Drained::Constitution,
            source: PenaltySource::Damage,
        };
        s.fm(GREY).drained.add(con, Expiry::Indefinite);
        assert_eq!(dc(&s, GREY, true), (27, true));
    }

    /// A push is a full action (3 acts), a simple one for a companion; handling is 1 act.
    #[test]
    fn push_costs_three_acts_one_for_a_companion() {
        let s = fight();
        let cost = |c| super::super::complex::cost(&s, RHEA, &c);
        assert_eq!(cost(Choice::Push(GREY, Trick::Stay, None)), 3);
        assert_eq!(cost(Choice::Push(ASH, Trick::Stay, None)), 1);
        assert_eq!(cost(Choice::Handle(GREY, Trick::Come, None)), 1);
    }

    /// `handle_free`: the first Handle an Animal of each turn is free (0 acts); once taken this
    /// turn, or with the GM's free-action limit reached (CEL-G2), it is a simple action again.
    #[test]
    fn a_class_ability_makes_one_handle_a_turn_free() {
        let mut s = fight();
        let handle = Choice::Handle(GREY, Trick::Come, None);
        let cost = |s: &State| super::super::complex::cost(s, RHEA, &handle);
        let mut profiles = s.profiles.to_vec();
        profiles[RHEA.index()].handle_free = true;
        s.profiles = profiles.into();
        assert_eq!(cost(&s), 0);
        s.fm(RHEA).free_handle_turn = Some(s.f(RHEA).turns);
        assert_eq!(cost(&s), 1, "once a turn");
        s.fm(RHEA).turns += 1;
        assert_eq!(cost(&s), 0, "a new turn");
        std::sync::Arc::make_mut(&mut s.options).free_actions_per_turn = Some(0);
        assert_eq!(cost(&s), 1, "CEL-G2: no free action left");
        assert_eq!(cost_of_push(&s), 3, "a push is never free");
    }

    fn cost_of_push(s: &State) -> i32 {
        super::super::complex::cost(s, RHEA, &Choice::Push(GREY, Trick::Stay, None))
    }

    /// `guard`: the animal attacks a foe next to it but does not move; it makes attacks of
    /// opportunity on any foe.
    #[test]
    fn a_guarding_animal_stays_and_strikes_foes_next_to_it() {
        let mut s = fight();
        s.fm(GREY).command = Some(Command {
            trick: Trick::Guard,
            target: None,
        });
        assert!(
            legal(&s, GREY, Choice::Attack(ORC, 0)),
            "the orc is next to it"
        );
        assert!(!legal(&s, GREY, Choice::Approach(ORC)));
        assert!(!legal(&s, GREY, Choice::Charge(ORC)));
        assert!(may_strike(&s, GREY, ORC));
        assert!(!may_strike(&s, GREY, RHEA), "not its own side");
    }

    /// d20 4 + 5 = 9 < 10 leaves the animal without a command; 5 + 5 = 10 gives it one; a later
    /// failure leaves that one standing.
    #[test]
    fn a_failed_check_changes_nothing() {
        let mut s = fight();
        command_with(&mut s, 4, (GREY, Trick::Attack, false));
        assert_eq!(s.f(GREY).command, None);
        command_with(&mut s, 5, (GREY, Trick::Attack, false));
        let attack = Some(Command {
            trick: Trick::Attack,
            target: Some(ORC),
        });
        assert_eq!(s.f(GREY).command, attack);
        command_with(&mut s, 1, (GREY, Trick::Come, false));
        assert_eq!(s.f(GREY).command, attack);
    }

    /// With no command a trained animal may only end its turn, and takes no attack of
    /// opportunity; commanded `attack orc` it may bite the orc (and strike at it as a
    /// reaction); under `come` it may move toward its handler, not bite.
    #[test]
    fn an_animal_does_only_what_it_is_commanded() {
        let mut s = fight();
        s.asking = Asking::Action(GREY);
        assert!(!legal(&s, GREY, Choice::Attack(ORC, 0)));
        assert!(legal(&s, GREY, Choice::End));
        assert!(!may_strike(&s, GREY, ORC));
        s.fm(GREY).command = Some(Command {
            trick: Trick::Attack,
            target: Some(ORC),
        });
        assert!(legal(&s, GREY, Choice::Attack(ORC, 0)));
        assert!(may_strike(&s, GREY, ORC));
        s.fm(GREY).command = Some(Command {
            trick: Trick::Come,
            target: None,
        });
        assert!(!legal(&s, GREY, Choice::Attack(ORC, 0)));
        assert!(!may_strike(&s, GREY, ORC));
        // Rhea is next to Grey already: no nearer square, the move is refused by the rules.
        s.set_square(GREY, fray_core::Pos::new(0, 6));
        assert!(legal(&s, GREY, Choice::Approach(RHEA)));
        assert!(!legal(&s, GREY, Choice::Approach(ORC)));
        // Characters act freely: the command rules bind only the animal.
        assert!(legal(&s, RHEA, Choice::Step(fray_core::Direction::ALL[0])));
    }

    /// `come` is done once the animal ends its turn next to its handler; `attack` once its foe
    /// is down.
    #[test]
    fn a_trick_done_ends_its_command() {
        let mut s = fight();
        s.fm(GREY).command = Some(Command {
            trick: Trick::Come,
            target: None,
        });
        let mut driver = ScriptedDriver::new(Vec::new(), Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        end_of_turn(&mut s, &mut table, GREY);
        assert_eq!(s.f(GREY).command, None);
        s.fm(ASH).command = Some(Command {
            trick: Trick::Attack,
            target: Some(ORC),
        });
        end_of_turn(&mut s, &mut table, ASH);
        assert!(s.f(ASH).command.is_some());
        s.fm(ORC).dead = true;
        assert_eq!(current(&s, ASH), None);
        end_of_turn(&mut s, &mut table, ASH);
        assert_eq!(s.f(ASH).command, None);
    }
}
