//! The rules engine, in the style of OpenSpiel's game state: an immutable
//! [`Game`] (board, roster, deck, rule set) and a small, cheap-to-clone
//! [`State`] driven by fine-grained [`Action`]s. Chance is drawn from a seeded
//! ChaCha RNG carried in the state, so a seed and a list of actions replay the
//! same game on every machine.
//!
//! Decisions the rulebooks leave open are documented in `docs/rules-notes.md`.

mod battle;
mod battle_setup;
mod blocks;
mod cards;
pub mod chance;
mod command;
pub mod events;
mod game;
mod position;
mod relist;
mod sets;
mod start;
mod view;
mod winter;
pub use battle::BattleInfo;
pub use battle_setup::{BattleBlock, BattleKey, BattleStart};
pub use position::{PlacedBlock, Position, PositionError, Stage};
// `PlayQuality` is defined below, beside `GameStats`.
use events::Orders;
pub use events::{GameEvent, Log, NoLog};
pub use game::Game;
use game::LevyRule;
pub(crate) use sets::SET_CAPACITY;
use sets::{BlockSet, SpaceSet};
pub use start::NotPlayable;
pub use view::{CardSet, KnownBlock, SideView};

use std::fmt;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::scenario::model::{BlockId, CardFace, LinkId, SpaceId};
use crate::scenario::model::{BlockKind, Event, Side, SpaceKind};

/// Where a block is. Spaces are their ids; the rest are off-map boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    Map(SpaceId),
    /// In the levy pool, available.
    Pool,
    /// In the levy pool face-up: eliminated this year (5.2).
    Eliminated,
    /// A dead leader, held by the enemy as a 1 VP trophy (7.51).
    Trophy,
}

const POOL: u16 = u16::MAX;
const ELIMINATED: u16 = u16::MAX - 1;
const TROPHY: u16 = u16::MAX - 2;
const NO_LINK: u16 = u16::MAX;

/// Per-block flags for the current game turn.
mod flag {
    pub(crate) const MOVED: u8 = 1;
    /// Entered an enemy space this turn and must stop.
    pub(crate) const STOPPED: u8 = 4;
    /// A reserve in the coming battle (7.3).
    pub(crate) const RESERVE: u8 = 8;
    /// Moved by sea this turn (6.3): no land move.
    pub(crate) const BY_SEA: u8 = 16;
    /// A navis that must stay at sea for an amphibious move (6.3).
    pub(crate) const ANCHORED: u8 = 32;
    /// Responded to a battle (6.14).
    pub(crate) const RESPONDED: u8 = 64;
    /// In a battle this turn (play quality: a move that led to a battle is
    /// not undone).
    pub(crate) const FOUGHT: u8 = 2;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct BlockState {
    loc: u16,
    steps: u8,
    side: Side,
    flags: u8,
    /// Steps taken in the current group move.
    moved_steps: u8,
    /// The link it last entered by this turn (for main attack and retreats).
    entered_via: u16,
    /// Where it was before this turn's move (7.82: navis retreat where they came from).
    came_from: u16,
    /// Its last turn's move, to count a move undone (play quality).
    last_hop: Hop,
}

/// A block's move in one game turn: from where to where, and in which turn
/// of the game (1-based; 0: none since it last fought).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Hop {
    from: u16,
    to: u16,
    turn: u8,
}

impl Hop {
    const NONE: Hop = Hop {
        from: 0,
        to: 0,
        turn: 0,
    };
}

impl BlockState {
    fn place(&self) -> Place {
        match self.loc {
            POOL => Place::Pool,
            ELIMINATED => Place::Eliminated,
            TROPHY => Place::Trophy,
            s => Place::Map(SpaceId(s)),
        }
    }
    fn on_map(&self) -> bool {
        self.loc < TROPHY
    }
    fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }
}

