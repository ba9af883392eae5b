//! The 4x4x4 games: Sogo (gravity), Sogo `-g` (creating a poison wins) and Qubic (no gravity).
//!
//! Bit layout: cell `x + 4*y + 16*z`, z = level (0 = bottom), column `x + 4*y`. A level is one
//! 16-bit lane, so "the cell above" is `<< 16` and the playable cells under gravity are
//! `((occupied << 16) | 0xffff) & !occupied`:
//!
//! ```text
//!   level z:  y=3  12 13 14 15   (+16*z)
//!             y=2   8  9 10 11
//!             y=1   4  5  6  7
//!             y=0   0  1  2  3
//!                   x=0 1  2  3   (columns a..d = x, digits 1..4 = y+1)
//! ```
//!
//! Each side's *threat cells* (cells completing a line whose other three cells are its stones)
//! are kept up to date incrementally: a stone can only create threats on the at most 7 lines
//! through it, and it destroys an enemy threat only by filling that very cell. With them the
//! search's questions are a few bit operations: immediate wins are `playable & threats`, and
//! (Sogo) the moves that do not lose at once are those not under an enemy threat.
//!
//! A *poison* of player P: a line with three stones of P whose fourth cell is empty and not
//! playable (the cell below it is empty); the opponent must never fill that lower cell.

use super::pairing::follower_bound;
use super::symmetry;
use super::{Bits, Game};
use std::fmt;

/// Which 4x4x4 game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Gravity: a move names a column; the stone drops to the lowest empty level.
    Sogo,
    /// Sogo where creating a poison wins for its creator on the spot (seed 003's `-g`).
    SogoPoison,
    /// No gravity: any empty cell.
    Qubic,
}

impl Rules {
    /// Every rule set, for tests and reports that cover them all.
    pub const ALL: [Rules; 3] = [Rules::Sogo, Rules::SogoPoison, Rules::Qubic];

    /// Whether stones fall (Sogo and Sogo `-g`).
    pub fn gravity(self) -> bool {
        !matches!(self, Rules::Qubic)
    }
    /// Name used in records and messages.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Sogo => "sogo",
            Rules::SogoPoison => "sogo -g",
            Rules::Qubic => "qubic",
        }
    }
}

/// Cell index from coordinates.
pub const fn cell_index(x: u32, y: u32, z: u32) -> u32 {
    x + 4 * y + 16 * z
}

const fn in_range(v: i32) -> bool {
    v >= 0 && v < 4
}

/// The 13 line directions (one of each opposite pair).
const DIRS: [[i32; 3]; 13] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 0],
    [1, -1, 0],
    [1, 0, 1],
    [1, 0, -1],
    [0, 1, 1],
    [0, 1, -1],
    [1, 1, 1],
    [1, 1, -1],
    [1, -1, 1],
    [1, -1, -1],
];

const fn build_lines() -> [u64; 76] {
    let mut out = [0u64; 76];
    let mut n = 0;
    let mut d = 0;
    while d < 13 {
        let mut start: i32 = 0;
        while start < 64 {
            let (x, y, z) = (start % 4, (start / 4) % 4, start / 16);
            let (dx, dy, dz) = (DIRS[d][0], DIRS[d][1], DIRS[d][2]);
            // a line starts where stepping backwards leaves the board and 3 steps forward stay on it
            let back_out = !(in_range(x - dx) && in_range(y - dy) && in_range(z - dz));
            let fwd_in = in_range(x + 3 * dx) && in_range(y + 3 * dy) && in_range(z + 3 * dz);
            if back_out && fwd_in {
                let mut m = 0u64;
                let mut k = 0;
                while k < 4 {
                    m |= 1u64 << ((x + k * dx) + 4 * (y + k * dy) + 16 * (z + k * dz));
                    k += 1;
                }
                out[n] = m;
                n += 1;
            }
            start += 1;
        }
        d += 1;
    }
    assert!(n == 76);
    out
}

/// The 76 winning lines as 4-bit masks: 48 axis-parallel, 24 face diagonals, 4 space diagonals.
pub const LINES: [u64; 76] = build_lines();

const fn build_through() -> [[u64; 7]; 64] {
    let mut out = [[0u64; 7]; 64];
    let mut c = 0;
    while c < 64 {
        let mut k = 0;
        let mut i = 0;
        while i < 76 {
            if LINES[i] >> c & 1 == 1 {
                out[c][k] = LINES[i];
                k += 1;
            }
            i += 1;
        }
        c += 1;
    }
    out
}

/// The lines through each cell (7 for the 16 "strong" cells, 4 for the others), padded with 0.
pub const LINES_THROUGH: [[u64; 7]; 64] = build_through();

/// The 76 lines as 13 families of parallel lines, one per direction: `(first, stride)`, where
/// `first` holds the lowest cell of every line of the family and the line through first cell
/// `c` is `c, c + stride, c + 2 stride, c + 3 stride`. Families let a question about every line
/// be asked of 16 lines at once with shifts (see [`pair_cells`]).
const FAMILIES: [(u64, u32); 13] = build_families();

const fn build_families() -> [(u64, u32); 13] {
    let mut out = [(0u64, 0u32); 13];
    let mut d = 0;
    while d < 13 {
        let (dx, dy, dz) = (DIRS[d][0], DIRS[d][1], DIRS[d][2]);
        let stride = dx + 4 * dy + 16 * dz;
        let stride = if stride < 0 { -stride } else { stride } as u32;
        let spread = 1u64 | 1 << stride | 1 << (2 * stride) | 1 << (3 * stride);
        let mut first = 0u64;
        let mut i = 0;
        while i < 76 {
            let low = LINES[i] & LINES[i].wrapping_neg();
            if low.wrapping_mul(spread) == LINES[i] {
                first |= low;
            }
            i += 1;
        }
        out[d] = (first, stride);
        d += 1;
    }
    // every line belongs to exactly one family
    let mut total = 0;
    let mut f = 0;
    while f < 13 {
        total += out[f].0.count_ones();
        f += 1;
    }
    assert!(total == 76);
    out
}

