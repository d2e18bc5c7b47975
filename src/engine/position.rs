//! Positions stated outright (like OpenSpiel's `SetState`): blocks where and
//! how strong, hands, cards played, the stage of the turn and the dice to
//! come. Position files (`crate::games::position_file`) and the rule tests both build
//! their states here, so a test reaches the position it means without
//! hunting for a seed, and a file written by hand gets the same checks.

use super::{BlockState, ELIMINATED, Game, NoLog, Orders, POOL, Phase, Place, State, TROPHY};
use crate::scenario::model::{
    BlockId, BlockKind, CardFace, Event, Side, SpaceId, SpaceKind, held_by_both_sides,
};

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
    /// Whether each side has had its first levy of the game, where a
    /// tournament bid's extra levy points go; when not stated, both have
    /// after the game's first turn and neither before it.
    pub first_levies_taken: Option<[bool; 2]>,
}

/// Why a position cannot be played: each names what is wrong in the terms
/// of the position, so a file can point at the entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("year {year} is outside 1..={years} (the rule set's years)")]
    Year { year: u8, years: u8 },
    #[error("turn {turn} is outside 1..={turns} (the rule set's turns per year)")]
    Turn { turn: u8, turns: u8 },
    /// `entry`: the index in [`Position::blocks`] of the second placing.
    #[error("{name} is placed twice")]
    BlockTwice {
        block: BlockId,
        name: String,
        entry: usize,
    },
    /// Only Jupiter makes a block change sides, and a leader or a navis
    /// struck by it does not defect (2.0 and 1.1, Jupiter); Cleopatra only
    /// where the rule set lets her. `entry`: the index in [`Position::blocks`].
    #[error("{name} cannot fight for {side}: {why}")]
    Defector {
        block: BlockId,
        name: String,
        side: Side,
        why: String,
        entry: usize,
    },
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
    /// The card a side played last turn is a card of the deck (Apollo, 2.1:
    /// the card it copied, or the Apollo card itself): on a later turn of the
    /// year it is out of the hands like every card revealed this year; on a
    /// year's first turn the two cards of the last turn were still two cards.
    #[error(
        "{side} last played {card}, but no copy of it (nor an Apollo that copied it) is left: \
         {why}"
    )]
    LastPlayed {
        side: Side,
        card: String,
        why: &'static str,
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
        let (blocks, trophies, leader_died) = placed_blocks(game, position);
        let mut state = State::new(game, position.seed);
        state.dice.reseed(position.seed);
        state.year = position.year;
        state.turn = position.turn;
        state.board.restate(
            game,
            blocks
                .into_iter()
                .enumerate()
                .map(|(i, b)| (BlockId(i as u8), b)),
        );
        state.board.set_dead_leaders(trophies, leader_died);
        state.hands = position.hands.clone();
        state.discarded = [
            position.discarded[0].iter().copied().collect(),
            position.discarded[1].iter().copied().collect(),
        ];
        state.year_played = position.played_earlier.iter().copied().collect();
        state.last_played = position.last_played;
        state.played = [None, None];
        state.orders = [Orders::Nothing, Orders::Nothing];
        state.command.restart();
        let past_first_turn = (position.year, position.turn) != (1, 1);
        state
            .command
            .set_first_levies_taken(position.first_levies_taken.unwrap_or([past_first_turn; 2]));
        state.stats = Default::default();
        state.set_dice(&position.dice);
        state.recount_occupancy(game);
        errors.extend(state.enter_stage(game, position));
        if !errors.is_empty() {
            return Err(errors);
        }
        debug_assert_eq!(state.check_invariants(game), Ok(()));
        Ok(state)
    }

    /// The phase the position's stage names; under Command, the cards are
    /// revealed, and a Player 1 the position states that the cards do not
    /// make is an error.
    fn enter_stage(&mut self, game: &Game, position: &Position) -> Option<PositionError> {
        match position.stage {
            Stage::Discard => {
                let done = |side: Side| {
                    position.discarded[side.index()].len() >= game.rules.discards as usize
                };
                self.phase = if !done(Side::Caesar) {
                    Phase::Discard(Side::Caesar)
                } else if !done(Side::Pompey) {
                    Phase::Discard(Side::Pompey)
                } else {
                    Phase::PlayCard(Side::Caesar)
                };
            }
            Stage::PlayCards => self.phase = Phase::PlayCard(Side::Caesar),
            Stage::Command => {
                self.played = position.played;
                self.phase = Phase::PlayCard(Side::Pompey);
                self.reveal_cards(game, &mut NoLog);
                // Two events cancel (2.1) and the turn ends: the state is
                // then the next turn's, and no Player 1 was decided.
                if let Some(stated) = position.player1
                    && matches!(self.phase, Phase::Command(_))
                    && stated != self.player1()
                {
                    return Some(PositionError::Player1 {
                        stated,
                        decided: self.player1(),
                    });
                }
            }
        }
        None
    }

    /// Sets the dice to come (then the seeded stream goes on).
    pub fn set_dice(&mut self, dice: &[u8]) {
        self.dice.script(dice);
    }

    /// The dice still scripted to come, next first.
    pub fn dice_to_come(&self) -> Vec<u8> {
        self.dice.scripted()
    }
}

