//! Iterative deepening by horizon for games whose long lines can be cut off as draws.
//!
//! A game played under a *cap* (games reaching ply `cap` count as draws) agrees with the real
//! game on every line that ends before the cap. So a win proven under a cap is a real win (the
//! winner's strategy ends every line with its win before the cap), and likewise a loss; only a
//! draw under a cap says nothing. Solving under growing caps finds short wins and losses with
//! small trees, and the final, uncapped search is only needed when every capped one said draw.
//! Table entries proven under one cap are not valid under another: the table is cleared between
//! caps.

use super::negamax::{Depth, Searcher, Stopped};
use super::transposition::Table;
use crate::game::Game;

/// A game that can be played under a horizon.
pub trait Capped: Game {
    /// The same position where reaching ply `cap` ends the game as a draw.
    fn capped(&self, cap: u32) -> Self;
}

/// Win/draw/loss of `g`, trying the caps `ply + step`, `ply + 2*step`, ... (at most `tries` of
/// them, below `max_ply`) first. Returns the score and the cap under which it was proven
/// (`None`: no cap). A capped search that ends in a draw is a full refutation under that cap
/// and can cost as much as the real search, so only a few short caps pay: they find short wins
/// and losses cheaply.
pub fn solve_deepening<G: Capped, T: Table + ?Sized>(
    searcher: &mut Searcher<'_, T>,
    g: &G,
    step: u32,
    tries: u32,
) -> Result<(i32, Option<u32>), Stopped> {
    let mut cap = g.ply() + step.max(2);
    let mut left = tries;
    while step > 0 && left > 0 && cap < g.max_ply() {
        left -= 1;
        let capped = g.capped(cap);
        let v = searcher.solve(&capped, Depth::Weak)?;
        searcher.table().clear();
        if v != 0 {
            return Ok((v, Some(cap)));
        }
        cap += step;
    }
    Ok((searcher.solve(g, Depth::Weak)?, None))
}
