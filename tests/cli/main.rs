//! The command line, run as a user would (assert_cmd).
//! One test binary per area keeps the build short: each binary links the library once.

#[path = "../common/mod.rs"]
mod common;

mod anywhere;
mod balance;
mod bundles;
mod cluster;
mod commands;
mod explain;
mod fair;
mod one_meaning;
mod players;
mod position;
mod record;
mod simulation;
mod sweep;
mod trust;

use assert_cmd::Command;

/// The binary under test: this build's, or the one CAESAR_WORKBENCH_BIN
/// names (to check that a new test fails on an older build).
fn bin() -> std::path::PathBuf {
    std::env::var_os("CAESAR_WORKBENCH_BIN")
        .map_or_else(|| env!("CARGO_BIN_EXE_caesar-workbench").into(), Into::into)
}

/// The command line under test; one that hangs fails instead.
fn cli() -> Command {
    let mut command = Command::new(bin());
    command.timeout(std::time::Duration::from_secs(300));
    command
}

/// What the command line printed with `args`, which must succeed.
fn stdout_of_success(args: &[&str]) -> String {
    let out = cli()
        .args(args)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}
