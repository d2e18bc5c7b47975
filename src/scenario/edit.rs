//! The document the workbench edits: a scenario's sections, the file they
//! came from, edit commands with undo and redo, and saving.
//!
//! Every edit is a command ([`Edit`]) applied to the working sections; the
//! state before it goes on the undo stack, so undo and redo restore exactly
//! what was there. Edits that would make an impossible scenario (a Navis
//! inland, a land block at sea, a link to nowhere) are refused with a reason;
//! everything else is allowed and judged by the validator, which the caller
//! runs after each edit ([`Document::validate`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::scenario::diagnostics::{Finding, Subject};
use crate::scenario::format::{
    self, BlockDoc, DeckDoc, DeploymentDoc, LinkDoc, LoadError, MapDoc, ResolvedScenario,
    RosterDoc, ScenarioDoc, Sections, SourceFile, SpaceDoc,
};
use crate::scenario::model::Scenario;
use crate::scenario::model::{BlockKind, Event, LinkClass, Side, SpaceKind};
use crate::scenario::names::normalise;
use crate::scenario::rules::RuleSet;
use crate::scenario::validate::{Report, validate};

/// Why an edit was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EditError(pub String);

fn refuse<T>(message: impl Into<String>) -> Result<T, EditError> {
    Err(EditError(message.into()))
}

/// Which deployment the deployment editor changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeploymentMode {
    /// 5.1: the order of battle.
    Historical,
    /// 5.3: a free deployment, checked against the order of battle.
    Free,
}

/// One edit command. Spaces are named by their map name (or an alias), as in
/// the file; links by their two ends.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    MoveSpace {
        space: String,
        to: (f32, f32),
    },
    /// Renames a space and every link, deployment and levy city that uses the old name.
    RenameSpace {
        space: String,
        name: String,
    },
    SetKind {
        space: String,
        kind: SpaceKind,
    },
    SetVp {
        space: String,
        vp: u8,
    },
    SetAliases {
        space: String,
        aliases: Vec<String>,
    },
    AddSpace(SpaceDoc),
    /// Deletes a space with its links; its blocks go back to the levy pool.
    DeleteSpace {
        space: String,
    },
    AddLink(LinkDoc),
    DeleteLink {
        a: String,
        b: String,
    },
    /// Changes a link's class; a strait keeps (or is given) `name`.
    SetLinkClass {
        a: String,
        b: String,
        class: LinkClass,
        name: Option<String>,
    },
    /// Moves a block of the current deployment to a city, or to its side's
    /// levy pool (`to: None`).
    MoveBlock {
        side: Side,
        block: String,
        to: Option<String>,
    },
    /// Sets a deployed block's starting strength as printed (`None`: full
    /// strength, as the published game starts every block, 5.1).
    SetStrength {
        side: Side,
        block: String,
        strength: Option<u8>,
    },
    /// Historical edits the order of battle; free starts a free deployment
    /// from it (5.3) when there is none, and historical removes it.
    SetMode(DeploymentMode),
    /// Sets a block's kind and ratings: everything in `to` but its side and
    /// name (renaming is [`Edit::RenameBlock`]). Values the rules do not
    /// allow ([`crate::scenario::kinds::FIREPOWER`], [`BlockKind::step_range`]) are refused.
    SetBlock {
        side: Side,
        block: String,
        to: BlockDoc,
    },
    /// Renames a block and every deployment entry and starting strength that names it.
    RenameBlock {
        side: Side,
        block: String,
        name: String,
    },
    /// Adds a block to the roster; it starts in its side's levy pool (5.2).
    AddBlock(BlockDoc),
    /// Adds a copy of a block under a new name, in the levy pool.
    DuplicateBlock {
        side: Side,
        block: String,
        name: String,
    },
    /// Deletes a block with its deployment entries and starting strengths.
    DeleteBlock {
        side: Side,
        block: String,
    },
    /// Sets how many command cards of one face (moves/levies) the deck holds; 0 removes them.
    SetCommandCopies {
        moves: u8,
        levy: u8,
        copies: u8,
    },
    /// Puts an event card in the deck or takes it out.
    SetEvent {
        event: Event,
        present: bool,
    },
    SetName(String),
    SetDescription(String),
    /// The year the game starts, as a label ("705 (49 BC)").
    SetStartYear(String),
    /// The scenario file this one extends (`None`: a file standing alone).
    /// [`Document::apply`] refuses a file it cannot load.
    SetExtends(Option<String>),
}

impl Edit {
    /// A few words for the undo history.
    pub fn label(&self) -> String {
        match self {
            Edit::MoveSpace { space, .. } => format!("move {space}"),
            Edit::RenameSpace { space, name } => format!("rename {space} to {name}"),
            Edit::SetKind { space, kind } => format!("make {space} a {}", kind.label()),
            Edit::SetVp { space, vp } => format!("{space}: {vp} VP"),
            Edit::SetAliases { space, .. } => format!("aliases of {space}"),
            Edit::AddSpace(s) => format!("add {}", s.name),
            Edit::DeleteSpace { space } => format!("delete {space}"),
            Edit::AddLink(l) => {
                let (a, b) = l.ends();
                format!("add {} {a} - {b}", l.class().label())
            }
            Edit::DeleteLink { a, b } => format!("delete link {a} - {b}"),
            Edit::SetLinkClass { a, b, class, .. } => {
                format!("make {a} - {b} a {}", class.label())
            }
            Edit::MoveBlock { block, to, .. } => match to {
                Some(city) => format!("move {block} to {city}"),
                None => format!("move {block} to the pool"),
            },
            Edit::SetStrength {
                block, strength, ..
            } => match strength {
                Some(s) => format!("{block} at strength {s}"),
                None => format!("{block} at full strength"),
            },
            Edit::SetMode(DeploymentMode::Historical) => "historical deployment".into(),
            Edit::SetMode(DeploymentMode::Free) => "free deployment".into(),
            Edit::SetBlock { block, to, .. } => format!(
                "make {block} {} {}, strength {}{}",
                to.kind.label(),
                to.rating(),
                to.steps.saturating_mul(to.kind.strength_per_step()),
                to.levy
                    .as_ref()
                    .map_or(String::new(), |l| format!(", levy {l}"))
            ),
            Edit::RenameBlock { block, name, .. } => format!("rename {block} to {}", name.trim()),
            Edit::AddBlock(b) => format!("add {} block {}", b.side, b.name.trim()),
            Edit::DuplicateBlock { block, name, .. } => {
                format!("duplicate {block} as {}", name.trim())
            }
            Edit::DeleteBlock { side, block } => format!("delete {side} block {block}"),
            Edit::SetCommandCopies {
                moves,
                levy,
                copies,
            } => format!("{copies} × command card {moves}/{levy}"),
            Edit::SetEvent { event, present } => match present {
                true => format!("add event card {event:?}"),
                false => format!("remove event card {event:?}"),
            },
            Edit::SetName(name) => format!("rename the scenario to {}", name.trim()),
            Edit::SetDescription(_) => "the scenario's description".into(),
            Edit::SetStartYear(year) => format!("start year {}", year.trim()),
            Edit::SetExtends(Some(file)) => format!("extend {}", file.trim()),
            Edit::SetExtends(None) => "stand alone (extend no file)".into(),
        }
    }

    /// The label for the undo history, given the scenario before the edit:
    /// a deleted block says where it was deployed, since that goes with it.
    pub(crate) fn label_in(&self, before: &Working) -> String {
        match self {
            Edit::DeleteBlock { side, block } => {
                let mut places = Vec::new();
                let key = normalise(block);
                let deployments = [
                    ("order of battle", Some(&before.order_of_battle)),
                    ("free deployment", before.free_deployment.as_ref()),
                ];
                for (what, d) in deployments {
                    let Some(d) = d else { continue };
                    if let Some((city, _)) = d
                        .side(*side)
                        .iter()
                        .find(|(_, blocks)| blocks.iter().any(|b| normalise(b) == key))
                    {
                        places.push(format!("{city} ({what})"));
                    }
                }
                match places.len() {
                    0 => format!("{} (from the levy pool)", self.label()),
                    _ => format!(
                        "{} and its deployment in {}",
                        self.label(),
                        places.join(" and ")
                    ),
                }
            }
            _ => self.label(),
        }
    }
}

/// The scenario's sections as they are being edited.
#[derive(Debug, Clone, PartialEq)]
pub struct Working {
    pub name: String,
    pub description: String,
    /// The year the game starts, as a label.
    pub start_year: String,
    /// The file's `extends` (kept when saving).
    pub extends: Option<String>,
    pub map: MapDoc,
    pub roster: RosterDoc,
    pub deck: DeckDoc,
    pub order_of_battle: DeploymentDoc,
    pub free_deployment: Option<DeploymentDoc>,
}

impl Working {
    fn from_resolved(r: &ResolvedScenario, extends: Option<String>) -> Working {
        Working {
            name: r.name.clone(),
            description: r.description.clone(),
            start_year: r.start_year.clone(),
            extends,
            map: r.map.clone(),
            roster: r.roster.clone(),
            deck: r.deck.clone(),
            order_of_battle: r.order_of_battle.clone(),
            free_deployment: r.free_deployment.clone(),
        }
    }

