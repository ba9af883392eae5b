//! The direct check of Connect Four tables: exact keys decode back to positions, which an
//! independent search solves.

use super::super::entry::Knowledge;
use crate::game::{Connect4, Game, Key};
use crate::search::{Depth, MemoryTable, Options, Table, Unstoppable};
use std::collections::HashMap;

/// The Connect Four position whose raw key (`current + mask + bottom`) is `key`, reached by some
/// legal move order; `None` if `key` is not such a code, if the position is already won, or if
/// the board is too large for exact keys (`width * (height + 1) > 62`).
pub fn connect4_from_key(width: u32, height: u32, key: Key) -> Option<Connect4> {
    if width * (height + 1) > 62 || Connect4::new(width, height).is_err() {
        return None;
    }
    // an exact key is the board's column code: decoded from its raw word
    let key = key.get();
    let h1 = height + 1;
    let mut heights = Vec::with_capacity(width as usize);
    let mut current = Vec::with_capacity(width as usize); // per column: side-to-move stones
    for c in 0..width {
        let col = (key >> (c * h1)) & ((1u64 << h1) - 1);
        if col == 0 {
            return None; // no marker bit
        }
        let top = 63 - col.leading_zeros();
        if top > height {
            return None;
        }
        heights.push(top);
        current.push(col ^ (1 << top));
    }
    if key >> (width * h1) != 0 {
        return None;
    }
    let ply: u32 = heights.iter().sum();
    // a stone at (c, r) belongs to the first player iff (it is the side to move's) == (ply even)
    let first = |c: usize, r: u32| (current[c] >> r & 1 == 1) == (ply % 2 == 0);
    // find a move order: at step t the first player moves iff t is even (memoised dead ends)
    let mut order = Vec::with_capacity(ply as usize);
    let mut level = vec![0u32; width as usize];
    let mut dead: HashMap<Vec<u32>, ()> = HashMap::new();
    fn dfs(
        level: &mut Vec<u32>,
        heights: &[u32],
        order: &mut Vec<u32>,
        dead: &mut HashMap<Vec<u32>, ()>,
        first: &dyn Fn(usize, u32) -> bool,
        ply: u32,
    ) -> bool {
        let t = order.len() as u32;
        if t == ply {
            return true;
        }
        if dead.contains_key(level) {
            return false;
        }
        for c in 0..heights.len() {
            if level[c] < heights[c] && first(c, level[c]) == (t % 2 == 0) {
                level[c] += 1;
                order.push(c as u32 + 1);
                if dfs(level, heights, order, dead, first, ply) {
                    return true;
                }
                order.pop();
                level[c] -= 1;
            }
        }
        dead.insert(level.clone(), ());
        false
    }
    if !dfs(&mut level, &heights, &mut order, &mut dead, &first, ply) {
        return None;
    }
    let mut pos = Connect4::new(width, height).ok()?;
    pos.play_columns(&order).ok()?;
    if pos.is_won() || pos.raw_key() != key {
        return None;
    }
    Some(pos)
}

/// Checks one Connect Four entry directly: decodes the key, solves the position (win/draw/loss)
/// with an independent search, and compares. `Err` explains a failure in one line.
pub fn check_connect4_entry(
    width: u32,
    height: u32,
    key: Key,
    k: Knowledge,
    table: &MemoryTable,
) -> Result<(), String> {
    let pos = connect4_from_key(width, height, key).ok_or_else(|| {
        format!("key {key:#x} is not a reachable, unfinished {width}x{height} position")
    })?;
    if pos.key() != key {
        return Err(format!(
            "key {key:#x} is not the position's canonical (mirror-minimal) key"
        ));
    }
    let sign = if pos.winning_moves() != 0 {
        1
    } else if pos.ply() >= pos.max_ply() {
        0
    } else {
        table.clear();
        Unstoppable::new(table, Options::default())
            .solve(&pos, Depth::Weak)
            .signum()
    };
    let (lo, hi) = k.sign_bounds();
    if (lo as i32) <= sign && sign <= hi as i32 {
        Ok(())
    } else {
        let stored: Vec<&str> = k.values().map(|v| v.name()).collect();
        Err(format!(
            "key {key:#x} ({}): stored {}, but the position's value is {}",
            pos.to_text(),
            stored.join("+"),
            ["loss", "draw", "win"][(sign + 1) as usize]
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Bits;

    #[test]
    fn decodes_every_position_of_a_few_random_games() {
        let mut seed = 12345u64;
        for _ in 0..200 {
            let mut pos = Connect4::new(7, 6).unwrap();
            loop {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let moves: Vec<u64> = Bits(pos.playable()).collect();
                if moves.is_empty() || pos.winning_moves() != 0 {
                    break;
                }
                let mv = moves[(seed >> 33) as usize % moves.len()];
                pos.play(mv);
                let back = connect4_from_key(7, 6, Key::new(pos.raw_key())).expect("decodes");
                assert_eq!(back.raw_key(), pos.raw_key());
                assert_eq!(back.ply(), pos.ply());
            }
        }
        assert!(connect4_from_key(7, 6, Key::new(0)).is_none());
    }
}
