//! Tuning a player from the Simulate tab: `tune`'s settings, and the
//! finished run (how the numbers moved, what the tuned player gains against
//! its opponent) with saving the player file and using the player at once.
//! The run itself goes through the Simulate tab's background runner, like
//! every other run there; nothing is computed here.

use std::path::Path;

use egui::{RichText, Ui};

use crate::ai::{AiSpec, PlayerNumbers, TunedHeuristic};
use crate::app::player_picker::{self, Chosen, Offer, RankedFor};
use crate::app::{FilePurpose, PlayerUse, Request, form};
use crate::scenario::model::Side;
use crate::sim::players::tune::{Effort, TuneOptions, TuneReport};
use crate::sim::runs::options::OptionsError;

/// The tune panel's settings; the rule set is the one in play, the seed
/// and threads are the Simulate tab's.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneSettings {
    /// The player every candidate meets and the search starts from: the
    /// default heuristic or a player file.
    pub(crate) opponent: AiSpec,
    /// The side whose numbers are tuned against the opponent's other side;
    /// `None`: one set for both sides.
    pub(crate) side: Option<Side>,
    /// Even: each seed is played once from each side.
    pub(crate) games_per_candidate: u64,
    pub(crate) population: usize,
    pub(crate) generations: u64,
    /// The first step, as a relative change of every number.
    pub(crate) step: f64,
    /// Games of the final check on seeds the search never played (even).
    pub(crate) check_games: u64,
}

impl Default for TuneSettings {
    fn default() -> Self {
        let cli_default = TuneOptions {
            effort: Effort {
                budget: 0,
                games_per_candidate: 2,
                population: 0,
                step: 0.3,
                check_games: 0,
                seed: 1,
            },
            start: PlayerNumbers::default(),
            side: None,
            against: Vec::new(),
        };
        // Small enough to finish in a minute or so on two cores: a first
        // look, not a champion (the CLI runs the long ones).
        TuneSettings {
            opponent: AiSpec::Heuristic,
            side: None,
            games_per_candidate: 20,
            population: cli_default.population(),
            generations: 10,
            step: cli_default.effort.step,
            check_games: 200,
        }
    }
}

impl TuneSettings {
    /// The run these settings ask for, checked as the CLI checks it.
    pub(crate) fn options(&self, seed: u64) -> Result<TuneOptions, OptionsError> {
        let start = match &self.opponent {
            AiSpec::TunedHeuristic(t) => t.numbers,
            _ => PlayerNumbers::default(),
        };
        let population = self.population.max(1);
        let options = TuneOptions {
            effort: Effort {
                budget: self.generations * population as u64 * self.games_per_candidate,
                games_per_candidate: self.games_per_candidate,
                population,
                step: self.step,
                check_games: self.check_games,
                seed,
            },
            start,
            side: self.side,
            against: Vec::new(),
        };
        options.check()?;
        Ok(options)
    }

    /// Plays against (and starts from) the player file at `path`.
    pub(crate) fn play_against(
        &mut self,
        path: &Path,
    ) -> Result<(), crate::scenario::format::LoadError> {
        self.opponent = AiSpec::player_file(path)?;
        Ok(())
    }
}

/// The settings as a grid; a request when the opponent is to be read
/// from a file.
pub(super) fn settings(
    ui: &mut Ui,
    s: &mut TuneSettings,
    ranked_for: RankedFor<'_>,
) -> Option<Request> {
    let mut request = None;
    egui::Grid::new("tune_options")
        .num_columns(2)
        .spacing([10.0, 4.0])
        .show(ui, |ui| {
            let l = ui.label("Opponent");
            let (combo, chosen) = player_picker::pick_player(
                ui,
                "tune_opponent",
                &mut s.opponent,
                ranked_for,
                Offer::Heuristics,
            );
            combo.labelled_by(l.id).on_hover_text(
                "The player every candidate meets on both sides, and where the search starts",
            );
            // The side is not used: the file is tune's opponent.
            if chosen == Some(Chosen::FromFile) {
                request = Some(Request::Choose(FilePurpose::OpenPlayer(
                    Side::Caesar,
                    PlayerUse::TuneOpponent,
                )));
            }
            ui.end_row();
            side_row(ui, s);
            number_rows(ui, s);
        });
    ui.label(
        RichText::new(format!(
            "Rule set: {}; seed and threads as set above. {} games in all.",
            ranked_for.variant,
            s.options(0).map_or(0, |o| o.total_games())
        ))
        .weak(),
    );
    request
}

