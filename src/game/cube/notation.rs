//! The 4x4x4 notation: positions from move strings (`a1 b2 b2` for Sogo's columns, `a11 b23`
//! for Qubic's cells) or hex masks (`0xWHITE:0xBLACK`), the names of moves and cells, and why
//! an input was refused.

use super::geometry::BOTTOM;
use super::{Cube, Rules};
use crate::game::{Game, Player};
use std::fmt;

/// Why a position was refused. Shown to users as is (one line): names the offending token and
/// its index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CubeError {
    /// White and Black share cells (the mask of the shared cells).
    SharedCells(u64),
    /// Stone counts no game reaches (White moves first).
    StoneCounts {
        /// White's stones.
        white: u32,
        /// Black's stones.
        black: u32,
    },
    /// A stone above an empty cell (gravity games); the cell index.
    Floating(u32),
    /// A side already has four in a line ("white" or "black").
    AlreadyWon(&'static str),
    /// A side already has a poison under `-g` ("white" or "black").
    AlreadyPoisoned(&'static str),
    /// Hex input without the `:` between the two masks; the input.
    NotTwoMasks(String),
    /// A hex mask that does not parse: its token index (0 White, 1 Black) and text.
    BadMask {
        /// 0 for White's mask, 1 for Black's.
        index: usize,
        /// The mask as given.
        token: String,
    },
    /// A move that is malformed or illegal.
    BadMove {
        /// 0-based index of the move.
        index: usize,
        /// The move as given.
        token: String,
        /// Character offset of the move in the input.
        at: usize,
        /// What is wrong with it.
        why: MoveError,
    },
    /// A move after the game was won.
    AfterWin {
        /// 0-based index of the move after the win.
        index: usize,
        /// That move as given.
        token: String,
        /// The winning move as given (its index is `index - 1`).
        winner: String,
    },
}

impl fmt::Display for CubeError {
    /// One line even where the message quotes input holding a newline (shown as `\n`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let raw = RawMessage(self).to_string();
        for c in raw.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                fmt::Write::write_char(f, c)?;
            }
        }
        Ok(())
    }
}

/// The message of a [`CubeError`] before control characters are escaped.
struct RawMessage<'a>(&'a CubeError);

impl fmt::Display for RawMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            CubeError::SharedCells(cells) => write!(f, "white and black share cells {cells:#x}"),
            CubeError::StoneCounts { white, black } => write!(
                f,
                "impossible stone counts: white {white}, black {black} (white moves first: white = black or black + 1)"
            ),
            CubeError::Floating(cell) => write!(
                f,
                "floating stone at cell {cell} ({}): the cell below it is empty",
                cell_name(*cell)
            ),
            CubeError::AlreadyWon(side) => {
                write!(f, "{side} already has four in a line: nothing to solve")
            }
            CubeError::AlreadyPoisoned(side) => write!(
                f,
                "{side} already has a poison, which ends the game under -g: nothing to solve"
            ),
            CubeError::NotTwoMasks(text) => write!(
                f,
                "token 0 '{text}': expected two hex masks 0xWHITE:0xBLACK"
            ),
            CubeError::BadMask { index, token } => write!(
                f,
                "token {index} '{token}': not a 64-bit hex mask (like 0x31cddc2282577da5)"
            ),
            CubeError::BadMove {
                index,
                token,
                at,
                why,
            } => write!(f, "move {index} '{token}' (at character {at}): {why}"),
            CubeError::AfterWin {
                index,
                token,
                winner,
            } => write!(
                f,
                "move {index} '{token}': the game was already won by move {} '{winner}'",
                index - 1
            ),
        }
    }
}

impl std::error::Error for CubeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CubeError::BadMove { why, .. } => Some(why),
            _ => None,
        }
    }
}

