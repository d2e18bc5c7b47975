//! A rule-based player: cheap, fast priorities rather than search.
//!
//! Each decision scores the legal actions with a picture of the board
//! ([`Picture`]): its own half counted at every decision, its enemy half
//! kept while the enemy blocks it was counted from stay as they were. The
//! picture respects fog of war: enemy blocks count only as numbers per
//! location (with an assumed average strength), except in a battle being
//! fought (revealed, 7.0) or when the player is omniscient.

use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{HeuristicParams, Player, default_hit_victim_seen, hit_candidates};
use crate::engine::{Action, Forces, Game, SideView};
use crate::scenario::model::{BlockId, CardFace, SpaceId};
use crate::scenario::model::{BlockKind, Event, LinkClass, Side, SpaceKind};

const FAR: u8 = u8::MAX;

/// How boldly the player moves: the knobs a search may turn for one game
/// turn ([`HeuristicPlayer::set_turn_style`]) while the priorities stay put.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Attack when our strength is at least this multiple of the defender's.
    pub attack_ratio: f32,
    /// Scales the garrison kept in threatened friendly VP cities.
    pub garrison: f32,
}

impl Style {
    pub(crate) const STEADY: Style = Style {
        attack_ratio: 1.25,
        garrison: 1.0,
    };
    pub(crate) const BOLD: Style = Style {
        attack_ratio: 0.9,
        garrison: 0.5,
    };
    pub(crate) const CAUTIOUS: Style = Style {
        attack_ratio: 1.8,
        garrison: 1.6,
    };
    pub const ALL: [Style; 3] = [Style::STEADY, Style::BOLD, Style::CAUTIOUS];

    /// The styles a search weighs for a player whose own numbers are
    /// `own`: its own, bolder and more cautious, in the proportions of the
    /// default player's (a fitted player attacks at 2.8, not 1.25: the
    /// default's absolute "bold" would undo its fit).
    pub(crate) fn around(own: Style) -> [Style; 3] {
        if own == Style::STEADY {
            return Style::ALL;
        }
        Style::ALL.map(|s| Style {
            attack_ratio: own.attack_ratio * s.attack_ratio / Style::STEADY.attack_ratio,
            garrison: own.garrison * s.garrison / Style::STEADY.garrison,
        })
    }
}

pub struct HeuristicPlayer {
    side: Side,
    omniscient: bool,
    rng: ChaCha8Rng,
    /// The current group move's objective.
    target: Option<Objective>,
    /// Steps taken in the current group.
    group_steps: u8,
    /// Locations whose group found nothing useful to do this command phase,
    /// stamped with (year, turn).
    idle_groups: Vec<SpaceId>,
    idle_stamp: (u8, u8),
    current_group: Option<SpaceId>,
    /// Reused between decisions so that each one does not allocate it anew
    /// (boxed: taken out and put back at every decision).
    picture: Option<Box<Picture>>,
    /// A style for one game turn, (year, turn), set by a search.
    turn_style: Option<(Style, (u8, u8))>,
    /// The style of the decision being made.
    style: Style,
    /// Buffers reused from one group decision to the next.
    scratch: GroupScratch,
    /// The numbers it decides by.
    params: HeuristicParams,
    /// Never walks the last block out of a VP city it holds unless into an
    /// attack (a search's holding rule, issue 44; off for the heuristic).
    hold_vp_cities: bool,
}

#[derive(Default)]
struct GroupScratch {
    targets: Targets,
    candidates: Vec<(f32, Action, Option<Objective>)>,
    after: Vec<Action>,
}

/// The legal steps, each with its block, where the block stands and where it
/// would go.
fn steps_from<'a>(
    view: &'a SideView<'a>,
    legal: &'a [Action],
) -> impl Iterator<Item = (Action, BlockId, SpaceId, SpaceId)> + 'a {
    legal.iter().filter_map(move |&a| match a {
        Action::Step { block, to } => Some((a, block, view.own_location(block)?, to)),
        _ => None,
    })
}

/// The kinds of action a decision offers, found in one pass over the legal
/// actions instead of one scan per question.
#[derive(Clone, Copy)]
struct Kinds(u32);

impl Kinds {
    const FIRE: u32 = 1;
    const RETREAT: u32 = 1 << 1;
    const PASS: u32 = 1 << 2;
    const STEP: u32 = 1 << 3;
    const END_GROUP: u32 = 1 << 4;
    const GROUP: u32 = 1 << 5;
    const SEA_MOVE: u32 = 1 << 6;
    const END_MOVES: u32 = 1 << 7;
    const LEVY: u32 = 1 << 8;
    const ADD_STEP: u32 = 1 << 9;
    const END_LEVY: u32 = 1 << 10;
    const JUPITER: u32 = 1 << 11;
    const VULCAN: u32 = 1 << 12;
    const PASS_EVENT: u32 = 1 << 13;
    const REGROUP: u32 = 1 << 14;
    const NAVIS_TO_PORT: u32 = 1 << 15;
    const DISBAND: u32 = 1 << 16;
    const END_WINTER: u32 = 1 << 17;

    fn of(legal: &[Action]) -> Kinds {
        Kinds(legal.iter().fold(0, |kinds, a| {
            kinds
                | match a {
                    Action::Fire => Kinds::FIRE,
                    Action::Retreat(_) => Kinds::RETREAT,
                    Action::Pass => Kinds::PASS,
                    Action::Step { .. } => Kinds::STEP,
                    Action::EndGroup => Kinds::END_GROUP,
                    Action::Group(_) => Kinds::GROUP,
                    Action::SeaMove { .. } => Kinds::SEA_MOVE,
                    Action::EndMoves => Kinds::END_MOVES,
                    Action::Levy { .. } => Kinds::LEVY,
                    Action::AddStep(_) => Kinds::ADD_STEP,
                    Action::EndLevy => Kinds::END_LEVY,
                    Action::JupiterAt(_) => Kinds::JUPITER,
                    Action::VulcanCity(_) => Kinds::VULCAN,
                    Action::PassEvent => Kinds::PASS_EVENT,
                    Action::Regroup { .. } => Kinds::REGROUP,
                    Action::NavisToPort { .. } => Kinds::NAVIS_TO_PORT,
                    Action::Disband(_) => Kinds::DISBAND,
                    Action::EndWinter => Kinds::END_WINTER,
                    _ => 0,
                }
        }))
    }

    /// Whether any of `kinds` is offered.
    fn any(self, kinds: u32) -> bool {
        self.0 & kinds != 0
    }
}

/// `v` as `n` zeros, without reallocating when it has the length already.
fn zeroed<T: Copy + Default>(v: &mut Vec<T>, n: usize) {
    if v.len() == n {
        v.fill(T::default());
    } else {
        v.clear();
        v.resize(n, T::default());
    }
}

