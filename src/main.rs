//! `caesar-workbench`: with no arguments, the workbench window on the built-in
//! scenario; with a subcommand, the headless CLI.

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod runs;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    cli::run(args)
}
