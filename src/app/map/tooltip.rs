//! The hover card of a space: what a player checks before moving there.

use egui::{RichText, Ui};

use crate::scenario::model::{BlockId, Scenario, SpaceId};
use crate::scenario::model::{LinkClass, Side, SpaceKind};
use crate::scenario::rules::RuleSet;

/// 8.4 when no rule set could be loaded.
const DEFAULT_WINTER_BASE: u8 = 3;

/// The widest the Play board's compact card may be: it must not cover the
/// stacks around the space hovered.
pub(in crate::app) const BOARD_CARD_WIDTH: f32 = 230.0;

/// The Play and Replay board's card of a space: its name, kind, VP and
/// winter supply in a line, then its stack in words (`stack`, one line a
/// block as the viewer may know it), then one short line per kind of link,
/// in small words.
pub(super) fn board_space(
    ui: &mut Ui,
    scenario: &Scenario,
    rules: Option<&RuleSet>,
    id: SpaceId,
    stack: &[String],
) {
    let board = &scenario.board;
    let s = board.space(id);
    ui.set_max_width(BOARD_CARD_WIDTH);
    ui.spacing_mut().item_spacing.y = 1.0;
    let mut head = s.kind.label().to_string();
    if s.vp > 0 {
        head.push_str(&format!(" · {} VP", s.vp));
    }
    if s.kind.is_city() {
        let base = rules.map_or(DEFAULT_WINTER_BASE, |r| r.winter_supply_base);
        head.push_str(&format!(" · winter {}", s.winter_supply(base)));
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(&s.name).strong());
        ui.label(RichText::new(head).small());
    });
    for line in stack {
        ui.label(RichText::new(line).small().strong());
    }
    let limits = rules.map(|r| r.road_limits);
    for (title, list) in links(scenario, id, limits) {
        ui.label(RichText::new(format!("{title}: {}", list.join(", "))).small());
    }
}

/// Each kind of link of a space with its limit, and the spaces it leads to.
fn links(
    scenario: &Scenario,
    id: SpaceId,
    limits: Option<crate::scenario::rules::RoadLimits>,
) -> Vec<(String, Vec<String>)> {
    let board = &scenario.board;
    let names = |class: LinkClass, want_sea: Option<bool>| -> Vec<String> {
        board
            .neighbours(id)
            .iter()
            .filter(|a| a.class == class)
            .filter(|a| {
                want_sea.is_none_or(|sea| (board.space(a.to).kind == SpaceKind::Sea) == sea)
            })
            .map(|a| match (&board.link(a.link).name, class) {
                (Some(name), LinkClass::Strait) => format!("{} (the {name})", board.name(a.to)),
                _ => board.name(a.to).to_string(),
            })
            .collect()
    };
    let limit = |n: Option<u8>| n.map(|n| format!(" ({n} blocks)")).unwrap_or_default();
    let mut out = vec![
        (
            format!("Major roads{}", limit(limits.map(|l| l.major))),
            names(LinkClass::Major, None),
        ),
        (
            format!("Minor roads{}", limit(limits.map(|l| l.minor))),
            names(LinkClass::Minor, None),
        ),
        (
            format!("Straits{}", limit(limits.map(|l| l.strait))),
            names(LinkClass::Strait, None),
        ),
    ];
    if board.space(id).kind == SpaceKind::Sea {
        out.push(("Ports".into(), names(LinkClass::Sea, Some(false))));
        out.push(("Adjacent seas".into(), names(LinkClass::Sea, Some(true))));
    } else {
        out.push(("Seas".into(), names(LinkClass::Sea, Some(true))));
        // A port bordering a port is a data error the validator reports.
        out.push((
            "Sea borders to ports".into(),
            names(LinkClass::Sea, Some(false)),
        ));
    }
    out.retain(|(_, list)| !list.is_empty());
    out
}

pub(super) fn space(
    ui: &mut Ui,
    scenario: &Scenario,
    rules: Option<&RuleSet>,
    blocks: &[BlockId],
    id: SpaceId,
) {
    let board = &scenario.board;
    let s = board.space(id);
    ui.set_max_width(340.0);
    ui.label(RichText::new(&s.name).strong().size(15.0));

    let mut kind = s.kind.label().to_string();
    if s.vp > 0 {
        kind.push_str(&format!(" · {} VP", s.vp));
    }
    ui.label(kind);
    if s.kind.is_city() {
        let base = rules.map_or(DEFAULT_WINTER_BASE, |r| r.winter_supply_base);
        ui.label(format!(
            "Winter supply: {} blocks ({base} + {} VP)",
            s.winter_supply(base),
            s.vp
        ));
    }
    if let Some(island) = &s.island {
        ui.label(format!("Island: {island} (reached only by sea)"));
    }
    if !s.aliases.is_empty() {
        ui.label(format!("Also called: {}", s.aliases.join(", ")));
    }

    ui.separator();
    for (title, list) in links(scenario, id, rules.map(|r| r.road_limits)) {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("{title}:")).strong());
            ui.label(list.join(", "));
        });
    }
    if board.neighbours(id).is_empty() {
        ui.colored_label(crate::app::theme::WARNING, "Not linked to anything");
    }
    starting_blocks(ui, scenario, blocks);
}

/// The blocks a space starts with, by side (the scenario's, not a game's).
fn starting_blocks(ui: &mut Ui, scenario: &Scenario, blocks: &[BlockId]) {
    if !blocks.is_empty() {
        ui.separator();
        ui.label(RichText::new("Starting blocks").strong());
        for side in Side::BOTH {
            let here: Vec<String> = blocks
                .iter()
                .map(|b| scenario.roster.block(*b))
                .filter(|b| b.side == side)
                .map(|b| format!("{} ({})", b.name, b.kind.label()))
                .collect();
            if !here.is_empty() {
                ui.label(format!("{side}: {}", here.join(", ")));
            }
        }
    }
}