    /// Index of a space by name or alias.
    pub fn space_index(&self, name: &str) -> Option<usize> {
        let key = normalise(name);
        self.map
            .spaces
            .iter()
            .position(|s| normalise(&s.name) == key)
            .or_else(|| {
                self.map
                    .spaces
                    .iter()
                    .position(|s| s.aliases.iter().any(|a| normalise(a) == key))
            })
    }

    fn space(&self, name: &str) -> Result<usize, EditError> {
        self.space_index(name)
            .ok_or_else(|| EditError(format!("there is no space \"{name}\"")))
    }

    /// Index of the link between two spaces, in either direction. An end
    /// that names no space (a typo the validator reports) matches by its
    /// text, so such a link can still be selected, fixed or deleted.
    pub fn link_index(&self, a: &str, b: &str) -> Option<usize> {
        let same = |x: &str, y: &str| match (self.space_index(x), self.space_index(y)) {
            (Some(i), Some(j)) => i == j,
            _ => normalise(x) == normalise(y),
        };
        self.map.links.iter().position(|l| {
            let (x, y) = l.ends();
            (same(x, a) && same(y, b)) || (same(x, b) && same(y, a))
        })
    }

    /// The deployment a mode edits.
    pub fn deployment(&self, mode: DeploymentMode) -> Option<&DeploymentDoc> {
        match mode {
            DeploymentMode::Historical => Some(&self.order_of_battle),
            DeploymentMode::Free => self.free_deployment.as_ref(),
        }
    }

    /// The mode the scenario is in: free when it has a free deployment.
    pub fn mode(&self) -> DeploymentMode {
        if self.free_deployment.is_some() {
            DeploymentMode::Free
        } else {
            DeploymentMode::Historical
        }
    }

    /// Where a block stands in the current deployment (`None`: the pool).
    pub fn block_location(&self, side: Side, block: &str) -> Option<&str> {
        let key = normalise(block);
        self.deployment(self.mode())?
            .side(side)
            .iter()
            .find(|(_, blocks)| blocks.iter().any(|b| normalise(b) == key))
            .map(|(city, _)| city.as_str())
    }

    /// A deployed block's starting strength as printed in the current
    /// deployment (full unless set lower); `None` for a block in the pool.
    pub fn block_strength(&self, side: Side, block: &str) -> Option<u8> {
        self.block_location(side, block)?;
        let doc = self.roster_block(side, block).ok()?;
        let key = normalise(block);
        let set = self
            .deployment(self.mode())?
            .strengths
            .side(side)
            .iter()
            .find(|(b, _)| normalise(b) == key)
            .map(|(_, s)| *s);
        Some(set.unwrap_or(doc.steps.saturating_mul(doc.kind.strength_per_step())))
    }

    fn apply(&mut self, edit: &Edit) -> Result<(), EditError> {
        match edit {
            Edit::MoveSpace { space, to } => {
                if !(to.0.is_finite() && to.1.is_finite()) {
                    return refuse("a position must be a finite number");
                }
                let i = self.space(space)?;
                self.map.spaces[i].at = *to;
            }
            Edit::RenameSpace { space, name } => self.rename(space, name)?,
            Edit::SetKind { space, kind } => {
                let i = self.space(space)?;
                self.map.spaces[i].kind = *kind;
            }
            Edit::SetVp { space, vp } => {
                let i = self.space(space)?;
                self.map.spaces[i].vp = *vp;
            }
            Edit::SetAliases { space, aliases } => self.set_aliases(space, aliases)?,
            Edit::AddSpace(space) => self.add_space(space)?,
            Edit::DeleteSpace { space } => self.delete_space(space)?,
            Edit::AddLink(link) => self.add_link(link)?,
            Edit::DeleteLink { a, b } => {
                let k = self
                    .link_index(a, b)
                    .ok_or_else(|| EditError(format!("{a} and {b} are not linked")))?;
                self.map.links.remove(k);
            }
            Edit::SetLinkClass { a, b, class, name } => self.set_link_class(a, b, *class, name)?,
            Edit::MoveBlock { side, block, to } => self.move_block(*side, block, to.as_deref())?,
            Edit::SetStrength {
                side,
                block,
                strength,
            } => self.set_strength(*side, block, *strength)?,
            Edit::SetMode(mode) => match mode {
                DeploymentMode::Historical => self.free_deployment = None,
                DeploymentMode::Free => {
                    if self.free_deployment.is_none() {
                        self.free_deployment = Some(self.order_of_battle.clone());
                    }
                }
            },
            Edit::SetBlock { side, block, to } => self.set_block(*side, block, to)?,
            Edit::RenameBlock { side, block, name } => self.rename_block(*side, block, name)?,
            Edit::AddBlock(b) => self.add_block(b.clone())?,
            Edit::DuplicateBlock { side, block, name } => {
                let copy = BlockDoc {
                    name: name.clone(),
                    ..self.roster_block(*side, block)?.clone()
                };
                self.add_block(copy)?;
            }
            Edit::DeleteBlock { side, block } => self.delete_block(*side, block)?,
            Edit::SetCommandCopies {
                moves,
                levy,
                copies,
            } => self.set_command_copies(*moves, *levy, *copies),
            Edit::SetEvent { event, present } => self.set_event(event, *present),
            Edit::SetName(name) => {
                let name = name.trim();
                if name.is_empty() {
                    return refuse("a scenario needs a name");
                }
                self.name = name.to_string();
            }
            Edit::SetDescription(text) => self.description = text.trim().to_string(),
            Edit::SetStartYear(year) => self.start_year = year.trim().to_string(),
            Edit::SetExtends(file) => {
                self.extends = file
                    .as_deref()
                    .map(str::trim)
                    .filter(|f| !f.is_empty())
                    .map(str::to_string)
            }
        }
        Ok(())
    }

    /// Sets a space's other names; one that names another space is refused.
    fn set_aliases(&mut self, space: &str, aliases: &[String]) -> Result<(), EditError> {
        let i = self.space(space)?;
        let aliases: Vec<String> = aliases
            .iter()
            .map(|a| a.trim().to_string())
            .filter(|a| !a.is_empty())
            .collect();
        for alias in &aliases {
            if let Some(j) = self.space_index(alias)
                && j != i
            {
                return refuse(format!(
                    "\"{alias}\" already names \"{}\"",
                    self.map.spaces[j].name
                ));
            }
        }
        self.map.spaces[i].aliases = aliases;
        Ok(())
    }

    /// Adds a space under a name no space has.
    fn add_space(&mut self, space: &SpaceDoc) -> Result<(), EditError> {
        let name = space.name.trim();
        if name.is_empty() {
            return refuse("a space needs a name");
        }
        if let Some(j) = self.space_index(name) {
            return refuse(format!(
                "\"{name}\" already names \"{}\"",
                self.map.spaces[j].name
            ));
        }
        self.map.spaces.push(SpaceDoc {
            name: name.to_string(),
            ..space.clone()
        });
        Ok(())
    }

    /// Deletes a space with its links; blocks deployed there go back to the pool.
    fn delete_space(&mut self, space: &str) -> Result<(), EditError> {
        let i = self.space(space)?;
        let removed = self.map.spaces[i].clone();
        let is_removed = |n: &str| {
            let k = normalise(n);
            normalise(&removed.name) == k || removed.aliases.iter().any(|a| normalise(a) == k)
        };
        self.map.links.retain(|l| {
            let (a, b) = l.ends();
            !is_removed(a) && !is_removed(b)
        });
        let mut deployments = vec![&mut self.order_of_battle];
        deployments.extend(self.free_deployment.as_mut());
        for d in deployments {
            for side in Side::BOTH {
                let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(d.side_mut(side))
                    .into_iter()
                    .partition(|(city, _)| is_removed(city));
                *d.side_mut(side) = kept;
                // Blocks sent back to the pool lose their strength (6.4).
                let pooled: Vec<String> = gone
                    .into_iter()
                    .flat_map(|(_, blocks)| blocks)
                    .map(|b| normalise(&b))
                    .collect();
                d.strengths
                    .side_mut(side)
                    .retain(|(b, _)| !pooled.contains(&normalise(b)));
            }
        }
        self.map.spaces.remove(i);
        Ok(())
    }

    /// Links two different spaces not yet linked.
    fn add_link(&mut self, link: &LinkDoc) -> Result<(), EditError> {
        let (a, b) = link.ends();
        let (ia, ib) = (self.space(a)?, self.space(b)?);
        if ia == ib {
            return refuse(format!(
                "a link joins two different spaces, not {a} to itself"
            ));
        }
        if self.link_index(a, b).is_some() {
            return refuse(format!("{a} and {b} are already linked"));
        }
        self.map.links.push(link.clone());
        Ok(())
    }

    /// Changes a link's class, keeping its name unless a new one is given.
    fn set_link_class(
        &mut self,
        a: &str,
        b: &str,
        class: LinkClass,
        name: &Option<String>,
    ) -> Result<(), EditError> {
        let k = self
            .link_index(a, b)
            .ok_or_else(|| EditError(format!("{a} and {b} are not linked")))?;
        let old = &self.map.links[k];
        let (x, y) = old.ends();
        let name = name.clone().or_else(|| old.name().map(str::to_string));
        self.map.links[k] = LinkDoc::new(class, x.to_string(), y.to_string(), name);
        Ok(())
    }

