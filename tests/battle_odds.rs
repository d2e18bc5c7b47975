//! The exact battle calculator against Monte Carlo battles fought through the
//! engine itself: a custom deployment puts the attackers next to the
//! defenders, the attacker moves in, and the battle is fought with the same
//! assumptions (fire always, retreat only when forced, hits by the default
//! policy).

use std::sync::Arc;

use caesar_workbench::ai::default_hit_victim;
use caesar_workbench::engine::{Action, Game, State};
use caesar_workbench::format::Side;
use caesar_workbench::model::{BlockId, CardFace, Setup, SpaceId};
use caesar_workbench::odds::{BattleSpec, battle_odds, parse_blocks};

struct Field {
    game: Game,
    from: SpaceId,
    /// Where the attacking reserves come from, by another road (7.3).
    reserve_from: SpaceId,
    to: SpaceId,
    attackers: Vec<BlockId>,
    defenders: Vec<BlockId>,
}

fn field(variant: &str, attacking: &str, reserves: &str, defending: &str) -> (Field, BattleSpec) {
    let base = Game::published(variant);
    let attackers: Vec<BlockId> = parse_blocks(&base, Side::Caesar, attacking)
        .unwrap()
        .into_iter()
        .map(|(b, _)| b)
        .collect();
    let reserve_blocks: Vec<BlockId> = parse_blocks(&base, Side::Caesar, reserves)
        .unwrap()
        .into_iter()
        .map(|(b, _)| b)
        .collect();
    let defenders: Vec<BlockId> = parse_blocks(&base, Side::Pompey, defending)
        .unwrap()
        .into_iter()
        .map(|(b, _)| b)
        .collect();
    let board = base.board();
    // Genua–Roma is a major road: four blocks may attack along it (6.11).
    // Genua–Roma is a major road: four blocks may attack along it (6.11);
    // Ravenna–Roma a minor one, for up to two reserves.
    let (from, to) = (board.find("Genua").unwrap(), board.find("Roma").unwrap());
    let reserve_from = board.find("Ravenna").unwrap();
    let mut scenario = (*base.scenario).clone();
    scenario.free_deployment = None;
    scenario.order_of_battle = Setup {
        placements: attackers
            .iter()
            .map(|b| (*b, from))
            .chain(reserve_blocks.iter().map(|b| (*b, reserve_from)))
            .chain(defenders.iter().map(|b| (*b, to)))
            .collect(),
    };
    let game = Game::new(Arc::new(scenario), Arc::clone(&base.rules));
    let full = |ids: &[BlockId]| -> Vec<(BlockId, u8)> {
        ids.iter()
            .map(|b| (*b, game.roster().block(*b).max_strength()))
            .collect()
    };
    let spec = BattleSpec {
        attacker: Side::Caesar,
        attacking: full(&attackers),
        attacking_reserves: full(&reserve_blocks),
        defending: full(&defenders),
        defending_reserves: vec![],
        surprise: false,
    };
    (
        Field {
            game,
            from,
            reserve_from,
            to,
            attackers: attackers.into_iter().chain(reserve_blocks).collect(),
            defenders,
        },
        spec,
    )
}

/// Fights one battle; `None` when the deal gives a side no command card.
fn fight(f: &Field, seed: u64) -> Option<(bool, [u32; 2])> {
    let game = &f.game;
    let mut state = State::new(game, seed);
    let mut legal = Vec::new();
    let mut grouped = 0;
    let mut fought = false;
    loop {
        let side = state.current_player()?;
        if fought && state.battle_info().is_none() {
            break;
        }
        state.legal_actions(game, &mut legal);
        let command = |a: &Action| match a {
            Action::Play(c) | Action::Discard(c) => {
                matches!(game.card(*c), CardFace::Command { .. })
            }
            _ => false,
        };
        let main_attack = legal.iter().find(|a| match a {
            // 7.3 (1.1): the main attack is the road from `from`.
            Action::MainAttack(l) => {
                let link = game.board().link(*l);
                link.a == f.from || link.b == f.from
            }
            _ => false,
        });
        let action = if let Some(main) = main_attack {
            *main
        } else if state.battle_info().is_some() {
            fought = true;
            if legal.contains(&Action::Fire) {
                Action::Fire
            } else if let Some(b) = legal.iter().find_map(|a| match a {
                Action::TakeHit(_) => Some(
                    legal
                        .iter()
                        .filter_map(|a| match a {
                            Action::TakeHit(b) => Some(*b),
                            _ => None,
                        })
                        .collect::<Vec<_>>(),
                ),
                _ => None,
            }) {
                Action::TakeHit(default_hit_victim(game, &state, &b))
            } else {
                // Forced retreat in the last round.
                *legal.iter().find(|a| matches!(a, Action::Retreat(_)))?
            }
        } else if matches!(legal[0], Action::Discard(_)) {
            *legal.iter().find(|a| !command(a)).unwrap_or(&legal[0])
        } else if matches!(legal[0], Action::Play(_)) {
            // Two moves at least: the main attack and the reserves.
            *legal.iter().find(|a| match a {
                Action::Play(c) => {
                    matches!(game.card(*c), CardFace::Command { moves, .. } if moves >= 2)
                }
                _ => false,
            })?
        } else if side == Side::Caesar && grouped == 0 && legal.contains(&Action::Group(f.from)) {
            grouped = 1;
            Action::Group(f.from)
        } else if side == Side::Caesar
            && grouped == 1
            && legal.contains(&Action::Group(f.reserve_from))
        {
            grouped = 2;
            Action::Group(f.reserve_from)
        } else if let Some(step) = legal
            .iter()
            .find(|a| matches!(a, Action::Step { to, .. } if *to == f.to))
        {
            *step
        } else if let Some(battle) = legal.iter().find(|a| matches!(a, Action::Battle(_))) {
            *battle
        } else {
            *legal
                .iter()
                .find(|a| matches!(a, Action::EndGroup | Action::EndMoves | Action::EndLevy))?
        };
        state.apply(game, action);
    }
    let won = !f.defenders.iter().any(|b| state.location(*b) == Some(f.to));
    let lost = |ids: &[BlockId]| -> u32 {
        ids.iter()
            .map(|b| {
                let max = game.roster().block(*b).max_steps as u32;
                let left = state.location(*b).map_or(0, |_| state.steps(*b) as u32);
                max - left
            })
            .sum()
    };
    Some((won, [lost(&f.attackers), lost(&f.defenders)]))
}

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
