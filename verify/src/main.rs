//! `zugzwang-verify`: independent audits of what zugzwang computes.

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use zugzwang_verify::threats::Version;
use zugzwang_verify::{audit, output};

/// Independent audits of zugzwang and of the claims it builds on.
#[derive(Parser)]
#[command(name = "zugzwang-verify", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Audit the threat-parity lemmas of seeds 000/001 against exact search.
    Lemmas(LemmasArgs),
}

#[derive(clap::Args)]
struct LemmasArgs {
    /// Which version of the note: 000, 001 or both.
    #[arg(long, default_value = "both")]
    version: String,
    /// Real positions per pattern class (0: abstract audit only).
    #[arg(long, default_value_t = 100)]
    samples: usize,
    /// One JSON object per (version, lemma, rule line, oracle), one per line.
    #[arg(long)]
    json: bool,
    /// Also write the markdown summary to verify/REPORT.md (or --report-path).
    #[arg(long)]
    report: bool,
    /// Where --report writes.
    #[arg(long, default_value = "verify/REPORT.md")]
    report_path: String,
    /// Seed of the random generators.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random 3- and 4-threat sets for the evaluator's abstract audit (per size).
    #[arg(long, default_value_t = 2000)]
    eval_sets: usize,
    /// Random games at most (default: 1000 per requested sample, at least 20,000).
    #[arg(long)]
    max_games: Option<u64>,
    /// Stop the real sampling after this many seconds.
    #[arg(long)]
    real_seconds: Option<f64>,
    /// Transposition table of the real oracle in MiB.
    #[arg(long, default_value_t = 256)]
    table_mib: usize,
    /// First ply from which real positions are sampled.
    #[arg(long, default_value_t = 22)]
    min_ply: u32,
}

fn bad(msg: &str) -> ExitCode {
    eprintln!("zugzwang-verify: {msg}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Lemmas(a) => lemmas(a),
    }
}

fn lemmas(a: LemmasArgs) -> ExitCode {
    let versions = match a.version.as_str() {
        "both" => Version::ALL.to_vec(),
        v => match Version::parse(v) {
            Some(v) => vec![v],
            None => return bad(&format!("--version must be 000, 001 or both, not {v:?}")),
        },
    };
    if a.table_mib == 0 || a.table_mib > 1 << 20 {
        return bad("--table-mib must be between 1 and 1048576");
    }
    if a.min_ply > 40 {
        return bad("--min-ply must be at most 40");
    }
    if let Some(s) = a.real_seconds {
        if s.is_nan() || s < 0.0 {
            return bad("--real-seconds must be a non-negative number");
        }
    }
    let opt = audit::Options {
        versions,
        samples: a.samples,
        seed: a.seed,
        eval_sets: a.eval_sets,
        eval_starts: 16,
        max_games: a
            .max_games
            .unwrap_or((a.samples as u64).saturating_mul(1000).max(20_000)),
        real_seconds: a.real_seconds,
        table_bytes: a.table_mib << 20,
        min_ply: a.min_ply,
    };
    let result = audit::run(&opt);
    if a.json {
        print!("{}", output::json(&result));
        eprint!("{}", output::summary(&result));
    } else {
        print!("{}", output::text(&result));
    }
    if a.report {
        let command = std::iter::once("zugzwang-verify".to_string())
            .chain(std::env::args().skip(1))
            .collect::<Vec<_>>()
            .join(" ");
        let commit = git_commit();
        let md = output::markdown(&result, &command, &commit);
        if let Err(e) = std::fs::write(&a.report_path, md) {
            eprintln!("zugzwang-verify: cannot write {}: {e}", a.report_path);
            return ExitCode::from(1);
        }
        eprintln!("wrote {}", a.report_path);
    }
    if result.stats.consistency_failed > 0 {
        eprintln!(
            "zugzwang-verify: {} (I)-positions where the abstract and the real oracle disagree",
            result.stats.consistency_failed
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

fn git_commit() -> String {
    let run = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match run(&["rev-parse", "HEAD"]) {
        Some(c) => {
            let dirty = run(&["status", "--porcelain", "--untracked-files=no"])
                .map(|s| !s.is_empty())
                .unwrap_or(false);
            if dirty {
                format!("{c} (with uncommitted changes)")
            } else {
                c
            }
        }
        None => "unknown (git unavailable)".into(),
    }
}
