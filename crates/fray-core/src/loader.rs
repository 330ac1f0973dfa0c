//! The one encounter loader every ruleset uses: the header, `[[sides]]`, the common keys of
//! `[[combatants]]` (id rules, `count`, placement, facing, member keys, duplicates, the
//! combatant cap, one combatant per square), `max_rounds` and `[script]`, with every problem
//! reported at once by file, line, column and field path.
//!
//! A ruleset declares its file with [`encounter_file!`](crate::encounter_file) and its
//! combatant entries with [`combatant_entry!`](crate::combatant_entry) (both add the common
//! keys), and implements [`CombatantBuilder`]: how to build *its* combatant from an entry, and
//! how to finish its state from its own extra tables. [`load`] does the rest.

use crate::driver::ScriptedChoice;
use crate::encounter::{
    controller_of, member_keys, member_names, parse_direction, read_header, roster_of_sides,
    ScriptDef, SideDef, MAX_COMBATANTS,
};
use crate::grid::{Direction, Pos};
use crate::ids::{CombatantId, SideId};
use crate::roster::{CombatantInfo, Controller, Roster};
use crate::ruleset::RulesetId;
use crate::runner::Limits;
use crate::span::{FileError, FileErrors, SourceFile, MAX_REPORTED_ERRORS};
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

/// Largest encounter text read, in bytes (1 MiB).
pub const MAX_ENCOUNTER_BYTES: usize = 1 << 20;

/// Longest combatant or side id, in characters.
pub const MAX_ID_CHARS: usize = 64;

/// Longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// Largest grid coordinate (either axis, either sign).
pub const MAX_COORDINATE: i64 = 1_000_000;

/// A loaded encounter of any ruleset: its starting state, limits and script.
#[derive(Debug, Clone)]
pub struct Encounter<S> {
    /// Its name.
    pub name: String,
    /// The starting state.
    pub state: S,
    /// Limits (the round limit).
    pub limits: Limits,
    /// Scripted die faces.
    pub dice: Vec<u32>,
    /// Scripted choices.
    pub choices: Vec<ScriptedChoice>,
}

/// The keys every encounter file has, borrowed from a ruleset's file type.
#[derive(Debug, Clone, Copy)]
pub struct CommonFile<'a, E> {
    /// `name`.
    pub name: Option<&'a Spanned<String>>,
    /// `max_rounds`.
    pub max_rounds: Option<&'a Spanned<i64>>,
    /// `[[sides]]`.
    pub sides: &'a [SideDef],
    /// `[[combatants]]`.
    pub combatants: &'a [E],
    /// `[script]`.
    pub script: &'a ScriptDef,
}

/// The keys every `[[combatants]]` entry has, borrowed from a ruleset's entry type.
#[derive(Debug, Clone, Copy)]
pub struct CommonEntry<'a> {
    /// `id`: the key of the combatant (or of the group, with `count`).
    pub id: Option<&'a Spanned<String>>,
    /// `name`: the display name.
    pub name: Option<&'a Spanned<String>>,
    /// `side`.
    pub side: Option<&'a Spanned<String>>,
    /// `count`: how many such combatants.
    pub count: Option<&'a Spanned<i64>>,
    /// `at`: where they stand.
    pub at: Option<&'a Spanned<toml::Value>>,
    /// `facing`.
    pub facing: Option<&'a Spanned<String>>,
    /// `player`: who controls them (default: their side's player, else the GM).
    pub player: Option<&'a Spanned<String>>,
    /// `reserve`: held off the map until the GM brings them in (`add` in `fray run`).
    pub reserve: Option<&'a Spanned<bool>>,
}

/// A ruleset's encounter file type (declared with [`encounter_file!`](crate::encounter_file)).
pub trait EncounterFile: DeserializeOwned {
    /// Its `[[combatants]]` entry type.
    type Entry: CombatantEntry;
    /// The common keys.
    fn common(&self) -> CommonFile<'_, Self::Entry>;
}

/// A ruleset's combatant entry type (declared with [`combatant_entry!`](crate::combatant_entry)).
pub trait CombatantEntry {
    /// The common keys.
    fn common(&self) -> CommonEntry<'_>;

