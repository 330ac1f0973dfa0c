//! The syntax tree of a dice expression and its canonical text.
//!
//! `Display` prints canonical text: lower case, no spaces, `N` always written (`1d6`), `d%`
//! as `1d100`, modifiers in application order, the fewest parentheses. Parsing canonical text
//! gives back the same tree.

use std::fmt::{self, Display, Formatter, Write};

/// A dice expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer literal (the parser only produces non-negative ones).
    Num(i64),
    /// A dice term such as `4d6kh3`.
    Dice(Dice),
    /// Unary minus.
    Neg(Box<Expr>),
    /// A binary operation.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
}

/// A binary arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`, integer division rounding down (floor).
    Div,
}

impl BinOp {
    /// The operator's symbol.
    pub fn symbol(self) -> char {
        match self {
            BinOp::Add => '+',
            BinOp::Sub => '-',
            BinOp::Mul => '*',
            BinOp::Div => '/',
        }
    }

    fn precedence(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div => 2,
        }
    }
}

/// A dice term: `count` dice of `sides` sides with modifiers, applied in this order:
/// reroll, clamp (`mi`/`ma`), explode, keep/drop, count successes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Dice {
    /// Number of dice (`N` in `NdS`).
    pub count: u32,
    /// Sides per die (`S` in `NdS`).
    pub sides: u32,
    /// Reroll faces matching a condition (`r`, `ro`).
    pub reroll: Option<Reroll>,
    /// Face floor (`miN`): a lower face counts as `N`.
    pub min: Option<u32>,
    /// Face ceiling (`maN`): a higher face counts as `N`.
    pub max: Option<u32>,
    /// Roll again on faces matching a condition (`!`, `!!`).
    pub explode: Option<Explode>,
    /// Keep or drop the highest or lowest dice (`kh kl dh dl`).
    pub select: Option<Select>,
    /// Count dice meeting a target instead of summing (`>=T`, `>T`, `<T`, `<=T`, `=T`).
    pub success: Option<Compare>,
}

impl Dice {
    /// `count` plain dice of `sides` sides.
    pub fn plain(count: u32, sides: u32) -> Self {
        Dice {
            count,
            sides,
            reroll: None,
            min: None,
            max: None,
            explode: None,
            select: None,
            success: None,
        }
    }

    /// The value a natural `face` counts as after `mi`/`ma`.
    #[inline]
    pub fn clamp(&self, face: u32) -> u32 {
        let mut v = face;
        if let Some(lo) = self.min {
            v = v.max(lo);
        }
        if let Some(hi) = self.max {
            v = v.min(hi);
        }
        v
    }

    /// Whether a natural `face` is rerolled (by `r` or `ro`).
    #[inline]
    pub fn rerolls(&self, face: u32) -> bool {
        self.reroll
            .as_ref()
            .is_some_and(|r| r.conditions.iter().any(|c| c.matches(i64::from(face))))
    }

    /// Whether a natural `face` explodes.
    #[inline]
    pub fn explodes(&self, face: u32) -> bool {
        self.explode
            .as_ref()
            .is_some_and(|e| e.condition.matches(i64::from(face)))
    }

    /// Checks rules that make a term meaningless (infinite rerolls or explosions, `mi > ma`).
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.sides == 0 {
            return Err("a die needs at least 1 side".into());
        }
        if let Some(r) = &self.reroll {
            if !r.once && (1..=self.sides).all(|f| self.rerolls(f)) {
                return Err(format!(
                    "the reroll condition matches every face of a d{}: it would reroll forever",
                    self.sides
                ));
            }
        }
        if self.explode.is_some() {
            let pass = |f: u32| !self.rerolls(f) || self.reroll.as_ref().is_some_and(|r| r.once);
            if (1..=self.sides)
                .filter(|&f| pass(f))
                .all(|f| self.explodes(f))
            {
                return Err(format!(
                    "the explosion condition matches every face of a d{}: it would explode forever",
                    self.sides
                ));
            }
        }
        if let (Some(lo), Some(hi)) = (self.min, self.max) {
            if lo > hi {
                return Err(format!("face floor mi{lo} is above face ceiling ma{hi}"));
            }
        }
        Ok(())
    }
}

/// A reroll modifier: `r` rerolls while the face matches, `ro` rerolls once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reroll {
    /// `true` for `ro` (once), `false` for `r` (repeatedly, up to the depth limit).
    pub once: bool,
    /// A face is rerolled if it matches any of these (`r1r2` gives two).
    pub conditions: Vec<Compare>,
}

/// An explosion modifier.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Explode {
    /// `false` for `!` (each extra roll is a separate die), `true` for `!!` (compounding: the
    /// extra rolls add into the die that exploded).
    pub compound: bool,
    /// The faces that explode (`!` alone means `=sides`).
    pub condition: Compare,
}

/// Which dice to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SelectKind {
    /// `kh`: keep the highest.
    KeepHighest,
    /// `kl`: keep the lowest.
    KeepLowest,
    /// `dh`: drop the highest.
    DropHighest,
    /// `dl`: drop the lowest.
    DropLowest,
}

impl SelectKind {
    /// The notation, e.g. `"kh"`.
    pub fn symbol(self) -> &'static str {
        match self {
            SelectKind::KeepHighest => "kh",
            SelectKind::KeepLowest => "kl",
            SelectKind::DropHighest => "dh",
            SelectKind::DropLowest => "dl",
        }
    }
}

/// A keep/drop modifier such as `kh3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Select {
    /// Keep or drop, highest or lowest.
    pub kind: SelectKind,
    /// How many dice (the notation's count; defaults to 1).
    pub count: u32,
}

