//! Recursive-descent parser from tokens to [`Expr`], enforcing the size limits.
//!
//! ```text
//! expr     := term (('+' | '-') term)*
//! term     := unary (('*' | '/') unary)*
//! unary    := '-' unary | atom
//! atom     := INT | dice | '(' expr ')'
//! dice     := [INT] 'd' (INT | '%') modifier*
//! modifier := ('r' | 'rr' | 'ro') cond | 'mi' INT | 'ma' INT | ('!' | '!!') [cond]
//!           | ('kh' | 'k' | 'kl' | 'dh' | 'dl') [INT] | cmp INT
//! cond     := [cmp] INT          (a bare number means '=')
//! cmp      := '=' | '<' | '<=' | '>' | '>='
//! ```

use crate::ast::{BinOp, CmpOp, Compare, Dice, Explode, Expr, Reroll, Select};
use crate::error::{ParseError, ParseErrorKind};
use crate::lexer::{lex, Tok, Token};
use crate::limits::{Limit, Limits};

/// Parses `input` with the given limits.
pub fn parse_with(input: &str, limits: &Limits) -> Result<Expr, ParseError> {
    let len = input
        .chars()
        .take(limits.max_expr_len.saturating_add(1))
        .count();
    if len > limits.max_expr_len {
        let value = input.chars().count() as u64;
        return Err(ParseError::new(
            limits.max_expr_len,
            ParseErrorKind::Limit {
                limit: Limit::ExprLen,
                value,
                max: limits.max_expr_len as u64,
            },
        ));
    }
    let mut p = Parser {
        tokens: lex(input),
        pos: 0,
        limits,
        depth: 0,
        dice: 0,
        dice_end: None,
    };
    let expr = p.expr()?;
    let t = p.peek();
    if t.tok != Tok::End {
        let expected = if p.dice_end == Some(p.pos) {
            "a modifier, an operator or the end"
        } else if t.tok == Tok::RParen {
            "an operator or the end (unbalanced ')')"
        } else {
            "an operator or the end"
        };
        return Err(p.expected(expected));
    }
    Ok(expr)
}

