//! The validator: errors make a scenario unplayable; warnings say where it
//! departs from the published game (which a custom map may do on purpose).
//!
//! Every finding has a stable code; `docs/formats.md` lists them all.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;

use crate::format::{
    BlockKind, Event, LinkClass, Location, ResolvedScenario, Side, SourceFile, SpaceKind,
};
use crate::model::{Board, Scenario, Setup, SpaceId};
use crate::rules::RuleSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        write!(f, "{severity}[{}]: {}", self.code, self.message)
    }
}

/// Everything the validator found, and the model built along the way.
#[derive(Debug, Clone)]
pub struct Report {
    pub scenario: Scenario,
    pub findings: Vec<Finding>,
}

impl Report {
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }
    fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }
    pub fn has(&self, code: &str) -> bool {
        self.findings.iter().any(|f| f.code == code)
    }
}

/// Builds and validates a scenario under a rule set.
pub fn validate(doc: &ResolvedScenario, rules: &RuleSet) -> Report {
    let (scenario, mut findings) = Scenario::build(doc);
    let ctx = Ctx {
        doc,
        scenario: &scenario,
        rules,
    };
    ctx.check_map(&mut findings);
    ctx.check_roster(&mut findings);
    ctx.check_deck(&mut findings);
    ctx.check_setup(
        &scenario.order_of_battle,
        &doc.sources.order_of_battle,
        "order_of_battle",
        &mut findings,
    );
    if let (Some(free), Some(src)) = (&scenario.free_deployment, &doc.sources.free_deployment) {
        ctx.check_setup(free, src, "free_deployment", &mut findings);
        ctx.check_free_deployment(free, src, &mut findings);
    }
    ctx.check_published(&mut findings);
    findings.sort_by_key(|f| f.severity);
    Report { scenario, findings }
}

struct Ctx<'a> {
    doc: &'a ResolvedScenario,
    scenario: &'a Scenario,
    rules: &'a RuleSet,
}

fn finding(
    severity: Severity,
    code: &'static str,
    message: String,
    location: Option<Location>,
) -> Finding {
    Finding {
        severity,
        code,
        message,
        location,
    }
}