/// An own block's strength: a side always knows its own blocks.
fn own_strength(game: &Game, view: &SideView<'_>, b: BlockId) -> f32 {
    f32::from(
        view.own_strength(game, b)
            .expect("a side knows its own blocks"),
    )
}

fn own_steps(game: &Game, view: &SideView<'_>, b: BlockId) -> u8 {
    view.block(game, b)
        .expect("a side knows its own blocks")
        .steps
}

/// A decision the heuristic weighs with its picture of the board: the
/// game, what its side sees, the picture, and the legal actions.
struct Decision<'a> {
    game: &'a Game,
    view: &'a SideView<'a>,
    p: &'a Picture,
    legal: &'a [Action],
}

/// Where the current group is going, and who goes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Objective {
    /// The land blocks, by road.
    Land(SpaceId),
    /// The navis, by sea (6.2): to take a vacant sea or attack an enemy one.
    Sea(SpaceId),
}

impl Picture {
    fn own_str(&self, i: usize) -> f32 {
        f32::from(self.own[i].strength)
    }
    fn own_cnt(&self, i: usize) -> u8 {
        self.own[i].blocks
    }
    fn navis_str(&self, i: usize) -> f32 {
        f32::from(self.own[i].navis_strength)
    }
    fn navis_cnt(&self, i: usize) -> u8 {
        self.own[i].navis
    }
    /// 4.21: only own blocks there.
    fn friendly(&self, s: SpaceId) -> bool {
        self.own_cnt(s.index()) > 0 && self.enemy_cnt[s.index()] == 0
    }
    fn vacant(&self, s: SpaceId) -> bool {
        self.own_cnt(s.index()) == 0 && self.enemy_cnt[s.index()] == 0
    }
}

/// Every space's value to a group, by space id, and the highest cap among
/// those worth going to: a target's cap is the most any group may score
/// for it (its value times the largest factor a plan applies, at least 1,
/// at a distance of one). Kept between the group decisions of a command
/// phase: a land space's value reads the picture at that space (own and
/// enemy) and the enemy next door, so while the enemy half of the picture
/// and the style stay, only the spaces whose own blocks changed are valued
/// again.
#[derive(Default)]
struct Targets {
    by_space: Vec<Target>,
    max_cap: f32,
    /// The own blocks, the enemy picture's epoch and the attack ratio the
    /// values were taken with.
    own: Vec<Forces>,
    key: Option<(u64, u32)>,
}

/// A space's value to a group, as a group's plan reads it.
#[derive(Clone, Copy)]
struct Target {
    /// Worth going to (a value above 0).
    worth: bool,
    space: SpaceId,
    /// 0 for a sea (worth nothing to a land group).
    value: f32,
    enemy: bool,
    enemy_str: f32,
    own_str: f32,
    threat: f32,
}

/// What the player sees of the board at one decision.
#[derive(Default)]
struct Picture {
    /// Own blocks per space, as the state keeps them.
    own: Vec<Forces>,
    enemy_str: Vec<f32>,
    enemy_cnt: Vec<u8>,
    /// Enemy strength that could reach each space (itself and road neighbours).
    threat: Vec<f32>,
    /// The enemy blocks on the map as last seen (where, and the strength if
    /// known, in id order) and the unseen strength assumed then: the enemy
    /// half of the picture is a function of these, kept while they stay.
    enemies: Vec<(SpaceId, Option<u8>)>,
    seen: Vec<(SpaceId, Option<u8>)>,
    /// The state's stamp for the enemy blocks when `enemies` was last
    /// compared with them, if none of their strengths could be known.
    enemies_stamp: Option<u64>,
    unseen_strength: f32,
    /// Changes whenever the enemy half is computed again.
    enemy_epoch: u64,
}

impl HeuristicPlayer {
    pub fn new(side: Side, seed: u64, omniscient: bool) -> HeuristicPlayer {
        HeuristicPlayer {
            side,
            omniscient,
            rng: ChaCha8Rng::seed_from_u64(seed),
            target: None,
            group_steps: 0,
            idle_groups: Vec::new(),
            idle_stamp: (0, 0),
            current_group: None,
            picture: None,
            turn_style: None,
            style: Style::STEADY,
            scratch: GroupScratch::default(),
            params: HeuristicParams::default(),
            hold_vp_cities: false,
        }
    }

    /// A player deciding by `params` instead of the defaults.
    pub(crate) fn with_params(mut self, params: HeuristicParams) -> HeuristicPlayer {
        self.params = params;
        self
    }

    /// The style of a game turn no search chose: the parameters' own.
    pub(crate) fn own_style(&self) -> Style {
        Style {
            attack_ratio: self.params.attack_ratio,
            garrison: self.params.garrison,
        }
    }

    /// Plays `style` for the rest of game turn `turn` of year `year`, then
    /// goes back to its own (its parameters').
    pub(crate) fn set_turn_style(&mut self, style: Style, year: u8, turn: u8) {
        self.turn_style = Some((style, (year, turn)));
    }

    fn dist(&self, game: &Game, a: SpaceId, b: SpaceId) -> u8 {
        game.board().road_distance(a, b).unwrap_or(FAR)
    }

    fn fill_picture(&self, game: &Game, view: &SideView<'_>, p: &mut Picture) {
        let n = game.board().len();
        // Own strengths are whole numbers, exact in an f32 whatever the
        // order they were summed in: the state's sums serve.
        p.own.clear();
        p.own.extend_from_slice(view.own_forces());
        // The enemy blocks compared with those last seen as they come; a
        // list of them is made only from the first difference on.
        let unseen = self.params.unseen_strength;
        let mut same = p.enemy_str.len() == n && p.unseen_strength.to_bits() == unseen.to_bits();
        let stamp = view.unseen_enemies_stamp();
        if same && stamp.is_some() && stamp == p.enemies_stamp {
            // Nothing of theirs moved and nothing is known: the same list.
            debug_assert!(view.enemies_on_map(game).eq(p.enemies.iter().copied()));
            return;
        }
        p.enemies_stamp = stamp;
        let mut k = 0;
        p.seen.clear();
        for enemy in view.enemies_on_map(game) {
            if same && p.enemies.get(k) == Some(&enemy) {
                k += 1;
                continue;
            }
            if same {
                same = false;
                p.seen.extend_from_slice(&p.enemies[..k]);
            }
            p.seen.push(enemy);
        }
        if same && k != p.enemies.len() {
            same = false;
            p.seen.extend_from_slice(&p.enemies[..k]);
        }
        if !same {
            std::mem::swap(&mut p.seen, &mut p.enemies);
            p.unseen_strength = unseen;
            p.enemy_epoch += 1;
            Self::fill_enemy(game, p);
        }
    }

