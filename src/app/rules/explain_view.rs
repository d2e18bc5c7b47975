//! "Explain the differences" in the Rules tab: two rule sets picked (the
//! one in force, the built-in ones, the variant file the window has open),
//! then [`crate::sim::questions::explain`] run on the Simulate tab's background runner
//! with progress and cancel. The finished explanation is a bar chart of each
//! field's effect on Caesar's share with its 95% interval, the whole
//! difference beside the sum of the fields one at a time, and the report's
//! own sentence per field; a bar or a field's sentence shows the field in the
//! rule table. Every figure and sentence comes from [`ExplainReport`].

use std::time::Duration;

use egui::{RichText, Stroke, Ui};
use egui_plot::{Bar, BarChart, Line, Plot, VLine};

use crate::ai::AiSpec;
use crate::app::player_picker::{self, Chosen, Offer, Ranked, RankedFor, SetupRatings};
use crate::app::simulate::error::RunError;
use crate::app::simulate::panel::{ExplainRequest, ExplainRun, SimPanel};
use crate::app::state::{AppState, NoGame, game_of, load_rules};
use crate::app::{ExportKind, FilePurpose, PlayerUse, Request, theme};
use crate::scenario::format::LoadError;
use crate::scenario::model::Side;
use crate::scenario::rules::{BUILTIN_VARIANTS, RuleSet, is_bare_name};
use crate::sim::questions::explain::{
    ExplainLadder, ExplainReport, FieldEffect, SetupChangeError, plan_setup_changes,
};
use crate::sim::questions::sweep::{Axis, AxisError};
use crate::sim::runs::options::SimOptions;

/// A rule set the explanation can be asked about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleChoice {
    /// The rule set in force in the window, with any switch changed in the
    /// rule table.
    InForce,
    /// A built-in rule set or a variant file, by name or path.
    Named(String),
}

/// The explanation's settings and its last result.
pub struct ExplainPanel {
    /// A, then B: the explanation says why B differs from A.
    pub rule_sets: [RuleChoice; 2],
    /// Games per rule set played (the same seeds for every one).
    pub games: u64,
    pub seed: u64,
    /// Changes to the setup B is played on, one a line
    /// (`deploy:pompey:Legio 3=Roma`, `strength:caesar:Antonius=3`), each
    /// explained as one more field (as `explain --set`).
    pub setup_changes: String,
    /// Also switch the fields the explanation marks as interacting together,
    /// pair by pair (as `explain --pairs`).
    pub measure_pairs: bool,
    /// Whether the last explanation started was asked for its pairs.
    pairs_asked: bool,
    /// Whether to play the explanation again with `other_player` on both
    /// sides and say whether each field's effect agrees (as `explain
    /// --ladder`): an explanation that moves with the player is not yet
    /// one of the setup.
    pub check_with_other: bool,
    pub other_player: AiSpec,
    /// The players (both sides play under A and B alike).
    caesar: AiSpec,
    pompey: AiSpec,
    /// Whether A was picked here (else it follows the Differences' choice).
    a_picked: bool,
    /// Whether a player was picked here (else both sides play the balance
    /// measured for rule set A, else `fast` for A, as `caesar-workbench
    /// explain` does).
    players_picked: bool,
    /// What the default players were resolved for: A's name and the
    /// scenario's and rules' revisions (they are files: not read every
    /// frame).
    default_for: Option<(String, u64, u64)>,
    /// The last explanation (with its exports), or why it could not run.
    finished: Option<Result<Finished, ExplainError>>,
}

