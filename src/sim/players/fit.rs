//! Players for a designer's own setup (`fit`): what a budget of minutes is
//! spent on, which player the bundle ships as best, and how `best` reads a
//! bundle back.
//!
//! A fit tunes the heuristic's numbers one side at a time against a pool
//! that holds the transferred fast player (the strongest fast player of the
//! nearest rated setup), learns a value on the fitted players' self-play,
//! and measures the fitted heuristic and a search on it (and the
//! transferred best player) on seeds the fit never played, against the
//! default heuristic and head to head. The bundle folder holds the player
//! and value files, `ratings.ron` (best first, by the fit's verdict), the
//! commands that made it and a short report. A fitted search ships as best
//! only if it beats the transferred best player head to head; otherwise the
//! bundle says so and names the transferred player first.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::ai::{AiSpec, PlayerNumbers, SpecText};
use crate::engine::Game;
use crate::scenario::format::LoadError;
use crate::scenario::model::Side;
use crate::scenario::rules::RuleSet;
use crate::sim::players::ratings::{self, BestPlayer, Rating};
use crate::sim::players::tune::{Effort, TuneOptions};
use crate::sim::runs::stats::Estimate;

/// The file of a bundle that `best` reads.
pub const BUNDLE_RATINGS: &str = "ratings.ron";

/// The bundle folder beside a setup file: `my-setup.ron` → `my-setup.players/`.
pub fn bundle_beside(setup_file: &Path) -> PathBuf {
    let stem = setup_file
        .file_stem()
        .map_or_else(|| "setup".into(), |s| s.to_string_lossy().into_owned());
    setup_file
        .parent()
        .unwrap_or(Path::new(""))
        .join(format!("{stem}.players"))
}

/// Share of the budget for each stage: tuning (both sides together),
/// learning the value, measuring on unseen seeds.
const TUNE_SHARE: f64 = 0.55;
const LEARN_SHARE: f64 = 0.10;
const MEASURE_SHARE: f64 = 0.35;

/// Games of a CMA-ES candidate while fitting (both sides, against the pool).
pub const GAMES_PER_CANDIDATE: u64 = 40;
/// Candidates per generation while fitting.
pub const POPULATION: usize = 10;

/// How many games each stage of a fit plays, worked out from its budget and
/// what a game costs on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FitPlan {
    /// Games of the CMA-ES search for each side's numbers.
    pub tune_games_per_side: u64,
    /// Games of self-play the value is learned on (a fifth held out).
    pub learn_games: u64,
    /// Games each way of every measured pairing.
    pub measure_games_each_way: u64,
}

impl FitPlan {
    /// The plan for `cpu_seconds` (minutes × 60 × threads) when a game of
    /// heuristics costs `heuristic_game` CPU seconds and one game of every
    /// measured pairing together costs `measured_games` (each way counted once).
    pub fn new(cpu_seconds: f64, heuristic_game: f64, measured_games: f64) -> FitPlan {
        let games = |share: f64, cost: f64| (cpu_seconds * share / cost.max(1e-6)) as u64;
        let per_side = games(TUNE_SHARE / 2.0, heuristic_game);
        let one_generation = GAMES_PER_CANDIDATE * POPULATION as u64;
        FitPlan {
            // At least one generation, whole generations only.
            tune_games_per_side: (per_side / one_generation).max(1) * one_generation,
            learn_games: games(LEARN_SHARE, heuristic_game).clamp(100, 20_000),
            measure_games_each_way: (games(MEASURE_SHARE, measured_games) / 2).clamp(10, 400),
        }
    }
}

/// Which player a fit ships first, from the head-to-head score of the
/// fitted search against the transferred best (both sides, on seeds the fit
/// never saw) and its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// The fitted search beat the transferred best: it is `best` here.
    FittedIsBest,
    /// It did not: the transferred player stays `best`, and the bundle says so.
    TransferredStays,
}

impl Verdict {
    /// A fitted player ships only when the whole 95% interval of its
    /// head-to-head score is over one half: never a player that may be
    /// weaker than the transferred one.
    pub fn of(head_to_head: &Estimate) -> Verdict {
        if head_to_head.ci95[0] > 0.5 {
            Verdict::FittedIsBest
        } else {
            Verdict::TransferredStays
        }
    }
}

