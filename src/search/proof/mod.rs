//! Depth-first proof-number search (df-pn) for one yes/no question: "does this side win?".
//!
//! Alpha-beta proves a win by searching the winner's moves in order, and a poorly ordered first
//! move costs a full refutation before the right one is tried. Proof-number search instead
//! always expands the position that is cheapest to settle (fewest leaves still to prove or
//! disprove), which is what made Qubic and Go-Moku solvable (Allis 1994). This is Nagai's
//! depth-first form, which needs memory only for a transposition table, with forcing-win search
//! ([`crate::search::vcf`]) as the leaf test of the attacker's positions. (Pawlewicz and Lew's
//! "1 + epsilon" thresholds were tried and dropped: the Qubic test positions of the benchmark took
//! several times the nodes, the forcing-win leaves settle most subtrees anyway; in a full table
//! on a milestone-line position too, as the README measures.)
//!
//! Numbers are kept in the phi/delta form: at every position, `phi` is the proof number of "the
//! side to move reaches its goal" and `delta` its disproof number, where the attacker's goal is
//! to win and the defender's to stop that (a draw is a defender success). Then phi of a position
//! is the least delta of its children and delta combines their phis (here the weak form: the
//! largest plus one per other open child), for both sides.
//!
//! Exactness rests on the [`crate::game::Game`] contract only: a position is settled by an
//! immediate win, by [`crate::game::Game::non_losing_moves`] being empty (the side to move loses
//! on the next stone), by a full board, by a proved [`crate::game::Game::static_bounds`], or by a
//! forcing win, each of which is a proof; all other positions are expanded move by move. Keys are
//! the game's symmetry-normalised keys, tagged with the attacker's colour, so both questions can
//! share one table. A replay of a sibling's proof settles a position only through such
//! proofs of its own positions.
//!
//! Several threads can work on one question ([`ProofSearch::with_threads`]): they share the
//! lock-less table and split the defender's moves among themselves. What only changes the
//! speed — the order bias, deferred threat zones, replays, threads, the table's size — is
//! tested never to change a value.
//!
//! The module by job: [`ProofTable`] (`proof_table`), the df-pn engine [`ProofSearch`]
//! (`dfpn`), the per-thread cache of expanded positions' children (`children`), replays of a
//! sibling's proof (`simulation`), the threads of one question (`parallel`), the best moves
//! once a value is known (`best_moves`), and the tuning defaults (`tuning`).

mod best_moves;
mod children;
mod dfpn;
mod job;
mod pack;
mod parallel;
mod proof_table;
mod settled;
mod simulation;
mod standing;
mod tuning;

pub(crate) use dfpn::{biased, unbiased};
pub use job::{ChildNumbers, JobAnswer, Numbers, Scratch};
pub use pack::{pack, Pack, WALK_MIN_WORK};
pub use proof_table::ProofTable;
pub use settled::{answer_from_bounds, bounds_from_outcome, Settled};
pub use standing::{standings, AtOnce, MoveStanding, Standing};
pub use tuning::{DEFAULT_ORDER_BIAS, DEFAULT_VCF_BUDGET, ENDGAME_FORCING_MIN_EMPTY};

use super::vcf::ForcingSearch;
use super::MemoryTable;
use crate::game::Player;
use children::ChildCache;
use parallel::Shared;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Memory each thread of a proof search holds besides the shared tables: its cache of children
/// and its forcing-win search (an endgame's alpha-beta borrows the latter). What `--mem` leaves
/// for the tables is the budget less this per thread.
pub const PER_THREAD_BYTES: u64 = children::CHILD_CACHE_BYTES + crate::search::vcf::FORCING_BYTES;

/// The proof or disproof number of what cannot be done. Numbers (and thresholds) stay at or
/// below it, so that a table entry holds both in 29 bits each.
pub const INFINITE: u32 = 1 << 28;

/// "The side to move reaches its goal": phi 0, delta infinite.
const SUCCEEDS: (u32, u32) = (0, INFINITE);
/// "The side to move fails": phi infinite, delta 0.
const FAILS: (u32, u32) = (INFINITE, 0);

/// The proof table's tag of the position keyed `key` in the question "does `attacker` win?":
/// the 62-bit key with the attacker's colour in bit 62 and a set bit 63 (no empty slot
/// validates), so that both questions share one table. The one place its raw word is made.
#[inline]
pub fn question_tag(key: crate::game::Key, attacker: Player) -> u64 {
    key.get() | (attacker.index() as u64) << 62 | 1 << 63
}

/// The key a [`question_tag`] was made of.
pub fn tag_key(tag: u64) -> crate::game::Key {
    crate::game::Key::new(tag & crate::game::Key::MAX.get())
}

