//! Seed 003's search ("Nachweis des Remis"), rebuilt from its description so that its claim —
//! Sogo is a draw, found in two hours — can be recomputed the way it was made and then checked
//! (issue #16). Sound in itself: with sound keys it gives the game's values (the tests check it
//! against plain minimax and our alpha-beta). Run with [`crate::solver::KeyMode::Seed`] it is the
//! seed's method; those keys are what make it unsound (`game/cube/keys.rs`).
//!
//! What the seed's text says, and how it is done here:
//! - "First the heuristically strongest moves of both sides are tried until a drawn position is
//!   found; from that line it is checked backwards, recursively, whether a side had a stronger
//!   move after all": depth-first alpha-beta over win/draw/loss with the window around the draw,
//!   `(-1, 1)` at the root, children in the seed's order ([`Game::seed_move_score`]), strongest
//!   first. Its first line is the heuristic game; backing up along it tries each alternative
//!   that alpha-beta cannot cut, which is the seed's backward check.
//! - Wins are taken at once and only moves that do not lose at once are played (block the
//!   opponent's threat, never fill the cell under it): the rules every program of this kind
//!   follows; they change no value (a win now is the best result; any other move loses).
//! - "All evaluated positions up to depth 56 (8 moves before the board is full) are cached":
//!   positions of at most [`SEED_CACHE_MAX_PLY`] stones go to the table, keyed by the game's
//!   key — the seed's recoloured, 8-symmetry key under `KeyMode::Seed` — and the table is asked
//!   before a position's moves are searched. The seed stores no move, so none is used to order.
//! - Qubic (`-q`): games longer than 40 plies count as draws (`Solvable::seed_form`).
//!
//! Not the seed's: the table itself (our memory table, or the position store with its sorted
//! runs and Bloom filters — the seed's store is the same idea, a 62-bit hash and a 2-bit value
//! behind a Bloom filter). The text does not say how its cache keeps a result alpha-beta only
//! bounded (a "draw at least" from a cutoff); ours keeps exactly what was proven (the store's
//! 2-bit codes are bounds), so the one unsoundness measured is the key's.

use super::negamax::Stopped;
use super::transposition::{Bounds, Table};
use crate::game::{Bits, Game, Key};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Positions with at most this many stones are cached (seed 003: "bis zur Tiefe 56").
pub const SEED_CACHE_MAX_PLY: u32 = 56;

/// Seed 003's search over one table; one thread, as the seed ran.
pub struct SeedSearch<'t, T: Table + ?Sized> {
    table: &'t T,
    /// Positions visited (calls of the recursive search).
    pub nodes: u64,
    /// Raised from outside to stop; a stopped search returns no value.
    stop: Option<&'t AtomicBool>,
    /// Shared node counter for progress displays, advanced every 4,096 nodes.
    progress: Option<&'t AtomicU64>,
}

/// How often (in nodes, a power of two) the stop flag is read and progress published.
const CHECK_EVERY: u64 = 1 << 12;

impl<'t, T: Table + ?Sized> SeedSearch<'t, T> {
    /// A search caching in `table`.
    pub fn new(table: &'t T) -> Self {
        SeedSearch {
            table,
            nodes: 0,
            stop: None,
            progress: None,
        }
    }

