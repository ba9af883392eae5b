//! The position store as two processes and a full disk meet it, through the `zugzwang` binary:
//! one directory has one writer (the second is refused with one line, whichever comes first), and
//! a run that cannot be written (the file size limit of the process, as a full disk would) gives
//! one clear error, leaves the earlier runs intact, and a later solve resumes from them.
//!
//! This file belongs to the root package (see `[[test]]` in the root Cargo.toml) so that Cargo
//! builds the binary for it; it lives under verify/tests/ because the top level has no tests/.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use zugzwang::store::entry::Entry;
use zugzwang::store::run_file::{Run, Verify};
use zugzwang::store::{run_files, Manifest, Store, StoreConfig, MANIFEST};

/// The board of these tests: 7x5 solves in seconds and writes runs of a few MB.
const SIZE: &str = "7x5";

fn zugzwang() -> Command {
    Command::new(env!("CARGO_BIN_EXE_zugzwang"))
}

/// `solve connect4 --size 7x5 --table DIR MOVES` (small memory; the table does the keeping).
fn solve(dir: &Path, moves: &str) -> Command {
    let mut c = zugzwang();
    c.args([
        "solve", "connect4", "--size", SIZE, "--mem", "64M", "--table",
    ])
    .arg(dir)
    .arg(moves);
    c
}

/// A Sogo position one thread takes seconds to solve (the milestone line's 24 stones), for
/// the tests that stop a solve by its time limit: several times their limits on this machine
/// kind, so the stop does not depend on the load. The showcase preset was such a position until
/// the odd threats made it too quick to stop; a 20-stone win used here after it took about as
/// long as the 3 s limit of the pack test, which then failed on an idle machine.
const SOGO_LINE_24: &str = "0x00001000171014b1:0x1000041008218b48";

fn stderr_line(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!err.contains("panicked"), "panic: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected: {err}"
    );
    err.trim_end().to_string()
}

fn manifest(start: &str) -> Manifest {
    Manifest::new("connect4", SIZE, start, 0)
}

fn small_config() -> StoreConfig {
    StoreConfig {
        mem_bytes: 1 << 20,
        ..StoreConfig::default()
    }
}

/// The run files and their bytes.
fn runs_of(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    run_files(dir)
        .unwrap()
        .into_iter()
        .map(|(_, p)| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect()
}

/// Linux: the refusal names the holder's pid only if `/proc/PID` shows it alive.
#[cfg(target_os = "linux")]
#[test]
fn a_second_user_of_a_directory_is_refused_in_either_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");

    // this process writes first: the binary's solve and check are refused
    // SAFETY: the directory is private to this test; the binary only ever reads it here.
    let store = unsafe { Store::open(&dir, &manifest(""), small_config()) }.unwrap();
    let o = solve(&dir, "444").output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr_line(&o));
    let line = stderr_line(&o);
    assert!(
        line.contains("in use by another zugzwang process")
            && line.contains(&format!("pid {}", std::process::id())),
        "{line}"
    );
    let o = zugzwang()
        .args(["table", "check"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr_line(&o).contains("in use"), "{}", stderr_line(&o));
    drop(store);

    // the binary writes first: this process and a second binary are refused
    let mut child = solve(&dir, "")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let lock = dir.join(zugzwang::store::lock::LOCK_FILE);
    let t0 = Instant::now();
    while std::fs::read_to_string(&lock).unwrap_or_default().trim() != pid.to_string() {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the child never took the lock"
        );
        assert!(child.try_wait().unwrap().is_none(), "the child ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: refused before anything is mapped.
    let e = unsafe { Store::open(&dir, &manifest(""), small_config()) }.unwrap_err();
    assert!(e.to_string().contains(&format!("pid {pid}")), "{e}");
    let o = solve(&dir, "444").output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr_line(&o).contains(&format!("pid {pid}")),
        "{}",
        stderr_line(&o)
    );
    assert!(
        child.try_wait().unwrap().is_none(),
        "the writer ran to the end meanwhile; the refusals above prove nothing about it"
    );
    // a killed writer leaves no lock behind
    child.kill().unwrap();
    child.wait().unwrap();
    // SAFETY: the writer is dead; the directory is ours again.
    let store = unsafe { Store::open(&dir, &manifest(""), small_config()) };
    assert!(store.is_ok(), "{:?}", store.err());
}

/// Disk full while writing a run: the solve runs under a file size limit (`RLIMIT_FSIZE`, with
/// `SIGXFSZ` ignored so that the write fails with `EFBIG` the way a full disk fails with `ENOSPC`).
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_gives_one_error_keeps_earlier_runs_and_a_later_solve_resumes() {
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");

    // earlier runs
    let o = solve(&dir, "444").output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let before = runs_of(&dir);
    assert!(!before.is_empty());
    let manifest_before = std::fs::read(dir.join("manifest.json")).unwrap();

    // a solve whose next run cannot be written: at most 64 KiB per file
    let mut full = solve(&dir, "44");
    // SAFETY: between fork and exec the closure only calls async-signal-safe functions
    // (signal, setrlimit) and allocates nothing.
    unsafe {
        full.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: 64 << 10,
                rlim_max: 64 << 10,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let o = full.output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let line = stderr_line(&o);
    assert!(
        line.contains("run-")
            && line.contains("not written (File too large")
            && line.contains("the directory is unchanged"),
        "{line}"
    );

    // the earlier runs are intact and alone: no new run, no temporary file, the same manifest
    assert_eq!(runs_of(&dir), before);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.starts_with(".tmp")), "{names:?}");
    assert_eq!(
        std::fs::read(dir.join("manifest.json")).unwrap(),
        manifest_before
    );
    for (path, _) in &before {
        // SAFETY: no process uses the directory now.
        assert!(unsafe { Run::open(path, None, Verify::Full) }.is_ok());
    }

    // a later solve, with room, resumes from them and gets the value a plain solve gets
    let resumed = solve(&dir, "44").output().unwrap();
    assert_eq!(resumed.status.code(), Some(0));
    let out = String::from_utf8_lossy(&resumed.stdout).to_string();
    let plain = zugzwang()
        .args(["solve", "connect4", "--size", SIZE, "--mem", "64M", "44"])
        .output()
        .unwrap();
    let score = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("score:"))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no score line in {text}"))
    };
    assert_eq!(score(&out), score(&String::from_utf8_lossy(&plain.stdout)));
    let hits = out
        .lines()
        .find(|l| l.starts_with("table:"))
        .and_then(|l| l.split(", ").last())
        .and_then(|h| h.strip_suffix(" disk hits"))
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no table line in {out}"));
    assert!(hits > 0, "the resumed solve used the earlier runs: {out}");
    assert!(runs_of(&dir).len() > before.len(), "and wrote its own");
}

/// A Sogo solve of a few seconds (preset p2_18: a loss for the side to move) with its table.
fn solve_sogo(dir: &Path) -> Command {
    let mut c = zugzwang();
    c.args([
        "solve",
        "sogo",
        "0x00000000d000a470:0x0000004022405281",
        "--json",
        "--quiet",
        "--threads",
        "1",
        "--mem",
        "256M",
        "--save-every",
        "0.5s",
        "--table",
    ])
    .arg(dir);
    c
}

/// How many sorted runs the store directory holds (each save adds one).
fn saved_runs(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with("run-"))
            .count()
    })
}

fn nodes_and_value(o: &Output) -> (u64, String) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    (
        v["nodes"].as_u64().unwrap(),
        v["value"].as_str().unwrap().to_string(),
    )
}