struct Parser<'a> {
    tokens: Vec<Token>,
    pos: usize,
    limits: &'a Limits,
    depth: u32,
    dice: u64,
    /// Token position just after the last dice term (to word "expected a modifier").
    dice_end: Option<usize>,
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        // `lex` always ends with End and we never advance past it.
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if t.tok != Tok::End {
            self.pos += 1;
        }
        t
    }

    fn expected(&self, what: &str) -> ParseError {
        let t = self.peek();
        ParseError::new(
            t.at,
            ParseErrorKind::Expected {
                expected: what.into(),
                found: t.tok.describe(),
            },
        )
    }

    fn enter(&mut self, at: usize) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > self.limits.max_nesting {
            return Err(ParseError::new(
                at,
                ParseErrorKind::Limit {
                    limit: Limit::Nesting,
                    value: u64::from(self.depth),
                    max: u64::from(self.limits.max_nesting),
                },
            ));
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        let mut lhs = self.term()?;
        loop {
            let op = match self.peek().tok {
                Tok::Plus => BinOp::Add,
                Tok::Minus => BinOp::Sub,
                _ => return Ok(lhs),
            };
            self.bump();
            let rhs = self.term()?;
            lhs = Expr::Binary {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            };
        }
    }

    fn term(&mut self) -> Result<Expr, ParseError> {
        let mut lhs = self.unary()?;
        loop {
            let op = match self.peek().tok {
                Tok::Star => BinOp::Mul,
                Tok::Slash => BinOp::Div,
                _ => return Ok(lhs),
            };
            self.bump();
            let rhs = self.unary()?;
            lhs = Expr::Binary {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            };
        }
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        if self.peek().tok == Tok::Minus {
            let at = self.bump().at;
            self.enter(at)?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Expr::Neg(Box::new(inner)));
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, ParseError> {
        let t = self.peek().clone();
        match t.tok {
            Tok::Int(n) => {
                self.bump();
                if self.peek().tok == Tok::D {
                    let count = self.to_u32(n, t.at)?;
                    self.dice(count, t.at)
                } else {
                    let n = n
                        .filter(|&n| i64::try_from(n).is_ok())
                        .ok_or_else(|| too_large(t.at, i64::MAX as u64))?;
                    Ok(Expr::Num(n as i64))
                }
            }
            Tok::D => self.dice(1, t.at),
            Tok::LParen => {
                self.bump();
                self.enter(t.at)?;
                let inner = self.expr()?;
                if self.peek().tok != Tok::RParen {
                    return Err(self.expected("')'"));
                }
                self.bump();
                self.depth -= 1;
                Ok(inner)
            }
            _ => Err(self.expected("a number, a die or '('")),
        }
    }

    fn to_u32(&self, n: Option<u64>, at: usize) -> Result<u32, ParseError> {
        n.and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| too_large(at, u64::from(u32::MAX)))
    }

    /// A number token converted to `u32`, or an error naming `what` was expected.
    fn number(&mut self, what: &str) -> Result<u32, ParseError> {
        let t = self.peek().clone();
        match t.tok {
            Tok::Int(n) => {
                self.bump();
                self.to_u32(n, t.at)
            }
            _ => Err(self.expected(what)),
        }
    }

    fn cmp(&mut self) -> Option<CmpOp> {
        if let Tok::Cmp(op) = self.peek().tok {
            self.bump();
            Some(op)
        } else {
            None
        }
    }

    /// `[cmp] INT`.
    fn condition(&mut self) -> Result<Compare, ParseError> {
        let op = self.cmp();
        let what = if op.is_some() {
            "a number"
        } else {
            "a number or a comparison"
        };
        let value = self.number(what)?;
        Ok(Compare {
            op: op.unwrap_or(CmpOp::Eq),
            value,
        })
    }

    fn dice(&mut self, count: u32, at: usize) -> Result<Expr, ParseError> {
        self.bump(); // 'd'
        let sides_at = self.peek().at;
        let sides = if self.peek().tok == Tok::Percent {
            self.bump();
            100
        } else {
            self.number("the number of sides or '%'")?
        };
        if sides > self.limits.max_sides {
            return Err(ParseError::new(
                sides_at,
                ParseErrorKind::Limit {
                    limit: Limit::Sides,
                    value: u64::from(sides),
                    max: u64::from(self.limits.max_sides),
                },
            ));
        }
        self.dice += u64::from(count);
        if self.dice > u64::from(self.limits.max_dice) {
            return Err(ParseError::new(
                at,
                ParseErrorKind::Limit {
                    limit: Limit::Dice,
                    value: self.dice,
                    max: u64::from(self.limits.max_dice),
                },
            ));
        }
        let mut d = Dice::plain(count, sides);
        loop {
            let t = self.peek().clone();
            let dup = |name: &str| {
                ParseError::new(
                    t.at,
                    ParseErrorKind::Invalid(format!("a die can have only one {name} modifier")),
                )
            };
            match t.tok {
                Tok::Reroll | Tok::RerollOnce => {
                    self.bump();
                    let once = t.tok == Tok::RerollOnce;
                    let c = self.condition()?;
                    match &mut d.reroll {
                        None => {
                            d.reroll = Some(Reroll {
                                once,
                                conditions: vec![c],
                            })
                        }
                        Some(r) if r.once == once => r.conditions.push(c),
                        Some(_) => {
                            return Err(ParseError::new(
                                t.at,
                                ParseErrorKind::Invalid(
                                    "a die cannot mix 'r' and 'ro' rerolls".into(),
                                ),
                            ))
                        }
                    }
                }
                Tok::Min | Tok::Max => {
                    self.bump();
                    let v = self.number("a number")?;
                    let slot = if t.tok == Tok::Min {
                        &mut d.min
                    } else {
                        &mut d.max
                    };
                    if slot.is_some() {
                        return Err(dup(if t.tok == Tok::Min { "'mi'" } else { "'ma'" }));
                    }
                    *slot = Some(v);
                }
                Tok::Bang | Tok::BangBang => {
                    self.bump();
                    if d.explode.is_some() {
                        return Err(dup("explosion"));
                    }
                    let condition = match self.peek().tok {
                        Tok::Int(_) | Tok::Cmp(_) => self.condition()?,
                        _ => Compare {
                            op: CmpOp::Eq,
                            value: sides,
                        },
                    };
                    d.explode = Some(Explode {
                        compound: t.tok == Tok::BangBang,
                        condition,
                    });
                }
                Tok::Keep(kind) => {
                    self.bump();
                    if d.select.is_some() {
                        return Err(dup("keep/drop"));
                    }
                    let count = match self.peek().tok {
                        Tok::Int(_) => self.number("a number")?,
                        _ => 1,
                    };
                    d.select = Some(Select { kind, count });
                }
                Tok::Cmp(op) => {
                    self.bump();
                    if d.success.is_some() {
                        return Err(dup("success-count"));
                    }
                    let value = self.number("a number")?;
                    d.success = Some(Compare { op, value });
                }
                _ => break,
            }
        }
        d.check()
            .map_err(|m| ParseError::new(at, ParseErrorKind::Invalid(m)))?;
        self.dice_end = Some(self.pos);
        Ok(Expr::Dice(d))
    }
}

fn too_large(at: usize, max: u64) -> ParseError {
    ParseError::new(at, ParseErrorKind::NumberTooLarge { max })
}
