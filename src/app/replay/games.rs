//! The games of a simulation run as a table in the Simulate tab: winner,
//! VP, years and battles of each, and a click on a row opens that game in
//! the Replay tab, re-played from its seeds (the run's seed and the game's
//! index), players and rule set. The rows are kept in the window's run
//! result only, not in the JSON report.

use egui::{RichText, Ui};

use crate::app::{ReplaySource, Request, theme};
use crate::engine::{EndReason, Game};
use crate::scenario::model::Side;
use crate::sim::runs::options::SimOptions;
use crate::sim::runs::report::GameSummary;

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

impl From<&GameSummary> for GameRow {
    fn from(r: &GameSummary) -> GameRow {
        GameRow {
            index: r.index,
            winner: r.winner,
            how: r.how,
            vp: r.vp,
            years: r.year,
            battles: r.stats.battles,
        }
    }
}

impl GameRow {
    /// The row as the table prints it.
    pub fn text(&self) -> String {
        let winner = self.winner.map_or("draw".to_string(), |s| s.to_string());
        format!(
            "{:>6}  {:<8} {:>3}-{:<3}  {:>5}  {:>7}  {}",
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

/// A kind of ending, as the "how and when games end" chart draws its bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Won by sudden death (1.2) in this year's winter.
    SuddenDeath {
        year: u8,
        winner: Side,
    },
    /// Won after the last year, on VP or Rome's tie-break (1.2).
    AfterLastYear {
        winner: Side,
    },
    Draw,
}

impl Ending {
    fn matches(&self, row: &GameRow) -> bool {
        match *self {
            Ending::SuddenDeath { year, winner } => {
                row.how == EndReason::SuddenDeath
                    && row.winner == Some(winner)
                    && row.years.max(1) == year
            }
            Ending::AfterLastYear { winner } => {
                matches!(row.how, EndReason::VictoryPoints | EndReason::RomeTieBreak)
                    && row.winner == Some(winner)
            }
            Ending::Draw => row.winner.is_none(),
        }
    }
}

impl RunGames {
    /// The first game of the run that ended as `ending`, to show as its
    /// example.
    pub fn example_of(&self, ending: Ending) -> Option<u64> {
        self.rows
            .iter()
            .find(|r| ending.matches(r))
            .map(|r| r.index)
    }

    /// Asks for game `index` in the Replay tab.
    pub fn replay(&self, index: u64) -> Request {
        Request::Replay(Box::new(ReplaySource::Simulated {
            game: Box::new(self.game.clone()),
            options: self.options.clone(),
            index,
        }))
    }
}

/// The table; a click on a row asks for that game in the Replay tab.
pub(in crate::app) fn table(ui: &mut Ui, games: &RunGames) -> Vec<Request> {
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
                    actions.push(games.replay(row.index));
                }
            }
        });
    actions
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(index: u64, winner: Option<Side>, how: EndReason, years: u8) -> GameRow {
        GameRow {
            index,
            winner,
            how,
            vp: [0, 0],
            years,
            battles: 0,
        }
    }

    #[test]
    fn an_example_game_is_the_first_of_the_run_that_ended_that_way() {
        let games = RunGames {
            game: crate::test_support::published("rules-2.0"),
            options: SimOptions::new(
                5,
                1,
                crate::ai::AiSpec::Heuristic,
                crate::ai::AiSpec::Heuristic,
            ),
            rows: vec![
                row(0, Some(Side::Pompey), EndReason::VictoryPoints, 5),
                row(1, Some(Side::Caesar), EndReason::SuddenDeath, 3),
                row(2, Some(Side::Pompey), EndReason::SuddenDeath, 3),
                row(3, Some(Side::Caesar), EndReason::RomeTieBreak, 5),
                row(4, None, EndReason::Draw, 5),
            ],
        };
        let sudden = |year, winner| Ending::SuddenDeath { year, winner };
        assert_eq!(games.example_of(sudden(3, Side::Caesar)), Some(1));
        assert_eq!(games.example_of(sudden(3, Side::Pompey)), Some(2));
        assert_eq!(games.example_of(sudden(2, Side::Pompey)), None);
        let after = |winner| Ending::AfterLastYear { winner };
        assert_eq!(games.example_of(after(Side::Pompey)), Some(0));
        assert_eq!(games.example_of(after(Side::Caesar)), Some(3));
        assert_eq!(games.example_of(Ending::Draw), Some(4));
    }
}
