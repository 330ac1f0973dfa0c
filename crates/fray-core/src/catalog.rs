//! Content catalogues: named entries (weapons, monsters, spells…) in the order their files give
//! them, with duplicates reported at both places, nearest-name suggestions for unknown names, and
//! the two-phase loading every ruleset's content needs (items first, then what refers to them).

use crate::span::{FileError, FileErrors, SourceFile};
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::ops::Range;

/// Where an entry was defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The file.
    pub path: String,
    /// 1-based line (0 when unknown).
    pub line: usize,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}", self.path, self.line)
        } else {
            f.write_str(&self.path)
        }
    }
}

/// The form under which a name is looked up: lower case, with spaces and `_` written as `-`, so
/// that `cure light wounds` in a file and `cure-light-wounds` in a typed choice are one name.
pub fn name_key(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| match c {
            ' ' | '_' | '\t' => '-',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// Named entries of one kind, in definition order, looked up by key (spelled either way: see
/// [`name_key`]).
#[derive(Debug, Clone)]
pub struct Catalog<T> {
    entries: Vec<T>,
    places: Vec<Place>,
    index: BTreeMap<String, usize>,
    /// Which entries are built in and may still be redefined (see [`Catalog::seal`]).
    builtin: Vec<bool>,
    /// Each entry's key as its file spells it.
    names: Vec<String>,
}

impl<T> Default for Catalog<T> {
    fn default() -> Self {
        Catalog {
            entries: Vec::new(),
            places: Vec::new(),
            index: BTreeMap::new(),
            builtin: Vec::new(),
            names: Vec::new(),
        }
    }
}

impl<T> Catalog<T> {
    /// Marks every entry so far as built in: an encounter's own definitions may then replace
    /// them (the GM's file wins), while two definitions of one key added after this are still
    /// an error.
    pub fn seal(&mut self) {
        self.builtin = vec![true; self.entries.len()];
    }

    /// Adds `value` under `key`, defined at `span` of `file` (field `field`). A key already
    /// present is an error naming both places (the first definition stays), unless the first is
    /// built in and sealed: then the new definition replaces it.
    #[allow(clippy::too_many_arguments)]
    pub fn insert(
        &mut self,
        kind: &str,
        key: &str,
        value: T,
        file: &SourceFile<'_>,
        span: Range<usize>,
        field: String,
        errors: &mut Vec<FileError>,
    ) {
        let (line, _) = file.line_col(span.start);
        let place = Place {
            path: file.path.to_string(),
            line,
        };
        let spelled = key;
        let key = name_key(key);
        let key = key.as_str();
        if let Some(&first) = self.index.get(key) {
            if self.builtin.get(first).copied().unwrap_or(false) {
                self.entries[first] = value;
                self.places[first] = place;
                self.builtin[first] = false;
                self.names[first] = spelled.to_string();
                return;
            }
            errors.push(file.error(
                span,
                Some(field),
                format!(
                    "duplicate {kind} `{spelled}`: already defined at {}",
                    self.places[first]
                ),
            ));
            return;
        }
        self.index.insert(key.to_string(), self.entries.len());
        self.entries.push(value);
        self.places.push(place);
        self.names.push(spelled.to_string());
    }

    /// The entry with this key.
    pub fn get(&self, key: &str) -> Option<&T> {
        self.index.get(&name_key(key)).map(|&i| &self.entries[i])
    }

    /// Where the entry with this key was defined.
    pub fn place(&self, key: &str) -> Option<&Place> {
        self.index.get(&name_key(key)).map(|&i| &self.places[i])
    }

    /// Every entry, in definition order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.entries.iter()
    }

    /// Every key as its file spells it, in definition order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What to say of an unknown name: `unknown monster `goblins`; did you mean `goblin`? (`fray
    /// content cnc monsters` lists them all)`. `listing` is the command that lists this kind.
    pub fn unknown(&self, kind: &str, name: &str, listing: &str) -> String {
        format!(
            "unknown {kind} `{name}`{}; `{listing}` lists them all",
            self.did_you_mean(name)
        )
    }

    /// `"; did you mean `x`?"` for an unknown key (empty when no key is near).
    pub fn did_you_mean(&self, unknown: &str) -> String {
        crate::loader::did_you_mean(unknown, self.keys())
    }
}

impl<'a, T> IntoIterator for &'a Catalog<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}