    /// The enemy half of the picture, from `p.enemies`: strength and count
    /// per space, and the threat.
    fn fill_enemy(game: &Game, p: &mut Picture) {
        let n = game.board().len();
        zeroed(&mut p.enemy_str, n);
        zeroed(&mut p.enemy_cnt, n);
        // The enemy-held spaces, to scatter threat from in id order.
        let mut held = [0u64; 4];
        for &(at, strength) in &p.enemies {
            let i = at.index();
            p.enemy_str[i] += strength.map_or(p.unseen_strength, f32::from);
            p.enemy_cnt[i] += 1;
            held[i / 64] |= 1 << (i % 64);
        }
        let board = game.board();
        // A space's threat is the enemy there and next door (by road, or by
        // sea for a sea). Scattered from the few enemy-held spaces rather
        // than gathered at every space; links are listed at both ends.
        p.threat.clear();
        p.threat.extend_from_slice(&p.enemy_str);
        for (w, mut bits) in held.into_iter().enumerate() {
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let enemy = p.enemy_str[i];
                if enemy == 0.0 {
                    continue;
                }
                for adj in board.neighbours(SpaceId(i as u16)) {
                    if adj.class != LinkClass::Sea || board.space(adj.to).kind == SpaceKind::Sea {
                        p.threat[adj.to.index()] += enemy;
                    }
                }
            }
        }
    }

    fn card_value(&self, game: &Game, card: u8) -> f32 {
        let p = &self.params;
        match game.card(card) {
            CardFace::Command { moves, levy } => moves as f32 + p.card_levy * levy as f32,
            CardFace::Event(e) => match e {
                Event::Jupiter => p.card_jupiter,
                Event::Mars => p.card_mars,
                Event::Mercury => p.card_mercury,
                Event::Pluto => p.card_pluto,
                Event::Vulcan => p.card_vulcan,
                Event::Apollo => p.card_apollo,
                Event::Neptune => p.card_neptune,
            },
        }
    }

    /// Whether own navis could attack enemy navis next door with at least
    /// as many blocks (what Neptune's surprise is for).
    fn naval_chance(&self, game: &Game, view: &SideView<'_>) -> bool {
        let board = game.board();
        let roster = game.roster();
        let own_navis_at = |s: SpaceId| {
            view.own_blocks_at(s)
                .filter(|b| roster.block(*b).kind == BlockKind::Navis)
                .count()
        };
        board
            .ids()
            .filter(|s| board.space(*s).kind == SpaceKind::Sea)
            .any(|sea| {
                // Only navis stand at sea.
                let theirs = usize::from(view.enemy_count(sea));
                theirs > 0
                    && board
                        .neighbours(sea)
                        .iter()
                        .any(|adj| adj.class == LinkClass::Sea && own_navis_at(adj.to) >= theirs)
            })
    }

    /// How much the side wants to be at land space `s` with more strength
    /// (a sea is worth nothing to a land group).
    fn land_value(&self, game: &Game, p: &Picture, s: SpaceId) -> f32 {
        let vp = game.board().space(s).vp as f32;
        let i = s.index();
        let k = &self.params;
        if p.enemy_cnt[i] > 0 {
            vp * k.enemy_city_vp + k.enemy_space + p.enemy_str[i]
        } else if p.own_cnt(i) == 0 {
            if p.vacant(s) {
                vp * k.vacant_city_vp + k.vacant_space
            } else {
                0.0
            }
        } else {
            // Own city: reinforce when threatened, or mass there to attack a
            // neighbouring enemy city too strong for what is there now.
            let gap = p.threat[i] - p.own_str(i);
            let defend = if gap > 0.0 && vp > 0.0 {
                vp * k.defend_vp + gap
            } else {
                0.0
            };
            let mut stage = 0.0f32;
            for adj in game.board().road_neighbours(s) {
                let t = adj.to.index();
                if p.enemy_cnt[t] > 0 && p.own_str(i) < p.enemy_str[t] * self.style.attack_ratio {
                    let target_vp = game.board().space(adj.to).vp as f32;
                    stage = stage.max(target_vp * k.stage_vp);
                }
            }
            defend.max(stage)
        }
    }

    /// The most a factor in [`HeuristicPlayer::plan_group`] can raise a
    /// target's value (at least 1: most targets keep theirs).
    fn plan_bound(&self) -> f32 {
        let k = &self.params;
        1.0f32
            .max(k.close_in)
            .max(k.distant_attack)
            .max(k.threatened_target)
    }

    /// Score of activating a group at `at`, and its objective: the best
    /// scoring of the `targets` (the spaces of positive value), the lowest
    /// id among equal scores.
    fn plan_group(
        &self,
        game: &Game,
        p: &Picture,
        targets: &Targets,
        at: SpaceId,
    ) -> Option<(f32, SpaceId)> {
        let mobile = self.mobile_strength(game, p, at);
        if mobile <= 0.0 {
            return None;
        }
        let mut best: Option<(f32, SpaceId)> = None;
        // Nearest first: a target `d` away scores at most the highest cap
        // over d², so once that falls below the best, none further can win.
        // The spaces come ring by ring: the bound is taken once a ring.
        let (mut ring, mut most) = (0, f32::INFINITY);
        for &(space, d) in game.spaces_by_road_distance(at) {
            if d != ring {
                ring = d;
                let df = d as f32;
                most = targets.max_cap / (df * df);
            }
            if best.is_some_and(|(b, _)| most < b) {
                break;
            }
            let target = &targets.by_space[space.index()];
            if target.worth {
                self.plan_target(target, d, mobile, &mut best);
            }
        }
        best
    }

    /// Scores `target`, `d` away from a group with `mobile` strength, into
    /// `best` if it beats it (or ties it with a lower id).
    fn plan_target(&self, target: &Target, d: u8, mobile: f32, best: &mut Option<(f32, SpaceId)>) {
        let mut value = target.value;
        if target.enemy {
            let need = target.enemy_str * self.style.attack_ratio - target.own_str;
            if mobile < need {
                if d == 1 {
                    return; // too strong from here: mass first
                }
                // Close in on it, if that is safe.
                value *= self.params.close_in;
            } else if d > 1 {
                value *= self.params.distant_attack;
            }
        } else if target.threat > mobile + target.own_str {
            value *= self.params.threatened_target;
        }
        let score = value / (d as f32 * d as f32);
        if best.is_none_or(|(b, at)| score > b || (score == b && target.space < at)) {
            *best = Some((score, target.space));
        }
    }

    /// Strength that must stay to hold a threatened friendly VP city.
    fn garrison(&self, game: &Game, p: &Picture, at: SpaceId) -> f32 {
        let i = at.index();
        let vp = game.board().space(at).vp as f32;
        if vp == 0.0 || p.threat[i] <= p.enemy_str[i] || !p.friendly(at) {
            return 0.0;
        }
        ((p.threat[i] - p.enemy_str[i]) * self.params.garrison_share)
            .min(self.params.garrison_cap + vp)
            * self.style.garrison
    }

    /// Strength that may leave `at` without abandoning a threatened city.
    fn mobile_strength(&self, game: &Game, p: &Picture, at: SpaceId) -> f32 {
        (p.own_str(at.index()) - self.garrison(game, p, at)).max(0.0)
    }

    /// Any legal action, drawn at random: where no rule of the heuristic chose.
    fn any_legal(&mut self, legal: &[Action]) -> Action {
        legal[self.rng.random_range(0..legal.len())]
    }

    fn choose_step(&mut self, d: &Decision<'_>) -> Action {
        let best = match self.target {
            None => Action::EndGroup,
            Some(Objective::Land(target)) => self.land_step(d, target),
            Some(Objective::Sea(target)) => self.sea_step(d, target),
        };
        if best == Action::EndGroup {
            if self.group_steps == 0
                && let Some(g) = self.current_group
            {
                self.idle_groups.push(g);
            }
            self.current_group = None;
        } else {
            self.group_steps += 1;
        }
        best
    }

    /// The land step that best closes on `target`, keeping garrisons.
    fn land_step(&self, d: &Decision<'_>, target: SpaceId) -> Action {
        let mut best = (0.0f32, Action::EndGroup);
        for (a, block, from, to) in steps_from(d.view, d.legal) {
            let kind = d.game.roster().block(block).kind;
            if kind == BlockKind::Navis {
                continue;
            }
            let (d_from, d_to) = (
                self.dist(d.game, from, target),
                self.dist(d.game, to, target),
            );
            if d_to >= d_from {
                continue;
            }
            // Keep a garrison in a threatened friendly city.
            let strength = own_strength(d.game, d.view, block);
            let fi = from.index();
            if d.p.own_str(fi) - strength < self.garrison(d.game, d.p, from) {
                continue;
            }
            // The holding rule: a held VP city keeps a block.
            if self.hold_vp_cities
                && d.p.own_cnt(fi) <= 1
                && d.p.enemy_cnt[to.index()] == 0
                && d.game.board().space(from).vp > 0
            {
                continue;
            }
            // Do not walk alone into an enemy space we cannot beat.
            let ti = to.index();
            if d.p.enemy_cnt[ti] > 0 {
                let mobile = self.mobile_strength(d.game, d.p, from);
                if mobile + d.p.own_str(ti) < d.p.enemy_str[ti] * self.style.attack_ratio {
                    continue;
                }
            }
            let mut score = 10.0 - d_to as f32 + strength * 0.1;
            if kind == BlockKind::Leader {
                score += 0.5;
            }
            if score > best.0 {
                best = (score, a);
            }
        }
        best.1
    }

    /// The navis step that best closes on the sea `target`. One navis stays
    /// in a sea worth holding unless the group attacks.
    fn sea_step(&self, d: &Decision<'_>, target: SpaceId) -> Action {
        let board = d.game.board();
        let attacking = d.p.enemy_cnt[target.index()] > 0;
        let far = |s: SpaceId| board.sea_distance(s, target).unwrap_or(FAR);
        let mut best = (0.0f32, Action::EndGroup);
        for (a, block, from, to) in steps_from(d.view, d.legal) {
            if d.game.roster().block(block).kind != BlockKind::Navis {
                continue;
            }
            if far(to) >= far(from) {
                continue;
            }
            let holding = board.space(from).kind == SpaceKind::Sea
                && self.sea_value(d.game, d.p, from) > 0.0
                && d.p.own_cnt(from.index()) <= 1;
            if holding && !attacking {
                continue;
            }
            let score = 10.0 - far(to) as f32 + own_strength(d.game, d.view, block) * 0.1;
            if score > best.0 {
                best = (score, a);
            }
        }
        best.1
    }

    /// What holding sea `s` is worth (6.3: amphibious moves and winter ports
    /// need friendly seas; holding it also shuts the enemy out).
    fn sea_value(&self, game: &Game, p: &Picture, s: SpaceId) -> f32 {
        let board = game.board();
        let ports: f32 = board
            .ports_of(s)
            .map(|port| {
                let vp = board.space(port).vp as f32;
                if p.friendly(port) {
                    1.0 + vp
                } else if p.vacant(port) {
                    0.5 + vp
                } else {
                    0.5
                }
            })
            .sum();
        ports * self.params.sea_hold
    }

    /// Score of a navis group at `at`, and the sea it goes for: an adjacent
    /// enemy sea it can beat, or a vacant sea worth holding within two moves.
    fn plan_navis(&self, game: &Game, p: &Picture, at: SpaceId) -> Option<(f32, SpaceId)> {
        let board = game.board();
        let (navis, strength) = (
            usize::from(p.navis_cnt(at.index())),
            p.navis_str(at.index()),
        );
        if navis == 0 {
            return None;
        }
        // Navis that must stay: one in a sea worth holding; all of them in a
        // port they alone hold (leaving would give the city up). Measured:
        // without the port rule Caesar's win rate fell by 5 points.
        let keep = if board.space(at).kind == SpaceKind::Sea {
            usize::from(self.sea_value(game, p, at) > 0.0)
        } else if p.own_cnt(at.index()) as usize <= navis {
            navis
        } else {
            0
        };
        let mut best: Option<(f32, SpaceId)> = None;
        for &(t, d) in game.seas_within_two(at) {
            let i = t.index();
            let value = if p.enemy_cnt[i] > 0 {
                // 6.2: navis attack only from next door.
                if d > 1 || strength < p.enemy_str[i] * self.style.attack_ratio {
                    continue;
                }
                self.params.naval_attack + self.sea_value(game, p, t)
            } else if p.own_cnt(i) == 0 && navis > keep {
                self.sea_value(game, p, t)
            } else {
                continue;
            };
            let score = value / (d as f32 * d as f32);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, t));
            }
        }
        best
    }

    /// Score of an amphibious move (6.3): worth it when the port is out of
    /// reach by road this turn and the block is safe there.
    fn amphibious_score(
        &self,
        game: &Game,
        view: &SideView<'_>,
        p: &Picture,
        targets: &Targets,
        block: BlockId,
        to: SpaceId,
    ) -> Option<f32> {
        let value = targets.by_space[to.index()].value;
        if value <= 0.0 {
            return None;
        }
        let from = view.own_location(block)?;
        if self.dist(game, from, to) <= 2 {
            return None;
        }
        let strength = own_strength(game, view, block);
        let (ti, fi) = (to.index(), from.index());
        if p.threat[ti] > strength + p.own_str(ti)
            || p.own_str(fi) - strength < self.garrison(game, p, from)
        {
            return None;
        }
        Some(value * self.params.amphibious)
    }

    /// Every space's value to a group, and the spaces worth going to with
    /// what each group's plan reads of them: taken again where the picture
    /// changed since the last group decision (see [`Targets`]).
    fn gather_targets(&self, game: &Game, p: &Picture, targets: &mut Targets) {
        let n = game.board().len();
        let key = (p.enemy_epoch, self.style.attack_ratio.to_bits());
        let all = targets.key != Some(key) || targets.by_space.len() != n;
        if all {
            targets.by_space.clear();
            let sea = Target {
                worth: false,
                space: SpaceId(0),
                value: 0.0,
                enemy: false,
                enemy_str: 0.0,
                own_str: 0.0,
                threat: 0.0,
            };
            targets.by_space.resize(n, sea);
        }
        let mut changed = all;
        for &t in game.land_spaces() {
            let i = t.index();
            if !all && targets.own[i] == p.own[i] {
                continue;
            }
            changed = true;
            let value = self.land_value(game, p, t);
            targets.by_space[i] = Target {
                worth: value > 0.0,
                space: t,
                value,
                enemy: p.enemy_cnt[i] > 0,
                enemy_str: p.enemy_str[i],
                own_str: p.own_str(i),
                threat: p.threat[i],
            };
        }
        if !changed {
            return;
        }
        let bound = self.plan_bound();
        targets.max_cap = 0.0;
        for &t in game.land_spaces() {
            let target = &targets.by_space[t.index()];
            if target.worth {
                targets.max_cap = targets.max_cap.max(target.value * bound);
            }
        }
        targets.own.clear();
        targets.own.extend_from_slice(&p.own);
        targets.key = Some(key);
    }

    fn choose_group(&mut self, d: &Decision<'_>) -> Action {
        let stamp = (d.view.year(), d.view.turn());
        if stamp != self.idle_stamp {
            self.idle_stamp = stamp;
            self.idle_groups.clear();
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        self.gather_targets(d.game, d.p, &mut scratch.targets);
        let targets = &scratch.targets;
        // Event groups move land blocks only, or navis only (Neptune).
        let event = d.view.command_event();
        let land_moves = event != Some(Event::Neptune);
        let navis_move = matches!(event, None | Some(Event::Neptune));
        let candidates = &mut scratch.candidates;
        candidates.clear();
        let mut consider = |score: f32, a: Action, objective: Option<Objective>| {
            candidates.push((score, a, objective));
        };
        for &a in d.legal {
            match a {
                Action::Group(at) if !self.idle_groups.contains(&at) => {
                    if land_moves
                        && let Some((score, t)) = self.plan_group(d.game, d.p, targets, at)
                    {
                        consider(score, a, Some(Objective::Land(t)));
                    }
                    if navis_move && let Some((score, t)) = self.plan_navis(d.game, d.p, at) {
                        consider(score, a, Some(Objective::Sea(t)));
                    }
                }
                Action::SeaMove { block, to } => {
                    if let Some(score) =
                        self.amphibious_score(d.game, d.view, d.p, targets, block, to)
                    {
                        consider(score, a, None);
                    }
                }
                _ => {}
            }
        }
        // Best first (the earlier among equals); a group is taken only if its
        // first step would be made (no move point spent on a group that then
        // moves nothing). The best usually passes: picked one at a time
        // rather than sorted.
        let after = &mut scratch.after;
        let mut chosen = None;
        while let Some(i) = (0..candidates.len()).reduce(|best, i| {
            if candidates[i].0.total_cmp(&candidates[best].0).is_gt() {
                i
            } else {
                best
            }
        }) {
            let (score, a, objective) = candidates.remove(i);
            if score <= self.params.least_group_score {
                break;
            }
            let Action::Group(at) = a else {
                chosen = Some((score, a, objective));
                break;
            };
            d.view.moves_after_group(d.game, at, after);
            let steps = Decision { legal: after, ..*d };
            let first = match objective {
                Some(Objective::Land(t)) => self.land_step(&steps, t),
                Some(Objective::Sea(t)) => self.sea_step(&steps, t),
                None => Action::EndGroup,
            };
            if first != Action::EndGroup {
                chosen = Some((score, a, objective));
                break;
            }
        }
        self.scratch = scratch;
        match chosen {
            Some((_, a, objective)) => {
                self.target = objective;
                self.group_steps = 0;
                if let Action::Group(at) = a {
                    self.current_group = Some(at);
                }
                a
            }
            _ => {
                self.target = None;
                if d.legal.contains(&Action::EndMoves) {
                    Action::EndMoves
                } else {
                    self.any_legal(d.legal)
                }
            }
        }
    }

    fn choose_levy(&self, d: &Decision<'_>) -> Action {
        let board = d.game.board();
        let roster = d.game.roster();
        let supply_room = |s: SpaceId| {
            let space = board.space(s);
            space.winter_supply(d.game.rules.winter_supply_base) as i32
                - d.p.own_cnt(s.index()) as i32
        };
        let k = &self.params;
        let front = |s: SpaceId| 1.0 + d.p.threat[s.index()] * k.levy_front;
        let mut best = (0.0f32, None);
        for &a in d.legal {
            let score = match a {
                Action::AddStep(b) => {
                    let Some(at) = d.view.location(d.game, b) else {
                        continue;
                    };
                    let block = roster.block(b);
                    let missing = block.max_steps.saturating_sub(own_steps(d.game, d.view, b));
                    if missing == 0 {
                        continue;
                    }
                    front(at) * (block.firepower as f32 * k.add_step_firepower + k.add_step)
                }
                Action::Levy { block, at } => {
                    if supply_room(at) <= 0 {
                        continue;
                    }
                    let b = roster.block(block);
                    let base = match b.kind {
                        BlockKind::Navis => k.levy_navis,
                        _ => k.levy_land + b.firepower as f32 * k.levy_land_firepower,
                    };
                    front(at) * base
                }
                _ => continue,
            };
            if score > best.0 {
                best = (score, Some(a));
            }
        }
        best.1.unwrap_or(Action::EndLevy)
    }

    fn choose_battle_turn(&self, d: &Decision<'_>) -> Action {
        let retreats: Vec<SpaceId> = d
            .legal
            .iter()
            .filter_map(|a| match a {
                Action::Retreat(s) => Some(*s),
                _ => None,
            })
            .collect();
        let can_fire = d.legal.contains(&Action::Fire);
        if !retreats.is_empty()
            && let Some(info) = d.view.battle()
        {
            let i = info.space.index();
            let (ours, theirs) = (d.p.own_str(i), d.p.enemy_str[i]);
            let acting = info.acting;
            let leader = acting.is_some_and(|b| d.game.roster().block(b).kind == BlockKind::Leader);
            let losing = ours * self.params.retreat_ratio < theirs || (leader && ours < theirs);
            if !can_fire || losing {
                // Safest place: friendly, least threatened.
                let best = retreats.iter().copied().max_by(|a, b| {
                    let score = |s: SpaceId| {
                        (d.p.friendly(s) as u8 as f32) * 5.0 + d.p.own_str(s.index())
                            - d.p.threat[s.index()]
                    };
                    score(*a).total_cmp(&score(*b))
                });
                if let Some(to) = best {
                    return Action::Retreat(to);
                }
            }
        }
        if can_fire { Action::Fire } else { d.legal[0] }
    }

    fn choose_event_target(&self, d: &Decision<'_>) -> Action {
        let mut best = (f32::MIN, Action::PassEvent);
        for &a in d.legal {
            let score = match a {
                Action::JupiterAt(s) | Action::VulcanCity(s) => {
                    let enemy = d.p.enemy_str[s.index()];
                    // A vacant city (1.1 Vulcan) strikes nothing, whatever its VP.
                    let vp = if enemy > 0.0 {
                        d.game.board().space(s).vp as f32
                    } else {
                        0.0
                    };
                    enemy * self.params.strike_enemy
                        - d.p.own_str(s.index()) * self.params.strike_own
                        + vp
                }
                Action::PassEvent => 0.0,
                _ => continue,
            };
            if score > best.0 {
                best = (score, a);
            }
        }
        best.1
    }
}

