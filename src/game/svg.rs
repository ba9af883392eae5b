//! The board as SVG: the drawing of `show --svg` and of the web page, one code for both.
//!
//! Connect Four: the grid with red (first player, `X`) and yellow (`O`) stones; an empty cell
//! that would complete a line is ringed in the colour of the player it serves. The 4x4x4 games:
//! the four levels side by side, level 1 (bottom) on the left and row 4 on top, as the text
//! drawing of `show` lays them out, with its marks: `*` a playable threat of the side to move,
//! `+` one of the other side, `!` a poison (a threat cell nobody can play yet).
//!
//! An interactive drawing (the web page's) also carries, for every legal move, a transparent
//! click target (`data-move`, the move's name in the game's notation) and an empty label
//! (`data-note`) where the page writes the move's value. Nothing in the drawing depends on
//! the page's script: it only fills the labels and styles the targets.

use super::cube::{cell_index, cell_name, column_name};
use super::{Bits, Connect4, Cube, Game, Player};
use std::fmt::Write;

const RED: &str = "#d7262e";
const YELLOW: &str = "#f2c80f";
const BLUE: &str = "#1f5fbf";

fn open_svg(out: &mut String, width: u32, height: u32, class: &str) {
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="{class}" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"##
    );
}

/// Connect Four: cells of 48 px, column numbers underneath (and with `interactive`, a row for
/// the move values under them).
pub fn connect4(g: &Connect4, interactive: bool) -> String {
    const CELL: u32 = 48;
    const M: u32 = 8;
    let (w, h) = (g.width(), g.height());
    let board_h = h * CELL + 2 * M;
    let height = board_h + 22 + if interactive { 22 } else { 0 };
    let mut s = String::new();
    open_svg(&mut s, w * CELL + 2 * M, height, "board connect4");
    let _ = write!(
        s,
        r##"<rect x="0" y="0" width="{}" height="{board_h}" rx="10" fill="{BLUE}"/>"##,
        w * CELL + 2 * M
    );
    let first = g.first_player_stones();
    let all = g.all_stones();
    let (tx, to) = (g.threats_of(Player::First), g.threats_of(Player::Second));
    for c in 0..w {
        let cx = M + c * CELL + CELL / 2;
        for r in 0..h {
            let cy = M + (h - 1 - r) * CELL + CELL / 2;
            let b = g.cell(c, r);
            let (fill, class) = if first & b != 0 {
                (RED, "x")
            } else if all & b != 0 {
                (YELLOW, "o")
            } else {
                ("#ffffff", "empty")
            };
            let _ = write!(
                s,
                r##"<circle class="{class}" cx="{cx}" cy="{cy}" r="19" fill="{fill}" stroke="#0b2e66" stroke-width="1.5"/>"##
            );
            for (threats, colour, radius, who) in [(tx, RED, 9, "x"), (to, "#c9a100", 14, "o")] {
                if threats & b != 0 {
                    let _ = write!(
                        s,
                        r##"<circle class="threat threat-{who}" cx="{cx}" cy="{cy}" r="{radius}" fill="none" stroke="{colour}" stroke-width="3"/>"##
                    );
                }
            }
        }
        let _ = write!(
            s,
            r##"<text x="{cx}" y="{}" text-anchor="middle" font-size="15" fill="#333">{}</text>"##,
            board_h + 16,
            c + 1
        );
    }
    if interactive && !g.is_over() {
        for mv in g.legal_moves() {
            let c = g.move_column(mv);
            let name = c + 1;
            let x = M + c * CELL;
            let cx = x + CELL / 2;
            let _ = write!(
                s,
                r##"<rect class="hit" data-move="{name}" x="{x}" y="0" width="{CELL}" height="{board_h}" fill="transparent"/><text class="note" data-note="{name}" x="{cx}" y="{}" text-anchor="middle" font-size="14"></text>"##,
                board_h + 38
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The 4x4x4 games: four levels of 4x4 cells of 36 px side by side, labelled like the text
/// drawing (`a`..`d` across, rows 1..4 upwards).
pub fn cube(g: &Cube, interactive: bool) -> String {
    const CELL: u32 = 36;
    const GAP: u32 = 30;
    const LEFT: u32 = 18;
    const TOP: u32 = 22;
    let level_w = 4 * CELL;
    let width = LEFT + 4 * level_w + 3 * GAP + 6;
    let height = TOP + 4 * CELL + 22;
    let mut s = String::new();
    open_svg(
        &mut s,
        width,
        height,
        &format!("board cube {}", g.rules().name()),
    );
    let me = g.side();
    let playable = g.playable();
    let over = g.last_mover_won() || g.ply() >= g.max_ply();
    let (own, theirs) = (g.threats_of(me), g.threats_of(me.other()));
    let gravity = g.rules().gravity();
    // the cell a click in column c plays, and the label of its value, under gravity
    let landing = |c: u32| Bits(playable).find(|&m| m.trailing_zeros() % 16 == c);
    for z in 0..4 {
        let x0 = LEFT + z * (level_w + GAP);
        let _ = write!(
            s,
            r##"<text x="{}" y="15" text-anchor="middle" font-size="13" fill="#333">level {}</text><rect x="{x0}" y="{TOP}" width="{level_w}" height="{}" fill="#d9c7a3" stroke="#6b5a3a"/>"##,
            x0 + level_w / 2,
            z + 1,
            4 * CELL
        );
        for y in 0..4 {
            let cy = TOP + (3 - y) * CELL + CELL / 2;
            if z == 0 {
                let _ = write!(
                    s,
                    r##"<text x="8" y="{}" text-anchor="middle" font-size="12" fill="#333">{}</text>"##,
                    cy + 4,
                    y + 1
                );
            }
            for x in 0..4 {
                let cx = x0 + x * CELL + CELL / 2;
                let i = cell_index(x, y, z);
                let m = 1u64 << i;
                let _ = write!(
                    s,
                    r##"<rect x="{}" y="{}" width="{CELL}" height="{CELL}" fill="none" stroke="#8a7650" stroke-width="0.8"/>"##,
                    cx - CELL / 2,
                    cy - CELL / 2
                );
                if g.white() & m != 0 {
                    let _ = write!(
                        s,
                        r##"<circle class="x" cx="{cx}" cy="{cy}" r="14" fill="#fbfbf6" stroke="#222" stroke-width="1.5"/>"##
                    );
                } else if g.black() & m != 0 {
                    let _ = write!(
                        s,
                        r##"<circle class="o" cx="{cx}" cy="{cy}" r="14" fill="#222" stroke="#000"/>"##
                    );
                } else {
                    let both = own | theirs;
                    let mark = if gravity && both & m & !playable != 0 {
                        Some(("!", "#b0006d", "poison"))
                    } else if own & m != 0 {
                        Some(("*", "#0a7d22", "threat threat-own"))
                    } else if theirs & m != 0 {
                        Some(("+", "#c4410c", "threat threat-other"))
                    } else {
                        None
                    };
                    if let Some((ch, colour, class)) = mark {
                        let _ = write!(
                            s,
                            r##"<text class="{class}" x="{cx}" y="{}" text-anchor="middle" font-size="22" font-weight="bold" fill="{colour}">{ch}</text>"##,
                            cy + 8
                        );
                    }
                }
                if interactive && !over && g.occupied() & m == 0 {
                    let c = i % 16;
                    let (name, note_here) = if gravity {
                        match landing(c) {
                            Some(l) => (column_name(c), l == m),
                            None => continue,
                        }
                    } else {
                        (cell_name(i), true)
                    };
                    let _ = write!(
                        s,
                        r##"<rect class="hit" data-move="{name}" x="{}" y="{}" width="{CELL}" height="{CELL}" fill="transparent"/>"##,
                        cx - CELL / 2,
                        cy - CELL / 2
                    );
                    if note_here {
                        let _ = write!(
                            s,
                            r##"<text class="note" data-note="{name}" x="{cx}" y="{}" text-anchor="middle" font-size="11"></text>"##,
                            cy + CELL / 2 - 3
                        );
                    }
                }
            }
        }
        for x in 0..4 {
            let _ = write!(
                s,
                r##"<text x="{}" y="{}" text-anchor="middle" font-size="12" fill="#333">{}</text>"##,
                x0 + x * CELL + CELL / 2,
                TOP + 4 * CELL + 15,
                (b'a' + x as u8) as char
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    fn count(s: &str, needle: &str) -> usize {
        s.matches(needle).count()
    }

    #[test]
    fn connect4_draws_every_cell_stone_and_threat() {
        // X has three in the bottom row: a threat on column 4's bottom cell (playable)
        let g = Connect4::from_moves(7, 6, "112233").unwrap();
        let svg = connect4(&g, true);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(count(&svg, "<circle class=\"x\""), 3);
        assert_eq!(count(&svg, "<circle class=\"o\""), 3);
        assert_eq!(count(&svg, "<circle class=\"empty\""), 42 - 6);
        assert!(count(&svg, "threat-x") >= 1);
        assert_eq!(count(&svg, "data-move="), 7);
        assert_eq!(count(&svg, "data-note="), 7);
        // a full column takes no click; a finished game none
        let full = Connect4::from_moves(7, 6, "111111").unwrap();
        assert_eq!(count(&connect4(&full, true), "data-move="), 6);
        let won = Connect4::from_moves(7, 6, "1212121").unwrap();
        assert_eq!(count(&connect4(&won, true), "data-move="), 0);
        assert_eq!(count(&connect4(&g, false), "data-move="), 0);
        // other sizes
        let small = Connect4::from_moves(5, 4, "3").unwrap();
        assert_eq!(count(&connect4(&small, false), "<circle class="), 20);
    }

    #[test]
    fn cube_marks_what_show_marks() {
        // White a1 b1 c1 on level 1 (row 1): its threat d1 is playable, a `*` for White to move
        let g = Cube::parse(Rules::Sogo, "a1 a4 b1 b4 c1 c4").unwrap();
        let svg = cube(&g, true);
        assert_eq!(count(&svg, "<circle class=\"x\""), 3);
        assert_eq!(count(&svg, "<circle class=\"o\""), 3);
        assert!(svg.contains(">*</text>"), "White's threat d1");
        assert!(svg.contains(">+</text>"), "Black's threat d4");
        // 16 columns, each clickable on all its empty cells, one label per column
        assert_eq!(count(&svg, "data-note="), 16);
        assert!(svg.contains("data-move=\"d1\""));
        let q = Cube::parse(Rules::Qubic, "a11").unwrap();
        let svg = cube(&q, true);
        assert_eq!(count(&svg, "data-note="), 63);
        assert!(svg.contains("data-move=\"d44\""));
        assert!(!svg.contains("data-move=\"a11\""));
        assert_eq!(count(&cube(&q, false), "data-move="), 0);
    }
}
