//! Error types of parsing, rolling and computing distributions.

use crate::limits::Limit;
use crate::source::SourceError;

/// A syntax error, or an expression that breaks a limit or a rule of the notation.
///
/// `column` is 1-based and counts characters of the input, so a caret can be drawn under it
/// (see [`ParseError::render`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at column {column}")]
pub struct ParseError {
    /// 1-based character column where the problem starts.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    pub(crate) fn new(offset: usize, kind: ParseErrorKind) -> Self {
        ParseError {
            column: offset + 1,
            kind,
        }
    }

    /// The message, then `input` on its own line with a caret under the offending column.
    ///
    /// ```
    /// let err = fray_dice::parse("2d6+*3").unwrap_err();
    /// assert_eq!(
    ///     err.render("2d6+*3"),
    ///     "expected a number, a die or '(', found '*' at column 5\n  2d6+*3\n      ^"
    /// );
    /// ```
    pub fn render(&self, input: &str) -> String {
        // Show at most one line of input, with control characters made visible.
        let shown: String = input
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(self.column.max(1) + 60)
            .collect();
        let pad = " ".repeat(self.column.saturating_sub(1));
        format!("{self}\n  {shown}\n  {pad}^")
    }
}

/// What is wrong with an expression.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The parser needed something else here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What would have been accepted, e.g. "a number".
        expected: String,
        /// What was there, e.g. "'*'" or "end of input".
        found: String,
    },
    /// A number does not fit.
    #[error("number too large (at most {max})")]
    NumberTooLarge {
        /// The largest accepted value.
        max: u64,
    },
    /// A limit on the size of the expression was exceeded.
    #[error("{limit} limit exceeded: {value} > {max}")]
    Limit {
        /// Which limit.
        limit: Limit,
        /// The offending size.
        value: u64,
        /// The limit's value.
        max: u64,
    },
    /// The notation is well formed but meaningless, e.g. `1d6r<7` (rerolls forever).
    #[error("{0}")]
    Invalid(String),
}

/// Why a roll failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RollError {
    /// The dice source could not give a face.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// A divisor rolled or evaluated to zero.
    #[error("division by zero")]
    DivisionByZero,
    /// Arithmetic went outside the 64-bit signed range.
    #[error("arithmetic overflow")]
    Overflow,
    /// A limit on work was exceeded while rolling (dice count, reroll/explosion depth).
    #[error("{limit} limit exceeded (at most {max})")]
    Limit {
        /// Which limit.
        limit: Limit,
        /// The limit's value.
        max: u64,
    },
}

/// Why a distribution could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DistError {
    /// Some outcome divides by zero.
    #[error("division by zero is possible")]
    DivisionByZero,
    /// Some outcome goes outside the 64-bit signed range.
    #[error("arithmetic overflow")]
    Overflow,
    /// Computing it would take more than a limit allows.
    #[error("{limit} limit exceeded: needs {needed}, at most {max}")]
    Limit {
        /// Which limit.
        limit: Limit,
        /// An estimate of what was needed.
        needed: u64,
        /// The limit's value.
        max: u64,
    },
    /// The combination of operators has no exact algorithm here.
    #[error("not supported for exact distributions: {0}")]
    Unsupported(&'static str),
}
