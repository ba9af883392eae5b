//! Books on the 5x4 board, where every position solves in microseconds: each stored score
//! against a fresh solve, answers with and without the book, damage and foreign books refused.

use super::build::build;
use super::*;
use crate::game::{Connect4, Game};
use crate::solver::{Control, Mode, Question, Solver, SolverConfig};
use std::sync::Arc;

const SPEC: GameSpec = GameSpec::Connect4 {
    width: 5,
    height: 4,
};

fn small_config() -> SolverConfig {
    SolverConfig {
        mem_bytes: 1 << 20,
        threads: 1,
        ..SolverConfig::for_game(SPEC)
    }
}

fn make(dir: &Path, plies: u32) -> super::build::BuildReport {
    build(SPEC, plies, dir, small_config(), &Control::new(), |_| {}).unwrap()
}

/// Every position of the first plies, by playing every move (not by the builder's code).
fn positions(plies: u32) -> Vec<Connect4> {
    let mut out = vec![Connect4::new(5, 4).unwrap()];
    let mut i = 0;
    while i < out.len() {
        let g = out[i];
        i += 1;
        if g.ply() < plies && game_over_score(&g).is_none() {
            for mv in Bits(g.playable()) {
                let mut c = g;
                c.play(mv);
                out.push(c);
            }
        }
    }
    out
}

#[test]
fn every_stored_score_equals_a_fresh_solve() {
    let dir = tempfile::tempdir().unwrap();
    let report = make(dir.path(), 6);
    let book = Book::open(dir.path()).unwrap();
    assert_eq!(book.plies(), 6);
    assert_eq!(book.entries(), report.entries);
    let all = positions(6);
    let mut keys: Vec<Key> = all.iter().map(|g| g.key()).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(
        keys.len() as u64,
        report.entries,
        "one entry per symmetry class"
    );
    // a sample (every 31st position, mirror images included) against fresh solves: one solver
    // whose tables are emptied before each question
    let mut solver = Solver::new(SPEC, small_config()).unwrap();
    for g in all.iter().step_by(31) {
        solver.clear();
        let fresh = solver
            .solve_position(g, Question::Value, None, &Control::new())
            .unwrap();
        assert_eq!(book.score(g), Some(fresh.score), "{}", g.to_text());
    }
    // deeper positions are not in it
    let deep = Connect4::from_moves(5, 4, "1234512").unwrap();
    assert_eq!(book.score(&deep), None);
}

#[test]
fn a_solver_with_the_book_answers_as_without_it() {
    let dir = tempfile::tempdir().unwrap();
    make(dir.path(), 4);
    let book = Arc::new(Book::open(dir.path()).unwrap());
    let mut plain = Solver::new(SPEC, small_config()).unwrap();
    let mut booked = Solver::new(SPEC, small_config())
        .unwrap()
        .with_book(book.clone())
        .unwrap();
    let weak = SolverConfig {
        mode: Mode::Weak,
        ..small_config()
    };
    let mut weak_plain = Solver::new(SPEC, weak.clone()).unwrap();
    let mut weak_booked = Solver::new(SPEC, weak)
        .unwrap()
        .with_book(book.clone())
        .unwrap();
    for moves in ["", "3", "33", "312", "1111", "3345", "33451"] {
        for q in [Question::Value, Question::Analyze] {
            for (p, b) in [
                (&mut plain, &mut booked),
                (&mut weak_plain, &mut weak_booked),
            ] {
                let want = p.solve(moves, q, None, &Control::new()).unwrap();
                let got = b.solve(moves, q, None, &Control::new()).unwrap();
                assert_eq!(got.score, want.score, "{moves} {q:?}");
                assert_eq!(got.best_moves, want.best_moves, "{moves} {q:?}");
                assert_eq!(got.move_scores, want.move_scores, "{moves} {q:?}");
                assert!(!want.from_book);
                // analysis and best moves need every child: positions of fewer than 4 stones
                assert_eq!(got.from_book, moves.len() < 4, "{moves} {q:?}");
            }
        }
    }
    let (asked, answered) = book.hits();
    assert!(asked >= answered && answered > 0);
}

#[test]
fn damaged_foreign_and_missing_books_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    make(dir.path(), 3);
    let path = dir.path().join(BOOK_FILE);
    let good = std::fs::read(&path).unwrap();
    for at in [3, 100, good.len() / 2, good.len() - 1] {
        let mut b = good.clone();
        b[at] ^= 0x04;
        std::fs::write(&path, &b).unwrap();
        let e = Book::open(dir.path()).unwrap_err();
        assert!(matches!(e, BookError::Store(_)), "byte {at}: {e}");
        assert!(!e.to_string().contains('\n'));
    }
    std::fs::write(&path, &good).unwrap();
    let book = Arc::new(Book::open(dir.path()).unwrap());
    // a book for 5x4 is no book for 7x6
    let other = Solver::new(GameSpec::CONNECT4, small_config()).unwrap();
    assert!(other.with_book(book).is_err());
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        Book::open(empty.path()),
        Err(BookError::BadInput(_))
    ));
    // the 4x4x4 games and boards too large for exact keys are not booked
    assert!(check_bookable(GameSpec::Cube(crate::game::Rules::Sogo)).is_err());
    assert!(check_bookable(GameSpec::Connect4 {
        width: 8,
        height: 7
    })
    .is_err());
    assert!(
        build(
            SPEC,
            21,
            dir.path(),
            small_config(),
            &Control::new(),
            |_| {}
        )
        .is_err(),
        "more plies than cells"
    );
}

/// A build stopped part way keeps what it solved; the next run solves only the rest and makes
/// the same book, and removes its record.
#[test]
fn a_stopped_build_continues_where_it_was() {
    let straight = tempfile::tempdir().unwrap();
    make(straight.path(), 4);
    let dir = tempfile::tempdir().unwrap();
    let control = Control::new();
    let stopped = build(SPEC, 4, dir.path(), small_config(), &control, |p| {
        if p.done == 10 {
            control.cancel();
        }
    });
    assert!(
        matches!(stopped, Err(BookError::Stopped { done: 10, .. })),
        "{stopped:?}"
    );
    assert!(dir.path().join(partial::PARTIAL_FILE).exists());
    assert!(!dir.path().join(BOOK_FILE).exists());
    // a build of another depth in the same directory is refused while this one is unfinished
    assert!(matches!(
        build(SPEC, 3, dir.path(), small_config(), &Control::new(), |_| {}),
        Err(BookError::BadInput(_))
    ));
    let report = build(SPEC, 4, dir.path(), small_config(), &Control::new(), |_| {}).unwrap();
    assert_eq!(report.resumed, 10);
    assert!(!dir.path().join(partial::PARTIAL_FILE).exists());
    assert_eq!(
        std::fs::read(dir.path().join(BOOK_FILE)).unwrap(),
        std::fs::read(straight.path().join(BOOK_FILE)).unwrap()
    );
}
