//! The rules engine, in the style of OpenSpiel's game state: an immutable
//! [`Game`] (board, roster, deck, rule set) and a small, cheap-to-clone
//! [`State`] driven by fine-grained [`Action`]s. Chance is drawn from a seeded
//! ChaCha RNG carried in the state, so a seed and a list of actions replay the
//! same game on every machine.
//!
//! Decisions the rulebooks leave open are documented in `docs/rules-notes.md`.

mod battle;
mod battle_setup;
pub mod chance;
mod command;
pub mod events;
mod position;
mod sets;
mod start;
mod view;
mod winter;
pub use battle::BattleInfo;
pub use battle_setup::{BattleBlock, BattleKey, BattleStart};
pub use position::{PlacedBlock, Position, PositionError, Stage};
// `PlayQuality` is defined below, beside `GameStats`.
pub use events::{GameEvent, Log, NoLog};
use events::{Orders, emit};
pub(crate) use sets::SET_CAPACITY;
use sets::{BlockSet, SpaceSet};
pub use start::NotPlayable;
pub use view::{CardSet, KnownBlock, SideView};

use std::fmt;
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::scenario::model::{BlockId, CardFace, LinkId, Scenario, SpaceId};
use crate::scenario::model::{BlockKind, Event, LinkClass, Side, SpaceKind};
use crate::scenario::rules::RuleSet;

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

/// Immutable game definition shared by all states.
#[derive(Debug, Clone)]
pub struct Game {
    pub scenario: Arc<Scenario>,
    pub rules: Arc<RuleSet>,
    /// Cards in play after the variant's removals (indices into the deck).
    deck: Vec<u8>,
    /// Blocks that start in the pool and wait for a leader's death (7.51).
    reserve_leaders: BlockSet,
    /// Each side's own blocks by the roster (a defector waits in its
    /// printed owner's pool).
    printed: [BlockSet; 2],
    /// Where each block may be levied (6.4), and the blocks levied in each
    /// space by its own city.
    levy_rule: Vec<LevyRule>,
    levied_in: Vec<BlockSet>,
    /// Blocks levied in any friendly city or major port.
    levied_anywhere: BlockSet,
    rome: Option<SpaceId>,
    alexandria: Option<SpaceId>,
    cleopatra: Option<BlockId>,
    /// 4.1: cities (ports included), and major ports (navis levies, 6.4).
    cities: SpaceSet,
    /// Cities worth VP (play quality).
    vp_cities: SpaceSet,
    major_ports: SpaceSet,
    seas: SpaceSet,
    /// Blocks that move by road (all but navis).
    land_blocks: BlockSet,
    /// Each block's full strength in steps (the roster's, kept at hand).
    max_steps: Vec<u8>,
    /// Each block's strength per step (the roster's, kept at hand).
    strength_per_step: Vec<u8>,
    /// The seas bordering each space (6.2, 6.3).
    sea_borders: Vec<SpaceSet>,
    /// From each space, the others it reaches by road, nearest first.
    by_road_distance: Arc<[Vec<(SpaceId, u8)>]>,
    /// From each space, the seas one or two sea moves away, in id order.
    seas_within_two: Arc<[Vec<(SpaceId, u8)>]>,
    /// The spaces that are not seas, in id order.
    land_spaces: Arc<[SpaceId]>,
}

/// The seas bordering each space (6.2, 6.3).
fn sea_borders(board: &crate::scenario::model::Board) -> Vec<SpaceSet> {
    board
        .ids()
        .map(|s| {
            board
                .neighbours(s)
                .iter()
                .filter(|a| a.class == LinkClass::Sea && board.space(a.to).kind == SpaceKind::Sea)
                .map(|a| a.to)
                .collect()
        })
        .collect()
}

