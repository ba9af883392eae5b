//! The Connect Four board-size table: what the empty board of every recorded size is worth, laid
//! out as the published tables (Tromp's, Steininger's) lay it out — widths across, heights down,
//! who wins and on which move the game ends — so the two can be read side by side.

use super::{GameName, Record, Variant};
use crate::game::ending_ply;
use crate::solver::spec::parse_size;
use crate::solver::Mode;
use std::collections::BTreeMap;

/// One board's result: the outcome from the first player's side and, from a strong record, the
/// move on which the game ends; the strong solve's wall seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardResult {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The first player's score (exact from a strong record, its sign from a weak one).
    pub score: i32,
    /// The move (1-based ply) on which the game ends under perfect play; known from strong records.
    pub last_move: Option<u32>,
    /// Wall seconds of the record that gave the result (the strong one where there is one).
    pub wall_seconds: f64,
}

impl BoardResult {
    /// `1st` (the first player wins), `2nd` or `draw`, as the published tables say it.
    pub fn outcome(&self) -> &'static str {
        match self.score.signum() {
            1 => "1st",
            -1 => "2nd",
            _ => "draw",
        }
    }
}

/// The result of every board size with a record of its empty board, strong records preferred
/// (they give the ending move), the latest of each kind. Records of other positions and games
/// are ignored.
pub fn board_results(records: &[Record]) -> Vec<BoardResult> {
    let mut best: BTreeMap<(u32, u32), &Record> = BTreeMap::new();
    for r in records {
        if r.game != GameName::Connect4 || r.rules != Variant::Standard || !r.moves.is_empty() {
            continue;
        }
        let Ok((width, height)) = parse_size(&r.size) else {
            continue;
        };
        let strong = r.mode == Some(Mode::Strong);
        let replace = match best.get(&(width, height)) {
            None => true,
            Some(old) => {
                let old_strong = old.mode == Some(Mode::Strong);
                strong && !old_strong || strong == old_strong && r.finished > old.finished
            }
        };
        if replace {
            best.insert((width, height), r);
        }
    }
    best.into_iter()
        .map(|((width, height), r)| BoardResult {
            width,
            height,
            score: r.score,
            last_move: (r.mode == Some(Mode::Strong))
                .then(|| ending_ply(width * height, 0, r.score)),
            wall_seconds: r.wall_seconds,
        })
        .collect()
}

/// The markdown grid of [`board_results`]: one row per height, one column per width, each cell
/// `1st, 41 (3.2 s)` — outcome, ending move, seconds of the solve.
pub fn board_size_table(records: &[Record]) -> String {
    let results = board_results(records);
    if results.is_empty() {
        return String::from("(no records of empty Connect Four boards)\n");
    }
    let widths: Vec<u32> = sorted_unique(results.iter().map(|r| r.width));
    let heights: Vec<u32> = sorted_unique(results.iter().map(|r| r.height));
    let mut out = String::from("| height \\ width |");
    for w in &widths {
        out.push_str(&format!(" {w} |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(widths.len()));
    out.push('\n');
    for h in &heights {
        out.push_str(&format!("| **{h}** |"));
        for w in &widths {
            let cell = results
                .iter()
                .find(|r| r.width == *w && r.height == *h)
                .map_or(String::new(), |r| match r.last_move {
                    Some(m) => format!("{}, {m} ({:.1} s)", r.outcome(), r.wall_seconds),
                    None => format!("{} ({:.1} s, weak)", r.outcome(), r.wall_seconds),
                });
            out.push_str(&format!(" {cell} |"));
        }
        out.push('\n');
    }
    out
}

fn sorted_unique(values: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut v: Vec<u32> = values.collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(size: &str, mode: Mode, score: i32, finished: &str) -> Record {
        Record {
            game: GameName::Connect4,
            size: size.into(),
            mode: Some(mode),
            value: crate::solver::value_word(score).into(),
            score,
            wall_seconds: 2.0,
            finished: finished.into(),
            ..Record::default()
        }
    }

    #[test]
    fn strong_records_give_the_ending_move_and_win_over_weak_ones() {
        let records = vec![
            record("7x6", Mode::Weak, 1, "2026-11-25T10:00:00Z"),
            record("7x6", Mode::Strong, 1, "2026-11-24T10:00:00Z"),
            record("6x6", Mode::Strong, -1, "2026-11-25T10:00:00Z"),
            record("5x4", Mode::Weak, 0, "2026-11-25T10:00:00Z"),
            Record {
                moves: "4".into(),
                ..record("4x4", Mode::Strong, 0, "2026-11-25T10:00:00Z")
            },
        ];
        let results = board_results(&records);
        let find = |w, h| results.iter().find(|r| r.width == w && r.height == h);
        assert_eq!(
            find(7, 6).map(|r| (r.outcome(), r.last_move)),
            Some(("1st", Some(41)))
        );
        assert_eq!(
            find(6, 6).map(|r| (r.outcome(), r.last_move)),
            Some(("2nd", Some(36)))
        );
        assert_eq!(
            find(5, 4).map(|r| (r.outcome(), r.last_move)),
            Some(("draw", None))
        );
        assert!(
            find(4, 4).is_none(),
            "a record of another position is not the board's"
        );
        let table = board_size_table(&records);
        assert!(table.contains("| **6** |"), "{table}");
        assert!(table.contains("1st, 41 (2.0 s)"), "{table}");
        assert!(table.contains("draw (2.0 s, weak)"), "{table}");
    }
}