/// The two questions whose answers make a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Does the side to move win?
    MoverWins,
    /// Does the opponent win?
    OpponentWins,
}

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    /// The caller's stop flag.
    Stopped,
    /// The node limit of one round of [`ProofSearch::settle_in_turns`], or the proof limit of
    /// one turn of [`ProofSearch::value`]'s questions.
    Limit,
    /// Another thread of a parallel search ended it (settled the question, or stopped).
    Abandoned,
}

/// One df-pn search over a [`ProofTable`].
pub struct ProofSearch<'t> {
    table: &'t ProofTable,
    /// Positions expanded (a position is counted each time it is expanded).
    pub nodes: u64,
    /// The leaf test of the attacker's positions.
    forcing: ForcingSearch,
    /// Leaves settled by a forcing win.
    pub forcing_wins: u64,
    /// Alpha-beta for leaves with at most this many empty cells (and its table), if set.
    endgame: Option<(&'t MemoryTable, u32)>,
    /// Nodes of those alpha-beta searches.
    pub endgame_nodes: u64,
    /// Times a thread of a parallel search took another defence than the best one because
    /// another thread was in it (how much the threads split the work).
    pub split_choices: u64,
    /// A question [`ProofSearch::value`] settles completely before the other, if set.
    first_question: Option<Question>,
    /// The side whose win the current question asks about.
    attacker: Player,
    node_limit: u64,
    /// The root's proof number at which the current question pauses (`Halt::Limit`; see
    /// [`ProofSearch::value`]): [`INFINITE`] except while the two questions share a search.
    proof_limit: u32,
    /// `k` of the order bias (see [`DEFAULT_ORDER_BIAS`]).
    order_bias: u64,
    stop: Option<&'t AtomicBool>,
    progress: Option<&'t AtomicU64>,
    /// Nodes (expansions and endgame nodes) not yet added to `progress`, which is told every
    /// few thousand and so counts what the answer's node count counts.
    unreported: u64,
    /// Threads per question (see [`ProofSearch::with_threads`]).
    threads: usize,
    /// Set in the workers of a parallel search only.
    shared: Option<&'t Shared>,
    /// Defer threat zones, counting an unexamined child as this many defences (see
    /// [`ProofSearch::with_zone_guess`]).
    zone_guess: Option<u32>,
    /// Recently expanded positions' children (see `ProofSearch::children`).
    child_cache: ChildCache,
    /// The helper threads' caches and forcing-win searches of a parallel search, kept from
    /// one question (or turn) to the next (see `ProofSearch::attacker_wins_in_parallel`).
    helpers: Vec<(ChildCache, ForcingSearch)>,
    /// Results kept beyond this search (the position store), if any (see
    /// [`ProofSearch::with_settled`]).
    settled: Option<&'t dyn Settled>,
    /// Nodes a settled result must have cost to be recorded there.
    record_min_work: u64,
    /// Positions settled by what the store knew.
    pub settled_hits: u64,
    /// Settled results recorded in the store.
    pub recorded: u64,
    /// Where the root's numbers are published for a progress display, if anywhere (see
    /// [`ProofSearch::with_root_report`]).
    root_report: Option<&'t RootReport>,
    /// The position the current question is about and its forced line: where the root report
    /// is published from.
    report_line: ReportLine,
    /// Positions a replay of a sibling's proof may expand (0: no replays).
    replay_budget: u32,
    /// Siblings settled by a replay.
    pub replay_proofs: u64,
}

/// The root's numbers as [`ProofSearch::with_root_report`] publishes them: the proof and disproof
/// numbers of "does the attacker win?", and whether the attacker is the side to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootNumbers {
    /// Proof number of the attacker's win.
    pub proof: u32,
    /// Disproof number of the attacker's win.
    pub disproof: u32,
    /// Whether the attacker is the side to move at the root.
    pub attacker_to_move: bool,
}

/// How the moves of the position asked about stand in the current question, as
/// [`ProofSearch::with_root_report`] publishes them: a long solve's settled facts so far (a
/// milestone position's replies proved one by one), which the root's numbers alone do not show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMoves {
    /// The root's moves that do not lose at once (the search never lists the others: the rules
    /// settle them), symmetric images of an earlier move counted once.
    pub moves: u32,
    /// Moves after which the side to move at the root is proved to reach its goal in this
    /// question (the attacker wins, or the defender holds).
    pub succeed: u32,
    /// Moves proved to fail it.
    pub fail: u32,
    /// The cell index of the move the search is in (the child df-pn chose last), if any: a
    /// long solve's log shows whether the search stays with one move or turns from move to
    /// move.
    pub working_on: Option<u32>,
    /// Whether the attacker is the side to move in the position these moves are of (the
    /// root's, or the end of its forced line: see [`RootReport::line`]): "win" or "lose" is
    /// said of that side.
    pub attacker_to_move: bool,
}

