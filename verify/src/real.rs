//! The real oracle: Connect Four positions reached by careful random play, solved exactly.
//!
//! A *careful* random game never hands the opponent an immediate win (it picks uniformly among
//! `non_losing_moves`, so it blocks when it must and never plays under an enemy threat) and
//! therefore never ends before the board is nearly full; every position it passes through that
//! satisfies (V) and has one to four threats is a candidate sample. The solver is zugzwang's own
//! (`Searcher` + `MemoryTable`, weak solve): the real oracle checks the *lemmas*, while the
//! solver itself is checked elsewhere against plain minimax. Under (I) the real game *is* the
//! abstract game, so on (I)-positions the two oracles must agree exactly — a cross-check of both.

use crate::cases::Rng;
use crate::threats::{self, Colour, Threat};
use zugzwang::game::{Connect4, Game};
use zugzwang::solver::{BestMoves, Control, GameSpec, Mode, Question, Solver, SolverConfig};
use zugzwang::util::random_play::careful_move;

/// A candidate position with its move string (1-based columns) and its threats.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The position.
    pub pos: Connect4,
    /// The moves that led to it, as 1-based column digits.
    pub moves: String,
    /// All threats (none playable: (V) holds).
    pub threats: Vec<Threat>,
}

/// Plays one careful random game and returns every position from ply `min_ply` on that
/// satisfies (V) and has between 1 and `max_threats` threats.
pub fn careful_game(rng: &mut Rng, min_ply: u32, max_threats: usize) -> Vec<Candidate> {
    let mut pos = Connect4::standard();
    let mut moves = String::new();
    let mut out = Vec::new();
    while !pos.is_over() && pos.winning_moves() == 0 {
        let Some(mv) = careful_move(&pos, |n| rng.below(n)) else {
            break;
        };
        moves.push(char::from(b'1' + pos.move_column(mv) as u8));
        pos.play(mv);
        if pos.ply() < min_ply || !threats::satisfies_v(&pos) {
            continue;
        }
        let t: Vec<Threat> = threats::threats(&pos).into_iter().map(|(t, _)| t).collect();
        if !t.is_empty() && t.len() <= max_threats {
            out.push(Candidate {
                pos,
                moves: moves.clone(),
                threats: t,
            });
        }
    }
    out
}

/// The physical pattern class of a threat set, used to spread samples: colours, row parity
/// (counted from 1, the common Connect Four convention: "odd" = rows 1, 3, 5 from the bottom),
/// same or different column, order and adjacency in a column. Three or more threats form one
/// class per count.
pub fn class_of(t: &[Threat]) -> String {
    let desc = |t: &Threat| {
        format!(
            "{} {}",
            t.colour.stone_letter(),
            if (t.row + 1) % 2 == 1 { "odd" } else { "even" }
        )
    };
    match t.len() {
        1 => format!("1: {}", desc(&t[0])),
        2 => {
            let (a, b) = if (t[0].row, t[0].colour) <= (t[1].row, t[1].colour) {
                (&t[0], &t[1])
            } else {
                (&t[1], &t[0])
            };
            if a.col == b.col && a.row == b.row {
                format!(
                    "2: one cell, both colours, {}",
                    desc(a).split(' ').nth(1).unwrap_or("")
                )
            } else if a.col == b.col {
                let adj = if b.row == a.row + 1 { ", adjacent" } else { "" };
                format!("2: one column, {} below {}{}", desc(a), desc(b), adj)
            } else {
                let (x, y) = (desc(a), desc(b));
                let (x, y) = if x <= y { (x, y) } else { (y, x) };
                format!("2: two columns, {x} + {y}")
            }
        }
        n => format!("{n} threats"),
    }
}

/// The real oracle: zugzwang's solver, asked through its API as every front end asks it, with
/// one table kept for all positions (keys are exact, so entries stay valid from one position to
/// the next). One thread: the audit's positions are small and many.
pub struct RealOracle {
    solver: Solver,
    /// Nodes searched so far.
    pub nodes: u64,
}

impl RealOracle {
    /// An oracle with a table of about `bytes`.
    pub fn new(bytes: usize) -> RealOracle {
        let game = GameSpec::CONNECT4;
        let cfg = SolverConfig {
            mode: Mode::Weak,
            best: BestMoves::None,
            threads: 1,
            mem_bytes: bytes as u64,
            ..SolverConfig::for_game(game)
        };
        RealOracle {
            solver: Solver::new(game, cfg).expect("a runnable configuration"),
            nodes: 0,
        }
    }

    /// The exact value of `pos` from White's (the first player's) view: 1, 0, -1.
    pub fn white_value(&mut self, pos: &Connect4) -> i8 {
        let s = self
            .solver
            .solve_position(pos, Question::Value, None, &Control::new())
            .unwrap_or_else(|e| panic!("the oracle cannot solve {}: {e}", pos.to_text()));
        self.nodes += s.nodes;
        let mover = Colour::to_move_with_empty(pos.max_ply() - pos.ply());
        s.score as i8 * mover.sign()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn careful_games_yield_v_positions() {
        let mut rng = Rng(7);
        let mut n = 0;
        for _ in 0..50 {
            for c in careful_game(&mut rng, 20, 4) {
                assert!(threats::satisfies_v(&c.pos));
                assert_eq!(Connect4::from_moves(7, 6, &c.moves).unwrap(), c.pos);
                n += 1;
            }
        }
        assert!(n > 0);
    }

    #[test]
    fn classes_name_the_pattern() {
        let t = [
            Threat::new(2, 3, Colour::Black),
            Threat::new(2, 2, Colour::White),
        ];
        assert_eq!(class_of(&t), "2: one column, W odd below B even, adjacent");
    }
}