/// Why an action was refused by [`State::try_apply`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal action \"{action}\" in {phase}")]
pub struct IllegalAction {
    /// The action in words ([`Game::action_text`]).
    pub action: String,
    /// Where the game stands, in words ([`State::stage_text`]).
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

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EndReason {
    /// 1.2: a player had 10 VP at a winter check.
    SuddenDeath,
    /// 1.2: after year 5, the higher VP.
    VictoryPoints,
    /// 1.2: tied VP, the player holding Rome.
    RomeTieBreak,
    Draw,
}

/// In words, as tables print it ("sudden death", not `SuddenDeath`).
impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EndReason::SuddenDeath => "sudden death",
            EndReason::VictoryPoints => "victory points",
            EndReason::RomeTieBreak => "Rome tie-break",
            EndReason::Draw => "draw",
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub how: EndReason,
    /// VP of Caesar and Pompey at the end.
    pub vp: [u32; 2],
    /// The year (1-based) whose winter ended the game.
    pub year: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Discard(Side),
    PlayCard(Side),
    /// The command phase of one player (0 = Player 1).
    Command(u8),
    ChooseBattle,
    Battle,
    Regroup(Side),
    WinterNavis(Side),
    WinterSupply(Side),
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CommandStep {
    /// Choose event targets first.
    EventTarget,
    Moves,
    /// 6.12 (1.1): after his moves the attacker declares the main attack of
    /// each battle he entered by two or more roads (pinning depends on it).
    MainAttack,
    /// Mars/Neptune: then he names the battle that gets the surprise.
    Surprise,
    Levy,
}

/// The command phase in progress.
#[derive(Debug, Clone, Copy)]
struct CommandState {
    step: CommandStep,
    mp: u8,
    lp: u8,
    group: Option<SpaceId>,
    /// The blocks of the group being moved.
    members: BlockSet,
    /// 6.3: amphibious moves only before any other move.
    moved_by_land: bool,
    /// The event shaping this command phase's group, if any.
    event: Option<Event>,
}

/// A space where both sides met this turn.
#[derive(Debug, Clone)]
struct Contest {
    space: SpaceId,
    attacker: Side,
    /// 7.3 main attack link (2.0: the first used).
    main: u16,
    /// Links the attacker used to attack or reinforce.
    attack_links: Vec<LinkId>,
    /// Attacking non-reserve blocks that entered (6.13 pinning).
    pinning: u8,
    /// 6.12 (1.1): the attacker has declared the main attack.
    declared: bool,
    /// 6.14: links the defender's responders came by; after a disruption
    /// swap (7.31) they are the new attacker's roads for 7.62 / 7.63.
    response_links: Vec<LinkId>,
}

/// The seeded, cheap-to-clone game state.
#[derive(Debug, Clone)]
pub struct State {
    rng: ChaCha8Rng,
    /// Dice scripted by a position (last to come first), rolled before the
    /// stream's: hidden from every player like the stream itself.
    dice: Vec<u8>,
    year: u8,
    turn: u8,
    phase: Phase,
    blocks: Vec<BlockState>,
    /// Cards in each hand (deck indices).
    hands: [Vec<u8>; 2],
    played: [Option<u8>; 2],
    /// Cards each side discarded this year (seen only by their owner).
    discarded: [CardSet; 2],
    /// Cards revealed this year by either side (2.1: played face up).
    year_played: CardSet,
    /// What each side's card did last turn (for Apollo; an Apollo that copied
    /// a card counts as that card).
    last_played: [Option<CardFace>; 2],
    /// Player 1 and Player 2 this turn.
    order: [Side; 2],
    orders: [Orders; 2],
    command: CommandState,
    /// Blocks moved across each link this turn, per side (6.11).
    road_use: Vec<[u8; 2]>,
    contests: Vec<Contest>,
    battle: Option<battle::Battle>,
    /// The space of the battle just won, during its regroup (7.7).
    regroup_space: Option<SpaceId>,
    /// Blocks regrouped along each link in this battle (7.7: limits per battle).
    regroup_use: Vec<(u16, u8)>,
    /// Mars/Neptune: the side holding an unused surprise this turn, and the kind.
    surprise: Option<(Side, Event)>,
    /// The battle that side named for it; known to that side only until fought.
    surprise_at: Option<SpaceId>,
    /// 7.51: a leader of this side has died.
    leader_died: [bool; 2],
    trophies: [u8; 2],
    outcome: Option<Outcome>,
    /// Counters for reports.
    pub stats: GameStats,
    /// Each side's blocks in each space (how many, how strong), kept in step
    /// with every block's place, side and steps by [`State::set_loc`],
    /// [`State::set_side`] and [`State::set_steps`]: the hot path asks "who
    /// is here?" thousands of times per game, and a player its own strength
    /// per space at every decision.
    forces: [Vec<Forces>; 2],
    /// The spaces where each side has blocks, kept like `forces`.
    occupied: [SpaceSet; 2],
    /// Each side's blocks on the map, and in the pool (face-down, ready to
    /// levy), kept like `forces`.
    on_map: [BlockSet; 2],
    pooled: [BlockSet; 2],
    /// Per side, renewed (see [`fresh_stamp`]) whenever one of its blocks
    /// enters, leaves or moves on the map or changes sides there: what the
    /// other side sees of its blocks, strengths apart, stays while it does.
    map_stamp: [u64; 2],
    /// The VP cities the side in command held when its command phase began
    /// (play quality: cities left empty).
    held_vp: SpaceSet,
}

/// A stamp that no other change shares, in any state (clones included) or
/// thread: a cache keyed on one cannot be fooled by two clones that changed
/// differently. Never part of play: games do not depend on its value.
fn fresh_stamp() -> u64 {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicU64, Ordering};
    static THREADS: AtomicU64 = AtomicU64::new(1);
    thread_local! {
        // 0 until the thread's first stamp; then its own range of 2^40.
        static LAST: Cell<u64> = const { Cell::new(0) };
    }
    LAST.with(|last| {
        let mut stamp = last.get();
        if stamp == 0 {
            stamp = THREADS.fetch_add(1, Ordering::Relaxed) << 40;
        }
        stamp += 1;
        last.set(stamp);
        stamp
    })
}

