//! Every validator rule: one test that triggers it, and the shipped scenario,
//! which triggers none (`shipped_scenario_triggers_nothing`), for the other half.

use caesar_workbench::scenario::format::{DeploymentDoc, LinkDoc, ResolvedScenario, SpaceDoc};
use caesar_workbench::scenario::model::{BlockKind, Side, SpaceKind};
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::scenario::validate::{Code, Deployment, Report, Severity, Subject, validate};

fn base() -> ResolvedScenario {
    caesar_workbench::scenario::historical()
}

fn check(doc: &ResolvedScenario) -> Report {
    validate(doc, &RuleSet::builtin("rules-2.0"))
}

/// Asserts that `code` fires with `severity`, and returns its message.
fn fires(doc: &ResolvedScenario, code: &str, severity: Severity) -> String {
    let report = check(doc);
    let f = report
        .findings
        .iter()
        .find(|f| f.code == code)
        .unwrap_or_else(|| panic!("{code} did not fire: {:#?}", report.findings));
    assert_eq!(f.severity, severity, "{f}");
    f.to_string()
}

fn space_mut<'a>(doc: &'a mut ResolvedScenario, name: &str) -> &'a mut SpaceDoc {
    doc.map.spaces.iter_mut().find(|s| s.name == name).unwrap()
}

fn free_copy_of_history(doc: &mut ResolvedScenario) -> &mut DeploymentDoc {
    doc.free_deployment = Some(doc.order_of_battle.clone());
    doc.sources.free_deployment = Some(doc.sources.order_of_battle.clone());
    doc.free_deployment.as_mut().unwrap()
}

#[test]
fn shipped_scenario_triggers_nothing() {
    let report = check(&base());
    assert_eq!(report.findings, vec![]);
    assert_eq!((report.errors(), report.warnings()), (0, 0));
}

#[test]
fn unknown_link_end_is_an_error_with_suggestion_and_location() {
    let mut doc = base();
    doc.map
        .links
        .push(LinkDoc::Major("Genua".into(), "Romaa".into()));
    let msg = fires(&doc, "unknown-name", Severity::Error);
    assert!(
        msg.contains("\"Romaa\"") && msg.contains("did you mean \"Roma\""),
        "{msg}"
    );
}

#[test]
fn error_locations_point_at_the_offending_line() {
    let text = caesar_workbench::scenario::HISTORICAL_SCENARIO.replace(
        "Minor(\"Ravenna\", \"Roma\")",
        "Minor(\"Ravenna\", \"Romulus\")",
    );
    let line = text.lines().position(|l| l.contains("Romulus")).unwrap() + 1;
    let doc = caesar_workbench::scenario::format::scenario_from_str("edited.ron".as_ref(), &text)
        .unwrap();
    let msg = fires(&doc, "unknown-name", Severity::Error);
    assert!(
        msg.starts_with(&format!("edited.ron:{line}:19: error[unknown-name]")),
        "{msg}"
    );
}

#[test]
fn unknown_block_in_deployment_is_an_error() {
    let mut doc = base();
    doc.order_of_battle.caesar[0].1.push("Legio 99".into());
    let msg = fires(&doc, "unknown-name", Severity::Error);
    assert!(msg.contains("Caesar block \"Legio 99\""), "{msg}");
}

#[test]
fn unknown_deployment_space_is_an_error() {
    let mut doc = base();
    doc.order_of_battle.pompey[0].0 = "Neapoli".into();
    let msg = fires(&doc, "unknown-name", Severity::Error);
    assert!(msg.contains("did you mean \"Neapolis\""), "{msg}");
}

#[test]
fn duplicate_space_is_an_error() {
    let mut doc = base();
    let copy = doc.map.spaces[0].clone();
    doc.map.spaces.push(copy);
    fires(&doc, "duplicate-name", Severity::Error);
}