/// Why a block of this kind cannot have changed sides, if it cannot.
/// Jupiter is the only way (2.0 and 1.1, Jupiter): "a Leader or Navis does
/// not defect"; Cleopatra "is not a leader and may defect" where the rule
/// set keeps that; without Jupiter in the deck no block defects.
fn cannot_defect(game: &Game, kind: BlockKind) -> Option<String> {
    let jupiter = CardFace::Event(Event::Jupiter);
    if !game.deck.iter().any(|&c| game.card(c) == jupiter) {
        return Some(format!(
            "only Jupiter makes a block defect, and the deck in play ({}) has no Jupiter",
            game.rules.name
        ));
    }
    match kind {
        BlockKind::Leader => Some("a leader does not defect (Jupiter)".into()),
        BlockKind::Navis => Some("a navis does not defect (Jupiter)".into()),
        BlockKind::Cleopatra if !game.rules.jupiter_cleopatra_defects => Some(format!(
            "Cleopatra does not defect under {} (Jupiter)",
            game.rules.name
        )),
        _ => None,
    }
}

/// The cards each side played last turn (`last_played`, what Apollo
/// copies) are cards of the deck too: each is a copy of its face or an
/// Apollo that copied it (2.1), and the two sides played two cards. On a
/// later turn of the year they are among the cards revealed this year
/// (`played_earlier`, when listed), else out of the hands, discards and
/// plays; on a year's first turn they were played last year, before the
/// deck was shuffled again (8.6), so only the two of them must fit the deck.
fn last_played_cards(game: &Game, p: &Position, used: &[(CardFace, usize)]) -> Vec<PositionError> {
    let apollo = CardFace::Event(Event::Apollo);
    let count = |cards: &[(CardFace, usize)], face: CardFace| {
        cards.iter().find(|(f, _)| *f == face).map_or(0, |c| c.1)
    };
    let copies = |face: CardFace| game.deck.iter().filter(|&&c| game.card(c) == face).count();
    // Cards still free for a last-played card: revealed earlier this year
    // (taken first), then any copy no list holds.
    let mut earlier: Vec<(CardFace, usize)> = Vec::new();
    let mut free: Vec<(CardFace, usize)> = Vec::new();
    for &c in game.deck.iter() {
        let face = game.card(c);
        if !free.iter().any(|(f, _)| *f == face) {
            let left = if p.turn > 1 {
                copies(face).saturating_sub(count(used, face))
            } else {
                copies(face)
            };
            free.push((face, left));
        }
    }
    if p.turn > 1 {
        for &c in &p.played_earlier {
            let face = game.card(c);
            match earlier.iter_mut().find(|(f, _)| *f == face) {
                Some((_, n)) => *n += 1,
                None => earlier.push((face, 1)),
            }
        }
    }
    let take = |cards: &mut Vec<(CardFace, usize)>, face: CardFace| {
        cards
            .iter_mut()
            .find(|(f, n)| *f == face && *n > 0)
            .map(|(_, n)| *n -= 1)
            .is_some()
    };
    let mut errors = Vec::new();
    for side in Side::BOTH {
        let Some(face) = p.last_played[side.index()] else {
            continue;
        };
        // Its own face before an Apollo: an Apollo may copy any card.
        let found = [face, apollo]
            .into_iter()
            .any(|f| take(&mut earlier, f) || take(&mut free, f));
        if !found {
            errors.push(PositionError::LastPlayed {
                side,
                card: face.name(),
                why: if p.turn > 1 {
                    "every copy is in a hand, discarded, played this turn or the other side's last card"
                } else {
                    "the other side's last card was that copy"
                },
            });
        }
    }
    errors
}

/// Everything wrong with a position that can be told without playing it.
fn check(game: &Game, p: &Position) -> Vec<PositionError> {
    let rules = &game.rules;
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
    check_blocks(game, p, &mut errors);
    check_cards(game, p, &mut errors);
    check_hands(game, p, &mut errors);
    for (index, &value) in p.dice.iter().enumerate() {
        if !(1..=6).contains(&value) {
            errors.push(PositionError::Die { index, value });
        }
    }
    errors
}

