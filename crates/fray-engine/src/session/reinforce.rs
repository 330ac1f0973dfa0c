//! Reinforcements: a combatant added mid-fight. The session appends its `[[combatants]]` entry
//! to the encounter text held in reserve (`reserve = true`: off the map, taking no part), checks
//! that the fight so far replays unchanged with it, then logs the GM's `add` intervention that
//! brings it in. The saved session holds the new text, so a fight is still its setup plus its
//! answers; undoing the `add` leaves the newcomer in reserve, where `add ID` can bring it again.

use super::{content_hash, Session, SessionError};
use crate::{AnyEncounter, Library};
use fray_core::intervention::Intervention;
use fray_core::session::Stop;

/// Most fields an added combatant's entry may have (its file entries have far fewer).
const MAX_ENTRY_FIELDS: usize = 32;

/// Splits what the GM types into fields at spaces outside quotes and brackets:
/// `monster="hill ogre" at=[5, 5]` is two fields.
pub fn split_fields(text: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let (mut quoted, mut depth) = (false, 0i32);
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' if !quoted => depth += 1,
            ']' | '}' if !quoted => depth -= 1,
            c if c.is_whitespace() && !quoted && depth <= 0 => {
                if !field.is_empty() {
                    fields.push(std::mem::take(&mut field));
                }
                continue;
            }
            _ => {}
        }
        field.push(c);
    }
    if !field.is_empty() {
        fields.push(field);
    }
    fields
}

/// Turns what the GM types after `add ID` — `monster=orc side=orcs at=[5,5] hp=9` — into the
/// body of a `[[combatants]]` entry: each value is read as TOML, and a bare word is a string.
pub fn entry_from_words(id: &str, words: &[&str]) -> Result<String, String> {
    if words.len() > MAX_ENTRY_FIELDS {
        return Err(format!("at most {MAX_ENTRY_FIELDS} fields"));
    }
    let mut entry = format!("id = {}\n", toml_string(id));
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!(
                "`{word}` is not KEY=VALUE (e.g. `monster=orc`, `at=[5,5]`, `hp=9`)"
            ));
        };
        let key = key.trim();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("`{key}` is not a field name"));
        }
        if matches!(key, "id" | "reserve") {
            return Err(format!("`{key}` is set by `add` itself"));
        }
        let value = value.trim();
        let parsed = format!("v = {value}")
            .parse::<toml::Table>()
            .map(|_| value.to_string());
        let value = parsed.unwrap_or_else(|_| toml_string(value));
        entry.push_str(&format!("{key} = {value}\n"));
    }
    Ok(entry)
}

fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

impl Session {
    /// Adds a combatant mid-fight: `entry` is the body of its `[[combatants]]` entry (as in the
    /// encounter file; `id` first; at most one screen of fields), read with the ruleset's
    /// loader and its content. It comes into the fight at the last intervention point, like any
    /// intervention; its members are played by fray when fray plays the rest of its side.
    /// Returns the keys of the combatants added. Refused, changing nothing, when the entry does
    /// not load, when the ruleset keeps no reserves, or when the fight so far would not replay
    /// unchanged with it.
    pub fn reinforce(
        &mut self,
        entry: &str,
        library: &Library,
    ) -> Result<Vec<String>, SessionError> {
        if self.pending().is_none() {
            return Err(SessionError::NothingAsked);
        }
        let before = self.clone();
        let text = format!(
            "{}\n\n# Added during the fight by the GM (held in reserve, brought in by `add`).\n\
             [[combatants]]\n{}reserve = true\n",
            self.text.trim_end(),
            entry.trim_end().to_string() + "\n"
        );
        let encounter = AnyEncounter::from_text(&self.path, &text, library)
            .map_err(|e| SessionError::Refused(format!("the new combatant does not load: {e}")))?;
        let old = self.roster().combatants.len();
        let roster = encounter.roster();
        if roster.combatants.len() <= old {
            return Err(SessionError::Refused(
                "the new entry adds no combatant".to_string(),
            ));
        }
        let added: Vec<String> = roster.combatants[old..]
            .iter()
            .map(|c| c.key.clone())
            .collect();
        let plays: Vec<bool> = roster.combatants[old..]
            .iter()
            .map(|c| {
                let side: Vec<usize> = (0..old)
                    .filter(|&i| roster.combatants[i].side == c.side)
                    .collect();
                !side.is_empty() && side.iter().all(|&i| self.plays.combatants[i])
            })
            .collect();
        self.content = content_hash(&encounter, &text);
        // The checkpoints hold states of the old roster.
        self.checkpoints.clear();
        self.encounter = encounter;
        self.text = text;
        self.plays.combatants.extend(plays);
        self.refresh();
        // The fight so far must not change: the newcomer waited off the map.
        if self.stop != before.stop || self.events != before.events {
            let broke = match &self.stop {
                Stop::Broken { position, .. } => {
                    format!(" (answer {} no longer fits)", position + 1)
                }
                _ => String::new(),
            };
            *self = before;
            self.autosave_quietly();
            return Err(SessionError::Refused(format!(
                "the fight so far would not replay the same with the new combatant{broke}"
            )));
        }
        for key in &added {
            if let Err(e) = self.intervene_here(Intervention::Add {
                who: key.clone(),
                to: None,
            }) {
                *self = before;
                self.autosave_quietly();
                return Err(e);
            }
        }
        self.redo.clear();
        Ok(added)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_gm_types_becomes_an_entry() {
        let entry =
            entry_from_words("orc-9", &["monster=orc", "side=orcs", "at=[5,5]", "hp=9"]).unwrap();
        assert_eq!(
            entry,
            "id = \"orc-9\"\nmonster = \"orc\"\nside = \"orcs\"\nat = [5,5]\nhp = 9\n"
        );
        let spaced = entry_from_words("ogre", &["monster=\"hill ogre\""]).unwrap();
        assert!(spaced.contains("monster = \"hill ogre\""), "{spaced}");
        for bad in [
            &["monster"][..],
            &["=orc"],
            &["id=x"],
            &["reserve=false"],
            &["a b=1"],
        ] {
            assert!(entry_from_words("x", bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            split_fields(r#"monster="hill ogre"  at=[5, 5] hp=9"#),
            ["monster=\"hill ogre\"", "at=[5, 5]", "hp=9"]
        );
        // A value that is not TOML is a string, quoted safely.
        let odd = entry_from_words("x", &["name=Grim\"jaw"]).unwrap();
        assert!(odd.parse::<toml::Table>().is_ok(), "{odd}");
    }
}
