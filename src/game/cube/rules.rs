//! The rules as the search asks them: [`Game`] for [`Cube`] (where a stone may go, which moves
//! win or do not lose at once, move ordering, static bounds), and the poisons of Sogo `-g`.

use super::geometry::{
    any_line_within, new_threats, pair_cells, poison_lines, stones_on_line, LINES, LINES_THROUGH,
};
use super::{Cube, Rules};
use crate::game::{blocking_moves, Bits, Game, Key, Player};

impl Cube {
    /// Cells where side `p` can create a poison with one stone (Sogo): playable cells whose stone
    /// makes a threat cell of `p` that is empty and not playable afterwards.
    #[inline]
    fn poison_makers(&self, p: Player) -> u64 {
        let (own, opp) = (self.stones_of(p), self.stones_of(p.other()));
        poison_lines(own, opp, self.playable()).0
    }

    /// Of the `moves` of the side to move S that leave its opponent O no playable threat, those
    /// after which O cannot create a poison either (Sogo `-g`). Exact, from O's lines with two
    /// stones and none of S's ([`poison_lines`]; each has two empty cells, and only a
    /// non-vertical one can give a poison), and S's move `m`, which only fills `m` and makes
    /// the cell above `m` playable:
    /// - a line with one playable empty cell `a` (O can create a poison now) stays a poison
    ///   maker for O unless `m` is `a` or the cell below its other cell `b` (then `b` is
    ///   playable and O's stone on `a` only makes a threat), so only those moves may be kept:
    ///   each is tried by playing it;
    /// - a line with no playable empty cell becomes one when `m` is right below one of them,
    ///   so those moves lose (the other empty cell is not above the first: not vertical);
    /// - a line with two playable empty cells gives O no poison after any one move.
    #[inline]
    fn poison_safe(&self, moves: u64) -> u64 {
        let opp = self.side().other();
        let (o, s) = (self.stones_of(opp), self.stones_of(opp.other()));
        let (makers, hanging) = poison_lines(o, s, self.playable());
        if makers == 0 {
            return moves & !(hanging >> 16);
        }
        let mut keep = 0;
        for mv in Bits(moves & (makers | hanging >> 16)) {
            let mut child = *self;
            child.play(mv);
            if child.winning_moves() == 0 {
                keep |= mv;
            }
        }
        keep
    }

    /// Whether side `p` has a poison on the board, by scanning all lines (independent of the
    /// incremental threats; used by the win test and input checks).
    pub fn has_poison(&self, p: Player) -> bool {
        if !self.rules.gravity() {
            return false;
        }
        let occ = self.occupied();
        let playable = self.playable_for(occ);
        LINES.iter().any(|&l| {
            let s = l & self.stones_of(p);
            let e = l ^ s;
            s.count_ones() == 3 && e & occ == 0 && e & playable == 0
        })
    }

    /// The poison cells of side `p` (empty threat cells that cannot be played yet), for display.
    pub fn poisons_of(&self, p: Player) -> u64 {
        if !self.rules.gravity() {
            return 0;
        }
        self.threats_of(p) & !self.playable()
    }

    /// Whether side `p` has four in a line (full scan).
    pub fn has_line(&self, p: Player) -> bool {
        any_line_within(self.stones_of(p))
    }

    /// Whether side `p` could still complete a line (has a line without enemy stones).
    fn has_live_line(&self, p: Player) -> bool {
        any_line_within(!self.stones_of(p.other()))
    }
}

/// Below this ply static bounds are not tried: every side has live lines, and the pairings
/// (`pairing`) leave several lines of the side to move whole in almost every position, so they
/// cost a proof search's opening a large share of its time and decide next to nothing (the
/// README, "Why the defaults are what they are", has the measurements).
const BOUNDS_FROM_PLY: u32 = 28;

impl Game for Cube {
    #[inline]
    fn ply(&self) -> u32 {
        self.ply
    }

    #[inline]
    fn max_ply(&self) -> u32 {
        self.cap
    }

    #[inline]
    fn playable(&self) -> u64 {
        self.playable_for(self.occupied())
    }

