//! Alpha-beta negamax with a transposition table, and the null-window driver that turns it into
//! an exact (or win/draw/loss) solver. Game-independent: everything game-specific comes through
//! [`Game`].

use super::order::MoveList;
use super::table::{Bounds, Table};
use crate::game::{Bits, Game};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How much to find out about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Exact score (how fast the win or loss comes).
    Strong,
    /// Only win / draw / loss: the score's sign. Same search, narrower window.
    Weak,
}

/// The search state of one thread: a table to share and a node counter to report.
pub struct Searcher<'t, T: Table + ?Sized> {
    table: &'t T,
    /// Positions visited (calls of the recursive search).
    pub nodes: u64,
    /// Set from outside to stop a search early; a stopped search returns no result.
    stop: Option<&'t AtomicBool>,
    /// Shared node counter for progress displays, advanced every 65,536 nodes.
    progress: Option<&'t AtomicU64>,
    /// Remaining-cell threshold above which children's table entries are checked before searching
    /// (enhanced transposition cutoff). Near the leaves the probes cost more than they save.
    etc_min_empty: u32,
}

/// Thrown out of the recursion when the stop flag is raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

impl<'t, T: Table + ?Sized> Searcher<'t, T> {
    /// A searcher using `table`.
    pub fn new(table: &'t T) -> Self {
        Searcher {
            table,
            nodes: 0,
            stop: None,
            progress: None,
            etc_min_empty: 12,
        }
    }

    /// Lets another thread stop this search by setting `flag`.
    pub fn with_stop(mut self, flag: &'t AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Reports progress by adding visited nodes to `counter` now and then.
    pub fn with_progress(mut self, counter: &'t AtomicU64) -> Self {
        self.progress = Some(counter);
        self
    }

    /// Checks children's table entries before searching (enhanced transposition cutoff) only at
    /// nodes with at least `empty` empty cells. Games with costly keys (the 4x4x4 symmetry
    /// canonical forms) want it only near the root.
    pub fn with_etc_min_empty(mut self, empty: u32) -> Self {
        self.etc_min_empty = empty;
        self
    }

    /// The table this searcher uses.
    pub fn table(&self) -> &'t T {
        self.table
    }

