//! Items other than weapons used in a fight, as content data (`content/celesia/items.toml`,
//! `[[item]]`): drinking a liquid or applying an oil (CEL-R11, standard, Provoke),
//! administering one to an unconscious creature (CEL-R12, full, Provoke), and using a command
//! word item (CEL-R11, standard), a spell trigger item (standard) or a spell completion item
//! (standard, Provoke). The seed gives the acts and subtypes; the effects are data (healing,
//! Pathfinder's numbers). A combatant carries what its entry's `items` lists at hand, and what
//! its `stored` lists in a container on its person: Manipulate an Item (CEL-R9, simple,
//! Provoke) retrieves one to hand before it is used. `heal` serves every healing: items and the
//! GM's `hp WHO +N`.

use crate::choice::Choice;
use crate::spell::{Range, Spell};
use crate::state::{Band, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt, RollPurpose};
use fray_core::span::{FileError, SourceFile};
use fray_core::{CombatantId, DamageDice, Table};
use serde::Deserialize;
use toml::Spanned;

/// How an item is used, which fixes the action's acts and subtype. [CEL-R11, R12]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemUse {
    /// A potion, elixir or oil: Drink a Liquid or Apply an Oil (standard, Provoke), or
    /// Administer it to an unconscious creature (full, Provoke).
    Liquid,
    /// Use a Command Word Item (standard).
    CommandWord,
    /// Use a Spell Trigger Item (standard).
    SpellTrigger,
    /// Use a Spell Completion Item (standard, Provoke).
    SpellCompletion,
}

impl ItemUse {
    /// Every use.
    pub const ALL: [ItemUse; 4] = [
        ItemUse::Liquid,
        ItemUse::CommandWord,
        ItemUse::SpellTrigger,
        ItemUse::SpellCompletion,
    ];
    /// Its word in files.
    pub fn key(self) -> &'static str {
        match self {
            ItemUse::Liquid => "liquid",
            ItemUse::CommandWord => "command-word",
            ItemUse::SpellTrigger => "spell-trigger",
            ItemUse::SpellCompletion => "spell-completion",
        }
    }
    /// Whether using it casts a spell: a spell trigger or spell completion item ("You cast a
    /// spell from a spell trigger item"), not a liquid drunk or applied nor a command word item
    /// activated. [CEL-R11]
    pub fn casts(self) -> bool {
        matches!(self, ItemUse::SpellTrigger | ItemUse::SpellCompletion)
    }
    /// Whether using it provokes: the seed's "(Provoke)" on the action's heading. [CEL-R11]
    pub fn provokes(self) -> bool {
        matches!(self, ItemUse::Liquid | ItemUse::SpellCompletion)
    }
}

/// What using an item does.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Effect {
    /// It heals these hit points (rolled).
    Heal(DamageDice),
    /// It casts this spell (content/celesia/spells.toml) at the item's caster level, its save
    /// against the item's DC: its attack roll is its user's (CEL-R11 Use a Spell Trigger /
    /// Completion Item: "not an attack action, even if the spell needs a ranged attack").
    Spell {
        /// The spell.
        spell: Spell,
        /// The item's caster level.
        caster_level: i32,
        /// The DC of a save against it (0: the spell has no save).
        dc: i32,
    },
}

/// One kind of item (content data).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Gear {
    /// Its name.
    pub name: String,
    /// How it is used.
    pub how: ItemUse,
    /// What it does.
    pub effect: Effect,
    /// Uses (a wand's charges); 1 for a potion.
    pub uses: u8,
}

impl Gear {
    /// The spell it casts, if it casts one.
    pub fn spell(&self) -> Option<&Spell> {
        match &self.effect {
            Effect::Spell { spell, .. } => Some(spell),
            Effect::Heal(_) => None,
        }
    }
    /// Its effect in the log's words.
    pub fn does(&self) -> String {
        match &self.effect {
            Effect::Heal(dice) => format!("heals {dice}"),
            Effect::Spell {
                spell,
                caster_level,
                dc,
            } => {
                let save = if *dc > 0 {
                    format!(", save DC {dc}")
                } else {
                    String::new()
                };
                format!("{}, caster level {caster_level}{save}", spell.name)
            }
        }
    }
}

