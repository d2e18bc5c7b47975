//! A player that searches a tree of its own decisions: information-set Monte
//! Carlo tree search, determinized, open loop.
//!
//! Three kinds of decision are searched, as macro actions over the engine:
//! - each card play and each yearly discard (2.1): every card of the hand;
//! - the start of each of its command phases: the [`Style`] its heuristic
//!   moves in for the rest of the game turn;
//! - each group move (6.1, 6.3): the heuristic's best few group plans (a
//!   location and its objective, or an amphibious move), best first, and
//!   ending the moves. A chosen plan's steps are then the heuristic's, toward
//!   the plan's objective ([`HeuristicPlayer::adopt`]); a plan is one choice
//!   (the same location toward another objective is another), and ending the
//!   moves, once chosen, is played as chosen, not left to the heuristic.
//!
//! Every other decision (levies, battles, the opponent's) is the heuristic's.
//!
//! One iteration samples a world consistent with this side's view
//! ([`SideView::sample_world`]: the opponent's hand and hidden blocks redrawn,
//! future dice reseeded), then plays it to the end. While the game is still
//! in the game turn of the decision, this side's searched decisions walk down
//! a tree keyed by this side's own choices only (open loop: the opponent's
//! moves and the dice are not nodes, so one tree serves every sampled world,
//! as single-observer ISMCTS does). At each node the choice maximises PUCT:
//! the mean playout value plus `c · prior · √available / (1 + visits)`, where
//! the prior favours the heuristic's own choice and `available` counts the
//! iterations in which the choice was legal (ISMCTS). Progressive widening
//! lets a node consider only its first `1 + ⌊√visits⌋` choices (best prior
//! first): few playouts stay on the heuristic's best few plans. The first
//! choice not yet in the tree is added, and from there the heuristic plays
//! both sides to the end of the game. The value is win 1, draw ½, plus 0.01
//! per VP of final margin. The most visited root choice is played (ties to
//! the higher prior).
//!
//! Parallel and reproducible: a decision grows [`TREES`] independent trees
//! (root parallelisation), each from its own seed drawn before any is grown,
//! on the rayon pool; their root visits are summed. A playout budget thus
//! gives the same choice on any number of threads. A time budget grows every
//! tree until the deadline: for play in the window, not reproducible.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::heuristic::GroupPlan;
use super::policy::{MoveFeatures, PolicyModel, SearchedDecision};
use super::{Budget, HeuristicParams, HeuristicPlayer, MctsParams, Player, Style};
use crate::engine::{Action, Game, SideView, State};
use crate::scenario::model::Side;

/// Independent trees grown for each decision (root parallelisation): fixed,
/// so that a playout budget plays alike on any number of threads.
pub(crate) const TREES: usize = 4;
/// Group plans searched at a move decision (with ending the moves).
const MAX_GROUP_PLANS: usize = 4;

/// One searched choice: a card or a group move (an action), or a style.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Choice {
    Act(Action),
    Style(usize),
    /// A group move toward its objective.
    Plan(GroupPlan),
}

/// A choice below a node, with its statistics.
#[derive(Debug, Clone)]
struct Edge {
    choice: Choice,
    visits: u32,
    /// Iterations in which this choice was legal and considered.
    available: u32,
    value: f64,
    /// The node reached, once expanded (0: not yet; the root is never a child).
    node: u32,
}

#[derive(Debug, Clone, Default)]
struct Node {
    edges: Vec<Edge>,
    visits: u32,
    value: f64,
}

/// Buffers one tree reuses from iteration to iteration.
#[derive(Default)]
struct Scratch {
    legal: Vec<Action>,
    candidates: Vec<(Choice, f64)>,
    plans: Vec<GroupPlan>,
    own: Vec<GroupPlan>,
    /// The group candidates' features, in the order of `candidates`
    /// (with a policy, or when `describe` asks for them).
    features: Vec<MoveFeatures>,
    describe: bool,
    /// (node, edge) pairs walked.
    path: Vec<(u32, u32)>,
}

struct Tree {
    nodes: Vec<Node>,
    /// The node of the decision being searched.
    root: u32,
}

impl Tree {
    fn new() -> Tree {
        Tree {
            nodes: vec![Node::default()],
            root: 0,
        }
    }