/// Killed with SIGKILL at several points, the solve resumes from its table every time: the
/// value stays the same, the finishing run does less work than a fresh one, and `table check`
/// justifies what the table holds. One thread: two threads' node counts vary by more than a
/// third between fresh runs, too much to compare work.
#[test]
fn a_sogo_solve_killed_at_random_points_resumes_to_the_same_value() {
    let fresh_dir = tempfile::tempdir().unwrap();
    let fresh = nodes_and_value(&solve_sogo(fresh_dir.path()).output().unwrap());
    assert_eq!(fresh.1, "loss");
    let dir = tempfile::tempdir().unwrap();
    let mut seed = std::process::id() as u64 | 1;
    for _ in 0..3 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut child = solve_sogo(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // kill at a random point after the run has saved something (a busy machine may take
        // longer than the sleep to get there, and a kill before any save proves nothing)
        let saved_before = saved_runs(dir.path());
        let deadline = Instant::now() + Duration::from_secs(30);
        while saved_runs(dir.path()) == saved_before
            && child.try_wait().unwrap().is_none()
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(seed % 700));
        match child.try_wait().unwrap() {
            // finished before the kill: a resumed run already
            Some(_) => assert_eq!(
                nodes_and_value(&child.wait_with_output().unwrap()).1,
                "loss"
            ),
            None => {
                child.kill().unwrap();
                child.wait().unwrap();
            }
        }
    }
    let resumed = nodes_and_value(&solve_sogo(dir.path()).output().unwrap());
    assert_eq!(resumed.1, fresh.1);
    assert!(
        resumed.0 < fresh.0,
        "resumed {} nodes, fresh {}",
        resumed.0,
        fresh.0
    );
    let check = zugzwang()
        .args(["table", "check", "--mem", "64M"])
        .arg(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{out}");
    assert!(out.contains("OK"), "{out}");
}

/// `table check` on a 4x4x4 table re-decides with sound keys: a table written with seed 003's
/// keys (whose search called a White win a loss) and a sound table with one value flipped by hand
/// one ply below the start both fail, at the shallowest wrong position, shown with the table's
/// value, the sound value and the line of play; the untouched sound table passes.
#[test]
fn table_check_finds_seed_key_errors_and_a_planted_break_at_the_shallowest_position() {
    use zugzwang::game::cube::Cube;
    use zugzwang::game::{Bits, Game, Rules};
    use zugzwang::solver::games::Solvable;
    use zugzwang::solver::{GameSpec, KeyMode};
    use zugzwang::store::entry::Entry;
    use zugzwang::store::run_file::write_run;

    let check = |dir: &Path| {
        let o = zugzwang()
            .args(["table", "check", "--mem", "64M"])
            .arg(dir)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).to_string(),
        )
    };
    let solve_into = |dir: &Path, position: &str, keys: &str| {
        let o = zugzwang()
            .args(["solve", "sogo", position, "--quiet", "--threads", "1"])
            .args(["--mem", "4M", "--keys", keys, "--table"])
            .arg(dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };

    // seed keys: the search's wrong value is caught at the start
    let seed = tempfile::tempdir().unwrap();
    solve_into(seed.path(), "0x2580d2a51470b23d:0x92252550e3854dc2", "seed");
    let (code, out) = check(seed.path());
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("BREAK at ply 52 (seed keys): the table says loss, the sound value is win; line from the start: (the start)"),
        "{out}"
    );

    // a sound table passes; the same with one child's value flipped fails there
    let start_text = "0x0000042000808e38:0x00000040046031c1"; // preset p0_20
    let good = tempfile::tempdir().unwrap();
    solve_into(good.path(), start_text, "sound");
    assert_eq!(check(good.path()).0, Some(0));
    let spec = GameSpec::Cube(Rules::Sogo);
    let m = Manifest::read(good.path()).unwrap().unwrap();
    let start = <Cube as Solvable>::parse(spec, start_text, m.hash_seed)
        .unwrap()
        .keyed(m.hash_seed, KeyMode::Sound);
    let mut entries: Vec<u64> = Vec::new();
    for (_, path) in run_files(good.path()).unwrap() {
        // SAFETY: the test's own finished table.
        let run = unsafe { Run::open(&path, None, Verify::Full) }.unwrap();
        entries.extend_from_slice(run.entries());
    }
    let key_of = |e: u64| Entry::from_word(e).key();
    let (victim_move, victim) = Bits(start.playable())
        .find_map(|mv| {
            let mut c = start;
            c.play(mv);
            let k = c.key();
            let mine: Vec<u64> = entries
                .iter()
                .copied()
                .filter(|&e| key_of(e) == k)
                .collect();
            (mine.len() == 1).then(|| (c.move_name(mv), mine[0]))
        })
        .expect("a child of the start with one entry");
    let flipped = Entry::new(key_of(victim), Entry::from_word(victim).value().negated()).word();
    let mut lying: Vec<u64> = entries
        .iter()
        .map(|&e| if e == victim { flipped } else { e })
        .collect();
    lying.sort_unstable();
    lying.dedup();
    let liar = tempfile::tempdir().unwrap();
    std::fs::copy(
        good.path().join("manifest.json"),
        liar.path().join("manifest.json"),
    )
    .unwrap();
    let n = lying.len() as u64;
    write_run(
        liar.path(),
        "run-0000000001.zzr",
        &m.identity(),
        lying.into_iter().map(Ok),
        n,
    )
    .unwrap();
    let (code, out) = check(liar.path());
    assert_eq!(code, Some(1), "{out}");
    let stored = Entry::from_word(flipped).value();
    assert!(
        out.contains(&format!(
            "BREAK at ply 21 (sound keys): the table says {}",
            stored.name()
        )) && out.contains(&format!("line from the start: {victim_move}\n")),
        "{out}"
    );
}

/// Seed 003's own search with its keys (`--engine seed --keys seed`) writes a table like any
/// solve; its wrong value on the smallest counterexample is caught by both audits: `table
/// recheck` at the start (the value itself), `table check` at the shallowest entry its
/// children do not justify. The seed's Qubic (games past ply 40 are draws) is never stored.
#[test]
fn a_seed_engine_table_is_audited_and_its_qubic_is_not_stored() {
    let dir = tempfile::tempdir().unwrap();
    let o = zugzwang()
        .args(["solve", "sogo", "0x60c2c318ae1072b9:0x82182ce251ea8d46"])
        .args([
            "--engine", "seed", "--keys", "seed", "--quiet", "--mem", "4M",
        ])
        .arg("--table")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("value:      loss"));
    let audit = |what: &str| {
        let o = zugzwang()
            .args(["table", what, "--mem", "64M"])
            .arg(dir.path())
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).to_string(),
        )
    };
    let (code, out) = audit("recheck");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("BREAK at ply 52 (0 positions re-decided before, 0 values held): stored loss, sound value 1"),
        "{out}"
    );
    let (code, out) = audit("check");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("BREAK at ply 54 (seed keys): the table says loss, the sound value is win; line from the start: c1 c3"),
        "{out}"
    );

    let q = tempfile::tempdir().unwrap();
    let o = zugzwang()
        .args(["solve", "qubic", "--engine", "seed", "--table"])
        .arg(q.path().join("t"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr_line(&o).contains("past ply 40"),
        "{}",
        stderr_line(&o)
    );
    assert!(
        !q.path().join("t").exists(),
        "nothing made for a refused table"
    );
}

