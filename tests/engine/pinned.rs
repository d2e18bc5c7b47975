//! Pins whole random games of a few seeds: the winner, the VP, the number of
//! actions and a digest of every action taken. Optimisations must leave these
//! unchanged (same seed → same game, also across engine versions); a rules
//! fix that changes play must update the numbers and say why in its commit.

use caesar_workbench::ai::{RandomPlayer, decide};
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
        let action = decide(&mut players[side.index()], game, &state, &legal);
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
                "Some(Pompey) VictoryPoints [0, 3] y5",
                418,
                0xd173f225e68e084f,
            ),
            (
                2,
                "Some(Pompey) VictoryPoints [3, 4] y5",
                487,
                0xb7582c686fd3d12e,
            ),
            (
                3,
                "Some(Pompey) VictoryPoints [2, 3] y5",
                432,
                0x72de1e7626b55e2c,
            ),
            (17, "None Draw [2, 2] y5", 515, 0xc064543a5095d692),
            (
                99,
                "Some(Caesar) VictoryPoints [3, 2] y5",
                383,
                0x2bebfb9d1a511773,
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
                "Some(Pompey) VictoryPoints [0, 3] y5",
                463,
                0x5981d0f06e518f8a,
            ),
            (
                2,
                "Some(Pompey) VictoryPoints [0, 3] y5",
                423,
                0x64f80335e0571d46,
            ),
            (
                3,
                "Some(Pompey) VictoryPoints [0, 4] y5",
                492,
                0x731ee6a7992b24cd,
            ),
            (
                17,
                "Some(Pompey) VictoryPoints [0, 3] y5",
                355,
                0x89e5994990ec9194,
            ),
            (
                99,
                "Some(Caesar) VictoryPoints [3, 2] y5",
                371,
                0xb10f1c5d3dfb1e54,
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
        [0x1a0834a6d0792aa9, 0x074b3756ddc4b2c5],
        "now {:#018x?}",
        got
    );
}
