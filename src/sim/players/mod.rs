//! Making players: the heuristic's numbers tuned by CMA-ES (`tune`, and
//! `tune_search` for a search's), values and policies learned from games
//! (`learn`, `policy_fit`), players fitted to a setup in one budget (`fit`),
//! and their measured strengths (`ratings`). This file says which player
//! `best` and `fast` stand for on a setup, and where a setup's fitted
//! bundle lives: the one resolution the command line (`--caesar-ai best`,
//! `fit`, `balance`) and the window (its player menus, "Players for this
//! setup", "Fit players…") share.

pub mod fit;
pub mod learn;
pub mod policy_fit;
pub mod ratings;
pub mod tune;
pub mod tune_search;

use std::path::{Path, PathBuf};

use crate::ai::{AiSpec, NotAPlayer};
use crate::scenario::checked::CheckedScenario;
use crate::scenario::format::LoadError;
use crate::scenario::rule_fields::{nearest_lineage, rule_distance};
use crate::scenario::rules::{BUILTIN_VARIANTS, RuleSet, is_bare_name};
use crate::sim::players::fit::{BUNDLE_RATINGS, bundle_beside, bundle_ratings};
use crate::sim::questions::balance::measured::{Measured, MeasuredError, measured};
use ratings::{BestPlayer, Rating};

/// A player named by its rank for the setup rather than by its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rank {
    /// The strongest measured.
    Best,
    /// The strongest measured under [`ratings::FAST_GAME_CPU`] a game: for
    /// runs of thousands of games.
    Fast,
}

/// Why `best` or `fast` stands for no player.
#[derive(Debug, thiserror::Error)]
pub enum RankError {
    /// A variant, scenario or bundle that does not read.
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    NotAPlayer(#[from] NotAPlayer),
    /// Compared rule sets whose `best` differs: the same player must play
    /// under each, so that only the rules differ.
    #[error("{rank} is {one} under one rule set and {other} under the other: name the player")]
    Differs {
        rank: &'static str,
        one: AiSpec,
        other: AiSpec,
    },
    /// `equilibrium` on a setup the engine cannot play under the rule set.
    #[error(transparent)]
    NotPlayable(#[from] crate::scenario::checked::NotPlayable),
    /// The setup's own balance report does not hold for it.
    #[error(transparent)]
    Measured(#[from] MeasuredError),
}

/// The setup a rank is resolved on, as its files name it.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// The scenario file (`None`: the published game, or a setup not saved);
    /// a fit's bundle lies beside it.
    pub scenario_file: Option<PathBuf>,
    /// The scenario's content digest (`None`: the published game).
    pub scenario_digest: Option<String>,
    /// A bundle folder given (`--players DIR`), which must hold one;
    /// else the one beside the setup's files, if any.
    pub bundle: Option<PathBuf>,
}

impl Setup {
    /// The setup of a scenario file (read for its digest) and a bundle
    /// folder given.
    pub fn of_files(scenario: Option<&Path>, bundle: Option<&Path>) -> Result<Setup, LoadError> {
        let scenario_digest = match scenario {
            Some(path) => Some(crate::scenario::load_scenario(Some(path))?.digest()),
            None => None,
        };
        Ok(Setup {
            scenario_file: scenario.map(Path::to_path_buf),
            scenario_digest,
            bundle: bundle.map(Path::to_path_buf),
        })
    }
}

/// A rank resolved: the player, what it was measured on, and that in words.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub player: BestPlayer,
    /// What the player was measured on and how near that is to the setup,
    /// with any bundle beside the setup that is not used and why.
    pub sentence: String,
}

impl Rank {
    /// `best` or `fast`, as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Rank::Best => "best",
            Rank::Fast => "fast",
        }
    }

    /// The player of this rank for a rule set's lineage ([`lineage`]) on
    /// the scenario with digest `scenario` and a fit's bundle: no file is
    /// read (the window's menus ask every frame).
    pub fn measured(
        self,
        lineage: &[RuleSet],
        scenario: Option<&str>,
        bundle: &[Rating],
    ) -> Result<BestPlayer, NotAPlayer> {
        match self {
            Rank::Best => ratings::best_for(lineage, scenario, bundle),
            Rank::Fast => ratings::fast_for(lineage, scenario, bundle),
        }
    }

    /// The player of this rank under each of `variants` on `setup`, which
    /// must be one player (see [`RankError::Differs`]), with the sentence
    /// that says what it was measured on (of the first rule set).
    pub fn resolve(self, variants: &[&str], setup: &Setup) -> Result<Resolved, RankError> {
        let digest = setup.scenario_digest.as_deref();
        let scenario = setup.scenario_file.as_deref();
        let mut found = Vec::new();
        let mut notes = Vec::new();
        let mut nearest = None;
        for variant in variants {
            let chain = RuleSet::lineage(variant)?;
            let lineage = nearest_lineage(chain.clone());
            let (dir, bundle) = find_bundle(setup.bundle.as_deref(), scenario, variant)?.unzip();
            let bundle = bundle.unwrap_or_default();
            let note = match &dir {
                Some(dir) => ratings::stale_bundle(dir, &bundle, &lineage, digest),
                None => renamed_bundle(scenario, &lineage, digest),
            };
            if let Some(note) = note
                && !notes.contains(&note)
            {
                notes.push(note);
            }
            let player = self.measured(&lineage, digest, &bundle)?;
            if nearest.is_none() {
                nearest = nearer_than_extends(&chain, &player);
            }
            found.push(player);
        }
        if let Some(w) = found.windows(2).find(|w| w[0].spec != w[1].spec) {
            return Err(RankError::Differs {
                rank: self.name(),
                one: w[0].spec.clone(),
                other: w[1].spec.clone(),
            });
        }
        let player = found.swap_remove(0);
        let mut sentence = player.describe();
        if let Some((rated, said)) = nearest {
            sentence = sentence.replace(&format!(" (it extends {rated})"), "");
            sentence += &said;
        }
        for note in notes {
            sentence += &format!("; {note}");
        }
        Ok(Resolved { player, sentence })
    }
}

