//! Pairing strategies of the player *not* to move in plain Sogo: static proofs that the side to
//! move cannot win, or even loses, found without search.
//!
//! The follower F (the side not to move) splits the empty cells into pairs and answers every
//! move of the mover S with the other cell of its pair. Gravity decides which pairs F can keep:
//! - **claimeven** (Connect Four's name): in a column with an even number of empty cells, the
//!   cells at offsets 0-1 and 2-3 from its lowest empty cell. S always enters such a pair from
//!   below, so S gets offsets 0 and 2, F offsets 1 and 3;
//! - **baseinverse**: the lowest empty cells of two columns with an odd number of empty cells.
//!   Both are playable; whichever S takes, F takes the other. The cells above pair up as in
//!   claimeven (offsets 1-2: S gets 1, F gets 2);
//! - **level pairs**: two columns whose lowest empty cells are on the same level; F answers
//!   beside S's move, so F gets one cell of each level (tried only against lines that survive);
//! - **blocked column**: a column whose cell at an odd offset is a threat of F (three of F's
//!   stones on a line, the fourth cell empty). Pairs as in claimeven up to the threat; the cell
//!   below it loses for S at once (F completes the line on top), so S plays there only when
//!   nothing else is left, and nobody ever plays above the threat.
//! - **odd threat in an empty column** (Connect Four's odd threat, see [`Position::new`]): a
//!   threat of F on level 3 of a column with no stone. F plays the column as an odd one: its
//!   bottom cell goes into the baseinverse matching, S gets level 2, F the threat on level 3
//!   (S's move under it loses at once), and nobody gets level 4. This changes the parity of
//!   the columns F must match, which is how the first player takes zugzwang from the second.
//!
//! If every empty cell is used (every column claimeven, levelled, blocked, or odd and matched), F
//! always has an answer, and S's stones always lie on S's own cells: a line of S that holds a cell
//! of F, or both cells of a baseinverse or level pair, is never completed. When no line of S survives, S cannot
//! win; and F wins when a column is blocked (S runs out of other moves first: every other
//! pair is filled S first, F second, so it is S who is left to play under a threat) or when a
//! line lies inside F's stones and the cells F surely gets (the board fills up). Such a sure
//! line of F also refutes every line of S that needs a cell above each of its empty cells
//! (**aftereven**): F's cells are filled before the cells above them, so F's line is complete
//! first. This is the core of Allis' rule-based Connect Four player (claimeven, baseinverse,
//! aftereven, and the zugzwang of an odd threat), lifted to sixteen columns; the tests check it
//! against plain search.
//!
//! Not valid under `-g`, where three stones next to an empty cell of the other side make a
//! winning poison.

use super::column_games::{cover_lines, GAME_BUDGET, MAX_LINES};
use super::geometry::{any_line_within, columns, for_each_line_within, spread, BOTTOM, ODD_LEVELS};
use crate::game::Bits;
use arrayvec::ArrayVec;

/// An upper bound on the score of the side to move (stones `s`) against the follower (stones
/// `f`, empty threat cells `f_threats`) from the pairing strategies above: -1 if the follower
/// wins, 0 if the mover cannot win, `i32::MAX` if no pairing proves either. With `games`, where
/// the fixed pairings fail, the columns are also tried in groups played by their own games
/// (`column_games`): more decided, at a cost the proof search does not recover (it asks
/// without; `Cube::pair_games_bound` asks with).
pub(crate) fn follower_bound(s: u64, f: u64, f_threats: u64, games: bool) -> i32 {
    bound_using(
        s,
        f,
        f_threats,
        Strategies {
            games,
            ..Strategies::ALL
        },
    )
}

/// Whether the pairing strategies above prove that the mover S (stones `s`) loses against the
/// follower (stones `f`, empty threat cells `f_threats`): exactly `follower_bound(s, f,
/// f_threats, false) < 0`, found faster. A choice of pairings proves a loss only with a blocked
/// column or a sure line of F ([`Position::outlook`]), so the choices without either are
/// dropped before their lines are looked at: levelling two columns only takes cells from F, so
/// a choice without a sure line of F gets none by levelling. (In the middle game F's claimeven
/// cells usually hold a whole level, so this drops little there; the forcing-win search asks
/// it of every position its threats reach, and the proof search of every move of an attacker.)
pub(crate) fn follower_wins(s: u64, f: u64, f_threats: u64) -> bool {
    bound_using(
        s,
        f,
        f_threats,
        Strategies {
            games: false,
            loss_only: true,
            ..Strategies::ALL
        },
    ) < 0
}

/// How many lines of the mover S the simplest of the pairings leaves whole: claimeven in the
/// even columns, baseinverse in the odd ones, every blockable column blocked (the cells of S and
/// the contested base cells hold the line). A measure of how far the pairings are from proving
/// anything (`cargo bench --bench cube -- coverage`); refuting these lines is what the other
/// strategies (aftereven, the race, level pairs, the matching of base cells) are for.
pub(crate) fn lines_left_whole(s: u64, f: u64, f_threats: u64) -> usize {
    let position = Position::new(s, f, f_threats);
    let cells = position.cells(columns(position.blockers), &Levelled::default());
    let mut count = 0;
    for_each_line_within(s | cells.s_cells | cells.open, |_| count += 1);
    count
}

