//! Simulation reports: integer accumulators that merge exactly, and the
//! figures derived from them (rates with intervals, quartiles, balance).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::engine::{EndReason, GameStats, PlayQuality};
use crate::scenario::model::{Event, Side};
use crate::sim::runs::cluster::Shard;
use crate::sim::runs::heatmap;
use crate::sim::runs::merge::{MergeError, RunDifference};
use crate::sim::runs::options::{GameRange, SimOptions};
use crate::sim::runs::stats::{
    Estimate, Histogram, PairedDifference, Summary, paired_mean_difference, paired_proportion_test,
    share, two_proportion_test,
};

/// One finished game, as reports and CSV rows see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub index: u64,
    pub seed: u64,
    pub winner: Option<Side>,
    pub how: EndReason,
    /// The year whose winter ended the game.
    pub year: u8,
    pub vp: [u32; 2],
    /// Event cards each side played ([Caesar, Pompey], `Event::ALL` order).
    pub events_by_side: [[u8; Event::COUNT]; 2],
    /// What the engine counted as the game went: battles, losses, events,
    /// VP by year, play quality (its map events are taken into `map`).
    #[serde(flatten)]
    pub stats: GameStats,
    /// Where things happened and who held what after each winter (for the
    /// map heatmaps; not in the CSV rows).
    #[serde(skip)]
    pub map: heatmap::MapRecord,
}

/// A column of the per-game CSV: its header and its value in a game.
type CsvColumn = (String, Box<dyn Fn(&GameSummary) -> String + Send + Sync>);

/// The per-game CSV's columns, in order: the header and every row read
/// this one list (the per-game counts from [`GAME_COUNTS`], the
/// events from [`Event::ALL`]).
static CSV_COLUMNS: std::sync::LazyLock<Vec<CsvColumn>> = std::sync::LazyLock::new(|| {
    fn side(s: Option<Side>) -> String {
        s.map_or("none".to_string(), |s| s.to_string())
    }
    fn column(
        name: &str,
        value: impl Fn(&GameSummary) -> String + Send + Sync + 'static,
    ) -> CsvColumn {
        (name.to_string(), Box::new(value))
    }
    let mut columns = vec![
        column("game", |g| g.index.to_string()),
        column("seed", |g| g.seed.to_string()),
        column("winner", |g| side(g.winner)),
        column("how", |g| format!("{:?}", g.how)),
    ];
    for count in GAME_COUNTS.iter() {
        if let Some(name) = count.csv {
            let of = count.of;
            columns.push(column(name, move |g| of(g).to_string()));
        }
    }
    for event in Event::ALL {
        let name = format!("{event:?}").to_lowercase();
        columns.push(column(&name, move |g| {
            g.stats.events_played[event as usize].to_string()
        }));
    }
    columns.extend([
        column("events_cancelled", |g| g.stats.events_cancelled.to_string()),
        column("first_turn_player1", |g| side(g.stats.first_turn_player1)),
        column("actions", |g| g.stats.actions.to_string()),
        column("vp_by_year", |g| {
            let by_year: Vec<String> = g
                .stats
                .vp_by_year
                .iter()
                .map(|[c, p]| format!("{c}-{p}"))
                .collect();
            by_year.join(" ")
        }),
    ]);
    columns
});

impl GameSummary {
    /// The per-game CSV's header line (no newline).
    pub fn csv_header() -> String {
        let names: Vec<&str> = CSV_COLUMNS.iter().map(|(name, _)| name.as_str()).collect();
        names.join(",")
    }

    /// This game's CSV row (no newline), under [`GameSummary::csv_header`].
    pub fn csv_row(&self) -> String {
        let values: Vec<String> = CSV_COLUMNS.iter().map(|(_, value)| value(self)).collect();
        values.join(",")
    }
}

/// Everything a run counts. Only integers, so merging shards in any order
/// gives exactly the single-run figures. A field a report was written
/// before reads as its default: a per-game count it lacks is uncounted
/// there (see [`Accumulator::merge`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Accumulator {
    pub games: u64,
    pub caesar_wins: u64,
    pub pompey_wins: u64,
    pub draws: u64,
    /// Sudden deaths (1.2) by year (index 0 = year 1), per winner [Caesar, Pompey].
    pub sudden_death_by_year: Vec<[u64; 2]>,
    /// Won on VP after the last year, per winner.
    pub on_vp: [u64; 2],
    /// Won on the Rome tie-break, per winner.
    pub rome_tie_break: [u64; 2],
    /// VP of each side after each year's winter, for the games that got there.
    pub vp_by_year: Vec<[Histogram; 2]>,
    pub final_vp: [Histogram; 2],
    /// |Caesar VP − Pompey VP| at the end.
    pub vp_margin: Histogram,
    /// Times the VP leader changed between consecutive years (ties break no lead).
    pub lead_changes: Histogram,
    /// Years played.
    pub years: Histogram,
    pub battles: Histogram,
    pub steps_lost: [Histogram; 2],
    pub blocks_eliminated: [Histogram; 2],
    pub leaders_killed: [Histogram; 2],
    /// Event cards played, in `Event::ALL` order.
    pub events_played: [u64; Event::COUNT],
    /// Per side and event: games in which the side played it, and of
    /// those, games the side won.
    pub event_games: [[u64; Event::COUNT]; 2],
    pub event_wins: [[u64; Event::COUNT]; 2],
    pub events_cancelled: u64,
    pub first_turn_player1_caesar: u64,
    pub actions: u64,
    /// Wall-clock seconds; summed over merged shards.
    pub elapsed_seconds: f64,
    /// Play quality (reports written before it existed read as zeros).
    #[serde(default)]
    pub quality: QualitySums,
    /// Per space and link: who held what, battles, losses, sudden deaths,
    /// attacks and retreats (reports written before them have none).
    #[serde(default)]
    pub map: crate::sim::runs::heatmap::MapCounts,
}

/// A count of one game that a run keeps as a histogram of games: the one
/// declaration [`Accumulator::add`], [`Accumulator::merge`],
/// [`Accumulator::check`], the CSV ([`GameSummary::csv_row`]) and the text
/// report's "Per game" lines read. A new per-game count is a field of
/// [`crate::engine::GameStats`], its bump in the engine, a histogram field
/// of [`Accumulator`] and its line in [`GAME_COUNTS`].
pub(crate) struct GameCount {
    /// Its name in a report's `raw` (the accumulator's field).
    pub(crate) raw: &'static str,
    /// Its column in the per-game CSV, if it has one.
    pub(crate) csv: Option<&'static str>,
    /// Its value in one game.
    pub(crate) of: fn(&GameSummary) -> u32,
    histogram: fn(&Accumulator) -> &Histogram,
    histogram_mut: fn(&mut Accumulator) -> &mut Histogram,
    /// Whose count it is, for a side's.
    side: Option<Side>,
    /// How the text's "Per game" lines show it, if they do.
    shown: Option<Shown>,
}

/// How a count shows in the text report's "Per game" lines: its label and
/// which figure. The counts of one label (each side's) share a line.
#[derive(Debug, Clone, Copy)]
enum Shown {
    /// Its mean and quartiles.
    Quartiles(&'static str),
    /// Its mean alone.
    Mean(&'static str),
}

impl Shown {
    fn label(self) -> &'static str {
        match self {
            Shown::Quartiles(label) | Shown::Mean(label) => label,
        }
    }

    /// A count's figure from its summary `s`, after its side's name if it
    /// has one.
    fn text(self, side: Option<Side>, s: &Summary) -> String {
        match (self, side) {
            (Shown::Quartiles(_), None) => quart(s),
            (Shown::Quartiles(_), Some(side)) => format!("{side} {}", quart(s)),
            (Shown::Mean(_), None) => format!("{:.2}", s.mean),
            (Shown::Mean(_), Some(side)) => format!("{side}'s {:.2}", s.mean),
        }
    }
}

/// A [`GameCount`] of the accumulator's field `$field` (`[$i]`: a side's),
/// shown in the text as `$shown` if given.
macro_rules! game_count {
    (@side) => { None };
    (@side 0) => { Some(Side::Caesar) };
    (@side 1) => { Some(Side::Pompey) };
    (@shown) => { None };
    (@shown $shown:expr) => { Some($shown) };
    ($csv:expr, $field:ident $([$i:tt])?, $of:expr $(, $shown:expr)?) => {
        GameCount {
            raw: concat!(stringify!($field) $(, "[", stringify!($i), "]")?),
            csv: $csv,
            of: $of,
            histogram: |a| &a.$field $([$i])?,
            histogram_mut: |a| &mut a.$field $([$i])?,
            side: game_count!(@side $($i)?),
            shown: game_count!(@shown $($shown)?),
        }
    };
}

/// Every per-game count, in the CSV's column order (the text's "Per game"
/// lines keep it). The counts shown nowhere there: the VP margin and the
/// lead changes have lines of their own beside the VP (with shares only
/// they have), and the final VP are in the JSON alone.
pub(crate) const GAME_COUNTS: &[GameCount] = &[
    game_count!(
        Some("year"),
        years,
        |g| g.year as u32,
        Shown::Quartiles("years played")
    ),
    game_count!(Some("caesar_vp"), final_vp[0], |g| g.vp[0]),
    game_count!(Some("pompey_vp"), final_vp[1], |g| g.vp[1]),
    game_count!(
        Some("battles"),
        battles,
        |g| g.stats.battles,
        Shown::Quartiles("battles")
    ),
    game_count!(
        Some("caesar_steps_lost"),
        steps_lost[0],
        |g| g.stats.steps_lost[0],
        Shown::Quartiles("steps lost")
    ),
    game_count!(
        Some("pompey_steps_lost"),
        steps_lost[1],
        |g| g.stats.steps_lost[1],
        Shown::Quartiles("steps lost")
    ),
    game_count!(
        Some("caesar_blocks_eliminated"),
        blocks_eliminated[0],
        |g| g.stats.blocks_eliminated[0],
        Shown::Quartiles("blocks lost")
    ),
    game_count!(
        Some("pompey_blocks_eliminated"),
        blocks_eliminated[1],
        |g| g.stats.blocks_eliminated[1],
        Shown::Quartiles("blocks lost")
    ),
    game_count!(
        Some("caesar_leaders_killed"),
        leaders_killed[0],
        |g| g.stats.leaders_killed[0],
        Shown::Mean("leaders killed")
    ),
    game_count!(
        Some("pompey_leaders_killed"),
        leaders_killed[1],
        |g| g.stats.leaders_killed[1],
        Shown::Mean("leaders killed")
    ),
    game_count!(None, vp_margin, |g| g.vp[0].abs_diff(g.vp[1])),
    game_count!(None, lead_changes, |g| lead_changes(&g.stats.vp_by_year)),
];

/// Play-quality counts summed over games, [Caesar, Pompey] (see
/// [`PlayQuality`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QualitySums {
    pub mp_spent: [u64; 2],
    pub mp_wasted: [u64; 2],
    pub mp_unused: [u64; 2],
    pub lp_unused: [u64; 2],
    pub events_discarded: [u64; 2],
    /// Games in which the side wasted at least one move point.
    pub games_with_waste: [u64; 2],
    /// Moves undone within two turns without a battle (issue 44).
    #[serde(default)]
    pub moves_undone: [u64; 2],
    /// VP cities held at the start of a command phase and left empty.
    #[serde(default)]
    pub vp_cities_left: [u64; 2],
}

