//! The one menu of players, written once for every place the window asks
//! for a player: a side's AI in the Simulate tab, a seat in the Play tab, a
//! rung of the strength ladder and tune's opponent.
//!
//! Strongest first: the best player measured for the rule set in play
//! ([`ratings::best`]) and the fast one ([`ratings::fast_for`], the command
//! line's default), then the player kinds, the shipped player files
//! (`variants/players/`) and searches on player files, each with its
//! shipped rating when it has one, so a designer sees what is strongest
//! before choosing and every menu offers the same players in the same order.

use std::path::Path;
use std::sync::OnceLock;

use egui::{Response, RichText, Ui};

use crate::ai::KINDS;
use crate::ai::{AiSpec, PlayerFileName, SpecText};
use crate::scenario::format::LoadError;
use crate::sim::players::ratings::{self, Rating};

/// What was picked in a player menu.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Picked {
    Player(AiSpec),
    /// "heuristic from file…": the caller asks for the file.
    FromFile,
}

/// Which players a menu offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Offer {
    /// Every player, the best first.
    Players,
    /// Only heuristics (the default one and player files): what `tune`
    /// can start from and play against.
    Heuristics,
}

/// What a menu ranks players for: the rule set and the setup in the window
/// (its digest and bundle, as [`SetupPlayers::refresh`] last read them).
///
/// [`SetupPlayers::refresh`]: crate::app::setup::players::SetupPlayers::refresh
#[derive(Clone, Copy)]
pub(crate) struct RankedFor<'a> {
    pub(crate) variant: &'a str,
    pub(crate) setup: &'a SetupRatings,
}

/// A player menu: what it ranks players for and what is chosen now.
pub(super) struct Menu<'a> {
    pub(super) ranked_for: RankedFor<'a>,
    pub(super) current: Option<&'a AiSpec>,
    pub(super) offer: Offer,
}

/// What [`pick_player`] did with a pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Chosen {
    /// The player picked now stands in the menu's place.
    Player,
    /// "heuristic from file…": the caller asks for the file.
    FromFile,
}

/// The menu of one place's player `ai` (what it offers: `offer`, ranked
/// for `ranked_for`), showing the player's words: a player picked replaces
/// `ai`. Returns the combo's response (to label it) and what was chosen.
pub(super) fn pick_player(
    ui: &mut Ui,
    id_salt: impl egui::AsIdSalt,
    ai: &mut AiSpec,
    ranked_for: RankedFor<'_>,
    offer: Offer,
) -> (Response, Option<Chosen>) {
    let menu = Menu {
        ranked_for,
        current: Some(ai),
        offer,
    };
    let (response, picked) = combo(ui, id_salt, label(ai), &menu, |_| {});
    let chosen = match picked {
        Some(Picked::Player(spec)) => {
            *ai = spec;
            Some(Chosen::Player)
        }
        Some(Picked::FromFile) => Some(Chosen::FromFile),
        None => None,
    };
    (response, chosen)
}

/// A combo box of players showing `selected`; `extra` adds the caller's
/// own entries right after the best player (the Play tab's "human").
/// Returns the combo's response (to label it) and what was picked.
pub(super) fn combo(
    ui: &mut Ui,
    id_salt: impl egui::AsIdSalt,
    selected: String,
    menu: &Menu<'_>,
    extra: impl FnOnce(&mut Ui),
) -> (Response, Option<Picked>) {
    // A search on a player file scored by a value file names two files: the
    // button shows the start of the name (the whole is its tooltip), so that
    // it never pushes the panel wider than the window.
    let short = elided(&selected, SELECTED_CHARS);
    let shown = egui::ComboBox::from_id_salt(id_salt)
        .selected_text(short.as_str())
        .height(600.0)
        .show_ui(ui, |ui| entries(ui, menu, extra));
    // The words whole (they may be cut short on the button) and the spec.
    let spec = menu.current.map(spec_text);
    let response = match (short == selected, spec) {
        (true, None) => shown.response,
        (true, Some(spec)) => shown.response.on_hover_text(spec),
        (false, None) => shown.response.on_hover_text(selected),
        (false, Some(spec)) => shown.response.on_hover_text(format!("{selected}\n{spec}")),
    };
    (response, shown.inner.flatten())
}