/// The ratings of the bundle in `dir`, best first as the fit ordered them,
/// with every file a player names read from the bundle's own folder (so a
/// bundle may be moved or copied whole) or, for a shipped name
/// (`variants/players/NAME.ron`), built into the program. A file the bundle
/// names but does not hold is an error naming the bundle: it is never
/// looked for anywhere else.
pub fn bundle_ratings(dir: &Path) -> Result<Vec<Rating>, LoadError> {
    let path = dir.join(BUNDLE_RATINGS);
    let text = crate::scenario::format::read_text(&path)?;
    let mut ratings: Vec<Rating> = crate::scenario::format::parse_ron(&path, &text)?;
    let index = crate::scenario::format::SourceIndex::new(&text);
    for (i, r) in ratings.iter_mut().enumerate() {
        let named = r.player.clone();
        // Errors point at the entry's player.
        let at = |message: String| {
            let offset = text.find(&format!("\"{named}\"")).unwrap_or(0);
            let (line, column) = index.line_column(&text, offset);
            LoadError::Parse {
                location: crate::scenario::format::Location {
                    file: path.clone(),
                    line,
                    column,
                },
                message: format!("rating {} (player \"{named}\"): {message}", i + 1),
            }
        };
        ratings::check_figures(r).map_err(|e| at(e.to_string()))?;
        r.player = in_folder(&r.player, dir)?;
        r.player
            .parse::<AiSpec>()
            .map_err(|e| at(format!("not a player: {e}")))?;
    }
    Ok(ratings)
}

/// `player` with each file it names (`heuristic:FILE`, `search:N@FILE+VALUE`)
/// taken from the bundle `dir`: a shipped name stays as it is (the built-in
/// copy), any other must be a relative path inside `dir` to a file there.
fn in_folder(player: &str, dir: &Path) -> Result<String, LoadError> {
    let not_held = |file: &str, why: &str| {
        LoadError::Read(crate::files::ReadError::Io {
            path: dir.join(file),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "the fit's bundle {} names the player file \"{file}\" in {BUNDLE_RATINGS}, {why} (a bundle's files are read from its own folder only)",
                    dir.display()
                ),
            ),
        })
    };
    let place = |file: &str| -> Result<String, LoadError> {
        if crate::ai::shipped::is_shipped(file) {
            return Ok(file.to_string());
        }
        let relative = Path::new(file);
        let inside = !file.is_empty()
            && relative
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !inside {
            return Err(not_held(file, "which is outside it"));
        }
        let held = dir.join(relative);
        if !held.is_file() {
            return Err(not_held(file, "which it does not hold"));
        }
        Ok(held.display().to_string())
    };
    crate::ai::SpecText::of(player).with_files(|file, _| place(file))
}

// ------------------------------------------------------------ the fit itself

/// The least and most a fit's budget may be, in wall minutes of this
/// machine: below a tenth of a minute no plan fits (the least plan is one
/// generation a side and ten games each way a pairing), and a fit of more
/// than a day is better run as several.
pub const BUDGET_MINUTES: std::ops::RangeInclusive<f64> = 0.1..=1440.0;

/// Why a fit stopped.
#[derive(Debug, thiserror::Error)]
pub enum FitError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Write(#[from] crate::files::WriteError),
    #[error(transparent)]
    Options(#[from] crate::sim::runs::options::OptionsError),
    #[error(transparent)]
    Player(#[from] crate::ai::NotAPlayer),
    #[error("the setup cannot be played: {0}")]
    NotPlayable(#[from] crate::scenario::checked::NotPlayable),
    #[error("{} already holds a fit: resume it, or give another folder", .0.display())]
    AlreadyThere(PathBuf),
    #[error(
        "{} is not empty: a new fit writes a folder of its own (a new or empty one), so no file already there is taken for one of its stages",
        .0.display()
    )]
    NotEmpty(PathBuf),
    #[error("cannot make the folder {}: {source}", path.display())]
    Folder {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{} is a link: a fit writes its files in its own folder, never through a link",
        .0.display()
    )]
    Link(PathBuf),
    #[error(
        "the budget is wall minutes of this machine for the whole fit, from {min} to {max} (a day): got {0:?}",
        min = BUDGET_MINUTES.start(),
        max = BUDGET_MINUTES.end()
    )]
    Budget(f64),
    #[error(
        "the fit in {} was made for another version of this setup (the {what} changed since it began): going on would mix two setups; start a new fit in another folder",
        dir.display()
    )]
    SetupChanged { dir: PathBuf, what: &'static str },
    #[error("{}: {what}", path.display())]
    BadPlan { path: PathBuf, what: String },
    #[error("the fit was cancelled; what is finished is kept, and resuming goes on from there")]
    Cancelled,
}

impl From<crate::sim::Cancelled> for FitError {
    fn from(_: crate::sim::Cancelled) -> FitError {
        FitError::Cancelled
    }
}

/// What a fit was asked for, kept in the bundle (`fit.ron`) for a resume.
/// [`start`] takes the files as the caller names them; `fit.ron` keeps
/// them relative to the bundle's folder, so a bundle moved with its setup
/// resumes ([`FitState::scenario_file`], [`FitState::variant_spec`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FitRequest {
    /// The scenario file (`None`: the published game).
    pub scenario: Option<PathBuf>,
    pub variant: String,
    pub budget_minutes: f64,
    pub seed: u64,
}