    /// Where the entry's `id` stands (for errors about the entry as a whole).
    fn id_span(&self) -> Range<usize> {
        self.common().id.map_or(0..0, Spanned::span)
    }
}

/// Where a member of a combatant entry stands and whose side it is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// Its side.
    pub side: SideId,
    /// Its square.
    pub pos: Pos,
    /// The way it faces (`facing`, else the first side faces east and the others west).
    pub facing: Direction,
}

/// What a ruleset supplies to [`load`]: how to build its combatants and its state.
pub trait CombatantBuilder {
    /// The ruleset's file type.
    type File: EncounterFile;
    /// One combatant as the ruleset keeps it, built once per entry and copied to each member.
    type Member: Clone;
    /// The ruleset's fight state.
    type State;

    /// The ruleset whose files this reads.
    const RULESET: RulesetId;

    /// Whether the rules let two combatants be placed on one square (e.g. a rider on its
    /// mount, CEL-R21.3). Asked for each pair the file puts on one square; never, by default.
    fn may_share(&self, first: &Self::Member, second: &Self::Member) -> bool {
        let _ = (first, second);
        false
    }

    /// Whether the ruleset keeps combatants in reserve (`reserve = true`: off the map, taking
    /// no part, until the GM's `add` intervention brings them in; their standing is
    /// [`Standing::Reserve`](crate::Standing::Reserve) until then). A ruleset that does not
    /// refuses the key.
    const RESERVES: bool = false;

    /// Reads what the file defines before its combatants (e.g. its own monsters and weapons,
    /// added to the built-in content). Nothing by default.
    fn prepare(&mut self, cx: &mut Loader<'_>, file: &Self::File) {
        let _ = (cx, file);
    }

    /// The display name of an entry that gives none (e.g. its monster's name).
    fn default_name(&self, entry: &<Self::File as EncounterFile>::Entry) -> Option<String>;

    /// Builds the combatant of entry `index` (reporting problems to `cx`); `None` if it cannot
    /// be built.
    fn member(
        &mut self,
        cx: &mut Loader<'_>,
        index: usize,
        entry: &<Self::File as EncounterFile>::Entry,
    ) -> Option<Self::Member>;

    /// Puts one member of an entry on its side and square.
    fn place(&self, member: &mut Self::Member, placed: Placed);

    /// Reads the ruleset's own tables (options, rulings…) and builds the starting state.
    fn finish(
        self,
        cx: &mut Loader<'_>,
        file: &Self::File,
        roster: Roster,
        members: Vec<Self::Member>,
    ) -> Self::State;
}

/// A file being loaded: where problems are reported, with helpers for the common checks.
#[derive(Debug)]
pub struct Loader<'a> {
    /// The file.
    pub file: SourceFile<'a>,
    /// Every problem found so far.
    pub errors: Vec<FileError>,
    /// The sides and combatants read so far.
    pub roster: Roster,
    /// Keys of combatants whose entries had errors (already reported): other tables that name
    /// them are not reported again (one mistake, one error).
    pub unbuilt: BTreeSet<String>,
}

impl<'a> Loader<'a> {
    /// A loader of `file`.
    pub fn new(file: SourceFile<'a>) -> Self {
        Loader {
            file,
            errors: Vec::new(),
            roster: Roster::default(),
            unbuilt: BTreeSet::new(),
        }
    }

    /// Reports a problem at `span` in `field`.
    pub fn error(
        &mut self,
        span: Range<usize>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) {
        let e = self.file.error(span, Some(field.into()), message);
        self.errors.push(e);
    }

    /// Reports a problem with the whole file.
    pub fn file_error(&mut self, message: impl Into<String>) {
        let e = self.file.file_error(message);
        self.errors.push(e);
    }

    /// An optional whole number checked against `lo..=hi`.
    pub fn int(
        &mut self,
        field: impl Into<String>,
        value: Option<&Spanned<i64>>,
        lo: i64,
        hi: i64,
    ) -> Option<i32> {
        let v = value?;
        let n = *v.get_ref();
        if (lo..=hi).contains(&n) {
            Some(n as i32)
        } else {
            self.error(
                v.span(),
                field,
                format!("expected a whole number from {lo} to {hi}, found {n}"),
            );
            None
        }
    }

