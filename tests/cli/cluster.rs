//! `--shard auto` as a cluster's scheduler runs it: one process per array
//! task, started together, each told its part only by its environment, each
//! writing its report where `--out` says; `merge` then gives exactly the
//! report of the same run on one machine.

use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, Stdio};

use super::bin;
use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// Every variable a scheduler might set, removed so the test machine's own
/// environment cannot decide a shard.
const SCHEDULER_VARS: [&str; 6] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_ARRAY_TASK_COUNT",
    "JOB_COMPLETION_INDEX",
    "CAESAR_SHARD_COUNT",
];

fn clean(command: &mut StdCommand) -> &mut StdCommand {
    for var in SCHEDULER_VARS {
        command.env_remove(var);
    }
    command
}

/// Starts every task of the array at once (as the scheduler does), waits
/// for all, and checks each succeeded.
fn run_array(tasks: Vec<StdCommand>) {
    let children: Vec<Child> = tasks
        .into_iter()
        .map(|mut c| {
            c.stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "a task failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The report without its wall-clock figures, the only ones that differ
/// between a merged and a single run.
fn timeless(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("elapsed_seconds");
                map.remove("games_per_second");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

fn stdout_json(args: &[&str]) -> Value {
    let mut command = Command::new(bin());
    for var in SCHEDULER_VARS {
        command.env_remove(var);
    }
    let out = command
        .args(args)
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

fn merged(files: &[PathBuf]) -> Value {
    let mut args: Vec<String> = vec!["merge".into(), "--json".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    stdout_json(&args)
}

fn reports_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn slurm_array_tasks_merge_into_the_single_machine_report() {
    let dir = tempfile::tempdir().unwrap();
    let run = [
        "simulate",
        "--games",
        "30",
        "--seed",
        "11",
        "--caesar-ai",
        "random",
        "--pompey-ai",
        "heuristic",
        "--threads",
        "1",
        "--json",
    ];
    let out = dir.path().join("sim-{shard}.json");
    // sbatch --array=3-6: four tasks, ids 3 to 6, started together.
    let tasks = (3..=6)
        .map(|id| {
            let mut c = StdCommand::new(bin());
            clean(&mut c)
                .args(run)
                .args(["--shard", "auto", "--out"])
                .arg(&out)
                .env("SLURM_ARRAY_TASK_ID", id.to_string())
                .env("SLURM_ARRAY_TASK_MIN", "3")
                .env("SLURM_ARRAY_TASK_MAX", "6")
                .env("SLURM_ARRAY_TASK_COUNT", "4");
            c
        })
        .collect();
    run_array(tasks);
    let files = reports_in(dir.path());
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "sim-1-of-4.json",
            "sim-2-of-4.json",
            "sim-3-of-4.json",
            "sim-4-of-4.json"
        ]
    );
    let whole = stdout_json(&run);
    let merged = merged(&files);
    assert_eq!(merged["games"], 30);
    assert_eq!(timeless(merged), timeless(whole));
}

#[test]
fn kubernetes_indexed_job_ladder_merges_into_the_single_machine_report() {
    let dir = tempfile::tempdir().unwrap();
    let run = [
        "ladder",
        "--players",
        "random,heuristic",
        "--games",
        "6",
        "--seed",
        "5",
        "--threads",
        "1",
        "--json",
    ];
    let out = dir.path().join("ladder-{shard}.json");
    // completions: 3, completionMode: Indexed; the count from the manifest's env.
    let tasks = (0..3)
        .map(|index| {
            let mut c = StdCommand::new(bin());
            clean(&mut c)
                .args(run)
                .args(["--shard", "auto", "--out"])
                .arg(&out)
                .env("JOB_COMPLETION_INDEX", index.to_string())
                .env("CAESAR_SHARD_COUNT", "3");
            c
        })
        .collect();
    run_array(tasks);
    let files = reports_in(dir.path());
    assert_eq!(files.len(), 3);
    let whole = stdout_json(&run);
    assert_eq!(timeless(merged(&files)), timeless(whole));
}

#[test]
fn shard_auto_outside_a_scheduler_is_refused() {
    let mut command = Command::new(bin());
    for var in SCHEDULER_VARS {
        command.env_remove(var);
    }
    command
        .args(["simulate", "--games", "4", "--shard", "auto"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("SLURM_ARRAY_TASK_ID")
                .and(predicate::str::contains("JOB_COMPLETION_INDEX")),
        );
    let mut command = Command::new(bin());
    for var in SCHEDULER_VARS {
        command.env_remove(var);
    }
    command
        .args(["simulate", "--games", "4", "--shard", "auto"])
        .env("JOB_COMPLETION_INDEX", "1")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("auto/N"));
}

/// The merge step of deploy/slurm: `merge --complete --out` fails over part
/// of a run without touching the output, and writes the whole run's report
/// (the same as standard output) once every shard is there.
#[test]
fn merge_complete_out_fails_on_missing_games_and_writes_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |i: usize| {
        let path = dir.path().join(format!("shard-{i}-of-2.json"));
        let mut command = Command::new(bin());
        for var in SCHEDULER_VARS {
            command.env_remove(var);
        }
        command
            .args(["simulate", "--games", "6", "--seed", "3", "--json"])
            .args(["--shard", &format!("{i}/2"), "--out"])
            .arg(&path)
            .assert()
            .code(0);
        path
    };
    let first = shard(1);
    let out = dir.path().join("merged.json");
    std::fs::write(&out, "older report\n").unwrap();
    let mut command = Command::new(bin());
    command
        .args(["merge", "--json", "--complete", "--out"])
        .arg(&out)
        .arg(&first)
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(
            predicate::str::contains("incomplete run").and(predicate::str::contains("missing")),
        );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "older report\n");
    let second = shard(2);
    Command::new(bin())
        .args(["merge", "--json", "--complete", "--out"])
        .arg(&out)
        .args([&first, &second])
        .assert()
        .code(0)
        .stdout(predicate::str::is_empty());
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(written, merged(&[first.clone(), second]));
    Command::new(bin())
        .args(["merge", "--json", "--out"])
        .args([&first, &first])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("input"));
}
