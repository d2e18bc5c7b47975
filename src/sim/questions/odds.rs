//! Exact battle odds: the engine's own battle code walked over every
//! outcome of every fire, each position of the battle once — not sampled.
//! This module keeps no rule of 7.x: the engine starts the battle
//! ([`State::at_battle`]), says what each fire rolls and lists its outcomes
//! ([`State::chance_request`]), and applies them; here are only the walk,
//! the players' policy and the tally. A custom rule set's battle switches
//! (`battle_rounds`, `disrupt_defending_reserves`, `attacker_retreat`, road
//! limits, …) so apply as in games.
//!
//! The battle has no place of its own, so it is fought where
//! [`BattleStart::space_for`] puts it (the city with the most major roads:
//! Thessalonica on the published map) with every other block off the map:
//! the attacking main force came by its first road, the attacking reserves
//! by the second, the defending reserves by the third (docs/rules-notes.md,
//! "Battle odds"). Retreats follow 7.6 from there: attackers that must
//! retreat in the last round (7.2) go to the vacant cities across those
//! roads within the road limits (7.61, and 7.62 under 1.1: one city), and
//! one that cannot is eliminated.
//!
//! The policy, as the `battle` command documents it ([`policy`]): every
//! block fires when it may; nobody retreats by choice; a block that must
//! retreat takes the first retreat offered; hits go where the engine's
//! default player puts them ([`crate::ai::default_hit_victim`]); blocks of
//! one letter take their turns in the order the engine offers them, as its
//! default player does.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use serde::{Deserialize, Serialize};

use crate::ai::{default_hit_victim, hit_candidates};
use crate::engine::{Action, BattleBlock, BattleKey, BattleStart, Game, State};
use crate::scenario::model::{BlockId, BlockKind, Side, SpaceId};
use crate::scenario::rule_fields::MAX_BATTLE_ROUNDS;

/// A battle to evaluate. Strengths are as printed (the elephant's IV or II).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleSpec {
    pub attacker: Side,
    pub attacking: Vec<(BlockId, u8)>,
    pub attacking_reserves: Vec<(BlockId, u8)>,
    pub defending: Vec<(BlockId, u8)>,
    pub defending_reserves: Vec<(BlockId, u8)>,
    pub surprise: bool,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OddsError {
    #[error("{block} fights for {owner}, not for {wanted}")]
    WrongSide {
        block: String,
        owner: Side,
        wanted: Side,
    },
    #[error("{block} cannot be at strength {strength}: {why}")]
    ImpossibleStrength {
        block: String,
        strength: u8,
        why: String,
    },
    #[error("{0} is listed twice")]
    Duplicate(String),
    #[error("the {0} side has no block in the battle")]
    Empty(&'static str),
    #[error("at most {max} blocks in one battle (got {got})")]
    TooMany { max: usize, got: usize },
    #[error(
        "Cleopatra changes sides when eliminated (7.52); the exact calculator does not model that"
    )]
    Cleopatra,
}

/// The exact outcome distribution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleOdds {
    /// Every defending block eliminated (the attacker holds the space).
    pub attacker_wins: f64,
    /// Some defending block is still there when the battle ends.
    pub defender_holds: f64,
    /// Both sides gone at once (possible only through disruption).
    pub both_eliminated: f64,
    /// Expected steps lost by the attacking and the defending side.
    pub expected_steps_lost: ExpectedLosses,
    /// Probability that the battle ends in round 1, 2, …, one for every
    /// round the rule set has.
    pub ends_in_round: Vec<f64>,
    /// Probability that each block is eliminated, by name.
    pub eliminated: Vec<BlockRisk>,
    /// Positions where a block fires, evaluated (each once).
    pub states: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ExpectedLosses {
    pub attacker: f64,
    pub defender: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockRisk {
    pub block: String,
    pub side: Side,
    pub eliminated: f64,
}

/// The largest battle the calculator takes.
pub(crate) const MAX_BLOCKS: usize = 20;

/// Sums over the battle's ends, weighted by how likely each end is.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    attacker_wins: f64,
    defender_holds: f64,
    both: f64,
    lost: [f64; 2],
    /// By the round the battle ended in: a slot for every round a rule set
    /// may have.
    round: [f64; MAX_BATTLE_ROUNDS as usize],
    eliminated: [f64; MAX_BLOCKS],
}

