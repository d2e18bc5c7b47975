//! `fit`: players for a new setup in one command. Each stage writes its
//! file into the bundle folder as it ends, so an interrupted fit keeps what
//! is finished and `fit --resume DIR` goes on from there.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use caesar_workbench::ai::{AiSpec, PlayerNumbers};
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::rules::{DEFAULT_VARIANT, RuleSet};
use caesar_workbench::sim::fit::{self, FitPlan, Verdict};
use caesar_workbench::sim::learn::{self, LearnOptions};
use caesar_workbench::sim::ratings::{self, BestPlayer, Rating};
use caesar_workbench::sim::tune::{self, TuneOptions};
use serde::{Deserialize, Serialize};

use super::args::{Loaded, load_game, parse_threads, pool};
use super::output::warn;
use super::simulate::with_progress;
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// Scenario file; the built-in published game when left out.
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// Rule set: a variant file or a built-in name.
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// Minutes of this machine the whole fit may take (every thread busy).
    #[arg(long, default_value_t = 10.0)]
    budget: f64,
    /// The bundle folder to write (default: NAME.players beside the scenario
    /// file, else beside the variant file); `best` finds it there.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Go on with the fit whose bundle is DIR, from the first stage not finished.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["scenario", "out"])]
    resume: Option<PathBuf>,
    /// Base seed of the fit; the measurements play seeds derived from it
    /// that no stage of the fit played.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores; at most 256).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
}

/// What a fit was asked for, kept in the bundle (`fit.ron`) for `--resume`.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct FitState {
    /// The scenario file, as given (`None`: the published game).
    scenario: Option<PathBuf>,
    variant: String,
    budget_minutes: f64,
    seed: u64,
    plan: FitPlan,
}

const STATE: &str = "fit.ron";
const CAESAR_FILE: &str = "fitted-caesar.ron";
const FITTED_FILE: &str = "fitted.ron";
const VALUE_FILE: &str = "value.ron";
const MEASURED_FILE: &str = "measured.ron";
const REPORT_FILE: &str = "report.md";

/// Salt of the measured games' seeds: a stream no stage of the fit plays.
const MEASURE_SALT: u64 = 0x6d65_6173_7572_6564;

/// A fast player costs under this many CPU seconds a game.
const FAST_GAME: f64 = 0.005;