#[test]
fn a_map_of_more_than_256_spaces_is_an_error_and_the_rest_are_ignored() {
    let mut doc = base();
    let template = doc.map.spaces[0].clone();
    let shipped = doc.map.spaces.len();
    for i in 0..(caesar_workbench::scenario::model::MAX_SPACES + 5 - shipped) {
        let mut extra = template.clone();
        extra.name = format!("Extra {i}");
        extra.aliases.clear();
        doc.map.spaces.push(extra);
    }
    let msg = fires(&doc, "too-many-spaces", Severity::Error);
    assert!(msg.contains("more than 256 spaces"), "{msg}");
    let report = check(&doc);
    assert_eq!(
        report.scenario.board.len(),
        caesar_workbench::scenario::model::MAX_SPACES
    );
    // The engine still runs on what was kept.
    let game = caesar_workbench::engine::Game::try_new(
        std::sync::Arc::new(report.scenario),
        std::sync::Arc::new(RuleSet::builtin("rules-2.0")),
    )
    .expect("the engine plays it");
    let state = caesar_workbench::engine::State::new(&game, 1);
    let mut legal = Vec::new();
    state.legal_actions(&game, &mut legal);
    assert!(!legal.is_empty());
}

#[test]
fn alias_clashing_with_a_name_is_an_error() {
    let mut doc = base();
    space_mut(&mut doc, "Genua").aliases.push("Roma".into());
    fires(&doc, "duplicate-name", Severity::Error);
}

#[test]
fn duplicate_block_within_a_side_is_an_error_but_not_across_sides() {
    let mut doc = base();
    let copy = doc.roster.blocks[5].clone();
    doc.roster.blocks.push(copy);
    fires(&doc, "duplicate-name", Severity::Error);
    // Both sides have an "Equitatus 1" in the shipped roster, which is fine.
    assert!(!check(&base()).has("duplicate-name"));
}

#[test]
fn duplicate_link_is_an_error() {
    let mut doc = base();
    doc.map
        .links
        .push(LinkDoc::Minor("Roma".into(), "Genua".into()));
    fires(&doc, "duplicate-link", Severity::Error);
}

#[test]
fn self_link_is_an_error() {
    let mut doc = base();
    doc.map
        .links
        .push(LinkDoc::Minor("Roma".into(), "Rome".into()));
    fires(&doc, "self-link", Severity::Error);
}

#[test]
fn road_touching_a_sea_is_an_error() {
    let mut doc = base();
    doc.map
        .links
        .push(LinkDoc::Major("Lugdunum".into(), "Mare Hispanum".into()));
    fires(&doc, "road-touches-sea", Severity::Error);
}

#[test]
fn sea_border_between_cities_is_an_error() {
    let mut doc = base();
    doc.map
        .links
        .push(LinkDoc::Sea("Roma".into(), "Aleria".into()));
    fires(&doc, "sea-border-between-cities", Severity::Error);
}

#[test]
fn inland_city_on_a_sea_is_an_error() {
    let mut doc = base();
    doc.map
        .links
        .push(LinkDoc::Sea("Lugdunum".into(), "Mare Hispanum".into()));
    fires(&doc, "inland-city-on-sea", Severity::Error);
}

#[test]
fn port_without_sea_is_an_error() {
    let mut doc = base();
    space_mut(&mut doc, "Lugdunum").kind = SpaceKind::Port;
    fires(&doc, "port-without-sea", Severity::Error);
}

#[test]
fn sea_with_vp_is_an_error() {
    let mut doc = base();
    space_mut(&mut doc, "Propontis").vp = 1;
    fires(&doc, "sea-with-vp", Severity::Error);
}

#[test]
fn land_block_at_sea_is_an_error() {
    let mut doc = base();
    doc.order_of_battle
        .caesar
        .push(("Mare Hispanum".into(), vec!["Legio 17".into()]));
    fires(&doc, "land-block-at-sea", Severity::Error);
}

