//! The API's parameters and its error answers: `game`, `moves` and `size` read and checked
//! before any solve is started, so that bad input costs nothing and gets HTTP 400 with one line.

use crate::game::{Connect4, Cube};
use crate::solver::games::Solvable;
use crate::solver::GameSpec;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

/// The query of `/api/solve`, `/api/analyze` and `/api/board`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PositionQuery {
    /// `connect4`, `sogo`, `sogo-g` or `qubic`.
    pub game: Option<String>,
    /// Moves from the empty board, or `0xWHITE:0xBLACK` (empty: the start).
    pub moves: Option<String>,
    /// Connect Four's board, `WxH` (default 7x6).
    pub size: Option<String>,
    /// A name the page gives the solve, to ask for its progress or cancel it.
    pub job: Option<String>,
}

/// Longest position text accepted (a full 4x4x4 board written as moves is under 300 bytes).
const MAX_MOVES_LEN: usize = 1000;
/// Longest job name accepted.
const MAX_JOB_LEN: usize = 64;

/// A checked request: the game, the position as given, the job name.
#[derive(Clone, Debug)]
pub struct Position {
    /// The game.
    pub spec: GameSpec,
    /// The position text as given (checked to parse).
    pub moves: String,
    /// The job name, if any.
    pub job: Option<String>,
}

impl PositionQuery {
    /// Checks the parameters and that the position parses.
    pub fn check(&self) -> Result<Position, ApiError> {
        let game = self.game.as_deref().ok_or_else(|| {
            ApiError::bad("missing parameter 'game' (connect4, sogo, sogo-g or qubic)")
        })?;
        let size = self.size.as_deref().filter(|s| !s.is_empty());
        let spec = GameSpec::from_name(game, size).map_err(|e| ApiError::bad(e.to_string()))?;
        let moves = self.moves.clone().unwrap_or_default();
        if moves.len() > MAX_MOVES_LEN {
            return Err(ApiError::bad(format!(
                "parameter 'moves' is longer than {MAX_MOVES_LEN} bytes"
            )));
        }
        let job = self.job.clone().filter(|j| !j.is_empty());
        if job.as_ref().is_some_and(|j| j.len() > MAX_JOB_LEN) {
            return Err(ApiError::bad(format!(
                "parameter 'job' is longer than {MAX_JOB_LEN} bytes"
            )));
        }
        parse_check(spec, &moves)?;
        Ok(Position { spec, moves, job })
    }
}

/// Refuses a position that does not parse, with the parser's one line.
fn parse_check(spec: GameSpec, moves: &str) -> Result<(), ApiError> {
    let parsed = match spec {
        GameSpec::Connect4 { .. } => <Connect4 as Solvable>::parse(spec, moves, 0).map(|_| ()),
        GameSpec::Cube(_) => <Cube as Solvable>::parse(spec, moves, 0).map(|_| ()),
    };
    parsed.map_err(ApiError::bad)
}

/// An answer other than a solution: a status and one line, sent as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    /// 400 for bad input, 503 when no solve slot frees in time, 500 otherwise.
    pub status: StatusCode,
    /// One line.
    pub message: String,
}

impl ApiError {
    /// Bad input: HTTP 400.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: one_line(message.into()),
        }
    }

    /// Any other failure with its status.
    pub fn with_status(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: one_line(message.into()),
        }
    }
}

fn one_line(s: String) -> String {
    if s.contains('\n') {
        s.replace('\n', " ")
    } else {
        s
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}
