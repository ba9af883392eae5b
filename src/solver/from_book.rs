//! Answering a question from an opening book instead of searching: the book's exact scores,
//! reported as the configured mode reports them (weak: the sign), with the best moves asked for.

use super::config::{BestMoves, SolverConfig};
use super::engines::{weaken, Found};
use super::games::Solvable;
use crate::book::Book;

/// What a search would have found, read from `book`; `None` when the book lacks a position the
/// answer needs (the position itself, or for best moves and analysis every child).
pub(crate) fn found<G: Solvable>(
    book: &Book,
    g: &G,
    cfg: &SolverConfig,
    analyze: bool,
) -> Option<Found> {
    let mode = cfg.mode;
    if !analyze && cfg.best == BestMoves::None {
        return Some(Found {
            score: weaken(book.score(g)?, mode),
            best: Vec::new(),
            nodes: 0,
            cap: None,
            probes: Vec::new(),
            move_scores: None,
        });
    }
    let scores: Vec<(u64, i32)> = book
        .move_scores(g)?
        .into_iter()
        .map(|(mv, s)| (mv, weaken(s, mode)))
        .collect();
    let score = scores.iter().map(|m| m.1).max()?;
    let limit = if analyze {
        usize::MAX
    } else {
        cfg.best.limit()
    };
    let best = scores
        .iter()
        .filter(|m| m.1 == score)
        .map(|m| m.0)
        .take(limit)
        .collect();
    Some(Found {
        score,
        best,
        nodes: 0,
        cap: None,
        probes: Vec::new(),
        move_scores: analyze.then_some(scores),
    })
}