/// A fit under way: its request (files relative to the bundle), its plan,
/// and the setup it was made for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FitState {
    pub request: FitRequest,
    pub plan: FitPlan,
    /// The content digest of the scenario the fit began on.
    pub scenario_digest: String,
    /// The [`RuleSet::play_digest`] of the rule set it began under.
    pub rules_digest: String,
}

impl FitState {
    /// The scenario file of the fit in `dir`, as this process opens it.
    pub fn scenario_file(&self, dir: &Path) -> Option<PathBuf> {
        self.request.scenario.as_ref().map(|p| dir.join(p))
    }

    /// The rule set of the fit in `dir`, as `--variant` takes it here: a
    /// built-in name as it is, a file found from the bundle.
    pub fn variant_spec(&self, dir: &Path) -> String {
        let v = &self.request.variant;
        if crate::scenario::rules::is_bare_name(v) {
            v.clone()
        } else {
            dir.join(v).display().to_string()
        }
    }
}

const STATE: &str = "fit.ron";
const CAESAR_FILE: &str = "fitted-caesar.ron";
/// The fitted player file of a bundle (numbers per side).
pub const FITTED_FILE: &str = "fitted.ron";
/// The learned value of a bundle.
pub const VALUE_FILE: &str = "value.ron";
const MEASURED_FILE: &str = "measured.ron";
/// The report of a bundle, in Markdown.
pub const REPORT_FILE: &str = "report.md";

/// The fitted search a bundle's ratings name, `search:16@fitted.ron+value.ron`
/// (the grammar is `ai::spec`'s).
fn fitted_search() -> String {
    let search = AiSpec::Search { playouts: 16 }.to_string();
    SpecText::search_on(&search, FITTED_FILE, Some(VALUE_FILE)).text()
}

/// Every file a fit writes in its bundle.
const BUNDLE_FILES: [&str; 7] = [
    STATE,
    CAESAR_FILE,
    FITTED_FILE,
    VALUE_FILE,
    MEASURED_FILE,
    BUNDLE_RATINGS,
    REPORT_FILE,
];

/// Salt of the measured games' seeds: a stream no stage of the fit plays.
const MEASURE_SALT: u64 = 0x6d65_6173_7572_6564;

/// The players a setup has before a fit: the best and the strongest fast
/// one of the nearest rated rule set.
pub struct Transferred {
    pub best: BestPlayer,
    pub fast: AiSpec,
    /// The fast player's shipped CPU seconds a game, to scale the shipped
    /// costs to this machine and build.
    fast_cpu: Option<f64>,
}

impl Transferred {
    /// The transferred players of `variant` on `game`'s scenario.
    pub fn of(variant: &str, game: &Game) -> Result<Transferred, FitError> {
        let lineage = RuleSet::lineage(variant)?;
        let scenario = Some(game.scenario.digest.as_str());
        let best = ratings::best_for(&lineage, scenario, &[])?;
        let fast = ratings::fast_for(&lineage, scenario, &[])?;
        Ok(Transferred {
            best,
            fast_cpu: fast.rating.as_ref().map(|r| r.cpu_seconds_per_game),
            fast: fast.spec,
        })
    }

    /// CPU seconds of one game of every measured pairing together.
    fn measured_games_cost(&self) -> f64 {
        let best = self
            .best
            .rating
            .as_ref()
            .map_or(0.05, |r| r.cpu_seconds_per_game);
        // The fitted search costs about what a 16-playout search does.
        let search = 0.06;
        4.0 * ratings::FAST_GAME_CPU + search + (search + best) + best
    }
}

/// Whether `name` is a file a fit leaves behind while writing (a temporary
/// file or a probe of the folder), not one of its files.
fn is_scratch(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.') && (name.contains(".tmp-") || name.contains(".probe-"))
}

/// Checks, before any game, that every file of the bundle in `dir` can be
/// written: none is a link, an input of this process or unwritable.
fn check_bundle_outputs(dir: &Path) -> Result<(), FitError> {
    for file in BUNDLE_FILES {
        let path = dir.join(file);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(FitError::Link(path));
        }
        crate::files::check_output(&path)?;
    }
    Ok(())
}

