//! What one scenario changes against another — by default the published game
//! (`scenarios/historical.ron`): its settings, spaces, links, blocks, cards
//! and starting deployment, as a list of plain sentences a designer can paste
//! into a forum post. Items are matched by name (spaces also by alias, blocks
//! within their side), never by their position in the files, so reordering
//! is no change. A renamed item shows as one removed and one added.
//!
//! The window's "Compare" view and `caesar-workbench diff` print the same list.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::scenario::format::{
    BlockDoc, DeploymentDoc, LinkDoc, MapDoc, ResolvedScenario, SpaceDoc,
};
use crate::scenario::kinds::Side;
use crate::scenario::names::normalise;

/// The parts of a scenario a difference can be in, in the order they are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    Settings,
    Spaces,
    Links,
    Blocks,
    Cards,
    Deployment,
}

impl Part {
    pub const ALL: [Part; 6] = [
        Part::Settings,
        Part::Spaces,
        Part::Links,
        Part::Blocks,
        Part::Cards,
        Part::Deployment,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Part::Settings => "Settings",
            Part::Spaces => "Spaces",
            Part::Links => "Links",
            Part::Blocks => "Blocks",
            Part::Cards => "Cards",
            Part::Deployment => "Deployment",
        }
    }
}

/// One change, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub part: Part,
    pub text: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Everything `this` changes against `base`, grouped by [`Part`] in the
/// order of [`Part::ALL`]; empty when they are the same game.
pub fn differences(base: &ResolvedScenario, this: &ResolvedScenario) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut add = |part: Part, text: String| out.push(Difference { part, text });
    settings(base, this, &mut add);
    spaces(&base.map, &this.map, &mut add);
    links(&base.map, &this.map, &mut add);
    blocks(&base.roster.blocks, &this.roster.blocks, &mut add);
    cards(base, this, &mut add);
    deployment(base, this, &mut add);
    out
}

/// The differences as text for a forum post: a heading line naming both
/// scenarios, then each part with changes and its lines as `- ` bullets.
pub fn report(base: &ResolvedScenario, this: &ResolvedScenario) -> String {
    let diffs = differences(base, this);
    let mut text = if diffs.is_empty() {
        format!(
            "\"{}\" is the same game as \"{}\" ({}).\n",
            this.name,
            base.name,
            base.path.display()
        )
    } else {
        format!(
            "\"{}\" changes {} {} against \"{}\" ({}):\n",
            this.name,
            diffs.len(),
            if diffs.len() == 1 { "thing" } else { "things" },
            base.name,
            base.path.display()
        )
    };
    for part in Part::ALL {
        let lines: Vec<&Difference> = diffs.iter().filter(|d| d.part == part).collect();
        if lines.is_empty() {
            continue;
        }
        text.push_str(&format!("\n{}\n", part.label()));
        for d in lines {
            text.push_str(&format!("- {}\n", d.text));
        }
    }
    text
}

/// The name and start year (descriptions are prose about their own file, not
/// a change to the game).
fn settings(base: &ResolvedScenario, this: &ResolvedScenario, add: &mut impl FnMut(Part, String)) {
    for (what, a, b) in [
        ("name", &base.name, &this.name),
        ("start year", &base.start_year, &this.start_year),
    ] {
        if a != b {
            add(Part::Settings, format!("{what}: \"{a}\" -> \"{b}\""));
        }
    }
}

/// A map's spaces by their normalised names and aliases: the space's name.
fn names_of(map: &MapDoc) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for s in &map.spaces {
        for alias in &s.aliases {
            out.entry(normalise(alias))
                .or_insert_with(|| s.name.clone());
        }
    }
    for s in &map.spaces {
        out.insert(normalise(&s.name), s.name.clone());
    }
    out
}

fn space_summary(s: &SpaceDoc) -> String {
    let mut parts = vec![s.kind.label().to_string()];
    if s.vp > 0 {
        parts.push(format!("{} VP", s.vp));
    }
    if let Some(island) = &s.island {
        parts.push(format!("on {island}"));
    }
    format!("{} ({})", s.name, parts.join(", "))
}

