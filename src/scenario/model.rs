//! The typed scenario model: compact ids, flat adjacency arrays for the engine's
//! hot paths, and a petgraph graph for whole-map queries.
//!
//! Building is lenient: items with unknown names are skipped and reported as
//! findings, so the validator and the editor can show everything wrong at once.

use std::collections::{BTreeMap, HashMap};

use petgraph::graph::UnGraph;
use serde::Serialize;

use crate::scenario::diagnostics::{Code, Deployment, Finding, Severity, Subject};
use crate::scenario::format::Location;
use crate::scenario::format::{DeploymentDoc, LinkDoc, ResolvedScenario, SourceFile, SourceIndex};
use crate::scenario::names;

pub use crate::scenario::kinds::{BlockKind, Event, Initiative, LinkClass, Side, SpaceKind};

/// The most spaces a map may have (the engine's space sets hold 256).
pub const MAX_SPACES: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SpaceId(pub u16);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct LinkId(pub u16);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct BlockId(pub u8);

impl SpaceId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl LinkId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl BlockId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Space {
    pub name: String,
    pub kind: SpaceKind,
    pub vp: u8,
    pub pos: (f32, f32),
    pub island: Option<String>,
    pub aliases: Vec<String>,
}

impl Space {
    /// 8.4: three blocks plus the city's value.
    pub fn winter_supply(&self, base: u8) -> u8 {
        base.saturating_add(self.vp)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub a: SpaceId,
    pub b: SpaceId,
    pub class: LinkClass,
    /// Straits are named (4.32).
    pub name: Option<String>,
}

impl Link {
    pub fn other(&self, from: SpaceId) -> SpaceId {
        if self.a == from { self.b } else { self.a }
    }
}

/// One entry of a space's adjacency list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adjacent {
    pub to: SpaceId,
    pub link: LinkId,
    pub class: LinkClass,
}

/// The map: spaces, links and precomputed adjacency.
#[derive(Debug, Clone)]
pub struct Board {
    pub spaces: Vec<Space>,
    pub links: Vec<Link>,
    adjacency_start: Vec<u32>,
    /// Where each space's sea borders begin within its adjacency.
    sea_start: Vec<u32>,
    adjacency: Vec<Adjacent>,
    graph: UnGraph<SpaceId, LinkId>,
    by_name: HashMap<String, SpaceId>,
    /// Road moves between every pair of spaces (`u8::MAX`: unreachable).
    road_distance: Vec<u8>,
    /// Navis moves (along sea borders, 6.2) between every pair of spaces.
    sea_distance: Vec<u8>,
}

/// A name that matches no space (or block), with the nearest known name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {}{suggestion}", crate::scenario::names::escaped(name))]
pub struct UnknownName {
    pub what: &'static str,
    pub name: String,
    pub suggestion: String,
}

/// Each space's normalised name and aliases to its id; map names win over
/// aliases, the first space over later ones for an alias.
fn spaces_by_name(spaces: &[Space]) -> HashMap<String, SpaceId> {
    let mut by_name = HashMap::new();
    for (i, space) in spaces.iter().enumerate() {
        for alias in &space.aliases {
            by_name
                .entry(names::normalise(alias))
                .or_insert(SpaceId(i as u16));
        }
    }
    for (i, space) in spaces.iter().enumerate() {
        by_name.insert(names::normalise(&space.name), SpaceId(i as u16));
    }
    by_name
}

impl Board {
    /// Builds a board from spaces and (already resolved) links.
    pub fn new(spaces: Vec<Space>, links: Vec<Link>) -> Board {
        let n = spaces.len();
        let mut lists: Vec<Vec<Adjacent>> = vec![Vec::new(); n];
        let mut graph = UnGraph::with_capacity(n, links.len());
        for i in 0..n {
            graph.add_node(SpaceId(i as u16));
        }
        for (i, link) in links.iter().enumerate() {
            let id = LinkId(i as u16);
            lists[link.a.index()].push(Adjacent {
                to: link.b,
                link: id,
                class: link.class,
            });
            if link.a != link.b {
                lists[link.b.index()].push(Adjacent {
                    to: link.a,
                    link: id,
                    class: link.class,
                });
            }
            graph.add_edge(
                petgraph::graph::NodeIndex::new(link.a.index()),
                petgraph::graph::NodeIndex::new(link.b.index()),
                id,
            );
        }
        let mut adjacency_start = Vec::with_capacity(n + 1);
        let mut sea_start = Vec::with_capacity(n);
        let mut adjacency = Vec::new();
        for list in &mut lists {
            list.sort_by_key(|a| (a.class, a.to));
            adjacency_start.push(adjacency.len() as u32);
            let roads = list.iter().take_while(|a| a.class.is_road()).count();
            sea_start.push((adjacency.len() + roads) as u32);
            adjacency.extend_from_slice(list);
        }
        adjacency_start.push(adjacency.len() as u32);
        let by_name = spaces_by_name(&spaces);
        let mut board = Board {
            spaces,
            links,
            adjacency_start,
            sea_start,
            adjacency,
            graph,
            by_name,
            road_distance: Vec::new(),
            sea_distance: Vec::new(),
        };
        board.road_distance = board.all_distances(|class| class.is_road());
        board.sea_distance = board.all_distances(|class| class == LinkClass::Sea);
        board
    }

