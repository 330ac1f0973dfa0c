//! One attack: the attack bonus (CEL-R4.1–R4.2), advantage and disadvantage as kept d20s
//! (CEL-R4.5), the hit against DV (CEL-R4.4, CEL-A3), criticals (CEL-R5.6), degrees of success
//! (CEL-R5.5), damage by wield and kind (CEL-R5.1–R5.4) and where it goes (see [`super::injury`]).

use super::crit_deck::Critical;
use super::{injury, ModifierSink, Mods, Sources};
use crate::content::{Weapon, WeaponKind};
use crate::state::{modifier, reaches, Special, State, DEX, STR, WIS};
use crate::Celesia;
use fray_core::event::{AttackResult, Event};
use fray_core::protocol::{Interrupt, RollPurpose, RollRequest};
use fray_core::{CombatantId, Table};

/// Which weapon an attack uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Melee form `n` of the attacker's profile.
    Melee(usize),
    /// The ranged weapon.
    Ranged,
}

/// What an attack did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Hit, critical or miss.
    pub result: AttackResult,
    /// Damage dealt.
    pub damage: i32,
    /// The attack roll's total and the DV it was against (0, 0: no roll): a spell delivered
    /// by the attack takes its degrees from them (Spellstrike, CEL-R6.1, R11).
    pub against: (i32, i32),
}

/// `1.5 ×` a positive modifier, rounded down; a penalty is never multiplied. [CEL-R5.1, A31]
pub fn one_and_a_half(m: i32) -> i32 {
    if m > 0 {
        m * 3 / 2
    } else {
        m
    }
}

/// Extra weapon dice for each full 10 the attack beats the DV by. [CEL-R5.5]
pub fn degrees(total: i32, dv: i32) -> i32 {
    if total > dv {
        (total - dv) / 10
    } else {
        0
    }
}

/// The number of d20s and which to keep for a net advantage. [CEL-R4.5]
pub fn d20_pool(net: i32) -> (u16, Option<bool>) {
    let n = net.unsigned_abs().min(31) as u16 + 1;
    match net.signum() {
        1 => (n, Some(true)),
        -1 => (n, Some(false)),
        _ => (1, None),
    }
}

/// Rolls a d20 with `net` advantage (> 0) or disadvantage (< 0): |net| + 1 dice, the highest or
/// lowest kept. Returns the kept die and the pool's text. [CEL-R4.5]
pub fn roll_d20(
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    net: i32,
    purpose: RollPurpose,
    rule: &'static str,
) -> Result<(u32, Option<String>), Interrupt> {
    let (n, keep) = d20_pool(net);
    let request = RollRequest::new(n, 20, Some(who), purpose, rule);
    match keep {
        None => Ok((table.roll(request)?, None)),
        Some(high) => {
            let request = if high {
                request.keep_highest(1)
            } else {
                request.keep_lowest(1)
            };
            let rolled = table.roll_pool(request)?;
            let text = table
                .events_enabled()
                .then(|| format!("{} {rolled}", request.dice_text()));
            Ok((rolled.total(), text))
        }
    }
}

/// The roll confirming a critical threat under `crit_confirmation` (CEL-A3): a second d20 with
/// the attack's `net` advantage count and its `bonus`, against the same `dv` (a natural 20
/// confirms, a natural 1 does not). Returns whether it is confirmed and the log's words for it.
pub fn confirm_critical(
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    net: i32,
    bonus: i32,
    dv: i32,
) -> Result<(bool, String), Interrupt> {
    let (confirm, pool) = roll_d20(table, attacker, net, RollPurpose::Attack, "CEL-A3")?;
    let total = confirm as i32 + bonus;
    let confirmed = confirm == 20 || (confirm != 1 && total >= dv);
    let text = format!(
        "; critical confirmation (CEL-A3): {}d20 {confirm} {bonus:+} = {total} vs {dv}: {}",
        pool.map(|p| format!("{p}; ")).unwrap_or_default(),
        if confirmed {
            "confirmed"
        } else {
            "not confirmed"
        }
    );
    Ok((confirmed, text))
}

/// The attack bonus of `w` for `attacker` at `feet` from its target. [CEL-R4.1, R4.2, A1, A2]
#[inline]
pub fn attack_bonus(state: &State, attacker: CombatantId, w: &Weapon, feet: i32) -> Mods {
    let mut m = Mods::default();
    attack_bonus_into(state, attacker, w, feet, &mut m);
    m
}

/// [`attack_bonus`] added to `m` (an attack builds its modifiers in one place instead of
/// copying them back from each part).
#[inline]
pub fn attack_bonus_into(
    state: &State,
    attacker: CombatantId,
    w: &Weapon,
    feet: i32,
    m: &mut impl ModifierSink,
) {
    let p = state.p(attacker);
    m.push("BAB", "CEL-R4.3", p.bab);
    match w.kind {
        WeaponKind::Projectile => {
            m.push("DEX", "CEL-R4.2", state.m(attacker, DEX));
            m.push("WIS", "CEL-R4.2", state.m(attacker, WIS));
        }
        // Seed (Attack, Natural): a natural ranged attack adds STR, DEX and WIS, as thrown.
        WeaponKind::Thrown | WeaponKind::NaturalRanged => {
            m.push("STR", "CEL-R4.2", state.m(attacker, STR));
            m.push("DEX", "CEL-R4.2", state.m(attacker, DEX));
            m.push("WIS", "CEL-R4.2", state.m(attacker, WIS));
        }
        _ => {
            m.push("STR", "CEL-R4.1", state.m(attacker, STR));
            m.push("DEX", "CEL-R4.1", state.m(attacker, DEX));
        }
    }
    m.push("size", "CEL-R4.1", p.size.modifier());
    if damage_change(state, attacker, w) == DamageChange::Minus4 {
        m.push("lethal unarmed strike", "CEL-A6", -4);
    }
    if let Some((penalty, off)) = state.f(attacker).hand {
        let name = if off { "off hand" } else { "main hand" };
        m.push(name, "CEL-R9", penalty);
    }
    // CEL-R9 Spell Combat: its attack at −2, and the INT bonus traded to the concentration check.
    if let Some(traded) = state.f(attacker).magus.attack_penalty {
        m.push("spell combat", "CEL-R9", -2);
        m.push("INT traded to concentration", "CEL-R9", -traded);
    }
    // CEL-R16.11, A10: −1 per step; +1 under the GM's `weakened_attack_inverted` (CEL-G8).
    let step = if state.options.weakened_attack_inverted {
        1
    } else {
        -1
    };
    m.push(
        "weakened attack",
        "CEL-R16.11",
        step * i32::from(state.f(attacker).weakened),
    );
    special_attack_mods(state, attacker, w.kind.is_ranged(), m);
    // CEL-R14 stance, CEL-R11/R12 strike, CEL-R9 boost: the GM's data (`crate::initiator`).
    if state.f(attacker).maneuvering {
        initiator_attack_mods(state, attacker, m);
    }
    if w.kind.is_ranged() && w.range > 0 && feet > w.range {
        let beyond = (feet - 1) / w.range;
        m.push("range", "CEL-A2", beyond * state.options.range_penalty);
    }
}

/// The active stance's, the strike's and the boosts' modifiers to an attack roll (out of line:
/// only an initiator reads it). [CEL-R9, R11, R12, R14]
#[inline(never)]
fn initiator_attack_mods(state: &State, attacker: CombatantId, m: &mut impl ModifierSink) {
    if let Some(s) = super::stance::active(state, attacker) {
        m.push("stance", "CEL-R14", s.attack);
    }
    if let Some(s) = super::strike::current(state, attacker) {
        m.push("strike", s.initiation.rule(), s.attack);
    }
    if state.f(attacker).boosted != 0 {
        m.push(
            "boost",
            super::boost::RULE,
            super::boost::totals(state, attacker).0,
        );
    }
}

/// The attack-roll side of the special attack options in use: Deadly Aim and Reckless Aim on a
/// ranged attack roll, Power Attack, Precision Strike, Combat Expertise and Reckless Offense on
/// a melee one (touch attacks too: only their damage bonus is excluded, CEL-R16.3, R16.6, R16.7).
/// [CEL-R16]
#[inline]
pub fn special_attack_mods(
    state: &State,
    attacker: CombatantId,
    ranged: bool,
    m: &mut impl ModifierSink,
) {
    // On every attack roll: none in use (most attackers), nothing to push (issue 16; this test
    // inline in the caller, the rest out of line).
    if !state.f(attacker).specials.is_empty() {
        specials_in_use(state, attacker, ranged, m);
    }
}