fn spaces(base: &MapDoc, this: &MapDoc, add: &mut impl FnMut(Part, String)) {
    let by_name = |m: &MapDoc| -> BTreeMap<String, SpaceDoc> {
        m.spaces
            .iter()
            .map(|s| (normalise(&s.name), s.clone()))
            .collect()
    };
    let (a, b) = (by_name(base), by_name(this));
    for (key, s) in &b {
        let Some(old) = a.get(key) else {
            add(Part::Spaces, format!("added {}", space_summary(s)));
            continue;
        };
        let name = &s.name;
        if old.kind != s.kind {
            add(
                Part::Spaces,
                format!("{name}: {} -> {}", old.kind.label(), s.kind.label()),
            );
        }
        if old.vp != s.vp {
            add(Part::Spaces, format!("{name}: {} -> {} VP", old.vp, s.vp));
        }
        if old.island != s.island {
            let island = |i: &Option<String>| i.clone().unwrap_or_else(|| "no island".into());
            add(
                Part::Spaces,
                format!("{name}: {} -> {}", island(&old.island), island(&s.island)),
            );
        }
        if old.aliases != s.aliases {
            let list = |l: &[String]| match l.is_empty() {
                true => "none".to_string(),
                false => l.join(", "),
            };
            add(
                Part::Spaces,
                format!(
                    "{name}: aliases {} -> {}",
                    list(&old.aliases),
                    list(&s.aliases)
                ),
            );
        }
        if old.at != s.at {
            add(
                Part::Spaces,
                format!(
                    "{name}: drawn at ({}, {}) -> ({}, {})",
                    old.at.0, old.at.1, s.at.0, s.at.1
                ),
            );
        }
    }
    for (key, s) in &a {
        if !b.contains_key(key) {
            add(Part::Spaces, format!("removed {}", s.name));
        }
    }
}

fn link_text(l: &LinkDoc, a: &str, b: &str) -> String {
    match l.name() {
        Some(n) if !n.is_empty() => format!("{} {a} – {b} (the {n})", l.class().label()),
        _ => format!("{} {a} – {b}", l.class().label()),
    }
}

fn links(base: &MapDoc, this: &MapDoc, add: &mut impl FnMut(Part, String)) {
    // Ends named by alias count as the space; the pair is unordered.
    let by_ends = |m: &MapDoc| -> BTreeMap<(String, String), (LinkDoc, String, String)> {
        let names = names_of(m);
        let canonical = |n: &str| {
            names
                .get(&normalise(n))
                .cloned()
                .unwrap_or_else(|| n.to_string())
        };
        m.links
            .iter()
            .map(|l| {
                let (a, b) = l.ends();
                let (mut a, mut b) = (canonical(a), canonical(b));
                if normalise(&a) > normalise(&b) {
                    std::mem::swap(&mut a, &mut b);
                }
                ((normalise(&a), normalise(&b)), (l.clone(), a, b))
            })
            .collect()
    };
    let (a, b) = (by_ends(base), by_ends(this));
    for (key, (l, x, y)) in &b {
        match a.get(key) {
            None => add(Part::Links, format!("added {}", link_text(l, x, y))),
            Some((old, _, _)) if old.class() != l.class() || old.name() != l.name() => add(
                Part::Links,
                format!("{} -> {}", link_text(old, x, y), link_text(l, x, y)),
            ),
            Some(_) => {}
        }
    }
    for (key, (l, x, y)) in &a {
        if !b.contains_key(key) {
            add(Part::Links, format!("removed {}", link_text(l, x, y)));
        }
    }
}

fn block_summary(b: &BlockDoc) -> String {
    let mut text = format!(
        "{} {}, strength {}",
        b.kind.label(),
        b.rating(),
        roman(b.steps.saturating_mul(b.kind.strength_per_step()))
    );
    if let Some(levy) = &b.levy {
        text.push_str(&format!(", levy {levy}"));
    }
    text
}

use crate::scenario::kinds::roman;

