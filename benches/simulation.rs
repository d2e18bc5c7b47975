//! Simulation throughput per AI pairing, and the exact battle calculator.

mod common;
use common::published;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::ai::{Budget, HeuristicPlayer, MctsPlayer, Player, SearchPlayer, decide};
use caesar_workbench::engine::{Action, Game, State};
use caesar_workbench::scenario::model::Side;
use caesar_workbench::sim;
use caesar_workbench::sim::questions::odds::{BattleSpec, battle_odds, parse_blocks};
use caesar_workbench::sim::runs::options::SimOptions;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn games(c: &mut Criterion) {
    let game = published("rules-2.0");
    // Every player against the heuristic (and the two mirrors the
    // simulations run most): the searching players at a small budget, whose
    // time is their heuristic playouts.
    for (caesar, pompey) in [
        (AiSpec::Random, AiSpec::Random),
        (AiSpec::Heuristic, AiSpec::Random),
        (AiSpec::Random, AiSpec::Heuristic),
        (AiSpec::Heuristic, AiSpec::Heuristic),
        (AiSpec::Search { playouts: 4 }, AiSpec::Heuristic),
        (AiSpec::Heuristic, AiSpec::Mcts { playouts: 4 }),
    ] {
        let slow = matches!(caesar, AiSpec::Search { .. }) || matches!(pompey, AiSpec::Mcts { .. });
        let name = format!("game/{caesar}_vs_{pompey}");
        let opts = SimOptions {
            games: u64::MAX,
            seed: 1,
            caesar,
            pompey,
            omniscient: false,
            shard: None,
        };
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(1));
        if slow {
            group.sample_size(10);
        }
        let mut i = 0u64;
        group.bench_function("one_thread", |b| {
            b.iter(|| {
                i += 1;
                sim::play_one(&game, &opts, i)
            })
        });
        group.finish();
    }
}

/// One searched decision at the default budget: the first discard of the
/// game, and the style of Caesar's first command phase.
fn search_decisions(c: &mut Criterion) {
    let game = published("rules-2.0");
    let mut state = State::new(&game, 1);
    let mut legal = Vec::new();
    state.legal_actions(&game, &mut legal);
    let discard = (state.clone(), legal.clone());
    let mut players = Side::BOTH.map(|side| HeuristicPlayer::new(side, 1, false));
    while !(state.current_player() == Some(Side::Caesar) && legal.contains(&Action::EndMoves)) {
        let side = state
            .current_player()
            .expect("Caesar commands before the game ends");
        let a = decide(&mut players[side.index()], &game, &state, &legal);
        state.apply(&game, a);
        state.legal_actions(&game, &mut legal);
    }
    let command = (state, legal);
    decisions(
        c,
        &game,
        "search_decision/32_playouts",
        [("discard", &discard), ("command_style", &command)],
        |seed| Box::new(SearchPlayer::new(Side::Caesar, seed, false, 32)),
    );
    // The same positions for the tree search: the discard, and the first
    // group move of the command phase.
    decisions(
        c,
        &game,
        "mcts_decision/32_playouts",
        [("discard", &discard), ("command_group", &command)],
        |seed| {
            Box::new(MctsPlayer::new(
                Side::Caesar,
                seed,
                false,
                Budget::Playouts(32),
            ))
        },
    );
    // The same two decisions by a search on the shipped player file, its
    // playouts played to the end, then stopped and scored at the learned
    // evaluation's horizon (`+VALUE`): what the horizon saves.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/players");
    let numbers = format!("search:32@{dir}/search-base-rules-2.0.ron");
    let scored = format!("{numbers}+{dir}/value-rules-2.0.ron");
    for (kind, text) in [("to_the_end", numbers), ("scored_at_horizon", scored)] {
        let spec: AiSpec = text.parse().expect("the shipped files load");
        decisions(
            c,
            &game,
            &format!("search_on_file_decision/32_playouts/{kind}"),
            [("discard", &discard), ("command_style", &command)],
            |seed| spec.player(Side::Caesar, seed, false),
        );
    }
}

/// One benchmark group: Caesar's decision at each named position, by a
/// player `make` makes fresh from a new seed every time.
fn decisions(
    c: &mut Criterion,
    game: &Game,
    group: &str,
    positions: [(&str, &(State, Vec<Action>)); 2],
    make: impl Fn(u64) -> Box<dyn Player>,
) {
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    for (name, (state, legal)) in positions {
        let mut seed = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                decide(&mut make(seed), game, state, legal)
            })
        });
    }
    group.finish();
}

fn battles(c: &mut Criterion) {
    let game = published("rules-2.0");
    let spec = BattleSpec {
        attacker: Side::Caesar,
        attacking: parse_blocks(&game, Side::Caesar, "Caesar,Legio 13,Legio 8").unwrap(),
        attacking_reserves: parse_blocks(&game, Side::Caesar, "Legio 12").unwrap(),
        defending: parse_blocks(&game, Side::Pompey, "Pompey,Legio 1,Ballista").unwrap(),
        defending_reserves: parse_blocks(&game, Side::Pompey, "Legio 2").unwrap(),
        surprise: false,
    };
    c.bench_function("battle_odds/4_vs_4_with_reserves", |b| {
        b.iter(|| battle_odds(&game, &spec).unwrap())
    });
    let three = BattleSpec {
        attacker: Side::Caesar,
        attacking: parse_blocks(&game, Side::Caesar, "Caesar,Legio 13,Legio 8").unwrap(),
        attacking_reserves: vec![],
        defending: parse_blocks(&game, Side::Pompey, "Pompey,Legio 1,Legio 2").unwrap(),
        defending_reserves: vec![],
        surprise: false,
    };
    c.bench_function("battle_odds/3_vs_3", |b| {
        b.iter(|| battle_odds(&game, &three).unwrap())
    });
    let big = BattleSpec {
        attacker: Side::Caesar,
        attacking: parse_blocks(
            &game,
            Side::Caesar,
            "Caesar,Antonius,Legio 13,Legio 8,Legio 12",
        )
        .unwrap(),
        attacking_reserves: vec![],
        defending: parse_blocks(
            &game,
            Side::Pompey,
            "Pompey,Legio 1,Legio 2,Legio 3,Legio 4",
        )
        .unwrap(),
        defending_reserves: vec![],
        surprise: false,
    };
    // Some 27,000 positions: few samples.
    let mut g = c.benchmark_group("battle_odds_large");
    g.sample_size(10);
    g.bench_function("5_vs_5", |b| b.iter(|| battle_odds(&game, &big).unwrap()));
    g.finish();
}

criterion_group!(benches, games, search_decisions, battles);
criterion_main!(benches);
