//! Lexer: splits an expression into tokens, case-insensitively, skipping whitespace.

use crate::ast::CmpOp;

/// A token kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A run of decimal digits; `None` if it does not fit in a `u64`.
    Int(Option<u64>),
    /// `d`
    D,
    /// `%`
    Percent,
    /// `r` or `rr`
    Reroll,
    /// `ro`
    RerollOnce,
    /// `mi`
    Min,
    /// `ma`
    Max,
    /// `kh` (or `k`), `kl`, `dh`, `dl`
    Keep(crate::ast::SelectKind),
    /// `!`
    Bang,
    /// `!!`
    BangBang,
    /// `=`, `<`, `<=`, `>`, `>=`
    Cmp(CmpOp),
    Plus,
    Minus,
    Star,
    Slash,
    LParen,
    RParen,
    /// A word or character that means nothing here.
    Unknown(String),
    End,
}

impl Tok {
    /// How the token is named in error messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Int(Some(n)) => format!("'{n}'"),
            Tok::Int(None) => "a number".into(),
            Tok::D => "'d'".into(),
            Tok::Percent => "'%'".into(),
            Tok::Reroll => "'r'".into(),
            Tok::RerollOnce => "'ro'".into(),
            Tok::Min => "'mi'".into(),
            Tok::Max => "'ma'".into(),
            Tok::Keep(k) => format!("'{}'", k.symbol()),
            Tok::Bang => "'!'".into(),
            Tok::BangBang => "'!!'".into(),
            Tok::Cmp(op) => format!("'{}'", op.symbol()),
            Tok::Plus => "'+'".into(),
            Tok::Minus => "'-'".into(),
            Tok::Star => "'*'".into(),
            Tok::Slash => "'/'".into(),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::Unknown(s) => format!("'{s}'"),
            Tok::End => "end of input".into(),
        }
    }
}

/// A token and the 0-based character offset where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub at: usize,
}

/// Splits `input` into tokens; always ends with [`Tok::End`]. Never fails: unknown input
/// becomes [`Tok::Unknown`] so the parser can say what it expected instead.
pub(crate) fn lex(input: &str) -> Vec<Token> {
    use crate::ast::SelectKind as K;
    let chars: Vec<char> = input.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let at = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let tok = if c.is_ascii_digit() {
            let mut n: Option<u64> = Some(0);
            while i < chars.len() && chars[i].is_ascii_digit() {
                let d = u64::from(chars[i] as u8 - b'0');
                n = n
                    .and_then(|n| n.checked_mul(10))
                    .and_then(|n| n.checked_add(d));
                i += 1;
            }
            out.push(Token {
                tok: Tok::Int(n),
                at,
            });
            continue;
        } else if c.is_ascii_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphabetic() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect::<String>().to_lowercase();
            let tok = match word.as_str() {
                "d" => Tok::D,
                "r" | "rr" => Tok::Reroll,
                "ro" => Tok::RerollOnce,
                "mi" => Tok::Min,
                "ma" => Tok::Max,
                "k" | "kh" => Tok::Keep(K::KeepHighest),
                "kl" => Tok::Keep(K::KeepLowest),
                "dh" => Tok::Keep(K::DropHighest),
                "dl" => Tok::Keep(K::DropLowest),
                _ => Tok::Unknown(chars[start..i].iter().collect()),
            };
            out.push(Token { tok, at });
            continue;
        } else {
            let next = chars.get(i + 1).copied();
            let (tok, len) = match (c, next) {
                ('!', Some('!')) => (Tok::BangBang, 2),
                ('!', _) => (Tok::Bang, 1),
                ('>', Some('=')) => (Tok::Cmp(CmpOp::Ge), 2),
                ('<', Some('=')) => (Tok::Cmp(CmpOp::Le), 2),
                ('>', _) => (Tok::Cmp(CmpOp::Gt), 1),
                ('<', _) => (Tok::Cmp(CmpOp::Lt), 1),
                ('=', _) => (Tok::Cmp(CmpOp::Eq), 1),
                ('%', _) => (Tok::Percent, 1),
                ('+', _) => (Tok::Plus, 1),
                ('-', _) => (Tok::Minus, 1),
                ('*', _) => (Tok::Star, 1),
                ('/', _) => (Tok::Slash, 1),
                ('(', _) => (Tok::LParen, 1),
                (')', _) => (Tok::RParen, 1),
                (c, _) => (Tok::Unknown(c.to_string()), 1),
            };
            i += len;
            tok
        };
        out.push(Token { tok, at });
    }
    out.push(Token {
        tok: Tok::End,
        at: chars.len(),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexes_dice_and_modifiers() {
        let toks: Vec<Tok> = lex("4D6 kh3").into_iter().map(|t| t.tok).collect();
        assert_eq!(
            toks,
            vec![
                Tok::Int(Some(4)),
                Tok::D,
                Tok::Int(Some(6)),
                Tok::Keep(crate::ast::SelectKind::KeepHighest),
                Tok::Int(Some(3)),
                Tok::End
            ]
        );
    }

    #[test]
    fn huge_numbers_do_not_overflow() {
        let toks = lex("99999999999999999999999");
        assert_eq!(toks[0].tok, Tok::Int(None));
    }
}
