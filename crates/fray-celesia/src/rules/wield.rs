//! CEL-R9 Draw or Sheathe a Weapon (simple, 1 act, Provoke) and the hands that hold weapons:
//! for a combatant whose encounter entry says what it holds (`in_hand`), only weapons in hand
//! can be used, a weapon held in two hands (a two-handed weapon, a bow) takes both, and a
//! weapon is drawn into free hands. Without `in_hand`, every weapon counts as in hand (the
//! encounter has not said otherwise).

use super::round;
use crate::choice::Choice;
use crate::content::{Hands, Weapon, WeaponKind};
use crate::state::{Item, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// Hands a manufactured weapon takes in use: two for a two-handed weapon (bows and crossbows
/// among them), else one. [CEL-R9 Draw or Sheathe: "so that you have a free hand"]
pub fn hands_for(w: &Weapon) -> i32 {
    if w.hands == Hands::Two {
        2
    } else {
        1
    }
}

/// A weapon held in the hand (not a natural attack nor an unarmed strike).
pub fn manufactured(w: &Weapon) -> bool {
    !w.kind.is_natural() && w.kind != WeaponKind::Unarmed
}

/// Every manufactured weapon of `who`'s profile, as items.
fn items(state: &State, who: CombatantId) -> impl Iterator<Item = (Item, &Weapon)> {
    let p = state.p(who);
    let melee = p
        .melee
        .iter()
        .enumerate()
        .take(64)
        .map(|(i, w)| (Item::Melee(i as u8), w));
    melee
        .chain(p.ranged.iter().map(|w| (Item::Ranged, w)))
        .filter(|(_, w)| manufactured(w))
}

/// The weapon `item` of `who`'s profile, if it is a manufactured one.
pub fn weapon_of(state: &State, who: CombatantId, item: Item) -> Option<&Weapon> {
    items(state, who).find(|(i, _)| *i == item).map(|(_, w)| w)
}

/// Hands `who` has to hold weapons with (CEL-R18 hand and arm injuries).
pub fn hands(state: &State, who: CombatantId) -> i32 {
    let i = &state.f(who).injuries;
    i32::from(i.hands.intact().min(i.arms.intact()))
}

/// Whether crippling injuries to hands or arms leave `who` too few intact hands to use `w`
/// (the weapon is its own, not dropped nor sheathed): a hand injury's "cannot hold items in
/// that hand ... cannot use two-handed items if only one intact hand remaining", an arm
/// injury's "cannot use any items with that arm". While its hands are tracked, a strapped
/// shield that takes a hand (`shield::hands_taken`) holds one of the intact hands too. [CEL-R18]
pub fn injuries_forbid(state: &State, who: CombatantId, w: &Weapon) -> bool {
    let i = &state.f(who).injuries;
    let injured = i.hands.lost() > 0 || i.arms.lost() > 0;
    injured && hands(state, who) < hands_for(w) + super::shield::hands_taken(state, who)
}

/// The refusal of a weapon `injuries_forbid` rules out, naming the injury's rule. [CEL-R18]
pub fn injured_hands(
    explain: bool,
    state: &State,
    who: CombatantId,
    w: &Weapon,
) -> Result<(), Illegal> {
    no(explain, "CEL-R18", || {
        let arm = state.f(who).injuries.arms.lost() > 0;
        if hands(state, who) >= hands_for(w) {
            let shield = state
                .p(who)
                .shield
                .as_ref()
                .map_or("shield", |s| s.name.as_str());
            format!(
                "its {shield} takes the intact hand left, and the {} needs one more (\"cannot hold items in that hand\")",
                w.name
            )
        } else if hands(state, who) == 0 {
            let words = if arm {
                "cannot use any items with that arm"
            } else {
                "cannot hold items in that hand"
            };
            format!(
                "no intact hand and arm is left to use the {} (\"{words}\")",
                w.name
            )
        } else {
            let words = if arm {
                "cannot use two-handed items if only one intact arm and intact hand remaining"
            } else {
                "cannot use two-handed items if only one intact hand remaining"
            };
            format!(
                "the {} takes two hands and one intact hand and arm is left (\"{words}\")",
                w.name
            )
        }
    })
}

/// Hands taken by the weapons `who` holds now and by its strapped shield
/// (`shield::hands_taken`).
pub fn hands_busy(state: &State, who: CombatantId) -> i32 {
    items(state, who)
        .filter(|(item, _)| state.held(who, *item).is_some())
        .map(|(_, w)| hands_for(w))
        .sum::<i32>()
        + super::shield::hands_taken(state, who)
}

/// Hands `who` has free: neither holding a weapon nor taken by its strapped shield, while its
/// hands are tracked (`in_hand`); untracked, every hand counts as free for what asks one (a
/// grapple's, a steal's, a somatic component's), as fray has always played it. [CEL-R9]
pub fn free_hands(state: &State, who: CombatantId) -> i32 {
    if state.f(who).hands_tracked {
        (hands(state, who) - hands_busy(state, who)).max(0)
    } else {
        hands(state, who)
    }
}

/// Hands `who` has free to use (a somatic component, a steal, sleight of hand): its
/// [`free_hands`], but a weapon held in both hands takes both, tracked or not, until it lets
/// go (`grip one`). Strapping on a shield or drawing a weapon takes the hand from the grip
/// instead (the grip ends, `grip::settle`). [CEL-R9; seed, Attack, Melee]
pub fn hands_to_use(state: &State, who: CombatantId) -> i32 {
    let grip = super::grip::hand_taken(state, who);
    if state.f(who).hands_tracked {
        (free_hands(state, who) - grip).max(0)
    } else {
        (hands(state, who) - 2 * grip).max(0)
    }
}

/// Whether `who` has a hand free to take an item with: arms, a free hand, and no two-handed
/// manufactured weapon as its first melee form. [CEL-R10.13 Steal "at least one hand free";
/// CEL-R11 Sleight of Hand, a reading]
pub fn hand_free(state: &State, who: CombatantId) -> bool {
    let two_handed = state.melee_forms(who).next().is_some_and(|(_, w)| {
        w.hands == Hands::Two && !matches!(w.kind, WeaponKind::Natural | WeaponKind::Unarmed)
    });
    state.p(who).arms > 0 && hands_to_use(state, who) >= 1 && !two_handed
}

/// May `who` take `item` into its hands (drawing it or picking it up)? Always while its hands
/// are not tracked. [CEL-R9]
pub fn room_for(state: &State, who: CombatantId, item: Item) -> bool {
    if !state.f(who).hands_tracked {
        return true;
    }
    weapon_of(state, who, item)
        .is_some_and(|w| hands_busy(state, who) + hands_for(w) <= hands(state, who))
}

/// The Draw and Sheathe options of `who`.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if !state.f(who).hands_tracked {
        return;
    }
    for (item, _) in items(state, who) {
        if state.dropped(who, item) {
            continue;
        }
        if state.sheathed(who, item) {
            out.push(Choice::Draw(item));
        } else {
            out.push(Choice::Sheathe(item));
        }
    }
    // CEL-R9: two at once with Two-Weapon Fighting.
    if state.p(who).feats.two_weapon_fighting {
        let away: Vec<Item> = items(state, who)
            .filter(|(i, _)| state.sheathed(who, *i) && !state.dropped(who, *i))
            .map(|(i, _)| i)
            .collect();
        for (n, &a) in away.iter().enumerate() {
            for &b in &away[n + 1..] {
                out.push(Choice::DrawTwo(a, b));
            }
        }
    }
}

