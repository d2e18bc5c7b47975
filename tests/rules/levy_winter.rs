//! Constructed positions, under both rulebooks, for straits (4.32), stacking
//! (6.15), navis and amphibious movement (6.2, 6.3), levies (6.4), the levy
//! pool (5.2), the winter turn (8.1–8.6) and the end of the game (1.2).
//!
//! Positions are custom deployments of the published game; the turns are
//! driven through the public engine interface, other turns being passed.

use crate::common;
use common::{Placement, block, space};

use caesar_workbench::engine::{Action, EndReason, Game, Place, State};
use caesar_workbench::scenario::model::{BlockId, CardFace, SpaceId};
use caesar_workbench::scenario::model::{Event, Side};
use caesar_workbench::scenario::rules::RuleSet;

use Side::{Caesar, Pompey};

const BOTH: [&str; 2] = ["rules-1.1", "rules-2.0"];

fn is_event(game: &Game, card: u8) -> bool {
    matches!(game.card(card), CardFace::Event(_))
}

/// Jupiter and Vulcan change the position; passing players avoid them.
fn is_harmful(game: &Game, card: u8) -> bool {
    matches!(
        game.card(card),
        CardFace::Event(Event::Jupiter | Event::Vulcan)
    )
}

/// The card to throw away from `hand`, never `keep`: Jupiter or Vulcan,
/// then another event, then any card.
fn throwaway(game: &Game, hand: &[u8], keep: Option<u8>) -> u8 {
    let others: Vec<u8> = hand.iter().copied().filter(|c| Some(*c) != keep).collect();
    others
        .iter()
        .copied()
        .find(|c| is_harmful(game, *c))
        .or_else(|| others.iter().copied().find(|c| is_event(game, *c)))
        .unwrap_or(others[0])
}

/// `common::position` with no event card ever dealt (house rule
/// `max_events_per_hand: 0`): passing players then never have to play
/// Jupiter or Vulcan, so every year passes quietly whatever the shuffle.
/// Only the deals change; the rules tested here (levies, winter) do not
/// look at the cards.
fn position(variant: &str, blocks: &[Placement], strengths: &[(Side, &str, u8)]) -> Game {
    position_with(variant, blocks, strengths, |_| {})
}

fn position_with(
    variant: &str,
    blocks: &[Placement],
    strengths: &[(Side, &str, u8)],
    tweak: impl FnOnce(&mut RuleSet),
) -> Game {
    common::position_with(variant, blocks, strengths, |r| {
        r.max_events_per_hand = 0;
        tweak(r)
    })
}

/// Command cards as printed, in the order `caesar_first` tries them:
/// two moves first (a move, and the levy after it), one move last.
const COMMANDS: [&str; 8] = ["2/2", "2/3", "2/1", "3/1", "3/2", "4/1", "1/2", "1/3"];

/// Year 1 of `game`'s deployment at the card play: five command cards each
/// (the discards made), so the year passes quietly.
fn quiet_start(game: &Game, seed: u64) -> State {
    let mut p = common::deployed(game);
    let c = common::cards(game, &["2/2", "2/3", "2/1", "3/1", "1/2"]);
    let pc = common::cards_avoiding(game, &["2/2", "2/3", "2/1", "3/1", "1/3"], &c);
    let taken: Vec<u8> = c.iter().chain(&pc).copied().collect();
    let discards = common::cards_avoiding(game, &["2/2", "2/3"], &taken);
    p.hands = [c, pc];
    p.discarded = [vec![discards[0]], vec![discards[1]]];
    p.seed = seed;
    common::start(game, &p)
}

/// The first turn with Caesar as Player 1 under either rulebook, playing
/// the first command card of `COMMANDS` accepted by `caesar`
/// (`moves`, `levy`) against a Pompey card of one move, each holding four
/// command cards besides: the state at Caesar's first decision. Later
/// chance (shuffles, dice) comes from `seed`.
fn caesar_first(game: &Game, seed: u64, caesar: impl Fn(u8, u8) -> bool) -> Option<State> {
    let c = COMMANDS.into_iter().find(|name| {
        let (m, l) = name.split_once('/').unwrap();
        caesar(m.parse().unwrap(), l.parse().unwrap())
    })?;
    let p = if c == "1/2" { "1/3" } else { "1/2" };
    let hand: &[&str] = &["2/2", "2/3", "2/1", "3/1"];
    let mut s = common::command_turn(game, c, p, [hand, hand], &[]);
    s.reseed(seed);
    assert_eq!(s.player1(), Caesar);
    assert_eq!(s.current_player(), Some(Caesar));
    Some(s)
}

/// The position reached: every stated position reaches it (the helper's
/// name is kept from when seeds were searched; seed 0 is used).
fn with_some_seed<T>(what: &str, mut f: impl FnMut(u64) -> Option<T>) -> T {
    f(0).unwrap_or_else(|| panic!("the stated position does not give {what}"))
}

fn legal(game: &Game, s: &State) -> Vec<Action> {
    let mut out = Vec::new();
    s.legal_actions(game, &mut out);
    out
}

/// A decision of the winter turn (8.3–8.5).
fn is_winter(legal: &[Action]) -> bool {
    legal.iter().any(|a| {
        matches!(
            a,
            Action::NavisToPort { .. } | Action::Disband(_) | Action::EndWinter
        )
    })
}

/// What a passing player does: no moves, no levies, no event with an
/// effect (`None` when Jupiter or Vulcan would have to strike), the first
/// choice in winter (surplus blocks first).
fn pass_action(game: &Game, s: &State, legal: &[Action]) -> Option<Action> {
    if legal
        .iter()
        .any(|a| matches!(a, Action::JupiterAt(_) | Action::VulcanCity(_)))
    {
        return None;
    }
    let has = |a: Action| legal.contains(&a);
    let cards: Vec<u8> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Play(c) | Action::Discard(c) => Some(*c),
            _ => None,
        })
        .collect();
    Some(match legal[0] {
        Action::Discard(_) => Action::Discard(throwaway(game, &cards, None)),
        Action::Play(_) => {
            let side = s.current_player()?;
            let command = cards.iter().copied().find(|c| !is_event(game, *c));
            let event = cards
                .iter()
                .copied()
                .filter(|c| is_event(game, *c))
                .max_by_key(|c| is_harmful(game, *c));
            let caesar_event = s
                .view(Pompey, true)
                .played(Caesar)
                .is_some_and(|c| is_event(game, c));
            // Pompey answers an event with an event: both are cancelled.
            let card = if side == Pompey && caesar_event {
                event.or(command)
            } else {
                command.or(event)
            }?;
            Action::Play(card)
        }
        _ if has(Action::PassEvent) => Action::PassEvent,
        _ if has(Action::EndGroup) => Action::EndGroup,
        _ if has(Action::EndMoves) => Action::EndMoves,
        _ if has(Action::EndLevy) => Action::EndLevy,
        _ if has(Action::EndWinter) => Action::EndWinter,
        _ if has(Action::Fire) => Action::Fire,
        first => first,
    })
}

/// Passes until `stop` holds or the game is over; `None` if an event
/// would have changed the position.
fn pass_until(
    game: &Game,
    mut s: State,
    stop: impl Fn(&State, &[Action]) -> bool,
) -> Option<State> {
    let mut legal = Vec::new();
    for _ in 0..10_000 {
        if s.is_over() {
            return Some(s);
        }
        s.legal_actions(game, &mut legal);
        if stop(&s, &legal) {
            return Some(s);
        }
        let a = pass_action(game, &s, &legal)?;
        s.apply(game, a);
    }
    panic!("passing never reached the stop");
}

/// Passes to the first decision of this year's winter (or the game's end).
fn to_winter(game: &Game, s: State) -> Option<State> {
    pass_until(game, s, |_, legal| is_winter(legal))
}

