//! The validator: errors make a scenario unplayable; warnings say where it
//! departs from the published game (which a custom map may do on purpose).
//!
//! Every finding has a stable [`Code`]; `docs/formats.md` lists them all (a
//! test checks it). Findings are located through the model's
//! [`Locator`](crate::scenario::model::Locator): one index per source file, so the cost
//! of locating findings does not grow with the size of the text.

use std::collections::{BTreeMap, BTreeSet};

pub use crate::scenario::diagnostics::{Code, Deployment, Finding, Severity, Subject};
use crate::scenario::diff::differing_counts;
use crate::scenario::format::Location;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::{
    BlockId, Board, LinkId, Locator, Provenance, Scenario, Section, Setup, SetupOrigin, SpaceId,
};
use crate::scenario::model::{BlockKind, Event, LinkClass, Side, SpaceKind};
use crate::scenario::rules::RuleSet;

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
    /// Whether any finding has `code` (written `"unknown-name"`).
    ///
    /// # Panics
    /// If `code` names no finding code: a misspelt code would otherwise
    /// make `!report.has(..)` pass whatever the report holds.
    pub fn has(&self, code: &str) -> bool {
        assert!(
            Code::ALL.iter().any(|c| c.as_str() == code),
            "\"{code}\" is no finding code{}",
            crate::scenario::names::did_you_mean(code, Code::ALL.iter().map(|c| c.as_str()))
        );
        self.findings.iter().any(|f| f.code == code)
    }
}

/// Points the rule set's findings (an engine requirement the rule set leaves
/// unmet) at a field that sets it: in the user's own file when it sets any
/// of the requirement's fields, else in the file it extends that does.
pub fn locate_rule_findings(report: &mut Report, variant: &str) {
    for finding in &mut report.findings {
        if finding.location.is_some() {
            continue;
        }
        let Some(requirement) = crate::scenario::playable::Requirement::ALL
            .into_iter()
            .find(|r| r.code() == finding.code)
        else {
            continue;
        };
        // A value out of range names its own field (any of the table's).
        let named = crate::scenario::rule_fields::field_out_of_range(&finding.message)
            .filter(|_| requirement == crate::scenario::playable::Requirement::FieldsInRange);
        let fields = match &named {
            Some(field) => std::slice::from_ref(field),
            None => requirement.fields(),
        };
        finding.location = crate::scenario::rules::locate_fields(variant, fields);
    }
}

/// Builds and validates a scenario under a rule set. Each check adds its
/// findings; a new check is one more line here.
pub fn validate(doc: &ResolvedScenario, rules: &RuleSet) -> Report {
    // Did-you-mean is an edit distance per known name: bounded, so a file
    // of thousands of unknown names still validates in linear time.
    crate::scenario::names::with_suggestion_budget(SUGGESTION_BUDGET, || validate_now(doc, rules))
}

/// Character pairs compared for suggestions in one validation: about 0.1 s
/// of work, a suggestion for each of the first 150 or so unknown names of a
/// full-size map.
const SUGGESTION_BUDGET: u64 = 4_000_000;

fn validate_now(doc: &ResolvedScenario, rules: &RuleSet) -> Report {
    let at = Locator::new(doc);
    let (scenario, mut findings, origin) = Scenario::build_traced(doc, &at);
    let ctx = Ctx {
        doc,
        scenario: &scenario,
        rules,
        at: &at,
        origin: &origin,
    };
    ctx.check_map(&mut findings);
    ctx.check_roster(&mut findings);
    ctx.check_deck(&mut findings);
    let order_of_battle = SetupCheck {
        setup: &scenario.order_of_battle,
        origin: &origin.order_of_battle,
        section: Deployment::OrderOfBattle,
    };
    ctx.check_setup(&order_of_battle, &mut findings);
    if let (Some(setup), Some(origin)) = (&scenario.free_deployment, &origin.free_deployment) {
        let free = SetupCheck {
            setup,
            origin,
            section: Deployment::FreeDeployment,
        };
        ctx.check_setup(&free, &mut findings);
        ctx.check_free_deployment(&free, &mut findings);
    }
    ctx.check_published(&mut findings);
    findings.sort_by_key(|f| f.severity);
    Report { scenario, findings }
}