/// 6.4: where each block may be levied; per space, the blocks levied there
/// by their own city; and the blocks levied in any friendly city or major port.
fn levy_tables(
    roster: &crate::scenario::model::Roster,
    spaces: usize,
) -> (Vec<LevyRule>, Vec<BlockSet>, BlockSet) {
    let levy_rule: Vec<LevyRule> = roster
        .blocks
        .iter()
        .map(|block| match block.kind {
            BlockKind::Legion | BlockKind::Equitatus | BlockKind::Elephant => {
                block.levy_city.map_or(LevyRule::Never, LevyRule::City)
            }
            BlockKind::Navis => LevyRule::MajorPort,
            _ => LevyRule::AnyCity,
        })
        .collect();
    let mut levied_in = vec![BlockSet::default(); spaces];
    for (i, rule) in levy_rule.iter().enumerate() {
        if let LevyRule::City(city) = rule {
            levied_in[city.index()].insert(BlockId(i as u8));
        }
    }
    let levied_anywhere = levy_rule
        .iter()
        .enumerate()
        .filter(|(_, rule)| matches!(rule, LevyRule::AnyCity | LevyRule::MajorPort))
        .map(|(i, _)| BlockId(i as u8))
        .collect();
    (levy_rule, levied_in, levied_anywhere)
}

/// For [`Game::seas_within_two`].
fn seas_within_two(board: &crate::scenario::model::Board) -> Arc<[Vec<(SpaceId, u8)>]> {
    board
        .ids()
        .map(|from| {
            board
                .ids()
                .filter(|t| board.space(*t).kind == SpaceKind::Sea)
                .filter_map(|t| {
                    let d = board.sea_distance(from, t)?;
                    (1..=2).contains(&d).then_some((t, d))
                })
                .collect()
        })
        .collect()
}

/// For [`Game::spaces_by_road_distance`].
fn by_road_distance(board: &crate::scenario::model::Board) -> Arc<[Vec<(SpaceId, u8)>]> {
    board
        .ids()
        .map(|from| {
            let mut near: Vec<(SpaceId, u8)> = board
                .ids()
                .filter_map(|to| {
                    let d = board.road_distances_from(from)[to.index()];
                    (d != 0 && d != u8::MAX).then_some((to, d))
                })
                .collect();
            near.sort_by_key(|&(to, d)| (d, to));
            near
        })
        .collect()
}

/// 6.4: where a block may be levied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LevyRule {
    /// Legions, equitatus and elephants: in their own city only.
    City(SpaceId),
    /// Navis: in a friendly major port.
    MajorPort,
    /// Leaders and the rest: in any friendly city.
    AnyCity,
    /// A unit block with no levy city on this map.
    Never,
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

impl Game {
    /// A game of a validated scenario and rule set.
    ///
    /// # Panics
    /// When the engine cannot play them ([`crate::scenario::playable`]); the validator
    /// reports exactly those cases as errors, so validate first or use
    /// [`Game::try_new`].
    pub fn new(scenario: Arc<Scenario>, rules: Arc<RuleSet>) -> Game {
        Game::try_new(scenario, rules).unwrap_or_else(|unmet| {
            let reasons: Vec<String> = unmet.iter().map(|u| u.to_string()).collect();
            panic!("the engine cannot play this: {}", reasons.join("; "))
        })
    }