    /// The combatant a field names (a key from the roster), reporting unknown keys with the
    /// nearest known ones.
    pub fn combatant(
        &mut self,
        field: impl Into<String>,
        v: &Spanned<String>,
    ) -> Option<CombatantId> {
        let found = self.roster.find(v.get_ref());
        if found.is_none() && !self.unbuilt.contains(v.get_ref()) {
            let hint = self.suggest(v.get_ref());
            self.error(
                v.span(),
                field,
                format!("no combatant `{}` in this encounter{hint}", v.get_ref()),
            );
        }
        found
    }

    /// `"; did you mean …?"` for an unknown combatant key, while few problems have been found
    /// (past [`MAX_REPORTED_ERRORS`] they are not shown, so their search is not done).
    fn suggest(&self, key: &str) -> String {
        if self.errors.len() >= MAX_REPORTED_ERRORS {
            return String::new();
        }
        did_you_mean(key, self.roster.combatants.iter().map(|c| c.key.as_str()))
    }

    /// The side a field names, reporting unknown keys with the known ones.
    pub fn side(&mut self, field: impl Into<String>, v: &Spanned<String>) -> Option<SideId> {
        let found = self.roster.find_side(v.get_ref());
        if found.is_none() {
            let sides = one_of(self.roster.sides.iter().map(|s| s.key.as_str()));
            self.error(
                v.span(),
                field,
                format!("unknown side `{}`; the sides are {sides}", v.get_ref()),
            );
        }
        found
    }

    /// A keyword from a fixed table (`what` names it in the message).
    pub fn keyword<T: Copy>(
        &mut self,
        field: impl Into<String>,
        what: &str,
        value: &Spanned<String>,
        table: &[(&str, T)],
    ) -> Option<T> {
        let found = table
            .iter()
            .find(|(k, _)| *k == value.get_ref().as_str())
            .map(|(_, t)| *t);
        if found.is_none() {
            self.error(
                value.span(),
                field,
                format!(
                    "unknown {what} `{}`; expected one of {}",
                    value.get_ref(),
                    one_of(table.iter().map(|(k, _)| *k))
                ),
            );
        }
        found
    }
}

/// `a, b, c` from a list of names, for "expected one of" messages.
pub fn one_of<'n>(names: impl IntoIterator<Item = &'n str>) -> String {
    names.into_iter().collect::<Vec<_>>().join(", ")
}

/// `"; did you mean `x`?"` naming the known names nearest to `name` (empty when none is near).
pub fn did_you_mean<'n>(name: &str, known: impl IntoIterator<Item = &'n str>) -> String {
    let near = crate::catalog::nearest(name, known);
    match near.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        many => format!(
            "; did you mean {}?",
            many.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    }
}

/// Whether `id` is a usable key: a lower-case letter or digit, then letters, digits, `-` or
/// `_`, at most [`MAX_ID_CHARS`] long, and not `gm` (scripts use it for the GM).
pub fn valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && id.chars().count() <= MAX_ID_CHARS
        && id != "gm"
}

/// Checks an id field, reporting what a usable id looks like.
pub fn check_id(cx: &mut Loader<'_>, field: impl Into<String>, id: &Spanned<String>) {
    if !valid_id(id.get_ref()) {
        cx.error(
            id.span(),
            field,
            format!(
                "{:?} is not a usable id: use lower-case letters, digits, `-` and `_`, starting \
                 with a letter or digit, at most {MAX_ID_CHARS} characters (e.g. `orc` or \
                 `fighter-2`); `gm` is reserved",
                id.get_ref()
            ),
        );
    }
}

/// Checks a player's name: an id like a combatant's (`alice`), not `gm`.
pub fn check_player(cx: &mut Loader<'_>, field: impl Into<String>, player: &Spanned<String>) {
    if !valid_id(player.get_ref()) {
        cx.error(
            player.span(),
            field,
            format!(
                "{:?} is not a usable player name: use lower-case letters, digits, `-` and `_` \
                 (e.g. `alice`); leave `player` out for combatants the GM plays",
                player.get_ref()
            ),
        );
    }
}

