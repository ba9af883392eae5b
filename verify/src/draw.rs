//! Boards drawn in the note's notation: `X` any stone, `W`/`B` white/black stone, `w`/`b`
//! white/black threat, `*` a cell threatened by both (the note has no letter for it), `-` empty;
//! rows labelled in the version's counting, columns `A`..`G`.

use crate::threats::{Colour, Threat, Version};
use zugzwang::game::Connect4;

use crate::abstract_game::{HEIGHT, WIDTH};

/// What a drawn cell shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    /// A stone whose colour does not matter (abstract cases).
    Any,
    /// A stone of this colour.
    Stone(Colour),
    /// Empty.
    Empty,
}

/// Draws a board given per-cell contents (`cells[col][row]`, physical rows) and threats.
pub fn draw(cells: &[[Cell; HEIGHT as usize]; WIDTH], threats: &[Threat], v: Version) -> String {
    let mut s = String::new();
    for row in (0..HEIGHT).rev() {
        s.push_str(&format!("        {} ", v.row_of(row)));
        for (col, column) in cells.iter().enumerate() {
            let mut w = false;
            let mut b = false;
            for t in threats {
                if t.col as usize == col && t.row == row {
                    match t.colour {
                        Colour::White => w = true,
                        Colour::Black => b = true,
                    }
                }
            }
            let ch = match (w, b, column[row as usize]) {
                (true, true, _) => '*',
                (true, false, _) => 'w',
                (false, true, _) => 'b',
                (_, _, Cell::Any) => 'X',
                (_, _, Cell::Stone(c)) => c.stone_letter(),
                (_, _, Cell::Empty) => '-',
            };
            s.push(ch);
            if col + 1 < WIDTH {
                s.push(' ');
            }
        }
        s.push('\n');
    }
    s.push_str("        # A B C D E F G\n");
    s
}

/// An abstract case: columns filled to `heights` with unspecified stones.
pub fn draw_heights(heights: [u8; WIDTH], threats: &[Threat], v: Version) -> String {
    let mut cells = [[Cell::Empty; HEIGHT as usize]; WIDTH];
    for (c, column) in cells.iter_mut().enumerate() {
        for cell in column.iter_mut().take(heights[c] as usize) {
            *cell = Cell::Any;
        }
    }
    draw(&cells, threats, v)
}

/// A real 7x6 position with its stones' colours.
pub fn draw_position(pos: &Connect4, threats: &[Threat], v: Version) -> String {
    let white = pos.first_player_stones();
    let all = pos.all_stones();
    let mut cells = [[Cell::Empty; HEIGHT as usize]; WIDTH];
    for (c, column) in cells.iter_mut().enumerate() {
        for (r, cell) in column.iter_mut().enumerate() {
            let b = pos.cell(c as u32, r as u32);
            if white & b != 0 {
                *cell = Cell::Stone(Colour::White);
            } else if all & b != 0 {
                *cell = Cell::Stone(Colour::Black);
            }
        }
    }
    draw(&cells, threats, v)
}

/// Column heights of a real 7x6 position.
pub fn heights_of(pos: &Connect4) -> [u8; WIDTH] {
    let all = pos.all_stones();
    let mut h = [0u8; WIDTH];
    for (c, hc) in h.iter_mut().enumerate() {
        *hc = (0..HEIGHT)
            .filter(|&r| all & pos.cell(c as u32, r as u32) != 0)
            .count() as u8;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_board_of_the_note_is_reproduced() {
        // the note's first example (000): black threat at C3, columns C and F partly empty
        let t = [Threat::new(2, 3, Colour::Black)];
        let expected = "        5 X X - X X - X
        4 X X - X X - X
        3 X X b X X - X
        2 X X - X X X X
        1 X X - X X X X
        0 X X X X X X X
        # A B C D E F G
";
        // the note fills C0 ('X' in the bottom row): heights C = 1, F = 3
        let h = [6, 6, 1, 6, 6, 3, 6];
        assert_eq!(draw_heights(h, &t, Version::V000), expected);
    }
}