/// Which pairings [`bound_using`] may use (claimeven always): the tests switch each off to show
/// that it decides positions the others do not.
#[derive(Clone, Copy)]
struct Strategies {
    baseinverse: bool,
    blocking: bool,
    aftereven: bool,
    /// Aftereven generalised to the race (with `aftereven`): see [`beaten`].
    race: bool,
    levelling: bool,
    /// Empty columns under an odd threat of F played as odd ones (see [`Position::new`]).
    odd_threats: bool,
    /// Where the fixed pairings fail: every column played alone or in a pair by its group's
    /// game (`column_games`: lowinverse, highinverse and their mixtures).
    games: bool,
    /// Only a loss of S is wanted ([`follower_wins`]): choices that cannot prove one are not
    /// worked out.
    loss_only: bool,
    /// Level pairs that a second surviving line shows to be in vain are not tried (see
    /// [`Position::bound`]). Speed only: a test checks that it changes no bound.
    level_pruning: bool,
}

impl Strategies {
    const ALL: Strategies = Strategies {
        baseinverse: true,
        blocking: true,
        aftereven: true,
        race: true,
        levelling: true,
        odd_threats: true,
        games: true,
        loss_only: false,
        level_pruning: true,
    };
}

/// [`follower_bound`] with only some of the pairings.
fn bound_using(s: u64, f: u64, f_threats: u64, using: Strategies) -> i32 {
    let position = Position::new(s, f, f_threats);
    let mut best = position.blocked_bound(using);
    if using.odd_threats && best >= 0 {
        // Each empty column under an odd threat of F, played as an odd column: one at a time
        // (one is what changes the parity; two change it back). The pair games see the columns
        // as they are, so they are not asked here.
        let fixed_only = Strategies {
            games: false,
            ..using
        };
        for c in Bits(columns(position.odd_threats)) {
            best = best.min(position.odd_column(c).blocked_bound(fixed_only));
            if best < 0 {
                break;
            }
        }
    }
    best
}

/// What [`follower_bound`] needs to try one choice of blocked columns.
struct Position {
    s: u64,
    f: u64,
    lowest: u64,
    blockers: u64,
    /// The columns F plays as odd ones: an odd number of empty cells, or an empty column F
    /// plays as one under its odd threat (in `odd_columns`).
    odd: u64,
    /// F's threats on level 3 of a column with no stone (see [`Position::new`]).
    odd_threats: u64,
    /// The empty columns of `odd`, played so under an odd threat: never levelled, since a
    /// level pair must take two columns of the same parity.
    odd_columns: u64,
}

/// Columns F pairs level by level (see [`Position::levelled_bound`]), at most
/// [`LEVEL_PAIRS`] pairs.
#[derive(Clone, Copy, Default)]
struct Levelled {
    /// Both columns of every pair (bits 0..16).
    columns: u64,
    pairs: [(u8, u8); LEVEL_PAIRS],
    n: usize,
}

/// How many column pairs F may pair level by level. Each one is tried only to refute a line
/// that survives the other pairings, so the cost grows with the number of such tries: one pair
/// saves nodes on the presets, while a second pair's tries cost more than they save on long
/// plausible-play positions.
const LEVEL_PAIRS: usize = 1;

/// The level pairs F may still try against the lines of S that survive a choice of pairings
/// (see [`Position::bound`]): pairs of columns, at most the six pairs of one line's four cells.
type LevelPairs = ArrayVec<(u8, u8), 6>;

/// Why a choice of pairings failed: `Some(pairs)`, lines S may still complete, which levelling
/// one of `pairs` might refute; or `None`, nothing more can (the baseinverse matching failed, no
/// more levelling is allowed, or no level pair is left).
type Survivor = Option<LevelPairs>;

/// The cells each side gets under one choice of pairings (see [`Position::cells`]).
struct Cells {
    /// The empty cells S gets.
    s_cells: u64,
    /// The empty cells F surely gets.
    f_cells: u64,
    /// The bottom cells of the odd columns F pairs by baseinverse: S gets one of each pair.
    base: u64,
    /// The cells either side may get: `base` and the cells of the level pairs.
    open: u64,
}

