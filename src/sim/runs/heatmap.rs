//! Where the game is decided on the map: per space and per link, integer
//! counts over the games of a run (so shards merge exactly), from what the
//! engine records as it plays ([`crate::engine::GameStats::map_events`]) and
//! who holds each space after each winter's victory check.

use serde::{Deserialize, Serialize};

use crate::engine::{EndReason, Game, MapEvent, State};
use crate::scenario::model::{Board, Side, SpaceId};
use crate::sim::runs::merge::MergeError;
use crate::sim::runs::stats::share;

/// Who holds a space: 0 nobody (vacant or contested), 1 Caesar, 2 Pompey.
fn holder(state: &State, space: SpaceId) -> u8 {
    if state.is_friendly(space, Side::Caesar) {
        1
    } else if state.is_friendly(space, Side::Pompey) {
        2
    } else {
        0
    }
}

/// Who holds every space now ([`holder`] codes, by space index).
pub fn control(game: &Game, state: &State) -> Vec<u8> {
    game.board().ids().map(|id| holder(state, id)).collect()
}

/// One game's map facts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MapRecord {
    /// Who held each space after each winter's victory check (8.2), by year.
    pub control: Vec<Vec<u8>>,
    pub events: Vec<MapEvent>,
    /// In a sudden death (1.2): the VP cities the loser held at the start
    /// of the deciding year (after the winter before it, or the deployment)
    /// and no longer held when the game ended.
    pub decisive: Vec<SpaceId>,
}

impl MapRecord {
    /// Completes the record once the game is over: `start_of_year` is who
    /// held what when the last year began.
    pub fn finish(
        &mut self,
        game: &Game,
        state: &State,
        start_of_year: &[u8],
        events: Vec<MapEvent>,
    ) {
        self.events = events;
        let Some(outcome) = state.outcome() else {
            return;
        };
        if let (EndReason::SuddenDeath, Some(winner), Some(end)) =
            (outcome.how, outcome.winner, self.control.last())
        {
            let loser = match winner.other() {
                Side::Caesar => 1,
                Side::Pompey => 2,
            };
            let board = game.board();
            self.decisive = board
                .ids()
                .filter(|id| {
                    let i = id.index();
                    board.space(*id).vp > 0
                        && start_of_year.get(i) == Some(&loser)
                        && end[i] != loser
                })
                .collect();
        }
    }
}

/// The counts behind the heatmaps, summed over games. Indexed by space
/// (and link) number of the scenario's board; names kept for readers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MapCounts {
    pub spaces: Vec<String>,
    /// Each link's two spaces.
    pub links: Vec<[String; 2]>,
    /// `held_by_year[y][s]`: games in which Caesar, and Pompey, held space
    /// `s` after the winter of year `y + 1` (of the games that got there).
    pub held_by_year: Vec<Vec<[u64; 2]>>,
    /// Games in which each side held the space when the game ended.
    pub held_at_end: Vec<[u64; 2]>,
    pub battles: Vec<u64>,
    /// Battles there that ended with only Caesar's, or Pompey's, blocks left.
    pub battles_won: Vec<[u64; 2]>,
    /// Steps lost there by Caesar's and by Pompey's blocks.
    pub steps_lost: Vec<[u64; 2]>,
    /// Blocks eliminated there, per side.
    pub blocks_lost: Vec<[u64; 2]>,
    /// Games won by sudden death in which the loser lost this VP city
    /// during the deciding year ([`MapRecord::decisive`]).
    pub sudden_death_decisive: Vec<u64>,
    /// Times attackers entered a battle along the link.
    pub link_attacks: Vec<u64>,
    /// Times a block retreated along the link.
    pub link_retreats: Vec<u64>,
}

fn add(a: &mut u64, b: u64) -> Result<(), MergeError> {
    *a = a.checked_add(b).ok_or(MergeError::Overflow("map counts"))?;
    Ok(())
}

fn add_pairs(a: &mut [[u64; 2]], b: &[[u64; 2]]) -> Result<(), MergeError> {
    for (x, y) in a.iter_mut().zip(b) {
        add(&mut x[0], y[0])?;
        add(&mut x[1], y[1])?;
    }
    Ok(())
}

fn add_all(a: &mut [u64], b: &[u64]) -> Result<(), MergeError> {
    for (x, y) in a.iter_mut().zip(b) {
        add(x, *y)?;
    }
    Ok(())
}

