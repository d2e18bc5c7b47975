//! The selection, held by a stable id: the selected item's place in the
//! document's lists, which a rename (or its undo) does not move.

use crate::scenario::edit::{Item, Working};
use crate::scenario::names::normalise;

/// A map item by its index in the working sections. Edits change items in
/// place and add at the end; only deleting, or undoing an add or a delete,
/// moves items, and such a step renames nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ItemId {
    /// In `map.spaces`.
    Space(usize),
    /// In `map.links`.
    Link(usize),
    /// In `roster.blocks` (both sides).
    Block(usize),
}

impl ItemId {
    /// The item a name (or alias, or a link's two ends) stands for now.
    fn find(item: &Item, w: &Working) -> Option<ItemId> {
        match item {
            Item::Space(name) => w.space_index(name).map(ItemId::Space),
            Item::Link(a, b) => w.link_index(a, b).map(ItemId::Link),
            Item::Block(side, name) => {
                let key = normalise(name);
                w.roster
                    .blocks
                    .iter()
                    .position(|b| b.side == *side && normalise(&b.name) == key)
                    .map(ItemId::Block)
            }
        }
    }

    /// The item's names as the document has them now; `None` once it is gone.
    fn item(self, w: &Working) -> Option<Item> {
        match self {
            ItemId::Space(i) => w.map.spaces.get(i).map(|s| Item::Space(s.name.clone())),
            ItemId::Link(i) => w.map.links.get(i).map(|l| {
                let (a, b) = l.ends();
                Item::Link(a.to_string(), b.to_string())
            }),
            ItemId::Block(i) => w
                .roster
                .blocks
                .get(i)
                .map(|b| Item::Block(b.side, b.name.clone())),
        }
    }

    /// How long the item's list is now.
    fn list_len(self, w: &Working) -> usize {
        match self {
            ItemId::Space(_) => w.map.spaces.len(),
            ItemId::Link(_) => w.map.links.len(),
            ItemId::Block(_) => w.roster.blocks.len(),
        }
    }
}

/// The selected item: its id, with its names and its list's length as of the
/// document state it was last seen in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Selection {
    id: ItemId,
    item: Item,
    list_len: usize,
}

impl Selection {
    /// Selects the item `item` names; `None` when the document has no such item.
    pub(crate) fn of(item: &Item, w: &Working) -> Option<Selection> {
        Selection::at(ItemId::find(item, w)?, w)
    }

    fn at(id: ItemId, w: &Working) -> Option<Selection> {
        Some(Selection {
            item: id.item(w)?,
            list_len: id.list_len(w),
            id,
        })
    }

    /// The selected item under its current names.
    pub(crate) fn item(&self) -> &Item {
        &self.item
    }

    /// The same item after one step of the document (an edit, an undo, a
    /// redo): at the same place while its list kept its length (a rename
    /// keeps it selected), else found by the names it had, which a step that
    /// adds or deletes does not change. `None` once it is gone.
    pub(crate) fn follow(self, w: &Working) -> Option<Selection> {
        let id = if self.id.list_len(w) == self.list_len {
            self.id
        } else {
            ItemId::find(&self.item, w)?
        };
        Selection::at(id, w)
    }
}
