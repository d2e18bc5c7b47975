//! The games of a simulation run as a table in the Simulate tab: winner,
//! VP, years and battles of each, and a click on a row opens that game in
//! the Replay tab, re-played from its seeds (the run's seed and the game's
//! index), players and rule set. The rows are kept in the window's run
//! result only, not in the JSON report.

use egui::{RichText, Ui};

use super::{Action, ReplaySource, theme};
use crate::engine::{EndReason, Game};
use crate::model::Side;
use crate::sim::{GameRecord, SimOptions};

/// One game of a run, as the table shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameRow {
    pub index: u64,
    pub winner: Option<Side>,
    pub how: EndReason,
    pub vp: [u32; 2],
    /// The year whose winter ended the game.
    pub years: u8,
    pub battles: u32,
}

impl From<&GameRecord> for GameRow {
    fn from(r: &GameRecord) -> GameRow {
        GameRow {
            index: r.index,
            winner: r.winner,
            how: r.how,
            vp: r.vp,
            years: r.year,
            battles: r.battles,
        }
    }
}

impl GameRow {
    /// The row as the table prints it.
    pub fn text(&self) -> String {
        let winner = self.winner.map_or("draw".to_string(), |s| s.to_string());
        format!(
            "{:>6}  {:<8} {:>3}-{:<3}  {:>5}  {:>7}  {:?}",
            self.index, winner, self.vp[0], self.vp[1], self.years, self.battles, self.how
        )
    }
}

/// A run's games and what it takes to play any of them again.
#[derive(Debug, Clone)]
pub struct RunGames {
    pub game: Game,
    pub options: SimOptions,
    pub rows: Vec<GameRow>,
}

/// The table; a click on a row asks for that game in the Replay tab.
pub fn table(ui: &mut Ui, games: &RunGames) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.separator();
    ui.label(RichText::new(format!("Games ({})", games.rows.len())).strong())
        .on_hover_text("Click a game to replay it move by move (it is played again from its seed)");
    ui.label(
        RichText::new(format!(
            "{:>6}  {:<8} {:>7}  {:>5}  {:>7}  how",
            "game", "winner", "VP", "years", "battles"
        ))
        .monospace()
        .weak(),
    );
    let row_height = ui.text_style_height(&egui::TextStyle::Monospace) + 4.0;
    egui::ScrollArea::vertical()
        .id_salt("sim_games")
        .max_height(260.0)
        .show_rows(ui, row_height, games.rows.len(), |ui, range| {
            for row in &games.rows[range] {
                let text = row.text();
                let colour = row.winner.map_or(theme::DRAW, theme::side);
                let clicked = ui
                    .selectable_label(false, RichText::new(text).monospace().color(colour))
                    .on_hover_text(format!("Replay game {}", row.index))
                    .clicked();
                if clicked {
                    actions.push(Action::Replay(Box::new(ReplaySource::Simulated {
                        game: Box::new(games.game.clone()),
                        options: games.options.clone(),
                        index: row.index,
                    })));
                }
            }
        });
    actions
}