    #[inline]
    fn winning_moves(&self) -> u64 {
        let p = self.side();
        let lines = self.playable() & self.threats[p.index()];
        if self.rules == Rules::SogoPoison {
            lines | self.poison_makers(p)
        } else {
            lines
        }
    }

    #[inline]
    fn non_losing_moves(&self) -> u64 {
        let opp = self.side().other();
        let opp_threats = self.threats_of(opp);
        let mut moves = blocking_moves(self.playable(), opp_threats);
        if self.rules.gravity() {
            // never fill the cell below an enemy threat
            moves &= !(opp_threats >> 16);
        }
        if self.rules == Rules::SogoPoison && moves != 0 {
            // the enemy may also win by creating a poison
            moves = self.poison_safe(moves);
        }
        moves
    }

    /// Cells on a line holding two stones of the side to move and none of the opponent's (the
    /// move makes a threat there), and under gravity also the cells right below its own threats
    /// (the move makes that threat playable, so the opponent must block it at once): the moves
    /// that force a reply by a threat. (Under `-g`, moves that force by a poison threat are not
    /// listed; the forcing-win search then just does not try them.)
    fn forcing_candidates(&self) -> u64 {
        let p = self.side();
        let (own, opp) = (self.stones_of(p), self.stones_of(p.other()));
        let mut out = pair_cells(own, opp) & !own;
        if self.rules.gravity() {
            out |= self.threats_of(p) >> 16;
        }
        out & self.playable()
    }

    #[inline]
    fn play(&mut self, mv: u64) {
        let p = self.side().index();
        self.stones[p] |= mv;
        self.threats[p] |= new_threats(self.stones[p], mv);
        self.ply += 1;
    }

    fn last_mover_won(&self) -> bool {
        if self.ply == 0 {
            return false;
        }
        let p = self.side().other();
        self.has_line(p) || (self.rules == Rules::SogoPoison && self.has_poison(p))
    }

    #[inline]
    fn id(&self) -> u128 {
        let (w, b) = (self.stones[0], self.stones[1]);
        if self.passed {
            // the two halves overlap, which no real position's do (White has a stone whenever
            // Black has one, so with b == 0 the halves are equal, else they differ); the empty
            // board passed gets all ones
            if w == 0 {
                return u128::MAX;
            }
            let low = if b == 0 { w } else { b };
            ((w | b) as u128) << 64 | low as u128
        } else {
            (w as u128) << 64 | b as u128
        }
    }

    fn defence_is_monotone(&self) -> bool {
        !self.rules.gravity()
    }

    fn null_move(&self) -> Option<Self> {
        if self.ply + 1 >= self.cap {
            return None;
        }
        let mut g = *self;
        g.ply += 1;
        g.passed = true;
        Some(g)
    }

    #[inline]
    fn key(&self) -> Key {
        self.hashed_key()
    }

    fn move_score(&self, mv: u64) -> i32 {
        // seed 003: a move scores every line through it that is not dead yet by how many stones
        // the line had: 3 for the first stone, 2 for the second, 1 for the third (own lines it
        // extends and enemy lines it spoils alike). On top (ours): a new threat is worth much
        // more, most if it can be played at once (the opponent is then forced), spoiling an enemy
        // two-stone line a little more, and two threats at once most of all.
        let p = self.side();
        let (own, opp) = (self.stones_of(p), self.stones_of(p.other()));
        let occ = self.occupied() | mv;
        let playable_after = self.playable_for(occ);
        let mut score = 0;
        let mut threats_made = 0;
        for &l in &LINES_THROUGH[(mv.trailing_zeros() & 63) as usize] {
            let (mine, theirs) = (l & own, l & opp);
            if l == 0 || (mine != 0 && theirs != 0) {
                continue;
            }
            // the line holds one colour only, so one count tells both
            let n = stones_on_line(mine | theirs);
            score += [3, 2, 1, 1][n];
            if n == 2 && theirs == 0 {
                threats_made += 1;
                let cell = l & !occ;
                score += if cell & playable_after != 0 { 12 } else { 6 };
            } else if n == 2 {
                score += 3;
            }
        }
        if threats_made >= 2 {
            score += 32;
        }
        // filling the cell under one's own threat lets the opponent block it
        if self.rules.gravity() && (mv << 16) & self.threats_of(p) != 0 {
            score -= 8;
        }
        score
    }