/// `path` relative to the folder `dir` (both as this process names them):
/// how `fit.ron` names the setup's files.
fn relative_to(path: &Path, dir: &Path) -> PathBuf {
    let absolute = |p: &Path| {
        std::fs::canonicalize(p).unwrap_or_else(|_| std::path::absolute(p).unwrap_or(p.into()))
    };
    let (path, dir) = (absolute(path), absolute(dir));
    let common = path
        .components()
        .zip(dir.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut relative = PathBuf::new();
    for _ in dir.components().skip(common) {
        relative.push("..");
    }
    for part in path.components().skip(common) {
        relative.push(part);
    }
    relative
}

/// `dir` made ready for a new fit: made if missing, refused when a fit is
/// there already or it holds anything but scratch files.
fn new_fit_folder(dir: &Path) -> Result<(), FitError> {
    if dir.join(STATE).exists() {
        return Err(FitError::AlreadyThere(dir.to_path_buf()));
    }
    if std::fs::symlink_metadata(dir).is_ok() {
        let entries = std::fs::read_dir(dir).map_err(|source| FitError::Folder {
            path: dir.to_path_buf(),
            source,
        })?;
        if entries.flatten().any(|e| !is_scratch(&e.file_name())) {
            return Err(FitError::NotEmpty(dir.to_path_buf()));
        }
    }
    std::fs::create_dir_all(dir).map_err(|source| FitError::Folder {
        path: dir.to_path_buf(),
        source,
    })
}

/// Starts a fit in `dir` (made if missing; refused unless new or empty):
/// checks every output, times a game on this machine (on the current rayon
/// pool) and writes the plan.
pub fn start(dir: &Path, request: FitRequest, game: &Game) -> Result<FitState, FitError> {
    if !BUDGET_MINUTES.contains(&request.budget_minutes) {
        return Err(FitError::Budget(request.budget_minutes));
    }
    new_fit_folder(dir)?;
    check_bundle_outputs(dir)?;
    let threads = rayon::current_num_threads();
    let cpu_seconds = request.budget_minutes * 60.0 * threads as f64;
    let transferred = Transferred::of(&request.variant, game)?;
    let calibration = ratings::rate(
        game,
        &request.variant,
        &transferred.fast,
        &AiSpec::Heuristic,
        2 * threads as u64,
        request.seed ^ MEASURE_SALT,
        &crate::sim::Progress::new(),
    )?;
    let heuristic_game = calibration.cpu_seconds_per_game.max(1e-4);
    // The shipped costs were measured on another build or machine: scaled
    // by how the same pairing costs here.
    let here = transferred.fast_cpu.map_or(1.0, |shipped| {
        (heuristic_game / shipped.max(1e-6)).clamp(0.2, 20.0)
    });
    let plan = FitPlan::new(
        cpu_seconds,
        heuristic_game,
        here * transferred.measured_games_cost(),
    );
    let variant = if crate::scenario::rules::is_bare_name(&request.variant) {
        request.variant.clone()
    } else {
        relative_to(Path::new(&request.variant), dir)
            .display()
            .to_string()
    };
    let state = FitState {
        request: FitRequest {
            scenario: request.scenario.as_deref().map(|p| relative_to(p, dir)),
            variant,
            ..request
        },
        plan,
        scenario_digest: game.scenario.digest.clone(),
        rules_digest: game.rules.play_digest(),
    };
    let text =
        ron::ser::to_string_pretty(&state, ron::ser::PrettyConfig::default()).unwrap_or_default();
    crate::files::write_own(
        &dir.join(STATE),
        &format!(
            "// A fit under way: resuming it goes on from its first unfinished stage.\n// Files are named from this folder.\n{text}\n"
        ),
    )?;
    Ok(state)
}

/// The fit in `dir`, to go on with.
pub fn resume(dir: &Path) -> Result<FitState, FitError> {
    let path = dir.join(STATE);
    let text = crate::scenario::format::read_own_text(&path)?;
    let bad = |what: String| FitError::BadPlan {
        path: path.clone(),
        what,
    };
    let state: FitState = match crate::scenario::format::parse_ron(&path, &text) {
        Ok(state) => state,
        // A fit begun before fit.ron recorded its setup cannot be told from
        // one of another setup.
        Err(_) if !text.contains("scenario_digest") => {
            return Err(bad(
                "this fit was begun by an older version of the workbench, which recorded no digest of its setup: it cannot be resumed safely; start a new fit in another folder"
                    .to_string(),
            ));
        }
        Err(e) => return Err(e.into()),
    };
    if !BUDGET_MINUTES.contains(&state.request.budget_minutes) {
        return Err(FitError::Budget(state.request.budget_minutes));
    }
    let generation = GAMES_PER_CANDIDATE * POPULATION as u64;
    let plan = &state.plan;
    if plan.tune_games_per_side == 0 || !plan.tune_games_per_side.is_multiple_of(generation) {
        return Err(bad(format!(
            "tune_games_per_side is {}: a whole number of generations of {generation} games",
            plan.tune_games_per_side
        )));
    }
    if !(1..=1_000_000).contains(&plan.measure_games_each_way) {
        return Err(bad(format!(
            "measure_games_each_way is {}: from 1 to 1000000",
            plan.measure_games_each_way
        )));
    }
    Ok(state)
}

/// What a finished fit chose, and its report.
pub struct FitOutcome {
    pub verdict: Verdict,
    pub report: String,
}

/// The stages of one fit, each skipped when its file is already there.
pub struct Fit<'a> {
    pub dir: &'a Path,
    pub state: &'a FitState,
    pub game: &'a Game,
    pub transferred: Transferred,
}