/// Why an explanation could not start, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    #[error("Open a scenario first: the explanation plays it")]
    NoScenario,
    #[error("{a} and {b} play the same game: there is no difference to explain")]
    SameGame { a: String, b: String },
    /// The rule set in force did not load: the loader's words.
    #[error("the rule set in force could not be loaded: {0}")]
    RulesInForce(String),
    #[error(transparent)]
    Rules(#[from] LoadError),
    #[error(transparent)]
    Game(#[from] NoGame),
    #[error("Setup changes: {0}")]
    SetupLine(#[from] AxisError),
    #[error("Setup changes: {0}")]
    SetupChanges(#[from] SetupChangeError),
    /// The Simulate tab's runner refused the run or the run failed.
    #[error(transparent)]
    Runner(#[from] RunError),
}

/// A finished explanation and its files, made once when it arrives.
struct Finished {
    report: ExplainReport,
    /// The same with the other player, and the agreement; and that report
    /// as `explain --ladder --json` writes it.
    ladder: Option<ExplainLadder>,
    ladder_json: Option<Result<String, serde_json::Error>>,
    /// Its question, a sentence per field (whether it differs between the
    /// players) and whether all agree: worked out once, not every frame.
    agreement: Option<Agreement>,
    json: Result<String, serde_json::Error>,
    csv: String,
    svg: String,
}

impl Default for ExplainPanel {
    fn default() -> Self {
        ExplainPanel {
            rule_sets: [
                RuleChoice::Named("rules-1.1".to_string()),
                RuleChoice::InForce,
            ],
            // Small enough for a look in seconds; a finding wants thousands.
            games: 200,
            seed: 1,
            setup_changes: String::new(),
            measure_pairs: false,
            pairs_asked: false,
            check_with_other: false,
            other_player: AiSpec::Heuristic,
            caesar: AiSpec::Heuristic,
            pompey: AiSpec::Heuristic,
            a_picked: false,
            players_picked: false,
            default_for: None,
            finished: None,
        }
    }
}

/// What a click in the explanation asks of the Rules tab.
pub(super) enum Clicked {
    /// Show this field in the rule table.
    Field(String),
    /// Ask the window for something (a file to export to, a player file).
    Request(Request),
}

impl ExplainPanel {
    /// The last explanation, when one finished.
    pub fn report(&self) -> Option<&ExplainReport> {
        match &self.finished {
            Some(Ok(f)) => Some(&f.report),
            _ => None,
        }
    }

    /// The last explanation and the same with the other player, when it
    /// was checked with one.
    pub fn ladder(&self) -> Option<&ExplainLadder> {
        match &self.finished {
            Some(Ok(f)) => f.ladder.as_ref(),
            _ => None,
        }
    }

    /// Why the last explanation could not run or stopped.
    pub fn error(&self) -> Option<&ExplainError> {
        match &self.finished {
            Some(Err(e)) => Some(e),
            _ => None,
        }
    }

    /// Explains why `b` differs from `a` next time (A no longer follows the
    /// Differences' choice).
    pub fn set_rule_sets(&mut self, a: RuleChoice, b: RuleChoice) {
        self.rule_sets = [a, b];
        self.a_picked = true;
    }

    /// The players, [Caesar, Pompey]: the balance measured for rule set A
    /// (else `fast` for A) until one is picked.
    pub fn players(&self) -> [&AiSpec; 2] {
        [&self.caesar, &self.pompey]
    }

    /// Picks both players (they no longer follow `fast`).
    pub fn set_players(&mut self, caesar: AiSpec, pompey: AiSpec) {
        self.caesar = caesar;
        self.pompey = pompey;
        self.players_picked = true;
    }

    /// Plays `side` with the heuristic player of the file at `path`.
    pub(crate) fn load_player(
        &mut self,
        side: Side,
        path: &std::path::Path,
    ) -> Result<(), LoadError> {
        self.players_picked = true;
        crate::app::player_picker::pick_player_file(
            [&mut self.caesar, &mut self.pompey],
            side,
            path,
        )
    }

    /// Checks the explanation with the heuristic player of the file at
    /// `path`.
    pub(crate) fn load_other_player(&mut self, path: &std::path::Path) -> Result<(), LoadError> {
        self.other_player = AiSpec::player_file(path)?;
        self.check_with_other = true;
        Ok(())
    }

    /// Until a player is picked here, both sides play the balance measured
    /// for rule set A on this setup (each side its equilibrium mix, one
    /// member a game), else `fast` for A: the command line's default players,
    /// so the same question gets the same answer in the window and at the
    /// command line.
    fn follow_default(&mut self, state: &AppState, setup: &SetupRatings) {
        if self.players_picked {
            return;
        }
        let a = match &self.rule_sets[0] {
            RuleChoice::InForce => state.variant().to_string(),
            RuleChoice::Named(name) => name.clone(),
        };
        let key = (a, state.scenario_revision(), state.rules_revision());
        if self.default_for.as_ref() == Some(&key) {
            return;
        }
        let spec = equilibrium_of_a(&self.rule_sets[0], state).unwrap_or_else(|| {
            let a = RankedFor {
                variant: &key.0,
                setup,
            };
            player_picker::here(Ranked::Fast, a).map_or(AiSpec::Heuristic, |fast| fast.spec)
        });
        self.caesar = spec.clone();
        self.pompey = spec;
        self.default_for = Some(key);
    }

    /// The settings, the button that starts the explanation, its progress
    /// and cancel. `compare_with` is the Differences' other rule set: A
    /// follows it until A is picked here.
    pub(super) fn controls(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        setup: &SetupRatings,
        sim: &mut SimPanel,
        compare_with: &str,
    ) -> Vec<Clicked> {
        let mut clicks = Vec::new();
        if !self.a_picked {
            self.rule_sets[0] = RuleChoice::Named(compare_with.to_string());
        }
        if let Some(result) = sim.take_explain() {
            self.finished = Some(result.map(Finished::of).map_err(ExplainError::Runner));
        }
        self.follow_default(state, setup);
        let ranked_for = RankedFor {
            variant: state.variant(),
            setup,
        };
        ui.label(RichText::new("Explain the differences").strong())
            .on_hover_text(
                "Why B differs from A for Caesar, rule by rule: every field in which they differ is switched alone, at A and at B, over the same seeds (as `caesar-workbench explain`)",
            );
        egui::Grid::new("explain_settings")
            .num_columns(4)
            .spacing([10.0, 4.0])
            .show(ui, |ui| {
                for (k, word) in ["Rule set A", "Rule set B"].into_iter().enumerate() {
                    let l = ui.label(word);
                    let before = self.rule_sets[k].clone();
                    rule_set_combo(ui, k, &mut self.rule_sets[k], state).labelled_by(l.id);
                    self.a_picked |= k == 0 && self.rule_sets[0] != before;
                }
                ui.end_row();
                for side in [Side::Caesar, Side::Pompey] {
                    clicks.extend(self.player_cells(ui, side, ranked_for));
                }
                ui.end_row();
                for side in [Side::Caesar, Side::Pompey] {
                    let ai = match side {
                        Side::Caesar => &mut self.caesar,
                        Side::Pompey => &mut self.pompey,
                    };
                    // A search's playouts: a row of its own, under its menu.
                    player_picker::budget_row(ui, &format!("{side} playouts"), ai);
                }
                let l = ui.label("Games per rule set");
                ui.add(egui::DragValue::new(&mut self.games).range(1..=1_000_000))
                    .labelled_by(l.id)
                    .on_hover_text("A few hundred show the large effects in seconds; small effects need thousands");
                let l = ui.label("Explain seed");
                ui.add(egui::DragValue::new(&mut self.seed)).labelled_by(l.id);
                ui.end_row();
            });
        self.setup_changes_row(ui);
        clicks.extend(self.other_player_row(ui, ranked_for));
        self.run_buttons(ui, state, sim);
        clicks
    }

    /// B's setup changes and whether pairs are measured, in a row of its
    /// own: in the settings' grid it would widen the columns beside it.
    fn setup_changes_row(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let l = ui.label("Setup changes (B)").on_hover_text(
                "B is played on the setup with these changes, A on the setup as it is; each change is explained as one more field (as `explain --set`)",
            );
            ui.add(
                egui::TextEdit::multiline(&mut self.setup_changes)
                    .desired_rows(2)
                    .hint_text("deploy:pompey:Legio 3=Roma\nstrength:caesar:Antonius=3"),
            )
            .labelled_by(l.id);
            ui.checkbox(&mut self.measure_pairs, "Measure interacting pairs")
                .on_hover_text(
                    "Then switch the fields marked as interacting together, pair by pair, against the sum of each alone (as `explain --pairs`)",
                );
        });
    }

    /// "Check with another player": the player that plays the explanation
    /// again on both sides.
    fn other_player_row(&mut self, ui: &mut Ui, ranked_for: RankedFor<'_>) -> Option<Clicked> {
        let mut clicked = None;
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.check_with_other, "Check with another player")
                .on_hover_text(
                    "Play the explanation again with this player on both sides, and say whether each field's effect agrees between the two players (as `explain --ladder`): an explanation that moves with the player says more about the players than about the rules",
                );
            ui.add_enabled_ui(self.check_with_other, |ui| {
                let (_, chosen) = player_picker::pick_player(
                    ui,
                    "explain_other_player",
                    &mut self.other_player,
                    ranked_for,
                    Offer::Players,
                );
                if chosen == Some(Chosen::FromFile) {
                    clicked = Some(Clicked::Request(Request::Choose(FilePurpose::OpenPlayer(
                        Side::Caesar,
                        PlayerUse::ExplainOther,
                    ))));
                }
                player_picker::budget_row(ui, "Other player's playouts", &mut self.other_player);
            });
        });
        clicked
    }

    /// A side's player: its label and the menu every tab uses, two cells.
    fn player_cells(
        &mut self,
        ui: &mut Ui,
        side: Side,
        ranked_for: RankedFor<'_>,
    ) -> Option<Clicked> {
        let ai = match side {
            Side::Caesar => &mut self.caesar,
            Side::Pompey => &mut self.pompey,
        };
        let l = ui.label(format!("{side} player")).on_hover_text(
            "Until you pick a player, both sides play the balance measured for rule set A on this setup (each side its equilibrium mix, one member a game), or `fast` for A where none is measured: as `caesar-workbench explain`",
        );
        let (combo, chosen) = player_picker::pick_player(
            ui,
            ("explain_ai", side.index()),
            ai,
            ranked_for,
            Offer::Players,
        );
        combo.labelled_by(l.id);
        match chosen {
            Some(Chosen::Player) => {
                self.players_picked = true;
                None
            }
            Some(Chosen::FromFile) => Some(Clicked::Request(Request::Choose(
                FilePurpose::OpenPlayer(side, PlayerUse::Explain),
            ))),
            None => None,
        }
    }

    /// "Explain the differences", Cancel, and the progress of a run.
    fn run_buttons(&mut self, ui: &mut Ui, state: &AppState, sim: &mut SimPanel) {
        let progress = sim.explain_progress();
        ui.horizontal(|ui| {
            let start = ui
                .add_enabled(
                    !sim.is_running(),
                    egui::Button::new("Explain the differences"),
                )
                .on_disabled_hover_text(
                    "A run is going on (Simulate tab): wait for it or cancel it",
                );
            if start.clicked() {
                self.finished = self.start(state, sim).err().map(Err);
            }
            if ui
                .add_enabled(progress.is_some(), egui::Button::new("Cancel explanation"))
                .clicked()
            {
                sim.cancel();
            }
        });
        if let Some((done, total, seconds)) = progress {
            ui.add(
                egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                    .text(format!("{done} / {total} games, {seconds:.0} s")),
            );
            ui.ctx().request_repaint_after(Duration::from_millis(100));
        }
    }

    /// Starts the explanation on the Simulate tab's runner, or says why not.
    fn start(&mut self, state: &AppState, sim: &mut SimPanel) -> Result<(), ExplainError> {
        let doc = state.resolved().ok_or(ExplainError::NoScenario)?;
        let [a, b] = [0, 1].map(|k| rules_of(&self.rule_sets[k], state));
        let ((a_name, a_rules), (b_name, b_rules)) = (a?, b?);
        if a_rules.play_digest() == b_rules.play_digest() {
            return Err(ExplainError::SameGame {
                a: a_name,
                b: b_name,
            });
        }
        let a_game = game_of(Some(doc), a_rules, &a_name)?;
        let b_game = game_of(Some(doc), b_rules, &b_name)?;
        let axes = self
            .setup_changes
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(str::parse::<Axis>)
            .collect::<Result<Vec<Axis>, AxisError>>()?;
        let (b_game, changes) = if axes.is_empty() {
            (b_game, Vec::new())
        } else {
            plan_setup_changes(doc, &a_game, &b_game.rules, &axes)?
        };
        let options = SimOptions::new(
            self.games.max(1),
            self.seed,
            self.caesar.clone(),
            self.pompey.clone(),
        );
        sim.start_explain(ExplainRequest {
            games: [a_game, b_game],
            variants: [a_name, b_name],
            options,
            changes,
            pairs: self.measure_pairs,
            check_with: self.check_with_other.then(|| self.other_player.clone()),
        })
        .map_err(ExplainError::Runner)?;
        self.pairs_asked = self.measure_pairs;
        Ok(())
    }

    /// The finished explanation: exports, chart, sentences. A click on a
    /// bar or a field's name asks for that field in the rule table.
    pub(super) fn results(&self, ui: &mut Ui, highlighted: Option<&str>) -> Vec<Clicked> {
        let mut clicks = Vec::new();
        let finished = match &self.finished {
            None => {
                ui.label(
                    RichText::new(
                        "Pick two rule sets and explain their differences: each field's effect on Caesar's share appears here.",
                    )
                    .weak(),
                );
                return clicks;
            }
            Some(Err(e)) => {
                ui.colored_label(theme::ERROR, format!("The explanation stopped: {e}"));
                return clicks;
            }
            Some(Ok(f)) => f,
        };
        let r = &finished.report;
        // Clear of the scroll bar, which floats over the right edge: no
        // sentence is cut there.
        let bar = ui.spacing().scroll.bar_width + ui.spacing().scroll.bar_outer_margin;
        ui.set_max_width(ui.available_width() - bar - 4.0);
        clicks.extend(finished.export_buttons(ui));
        // Wrapped: the headline names both player files, wider than the panel.
        ui.add(egui::Label::new(RichText::new(drawable(&r.headline())).strong()).wrap());
        ui.add(egui::Label::new(drawable(&r.whole_sentence())).wrap());
        let ranked = r.ranked();
        clicks.extend(effect_chart(ui, r, &ranked, highlighted));
        for (field, effect) in &ranked {
            let sentence = drawable(&plain_sentence(field, r.field_sentence(field, effect)));
            let text = if effect.interacting {
                RichText::new(sentence).color(theme::WARNING)
            } else {
                RichText::new(sentence)
            };
            // A change to the setup is no rule: there is nothing to show.
            if field.is_setup_change() {
                ui.add(egui::Label::new(text).wrap());
                continue;
            }
            let hover = if field.explain.is_empty() {
                format!("Click to show {} in the rule table", field.field)
            } else {
                format!(
                    "{}\nClick to show {} in the rule table",
                    field.explain, field.field
                )
            };
            let line = ui
                .add(egui::Label::new(text).sense(egui::Sense::click()))
                .on_hover_cursor(egui::CursorIcon::PointingHand)
                .on_hover_text(hover);
            if line.clicked() {
                clicks.push(Clicked::Field(field.field.clone()));
            }
        }
        let colour = if r.parts_miss_the_whole() {
            theme::WARNING
        } else {
            ui.visuals().text_color()
        };
        ui.label(RichText::new(drawable(&r.sum_sentence())).color(colour));
        for pair in &r.pairs {
            let interacts = pair.not_together.is_none() && pair.interaction().significant;
            sentence(ui, &pair.sentence(), interacts);
        }
        if self.pairs_asked && r.pairs.is_empty() {
            ui.label(
                RichText::new("No field is marked as interacting, so there is no pair to measure.")
                    .weak(),
            );
        }
        if let Some(agreement) = &finished.agreement {
            agreement.show(ui);
        }
        clicks
    }
}