    /// A game, or every requirement of the engine ([`crate::scenario::playable`]) the
    /// scenario's deck and the rule set leave unmet.
    pub fn try_new(
        scenario: Arc<Scenario>,
        rules: Arc<RuleSet>,
    ) -> Result<Game, Vec<crate::scenario::playable::Unplayable>> {
        let unmet = crate::scenario::playable::check(&scenario.deck, &rules);
        if !unmet.is_empty() {
            return Err(unmet);
        }
        let deck = crate::scenario::playable::cards_in_play(&scenario.deck, &rules);
        let setup = scenario.starting_setup();

        let rome = scenario.board.find("Roma");
        let alexandria = scenario.board.find("Alexandria");
        let cleopatra = scenario
            .roster
            .ids()
            .find(|b| scenario.roster.block(*b).kind == BlockKind::Cleopatra);
        let board = &scenario.board;
        let cities = board
            .ids()
            .filter(|s| board.space(*s).kind.is_city())
            .collect();
        let seas = board
            .ids()
            .filter(|s| board.space(*s).kind == SpaceKind::Sea)
            .collect();
        let vp_cities = board
            .ids()
            .filter(|s| board.space(*s).kind.is_city() && board.space(*s).vp > 0)
            .collect();
        let major_ports = board
            .ids()
            .filter(|s| board.space(*s).kind == SpaceKind::MajorPort)
            .collect();
        let land_blocks = scenario
            .roster
            .ids()
            .filter(|b| scenario.roster.block(*b).kind.is_land())
            .collect();
        let sea_borders = sea_borders(board);
        let reserve_leaders = scenario
            .roster
            .ids()
            .filter(|b| {
                scenario.roster.block(*b).kind == BlockKind::Leader && setup.location(*b).is_none()
            })
            .collect();
        let printed =
            [Side::Caesar, Side::Pompey].map(|side| scenario.roster.of_side(side).collect());
        let (levy_rule, levied_in, levied_anywhere) = levy_tables(&scenario.roster, board.len());
        let max_steps = scenario.roster.blocks.iter().map(|b| b.max_steps).collect();
        let strength_per_step = scenario
            .roster
            .blocks
            .iter()
            .map(|b| b.kind.strength_per_step())
            .collect();
        Ok(Game {
            by_road_distance: by_road_distance(board),
            seas_within_two: seas_within_two(board),
            land_spaces: board
                .ids()
                .filter(|s| board.space(*s).kind != SpaceKind::Sea)
                .collect(),
            max_steps,
            strength_per_step,
            seas,
            levied_anywhere,
            levied_in,
            reserve_leaders,
            printed,
            levy_rule,
            sea_borders,
            land_blocks,
            deck,
            rome,
            alexandria,
            cleopatra,
            cities,
            vp_cities,
            major_ports,
            scenario,
            rules,
        })
    }

    /// The spaces `from` reaches by road, each with its road distance,
    /// nearest first and in id order at one distance (`from` itself left
    /// out): for a player looking for the nearest worthwhile space.
    pub(crate) fn spaces_by_road_distance(&self, from: SpaceId) -> &[(SpaceId, u8)] {
        &self.by_road_distance[from.index()]
    }

    /// The seas one or two sea moves from `from` (6.2), each with its
    /// distance, in id order: where a navis group may go within a turn.
    pub(crate) fn seas_within_two(&self, from: SpaceId) -> &[(SpaceId, u8)] {
        &self.seas_within_two[from.index()]
    }

    /// Whether block `b` is a navis (moves by sea, 6.2).
    pub(crate) fn is_navis(&self, b: BlockId) -> bool {
        !self.land_blocks.contains(b)
    }

    /// The spaces that are not seas (cities and other land spaces), in id order.
    pub(crate) fn land_spaces(&self) -> &[SpaceId] {
        &self.land_spaces
    }

    pub fn board(&self) -> &crate::scenario::model::Board {
        &self.scenario.board
    }
    pub fn roster(&self) -> &crate::scenario::model::Roster {
        &self.scenario.roster
    }
    pub fn card(&self, index: u8) -> CardFace {
        self.scenario.deck.cards[index as usize].face
    }
    /// The cards in play (deck indices), after the rule set's removals.
    pub fn deck_in_play(&self) -> &[u8] {
        &self.deck
    }
    pub fn card_label(&self, index: u8) -> String {
        self.card(index).name()
    }
    pub fn block_name(&self, b: BlockId) -> &str {
        &self.roster().block(b).name
    }
    pub fn space_name(&self, s: SpaceId) -> &str {
        self.board().name(s)
    }

