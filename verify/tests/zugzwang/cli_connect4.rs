//! The `zugzwang` binary's Connect Four commands, run as a user would: output shape, JSON field
//! names, batch summaries, and every kind of bad input (one clear line, exit status 2, no panic).
//!
//! This file belongs to the root package (see `[[test]]` in the root Cargo.toml) so that Cargo
//! builds the binary for it; it lives under verify/tests/ because the top level has no tests/.

use std::process::{Command, Output};

fn zugzwang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zugzwang"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn stderr_of(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Asserts exit status 2 and a single error line containing every fragment.
fn assert_bad_input(args: &[&str], fragments: &[&str]) {
    let o = zugzwang(args);
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: status; stderr: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line expected, got: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: panic: {err}");
    for f in fragments {
        assert!(err.contains(f), "{args:?}: message '{err}' lacks '{f}'");
    }
}

#[test]
fn column_out_of_range() {
    assert_bad_input(
        &["solve", "connect4", "4458"],
        &["move 4", "column 8", "out of range"],
    );
    assert_bad_input(&["solve", "connect4", "40"], &["move 2", "column 0"]);
}

#[test]
fn full_column() {
    assert_bad_input(
        &["solve", "connect4", "4444444"],
        &["move 7", "column 4", "full"],
    );
}

#[test]
fn move_after_the_game_is_won() {
    assert_bad_input(
        &["solve", "connect4", "12121213"],
        &["move 8", "column 3", "already won"],
    );
}