/// One play-quality count, declared once in [`QUALITY_COUNTS`]: how a game
/// adds to its sums ([`QualitySums`]), the figures a report makes of them
/// ([`SideQuality`]) and its words in the text. [`QualitySums::add`],
/// [`QualitySums::merge`], [`QualitySums::side`] and the text's play-quality
/// lines read the list. (The two structs stay written out: their fields, in
/// their order, are the JSON's, and their orders differ.)
struct QualityCount {
    /// One game's count for a side (0: Caesar).
    of: fn(&PlayQuality, usize) -> u64,
    sums: fn(&QualitySums) -> &[u64; 2],
    sums_mut: fn(&mut QualitySums) -> &mut [u64; 2],
    /// The side's figures made from its sum.
    figures: &'static [QualityFigure],
    /// Its part of the text's heading, separator first.
    words: &'static str,
    /// Its part of a side's text line.
    text: fn(&SideQuality) -> String,
}

/// A figure of [`SideQuality`] made from a side's sum of one count.
enum QualityFigure {
    /// The sum per game.
    PerGame(fn(&mut SideQuality) -> &mut f64),
    /// The sum itself.
    Total(fn(&mut SideQuality) -> &mut u64),
}

/// [`QUALITY_COUNTS`] from one line per count: the field of [`QualitySums`],
/// one game's count, the figures of [`SideQuality`] made from it (`per_game`
/// or `total`), then its words in the heading and its text on a side's line
/// (a format and the figure it shows).
macro_rules! quality_counts {
    (@figure per_game $figure:ident) => { QualityFigure::PerGame(|q| &mut q.$figure) };
    (@figure total $figure:ident) => { QualityFigure::Total(|q| &mut q.$figure) };
    ($(
        $sum:ident: |$q:ident, $i:ident| $of:expr => $($kind:ident $figure:ident),+;
            $words:literal, $text:literal $shown:ident;
    )*) => {
        /// Every play-quality count, in the order the text shows them.
        const QUALITY_COUNTS: &[QualityCount] = &[$(
            QualityCount {
                of: |$q, $i| u64::from($of),
                sums: |s| &s.$sum,
                sums_mut: |s| &mut s.$sum,
                figures: &[$(quality_counts!(@figure $kind $figure)),+],
                words: $words,
                text: |q| format!($text, q.$shown),
            },
        )*];
    };
}

quality_counts! {
    mp_spent: |q, i| q.mp_spent[i] => per_game mp_spent_per_game;
        "move points spent", "MP {:5.2}" mp_spent_per_game;
    mp_wasted: |q, i| q.mp_wasted[i] => total mp_wasted, per_game mp_wasted_per_game;
        " / wasted on groups that moved nothing", " / {:.2}" mp_wasted_per_game;
    games_with_waste: |q, i| q.mp_wasted[i] > 0 => total games_with_waste;
        "", " (in {} games)" games_with_waste;
    mp_unused: |q, i| q.mp_unused[i] => per_game mp_unused_per_game;
        " / left unused", " / {:.2}" mp_unused_per_game;
    lp_unused: |q, i| q.lp_unused[i] => per_game lp_unused_per_game;
        "; levies left unused", "; LP {:.2}" lp_unused_per_game;
    events_discarded: |q, i| q.events_discarded[i] => per_game events_discarded_per_game;
        "; events discarded", "; events {:.2}" events_discarded_per_game;
    moves_undone: |q, i| q.moves_undone[i] => per_game moves_undone_per_game;
        "; moves undone within two turns without a battle", "; undone {:.2}" moves_undone_per_game;
    vp_cities_left: |q, i| q.vp_cities_left[i] => per_game vp_cities_left_per_game;
        "; VP cities left empty", "; left empty {:.2}" vp_cities_left_per_game;
}

impl QualitySums {
    fn add(&mut self, q: &PlayQuality) {
        for i in 0..2 {
            for count in QUALITY_COUNTS {
                (count.sums_mut)(self)[i] += (count.of)(q, i);
            }
        }
    }

    fn merge(&mut self, o: &QualitySums) -> Result<(), MergeError> {
        for i in 0..2 {
            for count in QUALITY_COUNTS {
                add_to(&mut (count.sums_mut)(self)[i], (count.sums)(o)[i])?;
            }
        }
        Ok(())
    }

    fn side(&self, i: usize, games: u64) -> SideQuality {
        let mut side = SideQuality::default();
        for count in QUALITY_COUNTS {
            let sum = (count.sums)(self)[i];
            for figure in count.figures {
                match figure {
                    QualityFigure::PerGame(figure) => *figure(&mut side) = share(sum, games),
                    QualityFigure::Total(figure) => *figure(&mut side) = sum,
                }
            }
        }
        side
    }
}

/// How well one side used its cards, per game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct SideQuality {
    /// Move points spent on group and sea moves.
    pub mp_spent_per_game: f64,
    /// Move points spent on groups that moved no block, in all games.
    pub mp_wasted: u64,
    pub mp_wasted_per_game: f64,
    pub games_with_waste: u64,
    /// Move points left when the side ended its moves.
    pub mp_unused_per_game: f64,
    /// Levy points left while a levy or step was still possible.
    pub lp_unused_per_game: f64,
    /// Event cards discarded unplayed.
    pub events_discarded_per_game: f64,
    /// Blocks moved back where they came from within two game turns, no
    /// battle in between (back-and-forth play).
    #[serde(default)]
    pub moves_undone_per_game: f64,
    /// VP cities the side held when its command phase began and left
    /// empty by its end.
    #[serde(default)]
    pub vp_cities_left_per_game: f64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct QualityFigures {
    pub caesar: SideQuality,
    pub pompey: SideQuality,
}

impl Accumulator {
    pub fn new(years: u8) -> Accumulator {
        Accumulator {
            sudden_death_by_year: vec![[0, 0]; years as usize],
            ..Accumulator::default()
        }
    }

    pub fn add(&mut self, r: &GameSummary) {
        self.games += 1;
        match r.winner {
            Some(Side::Caesar) => self.caesar_wins += 1,
            Some(Side::Pompey) => self.pompey_wins += 1,
            None => self.draws += 1,
        }
        if let Some(w) = r.winner {
            let i = w.index();
            match r.how {
                EndReason::SuddenDeath => {
                    let y = r.year.max(1) as usize - 1;
                    if self.sudden_death_by_year.len() <= y {
                        self.sudden_death_by_year.resize(y + 1, [0, 0]);
                    }
                    self.sudden_death_by_year[y][i] += 1;
                }
                EndReason::VictoryPoints => self.on_vp[i] += 1,
                EndReason::RomeTieBreak => self.rome_tie_break[i] += 1,
                EndReason::Draw => {}
            }
        }
        let stats = &r.stats;
        for (y, vp) in stats.vp_by_year.iter().enumerate() {
            if self.vp_by_year.len() <= y {
                self.vp_by_year.resize(y + 1, Default::default());
            }
            self.vp_by_year[y][0].add(vp[0]);
            self.vp_by_year[y][1].add(vp[1]);
        }
        for count in GAME_COUNTS {
            (count.histogram_mut)(self).add((count.of)(r));
        }
        for (a, b) in self.events_played.iter_mut().zip(stats.events_played) {
            *a += b as u64;
        }
        for side in [Side::Caesar, Side::Pompey] {
            let i = side.index();
            for e in 0..Event::COUNT {
                if r.events_by_side[i][e] > 0 {
                    self.event_games[i][e] += 1;
                    if r.winner == Some(side) {
                        self.event_wins[i][e] += 1;
                    }
                }
            }
        }
        self.events_cancelled += stats.events_cancelled as u64;
        if stats.first_turn_player1 == Some(Side::Caesar) {
            self.first_turn_player1_caesar += 1;
        }
        self.actions += stats.actions as u64;
        self.quality.add(&stats.quality);
        self.map.add(&r.map);
    }

    /// The event cards' counts of `o` added: played, games and wins with
    /// each, and turns cancelled (2.1).
    fn merge_events(&mut self, o: &Accumulator) -> Result<(), MergeError> {
        for (a, b) in self.events_played.iter_mut().zip(o.events_played) {
            add_to(a, b)?;
        }
        for i in 0..2 {
            for e in 0..Event::COUNT {
                add_to(&mut self.event_games[i][e], o.event_games[i][e])?;
                add_to(&mut self.event_wins[i][e], o.event_wins[i][e])?;
            }
        }
        add_to(&mut self.events_cancelled, o.events_cancelled)?;
        Ok(())
    }

    /// Adds another run's counts (a shard of the same run). Fails, leaving
    /// `self` partly added, when a count would overflow.
    pub fn merge(&mut self, o: &Accumulator) -> Result<(), MergeError> {
        if self.games > 0 && self.map.is_empty() != o.map.is_empty() {
            return Err(MergeError::Damaged(
                "one report has map counts and another has none (written before them)".to_string(),
            ));
        }
        let uncounted = self.uncounted_in_either(o);
        add_to(&mut self.games, o.games)?;
        add_to(&mut self.caesar_wins, o.caesar_wins)?;
        add_to(&mut self.pompey_wins, o.pompey_wins)?;
        add_to(&mut self.draws, o.draws)?;
        if self.sudden_death_by_year.len() < o.sudden_death_by_year.len() {
            self.sudden_death_by_year
                .resize(o.sudden_death_by_year.len(), [0, 0]);
        }
        for (a, b) in self
            .sudden_death_by_year
            .iter_mut()
            .zip(&o.sudden_death_by_year)
        {
            add_to(&mut a[0], b[0])?;
            add_to(&mut a[1], b[1])?;
        }
        for i in 0..2 {
            add_to(&mut self.on_vp[i], o.on_vp[i])?;
            add_to(&mut self.rome_tie_break[i], o.rome_tie_break[i])?;
        }
        if self.vp_by_year.len() < o.vp_by_year.len() {
            self.vp_by_year
                .resize(o.vp_by_year.len(), Default::default());
        }
        // Histograms count games; each count of the sum is at most the games
        // added up above, so it cannot overflow once those did not.
        for (count, uncounted) in GAME_COUNTS.iter().zip(uncounted) {
            let merged = (count.histogram_mut)(self);
            match uncounted {
                true => *merged = Histogram::default(),
                false => merged.merge((count.histogram)(o)),
            }
        }
        for (a, b) in self.vp_by_year.iter_mut().zip(&o.vp_by_year) {
            a[0].merge(&b[0]);
            a[1].merge(&b[1]);
        }
        self.merge_events(o)?;
        add_to(
            &mut self.first_turn_player1_caesar,
            o.first_turn_player1_caesar,
        )?;
        add_to(&mut self.actions, o.actions)?;
        self.quality.merge(&o.quality)?;
        self.map.merge(&o.map)?;
        self.elapsed_seconds += o.elapsed_seconds;
        Ok(())
    }

