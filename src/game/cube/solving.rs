//! The solver on the 4x4x4 games against plain alpha-beta over the win test alone.

use super::*;
use crate::game::{Bits, Game};
use crate::search::{Depth, MemoryTable, Searcher, Table};
use crate::util::random_play::careful_random;

/// Win/draw/loss by plain alpha-beta over `last_mover_won` only (no table, symmetry,
/// ordering or move filters): cutoffs only skip moves that cannot change the value.
fn wdl(g: &Cube, mut alpha: i32, beta: i32) -> i32 {
    let mut children = [*g; 64];
    let mut n = 0;
    for mv in Bits(g.playable()) {
        let mut c = *g;
        c.play(mv);
        if c.last_mover_won() {
            return 1;
        }
        children[n] = c;
        n += 1;
    }
    // fail-soft alpha-beta; from the window (-1, 1) the result is exact
    let mut best = -1;
    for c in &children[..n] {
        let v = if c.ply() >= 64 {
            0
        } else {
            -wdl(c, -beta, -alpha)
        };
        best = best.max(v);
        alpha = alpha.max(best);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn agree(rules: Rules, count: usize, empties: std::ops::RangeInclusive<u32>, seed: u64) {
    let mut s = seed;
    let table = MemoryTable::with_bytes(1 << 22);
    let mut tally = [0usize; 3];
    let mut times = [0f64; 2];
    let count = std::env::var("CUBE_AGREE_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(count);
    let span = empties.end() - empties.start() + 1;
    for i in 0..count {
        let e = empties.start() + (i as u32 % span);
        let g = careful_random(Cube::new(rules), e, &mut s);
        let t0 = std::time::Instant::now();
        let expect = wdl(&g, -1, 1);
        times[0] += t0.elapsed().as_secs_f64();
        table.clear();
        let t0 = std::time::Instant::now();
        let mut searcher = Searcher::new(&table);
        let got = searcher.solve(&g, Depth::Weak).unwrap();
        times[1] += t0.elapsed().as_secs_f64();
        assert_eq!(got, expect, "{rules:?} {}", g.to_hex());
        tally[(got + 1) as usize] += 1;
    }
    eprintln!(
        "{rules:?}: {count} positions, loss/draw/win {tally:?}, minimax {:.2} s, solver {:.2} s",
        times[0], times[1]
    );
    assert!(tally.iter().filter(|&&n| n > 0).count() >= 2, "{tally:?}");
}

#[test]
fn solver_agrees_with_plain_minimax_sogo() {
    agree(Rules::Sogo, 500, 14..=18, 0x5151_0001);
}

#[test]
fn solver_agrees_with_plain_minimax_sogo_poison() {
    agree(Rules::SogoPoison, 500, 14..=18, 0x5151_0002);
}

#[test]
fn solver_agrees_with_plain_minimax_qubic() {
    agree(Rules::Qubic, 500, 12..=14, 0x5151_0003);
}
