//! The shipped scenario data against the rules text and map facts.

use std::collections::BTreeSet;
use std::path::Path;

use caesar_workbench::scenario::format;
use caesar_workbench::scenario::model::Scenario;
use caesar_workbench::scenario::model::{BlockKind, Initiative, LinkClass, Side, SpaceKind};
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::scenario::validate::validate;

fn published() -> Scenario {
    let report = validate(
        &caesar_workbench::scenario::historical(),
        &RuleSet::builtin("rules-2.0"),
    );
    assert_eq!(report.findings, vec![], "the shipped scenario is clean");
    report.scenario
}

fn names(
    s: &Scenario,
    ids: impl IntoIterator<Item = caesar_workbench::scenario::model::SpaceId>,
) -> BTreeSet<String> {
    ids.into_iter()
        .map(|id| s.board.name(id).to_string())
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn shipped_scenarios_validate_without_errors_or_warnings_under_both_rulebooks() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let rules = RuleSet::builtin(variant);
        for file in [
            "scenarios/historical.ron",
            "scenarios/free-deployment-example.ron",
        ] {
            let doc = format::load_scenario(Path::new(file)).unwrap();
            let report = validate(&doc, &rules);
            assert_eq!(report.findings, vec![], "{file} under {variant}");
        }
    }
}

#[test]
fn the_built_in_copy_is_the_shipped_file() {
    let on_disk = std::fs::read_to_string("scenarios/historical.ron").unwrap();
    assert_eq!(on_disk, caesar_workbench::scenario::HISTORICAL_SCENARIO);
}

#[test]
fn counts_match_the_published_game() {
    let s = published();
    let seas = s
        .board
        .spaces
        .iter()
        .filter(|x| x.kind == SpaceKind::Sea)
        .count();
    assert_eq!((s.board.len(), seas), (76, 9));
    assert_eq!(s.board.links.len(), 163);
    assert_eq!(s.roster.blocks.len(), 63);
    assert_eq!(s.roster.of_side(Side::Caesar).count(), 31);
    assert_eq!(
        s.roster.of_side(Side::Pompey).count(),
        32,
        "31 green blocks plus Cleopatra"
    );
    assert_eq!(s.deck.cards.len(), 27);
    assert_eq!(s.deck.events().count(), 7);
    assert_eq!(s.board.total_vp(), 13);
    assert_eq!(s.board.spaces.iter().filter(|x| x.vp > 0).count(), 11);
}

#[test]
fn rule_6_1_move_example_from_massilia() {
    let s = published();
    let massilia = s.board.find("Massilia").unwrap();
    assert_eq!(
        names(&s, s.board.within_road_moves(massilia, 1)),
        set(&["Narbo", "Lugdunum", "Genua"])
    );
    let two = names(&s, s.board.within_road_moves(massilia, 2));
    let one = set(&["Narbo", "Lugdunum", "Genua"]);
    let beyond: BTreeSet<String> = two.difference(&one).cloned().collect();
    // The sidebar spells Treviri "Treveri" and Roma "Rome".
    let expected: BTreeSet<String> = [
        "Tarraco",
        "Burdigala",
        "Cenabum",
        "Treveri",
        "Ravenna",
        "Rome",
    ]
    .iter()
    .map(|n| s.board.name(s.board.resolve(n).unwrap()).to_string())
    .collect();
    assert_eq!(beyond, expected);
}

#[test]
fn rule_6_2_navis_move_example_1_from_massilia() {
    let s = published();
    let hispanum = s.board.find("Mare Hispanum").unwrap();
    let massilia = s.board.find("Massilia").unwrap();
    assert!(s.board.seas_of(massilia).any(|x| x == hispanum));
    assert_eq!(
        names(&s, s.board.adjacent_seas(hispanum)),
        set(&["Oceanus Atlanticus", "Mare Tyrrhenum"])
    );
    let ports: BTreeSet<String> = names(&s, s.board.ports_of(hispanum))
        .into_iter()
        .filter(|p| p != "Massilia")
        .collect();
    let listed = [
        "Utica",
        "Caralis",
        "Iomnium",
        "Siga",
        "Tingis",
        "Carthago Nova",
        "Tarraco",
        "Narbo",
        "Genua",
    ];
    assert_eq!(ports, set(&listed));
}

