//! A setup's population library: every best response a balance run trained
//! for the setup and rule set, kept in the setup's players folder
//! (`NAME.players/library/`), so that the next run starts from all of them
//! instead of training them again.
//!
//! A kept player's files are copied into the library under names of their
//! own (its side and content digest), so a later run writing its
//! `r1-caesar-search.ron` over the last one's leaves the kept copy as it
//! was. The index (`players.json`) names each file relative to the library,
//! so the folder may move to another machine. Each entry records the
//! setup and rule set it was trained on (their digests) and what it played
//! by (its content digest): a run joins only the entries of its own setup
//! and rule set, and leaves out, by name, any whose files changed or went
//! missing since they were kept.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::report::{BalanceReport, Member, Origin, spec_digest};
use crate::ai::{AiSpec, SpecText};
use crate::engine::Game;
use crate::scenario::model::Side;
use crate::sim::runs::report::PlayedOn;

/// The library's folder inside a setup's players folder.
pub const LIBRARY_DIR: &str = "library";
/// The library's index inside its folder.
pub const LIBRARY_INDEX: &str = "players.json";

/// Indexes larger than this are not read (thousands of players fit in a
/// few megabytes).
const INDEX_LIMIT: u64 = 64 << 20;

/// Every player kept, in the order they were kept.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Library {
    pub players: Vec<Kept>,
}

/// One kept player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kept {
    /// The side it was trained to play.
    pub side: Side,
    /// As `--caesar-ai` takes it, each file relative to the library folder
    /// (or a shipped file's name).
    pub player: String,
    pub words: String,
    /// What it played by when kept ([`spec_digest`]).
    pub digest: String,
    /// The setup and rule set it was trained on.
    pub trained_on: PlayedOn,
    /// The run that trained it, in words.
    pub trained_by: String,
}

/// Why a library cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("cannot read the setup's library {}: {reason}", path.display())]
    Read { path: PathBuf, reason: String },
    #[error("{}:{line}:{column}: not a players library: {reason}", path.display())]
    Malformed {
        path: PathBuf,
        line: usize,
        column: usize,
        reason: String,
    },
    #[error("cannot keep {player} in the setup's library {}: {reason}", dir.display())]
    Write {
        player: String,
        dir: PathBuf,
        reason: String,
    },
}

/// What a run takes from a library: its own setup's players, and the ones
/// left out because their files changed or went missing.
#[derive(Debug, Clone, Default)]
pub struct Shelf {
    pub caesar: Vec<Member>,
    pub pompey: Vec<Member>,
    /// Each left-out player, with why.
    pub left_out: Vec<String>,
}

impl Shelf {
    pub fn side(&self, side: Side) -> &[Member] {
        match side {
            Side::Caesar => &self.caesar,
            Side::Pompey => &self.pompey,
        }
    }
}

/// The library folder of a setup's players folder `bundle`.
pub fn library_dir(bundle: &Path) -> PathBuf {
    bundle.join(LIBRARY_DIR)
}

/// The library a run uses, the same in every shell: the one `named`, else
/// (unless only the players named play) the one in the setup's players
/// folder `bundle`; none on a setup without a folder.
pub fn chosen(named: Option<&Path>, only_named: bool, bundle: Option<&Path>) -> Option<PathBuf> {
    match (named, only_named) {
        (Some(dir), _) => Some(dir.to_path_buf()),
        (None, true) => None,
        (None, false) => bundle.map(library_dir),
    }
}

