//! `explain`'s figures are honest: a field measured at A and at B over the
//! same seeds, intervals that never collapse to a point, a minimum number
//! of games, counts that cannot wrap, ladders whose rungs are checked, and
//! shards checked as `merge` checks simulate's.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{bin, cli, stdout_of_success};

fn stderr_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

/// A variant of rules 2.0 that changes only Caesar's first-turn exception.
fn one_field_variant(dir: &Path) -> PathBuf {
    let v = dir.join("v.ron");
    std::fs::write(
        &v,
        "(name: \"no exception\", extends: \"rules-2.0\", caesar_player1_first_turn: false)",
    )
    .unwrap();
    v
}

/// `explain` of rules 2.0 against `b` with random players (fast), then `extra`.
fn explain_args<'a>(b: &'a str, games: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["explain", "--variant", "rules-2.0", "--variant", b];
    args.extend(["--games", games, "--seed", "5"]);
    args.extend(["--caesar-ai", "random", "--pompey-ai", "random"]);
    args.extend(extra);
    args
}

/// Every "(X to Y)" interval in `text`, as its two bounds' text.
fn intervals(text: &str) -> Vec<(String, String)> {
    text.split('(')
        .skip(1)
        .filter_map(|rest| {
            let inside = rest.split(')').next()?;
            let (lo, hi) = inside.split_once(" to ")?;
            Some((lo.to_string(), hi.to_string()))
        })
        .collect()
}

#[test]
fn with_one_differing_field_the_fields_interval_and_p_are_the_whole_differences() {
    let dir = tempfile::tempdir().unwrap();
    let v = one_field_variant(dir.path());
    let text = stdout_of_success(&explain_args(v.to_str().unwrap(), "80", &[]));
    let whole = text
        .lines()
        .find(|l| l.starts_with("The whole difference"))
        .unwrap();
    let field = text
        .lines()
        .find(|l| l.starts_with("caesar_player1_first_turn ("))
        .unwrap();
    // "+X points (lo to hi)" and its p-value, in both.
    let figure = |line: &str| {
        let at = line.find(" points (").unwrap();
        let from = line[..at].rfind(' ').unwrap() + 1;
        let to = at + line[at..].find(')').unwrap() + 1;
        let p = line.split("p = ").nth(1).unwrap()[..5].to_string();
        (line[from..to].to_string(), p)
    };
    let (whole_points, whole_p) = figure(whole);
    let (field_points, field_p) = figure(field);
    assert_eq!(field_points, whole_points, "{text}");
    assert_eq!(field_p, whole_p, "{text}");
    let (lo, hi) = intervals(&field_points)[0].clone();
    assert_ne!(lo, hi);
    assert!(!field.contains("interacts"), "{field}");
}

