//! Limits on the work one expression may cause, so that no input can hang or exhaust memory.

/// Bounds on parsing, rolling and computing distributions.
///
/// Every limit, when exceeded, produces an error that names it (see [`Limit`]).
/// [`Limits::default`] gives the values documented in `docs/dice.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest accepted expression, in characters (default 1,000).
    pub max_expr_len: usize,
    /// Most dice one roll may throw, counting rerolls and explosions (default 10,000).
    pub max_dice: u32,
    /// Most sides one die may have (default 1,000,000).
    pub max_sides: u32,
    /// Most rerolls of one die, and most explosions of one die (default 100).
    pub max_depth: u32,
    /// Deepest nesting of parentheses and unary minus (default 64).
    pub max_nesting: u32,
    /// Most distinct values a distribution (or an intermediate one) may hold (default 1,000,000).
    pub max_support: usize,
    /// Most elementary big-number operations one distribution may take (default 500,000,000).
    pub max_work: u64,
    /// Most 64-bit words one table of a distribution may hold (values × count width; default
    /// 4,000,000, i.e. 32 MB), checked before the table is allocated.
    pub max_words: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_expr_len: 1_000,
            max_dice: 10_000,
            max_sides: 1_000_000,
            max_depth: 100,
            max_nesting: 64,
            max_support: 1_000_000,
            max_work: 500_000_000,
            max_words: 4_000_000,
        }
    }
}

/// Which limit was exceeded (used inside error values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// [`Limits::max_expr_len`].
    ExprLen,
    /// [`Limits::max_dice`].
    Dice,
    /// [`Limits::max_sides`].
    Sides,
    /// [`Limits::max_depth`].
    Depth,
    /// [`Limits::max_nesting`].
    Nesting,
    /// [`Limits::max_support`].
    Support,
    /// [`Limits::max_work`].
    Work,
    /// [`Limits::max_words`].
    Memory,
}

impl Limit {
    /// A short human name of the limit, e.g. "dice per expression".
    pub fn name(self) -> &'static str {
        match self {
            Limit::ExprLen => "expression length",
            Limit::Dice => "dice per expression",
            Limit::Sides => "sides per die",
            Limit::Depth => "reroll/explosion depth",
            Limit::Nesting => "nesting depth",
            Limit::Support => "distribution size",
            Limit::Work => "distribution work",
            Limit::Memory => "distribution memory",
        }
    }

    /// The value of this limit in `limits`.
    pub fn value(self, limits: &Limits) -> u64 {
        match self {
            Limit::ExprLen => limits.max_expr_len as u64,
            Limit::Dice => u64::from(limits.max_dice),
            Limit::Sides => u64::from(limits.max_sides),
            Limit::Depth => u64::from(limits.max_depth),
            Limit::Nesting => u64::from(limits.max_nesting),
            Limit::Support => limits.max_support as u64,
            Limit::Work => limits.max_work,
            Limit::Memory => limits.max_words as u64,
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
