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
        if self.seed_keys {
            return self.seed_canonical();
        }
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

    /// Seed 003's key before hashing, as its text describes it: every stone lying only on dead
    /// lines is set to Black, then the smallest of the 8 symmetric images (the seed uses 8 for
    /// Qubic too).
    ///
    /// **Unsound.** A stone is "dead" when every line through it holds both colours. Turning a
    /// dead White stone Black can leave a line with Black stones only: a line White had blocked
    /// comes alive for Black (it never revives one for White). So a position P with such a White
    /// stone and the position Q with that stone Black (where the line is alive) share a key,
    /// though Black has a line in Q that P denies him. A search stores whichever it settles first
    /// and answers the other with it: P can inherit Q's better value for Black, or Q P's worse
    /// one, so the errors go both ways (the tests found a White win called a loss, and a loss
    /// called a draw). The smallest cases are drawn in the test `seed_keys_change_a_value`
    /// below.
    fn seed_canonical(&self) -> u128 {
        let dead = self.dead_cells();
        symmetry::min8(self.stones[0] & !dead, self.stones[1] | dead)
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

    /// Seed 003's keys make a search give wrong values; sound keys do not. The smallest cases a
    /// scan of 3,000 careful random positions per size found (`benches/cube_seed.rs`), with the
    /// default proof search (Sogo: none at 8 or 10 empty cells, 3 at 12, and 6 at 12 once the
    /// pairing bound had the race, whose search paths meet other collisions; Sogo -g: 1 at 8; Qubic:
    /// none at 8-12, 2 at 14) and with the seed's own search (`--engine seed`; Sogo: none at 8
    /// or 10, 4 at 12; Sogo -g: none at 8, 1 at 10), one thread and 4 MiB: the seed keys give
    /// the wrong value, the sound keys minimax's.
    ///
    /// Sogo, White (X) to move, 12 empty cells: a White win; with seed keys a loss.
    /// ```text
    ///    level 1      level 2      level 3      level 4
    /// 4 X X O X   4 X O O O   4 X O X X   4 O X . O
    /// 3 O X O O   3 O O X .   3 O X O .   3 X O X !
    /// 2 X X O O   2 X X X O   2 O X O X   2 . O . X
    /// 1 X O X X   1 O . O .   1 X . X .   1 O . O .
    ///   a b c d      a b c d      a b c d      a b c d
    /// ```
    /// Sogo, White to move, 12 empty cells, the seed's search: a White win; with seed keys a
    /// loss (until the race, the proof search's case too).
    /// ```text
    ///    level 1      level 2      level 3      level 4
    /// 4 X X X O   4 O X O X   4 . O X X   4 ! X X O
    /// 3 O X O O   3 O X X X   3 X X O O   3 . O . .
    /// 2 X X O X   2 X O O O   2 X O O O   2 O . X X
    /// 1 X O O X   1 . O . O   1 . O . X   1 . X . O
    ///   a b c d      a b c d      a b c d      a b c d
    /// ```
    /// Sogo -g, White to move, 8 empty cells: a draw; with seed keys a loss.
    /// ```text
    ///    level 1      level 2      level 3      level 4
    /// 4 X X X O   4 O X O O   4 X X O X   4 . O X X
    /// 3 X X X O   3 . O X X   3 . O X O   3 . X O .
    /// 2 O O O X   2 . X O O   2 . O X O   2 . X O O
    /// 1 O O X X   1 X O O X   1 O X X X   1 O X O O
    ///   a b c d      a b c d      a b c d      a b c d
    /// ```
    /// Sogo -g, White to move, 10 empty cells, the seed's search: a White win; with seed keys
    /// a loss.
    /// ```text
    ///    level 1      level 2      level 3      level 4
    /// 4 O X O O   4 X X X O   4 O O X X   4 O X X O
    /// 3 O O O X   3 X . X O   3 . . O X   3 . . . .
    /// 2 O X X X   2 O O O X   2 . O X X   2 . . X O
    /// 1 X O X X   1 O X O X   1 X X O O   1 O O O X
    ///   a b c d      a b c d      a b c d      a b c d
    /// ```
    #[test]
    fn seed_keys_change_a_value() {
        use crate::solver::{
            BestMoves, Control, Engine, GameSpec, KeyMode, Question, Solver, SolverConfig,
        };
        let (sogo, poison) = (Rules::Sogo, Rules::SogoPoison);
        for (rules, engine, text, truth, seed_says) in [
            (
                sogo,
                Engine::Pn,
                "0x2580d2a51470b23d:0x92252550e3854dc2",
                1,
                -1,
            ),
            (
                sogo,
                Engine::Seed,
                "0x60c2c318ae1072b9:0x82182ce251ea8d46",
                1,
                -1,
            ),
            (
                poison,
                Engine::Pn,
                "0xc222b44e2c29778c:0x24cd4aa1d2c68873",
                0,
                -1,
            ),
            (
                poison,
                Engine::Seed,
                "0x6048c8c3758a28ed:0x9087342c8875d712",
                1,
                -1,
            ),
        ] {
            let game = GameSpec::Cube(rules);
            let g = Cube::from_hex(rules, text).unwrap();
            assert_eq!(minimax(&g).signum(), truth, "{text}");
            let value = |key_mode| {
                let cfg = SolverConfig {
                    mem_bytes: 4 << 20,
                    threads: 1,
                    best: BestMoves::None,
                    key_mode,
                    engine,
                    ..SolverConfig::for_game(game)
                };
                Solver::new(game, cfg)
                    .unwrap()
                    .solve(text, Question::Value, None, &Control::new())
                    .unwrap()
                    .score
            };
            assert_eq!(value(KeyMode::Sound), truth, "{text} {engine:?}");
            assert_eq!(value(KeyMode::Seed), seed_says, "{text} {engine:?}");
        }
    }

    /// Where no stone is dead the seed's recolouring does nothing: the two keys agree on Sogo
    /// positions (both use the 8 symmetries there).
    #[test]
    fn seed_keys_agree_with_sound_keys_without_dead_stones() {
        let mut s = 0x5eed_0003_u64;
        let mut compared = 0;
        for _ in 0..3000 {
            let g = careful_random(
                Cube::new(Rules::Sogo),
                8 + (rng(&mut s) % 40) as u32,
                &mut s,
            );
            if g.dead_cells() == 0 {
                compared += 1;
                assert_eq!(g.with_seed_keys(true).key(), g.key(), "{}", g.to_hex());
            }
        }
        assert!(compared > 100, "{compared}");
    }
}