/// A field's plain name, from the rule table's line for it: "Caesar is
/// Player 1 on the game's first turn" for `caesar_player1_first_turn`
/// (the line's rulebook tag and its second clause left out); the field's
/// name in words where the line does not start with one.
pub(crate) fn plain_name(field: &str, explain: &str) -> String {
    let line = explain
        .split_once(": ")
        .filter(|(tag, _)| tag.len() <= 4 && tag.contains('.'))
        .map_or(explain, |(_, rest)| rest);
    let first = line
        .split([';', ',', '.'])
        .next()
        .unwrap_or_default()
        .trim();
    if first.split_whitespace().count() >= 2 && first.starts_with(char::is_uppercase) {
        return first.to_string();
    }
    let words = field.replace('_', " ");
    let mut chars = words.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// A value as a designer reads it: a switch "on" or "off", a choice in
/// words ("AnyCity" is "any city"), anything else as it is.
pub(crate) fn value_words(value: &str) -> String {
    match value {
        "true" => "on".to_string(),
        "false" => "off".to_string(),
        v if v.chars().all(char::is_alphanumeric) && v.starts_with(char::is_uppercase) => {
            let mut out = String::new();
            for (i, c) in v.chars().enumerate() {
                if c.is_uppercase() && i > 0 {
                    out.push(' ');
                }
                out.extend(c.to_lowercase());
            }
            out
        }
        v => v.to_string(),
    }
}

/// A field's sentence of the report in the rule table's plain words: its
/// plain name for `field_name`, its values in words ("off → on").
pub fn plain_sentence(
    field: &crate::sim::questions::explain::FieldCounts,
    sentence: String,
) -> String {
    let name = plain_name(&field.field, &field.explain);
    let coded = format!(
        "{} ({}: {} → {})",
        field.field, field.rule, field.a_value, field.b_value
    );
    if let Some(rest) = sentence.strip_prefix(&coded) {
        return format!(
            "{name} ({}: {} → {}){rest}",
            field.rule,
            value_words(&field.a_value),
            value_words(&field.b_value)
        );
    }
    match sentence.strip_prefix(&field.field) {
        Some(rest) => format!("{name}{rest}"),
        None => sentence,
    }
}

/// One of the report's sentences, wrapped; in orange when it `warns` (of an
/// interaction, or of a field that moves with the player).
fn sentence(ui: &mut Ui, text: &str, warns: bool) {
    let text = RichText::new(drawable(text));
    ui.add(
        egui::Label::new(if warns {
            text.color(theme::WARNING)
        } else {
            text
        })
        .wrap(),
    );
}

/// Whether each field's effect agrees with the other player, in the
/// report's own words.
struct Agreement {
    question: String,
    /// Each field's sentence, and whether its effect differs.
    fields: Vec<(String, bool)>,
    all_agree: bool,
    verdict: &'static str,
}

impl Agreement {
    fn of(ladder: &ExplainLadder) -> Agreement {
        let fields: Vec<(String, bool)> = ladder
            .agreement()
            .iter()
            .map(|a| {
                let text = a.sentence(&ladder.players);
                // The field by its plain name, as the rule table says it.
                let text = match ladder.rungs[1].fields.iter().find(|f| f.field == a.field) {
                    Some(f) => plain_sentence(f, text),
                    None => text,
                };
                (text, !a.unused && !a.agrees())
            })
            .collect();
        let all_agree = fields.iter().all(|(_, differs)| !differs);
        Agreement {
            question: ladder.question(),
            all_agree,
            fields,
            verdict: if all_agree {
                // No difference found is not agreement shown: with this many
                // games the test may miss a real one.
                "No field's effect differs beyond its interval between the two players. \
                 That does not show they agree: with this many games a real difference \
                 may go unseen, and neither player was measured to be the stronger."
            } else {
                ladder.verdict()
            },
        }
    }

    /// The question, each field (one that differs in orange), the verdict.
    fn show(&self, ui: &mut Ui) {
        ui.separator();
        ui.label(RichText::new(drawable(&self.question)).strong());
        for (text, differs) in &self.fields {
            sentence(ui, text, *differs);
        }
        let verdict = RichText::new(self.verdict).strong();
        ui.add(
            egui::Label::new(if self.all_agree {
                verdict
            } else {
                verdict.color(theme::WARNING)
            })
            .wrap(),
        );
    }
}

impl Finished {
    fn of(run: ExplainRun) -> Finished {
        let ExplainRun { report, ladder } = run;
        Finished {
            ladder_json: ladder.as_ref().map(json_file),
            agreement: ladder.as_ref().map(Agreement::of),
            ladder,
            json: json_file(&report),
            csv: report.csv(),
            svg: chart_svg(&report),
            report,
        }
    }

    /// Export JSON, CSV and the chart (SVG): each asks where, then writes
    /// atomically (a failure is shown in the status line).
    fn export_buttons(&self, ui: &mut Ui) -> Vec<Clicked> {
        let exportable = |json: &Result<String, serde_json::Error>| json.as_ref().ok().cloned();
        let mut clicks = Vec::new();
        let mut export = |kind, text: &String| {
            clicks.push(Clicked::Request(Request::Choose(FilePurpose::Export {
                kind,
                text: text.clone(),
            })));
        };
        ui.horizontal(|ui| {
            match &self.json {
                Ok(json) => {
                    if ui.button("Export JSON…").clicked() {
                        export(ExportKind::Json, json);
                    }
                }
                Err(e) => {
                    ui.colored_label(theme::ERROR, format!("No JSON export: {e}"));
                }
            }
            if ui.button("Export CSV…").clicked() {
                export(ExportKind::Csv, &self.csv);
            }
            if ui.button("Export chart (SVG)…").clicked() {
                export(ExportKind::Svg, &self.svg);
            }
            if let Some(ladder) = self.ladder_json.as_ref().and_then(exportable)
                && ui
                    .button("Export both players (JSON)…")
                    .on_hover_text(
                        "The explanation with each player and whether each field agrees, as `explain --ladder --json` writes it",
                    )
                    .clicked()
            {
                export(ExportKind::Json, &ladder);
            }
        });
        clicks
    }
}

/// A report as `explain --json --out` writes it.
fn json_file(report: &impl serde::Serialize) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(report).map(|mut json| {
        json.push('\n');
        json
    })
}