impl Player for HeuristicPlayer {
    fn omniscient(&self) -> bool {
        self.omniscient
    }

    fn choose(&mut self, game: &Game, view: SideView<'_>, legal: &[Action]) -> Action {
        debug_assert_eq!(view.side(), self.side, "asked to play the other side");
        let view = &view;
        if legal.len() == 1 {
            return legal[0];
        }
        self.style = match self.turn_style {
            Some((style, when)) if when == (view.year(), view.turn()) => style,
            _ => self.own_style(),
        };
        let first = legal[0];
        match first {
            Action::Discard(_) | Action::Play(_) => {
                let naval_chance = self.naval_chance(game, view);
                let value = |a: &Action| match a {
                    Action::Discard(c) | Action::Play(c) => match (game.card(*c), naval_chance) {
                        (CardFace::Event(Event::Neptune), true) => self.params.card_neptune_naval,
                        _ => self.card_value(game, *c),
                    },
                    _ => 0.0,
                };
                let pick = if matches!(first, Action::Discard(_)) {
                    legal.iter().min_by(|a, b| value(a).total_cmp(&value(b)))
                } else {
                    legal.iter().max_by(|a, b| value(a).total_cmp(&value(b)))
                };
                return *pick.unwrap_or(&first);
            }
            Action::TakeHit(_) => {
                return Action::TakeHit(default_hit_victim_seen(
                    game,
                    view,
                    &hit_candidates(legal),
                ));
            }
            // 7.2: same-letter blocks act in roster order (docs/rules-notes.md).
            Action::TakeTurn(_) => return first,
            // Mars / Neptune: the battle where most of our blocks attack
            // (most of them fire first), never none.
            Action::Surprise(_) => {
                let steps = |s: SpaceId| -> u32 {
                    view.own_blocks_at(s)
                        .map(|b| view.strength(game, b).unwrap_or(0) as u32)
                        .sum()
                };
                return legal
                    .iter()
                    .copied()
                    .filter_map(|a| match a {
                        Action::Surprise(Some(s)) => Some((steps(s), a)),
                        _ => None,
                    })
                    .rev()
                    .max_by_key(|(n, _)| *n)
                    .map_or(first, |(_, a)| a);
            }
            Action::MainAttack(_) => return first,
            _ => {}
        }
        // Round 1 (no retreat yet): always fire.
        let kinds = Kinds::of(legal);
        if kinds.any(Kinds::FIRE) && !kinds.any(Kinds::RETREAT) {
            return Action::Fire;
        }
        let mut p = self.picture.take().unwrap_or_default();
        self.fill_picture(game, view, &mut p);
        let d = Decision {
            game,
            view,
            p: &p,
            legal,
        };
        let action = self.choose_with_picture(&d, kinds);
        self.picture = Some(p);
        action
    }
}