/// The cells on lines holding exactly two stones of `own` and none of `opp` (a stone there makes
/// a threat), family by family: the four cells of every line of a family are shifted onto its
/// first cell and counted with a half adder, and the first cells of the qualifying lines are
/// copied up their lines by one multiplication (the copies land on distinct cells: no carry).
/// This replaced a loop over the 76 lines that cost a third of the forcing-win search.
#[inline(always)]
fn pair_cells(own: u64, opp: u64) -> u64 {
    // one call per family with the stride as a constant, so that every shift is an immediate
    macro_rules! families {
        ($($i:literal)*) => { 0 $(| family_pair_cells::<{ FAMILIES[$i].1 }>(own, opp, FAMILIES[$i].0))* };
    }
    families!(0 1 2 3 4 5 6 7 8 9 10 11 12)
}

/// The cells of the lines that miss a colour (live lines), family by family as in
/// [`pair_cells`]: OR-ing each line's four cells onto its first cell tells whether the line
/// holds White, and Black; the live first cells are copied up their lines by a multiplication.
#[inline(always)]
fn live_line_cells(w: u64, b: u64) -> u64 {
    macro_rules! families {
        ($($i:literal)*) => { 0 $(| family_live_cells::<{ FAMILIES[$i].1 }>(w, b, FAMILIES[$i].0))* };
    }
    families!(0 1 2 3 4 5 6 7 8 9 10 11 12)
}

/// [`live_line_cells`] for the family of lines with first cells `first` and stride `D`.
#[inline(always)]
fn family_live_cells<const D: u32>(w: u64, b: u64, first: u64) -> u64 {
    let holds = |s: u64| (s | s >> D | s >> (2 * D) | s >> (3 * D)) & first;
    (first & !(holds(w) & holds(b))).wrapping_mul(1 | 1 << D | 1 << (2 * D) | 1 << (3 * D))
}

/// [`pair_cells`] for the family of lines with first cells `first` and stride `D`.
#[inline(always)]
fn family_pair_cells<const D: u32>(own: u64, opp: u64, first: u64) -> u64 {
    let [a, b, c, e] = [0, D, 2 * D, 3 * D].map(|k| own >> k & first);
    let blocked = (opp | opp >> D | opp >> (2 * D) | opp >> (3 * D)) & first;
    // two of four: one in each half, or both of one half and none of the other
    let (ab2, ab1, ce2, ce1) = (a & b, a ^ b, c & e, c ^ e);
    let two = (ab1 & ce1) | (ab2 & !(ce2 | ce1)) | (ce2 & !(ab2 | ab1));
    let starts = two & !blocked;
    starts.wrapping_mul(1 | 1 << D | 1 << (2 * D) | 1 << (3 * D))
}

/// Cells at levels 1 and 3 (0-based).
pub(super) const ODD_LEVELS: u64 = 0xffff_0000_ffff_0000;
/// The bottom level.
pub(super) const BOTTOM: u64 = 0xffff;
/// Keys keep 62 bits (a store entry is `key << 2 | value`).
const KEY_MASK: u64 = (1 << 62) - 1;
/// Default hash seed of the 4x4x4 keys (`--hash-seed` picks another).
pub const DEFAULT_HASH_SEED: u64 = 0x005e_ed0f_c0be;

/// Why a position was refused. Shown to users as is: names the offending token and its index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeError(pub String);

impl fmt::Display for CubeError {
    /// One line even where the message quotes input holding a newline (shown as `\n`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                fmt::Write::write_char(f, c)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for CubeError {}

/// A 4x4x4 position. Small and cheap to copy: the search plays moves on copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cube {
    /// Stones of White (first player) and Black.
    stones: [u64; 2],
    /// Threat cells of each side (cells completing a line of its three stones); may include
    /// cells since filled, so always masked with the empty cells.
    threats: [u64; 2],
    ply: u32,
    /// The ply at which the game counts as a draw: 64, or less under a depth cap (see
    /// [`Cube::with_cap`]).
    cap: u32,
    rules: Rules,
    /// Seed of the key hash.
    seed: u64,
    /// Whether a side passed on the way here (see [`Game::null_move`]): the side to move is
    /// then not the one the stone counts imply, so [`Game::id`] must tell such positions apart.
    passed: bool,
}

/// Threat cells of `own` created on the lines through `mv` (after `mv` joined `own`).
///
/// A line through `mv` is a threat of `own` when exactly one of its cells is missing from `own`,
/// that is when the missing cells `e = line & !own` form a single bit: `e & (e - 1) == 0`. No
/// population count: the default x86-64 target has no `popcnt` instruction, and the software
/// count made this the most expensive part of a play. `e == 0` (a complete line, or the zero
/// padding of [`LINES_THROUGH`]) passes the test but adds nothing.
#[inline(always)]
fn new_threats(own: u64, mv: u64) -> u64 {
    let lines = &LINES_THROUGH[(mv.trailing_zeros() & 63) as usize];
    let mut t = 0;
    for &l in lines {
        let e = l & !own;
        let single = ((e & e.wrapping_sub(1) == 0) as u64).wrapping_neg();
        t |= e & single;
    }
    t
}

/// The number of stones on a line whose move cell is still empty: at most 3. Without a
/// population count (the default x86-64 target has no `popcnt`, and the software count is
/// slow): clear the lowest bit up to three times.
#[inline(always)]
fn stones_on_line(s: u64) -> usize {
    debug_assert!(s.count_ones() <= 3);
    let s1 = s & s.wrapping_sub(1);
    let s2 = s1 & s1.wrapping_sub(1);
    (s != 0) as usize + (s1 != 0) as usize + (s2 != 0) as usize
}

/// Whether some line lies entirely inside `set`.
#[inline]
pub(super) fn any_line_within(set: u64) -> bool {
    // a line lies inside `set` when its four cells, shifted onto its first cell, all do
    macro_rules! families {
        ($($i:literal)*) => { 0 $(| family_within::<{ FAMILIES[$i].1 }>(set, FAMILIES[$i].0))* };
    }
    families!(0 1 2 3 4 5 6 7 8 9 10 11 12) != 0
}

/// The first cells of the lines of one family (first cells `first`, stride `D`) inside `set`.
#[inline(always)]
fn family_within<const D: u32>(set: u64, first: u64) -> u64 {
    set & set >> D & set >> (2 * D) & set >> (3 * D) & first
}

impl Cube {
    /// The empty board.
    pub fn new(rules: Rules) -> Self {
        Cube {
            stones: [0, 0],
            threats: [0, 0],
            ply: 0,
            cap: 64,
            rules,
            seed: DEFAULT_HASH_SEED,
            passed: false,
        }
    }

