//! Pieces of encounter files every ruleset shares: the header (schema and ruleset), sides,
//! facings, member keys and names, and scripts. `crate::loader` puts them together into the one
//! encounter loader; see `docs/encounters.md`.

use crate::driver::ScriptedChoice;
use crate::grid::Direction;
use crate::roster::{Roster, SideInfo};
use crate::ruleset::RulesetId;
use crate::span::{FileError, SourceFile};
use serde::Deserialize;
use toml::Spanned;

/// The encounter-file schema version this build reads.
pub const ENCOUNTER_SCHEMA: u32 = 1;

/// Most combatants in one encounter.
pub const MAX_COMBATANTS: usize = 500;

#[derive(Deserialize)]
struct Header {
    schema: Option<Spanned<i64>>,
    ruleset: Option<Spanned<String>>,
}

/// Reads and checks `schema` and `ruleset`, the two keys every encounter file starts with.
pub fn read_header(file: &SourceFile<'_>) -> Result<RulesetId, Vec<FileError>> {
    let header: Header = toml::from_str(file.text).map_err(|e| vec![file.toml_error(&e)])?;
    let mut errors = Vec::new();
    match &header.schema {
        None => errors.push(file.error(
            0..0,
            Some("schema".to_string()),
            format!("missing; expected `schema = {ENCOUNTER_SCHEMA}`"),
        )),
        Some(s) if *s.get_ref() != i64::from(ENCOUNTER_SCHEMA) => errors.push(file.error(
            s.span(),
            Some("schema".to_string()),
            format!(
                "unsupported schema {}; this fray reads schema {ENCOUNTER_SCHEMA}",
                s.get_ref()
            ),
        )),
        Some(_) => {}
    }
    let id = match &header.ruleset {
        None => {
            errors.push(file.error(
                0..0,
                Some("ruleset".to_string()),
                format!("missing; expected one of {}", ruleset_keys()),
            ));
            None
        }
        Some(r) => match RulesetId::from_key(r.get_ref()) {
            Some(id) => Some(id),
            None => {
                errors.push(file.error(
                    r.span(),
                    Some("ruleset".to_string()),
                    format!(
                        "unknown ruleset `{}`{}; expected one of {}",
                        r.get_ref(),
                        crate::loader::did_you_mean(
                            r.get_ref(),
                            RulesetId::ALL.iter().map(|id| id.key())
                        ),
                        ruleset_keys()
                    ),
                ));
                None
            }
        },
    };
    match id {
        Some(id) if errors.is_empty() => Ok(id),
        _ => Err(errors),
    }
}

fn ruleset_keys() -> String {
    RulesetId::ALL
        .iter()
        .map(|id| id.key())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `[[sides]]`: a side of the fight.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    /// Key (e.g. `heroes`).
    pub id: Spanned<String>,
    /// Display name (defaults to the key).
    pub name: Option<Spanned<String>>,
    /// The player who controls its combatants (default: the GM).
    pub player: Option<Spanned<String>>,
}

/// Most sides in one encounter.
pub const MAX_SIDES: usize = 32;

/// A roster holding the `[[sides]]` of an encounter (no combatants yet); a repeated side key or
/// fewer than two sides is reported in `errors`.
pub fn roster_of_sides(
    file: &SourceFile<'_>,
    sides: &[SideDef],
    errors: &mut Vec<FileError>,
) -> Roster {
    let mut roster = Roster::default();
    for (i, side) in sides.iter().enumerate() {
        if roster.find_side(side.id.get_ref()).is_some() {
            errors.push(file.error(
                side.id.span(),
                Some(format!("sides[{i}].id")),
                format!("duplicate side `{}`", side.id.get_ref()),
            ));
        }
        roster.sides.push(SideInfo {
            key: side.id.get_ref().clone(),
            name: side
                .name
                .as_ref()
                .map_or_else(|| side.id.get_ref().clone(), |n| n.get_ref().clone()),
            controller: controller_of(side.player.as_ref()),
        });
    }
    if roster.sides.len() > MAX_SIDES {
        errors.push(file.error(
            sides[MAX_SIDES].id.span(),
            Some(format!("sides[{MAX_SIDES}]")),
            format!("more than {MAX_SIDES} sides; an encounter has at most {MAX_SIDES}"),
        ));
        roster.sides.truncate(MAX_SIDES);
    }
    if roster.sides.len() < 2 {
        errors.push(file.file_error("an encounter needs at least two `[[sides]]`"));
    }
    roster
}

