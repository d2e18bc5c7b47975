//! What a panel asks the window for ([`Request`]) and what a request
//! carries. Its own file, below the panels and the window alike: every
//! panel names it and the window carries it out, so neither names the
//! other's file for it.

use std::path::PathBuf;

use crate::ai::AiSpec;
use crate::app::FilePurpose;
use crate::engine::Game;
use crate::games::narrate;
use crate::games::trace::Trace;
use crate::scenario::edit::{Edit, Item};
use crate::scenario::model::Side;
use crate::scenario::rules::RuleSet;
use crate::scenario::validate::Finding;
use crate::sim::runs::options::SimOptions;

/// The parts of the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    /// Map editor: spaces and links.
    Map,
    /// Deployment editor: blocks in cities and pools.
    Deployment,
    /// Rule-set switches and variant differences.
    Rules,
    /// Simulations, plots and the battle calculator.
    Simulation,
    /// The roster, the deck, the scenario's settings, and what differs
    /// from the published game.
    Setup,
    /// A game on the map, people against people or AI players.
    Play,
    /// A recorded game stepped through on the map.
    Replay,
    /// Is the setup fair? The balance at equilibrium.
    Balance,
}

/// A game to show in the Replay tab.
#[derive(Debug, Clone)]
pub enum ReplaySource {
    Played(Box<Replayed>),
    /// Game `index` of a simulation run, re-played from its seeds.
    Simulated {
        game: Box<Game>,
        options: SimOptions,
        index: u64,
    },
}

/// The answer to "save your changes first?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Save,
    Discard,
    Cancel,
}

/// What a panel asks for. Panels only draw and return these;
/// [`crate::app::WorkbenchApp::handle`] carries them out. (Not the engine's
/// [`crate::engine::Action`], a decision in a game.)
#[derive(Debug, Clone)]
pub enum Request {
    Edit(Edit),
    /// An edit, then the item selected if the edit was made.
    EditAndSelect(Edit, Item),
    Select(Option<Item>),
    /// Select the item a finding is about and centre the map on it.
    GoToFinding(Finding),
    Undo,
    Redo,
    /// The rule switches as the user set them.
    SetRules(RuleSet),
    ResetRules,
    SetVariant(String),
    SetTab(Tab),
    FitMap,
    /// Ask for a file (the desktop's dialog or the window's), then use it.
    Choose(FilePurpose),
    /// Open a scenario file (asking first about unsaved changes).
    Open(PathBuf),
    OpenBuiltin,
    /// Save to the document's file, or ask where when it has none.
    Save,
    Answer(Answer),
    DismissFileError,
    /// Show a game in the Replay tab.
    Replay(Box<ReplaySource>),
    /// Seat this player at a side of the next game in the Play tab.
    SeatPlayer(Side, AiSpec),
}

/// A game ready to step through.
#[derive(Debug, Clone)]
pub struct Replayed {
    pub game: Game,
    pub trace: Trace,
    /// What it is ("game.ron", "game 3 of the run seeded 1").
    pub title: String,
    /// The first line `play` prints for it.
    pub header: String,
    /// A game still in progress: seen only as this side, whose player may
    /// not learn the other side's secrets from its replay.
    pub seen_by: Option<Side>,
    /// A hot-seat game in progress: whose view is asked, and the seat
    /// handed over, before anything of it shows (again whenever the tab is
    /// come back to: the other person may be at the window by then).
    pub hot_seat: bool,
}

impl Replayed {
    pub fn new(game: Game, trace: Trace, title: String, players: [&str; 2]) -> Replayed {
        let seed = trace
            .seed()
            .map_or("(a position)".to_string(), |s| s.to_string());
        let header = narrate::header(&game, &seed, players);
        Replayed {
            game,
            trace,
            title,
            header,
            seen_by: None,
            hot_seat: false,
        }
    }

    /// A hot-seat game in progress (see [`Replayed::hot_seat`]).
    pub fn hot_seat(mut self, hot_seat: bool) -> Replayed {
        self.hot_seat = hot_seat;
        self
    }

    /// The replay of a game in progress, seen only as `side`.
    pub fn seen_by(mut self, side: Option<Side>) -> Replayed {
        self.seen_by = side;
        self
    }
}