    /// Deletes a block from the roster and from every deployment.
    fn delete_block(&mut self, side: Side, block: &str) -> Result<(), EditError> {
        let i = self.roster_index(side, block)?;
        let key = normalise(&self.roster.blocks[i].name);
        self.roster.blocks.remove(i);
        self.each_deployment(|d| {
            let entries = d.side_mut(side);
            for (_, blocks) in entries.iter_mut() {
                blocks.retain(|b| normalise(b) != key);
            }
            entries.retain(|(_, blocks)| !blocks.is_empty());
            d.strengths
                .side_mut(side)
                .retain(|(b, _)| normalise(b) != key);
        });
        Ok(())
    }

    /// Sets how many copies of a command card the deck holds (0 removes it).
    fn set_command_copies(&mut self, moves: u8, levy: u8, copies: u8) {
        let face = |c: &crate::scenario::format::CommandDoc| c.moves == moves && c.levy == levy;
        let commands = &mut self.deck.commands;
        match commands.iter().position(face) {
            Some(first) => {
                commands[first].copies = copies;
                let mut k = 0;
                commands.retain(|c| {
                    k += 1;
                    k - 1 == first || !face(c)
                });
                if copies == 0 {
                    commands.remove(first);
                }
            }
            None if copies > 0 => commands.push(crate::scenario::format::CommandDoc {
                moves,
                levy,
                copies,
            }),
            None => {}
        }
    }

    /// Puts an event card in the deck or takes it out.
    fn set_event(&mut self, event: &Event, present: bool) {
        let events = &mut self.deck.events;
        if present {
            if !events.contains(event) {
                // Cards are numbered events first, in the printed order.
                let at = events.iter().take_while(|e| *e < event).count();
                events.insert(at, *event);
            }
        } else {
            events.retain(|e| e != event);
        }
    }

    /// Calls `f` on the order of battle and the free deployment, if any.
    fn each_deployment(&mut self, mut f: impl FnMut(&mut DeploymentDoc)) {
        f(&mut self.order_of_battle);
        if let Some(free) = &mut self.free_deployment {
            f(free);
        }
    }

    fn roster_index(&self, side: Side, block: &str) -> Result<usize, EditError> {
        let key = normalise(block);
        self.roster
            .blocks
            .iter()
            .position(|b| b.side == side && normalise(&b.name) == key)
            .ok_or_else(|| EditError(format!("{side} has no block \"{block}\"")))
    }

    /// Why a block of `kind` cannot have these ratings, if it cannot: the
    /// ranges the validator checks, and a levy city that is a city of the map.
    fn rating_problem(&self, b: &BlockDoc) -> Option<String> {
        let fire = crate::scenario::kinds::FIREPOWER;
        if !fire.contains(&b.firepower) {
            return Some(format!(
                "firepower is {} to {} (7.4: a d6 hits on 1 to the firepower), not {}",
                fire.start(),
                fire.end(),
                b.firepower
            ));
        }
        let steps = b.kind.step_range();
        if !steps.contains(&b.steps) {
            return Some(format!(
                "a {} has {} to {} steps (3.11: strength I to IV), not {}",
                b.kind.label(),
                steps.start(),
                steps.end(),
                b.steps
            ));
        }
        if let Some(levy) = &b.levy {
            match self.space_index(levy) {
                None => return Some(format!("there is no city \"{levy}\" to levy in")),
                Some(i) if !self.map.spaces[i].kind.is_city() => {
                    return Some(format!(
                        "{} is a sea: blocks are levied in cities (6.4)",
                        self.map.spaces[i].name
                    ));
                }
                Some(_) => {}
            }
        }
        None
    }

    fn add_block(&mut self, b: BlockDoc) -> Result<(), EditError> {
        let name = b.name.trim().to_string();
        if name.is_empty() {
            return refuse("a block needs a name");
        }
        if self.roster_index(b.side, &name).is_ok() {
            return refuse(format!("{} already has a block \"{name}\"", b.side));
        }
        if let Some(why) = self.rating_problem(&b) {
            return refuse(why);
        }
        self.roster.blocks.push(BlockDoc { name, ..b });
        Ok(())
    }

    fn set_block(&mut self, side: Side, block: &str, to: &BlockDoc) -> Result<(), EditError> {
        let i = self.roster_index(side, block)?;
        let old = self.roster.blocks[i].clone();
        let mut new = BlockDoc {
            side: old.side,
            name: old.name.clone(),
            ..to.clone()
        };
        if new.attacking_initiative == Some(new.initiative) {
            new.attacking_initiative = None;
        }
        if let Some(why) = self.rating_problem(&new) {
            return refuse(why);
        }
        // A new kind must still fit where the block is deployed (4.1, 4.4).
        if new.kind != old.kind {
            let mut deployed = vec![self.order_of_battle.side(side).clone()];
            deployed.extend(self.free_deployment.as_ref().map(|d| d.side(side).clone()));
            let key = normalise(&old.name);
            for (city, blocks) in deployed.iter().flatten() {
                if blocks.iter().any(|b| normalise(b) == key)
                    && let Some(i) = self.space_index(city)
                    && let Some(why) = placement_problem(&new.name, new.kind, &self.map.spaces[i])
                {
                    return refuse(why);
                }
            }
        }
        let key = normalise(&new.name);
        let allowed: Vec<u8> = new.kind.strengths(new.steps).collect();
        let full = new.steps.saturating_mul(new.kind.strength_per_step());
        // Starting strengths the new ratings no longer allow go (full strength).
        self.each_deployment(|d| {
            d.strengths
                .side_mut(side)
                .retain(|(b, s)| normalise(b) != key || (allowed.contains(s) && *s < full))
        });
        self.roster.blocks[i] = new;
        Ok(())
    }

    fn rename_block(&mut self, side: Side, block: &str, name: &str) -> Result<(), EditError> {
        let i = self.roster_index(side, block)?;
        let name = name.trim();
        if name.is_empty() {
            return refuse("a block needs a name");
        }
        if let Ok(j) = self.roster_index(side, name)
            && j != i
        {
            return refuse(format!("{side} already has a block \"{name}\""));
        }
        let old = normalise(&self.roster.blocks[i].name);
        let fix = |s: &mut String| {
            if normalise(s) == old {
                *s = name.to_string();
            }
        };
        self.each_deployment(|d| {
            for (_, blocks) in d.side_mut(side).iter_mut() {
                blocks.iter_mut().for_each(fix);
            }
            for (b, _) in d.strengths.side_mut(side).iter_mut() {
                fix(b);
            }
        });
        self.roster.blocks[i].name = name.to_string();
        Ok(())
    }

    fn rename(&mut self, space: &str, name: &str) -> Result<(), EditError> {
        let i = self.space(space)?;
        let name = name.trim();
        if name.is_empty() {
            return refuse("a space needs a name");
        }
        if let Some(j) = self.space_index(name)
            && j != i
        {
            return refuse(format!(
                "\"{name}\" already names \"{}\"",
                self.map.spaces[j].name
            ));
        }
        let old = normalise(&self.map.spaces[i].name);
        let fix = |s: &mut String| {
            if normalise(s) == old {
                *s = name.to_string();
            }
        };
        for link in &mut self.map.links {
            match link {
                LinkDoc::Major(a, b) | LinkDoc::Minor(a, b) | LinkDoc::Sea(a, b) => {
                    fix(a);
                    fix(b);
                }
                LinkDoc::Strait { a, b, .. } => {
                    fix(a);
                    fix(b);
                }
            }
        }
        for block in &mut self.roster.blocks {
            if let Some(levy) = &mut block.levy {
                fix(levy);
            }
        }
        let mut deployments = vec![&mut self.order_of_battle];
        deployments.extend(self.free_deployment.as_mut());
        for d in deployments {
            for side in Side::BOTH {
                for (city, _) in d.side_mut(side).iter_mut() {
                    fix(city);
                }
            }
        }
        self.map.spaces[i].name = name.to_string();
        Ok(())
    }

    fn roster_block(&self, side: Side, block: &str) -> Result<&BlockDoc, EditError> {
        let key = normalise(block);
        self.roster
            .blocks
            .iter()
            .find(|b| b.side == side && normalise(&b.name) == key)
            .ok_or_else(|| EditError(format!("{side} has no block \"{block}\"")))
    }

    /// The deployment the current mode edits.
    fn current_deployment_mut(&mut self) -> &mut DeploymentDoc {
        match self.mode() {
            DeploymentMode::Historical => &mut self.order_of_battle,
            DeploymentMode::Free => self
                .free_deployment
                .as_mut()
                .expect("mode() is Free only with a free deployment"),
        }
    }