/// Each block once, on its side (or a side it may defect to), at a strength
/// it has, on terrain it may stand on; no space held by both sides.
fn check_blocks(game: &Game, p: &Position, errors: &mut Vec<PositionError>) {
    let roster = game.roster();
    let board = game.board();
    let mut seen = vec![false; roster.blocks.len()];
    let mut on_map = Vec::new();
    for (entry, placed) in p.blocks.iter().enumerate() {
        let b = placed.block;
        let block = roster.block(b);
        let name = block.name.clone();
        if std::mem::replace(&mut seen[b.index()], true) {
            errors.push(PositionError::BlockTwice {
                block: b,
                name,
                entry,
            });
            continue;
        }
        if placed.side != block.side
            && let Some(why) = cannot_defect(game, block.kind)
        {
            errors.push(PositionError::Defector {
                block: b,
                name: name.clone(),
                side: placed.side,
                why,
                entry,
            });
        }
        match placed.place {
            Place::Map(space) => {
                check_on_map(game, placed, space, name, errors);
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
}

/// A block on the map at `space`: at steps it has, on terrain it may
/// stand on (`name` is the block's, for the errors).
fn check_on_map(
    game: &Game,
    placed: &PlacedBlock,
    space: SpaceId,
    name: String,
    errors: &mut Vec<PositionError>,
) {
    let b = placed.block;
    let block = game.roster().block(b);
    let board = game.board();
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
}

/// No more copies of a card than the deck in play holds; the cards last
/// played consistent with them.
fn check_cards(game: &Game, p: &Position, errors: &mut Vec<PositionError>) {
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
    let copies_of = |face: CardFace| game.deck.iter().filter(|&&c| game.card(c) == face).count();
    for &(face, n) in &used {
        let copies = copies_of(face);
        if n > copies {
            errors.push(PositionError::CardCopies {
                card: face.name(),
                used: n,
                copies,
            });
        }
    }
    errors.extend(last_played_cards(game, p, &used));
}

/// Hands, discards and played cards as the stage allows.
fn check_hands(game: &Game, p: &Position, errors: &mut Vec<PositionError>) {
    let rules = &game.rules;
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
}

/// Every block's state as the position places it, with the trophies each
/// side holds and whether each side has lost a leader (7.51).
fn placed_blocks(game: &Game, position: &Position) -> (Vec<BlockState>, [u8; 2], [bool; 2]) {
    let roster = game.roster();
    let mut blocks: Vec<BlockState> = roster
        .ids()
        .map(|b| BlockState::fresh(POOL, roster.block(b).max_steps, roster.block(b).side))
        .collect();
    let mut trophies = [0u8; 2];
    let mut leader_died = [false; 2];
    for placed in &position.blocks {
        let (loc, steps) = match placed.place {
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
        blocks[placed.block.index()] = BlockState::fresh(loc, steps, placed.side);
    }
    (blocks, trophies, leader_died)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn game_with(change: impl FnOnce(&mut crate::scenario::rules::RuleSet)) -> Game {
        let published = crate::test_support::published("rules-2.0");
        let mut rules = (*published.rules).clone();
        change(&mut rules);
        Game::new(published.scenario.clone(), Arc::new(rules))
    }

    /// A position with `block` (printed for one side) fighting for `side` at `at`.
    fn with_defector(game: &Game, printed: Side, name: &str, side: Side, at: &str) -> Position {
        let block = game.roster().find(printed, name).unwrap();
        let at = game.board().find(at).unwrap();
        let cards = |n: usize| vec![game.deck_in_play()[n]];
        Position {
            year: 1,
            turn: 2,
            hands: [cards(10), cards(11)],
            blocks: vec![PlacedBlock {
                block,
                side,
                place: Place::Map(at),
                steps: 1,
            }],
            ..Position::default()
        }
    }

    fn defector_errors(game: &Game, position: &Position) -> Vec<String> {
        match State::from_position(game, position) {
            Ok(_) => Vec::new(),
            Err(errors) => errors
                .iter()
                .filter(|e| matches!(e, PositionError::Defector { .. }))
                .map(|e| e.to_string())
                .collect(),
        }
    }

    #[test]
    fn rule_jupiter_a_navis_never_defects() {
        // 2.0 and 1.1, Jupiter: "Leaders and Navis do not defect".
        let game = crate::test_support::published("rules-2.0");
        let navis = with_defector(&game, Side::Caesar, "Navis 2", Side::Pompey, "Neapolis");
        assert_eq!(
            defector_errors(&game, &navis),
            ["Navis 2 cannot fight for Pompey: a navis does not defect (Jupiter)"]
        );
        let legion = with_defector(&game, Side::Caesar, "Legio 8", Side::Pompey, "Neapolis");
        assert!(defector_errors(&game, &legion).is_empty());
    }

    #[test]
    fn rule_jupiter_cleopatra_defects_only_where_the_rule_set_lets_her() {
        let position = |game: &Game| {
            with_defector(game, Side::Pompey, "Cleopatra", Side::Caesar, "Alexandria")
        };
        let published = crate::test_support::published("rules-2.0");
        assert!(defector_errors(&published, &position(&published)).is_empty());
        let loyal = game_with(|r| r.jupiter_cleopatra_defects = false);
        assert_eq!(
            defector_errors(&loyal, &position(&loyal)),
            [format!(
                "Cleopatra cannot fight for Caesar: Cleopatra does not defect under {} (Jupiter)",
                loyal.rules.name
            )]
        );
    }

    #[test]
    fn rule_jupiter_without_jupiter_in_the_deck_no_block_defects() {
        let game = game_with(|r| r.removed_cards = vec!["Jupiter".into()]);
        let legion = with_defector(&game, Side::Caesar, "Legio 8", Side::Pompey, "Neapolis");
        let errors = defector_errors(&game, &legion);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("has no Jupiter"), "{errors:?}");
    }
}