pub fn fit(out: &mut Output, args: FitArgs) -> Result<ExitCode, CliError> {
    if !(args.budget.is_finite() && args.budget > 0.0) {
        return Err(CliError::Usage(format!(
            "--budget is minutes of this machine, more than 0 (got {})",
            args.budget
        )));
    }
    let pool = pool(args.threads)?;
    let threads = pool.current_num_threads();
    let (dir, state, loaded) = match &args.resume {
        Some(dir) => resume(dir)?,
        None => start(&args, threads, &pool)?,
    };
    let started = Instant::now();
    let transferred = transferred(&state, &loaded)?;
    let stages = Stages {
        dir: &dir,
        state: &state,
        loaded: &loaded,
        pool: &pool,
        transferred: &transferred,
    };
    stages.tune_side(Side::Caesar)?;
    stages.tune_side(Side::Pompey)?;
    stages.learn()?;
    let measured = stages.measure()?;
    let verdict = stages.bundle(&measured)?;
    let report = std::fs::read_to_string(dir.join(REPORT_FILE)).unwrap_or_default();
    out.line(report.trim_end())?;
    out.line(format!(
        "\nwrote {} ({} this run; {}): `--caesar-ai best` finds it beside the setup, or with --players {}",
        dir.display(),
        minutes(started.elapsed().as_secs_f64()),
        match verdict {
            Verdict::FittedIsBest => "the fitted search is best here",
            Verdict::TransferredStays => "the transferred player stays best",
        },
        dir.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn minutes(seconds: f64) -> String {
    format!("{:.1} min", seconds / 60.0)
}

/// A new fit: the bundle folder made, the cost of a game on this machine
/// measured, the plan written.
fn start(
    args: &FitArgs,
    threads: usize,
    pool: &rayon::ThreadPool,
) -> Result<(PathBuf, FitState, Loaded), CliError> {
    let loaded = load_game(args.scenario.as_deref(), &args.variant)?;
    let dir = match (&args.out, &args.scenario) {
        (Some(dir), _) => dir.clone(),
        (None, Some(scenario)) => fit::bundle_beside(scenario),
        (None, None) if !caesar_workbench::scenario::rules::is_bare_name(&args.variant) => {
            fit::bundle_beside(Path::new(&args.variant))
        }
        (None, None) => {
            return Err(CliError::Usage(
                "the published game under a built-in rule set has its shipped players: give --out DIR to fit anyway".to_string(),
            ));
        }
    };
    if dir.join(STATE).exists() {
        return Err(CliError::Usage(format!(
            "{} already holds a fit: `fit --resume {}` goes on with it, or give another --out",
            dir.display(),
            dir.display()
        )));
    }
    std::fs::create_dir_all(&dir).map_err(|source| CliError::Read {
        path: dir.clone(),
        source,
    })?;
    let cpu_seconds = args.budget * 60.0 * threads as f64;
    let state_so_far = FitState {
        scenario: args.scenario.clone(),
        variant: args.variant.clone(),
        budget_minutes: args.budget,
        seed: args.seed,
        plan: FitPlan::new(cpu_seconds, 0.01, 1.0),
    };
    let transferred = transferred(&state_so_far, &loaded)?;
    warn("fit: timing a game on this machine");
    let calibration = pool
        .install(|| {
            ratings::rate(
                &loaded.game,
                &args.variant,
                &transferred.fast,
                &AiSpec::Heuristic,
                2 * threads as u64,
                args.seed ^ MEASURE_SALT,
                &caesar_workbench::sim::Progress::new(),
            )
        })
        .map_err(|_| CliError::Usage("cancelled".to_string()))?;
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
    let state = FitState {
        plan,
        ..state_so_far
    };
    let text = ron::ser::to_string_pretty(&state, ron::ser::PrettyConfig::default())
        .map_err(|e| CliError::Usage(e.to_string()))?;
    caesar_workbench::files::write_output(
        &dir.join(STATE),
        &format!(
            "// `caesar-workbench fit --resume {}` goes on with this fit.\n{text}\n",
            dir.display()
        ),
    )?;
    warn(format_args!(
        "fit: {:.4} CPU s a heuristic game; plan: {} games per side tuning, {} learning, {} each way per measured pairing",
        heuristic_game, plan.tune_games_per_side, plan.learn_games, plan.measure_games_each_way
    ));
    Ok((dir, state, loaded))
}

/// A fit to go on with: its state read back and its setup loaded again.
fn resume(dir: &Path) -> Result<(PathBuf, FitState, Loaded), CliError> {
    let path = dir.join(STATE);
    let text = caesar_workbench::scenario::format::read_text(&path)?;
    let state: FitState = caesar_workbench::scenario::format::parse_ron(&path, &text)?;
    let loaded = load_game(state.scenario.as_deref(), &state.variant)?;
    Ok((dir.to_path_buf(), state, loaded))
}

/// The players the setup has before the fit: the best and the fastest
/// strong one of the nearest rated rule set.
struct Transferred {
    best: BestPlayer,
    fast: AiSpec,
    /// The fast player's shipped CPU seconds a game (against the default
    /// heuristic), to scale the shipped costs to this machine and build.
    fast_cpu: Option<f64>,
}

impl Transferred {
    /// CPU seconds of one game of every measured pairing together.
    fn measured_games_cost(&self) -> f64 {
        let best = self
            .best
            .rating
            .as_ref()
            .map_or(0.05, |r| r.cpu_seconds_per_game);
        // The fitted search costs about what a 16-playout search does.
        let search = 0.06;
        2.0 * FAST_GAME + search + (search + best) + best
    }
}

fn transferred(state: &FitState, loaded: &Loaded) -> Result<Transferred, CliError> {
    let lineage = RuleSet::lineage(&state.variant)?;
    let scenario = Some(loaded.game.scenario.digest.as_str());
    let usage = |e: caesar_workbench::ai::NotAPlayer| CliError::Usage(e.to_string());
    let best = ratings::best_for(&lineage, scenario, &[]).map_err(usage)?;
    let fast = ratings::strongest_within(&lineage, scenario, FAST_GAME).map_err(usage)?;
    Ok(Transferred {
        best,
        fast_cpu: fast
            .as_ref()
            .and_then(|b| b.rating.as_ref())
            .map(|r| r.cpu_seconds_per_game),
        fast: fast.map_or(AiSpec::Heuristic, |b| b.spec),
    })
}

/// The stages of one fit, each skipped when its file is already there.
struct Stages<'a> {
    dir: &'a Path,
    state: &'a FitState,
    loaded: &'a Loaded,
    pool: &'a rayon::ThreadPool,
    transferred: &'a Transferred,
}

impl Stages<'_> {
    fn numbers_of(&self, file: &str) -> Result<PlayerNumbers, CliError> {
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
    fn tune_side(&self, side: Side) -> Result<(), CliError> {
        let (start, file) = match side {
            Side::Caesar => (self.transferred_numbers(), CAESAR_FILE),
            Side::Pompey => (self.numbers_of(CAESAR_FILE)?, FITTED_FILE),
        };
        if self.dir.join(file).exists() {
            warn(format_args!(
                "fit: {side}'s numbers already fitted ({file})"
            ));
            return Ok(());
        }
        let options = TuneOptions {
            budget: self.state.plan.tune_games_per_side,
            games_per_candidate: fit::GAMES_PER_CANDIDATE,
            population: fit::POPULATION,
            step: 0.3,
            check_games: 0,
            seed: self.state.seed + side.index() as u64,
            start,
            side: Some(side),
            against: vec![self.transferred_numbers(), PlayerNumbers::default()],
        };
        options.check()?;
        warn(format_args!(
            "fit: tuning {side}'s numbers ({} games)",
            options.total_games()
        ));
        let name = format!("{} ({})", self.state.variant, self.loaded.game.rules.name);
        let report = with_progress(options.total_games(), |progress| {
            self.pool
                .install(|| tune::tune(&self.loaded.game, &name, &options, progress))
        })
        .map_err(|_| CliError::Usage("cancelled".to_string()))?;
        caesar_workbench::files::write_output(&self.dir.join(file), &report.player_file())?;
        Ok(())
    }

    /// Learns a value on the fitted players' self-play.
    fn learn(&self) -> Result<(), CliError> {
        if self.dir.join(VALUE_FILE).exists() {
            warn(format_args!(
                "fit: the value already learned ({VALUE_FILE})"
            ));
            return Ok(());
        }
        let fitted = AiSpec::player_file(&self.dir.join(FITTED_FILE))?;
        let options = LearnOptions {
            games: self.state.plan.learn_games,
            held_out: 0.2,
            seed: self.state.seed + 2,
            players: [fitted.clone(), fitted],
            horizon_turns: 5,
        };
        options.check()?;
        warn(format_args!(
            "fit: learning a value ({} games)",
            options.games
        ));
        let report = with_progress(options.games, |progress| {
            self.pool.install(|| {
                learn::learn(&self.loaded.game, &self.state.variant, &options, progress)
            })
        })
        .map_err(|e| CliError::Usage(e.to_string()))?;
        caesar_workbench::files::write_output(&self.dir.join(VALUE_FILE), &report.value_file())?;
        Ok(())
    }

    /// The fitted search: 16 playouts on the fitted numbers, scored by the value.
    fn fitted_search(&self) -> Result<AiSpec, CliError> {
        let text = format!(
            "search:16@{}+{}",
            self.dir.join(FITTED_FILE).display(),
            self.dir.join(VALUE_FILE).display()
        );
        text.parse()
            .map_err(|e: caesar_workbench::ai::NotAPlayer| CliError::Usage(e.to_string()))
    }

    /// Every pairing measured on seeds the fit never played, kept in
    /// `measured.ron` as it goes (a pairing already there is not played again).
    fn measure(&self) -> Result<Measured, CliError> {
        let path = self.dir.join(MEASURED_FILE);
        let mut done: Vec<Rating> = if path.exists() {
            let text = caesar_workbench::scenario::format::read_text(&path)?;
            caesar_workbench::scenario::format::parse_ron(&path, &text)?
        } else {
            Vec::new()
        };
        let fitted = AiSpec::player_file(&self.dir.join(FITTED_FILE))?;
        let search = self.fitted_search()?;
        let best = self.transferred.best.spec.clone();
        let pairings = [
            (fitted.clone(), AiSpec::Heuristic),
            (self.transferred.fast.clone(), AiSpec::Heuristic),
            (search.clone(), AiSpec::Heuristic),
            (best.clone(), AiSpec::Heuristic),
            (search.clone(), best.clone()),
        ];
        let games = self.state.plan.measure_games_each_way;
        for (player, against) in &pairings {
            let key = (player.to_string(), against.to_string());
            if done
                .iter()
                .any(|r| (r.player.clone(), r.against.clone()) == key)
            {
                continue;
            }
            warn(format_args!(
                "fit: measuring {player} against {against} ({games} games each way)"
            ));
            let mut rating = with_progress(2 * games, |progress| {
                self.pool.install(|| {
                    ratings::rate(
                        &self.loaded.game,
                        &self.state.variant,
                        player,
                        against,
                        games,
                        self.state.seed ^ MEASURE_SALT,
                        progress,
                    )
                })
            })
            .map_err(|_| CliError::Usage("cancelled".to_string()))?;
            rating.measured = format!(
                "caesar-workbench players --measure --variant {}{} --players {player} --against {against} --games {games} --seed {} ({} threads)",
                self.state.variant,
                self.state
                    .scenario
                    .as_ref()
                    .map_or(String::new(), |s| format!(" --scenario {}", s.display())),
                self.state.seed ^ MEASURE_SALT,
                self.pool.current_num_threads()
            );
            rating.variant_digest = self.loaded.game.rules.play_digest();
            done.push(rating);
            let text = ron::ser::to_string_pretty(&done, ron::ser::PrettyConfig::default())
                .map_err(|e| CliError::Usage(e.to_string()))?;
            caesar_workbench::files::write_output(&path, &format!("{text}\n"))?;
        }
        let find = |player: &AiSpec, against: &AiSpec| {
            done.iter()
                .find(|r| r.player == player.to_string() && r.against == against.to_string())
                .cloned()
                .expect("every pairing was measured above")
        };
        Ok(Measured {
            fitted: find(&fitted, &AiSpec::Heuristic),
            transferred_fast: find(&self.transferred.fast, &AiSpec::Heuristic),
            search: find(&search, &AiSpec::Heuristic),
            transferred_best: find(&best, &AiSpec::Heuristic),
            head_to_head: find(&search, &best),
        })
    }

    /// The bundle's ratings (best first by the verdict, then the fast
    /// players strongest first) and its report.
    fn bundle(&self, m: &Measured) -> Result<Verdict, CliError> {
        let verdict = Verdict::of(&m.head_to_head.score);
        let (first, second) = match verdict {
            Verdict::FittedIsBest => (&m.search, &m.transferred_best),
            Verdict::TransferredStays => (&m.transferred_best, &m.search),
        };
        let (fast_first, fast_second) =
            if m.fitted.score.estimate >= m.transferred_fast.score.estimate {
                (&m.fitted, &m.transferred_fast)
            } else {
                (&m.transferred_fast, &m.fitted)
            };
        let entries: Vec<Rating> = [first, second, fast_first, fast_second]
            .into_iter()
            .map(|r| self.relative(r))
            .collect();
        let text = ron::ser::to_string_pretty(&entries, ron::ser::PrettyConfig::default())
            .map_err(|e| CliError::Usage(e.to_string()))?;
        let header = "// Players for this setup, written by `caesar-workbench fit`: the first is `best`,\n// the first under 0.005 CPU s a game the fast default. Files are found in this folder.\n";
        caesar_workbench::files::write_output(
            &self.dir.join(fit::BUNDLE_RATINGS),
            &format!("{header}{text}\n"),
        )?;
        let report = self.report(m, verdict);
        caesar_workbench::files::write_output(&self.dir.join(REPORT_FILE), &report)?;
        Ok(verdict)
    }

    /// `r` with the bundle's own files named relative to it.
    fn relative(&self, r: &Rating) -> Rating {
        let dir = format!("{}/", self.dir.display());
        Rating {
            player: r.player.replace(&dir, ""),
            ..r.clone()
        }
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
        let s = self.state;
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
             | fitted search (`search:16@{FITTED_FILE}+{VALUE_FILE}`) | {} |\n\
             | transferred best player | {} |\n\n\
             Fitted search against the transferred best, head to head: {}\n\n",
            s.variant,
            s.budget_minutes,
            s.seed,
            s.plan.measure_games_each_way,
            self.transferred.best.spec,
            self.transferred.best.describe(),
            self.transferred.fast,
            pct(&m.fitted),
            pct(&m.transferred_fast),
            pct(&m.search),
            pct(&m.transferred_best),
            pct(&m.head_to_head),
        );
        text += match verdict {
            Verdict::FittedIsBest => {
                "Verdict: the fitted search beats the transferred best (the whole interval above 50%); `best` plays it on this setup.\n"
            }
            Verdict::TransferredStays => {
                "Verdict: the fitted search does not surely beat the transferred best (its interval reaches 50%), so the transferred player stays `best` on this setup.\n"
            }
        };
        text += &format!(
            "\nMade by:\n\n    caesar-workbench fit --variant {}{} --budget {} --seed {} --out {}\n",
            s.variant,
            s.scenario
                .as_ref()
                .map_or(String::new(), |p| format!(" --scenario {}", p.display())),
            s.budget_minutes,
            s.seed,
            self.dir.display()
        );
        text
    }
}

/// What the fit measured, one rating a pairing.
struct Measured {
    fitted: Rating,
    transferred_fast: Rating,
    search: Rating,
    transferred_best: Rating,
    head_to_head: Rating,
}