    /// Makes the node below the root's `choice` the root (0 if there is none).
    /// Adds one playout's `value` to the root, and to every edge walked
    /// (`path`) and the node it leads to.
    fn back_up(&mut self, path: &[(u32, u32)], value: f64) {
        let top = self.root as usize;
        self.nodes[top].visits += 1;
        self.nodes[top].value += value;
        for &(n, e) in path {
            let edge = &mut self.nodes[n as usize].edges[e as usize];
            edge.visits += 1;
            edge.value += value;
            let child = edge.node;
            if child != 0 {
                let child = &mut self.nodes[child as usize];
                child.visits += 1;
                child.value += value;
            }
        }
    }

    fn reroot(&mut self, choice: Choice) {
        let edges = &self.nodes[self.root as usize].edges;
        self.root = edges
            .iter()
            .find(|e| e.choice == choice)
            .map_or(0, |e| e.node);
    }

    /// PUCT among `candidates` (best prior first) at node `n`, widened
    /// progressively; returns the edge index.
    fn select(&mut self, n: u32, candidates: &[(Choice, f64)], c_puct: f64) -> u32 {
        let node = &mut self.nodes[n as usize];
        let width = 1 + (f64::from(node.visits)).sqrt() as usize;
        let parent_mean = if node.visits > 0 {
            node.value / f64::from(node.visits)
        } else {
            0.5
        };
        let mut best = (f64::MIN, 0u32);
        for &(choice, prior) in candidates.iter().take(width.max(2)) {
            let i = match node.edges.iter().position(|e| e.choice == choice) {
                Some(i) => i,
                None => {
                    node.edges.push(Edge {
                        choice,
                        visits: 0,
                        available: 0,
                        value: 0.0,
                        node: 0,
                    });
                    node.edges.len() - 1
                }
            };
            let e = &mut node.edges[i];
            e.available += 1;
            let q = if e.visits > 0 {
                e.value / f64::from(e.visits)
            } else {
                parent_mean
            };
            let u = c_puct * prior * f64::from(e.available).sqrt() / (1.0 + f64::from(e.visits));
            if q + u > best.0 {
                best = (q + u, i as u32);
            }
        }
        best.1
    }
}

pub struct MctsPlayer {
    side: Side,
    omniscient: bool,
    budget: Budget,
    params: MctsParams,
    rng: ChaCha8Rng,
    heuristic: HeuristicPlayer,
    /// The heuristic's numbers for each side in the playouts and priors:
    /// this side's are also its own play where it does not search.
    numbers: [HeuristicParams; 2],
    /// The styles it weighs at the start of a command phase, its own first.
    styles: [Style; 3],
    /// The (year, turn) whose command-phase style was last chosen.
    styled: Option<(u8, u8)>,
    /// That style.
    style: Style,
    /// The trees of the last decision, if the next may go on with them.
    kept: Option<Kept>,
    playouts_done: Option<Arc<AtomicU64>>,
    /// A learned evaluation that scores a playout at its horizon instead
    /// of playing it to the end.
    value: Option<Arc<super::ValueModel>>,
    /// Where each searched group decision's root candidates and visits go
    /// (self-play for `learn-policy`).
    recorder: Option<Recorder>,
}

/// The searched group decisions of a self-play game.
pub(crate) type Recorder = Arc<std::sync::Mutex<Vec<SearchedDecision>>>;

impl MctsPlayer {
    pub fn new(side: Side, seed: u64, omniscient: bool, budget: Budget) -> MctsPlayer {
        MctsPlayer::with_params(side, seed, omniscient, budget, MctsParams::default())
    }

    pub(crate) fn with_params(
        side: Side,
        seed: u64,
        omniscient: bool,
        budget: Budget,
        params: MctsParams,
    ) -> MctsPlayer {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let heuristic = HeuristicPlayer::new(side, rng.random(), omniscient);
        // Zero playouts is the prior alone; zero milliseconds means nothing.
        let budget = match budget {
            Budget::Millis(ms) => Budget::Millis(ms.max(1)),
            playouts => playouts,
        };
        MctsPlayer {
            side,
            omniscient,
            budget,
            params,
            rng,
            heuristic,
            numbers: [HeuristicParams::default(); 2],
            styles: Style::ALL,
            styled: None,
            style: Style::STEADY,
            kept: None,
            playouts_done: None,
            value: None,
            recorder: None,
        }
    }

    /// Writes down every searched group decision into `recorder`.
    pub(crate) fn recording(mut self, recorder: Recorder) -> MctsPlayer {
        self.recorder = Some(recorder);
        self
    }

