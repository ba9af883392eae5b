//! Connect Four on any `W x H` board whose bitboard fits in 64 bits.
//!
//! Bit layout (column-major, one spare bit on top of every column so that shifts never carry a
//! line from one column into the next), drawn for 7x6:
//!
//! ```text
//!   .  .  .  .  .  .  .      <- spare row (always 0 in `mask`)
//!   5 12 19 26 33 40 47
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42      <- bottom row
//! ```
//!
//! `mask` holds every stone, `current` the stones of the side to move. The key
//! `current + mask + bottom` sets, in each column, the stones of the side to move plus one marker
//! bit just above the top stone: a unique code of the position in `W * (H + 1)` bits.

use super::{blocking_moves, Bits, Game, Key, Player};
use std::fmt;

/// Why a move string or a board size was refused. The text is meant to be shown as is.
#[derive(Clone, Debug, PartialEq, Eq)]
/// `index` is always the 0-based position of the offending move in the input; `column` the
/// 1-based column it names.
#[allow(missing_docs)]
pub enum Connect4Error {
    /// The board size does not fit 64 bits or is too small to hold a line of four.
    BadSize { width: u32, height: u32 },
    /// A character that is not a column digit.
    BadChar { ch: char, index: usize },
    /// A column number outside `1..=W`.
    ColumnOutOfRange {
        column: u32,
        index: usize,
        width: u32,
    },
    /// A move into a full column.
    ColumnFull { column: u32, index: usize },
    /// A move after the game was already won.
    GameOver { column: u32, index: usize },
}

impl fmt::Display for Connect4Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Connect4Error::BadSize { width, height } => write!(
                f,
                "board size {width}x{height} is not supported: need width, height >= 4 and width*(height+1) <= 64"
            ),
            Connect4Error::BadChar { ch, index } => write!(
                f,
                "move {} ({:?}) is not a column number",
                index + 1,
                ch
            ),
            Connect4Error::ColumnOutOfRange { column, index, width } => write!(
                f,
                "move {} (column {column}) is out of range: the board has columns 1..{width}",
                index + 1
            ),
            Connect4Error::ColumnFull { column, index } => {
                write!(f, "move {} (column {column}) is illegal: the column is full", index + 1)
            }
            Connect4Error::GameOver { column, index } => write!(
                f,
                "move {} (column {column}) is illegal: the game was already won by the previous move",
                index + 1
            ),
        }
    }
}

impl std::error::Error for Connect4Error {}

/// A Connect Four position. Small and `Copy`: the search plays moves on copies.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Connect4 {
    current: u64,
    mask: u64,
    ply: u32,
    width: u32,
    height: u32,
    /// One bit at the bottom of every column.
    bottom: u64,
    /// Cells on rows 2, 4, 6, ... (1-based): the cells a follow-up player claims (claimeven).
    even_rows: u64,
    /// Every playable cell of the board (no spare bits).
    board: u64,
}

impl fmt::Debug for Connect4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Connect4({}x{}, {})",
            self.width,
            self.height,
            self.to_text()
        )
    }
}

/// Cells that would complete a line of four together with `stones` (whether empty or not).
/// Shifts by 1 (vertical), H+1 (horizontal), H (one diagonal) and H+2 (the other).
#[inline]
fn line_completions(stones: u64, height: u32) -> u64 {
    let h1 = height + 1;
    // vertical: three stones directly below
    let mut r = (stones << 1) & (stones << 2) & (stones << 3);
    for shift in [h1, height, height + 2] {
        let p = (stones << shift) & (stones << (2 * shift));
        r |= p & (stones << (3 * shift));
        r |= p & (stones >> shift);
        let q = (stones >> shift) & (stones >> (2 * shift));
        r |= q & (stones << shift);
        r |= q & (stones >> (3 * shift));
    }
    r
}