    /// Fewest moves along links of the classes `by` accepts, between every
    /// pair of spaces.
    fn all_distances(&self, by: impl Fn(LinkClass) -> bool) -> Vec<u8> {
        let n = self.len();
        let mut dist = vec![u8::MAX; n * n];
        let mut queue = std::collections::VecDeque::new();
        for from in self.ids() {
            let row = from.index() * n;
            dist[row + from.index()] = 0;
            queue.clear();
            queue.push_back(from);
            while let Some(s) = queue.pop_front() {
                let d = dist[row + s.index()];
                for adj in self.neighbours(s).iter().filter(|a| by(a.class)) {
                    if dist[row + adj.to.index()] == u8::MAX {
                        dist[row + adj.to.index()] = d.saturating_add(1);
                        queue.push_back(adj.to);
                    }
                }
            }
        }
        dist
    }

    /// Fewest road moves from `a` to `b`, ignoring enemies and limits;
    /// `None` when no road path exists (islands, seas).
    /// Road distances from `a` to every space, indexed by space (`u8::MAX`
    /// where no road path exists): one row of [`Board::road_distance`] for
    /// scans over all spaces.
    pub(crate) fn road_distances_from(&self, a: SpaceId) -> &[u8] {
        let n = self.len();
        &self.road_distance[a.index() * n..(a.index() + 1) * n]
    }

    pub fn road_distance(&self, a: SpaceId, b: SpaceId) -> Option<u8> {
        match self.road_distance[a.index() * self.len() + b.index()] {
            u8::MAX => None,
            d => Some(d),
        }
    }

    /// Fewest navis moves from `a` to `b` along sea borders (port to sea,
    /// sea to sea, 6.2), ignoring enemies; `None` when no sea path exists.
    pub(crate) fn sea_distance(&self, a: SpaceId, b: SpaceId) -> Option<u8> {
        match self.sea_distance[a.index() * self.len() + b.index()] {
            u8::MAX => None,
            d => Some(d),
        }
    }

    pub fn len(&self) -> usize {
        self.spaces.len()
    }
    pub fn is_empty(&self) -> bool {
        self.spaces.is_empty()
    }
    pub fn ids(&self) -> impl Iterator<Item = SpaceId> + '_ {
        (0..self.spaces.len()).map(|i| SpaceId(i as u16))
    }
    pub fn space(&self, id: SpaceId) -> &Space {
        &self.spaces[id.index()]
    }
    /// Links are numbered `0..link_count()`.
    pub fn link_count(&self) -> usize {
        self.links.len()
    }
    pub fn link(&self, id: LinkId) -> &Link {
        &self.links[id.index()]
    }
    pub fn name(&self, id: SpaceId) -> &str {
        &self.spaces[id.index()].name
    }
    pub fn graph(&self) -> &UnGraph<SpaceId, LinkId> {
        &self.graph
    }

    /// Every link at a space, roads first, sorted by class then neighbour.
    pub fn neighbours(&self, id: SpaceId) -> &[Adjacent] {
        let start = self.adjacency_start[id.index()] as usize;
        let end = self.adjacency_start[id.index() + 1] as usize;
        &self.adjacency[start..end]
    }

    /// The road links at a space (`neighbours` sorts them first), or its
    /// sea borders: what a land block or a navis may move along.
    pub fn neighbours_for(&self, id: SpaceId, land: bool) -> &[Adjacent] {
        let start = self.adjacency_start[id.index()] as usize;
        let seas = self.sea_start[id.index()] as usize;
        let end = self.adjacency_start[id.index() + 1] as usize;
        if land {
            &self.adjacency[start..seas]
        } else {
            &self.adjacency[seas..end]
        }
    }

    /// Cities one road (major, minor or strait) away.
    pub fn road_neighbours(&self, id: SpaceId) -> impl Iterator<Item = &Adjacent> + '_ {
        self.neighbours(id).iter().filter(|a| a.class.is_road())
    }

    /// The seas a port borders (4.42).
    pub fn seas_of(&self, port: SpaceId) -> impl Iterator<Item = SpaceId> + '_ {
        self.neighbours(port)
            .iter()
            .filter(|a| a.class == LinkClass::Sea && self.space(a.to).kind == SpaceKind::Sea)
            .map(|a| a.to)
    }

    /// The ports on a sea.
    pub fn ports_of(&self, sea: SpaceId) -> impl Iterator<Item = SpaceId> + '_ {
        self.neighbours(sea)
            .iter()
            .filter(|a| a.class == LinkClass::Sea && self.space(a.to).kind.is_port())
            .map(|a| a.to)
    }

    /// Seas bordering a sea.
    pub fn adjacent_seas(&self, sea: SpaceId) -> impl Iterator<Item = SpaceId> + '_ {
        self.neighbours(sea)
            .iter()
            .filter(|a| a.class == LinkClass::Sea && self.space(a.to).kind == SpaceKind::Sea)
            .map(|a| a.to)
    }

    pub fn link_between(&self, a: SpaceId, b: SpaceId) -> Option<LinkId> {
        self.neighbours(a)
            .iter()
            .find(|adj| adj.to == b)
            .map(|adj| adj.link)
    }

    /// A strait by its name (4.32), e.g. "Herculeum".
    pub fn strait(&self, name: &str) -> Option<LinkId> {
        let wanted = names::normalise(name);
        self.links
            .iter()
            .position(|l| {
                l.class == LinkClass::Strait
                    && l.name.as_deref().map(names::normalise) == Some(wanted.clone())
            })
            .map(|i| LinkId(i as u16))
    }

    /// Playable islands (4.41) and their cities.
    pub fn islands(&self) -> BTreeMap<&str, Vec<SpaceId>> {
        let mut out: BTreeMap<&str, Vec<SpaceId>> = BTreeMap::new();
        for id in self.ids() {
            if let Some(island) = &self.space(id).island {
                out.entry(island.as_str()).or_default().push(id);
            }
        }
        out
    }

    /// Resolves a map name or an alias (case-insensitive).
    pub fn find(&self, name: &str) -> Option<SpaceId> {
        self.by_name.get(&names::normalise(name)).copied()
    }

    /// Resolves a name, or explains it with the nearest known name.
    pub fn resolve(&self, name: &str) -> Result<SpaceId, UnknownName> {
        self.find(name).ok_or_else(|| UnknownName {
            what: "space",
            name: name.to_string(),
            suggestion: names::did_you_mean(name, self.all_names()),
        })
    }

    fn all_names(&self) -> impl Iterator<Item = &str> {
        self.spaces.iter().flat_map(|s| {
            std::iter::once(s.name.as_str()).chain(s.aliases.iter().map(String::as_str))
        })
    }

    /// Connected groups of spaces over all links (land and sea), largest first.
    pub(crate) fn components(&self) -> Vec<Vec<SpaceId>> {
        let mut sets = petgraph::unionfind::UnionFind::<usize>::new(self.len());
        for edge in self.graph.raw_edges() {
            sets.union(edge.source().index(), edge.target().index());
        }
        let mut groups: BTreeMap<usize, Vec<SpaceId>> = BTreeMap::new();
        for id in self.ids() {
            groups.entry(sets.find(id.index())).or_default().push(id);
        }
        let mut out: Vec<Vec<SpaceId>> = groups.into_values().collect();
        out.sort_by_key(|g| std::cmp::Reverse(g.len()));
        out
    }

    /// Spaces reachable from `from` in `steps` moves along roads, not counting
    /// `from` itself (6.1 move examples).
    pub fn within_road_moves(&self, from: SpaceId, steps: usize) -> Vec<SpaceId> {
        let mut dist = vec![usize::MAX; self.len()];
        dist[from.index()] = 0;
        let mut frontier = vec![from];
        for step in 1..=steps {
            let mut next = Vec::new();
            for s in frontier {
                for adj in self.road_neighbours(s) {
                    if dist[adj.to.index()] == usize::MAX {
                        dist[adj.to.index()] = step;
                        next.push(adj.to);
                    }
                }
            }
            frontier = next;
        }
        self.ids()
            .filter(|id| *id != from && dist[id.index()] <= steps)
            .collect()
    }

    pub fn total_vp(&self) -> u32 {
        self.spaces.iter().map(|s| s.vp as u32).sum()
    }
}

