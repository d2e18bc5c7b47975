//! The loader never panics: byte-level mutations and truncations of the
//! shipped files end in a value or an error.

use std::path::Path;

use caesar_workbench::scenario::format;
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::scenario::validate::validate;
use proptest::prelude::*;

const FILES: &[(&str, &str)] = &[
    (
        "historical.ron",
        include_str!("../../scenarios/historical.ron"),
    ),
    (
        "free.ron",
        include_str!("../../scenarios/free-deployment-example.ron"),
    ),
    (
        "rules-1.1.ron",
        include_str!("../../variants/rules-1.1.ron"),
    ),
    (
        "rules-2.0.ron",
        include_str!("../../variants/rules-2.0.ron"),
    ),
];

#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    // Bytes that matter to RON's grammar are more likely than random ones.
    let byte = prop_oneof![
        4 => prop::sample::select(b"()[]{},:\"'/\\*#!0123456789-.eE rSN\n".to_vec()),
        1 => any::<u8>(),
    ];
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Mutation::Replace(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<usize>(), 1usize..40).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), 1usize..80).prop_map(|(i, n)| Mutation::Duplicate(i, n)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len().max(1);
    match *m {
        Mutation::Truncate(i) => bytes.truncate(i % len),
        Mutation::Replace(i, b) => {
            if !bytes.is_empty() {
                bytes[i % len] = b;
            }
        }
        Mutation::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
        Mutation::Delete(i, n) => {
            let at = i % len;
            let end = (at + n).min(bytes.len());
            bytes.drain(at.min(end)..end);
        }
        Mutation::Duplicate(i, n) => {
            let at = i % len;
            let end = (at + n).min(bytes.len());
            let piece = bytes[at.min(end)..end].to_vec();
            bytes.splice(at.min(end)..at.min(end), piece);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn mutated_files_load_or_fail_cleanly(
        file in 0..FILES.len(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let (name, text) = FILES[file];
        let mut bytes = text.as_bytes().to_vec();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        if name.starts_with("rules") {
            if let Err(e) = RuleSet::load(path.to_str().unwrap()) {
                prop_assert!(!e.to_string().is_empty());
            }
        } else {
            match format::load_scenario(&path) {
                // Whatever parses must also validate without panicking.
                Ok(doc) => { let _ = validate(&doc, &RuleSet::builtin("rules-2.0")); }
                Err(e) => {
                    let msg = e.to_string();
                    prop_assert!(msg.contains(name), "{}", msg);
                }
            }
        }
    }

    #[test]
    fn parse_errors_carry_a_position_inside_the_text(cut in 0usize..20_000) {
        let text = FILES[0].1;
        let cut = cut % text.len();
        let cut = (0..=cut).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
        let truncated = &text[..cut];
        match format::scenario_from_str(Path::new("t.ron"), truncated) {
            Ok(_) => {}
            Err(e) => {
                if let Some(loc) = e.location() {
                    prop_assert!(loc.line >= 1 && loc.line <= truncated.lines().count() + 1);
                    prop_assert!(loc.column >= 1);
                }
            }
        }
    }
}

// ------------------------------------------------ extends chains, BOM, limits
//
// Each of these failed before the shared `extends` resolver (issue 12).

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_variant_extending_itself_through_dot_dot_is_a_cycle_not_a_long_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "v/a.ron",
        "(\n    extends: \"../v/a.ron\",\n)\n",
    );
    let err = RuleSet::load(path.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("cycle"), "{err}");
    assert!(err.len() < 600, "the message stays short: {err}");
    // The error points at the `extends` line that closes the cycle.
    assert!(err.contains("a.ron:2:5"), "{err}");
}

#[test]
fn variants_and_scenarios_report_the_whole_cycle() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.ron", "(extends: \"sub/b.ron\")\n");
    write(dir.path(), "sub/b.ron", "(extends: \"../a.ron\")\n");
    let err = RuleSet::load(dir.path().join("a.ron").to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("cycle"), "{err}");
    assert!(
        err.contains("a.ron -> ") && err.contains("b.ron -> "),
        "{err}"
    );

    write(dir.path(), "s/x.ron", "Scenario(extends: \"../t/y.ron\")\n");
    write(
        dir.path(),
        "t/y.ron",
        "Scenario(extends: \"../s/./x.ron\")\n",
    );
    let err = format::load_scenario(&dir.path().join("s/x.ron"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("cycle"), "{err}");
    assert!(
        err.contains("x.ron -> ") && err.contains("y.ron -> "),
        "{err}"
    );
}

#[test]
fn a_byte_order_mark_is_accepted_and_positions_stay_right() {
    let dir = tempfile::tempdir().unwrap();
    let bom = "\u{feff}";
    let path = write(
        dir.path(),
        "bom.ron",
        &format!("{bom}{}", include_str!("../../scenarios/historical.ron")),
    );
    format::load_scenario(&path).expect("a scenario with a BOM loads");
    let path = write(
        dir.path(),
        "bom-variant.ron",
        &format!("{bom}(\n    extends: \"rules-2.0\",\n    hand_size: 7,\n)\n"),
    );
    assert_eq!(RuleSet::load(path.to_str().unwrap()).unwrap().hand_size, 7);
    // A misspelt field on line 3, column 5, is still reported there.
    let path = write(
        dir.path(),
        "bom-bad.ron",
        &format!("{bom}(\n    extends: \"rules-2.0\",\n    hand_sise: 7,\n)\n"),
    );
    let err = RuleSet::load(path.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("bom-bad.ron:3:5"), "{err}");
}

#[test]
fn a_scenario_extending_a_missing_folder_is_an_error_at_its_extends_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("scenarios")).unwrap();
    let path = write(
        dir.path(),
        "mine/setup.ron",
        "// mine\nScenario(\n    extends: \"../scenarioz/historical.ron\",\n)\n",
    );
    let err = format::load_scenario(&path).unwrap_err().to_string();
    assert!(err.contains("setup.ron:3:5"), "{err}");
    assert!(
        err.contains("scenarioz"),
        "names the path looked for: {err}"
    );
    assert!(err.contains("did you mean \"scenarios\""), "{err}");
    // A bare `historical.ron` still means the published game when no such
    // file lies beside the scenario.
    let path = write(
        dir.path(),
        "mine/ok.ron",
        "Scenario(extends: \"historical.ron\")\n",
    );
    format::load_scenario(&path).expect("the built-in published game");
}

#[test]
fn a_variant_extending_a_missing_folder_is_an_error_at_its_extends_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "house.ron",
        "(\n    name: \"house\",\n    extends: \"nosuch/rules-2.0.ron\",\n)\n",
    );
    let err = RuleSet::load(path.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("house.ron:3:5"), "{err}");
    assert!(err.contains("nosuch"), "names the path looked for: {err}");
    // A bare built-in name is fine.
    let path = write(
        dir.path(),
        "ok.ron",
        "(extends: \"rules-2.0\", hand_size: 7)\n",
    );
    assert_eq!(RuleSet::load(path.to_str().unwrap()).unwrap().hand_size, 7);
}