impl Gear {
    /// Its key in choices (`potion-of-cure-light-wounds`).
    pub fn key(&self) -> String {
        fray_core::catalog::name_key(&self.name).replace(' ', "-")
    }
}

/// One `[[item]]` of a content file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GearFile {
    name: Spanned<String>,
    #[serde(rename = "use")]
    how: Spanned<String>,
    heal: Option<Spanned<String>>,
    spell: Option<Spanned<String>>,
    caster_level: Option<Spanned<i64>>,
    dc: Option<Spanned<i64>>,
    uses: Option<Spanned<i64>>,
}

impl GearFile {
    /// Where its name is.
    pub fn name_span(&self) -> std::ops::Range<usize> {
        self.name.span()
    }
}

/// Reads one `[[item]]`, reporting each bad field with its place: it heals (`heal`) or casts a
/// spell of `spells` (`spell`, with the item's `caster_level` and, for a spell with a save, its
/// `dc`).
pub fn read(
    file: &SourceFile<'_>,
    at: &str,
    def: &GearFile,
    spells: &fray_core::catalog::Catalog<Spell>,
    errors: &mut Vec<FileError>,
) -> Option<Gear> {
    let before = errors.len();
    let how = ItemUse::ALL
        .into_iter()
        .find(|u| u.key() == def.how.get_ref());
    if how.is_none() {
        errors.push(file.error(
            def.how.span(),
            Some(format!("{at}.use")),
            "expected liquid, command-word, spell-trigger or spell-completion",
        ));
    }
    let effect = read_effect(file, at, def, how, spells, errors);
    let uses = match &def.uses {
        Some(u) if !(1..=50).contains(u.get_ref()) => {
            errors.push(file.error(
                u.span(),
                Some(format!("{at}.uses")),
                "expected a whole number from 1 to 50",
            ));
            1
        }
        Some(u) => *u.get_ref() as u8,
        None => 1,
    };
    if errors.len() != before {
        return None;
    }
    Some(Gear {
        name: def.name.get_ref().clone(),
        how: how?,
        effect: effect?,
        uses,
    })
}

/// An `[[item]]`'s effect: `heal` dice, or a `spell` with `caster_level` (1–20) and `dc`
/// (1–60, for a spell with a save only); exactly one of `heal` and `spell`. A spell trigger or
/// spell completion item casts a spell ("You cast a spell from a spell trigger item", CEL-R11),
/// so it has a `spell` (cure light wounds for a healing one); a liquid or a command word item
/// casts none ("You drink a potion … gaining that liquid's effects", "You activate a magic item
/// with a command word"), so it has `heal`.
fn read_effect(
    file: &SourceFile<'_>,
    at: &str,
    def: &GearFile,
    how: Option<ItemUse>,
    spells: &fray_core::catalog::Catalog<Spell>,
    errors: &mut Vec<FileError>,
) -> Option<Effect> {
    let mut bad = |span: std::ops::Range<usize>, key: &str, why: String| {
        errors.push(file.error(span, Some(format!("{at}.{key}")), why));
        None
    };
    let casts = how.map(ItemUse::casts);
    match (&def.heal, &def.spell) {
        (Some(heal), None) if casts == Some(true) => bad(
            heal.span(),
            "heal",
            format!(
                "a {} item casts a spell (CEL-R11: \"You cast a spell from\" it): give its \
                 `spell`, such as cure light wounds, with its `caster_level`",
                def.how.get_ref()
            ),
        ),
        (None, Some(name)) if casts == Some(false) => bad(
            name.span(),
            "spell",
            format!(
                "a {} item casts no spell (CEL-R11 Drink a Liquid, Use a Command Word Item): \
                 give what it `heal`s",
                def.how.get_ref()
            ),
        ),
        (Some(heal), None) => {
            for (key, v) in [("caster_level", &def.caster_level), ("dc", &def.dc)] {
                if let Some(v) = v {
                    return bad(v.span(), key, "only an item with a `spell` has it".into());
                }
            }
            match DamageDice::parse_dice(heal.get_ref()) {
                Some(dice) => Some(Effect::Heal(dice)),
                None => bad(heal.span(), "heal", "expected dice such as 1d8+1".into()),
            }
        }
        (None, Some(name)) => {
            let Some(spell) = spells.get(name.get_ref()) else {
                let why = spells.unknown("spell", name.get_ref(), "fray content celesia spells");
                return bad(name.span(), "spell", why);
            };
            let Some(cl) = &def.caster_level else {
                return bad(
                    def.name.span(),
                    "caster_level",
                    "an item with a `spell` gives its caster level (1 to 20)".into(),
                );
            };
            if !(1..=20).contains(cl.get_ref()) {
                return bad(cl.span(), "caster_level", "expected 1 to 20".into());
            }
            let dc = match (&def.dc, spell.save.is_some()) {
                (Some(dc), true) if (1..=60).contains(dc.get_ref()) => *dc.get_ref() as i32,
                (Some(dc), true) => return bad(dc.span(), "dc", "expected 1 to 60".into()),
                (None, true) => {
                    return bad(
                        def.name.span(),
                        "dc",
                        format!("{} allows a save: the item gives its `dc`", spell.name),
                    )
                }
                (Some(dc), false) => {
                    return bad(dc.span(), "dc", format!("{} allows no save", spell.name))
                }
                (None, false) => 0,
            };
            Some(Effect::Spell {
                spell: spell.clone(),
                caster_level: *cl.get_ref() as i32,
                dc,
            })
        }
        _ => bad(
            def.name.span(),
            "heal",
            "an item heals (`heal`) or casts a spell (`spell`): exactly one of them".into(),
        ),
    }
}