// ------------------------------------------------------------------ roster

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub side: Side,
    pub name: String,
    pub kind: BlockKind,
    pub initiative: Initiative,
    pub attacking_initiative: Option<Initiative>,
    pub firepower: u8,
    pub max_steps: u8,
    pub levy_city: Option<SpaceId>,
}

impl Block {
    /// 7.42: the ballista is B defending, D attacking.
    pub fn initiative(&self, attacking: bool) -> Initiative {
        match (attacking, self.attacking_initiative) {
            (true, Some(att)) => att,
            _ => self.initiative,
        }
    }
    /// Printed strength at full steps (7.41: the elephant is IV).
    pub fn max_strength(&self) -> u8 {
        self.max_steps.saturating_mul(self.kind.strength_per_step())
    }
}

#[derive(Debug, Clone, Default)]
pub struct Roster {
    pub blocks: Vec<Block>,
}

impl Roster {
    pub fn ids(&self) -> impl Iterator<Item = BlockId> + '_ {
        (0..self.blocks.len()).map(|i| BlockId(i as u8))
    }
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.index()]
    }
    pub fn of_side(&self, side: Side) -> impl Iterator<Item = BlockId> + '_ {
        self.ids().filter(move |id| self.block(*id).side == side)
    }
    pub fn find(&self, side: Side, name: &str) -> Option<BlockId> {
        let wanted = names::normalise(name);
        self.of_side(side)
            .find(|id| names::normalise(&self.block(*id).name) == wanted)
    }
    pub fn resolve(&self, side: Side, name: &str) -> Result<BlockId, UnknownName> {
        self.find(side, name).ok_or_else(|| UnknownName {
            what: match side {
                Side::Caesar => "Caesar block",
                Side::Pompey => "Pompey block",
            },
            name: name.to_string(),
            suggestion: names::did_you_mean(
                name,
                self.of_side(side).map(|id| self.block(id).name.as_str()),
            ),
        })
    }
}

// -------------------------------------------------------------------- deck

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CardFace {
    Event(Event),
    Command { moves: u8, levy: u8 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Card {
    /// 1-based, events first, as the published cards are numbered.
    pub number: u8,
    pub face: CardFace,
}

#[derive(Debug, Clone, Default)]
pub struct Deck {
    pub cards: Vec<Card>,
}

impl CardFace {
    /// "Jupiter" or "3/1": how variants name a card.
    pub fn name(&self) -> String {
        match self {
            CardFace::Event(e) => format!("{e:?}"),
            CardFace::Command { moves, levy } => format!("{moves}/{levy}"),
        }
    }
}

/// The most cards a deck may hold: the engine names a card by a byte and
/// keeps a year's cards in 256-bit sets (`playable::check` refuses more).
pub(crate) const MAX_DECK_CARDS: usize = 256;

impl Deck {
    /// The cards (indices) left after a variant's house-rule removals, one
    /// copy per mention, and the mentions that found no card left to remove.
    pub fn without<'a>(&self, removed: &'a [String]) -> (Vec<u8>, Vec<&'a str>) {
        // A deck over the engine's limit is refused by `playable::check`.
        let mut left: Vec<u8> = (0..self.cards.len().min(MAX_DECK_CARDS))
            .map(|i| i as u8)
            .collect();
        let mut unmatched = Vec::new();
        for name in removed {
            let key = crate::scenario::names::normalise(name);
            match left
                .iter()
                .position(|&i| self.cards[i as usize].face.name().to_lowercase() == key)
            {
                Some(pos) => {
                    left.remove(pos);
                }
                None => unmatched.push(name.as_str()),
            }
        }
        (left, unmatched)
    }

    pub fn events(&self) -> impl Iterator<Item = Event> + '_ {
        self.cards.iter().filter_map(|c| match c.face {
            CardFace::Event(e) => Some(e),
            CardFace::Command { .. } => None,
        })
    }
}