#[test]
fn explain_refuses_fewer_than_ten_games_and_its_intervals_never_collapse() {
    for games in ["1", "9"] {
        let assert = cli()
            .args(explain_args("rules-1.1", games, &[]))
            .assert()
            .code(2);
        let stderr = stderr_of(&assert);
        assert!(
            stderr.contains(&format!(
                "--games {games}: explain needs at least 10 games per rule set"
            )),
            "{stderr}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("fields.csv");
    let text = stdout_of_success(&explain_args(
        "rules-1.1",
        "10",
        &["--csv", csv.to_str().unwrap()],
    ));
    let found = intervals(&text);
    assert!(found.len() >= 3, "{text}");
    for (lo, hi) in &found {
        assert_ne!(lo, hi, "an interval collapsed to a point: {text}");
    }
    // No field changed more games than were played.
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert!(
        rows.lines()
            .next()
            .unwrap()
            .ends_with(",games_changed,not_alone")
    );
    for row in rows.lines().skip(1).filter(|r| !r.starts_with('(')) {
        // Counted from the end: the rule's cell may hold a comma.
        let changed: u64 = row.rsplit(',').nth(1).unwrap().parse().unwrap();
        assert!(changed <= 10, "{row}");
    }
}

#[test]
fn explain_ladder_refuses_a_rung_twice_and_rungs_out_of_order() {
    let dir = tempfile::tempdir().unwrap();
    let v = one_field_variant(dir.path());
    let v = v.to_str().unwrap();
    let ladder = |rungs: &str| {
        let mut args = vec!["explain", "--variant", "rules-2.0", "--variant", v];
        args.extend(["--games", "20", "--seed", "5", "--ladder", rungs]);
        cli().args(args).assert()
    };
    let twice = ladder("heuristic,heuristic").code(2);
    assert!(
        stderr_of(&twice).contains("one player is listed twice"),
        "{}",
        stderr_of(&twice)
    );
    let twice = ladder("random,heuristic,random").code(2);
    assert!(stderr_of(&twice).contains("listed twice"));
    // The heuristic beats the random player: listed the other way round,
    // the rungs are out of order.
    let reversed = ladder("heuristic,random").code(2);
    let stderr = stderr_of(&reversed);
    assert!(stderr.contains("weakest first"), "{stderr}");
    assert!(stderr.contains("random won 0.0%"), "{stderr}");
    assert!(stderr.contains("list heuristic after random"), "{stderr}");
    // In order: the strongest is measured stronger, and says so.
    let text = String::from_utf8(
        ladder("random,heuristic")
            .code(0)
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    assert!(text.contains("heuristic won "), "{text}");
}

/// Writes `explain`'s JSON report of shard `shard` (or the whole run) of
/// 1.1 against 2.0, 30 games, into `dir`.
fn explain_shard(dir: &Path, shard: Option<&str>) -> PathBuf {
    let name = shard.map_or("whole".to_string(), |s| s.replace('/', "-of-"));
    let out = dir.join(format!("{name}.json"));
    let mut args = explain_args("rules-1.1", "30", &["--json", "--out"]);
    args.push(out.to_str().unwrap());
    if let Some(s) = shard {
        args.extend(["--shard", s]);
    }
    cli().args(args).assert().code(0);
    out
}

fn merge(files: &[&Path], extra: &[&str]) -> assert_cmd::assert::Assert {
    cli().arg("merge").args(extra).args(files).assert()
}

#[test]
fn merge_checks_explain_shards_as_it_checks_simulates() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (one, two) = (explain_shard(d, Some("1/3")), explain_shard(d, Some("2/3")));
    // Two of three shards: refused with --complete, a warning without.
    let refused = merge(&[&one, &two], &["--complete"]).code(2);
    let stderr = stderr_of(&refused);
    assert!(stderr.contains("incomplete run (--complete)"), "{stderr}");
    assert!(
        stderr.contains("the reports hold 20 of the run's 30 games"),
        "{stderr}"
    );
    let warned = merge(&[&one, &two], &[]).code(0);
    assert!(stderr_of(&warned).contains("missing: games 20–29"));
    // Shards of different splits that hold the same games.
    let half = explain_shard(d, Some("1/2"));
    let overlap = merge(&[&one, &half], &[]).code(2);
    let stderr = stderr_of(&overlap);
    assert!(stderr.contains("overlap in games 0–9"), "{stderr}");
    // Counts no run can have.
    let mut report: Value = serde_json::from_str(&std::fs::read_to_string(&two).unwrap()).unwrap();
    report["total"]["caesar_only_first"] = 1000.into();
    let damaged = d.join("damaged.json");
    std::fs::write(&damaged, report.to_string()).unwrap();
    let refused = merge(&[&one, &damaged], &[]).code(2);
    let stderr = stderr_of(&refused);
    assert!(stderr.contains("damaged.json: total: 1000 + "), "{stderr}");
    assert!(stderr.contains("of 10 games"), "{stderr}");
    let mut report: Value = serde_json::from_str(&std::fs::read_to_string(&two).unwrap()).unwrap();
    report["shards"] = serde_json::json!(["2/3", "3/3"]);
    std::fs::write(&damaged, report.to_string()).unwrap();
    let refused = merge(&[&damaged], &[]).code(2);
    assert!(
        stderr_of(&refused).contains("its shards hold 20 games but it counts 10"),
        "{}",
        stderr_of(&refused)
    );
    // A merged text report keeps the whole run's figures; the three
    // shards make the whole run.
    let three = explain_shard(d, Some("3/3"));
    let whole = explain_shard(d, None);
    let merged = stdout_of_success(&[
        "merge",
        "--json",
        one.to_str().unwrap(),
        two.to_str().unwrap(),
        three.to_str().unwrap(),
    ]);
    let merged: Value = serde_json::from_str(&merged).unwrap();
    let whole: Value = serde_json::from_str(&std::fs::read_to_string(&whole).unwrap()).unwrap();
    assert_eq!(merged, whole);
}

#[test]
fn merge_names_explain_among_the_report_kinds() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{").unwrap();
    let assert = merge(&[&junk], &[]).code(2);
    assert!(
        stderr_of(&assert).contains("not a simulate, compare, ladder, sweep or explain report"),
        "{}",
        stderr_of(&assert)
    );
}

#[test]
fn explain_refuses_absurd_game_counts_and_its_dry_run_counts_cannot_wrap() {
    for games in ["9223372036854775808", "18446744073709551615"] {
        let assert = cli()
            .args(explain_args("rules-1.1", games, &["--dry-run"]))
            .assert()
            .code(2);
        let stderr = stderr_of(&assert);
        assert!(stderr.contains("explain plays at most"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // 1e10 games: 24 rule sets (A, B and 11 fields both ways).
    let text = stdout_of_success(&explain_args("rules-1.1", "10000000000", &["--dry-run"]));
    assert!(
        text.contains("240000000000 games would be played"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn explain_of_ten_billion_games_plays_without_allocating_for_them() {
    // Under a 1.5 GB address space, a run that allocated per game would
    // abort at once; this one plays until it is stopped.
    let command = format!(
        "ulimit -v 1500000 && exec \"{}\" {}",
        bin().display(),
        explain_args("rules-1.1", "10000000000", &["--threads", "1"]).join(" ")
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &command])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(3));
    let mut child = out;
    let still_running = child.try_wait().unwrap().is_none();
    child.kill().ok();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(still_running, "it stopped: {stderr}");
    assert!(!stderr.contains("memory allocation"), "{stderr}");
}

#[test]
fn explain_refuses_a_setup_change_to_the_value_already_there() {
    // Legio 3 starts in Roma... or wherever the published game puts it:
    // moving it where it is changes nothing.
    let report: Value = serde_json::from_str(&stdout_of_success(&explain_args(
        "rules-1.1",
        "10",
        &["--set", "deploy:pompey:Legio 3=Roma", "--json"],
    )))
    .unwrap();
    let home = report["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["field"] == "deploy:pompey:Legio 3")
        .unwrap()["a_value"]
        .as_str()
        .unwrap()
        .to_string();
    let set = format!("deploy:pompey:Legio 3={home}");
    let assert = cli()
        .args(explain_args("rules-1.1", "10", &["--set", &set]))
        .assert()
        .code(2);
    let stderr = stderr_of(&assert);
    assert!(
        stderr.contains(&format!("{set}: that is the setup as written already")),
        "{stderr}"
    );
}

#[test]
fn simulate_and_explain_warn_of_degenerate_rules_as_validate_does() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("zero.ron");
    std::fs::write(
        &v,
        "(name: \"nothing to win\", extends: \"rules-2.0\", vp_to_win: 0)",
    )
    .unwrap();
    let v = v.to_str().unwrap();
    let says =
        "vp_to_win (1.2): 0 VP to win ends every game after its first year (degenerate-rule)";
    let validate = cli().args(["validate", "--variant", v]).assert();
    let validated = String::from_utf8_lossy(&validate.get_output().stdout).into_owned();
    assert!(
        validated.contains("0 VP to win ends every game"),
        "{validated}"
    );
    let simulate = cli()
        .args(["simulate", "--variant", v, "--games", "2"])
        .args(["--caesar-ai", "random", "--pompey-ai", "random"])
        .assert()
        .code(0);
    assert!(
        stderr_of(&simulate).contains(says),
        "{}",
        stderr_of(&simulate)
    );
    let explain = cli().args(explain_args(v, "10", &[])).assert().code(0);
    let stderr = stderr_of(&explain);
    assert_eq!(stderr.matches(says).count(), 1, "once: {stderr}");
}

#[test]
fn a_csv_onto_standard_output_beside_the_printed_report_is_refused() {
    let args = explain_args("rules-1.1", "10", &["--json", "--csv", "-"]);
    let assert = cli().args(&args).assert().code(2);
    assert!(stdout_of(&assert).is_empty());
    let simulate = [
        "simulate",
        "--games",
        "2",
        "--caesar-ai",
        "random",
        "--pompey-ai",
        "random",
        "--json",
        "--csv",
        "-",
    ];
    let assert = cli().args(simulate).assert().code(2);
    assert!(stdout_of(&assert).is_empty());
    assert!(stderr_of(&assert).contains('-'), "{}", stderr_of(&assert));
    // The CSV alone on standard output, the report in a file: one stream each.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let csv = stdout_of_success(&[&simulate[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(csv.starts_with("game,"), "{csv}");
}

fn stdout_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

#[test]
fn compare_with_the_default_players_under_two_rule_sets_plays_rule_set_as_players() {
    let assert = cli()
        .args([
            "compare",
            "--variant",
            "rules-1.1",
            "--variant",
            "rules-2.0",
        ])
        .args(["--games", "2"])
        .assert()
        .code(0);
    let stderr = stderr_of(&assert);
    assert!(
        stderr.contains("both rule sets are played by rules-1.1's player"),
        "{stderr}"
    );
    assert!(stderr.contains("fast = "), "{stderr}");
}

#[test]
fn a_rule_out_of_range_points_at_the_line_and_column_that_sets_it() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("far.ron");
    std::fs::write(
        &v,
        "(name: \"far\", extends: \"rules-2.0\",\n  hand_size: 6,\n  vp_to_win: 51)\n",
    )
    .unwrap();
    let assert = cli()
        .args(["validate", "--variant", v.to_str().unwrap()])
        .assert()
        .code(1);
    let stdout = stdout_of(&assert);
    let line = stdout
        .lines()
        .find(|l| l.contains("error[rule-out-of-range]"))
        .unwrap();
    assert!(
        line.starts_with(&format!("{}:3:3: error[rule-out-of-range]", v.display())),
        "{stdout}"
    );
}

#[test]
fn a_copy_of_rules_2_0_that_extends_rules_1_1_takes_the_nearest_rated_rule_sets_players() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/rules-2.0.ron"
    ))
    .unwrap();
    let copy = shipped.replace("Rules 2.0 (2023)", "My 2.0").replace(
        "caesar_player1_first_turn: true",
        "caesar_player1_first_turn: false",
    );
    assert!(copy.contains("extends: \"rules-1.1.ron\""));
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/variants/rules-1.1.ron"),
        dir.path().join("rules-1.1.ron"),
    )
    .unwrap();
    let mine = dir.path().join("mine.ron");
    std::fs::write(&mine, copy).unwrap();
    let mine = mine.to_str().unwrap();
    let run = |player: &str| {
        let assert = cli()
            .args(["simulate", "--variant", mine, "--dry-run"])
            .args(["--caesar-ai", player, "--pompey-ai", player])
            .assert()
            .code(0);
        stderr_of(&assert)
    };
    for player in ["fast", "best"] {
        let stderr = run(player);
        assert!(
            stderr.contains(
                "rules-2.0 is the measured rule set nearest to this one by rule distance (1 field; it extends Rules 1.1"
            ),
            "{player}: {stderr}"
        );
        assert!(
            stderr.contains("strongest for rules-2.0"),
            "{player}: {stderr}"
        );
        assert!(!stderr.contains("(it extends rules-2.0)"), "{stderr}");
    }
}

#[test]
fn a_merged_text_report_keeps_what_fast_stood_for() {
    let dir = tempfile::tempdir().unwrap();
    let whole = stdout_of_success(&["simulate", "--games", "4"]);
    let said = whole.lines().next().unwrap();
    assert!(said.starts_with("Caesar's player: fast = "), "{whole}");
    let mut shards = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = dir.path().join(format!("s{}.json", shards.len()));
        cli()
            .args(["simulate", "--games", "4", "--json", "--shard", shard])
            .arg("--out")
            .arg(&out)
            .assert()
            .code(0);
        shards.push(out);
    }
    let merged = cli().arg("merge").args(&shards).assert().code(0);
    let merged = stdout_of(&merged);
    assert!(merged.starts_with(said), "{merged}");
    let head = |text: &str| text.lines().take(3).collect::<Vec<_>>().join("\n");
    assert_eq!(head(&merged), head(&whole));
}

