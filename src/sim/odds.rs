//! Exact battle odds (7.0–7.5), by dynamic programming over the blocks'
//! steps, the round and the battle turn — not sampled.
//!
//! Assumptions, as the `battle` command documents: nobody retreats by
//! choice; attackers retreat on their turns in the last round (7.2) and can
//! always find somewhere to go; hits go to the strongest eligible block and
//! ties follow the engine's default policy ([`crate::ai::default_hit_victim`]:
//! lowest firepower, then later initiative, then lower roster index);
//! reserves arrive in round 2 with disruption (7.31, including the
//! attacker/defender swap when the defender is disrupted and the rule set
//! says so); Mars/Neptune surprise lets every attacker fire first in round 1.

use rustc_hash::FxHashMap;

use serde::{Deserialize, Serialize};

use crate::engine::Game;
use crate::scenario::model::BlockId;
use crate::scenario::model::{BlockKind, Initiative, Side};

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
    /// Probability that the battle ends in round 1, 2, 3, 4.
    pub ends_in_round: Vec<f64>,
    /// Probability that each block is eliminated, by name.
    pub eliminated: Vec<BlockRisk>,
    /// Dynamic-programming states evaluated.
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

/// The largest battle the calculator takes (a block a bit in the masks).
pub(crate) const MAX_BLOCKS: usize = 20;

#[derive(Debug, Clone, Copy)]
struct Fighter {
    /// Of the original attacking side.
    attacking_side: bool,
    reserve: bool,
    steps: u8,
    per_step: u8,
    firepower: u8,
    initiative: Initiative,
    attacking_initiative: Initiative,
    roster_index: u8,
}

/// The battle's position between two battle turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Pos {
    steps: [u8; MAX_BLOCKS],
    /// The blocks still in the battle: not eliminated, not retreated
    /// (a retreated block keeps its steps).
    present: u32,
    round: u8,
    /// The blocks that take turns this round (fixed when it starts, 7.2).
    in_order: u32,
    /// Index into this round's turn order.
    next: u8,
    /// 7.31: the original defender has become the attacker.
    swapped: bool,
}

/// The blocks of one round in the order they take their turns (7.2).
#[derive(Debug, Clone, Copy)]
struct TurnOrder {
    blocks: [u8; MAX_BLOCKS],
    len: u8,
}

impl TurnOrder {
    fn get(&self, turn: u8) -> Option<usize> {
        (turn < self.len).then(|| self.blocks[turn as usize] as usize)
    }
}

/// Sums over the battle's ends, weighted by how likely each end is.
#[derive(Debug, Clone, Copy, Default)]
struct Totals {
    attacker_wins: f64,
    defender_holds: f64,
    both: f64,
    lost: [f64; 2],
    round: [f64; 4],
    eliminated: [f64; MAX_BLOCKS],
}

/// Slots for (round, next turn): every move of the battle goes to a later
/// slot, so the positions are expanded slot by slot, carrying their
/// probability forward, and a slot is dropped once expanded.
const TURN_SLOTS: usize = MAX_BLOCKS + 1;

struct Solver<'a> {
    fighters: Vec<Fighter>,
    /// Masks of the blocks of the original attacking side, and of reserves.
    attacking_side: u32,
    reserves: u32,
    /// 7.4's tie order among equally strong blocks (lowest firepower, then
    /// later initiative, then lower roster index: the highest rank takes
    /// the hit), by whether the sides have swapped (7.31).
    tie_rank: [[u8; MAX_BLOCKS]; 2],
    rounds: u8,
    surprise: bool,
    disrupt_defending_reserves: bool,
    /// The positions reached and not yet expanded, with the probability of
    /// reaching them, by (round - 1) * TURN_SLOTS + next.
    waiting: Vec<FxHashMap<Pos, f64>>,
    /// Distinct positions reached.
    states: usize,
    totals: Totals,
    /// Each round's turn order, by (the blocks taking turns, whether it is a
    /// surprise round, whether the sides have swapped): the few orders a
    /// battle has, sorted once each.
    orders: FxHashMap<(u32, bool, bool), TurnOrder>,
    binomial: &'a [[f64; 32]; 7],
}