// -------------------------------------------------------------- deployment

/// Blocks on the map at the start; everything else is in the levy pool (5.2).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Setup {
    pub placements: Vec<(BlockId, SpaceId)>,
    /// Deployed blocks starting below full strength, as printed.
    pub strengths: Vec<(BlockId, u8)>,
}

/// 4.21: outside a battle every location is one side's (blocks of both make
/// it Contested, which only moves into it do, and a battle settles). The
/// spaces that `placements` fill with blocks of both sides, in board order:
/// one check for scenarios (and so sweeps' `deploy:` points) and positions.
pub(crate) fn held_by_both_sides(
    board: &Board,
    placements: impl IntoIterator<Item = (Side, SpaceId)>,
) -> Vec<SpaceId> {
    let mut holders = vec![[false; 2]; board.len()];
    for (side, space) in placements {
        if let Some(h) = holders.get_mut(space.index()) {
            h[side.index()] = true;
        }
    }
    board
        .ids()
        .filter(|s| holders[s.index()] == [true, true])
        .collect()
}

impl Setup {
    /// Starting steps of a deployed block: its given strength, else full.
    pub fn steps(&self, roster: &Roster, block: BlockId) -> u8 {
        let b = roster.block(block);
        self.strengths
            .iter()
            .find(|(id, _)| *id == block)
            .map_or(b.max_steps, |(_, s)| s / b.kind.strength_per_step().max(1))
    }

    /// Starting strength of a deployed block as printed (the elephant's IV/II).
    pub fn strength(&self, roster: &Roster, block: BlockId) -> u8 {
        self.steps(roster, block)
            .saturating_mul(roster.block(block).kind.strength_per_step())
    }

    pub fn location(&self, block: BlockId) -> Option<SpaceId> {
        self.placements
            .iter()
            .find(|(b, _)| *b == block)
            .map(|(_, s)| *s)
    }
    /// Blocks of `side` per city.
    pub fn counts(&self, roster: &Roster, side: Side) -> BTreeMap<SpaceId, usize> {
        let mut out = BTreeMap::new();
        for (b, s) in &self.placements {
            if roster.block(*b).side == side {
                *out.entry(*s).or_insert(0) += 1;
            }
        }
        out
    }
    /// Victory points each side holds (1.2): cities occupied by one side only.
    pub fn vp(&self, board: &Board, roster: &Roster) -> [u32; 2] {
        let mut owners: HashMap<SpaceId, [bool; 2]> = HashMap::new();
        for (b, s) in &self.placements {
            owners.entry(*s).or_default()[roster.block(*b).side.index()] = true;
        }
        let mut vp = [0, 0];
        for (s, present) in owners {
            match present {
                [true, false] => vp[0] += board.space(s).vp as u32,
                [false, true] => vp[1] += board.space(s).vp as u32,
                _ => {}
            }
        }
        vp
    }
}

// ---------------------------------------------------------------- scenario

/// A scenario with every name resolved.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: String,
    /// [`ResolvedScenario::digest`] of the documents it was built from:
    /// reports and records name the scenario by it.
    pub digest: String,
    pub board: Board,
    pub roster: Roster,
    pub deck: Deck,
    /// 5.1: the historical order of battle.
    pub order_of_battle: Setup,
    /// 5.3: a free deployment, if the scenario defines one.
    pub free_deployment: Option<Setup>,
}

impl Scenario {
    /// The deployment a game starts from: the free deployment if any, else 5.1.
    pub fn starting_setup(&self) -> &Setup {
        self.free_deployment
            .as_ref()
            .unwrap_or(&self.order_of_battle)
    }

    /// Builds the model, skipping items whose names do not resolve. The
    /// findings explain every skipped item and every duplicate.
    pub fn build(doc: &ResolvedScenario) -> (Scenario, Vec<Finding>) {
        let (scenario, findings, _) = Scenario::build_traced(doc, &Locator::new(doc));
        (scenario, findings)
    }

    /// [`Scenario::build`], also telling where in the documents each item of
    /// the model came from (for the validator's locations).
    pub(crate) fn build_traced(
        doc: &ResolvedScenario,
        at: &Locator,
    ) -> (Scenario, Vec<Finding>, Provenance) {
        let mut findings = Vec::new();
        let (board, spaces, links) = build_board(doc, at, &mut findings);
        let (roster, blocks) = build_roster(doc, at, &board, &mut findings);
        let deck = build_deck(doc);
        let (order_of_battle, oob) = build_setup(
            &doc.order_of_battle,
            Deployment::OrderOfBattle,
            at,
            &board,
            &roster,
            &mut findings,
        );
        let (free_deployment, free) = match &doc.free_deployment {
            Some(d) if doc.sources.free_deployment.is_some() => {
                let (setup, origin) = build_setup(
                    d,
                    Deployment::FreeDeployment,
                    at,
                    &board,
                    &roster,
                    &mut findings,
                );
                (Some(setup), Some(origin))
            }
            _ => (None, None),
        };
        (
            Scenario {
                name: doc.name.clone(),
                digest: doc.digest(),
                board,
                roster,
                deck,
                order_of_battle,
                free_deployment,
            },
            findings,
            Provenance {
                spaces,
                links,
                blocks,
                order_of_battle: oob,
                free_deployment: free,
            },
        )
    }
}