#[test]
fn navis_in_an_inland_city_is_an_error() {
    let mut doc = base();
    doc.order_of_battle
        .caesar
        .push(("Lugdunum".into(), vec!["Navis 3".into()]));
    fires(&doc, "navis-inland", Severity::Error);
}

#[test]
fn navis_at_sea_or_in_port_is_fine() {
    let mut doc = base();
    doc.order_of_battle
        .caesar
        .push(("Mare Hispanum".into(), vec!["Navis 3".into()]));
    let report = check(&doc);
    assert!(!report.has("navis-inland") && !report.has("land-block-at-sea"));
}

#[test]
fn block_deployed_twice_is_an_error() {
    let mut doc = base();
    doc.order_of_battle
        .caesar
        .push(("Roma".into(), vec!["Legio 13".into()]));
    let msg = fires(&doc, "deployed-twice", Severity::Error);
    assert!(msg.contains("Ravenna") && msg.contains("Roma"), "{msg}");
}

#[test]
fn levy_city_that_is_a_sea_or_unknown_is_an_error() {
    let mut doc = base();
    doc.roster
        .blocks
        .iter_mut()
        .find(|b| b.name == "Legio 13")
        .unwrap()
        .levy = Some("Mare Hadriaticum".into());
    fires(&doc, "bad-levy-city", Severity::Error);
    let mut doc = base();
    doc.roster
        .blocks
        .iter_mut()
        .find(|b| b.name == "Legio 13")
        .unwrap()
        .levy = Some("Ravena".into());
    let msg = fires(&doc, "bad-levy-city", Severity::Error);
    assert!(msg.contains("did you mean \"Ravenna\""), "{msg}");
}

#[test]
fn legion_without_levy_city_is_an_error() {
    let mut doc = base();
    doc.roster
        .blocks
        .iter_mut()
        .find(|b| b.name == "Legio 13")
        .unwrap()
        .levy = None;
    fires(&doc, "bad-levy-city", Severity::Error);
}

#[test]
fn impossible_ratings_are_errors() {
    let mut doc = base();
    doc.roster.blocks[3].firepower = 7;
    fires(&doc, "bad-rating", Severity::Error);
    let mut doc = base();
    let elephant = doc
        .roster
        .blocks
        .iter_mut()
        .find(|b| b.kind == BlockKind::Elephant)
        .unwrap();
    elephant.steps = 3; // VI
    fires(&doc, "bad-rating", Severity::Error);
}

#[test]
fn roster_without_a_sides_leaders_is_an_error() {
    let mut doc = base();
    doc.roster
        .blocks
        .retain(|b| !(b.side == Side::Pompey && b.kind == BlockKind::Leader));
    doc.order_of_battle
        .pompey
        .iter_mut()
        .for_each(|(_, blocks)| {
            blocks.retain(|b| b != "Pompey" && b != "Scipio");
        });
    let msg = fires(&doc, "missing-leader", Severity::Error);
    assert!(msg.contains("Pompey"), "{msg}");
}

#[test]
fn deck_smaller_than_two_hands_is_an_error() {
    let mut doc = base();
    doc.deck.commands.clear();
    fires(&doc, "deck-too-small", Severity::Error);
}

#[test]
fn duplicate_event_card_is_an_error() {
    let mut doc = base();
    doc.deck
        .events
        .push(caesar_workbench::scenario::model::Event::Jupiter);
    fires(&doc, "duplicate-name", Severity::Error);
}

#[test]
fn rule_5_3_free_deployment_copying_history_is_valid() {
    let mut doc = base();
    free_copy_of_history(&mut doc);
    assert_eq!(check(&doc).findings, vec![]);
}

#[test]
fn rule_5_3_free_deployment_must_keep_city_counts() {
    let mut doc = base();
    let free = free_copy_of_history(&mut doc);
    // Move Legio 13 from Ravenna to Genua: Ravenna 2, Genua 4.
    free.caesar[0].1.retain(|b| b != "Legio 13");
    free.caesar[1].1.push("Legio 13".into());
    let msg = fires(&doc, "free-deployment-count", Severity::Error);
    assert!(msg.contains("Ravenna") || msg.contains("Genua"), "{msg}");
}

