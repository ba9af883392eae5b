//! What the solver needs of a game beyond the search's [`Game`] trait: reading a position as
//! users write it, naming moves, drawing the board, and the game's default configuration. One
//! adapter per game; a new game is a [`Game`] implementation plus one adapter here and one arm
//! in [`super::GameSpec`], and every front end serves it.

pub mod connect4;
pub mod cube;

use super::GameSpec;
use crate::game::Game;
use crate::solver::KeyMode;

/// A game the solver can be asked about.
pub trait Solvable: Game + 'static {
    /// Reads a position of `spec` from its text (moves, or the game's board notation), keyed
    /// with `hash_seed` where keys are hashes. Finished games (a line completed, a full board)
    /// are positions: the solver answers them without search. The error is one line naming
    /// the offending move.
    fn parse(spec: GameSpec, text: &str, hash_seed: u64) -> Result<Self, String>;
    /// The game and rules of this position.
    fn spec(&self) -> GameSpec;
    /// The same position keyed with `hash_seed` in key mode `mode` (no change where keys are
    /// exact; [`KeyMode::Seed`] only for games that have it, which [`super::Solver::new`]
    /// checks).
    fn keyed(&self, hash_seed: u64, mode: KeyMode) -> Self;
    /// A move in the game's notation (`4` for a Connect Four column, `b2` for a Sogo column,
    /// `b23` for a Qubic cell).
    fn move_name(&self, mv: u64) -> String;
    /// The position in a form that gives it back exactly (`0xWHITE:0xBLACK` for the 4x4x4
    /// games, the board rows for Connect Four).
    fn position_text(&self) -> String;
    /// A drawing of the board for people, several lines.
    fn render(&self) -> String;
    /// The same drawing as SVG ([`crate::game::svg`]); `interactive` adds the web page's click
    /// targets and value labels.
    fn svg(&self, interactive: bool) -> String;
    /// The same position where reaching ply `cap` counts as a draw, for games that support
    /// capped deepening (see [`crate::search::capped`]); `None` otherwise.
    fn capped(&self, cap: u32) -> Option<Self>;
    /// The position as seed 003's search plays it (`crate::search::seed`): the game's own
    /// rules but for the seed's shortcuts (Qubic: games past ply 40 are draws); `None` for
    /// games the seed never played.
    fn seed_form(&self) -> Option<Self>;
}

/// The score of a finished game for the side to move: the last mover's win (scored as when
/// it was played: its stone came at ply `ply - 1`), or a draw on a full board. `None` while
/// the game goes on.
pub fn game_over_score<G: Game>(g: &G) -> Option<i32> {
    if g.last_mover_won() {
        Some(-(((g.max_ply() + 2).saturating_sub(g.ply()) / 2) as i32))
    } else if g.ply() >= g.max_ply() {
        Some(0)
    } else {
        None
    }
}
