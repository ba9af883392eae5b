//! Connect Four on other board sizes against the published tables
//! (`verify/data/connect4/board-sizes.txt`: Tromp's outcomes, Steininger's ending moves): the small
//! boards solved here, and every board with width + height <= 13 as recorded in
//! `solve-runs/connect4-sizes/` (solved there by `zugzwang solve connect4 --size WxH --record`).

mod common;

use common::data_dir;
use std::collections::BTreeMap;
use std::path::Path;
use zugzwang::game::ending_ply;
use zugzwang::solver::spec::parse_size;
use zugzwang::solver::{solve, BestMoves, Control, GameSpec, Mode, Request};

/// The published result of one board: `first`, `second` or `draw`, and the ending move if given.
type Published = BTreeMap<(u32, u32), (String, Option<u32>)>;

fn published() -> Published {
    let text = std::fs::read_to_string(data_dir().join("connect4/board-sizes.txt")).unwrap();
    let mut table = Published::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 4, "bad line {line:?}");
        let size = (f[0].parse().unwrap(), f[1].parse().unwrap());
        table.insert(size, (f[2].to_string(), f[3].parse().ok()));
    }
    table
}

/// The published outcome's name for a score of the first player.
fn outcome(score: i32) -> &'static str {
    match score.signum() {
        1 => "first",
        -1 => "second",
        _ => "draw",
    }
}

/// Sizes with width, height >= 4 and width + height <= 13 whose bitboard fits: the set.
fn small_sizes() -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for w in 4..=9 {
        for h in 4..=9 {
            if w + h <= 13 && w * (h + 1) <= 64 {
                v.push((w, h));
            }
        }
    }
    v
}

#[test]
fn the_published_table_covers_every_small_size_with_an_ending_move() {
    let table = published();
    assert!(table.len() >= 50, "{} sizes", table.len());
    for size in small_sizes() {
        let (_, last) = table
            .get(&size)
            .unwrap_or_else(|| panic!("{size:?} missing"));
        assert!(last.is_some(), "{size:?} has no ending move");
    }
}

/// Every published board of at most 32 cells, solved strongly from the empty board: the same
/// outcome and the same ending move.
#[test]
fn small_boards_solve_to_the_published_outcome_and_ending_move() {
    let table = published();
    let mut solved = 0;
    for (&(width, height), (want, last)) in table.iter().filter(|(s, _)| s.0 * s.1 <= 32) {
        let mut request = Request::new(GameSpec::Connect4 { width, height }, "");
        request.config.mode = Mode::Strong;
        request.config.best = BestMoves::None;
        request.config.mem_bytes = 64 << 20;
        let solution = solve(&request, &Control::new()).unwrap();
        let size = format!("{width}x{height}");
        assert_eq!(outcome(solution.score), want, "{size}");
        assert_eq!(
            Some(ending_ply(width * height, 0, solution.score)),
            *last,
            "{size}"
        );
        solved += 1;
    }
    assert_eq!(solved, 12, "boards of at most 32 cells in the table");
}

/// The records of `solve-runs/connect4-sizes/`: one per size of the set at least, strong
/// for every one, and each agrees with the published outcome and ending move.
#[test]
fn recorded_board_sizes_agree_with_the_published_table() {
    let table = published();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../solve-runs/connect4-sizes");
    let records = zugzwang::record::load_dir(&dir).unwrap();
    let results = zugzwang::record::board_results(&records);
    for size in small_sizes() {
        let r = results
            .iter()
            .find(|r| (r.width, r.height) == size)
            .unwrap_or_else(|| panic!("no record of the empty {size:?} board"));
        let (want, last) = &table[&size];
        assert_eq!(outcome(r.score), want, "{size:?}");
        assert_eq!(r.last_move, *last, "{size:?}: strong record's ending move");
    }
    for r in records.iter().filter(|r| r.moves.is_empty()) {
        let (want, _) = &table[&parse_size(&r.size).unwrap()];
        assert_eq!(outcome(r.score), want, "{} {:?}", r.size, r.mode);
    }
}

/// The README's board-size grid is the one `zugzwang runs --sizes` prints from these records.
#[test]
fn the_readme_grid_is_printed_from_the_records() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let begin = "<!-- sizes:begin -->\n";
    let start = readme.find(begin).expect("README has the sizes markers") + begin.len();
    let end = readme.find("<!-- sizes:end -->").unwrap();
    let records = zugzwang::record::load_dir(&root.join("solve-runs/connect4-sizes")).unwrap();
    assert_eq!(
        &readme[start..end],
        zugzwang::record::board_size_table(&records),
        "regenerate with `zugzwang runs --sizes solve-runs/connect4-sizes`"
    );
}