    #[inline]
    fn seed_move_score(&self, mv: u64) -> i32 {
        self.seed_strength(mv)
    }

    #[inline]
    fn bounds_may_prove_loss_after_move(&self) -> bool {
        // only Sogo's pairing strategies prove losses, and bounds start at BOUNDS_FROM_PLY
        self.rules == Rules::Sogo && self.ply + 1 >= BOUNDS_FROM_PLY
    }

    #[inline]
    fn static_loss(&self) -> bool {
        // the pairings give the only bound below 0 (see `static_bounds`), asked there only where
        // the side to move has a live line
        self.rules == Rules::Sogo
            && self.ply >= BOUNDS_FROM_PLY
            && self.has_live_line(self.side())
            && self.pairing_proves_loss()
    }

    #[inline]
    fn static_bounds(&self) -> (i32, i32) {
        if self.ply < BOUNDS_FROM_PLY {
            return (i32::MIN, i32::MAX);
        }
        let p = self.side();
        let mut lo = i32::MIN;
        let mut hi = i32::MAX;
        // A side with no line free of enemy stones can never complete one, nor (in -g) make a
        // poison, which also needs three of its stones on a line without enemy stones: it cannot
        // win, so its score is at most 0.
        if !self.has_live_line(p) {
            hi = 0;
        }
        if !self.has_live_line(p.other()) {
            lo = 0;
        }
        // The opponent's pairing strategies (claimeven, baseinverse, blocked columns: see
        // `pairing`) may prove that the side to move cannot win, or loses. Plain Sogo only.
        if hi > 0 && self.rules == Rules::Sogo {
            hi = hi.min(self.pairing_bound());
        }
        (lo, hi)
    }
}