/// Uses of item `book` (its place in [`State::gear_book`]) `who` still has at hand.
pub fn uses_left(state: &State, who: CombatantId, book: u8) -> u8 {
    uses_in(&state.f(who).gear, book)
}

/// Uses of item `book` in one of a combatant's item lists.
pub fn uses_in(list: &[(u8, u8)], book: u8) -> u8 {
    list.iter()
        .filter(|(b, _)| *b == book)
        .map(|(_, n)| *n)
        .fold(0, u8::saturating_add)
}

/// The item options of `who`: each item it still has, drunk or used on itself, used on each
/// creature next to it, administered to each unconscious one next to it.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let f = state.f(who);
    // CEL-R9 Manipulate an Item: each stored item with uses left can be retrieved.
    for &(book, uses) in &f.packed {
        if uses > 0 && !out.contains(&Choice::Retrieve(book)) {
            out.push(Choice::Retrieve(book));
        }
    }
    if f.gear.is_empty() {
        return;
    }
    let near: Vec<CombatantId> = state.near(who, 1, |o| o != who).into_iter().collect();
    for &(book, uses) in &f.gear {
        if uses == 0 {
            continue;
        }
        let Some(gear) = state.gear_book.get(usize::from(book)) else {
            continue;
        };
        if gear.how == ItemUse::Liquid {
            out.push(Choice::Drink(book));
            out.extend(near.iter().map(|&t| Choice::Administer(book, t)));
        } else if let Some(spell) = gear.spell() {
            if spell.range == Range::Personal || on_oneself(spell) {
                out.push(Choice::UseItem(book, None));
            }
            if spell.range != Range::Personal {
                let aims = state.ids().filter(|&t| t != who && !state.f(t).absent());
                out.extend(aims.map(|t| Choice::UseItem(book, Some(t))));
            }
        } else {
            out.push(Choice::UseItem(book, None));
            out.extend(near.iter().map(|&t| Choice::UseItem(book, Some(t))));
        }
    }
}

/// Whether an item's spell, aimed, may be used on its user by naming no one (`use ITEM`): one
/// with no attack and no save, such as cure light wounds (as `rules::spell::in_range` allows).
fn on_oneself(spell: &Spell) -> bool {
    spell.attack.is_none() && spell.save.is_none() && spell.area.is_none()
}