impl RootMoves {
    const VALID: u64 = 1 << 63;

    /// The counts of the moves with these numbers (each the numbers of the position after the
    /// move, for its side to move), the cell of the move being searched, if any, and whether
    /// the attacker moves in their position.
    pub(crate) fn of_children(
        children: &[(u32, u32)],
        working_on: Option<u32>,
        attacker_to_move: bool,
    ) -> RootMoves {
        RootMoves {
            moves: children.len() as u32,
            // the root's mover succeeds with a move exactly when the mover after it fails
            succeed: children.iter().filter(|n| n.1 == 0).count() as u32,
            fail: children.iter().filter(|n| n.0 == 0).count() as u32,
            working_on,
            attacker_to_move,
        }
    }

    /// The packed word (0 is "nothing published"): counts in bits 0..48, the cell plus one in
    /// bits 48..56 (0: none), the attacker to move in bit 56.
    pub fn pack(self) -> u64 {
        let cell = self.working_on.map_or(0, |c| (c as u64 & 0x7f) + 1);
        Self::VALID
            | self.moves as u64
            | (self.succeed as u64) << 16
            | (self.fail as u64) << 32
            | cell << 48
            | (self.attacker_to_move as u64) << 56
    }

    /// The counts of a packed word, if any were published.
    pub fn unpack(word: u64) -> Option<RootMoves> {
        let cell = (word >> 48 & 0xff) as u32;
        (word & Self::VALID != 0).then_some(RootMoves {
            moves: (word & 0xffff) as u32,
            succeed: (word >> 16 & 0xffff) as u32,
            fail: (word >> 32 & 0xffff) as u32,
            working_on: cell.checked_sub(1),
            attacker_to_move: word >> 56 & 1 == 1,
        })
    }
}

/// The moves from the position asked about to the one a [`RootReport`] describes, each the only
/// move of its position (symmetric images counted once) that does not lose at once.
///
/// Why: a position with one move has its child's numbers, and df-pn stays inside that child
/// until the child is settled or passes its thresholds, which in a long solve can be hours. The
/// root's own numbers and moves ("of 1 moves") would stand still all that time, so the report
/// follows such moves down to the first position with a choice, and says so.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ForcedLine {
    cells: [u8; ForcedLine::MAX],
    len: u8,
}

impl ForcedLine {
    /// The longest line followed (deeper, the report stays at the line's end).
    pub const MAX: usize = 8;

    /// The cell indices of the moves, from the root down.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.len as usize]
    }

    /// How many moves the line has.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the line is empty (the report is about the root itself).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first `len` moves of the line (the cells past the end stay zero, so that equal
    /// lines compare equal).
    pub(crate) fn truncated(mut self, len: usize) -> ForcedLine {
        self.len = self.len.min(len as u8);
        let len = self.len();
        self.cells[len..].fill(0);
        self
    }

    /// The line with `cell` added, unless it is full.
    pub(crate) fn pushed(mut self, cell: u32) -> Option<ForcedLine> {
        if self.len() == Self::MAX {
            return None;
        }
        self.cells[self.len()] = cell as u8 & 0x7f;
        self.len += 1;
        Some(self)
    }

    /// The packed word: seven bits a cell, the length in bits 56..60.
    pub fn pack(self) -> u64 {
        let cells = self
            .cells()
            .iter()
            .enumerate()
            .fold(0, |w, (i, &c)| w | (c as u64) << (7 * i));
        cells | (self.len as u64) << 56
    }

    /// The line of a packed word.
    pub fn unpack(word: u64) -> ForcedLine {
        let len = ((word >> 56) & 0xf).min(Self::MAX as u64) as u8;
        let mut cells = [0; Self::MAX];
        for (i, c) in cells.iter_mut().enumerate().take(len as usize) {
            *c = (word >> (7 * i) & 0x7f) as u8;
        }
        ForcedLine { cells, len }
    }
}

/// Where a proof search publishes its root's state for a progress display: [`RootNumbers`],
/// [`RootMoves`] and the [`ForcedLine`] they are found after, each packed in a word (0: nothing
/// yet).
#[derive(Debug, Default)]
pub struct RootReport {
    numbers: AtomicU64,
    moves: AtomicU64,
    line: AtomicU64,
}

impl RootReport {
    /// The root's numbers in the current question, if published (with a forced line, those of
    /// its end, which are the root's as they stand: each position on the line has its one
    /// child's numbers).
    pub fn numbers(&self) -> Option<RootNumbers> {
        RootNumbers::unpack(self.numbers.load(Ordering::Relaxed))
    }

    /// The moves of the position at the end of [`RootReport::line`] (the root's, without one)
    /// in the current question, if published.
    pub fn moves(&self) -> Option<RootMoves> {
        RootMoves::unpack(self.moves.load(Ordering::Relaxed))
    }