/// [`special_attack_mods`], with some special attack option in use.
#[inline(never)]
fn specials_in_use(state: &State, attacker: CombatantId, ranged: bool, m: &mut impl ModifierSink) {
    let sp = state.f(attacker).specials;
    let k = |s: Special| super::special::step_of(state, attacker, s);
    if sp.has(Special::MartialPower) {
        // CEL-R16.5: "a -1 penalty on attack rolls", melee and ranged.
        m.push("martial power", "CEL-R16.5", -k(Special::MartialPower));
    }
    if ranged {
        if sp.has(Special::DeadlyAim) {
            m.push("deadly aim", "CEL-R16.3", -k(Special::DeadlyAim));
        }
        if sp.has(Special::RecklessAim) {
            m.push("reckless aim", "CEL-R16.8", 2 * k(Special::RecklessAim));
        }
    } else {
        if sp.has(Special::PowerAttack) {
            m.push("power attack", "CEL-R16.6", -k(Special::PowerAttack));
        }
        if sp.has(Special::PrecisionStrike) {
            m.push(
                "precision strike",
                "CEL-R16.7",
                -k(Special::PrecisionStrike),
            );
        }
        if sp.has(Special::CombatExpertise) {
            m.push(
                "combat expertise",
                "CEL-R16.2",
                -k(Special::CombatExpertise),
            );
        }
        if sp.has(Special::RecklessOffense) {
            m.push(
                "reckless offense",
                "CEL-R16.9",
                2 * k(Special::RecklessOffense),
            );
        }
    }
}

/// The target's DV against this attack, as modifiers over 10. [CEL-R2.5, R11, R14, A34]
#[inline]
pub fn defense(state: &State, target: CombatantId) -> Mods {
    let mut m = Mods::default();
    defense_into(state, target, &mut m);
    m
}

/// CEL-A34 (Pathfinder's helpless condition): "A helpless target is treated as having a
/// Dexterity of 0 (–5 modifier)" — its DV and CMD take −5 in place of its DEX modifier (the
/// condition's melee +4 is the advantage table's row 7 instead, CEL-R4.5).
pub const HELPLESS_DEX: i32 = -5;

/// [`defense`] added to `m` (built in place, as [`attack_bonus_into`]).
#[inline]
pub fn defense_into(state: &State, target: CombatantId, m: &mut impl ModifierSink) {
    let (p, f) = (state.p(target), state.f(target));
    m.push("armour, shield, natural", "", p.dv_bonus + f.shield_dv);
    let dex = state.m(target, DEX).min(p.max_dex);
    // A runner loses its DEX bonus until the start of its next turn (CEL-R12 Run).
    // Pinned, or pinning a foe: no DEX bonus either (CEL-R10.10 Pin, CEL-A34).
    let denied = (f.flat_footed && !p.feats.uncanny_dodge)
        || f.running
        || state.pinned(target)
        || state.pinning(target);
    if state.helpless(target) {
        m.push("DEX 0 (helpless)", "CEL-A34", HELPLESS_DEX);
    } else if !(denied && dex > 0) {
        m.push("DEX", "", dex);
    }
    m.push("size", "CEL-R4.1", p.size.modifier());
    m.push("total defense", "CEL-R11", f.total_defense);
    if f.defensive {
        m.push("fighting defensively", "CEL-R14", p.bab);
    }
    let k = |s: Special| super::special::step_of(state, target, s);
    if f.specials.has(Special::CombatExpertise) {
        m.push(
            "combat expertise",
            "CEL-R16.2",
            3 * k(Special::CombatExpertise),
        );
    }
    if f.specials.has(Special::RecklessOffense) {
        m.push(
            "reckless offense",
            "CEL-R16.9",
            -k(Special::RecklessOffense),
        );
    }
    if f.specials.has(Special::RecklessAim) {
        m.push("reckless aim", "CEL-R16.8", -k(Special::RecklessAim));
    }
    if f.specials.has(Special::Lunge) {
        m.push("lunge", "CEL-R16.4", -2);
    }
    if f.maneuvering {
        initiator_defense(state, target, m);
    }
    m.push("GM's ruling", "CEL-G11", f.gm_dv);
}

/// The active stance's and the boosts' DV bonus (out of line: only an initiator reads it).
/// [CEL-R9, R14]
#[inline(never)]
fn initiator_defense(state: &State, target: CombatantId, m: &mut impl ModifierSink) {
    m.push(
        "stance",
        "CEL-R14",
        super::stance::active(state, target).map_or(0, |s| s.dv),
    );
    if state.f(target).boosted != 0 {
        m.push(
            "boost",
            super::boost::RULE,
            super::boost::totals(state, target).2,
        );
    }
}

/// The damage bonus of the special attack options in use. [CEL-R16.3, R16.6, R16.7]
fn special_damage(state: &State, attacker: CombatantId, w: &Weapon, m: &mut Mods) {
    let sp = state.f(attacker).specials;
    if sp.is_empty() {
        return;
    }
    let k = |s: Special| super::special::step_of(state, attacker, s);
    if w.kind.is_ranged() {
        if sp.has(Special::DeadlyAim) {
            m.push("deadly aim", "CEL-R16.3", 2 * k(Special::DeadlyAim));
        }
        return;
    }
    // CEL-R16.6, R16.7: halved with a secondary natural weapon or an off-hand weapon.
    let off_hand_of = state.f(attacker).hand;
    let off_hand = off_hand_of.is_some_and(|(_, off)| off);
    let half = (w.kind == WeaponKind::Natural && w.secondary) || off_hand;
    if sp.has(Special::PowerAttack) {
        let k = k(Special::PowerAttack);
        // A double weapon's main end in Multiweapon Fighting is wielded in one hand.
        let one_and_a_half = super::grip::two_handed_blow(state, attacker, w)
            || (w.kind == WeaponKind::Natural && !w.secondary);
        let bonus = if half {
            k
        } else if one_and_a_half {
            3 * k
        } else {
            2 * k
        };
        m.push("power attack", "CEL-R16.6", bonus);
    }
    if sp.has(Special::PrecisionStrike) {
        let k = k(Special::PrecisionStrike);
        m.push(
            "precision strike",
            "CEL-R16.7",
            if half { k } else { 2 * k },
        );
    }
}

/// Which side of `target`'s space the square `p` lies on, per axis: −1, 0 or 1 (CEL-R21.3: a
/// Large target's space is 2 × 2). [CEL-A35]
#[inline(always)]
fn beside(state: &State, target: CombatantId, p: fray_core::Pos) -> (i32, i32) {
    let (t, s) = (state.f(target).pos, state.side(target));
    let axis = |v: i32, lo: i32| {
        if v < lo {
            -1
        } else if v > lo + s - 1 {
            1
        } else {
            0
        }
    };
    (axis(p.x, t.x), axis(p.y, t.y))
}

/// The place in a 3 × 3 table of a [`beside`] answer.
#[inline(always)]
fn beside_ix((x, y): (i32, i32)) -> usize {
    ((y + 1) * 3 + (x + 1)) as usize
}

/// Is `target` a flanked target for `attacker`'s attack roll? [CEL-R4.5 table: "Attack rolls
/// against a flanked target", where the rows around it say "Melee attack rolls"; CEL-A35's
/// geometry] Any attack roll — a third attacker's, a ranged one — against a target two of the
/// attacker's side threaten from opposite sides, not only a flanker's melee attack; a melee
/// attacker flanks with one ally who threatens it from the far side.
///
/// The flankers are the attacker's side's combatants (the target aside) within the longest
/// reach of the target who threaten it with a melee form they could strike with now
/// ([`opportunity_form`]): a rider whose only reaching weapon needs both hands, its hand on the
/// reins (no `knees` this turn, CEL-R21.4), threatens nobody and flanks nobody. It is flanked
/// when
/// - (melee) a flanker other than the attacker stands opposite the attacker; or
/// - a flanker other than the attacker stands opposite another flanker (the attacker may be
///   that other).
///
/// One walk lists the attacker's side near the target with the side of the target each stands
/// on; only one with someone else on the far side (or, in melee, opposite the attacker) is
/// asked whether it threatens (issue 16: one walk per flanker, then asking everyone, cost a
/// tenth of the bench). Past 16 of them, everyone is asked.
fn flanked(state: &State, attacker: CombatantId, melee: bool, target: CombatantId) -> Flanking {
    let side = state.f(attacker).side;
    let mut flankers = Flankers {
        attacker,
        melee,
        mine: beside_ix(beside(state, target, state.f(attacker).pos)),
        places: Default::default(),
    };
    let flanks =
        |o: CombatantId| state.threatens(o, target) && opportunity_form(state, o, target).is_some();
    let mut near = [(attacker, 0); 16];
    let mut n = 0;
    let crowded = state.any_near_on(target, state.reach_squares, side, |o| {
        if o == target || near[..n].iter().any(|&(p, _)| p == o) {
            return false;
        }
        if n == near.len() {
            return true;
        }
        near[n] = (o, beside_ix(beside(state, target, state.f(o).pos)));
        n += 1;
        false
    });
    if crowded {
        let flanked = state.any_near_on(target, state.reach_squares, side, |o| {
            o != target
                && flanks(o)
                && flankers.add(o, beside_ix(beside(state, target, state.f(o).pos)))
        });
        return Flanking {
            flanked,
            ally_near: true,
        };
    }
    let near = &near[..n];
    let flanked = near.iter().any(|&(o, ix)| {
        let far = 8 - ix;
        let partner = (melee && o != attacker && far == flankers.mine)
            || near.iter().any(|&(q, qx)| q != o && qx == far);
        partner && flanks(o) && flankers.add(o, ix)
    });
    Flanking {
        flanked,
        ally_near: near.iter().any(|&(o, _)| o != attacker),
    }
}