/// The controller a `player` key names (the GM when absent; the name is checked by the loader).
pub fn controller_of(player: Option<&Spanned<String>>) -> crate::roster::Controller {
    player.map_or(crate::roster::Controller::Gm, |p| {
        crate::roster::Controller::Player(p.get_ref().clone())
    })
}

/// `[script]`: scripted dice and choices.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptDef {
    /// Die faces in order.
    #[serde(default)]
    pub dice: Vec<Spanned<u32>>,
    /// Choices as `who: choice`.
    #[serde(default)]
    pub choices: Vec<Spanned<String>>,
}

impl ScriptDef {
    /// Reads the script, reporting malformed choice lines.
    pub fn read(
        &self,
        file: &SourceFile<'_>,
        errors: &mut Vec<FileError>,
    ) -> (Vec<u32>, Vec<ScriptedChoice>) {
        let dice = self.dice.iter().map(|d| *d.get_ref()).collect();
        let mut choices = Vec::new();
        for (i, line) in self.choices.iter().enumerate() {
            match ScriptedChoice::parse(line.get_ref()) {
                Some(c) => choices.push(c),
                None => errors.push(file.error(
                    line.span(),
                    Some(format!("script.choices[{i}]")),
                    "expected `who: choice`, e.g. `una: attack orc-1`",
                )),
            }
        }
        (dice, choices)
    }
}

/// Reads a facing (`north`, `ne`, …).
pub fn parse_direction(text: &str) -> Option<Direction> {
    Some(match text.to_ascii_lowercase().as_str() {
        "n" | "north" => Direction::North,
        "ne" | "northeast" | "north-east" => Direction::NorthEast,
        "e" | "east" => Direction::East,
        "se" | "southeast" | "south-east" => Direction::SouthEast,
        "s" | "south" => Direction::South,
        "sw" | "southwest" | "south-west" => Direction::SouthWest,
        "w" | "west" => Direction::West,
        "nw" | "northwest" | "north-west" => Direction::NorthWest,
        _ => return None,
    })
}

/// Keys of `count` combatants of a group with key `id`: `id` itself when alone, else `id-1`…
pub fn member_keys(id: &str, count: usize) -> Vec<String> {
    if count == 1 {
        vec![id.to_string()]
    } else {
        (1..=count).map(|i| format!("{id}-{i}")).collect()
    }
}

/// Display names to match [`member_keys`].
pub fn member_names(name: &str, count: usize) -> Vec<String> {
    if count == 1 {
        vec![name.to_string()]
    } else {
        (1..=count).map(|i| format!("{name} {i}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_names_unknown_ruleset_with_its_line() {
        let text = "schema = 1\nruleset = \"gurps\"\n";
        let err = read_header(&SourceFile::new("e.toml", text)).unwrap_err();
        assert_eq!(err.len(), 1);
        assert_eq!(err[0].line, 2);
        assert!(err[0].message.contains("unknown ruleset `gurps`"));
    }

    #[test]
    fn members_are_numbered() {
        assert_eq!(member_keys("orc", 2), vec!["orc-1", "orc-2"]);
        assert_eq!(member_keys("una", 1), vec!["una"]);
        assert_eq!(member_names("Orc", 2), vec!["Orc 1", "Orc 2"]);
    }
}