/// A player as the command line and the window's menus name it: a rank,
/// resolved on the setup, or a player named by its kind.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerChoice {
    Ranked(Rank),
    /// Each side's mix at the balance measured for the setup
    /// ([`crate::sim::questions::balance::measured`]), one member a game; `fast`
    /// where none is measured.
    Equilibrium,
    Spec(AiSpec),
}

impl PlayerChoice {
    /// The player under `variants` on `setup`, with the sentence of what a
    /// rank stood for (`None` for a player named by its kind).
    pub fn resolve(
        &self,
        variants: &[&str],
        setup: &Setup,
    ) -> Result<(AiSpec, Option<String>), RankError> {
        match self {
            PlayerChoice::Spec(spec) => Ok((spec.clone(), None)),
            PlayerChoice::Ranked(rank) => {
                let resolved = rank.resolve(variants, setup)?;
                let spec = resolved.player.spec;
                let words = format!("{} = {spec}: {}", rank.name(), resolved.sentence);
                Ok((spec, Some(words)))
            }
            PlayerChoice::Equilibrium => {
                let variant = variants.first().copied().unwrap_or("rules-2.0");
                let doc = crate::scenario::load_scenario(setup.scenario_file.as_deref())?;
                let rules = RuleSet::load(variant)?;
                // sim stands below games, whose door is `Game::from_document`.
                let checked = CheckedScenario::from_document(&doc, rules, Some(variant))?;
                let game = crate::engine::Game::from_checked(checked);
                let scenario = setup.scenario_file.as_deref();
                // `fast` where no balance is measured or its mix searches
                // (a hundred heuristic games a game: runs of thousands
                // would take hours), with why.
                let fast_because = |why: String| -> Result<(AiSpec, Option<String>), RankError> {
                    let (spec, words) =
                        PlayerChoice::Ranked(Rank::Fast).resolve(variants, setup)?;
                    let words = words.unwrap_or_default();
                    Ok((spec, Some(format!("equilibrium: {why}, so {words}"))))
                };
                match measured_for(&game, scenario, variant)? {
                    Some(measured) if !measured.mix_is_fast() => fast_because(format!(
                        "the balance measured for this setup ({}) mixes searches, each game of which costs about a hundred heuristic games",
                        measured.source
                    )),
                    Some(measured) => {
                        let spec = measured.player()?;
                        let words = format!("equilibrium = {spec}: {}", measured.line());
                        Ok((spec, Some(words)))
                    }
                    None => fast_because("no balance is measured for this setup".to_string()),
                }
            }
        }
    }
}

/// Why a text names no player: `best`, `fast` and every kind's spelling
/// ([`crate::ai::spec::KINDS`]) are what it may be.
#[derive(Debug, thiserror::Error)]
pub enum NotAChoice {
    #[error("{0}, or best, fast or equilibrium")]
    Unknown(NotAPlayer),
    #[error(transparent)]
    Spec(NotAPlayer),
}

impl std::str::FromStr for PlayerChoice {
    type Err = NotAChoice;

    fn from_str(text: &str) -> Result<PlayerChoice, NotAChoice> {
        match text {
            "best" => Ok(PlayerChoice::Ranked(Rank::Best)),
            "fast" => Ok(PlayerChoice::Ranked(Rank::Fast)),
            "equilibrium" => Ok(PlayerChoice::Equilibrium),
            _ => text.parse().map(PlayerChoice::Spec).map_err(|e| match e {
                NotAPlayer::Unknown { .. } => NotAChoice::Unknown(e),
                other => NotAChoice::Spec(other),
            }),
        }
    }
}

