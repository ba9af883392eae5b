//! The best moves once a position's value is known, and the tests of the engine's values and
//! best moves against plain minimax.

use super::ProofSearch;
use crate::game::{Bits, Game, Player};
use crate::search::negamax::Stopped;
use crate::search::order::MoveList;

impl ProofSearch<'_> {
    /// The moves of the side to move that keep the value `value` (as returned by
    /// [`ProofSearch::value`]); with `first_only`, just the first one found. For a loss every
    /// legal move is best.
    ///
    /// The candidates are settled in turns with doubling node budgets, not one after the
    /// other: a move that does not keep the value can be far harder to refute than the right
    /// move is to prove (Qubic after `a11 d44 d11 a41 b11 c11`: seconds for the value, minutes
    /// for the first candidates' refutations), and the winning child is often still proved in
    /// the table from the value's own search.
    pub fn best_moves<G: Game>(
        &mut self,
        g: &G,
        value: i32,
        first_only: bool,
    ) -> Result<Vec<u64>, Stopped> {
        let me = Player::of_ply(g.ply());
        // nothing to search: an immediate win, or a loss (every move is as good)
        let without_search: Option<Vec<u64>> = if value > 0 && g.winning_moves() != 0 {
            Some(Bits(g.winning_moves()).collect())
        } else if value < 0 {
            Some(
                MoveList::new(g, g.playable(), None, false)
                    .as_slice()
                    .to_vec(),
            )
        } else {
            None
        };
        if let Some(mut best) = without_search {
            if first_only {
                best.truncate(1);
            }
            return Ok(best);
        }
        let list = MoveList::new(g, g.non_losing_moves(), None, false);
        let candidates = list.as_slice();
        // a win is kept by a move after which I still win; a draw by one after which the
        // opponent does not win
        let attacker = if value > 0 { me } else { me.other() };
        let keeps_if = value > 0;
        let questions: Vec<(G, Player)> = candidates
            .iter()
            .map(|&mv| {
                let mut child = *g;
                child.play(mv);
                (child, attacker)
            })
            .collect();
        let mut answers = vec![None; questions.len()];
        self.settle_in_turns(&questions, &mut answers, |wins| {
            first_only && wins == keeps_if
        })?;
        Ok(candidates
            .iter()
            .zip(&answers)
            .filter(|(_, answer)| **answer == Some(keeps_if))
            .map(|(&mv, _)| mv)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Connect4, Cube, Rules};
    use crate::search::proof::ProofTable;
    use crate::search::reference::minimax;
    use crate::search::MemoryTable;
    use crate::solver::games::cube::{QUBIC_ORDER_BIAS, QUBIC_ZONE_GUESS};
    use crate::util::random_play::careful_positions;

    /// df-pn's value and best moves against plain minimax on `count` random positions.
    fn agrees<G: Game>(
        start: G,
        empty: u32,
        count: usize,
        seed: u64,
        table_bytes: usize,
        endgame: Option<u32>,
    ) {
        let endgame_table = MemoryTable::with_bytes(1 << 20);
        let mut seen = [0usize; 3];
        let table = ProofTable::new(table_bytes);
        for (i, g) in careful_positions(start, empty, count, seed).enumerate() {
            let checked = i + 1;
            let exact = minimax(&g).signum();
            // every position gets another order bias (1..=17), every other one a second thread,
            // every third one deferred threat zones and every other one replays of siblings'
            // proofs: none may ever change a value
            let bias = 1 + (checked as u64 * 5) % 17;
            let threads = 1 + checked % 2;
            let zone_guess = (checked % 3 == 0).then_some(1 + checked as u32 % 20);
            let replays = if checked % 4 < 2 {
                0
            } else {
                checked as u32 % 32
            };
            let mut search = ProofSearch::new(&table)
                .with_order_bias(bias)
                .with_threads(threads)
                .with_zone_guess(zone_guess)
                .with_replays(replays);
            if let Some(cells) = endgame {
                search = search.with_endgame(&endgame_table, cells);
            }
            let v = search.value(&g).unwrap();
            assert_eq!(v, exact, "value differs from minimax");
            seen[(v + 1) as usize] += 1;
            let best = search.best_moves(&g, v, false).unwrap();
            for mv in Bits(g.playable()) {
                let mut child = g;
                child.play(mv);
                let child_value = if child.last_mover_won() {
                    1
                } else if child.ply() == child.max_ply() {
                    0
                } else {
                    -minimax(&child).signum()
                };
                assert_eq!(
                    best.contains(&mv),
                    child_value == v,
                    "best move set differs from minimax"
                );
            }
        }
        assert!(
            seen.iter().filter(|&&n| n > 0).count() >= 2,
            "too few kinds of values: {seen:?}"
        );
    }

    #[test]
    fn agrees_with_minimax_connect4_small_boards() {
        agrees(Connect4::new(4, 4).unwrap(), 12, 300, 11, 1 << 16, None);
        agrees(Connect4::new(5, 4).unwrap(), 13, 200, 12, 1 << 20, None);
    }

    #[test]
    fn agrees_with_minimax_cube_games() {
        for (rules, seed) in Rules::ALL.into_iter().zip(21..) {
            agrees(Cube::new(rules), 9, 150, seed, 1 << 20, None);
        }
    }

    #[test]
    fn alpha_beta_endgame_leaves_keep_values_exact() {
        agrees(Connect4::new(5, 4).unwrap(), 13, 150, 14, 1 << 20, Some(7));
        for (rules, seed) in [
            (Rules::Sogo, 24),
            (Rules::SogoPoison, 25),
            (Rules::Qubic, 26),
        ] {
            agrees(Cube::new(rules), 9, 100, seed, 1 << 20, Some(5));
        }
    }

    /// Two threads split a real search (some defences taken because the other thread was in
    /// the best one) and agree with one thread; each one's winning move is confirmed by a
    /// fresh one-thread search (the first move found may differ with the threads' timing).
    #[test]
    fn two_threads_split_the_work_and_agree_with_one() {
        let g = Cube::parse(Rules::Qubic, "a11 b22 a14 d41").unwrap();
        fn searcher(table: &ProofTable) -> ProofSearch<'_> {
            ProofSearch::new(table)
                .with_order_bias(QUBIC_ORDER_BIAS)
                .with_zone_guess(Some(QUBIC_ZONE_GUESS))
        }
        for threads in [1, 2] {
            let table = ProofTable::new(1 << 26);
            let mut search = searcher(&table).with_threads(threads);
            assert_eq!(
                search.value(&g).unwrap(),
                1,
                "White wins after a11 b22 a14 d41"
            );
            let best = search.best_moves(&g, 1, true).unwrap();
            if threads == 1 {
                assert_eq!(search.split_choices, 0);
            } else {
                assert!(search.split_choices > 0, "the threads never split");
            }
            let mut after = g;
            after.play(best[0]);
            let table = ProofTable::new(1 << 26);
            assert!(searcher(&table).side_wins(&after, Player::First).unwrap());
        }
    }

    /// A table that holds the proof of a win through a move late in the move order names that
    /// move without an expansion: the candidates before it, open in the table, get no turn
    /// (a re-run on a committed proof or a finished solve is instant). Checked on Sogo
    /// positions whose last winning candidate is not the first candidate, against minimax.
    #[test]
    fn a_proved_late_move_is_named_without_search() {
        let mut tried = 0;
        for g in careful_positions(Cube::new(Rules::Sogo), 11, 300, 31) {
            if g.winning_moves() != 0 || minimax(&g) <= 0 {
                continue;
            }
            let candidates = MoveList::new(&g, g.non_losing_moves(), None, false);
            let child = |mv: u64| {
                let mut c = g;
                c.play(mv);
                c
            };
            let winners: Vec<u64> = (candidates.as_slice().iter().copied())
                .filter(|&mv| -minimax(&child(mv)) > 0)
                .collect();
            let last = *winners.last().unwrap();
            if last == candidates.as_slice()[0] {
                continue;
            }
            tried += 1;
            let table = ProofTable::new(1 << 22);
            let mut search = ProofSearch::new(&table);
            let me = Player::of_ply(g.ply());
            assert!(search.side_wins(&child(last), me).unwrap());
            let before = search.nodes;
            let best = search.best_moves(&g, 1, true).unwrap();
            assert_eq!(search.nodes, before, "searched for a move the table proves");
            assert!(winners.contains(&best[0]), "not a winning move");
        }
        assert!(tried >= 10, "only {tried} positions tried");
    }

    #[test]
    fn a_tiny_table_still_gives_exact_values() {
        // constant eviction must cost time, never correctness
        agrees(Connect4::new(5, 4).unwrap(), 12, 60, 13, 24 * 4, None);
    }
}