/// Does `stones` contain four in a line?
#[inline]
fn has_four(stones: u64, height: u32) -> bool {
    for shift in [1, height + 1, height, height + 2] {
        let m = stones & (stones >> shift);
        if m & (m >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

impl Connect4 {
    /// The empty board of the given size; fails when it does not fit the 64-bit layout.
    pub fn new(width: u32, height: u32) -> Result<Self, Connect4Error> {
        if width < 4 || height < 4 || width * (height + 1) > 64 {
            return Err(Connect4Error::BadSize { width, height });
        }
        let mut bottom = 0u64;
        for c in 0..width {
            bottom |= 1u64 << (c * (height + 1));
        }
        let column = (1u64 << height) - 1;
        let board = bottom.wrapping_mul(column);
        let even_column = (0..height)
            .filter(|r| r % 2 == 1)
            .fold(0u64, |m, r| m | 1 << r);
        let even_rows = bottom.wrapping_mul(even_column);
        Ok(Connect4 {
            current: 0,
            mask: 0,
            ply: 0,
            width,
            height,
            bottom,
            even_rows,
            board,
        })
    }

    /// The standard 7x6 empty board.
    pub fn standard() -> Self {
        Self::new(7, 6).expect("7x6 fits")
    }

    /// Replays a move string of 1-based column digits (seed 002's encoding). Whitespace is ignored.
    /// Boards wider than 9 columns are not expressible in single digits; for those use
    /// [`Connect4::play_columns`].
    pub fn from_moves(width: u32, height: u32, moves: &str) -> Result<Self, Connect4Error> {
        let mut pos = Self::new(width, height)?;
        for (index, ch) in moves.chars().enumerate() {
            if ch.is_whitespace() {
                continue;
            }
            let column = ch
                .to_digit(10)
                .ok_or(Connect4Error::BadChar { ch, index })?;
            pos.try_play_column(column, index)?;
        }
        Ok(pos)
    }

    /// Plays 1-based columns, checking each; `index` in errors is the position in `columns`.
    pub fn play_columns(&mut self, columns: &[u32]) -> Result<(), Connect4Error> {
        for (index, &column) in columns.iter().enumerate() {
            self.try_play_column(column, index)?;
        }
        Ok(())
    }

    /// Plays one 1-based column after checking range, fullness and whether the game is over.
    pub fn try_play_column(&mut self, column: u32, index: usize) -> Result<(), Connect4Error> {
        if column == 0 || column > self.width {
            return Err(Connect4Error::ColumnOutOfRange {
                column,
                index,
                width: self.width,
            });
        }
        if self.is_won() {
            return Err(Connect4Error::GameOver { column, index });
        }
        let c = column - 1;
        if !self.can_play(c) {
            return Err(Connect4Error::ColumnFull { column, index });
        }
        self.play(self.column_move(c));
        Ok(())
    }

    /// Board width.
    pub fn width(&self) -> u32 {
        self.width
    }
    /// Board height.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The one-bit move that drops a stone into 0-based column `c` (0 if the column is full).
    #[inline]
    pub fn column_move(&self, c: u32) -> u64 {
        let col_mask = self.column_mask(c);
        (self.mask + self.bottom) & col_mask
    }

    /// 0-based column of a one-bit move.
    #[inline]
    pub fn move_column(&self, mv: u64) -> u32 {
        mv.trailing_zeros() / (self.height + 1)
    }

    #[inline]
    fn column_mask(&self, c: u32) -> u64 {
        ((1u64 << self.height) - 1) << (c * (self.height + 1))
    }

    /// Whether 0-based column `c` has room.
    #[inline]
    pub fn can_play(&self, c: u32) -> bool {
        self.mask & (1u64 << (c * (self.height + 1) + self.height - 1)) == 0
    }

    /// Whether the player who moved last completed a line.
    pub fn is_won(&self) -> bool {
        has_four(self.current ^ self.mask, self.height)
    }

    /// Whether the game has ended (won or board full).
    pub fn is_over(&self) -> bool {
        self.is_won() || self.ply == self.width * self.height
    }

    /// Stones of the side to move.
    pub fn current_stones(&self) -> u64 {
        self.current
    }
    /// Every stone on the board.
    pub fn all_stones(&self) -> u64 {
        self.mask
    }
    /// Stones of the first player (X / White / Red).
    pub fn first_player_stones(&self) -> u64 {
        if self.ply % 2 == 0 {
            self.current
        } else {
            self.current ^ self.mask
        }
    }

    /// Empty cells (anywhere on the board, playable or not) where the side to move would complete
    /// a line: its threats.
    #[inline]
    pub fn own_threats(&self) -> u64 {
        line_completions(self.current, self.height) & (self.board & !self.mask)
    }

    /// Threats of the player who is not to move.
    #[inline]
    pub fn opponent_threats(&self) -> u64 {
        line_completions(self.current ^ self.mask, self.height) & (self.board & !self.mask)
    }

    /// Threats of side `p`.
    pub fn threats_of(&self, p: Player) -> u64 {
        if Player::of_ply(self.ply) == p {
            self.own_threats()
        } else {
            self.opponent_threats()
        }
    }

    /// The bit index of the cell at 0-based column `c` and row `r` (0 = bottom).
    pub fn cell(&self, c: u32, r: u32) -> u64 {
        1u64 << (c * (self.height + 1) + r)
    }

    /// The position's exact code `current + mask + bottom` (not symmetry-normalised).
    #[inline]
    pub fn raw_key(&self) -> u64 {
        self.current
            .wrapping_add(self.mask)
            .wrapping_add(self.bottom)
    }

    /// The left-right mirror of a raw key: columns reversed.
    #[inline]
    pub fn mirror_key(&self, key: u64) -> u64 {
        let h1 = self.height + 1;
        let col = (1u64 << h1) - 1;
        let mut out = 0u64;
        for c in 0..self.width {
            let bits = (key >> (c * h1)) & col;
            out |= bits << ((self.width - 1 - c) * h1);
        }
        out
    }

    /// The position mirrored left to right.
    pub fn mirrored(&self) -> Self {
        let h1 = self.height + 1;
        let col = (1u64 << h1) - 1;
        let flip = |x: u64| {
            let mut out = 0u64;
            for c in 0..self.width {
                out |= ((x >> (c * h1)) & col) << ((self.width - 1 - c) * h1);
            }
            out
        };
        Connect4 {
            current: flip(self.current),
            mask: flip(self.mask),
            ..*self
        }
    }

    /// The move string as 1-based column digits is not stored; this renders the board instead as
    /// rows of `X` (first player), `O` (second) and `.`, top row first.
    pub fn to_text(&self) -> String {
        let first = self.first_player_stones();
        let mut s = String::new();
        for r in (0..self.height).rev() {
            for c in 0..self.width {
                let b = self.cell(c, r);
                s.push(if first & b != 0 {
                    'X'
                } else if self.mask & b != 0 {
                    'O'
                } else {
                    '.'
                });
            }
            if r > 0 {
                s.push('/');
            }
        }
        s
    }

    /// A multi-line drawing of the board with column numbers underneath.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for line in self.to_text().split('/') {
            for ch in line.chars() {
                s.push(' ');
                s.push(ch);
            }
            s.push('\n');
        }
        for c in 1..=self.width {
            s.push_str(&format!("{:>2}", c % 10));
        }
        s.push('\n');
        s
    }

    /// Stones the side to move has placed so far.
    pub fn stones_of_side_to_move(&self) -> u32 {
        self.current.count_ones()
    }
}

impl Game for Connect4 {
    #[inline]
    fn ply(&self) -> u32 {
        self.ply
    }
    #[inline]
    fn max_ply(&self) -> u32 {
        self.width * self.height
    }
    #[inline]
    fn playable(&self) -> u64 {
        (self.mask + self.bottom) & self.board
    }
    #[inline]
    fn winning_moves(&self) -> u64 {
        self.own_threats() & self.playable()
    }
    #[inline]
    fn non_losing_moves(&self) -> u64 {
        self.non_losing_moves_given(self.opponent_threats())
    }
    #[inline]
    fn safe_moves_and_upper_bound(&self) -> (u64, i32) {
        let threats = self.opponent_threats();
        let safe = self.non_losing_moves_given(threats);
        if safe == 0 {
            return (0, i32::MAX);
        }
        (safe, self.upper_bound_given(threats))
    }
    #[inline]
    fn play(&mut self, mv: u64) {
        self.current ^= self.mask;
        self.mask |= mv;
        self.ply += 1;
    }
    fn last_mover_won(&self) -> bool {
        self.is_won()
    }
    #[inline]
    fn id(&self) -> u128 {
        (self.current as u128) << 64 | self.mask as u128
    }
    #[inline]
    fn key(&self) -> Key {
        let k = self.raw_key();
        let m = self.mirror_key(k);
        let k = k.min(m);
        if self.width * (self.height + 1) <= 62 {
            // the exact code: below 2^62 since the board has at most 62 bits of columns
            Key::new(k)
        } else {
            Key::new(xxhash_rust::xxh3::xxh3_64(&k.to_le_bytes()) >> 2)
        }
    }
    /// Bit operations over at most a handful of bitboards.
    const CHEAP_STATIC_BOUNDS: bool = true;

    /// Cheap strategy arguments bound the score without search:
    ///
    /// 1. A player none of whose lines can still be completed with its own stones plus the empty
    ///    cells can never win: its score is at most 0 (for the side to move) or the opponent's
    ///    at least 0.
    /// 2. Claimeven (Allis): on a board of even height, with an even number of empty cells and
    ///    the side to move P, the opponent O can answer every move of P on an odd row (1-based)
    ///    directly above it, and every move of P onto an even row (only possible at the bottom of
    ///    a column with an odd number of empty cells) by playing the bottom cell of another such
    ///    column, which is again an even-row cell; the number of such columns is even whenever P
    ///    is to move, so one is always there. O thus gets every empty even-row cell except those
    ///    playable right now. If P's stones plus all other empty cells hold no four, P cannot win.
    /// 3. The other side of claimeven: when 2 holds and O's stones plus the cells O gets hold a
    ///    four, P loses. P never completes a four (its stones stay off O's cells), so the game
    ///    goes on until O has taken every cell of that four at the latest; the score is then at
    ///    most -1, the score of a loss on the last stone ([`Game::win_now_score`] is at least 1).
    /// 4. The race under claimeven (after Steininger's evens bound, proved here for every line):
    ///    when 2 holds and P has fours but O has one too, P still loses if each of P's fours
    ///    `L` loses the race to one of O's. Under claimeven O fills only even-row cells, each
    ///    directly above a move of P, or a cell playable now; every odd-row cell that gets filled
    ///    is filled by P. So to complete `L`, P must fill its open cells and every open odd-row
    ///    cell under them (`R`), and the last of these, `f`, is the highest open cell of `L` in its
    ///    column. One of O's fours `M` (its open cells all claimed by O) is complete right after
    ///    P has filled every cell directly below its open cells (`B(M)`). If for every possible
    ///    last cell `f` some `M` has `B(M)` inside `R` without `f`, then whenever P is about to
    ///    complete `L`, O has completed `M` before. No four of P is completed first; the game
    ///    cannot end full (P would have filled every `B(M)`), so O wins: at most -1.
    /// 5. Follow-up up to threats (Allis' odd threat, for either player and any parity; Sogo's
    ///    blocked columns in `game::cube::pairing`): in some columns ("blocked") let O have a
    ///    threat `t` (its stones complete a four there) an even number of cells above the
    ///    column's top stone, the lowest such, and cut each blocked column just below the cell
    ///    under its `t`. Of what is left ("the rest"), call a column even or odd by its number
    ///    of empty cells (a blocked one is now even), and let the odd ones come in pairs (an
    ///    even number of them). O answers every move of P in the rest: directly above it in an
    ///    even column (there is room: the column had an even number of empty cells before P's
    ///    move); in an odd column, where P's move is its first there, by the bottom cell of the
    ///    paired column, after which both are even. P thus only fills the cells an odd number
    ///    of cells above their column's top stone in even columns (in a blocked one up to the
    ///    cell under `t`), and in odd columns the bottom cell and those an even number of cells
    ///    above the top stone. The rest holds an even number of empty cells and O always
    ///    answers inside it, so P is the one who finds it full, must play under some `t` and
    ///    lets O win there (earlier if P plays there sooner). If P's stones plus those cells
    ///    hold no four, P never wins first: P loses, at the latest when the cells from each
    ///    `t` up are empty but one, and so are the cells under the other threats; the bound is
    ///    the score of that loss. Every column with such a threat is blocked (a smaller set of
    ///    P's cells in an even column); if that leaves an odd number of odd columns, one
    ///    blockable odd column is paired instead, each tried.
    #[inline]
    fn static_bounds(&self) -> (i32, i32) {
        let empty = self.board & !self.mask;
        let opponent = self.current ^ self.mask;
        let lo = if has_four(opponent | empty, self.height) {
            i32::MIN
        } else {
            0
        };
        (lo, self.upper_bound_given(self.opponent_threats()))
    }

    /// While hunting a fast win, forcing moves (threats the opponent must answer at once) first.
    #[inline]
    fn urgent_move_score(&self, mv: u64) -> i32 {
        let (score, forcing) = self.threat_profile(mv);
        score + 128 * forcing
    }

    /// Threats the move creates for the mover, weighted for the long game: every threat counts
    /// twice, once more if it sits directly above a playable cell (the opponent can no longer
    /// play below it), once more if its row has the mover's good parity (odd rows for the first
    /// player, even rows for the second, 1-based: Allis' zugzwang rules); ties go to central
    /// columns.
    #[inline]
    fn move_score(&self, mv: u64) -> i32 {
        self.threat_profile(mv).0
    }
}

impl Connect4 {
    /// The ordering score of a move and the number of immediately playable threats it creates.
    #[inline]
    fn threat_profile(&self, mv: u64) -> (i32, i32) {
        let after = self.current | mv;
        let mask = self.mask | mv;
        let threats = line_completions(after, self.height) & (self.board & !mask);
        let playable_after = (mask + self.bottom) & self.board;
        let good_parity = if self.ply % 2 == 0 {
            self.board & !self.even_rows
        } else {
            self.even_rows
        };
        let above_playable = threats & (playable_after << 1);
        let forcing = threats & playable_after;
        let c = self.move_column(mv) as i32;
        let off_centre = (2 * c - (self.width as i32 - 1)).abs();
        let weight = 2 * threats.count_ones()
            + above_playable.count_ones()
            + (threats & good_parity).count_ones();
        (weight as i32 * 64 - off_centre, forcing.count_ones() as i32)
    }

    /// The empty cells the opponent O surely gets by claimeven (rule 2 of
    /// [`Game::static_bounds`]): every even-row cell not playable now; none where claimeven does
    /// not apply (odd height, or the second player to move).
    fn claimeven_cells(&self) -> u64 {
        if self.height % 2 == 0 && self.ply % 2 == 0 {
            self.board & !self.mask & self.even_rows & !self.playable()
        } else {
            0
        }
    }

    /// The non-losing moves when the opponent's threats (empty cells) are `threats`.
    #[inline]
    fn non_losing_moves_given(&self, threats: u64) -> u64 {
        // never play directly below an opponent threat
        blocking_moves(self.playable(), threats) & !(threats >> 1)
    }

    /// The upper bound of [`Game::static_bounds`] (rules 1 to 5) when the opponent's threats
    /// (empty cells) are `threats`.
    #[inline]
    fn upper_bound_given(&self, threats: u64) -> i32 {
        // rule 5's bound, where it holds, is a loss: rules 1 to 4 cannot lower it
        let follow_up = self.follow_up_to_threat_bound(threats);
        if follow_up != i32::MAX {
            return follow_up;
        }
        let empty = self.board & !self.mask;
        let opponent = self.current ^ self.mask;
        let follower = self.claimeven_cells();
        let p_cells = self.current | (empty & !follower);
        let o_cells = opponent | follower;
        let p_has_four = has_four(p_cells, self.height);
        // rule 3 is rule 4 without any four of P to beat (no claimed cells: claimeven does not
        // apply, and O, the game being on, has no four of its stones alone)
        if follower != 0
            && has_four(o_cells, self.height)
            && (!p_has_four || self.every_four_beaten(p_cells, o_cells))
        {
            -1
        } else if !p_has_four {
            0
        } else {
            i32::MAX
        }
    }

    /// Rule 5 of [`Game::static_bounds`]: the side to move's upper bound from the opponent's
    /// follow-up up to its threats (empty cells) `threats`; `i32::MAX` where it does not hold.
    fn follow_up_to_threat_bound(&self, threats: u64) -> i32 {
        let empty = self.board & !self.mask;
        let playable = self.playable();
        // the cells an odd number of cells above their column's top stone: on the rows of the
        // playable cell's parity. The columns whose playable cell is on an odd 0-based row,
        // from there up: each column's spare bit minus that cell (no borrow leaves a column).
        let odd_from = ((self.bottom << self.height) - (playable & self.even_rows)) & self.board;
        let odd = empty & !(odd_from ^ self.even_rows);
        let threats = threats & !odd;
        if threats == 0 {
            return i32::MAX;
        }
        // in every column, its lowest such threat and the cells above it: nobody plays there
        let mut cut = threats;
        for _ in 1..self.height {
            cut |= (cut << 1) & empty;
        }
        let top_row = self.bottom << (self.height - 1);
        let odd_tops = odd & top_row;
        let blockable_tops = cut & top_row;
        let bound_blocking = |blocked_tops: u64| -> i32 {
            let cut = cut & self.columns_of_tops(blocked_tops);
            let paired = self.columns_of_tops(odd_tops & !blocked_tops);
            let p_cells =
                self.current | (odd & !paired & !cut) | (paired & empty & (playable | !odd));
            if has_four(p_cells, self.height) {
                return i32::MAX;
            }
            // F's stone on `t` ends the game at the latest; left empty: the cut cells but
            // that one, and the cells under the other threats
            -(((cut.count_ones() + blocked_tops.count_ones()) / 2) as i32)
        };
        if (odd_tops & !blockable_tops).count_ones() % 2 == 0 {
            return bound_blocking(blockable_tops);
        }
        // the odd columns left unblocked must pair up: pair one of the blockable ones too
        let mut bound = i32::MAX;
        for c in Bits(odd_tops & blockable_tops) {
            bound = bound.min(bound_blocking(blockable_tops & !c));
        }
        bound
    }

    /// Every cell of the columns whose top cells are `tops`: each column's spare bit minus its
    /// bottom cell (no borrow leaves a column).
    #[inline]
    fn columns_of_tops(&self, tops: u64) -> u64 {
        (tops << 1) - (tops >> (self.height - 1))
    }

    /// Whether every four the side to move P could still make under the opponent's claimeven is
    /// beaten by one of the opponent's: the step of rule 4 in [`Game::static_bounds`].
    /// `p_cells`: P's stones and the cells claimeven leaves P; `o_cells`: O's stones and the cells
    /// it claims. Gives up (false) beyond a few lines, which only loses a bound.
    fn every_four_beaten(&self, p_cells: u64, o_cells: u64) -> bool {
        const MAX_LINES: usize = 16;
        let empty = self.board & !self.mask;
        let odd_rows = self.board & !self.even_rows;
        // B(M) for each of O's fours: the cells directly below its empty cells
        let mut o_below = [0u64; MAX_LINES];
        let mut n_o = 0;
        self.for_each_four(o_cells, |line| {
            if n_o == MAX_LINES {
                return false; // fewer of O's lines only make a P line harder to beat: still sound
            }
            o_below[n_o] = (line & empty) >> 1;
            n_o += 1;
            true
        });
        let o_below = &o_below[..n_o];
        let mut n_p = 0;
        self.for_each_four(p_cells, |line| {
            n_p += 1;
            if n_p > MAX_LINES {
                return false;
            }
            let open = line & empty;
            // the empty cells under the line's open cells: a column's empty cells are contiguous
            // from its top, and the cell below a column's lowest empty cell is a stone or the
            // previous column's sentinel (outside `empty`), so the smear stays in its column
            let mut below = open;
            for _ in 1..self.height {
                below |= (below >> 1) & empty;
            }
            let under = below & !open;
            // every cell P must fill itself: the line's open cells and the odd-row cells under
            // them (O only ever fills even rows and cells playable now)
            let required = open | (under & odd_rows);
            // P's last move of the line is the highest open cell of one of its columns
            let tops = open & !under;
            Bits(tops).all(|last| {
                let before_last = required & !last;
                o_below.iter().any(|&b| b & !before_last == 0)
            })
        })
    }

    /// Calls `visit` with every four inside `cells` (a mask of its four cells) while it returns
    /// true; whether every call did.
    #[inline]
    fn for_each_four(&self, cells: u64, mut visit: impl FnMut(u64) -> bool) -> bool {
        let h = self.height;
        for shift in [1, h + 1, h, h + 2] {
            let m = cells & (cells >> shift);
            let starts = m & (m >> (2 * shift));
            for s in Bits(starts) {
                if !visit(s | s << shift | s << (2 * shift) | s << (3 * shift)) {
                    return false;
                }
            }
        }
        true
    }

    /// The legal moves as one-bit masks, in column order.
    pub fn legal_moves(&self) -> impl Iterator<Item = u64> {
        Bits(self.playable())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertical_and_horizontal_wins_detected() {
        let p = Connect4::from_moves(7, 6, "1212121").unwrap();
        assert!(p.is_won());
        let p = Connect4::from_moves(7, 6, "1122334").unwrap();
        assert!(p.is_won());
        let p = Connect4::from_moves(7, 6, "112233").unwrap();
        assert!(!p.is_won());
        assert_eq!(p.winning_moves().count_ones(), 1);
    }

    #[test]
    fn errors_name_the_move() {
        assert_eq!(
            Connect4::from_moves(7, 6, "48").unwrap_err(),
            Connect4Error::ColumnOutOfRange {
                column: 8,
                index: 1,
                width: 7
            }
        );
        assert_eq!(
            Connect4::from_moves(7, 6, "1111111").unwrap_err(),
            Connect4Error::ColumnFull {
                column: 1,
                index: 6
            }
        );
        assert_eq!(
            Connect4::from_moves(7, 6, "12121212").unwrap_err(),
            Connect4Error::GameOver {
                column: 2,
                index: 7
            }
        );
        assert!(matches!(
            Connect4::from_moves(7, 6, "1a").unwrap_err(),
            Connect4Error::BadChar { ch: 'a', index: 1 }
        ));
        assert!(Connect4::new(9, 7).is_err());
        assert!(Connect4::new(8, 7).is_ok());
    }

    /// Every static bound holds against plain minimax, and claimeven's other side (a sure loss)
    /// decides positions, on boards of even and odd height.
    #[test]
    fn static_bounds_hold_against_minimax() {
        use crate::search::reference::minimax;
        use crate::util::random_play::careful_random;
        let mut seed = 0x51a7_1c0b_0d5e_4e11u64;
        // [bounds met, cannot win, loses, can't lose, loses by rule 4, loses by rule 5 where
        // claimeven does not apply, rule 5 tighter than a loss on the last stone]
        let mut seen = [0usize; 7];
        for (w, h) in [(4, 4), (5, 4), (6, 4), (7, 6), (5, 5)] {
            for i in 0..1500 {
                let empties = 6 + i % 7;
                let g = careful_random(Connect4::new(w, h).unwrap(), empties, &mut seed);
                if g.is_over() || g.winning_moves() != 0 {
                    continue;
                }
                let (lo, hi) = g.static_bounds();
                if lo == i32::MIN && hi == i32::MAX {
                    continue;
                }
                let v = minimax(&g);
                assert!(lo <= v && v <= hi, "{w}x{h} {} {lo} {v} {hi}", g.to_text());
                seen[0] += 1;
                seen[1] += (hi == 0) as usize;
                seen[2] += (hi < 0) as usize;
                seen[3] += (lo == 0) as usize;
                // rule 4: a loss although the side to move still has fours of its own
                let p_cells = g.current | (g.board & !g.mask & !g.claimeven_cells());
                let follow_up = g.follow_up_to_threat_bound(g.opponent_threats());
                seen[4] += (hi < 0 && follow_up == i32::MAX && has_four(p_cells, h)) as usize;
                seen[5] += (follow_up < 0 && g.claimeven_cells() == 0) as usize;
                seen[6] += (follow_up < -1) as usize;
            }
        }
        // rule 5 where claimeven does not apply: 280 (266 blocking one column only, 114 without
        // its cut, 83 with one odd column only)
        assert!(
            seen.iter().all(|&n| n >= 10) && seen[2] >= 100 && seen[5] >= 200,
            "{seen:?}"
        );
    }

    #[test]
    fn mirror_key_is_symmetric() {
        let p = Connect4::from_moves(7, 6, "1123").unwrap();
        let q = Connect4::from_moves(7, 6, "7765").unwrap();
        assert_eq!(p.key(), q.key());
        assert_eq!(p.mirrored().raw_key(), q.raw_key());
    }
}