/// What [`flanked`]'s walk over the attacker's side near the target found.
#[derive(Debug, Clone, Copy)]
struct Flanking {
    /// The target is a flanked target for this attack roll.
    flanked: bool,
    /// Someone of the attacker's side other than the attacker (and the target) is within the
    /// longest reach of the target (true as well when the walk did not list them all).
    ally_near: bool,
}

/// The flankers of a target found so far, by the side of it they stand on ([`flanked`]).
struct Flankers {
    /// Whose attack roll it is.
    attacker: CombatantId,
    /// A melee attack roll.
    melee: bool,
    /// The side of the target the attacker stands on ([`beside_ix`]).
    mine: usize,
    /// Per side of the target: the first flanker found there, whether one other than the
    /// attacker is there, whether two are.
    places: [(Option<CombatantId>, bool, bool); 9],
}

impl Flankers {
    /// Adds flanker `o`, on side `ix` of the target: is the target flanked now? (It is, if ever,
    /// with one on the far side; two in the middle, if that ever happens, flank each other.)
    fn add(&mut self, o: CombatantId, ix: usize) -> bool {
        let (first, other, two) = &mut self.places[ix];
        match *first {
            None => *first = Some(o),
            Some(f) if f != o => *two = true,
            Some(_) => {}
        }
        *other |= o != self.attacker;
        let far_ix = 8 - ix;
        let (far_first, far_other, far_two) = self.places[far_ix];
        (self.melee && o != self.attacker && far_ix == self.mine)
            || if far_ix == ix {
                far_two
            } else {
                (o != self.attacker && far_first.is_some()) || far_other
            }
    }
}

/// Is `target` engaged in melee with an ally of `attacker` less than 10 ft from it? [CEL-R7.2]
/// "Either threatens the other": with a melee form it could strike with now
/// ([`opportunity_form`]), so a rider whose only reaching weapon needs both hands (a lance, no
/// knees outside its own turn, CEL-R21.4) engages nobody. "An unconscious or otherwise
/// immobilized character is not considered engaged unless he is actually being attacked": a
/// pinned ally (immobilized, CEL-A34) is engaged only with the foe holding it in the pin.
/// "(or the part of your target you're aiming at, if it's a big target)": a target of several
/// squares is shot into melee only when every square of its space has such an ally next to it
/// (the shooter aims at a square none is next to; *Readings*, golden `jh01`); a rider is not
/// a big target for sharing its mount's space.
fn into_melee(state: &State, attacker: CombatantId, target: CombatantId) -> bool {
    let side = state.f(attacker).side;
    let size = state.p(target).size;
    let threat = |a: CombatantId, b: CombatantId| {
        state.threatens(a, b) && opportunity_form(state, a, b).is_some()
    };
    let engaged = |o: CombatantId| {
        o != attacker
            && o != target
            && state.f(o).side == side
            && state.up(o)
            && (!state.pinned(o) || state.f(o).held_by == Some(target))
            && (threat(o, target) || threat(target, o))
            && (size as i32) < state.p(o).size as i32 + 3
    };
    // A big target is one of several squares of its own: a rider shares its mount's space
    // (CEL-R21) but is no bigger for it, and is aimed at whole.
    let span = crate::space::side(state.p(target).size);
    if span == 1 || state.f(target).riding.is_some() {
        return state.any_near_on(target, 1, side, engaged);
    }
    let at = state.f(target).pos;
    (0..span).all(|dx| {
        (0..span).all(|dy| {
            let square = fray_core::Pos::new(at.x + dx, at.y + dy);
            state
                .occupancy
                .any_within_inside(square, 1, [side.0, side.0], |o, _| engaged(o))
        })
    })
}

/// Advantage and disadvantage sources of this attack. [CEL-R4.5 table; R11; R14; R18; R7.2]
pub fn sources(
    state: &State,
    attacker: CombatantId,
    target: CombatantId,
    w: &Weapon,
) -> (Sources, Sources) {
    // Built in the returned pair itself (not copied into it at the end).
    let mut both = (Sources::default(), Sources::default());
    sources_into(state, attacker, target, w, &mut both.0, &mut both.1);
    both
}

/// [`sources`] added to `adv` and `dis` (an attack keeps them where it built them instead of
/// copying a returned pair, issue 16).
pub fn sources_into(
    state: &State,
    attacker: CombatantId,
    target: CombatantId,
    w: &Weapon,
    adv: &mut Sources,
    dis: &mut Sources,
) {
    let (fa, ft) = (state.f(attacker), state.f(target));
    let melee = !w.kind.is_ranged();
    if melee && fa.charge_target == Some(target) {
        adv.add("charging");
    }
    if ft.charged {
        adv.add("target charged");
    }
    if ft.cleaving {
        adv.add("target cleaved");
    }
    if ft.injuries.blind() {
        adv.add("blind target");
    }
    super::concealment::attack_sources(state, attacker, target, adv);
    let flanking = state
        .options
        .flanking
        .then(|| flanked(state, attacker, melee, target));
    if flanking.is_some_and(|f| f.flanked) {
        adv.add("flanked target");
    }
    if melee && state.helpless(target) {
        adv.add("helpless target");
    }
    if melee && ft.prone {
        adv.add("prone target");
    }
    if melee && ft.injuries.arm_hurt() {
        adv.add("arm-injured target");
    }
    if !melee && ft.prone {
        dis.add("prone target");
    }
    if melee && fa.prone {
        dis.add("prone");
    }
    if fa.defensive_attacks {
        dis.add("fighting defensively");
    }
    if let DamageChange::Disadvantage(name) = damage_change(state, attacker, w) {
        dis.add(name);
    }
    if fa.injuries.sickened() {
        dis.add("sickened");
    }
    // A dirty trick's conditions (CEL-R10.7; the advantage table, CEL-R4.5).
    for trick in fa.trick_kinds() {
        if let Some(name) = trick.attack_disadvantage() {
            dis.add(name);
        }
    }
    // CEL-R11 Escape from a Net: a net entangles (row 7).
    if fa.netted {
        dis.add(super::escape::NETTED);
    }
    if ft.has_trick(crate::state::Trick::Blinded) {
        adv.add("blind target");
    }
    // CEL-R4.5 rows 5, 9, 11: cowering, stunned target; frightened attacker.
    super::table_condition::target_advantage(ft, adv);
    super::table_condition::attacker_disadvantage(fa, dis);
    // Firing into melee needs an ally within 1 square of the target (CEL-R7.2): the flanking
    // walk, over the same side within the longest reach (at least 1 square), found none when
    // `ally_near` is false, so the second walk is skipped (issue 16).
    let ally_may_engage = flanking.is_none_or(|f| f.ally_near || state.reach_squares < 1);
    if !melee
        && !state.p(attacker).feats.precise_shot
        && ally_may_engage
        && into_melee(state, attacker, target)
    {
        dis.add("shooting into melee");
    }
    // Grappling (CEL-R4.5 rows 9 and 10) and a sundered weapon (row 2, CEL-R10.5).
    if state.pinned(target) {
        adv.add("pinned target");
    }
    if state.grappled(attacker) {
        dis.add("grappled");
    }
    if state
        .item_of(attacker, w)
        .is_some_and(|item| state.broken(attacker, item))
    {
        dis.add("broken weapon");
    }
}

/// How an attack deals the other kind of damage than its weapon's (CEL-R20.5 Changing damage
/// type, R8.5 lethal unarmed strikes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DamageChange {
    /// The weapon's own damage (nothing chosen, a ranged attack, or a weapon of that kind).
    Own,
    /// The other kind at disadvantage on the attack roll, the source so named. [CEL-R20.5]
    Disadvantage(&'static str),
    /// A lethal unarmed strike at −4 (`lethal_unarmed_minus_4`, CEL-A6, G8). [CEL-R8.5]
    Minus4,
    /// A lethal unarmed strike with Improved Unarmed Strike (a monk's too): no penalty.
    /// [CEL-R8.5]
    Free,
}

/// CEL-R20.5 Changing damage type, for an attack of `attacker` with `w`: "a melee weapon that
/// deals lethal damage to deal nonlethal damage instead" and "a weapon that deals nonlethal
/// damage, including an unarmed strike, to deal lethal damage instead", each at disadvantage;
/// an unarmed strike's lethal damage is free with Improved Unarmed Strike, or at −4 with the
/// GM's toggle instead of disadvantage (R8.5, CEL-A6).
pub fn damage_change(state: &State, attacker: CombatantId, w: &Weapon) -> DamageChange {
    let Some(nonlethal) = state.f(attacker).deal_nonlethal else {
        return DamageChange::Own;
    };
    if w.kind.is_ranged() || nonlethal == w.nonlethal {
        return DamageChange::Own;
    }
    if nonlethal {
        return DamageChange::Disadvantage("nonlethal damage with a lethal weapon");
    }
    if w.kind == WeaponKind::Unarmed {
        if state.p(attacker).feats.improved_unarmed {
            return DamageChange::Free;
        }
        if state.options.lethal_unarmed_minus_4 {
            return DamageChange::Minus4;
        }
    }
    DamageChange::Disadvantage("lethal damage with a nonlethal weapon")
}