    /// Alpha-beta negamax.
    ///
    /// Contract (fail-soft): with true score `v`, the result `r` satisfies
    /// - `r <= alpha` ⇒ `v <= r` (an upper bound),
    /// - `r >= beta`  ⇒ `v >= r` (a lower bound),
    /// - otherwise `r == v`.
    ///
    /// Precondition: the side to move cannot win at once (see [`Game`]), `alpha < beta`.
    pub fn negamax<G: Game>(
        &mut self,
        g: &G,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, Stopped> {
        debug_assert!(alpha < beta);
        debug_assert_eq!(g.winning_moves(), 0);
        self.nodes += 1;
        if self.nodes & 0xffff == 0 {
            if let Some(counter) = self.progress {
                counter.fetch_add(0x10000, Ordering::Relaxed);
            }
            if let Some(flag) = self.stop {
                if flag.load(Ordering::Relaxed) {
                    return Err(Stopped);
                }
            }
        }
        let ply = g.ply() as i32;
        let max_ply = g.max_ply() as i32;
        let next = g.non_losing_moves();
        if next == 0 {
            // every move hands the opponent a win with its next stone
            return Ok(-((max_ply - ply) / 2));
        }
        if ply >= max_ply - 2 {
            // neither of the last two stones can win (trait contract): draw
            return Ok(0);
        }
        // the opponent wins at the earliest with its stone after our next move;
        // we win at the earliest with our stone after that
        let mut lo = -((max_ply - 2 - ply) / 2);
        let mut hi = (max_ply - 1 - ply) / 2;
        let (slo, shi) = g.static_bounds();
        lo = lo.max(slo);
        hi = hi.min(shi);
        let key = g.key();
        let mut best_hint = None;
        if let Some(b) = self.table.probe(key) {
            lo = lo.max(b.lower as i32);
            hi = hi.min(b.upper as i32);
            best_hint = b.best;
        }
        if lo >= hi {
            return Ok(lo);
        }
        if lo >= beta {
            return Ok(lo);
        }
        if hi <= alpha {
            return Ok(hi);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let alpha0 = alpha;

        // enhanced transposition cutoff: a child already known to be good enough ends the node
        if (max_ply - ply) as u32 >= self.etc_min_empty {
            for mv in Bits(next) {
                let mut child = g.clone();
                child.play(mv);
                if let Some(b) = self.table.probe(child.key()) {
                    let v = -(b.upper as i32);
                    if v >= beta {
                        let bounds = Bounds {
                            lower: v as i8,
                            upper: hi as i8,
                            best: Some(G::cell_index(mv) as u8),
                        };
                        self.table.store(key, bounds, 1);
                        return Ok(v);
                    }
                }
            }
        }

        let nodes0 = self.nodes;
        let moves = MoveList::new(g, next, best_hint);
        let mut best = i32::MIN;
        let mut best_move = None;
        for &mv in moves.as_slice() {
            let mut child = g.clone();
            child.play(mv);
            let v = -self.negamax(&child, -beta, -alpha)?;
            if v > best {
                best = v;
                best_move = Some(G::cell_index(mv) as u8);
                if v >= beta {
                    break;
                }
                if v > alpha {
                    alpha = v;
                }
            }
        }
        let work = self.nodes - nodes0;
        let bounds = if best >= beta {
            Bounds {
                lower: best as i8,
                upper: hi as i8,
                best: best_move,
            }
        } else if best <= alpha0 {
            // every move failed low: only an upper bound, and no move is known to be better
            Bounds {
                lower: lo as i8,
                upper: best as i8,
                best: best_hint,
            }
        } else {
            Bounds {
                lower: best as i8,
                upper: best as i8,
                best: best_move,
            }
        };
        self.table.store(key, bounds, work);
        Ok(best)
    }

    /// The score of `g` for the side to move, exactly ([`Depth::Strong`]) or only its sign
    /// ([`Depth::Weak`]), by a sequence of null-window searches that narrow `[min, max]`.
    ///
    /// Handles the positions `negamax` does not take: an immediate win, a full board.
    /// Precondition: the game is not over.
    pub fn solve<G: Game>(&mut self, g: &G, depth: Depth) -> Result<i32, Stopped> {
        if g.winning_moves() != 0 {
            return Ok(g.win_now_score());
        }
        if g.ply() >= g.max_ply() {
            return Ok(0);
        }
        let (mut min, mut max) = match depth {
            Depth::Strong => (-g.max_score(), g.max_score()),
            Depth::Weak => (-1, 1),
        };
        while min < max {
            let mut med = min + (max - min) / 2;
            // probe near zero first: those probes are the cheap, decisive ones
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(g, med, med + 1)?;
            if r <= med {
                max = r.min(max);
            } else {
                min = r.max(min);
            }
            if depth == Depth::Weak {
                min = min.max(-1);
                max = max.min(1);
            }
        }
        Ok(match depth {
            Depth::Strong => min,
            Depth::Weak => min.signum(),
        })
    }

    /// Whether playing `mv` in `g` achieves at least `target` for the mover (`target` being the
    /// proven score of `g`, this tells whether `mv` is a best move).
    pub fn achieves<G: Game>(&mut self, g: &G, mv: u64, target: i32) -> Result<bool, Stopped> {
        if g.winning_moves() & mv != 0 {
            return Ok(g.win_now_score() >= target);
        }
        let mut child = g.clone();
        child.play(mv);
        if child.ply() >= child.max_ply() {
            return Ok(0 >= target);
        }
        if child.winning_moves() != 0 {
            return Ok(-child.win_now_score() >= target);
        }
        // child score <= -target  <=>  negamax(child, -target, -target + 1) <= -target
        let r = self.negamax(&child, -target, -target + 1)?;
        Ok(r <= -target)
    }

    /// The exact (or weak) score of every legal move: the score the mover gets by playing it.
    pub fn analyze<G: Game>(&mut self, g: &G, depth: Depth) -> Result<Vec<(u64, i32)>, Stopped> {
        let mut out = Vec::new();
        for mv in Bits(g.playable()) {
            let score = if g.winning_moves() & mv != 0 {
                match depth {
                    Depth::Strong => g.win_now_score(),
                    Depth::Weak => 1,
                }
            } else {
                let mut child = g.clone();
                child.play(mv);
                -self.solve(&child, depth)?
            };
            out.push((mv, score));
        }
        Ok(out)
    }
}
