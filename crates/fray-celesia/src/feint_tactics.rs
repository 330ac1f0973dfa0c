//! When the default tactics feint instead of striking (issue 16, CEL-R11 Feint; the policy is
//! written out in docs/celesia.md, "Default tactics"). A feint spends `c` acts (2, or 1 with
//! Improved Feint) that could have been blows, for one blow against a DV without the foe's DEX
//! bonus: "denied their Dexterity bonus to DV for the next attack you make against it". Valued
//! in hit points over the turn, from the rules' own numbers ([`crate::maneuver_tactics`]'s `a`
//! and `D`, without the GM's adjustment of the feinter's DCs, which it cannot know):
//!
//! - `p`: the Bluff check's chance (d20 + Bluff with CHA, −1 per scar, the penalty for what
//!   the foe is, with its disadvantage sources, against the foe's DC: 10 + BAB + WIS, or
//!   10 + Sense Motive if higher; a skill check: no natural 20 or 1);
//! - `a`: the blow's chance to hit (a natural 20 hits, a natural 1 misses); `a′` the same
//!   against the DV without the foe's DEX bonus; `D`: the blow's mean damage.
//!
//! The feint gains `p·(a′ − a)·D` on the one blow it helps and costs the `c` blows it replaces,
//! `c·a·D`: it is taken when `p·(a′ − a)·D − c·a·D > 0`, only when a blow can still follow it
//! this turn (acts left > `c`; kept to the next turn it could lapse with the foe out of reach),
//! against a foe it holds no feint on. `D` scales both sides, so a foe a mean hit would drop is
//! no exception (the chance of the killing blow is weighed the same way). In practice the
//! feint pays when the feinter hits rarely and the foe's DEX bonus is large.

use crate::choice::Choice;
use crate::maneuver_tactics::{bonus_and_dv, chance, mean_damage};
use crate::rules::feint;
use crate::rules::legal::check_action;
use crate::state::State;
use fray_core::CombatantId;

/// A feint of the foe of `attack` (an `Attack` with a melee form) with what it gains over the
/// blows it replaces (hit points over the turn, > 0), when it gains anything. [CEL-R11]
#[inline]
pub fn gain(state: &State, who: CombatantId, attack: Choice) -> Option<(f64, Choice)> {
    // At every blow decision: this test inline in the caller, the rest out of line (issue 16).
    state.p(who).gm_said.feint.bluff?;
    feint_gain(state, who, attack)
}