impl Position {
    /// The position of S and F, every column as it is.
    ///
    /// Odd threats (the cells `odd_threats`): F's threat on level 3 (0-based 2) of a column
    /// with no stone yet. F may play such a column as an odd one (its four cells: `b` the
    /// bottom, `u` above it, `t` the threat, `a` on top): `b` is matched by baseinverse with
    /// the bottom cell of another column played as odd (whichever of the two S takes, F takes
    /// the other; both are always playable), and `u` is left to S. S never plays `u` while
    /// anything else is left, since F answers it with `t` and completes its line; so the
    /// game ends on `t` before anyone can play `a`, and `a` is nobody's. The column is then
    /// exactly a baseinverse column of three cells (`b` open, `u` S's, `t` F's) with a cell
    /// above it that is never played: every argument of [`Position::bound`] holds for it as
    /// for any matched column, with F's threat line among F's sure lines (so no line of S
    /// left means a loss for S: S runs out of other moves first and must play `u`). It is a
    /// strategy only if the columns F matches pair up, and playing an even column as odd
    /// changes their parity: with S = the second player to move, an odd number of columns
    /// is odd, and without a blocked odd column the plain pairings prove nothing; one such
    /// threat of the first player's fixes that (Allis' odd threat, the first player's way to
    /// zugzwang in Connect Four). A threat on level 3 over one empty cell is a blocked
    /// column already, and on level 4 over three empty cells F's cell by baseinverse.
    fn new(s: u64, f: u64, f_threats: u64) -> Self {
        let occ = s | f;
        let lowest = ((occ << 16) | BOTTOM) & !occ;
        Position {
            s,
            f,
            lowest,
            // threat cells at odd offsets from their column's lowest empty cell (shifts past
            // level 3 fall off the board)
            blockers: f_threats & (lowest << 16 | lowest << 48),
            // a column's empty count is odd when its lowest empty cell is on level 1 or 3
            odd: columns(lowest & ODD_LEVELS),
            odd_threats: f_threats & (lowest & BOTTOM) << 32,
            odd_columns: 0,
        }
    }

    /// The same position with the empty column `c` (a bit of `columns(self.odd_threats)`)
    /// played as an odd one under F's odd threat (see [`Position::new`]).
    fn odd_column(&self, c: u64) -> Position {
        Position {
            odd: self.odd | c,
            odd_columns: self.odd_columns | c,
            ..*self
        }
    }

    /// The bound over the choices of blocked columns for this position's odd columns.
    fn blocked_bound(&self, using: Strategies) -> i32 {
        let odd = self.odd;
        let blockable = if using.blocking {
            columns(self.blockers)
        } else {
            0
        };
        if !using.baseinverse && odd & !blockable != 0 {
            return i32::MAX;
        }
        // Blocking a column is always at least as good for F as pairing it, except that the
        // odd columns left unblocked must pair up: if their number is odd, one blockable odd
        // column is matched instead of blocked.
        let mut budget = GAME_BUDGET;
        let mut bound = |blocked| match self.levelled_bound(blocked, Levelled::default(), using) {
            i32::MAX if using.games => self.games_bound(blocked, &mut budget),
            b => b,
        };
        if (odd & !blockable).count_ones() % 2 == 0 {
            return bound(blockable);
        }
        let mut best = i32::MAX;
        for c in Bits(odd & blockable) {
            best = best.min(bound(blockable & !c));
            if best < 0 {
                break;
            }
        }
        best
    }

    /// Who gets which cell when the columns `blocked` are blocked, the pairs `levelled` are
    /// paired level by level, the other odd columns are paired by baseinverse, and the even
    /// ones are claimeven.
    #[inline]
    fn cells(&self, blocked: u64, levelled: &Levelled) -> Cells {
        let lowest = self.lowest;
        let empty = !(self.s | self.f);
        let block = self.blockers & spread(blocked);
        let above = block << 16 | block << 32 | block << 48;
        let level = spread(levelled.columns);
        let fixed = !level & !above;
        let matched = spread(self.odd & !blocked & !levelled.columns);
        let base = lowest & matched;
        Cells {
            s_cells: ((lowest | lowest << 32) & !matched & fixed) | (lowest << 16 & matched),
            f_cells: ((lowest << 16 | lowest << 48) & !matched & fixed) | (lowest << 32 & matched),
            base,
            open: base | (level & empty),
        }
    }

    /// [`Position::bound`], and where a line of S survives, the same with two of its columns
    /// paired *level by level* instead: two columns whose lowest empty cells are on the same
    /// level stay level if F answers S's move in one with the cell beside it in the other, so F
    /// gets one cell of each level of the pair (Allis' baseinverse repeated up the columns, as
    /// in his highinverse). That refutes the horizontal lines claimeven and baseinverse leave,
    /// at the price of the columns' claimeven cells.
    fn levelled_bound(&self, blocked: u64, levelled: Levelled, using: Strategies) -> i32 {
        let pairs = match self.bound(blocked, &levelled, using) {
            Ok(v) => return v,
            Err(Some(pairs)) => pairs,
            Err(None) => return i32::MAX,
        };
        let mut best = i32::MAX;
        for (a, b) in pairs {
            let mut next = levelled;
            next.columns |= 1 << a | 1 << b;
            next.pairs[next.n] = (a, b);
            next.n += 1;
            best = best.min(self.levelled_bound(blocked, next, using));
            if best < 0 {
                return best;
            }
        }
        best
    }