/// Checks a display name: printable text (no control characters such as escapes or line
/// breaks, which would colour a terminal or forge log lines), at most [`MAX_NAME_CHARS`].
pub fn check_name(cx: &mut Loader<'_>, field: impl Into<String>, name: &Spanned<String>) {
    let text = name.get_ref();
    if text.chars().any(char::is_control)
        || text.chars().count() > MAX_NAME_CHARS
        || text.trim().is_empty()
    {
        cx.error(
            name.span(),
            field,
            format!(
                "a name is printable text of 1 to {MAX_NAME_CHARS} characters, without control \
                 characters or line breaks"
            ),
        );
    }
}

/// Reads `at`: one square `[x, y]` (a group fills a row going east) or one square per member
/// `[[x, y], …]`.
fn squares(value: &toml::Value, count: usize) -> Result<Vec<Pos>, String> {
    fn square(v: &toml::Value) -> Option<Pos> {
        let pair = v.as_array()?;
        match pair.as_slice() {
            [x, y] => {
                let (x, y) = (x.as_integer()?, y.as_integer()?);
                let ok = |n: i64| (-MAX_COORDINATE..=MAX_COORDINATE).contains(&n);
                (ok(x) && ok(y)).then(|| Pos::new(x as i32, y as i32))
            }
            _ => None,
        }
    }
    let expected = format!(
        "expected a square `[x, y]` or one square per combatant `[[x, y], …]`, with whole-number \
         coordinates from -{MAX_COORDINATE} to {MAX_COORDINATE}"
    );
    if let Some(start) = square(value) {
        let row_end = i64::from(start.x) + count as i64 - 1;
        if row_end > MAX_COORDINATE {
            return Err(expected);
        }
        return Ok((0..count as i32)
            .map(|i| Pos::new(start.x + i, start.y))
            .collect());
    }
    let list = value
        .as_array()
        .and_then(|l| l.iter().map(square).collect::<Option<Vec<Pos>>>())
        .ok_or_else(|| expected.clone())?;
    if list.len() == count {
        Ok(list)
    } else {
        Err(format!(
            "{} squares given for {count} combatants; give one square per combatant, or one \
             starting square",
            list.len()
        ))
    }
}

