//! Positions stated outright (like OpenSpiel's `SetState`): blocks where and
//! how strong, hands, cards played, the stage of the turn and the dice to
//! come. Position files (`crate::position`) and the rule tests both build
//! their states here, so a test reaches the position it means without
//! hunting for a seed, and a file written by hand gets the same checks.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{
    BlockState, CommandState, CommandStep, ELIMINATED, Game, NO_LINK, NoLog, Orders, POOL, Phase,
    Place, State, TROPHY,
};
use crate::model::{BlockId, BlockKind, CardFace, Side, SpaceKind, held_by_both_sides};

/// Where a turn stands when the position begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Stage {
    /// 2.1: the year's discards (first turn of a year), Caesar first.
    Discard,
    /// 2.1: both players choose a card to play, Caesar first.
    #[default]
    PlayCards,
    /// Both cards are played: they are revealed (2.1) and the turn goes
    /// on from there: Player 1's command phase (2.2), or, when two event
    /// cards cancel, the next turn.
    Command,
}

/// A block placed by a position: which side it fights for (Jupiter's
/// defectors fight for the side that did not print them), where, how strong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlacedBlock {
    pub block: BlockId,
    pub side: Side,
    pub place: Place,
    /// Steps (elephants count two strength points a step, 7.41).
    pub steps: u8,
}

/// A position in the engine's terms (ids, not names). Blocks it does not
/// place stand in their printed owner's levy pool at full strength.
#[derive(Debug, Clone, Default)]
pub struct Position {
    /// 1-based.
    pub year: u8,
    /// 1-based, within the year.
    pub turn: u8,
    pub stage: Stage,
    /// Cards in each hand (deck indices), by `Side::index`.
    pub hands: [Vec<u8>; 2],
    /// The cards each side played this turn (`Stage::Command`).
    pub played: [Option<u8>; 2],
    /// Cards each side discarded this year (never shown to the other).
    pub discarded: [Vec<u8>; 2],
    /// Cards revealed on earlier turns of this year.
    pub played_earlier: Vec<u8>,
    /// What each side's card did last turn (Apollo copies it).
    pub last_played: [Option<CardFace>; 2],
    /// `Stage::Command`: who the position says is Player 1; checked against
    /// what the cards played decide (2.1).
    pub player1: Option<Side>,
    pub blocks: Vec<PlacedBlock>,
    /// Dice to come, in the order they will be rolled (battle fire, 7.4);
    /// after them the seeded stream takes over.
    pub dice: Vec<u8>,
    /// The chance stream's seed: shuffles, and the dice after `dice`.
    pub seed: u64,
}

/// Why a position cannot be played: each names what is wrong in the terms
/// of the position, so a file can point at the entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("year {year} is outside 1..={years} (the rule set's years)")]
    Year { year: u8, years: u8 },
    #[error("turn {turn} is outside 1..={turns} (the rule set's turns per year)")]
    Turn { turn: u8, turns: u8 },
    #[error("{name} is placed twice")]
    BlockTwice { block: BlockId, name: String },
    #[error("{name} at {steps} steps: it has 1 to {max} steps")]
    Steps {
        block: BlockId,
        name: String,
        steps: u8,
        max: u8,
    },
    #[error("{name} cannot stand in {space}: {why}")]
    Terrain {
        block: BlockId,
        name: String,
        space: String,
        why: &'static str,
    },
    #[error("only a leader can be a trophy (7.51); {name} is not a leader")]
    TrophyNotLeader { block: BlockId, name: String },
    #[error(
        "both sides hold {space}; outside a battle a location is one side's (4.21): \
         a position starts before the turn's moves"
    )]
    BothSides { space: String },
    #[error("{card}: {used} copies in hands, discards and plays, the deck in play has {copies}")]
    CardCopies {
        card: String,
        used: usize,
        copies: usize,
    },
    #[error("{side} holds {held} cards; a hand is at most {max} (the rule set's hand size)")]
    HandTooLarge { side: Side, held: usize, max: usize },
    #[error(
        "{side} has discarded {discarded} and holds {held}: during the discards a hand is the \
         {hand_size} dealt less the discards so far ({discards} to make)"
    )]
    DiscardCount {
        side: Side,
        discarded: usize,
        held: usize,
        hand_size: usize,
        discards: usize,
    },
    #[error("discards happen on a year's first turn only (2.1); this is turn {turn}")]
    DiscardTurn { turn: u8 },
    #[error("{side} has no card to play")]
    EmptyHand { side: Side },
    #[error("the command phase needs the card each side played; {side} has none")]
    NotPlayed { side: Side },
    #[error("cards are played only in the command stage; {side}'s card is given in {stage:?}")]
    PlayedTooEarly { side: Side, stage: Stage },
    #[error(
        "the position says {stated} is Player 1, but the cards played make {decided} \
         Player 1 (2.1)"
    )]
    Player1 { stated: Side, decided: Side },
    #[error("a die shows 1 to 6, not {value} (die {} of `dice`)", index + 1)]
    Die { index: usize, value: u8 },
}

