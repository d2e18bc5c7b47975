//! What the Play and Replay tabs show beside the board: where the turn
//! stands, victory points, a hand of cards, the cards played, a battle;
//! and the hand-over screen between two people at one seat.
//! Everything here is drawn from one side's view (or the whole state when
//! the viewer sees everything), so nothing hidden is shown.

use egui::{RichText, Ui};

use crate::app::theme;
use crate::engine::{EndReason, Game, Period, State};
use crate::games::narrate::side_words;
use crate::scenario::model::{BlockId, Side, SpaceId};

/// A hand-over screen's words and button: `heading` as an alert, who
/// takes the seat and who looks away, then `button`; true when clicked.
pub(in crate::app) fn hand_over(ui: &mut Ui, heading: String, side: Side, button: String) -> bool {
    ui.label(RichText::new(heading).size(theme::ALERT_SIZE).strong());
    ui.label(format!(
        "Hand the seat to {side}; {} looks away.",
        side.other()
    ));
    ui.add_space(10.0);
    ui.button(button).clicked()
}

/// Year, turn, Player 1, the stage in words, move and levy points, VP.
pub(in crate::app) fn status(ui: &mut Ui, game: &Game, state: &State) {
    let vp = state.outcome().map_or_else(|| state.vp(game), |o| o.vp);
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(format!(
                "Year {} of {}, turn {}",
                state.year(),
                game.rules.years,
                state.turn()
            ))
            .strong(),
        );
        ui.separator();
        ui.label(player1_text(game, state)).on_hover_text(
            "Player 1 moves first (2.2). The higher move number makes Player 1; on a tie Caesar; \
             the player of an event card is Player 1 (2.1).",
        );
        if let Some((mp, lp)) = state.command_points() {
            ui.separator();
            // Whose points: the side in its command phase, not the reader.
            let whose = match state.period() {
                Period::Command(side) => format!("{side}: "),
                _ => String::new(),
            };
            let moves = if mp == 1 { "move" } else { "moves" };
            let levies = if lp == 1 { "levy" } else { "levies" };
            ui.label(format!("{whose}{mp} {moves}, {lp} {levies} left"));
        }
    });
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("Caesar {} VP", vp[0])).color(theme::CAESAR));
        ui.label(RichText::new(format!("Pompey {} VP", vp[1])).color(theme::POMPEY));
    });
    ui.label(RichText::new(state.stage_text(game)).italics());
    if let Some(o) = state.outcome() {
        let text = match o.winner {
            Some(side) => format!(
                "{} wins {}, VP {}-{}",
                side_words(side),
                how(o.how),
                o.vp[0],
                o.vp[1]
            ),
            None => format!("A draw, VP {}-{}", o.vp[0], o.vp[1]),
        };
        ui.label(RichText::new(text).strong().color(theme::GOOD));
    }
}

/// Who is Player 1 this turn, and why when a rule rather than the cards
/// decides: under 2.0 Caesar is Player 1 on the game's first turn whatever
/// the cards (2.1). Before the cards are shown, nobody yet.
pub(super) fn player1_text(game: &Game, state: &State) -> String {
    let first_turn = (state.year(), state.turn()) == (1, 1);
    if first_turn && game.rules.caesar_player1_first_turn {
        return "Player 1: Caesar (the game's first turn: Caesar is Player 1 whatever the cards, 2.1)"
            .to_string();
    }
    match state.period() {
        Period::Discard | Period::Cards => "Player 1: decided by the cards played".to_string(),
        _ => format!("Player 1: {}", state.player1()),
    }
}

/// How a game ended, in words (1.2).
pub(super) fn how(reason: EndReason) -> &'static str {
    match reason {
        EndReason::SuddenDeath => "by sudden death (10 VP at a winter)",
        EndReason::VictoryPoints => "on victory points after the last year",
        EndReason::RomeTieBreak => "on the tie-break: VP tied, holding Roma",
        EndReason::Draw => "",
    }
}

/// The cards each side played this turn, as `viewer` may see them.
pub(in crate::app) fn played(ui: &mut Ui, game: &Game, state: &State, viewer: Option<Side>) {
    let view = state.view(viewer.unwrap_or(Side::Caesar), viewer.is_none());
    let played: Vec<(Side, u8)> = Side::BOTH
        .iter()
        .filter_map(|&side| view.played(side).map(|c| (side, c)))
        .collect();
    if played.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for (k, (side, c)) in played.into_iter().enumerate() {
            if k > 0 {
                ui.label("·");
            }
            ui.label(format!("{side} played {}", game.card_label(c)))
                .on_hover_text(super::card_text::card_help(game, c));
        }
    });
}

/// A side's hand as labels (not playable here).
pub(in crate::app) fn hand_text(game: &Game, state: &State, side: Side) -> String {
    let cards: Vec<String> = state
        .hand(side)
        .iter()
        .map(|&c| game.card_label(c))
        .collect();
    if cards.is_empty() {
        "no cards".to_string()
    } else {
        cards.join(", ")
    }
}

/// The battle being fought, as `viewer` may see it: each side's blocks in
/// it (a reserve still hidden is counted, not named), the round, who acts.
pub(in crate::app) fn battle(ui: &mut Ui, game: &Game, state: &State, viewer: Option<Side>) {
    let Some(b) = state.battle_info() else {
        return;
    };
    let view = viewer.map(|side| state.view(side, false));
    let knows = |blk: BlockId| view.as_ref().is_none_or(|v| v.knows(game, blk));
    ui.label(
        RichText::new(if b.round == 0 {
            format!(
                "Battle of {}: {} attacks",
                game.space_name(b.space),
                b.attacker
            )
        } else {
            format!(
                "Battle of {}, round {}: {} attacks",
                game.space_name(b.space),
                b.round,
                b.attacker
            )
        })
        .strong()
        .color(theme::ERROR),
    );
    for side in [b.attacker, b.attacker.other()] {
        let line = battle_side_line(game, state, side, b.space, b.acting, &knows);
        ui.label(RichText::new(line).color(theme::side(side)));
    }
    if let Some(a) = b.acting
        && knows(a)
    {
        ui.label(format!("{} acts", game.block_name(a)));
    }
}

/// A side's blocks in the battle as the viewer knows them (strength and
/// reserve; the acting one marked), then how many are hidden.
fn battle_side_line(
    game: &Game,
    state: &State,
    side: Side,
    space: SpaceId,
    acting: Option<BlockId>,
    knows: &dyn Fn(BlockId) -> bool,
) -> String {
    let mut known = Vec::new();
    let mut hidden = 0;
    for blk in state.blocks_at(space, side) {
        if knows(blk) {
            let block = game.roster().block(blk);
            let mut text = format!(
                "{} {} {}",
                block.name,
                crate::app::map::short_rating(block),
                crate::app::map::roman(state.strength(game, blk))
            );
            if state.is_reserve(blk) {
                text.push_str(" (reserve)");
            }
            if acting == Some(blk) {
                text = format!("> {text}");
            }
            known.push(text);
        } else {
            hidden += 1;
        }
    }
    let mut line = format!("{side}: {}", known.join(", "));
    if hidden > 0 {
        line.push_str(&format!(
            "{}{hidden} hidden",
            if known.is_empty() { "" } else { ", " }
        ));
    }
    line
}
