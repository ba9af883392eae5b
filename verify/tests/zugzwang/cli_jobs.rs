//! `zugzwang prove`, the job-level proof search, through the binary: the value is `solve`'s,
//! the table it leaves passes `table check`, a killed run resumes from its checkpoint, bad input
//! gets one line. Under MPI (ignored unless asked for: it needs Open MPI and a build with the
//! `mpi` feature; README, "Across machines"): 3 and 4 ranks on 2 cores give `solve`'s values.
//!
//! This file belongs to the root package (see `[[test]]` in the root Cargo.toml) so that Cargo
//! builds the binary for it; it lives under verify/tests/ because the top level has no tests/.

use std::path::Path;
use std::process::{Command, Output};

fn zugzwang() -> Command {
    Command::new(env!("CARGO_BIN_EXE_zugzwang"))
}

/// Sogo presets of a fraction of a second (verify/data/cube/sogo-presets.txt).
const PRESETS: [&str; 2] = [
    "0x0000042000808e38:0x00000040046031c1",
    "0x00000001000114d5:0x000100000200cb28",
];

fn ok(o: Output) -> String {
    assert!(
        o.status.success(),
        "status {:?}: {}{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn value_line(out: &str) -> String {
    out.lines()
        .find(|l| l.starts_with("value:"))
        .unwrap_or_else(|| panic!("no value line in {out}"))
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string()
}

fn solved(position: &str) -> String {
    let o = zugzwang()
        .args(["solve", "sogo", position, "--quiet", "--mem", "256M"])
        .output()
        .unwrap();
    value_line(&ok(o))
}

fn prove(extra: &[&str], position: &str, table: Option<&Path>) -> Output {
    let mut c = zugzwang();
    c.arg("prove")
        .args(extra)
        .args(["sogo", position, "--quiet", "--mem", "256M"]);
    if let Some(t) = table {
        c.arg("--table").arg(t);
    }
    c.output().unwrap()
}

#[test]
fn prove_gives_solves_values_and_a_table_that_checks() {
    for p in PRESETS {
        let dir = tempfile::tempdir().unwrap();
        let out = ok(prove(
            &["--workers", "2", "--job-nodes", "2048"],
            p,
            Some(dir.path()),
        ));
        assert_eq!(value_line(&out), solved(p), "{p}: {out}");
        assert!(out.contains("jobs:") && out.contains("messages:"), "{out}");
        let check = zugzwang()
            .args(["table", "check"])
            .arg(dir.path())
            .output()
            .unwrap();
        let report = ok(check);
        assert!(report.contains("OK"), "{p}: {report}");
        assert!(
            !report.contains("no stored value is reachable"),
            "{p}: {report}"
        );
        // a second run is answered from the store without a job
        let again = ok(prove(&["--workers", "2"], p, Some(dir.path())));
        assert_eq!(value_line(&again), value_line(&out));
        assert!(
            again.contains("jobs: 0 sent") || again.contains("jobs: 1 sent"),
            "{again}"
        );
    }
}

#[test]
fn a_stopped_prove_resumes_from_its_checkpoint() {
    let p = PRESETS[1];
    let dir = tempfile::tempdir().unwrap();
    // a time limit far below the run's time: stopped, not decided (exit status 3)
    let first = prove(
        &["--workers", "1", "--job-nodes", "64"],
        p,
        Some(dir.path()),
    );
    let decided_at_once = first.status.success();
    let mut c = zugzwang();
    let stopped = c
        .args(["prove", "--workers", "1", "--job-nodes", "64"])
        .args(["sogo", p, "--quiet", "--mem", "256M", "--time-limit", "1s"])
        .arg("--table")
        .arg(dir.path().join("second"))
        .output()
        .unwrap();
    if stopped.status.code() == Some(3) {
        assert!(dir.path().join("second/job-trees.zzj").exists());
        let resumed = ok(prove(
            &["--workers", "2", "--job-nodes", "64"],
            p,
            Some(&dir.path().join("second")),
        ));
        assert_eq!(value_line(&resumed), solved(p));
        assert!(resumed.contains("resumed:"), "{resumed}");
        assert!(
            !dir.path().join("second/job-trees.zzj").exists(),
            "decided: no checkpoint left"
        );
    } else {
        // the machine was fast enough to decide it within the second
        assert!(stopped.status.success());
    }
    assert!(decided_at_once);
}

/// Killed with SIGKILL at random points (checkpoint and store flushed every 0.2 s), `prove`
/// restarts from what the last run left each time: the finishing run resumes from the saved
/// trees and gives `solve`'s value, and the shallowest positions of its table pass `table
/// check`.
#[test]
fn a_prove_killed_at_random_points_restarts_to_the_same_value() {
    let p = "0x00000000d000a470:0x0000004022405281";
    let args = [
        "--workers",
        "1",
        "--job-nodes",
        "4096",
        "--checkpoint-every",
        "0.2s",
    ];
    let fresh = ok(prove(&args, p, None));
    assert_eq!(value_line(&fresh), solved(p));
    let dir = tempfile::tempdir().unwrap();
    let mut seed = std::process::id() as u64 | 1;
    for _ in 0..3 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut child = zugzwang()
            .arg("prove")
            .args(args)
            .args(["sogo", p, "--quiet", "--mem", "256M", "--table"])
            .arg(dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(400 + seed % 600));
        match child.try_wait().unwrap() {
            // finished before the kill: a restarted run already
            Some(_) => {
                let out = ok(child.wait_with_output().unwrap());
                assert_eq!(value_line(&out), value_line(&fresh), "{out}");
            }
            None => {
                child.kill().unwrap();
                child.wait().unwrap();
            }
        }
    }
    let checkpointed = dir.path().join("job-trees.zzj").exists();
    let last = ok(prove(&args, p, Some(dir.path())));
    assert_eq!(value_line(&last), solved(p), "{last}");
    // the finishing run goes on from the saved trees (whether it then does less work than a
    // run from scratch depends on where the kills fell: df-pn's path changes with what it
    // finds in its tables; `jobs::tests` measures it where kills fall between jobs)
    if checkpointed {
        assert!(last.contains("resumed:"), "{last}");
    }
    // the shallowest 50 stored positions, the start's among them (the whole walk re-searches
    // some 80,000 children: 50 s, too long for CI)
    let check = zugzwang()
        .args(["table", "check", "--mem", "64M", "--max-positions", "50"])
        .arg(dir.path())
        .output()
        .unwrap();
    let report = ok(check);
    assert!(report.contains("OK"), "{report}");
}

