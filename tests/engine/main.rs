//! The engine, the AI players, battle odds and simulations through the library.
//! One test binary per area keeps the build short: each binary links the library once.

#[path = "../common/mod.rs"]
mod common;

mod ai_players;
mod battle_odds;
mod pinned;
mod properties;
mod random;
mod records;
mod simulation;
mod view;