/// The most characters a player's menu button shows.
const SELECTED_CHARS: usize = 34;

/// Plays `side` with the heuristic player of the file at `path`, in a
/// panel's players `[caesar, pompey]`.
pub(crate) fn pick_player_file(
    players: [&mut AiSpec; 2],
    side: crate::scenario::model::Side,
    path: &Path,
) -> Result<(), LoadError> {
    let [caesar, pompey] = players;
    let chosen = match side {
        crate::scenario::model::Side::Caesar => caesar,
        crate::scenario::model::Side::Pompey => pompey,
    };
    *chosen = AiSpec::player_file(path)?;
    Ok(())
}

/// `text` cut to `max` characters, an ellipsis marking the cut.
fn elided(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{kept}…")
}

/// The menu's entries, strongest first.
fn entries(ui: &mut Ui, menu: &Menu<'_>, extra: impl FnOnce(&mut Ui)) -> Option<Picked> {
    let mut picked = None;
    if menu.offer == Offer::Players {
        picked = ranked_entry(ui, menu, Ranked::Best);
        picked = ranked_entry(ui, menu, Ranked::Fast).or(picked);
    }
    extra(ui);
    ui.separator();
    let kinds: Vec<&AiSpec> = match menu.offer {
        Offer::Players => KINDS.iter().map(|kind| &kind.plain).collect(),
        Offer::Heuristics => vec![&AiSpec::Heuristic],
    };
    for spec in kinds {
        picked = entry(ui, spec, menu).or(picked);
    }
    heading(ui, "Player files");
    for spec in shipped_files() {
        picked = entry(ui, spec, menu).or(picked);
    }
    let from_disk = menu
        .current
        .and_then(AiSpec::numbers_file)
        .is_some_and(|t| !is_shipped(&t.path));
    if ui
        .selectable_label(from_disk, "heuristic from file…")
        .on_hover_text(
            "A player file written by `caesar-workbench tune` (or the Tune panel): \
             the heuristic with numbers fitted to a rule set",
        )
        .clicked()
    {
        picked = Some(Picked::FromFile);
    }
    if menu.offer == Offer::Players {
        heading(ui, "Searches on player files");
        for spec in searches_on_files(menu.current) {
            picked = entry(ui, &spec, menu).or(picked);
        }
    }
    picked
}

/// The two players a menu ranks for the setup, as the command line names
/// them: `best` and `fast`.
pub(super) use crate::sim::players::Rank as Ranked;

/// The player `ranked` stands for under the rule set on the setup in the
/// window: the library's resolution ([`Ranked::measured`]) on the setup's
/// bundle.
pub(super) fn here(
    ranked: Ranked,
    on: RankedFor<'_>,
) -> Result<ratings::BestPlayer, crate::ai::NotAPlayer> {
    let lineage = crate::sim::players::lineage(on.variant).unwrap_or_default();
    ranked.measured(
        &lineage,
        on.setup.scenario_digest.as_deref(),
        &on.setup.bundle,
    )
}

/// "Strongest for rules-2.0", "Fast for rules-2.0".
fn ranked_heading(ranked: Ranked, variant: &str) -> String {
    match ranked {
        Ranked::Best => format!("Strongest for {variant}"),
        Ranked::Fast => format!("Fast for {variant}"),
    }
}