#[test]
fn rule_5_3_free_deployment_may_not_substitute_pool_blocks() {
    let mut doc = base();
    let free = free_copy_of_history(&mut doc);
    free.caesar[0].1.retain(|b| b != "Legio 13");
    free.caesar[0].1.push("Legio 17".into());
    fires(&doc, "free-deployment-substitution", Severity::Error);
    fires(&doc, "free-deployment-missing", Severity::Error);
}

#[test]
fn rule_5_3_free_deployment_may_swap_blocks_between_cities() {
    let mut doc = base();
    let free = free_copy_of_history(&mut doc);
    free.caesar[0].1[1] = "Legio 8".into(); // Ravenna: Caesar, Legio 8, Navis 2
    free.caesar[1].1[1] = "Legio 13".into(); // Genua: Antonius, Legio 13, Legio 12
    assert_eq!(check(&doc).findings, vec![]);
}

#[test]
fn vp_total_other_than_13_in_11_cities_warns() {
    let mut doc = base();
    space_mut(&mut doc, "Genua").vp = 1;
    fires(&doc, "vp-total", Severity::Warning);
}

#[test]
fn sea_count_warns() {
    let mut doc = base();
    doc.map.spaces.push(SpaceDoc {
        name: "Mare Balearicum".into(),
        kind: SpaceKind::Sea,
        vp: 0,
        at: (700.0, 600.0),
        island: None,
        aliases: vec![],
    });
    doc.map.links.push(LinkDoc::Sea(
        "Mare Balearicum".into(),
        "Mare Hispanum".into(),
    ));
    fires(&doc, "sea-count", Severity::Warning);
}

#[test]
fn ports_sidebar_mismatch_warns() {
    let mut doc = base();
    doc.map
        .links
        .retain(|l| l.ends() != ("Mare Hadriaticum", "Salona"));
    let msg = fires(&doc, "sea-ports", Severity::Warning);
    assert!(
        msg.contains("Mare Hadriaticum") && msg.contains("Salona"),
        "{msg}"
    );
}

#[test]
fn straits_mismatch_warns() {
    let mut doc = base();
    for link in &mut doc.map.links {
        if let LinkDoc::Strait { name, .. } = link
            && name == "Bosphorus"
        {
            *name = "Bosporus".into();
        }
    }
    fires(&doc, "straits", Severity::Warning);
}

#[test]
fn utica_not_on_three_seas_warns() {
    let mut doc = base();
    doc.map
        .links
        .retain(|l| l.ends() != ("Mare Tyrrhenum", "Utica"));
    fires(&doc, "three-sea-ports", Severity::Warning);
}

#[test]
fn pergamum_as_a_port_warns() {
    let mut doc = base();
    space_mut(&mut doc, "Pergamum").kind = SpaceKind::Port;
    doc.map
        .links
        .push(LinkDoc::Sea("Pergamum".into(), "Mare Aegaeum".into()));
    fires(&doc, "pergamum-port", Severity::Warning);
}

#[test]
fn unreachable_spaces_warn() {
    let mut doc = base();
    doc.map.spaces.push(SpaceDoc {
        name: "Thule".into(),
        kind: SpaceKind::City,
        vp: 0,
        at: (600.0, 10.0),
        island: None,
        aliases: vec![],
    });
    let msg = fires(&doc, "unreachable", Severity::Warning);
    assert!(msg.contains("Thule"), "{msg}");
}

#[test]
fn island_reachable_by_road_warns() {
    let mut doc = base();
    doc.map
        .links
        .push(LinkDoc::Minor("Aleria".into(), "Genua".into()));
    fires(&doc, "island-by-land", Severity::Warning);
}