/// Acts an item action costs: retrieve, simple (1); drink and use, standard (2); administer,
/// full (3). [CEL-R9, R11, R12]
pub fn acts(choice: &Choice) -> i32 {
    match choice {
        Choice::Retrieve(_) => 1,
        Choice::Administer(..) => 3,
        _ => 2,
    }
}

/// Whether `who` may take an item action now, naming the rule that forbids it.
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let (book, target, rule) = match *choice {
        Choice::Drink(b) => (b, None, "CEL-R11"),
        Choice::UseItem(b, t) => (b, t, "CEL-R11"),
        Choice::Administer(b, t) => (b, Some(t), "CEL-R12"),
        Choice::Retrieve(b) => (b, None, "CEL-R9"),
        _ => return no(explain, "CEL-R3", || "not an item action".to_string()),
    };
    let Some(gear) = state.gear_book.get(usize::from(book)) else {
        return no(explain, rule, || "no such item".to_string());
    };
    let stored = uses_in(&state.f(who).packed, book) > 0;
    if let Choice::Retrieve(_) = choice {
        return Illegal::unless(stored, explain, rule, || {
            format!(
                "it has no {} stored away (`stored` in its entry)",
                gear.name
            )
        });
    }
    if uses_left(state, who, book) == 0 {
        if stored {
            return no(explain, "CEL-R9", || {
                format!(
                    "the {} is stored in a container: `retrieve {}` first (Manipulate an Item)",
                    gear.name,
                    gear.key()
                )
            });
        }
        return no(explain, rule, || format!("it has no {} left", gear.name));
    }
    let liquid = gear.how == ItemUse::Liquid;
    match choice {
        Choice::Drink(_) if !liquid => {
            return no(explain, rule, || {
                format!("the {} is used (`use`), not drunk", gear.name)
            })
        }
        Choice::UseItem(..) if liquid => {
            return no(explain, rule, || {
                format!("the {} is drunk (`drink`) or administered", gear.name)
            })
        }
        Choice::Administer(..) if !liquid => {
            return no(explain, rule, || {
                "only a potion, elixir or oil is administered".to_string()
            })
        }
        _ => {}
    }
    if let Some(spell) = gear.spell() {
        // CEL-R6: the spell's own range and aim.
        return match target {
            Some(t) => super::spell::in_range(explain, state, who, t, spell, spell.range),
            None if spell.range == Range::Personal => Ok(()),
            None if on_oneself(spell) => {
                super::spell::in_range(explain, state, who, who, spell, spell.range)
            }
            None => no(explain, "CEL-R6", || {
                format!(
                    "the {}'s {} is aimed: `use {} WHO`",
                    gear.name,
                    spell.name,
                    gear.key()
                )
            }),
        };
    }
    let Some(t) = target else {
        return Ok(());
    };
    if t == who || state.f(t).absent() || state.f(t).dead {
        return no(explain, rule, || {
            "another living creature in the fight (`drink` or `use ITEM` for itself)".to_string()
        });
    }
    if state.gap(who, t) != 1 {
        return no(explain, rule, || {
            format!("{} is not next to it", state.roster.key(t))
        });
    }
    let unconscious = state.band(t) == Band::Dying || state.knocked_out(t);
    Illegal::unless(
        !matches!(choice, Choice::Administer(..)) || unconscious,
        explain,
        "CEL-R12",
        || {
            format!(
                "{} is not unconscious: a potion is administered to an unconscious creature",
                state.roster.key(t)
            )
        },
    )
}