    /// The forced moves from the root to the position [`RootReport::moves`] describes.
    pub fn line(&self) -> ForcedLine {
        ForcedLine::unpack(self.line.load(Ordering::Relaxed))
    }

    pub(crate) fn publish(&self, numbers: RootNumbers, moves: RootMoves, line: ForcedLine) {
        self.line.store(line.pack(), Ordering::Relaxed);
        self.numbers.store(numbers.pack(), Ordering::Relaxed);
        self.moves.store(moves.pack(), Ordering::Relaxed);
    }
}

/// Which positions of a question publish the root report: the root, and the positions down its
/// forced line (see [`ForcedLine`]), by their tags.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ReportLine {
    /// The tags of the root (index 0) and of the positions after each forced move.
    tags: [u64; ForcedLine::MAX + 1],
    line: ForcedLine,
}

impl ReportLine {
    /// The line of a question about the position tagged `root` (0: a helper thread, which
    /// never reports).
    pub(crate) fn at(root: u64) -> ReportLine {
        let mut tags = [0; ForcedLine::MAX + 1];
        tags[0] = root;
        ReportLine {
            tags,
            line: ForcedLine::default(),
        }
    }

    /// How deep on the line the position tagged `tag` is, if it is on it.
    #[inline]
    pub(crate) fn depth_of(&self, tag: u64) -> Option<usize> {
        self.tags[..=self.line.len()].iter().position(|&t| t == tag)
    }

    /// Cuts the line back to the position at `depth` (the search came back up to it).
    pub(crate) fn cut_to(&mut self, depth: usize) {
        self.line = self.line.truncated(depth);
    }

    /// Extends the line by the move to `cell`, into the position tagged `tag` (unless full).
    pub(crate) fn extend(&mut self, cell: u32, tag: u64) {
        if let Some(line) = self.line.pushed(cell) {
            self.line = line;
            self.tags[line.len()] = tag;
        }
    }

    /// The forced moves so far.
    pub(crate) fn line(&self) -> ForcedLine {
        self.line
    }
}

impl RootNumbers {
    const VALID: u64 = 1 << 63;

    /// The packed word (0 is "nothing published").
    pub fn pack(self) -> u64 {
        Self::VALID
            | self.proof as u64
            | (self.disproof as u64) << 29
            | (self.attacker_to_move as u64) << 58
    }

    /// The numbers of a packed word, if one was published.
    pub fn unpack(word: u64) -> Option<RootNumbers> {
        (word & Self::VALID != 0).then_some(RootNumbers {
            proof: (word & ((1 << 29) - 1)) as u32,
            disproof: ((word >> 29) & ((1 << 29) - 1)) as u32,
            attacker_to_move: word >> 58 & 1 == 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packed and unpacked, the root's counts and the move being searched come back as they
    /// were, for every cell and for none.
    #[test]
    fn root_moves_survive_packing() {
        for working_on in (0..64).map(Some).chain([None]) {
            for attacker_to_move in [false, true] {
                let m = RootMoves {
                    moves: 16,
                    succeed: 3,
                    fail: 12,
                    working_on,
                    attacker_to_move,
                };
                assert_eq!(RootMoves::unpack(m.pack()), Some(m));
            }
        }
        assert_eq!(RootMoves::unpack(0), None);
    }

    /// A forced line comes back from its word as it was, at every length and for every cell;
    /// past its capacity it stops growing; cut back, it keeps its first moves.
    #[test]
    fn forced_lines_survive_packing_and_stop_at_their_capacity() {
        let mut line = ForcedLine::default();
        assert_eq!(ForcedLine::unpack(0), line);
        for i in 0..ForcedLine::MAX {
            line = line.pushed((i * 9 + 63 - i) as u32 % 64).unwrap();
            assert_eq!(ForcedLine::unpack(line.pack()), line);
        }
        assert_eq!(line.pushed(5), None);
        let cut = line.truncated(3);
        assert_eq!(cut.cells(), &line.cells()[..3]);
        assert_eq!(ForcedLine::unpack(cut.pack()), cut);
        let mut report = ReportLine::at(1 << 63 | 7);
        assert_eq!(report.depth_of(1 << 63 | 7), Some(0));
        report.extend(12, 1 << 63 | 8);
        report.extend(13, 1 << 63 | 9);
        assert_eq!(report.depth_of(1 << 63 | 9), Some(2));
        report.cut_to(1);
        assert_eq!(report.depth_of(1 << 63 | 9), None, "cut off");
        assert_eq!(report.line().cells(), &[12]);
        assert_eq!(
            ReportLine::at(0).depth_of(1 << 63),
            None,
            "a helper reports nothing"
        );
    }
}
