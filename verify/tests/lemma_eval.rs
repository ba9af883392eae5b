//! The n-threat evaluator (the note's closing idea) against the abstract oracle, and the real
//! oracle against plain minimax.

use zugzwang::game::Game;
use zugzwang::search::reference::minimax;
use zugzwang_verify::abstract_game::AbstractGame;
use zugzwang_verify::cases::{self, Rng};
use zugzwang_verify::real::{careful_game, RealOracle};
use zugzwang_verify::threats::reduce::Evaluator;
use zugzwang_verify::threats::{Colour, Threat};

#[test]
fn evaluator_matches_the_abstract_game_on_every_single_threat_start() {
    let mut e = Evaluator::new(6);
    for set in cases::threat_sets(1) {
        let u = e.evaluate(&set).unwrap();
        let mut g = AbstractGame::new(&set);
        for h in cases::starts(&set) {
            assert_eq!(u, g.value(h), "{set:?} {h:?}");
        }
    }
}

#[test]
fn two_stacked_pairs_are_a_race_the_case_split_misses() {
    // Each side holds two adjacent threats in one column: whoever occupies its own key cell first
    // wins (the opponent must block the lower threat, exposing the upper one). The side to move
    // therefore wins — the value depends on the tempo, which the note's reduction ignores.
    let set = [
        Threat::new(1, 3, Colour::Black),
        Threat::new(1, 4, Colour::Black),
        Threat::new(3, 3, Colour::White),
        Threat::new(3, 4, Colour::White),
    ];
    let mut g = AbstractGame::new(&set);
    // B and D filled to row 2 (key cells empty), A with four free cells: 12 empty, White to move
    let white_to_move = [2, 2, 6, 2, 6, 6, 6];
    // one more free cell elsewhere: 13 empty, Black to move
    let black_to_move = [2, 2, 6, 2, 5, 6, 6];
    assert_eq!(g.value(white_to_move), 1);
    assert_eq!(g.value(black_to_move), -1);
    // one number for the set: right for one side to move, wrong for the other
    let u = Evaluator::new(6).evaluate(&set).unwrap();
    let wrong = [white_to_move, black_to_move]
        .iter()
        .filter(|&&h| g.value(h) != u)
        .count();
    assert_eq!(wrong, 1);
}

#[test]
fn real_oracle_agrees_with_plain_minimax_near_the_end() {
    let mut rng = Rng(11);
    let mut oracle = RealOracle::new(1 << 20);
    let mut checked = 0;
    while checked < 40 {
        for c in careful_game(&mut rng, 33, 4) {
            if c.pos.max_ply() - c.pos.ply() > 9 || c.pos.winning_moves() != 0 {
                continue;
            }
            let m = minimax(&c.pos).signum() as i8;
            let mover = Colour::to_move_with_empty(c.pos.max_ply() - c.pos.ply());
            assert_eq!(
                oracle.white_value(&c.pos),
                m * mover.sign(),
                "moves {}",
                c.moves
            );
            checked += 1;
        }
    }
}
