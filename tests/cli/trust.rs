//! Nothing mixed, nothing lost: reports say what they ran on and `merge`
//! refuses runs of different setups; no output overwrites an input or a
//! device; bad output paths and oversized inputs are refused before any work;
//! messages name bounds and limits.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use predicates::prelude::*;
use serde_json::Value;

use super::{bin, cli};

/// The `--json` report of shard `shard` of a 40-game random run, with `extra`
/// options, written to `dir/name`.
fn shard_report(dir: &Path, name: &str, shard: &str, extra: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let mut args = vec!["simulate", "--games", "40", "--seed", "1", "--json"];
    for side in ["--caesar-ai", "--pompey-ai"] {
        if !extra.contains(&side) {
            args.extend([side, "random"]);
        }
    }
    args.extend(["--shard", shard, "--out", path.to_str().unwrap()]);
    args.extend(extra);
    cli().args(&args).assert().code(0);
    path
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_report_names_the_scenario_and_the_digests_it_ran_on() {
    let dir = tempfile::tempdir().unwrap();
    let report = shard_report(dir.path(), "r.json", "1/1", &[]);
    let json: Value = serde_json::from_slice(&std::fs::read(report).unwrap()).unwrap();
    let on = &json["played_on"];
    assert!(on["scenario"].as_str().unwrap().contains("Julius Caesar"));
    for digest in ["scenario_digest", "variant_digest"] {
        let d = on[digest].as_str().unwrap();
        assert_eq!(d.len(), 16, "{digest}: {d}");
        assert!(d.chars().all(|c| c.is_ascii_hexdigit()), "{digest}: {d}");
    }
}

#[test]
fn merge_refuses_a_shard_played_on_another_scenario_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let free = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/free-deployment-example.ron"
    );
    let files = [
        shard_report(d, "s1.json", "1/4", &[]),
        shard_report(d, "s2.json", "2/4", &["--scenario", free]),
        shard_report(d, "s3.json", "3/4", &[]),
        shard_report(d, "s4.json", "4/4", &[]),
    ];
    cli()
        .arg("merge")
        .args(&files)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("are reports of different runs"))
        .stderr(predicate::str::contains("scenario"));
}

#[test]
fn merge_refuses_a_variant_file_that_shares_a_display_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let variant = write(
        d,
        "v.ron",
        "(name: \"Rules 2.0 (2023)\", extends: \"rules-2.0\", vp_to_win: 5)",
    );
    let files = [
        shard_report(d, "s1.json", "1/2", &[]),
        shard_report(
            d,
            "s2.json",
            "2/2",
            &["--variant", variant.to_str().unwrap()],
        ),
    ];
    cli()
        .arg("merge")
        .args(&files)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("variant_digest is"));
}

#[test]
fn merge_refuses_a_player_file_edited_between_shards_naming_the_number() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let player = write(d, "p.ron", "(attack_ratio: 2.0)");
    let spec = format!("heuristic:{}", player.display());
    let first = shard_report(d, "s1.json", "1/2", &["--pompey-ai", &spec]);
    write(d, "p.ron", "(attack_ratio: 3.0)");
    let second = shard_report(d, "s2.json", "2/2", &["--pompey-ai", &spec]);
    cli()
        .args(["merge"])
        .args([&first, &second])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "player_files.pompey.attack_ratio is 3 in",
        ));
}

#[cfg(unix)]
#[test]
fn a_device_is_written_in_place_and_a_failed_write_is_exit_2() {
    cli()
        .args(["play", "--seed", "3", "--record", "/dev/null"])
        .args(["--caesar-ai", "random", "--pompey-ai", "random"])
        .assert()
        .code(0);
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
    if Path::new("/dev/full").exists() {
        cli()
            .args(["play", "--seed", "3", "--record", "/dev/full"])
            .args(["--caesar-ai", "random", "--pompey-ai", "random"])
            .assert()
            .code(2);
        cli()
            .args(["simulate", "--games", "2", "--out", "/dev/full"])
            .assert()
            .code(2);
    }
}

#[test]
fn no_output_overwrites_a_parent_variant_of_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let parent = write(d, "r11.ron", "(name: \"Parent\", extends: \"rules-1.1\")");
    let child = write(d, "v.ron", "(name: \"Child\", extends: \"r11.ron\")");
    let before = std::fs::read_to_string(&parent).unwrap();
    cli()
        .args(["play", "--variant", child.to_str().unwrap()])
        .args(["--record", parent.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("refusing to write"));
    assert_eq!(std::fs::read_to_string(&parent).unwrap(), before);
}

#[test]
fn no_output_overwrites_a_player_file() {
    let dir = tempfile::tempdir().unwrap();
    let player = write(dir.path(), "pl.ron", "(attack_ratio: 2.0)");
    let spec = format!("heuristic:{}", player.display());
    cli()
        .args(["simulate", "--games", "2", "--caesar-ai", &spec])
        .args(["--csv", player.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("refusing to write"));
    assert_eq!(
        std::fs::read_to_string(&player).unwrap(),
        "(attack_ratio: 2.0)"
    );
    assert!(!dir.path().join("pl.ron.bak").exists());
}

#[test]
fn no_output_overwrites_a_value_file() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/players");
    let text = std::fs::read_to_string(format!("{shipped}/value-rules-2.0.ron")).unwrap();
    let value = write(dir.path(), "v.ron", &text);
    let spec = format!(
        "search:2@{shipped}/search-base-rules-2.0.ron+{}",
        value.display()
    );
    cli()
        .args(["simulate", "--games", "2", "--caesar-ai", &spec])
        .args(["--csv", value.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("refusing to write"));
    assert_eq!(std::fs::read_to_string(&value).unwrap(), text);
    assert!(!dir.path().join("v.ron.bak").exists());
}

#[test]
fn standard_output_appended_to_an_input_is_refused_before_a_byte() {
    let dir = tempfile::tempdir().unwrap();
    let player = write(dir.path(), "pl.ron", "(attack_ratio: 2.0)");
    let spec = format!("heuristic:{}", player.display());
    let append = std::fs::OpenOptions::new()
        .append(true)
        .open(&player)
        .unwrap();
    let status = std::process::Command::new(bin())
        .args(["simulate", "--games", "2", "--caesar-ai", &spec])
        .stdout(Stdio::from(append))
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&player).unwrap(),
        "(attack_ratio: 2.0)"
    );
}