/// The rule set a choice names, with the name the report gives it.
/// Each side's equilibrium mix at the balance measured for rule set A on the
/// setup in the window (`equilibrium:REPORT`), as `explain`'s default
/// players; `None` where none is measured (or the setup's own report does
/// not hold: the Setup tab says why).
fn equilibrium_of_a(a: &RuleChoice, state: &AppState) -> Option<AiSpec> {
    let (name, rules) = rules_of(a, state).ok()?;
    let game = state.game_under(rules, &name).ok()?;
    let folder = crate::sim::players::bundle_folder(state.path(), &name);
    let measured =
        crate::sim::questions::balance::measured::measured(&game, folder.as_deref()).ok()??;
    // As `explain`'s default: a mix of searches is too slow, `fast` stands.
    measured
        .mix_is_fast()
        .then(|| measured.player().ok())
        .flatten()
}

fn rules_of(choice: &RuleChoice, state: &AppState) -> Result<(String, RuleSet), ExplainError> {
    match choice {
        RuleChoice::InForce => state
            .rules()
            .map(|r| (state.rules_label(), r.clone()))
            .ok_or_else(|| {
                ExplainError::RulesInForce(
                    state
                        .rules_error()
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                )
            }),
        RuleChoice::Named(name) => Ok((name.clone(), load_rules(name)?)),
    }
}