/// The pairings a fit measures, in order: each player against its
/// opponent, on seeds the fit never played.
const PAIRINGS: usize = 6;

impl Fit<'_> {
    /// The pairings measured, by name: the same pairing twice (the
    /// transferred best is the fast player, or the default heuristic) once.
    fn pairing_names(&self) -> Vec<(String, String)> {
        let fitted = SpecText::heuristic_on(FITTED_FILE).text();
        let search = fitted_search();
        let (best, fast) = (
            self.transferred.best.spec.to_string(),
            self.transferred.fast.to_string(),
        );
        let heuristic = AiSpec::Heuristic.to_string();
        let mut names = Vec::new();
        for pair in [
            (fitted.clone(), heuristic.clone()),
            (fast.clone(), heuristic.clone()),
            (search.clone(), heuristic.clone()),
            (best.clone(), heuristic),
            (search, best),
            (fitted, fast),
        ] {
            if !names.contains(&pair) {
                names.push(pair);
            }
        }
        names
    }

    /// Games the stages not yet finished will play, for a progress bar.
    pub fn games_left(&self) -> u64 {
        let plan = &self.state.plan;
        let file = |f: &str| self.dir.join(f).exists();
        let tune = |f: &str| if file(f) { 0 } else { plan.tune_games_per_side };
        let measured = self.measured_so_far().unwrap_or_default();
        let left = self
            .pairing_names()
            .iter()
            .filter(|(p, a)| !measured.iter().any(|r| &r.player == p && &r.against == a))
            .count() as u64;
        tune(CAESAR_FILE)
            + tune(FITTED_FILE)
            + if file(VALUE_FILE) {
                0
            } else {
                plan.learn_games
            }
            + 2 * plan.measure_games_each_way * left
    }

    /// Refuses to go on with a fit made for another version of the setup
    /// in play, or whose files cannot all be written.
    pub fn check(&self) -> Result<(), FitError> {
        let changed = |what| FitError::SetupChanged {
            dir: self.dir.to_path_buf(),
            what,
        };
        if self.game.scenario.digest != self.state.scenario_digest {
            return Err(changed("scenario"));
        }
        if self.game.rules.play_digest() != self.state.rules_digest {
            return Err(changed("rule set"));
        }
        check_bundle_outputs(self.dir)
    }

    /// Runs every unfinished stage on the current rayon pool, saying what
    /// each does through `say`; `progress` counts games and cancels. The
    /// setup and every output are checked first ([`Fit::check`]).
    pub fn run(
        &self,
        progress: &crate::sim::Progress,
        say: &mut dyn FnMut(String),
    ) -> Result<FitOutcome, FitError> {
        self.check()?;
        self.tune_side(Side::Caesar, progress, say)?;
        self.tune_side(Side::Pompey, progress, say)?;
        self.learn(progress, say)?;
        let measured = self.measure(progress, say)?;
        let verdict = self.bundle(&measured)?;
        Ok(FitOutcome {
            verdict,
            report: self.report(&measured, verdict),
        })
    }

    fn numbers_of(&self, file: &str) -> Result<PlayerNumbers, FitError> {
        Ok(PlayerNumbers::load(&self.dir.join(file))?)
    }

    /// The transferred fast player's numbers (the default ones when it is
    /// the default heuristic).
    fn transferred_numbers(&self) -> PlayerNumbers {
        self.transferred
            .fast
            .numbers_file()
            .map_or_else(PlayerNumbers::default, |t| t.numbers)
    }

    /// Tunes one side's numbers, Caesar's from the transferred fast player,
    /// then Pompey's from the fitted Caesar, each against a pool of the
    /// transferred fast player and the default heuristic.
    fn tune_side(
        &self,
        side: Side,
        progress: &crate::sim::Progress,
        say: &mut dyn FnMut(String),
    ) -> Result<(), FitError> {
        let (start, file) = match side {
            Side::Caesar => (self.transferred_numbers(), CAESAR_FILE),
            Side::Pompey => (self.numbers_of(CAESAR_FILE)?, FITTED_FILE),
        };
        if self.dir.join(file).exists() {
            say(format!("{side}'s numbers already fitted ({file})"));
            return Ok(());
        }
        let options = TuneOptions {
            effort: Effort {
                budget: self.state.plan.tune_games_per_side,
                games_per_candidate: GAMES_PER_CANDIDATE,
                population: POPULATION,
                step: 0.3,
                check_games: 0,
                seed: self.state.request.seed + side.index() as u64,
            },
            start,
            side: Some(side),
            against: vec![self.transferred_numbers(), PlayerNumbers::default()],
        };
        options.check()?;
        say(format!(
            "tuning {side}'s numbers ({} games)",
            options.total_games()
        ));
        let name = format!("{} ({})", self.state.request.variant, self.game.rules.name);
        let report = crate::sim::players::tune::tune(self.game, &name, &options, progress)?;
        crate::files::write_own(&self.dir.join(file), &report.player_file())?;
        Ok(())
    }

    /// Learns a value on the fitted players' self-play.
    fn learn(
        &self,
        progress: &crate::sim::Progress,
        say: &mut dyn FnMut(String),
    ) -> Result<(), FitError> {
        if self.dir.join(VALUE_FILE).exists() {
            say(format!("the value already learned ({VALUE_FILE})"));
            return Ok(());
        }
        let fitted = self.own(&SpecText::heuristic_on(FITTED_FILE).text())?;
        let options = crate::sim::players::learn::LearnOptions {
            games: self.state.plan.learn_games,
            held_out: 0.2,
            seed: self.state.request.seed + 2,
            players: [fitted.clone(), fitted],
            horizon_turns: 5,
            playouts_stop: crate::ai::value::PlayoutStop::Horizon,
        };
        options.check()?;
        say(format!("learning a value ({} games)", options.games));
        let report = crate::sim::players::learn::learn(
            self.game,
            &self.state.request.variant,
            &options,
            progress,
        )?;
        crate::files::write_own(&self.dir.join(VALUE_FILE), &report.value_file())?;
        Ok(())
    }

    /// A player on the bundle's own files (`spec` names them as the bundle
    /// does, from its folder), read from the folder and named as in `spec`.
    fn own(&self, spec: &str) -> Result<AiSpec, FitError> {
        let mut player: AiSpec = in_folder(spec, self.dir)?.parse()?;
        let own = |path: &mut String| {
            if let Ok(rest) = Path::new(path.as_str()).strip_prefix(self.dir) {
                *path = rest.display().to_string();
            }
        };
        match &mut player {
            AiSpec::TunedHeuristic(t) => own(&mut t.path),
            AiSpec::SearchOn(s) => {
                own(&mut s.on.path);
                if let Some(value) = &mut s.value {
                    own(&mut value.path);
                }
            }
            _ => {}
        }
        Ok(player)
    }

    fn measured_so_far(&self) -> Option<Vec<Rating>> {
        let path = self.dir.join(MEASURED_FILE);
        let text = crate::scenario::format::read_own_text(&path).ok()?;
        crate::scenario::format::parse_ron(&path, &text).ok()
    }

    /// Every pairing measured on seeds the fit never played, kept in
    /// `measured.ron` as it goes: a pairing already there (the same players
    /// by name from the bundle and by content) is not played again.
    fn measure(
        &self,
        progress: &crate::sim::Progress,
        say: &mut dyn FnMut(String),
    ) -> Result<Measured, FitError> {
        let fitted = self.own(&SpecText::heuristic_on(FITTED_FILE).text())?;
        let search = self.own(&fitted_search())?;
        let best = self.transferred.best.spec.clone();
        let fast = self.transferred.fast.clone();
        let pairings: [(&AiSpec, &AiSpec); PAIRINGS] = [
            (&fitted, &AiSpec::Heuristic),
            (&fast, &AiSpec::Heuristic),
            (&search, &AiSpec::Heuristic),
            (&best, &AiSpec::Heuristic),
            (&search, &best),
            (&fitted, &fast),
        ];
        let same = |r: &Rating, player: &AiSpec, against: &AiSpec| {
            r.player == player.to_string()
                && r.against == against.to_string()
                && r.player_digest == player.play_digest()
        };
        // Only what was measured of these very players is kept.
        let mut done: Vec<Rating> = self
            .measured_so_far()
            .unwrap_or_default()
            .into_iter()
            .filter(|r| pairings.iter().any(|(p, a)| same(r, p, a)))
            .collect();
        let games = self.state.plan.measure_games_each_way;
        let request = &self.state.request;
        for (player, against) in pairings {
            if done.iter().any(|r| same(r, player, against)) {
                continue;
            }
            say(format!(
                "measuring {player} against {against} ({games} games each way)"
            ));
            let seed = request.seed ^ MEASURE_SALT;
            let mut rating = ratings::rate(
                self.game,
                &request.variant,
                player,
                against,
                games,
                seed,
                progress,
            )?;
            rating.measured = format!(
                "caesar-workbench players --measure --variant {}{} --players {player} --against {against} --games {games} --seed {seed} ({} threads; files from the bundle's folder)",
                request.variant,
                request
                    .scenario
                    .as_ref()
                    .map_or(String::new(), |s| format!(" --scenario {}", s.display())),
                rayon::current_num_threads()
            );
            rating.variant_digest = self.game.rules.play_digest();
            done.push(rating);
            let text = ron::ser::to_string_pretty(&done, ron::ser::PrettyConfig::default())
                .unwrap_or_default();
            crate::files::write_own(&self.dir.join(MEASURED_FILE), &format!("{text}\n"))?;
        }
        let find = |player: &AiSpec, against: &AiSpec| {
            done.iter()
                .find(|r| same(r, player, against))
                .cloned()
                .expect("every pairing was measured above")
        };
        Ok(Measured {
            fitted: find(&fitted, &AiSpec::Heuristic),
            transferred_fast: find(&fast, &AiSpec::Heuristic),
            search: find(&search, &AiSpec::Heuristic),
            transferred_best: find(&best, &AiSpec::Heuristic),
            head_to_head: find(&search, &best),
            fast_head_to_head: find(&fitted, &fast),
        })
    }

    /// The bundle's ratings (best first by the verdict, then the fast
    /// players, the fitted one first only if it surely beats the
    /// transferred one head to head) and its report.
    fn bundle(&self, m: &Measured) -> Result<Verdict, FitError> {
        let verdict = Verdict::of(&m.head_to_head.score);
        let (first, second) = match verdict {
            Verdict::FittedIsBest => (&m.search, &m.transferred_best),
            Verdict::TransferredStays => (&m.transferred_best, &m.search),
        };
        let [fast_first, fast_second] =
            fast_order(&m.fitted, &m.transferred_fast, &m.fast_head_to_head.score);
        let entries: Vec<Rating> = [first, second, fast_first, fast_second]
            .into_iter()
            .cloned()
            .collect();
        let text = ron::ser::to_string_pretty(&entries, ron::ser::PrettyConfig::default())
            .unwrap_or_default();
        let header = "// Players for this setup, written by `caesar-workbench fit`: the first is `best`,\n// the first under 0.005 CPU s a game the fast default. Files are found in this folder.\n";
        crate::files::write_own(&self.dir.join(BUNDLE_RATINGS), &format!("{header}{text}\n"))?;
        crate::files::write_own(&self.dir.join(REPORT_FILE), &self.report(m, verdict))?;
        Ok(verdict)
    }

    fn report(&self, m: &Measured, verdict: Verdict) -> String {
        let pct = |r: &Rating| {
            format!(
                "{:.1}% ({:.1}–{:.1}%; as Caesar {:.1}%, as Pompey {:.1}%; {:.3} CPU s a game)",
                100.0 * r.score.estimate,
                100.0 * r.score.ci95[0],
                100.0 * r.score.ci95[1],
                100.0 * r.as_caesar,
                100.0 * r.as_pompey,
                r.cpu_seconds_per_game
            )
        };
        let s = &self.state.request;
        let setup = s
            .scenario
            .as_ref()
            .map_or("the published game".to_string(), |p| {
                p.display().to_string()
            });
        let mut text = format!(
            "# Players fitted for {setup} under {}\n\n\
             Budget {} min, seed {}; {} games each way per pairing, on seeds the fit never played.\n\
             Transferred: best {} ({}), fast {}.\n\n\
             | player | against the default heuristic |\n|---|---|\n\
             | fitted heuristic (`{FITTED_FILE}`) | {} |\n\
             | transferred fast player | {} |\n\
             | fitted search (`{}`) | {} |\n\
             | transferred best player | {} |\n\n\
             Fitted search against the transferred best, head to head: {}\n\n\
             Fitted heuristic against the transferred fast player, head to head: {}\n\n",
            s.variant,
            s.budget_minutes,
            s.seed,
            self.state.plan.measure_games_each_way,
            self.transferred.best.spec,
            self.transferred.best.describe(),
            self.transferred.fast,
            pct(&m.fitted),
            pct(&m.transferred_fast),
            fitted_search(),
            pct(&m.search),
            pct(&m.transferred_best),
            pct(&m.head_to_head),
            pct(&m.fast_head_to_head),
        );
        text += match verdict {
            Verdict::FittedIsBest => {
                "Verdict: the fitted search beats the transferred best (its whole interval is above 50%); `best` plays it on this setup.\n"
            }
            Verdict::TransferredStays => {
                "Verdict: the fitted search does not surely beat the transferred best (its interval reaches 50%), so the transferred player stays `best` on this setup.\n"
            }
        };
        text += match Verdict::of(&m.fast_head_to_head.score) {
            Verdict::FittedIsBest => {
                "Fast: the fitted heuristic beats the transferred fast player (its whole interval is above 50%); `fast` plays it on this setup.\n"
            }
            Verdict::TransferredStays => {
                "Fast: the fitted heuristic does not surely beat the transferred fast player (its interval reaches 50%), so the transferred one stays `fast` on this setup.\n"
            }
        };
        text += &format!(
            "\nMade by (files named from this folder):\n\n    caesar-workbench fit --variant {}{} --budget {} --seed {}\n",
            s.variant,
            s.scenario
                .as_ref()
                .map_or(String::new(), |p| format!(" --scenario {}", p.display())),
            s.budget_minutes,
            s.seed,
        );
        text
    }
}