#[test]
fn published_island_not_marked_warns() {
    let mut doc = base();
    space_mut(&mut doc, "Salamis").island = None;
    fires(&doc, "islands", Severity::Warning);
}

#[test]
fn deployment_over_winter_supply_warns() {
    let mut doc = base();
    // Genua (0 VP) supplies 3; the order of battle already has 3 there.
    doc.order_of_battle.caesar[1].1.push("Legio 17".into());
    let msg = fires(&doc, "winter-supply", Severity::Warning);
    assert!(msg.contains("Genua") && msg.contains("supplies 3"), "{msg}");
}

#[test]
fn winter_supply_follows_the_variant() {
    let mut doc = base();
    doc.order_of_battle.caesar[1].1.push("Legio 17".into());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("generous.ron");
    std::fs::write(&path, "(extends: \"rules-2.0\", winter_supply_base: 4)").unwrap();
    let rules = RuleSet::load(path.to_str().unwrap()).unwrap();
    assert!(!validate(&doc, &rules).has("winter-supply"));
}

#[test]
fn unnamed_strait_warns() {
    let mut doc = base();
    for link in &mut doc.map.links {
        if let LinkDoc::Strait { name, .. } = link {
            name.clear();
        }
    }
    fires(&doc, "unnamed-strait", Severity::Warning);
}

#[test]
fn deck_composition_warns() {
    let mut doc = base();
    doc.deck
        .events
        .retain(|e| *e != caesar_workbench::scenario::model::Event::Vulcan);
    fires(&doc, "deck-composition", Severity::Warning);
}

#[test]
fn empty_command_card_warns() {
    let mut doc = base();
    doc.deck
        .commands
        .push(caesar_workbench::scenario::format::CommandDoc {
            moves: 0,
            levy: 0,
            copies: 1,
        });
    fires(&doc, "empty-command-card", Severity::Warning);
}

#[test]
fn findings_list_errors_before_warnings() {
    let mut doc = base();
    space_mut(&mut doc, "Genua").vp = 1;
    doc.map
        .links
        .push(LinkDoc::Minor("Roma".into(), "Roma".into()));
    let report = check(&doc);
    assert_eq!(report.findings.first().unwrap().severity, Severity::Error);
    assert_eq!(report.findings.last().unwrap().severity, Severity::Warning);
}

#[test]
fn starting_strengths_below_full_warn_and_impossible_ones_are_errors() {
    let mut doc = base();
    doc.order_of_battle
        .strengths
        .caesar
        .push(("Legio 13".into(), 2));
    let msg = fires(&doc, "reduced-strength", Severity::Warning);
    assert!(msg.contains("Legio 13") && msg.contains("5.1"), "{msg}");
    assert_eq!(check(&doc).errors(), 0);

    for (block, strength, why) in [
        ("Legio 13", 4, "1 to 3"),
        ("Legio 13", 0, "1 to 3"),
        ("Octavian", 1, "not deployed"),
    ] {
        let mut doc = base();
        doc.order_of_battle
            .strengths
            .caesar
            .push((block.into(), strength));
        let msg = fires(&doc, "bad-strength", Severity::Error);
        assert!(msg.contains(block) && msg.contains(why), "{msg}");
    }
    let mut doc = base();
    doc.order_of_battle
        .strengths
        .pompey
        .push(("Legio 99".into(), 1));
    let msg = fires(&doc, "unknown-name", Severity::Error);
    assert!(msg.contains("Legio 9"), "{msg}");
}

#[test]
fn rule_7_41_an_elephant_starts_at_iv_or_ii_only() {
    let mut doc = base();
    // Put the elephant on the board in Utica, its levy city.
    let (_, blocks) = doc
        .order_of_battle
        .pompey
        .iter_mut()
        .find(|(c, _)| c == "Utica")
        .unwrap();
    blocks.push("Elephant".into());
    doc.order_of_battle
        .strengths
        .pompey
        .push(("Elephant".into(), 3));
    let msg = fires(&doc, "bad-strength", Severity::Error);
    assert!(msg.contains("7.41"), "{msg}");
    doc.order_of_battle.strengths.pompey[0].1 = 2;
    let report = check(&doc);
    assert!(!report.has("bad-strength"), "{:?}", report.findings);
}