/// Makes one attack of `attacker` on `target` with `form`, and deals its damage. `label` names
/// the attack in the log (`attack of opportunity`), `rule` the rule that allows it.
pub fn attack(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    form: Form,
    label: Option<&'static str>,
    rule: &'static str,
) -> Result<Outcome, Interrupt> {
    let profiles = state.profiles.clone();
    // CEL-A34: a confused target attacks back; a confused attacker is devoted to its target.
    super::confusion::attacked(state, attacker, target);
    let w: &Weapon = match form {
        Form::Melee(i) => &profiles[attacker.index()].melee[i],
        Form::Ranged => match &profiles[attacker.index()].ranged {
            Some(w) => w,
            None => {
                return Ok(Outcome {
                    result: AttackResult::Miss,
                    damage: 0,
                    against: (0, 0),
                })
            }
        },
    };
    // CEL-R9 Multiweapon Fighting: a double weapon's off-hand attack strikes with its other end.
    let other_end;
    let w = match (state.f(attacker).hand, super::multiweapon::other_end(w)) {
        (Some((_, true)), Some(end)) => {
            other_end = end;
            &other_end
        }
        _ => w,
    };
    let feet = state.feet_between(attacker, target);
    // CEL-R9: the shot draws its ammunition (or fires what is loaded) as it is made.
    if matches!(form, Form::Ranged) {
        super::ammo::spend_shot(state, attacker);
        super::ammo::report(state, table, attacker, "CEL-R9");
        let at = state.f(target).pos;
        super::thrown::fly(state, attacker, at);
    }
    let mut bonus = Mods::default();
    attack_bonus_into(state, attacker, w, feet, &mut bonus);
    // Aid Another on this attack roll, and on the target's DV against it (CEL-R9, R6.4).
    let aided = super::aid::take(state, attacker, target, super::aid::AidTo::Attack);
    bonus.push("aid another", "CEL-R9", aided);
    let (high, moving) = (
        super::mounted::higher_ground(state, attacker, target, w),
        super::mounted::moving_mount_penalty(state, attacker, w),
    );
    bonus.push("higher ground", "CEL-R21.5", high);
    bonus.push("moving mount", "CEL-R21.8", moving);
    if matches!(form, Form::Ranged) {
        bonus.push(
            "steady aim",
            "CEL-R9",
            super::simple::take_aim(state, attacker),
        );
    }
    let guarded = super::aid::take(state, target, attacker, super::aid::AidTo::Defense);
    if label.is_none() {
        let n = usize::from(state.f(attacker).attacks_this_turn).min(2);
        bonus.push(
            "multiple attacks",
            "CEL-A13",
            state.options.multiple_attack_penalty[n],
        );
        let f = state.fm(attacker);
        f.attacks_this_turn = f.attacks_this_turn.saturating_add(1);
        f.melee_attacked |= !w.kind.is_ranged();
    }
    let (mut adv, mut dis) = (Sources::default(), Sources::default());
    sources_into(state, attacker, target, w, &mut adv, &mut dis);
    let net = adv.count() - dis.count();
    let (die, pool) = roll_d20(table, attacker, net, RollPurpose::Attack, "CEL-R4.5")?;
    let total = die as i32 + bonus.total();
    let mut dv_mods = Mods::default();
    defense_into(state, target, &mut dv_mods);
    super::feint::spend(state, attacker, target, &mut dv_mods);
    dv_mods.push("aid another", "CEL-R9", guarded);
    if state.f(target).countering.is_some() {
        let countered = super::counter::take(state, target, attacker);
        dv_mods.push("counter", "CEL-R15", countered);
    }
    let dv = 10 + dv_mods.total();
    // A natural 20 always hits, a natural 1 always misses (CEL-A3).
    let hit = die == 20 || (die != 1 && total >= dv);
    let mut critical = hit && die >= w.threat && !state.p(target).immune_crit;
    let mut confirmation = None;
    if critical && state.options.crit_confirmation {
        let (confirmed, text) = confirm_critical(table, attacker, net, bonus.total(), dv)?;
        critical = confirmed;
        confirmation = Some(text);
    }
    let result = if critical {
        AttackResult::Critical
    } else if hit {
        AttackResult::Hit
    } else {
        AttackResult::Miss
    };
    table.emit(|| {
        let mut name = match label {
            Some(l) => format!("{} ({l})", w.name),
            None => w.name.clone(),
        };
        super::name_sources(&mut name, &adv, &dis, pool.as_deref());
        if let Some(text) = &confirmation {
            name.push_str(text);
        }
        Event::Attack {
            attacker,
            target,
            attack: name,
            roll: die,
            modifiers: bonus.to_vec(),
            total,
            defense: "DV",
            versus: dv,
            defense_modifiers: dv_mods.to_vec(),
            result,
            rule,
        }
    });
    if !hit {
        let reckless_hit = die == 1 && stray_reckless(state, table, attacker, target, w)?;
        // CEL-R7.3: a missed ranged attack flies on; a natural 1 hits nobody (CEL-A3).
        if matches!(form, Form::Ranged) && die != 1 && !reckless_hit {
            super::stray::stray_shot(state, table, attacker, target, w, die, total, &bonus, net)?;
        }
        let f = state.fm(attacker);
        f.weakened = 0;
        f.weaken_ability = 0;
        f.weaken_degrees = 0;
        return Ok(Outcome {
            result,
            damage: 0,
            against: (total, dv),
        });
    }
    // CEL-G6: under `crit_deck`, the GM's card may make the critical normal damage maximized.
    let critical = super::crit_deck::draw(state, table, attacker, target, critical)?;
    let full = degrees(total, dv);
    // CEL-R16.11 (b): a weakened attack may leave some or all degree dice unrolled.
    let skipped = full.min(i32::from(state.f(attacker).weaken_degrees));
    state.fm(attacker).weaken_degrees = 0;
    let extra = full - skipped;
    if full > 0 {
        table.emit(|| Event::Acted {
            who: attacker,
            act: "scores degrees of success against",
            on: Some(target),
            detail: {
                let lance = i32::from(super::mounted::lance_charge(state, attacker, target, w));
                let rolled = dice_rolled(i32::from(w.damage.count), lance, critical, extra);
                format!(
                    "{} over the DV: {full} extra {} dice{}; rolls {rolled}d{}{}",
                    total - dv,
                    w.name,
                    if skipped > 0 {
                        format!(", {skipped} left unrolled (weakened attack, CEL-R16.11)")
                    } else {
                        String::new()
                    },
                    w.damage.sides,
                    if critical == Critical::Maximized {
                        " (none: the Critical Hit Deck's card maximizes them, CEL-G6)"
                    } else if critical.any() {
                        " beside the critical's multiplied maximum (not multiplied)"
                    } else if lance > 0 {
                        " (the weapon dice twice: a lance on a mounted charge, CEL-A26)"
                    } else {
                        ""
                    }
                )
            },
            rule: "CEL-R5.5",
        });
    }
    // CEL-R20.5: the other kind of damage, at the disadvantage taken in `sources_into`.
    let changed;
    let w = if damage_change(state, attacker, w) != DamageChange::Own {
        changed = Weapon {
            nonlethal: !w.nonlethal,
            ..w.clone()
        };
        &changed
    } else {
        w
    };
    let damage = damage(state, table, attacker, target, w, critical, extra, rule)?;
    Ok(Outcome {
        result,
        damage,
        against: (total, dv),
    })
}

/// The damage of a hit: the weapon's dice once plus once per degree of success, or on a
/// critical the dice's maximum × the multiplier plus the degree dice rolled; then the ability
/// bonus by wield and kind, the weapon's own bonus; at least the GM's minimum. [CEL-R5]
#[allow(clippy::too_many_arguments)]
pub fn damage(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    w: &Weapon,
    critical: Critical,
    extra: i32,
    rule: &'static str,
) -> Result<i32, Interrupt> {
    let hit = Hit {
        critical,
        extra,
        sneak_dice: 0,
        coup_de_grace: false,
    };
    damage_of(state, table, attacker, target, w, hit, rule)
}

/// What a hit's damage is made of besides the weapon: a critical, its degree dice, and sneak
/// attack d6s (a coup de grace's, CEL-R12), and whether it is a coup de grace's blow.
#[derive(Debug, Clone, Copy)]
struct Hit {
    critical: Critical,
    extra: i32,
    sneak_dice: i32,
    coup_de_grace: bool,
}