    /// The learned policy a value file carries, if any.
    fn policy(&self) -> Option<&PolicyModel> {
        self.value.as_deref().and_then(|v| v.policy.as_ref())
    }

    /// Plays (and plays out) with these numbers for Caesar and Pompey
    /// instead of the default heuristic's.
    pub(crate) fn on_numbers(mut self, numbers: [HeuristicParams; 2]) -> MctsPlayer {
        self.heuristic = self.heuristic.with_params(numbers[self.side.index()]);
        self.styles = Style::around(self.heuristic.own_style());
        self.style = self.styles[0];
        self.numbers = numbers;
        self
    }

    /// Searches by these settings instead of the defaults.
    pub(crate) fn with_settings(mut self, params: MctsParams) -> MctsPlayer {
        self.params = params;
        self.heuristic.set_holding_vp_cities(params.hold_vp_cities);
        self
    }

    /// Counts every playout into `counter` (a window shows it thinking).
    pub(crate) fn counting_playouts(mut self, counter: Arc<AtomicU64>) -> MctsPlayer {
        self.playouts_done = Some(counter);
        self
    }

    /// Stops each playout at `value`'s horizon and scores it there.
    pub(crate) fn scoring_with(mut self, value: Arc<super::ValueModel>) -> MctsPlayer {
        self.value = Some(value);
        self
    }

    /// The searched decision `legal` offers now, if any: `styled` is the
    /// (year, turn) whose style is already chosen.
    fn decision_at(
        &self,
        legal: &[Action],
        now: (u8, u8),
        styled: Option<(u8, u8)>,
    ) -> Option<Kind> {
        if legal.len() < 2 {
            return None;
        }
        if matches!(legal[0], Action::Play(_) | Action::Discard(_)) {
            return Some(Kind::Card);
        }
        if !legal.contains(&Action::EndMoves) {
            return None;
        }
        if styled != Some(now) {
            return Some(Kind::Style);
        }
        let groups = legal
            .iter()
            .any(|a| matches!(a, Action::Group(_) | Action::SeaMove { .. }));
        (self.params.groups && groups).then_some(Kind::Group)
    }