/// Which side's numbers to tune, as a grid row.
fn side_row(ui: &mut Ui, s: &mut TuneSettings) {
    let name = |side: Option<Side>| match side {
        None => "Both sides, one set of numbers".to_string(),
        Some(side) => format!("{side} only, against the opponent's {}", side.other()),
    };
    let sides = [None, Some(Side::Caesar), Some(Side::Pompey)];
    form::row(
        ui,
        "Tune",
        form::choice("tune_side", &mut s.side, sides, name),
    )
    .on_hover_text(
        "Caesar and Pompey play different games: tune one side's numbers against the \
         opponent's other side, and the player file holds numbers per side",
    );
}

/// Games, population, generations, step and check games, as grid rows.
fn number_rows(ui: &mut Ui, s: &mut TuneSettings) {
    form::row(
        ui,
        "Games per candidate",
        egui::DragValue::new(&mut s.games_per_candidate).range(2..=100_000),
    )
    .on_hover_text("Half as Caesar, half as Pompey against the opponent: more games, less noise");
    form::row(
        ui,
        "Population",
        egui::DragValue::new(&mut s.population).range(2..=999),
    )
    .on_hover_text("Candidates per generation");
    form::row(
        ui,
        "Generations",
        egui::DragValue::new(&mut s.generations).range(1..=10_000),
    );
    form::row(
        ui,
        "Step",
        egui::DragValue::new(&mut s.step)
            .range(0.01..=5.0)
            .speed(0.01),
    )
    .on_hover_text("The first step of the search: 0.3 tries numbers about 30% either way");
    form::row(
        ui,
        "Check games",
        egui::DragValue::new(&mut s.check_games).range(0..=1_000_000),
    )
    .on_hover_text("Games against the opponent on seeds the search never saw (0: no check)");
    // Each seed is played from both sides: the counts stay even.
    s.games_per_candidate += s.games_per_candidate % 2;
    s.check_games += s.check_games % 2;
}

/// Runs of up to this many generations list every one.
const ALL_GENERATIONS_UP_TO: usize = 20;

/// What to do with the tuned player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TuneUse {
    /// A side's AI in the Simulate tab.
    Simulate(Side),
    /// A seat of the next game in the Play tab.
    Play(Side),
    LadderRung,
}

/// The tuned player as a spec: the saved file's, or (not yet saved) named
/// for where it came from.
pub(super) fn tuned_player(report: &TuneReport, saved: Option<&Path>) -> AiSpec {
    let path = match saved {
        Some(p) => p.display().to_string(),
        None => format!(
            "unsaved, tuned for {} with seed {}",
            report.variant, report.options.effort.seed
        ),
    };
    AiSpec::TunedHeuristic(Box::new(TunedHeuristic {
        path,
        numbers: report.tuned,
    }))
}

/// The finished tune: its gain, its generations, how the numbers moved,
/// and saving and using the player. Returns requests (saving) and the use
/// chosen.
pub(super) fn show(
    ui: &mut Ui,
    report: &TuneReport,
    saved: Option<&Path>,
) -> (Vec<Request>, Option<TuneUse>) {
    let o = &report.options.effort;
    ui.label(
        RichText::new(format!(
            "Tuned for {}: {} generation(s) of {} candidates, {} games each (seed {}), {} games in {:.1} s",
            report.variant,
            report.generations.len(),
            report.population,
            o.games_per_candidate,
            o.seed,
            report.games_played,
            report.elapsed_seconds
        ))
        .strong(),
    );
    if let Some(why) = &report.stopped_early {
        ui.label(format!("Stopped before the budget: {why}"));
    }
    let (requests, used) = use_buttons(ui, report, saved);
    gain(ui, report);
    generations(ui, report);
    changes(ui, report);
    (requests, used)
}

