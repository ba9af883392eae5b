//! `table stats` on a store with a proof search's snapshot: where the paused solve stood at its
//! start, move by move (which move it believed in, how far each was from proved or disproved).

use super::common::CliError;
use std::path::Path;
use std::time::Instant;
use zugzwang::game::{Connect4, Cube, Player};
use zugzwang::search::proof::{standings, AtOnce, MoveStanding, Numbers, Standing};
use zugzwang::solver::games::Solvable;
use zugzwang::solver::{GameSpec, KeyMode};
use zugzwang::store::checkpoint;
use zugzwang::store::Manifest;

/// The game of a store's manifest, with its board size for Connect Four.
pub(super) fn spec_of(m: &Manifest) -> Option<GameSpec> {
    if m.game == "connect4" {
        let (w, h) = m.variant.split(' ').next()?.split_once('x')?;
        return Some(GameSpec::Connect4 {
            width: w.parse().ok()?,
            height: h.parse().ok()?,
        });
    }
    GameSpec::from_name(&m.game, None).ok()
}

/// The position `text` of the store `m`'s game keyed with its hash seed in key mode `keys`.
pub(super) fn keyed_position<G: Solvable>(
    spec: GameSpec,
    m: &Manifest,
    text: &str,
    keys: KeyMode,
) -> Result<G, String> {
    G::parse(spec, text, m.hash_seed).map(|g| g.keyed(m.hash_seed, keys))
}

/// Checks that `text` is a position of the store `m`'s game (before anything is printed or the
/// snapshot is read: a bad `--from` is the user's one-line error, not a damaged table).
pub(super) fn check_position(m: &Manifest, text: &str) -> Result<(), String> {
    let spec = spec_of(m).ok_or_else(|| format!("unknown game '{}'", m.game))?;
    match spec {
        GameSpec::Connect4 { .. } => position::<Connect4>(spec, m, text).map(|_| ()),
        GameSpec::Cube(_) => position::<Cube>(spec, m, text).map(|_| ()),
    }
}

/// Prints where the snapshot of `dir` (checked in full first) had the search at the store's
/// start, or at `from` (a position of the store's game, e.g. one move deeper, where a solve put
/// its work): each question's numbers there and at every move.
pub(super) fn print(dir: &Path, m: &Manifest, from: Option<&str>) -> Result<(), CliError> {
    let bad = |why: String| CliError::BadInput(format!("{}: {why}", dir.display()));
    let spec = spec_of(m).ok_or_else(|| bad(format!("unknown game '{}'", m.game)))?;
    let (text, which, at) = match from {
        Some(p) => (p, "--from", p),
        None => (m.start.as_str(), "start", "the start"),
    };
    let report = match spec {
        GameSpec::Connect4 { .. } => report::<Connect4>(dir, spec, m, text),
        GameSpec::Cube(_) => report::<Cube>(dir, spec, m, text),
    };
    let (lines, entries, seconds) = report.map_err(|e| match e {
        ReportError::Position(e) => bad(format!("{which}: {e}")),
        ReportError::Snapshot(e) => CliError::Failed(e),
    })?;
    println!(
        "where the paused search stood at {at} ({entries} entries read in {seconds:.1} s; numbers, not facts):"
    );
    for line in lines {
        println!("  {line}");
    }
    Ok(())
}

/// Why a report could not be made.
enum ReportError {
    /// The position asked about is not one of the store's game.
    Position(String),
    /// The snapshot could not be read or failed its check.
    Snapshot(String),
}

/// The position `text` of the store `m`'s game, keyed as the store's entries are.
fn position<G: Solvable>(spec: GameSpec, m: &Manifest, text: &str) -> Result<G, String> {
    let keys = spec
        .store_key_mode(m)
        .ok_or_else(|| format!("unknown board or key mode '{}'", m.variant))?;
    keyed_position(spec, m, text, keys)
}