// ------------------------------------------------------------- provenance

/// Where each item of a built model was written: its position in the
/// document's lists (the model skips items it cannot resolve, so positions
/// differ).
#[derive(Debug, Clone, Default)]
pub(crate) struct Provenance {
    /// The `map.spaces` entry of each space.
    pub spaces: Vec<usize>,
    /// The `map.links` entry of each link.
    pub links: Vec<usize>,
    /// The `roster.blocks` entry of each block.
    pub blocks: Vec<usize>,
    pub order_of_battle: SetupOrigin,
    pub free_deployment: Option<SetupOrigin>,
}

/// Where a setup's placements and strengths were written.
#[derive(Debug, Clone, Default)]
pub(crate) struct SetupOrigin {
    /// For each placement: the side's list, the entry in it and the block's
    /// position in the entry.
    pub placements: Vec<(Side, usize, usize)>,
    /// For each strength: the side's list and the entry in it.
    pub strengths: Vec<(Side, usize)>,
}

/// Which section of a scenario a position is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Section {
    Map,
    Roster,
    Deck,
    Deployment(Deployment),
}

/// Finds where items of a resolved scenario are written, from one
/// [`SourceIndex`] per source file (built once), so locating a finding is a
/// lookup, never a search of the text.
pub struct Locator<'a> {
    doc: &'a ResolvedScenario,
    /// Each distinct source file, with its index.
    files: Vec<(&'a SourceFile, SourceIndex)>,
    /// The file of each section: map, roster, deck, order of battle, free deployment.
    section_file: [Option<usize>; 5],
}

impl<'a> Locator<'a> {
    pub fn new(doc: &'a ResolvedScenario) -> Locator<'a> {
        let s = &doc.sources;
        let sections = [
            Some(&s.map),
            Some(&s.roster),
            Some(&s.deck),
            Some(&s.order_of_battle),
            s.free_deployment.as_ref(),
        ];
        let mut files: Vec<(&SourceFile, SourceIndex)> = Vec::new();
        let mut section_file = [None; 5];
        for (slot, src) in sections.into_iter().enumerate() {
            let Some(src) = src else { continue };
            let found = files
                .iter()
                .position(|(f, _)| f.path == src.path && f.text == src.text);
            section_file[slot] = Some(found.unwrap_or_else(|| {
                files.push((src, SourceIndex::new(&src.text)));
                files.len() - 1
            }));
        }
        Locator {
            doc,
            files,
            section_file,
        }
    }

    fn file(&self, section: Section) -> Option<&(&'a SourceFile, SourceIndex)> {
        let slot = match section {
            Section::Map => 0,
            Section::Roster => 1,
            Section::Deck => 2,
            Section::Deployment(Deployment::OrderOfBattle) => 3,
            Section::Deployment(Deployment::FreeDeployment) => 4,
        };
        self.files.get(self.section_file[slot]?)
    }

    fn location(&self, section: Section, offset: usize) -> Option<Location> {
        let (src, index) = self.file(section)?;
        let (line, column) = index.line_column(&src.text, offset);
        Some(Location {
            file: src.path.clone(),
            line,
            column,
        })
    }

    /// The string `expected` written at `path`; else (when the document no
    /// longer matches its text) its first occurrence after the `within` label.
    fn literal(&self, section: Section, path: &str, expected: &str, within: &str) -> Option<usize> {
        let (_, index) = self.file(section)?;
        self.value_is(section, path, expected)
            .or_else(|| index.string_after(expected, index.label(within)?))
    }

    /// Where the value at `path` is written, if it is the string `expected`
    /// (the document still matches its text there).
    fn value_is(&self, section: Section, path: &str, expected: &str) -> Option<usize> {
        let (src, index) = self.file(section)?;
        index
            .value(path)
            .filter(|at| src.text[*at..].starts_with(&format!("{expected:?}")))
    }

    /// [`Self::literal`], located.
    fn literal_at(
        &self,
        section: Section,
        path: &str,
        expected: &str,
        within: &str,
    ) -> Option<Location> {
        self.location(section, self.literal(section, path, expected, within)?)
    }

    /// The label of the name `name` at `path` (a definition, for
    /// duplicates); else (when the document no longer matches its text) the
    /// name's first occurrence after the `within` label.
    fn definition(
        &self,
        section: Section,
        path: &str,
        name: &str,
        within: &str,
    ) -> Option<Location> {
        let (_, index) = self.file(section)?;
        let at = match self.value_is(section, path, name) {
            Some(_) => index.label(path)?,
            None => index.string_after(name, index.label(within)?)?,
        };
        self.location(section, at)
    }

    /// Where the field at `path` (`"map"`, `"deck.events"`) is written.
    pub(crate) fn field(&self, section: Section, path: &str) -> Option<Location> {
        let (_, index) = self.file(section)?;
        self.location(section, index.label(path)?)
    }

    /// The start of a section's file.
    pub(crate) fn start(&self, section: Section) -> Option<Location> {
        self.location(section, 0)
    }

    /// The name of the `i`th space of `map.spaces`.
    pub(crate) fn space(&self, i: usize) -> Option<Location> {
        let name = &self.doc.map.spaces.get(i)?.name;
        let path = format!("map.spaces.{i}.name");
        self.literal_at(Section::Map, &path, name, "map.spaces")
    }

    /// The `name:` label of the `i`th space (a definition, for duplicates).
    pub(crate) fn space_definition(&self, i: usize) -> Option<Location> {
        let name = &self.doc.map.spaces.get(i)?.name;
        let path = format!("map.spaces.{i}.name");
        self.definition(Section::Map, &path, name, "map.spaces")
    }

    /// The `k`th alias of the `i`th space.
    pub(crate) fn alias(&self, i: usize, k: usize) -> Option<Location> {
        let alias = self.doc.map.spaces.get(i)?.aliases.get(k)?;
        let path = format!("map.spaces.{i}.aliases.{k}");
        self.literal_at(Section::Map, &path, alias, "map.spaces")
    }

    /// The first end of the `i`th link of `map.links`.
    pub(crate) fn link(&self, i: usize) -> Option<Location> {
        let link = self.doc.map.links.get(i)?;
        let first = link.ends().0;
        let (_, index) = self.file(Section::Map)?;
        let path = match index.value(&format!("map.links.{i}.a")) {
            Some(_) => format!("map.links.{i}.a"),
            None => format!("map.links.{i}.0"),
        };
        self.literal_at(Section::Map, &path, first, "map.links")
    }

    /// The `name:` label of the `i`th block of `roster.blocks`.
    pub(crate) fn block(&self, i: usize) -> Option<Location> {
        let name = &self.doc.roster.blocks.get(i)?.name;
        let path = format!("roster.blocks.{i}.name");
        self.definition(Section::Roster, &path, name, "roster.blocks")
    }

    fn deployment(
        &self,
        section: Deployment,
    ) -> Option<&'a crate::scenario::format::DeploymentDoc> {
        match section {
            Deployment::OrderOfBattle => Some(&self.doc.order_of_battle),
            Deployment::FreeDeployment => self.doc.free_deployment.as_ref(),
        }
    }