/// Whether `who` may draw or sheathe (`draw` false) `item` now. [CEL-R9]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    item: Item,
    draw: bool,
) -> Result<(), Illegal> {
    let rule = "CEL-R9";
    if !state.f(who).hands_tracked {
        return no(explain, rule, || {
            "its weapons all count as in hand (its entry does not say what it holds: `in_hand`)"
                .to_string()
        });
    }
    if weapon_of(state, who, item).is_none() {
        return no(explain, rule, || {
            format!(
                "`{}` is not a weapon it carries (a melee form number or `ranged`)",
                item.key()
            )
        });
    }
    if state.dropped(who, item) {
        return no(explain, rule, || {
            "it no longer has that weapon (dropped: pick it up)".to_string()
        });
    }
    if draw {
        if !state.sheathed(who, item) {
            return no(explain, rule, || {
                "that weapon is in its hand already".to_string()
            });
        }
        Illegal::unless(room_for(state, who, item), explain, rule, || {
            let shield = if super::shield::hands_taken(state, who) > 0 {
                ", a strapped shield one: `drop shield`"
            } else {
                ""
            };
            format!(
                "its hands are full: sheathe or drop a weapon first (a two-handed weapon takes \
                 both{shield})"
            )
        })
    } else {
        Illegal::unless(!state.sheathed(who, item), explain, rule, || {
            "that weapon is not in its hand".to_string()
        })?;
        super::gauntlet::check_let_go(explain, state, who, item, "sheathe")
    }
}