/// Reads an encounter file of `B`'s ruleset, reporting every problem at once.
pub fn load<B: CombatantBuilder>(
    path: &str,
    text: &str,
    mut builder: B,
) -> Result<Encounter<B::State>, FileErrors> {
    let file = SourceFile::new(path, text);
    if text.len() > MAX_ENCOUNTER_BYTES {
        return Err(FileErrors(vec![file.file_error(format!(
            "the encounter is larger than the {MAX_ENCOUNTER_BYTES}-byte limit"
        ))]));
    }
    let id = read_header(&file).map_err(FileErrors)?;
    if id != B::RULESET {
        return Err(FileErrors(vec![file.error(
            0..0,
            Some("ruleset".to_string()),
            format!(
                "this is a `{}` encounter, read by the {} loader",
                id.key(),
                B::RULESET.name()
            ),
        )]));
    }
    let def: B::File = toml::from_str(text).map_err(|e| FileErrors(vec![file.toml_error(&e)]))?;
    let common = def.common();
    let mut cx = Loader::new(file);
    let mut errors = Vec::new();
    cx.roster = roster_of_sides(&file, common.sides, &mut errors);
    cx.errors.append(&mut errors);
    for (i, side) in common.sides.iter().enumerate() {
        check_id(&mut cx, format!("sides[{i}].id"), &side.id);
        if let Some(name) = &side.name {
            check_name(&mut cx, format!("sides[{i}].name"), name);
        }
        if let Some(player) = &side.player {
            check_player(&mut cx, format!("sides[{i}].player"), player);
        }
    }
    builder.prepare(&mut cx, &def);
    let mut members = Vec::new();
    let mut placed: Vec<(String, Pos, Option<Range<usize>>)> = Vec::new();
    for (i, entry) in common.combatants.iter().enumerate() {
        let c = entry.common();
        let field = |name: &str| format!("combatants[{i}].{name}");
        let (Some(id), Some(side_key), Some(at)) = (c.id, c.side, c.at) else {
            let missing: Vec<&str> = [
                ("id", c.id.is_none()),
                ("side", c.side.is_none()),
                ("at", c.at.is_none()),
            ]
            .into_iter()
            .filter_map(|(k, m)| m.then_some(k))
            .collect();
            cx.file_error(format!(
                "combatants[{i}]: missing {}; every combatant needs `id`, `side` and `at`",
                missing
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ));
            continue;
        };
        let side = cx.side(field("side"), side_key).unwrap_or(SideId(0));
        check_id(&mut cx, field("id"), id);
        if let Some(name) = c.name {
            check_name(&mut cx, field("name"), name);
        }
        if let Some(player) = c.player {
            check_player(&mut cx, field("player"), player);
        }
        let controller = match c.player {
            Some(_) => controller_of(c.player),
            None => cx
                .roster
                .sides
                .get(side.index())
                .map_or(Controller::Gm, |s| s.controller.clone()),
        };
        let count = match c.count {
            None => 1,
            Some(n) if (1..=MAX_COMBATANTS as i64).contains(n.get_ref()) => *n.get_ref() as usize,
            Some(n) => {
                cx.error(
                    n.span(),
                    field("count"),
                    format!("expected between 1 and {MAX_COMBATANTS}"),
                );
                continue;
            }
        };
        if members.len() + count > MAX_COMBATANTS {
            cx.error(
                id.span(),
                field("count"),
                format!("more than {MAX_COMBATANTS} combatants in the encounter"),
            );
            break;
        }
        let squares = match squares(at.get_ref(), count) {
            Ok(s) => s,
            Err(msg) => {
                cx.error(at.span(), field("at"), msg);
                continue;
            }
        };
        let facing = match c.facing {
            Some(f) => parse_direction(f.get_ref()).unwrap_or_else(|| {
                cx.error(
                    f.span(),
                    field("facing"),
                    "expected north, north-east, east, … (or n, ne, e, …)",
                );
                Direction::North
            }),
            None => default_facing(common.sides, side_key.get_ref()),
        };
        let reserve = match c.reserve {
            Some(r) if *r.get_ref() && !B::RESERVES => {
                cx.error(
                    r.span(),
                    field("reserve"),
                    format!(
                        "{} cannot hold combatants in reserve yet",
                        B::RULESET.name()
                    ),
                );
                false
            }
            Some(r) => *r.get_ref(),
            None => false,
        };
        let Some(member) = builder.member(&mut cx, i, entry) else {
            cx.unbuilt.extend(member_keys(id.get_ref(), count));
            continue;
        };
        let name = match c.name {
            Some(n) => n.get_ref().clone(),
            None => builder
                .default_name(entry)
                .unwrap_or_else(|| id.get_ref().clone()),
        };
        let keys = member_keys(id.get_ref(), count);
        let names = member_names(&name, count);
        for ((key, name), pos) in keys.into_iter().zip(names).zip(squares) {
            if cx.roster.find(&key).is_some() {
                cx.error(
                    id.span(),
                    field("id"),
                    format!("duplicate combatant `{key}`"),
                );
            }
            // A reserve is off the map: it shares no square until it arrives.
            placed.push((key.clone(), pos, (!reserve).then(|| at.span())));
            cx.roster.combatants.push(CombatantInfo {
                key,
                name,
                side,
                group: id.get_ref().clone(),
                controller: controller.clone(),
                reserve,
            });
            let mut m = member.clone();
            builder.place(&mut m, Placed { side, pos, facing });
            members.push(m);
        }
    }
    if common.combatants.is_empty() {
        cx.file_error("an encounter needs `[[combatants]]`");
    }
    check_squares(&mut cx, &placed, |a, b| {
        builder.may_share(&members[a], &members[b])
    });
    let mut limits = Limits::default();
    if let Some(r) = cx.int(
        "max_rounds",
        common.max_rounds,
        1,
        i64::from(Limits::MAX_ROUNDS_CEILING),
    ) {
        limits.max_rounds = r as u32;
    }
    if let Some(name) = common.name {
        check_name(&mut cx, "name", name);
    }
    let mut errors = Vec::new();
    let (dice, choices) = common.script.read(&file, &mut errors);
    cx.errors.append(&mut errors);
    for (i, choice) in choices.iter().enumerate() {
        if choice.who != "gm"
            && cx.roster.find(&choice.who).is_none()
            && !cx.unbuilt.contains(&choice.who)
        {
            let hint = cx.suggest(&choice.who);
            cx.error(
                common.script.choices[i].span(),
                format!("script.choices[{i}]"),
                format!("no combatant `{}` in this encounter{hint}", choice.who),
            );
        }
    }
    let roster = cx.roster.clone();
    let name = common
        .name
        .map_or_else(|| file.path.to_string(), |n| n.get_ref().clone());
    let state = builder.finish(&mut cx, &def, roster, members);
    if cx.errors.is_empty() {
        Ok(Encounter {
            name,
            state,
            limits,
            dice,
            choices,
        })
    } else {
        Err(FileErrors::capped(cx.errors))
    }
}