#[test]
fn bad_prove_input_gets_one_line() {
    for (args, says) in [
        (vec!["prove", "--policy", "greedy", "sogo"], "--policy"),
        (vec!["prove", "--job-nodes", "0", "sogo"], "--job-nodes"),
        (vec!["prove", "sogo", "--keys", "seed"], "--keys seed"),
        (
            vec!["prove", "sogo", "--engine", "alphabeta"],
            "--engine pn",
        ),
        (vec!["prove", "sogo", "--record", "x"], "--record"),
        (vec!["prove", "sogo", "z9"], "z9"),
    ] {
        let o = zugzwang().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    if !cfg!(feature = "mpi") {
        let o = zugzwang()
            .args(["prove", "--mpi", "sogo"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("--features mpi"));
    }
}

/// Under MPI: 3 and 4 ranks (2 and 3 workers) on this machine's 2 cores, oversubscribed, give
/// `solve`'s values. Needs `mpirun` (Debian: openmpi-bin, libopenmpi-dev) and builds the binary
/// with `--features mpi` into its own target directory:
/// `cargo test --release --test cli_jobs -- --ignored`.
#[test]
#[ignore = "needs Open MPI and a build with --features mpi (README, Across machines)"]
fn mpi_ranks_give_solves_values() {
    let root = env!("CARGO_MANIFEST_DIR");
    let target = Path::new(root).join("target/mpi");
    let build = Command::new(env!("CARGO"))
        .args([
            "build",
            "--release",
            "--features",
            "mpi",
            "--bin",
            "zugzwang",
        ])
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(root)
        .status()
        .unwrap();
    assert!(build.success());
    let bin = target.join("release/zugzwang");
    for ranks in ["3", "4"] {
        for p in PRESETS {
            let dir = tempfile::tempdir().unwrap();
            let o = Command::new("mpirun")
                .args(["--allow-run-as-root", "--oversubscribe", "-np", ranks])
                .arg(&bin)
                .args([
                    "prove",
                    "--mpi",
                    "--job-nodes",
                    "2048",
                    "sogo",
                    p,
                    "--quiet",
                ])
                .args(["--mem", "128M", "--threads", "1", "--table"])
                .arg(dir.path())
                .output()
                .expect("mpirun (apt-get install openmpi-bin libopenmpi-dev)");
            let out = ok(o);
            assert_eq!(value_line(&out), solved(p), "{ranks} ranks, {p}: {out}");
            let check = ok(zugzwang()
                .args(["table", "check"])
                .arg(dir.path())
                .output()
                .unwrap());
            assert!(check.contains("OK"), "{check}");
        }
    }
}