/// How many of a hit's weapon dice are rolled: `count` once plus once per degree (twice the
/// base on a lance's mounted charge), only the degree dice beside a critical's multiplied
/// maximum, none when the Critical Hit Deck's card maximizes them. [CEL-R5.5, R5.6, A26, G6]
fn dice_rolled(count: i32, lance: i32, critical: Critical, extra: i32) -> i32 {
    match critical {
        Critical::Multiplied => count * extra,
        Critical::Maximized => 0,
        Critical::No => count * (1 + lance + extra),
    }
}

/// A hit's weapon dice: rolled once plus once per degree of success (`extra`; a lance on a
/// mounted charge rolls its base dice twice, CEL-A26), or on a critical their maximum ×
/// (`multiplier` + lance) with the degree dice rolled, or, when the Critical Hit Deck's card
/// says normal damage, every one of them at its maximum and nothing multiplied. Returns the
/// total rolled; the fixed parts go to `m`. [CEL-R5.5, R5.6, G6]
pub(crate) fn weapon_dice(
    table: &mut Table<'_, Celesia>,
    roller: CombatantId,
    (count, sides): (u16, u16),
    (multiplier, lance): (i32, i32),
    (critical, extra): (Critical, i32),
    m: &mut Mods,
) -> Result<i32, Interrupt> {
    let count = i32::from(count);
    let rolled_count = dice_rolled(count, lance, critical, extra);
    let rolled = if rolled_count > 0 {
        let n = rolled_count.min(i32::from(fray_core::DamageDice::MAX_COUNT)) as u16;
        table.roll(RollRequest::new(
            n,
            sides,
            Some(roller),
            RollPurpose::Damage,
            "CEL-R5.5",
        ))? as i32
    } else {
        0
    };
    match critical {
        Critical::Multiplied => m.push(
            "critical: maximum × multiplier",
            "CEL-R5.6",
            count * i32::from(sides) * (multiplier + lance),
        ),
        // CEL-G6: the card's normal damage, every weapon die maximized, none multiplied.
        Critical::Maximized => m.push(
            "critical, Critical Hit Deck card: normal damage maximized",
            "CEL-G6",
            count * i32::from(sides) * (1 + lance + extra),
        ),
        Critical::No => {}
    }
    Ok(rolled)
}

/// [`damage`], with sneak attack: precision damage, "not multiplied when you score a critical
/// hit, but … maximized" (CEL-R5.6; fray rolls it only on a coup de grace, a critical).
fn damage_of(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    w: &Weapon,
    hit: Hit,
    rule: &'static str,
) -> Result<i32, Interrupt> {
    let Hit {
        critical, extra, ..
    } = hit;
    let dice = w.damage;
    // CEL-A26: a lance on a mounted charge doubles its weapon dice (not the degree dice) and
    // static bonuses; with a critical, +1 to the multiplier instead of doubling the dice.
    let lance = i32::from(super::mounted::lance_charge(state, attacker, target, w));
    let mut m = Mods::default();
    let rolled = weapon_dice(
        table,
        attacker,
        (dice.count, dice.sides),
        (w.multiplier, lance),
        (critical, extra),
        &mut m,
    )?;
    let before = m.total();
    ability_damage(state, attacker, w, &mut m);
    // CEL-R16.11 (a): a weakened attack holds back some or all of the ability bonus, to 0.
    let held_back =
        super::simple::ability_reduction(m.total() - before, state.f(attacker).weaken_ability);
    m.push("weakened attack (ability)", "CEL-R16.11", -held_back);
    state.fm(attacker).weaken_ability = 0;
    let ability = m.total() - before;
    special_damage(state, attacker, w, &mut m);
    m.push("weapon", "", dice.bonus);
    if state.f(attacker).maneuvering {
        initiator_damage(state, table, attacker, &mut m)?;
    }
    if hit.sneak_dice > 0 {
        m.push(
            "sneak attack, maximized on a critical",
            "CEL-R5.6",
            6 * hit.sneak_dice,
        );
    }
    m.push(
        "lance on a mounted charge: static bonuses again",
        "CEL-A26",
        lance * (ability + dice.bonus),
    );
    // CEL-R16.11: a weakened attack deals 2 less per step, down to 0 (not the minimum 1).
    let weakened = i32::from(state.f(attacker).weakened);
    m.push("weakened attack", "CEL-R16.11", -2 * weakened);
    let floor = if weakened > 0 {
        0
    } else {
        state.options.minimum_damage
    };
    let total = (rolled + m.total()).max(floor);
    state.fm(attacker).weakened = 0;
    let dealt = injury::take_damage(
        state,
        table,
        target,
        Some(attacker),
        injury::Blow {
            roll: rolled,
            mods: &m,
            amount: total,
            nonlethal: w.nonlethal,
            coup_de_grace: hit.coup_de_grace,
        },
        rule,
    )?;
    Ok(dealt)
}

/// The active stance's damage bonus, the strike's dice and bonus, and each boost's (dice rolled
/// once a hit: not multiplied on a critical, a reading), each shown as a modifier of its own.
/// [CEL-R9, R11, R12, R14]
#[inline(never)]
fn initiator_damage(
    state: &State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    m: &mut Mods,
) -> Result<(), Interrupt> {
    if let Some(s) = super::stance::active(state, attacker) {
        m.push("stance", "CEL-R14", s.damage);
    }
    if let Some(s) = super::strike::current(state, attacker) {
        let rule = s.initiation.rule();
        m.push("strike", rule, s.damage);
        if let Some(dice) = s.dice {
            let rolled = extra_dice(table, attacker, dice, rule)?;
            m.push("strike dice", rule, rolled);
        }
    }
    let rule = super::boost::RULE;
    for (_, b) in super::boost::active(state, attacker) {
        m.push("boost", rule, b.damage);
        if let Some(dice) = b.dice {
            let rolled = extra_dice(table, attacker, dice, rule)?;
            m.push("boost dice", rule, rolled);
        }
    }
    Ok(())
}

/// A strike's or boost's dice added to a hit's damage, rolled, with their bonus.
fn extra_dice(
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    dice: fray_core::DamageDice,
    rule: &'static str,
) -> Result<i32, Interrupt> {
    let rolled = table.roll(RollRequest::new(
        dice.count,
        dice.sides,
        Some(attacker),
        RollPurpose::Damage,
        rule,
    ))?;
    Ok(rolled as i32 + dice.bonus)
}

/// The ability bonus to damage by wield and kind. [CEL-R5.1–R5.4, A15]
pub fn ability_damage(state: &State, attacker: CombatantId, w: &Weapon, m: &mut impl ModifierSink) {
    let (s, d, wis) = (
        state.m(attacker, STR),
        state.m(attacker, DEX),
        state.m(attacker, WIS),
    );
    let hand = state.f(attacker).hand;
    if hand.is_some_and(|(_, off)| off) && !w.kind.is_ranged() {
        // CEL-R5.1, R9 Multiweapon Fighting: half the positive STR and DEX, penalties in full.
        m.push(
            scaled(s, "½ STR (off hand)", "STR"),
            "CEL-R5.1",
            super::multiweapon::half(s),
        );
        m.push(
            scaled(d, "½ DEX (off hand)", "DEX"),
            "CEL-R5.1",
            super::multiweapon::half(d),
        );
        return;
    }
    match w.kind {
        // A two-handed weapon, or a one-handed one held in both hands (`rules::grip`).
        WeaponKind::Melee if super::grip::two_handed_blow(state, attacker, w) => {
            m.push(scaled(s, "1.5 × STR", "STR"), "CEL-R5.1", one_and_a_half(s));
            m.push(scaled(d, "1.5 × DEX", "DEX"), "CEL-R5.1", one_and_a_half(d));
        }
        WeaponKind::Melee => {
            m.push("STR", "CEL-R5.1", s);
            m.push("DEX", "CEL-R5.1", d);
        }
        WeaponKind::Natural => {
            m.push(scaled(s, "1.5 × STR", "STR"), "CEL-R5.2", one_and_a_half(s));
            m.push(scaled(d, "1.5 × DEX", "DEX"), "CEL-R5.2", one_and_a_half(d));
        }
        WeaponKind::Unarmed => {
            m.push("STR", "CEL-R5.4", s);
            if !state.options.unarmed_str_only {
                m.push("DEX", "CEL-A15", d);
            }
        }
        WeaponKind::Projectile => {
            m.push("DEX", "CEL-R5.3", d);
            m.push("WIS", "CEL-R5.3", wis);
        }
        WeaponKind::Thrown => {
            m.push("STR", "CEL-R5.3", s);
            m.push("DEX", "CEL-R5.3", d);
            m.push("WIS", "CEL-R5.3", wis);
        }
        // Seed (Attack, Natural): 1.5 × each positive STR, DEX and WIS; penalties in full.
        WeaponKind::NaturalRanged => {
            m.push(scaled(s, "1.5 × STR", "STR"), "CEL-R5.2", one_and_a_half(s));
            m.push(scaled(d, "1.5 × DEX", "DEX"), "CEL-R5.2", one_and_a_half(d));
            m.push(
                scaled(wis, "1.5 × WIS", "WIS"),
                "CEL-R5.2",
                one_and_a_half(wis),
            );
        }
    }
}

