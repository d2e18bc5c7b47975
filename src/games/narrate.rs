//! The one renderer of the engine's events ([`GameEvent`]) into words: the
//! CLI's trace (`play`), records' human-readable view (`replay`), the
//! Replay tab's record and the game log's lines all come from here, so
//! they cannot tell one game two ways.
//!
//! One convention names sides and blocks, so the side and the leader of
//! the same name never read alike: a side is always "Pompey's side"; a
//! block is "Antonius (Pompey's side)", and a leader named for his side is
//! "the Pompey block". A reader that is one side sees the other side's
//! hidden things as a player across the table does ([`Reader`]): "Pompey's
//! side levies a block in Tarsus".

use crate::engine::events::Orders;
use crate::engine::{Game, GameEvent, Log};
use crate::scenario::model::{BlockId, Side, SpaceId};

/// Who reads the events, and which blocks they may name.
pub struct Reader<'a> {
    /// `None`: everything (the record's text).
    pub side: Option<Side>,
    /// Whether the reader knows a block (names it) at this point.
    pub knows: &'a dyn Fn(BlockId) -> bool,
}

impl Reader<'_> {
    /// The reader who sees everything.
    pub const ALL: Reader<'static> = Reader {
        side: None,
        knows: &|_| true,
    };

    fn sees_secrets_of(&self, side: Side) -> bool {
        self.side.is_none_or(|s| s == side)
    }
}

/// A side as the subject of a line: "Caesar's side".
pub fn side_words(side: Side) -> String {
    format!("{side}'s side")
}

/// A leader named for a side ("the Pompey block"); any other block by name.
pub fn block_name(game: &Game, b: BlockId) -> String {
    let name = game.block_name(b);
    if Side::BOTH.iter().any(|s| s.to_string() == name) {
        format!("the {name} block")
    } else {
        name.to_string()
    }
}

/// A block of `side` as the reader may name it: "Antonius (Pompey's side)",
/// "the Pompey block", or "a block of Pompey's side".
pub fn block_words(game: &Game, reader: &Reader, side: Side, b: BlockId) -> String {
    if !(reader.knows)(b) {
        return format!("a block of {}", side_words(side));
    }
    let name = block_name(game, b);
    if name.starts_with("the ") {
        name
    } else {
        format!("{name} ({})", side_words(side))
    }
}