impl Ctx<'_> {
    fn board(&self) -> &Board {
        &self.scenario.board
    }

    fn link_location(&self, a: SpaceId, b: SpaceId) -> Option<Location> {
        let board = self.board();
        let src = &self.doc.sources.map;
        src.locate("links", &[board.name(a), board.name(b)])
            .or_else(|| src.locate("links", &[board.name(b), board.name(a)]))
    }

    fn space_location(&self, id: SpaceId) -> Option<Location> {
        self.doc
            .sources
            .map
            .locate("spaces", &[self.board().name(id)])
    }

    fn check_map(&self, out: &mut Vec<Finding>) {
        let board = self.board();
        for link in &board.links {
            let (a, b) = (board.space(link.a), board.space(link.b));
            let here = || self.link_location(link.a, link.b);
            if link.class.is_road() && (a.kind == SpaceKind::Sea || b.kind == SpaceKind::Sea) {
                out.push(finding(
                    Severity::Error,
                    "road-touches-sea",
                    format!(
                        "{} {} - {} touches a sea; roads join cities (4.3), seas are joined by sea borders",
                        link.class.label(),
                        a.name,
                        b.name
                    ),
                    here(),
                ));
            }
            if link.class == LinkClass::Sea {
                if a.kind.is_city() && b.kind.is_city() {
                    out.push(finding(
                        Severity::Error,
                        "sea-border-between-cities",
                        format!(
                            "sea border {} - {} joins two cities; ports reach each other only via a sea (6.2)",
                            a.name, b.name
                        ),
                        here(),
                    ));
                } else if a.kind == SpaceKind::City || b.kind == SpaceKind::City {
                    let inland = if a.kind == SpaceKind::City { a } else { b };
                    out.push(finding(
                        Severity::Error,
                        "inland-city-on-sea",
                        format!(
                            "\"{}\" is an inland city but borders a sea; make it a port (4.42)",
                            inland.name
                        ),
                        here(),
                    ));
                }
            }
            if link.class == LinkClass::Strait && link.name.as_deref().unwrap_or("").is_empty() {
                out.push(finding(
                    Severity::Warning,
                    "unnamed-strait",
                    format!("the strait {} - {} has no name", a.name, b.name),
                    here(),
                ));
            }
        }
        for id in board.ids() {
            let space = board.space(id);
            if space.kind.is_port() && board.seas_of(id).next().is_none() {
                out.push(finding(
                    Severity::Error,
                    "port-without-sea",
                    format!(
                        "\"{}\" is a {} but borders no sea",
                        space.name,
                        space.kind.label()
                    ),
                    self.space_location(id),
                ));
            }
            if space.kind == SpaceKind::Sea && space.vp > 0 {
                out.push(finding(
                    Severity::Error,
                    "sea-with-vp",
                    format!(
                        "sea \"{}\" has {} VP; only cities carry VP (4.2)",
                        space.name, space.vp
                    ),
                    self.space_location(id),
                ));
            }
        }
        // 4.41: island cities are reached only by sea (or a strait).
        for id in board.ids() {
            let Some(island) = &board.space(id).island else {
                continue;
            };
            for adj in board.road_neighbours(id) {
                if adj.class == LinkClass::Strait {
                    continue;
                }
                if board.space(adj.to).island.as_ref() != Some(island) {
                    out.push(finding(
                        Severity::Warning,
                        "island-by-land",
                        format!(
                            "\"{}\" lies on the island {island} but a {} joins it to \"{}\" (4.41: islands are reached by sea)",
                            board.name(id),
                            adj.class.label(),
                            board.name(adj.to)
                        ),
                        self.link_location(id, adj.to),
                    ));
                }
            }
        }
        let components = board.components();
        for group in components.iter().skip(1) {
            let names: Vec<&str> = group.iter().map(|id| board.name(*id)).collect();
            out.push(finding(
                Severity::Warning,
                "unreachable",
                format!(
                    "{} cannot be reached by land or sea from the rest of the map",
                    quote_list(&names)
                ),
                self.space_location(group[0]),
            ));
        }
    }

    fn check_roster(&self, out: &mut Vec<Finding>) {
        let roster = &self.scenario.roster;
        let src = &self.doc.sources.roster;
        for side in Side::BOTH {
            if !roster
                .of_side(side)
                .any(|id| roster.block(id).kind == BlockKind::Leader)
            {
                out.push(finding(
                    Severity::Error,
                    "missing-leader",
                    format!("{side} has no leader in the roster (3.21)"),
                    src.locate("blocks", &[])
                        .or_else(|| Some(src.location_of(0))),
                ));
            }
        }
        for (doc_block, id) in self.doc.roster.blocks.iter().zip(roster.ids()) {
            let block = roster.block(id);
            if block.name != doc_block.name {
                break; // a skipped duplicate shifts the pairing; later blocks were checked by name
            }
            let here = || {
                src.text
                    .find(&format!("name: {:?}", block.name))
                    .map(|at| src.location_of(at))
            };
            if block.kind.needs_levy_city() && doc_block.levy.is_none() {
                out.push(finding(
                    Severity::Error,
                    "bad-levy-city",
                    format!(
                        "{} {} \"{}\" needs a levy city (6.4)",
                        block.side,
                        block.kind.label(),
                        block.name
                    ),
                    here(),
                ));
            }
            if !(1..=6).contains(&block.firepower) {
                out.push(finding(
                    Severity::Error,
                    "bad-rating",
                    format!(
                        "{} block \"{}\" has firepower {}; a d6 hits on 1 to 6 (7.4)",
                        block.side, block.name, block.firepower
                    ),
                    here(),
                ));
            }
            if block.max_steps == 0 || block.max_strength() > 4 {
                out.push(finding(
                    Severity::Error,
                    "bad-rating",
                    format!(
                        "{} block \"{}\" has {} steps (strength {}); blocks have strength I to IV (3.11)",
                        block.side,
                        block.name,
                        block.max_steps,
                        block.max_strength()
                    ),
                    here(),
                ));
            }
        }
    }

    fn check_deck(&self, out: &mut Vec<Finding>) {
        let deck = &self.scenario.deck;
        let src = &self.doc.sources.deck;
        let needed = 2 * self.rules.hand_size as usize;
        if deck.cards.len() < needed {
            out.push(finding(
                Severity::Error,
                "deck-too-small",
                format!(
                    "the deck has {} cards; dealing {} to each player (2.1, {}) needs {needed}",
                    deck.cards.len(),
                    self.rules.hand_size,
                    self.rules.name
                ),
                src.locate("deck", &[]),
            ));
        }
        // House rules: every removed card must name a card of this deck, and
        // the deck left must still deal two hands (2.1).
        let (left, unmatched) = deck.without(&self.rules.removed_cards);
        let names: Vec<String> = deck.cards.iter().map(|c| c.face.name()).collect();
        for name in unmatched {
            let why = if names.iter().any(|n| n.eq_ignore_ascii_case(name.trim())) {
                "more mentions than the deck has copies".to_string()
            } else {
                format!(
                    "no card is named so{}",
                    crate::names::did_you_mean(name, names.iter().map(String::as_str))
                )
            };
            out.push(finding(
                Severity::Error,
                "bad-removed-card",
                format!(
                    "{}: removed_cards names \"{name}\": {why} (cards are named \"Jupiter\" or \"3/1\")",
                    self.rules.name
                ),
                None,
            ));
        }
        if left.len() < needed && left.len() != deck.cards.len() {
            out.push(finding(
                Severity::Error,
                "deck-too-small",
                format!(
                    "{} removes {} cards and leaves {}; dealing {} to each player (2.1) needs {needed}",
                    self.rules.name,
                    deck.cards.len() - left.len(),
                    left.len(),
                    self.rules.hand_size
                ),
                None,
            ));
        }
        let mut seen = BTreeSet::new();
        for e in deck.events() {
            if !seen.insert(e) {
                out.push(finding(
                    Severity::Error,
                    "duplicate-name",
                    format!("event card {e:?} appears twice in the deck"),
                    src.text.find("events").map(|at| src.location_of(at)),
                ));
            }
        }
        if let Some(c) = self
            .doc
            .deck
            .commands
            .iter()
            .find(|c| c.moves == 0 && c.levy == 0)
        {
            out.push(finding(
                Severity::Warning,
                "empty-command-card",
                format!(
                    "a command card with move {} and levy {} does nothing",
                    c.moves, c.levy
                ),
                src.text.find("commands").map(|at| src.location_of(at)),
            ));
        }
    }

    fn check_setup(&self, setup: &Setup, src: &SourceFile, section: &str, out: &mut Vec<Finding>) {
        let (board, roster) = (self.board(), &self.scenario.roster);
        let anchor = format!("{section}:");
        for &(block_id, space_id) in &setup.placements {
            let block = roster.block(block_id);
            let space = board.space(space_id);
            let here = || src.locate(&anchor, &[&space.name, &block.name]);
            if block.kind.is_land() && space.kind == SpaceKind::Sea {
                out.push(finding(
                    Severity::Error,
                    "land-block-at-sea",
                    format!(
                        "{section}: {} {} \"{}\" is deployed at sea in \"{}\"; only Navis may be at sea (4.4)",
                        block.side,
                        block.kind.label(),
                        block.name,
                        space.name
                    ),
                    here(),
                ));
            }
            if block.kind == BlockKind::Navis && space.kind == SpaceKind::City {
                out.push(finding(
                    Severity::Error,
                    "navis-inland",
                    format!(
                        "{section}: {} \"{}\" is deployed in the inland city \"{}\"; Navis stay at sea or in ports (4.1)",
                        block.side, block.name, space.name
                    ),
                    here(),
                ));
            }
        }
        // 5.1: the published game starts every block at full strength.
        for &(block_id, strength) in &setup.strengths {
            let block = roster.block(block_id);
            if strength < block.max_strength() {
                out.push(finding(
                    Severity::Warning,
                    "reduced-strength",
                    format!(
                        "{section}: {} \"{}\" starts at strength {strength} of {}; the published game starts every block at full strength (5.1)",
                        block.side,
                        block.name,
                        block.max_strength()
                    ),
                    src.locate_strength(section, &block.name),
                ));
            }
        }
        // 8.4: more blocks than a city supplies are disbanded at the first winter.
        let mut per_space: BTreeMap<SpaceId, usize> = BTreeMap::new();
        for (_, s) in &setup.placements {
            *per_space.entry(*s).or_insert(0) += 1;
        }
        for (s, n) in per_space {
            let space = board.space(s);
            let limit = space.winter_supply(self.rules.winter_supply_base) as usize;
            if space.kind.is_city() && n > limit {
                out.push(finding(
                    Severity::Warning,
                    "winter-supply",
                    format!(
                        "{section}: {n} blocks start in \"{}\", which supplies {limit} in winter (8.4: {} + {} VP); the surplus would be disbanded",
                        space.name, self.rules.winter_supply_base, space.vp
                    ),
                    src.locate(&anchor, &[&space.name]),
                ));
            }
        }
    }

    /// 5.3: the same blocks as the order of battle, and in every city the
    /// same number of that side's blocks.
    fn check_free_deployment(&self, free: &Setup, src: &SourceFile, out: &mut Vec<Finding>) {
        let (board, roster) = (self.board(), &self.scenario.roster);
        let oob = &self.scenario.order_of_battle;
        for side in Side::BOTH {
            let want = oob.counts(roster, side);
            let have = free.counts(roster, side);
            let cities: BTreeSet<SpaceId> = want.keys().chain(have.keys()).copied().collect();
            for city in cities {
                let (w, h) = (
                    want.get(&city).copied().unwrap_or(0),
                    have.get(&city).copied().unwrap_or(0),
                );
                if w != h {
                    out.push(finding(
                        Severity::Error,
                        "free-deployment-count",
                        format!(
                            "free_deployment: {side} has {h} block(s) in \"{}\" but the order of battle has {w} (5.3: each city keeps its number of blocks)",
                            board.name(city)
                        ),
                        src.locate("free_deployment:", &[board.name(city)])
                            .or_else(|| src.locate("free_deployment:", &[])),
                    ));
                }
            }
            for &(block, space) in &free.placements {
                if roster.block(block).side == side && oob.location(block).is_none() {
                    out.push(finding(
                        Severity::Error,
                        "free-deployment-substitution",
                        format!(
                            "free_deployment: {side} block \"{}\" in \"{}\" starts in the levy pool in the order of battle; pool blocks cannot be substituted (5.3)",
                            roster.block(block).name,
                            board.name(space)
                        ),
                        src.locate(
                            "free_deployment:",
                            &[board.name(space), &roster.block(block).name],
                        ),
                    ));
                }
            }
            for &(block, _) in &oob.placements {
                if roster.block(block).side == side && free.location(block).is_none() {
                    out.push(finding(
                        Severity::Error,
                        "free-deployment-missing",
                        format!(
                            "free_deployment: {side} block \"{}\" of the order of battle is not deployed (5.3 swaps blocks; it does not leave them out)",
                            roster.block(block).name
                        ),
                        src.locate("free_deployment:", &[]),
                    ));
                }
            }
        }
    }

    /// Departures from the published map, as warnings.
    fn check_published(&self, out: &mut Vec<Finding>) {
        let board = self.board();
        let map_start = Some(
            self.doc
                .sources
                .map
                .location_of(self.doc.sources.map.text.find("map:").unwrap_or(0)),
        );
        let warn = |out: &mut Vec<Finding>, code: &'static str, message: String| {
            out.push(finding(Severity::Warning, code, message, map_start.clone()));
        };
        // 4.2: eleven cities carry 13 VP.
        let vp_cities = board.spaces.iter().filter(|s| s.vp > 0).count();
        let vp_total = board.total_vp();
        if vp_cities != 11 || vp_total != 13 {
            warn(
                out,
                "vp-total",
                format!(
                    "{vp_cities} cities carry {vp_total} VP; the published map has 13 VP in 11 cities (4.2)"
                ),
            );
        }
        // 4.4: nine seas.
        let seas = board
            .spaces
            .iter()
            .filter(|s| s.kind == SpaceKind::Sea)
            .count();
        if seas != published::SEAS.len() {
            warn(
                out,
                "sea-count",
                format!("the map has {seas} seas; the published map has 9 (4.4)"),
            );
        }
        // Ports sidebar: ports of each sea.
        for (sea_name, ports) in published::SEAS {
            let Some(sea) = board.find(sea_name) else {
                warn(
                    out,
                    "sea-ports",
                    format!("the published sea {sea_name} is not on the map"),
                );
                continue;
            };
            let expected: BTreeSet<&str> = ports
                .iter()
                .filter_map(|p| board.find(p).map(|id| board.name(id)))
                .collect();
            let unknown: Vec<&str> = ports
                .iter()
                .copied()
                .filter(|p| board.find(p).is_none())
                .collect();
            let actual: BTreeSet<&str> = board.ports_of(sea).map(|id| board.name(id)).collect();
            let missing: Vec<&str> = expected.difference(&actual).copied().collect();
            let extra: Vec<&str> = actual.difference(&expected).copied().collect();
            if !missing.is_empty() || !extra.is_empty() || !unknown.is_empty() {
                let mut parts = Vec::new();
                if !missing.is_empty() || !unknown.is_empty() {
                    let all: Vec<&str> = missing.iter().chain(&unknown).copied().collect();
                    parts.push(format!("lacks {}", quote_list(&all)));
                }
                if !extra.is_empty() {
                    parts.push(format!("adds {}", quote_list(&extra)));
                }
                warn(
                    out,
                    "sea-ports",
                    format!(
                        "{}: its ports differ from the rules' Ports sidebar: {}",
                        board.name(sea),
                        parts.join("; ")
                    ),
                );
            }
        }
        // 4.32: the four straits.
        let mut straits: Vec<(String, BTreeSet<String>)> = board
            .links
            .iter()
            .filter(|l| l.class == LinkClass::Strait)
            .map(|l| {
                (
                    l.name.clone().unwrap_or_default(),
                    [board.name(l.a).to_string(), board.name(l.b).to_string()].into(),
                )
            })
            .collect();
        straits.sort();
        let mut expected: Vec<(String, BTreeSet<String>)> = published::STRAITS
            .iter()
            .map(|(n, a, b)| (n.to_string(), [a.to_string(), b.to_string()].into()))
            .collect();
        expected.sort();
        if straits != expected {
            let show = |v: &[(String, BTreeSet<String>)]| {
                v.iter()
                    .map(|(n, ends)| {
                        format!(
                            "{n} ({})",
                            ends.iter().cloned().collect::<Vec<_>>().join("-")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            warn(
                out,
                "straits",
                format!(
                    "the straits are [{}]; the published map has [{}] (4.32)",
                    show(&straits),
                    show(&expected)
                ),
            );
        }
        // 4.42: Utica and Creta border three seas.
        for name in published::THREE_SEA_PORTS {
            if let Some(id) = board.find(name) {
                let n = board.seas_of(id).count();
                if n != 3 {
                    warn(
                        out,
                        "three-sea-ports",
                        format!("{name} borders {n} seas; the rules say 3 (4.42)"),
                    );
                }
            }
        }
        for id in board.ids().filter(|id| board.space(*id).kind.is_port()) {
            let n = board.seas_of(id).count();
            if n > 2 && !published::THREE_SEA_PORTS.contains(&board.name(id)) {
                warn(
                    out,
                    "three-sea-ports",
                    format!(
                        "{} borders {n} seas; only Utica and Creta border 3 (4.42)",
                        board.name(id)
                    ),
                );
            }
        }
        // Navis example 2: "the city of Pergamum is not a port".
        if let Some(id) = board.find("Pergamum")
            && board.space(id).kind.is_port()
        {
            warn(
                out,
                "pergamum-port",
                "Pergamum is a port; the rules say it is not (Navis move example 2)".to_string(),
            );
        }
        // 4.41: the playable islands.
        for (island, cities) in published::ISLANDS {
            for city in *cities {
                if let Some(id) = board.find(city)
                    && board.space(id).island.as_deref() != Some(island)
                {
                    warn(
                        out,
                        "islands",
                        format!("{city} should lie on the island {island} (4.41)"),
                    );
                }
            }
        }
        // The deck: seven events and twenty command cards (2.1).
        let events: BTreeSet<Event> = self.scenario.deck.events().collect();
        let commands = self.scenario.deck.cards.len() - self.scenario.deck.events().count();
        if events.len() != Event::ALL.len() || commands != 20 {
            out.push(finding(
                Severity::Warning,
                "deck-composition",
                format!(
                    "the deck has {} event and {commands} command cards; the published deck has 7 and 20 (2.1)",
                    events.len()
                ),
                self.doc.sources.deck.text.find("deck").map(|at| self.doc.sources.deck.location_of(at)),
            ));
        }
    }
}

fn quote_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Facts the rules text prints about the published map, in its own spelling
/// (aliases resolve them to map names).
pub mod published {
    /// The rules' Ports sidebar.
    pub const SEAS: &[(&str, &[&str])] = &[
        (
            "Atlanticus",
            &["Burdigala", "Gades", "Olisipo", "Portus", "Sala", "Tingis"],
        ),
        (
            "Hispanum",
            &[
                "Caralis",
                "Carthago Nova",
                "Genua",
                "Iomnium",
                "Massilia",
                "Narbo",
                "Siga",
                "Tarraco",
                "Tingis",
                "Utica",
            ],
        ),
        (
            "Tyrrhenum",
            &[
                "Aleria",
                "Caralis",
                "Genua",
                "Lilybaeum",
                "Messana",
                "Neapolis",
                "Rhegium",
                "Rome",
                "Utica",
            ],
        ),
        (
            "Internum",
            &[
                "Ambracia",
                "Brundisium",
                "Creta",
                "Cyrene",
                "Lilybaeum",
                "Messana",
                "Pylos",
                "Rhegium",
                "Syracuse",
                "Tacape",
                "Thubactus",
                "Utica",
            ],
        ),
        (
            "Hadriaticum",
            &[
                "Aquileia",
                "Brundisium",
                "Dyrrachium",
                "Ravenna",
                "Salone",
                "Sipontum",
            ],
        ),
        (
            "Aegaeum",
            &["Aenos", "Athena", "Creta", "Ephesus", "Thessalonika"],
        ),
        ("Propontis", &["Byzantium", "Nicomedia"]),
        ("Euxinus", &["Byzantium", "Sinope"]),
        (
            "Egypticum",
            &[
                "Alexandria",
                "Antioch",
                "Catabathmus",
                "Creta",
                "Perga",
                "Pelusium",
                "Salamis",
                "Tarsus",
            ],
        ),
    ];

    /// 4.32, with the ends read off the map.
    pub const STRAITS: &[(&str, &str, &str)] = &[
        ("Herculeum", "Gades", "Tingis"),
        ("Messana", "Messana", "Rhegium"),
        ("Hellespontus", "Aenos", "Pergamum"),
        ("Bosphorus", "Byzantium", "Nicomedia"),
    ];

    /// 4.42.
    pub const THREE_SEA_PORTS: &[&str] = &["Utica", "Creta"];

    /// 4.41: the playable islands and their cities.
    pub const ISLANDS: &[(&str, &[&str])] = &[
        ("Corsica", &["Aleria"]),
        ("Sardinia", &["Caralis"]),
        ("Sicilia", &["Lilybaeum", "Messana", "Syracusae"]),
        ("Creta", &["Creta"]),
        ("Cyprus", &["Salamis"]),
    ];
}