    /// One iteration on `tree`: the root choice, a sampled world, the walk
    /// down the tree, the playout, and the value backed up.
    ///
    /// The k-th visit of a root choice plays world k of the tree (drawn from
    /// `seed` and k): the root's choices are compared in the same worlds with
    /// the same dice and playout players (common random numbers), which
    /// takes most of the noise out of their differences.
    fn iterate(&self, at: &Root<'_>, seed: u64, tree: &mut Tree, scratch: &mut Scratch) {
        let Root {
            game,
            view,
            choices,
        } = *at;
        let top = tree.root;
        let e = tree.select(top, choices, self.params.c_puct);
        let k = u64::from(tree.nodes[top as usize].edges[e as usize].visits);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut world = view.sample_world(game, &mut rng);
        let mut horizon = self
            .value
            .as_deref()
            .map(|v| super::value::Horizon::for_value(&world, v));
        let seeds: [u64; 2] = [rng.random(), rng.random()];
        let mut players = Side::BOTH.map(|side| {
            HeuristicPlayer::new(side, seeds[side.index()], self.omniscient)
                .with_params(self.numbers[side.index()])
                .holding_vp_cities(side == self.side && self.params.hold_vp_cities)
        });
        let me = self.side.index();
        if let Some(when) = self.styled {
            players[me].set_turn_style(self.style, when.0, when.1);
        }
        let root_turn = (world.year(), world.turn());
        let mut styled = self.styled;
        scratch.path.clear();
        let mut step = Some((top, e));
        while let Some((n, e)) = step.take() {
            scratch.path.push((n, e));
            let edge = &tree.nodes[n as usize].edges[e as usize];
            let (choice, child) = (edge.choice, edge.node);
            let node = if child != 0 {
                Some(child)
            } else {
                // Expand: the new node is walked from the next iteration on.
                tree.nodes.push(Node::default());
                let id = (tree.nodes.len() - 1) as u32;
                tree.nodes[n as usize].edges[e as usize].node = id;
                None
            };
            let now = (world.year(), world.turn());
            match choice {
                Choice::Style(i) => {
                    styled = Some(now);
                    players[me].set_turn_style(self.styles[i], now.0, now.1);
                }
                Choice::Act(a) => world.apply(game, a),
                Choice::Plan(plan) => {
                    let action = players[me].adopt(plan);
                    world.apply(game, action);
                }
            }
            // The next searched decision of this side in the tree.
            let Some(n) = node else { break };
            while let Some(side) = world.current_player() {
                world.legal_actions(game, &mut scratch.legal);
                let now = (world.year(), world.turn());
                if now != root_turn {
                    break; // the tree spans the decision's game turn
                }
                if side == self.side
                    && let Some(kind) = self.decision_at(&scratch.legal, now, styled)
                {
                    let seen = world.view(self.side, self.omniscient);
                    let policy = self.policy();
                    candidates(
                        &self.params,
                        policy,
                        game,
                        &seen,
                        kind,
                        &mut players[me],
                        scratch,
                    );
                    let e = tree.select(n, &scratch.candidates, self.params.c_puct);
                    step = Some((n, e));
                    break;
                }
                self.heuristic_move(game, &mut world, &mut players, &mut styled, scratch);
            }
        }
        // The playout: the heuristic on both sides to the end (or the
        // learned evaluation's horizon).
        while world.current_player().is_some()
            && !horizon.as_mut().is_some_and(|h| h.reached(&world))
        {
            world.legal_actions(game, &mut scratch.legal);
            self.heuristic_move(game, &mut world, &mut players, &mut styled, scratch);
        }
        if let Some(counter) = &self.playouts_done {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        let value = super::search::score_at(self.side, game, &world, self.value.as_deref());
        tree.back_up(&scratch.path, value);
    }

    /// One heuristic decision in a playout, `scratch.legal` holding the
    /// legal actions.
    fn heuristic_move(
        &self,
        game: &Game,
        world: &mut State,
        players: &mut [HeuristicPlayer; 2],
        styled: &mut Option<(u8, u8)>,
        scratch: &Scratch,
    ) {
        let Some(side) = world.current_player() else {
            return;
        };
        let now = (world.year(), world.turn());
        if side == self.side && *styled != Some(now) && scratch.legal.contains(&Action::EndMoves) {
            *styled = Some(now); // the playout's heuristic moves steadily
        }
        let action = super::decide(&mut players[side.index()], game, world, &scratch.legal);
        world.apply(game, action);
    }

    /// Grows `tree` from `seed` until `stop` (at least two iterations).
    fn grow(&self, at: &Root<'_>, seed: u64, tree: &mut Tree, stop: Stop) {
        let mut scratch = Scratch::default();
        let mut done = 0;
        while done < 2
            || match stop {
                Stop::After(n) => done < n,
                Stop::At(deadline) => Instant::now() < deadline,
            }
        {
            self.iterate(at, seed, tree, &mut scratch);
            done += 1;
        }
    }

    /// The searched choice at the decision `view` is at, of `kind`.
    fn search(&mut self, game: &Game, view: &SideView<'_>, legal: &[Action], kind: Kind) -> Choice {
        let now = (view.year(), view.turn());
        let mut scratch = Scratch {
            legal: legal.to_vec(),
            describe: self.recorder.is_some(),
            ..Scratch::default()
        };
        let policy = self.value.clone();
        let policy = policy.as_deref().and_then(|v| v.policy.as_ref());
        candidates(
            &self.params,
            policy,
            game,
            view,
            kind,
            &mut self.heuristic,
            &mut scratch,
        );
        let root = scratch.candidates;
        let root_features = scratch.features;
        // Within one command phase the trees grown for the style and each
        // group go on to the next group: nothing but this side's own steps
        // comes between (6.1), so what they learnt below still holds.
        let kept = self
            .kept
            .take()
            .filter(|k| kind == Kind::Group && k.at == now);
        // No budget: the prior's first choice (the learned policy's, or
        // the heuristic's when there is none).
        if root.len() == 1 || self.budget == Budget::Playouts(0) {
            return root[0].0;
        }
        let seeds: Vec<u64> = (0..TREES).map(|_| self.rng.random()).collect();
        let (mut trees, share) = match kept {
            Some(k) => (k.trees, self.params.reused_share),
            None => ((0..TREES).map(|_| Tree::new()).collect(), 1.0),
        };
        let stop = match self.budget {
            Budget::Playouts(n) => Stop::After(((f64::from(n) * share) as usize).div_ceil(TREES)),
            Budget::Millis(ms) => {
                Stop::At(Instant::now() + Duration::from_millis((f64::from(ms) * share) as u64))
            }
        };
        let me = &*self;
        let at = Root {
            game,
            view,
            choices: &root,
        };
        trees
            .par_iter_mut()
            .zip(seeds.par_iter())
            .for_each(|(tree, &seed)| me.grow(&at, seed, tree, stop));
        // Root visits summed over the trees, best prior first.
        let mut total: Vec<(Choice, u32)> = root.iter().map(|c| (c.0, 0)).collect();
        for tree in &trees {
            for edge in &tree.nodes[tree.root as usize].edges {
                if let Some(t) = total.iter_mut().find(|t| t.0 == edge.choice) {
                    t.1 += edge.visits;
                }
            }
        }
        if let (Some(recorder), Kind::Group) = (&self.recorder, kind)
            && root_features.len() == total.len()
        {
            let decision = SearchedDecision {
                side: self.side,
                candidates: root_features,
                visits: total.iter().map(|t| t.1).collect(),
            };
            recorder.lock().expect("no recorder panics").push(decision);
        }
        let mut best = total[0];
        for &t in &total[1..] {
            if t.1 > best.1 {
                best = t;
            }
        }
        let choice = best.0;
        if choice != Choice::Act(Action::EndMoves) && matches!(kind, Kind::Style | Kind::Group) {
            for tree in &mut trees {
                tree.reroot(choice);
            }
            trees.retain(|t| t.root != 0);
            if trees.len() == TREES {
                self.kept = Some(Kept { trees, at: now });
            }
        }
        choice
    }
}

/// The decision every tree of a search grows from: the game, what the
/// searching side sees, and the root's choices with their priors.
struct Root<'a> {
    game: &'a Game,
    view: &'a SideView<'a>,
    choices: &'a [(Choice, f64)],
}

