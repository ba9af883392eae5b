//! The abstract oracle (memo + column symmetry + cut-offs) against plain minimax of the same
//! abstract game, on small cases (at most 9 empty cells) drawn by proptest.

use proptest::prelude::*;
use zugzwang_verify::abstract_game::{brute_force, AbstractGame, HEIGHT, WIDTH};
use zugzwang_verify::cases::{self, Rng};
use zugzwang_verify::threats::{Colour, Threat};

/// A random small case: 1..=3 threats in the upper rows, threat columns filled to just below
/// their key cell or one lower, other columns nearly full; at most `max_empty` empty cells.
fn small_case(seed: u64, max_empty: u32) -> Option<(Vec<Threat>, [u8; WIDTH])> {
    let mut rng = Rng(seed);
    let k = 1 + rng.below(3) as usize;
    let mut set: Vec<Threat> = Vec::new();
    while set.len() < k {
        let t = Threat::new(
            rng.below(WIDTH as u64) as u8,
            3 + rng.below(HEIGHT as u64 - 3) as u8,
            if rng.below(2) == 0 {
                Colour::White
            } else {
                Colour::Black
            },
        );
        if !set.contains(&t) {
            set.push(t);
        }
    }
    let mut lowest = [HEIGHT; WIDTH];
    for t in &set {
        lowest[t.col as usize] = lowest[t.col as usize].min(t.row);
    }
    let mut h = [0u8; WIDTH];
    for c in 0..WIDTH {
        h[c] = if lowest[c] < HEIGHT {
            (lowest[c] - 1).saturating_sub(rng.below(2) as u8)
        } else {
            HEIGHT - u8::from(rng.below(4) == 0)
        };
    }
    (cases::empty_cells(&h) <= max_empty).then_some((set, h))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn memoised_search_equals_plain_minimax(seed in any::<u64>()) {
        if let Some((set, h)) = small_case(seed, 9) {
            let fast = AbstractGame::new(&set).value(h);
            let slow = brute_force(&set, h);
            prop_assert_eq!(fast, slow, "threats {:?} heights {:?}", set, h);
        }
    }
}

#[test]
fn enough_small_cases_are_generated() {
    let cases: Vec<_> = (0..300u64).filter_map(|s| small_case(s, 9)).collect();
    assert!(cases.len() > 50, "only {} usable cases", cases.len());
    // and they are not trivial: all three outcomes occur
    let mut seen = [false; 3];
    for (set, h) in &cases {
        seen[(brute_force(set, *h) + 1) as usize] = true;
    }
    assert_eq!(seen, [true; 3]);
}

#[test]
fn one_table_serves_every_start_of_a_set() {
    // the memo is shared between starting fillings: values must not depend on query order
    let set = [
        Threat::new(1, 4, Colour::White),
        Threat::new(5, 3, Colour::Black),
    ];
    let starts = cases::starts(&set);
    let mut a = AbstractGame::new(&set);
    let forward: Vec<i8> = starts.iter().map(|&h| a.value(h)).collect();
    let mut b = AbstractGame::new(&set);
    let backward: Vec<i8> = starts.iter().rev().map(|&h| b.value(h)).collect();
    let mut backward = backward;
    backward.reverse();
    assert_eq!(forward, backward);
    // and spot-check against plain minimax where it is affordable
    for (h, v) in starts.iter().zip(&forward) {
        if cases::empty_cells(h) <= 9 {
            assert_eq!(*v, brute_force(&set, *h), "{h:?}");
        }
    }
}
