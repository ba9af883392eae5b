//! John Tromp's UCI "Connect-4" set: all 67,557 8-ply positions with the first player's
//! game-theoretic outcome. Too slow for CI, and the file (5.7 MB) is not in the repository:
//! download `connect-4.data` from the UCI Machine Learning Repository (dataset 26, "Connect-4",
//! <https://archive.ics.uci.edu/dataset/26/connect+4>, CC BY 4.0; the archive holds
//! `connect-4.data.Z`, uncompress it), then run
//! `ZZ_UCI_DATA=path/to/connect-4.data cargo test --release -p zugzwang-verify --test connect4_uci -- --ignored --nocapture`.
//! Without `ZZ_UCI_DATA` the test says so and passes without checking anything.
//! `ZZ_UCI_STEP=k` checks every k-th line only (a sample), for a run that must fit a time box.

use zugzwang::game::{Connect4, Game};
use zugzwang::search::{Depth, MemoryTable, Searcher};

/// Rebuilds a position from its 42 cells (column by column, bottom to top; `x` moves first) by
/// finding an interleaving of the stones that gravity allows (depth-first, tiny).
fn position_from_cells(cells: &[&str]) -> Option<Connect4> {
    fn place(
        pos: Connect4,
        target: &[[u8; 6]; 7],
        heights: [usize; 7],
        left: usize,
    ) -> Option<Connect4> {
        if left == 0 {
            return Some(pos);
        }
        let me = if pos.ply().is_multiple_of(2) {
            b'x'
        } else {
            b'o'
        };
        for c in 0..7 {
            let h = heights[c];
            if h < 6 && target[c][h] == me {
                let mut next = pos;
                next.try_play_column(c as u32 + 1, 0).ok()?;
                let mut hs = heights;
                hs[c] += 1;
                if let Some(done) = place(next, target, hs, left - 1) {
                    return Some(done);
                }
            }
        }
        None
    }
    let mut target = [[b'b'; 6]; 7];
    let mut stones = 0;
    for (i, cell) in cells.iter().enumerate() {
        let v = cell.as_bytes()[0];
        target[i / 6][i % 6] = v;
        if v != b'b' {
            stones += 1;
        }
    }
    place(Connect4::standard(), &target, [0; 7], stones)
}

#[test]
#[ignore]
fn uci_connect4_outcomes() {
    let Some(path) = std::env::var_os("ZZ_UCI_DATA") else {
        eprintln!(
            "SKIPPED: set ZZ_UCI_DATA to the UCI connect-4.data file (see this test's module doc)"
        );
        return;
    };
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("ZZ_UCI_DATA={}: {e}", std::path::Path::new(&path).display()));
    let table = MemoryTable::with_bytes(4 << 30);
    let mut s = Searcher::new(&table);
    let (mut n, mut wrong) = (0usize, 0usize);
    let start = std::time::Instant::now();
    let step: usize = std::env::var("ZZ_UCI_STEP")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    for line in text.lines().step_by(step) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 43, "bad line {line}");
        let pos = position_from_cells(&fields[..42]).expect("a legal interleaving exists");
        assert_eq!(pos.ply(), 8);
        // the table is shared: entries are proofs, valid across positions
        let v = s.solve(&pos, Depth::Weak).unwrap();
        let got = match v {
            1 => "win",
            0 => "draw",
            _ => "loss",
        };
        if got != fields[42] {
            wrong += 1;
            eprintln!("MISMATCH {line}: solver says {got}");
        }
        n += 1;
        if n % 1000 == 0 {
            eprintln!(
                "{n} positions, {wrong} mismatches, {:.0} s, {} nodes",
                start.elapsed().as_secs_f64(),
                s.nodes
            );
        }
    }
    eprintln!(
        "UCI set: {n} positions, {wrong} mismatches, {:.0} s, {} nodes",
        start.elapsed().as_secs_f64(),
        s.nodes
    );
    assert_eq!(n, 67_557usize.div_ceil(step));
    assert_eq!(wrong, 0);
}