/// A table made for the empty board (a solve stopped at once) that then keeps the results of a
/// 20-stone preset: its entries lie far deeper than the walk from the start reaches, so `table
/// check` passes the files but says that no value was justified, instead of a bare OK. `--from`
/// the preset reaches them, and `--proof --from` checks the preset's own value alone (a check
/// stopped by `--max-positions` says so); `--proof` where nothing is stored fails, and a bad
/// `--from` is one line of bad input. A proof check resumes from its `--journal`, and checks the
/// same proof on two threads.
#[test]
fn table_check_says_when_it_justified_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let solve = |position: &[&str]| {
        zugzwang()
            .args(["solve", "sogo", "--threads", "1", "--mem", "64M", "--quiet"])
            .args(position)
            .arg("--table")
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let stopped = solve(&["--time-limit", "0.2s"]);
    assert_eq!(stopped.status.code(), Some(3), "{}", stderr_line(&stopped));
    let p0_20 = solve(&["0x0000042000808e38:0x00000040046031c1"]);
    assert!(p0_20.status.success(), "{}", stderr_line(&p0_20));
    let o = zugzwang()
        .args(["table", "check", "--mem", "64M"])
        .arg(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("0 values justified"), "{out}");
    assert!(
        out.contains("OK as files; no stored value is reachable from the start"),
        "{out}"
    );

    let check = |args: &[&str]| table_check(dir.path(), args);
    let p0_20 = "0x0000042000808e38:0x00000040046031c1";
    let (code, out, _) = check(&["--from", p0_20]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(&format!("walk from '{p0_20}'")), "{out}");
    assert!(!out.contains(" 0 values justified"), "{out}");
    let (code, out, _) = check(&["--proof", "--from", p0_20]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains(&format!("proof of '{p0_20}' (loss): ")),
        "{out}"
    );
    assert!(out.contains("\nOK in "), "{out}");
    // on two threads (one per core by default): the same proof, checked
    let (code, out2, _) = check(&["--proof", "--from", p0_20, "--threads", "2"]);
    assert_eq!(code, Some(0), "{out2}");
    assert_eq!(proof_positions(&out2), proof_positions(&out), "{out2}");
    assert!(out2.contains("\nOK in "), "{out2}");
    let (code, out, _) = check(&["--proof", "--from", p0_20, "--max-positions", "1"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("1 values justified") && out.contains("\nOK as far as checked"),
        "{out}"
    );
    let (code, out, _) = check(&["--proof"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("proof of '' (no stored value)")
            && out.contains("FAIL the start has no stored value"),
        "{out}"
    );
    let (code, _, o) = check(&["--from", "e9"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr_line(&o).contains("--from 'e9'"),
        "{}",
        stderr_line(&o)
    );

    // --journal: a check stopped part way (here by --max-positions) goes on from its journal,
    // which the second check reads and finishes; a journal of another start is refused, and so
    // is --journal without --proof
    let journal_dir = tempfile::tempdir().unwrap();
    let journal = journal_dir.path().join("proof.journal");
    let journal_arg = journal.to_str().unwrap();
    let with_journal = ["--proof", "--from", p0_20, "--journal", journal_arg];
    let (code, out, _) = check(&[&with_journal[..], &["--max-positions", "2"]].concat());
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("2 values justified")
            && out.contains("; 0 of them justified by an earlier check (its journal held 0)"),
        "{out}"
    );
    let (code, out, _) = check(&with_journal);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("; 2 of them justified by an earlier check (its journal held 2)")
            && out.contains("\nOK in "),
        "{out}"
    );
    let (code, _, o) = check(&["--proof", "--journal", journal_arg]);
    assert_eq!(code, Some(2));
    assert!(
        stderr_line(&o).contains("is the journal of another table, start or state"),
        "{}",
        stderr_line(&o)
    );
    let (code, _, _) = check(&["--journal", journal_arg]);
    assert_eq!(code, Some(2));
}

/// `table check --proof --extract OUT` writes the proof alone as a store of its own: smaller
/// than the table, passing the same check through as many positions with as many searches,
/// and answering a solve of
/// its start without search. A used directory is refused before the check, a check stopped
/// part way writes nothing and says so, and `--extract` needs `--proof`.
#[test]
fn a_checked_proof_is_extracted_as_a_table_of_its_own() {
    let p2_18 = "0x00000000d000a470:0x0000004022405281";
    let dir = tempfile::tempdir().unwrap();
    let solve = |table: &Path| {
        zugzwang()
            .args(["solve", "sogo", p2_18, "--threads", "1", "--mem", "64M"])
            .args(["--quiet", "--json", "--table"])
            .arg(table)
            .output()
            .unwrap()
    };
    let o = solve(dir.path());
    assert!(o.status.success(), "{}", stderr_line(&o));
    let check = |table: &Path, args: &[&str]| table_check(table, &[&["--proof"], args].concat());
    let (code, whole, _) = check(dir.path(), &[]);
    assert_eq!(code, Some(0), "{whole}");

    let out_dir = tempfile::tempdir().unwrap();
    let proof = out_dir.path().join("proof");
    let (code, out, _) = check(dir.path(), &["--extract", proof.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("proof extracted to "), "{out}");
    let (code, alone, _) = check(&proof, &[]);
    assert_eq!(code, Some(0), "{alone}");
    assert!(
        alone.contains(&format!("proof of '{p2_18}' (loss): ")),
        "{alone}"
    );
    // through as many positions, with the same searches of children (those the table passed
    // over came with the proof); unless the extraction kept children whose search was hard (a
    // search of over half a second: none here, but a slow machine may take that long), which
    // are then positions of the proof too
    let searched = |out: &str| -> u64 {
        let head = &out[..out.find(" by search").expect("the counts")];
        head[head.rfind(' ').unwrap() + 1..].parse().unwrap()
    };
    if out.contains("kept in the proof") {
        assert!(proof_positions(&alone) > proof_positions(&whole), "{alone}");
    } else {
        assert_eq!(proof_positions(&alone), proof_positions(&whole), "{alone}");
        assert_eq!(searched(&alone), searched(&whole), "{alone}");
    }
    let bytes = |d: &Path| -> u64 {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len())
            .sum()
    };
    assert!(
        bytes(&proof) * 2 < bytes(dir.path()),
        "the proof is smaller"
    );
    assert_answered_without_search(&solve(&proof), "loss");

    // the proof's directory is now used: refused at once, in one line
    let (code, _, o) = check(dir.path(), &["--extract", proof.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(stderr_line(&o).contains("must be a new or empty directory"));
    let partial = out_dir.path().join("partial");
    let args = [
        "--extract",
        partial.to_str().unwrap(),
        "--max-positions",
        "1",
    ];
    let (code, out, _) = check(dir.path(), &args);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("proof not extracted"), "{out}");
    assert!(!partial.exists());
    let o = zugzwang()
        .args(["table", "check", "--extract"])
        .arg(&partial)
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// `--extract-hash-seed N` writes the checked proof keyed by another hash seed, in a store of
/// that seed, where it passes the same check (every look-up and search keyed by the new seed)
/// and a solve with that seed answers from it without search. Its entries really are the new
/// seed's: under the old seed's manifest the start has no value. Where keys are exact (Connect
/// Four) the option is refused in one line before any check.
#[test]
fn a_proof_is_extracted_under_another_hash_seed_and_checks_there() {
    let preset = "0x00000001000114d5:0x000100000200cb28"; // a loss for the side to move
    let dir = tempfile::tempdir().unwrap();
    let o = zugzwang()
        .args(["solve", "sogo", preset, "--threads", "1", "--mem", "64M"])
        .args(["--quiet", "--table"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_line(&o));
    let out_dir = tempfile::tempdir().unwrap();
    let (same, seven) = (out_dir.path().join("same"), out_dir.path().join("seven"));
    let extract = |to: &Path, seed: &[&str]| {
        let args = [&["--proof", "--extract", to.to_str().unwrap()], seed].concat();
        let (code, out, _) = table_check(dir.path(), &args);
        assert_eq!(code, Some(0), "{out}");
        assert!(out.contains("proof extracted to "), "{out}");
    };
    extract(&same, &[]);
    extract(&seven, &["--extract-hash-seed", "7"]);
    let m = Manifest::read(&seven).unwrap().expect("a store");
    let original = Manifest::read(dir.path()).unwrap().expect("a store");
    assert_eq!((m.hash_seed, m.start.as_str()), (7, preset));
    assert_ne!(original.hash_seed, 7);

    let (code, under_seven, _) = table_check(&seven, &["--proof"]);
    assert_eq!(code, Some(0), "{under_seven}");
    let (code, under_same, _) = table_check(&same, &["--proof"]);
    assert_eq!(code, Some(0), "{under_same}");
    assert!(under_seven.contains(&format!("proof of '{preset}' (loss): ")));
    assert_eq!(proof_positions(&under_seven), proof_positions(&under_same));
    let words = |d: &Path| -> Vec<u8> { runs_of(d).into_iter().flat_map(|(_, b)| b).collect() };
    assert_ne!(words(&seven), words(&same), "other keys");

    let o = zugzwang()
        .args(["solve", "sogo", preset, "--threads", "1", "--mem", "64M"])
        .args(["--quiet", "--json", "--hash-seed", "7", "--table"])
        .arg(&seven)
        .output()
        .unwrap();
    assert_answered_without_search(&o, "loss");

    // the same entries under the old seed's manifest: the start's key is not among them
    let back = Manifest::new(&m.game, &m.variant, &m.start, original.hash_seed);
    std::fs::write(seven.join(MANIFEST), back.to_text()).unwrap();
    let (code, out, _) = table_check(&seven, &["--proof"]);
    assert_eq!(code, Some(1), "{out}");

    let c4 = tempfile::tempdir().unwrap();
    assert!(solve(c4.path(), "4444").output().unwrap().status.success());
    let to = out_dir.path().join("c4");
    let args = [
        "--proof",
        "--extract",
        to.to_str().unwrap(),
        "--extract-hash-seed",
        "7",
    ];
    let (code, out, o) = table_check(c4.path(), &args);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.is_empty(), "refused before the check: {out}");
    assert!(stderr_line(&o).contains("exact"), "{}", stderr_line(&o));
    assert!(!to.exists());
}

/// The committed proof that Sogo `-g` is a second-player win (`solve-runs/sogo-g-seed2`, issue
/// #20) stays readable and checkable by this build: a solve with its hash seed answers "loss"
/// from the table without a node of search, and `table check` verifies every run and justifies
/// the first positions of its walk from the empty board. A change of keys, entry format or rules
/// that broke the evidence fails here (a copy is used: a check or solve locks and may add to its
/// directory).
#[test]
fn the_committed_sogo_g_proof_still_answers_and_checks() {
    let dir = copy_of_committed("sogo-g-seed2");
    let o = zugzwang()
        .args(["solve", "sogo", "-g", "--hash-seed", "2", "--threads", "1"])
        .args(["--mem", "64M", "--time-limit", "20s", "--json", "--table"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_answered_without_search(&o, "loss");
    let o = zugzwang()
        .args(["table", "check", "--max-positions", "100", "--mem", "64M"])
        .arg(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("7 runs ok, 0 bad") && out.contains("100 values justified"),
        "{out}"
    );
}

/// A copy of the committed table `solve-runs/NAME` (a check or solve locks and may add to its
/// directory).
fn copy_of_committed(name: &str) -> tempfile::TempDir {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("solve-runs")
        .join(name);
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if name != "zugzwang.lock" {
            std::fs::copy(&path, dir.path().join(name)).unwrap();
        }
    }
    dir
}

/// The committed proofs of the decided milestone replies (`solve-runs/milestone-reply-*`,
/// written by `table check --proof --extract`, issue #20) stay readable and checkable by this
/// build: a solve of the reply with the proof's hash seed answers White's win and its winning
/// move from the proof without a node of search, and `table check --proof` justifies the first
/// positions of the proof. A change of keys, entry format or rules that broke the evidence
/// fails here. 88908's proof is checked through its first 10 positions only (all its children
/// there have entries, among them those its extraction kept): the next ones need searches of
/// minutes in this test's 64 MiB; the whole proof's re-check is in
/// `solve-runs/milestone-replies-checks.txt`.
#[test]
fn the_committed_milestone_reply_proofs_still_answer_and_check() {
    // (directory `milestone-reply-HEX-seedS`, White's winning move, first positions checked here):
    // the reply and the hash seed are read from the name, as the ledger test reads them
    let proofs = [
        ("milestone-reply-8b08-seed1", "c3", 30),
        ("milestone-reply-8d08-seed1", "b3", 30),
        ("milestone-reply-890a-seed407704158398", "a2", 30),
        ("milestone-reply-80008908-seed407704158398", "a2", 30),
        ("milestone-reply-88908-seed407704158398", "a2", 10),
        ("milestone-reply-a908-seed407704158398", "a2", 30),
        ("milestone-reply-8008908-seed407704158398", "d2", 30),
        ("milestone-reply-1000008908-seed407704158398", "c2", 20),
        ("milestone-reply-18908-seed407704158398", "a2", 30),
        ("milestone-reply-890c-seed407704158398", "a2", 30),
        ("milestone-reply-c908-seed407704158398", "a2", 30),
        ("milestone-reply-8928-seed407704158398", "a2", 30),
        ("milestone-reply-1008908-seed407704158398", "a2", 30),
    ];
    for (name, best, checked_here) in proofs {
        let (hex, seed) = name
            .strip_prefix("milestone-reply-")
            .and_then(|rest| rest.split_once("-seed"))
            .unwrap_or_else(|| panic!("{name}: not milestone-reply-HEX-seedS"));
        let position = format!("0x0000000000101091:0x{hex:0>16}");
        let position = position.as_str();
        let dir = copy_of_committed(name);
        let o = zugzwang()
            .args([
                "solve",
                "sogo",
                position,
                "--hash-seed",
                seed,
                "--threads",
                "1",
            ])
            .args(["--mem", "64M", "--time-limit", "20s", "--json", "--table"])
            .arg(dir.path())
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{name}: {}", stderr_line(&o));
        assert!(
            out.contains("\"value\":\"win\"")
                && out.contains("\"nodes\":0,")
                && out.contains(&format!("\"{best}\"")),
            "{name}: {out}"
        );
        let o = zugzwang()
            .args(["table", "check", "--proof", "--max-positions"])
            .arg(checked_here.to_string())
            .args(["--mem", "64M", "--threads", "1"])
            .arg(dir.path())
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{name}: {out}");
        assert!(
            out.contains(&format!("proof of '{position}' (win): "))
                && out.contains(&format!("{checked_here} values justified"))
                && out.contains("OK as far as checked"),
            "{name}: {out}"
        );
    }
}

/// The committed packs of the milestone replies still open (`solve-runs/paused-reply-HEX-seedS`,
/// written by `table pack` at a session's end, issue #20) are what the next machine resumes
/// from: each is a store made for the reply its name says under its hash seed, its run is
/// sound and without contradictions, and the first facts a walk from the reply reaches (if
/// any: a pack's facts may all lie below open positions) are justified by their children.
#[test]
fn the_committed_packs_of_open_replies_are_sound_stores_of_the_replies_they_name() {
    let runs = Path::new(env!("CARGO_MANIFEST_DIR")).join("solve-runs");
    let mut names: Vec<String> = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("paused-reply-"))
        .collect();
    names.sort();
    for name in names {
        let (hex, seed) = (name["paused-reply-".len()..].split_once("-seed"))
            .unwrap_or_else(|| panic!("{name}: not paused-reply-HEX-seedS"));
        let dir = copy_of_committed(&name);
        let manifest = std::fs::read_to_string(dir.path().join("manifest.json")).unwrap();
        let start = format!("0x0000000000101091:0x{:0>16}", hex);
        assert!(
            manifest.contains(&format!("\"start\": \"{start}\""))
                && manifest.contains(&format!("\"hash_seed\": {seed}")),
            "{name}: {manifest}"
        );
        let (code, out, _) = table_check(dir.path(), &["--max-positions", "10"]);
        assert_eq!(code, Some(0), "{name}: {out}");
        // a pack added to at later pauses (`table pack --add`) has a run per pause
        let runs = runs_of(dir.path()).len();
        assert!(
            runs >= 1
                && out.contains(&format!("{runs} runs ok, 0 bad"))
                && out.contains("no contradictions"),
            "{name}: {out}"
        );
    }
}

/// The ledger of the milestone replies' segments (`solve-runs/milestone-replies-segments.csv`,
/// issue #20), from which the README's forecast is computed, agrees with the evidence beside
/// it: it names exactly Black's 16 replies of `verify/data/cube/milestone.txt`, numbers each
/// reply's segments 1, 2, ... in order, counts every segment's work, decides a reply in its last
/// segment only, and every reply it calls decided has its committed proof and a record of White's
/// win with the move it names, while every committed pack of an open reply belongs to a reply it
/// calls open.
#[test]
fn the_milestone_ledger_agrees_with_the_records_proofs_and_packs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = root.join("solve-runs");
    let milestone = std::fs::read_to_string(root.join("verify/data/cube/milestone.txt")).unwrap();
    let replies: Vec<String> = milestone
        .lines()
        .filter(|l| !l.contains(' '))
        .filter_map(|l| l.strip_prefix("0x0000000000101091:0x"))
        .map(|black| format!("{:x}", u64::from_str_radix(black, 16).unwrap()))
        .collect();
    assert_eq!(replies.len(), 16, "{milestone}");

    let ledger = std::fs::read_to_string(runs.join("milestone-replies-segments.csv")).unwrap();
    let (header, rows) = ledger_rows(&ledger);
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (reply, segment, nodes, stopped, table, log) = (
        column("reply"),
        column("segment"),
        column("nodes"),
        column("stopped_by"),
        column("table"),
        column("log"),
    );
    // each log names one segment: kept logs by their reply and segment, lost ones as they were
    let mut logs = std::collections::HashSet::new();
    // reply -> (segments, decided with this move)
    let mut seen: Vec<(String, u32, Option<String>)> = Vec::new();
    for row in &rows {
        let line = row.join(",");
        assert!(row[nodes].parse::<u64>().unwrap() > 0, "{line}");
        let n: u32 = row[segment].parse().unwrap();
        assert!(logs.insert(row[log]), "a log of two segments: {line}");
        assert!(
            row[table] == "lost" || row[log] == format!("reply-{}-{n}.txt", row[reply]),
            "a kept log not named by its reply and segment: {line}"
        );
        let won = row[stopped].strip_prefix("decided: White wins with ");
        assert!(
            won.is_some() || !row[stopped].starts_with("decided"),
            "{line}"
        );
        match seen.iter_mut().find(|(r, _, _)| r == row[reply]) {
            Some((_, last, decided)) => {
                assert!(n == *last + 1 && decided.is_none(), "{line}");
                *last = n;
                *decided = won.map(str::to_owned);
            }
            None => {
                assert_eq!(n, 1, "{line}");
                seen.push((row[reply].to_owned(), 1, won.map(str::to_owned)));
            }
        }
    }
    let mut named: Vec<&String> = seen.iter().map(|(r, _, _)| r).collect();
    let mut expected: Vec<&String> = replies.iter().collect();
    named.sort();
    expected.sort();
    assert_eq!(named, expected);

    let records = zugzwang::record::load_dir(&runs).unwrap();
    let files: Vec<String> = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for (hex, _, decided) in &seen {
        let proof = files
            .iter()
            .any(|f| f.starts_with(&format!("milestone-reply-{hex}-seed")));
        let pack = files
            .iter()
            .any(|f| f.starts_with(&format!("paused-reply-{hex}-seed")));
        match decided {
            Some(best) => {
                let position = format!("0x0000000000101091:0x{hex:0>16}");
                assert!(proof && !pack, "{hex}: proof {proof}, pack {pack}");
                assert!(
                    records.iter().any(|r| r.moves == position
                        && r.value == "win"
                        && r.best_moves.contains(best)),
                    "{hex}: no record of White's win with {best}"
                );
            }
            None => assert!(!proof, "{hex}: a proof, but open in the ledger"),
        }
    }
    for pack in files.iter().filter(|f| f.starts_with("paused-reply-")) {
        assert!(
            seen.iter()
                .any(|(hex, _, _)| pack.starts_with(&format!("paused-reply-{hex}-seed"))),
            "{pack}: a pack of no reply the ledger names"
        );
    }
}

/// The milestone ledger (`solve-runs/milestone-replies-segments.csv`): its header and rows, each
/// row checked to have one field per column (no field may hold a comma or a quote).
fn ledger_rows(ledger: &str) -> (Vec<&str>, Vec<Vec<&str>>) {
    let mut lines = ledger.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    for row in &rows {
        assert_eq!(
            row.len(),
            header.len(),
            "a field with a comma or quote: {row:?}"
        );
    }
    (header, rows)
}

/// `n` in millions to one decimal with thousands separators, as the README writes counts
/// ("4,775.5 M").
fn millions(n: u64) -> String {
    let tenths = (n as f64 / 1e5).round() as u64;
    format!("{}.{} M", grouped(tenths / 10), tenths % 10)
}

/// `n` in words, as the README counts segments and replies: 0 as "no", 26 as "twenty-six".
fn in_words(n: usize) -> String {
    const UNITS: [&str; 20] = [
        "no",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 10] = [
        "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    match n {
        0..=19 => UNITS[n].to_string(),
        20..=99 if n % 10 == 0 => TENS[n / 10].to_string(),
        20..=99 => format!("{}-{}", TENS[n / 10], UNITS[n % 10]),
        _ => panic!("{n}: more than the README counts in words"),
    }
}

/// `n` with its digits in groups of three, as the README writes them: 1234567 as "1,234,567".
fn grouped(n: u64) -> String {
    let whole = n.to_string();
    let mut out = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The README's figures for the milestone are the ledger's: each open reply's cell in the table
/// of replies carries the ledger's sums (df-pn expansions, which an old build counted, apart from
/// nodes), its number of segments and of those on tables since lost, each other segment's nodes,
/// and, where its table is kept, where its last segment stopped, which is where the next
/// session resumes it; each decided reply's cell carries its winning move and all the work it
/// took, with its number of segments; the forecast paragraph carries the ledger's decided, open and total work,
/// the end of its last segment (as does `solve-runs/README.md`'s "Which next", with the open
/// replies least spent first and what each has had, and its "what the ledger says of the open
/// four": each one's most nodes on one table and their range, and a decided reply's most where
/// it names one; and each folded sentence of
/// kept-table sessions: its two sums of nodes and its range of rates), and the empty
/// board's nodes, core-hours, years and days (and TU Munich's share) at the rate of the
/// milestone reply records pooled. The cells are
/// written from the ledger by hand each session, so this is what keeps them from drifting.
#[test]
fn the_readme_shows_the_milestone_ledger() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ledger =
        std::fs::read_to_string(root.join("solve-runs/milestone-replies-segments.csv")).unwrap();
    let (header, rows) = ledger_rows(&ledger);
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (reply, nodes, count, stopped, table, ended) = (
        column("reply"),
        column("nodes"),
        column("count"),
        column("stopped_by"),
        column("table"),
        column("ended_utc"),
    );
    let (searching, proof, disproof) = (
        column("searching"),
        column("root_proof"),
        column("root_disproof"),
    );
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut hexes: Vec<&str> = rows.iter().map(|r| r[reply]).collect();
    hexes.sort_unstable();
    hexes.dedup();
    let (mut decided, mut open) = (0u64, 0u64);
    // each decided reply's total, and each open reply's with its name
    let (mut decided_each, mut open_each) = (Vec::new(), Vec::new());
    for &hex in &hexes {
        let own: Vec<&Vec<&str>> = rows.iter().filter(|r| r[reply] == hex).collect();
        let sum = |expansions: bool| -> u64 {
            own.iter()
                .filter(|r| r[count].starts_with("expansions") == expansions)
                .map(|r| r[nodes].parse::<u64>().unwrap())
                .sum()
        };
        let (expanded, counted) = (sum(true), sum(false));
        let last = own.last().unwrap();
        let position = format!("`0x0000000000101091:0x{hex:0>16}`");
        let cell = readme
            .lines()
            // the table of replies, not the results table's rows of their records
            .find(|l| l.starts_with('|') && !l.starts_with("| sogo |") && l.contains(&position))
            .unwrap_or_else(|| panic!("{hex}: no row in the README's table of replies"));
        if let Some(best) = last[stopped].strip_prefix("decided: White wins with ") {
            // a decided reply's cell: its winning move and all the work it took
            let want = format!(
                "**White wins with {best}**: {} nodes in {} segment",
                millions(expanded + counted),
                in_words(own.len())
            );
            assert!(cell.contains(&want), "{hex}: not {want}: {cell}");
            decided += expanded + counted;
            decided_each.push(expanded + counted);
            continue;
        }
        open += expanded + counted;
        open_each.push((expanded + counted, hex));
        assert!(cell.contains("| open: "), "{hex}: {cell}");
        // its segments, how many of them were on tables since lost (the ledger lists those
        // first), and each segment on a kept table by its nodes
        let lost = own.iter().filter(|r| r[table] == "lost").count();
        let segments = format!(" in {} segments", in_words(own.len()));
        let want = match lost {
            // a reply whose tables were all kept has no clause for lost ones
            0 => segments,
            n if n == own.len() => format!("{segments} (all of them on tables since lost"),
            n => format!("{segments} (the first {} on tables since lost", in_words(n)),
        };
        assert!(cell.contains(&want), "{hex}: not {want}: {cell}");
        for r in own.iter().filter(|r| r[table] != "lost") {
            let want = millions(r[nodes].parse().unwrap());
            assert!(cell.contains(&want), "{hex}: not {want}: {cell}");
        }
        if expanded > 0 {
            let want = format!("{} df-pn expansions", millions(expanded));
            assert!(cell.contains(&want), "{hex}: not {want}: {cell}");
        }
        if counted > 0 {
            let want = format!("{} nodes", millions(counted));
            assert!(cell.contains(&want), "{hex}: not {want}: {cell}");
        }
        if last[table] != "lost" {
            let want = format!(
                "searching {} when stopped (root proof {}, disproof {})",
                last[searching], last[proof], last[disproof]
            );
            assert!(cell.contains(&want), "{hex}: not {want}: {cell}");
            let pack = format!("solve-runs/paused-reply-{hex}-seed");
            assert!(cell.contains(&pack), "{hex}: not {pack}: {cell}");
        }
    }
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme = words(&readme);
    let latest = rows
        .iter()
        .map(|r| r[ended])
        .max()
        .unwrap()
        .replace('T', " ");
    // the README's two ways of writing a count of nodes: millions below a billion, else billions
    let short = |n: u64| match n {
        n if n < 1_000_000_000 => format!("{:.0} M", n as f64 / 1e6),
        n => format!("{:.2} G", n as f64 / 1e9),
    };
    // the rate the forecast's core-hours are at: every milestone reply's record pooled
    let pooled: Vec<_> = zugzwang::record::load_dir(&root.join("solve-runs"))
        .unwrap()
        .into_iter()
        .filter(|r| r.moves.starts_with("0x0000000000101091:"))
        .collect();
    let records = pooled.len();
    let rate = pooled.iter().map(|r| r.nodes as f64).sum::<f64>()
        / pooled.iter().map(|r| r.cpu_seconds).sum::<f64>();
    // the empty board at x2,560 the milestone: its nodes, and its core-hours at the pooled rate
    let empty = |nodes: u64| nodes as f64 * 2560.0;
    let hours = |nodes: u64| empty(nodes) / rate / 3600.0;
    let core_hours = |nodes: u64| grouped((hours(nodes) / 1000.0).round() as u64 * 1000);
    let (low, twice) = (decided + open, decided + 2 * open);
    let years = |nodes: u64| hours(nodes) / 2.0 / 24.0 / 365.0;
    let days = |nodes: u64| hours(nodes) / 512.0 / 24.0;
    for want in [
        format!(
            "{}-{} core-hours at {:.3} M nodes per CPU second (all {records} reply records pooled)",
            core_hours(low),
            core_hours(twice),
            rate / 1e6
        ),
        format!(
            "The {} decided replies cost {} to {} nodes each",
            in_words(decided_each.len()),
            short(*decided_each.iter().min().unwrap()),
            short(*decided_each.iter().max().unwrap())
        ),
        format!("and the {} open ones", in_words(open_each.len())),
        format!("counts as of {latest} UTC"),
        format!("({:.2} G in all)", decided as f64 / 1e9),
        format!("had {:.2} G more without a decision", open as f64 / 1e9),
        format!(
            "at least {:.1} G nodes, {:.1} G if each open reply needs twice what it has had",
            low as f64 / 1e9,
            twice as f64 / 1e9
        ),
        // the line's 11-stone position took 0.70 G nodes (solve-runs/README.md's snippet)
        format!(
            "at least x{:.0} over the line's 11-stone position",
            low as f64 / 0.70e9
        ),
        format!(
            "forecasts {:.1e}-{:.1e} nodes for the empty board",
            empty(low),
            empty(twice)
        ),
        format!(
            "{:.1}-{:.1} years on this 2-core machine, {:.1}-{:.1} days on 512 cores at full \
             efficiency ({:.1}-{:.1} at half)",
            years(low),
            years(twice),
            days(low),
            days(twice),
            2.0 * days(low),
            2.0 * days(twice)
        ),
        format!(
            "TU Munich's unfinished 28,900 core-hours are about {:.0}% of the lower figure",
            28_900.0 / hours(low) * 100.0
        ),
    ] {
        assert!(readme.contains(&want), "the README's forecast: not {want}");
    }
    // folded to single spaces, so every check below reads a figure however the prose wraps it
    let runs_readme = words(&std::fs::read_to_string(root.join("solve-runs/README.md")).unwrap());
    // the open replies, least spent first, each with what it has had
    open_each.sort_unstable();
    let named: Vec<String> = open_each
        .iter()
        .map(|&(spent, hex)| format!("{hex} ({:.2} G)", spent as f64 / 1e9))
        .collect();
    let list = match named.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    let want = format!(
        "**Which next:** the replies with the least spent first (after {latest} UTC: {list})"
    );
    assert!(
        runs_readme.contains(&want),
        "solve-runs/README.md: not {want}"
    );
    // each open reply's most nodes on one table: a stretch of segments begins where one started
    // on a new table, a pack or a copy, and goes on while the next resumed from its table or runs
    let resumed = column("resumed_from");
    let segment = column("segment");
    let mut longest = Vec::new();
    // (a decided reply's most on one table, where the prose names it, in the same words)
    for &hex in &hexes {
        let mut own: Vec<&Vec<&str>> = rows.iter().filter(|r| r[reply] == hex).collect();
        own.sort_by_key(|r| r[segment].parse::<u32>().unwrap());
        let mut stretches: Vec<(u64, &str, &str)> = Vec::new();
        for r in own {
            let n = r[nodes].parse::<u64>().unwrap();
            let goes_on = r[resumed] == "its table" || r[resumed].starts_with("its runs");
            match stretches.last_mut() {
                Some((sum, _, last)) if goes_on => (*sum, *last) = (*sum + n, r[segment]),
                _ => stretches.push((n, r[segment], r[segment])),
            }
        }
        let (most, first, last) = stretches.into_iter().max().unwrap();
        let want = format!(
            "{hex} {:.2} G over segments {first}-{last}",
            most as f64 / 1e9
        );
        if open_each.iter().any(|&(_, h)| h == hex) {
            assert!(
                runs_readme.contains(&want),
                "solve-runs/README.md: not {want}"
            );
            longest.push(most);
            continue;
        }
        for rest in runs_readme.split(&format!(" {hex} ")).skip(1) {
            let w: Vec<&str> = rest.splitn(6, ' ').collect();
            if w.len() >= 5 && w[1..4] == ["G", "over", "segments"] {
                let span = w[4].trim_end_matches(|c: char| !c.is_ascii_digit());
                let named = format!("{hex} {} G over segments {span}", w[0]);
                assert_eq!(
                    named, want,
                    "solve-runs/README.md: a decided reply's stretch"
                );
            }
        }
    }
    // the kept-table sessions, each run folded into one sentence: "the CSV's segments A-B and
    // C-D): X G and Y G nodes in all, R-S M nodes/s" names two replies' stretches by segment
    // number (open when the sessions ran, perhaps decided since); each sum must be some reply's
    // nodes over those segments, and R-S those rows' range of rates
    for (at, _) in runs_readme.match_indices("the CSV's segments ") {
        let words: Vec<&str> = runs_readme[at..].split(' ').collect();
        let span = |w: &str| -> (u32, u32) {
            let (a, b) = w.trim_end_matches("):").split_once('-').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        };
        let spans = [span(words[3]), span(words[5])];
        let sums = [words[6], words[9]].map(|w| w.parse::<f64>().unwrap());
        let mut rates = Vec::new();
        for ((a, b), sum) in spans.into_iter().zip(sums) {
            let matched = hexes.iter().find_map(|&hex| {
                let own: Vec<&Vec<&str>> = rows
                    .iter()
                    .filter(|r| r[reply] == hex)
                    .filter(|r| (a..=b).contains(&r[segment].parse::<u32>().unwrap()))
                    .collect();
                let n: u64 = own.iter().map(|r| r[nodes].parse::<u64>().unwrap()).sum();
                ((n as f64 / 1e9 * 100.0).round() / 100.0 == sum).then_some(own)
            });
            let own = matched.unwrap_or_else(|| panic!("no reply has {sum} G over {a}-{b}"));
            let wall = column("wall_seconds");
            rates.extend(
                own.iter().map(|r| {
                    r[nodes].parse::<f64>().unwrap() / r[wall].parse::<f64>().unwrap() / 1e6
                }),
            );
        }
        let (low, high) = rates
            .iter()
            .fold((f64::MAX, 0f64), |(l, h), &r| (l.min(r), h.max(r)));
        let want = format!("{low:.2}-{high:.2} M nodes/s");
        assert_eq!(words[14], want.split(' ').next().unwrap(), "not {want}");
    }
    if let (Some(least), Some(most)) = (longest.iter().min(), longest.iter().max()) {
        let want = format!(
            "each has had {:.1}-{:.1} G nodes on one table",
            *least as f64 / 1e9,
            *most as f64 / 1e9
        );
        assert!(
            runs_readme.contains(&want),
            "solve-runs/README.md: not {want}"
        );
    }
}

/// A `solve --json` that succeeded with `value` from its table alone: no node of search.
fn assert_answered_without_search(o: &Output, value: &str) {
    let answer = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        answer.contains(&format!("\"value\":\"{value}\"")) && answer.contains("\"nodes\":0,"),
        "{answer}"
    );
}

/// `zugzwang table check --mem 64M ARGS DIR`: exit status, stdout, and the whole output.
fn table_check(dir: &Path, args: &[&str]) -> (Option<i32>, String, Output) {
    let o = zugzwang()
        .args(["table", "check", "--mem", "64M"])
        .args(args)
        .arg(dir)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).to_string(),
        o,
    )
}