#[test]
fn compare_and_sweep_dry_runs_of_too_many_games_are_refused_not_wrapped() {
    let huge = "9223372036854775808";
    let compare = cli()
        .args([
            "compare",
            "--variant",
            "rules-1.1",
            "--variant",
            "rules-2.0",
        ])
        .args(["--games", huge, "--dry-run"])
        .args(["--caesar-ai", "random", "--pompey-ai", "random"])
        .assert()
        .code(2);
    let stderr = stderr_of(&compare);
    assert!(
        stderr.contains("more games than can be counted"),
        "{stderr}"
    );
    let sweep = cli()
        .args([
            "sweep",
            "--set",
            "vp_to_win=8..12",
            "--games",
            huge,
            "--dry-run",
        ])
        .args(["--caesar-ai", "random", "--pompey-ai", "random"])
        .assert()
        .code(2);
    let stderr = stderr_of(&sweep);
    assert!(
        stderr.contains("more games than can be counted"),
        "{stderr}"
    );
    let fits = stdout_of_success(&[
        "compare",
        "--variant",
        "rules-1.1",
        "--variant",
        "rules-2.0",
        "--games",
        "4611686018427387904",
        "--dry-run",
        "--caesar-ai",
        "random",
        "--pompey-ai",
        "random",
    ]);
    assert!(
        fits.contains("9223372036854775808 games would be played"),
        "{fits}"
    );
}