/// Why one move was refused ([`Cube::parse_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not in the game's notation: a column `a1`..`d4` (gravity) or a cell `a11`..`d44`.
    Form {
        /// Whether the game has gravity (columns) or not (cells).
        gravity: bool,
    },
    /// The column has no empty cell left.
    ColumnFull,
    /// The cell holds a stone.
    CellTaken,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Form { gravity: true } => f.write_str("expected a column a1..d4"),
            MoveError::Form { gravity: false } => {
                f.write_str("expected a cell a11..d44 (column, then level 1..4)")
            }
            MoveError::ColumnFull => f.write_str("the column is full"),
            MoveError::CellTaken => f.write_str("the cell is already taken"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Cube {
    /// A position from White's and Black's stones. Side to move follows from the counts
    /// (White moves first). Refuses overlaps, impossible counts, floating stones (Sogo), boards
    /// where a side has already won (and, in `-g`, boards with a poison: the game would be over).
    pub fn from_masks(rules: Rules, white: u64, black: u64) -> Result<Self, CubeError> {
        Cube::from_masks_checked(rules, white, black, false)
    }

    /// Like [`Cube::parse`], but a board on which the side that moved last has won (a line;
    /// under `-g` also a poison) is a finished game, not an error: the solver answers it with
    /// its value. A board on which the side *to move* has won is still refused: the game
    /// would have ended before the other side's last stone.
    pub fn parse_finished(rules: Rules, text: &str) -> Result<Self, CubeError> {
        let t = text.trim();
        if t.starts_with("0x") || t.starts_with("0X") || t.contains(':') {
            let (w, b) = Cube::hex_masks(t)?;
            return Cube::from_masks_checked(rules, w, b, true);
        }
        Cube::parse(rules, t)
    }

    fn from_masks_checked(
        rules: Rules,
        white: u64,
        black: u64,
        finished_ok: bool,
    ) -> Result<Self, CubeError> {
        if white & black != 0 {
            return Err(CubeError::SharedCells(white & black));
        }
        let (nw, nb) = (white.count_ones(), black.count_ones());
        if nw != nb && nw != nb + 1 {
            return Err(CubeError::StoneCounts {
                white: nw,
                black: nb,
            });
        }
        let occ = white | black;
        if rules.gravity() {
            let floating = occ & !((occ << 16) | BOTTOM);
            if floating != 0 {
                return Err(CubeError::Floating(floating.trailing_zeros()));
            }
        }
        let g = Cube::from_masks_unchecked(rules, white, black, nw + nb);
        let won = |p: Player| g.has_line(p) || (rules == Rules::SogoPoison && g.has_poison(p));
        // the side that moved last is the one not to move: White after an odd ply
        let last_mover = g.side().other();
        if finished_ok && won(last_mover) && !won(last_mover.other()) {
            return Ok(g);
        }
        for (p, name) in [(Player::First, "white"), (Player::Second, "black")] {
            if g.has_line(p) {
                return Err(CubeError::AlreadyWon(name));
            }
            if rules == Rules::SogoPoison && g.has_poison(p) {
                return Err(CubeError::AlreadyPoisoned(name));
            }
        }
        Ok(g)
    }

    /// Parses `0xWHITE:0xBLACK`.
    pub fn from_hex(rules: Rules, text: &str) -> Result<Self, CubeError> {
        let (w, b) = Cube::hex_masks(text)?;
        Cube::from_masks(rules, w, b)
    }

    /// The two masks of `0xWHITE:0xBLACK`, unchecked.
    fn hex_masks(text: &str) -> Result<(u64, u64), CubeError> {
        let t = text.trim();
        let (w, b) = t
            .split_once(':')
            .ok_or_else(|| CubeError::NotTwoMasks(t.to_string()))?;
        let parse = |s: &str, index: usize| -> Result<u64, CubeError> {
            let s = s.trim();
            let digits = s
                .strip_prefix("0x")
                .or_else(|| s.strip_prefix("0X"))
                .unwrap_or(s);
            u64::from_str_radix(digits, 16).map_err(|_| CubeError::BadMask {
                index,
                token: s.to_string(),
            })
        };
        Ok((parse(w, 0)?, parse(b, 1)?))
    }

    /// Parses a move string: Sogo columns (`a1 b2 b2`) or Qubic cells (`a11 b23`), separators
    /// (spaces, commas, semicolons) optional; or `0xWHITE:0xBLACK`. Errors name the offending
    /// token and its 0-based index among the moves.
    pub fn parse(rules: Rules, text: &str) -> Result<Self, CubeError> {
        let t = text.trim();
        if t.starts_with("0x") || t.starts_with("0X") || t.contains(':') {
            return Cube::from_hex(rules, t);
        }
        let mut g = Cube::new(rules);
        let chars: Vec<char> = t.chars().collect();
        let mut i = 0;
        let mut index = 0;
        let width = if rules.gravity() { 2 } else { 3 };
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() || c == ',' || c == ';' {
                i += 1;
                continue;
            }
            // the token: up to the next separator, at most `width` characters
            let mut j = i;
            while j < chars.len()
                && j - i < width
                && !(chars[j].is_whitespace() || chars[j] == ',' || chars[j] == ';')
            {
                j += 1;
            }
            let token: String = chars[i..j].iter().collect();
            let mv = g.parse_move(&token).map_err(|why| CubeError::BadMove {
                index,
                token: token.clone(),
                at: i,
                why,
            })?;
            g.play(mv);
            if g.last_mover_won() {
                // a further move is an error
                let rest: String = chars[j..].iter().collect();
                if rest
                    .chars()
                    .any(|c| !(c.is_whitespace() || c == ',' || c == ';'))
                {
                    let next = rest.trim_start_matches([' ', ',', ';', '\t', '\n']);
                    return Err(CubeError::AfterWin {
                        index: index + 1,
                        token: next.chars().take(width).collect(),
                        winner: token,
                    });
                }
            }
            index += 1;
            i = j;
        }
        Ok(g)
    }

    /// One move in this game's notation, checked for legality; the reason on failure.
    pub fn parse_move(&self, token: &str) -> Result<u64, MoveError> {
        let cs: Vec<char> = token.chars().collect();
        let form = MoveError::Form {
            gravity: self.rules.gravity(),
        };
        let need = if self.rules.gravity() { 2 } else { 3 };
        if cs.len() != need {
            return Err(form);
        }
        let x = match cs[0].to_ascii_lowercase() {
            c @ 'a'..='d' => c as u32 - 'a' as u32,
            _ => return Err(form),
        };
        let digit = |c: char| match c {
            '1'..='4' => Some(c as u32 - '1' as u32),
            _ => None,
        };
        let y = digit(cs[1]).ok_or(form)?;
        let col = x + 4 * y;
        let mv = if self.rules.gravity() {
            let m = self.playable() & (0x0001_0001_0001_0001u64 << col);
            if m == 0 {
                return Err(MoveError::ColumnFull);
            }
            m
        } else {
            let z = digit(cs[2]).ok_or(form)?;
            let m = 1u64 << (col + 16 * z);
            if self.occupied() & m != 0 {
                return Err(MoveError::CellTaken);
            }
            m
        };
        Ok(mv)
    }

    /// A move in notation: column (`b2`) for Sogo, cell (`b23`) for Qubic.
    pub fn move_name(&self, mv: u64) -> String {
        let i = mv.trailing_zeros();
        if self.rules.gravity() {
            column_name(i % 16)
        } else {
            cell_name(i)
        }
    }

    /// The position as `0xWHITE:0xBLACK`.
    pub fn to_hex(&self) -> String {
        format!("{:#018x}:{:#018x}", self.stones[0], self.stones[1])
    }
}

