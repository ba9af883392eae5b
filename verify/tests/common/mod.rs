//! Helpers shared by the Connect Four test files (`mod common;`).
#![allow(dead_code)]

use zugzwang::game::{Bits, Connect4, Game};

/// The deterministic generator of the audits, so failures reproduce from the printed seed.
pub use zugzwang::util::rng::SplitMix64 as Rng;

/// Plays random legal moves until `empties` cells remain, never making a move that wins (so the
/// game is not over); returns the position and its move string, or None if the game ended early
/// or the side to move has no way to continue without winning.
///
/// Not `zugzwang::util::random_play::careful` on purpose: it may hand the opponent a win, so
/// the reference tests also meet the positions careful play never reaches.
pub fn random_position(rng: &mut Rng, w: u32, h: u32, empties: u32) -> Option<(Connect4, String)> {
    let mut pos = Connect4::new(w, h).unwrap();
    let mut moves = String::new();
    while pos.max_ply() - pos.ply() > empties {
        let candidates = pos.playable() & !pos.winning_moves();
        if candidates == 0 {
            return None;
        }
        let list: Vec<u64> = Bits(candidates).collect();
        let mv = list[rng.below(list.len() as u64) as usize];
        moves.push(char::from_digit(pos.move_column(mv) + 1, 10).unwrap());
        pos.play(mv);
    }
    if pos.is_won() {
        return None;
    }
    Some((pos, moves))
}

/// The reference data shipped with the repository (`verify/data/`, provenance in its README).
pub fn data_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// Reads `moves score` lines of a Pons test set.
pub fn read_set(name: &str) -> Vec<(String, i32)> {
    let path = data_dir().join("connect4").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.to_string(), it.next()?.parse().ok()?))
        })
        .collect()
}
