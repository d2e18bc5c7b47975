//! The exact battle calculator against Monte Carlo battles fought through the
//! engine itself: a custom deployment puts the attackers next to the
//! defenders, the attacker moves in, and the battle is fought with the same
//! assumptions (fire always, retreat only when forced, hits by the default
//! policy).

use caesar_workbench::sim::questions::odds::battle_odds;

use crate::common;
use common::{field, fight};

fn cross_check(variant: &str, attacking: &str, reserves: &str, defending: &str) {
    let (f, spec) = field(variant, attacking, reserves, defending);
    let exact = battle_odds(&f.game, &spec).unwrap();
    let (mut n, mut wins, mut lost) = (0u32, 0u32, [0u32; 2]);
    for seed in 0..seeds() {
        if let Some((won, l)) = fight(&f, seed) {
            n += 1;
            wins += won as u32;
            lost[0] += l[0];
            lost[1] += l[1];
        }
    }
    assert!(n as u64 > seeds() * 2 / 3, "only {n} battles were fought");
    let p = wins as f64 / n as f64;
    let sigma = (exact.attacker_wins * (1.0 - exact.attacker_wins) / n as f64).sqrt();
    assert!(
        (p - exact.attacker_wins).abs() < 4.0 * sigma + 1e-3,
        "{attacking} vs {defending} under {variant}: engine {p:.4} over {n} battles, exact {:.4}",
        exact.attacker_wins
    );
    let mean = [lost[0] as f64 / n as f64, lost[1] as f64 / n as f64];
    let expected = [
        exact.expected_steps_lost.attacker,
        exact.expected_steps_lost.defender,
    ];
    for i in 0..2 {
        assert!(
            (mean[i] - expected[i]).abs() < 0.12,
            "steps lost {i}: engine {:.3}, exact {:.3}",
            mean[i],
            expected[i]
        );
    }
}

#[test]
fn exact_odds_match_engine_battles_one_against_one() {
    cross_check("rules-2.0", "Legio 13", "", "Legio 1");
}

#[test]
fn exact_odds_match_engine_battles_with_leaders_and_ties() {
    cross_check("rules-2.0", "Caesar,Legio 13,Legio 8", "", "Pompey,Legio 1");
    cross_check("rules-2.0", "Legio 13,Legio 8", "", "Legio 3,Legio 1");
}

#[test]
fn exact_odds_match_engine_battles_under_1_1() {
    cross_check(
        "rules-1.1",
        "Antonius,Legio 12,Legio 14",
        "",
        "Legio 1,Legio 3,Ballista",
    );
}

#[test]
fn exact_odds_match_engine_battles_with_reserves_and_disruption() {
    // A weak main force is often destroyed in round 1: its reserves are
    // disrupted (7.31).
    cross_check(
        "rules-2.0",
        "Auxilia 1",
        "Legio 13,Legio 8",
        "Legio 1,Legio 3",
    );
    cross_check("rules-1.1", "Legio 12", "Caesar", "Pompey,Legio 1");
}