    /// The same position with games that reach ply `cap` counted as draws (an optimisation for
    /// Qubic: a *win* found under a cap is a real win, since the winning side wins every line
    /// before the cap; anything else must be re-checked without it).
    pub fn with_cap(mut self, cap: u32) -> Self {
        self.cap = cap.clamp(self.ply + 1, 64);
        self
    }

    /// The same position keyed with another hash seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The rules played.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// White's stones (first player).
    pub fn white(&self) -> u64 {
        self.stones[0]
    }

    /// Black's stones (second player).
    pub fn black(&self) -> u64 {
        self.stones[1]
    }

    /// All stones.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// Index (0 White, 1 Black) of the side to move.
    #[inline]
    fn side(&self) -> usize {
        (self.ply & 1) as usize
    }

    /// Threat cells of side `p` that are still empty.
    #[inline]
    pub fn threats_of(&self, p: usize) -> u64 {
        self.threats[p] & !self.occupied()
    }

    /// Playable cells for a given occupancy.
    #[inline(always)]
    fn playable_for(&self, occ: u64) -> u64 {
        if self.rules.gravity() {
            ((occ << 16) | BOTTOM) & !occ
        } else {
            !occ
        }
    }

    /// Cells where side `p` can create a poison with one stone (Sogo): playable cells whose stone
    /// makes a threat cell of `p` that is empty and not playable afterwards.
    fn poison_makers(&self, p: usize) -> u64 {
        let occ = self.occupied();
        let mut out = 0;
        for x in Bits(self.playable_for(occ)) {
            let occ2 = occ | x;
            let t = new_threats(self.stones[p] | x, x) & !occ2;
            if t & !self.playable_for(occ2) != 0 {
                out |= x;
            }
        }
        out
    }

    /// Whether side `p` has a poison on the board, by scanning all lines (independent of the
    /// incremental threats; used by the win test and input checks).
    pub fn has_poison(&self, p: usize) -> bool {
        if !self.rules.gravity() {
            return false;
        }
        let occ = self.occupied();
        let playable = self.playable_for(occ);
        LINES.iter().any(|&l| {
            let s = l & self.stones[p];
            let e = l ^ s;
            s.count_ones() == 3 && e & occ == 0 && e & playable == 0
        })
    }

    /// The poison cells of side `p` (empty threat cells that cannot be played yet), for display.
    pub fn poisons_of(&self, p: usize) -> u64 {
        if !self.rules.gravity() {
            return 0;
        }
        self.threats_of(p) & !self.playable()
    }

    /// Whether side `p` has four in a line (full scan).
    pub fn has_line(&self, p: usize) -> bool {
        any_line_within(self.stones[p])
    }

    /// A position from White's and Black's stones. Side to move follows from the counts
    /// (White moves first). Refuses overlaps, impossible counts, floating stones (Sogo), boards
    /// where a side has already won (and, in `-g`, boards with a poison: the game would be over).
    pub fn from_masks(rules: Rules, white: u64, black: u64) -> Result<Self, CubeError> {
        if white & black != 0 {
            return Err(CubeError(format!(
                "white and black share cells {:#x}",
                white & black
            )));
        }
        let (nw, nb) = (white.count_ones(), black.count_ones());
        if nw != nb && nw != nb + 1 {
            return Err(CubeError(format!(
                "impossible stone counts: white {nw}, black {nb} (white moves first: white = black or black + 1)"
            )));
        }
        let occ = white | black;
        if rules.gravity() {
            let floating = occ & !((occ << 16) | BOTTOM);
            if floating != 0 {
                return Err(CubeError(format!(
                    "floating stone at cell {} ({}): the cell below it is empty",
                    floating.trailing_zeros(),
                    cell_name(floating.trailing_zeros())
                )));
            }
        }
        let g = Cube::from_masks_unchecked(rules, white, black, nw + nb);
        for (p, name) in [(0, "white"), (1, "black")] {
            if g.has_line(p) {
                return Err(CubeError(format!(
                    "{name} already has four in a line: nothing to solve"
                )));
            }
            if rules == Rules::SogoPoison && g.has_poison(p) {
                return Err(CubeError(format!(
                    "{name} already has a poison, which ends the game under -g: nothing to solve"
                )));
            }
        }
        Ok(g)
    }