    /// An action in plain words, as game records, errors and the command
    /// line write it ("Move Legio 13 to Roma"). Distinct legal actions of
    /// one decision always read differently, so the words name the action.
    pub fn action_text(&self, action: Action) -> String {
        let space = |s: SpaceId| self.space_name(s).to_string();
        let block = |b: BlockId| self.block_name(b).to_string();
        match action {
            Action::Discard(c) => format!("Discard {}", self.card_label(c)),
            Action::Play(c) => format!("Play {}", self.card_label(c)),
            Action::Group(s) => format!("Group move from {}", space(s)),
            Action::Step { block: b, to } => format!("Move {} to {}", block(b), space(to)),
            Action::SeaMove { block: b, to } => {
                format!("Sea move {} to {}", block(b), space(to))
            }
            Action::EndGroup => "End group".into(),
            Action::EndMoves => "End moves".into(),
            Action::Levy { block: b, at } => format!("Levy {} in {}", block(b), space(at)),
            Action::AddStep(b) => format!("Add a step to {}", block(b)),
            Action::EndLevy => "End levy".into(),
            Action::JupiterAt(s) => format!("Jupiter in {}", space(s)),
            Action::VulcanCity(s) => format!("Vulcan strikes {}", space(s)),
            Action::PassEvent => "Pass the event".into(),
            Action::Battle(s) => format!("Battle in {}", space(s)),
            Action::Surprise(Some(s)) => format!("Surprise attack in {}", space(s)),
            Action::Surprise(None) => "No surprise attack".into(),
            Action::MainAttack(l) => {
                let link = self.board().link(l);
                format!("Main attack along {}-{}", space(link.a), space(link.b))
            }
            Action::Fire => "Fire".into(),
            Action::Retreat(s) => format!("Retreat to {}", space(s)),
            Action::Pass => "Pass".into(),
            Action::TakeHit(b) => format!("{} takes the hit", block(b)),
            Action::TakeTurn(b) => format!("{} takes its turn", block(b)),
            Action::Regroup { block: b, to } => format!("Regroup {} to {}", block(b), space(to)),
            Action::EndRegroup => "End regroup".into(),
            Action::NavisToPort { block: b, to } => {
                format!("{} winters in {}", block(b), space(to))
            }
            Action::Disband(b) => format!("Disband {}", block(b)),
            Action::EndWinter => "End winter".into(),
        }
    }
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

    // ------------------------------------------------------------ card phase

    fn deal(&mut self, game: &Game, log: &mut impl Log) {
        use rand::seq::SliceRandom;
        let hand_size = game.rules.hand_size as usize;
        let cap = game.rules.max_events_per_hand as usize;
        if cap < hand_size {
            self.hands = deal_capped(game, hand_size, cap, &mut self.rng);
        } else {
            let mut deck = game.deck.clone();
            deck.shuffle(&mut self.rng);
            // `playable::check` guarantees two whole hands.
            self.hands = [
                deck[..hand_size].to_vec(),
                deck[hand_size..2 * hand_size].to_vec(),
            ];
        }
        self.discarded = [CardSet::EMPTY; 2];
        self.year_played = CardSet::EMPTY;
        for side in Side::BOTH {
            emit!(
                log,
                GameEvent::Dealt {
                    year: self.year,
                    side,
                    cards: self.hands[side.index()].clone(),
                }
            );
        }
        self.phase = if game.rules.discards > 0 {
            Phase::Discard(Side::Caesar)
        } else {
            Phase::PlayCard(Side::Caesar)
        };
    }