#[test]
fn a_bad_starting_strength_points_at_its_line_in_the_strengths_list() {
    let text = caesar_workbench::scenario::HISTORICAL_SCENARIO.replace(
        "            (\"Tarraco\", [\"Legio 5\", \"Legio 6\", \"Equitatus 1\"]),\n        ],\n",
        "            (\"Tarraco\", [\"Legio 5\", \"Legio 6\", \"Equitatus 1\"]),\n        ],\n        strengths: (pompey: [(\"Legio 6\", 9)]),\n",
    );
    let line = text.lines().position(|l| l.contains("strengths:")).unwrap() + 1;
    let doc =
        caesar_workbench::scenario::format::scenario_from_str("weak.ron".as_ref(), &text).unwrap();
    let msg = fires(&doc, "bad-strength", Severity::Error);
    assert!(
        msg.starts_with(&format!("weak.ron:{line}:")),
        "{msg} (expected line {line})"
    );
}

#[test]
fn house_rule_removals_must_name_cards_the_deck_holds_and_leave_two_hands() {
    let with = |removed: &[&str]| {
        let mut rules = RuleSet::builtin("rules-2.0");
        rules.removed_cards = removed.iter().map(|s| s.to_string()).collect();
        validate(&base(), &rules)
    };
    let report = with(&["Jupiter", "Vulcan", "4/1", "3/1"]);
    assert!(report.findings.is_empty(), "{:?}", report.findings);

    let report = with(&["Jupitr"]);
    let f = report
        .findings
        .iter()
        .find(|f| f.code == Code::BadRemovedCard)
        .unwrap();
    assert_eq!(f.severity, Severity::Error);
    assert!(f.message.contains("did you mean \"Jupiter\""), "{f}");

    // 4/1 is printed once.
    let report = with(&["4/1", "4/1"]);
    let f = report
        .findings
        .iter()
        .find(|f| f.code == Code::BadRemovedCard)
        .unwrap();
    assert!(f.message.contains("more mentions than"), "{f}");

    // 27 cards less 16 leaves 11: not two hands of six.
    let sixteen = [
        "Apollo", "Jupiter", "Mars", "Mercury", "Neptune", "Pluto", "Vulcan", "2/3", "2/3", "2/3",
        "2/3", "2/2", "2/2", "2/2", "2/2", "1/3",
    ];
    let report = with(&sixteen);
    assert!(report.has("deck-too-small"), "{:?}", report.findings);
    assert!(!report.has("bad-removed-card"));
    assert!(!with(&sixteen[..15]).has("deck-too-small"));
}

// ------------------------------------------------------------------ scale

/// RON text of a scenario whose map is the complete graph of `n` spaces (a
/// major road between every two), extending the published game for its
/// roster, deck and deployment. With `seas`, every fourth space is a sea, so
/// thousands of roads touch a sea and each is a finding to locate.
fn complete_graph(n: usize, seas: bool) -> String {
    let mut text = String::from(
        "Scenario(\n    name: \"complete\",\n    extends: \"historical.ron\",\n    map: (\n        spaces: [\n",
    );
    for i in 0..n {
        let kind = if seas && i % 4 == 2 { "Sea" } else { "City" };
        text += &format!(
            "            (name: \"S{i:03}\", kind: {kind}, at: ({}, {})),\n",
            i * 37 % 2500,
            i * 53 % 1250
        );
    }
    text += "        ],\n        links: [\n";
    for i in 0..n {
        for j in i + 1..n {
            text += &format!("            Major(\"S{i:03}\", \"S{j:03}\"),\n");
        }
    }
    text + "        ],\n    ),\n)\n"
}