#[test]
fn rule_6_2_navis_move_example_2_from_mare_internum() {
    let s = published();
    let internum = s.board.find("Mare Internum").unwrap();
    assert_eq!(
        names(&s, s.board.adjacent_seas(internum)),
        set(&[
            "Mare Tyrrhenum",
            "Mare Hadriaticum",
            "Mare Aegaeum",
            "Mare Aegypticum"
        ])
    );
    let aegaeum = s.board.find("Aegaeum").unwrap();
    let onward: BTreeSet<String> = names(&s, s.board.adjacent_seas(aegaeum))
        .into_iter()
        .filter(|n| n != "Mare Internum")
        .collect();
    assert_eq!(onward, set(&["Propontis", "Mare Aegypticum"]));
    let ports = names(&s, s.board.ports_of(aegaeum));
    let listed: BTreeSet<String> = ["Creta", "Athena", "Thessalonika", "Aenos", "Ephesus"]
        .iter()
        .map(|n| s.board.name(s.board.resolve(n).unwrap()).to_string())
        .collect();
    assert_eq!(ports, listed);
    let pergamum = s.board.find("Pergamum").unwrap();
    assert!(
        !s.board.space(pergamum).kind.is_port(),
        "Pergamum is not a port"
    );
}

#[test]
fn rule_6_3_amphibious_example_roma_to_antiochia_crosses_three_adjacent_seas() {
    let s = published();
    let b = &s.board;
    let chain = [
        "Roma",
        "Mare Tyrrhenum",
        "Mare Internum",
        "Mare Aegypticum",
        "Antiochia",
    ];
    for pair in chain.windows(2) {
        let (x, y) = (b.find(pair[0]).unwrap(), b.find(pair[1]).unwrap());
        let link = b
            .link_between(x, y)
            .unwrap_or_else(|| panic!("{pair:?} adjacent"));
        assert_eq!(b.link(link).class, LinkClass::Sea);
    }
}

#[test]
fn rule_1_2_start_position_gives_pompey_7_vp_and_caesar_1() {
    let s = published();
    assert_eq!(s.order_of_battle.vp(&s.board, &s.roster), [1, 7]);
    for vacant in ["Rome", "Athens", "Byzantium", "Ephesus"] {
        let id = s.board.resolve(vacant).unwrap();
        assert!(
            !s.order_of_battle.placements.iter().any(|(_, at)| *at == id),
            "{vacant} is vacant"
        );
    }
    let massilia = s.board.find("Massilia").unwrap();
    assert!(
        s.order_of_battle
            .placements
            .iter()
            .any(|(b, at)| *at == massilia && s.roster.block(*b).side == Side::Caesar)
    );
}

#[test]
fn rule_5_1_order_of_battle_and_levy_pools() {
    let s = published();
    let oob = &s.order_of_battle;
    let deployed = |side| {
        oob.placements
            .iter()
            .filter(|(b, _)| s.roster.block(*b).side == side)
            .count()
    };
    assert_eq!(deployed(Side::Caesar), 14);
    assert_eq!(deployed(Side::Pompey), 16);
    let pool = |side| -> BTreeSet<String> {
        s.roster
            .of_side(side)
            .filter(|b| oob.location(*b).is_none())
            .map(|b| s.roster.block(b).name.clone())
            .collect()
    };
    assert!(pool(Side::Caesar).contains("Octavian"));
    assert!(pool(Side::Pompey).contains("Brutus"));
    assert!(pool(Side::Pompey).contains("Elephant"));
    assert_eq!(pool(Side::Caesar).len(), 17);
    assert_eq!(pool(Side::Pompey).len(), 16);
}

#[test]
fn rule_4_32_four_named_straits() {
    let s = published();
    for (name, a, b) in [
        ("Herculeum", "Gades", "Tingis"),
        ("Messana", "Messana", "Rhegium"),
        ("Hellespontus", "Aenos", "Pergamum"),
        ("Bosphorus", "Byzantium", "Nicomedia"),
    ] {
        let link = s.board.link(s.board.strait(name).unwrap());
        assert_eq!(link.class, LinkClass::Strait);
        assert_eq!(
            BTreeSet::from([s.board.name(link.a), s.board.name(link.b)]),
            BTreeSet::from([a, b])
        );
    }
}