impl MapCounts {
    /// Zero counts for the spaces and links of `board`.
    pub fn new(board: &Board) -> MapCounts {
        let n = board.len();
        let links = (0..board.link_count())
            .map(|i| {
                let l = board.link(crate::scenario::model::LinkId(i as u16));
                [board.name(l.a).to_string(), board.name(l.b).to_string()]
            })
            .collect::<Vec<_>>();
        MapCounts {
            spaces: board.ids().map(|id| board.name(id).to_string()).collect(),
            held_by_year: Vec::new(),
            held_at_end: vec![[0; 2]; n],
            battles: vec![0; n],
            battles_won: vec![[0; 2]; n],
            steps_lost: vec![[0; 2]; n],
            blocks_lost: vec![[0; 2]; n],
            sudden_death_decisive: vec![0; n],
            link_attacks: vec![0; links.len()],
            link_retreats: vec![0; links.len()],
            links,
        }
    }

    /// Whether these counts were gathered (reports written before them, and
    /// runs of made-up records, have none).
    pub fn is_empty(&self) -> bool {
        self.spaces.is_empty()
    }

    /// Adds one game. Nothing when the counts were never set up for a board.
    pub fn add(&mut self, r: &MapRecord) {
        let n = self.spaces.len();
        if n == 0 {
            return;
        }
        for (y, held) in r.control.iter().enumerate() {
            if self.held_by_year.len() <= y {
                self.held_by_year.push(vec![[0; 2]; n]);
            }
            for (slot, h) in self.held_by_year[y].iter_mut().zip(held) {
                if let 1 | 2 = h {
                    slot[(h - 1) as usize] += 1;
                }
            }
        }
        if let Some(end) = r.control.last() {
            for (slot, h) in self.held_at_end.iter_mut().zip(end) {
                if let 1 | 2 = h {
                    slot[(h - 1) as usize] += 1;
                }
            }
        }
        for e in &r.events {
            match *e {
                MapEvent::Battle(s) => self.battles[s.index()] += 1,
                MapEvent::BattleWon(s, w) => self.battles_won[s.index()][w.index()] += 1,
                MapEvent::StepLost(s, side) => self.steps_lost[s.index()][side.index()] += 1,
                MapEvent::BlockLost(s, side) => self.blocks_lost[s.index()][side.index()] += 1,
                MapEvent::Attack(l) => self.link_attacks[l.index()] += 1,
                MapEvent::Retreat(l) => self.link_retreats[l.index()] += 1,
            }
        }
        for s in &r.decisive {
            self.sudden_death_decisive[s.index()] += 1;
        }
    }

    /// Adds another shard's counts: the same board, or none on either side
    /// only when neither has any.
    pub fn merge(&mut self, o: &MapCounts) -> Result<(), MergeError> {
        match (self.is_empty(), o.is_empty()) {
            (_, true) if self.is_empty() => return Ok(()),
            (true, false) => {
                *self = o.clone();
                return Ok(());
            }
            (false, true) | (true, true) => {
                return Err(MergeError::Damaged(
                    "one report has map counts and another has none (written before them)"
                        .to_string(),
                ));
            }
            (false, false) => {}
        }
        if self.spaces != o.spaces || self.links != o.links {
            return Err(MergeError::Damaged(
                "the reports' map counts are of different maps".to_string(),
            ));
        }
        let n = self.spaces.len();
        while self.held_by_year.len() < o.held_by_year.len() {
            self.held_by_year.push(vec![[0; 2]; n]);
        }
        for (a, b) in self.held_by_year.iter_mut().zip(&o.held_by_year) {
            add_pairs(a, b)?;
        }
        add_pairs(&mut self.held_at_end, &o.held_at_end)?;
        add_all(&mut self.battles, &o.battles)?;
        add_pairs(&mut self.battles_won, &o.battles_won)?;
        add_pairs(&mut self.steps_lost, &o.steps_lost)?;
        add_pairs(&mut self.blocks_lost, &o.blocks_lost)?;
        add_all(&mut self.sudden_death_decisive, &o.sudden_death_decisive)?;
        add_all(&mut self.link_attacks, &o.link_attacks)?;
        add_all(&mut self.link_retreats, &o.link_retreats)?;
        Ok(())
    }