/// The balance measured for the setup of a scenario file (the published
/// game when `None`) under `variant`, read from its bundle folder
/// ([`bundle_folder`]) or built in ([`crate::sim::questions::balance::measured`]).
pub fn measured_for(
    game: &crate::engine::Game,
    scenario: Option<&Path>,
    variant: &str,
) -> Result<Option<Measured>, MeasuredError> {
    measured(game, bundle_folder(scenario, variant).as_deref())
}

/// The rule sets `best` and `fast` look along for `variant`: its `extends`
/// chain, nearest by rule distance first
/// ([`crate::scenario::rule_fields::nearest_lineage`]).
pub fn lineage(variant: &str) -> Result<Vec<RuleSet>, LoadError> {
    Ok(nearest_lineage(RuleSet::lineage(variant)?))
}

/// Where a setup's bundle lies and a new fit writes it: beside the scenario
/// file, else beside the variant file (`mine.ron` → `mine.players/`);
/// `None` for the published game under a built-in rule set.
pub fn bundle_folder(scenario: Option<&Path>, variant: &str) -> Option<PathBuf> {
    let variant_file = (!is_bare_name(variant)).then(|| Path::new(variant));
    scenario.or(variant_file).map(bundle_beside)
}

/// The fit's bundle for a setup, its folder and its ratings: the folder
/// given (which must hold one), else the one beside the scenario file, else
/// beside the variant file, if it holds a bundle. `None` when there is none.
pub fn find_bundle(
    given: Option<&Path>,
    scenario: Option<&Path>,
    variant: &str,
) -> Result<Option<(PathBuf, Vec<Rating>)>, LoadError> {
    if let Some(dir) = given {
        return Ok(Some((dir.to_path_buf(), bundle_ratings(dir)?)));
    }
    let variant_file = (!is_bare_name(variant)).then(|| Path::new(variant));
    for setup in [scenario, variant_file].into_iter().flatten() {
        let dir = bundle_beside(setup);
        if dir.join(BUNDLE_RATINGS).is_file() {
            let ratings = bundle_ratings(&dir)?;
            return Ok(Some((dir, ratings)));
        }
    }
    Ok(None)
}

/// When the player found was measured under a rule set that the `extends`
/// chain does not pass through (taken as the nearest by rule distance):
/// that rule set's name and the words that say so.
fn nearer_than_extends(chain: &[RuleSet], found: &BestPlayer) -> Option<(String, String)> {
    let rated = found.rating.as_ref().filter(|_| !found.same_rules)?;
    let is_builtin = BUILTIN_VARIANTS
        .iter()
        .any(|(name, _)| *name == rated.variant);
    let own = chain.first()?;
    let measured = is_builtin.then(|| RuleSet::builtin(&rated.variant))?;
    if chain
        .iter()
        .any(|r| r.play_digest() == measured.play_digest())
    {
        return None;
    }
    let parent = chain
        .get(1)
        .map(|p| {
            format!(
                "; it extends {}, {} apart",
                p.name,
                fields_apart(rule_distance(own, p))
            )
        })
        .unwrap_or_default();
    Some((
        rated.variant.clone(),
        format!(
            "; {} is the measured rule set nearest to this one by rule distance ({}{parent})",
            rated.variant,
            fields_apart(rule_distance(own, &measured))
        ),
    ))
}

/// "1 field" or "10 fields" apart.
fn fields_apart(n: usize) -> String {
    if n == 1 {
        "1 field".to_string()
    } else {
        format!("{n} fields")
    }
}

/// A fit's bundle beside the scenario file under another name (the
/// scenario renamed since the fit) that holds for the setup in play, in
/// words for the report: it is not used, but it is not passed over
/// silently either.
fn renamed_bundle(
    scenario: Option<&Path>,
    lineage: &[RuleSet],
    scenario_digest: Option<&str>,
) -> Option<String> {
    let scenario = scenario?;
    let rules = lineage.first()?.play_digest();
    let folder = scenario
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut found: Vec<PathBuf> = std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "players") && p.join(BUNDLE_RATINGS).is_file()
        })
        .filter(|dir| {
            bundle_ratings(dir).is_ok_and(|all| {
                all.iter()
                    .any(|r| ratings::holds_for(r, &rules, scenario_digest).is_ok())
            })
        })
        .collect();
    found.sort();
    let dir = found.first()?;
    Some(format!(
        "your fit in {} was made for this setup under another file name: it is not used; rename the folder to {} or give --players {}",
        dir.display(),
        bundle_beside(scenario).display(),
        dir.display()
    ))
}