#[test]
fn rule_4_41_islands_are_reached_only_by_sea_except_sicilia_by_strait() {
    let s = published();
    let islands = s.board.islands();
    assert_eq!(
        islands.keys().copied().collect::<Vec<_>>(),
        ["Corsica", "Creta", "Cyprus", "Sardinia", "Sicilia"]
    );
    for (island, cities) in &islands {
        for &city in cities {
            for adj in s.board.road_neighbours(city) {
                let same_island = s.board.space(adj.to).island.as_deref() == Some(*island);
                assert!(
                    same_island || (adj.class == LinkClass::Strait && *island == "Sicilia"),
                    "{} leaves {island} by {:?}",
                    s.board.name(city),
                    adj.class
                );
            }
        }
    }
}

#[test]
fn rule_4_42_utica_and_creta_border_three_seas() {
    let s = published();
    for id in s.board.ids().filter(|id| s.board.space(*id).kind.is_port()) {
        let n = s.board.seas_of(id).count();
        let name = s.board.name(id);
        if name == "Utica" || name == "Creta" {
            assert_eq!(n, 3, "{name}");
        } else {
            assert!(n <= 2, "{name} borders {n} seas");
        }
    }
}

#[test]
fn rule_6_4_levy_cities_are_cities_and_required_types_have_one() {
    let s = published();
    for id in s.roster.ids() {
        let b = s.roster.block(id);
        assert_eq!(
            b.levy_city.is_some(),
            b.kind.needs_levy_city(),
            "{}",
            b.name
        );
        if let Some(city) = b.levy_city {
            assert!(s.board.space(city).kind.is_city());
        }
    }
    let elephant = s
        .roster
        .block(s.roster.find(Side::Pompey, "Elephant").unwrap());
    assert_eq!(
        (elephant.kind, elephant.max_strength()),
        (BlockKind::Elephant, 4)
    );
    let ballista = s
        .roster
        .block(s.roster.find(Side::Caesar, "Ballista").unwrap());
    assert_eq!(ballista.initiative(false), Initiative::B);
    assert_eq!(ballista.initiative(true), Initiative::D);
}

#[test]
fn rules_text_aliases_resolve_to_map_names() {
    let s = published();
    for (alias, name) in [
        ("Rome", "Roma"),
        ("Antioch", "Antiochia"),
        ("Syracuse", "Syracusae"),
        ("Athena", "Athenae"),
        ("Athens", "Athenae"),
        ("Thessalonika", "Thessalonica"),
        ("Salone", "Salona"),
        ("Treveri", "Treviri"),
        ("Nova Carthago", "Carthago Nova"),
        ("Massila", "Massilia"),
        ("Egypticum", "Mare Aegypticum"),
        ("euxinus", "Pontus Euxinus"),
    ] {
        assert_eq!(
            s.board.name(s.board.resolve(alias).unwrap()),
            name,
            "{alias}"
        );
    }
    let err = s.board.resolve("Brundisum").unwrap_err();
    assert!(
        err.to_string().contains("did you mean \"Brundisium\""),
        "{err}"
    );
}

#[test]
fn free_deployment_example_differs_from_history_and_keeps_counts() {
    let doc = format::load_scenario(Path::new("scenarios/free-deployment-example.ron")).unwrap();
    let report = validate(&doc, &RuleSet::builtin("rules-2.0"));
    let s = &report.scenario;
    let free = s.free_deployment.as_ref().unwrap();
    assert_ne!(free, &s.order_of_battle);
    assert_eq!(s.starting_setup(), free);
    for side in Side::BOTH {
        assert_eq!(
            free.counts(&s.roster, side),
            s.order_of_battle.counts(&s.roster, side)
        );
    }
}