    /// Checks counts as read from a file, against the run's own: every
    /// list as long as the map, no space held in more games than reached
    /// that winter, no more battles won than fought, and the per-space
    /// battles, steps and blocks lost adding up to the run's totals.
    /// `reached[y]`: games that reached the winter of year `y + 1`;
    /// `totals`: battles, steps lost [C, P], blocks lost [C, P].
    pub fn check(
        &self,
        games: u64,
        reached: &[u64],
        sudden_deaths: u64,
        totals: (u64, [u64; 2], [u64; 2]),
    ) -> Result<(), MergeError> {
        if self.is_empty() {
            return Ok(());
        }
        let (n, l) = (self.spaces.len(), self.links.len());
        let lens = [
            self.held_at_end.len(),
            self.battles.len(),
            self.battles_won.len(),
            self.steps_lost.len(),
            self.blocks_lost.len(),
            self.sudden_death_decisive.len(),
        ];
        if lens.iter().any(|&x| x != n)
            || self.link_attacks.len() != l
            || self.link_retreats.len() != l
            || self.held_by_year.iter().any(|y| y.len() != n)
            || self.held_by_year.len() > reached.len()
        {
            return Err(MergeError::Damaged(
                "raw.map: the counts do not fit the map's spaces and links".to_string(),
            ));
        }
        let over = |h: &[[u64; 2]], of: u64| {
            h.iter()
                .any(|c| c[0].checked_add(c[1]).is_none_or(|t| t > of))
        };
        for (y, held) in self.held_by_year.iter().enumerate() {
            if over(held, reached[y]) {
                return Err(MergeError::Damaged(format!(
                    "raw.map: a space is held after the winter of year {} in more games than reached it",
                    y + 1
                )));
            }
        }
        if over(&self.held_at_end, games) {
            return Err(MergeError::Damaged(
                "raw.map: a space is held at the end in more games than played".to_string(),
            ));
        }
        for (s, won) in self.battles_won.iter().enumerate() {
            if won[0]
                .checked_add(won[1])
                .is_none_or(|w| w > self.battles[s])
            {
                return Err(MergeError::Damaged(format!(
                    "raw.map: more battles won than fought at {}",
                    self.spaces[s]
                )));
            }
        }
        if self
            .sudden_death_decisive
            .iter()
            .any(|&d| d > sudden_deaths)
        {
            return Err(MergeError::Damaged(
                "raw.map: a city decided more sudden deaths than there were".to_string(),
            ));
        }
        let sum = |v: &[u64]| v.iter().try_fold(0u64, |a, b| a.checked_add(*b));
        let side_sum =
            |v: &[[u64; 2]], i: usize| v.iter().try_fold(0u64, |a, b| a.checked_add(b[i]));
        let (battles, steps, blocks) = totals;
        let fits = sum(&self.battles) == Some(battles)
            && (0..2).all(|i| side_sum(&self.steps_lost, i) == Some(steps[i]))
            && (0..2).all(|i| side_sum(&self.blocks_lost, i) == Some(blocks[i]));
        if !fits {
            return Err(MergeError::Damaged(
                "raw.map: the battles, steps and blocks lost per space do not add up to the run's"
                    .to_string(),
            ));
        }
        Ok(())
    }
}

/// One space's figures in a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpaceFigures {
    pub space: String,
    /// After each year's winter: the games that got there, and the share of
    /// them in which Caesar, and Pompey, held the space.
    pub held_by_year: Vec<HeldShare>,
    /// Share of all games in which each side held it at the end.
    pub held_at_end: HeldShare,
    pub battles: u64,
    pub battles_per_game: f64,
    pub battles_won_caesar: u64,
    pub battles_won_pompey: u64,
    pub steps_lost_caesar: u64,
    pub steps_lost_pompey: u64,
    pub blocks_lost_caesar: u64,
    pub blocks_lost_pompey: u64,
    /// Sudden deaths in which the loser lost this city in the deciding year.
    pub sudden_death_decisive: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HeldShare {
    /// The year whose winter it is (absent: the end of the game).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub year: Option<u8>,
    pub games: u64,
    pub caesar: f64,
    pub pompey: f64,
}

/// One link's figures in a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkFigures {
    pub a: String,
    pub b: String,
    pub attacks: u64,
    pub retreats: u64,
}

impl MapCounts {
    /// The per-space figures, given the games and the games reaching each winter.
    pub(crate) fn space_figures(&self, games: u64, reached: &[u64]) -> Vec<SpaceFigures> {
        (0..self.spaces.len())
            .map(|s| SpaceFigures {
                space: self.spaces[s].clone(),
                held_by_year: self
                    .held_by_year
                    .iter()
                    .enumerate()
                    .map(|(y, held)| {
                        let of = reached.get(y).copied().unwrap_or(0);
                        HeldShare {
                            year: Some(y as u8 + 1),
                            games: of,
                            caesar: share(held[s][0], of),
                            pompey: share(held[s][1], of),
                        }
                    })
                    .collect(),
                held_at_end: HeldShare {
                    year: None,
                    games,
                    caesar: share(self.held_at_end[s][0], games),
                    pompey: share(self.held_at_end[s][1], games),
                },
                battles: self.battles[s],
                battles_per_game: share(self.battles[s], games),
                battles_won_caesar: self.battles_won[s][0],
                battles_won_pompey: self.battles_won[s][1],
                steps_lost_caesar: self.steps_lost[s][0],
                steps_lost_pompey: self.steps_lost[s][1],
                blocks_lost_caesar: self.blocks_lost[s][0],
                blocks_lost_pompey: self.blocks_lost[s][1],
                sudden_death_decisive: self.sudden_death_decisive[s],
            })
            .collect()
    }

