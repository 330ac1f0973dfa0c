//! Rolling: evaluates an expression with a [`DiceSource`], either with a full breakdown
//! ([`Roll`]) or total-only without allocating (the simulator's fast path).
//!
//! Per die, in this order: the face is rolled; `r`/`ro` reroll it (rerolled-away faces are
//! kept in the breakdown, marked); `mi`/`ma` clamp its value; if the natural face matches the
//! explosion condition another die is rolled (a separate die with `!`, added into the same die
//! with `!!`), which goes through the same steps. Then keep/drop selects among the dice (with
//! `!` every explosion is a die of its own; with `!!` a die and its explosions are one), and
//! the term's value is the sum of the kept dice, or with a success target the number of kept
//! dice meeting it.

use std::fmt::{self, Write};

use crate::ast::{write_infix, BinOp, Dice, Expr};
use crate::error::RollError;
use crate::limits::{Limit, Limits};
use crate::source::DiceSource;

/// One physical die thrown during a roll.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DieResult {
    /// Sides of the die.
    pub sides: u32,
    /// The natural face rolled.
    pub face: u32,
    /// What the face counts as (after `mi`/`ma`); for a `!!` die, this one roll's part.
    pub value: i64,
    /// Whether it counts toward the total (false if dropped or rerolled away).
    pub kept: bool,
    /// Whether this face was rerolled away (replaced by the next die of the same term).
    pub rerolled: bool,
    /// Whether this face exploded (caused the next die).
    pub exploded: bool,
    /// With a success target: whether this die (its whole `!!` chain) met it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    /// 0-based index of the dice term in the expression, left to right.
    pub term: usize,
}

/// The result of rolling an expression, with every die.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roll {
    /// The expression's canonical text.
    pub expr: String,
    /// The value of the expression.
    pub total: i64,
    /// Every die thrown, in order.
    pub dice: Vec<DieResult>,
    /// The expression with each dice term replaced by its dice, e.g. `[6, 5, 3, (1)] + 2`.
    ///
    /// Marks: `(x)` dropped, `~x~` rerolled away, `x!` exploded, `a+b` one `!!` die,
    /// `x*` met the success target, `f->v` face `f` clamped to `v` by `mi`/`ma`.
    pub breakdown: String,
}

impl fmt::Display for Roll {
    /// `4d6kh3 = [6, 5, 3, (1)] = 14`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {} = {}", self.expr, self.breakdown, self.total)
    }
}

/// Shared state of one roll: the source, the limits and the dice thrown so far.
struct Ctx<'a, S: ?Sized> {
    source: &'a mut S,
    limits: &'a Limits,
    thrown: u32,
}

/// Something that happened to one die, reported to the caller of [`Ctx::die`].
enum Event {
    /// A face rerolled away.
    Rerolled(u32),
    /// A counted roll: natural face, value, whether it exploded.
    Rolled(u32, u32, bool),
}