/// When a tree stops growing.
#[derive(Debug, Clone, Copy)]
enum Stop {
    After(usize),
    At(Instant),
}

/// Trees kept from one decision of a command phase for the next.
struct Kept {
    trees: Vec<Tree>,
    at: (u8, u8),
}

/// The candidates of a decision with their priors, best first, into
/// `scratch.candidates` (and the group plans into `scratch.plans`).
fn candidates(
    params: &MctsParams,
    policy: Option<&PolicyModel>,
    game: &Game,
    view: &SideView<'_>,
    kind: Kind,
    player: &mut HeuristicPlayer,
    scratch: &mut Scratch,
) {
    let out = &mut scratch.candidates;
    out.clear();
    let top = params.heuristic_prior;
    match kind {
        Kind::Card => {
            let legal = &scratch.legal;
            let pick = player.choose(game, *view, legal);
            let rest = (1.0 - top) / (legal.len() - 1).max(1) as f64;
            out.push((Choice::Act(pick), top));
            out.extend(
                legal
                    .iter()
                    .filter(|a| **a != pick)
                    .map(|a| (Choice::Act(*a), rest)),
            );
        }
        Kind::Style => {
            let rest = (1.0 - top) / (Style::ALL.len() - 1) as f64;
            out.extend((0..Style::ALL.len()).map(|i| {
                let p = if i == 0 { top } else { rest };
                (Choice::Style(i), p)
            }));
        }
        Kind::Group => {
            player.group_plans(
                game,
                view,
                &scratch.legal,
                MAX_GROUP_PLANS,
                &mut scratch.plans,
            );
            player.own_plans(
                game,
                view,
                &scratch.legal,
                &scratch.plans,
                params.own_moves.into(),
                &mut scratch.own,
            );
            // The heuristic's plan first, the others by rank, ending the
            // moves last (the heuristic's choice when it has no plan).
            let n = scratch.plans.len();
            if n == 0 && scratch.own.is_empty() {
                out.push((Choice::Act(Action::EndMoves), 1.0));
            } else if scratch.own.is_empty() {
                let rest = (1.0 - top) / n as f64;
                out.extend(scratch.plans.iter().enumerate().map(|(i, plan)| {
                    let p = if i == 0 { top } else { rest };
                    (Choice::Plan(*plan), p)
                }));
                out.push((Choice::Act(Action::EndMoves), rest));
            } else {
                own_moves_first(top, &scratch.plans, &scratch.own, out);
            }
            scratch.features.clear();
            if let Some(policy) = policy {
                learned_priors(policy, game, view, player, scratch);
            } else if scratch.describe {
                let described = described(scratch);
                player.candidate_features(game, view, &described, &mut scratch.features);
            }
        }
    }
}

