//! Finding and classifying the threats of a real Connect Four position.
//!
//! A *threat* of a colour is an empty cell (playable now or not) that would complete a line of
//! four for that colour. Rows are kept *physical* (0 = bottom) here; each version of the note
//! counts them differently (see [`super::Version::row_of`]), which is exactly where "even" and
//! "odd" swap between seed 000 and seed 001.

use serde::Serialize;
use std::fmt;
use zugzwang::game::{Connect4, Game, Player};

/// The two players in the note's terms: White (`W`, the first player, `X` in move strings) and
/// Black (`B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Colour {
    /// The first player.
    White,
    /// The second player.
    Black,
}

impl Colour {
    /// The library's side of this colour (White moves first).
    pub fn player(self) -> Player {
        match self {
            Colour::White => Player::First,
            Colour::Black => Player::Second,
        }
    }
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
    /// The note's utility of a win by this colour: `u` is from White's view, so +1 or -1.
    pub fn sign(self) -> i8 {
        match self {
            Colour::White => 1,
            Colour::Black => -1,
        }
    }
    /// The note's letter for a stone of this colour (`W`, `B`).
    pub fn stone_letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Black => 'B',
        }
    }
    /// The note's letter for a threat of this colour (`w`, `b`).
    pub fn threat_letter(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }
    /// The colour whose turn it is when `empty` cells are left on a board with an even number of
    /// cells (the note's (IV)): White moves whenever an even number of cells is free.
    pub fn to_move_with_empty(empty: u32) -> Colour {
        if empty.is_multiple_of(2) {
            Colour::White
        } else {
            Colour::Black
        }
    }
}

/// One threat: the cell (physical 0-based column and row, row 0 = bottom) and its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Threat {
    /// 0-based column (`A` = 0).
    pub col: u8,
    /// 0-based physical row (0 = bottom).
    pub row: u8,
    /// Whose four the cell completes.
    pub colour: Colour,
}

impl Threat {
    /// A threat at column `col`, physical row `row`.
    pub fn new(col: u8, row: u8, colour: Colour) -> Threat {
        Threat { col, row, colour }
    }
    /// The column letter the note uses (`A`..).
    pub fn col_letter(&self) -> char {
        (b'A' + self.col) as char
    }
}

impl fmt::Display for Threat {
    /// Physical notation: column letter, 0-based row, colour letter, e.g. `C3b`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}",
            self.col_letter(),
            self.row,
            self.colour.threat_letter()
        )
    }
}

/// Every line of four cells of a `width x height` board, as masks in the Connect Four bit layout
/// (`height + 1` bits per column).
pub fn lines(width: u32, height: u32) -> Vec<u64> {
    let bit = |c: i32, r: i32| 1u64 << (c as u32 * (height + 1) + r as u32);
    let mut out = Vec::new();
    for c in 0..width as i32 {
        for r in 0..height as i32 {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let (ec, er) = (c + 3 * dc, r + 3 * dr);
                if ec < 0 || ec >= width as i32 || er < 0 || er >= height as i32 {
                    continue;
                }
                out.push((0..4).fold(0, |m, k| m | bit(c + k * dc, r + k * dr)));
            }
        }
    }
    out
}

/// The threats of both colours in `pos`, with whether each is playable now, sorted by column,
/// row, colour. A cell that completes a four for both colours appears twice, once per colour.
pub fn threats(pos: &Connect4) -> Vec<(Threat, bool)> {
    let playable = pos.playable();
    let mut out = Vec::new();
    for c in 0..pos.width() {
        for r in 0..pos.height() {
            let cell = pos.cell(c, r);
            for colour in [Colour::White, Colour::Black] {
                if pos.threats_of(colour.player()) & cell != 0 {
                    out.push((Threat::new(c as u8, r as u8, colour), playable & cell != 0));
                }
            }
        }
    }
    out
}

/// The note's assumption (V): the game is not decided in the next half move — no threat of
/// either colour is playable now (for a threat at row r, the cell below is still empty; a threat
/// on the bottom row is always playable) — and the game is not over.
pub fn satisfies_v(pos: &Connect4) -> bool {
    let all = pos.threats_of(Player::First) | pos.threats_of(Player::Second);
    !pos.is_over() && all & pos.playable() == 0
}

/// The note's assumption (I) made checkable: no new threat can ever arise. A line can only
/// become a threat while it holds stones of at most one colour; with one empty cell it already is
/// a threat (or dead), so (I) holds exactly when every line with two or more empty cells holds
/// both colours. Under (I) the game is the abstract game whose only winning cells are the
/// current threats.
pub fn satisfies_i(pos: &Connect4) -> bool {
    let white = pos.first_player_stones();
    let black = pos.all_stones() & !white;
    lines(pos.width(), pos.height()).into_iter().all(|line| {
        let empty = (line & !pos.all_stones()).count_ones();
        empty < 2 || (line & white != 0 && line & black != 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_board_has_69_lines() {
        assert_eq!(lines(7, 6).len(), 69);
    }

    #[test]
    fn horizontal_threats_found_on_both_ends() {
        // White 1,2,3 on the bottom row (columns B, C, D), Black stacks on G.
        let p = Connect4::from_moves(7, 6, "273747").unwrap();
        let t = threats(&p);
        let white: Vec<_> = t
            .iter()
            .filter(|(t, _)| t.colour == Colour::White)
            .collect();
        assert_eq!(white.len(), 2);
        assert_eq!(white[0].0, Threat::new(0, 0, Colour::White));
        assert!(white[0].1, "bottom-row threats are playable");
        assert_eq!(white[1].0, Threat::new(4, 0, Colour::White));
        assert!(!satisfies_v(&p));
        assert!(!satisfies_i(&p));
    }
}