impl<S: DiceSource + ?Sized> Ctx<'_, S> {
    #[inline]
    fn throw(&mut self, sides: u32) -> Result<u32, RollError> {
        self.thrown += 1;
        if self.thrown > self.limits.max_dice {
            return Err(RollError::Limit {
                limit: Limit::Dice,
                max: u64::from(self.limits.max_dice),
            });
        }
        Ok(self.source.face(sides)?)
    }

    fn depth_error(&self) -> RollError {
        RollError::Limit {
            limit: Limit::Depth,
            max: u64::from(self.limits.max_depth),
        }
    }

    /// Rolls one of the term's dice with its rerolls and explosions, reporting each event.
    #[inline]
    fn die(&mut self, d: &Dice, on: &mut impl FnMut(Event)) -> Result<(), RollError> {
        let mut explosions = 0u32;
        loop {
            let mut face = self.throw(d.sides)?;
            if let Some(r) = &d.reroll {
                let mut n = 0u32;
                while d.rerolls(face) {
                    n += 1;
                    if n > self.limits.max_depth {
                        return Err(self.depth_error());
                    }
                    on(Event::Rerolled(face));
                    face = self.throw(d.sides)?;
                    if r.once {
                        break;
                    }
                }
            }
            let explodes = d.explodes(face);
            on(Event::Rolled(face, d.clamp(face), explodes));
            if !explodes {
                return Ok(());
            }
            explosions += 1;
            if explosions > self.limits.max_depth {
                return Err(self.depth_error());
            }
        }
    }

    /// The total of a term of plain dice (no reroll, clamp or explosion): the hot path.
    #[inline]
    fn plain_total(&mut self, d: &Dice) -> Result<i64, RollError> {
        self.thrown = self.thrown.saturating_add(d.count);
        if self.thrown > self.limits.max_dice {
            return Err(RollError::Limit {
                limit: Limit::Dice,
                max: u64::from(self.limits.max_dice),
            });
        }
        let sides = d.sides;
        let n = d.count as usize;
        let score = |v: i64| match d.success {
            Some(t) => i64::from(t.matches(v)),
            None => v,
        };
        let (high, kept) = match d.select {
            Some(sel) => sel.kept(n),
            None => (true, n),
        };
        if kept == n {
            let mut total = 0i64;
            for _ in 0..n {
                total += score(i64::from(self.source.face(sides)?));
            }
            return Ok(total);
        }
        if kept == 0 {
            for _ in 0..n {
                self.source.face(sides)?;
            }
            return Ok(0);
        }
        if n > 16 {
            let mut buf = SmallBuf::new();
            for _ in 0..n {
                buf.push(i64::from(self.source.face(sides)?));
            }
            return Ok(select_sum(buf.as_mut_slice(), high, kept, score));
        }
        let mut buf = [0i64; 16];
        for slot in &mut buf[..n] {
            *slot = i64::from(self.source.face(sides)?);
        }
        let units = &mut buf[..n];
        if kept == 1 || kept + 1 == n {
            // One die kept or one dropped: no sort needed.
            let mut best = 0;
            for i in 1..n {
                let better = if (kept == 1) == high {
                    units[i] > units[best]
                } else {
                    units[i] < units[best]
                };
                if better {
                    best = i;
                }
            }
            if kept == 1 {
                return Ok(score(units[best]));
            }
            let all: i64 = units.iter().map(|&v| score(v)).sum();
            return Ok(all - score(units[best]));
        }
        Ok(select_sum(units, high, kept, score))
    }

    /// The total of a dice term, without allocating for pools of up to 32 dice.
    #[inline]
    fn dice_total(&mut self, d: &Dice) -> Result<i64, RollError> {
        if d.reroll.is_none() && d.explode.is_none() && d.min.is_none() && d.max.is_none() {
            return self.plain_total(d);
        }
        let score = |v: i64| match d.success {
            Some(t) => i64::from(t.matches(v)),
            None => v,
        };
        let compound = d.explode.as_ref().is_some_and(|e| e.compound);
        match d.select {
            None => {
                let mut total = 0i64;
                for _ in 0..d.count {
                    let mut chain = 0i64;
                    self.die(d, &mut |e| {
                        if let Event::Rolled(_, v, _) = e {
                            if compound {
                                chain += i64::from(v);
                            } else {
                                total += score(i64::from(v));
                            }
                        }
                    })?;
                    if compound {
                        total += score(chain);
                    }
                }
                Ok(total)
            }
            Some(sel) => {
                let mut buf = SmallBuf::new();
                for _ in 0..d.count {
                    let mut chain = 0i64;
                    self.die(d, &mut |e| {
                        if let Event::Rolled(_, v, _) = e {
                            if compound {
                                chain += i64::from(v);
                            } else {
                                buf.push(i64::from(v));
                            }
                        }
                    })?;
                    if compound {
                        buf.push(chain);
                    }
                }
                let units = buf.as_mut_slice();
                let (high, kept) = sel.kept(units.len());
                Ok(select_sum(units, high, kept, score))
            }
        }
    }

    fn total(&mut self, e: &Expr) -> Result<i64, RollError> {
        match e {
            Expr::Num(n) => Ok(*n),
            Expr::Dice(d) => self.dice_total(d),
            Expr::Neg(x) => self.total(x)?.checked_neg().ok_or(RollError::Overflow),
            Expr::Binary { op, lhs, rhs } => {
                let a = self.total(lhs)?;
                let b = self.total(rhs)?;
                apply(*op, a, b)
            }
        }
    }

    /// Rolls a dice term with its breakdown: appends its dice and returns (total, text).
    fn dice_full(
        &mut self,
        d: &Dice,
        term: usize,
        out: &mut Vec<DieResult>,
    ) -> Result<(i64, String), RollError> {
        let compound = d.explode.as_ref().is_some_and(|e| e.compound);
        let first = out.len();
        // For each die: index of its unit (a `!!` chain is one unit; with `!` each roll is).
        let mut unit_of: Vec<Option<usize>> = Vec::new();
        let mut units: Vec<i64> = Vec::new();
        for _ in 0..d.count {
            let mut chain = 0i64;
            let unit = units.len();
            self.die(d, &mut |e| {
                let (face, value, rerolled, exploded) = match e {
                    Event::Rerolled(f) => (f, d.clamp(f), true, false),
                    Event::Rolled(f, v, x) => (f, v, false, x),
                };
                out.push(DieResult {
                    sides: d.sides,
                    face,
                    value: i64::from(value),
                    kept: !rerolled,
                    rerolled,
                    exploded,
                    success: None,
                    term,
                });
                if rerolled {
                    unit_of.push(None);
                } else if compound {
                    chain += i64::from(value);
                    unit_of.push(Some(unit));
                } else {
                    unit_of.push(Some(units.len()));
                    units.push(i64::from(value));
                }
            })?;
            if compound {
                units.push(chain);
            }
        }
        // Which units are kept: stable order, so among equal dice the earlier ones are kept.
        let mut kept = vec![true; units.len()];
        if let Some(sel) = d.select {
            let (high, n) = sel.kept(units.len());
            let mut order: Vec<usize> = (0..units.len()).collect();
            if high {
                order.sort_by(|&a, &b| units[b].cmp(&units[a]));
            } else {
                order.sort_by(|&a, &b| units[a].cmp(&units[b]));
            }
            for &i in &order[n..] {
                kept[i] = false;
            }
        }
        let success: Vec<Option<bool>> = units
            .iter()
            .map(|&v| d.success.map(|t| t.matches(v)))
            .collect();
        let mut total = 0i64;
        for (i, &v) in units.iter().enumerate() {
            if kept[i] {
                total += match success[i] {
                    Some(s) => i64::from(s),
                    None => v,
                };
            }
        }
        // Mark the dice and write the text: units separated by ", ", a `!!` chain joined by "+".
        let mut text = String::from("[");
        let mut prev_unit: Option<usize> = None;
        let mut open_unit: Option<usize> = None;
        let dice = &mut out[first..];
        for (die, unit) in dice.iter_mut().zip(&unit_of) {
            let same = unit.is_some() && *unit == prev_unit && compound;
            if !same {
                close_unit(&mut text, open_unit, &kept, &success);
                open_unit = None;
                if text.len() > 1 {
                    text.push_str(", ");
                }
            } else {
                text.push('+');
            }
            if let Some(u) = *unit {
                die.kept = kept[u];
                die.success = success[u];
                if !same {
                    if !kept[u] {
                        text.push('(');
                    }
                    open_unit = Some(u);
                }
                if die.face as i64 != die.value {
                    let _ = write!(text, "{}->{}", die.face, die.value);
                } else {
                    let _ = write!(text, "{}", die.value);
                }
                if die.exploded {
                    text.push('!');
                }
                prev_unit = *unit;
            } else {
                let _ = write!(text, "~{}~", die.face);
                prev_unit = None;
            }
        }
        close_unit(&mut text, open_unit, &kept, &success);
        text.push(']');
        Ok((total, text))
    }
}

