//! `balance`: the equilibrium of the players given, refusals before any
//! game, and a challenger against a saved equilibrium.

use serde_json::Value;

use super::{cli, stdout_of_success};

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of_success(args)).unwrap()
}

fn refusal(args: &[&str]) -> String {
    let out = cli().args(args).assert().failure().get_output().clone();
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn the_equilibrium_of_a_dominated_player_is_the_other_players_mirror() {
    let report = json(&[
        "balance",
        "--only-named",
        "--players",
        "heuristic,random",
        "--rounds",
        "0",
        "--games",
        "24",
        "--first-games",
        "24",
        "--json",
    ]);
    for mix in ["caesar_mix", "pompey_mix"] {
        let members = report[mix].as_array().unwrap();
        assert_eq!(members.len(), 1, "{mix}: {members:?}");
        assert_eq!(members[0]["player"], "heuristic", "{mix}");
        assert!((members[0]["weight"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    }
    // The random player loses everything: the saddle is the heuristic's mirror.
    let mirror = report["mirrors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["player"] == "heuristic")
        .unwrap()
        .clone();
    let value = report["value"]["estimate"].as_f64().unwrap();
    assert!((value - mirror["share"]["estimate"].as_f64().unwrap()).abs() < 1e-9);
    let [lo, hi] = [0, 1].map(|k| report["value"]["ci95"][k].as_f64().unwrap());
    assert!(lo <= value && value <= hi && lo < hi, "{lo} {value} {hi}");
    assert_eq!(report["stage"], "Done");
    assert!(report["rounds"].as_array().unwrap().len() == 1);
}

#[test]
fn a_population_of_one_player_a_side_is_refused() {
    let err = refusal(&[
        "balance",
        "--only-named",
        "--players",
        "heuristic",
        "--rounds",
        "0",
    ]);
    assert!(err.contains("at least two players"), "{err}");
}

#[test]
fn a_budget_outside_a_sane_range_is_refused_in_few_words() {
    for budget in ["0.0000001", "1e308", "NaN"] {
        let err = refusal(&["balance", "--budget", budget, "--rounds", "0"]);
        assert!(err.contains("--budget is wall-clock minutes"), "{err}");
        assert!(err.len() < 200, "{err}");
    }
}

#[test]
fn training_players_needs_a_report_to_keep_them_beside() {
    let err = refusal(&["balance", "--only-named", "--players", "heuristic,random"]);
    assert!(err.contains("--out REPORT"), "{err}");
}

#[test]
fn a_challenger_meets_the_saved_mix_and_a_report_of_another_rule_set_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("eq.json");
    let report_arg = report.to_str().unwrap();
    stdout_of_success(&[
        "balance",
        "--only-named",
        "--players",
        "heuristic,random",
        "--rounds",
        "0",
        "--games",
        "16",
        "--first-games",
        "16",
        "--json",
        "--out",
        report_arg,
    ]);
    let challenge = json(&[
        "balance",
        "--challenge",
        "random",
        "--side",
        "pompey",
        "--equilibrium",
        report_arg,
        "--games",
        "20",
        "--json",
    ]);
    // Random against the heuristic wins nothing: its gain is the value lost.
    assert_eq!(challenge["share"]["estimate"].as_f64().unwrap(), 0.0);
    assert!(challenge["gain"]["estimate"].as_f64().unwrap() < 0.0);
    let err = refusal(&[
        "balance",
        "--variant",
        "rules-1.1",
        "--challenge",
        "random",
        "--side",
        "pompey",
        "--equilibrium",
        report_arg,
    ]);
    assert!(err.contains("another rule set"), "{err}");
    // A resume must not write over the report it reads.
    let err = refusal(&["balance", "--resume", report_arg, "--out", report_arg]);
    assert!(err.contains("refusing to write the report over"), "{err}");
}

/// The heuristic and the random player, 12 games a cell, no best responses:
/// the smallest table that still has a winner.
const SMALL_TABLE: [&str; 9] = [
    "--only-named",
    "--players",
    "heuristic,random",
    "--rounds",
    "0",
    "--games",
    "12",
    "--first-games",
    "12",
];

#[test]
fn sharded_cells_merge_to_the_single_machine_report() {
    let dir = tempfile::tempdir().unwrap();
    let mut common = vec!["balance"];
    common.extend(SMALL_TABLE);
    common.push("--json");
    let whole: Value = json(&common);
    let mut parts = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let path = dir.path().join(format!("part-{}.json", &shard[..1]));
        let mut args = common.to_vec();
        args.extend(["--shard", shard, "--out", path.to_str().unwrap()]);
        stdout_of_success(&args);
        parts.push(path);
    }
    let names: Vec<&str> = parts.iter().map(|p| p.to_str().unwrap()).collect();
    let mut args = vec!["balance", "--json", "--merge"];
    args.extend(names.iter().copied());
    let merged = json(&args);
    for field in [
        "table",
        "value",
        "caesar_mix",
        "pompey_mix",
        "mirrors",
        "games_played",
    ] {
        assert_eq!(merged[field], whole[field], "{field}");
    }
    // A missing shard is named, not merged.
    let err = refusal(&["balance", "--merge", names[0], names[2]]);
    assert!(err.contains("shard 2 of 3 is missing"), "{err}");
    let err = refusal(&["balance", "--merge", names[0], names[0], names[1], names[2]]);
    assert!(err.contains("given twice"), "{err}");
    // The table is the shards': an option that would play is refused, as
    // is a report over a shard; `{shard}` names the whole run.
    let err = refusal(&[
        "balance", "--merge", names[0], names[1], names[2], "--rounds", "3",
    ]);
    assert!(err.contains("--rounds"), "{err}");
    let mut over = vec!["balance", "--merge"];
    over.extend(names.iter().copied());
    over.extend(["--out", names[1]]);
    let err = refusal(&over);
    assert!(err.contains("over a shard it merges"), "{err}");
    let template = dir.path().join("merged-{shard}.json");
    let mut named = vec!["balance", "--merge"];
    named.extend(names.iter().copied());
    named.extend(["--out", template.to_str().unwrap()]);
    stdout_of_success(&named);
    assert!(dir.path().join("merged-1-of-1.json").exists());
}

/// A shard of a two-rule-set run names both its files by the shard, as a
/// one-rule-set run does; a shard is never resumed, nor a challenge sharded.
#[test]
fn a_two_rule_set_shard_names_its_files_by_the_shard() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("part-{shard}.json");
    let mut args = vec![
        "balance",
        "--variant",
        "rules-1.1",
        "--variant",
        "rules-2.0",
    ];
    args.extend(SMALL_TABLE);
    args.extend(["--shard", "2/3", "--out", out.to_str().unwrap()]);
    stdout_of_success(&args);
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert_eq!(
        names.len(),
        3,
        "each rule set's and their comparison: {names:?}"
    );
    assert!(
        names
            .iter()
            .all(|n| n.contains("2-of-3") && !n.contains("{shard}")),
        "{names:?}"
    );
    let report = dir.path().join("part-2-of-3-rules-2.0.json");
    let report = report.to_str().unwrap();
    let err = refusal(&["balance", "--resume", report, "--shard", "1/3"]);
    assert!(err.contains("--shard") && err.contains("--resume"), "{err}");
    let err = refusal(&[
        "balance",
        "--challenge",
        "heuristic",
        "--side",
        "caesar",
        "--equilibrium",
        report,
        "--shard",
        "1/3",
    ]);
    assert!(
        err.contains("--shard") && err.contains("--challenge"),
        "{err}"
    );
}

#[test]
fn a_ladders_verdict_is_its_rungs_balance_at_equilibrium_not_its_first_against_its_last() {
    let v = json(&[
        "ladder",
        "--players",
        "random,heuristic",
        "--games",
        "6",
        "--json",
    ]);
    assert_eq!(v["verdict"]["kind"], "at_equilibrium");
    let text = v["verdict"]["text"].as_str().unwrap();
    // Random is dominated on both sides: the saddle is the heuristic's mirror.
    assert!(text.contains("Caesar plays heuristic 100%"), "{text}");
    assert!(text.contains("Pompey plays heuristic 100%"), "{text}");
    assert!(text.contains("The mirror matches alone said"), "{text}");
    // The balance measured for the published game, a wider population than
    // two rungs, is named beside the rungs' own.
    let measured = v["measured_balance"].as_str().unwrap();
    assert!(
        measured.starts_with("at equilibrium Caesar wins"),
        "{measured}"
    );
    assert!(
        measured.contains("variants/players/balance-rules-2.0.json"),
        "{measured}"
    );
}

#[test]
fn the_built_in_balance_plays_as_a_player_and_a_setup_without_one_has_none() {
    // equilibrium:REPORT draws each game's player from the mix: it plays.
    let v = json(&[
        "simulate",
        "--caesar-ai",
        "equilibrium:variants/players/balance-rules-2.0.json",
        "--pompey-ai",
        "heuristic",
        "--games",
        "2",
        "--json",
    ]);
    assert_eq!(v["games"], 2);
    // A custom rule set has no built-in balance, and its folder none.
    let dir = tempfile::tempdir().unwrap();
    let variant = dir.path().join("house.ron");
    std::fs::write(
        &variant,
        "(name: \"house\", extends: \"rules-2.0\", caesar_player1_first_turn: false)",
    )
    .unwrap();
    let v = json(&[
        "ladder",
        "--variant",
        variant.to_str().unwrap(),
        "--players",
        "random,heuristic",
        "--games",
        "4",
        "--json",
    ]);
    assert!(v.get("measured_balance").is_none(), "{v}");
}

/// A comparison (`what`: two rule sets or two setups) of the heuristic and
/// the random player, solved with no best responses, its report at `out`.
fn small_comparison(what: &[&str], out: &std::path::Path) -> Value {
    let mut args = vec!["balance"];
    args.extend_from_slice(what);
    args.extend(SMALL_TABLE);
    args.extend(["--seed", "3", "--json", "--out", out.to_str().unwrap()]);
    json(&args)
}

#[test]
fn two_rule_sets_keep_a_report_each_named_by_the_rule_set_whole() {
    // `rules-2.0`'s `.0` is not an extension: the reports beside the
    // comparison are `cmp-rules-2.0.json` and `cmp-rules-1.1.json`.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cmp.json");
    let comparison = small_comparison(&["--variant", "rules-2.0", "--variant", "rules-1.1"], &out);
    let mut written: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        // Each stage's save keeps the last as `.bak`.
        .filter(|name| name.ends_with(".json"))
        .collect();
    written.sort();
    assert_eq!(
        written,
        ["cmp-rules-1.1.json", "cmp-rules-2.0.json", "cmp.json"]
    );
    for (file, variant) in [
        ("cmp-rules-2.0.json", "rules-2.0"),
        ("cmp-rules-1.1.json", "rules-1.1"),
    ] {
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(file)).unwrap()).unwrap();
        assert_eq!(report["variant"], variant, "{file}");
    }
    assert!(comparison.is_object());
}