/// Takes an item action: it provokes if its action does (before it starts, CEL-R3.5); then one
/// use is spent and its healing is rolled for the drinker, the creature it is administered to
/// or the one it is used on.
pub fn perform(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    choice: Choice,
) -> Result<(), Interrupt> {
    let (book, target, act, rule) = match choice {
        Choice::Drink(b) => (b, who, "drinks", "CEL-R11"),
        Choice::UseItem(b, None) => (b, who, "uses", "CEL-R11"),
        Choice::UseItem(b, Some(t)) => (b, t, "uses an item on", "CEL-R11"),
        Choice::Administer(b, t) => (b, t, "administers to", "CEL-R12"),
        Choice::Retrieve(b) => return retrieve(state, table, who, b),
        _ => return Ok(()),
    };
    let Some(gear) = state.gear_book.get(usize::from(book)).cloned() else {
        return Ok(());
    };
    if gear.how.provokes() && !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    if let Some(slot) = state
        .fm(who)
        .gear
        .iter_mut()
        .find(|(b, n)| *b == book && *n > 0)
    {
        slot.1 -= 1;
    }
    table.emit(|| Event::Acted {
        who,
        act,
        on: (target != who).then_some(target),
        detail: format!("the {} ({}: {})", gear.name, gear.how.key(), gear.does()),
        rule,
    });
    if state.f(target).absent() || state.f(target).dead {
        return Ok(());
    }
    match gear.effect {
        Effect::Heal(dice) => {
            let rolled = table.roll_damage(dice, Some(who), RollPurpose::Damage, rule)?;
            heal(state, table, target, (rolled + dice.bonus).max(0), rule);
            Ok(())
        }
        Effect::Spell {
            spell,
            caster_level,
            dc,
        } => {
            // CEL-R11 "You cast a spell from a spell trigger [completion] item": as the spell
            // is cast, its user's foes may identify (CEL-R14) and counter (CEL-R15) it;
            // countered, the item's use stays spent, as a caster's slot does.
            if super::spell::countered(state, table, who, &spell)? {
                return Ok(());
            }
            // CEL-R3.9: it casts a spell, so "if a foe casts a spell" is set off; a user
            // dropped by the readied action casts nothing (the use stays spent).
            if !super::ready::before_cast(state, table, who)? {
                return Ok(());
            }
            let aim = (target != who).then_some(target);
            let at = super::spell::CastAt { caster_level, dc };
            cast_from(state, table, who, &spell, at, aim)
        }
    }
}

/// The item's spell takes effect as the spell does (`rules::spell::resolve`: its touch attack
/// by its user, its save, their degrees, CEL-R6), at the item's caster level and save DC
/// instead of its user's.
fn cast_from(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    spell: &Spell,
    at: super::spell::CastAt,
    aim: Option<CombatantId>,
) -> Result<(), Interrupt> {
    let Some(i) = state.spellbook.iter().position(|s| s.name == spell.name) else {
        return Ok(());
    };
    super::spell::resolve(state, table, who, i, aim, at)
}

/// CEL-R9 Manipulate an Item: "You retrieve or store an item in a container on your person"
/// (simple, Provoke): the action provokes; then one stored `book` is at hand.
fn retrieve(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    book: u8,
) -> Result<(), Interrupt> {
    if !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    take_out(state, table, who, book);
    Ok(())
}

/// Item `book` comes out of the container on `who`'s person to hand (after the retrieve
/// provoked, or when the acts of the GM's complex ruling are all in, CEL-G3). [CEL-R9]
pub fn take_out(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId, book: u8) {
    let f = state.fm(who);
    let Some(at) = f.packed.iter().position(|(b, n)| *b == book && *n > 0) else {
        return;
    };
    let item = f.packed.remove(at);
    f.gear.push(item);
    let name = state
        .gear_book
        .get(usize::from(book))
        .map_or_else(String::new, |g| g.name.clone());
    table.emit(|| Event::Acted {
        who,
        act: "retrieves",
        on: None,
        detail: format!("the {name}, from a container on its person, to hand"),
        rule: "CEL-R9",
    });
}

/// Heals `who` by `amount`, up to its maximum: as much nonlethal damage goes too (CEL-R20.6);
/// a dying creature healed by 1 or more is stable, conscious again if its hit points leave the
/// dying band (CEL-R17.8).
pub fn heal(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    amount: i32,
    rule: &'static str,
) {
    let before = (
        state.band(who),
        state.knocked_out(who),
        state.staggered(who),
    );
    let (hp, max) = (state.f(who).hp, state.p(who).max_hp);
    let healed = (hp + amount).min(max.max(hp));
    let f = state.fm(who);
    f.hp = healed;
    f.nonlethal = (f.nonlethal - amount).max(0);
    // CEL-R12, R20.6: healing ends a nonlethal coup de grace's unconsciousness (a reading).
    if amount > 0 {
        f.out_cold = false;
    }
    if before.0 == Band::Dying && amount > 0 {
        f.stable = true;
    }
    table.emit(|| Event::Healed {
        who,
        amount: healed - hp,
        hp: healed,
        rule,
    });
    super::injury::settle(state, table, who, before);
}