/// The fast players in the bundle's order: the fitted heuristic first only
/// if the whole 95% interval of its head-to-head score against the
/// transferred fast player is above one half (the guard [`Verdict::of`]
/// puts on `best`), whatever their scores against the default heuristic.
fn fast_order<'a>(
    fitted: &'a Rating,
    transferred: &'a Rating,
    head_to_head: &Estimate,
) -> [&'a Rating; 2] {
    match Verdict::of(head_to_head) {
        Verdict::FittedIsBest => [fitted, transferred],
        Verdict::TransferredStays => [transferred, fitted],
    }
}

/// What the fit measured, one rating a pairing.
struct Measured {
    fitted: Rating,
    transferred_fast: Rating,
    search: Rating,
    transferred_best: Rating,
    head_to_head: Rating,
    fast_head_to_head: Rating,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_spends_the_budget_in_whole_generations_and_bounded_measurements() {
        let plan = FitPlan::new(1200.0, 0.002, 0.7);
        let generation = GAMES_PER_CANDIDATE * POPULATION as u64;
        assert_eq!(plan.tune_games_per_side % generation, 0);
        assert!(plan.tune_games_per_side >= 100 * generation, "{plan:?}");
        assert!(
            (20..=400).contains(&plan.measure_games_each_way),
            "{plan:?}"
        );
        let tiny = FitPlan::new(1.0, 0.01, 1.0);
        assert_eq!(
            tiny.tune_games_per_side, generation,
            "at least one generation"
        );
        assert_eq!(tiny.measure_games_each_way, 10);
        assert_eq!(tiny.learn_games, 100);
    }

