//! Property tests: mirror symmetry of analyses, and the negamax relation along best lines.

mod common;

use proptest::prelude::*;
use zugzwang::game::{Bits, Connect4, Game};
use zugzwang::search::{Depth, MemoryTable, Searcher, Table};

/// Replays `choices` as indices into the legal non-winning moves, stopping at `plies` moves.
fn position_from(w: u32, h: u32, choices: &[u8], plies: usize) -> Option<(Connect4, Vec<u32>)> {
    let mut pos = Connect4::new(w, h).unwrap();
    let mut cols = Vec::new();
    for &c in choices.iter().take(plies) {
        let candidates: Vec<u64> = Bits(pos.playable() & !pos.winning_moves()).collect();
        if candidates.is_empty() {
            return None;
        }
        let mv = candidates[c as usize % candidates.len()];
        cols.push(pos.move_column(mv) + 1);
        pos.play(mv);
    }
    Some((pos, cols))
}

fn analysis(pos: &Connect4, table: &MemoryTable) -> Vec<(u32, i32)> {
    table.clear();
    let mut s = Searcher::new(table);
    s.analyze(pos, Depth::Strong)
        .unwrap()
        .into_iter()
        .map(|(mv, v)| (pos.move_column(mv) + 1, v))
        .collect()
}

fn board_size() -> impl Strategy<Value = (u32, u32, usize)> {
    // (width, height, minimum plies so that each case solves in milliseconds)
    prop_oneof![
        Just((7, 6, 24)),
        Just((5, 4, 4)),
        Just((6, 5, 14)),
        Just((4, 4, 0))
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn mirrored_positions_have_mirrored_analyses(
        (w, h, min_plies) in board_size(),
        extra in 0usize..8,
        choices in proptest::collection::vec(any::<u8>(), 48),
    ) {
        let table = MemoryTable::with_bytes(16 << 20);
        let Some((pos, cols)) = position_from(w, h, &choices, min_plies + extra) else { return Ok(()) };
        let mirrored_cols: Vec<u32> = cols.iter().map(|c| w + 1 - c).collect();
        let mut mirrored = Connect4::new(w, h).unwrap();
        mirrored.play_columns(&mirrored_cols).unwrap();
        prop_assert_eq!(mirrored, pos.mirrored());
        let a = analysis(&pos, &table);
        let mut b: Vec<(u32, i32)> = analysis(&mirrored, &table).into_iter().map(|(c, v)| (w + 1 - c, v)).collect();
        b.sort();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn best_line_scores_alternate(
        (w, h, min_plies) in board_size(),
        choices in proptest::collection::vec(any::<u8>(), 48),
    ) {
        let table = MemoryTable::with_bytes(16 << 20);
        let Some((mut pos, _)) = position_from(w, h, &choices, min_plies) else { return Ok(()) };
        let mut s = Searcher::new(&table);
        let mut score = s.solve(&pos, Depth::Strong).unwrap();
        loop {
            // a best move: one that achieves the score
            let best = Bits(pos.playable()).find(|&mv| s.achieves(&pos, mv, score).unwrap());
            let Some(mv) = best else { prop_assert!(false, "no move achieves the proven score"); unreachable!() };
            if pos.winning_moves() & mv != 0 {
                prop_assert_eq!(score, pos.win_now_score());
                break;
            }
            pos.play(mv);
            if pos.ply() == pos.max_ply() {
                prop_assert_eq!(score, 0);
                break;
            }
            let child = s.solve(&pos, Depth::Strong).unwrap();
            prop_assert_eq!(child, -score, "child of a best move must score the negation");
            score = child;
        }
    }

    #[test]
    fn weak_is_the_sign_of_strong(
        (w, h, min_plies) in board_size(),
        extra in 0usize..6,
        choices in proptest::collection::vec(any::<u8>(), 48),
    ) {
        let table = MemoryTable::with_bytes(16 << 20);
        let Some((pos, _)) = position_from(w, h, &choices, min_plies + extra) else { return Ok(()) };
        let strong = Searcher::new(&table).solve(&pos, Depth::Strong).unwrap();
        table.clear();
        let weak = Searcher::new(&table).solve(&pos, Depth::Weak).unwrap();
        prop_assert_eq!(weak, strong.signum());
    }
}