#[cfg(test)]
mod tests {
    use crate::content::Content;
    use fray_core::catalog::ContentSet;

    const SPELL: &str = "[[spell]]\nname = \"ember\"\nlevel = 1\ncasting = \"standard\"\n\
        range = \"ranged\"\nrange_ft = 30\nsave = \"reflex\"\non_save = \"half\"\n\
        damage = \"1d6\"\nspell_resistance = true\n";

    fn load(items: &str) -> Result<Content, String> {
        Content::load(&[("s.toml", SPELL), ("i.toml", items)]).map_err(|e| e.to_string())
    }

    /// CEL-R11: an item heals or casts a spell of the content, with its caster level and, for
    /// a spell with a save, its DC; each bad field is named with its place.
    #[test]
    fn items_casting_spells_are_checked() {
        let ok = "[[item]]\nname = \"wand of ember\"\nuse = \"spell-trigger\"\n\
            spell = \"ember\"\ncaster_level = 2\ndc = 12\nuses = 3\n";
        let content = load(ok).expect("a wand of a known spell loads");
        let wand = content.items.get("wand of ember").expect("the wand");
        assert_eq!(wand.spell().map(|s| s.name.as_str()), Some("ember"));
        assert_eq!(wand.does(), "ember, caster level 2, save DC 12");
        for (bad, field) in [
            (
                ok.replace("\"ember\"\ncaster", "\"embers\"\ncaster"),
                "item[0].spell",
            ),
            (ok.replace("caster_level = 2\n", ""), "item[0].caster_level"),
            (
                ok.replace("caster_level = 2", "caster_level = 21"),
                "item[0].caster_level",
            ),
            (ok.replace("dc = 12\n", ""), "item[0].dc"),
            (ok.replace("uses = 3", "heal = \"1d8\""), "item[0].heal"),
        ] {
            let err = load(&bad).expect_err(&bad);
            assert!(err.contains(field), "{field}: {err}");
        }
        let healing = "[[item]]\nname = \"salve\"\nuse = \"liquid\"\nheal = \"1d4\"\ndc = 3\n";
        assert!(load(healing).expect_err("dc").contains("item[0].dc"));
    }

    /// CEL-R11: a spell trigger or spell completion item casts a spell (a healing one too),
    /// a liquid or a command word item casts none; each refusal names its field and place.
    #[test]
    fn only_spell_trigger_and_completion_items_cast() {
        for how in ["spell-trigger", "spell-completion"] {
            let healing = format!("[[item]]\nname = \"rod\"\nuse = \"{how}\"\nheal = \"1d8\"\n");
            let err = load(&healing).expect_err(how);
            assert!(
                err.contains("i.toml:4") && err.contains("item[0].heal"),
                "{err}"
            );
            assert!(err.contains("casts a spell"), "{err}");
        }
        for how in ["liquid", "command-word"] {
            let casting = format!(
                "[[item]]\nname = \"rod\"\nuse = \"{how}\"\nspell = \"ember\"\ncaster_level = 1\ndc = 11\n"
            );
            let err = load(&casting).expect_err(how);
            assert!(
                err.contains("i.toml:4") && err.contains("item[0].spell"),
                "{err}"
            );
            assert!(err.contains("casts no spell"), "{err}");
        }
        let builtin = Content::embedded().expect("the built-in content loads");
        for name in ["wand of cure light wounds", "scroll of cure light wounds"] {
            let gear = builtin.items.get(name).expect(name);
            let spell = gear
                .spell()
                .expect("a healing wand or scroll casts a spell");
            assert_eq!((spell.name.as_str(), spell.level), ("cure light wounds", 1));
            assert!(gear.how.casts());
        }
        let potion = builtin
            .items
            .get("potion of cure light wounds")
            .expect("potion");
        assert!(potion.spell().is_none() && !potion.how.casts());
    }
}
