//! The exact battle calculator against Monte Carlo battles fought through the
//! engine itself: a custom deployment puts the attackers next to the
//! defenders, the attacker moves in, and the battle is fought with the same
//! assumptions (fire always, retreat only when forced, hits by the default
//! policy).

use caesar_workbench::sim::odds::battle_odds;

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
