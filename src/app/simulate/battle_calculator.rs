//! The Simulate tab's battle calculator: exact odds of one battle between
//! blocks typed by name, recomputed when an input or the rule set changes.

use egui::{RichText, Ui};
use egui_plot::{Bar, BarChart, Plot};

use crate::app::state::{NoGame, game_of};
use crate::app::theme::{self, DRAW};
use crate::engine::NotPlayable;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::Side;
use crate::scenario::rules::RuleSet;
use crate::sim::questions::odds::{
    BattleOdds, BattleSpec, BlocksError, OddsError, battle_odds, parse_blocks,
};

/// The battle calculator's inputs, as typed, and the odds they give.
pub(super) struct BattleCalculator {
    attacker: Side,
    attacking: String,
    attacking_reserves: String,
    defending: String,
    defending_reserves: String,
    surprise: bool,
    /// The inputs the cached odds belong to.
    key: String,
    odds: Option<Result<BattleOdds, NoOdds>>,
}

impl Default for BattleCalculator {
    fn default() -> Self {
        BattleCalculator {
            attacker: Side::Caesar,
            attacking: "Caesar, Legio 13".into(),
            attacking_reserves: String::new(),
            defending: "Pompey, Legio 1=2".into(),
            defending_reserves: String::new(),
            surprise: false,
            key: String::new(),
            odds: None,
        }
    }
}

impl BattleCalculator {
    /// The calculator on the document (`revision`: the window's count of
    /// its changes) under `rules`.
    pub(super) fn show(
        &mut self,
        ui: &mut Ui,
        (doc, revision): (Option<&ResolvedScenario>, u64),
        rules: Option<&RuleSet>,
        variant: &str,
    ) {
        ui.heading("Battle calculator");
        self.inputs(ui);
        self.refresh((doc, revision), rules, variant);
        match &self.odds {
            None => {
                ui.label("No rule set is loaded.");
            }
            Some(Err(e)) => {
                ui.colored_label(theme::ERROR, e.to_string());
            }
            Some(Ok(o)) => show_odds(ui, o, self.attacker),
        }
    }

    fn inputs(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label("Attacker");
            ui.radio_value(&mut self.attacker, Side::Caesar, "Caesar");
            ui.radio_value(&mut self.attacker, Side::Pompey, "Pompey");
        });
        for (label, text) in [
            ("Attacking blocks", &mut self.attacking),
            ("Attacking reserves", &mut self.attacking_reserves),
            ("Defending blocks", &mut self.defending),
            ("Defending reserves", &mut self.defending_reserves),
        ] {
            let l = ui.label(label);
            ui.add(
                egui::TextEdit::singleline(text)
                    .hint_text("name=strength, name, ...")
                    .desired_width(300.0),
            )
            .labelled_by(l.id);
        }
        ui.checkbox(&mut self.surprise, "Surprise attack (Mars, Neptune)");
    }

    /// Computes the odds again when an input or the rules changed.
    fn refresh(
        &mut self,
        (doc, revision): (Option<&ResolvedScenario>, u64),
        rules: Option<&RuleSet>,
        variant: &str,
    ) {
        let b = self;
        // The document is in the key too: an edit to the roster or the
        // deck may make the odds, or the game, another.
        let key = format!(
            "{:?}|{}|{}|{}|{}|{}|{:?}|{variant}|{revision}",
            b.attacker,
            b.attacking,
            b.attacking_reserves,
            b.defending,
            b.defending_reserves,
            b.surprise,
            rules,
        );
        if key == b.key {
            return;
        }
        b.key = key;
        b.odds = doc.zip(rules).map(|(doc, rules)| {
            // The one door, as the command line's: a scenario or rule set the
            // validator refuses (a variant file, a field set outside the
            // Rules tab) is said with its findings, not played.
            let game = game_of(Some(doc), rules.clone(), variant).map_err(NoOdds::Refused)?;
            let (att, def) = (b.attacker, b.attacker.other());
            let spec = BattleSpec {
                attacker: att,
                attacking: parse_blocks(&game, att, &b.attacking)?,
                attacking_reserves: parse_blocks(&game, att, &b.attacking_reserves)?,
                defending: parse_blocks(&game, def, &b.defending)?,
                defending_reserves: parse_blocks(&game, def, &b.defending_reserves)?,
                surprise: b.surprise,
            };
            Ok(battle_odds(&game, &spec)?)
        });
    }
}