/// The canvas map positions are drawn on (`SpaceDoc::at`).
const CANVAS: (f32, f32) = (2500.0, 1250.0);

/// The most move or levy points a command card may give: above the
/// published cards' 4 and 3, below anything absurd.
const MAX_CARD_POINTS: u8 = 9;

struct Ctx<'a> {
    doc: &'a ResolvedScenario,
    scenario: &'a Scenario,
    rules: &'a RuleSet,
    at: &'a Locator<'a>,
    origin: &'a Provenance,
}

/// One deployment section to check: its setup, where each placement was
/// written, and which section it is (for the messages and locations).
struct SetupCheck<'a> {
    setup: &'a Setup,
    origin: &'a SetupOrigin,
    section: Deployment,
}

impl<'a> SetupCheck<'a> {
    /// Each placement with where it was written: the side's list, the entry
    /// in it and the block's position in the entry.
    fn placements(
        &self,
    ) -> impl Iterator<Item = (&'a (BlockId, SpaceId), &'a (Side, usize, usize))> {
        self.setup.placements.iter().zip(&self.origin.placements)
    }
}

fn finding(code: Code, message: String, location: Option<Location>, subject: Subject) -> Finding {
    Finding::new(code, message).at(location).about(subject)
}

fn space_subject(name: &str) -> Subject {
    Subject::Space {
        name: name.to_string(),
    }
}