/// "Strongest for rules-2.0: Search (16 playouts, fitted for rules 2.0),
/// 82.0%" (or "Fast for rules-2.0: …"): the strongest shipped player for the
/// rule set (under the fast budget), resolved to the player itself.
fn ranked_entry(ui: &mut Ui, menu: &Menu<'_>, ranked: Ranked) -> Option<Picked> {
    let heading = ranked_heading(ranked, menu.ranked_for.variant);
    let found = match here(ranked, menu.ranked_for) {
        Ok(found) => found,
        Err(e) => {
            ui.label(RichText::new(format!("{heading}: {e}")).weak());
            return None;
        }
    };
    let best = found.spec.clone();
    // The setup's own fitted player (a fit's bundle beside it) comes first,
    // with the figure measured on this setup. Short enough for the menu to
    // stay inside a 1000 px window; who the score is against is the hover
    // text.
    let text = match &found.rating {
        Some(r) if found.fitted_here => format!(
            "{} (measured here): {}   {:.1}%",
            match ranked {
                Ranked::Best => "For this setup",
                Ranked::Fast => "Fast for this setup",
            },
            label(&best),
            r.score.estimate * 100.0
        ),
        Some(r) => format!(
            "{heading}: {}   {:.1}%",
            label(&best),
            r.score.estimate * 100.0
        ),
        None => format!(
            "{heading}: {} (no player measured under this rule set)",
            label(&best)
        ),
    };
    let why = match ranked {
        Ranked::Best => String::new(),
        Ranked::Fast => format!(
            "The strongest measured under {} CPU s a game, for runs of thousands of games (the command line's `fast`, its default player)\n\n",
            ratings::FAST_GAME_CPU
        ),
    };
    let response = ui.selectable_label(menu.current == Some(&best), RichText::new(text).strong());
    let response = match &found.rating {
        Some(r) => response.on_hover_text(format!(
            "{why}{}\n\n{}\n\n{}",
            spec_text(&best),
            found.describe(),
            rating_text(r)
        )),
        None => response.on_hover_text(format!(
            "{why}{}\n\n`caesar-workbench players --measure --variant …` measures the players",
            spec_text(&best)
        )),
    };
    response.clicked().then_some(Picked::Player(best))
}

/// One player of the menu, with its shipped rating under the rule set.
/// Picking the kind already chosen keeps it (and its budget) as it is.
fn entry(ui: &mut Ui, spec: &AiSpec, menu: &Menu<'_>) -> Option<Picked> {
    let chosen = menu.current.is_some_and(|c| same_kind(c, spec));
    let rating = rating_of(menu.ranked_for.variant, spec);
    let text = match rating {
        Some(r) => format!("{}   {:.1}%", label(spec), r.score.estimate * 100.0),
        None => label(spec),
    };
    let mut response = ui
        .selectable_label(chosen, text)
        .on_hover_text(spec_text(spec));
    if let Some(t) = spec.numbers_file() {
        response = response.on_hover_text(format!("Player file {}", t.path));
    }
    if let Some(r) = rating {
        response = response.on_hover_text(rating_text(r));
    }
    (response.clicked() && !chosen).then(|| Picked::Player(spec.clone()))
}

fn heading(ui: &mut Ui, text: &str) {
    ui.separator();
    ui.label(RichText::new(text).weak().small());
}

/// A rating as its tooltip says it.
fn rating_text(r: &Rating) -> String {
    format!(
        "{} against {}: {} over both sides ({:.1}% as Caesar, {:.1}% as Pompey), {:.2} CPU s a game.\nMeasured with {}",
        r.player,
        r.against,
        r.score.percent_text(0),
        r.as_caesar * 100.0,
        r.as_pompey * 100.0,
        r.cpu_seconds_per_game,
        r.measured
    )
}

/// A player in the words a board gamer reads ("Tree search (64
/// playouts, fitted for rules 2.0, learned value)"); its spec
/// (`mcts:64@variants/players/…`) is the hover text of every place that
/// shows these words.
pub(super) fn label(spec: &AiSpec) -> String {
    let budget = |s: &AiSpec| match s {
        AiSpec::Search { playouts } | AiSpec::Mcts { playouts } => {
            format!("{playouts} playouts")
        }
        AiSpec::SearchTimed { millis } | AiSpec::MctsTimed { millis } => {
            format!("{millis} ms a decision")
        }
        _ => String::new(),
    };
    let word = spec.kind().word;
    match spec {
        AiSpec::Random | AiSpec::Heuristic => word.to_string(),
        AiSpec::TunedHeuristic(t) => {
            format!("{word} ({})", PlayerFileName::of(&t.path).words())
        }
        AiSpec::Search { .. }
        | AiSpec::SearchTimed { .. }
        | AiSpec::Mcts { .. }
        | AiSpec::MctsTimed { .. } => format!("{word} ({})", budget(spec)),
        AiSpec::SearchOn(s) => {
            let mut parts = vec![budget(&s.search), PlayerFileName::of(&s.on.path).words()];
            if s.value.is_some() {
                parts.push("learned value".to_string());
            }
            format!("{word} ({})", parts.join(", "))
        }
        AiSpec::Equilibrium(mix) => format!("{word} ({})", file_name(&mix.path)),
    }
}