/// Each group candidate as a plan (`None`: ending the moves) and its rank
/// among the heuristic's plans.
fn described(scratch: &Scratch) -> Vec<(Option<GroupPlan>, Option<usize>)> {
    scratch
        .candidates
        .iter()
        .map(|(c, _)| match c {
            Choice::Plan(plan) => (Some(*plan), scratch.plans.iter().position(|p| p == plan)),
            _ => (None, None),
        })
        .collect()
}

/// Orders and weighs a group decision's candidates by the learned policy
/// (best first, so progressive widening reaches what it favours first),
/// keeping their features beside them.
fn learned_priors(
    policy: &PolicyModel,
    game: &Game,
    view: &SideView<'_>,
    player: &mut HeuristicPlayer,
    scratch: &mut Scratch,
) {
    let described = described(scratch);
    player.candidate_features(game, view, &described, &mut scratch.features);
    let priors = policy.priors(view.side(), &scratch.features);
    let mut order: Vec<usize> = (0..priors.len()).collect();
    order.sort_by(|&a, &b| priors[b].total_cmp(&priors[a]));
    let (old, features) = (scratch.candidates.clone(), scratch.features.clone());
    scratch.candidates = order.iter().map(|&i| (old[i].0, priors[i])).collect();
    scratch.features = order.iter().map(|&i| features[i]).collect();
}

/// A group decision's candidates with moves of its own: the heuristic's
/// plan first (its prior `top`), then the best own move and ending the
/// moves (holding what is held), then the heuristic's and the own moves
/// alternately. Progressive widening considers the first `1 + ⌊√visits⌋`
/// only, so the own moves come early or never.
fn own_moves_first(top: f64, plans: &[GroupPlan], own: &[GroupPlan], out: &mut Vec<(Choice, f64)>) {
    let mut order: Vec<Choice> = Vec::with_capacity(plans.len() + own.len() + 1);
    let (mut h, mut o) = (plans.iter(), own.iter());
    if let Some(first) = h.next() {
        order.push(Choice::Plan(*first));
    }
    if let Some(first) = o.next() {
        order.push(Choice::Plan(*first));
    }
    order.push(Choice::Act(Action::EndMoves));
    loop {
        let (a, b) = (h.next(), o.next());
        if a.is_none() && b.is_none() {
            break;
        }
        order.extend(a.into_iter().chain(b).map(|p| Choice::Plan(*p)));
    }
    let lead = if plans.is_empty() { 0.0 } else { top };
    let rest = (1.0 - lead) / (order.len() - usize::from(!plans.is_empty())).max(1) as f64;
    out.extend(order.iter().enumerate().map(|(i, c)| {
        let p = if i == 0 && !plans.is_empty() {
            top
        } else {
            rest
        };
        (*c, p)
    }));
}

/// The kinds of searched decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Card,
    Style,
    Group,
}

impl Player for MctsPlayer {
    fn omniscient(&self) -> bool {
        self.omniscient
    }