/// The library in `dir` (an empty one when there is none yet).
pub fn read(dir: &Path) -> Result<Library, LibraryError> {
    let path = dir.join(LIBRARY_INDEX);
    if !path.is_file() {
        return Ok(Library::default());
    }
    let bytes = crate::files::read_bytes(&path, INDEX_LIMIT).map_err(|e| LibraryError::Read {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    serde_json::from_slice(&bytes).map_err(|e| LibraryError::Malformed {
        line: e.line(),
        column: e.column(),
        reason: e.to_string(),
        path,
    })
}

/// The players of `dir`'s library trained on `game`'s setup and rule set,
/// each side's, as members of a population; the others of this setup whose
/// files changed since they were kept are named in `left_out`.
pub fn shelf(dir: &Path, game: &Game) -> Result<Shelf, LibraryError> {
    let library = read(dir)?;
    let here = PlayedOn::of(game);
    let mut shelf = Shelf::default();
    for kept in &library.players {
        let on = &kept.trained_on;
        if on.scenario_digest != here.scenario_digest || on.variant_digest != here.variant_digest {
            continue;
        }
        match member_of(dir, kept) {
            Ok(member) => match kept.side {
                Side::Caesar => shelf.caesar.push(member),
                Side::Pompey => shelf.pompey.push(member),
            },
            Err(why) => shelf.left_out.push(format!("{} ({why})", kept.words)),
        }
    }
    Ok(shelf)
}

/// A kept player as a member, its files read from the library `dir`;
/// else why it cannot join.
fn member_of(dir: &Path, kept: &Kept) -> Result<Member, String> {
    let player = SpecText::of(&kept.player).with_files(|file, _| {
        if crate::ai::shipped::is_shipped(file) {
            return Ok(file.to_string());
        }
        let held = dir.join(file);
        match held.is_file() {
            true => Ok(held.display().to_string()),
            false => Err(format!("its file {file} is missing")),
        }
    })?;
    let spec: AiSpec = player
        .parse()
        .map_err(|e| format!("no longer a player: {e}"))?;
    if spec_digest(&spec) != kept.digest {
        return Err("its files changed since it was kept".to_string());
    }
    Ok(Member::new(
        spec,
        Origin::Kept {
            trained_by: kept.trained_by.clone(),
        },
    ))
}

/// Keeps every player `report` trained in `dir`'s library (its files
/// copied in), whether it joined the population or not (a response that
/// lost to this mix may answer another), but those it already holds for the
/// same setup, rule set and side, and a tuning that came back at a member's
/// numbers; `trained_by` says which run it was. The index is written
/// atomically, after the files it names. Returns how many were added.
pub fn keep_trained(
    dir: &Path,
    report: &BalanceReport,
    trained_by: &str,
) -> Result<usize, LibraryError> {
    let mut library = read(dir)?;
    let mut added = 0;
    let responses = report
        .rounds
        .iter()
        .flat_map(|r| r.responses.iter().map(move |p| (r.round, p)));
    for (round, response) in responses {
        if response.member_again {
            continue;
        }
        let failed = |reason: String| LibraryError::Write {
            player: response.player.clone(),
            dir: dir.to_path_buf(),
            reason,
        };
        let spec: AiSpec = response
            .player
            .parse()
            .map_err(|e| failed(format!("{e}")))?;
        let digest = spec_digest(&spec);
        let held = library.players.iter().any(|k| {
            k.side == response.side && k.digest == digest && k.trained_on == report.played_on
        });
        if held {
            continue;
        }
        let player = copy_files(dir, response.side, &response.player, &digest)?;
        library.players.push(Kept {
            side: response.side,
            player,
            words: response.words.clone(),
            digest,
            trained_on: report.played_on.clone(),
            trained_by: format!("{trained_by}, round {round} ({})", response.oracle),
        });
        added += 1;
    }
    if added > 0 {
        let unwritten = |reason: String| LibraryError::Write {
            player: "the index".to_string(),
            dir: dir.to_path_buf(),
            reason,
        };
        let text = serde_json::to_string_pretty(&library).map_err(|e| unwritten(e.to_string()))?;
        crate::files::write_output(&dir.join(LIBRARY_INDEX), &format!("{text}\n"))
            .map_err(|e| unwritten(e.to_string()))?;
    }
    Ok(added)
}

/// Copies each file `player` plays by into `dir` under a name of its own
/// (side, content digest, the file's name), and returns its spec naming
/// the copies relative to `dir`.
fn copy_files(dir: &Path, side: Side, player: &str, digest: &str) -> Result<String, LibraryError> {
    let failed = |reason: String| LibraryError::Write {
        player: player.to_string(),
        dir: dir.to_path_buf(),
        reason,
    };
    std::fs::create_dir_all(dir).map_err(|e| failed(e.to_string()))?;
    let stamp: String = digest.chars().take(12).collect();
    SpecText::of(player).with_files(|file, _| {
        if crate::ai::shipped::is_shipped(file) {
            return Ok(file.to_string());
        }
        let name = Path::new(file)
            .file_name()
            .map_or_else(|| "player.ron".into(), |n| n.to_string_lossy().into_owned());
        let copy = format!("{}-{stamp}-{name}", side.label().to_lowercase());
        let text = std::fs::read_to_string(file).map_err(|e| failed(format!("{file}: {e}")))?;
        crate::files::write_output(&dir.join(&copy), &text)
            .map_err(|e| failed(format!("{copy}: {e}")))?;
        Ok(copy)
    })
}

/// `members` and the `kept` players not already among them (by what they
/// play), cheapest first as a population is ([`super::population`]).
pub fn join(members: &[Member], kept: &[Member]) -> Vec<Member> {
    let mut all = members.to_vec();
    for m in kept {
        if !all.iter().any(|o| o.digest == m.digest) {
            all.push(m.clone());
        }
    }
    all.sort_by_key(|m| m.spec.as_ref().map_or(u64::MAX, super::run::cost_rank));
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::PlayerNumbers;
    use crate::sim::questions::balance::Oracle;
    use crate::sim::questions::balance::tests::solved_report;

    /// A report of the published game that trained one Caesar player: the
    /// heuristic on numbers whose first step is `step`, in `folder`.
    fn trained_report(game: &Game, folder: &Path, step: f32) -> BalanceReport {
        let mut numbers = PlayerNumbers::default();
        numbers.caesar.least_group_score = step;
        let file = folder.join("r1-caesar-tuned.ron");
        std::fs::write(&file, numbers.to_ron("a trained response")).unwrap();
        let spec: AiSpec = format!("heuristic:{}", file.display()).parse().unwrap();
        let mut report = solved_report(game);
        let trained = Origin::Trained {
            round: 1,
            oracle: Oracle::Tune,
        };
        let member = Member::new(spec, trained);
        let share = crate::sim::questions::balance::Interval {
            estimate: 0.6,
            ci95: [0.5, 0.7],
        };
        report.rounds.push(crate::sim::questions::balance::Round {
            round: 1,
            caesar_players: report.caesar.len(),
            pompey_players: report.pompey.len(),
            value: report.value,
            exploitability: None,
            responses: vec![crate::sim::questions::balance::Response {
                side: Side::Caesar,
                oracle: Oracle::Tune,
                player: member.player.clone(),
                words: member.words.clone(),
                share,
                gain: share,
                games: 10,
                joined: true,
                member_again: false,
            }],
        });
        report.caesar.push(member);
        report
    }

    /// A run's trained player is kept once (a second keep of the same run
    /// adds nothing), joins its own side only, from a copy that outlives
    /// the run's file, and only on the setup and rule set it was trained on.
    #[test]
    fn a_trained_player_is_kept_once_and_joins_its_side_on_its_own_setup() {
        let game = crate::test_support::published("rules-2.0");
        let run = tempfile::tempdir().unwrap();
        let bundle = tempfile::tempdir().unwrap();
        let dir = library_dir(bundle.path());
        let report = trained_report(&game, run.path(), 0.25);
        assert_eq!(keep_trained(&dir, &report, "balance seed 1").unwrap(), 1);
        assert_eq!(keep_trained(&dir, &report, "balance seed 1").unwrap(), 0);
        // The next run writes its own r1-caesar-tuned.ron over the last.
        trained_report(&game, run.path(), 0.75);
        let shelf = shelf(&dir, &game).unwrap();
        assert!(shelf.left_out.is_empty(), "{:?}", shelf.left_out);
        assert!(shelf.pompey.is_empty());
        let [kept] = &shelf.caesar[..] else {
            panic!("one kept Caesar player: {:?}", shelf.caesar);
        };
        let trained = report.caesar.last().unwrap();
        assert_eq!(
            kept.digest, trained.digest,
            "the kept copy plays as trained"
        );
        assert!(
            matches!(&kept.origin, Origin::Kept { trained_by } if trained_by == "balance seed 1, round 1 (tune)"),
            "{:?}",
            kept.origin
        );
        let other_rules = crate::test_support::published("rules-1.1");
        assert!(super::shelf(&dir, &other_rules).unwrap().caesar.is_empty());
    }

    /// A library named is used whoever plays; else the setup's own, unless
    /// only the players named play; a setup without a folder has none.
    #[test]
    fn the_library_named_wins_else_the_setups_own_unless_only_the_named_play() {
        let (named, bundle) = (Path::new("/kept"), Path::new("/s.players"));
        assert_eq!(chosen(Some(named), true, Some(bundle)), Some(named.into()));
        assert_eq!(
            chosen(None, false, Some(bundle)),
            Some(bundle.join("library"))
        );
        assert_eq!(chosen(None, true, Some(bundle)), None);
        assert_eq!(chosen(None, false, None), None);
    }

    /// A kept player whose copy changed is named and left out.
    #[test]
    fn a_kept_player_whose_files_changed_is_left_out_by_name() {
        let game = crate::test_support::published("rules-2.0");
        let run = tempfile::tempdir().unwrap();
        let bundle = tempfile::tempdir().unwrap();
        let dir = library_dir(bundle.path());
        keep_trained(
            &dir,
            &trained_report(&game, run.path(), 0.25),
            "balance seed 1",
        )
        .unwrap();
        let index = read(&dir).unwrap();
        let copy = dir.join(SpecText::of(&index.players[0].player).player_file.unwrap());
        let mut numbers = PlayerNumbers::default();
        numbers.caesar.least_group_score = 0.5;
        std::fs::write(&copy, numbers.to_ron("edited")).unwrap();
        let shelf = shelf(&dir, &game).unwrap();
        assert!(shelf.caesar.is_empty());
        assert_eq!(shelf.left_out.len(), 1);
        assert!(
            shelf.left_out[0].ends_with("(its files changed since it was kept)"),
            "{:?}",
            shelf.left_out
        );
        std::fs::remove_file(&copy).unwrap();
        let gone = super::shelf(&dir, &game).unwrap();
        assert!(
            gone.left_out[0].contains("is missing"),
            "{:?}",
            gone.left_out
        );
    }

    /// A new run's population takes each side's kept players, whether the
    /// shipped players join or not; a run given no library takes none.
    #[test]
    fn a_new_run_starts_from_the_kept_players() {
        use crate::sim::questions::balance::session::{Begin, Players, prepare};
        let game = crate::test_support::published("rules-2.0");
        let run = tempfile::tempdir().unwrap();
        let bundle = tempfile::tempdir().unwrap();
        let dir = library_dir(bundle.path());
        let trained = trained_report(&game, run.path(), 0.25);
        keep_trained(&dir, &trained, "balance seed 1").unwrap();
        let begin = |shipped: bool, library: Option<PathBuf>| Begin::Fresh {
            variant: "rules-2.0".to_string(),
            options: trained.options.clone(),
            players: Players {
                lineage: vec![crate::scenario::rules::RuleSet::builtin("rules-2.0")],
                bundle: Vec::new(),
                named: vec![AiSpec::Random, AiSpec::Heuristic],
                shipped,
                library,
            },
        };
        let report = prepare(&game, begin(true, Some(dir.clone())))
            .unwrap()
            .report;
        let kept = |members: &[Member]| {
            members
                .iter()
                .filter(|m| matches!(m.origin, Origin::Kept { .. }))
                .count()
        };
        assert_eq!(kept(&report.caesar), 1);
        assert_eq!(kept(&report.pompey), 0);
        assert_eq!(report.caesar.len(), report.pompey.len() + 1);
        let named_only = prepare(&game, begin(false, Some(dir.clone())))
            .unwrap()
            .report;
        assert_eq!(kept(&named_only.caesar), 1);
        assert_eq!(named_only.caesar.len(), 3, "the two named and the kept one");
        let none = prepare(&game, begin(true, None)).unwrap().report;
        assert_eq!(kept(&none.caesar), 0);
    }
}
