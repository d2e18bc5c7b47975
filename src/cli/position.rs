//! `position`: read a position file, say whose decision it is and list the
//! legal actions in plain words; apply actions given in those words; show
//! only what one side may know.

use std::path::PathBuf;
use std::process::ExitCode;

use caesar_workbench::engine::{Action, Game, Place, State};
use caesar_workbench::games::position_file::{LoadedPosition, PositionFileError, load_position};
use caesar_workbench::games::trace::action_text_seen;
use caesar_workbench::scenario::model::Side;

use super::args::parse_side;
use super::output::check_stdout;
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// The position file (RON, see docs/formats.md).
    file: PathBuf,
    /// An action to apply, in the words the legal actions are listed in
    /// ("Group move from Ravenna", "Move Legio 13 to Roma"); repeatable,
    /// applied in order.
    #[arg(long = "apply", value_name = "ACTION")]
    apply: Vec<String>,
    /// Show only what this side may know (caesar or pompey).
    #[arg(long, value_parser = parse_side)]
    view: Option<Side>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// What the command prints, as JSON.
#[derive(serde::Serialize)]
struct Report {
    scenario: String,
    rules: String,
    year: u8,
    turn: u8,
    stage: String,
    /// The side to decide, `null` once the game is over.
    to_decide: Option<Side>,
    player1: Side,
    vp: [u32; 2],
    /// The side whose view this is, `null` for the whole position.
    view: Option<Side>,
    applied: Vec<String>,
    blocks: Vec<BlockReport>,
    /// Blocks whose identity the viewer may not know, per location.
    hidden: Vec<HiddenReport>,
    hands: Vec<HandReport>,
    /// Legal actions of the side to decide (empty when the viewer is the other side).
    legal_actions: Vec<String>,
}

#[derive(serde::Serialize)]
struct BlockReport {
    side: Side,
    block: String,
    /// A space, or "pool", "eliminated", "trophy".
    at: String,
    strength: u8,
    reserve: bool,
}

#[derive(serde::Serialize)]
struct HiddenReport {
    side: Side,
    at: String,
    count: usize,
}

#[derive(serde::Serialize)]
struct HandReport {
    side: Side,
    size: usize,
    /// The cards, `null` when the viewer may not see them.
    cards: Option<Vec<String>>,
}