/// A player's spec as the command line writes it, with a player file by
/// its name only: the hover text of [`label`]'s words.
pub(super) fn spec_text(spec: &AiSpec) -> String {
    spec.text_with_file_names()
}

fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// The "playouts" row under a searching player's menu, as grid rows: the
/// budget of `search`, `mcts` and of a search on a player file.
pub(super) fn budget_row(ui: &mut Ui, label: &str, spec: &mut AiSpec) {
    let playouts = match spec {
        AiSpec::Search { playouts } | AiSpec::Mcts { playouts } => playouts,
        AiSpec::SearchOn(on) => match &mut on.search {
            AiSpec::Search { playouts } | AiSpec::Mcts { playouts } => playouts,
            _ => return,
        },
        _ => return,
    };
    let l = ui.label(label);
    ui.add(egui::DragValue::new(playouts).range(1..=4096))
        .labelled_by(l.id)
        .on_hover_text("Playouts per searched decision: more is stronger and slower");
    ui.end_row();
}

/// Whether picking `offered` when `current` is chosen changes nothing:
/// the same kind of player (any budget) on the same numbers.
fn same_kind(current: &AiSpec, offered: &AiSpec) -> bool {
    let file = |s: &AiSpec| {
        let value = match s {
            AiSpec::SearchOn(on) => on.value.as_ref().map(|v| v.path.clone()),
            _ => None,
        };
        (s.numbers_file().map(|t| t.path.clone()), value)
    };
    let kind = |s: &AiSpec| match s {
        AiSpec::SearchOn(on) => std::mem::discriminant(&on.search),
        other => std::mem::discriminant(other),
    };
    std::mem::discriminant(current) == std::mem::discriminant(offered)
        && kind(current) == kind(offered)
        && file(current) == file(offered)
}

/// `search` and `mcts` (default budgets) on each shipped player file, and
/// on the file chosen from disk, if any.
fn searches_on_files(current: Option<&AiSpec>) -> Vec<AiSpec> {
    let mut files: Vec<_> = shipped_files()
        .iter()
        .filter_map(AiSpec::numbers_file)
        .cloned()
        .collect();
    if let Some(own) = current.and_then(AiSpec::numbers_file)
        && !is_shipped(&own.path)
    {
        files.push(own.clone());
    }
    // Every kind that searches, at its default budget (`on_numbers_of`
    // skips the rest).
    files
        .iter()
        .flat_map(|on| KINDS.iter().filter_map(|kind| kind.plain.on_numbers_of(on)))
        .collect()
}

fn is_shipped(path: &str) -> bool {
    shipped_files()
        .iter()
        .filter_map(AiSpec::numbers_file)
        .any(|t| t.path == path)
}

/// The shipped ratings, read once.
fn shipped_ratings() -> &'static [Rating] {
    static RATINGS: OnceLock<Vec<Rating>> = OnceLock::new();
    RATINGS.get_or_init(ratings::shipped)
}

/// `spec`'s shipped rating under `variant`, if it was measured there.
fn rating_of(variant: &str, spec: &AiSpec) -> Option<&'static Rating> {
    let name = spec.to_string();
    ratings::ranked(shipped_ratings(), variant)
        .into_iter()
        .find(|r| r.player == name)
}

/// The shipped player files ([`crate::ai::shipped::FILES`], those that load
/// as one: the value files do not), named as the ratings name them
/// (`variants/players/NAME.ron`). Read once: they are built into the program.
pub(super) fn shipped_files() -> &'static [AiSpec] {
    static FILES: OnceLock<Vec<AiSpec>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut names: Vec<&str> = crate::ai::shipped::FILES
            .iter()
            .map(|(name, _)| *name)
            .collect();
        names.sort_unstable();
        names
            .iter()
            .filter_map(|n| {
                ratings::shipped_player(
                    &SpecText::heuristic_on(&crate::ai::shipped::path_of(n)).text(),
                )
                .ok()
            })
            .collect()
    })
}

/// The setup in the window, as the player menus rank players for it: its
/// scenario's content digest and the ratings of a fit's bundle beside it.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct SetupRatings {
    pub(crate) scenario_digest: Option<String>,
    pub(crate) bundle: Vec<Rating>,
}