    /// The level pairs that could refute the surviving `line` (its empty cells in two free
    /// columns whose lowest empty cells are on one level, both cells on one level too), in the
    /// order [`Position::levelled_bound`] tries them.
    fn level_pairs(&self, blocked: u64, levelled: &Levelled, line: u64) -> LevelPairs {
        let empty = !(self.s | self.f);
        let free = BOTTOM & !blocked & !levelled.columns & !self.odd_columns;
        let cells = line & empty & spread(free);
        // the level of a column's lowest empty cell, as a bit position (16 per level)
        let lowest_level = |c: u32| (self.lowest >> c & 0x0001_0001_0001_0001).trailing_zeros();
        let mut pairs = LevelPairs::new();
        for x in Bits(cells) {
            for y in Bits(cells & !(x | (x - 1))) {
                let (cx, cy) = (x.trailing_zeros() & 15, y.trailing_zeros() & 15);
                let same_level = x.trailing_zeros() / 16 == y.trailing_zeros() / 16;
                if cx == cy || !same_level || lowest_level(cx) != lowest_level(cy) {
                    continue;
                }
                pairs.push((cx as u8, cy as u8));
            }
        }
        pairs
    }

    /// The bound when the columns `blocked` are blocked and every other column is played in a
    /// group of its own (`column_games`): an even column alone, or two columns of the same
    /// parity together, each group by its own game; a search for a grouping under which every
    /// line of S holds a set of cells that F gets in one group's game. The race (see
    /// [`beaten`]) still refutes lines, with F's sure lines and S's cells taken from the
    /// blocked columns only (below their threats F answers S's move with the cell right above
    /// it, which is all the race assumes). The conclusions are those of [`Position::bound`]
    /// (a blocked column, or a sure line of F, makes it a loss for S): every group of cells is
    /// filled S first, F second, as there.
    fn games_bound(&self, blocked: u64, budget: &mut u32) -> i32 {
        let empty = !(self.s | self.f);
        let free = columns(empty) & !blocked;
        let pairs = Levelled {
            columns: free,
            ..Levelled::default()
        };
        let Cells {
            s_cells,
            f_cells,
            open,
            ..
        } = self.cells(blocked, &pairs);
        let outlook = self.outlook(blocked, f_cells);
        let mut sure = LineList::new();
        sure_lines(outlook.f_line, outlook.sure_f, empty, &mut sure);
        // the lines of S the pairs must refute, each cut down to the pairs' cells
        let mut lines = LineList::new();
        let mut unrefutable = false;
        for_each_line_within(self.s | s_cells | open, |line| {
            if !beaten(line & empty, s_cells, &sure, true) {
                unrefutable |= line & open == 0;
                lines.push(line & open);
            }
        });
        if unrefutable || lines.len() > MAX_LINES {
            return i32::MAX;
        }
        // the lines through fewest columns first: they leave the search fewest choices
        lines.sort_by_key(|&l| columns(l).count_ones());
        match cover_lines(free, self.odd & free, empty, &lines, budget) {
            Some(true) => outlook.conclusion,
            _ => i32::MAX,
        }
    }

    /// The bound when the columns `blocked` are blocked, the pairs `levelled` are paired level
    /// by level, the other odd columns are paired by baseinverse, and the even ones are
    /// claimeven; or why it fails.
    ///
    /// Where a line of S survives and levelling may still refute it, the pairs that could (see
    /// [`Position::level_pairs`]) are returned; when the pair to come is the last one allowed,
    /// the other lines are looked at too, and a pair is dropped when another surviving line `M`
    /// (not beaten, no level pair held, at most one base cell) has no empty cell in either of
    /// its columns, because `M` survives that pair as well. Proof: levelling the columns `a`, `b`
    /// changes only the cells of `a` and `b` (they become open, neither S's nor F's) and takes
    /// `a`, `b` out of the baseinverse matching. So `M`'s empty cells keep their owners and its
    /// base cells stay base cells; `M` holds no cell of the new pair; F's sure cells only
    /// shrink, so its sure lines are a subset of the earlier ones (none if it had none), and
    /// [`beaten`], which needs one of them with its cells below inside what S must fill for
    /// `M` (unchanged: those are cells of `M`'s columns), refutes `M` no more than before. No
    /// further pair comes after the last one, so the choice with `a`, `b` levelled fails with
    /// `M` left whole: trying it could only give `i32::MAX`.
    fn bound(&self, blocked: u64, levelled: &Levelled, using: Strategies) -> Result<i32, Survivor> {
        let empty = !(self.s | self.f);
        let Cells {
            s_cells,
            f_cells,
            base,
            open,
        } = self.cells(blocked, levelled);
        let reach = self.s | s_cells;
        let outlook = self.outlook(blocked, f_cells);
        if using.loss_only && outlook.conclusion == 0 {
            // no loss of S from this choice, nor from levelling more of it (see `follower_wins`)
            return Err(None);
        }
        if !any_line_within(reach | open) {
            return Ok(outlook.conclusion);
        }
        let aftereven = using.aftereven && outlook.f_line;
        if !aftereven && !using.levelling && any_line_within(reach) {
            // a line S gets whatever F does
            return Err(None);
        }
        // Aftereven (Allis) and the race: F's sure lines, each with its empty cells; a line of
        // S that only gets complete after one of them is refuted (see `beaten`).
        let mut sure = LineList::new();
        sure_lines(aftereven, outlook.sure_f, empty, &mut sure);
        // the other lines S could get: each must hold both cells of a level pair, or two base
        // cells F pairs together
        // (in the order of `LINES`: families in the same order, lines by their first cells)
        let mut within = LineList::new();
        for_each_line_within(reach | open, |line| within.push(line));
        let mut needs = LineList::new();
        let levelling = using.levelling && levelled.n < LEVEL_PAIRS;
        let pruning = using.level_pruning && levelled.n + 1 == LEVEL_PAIRS;
        let mut survivor: Option<LevelPairs> = None;
        for &line in &within {
            if let Some(pairs) = &mut survivor {
                // a pair with no empty cell of another surviving line in its columns is in vain
                // (see above); a line with cells in the columns of every pair rules none out,
                // so it is not looked at
                let own = columns(line & empty);
                let in_vain = |&(a, b): &(u8, u8)| own & (1 << a | 1 << b) == 0;
                if !pairs.iter().any(in_vain) {
                    continue;
                }
                let fate = unrefuted(line & empty, s_cells, base, &sure, levelled, using.race);
                if fate.is_some_and(|cols| cols & cols.wrapping_sub(1) == 0) {
                    pairs.retain(|pair| !in_vain(pair));
                    if pairs.is_empty() {
                        return Err(None);
                    }
                }
                continue;
            }
            let Some(cols) = unrefuted(line & empty, s_cells, base, &sure, levelled, using.race)
            else {
                continue;
            };
            if cols & cols.wrapping_sub(1) != 0 {
                // two base cells or more: refuted if the matching pairs two of them
                needs.push(cols);
                continue;
            }
            // no base cell, or one: S takes it first, unless a level pair refutes the line
            if !levelling {
                return Err(None);
            }
            let pairs = self.level_pairs(blocked, levelled, line);
            if pairs.is_empty() || !pruning {
                return Err((!pairs.is_empty()).then_some(pairs));
            }
            survivor = Some(pairs);
        }
        if survivor.is_some() {
            return Err(survivor);
        }
        let mut partner = [u8::MAX; 16];
        if !pair_up(
            self.odd & !blocked & !levelled.columns,
            &needs,
            &mut partner,
        ) {
            return Err(None);
        }
        Ok(outlook.conclusion)
    }
}