/// Why no odds can be worked out.
#[derive(Debug, thiserror::Error)]
enum NoOdds {
    #[error("{}", no_game_words(.0))]
    Refused(NoGame),
    #[error(transparent)]
    Blocks(#[from] BlocksError),
    #[error(transparent)]
    Odds(#[from] OddsError),
}

/// Why the setup cannot be played, the validator's findings one a line.
fn no_game_words(no_game: &NoGame) -> String {
    match no_game {
        NoGame::NotPlayable { refused, .. } => refused_words(refused),
        other => other.to_string(),
    }
}

/// The validator's findings (or what the engine cannot play), one a line.
fn refused_words(refused: &NotPlayable) -> String {
    let reasons: Vec<String> = refused
        .messages()
        .iter()
        .map(|m| format!("• {m}"))
        .collect();
    format!(
        "No odds: the validator refuses this setup. Fix it in the Rules tab or the scenario:\n{}",
        reasons.join("\n")
    )
}

fn show_odds(ui: &mut Ui, o: &BattleOdds, attacker: Side) {
    ui.label(
        RichText::new(format!(
            "Attacker takes it: {:.1}%  ·  Defender holds: {:.1}%",
            o.attacker_wins * 100.0,
            o.defender_holds * 100.0
        ))
        .strong(),
    );
    ui.label(format!(
        "Expected steps lost: attacker {:.2}, defender {:.2}",
        o.expected_steps_lost.attacker, o.expected_steps_lost.defender
    ));
    odds_chart(ui, o, attacker);
    for risk in &o.eliminated {
        ui.label(format!(
            "{} ({}) eliminated: {:.1}%",
            risk.block,
            risk.side,
            risk.eliminated * 100.0
        ));
    }
}

/// The outcome's three bars, then the chance the battle ends in each round.
fn odds_chart(ui: &mut Ui, o: &BattleOdds, attacker: Side) {
    let bars = vec![
        Bar::new(0.0, o.attacker_wins * 100.0)
            .name("attacker takes it")
            .fill(theme::side(attacker)),
        Bar::new(1.0, o.defender_holds * 100.0)
            .name("defender holds")
            .fill(theme::side(attacker.other())),
        Bar::new(2.0, o.both_eliminated * 100.0)
            .name("both gone")
            .fill(DRAW),
    ];
    let rounds: Vec<Bar> = o
        .ends_in_round
        .iter()
        .enumerate()
        .map(|(k, p)| Bar::new(4.0 + k as f64, p * 100.0).name(format!("ends in round {}", k + 1)))
        .collect();
    Plot::new("odds")
        .height(theme::ODDS_CHART_HEIGHT)
        .y_axis_label("%")
        .include_y(-12.0)
        .include_y(100.0)
        .show_x(false)
        .x_axis_formatter(|_, _| String::new())
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .show(ui, |p| {
            p.bar_chart(BarChart::new("outcome", bars).width(0.8));
            for (x, label) in [
                (0.0, "takes"),
                (1.0, "holds"),
                (2.0, "both"),
                (4.0, "R1"),
                (5.0, "R2"),
                (6.0, "R3"),
                (7.0, "R4"),
            ] {
                p.text(egui_plot::Text::new(
                    label,
                    egui_plot::PlotPoint::new(x, -7.0),
                    RichText::new(label).small(),
                ));
            }
            p.bar_chart(
                BarChart::new("ends in round 1-4", rounds)
                    .width(0.8)
                    .color(theme::ROUNDS),
            );
        });
}
