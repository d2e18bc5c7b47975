//! The window, headless (egui_kittest): editing, files, undo.
//! One test binary per area keeps the build short: each binary links the library once.

#[path = "../common/mod.rs"]
mod common;

mod balance;
mod board;
mod edit;
mod explain;
mod fair;
mod heatmap;
mod ladder;
mod play;
mod players;
mod robust;
mod setup;
mod sweep;
mod window;
