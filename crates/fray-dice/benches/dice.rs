//! Benchmarks: total-only rolls of pre-parsed expressions with the seeded source (reported
//! as rolls per second), and exact distributions.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use fray_dice::{parse, Pool, SeededDice};

fn rolls(c: &mut Criterion) {
    let mut group = c.benchmark_group("roll_total");
    group.throughput(Throughput::Elements(1));
    for text in ["1d20+5", "4d6kh3", "8d6", "2d20kh1+7"] {
        let expr = parse(text).expect("valid");
        let mut dice = SeededDice::new(1);
        group.bench_function(text, |b| {
            b.iter(|| black_box(&expr).roll_total(&mut dice).unwrap_or(0))
        });
    }
    let pool = Pool::new(8, 6);
    let mut dice = SeededDice::new(1);
    group.bench_function("Pool 8d6", |b| b.iter(|| black_box(pool).roll(&mut dice)));
    group.finish();

    let mut group = c.benchmark_group("roll_breakdown");
    group.throughput(Throughput::Elements(1));
    let expr = parse("4d6kh3").expect("valid");
    let mut dice = SeededDice::new(1);
    group.bench_function("4d6kh3", |b| {
        b.iter(|| black_box(&expr).roll(&mut dice).map(|r| r.total))
    });
    group.finish();
}

fn distributions(c: &mut Criterion) {
    let mut group = c.benchmark_group("dist");
    group.sample_size(20);
    for text in ["100d6", "100d6kh10", "3d6!", "4d6kh3", "2d20kh1+7"] {
        let expr = parse(text).expect("valid");
        group.bench_function(text, |b| b.iter(|| black_box(&expr).distribution()));
    }
    group.finish();
}

criterion_group!(benches, rolls, distributions);
criterion_main!(benches);
