//! The year and the game turn (2.0): the deal and the discards (2.1), the
//! cards revealed and who is Player 1 (2.1, 2.2; 2.0's first-turn
//! exception), two events that cancel, and the end of the turn.

use rand_chacha::ChaCha8Rng;

use super::events::{GameEvent, Log, Orders, emit};
use super::{Action, CardSet, Game, Hop, NO_LINK, Phase, State, flag};
use crate::scenario::model::{CardFace, Event, Side};

impl State {
    pub(super) fn deal(&mut self, game: &Game, log: &mut impl Log) {
        use rand::seq::SliceRandom;
        let hand_size = game.rules.hand_size as usize;
        let cap = game.rules.max_events_per_hand as usize;
        if cap < hand_size {
            self.hands = deal_capped(game, hand_size, cap, self.dice.stream());
        } else {
            let mut deck = game.deck.clone();
            deck.shuffle(self.dice.stream());
            // `playable::check` guarantees two whole hands.
            self.hands = [
                deck[..hand_size].to_vec(),
                deck[hand_size..2 * hand_size].to_vec(),
            ];
        }
        self.discarded = [CardSet::EMPTY; 2];
        self.year_played = CardSet::EMPTY;
        for side in Side::BOTH {
            emit!(
                log,
                GameEvent::Dealt {
                    year: self.year,
                    side,
                    cards: self.hands[side.index()].clone(),
                }
            );
        }
        self.phase = if game.rules.discards > 0 {
            Phase::Discard(Side::Caesar)
        } else {
            Phase::PlayCard(Side::Caesar)
        };
    }

    pub(super) fn discard(&mut self, game: &Game, side: Side, action: Action, log: &mut impl Log) {
        let Action::Discard(card) = action else {
            return;
        };
        let hand = &mut self.hands[side.index()];
        if let Some(pos) = hand.iter().position(|&c| c == card) {
            hand.remove(pos);
        }
        self.discarded[side.index()].insert(card);
        if matches!(game.card(card), CardFace::Event(_)) {
            self.stats.quality.events_discarded[side.index()] += 1;
        }
        emit!(log, GameEvent::Discarded { side, card });
        let discarded = game.rules.hand_size as usize - self.hands[side.index()].len();
        self.phase = if discarded < game.rules.discards as usize {
            Phase::Discard(side)
        } else if side == Side::Caesar {
            Phase::Discard(Side::Pompey)
        } else {
            Phase::PlayCard(Side::Caesar)
        };
    }

    pub(super) fn play_card(
        &mut self,
        game: &Game,
        side: Side,
        action: Action,
        log: &mut impl Log,
    ) {
        let Action::Play(card) = action else {
            return;
        };
        let hand = &mut self.hands[side.index()];
        if let Some(pos) = hand.iter().position(|&c| c == card) {
            hand.remove(pos);
        }
        self.played[side.index()] = Some(card);
        if side == Side::Caesar {
            self.phase = Phase::PlayCard(Side::Pompey);
        } else {
            self.reveal_cards(game, log);
        }
    }

    /// 2.1: reveal, resolve Apollo, decide Player 1, cancel two events.
    /// What each played card does, Apollo resolved into the card it copies
    /// (and whether it was Apollo).
    pub(super) fn card_effects(&self, game: &Game, played: [u8; 2]) -> ([CardFace; 2], [bool; 2]) {
        let mut effect = [game.card(played[0]), game.card(played[1])];
        let mut apollo = [false, false];
        for side in Side::BOTH {
            let i = side.index();
            if effect[i] == CardFace::Event(Event::Apollo) {
                apollo[i] = true;
                let copied = match game.rules.apollo_first_turn {
                    _ if self.turn > 1 => self.last_played[side.other().index()],
                    crate::scenario::rules::ApolloFirstTurn::CopiesPreviousYear => {
                        self.last_played[side.other().index()]
                    }
                    crate::scenario::rules::ApolloFirstTurn::NoEffect => None,
                };
                if let Some(c) = copied {
                    effect[i] = c;
                }
            }
        }
        (effect, apollo)
    }