#[test]
fn a_finished_game_is_answered() {
    // the first player's four in column 1: the side to move has lost, exit status 0
    let o = zugzwang(&["solve", "connect4", "1212121", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr_of(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["game_over"], true);
    assert_eq!(v["value"], "loss");
    assert_eq!(v["score"], -18);
    assert_eq!(v["nodes"], 0);
}

#[test]
fn stray_character() {
    assert_bad_input(&["solve", "connect4", "44x5"], &["move 3", "'x'"]);
    assert_bad_input(&["analyze", "connect4", "4-"], &["move 2"]);
}

#[test]
fn board_size_that_does_not_fit() {
    assert_bad_input(&["solve", "connect4", "--size", "9x7"], &["9x7", "64"]);
    assert_bad_input(&["solve", "connect4", "--size", "3x6"], &["3x6"]);
    assert_bad_input(&["solve", "connect4", "--size", "seven"], &["seven"]);
}

#[test]
fn impossible_memory_budget() {
    assert_bad_input(
        &["solve", "connect4", "--mem", "100T"],
        &["memory", "impossible"],
    );
    assert_bad_input(&["solve", "connect4", "--mem", "lots"], &["lots"]);
}

#[test]
fn missing_batch_file() {
    assert_bad_input(
        &["solve", "connect4", "--batch", "/nonexistent/file"],
        &["/nonexistent/file"],
    );
}

#[test]
fn json_fields_are_stable() {
    let o = zugzwang(&[
        "solve", "connect4", "--size", "5x4", "--json", "--mem", "16M",
    ]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    for field in ["moves", "score", "value", "best_moves", "nodes", "micros"] {
        assert!(v.get(field).is_some(), "missing field {field} in {v}");
    }
    assert_eq!(v["score"], 0);
    assert_eq!(v["value"], "draw");
}

#[test]
fn solve_reports_exact_score_and_best_moves() {
    // Pons' L3 set, line 2: score -4 for the side to move
    let o = zugzwang(&[
        "solve",
        "connect4",
        "2275634273633217117526375347415",
        "--json",
        "--mem",
        "16M",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["score"], -4);
    assert_eq!(v["value"], "loss");
    assert!(!v["best_moves"].as_array().unwrap().is_empty());
}

#[test]
fn analyze_gives_every_move() {
    let o = zugzwang(&[
        "analyze",
        "connect4",
        "2275634273633217117526375347415",
        "--json",
        "--mem",
        "16M",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let moves = v["move_scores"].as_array().unwrap();
    assert!(!moves.is_empty());
    let best = moves
        .iter()
        .map(|m| m["score"].as_i64().unwrap())
        .max()
        .unwrap();
    assert_eq!(best, -4, "the best move's score is the position's score");
}

#[test]
fn batch_counts_mismatches_and_sets_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.txt");
    std::fs::write(
        &good,
        "2275634273633217117526375347415 -4\n14711164625315265231526226375765447437733 0\n",
    )
    .unwrap();
    let o = zugzwang(&[
        "solve",
        "connect4",
        "--batch",
        good.to_str().unwrap(),
        "--mem",
        "16M",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr_of(&o));
    assert!(stderr_of(&o).contains("positions 2, mismatches 0"));
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "2275634273633217117526375347415 3\n").unwrap();
    let o = zugzwang(&[
        "solve",
        "connect4",
        "--batch",
        bad.to_str().unwrap(),
        "--mem",
        "16M",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr_of(&o).contains("mismatches 1"));
}

#[test]
fn record_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let o = zugzwang(&[
        "solve",
        "connect4",
        "--size",
        "5x4",
        "--mem",
        "16M",
        "--record",
        dir.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(files.len(), 1);
    let rec: zugzwang::record::Record =
        serde_json::from_str(&std::fs::read_to_string(files[0].as_ref().unwrap().path()).unwrap())
            .unwrap();
    assert_eq!(rec.game, zugzwang::record::GameName::Connect4);
    assert_eq!(rec.size, "5x4");
    assert_eq!(rec.value, "draw");
    assert!(rec.nodes > 0);
}

/// Ctrl-C (SIGINT) and `kill` (SIGTERM) stop a solve like its time limit: the proved results
/// are written, the answer is "not decided" (status 3). SIGHUP keeps its default (the process
/// ends at once), so a run under `nohup` is not stopped by its terminal going away.
#[test]
fn stop_signals_stop_keep_the_table_and_say_not_decided() {
    for signal in ["-INT", "-TERM"] {
        let dir = tempfile::tempdir().unwrap();
        let table = dir.path().join("t");
        let child = solve_the_empty_board(&table);
        // the empty 7x6 board takes minutes: interrupt it once it has proved something
        std::thread::sleep(std::time::Duration::from_secs(2));
        send(signal, &child);
        let o = child.wait_with_output().unwrap();
        let err = stderr_of(&o);
        assert_eq!(o.status.code(), Some(3), "{signal}: {err}");
        assert!(err.contains("cancelled"), "{signal}: {err}");
        let runs = std::fs::read_dir(&table)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().ends_with(".zzr")
            })
            .count();
        assert!(runs > 0, "{signal}: the proved results were written");
        // every run whole and checksummed (`table check` would also re-solve every entry: a minute)
        let stats = zugzwang(&["table", "stats", table.to_str().unwrap()]);
        assert!(stats.status.success(), "{}", stderr_of(&stats));
        assert!(String::from_utf8_lossy(&stats.stdout).contains("(0 bad)"));
    }
    if sighup_ignored_here() {
        // inherited by the child (a test run under `nohup`): nothing to check
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let child = solve_the_empty_board(&dir.path().join("t"));
    std::thread::sleep(std::time::Duration::from_millis(500));
    send("-HUP", &child);
    let o = child.wait_with_output().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(o.status.signal(), Some(1), "SIGHUP: {}", stderr_of(&o));
}

/// Whether this process ignores SIGHUP (Linux: bit 0 of `SigIgn` in /proc/self/status; false
/// where that cannot be read).
fn sighup_ignored_here() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let mask = status.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
            u64::from_str_radix(mask.trim(), 16).ok()
        })
        .is_some_and(|mask| mask & 1 != 0)
}

/// `solve connect4` of the empty board (minutes) into the table `table`, running.
fn solve_the_empty_board(table: &std::path::Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_zugzwang"))
        .args(["solve", "connect4", "--mem", "64M", "--table"])
        .arg(table)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs")
}

/// Sends `signal` (`kill`'s spelling: -INT, -TERM, ...) to `child`.
fn send(signal: &str, child: &std::process::Child) {
    let kill = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
}

/// `show --svg`: the drawing to a file or standard output; bad sizes refused like `solve`.
#[test]
fn show_writes_svg() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.svg");
    let o = zugzwang(&[
        "show",
        "connect4",
        "445566",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("threat"));
    // the text drawing is still printed; with `-` only the SVG is
    assert!(String::from_utf8_lossy(&o.stdout).contains("to move: X"));
    let o = zugzwang(&["show", "sogo", "a1 b2", "--svg", "-"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("<svg") && out.contains("level 4"), "{out}");
    assert_bad_input(
        &["show", "connect4", "1", "--size", "20x20", "--svg", "-"],
        &["20x20"],
    );
}

/// `book build` and `book check` on the 5x4 board (milliseconds), `--book` on `analyze`, and
/// the refusals: a game without books, too many plies, a missing or foreign book.
#[test]
fn books_are_built_checked_used_and_refused() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    let b = book.to_str().unwrap();
    let o = zugzwang(&[
        "book", "build", "connect4", "--size", "5x4", "--plies", "4", "--table", b, "--mem", "16M",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("up to ply 4"));
    let o = zugzwang(&[
        "book", "check", b, "--sample", "3", "--games", "50", "--mem", "16M",
    ]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("3 sampled scores match"));
    let json = |args: &[&str]| -> serde_json::Value {
        let o = zugzwang(args);
        assert!(o.status.success(), "{}", stderr_of(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let base = [
        "analyze", "connect4", "23", "--size", "5x4", "--json", "--mem", "16M",
    ];
    let searched = json(&base);
    let booked = json(&[&base[..], &["--book", b]].concat());
    assert_eq!(searched["from_book"], false);
    assert_eq!(booked["from_book"], true);
    assert_eq!(booked["move_scores"], searched["move_scores"]);
    assert_eq!(booked["best_moves"], searched["best_moves"]);
    assert_bad_input(&["solve", "connect4", "--book", b], &["5x4", "7x6"]);
    assert_bad_input(
        &["solve", "connect4", "--book", dir.path().to_str().unwrap()],
        &["no opening book"],
    );
    assert_bad_input(
        &[
            "book", "build", "connect4", "--size", "8x7", "--plies", "1", "--table", b,
        ],
        &["exact keys"],
    );
    assert_bad_input(
        &[
            "book", "build", "connect4", "--size", "4x4", "--plies", "17", "--table", b,
        ],
        &["16 stones"],
    );
}

/// `serve` refuses bad options with one line before listening.
#[test]
fn serve_refuses_bad_options() {
    assert_bad_input(&["serve", "--addr", "localhost"], &["--addr"]);
    assert_bad_input(&["serve", "--budget", "soon"], &["--budget"]);
    assert_bad_input(&["serve", "--solves", "0"], &["--solves"]);
    assert_bad_input(
        &["serve", "--book", "/nonexistent/book"],
        &["no opening book"],
    );
}