    fn set_strength(
        &mut self,
        side: Side,
        block: &str,
        strength: Option<u8>,
    ) -> Result<(), EditError> {
        let doc = self.roster_block(side, block)?;
        let name = doc.name.clone();
        let full = doc.steps.saturating_mul(doc.kind.strength_per_step());
        if self.block_location(side, &name).is_none() {
            return refuse(format!(
                "{name} is in the levy pool: a block gets its strength when it is levied (6.4)"
            ));
        }
        if let Some(s) = strength
            && !doc.kind.strengths(doc.steps).any(|v| v == s)
        {
            let allowed = doc
                .kind
                .strengths(doc.steps)
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return refuse(format!("{name} can stand at strength {allowed}, not {s}"));
        }
        let key = normalise(&name);
        let list = self.current_deployment_mut().strengths.side_mut(side);
        list.retain(|(b, _)| normalise(b) != key);
        if let Some(s) = strength.filter(|s| *s < full) {
            list.push((name, s));
        }
        Ok(())
    }

    fn move_block(&mut self, side: Side, block: &str, to: Option<&str>) -> Result<(), EditError> {
        let key = normalise(block);
        let doc = self.roster_block(side, block)?;
        let (name, kind) = (doc.name.clone(), doc.kind);
        let target = match to {
            None => None,
            Some(city) => {
                let space = &self.map.spaces[self.space(city)?];
                if let Some(why) = placement_problem(&name, kind, space) {
                    return refuse(why);
                }
                Some(space.name.clone())
            }
        };
        let deployment = self.current_deployment_mut();
        if target.is_none() {
            // A block in the pool has no strength until it is levied (6.4).
            deployment
                .strengths
                .side_mut(side)
                .retain(|(b, _)| normalise(b) != key);
        }
        let entries = deployment.side_mut(side);
        for (_, blocks) in entries.iter_mut() {
            blocks.retain(|b| normalise(b) != key);
        }
        entries.retain(|(_, blocks)| !blocks.is_empty());
        if let Some(city) = target {
            let ck = normalise(&city);
            match entries.iter_mut().find(|(c, _)| normalise(c) == ck) {
                Some((_, blocks)) => blocks.push(name),
                None => entries.push((city, vec![name])),
            }
        }
        Ok(())
    }
}

/// Why a block of `kind` cannot stand in `space`, if it cannot.
fn placement_problem(name: &str, kind: BlockKind, space: &SpaceDoc) -> Option<String> {
    // 4.1 / 4.4: Navis stay at sea or in ports; land blocks stay on land.
    if kind == BlockKind::Navis && space.kind == SpaceKind::City {
        return Some(format!(
            "{name} is a Navis: it cannot stand in the inland city {} (4.1: Navis stay at sea or in ports)",
            space.name
        ));
    }
    if kind.is_land() && space.kind == SpaceKind::Sea {
        return Some(format!(
            "{name} is a land block: it cannot stand in the sea {} (4.4: only Navis may be at sea)",
            space.name
        ));
    }
    None
}

/// Which sections the opened file wrote itself (the rest it inherits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Own {
    map: bool,
    roster: bool,
    deck: bool,
    order_of_battle: bool,
    start_year: bool,
}

impl Own {
    fn all(own: bool) -> Own {
        Own {
            map: own,
            roster: own,
            deck: own,
            order_of_battle: own,
            start_year: own,
        }
    }
}

#[derive(Debug, Clone)]
struct Step {
    label: String,
    state: Working,
    revision: u64,
}

/// A scenario being edited, with its file and its history.
#[derive(Debug, Clone)]
pub struct Document {
    /// Where it is saved; `None` for the built-in game until "Save as".
    path: Option<PathBuf>,
    /// The file's `extends` as opened: `own` and `loaded` tell what it
    /// inherits from that file.
    extends: Option<String>,
    own: Own,
    /// Scenarios an `extends` set in the editor names, as loaded then: saving
    /// writes what differs from them.
    parents: Vec<(String, Working)>,
    /// The sections as loaded, to tell inherited sections that changed.
    loaded: Working,
    /// The resolved file as loaded: its findings point into the real file.
    original: ResolvedScenario,
    work: Working,
    revision: u64,
    next_revision: u64,
    saved_revision: Option<u64>,
    undo: Vec<Step>,
    redo: Vec<Step>,
}

impl Document {
    /// The published game, built into the program (not yet saved anywhere).
    pub fn builtin() -> Document {
        Document::from_resolved(crate::scenario::historical(), None, None, true)
    }

    /// Opens a scenario file and what it extends.
    pub fn open(path: &Path) -> Result<Document, LoadError> {
        let resolved = format::load_scenario(path)?;
        let text = format::read_text(path)?;
        let file: ScenarioDoc = format::parse_ron(path, &text)?;
        let mut doc =
            Document::from_resolved(resolved, Some(path.to_path_buf()), file.extends, false);
        doc.own = Own {
            map: file.map.is_some(),
            roster: file.roster.is_some(),
            deck: file.deck.is_some(),
            order_of_battle: file.order_of_battle.is_some(),
            start_year: !file.start_year.is_empty(),
        };
        Ok(doc)
    }

