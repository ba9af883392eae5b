//! The per-thread cache of expanded positions' children: df-pn expands most positions more than
//! once, and ordering the moves and keying the children is most of an expansion's own cost.

use super::ProofSearch;
use crate::game::Game;
use crate::search::order::MoveList;

/// log2 of the slots of the per-thread cache of children (see `ProofSearch::children`): 16384
/// slots of about 1 KiB, 16 MiB a thread (mapped as it is used). Fewer slots forget positions
/// that are expanded again; more only cost memory.
const CHILD_CACHE_BITS: u32 = 14;

/// Bytes of one thread's cache (ids, meta, and 128 words of moves and tags per slot).
pub(super) const CHILD_CACHE_BYTES: u64 = (1 << CHILD_CACHE_BITS) * (16 + 8 + 128 * 8);

/// The per-thread cache of positions' children (see `ProofSearch::children`), one array per
/// field. Every array starts as zeros (an empty slot has `len` 0), allocated zeroed so that the
/// system maps pages lazily: a search touches only the pages it uses. (An array of structs
/// would be written out in full: every worker of every round of a parallel search would write
/// 16 MiB before its first node, which made quick solves many times slower.)
pub(super) struct ChildCache {
    /// The exact position ([`Game::id`]).
    ids: Vec<u128>,
    /// The attacker of the question (high half), and the count of the children plus one (low
    /// half; 0: an empty slot).
    meta: Vec<u64>,
    /// 64 moves a slot, then 64 tags (flat: `vec!` maps zeroed arrays lazily only for
    /// primitive elements).
    lists: Vec<u64>,
}

impl ChildCache {
    /// A cache holding no memory, for the time a search's cache is lent to a worker of a
    /// parallel search; it must be swapped back before the search expands anything.
    pub(super) fn stand_in() -> Self {
        ChildCache {
            ids: Vec::new(),
            meta: Vec::new(),
            lists: Vec::new(),
        }
    }

    pub(super) fn new() -> Self {
        let slots = 1 << CHILD_CACHE_BITS;
        ChildCache {
            ids: vec![0; slots],
            meta: vec![0; slots],
            lists: vec![0; slots * 128],
        }
    }
}

impl ProofSearch<'_> {
    /// The moves of `g` (tagged `tag`) in move order, symmetric images of an earlier child
    /// dropped, with their children's tags and their count. df-pn expands most positions more
    /// than once (about twice in Qubic), and ordering the moves and finding the children's
    /// canonical keys is most of an expansion's own cost, so the answer is kept in a small
    /// per-thread cache keyed by the exact position.
    pub(super) fn children<G: Game>(&mut self, g: &G, tag: u64) -> ([u64; 64], [u64; 64], usize) {
        let id = g.id();
        let slot = (tag.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - CHILD_CACHE_BITS)) as usize;
        let cache = &mut self.child_cache;
        let (attacker, len) = (cache.meta[slot] >> 32, cache.meta[slot] as u32);
        if cache.ids[slot] == id && attacker == self.attacker.index() as u64 && len > 0 {
            let lists = &cache.lists[slot * 128..slot * 128 + 128];
            let mut moves = [0u64; 64];
            let mut tags = [0u64; 64];
            moves.copy_from_slice(&lists[..64]);
            tags.copy_from_slice(&lists[64..]);
            return (moves, tags, len as usize - 1);
        }
        let list = MoveList::new(g, g.non_losing_moves(), None, false);
        let mut tags = [0u64; 64];
        let mut kept = [0u64; 64];
        let mut n_kept = 0;
        for &mv in list.as_slice() {
            let mut child = *g;
            child.play(mv);
            let t = self.tag(&child);
            if tags[..n_kept].contains(&t) {
                // a symmetric image of a child already listed: the same position, counted once
                continue;
            }
            tags[n_kept] = t;
            kept[n_kept] = mv;
            n_kept += 1;
        }
        let cache = &mut self.child_cache;
        cache.ids[slot] = id;
        cache.meta[slot] = (self.attacker.index() as u64) << 32 | (n_kept as u64 + 1);
        cache.lists[slot * 128..slot * 128 + 64].copy_from_slice(&kept);
        cache.lists[slot * 128 + 64..slot * 128 + 128].copy_from_slice(&tags);
        (kept, tags, n_kept)
    }
}