/// Remembers that `who` has just moved (a Move simple action), for a draw combined with it.
#[inline]
pub fn note_move(state: &mut State, who: CombatantId, choice: &Choice) {
    // A draw or a shield readied or dropped with the Move (CEL-R9) keeps it for the other.
    if matches!(
        choice,
        Choice::Draw(_) | Choice::DrawTwo(..) | Choice::ReadyShield | Choice::DropShield
    ) {
        return;
    }
    let f = state.fm(who);
    let now = (f.turns, f.act_clock);
    f.move_at = matches!(choice, Choice::MoveTo(_) | Choice::Approach(_)).then_some(now);
    f.charge_at = matches!(choice, Choice::Charge(_)).then_some(now);
}

/// CEL-R9: "If you have a base attack bonus of +1 or higher, you may draw a weapon as a free
/// action combined with the Move simple action": right after its Move (no act between), once
/// per Move.
pub fn draws_with_move(state: &State, who: CombatantId) -> bool {
    let f = state.f(who);
    state.p(who).bab >= 1 && f.move_at == Some((f.turns, f.act_clock))
}

/// CEL-R11 Charge: "As long as you have a base attack bonus of +1 or higher, you can draw a
/// weapon as a free action at any point during the charge": right after its charge's move (no
/// act between; the charge's attack comes after it), one weapon.
pub fn draws_with_charge(state: &State, who: CombatantId) -> bool {
    let f = state.f(who);
    state.p(who).bab >= 1
        && f.charge_target.is_some()
        && f.charge_at == Some((f.turns, f.act_clock))
}

/// A draw that is a free part of a Move or a Charge (BAB +1), which has provoked already.
/// [CEL-R9, R11]
fn draws_free(state: &State, who: CombatantId) -> bool {
    draws_with_move(state, who) || draws_with_charge(state, who)
}

/// Acts a draw costs now: none when combined with a Move or a Charge or with Quick Draw, else 1
/// (simple). [CEL-R9, R11]
pub fn draw_acts(state: &State, who: CombatantId) -> i32 {
    if draws_free(state, who) || state.p(who).feats.quick_draw {
        0
    } else {
        1
    }
}

/// Draws (`draw`) or sheathes `item`: the action provokes first (CEL-R9), then the weapon is
/// in hand or put away. A draw combined with a Move (BAB +1) is a free part of that Move, which
/// has provoked already.
pub fn draw_or_sheathe(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    item: Item,
    draw: bool,
) -> Result<(), Interrupt> {
    draw_items(state, table, who, &[item], draw)
}