    fn discard(&mut self, game: &Game, side: Side, action: Action, log: &mut impl Log) {
        let Action::Discard(card) = action else {
            return;
        };
        let hand = &mut self.hands[side.index()];
        if let Some(pos) = hand.iter().position(|&c| c == card) {
            hand.remove(pos);
        }
        self.discarded[side.index()].insert(card);
        if matches!(game.card(card), CardFace::Event(_)) {
            self.stats.quality.events_discarded[side.index()] += 1;
        }
        emit!(log, GameEvent::Discarded { side, card });
        let discarded = game.rules.hand_size as usize - self.hands[side.index()].len();
        self.phase = if discarded < game.rules.discards as usize {
            Phase::Discard(side)
        } else if side == Side::Caesar {
            Phase::Discard(Side::Pompey)
        } else {
            Phase::PlayCard(Side::Caesar)
        };
    }

    fn play_card(&mut self, game: &Game, side: Side, action: Action, log: &mut impl Log) {
        let Action::Play(card) = action else {
            return;
        };
        let hand = &mut self.hands[side.index()];
        if let Some(pos) = hand.iter().position(|&c| c == card) {
            hand.remove(pos);
        }
        self.played[side.index()] = Some(card);
        if side == Side::Caesar {
            self.phase = Phase::PlayCard(Side::Pompey);
        } else {
            self.reveal_cards(game, log);
        }
    }

    /// 2.1: reveal, resolve Apollo, decide Player 1, cancel two events.
    /// What each played card does, Apollo resolved into the card it copies
    /// (and whether it was Apollo).
    fn card_effects(&self, game: &Game, played: [u8; 2]) -> ([CardFace; 2], [bool; 2]) {
        let mut effect = [game.card(played[0]), game.card(played[1])];
        let mut apollo = [false, false];
        for side in Side::BOTH {
            let i = side.index();
            if effect[i] == CardFace::Event(Event::Apollo) {
                apollo[i] = true;
                let copied = match game.rules.apollo_first_turn {
                    _ if self.turn > 1 => self.last_played[side.other().index()],
                    crate::scenario::rules::ApolloFirstTurn::CopiesPreviousYear => {
                        self.last_played[side.other().index()]
                    }
                    crate::scenario::rules::ApolloFirstTurn::NoEffect => None,
                };
                if let Some(c) = copied {
                    effect[i] = c;
                }
            }
        }
        (effect, apollo)
    }

    fn reveal_cards(&mut self, game: &Game, log: &mut impl Log) {
        let rules = &game.rules;
        let played = [
            self.played[0].expect("Caesar played"),
            self.played[1].expect("Pompey played"),
        ];
        let (effect, apollo) = self.card_effects(game, played);
        let printed_event = |i: usize| matches!(game.card(played[i]), CardFace::Event(_));
        // 2.1: two event cards played together cancel the turn; Apollo is an
        // event card whatever it copies (docs/rules-notes.md).
        let counts_as_event = printed_event;
        emit!(
            log,
            GameEvent::CardsRevealed {
                year: self.year,
                turn: self.turn,
                played,
            }
        );
        for side in Side::BOTH {
            let i = side.index();
            if apollo[i] && effect[i] != CardFace::Event(Event::Apollo) {
                emit!(
                    log,
                    GameEvent::ApolloCopies {
                        side,
                        copied: effect[i]
                    }
                );
            }
            if let CardFace::Event(e) = game.card(played[i]) {
                self.stats.events_played[e as usize] += 1;
            }
        }
        self.last_played = [Some(effect[0]), Some(effect[1])];
        self.year_played.insert(played[0]);
        self.year_played.insert(played[1]);
        let first_turn = self.year == 1 && self.turn == 1;
        if counts_as_event(0) && counts_as_event(1) {
            self.stats.events_cancelled += 1;
            if first_turn {
                self.stats.first_turn_player1 = Some(Side::Caesar);
            }
            emit!(log, GameEvent::EventsCancel);
            self.end_turn(game, log);
            return;
        }
        let player1 = player_one(rules, effect, apollo, first_turn);
        if first_turn {
            self.stats.first_turn_player1 = Some(player1);
        }
        emit!(log, GameEvent::PlayerOrder { player1 });
        self.order = [player1, player1.other()];
        for (slot, side) in self.order.into_iter().enumerate() {
            self.orders[slot] = match effect[side.index()] {
                CardFace::Command { moves, levy } => Orders::Command { moves, levy },
                CardFace::Event(Event::Apollo) => Orders::Nothing,
                CardFace::Event(e) => Orders::Event(e),
            };
        }
        self.begin_command(game, 0, log);
    }