    /// Parses `0xWHITE:0xBLACK`.
    pub fn from_hex(rules: Rules, text: &str) -> Result<Self, CubeError> {
        let t = text.trim();
        let (w, b) = t.split_once(':').ok_or_else(|| {
            CubeError(format!(
                "token 0 '{t}': expected two hex masks 0xWHITE:0xBLACK"
            ))
        })?;
        let parse = |s: &str, idx: usize| -> Result<u64, CubeError> {
            let s = s.trim();
            let digits = s
                .strip_prefix("0x")
                .or_else(|| s.strip_prefix("0X"))
                .unwrap_or(s);
            u64::from_str_radix(digits, 16).map_err(|_| {
                CubeError(format!(
                    "token {idx} '{s}': not a 64-bit hex mask (like 0x31cddc2282577da5)"
                ))
            })
        };
        Cube::from_masks(rules, parse(w, 0)?, parse(b, 1)?)
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
            let mv = g.parse_move(&token).map_err(|why| {
                CubeError(format!("move {index} '{token}' (at character {i}): {why}"))
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
                    let tok: String = next.chars().take(width).collect();
                    return Err(CubeError(format!(
                        "move {} '{tok}': the game was already won by move {index} '{token}'",
                        index + 1
                    )));
                }
            }
            index += 1;
            i = j;
        }
        Ok(g)
    }

    /// One move in this game's notation, checked for legality; the reason on failure.
    pub fn parse_move(&self, token: &str) -> Result<u64, String> {
        let cs: Vec<char> = token.chars().collect();
        let need = if self.rules.gravity() { 2 } else { 3 };
        let form = if self.rules.gravity() {
            "a column a1..d4"
        } else {
            "a cell a11..d44 (column, then level 1..4)"
        };
        if cs.len() != need {
            return Err(format!("expected {form}"));
        }
        let x = match cs[0].to_ascii_lowercase() {
            c @ 'a'..='d' => c as u32 - 'a' as u32,
            _ => return Err(format!("expected {form}")),
        };
        let digit = |c: char| match c {
            '1'..='4' => Some(c as u32 - '1' as u32),
            _ => None,
        };
        let y = digit(cs[1]).ok_or_else(|| format!("expected {form}"))?;
        let col = x + 4 * y;
        let mv = if self.rules.gravity() {
            let m = self.playable() & (0x0001_0001_0001_0001u64 << col);
            if m == 0 {
                return Err("the column is full".into());
            }
            m
        } else {
            let z = digit(cs[2]).ok_or_else(|| format!("expected {form}"))?;
            let m = 1u64 << (col + 16 * z);
            if self.occupied() & m != 0 {
                return Err("the cell is already taken".into());
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

    /// The four levels side by side (level 1 = bottom on the left); `X` White, `O` Black, `*` a
    /// threat cell of the side to move that is playable, `+` one of the opponent, `!` a poison
    /// (an empty threat cell that cannot be played yet), `.` empty. Row y = 4 on top.
    pub fn render(&self) -> String {
        let me = self.side();
        let playable = self.playable();
        let mut out = String::new();
        out.push_str("   level 1      level 2      level 3      level 4\n");
        for y in (0..4).rev() {
            for z in 0..4 {
                out.push_str(&format!("{} ", y + 1));
                for x in 0..4 {
                    let m = 1u64 << cell_index(x, y, z);
                    let ch = if self.stones[0] & m != 0 {
                        'X'
                    } else if self.stones[1] & m != 0 {
                        'O'
                    } else if self.rules.gravity()
                        && (self.threats_of(0) | self.threats_of(1)) & m & !playable != 0
                    {
                        '!'
                    } else if self.threats_of(me) & m != 0 {
                        '*'
                    } else if self.threats_of(1 - me) & m != 0 {
                        '+'
                    } else {
                        '.'
                    };
                    out.push(ch);
                    if x < 3 {
                        out.push(' ');
                    }
                }
                out.push_str(if z < 3 { "   " } else { "\n" });
            }
        }
        out.push_str("  a b c d      a b c d      a b c d      a b c d\n");
        out
    }

    /// The key before hashing: the canonical `(white, black)` under the game's symmetries after
    /// the sound dead-cell normalisation (see [`Cube::dead_cells`]): dead cells are marked by
    /// setting them in *both* masks, a third state no real cell has.
    pub fn canonical(&self) -> u128 {
        let dead = if self.ply >= DEAD_FROM_PLY {
            self.dead_cells()
        } else {
            0
        };
        let (w, b) = (self.stones[0] | dead, self.stones[1] | dead);
        if self.rules.gravity() || self.ply >= QUBIC_FULL_GROUP_BELOW_PLY {
            // deep in a Qubic tree symmetric transpositions are rare and the 192-element form
            // costs 20 times the 8-element one: the key uses the subgroup there (a position
            // always gets the same form, since the ply is part of it)
            symmetry::min8(w, b)
        } else {
            symmetry::min192(w, b)
        }
    }

    /// Stones that lie only on dead lines (lines holding both colours). Their colour can never
    /// matter again: two positions that differ only in the colours of such stones have the same
    /// dead cells, the same live lines with the same contents (a line through a dead cell is dead
    /// in both), the same empty and playable cells and the same side to move, so their game
    /// trees are the same. The key therefore records them as a third state "dead" rather than
    /// recolouring them (recolouring can revive a line: seed 003's form, refuted in the tests).
    ///
    /// All 76 lines are looked at 16 at a time with shifts (see [`live_line_cells`]).
    pub fn dead_cells(&self) -> u64 {
        let (w, b) = (self.stones[0], self.stones[1]);
        (w | b) & !live_line_cells(w, b)
    }

    /// Whether the side to move could still complete a line (has a line without enemy stones).
    fn has_live_line(&self, p: usize) -> bool {
        any_line_within(!self.stones[1 - p])
    }
}

/// Below this ply no cell can be dead often enough to pay for finding dead cells.
const DEAD_FROM_PLY: u32 = 16;
/// Qubic keys use the full group of 192 below this ply, the subgroup of 8 from it on.
const QUBIC_FULL_GROUP_BELOW_PLY: u32 = 12;
/// Below this ply every side has live lines; static bounds are not tried.
const BOUNDS_FROM_PLY: u32 = 20;

/// `a1`..`d4` for column `c = x + 4y`.
pub fn column_name(c: u32) -> String {
    format!("{}{}", (b'a' + (c % 4) as u8) as char, c / 4 + 1)
}

/// `a11`..`d44` (column, level 1..4) for cell `i`.
pub fn cell_name(i: u32) -> String {
    format!("{}{}", column_name(i % 16), i / 16 + 1)
}

impl Game for Cube {
    #[inline]
    fn ply(&self) -> u32 {
        self.ply
    }

    #[inline]
    fn max_ply(&self) -> u32 {
        self.cap
    }

    #[inline]
    fn playable(&self) -> u64 {
        self.playable_for(self.occupied())
    }

    #[inline]
    fn winning_moves(&self) -> u64 {
        let p = self.side();
        let lines = self.playable() & self.threats[p];
        if self.rules == Rules::SogoPoison {
            lines | self.poison_makers(p)
        } else {
            lines
        }
    }

    #[inline]
    fn non_losing_moves(&self) -> u64 {
        let opp = 1 - self.side();
        let opp_threats = self.threats_of(opp);
        let playable = self.playable();
        let mut moves = playable;
        let forced = playable & opp_threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0; // two enemy wins at once: cannot block both
            }
            moves = forced;
        }
        if self.rules.gravity() {
            // never fill the cell below an enemy threat
            moves &= !(opp_threats >> 16);
        }
        if self.rules == Rules::SogoPoison && moves != 0 {
            // the enemy may also win by creating a poison: try each survivor (exact, slower)
            let mut keep = 0;
            for mv in Bits(moves) {
                let mut child = *self;
                child.play(mv);
                if child.winning_moves() == 0 {
                    keep |= mv;
                }
            }
            moves = keep;
        }
        moves
    }

    /// Cells on a line holding two stones of the side to move and none of the opponent's (the
    /// move makes a threat there), and under gravity also the cells right below its own threats
    /// (the move makes that threat playable, so the opponent must block it at once): the moves
    /// that force a reply by a threat. (Under `-g`, moves that force by a poison threat are not
    /// listed; the forcing-win search then just does not try them.)
    fn forcing_candidates(&self) -> u64 {
        let p = self.side();
        let (own, opp) = (self.stones[p], self.stones[1 - p]);
        let mut out = pair_cells(own, opp) & !own;
        if self.rules.gravity() {
            out |= self.threats_of(p) >> 16;
        }
        out & self.playable()
    }

    #[inline]
    fn play(&mut self, mv: u64) {
        let p = self.side();
        self.stones[p] |= mv;
        self.threats[p] |= new_threats(self.stones[p], mv);
        self.ply += 1;
    }

    fn last_mover_won(&self) -> bool {
        if self.ply == 0 {
            return false;
        }
        let p = 1 - self.side();
        self.has_line(p) || (self.rules == Rules::SogoPoison && self.has_poison(p))
    }

    #[inline]
    fn id(&self) -> u128 {
        let (w, b) = (self.stones[0], self.stones[1]);
        if self.passed {
            // the two halves overlap, which no real position's do (White has a stone whenever
            // Black has one, so with b == 0 the halves are equal, else they differ); the empty
            // board passed gets all ones
            if w == 0 {
                return u128::MAX;
            }
            let low = if b == 0 { w } else { b };
            ((w | b) as u128) << 64 | low as u128
        } else {
            (w as u128) << 64 | b as u128
        }
    }

    fn defence_is_monotone(&self) -> bool {
        !self.rules.gravity()
    }

    fn null_move(&self) -> Option<Self> {
        if self.ply + 1 >= self.cap {
            return None;
        }
        let mut g = *self;
        g.ply += 1;
        g.passed = true;
        Some(g)
    }

    #[inline]
    fn key(&self) -> u64 {
        let c = self.canonical();
        let bytes = c.to_le_bytes();
        xxhash_rust::xxh3::xxh3_64_with_seed(&bytes, self.seed) & KEY_MASK
    }

    fn move_score(&self, mv: u64) -> i32 {
        // seed 003: a move scores every line through it that is not dead yet by how many stones
        // the line had: 3 for the first stone, 2 for the second, 1 for the third (own lines it
        // extends and enemy lines it spoils alike). On top (ours): a new threat is worth much
        // more, most if it can be played at once (the opponent is then forced), spoiling an enemy
        // two-stone line a little more, and two threats at once most of all.
        let p = self.side();
        let (own, opp) = (self.stones[p], self.stones[1 - p]);
        let occ = self.occupied() | mv;
        let playable_after = self.playable_for(occ);
        let mut score = 0;
        let mut threats_made = 0;
        for &l in &LINES_THROUGH[(mv.trailing_zeros() & 63) as usize] {
            let (mine, theirs) = (l & own, l & opp);
            if l == 0 || (mine != 0 && theirs != 0) {
                continue;
            }
            // the line holds one colour only, so one count tells both
            let n = stones_on_line(mine | theirs);
            score += [3, 2, 1, 1][n];
            if n == 2 && theirs == 0 {
                threats_made += 1;
                let cell = l & !occ;
                score += if cell & playable_after != 0 { 12 } else { 6 };
            } else if n == 2 {
                score += 3;
            }
        }
        if threats_made >= 2 {
            score += 32;
        }
        // filling the cell under one's own threat lets the opponent block it
        if self.rules.gravity() && (mv << 16) & self.threats_of(p) != 0 {
            score -= 8;
        }
        score
    }

    #[inline]
    fn bounds_may_prove_loss_after_move(&self) -> bool {
        // only Sogo's pairing strategies prove losses, and bounds start at BOUNDS_FROM_PLY
        self.rules == Rules::Sogo && self.ply + 1 >= BOUNDS_FROM_PLY
    }

    #[inline]
    fn static_bounds(&self) -> (i32, i32) {
        if self.ply < BOUNDS_FROM_PLY {
            return (i32::MIN, i32::MAX);
        }
        let p = self.side();
        let mut lo = i32::MIN;
        let mut hi = i32::MAX;
        // A side with no line free of enemy stones can never complete one, nor (in -g) make a
        // poison, which also needs three of its stones on a line without enemy stones: it cannot
        // win, so its score is at most 0.
        if !self.has_live_line(p) {
            hi = 0;
        }
        if !self.has_live_line(1 - p) {
            lo = 0;
        }
        // The opponent's pairing strategies (claimeven, baseinverse, blocked columns: see
        // `pairing`) may prove that the side to move cannot win, or loses. Plain Sogo only.
        if hi > 0 && self.rules == Rules::Sogo {
            let f = 1 - p;
            hi = hi.min(follower_bound(
                self.stones[p],
                self.stones[f],
                self.threats_of(f),
            ));
        }
        (lo, hi)
    }
}