    /// For each of [`GAME_COUNTS`], whether either side of a merge has games
    /// but never counted it (a report written before the count): the
    /// merged count then holds for no game rather than for some.
    fn uncounted_in_either(&self, o: &Accumulator) -> Vec<bool> {
        let uncounted =
            |a: &Accumulator, count: &GameCount| a.games > 0 && (count.histogram)(a).total() == 0;
        GAME_COUNTS
            .iter()
            .map(|count| uncounted(self, count) || uncounted(o, count))
            .collect()
    }

    /// Checks that these are the counts of `games` games, as [`Accumulator::add`]
    /// makes them: what a hand-edited or damaged report gets wrong. Histogram
    /// counts are checked before anything adds them up, so nothing overflows.
    pub fn check(&self, games: u64) -> Result<(), MergeError> {
        self.check_outcomes(games)?;
        self.check_histograms(games)?;
        self.check_map_counts(games)
    }

    /// Wins and draws add up to the games, and each side's ways of winning to its wins.
    fn check_outcomes(&self, games: u64) -> Result<(), MergeError> {
        if self.games != games {
            return Err(MergeError::Damaged(format!(
                "raw.games is {} but the report holds {games} games",
                self.games
            )));
        }
        if checked_sum([self.caesar_wins, self.pompey_wins, self.draws]) != Some(games) {
            return Err(MergeError::Damaged(format!(
                "Caesar's wins ({}), Pompey's wins ({}) and draws ({}) do not add up to its {games} games",
                self.caesar_wins, self.pompey_wins, self.draws
            )));
        }
        for side in [Side::Caesar, Side::Pompey] {
            let i = side.index();
            let wins = [self.caesar_wins, self.pompey_wins][i];
            let ended = checked_sum(
                self.sudden_death_by_year
                    .iter()
                    .map(|y| y[i])
                    .chain([self.on_vp[i], self.rome_tie_break[i]]),
            );
            if ended.is_none_or(|e| e > wins) {
                return Err(MergeError::Damaged(format!(
                    "{side}'s wins by sudden death, on VP and on the Rome tie-break come to more than {side}'s {wins} wins"
                )));
            }
        }
        if self.sudden_death_by_year.len() > u8::MAX as usize
            || self.vp_by_year.len() > u8::MAX as usize
        {
            return Err(MergeError::Damaged("raw: more than 255 years".to_string()));
        }
        Ok(())
    }

    /// Every per-game histogram counts each game once; the other counts fit the games.
    fn check_histograms(&self, games: u64) -> Result<(), MergeError> {
        for count in GAME_COUNTS {
            // An empty count: a report written before it (none was kept).
            let histogram = (count.histogram)(self);
            if histogram.total() > 0 {
                check_histogram(count.raw, histogram, games, true)?;
            }
        }
        let q = &self.quality;
        for i in 0..2 {
            if q.mp_wasted[i] > q.mp_spent[i] || q.games_with_waste[i] > games.min(q.mp_wasted[i]) {
                return Err(MergeError::Damaged(format!(
                    "raw.quality: side {i} wasted {} of {} move points spent, in {} of {games} games",
                    q.mp_wasted[i], q.mp_spent[i], q.games_with_waste[i]
                )));
            }
        }
        for (y, [caesar, pompey]) in self.vp_by_year.iter().enumerate() {
            let reached = check_histogram(&format!("vp_by_year[{y}][0]"), caesar, games, false)?;
            check_histogram(&format!("vp_by_year[{y}][1]"), pompey, reached, true)?;
        }
        for (i, side) in ["caesar", "pompey"].iter().enumerate() {
            for (e, event) in Event::ALL.iter().enumerate() {
                let (played, won) = (self.event_games[i][e], self.event_wins[i][e]);
                if played > games || won > played {
                    return Err(MergeError::Damaged(format!(
                        "raw: {side} played {event:?} in {played} games and won {won} of them, of {games} games"
                    )));
                }
            }
        }
        if self.first_turn_player1_caesar > games {
            return Err(MergeError::Damaged(format!(
                "raw.first_turn_player1_caesar is {}, more than the {games} games",
                self.first_turn_player1_caesar
            )));
        }
        if !(self.elapsed_seconds.is_finite() && self.elapsed_seconds >= 0.0) {
            return Err(MergeError::Damaged(
                "raw.elapsed_seconds is not a duration".to_string(),
            ));
        }
        Ok(())
    }

    /// The map's counts agree with the battles, losses and sudden deaths.
    fn check_map_counts(&self, games: u64) -> Result<(), MergeError> {
        let value_sum = |h: &Histogram| {
            h.counts.iter().enumerate().fold(0u64, |a, (v, c)| {
                a.saturating_add((v as u64).saturating_mul(*c))
            })
        };
        let sudden: u64 = self
            .sudden_death_by_year
            .iter()
            .map(|y| y[0].saturating_add(y[1]))
            .fold(0, u64::saturating_add);
        self.map.check(
            games,
            &self.reached(),
            sudden,
            (
                value_sum(&self.battles),
                [
                    value_sum(&self.steps_lost[0]),
                    value_sum(&self.steps_lost[1]),
                ],
                [
                    value_sum(&self.blocks_eliminated[0]),
                    value_sum(&self.blocks_eliminated[1]),
                ],
            ),
        )
    }
}

impl Accumulator {
    /// Games that reached the winter of each year.
    pub fn reached(&self) -> Vec<u64> {
        self.vp_by_year.iter().map(|h| h[0].total()).collect()
    }
}

/// Sorted, disjoint ranges with neighbours joined: 0..10 and 10..20 are 0..20.
fn coalesce(ranges: impl IntoIterator<Item = GameRange>) -> Vec<GameRange> {
    let mut out: Vec<GameRange> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(last) if last.end == r.start => last.end = r.end,
            _ => out.push(r),
        }
    }
    out
}

/// Checks a histogram of `games` games (or at most `games` when `exact`
/// is false): its counts and the sum of its values fit in 64 bits.
fn check_histogram(name: &str, h: &Histogram, games: u64, exact: bool) -> Result<u64, MergeError> {
    let total = h.counts.iter().try_fold(0u64, |a, c| a.checked_add(*c));
    let sum = h
        .counts
        .iter()
        .enumerate()
        .try_fold(0u64, |a, (v, c)| (v as u64).checked_mul(*c)?.checked_add(a));
    let fits = h.counts.len() <= u32::MAX as usize;
    match total {
        Some(t) if (t == games || (!exact && t < games)) && sum.is_some() && fits => Ok(t),
        Some(t) if sum.is_some() && fits => Err(MergeError::Damaged(format!(
            "raw.{name} counts {t} games, {} the report's {games}",
            if exact { "not" } else { "more than" }
        ))),
        _ => Err(MergeError::Damaged(format!(
            "raw.{name}: counts out of range"
        ))),
    }
}

fn checked_sum(values: impl IntoIterator<Item = u64>) -> Option<u64> {
    values.into_iter().try_fold(0u64, u64::checked_add)
}

fn add_to(a: &mut u64, b: u64) -> Result<(), MergeError> {
    *a = a.checked_add(b).ok_or(MergeError::Overflow("counts"))?;
    Ok(())
}