/// The total score of the `kept` highest (or lowest) of `units`.
#[inline]
fn select_sum(units: &mut [i64], high: bool, kept: usize, score: impl Fn(i64) -> i64) -> i64 {
    if high {
        units.sort_unstable_by(|a, b| b.cmp(a));
    } else {
        units.sort_unstable();
    }
    units[..kept].iter().map(|&v| score(v)).sum()
}

/// Ends the text of a unit: `*` if it met the success target, `)` if dropped.
fn close_unit(text: &mut String, unit: Option<usize>, kept: &[bool], success: &[Option<bool>]) {
    if let Some(u) = unit {
        if success[u] == Some(true) && kept[u] {
            text.push('*');
        }
        if !kept[u] {
            text.push(')');
        }
    }
}

/// `a op b` with overflow and division-by-zero checks; division rounds down.
pub(crate) fn apply(op: BinOp, a: i64, b: i64) -> Result<i64, RollError> {
    match op {
        BinOp::Add => a.checked_add(b).ok_or(RollError::Overflow),
        BinOp::Sub => a.checked_sub(b).ok_or(RollError::Overflow),
        BinOp::Mul => a.checked_mul(b).ok_or(RollError::Overflow),
        BinOp::Div => {
            if b == 0 {
                return Err(RollError::DivisionByZero);
            }
            floor_div(a, b).ok_or(RollError::Overflow)
        }
    }
}