/// The report's lines at the position `text` (parsed before the snapshot is read), with the
/// number of entries read and the seconds it took.
fn report<G: Solvable>(
    dir: &Path,
    spec: GameSpec,
    m: &Manifest,
    text: &str,
) -> Result<(Vec<String>, usize, f64), ReportError> {
    let g: G = position(spec, m, text).map_err(ReportError::Position)?;
    let t0 = Instant::now();
    // SAFETY: read-only inspection under the directory's shared lock (`table stats` holds it),
    // so no zugzwang process replaces or truncates the snapshot meanwhile.
    let state = unsafe { checkpoint::read(dir, &m.identity()) }
        .map_err(|e| ReportError::Snapshot(e.to_string()))?;
    let mover = Player::of_ply(g.ply());
    let mut lines = Vec::new();
    for standing in standings(&g, state.entries()) {
        lines.extend(question_lines(&g, mover, standing));
    }
    Ok((lines, state.len(), t0.elapsed().as_secs_f64()))
}

/// One question's lines: its numbers at the start, then the moves, the most promising for the
/// side to move first (the smallest number it must bring to zero: the proof number where it
/// attacks, the disproof number where it defends).
fn question_lines<G: Solvable>(g: &G, mover: Player, s: Standing) -> Vec<String> {
    let who = if s.attacker == mover {
        "the side to move"
    } else {
        "the opponent"
    };
    if s.root.is_none() && s.moves.iter().all(|m| m.entry.is_none()) {
        return vec![format!("does {who} win? no entries")];
    }
    // A search on one question writes its start's entry when it begins and again only when
    // the question is settled (its moves' entries are written as it goes), so an open start's
    // entry may be stale, and a full table may have dropped it.
    let root = match s.root {
        Some((n, _)) if n.settled() => numbers_text(n, 0),
        Some((n, work)) => format!(
            "the start's entry as last written: {}",
            numbers_text(n, work)
        ),
        None => "no entry for the start itself".into(),
    };
    let mut lines = vec![format!("does {who} win? {root}")];
    let movers_number = |n: Numbers| {
        if s.attacker == mover {
            n.proof
        } else {
            n.disproof
        }
    };
    let mut moves = s.moves;
    moves.sort_by_key(|m| match (m.at_once, m.entry) {
        (_, Some((n, _))) => (0, movers_number(n)),
        (None, None) => (1, 0),
        (Some(_), None) => (2, 0),
    });
    for m in &moves {
        lines.push(format!("  {}: {}", move_names(g, m), move_text(m)));
    }
    lines
}

/// A move with its symmetric images: `b1 (= c1)`.
fn move_names<G: Solvable>(g: &G, m: &MoveStanding) -> String {
    let images: Vec<String> = zugzwang::game::Bits(m.images)
        .map(|mv| g.move_name(mv))
        .collect();
    if images.is_empty() {
        g.move_name(m.mv)
    } else {
        format!("{} (= {})", g.move_name(m.mv), images.join(", "))
    }
}

fn move_text(m: &MoveStanding) -> String {
    match (m.at_once, m.entry) {
        (Some(AtOnce::Wins), _) => "wins at once".into(),
        (Some(AtOnce::Loses), _) => "loses at once".into(),
        (None, Some((n, work))) => numbers_text(n, work),
        (None, None) => "no entry".into(),
    }
}

/// The attacker's numbers and the work spent (as stored: a power of two of expansions), or
/// what they settle (a settled entry's work is not shown: the table weights every settled
/// entry as a large subtree, whatever it cost).
fn numbers_text(n: Numbers, work: u64) -> String {
    if n.proof == 0 {
        "proved".into()
    } else if n.disproof == 0 {
        "disproved".into()
    } else {
        format!(
            "proof {}, disproof {}, work ~2^{} expansions",
            n.proof,
            n.disproof,
            work.max(1).trailing_zeros()
        )
    }
}