#[test]
fn a_bad_output_path_is_refused_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    let missing = dir.path().join("missing").join("r.json");
    cli()
        .args(["simulate", "--games", "3"])
        .args(["--csv", csv.to_str().unwrap()])
        .args(["--out", missing.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not exist"));
    // No game was played: the CSV that rows would go to was never made.
    assert!(!csv.exists());
    for command in [
        &["ladder", "--players", "random"][..],
        &["sweep", "--set", "vp_to_win=8,9"],
    ] {
        cli()
            .args(command)
            .args(["--games", "2", "--out", missing.to_str().unwrap()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("does not exist"));
    }
}

#[cfg(unix)]
#[test]
fn every_file_read_is_size_limited() {
    let runs: [&[&str]; 8] = [
        &["play", "--caesar-ai", "heuristic:/dev/zero"],
        &["simulate", "--variant", "/dev/zero", "--games", "1"],
        &["validate", "/dev/zero"],
        &["replay", "/dev/zero"],
        &["position", "/dev/zero"],
        &["diff", "/dev/zero"],
        &["simulate", "--scenario", "/dev/zero", "--games", "1"],
        &["tune", "--start", "/dev/zero", "--out", "never.ron"],
    ];
    for args in runs {
        cli()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("larger than 16 MiB"));
    }
}

#[test]
fn rule_4_21_both_sides_deployed_in_one_city_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(
        dir.path(),
        "s.ron",
        "Scenario(name: \"Met\", extends: \"historical.ron\", order_of_battle: (caesar: [(\"Ravenna\", [\"Caesar\", \"Legio 13\", \"Navis 2\"]), (\"Massilia\", [\"Antonius\", \"Legio 8\", \"Legio 9\", \"Legio 10\", \"Legio 11\", \"Legio 12\"]), (\"Narbo\", [\"Legio 14\", \"Legio 17\"])], pompey: [(\"Ravenna\", [\"Pompey\"])]))",
    );
    cli()
        .args(["validate", scenario.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("both-sides-deployed"))
        .stdout(predicate::str::contains("Ravenna"));
}

#[test]
fn rule_4_21_a_sweep_point_with_both_sides_in_one_city_is_refused_with_exit_1() {
    cli()
        .args([
            "sweep",
            "--set",
            "deploy:pompey:Legio 3=Ravenna",
            "--games",
            "2",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("both-sides-deployed"));
}

#[test]
fn a_sweep_refuses_two_spellings_of_one_city() {
    cli()
        .args([
            "sweep",
            "--set",
            "deploy:pompey:Legio 3=Roma,roma",
            "--games",
            "2",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("are the same value"));
    cli()
        .args([
            "sweep",
            "--set",
            "deploy:pompey:Legio 3=Roma,Rome",
            "--games",
            "2",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("are the same value"));
}

#[test]
fn a_ladder_refuses_a_repeated_rung_and_the_same_rule_set_twice() {
    let dir = tempfile::tempdir().unwrap();
    let defaults = write(dir.path(), "d.ron", "()");
    let rung = format!("heuristic:{}", defaults.display());
    cli()
        .args([
            "ladder",
            "--players",
            &format!("heuristic,{rung}"),
            "--games",
            "2",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("twice"));
    cli()
        .args(["ladder", "--players", "search,search:32", "--games", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("twice"));
    let same = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/rules-2.0.ron");
    cli()
        .args(["ladder", "--players", "random", "--games", "2"])
        .args(["--variant", "rules-2.0", "--variant", same])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("are the same rule set"));
    cli()
        .args(["compare", "--games", "2"])
        .args(["--variant", "rules-2.0", "--variant", same])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("are the same rule set"));
}

#[test]
fn tune_refuses_a_step_that_would_write_an_unreadable_player_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.ron");
    cli()
        .args(["tune", "--step", "30"])
        .args(["--out", out.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 5"));
    assert!(!out.exists());
}

#[test]
fn messages_name_the_real_limits() {
    cli()
        .args([
            "simulate",
            "--games",
            "1",
            "--caesar-ai",
            "search:99999999999",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 4294967295 playouts"));
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(
        dir.path(),
        "s.ron",
        "Scenario(\n    extends: \"historical.ron\",\n    map: (spaces: [(name: \"Roma\", kind: City, vp: 300, at: (1, 2))], links: []),\n)\n",
    );
    cli()
        .args(["validate", scenario.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("s.ron:3:"))
        .stderr(predicate::str::contains("from 0 to 255"));
}

#[test]
fn a_variant_finding_is_located_in_the_users_own_file() {
    let dir = tempfile::tempdir().unwrap();
    let variant = write(
        dir.path(),
        "v.ron",
        "(\n    name: \"Mine\",\n    extends: \"rules-2.0\",\n    hand_size: 0,\n)\n",
    );
    cli()
        .args(["validate", "--variant", variant.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "v.ron:4:5: error[no-card-to-play]",
        ));
}
