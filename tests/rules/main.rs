//! Rule tests, named after the rule numbers of 1.1 and 2.0, and the rule-set limits the engine accepts.
//! One test binary per area keeps the build short: each binary links the library once.

#[path = "../common/mod.rs"]
mod common;

mod battle_turns;
mod battles;
mod cards;
mod examples;
mod levy_winter;
mod movement;
mod rule_set_extremes;
mod turn_order;
