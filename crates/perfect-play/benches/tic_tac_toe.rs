//! Tic-tac-toe from the empty board: the memoised generic solver against plain minimax.

use criterion::{Criterion, criterion_group, criterion_main};
use perfect_play::baseline;
use perfect_play::tic_tac_toe::Board;
use std::hint::black_box;

fn empty_board(c: &mut Criterion) {
    let mut group = c.benchmark_group("tic_tac_toe_empty_board");
    group.sample_size(10);
    let board = Board::empty();
    group.bench_function("perfect-play", |b| {
        b.iter(|| baseline::tic_tac_toe_memoised(black_box(&board)));
    });
    group.bench_function("baseline", |b| {
        b.iter(|| baseline::tic_tac_toe_minimax(black_box(&board)));
    });
    group.finish();
}

criterion_group!(benches, empty_board);
criterion_main!(benches);
