//! What happened, as values. The engine emits a [`GameEvent`] for every
//! change of the game it makes; it writes no words. One renderer
//! (`games::narrate`) turns events into lines for the CLI trace, the
//! window's game log and battle panel, replays and records, filtered by
//! what a side may know; each line carries its place, side and dice.
//!
//! Events are built only when the receiver wants them ([`Log::enabled`]),
//! so the simulation's fast path ([`NoLog`]) builds none.

use crate::scenario::model::{BlockId, CardFace, Event, LinkId, Side, SpaceId};

use super::EndReason;

/// The orders a card gives its player for the command phase (2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orders {
    Command { moves: u8, levy: u8 },
    Event(Event),
    Nothing,
}

/// Every change of the game, in the order it happens.
#[derive(Debug, Clone, PartialEq)]
pub enum GameEvent {
    // --- The year and the turn (2.1) ---
    /// The year's hand dealt to a side (seen by that side only).
    Dealt {
        year: u8,
        side: Side,
        cards: Vec<u8>,
    },
    /// A card discarded face down (seen by its owner only).
    Discarded {
        side: Side,
        card: u8,
    },
    /// Both cards revealed: the turn begins.
    CardsRevealed {
        year: u8,
        turn: u8,
        played: [u8; 2],
    },
    /// Apollo copied the other side's last card.
    ApolloCopies {
        side: Side,
        copied: CardFace,
    },
    /// Two event cards cancel and end the turn (2.x).
    EventsCancel,
    /// Who is Player 1 this turn (2.2; 2.0's first-turn exception).
    PlayerOrder {
        player1: Side,
    },
    /// A side's orders for its command phase.
    OrdersGiven {
        side: Side,
        player: u8,
        orders: Orders,
    },
    // --- Command (6.x) and events ---
    /// A group move begins (6.1).
    GroupMoves {
        side: Side,
        from: SpaceId,
    },
    /// A block moved one space by land (6.2); `attack` when it entered an
    /// enemy space.
    BlockMoved {
        side: Side,
        block: BlockId,
        from: SpaceId,
        to: SpaceId,
        attack: bool,
    },
    /// A sea move (6.3) through `seas`.
    BlockSailed {
        side: Side,
        block: BlockId,
        from: SpaceId,
        to: SpaceId,
        seas: Vec<SpaceId>,
    },
    /// 6.12 (1.1): the main attack road.
    MainAttackDeclared {
        side: Side,
        space: SpaceId,
        from: SpaceId,
    },
    /// Mars / Neptune: the battle the surprise attack is in (or none).
    SurpriseNamed {
        side: Side,
        space: Option<SpaceId>,
    },
    /// 6.4: a block levied from the pool.
    Levied {
        side: Side,
        block: BlockId,
        at: SpaceId,
    },
    /// 6.4: a step added; `strength` after it.
    StepAdded {
        side: Side,
        block: BlockId,
        strength: u8,
    },
    /// Jupiter's pick among `among` look-alike blocks at `at`: the dice
    /// rolled (none when only one could be taken) and the block taken.
    JupiterPick {
        side: Side,
        at: SpaceId,
        among: u8,
        dice: Vec<u8>,
        block: BlockId,
    },
    /// Jupiter: the block changes sides.
    Defects {
        block: BlockId,
        to: Side,
        at: SpaceId,
    },
    /// Jupiter: a leader or navis does not defect; it loses a step.
    RefusesToDefect {
        block: BlockId,
    },
    /// Vulcan strikes a city.
    VulcanStrikes {
        side: Side,
        city: SpaceId,
    },
    /// An event with nothing to strike.
    EventWithoutEffect {
        side: Side,
    },
    // --- Battles (7.x) ---
    BattleBegins {
        space: SpaceId,
        attacker: Side,
    },
    /// Mars / Neptune (7.2): the attacker fires first.
    SurpriseAttack {
        side: Side,
    },
    BattleRound {
        space: SpaceId,
        round: u8,
    },
    /// 7.2: among tied blocks, the owner picked this one to act next.
    TakesTurn {
        side: Side,
        block: BlockId,
    },
    Passes {
        side: Side,
        block: BlockId,
    },
    /// 7.3 / 7.4: a block fired `dice`, each a hit at or under `hit_max`.
    Fire {
        side: Side,
        block: BlockId,
        dice: Vec<u8>,
        hit_max: u8,
        hits: u8,
    },
    /// 7.4: a step lost at `at`; `strength` left (0 is followed by an
    /// elimination). The game's one record of the loss: its counts and
    /// heatmap are tallied from it (`GameStats::tally`).
    StepLost {
        side: Side,
        block: BlockId,
        at: SpaceId,
        strength: u8,
    },
    /// 7.31: a side's reserves are disrupted.
    ReservesDisrupted {
        side: Side,
    },
    /// 7.31: the defender, disrupted, becomes the attacker.
    BecomesAttacker {
        side: Side,
    },
    /// 7.6: a block retreated; `road` the road it took, none by sea (7.64)
    /// or for a navis (7.82).
    Retreats {
        side: Side,
        block: BlockId,
        to: SpaceId,
        road: Option<LinkId>,
    },
    /// 7.6: a block that had to retreat found nowhere to go.
    CannotRetreat {
        side: Side,
        block: BlockId,
    },
    /// 7.5: the battle is over; `winner` holds the space.
    BattleEnds {
        space: SpaceId,
        winner: Option<Side>,
    },
    /// 7.7: a block regrouped.
    Regroups {
        side: Side,
        block: BlockId,
        to: SpaceId,
    },
    /// 7.5: a block eliminated at `at` (to the levy pool).
    Eliminated {
        side: Side,
        block: BlockId,
        at: SpaceId,
    },
    /// 7.51: a leader killed at `at`: a trophy for the other side.
    LeaderKilled {
        side: Side,
        block: BlockId,
        at: SpaceId,
    },
    /// 7.52: Cleopatra eliminated changes sides at strength I.
    CleopatraChangesSides {
        to: Side,
    },
    // --- Winter (8.x) ---
    WinterBegins {
        year: u8,
    },
    /// 8.1: Cleopatra (of `side`) goes home; `joins` when she changes sides.
    CleopatraReturns {
        block: BlockId,
        side: Side,
        joins: Option<Side>,
    },
    /// 8.2 / 1.2: the victory check: VP, the target, and whether it ended
    /// the game.
    VictoryCheck {
        year: u8,
        vp: [u32; 2],
        target: u32,
        decided: bool,
    },
    /// 8.3: a navis at sea sent to port (`chosen` by its player, else the
    /// only port).
    NavisToPort {
        side: Side,
        block: BlockId,
        to: SpaceId,
        chosen: bool,
    },
    /// 8.3: a navis at sea with no friendly port is disbanded.
    NavisLost {
        side: Side,
        block: BlockId,
    },
    /// 8.4: a block disbanded for winter supply.
    Disbanded {
        side: Side,
        block: BlockId,
    },
    GameOver {
        winner: Option<Side>,
        how: EndReason,
        vp: [u32; 2],
    },
}

/// Receives the game's events. The fast path uses [`NoLog`].
pub trait Log {
    fn enabled(&self) -> bool;
    fn event(&mut self, event: GameEvent);
}

/// Discards the events (the simulation's fast path).
pub struct NoLog;
impl Log for NoLog {
    #[inline]
    fn enabled(&self) -> bool {
        false
    }
    #[inline]
    fn event(&mut self, _: GameEvent) {}
}

impl Log for Vec<GameEvent> {
    fn enabled(&self) -> bool {
        true
    }
    fn event(&mut self, event: GameEvent) {
        self.push(event);
    }
}

/// Emits an event, building it only when the log wants it.
macro_rules! emit {
    ($log:expr, $event:expr) => {
        if $log.enabled() {
            $log.event($event);
        }
    };
}
pub(crate) use emit;
