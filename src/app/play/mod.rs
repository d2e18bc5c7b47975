//! The Play tab, and the game board the Replay tab shares with it: the
//! panel that seats the players and runs a game (`panel`), the map as a
//! game board with one side's view of the blocks (`board`) and where its
//! stacks stand (`stacks`), what is shown beside the board (`info`: the
//! turn, the hands, a battle; `card_text`: what a card does in words), the
//! game's log (`game_log`) and the decision buttons with their double-click
//! guard (`controls`). Every decision is one of the engine's legal actions;
//! nothing here decides a rule.

pub(super) mod board;
mod card_text;
mod controls;
pub(super) mod game_log;
pub(super) mod info;
pub(super) mod panel;
pub mod stacks;