/// [`gain`], for a combatant the GM lets feint.
#[inline(never)]
fn feint_gain(state: &State, who: CombatantId, attack: Choice) -> Option<(f64, Choice)> {
    let Choice::Attack(t, form) = attack else {
        return None;
    };
    state.p(who).gm_said.feint.bluff?;
    let acts = feint::acts(state, who);
    if state.f(who).acts_left <= acts || feint::holds(state, who, t) {
        return None;
    }
    let dex = feint::dex_bonus(state, t);
    if dex == 0 {
        return None;
    }
    let check = feint::bluff(state, who, t)?;
    let fooled = chance(
        check.bonus(),
        feint::dc(state, t).0,
        -check.disadvantage.count(),
        false,
    );
    let w = state.p(who).melee.get(usize::from(form))?;
    let (bonus, dv) = bonus_and_dv(state, who, t, w);
    let (plain, denied) = (chance(bonus, dv, 0, true), chance(bonus, dv - dex, 0, true));
    let d = mean_damage(state, who, w);
    let worth = (fooled * (denied - plain) - f64::from(acts) * plain) * d;
    let pick = Choice::Feint(t);
    (worth > 0.0 && check_action(false, state, who, &pick).is_ok()).then_some((worth, pick))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    const WIL: CombatantId = CombatantId(0);
    const FOX: CombatantId = CombatantId(1);

    /// Wil (wizard 1: BAB 0, STR 8, a dagger: d20 − 1, mean damage 2.5 − 1 = 1.5) with `bluff`
    /// (CHA 10) and `feats`, three acts left, next to Fox (fighter 3: BAB 3, WIS 10, so feint DC
    /// 13; DEX 18, +4) whose DV the GM makes 20 (16 without its DEX bonus).
    fn wil_and_fox(bluff: i32, feats: &str) -> State {
        let wizard = format!(
            "class = \"wizard\"\nlevel = 1\nhp = 8\nweapon = \"dagger\"\n\
             scores = {{ str = 8, dex = 10, con = 10, cha = 10 }}\nbluff = {bluff}\nfeats = [{feats}]"
        );
        let mut s = Fixture::new()
            .with("wil", "heroes", [0, 0], &wizard)
            .with(
                "fox",
                "foes",
                [1, 0],
                &format!("{FIGHTER}\nscores = {{ str = 10, dex = 18, con = 12, wis = 10 }}"),
            )
            .state();
        s.fm(WIL).acts_left = 3;
        s.fm(FOX).flat_footed = false;
        let w = s.p(WIL).melee[0].clone();
        let dv = bonus_and_dv(&s, WIL, FOX, &w).1;
        s.fm(FOX).gm_dv = 20 - dv;
        assert_eq!(bonus_and_dv(&s, WIL, FOX, &w), (-1, 20));
        assert_eq!(feint::dex_bonus(&s, FOX), 4);
        assert_eq!(feint::dc(&s, FOX).0, 13);
        assert_eq!(mean_damage(&s, WIL, &w), 1.5);
        s
    }

    /// Bluff +10 against DC 13 fools Fox 90% of the time; the dagger hits DV 20 only on a
    /// natural 20 (a = 0.05) and DV 16 on 17 or more (a′ = 0.20): the feint gains
    /// (0.9 · 0.15 − 2 · 0.05) · 1.5 = 0.0525. With Bluff +1 (45%): 0.45 · 0.15 = 0.0675 < 0.1,
    /// it strikes; with Improved Feint (one act) that pays again: (0.0675 − 0.05) · 1.5. With
    /// only the feint's acts left, no blow follows it this turn; a flat-footed Fox has no DEX
    /// bonus to deny; a feint held already is for the blow. [CEL-R11]
    #[test]
    fn a_feint_pays_when_the_blow_is_unlikely_and_the_dex_bonus_large() {
        let blow = Choice::Attack(FOX, 0);
        let close = |got: Option<(f64, Choice)>, worth: f64| {
            let (g, c) = got.expect("a feint");
            assert_eq!(c, Choice::Feint(FOX));
            assert!((g - worth).abs() < 1e-9, "{g} against {worth}");
        };
        let mut s = wil_and_fox(10, "");
        close(gain(&s, WIL, blow), (0.9 * 0.15 - 2.0 * 0.05) * 1.5);
        s.fm(WIL).acts_left = 2;
        assert_eq!(gain(&s, WIL, blow), None, "no blow would follow this turn");
        s.fm(WIL).acts_left = 3;
        s.fm(FOX).flat_footed = true;
        assert_eq!(gain(&s, WIL, blow), None, "no DEX bonus to deny");
        s.fm(FOX).flat_footed = false;
        s.fm(WIL).feints.push(feint::Feinted {
            target: FOX,
            round: 0,
        });
        assert_eq!(gain(&s, WIL, blow), None, "a feint held already");
        assert_eq!(gain(&wil_and_fox(1, ""), WIL, blow), None, "45%: two blows");
        let mut s = wil_and_fox(1, "\"improved feint\"");
        close(gain(&s, WIL, blow), (0.45 * 0.15 - 0.05) * 1.5);
        s.fm(WIL).acts_left = 1;
        assert_eq!(gain(&s, WIL, blow), None, "no blow would follow this turn");
    }

    /// With DV 14 Wil's dagger hits on 15 or more (30%), and DV 10 without the DEX bonus on 11
    /// or more (50%): the feint's 0.9 · 0.2 = 0.18 is less than the two blows' 0.6. [CEL-R11]
    #[test]
    fn a_likely_blow_is_struck() {
        let mut s = wil_and_fox(10, "");
        s.fm(FOX).gm_dv -= 6;
        let w = s.p(WIL).melee[0].clone();
        assert_eq!(bonus_and_dv(&s, WIL, FOX, &w), (-1, 14));
        assert_eq!(gain(&s, WIL, Choice::Attack(FOX, 0)), None);
    }
}
