//! Whole random games per second, and the cost of the hot engine calls.

mod common;
use common::published;

use caesar_workbench::ai::{Player, RandomPlayer};
use caesar_workbench::engine::{NoLog, State};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn random_games(c: &mut Criterion) {
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = published(variant);
        let mut group = c.benchmark_group(format!("random_game/{variant}"));
        group.throughput(Throughput::Elements(1));
        let mut seed = 0u64;
        group.bench_function("whole_game", |b| {
            b.iter(|| {
                seed += 1;
                let mut players: [Box<dyn Player>; 2] = [
                    Box::new(RandomPlayer::new(seed * 2 + 1)),
                    Box::new(RandomPlayer::new(seed * 2 + 2)),
                ];
                caesar_workbench::ai::play_game(&game, seed, &mut players, &mut NoLog)
            })
        });
        group.finish();
    }
    let game = published("rules-2.0");
    let state = State::new(&game, 7);
    c.bench_function("state_clone", |b| b.iter(|| state.clone()));
    let mut legal = Vec::new();
    c.bench_function("legal_actions_first_turn", |b| {
        b.iter(|| state.legal_actions(&game, &mut legal))
    });
}

criterion_group!(benches, random_games);
criterion_main!(benches);