/// The rule sets offered: the one in force, the built-in ones, and the
/// variant file the window has open (unchanged, as its file says).
fn rule_set_combo(
    ui: &mut Ui,
    k: usize,
    choice: &mut RuleChoice,
    state: &AppState,
) -> egui::Response {
    let in_force = format!("in force: {}", state.rules_label());
    let shown = match choice {
        RuleChoice::InForce => in_force.clone(),
        RuleChoice::Named(n) => n.clone(),
    };
    egui::ComboBox::from_id_salt(("explain_rule_set", k))
        .selected_text(shown)
        .width(220.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(choice, RuleChoice::InForce, in_force)
                .on_hover_text("The rule set of the rule table above, with any switch changed");
            for (name, _) in BUILTIN_VARIANTS {
                ui.selectable_value(choice, RuleChoice::Named((*name).to_string()), *name);
            }
            let variant = state.variant();
            if !is_bare_name(variant) {
                ui.selectable_value(choice, RuleChoice::Named(variant.to_string()), variant)
                    .on_hover_text("The variant file as saved");
            }
        })
        .response
}

/// The chart's rows, top first: the whole difference, the sum of the
/// fields, then each field largest effect first. Its label, its effect in
/// points with the interval, and whether it interacts.
fn chart_rows(
    r: &ExplainReport,
    ranked: &[(&crate::sim::questions::explain::FieldCounts, FieldEffect)],
) -> Vec<ChartRow> {
    let pts = |d: &crate::sim::runs::stats::PairedDifference| {
        [d.estimate, d.ci95[0], d.ci95[1]].map(|v| 100.0 * v)
    };
    let mut rows = vec![
        ChartRow {
            label: "whole difference".to_string(),
            points: pts(&r.total.caesar()),
            kind: RowKind::Whole,
            rule_field: false,
        },
        ChartRow {
            label: "sum of the fields".to_string(),
            points: pts(&r.sum_of_fields()),
            kind: RowKind::Sum,
            rule_field: false,
        },
    ];
    rows.extend(ranked.iter().map(|(field, effect)| ChartRow {
        label: field.field.clone(),
        points: pts(&effect.both),
        kind: if field.not_alone.is_some() {
            RowKind::NotAlone
        } else if effect.interacting {
            RowKind::Interacting
        } else {
            RowKind::Field
        },
        rule_field: !field.is_setup_change(),
    }));
    rows
}