/// One side's blocks in one space: how many and how strong, its navis
/// apart (a side's own are its to know; the enemy's count is public).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Forces {
    pub(crate) blocks: u8,
    pub(crate) navis: u8,
    pub(crate) strength: u16,
    pub(crate) navis_strength: u16,
}

impl Forces {
    #[inline]
    fn add(&mut self, strength: u8, navis: bool) {
        self.blocks += 1;
        self.strength += u16::from(strength);
        if navis {
            self.navis += 1;
            self.navis_strength += u16::from(strength);
        }
    }
    #[inline]
    fn remove(&mut self, strength: u8, navis: bool) {
        self.blocks -= 1;
        self.strength -= u16::from(strength);
        if navis {
            self.navis -= 1;
            self.navis_strength -= u16::from(strength);
        }
    }
}

/// The parts of a game turn, as [`State::period`] names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Period {
    /// 2.1: discarding at the start of a year.
    Discard,
    /// 2.1: choosing the cards to play.
    Cards,
    /// A side's command phase (moves, levies, events).
    Command(Side),
    /// Choosing, fighting and regrouping after battles (7).
    Battles,
    /// 8: winter.
    Winter,
    Over,
}

impl Period {
    /// The periods in the order a game turn runs through them, from 0.
    pub(crate) fn ordinal(self) -> u8 {
        match self {
            Period::Discard => 0,
            Period::Cards => 1,
            Period::Command(Side::Caesar) => 2,
            Period::Command(Side::Pompey) => 3,
            Period::Battles => 4,
            Period::Winter => 5,
            Period::Over => 6,
        }
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Period::Discard => f.write_str("discards"),
            Period::Cards => f.write_str("cards"),
            Period::Command(side) => write!(f, "{side}'s command"),
            Period::Battles => f.write_str("battles"),
            Period::Winter => f.write_str("winter"),
            Period::Over => f.write_str("game over"),
        }
    }
}

/// What happened in a game, for simulation reports.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
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
    /// simulation's map heatmaps count them). Pushed only when one happens.
    #[serde(skip)]
    pub map_events: Vec<MapEvent>,
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

impl State {
    /// A new game from the scenario's starting deployment, the first year dealt.
    pub fn new(game: &Game, seed: u64) -> State {
        State::new_logged(game, seed, &mut NoLog)
    }

    pub(crate) fn new_logged(game: &Game, seed: u64, log: &mut impl Log) -> State {
        let roster = game.roster();
        let setup = game.scenario.starting_setup();
        let blocks = roster
            .ids()
            .map(|b| {
                let block = roster.block(b);
                let loc = setup.location(b).map_or(POOL, |s| s.0);
                BlockState {
                    loc,
                    steps: if loc == POOL {
                        block.max_steps
                    } else {
                        setup.steps(roster, b)
                    },
                    side: block.side,
                    flags: 0,
                    moved_steps: 0,
                    entered_via: NO_LINK,
                    came_from: loc,
                    last_hop: Hop::NONE,
                }
            })
            .collect();
        let mut state = State {
            rng: ChaCha8Rng::seed_from_u64(seed),
            dice: Vec::new(),
            year: 1,
            turn: 1,
            phase: Phase::Discard(Side::Caesar),
            blocks,
            hands: [Vec::new(), Vec::new()],
            played: [None, None],
            discarded: [CardSet::EMPTY; 2],
            year_played: CardSet::EMPTY,
            last_played: [None, None],
            order: [Side::Caesar, Side::Pompey],
            orders: [Orders::Nothing, Orders::Nothing],
            command: CommandState {
                step: CommandStep::Moves,
                mp: 0,
                lp: 0,
                group: None,
                members: BlockSet::default(),
                moved_by_land: false,
                event: None,
            },
            road_use: vec![[0, 0]; game.board().links.len()],
            contests: Vec::new(),
            battle: None,
            regroup_space: None,
            regroup_use: Vec::new(),
            surprise: None,
            surprise_at: None,
            leader_died: [false, false],
            trophies: [0, 0],
            outcome: None,
            stats: GameStats::default(),
            forces: [Vec::new(), Vec::new()],
            occupied: [SpaceSet::default(); 2],
            on_map: [BlockSet::default(); 2],
            pooled: [BlockSet::default(); 2],
            map_stamp: [0; 2],
            held_vp: SpaceSet::default(),
        };
        state.recount_occupancy(game);
        state.deal(game, log);
        state
    }