/// `floor(a / b)`, or `None` on overflow or `b == 0`.
#[inline]
pub(crate) fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        Some(q - 1)
    } else {
        Some(q)
    }
}

/// A stack buffer of 32 values that spills to the heap only when it overflows.
struct SmallBuf {
    stack: [i64; 32],
    len: usize,
    heap: Vec<i64>,
}

impl SmallBuf {
    #[inline]
    fn new() -> Self {
        SmallBuf {
            stack: [0; 32],
            len: 0,
            heap: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, v: i64) {
        if self.len < self.stack.len() {
            self.stack[self.len] = v;
            self.len += 1;
        } else {
            if self.heap.is_empty() {
                self.heap.extend_from_slice(&self.stack);
            }
            self.heap.push(v);
        }
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [i64] {
        if self.heap.is_empty() {
            &mut self.stack[..self.len]
        } else {
            &mut self.heap
        }
    }
}

impl Expr {
    /// Rolls the expression with `source` under the default [`Limits`], with every die.
    pub fn roll<S: DiceSource + ?Sized>(&self, source: &mut S) -> Result<Roll, RollError> {
        self.roll_with(source, &Limits::default())
    }

    /// Rolls the expression with `source` under `limits`, with every die.
    pub fn roll_with<S: DiceSource + ?Sized>(
        &self,
        source: &mut S,
        limits: &Limits,
    ) -> Result<Roll, RollError> {
        let mut ctx = Ctx {
            source,
            limits,
            thrown: 0,
        };
        let mut dice = Vec::new();
        let mut terms = Vec::new();
        for (i, d) in self.dice_terms().into_iter().enumerate() {
            terms.push(ctx.dice_full(d, i, &mut dice)?);
        }
        let mut next = terms.iter();
        let total = eval_with_terms(self, &mut || next.next().map_or(0, |t| t.0))?;
        let mut breakdown = String::new();
        let mut next = terms.iter();
        let _ = write_infix(self, &mut breakdown, true, &mut |e, out| match e {
            Expr::Num(n) => write!(out, "{n}"),
            _ => out.write_str(next.next().map_or("", |t| t.1.as_str())),
        });
        Ok(Roll {
            expr: self.to_string(),
            total,
            dice,
            breakdown,
        })
    }

    /// Rolls the expression and returns only its total, without allocating (for pools of up
    /// to 32 dice per keep/drop term). Gives the same total as [`Expr::roll`] from the same
    /// source state.
    #[inline]
    pub fn roll_total<S: DiceSource + ?Sized>(&self, source: &mut S) -> Result<i64, RollError> {
        self.roll_total_with(source, &Limits::default())
    }

    /// [`Expr::roll_total`] under `limits`.
    #[inline]
    pub fn roll_total_with<S: DiceSource + ?Sized>(
        &self,
        source: &mut S,
        limits: &Limits,
    ) -> Result<i64, RollError> {
        let mut ctx = Ctx {
            source,
            limits,
            thrown: 0,
        };
        ctx.total(self)
    }
}

/// Evaluates `e`, taking each dice term's value from `term` (left to right).
fn eval_with_terms(e: &Expr, term: &mut dyn FnMut() -> i64) -> Result<i64, RollError> {
    match e {
        Expr::Num(n) => Ok(*n),
        Expr::Dice(_) => Ok(term()),
        Expr::Neg(x) => eval_with_terms(x, term)?
            .checked_neg()
            .ok_or(RollError::Overflow),
        Expr::Binary { op, lhs, rhs } => {
            let a = eval_with_terms(lhs, term)?;
            let b = eval_with_terms(rhs, term)?;
            apply(*op, a, b)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, ScriptedDice};

    fn roll(expr: &str, faces: &[u32]) -> String {
        let e = parse(expr).unwrap();
        e.roll(&mut ScriptedDice::new(faces.to_vec()))
            .unwrap()
            .to_string()
    }

    #[test]
    fn breakdowns() {
        assert_eq!(
            roll("4d6kh3", &[6, 5, 3, 1]),
            "4d6kh3 = [6, 5, 3, (1)] = 14"
        );
        assert_eq!(
            roll("4d6dl1", &[1, 5, 3, 6]),
            "4d6dl1 = [(1), 5, 3, 6] = 14"
        );
        assert_eq!(roll("2d6r1", &[1, 1, 4, 2]), "2d6r1 = [~1~, ~1~, 4, 2] = 6");
        assert_eq!(roll("2d6ro1", &[1, 1, 2]), "2d6ro1 = [~1~, 1, 2] = 3");
        assert_eq!(roll("2d6!", &[6, 6, 2, 3]), "2d6! = [6!, 6!, 2, 3] = 17");
        assert_eq!(
            roll("2d6!!kh1", &[6, 6, 2, 3]),
            "2d6!!kh1 = [6!+6!+2, (3)] = 14"
        );
        assert_eq!(roll("3d10>=7", &[7, 3, 10]), "3d10>=7 = [7*, 3, 10*] = 2");
        assert_eq!(roll("1d6mi3", &[1]), "1d6mi3 = [1->3] = 3");
        assert_eq!(
            roll("2d6*2+1d4", &[3, 5, 2]),
            "2d6*2+1d4 = [3, 5] * 2 + [2] = 18"
        );
        assert_eq!(roll("-(1d4)/2", &[3]), "-1d4/2 = -[3] / 2 = -2");
    }

    #[test]
    fn errors() {
        use crate::{RollError, SourceError};
        let e = parse("1/(1d2-1)").unwrap();
        assert_eq!(
            e.roll(&mut ScriptedDice::new(vec![1])),
            Err(RollError::DivisionByZero)
        );
        assert_eq!(
            e.roll(&mut ScriptedDice::new(vec![])),
            Err(RollError::Source(SourceError::Exhausted { given: 0 }))
        );
        let e = parse("1d2r1").unwrap();
        let ones = vec![1; 200];
        assert!(matches!(
            e.roll(&mut ScriptedDice::new(ones)),
            Err(RollError::Limit {
                limit: crate::Limit::Depth,
                ..
            })
        ));
    }

    #[test]
    fn works_through_dyn_source() {
        let e = parse("2d6+1").unwrap();
        let mut scripted = ScriptedDice::new(vec![2, 3]);
        let source: &mut dyn crate::DiceSource = &mut scripted;
        assert_eq!(e.roll(source).unwrap().total, 6);
        let mut seeded = crate::SeededDice::new(9);
        let source: &mut dyn crate::DiceSource = &mut seeded;
        let t = e.roll_total(source).unwrap();
        assert!((3..=13).contains(&t));
    }

    #[test]
    fn hand_built_trees_are_bounded() {
        use crate::{Dice, Expr};
        let huge = Expr::Dice(Dice::plain(u32::MAX, 6));
        assert!(huge.distribution().is_err());
        assert!(huge.roll(&mut crate::SeededDice::new(1)).is_err());
        assert!(huge.roll_total(&mut crate::SeededDice::new(1)).is_err());
        let zero = Expr::Dice(Dice::plain(2, 0));
        assert!(zero.distribution().is_err());
        assert!(zero.roll(&mut ScriptedDice::new(vec![1, 1])).is_err());
    }

    #[test]
    fn floor_division() {
        assert_eq!(super::floor_div(7, 2), Some(3));
        assert_eq!(super::floor_div(-7, 2), Some(-4));
        assert_eq!(super::floor_div(7, -2), Some(-4));
        assert_eq!(super::floor_div(-7, -2), Some(3));
        assert_eq!(super::floor_div(i64::MIN, -1), None);
    }
}