impl Select {
    /// For a pool of `n` dice: `(keep_highest, kept)` — whether the kept dice are the highest
    /// ones, and how many are kept.
    #[inline]
    pub fn kept(self, n: usize) -> (bool, usize) {
        let c = self.count as usize;
        match self.kind {
            SelectKind::KeepHighest => (true, c.min(n)),
            SelectKind::KeepLowest => (false, c.min(n)),
            SelectKind::DropHighest => (false, n.saturating_sub(c)),
            SelectKind::DropLowest => (true, n.saturating_sub(c)),
        }
    }
}

/// A comparison operator of a condition or target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `=` (or a bare number).
    Eq,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The notation, e.g. `">="`.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// A condition on a face or value, such as `>=5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Compare {
    /// The comparison.
    pub op: CmpOp,
    /// The right-hand side.
    pub value: u32,
}

impl Compare {
    /// Whether `x` satisfies the condition.
    #[inline]
    pub fn matches(self, x: i64) -> bool {
        let v = i64::from(self.value);
        match self.op {
            CmpOp::Eq => x == v,
            CmpOp::Lt => x < v,
            CmpOp::Le => x <= v,
            CmpOp::Gt => x > v,
            CmpOp::Ge => x >= v,
        }
    }

    /// Writes the condition with `=` left implicit (`6`, `>=5`).
    fn write_bare(self, f: &mut impl Write) -> fmt::Result {
        match self.op {
            CmpOp::Eq => write!(f, "{}", self.value),
            op => write!(f, "{}{}", op.symbol(), self.value),
        }
    }
}

impl Display for Compare {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.op.symbol(), self.value)
    }
}

impl Display for Dice {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        if let Some(r) = &self.reroll {
            for c in &r.conditions {
                f.write_str(if r.once { "ro" } else { "r" })?;
                c.write_bare(f)?;
            }
        }
        if let Some(lo) = self.min {
            write!(f, "mi{lo}")?;
        }
        if let Some(hi) = self.max {
            write!(f, "ma{hi}")?;
        }
        if let Some(e) = &self.explode {
            f.write_str(if e.compound { "!!" } else { "!" })?;
            let on_max = e.condition
                == Compare {
                    op: CmpOp::Eq,
                    value: self.sides,
                };
            // A following success target would be read as the explosion's condition.
            if !on_max || self.success.is_some() {
                e.condition.write_bare(f)?;
            }
        }
        if let Some(s) = self.select {
            write!(f, "{}{}", s.kind.symbol(), s.count)?;
        }
        if let Some(t) = self.success {
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

impl Expr {
    fn precedence(&self) -> u8 {
        match self {
            Expr::Num(_) | Expr::Dice(_) => 4,
            Expr::Neg(_) => 3,
            Expr::Binary { op, .. } => op.precedence(),
        }
    }

    /// A fully parenthesised prefix form showing the tree, e.g. `(+ 1 (* 2 3))`.
    pub fn tree(&self) -> String {
        let mut out = String::new();
        self.write_tree(&mut out);
        out
    }

    fn write_tree(&self, out: &mut String) {
        match self {
            Expr::Num(n) => {
                let _ = write!(out, "{n}");
            }
            Expr::Dice(d) => {
                let _ = write!(out, "{d}");
            }
            Expr::Neg(x) => {
                out.push_str("(- ");
                x.write_tree(out);
                out.push(')');
            }
            Expr::Binary { op, lhs, rhs } => {
                let _ = write!(out, "({} ", op.symbol());
                lhs.write_tree(out);
                out.push(' ');
                rhs.write_tree(out);
                out.push(')');
            }
        }
    }

    /// Visits every dice term, left to right.
    pub fn dice_terms(&self) -> Vec<&Dice> {
        let mut out = Vec::new();
        self.collect_dice(&mut out);
        out
    }

    fn collect_dice<'a>(&'a self, out: &mut Vec<&'a Dice>) {
        match self {
            Expr::Num(_) => {}
            Expr::Dice(d) => out.push(d),
            Expr::Neg(x) => x.collect_dice(out),
            Expr::Binary { lhs, rhs, .. } => {
                lhs.collect_dice(out);
                rhs.collect_dice(out);
            }
        }
    }
}

/// Writes `expr` with the fewest parentheses, using `leaf` for numbers and dice and `spaced`
/// to put spaces around binary operators. Shared by canonical text and roll breakdowns.
pub(crate) fn write_infix<W: Write>(
    expr: &Expr,
    out: &mut W,
    spaced: bool,
    leaf: &mut dyn FnMut(&Expr, &mut W) -> fmt::Result,
) -> fmt::Result {
    match expr {
        Expr::Num(_) | Expr::Dice(_) => leaf(expr, out),
        Expr::Neg(x) => {
            out.write_char('-')?;
            let paren = x.precedence() < 3;
            if paren {
                out.write_char('(')?;
            }
            write_infix(x, out, spaced, leaf)?;
            if paren {
                out.write_char(')')?;
            }
            Ok(())
        }
        Expr::Binary { op, lhs, rhs } => {
            let p = op.precedence();
            let lp = lhs.precedence() < p;
            if lp {
                out.write_char('(')?;
            }
            write_infix(lhs, out, spaced, leaf)?;
            if lp {
                out.write_char(')')?;
            }
            if spaced {
                write!(out, " {} ", op.symbol())?;
            } else {
                out.write_char(op.symbol())?;
            }
            let rp = rhs.precedence() <= p;
            if rp {
                out.write_char('(')?;
            }
            write_infix(rhs, out, spaced, leaf)?;
            if rp {
                out.write_char(')')?;
            }
            Ok(())
        }
    }
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_infix(self, f, false, &mut |e, f| match e {
            Expr::Num(n) => write!(f, "{n}"),
            Expr::Dice(d) => write!(f, "{d}"),
            _ => Ok(()),
        })
    }
}