    /// Replaces the chance stream: the same position with different future
    /// dice and shuffles (for search playouts).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.dice.clear();
    }

    /// One die (7.4): the next scripted die, else the stream's. Every roll
    /// of the engine comes through here (see [`chance`]).
    fn roll_die(&mut self) -> u8 {
        use rand::RngExt;
        self.dice
            .pop()
            .unwrap_or_else(|| self.rng.random_range(1..=6))
    }

    pub fn year(&self) -> u8 {
        self.year
    }
    pub fn turn(&self) -> u8 {
        self.turn
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    /// The event card that replaces the current command phase's command
    /// card, if any (its group moves are restricted: Mars, Neptune, ...).
    pub(crate) fn command_event(&self) -> Option<Event> {
        match self.phase {
            Phase::Command(_) => self.command.event,
            _ => None,
        }
    }

    /// Where the turn stands, in plain words (public: every side may read it).
    pub fn stage_text(&self, game: &Game) -> String {
        let space = |s: SpaceId| game.space_name(s).to_string();
        match self.phase {
            Phase::Discard(side) => format!("{side} discards (2.1)"),
            Phase::PlayCard(side) => format!("{side} chooses a card to play (2.1)"),
            Phase::Command(slot) => {
                let side = self.order[slot as usize];
                let c = &self.command;
                let what = match (c.event, c.step) {
                    (_, CommandStep::Levy) => format!("levies, {} left", c.lp),
                    (_, CommandStep::MainAttack) => "declares main attacks (6.12)".into(),
                    (_, CommandStep::Surprise) => "names the surprise battle".into(),
                    (Some(e), CommandStep::EventTarget) => format!("{e:?}: chooses a target"),
                    (event, _) => {
                        let group = c
                            .group
                            .map(|g| format!(", moving the group from {}", space(g)))
                            .unwrap_or_default();
                        let event = event.map(|e| format!("{e:?}, ")).unwrap_or_default();
                        let moves = if c.mp == 1 { "move" } else { "moves" };
                        let levies = if c.lp == 1 { "levy" } else { "levies" };
                        format!("{event}{} {moves} and {} {levies} left{group}", c.mp, c.lp)
                    }
                };
                format!("{side}'s command phase (Player {}): {what}", slot + 1)
            }
            Phase::ChooseBattle => {
                format!("{} (Player 1) chooses the next battle (7.1)", self.order[0])
            }
            Phase::Battle => match self.battle_info() {
                Some(b) if b.round == 0 => {
                    format!(
                        "battle of {}: {} declares the main attack",
                        space(b.space),
                        b.attacker
                    )
                }
                Some(b) => format!(
                    "battle of {}, round {}: {} attacks",
                    space(b.space),
                    b.round,
                    b.attacker
                ),
                None => "battle".into(),
            },
            Phase::Regroup(side) => match self.regroup_space {
                Some(s) => format!("{side} regroups from {} (7.7)", space(s)),
                None => format!("{side} regroups (7.7)"),
            },
            Phase::WinterNavis(side) => format!("winter: {side}'s navis go to port (8.3)"),
            Phase::WinterSupply(side) => format!("winter: {side} disbands (8.4, 8.5)"),
            Phase::Over => "the game is over".into(),
        }
    }

    /// The part of the game turn now, coarsely (public): for stepping a
    /// replay by phase.
    pub fn period(&self) -> Period {
        match self.phase {
            Phase::Discard(_) => Period::Discard,
            Phase::PlayCard(_) => Period::Cards,
            Phase::Command(slot) => Period::Command(self.order[slot as usize]),
            Phase::ChooseBattle | Phase::Battle | Phase::Regroup(_) => Period::Battles,
            Phase::WinterNavis(_) | Phase::WinterSupply(_) => Period::Winter,
            Phase::Over => Period::Over,
        }
    }

    /// Move points and levy points left in the command phase being played
    /// (public: the card was revealed), `None` outside a command phase.
    /// Moves not made are lost once the player goes on from moving (2.1:
    /// commands cannot be saved), so they read 0 from then on.
    pub fn command_points(&self) -> Option<(u8, u8)> {
        match self.phase {
            Phase::Command(_) => {
                let moving = matches!(
                    self.command.step,
                    CommandStep::EventTarget | CommandStep::Moves
                );
                Some((if moving { self.command.mp } else { 0 }, self.command.lp))
            }
            _ => None,
        }
    }

    /// The space whose group is moving in the command phase, if any.
    pub fn moving_group(&self) -> Option<SpaceId> {
        match self.phase {
            Phase::Command(_) => self.command.group,
            _ => None,
        }
    }

    /// How much chance has been drawn so far: the stream's position and the
    /// scripted dice left. Equal before and after an action when the action
    /// rolled no die and shuffled nothing.
    pub(crate) fn chance_drawn(&self) -> (u128, usize) {
        (self.rng.get_word_pos(), self.dice.len())
    }

    /// Player 1 of the current turn.
    pub fn player1(&self) -> Side {
        self.order[0]
    }

    /// Who decides now (`None` once the game is over).
    pub fn current_player(&self) -> Option<Side> {
        Some(match self.phase {
            Phase::Discard(s) | Phase::PlayCard(s) => s,
            Phase::Command(i) => self.order[i as usize],
            Phase::ChooseBattle => self.order[0],
            Phase::Battle => self.battle.as_ref()?.decider(self),
            Phase::Regroup(s) | Phase::WinterNavis(s) | Phase::WinterSupply(s) => s,
            Phase::Over => return None,
        })
    }

    pub fn place(&self, b: BlockId) -> Place {
        self.blocks[b.index()].place()
    }
    pub fn location(&self, b: BlockId) -> Option<SpaceId> {
        match self.place(b) {
            Place::Map(s) => Some(s),
            _ => None,
        }
    }
    /// Whether a block waits in a battle's reserve (7.3): it arrives, and
    /// is revealed, at the start of round 2.
    pub fn is_reserve(&self, b: BlockId) -> bool {
        self.blocks[b.index()].has(flag::RESERVE)
    }
    /// Current strength in steps.
    pub fn steps(&self, b: BlockId) -> u8 {
        self.blocks[b.index()].steps
    }
    /// The side a block fights for now (Cleopatra and Jupiter may change it).
    pub fn side(&self, b: BlockId) -> Side {
        self.blocks[b.index()].side
    }
    pub fn hand(&self, side: Side) -> &[u8] {
        &self.hands[side.index()]
    }
    pub fn trophies(&self, side: Side) -> u8 {
        self.trophies[side.index()]
    }

    /// Blocks of `side` at `space`.
    pub fn blocks_at(&self, space: SpaceId, side: Side) -> impl Iterator<Item = BlockId> + '_ {
        self.on_map[side.index()]
            .iter()
            .filter(move |b| self.blocks[b.index()].loc == space.0)
    }

    fn occupied(&self, space: SpaceId) -> [bool; 2] {
        [
            self.occupied[0].contains(space),
            self.occupied[1].contains(space),
        ]
    }

    /// Spaces friendly to `side` (4.21: its blocks alone).
    fn friendly_spaces(&self, side: Side) -> SpaceSet {
        self.occupied[side.index()].without(self.occupied[side.other().index()])
    }

    /// Rebuilds [`State::forces`] and the block and space sets from the blocks.
    fn recount_occupancy(&mut self, game: &Game) {
        (self.forces, self.occupied, self.on_map, self.pooled) = self.counted(game);
        self.map_stamp = [fresh_stamp(), fresh_stamp()];
    }

    /// Forces per space, the spaces each side occupies, and each side's
    /// blocks on the map and in the pool, counted afresh from the blocks.
    #[allow(clippy::type_complexity)]
    fn counted(
        &self,
        game: &Game,
    ) -> (
        [Vec<Forces>; 2],
        [SpaceSet; 2],
        [BlockSet; 2],
        [BlockSet; 2],
    ) {
        let n = game.board().len();
        let mut forces = [vec![Forces::default(); n], vec![Forces::default(); n]];
        let mut occupied = [SpaceSet::default(); 2];
        let mut on_map = [BlockSet::default(); 2];
        let mut pooled = [BlockSet::default(); 2];
        for (i, b) in self.blocks.iter().enumerate() {
            let id = BlockId(i as u8);
            if b.on_map() {
                let strength = b.steps * game.strength_per_step[i];
                forces[b.side.index()][b.loc as usize].add(strength, game.is_navis(id));
                occupied[b.side.index()].insert(SpaceId(b.loc));
                on_map[b.side.index()].insert(id);
            } else if b.loc == POOL {
                pooled[b.side.index()].insert(id);
            }
        }
        (forces, occupied, on_map, pooled)
    }

    /// 4.21 / 4.4: friendly to `side` (occupied by it alone).
    pub fn is_friendly(&self, space: SpaceId, side: Side) -> bool {
        let o = self.occupied(space);
        o[side.index()] && !o[side.other().index()]
    }
    pub fn is_vacant(&self, space: SpaceId) -> bool {
        self.occupied(space) == [false, false]
    }
    pub fn is_contested(&self, space: SpaceId) -> bool {
        self.occupied(space) == [true, true]
    }
    /// Holds enemy blocks (enemy or contested).
    fn has_enemy(&self, space: SpaceId, side: Side) -> bool {
        self.occupied(space)[side.other().index()]
    }

    /// 1.2: city VP held plus leaders killed.
    pub fn vp(&self, game: &Game) -> [u32; 2] {
        let board = game.board();
        let mut vp = [
            self.trophies[0] as u32 * game.rules.vp_per_leader_killed as u32,
            self.trophies[1] as u32 * game.rules.vp_per_leader_killed as u32,
        ];
        for id in board.ids() {
            let v = board.space(id).vp as u32;
            if v == 0 {
                continue;
            }
            match self.occupied(id) {
                [true, false] => vp[0] += v,
                [false, true] => vp[1] += v,
                _ => {}
            }
        }
        vp
    }

    /// Every legal action now, into `out` (cleared first). Never empty unless
    /// the game is over.
    pub fn legal_actions(&self, game: &Game, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Discard(side) | Phase::PlayCard(side) => {
                let play = matches!(self.phase, Phase::PlayCard(_));
                let hand = &self.hands[side.index()];
                for (i, &card) in hand.iter().enumerate() {
                    // Identical cards are one choice.
                    if hand[..i].iter().any(|&c| game.card(c) == game.card(card)) {
                        continue;
                    }
                    out.push(if play {
                        Action::Play(card)
                    } else {
                        Action::Discard(card)
                    });
                }
            }
            Phase::Command(_) => self.command_actions(game, out),
            Phase::ChooseBattle => {
                for c in &self.contests {
                    out.push(Action::Battle(c.space));
                }
            }
            Phase::Battle => battle::Battle::actions(self, game, out),
            Phase::Regroup(_) => self.regroup_actions(game, out),
            Phase::WinterNavis(_) => self.winter_navis_actions(game, out),
            Phase::WinterSupply(_) => self.winter_supply_actions(game, out),
            Phase::Over => {}
        }
        debug_assert!(
            self.is_over() || !out.is_empty(),
            "no legal action in {:?}",
            self.phase
        );
    }

    /// Applies a legal action. Applying an illegal one is a logic error: use
    /// [`State::try_apply`] for untrusted input.
    pub fn apply(&mut self, game: &Game, action: Action) {
        self.apply_logged(game, action, &mut NoLog);
    }

    /// Applies a legal action (checked in debug builds; [`State::try_apply`]
    /// checks it always).
    pub fn apply_logged(&mut self, game: &Game, action: Action, log: &mut impl Log) {
        #[cfg(debug_assertions)]
        {
            debug_assert!(
                self.is_legal(game, action),
                "illegal action \"{}\" ({action:?}) in {:?}",
                game.action_text(action),
                self.phase
            );
        }
        self.stats.actions += 1;
        match self.phase {
            Phase::Discard(side) => self.discard(game, side, action, log),
            Phase::PlayCard(side) => self.play_card(game, side, action, log),
            Phase::Command(_) => self.command_apply(game, action, log),
            Phase::ChooseBattle => {
                if let Action::Battle(space) = action {
                    self.start_battle(game, space, log);
                }
            }
            Phase::Battle => battle::Battle::apply(self, game, action, log),
            Phase::Regroup(_) => self.regroup_apply(game, action, log),
            Phase::WinterNavis(_) => self.winter_navis_apply(game, action, log),
            Phase::WinterSupply(_) => self.winter_supply_apply(game, action, log),
            Phase::Over => {}
        }
        debug_assert_eq!(
            (self.forces.clone(), self.occupied, self.on_map, self.pooled),
            self.counted(game),
            "occupancy out of step after {action:?}"
        );
    }

    /// Whether `action` is legal now. A card is named by its deck index;
    /// identical cards are one choice in [`State::legal_actions`], and any
    /// copy in the hand may be given.
    pub(crate) fn is_legal(&self, game: &Game, action: Action) -> bool {
        let mut legal = Vec::new();
        self.legal_actions(game, &mut legal);
        if legal.contains(&action) {
            return true;
        }
        let (card, as_action): (u8, fn(u8) -> Action) = match action {
            Action::Discard(c) => (c, Action::Discard),
            Action::Play(c) => (c, Action::Play),
            _ => return false,
        };
        let in_hand = self
            .current_player()
            .is_some_and(|side| self.hands[side.index()].contains(&card));
        in_hand
            && legal.iter().any(|a| {
                self.hands
                    .iter()
                    .flatten()
                    .any(|&c| *a == as_action(c) && game.card(c) == game.card(card))
            })
    }

    /// Applies an action after checking it is legal.
    pub fn try_apply(&mut self, game: &Game, action: Action) -> Result<(), IllegalAction> {
        if !self.is_legal(game, action) {
            return Err(IllegalAction {
                action: game.action_text(action),
                phase: self.stage_text(game),
            });
        }
        self.apply(game, action);
        Ok(())
    }

    /// Printed strength (7.41: elephant steps count double).
    pub fn strength(&self, game: &Game, b: BlockId) -> u8 {
        self.blocks[b.index()].steps * game.strength_per_step[b.index()]
    }

    /// Checks invariants; used by tests and debug builds. Returns the first
    /// broken one.
    pub fn check_invariants(&self, game: &Game) -> Result<(), BrokenInvariant> {
        let roster = game.roster();
        for b in roster.ids() {
            let s = self.blocks[b.index()];
            let block = roster.block(b);
            let name = || block.name.clone();
            if let Place::Map(space) = s.place() {
                if space.index() >= game.board().len() {
                    return Err(BrokenInvariant::OffTheBoard { block: name() });
                }
                if !(1..=block.max_steps).contains(&s.steps) {
                    let steps = s.steps;
                    return Err(BrokenInvariant::Steps {
                        block: name(),
                        steps,
                    });
                }
                let kind = game.board().space(space).kind;
                if block.kind.is_land() && kind == SpaceKind::Sea {
                    return Err(BrokenInvariant::LandAtSea { block: name() });
                }
                if block.kind == BlockKind::Navis && kind == SpaceKind::City {
                    return Err(BrokenInvariant::NavisInland { block: name() });
                }
            }
            if s.place() == Place::Trophy && block.kind != BlockKind::Leader {
                return Err(BrokenInvariant::TrophyNotLeader { block: name() });
            }
        }
        let between_battles = !matches!(
            self.phase,
            Phase::Battle | Phase::ChooseBattle | Phase::Command(_) | Phase::Regroup(_)
        ) && self.battle.is_none();
        if between_battles {
            for id in game.board().ids() {
                if self.is_contested(id) && !self.contests.iter().any(|c| c.space == id) {
                    let space = game.space_name(id).to_string();
                    return Err(BrokenInvariant::ContestOutsideBattles { space });
                }
            }
        }
        let trophies: usize = self.blocks.iter().filter(|b| b.loc == TROPHY).count();
        if trophies != (self.trophies[0] + self.trophies[1]) as usize {
            return Err(BrokenInvariant::TrophyCount);
        }
        Ok(())
    }

    /// A short text of the position, for records and debugging.
    pub fn describe(&self, game: &Game) -> String {
        let mut out = String::new();
        for id in game.board().ids() {
            let here: Vec<String> = game
                .roster()
                .ids()
                .filter(|b| self.blocks[b.index()].loc == id.0)
                .map(|b| {
                    format!(
                        "{}{} {}",
                        if self.side(b) == Side::Caesar {
                            "C:"
                        } else {
                            "P:"
                        },
                        game.block_name(b),
                        self.strength(game, b)
                    )
                })
                .collect();
            if !here.is_empty() {
                out.push_str(&format!("{}: {}\n", game.space_name(id), here.join(", ")));
            }
        }
        out
    }
}