/// How often the side ahead on VP changed from one year to the next.
fn lead_changes(vp_by_year: &[[u32; 2]]) -> u32 {
    let mut last: Option<usize> = None;
    let mut changes = 0;
    for vp in vp_by_year {
        let leader = match vp[0].cmp(&vp[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(l) = leader {
            if last.is_some_and(|p| p != l) {
                changes += 1;
            }
            last = Some(l);
        }
    }
    changes
}

/// How the games ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Endings {
    /// Per year: sudden-death wins of Caesar and of Pompey.
    pub sudden_death_by_year: Vec<SideCounts>,
    pub sudden_death: u64,
    pub on_vp_after_last_year: SideCounts,
    pub rome_tie_break: SideCounts,
    pub draws: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SideCounts {
    pub caesar: u64,
    pub pompey: u64,
}

impl From<[u64; 2]> for SideCounts {
    fn from(c: [u64; 2]) -> SideCounts {
        SideCounts {
            caesar: c[0],
            pompey: c[1],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SideSummaries {
    pub caesar: Summary,
    pub pompey: Summary,
}

impl SideSummaries {
    fn of(h: &[Histogram; 2]) -> SideSummaries {
        SideSummaries {
            caesar: h[0].summary(),
            pompey: h[1].summary(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct YearVp {
    pub year: u8,
    /// Games that reached this year's winter.
    pub games: u64,
    pub caesar: Summary,
    pub pompey: Summary,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventFigures {
    pub card: String,
    pub played: u64,
    pub per_game: f64,
    /// How the card went for each side.
    pub caesar: EventEffect,
    pub pompey: EventEffect,
}

/// A side's results in the games where it played an event card, against
/// its results overall: a crude measure of the card's effect (the games
/// where a card is played are not a random sample).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EventEffect {
    /// Share of games in which the side played the card.
    pub played_in: f64,
    /// The side's win rate in those games.
    pub win_rate_when_played: Estimate,
    /// That win rate minus the side's overall win rate.
    pub win_rate_difference: f64,
}

/// What a run was played on beyond the names a person gave it: the
/// scenario's name and the content digests of the scenario and the rule set
/// (docs/formats.md, *What a report ran on*). Two variant files can share a
/// display name, and a file can change between shards: the digests tell.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedOn {
    pub scenario: String,
    /// [`crate::scenario::format::ResolvedScenario::digest`].
    pub scenario_digest: String,
    /// [`crate::scenario::rules::RuleSet::digest`].
    pub variant_digest: String,
}

impl PlayedOn {
    pub fn of(game: &crate::engine::Game) -> PlayedOn {
        PlayedOn {
            scenario: game.scenario.name.clone(),
            scenario_digest: game.scenario.digest.clone(),
            variant_digest: game.rules.digest(),
        }
    }
}

/// A player as a report names it, without the paths of its files
/// (`heuristic:FILE`, `mcts:64@FILE+VALUE`): a run's identity holds the
/// files' numbers themselves, so shards that spelt one file differently
/// (relative and absolute) merge, and two files of other numbers do not.
fn player_kind(spec: &str) -> String {
    crate::ai::SpecText::of(spec).without_paths()
}

/// Fields that say which run a report belongs to, as (name, value), for
/// [`refuse_different_runs`].
pub type Identity = Vec<(String, String)>;

/// Refuses two reports whose identities differ, naming the first field that
/// differs and its two values.
pub(crate) fn refuse_different_runs(
    what: &str,
    (label, identity): (&str, &Identity),
    (first_label, first): (&str, &Identity),
) -> Result<(), MergeError> {
    let value_in = |fields: &Identity, name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map_or_else(|| "(not set)".to_string(), |(_, v)| v.clone())
    };
    let names = identity.iter().chain(first).map(|(n, _)| n.as_str());
    for name in names {
        let (mine, theirs) = (value_in(identity, name), value_in(first, name));
        if mine != theirs {
            return Err(MergeError::DifferentRuns(Box::new(RunDifference {
                what: what.to_string(),
                field: name.to_string(),
                label: label.to_string(),
                mine,
                first_label: first_label.to_string(),
                theirs,
            })));
        }
    }
    Ok(())
}

/// The first of labelled shard reports, once each is checked and found a
/// shard of the same run as the first (by its `identity`; `what` names the
/// runs in a refusal: "ladders").
pub(crate) fn first_of_one_run<'a, R>(
    what: &str,
    reports: &[(&'a str, &'a R)],
    check: impl Fn(&R) -> Result<(), MergeError>,
    identity: impl Fn(&R) -> Identity,
) -> Result<(&'a str, &'a R), MergeError> {
    let (first_label, first) = *reports.first().ok_or(MergeError::NoReports)?;
    for &(label, r) in reports {
        check(r).map_err(|e| e.in_report(label))?;
        refuse_different_runs(what, (label, &identity(r)), (first_label, &identity(first)))?;
    }
    Ok((first_label, first))
}

/// Merges the run `pick` takes out of each labelled report, with the
/// checks of [`SimReport::merge_labelled`].
pub(crate) fn merge_picked<'a, R>(
    reports: &[(&'a str, &'a R)],
    pick: impl Fn(&'a R) -> &'a SimReport,
) -> Result<SimReport, MergeError> {
    let parts: Vec<(&str, &SimReport)> = reports.iter().map(|&(l, r)| (l, pick(r))).collect();
    SimReport::merge_labelled(&parts)
}

/// Reports that `merge` combines from the shards of one run: every kind
/// checks each report, refuses reports of different runs (naming the field)
/// and games counted twice, and may still miss games.
pub trait Merge: Sized {
    /// Combines shard reports, each labelled (its file name) for the errors.
    fn merge_labelled(reports: &[(&str, &Self)]) -> Result<Self, MergeError>;

    /// [`Merge::merge_labelled`], the reports named "report 1", "report 2", ...
    fn merge(reports: &[Self]) -> Result<Self, MergeError> {
        let labels: Vec<String> = (1..=reports.len()).map(|i| format!("report {i}")).collect();
        let labelled: Vec<(&str, &Self)> = labels.iter().map(String::as_str).zip(reports).collect();
        Self::merge_labelled(&labelled)
    }
}

/// The report of one run (or of merged shards of one run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimReport {
    pub variant: String,
    /// The scenario and the digests of what the run played on. Reports
    /// written before this field existed have it empty.
    #[serde(default)]
    pub played_on: PlayedOn,
    pub caesar_ai: String,
    pub pompey_ai: String,
    /// Caesar's and Pompey's numbers when a side plays a player file
    /// (`heuristic:FILE`): the report says what played even if the file
    /// changes later. Left out of the JSON when neither does.
    #[serde(default, skip_serializing_if = "no_player_files")]
    pub player_files: [Option<crate::ai::HeuristicParams>; 2],
    /// Caesar's and Pompey's learned evaluations when a side searches with
    /// one (`search:16@FILE+VALUE`), kept whole as the numbers are. Left out
    /// of the JSON when neither does.
    #[serde(default, skip_serializing_if = "no_value_files")]
    pub value_files: [Option<crate::ai::ValueModel>; 2],
    pub omniscient: bool,
    pub seed: u64,
    /// Games in this report.
    pub games: u64,
    /// Games of the whole run (more than `games` for a shard).
    pub run_games: u64,
    /// The shards merged into this report ("1/1" for a whole run).
    pub shards: Vec<String>,
    /// The games of the run this report holds, in order, none twice (merged
    /// reports may hold several ranges). Reports written before this field
    /// existed have their ranges worked out from `shards`.
    #[serde(default)]
    pub game_ranges: Vec<GameRange>,
    pub caesar_wins: u64,
    pub pompey_wins: u64,
    pub draws: u64,
    pub caesar_win_rate: Estimate,
    pub pompey_win_rate: Estimate,
    pub draw_rate: Estimate,
    /// |P(Caesar) − P(Pompey)|: 0 is a perfectly balanced variant.
    pub balance: f64,
    pub endings: Endings,
    pub vp_by_year: Vec<YearVp>,
    pub final_vp: SideSummaries,
    /// How decisive the result is: |VP difference| at the end.
    pub vp_margin: Summary,
    /// Share of games decided by 3 VP or more.
    pub decisive_share: f64,
    /// Changes of the VP leader from one year to the next, per game.
    pub lead_changes: Summary,
    /// Share of games with at least one change of VP leader.
    pub games_with_lead_change: f64,
    pub years_played: Summary,
    pub battles_per_game: Summary,
    pub steps_lost: SideSummaries,
    pub blocks_eliminated: SideSummaries,
    pub leaders_killed: SideSummaries,
    pub events: Vec<EventFigures>,
    pub events_cancelled_per_game: f64,
    /// Share of games where Caesar was Player 1 on the first turn.
    pub first_turn_player1_caesar: f64,
    pub actions_per_game: f64,
    /// How well each side used its move points, levies and cards.
    #[serde(default)]
    pub play_quality: QualityFigures,
    /// Where the game is decided, per space (docs/simulation.md, *Map heatmaps*).
    #[serde(default)]
    pub spaces: Vec<crate::sim::runs::heatmap::SpaceFigures>,
    /// How often each link was used to attack and to retreat.
    #[serde(default)]
    pub links: Vec<crate::sim::runs::heatmap::LinkFigures>,
    pub elapsed_seconds: f64,
    pub games_per_second: f64,
    /// The counts behind every figure, for `merge`.
    pub raw: Accumulator,
}

fn no_player_files(files: &[Option<crate::ai::HeuristicParams>; 2]) -> bool {
    files.iter().all(Option::is_none)
}

fn no_value_files(files: &[Option<crate::ai::ValueModel>; 2]) -> bool {
    files.iter().all(Option::is_none)
}

/// The learned evaluation `spec` scores its playouts with, if any.
fn value_file(spec: &crate::ai::AiSpec) -> Option<crate::ai::ValueModel> {
    match spec {
        crate::ai::AiSpec::SearchOn(on) => on.value.as_ref().map(|v| v.model.clone()),
        _ => None,
    }
}

/// The numbers `side` plays by from a player file, if `spec` plays one.
fn player_file(spec: &crate::ai::AiSpec, side: Side) -> Option<crate::ai::HeuristicParams> {
    spec.numbers_file().map(|t| t.numbers.of(side))
}

impl SimReport {
    pub fn new(variant: &str, options: &SimOptions, acc: Accumulator) -> SimReport {
        let shards = vec![options.shard.map_or("1/1".to_string(), |s| s.to_string())];
        let mut report = SimReport::from_parts(
            variant,
            options.caesar.to_string(),
            options.pompey.to_string(),
            options.omniscient,
            options.seed,
            options.games,
            shards,
            vec![options.game_range().into()],
            acc,
        );
        report.player_files = [
            player_file(&options.caesar, Side::Caesar),
            player_file(&options.pompey, Side::Pompey),
        ];
        report.value_files = [value_file(&options.caesar), value_file(&options.pompey)];
        report
    }

    #[allow(clippy::too_many_arguments)]
    fn from_parts(
        variant: &str,
        caesar_ai: String,
        pompey_ai: String,
        omniscient: bool,
        seed: u64,
        run_games: u64,
        shards: Vec<String>,
        game_ranges: Vec<GameRange>,
        acc: Accumulator,
    ) -> SimReport {
        let n = acc.games;
        let caesar = Estimate::of(acc.caesar_wins, n);
        let pompey = Estimate::of(acc.pompey_wins, n);
        let margin_total = acc.vp_margin.total();
        let decisive: u64 = acc.vp_margin.counts.iter().skip(3).sum();
        let no_change = acc.lead_changes.counts.first().copied().unwrap_or(0);
        SimReport {
            variant: variant.to_string(),
            played_on: PlayedOn::default(),
            caesar_ai,
            pompey_ai,
            player_files: [None, None],
            value_files: [None, None],
            omniscient,
            seed,
            games: n,
            run_games,
            shards,
            game_ranges,
            caesar_wins: acc.caesar_wins,
            pompey_wins: acc.pompey_wins,
            draws: acc.draws,
            caesar_win_rate: caesar,
            pompey_win_rate: pompey,
            draw_rate: Estimate::of(acc.draws, n),
            balance: (caesar.estimate - pompey.estimate).abs(),
            endings: acc.endings(),
            vp_by_year: acc.vp_by_year_figures(),
            final_vp: SideSummaries::of(&acc.final_vp),
            vp_margin: acc.vp_margin.summary(),
            decisive_share: share(decisive, margin_total),
            lead_changes: acc.lead_changes.summary(),
            games_with_lead_change: share(n - no_change.min(n), n),
            years_played: acc.years.summary(),
            battles_per_game: acc.battles.summary(),
            steps_lost: SideSummaries::of(&acc.steps_lost),
            blocks_eliminated: SideSummaries::of(&acc.blocks_eliminated),
            leaders_killed: SideSummaries::of(&acc.leaders_killed),
            events: acc.event_figures(caesar.estimate, pompey.estimate),
            events_cancelled_per_game: share(acc.events_cancelled, n),
            first_turn_player1_caesar: share(acc.first_turn_player1_caesar, n),
            actions_per_game: share(acc.actions, n),
            play_quality: QualityFigures {
                caesar: acc.quality.side(0, n),
                pompey: acc.quality.side(1, n),
            },
            spaces: acc.map.space_figures(n, &acc.reached()),
            links: acc.map.link_figures(),
            elapsed_seconds: acc.elapsed_seconds,
            games_per_second: if acc.elapsed_seconds > 0.0 {
                n as f64 / acc.elapsed_seconds
            } else {
                0.0
            },
            raw: acc,
        }
    }
}

impl Accumulator {
    /// How the games ended.
    fn endings(&self) -> Endings {
        Endings {
            sudden_death: self.sudden_death_by_year.iter().map(|c| c[0] + c[1]).sum(),
            sudden_death_by_year: self
                .sudden_death_by_year
                .iter()
                .map(|c| (*c).into())
                .collect(),
            on_vp_after_last_year: self.on_vp.into(),
            rome_tie_break: self.rome_tie_break.into(),
            draws: self.draws,
        }
    }

    /// Each side's VP after each year, over the games that reached it.
    fn vp_by_year_figures(&self) -> Vec<YearVp> {
        self.vp_by_year
            .iter()
            .enumerate()
            .map(|(y, h)| YearVp {
                year: y as u8 + 1,
                games: h[0].total(),
                caesar: h[0].summary(),
                pompey: h[1].summary(),
            })
            .collect()
    }

    /// Each event card: how often it was played, and each side's win rate
    /// when it played the card against its overall rate (`caesar`, `pompey`).
    fn event_figures(&self, caesar: f64, pompey: f64) -> Vec<EventFigures> {
        Event::ALL
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let effect = |side: Side, overall: f64| {
                    let s = side.index();
                    let when = Estimate::of(self.event_wins[s][i], self.event_games[s][i]);
                    EventEffect {
                        played_in: share(self.event_games[s][i], self.games),
                        win_rate_when_played: when,
                        win_rate_difference: if self.event_games[s][i] == 0 {
                            0.0
                        } else {
                            when.estimate - overall
                        },
                    }
                };
                EventFigures {
                    card: format!("{e:?}"),
                    played: self.events_played[i],
                    per_game: share(self.events_played[i], self.games),
                    caesar: effect(Side::Caesar, caesar),
                    pompey: effect(Side::Pompey, pompey),
                }
            })
            .collect()
    }
}

impl Merge for SimReport {
    /// Combines shard reports of one run, each with a label (its file name)
    /// for the errors. Every report is checked first ([`SimReport::check`]);
    /// reports of different runs, and reports holding the same game twice,
    /// are refused. The result may still miss games: see
    /// [`SimReport::missing_games`].
    fn merge_labelled(reports: &[(&str, &SimReport)]) -> Result<SimReport, MergeError> {
        let (first_label, first) = *reports.first().ok_or(MergeError::NoReports)?;
        let mut acc = Accumulator::default();
        let mut shards: Vec<String> = Vec::new();
        let mut ranges: Vec<(GameRange, &str)> = Vec::new();
        for &(label, r) in reports {
            r.check().map_err(|e| e.in_report(label))?;
            refuse_different_runs(
                "runs",
                (label, &r.identity()),
                (first_label, &first.identity()),
            )?;
            for s in &r.shards {
                if !shards.contains(s) {
                    shards.push(s.clone());
                }
            }
            let own = r.ranges().map_err(|e| e.in_report(label))?;
            ranges.extend(own.into_iter().map(|g| (g, label)));
            acc.merge(&r.raw).map_err(|e| e.in_report(label))?;
        }
        ranges.sort();
        MergeError::refuse_overlaps(&ranges)?;
        let covered = coalesce(ranges.iter().map(|(g, _)| *g));
        // Disjoint ranges of one run: the counts add up to at most run_games,
        // but sums of values may still overflow.
        acc.check(acc.games)
            .map_err(|e| e.in_report("the merged counts are out of range"))?;
        shards.sort_by_key(|s| {
            let (i, n) = s.split_once('/').unwrap_or(("0", "0"));
            (n.parse::<u32>().unwrap_or(0), i.parse::<u32>().unwrap_or(0))
        });
        if acc.games == first.run_games {
            shards = vec!["1/1".to_string()];
        }
        let mut merged = SimReport::from_parts(
            &first.variant,
            first.caesar_ai.clone(),
            first.pompey_ai.clone(),
            first.omniscient,
            first.seed,
            first.run_games,
            shards,
            covered,
            acc,
        );
        merged.player_files = first.player_files;
        merged.value_files = first.value_files.clone();
        merged.played_on = first.played_on.clone();
        Ok(merged)
    }
}

impl SimReport {
    /// Checks a report as read from a file: every count consistent with the
    /// games it holds, its game ranges inside the run, in order and as many
    /// games as it counts. Says what is wrong.
    pub fn check(&self) -> Result<(), MergeError> {
        if self.run_games == 0 {
            return Err(MergeError::Damaged(
                "run_games is 0: a run has at least one game".to_string(),
            ));
        }
        if self.games == 0 {
            return Err(MergeError::Damaged("the report holds no games".to_string()));
        }
        if self.games > self.run_games {
            return Err(MergeError::Damaged(format!(
                "the report holds {} games, more than its run's {} (run_games)",
                self.games, self.run_games
            )));
        }
        for (name, shown, counted) in [
            ("games", self.games, self.raw.games),
            ("caesar_wins", self.caesar_wins, self.raw.caesar_wins),
            ("pompey_wins", self.pompey_wins, self.raw.pompey_wins),
            ("draws", self.draws, self.raw.draws),
        ] {
            if shown != counted {
                return Err(MergeError::Damaged(format!(
                    "{name} is {shown} but the raw counts say {counted} (raw.{name})"
                )));
            }
        }
        self.raw.check(self.games)?;
        self.ranges().map(|_| ())
    }

    /// The game ranges of this report, checked: non-empty, inside the run,
    /// in order, none overlapping, and holding exactly `games` games. Reports
    /// written before `game_ranges` existed get theirs from `shards`.
    pub fn ranges(&self) -> Result<Vec<GameRange>, MergeError> {
        let ranges = if self.game_ranges.is_empty() {
            let mut derived = Vec::new();
            for s in &self.shards {
                let shard: Shard = s.parse().map_err(|e| {
                    MergeError::Damaged(format!("no game_ranges, and shards holds {e}"))
                })?;
                derived.push(GameRange::from(shard.range(self.run_games)));
            }
            derived.sort();
            derived
        } else {
            self.game_ranges.clone()
        };
        if ranges.is_empty() {
            return Err(MergeError::Damaged(
                "the report names no game ranges (game_ranges) nor shards".to_string(),
            ));
        }
        let mut total: u64 = 0;
        let mut end_of_last: Option<GameRange> = None;
        for r in &ranges {
            if r.is_empty() {
                return Err(MergeError::Damaged(format!(
                    "the game range {}..{} holds no games",
                    r.start, r.end
                )));
            }
            if r.end > self.run_games {
                return Err(MergeError::Damaged(format!(
                    "it holds {r}, outside the run's {} games (0–{})",
                    self.run_games,
                    self.run_games - 1
                )));
            }
            if let Some(last) = end_of_last
                && r.start < last.end
            {
                return Err(MergeError::Damaged(format!(
                    "its game ranges overlap or are out of order: {last}, then {r}"
                )));
            }
            total += r.len();
            end_of_last = Some(*r);
        }
        if total != self.games {
            return Err(MergeError::Damaged(format!(
                "its game ranges hold {total} games but it counts {} games",
                self.games
            )));
        }
        Ok(ranges)
    }

    /// The games of the run this report does not hold (none when complete).
    pub fn missing_games(&self) -> Vec<GameRange> {
        GameRange::missing(&self.ranges().unwrap_or_default(), self.run_games)
    }

    /// Every field that says which run this report belongs to: what was
    /// played on (names and digests), by whom (with a player file's numbers),
    /// and which games.
    pub fn identity(&self) -> Identity {
        let mut fields: Identity = [
            ("variant", self.variant.clone()),
            ("variant_digest", self.played_on.variant_digest.clone()),
            ("scenario", self.played_on.scenario.clone()),
            ("scenario_digest", self.played_on.scenario_digest.clone()),
            ("caesar_ai", player_kind(&self.caesar_ai)),
            ("pompey_ai", player_kind(&self.pompey_ai)),
            ("omniscient", self.omniscient.to_string()),
            ("seed", self.seed.to_string()),
            ("run_games", self.run_games.to_string()),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect();
        for (side, file) in ["caesar", "pompey"].iter().zip(&self.player_files) {
            match file {
                None => fields.push((format!("player_files.{side}"), "none".to_string())),
                Some(params) => {
                    fields.push((format!("player_files.{side}"), "a player file".to_string()));
                    let names = crate::ai::HeuristicParams::NAMES.iter();
                    fields.extend(names.zip(params.values()).map(|(name, value)| {
                        (format!("player_files.{side}.{name}"), value.to_string())
                    }));
                }
            }
        }
        for (side, file) in ["caesar", "pompey"].iter().zip(&self.value_files) {
            let digest = match file {
                None => "none".to_string(),
                Some(model) => crate::scenario::format::digest_text(&model.to_ron("")),
            };
            fields.push((format!("value_files.{side}"), digest));
        }
        fields
    }

    fn run_label(&self) -> String {
        format!(
            "{} {} vs {} seed {} games {}{}",
            self.variant,
            self.caesar_ai,
            self.pompey_ai,
            self.seed,
            self.run_games,
            if self.omniscient { " omniscient" } else { "" }
        )
    }

    /// Whether this report covers every game of its run.
    pub(crate) fn is_complete(&self) -> bool {
        self.games == self.run_games
    }
}

fn pct(e: &Estimate) -> String {
    format!(
        "{:5.1}%  (95% CI {:.1}–{:.1}%)",
        e.estimate * 100.0,
        e.ci95[0] * 100.0,
        e.ci95[1] * 100.0
    )
}

fn quart(s: &Summary) -> String {
    format!(
        "mean {:5.2}  quartiles {}/{}/{}",
        s.mean, s.q1, s.median, s.q3
    )
}

/// What a report that holds only some shards says after its game count:
/// " (shards 1,3 of a 400-game run)"; nothing when it is whole.
pub(crate) fn shards_note(whole: bool, shards: &[String], of: impl fmt::Display) -> String {
    if whole {
        String::new()
    } else {
        format!(" (shards {} of {of})", shards.join(","))
    }
}

impl SimReport {
    /// The run, its win rates and its balance.
    fn write_header(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} — Caesar: {}, Pompey: {}{} — {} games, seed {}{}",
            self.variant,
            self.caesar_ai,
            self.pompey_ai,
            if self.omniscient { " (omniscient)" } else { "" },
            self.games,
            self.seed,
            shards_note(
                self.is_complete(),
                &self.shards,
                format_args!("a {}-game run", self.run_games)
            )
        )?;
        writeln!(f, "  Caesar wins   {}", pct(&self.caesar_win_rate))?;
        writeln!(f, "  Pompey wins   {}", pct(&self.pompey_win_rate))?;
        writeln!(f, "  Draws         {}", pct(&self.draw_rate))?;
        writeln!(f, "  Balance |P(Caesar) − P(Pompey)| = {:.3}", self.balance)?;
        Ok(())
    }

    /// How games end, and the VP year by year.
    fn write_endings(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "How games end")?;
        for (y, c) in self.endings.sudden_death_by_year.iter().enumerate() {
            if c.caesar + c.pompey > 0 {
                writeln!(
                    f,
                    "  sudden death after year {}: Caesar {}, Pompey {}",
                    y + 1,
                    c.caesar,
                    c.pompey
                )?;
            }
        }
        let e = &self.endings;
        writeln!(
            f,
            "  on VP after the last year: Caesar {}, Pompey {}",
            e.on_vp_after_last_year.caesar, e.on_vp_after_last_year.pompey
        )?;
        writeln!(
            f,
            "  Rome tie-break: Caesar {}, Pompey {}; draws {}",
            e.rome_tie_break.caesar, e.rome_tie_break.pompey, e.draws
        )?;
        writeln!(f, "VP after each year (games reaching it)")?;
        for y in &self.vp_by_year {
            writeln!(
                f,
                "  year {} ({:>6}): Caesar {}   Pompey {}",
                y.year,
                y.games,
                quart(&y.caesar),
                quart(&y.pompey)
            )?;
        }
        writeln!(
            f,
            "  final VP margin {}; decided by 3+ VP: {:.1}%",
            quart(&self.vp_margin),
            self.decisive_share * 100.0
        )?;
        writeln!(
            f,
            "  VP lead changes per game {}; games with a change: {:.1}%",
            quart(&self.lead_changes),
            self.games_with_lead_change * 100.0
        )?;
        Ok(())
    }

    /// Years, battles and losses per game: the [`GAME_COUNTS`] the text
    /// shows, from the counts behind the report's figures, one line per
    /// label.
    fn write_per_game(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Per game")?;
        // A count the run's reports were written before has no figures.
        let counted =
            |count: &GameCount| self.raw.games == 0 || (count.histogram)(&self.raw).total() > 0;
        let shown: Vec<(&GameCount, Shown)> = GAME_COUNTS
            .iter()
            .filter(|count| counted(count))
            .filter_map(|count| Some((count, count.shown?)))
            .collect();
        for line in shown.chunk_by(|(_, a), (_, b)| a.label() == b.label()) {
            let figures: Vec<String> = line
                .iter()
                .map(|(count, shown)| {
                    shown.text(count.side, &(count.histogram)(&self.raw).summary())
                })
                .collect();
            writeln!(f, "  {:<16} {}", line[0].1.label(), figures.join("   "))?;
        }
        Ok(())
    }

    /// Move and levy points spent, wasted and left unused, and the rest of
    /// [`QUALITY_COUNTS`].
    fn write_play_quality(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let heading: String = QUALITY_COUNTS.iter().map(|count| count.words).collect();
        writeln!(f, "Play quality per game: {heading}")?;
        for (name, q) in [
            ("Caesar", &self.play_quality.caesar),
            ("Pompey", &self.play_quality.pompey),
        ] {
            let line: String = QUALITY_COUNTS.iter().map(|count| (count.text)(q)).collect();
            writeln!(f, "  {name:<7} {line}")?;
        }
        Ok(())
    }

    /// Event cards and the first-turn Player 1.
    fn write_events(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Event cards: played per game; each side's win rate in games it played the card (vs overall)"
        )?;
        // A side that never played the card has no win rate to show.
        let effect = |e: &EventEffect| {
            if e.played_in > 0.0 {
                format!(
                    "{:5.1}% ({:+5.1})",
                    e.win_rate_when_played.estimate * 100.0,
                    e.win_rate_difference * 100.0
                )
            } else {
                format!("{:<15}", "never played")
            }
        };
        for e in &self.events {
            let line = format!(
                "  {:<8} {:4.2}   Caesar {}   Pompey {}",
                e.card,
                e.per_game,
                effect(&e.caesar),
                effect(&e.pompey),
            );
            writeln!(f, "{}", line.trim_end())?;
        }
        writeln!(
            f,
            "  turns cancelled by two events {:.2}",
            self.events_cancelled_per_game
        )?;
        writeln!(
            f,
            "  Caesar is Player 1 on the first turn in {:.1}% of games",
            self.first_turn_player1_caesar * 100.0
        )?;
        Ok(())
    }

    /// Where games are decided: the top spaces by battles, losses and sudden deaths.
    fn write_spaces(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.spaces.is_empty() {
            return Ok(());
        }
        writeln!(
            f,
            "Where the game is decided (every space in --json and --spaces-csv)"
        )?;
        let mut by_battles: Vec<&crate::sim::runs::heatmap::SpaceFigures> =
            self.spaces.iter().collect();
        by_battles.sort_by_key(|s| std::cmp::Reverse(s.battles));
        let top: Vec<String> = by_battles
            .iter()
            .take(5)
            .filter(|s| s.battles > 0)
            .map(|s| {
                format!(
                    "{} {:.2} (Caesar won {}, Pompey {})",
                    s.space, s.battles_per_game, s.battles_won_caesar, s.battles_won_pompey
                )
            })
            .collect();
        writeln!(f, "  battles per game: {}", top.join("; "))?;
        let mut by_loss: Vec<&crate::sim::runs::heatmap::SpaceFigures> =
            self.spaces.iter().collect();
        by_loss.sort_by_key(|s| std::cmp::Reverse(s.steps_lost_caesar + s.steps_lost_pompey));
        let top: Vec<String> = by_loss
            .iter()
            .take(5)
            .filter(|s| s.steps_lost_caesar + s.steps_lost_pompey > 0)
            .map(|s| {
                format!(
                    "{} {}/{}",
                    s.space, s.steps_lost_caesar, s.steps_lost_pompey
                )
            })
            .collect();
        writeln!(f, "  steps lost (Caesar/Pompey): {}", top.join("; "))?;
        let mut decisive: Vec<&crate::sim::runs::heatmap::SpaceFigures> = self
            .spaces
            .iter()
            .filter(|s| s.sudden_death_decisive > 0)
            .collect();
        decisive.sort_by_key(|s| std::cmp::Reverse(s.sudden_death_decisive));
        let top: Vec<String> = decisive
            .iter()
            .take(5)
            .map(|s| format!("{} {}", s.space, s.sudden_death_decisive))
            .collect();
        writeln!(
            f,
            "  cities lost in the year of a sudden death: {}",
            if top.is_empty() {
                "none".to_string()
            } else {
                top.join("; ")
            }
        )?;
        Ok(())
    }
}