impl crate::search::capped::Capped for Cube {
    fn capped(&self, cap: u32) -> Self {
        self.with_cap(cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::reference::minimax;
    use crate::util::random_play::{careful, careful_random};
    use crate::util::rng::xorshift as rng;

    fn careful_random_cube(rules: Rules, empties: u32, seed: &mut u64) -> Cube {
        careful_random(Cube::new(rules), empties, seed)
    }

    /// A pass hands the move to the other side on the same stones, and its id differs from
    /// every real position's, so caches keyed by [`Game::id`] never confuse the two.
    #[test]
    fn a_pass_changes_the_side_to_move_and_the_id() {
        let mut seed = 5;
        let mut ids = std::collections::HashSet::new();
        let mut passed_ids = Vec::new();
        for rules in [Rules::Qubic, Rules::Sogo] {
            for empties in [63, 62, 50, 40, 30] {
                let Some(g) = careful(Cube::new(rules), empties, &mut seed) else {
                    continue;
                };
                let p = g.null_move().expect("a pass is possible");
                assert_eq!((p.white(), p.black()), (g.white(), g.black()));
                assert_eq!(p.ply(), g.ply() + 1);
                assert_eq!(p.playable(), g.playable());
                ids.insert(g.id());
                passed_ids.push(p.id());
            }
        }
        assert!(passed_ids.len() > 5);
        assert!(passed_ids.iter().all(|id| !ids.contains(id)));
        let empty = Cube::new(Rules::Qubic);
        let one = Cube::parse(Rules::Qubic, "a11").unwrap();
        assert_ne!(one.null_move().unwrap().id(), one.id());
        assert_ne!(empty.null_move().unwrap().id(), empty.id());
        let mut full = Cube::new(Rules::Qubic).with_cap(3);
        full.play(1);
        full.play(2);
        assert!(full.null_move().is_none(), "no pass onto the last ply");
    }

    /// The poisons of `-g` by the definition, one stone at a time: the cells where a stone of
    /// `p` makes a threat cell that is empty and not playable afterwards.
    fn poison_makers_by_play(g: &Cube, p: Player) -> u64 {
        let occ = g.occupied();
        let mut out = 0;
        for x in Bits(g.playable_for(occ)) {
            let occ2 = occ | x;
            let t = new_threats(g.stones_of(p) | x, x) & !occ2;
            if t & !g.playable_for(occ2) != 0 {
                out |= x;
            }
        }
        out
    }

    /// `-g`'s non-losing moves by the definition: every move that leaves the opponent no
    /// winning move, each played and its child asked (with the reference poison makers).
    fn non_losing_by_play(g: &Cube) -> u64 {
        let mut keep = 0;
        for mv in Bits(g.playable()) {
            let mut child = *g;
            child.play(mv);
            let p = child.side();
            if child.playable() & child.threats_of(p) == 0 && poison_makers_by_play(&child, p) == 0
            {
                keep |= mv;
            }
        }
        keep
    }

    /// The family-wise poison makers and `-g`'s non-losing moves agree with the definitions
    /// along random games, and the games pass through every case of `poison_safe` (no line
    /// to watch, a line that hangs, a poison the mover must stop).
    #[test]
    fn poisons_match_the_definition() {
        let mut s = 0x9015_0a5e_0000_0003u64;
        let mut cases = [0usize; 3];
        for _ in 0..3_000 {
            let mut g = Cube::new(Rules::SogoPoison);
            while g.ply() < 64 && !g.last_mover_won() {
                for p in Player::BOTH {
                    assert_eq!(
                        g.poison_makers(p),
                        poison_makers_by_play(&g, p),
                        "{}",
                        g.to_hex()
                    );
                }
                assert_eq!(
                    g.non_losing_moves(),
                    non_losing_by_play(&g),
                    "{}",
                    g.to_hex()
                );
                let opp = g.side().other();
                let (o, x) = (g.stones_of(opp), g.stones_of(opp.other()));
                let (makers, hanging) = poison_lines(o, x, g.playable());
                cases[if makers != 0 {
                    2
                } else {
                    (hanging != 0) as usize
                }] += 1;
                let m = g.playable();
                g.play(
                    Bits(m)
                        .nth((rng(&mut s) % m.count_ones() as u64) as usize)
                        .unwrap(),
                );
            }
        }
        assert!(cases.iter().all(|&n| n >= 1000), "{cases:?}");
    }

    #[test]
    fn incremental_threats_match_a_scan_of_the_lines() {
        let mut s = 0x7e57_7e57_0000_0005u64;
        for rules in [Rules::Sogo, Rules::Qubic] {
            for _ in 0..2_000 {
                let mut g = Cube::new(rules);
                while g.ply() < 64 && !g.last_mover_won() {
                    let occ = g.occupied();
                    for p in Player::BOTH {
                        let scan = LINES
                            .iter()
                            .filter(|&&l| (l & g.stones_of(p)).count_ones() == 3 && l & !occ != 0)
                            .fold(0, |t, &l| t | (l & !occ));
                        assert_eq!(g.threats_of(p), scan, "{rules:?} {}", g.to_hex());
                    }
                    let m = g.playable();
                    g.play(
                        Bits(m)
                            .nth((rng(&mut s) % m.count_ones() as u64) as usize)
                            .unwrap(),
                    );
                }
            }
        }
    }

    /// Seed 003's move score written with plain counts (the form `move_score` replaced).
    fn counted_move_score(g: &Cube, mv: u64) -> i32 {
        let p = g.side();
        let (own, opp) = (g.stones_of(p), g.stones_of(p.other()));
        let occ = g.occupied() | mv;
        let (mut score, mut threats_made) = (0, 0);
        for &l in LINES.iter().filter(|&&l| l & mv != 0) {
            let (o, e) = ((l & own).count_ones(), (l & opp).count_ones());
            if o > 0 && e > 0 {
                continue;
            }
            score += [3, 2, 1, 1][(o + e) as usize];
            if e == 0 && o == 2 {
                threats_made += 1;
                score += if l & !occ & g.playable_for(occ) != 0 {
                    12
                } else {
                    6
                };
            } else if o == 0 && e == 2 {
                score += 3;
            }
        }
        if threats_made >= 2 {
            score += 32;
        }
        if g.rules.gravity() && (mv << 16) & g.threats_of(p) != 0 {
            score -= 8;
        }
        score
    }

    #[test]
    fn move_score_matches_the_counting_form() {
        let mut s = 0x5c0e_5c0e_0000_0001u64;
        for rules in [Rules::Sogo, Rules::Qubic] {
            for empties in [20, 30, 40, 50] {
                for _ in 0..100 {
                    let g = careful_random_cube(rules, empties, &mut s);
                    for mv in Bits(g.playable()) {
                        assert_eq!(
                            g.move_score(mv),
                            counted_move_score(&g, mv),
                            "{}",
                            g.to_hex()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn winning_moves_and_non_losing_moves_keep_the_contract() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for rules in Rules::ALL {
            for empties in [10, 20, 30, 40] {
                for _ in 0..200 {
                    let g = careful_random_cube(rules, empties, &mut s);
                    let mut wins = 0;
                    for mv in Bits(g.playable()) {
                        let mut c = g;
                        c.play(mv);
                        if c.last_mover_won() {
                            wins |= mv;
                        }
                    }
                    assert_eq!(wins, g.winning_moves(), "{rules:?} {}", g.to_hex());
                    let mut safe = 0;
                    for mv in Bits(g.playable()) {
                        let mut c = g;
                        c.play(mv);
                        let opp_wins = Bits(c.playable()).any(|m2| {
                            let mut d = c;
                            d.play(m2);
                            d.last_mover_won()
                        });
                        if !opp_wins {
                            safe |= mv;
                        }
                    }
                    assert_eq!(safe, g.non_losing_moves(), "{rules:?} {}", g.to_hex());
                }
            }
        }
    }

    /// `static_loss` (the pairings asked for a loss only, dropping the choices that cannot
    /// prove one) gives the answer of the full bound, for every rule set and from the ply the
    /// bounds start to nearly full boards; both answers must occur often.
    #[test]
    fn static_loss_is_the_static_upper_bound_below_zero() {
        let mut s = 0x5747_1c10_55ee_0001u64;
        let mut losses = 0;
        let mut others = 0;
        for rules in Rules::ALL {
            for _ in 0..3000 {
                let empties = 6 + (rng(&mut s) % 31) as u32;
                let g = careful_random_cube(rules, empties, &mut s);
                let loss = g.static_bounds().1 < 0;
                assert_eq!(g.static_loss(), loss, "{rules:?} {}", g.to_hex());
                if loss {
                    losses += 1;
                } else {
                    others += 1;
                }
            }
        }
        assert!(
            losses > 200 && others > 200,
            "{losses} losses, {others} others"
        );
    }

    #[test]
    fn static_bounds_agree_with_plain_search() {
        let mut s = 0x1234_9876_abcd_ef01u64;
        let mut checked = [0; 3];
        for rules in Rules::ALL {
            for _ in 0..400 {
                let empties = 9 + (rng(&mut s) % 3) as u32;
                let g = careful_random_cube(rules, empties, &mut s);
                let (lo, hi) = g.static_bounds();
                // the pair games add to the pairings, never take from them
                let games = g.pair_games_bound();
                assert!(games <= g.pairing_bound(), "{}", g.to_hex());
                if lo == i32::MIN && hi == i32::MAX && (games == i32::MAX || rules != Rules::Sogo) {
                    continue;
                }
                let v = minimax(&g);
                assert!(lo <= v && v <= hi, "{rules:?} {} {lo} {v} {hi}", g.to_hex());
                if rules == Rules::Sogo {
                    assert!(v <= games, "{} games {games} value {v}", g.to_hex());
                }
                checked[(hi == 0) as usize + 2 * (hi < 0) as usize] += 1;
            }
        }
        // both conclusions of the pairing strategies (cannot win, loses) are met often enough
        assert!(checked[1] > 20 && checked[2] > 20, "{checked:?}");
    }
}