#[test]
fn a_sweep_over_rule_fields_with_the_default_players_says_whose_players_play_every_point() {
    let assert = cli()
        .args(["sweep", "--set", "vp_to_win=9,10", "--games", "2"])
        .assert()
        .code(0);
    let stderr = stderr_of(&assert);
    assert!(
        stderr.contains("every point is played by rules-2.0's player"),
        "{stderr}"
    );
    // A sweep of the setup alone plays one rule set: nothing to say.
    let assert = cli()
        .args([
            "sweep",
            "--set",
            "strength:caesar:Legio 13=2,3",
            "--games",
            "2",
        ])
        .assert()
        .code(0);
    assert!(!stderr_of(&assert).contains("every point is played by"));
}

#[test]
fn explains_default_players_are_fast_where_the_measured_mix_searches_or_none_is_measured() {
    let dry_run = |a: &str, b: &str| {
        stderr_of(
            &cli()
                .args(["explain", "--variant", a, "--variant", b])
                .args(["--games", "10", "--dry-run"])
                .assert()
                .success(),
        )
    };
    // The built-in 2.0 balance mixes searches: a hundred heuristic games a
    // game would make thousands of games take hours, so `fast` stands.
    let err = dry_run("rules-2.0", "rules-1.1");
    assert!(
        err.contains("the built-in variants/players/balance-rules-2.0.json) mixes searches")
            && err.contains("so fast = "),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let b = one_field_variant(dir.path());
    let err = dry_run(b.to_str().unwrap(), "rules-2.0");
    assert!(
        err.contains("equilibrium: no balance is measured for this setup, so fast = "),
        "{err}"
    );
}