pub fn position(out: &mut Output, args: PositionArgs) -> Result<ExitCode, CliError> {
    let loaded = match load_position(&args.file) {
        Ok(loaded) => loaded,
        Err(PositionFileError::Load(e)) => return Err(CliError::Load(e)),
        Err(e @ PositionFileError::Position(_)) => {
            return Err(CliError::Position(format!("the position cannot be:\n{e}")));
        }
        Err(e) => return Err(CliError::Position(e.to_string())),
    };
    check_stdout()?;
    let LoadedPosition {
        game, mut state, ..
    } = loaded;
    let mut applied = Vec::new();
    for text in &args.apply {
        let action = find_action(&game, &state, text)?;
        let before = state.clone();
        state.apply(&game, action);
        // The other side's hidden moves as the viewer may know them.
        applied.push(match args.view {
            Some(viewer) => action_text_seen(&game, &before, &state, action, viewer),
            None => game.action_text(action),
        });
    }
    let report = report(&game, &state, args.view, applied);
    if args.json {
        out.json(&report)?;
    } else {
        print(out, &report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The legal action whose words are `text` (case and spacing aside):
/// [`caesar_workbench::games::record::find_action`], shared with `replay`.
fn find_action(game: &Game, state: &State, text: &str) -> Result<Action, CliError> {
    caesar_workbench::games::record::find_action(game, state, text)
        .map_err(|e| CliError::Position(e.to_string()))
}

fn report(game: &Game, state: &State, view: Option<Side>, applied: Vec<String>) -> Report {
    let viewer = view.map(|side| state.view(side, false));
    let place_name = |place: Place| match place {
        Place::Map(s) => game.space_name(s).to_string(),
        Place::Pool => "pool".into(),
        Place::Eliminated => "eliminated".into(),
        Place::Trophy => "trophy".into(),
    };
    let mut blocks = Vec::new();
    let mut hidden: Vec<HiddenReport> = Vec::new();
    for b in game.roster().ids() {
        let known = match &viewer {
            Some(v) => v.block(game, b),
            None => Some(
                state
                    .view(state.side(b), true)
                    .block(game, b)
                    .expect("omniscient"),
            ),
        };
        match known {
            Some(k) => blocks.push(BlockReport {
                side: k.side,
                block: game.block_name(b).to_string(),
                at: place_name(k.place),
                strength: state.strength(game, b),
                reserve: state.is_reserve(b) && matches!(k.place, Place::Map(_)),
            }),
            None => {
                let at = place_name(state.place(b));
                let side = state.side(b);
                match hidden.iter_mut().find(|h| h.at == at && h.side == side) {
                    Some(h) => h.count += 1,
                    None => hidden.push(HiddenReport { side, at, count: 1 }),
                }
            }
        }
    }
    blocks.sort_by_key(|b| place_rank(&b.at));
    hidden.sort_by_key(|h| place_rank(&h.at));
    let hands = Side::BOTH
        .into_iter()
        .map(|side| {
            let hand = state.hand(side);
            let visible = view.is_none_or(|v| v == side);
            HandReport {
                side,
                size: hand.len(),
                cards: visible.then(|| hand.iter().map(|c| game.card_label(*c)).collect()),
            }
        })
        .collect();
    let to_decide = state.current_player();
    let mut legal = Vec::new();
    if to_decide.is_some() && (view.is_none() || view == to_decide) {
        state.legal_actions(game, &mut legal);
    }
    Report {
        scenario: game.scenario.name.clone(),
        rules: game.rules.name.clone(),
        year: state.year(),
        turn: state.turn(),
        stage: state.stage_text(game),
        to_decide,
        player1: state.player1(),
        vp: state.vp(game),
        view,
        applied,
        blocks,
        hidden,
        hands,
        legal_actions: legal.iter().map(|a| game.action_text(*a)).collect(),
    }
}

/// Spaces first, then the boxes off the map.
fn place_rank(at: &str) -> u8 {
    match at {
        "pool" => 1,
        "eliminated" => 2,
        "trophy" => 3,
        _ => 0,
    }
}

/// A side's blocks (and hidden blocks) by place, the map first.
fn print_places(out: &mut Output, r: &Report, side: Side) -> Result<(), CliError> {
    let mut places: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |at: &str, text: String| match places.iter_mut().find(|(p, _)| p == at) {
        Some((_, v)) => v.push(text),
        None => places.push((at.to_string(), vec![text])),
    };
    for b in r.blocks.iter().filter(|b| b.side == side) {
        let reserve = if b.reserve { " (reserve)" } else { "" };
        let strength = if b.at == "pool" || b.at == "eliminated" || b.at == "trophy" {
            String::new()
        } else {
            format!(" {}", b.strength)
        };
        add(&b.at, format!("{}{strength}{reserve}", b.block));
    }
    for h in r.hidden.iter().filter(|h| h.side == side) {
        let blocks = if h.count == 1 { "block" } else { "blocks" };
        add(&h.at, format!("{} hidden {blocks}", h.count));
    }
    places.sort_by_key(|(at, _)| place_rank(at));
    out.line(format_args!("{side}:"))?;
    for (at, list) in places {
        out.line(format_args!("  {at}: {}", list.join(", ")))?;
    }
    Ok(())
}

fn print(out: &mut Output, r: &Report) -> Result<(), CliError> {
    out.line(format_args!(
        "{} under {}: year {}, turn {}{}",
        r.scenario,
        r.rules,
        r.year,
        r.turn,
        r.view
            .map(|s| format!(" (as {s} sees it)"))
            .unwrap_or_default()
    ))?;
    for a in &r.applied {
        out.line(format_args!("applied: {a}"))?;
    }
    out.line(format_args!("stage: {}", r.stage))?;
    out.line(format_args!(
        "VP: Caesar {}, Pompey {}; Player 1: {}",
        r.vp[0], r.vp[1], r.player1
    ))?;
    for side in Side::BOTH {
        print_places(out, r, side)?;
    }
    for h in &r.hands {
        match &h.cards {
            Some(cards) if cards.is_empty() => out.line(format_args!("{} hand: empty", h.side))?,
            Some(cards) => out.line(format_args!("{} hand: {}", h.side, cards.join(", ")))?,
            None => out.line(format_args!("{} hand: {} cards, unseen", h.side, h.size))?,
        }
    }
    match r.to_decide {
        None => out.line("the game is over")?,
        Some(side) if !r.legal_actions.is_empty() => {
            out.line(format_args!("{side} to decide; legal actions:"))?;
            for a in &r.legal_actions {
                out.line(format_args!("  {a}"))?;
            }
        }
        Some(side) => out.line(format_args!("{side} to decide (unseen)"))?,
    }
    Ok(())
}