impl Ctx<'_> {
    fn board(&self) -> &Board {
        &self.scenario.board
    }

    fn link_location(&self, link: LinkId) -> Option<Location> {
        self.at.link(*self.origin.links.get(link.index())?)
    }

    fn space_location(&self, id: SpaceId) -> Option<Location> {
        self.at.space(*self.origin.spaces.get(id.index())?)
    }

    fn link_subject(&self, a: SpaceId, b: SpaceId) -> Subject {
        Subject::Link {
            a: self.board().name(a).to_string(),
            b: self.board().name(b).to_string(),
        }
    }

    fn check_map(&self, out: &mut Vec<Finding>) {
        self.check_links(out);
        self.check_spaces(out);
        self.check_islands_and_reach(out);
    }

    /// Roads, sea borders and straits join the kinds of space they may (4.3, 6.2, 4.42).
    fn check_links(&self, out: &mut Vec<Finding>) {
        let board = self.board();
        for (i, link) in board.links.iter().enumerate() {
            let (a, b) = (board.space(link.a), board.space(link.b));
            let here = || self.link_location(LinkId(i as u16));
            let subject = || self.link_subject(link.a, link.b);
            if link.class.is_road() && (a.kind == SpaceKind::Sea || b.kind == SpaceKind::Sea) {
                out.push(finding(
                    Code::RoadTouchesSea,
                    format!(
                        "{} {} - {} touches a sea; roads join cities (4.3), seas are joined by sea borders",
                        link.class.label(),
                        a.name,
                        b.name
                    ),
                    here(),
                    subject(),
                ));
            }
            if link.class == LinkClass::Sea {
                if a.kind.is_city() && b.kind.is_city() {
                    out.push(finding(
                        Code::SeaBorderBetweenCities,
                        format!(
                            "sea border {} - {} joins two cities; ports reach each other only via a sea (6.2)",
                            a.name, b.name
                        ),
                        here(),
                        subject(),
                    ));
                } else if a.kind == SpaceKind::City || b.kind == SpaceKind::City {
                    let inland = if a.kind == SpaceKind::City { a } else { b };
                    out.push(finding(
                        Code::InlandCityOnSea,
                        format!(
                            "\"{}\" is an inland city but borders a sea; make it a port (4.42)",
                            inland.name
                        ),
                        here(),
                        subject(),
                    ));
                }
            }
            if link.class == LinkClass::Strait && link.name.as_deref().unwrap_or("").is_empty() {
                out.push(finding(
                    Code::UnnamedStrait,
                    format!("the strait {} - {} has no name", a.name, b.name),
                    here(),
                    subject(),
                ));
            }
        }
    }

    /// Ports border a sea; seas carry no VP (4.2).
    fn check_spaces(&self, out: &mut Vec<Finding>) {
        let board = self.board();
        for id in board.ids() {
            let space = board.space(id);
            if let Some(why) = crate::scenario::names::name_problem(&space.name) {
                out.push(finding(
                    Code::BadName,
                    format!(
                        "space {}: {why}",
                        crate::scenario::names::escaped(&space.name)
                    ),
                    self.space_location(id),
                    space_subject(&space.name),
                ));
            }
            let (x, y) = space.pos;
            let (w, h) = CANVAS;
            if !(x.is_finite() && y.is_finite() && (0.0..=w).contains(&x) && (0.0..=h).contains(&y))
            {
                out.push(finding(
                    Code::OffCanvas,
                    format!(
                        "\"{}\" is drawn at ({x}, {y}), outside the {w} x {h} canvas of map positions",
                        space.name
                    ),
                    self.space_location(id),
                    space_subject(&space.name),
                ));
            }
            if space.kind.is_port() && board.seas_of(id).next().is_none() {
                out.push(finding(
                    Code::PortWithoutSea,
                    format!(
                        "\"{}\" is a {} but borders no sea",
                        space.name,
                        space.kind.label()
                    ),
                    self.space_location(id),
                    space_subject(&space.name),
                ));
            }
            if space.kind == SpaceKind::Sea && space.vp > 0 {
                out.push(finding(
                    Code::SeaWithVp,
                    format!(
                        "sea \"{}\" has {} VP; only cities carry VP (4.2)",
                        space.name, space.vp
                    ),
                    self.space_location(id),
                    space_subject(&space.name),
                ));
            }
        }
    }

    /// 4.41: islands are reached by sea; every space can be reached.
    fn check_islands_and_reach(&self, out: &mut Vec<Finding>) {
        let board = self.board();
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
                        Code::IslandByLand,
                        format!(
                            "\"{}\" lies on the island {island} but a {} joins it to \"{}\" (4.41: islands are reached by sea)",
                            board.name(id),
                            adj.class.label(),
                            board.name(adj.to)
                        ),
                        self.link_location(adj.link),
                        self.link_subject(id, adj.to),
                    ));
                }
            }
        }
        let components = board.components();
        for group in components.iter().skip(1) {
            let names: Vec<&str> = group.iter().map(|id| board.name(*id)).collect();
            out.push(finding(
                Code::Unreachable,
                format!(
                    "{} cannot be reached by land or sea from the rest of the map",
                    quote_list(&names)
                ),
                self.space_location(group[0]),
                space_subject(board.name(group[0])),
            ));
        }
    }

    fn check_roster(&self, out: &mut Vec<Finding>) {
        let roster = &self.scenario.roster;
        for side in Side::BOTH {
            if !roster
                .of_side(side)
                .any(|id| roster.block(id).kind == BlockKind::Leader)
            {
                out.push(finding(
                    Code::MissingLeader,
                    format!("{side} has no leader in the roster (3.21)"),
                    self.at
                        .field(Section::Roster, "roster.blocks")
                        .or_else(|| self.at.start(Section::Roster)),
                    Subject::Roster { side },
                ));
            }
        }
        for (id, &i) in roster.ids().zip(&self.origin.blocks) {
            let block = roster.block(id);
            let doc_block = &self.doc.roster.blocks[i];
            let here = || self.at.block(i);
            let subject = || Subject::Block {
                side: block.side,
                name: block.name.clone(),
            };
            if let Some(why) = crate::scenario::names::name_problem(&block.name) {
                out.push(finding(
                    Code::BadName,
                    format!(
                        "{} block {}: {why}",
                        block.side,
                        crate::scenario::names::escaped(&block.name)
                    ),
                    here(),
                    subject(),
                ));
            }
            if block.kind.needs_levy_city() && doc_block.levy.is_none() {
                out.push(finding(
                    Code::BadLevyCity,
                    format!(
                        "{} {} \"{}\" needs a levy city (6.4)",
                        block.side,
                        block.kind.label(),
                        block.name
                    ),
                    here(),
                    subject(),
                ));
            }
            if !crate::scenario::kinds::FIREPOWER.contains(&block.firepower) {
                out.push(finding(
                    Code::BadRating,
                    format!(
                        "{} block \"{}\" has firepower {}; a d6 hits on 1 to 6 (7.4)",
                        block.side, block.name, block.firepower
                    ),
                    here(),
                    subject(),
                ));
            }
            if !block.kind.step_range().contains(&block.max_steps) {
                out.push(finding(
                    Code::BadRating,
                    format!(
                        "{} block \"{}\" has {} steps (strength {}); blocks have strength I to IV (3.11)",
                        block.side,
                        block.name,
                        block.max_steps,
                        block.max_strength()
                    ),
                    here(),
                    subject(),
                ));
            }
        }
    }

    fn check_deck(&self, out: &mut Vec<Finding>) {
        let deck = &self.scenario.deck;
        let deck_location = || self.at.field(Section::Deck, "deck");
        let rule_set = || Subject::RuleSet {
            name: self.rules.name.clone(),
        };
        // What the engine needs of the deck and rule set is stated once, in
        // `playable`; each unmet requirement is an error here.
        for unmet in crate::scenario::playable::check(deck, self.rules) {
            let (location, subject) = if unmet.requirement.concerns_deck() {
                (deck_location(), Subject::Deck { card: None })
            } else {
                (None, rule_set())
            };
            out.push(finding(
                unmet.requirement.code(),
                unmet.message,
                location,
                subject,
            ));
        }
        self.check_rule_values(out);
        out.extend(self.first_command_card(
            Code::BadCommandCard,
            |c| c.moves > MAX_CARD_POINTS || c.levy > MAX_CARD_POINTS,
            &format!(
                "a card gives at most {MAX_CARD_POINTS} of each (the published cards 1 to 4 moves, 1 to 3 levies: 6.1, 6.4)"
            ),
        ));
        self.check_removed_cards(out);
        let mut seen = BTreeSet::new();
        for e in deck.events() {
            if !seen.insert(e) {
                out.push(finding(
                    Code::DuplicateName,
                    format!("event card {e:?} appears twice in the deck"),
                    self.at.field(Section::Deck, "deck.events"),
                    Subject::Deck {
                        card: Some(format!("{e:?}")),
                    },
                ));
            }
        }
        out.extend(self.first_command_card(
            Code::EmptyCommandCard,
            |c| c.moves == 0 && c.levy == 0,
            "it does nothing",
        ));
    }

    /// House rules: every removed card names a card of this deck, once
    /// for each copy it removes.
    fn check_removed_cards(&self, out: &mut Vec<Finding>) {
        let deck = &self.scenario.deck;
        let (_, unmatched) = deck.without(&self.rules.removed_cards);
        let names: Vec<String> = deck.cards.iter().map(|c| c.face.name()).collect();
        for name in unmatched {
            let why = if names.iter().any(|n| n.eq_ignore_ascii_case(name.trim())) {
                "more mentions than the deck has copies".to_string()
            } else {
                format!(
                    "no card is named so{}",
                    crate::scenario::names::did_you_mean(name, names.iter().map(String::as_str))
                )
            };
            out.push(finding(
                Code::BadRemovedCard,
                format!(
                    "{}: removed_cards names \"{name}\": {why} (cards are named \"Jupiter\" or \"3/1\")",
                    self.rules.name
                ),
                None,
                Subject::RuleSet {
                    name: self.rules.name.clone(),
                },
            ));
        }
    }

    /// A finding of `code` at the first command card `bad` holds for,
    /// saying `why`.
    fn first_command_card(
        &self,
        code: Code,
        bad: impl Fn(&crate::scenario::format::CommandDoc) -> bool,
        why: &str,
    ) -> Option<Finding> {
        let (k, c) = self
            .doc
            .deck
            .commands
            .iter()
            .enumerate()
            .find(|(_, c)| bad(c))?;
        Some(finding(
            code,
            format!(
                "a command card with move {} and levy {}: {why}",
                c.moves, c.levy
            ),
            self.at.field(Section::Deck, &format!("deck.commands.{k}")),
            Subject::Deck {
                card: Some(format!("{}/{}", c.moves, c.levy)),
            },
        ))
    }

    /// The rule set's values that make every game alike, and a name to call
    /// it by.
    fn check_rule_values(&self, out: &mut Vec<Finding>) {
        let subject = || Subject::RuleSet {
            name: self.rules.name.clone(),
        };
        if let Some(why) = crate::scenario::names::name_problem(&self.rules.name) {
            out.push(finding(
                Code::BadName,
                format!(
                    "the rule set's name {}: {why}",
                    crate::scenario::names::escaped(&self.rules.name)
                ),
                None,
                subject(),
            ));
        }
        // Out of range is the engine's requirement, reported with the others.
        let map_vp: u32 = self.board().spaces.iter().map(|s| u32::from(s.vp)).sum();
        for message in crate::scenario::rule_fields::degenerate_values(self.rules, map_vp) {
            out.push(finding(Code::DegenerateRule, message, None, subject()));
        }
    }

    /// 4.21: a game starts with every location one side's: blocks of both
    /// sides in one city or sea are an error, located at the first block of
    /// the side that came second there.
    fn check_sides_apart(&self, check: &SetupCheck<'_>, out: &mut Vec<Finding>) {
        let section = check.section;
        let (board, roster) = (self.board(), &self.scenario.roster);
        let sides = check
            .setup
            .placements
            .iter()
            .map(|&(b, s)| (roster.block(b).side, s));
        for space_id in crate::scenario::model::held_by_both_sides(board, sides) {
            let space = board.space(space_id);
            let mut here = check
                .placements()
                .filter(|((_, s), _)| *s == space_id)
                .map(|(_, &o)| o);
            let first = here.next();
            let Some((side, entry, k)) = here.find(|o| Some(o.0) != first.map(|f| f.0)) else {
                continue;
            };
            out.push(finding(
                Code::BothSidesDeployed,
                format!(
                    "{section}: blocks of both sides are deployed in \"{}\"; a game starts with every city and sea held by one side (4.21)",
                    space.name
                ),
                self.at.placement(section, side, entry, Some(k)),
                Subject::Placement {
                    section,
                    side,
                    space: space.name.clone(),
                    block: None,
                },
            ));
        }
    }

    fn check_setup(&self, check: &SetupCheck<'_>, out: &mut Vec<Finding>) {
        let section = check.section;
        let (board, roster) = (self.board(), &self.scenario.roster);
        for (&(block_id, space_id), &(side, entry, k)) in check.placements() {
            let block = roster.block(block_id);
            let space = board.space(space_id);
            let here = || self.at.placement(section, side, entry, Some(k));
            let subject = || Subject::Placement {
                section,
                side,
                space: space.name.clone(),
                block: Some(block.name.clone()),
            };
            if block.kind.is_land() && space.kind == SpaceKind::Sea {
                out.push(finding(
                    Code::LandBlockAtSea,
                    format!(
                        "{section}: {} {} \"{}\" is deployed at sea in \"{}\"; only Navis may be at sea (4.4)",
                        block.side,
                        block.kind.label(),
                        block.name,
                        space.name
                    ),
                    here(),
                    subject(),
                ));
            }
            if block.kind == BlockKind::Navis && space.kind == SpaceKind::City {
                out.push(finding(
                    Code::NavisInland,
                    format!(
                        "{section}: {} \"{}\" is deployed in the inland city \"{}\"; Navis stay at sea or in ports (4.1)",
                        block.side, block.name, space.name
                    ),
                    here(),
                    subject(),
                ));
            }
        }
        self.check_sides_apart(check, out);
        // 5.1: the published game starts every block at full strength.
        for (&(block_id, strength), &(side, i)) in
            check.setup.strengths.iter().zip(&check.origin.strengths)
        {
            let block = roster.block(block_id);
            if strength < block.max_strength() {
                out.push(finding(
                    Code::ReducedStrength,
                    format!(
                        "{section}: {} \"{}\" starts at strength {strength} of {}; the published game starts every block at full strength (5.1)",
                        block.side,
                        block.name,
                        block.max_strength()
                    ),
                    self.at.strength(section, side, i),
                    Subject::Strength {
                        section,
                        side,
                        block: block.name.clone(),
                    },
                ));
            }
        }
        // 8.4: more blocks than a city supplies are disbanded at the first winter.
        let mut per_space: BTreeMap<SpaceId, (usize, (Side, usize))> = BTreeMap::new();
        for (&(_, s), &(side, entry, _)) in check.placements() {
            per_space.entry(s).or_insert((0, (side, entry))).0 += 1;
        }
        for (s, (n, (side, entry))) in per_space {
            let space = board.space(s);
            let limit = space.winter_supply(self.rules.winter_supply_base) as usize;
            if space.kind.is_city() && n > limit {
                out.push(finding(
                    Code::WinterSupply,
                    format!(
                        "{section}: {n} blocks start in \"{}\", which supplies {limit} in winter (8.4: {} + {} VP); the surplus would be disbanded",
                        space.name, self.rules.winter_supply_base, space.vp
                    ),
                    self.at.placement(section, side, entry, None),
                    Subject::Placement {
                        section,
                        side,
                        space: space.name.clone(),
                        block: None,
                    },
                ));
            }
        }
    }

    /// 5.3: the same blocks as the order of battle, and in every city the
    /// same number of that side's blocks.
    fn check_free_deployment(&self, check: &SetupCheck<'_>, out: &mut Vec<Finding>) {
        const FREE: Deployment = Deployment::FreeDeployment;
        let free = check.setup;
        let (board, roster) = (self.board(), &self.scenario.roster);
        let oob = &self.scenario.order_of_battle;
        let side_list = |side: Side| {
            self.at
                .field(
                    Section::Deployment(FREE),
                    &format!("free_deployment.{}", side.label().to_lowercase()),
                )
                .or_else(|| self.at.field(Section::Deployment(FREE), "free_deployment"))
        };
        for side in Side::BOTH {
            let (want, have) = (oob.counts(roster, side), free.counts(roster, side));
            for (city, w, h) in differing_counts(&want, &have) {
                // The side's entry for the city, else the side's list.
                let entry = check
                    .placements()
                    .find(|((_, s), (sd, _, _))| *s == city && *sd == side)
                    .map(|(_, &(_, entry, _))| entry);
                out.push(finding(
                    Code::FreeDeploymentCount,
                    format!(
                        "free_deployment: {side} has {h} block(s) in \"{}\" but the order of battle has {w} (5.3: each city keeps its number of blocks)",
                        board.name(city)
                    ),
                    entry
                        .and_then(|e| self.at.placement(FREE, side, e, None))
                        .or_else(|| side_list(side)),
                    Subject::Placement {
                        section: FREE,
                        side,
                        space: board.name(city).to_string(),
                        block: None,
                    },
                ));
            }
            for (&(block, space), &(_, entry, k)) in check.placements() {
                if roster.block(block).side == side && oob.location(block).is_none() {
                    out.push(finding(
                        Code::FreeDeploymentSubstitution,
                        format!(
                            "free_deployment: {side} block \"{}\" in \"{}\" starts in the levy pool in the order of battle; pool blocks cannot be substituted (5.3)",
                            roster.block(block).name,
                            board.name(space)
                        ),
                        self.at.placement(FREE, side, entry, Some(k)),
                        Subject::Placement {
                            section: FREE,
                            side,
                            space: board.name(space).to_string(),
                            block: Some(roster.block(block).name.clone()),
                        },
                    ));
                }
            }
            for &(block, _) in &oob.placements {
                if roster.block(block).side == side && free.location(block).is_none() {
                    out.push(finding(
                        Code::FreeDeploymentMissing,
                        format!(
                            "free_deployment: {side} block \"{}\" of the order of battle is not deployed (5.3 swaps blocks; it does not leave them out)",
                            roster.block(block).name
                        ),
                        side_list(side),
                        Subject::Block {
                            side,
                            name: roster.block(block).name.clone(),
                        },
                    ));
                }
            }
        }
    }

    /// Departures from the published map, as warnings. They point at the
    /// start of the map section; their subject is the space concerned, if any.
    fn check_published(&self, out: &mut Vec<Finding>) {
        self.check_published_vp_and_seas(out);
        self.check_published_ports(out);
        self.check_published_straits(out);
        self.check_published_coasts(out);
        self.check_published_deck(out);
    }

    /// Warns about the map, pointing at the start of its section.
    fn warn(&self, out: &mut Vec<Finding>, code: Code, message: String, subject: Subject) {
        out.push(finding(
            code,
            message,
            self.at.field(Section::Map, "map"),
            subject,
        ));
    }

    /// 4.2 and 4.4: 13 VP in 11 cities, nine seas.
    fn check_published_vp_and_seas(&self, out: &mut Vec<Finding>) {
        let board = self.board();
        // 4.2: eleven cities carry 13 VP.
        let vp_cities = board.spaces.iter().filter(|s| s.vp > 0).count();
        let vp_total = board.total_vp();
        if vp_cities != 11 || vp_total != 13 {
            self.warn(
                out,
                Code::VpTotal,
                format!(
                    "{vp_cities} cities carry {vp_total} VP; the published map has 13 VP in 11 cities (4.2)"
                ),
                Subject::Map,
            );
        }
        // 4.4: nine seas.
        let seas = board
            .spaces
            .iter()
            .filter(|s| s.kind == SpaceKind::Sea)
            .count();
        if seas != published::SEAS.len() {
            self.warn(
                out,
                Code::SeaCount,
                format!("the map has {seas} seas; the published map has 9 (4.4)"),
                Subject::Map,
            );
        }
    }

    /// The Ports sidebar: the ports of each sea.
    fn check_published_ports(&self, out: &mut Vec<Finding>) {
        let board = self.board();
        let space = |id: SpaceId| space_subject(board.name(id));
        // Ports sidebar: ports of each sea.
        for (sea_name, ports) in published::SEAS {
            let Some(sea) = board.find(sea_name) else {
                self.warn(
                    out,
                    Code::SeaPorts,
                    format!("the published sea {sea_name} is not on the map"),
                    Subject::Map,
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
                self.warn(
                    out,
                    Code::SeaPorts,
                    format!(
                        "{}: its ports differ from the rules' Ports sidebar: {}",
                        board.name(sea),
                        parts.join("; ")
                    ),
                    space(sea),
                );
            }
        }
    }

    /// 4.32: the four straits.
    fn check_published_straits(&self, out: &mut Vec<Finding>) {
        let board = self.board();
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
            self.warn(
                out,
                Code::Straits,
                format!(
                    "the straits are [{}]; the published map has [{}] (4.32)",
                    show(&straits),
                    show(&expected)
                ),
                Subject::Map,
            );
        }
    }

    /// 4.42 and 4.41: ports on three seas, Pergamum no port, the islands.
    fn check_published_coasts(&self, out: &mut Vec<Finding>) {
        let board = self.board();
        let space = |id: SpaceId| space_subject(board.name(id));
        // 4.42: Utica and Creta border three seas.
        for name in published::THREE_SEA_PORTS {
            if let Some(id) = board.find(name) {
                let n = board.seas_of(id).count();
                if n != 3 {
                    self.warn(
                        out,
                        Code::ThreeSeaPorts,
                        format!("{name} borders {n} seas; the rules say 3 (4.42)"),
                        space(id),
                    );
                }
            }
        }
        for id in board.ids().filter(|id| board.space(*id).kind.is_port()) {
            let n = board.seas_of(id).count();
            if n > 2 && !published::THREE_SEA_PORTS.contains(&board.name(id)) {
                self.warn(
                    out,
                    Code::ThreeSeaPorts,
                    format!(
                        "{} borders {n} seas; only Utica and Creta border 3 (4.42)",
                        board.name(id)
                    ),
                    space(id),
                );
            }
        }
        // Navis example 2: "the city of Pergamum is not a port".
        if let Some(id) = board.find("Pergamum")
            && board.space(id).kind.is_port()
        {
            self.warn(
                out,
                Code::PergamumPort,
                "Pergamum is a port; the rules say it is not (Navis move example 2)".to_string(),
                space(id),
            );
        }
        // 4.41: the playable islands.
        for (island, cities) in published::ISLANDS {
            for city in *cities {
                if let Some(id) = board.find(city)
                    && board.space(id).island.as_deref() != Some(island)
                {
                    self.warn(
                        out,
                        Code::Islands,
                        format!("{city} should lie on the island {island} (4.41)"),
                        space(id),
                    );
                }
            }
        }
    }

    /// 2.1: seven events and twenty command cards.
    fn check_published_deck(&self, out: &mut Vec<Finding>) {
        // The deck: seven events and twenty command cards (2.1).
        let events: BTreeSet<Event> = self.scenario.deck.events().collect();
        let commands = self.scenario.deck.cards.len() - self.scenario.deck.events().count();
        if events.len() != Event::ALL.len() || commands != 20 {
            out.push(finding(
                Code::DeckComposition,
                format!(
                    "the deck has {} event and {commands} command cards; the published deck has 7 and 20 (2.1)",
                    events.len()
                ),
                self.at.field(Section::Deck, "deck"),
                Subject::Deck { card: None },
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
    pub(crate) const SEAS: &[(&str, &[&str])] = &[
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
    pub(crate) const STRAITS: &[(&str, &str, &str)] = &[
        ("Herculeum", "Gades", "Tingis"),
        ("Messana", "Messana", "Rhegium"),
        ("Hellespontus", "Aenos", "Pergamum"),
        ("Bosphorus", "Byzantium", "Nicomedia"),
    ];

    /// 4.42.
    pub(crate) const THREE_SEA_PORTS: &[&str] = &["Utica", "Creta"];

    /// 4.41: the playable islands and their cities.
    pub(crate) const ISLANDS: &[(&str, &[&str])] = &[
        ("Corsica", &["Aleria"]),
        ("Sardinia", &["Caralis"]),
        ("Sicilia", &["Lilybaeum", "Messana", "Syracusae"]),
        ("Creta", &["Creta"]),
        ("Cyprus", &["Salamis"]),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_answers_for_a_known_code() {
        let report = validate(
            &crate::scenario::historical(),
            &RuleSet::builtin("rules-2.0"),
        );
        assert!(!report.has("unknown-name"));
    }

    #[test]
    #[should_panic(expected = "is no finding code (did you mean \"unknown-name\"?)")]
    fn a_misspelt_code_is_refused_not_answered_false() {
        let report = validate(
            &crate::scenario::historical(),
            &RuleSet::builtin("rules-2.0"),
        );
        report.has("unknown-nmae");
    }
}