impl Cube {
    /// A position from raw masks without any legality check, its threat cells found by a scan
    /// of the lines: the last step of [`Cube::from_masks`], and (unchecked) the tests of
    /// normalisations, which build positions no game reaches.
    pub(crate) fn from_masks_unchecked(rules: Rules, w: u64, b: u64, ply: u32) -> Self {
        let mut g = Cube::new(rules);
        g.stones = [w, b];
        g.ply = ply;
        for p in 0..2 {
            for &l in &LINES {
                let s = l & g.stones[p];
                if s.count_ones() == 3 {
                    g.threats[p] |= l ^ s;
                }
            }
        }
        g
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop, clippy::type_complexity)]
pub(crate) mod tests {
    use super::*;
    use crate::search::reference::minimax;

    #[test]
    fn there_are_76_lines_48_axis_24_face_4_space() {
        assert_eq!(LINES.len(), 76);
        let mut kinds = [0; 4];
        for &l in &LINES {
            assert_eq!(l.count_ones(), 4);
            let cells: Vec<u32> = Bits(l).map(|m| m.trailing_zeros()).collect();
            let varying = (0..3)
                .filter(|&a| {
                    let v: Vec<u32> = cells
                        .iter()
                        .map(|&c| [c % 4, c / 4 % 4, c / 16][a])
                        .collect();
                    v.iter().any(|&x| x != v[0])
                })
                .count();
            kinds[varying] += 1;
        }
        assert_eq!(kinds, [0, 48, 24, 4]);
        let distinct: std::collections::HashSet<u64> = LINES.iter().copied().collect();
        assert_eq!(distinct.len(), 76);
    }

