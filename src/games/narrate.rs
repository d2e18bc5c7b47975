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
//! side levies a block in Tarsus". An action a side took reads so too
//! ([`action_text_seen`], for positions shown one action at a time).

use crate::engine::events::Orders;
use crate::engine::{Action, Game, GameEvent, GameStats, State};
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
            ..
        } => format!("{} loses its last step", block(*side, *b)),
        GameEvent::StepLost {
            side,
            block: b,
            strength,
            ..
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
        GameEvent::Retreats {
            side, block: b, to, ..
        } => {
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
        GameEvent::Eliminated { side, block: b, .. } => format!(
            "{} is eliminated",
            block_words(game, &Reader::ALL, *side, *b)
        ),
        GameEvent::LeaderKilled { side, block: b, .. } => format!(
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

/// What a line tells of: the window styles lines by it, and its battle
/// panel picks a battle's lines (from its beginning to its end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// A side's doing: a move, a levy, an order, a retreat.
    Action,
    /// A whole group move (6.1) in one line ([`GroupMove`]).
    Group,
    /// A block firing (its dice on the line).
    Fire,
    /// A step lost, a block eliminated or changing sides.
    Hit,
    /// A battle begins (its heading).
    BattleBegins,
    /// A new battle round.
    Round,
    /// A battle is over: who holds the space.
    BattleOver,
    /// Anything else: cards, the order of play, the winter, the game's end.
    Note,
}

/// Where a line stands in the printed record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A turn's cards or a winter: "== ".
    Heading,
    /// A side's orders: "-- ".
    Orders,
    /// A block's move, or a line inside a battle: indented.
    Indented,
    Plain,
}

/// One line of a game's story as a reader may know it: what the window's
/// log, its battle panel, Replay, `play` and `replay` all show.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub kind: LineKind,
    pub mark: Mark,
    pub text: String,
    /// Where it happened, when the event says (a fire's is its battle's).
    pub space: Option<SpaceId>,
    /// Whose doing or loss (its colour).
    pub side: Option<Side>,
    /// A fire's dice: each face, and whether it hit (7.4).
    pub dice: Vec<(u8, bool)>,
}

impl Line {
    /// The line as the printed record (`play`, `replay`) shows it.
    pub fn record_text(&self) -> String {
        match self.mark {
            Mark::Heading => format!("== {}", self.text),
            Mark::Orders => format!("-- {}", self.text),
            Mark::Indented => format!("  {}", self.text),
            Mark::Plain => self.text.clone(),
        }
    }
}

/// The event as a line for `reader`, or `None` when the reader is not told
/// of it at all (Cleopatra going home, 8.1, moves a hidden block).
pub fn line(game: &Game, event: &GameEvent, reader: &Reader) -> Option<Line> {
    if let GameEvent::CleopatraReturns { block, side, .. } = event
        && !(reader.sees_secrets_of(*side) || (reader.knows)(*block))
    {
        return None;
    }
    let dice = match event {
        GameEvent::Fire { dice, hit_max, .. } => dice.iter().map(|&d| (d, d <= *hit_max)).collect(),
        _ => Vec::new(),
    };
    Some(Line {
        kind: kind_of(event),
        mark: mark_of(event),
        text: words(game, event, reader),
        space: space_of(event),
        side: side_of(event),
        dice,
    })
}

/// The event as a line of the printed record (`play`, `replay`): headings
/// marked `==` / `--`, moves and a battle's lines indented.
pub fn record_line(game: &Game, event: &GameEvent) -> String {
    line(game, event, &Reader::ALL)
        .map(|l| l.record_text())
        .unwrap_or_default()
}

