//! Printing an answer: the human-readable form, or the library's JSON (the same field names
//! as the web API), and the solve record.

use super::common::{save_record, CliError};
use zugzwang::game::Player;
use zugzwang::search::Probe;
use zugzwang::solver::{GameSpec, Solution};

/// Prints a solution of `solve` or `analyze`.
pub fn print(s: &Solution, json: bool) {
    if json {
        println!("{}", serde_json::to_string(s).expect("serialisable"));
        return;
    }
    print!("{}", s.board);
    let side = match Player::of_ply(s.ply) {
        Player::First => "X (first player)",
        Player::Second => "O (second player)",
    };
    println!("game:       {} {}", s.game, s.size);
    println!("to move:    {side}");
    if s.game_over {
        let why = if s.score == 0 {
            "the board is full"
        } else {
            "the last move won"
        };
        println!("game over:  {why}");
    }
    if let Some(moves) = &s.move_scores {
        for m in moves {
            if s.weak {
                println!("{:>5}  {}", m.r#move, m.value);
            } else {
                println!("{:>5}  {:<4} {:+}", m.r#move, m.value, m.score);
            }
        }
    }
    if !s.weak {
        println!("score:      {:+}", s.score);
    }
    println!("value:      {}", s.value);
    println!("best moves: {}", s.best_moves.join(" "));
    match s.proven_under_cap {
        Some(c) if s.score == 0 => {
            println!("proven:     nothing: a draw only because games past ply {c} count as draws")
        }
        Some(c) => {
            println!("proven:     under a cap of ply {c} (best moves: those that win by then)")
        }
        None => {}
    }
    if s.from_book {
        println!("answered:   from the opening book, without search");
    }
    let secs = s.micros as f64 / 1e6;
    println!("nodes:      {}", s.nodes);
    println!(
        "time:       {secs:.3} s ({:.2} M nodes/s, {} threads, {:?})",
        s.nodes as f64 / secs.max(1e-9) / 1e6,
        s.settings.threads,
        s.settings.engine,
    );
    if let Some(t) = &s.table {
        println!(
            "table:      {}: {} runs, {} entries, {} disk hits",
            t.dir, t.runs, t.entries, t.disk_hits
        );
        if t.conflicts > 0 {
            println!(
                "conflicts:  {} facts contradicted the table's value for their seed key (the first kept)",
                t.conflicts
            );
        }
    }
}

/// The score driver's probes, one line each, on stderr.
pub fn print_probes(probes: &[Probe]) {
    for p in probes {
        let verdict = if p.result > p.test {
            "above"
        } else {
            "at most"
        };
        eprintln!(
            "probe: score > {:+}? {verdict} ({:+}), {} nodes",
            p.test, p.result, p.nodes
        );
    }
}

/// Writes the record of `s` into `dir`.
pub fn record(
    dir: &std::path::Path,
    game: GameSpec,
    s: &Solution,
    cpu_seconds: f64,
) -> Result<(), CliError> {
    let wall = s.micros as f64 / 1e6;
    save_record(
        dir,
        zugzwang::record::Record::of(game, s, wall, cpu_seconds),
    )
}
