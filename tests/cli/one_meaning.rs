//! One name, one meaning (issue 41): a rule set is the same under every
//! spelling, a path is a file and only a bare name a built-in, outputs never
//! land on each other or on an input, and nonsense is refused with a message
//! that says where and why.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use predicates::prelude::*;

use super::{bin, cli};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// What `--caesar-ai best` stands for under `variant`, as it says on
/// standard error (a dry run: nothing is played).
fn best_under(variant: &str, dir: &Path) -> String {
    let output = cli()
        .current_dir(dir)
        .args([
            "simulate",
            "--dry-run",
            "--games",
            "2",
            "--caesar-ai",
            "best",
        ])
        .args(["--variant", variant])
        .output()
        .unwrap();
    assert!(output.status.success(), "{variant}: {output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    stderr
        .lines()
        .find(|l| l.starts_with("best = "))
        .unwrap_or_else(|| panic!("{variant}: no best line in {stderr}"))
        .split(": ")
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn best_is_one_player_under_every_spelling_of_a_rule_set() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "copy.ron",
        "(name: \"my copy\", extends: \"rules-2.0\")",
    );
    let builtin = best_under("rules-2.0", Path::new(ROOT));
    assert!(
        builtin.contains("@"),
        "best for rules-2.0 is a search: {builtin}"
    );
    let absolute = format!("{ROOT}/variants/rules-2.0.ron");
    for spelling in ["variants/rules-2.0.ron", absolute.as_str()] {
        assert_eq!(best_under(spelling, Path::new(ROOT)), builtin, "{spelling}");
    }
    assert_eq!(
        best_under("copy.ron", dir.path()),
        builtin,
        "a copy under another name"
    );
    let house = best_under("house-2.0-max-2-events", Path::new(ROOT));
    assert_ne!(house, "best = heuristic", "the house variant has ratings");
    assert_eq!(
        best_under("variants/house-2.0-max-2-events.ron", Path::new(ROOT)),
        house
    );
}

#[test]
fn best_under_a_variant_extending_a_rated_one_is_the_rated_ones_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "mine.ron",
        "(name: \"mine\", extends: \"rules-2.0\", vp_to_win: 9)",
    );
    let builtin = best_under("rules-2.0", Path::new(ROOT));
    assert_eq!(best_under("mine.ron", dir.path()), builtin);
    cli()
        .current_dir(dir.path())
        .args(["players", "--variant", "mine.ron"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "not measured under this rule set (it extends rules-2.0)",
        ))
        .stdout(predicate::str::contains("measured on the published setup"));
}

