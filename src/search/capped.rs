//! Iterative deepening by horizon for games whose long lines can be cut off as draws.
//!
//! A game played under a *cap* (games reaching ply `cap` count as draws) agrees with the real
//! game on every line that ends before the cap. So a win proven under a cap is a real win (the
//! winner's strategy ends every line with its win before the cap), and likewise a loss; only a
//! draw under a cap says nothing. Solving under growing caps finds short wins and losses with
//! small trees, and the final, uncapped search is only needed when every capped one said draw.
//! Table entries proven under one cap are not valid under another: the table is cleared between
//! caps.

use crate::game::Game;

/// A game that can be played under a horizon.
pub trait Capped: Game {
    /// The same position where reaching ply `cap` ends the game as a draw.
    fn capped(&self, cap: u32) -> Self;
}

/// The caps to try, in order, before the uncapped search of `g`: `cap` if it lies ahead (0:
/// none), then `ply + step`, `ply + 2*step`, ... (`tries` of them, below `max_ply`; `step` 0:
/// none). A capped search that ends in a draw is a full refutation under that cap and can cost
/// as much as the real search, so only a few short caps pay: they find short wins and losses
/// cheaply. The caller clears its table between caps.
pub fn caps_to_try<G: Game>(g: &G, cap: u32, step: u32, tries: u32) -> Vec<u32> {
    let mut caps = Vec::new();
    if cap > g.ply() + 1 && cap < g.max_ply() {
        caps.push(cap);
    }
    let mut next = g.ply() + step.max(2);
    for _ in 0..if step > 0 { tries } else { 0 } {
        if next >= g.max_ply() {
            break;
        }
        caps.push(next);
        next += step;
    }
    caps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Cube, Rules};

    #[test]
    fn caps_lie_ahead_and_below_the_end() {
        let g = Cube::new(Rules::Qubic);
        assert_eq!(caps_to_try(&g, 0, 4, 2), vec![4, 8]);
        assert_eq!(caps_to_try(&g, 30, 4, 2), vec![30, 4, 8]);
        assert_eq!(caps_to_try(&g, 0, 0, 5), Vec::<u32>::new());
        assert_eq!(caps_to_try(&g, 1, 40, 3), vec![40]);
    }
}