/// One kind of content as `fray content` lists it: a name per row with its key numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentTable {
    /// The kind, plural, as typed on the command line (`monsters`, `weapons`, `armour`…).
    pub kind: &'static str,
    /// Column headings after the name.
    pub columns: Vec<&'static str>,
    /// One row per entry, in definition order.
    pub rows: Vec<ContentRow>,
}

/// One entry of a [`ContentTable`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentRow {
    /// The name to use in encounter files.
    pub name: String,
    /// One cell per column.
    pub cells: Vec<String>,
}

impl ContentTable {
    /// A table of `kind` with these columns, rows built from `entries`.
    pub fn of<'a, T: 'a>(
        kind: &'static str,
        columns: &[&'static str],
        entries: impl IntoIterator<Item = &'a T>,
        row: impl Fn(&T) -> (String, Vec<String>),
    ) -> ContentTable {
        ContentTable {
            kind,
            columns: columns.to_vec(),
            rows: entries
                .into_iter()
                .map(|e| {
                    let (name, cells) = row(e);
                    ContentRow { name, cells }
                })
                .collect(),
        }
    }
}

/// Edit distance (insertions, deletions, substitutions) between two names, case-insensitive.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

/// The known names nearest to `name`: those a few edits away (about a third of its length),
/// and those it begins (`goblin` suggests `goblin-1`, `goblin-2`…); at most five, nearest first.
pub fn nearest<'n>(name: &str, known: impl IntoIterator<Item = &'n str>) -> Vec<&'n str> {
    const MOST: usize = 5;
    if name.is_empty() || name.len() > 200 {
        return Vec::new();
    }
    let budget = (name.chars().count() / 3).max(1);
    let lower = name.to_lowercase();
    let mut near: Vec<(usize, &str)> = known
        .into_iter()
        .filter(|k| k.len() <= 200)
        .filter_map(|k| {
            let begins = k.len() > name.len() && k.to_lowercase().starts_with(&lower);
            // Names whose lengths differ by more than the budget cannot be within it: skip the
            // quadratic distance for them (a file may name hundreds of unknowns).
            let gap = k.chars().count().abs_diff(name.chars().count());
            if !begins && gap > budget {
                return None;
            }
            let d = edit_distance(name, k);
            (d <= budget || begins).then_some((d, k))
        })
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.1 == b.1);
    near.into_iter().take(MOST).map(|(_, k)| k).collect()
}

/// A ruleset's whole content (its catalogues), as the shared loading sees it: content files are
/// read in two phases — what nothing refers to (weapons, armour, spells) from every file, then
/// what refers to it (monsters) — and an encounter's own definitions are added over a copy.
pub trait ContentSet: Clone + Default {
    /// The tables one content file (or an encounter's own definitions) may hold.
    type File: DeserializeOwned;

    /// Phase one: reads what nothing else refers to.
    fn read_items(
        &mut self,
        file: &SourceFile<'_>,
        parsed: &Self::File,
        errors: &mut Vec<FileError>,
    );

    /// Phase two: reads what refers to the items (monsters and their weapons).
    fn read_dependents(
        &mut self,
        file: &SourceFile<'_>,
        parsed: &Self::File,
        errors: &mut Vec<FileError>,
    );

    /// Marks every entry of every catalogue as built in (see [`Catalog::seal`]).
    fn seal(&mut self);

    /// Whether the tables define nothing.
    fn defines_nothing(parsed: &Self::File) -> bool;

