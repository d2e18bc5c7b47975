//! Fixed 256-bit sets of blocks, spaces and cards. Ids are below 256 (the validator
//! refuses bigger rosters and maps), so a set is four words: cheap to copy,
//! to clone with the state, and to combine ("friendly cities" is one AND).

use std::marker::PhantomData;

use crate::scenario::model::{BlockId, SpaceId};

/// Ids a set can hold.
pub(super) trait SetId: Copy {
    fn from_index(i: usize) -> Self;
    fn to_index(self) -> usize;
}

/// An id over an index of type `$index`, held in a set by that index.
macro_rules! set_id {
    ($id:ident, $index:ty) => {
        impl SetId for $id {
            #[inline]
            fn from_index(i: usize) -> Self {
                $id(i as $index)
            }
            #[inline]
            fn to_index(self) -> usize {
                self.index()
            }
        }
    };
}

set_id!(BlockId, u8);
set_id!(SpaceId, u16);

/// The most ids a set holds.
pub(crate) const SET_CAPACITY: usize = 256;

/// A set of ids, iterated in id order.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct IdSet<T> {
    words: [u64; 4],
    id: PhantomData<T>,
}

pub(super) type BlockSet = IdSet<BlockId>;
pub(super) type SpaceSet = IdSet<SpaceId>;

impl<T> Clone for IdSet<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for IdSet<T> {}
impl<T> Default for IdSet<T> {
    fn default() -> Self {
        IdSet {
            words: [0; 4],
            id: PhantomData,
        }
    }
}

impl<T: SetId> IdSet<T> {
    #[inline]
    pub(super) fn insert(&mut self, id: T) {
        let i = id.to_index();
        self.words[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    pub(super) fn remove(&mut self, id: T) {
        let i = id.to_index();
        self.words[i / 64] &= !(1 << (i % 64));
    }
    #[inline]
    pub(super) fn contains(&self, id: T) -> bool {
        let i = id.to_index();
        i < SET_CAPACITY && self.words[i / 64] & (1 << (i % 64)) != 0
    }
    /// Members of both.
    #[inline]
    pub(super) fn and(self, other: Self) -> Self {
        self.word_by_word(other, |a, b| a & b)
    }
    /// Members of either.
    #[inline]
    pub(super) fn or(self, other: Self) -> Self {
        self.word_by_word(other, |a, b| a | b)
    }
    /// Members of `self` not in `other`.
    #[inline]
    pub(super) fn without(self, other: Self) -> Self {
        self.word_by_word(other, |a, b| a & !b)
    }
    #[inline]
    fn word_by_word(self, other: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        let mut words = self.words;
        for (w, o) in words.iter_mut().zip(other.words) {
            *w = f(*w, o);
        }
        IdSet {
            words,
            id: PhantomData,
        }
    }
    #[inline]
    pub(super) fn iter(self) -> IdIter<T> {
        IdIter {
            words: self.words,
            bits: self.words[0],
            word: 0,
            id: PhantomData,
        }
    }
}

/// The members of an [`IdSet`] in id order: the lowest set bit of the
/// current word at each step (a plain loop, cheaper than a flattened
/// iterator in the engine's hot paths).
pub(super) struct IdIter<T> {
    words: [u64; 4],
    /// What is left of word `word`.
    bits: u64,
    word: usize,
    id: PhantomData<T>,
}

impl<T: SetId> Iterator for IdIter<T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        while self.bits == 0 {
            self.word += 1;
            if self.word >= 4 {
                return None;
            }
            self.bits = self.words[self.word];
        }
        let b = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(T::from_index(self.word * 64 + b))
    }
}

impl<T: SetId> FromIterator<T> for IdSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(ids: I) -> Self {
        let mut set = IdSet::default();
        for id in ids {
            set.insert(id);
        }
        set
    }
}

/// A set of deck indices (cards are `u8` indices into the scenario deck).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet([u64; 4]);

impl CardSet {
    pub(crate) const EMPTY: CardSet = CardSet([0; 4]);

    pub fn insert(&mut self, card: u8) {
        self.0[card as usize / 64] |= 1 << (card % 64);
    }
    pub fn contains(&self, card: u8) -> bool {
        self.0[card as usize / 64] & (1 << (card % 64)) != 0
    }
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
    /// The cards, in increasing index order.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..=255u8).filter(|c| self.contains(*c))
    }
}

impl FromIterator<u8> for CardSet {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_iterate_in_id_order_across_words() {
        let set: SpaceSet = [200, 3, 64, 63, 255].map(SpaceId).into_iter().collect();
        let ids: Vec<u16> = set.iter().map(|s| s.0).collect();
        assert_eq!(ids, [3, 63, 64, 200, 255]);
        assert!(set.contains(SpaceId(64)) && !set.contains(SpaceId(65)));
        assert!(
            !set.contains(SpaceId(300)),
            "ids past the capacity are never members"
        );
    }

    #[test]
    fn and_and_without_combine_word_by_word() {
        let a: BlockSet = [1, 70, 130].map(BlockId).into_iter().collect();
        let b: BlockSet = [70, 130, 131].map(BlockId).into_iter().collect();
        let both: Vec<u8> = a.and(b).iter().map(|b| b.0).collect();
        let only_a: Vec<u8> = a.without(b).iter().map(|b| b.0).collect();
        assert_eq!(both, [70, 130]);
        assert_eq!(only_a, [1]);
        let mut c = a;
        c.remove(BlockId(1));
        c.remove(BlockId(70));
        c.remove(BlockId(130));
        assert_eq!(c, BlockSet::default());
    }
}