/// The number of positions on a lost start's proof, from `table check --proof`'s output.
fn proof_positions(out: &str) -> u64 {
    let tail = &out[out.find("(loss): ").expect("the proof's line") + 8..];
    tail[..tail.find(' ').unwrap()].parse().unwrap()
}

/// Every move of `names` is on exactly one line of a question's report (`table stats`): as the
/// line's own move (`b1: ...`) or as a symmetric image of another (`c1 (= b1, d4): ...`).
fn assert_each_move_listed_once(question: &str, names: &[String]) {
    for name in names {
        let listed = question.lines().filter(|l| {
            l.trim_start().starts_with(&format!("{name}:"))
                || l.contains(&format!(" {name},"))
                || l.contains(&format!(" {name})"))
        });
        assert_eq!(listed.count(), 1, "{name} once in {question}");
    }
}

/// A solve stopped by its time limit leaves a snapshot, and `table stats` reads it back as where
/// the search stood at the start: both questions' numbers, and under each every legal move
/// (symmetric images folded) with its numbers or "no entry". A damaged snapshot is a BAD line
/// and exit status 1, the runs' report before it intact.
#[test]
fn table_stats_shows_where_a_paused_solve_stood_move_by_move() {
    use zugzwang::game::cube::Cube;
    use zugzwang::game::{Bits, Game};
    use zugzwang::solver::games::Solvable;
    use zugzwang::solver::GameSpec;
    let position = SOGO_LINE_24;
    let dir = tempfile::tempdir().unwrap();
    let stopped = zugzwang()
        .args(["solve", "sogo", position, "--threads", "1", "--mem", "128M"])
        .args(["--time-limit", "1s", "--quiet", "--table"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(stopped.status.code(), Some(3), "{}", stderr_line(&stopped));
    let stats = || {
        zugzwang()
            .args(["table", "stats"])
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let o = stats();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "{out}");
    let (_, standing) = out
        .split_once("where the paused search stood at the start")
        .expect("the snapshot is read");
    let g =
        <Cube as Solvable>::parse(GameSpec::from_name("sogo", None).unwrap(), position, 0).unwrap();
    let names: Vec<String> = Bits(g.playable()).map(|mv| g.move_name(mv)).collect();
    // the side to move attacks first; the solve stopped in it, so its root has numbers
    let (mover_q, opponent_q) = standing
        .split_once("does the opponent win?")
        .expect("both questions");
    assert!(
        mover_q.contains("does the side to move win? the start's entry as last written: proof "),
        "{standing}"
    );
    for question in [mover_q, opponent_q] {
        if question.trim_start().starts_with("no entry") {
            continue;
        }
        assert_each_move_listed_once(question, &names);
    }
    // the moves' lines are indented under their question's
    let move_lines = || mover_q.lines().filter(|l| l.starts_with("    "));
    assert!(
        move_lines().any(|l| l.contains(": proof ")),
        "some move has numbers: {mover_q}"
    );
    // --from: one move deeper, into the move the search spent the most work on
    let work = |l: &str| -> u32 { l[l.find("~2^").unwrap() + 3..][..2].trim().parse().unwrap() };
    let busiest = move_lines()
        .filter(|l| l.contains(": proof "))
        .max_by_key(|l| work(l))
        .unwrap()
        .trim_start();
    assert!(work(busiest) > 1, "{busiest}");
    let name = busiest[..busiest.find([':', ' ']).unwrap()].to_string();
    let mv = Bits(g.playable())
        .find(|&mv| g.move_name(mv) == name)
        .expect("a legal move");
    let mut child = g;
    child.play(mv);
    let o = zugzwang()
        .args(["table", "stats"])
        .arg(dir.path())
        .args(["--from", &child.to_hex()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "{out}");
    let (_, deeper) = out
        .split_once(&format!(
            "where the paused search stood at {} (",
            child.to_hex()
        ))
        .expect("the snapshot is read at --from");
    // the child's mover is the start's opponent: its defence is what the search worked on
    let (_, defence) = deeper
        .split_once("does the opponent win?")
        .expect("both questions");
    let child_names: Vec<String> = Bits(child.playable())
        .map(|mv| child.move_name(mv))
        .collect();
    assert_each_move_listed_once(defence, &child_names);
    // a --from that is not a position, or a table without a snapshot: one line, exit status 2
    let o = zugzwang()
        .args(["table", "stats"])
        .arg(dir.path())
        .args(["--from", "0x1:0x1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr_line(&o));
    assert!(stderr_line(&o).contains("--from"), "{}", stderr_line(&o));
    assert!(o.stdout.is_empty(), "refused before the report");
    // (a solve that ends leaves no snapshot: White completes a1-d1 at once)
    let won_at_once = "0x7:0x700";
    let empty = tempfile::tempdir().unwrap();
    let made = zugzwang()
        .args(["solve", "sogo", won_at_once, "--quiet", "--table"])
        .arg(empty.path())
        .output()
        .unwrap();
    assert!(made.status.success());
    let o = zugzwang()
        .args(["table", "stats"])
        .arg(empty.path())
        .args(["--from", won_at_once])
        .output()
        .unwrap();
    assert_refused(&o, "no search-state.zzs");
    // damage the snapshot: a BAD line, exit status 1, the runs still reported
    let state = dir.path().join("search-state.zzs");
    let mut bytes = std::fs::read(&state).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x40;
    std::fs::write(&state, bytes).unwrap();
    let o = stats();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("runs 1 (0 bad)") || out.contains("(0 bad)"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.contains("BAD") && l.contains("search-state")),
        "{out}"
    );
}

/// `zugzwang solve sogo SOGO_LINE_24` on one thread in 128 MiB with the table `table` and the
/// options `extra`.
fn sogo_line_24(table: &Path, extra: &[&str]) -> Output {
    zugzwang()
        .args(["solve", "sogo", SOGO_LINE_24, "--threads", "1"])
        .args(["--mem", "128M", "--json", "--quiet"])
        .args(extra)
        .arg("--table")
        .arg(table)
        .output()
        .unwrap()
}

/// A paused Sogo solve packed (`table pack`) into a new directory, an ordinary store from which
/// the solve resumes to its value (what that saves is measured in the README, not here): the
/// pack holds only facts of the table, all of them if `--max-bytes` allows. A used
/// output directory, a table without a snapshot or a bad size is refused with one line,
/// nothing written.
#[test]
fn a_paused_solve_is_packed_small_and_resumes_from_the_pack() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("table");
    let sogo = sogo_line_24;
    let stopped = sogo(&table, &["--time-limit", "2s"]);
    assert_eq!(stopped.status.code(), Some(3), "{}", stderr_line(&stopped));
    let pack = |out: &Path, max: &str| {
        zugzwang()
            .args(["table", "pack"])
            .arg(&table)
            .arg("--out")
            .arg(out)
            .args(["--max-bytes", max])
            .output()
            .unwrap()
    };
    let facts = |d: &Path| -> Vec<u64> {
        runs_of(d)
            .iter()
            .flat_map(|(p, _)| {
                // SAFETY: a private temporary directory.
                let run = unsafe { Run::open(p, None, Verify::Full) }.unwrap();
                run.entries().to_vec()
            })
            .collect()
    };
    let stored: std::collections::HashSet<u64> = facts(&table).into_iter().collect();
    let packed = dir.path().join("packed");
    let o = pack(&packed, "4M");
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "{said}{}", stderr_line(&o));
    assert!(
        said.starts_with("packed ") && said.contains("every fact the walk reaches"),
        "{said}"
    );
    // a budget that holds the whole store takes all of it, after the walk: what the snapshot
    // holds settled, then the rest
    let kept = facts(&packed);
    let kept_set: std::collections::HashSet<u64> = kept.iter().copied().collect();
    assert_eq!(kept.len(), kept_set.len(), "each entry once");
    assert_eq!(kept_set, stored, "the table's own facts, all of them");
    // a budget of 1 KiB takes at most about 100 facts (a draw's is two entries), the nearest
    // of the same walk, and says so when it leaves some out (the walk cut short, or the fill
    // after it)
    let small = dir.path().join("small");
    let o = pack(&small, "1K");
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    let few = facts(&small);
    assert!(!few.is_empty() && few.len() <= 2 * 100, "{}", few.len());
    assert!(few.iter().all(|e| kept_set.contains(e)));
    assert_eq!(
        said.contains("to --max-bytes"),
        few.len() < kept.len(),
        "{said}"
    );
    // the pack is a store made for the same start: the solve resumes from it
    let (_, value) = nodes_and_value(&sogo(&packed, &[]));
    assert_eq!(value, "win", "SOGO_LINE_24 is a win for the side to move");
    // a used --out, a table with no snapshot (the resumed solve ended), a bad size: one
    // line, exit status 2, nothing written
    let o = pack(&packed, "4M");
    assert_refused(&o, "--out");
    let again = dir.path().join("again");
    let o = zugzwang()
        .args(["table", "pack"])
        .arg(&packed)
        .arg("--out")
        .arg(&again)
        .output()
        .unwrap();
    assert_refused(&o, "no search-state.zzs");
    let o = pack(&again, "lots");
    assert_refused(&o, "--max-bytes");
    assert!(!again.exists());
}

/// `table pack --add`: one more run added to an earlier pack of the same solve, its run kept
/// byte for byte, the two together the table's own facts, each once; onto a store of another
/// solve, or a directory that is no store, refused in one line with nothing written.
#[test]
fn a_pack_grows_by_a_run_added_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("table");
    let stopped = sogo_line_24(&table, &["--time-limit", "2s"]);
    assert_eq!(stopped.status.code(), Some(3), "{}", stderr_line(&stopped));
    let pack_within = |out: &Path, max: &str, extra: &[&str]| {
        zugzwang()
            .args(["table", "pack"])
            .arg(&table)
            .arg("--out")
            .arg(out)
            .args(["--max-bytes", max])
            .args(extra)
            .output()
            .unwrap()
    };
    let pack = |out: &Path, extra: &[&str]| pack_within(out, "1K", extra);
    let entries = |path: &Path| -> Vec<u64> {
        // SAFETY: a private temporary directory.
        let run = unsafe { Run::open(path, None, Verify::Full) }.unwrap();
        run.entries().to_vec()
    };
    let stored: std::collections::HashSet<u64> = (runs_of(&table).iter())
        .flat_map(|(p, _)| entries(p))
        .collect();
    let packed = dir.path().join("packed");
    let o = pack(&packed, &[]);
    assert!(o.status.success(), "{}", stderr_line(&o));
    let first = runs_of(&packed);
    assert_eq!(first.len(), 1);
    let first_bytes = first[0].1.clone();
    let o = pack(&packed, &["--add"]);
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "{said}{}", stderr_line(&o));
    assert!(said.contains("added as one more run to its 1"), "{said}");
    let runs = runs_of(&packed);
    assert_eq!(runs.len(), 2, "{said}");
    assert_eq!(runs[0].1, first_bytes);
    let (earlier, added) = (entries(&runs[0].0), entries(&runs[1].0));
    assert!(!added.is_empty());
    let keys = |e: &[u64]| -> std::collections::HashSet<u64> {
        e.iter().map(|&w| Entry::from_word(w).key().get()).collect()
    };
    assert!(keys(&earlier).is_disjoint(&keys(&added)), "no fact twice");
    assert!(earlier.iter().chain(&added).all(|e| stored.contains(e)));
    // the pack with its added run is a sound store of the same start
    let (code, out, _) = table_check(&packed, &["--max-positions", "10"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("2 runs ok, 0 bad"), "{out}");
    // a budget that holds the rest adds every fact left, and then there is nothing to add:
    // no run is written, and the pack is the whole table
    let o = pack_within(&packed, "4M", &["--add"]);
    assert!(o.status.success(), "{}", stderr_line(&o));
    let o = pack_within(&packed, "4M", &["--add"]);
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(said.contains("nothing added to its 3 runs"), "{said}");
    let all: Vec<u64> = (runs_of(&packed).iter())
        .flat_map(|(p, _)| entries(p))
        .collect();
    assert_eq!(runs_of(&packed).len(), 3);
    assert_eq!(all.len(), stored.len(), "each entry once");
    assert_eq!(
        all.into_iter().collect::<std::collections::HashSet<_>>(),
        stored
    );
    // onto another solve's store, or a directory that is no store: refused, nothing written
    let other = dir.path().join("other");
    // a preset decided in a few nodes
    let o = zugzwang()
        .args(["solve", "sogo", "0x000000003240d204:0x000000400028206b"])
        .args([
            "--threads",
            "1",
            "--mem",
            "64M",
            "--json",
            "--quiet",
            "--table",
        ])
        .arg(&other)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_line(&o));
    let before = runs_of(&other).len();
    assert_refused(&pack(&other, &["--add"]), "a store of another solve");
    assert_eq!(runs_of(&other).len(), before);
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert_refused(&pack(&empty, &["--add"]), "not a position store");
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
}