#[test]
fn a_path_to_a_missing_file_is_an_error_never_the_builtin_of_its_stem() {
    let dir = tempfile::tempdir().unwrap();
    cli()
        .current_dir(dir.path())
        .args(["simulate", "--games", "2", "--caesar-ai", "random"])
        .args(["--pompey-ai", "random"])
        .args([
            "--variant",
            "variants/rules-2.0-no-first-turn-exception.ron",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no such variant file"))
        .stderr(predicate::str::contains(
            "--variant rules-2.0-no-first-turn-exception",
        ));
    // The bare name is the built-in from anywhere.
    cli()
        .current_dir(dir.path())
        .args(["simulate", "--dry-run", "--games", "2"])
        .args(["--variant", "rules-2.0-no-first-turn-exception"])
        .assert()
        .code(0);
}

#[test]
fn a_users_own_rules_2_0_file_may_extend_the_builtin_rules_2_0() {
    let dir = tempfile::tempdir().unwrap();
    let mine = write(
        dir.path(),
        "variants/rules-2.0.ron",
        "(name: \"my 2.0\", extends: \"rules-2.0\", vp_to_win: 9)",
    );
    cli()
        .args(["validate", "--variant", mine.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("0 errors"));
}

#[test]
fn compare_refuses_a_copy_of_a_rule_set_under_another_name() {
    let dir = tempfile::tempdir().unwrap();
    let copy = write(
        dir.path(),
        "copy.ron",
        "(name: \"copy\", extends: \"rules-2.0\")",
    );
    cli()
        .args(["compare", "--games", "2", "--variant", "rules-2.0"])
        .args(["--variant", copy.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("are the same rule set"));
}

#[test]
fn ladder_refuses_two_rungs_that_play_alike_though_spelt_apart() {
    let dir = tempfile::tempdir().unwrap();
    let defaults = write(dir.path(), "defaults.ron", "()");
    let rung = format!("search:2@{}", defaults.display());
    cli()
        .args(["ladder", "--games", "2", "--players"])
        .arg(format!("search:2,{rung}"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("twice").or(predicate::str::contains("same")));
}

#[cfg(unix)]
#[test]
fn an_output_that_is_a_symbolic_link_is_written_through_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let target = write(dir.path(), "target.csv", "old\n");
    let link = dir.path().join("out.csv");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    cli()
        .args(["simulate", "--games", "2", "--caesar-ai", "random"])
        .args(["--pompey-ai", "random", "--csv"])
        .arg(&link)
        .assert()
        .code(0);
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link is still a link");
    let text = std::fs::read_to_string(&target).unwrap();
    assert!(text.lines().count() == 3, "header and two games: {text}");
    assert!(
        !dir.path().join("out.csv.bak").exists(),
        "no .bak beside the link"
    );
}

#[cfg(unix)]
#[test]
fn a_link_to_standard_output_writes_into_the_stream_and_replaces_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("out");
    std::os::unix::fs::symlink("/proc/self/fd/1", &link).unwrap();
    let stdout_file = dir.path().join("stdout.txt");
    let output = std::process::Command::new(bin())
        .args(["simulate", "--games", "2", "--caesar-ai", "random"])
        .args(["--pompey-ai", "random", "--json", "--csv"])
        .arg(&link)
        .stdout(Stdio::from(std::fs::File::create(&stdout_file).unwrap()))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(!dir.path().join("out.bak").exists());
    let text = std::fs::read_to_string(&stdout_file).unwrap();
    assert!(text.contains("caesar_ai"), "the JSON report: {text}");
    assert!(text.contains("game,seed"), "the CSV rows: {text}");
}

#[test]
fn the_bak_of_an_output_is_an_output_checked_against_the_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let start = write(dir.path(), "p.ron.bak", "(attack_ratio: 2.0)");
    write(dir.path(), "p.ron", "(attack_ratio: 3.0)");
    let out = dir.path().join("p.ron");
    cli()
        .args(["simulate", "--games", "2", "--json", "--caesar-ai"])
        .arg(format!("heuristic:{}", start.display()))
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("over the input file"));
    assert_eq!(
        std::fs::read_to_string(&start).unwrap(),
        "(attack_ratio: 2.0)"
    );
}

#[test]
fn two_outputs_on_one_place_are_refused_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x");
    let cases: [&[&str]; 3] = [
        &["--json", "--out", "X", "--csv", "X"],
        &["--out", "X", "--spaces-csv", "X"],
        &["--out", "X.bak", "--csv", "X"],
    ];
    for case in cases {
        let args: Vec<String> = case
            .iter()
            .map(|a| a.replace('X', x.to_str().unwrap()))
            .collect();
        cli()
            .args(["simulate", "--games", "2", "--caesar-ai", "random"])
            .args(["--pompey-ai", "random"])
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("are one place"));
        assert!(!x.exists(), "{case:?}: nothing written");
    }
}