/// "Save player file…" and the places to use the tuned player.
fn use_buttons(
    ui: &mut Ui,
    report: &TuneReport,
    saved: Option<&Path>,
) -> (Vec<Request>, Option<TuneUse>) {
    let mut requests = Vec::new();
    let mut used = None;
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Save player file…")
            .on_hover_text("Write the tuned numbers as a player file (heuristic:FILE plays it)")
            .clicked()
        {
            requests.push(Request::Choose(FilePurpose::SavePlayer {
                text: report.player_file(),
            }));
        }
        match saved {
            Some(path) => ui.label(format!("Saved as {}", path.display())),
            None => ui.label(RichText::new("Not saved yet").weak()),
        };
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Use it:");
        for (text, to) in [
            ("Caesar AI", TuneUse::Simulate(Side::Caesar)),
            ("Pompey AI", TuneUse::Simulate(Side::Pompey)),
            ("Caesar's seat in Play", TuneUse::Play(Side::Caesar)),
            ("Pompey's seat in Play", TuneUse::Play(Side::Pompey)),
            ("A ladder rung", TuneUse::LadderRung),
        ] {
            if ui.button(text).clicked() {
                used = Some(to);
            }
        }
    });
    (requests, used)
}

/// The tuned player against its opponent on unseen seeds, and how the
/// mirror match moves with it.
fn gain(ui: &mut Ui, report: &TuneReport) {
    let Some(c) = &report.check else {
        ui.label(RichText::new("No check games: the gain was not measured.").weak());
        return;
    };
    ui.label(
        RichText::new(format!(
            "Against its opponent on {} games the search never saw: scores {:.1}% ({:.1}–{:.1}%), {:+.1} points over an even match",
            c.games,
            c.score * 100.0,
            c.score_ci95[0] * 100.0,
            c.score_ci95[1] * 100.0,
            (c.score - 0.5) * 100.0
        ))
        .strong(),
    );
    egui::Grid::new("tune_check").num_columns(2).show(ui, |ui| {
        for (what, e) in [
            ("Wins as Caesar", &c.as_caesar),
            ("Wins as Pompey", &c.as_pompey),
            ("Caesar's mirror share, opponent", &c.mirror_start),
            ("Caesar's mirror share, tuned", &c.mirror_tuned),
        ] {
            ui.label(what);
            ui.label(e.percent_text(0));
            ui.end_row();
        }
        let d = &c.mirror_difference;
        ui.label("Mirror difference");
        ui.label(format!(
            "{:+.1} points (p = {:.2})",
            d.estimate * 100.0,
            d.p_value
        ));
        ui.end_row();
        if let Some(side) = report.options.side {
            // Only the tuned side's numbers differ between the mirrors.
            let gain = match side {
                Side::Caesar => d.estimate,
                Side::Pompey => -d.estimate,
            };
            ui.label(format!("{side}'s gain"));
            ui.label(format!("{:+.1} points", gain * 100.0));
            ui.end_row();
        }
    });
}

/// Each generation's best and median score against the opponent: every
/// generation of a short run, else the first, every tenth and the last, as
/// the CLI prints them.
fn generations(ui: &mut Ui, report: &TuneReport) {
    ui.label(RichText::new("Generations: score against the opponent").strong());
    let last = report.generations.len().saturating_sub(1);
    egui::Grid::new("tune_generations")
        .num_columns(4)
        .striped(true)
        .show(ui, |ui| {
            for head in ["Generation", "Best", "Median", "Step"] {
                ui.label(RichText::new(head).strong());
            }
            ui.end_row();
            for g in &report.generations {
                let shown = report.generations.len() <= ALL_GENERATIONS_UP_TO
                    || g.generation % 10 == 0
                    || g.generation as usize == last;
                if shown {
                    ui.label(g.generation.to_string());
                    ui.label(format!("{:.1}%", g.best * 100.0));
                    ui.label(format!("{:.1}%", g.median * 100.0));
                    ui.label(format!("{:.3}", g.sigma));
                    ui.end_row();
                }
            }
        });
}

/// The numbers that moved most, largest relative change first.
fn changes(ui: &mut Ui, report: &TuneReport) {
    ui.label(
        RichText::new(
            "Numbers that moved most: the opponent's, the tuned player's, and their ratio",
        )
        .strong(),
    );
    egui::Grid::new("tune_changes")
        .num_columns(4)
        .striped(true)
        .show(ui, |ui| {
            for (name, start, tuned) in report.changes().into_iter().take(8) {
                ui.label(name);
                ui.label(format!("{start:.3}"));
                ui.label(format!("{tuned:.3}"));
                ui.label(format!("×{:.2}", tuned / start));
                ui.end_row();
            }
        });
}