    pub(super) fn reveal_cards(&mut self, game: &Game, log: &mut impl Log) {
        let rules = &game.rules;
        let played = [
            self.played[0].expect("Caesar played"),
            self.played[1].expect("Pompey played"),
        ];
        let (effect, apollo) = self.card_effects(game, played);
        let printed_event = |i: usize| matches!(game.card(played[i]), CardFace::Event(_));
        // 2.1: two event cards played together cancel the turn; Apollo is an
        // event card whatever it copies (docs/rules-notes.md).
        let counts_as_event = printed_event;
        emit!(
            log,
            GameEvent::CardsRevealed {
                year: self.year,
                turn: self.turn,
                played,
            }
        );
        self.note_events_played(game, played, (effect, apollo), log);
        self.last_played = [Some(effect[0]), Some(effect[1])];
        self.year_played.insert(played[0]);
        self.year_played.insert(played[1]);
        let first_turn = self.year == 1 && self.turn == 1;
        if counts_as_event(0) && counts_as_event(1) {
            self.stats.events_cancelled += 1;
            if first_turn {
                self.stats.first_turn_player1 = Some(Side::Caesar);
            }
            emit!(log, GameEvent::EventsCancel);
            self.end_turn(game, log);
            return;
        }
        let player1 = player_one(rules, effect, apollo, first_turn);
        if first_turn {
            self.stats.first_turn_player1 = Some(player1);
        }
        emit!(log, GameEvent::PlayerOrder { player1 });
        self.order = [player1, player1.other()];
        for (slot, side) in self.order.into_iter().enumerate() {
            self.orders[slot] = match effect[side.index()] {
                CardFace::Command { moves, levy } => Orders::Command { moves, levy },
                CardFace::Event(Event::Apollo) => Orders::Nothing,
                CardFace::Event(e) => Orders::Event(e),
            };
        }
        self.begin_command(game, 0, log);
    }

    /// Apollo's copy told, and each event card played counted.
    fn note_events_played(
        &mut self,
        game: &Game,
        played: [u8; 2],
        (effect, apollo): ([CardFace; 2], [bool; 2]),
        log: &mut impl Log,
    ) {
        for side in Side::BOTH {
            let i = side.index();
            if apollo[i] && effect[i] != CardFace::Event(Event::Apollo) {
                emit!(
                    log,
                    GameEvent::ApolloCopies {
                        side,
                        copied: effect[i]
                    }
                );
            }
            if let CardFace::Event(e) = game.card(played[i]) {
                self.stats.events_played[e as usize] += 1;
            }
        }
    }

    /// After the battles: next turn, or winter.
    pub(super) fn end_turn(&mut self, game: &Game, log: &mut impl Log) {
        self.count_moves_undone(game);
        for (at, b) in self.board.all_marks_mut() {
            b.flags = 0;
            b.moved_steps = 0;
            b.entered_via = NO_LINK;
            b.came_from = at.loc();
        }
        self.command.end_turn();
        self.battles.end_turn();
        self.played = [None, None];
        let hands_left = self.hands[0].len().min(self.hands[1].len());
        if self.turn >= game.rules.turns_per_year || hands_left == 0 {
            self.begin_winter(game, log);
        } else {
            self.turn += 1;
            self.phase = Phase::PlayCard(Side::Caesar);
        }
    }

    /// Play quality: a block that moves back to where it came from within
    /// two game turns, with no battle in between or at either end, undid
    /// its move. Called at the end of a turn, before the flags are reset.
    pub(super) fn count_moves_undone(&mut self, game: &Game) {
        let turns = u16::from(game.rules.turns_per_year.max(1));
        let now = ((u16::from(self.year) - 1) * turns + u16::from(self.turn)).min(255) as u8;
        for (at, b) in self.board.all_marks_mut() {
            if b.has(flag::FOUGHT) || !at.on_map() {
                b.last_hop = Hop::NONE;
                continue;
            }
            if !b.has(flag::MOVED) || b.came_from == at.loc() {
                continue;
            }
            let hop = Hop {
                from: b.came_from,
                to: at.loc(),
                turn: now,
            };
            let last = b.last_hop;
            if last.turn != 0
                && now.saturating_sub(last.turn) <= 2
                && (last.from, last.to) == (hop.to, hop.from)
            {
                self.stats.quality.moves_undone[at.side().index()] += 1;
            }
            b.last_hop = hop;
        }
    }
}

