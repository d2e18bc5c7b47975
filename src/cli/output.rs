//! The one writer for everything a command prints on standard output.
//! Every write returns an error instead of panicking (as `println!` does):
//! a closed pipe or a full disk becomes a [`CliError::Output`].

use std::fmt::Display;
use std::io::{self, Write};

use super::CliError;

pub struct Output {
    inner: Box<dyn Write>,
    /// Whether standard output was checked against the files the command
    /// read ([`super::args::check_stdout`]), which happens before the first byte.
    checked: bool,
}

impl Output {
    /// Standard output (line-buffered, so `play` shows its record as it goes).
    pub fn stdout() -> Output {
        Output {
            inner: Box::new(io::stdout().lock()),
            checked: false,
        }
    }

    /// One line of text (a multi-line text gets one final newline).
    pub fn line(&mut self, text: impl Display) -> Result<(), CliError> {
        self.check()?;
        writeln!(self.inner, "{text}").map_err(CliError::Output)
    }

    /// A value as pretty-printed JSON, then a newline.
    pub fn json<T: serde::Serialize>(&mut self, value: &T) -> Result<(), CliError> {
        self.check()?;
        serde_json::to_writer_pretty(&mut self.inner, value).map_err(|e| {
            CliError::Output(match e.io_error_kind() {
                Some(kind) => io::Error::new(kind, e),
                None => io::Error::other(e),
            })
        })?;
        self.line("")
    }

    /// A command that forgets to check its outputs before its work still
    /// never writes a byte over one of its inputs.
    fn check(&mut self) -> Result<(), CliError> {
        if !self.checked {
            super::args::check_stdout()?;
            self.checked = true;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> Result<(), CliError> {
        self.inner.flush().map_err(CliError::Output)
    }
}

/// A warning or note on stderr. Nothing is done when stderr itself cannot be
/// written, nor when it is appended to a file the command read (`2>> p.ron`
/// with `p.ron` an input): there is nowhere left to say so, and the input
/// stays as it was.
pub fn warn(text: impl Display) {
    let over_input = caesar_workbench::files::std_stream_over_input()
        .is_some_and(|(stream, _)| stream == caesar_workbench::files::STDERR);
    if !over_input {
        let _ = writeln!(io::stderr(), "{text}");
    }
}