/// Issue 12: a complete graph of 256 spaces (32,640 links) took 18 s (30 s
/// in release on a busy machine) because every link was located by
/// searching the text. Loading, building and validating are now one pass
/// over the text plus work linear in the links. Its time is measured with
/// `/usr/bin/time caesar-workbench validate`, not asserted here.
#[test]
fn a_complete_graph_of_256_spaces_validates_and_every_finding_is_located() {
    let dir = tempfile::tempdir().unwrap();
    for seas in [false, true] {
        let text = complete_graph(256, seas);
        let path = dir.path().join("complete.ron");
        std::fs::write(&path, &text).unwrap();
        let doc = caesar_workbench::scenario::format::load_scenario(&path).unwrap();
        let report = check(&doc);
        assert_eq!(report.scenario.board.links.len(), 256 * 255 / 2);
        let on_seas = report
            .findings
            .iter()
            .filter(|f| f.code == Code::RoadTouchesSea)
            .count();
        // Each sea (64) meets every other space (255) by a road, counted once per link.
        assert_eq!(on_seas, if seas { 64 * 255 - 64 * 63 / 2 } else { 0 });
        // Each link finding points at the link's own line, at its first end.
        let lines: Vec<&str> = text.lines().collect();
        for f in report
            .findings
            .iter()
            .filter(|f| f.code == Code::RoadTouchesSea)
        {
            let loc = f.location.as_ref().expect("located");
            let Some(Subject::Link { a, b }) = &f.subject else {
                panic!("{f} is about a link");
            };
            let line = lines[loc.line - 1];
            assert!(
                line.contains(&format!("Major(\"{a}\", \"{b}\")")),
                "{f}: {line}"
            );
            assert_eq!(loc.column, 19, "{f}");
        }
    }
}

// ------------------------------------------------------------ documentation