/// Passes to the first card of the next year (or the game's end).
fn to_next_year(game: &Game, s: State) -> Option<State> {
    let year = s.year();
    pass_until(game, s, move |s, _| s.year() > year)
}

fn steps_to(legal: &[Action], b: BlockId) -> Vec<SpaceId> {
    let mut out: Vec<SpaceId> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Step { block, to } if *block == b => Some(*to),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

fn names(game: &Game, spaces: &[SpaceId]) -> Vec<String> {
    let mut out: Vec<String> = spaces
        .iter()
        .map(|s| game.space_name(*s).to_string())
        .collect();
    out.sort();
    out
}

fn sorted(items: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    out.sort();
    out
}

// ------------------------------------------------------------------ 4.32

/// Moves the blocks of the group from `from` into `to` one at a time while
/// the engine allows; returns how many entered.
fn cross(game: &Game, s: &mut State, from: SpaceId, to: SpaceId, blocks: &[BlockId]) -> usize {
    s.try_apply(game, Action::Group(from)).unwrap();
    let mut entered = 0;
    for b in blocks {
        if s.try_apply(game, Action::Step { block: *b, to }).is_ok() {
            entered += 1;
        }
    }
    s.try_apply(game, Action::EndGroup).unwrap();
    entered
}

#[test]
fn rule_4_32_strait_crossings_count_in_both_directions() {
    // Two land blocks a turn cross the Messana strait, whichever way they go.
    for variant in BOTH {
        let game = position(
            variant,
            &[
                (Caesar, "Legio 17", "Rhegium"),
                (Caesar, "Legio 18", "Rhegium"),
                (Caesar, "Legio 20", "Messana"),
            ],
            &[],
        );
        let (rh, me) = (space(&game, "Rhegium"), space(&game, "Messana"));
        let [l17, l18, l20] =
            ["Legio 17", "Legio 18", "Legio 20"].map(|name| block(&game, Caesar, name));
        let mut s = with_some_seed("a 3-move card", |seed| {
            caesar_first(&game, seed, |m, _| m >= 3)
        });
        assert_eq!(cross(&game, &mut s, rh, me, &[l17]), 1, "{variant}");
        assert_eq!(cross(&game, &mut s, me, rh, &[l20]), 1, "{variant}");
        assert_eq!(cross(&game, &mut s, rh, me, &[l18]), 0, "{variant}");
    }
}

#[test]
fn rule_4_32_two_land_blocks_cross_a_strait_one_when_the_far_city_is_enemy_or_contested() {
    for variant in BOTH {
        let rhegium = [
            (Caesar, "Legio 17", "Rhegium"),
            (Caesar, "Legio 18", "Rhegium"),
            (Caesar, "Legio 19", "Rhegium"),
        ];
        let run = |extra: &[Placement], attack_first: bool| -> usize {
            let blocks: Vec<Placement> = rhegium.iter().chain(extra).copied().collect();
            let game = position(variant, &blocks, &[]);
            let (rh, me, sy) = (
                space(&game, "Rhegium"),
                space(&game, "Messana"),
                space(&game, "Syracusae"),
            );
            let legions: Vec<BlockId> = rhegium
                .iter()
                .map(|(side, name, _)| block(&game, *side, name))
                .collect();
            let mut s = with_some_seed("a 2-move card", |seed| {
                caesar_first(&game, seed, |m, _| m >= 2)
            });
            if attack_first {
                // Messana becomes contested by an attack along the road from Syracusae.
                let l20 = block(&game, Caesar, "Legio 20");
                assert_eq!(cross(&game, &mut s, sy, me, &[l20]), 1);
                assert!(s.is_contested(me));
            }
            cross(&game, &mut s, rh, me, &legions)
        };
        assert_eq!(run(&[], false), 2, "{variant}: vacant Messana");
        assert_eq!(
            run(&[(Caesar, "Legio 20", "Messana")], false),
            2,
            "{variant}: friendly Messana"
        );
        assert_eq!(
            run(&[(Pompey, "Legio 37", "Messana")], false),
            1,
            "{variant}: enemy Messana"
        );
        assert_eq!(
            run(
                &[
                    (Pompey, "Legio 37", "Messana"),
                    (Caesar, "Legio 20", "Syracusae")
                ],
                true
            ),
            1,
            "{variant}: contested Messana"
        );
    }
}

// ------------------------------------------------------------ 6.15, 8.4

#[test]
fn rule_6_15_no_stacking_limit_during_the_year_winter_supply_disbands_the_surplus() {
    for variant in BOTH {
        let game = position(
            variant,
            &[
                (Caesar, "Antonius", "Genua"),
                (Caesar, "Legio 7", "Massilia"),
                (Caesar, "Legio 8", "Massilia"),
                (Caesar, "Legio 9", "Massilia"),
                (Caesar, "Legio 10", "Massilia"),
                (Caesar, "Legio 11", "Ravenna"),
                (Caesar, "Legio 12", "Ravenna"),
                (Caesar, "Legio 13", "Ravenna"),
                (Caesar, "Legio 14", "Ravenna"),
                (Pompey, "Pompey", "Brundisium"),
            ],
            &[],
        );
        let genua = space(&game, "Genua");
        let s = with_some_seed("two moves, then a quiet year", |seed| {
            let mut s = caesar_first(&game, seed, |m, _| m >= 2)?;
            for from in ["Massilia", "Ravenna"] {
                let from = space(&game, from);
                let group: Vec<BlockId> = s.blocks_at(from, Caesar).collect();
                assert_eq!(cross(&game, &mut s, from, genua, &group), 4, "{variant}");
            }
            assert_eq!(s.blocks_at(genua, Caesar).count(), 9, "{variant}: 6.15");
            to_winter(&game, s)
        });
        // 8.4: Genua (no VP) supplies 3; Caesar disbands six, his choice.
        assert_eq!(s.current_player(), Some(Caesar));
        let here: Vec<BlockId> = s.blocks_at(genua, Caesar).collect();
        assert_eq!(
            here.len(),
            9,
            "{variant}: still nine at the start of winter"
        );
        let mut s = s;
        for (i, b) in here.iter().take(6).enumerate() {
            let legal = legal(&game, &s);
            assert!(
                !legal.contains(&Action::EndWinter),
                "{variant}: surplus left"
            );
            let mut offered: Vec<BlockId> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Disband(b) => Some(*b),
                    _ => None,
                })
                .collect();
            offered.sort();
            assert_eq!(offered, here[i..].to_vec(), "{variant}: any Genua block");
            s.try_apply(&game, Action::Disband(*b)).unwrap();
            assert_eq!(s.place(*b), Place::Pool, "{variant}: back to the pool");
        }
        assert!(legal(&game, &s).contains(&Action::EndWinter), "{variant}");
        assert_eq!(s.blocks_at(genua, Caesar).count(), 3);
    }
}