/// The label of an ability's part of damage: its scaled name for a bonus, its plain name for a
/// penalty, which the seed never multiplies nor halves (Attack, Melee and Natural: "Negative
/// Strength or Dexterity modifiers are never multiplied", "are not halved").
fn scaled(modifier: i32, scaled_name: &'static str, plain_name: &'static str) -> &'static str {
    if modifier < 0 {
        plain_name
    } else {
        scaled_name
    }
}

/// The first usable melee form of `who` (not an unarmed strike unless armed with it) that
/// reaches `target`: the one an attack of opportunity uses. [CEL-R15] A rider uses a weapon
/// held in both hands only while it guides its mount with the knees (CEL-R21.4): the check is
/// made on its own turn and lasts to that turn's end, so an attack of opportunity, on another's
/// turn, cannot be made with it (a reading).
pub fn opportunity_form(state: &State, who: CombatantId, target: CombatantId) -> Option<usize> {
    let gap = state.gap(who, target);
    let ius = state.p(who).feats.improved_unarmed;
    let f = state.f(who);
    let hands_busy = f.riding.is_some() && f.knees != Some(true);
    state
        .melee_forms(who)
        .find(|(_, w)| {
            (w.kind != WeaponKind::Unarmed || ius)
                && reaches(w, gap)
                && !(hands_busy && super::mounted::both_hands(w))
        })
        .map(|(i, _)| i)
}

/// The special size modifier of combat maneuvers (Pathfinder's, CEL-A7).
pub fn special_size(size: crate::content::Size) -> i32 {
    -size.modifier()
}

/// CMB = BAB + STR + DEX + special size modifier. [CEL-R10.1]
pub fn cmb(state: &State, who: CombatantId) -> Mods {
    let mut m = Mods::default();
    cmb_into(state, who, &mut m);
    m
}

/// [`cmb`] added to `m`.
pub fn cmb_into(state: &State, who: CombatantId, m: &mut impl ModifierSink) {
    let p = state.p(who);
    m.push("BAB", "CEL-R10.1", p.bab);
    m.push("STR", "CEL-R10.1", state.m(who, STR));
    m.push("DEX", "CEL-R10.1", state.m(who, DEX));
    m.push("special size", "CEL-R10.1", special_size(p.size));
}

/// CMD = 10 + BAB + STR + DEX + special size modifier (CEL-A7), with the dodge bonuses of Total
/// Defense, Fighting Defensively and Combat Expertise ("a +3 dodge bonus to your DV", CEL-R16.2),
/// no positive DEX when denied it, and +2 per leg beyond two against a trip (CEL-R10.6).
pub fn cmd(state: &State, who: CombatantId, trip: bool) -> Mods {
    let mut m = Mods::default();
    cmd_into(state, who, trip, &mut m);
    m
}

/// [`cmd`] added to `m`.
pub fn cmd_into(state: &State, who: CombatantId, trip: bool, m: &mut impl ModifierSink) {
    let (p, f) = (state.p(who), state.f(who));
    m.push("BAB", "CEL-A7", p.bab);
    m.push("the GM's CMD base", "CEL-G7", state.options.cmd_base - 10);
    m.push("STR", "CEL-A7", state.m(who, STR));
    let denied = (f.flat_footed && !p.feats.uncanny_dodge)
        || f.running
        || state.pinned(who)
        || state.pinning(who);
    let dex = state.m(who, DEX);
    if state.helpless(who) {
        m.push("DEX 0 (helpless)", "CEL-A34", HELPLESS_DEX);
    } else if !(denied && dex > 0) {
        m.push("DEX", "CEL-A7", dex);
    }
    m.push("special size", "CEL-A7", special_size(p.size));
    m.push("total defense", "CEL-R11", f.total_defense);
    if f.defensive {
        m.push("fighting defensively", "CEL-R14", p.bab);
    }
    if f.specials.has(Special::CombatExpertise) {
        let k = super::special::step_of(state, who, Special::CombatExpertise);
        m.push("combat expertise", "CEL-R16.2", 3 * k);
    }
    if trip {
        m.push("legs beyond two", "CEL-R10.6", 2 * (p.legs - 2).max(0));
    }
}

/// A combat maneuver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Maneuver {
    /// Trip: the target falls prone; failing by 10 or more, the attacker does. [CEL-R10.6]
    Trip,
    /// Bull rush: the target is pushed 5 ft, and 5 ft more per 5 over its CMD. [CEL-R10.2]
    BullRush,
    /// Dirty trick: the target gains the condition for 1 round, and 1 more per full 5 over
    /// its CMD. [CEL-R10.7]
    DirtyTrick(crate::state::Trick),
    /// Disarm: the target drops the first item, and the second too at 10 or more over its
    /// CMD; failing by 10 or more, the attacker drops the weapon it disarmed with. [CEL-R10.3]
    Disarm(
        super::belonging::Belonging,
        Option<super::belonging::Belonging>,
    ),
}

/// A combat maneuver check against `target`'s CMD and its effect. [CEL-R10]
pub fn maneuver(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    kind: Maneuver,
) -> Result<AttackResult, Interrupt> {
    let (name, rule) = match kind {
        Maneuver::Trip => ("trip", "CEL-R10.6"),
        Maneuver::BullRush => ("bull rush", "CEL-R10.2"),
        Maneuver::DirtyTrick(_) => ("dirty trick", "CEL-R10.7"),
        Maneuver::Disarm(..) => ("disarm", "CEL-R10.3"),
    };
    super::confusion::attacked(state, attacker, target);
    let checked =
        super::maneuver::Attempt::new(state, attacker, target, name, rule, kind == Maneuver::Trip)
            .roll(state, table, attacker, target)?;
    let (total, versus, success) = (checked.total, checked.versus, checked.success());
    let result = if success {
        AttackResult::Hit
    } else {
        AttackResult::Miss
    };
    match kind {
        Maneuver::Trip if success => {
            state.fm(target).prone = true;
            table.emit(|| Event::Condition {
                who: target,
                condition: "prone",
                gained: true,
                rule,
            });
        }
        Maneuver::Trip if total <= versus - 10 => {
            state.fm(attacker).prone = true;
            table.emit(|| Event::Condition {
                who: attacker,
                condition: "prone",
                gained: true,
                rule,
            });
        }
        Maneuver::BullRush if success => {
            super::maneuver::push(state, table, attacker, target, total - versus)?;
        }
        Maneuver::Disarm(first, second) if success => {
            super::belonging::drop(state, table, target, first, rule);
            if let Some(second) = second.filter(|_| total - versus >= 10) {
                super::belonging::drop(state, table, target, second, rule);
            }
        }
        Maneuver::Disarm(..) if total <= versus - 10 => {
            // The weapon it disarmed with: its first melee form that is a held weapon.
            let used = state
                .melee_forms(attacker)
                .map(|(i, _)| crate::state::Item::Melee(i as u8))
                .find(|&item| state.held(attacker, item).is_some());
            if let Some(item) = used {
                drop_item(state, table, attacker, item, rule);
            }
        }
        Maneuver::DirtyTrick(trick) if success => {
            // CEL-A39: "N rounds" end at the start of the trickster's turn N rounds on.
            let rounds = 1 + (total - versus) / 5;
            let until = state.round + rounds as u32;
            let caused = crate::state::Caused {
                trick,
                cause: crate::state::Cause::DirtyTrick,
            };
            let timed = fray_core::conditions::Timed::new(
                caused,
                fray_core::conditions::Expiry::StartOfTurn {
                    who: attacker,
                    round: until,
                },
            )
            .from(attacker);
            state.fm(target).tricks.add_timed(timed);
            table.emit(|| Event::Condition {
                who: target,
                condition: fray_core::conditions::ConditionKind::key(trick),
                gained: true,
                rule,
            });
            table.emit(|| Event::Acted {
                who: attacker,
                act: "times its dirty trick on",
                on: Some(target),
                detail: format!(
                    "{rounds} round{} (1 + 1 per full 5 over the CMD): until the start of its \
                     turn in round {until} (CEL-A39)",
                    if rounds == 1 { "" } else { "s" }
                ),
                rule,
            });
        }
        _ => {}
    }
    Ok(result)
}

/// `who` drops `item` on its square (a disarm, CEL-R10.3; Drop an Item, CEL-R14): it cannot
/// use it until it picks it up (CEL-R9 Manipulate an Item).
pub fn drop_item(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    item: crate::state::Item,
    rule: &'static str,
) {
    let name = state.held(who, item).map(|w| w.name.clone());
    if let Some(name) = name {
        state.drop_item(who, item);
        table.emit(|| Event::Acted {
            who,
            act: "drops a weapon",
            on: None,
            detail: name,
            rule,
        });
    }
}

