//! The 4x4x4 games: Sogo (gravity), Sogo `-g` (creating a poison wins) and Qubic (no gravity).
//!
//! One module per job:
//! - [`geometry`]: cells, the 76 lines, levels and columns, and line arithmetic (depends on
//!   nothing);
//! - this module: [`Rules`] and the position type [`Cube`] with its state;
//! - `rules`: the rules as the search asks them ([`crate::game::Game`] for [`Cube`]), poisons,
//!   static bounds;
//! - `pairing`: Sogo's pairing strategies (claimeven, baseinverse, ...), the static proofs
//!   behind the bounds;
//! - `keys`: symmetry-normalised, dead-cell-normalised keys;
//! - [`notation`]: parsing moves and positions ([`CubeError`]), move and cell names, hex;
//! - `render`: the board as text;
//! - tests of the whole: `counts` (positions by ply, perft) and `solving` (the solver against
//!   plain alpha-beta).
//!
//! Each side's *threat cells* (cells completing a line whose other three cells are its stones)
//! are kept up to date incrementally: a stone can only create threats on the at most 7 lines
//! through it, and it destroys an enemy threat only by filling that very cell. With them the
//! search's questions are a few bit operations: immediate wins are `playable & threats`, and
//! (Sogo) the moves that do not lose at once are those not under an enemy threat.
//!
//! A *poison* of player P: a line with three stones of P whose fourth cell is empty and not
//! playable (the cell below it is empty); the opponent must never fill that lower cell.

mod column_games;
pub mod geometry;
mod keys;
pub mod notation;
mod pairing;
mod render;
mod rules;
mod seed_order;

#[cfg(test)]
mod counts;
#[cfg(test)]
mod solving;

pub use geometry::{cell_index, LINES, LINES_THROUGH};
pub use keys::DEFAULT_HASH_SEED;
pub use notation::{cell_name, column_name, CubeError, MoveError};

use crate::game::Player;
use geometry::BOTTOM;

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
    /// Keyed the way seed 003 keys positions (unsound; see `keys.rs`).
    seed_keys: bool,
    /// Whether a side passed on the way here (see [`crate::game::Game::null_move`]): the side to
    /// move is then not the one the stone counts imply, so [`crate::game::Game::id`] must tell
    /// such positions apart.
    passed: bool,
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
            seed_keys: false,
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

    /// The same position keyed as seed 003 keys it (`true`; unsound, see [`Cube::canonical`])
    /// or soundly (`false`, the default).
    pub fn with_seed_keys(mut self, seed_keys: bool) -> Self {
        self.seed_keys = seed_keys;
        self
    }

    /// The rules played.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// White's stones (first player).
    pub fn white(&self) -> u64 {
        self.stones_of(Player::First)
    }

    /// Black's stones (second player).
    pub fn black(&self) -> u64 {
        self.stones_of(Player::Second)
    }

    /// The stones of side `p`.
    #[inline]
    pub fn stones_of(&self, p: Player) -> u64 {
        self.stones[p.index()]
    }

    /// All stones.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// The side to move (White at even plies; a pass, [`crate::game::Game::null_move`], counts
    /// as a ply).
    #[inline]
    pub fn side(&self) -> Player {
        Player::of_ply(self.ply)
    }

    /// The upper bound the opponent's pairing strategies prove for the side to move (plain Sogo:
    /// -1 a loss, 0 no win, `i32::MAX` nothing), at any ply: [`Game::static_bounds`] asks it
    /// only from `BOUNDS_FROM_PLY` on, and the coverage bench measures what that leaves out.
    pub fn pairing_bound(&self) -> i32 {
        let (s, f, f_threats) = self.follower_view();
        pairing::follower_bound(s, f, f_threats, false)
    }

    /// Whether [`Cube::pairing_bound`] is -1 (the opponent's pairings win), found faster.
    pub fn pairing_proves_loss(&self) -> bool {
        let (s, f, f_threats) = self.follower_view();
        pairing::follower_wins(s, f, f_threats)
    }

    /// [`Cube::pairing_bound`] with the pair games as well (`column_games`: every column alone
    /// or in a pair, each group played by its own game): it decides more, and costs the proof
    /// search more time than the nodes it saves, so the search does not ask it; the coverage
    /// bench measures what it adds (the README has the figures).
    pub fn pair_games_bound(&self) -> i32 {
        let (s, f, f_threats) = self.follower_view();
        pairing::follower_bound(s, f, f_threats, true)
    }

    /// How many lines of the side to move the simplest pairing strategy of its opponent
    /// (claimeven, baseinverse, blocked columns) leaves whole: how far Sogo's static bounds are
    /// from proving anything here (`cargo bench --bench cube -- coverage`).
    pub fn pairing_lines_left(&self) -> usize {
        let (s, f, f_threats) = self.follower_view();
        pairing::lines_left_whole(s, f, f_threats)
    }

    /// What the pairings of `pairing` see: the stones of the side to move, the stones and the
    /// empty threat cells of its opponent (the follower).
    #[inline]
    fn follower_view(&self) -> (u64, u64, u64) {
        let p = self.side();
        (
            self.stones_of(p),
            self.stones_of(p.other()),
            self.threats_of(p.other()),
        )
    }

    /// Threat cells of side `p` that are still empty.
    #[inline]
    pub fn threats_of(&self, p: Player) -> u64 {
        self.threats[p.index()] & !self.occupied()
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