    /// After the battles: next turn, or winter.
    fn end_turn(&mut self, game: &Game, log: &mut impl Log) {
        self.count_moves_undone(game);
        for b in &mut self.blocks {
            b.flags = 0;
            b.moved_steps = 0;
            b.entered_via = NO_LINK;
            b.came_from = b.loc;
        }
        self.road_use.iter_mut().for_each(|u| *u = [0, 0]);
        self.contests.clear();
        self.surprise = None;
        self.surprise_at = None;
        self.played = [None, None];
        let hands_left = self.hands[0].len().min(self.hands[1].len());
        if self.turn >= game.rules.turns_per_year || hands_left == 0 {
            self.begin_winter(game, log);
        } else {
            self.turn += 1;
            self.phase = Phase::PlayCard(Side::Caesar);
        }
    }

    /// Play quality: a block that moves back to where it came from within
    /// two game turns, with no battle in between or at either end, undid
    /// its move. Called at the end of a turn, before the flags are reset.
    fn count_moves_undone(&mut self, game: &Game) {
        let turns = u16::from(game.rules.turns_per_year.max(1));
        let now = ((u16::from(self.year) - 1) * turns + u16::from(self.turn)).min(255) as u8;
        for b in &mut self.blocks {
            if b.has(flag::FOUGHT) || !b.on_map() {
                b.last_hop = Hop::NONE;
                continue;
            }
            if !b.has(flag::MOVED) || b.came_from == b.loc {
                continue;
            }
            let hop = Hop {
                from: b.came_from,
                to: b.loc,
                turn: now,
            };
            let last = b.last_hop;
            if last.turn != 0
                && now.saturating_sub(last.turn) <= 2
                && (last.from, last.to) == (hop.to, hop.from)
            {
                self.stats.quality.moves_undone[b.side.index()] += 1;
            }
            b.last_hop = hop;
        }
    }

    // ------------------------------------------------------------- helpers

    /// Moves a block (on or off the map). Every change of place goes
    /// through here so that [`State::occupancy`] stays true.
    fn set_loc(&mut self, game: &Game, b: BlockId, loc: u16) {
        let block = self.blocks[b.index()];
        let side = block.side;
        let (strength, navis) = (self.strength(game, b), game.is_navis(b));
        if block.on_map() {
            self.leave_space(strength, navis, block.loc, side);
            self.on_map[side.index()].remove(b);
        } else if block.loc == POOL {
            self.pooled[side.index()].remove(b);
        }
        self.blocks[b.index()].loc = loc;
        if self.blocks[b.index()].on_map() {
            self.enter_space(strength, navis, loc, side);
            self.on_map[side.index()].insert(b);
        } else if loc == POOL {
            self.pooled[side.index()].insert(b);
        }
        if block.on_map() || loc < TROPHY {
            self.map_stamp[side.index()] = fresh_stamp();
        }
    }

    /// Sets a block's steps, keeping [`State::forces`] true.
    fn set_steps(&mut self, game: &Game, b: BlockId, steps: u8) {
        let block = self.blocks[b.index()];
        self.blocks[b.index()].steps = steps;
        if block.on_map() {
            let per_step = game.strength_per_step[b.index()];
            let here = &mut self.forces[block.side.index()][block.loc as usize];
            here.strength =
                here.strength - u16::from(block.steps * per_step) + u16::from(steps * per_step);
            if game.is_navis(b) {
                here.navis_strength = here.navis_strength - u16::from(block.steps * per_step)
                    + u16::from(steps * per_step);
            }
        }
    }