/// CEL-R16.8, R16.9: a natural 1 on an attack made with Reckless Aim's (ranged) or Reckless
/// Offense's (melee) bonus automatically hits a random creature next to the intended target
/// that threatens it, other than the attacker (the weapon's damage, no degrees, no critical);
/// the die picks among them in initiative order. True if it hit one.
fn stray_reckless(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    w: &Weapon,
) -> Result<bool, Interrupt> {
    let sp = state.f(attacker).specials;
    let (reckless, rule) = if w.kind.is_ranged() {
        (sp.has(Special::RecklessAim), "CEL-R16.8")
    } else {
        (sp.has(Special::RecklessOffense), "CEL-R16.9")
    };
    if !reckless {
        return Ok(false);
    }
    let near: Vec<CombatantId> = state
        .order
        .iter()
        .copied()
        .filter(|&c| {
            c != attacker
                && c != target
                && !state.f(c).absent()
                && state.gap(c, target) <= 1
                && state.threatens(c, target)
        })
        .collect();
    let (victim, picked) = match near.len() {
        0 => return Ok(false),
        1 => (near[0], String::new()),
        n => {
            let roll = table.roll(RollRequest::new(
                1,
                n as u16,
                Some(attacker),
                RollPurpose::Other,
                rule,
            ))?;
            let names: Vec<&str> = near.iter().map(|&c| state.roster.key(c)).collect();
            (
                near[(roll as usize - 1).min(n - 1)],
                format!("; 1d{n} {roll} among {}", names.join(", ")),
            )
        }
    };
    table.emit(|| Event::Acted {
        who: attacker,
        act: "rolls a natural 1, and the blow hits",
        on: Some(victim),
        detail: format!(
            "a creature next to {} that threatens it (reckless {}){picked}",
            state.roster.key(target),
            if w.kind.is_ranged() { "aim" } else { "offense" }
        ),
        rule,
    });
    damage(state, table, attacker, victim, w, Critical::No, 0, rule)?;
    Ok(true)
}

/// CEL-R12 Coup de Grace: an automatic critical hit on a helpless foe (no attack roll, so no
/// degrees); if it survives, a Fortitude save against DC 10 + the damage dealt, or it dies.
/// Nonlethal (`nonlethal`): the damage is nonlethal, and if the foe is still conscious after
/// it, the same save or it falls unconscious.
pub fn coup_de_grace(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    form: usize,
    nonlethal: bool,
) -> Result<(), Interrupt> {
    let profiles = state.profiles.clone();
    super::confusion::attacked(state, attacker, target);
    // CEL-R12: a bow, crossbow or firearm next to the target (`coup-de-grace WHO ranged`).
    let w = match profiles[attacker.index()].ranged.as_ref() {
        Some(w) if form == usize::from(super::ammo::RANGED_FORM) => {
            super::ammo::spend_shot(state, attacker);
            super::ammo::report(state, table, attacker, "CEL-R9");
            w
        }
        _ => &profiles[attacker.index()].melee[form],
    };
    table.emit(|| Event::Acted {
        who: attacker,
        act: "delivers a coup de grace to",
        on: Some(target),
        detail: format!(
            "{}: an automatic critical hit, no attack roll{}",
            w.name,
            match (nonlethal, w.nonlethal) {
                (true, _) => ", nonlethal damage",
                // CEL-R20.5: a weapon dealing nonlethal damage used for lethal damage (the
                // disadvantage is on an attack roll, and a coup de grace has none).
                (false, true) => ", lethal damage",
                (false, false) => "",
            }
        ),
        rule: "CEL-R12",
    });
    // CEL-R12: "A rogue also gets her extra sneak attack damage against a helpless or pinned
    // opponent when delivering a coup de grace" (maximized on the critical, CEL-R5.6).
    let critical = super::crit_deck::draw(state, table, attacker, target, true)?;
    let hit = Hit {
        critical,
        extra: 0,
        sneak_dice: state.p(attacker).sneak_dice,
        coup_de_grace: true,
    };
    let dealt = if w.nonlethal == nonlethal {
        damage_of(state, table, attacker, target, w, hit, "CEL-R12")?
    } else {
        let mut w = w.clone();
        w.nonlethal = nonlethal;
        damage_of(state, table, attacker, target, &w, hit, "CEL-R12")?
    };
    if nonlethal {
        return knock_out_save(state, table, target, dealt);
    }
    if state.f(target).dead {
        return Ok(());
    }
    let dc = 10 + dealt;
    let saved = super::D20Check {
        purpose: "coup de grace",
        modifier: "Fort",
        bonus: state.fort(target),
        dc,
        kind: super::CheckKind::Save,
        results: ("survives", "dies"),
        rule: "CEL-R12",
    }
    .roll(state, table, target)?;
    if !saved {
        state.fm(target).dead = true;
        let hp = state.f(target).hp;
        table.emit(|| Event::Status {
            who: target,
            status: "dead",
            hp,
            rule: "CEL-R12",
        });
        super::spell_weapon::caster_dead(state, table, target);
    }
    Ok(())
}

/// CEL-R12 nonlethal Coup de Grace: "if the target remains conscious after receiving the
/// nonlethal critical hit damage, he must make a Fortitude save (DC 10 + damage) or fall
/// unconscious". Unconscious so, it stays so until healed (`State::knock_out`, a reading).
fn knock_out_save(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    target: CombatantId,
    dealt: i32,
) -> Result<(), Interrupt> {
    if !state.up(target) {
        return Ok(());
    }
    let saved = super::D20Check {
        purpose: "nonlethal coup de grace",
        modifier: "Fort",
        bonus: state.fort(target),
        dc: 10 + dealt,
        kind: super::CheckKind::Save,
        results: ("stays conscious", "falls unconscious"),
        rule: "CEL-R12",
    }
    .roll(state, table, target)?;
    if !saved {
        state.knock_out(target);
        table.emit(|| Event::Condition {
            who: target,
            condition: "unconscious",
            gained: true,
            rule: "CEL-R12",
        });
    }
    Ok(())
}

