//! The decisions a player makes ([`Action`]) and the refusal of one that is
//! not legal now ([`IllegalAction`]).

use crate::scenario::model::{BlockId, LinkId, SpaceId};

/// Why an action was refused by [`State::try_apply`](super::State::try_apply).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal action \"{action}\" in {phase}")]
pub struct IllegalAction {
    /// The action in words ([`Game::action_text`](super::Game::action_text)).
    pub action: String,
    /// Where the game stands, in words ([`State::stage_text`](super::State::stage_text)).
    pub phase: String,
}

/// One decision. Indices are compact ids of the scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// 2.1: discard a card (deck index) from the hand, unseen.
    Discard(u8),
    /// 2.1: play a card (deck index) face-down.
    Play(u8),
    /// 6.1: start a group move from a location (1 MP).
    Group(SpaceId),
    /// Move one block of the current group one space along a link.
    Step {
        block: BlockId,
        to: SpaceId,
    },
    /// 6.3: move a land block by sea to a port (1 MP).
    SeaMove {
        block: BlockId,
        to: SpaceId,
    },
    /// Finish the current group.
    EndGroup,
    /// Finish moving; go on to levies.
    EndMoves,
    /// 6.4: deploy a block from the pool at minimum strength.
    Levy {
        block: BlockId,
        at: SpaceId,
    },
    /// 6.4: add a step to a block on the map.
    AddStep(BlockId),
    /// Finish levying.
    EndLevy,
    /// Jupiter: the location whose hidden enemy blocks one is taken from
    /// (1.1: pointed at, 2.0: rolled for; equally likely either way).
    JupiterAt(SpaceId),
    /// Vulcan: the city to strike.
    VulcanCity(SpaceId),
    /// An event with no target, or declined.
    PassEvent,
    /// 7.1: Player 1 picks the next battle.
    Battle(SpaceId),
    /// Mars/Neptune: at the end of his movement the card's player names the
    /// battle he attacks that gets the surprise (hidden until fought), or none.
    Surprise(Option<SpaceId>),
    /// 7.3 (1.1): the attacker declares the main attack road.
    MainAttack(LinkId),
    /// 7.2: the block whose turn it is fires.
    Fire,
    /// 7.6: the block whose turn it is retreats there.
    Retreat(SpaceId),
    /// 7.2: the block whose turn it is passes.
    Pass,
    /// 7.4: the owner picks which of the tied strongest blocks takes a hit.
    TakeHit(BlockId),
    /// 7.2: the owner picks which of his blocks sharing the next letter
    /// takes its battle turn first.
    TakeTurn(BlockId),
    /// 7.7: a victorious block regroups.
    Regroup {
        block: BlockId,
        to: SpaceId,
    },
    EndRegroup,
    /// 8.3: a navis goes to a friendly port on its sea.
    NavisToPort {
        block: BlockId,
        to: SpaceId,
    },
    /// 8.4 / 8.5: disband a block to the pool.
    Disband(BlockId),
    /// Finish the winter step.
    EndWinter,
}