/// One bar of the chart.
struct ChartRow {
    /// Whether a click shows it in the rule table (a rule set's field, not
    /// the whole, the sum or a change to the setup).
    rule_field: bool,
    label: String,
    /// Estimate, low and high end of the 95% interval, in points.
    points: [f64; 3],
    kind: RowKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RowKind {
    Whole,
    Sum,
    Field,
    Interacting,
    NotAlone,
}

impl RowKind {
    const ALL: [RowKind; 5] = [
        RowKind::Whole,
        RowKind::Sum,
        RowKind::Field,
        RowKind::Interacting,
        RowKind::NotAlone,
    ];

    fn colour(self) -> egui::Color32 {
        match self {
            RowKind::Whole => theme::CAESAR,
            RowKind::Sum => theme::DRAW,
            RowKind::Field => theme::ROUNDS,
            RowKind::Interacting => theme::WARNING,
            RowKind::NotAlone => theme::GHOST,
        }
    }

    fn legend(self) -> &'static str {
        match self {
            RowKind::Whole => "whole difference A to B",
            RowKind::Sum => "sum of the fields one at a time",
            RowKind::Field => "one field switched alone",
            RowKind::Interacting => "interacts with other fields",
            RowKind::NotAlone => "cannot be switched alone",
        }
    }
}

/// Height of one bar's row in the chart, in points of the screen.
const ROW_HEIGHT: f32 = 20.0;

/// The bars, top to bottom as [`chart_rows`] orders them, with their 95%
/// whiskers; a click on a field's bar asks for that field.
fn effect_chart(
    ui: &mut Ui,
    r: &ExplainReport,
    ranked: &[(&crate::sim::questions::explain::FieldCounts, FieldEffect)],
    highlighted: Option<&str>,
) -> Option<Clicked> {
    ui.label(
        RichText::new("Each field's effect on Caesar's share (points, 95% intervals)").strong(),
    );
    ui.label(
        RichText::new("Click a bar or a field's sentence to show the field in the rule table.")
            .weak(),
    );
    let rows = chart_rows(r, ranked);
    let n = rows.len();
    effect_key(ui, &rows);
    // Row i is drawn at y = n − 1 − i, so the whole difference is on top.
    let y_of = move |i: usize| (n - 1 - i) as f64;
    let labels: Vec<String> = rows.iter().map(|row| row.label.clone()).collect();
    // The axis spans every whisker, and 0.
    let (lo, hi) = rows.iter().fold((0.0f64, 0.0f64), |(lo, hi), row| {
        (lo.min(row.points[1]), hi.max(row.points[2]))
    });
    let response = effect_plot(n, (lo, hi), labels).show(ui, |p| {
        effect_bars(p, &rows, highlighted, y_of);
        for (i, row) in rows.iter().enumerate() {
            whisker(p, row, y_of(i));
        }
        p.vline(VLine::new("", 0.0).color(theme::DRAW));
    });
    let clicked = response.response.clicked();
    let pos = response.response.interact_pointer_pos()?;
    if !clicked {
        return None;
    }
    let y = response.transform.value_from_position(pos).y.round();
    let i = usize::try_from(n as i64 - 1 - y as i64).ok()?;
    rows.get(i)
        .filter(|row| row.rule_field)
        .map(|row| Clicked::Field(row.label.clone()))
}