/// "1 hit", "2 hits".
fn count(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

pub use crate::scenario::kinds::roman;

fn dice_words(dice: &[u8]) -> String {
    dice.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

fn capitalised(text: String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if c.is_lowercase() => c.to_uppercase().chain(chars).collect(),
        _ => text,
    }
}

/// The event in words as `reader` may know it.
pub fn words(game: &Game, event: &GameEvent, reader: &Reader) -> String {
    let text = turn_words(game, event, reader)
        .or_else(|| command_words(game, event, reader))
        .or_else(|| event_card_words(game, event, reader))
        .or_else(|| battle_words(game, event, reader))
        .unwrap_or_else(|| winter_words(game, event, reader));
    capitalised(text)
}

/// The year's cards and the turn's order (2.x).
fn turn_words(game: &Game, event: &GameEvent, reader: &Reader) -> Option<String> {
    let text = match event {
        GameEvent::Dealt { year, side, cards } => {
            if reader.sees_secrets_of(*side) {
                let cards: Vec<String> = cards.iter().map(|c| game.card_label(*c)).collect();
                format!(
                    "Year {year}: {} is dealt {}",
                    side_words(*side),
                    cards.join(", ")
                )
            } else {
                format!(
                    "Year {year}: {} is dealt {}",
                    side_words(*side),
                    count(cards.len() as u32, "card", "cards")
                )
            }
        }
        GameEvent::Discarded { side, card } if reader.sees_secrets_of(*side) => format!(
            "{} discards {} (unseen)",
            side_words(*side),
            game.card_label(*card)
        ),
        GameEvent::Discarded { side, .. } => format!("{} discards a card", side_words(*side)),
        GameEvent::CardsRevealed { year, turn, played } => format!(
            "Year {year} turn {turn}: Caesar's side plays {}, Pompey's side plays {}",
            game.card_label(played[0]),
            game.card_label(played[1])
        ),
        GameEvent::ApolloCopies { side, copied } => {
            format!("{}'s Apollo copies {}", side_words(*side), copied.name())
        }
        GameEvent::EventsCancel => {
            "Both sides play event cards: both are cancelled and the turn ends".to_string()
        }
        GameEvent::PlayerOrder { player1 } => format!(
            "Player 1 is {}, Player 2 is {}",
            side_words(*player1),
            side_words(player1.other())
        ),
        GameEvent::OrdersGiven {
            side,
            player,
            orders,
        } => {
            let what = match orders {
                Orders::Command { moves, levy } => format!(
                    "{}, {}",
                    count(u32::from(*moves), "move", "moves"),
                    count(u32::from(*levy), "levy", "levies")
                ),
                Orders::Event(e) => format!("event {e:?}"),
                Orders::Nothing => "no orders".to_string(),
            };
            format!("{} (Player {player}): {what}", side_words(*side))
        }
        _ => return None,
    };
    Some(text)
}

/// Group moves and levies (6.x).
fn command_words(game: &Game, event: &GameEvent, reader: &Reader) -> Option<String> {
    let space = |s: SpaceId| game.space_name(s).to_string();
    let block = |side: Side, b: BlockId| block_words(game, reader, side, b);
    let text = match event {
        GameEvent::GroupMoves { side, from } => {
            format!("{} moves a group from {}", side_words(*side), space(*from))
        }
        GameEvent::BlockMoved {
            side,
            block: b,
            from,
            to,
            attack,
        } => format!(
            "{} moves {} -> {}{}",
            block(*side, *b),
            space(*from),
            space(*to),
            if *attack { " (attack)" } else { "" }
        ),
        GameEvent::BlockSailed {
            side,
            block: b,
            from,
            to,
            seas,
        } => {
            let seas: Vec<String> = seas.iter().map(|s| space(*s)).collect();
            format!(
                "{} sails {} -> {} across {}",
                block(*side, *b),
                space(*from),
                space(*to),
                seas.join(", ")
            )
        }
        GameEvent::MainAttackDeclared {
            side,
            space: at,
            from,
        } => format!(
            "{} declares the main attack on {} from {}",
            side_words(*side),
            space(*at),
            space(*from)
        ),
        GameEvent::SurpriseNamed {
            side,
            space: Some(at),
        } if reader.sees_secrets_of(*side) => {
            format!(
                "{} names the battle of {} for the surprise attack",
                side_words(*side),
                space(*at)
            )
        }
        GameEvent::SurpriseNamed { side, space: named } => format!(
            "{} names {} for the surprise attack",
            side_words(*side),
            if named.is_some() {
                "a battle"
            } else {
                "no battle"
            }
        ),
        GameEvent::Levied { side, block: b, at } => format!(
            "{} levies {} in {}",
            side_words(*side),
            if (reader.knows)(*b) {
                block_name(game, *b)
            } else {
                "a block".to_string()
            },
            space(*at)
        ),
        GameEvent::StepAdded {
            side,
            block: b,
            strength,
        } if (reader.knows)(*b) => format!(
            "{} adds a step to {} (now {})",
            side_words(*side),
            block_name(game, *b),
            roman(*strength)
        ),
        GameEvent::StepAdded { side, .. } => {
            format!("{} adds a step to a block", side_words(*side))
        }
        _ => return None,
    };
    Some(text)
}

/// The event cards' strikes: Jupiter's pick and defections, Vulcan.
fn event_card_words(game: &Game, event: &GameEvent, reader: &Reader) -> Option<String> {
    let space = |s: SpaceId| game.space_name(s).to_string();
    let block = |side: Side, b: BlockId| block_words(game, reader, side, b);
    let text = match event {
        GameEvent::JupiterPick {
            side,
            at,
            among,
            dice,
            block: b,
        } => {
            let taken = block(side.other(), *b);
            if dice.is_empty() {
                format!(
                    "Jupiter takes the one block it may in {}: {taken}",
                    space(*at)
                )
            } else {
                format!(
                    "Jupiter: {} rolls {} among {} blocks in {}: {taken}",
                    side_words(*side),
                    dice_words(dice),
                    among,
                    space(*at)
                )
            }
        }
        GameEvent::Defects { block: b, to, at } => format!(
            "Jupiter: {} defects to {} in {}",
            block_name(game, *b),
            side_words(*to),
            space(*at)
        ),
        GameEvent::RefusesToDefect { block: b } => format!(
            "Jupiter: {} does not defect and loses a step",
            block_name(game, *b)
        ),
        GameEvent::VulcanStrikes { side, city } => {
            format!("Vulcan: {} strikes {}", side_words(*side), space(*city))
        }
        GameEvent::EventWithoutEffect { side } => {
            format!("{}'s event has no effect", side_words(*side))
        }
        _ => return None,
    };
    Some(text)
}

/// Battles (7.x) and eliminations (7.5).
fn battle_words(game: &Game, event: &GameEvent, reader: &Reader) -> Option<String> {
    let space = |s: SpaceId| game.space_name(s).to_string();
    let block = |side: Side, b: BlockId| block_words(game, reader, side, b);
    let text = match event {
        GameEvent::BattleBegins {
            space: at,
            attacker,
        } => format!(
            "Battle of {}: {} attacks {}",
            space(*at),
            side_words(*attacker),
            side_words(attacker.other())
        ),
        GameEvent::SurpriseAttack { side } => {
            format!("{} springs a surprise attack", side_words(*side))
        }
        GameEvent::BattleRound { round, .. } => format!("Round {round}"),
        GameEvent::TakesTurn { side, block: b } => format!("{} takes its turn", block(*side, *b)),
        GameEvent::Passes { side, block: b } => format!("{} passes", block(*side, *b)),
        GameEvent::Fire {
            side,
            block: b,
            dice,
            hits,
            ..
        } => format!(
            "{} fires {}: {}",
            block(*side, *b),
            dice_words(dice),
            match hits {
                0 => "no hit".to_string(),
                n => count(u32::from(*n), "hit", "hits"),
            }
        ),
        GameEvent::StepLost {
            side,
            block: b,
            strength: 0,
        } => format!("{} loses its last step", block(*side, *b)),
        GameEvent::StepLost {
            side,
            block: b,
            strength,
        } => format!(
            "{} loses a step, now {}",
            block(*side, *b),
            roman(*strength)
        ),
        GameEvent::ReservesDisrupted { side } => {
            format!("{}'s reserves are disrupted", side_words(*side))
        }
        GameEvent::BecomesAttacker { side } => {
            format!("{} becomes the attacker", side_words(*side))
        }
        GameEvent::Retreats { side, block: b, to } => {
            format!("{} retreats to {}", block(*side, *b), space(*to))
        }
        GameEvent::CannotRetreat { side, block: b } => {
            format!("{} cannot retreat", block(*side, *b))
        }
        GameEvent::BattleEnds {
            space: at,
            winner: Some(w),
        } => format!("{} wins the battle of {}", side_words(*w), space(*at)),
        GameEvent::BattleEnds { space: at, .. } => {
            format!("The battle of {} leaves it empty", space(*at))
        }
        GameEvent::Regroups { side, block: b, to } => {
            format!("{} regroups to {}", block(*side, *b), space(*to))
        }
        GameEvent::Eliminated { side, block: b } => format!(
            "{} is eliminated",
            block_words(game, &Reader::ALL, *side, *b)
        ),
        GameEvent::LeaderKilled { side, block: b } => format!(
            "{} is killed: a trophy for {}",
            block_words(game, &Reader::ALL, *side, *b),
            side_words(side.other())
        ),
        GameEvent::CleopatraChangesSides { to } => {
            format!("Cleopatra joins {} at strength I", side_words(*to))
        }
        _ => return None,
    };
    Some(text)
}

/// The winter (8.x) and the game's end.
fn winter_words(game: &Game, event: &GameEvent, reader: &Reader) -> String {
    let space = |s: SpaceId| game.space_name(s).to_string();
    let block = |side: Side, b: BlockId| block_words(game, reader, side, b);
    match event {
        GameEvent::WinterBegins { year } => format!("Winter of year {year}"),
        GameEvent::CleopatraReturns {
            joins: Some(side), ..
        } => format!(
            "Cleopatra returns to Alexandria and joins {}",
            side_words(*side)
        ),
        GameEvent::CleopatraReturns { joins: None, .. } => "Cleopatra returns to Alexandria".into(),
        GameEvent::VictoryCheck {
            vp,
            target,
            decided,
            ..
        } => format!(
            "Victory check: Caesar's side {} VP, Pompey's side {} VP ({target} wins){}",
            vp[0],
            vp[1],
            if *decided {
                ": the game ends"
            } else {
                ": the war goes on"
            }
        ),
        GameEvent::NavisToPort {
            side, block: b, to, ..
        } => format!("{} winters in {}", block(*side, *b), space(*to)),
        GameEvent::NavisLost { side, block: b } => format!(
            "{} finds no friendly port and is disbanded",
            block(*side, *b)
        ),
        GameEvent::Disbanded { side, block: b } => {
            format!("{} disbands {}", side_words(*side), block(*side, *b))
        }
        GameEvent::GameOver {
            winner: Some(w),
            how,
            vp,
        } => format!(
            "Game over: {} wins ({how}), VP {} - {}",
            side_words(*w),
            vp[0],
            vp[1]
        ),
        GameEvent::GameOver { vp, .. } => format!("Game over: a draw, VP {} - {}", vp[0], vp[1]),
        // Every other event is told by the functions `words` asks first.
        other => format!("{other:?}"),
    }
}

/// The event as a line of the printed record (`play`, `replay`): headings
/// marked `==` / `--`, a battle's lines indented under it.
pub fn record_line(game: &Game, event: &GameEvent) -> String {
    let text = words(game, event, &Reader::ALL);
    match event {
        GameEvent::CardsRevealed { .. } | GameEvent::WinterBegins { .. } => format!("== {text}"),
        GameEvent::OrdersGiven { .. } => format!("-- {text}"),
        GameEvent::BlockMoved { .. } | GameEvent::BlockSailed { .. } => format!("  {text}"),
        e if is_battle_event(e) => format!("  {text}"),
        _ => text,
    }
}

/// Lines told inside a battle (indented in the record).
pub fn is_battle_event(event: &GameEvent) -> bool {
    matches!(
        event,
        GameEvent::SurpriseAttack { .. }
            | GameEvent::BattleRound { .. }
            | GameEvent::TakesTurn { .. }
            | GameEvent::Passes { .. }
            | GameEvent::Fire { .. }
            | GameEvent::StepLost { .. }
            | GameEvent::ReservesDisrupted { .. }
            | GameEvent::BecomesAttacker { .. }
            | GameEvent::Retreats { .. }
            | GameEvent::CannotRetreat { .. }
            | GameEvent::BattleEnds { .. }
            | GameEvent::Regroups { .. }
    )
}

/// The printed record of `events`.
pub fn record_lines(game: &Game, events: &[GameEvent]) -> Vec<String> {
    events.iter().map(|e| record_line(game, e)).collect()
}

/// A [`Log`] that keeps the printed record's lines (for callers that want
/// text only).
pub struct Narrated<'g> {
    pub game: &'g Game,
    pub lines: Vec<String>,
}

impl<'g> Narrated<'g> {
    pub fn new(game: &'g Game) -> Self {
        Narrated {
            game,
            lines: Vec::new(),
        }
    }
}

impl Log for Narrated<'_> {
    fn enabled(&self) -> bool {
        true
    }
    fn event(&mut self, event: GameEvent) {
        self.lines.push(record_line(self.game, &event));
    }
}
