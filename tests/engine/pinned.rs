//! Pins whole random games of a few seeds: the winner, the VP, the number of
//! actions and a digest of every action taken. Optimisations must leave these
//! unchanged (same seed → same game, also across engine versions); a rules
//! fix that changes play must update the numbers and say why in its commit.

use caesar_workbench::ai::{RandomPlayer, decide};
use caesar_workbench::engine::{Game, State};

/// FNV-1a over the words of each action ([`Game::action_text`], what records
/// and the window show): stable across platforms, and a field renamed in
/// the code changes nothing.
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
        for byte in game.action_text(action).bytes() {
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
    let game = crate::common::published(variant);
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
                0x984d3cf0b30a1c9b,
            ),
            (
                2,
                "Some(Pompey) VictoryPoints [3, 4] y5",
                487,
                0xb5b5134f45d7af38,
            ),
            (
                3,
                "Some(Pompey) VictoryPoints [2, 3] y5",
                432,
                0x717546b17608d2ea,
            ),
            (17, "None Draw [2, 2] y5", 515, 0xeb42edf43b9bb58d),
            (
                99,
                "Some(Caesar) VictoryPoints [3, 2] y5",
                383,
                0x3061e2a1f9a22c14,
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
                0x3b1139dbdf2aafed,
            ),
            (
                2,
                "Some(Pompey) VictoryPoints [0, 3] y5",
                423,
                0x6b3933ad69c8967c,
            ),
            (
                3,
                "Some(Pompey) VictoryPoints [0, 4] y5",
                492,
                0x466af473cecde55f,
            ),
            (
                17,
                "Some(Pompey) VictoryPoints [0, 3] y5",
                355,
                0xfc967c0d7110c201,
            ),
            (
                99,
                "Some(Caesar) VictoryPoints [3, 2] y5",
                371,
                0xb2921b4bbd2a07a0,
            ),
        ],
    );
}

/// Every action of 100 games per rulebook, folded into one number.
#[test]
fn pinned_hundred_games_digest() {
    let mut got = Vec::new();
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = crate::common::published(variant);
        let mut total: u64 = 0;
        for seed in 100..200 {
            let (_, actions, hash) = digest(&game, seed);
            total = total.rotate_left(7) ^ hash ^ actions as u64;
        }
        got.push(total);
    }
    assert_eq!(
        got,
        [0x50bdba7912157ac2, 0x7f058b80e6053293],
        "now {:#018x?}",
        got
    );
}
