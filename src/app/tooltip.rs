//! The hover card of a space: what a player checks before moving there.

use egui::{RichText, Ui};

use crate::scenario::model::{BlockId, Scenario, SpaceId};
use crate::scenario::model::{LinkClass, Side, SpaceKind};
use crate::scenario::rules::RuleSet;

/// 8.4 when no rule set could be loaded.
const DEFAULT_WINTER_BASE: u8 = 3;

pub fn space(
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
    let limits = rules.map(|r| r.road_limits);
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
    let row = |ui: &mut Ui, title: String, list: Vec<String>| {
        if !list.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("{title}:")).strong());
                ui.label(list.join(", "));
            });
        }
    };
    let limit = |n: Option<u8>| n.map(|n| format!(" ({n} blocks)")).unwrap_or_default();
    row(
        ui,
        format!("Major roads{}", limit(limits.map(|l| l.major))),
        names(LinkClass::Major, None),
    );
    row(
        ui,
        format!("Minor roads{}", limit(limits.map(|l| l.minor))),
        names(LinkClass::Minor, None),
    );
    row(
        ui,
        format!("Straits{}", limit(limits.map(|l| l.strait))),
        names(LinkClass::Strait, None),
    );
    if s.kind == SpaceKind::Sea {
        row(ui, "Ports".into(), names(LinkClass::Sea, Some(false)));
        row(
            ui,
            "Adjacent seas".into(),
            names(LinkClass::Sea, Some(true)),
        );
    } else {
        row(ui, "Seas".into(), names(LinkClass::Sea, Some(true)));
        // A port bordering a port is a data error the validator reports.
        row(
            ui,
            "Sea borders to ports".into(),
            names(LinkClass::Sea, Some(false)),
        );
    }
    if board.neighbours(id).is_empty() {
        ui.colored_label(super::theme::WARNING, "Not linked to anything");
    }

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
