//! Pieces shared by every game's commands: errors with exit codes, sizes, progress display.

use indicatif::{ProgressBar, ProgressStyle};
use std::fmt;
use std::sync::Arc;
use zugzwang::solver::{Control, GameSpec, Memory, RootMoves, SolveError, SolverConfig};

use std::time::{Duration, Instant};
pub use zugzwang::solver::budget::human_bytes;

/// A failure shown to the user as one line, with the exit status it maps to.
#[derive(Debug)]
pub enum CliError {
    /// The user's input is wrong (exit status 2).
    BadInput(String),
    /// Something outside the input failed: a file, the disk (exit status 1).
    Failed(String),
    /// The solve was stopped before it decided the position: time limit (exit status 3).
    Undecided(String),
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::BadInput(_) => super::EXIT_BAD_INPUT,
            CliError::Failed(_) => 1,
            CliError::Undecided(_) => super::EXIT_UNDECIDED,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::BadInput(s) | CliError::Failed(s) | CliError::Undecided(s) => f.write_str(s),
        }
    }
}

/// Parses a byte size such as `512M`, `8G`, `1.5G` or a plain number of bytes for the `table`
/// commands; `auto` is Connect Four's default (the only game with tables so far), checked
/// against the machine like every budget.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let connect4 = SolverConfig::for_game(GameSpec::CONNECT4).mem_bytes;
    Memory::parse(text)
        .and_then(|m| m.resolve(connect4))
        .map_err(|e| e.to_string())
}

impl From<SolveError> for CliError {
    fn from(e: SolveError) -> Self {
        match e {
            SolveError::BadInput(m) => CliError::BadInput(m),
            e @ SolveError::Stopped { .. } => CliError::Undecided(e.to_string()),
            e => CliError::Failed(e.to_string()),
        }
    }
}

/// A spinner on stderr showing nodes and nodes/s while a long search runs. When stderr is not a
/// terminal (a background solve writing a log) it prints one plain line a minute instead, so the
/// log shows how the run went. Dropping it stops the display at once.
pub struct Progress {
    bar: ProgressBar,
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Starts displaying the nodes of `control` under `label`; `quiet` shows nothing.
    pub fn start(label: &str, control: Arc<Control>, quiet: bool) -> Self {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let (b, label) = (bar.clone(), label.to_string());
        let start = Instant::now();
        let plain = !std::io::IsTerminal::is_terminal(&std::io::stderr());
        let tick = if plain {
            Duration::from_secs(60)
        } else {
            Duration::from_millis(200)
        };
        if quiet {
            bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
            return Progress {
                bar,
                stop: None,
                thread: None,
            };
        }
        let thread = std::thread::spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(tick) {
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                let msg = progress_line(&label, &control, secs);
                if plain {
                    eprintln!("[{secs:>8.0} s] {msg}");
                } else {
                    b.set_message(msg);
                    b.tick();
                }
            }
        });
        Progress {
            bar,
            stop: Some(tx),
            thread: Some(thread),
        }
    }
}

/// What a progress display says: nodes and their rate; in a proof search the root's numbers for
/// the question it is on; settled positions in the store; how full the table is.
fn progress_line(label: &str, control: &Control, secs: f64) -> String {
    let n = control.nodes();
    let mut msg = format!("{label}: {n} nodes, {:.2} M nodes/s", n as f64 / secs / 1e6);
    if let Some(r) = control.root_numbers() {
        let who = if r.attacker_to_move {
            "mover"
        } else {
            "opponent"
        };
        msg += &format!(", {who} wins? proof {} disproof {}", r.proof, r.disproof);
        if let Some(m) = control.root_moves() {
            msg += &moves_settled(m, &control.forced_line(), control.working_on());
        }
    }
    if control.settled() > 0 {
        msg += &format!(", {} settled in the table", control.settled());
    }
    let fill = control.table_fill();
    if fill > 0.0 {
        msg += &format!(", table {:.0}% full", fill * 100.0);
        msg += match (
            control.table_on_gigantic_pages(),
            control.endgame_table_on_gigantic_pages(),
        ) {
            (true, true) => " (1 GiB pages, the endgame table's too)",
            (true, false) => " (1 GiB pages)",
            (false, true) => " (the endgame table on 1 GiB pages)",
            (false, false) => "",
        };
    }
    msg
}

/// How the root's moves stand, in the words of the question: with the mover attacking, a move
/// that succeeds wins; with the opponent attacking, a move that fails loses. After a forced line
/// (`line`, each the only move of its position), the moves are those of the line's end, said of
/// its side to move. Then the move the search is in, if named (a log of a long solve shows
/// whether it stays with one).
fn moves_settled(m: RootMoves, line: &[String], working_on: Option<String>) -> String {
    let (decided, other) = if m.attacker_to_move {
        (format!("{} win", m.succeed), m.fail)
    } else {
        (format!("{} lose", m.fail), m.succeed)
    };
    let after = if line.is_empty() {
        String::new()
    } else {
        format!("after {}, each the only move: ", line.join(" "))
    };
    let on = working_on.map_or(String::new(), |name| format!("; searching {name}"));
    format!(
        " ({after}of {} moves {decided}, {other} do not{on})",
        m.moves
    )
}

impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.bar.finish_and_clear();
    }
}

/// Stamps `rec` (machine, version, commit, time), writes it into `dir` and says where.
pub fn save_record(dir: &std::path::Path, rec: zugzwang::record::Record) -> Result<(), CliError> {
    let path = rec
        .stamped()
        .write_to(dir)
        .map_err(|e| CliError::Failed(format!("writing record into {}: {e}", dir.display())))?;
    eprintln!("record written to {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The root's moves in the question's words, and after a forced line the line's end's moves
    /// with the line named first.
    #[test]
    fn moves_are_said_in_the_questions_words_after_any_forced_line() {
        let m = RootMoves {
            moves: 15,
            succeed: 2,
            fail: 3,
            working_on: Some(6),
            attacker_to_move: true,
        };
        assert_eq!(
            moves_settled(m, &[], Some("c2".into())),
            " (of 15 moves 2 win, 3 do not; searching c2)"
        );
        let defending = RootMoves {
            attacker_to_move: false,
            ..m
        };
        assert_eq!(
            moves_settled(defending, &[], None),
            " (of 15 moves 3 lose, 2 do not)"
        );
        assert_eq!(
            moves_settled(m, &["a2".into(), "b3".into()], Some("c2".into())),
            " (after a2 b3, each the only move: of 15 moves 2 win, 3 do not; searching c2)"
        );
    }
}
