//! Errors in input files, located by file, line, column and field.

use std::fmt;
use std::ops::Range;

/// One problem in an input file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The file's path as given.
    pub path: String,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub column: usize,
    /// The field concerned, e.g. `combatants[2].monster`.
    pub field: Option<String>,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Most problems reported for one load; the rest are counted in a last line.
pub const MAX_REPORTED_ERRORS: usize = 200;

/// Every problem found in a set of files, reported together.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileErrors(pub Vec<FileError>);

impl fmt::Display for FileErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FileErrors {}

impl FileErrors {
    /// The first [`MAX_REPORTED_ERRORS`] problems, and a last line counting the rest.
    pub fn capped(mut errors: Vec<FileError>) -> FileErrors {
        if errors.len() > MAX_REPORTED_ERRORS {
            let more = errors.len() - MAX_REPORTED_ERRORS;
            let path = errors[0].path.clone();
            errors.truncate(MAX_REPORTED_ERRORS);
            errors.push(FileError {
                path,
                line: 0,
                column: 0,
                field: None,
                message: format!("… and {more} more problems (fix these first)"),
            });
        }
        FileErrors(errors)
    }
}

/// A text file being read, for locating spans.
#[derive(Debug, Clone, Copy)]
pub struct SourceFile<'a> {
    /// Path as given.
    pub path: &'a str,
    /// Contents.
    pub text: &'a str,
}

impl<'a> SourceFile<'a> {
    /// A source file.
    pub fn new(path: &'a str, text: &'a str) -> Self {
        SourceFile { path, text }
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rfind('\n').map_or(offset, |nl| offset - nl - 1) + 1;
        (line, column)
    }

    /// An error at a span.
    pub fn error(
        &self,
        span: Range<usize>,
        field: impl Into<Option<String>>,
        message: impl Into<String>,
    ) -> FileError {
        let (line, column) = self.line_col(span.start);
        FileError {
            path: self.path.to_string(),
            line,
            column,
            field: field.into(),
            message: message.into(),
        }
    }

    /// An error about the whole file.
    pub fn file_error(&self, message: impl Into<String>) -> FileError {
        FileError {
            path: self.path.to_string(),
            line: 0,
            column: 0,
            field: None,
            message: message.into(),
        }
    }

    /// Converts a TOML syntax or type error, naming the key on the offending line as the field.
    pub fn toml_error(&self, error: &toml::de::Error) -> FileError {
        let span = error.span().unwrap_or(0..0);
        let (line, column) = self.line_col(span.start);
        let text_line = self.text.lines().nth(line.saturating_sub(1)).unwrap_or("");
        // The key on the offending line, or the table a `[name]` / `[[name]]` line opens.
        let field = match text_line.trim().strip_prefix('[') {
            Some(header) => Some(header.trim_matches(['[', ']', ' ']).to_string()),
            None => text_line
                .split_once('=')
                .map(|(key, _)| key.trim().to_string()),
        }
        .filter(|k| !k.is_empty());
        FileError {
            path: self.path.to_string(),
            line: if span.end == 0 && span.start == 0 {
                0
            } else {
                line
            },
            column,
            field,
            message: plain_words(error.message().trim()),
        }
    }
}

/// The range of serde's integer type names, in words.
fn integer_range(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "u8" => "from 0 to 255",
        "u16" => "from 0 to 65535",
        "u32" => "from 0 to 4294967295",
        "u64" | "usize" => "from 0 up",
        "i8" => "from -128 to 127",
        "i16" => "from -32768 to 32767",
        "i32" => "from -2147483648 to 2147483647",
        "i64" | "isize" => "(a whole number)",
        _ => return None,
    })
}