    #[test]
    fn a_fitted_player_ships_only_when_it_surely_beats_the_transferred_one() {
        let score = |wins| Estimate::of(wins, 800);
        assert_eq!(Verdict::of(&score(480)), Verdict::FittedIsBest);
        assert_eq!(
            Verdict::of(&score(420)),
            Verdict::TransferredStays,
            "52.5% is noise"
        );
        assert_eq!(Verdict::of(&score(240)), Verdict::TransferredStays);
    }

    #[test]
    fn fast_is_replaced_only_on_a_sure_head_to_head_win_not_on_noise() {
        let rating = |player: &str, estimate: f64| Rating {
            variant: "rules-2.0".into(),
            player: player.into(),
            against: "heuristic".into(),
            score: Estimate {
                estimate,
                ci95: [estimate - 0.1, estimate + 0.1],
            },
            games_each_way: 10,
            as_caesar: estimate,
            as_pompey: estimate,
            cpu_seconds_per_game: 0.001,
            measured: String::new(),
            scenario: ratings::PUBLISHED.into(),
            scenario_digest: String::new(),
            variant_digest: String::new(),
            player_digest: String::new(),
        };
        // 82.5% against 80.0% on 10 games each way, and 11 of 20 head to head.
        let (fitted, transferred) = (rating("fitted", 0.825), rating("transferred", 0.8));
        let noise = Estimate::of(11, 20);
        assert_eq!(
            fast_order(&fitted, &transferred, &noise)[0].player,
            "transferred"
        );
        let sure = Estimate::of(480, 800);
        assert_eq!(fast_order(&fitted, &transferred, &sure)[0].player, "fitted");
        // A fitted player weaker against the heuristic that surely wins
        // head to head is still `fast`: the head to head decides.
        let weaker = rating("fitted", 0.7);
        assert_eq!(fast_order(&weaker, &transferred, &sure)[0].player, "fitted");
    }