    #[inline]
    fn enter_space(&mut self, strength: u8, navis: bool, loc: u16, side: Side) {
        let here = &mut self.forces[side.index()][loc as usize];
        here.add(strength, navis);
        if here.blocks == 1 {
            self.occupied[side.index()].insert(SpaceId(loc));
        }
    }

    #[inline]
    fn leave_space(&mut self, strength: u8, navis: bool, loc: u16, side: Side) {
        let here = &mut self.forces[side.index()][loc as usize];
        here.remove(strength, navis);
        if here.blocks == 0 {
            self.occupied[side.index()].remove(SpaceId(loc));
        }
    }

    /// Changes the side a block fights for (Cleopatra, Jupiter, a return to
    /// the printed owner's pool), keeping [`State::occupancy`] true.
    fn set_side(&mut self, game: &Game, b: BlockId, side: Side) {
        let block = self.blocks[b.index()];
        if block.on_map() {
            self.map_stamp = [fresh_stamp(), fresh_stamp()];
            let (strength, navis) = (self.strength(game, b), game.is_navis(b));
            self.leave_space(strength, navis, block.loc, block.side);
            self.enter_space(strength, navis, block.loc, side);
            self.on_map[block.side.index()].remove(b);
            self.on_map[side.index()].insert(b);
        } else if block.loc == POOL {
            self.pooled[block.side.index()].remove(b);
            self.pooled[side.index()].insert(b);
        }
        self.blocks[b.index()].side = side;
    }

    /// Removes a block from play (7.5): leaders become trophies, Cleopatra
    /// changes sides at strength I (7.52), the rest go face-up to the pool.
    /// Returns true if the block left the map.
    fn eliminate(&mut self, game: &Game, b: BlockId, log: &mut impl Log) -> bool {
        let block = game.roster().block(b);
        let side = self.blocks[b.index()].side;
        let at = self.blocks[b.index()].place();
        if block.kind == BlockKind::Cleopatra {
            self.set_side(game, b, side.other());
            self.set_steps(game, b, 1);
            emit!(log, GameEvent::CleopatraChangesSides { to: side.other() });
            return false;
        }
        self.stats.blocks_eliminated[side.index()] += 1;
        if let Place::Map(space) = at {
            self.stats.map_events.push(MapEvent::BlockLost(space, side));
        }
        if block.kind == BlockKind::Leader {
            self.set_loc(game, b, TROPHY);
            self.trophies[side.other().index()] += 1;
            self.leader_died[side.index()] = true;
            self.stats.leaders_killed[side.index()] += 1;
            emit!(log, GameEvent::LeaderKilled { side, block: b });
        } else {
            self.set_loc(game, b, ELIMINATED);
            self.set_steps(game, b, 0);
            emit!(log, GameEvent::Eliminated { side, block: b });
        }
        self.blocks[b.index()].flags = 0;
        // A block that dies returns to its printed owner's pool.
        if block.kind != BlockKind::Leader {
            self.set_side(game, b, block.side);
        }
        true
    }