    /// A pass hands the move to the other side on the same stones, and its id differs from
    /// every real position's, so caches keyed by [`Game::id`] never confuse the two.
    #[test]
    fn a_pass_changes_the_side_to_move_and_the_id() {
        let mut seed = 5;
        let mut ids = std::collections::HashSet::new();
        let mut passed_ids = Vec::new();
        for rules in [Rules::Qubic, Rules::Sogo] {
            for empties in [63, 62, 50, 40, 30] {
                let Some(g) = crate::search::testing::careful(Cube::new(rules), empties, &mut seed)
                else {
                    continue;
                };
                let p = g.null_move().expect("a pass is possible");
                assert_eq!((p.white(), p.black()), (g.white(), g.black()));
                assert_eq!(p.ply(), g.ply() + 1);
                assert_eq!(p.playable(), g.playable());
                ids.insert(g.id());
                passed_ids.push(p.id());
            }
        }
        assert!(passed_ids.len() > 5);
        assert!(passed_ids.iter().all(|id| !ids.contains(id)));
        let empty = Cube::new(Rules::Qubic);
        let one = Cube::parse(Rules::Qubic, "a11").unwrap();
        assert_ne!(one.null_move().unwrap().id(), one.id());
        assert_ne!(empty.null_move().unwrap().id(), empty.id());
        let mut full = Cube::new(Rules::Qubic).with_cap(3);
        full.play(1);
        full.play(2);
        assert!(full.null_move().is_none(), "no pass onto the last ply");
    }

    #[test]
    fn sixteen_strong_cells_with_7_lines_and_48_with_4() {
        let mut counts = [0; 8];
        for c in 0..64 {
            let n = LINES_THROUGH[c].iter().filter(|&&l| l != 0).count();
            counts[n] += 1;
            let (x, y, z) = (c % 4, c / 4 % 4, c / 16);
            let strong = [x, y, z].iter().all(|&v| v == 0 || v == 3)
                || [x, y, z].iter().all(|&v| v == 1 || v == 2);
            assert_eq!(n == 7, strong, "cell {c}");
        }
        assert_eq!(counts[7], 16);
        assert_eq!(counts[4], 48);
    }

    #[test]
    fn notation_round_trips() {
        let g = Cube::parse(Rules::Sogo, "a1 b2,b2 d4c3").unwrap();
        assert_eq!(g.ply(), 5);
        let again = Cube::from_hex(Rules::Sogo, &g.to_hex()).unwrap();
        assert_eq!(again.stones, g.stones);
        assert_eq!(again.threats_of(0), g.threats_of(0));
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
        let e = Cube::parse(Rules::Sogo, "a1 e5").unwrap_err().0;
        assert!(e.contains("move 1 'e5'"), "{e}");
        let e = Cube::parse(Rules::Sogo, "a1a1a1a1a1").unwrap_err().0;
        assert!(e.contains("move 4") && e.contains("full"), "{e}");
        let e = Cube::parse(Rules::Qubic, "a11 a11").unwrap_err().0;
        assert!(e.contains("move 1") && e.contains("taken"), "{e}");
        let e = Cube::parse(Rules::Qubic, "a15").unwrap_err().0;
        assert!(e.contains("move 0 'a15'"), "{e}");
        // white wins on the bottom row, then one more move
        let e = Cube::parse(Rules::Sogo, "a1 a2 b1 b2 c1 c2 d1 d2")
            .unwrap_err()
            .0;
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
        assert!(!g.has_line(0) && !g.has_line(1));
    }

    pub(crate) fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// A random position with `empties` empty cells reached by play in which nobody has won
    /// (and in -g nobody has a poison), the side to move has no immediate win.
    /// The families rebuild exactly the 76 lines, and the shift-and-count forms of the pair
    /// cells and of "some line inside a set" agree with the line-by-line definitions on random
    /// stone sets of every density.
    #[test]
    fn line_family_forms_match_the_line_by_line_definitions() {
        let mut rebuilt: Vec<u64> = FAMILIES
            .iter()
            .flat_map(|&(first, d)| {
                Bits(first).map(move |c| c.wrapping_mul(1 | 1 << d | 1 << (2 * d) | 1 << (3 * d)))
            })
            .collect();
        let mut lines = LINES.to_vec();
        rebuilt.sort_unstable();
        lines.sort_unstable();
        assert_eq!(rebuilt, lines);
        let mut seed = 0x5eed_u64;
        for round in 0..20_000 {
            // densities from sparse to nearly full, White and Black disjoint
            let cut = round % 5;
            let mut pick = || {
                (0..=cut).fold(u64::MAX, |m, _| {
                    m & crate::search::testing::xorshift(&mut seed)
                })
            };
            let own = pick();
            let opp = pick() & !own;
            let slow = LINES
                .iter()
                .filter(|&&l| l & opp == 0 && (l & own).count_ones() == 2)
                .fold(0, |cells, &l| cells | l);
            assert_eq!(pair_cells(own, opp), slow, "own {own:#x} opp {opp:#x}");
            let set = own | opp;
            let inside = LINES.iter().any(|&l| l & !set == 0);
            assert_eq!(any_line_within(set), inside, "set {set:#x}");
        }
    }

