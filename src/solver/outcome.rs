//! What a solve answers, in the form every front end shows: the JSON of `--json`, the web
//! page's API and the solve records all use these field names.

use super::config::SolverConfig;
use super::control::StopReason;
use crate::search::parallel::ThreadsError;
use crate::search::Probe;
use crate::store::StoreError;
use serde::Serialize;
use std::fmt;
use std::time::Duration;

/// `win`, `draw` or `loss` for a score's sign.
pub fn value_word(score: i32) -> &'static str {
    match score.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// The value of one legal move: what the mover gets by playing it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveScore {
    /// The move in the game's notation.
    pub r#move: String,
    /// Exact score (strong) or its sign (weak), for the mover.
    pub score: i32,
    /// `win`, `draw` or `loss` for the mover.
    pub value: &'static str,
}

/// How the position store took part in a solve.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableReport {
    /// The store directory.
    pub dir: String,
    /// Sorted runs on disk after the solve.
    pub runs: u64,
    /// Entries on disk after the solve.
    pub entries: u64,
    /// Lookups answered from disk.
    pub disk_hits: u64,
    /// Seed 003's keys: facts that contradicted what the table already held for their key
    /// (positions of different values sharing a key), dropped for the first one.
    #[serde(skip_serializing_if = "is_zero")]
    pub conflicts: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The answer to a request.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// `connect4`, `sogo`, `sogo-g` or `qubic`.
    pub game: &'static str,
    /// The board: `7x6`, `4x4x4`.
    pub size: String,
    /// The position as given.
    pub moves: String,
    /// The position in a form that gives it back exactly (see
    /// [`super::games::Solvable::position_text`]).
    pub position: String,
    /// Stones on the board.
    pub ply: u32,
    /// Whether the game is already over (a line completed, or the board full): the value is
    /// then the result, found without search.
    pub game_over: bool,
    /// Whether the answer was read from an opening book instead of searched.
    pub from_book: bool,
    /// Exact score (strong) or its sign (weak), for the side to move.
    pub score: i32,
    /// `win`, `draw` or `loss` for the side to move.
    pub value: &'static str,
    /// Whether only win/draw/loss was asked.
    pub weak: bool,
    /// Best moves found, in the game's notation (as many as asked for).
    pub best_moves: Vec<String>,
    /// Analysis: the value of every legal move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_scores: Option<Vec<MoveScore>>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall-clock microseconds of the solve (tables included).
    pub micros: u64,
    /// The cap (ply counted as a draw) the value was found under, if any: a win or loss under
    /// it is the game's (the winner completes a line before it), a draw is not (only the seed
    /// engine's Qubic reports one).
    pub proven_under_cap: Option<u32>,
    /// The position store, if one was used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<TableReport>,
    /// The configuration the solve ran with (threads and memory resolved).
    pub settings: SolverConfig,
    /// A drawing of the position for people.
    #[serde(skip)]
    pub board: String,
    /// The score driver's null-window probes (alpha-beta), for `--verbose`.
    #[serde(skip)]
    pub probes: Vec<Probe>,
}

/// Why a request got no answer.
#[derive(Debug)]
pub enum SolveError {
    /// The request is wrong: an illegal move, an unknown game, an impossible budget, a table
    /// made for another game. The text is one line naming what is wrong.
    BadInput(String),
    /// The solve was stopped (cancelled, or out of time) before it decided the position.
    Stopped {
        /// Cancelled or out of time.
        reason: StopReason,
        /// Nodes searched until then.
        nodes: u64,
        /// Time spent.
        elapsed: Duration,
        /// The position store's state after the stop, if the solve had one.
        table: Option<TableReport>,
    },
    /// The position store failed (disk, a corrupt file, a contradiction).
    Store(StoreError),
    /// The search threads could not be started.
    Threads(ThreadsError),
}

impl SolveError {
    /// Whether the request itself is at fault (exit status 2 on the command line).
    pub fn is_bad_input(&self) -> bool {
        matches!(self, SolveError::BadInput(_))
    }
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::BadInput(s) => f.write_str(s),
            SolveError::Stopped {
                reason,
                nodes,
                elapsed,
                table,
            } => {
                let why = match reason {
                    StopReason::Cancelled => "cancelled",
                    StopReason::TimeLimit => "time limit reached",
                };
                write!(
                    f,
                    "not decided: {why} after {:.1} s and {nodes} nodes",
                    elapsed.as_secs_f64()
                )?;
                match table {
                    Some(t) if t.conflicts > 0 => write!(
                        f,
                        "; the table holds {} entries and dropped {} facts contradicting its value for their (seed) key",
                        t.entries, t.conflicts
                    ),
                    _ => Ok(()),
                }
            }
            SolveError::Store(e) => write!(f, "position store: {e}"),
            SolveError::Threads(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SolveError::Store(e) => Some(e),
            SolveError::Threads(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for SolveError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Foreign { .. } | StoreError::NotADirectory(_) => {
                SolveError::BadInput(e.to_string())
            }
            e => SolveError::Store(e),
        }
    }
}

impl From<ThreadsError> for SolveError {
    fn from(e: ThreadsError) -> Self {
        SolveError::Threads(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_names_the_contradictions_a_seed_keyed_table_dropped() {
        let stopped = |conflicts| SolveError::Stopped {
            reason: StopReason::TimeLimit,
            nodes: 12,
            elapsed: Duration::from_secs(3),
            table: Some(TableReport {
                dir: "t".into(),
                runs: 1,
                entries: 40,
                disk_hits: 0,
                conflicts,
            }),
        };
        assert_eq!(
            stopped(0).to_string(),
            "not decided: time limit reached after 3.0 s and 12 nodes"
        );
        assert_eq!(
            stopped(5).to_string(),
            "not decided: time limit reached after 3.0 s and 12 nodes; the table holds 40 entries and dropped 5 facts contradicting its value for their (seed) key"
        );
    }
}