/// The chart's frame for `n` rows spanning `lo..hi` points: fixed (no
/// zoom, drag or scroll), the points axis with a tick every round step,
/// the rows' names on the left.
fn effect_plot(n: usize, (lo, hi): (f64, f64), labels: Vec<String>) -> Plot<'static> {
    // A tick every `step` (1, 2, 5, 10 ... points), so every bar's length
    // can be read off the axis.
    let step = tick_step(hi - lo);
    Plot::new("explain_effects")
        .height(ROW_HEIGHT * n as f32 + 60.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .show_grid([true, false])
        // No coordinates under the pointer: they printed over the bars (a
        // bar's own hover names it, with its interval).
        .show_x(false)
        .show_y(false)
        .include_x(lo - step / 2.0)
        .include_x(hi + step / 2.0)
        .x_grid_spacer(egui_plot::uniform_grid_spacer(move |_| {
            [step, 5.0 * step, 10.0 * step]
        }))
        .custom_x_axes(vec![points_axis()])
        .include_y(-0.6)
        .include_y(n as f64 - 0.4)
        .y_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 1.0, 1.0]))
        .custom_y_axes(vec![row_names_axis(labels)])
}

/// The key of the kinds of row the chart has, in a row of its own above the
/// bars: never over them.
fn effect_key(ui: &mut Ui, rows: &[ChartRow]) {
    let kinds: Vec<RowKind> = RowKind::ALL
        .into_iter()
        .filter(|k| rows.iter().any(|row| row.kind == *k))
        .collect();
    crate::app::chart_key::row(
        ui,
        &kinds
            .iter()
            .map(|k| crate::app::chart_key::Key::new(k.legend(), k.colour()))
            .collect::<Vec<_>>(),
    );
}

/// The effect chart's x axis: points of Caesar's share, signed.
fn points_axis() -> egui_plot::AxisHints<'static> {
    egui_plot::AxisHints::new_x()
        .label("Caesar's share, in points (B against A)")
        .label_spacing(24.0..=40.0)
        .formatter(|mark, _| {
            let v = mark.value;
            if v.abs() < 1e-9 {
                "0".to_string()
            } else {
                format!("{v:+} pt")
            }
        })
}

/// The effect chart's y axis: each row's name at its whole y. The rows are
/// closer than the plot's default spacing for full labels, which it would
/// fade to near invisible: every row's name is drawn at full strength.
fn row_names_axis(labels: Vec<String>) -> egui_plot::AxisHints<'static> {
    let n = labels.len();
    egui_plot::AxisHints::new_y()
        .min_thickness(190.0)
        .label_spacing(8.0..=12.0)
        .formatter(move |mark, _| {
            let v = mark.value;
            if (v - v.round()).abs() > 1e-6 || v < 0.0 {
                return String::new();
            }
            let i = n as i64 - 1 - v.round() as i64;
            usize::try_from(i)
                .ok()
                .and_then(|i| labels.get(i).cloned())
                .unwrap_or_default()
        })
}

/// One bar chart per kind of row (so each kind has its legend entry), the
/// highlighted field's bar drawn stronger.
fn effect_bars(
    p: &mut egui_plot::PlotUi<'_>,
    rows: &[ChartRow],
    highlighted: Option<&str>,
    y_of: impl Fn(usize) -> f64,
) {
    for kind in RowKind::ALL {
        let bars: Vec<Bar> = rows
            .iter()
            .enumerate()
            .filter(|(_, row)| row.kind == kind)
            .map(|(i, row)| {
                let mark = highlighted == Some(row.label.as_str());
                Bar::new(y_of(i), row.points[0])
                    .name(format!(
                        "{}: {:+.1} ({:+.1} to {:+.1})",
                        row.label, row.points[0], row.points[1], row.points[2]
                    ))
                    .fill(kind.colour().gamma_multiply(if mark { 0.9 } else { 0.5 }))
                    .stroke(Stroke::new(if mark { 2.5 } else { 1.0 }, kind.colour()))
                    .width(0.6)
            })
            .collect();
        if !bars.is_empty() {
            p.bar_chart(
                BarChart::new(kind.legend(), bars)
                    .color(kind.colour())
                    .horizontal(),
            );
        }
    }
}

/// The axis's tick in points for a chart `range` points wide: the
/// smallest of 1, 2, 5, 10, 20, 50 ... (or a half) giving at most six ticks.
pub(crate) fn tick_step(range: f64) -> f64 {
    let mut step = 0.5;
    for k in 0..8 {
        for m in [1.0, 2.0, 5.0] {
            step = m * 10f64.powi(k);
            if range / step <= 6.0 {
                return if range / 0.5 <= 6.0 { 0.5 } else { step };
            }
        }
    }
    step
}