/// What F has under one choice of pairings (see [`Position::outlook`]).
struct Outlook {
    /// F's stones and the empty cells it surely gets.
    sure_f: u64,
    /// Whether a line lies inside `sure_f`: F completes it by the end at the latest (the board
    /// fills up).
    f_line: bool,
    /// What the choice proves for S if no line of S survives it: -1 (a loss) with a blocked
    /// column or F's line, else 0 (S cannot win).
    conclusion: i32,
}

impl Position {
    /// What F has when the columns `blocked` are blocked and F surely gets the empty cells
    /// `f_cells`: the one place [`Position::bound`] and [`Position::games_bound`] decide between
    /// "S loses" and "S cannot win".
    fn outlook(&self, blocked: u64, f_cells: u64) -> Outlook {
        let sure_f = self.f | f_cells;
        let f_line = any_line_within(sure_f);
        Outlook {
            sure_f,
            f_line,
            conclusion: if blocked != 0 || f_line { -1 } else { 0 },
        }
    }
}

/// F's sure lines (the lines inside `sure_f`, F's stones and the cells F surely gets), each as
/// its empty cells, into `sure` (none unless `wanted`). What aftereven and the race
/// compare S's lines with.
fn sure_lines(wanted: bool, sure_f: u64, empty: u64, sure: &mut LineList) {
    if wanted {
        for_each_line_within(sure_f, |line| sure.push(line & empty));
    }
}

/// The columns of the base cells in the empty cells `open` of a line of S, unless the line is
/// refuted without the matching of base cells: beaten by one of F's sure lines `sure` (see
/// [`beaten`]) or holding both cells of a level pair. With two base columns or more the
/// matching may still refute it; with at most one the line survives.
#[inline]
fn unrefuted(
    open: u64,
    s_cells: u64,
    base: u64,
    sure: &[u64],
    levelled: &Levelled,
    race: bool,
) -> Option<u64> {
    let held = levelled.pairs[..levelled.n]
        .iter()
        .any(|&(a, b)| holds_level_pair(open, a, b));
    (!held && !beaten(open, s_cells, sure, race)).then(|| columns(open & base))
}

/// Up to all 76 lines, each as a set of cells (or of columns), kept on the stack. Not zeroed
/// when made, unlike an array: the bound makes such lists for every choice of pairings it
/// tries, and clearing them showed in the profiles (`solve-runs/milestone-line-cost-curve.txt`).
type LineList = ArrayVec<u64, 76>;

/// Whether the empty cells `cells` of a line hold two cells on the same level in the columns
/// `a` and `b`.
fn holds_level_pair(cells: u64, a: u8, b: u8) -> bool {
    const LANE_BASES: u64 = 0x0001_0001_0001_0001;
    (cells >> a) & (cells >> b) & LANE_BASES != 0
}