#[test]
fn two_setups_under_one_rule_set_keep_a_report_each_and_their_difference() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("setups.json");
    let comparison = small_comparison(
        &[
            "--compare-scenario",
            "scenarios/free-deployment-example.ron",
        ],
        &out,
    );
    let [a, b] = [&comparison["a"], &comparison["b"]];
    assert_eq!(a["variant"], b["variant"]);
    assert_ne!(a["played_on"]["scenario"], b["played_on"]["scenario"]);
    let difference = comparison["difference"]["estimate"].as_f64().unwrap();
    let values = [a, b].map(|r| r["value"]["estimate"].as_f64().unwrap());
    assert!((difference - (values[0] - values[1])).abs() < 1e-9);
    for file in [
        "setups-published.json",
        "setups-free-deployment-example.json",
    ] {
        assert!(dir.path().join(file).is_file(), "{file}");
    }
    // Refused before any game: two rule sets and two setups at once, or a
    // setup compared with itself.
    let both = refusal(&[
        "balance",
        "--variant",
        "rules-2.0",
        "--variant",
        "rules-1.1",
        "--compare-scenario",
        "scenarios/free-deployment-example.ron",
        "--rounds",
        "0",
    ]);
    assert!(both.contains("give one --variant"), "{both}");
    let same = refusal(&[
        "balance",
        "--scenario",
        "scenarios/free-deployment-example.ron",
        "--compare-scenario",
        "scenarios/free-deployment-example.ron",
        "--rounds",
        "0",
    ]);
    assert!(same.contains("are the same setup"), "{same}");
}