impl HeuristicPlayer {
    /// The decisions that need the picture of the board.
    fn choose_with_picture(&mut self, d: &Decision<'_>, kinds: Kinds) -> Action {
        let first = d.legal[0];
        if kinds.any(Kinds::FIRE | Kinds::RETREAT | Kinds::PASS) {
            return self.choose_battle_turn(d);
        }
        if kinds.any(Kinds::STEP | Kinds::END_GROUP) {
            return self.choose_step(d);
        }
        if kinds.any(Kinds::GROUP | Kinds::SEA_MOVE | Kinds::END_MOVES) {
            return self.choose_group(d);
        }
        if kinds.any(Kinds::LEVY | Kinds::ADD_STEP | Kinds::END_LEVY) {
            return self.choose_levy(d);
        }
        if kinds.any(Kinds::JUPITER | Kinds::VULCAN | Kinds::PASS_EVENT) {
            return self.choose_event_target(d);
        }
        if let Action::Battle(_) = first {
            // Fight first where we are relatively strongest.
            return *d
                .legal
                .iter()
                .max_by(|a, b| {
                    let edge = |x: &Action| match x {
                        Action::Battle(s) => d.p.own_str(s.index()) - d.p.enemy_str[s.index()],
                        _ => f32::MIN,
                    };
                    edge(a).total_cmp(&edge(b))
                })
                .unwrap_or(&first);
        }
        if let Some(a) = self.choose_regroup_or_winter(d, kinds) {
            return a;
        }
        self.any_legal(d.legal)
    }