/// `a1`..`d4` for column `c = x + 4y`.
pub fn column_name(c: u32) -> String {
    format!("{}{}", (b'a' + (c % 4) as u8) as char, c / 4 + 1)
}

/// `a11`..`d44` (column, level 1..4) for cell `i`.
pub fn cell_name(i: u32) -> String {
    format!("{}{}", column_name(i % 16), i / 16 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        let g = Cube::parse(Rules::Sogo, "a1 b2,b2 d4c3").unwrap();
        assert_eq!(g.ply(), 5);
        let again = Cube::from_hex(Rules::Sogo, &g.to_hex()).unwrap();
        assert_eq!(again.stones, g.stones);
        assert_eq!(again.threats_of(Player::First), g.threats_of(Player::First));
        let q = Cube::parse(Rules::Qubic, "a11 b23 d44").unwrap();
        assert_eq!(q.white(), 1 | 1 << 63);
        assert_eq!(q.black(), 1 << (5 + 32));
        let names: Vec<String> = [1u64, 1 << 37, 1 << 63]
            .iter()
            .map(|&m| q.move_name(m))
            .collect();
        assert_eq!(names, ["a11", "b23", "d44"]);
        let text = names.join("");
        assert_eq!(Cube::parse(Rules::Qubic, &text).unwrap().stones, q.stones);
    }

    #[test]
    fn bad_input_names_token_and_index() {
        let e = Cube::parse(Rules::Sogo, "a1 e5").unwrap_err().to_string();
        assert!(e.contains("move 1 'e5'"), "{e}");
        let e = Cube::parse(Rules::Sogo, "a1a1a1a1a1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("move 4") && e.contains("full"), "{e}");
        let e = Cube::parse(Rules::Qubic, "a11 a11")
            .unwrap_err()
            .to_string();
        assert!(e.contains("move 1") && e.contains("taken"), "{e}");
        let e = Cube::parse(Rules::Qubic, "a15").unwrap_err().to_string();
        assert!(e.contains("move 0 'a15'"), "{e}");
        // white wins on the bottom row, then one more move
        let e = Cube::parse(Rules::Sogo, "a1 a2 b1 b2 c1 c2 d1 d2")
            .unwrap_err()
            .to_string();
        assert!(e.contains("move 7") && e.contains("already won"), "{e}");
        assert!(Cube::from_hex(Rules::Qubic, "0x1:0x1").is_err());
        assert!(Cube::from_hex(Rules::Qubic, "0x3:0x0").is_err());
        assert!(Cube::from_hex(Rules::Sogo, "0x10000:0x0").is_err()); // floating
        assert!(Cube::from_hex(Rules::Qubic, "0x10000:0x0").is_ok());
        assert!(Cube::from_hex(Rules::Qubic, "0xf:0xf0").is_err()); // already won
        assert!(Cube::from_hex(Rules::Qubic, "0xzz:0x0").is_err());
        assert!(Cube::from_hex(Rules::Qubic, "0x1").is_err());
    }

    #[test]
    fn seed_003_full_board_is_a_draw_board() {
        let w = 0x31cd_dc22_8257_7da5u64;
        let g = Cube::from_masks(Rules::Qubic, w, !w).unwrap();
        assert_eq!(g.ply(), 64);
        assert!(!g.has_line(Player::First) && !g.has_line(Player::Second));
    }

    /// Every refusal is one line, and a refused move names its reason as the source.
    #[test]
    fn errors_are_one_line_with_a_source() {
        use std::error::Error;
        let e = Cube::parse(Rules::Sogo, "a1 e5").unwrap_err();
        assert_eq!(
            e.source().map(|s| s.to_string()).as_deref(),
            Some("expected a column a1..d4")
        );
        for bad in [
            "a1 e5",
            "0x1:0x1",
            "0x3:0x0",
            "0xzz:0x0",
            "0x1",
            "a1 a2 b1 b2 c1 c2 d1 d2",
        ] {
            assert!(!Cube::parse(Rules::Sogo, bad)
                .unwrap_err()
                .to_string()
                .contains('\n'));
        }
    }
}