/// Rewrites serde's messages in a file author's terms: "expected i32" becomes the range of
/// whole numbers allowed, fields are keys, and an unknown key suggests the nearest known one.
pub fn plain_words(message: &str) -> String {
    // "invalid value: integer `99999999999`, expected i32" / "invalid type: string \"x\", expected u8"
    if let Some((what, ty)) = message.rsplit_once(", expected ") {
        if let Some(range) = integer_range(ty.trim()) {
            let found = what
                .trim_start_matches("invalid value: ")
                .trim_start_matches("invalid type: ")
                .replace("integer ", "")
                .replace("floating point ", "");
            return format!("expected a whole number {range}, found {found}")
                .replace("number (a whole number)", "number");
        }
    }
    if let Some((what, expected)) = message.rsplit_once(", expected ") {
        if let Some(found) = what.strip_prefix("invalid type: ") {
            let wanted = match expected.trim() {
                "a string" => Some("text in quotes"),
                "a boolean" => Some("true or false"),
                "a sequence" => Some("a list `[…]`"),
                "a map" => Some("a table (`[name]` or `{ … }`)"),
                e if e.starts_with("struct ") => Some("a table (`[name]` or `{ … }`)"),
                e if e.starts_with("a borrowed string") => Some("text in quotes"),
                _ => None,
            };
            if let Some(wanted) = wanted {
                return format!("expected {wanted}, found {found}");
            }
        }
    }
    if let Some(rest) = message.strip_prefix("missing field ") {
        return format!("missing key {rest}");
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        // "unknown field `wingspan`, expected one of `id`, `name`, …"
        if let Some((unknown, expected)) = rest.split_once(", expected ") {
            let known: Vec<&str> = expected
                .trim_start_matches("one of ")
                .split(", ")
                .map(|k| k.trim_matches('`'))
                .collect();
            let name = unknown.trim_matches('`');
            let hint = crate::loader::did_you_mean(name, known.iter().copied());
            let hint = match hint.strip_prefix("; ") {
                Some(h) => format!(" ({h})"),
                None => hint,
            };
            return format!(
                "unknown key {unknown}{hint}; the keys here are {}",
                known.join(", ")
            );
        }
        return format!("unknown key {rest}");
    }
    if message.starts_with("data did not match any variant of untagged enum") {
        return "this value has the wrong form here (see docs/encounters.md)".to_string();
    }
    message.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_lines_and_columns() {
        let f = SourceFile::new("a.toml", "x = 1\ny = \"two\"\n");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(6), (2, 1));
        assert_eq!(f.line_col(10), (2, 5));
        let e = f.error(6..7, Some("y".to_string()), "expected a number");
        assert_eq!(e.to_string(), "a.toml:2:1: field `y`: expected a number");
    }

    #[test]
    fn serde_messages_read_as_plain_words() {
        assert_eq!(
            plain_words("invalid value: integer `99999999999`, expected i32"),
            "expected a whole number from -2147483648 to 2147483647, found `99999999999`"
        );
        assert_eq!(
            plain_words("invalid type: floating point `0.5`, expected u8"),
            "expected a whole number from 0 to 255, found `0.5`"
        );
        assert_eq!(plain_words("missing field `id`"), "missing key `id`");
        assert_eq!(
            plain_words("invalid type: integer `0`, expected a string"),
            "expected text in quotes, found integer `0`"
        );
        assert_eq!(
            plain_words("invalid type: integer `0`, expected struct OptionsDef"),
            "expected a table (`[name]` or `{ … }`), found integer `0`"
        );
        assert_eq!(
            plain_words("unknown field `hpp`, expected one of `id`, `hp`, `side`"),
            "unknown key `hpp` (did you mean `hp`?); the keys here are id, hp, side"
        );
        assert_eq!(plain_words("something else"), "something else");
    }

    #[test]
    fn toml_errors_name_line_and_field() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct T {
            x: u32,
            y: u32,
        }
        let text = "x = 1\ny = \"two\"\n";
        let err = toml::from_str::<T>(text).unwrap_err();
        let e = SourceFile::new("a.toml", text).toml_error(&err);
        assert_eq!((e.line, e.field.as_deref()), (2, Some("y")));
    }
}