    /// A deployment entry's city (`block: None`) or one of its blocks.
    pub(crate) fn placement(
        &self,
        section: Deployment,
        side: Side,
        entry: usize,
        block: Option<usize>,
    ) -> Option<Location> {
        let (city, blocks) = self.deployment(section)?.side(side).get(entry)?;
        let list = format!("{}.{}", section.field(), side_field(side));
        let at_city = || {
            self.literal(
                Section::Deployment(section),
                &format!("{list}.{entry}.0"),
                city,
                &list,
            )
        };
        let at = match block.and_then(|k| Some((k, blocks.get(k)?))) {
            Some((k, name)) => {
                let path = format!("{list}.{entry}.1.{k}");
                self.value_is(Section::Deployment(section), &path, name)
                    .or_else(at_city)
            }
            None => at_city(),
        };
        self.location(Section::Deployment(section), at?)
    }

    /// The `i`th starting strength of a side in a deployment.
    pub(crate) fn strength(&self, section: Deployment, side: Side, i: usize) -> Option<Location> {
        let (name, _) = self.deployment(section)?.strengths.side(side).get(i)?;
        let list = format!("{}.strengths.{}", section.field(), side_field(side));
        self.literal_at(
            Section::Deployment(section),
            &format!("{list}.{i}.0"),
            name,
            &format!("{}.strengths", section.field()),
        )
    }
}

/// A side's list in a deployment section of a file.
fn side_field(side: Side) -> &'static str {
    match side {
        Side::Caesar => "caesar",
        Side::Pompey => "pompey",
    }
}

fn error(code: Code, message: String, location: Option<Location>, subject: Subject) -> Finding {
    debug_assert_eq!(code.severity(), Severity::Error);
    Finding::new(code, message).at(location).about(subject)
}

fn space_subject(name: &str) -> Subject {
    Subject::Space {
        name: name.to_string(),
    }
}

fn build_board(
    doc: &ResolvedScenario,
    at: &Locator,
    findings: &mut Vec<Finding>,
) -> (Board, Vec<usize>, Vec<usize>) {
    let (spaces, space_origin) = build_spaces(doc, at, findings);
    let space_board = Board::new(spaces.clone(), Vec::new());
    let (links, link_origin) = build_links(doc, at, &space_board, findings);
    (Board::new(spaces, links), space_origin, link_origin)
}

/// The spaces, each name and alias once (a repeated one is an error and
/// the later space is left out), with the index of each in the file.
fn build_spaces(
    doc: &ResolvedScenario,
    at: &Locator,
    findings: &mut Vec<Finding>,
) -> (Vec<Space>, Vec<usize>) {
    let mut spaces: Vec<Space> = Vec::new();
    let mut space_origin: Vec<usize> = Vec::new();
    let mut seen: HashMap<String, String> = HashMap::new();
    for (i, s) in doc.map.spaces.iter().enumerate() {
        let key = names::normalise(&s.name);
        if let Some(first) = seen.get(&key) {
            findings.push(error(
                Code::DuplicateName,
                format!(
                    "space \"{}\" is defined twice (the name is already used by \"{first}\")",
                    s.name
                ),
                at.space_definition(i),
                space_subject(&s.name),
            ));
            continue;
        }
        // The engine keeps spaces in 256-bit sets.
        if spaces.len() >= MAX_SPACES {
            findings.push(error(
                Code::TooManySpaces,
                format!(
                    "the map holds more than {MAX_SPACES} spaces; \"{}\" and later are ignored",
                    s.name
                ),
                at.space(i),
                space_subject(&s.name),
            ));
            break;
        }
        seen.insert(key, s.name.clone());
        space_origin.push(i);
        spaces.push(Space {
            name: s.name.clone(),
            kind: s.kind,
            vp: s.vp,
            pos: s.at,
            island: s.island.clone(),
            aliases: s.aliases.clone(),
        });
    }
    check_aliases(&spaces, &space_origin, &mut seen, at, findings);
    (spaces, space_origin)
}

