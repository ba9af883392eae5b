//! `zugzwang serve`: a local web page that shows positions with their exact analysis, and the
//! JSON API behind it.
//!
//! Routes (every answer JSON except the page and its drawing):
//! - `GET /`: the page ([`PAGE`], static HTML and script embedded in the binary);
//! - `GET /api/solve?game=G&moves=M[&size=WxH][&job=NAME]`: the value and best moves, the
//!   fields of the command line's `--json` ([`crate::solver::Solution`]);
//! - `GET /api/analyze?...`: the same with every legal move's value (`move_scores`);
//! - `GET /api/board?...`: the drawing (SVG with click targets) and what the page needs to
//!   play on: ply, whether the game is over, the exact position text;
//! - `GET /api/progress?job=NAME`, `GET /api/cancel?job=NAME`: a running solve's nodes, and
//!   stopping it;
//! - `GET /api/status`: limits, running solves, counters, the book's hits.
//!
//! A solve not decided within the budget answers HTTP 200 with `"decided": false` and the
//! reason (`time budget` or `cancelled`): an honest "not known", never a guess. Bad parameters
//! answer HTTP 400 with `{"error": "one line"}`; no free solve slot within the budget 503.

mod query;
mod solves;
#[cfg(test)]
mod tests;

pub use query::{ApiError, PositionQuery};
pub use solves::{Counts, Outcome, SolveLimits, Solves};

use crate::game::{Connect4, Cube};
use crate::solver::games::{game_over_score, Solvable};
use crate::solver::{GameSpec, Question, SolveError, StopReason};
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The page: HTML, style and script in one file, embedded at compile time (no build step).
pub const PAGE: &str = include_str!("page.html");

/// The routes over `solves`.
pub fn router(solves: Arc<Solves>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/solve", get(solve))
        .route("/api/analyze", get(analyze))
        .route("/api/board", get(board))
        .route("/api/progress", get(progress))
        .route("/api/cancel", get(cancel))
        .route("/api/status", get(status))
        .fallback(|| async {
            ApiError::with_status(axum::http::StatusCode::NOT_FOUND, "no such page")
        })
        .with_state(solves)
}

/// Serves `solves` on `listener` until the process ends.
pub async fn run(listener: tokio::net::TcpListener, solves: Arc<Solves>) -> std::io::Result<()> {
    axum::serve(listener, router(solves)).await
}

async fn page() -> Html<&'static str> {
    Html(PAGE)
}

/// The query parsed by hand, so that a malformed query string is a 400 with our one line, not
/// axum's plain-text rejection.
fn position(
    query: Result<Query<PositionQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<query::Position, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad(format!("bad query: {}", e.body_text())))?;
    q.check()
}

async fn solve(
    State(s): State<Arc<Solves>>,
    q: Result<Query<PositionQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    answer(&s, position(q)?, Question::Value).await
}

async fn analyze(
    State(s): State<Arc<Solves>>,
    q: Result<Query<PositionQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    answer(&s, position(q)?, Question::Analyze).await
}

async fn answer(
    s: &Arc<Solves>,
    pos: query::Position,
    question: Question,
) -> Result<Response, ApiError> {
    let budget = s.limits().budget;
    Ok(match s.solve(pos, question).await? {
        Outcome::Solved(solution) => Json(*solution).into_response(),
        Outcome::Undecided(SolveError::Stopped {
            reason,
            nodes,
            elapsed,
            ..
        }) => {
            let why = match reason {
                StopReason::TimeLimit => "time budget",
                StopReason::Cancelled => "cancelled",
            };
            Json(json!({
                "decided": false,
                "reason": why,
                "message": format!(
                    "not decided within the {:.1} s budget ({why}) after {nodes} nodes",
                    budget.as_secs_f64()
                ),
                "nodes": nodes,
                "micros": elapsed.as_micros() as u64,
            }))
            .into_response()
        }
        Outcome::Undecided(e) => return Err(ApiError::bad(e.to_string())),
    })
}

async fn board(
    q: Result<Query<PositionQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let pos = position(q)?;
    fn describe<G: Solvable>(g: &G, spec: GameSpec, moves: &str) -> serde_json::Value {
        json!({
            "game": spec.name(),
            "size": spec.size(),
            "moves": moves,
            "position": g.position_text(),
            "ply": g.ply(),
            "game_over": game_over_score(g).is_some(),
            // how it ended: the last mover completed a line (or a poison), or the board is full
            "result": game_over_score(g).map(|s| if s == 0 { "draw" } else { "won" }),
            "svg": g.svg(true),
        })
    }
    let v = match pos.spec {
        GameSpec::Connect4 { .. } => {
            let g =
                <Connect4 as Solvable>::parse(pos.spec, &pos.moves, 0).map_err(ApiError::bad)?;
            describe(&g, pos.spec, &pos.moves)
        }
        GameSpec::Cube(_) => {
            let g = <Cube as Solvable>::parse(pos.spec, &pos.moves, 0).map_err(ApiError::bad)?;
            describe(&g, pos.spec, &pos.moves)
        }
    };
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(v)).into_response())
}

/// `?job=NAME`.
#[derive(Deserialize)]
struct JobQuery {
    job: String,
}

async fn progress(
    State(s): State<Arc<Solves>>,
    q: Result<Query<JobQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::bad(format!("bad query: {}", e.body_text())))?;
    Ok(Json(match s.progress(&q.job) {
        Some((nodes, secs)) => json!({"running": true, "nodes": nodes, "seconds": secs}),
        None => json!({"running": false}),
    }))
}

async fn cancel(
    State(s): State<Arc<Solves>>,
    q: Result<Query<JobQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::bad(format!("bad query: {}", e.body_text())))?;
    Ok(Json(json!({"cancelled": s.cancel(&q.job)})))
}

async fn status(State(s): State<Arc<Solves>>) -> Json<serde_json::Value> {
    let c = &s.counts;
    let l = s.limits();
    let book = s.book().map(|b| {
        let (asked, answered) = b.hits();
        json!({
            "game": b.spec().name(),
            "size": b.spec().size(),
            "plies": b.plies(),
            "entries": b.entries(),
            "asked": asked,
            "answered": answered,
        })
    });
    Json(json!({
        "max_solves": l.max_solves,
        "running": s.running(),
        "budget_ms": l.budget.as_millis() as u64,
        "mem_bytes": l.mem_bytes,
        "threads": l.threads,
        "started": c.started.load(Ordering::Relaxed),
        "solved": c.solved.load(Ordering::Relaxed),
        "timed_out": c.timed_out.load(Ordering::Relaxed),
        "cancelled": c.cancelled.load(Ordering::Relaxed),
        "book": book,
    }))
}