    /// 7.7: take a vacant VP city next to the battlefield, if it is safe;
    /// else end the regroup.
    fn best_regroup_of(d: &Decision<'_>) -> Action {
        let mut best = (0.0f32, Action::EndRegroup);
        for &a in d.legal {
            if let Action::Regroup { block, to } = a {
                let space = d.game.board().space(to);
                let i = to.index();
                if d.p.vacant(to) && space.vp > 0 {
                    let str = own_strength(d.game, d.view, block);
                    let score = space.vp as f32 * 2.0 + str - d.p.threat[i] * 0.5;
                    if score > best.0 {
                        best = (score, a);
                    }
                }
            }
        }
        best.1
    }

    /// After a battle (regroup, 7.7) and in winter (8.3 navis to port, 8.4
    /// disbanding), if the decision is one of those.
    fn choose_regroup_or_winter(&self, d: &Decision<'_>, kinds: Kinds) -> Option<Action> {
        let first = d.legal[0];
        if kinds.any(Kinds::REGROUP) {
            return Some(Self::best_regroup_of(d));
        }
        if kinds.any(Kinds::NAVIS_TO_PORT) {
            return d
                .legal
                .iter()
                .copied()
                .max_by_key(|a| match a {
                    Action::NavisToPort { to, .. } => {
                        d.game
                            .board()
                            .space(*to)
                            .winter_supply(d.game.rules.winter_supply_base)
                            as i32
                            - d.p.own_cnt(to.index()) as i32
                    }
                    _ => i32::MIN,
                })
                .or(Some(first));
        }
        if kinds.any(Kinds::DISBAND) {
            if kinds.any(Kinds::END_WINTER) {
                return Some(Action::EndWinter);
            }
            // 8.4: over supply: the weakest, never a leader if avoidable.
            return d
                .legal
                .iter()
                .copied()
                .min_by_key(|a| match a {
                    Action::Disband(b) => {
                        let leader = d.game.roster().block(*b).kind == BlockKind::Leader;
                        (leader, d.view.strength(d.game, *b).unwrap_or(0))
                    }
                    _ => (true, u8::MAX),
                })
                .or(Some(first));
        }
        if kinds.any(Kinds::END_WINTER) {
            return Some(Action::EndWinter);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::play_until;

    #[test]
    fn a_turn_style_lasts_for_its_game_turn_only() {
        let game = crate::test_support::published("rules-2.0");
        let (state, legal) = play_until(&game, 3, |s, _| s.turn() == 2);
        let side = state
            .current_player()
            .expect("the game goes on into turn 2");
        let mut player = HeuristicPlayer::new(side, 1, false);
        player.set_turn_style(Style::BOLD, state.year(), 2);
        crate::ai::decide(&mut player, &game, &state, &legal);
        assert_eq!(player.style, Style::BOLD);
        player.set_turn_style(Style::BOLD, state.year(), 1);
        crate::ai::decide(&mut player, &game, &state, &legal);
        assert_eq!(player.style, Style::STEADY);
    }

    /// The values a player keeps between group decisions (and its picture
    /// of the enemy, kept while their blocks stay) are those a fresh player
    /// takes from scratch, at every group decision of whole games.
    #[test]
    fn kept_group_values_equal_values_taken_afresh() {
        let game = crate::test_support::published("rules-2.0");
        let mut compared = 0;
        for seed in 1..=3 {
            let mut state = crate::engine::State::new(&game, seed);
            let mut players = Side::BOTH.map(|side| HeuristicPlayer::new(side, seed, false));
            let mut legal = Vec::new();
            while let Some(side) = state.current_player() {
                state.legal_actions(&game, &mut legal);
                let player = &mut players[side.index()];
                let action = crate::ai::decide(player, &game, &state, &legal);
                if legal.iter().any(|a| matches!(a, Action::Group(_)))
                    && let Some(kept) = &player.picture
                {
                    let view = state.view(side, false);
                    let mut fresh = HeuristicPlayer::new(side, seed, false);
                    fresh.style = player.style;
                    let mut p = Picture::default();
                    fresh.fill_picture(&game, &view, &mut p);
                    assert_eq!(p.enemy_str, kept.enemy_str);
                    assert_eq!(p.threat, kept.threat);
                    let mut afresh = Targets::default();
                    fresh.gather_targets(&game, &p, &mut afresh);
                    let values = |t: &Targets| -> Vec<(bool, u32)> {
                        t.by_space
                            .iter()
                            .map(|t| (t.worth, t.value.to_bits()))
                            .collect()
                    };
                    let kept_targets = &player.scratch.targets;
                    assert_eq!(values(&afresh), values(kept_targets));
                    assert_eq!(afresh.max_cap.to_bits(), kept_targets.max_cap.to_bits());
                    compared += 1;
                }
                state.apply(&game, action);
            }
        }
        assert!(compared > 100, "only {compared} group decisions");
    }

    #[test]
    fn a_bold_style_keeps_smaller_garrisons_a_cautious_one_larger() {
        let game = crate::test_support::published("rules-2.0");
        let roma = game.board().find("Roma").unwrap();
        let mut p = Picture::default();
        let n = game.board().len();
        p.own = vec![Forces::default(); n];
        p.enemy_str = vec![0.0; n];
        p.enemy_cnt = vec![0; n];
        p.threat = vec![0.0; n];
        p.own[roma.index()] = Forces {
            blocks: 2,
            strength: 4,
            ..Forces::default()
        };
        p.threat[roma.index()] = 6.0;
        let mut player = HeuristicPlayer::new(Side::Caesar, 1, false);
        let steady = player.garrison(&game, &p, roma);
        player.style = Style::BOLD;
        let bold = player.garrison(&game, &p, roma);
        player.style = Style::CAUTIOUS;
        let cautious = player.garrison(&game, &p, roma);
        assert!(steady > 0.0);
        assert!(
            bold < steady && steady < cautious,
            "{bold} {steady} {cautious}"
        );
    }
}

/// What a space is worth as a group's own objective `d` roads away
/// ([`HeuristicPlayer::own_plans`]), if anything: VP at stake, scaled by the
/// odds of the group's `mobile` strength against the enemy's there.
fn own_target_score(game: &Game, p: &Picture, t: SpaceId, mobile: f32, d: u8) -> Option<f32> {
    let i = t.index();
    let vp = f32::from(game.board().space(t).vp);
    let near = 1.0 / f32::from(d);
    if p.enemy_cnt[i] > 0 {
        // An attack: only where the group outweighs what is seen there.
        let odds = (mobile + p.own_str(i)) / p.enemy_str[i].max(1.0);
        return (vp > 0.0 && odds >= 1.2).then(|| (vp + 1.0) * odds.min(3.0) * near);
    }
    if p.own_cnt(i) == 0 {
        return (vp > 0.0).then_some((vp + 0.5) * near); // a vacant VP city
    }
    if vp > 0.0 && p.threat[i] > p.own_str(i) {
        return Some(vp * 0.8 * near); // hold a threatened city
    }
    // Concentrate on a large friendly stack.
    (p.own_str(i) >= 6.0).then(|| 0.3 * p.own_str(i) / 6.0 * near)
}

/// A group move with its objective (the heuristic's, or a search's own): what a search
/// ([`super::mcts`]) picks among and hands back with [`HeuristicPlayer::adopt`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct GroupPlan {
    pub(crate) action: Action,
    objective: Option<Objective>,
}

impl HeuristicPlayer {
    /// The heuristic's group moves at a move decision, best first, at most
    /// `max` (each location once, with its best objective), into `out`: the
    /// heuristic's own choice, then its choice were that one not legal, and
    /// so on. Leaves the player as it was. Empty unless `EndMoves` is legal.
    pub(crate) fn group_plans(
        &mut self,
        game: &Game,
        view: &SideView<'_>,
        legal: &[Action],
        max: usize,
        out: &mut Vec<GroupPlan>,
    ) {
        out.clear();
        if !legal.contains(&Action::EndMoves) {
            return;
        }
        self.style = match self.turn_style {
            Some((style, when)) if when == (view.year(), view.turn()) => style,
            _ => Style::STEADY,
        };
        let kept = (self.target, self.group_steps, self.current_group);
        let mut p = self.picture.take().unwrap_or_default();
        self.fill_picture(game, view, &mut p);
        let mut rest = legal.to_vec();
        while out.len() < max {
            let a = self.choose_group(&Decision {
                game,
                view,
                p: &p,
                legal: &rest,
            });
            if !matches!(a, Action::Group(_) | Action::SeaMove { .. }) {
                break;
            }
            out.push(GroupPlan {
                action: a,
                objective: self.target,
            });
            rest.retain(|r| *r != a);
        }
        self.picture = Some(p);
        (self.target, self.group_steps, self.current_group) = kept;
    }