fn blocks(base: &[BlockDoc], this: &[BlockDoc], add: &mut impl FnMut(Part, String)) {
    let key = |b: &BlockDoc| (b.side, normalise(&b.name));
    let a: BTreeMap<(Side, String), &BlockDoc> = base.iter().map(|b| (key(b), b)).collect();
    let b: BTreeMap<(Side, String), &BlockDoc> = this.iter().map(|b| (key(b), b)).collect();
    for (k, new) in &b {
        let Some(old) = a.get(k) else {
            add(
                Part::Blocks,
                format!(
                    "added {} block {} ({})",
                    new.side,
                    new.name,
                    block_summary(new)
                ),
            );
            continue;
        };
        let mut changes = Vec::new();
        if old.kind != new.kind {
            changes.push(format!("{} -> {}", old.kind.label(), new.kind.label()));
        }
        if old.rating() != new.rating() {
            changes.push(format!("rating {} -> {}", old.rating(), new.rating()));
        }
        let strength = |b: &BlockDoc| b.steps.saturating_mul(b.kind.strength_per_step());
        if strength(old) != strength(new) {
            changes.push(format!(
                "strength {} -> {}",
                roman(strength(old)),
                roman(strength(new))
            ));
        }
        if old.levy.as_deref().map(normalise) != new.levy.as_deref().map(normalise) {
            let levy = |l: &Option<String>| l.clone().unwrap_or_else(|| "none".into());
            changes.push(format!("levy {} -> {}", levy(&old.levy), levy(&new.levy)));
        }
        if !changes.is_empty() {
            add(
                Part::Blocks,
                format!("{} block {}: {}", new.side, new.name, changes.join(", ")),
            );
        }
    }
    for (k, old) in &a {
        if !b.contains_key(k) {
            add(
                Part::Blocks,
                format!("removed {} block {}", old.side, old.name),
            );
        }
    }
}

fn cards(base: &ResolvedScenario, this: &ResolvedScenario, add: &mut impl FnMut(Part, String)) {
    let (a, b) = (&base.deck, &this.deck);
    let events =
        |d: &crate::scenario::format::DeckDoc| d.events.iter().copied().collect::<BTreeSet<_>>();
    let (ea, eb) = (events(a), events(b));
    for e in eb.difference(&ea) {
        add(Part::Cards, format!("added event card {e:?}"));
    }
    for e in ea.difference(&eb) {
        add(Part::Cards, format!("removed event card {e:?}"));
    }
    let faces = |d: &crate::scenario::format::DeckDoc| {
        let mut out: BTreeMap<(std::cmp::Reverse<u8>, std::cmp::Reverse<u8>), u32> =
            BTreeMap::new();
        for c in &d.commands {
            *out.entry((std::cmp::Reverse(c.moves), std::cmp::Reverse(c.levy)))
                .or_default() += u32::from(c.copies);
        }
        out
    };
    for (face, x, y) in differing_counts(&faces(a), &faces(b)) {
        add(
            Part::Cards,
            format!(
                "command card {}/{}: {x} -> {y} {}",
                face.0.0,
                face.1.0,
                if y == 1 { "copy" } else { "copies" }
            ),
        );
    }
    let total = |d: &crate::scenario::format::DeckDoc| {
        d.events.len() as u32 + d.commands.iter().map(|c| u32::from(c.copies)).sum::<u32>()
    };
    if total(a) != total(b) {
        add(
            Part::Cards,
            format!("the deck: {} -> {} cards", total(a), total(b)),
        );
    }
}

/// Where each block of a side stands (by normalised name), and the starting
/// strengths set, in a deployment; city names as the map names them.
fn places(
    d: &DeploymentDoc,
    side: Side,
    names: &BTreeMap<String, String>,
) -> (BTreeMap<String, String>, BTreeMap<String, u8>) {
    let mut at = BTreeMap::new();
    for (city, blocks) in d.side(side) {
        let city = names
            .get(&normalise(city))
            .cloned()
            .unwrap_or_else(|| city.clone());
        for b in blocks {
            at.entry(normalise(b)).or_insert_with(|| city.clone());
        }
    }
    let strengths = d
        .strengths
        .side(side)
        .iter()
        .map(|(b, s)| (normalise(b), *s))
        .collect();
    (at, strengths)
}