impl State {
    /// The state `position` describes under `game`, or every reason it is
    /// impossible. The position must stand before the turn's moves (no
    /// battle pending), as a position file describes it.
    pub fn from_position(game: &Game, position: &Position) -> Result<State, Vec<PositionError>> {
        let mut errors = check(game, position);
        if !errors.is_empty() {
            return Err(errors);
        }
        let roster = game.roster();
        let mut blocks: Vec<BlockState> = roster
            .ids()
            .map(|b| BlockState {
                loc: POOL,
                steps: roster.block(b).max_steps,
                side: roster.block(b).side,
                flags: 0,
                moved_steps: 0,
                entered_via: NO_LINK,
                came_from: POOL,
            })
            .collect();
        let mut trophies = [0u8; 2];
        let mut leader_died = [false; 2];
        for placed in &position.blocks {
            let s = &mut blocks[placed.block.index()];
            s.side = placed.side;
            (s.loc, s.steps) = match placed.place {
                Place::Map(space) => (space.0, placed.steps),
                Place::Pool => (POOL, roster.block(placed.block).max_steps),
                Place::Eliminated => (ELIMINATED, 0),
                Place::Trophy => {
                    // 7.51: the side it fought for lost it to the other.
                    trophies[placed.side.other().index()] += 1;
                    leader_died[placed.side.index()] = true;
                    (TROPHY, 0)
                }
            };
            s.came_from = s.loc;
        }
        let mut state = State::new(game, position.seed);
        state.rng = ChaCha8Rng::seed_from_u64(position.seed);
        state.year = position.year;
        state.turn = position.turn;
        state.blocks = blocks;
        state.trophies = trophies;
        state.leader_died = leader_died;
        state.hands = position.hands.clone();
        state.discarded = [
            position.discarded[0].iter().copied().collect(),
            position.discarded[1].iter().copied().collect(),
        ];
        state.year_played = position.played_earlier.iter().copied().collect();
        state.last_played = position.last_played;
        state.played = [None, None];
        state.orders = [Orders::Nothing, Orders::Nothing];
        state.command = CommandState {
            step: CommandStep::Moves,
            mp: 0,
            lp: 0,
            group: None,
            members: Default::default(),
            moved_by_land: false,
            event: None,
        };
        state.stats = Default::default();
        state.set_dice(&position.dice);
        state.recount_occupancy(game);
        match position.stage {
            Stage::Discard => {
                let done = |side: Side| {
                    position.discarded[side.index()].len() >= game.rules.discards as usize
                };
                state.phase = if !done(Side::Caesar) {
                    Phase::Discard(Side::Caesar)
                } else if !done(Side::Pompey) {
                    Phase::Discard(Side::Pompey)
                } else {
                    Phase::PlayCard(Side::Caesar)
                };
            }
            Stage::PlayCards => state.phase = Phase::PlayCard(Side::Caesar),
            Stage::Command => {
                state.played = position.played;
                state.phase = Phase::PlayCard(Side::Pompey);
                state.reveal_cards(game, &mut NoLog);
                // Two events cancel (2.1) and the turn ends: the state is
                // then the next turn's, and no Player 1 was decided.
                if let Some(stated) = position.player1
                    && matches!(state.phase, Phase::Command(_))
                    && stated != state.player1()
                {
                    errors.push(PositionError::Player1 {
                        stated,
                        decided: state.player1(),
                    });
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        debug_assert_eq!(state.check_invariants(game), Ok(()));
        Ok(state)
    }

    /// Sets the dice to come (then the seeded stream goes on).
    pub fn set_dice(&mut self, dice: &[u8]) {
        self.dice = dice.iter().rev().copied().collect();
    }

    /// The dice still scripted to come, next first.
    pub fn dice_to_come(&self) -> Vec<u8> {
        self.dice.iter().rev().copied().collect()
    }
}

/// Everything wrong with a position that can be told without playing it.
fn check(game: &Game, p: &Position) -> Vec<PositionError> {
    let rules = &game.rules;
    let roster = game.roster();
    let board = game.board();
    let mut errors = Vec::new();
    if !(1..=rules.years).contains(&p.year) {
        errors.push(PositionError::Year {
            year: p.year,
            years: rules.years,
        });
    }
    if !(1..=rules.turns_per_year).contains(&p.turn) {
        errors.push(PositionError::Turn {
            turn: p.turn,
            turns: rules.turns_per_year,
        });
    }
    let mut seen = vec![false; roster.blocks.len()];
    let mut on_map = Vec::new();
    for placed in &p.blocks {
        let b = placed.block;
        let block = roster.block(b);
        let name = block.name.clone();
        if std::mem::replace(&mut seen[b.index()], true) {
            errors.push(PositionError::BlockTwice { block: b, name });
            continue;
        }
        match placed.place {
            Place::Map(space) => {
                if !(1..=block.max_steps).contains(&placed.steps) {
                    errors.push(PositionError::Steps {
                        block: b,
                        name: name.clone(),
                        steps: placed.steps,
                        max: block.max_steps,
                    });
                }
                let kind = board.space(space).kind;
                let why = if block.kind.is_land() && kind == SpaceKind::Sea {
                    Some("land blocks never stand at sea (6.2)")
                } else if block.kind == BlockKind::Navis && kind == SpaceKind::City {
                    Some("a navis stands in a port or at sea (6.2)")
                } else {
                    None
                };
                if let Some(why) = why {
                    errors.push(PositionError::Terrain {
                        block: b,
                        name,
                        space: board.name(space).to_string(),
                        why,
                    });
                }
                on_map.push((placed.side, space));
            }
            Place::Trophy if block.kind != BlockKind::Leader => {
                errors.push(PositionError::TrophyNotLeader { block: b, name });
            }
            _ => {}
        }
    }
    for space in held_by_both_sides(board, on_map) {
        errors.push(PositionError::BothSides {
            space: board.name(space).to_string(),
        });
    }
    // Cards: no more copies of a face than the deck in play holds.
    let mut used: Vec<(CardFace, usize)> = Vec::new();
    let all_cards = p
        .hands
        .iter()
        .flatten()
        .chain(p.discarded.iter().flatten())
        .chain(p.played.iter().flatten())
        .chain(&p.played_earlier);
    for &card in all_cards {
        let face = game.card(card);
        match used.iter_mut().find(|(f, _)| *f == face) {
            Some((_, n)) => *n += 1,
            None => used.push((face, 1)),
        }
    }
    for (face, n) in used {
        let copies = game.deck.iter().filter(|&&c| game.card(c) == face).count();
        if n > copies {
            errors.push(PositionError::CardCopies {
                card: face.name(),
                used: n,
                copies,
            });
        }
    }
    let hand_size = rules.hand_size as usize;
    for side in Side::BOTH {
        let i = side.index();
        let held = p.hands[i].len();
        if held > hand_size {
            errors.push(PositionError::HandTooLarge {
                side,
                held,
                max: hand_size,
            });
        }
        match p.stage {
            Stage::Discard => {
                let discarded = p.discarded[i].len();
                if discarded > rules.discards as usize || held + discarded != hand_size {
                    errors.push(PositionError::DiscardCount {
                        side,
                        discarded,
                        held,
                        hand_size,
                        discards: rules.discards as usize,
                    });
                }
            }
            Stage::PlayCards if held == 0 => errors.push(PositionError::EmptyHand { side }),
            Stage::Command if p.played[i].is_none() => {
                errors.push(PositionError::NotPlayed { side });
            }
            _ => {}
        }
        if p.stage != Stage::Command && p.played[i].is_some() {
            errors.push(PositionError::PlayedTooEarly {
                side,
                stage: p.stage,
            });
        }
    }
    if p.stage == Stage::Discard && p.turn != 1 {
        errors.push(PositionError::DiscardTurn { turn: p.turn });
    }
    for (index, &value) in p.dice.iter().enumerate() {
        if !(1..=6).contains(&value) {
            errors.push(PositionError::Die { index, value });
        }
    }
    errors
}