/// Draws (or sheathes) `items` at once: one weapon, or two with Two-Weapon Fighting. Quick
/// Draw makes a draw free and provoke nothing; a draw combined with a Move (BAB +1) is a free
/// part of that Move, which has provoked already. [CEL-R9]
fn draw_items(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    items: &[Item],
    draw: bool,
) -> Result<(), Interrupt> {
    let quick = draw && state.p(who).feats.quick_draw;
    let with_charge = draw && !quick && draws_with_charge(state, who);
    let with_move = draw && !quick && draws_free(state, who);
    // One weapon per Move or Charge: the next draw is an action of its own.
    (state.fm(who).move_at, state.fm(who).charge_at) = (None, None);
    if !with_move && !quick && !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    let mut names: Vec<String> = Vec::new();
    for &item in items {
        state.set_sheathed(who, item, !draw);
        names.extend(weapon_of(state, who, item).map(|w| w.name.clone()));
    }
    let name = names.join(" and ");
    let how = if quick {
        ", a free action provoking nothing (Quick Draw)"
    } else if with_charge {
        ", a free action during its charge (BAB +1)"
    } else if with_move {
        ", a free action with its Move (BAB +1)"
    } else {
        ""
    };
    let two = if items.len() > 1 {
        " at once (Two-Weapon Fighting)"
    } else {
        ""
    };
    table.emit(|| Event::Acted {
        who,
        act: if draw { "draws" } else { "sheathes" },
        on: None,
        detail: format!("{name}{two}{how}"),
        rule: if with_charge { "CEL-R11" } else { "CEL-R9" },
    });
    Ok(())
}

/// CEL-R9: "If you have the Two-Weapon Fighting feat, you can draw two light or one-handed
/// weapons in the time it would normally take you to draw one."
pub fn check_two(
    explain: bool,
    state: &State,
    who: CombatantId,
    a: Item,
    b: Item,
) -> Result<(), Illegal> {
    let rule = "CEL-R9";
    if !state.p(who).feats.two_weapon_fighting {
        return no(explain, rule, || {
            "drawing two weapons at once takes the Two-Weapon Fighting feat".to_string()
        });
    }
    if a == b {
        return no(explain, rule, || "name two different weapons".to_string());
    }
    check(explain, state, who, a, true)?;
    check(explain, state, who, b, true)?;
    let (wa, wb) = (weapon_of(state, who, a), weapon_of(state, who, b));
    let (Some(wa), Some(wb)) = (wa, wb) else {
        return no(explain, rule, || "not two weapons it carries".to_string());
    };
    if wa.hands == Hands::Two || wb.hands == Hands::Two {
        return no(explain, rule, || {
            "only light or one-handed weapons are drawn two at once".to_string()
        });
    }
    Illegal::unless(
        hands_busy(state, who) + 2 <= hands(state, who),
        explain,
        rule,
        || "its hands are not both free for two weapons".to_string(),
    )
}

/// Draws two weapons at once (Two-Weapon Fighting). [CEL-R9]
pub fn draw_two(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    a: Item,
    b: Item,
) -> Result<(), Interrupt> {
    draw_items(state, table, who, &[a, b], true)
}