impl Tally {
    fn add(&mut self, other: &Tally, p: f64) {
        self.attacker_wins += other.attacker_wins * p;
        self.defender_holds += other.defender_holds * p;
        self.both += other.both * p;
        for (a, b) in self.lost.iter_mut().zip(other.lost) {
            *a += b * p;
        }
        for (a, b) in self.round.iter_mut().zip(other.round) {
            *a += b * p;
        }
        for (a, b) in self.eliminated.iter_mut().zip(other.eliminated) {
            *a += b * p;
        }
    }
}

/// The spec's blocks, checked: (block, steps, of the attacking side), in
/// the order attacking, its reserves, defending, its reserves.
struct Fighters {
    blocks: Vec<(BlockId, u8, bool)>,
    start: BattleStart,
}

/// The battle's decision now by the module's policy, among `legal`.
pub fn policy(game: &Game, state: &State, legal: &[Action]) -> Action {
    if legal.contains(&Action::Fire) {
        return Action::Fire;
    }
    let hits = hit_candidates(legal);
    if !hits.is_empty() {
        return Action::TakeHit(default_hit_victim(game, state, &hits));
    }
    // A forced retreat takes the first; otherwise the engine's first offer
    // (a turn among blocks of one letter, 7.2).
    legal
        .iter()
        .find(|a| matches!(a, Action::Retreat(_)))
        .copied()
        .unwrap_or(legal[0])
}

/// The state at the start of `spec`'s battle under `game`'s rules (see the
/// module doc for where), its dice to come from `seed`.
pub fn battle_start(game: &Game, spec: &BattleSpec, seed: u64) -> Result<State, OddsError> {
    let mut fighters = fighters(game, spec)?;
    fighters.start.seed = seed;
    Ok(State::at_battle(game, &fighters.start))
}

/// Exact odds of `spec` under `game`'s rule set.
pub fn battle_odds(game: &Game, spec: &BattleSpec) -> Result<BattleOdds, OddsError> {
    let fighters = fighters(game, spec)?;
    let start = State::at_battle(game, &fighters.start);
    let mut walk = Walk::new(game, fighters);
    let (totals, states) = walk.solve(&start);
    Ok(walk.odds(&totals, states))
}

/// One battle of `spec` fought by the engine with the stream's dice from
/// `seed` and the module's policy, as odds of 0 or 1: the exact odds are
/// the mean of many.
pub fn sample_battle(game: &Game, spec: &BattleSpec, seed: u64) -> Result<BattleOdds, OddsError> {
    let mut state = battle_start(game, spec, seed)?;
    let walk = Walk::new(game, fighters(game, spec)?);
    let rounds_before = state.stats.battle_rounds.saturating_sub(1);
    let mut legal = Vec::new();
    while state.battle_info().is_some() {
        state.legal_actions(game, &mut legal);
        state.apply(game, policy(game, &state, &legal));
    }
    let round = state.stats.battle_rounds - rounds_before;
    Ok(walk.odds(&walk.end(&state, round), 1))
}

/// The walk over a battle's outcomes: the positions where a block fires
/// are taken in the order of the engine's [`State::battle_progress`], each
/// once with the probability of reaching it, and forgotten once expanded;
/// the decisions between fires roll nothing and follow the policy at once.
struct Walk<'a> {
    game: &'a Game,
    blocks: Vec<(BlockId, u8, bool)>,
    space: SpaceId,
    legal: Vec<Action>,
}

/// Positions waiting to be expanded, by progress, with the probability of
/// reaching each.
type Waiting = BTreeMap<u32, FxHashMap<BattleKey, f64>>;

