//! Seed 003's move order, as its text describes it ("Nachweis des Remis"): "the strength is
//! the sum of occupied own and spoiled enemy lines, weight 3 for a first occupation, 2 for a
//! second; a third occupation only weight 1, unless it is reached in two lines at once
//! (Zwicksituation)". Poisoning a cell is named there as not implemented, so it scores nothing.
//!
//! Our reading, where the text leaves room: a line counts when the move is its first, second
//! or third stone of one colour — the mover's own line it extends, or an enemy line it spoils
//! (then the weight is by the stones the line held, as for the seed's "occupation" of it:
//! spoiling a one-stone enemy line is its second occupation). Dead lines (both colours) score
//! nothing. A move that makes three of the mover's stones on two lines at once gets
//! [`ZWICK_BONUS`] on top, more than any move's line weights (7 lines x 3), so it comes
//! first: it threatens two wins. Wins and forced blocks need no weight: the seed search takes
//! a win at once and plays only non-losing moves (see `crate::search::seed`).
//!
//! Unlike [`crate::game::Game::move_score`] (which starts from these weights and adds its own
//! threat terms) this is the seed's order alone, so the seed search follows its first line.

use super::geometry::{stones_on_line, LINES_THROUGH};
use super::Cube;

/// What a double third occupation (two new three-stone lines of the mover's at once) adds.
pub const ZWICK_BONUS: i32 = 24;

/// The weight of a line by the stones it held before the move: first, second, third
/// occupation (a fourth completes a line: the game is over).
const OCCUPATION_WEIGHT: [i32; 4] = [3, 2, 1, 1];

impl Cube {
    /// Seed 003's strength of `mv` for the side to move (larger is tried first).
    pub fn seed_strength(&self, mv: u64) -> i32 {
        let p = self.side();
        let (own, opp) = (self.stones_of(p), self.stones_of(p.other()));
        let mut score = 0;
        let mut thirds = 0;
        for &l in &LINES_THROUGH[(mv.trailing_zeros() & 63) as usize] {
            let (mine, theirs) = (l & own, l & opp);
            if l == 0 || (mine != 0 && theirs != 0) {
                continue;
            }
            let n = stones_on_line(mine | theirs);
            score += OCCUPATION_WEIGHT[n];
            if n == 2 && theirs == 0 {
                thirds += 1;
            }
        }
        if thirds >= 2 {
            score += ZWICK_BONUS;
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cube::geometry::LINES;
    use crate::game::cube::Rules;
    use crate::game::{Bits, Game};
    use crate::util::random_play::careful_random;

    /// The same weights counted the slow way over all 76 lines.
    fn counted(g: &Cube, mv: u64) -> i32 {
        let p = g.side();
        let (own, opp) = (g.stones_of(p), g.stones_of(p.other()));
        let mut score = 0;
        let mut thirds = 0;
        for &l in LINES.iter().filter(|&&l| l & mv != 0) {
            let (o, e) = ((l & own).count_ones(), (l & opp).count_ones());
            if o > 0 && e > 0 {
                continue;
            }
            score += [3, 2, 1, 1][(o + e) as usize];
            thirds += (e == 0 && o == 2) as i32;
        }
        score + if thirds >= 2 { ZWICK_BONUS } else { 0 }
    }

    #[test]
    fn seed_strength_matches_the_counting_form() {
        let mut s = 0x5eed_0003_0000_0001u64;
        for rules in Rules::ALL {
            for empties in [16, 30, 44, 60] {
                for _ in 0..100 {
                    let g = careful_random(Cube::new(rules), empties, &mut s);
                    for mv in Bits(g.playable()) {
                        assert_eq!(g.seed_strength(mv), counted(&g, mv), "{}", g.to_hex());
                    }
                }
            }
        }
    }

    #[test]
    fn the_seed_order_opens_on_a_strong_point_and_prefers_a_double_third() {
        // the empty board: a corner (7 lines, 3 each) beats an edge cell (4 lines)
        let g = Cube::new(Rules::Qubic);
        assert_eq!(g.seed_strength(1), 21);
        assert_eq!(g.seed_strength(1 << 1), 12);
        // White on cells 1, 2 (row 0-3) and 4, 8 (column 0-12); Black away from every line
        // through cell 0. Cell 0 is the third stone of both lines at once: 1 + 1 for them,
        // 3 for each of its five empty lines, and the bonus. Cell 3 completes one third only.
        let w: u64 = (1 << 1) | (1 << 2) | (1 << 4) | (1 << 8);
        let b: u64 = (1 << 55) | (1 << 58) | (1 << 47) | (1 << 30);
        let g = Cube::from_hex(Rules::Qubic, &format!("{w:#018x}:{b:#018x}")).unwrap();
        assert_eq!(g.seed_strength(1), 2 + 15 + ZWICK_BONUS);
        assert_eq!(g.seed_strength(1 << 3), 1 + 18);
        let best = Bits(g.playable()).max_by_key(|&m| g.seed_strength(m));
        assert_eq!(best, Some(1));
    }
}