/// Whether S's line with the empty cells `open` is refuted by one of F's sure lines (their
/// empty cells in `sure`) because F completes that line first.
///
/// Aftereven (Allis): the line has a cell above each empty cell of one sure line. F's cells are
/// filled before any cell above them, so F's line is complete first.
///
/// The race (with `race`; it decides everything aftereven does, and more): an empty cell `c` of
/// a sure line is one of F's cells, in every pairing F answers S's move directly below it with
/// `c` (claimeven and the cells above a baseinverse or a blocked column's base), so a sure line
/// `M` is complete right after S has filled `B(M)`, the cells directly below its empty cells
/// (S's cells, only ever filled by S). To complete its line `L`, S must fill `L`'s empty cells
/// and, before each, every one of S's cells below it (`R`); the last of these, `t`, is the
/// highest empty cell of `L` in its column. If for every such `t` some `M` has `B(M)` inside
/// `R` without `t`, then when S is about to complete `L`, F has completed `M` already. (Each
/// `M` with `c` above `b`: `b` in `R` means S filled `b`, and F answered with `c` before S's next
/// move.) Aftereven is the case where `L` has a cell above every `c`: then every `b` is in `R`
/// below a cell of `L`, so never `t`.
fn beaten(open: u64, s_cells: u64, sure: &[u64], race: bool) -> bool {
    if !race {
        return sure
            .iter()
            .any(|&m| Bits(m).all(|c| open & (c << 16 | c << 32 | c << 48) != 0));
    }
    let below = open >> 16 | open >> 32 | open >> 48;
    let required = open | (below & s_cells);
    let tops = open & !below;
    // the sure lines with B(M) inside R; one of them avoids a last cell t unless all hold t
    let mut common = u64::MAX;
    let mut any = false;
    for &m in sure {
        let b = m >> 16;
        if b & !required == 0 {
            common &= b;
            any = true;
        }
    }
    any && tops & common == 0
}