fn mark_of(event: &GameEvent) -> Mark {
    match event {
        GameEvent::CardsRevealed { .. } | GameEvent::WinterBegins { .. } => Mark::Heading,
        GameEvent::OrdersGiven { .. } => Mark::Orders,
        GameEvent::BlockMoved { .. } | GameEvent::BlockSailed { .. } => Mark::Indented,
        e if is_battle_event(e) => Mark::Indented,
        _ => Mark::Plain,
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

/// What the event's line tells of. Every kind is listed, so a new event
/// is placed here before it compiles.
fn kind_of(event: &GameEvent) -> LineKind {
    use GameEvent as E;
    match event {
        E::Fire { .. } => LineKind::Fire,
        E::StepLost { .. }
        | E::Eliminated { .. }
        | E::LeaderKilled { .. }
        | E::Defects { .. }
        | E::RefusesToDefect { .. }
        | E::CleopatraChangesSides { .. } => LineKind::Hit,
        E::BattleBegins { .. } => LineKind::BattleBegins,
        E::BattleRound { .. } => LineKind::Round,
        E::BattleEnds { .. } => LineKind::BattleOver,
        E::Discarded { .. }
        | E::ApolloCopies { .. }
        | E::OrdersGiven { .. }
        | E::GroupMoves { .. }
        | E::BlockMoved { .. }
        | E::BlockSailed { .. }
        | E::MainAttackDeclared { .. }
        | E::SurpriseNamed { .. }
        | E::Levied { .. }
        | E::StepAdded { .. }
        | E::JupiterPick { .. }
        | E::VulcanStrikes { .. }
        | E::EventWithoutEffect { .. }
        | E::SurpriseAttack { .. }
        | E::TakesTurn { .. }
        | E::Passes { .. }
        | E::ReservesDisrupted { .. }
        | E::BecomesAttacker { .. }
        | E::Retreats { .. }
        | E::CannotRetreat { .. }
        | E::Regroups { .. }
        | E::NavisToPort { .. }
        | E::NavisLost { .. }
        | E::Disbanded { .. } => LineKind::Action,
        E::Dealt { .. }
        | E::CardsRevealed { .. }
        | E::EventsCancel
        | E::PlayerOrder { .. }
        | E::WinterBegins { .. }
        | E::CleopatraReturns { .. }
        | E::VictoryCheck { .. }
        | E::GameOver { .. } => LineKind::Note,
    }
}

/// The side whose doing or loss the event is (a line's colour).
fn side_of(event: &GameEvent) -> Option<Side> {
    use GameEvent as E;
    match event {
        E::Dealt { side, .. }
        | E::Discarded { side, .. }
        | E::ApolloCopies { side, .. }
        | E::OrdersGiven { side, .. }
        | E::GroupMoves { side, .. }
        | E::BlockMoved { side, .. }
        | E::BlockSailed { side, .. }
        | E::MainAttackDeclared { side, .. }
        | E::SurpriseNamed { side, .. }
        | E::Levied { side, .. }
        | E::StepAdded { side, .. }
        | E::JupiterPick { side, .. }
        | E::VulcanStrikes { side, .. }
        | E::EventWithoutEffect { side }
        | E::SurpriseAttack { side }
        | E::TakesTurn { side, .. }
        | E::Passes { side, .. }
        | E::Fire { side, .. }
        | E::StepLost { side, .. }
        | E::ReservesDisrupted { side }
        | E::BecomesAttacker { side }
        | E::Retreats { side, .. }
        | E::CannotRetreat { side, .. }
        | E::Regroups { side, .. }
        | E::Eliminated { side, .. }
        | E::LeaderKilled { side, .. }
        | E::NavisToPort { side, .. }
        | E::NavisLost { side, .. }
        | E::Disbanded { side, .. } => Some(*side),
        E::Defects { to, .. } | E::CleopatraChangesSides { to } => Some(*to),
        E::BattleBegins { attacker, .. } => Some(*attacker),
        E::BattleEnds { winner, .. } => *winner,
        E::CardsRevealed { .. }
        | E::EventsCancel
        | E::PlayerOrder { .. }
        | E::RefusesToDefect { .. }
        | E::BattleRound { .. }
        | E::WinterBegins { .. }
        | E::CleopatraReturns { .. }
        | E::VictoryCheck { .. }
        | E::GameOver { .. } => None,
    }
}

/// Where the event happened, when it says.
fn space_of(event: &GameEvent) -> Option<SpaceId> {
    use GameEvent as E;
    match event {
        E::GroupMoves { from, .. } => Some(*from),
        E::BlockMoved { to, .. }
        | E::BlockSailed { to, .. }
        | E::Retreats { to, .. }
        | E::Regroups { to, .. }
        | E::NavisToPort { to, .. } => Some(*to),
        E::MainAttackDeclared { space, .. }
        | E::BattleBegins { space, .. }
        | E::BattleRound { space, .. }
        | E::BattleEnds { space, .. } => Some(*space),
        E::SurpriseNamed { space, .. } => *space,
        E::Levied { at, .. } | E::JupiterPick { at, .. } | E::Defects { at, .. } => Some(*at),
        E::VulcanStrikes { city, .. } => Some(*city),
        _ => None,
    }
}

/// A group move (6.1) told in one line as it goes, each block's way so far:
/// "Pompey's side moves 3 blocks from Antiochia to Tarsus to Ancyra". The
/// window's log folds a group's moves into it, so an AI's long turns do
/// not flood the log; blocks the reader may not name are counted.
#[derive(Debug, Clone)]
pub struct GroupMove {
    side: Side,
    from: SpaceId,
    ways: Vec<Way>,
    /// The space a block of it entered last (where the map points).
    at: SpaceId,
    /// The group is over.
    ended: bool,
}

#[derive(Debug, Clone)]
struct Way {
    block: BlockId,
    named: bool,
    start: SpaceId,
    hops: Vec<(SpaceId, bool)>,
}

impl GroupMove {
    /// The group that `event` begins, if it begins one.
    pub fn begun_by(event: &GameEvent) -> Option<GroupMove> {
        match event {
            GameEvent::GroupMoves { side, from } => Some(GroupMove {
                side: *side,
                from: *from,
                ways: Vec::new(),
                at: *from,
                ended: false,
            }),
            _ => None,
        }
    }

    /// Adds a block's move (`BlockMoved` or `BlockSailed`) to the group's
    /// way; false for any other event.
    pub fn add(&mut self, event: &GameEvent, reader: &Reader) -> bool {
        let (block, from, to, by_sea) = match event {
            GameEvent::BlockMoved {
                block, from, to, ..
            } => (*block, *from, *to, false),
            GameEvent::BlockSailed {
                block, from, to, ..
            } => (*block, *from, *to, true),
            _ => return false,
        };
        self.at = to;
        match self.ways.iter_mut().find(|w| w.block == block) {
            Some(w) => w.hops.push((to, by_sea)),
            None => self.ways.push(Way {
                block,
                named: (reader.knows)(block),
                start: from,
                hops: vec![(to, by_sea)],
            }),
        }
        true
    }

    /// The group is over: a group that moved nothing says so.
    pub fn end(&mut self) {
        self.ended = true;
    }

    /// The group's line so far, at the last space a block entered.
    pub fn line(&self, game: &Game) -> Line {
        Line {
            kind: LineKind::Group,
            mark: Mark::Plain,
            text: self.words(game),
            space: Some(self.at),
            side: Some(self.side),
            dice: Vec::new(),
        }
    }

    fn words(&self, game: &Game) -> String {
        let side = side_words(self.side);
        let from = game.space_name(self.from);
        if self.ways.is_empty() {
            return if self.ended {
                format!("{side} starts a group move from {from} and moves no block")
            } else {
                format!("{side} moves a group from {from}")
            };
        }
        let routes = self.routes(game);
        if let [(route, ways)] = routes.as_slice() {
            return format!("{side} moves {} from {from}{route}", who(game, ways));
        }
        let each: Vec<String> = routes
            .iter()
            .map(|(route, ways)| format!("{}{route}", who(game, ways)))
            .collect();
        format!("{side} moves a group from {from}: {}", each.join("; "))
    }

    /// The ways taken, each with the blocks that took it, in order.
    fn routes(&self, game: &Game) -> Vec<(String, Vec<&Way>)> {
        let mut routes: Vec<(String, Vec<&Way>)> = Vec::new();
        for w in &self.ways {
            let mut route = String::new();
            if w.start != self.from {
                route = format!(" from {}", game.space_name(w.start));
            }
            for &(to, by_sea) in &w.hops {
                route.push_str(" to ");
                route.push_str(game.space_name(to));
                if by_sea {
                    route.push_str(" by sea");
                }
            }
            match routes.iter_mut().find(|(r, _)| *r == route) {
                Some((_, ws)) => ws.push(w),
                None => routes.push((route, vec![w])),
            }
        }
        routes
    }
}

/// The blocks of one way: named ones by name, the rest counted.
fn who(game: &Game, ways: &[&Way]) -> String {
    let mut parts: Vec<String> = ways
        .iter()
        .filter(|w| w.named)
        .map(|w| block_name(game, w.block))
        .collect();
    match ways.iter().filter(|w| !w.named).count() {
        0 => {}
        1 => parts.push("a block".into()),
        n => parts.push(format!("{n} blocks")),
    }
    match parts.pop() {
        Some(last) if !parts.is_empty() => format!("{} and {last}", parts.join(", ")),
        Some(last) => last,
        None => String::new(),
    }
}

/// The first line of a game's printed record: the game, its seed (or what
/// it began from) and its players.
pub fn header(game: &Game, seed: &str, [caesar, pompey]: [&str; 2]) -> String {
    format!(
        "{} under {}, seed {seed}: Caesar {caesar} vs Pompey {pompey}",
        game.scenario.name, game.rules.name
    )
}

/// The last line of a game's printed record: its battles and losses.
pub fn stats_line(stats: &GameStats) -> String {
    let s = stats;
    format!(
        "Battles {}, steps lost Caesar {} Pompey {}, leaders killed Caesar {} Pompey {}",
        s.battles, s.steps_lost[0], s.steps_lost[1], s.leaders_killed[0], s.leaders_killed[1]
    )
}

/// `action`, taken from `before` to `after`, in the words `viewer` may know
/// it by: the whole words ([`Game::action_text`]) for the viewer's own
/// decisions and for what the table sees; for the other side's, no card it
/// discards or plays face down (2.1), no surprise battle it names (hidden
/// until fought), and no block the viewer cannot identify, neither before
/// nor after (blocks stand face down, 4.1; where one stands and moves is
/// seen): "Move a block from Roma to Capua".
pub fn action_text_seen(
    game: &Game,
    before: &State,
    after: &State,
    action: Action,
    viewer: Side,
) -> String {
    if before
        .current_player()
        .is_none_or(|decider| decider == viewer)
    {
        return game.action_text(action);
    }
    let (seen_before, seen_after) = (before.view(viewer, false), after.view(viewer, false));
    let hidden = |b: BlockId| !seen_before.knows(game, b) && !seen_after.knows(game, b);
    let space = |s: SpaceId| game.space_name(s).to_string();
    let at = |b: BlockId| {
        before
            .location(b)
            .map_or_else(|| "the pool".to_string(), space)
    };
    match action {
        Action::Discard(_) => "Discard a card (unseen)".into(),
        Action::Play(_) => "Play a card (face down)".into(),
        Action::Surprise(_) => "Name the surprise attack, or none (hidden until fought)".into(),
        Action::Step { block, to } if hidden(block) => {
            format!("Move a block from {} to {}", at(block), space(to))
        }
        Action::SeaMove { block, to } if hidden(block) => {
            format!("Sea move a block from {} to {}", at(block), space(to))
        }
        Action::Levy { block, at } if hidden(block) => format!("Levy a block in {}", space(at)),
        Action::AddStep(b) if hidden(b) => format!("Add a step to a block in {}", at(b)),
        Action::TakeHit(b) if hidden(b) => format!("A block in {} takes the hit", at(b)),
        Action::TakeTurn(b) if hidden(b) => format!("A block in {} takes its turn", at(b)),
        Action::Regroup { block, to } if hidden(block) => {
            format!("Regroup a block from {} to {}", at(block), space(to))
        }
        Action::NavisToPort { block, to } if hidden(block) => {
            format!("A block at {} winters in {}", at(block), space(to))
        }
        Action::Disband(b) if hidden(b) => format!("Disband a block in {}", at(b)),
        _ => game.action_text(action),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EndReason;
    use crate::scenario::model::{CardFace, Event};

    /// Which kind an event is; listing every kind, so a new one must be
    /// given a sample below before this compiles.
    fn kind_index(event: &GameEvent) -> usize {
        use GameEvent as E;
        match event {
            E::Dealt { .. } => 0,
            E::Discarded { .. } => 1,
            E::CardsRevealed { .. } => 2,
            E::ApolloCopies { .. } => 3,
            E::EventsCancel => 4,
            E::PlayerOrder { .. } => 5,
            E::OrdersGiven { .. } => 6,
            E::GroupMoves { .. } => 7,
            E::BlockMoved { .. } => 8,
            E::BlockSailed { .. } => 9,
            E::MainAttackDeclared { .. } => 10,
            E::SurpriseNamed { .. } => 11,
            E::Levied { .. } => 12,
            E::StepAdded { .. } => 13,
            E::JupiterPick { .. } => 14,
            E::Defects { .. } => 15,
            E::RefusesToDefect { .. } => 16,
            E::VulcanStrikes { .. } => 17,
            E::EventWithoutEffect { .. } => 18,
            E::BattleBegins { .. } => 19,
            E::SurpriseAttack { .. } => 20,
            E::BattleRound { .. } => 21,
            E::TakesTurn { .. } => 22,
            E::Passes { .. } => 23,
            E::Fire { .. } => 24,
            E::StepLost { .. } => 25,
            E::ReservesDisrupted { .. } => 26,
            E::BecomesAttacker { .. } => 27,
            E::Retreats { .. } => 28,
            E::CannotRetreat { .. } => 29,
            E::BattleEnds { .. } => 30,
            E::Regroups { .. } => 31,
            E::Eliminated { .. } => 32,
            E::LeaderKilled { .. } => 33,
            E::CleopatraChangesSides { .. } => 34,
            E::WinterBegins { .. } => 35,
            E::CleopatraReturns { .. } => 36,
            E::VictoryCheck { .. } => 37,
            E::NavisToPort { .. } => 38,
            E::NavisLost { .. } => 39,
            E::Disbanded { .. } => 40,
            E::GameOver { .. } => 41,
        }
    }
    const KINDS: usize = 42;

    /// The blocks, sides and spaces the sample events name.
    #[derive(Clone, Copy)]
    struct Sample {
        c: Side,
        p: Side,
        legio: BlockId,
        pompey: BlockId,
        cleo: BlockId,
        roma: SpaceId,
        genua: SpaceId,
        sea: SpaceId,
    }

    /// One event of every kind (some kinds twice, in their other forms).
    fn every_kind(game: &Game) -> Vec<GameEvent> {
        let named = |name: &str| {
            game.roster()
                .ids()
                .find(|b| game.block_name(*b) == name)
                .expect("in the roster")
        };
        let s = Sample {
            c: Side::Caesar,
            p: Side::Pompey,
            legio: named("Legio 13"),
            pompey: named("Pompey"),
            cleo: named("Cleopatra"),
            roma: SpaceId(0),
            genua: SpaceId(1),
            sea: SpaceId(2),
        };
        [
            card_and_order_kinds(&s),
            move_and_event_kinds(&s),
            levy_and_event_kinds(&s),
            battle_kinds(&s),
            fire_and_loss_kinds(&s),
            retreat_kinds(&s),
            winter_and_end_kinds(&s),
            victory_and_end_kinds(&s),
        ]
        .concat()
    }

    /// The cards and orders of a turn.
    fn card_and_order_kinds(s: &Sample) -> Vec<GameEvent> {
        use GameEvent as E;
        let Sample { c, p, .. } = *s;
        vec![
            E::Dealt {
                year: 1,
                side: c,
                cards: vec![0, 1],
            },
            E::Discarded { side: p, card: 3 },
            E::CardsRevealed {
                year: 1,
                turn: 2,
                played: [0, 1],
            },
            E::ApolloCopies {
                side: p,
                copied: CardFace::Event(Event::Mars),
            },
            E::EventsCancel,
            E::PlayerOrder { player1: p },
            E::OrdersGiven {
                side: c,
                player: 1,
                orders: Orders::Command { moves: 2, levy: 1 },
            },
            E::OrdersGiven {
                side: p,
                player: 2,
                orders: Orders::Event(Event::Jupiter),
            },
            E::OrdersGiven {
                side: p,
                player: 2,
                orders: Orders::Nothing,
            },
        ]
    }

    /// A turn's moves.
    fn move_and_event_kinds(s: &Sample) -> Vec<GameEvent> {
        use GameEvent as E;
        let Sample {
            c,
            legio,
            roma,
            genua,
            sea,
            ..
        } = *s;
        vec![
            E::GroupMoves {
                side: c,
                from: roma,
            },
            E::BlockMoved {
                side: c,
                block: legio,
                from: roma,
                to: genua,
                attack: true,
            },
            E::BlockSailed {
                side: c,
                block: legio,
                from: roma,
                to: genua,
                seas: vec![sea],
            },
            E::MainAttackDeclared {
                side: c,
                space: roma,
                from: genua,
            },
            E::SurpriseNamed {
                side: c,
                space: Some(roma),
            },
            E::SurpriseNamed {
                side: c,
                space: None,
            },
        ]
    }

    /// A turn's levies and events.
    fn levy_and_event_kinds(s: &Sample) -> Vec<GameEvent> {
        use GameEvent as E;
        let Sample {
            c,
            p,
            legio,
            pompey,
            roma,
            ..
        } = *s;
        vec![
            E::Levied {
                side: c,
                block: legio,
                at: roma,
            },
            E::StepAdded {
                side: c,
                block: legio,
                strength: 3,
            },
            E::JupiterPick {
                side: p,
                at: roma,
                among: 3,
                dice: vec![4],
                block: legio,
            },
            E::JupiterPick {
                side: p,
                at: roma,
                among: 1,
                dice: vec![],
                block: legio,
            },
            E::Defects {
                block: legio,
                to: p,
                at: roma,
            },
            E::RefusesToDefect { block: pompey },
            E::VulcanStrikes {
                side: c,
                city: roma,
            },
            E::EventWithoutEffect { side: p },
        ]
    }

    /// A battle's start and its turns.
    fn battle_kinds(s: &Sample) -> Vec<GameEvent> {
        use GameEvent as E;
        let Sample {
            c,
            p,
            legio,
            pompey,
            roma,
            ..
        } = *s;
        vec![
            E::BattleBegins {
                space: roma,
                attacker: c,
            },
            E::SurpriseAttack { side: c },
            E::BattleRound {
                space: roma,
                round: 2,
            },
            E::TakesTurn {
                side: c,
                block: legio,
            },
            E::Passes {
                side: p,
                block: pompey,
            },
        ]
    }

    /// A battle's fire and losses.
    fn fire_and_loss_kinds(s: &Sample) -> Vec<GameEvent> {
        use GameEvent as E;
        let Sample {
            c, p, legio, roma, ..
        } = *s;
        vec![
            E::Fire {
                side: c,
                block: legio,
                dice: vec![1, 6],
                hit_max: 3,
                hits: 1,
            },
            E::Fire {
                side: c,
                block: legio,
                dice: vec![6],
                hit_max: 3,
                hits: 0,
            },
            E::StepLost {
                side: c,
                block: legio,
                at: roma,
                strength: 2,
            },
            E::StepLost {
                side: c,
                block: legio,
                at: roma,
                strength: 0,
            },
            E::ReservesDisrupted { side: p },
            E::BecomesAttacker { side: p },
        ]
    }

    /// A battle's retreats, its end and regroups.
    fn retreat_kinds(s: &Sample) -> Vec<GameEvent> {
        use GameEvent as E;
        let Sample {
            c,
            p,
            legio,
            pompey,
            roma,
            genua,
            ..
        } = *s;
        vec![
            E::Retreats {
                side: c,
                block: legio,
                to: genua,
                road: None,
            },
            E::CannotRetreat {
                side: c,
                block: legio,
            },
            E::BattleEnds {
                space: roma,
                winner: Some(p),
            },
            E::BattleEnds {
                space: roma,
                winner: None,
            },
            E::Regroups {
                side: p,
                block: pompey,
                to: genua,
            },
            E::Eliminated {
                side: c,
                block: legio,
                at: roma,
            },
            E::LeaderKilled {
                side: p,
                block: pompey,
                at: roma,
            },
        ]
    }

    /// Winter's start and Cleopatra.
    fn winter_and_end_kinds(s: &Sample) -> Vec<GameEvent> {
        use GameEvent as E;
        let Sample { c, p, cleo, .. } = *s;
        vec![
            E::CleopatraChangesSides { to: c },
            E::WinterBegins { year: 2 },
            E::CleopatraReturns {
                block: cleo,
                side: p,
                joins: Some(c),
            },
            E::CleopatraReturns {
                block: cleo,
                side: p,
                joins: None,
            },
        ]
    }

    /// The victory check, the navis and disbanding of winter, and the game's end.
    fn victory_and_end_kinds(s: &Sample) -> Vec<GameEvent> {
        use GameEvent as E;
        let Sample {
            c,
            p,
            legio,
            pompey,
            genua,
            ..
        } = *s;
        vec![
            E::VictoryCheck {
                year: 2,
                vp: [4, 6],
                target: 10,
                decided: false,
            },
            E::VictoryCheck {
                year: 5,
                vp: [10, 6],
                target: 10,
                decided: true,
            },
            E::NavisToPort {
                side: p,
                block: pompey,
                to: genua,
                chosen: true,
            },
            E::NavisLost {
                side: p,
                block: pompey,
            },
            E::Disbanded {
                side: c,
                block: legio,
            },
            E::GameOver {
                winner: Some(c),
                how: EndReason::SuddenDeath,
                vp: [10, 6],
            },
            E::GameOver {
                winner: None,
                how: EndReason::Draw,
                vp: [7, 7],
            },
        ]
    }

    /// Issue 53: every kind of event is told in words of its own (never the
    /// debug form the renderer falls back on), to every reader, with no
    /// side named bare and with the reader's secrets kept.
    #[test]
    fn every_kind_of_event_is_narrated_to_every_reader() {
        let game = crate::test_support::published("rules-2.0");
        let events = every_kind(&game);
        let mut seen = [false; KINDS];
        let nobody = |_: BlockId| false;
        let readers = [
            Reader::ALL,
            Reader {
                side: Some(Side::Caesar),
                knows: &nobody,
            },
            Reader {
                side: Some(Side::Pompey),
                knows: &nobody,
            },
        ];
        for event in &events {
            seen[kind_index(event)] = true;
            let debug = format!("{event:?}");
            let variant = debug.split([' ', '{', '(']).next().unwrap_or_default();
            for reader in &readers {
                let Some(line) = line(&game, event, reader) else {
                    continue;
                };
                assert!(!line.text.is_empty(), "{debug}");
                assert!(
                    !line.text.starts_with(variant),
                    "{debug} reads {:?}",
                    line.text
                );
                assert!(!line.text.contains(['{', '}']), "{:?}", line.text);
                for side in ["Caesar", "Pompey"] {
                    for (i, _) in line.text.match_indices(side) {
                        let after = &line.text[i + side.len()..];
                        assert!(
                            after.starts_with("'s side") || after.starts_with(" block"),
                            "a bare {side} in {:?}",
                            line.text
                        );
                    }
                }
            }
            assert!(!record_line(&game, event).trim().is_empty(), "{debug}");
        }
        let missing: Vec<usize> = (0..KINDS).filter(|k| !seen[*k]).collect();
        assert_eq!(missing, Vec::<usize>::new(), "kinds with no sample");
    }

    #[test]
    fn a_reader_is_told_only_what_its_side_may_know() {
        let game = crate::test_support::published("rules-2.0");
        let legio = game
            .roster()
            .ids()
            .find(|b| game.block_name(*b) == "Legio 13")
            .expect("in the roster");
        let nobody = |_: BlockId| false;
        let pompey = Reader {
            side: Some(Side::Pompey),
            knows: &nobody,
        };
        let text = |e: &GameEvent, r: &Reader| line(&game, e, r).map(|l| l.text);
        let levy = GameEvent::Levied {
            side: Side::Caesar,
            block: legio,
            at: SpaceId(0),
        };
        let roma = game.space_name(SpaceId(0));
        assert_eq!(
            text(&levy, &pompey).as_deref(),
            Some(format!("Caesar's side levies a block in {roma}").as_str())
        );
        assert_eq!(
            text(&levy, &Reader::ALL).as_deref(),
            Some(format!("Caesar's side levies Legio 13 in {roma}").as_str())
        );
        let discard = GameEvent::Discarded {
            side: Side::Caesar,
            card: 0,
        };
        assert_eq!(
            text(&discard, &pompey).as_deref(),
            Some("Caesar's side discards a card")
        );
        let cleopatra = game
            .roster()
            .ids()
            .find(|b| game.block_name(*b) == "Cleopatra")
            .expect("in the roster");
        let home = GameEvent::CleopatraReturns {
            block: cleopatra,
            side: Side::Caesar,
            joins: None,
        };
        assert_eq!(text(&home, &pompey), None, "she moves hidden");
        assert!(text(&home, &Reader::ALL).is_some());
    }

    #[test]
    fn a_leader_named_for_his_side_reads_as_a_block_never_as_the_side() {
        let game = crate::test_support::published("rules-2.0");
        let named = |name: &str| {
            let b = game.roster().ids().find(|b| game.block_name(*b) == name);
            let side = if name == "Caesar" || name == "Legio 13" {
                Side::Caesar
            } else {
                Side::Pompey
            };
            block_words(&game, &Reader::ALL, side, b.expect("in the roster"))
        };
        assert_eq!(named("Caesar"), "the Caesar block");
        assert_eq!(named("Legio 13"), "Legio 13 (Caesar's side)");
        assert_eq!(side_words(Side::Pompey), "Pompey's side");
    }
}
