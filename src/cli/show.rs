//! `zugzwang show GAME POSITION`: a drawing of the position, without solving it.

use super::args::cube_rules;
use super::common::CliError;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use zugzwang::game::{Connect4, Cube, Rules};
use zugzwang::solver::games::{game_over_score, Solvable};
use zugzwang::solver::GameSpec;

/// The game of `show`.
#[derive(Subcommand)]
pub enum ShowGame {
    /// Connect Four.
    Connect4(ShowConnect4),
    /// Sogo (4x4x4 with gravity; -g poison rule, -q for Qubic).
    Sogo(ShowCube),
    /// Qubic (4x4x4 without gravity).
    Qubic(ShowCube),
}

/// Arguments of `show connect4`.
#[derive(Args)]
pub struct ShowConnect4 {
    /// The moves (1-based column digits).
    #[arg(default_value = "")]
    moves: String,
    /// Board size WIDTHxHEIGHT.
    #[arg(long, default_value = "7x6")]
    size: String,
    /// Also write the drawing as SVG to FILE (`-`: standard output, instead of the text).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// Arguments of `show sogo|qubic`.
#[derive(Args)]
pub struct ShowCube {
    /// The position (moves or 0xWHITE:0xBLACK).
    #[arg(default_value = "")]
    moves: String,
    /// Sogo only: creating a poison wins.
    #[arg(short = 'g', long = "poison")]
    poison: bool,
    /// Qubic rules.
    #[arg(short = 'q', long = "qubic")]
    qubic: bool,
    /// Also write the drawing as SVG to FILE (`-`: standard output, instead of the text).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// Prints the board, whose move it is (or how the game ended) and the position's exact text.
pub fn show(game: &ShowGame) -> Result<i32, CliError> {
    match game {
        ShowGame::Connect4(a) => {
            let spec = GameSpec::from_name("connect4", Some(&a.size))
                .map_err(|e| CliError::BadInput(e.to_string()))?;
            let g = <Connect4 as Solvable>::parse(spec, &a.moves, 0).map_err(CliError::BadInput)?;
            output(&g, a.svg.as_deref(), "X = first player, O = second player")?;
        }
        ShowGame::Sogo(a) | ShowGame::Qubic(a) => {
            let qubic = a.qubic || matches!(game, ShowGame::Qubic(_));
            let rules: Rules = cube_rules(qubic, a.poison)?;
            let g = <Cube as Solvable>::parse(GameSpec::Cube(rules), &a.moves, 0)
                .map_err(CliError::BadInput)?;
            output(&g, a.svg.as_deref(), "X = White (first), O = Black; * threat of the side to move, + threat of the other side, ! poison (threat over an empty cell)")?;
        }
    }
    Ok(0)
}

/// The text drawing, and the SVG where asked (`-`: the SVG alone, on standard output).
fn output<G: Solvable>(g: &G, svg: Option<&Path>, legend: &str) -> Result<(), CliError> {
    match svg {
        Some(p) if p == Path::new("-") => print!("{}", g.svg(false)),
        Some(p) => {
            std::fs::write(p, g.svg(false))
                .map_err(|e| CliError::Failed(format!("writing {}: {e}", p.display())))?;
            describe(g, legend);
            eprintln!("SVG written to {}", p.display());
        }
        None => describe(g, legend),
    }
    Ok(())
}

fn describe<G: Solvable>(g: &G, legend: &str) {
    print!("{}", g.render());
    println!("{legend}");
    let side = if g.ply() % 2 == 0 { "X" } else { "O" };
    match game_over_score(g) {
        Some(0) => println!("game over: the board is full, a draw"),
        Some(_) => println!("game over: the last move won"),
        None => println!("to move: {side}, ply {}", g.ply()),
    }
    println!("position: {}", g.position_text());
}