    pub(crate) fn link_figures(&self) -> Vec<LinkFigures> {
        self.links
            .iter()
            .enumerate()
            .map(|(i, [a, b])| LinkFigures {
                a: a.clone(),
                b: b.clone(),
                attacks: self.link_attacks[i],
                retreats: self.link_retreats[i],
            })
            .collect()
    }

    /// One CSV row per space: counts (integers) and the games they are of.
    pub fn spaces_csv(&self, games: u64, reached: &[u64]) -> String {
        let years = self.held_by_year.len();
        let mut out = String::from("space,games,caesar_held_end,pompey_held_end");
        for y in 1..=years {
            out.push_str(&format!(
                ",games_reaching_winter_{y},caesar_held_winter_{y},pompey_held_winter_{y}"
            ));
        }
        out.push_str(",battles,caesar_battles_won,pompey_battles_won,caesar_steps_lost,pompey_steps_lost,caesar_blocks_lost,pompey_blocks_lost,sudden_death_decisive\n");
        for s in 0..self.spaces.len() {
            let name = &self.spaces[s];
            let name = if name.contains([',', '"']) {
                format!("\"{}\"", name.replace('"', "\"\""))
            } else {
                name.clone()
            };
            out.push_str(&format!(
                "{name},{games},{},{}",
                self.held_at_end[s][0], self.held_at_end[s][1]
            ));
            for (y, held) in self.held_by_year.iter().enumerate() {
                out.push_str(&format!(
                    ",{},{},{}",
                    reached.get(y).copied().unwrap_or(0),
                    held[s][0],
                    held[s][1]
                ));
            }
            out.push_str(&format!(
                ",{},{},{},{},{},{},{},{}\n",
                self.battles[s],
                self.battles_won[s][0],
                self.battles_won[s][1],
                self.steps_lost[s][0],
                self.steps_lost[s][1],
                self.blocks_lost[s][0],
                self.blocks_lost[s][1],
                self.sudden_death_decisive[s]
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::AiSpec;
    use crate::sim::runs::options::SimOptions;
    use crate::sim::runs::report::{Merge, SimReport};
    use crate::sim::{Progress, simulate};

    fn run(shard: Option<&str>) -> SimReport {
        let game = crate::test_support::published("rules-2.0");
        let options = SimOptions {
            games: 24,
            seed: 3,
            caesar: AiSpec::Random,
            pompey: AiSpec::Heuristic,
            omniscient: false,
            shard: shard.map(|s| s.parse().unwrap()),
        };
        simulate(&game, "rules-2.0", &options, &Progress::new(), |_| {}).unwrap()
    }

    #[test]
    fn map_counts_add_up_to_the_runs_totals() {
        let r = run(None);
        let m = &r.raw.map;
        assert_eq!(
            m.spaces.len(),
            crate::test_support::published("rules-2.0").board().len()
        );
        // check() holds the sums against the run's own histograms.
        r.check().unwrap();
        let battles: u64 = m.battles.iter().sum();
        assert!(battles > 0);
        assert_eq!(
            battles as f64,
            (r.battles_per_game.mean * r.games as f64).round()
        );
        let won: u64 = m.battles_won.iter().map(|w| w[0] + w[1]).sum();
        assert!(won <= battles && won > 0);
        let attacks: u64 = m.link_attacks.iter().sum();
        assert!(attacks >= battles, "every battle has an attack link");
        // Every game ends after some winter, so the end is that winter's picture.
        let last_year = r.raw.reached().len();
        assert_eq!(m.held_by_year.len(), last_year);
        for s in 0..m.spaces.len() {
            assert!(m.held_at_end[s][0] + m.held_at_end[s][1] <= r.games);
        }
        // A hand-edited count no longer adds up.
        let mut edited = r.clone();
        edited.raw.map.battles[0] += 1;
        let err = edited.check().unwrap_err().to_string();
        assert!(err.contains("do not add up"), "{err}");
        let mut edited = r.clone();
        edited.raw.map.battles_won[0] = [5, 5];
        assert!(
            edited
                .check()
                .unwrap_err()
                .to_string()
                .contains("battles won")
        );
    }

    #[test]
    fn map_counts_merge_exactly_across_shards() {
        let whole = run(None);
        let parts = [run(Some("2/3")), run(Some("1/3")), run(Some("3/3"))];
        let merged = SimReport::merge(&parts).unwrap();
        assert_eq!(merged.raw.map, whole.raw.map);
        assert_eq!(merged.spaces, whole.spaces);
        assert_eq!(merged.links, whole.links);
        // A report from before the map counts does not merge with one that has them.
        let mut old = parts[0].clone();
        old.raw.map = MapCounts::default();
        let err = SimReport::merge(&[old, parts[1].clone()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("map counts"), "{err}");
    }
}
