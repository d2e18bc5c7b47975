//! The Deployment and Setup tabs: where the blocks start (`deploy`: the
//! levy pools beside the map, drags between cities and pools, historical
//! and free deployment), the rest of a custom setup (`panel`: the roster,
//! the deck, the scenario's settings, the comparison with the published
//! game), and which players suit this setup (`players`: `best` here and
//! *Fit players…*, shown on the Setup and Rules tabs).

pub(super) mod deploy;
pub(super) mod panel;
pub(super) mod players;
