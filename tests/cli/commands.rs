//! The command line: exit codes and messages.

use super::{bin, cli};
use predicates::prelude::*;

/// Runs the CLI with its standard output going to `stdout`.
fn run_into(args: &[&str], stdout: std::process::Stdio) -> std::process::Output {
    std::process::Command::new(bin())
        .args(args)
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap()
}

/// Standard output is a pipe whose reader has already gone, so the very
/// first write fails with a broken pipe.
fn closed_pipe() -> std::process::Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer.into()
}

const PRINTING_COMMANDS: [&[&str]; 6] = [
    &["play", "--seed", "3"],
    &["validate"],
    &["validate", "--json"],
    &["variants"],
    &[
        "battle",
        "--attacker",
        "caesar",
        "--attacking",
        "Caesar=3",
        "--defending",
        "Pompey=3",
    ],
    &["--help"],
];

#[test]
fn validate_builtin_scenario_exits_0() {
    cli()
        .args(["validate"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("0 errors, 0 warnings"))
        .stdout(predicate::str::contains(
            "76 spaces (67 cities, 9 seas), 163 links, 63 blocks, 27 cards",
        ));
}

#[test]
fn validate_shipped_files_under_each_rulebook_exits_0() {
    for variant in [
        "rules-1.1",
        "rules-2.0",
        "variants/house-2.0-max-2-events.ron",
    ] {
        for file in [
            "scenarios/historical.ron",
            "scenarios/free-deployment-example.ron",
        ] {
            cli()
                .args(["validate", file, "--variant", variant])
                .assert()
                .code(0);
        }
    }
}

#[test]
fn validate_with_errors_exits_1_and_names_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.ron");
    let text = std::fs::read_to_string("scenarios/historical.ron")
        .unwrap()
        .replace("Major(\"Genua\", \"Roma\")", "Major(\"Genua\", \"Romaa\")");
    std::fs::write(&path, text).unwrap();
    cli()
        .args(["validate", path.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("error[unknown-name]"))
        .stdout(predicate::str::contains("did you mean \"Roma\""))
        .stdout(predicate::str::contains("bad.ron:"));
}

#[test]
fn warnings_alone_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rich-genua.ron");
    let text = std::fs::read_to_string("scenarios/historical.ron")
        .unwrap()
        .replace(
            "(name: \"Genua\", kind: Port,",
            "(name: \"Genua\", kind: Port, vp: 1,",
        );
    std::fs::write(&path, text).unwrap();
    cli()
        .args(["validate", path.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("warning[vp-total]"))
        .stdout(predicate::str::contains("0 errors, 1 warning"));
}

#[test]
fn parse_error_exits_2_with_file_line_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.ron");
    std::fs::write(&path, "Scenario(\n    name: \"x\",\n    mapp: (),\n)\n").unwrap();
    cli()
        .args(["validate", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("broken.ron:3:"))
        .stderr(predicate::str::contains("unknown field `mapp`"))
        .stderr(predicate::str::contains("did you mean `map`"));
}

#[test]
fn missing_file_exits_2() {
    cli()
        .args(["validate", "no/such/file.ron"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/file.ron"));
}

#[test]
fn a_misspelt_extends_points_at_the_referring_line_and_suggests_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("base.ron"),
        "Scenario(extends: \"historical.ron\")\n",
    )
    .unwrap();
    let path = dir.path().join("mine.ron");
    std::fs::write(
        &path,
        "// my setup\nScenario(\n    extends: \"bsae.ron\",\n)\n",
    )
    .unwrap();
    cli()
        .args(["validate", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("mine.ron:3:5"))
        .stderr(predicate::str::contains("`extends` names \"bsae.ron\""))
        .stderr(predicate::str::contains("did you mean \"base.ron\""));
}

#[test]
fn a_variant_extending_a_missing_file_points_at_its_extends_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.ron");
    std::fs::write(&path, "(\n  extends: \"rulez-2.0\",\n)\n").unwrap();
    cli()
        .args(["validate", "--variant", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("mine.ron:2:3"))
        .stderr(predicate::str::contains("did you mean \"rules-2.0\""));
}

#[test]
fn binary_garbage_exits_2_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("garbage.ron");
    std::fs::write(&path, [0xff, 0xfe, 0x00, 0x28, 0x29]).unwrap();
    cli()
        .args(["validate", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not UTF-8"));
}

#[test]
fn unknown_variant_exits_2_with_suggestion() {
    cli()
        .args(["validate", "--variant", "rules-2.1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean"));
}

#[test]
fn json_report_has_findings_and_counts() {
    let out = cli()
        .args([
            "validate",
            "scenarios/free-deployment-example.ron",
            "--json",
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["errors"], 0);
    assert_eq!(v["warnings"], 0);
    assert_eq!(v["valid"], true);
    assert!(v["findings"].as_array().unwrap().is_empty());
}

#[test]
fn json_report_for_errors_lists_code_and_location() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("twice.ron");
    std::fs::write(
        &path,
        "Scenario(\n    extends: \"historical.ron\",\n    free_deployment: (caesar: [(\"Ravenna\", [\"Caesar\", \"Caesar\"])]),\n)\n",
    )
    .unwrap();
    let out = cli()
        .args(["validate", path.to_str().unwrap(), "--json"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let codes: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"deployed-twice"), "{codes:?}");
    assert!(codes.contains(&"free-deployment-count"), "{codes:?}");
    let located = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "deployed-twice")
        .unwrap();
    assert_eq!(located["location"]["line"], 3);
}

#[test]
fn variants_lists_the_built_in_rule_sets() {
    cli()
        .arg("variants")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("rules-1.1"))
        .stdout(predicate::str::contains("Rules 2.0 (2023)"));
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    // As `caesar-workbench play | head -1` once the reader has its line.
    for args in PRINTING_COMMANDS {
        let out = run_into(args, closed_pipe());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn output_onto_a_full_disk_is_an_error_with_exit_2() {
    for args in PRINTING_COMMANDS {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = run_into(args, full.into());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: cannot write the output: No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn the_attacker_is_parsed_as_a_side() {
    cli()
        .args(["battle", "--attacker", "Pompy", "--attacking", "Pompey"])
        .args(["--defending", "Caesar"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("caesar or pompey"))
        .stderr(predicate::str::contains("did you mean \"pompey\""));
}

#[test]
fn a_scenario_with_errors_is_refused_by_play_with_its_findings() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.ron");
    let text = std::fs::read_to_string("scenarios/historical.ron")
        .unwrap()
        .replace("Major(\"Genua\", \"Roma\")", "Major(\"Genua\", \"Romaa\")");
    std::fs::write(&path, text).unwrap();
    cli()
        .args(["play", "--scenario", path.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("the scenario has errors"))
        .stderr(predicate::str::contains("error[unknown-name]"));
}

#[test]
fn diff_lists_what_a_scenario_changes_against_the_published_game() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fewer.ron");
    std::fs::write(
        &file,
        "Scenario(name: \"Fewer cards\", extends: \"historical.ron\",\n\
         deck: (events: [Apollo, Mars, Mercury, Neptune, Pluto, Vulcan], commands: [(move: 4, levy: 1)]))\n",
    )
    .unwrap();
    cli()
        .args(["diff", file.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "\"Fewer cards\" changes 10 things against \"Julius Caesar, 705 (49 BC)\"",
        ))
        .stdout(predicate::str::contains(
            "\nCards\n- removed event card Jupiter\n",
        ))
        .stdout(predicate::str::contains(
            "- command card 3/1: 3 -> 0 copies",
        ));
    // Against itself: no change; a missing file: exit 2.
    cli()
        .args(["diff", file.to_str().unwrap(), file.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("is the same game as"));
    cli()
        .args(["diff", "no/such/file.ron"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/file.ron"));
}
