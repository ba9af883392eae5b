//! The keys of positions: canonical under the game's symmetries, with dead cells normalised,
//! hashed to 62 bits.

use super::geometry::live_line_cells;
use super::Cube;
use crate::game::{symmetry, Key};

/// Default hash seed of the 4x4x4 keys (`--hash-seed` picks another).
pub const DEFAULT_HASH_SEED: u64 = 0x005e_ed0f_c0be;

impl Cube {
    /// The key before hashing: the canonical `(white, black)` under the game's symmetries after
    /// the sound dead-cell normalisation (see [`Cube::dead_cells`]): dead cells are marked by
    /// setting them in *both* masks, a third state no real cell has.
    pub fn canonical(&self) -> u128 {
        let dead = if self.ply >= DEAD_FROM_PLY {
            self.dead_cells()
        } else {
            0
        };
        let (w, b) = (self.stones[0] | dead, self.stones[1] | dead);
        if self.rules.gravity() || self.ply >= QUBIC_FULL_GROUP_BELOW_PLY {
            // deep in a Qubic tree symmetric transpositions are rare and the 192-element form
            // costs 20 times the 8-element one: the key uses the subgroup there (a position
            // always gets the same form, since the ply is part of it)
            symmetry::min8(w, b)
        } else {
            symmetry::min192(w, b)
        }
    }

    /// Stones that lie only on dead lines (lines holding both colours). Their colour can never
    /// matter again: two positions that differ only in the colours of such stones have the same
    /// dead cells, the same live lines with the same contents (a line through a dead cell is dead
    /// in both), the same empty and playable cells and the same side to move, so their game
    /// trees are the same. The key therefore records them as a third state "dead" rather than
    /// recolouring them (recolouring can revive a line: seed 003's form, refuted in the tests).
    ///
    /// All 76 lines are looked at 16 at a time with shifts (see `geometry::live_line_cells`).
    pub fn dead_cells(&self) -> u64 {
        let (w, b) = (self.stones[0], self.stones[1]);
        (w | b) & !live_line_cells(w, b)
    }

    /// The hashed [`Cube::canonical`] form: what [`crate::game::Game::key`] returns.
    #[inline]
    pub(super) fn hashed_key(&self) -> Key {
        let c = self.canonical();
        let bytes = c.to_le_bytes();
        Key::from_hash_low_bits(xxhash_rust::xxh3::xxh3_64_with_seed(&bytes, self.seed))
    }
}

/// Below this ply no cell can be dead often enough to pay for finding dead cells.
const DEAD_FROM_PLY: u32 = 16;
/// Qubic keys use the full group of 192 below this ply, the subgroup of 8 from it on.
const QUBIC_FULL_GROUP_BELOW_PLY: u32 = 12;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cube::LINES;
    use crate::game::{Bits, Game, Player, Rules};
    use crate::search::reference::minimax;
    use crate::util::random_play::careful_random;
    use crate::util::rng::xorshift as rng;

    #[test]
    fn dead_cells_match_a_scan_of_all_lines() {
        // (the families themselves are checked against LINES in the pair-cells test)
        let mut s = 0xdead_0000_ce11_0001u64;
        for i in 0..20_000 {
            let occ = if i % 2 == 0 {
                rng(&mut s) | rng(&mut s)
            } else {
                rng(&mut s) & rng(&mut s)
            };
            let w = occ & rng(&mut s);
            let g = Cube::from_masks_unchecked(Rules::Qubic, w, occ & !w, occ.count_ones());
            let alive = LINES
                .iter()
                .filter(|&&l| l & g.white() == 0 || l & g.black() == 0)
                .fold(0, |a, &l| a | l);
            assert_eq!(g.dead_cells(), occ & !alive, "{}", g.to_hex());
        }
    }

    /// Seed 003's dead-cell recolouring as written: cells lying only on dead lines become Black.
    fn naive_recolour(g: &Cube) -> Cube {
        let dead = g.dead_cells();
        Cube::from_masks_unchecked(g.rules, g.stones[0] & !dead, g.stones[1] | dead, g.ply)
    }

    #[test]
    fn dead_cell_key_is_sound_and_the_naive_recolouring_is_not() {
        let mut s = 0x0bad_cafe_dead_beefu64;
        let mut naive_wrong = 0;
        let mut tried = 0;
        let mut same_key = 0;
        for _ in 0..600 {
            let g = careful_random(Cube::new(Rules::Sogo), 10, &mut s);
            let dead = g.dead_cells();
            if dead == 0 {
                continue;
            }
            tried += 1;
            let v = minimax(&g);
            // the sound form: a recolouring of dead cells that keeps the key (the same cells
            // are dead afterwards) keeps the value
            let k = (rng(&mut s) % dead.count_ones() as u64) as usize;
            let flip = Bits(dead).nth(k).unwrap_or(0);
            let other =
                Cube::from_masks_unchecked(g.rules, g.stones[0] ^ flip, g.stones[1] ^ flip, g.ply);
            if flip != 0 && other.key() == g.key() {
                same_key += 1;
                assert_eq!(other.dead_cells(), dead);
                assert_eq!(minimax(&other), v, "{}", g.to_hex());
            }
            let n = naive_recolour(&g);
            if n.has_line(Player::First) || n.has_line(Player::Second) || minimax(&n) != v {
                naive_wrong += 1;
            }
        }
        assert!(tried > 100 && same_key > 50, "{tried} {same_key}");
        eprintln!("dead cells: {tried} positions, {same_key} same-key recolourings agree, naive form wrong in {naive_wrong}");
        assert!(
            naive_wrong > 0,
            "the naive form never went wrong in {tried}"
        );
    }
}
