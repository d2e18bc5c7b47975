//! Pins whole random games of a few seeds: the winner, the VP, the number of
//! actions and a digest of every action taken. Optimisations must leave these
//! unchanged (same seed → same game, also across engine versions); a rules
//! fix that changes play must update the numbers and say why in its commit.

use caesar_workbench::ai::{Player, RandomPlayer};
use caesar_workbench::engine::{Game, State};

/// FNV-1a over the debug text of each action: stable across platforms.
fn digest(game: &Game, seed: u64) -> (String, u32, u64) {
    let mut players = [
        RandomPlayer::new(seed * 2 + 1),
        RandomPlayer::new(seed * 2 + 2),
    ];
    let mut state = State::new(game, seed);
    let mut legal = Vec::new();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    while let Some(side) = state.current_player() {
        state.legal_actions(game, &mut legal);
        let action = players[side.index()].choose(game, &state, &legal);
        for byte in format!("{action:?}").bytes() {
            hash ^= byte as u64;
            hash = hash.wrapping_mul(0x100_0000_01b3);
        }
        state.apply(game, action);
    }
    let o = state.outcome().expect("finished");
    (
        format!("{:?} {:?} {:?} y{}", o.winner, o.how, o.vp, o.year),
        state.stats.actions,
        hash,
    )
}

fn check(variant: &str, expected: &[(u64, &str, u32, u64)]) {
    let game = Game::published(variant);
    let mut report = String::new();
    let mut ok = true;
    for &(seed, outcome, actions, hash) in expected {
        let got = digest(&game, seed);
        report.push_str(&format!(
            "        ({seed}, {:?}, {}, {:#018x}),\n",
            got.0, got.1, got.2
        ));
        ok &= got == (outcome.to_string(), actions, hash);
    }
    assert!(ok, "{variant} games changed; now:\n{report}");
}

#[test]
fn pinned_random_games_rules_1_1() {
    check(
        "rules-1.1",
        &[
            (
                1,
                "Some(Caesar) VictoryPoints [3, 2] y5",
                506,
                0x36e6d68611a94f60,
            ),
            (
                2,
                "Some(Pompey) VictoryPoints [1, 4] y5",
                527,
                0x9365f50223d6e2a7,
            ),
            (
                3,
                "Some(Pompey) VictoryPoints [0, 5] y5",
                489,
                0xf7c45f7b0cc5f381,
            ),
            (17, "None Draw [2, 2] y5", 446, 0x49ab9f375728f2a6),
            (
                99,
                "Some(Pompey) VictoryPoints [0, 2] y5",
                413,
                0x81396af0375e8cba,
            ),
        ],
    );
}

#[test]
fn pinned_random_games_rules_2_0() {
    check(
        "rules-2.0",
        &[
            (
                1,
                "Some(Pompey) VictoryPoints [1, 2] y5",
                491,
                0x61fbbe19d8ca406d,
            ),
            (
                2,
                "Some(Pompey) VictoryPoints [1, 4] y5",
                545,
                0xa9981e99710fb1c9,
            ),
            (
                3,
                "Some(Pompey) VictoryPoints [0, 2] y5",
                565,
                0x3603b01561d2af6f,
            ),
            (
                17,
                "Some(Pompey) VictoryPoints [0, 5] y5",
                484,
                0xb44e219d425471aa,
            ),
            (
                99,
                "Some(Caesar) RomeTieBreak [2, 2] y5",
                380,
                0x47c7e5d5d645f1fc,
            ),
        ],
    );
}

/// Every action of 100 games per rulebook, folded into one number.
#[test]
fn pinned_hundred_games_digest() {
    let mut got = Vec::new();
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = Game::published(variant);
        let mut total: u64 = 0;
        for seed in 100..200 {
            let (_, actions, hash) = digest(&game, seed);
            total = total.rotate_left(7) ^ hash ^ actions as u64;
        }
        got.push(total);
    }
    assert_eq!(
        got,
        [0xa3a01f6ab6724434, 0x68b87e094006f0fe],
        "now {:#018x?}",
        got
    );
}