/// Bad input: exit status 2 and one line on stderr that says `what`.
fn assert_refused(o: &Output, what: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr_line(o));
    assert!(stderr_line(o).contains(what), "{}", stderr_line(o));
}

/// `zugzwang table compare DIRS...`: the process and its standard output.
fn table_compare(dirs: &[impl AsRef<Path>]) -> (Output, String) {
    let o = zugzwang()
        .args(["table", "compare"])
        .args(dirs.iter().map(AsRef::as_ref))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    (o, out)
}

/// `table compare` over the committed tables of the milestone's replies (the decided replies'
/// proofs and the open ones' packs under the default hash seed, issue #20): separate solves
/// that met the same positions by transposition must never disagree about one. The check must
/// not be empty: the proofs alone share few keys (a thousand or so), the packs, rewritten each
/// session, bring the rest (over a hundred thousand so far), so the floor is well under any set
/// of packs yet and well over the proofs alone.
#[test]
fn the_committed_milestone_tables_agree_where_they_meet() {
    let runs = Path::new(env!("CARGO_MANIFEST_DIR")).join("solve-runs");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            (n.starts_with("milestone-reply-") || n.starts_with("paused-reply-"))
                && n.ends_with("-seed407704158398")
        })
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 14, "{dirs:?}");
    let (o, out) = table_compare(&dirs);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr_line(&o));
    let shared: u64 = out
        .split_once("in two tables or more ")
        .and_then(|(_, rest)| rest.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(shared > 10_000, "{out}");
    assert!(
        out.contains("contradictions 0") && out.contains("agree"),
        "{out}"
    );
}