/// A 3-shard table of the heuristic and the random player, written in `dir`.
fn three_shards(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    (1..=3)
        .map(|i| {
            let path = dir.join(format!("part{i}.json"));
            stdout_of_success(&[
                "balance",
                "--only-named",
                "--players",
                "heuristic,random",
                "--rounds",
                "0",
                "--games",
                "6",
                "--first-games",
                "6",
                "--shard",
                &format!("{i}/3"),
                "--json",
                "--out",
                path.to_str().unwrap(),
            ]);
            path
        })
        .collect()
}

/// `path`'s report with `edit` applied, written beside it as `name`.
fn edited(path: &std::path::Path, name: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut report: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    edit(&mut report);
    let out = path.with_file_name(name);
    std::fs::write(&out, serde_json::to_string(&report).unwrap()).unwrap();
    out.to_str().unwrap().to_string()
}

fn exit_2(args: &[&str]) -> String {
    let out = cli().args(args).assert().code(2).get_output().clone();
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn an_edited_shard_index_or_count_is_refused_by_its_field_not_a_panic_or_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let parts = three_shards(dir.path());
    let p = |k: usize| parts[k].to_str().unwrap().to_string();
    let index = edited(&parts[2], "p3.json", |r| {
        r["options"]["shard"]["index"] = 4.into()
    });
    let err = exit_2(&["balance", "--merge", &p(0), &p(1), &index]);
    assert!(
        err.contains("options.shard") && err.contains("index 4 of 3"),
        "{err}"
    );
    let huge = edited(&parts[0], "big.json", |r| {
        r["options"]["shard"]["count"] = 1_000_000_000u64.into()
    });
    let err = exit_2(&["balance", "--merge", &huge, &p(1)]);
    assert!(
        err.contains("big.json") && err.contains("`options`"),
        "{err}"
    );
    let games = edited(&parts[0], "games.json", |r| {
        r["options"]["games"] = 1_000_000_000_000_000u64.into()
    });
    let err = exit_2(&["balance", "--merge", &games]);
    assert!(err.contains("games per cell must be at most"), "{err}");
}

#[test]
fn a_resumed_report_whose_mix_is_emptied_or_names_no_one_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    // Paused before its responses: the budget would not hold them.
    stdout_of_success(&[
        "balance",
        "--only-named",
        "--players",
        "heuristic,random",
        "--rounds",
        "1",
        "--oracles",
        "tune",
        "--games",
        "10",
        "--first-games",
        "10",
        "--budget",
        "0.1",
        "--out",
        report.to_str().unwrap(),
    ]);
    let saved: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(saved["stage"]["Responses"], 1, "{}", saved["stopped"]);
    let out = dir.path().join("o.json");
    let empty = edited(&report, "empty.json", |r| {
        r["caesar_mix"] = Value::Array(vec![])
    });
    let started = std::time::Instant::now();
    let err = exit_2(&[
        "balance",
        "--resume",
        &empty,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("caesar_mix"), "{err}");
    let nobody = edited(&report, "nobody.json", |r| {
        r["caesar_mix"][0]["player"] = "heuristic:nobody.ron".into()
    });
    let err = exit_2(&[
        "balance",
        "--resume",
        &nobody,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("not among its players"), "{err}");
    assert!(started.elapsed().as_secs() < 30, "refused before any game");
    assert!(!out.exists(), "nothing written");
}