fn deployment(
    base: &ResolvedScenario,
    this: &ResolvedScenario,
    add: &mut impl FnMut(Part, String),
) {
    let start = |s: &ResolvedScenario| {
        s.free_deployment
            .clone()
            .unwrap_or_else(|| s.order_of_battle.clone())
    };
    let mode = |s: &ResolvedScenario| match s.free_deployment {
        Some(_) => "a free deployment (5.3)",
        None => "the order of battle (5.1)",
    };
    if mode(base) != mode(this) {
        add(
            Part::Deployment,
            format!("starts from {} instead of {}", mode(this), mode(base)),
        );
    }
    let (da, db) = (start(base), start(this));
    let (na, nb) = (names_of(&base.map), names_of(&this.map));
    for side in Side::BOTH {
        let (at_a, str_a) = places(&da, side, &na);
        let (at_b, str_b) = places(&db, side, &nb);
        let names_a: BTreeMap<String, &BlockDoc> = base
            .roster
            .blocks
            .iter()
            .filter(|b| b.side == side)
            .map(|b| (normalise(&b.name), b))
            .collect();
        // Every block of this roster, in its order: where it starts, and at what strength.
        for block in this.roster.blocks.iter().filter(|b| b.side == side) {
            let key = normalise(&block.name);
            let pool = "the levy pool".to_string();
            let (from, to) = (
                at_a.get(&key).unwrap_or(&pool),
                at_b.get(&key).unwrap_or(&pool),
            );
            let known = names_a.contains_key(&key);
            if from != to && (known || at_b.contains_key(&key)) {
                let text = match known {
                    true => format!("{side}: {} {from} -> {to}", block.name),
                    false => format!("{side}: {} starts in {to}", block.name),
                };
                add(Part::Deployment, text);
            }
            let full = block.steps.saturating_mul(block.kind.strength_per_step());
            let strength = |m: &BTreeMap<String, u8>, deployed: bool| match (m.get(&key), deployed)
            {
                (_, false) => None,
                (Some(s), true) => Some(*s),
                (None, true) => Some(full),
            };
            let (sa, sb) = (
                strength(&str_a, at_a.contains_key(&key)),
                strength(&str_b, at_b.contains_key(&key)),
            );
            // A new block deployed at full strength says nothing more.
            if let Some(s) = sb
                && sa != sb
                && (sa.is_some() || s < full)
            {
                add(
                    Part::Deployment,
                    format!(
                        "{side}: {} starts at strength {} (of {})",
                        block.name,
                        roman(s),
                        roman(full)
                    ),
                );
            }
        }
    }
}

