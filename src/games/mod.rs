//! Games written down: one game as every position it went through, to
//! step, seek and undo in ([`trace`]); game records, saved, read back and
//! replayed with a digest at every step ([`record`]); position files, a
//! position stated by hand for a rules question ([`position_file`]); and
//! a game started from a scenario document ([`start`]).
//!
//! Uses the scenario, the engine and the AI players (a record names its
//! players); the window and the command line build on it.

pub mod narrate;
pub mod position_file;
pub mod record;
pub mod start;
pub mod trace;