/// The codes of one table of `docs/formats.md` (the rows after `heading`,
/// up to the next heading).
fn documented_codes(docs: &str, heading: &str) -> Vec<String> {
    let start = docs
        .find(heading)
        .unwrap_or_else(|| panic!("docs/formats.md has \"{heading}\""));
    docs[start + heading.len()..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('#') && !l.ends_with(':') || l.is_empty())
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_code_is_documented_in_formats_md_under_its_severity() {
    let docs = std::fs::read_to_string("docs/formats.md").unwrap();
    let errors = documented_codes(&docs, "Errors (the scenario cannot be played):");
    let warnings = documented_codes(
        &docs,
        "Warnings (the scenario departs from the published game):",
    );
    for &code in Code::ALL {
        let table = match code.severity() {
            Severity::Error => &errors,
            Severity::Warning => &warnings,
        };
        assert!(
            table.iter().any(|c| c == code.as_str()),
            "`{code}` ({}) is not in the {} table of docs/formats.md",
            code.severity(),
            code.severity()
        );
    }
    for documented in errors.iter().chain(&warnings) {
        assert!(
            Code::parse(documented).is_some(),
            "docs/formats.md lists `{documented}`, which the validator never reports"
        );
    }
}

// ------------------------------------------------------------------ subjects

/// The subject of the first finding of `code`.
fn subject_of(doc: &ResolvedScenario, code: &str) -> Subject {
    let report = check(doc);
    report
        .findings
        .iter()
        .find(|f| f.code == code)
        .unwrap_or_else(|| panic!("{code} did not fire: {:#?}", report.findings))
        .subject
        .clone()
        .unwrap_or_else(|| panic!("{code} has no subject"))
}

#[test]
fn findings_carry_the_item_they_are_about() {
    let mut doc = base();
    doc.map
        .links
        .push(LinkDoc::Major("Genua".into(), "Romaa".into()));
    assert_eq!(
        subject_of(&doc, "unknown-name"),
        Subject::Link {
            a: "Genua".into(),
            b: "Romaa".into()
        }
    );

    let mut doc = base();
    space_mut(&mut doc, "Mare Tyrrhenum").vp = 1;
    assert_eq!(
        subject_of(&doc, "sea-with-vp"),
        Subject::Space {
            name: "Mare Tyrrhenum".into()
        }
    );

    // Both sides have an "Equitatus 1": the subject says whose.
    let mut doc = base();
    let pompey_equitatus = doc
        .roster
        .blocks
        .iter_mut()
        .find(|b| b.side == Side::Pompey && b.name == "Equitatus 1")
        .unwrap();
    pompey_equitatus.firepower = 7;
    assert_eq!(
        subject_of(&doc, "bad-rating"),
        Subject::Block {
            side: Side::Pompey,
            name: "Equitatus 1".into()
        }
    );

    let mut doc = base();
    let (city, blocks) = &mut doc.order_of_battle.caesar[0];
    let (city, first) = (city.clone(), blocks[0].clone());
    blocks.push(first.clone());
    assert_eq!(
        subject_of(&doc, "deployed-twice"),
        Subject::Placement {
            section: Deployment::OrderOfBattle,
            side: Side::Caesar,
            space: city,
            block: Some(first)
        }
    );

    let mut doc = base();
    doc.deck.commands[0].copies += 1;
    assert_eq!(
        subject_of(&doc, "deck-composition"),
        Subject::Deck { card: None }
    );

    let mut doc = base();
    doc.roster
        .blocks
        .retain(|b| b.side != Side::Pompey || b.kind != BlockKind::Leader);
    assert_eq!(
        subject_of(&doc, "missing-leader"),
        Subject::Roster { side: Side::Pompey }
    );

    let mut rules = RuleSet::builtin("rules-2.0");
    rules.removed_cards = vec!["Jupitr".into()];
    let report = validate(&base(), &rules);
    assert_eq!(
        report.findings[0].subject,
        Some(Subject::RuleSet { name: rules.name })
    );
}

#[test]
fn every_finding_of_a_badly_broken_scenario_has_a_subject_and_a_location() {
    let text = caesar_workbench::scenario::HISTORICAL_SCENARIO
        .replace(
            r#"Major("Genua", "Roma"),"#,
            r#"Major("Genua", "Romaa"), Major("Roma", "Mare Tyrrhenum"), Minor("Roma", "Roma"), Sea("Genua", "Roma"), Strait(name: "", a: "Genua", b: "Roma"),"#,
        )
        .replace(
            r#"(name: "Ravenna", kind: MajorPort"#,
            r#"(name: "Ravenna", kind: City"#,
        )
        .replace(
            r#"("Lugdunum", ["Legio 16", "Equitatus 1"]),"#,
            r#"("Lugdunum", ["Legio 16", "Equitatus 1", "Legio 16", "Legio 77"]), ("Mare Tyrrhenum", ["Legio 14"]), ("Ravena", ["Legio 15"]),"#,
        );
    let doc = caesar_workbench::scenario::format::scenario_from_str("broken.ron".as_ref(), &text)
        .unwrap();
    let report = check(&doc);
    assert!(report.findings.len() >= 10, "{:#?}", report.findings);
    for f in &report.findings {
        assert!(f.subject.is_some(), "{f}");
        let loc = f
            .location
            .as_ref()
            .unwrap_or_else(|| panic!("{f} is located"));
        assert!(loc.line >= 1 && loc.line <= text.lines().count(), "{f}");
    }
    // Block findings point at the block itself, not just its city's entry.
    let twice = report
        .findings
        .iter()
        .find(|f| f.code == Code::DeployedTwice)
        .unwrap();
    let loc = twice.location.as_ref().unwrap();
    let line = text.lines().nth(loc.line - 1).unwrap();
    let at: String = line.chars().skip(loc.column - 1).collect();
    assert!(
        at.starts_with("\"Legio 16\", \"Legio 77\""),
        "{twice}: {at}"
    );
}