/// Exact odds of `spec` under `game`'s rule set.
pub fn battle_odds(game: &Game, spec: &BattleSpec) -> Result<BattleOdds, OddsError> {
    let (fighters, ids) = fighters(game, spec)?;
    let binomial = binomial_table();
    let rounds = game.rules.battle_rounds.max(1);
    let mask = |keep: fn(&Fighter) -> bool| {
        fighters
            .iter()
            .enumerate()
            .filter(|(_, f)| keep(f))
            .fold(0u32, |m, (i, _)| m | 1 << i)
    };
    let attacking_side = mask(|f| f.attacking_side);
    let reserves = mask(|f| f.reserve);
    let tie_rank = [false, true].map(|swapped| tie_ranks(&fighters, swapped));
    let mut solver = Solver {
        fighters,
        attacking_side,
        reserves,
        tie_rank,
        rounds,
        surprise: spec.surprise,
        disrupt_defending_reserves: game.rules.disrupt_defending_reserves,
        waiting: vec![FxHashMap::default(); rounds as usize * TURN_SLOTS],
        states: 0,
        totals: Totals::default(),
        orders: FxHashMap::default(),
        binomial: &binomial,
    };
    solver.solve();
    let t = solver.totals;
    let roster = game.roster();
    let eliminated = ids
        .iter()
        .enumerate()
        .map(|(i, id)| BlockRisk {
            block: roster.block(*id).name.clone(),
            side: roster.block(*id).side,
            eliminated: t.eliminated[i],
        })
        .collect();
    Ok(BattleOdds {
        attacker_wins: t.attacker_wins,
        defender_holds: t.defender_holds,
        both_eliminated: t.both,
        expected_steps_lost: ExpectedLosses {
            attacker: t.lost[0],
            defender: t.lost[1],
        },
        ends_in_round: t.round[..(rounds as usize).min(4)].to_vec(),
        eliminated,
        states: solver.states,
    })
}

/// The spec's blocks as the solver's fighters (attacking, its reserves,
/// defending, its reserves), checked, with their roster ids.
fn fighters(game: &Game, spec: &BattleSpec) -> Result<(Vec<Fighter>, Vec<BlockId>), OddsError> {
    let roster = game.roster();
    let defender = spec.attacker.other();
    let mut fighters = Vec::new();
    let mut ids: Vec<BlockId> = Vec::new();
    let groups = [
        (&spec.attacking, spec.attacker, true, false),
        (&spec.attacking_reserves, spec.attacker, true, true),
        (&spec.defending, defender, false, false),
        (&spec.defending_reserves, defender, false, true),
    ];
    for (list, side, attacking_side, reserve) in groups {
        for &(id, strength) in list.iter() {
            let block = roster.block(id);
            if block.side != side {
                return Err(OddsError::WrongSide {
                    block: block.name.clone(),
                    owner: block.side,
                    wanted: side,
                });
            }
            if ids.contains(&id) {
                return Err(OddsError::Duplicate(block.name.clone()));
            }
            if block.kind == BlockKind::Cleopatra {
                return Err(OddsError::Cleopatra);
            }
            let per_step = block.kind.strength_per_step();
            check_strength(block, strength, per_step)?;
            ids.push(id);
            fighters.push(Fighter {
                attacking_side,
                reserve,
                steps: strength / per_step,
                per_step,
                firepower: block.firepower,
                initiative: block.initiative,
                attacking_initiative: block.initiative(true),
                roster_index: id.0,
            });
        }
    }
    if fighters.len() > MAX_BLOCKS {
        return Err(OddsError::TooMany {
            max: MAX_BLOCKS,
            got: fighters.len(),
        });
    }
    if !fighters.iter().any(|f| f.attacking_side) {
        return Err(OddsError::Empty("attacking"));
    }
    if !fighters.iter().any(|f| !f.attacking_side) {
        return Err(OddsError::Empty("defending"));
    }
    Ok((fighters, ids))
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

fn lose_step(pos: &mut Pos, i: usize) {
    pos.steps[i] -= 1;
    if pos.steps[i] == 0 {
        pos.present &= !(1 << i);
    }
}

/// Each fighter's rank in 7.4's tie order when the sides have `swapped`
/// or not: 0 for the block least to be hit.
fn tie_ranks(fighters: &[Fighter], swapped: bool) -> [u8; MAX_BLOCKS] {
    let mut by_preference: Vec<usize> = (0..fighters.len()).collect();
    by_preference.sort_by_key(|&i| {
        let f = &fighters[i];
        let letter = if f.attacking_side != swapped {
            f.attacking_initiative
        } else {
            f.initiative
        };
        (
            std::cmp::Reverse(f.firepower),
            letter,
            std::cmp::Reverse(f.roster_index),
        )
    });
    let mut rank = [0; MAX_BLOCKS];
    for (r, i) in by_preference.into_iter().enumerate() {
        rank[i] = r as u8;
    }
    rank
}

/// `table[fp][n * (n + 1) / 2 + k]` = P(k hits | n dice at firepower fp),
/// for up to 6 dice (the strongest block has 4).
fn binomial_table() -> [[f64; 32]; 7] {
    let mut t = [[0.0; 32]; 7];
    for (fp, row) in t.iter_mut().enumerate() {
        let p = fp as f64 / 6.0;
        for n in 0..=6usize {
            for k in 0..=n {
                let c = (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64);
                row[n * (n + 1) / 2 + k] = c * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32);
            }
        }
    }
    t
}