    pub(crate) fn careful_random(rules: Rules, empties: u32, seed: &mut u64) -> Cube {
        'retry: loop {
            let mut g = Cube::new(rules);
            while g.ply() < 64 - empties {
                // avoid winning moves when possible, and moves that hand the opponent a win
                let mut cand = g.playable() & !g.winning_moves();
                if cand == 0 {
                    continue 'retry;
                }
                let safe = if g.winning_moves() == 0 {
                    g.non_losing_moves() & cand
                } else {
                    0
                };
                if safe != 0 {
                    cand = safe;
                }
                let n = cand.count_ones();
                let k = (rng(seed) % n as u64) as usize;
                let mv = Bits(cand).nth(k).unwrap();
                g.play(mv);
                if g.last_mover_won() {
                    continue 'retry;
                }
            }
            if g.winning_moves() == 0 {
                return g;
            }
        }
    }

    #[test]
    fn incremental_threats_match_a_scan_of_the_lines() {
        let mut s = 0x7e57_7e57_0000_0005u64;
        for rules in [Rules::Sogo, Rules::Qubic] {
            for _ in 0..2_000 {
                let mut g = Cube::new(rules);
                while g.ply() < 64 && !g.last_mover_won() {
                    let occ = g.occupied();
                    for p in 0..2 {
                        let scan = LINES
                            .iter()
                            .filter(|&&l| (l & g.stones[p]).count_ones() == 3 && l & !occ != 0)
                            .fold(0, |t, &l| t | (l & !occ));
                        assert_eq!(g.threats_of(p), scan, "{rules:?} {}", g.to_hex());
                    }
                    let m = g.playable();
                    g.play(
                        Bits(m)
                            .nth((rng(&mut s) % m.count_ones() as u64) as usize)
                            .unwrap(),
                    );
                }
            }
        }
    }

    /// Seed 003's move score written with plain counts (the form `move_score` replaced).
    fn counted_move_score(g: &Cube, mv: u64) -> i32 {
        let p = g.side();
        let (own, opp) = (g.stones[p], g.stones[1 - p]);
        let occ = g.occupied() | mv;
        let (mut score, mut threats_made) = (0, 0);
        for &l in LINES.iter().filter(|&&l| l & mv != 0) {
            let (o, e) = ((l & own).count_ones(), (l & opp).count_ones());
            if o > 0 && e > 0 {
                continue;
            }
            score += [3, 2, 1, 1][(o + e) as usize];
            if e == 0 && o == 2 {
                threats_made += 1;
                score += if l & !occ & g.playable_for(occ) != 0 {
                    12
                } else {
                    6
                };
            } else if o == 0 && e == 2 {
                score += 3;
            }
        }
        if threats_made >= 2 {
            score += 32;
        }
        if g.rules.gravity() && (mv << 16) & g.threats_of(p) != 0 {
            score -= 8;
        }
        score
    }

    #[test]
    fn move_score_matches_the_counting_form() {
        let mut s = 0x5c0e_5c0e_0000_0001u64;
        for rules in [Rules::Sogo, Rules::Qubic] {
            for empties in [20, 30, 40, 50] {
                for _ in 0..100 {
                    let g = careful_random(rules, empties, &mut s);
                    for mv in Bits(g.playable()) {
                        assert_eq!(
                            g.move_score(mv),
                            counted_move_score(&g, mv),
                            "{}",
                            g.to_hex()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn dead_cells_match_a_scan_of_all_lines() {
        // (the families themselves are checked against LINES in the pair-cells test)
        let mut s = 0xdead_0000_ce11_0001u64;
        for i in 0..20_000 {
            let occ = if i % 2 == 0 {
                rng(&mut s) | rng(&mut s)
            } else {
                rng(&mut s) & rng(&mut s)
            };
            let w = occ & rng(&mut s);
            let g = Cube::from_masks_unchecked(Rules::Qubic, w, occ & !w, occ.count_ones());
            let alive = LINES
                .iter()
                .filter(|&&l| l & g.white() == 0 || l & g.black() == 0)
                .fold(0, |a, &l| a | l);
            assert_eq!(g.dead_cells(), occ & !alive, "{}", g.to_hex());
        }
    }

    #[test]
    fn winning_moves_and_non_losing_moves_keep_the_contract() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for rules in Rules::ALL {
            for empties in [10, 20, 30, 40] {
                for _ in 0..200 {
                    let g = careful_random(rules, empties, &mut s);
                    let mut wins = 0;
                    for mv in Bits(g.playable()) {
                        let mut c = g;
                        c.play(mv);
                        if c.last_mover_won() {
                            wins |= mv;
                        }
                    }
                    assert_eq!(wins, g.winning_moves(), "{rules:?} {}", g.to_hex());
                    let mut safe = 0;
                    for mv in Bits(g.playable()) {
                        let mut c = g;
                        c.play(mv);
                        let opp_wins = Bits(c.playable()).any(|m2| {
                            let mut d = c;
                            d.play(m2);
                            d.last_mover_won()
                        });
                        if !opp_wins {
                            safe |= mv;
                        }
                    }
                    assert_eq!(safe, g.non_losing_moves(), "{rules:?} {}", g.to_hex());
                }
            }
        }
    }

    #[test]
    fn static_bounds_agree_with_plain_search() {
        let mut s = 0x1234_9876_abcd_ef01u64;
        let mut checked = [0; 3];
        for rules in Rules::ALL {
            for _ in 0..400 {
                let empties = 9 + (rng(&mut s) % 3) as u32;
                let g = careful_random(rules, empties, &mut s);
                let (lo, hi) = g.static_bounds();
                if lo == i32::MIN && hi == i32::MAX {
                    continue;
                }
                let v = minimax(&g);
                assert!(lo <= v && v <= hi, "{rules:?} {} {lo} {v} {hi}", g.to_hex());
                checked[(hi == 0) as usize + 2 * (hi < 0) as usize] += 1;
            }
        }
        // both conclusions of the pairing strategies (cannot win, loses) are met often enough
        assert!(checked[1] > 20 && checked[2] > 20, "{checked:?}");
    }

    /// Seed 003's dead-cell recolouring as written: cells lying only on dead lines become Black.
    fn naive_recolour(g: &Cube) -> Cube {
        let dead = g.dead_cells();
        Cube::from_masks_unchecked(g.rules, g.stones[0] & !dead, g.stones[1] | dead, g.ply)
    }

    #[test]
    fn dead_cell_key_is_sound_and_the_naive_recolouring_is_not() {
        let mut s = 0x0bad_cafe_dead_beefu64;
        let mut naive_wrong = 0;
        let mut tried = 0;
        let mut same_key = 0;
        for _ in 0..600 {
            let g = careful_random(Rules::Sogo, 10, &mut s);
            let dead = g.dead_cells();
            if dead == 0 {
                continue;
            }
            tried += 1;
            let v = minimax(&g);
            // the sound form: a recolouring of dead cells that keeps the key (the same cells
            // are dead afterwards) keeps the value
            let k = (rng(&mut s) % dead.count_ones() as u64) as usize;
            let flip = Bits(dead).nth(k).unwrap_or(0);
            let other =
                Cube::from_masks_unchecked(g.rules, g.stones[0] ^ flip, g.stones[1] ^ flip, g.ply);
            if flip != 0 && other.key() == g.key() {
                same_key += 1;
                assert_eq!(other.dead_cells(), dead);
                assert_eq!(minimax(&other), v, "{}", g.to_hex());
            }
            let n = naive_recolour(&g);
            if n.has_line(0) || n.has_line(1) || minimax(&n) != v {
                naive_wrong += 1;
            }
        }
        assert!(tried > 100 && same_key > 50, "{tried} {same_key}");
        eprintln!("dead cells: {tried} positions, {same_key} same-key recolourings agree, naive form wrong in {naive_wrong}");
        assert!(
            naive_wrong > 0,
            "the naive form never went wrong in {tried}"
        );
    }
}

#[cfg(test)]
mod solver_tests {
    use super::tests::careful_random;
    use super::*;
    use crate::search::{Depth, MemoryTable, Searcher, Table};

    /// Win/draw/loss by plain alpha-beta over `last_mover_won` only (no table, symmetry,
    /// ordering or move filters): cutoffs only skip moves that cannot change the value.
    fn wdl(g: &Cube, mut alpha: i32, beta: i32) -> i32 {
        let mut children = [*g; 64];
        let mut n = 0;
        for mv in Bits(g.playable()) {
            let mut c = *g;
            c.play(mv);
            if c.last_mover_won() {
                return 1;
            }
            children[n] = c;
            n += 1;
        }
        // fail-soft alpha-beta; from the window (-1, 1) the result is exact
        let mut best = -1;
        for c in &children[..n] {
            let v = if c.ply() >= 64 {
                0
            } else {
                -wdl(c, -beta, -alpha)
            };
            best = best.max(v);
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn agree(rules: Rules, count: usize, empties: std::ops::RangeInclusive<u32>, seed: u64) {
        let mut s = seed;
        let table = MemoryTable::with_bytes(1 << 22);
        let mut tally = [0usize; 3];
        let mut times = [0f64; 2];
        let count = std::env::var("CUBE_AGREE_COUNT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(count);
        let span = empties.end() - empties.start() + 1;
        for i in 0..count {
            let e = empties.start() + (i as u32 % span);
            let g = careful_random(rules, e, &mut s);
            let t0 = std::time::Instant::now();
            let expect = wdl(&g, -1, 1);
            times[0] += t0.elapsed().as_secs_f64();
            table.clear();
            let t0 = std::time::Instant::now();
            let mut searcher = Searcher::new(&table);
            let got = searcher.solve(&g, Depth::Weak).unwrap();
            times[1] += t0.elapsed().as_secs_f64();
            assert_eq!(got, expect, "{rules:?} {}", g.to_hex());
            tally[(got + 1) as usize] += 1;
        }
        eprintln!(
            "{rules:?}: {count} positions, loss/draw/win {tally:?}, minimax {:.2} s, solver {:.2} s",
            times[0], times[1]
        );
        assert!(tally.iter().filter(|&&n| n > 0).count() >= 2, "{tally:?}");
    }

    #[test]
    fn solver_agrees_with_plain_minimax_sogo() {
        agree(Rules::Sogo, 500, 14..=18, 0x5151_0001);
    }

    #[test]
    fn solver_agrees_with_plain_minimax_sogo_poison() {
        agree(Rules::SogoPoison, 500, 14..=18, 0x5151_0002);
    }

    #[test]
    fn solver_agrees_with_plain_minimax_qubic() {
        agree(Rules::Qubic, 500, 12..=14, 0x5151_0003);
    }
}

impl crate::search::capped::Capped for Cube {
    fn capped(&self, cap: u32) -> Self {
        self.with_cap(cap)
    }
}

#[cfg(test)]
mod count_tests {
    use super::*;
    use crate::game::symmetry::{min192, min8};
    use std::collections::HashSet;

    /// The positions one ply after those of `level`, one for each distinct `key`; won
    /// positions are not expanded (play stops at a win, as in README's tables).
    fn next_level<K: Eq + std::hash::Hash>(level: &[Cube], key: impl Fn(&Cube) -> K) -> Vec<Cube> {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for g in level.iter().filter(|g| !g.last_mover_won()) {
            for mv in Bits(g.playable()) {
                let mut c = *g;
                c.play(mv);
                if seen.insert(key(&c)) {
                    next.push(c);
                }
            }
        }
        next
    }

    /// Distinct positions and classes by ply (play stops at a win), from README's table.
    fn sogo_levels(max: u32) -> Vec<(usize, usize, usize)> {
        let mut level: Vec<Cube> = vec![Cube::new(Rules::Sogo)];
        let mut out = vec![];
        for _ in 0..max {
            let next = next_level(&level, |c| (c.white(), c.black()));
            let classes: HashSet<u128> = next.iter().map(|g| min8(g.white(), g.black())).collect();
            let won = next.iter().filter(|g| g.last_mover_won()).count();
            out.push((next.len(), classes.len(), won));
            level = next;
        }
        out
    }

    #[test]
    fn sogo_positions_and_classes_by_ply_1_to_6() {
        let got = sogo_levels(6);
        let want = [
            (16, 3, 0),
            (256, 36, 0),
            (2_416, 321, 0),
            (22_576, 2_925, 0),
            (153_200, 19_421, 0),
            (1_063_520, 133_834, 0),
        ];
        assert_eq!(got, want);
    }

    #[test]
    #[ignore = "minutes and gigabytes: cargo test --release -- --ignored sogo_positions_7_8"]
    fn sogo_positions_7_8() {
        let got = sogo_levels(8);
        assert_eq!(got[6], (5_869_840, 736_407, 19_040));
        assert_eq!(got[7], (33_089_960, 4_144_520, 86_864));
    }

    fn perft(g: &Cube, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for mv in Bits(g.playable()) {
            let mut c = *g;
            c.play(mv);
            n += if c.last_mover_won() {
                (depth == 1) as u64
            } else {
                perft(&c, depth - 1)
            };
        }
        n
    }

    #[test]
    fn sogo_perft_1_to_5() {
        let g = Cube::new(Rules::Sogo);
        let got: Vec<u64> = (1..=5).map(|d| perft(&g, d)).collect();
        assert_eq!(got, [16, 256, 4_096, 65_536, 1_048_560]);
    }

    fn qubic_classes(max: u32) -> Vec<usize> {
        let mut reps = vec![Cube::new(Rules::Qubic)];
        let mut out = vec![];
        for _ in 0..max {
            // one representative per class
            let next = next_level(&reps, |c| min192(c.white(), c.black()));
            out.push(next.len());
            reps = next;
        }
        out
    }

    #[test]
    fn qubic_classes_by_ply_1_to_4() {
        assert_eq!(qubic_classes(4), [2, 35, 757, 20_851]);
    }

    #[test]
    #[ignore = "a few seconds: cargo test --release -- --ignored qubic_classes_ply_5"]
    fn qubic_classes_ply_5() {
        assert_eq!(qubic_classes(5)[4], 401_778);
    }
}
