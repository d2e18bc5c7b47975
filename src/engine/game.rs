//! The immutable game: a scenario and a rule set, with what the engine
//! reads of them again and again worked out once (cities, ports, seas, levy
//! places 6.4, road distances, sea borders).

use std::sync::Arc;

use super::Action;
use super::sets::{BlockSet, SpaceSet};
use crate::scenario::model::{BlockId, CardFace, Scenario, Space, SpaceId};
use crate::scenario::model::{BlockKind, LinkClass, Side, SpaceKind};
use crate::scenario::rules::RuleSet;

/// Immutable game definition shared by all states.
#[derive(Debug, Clone)]
pub struct Game {
    pub scenario: Arc<Scenario>,
    pub rules: Arc<RuleSet>,
    /// Cards in play after the variant's removals (indices into the deck).
    pub(super) deck: Vec<u8>,
    /// Blocks that start in the pool and wait for a leader's death (7.51).
    pub(super) reserve_leaders: BlockSet,
    /// Each side's own blocks by the roster (a defector waits in its
    /// printed owner's pool).
    pub(super) printed: [BlockSet; 2],
    /// Where each block may be levied (6.4), and the blocks levied in each
    /// space by its own city.
    pub(super) levy_rule: Vec<LevyRule>,
    pub(super) levied_in: Vec<BlockSet>,
    /// Blocks levied in any friendly city or major port.
    pub(super) levied_anywhere: BlockSet,
    pub(super) rome: Option<SpaceId>,
    pub(super) alexandria: Option<SpaceId>,
    pub(super) cleopatra: Option<BlockId>,
    /// 4.1: cities (ports included), and major ports (navis levies, 6.4).
    pub(super) cities: SpaceSet,
    /// Cities worth VP (play quality).
    pub(super) vp_cities: SpaceSet,
    pub(super) major_ports: SpaceSet,
    pub(super) seas: SpaceSet,
    /// Blocks that move by road (all but navis).
    pub(super) land_blocks: BlockSet,
    /// Each block's full strength in steps (the roster's, kept at hand).
    pub(super) max_steps: Vec<u8>,
    /// Each block's strength per step (the roster's, kept at hand).
    pub(super) strength_per_step: Vec<u8>,
    /// The seas bordering each space (6.2, 6.3).
    pub(super) sea_borders: Vec<SpaceSet>,
    /// From each space, the others it reaches by road, nearest first.
    pub(super) by_road_distance: Arc<[Vec<(SpaceId, u8)>]>,
    /// From each space, the seas one or two sea moves away, in id order.
    pub(super) seas_within_two: Arc<[Vec<(SpaceId, u8)>]>,
    /// The spaces that are not seas, in id order.
    pub(super) land_spaces: Arc<[SpaceId]>,
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
pub(super) enum LevyRule {
    /// Legions, equitatus and elephants: in their own city only.
    City(SpaceId),
    /// Navis: in a friendly major port.
    MajorPort,
    /// Leaders and the rest: in any friendly city.
    AnyCity,
    /// A unit block with no levy city on this map.
    Never,
}

impl Game {
    /// A game of a validated scenario and rule set, for the engine's own
    /// doors only ([`Game::from_checked`]): front ends start games through
    /// [`Game::from_document`], which cannot panic.
    ///
    /// # Panics
    /// When the engine cannot play them ([`crate::scenario::playable`]).
    pub(super) fn new(scenario: Arc<Scenario>, rules: Arc<RuleSet>) -> Game {
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
        let spaces_where = |keep: fn(&Space) -> bool| -> SpaceSet {
            board.ids().filter(|s| keep(board.space(*s))).collect()
        };
        let cities = spaces_where(|s| s.kind.is_city());
        let seas = spaces_where(|s| s.kind == SpaceKind::Sea);
        let vp_cities = spaces_where(|s| s.kind.is_city() && s.vp > 0);
        let major_ports = spaces_where(|s| s.kind == SpaceKind::MajorPort);
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