/// Each alias of `spaces` names one space: an error for one that is
/// already a name or another space's alias in `seen` (normalised name to
/// space), which gets the rest.
fn check_aliases(
    spaces: &[Space],
    space_origin: &[usize],
    seen: &mut HashMap<String, String>,
    at: &Locator,
    findings: &mut Vec<Finding>,
) {
    for (s, &i) in spaces.iter().zip(space_origin) {
        for (k, alias) in s.aliases.iter().enumerate() {
            let key = names::normalise(alias);
            match seen.get(&key) {
                Some(owner) if owner != &s.name => findings.push(error(
                    Code::DuplicateName,
                    format!(
                        "alias \"{alias}\" of \"{}\" is already the name or alias of \"{owner}\"",
                        s.name
                    ),
                    at.alias(i, k),
                    space_subject(&s.name),
                )),
                _ => {
                    seen.insert(key, s.name.clone());
                }
            }
        }
    }
}

/// The links between known spaces, each pair once and none to itself,
/// with the index of each in the file.
fn build_links(
    doc: &ResolvedScenario,
    at: &Locator,
    space_board: &Board,
    findings: &mut Vec<Finding>,
) -> (Vec<Link>, Vec<usize>) {
    let mut links = Vec::new();
    let mut link_origin = Vec::new();
    let mut link_seen: HashMap<(SpaceId, SpaceId), usize> = HashMap::new();
    for (i, link) in doc.map.links.iter().enumerate() {
        let Some((a, b)) = link_ends(link, i, at, space_board, findings) else {
            continue;
        };
        let subject = Subject::Link {
            a: space_board.name(a).to_string(),
            b: space_board.name(b).to_string(),
        };
        if a == b {
            findings.push(error(
                Code::SelfLink,
                format!(
                    "{} links \"{}\" to itself",
                    link.class().label(),
                    space_board.name(a)
                ),
                at.link(i),
                subject,
            ));
            continue;
        }
        let key = (a.min(b), a.max(b));
        if let Some(&first) = link_seen.get(&key) {
            let first: &Link = &links[first];
            findings.push(error(
                Code::DuplicateLink,
                format!(
                    "\"{}\" and \"{}\" are linked twice ({} and {})",
                    space_board.name(a),
                    space_board.name(b),
                    first.class.label(),
                    link.class().label()
                ),
                at.link(i),
                subject,
            ));
            continue;
        }
        link_seen.insert(key, links.len());
        link_origin.push(i);
        links.push(Link {
            a,
            b,
            class: link.class(),
            name: link.name().map(str::to_string),
        });
    }
    (links, link_origin)
}

/// The spaces the `i`th link joins, if both are known; an error for each
/// that is not.
fn link_ends(
    link: &LinkDoc,
    i: usize,
    at: &Locator,
    space_board: &Board,
    findings: &mut Vec<Finding>,
) -> Option<(SpaceId, SpaceId)> {
    let (a_name, b_name) = link.ends();
    let mut ends = [None, None];
    for (slot, name) in [a_name, b_name].into_iter().enumerate() {
        match space_board.resolve(name) {
            Ok(id) => ends[slot] = Some(id),
            Err(e) => findings.push(error(
                Code::UnknownName,
                format!("{} {a_name} - {b_name}: {e}", link.class().label()),
                at.link(i),
                Subject::Link {
                    a: a_name.to_string(),
                    b: b_name.to_string(),
                },
            )),
        }
    }
    let [Some(a), Some(b)] = ends else {
        return None;
    };
    Some((a, b))
}

fn build_roster(
    doc: &ResolvedScenario,
    at: &Locator,
    board: &Board,
    findings: &mut Vec<Finding>,
) -> (Roster, Vec<usize>) {
    let mut blocks: Vec<Block> = Vec::new();
    let mut origin: Vec<usize> = Vec::new();
    let mut seen: std::collections::HashSet<(Side, String)> = std::collections::HashSet::new();
    for (i, b) in doc.roster.blocks.iter().enumerate() {
        let location = at.block(i);
        let subject = Subject::Block {
            side: b.side,
            name: b.name.clone(),
        };
        if !seen.insert((b.side, names::normalise(&b.name))) {
            findings.push(error(
                Code::DuplicateName,
                format!("{} block \"{}\" is defined twice", b.side, b.name),
                location,
                subject,
            ));
            continue;
        }
        if blocks.len() >= u8::MAX as usize {
            findings.push(error(
                Code::TooManyBlocks,
                format!(
                    "the roster holds more than {} blocks; \"{}\" and later are ignored",
                    u8::MAX,
                    b.name
                ),
                location,
                subject,
            ));
            break;
        }
        let levy_city = match &b.levy {
            None => None,
            Some(name) => match board.resolve(name) {
                Ok(id) if board.space(id).kind.is_city() => Some(id),
                Ok(id) => {
                    findings.push(error(
                        Code::BadLevyCity,
                        format!(
                            "{} block \"{}\" has levy city \"{}\", which is a sea, not a city",
                            b.side,
                            b.name,
                            board.name(id)
                        ),
                        location,
                        subject,
                    ));
                    None
                }
                Err(e) => {
                    findings.push(error(
                        Code::BadLevyCity,
                        format!(
                            "{} block \"{}\": levy city is not a city of the map: {e}",
                            b.side, b.name
                        ),
                        location,
                        subject,
                    ));
                    None
                }
            },
        };
        origin.push(i);
        blocks.push(Block {
            side: b.side,
            name: b.name.clone(),
            kind: b.kind,
            initiative: b.initiative,
            attacking_initiative: b.attacking_initiative,
            firepower: b.firepower,
            max_steps: b.steps,
            levy_city,
        });
    }
    (Roster { blocks }, origin)
}