/// A state the engine should never reach ([`State::check_invariants`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrokenInvariant {
    #[error("{block} off the board")]
    OffTheBoard { block: String },
    #[error("{block} has {steps} steps")]
    Steps { block: String, steps: u8 },
    #[error("{block} at sea")]
    LandAtSea { block: String },
    #[error("navis {block} inland")]
    NavisInland { block: String },
    #[error("{block} is a trophy")]
    TrophyNotLeader { block: String },
    #[error("{space} contested outside battles")]
    ContestOutsideBattles { space: String },
    #[error("trophy count differs from dead leaders")]
    TrophyCount,
}

/// One of `n` equally likely choices by the dice, as 2.0's Jupiter
/// prints it: "For a group of 3, roll 1d6: 1-2 = 1st block, 3-4 = 2nd
/// block, and 5-6 = 3rd. For a group of 5, roll 1d6 and reroll a 6."
/// Each die splits the faces evenly among the choices and rerolls the
/// rest; more than six choices take two dice (36 faces), and so on. One
/// choice takes no roll.
pub(super) fn roll_among_with(n: usize, roll: &mut dyn FnMut() -> u8) -> usize {
    debug_assert!(n > 0);
    loop {
        let (mut faces, mut value) = (1usize, 0usize);
        while faces < n {
            value = value * 6 + (roll() - 1) as usize;
            faces *= 6;
        }
        let per_choice = faces / n;
        if value < per_choice * n {
            return value / per_choice;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;

    /// Two clones that move different blocks get different stamps for the
    /// side that moved (a cache keyed on the stamp is never fooled), and
    /// the side that did not move keeps its stamp.
    #[test]
    fn map_stamps_differ_between_clones_that_moved_differently() {
        let game = crate::test_support::published("rules-2.0");
        let (state, legal) = crate::test_support::play_until(&game, 3, |_, legal| {
            legal
                .iter()
                .filter(|a| matches!(a, Action::Group(_)))
                .count()
                >= 2
        });
        let side = state.current_player().expect("a command phase");
        let groups: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Group(_)))
            .collect();
        let mut legal = Vec::new();
        let mut moved = |group: Action| {
            let mut s = state.clone();
            s.apply(&game, group);
            s.legal_actions(&game, &mut legal);
            let step = *legal
                .iter()
                .find(|a| matches!(a, Action::Step { .. }))
                .expect("the group has a step");
            s.apply(&game, step);
            s
        };
        let (a, b) = (moved(groups[0]), moved(groups[1]));
        let (i, other) = (side.index(), side.other().index());
        assert_ne!(a.map_stamp[i], b.map_stamp[i]);
        assert_ne!(a.map_stamp[i], state.map_stamp[i]);
        assert_eq!(a.map_stamp[other], state.map_stamp[other]);
        assert_eq!(b.map_stamp[other], state.map_stamp[other]);
    }

    fn events_in(game: &Game, hand: &[u8]) -> usize {
        hand.iter()
            .filter(|c| matches!(game.card(**c), CardFace::Event(_)))
            .count()
    }

    /// The direct draw gives each capped deal the chance a plain shuffle that
    /// happened to respect the cap would: the event counts of the two hands
    /// match those of redealing until the cap holds (the engine's old way).
    #[test]
    fn capped_deals_are_distributed_as_redealt_ones() {
        let game = crate::test_support::published("house-2.0-max-2-events");
        let (hand, cap) = (6, 1);
        let samples = 20_000;
        let mut direct = [[0u32; 2]; 2];
        let mut redealt = [[0u32; 2]; 2];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..samples {
            let [a, b] = cards::deal_capped(&game, hand, cap, &mut rng);
            assert_eq!((a.len(), b.len()), (hand, hand));
            let mut all: Vec<u8> = a.iter().chain(&b).copied().collect();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 2 * hand, "no card is dealt twice");
            direct[events_in(&game, &a)][events_in(&game, &b)] += 1;
            let mut deck = game.deck.clone();
            loop {
                deck.shuffle(&mut rng);
                let (a, b) = (&deck[..hand], &deck[hand..2 * hand]);
                let (ea, eb) = (events_in(&game, a), events_in(&game, b));
                if ea <= cap && eb <= cap {
                    redealt[ea][eb] += 1;
                    break;
                }
            }
        }
        for i in 0..2 {
            for j in 0..2 {
                let (d, r) = (direct[i][j] as f64, redealt[i][j] as f64);
                // About four standard errors of a 20,000-sample share.
                assert!(
                    (d - r).abs() / samples as f64 <= 0.015,
                    "{i} and {j} events: direct {d}, redealt {r}"
                );
            }
        }
    }

    #[test]
    fn a_move_back_within_two_turns_without_a_battle_counts_as_undone() {
        let game = crate::test_support::published("rules-2.0");
        let mut state = State::new(&game, 1);
        let b = state.on_map[0].iter().next().unwrap();
        let here = state.blocks[b.index()].loc;
        let there = game.board().neighbours(SpaceId(here))[0].to.0;
        let hop = |state: &mut State, turn: u8, from: u16, to: u16, flags: u8| {
            state.turn = turn;
            let s = &mut state.blocks[b.index()];
            (s.came_from, s.loc, s.flags) = (from, to, flag::MOVED | flags);
            state.count_moves_undone(&game);
            state.blocks[b.index()].flags = 0;
            state.stats.quality.moves_undone[0]
        };
        assert_eq!(hop(&mut state, 1, here, there, 0), 0);
        assert_eq!(hop(&mut state, 2, there, here, 0), 1, "back the next turn");
        assert_eq!(hop(&mut state, 5, here, there, 0), 1, "three turns on");
        assert_eq!(
            hop(&mut state, 6, there, here, flag::FOUGHT),
            1,
            "into a battle"
        );
        assert_eq!(hop(&mut state, 7, here, there, 0), 1, "after a battle");
        assert_eq!(hop(&mut state, 8, there, here, 0), 2);
    }

    #[test]
    fn rule_2_1_moves_not_made_read_zero_once_the_levies_begin() {
        let game = crate::test_support::published("rules-2.0");
        let mut state = State::new(&game, 1);
        let mut legal = Vec::new();
        loop {
            state.legal_actions(&game, &mut legal);
            if legal.contains(&Action::EndMoves) {
                let (mp, _) = state.command_points().expect("a command phase");
                assert!(mp > 0, "moves are offered while points are left");
                state.apply(&game, Action::EndMoves);
                break;
            }
            let a = legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Discard(_) | Action::Play(_)))
                .unwrap_or(legal[0]);
            state.apply(&game, a);
        }
        state.legal_actions(&game, &mut legal);
        assert!(legal.contains(&Action::EndLevy), "{legal:?}");
        let (mp, lp) = state.command_points().expect("still the command phase");
        assert_eq!(mp, 0);
        assert!(lp > 0);
    }
}