fn disband_offers(legal: &[Action]) -> Vec<BlockId> {
    let mut out: Vec<BlockId> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Disband(b) => Some(*b),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

#[test]
fn rule_8_4_a_city_supplies_three_blocks_plus_its_vp_navis_and_cleopatra_count() {
    for variant in BOTH {
        let game = position(
            variant,
            &[
                // Roma (2 VP) supplies 5: six blocks, one too many.
                (Caesar, "Legio 7", "Roma"),
                (Caesar, "Legio 8", "Roma"),
                (Caesar, "Legio 9", "Roma"),
                (Caesar, "Legio 10", "Roma"),
                (Caesar, "Legio 11", "Roma"),
                (Caesar, "Legio 12", "Roma"),
                // Massilia (1 VP) supplies 4: three blocks and a navis in port.
                (Caesar, "Legio 13", "Massilia"),
                (Caesar, "Legio 14", "Massilia"),
                (Caesar, "Legio 16", "Massilia"),
                (Caesar, "Navis 1", "Massilia"),
                // Genua supplies 3: three blocks; the navis wintering there (8.3)
                // makes four.
                (Caesar, "Antonius", "Genua"),
                (Caesar, "Legio 17", "Genua"),
                (Caesar, "Legio 18", "Genua"),
                (Caesar, "Navis 2", "Mare Hispanum"),
                // Alexandria (2 VP) supplies 5: Cleopatra and five blocks.
                (Pompey, "Cleopatra", "Alexandria"),
                (Pompey, "Legio 38", "Alexandria"),
                (Pompey, "Legio 1", "Alexandria"),
                (Pompey, "Legio 2", "Alexandria"),
                (Pompey, "Legio 3", "Alexandria"),
                (Pompey, "Navis 2", "Alexandria"),
                // Brundisium supplies 3.
                (Pompey, "Legio 4", "Brundisium"),
                (Pompey, "Legio 5", "Brundisium"),
                (Pompey, "Legio 6", "Brundisium"),
            ],
            &[],
        );
        let at = |s: &State, name: &str, side: Side| -> Vec<BlockId> {
            let mut v: Vec<BlockId> = s.blocks_at(space(&game, name), side).collect();
            v.sort();
            v
        };
        let s = with_some_seed("a quiet year", |seed| {
            to_winter(&game, quiet_start(&game, seed))
        });
        // 8.3 went first: the navis on Mare Hispanum is in Genua, its only
        // friendly port (Massilia is friendly too: it had a choice).
        let navis2 = block(&game, Caesar, "Navis 2");
        let mut s = s;
        if legal(&game, &s)
            .iter()
            .any(|a| matches!(a, Action::NavisToPort { .. }))
        {
            s.try_apply(
                &game,
                Action::NavisToPort {
                    block: navis2,
                    to: space(&game, "Genua"),
                },
            )
            .unwrap();
        }
        assert_eq!(s.location(navis2), Some(space(&game, "Genua")));
        assert_eq!(s.current_player(), Some(Caesar), "{variant}: Caesar first");
        let roma = at(&s, "Roma", Caesar);
        let genua = at(&s, "Genua", Caesar);
        let mut surplus: Vec<BlockId> = roma.iter().chain(&genua).copied().collect();
        surplus.sort();
        assert_eq!(
            disband_offers(&legal(&game, &s)),
            surplus,
            "{variant}: only blocks of over-supplied cities, not Massilia's"
        );
        // The owner picks: the navis leaves Genua, a legion leaves Roma.
        s.try_apply(&game, Action::Disband(navis2)).unwrap();
        assert!(!legal(&game, &s).contains(&Action::EndWinter));
        assert_eq!(disband_offers(&legal(&game, &s)), roma, "{variant}");
        s.try_apply(&game, Action::Disband(roma[5])).unwrap();
        // 8.5: now any block may still be disbanded, or the winter ended.
        let l = legal(&game, &s);
        assert!(l.contains(&Action::EndWinter), "{variant}");
        assert_eq!(disband_offers(&l).len(), 5 + 4 + 3, "{variant}: 8.5");
        s.try_apply(&game, Action::EndWinter).unwrap();
        assert_eq!(s.current_player(), Some(Pompey), "{variant}");
        let cleopatra = block(&game, Pompey, "Cleopatra");
        let mut alexandria = at(&s, "Alexandria", Pompey);
        alexandria.retain(|b| *b != cleopatra);
        assert_eq!(
            disband_offers(&legal(&game, &s)),
            alexandria,
            "{variant}: Cleopatra counts for supply but is never disbanded"
        );
        s.try_apply(&game, Action::Disband(alexandria[0])).unwrap();
        assert!(legal(&game, &s).contains(&Action::EndWinter));
        assert!(
            !disband_offers(&legal(&game, &s)).contains(&cleopatra),
            "{variant}: 8.5 Cleopatra is never disbanded"
        );
        for b in [navis2, roma[5], alexandria[0]] {
            assert_eq!(s.place(b), Place::Pool, "{variant}");
        }
    }
}

// ------------------------------------------------------------------- 6.2

fn groups(legal: &[Action]) -> Vec<SpaceId> {
    let mut out: Vec<SpaceId> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Group(s) => Some(*s),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

#[test]
fn rule_6_2_navis_example_1_from_massilia_by_sea_only_never_port_to_port() {
    for variant in BOTH {
        let game = position(
            variant,
            &[
                (Caesar, "Navis 1", "Massilia"),
                (Caesar, "Legio 11", "Massilia"),
                (Pompey, "Legio 5", "Tarraco"),
            ],
            &[],
        );
        let navis = block(&game, Caesar, "Navis 1");
        let legio = block(&game, Caesar, "Legio 11");
        let mut s = with_some_seed("a move", |seed| caesar_first(&game, seed, |m, _| m >= 1));
        // One MP moves the city's group, navis included.
        s.try_apply(&game, Action::Group(space(&game, "Massilia")))
            .unwrap();
        let l = legal(&game, &s);
        assert_eq!(
            names(&game, &steps_to(&l, navis)),
            sorted(&["Mare Hispanum"]),
            "{variant}: a navis leaves a port only for its sea"
        );
        assert_eq!(
            names(&game, &steps_to(&l, legio)),
            sorted(&["Genua", "Lugdunum", "Narbo"]),
            "{variant}: land blocks never go to sea"
        );
        s.try_apply(
            &game,
            Action::Step {
                block: navis,
                to: space(&game, "Mare Hispanum"),
            },
        )
        .unwrap();
        // A land block of the group does not come back either (6.1).
        s.try_apply(
            &game,
            Action::Step {
                block: legio,
                to: space(&game, "Narbo"),
            },
        )
        .unwrap();
        assert_eq!(
            names(&game, &steps_to(&legal(&game, &s), legio)),
            sorted(&["Burdigala"]),
            "{variant}: not back to Massilia, no attack on Tarraco"
        );
        // Then the adjacent seas, or any other friendly or vacant port on
        // Mare Hispanum: not Tarraco (an attack on the second move), not
        // back to Massilia.
        assert_eq!(
            names(&game, &steps_to(&legal(&game, &s), navis)),
            sorted(&[
                "Oceanus Atlanticus",
                "Mare Tyrrhenum",
                "Utica",
                "Caralis",
                "Iomnium",
                "Siga",
                "Tingis",
                "Carthago Nova",
                "Narbo",
                "Genua",
            ]),
            "{variant}"
        );
    }
}

#[test]
fn rule_6_2_navis_example_2_from_mare_internum_one_move_to_attack() {
    for variant in BOTH {
        let game = position(
            variant,
            &[
                (Caesar, "Navis 1", "Mare Internum"),
                (Caesar, "Navis 2", "Mare Aegaeum"),
                (Pompey, "Navis 1", "Propontis"),
                (Pompey, "Legio 32", "Athenae"),
            ],
            &[],
        );
        let navis = block(&game, Caesar, "Navis 1");
        let mut s = with_some_seed("two moves", |seed| caesar_first(&game, seed, |m, _| m >= 2));
        // Navis 2 may attack Propontis (one move) and then stops.
        let mut attack = s.clone();
        let navis2 = block(&game, Caesar, "Navis 2");
        attack
            .try_apply(&game, Action::Group(space(&game, "Mare Aegaeum")))
            .unwrap();
        let options = names(&game, &steps_to(&legal(&game, &attack), navis2));
        assert!(options.contains(&"Propontis".to_string()), "{variant}");
        assert!(
            options.contains(&"Athenae".to_string()),
            "{variant}: a shore attack from the sea"
        );
        attack
            .try_apply(
                &game,
                Action::Step {
                    block: navis2,
                    to: space(&game, "Propontis"),
                },
            )
            .unwrap();
        assert!(steps_to(&legal(&game, &attack), navis2).is_empty());
        assert!(attack.is_contested(space(&game, "Propontis")));

        s.try_apply(&game, Action::Group(space(&game, "Mare Internum")))
            .unwrap();
        let first: Vec<String> = names(&game, &steps_to(&legal(&game, &s), navis))
            .into_iter()
            .filter(|n| n.starts_with("Mare"))
            .collect();
        assert_eq!(
            first,
            sorted(&[
                "Mare Tyrrhenum",
                "Mare Hadriaticum",
                "Mare Aegaeum",
                "Mare Aegypticum"
            ]),
            "{variant}"
        );
        s.try_apply(
            &game,
            Action::Step {
                block: navis,
                to: space(&game, "Mare Aegaeum"),
            },
        )
        .unwrap();
        // Not Propontis (enemy: no attack on the second move), not Athenae
        // (enemy), not Pergamum (no port), not back to Mare Internum.
        assert_eq!(
            names(&game, &steps_to(&legal(&game, &s), navis)),
            sorted(&[
                "Mare Aegypticum",
                "Creta",
                "Thessalonica",
                "Aenos",
                "Ephesus"
            ]),
            "{variant}"
        );
    }
}

#[test]
fn rule_6_2_a_navis_that_wintered_in_port_sails_on_next_year() {
    // 8.3 moves the navis from Mare Hispanum to Genua; next year it may go
    // Genua, Mare Tyrrhenum, Mare Hispanum: its move starts in Genua.
    for variant in BOTH {
        let game = position(
            variant,
            &[
                (Caesar, "Navis 1", "Mare Hispanum"),
                (Caesar, "Legio 8", "Genua"),
                (Pompey, "Legio 3", "Brundisium"),
            ],
            &[],
        );
        let (navis, genua) = (block(&game, Caesar, "Navis 1"), space(&game, "Genua"));
        let mut s = with_some_seed("Caesar's moves next year", |seed| {
            pass_until(&game, quiet_start(&game, seed), |s, l| {
                s.year() == 2 && l.contains(&Action::Group(genua))
            })
            .filter(|s| !s.is_over())
        });
        assert_eq!(s.location(navis), Some(genua), "{variant}: 8.3");
        s.try_apply(&game, Action::Group(genua)).unwrap();
        s.try_apply(
            &game,
            Action::Step {
                block: navis,
                to: space(&game, "Mare Tyrrhenum"),
            },
        )
        .unwrap();
        let next = names(&game, &steps_to(&legal(&game, &s), navis));
        assert!(next.contains(&"Mare Hispanum".to_string()), "{variant}");
        assert!(!next.contains(&"Genua".to_string()), "{variant}");
    }
}

// ------------------------------------------------------------------- 6.3

fn sea_moves(legal: &[Action], b: BlockId) -> Vec<SpaceId> {
    let mut out: Vec<SpaceId> = legal
        .iter()
        .filter_map(|a| match a {
            Action::SeaMove { block, to } if *block == b => Some(*to),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

fn roma_antiochia(variant: &str, seas: &[Placement]) -> Game {
    let mut blocks: Vec<Placement> = vec![
        (Caesar, "Legio 17", "Roma"),
        (Caesar, "Legio 18", "Roma"),
        (Caesar, "Legio 19", "Roma"),
        (Pompey, "Scipio", "Tarsus"),
    ];
    blocks.extend_from_slice(seas);
    position(variant, &blocks, &[])
}

const THREE_SEAS: [Placement; 4] = [
    (Caesar, "Navis 1", "Mare Tyrrhenum"),
    (Caesar, "Navis 4", "Mare Tyrrhenum"),
    (Caesar, "Navis 2", "Mare Internum"),
    (Caesar, "Navis 3", "Mare Aegypticum"),
];

#[test]
fn rule_6_3_amphibious_example_roma_to_antiochia_one_mp_per_block() {
    for variant in BOTH {
        let game = roma_antiochia(variant, &THREE_SEAS);
        let [l17, l18, l19] = ["Legio 17", "Legio 18", "Legio 19"].map(|n| block(&game, Caesar, n));
        let (antiochia, roma) = (space(&game, "Antiochia"), space(&game, "Roma"));
        let mut s = with_some_seed("three moves", |seed| {
            caesar_first(&game, seed, |m, _| m == 3)
        });
        let l = legal(&game, &s);
        let reach = names(&game, &sea_moves(&l, l17));
        assert!(reach.contains(&"Antiochia".to_string()), "{variant}");
        for never in ["Tarsus", "Alexandria"] {
            assert!(
                !reach.contains(&never.to_string()),
                "{variant}: never to an enemy port ({never})"
            );
        }
        for b in [l17, l18] {
            s.try_apply(
                &game,
                Action::SeaMove {
                    block: b,
                    to: antiochia,
                },
            )
            .unwrap();
            assert_eq!(s.location(b), Some(antiochia));
        }
        let l = legal(&game, &s);
        // One MP left: the sailors do not move again, by land or sea.
        assert!(sea_moves(&l, l17).is_empty() && sea_moves(&l, l18).is_empty());
        assert!(!groups(&l).contains(&antiochia), "{variant}");
        // One navis stays on each sea crossed; the second navis on Mare
        // Tyrrhenum may move.
        assert_eq!(
            names(&game, &groups(&l)),
            sorted(&["Roma", "Mare Tyrrhenum"]),
            "{variant}"
        );
        let mut navis = s.clone();
        navis
            .try_apply(&game, Action::Group(space(&game, "Mare Tyrrhenum")))
            .unwrap();
        let movers: Vec<BlockId> = legal(&game, &navis)
            .iter()
            .filter_map(|a| match a {
                Action::Step { block, .. } => Some(*block),
                _ => None,
            })
            .collect();
        assert!(!movers.is_empty());
        assert!(
            movers.windows(2).all(|w| w[0] == w[1]),
            "{variant}: only one of the two navis may leave"
        );
        // The third MP: the last legion by sea too.
        assert!(sea_moves(&l, l19).contains(&antiochia));
        s.try_apply(
            &game,
            Action::SeaMove {
                block: l19,
                to: antiochia,
            },
        )
        .unwrap();
        let l = legal(&game, &s);
        assert!(
            groups(&l).is_empty() && !l.iter().any(|a| matches!(a, Action::SeaMove { .. })),
            "{variant}: three blocks cost three MP"
        );
        assert!(s.is_vacant(roma) && s.is_friendly(antiochia, Caesar));
    }
}

#[test]
fn rule_6_3_amphibious_moves_come_first_and_cross_only_friendly_seas() {
    for variant in BOTH {
        let game = roma_antiochia(variant, &THREE_SEAS);
        let [l17, l19] = ["Legio 17", "Legio 19"].map(|n| block(&game, Caesar, n));
        let antiochia = space(&game, "Antiochia");
        let mut s = with_some_seed("two moves", |seed| caesar_first(&game, seed, |m, _| m >= 2));
        assert!(sea_moves(&legal(&game, &s), l17).contains(&antiochia));
        // After a land move, no more amphibious moves this turn.
        s.try_apply(&game, Action::Group(space(&game, "Roma")))
            .unwrap();
        s.try_apply(
            &game,
            Action::Step {
                block: l19,
                to: space(&game, "Neapolis"),
            },
        )
        .unwrap();
        s.try_apply(&game, Action::EndGroup).unwrap();
        let l = legal(&game, &s);
        assert!(!groups(&l).is_empty(), "{variant}: MP are left");
        assert!(
            !l.iter().any(|a| matches!(a, Action::SeaMove { .. })),
            "{variant}: amphibious moves before any other move"
        );

        // A vacant or an enemy sea on the way: Antiochia is out of reach.
        for middle in [None, Some((Pompey, "Navis 1", "Mare Internum"))] {
            let mut seas: Vec<Placement> = vec![
                (Caesar, "Navis 1", "Mare Tyrrhenum"),
                (Caesar, "Navis 3", "Mare Aegypticum"),
            ];
            seas.extend(middle);
            let game = roma_antiochia(variant, &seas);
            let s = with_some_seed("a move", |seed| caesar_first(&game, seed, |m, _| m >= 1));
            let reach = names(&game, &sea_moves(&legal(&game, &s), l17));
            assert!(
                !reach.contains(&"Antiochia".to_string()),
                "{variant}: {middle:?}"
            );
            assert!(
                reach.contains(&"Neapolis".to_string()),
                "{variant}: Mare Tyrrhenum is still friendly"
            );
        }
    }
}

// ------------------------------------------------------------------- 6.4

/// Where `b` may be levied now.
fn levy_sites(game: &Game, legal: &[Action], b: BlockId) -> Vec<String> {
    let sites: Vec<SpaceId> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Levy { block, at } if *block == b => Some(*at),
            _ => None,
        })
        .collect();
    names(game, &sites)
}

#[test]
fn rule_6_4_levies_only_in_friendly_cities_each_kind_where_it_belongs() {
    for variant in BOTH {
        let game = position(
            variant,
            &[
                (Caesar, "Antonius", "Genua"),
                (Caesar, "Legio 8", "Genua"),
                (Caesar, "Legio 11", "Massilia"),
                (Caesar, "Legio 14", "Massilia"),
                (Caesar, "Navis 1", "Massilia"),
                (Caesar, "Legio 16", "Lugdunum"),
                (Caesar, "Navis 2", "Mare Tyrrhenum"),
                (Pompey, "Legio 5", "Narbo"),
            ],
            &[
                (Caesar, "Legio 8", 1),
                (Caesar, "Legio 14", 1),
                (Caesar, "Navis 1", 1),
                (Caesar, "Navis 2", 1),
            ],
        );
        let b = |n: &str| block(&game, Caesar, n);
        let mut s = with_some_seed("a move and a levy", |seed| {
            caesar_first(&game, seed, |m, l| m >= 1 && l >= 1)
        });
        // Narbo becomes contested.
        let narbo = space(&game, "Narbo");
        assert_eq!(
            cross(
                &game,
                &mut s,
                space(&game, "Massilia"),
                narbo,
                &[b("Legio 14")]
            ),
            1
        );
        s.try_apply(&game, Action::EndMoves).unwrap();
        let l = legal(&game, &s);
        let friendly = sorted(&["Genua", "Lugdunum", "Massilia"]);
        for any_city in ["Auxilia 1", "Auxilia 3", "Ballista"] {
            assert_eq!(
                levy_sites(&game, &l, b(any_city)),
                friendly,
                "{variant}: {any_city} in any friendly city, not contested Narbo or vacant Roma"
            );
        }
        for navis in ["Navis 3", "Navis 4", "Navis 5"] {
            assert_eq!(
                levy_sites(&game, &l, b(navis)),
                sorted(&["Massilia"]),
                "{variant}: a navis only in a friendly major port"
            );
        }
        for (named, at) in [
            ("Legio 12", vec!["Genua"]),
            ("Legio 13", vec![]),
            ("Legio 7", vec![]),
            ("Equitatus 1", vec!["Lugdunum"]),
            ("Equitatus 2", vec![]),
        ] {
            assert_eq!(
                levy_sites(&game, &l, b(named)),
                sorted(&at),
                "{variant}: {named} only in its own city, if friendly"
            );
        }
        let add = |x: &str| l.contains(&Action::AddStep(b(x)));
        assert!(add("Legio 8"), "{variant}: a step in a friendly city");
        assert!(add("Navis 1"), "{variant}: a step on a navis in port");
        assert!(!add("Navis 2"), "{variant}: never at sea");
        assert!(!add("Legio 14"), "{variant}: never in a contested city");
    }
}

#[test]
fn rule_6_4_each_levy_point_is_one_step_new_blocks_enter_at_minimum_strength() {
    for variant in BOTH {
        let game = position(
            variant,
            &[(Caesar, "Legio 17", "Roma"), (Caesar, "Legio 18", "Roma")],
            &[(Caesar, "Legio 17", 1), (Caesar, "Legio 18", 1)],
        );
        let roma = space(&game, "Roma");
        let aux = block(&game, Caesar, "Auxilia 1");
        for levy in 2..=3 {
            let mut s = caesar_first(&game, 0, |_, l| l == levy).unwrap();
            s.try_apply(&game, Action::EndMoves).unwrap();
            s.try_apply(
                &game,
                Action::Levy {
                    block: aux,
                    at: roma,
                },
            )
            .unwrap();
            assert_eq!(s.steps(aux), 1, "{variant}: at minimum strength");
            assert_eq!(s.side(aux), Caesar);
            // Steps may go on a new block at once.
            s.try_apply(&game, Action::AddStep(aux)).unwrap();
            assert_eq!(s.steps(aux), 2);
            let mut more = 0;
            while let Some(a) = legal(&game, &s)
                .into_iter()
                .find(|a| matches!(a, Action::AddStep(_)))
            {
                s.apply(&game, a);
                more += 1;
            }
            assert_eq!(more + 2, levy, "{variant}: {levy} LP, {levy} steps");
        }
    }
}

#[test]
fn rule_6_4_equitatus_and_the_elephant_in_their_city_the_elephant_at_ii() {
    for variant in BOTH {
        let game = position(
            variant,
            &[
                (Caesar, "Legio 8", "Genua"),
                (Pompey, "Legio 39", "Utica"),
                (Pompey, "Legio 37", "Badias"),
                (Pompey, "Legio 2", "Carthago Nova"),
            ],
            &[],
        );
        let b = |n: &str| block(&game, Pompey, n);
        let s = with_some_seed("Pompey's levy", |seed| {
            let s = caesar_first(&game, seed, |_, _| true)?;
            pass_until(&game, s, |s, l| {
                s.current_player() == Some(Pompey)
                    && l.iter().any(|a| matches!(a, Action::Levy { .. }))
            })
        });
        let l = legal(&game, &s);
        assert_eq!(levy_sites(&game, &l, b("Elephant")), sorted(&["Utica"]));
        assert_eq!(levy_sites(&game, &l, b("Equitatus 2")), sorted(&["Badias"]));
        assert!(levy_sites(&game, &l, b("Equitatus 1")).is_empty());
        assert_eq!(
            levy_sites(&game, &l, b("Navis 1")),
            sorted(&["Alexandria", "Carthago Nova", "Utica"]),
            "{variant}: Badias is no port"
        );
        let mut s = s;
        let elephant = b("Elephant");
        s.try_apply(
            &game,
            Action::Levy {
                block: elephant,
                at: space(&game, "Utica"),
            },
        )
        .unwrap();
        assert_eq!(
            s.strength(&game, elephant),
            2,
            "{variant}: 7.41 levied at II"
        );
        if let Ok(()) = s.try_apply(&game, Action::AddStep(elephant)) {
            assert_eq!(s.strength(&game, elephant), 4, "{variant}: IV for one LP");
        }
    }
}

/// The first turn with Caesar playing Vulcan (he is Player 1 as the event
/// player) against a Pompey command card with a levy; Vulcan strikes `city`.
fn vulcan_strikes(game: &Game, seed: u64, city: &str) -> Option<State> {
    let hand: &[&str] = &["2/2", "2/3", "2/1", "3/1"];
    let mut s = common::command_turn(game, "Vulcan", "2/2", [hand, hand], &[]);
    s.reseed(seed);
    assert_eq!(s.player1(), Caesar);
    s.try_apply(game, Action::VulcanCity(space(game, city)))
        .unwrap();
    Some(s)
}

/// Passes to Pompey's next levy decision in `year`.
fn to_pompey_levy(game: &Game, s: State, year: u8) -> Option<State> {
    let s = pass_until(game, s, move |s, l| {
        s.year() == year
            && s.current_player() == Some(Pompey)
            && l.iter().any(|a| matches!(a, Action::Levy { .. }))
    })?;
    (!s.is_over()).then_some(s)
}

#[test]
fn rule_6_4_and_5_2_brutus_after_a_pompeian_leader_dies_the_eliminated_wait_a_year() {
    for variant in BOTH {
        for scipio in [1, 2] {
            let game = position(
                variant,
                &[
                    (Caesar, "Legio 8", "Genua"),
                    (Pompey, "Pompey", "Brundisium"),
                    (Pompey, "Scipio", "Neapolis"),
                    (Pompey, "Legio 1", "Neapolis"),
                    (Pompey, "Legio 2", "Roma"),
                ],
                &[(Pompey, "Scipio", scipio), (Pompey, "Legio 1", 1)],
            );
            let b = |n: &str| block(&game, Pompey, n);
            let (brutus, legio1) = (b("Brutus"), b("Legio 1"));
            let s = with_some_seed("Vulcan, then Pompey's levies in two years", |seed| {
                let s = vulcan_strikes(&game, seed, "Neapolis")?;
                let now = to_pompey_levy(&game, s, 1)?;
                let next = to_pompey_levy(&game, now.clone(), 2)?;
                Some((now, next))
            });
            let (now, next) = s;
            let l = legal(&game, &now);
            // 5.2: eliminated, face-up (Caesar sees it), not levied this year.
            assert_eq!(now.place(legio1), Place::Eliminated, "{variant}");
            assert!(now.view(Caesar, false).knows(&game, legio1), "{variant}");
            assert!(levy_sites(&game, &l, legio1).is_empty(), "{variant}");
            if scipio == 1 {
                assert_eq!(now.place(b("Scipio")), Place::Trophy);
                assert_eq!(now.trophies(Caesar), 1);
                assert_eq!(
                    levy_sites(&game, &l, brutus),
                    sorted(&["Alexandria", "Brundisium", "Roma"]),
                    "{variant}: Brutus in any friendly city once a leader died"
                );
            } else {
                assert_eq!(now.steps(b("Scipio")), 1);
                assert!(
                    levy_sites(&game, &l, brutus).is_empty(),
                    "{variant}: Brutus waits while no Pompeian leader died"
                );
            }
            // 8.6: next year it stands up, hidden again, and may be levied.
            assert_eq!(next.place(legio1), Place::Pool, "{variant}");
            assert!(!next.view(Caesar, false).knows(&game, legio1), "{variant}");
            assert_eq!(
                levy_sites(&game, &legal(&game, &next), legio1),
                sorted(&["Roma"]),
                "{variant}"
            );
            if scipio == 1 {
                assert_eq!(next.place(b("Scipio")), Place::Trophy, "{variant}");
            }
        }
    }
}

// ------------------------------------------------------------------- 8.1

#[test]
fn rule_8_1_cleopatra_goes_home_and_changes_side_only_if_the_enemy_holds_alexandria() {
    for variant in BOTH {
        for (holder, expected) in [
            (None, Pompey),
            (Some(Pompey), Pompey),
            (Some(Caesar), Caesar),
        ] {
            let mut blocks: Vec<Placement> = vec![
                (Pompey, "Cleopatra", "Pelusium"),
                (Pompey, "Legio 34", "Antiochia"),
                (Caesar, "Legio 8", "Genua"),
            ];
            match holder {
                Some(Caesar) => blocks.push((Caesar, "Legio 21", "Alexandria")),
                Some(Pompey) => blocks.push((Pompey, "Legio 38", "Alexandria")),
                None => {}
            }
            let game = position(variant, &blocks, &[(Pompey, "Cleopatra", 3)]);
            let cleopatra = block(&game, Pompey, "Cleopatra");
            let alexandria = space(&game, "Alexandria");
            let s = with_some_seed("a quiet year", |seed| {
                to_winter(&game, quiet_start(&game, seed))
            });
            assert_eq!(s.location(cleopatra), Some(alexandria), "{variant}");
            assert_eq!(s.side(cleopatra), expected, "{variant}: {holder:?}");
            assert_eq!(s.steps(cleopatra), 3, "{variant}: at her current strength");
            assert!(s.is_friendly(alexandria, expected));
            // 8.1 comes before 8.2: Alexandria's 2 VP count for her side.
            let vp = s.stats.vp_by_year[0];
            let antiochia = 1;
            match expected {
                Caesar => assert_eq!(vp, [2, antiochia], "{variant}"),
                Pompey => assert_eq!(vp, [0, 2 + antiochia], "{variant}"),
            }
        }
    }
}

// ------------------------------------------------------------------- 8.2

/// Caesar holds these cities, one legion each.
fn caesar_holds(cities: &[&'static str]) -> Vec<Placement<'static>> {
    const LEGIONS: [&str; 12] = [
        "Legio 7", "Legio 8", "Legio 9", "Legio 10", "Legio 11", "Legio 12", "Legio 13",
        "Legio 14", "Legio 16", "Legio 17", "Legio 18", "Legio 19",
    ];
    cities
        .iter()
        .zip(LEGIONS)
        .map(|(city, legio)| (Caesar, legio, *city))
        .collect()
}

const NINE_VP: [&str; 8] = [
    "Roma",
    "Massilia",
    "Athenae",
    "Byzantium",
    "Ephesus",
    "Syracusae",
    "Tarraco",
    "Utica",
];

#[test]
fn rule_8_2_ten_vp_win_at_the_winter_check_not_before_and_nine_play_on() {
    for variant in BOTH {
        for (extra, wins) in [(Some("Carthago Nova"), true), (None, false)] {
            let mut cities = NINE_VP.to_vec();
            cities.extend(extra);
            let mut blocks = caesar_holds(&cities);
            blocks.push((Pompey, "Scipio", "Antiochia"));
            let game = position(variant, &blocks, &[]);
            let s = with_some_seed("a quiet year", |seed| {
                let s = pass_until(&game, quiet_start(&game, seed), |s, _| s.turn() == 5)?;
                assert_eq!(s.vp(&game)[0], 9 + extra.is_some() as u32);
                assert!(!s.is_over(), "{variant}: no victory during a year");
                to_next_year(&game, s)
            });
            let o = s.outcome();
            if wins {
                let o = o.expect("over");
                assert_eq!(o.winner, Some(Caesar), "{variant}");
                assert_eq!(o.how, EndReason::SuddenDeath);
                assert_eq!((o.vp, o.year), ([10, 3], 1), "{variant}");
            } else {
                assert_eq!(o, None, "{variant}: nine VP are not enough");
                assert_eq!((s.year(), s.turn()), (2, 1));
            }
        }
    }
}

#[test]
fn rule_8_2_a_killed_leader_is_a_victory_point_at_the_winter_check() {
    for variant in BOTH {
        let mut blocks = caesar_holds(&NINE_VP);
        blocks.push((Pompey, "Scipio", "Antiochia"));
        blocks.push((Pompey, "Pompey", "Brundisium"));
        let game = position(variant, &blocks, &[(Pompey, "Scipio", 1)]);
        let s = with_some_seed("Vulcan and a quiet year", |seed| {
            let s = vulcan_strikes(&game, seed, "Antiochia")?;
            to_next_year(&game, s)
        });
        let o = s.outcome().expect("over");
        assert_eq!(o.winner, Some(Caesar), "{variant}");
        assert_eq!(o.how, EndReason::SuddenDeath);
        assert_eq!(
            (o.vp, o.year),
            ([9 + 1, 2], 1),
            "{variant}: 9 city VP and Scipio"
        );
    }
}

#[test]
fn rule_8_2_when_both_reach_the_target_the_higher_wins_a_tie_plays_on() {
    // Not possible with 10 VP in the published game; a variant target of 2.
    for variant in BOTH {
        for (caesar, pompey, winner) in [
            (vec!["Roma", "Massilia"], 2, Some(Caesar)),
            (vec!["Roma"], 2, None),
        ] {
            let mut blocks = caesar_holds(&caesar);
            blocks.push((Pompey, "Scipio", "Brundisium"));
            let game = position_with(variant, &blocks, &[], |r| r.vp_to_win = 2);
            let s = with_some_seed("a quiet year", |seed| {
                to_next_year(&game, quiet_start(&game, seed))
            });
            assert_eq!(s.stats.vp_by_year[0][1], pompey, "Alexandria");
            match winner {
                Some(w) => {
                    let o = s.outcome().expect("over");
                    assert_eq!((o.winner, o.how), (Some(w), EndReason::SuddenDeath));
                }
                None => {
                    assert_eq!(s.outcome(), None, "{variant}: 2 - 2 plays on");
                    assert_eq!(s.year(), 2);
                }
            }
        }
    }
}

// ------------------------------------------------------------------- 8.3

#[test]
fn rule_8_3_navis_winter_in_a_friendly_port_on_their_sea_caesar_first_or_disband() {
    for variant in BOTH {
        let game = position(
            variant,
            &[
                // Mare Tyrrhenum: Genua, Roma and Neapolis are Caesar's, Utica
                // Pompey's, the other ports vacant.
                (Caesar, "Navis 1", "Mare Tyrrhenum"),
                (Caesar, "Legio 8", "Genua"),
                (Caesar, "Legio 17", "Roma"),
                (Caesar, "Legio 18", "Neapolis"),
                // Mare Hadriaticum: Ravenna only.
                (Caesar, "Navis 2", "Mare Hadriaticum"),
                (Caesar, "Legio 13", "Ravenna"),
                // Oceanus Atlanticus: no friendly port.
                (Caesar, "Navis 3", "Oceanus Atlanticus"),
                // A navis in port stays.
                (Caesar, "Navis 4", "Massilia"),
                (Pompey, "Legio 39", "Utica"),
                (Pompey, "Legio 37", "Syracusae"),
                // Mare Internum: Utica or Syracusae.
                (Pompey, "Navis 1", "Mare Internum"),
                // Mare Aegaeum: only vacant ports, which do not qualify.
                (Pompey, "Navis 2", "Mare Aegaeum"),
            ],
            &[],
        );
        let c = |n: &str| block(&game, Caesar, n);
        let p = |n: &str| block(&game, Pompey, n);
        let mut s = with_some_seed("a quiet year", |seed| {
            to_winter(&game, quiet_start(&game, seed))
        });
        assert_eq!(s.current_player(), Some(Caesar), "{variant}: Caesar first");
        let ports = |s: &State, b: BlockId| -> Vec<String> {
            let to: Vec<SpaceId> = legal(&game, s)
                .iter()
                .filter_map(|a| match a {
                    Action::NavisToPort { block, to } if *block == b => Some(*to),
                    _ => None,
                })
                .collect();
            names(&game, &to)
        };
        assert_eq!(
            ports(&s, c("Navis 1")),
            sorted(&["Genua", "Neapolis", "Roma"]),
            "{variant}"
        );
        s.try_apply(
            &game,
            Action::NavisToPort {
                block: c("Navis 1"),
                to: space(&game, "Neapolis"),
            },
        )
        .unwrap();
        assert_eq!(s.current_player(), Some(Pompey), "{variant}: then Pompey");
        assert_eq!(
            ports(&s, p("Navis 1")),
            sorted(&["Syracusae", "Utica"]),
            "{variant}"
        );
        // Caesar's other navis were settled without a choice.
        assert_eq!(s.location(c("Navis 2")), Some(space(&game, "Ravenna")));
        assert_eq!(s.place(c("Navis 3")), Place::Pool, "{variant}: disbanded");
        assert_eq!(s.location(c("Navis 4")), Some(space(&game, "Massilia")));
        s.try_apply(
            &game,
            Action::NavisToPort {
                block: p("Navis 1"),
                to: space(&game, "Utica"),
            },
        )
        .unwrap();
        assert_eq!(s.place(p("Navis 2")), Place::Pool, "{variant}: disbanded");
        assert_eq!(s.location(c("Navis 1")), Some(space(&game, "Neapolis")));
        assert_eq!(s.location(p("Navis 1")), Some(space(&game, "Utica")));
        // On to 8.4: Caesar's supply step.
        let l = legal(&game, &s);
        assert!(l.contains(&Action::EndWinter));
        assert_eq!(s.current_player(), Some(Caesar));
    }
}

// --------------------------------------------------------------- 8.5, 8.6

#[test]
fn rule_8_5_and_8_6_voluntary_disbanding_then_a_new_year_and_new_hands() {
    for variant in BOTH {
        let game = position(
            variant,
            &[
                (Caesar, "Caesar", "Ravenna"),
                (Caesar, "Antonius", "Genua"),
                (Caesar, "Legio 8", "Genua"),
                (Pompey, "Pompey", "Brundisium"),
                (Pompey, "Legio 3", "Brundisium"),
            ],
            &[(Caesar, "Legio 8", 1)],
        );
        let c = |n: &str| block(&game, Caesar, n);
        let (s, next) = with_some_seed("two quiet years", |seed| {
            let mut s = to_winter(&game, quiet_start(&game, seed))?;
            // 8.5: any block, Caesar first.
            assert_eq!(s.current_player(), Some(Caesar));
            s.try_apply(&game, Action::Disband(c("Antonius"))).unwrap();
            s.try_apply(&game, Action::Disband(c("Legio 8"))).unwrap();
            s.try_apply(&game, Action::EndWinter).unwrap();
            assert_eq!(s.current_player(), Some(Pompey));
            assert!(
                legal(&game, &s).contains(&Action::Disband(block(&game, Pompey, "Legio 3"))),
                "{variant}: Pompey may disband too"
            );
            s.try_apply(&game, Action::EndWinter).unwrap();
            let next = pass_until(&game, s.clone(), |s, l| {
                s.current_player() == Some(Caesar)
                    && l.iter().any(|a| matches!(a, Action::Levy { .. }))
            })?;
            (next.year() == 2).then_some((s, next))
        });
        // 8.6: year 2, turn 1, six fresh cards each from the whole deck.
        assert_eq!((s.year(), s.turn()), (2, 1), "{variant}");
        for side in [Caesar, Pompey] {
            assert_eq!(s.hand(side).len(), game.rules.hand_size as usize);
        }
        assert!(
            s.hand(Caesar).iter().all(|c| !s.hand(Pompey).contains(c)),
            "{variant}: one deck"
        );
        assert!(matches!(legal(&game, &s)[0], Action::Discard(_)));
        assert_eq!(s.place(c("Antonius")), Place::Pool);
        assert_eq!(s.place(c("Legio 8")), Place::Pool);
        // The disbanded leader may be levied again (at I); Octavian stays
        // locked: a disbanded leader is not a dead one.
        let l = legal(&game, &next);
        assert_eq!(
            levy_sites(&game, &l, c("Antonius")),
            sorted(&["Ravenna"]),
            "{variant}"
        );
        assert!(levy_sites(&game, &l, c("Octavian")).is_empty(), "{variant}");
        let mut next = next;
        next.try_apply(
            &game,
            Action::Levy {
                block: c("Antonius"),
                at: space(&game, "Ravenna"),
            },
        )
        .unwrap();
        assert_eq!(next.steps(c("Antonius")), 1, "{variant}: steps forfeit");
    }
}

// ------------------------------------------------------------------- 1.2

/// A position and how the game should end: winner, reason, VP.
type Ending<'a> = (Vec<Placement<'a>>, Option<Side>, EndReason, [u32; 2]);

#[test]
fn rule_1_2_after_year_5_higher_vp_then_rome_then_a_draw() {
    for variant in BOTH {
        let cases: [Ending; 4] = [
            (
                caesar_holds(&["Roma", "Massilia"]),
                Some(Caesar),
                EndReason::VictoryPoints,
                [3, 2],
            ),
            (
                caesar_holds(&["Roma"]),
                Some(Caesar),
                EndReason::RomeTieBreak,
                [2, 2],
            ),
            (
                {
                    let mut b = caesar_holds(&["Athenae", "Byzantium", "Ephesus", "Massilia"]);
                    b.push((Pompey, "Scipio", "Roma"));
                    b
                },
                Some(Pompey),
                EndReason::RomeTieBreak,
                [4, 4],
            ),
            (
                caesar_holds(&["Athenae", "Massilia"]),
                None,
                EndReason::Draw,
                [2, 2],
            ),
        ];
        for (blocks, winner, how, vp) in cases {
            let game = position(variant, &blocks, &[]);
            let s = with_some_seed("five quiet years", |seed| {
                pass_until(&game, quiet_start(&game, seed), |_, _| false)
            });
            let o = s.outcome().expect("over");
            assert_eq!(
                (o.winner, o.how, o.vp, o.year),
                (winner, how, vp, 5),
                "{variant}: {blocks:?}"
            );
            assert_eq!(
                s.stats.vp_by_year.len(),
                5,
                "{variant}: a check every winter"
            );
            assert_eq!(s.year(), 5, "{variant}: no year reset after the last");
        }
    }
}

#[test]
fn rule_6_4_blocks_that_moved_may_take_steps_under_both_rulebooks() {
    // 6.4 (both texts) restricts steps only to Friendly cities; 2.0 adds
    // "Blocks that move can levy as long as they're in a friendly city".
    // 1.1's "they cannot move in the same turn" (2.2) is about new levies.
    // The house rule `levy_on_moved_blocks: false` forbids it.
    for (variant, house_rule) in [
        ("rules-1.1", false),
        ("rules-2.0", false),
        ("rules-1.1", true),
    ] {
        let game = position_with(
            variant,
            &[(Caesar, "Legio 8", "Genua"), (Caesar, "Legio 11", "Genua")],
            &[(Caesar, "Legio 8", 1), (Caesar, "Legio 11", 1)],
            |r| {
                if house_rule {
                    r.levy_on_moved_blocks = false;
                }
            },
        );
        let mut s = with_some_seed("a move and a levy", |seed| {
            caesar_first(&game, seed, |m, l| m >= 1 && l >= 1)
        });
        let moved = block(&game, Caesar, "Legio 8");
        let stayed = block(&game, Caesar, "Legio 11");
        let (genua, roma) = (space(&game, "Genua"), space(&game, "Roma"));
        assert_eq!(cross(&game, &mut s, genua, roma, &[moved]), 1);
        s.try_apply(&game, Action::EndMoves).unwrap();
        let l = legal(&game, &s);
        assert_eq!(
            l.contains(&Action::AddStep(moved)),
            !house_rule,
            "{variant}: a block that moved into friendly Roma takes a step"
        );
        assert!(l.contains(&Action::AddStep(stayed)), "{variant}");
    }
}

/// The state at Player 1's first decision of a command turn in which
/// Caesar plays `2/2` and Pompey `1/2` (Caesar is Player 1, as 2/2 over 1/2
/// makes him under both rulebooks), at `turn` of year 1, with the first
/// levies stated as taken or left to the position's default.
fn bid_turn(game: &Game, turn: u8, taken: Option<[bool; 2]>) -> State {
    let mut p = common::deployed(game);
    let played = common::cards(game, &["2/2", "1/2"]);
    let hand: &[&str] = &["2/3", "2/1", "3/1"];
    let c_hand = common::cards_avoiding(game, hand, &played);
    let used: Vec<u8> = played.iter().chain(&c_hand).copied().collect();
    p.hands = [c_hand, common::cards_avoiding(game, hand, &used)];
    p.turn = turn;
    p.stage = caesar_workbench::engine::Stage::Command;
    p.played = [Some(played[0]), Some(played[1])];
    p.first_levies_taken = taken;
    let s = common::start(game, &p);
    assert_eq!(s.current_player(), Some(Caesar));
    s
}

/// Two weak legions in Roma, room for six steps, under `variant` with a bid.
fn bid_position(variant: &str, bid: impl FnOnce(&mut RuleSet)) -> Game {
    position_with(
        variant,
        &[
            (Caesar, "Legio 17", "Roma"),
            (Caesar, "Legio 18", "Roma"),
            (Pompey, "Legio 5", "Narbo"),
        ],
        &[(Caesar, "Legio 17", 1), (Caesar, "Legio 18", 1)],
        bid,
    )
}

/// Spends every levy point of the command on whatever levy or step is legal
/// first; returns how many were spent.
fn spend_levies(game: &Game, s: &mut State) -> u8 {
    s.try_apply(game, Action::EndMoves).unwrap();
    let mut spent = 0;
    while let Some(a) = legal(game, s)
        .into_iter()
        .find(|a| matches!(a, Action::Levy { .. } | Action::AddStep(_)))
    {
        s.apply(game, a);
        spent += 1;
    }
    spent
}

#[test]
fn rule_bid_extra_levy_points_are_spent_at_each_sides_first_levy_and_only_then() {
    for variant in BOTH {
        let game = bid_position(variant, |r| {
            r.caesar_first_levy_bonus = 3;
            r.pompey_first_levy_bonus = 1;
        });
        // The game's first turn: each side's first command card carries its bid.
        let mut s = bid_turn(&game, 1, None);
        assert_eq!(
            s.command_points(),
            Some((2, 2 + 3)),
            "{variant}: Caesar's 2/2 and 3"
        );
        assert_eq!(spend_levies(&game, &mut s), 5, "{variant}: all five spent");
        if s.current_player() == Some(Caesar) {
            s.try_apply(&game, Action::EndLevy).unwrap();
        }
        assert_eq!(s.current_player(), Some(Pompey));
        assert_eq!(
            s.command_points(),
            Some((1, 2 + 1)),
            "{variant}: Pompey's 1/2 and 1"
        );
        // A later turn: taken by both, no extra point; stated otherwise for
        // Pompey, his still comes.
        let s = bid_turn(&game, 2, None);
        assert_eq!(
            s.command_points(),
            Some((2, 2)),
            "{variant}: no bid after turn 1"
        );
        let s = bid_turn(&game, 2, Some([true, false]));
        assert_eq!(s.command_points(), Some((2, 2)), "{variant}");
        let mut s = bid_turn(&game, 2, Some([true, false]));
        s.try_apply(&game, Action::EndMoves).unwrap();
        while s.current_player() == Some(Caesar) {
            s.try_apply(&game, Action::EndLevy).unwrap();
        }
        assert_eq!(
            s.command_points(),
            Some((1, 3)),
            "{variant}: Pompey's first levy"
        );
    }
}

#[test]
fn rule_bid_unspent_extra_points_are_lost_and_no_bid_is_the_rulebook() {
    for variant in BOTH {
        assert_eq!(RuleSet::builtin(variant).caesar_first_levy_bonus, 0);
        assert_eq!(RuleSet::builtin(variant).pompey_first_levy_bonus, 0);
        let game = bid_position(variant, |r| r.caesar_first_levy_bonus = 4);
        let mut s = bid_turn(&game, 1, None);
        assert_eq!(s.command_points(), Some((2, 6)), "{variant}");
        // Caesar levies nothing: the points go with the command.
        s.try_apply(&game, Action::EndMoves).unwrap();
        s.try_apply(&game, Action::EndLevy).unwrap();
        assert_eq!(s.current_player(), Some(Pompey));
        assert_eq!(
            s.command_points(),
            Some((1, 2)),
            "{variant}: Pompey bid nothing"
        );
    }
}
