//! The cost of one pause of a live session: answering a request replays the answer log (from
//! the last checkpoint it still leads to) and goes on to the next request (`fray run` does this
//! after every answer). Measured at the
//! middle and at the end of each bench fight.
//!
//! `cargo bench -p fray-engine --bench session`

use criterion::{criterion_group, criterion_main, Criterion};
use fray_engine::session::Session;
use fray_engine::{AnyEncounter, FightOptions, Library};

fn pauses(c: &mut Criterion) {
    let library = Library::embedded().expect("content");
    for ruleset in ["cnc", "spelljammer"] {
        let path = format!(
            "{}/../../examples/{ruleset}/bench.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("bench file");
        let e = AnyEncounter::from_text(&path, &text, &library).expect("loads");
        let record = e.fight(&FightOptions::seeded(1), true).expect("fight");
        for (label, at) in [
            ("middle", record.answers.len() / 2),
            ("end", record.answers.len() - 1),
        ] {
            let mut session = Session::new(&path, &text, &library, 1).expect("session");
            session.set_plays(|_| true, Some(false), false);
            for answer in &record.answers[..at] {
                session.answer(answer.clone()).expect("answer");
            }
            let next = record.answers[at].clone();
            c.bench_function(
                &format!("{ruleset} pause at the {label} ({at} answers)"),
                |b| {
                    b.iter(|| {
                        session.answer(next.clone()).expect("answer");
                        session.undo().expect("undo");
                    })
                },
            );
        }
    }
}

criterion_group!(benches, pauses);
criterion_main!(benches);