impl Solver<'_> {
    /// Carries the probability of the start forward through every slot.
    fn solve(&mut self) {
        let mut start = Pos {
            steps: [0; MAX_BLOCKS],
            present: 0,
            round: 1,
            in_order: 0,
            next: 0,
            swapped: false,
        };
        for (i, f) in self.fighters.iter().enumerate() {
            start.steps[i] = f.steps;
            start.present |= 1 << i;
        }
        start.in_order = self.round_members(&start);
        self.reach(start, 1.0);
        for slot in 0..self.waiting.len() {
            let positions = std::mem::take(&mut self.waiting[slot]);
            self.states += positions.len();
            for (pos, p) in positions {
                self.expand(pos, p);
            }
        }
    }

    fn reach(&mut self, pos: Pos, p: f64) {
        let slot = (pos.round as usize - 1) * TURN_SLOTS + pos.next as usize;
        *self.waiting[slot].entry(pos).or_insert(0.0) += p;
    }

    fn present(&self, pos: &Pos, i: usize) -> bool {
        pos.present & (1 << i) != 0
    }

    /// Whether block `i` now fights on the attacking side.
    fn attacking_now(&self, pos: &Pos, i: usize) -> bool {
        self.fighters[i].attacking_side != pos.swapped
    }

    fn strength(&self, pos: &Pos, i: usize) -> u8 {
        pos.steps[i] * self.fighters[i].per_step
    }

    fn letter(&self, pos: &Pos, i: usize) -> Initiative {
        let f = &self.fighters[i];
        if self.attacking_now(pos, i) {
            f.attacking_initiative
        } else {
            f.initiative
        }
    }

    fn side_present(&self, pos: &Pos, original_attacker: bool) -> bool {
        let side = if original_attacker {
            self.attacking_side
        } else {
            !self.attacking_side
        };
        pos.present & side != 0
    }

    fn is_reserve(&self, pos: &Pos, i: usize) -> bool {
        self.fighters[i].reserve && pos.round == 1
    }

    /// The blocks that take turns in a round starting at `pos`.
    fn round_members(&self, pos: &Pos) -> u32 {
        (0..self.fighters.len())
            .filter(|&i| self.present(pos, i) && !self.is_reserve(pos, i))
            .fold(0, |mask, i| mask | 1 << i)
    }

    /// This round's battle turns (7.2), including blocks eliminated since
    /// the round began (they are skipped).
    fn order(&mut self, pos: &Pos) -> TurnOrder {
        let surprise = self.surprise && pos.round == 1;
        let key = (pos.in_order, surprise, pos.swapped);
        if let Some(order) = self.orders.get(&key) {
            return *order;
        }
        let sorted = self.sorted_order(pos);
        let mut order = TurnOrder {
            blocks: [0; MAX_BLOCKS],
            len: sorted.len() as u8,
        };
        for (slot, i) in order.blocks.iter_mut().zip(sorted) {
            *slot = i as u8;
        }
        self.orders.insert(key, order);
        order
    }

    fn sorted_order(&self, pos: &Pos) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.fighters.len())
            .filter(|&i| pos.in_order & (1 << i) != 0)
            .collect();
        let surprise = self.surprise && pos.round == 1;
        order.sort_by_key(|&i| {
            let attacking = self.attacking_now(pos, i);
            let letter = self.letter(pos, i);
            let index = self.fighters[i].roster_index;
            if surprise {
                (!attacking, letter, false, index)
            } else {
                (false, letter, attacking, index)
            }
        });
        order
    }

    /// The battle ends at `pos`, which happens with probability `p`.
    fn end(&mut self, pos: &Pos, p: f64) {
        let att = self.side_present(pos, true);
        let def = self.side_present(pos, false);
        let t = &mut self.totals;
        match (att, def) {
            (_, true) => t.defender_holds += p,
            (true, false) => t.attacker_wins += p,
            (false, false) => t.both += p,
        }
        for (i, f) in self.fighters.iter().enumerate() {
            let lost = f.steps - pos.steps[i];
            t.lost[!f.attacking_side as usize] += lost as f64 * p;
            if pos.steps[i] == 0 {
                t.eliminated[i] += p;
            }
        }
        t.round[(pos.round.clamp(1, 4) - 1) as usize] += p;
    }

    fn finished(&self, pos: &Pos) -> bool {
        let alive = pos.present;
        alive & self.attacking_side == 0 || alive & !self.attacking_side == 0
    }

    /// The next battle turn from `pos`, reached with probability `p`.
    fn expand(&mut self, mut pos: Pos, p: f64) {
        if self.finished(&pos) {
            return self.end(&pos, p);
        }
        let order = self.order(&pos);
        // Skip blocks that are gone; start the next round when the order is done.
        loop {
            let Some(i) = order.get(pos.next) else {
                if pos.round >= self.rounds {
                    // Attackers that could not retreat (none, by assumption).
                    return self.end(&pos, p);
                }
                let mut next = pos;
                next.round += 1;
                next.next = 0;
                if next.round == 2 {
                    self.reserves_arrive(&mut next);
                    if self.finished(&next) {
                        return self.end(&next, p);
                    }
                }
                next.in_order = self.round_members(&next);
                return self.reach(next, p);
            };
            if !self.present(&pos, i) {
                pos.next += 1;
                continue;
            }
            if pos.round >= self.rounds && self.attacking_now(&pos, i) {
                // 7.2: the attacker retreats in the last round.
                let mut next = pos;
                next.present &= !(1 << i);
                next.next += 1;
                return self.reach(next, p);
            }
            return self.fire(pos, i, p);
        }
    }

    fn fire(&mut self, pos: Pos, shooter: usize, p: f64) {
        let dice = self.strength(&pos, shooter) as usize;
        let fp = self.fighters[shooter].firepower.min(6) as usize;
        for k in 0..=dice.min(6) {
            let pk = self.binomial[fp][dice * (dice + 1) / 2 + k];
            if pk == 0.0 {
                continue;
            }
            let mut next = pos;
            next.next += 1;
            let target_side = !self.attacking_now(&pos, shooter);
            for _ in 0..k {
                match self.strongest(&next, target_side) {
                    Some(t) => lose_step(&mut next, t),
                    None => break,
                }
            }
            if self.finished(&next) {
                self.end(&next, p * pk);
            } else {
                self.reach(next, p * pk);
            }
        }
    }

    /// 7.4: the strongest eligible block of the side now attacking (or
    /// not); ties by the default policy.
    fn strongest(&self, pos: &Pos, attacking: bool) -> Option<usize> {
        let side = if attacking != pos.swapped {
            self.attacking_side
        } else {
            !self.attacking_side
        };
        let mut eligible = pos.present & side;
        if pos.round == 1 {
            eligible &= !self.reserves;
        }
        let ranks = &self.tie_rank[pos.swapped as usize];
        let mut best = None;
        let mut best_key = 0u16;
        while eligible != 0 {
            let i = eligible.trailing_zeros() as usize;
            eligible &= eligible - 1;
            let key = u16::from(self.strength(pos, i)) << 8 | u16::from(ranks[i]);
            if best.is_none() || key > best_key {
                best = Some(i);
                best_key = key;
            }
        }
        best
    }

    /// 7.3 / 7.31, as the engine does it at the start of round 2.
    fn reserves_arrive(&self, pos: &mut Pos) {
        let attacker_now_original = !pos.swapped;
        for original_attacking in [attacker_now_original, !attacker_now_original] {
            let defending = original_attacking != attacker_now_original;
            if defending && !self.disrupt_defending_reserves {
                continue;
            }
            let mut main = 0;
            let mut reserves = Vec::new();
            for i in 0..self.fighters.len() {
                if self.present(pos, i) && self.fighters[i].attacking_side == original_attacking {
                    if self.fighters[i].reserve {
                        reserves.push(i);
                    } else {
                        main += 1;
                    }
                }
            }
            if main == 0 && !reserves.is_empty() {
                for i in reserves {
                    lose_step(pos, i);
                }
                if defending {
                    pos.swapped = !pos.swapped;
                }
            }
        }
    }
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
        let side = |s: Side, names: &[&str]| -> Vec<(BlockId, u8)> {
            names
                .iter()
                .map(|n| {
                    let b = block(&g, s, n);
                    (b, g.roster().block(b).kind.strength_per_step())
                })
                .collect()
        };
        let mut spec = BattleSpec {
            attacker: Side::Pompey,
            attacking: side(
                Side::Pompey,
                &["Legio 1", "Legio 2", "Legio 3", "Legio 4", "Legio 5"],
            ),
            attacking_reserves: side(
                Side::Pompey,
                &["Legio 6", "Legio 32", "Legio 33", "Legio 34", "Legio 35"],
            ),
            defending: side(
                Side::Caesar,
                &["Legio 17", "Legio 18", "Legio 19", "Legio 20", "Legio 21"],
            ),
            defending_reserves: side(
                Side::Caesar,
                &["Legio 13", "Legio 14", "Legio 11", "Legio 12", "Legio 8"],
            ),
            surprise: false,
        };
        let odds = battle_odds(&g, &spec).unwrap();
        let total = odds.attacker_wins + odds.defender_holds + odds.both_eliminated;
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        spec.defending_reserves
            .extend(side(Side::Caesar, &["Legio 7"]));
        assert_eq!(
            battle_odds(&g, &spec).unwrap_err(),
            OddsError::TooMany { max: 20, got: 21 }
        );
    }

    #[test]
    fn binomials_sum_to_one() {
        let t = binomial_table();
        for row in &t {
            for n in 0..=6usize {
                let s: f64 = (0..=n).map(|k| row[n * (n + 1) / 2 + k]).sum();
                assert!((s - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn probabilities_are_a_distribution() {
        let g = game();
        let spec = BattleSpec {
            attacker: Side::Caesar,
            attacking: vec![(block(&g, Side::Caesar, "Caesar"), 3)],
            attacking_reserves: vec![],
            defending: vec![(block(&g, Side::Pompey, "Pompey"), 3)],
            defending_reserves: vec![],
            surprise: false,
        };
        let odds = battle_odds(&g, &spec).unwrap();
        let total = odds.attacker_wins + odds.defender_holds + odds.both_eliminated;
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        let rounds: f64 = odds.ends_in_round.iter().sum();
        assert!((rounds - 1.0).abs() < 1e-9);
        assert!(odds.attacker_wins > 0.0 && odds.defender_holds > 0.0);
    }

    #[test]
    fn one_step_each_hand_computed() {
        // A 1-step attacker against a 1-step defender: round 1 the defender
        // (first on equal letters) fires one die. Compute both at the same
        // letter and firepower.
        let g = game();
        let roster = g.roster();
        let att = roster
            .of_side(Side::Caesar)
            .find(|b| roster.block(*b).kind == BlockKind::Legion)
            .unwrap();
        let letter = roster.block(att).initiative;
        let fp = roster.block(att).firepower as f64 / 6.0;
        let def = roster
            .of_side(Side::Pompey)
            .find(|b| {
                let x = roster.block(*b);
                x.kind == BlockKind::Legion && x.initiative == letter
            })
            .unwrap();
        let fd = roster.block(def).firepower as f64 / 6.0;
        let spec = BattleSpec {
            attacker: Side::Caesar,
            attacking: vec![(att, 1)],
            attacking_reserves: vec![],
            defending: vec![(def, 1)],
            defending_reserves: vec![],
            surprise: false,
        };
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
    fn bad_specs_are_errors() {
        let g = game();
        let caesar = block(&g, Side::Caesar, "Caesar");
        let pompey = block(&g, Side::Pompey, "Pompey");
        let mut spec = BattleSpec {
            attacker: Side::Caesar,
            attacking: vec![(caesar, 9)],
            attacking_reserves: vec![],
            defending: vec![(pompey, 3)],
            defending_reserves: vec![],
            surprise: false,
        };
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