impl<'a> Walk<'a> {
    fn new(game: &'a Game, fighters: Fighters) -> Walk<'a> {
        Walk {
            game,
            blocks: fighters.blocks,
            space: BattleStart::space_for(game),
            legal: Vec::new(),
        }
    }

    /// The ends of the battle from `start`, weighted by their probability,
    /// and the positions expanded.
    fn solve(&mut self, start: &State) -> (Tally, usize) {
        let mut totals = Tally::default();
        let mut waiting = Waiting::new();
        let mut states = 0;
        self.reach(&mut waiting, &mut totals, start, 1, start.clone(), 1.0);
        let mut state = start.clone();
        while let Some((_, positions)) = waiting.pop_first() {
            states += positions.len();
            for (key, p) in positions {
                state.set_battle_key(self.game, &key);
                self.expand(&mut waiting, &mut totals, &state, p);
            }
        }
        (totals, states)
    }

    /// Each outcome of the dice of the fire at `state`.
    fn expand(&mut self, waiting: &mut Waiting, totals: &mut Tally, state: &State, p: f64) {
        let game = self.game;
        let round = state.battle_info().map_or(1, |b| u32::from(b.round));
        let request = state.chance_request(game, Action::Fire);
        for outcome in request.iter().flat_map(|r| r.outcomes()) {
            let mut next = state.clone();
            next.apply_outcome(game, Action::Fire, &outcome);
            // The walk owes its exactness to chance answering only through outcomes.
            debug_assert!(next.dice_to_come().is_empty(), "a fire left dice unrolled");
            self.reach(waiting, totals, state, round, next, p * outcome.probability);
        }
    }

    /// `next`, reached from `from` (in battle round `round`) with
    /// probability `p`: the decisions that roll no dice taken by the
    /// policy, then a fire waiting, or an end of the battle.
    fn reach(
        &mut self,
        waiting: &mut Waiting,
        totals: &mut Tally,
        from: &State,
        round: u32,
        mut next: State,
        p: f64,
    ) {
        while let Some(progress) = next.battle_progress() {
            next.legal_actions(self.game, &mut self.legal);
            let action = policy(self.game, &next, &self.legal);
            if action == Action::Fire {
                debug_assert!(
                    from.battle_progress().is_none_or(|f| progress >= f),
                    "a battle decision went back"
                );
                *waiting
                    .entry(progress)
                    .or_default()
                    .entry(next.battle_key())
                    .or_insert(0.0) += p;
                return;
            }
            next.apply(self.game, action);
        }
        // A round may begin (reserves arriving, 7.3) and the battle end at once.
        let begun = next.stats.battle_rounds - from.stats.battle_rounds;
        totals.add(&self.end(&next, round + begun), p);
    }

    /// A battle over in `round`: who holds the space, what each side lost.
    fn end(&self, state: &State, round: u32) -> Tally {
        let mut t = Tally::default();
        let here = |attacking: bool| {
            self.blocks
                .iter()
                .any(|&(b, _, a)| a == attacking && state.location(b) == Some(self.space))
        };
        match (here(true), here(false)) {
            (_, true) => t.defender_holds = 1.0,
            (true, false) => t.attacker_wins = 1.0,
            (false, false) => t.both = 1.0,
        }
        for (i, &(b, steps, attacking)) in self.blocks.iter().enumerate() {
            let left = state.location(b).map_or(0, |_| state.steps(b));
            t.lost[usize::from(!attacking)] += f64::from(steps.saturating_sub(left));
            if left == 0 {
                t.eliminated[i] = 1.0;
            }
        }
        t.round[round.clamp(1, u32::from(MAX_BATTLE_ROUNDS)) as usize - 1] = 1.0;
        t
    }

    fn odds(&self, t: &Tally, states: usize) -> BattleOdds {
        let roster = self.game.roster();
        let rounds = usize::from(self.game.rules.battle_rounds.clamp(1, MAX_BATTLE_ROUNDS));
        BattleOdds {
            attacker_wins: t.attacker_wins,
            defender_holds: t.defender_holds,
            both_eliminated: t.both,
            expected_steps_lost: ExpectedLosses {
                attacker: t.lost[0],
                defender: t.lost[1],
            },
            ends_in_round: t.round[..rounds].to_vec(),
            eliminated: self
                .blocks
                .iter()
                .enumerate()
                .map(|(i, (id, ..))| BlockRisk {
                    block: roster.block(*id).name.clone(),
                    side: roster.block(*id).side,
                    eliminated: t.eliminated[i],
                })
                .collect(),
            states,
        }
    }
}

/// The spec's blocks, checked, as the engine's battle start.
fn fighters(game: &Game, spec: &BattleSpec) -> Result<Fighters, OddsError> {
    let roster = game.roster();
    let defender = spec.attacker.other();
    let mut blocks: Vec<(BlockId, u8, bool)> = Vec::new();
    let mut start = BattleStart {
        attacker: spec.attacker,
        attacking: Vec::new(),
        defending: Vec::new(),
        surprise: spec.surprise,
        seed: 0,
    };
    let groups = [
        (&spec.attacking, spec.attacker, true, false),
        (&spec.attacking_reserves, spec.attacker, true, true),
        (&spec.defending, defender, false, false),
        (&spec.defending_reserves, defender, false, true),
    ];
    for (list, side, attacking, reserve) in groups {
        for &(id, strength) in list.iter() {
            let block = roster.block(id);
            let twice = blocks.iter().any(|x| x.0 == id);
            let steps = fighter_steps(block, side, twice, strength)?;
            blocks.push((id, steps, attacking));
            let placed = BattleBlock {
                block: id,
                steps,
                reserve,
            };
            match attacking {
                true => start.attacking.push(placed),
                false => start.defending.push(placed),
            }
        }
    }
    if blocks.len() > MAX_BLOCKS {
        return Err(OddsError::TooMany {
            max: MAX_BLOCKS,
            got: blocks.len(),
        });
    }
    if start.attacking.is_empty() {
        return Err(OddsError::Empty("attacking"));
    }
    if start.defending.is_empty() {
        return Err(OddsError::Empty("defending"));
    }
    Ok(Fighters { blocks, start })
}

/// A block's steps at `strength`, refused when it is not `side`'s, is
/// named `twice`, is Cleopatra (who never fights), or its strength is not
/// whole steps within its limits.
fn fighter_steps(
    block: &crate::scenario::model::Block,
    side: Side,
    twice: bool,
    strength: u8,
) -> Result<u8, OddsError> {
    if block.side != side {
        return Err(OddsError::WrongSide {
            block: block.name.clone(),
            owner: block.side,
            wanted: side,
        });
    }
    if twice {
        return Err(OddsError::Duplicate(block.name.clone()));
    }
    if block.kind == BlockKind::Cleopatra {
        return Err(OddsError::Cleopatra);
    }
    let per_step = block.kind.strength_per_step();
    check_strength(block, strength, per_step)?;
    Ok(strength / per_step)
}

fn check_strength(
    block: &crate::scenario::model::Block,
    strength: u8,
    per_step: u8,
) -> Result<(), OddsError> {
    let impossible = |why: String| OddsError::ImpossibleStrength {
        block: block.name.clone(),
        strength,
        why,
    };
    if strength == 0 || strength > block.max_strength() {
        return Err(impossible(format!(
            "its strength is 1 to {}",
            block.max_strength()
        )));
    }
    if !strength.is_multiple_of(per_step) {
        return Err(impossible(
            "the elephant fights at IV or II (7.41)".to_string(),
        ));
    }
    Ok(())
}

/// Why a list of blocks for the battle calculator cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlocksError {
    #[error("{0}")]
    Unknown(#[from] crate::scenario::model::UnknownName),
    #[error("{name} is a block of {owner}, not of {side}")]
    OtherSide {
        name: String,
        owner: Side,
        side: Side,
    },
    #[error(
        "\"{text}\" is not a strength for {name}: expected a number such as 3 or a numeral such as III"
    )]
    BadStrength { name: String, text: String },
}