impl fmt::Display for SimReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_header(f)?;
        self.write_endings(f)?;
        self.write_per_game(f)?;
        self.write_play_quality(f)?;
        self.write_events(f)?;
        self.write_spaces(f)?;
        write!(
            f,
            "Throughput: {:.0} games/s ({:.2} s, {:.0} decisions per game)",
            self.games_per_second, self.elapsed_seconds, self.actions_per_game
        )
    }
}

/// Paired counts for two variants played over the same seeds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PairedAccumulator {
    pub pairs: u64,
    /// Caesar won under A but not under B, and the reverse.
    pub caesar_only_a: u64,
    pub caesar_only_b: u64,
    pub pompey_only_a: u64,
    pub pompey_only_b: u64,
    /// Σ and Σ² of per-pair differences (A − B) of integer metrics.
    pub metrics: Vec<PairedSums>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PairedSums {
    pub name: String,
    pub sum: i64,
    pub sum_sq: u64,
}

/// A metric compared pair by pair: its name in reports, and its value in a game.
type PairedMetric = (&'static str, fn(&GameSummary) -> i64);

/// The metrics compared pair by pair, each name beside what it measures.
pub(crate) const PAIRED_METRICS: [PairedMetric; 8] = [
    ("caesar_final_vp", |r| i64::from(r.vp[0])),
    ("pompey_final_vp", |r| i64::from(r.vp[1])),
    ("years_played", |r| i64::from(r.year)),
    ("battles", |r| i64::from(r.stats.battles)),
    ("caesar_steps_lost", |r| i64::from(r.stats.steps_lost[0])),
    ("pompey_steps_lost", |r| i64::from(r.stats.steps_lost[1])),
    ("leaders_killed", |r| {
        i64::from(r.stats.leaders_killed[0]) + i64::from(r.stats.leaders_killed[1])
    }),
    ("first_turn_player1_caesar", |r| {
        i64::from(r.stats.first_turn_player1 == Some(Side::Caesar))
    }),
];

impl PairedAccumulator {
    pub fn add(&mut self, a: &GameSummary, b: &GameSummary) {
        self.pairs += 1;
        let won = |r: &GameSummary, s| r.winner == Some(s);
        match (won(a, Side::Caesar), won(b, Side::Caesar)) {
            (true, false) => self.caesar_only_a += 1,
            (false, true) => self.caesar_only_b += 1,
            _ => {}
        }
        match (won(a, Side::Pompey), won(b, Side::Pompey)) {
            (true, false) => self.pompey_only_a += 1,
            (false, true) => self.pompey_only_b += 1,
            _ => {}
        }
        if self.metrics.is_empty() {
            self.metrics = PAIRED_METRICS
                .iter()
                .map(|(name, _)| PairedSums {
                    name: name.to_string(),
                    ..PairedSums::default()
                })
                .collect();
        }
        for (slot, (_, metric)) in self.metrics.iter_mut().zip(&PAIRED_METRICS) {
            let d = metric(a) - metric(b);
            slot.sum += d;
            slot.sum_sq += (d * d) as u64;
        }
    }

    /// Adds another shard's pairs. Fails when a sum would overflow.
    pub fn merge(&mut self, o: &PairedAccumulator) -> Result<(), MergeError> {
        add_to(&mut self.pairs, o.pairs)?;
        add_to(&mut self.caesar_only_a, o.caesar_only_a)?;
        add_to(&mut self.caesar_only_b, o.caesar_only_b)?;
        add_to(&mut self.pompey_only_a, o.pompey_only_a)?;
        add_to(&mut self.pompey_only_b, o.pompey_only_b)?;
        if self.metrics.is_empty() {
            self.metrics = o.metrics.clone();
        } else {
            for (a, b) in self.metrics.iter_mut().zip(&o.metrics) {
                a.sum = a
                    .sum
                    .checked_add(b.sum)
                    .ok_or(MergeError::Overflow("paired sums"))?;
                add_to(&mut a.sum_sq, b.sum_sq)?;
            }
        }
        Ok(())
    }

    /// Checks the pairs of a comparison whose runs hold `games` games, of
    /// which Caesar won `caesar_wins` and Pompey `pompey_wins` ([A, B]).
    fn check(
        &self,
        games: u64,
        caesar_wins: [u64; 2],
        pompey_wins: [u64; 2],
    ) -> Result<(), MergeError> {
        if self.pairs != games {
            return Err(MergeError::Damaged(format!(
                "raw_paired.pairs is {} but the runs hold {games} games",
                self.pairs
            )));
        }
        for (side, only, wins) in [
            (
                "caesar",
                [self.caesar_only_a, self.caesar_only_b],
                caesar_wins,
            ),
            (
                "pompey",
                [self.pompey_only_a, self.pompey_only_b],
                pompey_wins,
            ),
        ] {
            if only[0] > wins[0] || only[1] > wins[1] || checked_sum(only).is_none_or(|n| n > games)
            {
                return Err(MergeError::Damaged(format!(
                    "raw_paired: {side}_only_a ({}) and {side}_only_b ({}) do not fit the wins ({} and {}) of {games} games",
                    only[0], only[1], wins[0], wins[1]
                )));
            }
        }
        let names: Vec<&str> = self.metrics.iter().map(|m| m.name.as_str()).collect();
        let expected: Vec<&str> = PAIRED_METRICS.iter().map(|(name, _)| *name).collect();
        if names != expected {
            return Err(MergeError::Damaged(format!(
                "raw_paired.metrics are {names:?}, not {expected:?}"
            )));
        }
        if let Some(m) = self
            .metrics
            .iter()
            .find(|m| m.sum_sq < m.sum.unsigned_abs())
        {
            return Err(MergeError::Damaged(format!(
                "raw_paired: the squares of {} sum to less than the differences",
                m.name
            )));
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricDifference {
    pub metric: String,
    pub difference: PairedDifference,
}

/// Two variants over the same seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    pub a: SimReport,
    pub b: SimReport,
    /// P(Caesar wins | A) − P(Caesar wins | B), paired over the seeds
    /// (McNemar test; Wald interval of the paired difference).
    pub caesar_win_rate_difference: PairedDifference,
    pub pompey_win_rate_difference: PairedDifference,
    /// The same difference treated as two independent samples, for reference.
    pub caesar_win_rate_difference_unpaired: PairedDifference,
    /// A − B in the mean of other metrics, paired.
    pub metric_differences: Vec<MetricDifference>,
    pub raw_paired: PairedAccumulator,
}

impl CompareReport {
    pub fn new(
        variants: [&str; 2],
        options: &SimOptions,
        a: crate::sim::runs::report::Accumulator,
        b: crate::sim::runs::report::Accumulator,
        paired: PairedAccumulator,
    ) -> CompareReport {
        let a = SimReport::new(variants[0], options, a);
        let b = SimReport::new(variants[1], options, b);
        CompareReport::from_parts(a, b, paired)
    }

    fn from_parts(a: SimReport, b: SimReport, paired: PairedAccumulator) -> CompareReport {
        let n = paired.pairs;
        CompareReport {
            caesar_win_rate_difference: paired_proportion_test(
                paired.caesar_only_a,
                paired.caesar_only_b,
                n,
            ),
            pompey_win_rate_difference: paired_proportion_test(
                paired.pompey_only_a,
                paired.pompey_only_b,
                n,
            ),
            caesar_win_rate_difference_unpaired: two_proportion_test(
                a.caesar_wins,
                a.games,
                b.caesar_wins,
                b.games,
            ),
            metric_differences: paired
                .metrics
                .iter()
                .map(|m| MetricDifference {
                    metric: m.name.clone(),
                    difference: paired_mean_difference(m.sum as f64, m.sum_sq as f64, n),
                })
                .collect(),
            a,
            b,
            raw_paired: paired,
        }
    }
}

impl Merge for CompareReport {
    /// Combines shard reports of one comparison, each with a label (its
    /// file name) for the errors, with the checks of [`SimReport::merge_labelled`].
    fn merge_labelled(reports: &[(&str, &CompareReport)]) -> Result<CompareReport, MergeError> {
        let mut paired = PairedAccumulator::default();
        for &(label, r) in reports {
            r.check().map_err(|e| e.in_report(label))?;
            paired
                .merge(&r.raw_paired)
                .map_err(|e| e.in_report(label))?;
        }
        let a = merge_picked(reports, |r| &r.a).map_err(|e| e.in_report("A"))?;
        let b = merge_picked(reports, |r| &r.b).map_err(|e| e.in_report("B"))?;
        Ok(CompareReport::from_parts(a, b, paired))
    }
}

impl CompareReport {
    /// Checks a comparison as read from a file: both runs as
    /// [`SimReport::check`] does, the same games and players in both, and
    /// pairs that fit their wins.
    pub fn check(&self) -> Result<(), MergeError> {
        self.a.check().map_err(|e| e.in_report("run A"))?;
        self.b.check().map_err(|e| e.in_report("run B"))?;
        let (a, b) = (&self.a, &self.b);
        let same = a.caesar_ai == b.caesar_ai
            && a.pompey_ai == b.pompey_ai
            && a.omniscient == b.omniscient
            && a.seed == b.seed
            && a.run_games == b.run_games
            && a.ranges() == b.ranges();
        if !same {
            return Err(MergeError::Damaged(format!(
                "runs A and B are not played over the same games: {} vs {}",
                a.run_label(),
                b.run_label()
            )));
        }
        self.raw_paired.check(
            a.games,
            [a.caesar_wins, b.caesar_wins],
            [a.pompey_wins, b.pompey_wins],
        )
    }
}

fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p = {p:.3}")
    }
}

fn signed(d: &PairedDifference, scale: f64, unit: &str) -> String {
    format!(
        "{:+.2}{unit} (95% CI {:+.2} to {:+.2}{unit}, {}{})",
        d.estimate * scale,
        d.ci95[0] * scale,
        d.ci95[1] * scale,
        p_text(d.p_value),
        if d.significant {
            ""
        } else {
            ", not significant"
        }
    )
}

impl fmt::Display for CompareReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "A: {}", self.a)?;
        writeln!(f)?;
        writeln!(f, "B: {}", self.b)?;
        writeln!(f)?;
        writeln!(
            f,
            "A − B over the same {} seeds (paired):",
            self.raw_paired.pairs
        )?;
        writeln!(
            f,
            "  Caesar's win rate {}",
            signed(&self.caesar_win_rate_difference, 100.0, " pts")
        )?;
        writeln!(
            f,
            "  Pompey's win rate {}",
            signed(&self.pompey_win_rate_difference, 100.0, " pts")
        )?;
        for m in &self.metric_differences {
            writeln!(f, "  {:<26}{}", m.metric, signed(&m.difference, 1.0, ""))?;
        }
        if !self.caesar_win_rate_difference.significant {
            write!(
                f,
                "The difference in Caesar's win rate is not significant at the 5% level."
            )
        } else {
            write!(
                f,
                "The difference in Caesar's win rate is significant at the 5% level."
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_changes_ignore_ties() {
        assert_eq!(lead_changes(&[[5, 3], [4, 4], [6, 3]]), 0);
        assert_eq!(lead_changes(&[[5, 3], [3, 5], [6, 3]]), 2);
        assert_eq!(lead_changes(&[]), 0);
    }

    /// The fields of `value`'s JSON object that are zero.
    fn zero_fields(value: &impl Serialize) -> Vec<String> {
        let json = serde_json::to_value(value).unwrap();
        let object = json.as_object().expect("an object");
        object
            .iter()
            .filter(|(_, v)| v.as_f64() == Some(0.0) || **v == serde_json::json!([0, 0]))
            .map(|(k, _)| k.clone())
            .collect()
    }

    /// Every field of `QualitySums` is one count's sums, and every field of
    /// `SideQuality` one count's figure, made once: the list misses none.
    #[test]
    fn quality_counts_make_every_sum_and_figure_once() {
        let mut sums = QualitySums::default();
        for (k, count) in QUALITY_COUNTS.iter().enumerate() {
            let sums = (count.sums_mut)(&mut sums);
            assert_eq!(*sums, [0, 0], "two counts share a sum");
            *sums = [k as u64 + 1; 2];
        }
        assert_eq!(zero_fields(&sums), Vec::<String>::new());
        let side = sums.side(0, 1);
        assert_eq!(zero_fields(&side), Vec::<String>::new());
        let figures: usize = QUALITY_COUNTS.iter().map(|c| c.figures.len()).sum();
        let json = serde_json::to_value(side).unwrap();
        assert_eq!(figures, json.as_object().unwrap().len());
    }

    /// The text's "Per game" lines: a label's counts stand together, one
    /// count of no side or Caesar's then Pompey's.
    #[test]
    fn per_game_lines_show_one_count_or_both_sides() {
        let shown: Vec<(&GameCount, Shown)> = GAME_COUNTS
            .iter()
            .filter_map(|count| Some((count, count.shown?)))
            .collect();
        let mut labels = Vec::new();
        for line in shown.chunk_by(|(_, a), (_, b)| a.label() == b.label()) {
            let label = line[0].1.label();
            assert!(!labels.contains(&label), "{label} is on two lines");
            labels.push(label);
            let sides: Vec<Option<Side>> = line.iter().map(|(count, _)| count.side).collect();
            assert!(
                sides == [None] || sides == [Some(Side::Caesar), Some(Side::Pompey)],
                "{label}: {sides:?}"
            );
        }
    }

    use crate::ai::AiSpec;

    /// A made-up game: Caesar wins the even ones on VP, Pompey the odd ones
    /// by sudden death in year 2.
    fn record(index: u64) -> GameSummary {
        let caesar = index.is_multiple_of(2);
        GameSummary {
            index,
            seed: index,
            winner: Some(if caesar { Side::Caesar } else { Side::Pompey }),
            how: if caesar {
                EndReason::VictoryPoints
            } else {
                EndReason::SuddenDeath
            },
            year: if caesar { 5 } else { 2 },
            vp: if caesar { [7, 5] } else { [2, 10] },
            events_by_side: [[1, 0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 1, 0]],
            stats: crate::engine::GameStats {
                vp_by_year: vec![[3, 3], [4, 5]],
                battles: (index % 5) as u32,
                steps_lost: [3, 4],
                blocks_eliminated: [1, 2],
                leaders_killed: [0, index.is_multiple_of(3) as u32],
                events_played: [1, 0, 2, 0, 0, 1, 0],
                events_cancelled: 0,
                first_turn_player1: Some(Side::Caesar),
                actions: 300,
                quality: crate::engine::PlayQuality {
                    mp_spent: [40, 41],
                    mp_wasted: [index as u32 % 2, 0],
                    ..Default::default()
                },
                ..Default::default()
            },
            map: Default::default(),
        }
    }

    fn options(games: u64, shard: Option<&str>) -> SimOptions {
        SimOptions {
            games,
            seed: 9,
            caesar: AiSpec::Heuristic,
            pompey: AiSpec::Random,
            omniscient: false,
            shard: shard.map(|s| s.parse().unwrap()),
        }
    }

    fn report(games: u64, shard: Option<&str>) -> SimReport {
        let options = options(games, shard);
        let mut acc = Accumulator::new(5);
        for i in options.game_range() {
            acc.add(&record(i));
        }
        SimReport::new("Rules 2.0 (2023)", &options, acc)
    }

    fn timeless(mut r: SimReport) -> SimReport {
        r.elapsed_seconds = 0.0;
        r.games_per_second = 0.0;
        r.raw.elapsed_seconds = 0.0;
        r
    }

    #[test]
    fn a_report_names_its_games() {
        assert_eq!(
            report(40, Some("2/4")).game_ranges,
            vec![GameRange::from(10..20)]
        );
        assert_eq!(report(40, None).game_ranges, vec![GameRange::from(0..40)]);
        assert!(report(40, Some("3/4")).check().is_ok());
    }

    #[test]
    fn shards_searched_with_a_value_file_edited_between_them_are_refused() {
        let shipped = crate::ai::shipped::FOLDER;
        let temp = tempfile::tempdir().unwrap();
        let value = temp.path().join("value.ron");
        let text = crate::ai::shipped::file(std::path::Path::new(&format!(
            "{shipped}/value-rules-2.0.ron"
        )))
        .unwrap()
        .to_string();
        let shard = |part: &str| {
            let mut options = options(40, Some(part));
            let spec = format!(
                "search:4@{shipped}/search-base-rules-2.0.ron+{}",
                value.display()
            );
            options.caesar = spec.parse().unwrap();
            let mut acc = Accumulator::new(5);
            for i in options.game_range() {
                acc.add(&record(i));
            }
            SimReport::new("Rules 2.0 (2023)", &options, acc)
        };
        std::fs::write(&value, &text).unwrap();
        let first = shard("1/2");
        let model = crate::ai::ValueModel::load(&value).unwrap();
        assert_eq!(first.value_files, [Some(model), None]);
        assert!(SimReport::merge(&[first.clone(), shard("2/2")]).is_ok());
        // The same name, other weights: not the same run.
        std::fs::write(
            &value,
            text.replacen("horizon_turns: 5", "horizon_turns: 4", 1),
        )
        .unwrap();
        let err = SimReport::merge(&[first, shard("2/2")])
            .unwrap_err()
            .to_string();
        assert!(err.contains("value_files.caesar"), "{err}");
    }

    #[test]
    fn overlapping_shards_are_refused_with_the_games_they_share() {
        let parts = [
            report(40, Some("1/2")),
            report(40, Some("2/4")),
            report(40, Some("4/4")),
        ];
        let refused = SimReport::merge(&parts).unwrap_err();
        assert!(
            matches!(&refused, MergeError::Overlap { first_label, second_label, .. }
                if first_label == "report 1" && second_label == "report 2"),
            "{refused:?}"
        );
        let err = refused.to_string();
        assert!(err.contains("overlap in games 10–19"), "{err}");
        assert!(err.contains("report 1 (games 0–19)"), "{err}");
        assert!(err.contains("report 2 (games 10–19)"), "{err}");
        let twice = SimReport::merge(&[parts[1].clone(), parts[1].clone()])
            .unwrap_err()
            .to_string();
        assert!(twice.contains("overlap in games 10–19"), "{twice}");
    }

    #[test]
    fn a_merge_with_gaps_says_which_games_are_missing() {
        let parts = [report(40, Some("1/4")), report(40, Some("4/4"))];
        let merged = SimReport::merge(&parts).unwrap();
        assert!(!merged.is_complete());
        assert_eq!(
            merged.game_ranges,
            vec![GameRange::from(0..10), GameRange::from(30..40)]
        );
        assert_eq!(merged.missing_games(), vec![GameRange::from(10..30)]);
        // Filling the gap later gives the whole run.
        let rest = [merged, report(40, Some("2/4")), report(40, Some("3/4"))];
        let whole = SimReport::merge(&rest).unwrap();
        assert!(whole.missing_games().is_empty());
        assert_eq!(whole.game_ranges, vec![GameRange::from(0..40)]);
        assert_eq!(timeless(whole), timeless(report(40, None)));
    }

    #[test]
    fn reports_from_before_game_ranges_get_them_from_their_shards() {
        let mut old = serde_json::to_value(report(40, Some("2/4"))).unwrap();
        old.as_object_mut().unwrap().remove("game_ranges");
        let old: SimReport = serde_json::from_value(old).unwrap();
        assert!(old.game_ranges.is_empty());
        assert_eq!(old.ranges(), Ok(vec![GameRange::from(10..20)]));
        let err = SimReport::merge(&[old, report(40, Some("1/2"))])
            .unwrap_err()
            .to_string();
        assert!(err.contains("overlap in games 10–19"), "{err}");
    }

    /// Issue 53: a report written before a per-game count existed (its raw
    /// lacks the count's field) still reads and merges; the merged count
    /// holds for no game rather than for some, and every other count is
    /// the whole run's.
    #[test]
    fn a_report_from_before_a_count_still_merges() {
        let older = |shard: &str| -> SimReport {
            let mut json = serde_json::to_value(report(40, Some(shard))).unwrap();
            let raw = json["raw"].as_object_mut().unwrap();
            assert!(raw.remove("lead_changes").is_some());
            serde_json::from_value(json).expect("an older report reads")
        };
        let old = older("1/2");
        assert_eq!(old.raw.lead_changes.total(), 0);
        assert!(old.check().is_ok(), "{:?}", old.check());
        let whole = timeless(report(40, None));
        for parts in [
            [old.clone(), report(40, Some("2/2"))],
            [report(40, Some("1/2")), older("2/2")],
            [old, older("2/2")],
        ] {
            let merged = timeless(SimReport::merge(&parts).expect("merges"));
            assert_eq!(merged.raw.lead_changes.total(), 0, "uncounted");
            let mut expected = whole.raw.clone();
            expected.lead_changes = Histogram::default();
            assert_eq!(merged.raw, expected);
            assert_eq!(merged.battles_per_game, whole.battles_per_game);
        }
    }

    #[test]
    fn hand_edited_counts_are_refused() {
        type Edit = fn(&mut SimReport);
        let edits: [(&str, Edit); 9] = [
            ("do not add up", |r| {
                r.caesar_wins += 50;
                r.raw.caesar_wins += 50;
            }),
            ("raw counts say", |r| r.caesar_wins = 35),
            ("raw.games", |r| r.raw.games = 3),
            ("more than its run's", |r| r.run_games = 5),
            ("played Apollo in 10 games and won 11", |r| {
                r.raw.event_wins[0][0] = 11;
            }),
            ("raw.battles counts", |r| r.raw.battles.counts[0] += 1),
            ("out of range", |r| {
                r.raw.final_vp[0].counts = vec![0; 3].into_iter().chain([u64::MAX]).collect()
            }),
            ("outside the run", |r| {
                r.game_ranges = vec![GameRange::from(35..45)]
            }),
            ("hold 5 games", |r| {
                r.game_ranges = vec![GameRange::from(10..15)]
            }),
        ];
        for (expected, edit) in edits {
            let mut r = report(40, Some("2/4"));
            edit(&mut r);
            let err = r.check().expect_err(expected).to_string();
            assert!(err.contains(expected), "{expected}: {err}");
            let err = SimReport::merge(&[report(40, Some("1/4")), r])
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("report 2: "), "{err}");
        }
    }

    #[test]
    fn merged_sums_that_overflow_are_refused_not_wrapped() {
        let mut a = report(40, Some("1/2"));
        let mut b = report(40, Some("2/2"));
        a.raw.actions = u64::MAX - 1;
        b.raw.actions = 2;
        let err = SimReport::merge(&[a, b]).unwrap_err().to_string();
        assert!(err.contains("overflow"), "{err}");
    }

    fn comparison(shard: Option<&str>) -> CompareReport {
        let options = options(40, shard);
        let (mut a, mut b) = (Accumulator::new(5), Accumulator::new(5));
        let mut paired = PairedAccumulator::default();
        for i in options.game_range() {
            let (x, y) = (record(i), record(i + 1));
            a.add(&x);
            b.add(&y);
            paired.add(&x, &y);
        }
        CompareReport::new(["A", "B"], &options, a, b, paired)
    }

    #[test]
    fn comparisons_get_the_same_checks() {
        let parts = [comparison(Some("1/2")), comparison(Some("2/4"))];
        let err = CompareReport::merge(&parts).unwrap_err().to_string();
        assert!(err.contains("overlap in games 10–19"), "{err}");
        let mut edited = comparison(Some("2/2"));
        edited.raw_paired.pairs = 400;
        let err = CompareReport::merge(&[comparison(Some("1/2")), edited])
            .unwrap_err()
            .to_string();
        assert!(err.contains("report 2: raw_paired.pairs"), "{err}");
        let mut edited = comparison(Some("2/2"));
        edited.b.seed = 3;
        assert!(
            edited
                .check()
                .unwrap_err()
                .to_string()
                .contains("same games")
        );
        let whole =
            CompareReport::merge(&[comparison(Some("2/2")), comparison(Some("1/2"))]).unwrap();
        let single = comparison(None);
        assert_eq!(whole.raw_paired, single.raw_paired);
        assert_eq!(timeless(whole.a), timeless(single.a));
    }
}