/// `table compare` finds a planted contradiction: a table holding the opposite of a fact of
/// another table's (same game, size and keys) makes it exit with status 1 and show the key with
/// what each table said; tables whose keys mean other positions (another board size) are
/// refused with one line and status 2, before anything is read.
#[test]
fn table_compare_shows_a_planted_contradiction_and_refuses_other_keys() {
    use zugzwang::store::entry::{Entry, Value};
    use zugzwang::store::export::write_store;
    let a = tempfile::tempdir().unwrap();
    let o = solve(a.path(), "44444").output().unwrap();
    assert!(o.status.success(), "{}", stderr_line(&o));
    let m = Manifest::read(a.path()).unwrap().unwrap();
    let (_, run) = run_files(a.path()).unwrap().remove(0);
    let run = unsafe { Run::open(&run, None, Verify::Full) }.unwrap();
    let fact = Entry::from_word(run.entries()[run.entries().len() / 2]);
    let opposite = match fact.value() {
        Value::Win | Value::AtLeastDraw => Value::Loss,
        Value::Loss | Value::AtMostDraw => Value::Win,
    };
    let planted = tempfile::tempdir().unwrap();
    let words = vec![Entry::new(fact.key(), opposite).word()];
    write_store(planted.path(), &m, words).unwrap();
    let (o, out) = table_compare(&[a.path(), planted.path()]);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // what the table knows of the key: all its entries (an exact draw is two)
    let known: Vec<&str> = (run.entries().iter())
        .map(|&w| Entry::from_word(w))
        .filter(|e| e.key() == fact.key())
        .map(|e| e.value().name())
        .collect();
    let line = format!(
        "CONTRADICTION key {:#x}: {} | {}",
        fact.key().get(),
        known.join("+"),
        opposite.name()
    );
    assert!(out.contains(&line), "{line} in {out}");
    assert!(out.contains("contradictions 1"), "{out}");
    // another board size: keys of other positions
    let other = tempfile::tempdir().unwrap();
    let o = zugzwang()
        .args([
            "solve", "connect4", "--size", "6x5", "--mem", "64M", "--table",
        ])
        .arg(other.path())
        .arg("333")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_line(&o));
    let (o, _) = table_compare(&[a.path(), other.path()]);
    assert_refused(&o, "their keys do not mean the same positions");
}
