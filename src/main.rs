//! `caesar-workbench`: with no arguments, the workbench window on the built-in
//! scenario; with a subcommand, the headless CLI.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            // Help and version go to stdout, mistakes to stderr: a closed
            // pipe ends quietly, another write failure is an error.
            return match e.print() {
                Err(write) if write.kind() != std::io::ErrorKind::BrokenPipe => {
                    let _ = writeln!(std::io::stderr(), "error: cannot write the output: {write}");
                    ExitCode::from(2)
                }
                _ => ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)),
            };
        }
    };
    match cli::run(args) {
        Ok(code) => code,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            cli::warn(format_args!("error: {e}"));
            e.exit_code()
        }
    }
}