    #[test]
    fn a_bundles_files_are_found_in_its_own_folder_only() {
        let folder = tempfile::tempdir().unwrap();
        let dir = folder.path();
        for file in ["fitted.ron", "value.ron"] {
            std::fs::write(dir.join(file), "()").unwrap();
        }
        let d = dir.display();
        assert_eq!(
            in_folder("search:16@fitted.ron+value.ron", dir).unwrap(),
            format!("search:16@{d}/fitted.ron+{d}/value.ron")
        );
        assert_eq!(
            in_folder("heuristic:fitted.ron", dir).unwrap(),
            format!("heuristic:{d}/fitted.ron")
        );
        assert_eq!(
            in_folder("mcts:64@variants/players/tuned-rules-2.0.ron", dir).unwrap(),
            "mcts:64@variants/players/tuned-rules-2.0.ron",
            "a shipped file stays as the ratings name it: the built-in copy"
        );
        assert_eq!(in_folder("heuristic", dir).unwrap(), "heuristic");
        for outside in [
            "heuristic:/abs/p.ron",
            "heuristic:../fitted.ron",
            "search:16@fitted.ron+missing.ron",
            "heuristic:variants/players/x.ron",
        ] {
            let e = in_folder(outside, dir).unwrap_err().to_string();
            assert!(
                e.contains(&format!("the fit's bundle {d}")),
                "{outside}: {e}"
            );
        }
        assert_eq!(
            bundle_beside(Path::new("scenarios/mine.ron")),
            Path::new("scenarios/mine.players")
        );
    }
}