/// A row's 95% interval as a whisker with end caps, at height `y`.
fn whisker(p: &mut egui_plot::PlotUi<'_>, row: &ChartRow, y: f64) {
    let [_, lo, hi] = row.points;
    let stroke = Stroke::new(1.5, whisker_colour(row.kind));
    let mut segment = |from: [f64; 2], to: [f64; 2]| {
        p.line(
            Line::new("", vec![from, to])
                .stroke(stroke)
                .allow_hover(false),
        );
    };
    segment([lo, y], [hi, y]);
    for x in [lo, hi] {
        segment([x, y - 0.15], [x, y + 0.15]);
    }
}

/// The whiskers' colour: light, to stand out on the dark chart beside any
/// bar; grey for a field that could not be switched alone.
fn whisker_colour(kind: RowKind) -> egui::Color32 {
    match kind {
        RowKind::NotAlone => theme::GHOST,
        _ => egui::Color32::from_gray(200),
    }
}

/// The chart as an SVG image drawn from the same rows as the window's:
/// a bar per row with its 95% whiskers, the rows' names on the left.
pub(crate) fn chart_svg(r: &ExplainReport) -> String {
    let ranked = r.ranked();
    let rows = chart_rows(r, &ranked);
    let (left, width, top, row_h) = (260.0, 960.0, 56.0, 28.0);
    // Room on the right for the widest row's figures.
    let plot_w = width - left - 190.0;
    let lo = rows.iter().map(|row| row.points[1]).fold(0.0_f64, f64::min);
    let hi = rows.iter().map(|row| row.points[2]).fold(0.0_f64, f64::max);
    let span = (hi - lo).max(1.0);
    let x = |v: f64| left + (v - lo) / span * plot_w;
    let height = top + row_h * rows.len() as f64 + 40.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"20\" font-weight=\"bold\">{}</text>\n\
         <text x=\"10\" y=\"40\">Effect on Caesar's share, points of the games he wins (95% intervals)</text>\n",
        xml(&r.headline())
    );
    for (i, row) in rows.iter().enumerate() {
        let y = top + row_h * i as f64;
        let [est, l, h] = row.points;
        let c = row.kind.colour();
        let colour = format!("#{:02x}{:02x}{:02x}", c.r(), c.g(), c.b());
        let (bx, bw) = (x(est.min(0.0)), (x(est) - x(0.0)).abs());
        let mid = y + row_h / 2.0;
        svg.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n\
             <rect x=\"{bx:.1}\" y=\"{:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"{colour}\" fill-opacity=\"0.6\" stroke=\"{colour}\"/>\n\
             <line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{mid:.1}\" y2=\"{mid:.1}\" stroke=\"black\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{est:+.1} ({l:+.1} to {h:+.1})</text>\n",
            left - 8.0,
            mid + 4.0,
            xml(&row.label),
            y + 5.0,
            row_h - 10.0,
            x(l),
            x(h),
            x(h) + 6.0,
            mid + 4.0,
        ));
    }
    let bottom = top + row_h * rows.len() as f64;
    svg.push_str(&svg_grid((lo, hi), (top, bottom), x));
    svg.push_str("</svg>\n");
    svg
}

/// The SVG chart's grid lines from `top` to `bottom`, at round numbers of
/// points across `lo..hi` (about six), each with its number under it;
/// `x` places a value.
fn svg_grid((lo, hi): (f64, f64), (top, bottom): (f64, f64), x: impl Fn(f64) -> f64) -> String {
    let span = (hi - lo).max(1.0);
    let step = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0]
        .into_iter()
        .find(|s| span / s <= 8.0)
        .unwrap_or(100.0);
    let mut grid = String::new();
    let mut tick = (lo / step).ceil() * step;
    while tick <= hi + 1e-9 {
        let dash = if tick == 0.0 {
            ""
        } else {
            " stroke-dasharray=\"2 4\""
        };
        grid.push_str(&format!(
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{top:.1}\" y2=\"{bottom:.1}\" stroke=\"gray\"{dash}/>\n\
             <text x=\"{0:.1}\" y=\"{1:.1}\" text-anchor=\"middle\" font-size=\"11\">{tick:+}</text>\n",
            x(tick),
            bottom + 16.0,
            // −0 + 0 is +0: the axis never says "-0".
            tick = tick + 0.0,
        ));
        tick += step;
    }
    grid
}

/// The report's words as the window's font can draw them: it has no arrow
/// glyph, so "true → false" is shown "true -> false".
fn drawable(text: &str) -> String {
    text.replace('→', "->")
}

/// Text as SVG may hold it.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_has_a_handful_of_ticks_in_whole_points() {
        assert_eq!(tick_step(2.0), 0.5);
        assert_eq!(tick_step(5.0), 1.0);
        assert_eq!(tick_step(11.0), 2.0);
        assert_eq!(tick_step(46.0), 10.0);
        assert_eq!(tick_step(250.0), 50.0);
    }

    #[test]
    fn fields_and_values_read_in_the_rule_tables_words() {
        let field = |name| crate::scenario::rule_fields::rule_field(name).unwrap();
        let f = field("caesar_player1_first_turn");
        assert_eq!(
            plain_name(f.name, f.explain),
            "Caesar is Player 1 on the game's first turn"
        );
        let f = field("battle_rounds");
        assert_eq!(plain_name(f.name, f.explain), "Battle rounds");
        // A line that does not start with a name: the field's in words.
        let f = field("vulcan_target");
        assert_eq!(plain_name(f.name, f.explain), "Vulcan target");
        assert_eq!(value_words("true"), "on");
        assert_eq!(value_words("false"), "off");
        assert_eq!(value_words("AnyCity"), "any city");
        assert_eq!(value_words("4"), "4");
    }
}