/// Parses `"Legio 13=3,Caesar=3"`: roster names of `side` with their
/// strengths as printed (digits or I–IV). Names resolve like the map's
/// (aliases, case-insensitive) and unknown ones get a did-you-mean.
pub fn parse_blocks(
    game: &Game,
    side: Side,
    text: &str,
) -> Result<Vec<(BlockId, u8)>, BlocksError> {
    let roster = game.roster();
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, strength) = match item.rsplit_once('=') {
            Some((n, s)) => (n.trim(), Some(s.trim())),
            None => (item, None),
        };
        let id = match roster.resolve(side, name) {
            Ok(id) => id,
            Err(unknown) => {
                return Err(match roster.find(side.other(), name) {
                    Some(_) => BlocksError::OtherSide {
                        name: name.to_string(),
                        owner: side.other(),
                        side,
                    },
                    None => unknown.into(),
                });
            }
        };
        let block = roster.block(id);
        let strength = match strength {
            None => block.max_strength(),
            Some(s) => parse_strength(s).ok_or_else(|| BlocksError::BadStrength {
                name: name.to_string(),
                text: s.to_string(),
            })?,
        };
        out.push((id, strength));
    }
    Ok(out)
}

fn parse_strength(text: &str) -> Option<u8> {
    if let Ok(n) = text.parse::<u8>() {
        return Some(n);
    }
    match text.to_ascii_uppercase().as_str() {
        "I" => Some(1),
        "II" => Some(2),
        "III" => Some(3),
        "IV" => Some(4),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Game {
        crate::test_support::published("rules-2.0")
    }

    fn block(game: &Game, side: Side, name: &str) -> BlockId {
        game.roster().resolve(side, name).unwrap()
    }

    #[test]
    fn twenty_blocks_with_reserves_are_evaluated_and_twenty_one_refused() {
        // 10 against 10, half of each in reserve, at one step each: every
        // block the calculator may hold, small enough to run in a unit test.
        let g = game();
        let legions = |s: Side, numbers: &[u8]| -> Vec<(BlockId, u8)> {
            numbers
                .iter()
                .map(|n| {
                    let b = block(&g, s, &format!("Legio {n}"));
                    (b, g.roster().block(b).kind.strength_per_step())
                })
                .collect()
        };
        let mut spec = BattleSpec {
            attacker: Side::Pompey,
            attacking: legions(Side::Pompey, &[1, 2, 3, 4, 5]),
            attacking_reserves: legions(Side::Pompey, &[6, 32, 33, 34, 35]),
            defending: legions(Side::Caesar, &[17, 18, 19, 20, 21]),
            defending_reserves: legions(Side::Caesar, &[13, 14, 11, 12, 8]),
            surprise: false,
        };
        let odds = battle_odds(&g, &spec).unwrap();
        let total = odds.attacker_wins + odds.defender_holds + odds.both_eliminated;
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        spec.defending_reserves.extend(legions(Side::Caesar, &[7]));
        assert_eq!(
            battle_odds(&g, &spec).unwrap_err(),
            OddsError::TooMany { max: 20, got: 21 }
        );
    }

    #[test]
    fn probabilities_are_a_distribution() {
        let g = game();
        let spec = duel(
            (block(&g, Side::Caesar, "Caesar"), 3),
            (block(&g, Side::Pompey, "Pompey"), 3),
        );
        let odds = battle_odds(&g, &spec).unwrap();
        let total = odds.attacker_wins + odds.defender_holds + odds.both_eliminated;
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        let rounds: f64 = odds.ends_in_round.iter().sum();
        assert!((rounds - 1.0).abs() < 1e-9);
        assert!(odds.attacker_wins > 0.0 && odds.defender_holds > 0.0);
    }

    /// Caesar's block `attacking` against Pompey's `defending` (each with
    /// its strength): no reserves, no surprise.
    fn duel(attacking: (BlockId, u8), defending: (BlockId, u8)) -> BattleSpec {
        BattleSpec {
            attacker: Side::Caesar,
            attacking: vec![attacking],
            attacking_reserves: vec![],
            defending: vec![defending],
            defending_reserves: vec![],
            surprise: false,
        }
    }

    /// A Caesarian legion of one step attacking a Pompeian one of the same
    /// letter, and the chance each hits with a die.
    fn one_step_each(g: &Game) -> (BattleSpec, [f64; 2]) {
        let roster = g.roster();
        let att = roster
            .of_side(Side::Caesar)
            .find(|b| roster.block(*b).kind == BlockKind::Legion)
            .unwrap();
        let letter = roster.block(att).initiative;
        let def = roster
            .of_side(Side::Pompey)
            .find(|b| {
                let x = roster.block(*b);
                x.kind == BlockKind::Legion && x.initiative == letter
            })
            .unwrap();
        let hit = |b: BlockId| f64::from(roster.block(b).firepower) / 6.0;
        (duel((att, 1), (def, 1)), [hit(att), hit(def)])
    }

    #[test]
    fn one_step_each_hand_computed() {
        // A 1-step attacker against a 1-step defender: round 1 the defender
        // (first on equal letters) fires one die. Compute both at the same
        // letter and firepower.
        let g = game();
        let (spec, [fp, fd]) = one_step_each(&g);
        let odds = battle_odds(&g, &spec).unwrap();
        // Rounds 1–3: defender fires, then attacker; round 4: defender fires,
        // attacker retreats.
        let miss = (1.0 - fd) * (1.0 - fp);
        let mut win = 0.0;
        let mut reach = 1.0;
        for _ in 0..3 {
            win += reach * (1.0 - fd) * fp;
            reach *= miss;
        }
        assert!(
            (odds.attacker_wins - win).abs() < 1e-12,
            "{} vs {win}",
            odds.attacker_wins
        );
        let mut spec_surprise = spec.clone();
        spec_surprise.surprise = true;
        let surprised = battle_odds(&g, &spec_surprise).unwrap();
        assert!(surprised.attacker_wins > odds.attacker_wins);
    }

    #[test]
    fn rule_7_2_six_battle_rounds_report_rounds_five_and_six_apart() {
        // One step against one step under 6 rounds: each of rounds 1–5 ends
        // the battle when either block hits (defender first, on equal
        // letters); round 6 ends it whatever happens (the attacker retreats).
        let base = game();
        let mut rules = (*base.rules).clone();
        rules.battle_rounds = 6;
        let g = Game::try_new(base.scenario.clone(), std::sync::Arc::new(rules)).unwrap();
        let (spec, [fp, fd]) = one_step_each(&g);
        let miss = (1.0 - fp) * (1.0 - fd);
        let odds = battle_odds(&g, &spec).unwrap();
        assert_eq!(odds.ends_in_round.len(), 6, "{:?}", odds.ends_in_round);
        for (k, p) in odds.ends_in_round.iter().enumerate() {
            let expected = if k < 5 {
                miss.powi(k as i32) * (1.0 - miss)
            } else {
                miss.powi(5)
            };
            assert!(
                (p - expected).abs() < 1e-12,
                "round {}: {p} vs {expected}",
                k + 1
            );
        }
        assert!(odds.ends_in_round[4] > 0.0 && odds.ends_in_round[5] > 0.0);
        // The engine's own battle, sampled, ends in round 6 too.
        let sixth = (0..400)
            .filter(|seed| sample_battle(&g, &spec, *seed).unwrap().ends_in_round[5] == 1.0)
            .count();
        assert!(sixth > 0, "no sampled battle reached round 6");
    }

    #[test]
    fn bad_specs_are_errors() {
        let g = game();
        let caesar = block(&g, Side::Caesar, "Caesar");
        let pompey = block(&g, Side::Pompey, "Pompey");
        let mut spec = duel((caesar, 9), (pompey, 3));
        assert!(matches!(
            battle_odds(&g, &spec),
            Err(OddsError::ImpossibleStrength { .. })
        ));
        spec.attacking = vec![(pompey, 3)];
        assert!(matches!(
            battle_odds(&g, &spec),
            Err(OddsError::WrongSide { .. })
        ));
        spec.attacking = vec![];
        assert!(matches!(battle_odds(&g, &spec), Err(OddsError::Empty(_))));
    }
}