    fn from_resolved(
        resolved: ResolvedScenario,
        path: Option<PathBuf>,
        extends: Option<String>,
        own_all: bool,
    ) -> Document {
        let work = Working::from_resolved(&resolved, extends.clone());
        Document {
            path,
            extends,
            own: Own::all(own_all),
            parents: Vec::new(),
            loaded: work.clone(),
            original: resolved,
            work,
            revision: 0,
            next_revision: 1,
            saved_revision: Some(0),
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub fn working(&self) -> &Working {
        &self.work
    }

    /// Unsaved changes (the built-in game counts as saved until edited).
    pub fn is_dirty(&self) -> bool {
        self.saved_revision != Some(self.revision)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// How many edits undo can take back.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// What undo would take back.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|s| s.label.as_str())
    }

    /// Applies an edit; a refused edit changes nothing.
    pub fn apply(&mut self, edit: Edit) -> Result<(), EditError> {
        if let Edit::SetExtends(Some(spec)) = &edit {
            self.load_parent(spec.trim())?;
        }
        let mut next = self.work.clone();
        next.apply(&edit)?;
        if next == self.work {
            return Ok(());
        }
        let label = edit.label_in(&self.work);
        let before = std::mem::replace(&mut self.work, next);
        self.undo.push(Step {
            label,
            state: before,
            revision: self.revision,
        });
        self.redo.clear();
        self.revision = self.next_revision;
        self.next_revision += 1;
        Ok(())
    }

    /// Takes back the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.travel(true)
    }

    /// Does again what undo took back; false when there is nothing.
    pub fn redo(&mut self) -> bool {
        self.travel(false)
    }

    /// Undo (`back`) or redo: the last step of its stack becomes the working
    /// state, and the state it replaces goes on the other stack; false when
    /// the stack is empty.
    fn travel(&mut self, back: bool) -> bool {
        let (from, to) = if back {
            (&mut self.undo, &mut self.redo)
        } else {
            (&mut self.redo, &mut self.undo)
        };
        let Some(step) = from.pop() else {
            return false;
        };
        let replaced = std::mem::replace(&mut self.work, step.state);
        to.push(Step {
            label: step.label,
            state: replaced,
            revision: self.revision,
        });
        self.revision = step.revision;
        true
    }

    /// Loads the scenario `spec` names as an `extends` of this document
    /// (relative to its folder), to save only what differs from it.
    fn load_parent(&mut self, spec: &str) -> Result<(), EditError> {
        if spec.is_empty() || self.extends.as_deref() == Some(spec) {
            return Ok(());
        }
        let referrer = match &self.path {
            Some(p) => p.clone(),
            None => std::env::current_dir()
                .unwrap_or_default()
                .join("untitled.ron"),
        };
        let parent =
            format::load_extended(&referrer, spec).map_err(|e| EditError(e.to_string()))?;
        self.parents.retain(|(k, _)| k != spec);
        self.parents
            .push((spec.to_string(), Working::from_resolved(&parent, None)));
        Ok(())
    }

    /// The file as it would be saved: its `extends`, and every section it
    /// wrote itself or that differs from what it inherits.
    pub(crate) fn to_file(&self) -> ScenarioDoc {
        let w = &self.work;
        // What the file inherits from, and which sections it writes anyway.
        let (l, own) = match &w.extends {
            Some(e) if self.extends.as_ref() == Some(e) => (Some(&self.loaded), self.own),
            Some(e) => (
                self.parents.iter().find(|(k, _)| k == e).map(|(_, p)| p),
                Own::all(false),
            ),
            None => (None, Own::all(true)),
        };
        let Some(l) = l else {
            // A file standing alone writes everything. (An `extends` set in
            // the editor was loaded first, so it always has its parent.)
            return ScenarioDoc {
                extends: None,
                ..self.whole()
            };
        };
        let keep = |own: bool, changed: bool| own || changed;
        ScenarioDoc {
            name: w.name.clone(),
            // Never inherited: written whenever there is one.
            description: w.description.clone(),
            start_year: if keep(own.start_year, w.start_year != l.start_year) {
                w.start_year.clone()
            } else {
                String::new()
            },
            extends: w.extends.clone(),
            map: keep(own.map, w.map != l.map).then(|| w.map.clone()),
            roster: keep(own.roster, w.roster != l.roster).then(|| w.roster.clone()),
            deck: keep(own.deck, w.deck != l.deck).then(|| w.deck.clone()),
            order_of_battle: keep(own.order_of_battle, w.order_of_battle != l.order_of_battle)
                .then(|| w.order_of_battle.clone()),
            free_deployment: w.free_deployment.clone(),
        }
    }

    /// The RON text [`Document::save`] writes.
    pub fn to_ron(&self) -> String {
        format::scenario_to_ron(&self.to_file())
    }

    /// Saves atomically to the document's own file (keeping `<name>.bak`).
    pub fn save(&mut self) -> std::io::Result<()> {
        let path = self.path.clone().ok_or_else(|| {
            std::io::Error::other("the built-in scenario has no file: use Save as")
        })?;
        self.save_as(&path)
    }

    /// Saves atomically to `path`, which becomes the document's file. A file
    /// that `extends` another by a relative path keeps pointing at the same
    /// file only when saved in the same folder, so elsewhere every section is
    /// written out and `extends` dropped. A document never saved keeps an
    /// `extends` set in the editor when it names a scenario from `path` too.
    pub fn save_as(&mut self, path: &Path) -> std::io::Result<()> {
        let same_dir = self.path.as_deref().and_then(Path::parent) == path.parent();
        if let Some(spec) = self.work.extends.clone()
            && !same_dir
        {
            match (&self.path, format::load_extended(path, &spec)) {
                (None, Ok(parent)) => {
                    self.parents.retain(|(k, _)| *k != spec);
                    self.parents
                        .push((spec, Working::from_resolved(&parent, None)));
                }
                _ => self.work.extends = None,
            }
        }
        crate::files::save_atomically(path, &self.to_ron())?;
        if self.path.as_deref() != Some(path) {
            self.path = Some(path.to_path_buf());
        }
        self.saved_revision = Some(self.revision);
        Ok(())
    }

    /// The scenario as the validator and the map see it. Before any edit the
    /// findings point into the real file; afterwards into the text the editor
    /// would save (every section written out).
    pub fn resolved(&self) -> ResolvedScenario {
        if self.work == self.loaded {
            return self.original.clone();
        }
        let full = self.whole();
        // The lines are those of the text the editor would write with every
        // section out; say so unless that is exactly the saved file.
        let file = self
            .path
            .clone()
            .unwrap_or_else(|| PathBuf::from(crate::scenario::HISTORICAL_PATH));
        let path = if self.is_dirty() || self.path.is_none() || self.work.extends.is_some() {
            PathBuf::from(format!("{} (edited)", file.display()))
        } else {
            file
        };
        let source = SourceFile {
            path: path.clone(),
            text: format::scenario_to_ron(&full),
        };
        ResolvedScenario {
            name: self.work.name.clone(),
            description: self.work.description.clone(),
            start_year: self.work.start_year.clone(),
            path,
            map: self.work.map.clone(),
            roster: self.work.roster.clone(),
            deck: self.work.deck.clone(),
            order_of_battle: self.work.order_of_battle.clone(),
            free_deployment: self.work.free_deployment.clone(),
            sources: Sections {
                map: source.clone(),
                roster: source.clone(),
                deck: source.clone(),
                order_of_battle: source.clone(),
                free_deployment: self.work.free_deployment.as_ref().map(|_| source),
            },
        }
    }

    /// Every section written out, without `extends`.
    fn whole(&self) -> ScenarioDoc {
        let w = &self.work;
        ScenarioDoc {
            name: w.name.clone(),
            description: w.description.clone(),
            start_year: w.start_year.clone(),
            extends: None,
            map: Some(w.map.clone()),
            roster: Some(w.roster.clone()),
            deck: Some(w.deck.clone()),
            order_of_battle: Some(w.order_of_battle.clone()),
            free_deployment: w.free_deployment.clone(),
        }
    }

    /// Which sections saving writes (the others it inherits from `extends`).
    pub fn written_sections(&self) -> Vec<&'static str> {
        let f = self.to_file();
        [
            ("map", f.map.is_some()),
            ("roster", f.roster.is_some()),
            ("deck", f.deck.is_some()),
            ("order of battle", f.order_of_battle.is_some()),
            ("free deployment", f.free_deployment.is_some()),
        ]
        .into_iter()
        .filter_map(|(n, w)| w.then_some(n))
        .collect()
    }

    /// Validates the working scenario under `rules`.
    pub fn validate(&self, rules: &RuleSet) -> Report {
        validate(&self.resolved(), rules)
    }
}

// ------------------------------------------------------------ deployment

/// 5.3: one city where a side's free deployment holds a different number of
/// blocks than the order of battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CityBalance {
    pub side: Side,
    pub city: String,
    /// Blocks of the side there in the order of battle.
    pub wanted: usize,
    /// Blocks of the side there in the free deployment.
    pub placed: usize,
}

impl CityBalance {
    /// Positive: too many blocks; negative: too few.
    pub fn surplus(&self) -> i64 {
        self.placed as i64 - self.wanted as i64
    }
}

/// 5.3: every city whose count of a side's blocks differs from the order of
/// battle, Caesar's first; empty without a free deployment.
pub fn free_deployment_balance(scenario: &Scenario) -> Vec<CityBalance> {
    let Some(free) = &scenario.free_deployment else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for side in Side::BOTH {
        let want = scenario.order_of_battle.counts(&scenario.roster, side);
        let have = free.counts(&scenario.roster, side);
        let mut cities: BTreeMap<_, (usize, usize)> = BTreeMap::new();
        for (c, n) in &want {
            cities.entry(*c).or_default().0 = *n;
        }
        for (c, n) in &have {
            cities.entry(*c).or_default().1 = *n;
        }
        for (city, (wanted, placed)) in cities {
            if wanted != placed {
                out.push(CityBalance {
                    side,
                    city: scenario.board.name(city).to_string(),
                    wanted,
                    placed,
                });
            }
        }
    }
    out
}

// ------------------------------------------------------------- findings

/// A map item a finding is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Space(String),
    Link(String, String),
    Block(Side, String),
}

/// The map item a finding is about, from its subject (never from the text
/// of the file): a space, a link, a block; a deployment entry selects its
/// city. `None` for findings about the map, roster, deck or rule set as a
/// whole.
pub fn item_for(finding: &Finding) -> Option<Item> {
    item_of(finding.subject.as_ref()?)
}