#[test]
fn road_distances_follow_the_move_examples() {
    // 6.1 sidebar: from Massilia one move reaches Narbo, Lugdunum, Genua; a
    // second reaches Tarraco, Burdigala, Cenabum, Treviri, Ravenna, Roma.
    let s = published();
    let b = &s.board;
    let id = |n: &str| b.find(n).unwrap();
    let massilia = id("Massilia");
    for near in ["Narbo", "Lugdunum", "Genua"] {
        assert_eq!(b.road_distance(massilia, id(near)), Some(1), "{near}");
    }
    for far in [
        "Tarraco",
        "Burdigala",
        "Cenabum",
        "Treviri",
        "Ravenna",
        "Roma",
    ] {
        assert_eq!(b.road_distance(massilia, id(far)), Some(2), "{far}");
    }
    assert_eq!(b.road_distance(massilia, massilia), Some(0));
    // Corsica is reached only by sea.
    assert_eq!(b.road_distance(massilia, id("Aleria")), None);
}

#[test]
fn rule_5_1_custom_starting_strengths_reach_the_engine() {
    use caesar_workbench::engine::{Game, State};
    use std::sync::Arc;
    let rules = RuleSet::builtin("rules-2.0");
    let mut doc = caesar_workbench::scenario::historical();
    doc.order_of_battle
        .strengths
        .caesar
        .push(("Legio 13".into(), 1));
    doc.order_of_battle
        .strengths
        .pompey
        .push(("Cleopatra".into(), 2));
    let report = validate(&doc, &rules);
    assert_eq!(report.errors(), 0, "{:?}", report.findings);
    let roster = report.scenario.roster.clone();
    let game =
        Game::try_new(Arc::new(report.scenario), Arc::new(rules)).expect("the engine plays it");
    let state = State::new(&game, 11);
    let id = |side, name| roster.find(side, name).unwrap();
    assert_eq!(state.steps(id(Side::Caesar, "Legio 13")), 1);
    assert_eq!(state.steps(id(Side::Pompey, "Cleopatra")), 2);
    assert_eq!(
        state.steps(id(Side::Caesar, "Legio 8")),
        3,
        "unlisted blocks start full"
    );
}

#[test]
fn road_and_sea_neighbours_split_every_space_s_links() {
    // Land blocks walk the roads, navis the sea borders (6.1, 6.2).
    let board = published().board;
    for id in board.ids() {
        let roads = board.neighbours_for(id, true);
        let seas = board.neighbours_for(id, false);
        assert!(roads.iter().all(|a| a.class.is_road()), "{id:?}");
        assert!(seas.iter().all(|a| a.class == LinkClass::Sea), "{id:?}");
        assert_eq!(
            roads.len() + seas.len(),
            board.neighbours(id).len(),
            "{id:?}"
        );
    }
    let roma = board.find("Roma").unwrap();
    assert!(!board.neighbours_for(roma, true).is_empty());
    assert!(
        !board.neighbours_for(roma, false).is_empty(),
        "Roma is a port"
    );
}

/// The tuned players shipped in `variants/players/` read, and differ from the
/// defaults (`tune` wrote them; docs/simulation.md has their figures). The
/// folder's `ratings.ron` is the players' measured strengths, not a player
/// (`sim::players::ratings` reads it); its `value-*.ron` files are learned evaluations
/// (`learn` wrote them), which must fit this build's features.
#[test]
fn the_shipped_tuned_players_load() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/players");
    let (mut files, mut values, mut balances) = (0, 0, 0);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == "ratings.ron" {
            continue;
        }
        if name.ends_with(".json") {
            // A built-in balance report (its own test reads it for its setup).
            balances += 1;
            continue;
        }
        if name.starts_with("value-") || name.ends_with("-value.ron") {
            caesar_workbench::ai::ValueModel::load(&path).unwrap_or_else(|e| panic!("{e}"));
            values += 1;
            continue;
        }
        let numbers =
            caesar_workbench::ai::PlayerNumbers::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(numbers, caesar_workbench::ai::PlayerNumbers::default());
        files += 1;
    }
    // Every file of the folder is built into the program, and no more.
    use caesar_workbench::ai::shipped;
    assert_eq!(
        files + values,
        shipped::FILES.len() + shipped::BALANCE_FILES.len()
    );
    assert_eq!(balances, shipped::BALANCES.len());
    assert_eq!((files, values, balances), (20, 9, 2));
}