#[test]
fn out_dash_is_standard_output_and_a_folder_name_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    cli()
        .current_dir(dir.path())
        .args(["simulate", "--games", "2", "--caesar-ai", "random"])
        .args(["--pompey-ai", "random", "--json", "--out", "-"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("\"caesar_wins\""));
    assert!(!dir.path().join("-").exists(), "no file named -");
    cli()
        .current_dir(dir.path())
        .args(["simulate", "--games", "2", "--out", "newdir/"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("names a folder"));
}

#[test]
fn outputs_are_checked_before_the_work_when_best_reads_the_output() {
    // The shipped files are built into the program: `best` reads files from
    // disk only from a fit's bundle, here the one beside the scenario.
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("s.ron");
    std::fs::write(
        &scenario,
        "Scenario(name: \"Mine\", extends: \"historical.ron\")",
    )
    .unwrap();
    let bundle = dir.path().join("s.players");
    std::fs::create_dir(&bundle).unwrap();
    for (shipped, own) in [
        ("tuned-rules-2.0.ron", "fitted.ron"),
        ("value-rules-2.0.ron", "value.ron"),
    ] {
        std::fs::copy(
            format!("{ROOT}/variants/players/{shipped}"),
            bundle.join(own),
        )
        .unwrap();
    }
    cli()
        .current_dir(&bundle)
        .args(["players", "--measure", "--scenario", "../s.ron"])
        .args(["--players", "search:1@fitted.ron+value.ron"])
        .args(["--games", "1", "--threads", "1", "--out", "ratings.ron"])
        .assert()
        .code(0);
    let value = bundle.join("value.ron");
    let before = std::fs::read(&value).unwrap();
    cli()
        .args(["learn", "--caesar-ai", "best", "--games", "20"])
        .args(["--scenario", scenario.to_str().unwrap()])
        .args(["--out", value.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("best = search:1@"))
        .stderr(predicate::str::contains("over the input file"));
    assert_eq!(std::fs::read(&value).unwrap(), before);
    assert!(!bundle.join("value.ron.bak").exists());
}

#[test]
fn standard_error_appended_to_an_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let text = "(attack_ratio: 2.0)";
    let player = write(dir.path(), "pl.ron", text);
    let stderr = std::fs::OpenOptions::new()
        .append(true)
        .open(&player)
        .unwrap();
    let output = std::process::Command::new(bin())
        .args(["simulate", "--games", "2", "--caesar-ai"])
        .arg(format!("heuristic:{}", player.display()))
        .stderr(Stdio::from(stderr))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert_eq!(std::fs::read_to_string(&player).unwrap(), text);
}

#[test]
fn a_step_too_small_to_move_a_number_is_refused_not_a_panic() {
    for step in ["5e-324", "1e-310", "1e-300"] {
        cli()
            .args(["tune", "--budget", "40", "--games-per-candidate", "2"])
            .args(["--step", step, "--out", "/dev/null"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("the step must be at least"));
    }
}

#[test]
fn tune_search_on_a_player_that_does_not_search_blames_search() {
    cli()
        .args(["tune", "--search", "heuristic", "--out", "/dev/null"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--search"))
        .stderr(predicate::str::contains("--start").not());
}

/// `validate` of the published scenario under a variant of rules 2.0 with `fields`.
fn validate_variant(fields: &str) -> assert_cmd::assert::Assert {
    let dir = tempfile::tempdir().unwrap();
    let variant = write(
        dir.path(),
        "v.ron",
        &format!("(name: \"v\", extends: \"rules-2.0\", {fields})"),
    );
    cli()
        .args(["validate", "--variant", variant.to_str().unwrap()])
        .assert()
}

#[test]
fn rule_values_outside_the_table_are_errors_and_degenerate_ones_warnings() {
    for fields in [
        "vp_to_win: 51",
        "vp_to_win: 255",
        "battle_rounds: 255",
        "years: 255",
        "turns_per_year: 255",
    ] {
        validate_variant(fields)
            .code(1)
            .stdout(predicate::str::contains("rule-out-of-range"));
    }
    for (fields, rule) in [
        ("vp_to_win: 0", "(1.2)"),
        (
            "road_limits: (major: 0, minor: 0, strait: 0, strait_attacking: 0)",
            "6.11",
        ),
        ("winter_supply_base: 0", "8.4"),
        ("vp_to_win: 40", "cannot be reached"),
    ] {
        validate_variant(fields)
            .code(0)
            .stdout(predicate::str::contains("degenerate-rule"))
            .stdout(predicate::str::contains(rule));
    }
}

#[test]
fn a_rule_set_without_a_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let variant = write(dir.path(), "v.ron", "(name: \"\", extends: \"rules-2.0\")");
    cli()
        .args(["validate", "--variant", variant.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("bad-name"));
}

/// `validate` of the published scenario with `edit` made to its text.
fn validate_published_edited(edit: impl Fn(&str) -> String) -> assert_cmd::assert::Assert {
    let scenario = std::fs::read_to_string(format!("{ROOT}/scenarios/historical.ron")).unwrap();
    let edited = edit(&scenario);
    assert_ne!(
        edited, scenario,
        "the edit finds its text in the published scenario"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "s.ron", &edited);
    cli().arg("validate").arg(&path).assert()
}

#[test]
fn empty_blank_and_invisible_space_names_and_off_canvas_spaces_are_errors() {
    for name in ["Ae\u{200b}nos", "   ", ""] {
        validate_published_edited(|s| {
            s.replacen("name: \"Aenos\"", &format!("name: \"{name}\""), 1)
        })
        .code(1)
        .stdout(predicate::str::contains("bad-name"));
    }
    validate_published_edited(|s| {
        let at = s.find("at: (").unwrap();
        let end = at + s[at..].find(')').unwrap();
        format!("{}at: (4294967295.0, 1e30{}", &s[..at], &s[end..])
    })
    .code(1)
    .stdout(predicate::str::contains("off-canvas"));
}

#[test]
fn an_invisible_character_in_an_unknown_name_is_shown_escaped() {
    validate_published_edited(|s| {
        s.replacen(
            "\"Neapolis\", \"Roma\")",
            "\"Neapolis\", \"Ro\u{200b}ma\")",
            1,
        )
    })
    .code(1)
    .stdout(predicate::str::contains("Ro\\u{200B}ma"));
}

#[test]
fn a_command_card_of_255_moves_is_refused() {
    validate_published_edited(|s| s.replacen("(move: 4, levy: 1", "(move: 255, levy: 255", 1))
        .code(1)
        .stdout(predicate::str::contains("bad-command-card"));
}

#[test]
fn options_that_would_be_ignored_are_refused() {
    cli()
        .args(["players", "--out", "/dev/null"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--out is for --measure"));
    cli().args(["players", "--games", "10"]).assert().code(2);
    cli()
        .args(["players", "--variant", "bogus"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bogus"));
}

#[test]
fn merge_refuses_spaces_csv_for_reports_that_have_no_spaces() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("c.json");
    cli()
        .args(["compare", "--games", "2", "--caesar-ai", "random"])
        .args(["--pompey-ai", "random", "--variant", "rules-1.1"])
        .args(["--variant", "rules-2.0", "--json", "--out"])
        .arg(&report)
        .assert()
        .code(0);
    let csv = dir.path().join("spaces.csv");
    cli()
        .arg("merge")
        .arg(&report)
        .arg("--spaces-csv")
        .arg(&csv)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("simulate reports only"));
    // A byte-order mark before the JSON is no reason to refuse it.
    let mut text = b"\xef\xbb\xbf".to_vec();
    text.extend(std::fs::read(&report).unwrap());
    let bom = dir.path().join("bom.json");
    std::fs::write(&bom, text).unwrap();
    cli().arg("merge").arg(&bom).assert().code(0);
}

#[test]
fn merge_takes_shards_that_spell_one_player_file_differently() {
    let dir = tempfile::tempdir().unwrap();
    let player = write(dir.path(), "p.ron", "(attack_ratio: 2.0)");
    let mut reports = Vec::new();
    for (shard, spelling) in [
        ("1/2", "p.ron".to_string()),
        ("2/2", player.display().to_string()),
    ] {
        let out = dir.path().join(format!("r{}.json", reports.len()));
        cli()
            .current_dir(dir.path())
            .args(["simulate", "--games", "4", "--json", "--shard", shard])
            .arg("--caesar-ai")
            .arg(format!("heuristic:{spelling}"))
            .arg("--out")
            .arg(&out)
            .assert()
            .code(0);
        reports.push(out);
    }
    cli().arg("merge").args(&reports).assert().code(0);
}

#[test]
fn a_comment_that_says_caesar_makes_no_per_side_player_file() {
    let dir = tempfile::tempdir().unwrap();
    let player = write(
        dir.path(),
        "p.ron",
        "(attack_ratio: 2.0, // caesar: bolder\n)",
    );
    cli()
        .args(["simulate", "--dry-run", "--games", "2", "--caesar-ai"])
        .arg(format!("heuristic:{}", player.display()))
        .assert()
        .code(0);
}

#[test]
fn messages_name_what_is_missing_and_how_large() {
    cli()
        .args(["simulate", "--games", "2", "--caesar-ai", "search:2@"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "names no player file after the `@`",
        ));
    let dir = tempfile::tempdir().unwrap();
    let huge = write(dir.path(), "p.ron", "(attack_ratio: 1e39)");
    cli()
        .args(["simulate", "--games", "2", "--caesar-ai"])
        .arg(format!("heuristic:{}", huge.display()))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("too large"));
    let zero = write(dir.path(), "z.ron", "(name: \"z\", extends: \"/dev/zero\")");
    cli()
        .args(["validate", "--variant", zero.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("there is no file").not());
}

#[test]
fn a_file_name_near_the_systems_limit_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("{}.json", "r".repeat(250));
    cli()
        .args(["simulate", "--games", "2", "--caesar-ai", "random"])
        .args(["--pompey-ai", "random", "--json", "--out"])
        .arg(dir.path().join(&name))
        .assert()
        .code(0);
    assert!(dir.path().join(&name).exists());
}

#[test]
fn a_position_files_missing_variant_is_located_in_the_position_file() {
    let dir = tempfile::tempdir().unwrap();
    let example =
        std::fs::read_to_string(format!("{ROOT}/scenarios/positions/pinning-example.ron")).unwrap();
    let edited = example.replacen(
        "variant: \"rules-2.0\"",
        "variant: \"./no-such-variant.ron\"",
        1,
    );
    assert_ne!(edited, example);
    let line = edited
        .lines()
        .position(|l| l.contains("no-such-variant"))
        .unwrap()
        + 1;
    let position = write(dir.path(), "pos.ron", &edited);
    cli()
        .args(["position"])
        .arg(&position)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("pos.ron:{line}:5")));
}
