//! Game records prove their whole game: every single deletion, duplication
//! and swap of adjacent actions is refused at the first step that differs,
//! and the setup fields that do not change play are covered too.

use std::sync::OnceLock;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::engine::Game;
use caesar_workbench::games::record::{
    self, PlayerEntry, RecordFile, RecordSetup, RecordedStep, ReplayError, record_game,
};
use caesar_workbench::scenario::model::Side;
use proptest::prelude::*;

/// A whole game between heuristic players (as `play --seed 3` plays it),
/// recorded once per rulebook.
fn recorded(variant: &'static str) -> &'static (Game, RecordFile) {
    static RECORDS: [OnceLock<(Game, RecordFile)>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = usize::from(variant == "rules-2.0");
    RECORDS[slot].get_or_init(|| {
        let game = crate::common::published(variant);
        let doc = caesar_workbench::scenario::historical();
        let (scenario, variant_source) = RecordSetup::sources(None, &doc, variant, &game.rules);
        let setup = RecordSetup {
            scenario,
            variant: variant_source,
            seed: 3,
            caesar: PlayerEntry::ai(&AiSpec::Heuristic, 7),
            pompey: PlayerEntry::ai(&AiSpec::Heuristic, 8),
            omniscient: false,
        };
        let mut players = [
            AiSpec::Heuristic.player(Side::Caesar, 7, false),
            AiSpec::Heuristic.player(Side::Pompey, 8, false),
        ];
        let (state, record) = record_game(&game, setup, &mut players, &mut Vec::new());
        assert!(state.is_over());
        record::replay(&record, &game).expect("the record as written replays");
        (game, record)
    })
}

#[derive(Debug, Clone, Copy)]
enum Edit {
    /// Remove step `i` (0-based), its words and digest (a line of the file).
    Delete,
    /// Write step `i` twice.
    Duplicate,
    /// Swap steps `i` and `i + 1`.
    Swap,
    /// Swap only the words of steps `i` and `i + 1`, the digests staying.
    SwapWords,
}

/// `record` edited at step `i` (0-based), its action count corrected; and
/// the first step (1-based) that differs from the record as written, or
/// `None` when the edit changes nothing.
fn edited(record: &RecordFile, edit: Edit, i: usize) -> Option<(RecordFile, usize)> {
    let mut out = record.clone();
    let steps = &mut out.actions;
    let n = steps.len();
    let first = match edit {
        Edit::Delete => {
            steps.remove(i);
            i + 1
        }
        Edit::Duplicate => {
            steps.insert(i + 1, steps[i].clone());
            i + 2
        }
        Edit::Swap | Edit::SwapWords if i + 1 >= n => return None,
        Edit::Swap => {
            steps.swap(i, i + 1);
            i + 1
        }
        Edit::SwapWords => {
            if steps[i].action == steps[i + 1].action {
                return None;
            }
            let words = std::mem::take(&mut steps[i].action);
            steps[i].action = std::mem::replace(&mut steps[i + 1].action, words);
            i + 1
        }
    };
    out.action_count = out.actions.len() as u32;
    Some((out, first))
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    prop_oneof![
        Just(Edit::Delete),
        Just(Edit::Duplicate),
        Just(Edit::Swap),
        Just(Edit::SwapWords),
    ]
}

proptest! {
    // Cheap enough for CI: each case is at most one replay of one game.
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_deletion_duplication_and_swap_of_actions_is_refused_at_the_first_step_that_differs(
        rules_2_0 in any::<bool>(),
        edit in edit_strategy(),
        at in any::<prop::sample::Index>(),
    ) {
        let (game, record) = recorded(if rules_2_0 { "rules-2.0" } else { "rules-1.1" });
        let i = at.index(record.actions.len());
        let Some((tampered, first)) = edited(record, edit, i) else {
            return Ok(());
        };
        match record::replay(&tampered, game) {
            Ok(_) => prop_assert!(false, "{edit:?} at step {} replays as the record", i + 1),
            Err(e) => prop_assert_eq!(e.step(), Some(first), "{:?} at step {}: {}", edit, i + 1, e),
        }
    }
}

/// The same edits found one by one: the first deletions that the engine
/// still plays to the same end (legal at every step, the same outcome) are
/// exactly what a record without digests accepted; the trace the window
/// replays refuses them the same way.
#[test]
fn a_deletion_the_engine_still_plays_to_the_same_end_is_refused_at_its_step() {
    let (game, record) = recorded("rules-2.0");
    let mut found = 0;
    for i in 0..record.actions.len() {
        let (tampered, first) = edited(record, Edit::Delete, i).unwrap();
        if !plays_to_the_same_end(game, &tampered) {
            continue;
        }
        found += 1;
        let err = record::replay(&tampered, game).unwrap_err();
        assert!(
            matches!(err, ReplayError::Differs { step, .. } if step == first),
            "{err}"
        );
        let from_trace =
            caesar_workbench::games::trace::Trace::from_record(&tampered, game).unwrap_err();
        assert_eq!(from_trace, err);
        if found == 3 {
            break;
        }
    }
    assert!(found > 0, "some deletion plays to the same end");
}

/// Whether every action of `record` is legal in turn and the game ends as
/// the record says: all a record proved before its digests.
fn plays_to_the_same_end(game: &Game, record: &RecordFile) -> bool {
    let mut state = caesar_workbench::engine::State::new(game, record.seed);
    for step in &record.actions {
        if state.is_over() {
            return false;
        }
        match record::find_action(game, &state, &step.action) {
            Ok(a) => state.apply(game, a),
            Err(_) => return false,
        }
    }
    state.outcome().map(record::RecordedOutcome::from) == record.outcome
}

#[test]
fn a_record_proves_its_players_their_seeds_omniscient_and_seed() {
    let (game, record) = recorded("rules-1.1");
    type Edit = fn(&mut RecordFile);
    let edits: [(&str, Edit); 6] = [
        ("caesar's player", |r| r.caesar.player = "random".into()),
        ("pompey's player", |r| r.pompey.player = "search:64".into()),
        ("caesar's seed", |r| r.caesar.seed = Some(70)),
        ("pompey's seed", |r| r.pompey.seed = None),
        ("omniscient", |r| r.omniscient = true),
        ("the game's seed", |r| r.seed = 4),
    ];
    for (what, edit) in edits {
        let mut tampered = record.clone();
        edit(&mut tampered);
        match record::replay(&tampered, game) {
            Err(ReplayError::StartDiffers { recorded, replayed }) => {
                assert_eq!(recorded, record.start, "{what}");
                assert_ne!(replayed, record.start, "{what}");
            }
            other => panic!("{what}: expected the start refused, got {other:?}"),
        }
    }
    // The file paths are not covered: a record and its files may move.
    let mut moved = record.clone();
    moved.scenario.path = "elsewhere/historical.ron".into();
    assert!(record::replay(&moved, game).is_ok());
}

#[test]
fn an_edited_digest_or_outcome_is_refused_and_case_is_no_change() {
    let (game, record) = recorded("rules-2.0");
    let mut shouted = record.clone();
    for step in &mut shouted.actions {
        step.action = step.action.to_uppercase();
        step.digest = step.digest.to_uppercase();
    }
    assert!(record::replay(&shouted, game).is_ok(), "case is no change");
    let mut digest = record.clone();
    let k = digest.actions.len() / 2;
    digest.actions[k] = RecordedStep {
        digest: "00000000".into(),
        ..digest.actions[k].clone()
    };
    assert_eq!(
        record::replay(&digest, game).unwrap_err().step(),
        Some(k + 1)
    );
    // The game ends before a truncated record's outcome.
    let mut truncated = record.clone();
    truncated.actions.pop();
    truncated.action_count -= 1;
    let err = record::replay(&truncated, game).unwrap_err();
    assert!(
        matches!(err, ReplayError::EndsEarly { step, .. } if step == record.actions.len()),
        "{err}"
    );
}