/// Reads an encounter's `in_hand` list of items (`"0"`, `"ranged"`) into the sheathed ones:
/// every manufactured weapon not listed. `Err` names what is wrong.
pub fn start_in_hand(
    profile: &crate::state::Profile,
    keys: &[String],
    shield_hand: i32,
) -> Result<(u64, bool), String> {
    let mut listed: Vec<Item> = Vec::new();
    // A strapped shield takes its hand from the start (`shield::hands_taken`).
    let mut busy = shield_hand;
    for key in keys {
        let item = match key.as_str() {
            "ranged" => Item::Ranged,
            n => Item::Melee(n.parse::<u8>().map_err(|_| {
                format!("`{n}`: name a weapon by its melee form number or `ranged`")
            })?),
        };
        let w = match item {
            Item::Melee(i) => profile.melee.get(usize::from(i)),
            Item::Ranged => profile.ranged.as_ref(),
        };
        let Some(w) = w.filter(|w| manufactured(w)) else {
            return Err(format!("`{key}` is not a weapon it carries in hand"));
        };
        if listed.contains(&item) {
            return Err(format!("`{key}` is listed twice"));
        }
        listed.push(item);
        busy += hands_for(w);
    }
    let have = profile.arms.min(2);
    if busy > have {
        return Err(format!(
            "these weapons{} take {busy} hands and it has {have} (a two-handed weapon takes both{})",
            if shield_hand > 0 { " and its strapped shield" } else { "" },
            if shield_hand > 0 {
                "; a shield but a buckler takes one: `shield_strapped = false` carries it"
            } else {
                ""
            }
        ));
    }
    let mut sheathed = 0u64;
    for (i, w) in profile.melee.iter().enumerate().take(64) {
        if manufactured(w) && !listed.contains(&Item::Melee(i as u8)) {
            sheathed |= 1 << i;
        }
    }
    let ranged =
        profile.ranged.as_ref().is_some_and(manufactured) && !listed.contains(&Item::Ranged);
    Ok((sheathed, ranged))
}

/// The default tactics' use of this module: a combatant whose hands are tracked and hold no
/// weapon draws one, its first melee weapon if it has room, else its ranged weapon.
#[inline(always)]
pub fn tactic(state: &State, who: CombatantId) -> Option<Choice> {
    // At every decision: this test inline in the caller, the rest out of line (issue 16).
    if !state.f(who).hands_tracked {
        return None;
    }
    draw_tactic(state, who)
}