/// The map item for a finding's subject (see [`item_for`]).
pub(crate) fn item_of(subject: &Subject) -> Option<Item> {
    match subject {
        Subject::Space { name } => Some(Item::Space(name.clone())),
        Subject::Link { a, b } => Some(Item::Link(a.clone(), b.clone())),
        Subject::Block { side, name }
        | Subject::Strength {
            side, block: name, ..
        } => Some(Item::Block(*side, name.clone())),
        Subject::Placement { space, .. } => Some(Item::Space(space.clone())),
        Subject::Roster { .. }
        | Subject::Deployment { .. }
        | Subject::Deck { .. }
        | Subject::RuleSet { .. }
        | Subject::Map => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::validate::Severity;

    /// Sets the VP of the space `space` in `doc` (an edit that must be taken).
    fn set_vp(doc: &mut Document, space: &str, vp: u8) {
        doc.apply(Edit::SetVp {
            space: space.into(),
            vp,
        })
        .unwrap();
    }

    fn rules() -> RuleSet {
        RuleSet::builtin("rules-2.0")
    }

    fn vp(doc: &Document, name: &str) -> u8 {
        let w = doc.working();
        w.map.spaces[w.space_index(name).unwrap()].vp
    }

    #[test]
    fn undo_and_redo_round_trip_every_edit() {
        let mut doc = Document::builtin();
        let start = doc.working().clone();
        let edits = vec![
            Edit::SetVp {
                space: "Roma".into(),
                vp: 3,
            },
            Edit::MoveSpace {
                space: "Rome".into(),
                to: (1100.0, 400.0),
            },
            Edit::RenameSpace {
                space: "Genua".into(),
                name: "Genova".into(),
            },
            Edit::SetKind {
                space: "Lugdunum".into(),
                kind: SpaceKind::Port,
            },
            Edit::SetAliases {
                space: "Roma".into(),
                aliases: vec!["Rome".into(), "Urbs".into()],
            },
            Edit::AddSpace(SpaceDoc {
                name: "Nova".into(),
                kind: SpaceKind::City,
                vp: 0,
                at: (500.0, 500.0),
                island: None,
                aliases: vec![],
            }),
            Edit::AddLink(LinkDoc::Minor("Nova".into(), "Roma".into())),
            Edit::SetLinkClass {
                a: "Roma".into(),
                b: "Nova".into(),
                class: LinkClass::Major,
                name: None,
            },
            Edit::DeleteLink {
                a: "Genova".into(),
                b: "Roma".into(),
            },
            Edit::DeleteSpace {
                space: "Ravenna".into(),
            },
            Edit::SetMode(DeploymentMode::Free),
            Edit::MoveBlock {
                side: Side::Caesar,
                block: "Legio 8".into(),
                to: None,
            },
        ];
        let mut states = vec![start.clone()];
        for e in edits {
            let label = e.label();
            doc.apply(e).unwrap_or_else(|err| panic!("{label}: {err}"));
            states.push(doc.working().clone());
        }
        assert!(doc.is_dirty());
        for state in states.iter().rev().skip(1) {
            assert!(doc.undo());
            assert_eq!(doc.working(), state);
        }
        assert!(!doc.undo(), "nothing left to undo");
        assert!(!doc.is_dirty(), "back at the saved state");
        for state in states.iter().skip(1) {
            assert!(doc.redo());
            assert_eq!(doc.working(), state);
        }
        assert!(!doc.redo());
    }

    #[test]
    fn a_new_edit_clears_redo_and_a_no_op_is_not_recorded() {
        let mut doc = Document::builtin();
        set_vp(&mut doc, "Roma", 3);
        doc.undo();
        assert!(doc.can_redo());
        set_vp(&mut doc, "Roma", 4);
        assert!(!doc.can_redo());
        assert_eq!(vp(&doc, "Roma"), 4);
        set_vp(&mut doc, "Roma", 4);
        doc.undo();
        assert_eq!(vp(&doc, "Roma"), 2, "the no-op left no undo step");
    }

    #[test]
    fn renaming_a_space_renames_its_links_deployments_and_levies() {
        let mut doc = Document::builtin();
        doc.apply(Edit::RenameSpace {
            space: "Ravenna".into(),
            name: "Ravenna Nova".into(),
        })
        .unwrap();
        let report = doc.validate(&rules());
        assert_eq!(report.errors(), 0, "{:?}", report.findings);
        let w = doc.working();
        assert!(
            w.roster
                .blocks
                .iter()
                .any(|b| b.levy.as_deref() == Some("Ravenna Nova"))
        );
        assert_eq!(
            w.block_location(Side::Caesar, "Legio 13"),
            Some("Ravenna Nova")
        );
        assert!(
            doc.apply(Edit::RenameSpace {
                space: "Roma".into(),
                name: "Genua".into()
            })
            .is_err(),
            "a name in use is refused"
        );
    }

    #[test]
    fn rule_4_1_navis_inland_and_4_4_land_block_at_sea_are_refused() {
        let mut doc = Document::builtin();
        let before = doc.working().clone();
        let err = doc
            .apply(Edit::MoveBlock {
                side: Side::Caesar,
                block: "Navis 2".into(),
                to: Some("Lugdunum".into()),
            })
            .unwrap_err();
        assert!(err.0.contains("4.1"), "{err}");
        let err = doc
            .apply(Edit::MoveBlock {
                side: Side::Caesar,
                block: "Legio 13".into(),
                to: Some("Mare Tyrrhenum".into()),
            })
            .unwrap_err();
        assert!(err.0.contains("4.4"), "{err}");
        assert_eq!(doc.working(), &before);
        assert!(!doc.can_undo());
        // A Navis may stand at sea.
        doc.apply(Edit::MoveBlock {
            side: Side::Caesar,
            block: "Navis 2".into(),
            to: Some("Mare Tyrrhenum".into()),
        })
        .unwrap();
    }

    #[test]
    fn a_deployed_block_can_start_below_full_strength_and_undo_restores_it() {
        let mut doc = Document::builtin();
        let strength = |doc: &Document| doc.working().block_strength(Side::Caesar, "Legio 13");
        assert_eq!(strength(&doc), Some(3));
        doc.apply(Edit::SetStrength {
            side: Side::Caesar,
            block: "Legio 13".into(),
            strength: Some(2),
        })
        .unwrap();
        assert_eq!(strength(&doc), Some(2));
        let report = doc.validate(&rules());
        assert_eq!(report.errors(), 0, "{:?}", report.findings);
        assert!(report.has("reduced-strength"));
        let scenario = &report.scenario;
        let legio = scenario.roster.find(Side::Caesar, "Legio 13").unwrap();
        assert_eq!(
            scenario.starting_setup().strength(&scenario.roster, legio),
            2
        );
        // Back to full strength leaves nothing in the file.
        doc.apply(Edit::SetStrength {
            side: Side::Caesar,
            block: "Legio 13".into(),
            strength: Some(3),
        })
        .unwrap();
        assert!(doc.working().order_of_battle.strengths.is_empty());
        doc.undo();
        assert_eq!(strength(&doc), Some(2));
        doc.undo();
        assert_eq!(strength(&doc), Some(3));
        assert!(!doc.validate(&rules()).has("reduced-strength"));
    }

    #[test]
    fn rule_6_4_pool_blocks_have_no_strength_and_impossible_strengths_are_refused() {
        let mut doc = Document::builtin();
        let set = |doc: &mut Document, side, block: &str, s| {
            doc.apply(Edit::SetStrength {
                side,
                block: block.into(),
                strength: Some(s),
            })
        };
        // Octavian waits in the pool (5.1).
        let err = set(&mut doc, Side::Caesar, "Octavian", 2).unwrap_err();
        assert!(err.0.contains("levy pool"), "{err}");
        let err = set(&mut doc, Side::Caesar, "Legio 13", 4).unwrap_err();
        assert!(err.0.contains("1, 2, 3"), "{err}");
        assert!(set(&mut doc, Side::Caesar, "Legio 13", 0).is_err());
        assert!(!doc.can_undo(), "refused edits leave no undo step");
        // A block sent to the pool loses its strength.
        set(&mut doc, Side::Caesar, "Legio 13", 1).unwrap();
        doc.apply(Edit::MoveBlock {
            side: Side::Caesar,
            block: "Legio 13".into(),
            to: None,
        })
        .unwrap();
        assert!(doc.working().order_of_battle.strengths.is_empty());
        assert_eq!(doc.working().block_strength(Side::Caesar, "Legio 13"), None);
    }

    #[test]
    fn starting_strengths_survive_saving_and_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("weak.ron");
        let mut doc = Document::builtin();
        doc.apply(Edit::SetStrength {
            side: Side::Pompey,
            block: "Legio 1".into(),
            strength: Some(1),
        })
        .unwrap();
        doc.save_as(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("strengths"), "{text}");
        let reopened = Document::open(&path).unwrap();
        assert_eq!(
            reopened.working().block_strength(Side::Pompey, "Legio 1"),
            Some(1)
        );
    }

    #[test]
    fn rule_5_3_free_deployment_balance_shows_over_and_under() {
        let mut doc = Document::builtin();
        doc.apply(Edit::SetMode(DeploymentMode::Free)).unwrap();
        let report = doc.validate(&rules());
        assert!(free_deployment_balance(&report.scenario).is_empty());
        assert!(!report.has("free-deployment-count"));
        // Legio 13 from Ravenna (3 blocks) to Genua (3 blocks).
        doc.apply(Edit::MoveBlock {
            side: Side::Caesar,
            block: "Legio 13".into(),
            to: Some("Genua".into()),
        })
        .unwrap();
        let report = doc.validate(&rules());
        assert!(report.has("free-deployment-count"));
        let balance = free_deployment_balance(&report.scenario);
        assert_eq!(balance.len(), 2, "{balance:?}");
        let genua = balance.iter().find(|b| b.city == "Genua").unwrap();
        assert_eq!((genua.wanted, genua.placed, genua.surplus()), (3, 4, 1));
        let ravenna = balance.iter().find(|b| b.city == "Ravenna").unwrap();
        assert_eq!(ravenna.surplus(), -1);
        // The order of battle is untouched in free mode.
        assert_eq!(
            doc.working().order_of_battle,
            crate::scenario::historical().order_of_battle
        );
        // Swapping two blocks keeps every count (5.3).
        doc.apply(Edit::MoveBlock {
            side: Side::Caesar,
            block: "Legio 8".into(),
            to: Some("Ravenna".into()),
        })
        .unwrap();
        let report = doc.validate(&rules());
        assert!(free_deployment_balance(&report.scenario).is_empty());
        assert_eq!(report.errors(), 0, "{:?}", report.findings);
    }

    #[test]
    fn links_to_nowhere_self_links_and_duplicates_are_refused() {
        let mut doc = Document::builtin();
        assert!(
            doc.apply(Edit::AddLink(LinkDoc::Major("Roma".into(), "Romaa".into())))
                .is_err()
        );
        assert!(
            doc.apply(Edit::AddLink(LinkDoc::Major("Roma".into(), "Rome".into())))
                .is_err()
        );
        assert!(
            doc.apply(Edit::AddLink(LinkDoc::Minor("Roma".into(), "Genua".into())))
                .is_err()
        );
        assert!(!doc.can_undo());
    }

    #[test]
    fn a_link_to_an_unknown_space_can_be_selected_and_deleted() {
        let text = crate::scenario::HISTORICAL_SCENARIO
            .replace(r#"Major("Genua", "Roma"),"#, r#"Major("Genua", "Romaa"),"#);
        let (_dir, path) = crate::test_support::temp_file("typo.ron", text);
        let mut doc = Document::open(&path).unwrap();
        assert!(doc.validate(&rules()).has("unknown-name"));
        assert!(doc.working().link_index("Romaa", "Genua").is_some());
        doc.apply(Edit::DeleteLink {
            a: "Genua".into(),
            b: "Romaa".into(),
        })
        .unwrap();
        assert!(!doc.validate(&rules()).has("unknown-name"));
    }

    #[test]
    fn every_edit_is_judged_by_the_validator() {
        let mut doc = Document::builtin();
        set_vp(&mut doc, "Mare Tyrrhenum", 1);
        let report = doc.validate(&rules());
        let f = report
            .findings
            .iter()
            .find(|f| f.code == "sea-with-vp")
            .expect("sea-with-vp");
        assert_eq!(f.severity, Severity::Error);
        // The finding leads back to the sea.
        assert!(f.location.is_some(), "located");
        assert_eq!(item_for(f), Some(Item::Space("Mare Tyrrhenum".into())));
    }

    #[test]
    fn findings_lead_to_links_deployment_cities_and_blocks() {
        let text = crate::scenario::HISTORICAL_SCENARIO
            .replace(
                r#"Major("Genua", "Roma"),"#,
                r#"Major("Genua", "Roma"), Major("Roma", "Mare Tyrrhenum"),"#,
            )
            .replace(
                r#"("Lugdunum", ["Legio 16", "Equitatus 1"]),"#,
                r#"("Lugdunum", ["Legio 16", "Equitatus 1", "Navis 3"]),"#,
            )
            .replace(
                "order_of_battle: (",
                "order_of_battle: (\n        strengths: (caesar: [(\"Legio 16\", 2)]),",
            );
        let r = format::scenario_from_str(Path::new("x.ron"), &text).unwrap();
        let report = validate(&r, &rules());
        let item = |code: &str| {
            let f = report
                .findings
                .iter()
                .find(|f| f.code == code)
                .unwrap_or_else(|| panic!("{code}: {:?}", report.findings));
            item_for(f)
        };
        // Two links share the line: the finding knows which one it is about.
        assert_eq!(
            item("road-touches-sea"),
            Some(Item::Link("Roma".into(), "Mare Tyrrhenum".into()))
        );
        // A block in the wrong place selects its city; a starting strength, the block.
        assert_eq!(item("navis-inland"), Some(Item::Space("Lugdunum".into())));
        assert_eq!(
            item("reduced-strength"),
            Some(Item::Block(Side::Caesar, "Legio 16".into()))
        );
        // Published-map warnings about the map as a whole select nothing.
        assert_eq!(item_of(&Subject::Map), None);
    }

    #[test]
    fn save_is_atomic_keeps_a_backup_and_reloads_equal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.ron");
        let mut doc = Document::builtin();
        assert!(doc.save().is_err(), "the built-in game needs Save as");
        doc.save_as(&path).unwrap();
        assert!(!doc.is_dirty());
        let first = std::fs::read_to_string(&path).unwrap();
        set_vp(&mut doc, "Roma", 5);
        assert!(doc.is_dirty());
        doc.save().unwrap();
        assert!(!doc.is_dirty());
        let bak = std::fs::read_to_string(dir.path().join("mine.ron.bak")).unwrap();
        assert_eq!(bak, first, "the previous version is kept");
        let again = Document::open(&path).unwrap();
        assert_eq!(again.working(), doc.working());
        // No temporary files are left behind.
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        // Undo past the save makes the document dirty again.
        doc.undo();
        assert!(doc.is_dirty());
    }

    #[test]
    fn a_file_that_extends_writes_only_what_it_owns_or_changed() {
        let (_dir, path) = crate::test_support::temp_file(
            "free.ron",
            "Scenario(name: \"Small\", extends: \"historical.ron\")\n",
        );
        let mut doc = Document::open(&path).unwrap();
        let file = doc.to_file();
        assert!(file.map.is_none() && file.roster.is_none());
        set_vp(&mut doc, "Roma", 3);
        let file = doc.to_file();
        assert!(file.map.is_some(), "the changed map is written");
        assert!(file.roster.is_none(), "the roster is still inherited");
        doc.save().unwrap();
        let again = Document::open(&path).unwrap();
        assert_eq!(again.working(), doc.working());
    }
}