    /// Lets another thread stop the search by raising `flag`.
    pub fn with_stop(mut self, flag: &'t AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Adds visited nodes to `counter` now and then.
    pub fn with_progress(mut self, counter: &'t AtomicU64) -> Self {
        self.progress = Some(counter);
        self
    }

    /// The value of `g` for the side to move: 1 win, 0 draw, -1 loss. Precondition: the game
    /// is not over.
    pub fn value<G: Game>(&mut self, g: &G) -> Result<i32, Stopped> {
        // from the window (-1, 1) the fail-soft result is exact: a result <= -1 or >= 1 is a
        // bound at the end of the range, anything between is the value
        self.search(g, -1, 1)
    }

    /// Up to `limit` moves of `g` that achieve `score` (its value), in the seed's order.
    pub fn best_moves<G: Game>(
        &mut self,
        g: &G,
        score: i32,
        limit: usize,
    ) -> Result<Vec<u64>, Stopped> {
        let mut best = Vec::new();
        for mv in ordered(g, g.playable()) {
            if best.len() >= limit {
                break;
            }
            let achieves = if g.winning_moves() & mv != 0 {
                true
            } else {
                let mut child = *g;
                child.play(mv);
                if child.ply() >= child.max_ply() {
                    0 >= score
                } else {
                    // child's value <= -score  <=>  the null-window search says so
                    self.search(&child, -score, -score + 1)? <= -score
                }
            };
            if achieves {
                best.push(mv);
            }
        }
        Ok(best)
    }

    /// Fail-soft alpha-beta over win/draw/loss: with value `v` and result `r`, `r <= alpha`
    /// means `v <= r`, `r >= beta` means `v >= r`, otherwise `r == v`. Precondition:
    /// `-1 <= alpha < beta <= 1`, the game not over.
    fn search<G: Game>(&mut self, g: &G, mut alpha: i32, mut beta: i32) -> Result<i32, Stopped> {
        self.nodes += 1;
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            if let Some(counter) = self.progress {
                counter.fetch_add(CHECK_EVERY, Ordering::Relaxed);
            }
            if self.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return Err(Stopped);
            }
        }
        if g.ply() >= g.max_ply() {
            // a full board, or the seed's Qubic at its last ply
            return Ok(0);
        }
        if g.winning_moves() != 0 {
            return Ok(1);
        }
        if g.ply() + 1 >= g.max_ply() {
            // the last stone, and it does not win: the game ends drawn after it (the opponent's
            // threats never get a turn)
            return Ok(0);
        }
        let next = g.non_losing_moves();
        if next == 0 {
            // every move lets the opponent win with its next stone
            return Ok(-1);
        }
        let cached = g.ply() <= SEED_CACHE_MAX_PLY;
        let key = if cached { g.key() } else { Key::default() };
        let (mut lo, mut hi) = (-1, 1);
        if let Some(b) = cached.then(|| self.table.probe(key)).flatten() {
            lo = lo.max(b.lower as i32);
            hi = hi.min(b.upper as i32);
        }
        if lo >= hi || lo >= beta {
            return Ok(lo);
        }
        if hi <= alpha {
            return Ok(hi);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let alpha0 = alpha;
        let nodes0 = self.nodes;
        let mut best = i32::MIN;
        let mut best_move = None;
        for mv in ordered(g, next) {
            let mut child = *g;
            child.play(mv);
            let v = -self.search(&child, -beta, -alpha)?;
            if v > best {
                best = v;
                best_move = Some(G::cell_index(mv) as u8);
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        if cached {
            let (lower, upper) = if best >= beta {
                (best, hi)
            } else if best <= alpha0 {
                (lo, best)
            } else {
                (best, best)
            };
            let bounds = Bounds {
                lower: lower as i8,
                upper: upper as i8,
                best: best_move,
            };
            self.table.store(key, bounds, self.nodes - nodes0);
        }
        Ok(best)
    }
}

/// `moves` of `g` in the seed's order: strongest first, ties in board order.
fn ordered<G: Game>(g: &G, moves: u64) -> impl Iterator<Item = u64> {
    let mut list = [(0i32, 0u64); 64];
    let mut n = 0;
    for mv in Bits(moves) {
        list[n] = (g.seed_move_score(mv), mv);
        n += 1;
    }
    // stable: equal strengths keep the board order
    list[..n].sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    list.into_iter().take(n).map(|(_, mv)| mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cube::{Cube, Rules};
    use crate::game::Connect4;
    use crate::search::reference::minimax;
    use crate::search::{Depth, MemoryTable, Unstoppable};
    use crate::util::random_play::careful_random;

    fn seed_value<G: Game>(g: &G) -> i32 {
        let table = MemoryTable::with_bytes(1 << 20);
        SeedSearch::new(&table).value(g).expect("no stop flag")
    }

    #[test]
    fn the_seed_search_agrees_with_minimax_on_small_positions() {
        let mut s = 0x5eed_5ea2_0000_0001u64;
        for rules in Rules::ALL {
            for empties in [6, 8, 9] {
                for _ in 0..60 {
                    let g = careful_random(Cube::new(rules), empties, &mut s);
                    let want = minimax(&g).signum();
                    assert_eq!(seed_value(&g), want, "{} {}", rules.name(), g.to_hex());
                }
            }
        }
        for _ in 0..100 {
            let g = careful_random(Connect4::new(4, 4).unwrap(), 9, &mut s);
            assert_eq!(seed_value(&g), minimax(&g).signum());
        }
    }

    #[test]
    fn the_seed_search_agrees_with_alpha_beta_on_deeper_positions() {
        let mut s = 0x5eed_5ea2_0000_0002u64;
        for rules in Rules::ALL {
            for empties in [14, 18, 22] {
                for _ in 0..12 {
                    let g = careful_random(Cube::new(rules), empties, &mut s);
                    let table = MemoryTable::with_bytes(1 << 22);
                    let want = Unstoppable::new(&table, Default::default())
                        .solve(&g, Depth::Weak)
                        .signum();
                    assert_eq!(seed_value(&g), want, "{} {}", rules.name(), g.to_hex());
                }
            }
        }
    }

    #[test]
    fn best_moves_are_the_moves_minimax_scores_at_the_value() {
        let mut s = 0x5eed_5ea2_0000_0003u64;
        for rules in Rules::ALL {
            for _ in 0..40 {
                let g = careful_random(Cube::new(rules), 8, &mut s);
                let scores = crate::search::reference::move_scores(&g);
                let value = seed_value(&g);
                let mut want: Vec<u64> = scores
                    .iter()
                    .filter(|m| m.1.signum() == value)
                    .map(|m| m.0)
                    .collect();
                let table = MemoryTable::with_bytes(1 << 20);
                let mut got = SeedSearch::new(&table)
                    .best_moves(&g, value, usize::MAX)
                    .unwrap();
                want.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, want, "{}", g.to_hex());
            }
        }
    }

    #[test]
    fn positions_past_the_cache_depth_are_not_cached() {
        let mut s = 0x5eed_5ea2_0000_0004u64;
        let deep = careful_random(Cube::new(Rules::Sogo), 64 - SEED_CACHE_MAX_PLY - 2, &mut s);
        let table = MemoryTable::with_bytes(1 << 20);
        let mut search = SeedSearch::new(&table);
        search.value(&deep).unwrap();
        assert!(search.nodes > 0);
        assert_eq!(table.probe(deep.key()), None, "{}", deep.to_hex());
        let shallow = careful_random(Cube::new(Rules::Sogo), 64 - SEED_CACHE_MAX_PLY + 2, &mut s);
        let mut search = SeedSearch::new(&table);
        search.value(&shallow).unwrap();
        assert!(table.probe(shallow.key()).is_some(), "{}", shallow.to_hex());
    }

    #[test]
    fn a_raised_stop_flag_stops_the_search() {
        let stop = AtomicBool::new(true);
        let table = MemoryTable::with_bytes(1 << 20);
        let mut search = SeedSearch::new(&table).with_stop(&stop);
        assert_eq!(search.value(&Cube::new(Rules::Sogo)), Err(Stopped));
        assert_eq!(search.nodes, CHECK_EVERY);
    }
}