fn build_deck(doc: &ResolvedScenario) -> Deck {
    let mut cards = Vec::new();
    let mut number = 0u8;
    for e in &doc.deck.events {
        number = number.saturating_add(1);
        cards.push(Card {
            number,
            face: CardFace::Event(*e),
        });
    }
    for c in &doc.deck.commands {
        for _ in 0..c.copies {
            number = number.saturating_add(1);
            cards.push(Card {
                number,
                face: CardFace::Command {
                    moves: c.moves,
                    levy: c.levy,
                },
            });
        }
    }
    Deck { cards }
}

fn build_setup(
    doc: &DeploymentDoc,
    section: Deployment,
    at: &Locator,
    board: &Board,
    roster: &Roster,
    findings: &mut Vec<Finding>,
) -> (Setup, SetupOrigin) {
    let mut placements: Vec<(BlockId, SpaceId)> = Vec::new();
    let mut origin = SetupOrigin::default();
    // Where each block was first placed (blocks are at most 255).
    let mut placed: HashMap<BlockId, SpaceId> = HashMap::new();
    for side in Side::BOTH {
        for (entry, (space_name, block_names)) in doc.side(side).iter().enumerate() {
            let entry_subject = |block: Option<&str>| Subject::Placement {
                section,
                side,
                space: space_name.clone(),
                block: block.map(str::to_string),
            };
            let space = match board.resolve(space_name) {
                Ok(id) => id,
                Err(e) => {
                    findings.push(error(
                        Code::UnknownName,
                        format!("{section}, {side}: {e}"),
                        at.placement(section, side, entry, None),
                        entry_subject(None),
                    ));
                    continue;
                }
            };
            for (k, name) in block_names.iter().enumerate() {
                let block_location = || at.placement(section, side, entry, Some(k));
                let block = match roster.resolve(side, name) {
                    Ok(id) => id,
                    Err(e) => {
                        findings.push(error(
                            Code::UnknownName,
                            format!("{section}, {}: {e}", board.name(space)),
                            block_location(),
                            entry_subject(Some(name)),
                        ));
                        continue;
                    }
                };
                if let Some(&first) = placed.get(&block) {
                    findings.push(error(
                        Code::DeployedTwice,
                        format!(
                            "{section}: {side} block \"{}\" is deployed twice (in \"{}\" and \"{}\")",
                            roster.block(block).name,
                            board.name(first),
                            board.name(space)
                        ),
                        block_location(),
                        entry_subject(Some(name)),
                    ));
                    continue;
                }
                placed.insert(block, space);
                placements.push((block, space));
                origin.placements.push((side, entry, k));
            }
        }
    }
    let strengths = build_strengths(doc, section, at, roster, &placed, &mut origin, findings);
    (
        Setup {
            placements,
            strengths,
        },
        origin,
    )
}

/// Why `block` cannot start at `strength`, if it cannot: it must be
/// `deployed`, at a strength it has, not already `given` one.
fn strength_problem(
    roster: &Roster,
    block: BlockId,
    strength: u8,
    deployed: bool,
    given: bool,
) -> Option<String> {
    let b = roster.block(block);
    if !deployed {
        Some("it is not deployed (blocks in the pool have no strength yet, 6.4)".to_string())
    } else if strength == 0 || strength > b.max_strength() {
        Some(format!("its strength is 1 to {}", b.max_strength()))
    } else if !b.kind.strengths(b.max_steps).any(|v| v == strength) {
        Some("the elephant fights at IV or II (7.41)".to_string())
    } else if given {
        Some("its strength is given twice".to_string())
    } else {
        None
    }
}

/// The starting strengths the deployment sets: each for a deployed block,
/// once, and one the block can have (6.4, 7.41).
fn build_strengths(
    doc: &DeploymentDoc,
    section: Deployment,
    at: &Locator,
    roster: &Roster,
    placed: &HashMap<BlockId, SpaceId>,
    origin: &mut SetupOrigin,
    findings: &mut Vec<Finding>,
) -> Vec<(BlockId, u8)> {
    let mut strengths: Vec<(BlockId, u8)> = Vec::new();
    for side in Side::BOTH {
        for (i, (name, strength)) in doc.strengths.side(side).iter().enumerate() {
            let location = at
                .strength(section, side, i)
                .or_else(|| at.field(Section::Deployment(section), section.field()));
            let subject = Subject::Strength {
                section,
                side,
                block: name.clone(),
            };
            let block = match roster.resolve(side, name) {
                Ok(id) => id,
                Err(e) => {
                    findings.push(error(
                        Code::UnknownName,
                        format!("{section}, strengths: {e}"),
                        location,
                        subject,
                    ));
                    continue;
                }
            };
            let given = strengths.iter().any(|(id, _)| *id == block);
            let deployed = placed.contains_key(&block);
            match strength_problem(roster, block, *strength, deployed, given) {
                Some(why) => findings.push(error(
                    Code::BadStrength,
                    format!(
                        "{section}: {side} block \"{}\" cannot start at strength {strength}: {why}",
                        roster.block(block).name
                    ),
                    location,
                    subject,
                )),
                None => {
                    strengths.push((block, *strength));
                    origin.strengths.push((side, i));
                }
            }
        }
    }
    strengths
}
