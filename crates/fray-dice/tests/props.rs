//! Property tests of the parser: printing then parsing any tree gives it back, and no input
//! makes parsing, rolling or computing a distribution panic.

use fray_dice::{
    parse, parse_with, BinOp, CmpOp, Compare, Dice, Explode, Expr, Limits, ParseErrorKind, Reroll,
    SeededDice, Select, SelectKind,
};
use proptest::prelude::*;

fn cmp_op() -> impl Strategy<Value = CmpOp> {
    prop_oneof![
        Just(CmpOp::Eq),
        Just(CmpOp::Lt),
        Just(CmpOp::Le),
        Just(CmpOp::Gt),
        Just(CmpOp::Ge)
    ]
}

fn compare() -> impl Strategy<Value = Compare> {
    (cmp_op(), 0u32..30).prop_map(|(op, value)| Compare { op, value })
}

fn dice() -> impl Strategy<Value = Dice> {
    let kind = prop_oneof![
        Just(SelectKind::KeepHighest),
        Just(SelectKind::KeepLowest),
        Just(SelectKind::DropHighest),
        Just(SelectKind::DropLowest)
    ];
    (
        (0u32..20, 1u32..30),
        prop::option::of((any::<bool>(), prop::collection::vec(compare(), 1..3))),
        prop::option::of(0u32..30),
        prop::option::of(0u32..30),
        prop::option::of((any::<bool>(), compare())),
        prop::option::of((kind, 0u32..25)),
        prop::option::of(compare()),
    )
        .prop_map(
            |((count, sides), reroll, min, max, explode, select, success)| Dice {
                count,
                sides,
                reroll: reroll.map(|(once, conditions)| Reroll { once, conditions }),
                min,
                max,
                explode: explode.map(|(compound, condition)| Explode {
                    compound,
                    condition,
                }),
                select: select.map(|(kind, count)| Select { kind, count }),
                success,
            },
        )
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (0i64..1_000_000).prop_map(Expr::Num),
        dice().prop_map(Expr::Dice),
    ];
    leaf.prop_recursive(5, 32, 2, |inner| {
        let op = prop_oneof![
            Just(BinOp::Add),
            Just(BinOp::Sub),
            Just(BinOp::Mul),
            Just(BinOp::Div)
        ];
        prop_oneof![
            inner.clone().prop_map(|e| Expr::Neg(Box::new(e))),
            (op, inner.clone(), inner).prop_map(|(op, l, r)| Expr::Binary {
                op,
                lhs: Box::new(l),
                rhs: Box::new(r)
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// parse ∘ print is the identity on trees (those the rules accept: a tree that rerolls or
    /// explodes on every face, or has `mi > ma`, is rejected with a clear error instead).
    #[test]
    fn print_then_parse_round_trips(e in expr()) {
        let text = e.to_string();
        match parse(&text) {
            Ok(back) => prop_assert_eq!(back, e, "{}", text),
            Err(err) => prop_assert!(matches!(err.kind, ParseErrorKind::Invalid(_)), "{}: {}", text, err),
        }
    }

    /// Arbitrary strings never make the parser panic.
    #[test]
    fn parser_never_panics(s in ".{0,60}") {
        let _ = parse(&s);
    }

    /// Dice-flavoured strings never make parsing, rolling or distributions panic.
    #[test]
    fn dice_soup_never_panics(s in "[0-9dDkhlro!%<>=+*/() mia-]{0,24}") {
        let limits = Limits { max_work: 2_000_000, max_support: 20_000, max_depth: 5, ..Limits::default() };
        if let Ok(e) = parse_with(&s, &limits) {
            let mut dice = SeededDice::new(1);
            let _ = e.roll_with(&mut dice, &limits);
            let _ = e.roll_total_with(&mut dice, &limits);
            let _ = e.distribution_with(&limits);
        }
    }
}

#[test]
fn limits_are_enforced_quickly() {
    let start = std::time::Instant::now();
    let long = "1+".repeat(600) + "1";
    assert!(matches!(
        parse(&long).unwrap_err().kind,
        ParseErrorKind::Limit { .. }
    ));
    let nested = "(".repeat(100) + "1" + &")".repeat(100);
    assert!(matches!(
        parse(&nested).unwrap_err().kind,
        ParseErrorKind::Limit { .. }
    ));
    let negs = "-".repeat(200) + "1";
    assert!(matches!(
        parse(&negs).unwrap_err().kind,
        ParseErrorKind::Limit { .. }
    ));
    assert!(parse("999999999d6").is_err());
    // Explosions and rerolls count toward the dice limit while rolling.
    let e = parse("5000d6!>=2").unwrap();
    let r = e.roll(&mut SeededDice::new(3));
    assert!(matches!(
        r,
        Err(fray_dice::RollError::Limit {
            limit: fray_dice::Limit::Dice,
            ..
        })
    ));
    assert!(start.elapsed().as_secs() < 5);
}