/// House rule (`max_events_per_hand` below the hand size): two hands drawn
/// directly from the deals that respect the cap, each such deal as likely as
/// in a plain shuffle that happened to respect it. First the number of events
/// in each hand is drawn with its exact weight, the count of deals that give
/// it; then which events and commands, uniformly. No redealing, so the time
/// does not depend on how rare a capped deal is. `playable::check`
/// guarantees enough commands.
pub(super) fn deal_capped(
    game: &Game,
    hand: usize,
    cap: usize,
    rng: &mut ChaCha8Rng,
) -> [Vec<u8>; 2] {
    use rand::RngExt;
    use rand::seq::SliceRandom;
    let (mut events, mut commands): (Vec<u8>, Vec<u8>) = game
        .deck
        .iter()
        .partition(|c| matches!(game.card(**c), CardFace::Event(_)));
    let (e, m) = (events.len(), commands.len());
    let counts = capped_deal_counts(e, m, hand, cap);
    let top = counts.iter().map(|c| c.1).fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = counts.iter().map(|c| (c.1 - top).exp()).collect();
    let mut pick = rng.random::<f64>() * weights.iter().sum::<f64>();
    let mut chosen = counts
        .last()
        .expect("playable::check guarantees a capped deal")
        .0;
    for (c, w) in counts.iter().zip(&weights) {
        if pick < *w {
            chosen = c.0;
            break;
        }
        pick -= w;
    }
    let (e1, e2) = chosen;
    events.shuffle(rng);
    commands.shuffle(rng);
    let mut first: Vec<u8> = events[..e1]
        .iter()
        .chain(&commands[..hand - e1])
        .copied()
        .collect();
    let mut second: Vec<u8> = events[e1..e1 + e2]
        .iter()
        .chain(&commands[hand - e1..2 * hand - e1 - e2])
        .copied()
        .collect();
    first.shuffle(rng);
    second.shuffle(rng);
    [first, second]
}

/// Per pair (events in the first hand, in the second) within the cap, the
/// natural log of the number of deals giving it, from `e` events and `m`
/// commands in the deck.
fn capped_deal_counts(e: usize, m: usize, hand: usize, cap: usize) -> Vec<((usize, usize), f64)> {
    // ln n! for n up to the deck size (at most 256 cards).
    let mut ln_fact = vec![0.0f64; e + m + 1];
    for n in 1..ln_fact.len() {
        ln_fact[n] = ln_fact[n - 1] + (n as f64).ln();
    }
    let ln_choose = |n: usize, k: usize| ln_fact[n] - ln_fact[k] - ln_fact[n - k];
    // Deals with e1 events in the first hand and e2 in the second.
    let mut counts: Vec<((usize, usize), f64)> = Vec::new();
    for e1 in 0..=cap.min(e) {
        for e2 in 0..=cap.min(e - e1) {
            let (c1, c2) = (hand - e1, hand - e2);
            if c1 + c2 > m {
                continue;
            }
            let ln =
                ln_choose(e, e1) + ln_choose(e - e1, e2) + ln_choose(m, c1) + ln_choose(m - c1, c2);
            counts.push(((e1, e2), ln));
        }
    }
    counts
}