    /// Group moves of a search's own (issue 44): not the heuristic's ranking
    /// but the legal moves themselves. Each legal group toward each space
    /// worth going to within two roads: an enemy VP city its mobile strength
    /// outweighs, a vacant VP city, a threatened friendly VP city, or the
    /// side's largest stack nearby (concentration); and each sea move that
    /// lands on a VP city not held. Best first by VP at stake and the odds
    /// of strength, at most `max`, leaving out `known` (the heuristic's
    /// plans); a group is offered only if its first step would be made.
    /// Leaves the player as it was.
    pub(crate) fn own_plans(
        &mut self,
        game: &Game,
        view: &SideView<'_>,
        legal: &[Action],
        known: &[GroupPlan],
        max: usize,
        out: &mut Vec<GroupPlan>,
    ) {
        out.clear();
        if max == 0
            || !legal.contains(&Action::EndMoves)
            || view.command_event() == Some(Event::Neptune)
        {
            return;
        }
        let mut p = self.picture.take().unwrap_or_default();
        self.fill_picture(game, view, &mut p);
        let mut scored: Vec<(f32, GroupPlan)> = Vec::new();
        let mut after = Vec::new();
        for &a in legal {
            match a {
                Action::Group(at) => {
                    let mobile = self.mobile_strength(game, &p, at);
                    if mobile <= 0.0 {
                        continue;
                    }
                    // The group's first steps, the same for every target.
                    view.moves_after_group(game, at, &mut after);
                    for &(t, d) in game.spaces_by_road_distance(at) {
                        if d == 0 || d > 2 {
                            continue;
                        }
                        let Some(score) = own_target_score(game, &p, t, mobile, d) else {
                            continue;
                        };
                        let plan = GroupPlan {
                            action: a,
                            objective: Some(Objective::Land(t)),
                        };
                        if known.contains(&plan) {
                            continue;
                        }
                        let steps = Decision {
                            game,
                            view,
                            p: &p,
                            legal: &after,
                        };
                        if self.land_step(&steps, t) == Action::EndGroup {
                            continue;
                        }
                        scored.push((score, plan));
                    }
                }
                Action::SeaMove { to, .. } => {
                    let vp = f32::from(game.board().space(to).vp);
                    if vp > 0.0 && !p.friendly(to) {
                        let plan = GroupPlan {
                            action: a,
                            objective: None,
                        };
                        if !known.contains(&plan) {
                            scored.push((vp - p.enemy_str[to.index()] * 0.5, plan));
                        }
                    }
                }
                _ => {}
            }
        }
        self.picture = Some(p);
        // Best first; the first plan of each location before any second one.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut used: Vec<Action> = Vec::new();
        for pass in 0..2 {
            for (_, plan) in &scored {
                if out.len() >= max {
                    return;
                }
                let first_here = !used.contains(&plan.action);
                if (pass == 0) == first_here && !out.contains(plan) {
                    used.push(plan.action);
                    out.push(*plan);
                }
            }
        }
    }