/// Pairs the columns `free` (an even number) so that every line of `needs` (a set of columns
/// each) holds both columns of some pair; `partner` records the pairs made so far.
fn pair_up(free: u64, needs: &[u64], partner: &mut [u8; 16]) -> bool {
    let holds_pair = |line: u64, partner: &[u8; 16]| {
        Bits(line).any(|c| {
            let p = partner[c.trailing_zeros() as usize];
            p != u8::MAX && line & 1 << p != 0
        })
    };
    let Some(&line) = needs.iter().find(|&&l| !holds_pair(l, partner)) else {
        // the remaining columns pair up in any way
        return true;
    };
    let choices = line & free;
    for a in Bits(choices) {
        for b in Bits(choices & !(a | (a - 1))) {
            let (i, j) = (a.trailing_zeros() as usize, b.trailing_zeros() as usize);
            partner[i] = j as u8;
            partner[j] = i as u8;
            if pair_up(free & !(a | b), needs, partner) {
                return true;
            }
            partner[i] = u8::MAX;
            partner[j] = u8::MAX;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::geometry::LINES;
    use super::*;
    use crate::game::{Cube, Game, Player, Rules};
    use crate::search::negamax::{Depth, Options, Searcher};
    use crate::search::order::plausible_line_within;
    use crate::search::reference::minimax;
    use crate::search::{MemoryTable, Table};
    use crate::util::random_play::careful_random;
    use crate::util::rng::xorshift as rng;

    /// The bound for the side to move of `g`.
    fn bound(g: &Cube, using: Strategies) -> i32 {
        let p = Player::of_ply(g.ply());
        let (s, f) = (g.stones_of(p), g.stones_of(p.other()));
        bound_using(s, f, g.threats_of(p.other()), using)
    }

    /// Every bound holds against plain minimax, and each pairing decides positions that the
    /// others leave open (so each is tested, not just present).
    #[test]
    fn bounds_hold_and_each_pairing_decides_positions() {
        let mut seed = 0x9a1e_d0c5_3b7f_0042u64;
        let without = |baseinverse, blocking, aftereven, levelling| Strategies {
            baseinverse,
            blocking,
            aftereven,
            race: true,
            levelling,
            odd_threats: true,
            games: false,
            loss_only: false,
            level_pruning: true,
        };
        // [any bound, a loss proved, baseinverse needed, blocking needed, levelling needed],
        // the fixed pairings only (the pair games, which decide most of what levelling does,
        // and aftereven need longer lines than these small positions have: see the next test)
        let mut seen = [0; 5];
        for _ in 0..6000 {
            let empties = 9 + (rng(&mut seed) % 3) as u32;
            let g = careful_random(Cube::new(Rules::Sogo), empties, &mut seed);
            let all = bound(&g, Strategies::ALL);
            let b = bound(&g, without(true, true, true, true));
            assert!(all <= b, "{}", g.to_hex());
            if all == i32::MAX {
                continue;
            }
            let v = minimax(&g);
            assert!(v <= all, "{} bound {all} value {v}", g.to_hex());
            if b == i32::MAX {
                continue;
            }
            seen[0] += 1;
            seen[1] += (b < 0) as usize;
            seen[2] += (bound(&g, without(false, true, true, true)) > b) as usize;
            seen[3] += (bound(&g, without(true, false, true, true)) > b) as usize;
            seen[4] += (bound(&g, without(true, true, true, false)) > b) as usize;
        }
        assert!(seen.iter().all(|&n| n >= 20), "{seen:?}");
    }

    /// Where the simplest pairing is a strategy (an even number of odd columns left to pair) and
    /// leaves no line of S whole, the bound proves something; and the count falls as the board
    /// fills (the coverage bench's measure means what it says).
    #[test]
    fn no_line_left_whole_means_a_bound() {
        let mut seed = 0x11fe_5eed_u64;
        let (mut checked, mut by_empties) = (0, [0usize; 2]);
        for i in 0..4000 {
            let empties = if i % 2 == 0 { 10 } else { 40 };
            let Some(g) = plausible(empties, !0, &mut seed) else {
                continue;
            };
            let p = Player::of_ply(g.ply());
            let (s, f, t) = (
                g.stones_of(p),
                g.stones_of(p.other()),
                g.threats_of(p.other()),
            );
            let left = lines_left_whole(s, f, t);
            by_empties[i % 2] += left;
            let position = Position::new(s, f, t);
            let unblocked_odd = position.odd & !columns(position.blockers);
            if left == 0 && unblocked_odd.count_ones() % 2 == 0 {
                assert_ne!(follower_bound(s, f, t, false), i32::MAX, "{}", g.to_hex());
                checked += 1;
            }
        }
        assert!(checked >= 20, "{checked}");
        assert!(by_empties[0] < by_empties[1], "{by_empties:?}");
    }

    /// Stones stacked in random columns of random heights, each of a random colour (not
    /// necessarily a reachable position: the pairings' arguments hold for any such board), as
    /// the stones of S, of F, and F's empty threat cells.
    fn random_stacks(seed: &mut u64) -> (u64, u64, u64) {
        let (mut s, mut f) = (0, 0);
        for c in 0..16 {
            for z in 0..rng(seed) % 5 {
                let cell = 1u64 << (c + 16 * z);
                if rng(seed) % 2 == 0 {
                    s |= cell;
                } else {
                    f |= cell;
                }
            }
        }
        let empty = !(s | f);
        let threats = LINES
            .iter()
            .filter(|&&l| (l & f).count_ones() == 3 && l & empty != 0)
            .fold(0, |t, &l| t | l & empty);
        (s, f, threats)
    }

    /// The lines of S that survive a choice of pairings (`Position::bound` with every pairing
    /// on), found line by line.
    fn survivors(position: &Position, blocked: u64, levelled: &Levelled) -> Vec<u64> {
        let empty = !(position.s | position.f);
        let cells = position.cells(blocked, levelled);
        let outlook = position.outlook(blocked, cells.f_cells);
        let mut sure = LineList::new();
        sure_lines(outlook.f_line, outlook.sure_f, empty, &mut sure);
        let mut lines = Vec::new();
        for_each_line_within(position.s | cells.s_cells | cells.open, |line| {
            let fate = unrefuted(
                line & empty,
                cells.s_cells,
                cells.base,
                &sure,
                levelled,
                true,
            );
            if fate.is_some_and(|cols| cols.count_ones() <= 1) {
                lines.push(line);
            }
        });
        lines
    }

    /// Skipping the level pairs that a second surviving line rules out changes no bound (with
    /// or without the pair games, and asked for a loss only), and each skip is checked against
    /// the proof at `Position::bound`: for every pair skipped in a first choice of pairings,
    /// some surviving line has no empty cell in its columns, that line still survives with the
    /// pair levelled, and the choice with the pair levelled fails.
    #[test]
    fn level_pruning_changes_no_bound_and_skips_only_pairs_in_vain() {
        let mut seed = 0x1e7e_1ed0_9a17_5002u64;
        let without = |games, loss_only| Strategies {
            games,
            loss_only,
            level_pruning: false,
            ..Strategies::ALL
        };
        let (mut skipped, mut kept) = (0, 0);
        for _ in 0..100_000 {
            let (s, f, t) = random_stacks(&mut seed);
            let board = format!("{s:#x}:{f:#x}");
            for (games, loss_only) in [(true, false), (false, false), (false, true)] {
                let plain = without(games, loss_only);
                let pruned = Strategies {
                    level_pruning: true,
                    ..plain
                };
                assert_eq!(
                    bound_using(s, f, t, pruned),
                    bound_using(s, f, t, plain),
                    "{board} games {games} loss only {loss_only}"
                );
            }
            // the first choice of pairings: every blockable column blocked
            let position = Position::new(s, f, t);
            let blocked = columns(position.blockers);
            let none = Levelled::default();
            let pairs = |level_pruning| {
                let using = Strategies {
                    level_pruning,
                    ..without(false, false)
                };
                match position.bound(blocked, &none, using) {
                    Err(Some(pairs)) => pairs.to_vec(),
                    _ => Vec::new(),
                }
            };
            let (all, left) = (pairs(false), pairs(true));
            let survived = survivors(&position, blocked, &none);
            let empty = !(s | f);
            for &(a, b) in &all {
                if left.contains(&(a, b)) {
                    kept += 1;
                    continue;
                }
                skipped += 1;
                let pair = 1u64 << a | 1 << b;
                let outside = survived.iter().find(|&&m| columns(m & empty) & pair == 0);
                let &m = outside.unwrap_or_else(|| panic!("{board}: ({a}, {b}) skipped"));
                let mut next = none;
                next.columns = pair;
                next.pairs[0] = (a, b);
                next.n = 1;
                assert!(
                    survivors(&position, blocked, &next).contains(&m),
                    "{board}: {m:#x} refuted by ({a}, {b})"
                );
                assert!(
                    position
                        .bound(blocked, &next, without(false, false))
                        .is_err(),
                    "{board}: ({a}, {b}) decides"
                );
            }
        }
        eprintln!("level pairs skipped {skipped}, kept {kept}");
        assert!(skipped >= 1000 && kept >= 1000, "{skipped} {kept}");
    }

    /// A position with `empties` empty cells after plausible play from the empty board (see
    /// `order::plausible_line`: careful random play leaves few of the long lines that aftereven
    /// and level pairs need), every move in the cells `allowed`. `None` if the game ended first
    /// or no safe move was left in them.
    fn plausible(empties: u32, allowed: u64, seed: &mut u64) -> Option<Cube> {
        let mut g = Cube::new(Rules::Sogo);
        for mv in plausible_line_within(&g, 64 - empties, 3, allowed, || rng(seed))? {
            g.play(mv);
        }
        Some(g)
    }

    /// `b` bounds the value of `g` for its side to move by alpha-beta without static bounds
    /// (itself checked against minimax), with `table` cleared first.
    fn holds_against_search(table: &MemoryTable, g: &Cube, b: i32) {
        table.clear();
        let mut plain = Searcher::new(table).with_options(Options::baseline());
        let v = plain.solve(g, Depth::Weak).unwrap().signum();
        assert!(v <= b, "{} bound {b} value {v}", g.to_hex());
    }

    /// Odd threats in empty columns decide positions that every other pairing leaves open (a
    /// loss of S where they proved at most "S cannot win", or where they proved nothing), most
    /// with the second player to move, as the parity argument says; each such bound holds
    /// against alpha-beta without static bounds.
    #[test]
    fn odd_threats_in_empty_columns_hold_against_search_without_bounds() {
        let table = MemoryTable::with_bytes(16 << 20);
        let mut seed = 0x0dd7_7123_a7e0_0003u64;
        let no_odd_threats = Strategies {
            odd_threats: false,
            ..Strategies::ALL
        };
        // positions decided only with odd threats: the first player to move, the second
        let mut decided = [0; 2];
        for _ in 0..200_000 {
            let empties = 13 + (rng(&mut seed) % 8) as u32;
            let column = (rng(&mut seed) % 16) as u32;
            // the column stays empty, as an odd threat's column must be
            let Some(g) = plausible(empties, !spread(1 << column), &mut seed) else {
                continue;
            };
            let b = bound(&g, Strategies::ALL);
            if b == i32::MAX || bound(&g, no_odd_threats) <= b {
                continue;
            }
            assert_eq!(
                b,
                -1,
                "{}: an odd threat proves a loss or nothing",
                g.to_hex()
            );
            holds_against_search(&table, &g, b);
            decided[g.ply() as usize % 2] += 1;
            if decided[1] >= 40 {
                break;
            }
        }
        eprintln!("decided only by odd threats (first player to move, second): {decided:?}");
        assert!(decided[1] >= 30, "{decided:?}");
    }

    /// Aftereven, the race, level pairs and the pair games decide positions mostly with more
    /// empty cells than plain minimax can take, so there the reference is alpha-beta without
    /// static bounds (itself checked against minimax).
    #[test]
    fn aftereven_race_and_levelling_hold_against_search_without_bounds() {
        let table = MemoryTable::with_bytes(16 << 20);
        let mut seed = 0x0af7_e2e0_0000_0017u64;
        let no_aftereven = Strategies {
            aftereven: false,
            ..Strategies::ALL
        };
        let no_levelling = Strategies {
            levelling: false,
            ..Strategies::ALL
        };
        let no_race = Strategies {
            race: false,
            ..Strategies::ALL
        };
        let no_games = Strategies {
            games: false,
            ..Strategies::ALL
        };
        // positions decided only with aftereven, only with level pairs, only with the race,
        // only with the pair games
        let mut decided = [0; 4];
        for _ in 0..100_000 {
            let empties = 13 + (rng(&mut seed) % 8) as u32;
            let Some(g) = plausible(empties, !0, &mut seed) else {
                continue;
            };
            let b = bound(&g, Strategies::ALL);
            if b == i32::MAX {
                continue;
            }
            let needs = [
                bound(&g, no_aftereven) > b,
                bound(&g, no_levelling) > b,
                bound(&g, no_race) > b,
                bound(&g, no_games) > b,
            ];
            if !needs.contains(&true) {
                continue;
            }
            holds_against_search(&table, &g, b);
            for (count, needed) in decided.iter_mut().zip(needs) {
                *count += needed as usize;
            }
            if decided.iter().all(|&n| n >= 30) {
                break;
            }
        }
        assert!(decided.iter().all(|&n| n >= 20), "{decided:?}");
    }
}