    /// Loads content from `(path, text)` files; every problem in every file is reported together.
    fn load(files: &[(&str, &str)]) -> Result<Self, FileErrors> {
        let mut content = Self::default();
        let mut errors = Vec::new();
        let mut parsed = Vec::new();
        for (path, text) in files {
            let file = SourceFile::new(path, text);
            match toml::from_str::<Self::File>(text) {
                Err(e) => errors.push(file.toml_error(&e)),
                Ok(p) => {
                    content.read_items(&file, &p, &mut errors);
                    parsed.push((file, p));
                }
            }
        }
        for (file, p) in &parsed {
            content.read_dependents(file, p, &mut errors);
        }
        if errors.is_empty() {
            Ok(content)
        } else {
            Err(FileErrors::capped(errors))
        }
    }

    /// This content with an encounter's own definitions added: they replace built-in entries of
    /// the same name, and two of one name in the encounter are an error. Borrowed when the
    /// encounter defines nothing.
    fn with_inline(
        &self,
        file: &SourceFile<'_>,
        inline: &Self::File,
        errors: &mut Vec<FileError>,
    ) -> std::borrow::Cow<'_, Self> {
        if Self::defines_nothing(inline) {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut content = self.clone();
        content.seal();
        content.read_items(file, inline, errors);
        content.read_dependents(file, inline, errors);
        std::borrow::Cow::Owned(content)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_name_both_places() {
        let text = "a\nb\n";
        let file = SourceFile::new("w.toml", text);
        let mut errors = Vec::new();
        let mut c = Catalog::default();
        c.insert(
            "weapon",
            "axe",
            1,
            &file,
            0..1,
            "weapon[0].id".into(),
            &mut errors,
        );
        c.insert(
            "weapon",
            "axe",
            2,
            &file,
            2..3,
            "weapon[1].id".into(),
            &mut errors,
        );
        assert_eq!(c.len(), 1);
        assert_eq!(c.get("axe"), Some(&1));
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0].to_string(),
            "w.toml:2:1: field `weapon[1].id`: duplicate weapon `axe`: already defined at w.toml:1"
        );
        // Sealed (built-in) entries may be redefined once by an encounter, not twice.
        c.seal();
        let encounter = SourceFile::new("e.toml", "x\ny\n");
        let mut errors = Vec::new();
        c.insert(
            "weapon",
            "axe",
            3,
            &encounter,
            0..1,
            "weapon[0].id".into(),
            &mut errors,
        );
        assert_eq!((c.get("axe"), errors.len()), (Some(&3), 0));
        assert_eq!(
            c.place("axe").map(ToString::to_string).as_deref(),
            Some("e.toml:1")
        );
        c.insert(
            "weapon",
            "axe",
            4,
            &encounter,
            2..3,
            "weapon[1].id".into(),
            &mut errors,
        );
        assert_eq!((c.get("axe"), errors.len()), (Some(&3), 1));
    }

    #[test]
    fn names_are_one_whether_spaced_or_hyphenated() {
        let file = SourceFile::new("m.toml", "x\n");
        let mut errors = Vec::new();
        let mut c = Catalog::default();
        c.insert(
            "spell",
            "cure light wounds",
            1,
            &file,
            0..1,
            "spell[0].id".into(),
            &mut errors,
        );
        assert_eq!(c.get("cure-light-wounds"), Some(&1));
        assert_eq!(c.get("Cure Light Wounds"), Some(&1));
        c.insert(
            "spell",
            "cure-light-wounds",
            2,
            &file,
            0..1,
            "spell[1].id".into(),
            &mut errors,
        );
        assert_eq!(errors.len(), 1, "one name, defined twice");
    }

    #[test]
    fn nearest_names() {
        assert_eq!(edit_distance("goblins", "goblin"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let known = ["goblin-1", "goblin-2", "orc", "ogre"];
        assert_eq!(nearest("goblin", known), vec!["goblin-1", "goblin-2"]);
        assert_eq!(nearest("orcc", known), vec!["orc"]);
        assert!(nearest("dragon", known).is_empty());
    }
}