/// The keys whose counts differ between `a` and `b`, in order, with both
/// counts (0 where a key is missing).
pub(crate) fn differing_counts<K: Ord + Copy, N: Copy + Default + PartialEq>(
    a: &BTreeMap<K, N>,
    b: &BTreeMap<K, N>,
) -> Vec<(K, N, N)> {
    let keys: BTreeSet<K> = a.keys().chain(b.keys()).copied().collect();
    keys.into_iter()
        .map(|k| {
            let count = |m: &BTreeMap<K, N>| m.get(&k).copied().unwrap_or_default();
            (k, count(a), count(b))
        })
        .filter(|(_, x, y)| x != y)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::format::{CommandDoc, LinkDoc};
    use crate::scenario::kinds::{BlockKind, Event, Initiative, SpaceKind};

    fn texts(base: &ResolvedScenario, this: &ResolvedScenario) -> Vec<String> {
        differences(base, this)
            .into_iter()
            .map(|d| format!("{}: {}", d.part.label(), d.text))
            .collect()
    }

    /// The one of `items` named `name`, to change it.
    fn named<'a, T>(items: &'a mut [T], name: &str, name_of: fn(&T) -> &String) -> &'a mut T {
        items.iter_mut().find(|t| name_of(t) == name).unwrap()
    }

    #[test]
    fn the_published_game_differs_from_itself_in_nothing() {
        let h = crate::scenario::historical();
        assert!(differences(&h, &h).is_empty());
        assert!(report(&h, &h).contains("is the same game as"));
    }

    #[test]
    fn reordering_and_writing_a_link_by_alias_is_no_change() {
        let h = crate::scenario::historical();
        let mut this = h.clone();
        this.map.spaces.reverse();
        this.roster.blocks.reverse();
        this.deck.commands.reverse();
        // "Rome" is an alias of Roma; the ends swapped.
        let k = this
            .map
            .links
            .iter()
            .position(|l| l == &LinkDoc::Major("Genua".into(), "Roma".into()))
            .expect("Genua - Roma");
        this.map.links[k] = LinkDoc::Major("Rome".into(), "Genua".into());
        assert_eq!(texts(&h, &this), Vec::<String>::new());
    }

    #[test]
    fn an_extra_legion_a_stronger_caesar_and_one_fewer_3_1_are_listed_by_part() {
        let h = crate::scenario::historical();
        let mut this = h.clone();
        this.name = "Caesar's gamble".into();
        this.roster.blocks.push(BlockDoc {
            side: Side::Caesar,
            name: "Legio 15".into(),
            kind: BlockKind::Legion,
            initiative: Initiative::C,
            attacking_initiative: None,
            firepower: 3,
            steps: 3,
            levy: Some("Ravenna".into()),
        });
        let caesar = named(&mut this.roster.blocks, "Caesar", |b| &b.name);
        caesar.firepower = 4;
        caesar.steps = 4;
        let three_one = this
            .deck
            .commands
            .iter_mut()
            .find(|c| (c.moves, c.levy) == (3, 1))
            .unwrap();
        three_one.copies = 2;
        this.deck.events.retain(|e| *e != Event::Jupiter);
        assert_eq!(
            texts(&h, &this),
            [
                "Settings: name: \"Julius Caesar, 705 (49 BC)\" -> \"Caesar's gamble\"",
                "Blocks: Caesar block Caesar: rating A3 -> A4, strength III -> IV",
                "Blocks: added Caesar block Legio 15 (legion C3, strength III, levy Ravenna)",
                "Cards: removed event card Jupiter",
                "Cards: command card 3/1: 3 -> 2 copies",
                "Cards: the deck: 27 -> 25 cards",
            ]
        );
        let text = report(&h, &this);
        assert!(
            text.starts_with(
                "\"Caesar's gamble\" changes 6 things against \"Julius Caesar, 705 (49 BC)\" (scenarios/historical.ron):"
            ),
            "{text}"
        );
        assert!(
            text.contains("\nBlocks\n- Caesar block Caesar: rating A3 -> A4"),
            "{text}"
        );
    }

    #[test]
    fn spaces_links_and_a_new_face_are_compared_by_name() {
        let h = crate::scenario::historical();
        let mut this = h.clone();
        let roma = named(&mut this.map.spaces, "Roma", |s| &s.name);
        roma.vp = 3;
        roma.kind = SpaceKind::MajorPort;
        this.map.spaces.retain(|s| s.name != "Aenos");
        this.map.links.retain(|l| {
            let (a, b) = l.ends();
            a != "Aenos" && b != "Aenos"
        });
        this.map.spaces.push(SpaceDoc {
            name: "Nova".into(),
            kind: SpaceKind::City,
            vp: 1,
            at: (10.0, 10.0),
            island: None,
            aliases: vec![],
        });
        this.map
            .links
            .push(LinkDoc::Minor("Nova".into(), "Roma".into()));
        let k = this
            .map
            .links
            .iter()
            .position(|l| l == &LinkDoc::Major("Genua".into(), "Roma".into()))
            .unwrap();
        this.map.links[k] = LinkDoc::Minor("Genua".into(), "Roma".into());
        this.deck.commands.push(CommandDoc {
            moves: 4,
            levy: 4,
            copies: 1,
        });
        let t = texts(&h, &this);
        for line in [
            "Spaces: Roma: port -> major port",
            "Spaces: Roma: 2 -> 3 VP",
            "Spaces: added Nova (city, 1 VP)",
            "Spaces: removed Aenos",
            "Links: major road Genua – Roma -> minor road Genua – Roma",
            "Links: added minor road Nova – Roma",
            "Cards: command card 4/4: 0 -> 1 copy",
        ] {
            assert!(t.contains(&line.to_string()), "{line} not in {t:#?}");
        }
        assert!(
            t.iter()
                .any(|l| l.starts_with("Links: removed ") && l.contains("Aenos")),
            "{t:#?}"
        );
    }

    #[test]
    fn the_starting_deployment_is_compared_block_by_block() {
        let h = crate::scenario::historical();
        let mut this = h.clone();
        let mut free = h.order_of_battle.clone();
        // Legio 13 from Ravenna to Genua, Legio 8 the other way (5.3).
        for (city, blocks) in free.caesar.iter_mut() {
            for b in blocks.iter_mut() {
                match (city.as_str(), b.as_str()) {
                    ("Ravenna", "Legio 13") => *b = "Legio 8".into(),
                    ("Genua", "Legio 8") => *b = "Legio 13".into(),
                    _ => {}
                }
            }
        }
        free.strengths.pompey.push(("Legio 1".into(), 2));
        this.free_deployment = Some(free);
        assert_eq!(
            texts(&h, &this),
            [
                "Deployment: starts from a free deployment (5.3) instead of the order of battle (5.1)",
                "Deployment: Caesar: Legio 8 Genua -> Ravenna",
                "Deployment: Caesar: Legio 13 Ravenna -> Genua",
                "Deployment: Pompey: Legio 1 starts at strength II (of IV)",
            ]
        );
    }
}
