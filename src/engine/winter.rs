//! The winter turn (8.0): Cleopatra goes home, victory, navis to port, supply,
//! disbanding, and the year reset.

use super::events::{GameEvent, Log, emit};
use super::{Action, ELIMINATED, EndReason, Game, Outcome, POOL, Phase, SpaceSet, State};
use crate::scenario::model::{BlockId, SpaceId};
use crate::scenario::model::{BlockKind, Side};
use crate::scenario::rules::ApolloFirstTurn;

impl State {
    pub(super) fn begin_winter(&mut self, game: &Game, log: &mut impl Log) {
        emit!(log, GameEvent::WinterBegins { year: self.year });
        self.cleopatra_goes_home(game, log);
        // 8.2 / 1.2: victory.
        let vp = self.vp(game);
        self.stats.vp_by_year.push(vp);
        let target = game.rules.vp_to_win as u32;
        let leader = match vp[0].cmp(&vp[1]) {
            std::cmp::Ordering::Greater => Some(Side::Caesar),
            std::cmp::Ordering::Less => Some(Side::Pompey),
            std::cmp::Ordering::Equal => None,
        };
        let decided =
            (vp[0].max(vp[1]) >= target && leader.is_some()) || self.year >= game.rules.years;
        emit!(
            log,
            GameEvent::VictoryCheck {
                year: self.year,
                vp,
                target,
                decided,
            }
        );
        if vp[0].max(vp[1]) >= target && leader.is_some() {
            return self.end_game(leader, EndReason::SuddenDeath, vp, log);
        }
        if self.year >= game.rules.years {
            return match leader {
                Some(w) => self.end_game(Some(w), EndReason::VictoryPoints, vp, log),
                None => {
                    let rome = game
                        .rome
                        .and_then(|r| Side::BOTH.into_iter().find(|s| self.is_friendly(r, *s)));
                    match rome {
                        Some(w) => self.end_game(Some(w), EndReason::RomeTieBreak, vp, log),
                        None => self.end_game(None, EndReason::Draw, vp, log),
                    }
                }
            };
        }
        self.phase = Phase::WinterNavis(Side::Caesar);
        self.settle_winter_navis(game, log);
    }

    /// 8.1: Cleopatra, on the map, goes home to Alexandria; she joins
    /// whoever holds it.
    fn cleopatra_goes_home(&mut self, game: &Game, log: &mut impl Log) {
        if let (Some(cleo), Some(alex)) = (game.cleopatra, game.alexandria)
            && self.board.block(cleo).on_map()
        {
            let side = self.board.block(cleo).side();
            if self.is_friendly(alex, side.other()) {
                self.set_side(game, cleo, side.other());
                emit!(
                    log,
                    GameEvent::CleopatraReturns {
                        block: cleo,
                        side,
                        joins: Some(side.other())
                    }
                );
            } else if self.board.block(cleo).loc() != alex.0 {
                emit!(
                    log,
                    GameEvent::CleopatraReturns {
                        block: cleo,
                        side,
                        joins: None
                    }
                );
            }
            self.set_loc(game, cleo, alex.0);
        }
    }

    fn end_game(&mut self, winner: Option<Side>, how: EndReason, vp: [u32; 2], log: &mut impl Log) {
        self.outcome = Some(Outcome {
            winner,
            how,
            vp,
            year: self.year,
        });
        self.phase = Phase::Over;
        emit!(log, GameEvent::GameOver { winner, how, vp });
    }

    /// The first navis of the side still at sea, and the friendly ports it may reach.
    fn navis_at_sea(&self, game: &Game, side: Side) -> Option<(BlockId, Vec<SpaceId>)> {
        if self.board.occupied_by(side).and(game.seas) == SpaceSet::default() {
            return None;
        }
        let id = self
            .board
            .on_map(side)
            .iter()
            .find(|id| game.seas.contains(SpaceId(self.board.block(*id).loc())))?;
        let ports = game
            .board()
            .ports_of(SpaceId(self.board.block(id).loc()))
            .filter(|p| self.is_friendly(*p, side))
            .collect();
        Some((id, ports))
    }