    /// Each group-decision candidate's features for a learned policy
    /// ([`super::policy::MOVE_FEATURES`]): `None` ends the moves; `rank` is
    /// the heuristic's rank of a plan of its own (else the search's own).
    /// Leaves the player as it was.
    pub(crate) fn candidate_features(
        &mut self,
        game: &Game,
        view: &SideView<'_>,
        candidates: &[(Option<GroupPlan>, Option<usize>)],
        out: &mut Vec<super::policy::MoveFeatures>,
    ) {
        out.clear();
        let mut p = self.picture.take().unwrap_or_default();
        self.fill_picture(game, view, &mut p);
        for &(plan, rank) in candidates {
            let mut x = [0.0; super::policy::MOVE_FEATURES.len()];
            let Some(plan) = plan else {
                x[0] = 1.0;
                out.push(x);
                continue;
            };
            x[1] = f64::from(u8::from(rank == Some(0)));
            x[2] = f64::from(u8::from(rank.is_some_and(|r| r > 0)));
            x[3] = f64::from(u8::from(rank.is_none()));
            let (from, target, sea, mobile) = match (plan.action, plan.objective) {
                (Action::Group(at), Some(Objective::Land(t))) => {
                    (Some(at), Some(t), false, self.mobile_strength(game, &p, at))
                }
                (Action::Group(at), Some(Objective::Sea(t))) => (
                    Some(at),
                    Some(t),
                    true,
                    f32::from(p.own[at.index()].navis_strength),
                ),
                (Action::SeaMove { block, to }, _) => {
                    (None, Some(to), true, own_strength(game, view, block))
                }
                _ => (None, None, false, 0.0),
            };
            x[4] = f64::from(u8::from(sea));
            if let Some(t) = target {
                let i = t.index();
                x[5] = f64::from(game.board().space(t).vp) / 3.0;
                x[6] = f64::from(u8::from(p.enemy_cnt[i] > 0));
                if p.enemy_cnt[i] > 0 {
                    x[7] = f64::from(((mobile + p.own_str(i)) / p.enemy_str[i].max(1.0)).min(3.0));
                }
                x[8] = f64::from(u8::from(p.vacant(t)));
                x[9] = f64::from(u8::from(p.friendly(t) && p.threat[i] > p.own_str(i)));
                if let Some(at) = from {
                    x[11] = f64::from(self.dist(game, at, t).min(6)) / 3.0;
                }
            }
            if let Some(at) = from {
                // The group may take everything out of a VP city it holds.
                let vp = game.board().space(at).vp;
                x[10] = f64::from(u8::from(vp > 0 && mobile >= p.own_str(at.index()) - 0.01));
            }
            out.push(x);
        }
        self.picture = Some(p);
    }

    /// Keeps a block in every VP city it holds unless moving into an attack.
    pub(crate) fn holding_vp_cities(mut self, hold: bool) -> HeuristicPlayer {
        self.set_holding_vp_cities(hold);
        self
    }

    pub(crate) fn set_holding_vp_cities(&mut self, hold: bool) {
        self.hold_vp_cities = hold;
    }

    /// Makes `plan` this player's current group move and returns its action.
    pub(crate) fn adopt(&mut self, plan: GroupPlan) -> Action {
        self.target = plan.objective;
        self.group_steps = 0;
        if let Action::Group(at) = plan.action {
            self.current_group = Some(at);
        }
        plan.action
    }
}
