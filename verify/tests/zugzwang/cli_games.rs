//! The `zugzwang` binary on the 4x4x4 games, and the flags every game shares, run as a user
//! would: one pipeline, the same flags and JSON fields in every game, finished games answered,
//! bad input refused in one line with exit status 2, a time limit with exit status 3.

use std::process::{Command, Output};

fn zugzwang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zugzwang"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = zugzwang(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    for args in [
        &["solve", "sogo", "a1 e5"][..],
        &["solve", "sogo", "a1a1a1a1a1"],
        &["solve", "qubic", "a11 a11"],
        &["solve", "qubic", "0x1:0x1"],
        &["solve", "sogo", "0x10000:0x0"],
        &["solve", "sogo", "a1 a2 b1 b2 c1 c2 d1 d2"],
        &["solve", "sogo", "-q", "-g"],
        &["solve", "sogo", "--mem", "lots"],
        &["solve", "sogo", "--time-limit", "soon"],
        &["solve", "sogo", "--zugzwang-lines", "maybe"],
        &["solve", "sogo", "--threads", "many"],
        &["solve", "sogo", "--first", "maybe"],
        &["solve", "sogo", "--no-such-option"],
        &["solve", "sogo", "--strong", "--engine", "pn"],
        &["solve", "sogo", "--table", "Cargo.toml"],
        &["solve", "connect4", "--keys", "seed"],
        &["analyze", "qubic", "--batch", "-"],
    ] {
        let o = zugzwang(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

/// Forcing lines that end in a zugzwang are on by default for Sogo, can be switched off, and
/// the solve reports which it ran with; the value is the same either way.
#[test]
fn zugzwang_lines_switch_and_are_reported() {
    // a Sogo preset the pairings decide within a second or two (README: p2_18, a loss)
    let position = "0x00000000d000a470:0x0000004022405281";
    let base = [
        "solve",
        "sogo",
        position,
        "--mem",
        "64M",
        "--threads",
        "1",
        "--json",
    ];
    for (extra, on) in [(&[][..], true), (&["--zugzwang-lines", "off"][..], false)] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let v = json(&args);
        assert_eq!(v["value"], "loss", "{args:?}");
        assert_eq!(v["settings"]["zugzwang_lines"], on, "{args:?}");
    }
    // the help names the values it documents (on|off), not the parser's true/false
    let help = zugzwang(&["solve", "sogo", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    let line = help
        .lines()
        .find(|l| l.contains("--zugzwang-lines"))
        .expect("--zugzwang-lines in the help");
    assert!(
        line.contains("<on|off>") && !line.contains("true"),
        "{line}"
    );
}

#[test]
fn the_same_fields_in_every_game() {
    let fields = [
        "game",
        "size",
        "moves",
        "position",
        "game_over",
        "score",
        "value",
        "weak",
        "best_moves",
        "nodes",
        "micros",
        "settings",
    ];
    for args in [
        &[
            "solve", "connect4", "--size", "5x4", "--mem", "16M", "--json",
        ][..],
        &["solve", "sogo", "a1b1a1b1a1b1", "--mem", "16M", "--json"],
        &[
            "solve",
            "qubic",
            "a11 b11 a12 b12 a13 b13",
            "--mem",
            "16M",
            "--json",
        ],
    ] {
        let v = json(args);
        for f in fields {
            assert!(v.get(f).is_some(), "{args:?}: no {f} in {v}");
        }
    }
}

#[test]
fn best_moves_with_both_engines_and_the_seed_options() {
    // only a1 wins (three White stones below it); every other move lets Black win on b1
    for engine in ["pn", "alphabeta"] {
        let v = json(&[
            "solve",
            "sogo",
            "a1b1a1b1a1b1",
            "--best",
            "all",
            "--engine",
            engine,
            "--mem",
            "16M",
            "--json",
        ]);
        assert_eq!(v["value"], "win", "{engine}");
        assert_eq!(v["best_moves"], serde_json::json!(["a1"]), "{engine}");
    }
    // `sogo -q` is Qubic
    let q = json(&["solve", "sogo", "-q", "a11 b11 a12 b12 a13 b13", "--json"]);
    assert_eq!(q["game"], "qubic");
    assert_eq!(q["best_moves"], serde_json::json!(["a14"]));
    let g = json(&["solve", "sogo", "-g", "a1b1a1b1a1b1", "--json"]);
    assert_eq!(g["game"], "sogo-g");
    assert_eq!(g["best_moves"], serde_json::json!(["a1"]));
}

#[test]
fn finished_boards_are_positions() {
    // seed 003's final board: full, no line of four
    let v = json(&[
        "solve",
        "qubic",
        "0x31cddc2282577da5:0xce3223dd7da8825a",
        "--json",
    ]);
    assert_eq!(v["value"], "draw");
    assert_eq!(v["game_over"], true);
    let o = zugzwang(&["solve", "qubic", "0x31cddc2282577da5:0xce3223dd7da8825a"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("draw"));
    let won = json(&["analyze", "sogo", "a1b1a1b1a1b1a1", "--json"]);
    assert_eq!(won["value"], "loss");
    assert_eq!(won["move_scores"], serde_json::json!([]));
}

#[test]
fn a_time_limit_ends_with_status_3() {
    let o = zugzwang(&["solve", "sogo", "--time-limit", "1s", "--mem", "64M"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("time limit"), "{err}");
}

#[test]
fn analyze_and_show_work_for_every_game() {
    let v = json(&["analyze", "qubic", "a11 b11 a12 b12 a13 b13", "--json"]);
    let scores = v["move_scores"].as_array().unwrap();
    assert_eq!(scores.len(), 64 - 6);
    assert!(scores
        .iter()
        .any(|m| m["move"] == "a14" && m["value"] == "win"));
    for args in [
        &["show", "connect4", "4453"][..],
        &["show", "sogo", "a1b2"],
        &["show", "qubic", "a11"],
    ] {
        let o = zugzwang(args);
        assert!(o.status.success(), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stdout).contains("position:"));
    }
}