    /// Takes one step from a block, eliminating it below strength I.
    fn reduce(&mut self, game: &Game, b: BlockId, log: &mut impl Log) -> bool {
        let side = self.blocks[b.index()].side;
        self.stats.steps_lost[side.index()] += 1;
        if let Place::Map(space) = self.blocks[b.index()].place() {
            self.stats.map_events.push(MapEvent::StepLost(space, side));
        }
        let steps = self.blocks[b.index()].steps;
        emit!(
            log,
            GameEvent::StepLost {
                side,
                block: b,
                strength: (steps - 1) * game.strength_per_step[b.index()],
            }
        );
        if steps > 1 {
            self.set_steps(game, b, steps - 1);
            false
        } else {
            self.eliminate(game, b, log)
        }
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

/// House rule (`max_events_per_hand` below the hand size): two hands drawn
/// directly from the deals that respect the cap, each such deal as likely as
/// in a plain shuffle that happened to respect it. First the number of events
/// in each hand is drawn with its exact weight, the count of deals that give
/// it; then which events and commands, uniformly. No redealing, so the time
/// does not depend on how rare a capped deal is. `playable::check`
/// guarantees enough commands.
fn deal_capped(game: &Game, hand: usize, cap: usize, rng: &mut ChaCha8Rng) -> [Vec<u8>; 2] {
    use rand::RngExt;
    use rand::seq::SliceRandom;
    let (mut events, mut commands): (Vec<u8>, Vec<u8>) = game
        .deck
        .iter()
        .partition(|c| matches!(game.card(**c), CardFace::Event(_)));
    let (e, m) = (events.len(), commands.len());
    // ln n! for n up to the deck size (at most 256 cards).
    let mut ln_fact = vec![0.0f64; e + m + 1];
    for n in 1..ln_fact.len() {
        ln_fact[n] = ln_fact[n - 1] + (n as f64).ln();
    }
    let ln_choose = |n: usize, k: usize| ln_fact[n] - ln_fact[k] - ln_fact[n - k];
    // Deals with e1 events in the first hand and e2 in the second.
    let mut counts: Vec<((usize, usize), f64)> = Vec::new();
    for e1 in 0..=cap.min(e) {
        for e2 in 0..=cap.min(e - e1) {
            let (c1, c2) = (hand - e1, hand - e2);
            if c1 + c2 > m {
                continue;
            }
            let ln =
                ln_choose(e, e1) + ln_choose(e - e1, e2) + ln_choose(m, c1) + ln_choose(m - c1, c2);
            counts.push(((e1, e2), ln));
        }
    }
    let top = counts.iter().map(|c| c.1).fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = counts.iter().map(|c| (c.1 - top).exp()).collect();
    let mut pick = rng.random::<f64>() * weights.iter().sum::<f64>();
    let mut chosen = counts
        .last()
        .expect("playable::check guarantees a capped deal")
        .0;
    for (c, w) in counts.iter().zip(&weights) {
        if pick < *w {
            chosen = c.0;
            break;
        }
        pick -= w;
    }
    let (e1, e2) = chosen;
    events.shuffle(rng);
    commands.shuffle(rng);
    let mut first: Vec<u8> = events[..e1]
        .iter()
        .chain(&commands[..hand - e1])
        .copied()
        .collect();
    let mut second: Vec<u8> = events[e1..e1 + e2]
        .iter()
        .chain(&commands[hand - e1..2 * hand - e1 - e2])
        .copied()
        .collect();
    first.shuffle(rng);
    second.shuffle(rng);
    [first, second]
}

/// Who is Player 1 (2.1) given what each card does: Caesar on the game's
/// first turn where the rule set says so; else the event player; else the
/// higher move, Caesar on ties.
fn player_one(
    rules: &crate::scenario::rules::RuleSet,
    effect: [CardFace; 2],
    apollo: [bool; 2],
    first_turn: bool,
) -> Side {
    let moves = |i: usize| match effect[i] {
        CardFace::Command { moves, .. } => moves,
        CardFace::Event(_) => 0,
    };
    let decides_event = |i: usize| {
        if apollo[i] && !rules.apollo_copy_decides_player1 {
            true
        } else {
            matches!(effect[i], CardFace::Event(_))
        }
    };
    if first_turn && rules.caesar_player1_first_turn {
        Side::Caesar
    } else if decides_event(0) != decides_event(1) {
        // The event player is Player 1.
        if decides_event(0) {
            Side::Caesar
        } else {
            Side::Pompey
        }
    } else if moves(1) > moves(0) {
        Side::Pompey
    } else {
        Side::Caesar // higher move, Caesar on ties
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
            let [a, b] = deal_capped(&game, hand, cap, &mut rng);
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