fn seeds() -> u64 {
    std::env::var("BATTLE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6000)
}

// ------------------------------------------------- custom battle switches
//
// Exact odds under a variant file that changes a rule of 7.x against the
// engine's own battles, fought from the same start with the stream's dice
// and the same policy (`sample_battle`): means within four standard errors.

use caesar_workbench::engine::Game;
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::sim::questions::odds::{BattleOdds, BattleSpec, parse_blocks, sample_battle};

/// The published game under a variant file extending rules-2.0 with `fields`.
fn variant(fields: &str) -> Game {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("switch.ron");
    std::fs::write(
        &path,
        format!("RuleSetPatch(extends: \"rules-2.0\", {fields})"),
    )
    .unwrap();
    let rules = RuleSet::load(path.to_str().unwrap()).unwrap();
    caesar_workbench::scenario::checked::CheckedScenario::from_document(
        &caesar_workbench::scenario::historical(),
        rules,
        None,
    )
    .map(Game::from_checked)
    .unwrap()
}

/// Caesar attacks: main force, reserves; Pompey defends: main force, reserves.
fn spec(game: &Game, blocks: [&str; 4]) -> BattleSpec {
    let read = |side: Side, text: &str| parse_blocks(game, side, text).unwrap();
    BattleSpec {
        attacker: Side::Caesar,
        attacking: read(Side::Caesar, blocks[0]),
        attacking_reserves: read(Side::Caesar, blocks[1]),
        defending: read(Side::Pompey, blocks[2]),
        defending_reserves: read(Side::Pompey, blocks[3]),
        surprise: false,
    }
}

/// Exact odds of `spec` under `game`, checked against `samples` battles.
fn exact_matches_sampled(game: &Game, spec: &BattleSpec, samples: u64) -> BattleOdds {
    let exact = caesar_workbench::sim::questions::odds::battle_odds(game, spec).unwrap();
    let total = exact.attacker_wins + exact.defender_holds + exact.both_eliminated;
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let runs: Vec<BattleOdds> = (0..samples)
        .map(|seed| sample_battle(game, spec, seed).unwrap())
        .collect();
    let n = samples as f64;
    // A share: its standard error from the exact probability.
    let share = |what: &str, p: f64, hits: f64| {
        let se = (p * (1.0 - p) / n).sqrt();
        assert!(
            (hits / n - p).abs() <= 4.0 * se + 1e-9,
            "{what}: engine {:.4} over {samples} battles, exact {p:.4}",
            hits / n
        );
    };
    share(
        "attacker wins",
        exact.attacker_wins,
        runs.iter().map(|r| r.attacker_wins).sum(),
    );
    share(
        "both eliminated",
        exact.both_eliminated,
        runs.iter().map(|r| r.both_eliminated).sum(),
    );
    for (round, p) in exact.ends_in_round.iter().enumerate() {
        let hits = runs.iter().map(|r| r.ends_in_round[round]).sum();
        share(&format!("ends in round {}", round + 1), *p, hits);
    }
    for (i, risk) in exact.eliminated.iter().enumerate() {
        let hits = runs.iter().map(|r| r.eliminated[i].eliminated).sum();
        share(&format!("{} eliminated", risk.block), risk.eliminated, hits);
    }
    // Steps lost: the standard error from the samples' spread.
    for (what, exact_mean, lost) in [
        (
            "attacker's steps lost",
            exact.expected_steps_lost.attacker,
            runs.iter()
                .map(|r| r.expected_steps_lost.attacker)
                .collect::<Vec<_>>(),
        ),
        (
            "defender's steps lost",
            exact.expected_steps_lost.defender,
            runs.iter()
                .map(|r| r.expected_steps_lost.defender)
                .collect(),
        ),
    ] {
        let mean = lost.iter().sum::<f64>() / n;
        let var = lost.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        assert!(
            (mean - exact_mean).abs() <= 4.0 * (var / n).sqrt() + 1e-9,
            "{what}: engine {mean:.4}, exact {exact_mean:.4}"
        );
    }
    exact
}

#[test]
fn rule_7_2_three_battle_rounds_exact_odds_match_the_engine() {
    let blocks = ["Caesar,Legio 13,Legio 8", "", "Pompey,Legio 1", ""];
    let three = variant("battle_rounds: 3");
    let odds = exact_matches_sampled(&three, &spec(&three, blocks), 3000);
    assert_eq!(odds.ends_in_round.len(), 3);
    // The attacker retreats in round 3 now: fewer rounds, fewer wins.
    let base = common::published("rules-2.0");
    let four =
        caesar_workbench::sim::questions::odds::battle_odds(&base, &spec(&base, blocks)).unwrap();
    assert!(odds.attacker_wins < four.attacker_wins - 0.01);
}

#[test]
fn rule_7_31_undisrupted_defending_reserves_exact_odds_match_the_engine() {
    // A weak defending main force often falls in round 1; its reserves
    // arrive disrupted, and the sides swap, only with the switch on.
    let blocks = ["Legio 13,Legio 8", "", "Legio 1=1", "Legio 3=2,Legio 2=2"];
    let off = variant("disrupt_defending_reserves: false");
    let odds = exact_matches_sampled(&off, &spec(&off, blocks), 3000);
    let base = common::published("rules-2.0");
    let on =
        caesar_workbench::sim::questions::odds::battle_odds(&base, &spec(&base, blocks)).unwrap();
    assert!(
        odds.expected_steps_lost.defender < on.expected_steps_lost.defender - 0.1,
        "{} vs {}",
        odds.expected_steps_lost.defender,
        on.expected_steps_lost.defender
    );
}

#[test]
fn rule_7_62_attackers_retreating_to_one_city_exact_odds_match_the_engine() {
    // One block a road each round (7.61): under 1.1's one city only one
    // of the attackers left in the last round retreats and the rest are
    // eliminated (7.6); under 2.0 two split over the two attack roads.
    let limits = "road_limits: (major: 1, minor: 1, strait: 1, strait_attacking: 1)";
    let blocks = [
        "Auxilia 1=1,Auxilia 2=1,Auxilia 3=1",
        "Auxilia 4=1",
        "Auxilia 1",
        "",
    ];
    let one_city = variant(&format!("{limits}, attacker_retreat: OneCityByAttackRoad"));
    let odds = exact_matches_sampled(&one_city, &spec(&one_city, blocks), 3000);
    let split = variant(limits);
    let split_odds =
        caesar_workbench::sim::questions::odds::battle_odds(&split, &spec(&split, blocks)).unwrap();
    assert!(
        odds.expected_steps_lost.attacker > split_odds.expected_steps_lost.attacker + 0.05,
        "{} vs {}",
        odds.expected_steps_lost.attacker,
        split_odds.expected_steps_lost.attacker
    );
}

#[test]
fn rule_7_4_a_stated_battle_with_stated_dice_goes_as_the_dice_say() {
    // Legio 13 (C, firepower 3) at I attacks Legio 1 (C, firepower 2) at I:
    // the defender fires first on equal letters (7.2) and misses with a 6;
    // Legio 13 hits with a 3 (7.4) and wins in round 1.
    use caesar_workbench::sim::questions::odds::{battle_start, policy};
    let game = common::published("rules-2.0");
    let s = spec(&game, ["Legio 13=1", "", "Legio 1=1", ""]);
    let mut state = battle_start(&game, &s, 0).unwrap();
    state.set_dice(&[6, 3]);
    let mut legal = Vec::new();
    while state.battle_info().is_some() {
        state.legal_actions(&game, &mut legal);
        state.apply(&game, policy(&game, &state, &legal));
    }
    let legio_1 = common::block(&game, Side::Pompey, "Legio 1");
    let legio_13 = common::block(&game, Side::Caesar, "Legio 13");
    assert_eq!(state.location(legio_1), None, "eliminated");
    assert_eq!(state.steps(legio_13), 1);
    assert!(state.dice_to_come().is_empty(), "both dice rolled, no more");
}
