//! What happened in a game, counted as it is played, for simulation reports:
//! battles and losses, events, VP by year, where on the map things happened,
//! and how well each side used what it had.

use super::events::{GameEvent, Log};
use crate::scenario::model::{Event, LinkId, Side, SpaceId};

/// What happened in a game, for simulation reports: the one record of a
/// game's counts. A simulated game's summary holds it whole
/// (`sim::runs::report::GameSummary::stats`), and the reports' per-game counts read it
/// (`sim::runs::report::GAME_COUNTS`), so a new count is a field here, its bump
/// (in [`GameStats::tally`] when a game event tells it, else where it
/// happens), and its line in that table (with the accumulator's field it
/// fills). Battles and losses are not bumped beside their events: each is
/// one [`GameEvent`], and the counts and map events are tallied from it.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct GameStats {
    pub battles: u32,
    /// Battle rounds begun (7.2): exact odds read the round a battle ended in.
    #[serde(skip)]
    pub battle_rounds: u32,
    pub steps_lost: [u32; 2],
    pub blocks_eliminated: [u32; 2],
    pub leaders_killed: [u32; 2],
    pub events_played: [u32; Event::COUNT],
    pub events_cancelled: u32,
    pub first_turn_player1: Option<Side>,
    /// VP of each side after each winter.
    pub vp_by_year: Vec<[u32; 2]>,
    pub actions: u32,
    pub quality: PlayQuality,
    /// Where battles, losses, attacks and retreats happened, in order (the
    /// simulation's map heatmaps count them): tallied from the game's
    /// events ([`GameStats::tally`]), and the attack roads at a battle's
    /// start. Pushed only when one happens.
    #[serde(skip)]
    pub map_events: Vec<MapEvent>,
}

impl GameStats {
    /// What a counted event adds to the counts and the map events: the one
    /// table of what the reports read from the game's events (written
    /// through [`record`], whatever the log keeps).
    #[inline]
    pub(super) fn tally(&mut self, event: &GameEvent) {
        let map = match *event {
            // 7.1.
            GameEvent::BattleBegins { space, .. } => {
                self.battles += 1;
                MapEvent::Battle(space)
            }
            // 7.5: the side left alone in the space won it.
            GameEvent::BattleEnds {
                space,
                winner: Some(w),
            } => MapEvent::BattleWon(space, w),
            // 7.4.
            GameEvent::StepLost { side, at, .. } => {
                self.steps_lost[side.index()] += 1;
                MapEvent::StepLost(at, side)
            }
            // 7.5.
            GameEvent::Eliminated { side, at, .. } => {
                self.blocks_eliminated[side.index()] += 1;
                MapEvent::BlockLost(at, side)
            }
            // 7.51: a leader killed is a block eliminated too.
            GameEvent::LeaderKilled { side, at, .. } => {
                self.blocks_eliminated[side.index()] += 1;
                self.leaders_killed[side.index()] += 1;
                MapEvent::BlockLost(at, side)
            }
            // 7.6: a retreat by road (by sea the heatmaps do not count).
            GameEvent::Retreats {
                road: Some(link), ..
            } => MapEvent::Retreat(link),
            _ => return,
        };
        self.map_events.push(map);
    }
}

/// Records an event the game counts ([`GameStats::tally`]): into the counts
/// always, into the log when it keeps events. A loss, a battle and a
/// retreat are written once, here; the counts and heatmaps read them.
pub(super) fn record(stats: &mut GameStats, log: &mut impl Log, event: GameEvent) {
    stats.tally(&event);
    if log.enabled() {
        log.event(event);
    }
}

/// Something that happened at a place on the map (see [`GameStats::map_events`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapEvent {
    /// A battle began in the space (7.1).
    Battle(SpaceId),
    /// A battle there ended with only this side's blocks left.
    BattleWon(SpaceId, Side),
    /// A block of the side lost a step there.
    StepLost(SpaceId, Side),
    /// A block of the side was eliminated there (a leader killed included).
    BlockLost(SpaceId, Side),
    /// Attacking blocks entered a battle along this link.
    Attack(LinkId),
    /// A block retreated along this road (7.6).
    Retreat(LinkId),
}

/// How well each side used what it had ([Caesar, Pompey]): the figures a
/// designer checks before trusting a player's results.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlayQuality {
    /// Move points spent: group moves and sea moves (6.1, 6.3).
    pub mp_spent: [u32; 2],
    /// Move points spent on a group that then moved no block.
    pub mp_wasted: [u32; 2],
    /// Move points left when the player ended his moves.
    pub mp_unused: [u32; 2],
    /// Levy points left when the player ended his levies while a levy or a
    /// step was still possible (6.4).
    pub lp_unused: [u32; 2],
    /// Event cards discarded unplayed (2.1).
    pub events_discarded: [u32; 2],
    /// Blocks moved back where they came from within two game turns, with
    /// no battle in between (moves undone: back-and-forth play).
    #[serde(default)]
    pub moves_undone: [u32; 2],
    /// VP cities the side held when its command phase began and left empty
    /// by its end (it could have kept a block there).
    #[serde(default)]
    pub vp_cities_left: [u32; 2],
}