/// `modifier` re-exported for the worked examples.
pub fn ability_modifier(score: i32) -> i32 {
    modifier(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed (Attack, Natural): "If your natural attack is a ranged attack, add your Strength,
    /// Dexterity, and Wisdom modifiers to your attack roll ... add 1.5 times your Strength
    /// bonus, 1.5 times your Dexterity bonus, and 1.5 your Wisdom modifier to the damage;
    /// Strength, Dexterity, and Wisdom penalties are not multiplied." The cave spitter: BAB 1,
    /// STR 8, DEX 15, WIS 13; its spit is not held (no hand, nothing to disarm or sunder).
    #[test]
    fn a_natural_ranged_attack_adds_str_dex_wis_and_one_and_a_half_each_bonus() {
        use crate::fixture::Fixture;
        use crate::state::Item;
        let s = Fixture::new()
            .monster("spit", "heroes", [0, 0], "cave spitter")
            .monster("foe", "orcs", [2, 0], "cave spitter")
            .state();
        let spit = CombatantId(0);
        let w = s.ranged_weapon(spit).cloned().expect("its spit");
        assert_eq!(w.kind, WeaponKind::NaturalRanged);
        assert_eq!((w.range, w.max_range()), (10, 50));
        // 1 BAB - 1 STR + 2 DEX + 1 WIS; 15 ft: one full increment beyond the first, -2.
        assert_eq!(attack_bonus(&s, spit, &w, 10).total(), 3);
        assert_eq!(attack_bonus(&s, spit, &w, 15).total(), 1);
        let mut m = Mods::default();
        ability_damage(&s, spit, &w, &mut m);
        // -1 (a penalty, not multiplied) + floor(1.5 × 2) + floor(1.5 × 1).
        assert_eq!(m.total(), -1 + 3 + 1);
        assert!(s.held(spit, Item::Ranged).is_none(), "not a held weapon");
    }

    /// CEL-E1: warhammer attack 27 vs DV 15: one extra die (2d8).
    #[test]
    fn e1_baroths_warhammer_rolls_two_dice() {
        assert_eq!(degrees(27, 15), 1);
        assert_eq!(degrees(15, 15), 0);
        assert_eq!(degrees(24, 15), 0);
        assert_eq!(degrees(35, 15), 2);
    }

    /// CEL-R4.5: |net| + 1 d20s, highest kept on advantage, lowest on disadvantage.
    #[test]
    fn advantage_is_kept_dice() {
        assert_eq!(d20_pool(0), (1, None));
        assert_eq!(d20_pool(1), (2, Some(true)));
        assert_eq!(d20_pool(2), (3, Some(true)));
        assert_eq!(d20_pool(-1), (2, Some(false)));
    }

    /// CEL-R7.2: "If your target (or the part of your target you're aiming at, if it's a big
    /// target) is at least 10 feet away from the nearest ally, you can avoid the disadvantage":
    /// an ogre (2 × 2) with an ally next to its west column only is not shot into melee (its
    /// east column is 10 ft from the ally); allies next to every square of it are.
    #[test]
    fn a_big_target_is_aimed_at_its_part_away_from_allies() {
        use crate::fixture::{Fixture, FIGHTER};
        let mut s = Fixture::new()
            .with(
                "archer",
                "heroes",
                [10, 0],
                &format!("{FIGHTER}\nranged = \"longbow\""),
            )
            .with("west", "heroes", [3, 0], FIGHTER)
            .monster("ogre", "orcs", [4, 0], "ogre")
            .with("east", "heroes", [6, 5], FIGHTER)
            .state();
        let (archer, ogre, east) = (CombatantId(0), CombatantId(2), CombatantId(3));
        assert!(
            !into_melee(&s, archer, ogre),
            "its east column is 10 ft from the ally"
        );
        s.set_square(east, fray_core::Pos::new(6, 1));
        assert!(
            into_melee(&s, archer, ogre),
            "an engaged ally next to each of its four squares"
        );
    }

    /// CEL-R7.2 with CEL-R21: a Medium rider shares its Large mount's space but is not a big
    /// target: an engaged ally next to one side of the mount is enough for the disadvantage.
    #[test]
    fn a_rider_is_not_a_big_target() {
        use crate::fixture::{Fixture, FIGHTER};
        let s = Fixture::new()
            .with(
                "archer",
                "heroes",
                [10, 0],
                &format!("{FIGHTER}\nranged = \"longbow\""),
            )
            .with("west", "heroes", [3, 0], FIGHTER)
            .with(
                "kay",
                "knights",
                [4, 0],
                &format!("{FIGHTER}\nmount = \"horse\"\nride = 5"),
            )
            .monster("horse", "knights", [4, 0], "light horse")
            .state();
        let (archer, kay) = (CombatantId(0), CombatantId(2));
        assert_eq!(s.side(kay), 2, "the rider shares the horse's space");
        assert!(into_melee(&s, archer, kay));
    }

    /// CEL-R7.2: "An unconscious or otherwise immobilized character is not considered engaged
    /// unless he is actually being attacked": a pinned ally threatens nobody (CEL-A34) and is
    /// engaged only with the foe pinning it; a pinned foe threatens nobody either.
    #[test]
    fn a_pinned_ally_is_not_engaged() {
        use crate::fixture::{Fixture, FIGHTER};
        use crate::state::Hold;
        let mut s = Fixture::new()
            .with(
                "archer",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nranged = \"shortbow\""),
            )
            .with("ally", "heroes", [5, 0], FIGHTER)
            .monster("orc", "orcs", [6, 0], "orc")
            .monster("gob", "orcs", [5, 1], "goblin")
            .state();
        let (archer, ally, orc, gob) = (
            CombatantId(0),
            CombatantId(1),
            CombatantId(2),
            CombatantId(3),
        );
        assert!(
            into_melee(&s, archer, orc),
            "the ally and the orc threaten each other"
        );
        // Ropes pin the ally: immobilized, attacked by nobody.
        s.fm(ally).tied = Some(20);
        assert!(
            !s.threatens(ally, orc),
            "a pinned creature threatens nobody"
        );
        assert!(!into_melee(&s, archer, orc), "a pinned ally is not engaged");
        // The goblin pins the ally: the ally is engaged with the goblin alone.
        s.fm(ally).tied = None;
        s.fm(ally).held_by = Some(gob);
        s.fm(gob).hold = Some(Hold {
            target: ally,
            pinned: true,
            choke: false,
        });
        assert!(!into_melee(&s, archer, orc));
        assert!(into_melee(&s, archer, gob), "the goblin is attacking it");
        // A pinned foe threatens nobody.
        s.fm(ally).held_by = None;
        s.fm(gob).hold = None;
        s.fm(orc).tied = Some(20);
        assert!(!s.threatens(orc, ally));
        assert!(s.threatens(ally, orc));
    }

    /// CEL-A7 with CEL-R16.2: Combat Expertise's "+3 dodge bonus to your DV" (×2 at BAB +4)
    /// is a dodge bonus, so the CMD takes it as it takes Total Defense's.
    #[test]
    fn combat_expertise_raises_the_cmd() {
        use crate::fixture::Fixture;
        let mut s = Fixture::new()
            .with(
                "hal",
                "h",
                [0, 0],
                "class = \"fighter\"\nlevel = 4\nhp = 30\nweapon = \"longsword\"\nscores = { str = 16, dex = 14, int = 14 }",
            )
            .monster("orc", "o", [5, 0], "orc")
            .state();
        let hal = CombatantId(0);
        s.fm(hal).flat_footed = false;
        // 10 + 4 BAB + 3 STR + 2 DEX.
        assert_eq!(10 + cmd(&s, hal, false).total(), 19);
        let dv = defense(&s, hal).total();
        s.fm(hal).specials.add(Special::CombatExpertise);
        assert_eq!(10 + cmd(&s, hal, false).total(), 25);
        assert_eq!(defense(&s, hal).total(), dv + 6);
    }

    /// CEL-R5.1: 1.5 × positive modifiers, rounded down; penalties in full.
    #[test]
    fn two_hands_add_half_again() {
        assert_eq!(one_and_a_half(3), 4);
        assert_eq!(one_and_a_half(4), 6);
        assert_eq!(one_and_a_half(-1), -1);
    }

    /// CEL-R20.5, R8.5, A6: which attacks a standing `deal` choice changes, and how.
    #[test]
    fn changing_damage_type_by_weapon_and_feat() {
        use crate::fixture::{Fixture, FIGHTER};
        let mut s = Fixture::new()
            .with(
                "ann",
                "h",
                [0, 0],
                &format!("{FIGHTER}\nranged = \"shortbow\""),
            )
            .with("cy", "h", [0, 1], "class = \"monk\"\nhp = 10")
            .monster("orc", "o", [1, 0], "orc")
            .state();
        let (ann, cy) = (CombatantId(0), CombatantId(1));
        let sword = s.p(ann).melee[0].clone();
        let fist = Weapon::unarmed(crate::content::Size::Medium);
        let bow = s.p(ann).ranged.clone().expect("a shortbow");
        assert_eq!(damage_change(&s, ann, &sword), DamageChange::Own);
        s.fm(ann).deal_nonlethal = Some(true);
        assert_eq!(
            damage_change(&s, ann, &sword),
            DamageChange::Disadvantage("nonlethal damage with a lethal weapon")
        );
        // The seed's first case is "a melee weapon": a bow keeps its damage; a fist is
        // nonlethal already.
        assert_eq!(damage_change(&s, ann, &bow), DamageChange::Own);
        assert_eq!(damage_change(&s, ann, &fist), DamageChange::Own);
        s.fm(ann).deal_nonlethal = Some(false);
        assert_eq!(damage_change(&s, ann, &sword), DamageChange::Own);
        assert_eq!(
            damage_change(&s, ann, &fist),
            DamageChange::Disadvantage("lethal damage with a nonlethal weapon")
        );
        std::sync::Arc::make_mut(&mut s.options).lethal_unarmed_minus_4 = true;
        assert_eq!(damage_change(&s, ann, &fist), DamageChange::Minus4);
        let mut m = Mods::default();
        attack_bonus_into(&s, ann, &fist, 5, &mut m);
        assert!(m
            .to_vec()
            .iter()
            .any(|x| x.value == -4 && x.rule == "CEL-A6"));
        // A monk has Improved Unarmed Strike's effect: no penalty either way.
        s.fm(cy).deal_nonlethal = Some(false);
        assert_eq!(damage_change(&s, cy, &fist), DamageChange::Free);
        std::sync::Arc::make_mut(&mut s.options).lethal_unarmed_minus_4 = false;
        assert_eq!(damage_change(&s, cy, &fist), DamageChange::Free);
    }

    /// CEL-R14 Fighting Defensively: disadvantage on the attack rolls of its own turn ("fight
    /// defensively when attacking"; spec R14 "that turn"), not on an attack of opportunity on a
    /// foe's turn; the +BAB DV lasts until the start of its next turn.
    #[test]
    fn fighting_defensively_is_its_own_turns_disadvantage() {
        let mut s = crate::fixture::Fixture::new()
            .with("hal", "heroes", [0, 0], crate::fixture::FIGHTER)
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        let (hal, orc) = (CombatantId(0), CombatantId(1));
        let w = s.profiles[0].melee[0].clone();
        let dv = |s: &State| defense(s, hal).total();
        let before = dv(&s);
        let f = s.fm(hal);
        (f.defensive, f.defensive_attacks) = (true, true);
        assert_eq!(sources(&s, hal, orc, &w).1.text(), "fighting defensively");
        assert_eq!(dv(&s), before + 3, "+BAB 3");
        // Its turn is over: the DV stays, the disadvantage is gone.
        s.fm(hal).defensive_attacks = false;
        assert_eq!(sources(&s, hal, orc, &w).1.count(), 0);
        assert_eq!(dv(&s), before + 3);
    }
}