/// Who is Player 1 (2.1) given what each card does: Caesar on the game's
/// first turn where the rule set says so; else the event player; else the
/// higher move, Caesar on ties.
pub(super) fn player_one(
    rules: &crate::scenario::rules::RuleSet,
    effect: [CardFace; 2],
    apollo: [bool; 2],
    first_turn: bool,
) -> Side {
    let moves = |i: usize| match effect[i] {
        CardFace::Command { moves, .. } => moves,
        CardFace::Event(_) => 0,
    };
    let decides_event = |i: usize| {
        if apollo[i] && !rules.apollo_copy_decides_player1 {
            true
        } else {
            matches!(effect[i], CardFace::Event(_))
        }
    };
    if first_turn && rules.caesar_player1_first_turn {
        Side::Caesar
    } else if decides_event(0) != decides_event(1) {
        // The event player is Player 1.
        if decides_event(0) {
            Side::Caesar
        } else {
            Side::Pompey
        }
    } else if moves(1) > moves(0) {
        Side::Pompey
    } else {
        Side::Caesar // higher move, Caesar on ties
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    use super::*;
    use crate::scenario::model::SpaceId;

    fn events_in(game: &Game, hand: &[u8]) -> usize {
        hand.iter()
            .filter(|c| matches!(game.card(**c), CardFace::Event(_)))
            .count()
    }

    /// The direct draw gives each capped deal the chance a plain shuffle that
    /// happened to respect the cap would: the event counts of the two hands
    /// match those of redealing until the cap holds (the engine's old way).
    #[test]
    fn capped_deals_are_distributed_as_redealt_ones() {
        let game = crate::test_support::published("house-2.0-max-2-events");
        let (hand, cap) = (6, 1);
        let samples = 20_000;
        let mut direct = [[0u32; 2]; 2];
        let mut redealt = [[0u32; 2]; 2];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..samples {
            let [a, b] = deal_capped(&game, hand, cap, &mut rng);
            assert_eq!((a.len(), b.len()), (hand, hand));
            let mut all: Vec<u8> = a.iter().chain(&b).copied().collect();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 2 * hand, "no card is dealt twice");
            direct[events_in(&game, &a)][events_in(&game, &b)] += 1;
            let mut deck = game.deck.clone();
            loop {
                deck.shuffle(&mut rng);
                let (a, b) = (&deck[..hand], &deck[hand..2 * hand]);
                let (ea, eb) = (events_in(&game, a), events_in(&game, b));
                if ea <= cap && eb <= cap {
                    redealt[ea][eb] += 1;
                    break;
                }
            }
        }
        for i in 0..2 {
            for j in 0..2 {
                let (d, r) = (direct[i][j] as f64, redealt[i][j] as f64);
                // About four standard errors of a 20,000-sample share.
                assert!(
                    (d - r).abs() / samples as f64 <= 0.015,
                    "{i} and {j} events: direct {d}, redealt {r}"
                );
            }
        }
    }

    #[test]
    fn a_move_back_within_two_turns_without_a_battle_counts_as_undone() {
        let game = crate::test_support::published("rules-2.0");
        let mut state = State::new(&game, 1);
        let b = state.board.on_map(Side::Caesar).iter().next().unwrap();
        let here = state.board.block(b).loc();
        let there = game.board().neighbours(SpaceId(here))[0].to.0;
        let hop = |state: &mut State, turn: u8, from: u16, to: u16, flags: u8| {
            state.turn = turn;
            state.set_loc(&game, b, to);
            let s = state.board.marks_mut(b);
            (s.came_from, s.flags) = (from, flag::MOVED | flags);
            state.count_moves_undone(&game);
            state.board.marks_mut(b).flags = 0;
            state.stats.quality.moves_undone[0]
        };
        assert_eq!(hop(&mut state, 1, here, there, 0), 0);
        assert_eq!(hop(&mut state, 2, there, here, 0), 1, "back the next turn");
        assert_eq!(hop(&mut state, 5, here, there, 0), 1, "three turns on");
        assert_eq!(
            hop(&mut state, 6, there, here, flag::FOUGHT),
            1,
            "into a battle"
        );
        assert_eq!(hop(&mut state, 7, here, there, 0), 1, "after a battle");
        assert_eq!(hop(&mut state, 8, there, here, 0), 2);
    }
}