/// The first side faces east, the others west, unless told otherwise.
fn default_facing(sides: &[SideDef], side: &str) -> Direction {
    if sides.first().is_some_and(|s| s.id.get_ref() == side) {
        Direction::East
    } else {
        Direction::West
    }
}

/// Checks that no two combatants share a square unless the ruleset's `may_share(a, b)` (by
/// index in `placed`) allows it; reports each clash at the later entry. Combatants without a
/// span are off the map (in reserve) and share nothing.
fn check_squares(
    cx: &mut Loader<'_>,
    placed: &[(String, Pos, Option<Range<usize>>)],
    may_share: impl Fn(usize, usize) -> bool,
) {
    let mut seen: BTreeMap<Pos, Vec<usize>> = BTreeMap::new();
    for (index, (key, pos, span)) in placed.iter().enumerate() {
        let Some(span) = span else { continue };
        let there = seen.entry(*pos).or_default();
        if let Some(&other) = there.iter().find(|&&other| !may_share(other, index)) {
            let message = format!(
                "`{key}` and `{}` are both placed on square [{}, {}]; each square holds \
                 one combatant",
                placed[other].0, pos.x, pos.y
            );
            cx.error(span.clone(), "at", message);
        } else {
            there.push(index);
        }
    }
}

/// Declares a ruleset's encounter file type: the common keys (`schema`, `ruleset`, `name`,
/// `description`, `max_rounds`, `[[sides]]`, `[[combatants]]` of the given entry type,
/// `[script]`) plus the ruleset's own tables, with unknown keys refused.
#[macro_export]
macro_rules! encounter_file {
    ($(#[$meta:meta])* $vis:vis struct $name:ident for $entry:ty {
        $($(#[$fmeta:meta])* $field:ident : $fty:ty),* $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        $vis struct $name {
            #[serde(default)]
            #[allow(dead_code)]
            schema: serde::de::IgnoredAny,
            #[serde(default)]
            #[allow(dead_code)]
            ruleset: serde::de::IgnoredAny,
            name: Option<$crate::loader::Spanned<String>>,
            #[allow(dead_code)]
            description: Option<String>,
            max_rounds: Option<$crate::loader::Spanned<i64>>,
            #[serde(default)]
            sides: Vec<$crate::encounter::SideDef>,
            #[serde(default)]
            combatants: Vec<$entry>,
            #[serde(default)]
            script: $crate::encounter::ScriptDef,
            $($(#[$fmeta])* $field: $fty,)*
        }

        impl $crate::loader::EncounterFile for $name {
            type Entry = $entry;
            fn common(&self) -> $crate::loader::CommonFile<'_, $entry> {
                $crate::loader::CommonFile {
                    name: self.name.as_ref(),
                    max_rounds: self.max_rounds.as_ref(),
                    sides: &self.sides,
                    combatants: &self.combatants,
                    script: &self.script,
                }
            }
        }
    };
}

/// Declares a ruleset's `[[combatants]]` entry type: the common keys (`id`, `name`, `side`,
/// `count`, `at`, `facing`) plus the ruleset's own, with unknown keys refused.
#[macro_export]
macro_rules! combatant_entry {
    ($(#[$meta:meta])* $vis:vis struct $name:ident {
        $($(#[$fmeta:meta])* $field:ident : $fty:ty),* $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        $vis struct $name {
            id: Option<$crate::loader::Spanned<String>>,
            name: Option<$crate::loader::Spanned<String>>,
            side: Option<$crate::loader::Spanned<String>>,
            count: Option<$crate::loader::Spanned<i64>>,
            at: Option<$crate::loader::Spanned<$crate::loader::TomlValue>>,
            facing: Option<$crate::loader::Spanned<String>>,
            player: Option<$crate::loader::Spanned<String>>,
            reserve: Option<$crate::loader::Spanned<bool>>,
            $($(#[$fmeta])* $field: $fty,)*
        }

        impl $crate::loader::CombatantEntry for $name {
            fn common(&self) -> $crate::loader::CommonEntry<'_> {
                $crate::loader::CommonEntry {
                    id: self.id.as_ref(),
                    name: self.name.as_ref(),
                    side: self.side.as_ref(),
                    count: self.count.as_ref(),
                    at: self.at.as_ref(),
                    facing: self.facing.as_ref(),
                    player: self.player.as_ref(),
                    reserve: self.reserve.as_ref(),
                }
            }
        }
    };
}

/// Re-exported for the declaration macros.
pub use toml::Spanned;
/// Re-exported for the declaration macros.
pub use toml::Value as TomlValue;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_lower_case_words() {
        for good in ["orc", "fighter-2", "a_b", "9th"] {
            assert!(valid_id(good), "{good}");
        }
        for bad in [
            "",
            "Orc",
            "big orc",
            "-x",
            "a:b",
            "gm",
            "ünï",
            &"x".repeat(65),
        ] {
            assert!(!valid_id(bad), "{bad}");
        }
    }

    #[test]
    fn squares_read_rows_and_lists() {
        let v: toml::Value = toml::from_str::<toml::Table>("at = [2, 3]").unwrap()["at"].clone();
        assert_eq!(
            squares(&v, 3).unwrap(),
            vec![Pos::new(2, 3), Pos::new(3, 3), Pos::new(4, 3)]
        );
        let list: toml::Value =
            toml::from_str::<toml::Table>("at = [[0, 0], [5, 5]]").unwrap()["at"].clone();
        assert_eq!(squares(&list, 2).unwrap().len(), 2);
        assert!(squares(&list, 3).unwrap_err().contains("2 squares given"));
        let float: toml::Value =
            toml::from_str::<toml::Table>("at = [0.5, 0]").unwrap()["at"].clone();
        assert!(squares(&float, 1).unwrap_err().contains("whole-number"));
        let far: toml::Value =
            toml::from_str::<toml::Table>("at = [1000000, 0]").unwrap()["at"].clone();
        assert!(squares(&far, 2).is_err());
    }

    #[test]
    fn shared_squares_are_the_rulesets_call() {
        let file = SourceFile::new("t.toml", "");
        let at = Pos::new(0, 0);
        let mut placed: Vec<(String, Pos, Option<Range<usize>>)> = ["rider", "horse", "orc"]
            .iter()
            .map(|k| (k.to_string(), at, Some(0..0)))
            .collect();
        // The rules let the rider share its horse's square, and nobody else.
        let mut cx = Loader::new(file);
        check_squares(&mut cx, &placed, |a, b| (a, b) == (0, 1));
        assert_eq!(cx.errors.len(), 1, "{:?}", cx.errors);
        assert!(cx.errors[0].to_string().contains("`orc` and `rider`"));
        let mut cx = Loader::new(file);
        check_squares(&mut cx, &placed, |_, _| false);
        assert_eq!(cx.errors.len(), 2);
        // A combatant in reserve is off the map: it clashes with nobody.
        placed[2].2 = None;
        let mut cx = Loader::new(file);
        check_squares(&mut cx, &placed, |a, b| (a, b) == (0, 1));
        assert!(cx.errors.is_empty(), "{:?}", cx.errors);
    }

    #[test]
    fn suggestions_name_the_nearest() {
        assert_eq!(
            did_you_mean("goblins", ["goblin", "orc"]),
            "; did you mean `goblin`?"
        );
        assert_eq!(did_you_mean("dragon", ["goblin", "orc"]), "");
    }
}