#[cfg(test)]
mod setup_tests {
    //! The roster, the deck and the scenario's own settings as edits.

    use super::*;

    fn rules() -> RuleSet {
        RuleSet::builtin("rules-2.0")
    }

    fn legion(side: Side, name: &str, levy: &str) -> BlockDoc {
        BlockDoc {
            side,
            name: name.into(),
            kind: BlockKind::Legion,
            initiative: crate::scenario::model::Initiative::C,
            attacking_initiative: None,
            firepower: 3,
            steps: 3,
            levy: Some(levy.into()),
        }
    }

    fn block<'a>(doc: &'a Document, side: Side, name: &str) -> Option<&'a BlockDoc> {
        doc.working()
            .roster
            .blocks
            .iter()
            .find(|b| b.side == side && b.name == name)
    }

    fn copies(doc: &Document, moves: u8, levy: u8) -> u32 {
        doc.working()
            .deck
            .commands
            .iter()
            .filter(|c| c.moves == moves && c.levy == levy)
            .map(|c| u32::from(c.copies))
            .sum()
    }

    #[test]
    fn an_added_block_starts_in_its_levy_pool_and_the_validator_accepts_it() {
        let mut doc = Document::builtin();
        doc.apply(Edit::AddBlock(legion(Side::Caesar, "Legio 15", "Ravenna")))
            .unwrap();
        assert!(block(&doc, Side::Caesar, "Legio 15").is_some());
        assert_eq!(doc.working().block_location(Side::Caesar, "Legio 15"), None);
        let report = doc.validate(&rules());
        assert_eq!(report.errors(), 0, "{:?}", report.findings);
        let scenario = &report.scenario;
        let id = scenario.roster.find(Side::Caesar, "Legio 15").unwrap();
        assert_eq!(scenario.starting_setup().location(id), None);
        assert_eq!(doc.undo_label(), Some("add Caesar block Legio 15"));
    }

    #[test]
    fn values_the_rules_do_not_allow_are_refused_with_the_validators_ranges() {
        let mut doc = Document::builtin();
        let add = |doc: &mut Document, b: BlockDoc| doc.apply(Edit::AddBlock(b));
        // The name is taken on this side (but free on the other).
        assert!(add(&mut doc, legion(Side::Caesar, "legio 13", "Ravenna")).is_err());
        let fire = BlockDoc {
            firepower: 7,
            ..legion(Side::Caesar, "X", "Roma")
        };
        assert!(add(&mut doc, fire).unwrap_err().0.contains("1 to 6"));
        let steps = BlockDoc {
            steps: 5,
            ..legion(Side::Caesar, "X", "Roma")
        };
        assert!(add(&mut doc, steps).unwrap_err().0.contains("1 to 4"));
        // 7.41: an elephant step counts two, so two steps at most.
        let elephant = BlockDoc {
            kind: BlockKind::Elephant,
            steps: 3,
            ..legion(Side::Pompey, "Elephant 2", "Utica")
        };
        assert!(add(&mut doc, elephant).unwrap_err().0.contains("1 to 2"));
        let at_sea = legion(Side::Caesar, "X", "Mare Tyrrhenum");
        assert!(add(&mut doc, at_sea).unwrap_err().0.contains("sea"));
        assert!(add(&mut doc, legion(Side::Caesar, "X", "Romaa")).is_err());
        assert!(!doc.can_undo(), "refused edits leave no undo step");
        add(&mut doc, legion(Side::Pompey, "Legio 13", "Roma")).unwrap();
    }

    #[test]
    fn a_stronger_caesar_is_one_step_and_drops_strengths_it_no_longer_allows() {
        let mut doc = Document::builtin();
        let caesar = block(&doc, Side::Caesar, "Caesar").unwrap().clone();
        doc.apply(Edit::SetBlock {
            side: Side::Caesar,
            block: "Caesar".into(),
            to: BlockDoc {
                firepower: 4,
                steps: 4,
                ..caesar
            },
        })
        .unwrap();
        let now = block(&doc, Side::Caesar, "Caesar").unwrap();
        assert_eq!((now.firepower, now.steps), (4, 4));
        assert_eq!(doc.undo_label(), Some("make Caesar leader A4, strength 4"));
        assert_eq!(doc.validate(&rules()).errors(), 0);
        // Legio 13 starts at II; at two steps II is its full strength.
        doc.apply(Edit::SetStrength {
            side: Side::Caesar,
            block: "Legio 13".into(),
            strength: Some(2),
        })
        .unwrap();
        let legio = block(&doc, Side::Caesar, "Legio 13").unwrap().clone();
        doc.apply(Edit::SetBlock {
            side: Side::Caesar,
            block: "Legio 13".into(),
            to: BlockDoc { steps: 2, ..legio },
        })
        .unwrap();
        assert!(doc.working().order_of_battle.strengths.is_empty());
        assert_eq!(doc.validate(&rules()).errors(), 0);
        doc.undo();
        doc.undo();
        doc.undo();
        assert_eq!(doc.working().roster, crate::scenario::historical().roster);
    }

    #[test]
    fn a_new_kind_must_fit_where_the_block_stands() {
        let mut doc = Document::builtin();
        // Legio 16 stands in Lugdunum, inland: it cannot become a Navis (4.1).
        let legio = block(&doc, Side::Caesar, "Legio 16").unwrap().clone();
        let err = doc
            .apply(Edit::SetBlock {
                side: Side::Caesar,
                block: "Legio 16".into(),
                to: BlockDoc {
                    kind: BlockKind::Navis,
                    levy: None,
                    ..legio
                },
            })
            .unwrap_err();
        assert!(err.0.contains("Lugdunum"), "{err}");
        // The ballista's attacking letter equal to its own is no difference.
        let ballista = block(&doc, Side::Pompey, "Ballista").unwrap().clone();
        doc.apply(Edit::SetBlock {
            side: Side::Pompey,
            block: "Ballista".into(),
            to: BlockDoc {
                attacking_initiative: Some(ballista.initiative),
                ..ballista
            },
        })
        .unwrap();
        assert_eq!(
            block(&doc, Side::Pompey, "Ballista")
                .unwrap()
                .attacking_initiative,
            None
        );
    }

    #[test]
    fn renaming_a_block_renames_every_deployment_entry_and_strength() {
        let mut doc = Document::builtin();
        doc.apply(Edit::SetStrength {
            side: Side::Caesar,
            block: "Legio 13".into(),
            strength: Some(2),
        })
        .unwrap();
        doc.apply(Edit::SetMode(DeploymentMode::Free)).unwrap();
        doc.apply(Edit::RenameBlock {
            side: Side::Caesar,
            block: "legio 13".into(),
            name: " Legio XIII ".into(),
        })
        .unwrap();
        let w = doc.working();
        assert!(block(&doc, Side::Caesar, "Legio XIII").is_some());
        for d in [&w.order_of_battle, w.free_deployment.as_ref().unwrap()] {
            let text = format!("{d:?}");
            assert!(
                text.contains("Legio XIII") && !text.contains("Legio 13"),
                "{text}"
            );
        }
        assert_eq!(w.block_strength(Side::Caesar, "Legio XIII"), Some(2));
        assert_eq!(doc.validate(&rules()).errors(), 0);
        // A name another block of the side has is refused.
        assert!(
            doc.apply(Edit::RenameBlock {
                side: Side::Caesar,
                block: "Legio XIII".into(),
                name: "Legio 8".into(),
            })
            .is_err()
        );
        doc.undo();
        assert!(block(&doc, Side::Caesar, "Legio 13").is_some());
        assert_eq!(
            doc.working().block_location(Side::Caesar, "Legio 13"),
            Some("Ravenna")
        );
    }

    #[test]
    fn deleting_a_block_takes_its_deployment_along_and_the_undo_label_says_where() {
        let mut doc = Document::builtin();
        doc.apply(Edit::SetMode(DeploymentMode::Free)).unwrap();
        doc.apply(Edit::DeleteBlock {
            side: Side::Caesar,
            block: "Legio 13".into(),
        })
        .unwrap();
        assert_eq!(
            doc.undo_label(),
            Some(
                "delete Caesar block Legio 13 and its deployment in Ravenna (order of battle) and Ravenna (free deployment)"
            )
        );
        assert!(block(&doc, Side::Caesar, "Legio 13").is_none());
        let report = doc.validate(&rules());
        assert!(!report.has("unknown-name"), "{:?}", report.findings);
        doc.undo();
        assert_eq!(
            doc.working().block_location(Side::Caesar, "Legio 13"),
            Some("Ravenna")
        );
        // A block of the pool says so.
        doc.apply(Edit::DeleteBlock {
            side: Side::Caesar,
            block: "Octavian".into(),
        })
        .unwrap();
        assert_eq!(
            doc.undo_label(),
            Some("delete Caesar block Octavian (from the levy pool)")
        );
    }

    #[test]
    fn a_duplicate_is_a_copy_under_a_new_name_in_the_pool() {
        let mut doc = Document::builtin();
        doc.apply(Edit::DuplicateBlock {
            side: Side::Caesar,
            block: "Legio 13".into(),
            name: "Legio 13 bis".into(),
        })
        .unwrap();
        let copy = block(&doc, Side::Caesar, "Legio 13 bis").unwrap();
        let original = block(&doc, Side::Caesar, "Legio 13").unwrap();
        assert_eq!(
            (copy.kind, copy.firepower, copy.steps, &copy.levy),
            (
                original.kind,
                original.firepower,
                original.steps,
                &original.levy
            )
        );
        assert_eq!(
            doc.working().block_location(Side::Caesar, "Legio 13 bis"),
            None
        );
        assert_eq!(doc.undo_label(), Some("duplicate Legio 13 as Legio 13 bis"));
    }

    #[test]
    fn command_cards_are_counted_per_face_and_events_go_back_in_printed_order() {
        let mut doc = Document::builtin();
        assert_eq!(copies(&doc, 3, 1), 3);
        doc.apply(Edit::SetCommandCopies {
            moves: 3,
            levy: 1,
            copies: 2,
        })
        .unwrap();
        assert_eq!(copies(&doc, 3, 1), 2);
        let report = doc.validate(&rules());
        assert!(report.has("deck-composition"));
        assert_eq!(report.scenario.deck.cards.len(), 26);
        // A face the deck lacks is added; 0 removes it again.
        for n in [2, 0] {
            doc.apply(Edit::SetCommandCopies {
                moves: 4,
                levy: 4,
                copies: n,
            })
            .unwrap();
            assert_eq!(copies(&doc, 4, 4), u32::from(n));
        }
        doc.apply(Edit::SetEvent {
            event: Event::Jupiter,
            present: false,
        })
        .unwrap();
        assert!(!doc.working().deck.events.contains(&Event::Jupiter));
        doc.apply(Edit::SetEvent {
            event: Event::Jupiter,
            present: true,
        })
        .unwrap();
        assert_eq!(
            doc.working().deck.events,
            crate::scenario::historical().deck.events
        );
    }

    #[test]
    fn a_deck_that_cannot_deal_a_year_is_an_error_of_the_validator() {
        let mut doc = Document::builtin();
        for (moves, levy) in [(4, 1), (3, 2), (3, 1), (2, 3), (2, 2), (2, 1), (1, 3)] {
            doc.apply(Edit::SetCommandCopies {
                moves,
                levy,
                copies: 0,
            })
            .unwrap();
        }
        // 7 events and two 1/2 cards: 9 cards, two hands of six need 12.
        assert!(doc.validate(&rules()).has("deck-too-small"));
    }

    #[test]
    fn the_scenarios_settings_are_edits_and_saving_writes_only_what_differs() {
        let (_dir, path) = crate::test_support::temp_file(
            "mine.ron",
            "Scenario(name: \"Mine\", extends: \"historical.ron\")\n",
        );
        let mut doc = Document::open(&path).unwrap();
        assert_eq!(doc.working().start_year, "705 (49 BC)", "inherited");
        assert_eq!(
            doc.working().description,
            "",
            "a description is not inherited"
        );
        assert!(doc.apply(Edit::SetName("  ".into())).is_err());
        doc.apply(Edit::SetName("Caesar's gamble".into())).unwrap();
        doc.apply(Edit::SetDescription("One more legion.".into()))
            .unwrap();
        let file = doc.to_file();
        assert_eq!(
            file.start_year, "",
            "unchanged from the parent: not written"
        );
        doc.apply(Edit::SetStartYear("706 (48 BC)".into())).unwrap();
        doc.apply(Edit::AddBlock(legion(Side::Caesar, "Legio 15", "Ravenna")))
            .unwrap();
        let file = doc.to_file();
        assert!(file.roster.is_some() && file.map.is_none() && file.deck.is_none());
        doc.save().unwrap();
        let again = Document::open(&path).unwrap();
        assert_eq!(again.working(), doc.working());
        assert_eq!(again.working().name, "Caesar's gamble");
        assert_eq!(again.working().start_year, "706 (48 BC)");
        assert_eq!(again.working().description, "One more legion.");
    }

    #[test]
    fn a_new_extends_is_loaded_first_and_saving_writes_what_differs_from_it() {
        let mut doc = Document::builtin();
        let err = doc
            .apply(Edit::SetExtends(Some("no-such-file.ron".into())))
            .unwrap_err();
        assert!(err.0.contains("no-such-file"), "{err}");
        assert!(doc.to_file().roster.is_some(), "standing alone: everything");
        doc.apply(Edit::SetExtends(Some("historical.ron".into())))
            .unwrap();
        assert_eq!(doc.written_sections(), Vec::<&str>::new());
        doc.apply(Edit::SetCommandCopies {
            moves: 3,
            levy: 1,
            copies: 2,
        })
        .unwrap();
        assert_eq!(doc.written_sections(), ["deck"]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fewer-cards.ron");
        doc.save_as(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("extends: \"historical.ron\""), "{text}");
        assert!(!text.contains("roster"), "{text}");
        let again = Document::open(&path).unwrap();
        assert_eq!(again.working(), doc.working());
        // Undo goes back to standing alone.
        doc.undo();
        doc.undo();
        assert_eq!(doc.working().extends, None);
    }
}