    /// 8.3: navis with no friendly port are disbanded; one port moves at once.
    fn settle_winter_navis(&mut self, game: &Game, log: &mut impl Log) {
        loop {
            let Phase::WinterNavis(side) = self.phase else {
                return;
            };
            match self.navis_at_sea(game, side) {
                Some((b, ports)) if ports.is_empty() => {
                    emit!(log, GameEvent::NavisLost { side, block: b });
                    self.disband(game, b);
                }
                Some((b, ports)) if ports.len() == 1 => {
                    emit!(
                        log,
                        GameEvent::NavisToPort {
                            side,
                            block: b,
                            to: ports[0],
                            chosen: false,
                        }
                    );
                    self.set_loc(game, b, ports[0].0);
                }
                Some(_) => return,
                None if side == Side::Caesar => self.phase = Phase::WinterNavis(Side::Pompey),
                None => {
                    self.phase = Phase::WinterSupply(Side::Caesar);
                    return;
                }
            }
        }
    }

    /// 8.3–8.5: back to the printed owner's pool (a Jupiter defector too).
    fn disband(&mut self, game: &Game, b: BlockId) {
        self.set_loc(game, b, POOL);
        self.set_side(game, b, game.roster().block(b).side);
        self.set_steps(game, b, 0);
        self.board.marks_mut(b).flags = 0;
    }

    pub(super) fn winter_navis_actions(&self, game: &Game, out: &mut Vec<Action>) {
        let Phase::WinterNavis(side) = self.phase else {
            return;
        };
        if let Some((b, ports)) = self.navis_at_sea(game, side) {
            out.extend(
                ports
                    .into_iter()
                    .map(|to| Action::NavisToPort { block: b, to }),
            );
        }
    }

    pub(super) fn winter_navis_apply(&mut self, game: &Game, action: Action, log: &mut impl Log) {
        if let Action::NavisToPort { block, to } = action {
            emit!(
                log,
                GameEvent::NavisToPort {
                    side: self.side(block),
                    block,
                    to,
                    chosen: true,
                }
            );
            self.set_loc(game, block, to.0);
            self.settle_winter_navis(game, log);
        }
    }

    /// 8.4: a city holding more of the side's blocks than it supplies.
    fn oversupplied(&self, game: &Game, side: Side, city: SpaceId) -> bool {
        let space = game.board().space(city);
        space.kind.is_city()
            && self.board.forces(side)[city.index()].blocks
                > space.winter_supply(game.rules.winter_supply_base)
    }

    pub(super) fn winter_supply_actions(&self, game: &Game, out: &mut Vec<Action>) {
        let Phase::WinterSupply(side) = self.phase else {
            return;
        };
        let over: SpaceSet = self
            .board
            .occupied_by(side)
            .iter()
            .filter(|s| self.oversupplied(game, side, *s))
            .collect();
        let any_over = over != SpaceSet::default();
        for id in self.board.on_map(side).iter() {
            let b = self.board.block(id);
            if game.roster().block(id).kind == BlockKind::Cleopatra {
                continue; // never disbanded
            }
            // 8.4 first; then 8.5 lets any block be disbanded.
            if !any_over || over.contains(SpaceId(b.loc())) {
                out.push(Action::Disband(id));
            }
        }
        if !any_over || out.is_empty() {
            out.push(Action::EndWinter);
        }
    }

    pub(super) fn winter_supply_apply(&mut self, game: &Game, action: Action, log: &mut impl Log) {
        let Phase::WinterSupply(side) = self.phase else {
            return;
        };
        match action {
            Action::Disband(b) => {
                emit!(log, GameEvent::Disbanded { side, block: b });
                self.disband(game, b);
            }
            Action::EndWinter => {
                if side == Side::Caesar {
                    self.phase = Phase::WinterSupply(Side::Pompey);
                } else {
                    self.new_year(game, log);
                }
            }
            _ => {}
        }
    }

    /// 8.6: face-up blocks return to the pools; shuffle and deal.
    fn new_year(&mut self, game: &Game, log: &mut impl Log) {
        for i in 0..self.board.blocks().len() {
            if self.board.blocks()[i].loc() == ELIMINATED {
                self.set_loc(game, BlockId(i as u8), POOL);
            }
        }
        self.year += 1;
        self.turn = 1;
        if game.rules.apollo_first_turn == ApolloFirstTurn::NoEffect {
            self.last_played = [None, None];
        }
        self.deal(game, log);
    }
}