/// [`tactic`], for a combatant whose hands are tracked.
#[inline(never)]
fn draw_tactic(state: &State, who: CombatantId) -> Option<Choice> {
    if !state.f(who).hands_tracked || hands_busy(state, who) > 0 {
        return None;
    }
    let mut drawable = items(state, who).map(|(item, _)| Choice::Draw(item));
    drawable.find(|c| match c {
        Choice::Draw(item) => check(false, state, who, *item, true).is_ok(),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_core::DamageDice;

    fn weapon(hands: Hands, kind: WeaponKind) -> Weapon {
        Weapon {
            name: "w".into(),
            damage: DamageDice {
                count: 1,
                sides: 8,
                bonus: 0,
            },
            kind,
            hands,
            threat: 20,
            multiplier: 2,
            reach: 5,
            reach_only: false,
            range: 0,
            nonlethal: false,
            secondary: false,
            load: crate::content::Loading::None,
            capacity: 1,
            splash: false,
            double: None,
        }
    }

    #[test]
    fn a_two_handed_weapon_takes_both_hands() {
        assert_eq!(hands_for(&weapon(Hands::Two, WeaponKind::Projectile)), 2);
        assert_eq!(hands_for(&weapon(Hands::One, WeaponKind::Melee)), 1);
        assert_eq!(hands_for(&weapon(Hands::Light, WeaponKind::Melee)), 1);
        assert!(!manufactured(&weapon(Hands::Light, WeaponKind::Natural)));
    }

    /// CEL-R18 Hand Injury with CEL-R9's hands: a hand-injured fighter whose hands are
    /// tracked and whose heavy shield is strapped on has no hand left for a longsword; a
    /// buckler takes no hand; untracked hands are not counted.
    #[test]
    fn a_strapped_shield_holds_the_last_intact_hand() {
        use crate::fixture::Fixture;
        let fighter = "class = \"fighter\"\nlevel = 3\nhp = 30\nweapon = \"longsword\"\ninjuries = [\"hand\"]";
        let state = Fixture::new()
            .with(
                "heavy",
                "a",
                [0, 0],
                &format!("{fighter}\nshield = \"heavy shield\"\nin_hand = [\"0\"]"),
            )
            .with(
                "buckler",
                "a",
                [0, 2],
                &format!("{fighter}\nshield = \"buckler\"\nin_hand = [\"0\"]"),
            )
            .with(
                "untracked",
                "a",
                [0, 4],
                &format!("{fighter}\nshield = \"heavy shield\""),
            )
            .monster("orc", "b", [5, 5], "orc")
            .state();
        let one = weapon(Hands::One, WeaponKind::Melee);
        let [heavy, buckler, untracked] = [0, 1, 2].map(CombatantId);
        assert!(injuries_forbid(&state, heavy, &one));
        assert!(!injuries_forbid(&state, buckler, &one));
        assert!(!injuries_forbid(&state, untracked, &one));
        // The longsword (form 0) is not among the usable forms while the shield holds the hand.
        let has_sword = |who| state.melee_forms(who).any(|(i, _)| i == 0);
        assert!(!has_sword(heavy));
        assert!(has_sword(buckler));
        assert!(has_sword(untracked));
        match injured_hands(true, &state, heavy, &one) {
            Err(Illegal { rule, reason }) => {
                assert_eq!(rule, "CEL-R18");
                assert!(
                    reason.contains("heavy shield takes the intact hand"),
                    "{reason}"
                );
            }
            Ok(()) => panic!("not refused"),
        }
    }

    #[test]
    fn injured_hands_forbid_what_they_cannot_hold() {
        use crate::fixture::{Fixture, FIGHTER};
        let state = Fixture::new()
            .with("whole", "a", [0, 0], FIGHTER)
            .with(
                "hand",
                "a",
                [0, 2],
                &format!("{FIGHTER}\ninjuries = [\"hand\"]"),
            )
            .with(
                "arm",
                "a",
                [0, 4],
                &format!("{FIGHTER}\ninjuries = [\"arm\"]"),
            )
            .with(
                "both",
                "a",
                [0, 6],
                &format!("{FIGHTER}\ninjuries = [\"hand\", \"hand\"]"),
            )
            .monster("orc", "b", [5, 5], "orc")
            .state();
        let two = weapon(Hands::Two, WeaponKind::Melee);
        let one = weapon(Hands::One, WeaponKind::Melee);
        let [whole, hand, arm, both] = [0, 1, 2, 3].map(CombatantId);
        assert!(!injuries_forbid(&state, whole, &two));
        for who in [hand, arm] {
            assert!(injuries_forbid(&state, who, &two));
            assert!(!injuries_forbid(&state, who, &one));
        }
        assert!(injuries_forbid(&state, both, &one));
        let why = |who| match injured_hands(true, &state, who, &two) {
            Err(Illegal { rule, reason }) => format!("{rule}: {reason}"),
            Ok(()) => panic!("not refused"),
        };
        assert!(why(hand).starts_with("CEL-R18: "), "{}", why(hand));
        assert!(why(hand).contains("only one intact hand remaining"));
        assert!(why(arm).contains("only one intact arm and intact hand remaining"));
        assert!(why(both).contains("no intact hand"));
    }

    /// CEL-R11 Charge: with BAB +1 a weapon is drawn as a free action during the charge (right
    /// after its move, no act between), one weapon; a Move's free draw is CEL-R9's, and a
    /// charge is not a Move, so a shield is not readied free with it.
    #[test]
    fn a_weapon_is_drawn_free_during_a_charge() {
        use crate::fixture::{Fixture, FIGHTER};
        let mut s = Fixture::new()
            .with("hal", "a", [0, 0], &format!("{FIGHTER}\nin_hand = []"))
            .monster("orc", "b", [6, 0], "orc")
            .state();
        let (hal, orc) = (CombatantId(0), CombatantId(1));
        assert_eq!(draw_acts(&s, hal), 1);
        note_move(&mut s, hal, &Choice::Charge(orc));
        s.fm(hal).charge_target = Some(orc);
        assert_eq!(draw_acts(&s, hal), 0);
        assert!(!draws_with_move(&s, hal), "not a Move: no free shield");
        s.fm(hal).act_clock += 1;
        assert_eq!(
            draw_acts(&s, hal),
            1,
            "an act between: no longer during the charge"
        );
    }
}