    fn choose(&mut self, game: &Game, view: SideView<'_>, legal: &[Action]) -> Action {
        let now = (view.year(), view.turn());
        let Some(kind) = self.decision_at(legal, now, self.styled) else {
            return self.heuristic.choose(game, view, legal);
        };
        if kind == Kind::Style {
            let Choice::Style(i) = self.search(game, &view, legal, kind) else {
                unreachable!("a style decision chooses a style")
            };
            self.styled = Some(now);
            self.style = self.styles[i];
            self.heuristic.set_turn_style(self.style, now.0, now.1);
            return self.choose(game, view, legal);
        }
        if kind == Kind::Group {
            return match self.search(game, &view, legal, kind) {
                Choice::Plan(plan) => self.heuristic.adopt(plan),
                // Ending the moves, as searched: the heuristic would move
                // another group.
                Choice::Act(a) => a,
                Choice::Style(_) => unreachable!("a group decision chooses a plan or ends"),
            };
        }
        let Choice::Act(a) = self.search(game, &view, legal, kind) else {
            unreachable!("a card decision chooses a card")
        };
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{AiSpec, NotAPlayer};

    use crate::test_support::play_until;

    /// Positions with each kind of searched decision: a discard, a card
    /// play, the start of a command phase and a later group move.
    fn searched_positions(game: &Game) -> Vec<(State, Vec<Action>)> {
        let group_later = |s: &State, legal: &[Action]| {
            s.turn() >= 2
                && legal.contains(&Action::EndMoves)
                && s.command_points().is_some_and(|(left, _)| left < 3)
                && legal.iter().any(|a| matches!(a, Action::Group(_)))
        };
        vec![
            play_until(game, 3, |_, l| matches!(l[0], Action::Discard(_))),
            play_until(game, 4, |s, l| {
                s.turn() >= 2 && matches!(l[0], Action::Play(_))
            }),
            play_until(game, 5, |s, l| {
                s.turn() >= 2 && l.contains(&Action::EndMoves)
            }),
            play_until(game, 6, group_later),
        ]
    }

    fn choose(state: &State, game: &Game, legal: &[Action], seed: u64, playouts: u32) -> Action {
        let side = state.current_player().unwrap();
        let mut player = MctsPlayer::new(side, seed, false, Budget::Playouts(playouts));
        crate::ai::decide(&mut player, game, state, legal)
    }

    #[test]
    fn mcts_specs_parse_and_display_round_trip() {
        for text in ["mcts:128", "mcts:250ms", "mcts:1", "mcts:0"] {
            let spec: AiSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        let parsed = |text: &str| text.parse::<AiSpec>().ok();
        assert_eq!(parsed("mcts:128"), Some(AiSpec::Mcts { playouts: 128 }));
        assert_eq!(
            parsed("mcts:250ms"),
            Some(AiSpec::MctsTimed { millis: 250 })
        );
        assert_eq!(
            parsed("mcts"),
            Some(AiSpec::Mcts {
                playouts: AiSpec::DEFAULT_MCTS_PLAYOUTS
            })
        );
        assert_eq!(parsed("mcts:0"), Some(AiSpec::Mcts { playouts: 0 }));
        // Only a tree search's playouts may be none (its prior alone).
        for zero in ["mcts:0ms", "search:0", "search:0ms"] {
            let err = zero.parse::<AiSpec>().unwrap_err();
            assert!(matches!(err, NotAPlayer::BadBudget { .. }), "{zero}: {err}");
        }
        let err = "mcts:x".parse::<AiSpec>().unwrap_err();
        assert!(err.to_string().contains("as in mcts:64"), "{err}");
        let err = "mcts:fastms".parse::<AiSpec>().unwrap_err();
        assert!(err.to_string().contains("as in mcts:250ms"), "{err}");
        let err = "mtcs:64".parse::<AiSpec>().unwrap_err();
        assert!(matches!(err, NotAPlayer::Unknown { .. }), "{err}");
        assert!(err.to_string().contains("mcts"), "{err}");
    }

    #[test]
    fn a_decision_is_the_same_on_one_thread_and_on_two() {
        let game = crate::test_support::published("rules-2.0");
        for (state, legal) in searched_positions(&game) {
            let on = |threads: usize| {
                crate::test_support::on_threads(threads, || choose(&state, &game, &legal, 7, 16))
            };
            assert_eq!(on(1), on(2), "{}", state.stage_text(&game));
        }
    }

    #[test]
    fn own_moves_are_legal_group_moves_the_heuristic_does_not_offer_and_come_early() {
        let game = crate::test_support::published("rules-2.0");
        let params = MctsParams {
            own_moves: 4,
            ..MctsParams::default()
        };
        let mut offered = 0;
        for seed in 20..40 {
            let (state, legal) = play_until(&game, seed, |s, l| {
                s.turn() >= 2 && l.contains(&Action::EndMoves) && l.len() > 3
            });
            let side = state.current_player().unwrap();
            let view = state.view(side, false);
            let mut player = HeuristicPlayer::new(side, seed, false);
            let mut scratch = Scratch {
                legal: legal.clone(),
                ..Scratch::default()
            };
            candidates(
                &params,
                None,
                &game,
                &view,
                Kind::Group,
                &mut player,
                &mut scratch,
            );
            for plan in &scratch.own {
                assert!(legal.contains(&plan.action), "{plan:?} is not legal");
                assert!(!scratch.plans.contains(plan), "{plan:?} is the heuristic's");
            }
            if let Some(first) = scratch.own.first() {
                offered += 1;
                // Within the first three: widening reaches it after 4 visits.
                let at = scratch
                    .candidates
                    .iter()
                    .position(|c| c.0 == Choice::Plan(*first));
                assert!(at.is_some_and(|i| i < 3), "{at:?}");
                let total: f64 = scratch.candidates.iter().map(|c| c.1).sum();
                assert!((total - 1.0).abs() < 1e-9, "priors sum to {total}");
            }
            assert!(scratch.own.len() <= 4);
        }
        assert!(
            offered >= 10,
            "own moves offered in {offered} of 20 positions"
        );
    }

    #[test]
    fn the_holding_rule_never_walks_the_last_block_out_of_a_held_vp_city() {
        let game = crate::test_support::published("rules-2.0");
        let params = MctsParams {
            hold_vp_cities: true,
            ..MctsParams::default()
        };
        let mut state = State::new(&game, 4);
        let mut players = Side::BOTH.map(|side| {
            MctsPlayer::new(side, 4 + side.index() as u64, false, Budget::Playouts(4))
                .with_settings(params)
        });
        let mut legal = Vec::new();
        let mut checked = 0;
        while let Some(side) = state.current_player()
            && state.year() <= 2
        {
            state.legal_actions(&game, &mut legal);
            let a = crate::ai::decide(&mut players[side.index()], &game, &state, &legal);
            if let Action::Step { block, to } = a {
                let from = state.location(block).unwrap();
                let alone = state.blocks_at(from, side).count() == 1;
                if game.board().space(from).vp > 0 && !state.is_contested(from) && alone {
                    assert!(
                        state.blocks_at(to, side.other()).next().is_some(),
                        "{} left {} empty",
                        game.action_text(a),
                        game.space_name(from)
                    );
                }
                checked += 1;
            }
            state.apply(&game, a);
        }
        assert!(checked > 20, "{checked} steps");
    }

    #[test]
    fn every_choice_is_legal() {
        // A year and a half of play, the search on both sides.
        let game = crate::test_support::published("rules-2.0");
        let mut state = State::new(&game, 9);
        let mut players = Side::BOTH
            .map(|side| MctsPlayer::new(side, 9 + side.index() as u64, false, Budget::Playouts(4)));
        let mut legal = Vec::new();
        while let Some(side) = state.current_player()
            && state.year() <= 2
        {
            state.legal_actions(&game, &mut legal);
            let a = crate::ai::decide(&mut players[side.index()], &game, &state, &legal);
            assert!(
                legal.contains(&a),
                "{a:?} is not legal at {}",
                state.stage_text(&game)
            );
            state.apply(&game, a);
        }
        assert!(state.year() > 2 || state.is_over());
    }

    #[test]
    fn ending_the_moves_as_searched_is_played_though_group_plans_remain() {
        // The heuristic moves a group whenever it has a plan; the search may
        // judge that ending the moves (6.1) does better, and is then obeyed.
        let game = crate::test_support::published("rules-2.0");
        let mut legal = Vec::new();
        let ends_with_plans_left = |seed: u64| {
            let mut state = State::new(&game, seed);
            let mut caesar = MctsPlayer::new(Side::Caesar, seed, false, Budget::Playouts(16));
            let mut pompey = HeuristicPlayer::new(Side::Pompey, seed, false);
            while let Some(side) = state.current_player()
                && state.year() <= 5
            {
                state.legal_actions(&game, &mut legal);
                let a = if side == Side::Caesar {
                    let mut plans = Vec::new();
                    let view = state.view(side, false);
                    caesar
                        .heuristic
                        .group_plans(&game, &view, &legal, MAX_GROUP_PLANS, &mut plans);
                    let a = crate::ai::decide(&mut caesar, &game, &state, &legal);
                    if a == Action::EndMoves && !plans.is_empty() {
                        return true;
                    }
                    a
                } else {
                    crate::ai::decide(&mut pompey, &game, &state, &legal)
                };
                state.apply(&game, a);
            }
            false
        };
        assert!(
            (0..6).any(ends_with_plans_left),
            "the search never ended its moves early"
        );
    }

    #[test]
    fn hidden_information_does_not_change_the_decision() {
        let game = crate::test_support::published("rules-2.0");
        for (i, (state, legal)) in searched_positions(&game).into_iter().enumerate() {
            let side = state.current_player().unwrap();
            for redraw in 0..2u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(100 + redraw + 10 * i as u64);
                let other = state.determinize(&game, side, &mut rng);
                assert_eq!(state.view(side, false), other.view(side, false));
                assert_eq!(
                    choose(&state, &game, &legal, 11, 8),
                    choose(&other, &game, &legal, 11, 8),
                    "{}",
                    state.stage_text(&game)
                );
            }
        }
    }
}
