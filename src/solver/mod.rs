//! The library's one way in: "solve this position" for every game and every front end.
//!
//! A [`Request`] names the game and rules ([`GameSpec`]), the position as users write it, the
//! question ([`Question`]: the value with best moves, or every move's value) and a
//! [`SolverConfig`] — the engine, weak or strong, budgets of memory, threads and time, the table
//! directory, hash seed and key mode. Each game's defaults are decided once
//! ([`SolverConfig::for_game`], from the game's adapter in [`games`]); front ends change only
//! what their user asked for. A [`Solution`] comes back: value, score, best moves or per-move
//! values, nodes, time and the settings actually used; a [`Control`] shows progress and stops
//! a solve from another thread.
//!
//! Map of the module:
//! - [`spec`]: which game ([`GameSpec`]), board sizes;
//! - [`config`]: engines, modes and every tuning knob, with the games' defaults;
//! - [`games`]: what the solver needs of each game (parsing, move names, defaults);
//! - [`budget`]: memory budgets as users write them, checked against the machine;
//! - [`control`]: progress and cancellation;
//! - [`outcome`]: the answer and the errors, in the field names of every front end;
//! - [`session`]: a [`Solver`] that keeps its tables between questions;
//! - `engines`: the searches behind a request.

pub mod budget;
pub mod config;
pub mod control;
pub(crate) mod engines;
mod from_book;
pub mod games;
pub mod outcome;
pub mod session;
pub mod spec;
#[cfg(test)]
mod table_tests;
#[cfg(test)]
mod tests;

pub use budget::Memory;
pub use config::{BestMoves, Engine, FirstQuestion, KeyMode, Mode, SolverConfig};
pub use control::{Control, RootMoves, StopReason};
pub use outcome::{value_word, MoveScore, Solution, SolveError, TableReport};
pub use session::{Question, Solver};
pub use spec::GameSpec;

use std::path::PathBuf;
use std::time::Duration;

/// One question about one position.
#[derive(Clone, Debug)]
pub struct Request {
    /// The game and its rules.
    pub game: GameSpec,
    /// The position: moves from the empty board, or the game's board notation.
    pub position: String,
    /// What to find out.
    pub question: Question,
    /// How to search (start from [`SolverConfig::for_game`]).
    pub config: SolverConfig,
    /// A position store directory to read and extend.
    pub table: Option<PathBuf>,
    /// Stop after this much wall-clock time.
    pub time_limit: Option<Duration>,
}

impl Request {
    /// The value of `position` with the game's default configuration.
    pub fn new(game: GameSpec, position: &str) -> Request {
        Request {
            game,
            position: position.to_string(),
            question: Question::Value,
            config: SolverConfig::for_game(game),
            table: None,
            time_limit: None,
        }
    }
}

/// Answers one request with fresh tables.
pub fn solve(request: &Request, control: &Control) -> Result<Solution, SolveError> {
    let mut solver = Solver::new(request.game, request.config.clone())?;
    if let Some(dir) = &request.table {
        solver = solver.with_table(dir, &request.position)?;
    }
    solver.solve(
        &request.position,
        request.question,
        request.time_limit,
        control,
    )
}
