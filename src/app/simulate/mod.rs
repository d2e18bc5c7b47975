//! The Simulate and Balance tabs: runs of games in the background and what
//! they answer. The Simulate panel and its one runner (`panel`), the charts
//! of a report (`charts`, with the band geometry `bands` it shares with the
//! sweep), the battle calculator (`battle_calculator`), the strength ladder
//! (`ladder_view`), the balance sweep (`sweep_view`), tuning a player
//! (`tune_view`), and the Balance tab's equilibrium (`balance_view`) and its
//! smallest change that makes it fair (`fair_view`). The
//! figures are the library's reports, drawn.

pub(super) mod balance_view;
mod bands;
mod battle_calculator;
mod charts;
pub(super) mod error;
pub(super) mod fair_view;
mod keep;
mod ladder_view;
pub(super) mod panel;
mod sweep_view;
mod tune_view;
