//! The command line, run as a user would (assert_cmd).
//! One test binary per area keeps the build short: each binary links the library once.

mod cluster;
mod commands;
mod position;
mod record;
mod simulation;
mod sweep;
