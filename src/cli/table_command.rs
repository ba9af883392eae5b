//! `zugzwang table stats DIR` and `zugzwang table check DIR`: look into a position store (the
//! other `table` subcommands have modules of their own).
//!
//! Both only read, under the directory's shared lock (`store::lock`): any number of them may run
//! together, but not while a solve writes the directory — its merges delete runs, which a reader
//! between listing and opening them would report as damage. A directory in use is refused with
//! one line and exit status 1.

use super::common::{human_bytes, parse_bytes, CliError};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::time::Duration;
use std::time::Instant;
use zugzwang::game::{Connect4, Cube, Game, Key};
use zugzwang::search::MemoryTable;
use zugzwang::solver::{
    BestMoves, Control, GameSpec, KeyMode, Question, SolveError, Solver, SolverConfig,
};
use zugzwang::store::check::{self, CheckReport};
use zugzwang::store::checkpoint::SEARCH_STATE;
use zugzwang::store::entry::{Entry, Knowledge, Value};
use zugzwang::store::lock::DirLock;
use zugzwang::store::merge::{KMerge, Normalised};
use zugzwang::store::run_file::{Run, Verify};
use zugzwang::store::{run_files, Manifest};

/// `table` subcommands.
#[derive(Subcommand)]
pub enum TableCommand {
    /// Runs, entries, bytes per entry, Bloom filter quality, value histogram, checksums.
    Stats(StatsArgs),
    /// Verify checksums, sort order, and that every stored value is justified.
    Check(CheckArgs),
    /// A seed-keyed table (`--keys seed`): re-decide every stored value with sound keys,
    /// shallowest first; "holds", or the shallowest break with its line of play.
    Recheck(super::recheck::RecheckArgs),
    /// A paused solve's facts worth keeping where its table cannot be (the repository): those
    /// nearest the start, reached through the open search and through facts, within a budget,
    /// as a small store that `solve ... --table OUT` resumes from.
    Pack(super::pack_command::PackArgs),
    /// Whether tables of separate solves (same game, keys and hash seed) agree where they know
    /// the same positions: keys each holds, keys shared, and every contradiction.
    Compare(super::compare_command::CompareArgs),
}

/// Arguments of `table stats`.
#[derive(Args)]
pub struct StatsArgs {
    /// The store directory (made by `solve ... --table DIR`).
    dir: PathBuf,
    /// Where a paused proof search stood at this position instead of the table's recorded
    /// start (moves from the empty board, or `0xWHITE:0xBLACK` for the 4x4x4 games): e.g. a
    /// move deeper, or a position solved in a table made for another.
    #[arg(long, value_name = "POSITION")]
    from: Option<String>,
}

/// Arguments of `table check`.
#[derive(Args)]
pub struct CheckArgs {
    /// The store directory.
    dir: PathBuf,
    /// Connect Four: also solve directly every stored position with at most this many empty
    /// cells (keys are exact there, so entries decode back to positions). 0 = skip.
    #[arg(long, default_value_t = 16)]
    direct_max_empty: u32,
    /// Stop the walk after this many positions (0 = walk all).
    #[arg(long, default_value_t = 0)]
    max_positions: u64,
    /// Check only the proof of the walk's start: its stored value and, recursively, the
    /// children's entries that justify it (for a win one refuted child, for a loss every child),
    /// not everything else the table holds (nor Connect Four's direct solve of every entry).
    /// Exit status 1 if the start has no stored value.
    #[arg(long)]
    proof: bool,
    /// Walk from this position instead of the table's recorded start (moves from the empty
    /// board, or `0xWHITE:0xBLACK` for the 4x4x4 games): e.g. one reply whose proof a table
    /// shared by several solves holds.
    #[arg(long, value_name = "POSITION")]
    from: Option<String>,
    /// Memory for the independent searches used by the checks, shared by their threads.
    #[arg(long, default_value = "256M")]
    mem: String,
    /// With --proof: threads justifying positions at once, each with its own search and an
    /// equal share of --mem (0 = one per core, the default). The full walk uses one.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// With --proof: keep the positions justified so far in FILE (made if missing) and go on
    /// from it, so that a check stopped at any moment (a kill, a session's end) resumes where
    /// it was. A journal speaks for one state of the table: once the table has changed, it is
    /// refused, and a new one starts over.
    #[arg(long, value_name = "FILE", requires = "proof")]
    journal: Option<PathBuf>,
    /// With --proof: once the check passes, write the proof alone (the entries of the
    /// positions it justified) as a new store in DIR (made if missing, else it must be empty),
    /// made for the walk's start: a few bytes a position, small enough to keep beside the
    /// result where the table cannot be, and `table check DIR --proof` re-checks it. For the
    /// 4x4x4 games (sound keys), a child decided for the proof by a search of over half a
    /// second joins it with the value found (justified in its turn, like an entry), so that
    /// the re-check does not spend that search again.
    #[arg(long, value_name = "DIR", requires = "proof")]
    extract: Option<PathBuf>,
    /// With --extract (4x4x4 games, sound keys): write the proof keyed by this hash seed
    /// instead of the table's, as a store of that seed. `table check DIR --proof` on it then
    /// confirms the value under the second seed (every look-up and search keyed by it),
    /// without a second solve.
    #[arg(long, value_name = "N", requires = "extract")]
    extract_hash_seed: Option<u64>,
}

/// Runs a `table` subcommand.
pub fn run(cmd: &TableCommand) -> Result<i32, CliError> {
    match cmd {
        TableCommand::Stats(a) => stats(a),
        TableCommand::Check(a) => check_dir(a),
        TableCommand::Recheck(a) => super::recheck::run(a),
        TableCommand::Pack(a) => super::pack_command::run(a),
        TableCommand::Compare(a) => super::compare_command::run(a),
    }
}

/// The directory's manifest and its shared lock (taken once the directory is known to be a store,
/// so that pointing the command at another directory leaves no lock file there).
pub(super) fn manifest_of(dir: &Path) -> Result<(Manifest, DirLock), CliError> {
    match Manifest::read(dir) {
        Ok(Some(m)) => {
            let lock = DirLock::shared(dir).map_err(|e| CliError::Failed(e.to_string()))?;
            Ok((m, lock))
        }
        Ok(None) => Err(CliError::BadInput(format!(
            "{}: not a position store (no manifest.json)",
            dir.display()
        ))),
        Err(e) => Err(CliError::BadInput(e.to_string())),
    }
}

/// Opens every run of `dir` with full verification: the good ones, and one line per bad one.
pub(super) fn open_runs(dir: &Path, m: &Manifest) -> Result<(Vec<Run>, Vec<String>), CliError> {
    let files = run_files(dir).map_err(|e| CliError::Failed(e.to_string()))?;
    let id = m.identity();
    let (mut good, mut bad) = (Vec::new(), Vec::new());
    for (_, path) in files {
        // SAFETY: read-only inspection under the directory's shared lock, so no zugzwang process
        // writes the directory meanwhile (and none ever modifies a published run in place).
        match unsafe { Run::open(&path, Some(&id), Verify::Full) } {
            Ok(r) => good.push(r),
            Err(e) => bad.push(e.to_string()),
        }
    }
    Ok((good, bad))
}

fn name(r: &Run) -> String {
    r.path()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn stats(a: &StatsArgs) -> Result<i32, CliError> {
    let (m, _lock) = manifest_of(&a.dir)?;
    if let Some(from) = &a.from {
        // --from asks about the snapshot alone: refuse it before the report starts
        let bad = |why: String| CliError::BadInput(format!("{}: --from: {why}", a.dir.display()));
        super::paused_search::check_position(&m, from).map_err(bad)?;
        if !a.dir.join(SEARCH_STATE).exists() {
            return Err(bad(format!("no {SEARCH_STATE} (no paused proof search)")));
        }
    }
    let (runs, bad) = open_runs(&a.dir, &m)?;
    println!(
        "store {}: {} {} (hash seed {}), start '{}'",
        a.dir.display(),
        m.game,
        m.variant,
        m.hash_seed,
        m.start
    );
    let mut hist = [0u64; 4];
    let (mut entries, mut bytes) = (0u64, 0u64);
    for r in &runs {
        let b = r.bloom();
        let n = r.len().max(1);
        println!(
            "  {}: {} entries, {}, {:.2} bytes/entry, Bloom {:.1} bits/key, measured false positives {:.3}%, checksum ok",
            name(r),
            r.len(),
            human_bytes(r.file_bytes()),
            r.file_bytes() as f64 / n as f64,
            b.bits() as f64 / n as f64,
            b.measured_fp_rate(200_000) * 100.0
        );
        for &e in r.entries() {
            hist[Entry::from_word(e).value() as usize] += 1;
        }
        entries += r.len();
        bytes += r.file_bytes();
    }
    for line in &bad {
        println!("  BAD {line}");
    }
    println!(
        "runs {} ({} bad), entries {entries}, {} on disk, {:.2} bytes/entry",
        runs.len() + bad.len(),
        bad.len(),
        human_bytes(bytes),
        bytes as f64 / entries.max(1) as f64
    );
    let hist_text: Vec<String> = Value::ALL
        .iter()
        .map(|v| format!("{} {}", v.name(), hist[*v as usize]))
        .collect();
    println!("values: {}", hist_text.join(", "));
    let mut bad_state = false;
    if let Ok(meta) = std::fs::metadata(a.dir.join(SEARCH_STATE)) {
        println!(
            "{SEARCH_STATE}: {} (a proof search's snapshot for resuming; not checked, not facts)",
            human_bytes(meta.len())
        );
        if let Err(e) = super::paused_search::print(&a.dir, &m, a.from.as_deref()) {
            println!("  BAD {e}");
            bad_state = true;
        }
    }
    Ok(if bad.is_empty() && !bad_state { 0 } else { 1 })
}

fn connect4_size(m: &Manifest) -> Option<(u32, u32)> {
    match super::paused_search::spec_of(m)? {
        GameSpec::Connect4 { width, height } => Some((width, height)),
        GameSpec::Cube(_) => None,
    }
}

/// `table check DIR`: the files first ([`check_files`]), then the walk from the start through the
/// table or its proof, printed by [`print_walk`], and the proof extracted if asked; exit status 1
/// on any failure.
fn check_dir(a: &CheckArgs) -> Result<i32, CliError> {
    let mem = parse_bytes(&a.mem).map_err(|e| CliError::BadInput(format!("--mem: {e}")))? as usize;
    if let Some(out) = &a.extract {
        new_dir_ok("--extract", out)?;
    }
    let (m, _lock) = manifest_of(&a.dir)?;
    rekey_ok(a, &m)?;
    let t0 = Instant::now();
    let (runs, bad) = open_runs(&a.dir, &m)?;
    let (mut failures, keys) = check_files(&a.dir, &runs, &bad);
    let lookup = runs_lookup(&runs);
    let mut journal = match &a.journal {
        Some(path) => Some(open_journal(path, a, &m, &runs)?),
        None => None,
    };
    let mut next_report = PROGRESS_EVERY;
    let mut progress = |r: &CheckReport, queued: usize| {
        if t0.elapsed() >= next_report {
            // (from now: after a slow position, one line, not one per interval it took)
            next_report = t0.elapsed() + PROGRESS_EVERY;
            eprintln!(
                "[{:>8.0} s] proof check: {} positions justified ({} from the journal), {} queued, {} children searched",
                t0.elapsed().as_secs_f64(),
                r.positions,
                r.from_journal,
                queued,
                r.by_search
            );
        }
    };
    let mut proof_words = Vec::new();
    let proof = a.extract.as_ref().map(|_| &mut proof_words);
    let report: CheckReport = match m.game.as_str() {
        "connect4" => {
            let (w, h) = connect4_size(&m).ok_or_else(|| {
                CliError::BadInput(format!(
                    "{}: bad connect4 size '{}'",
                    a.dir.display(),
                    m.variant
                ))
            })?;
            let start = Connect4::from_moves(w, h, start_text(a, &m)).map_err(|e| {
                CliError::BadInput(format!(
                    "{}: {} '{}': {e}",
                    a.dir.display(),
                    start_label(a),
                    start_text(a, &m)
                ))
            })?;
            let aids = check::WalkAids {
                journal: journal.as_mut(),
                progress: Some(&mut progress),
                proof,
                ..check::WalkAids::default()
            };
            let report = check::walk(
                &start,
                &lookup,
                mem,
                scope(a),
                a.max_positions,
                threads(a),
                aids,
            );
            if !a.proof && a.direct_max_empty > 0 && w * (h + 1) <= 62 {
                failures += direct_connect4(&runs, w, h, a.direct_max_empty, mem);
            }
            report
        }
        name => {
            // the proof under another seed (a table of sound keys: `rekey_ok`)
            let rekeyed = a
                .extract_hash_seed
                .map(|seed| move |c: &Cube| c.with_seed(seed).key());
            let aids = check::WalkAids {
                journal: journal.as_mut(),
                progress: Some(&mut progress),
                proof,
                proof_key: rekeyed.as_ref().map(|f| f as check::KeyOf<'_, Cube>),
                // (the game's searches say what a hard one is: `cube_walk`)
                ..check::WalkAids::default()
            };
            cube_walk(a, &m, name, &lookup, mem, aids)?
        }
    };
    failures += print_walk(a, &m, &report, journal.as_ref(), keys);
    let verdict = match (failures, report.justified) {
        // files fine, but no value was checked: say so rather than a bare OK
        (0, 0) if keys > 0 => "OK as files; no stored value is reachable from the start (an \
             unfinished search stores its positions deeper), so none was justified"
            .to_string(),
        (0, _) if report.truncated => {
            "OK as far as checked (stopped at --max-positions: not all of it)".to_string()
        }
        (0, _) => "OK".to_string(),
        _ => format!("{failures} FAILURES"),
    };
    println!("{verdict} in {:.1} s", t0.elapsed().as_secs_f64());
    if let Some(out) = &a.extract {
        failures += extract_proof(out, a, &m, &report, failures, proof_words)?;
    }
    Ok(if failures == 0 { 0 } else { 1 })
}

/// The checks of the files themselves: each run's checksums, sort order and consistency (the
/// `bad` ones, which `open_runs` could not take), and one normalised stream across all runs (no
/// two runs contradict each other). Prints a line for each; returns the failures and the
/// number of normalised entries.
fn check_files(dir: &Path, runs: &[Run], bad: &[String]) -> (u64, u64) {
    let mut failures = bad.len() as u64;
    for line in bad {
        println!("FAIL {line}");
    }
    let entries: u64 = runs.iter().map(|r| r.len()).sum();
    println!(
        "checksums, sort order, per-run consistency: {} runs ok, {} bad ({entries} entries)",
        runs.len(),
        bad.len()
    );
    // consistency across runs: one merged, normalised stream must exist
    let merged: Vec<&[u64]> = runs.iter().map(|r| r.entries()).collect();
    let mut keys = 0u64;
    let mut cross_ok = true;
    for e in Normalised::new(KMerge::new(merged)) {
        match e {
            Ok(_) => keys += 1,
            Err(kind) => {
                println!("FAIL {}: across runs: {kind:?}", dir.display());
                failures += 1;
                cross_ok = false;
            }
        }
    }
    if cross_ok {
        println!("across runs: no contradictions ({keys} normalised entries)");
    }
    (failures, keys)
}

/// Prints what the walk found: the positions and values justified (by entry, by search, kept,
/// from the journal), the proof's shape by ply, and each failure; returns the failures, with
/// one more for a proof check of a start without a stored value.
fn print_walk(
    a: &CheckArgs,
    m: &Manifest,
    report: &CheckReport,
    journal: Option<&check::Journal>,
    keys: u64,
) -> u64 {
    let mut failures = 0;
    let journal_note = match journal {
        Some(j) => {
            if let Some(e) = j.error() {
                eprintln!("warning: the journal could not be written: {e}");
            }
            format!(
                "; {} of them justified by an earlier check (its journal held {})",
                report.from_journal, j.loaded
            )
        }
        None => String::new(),
    };
    let kept = if report.kept > 0 {
        format!(
            ", {} of them hard enough to be kept in the proof with the value found",
            report.kept
        )
    } else {
        String::new()
    };
    let justified = format!(
        "{} values justified ({} children by their entries, {} by search{kept}){}",
        report.justified,
        report.by_entry,
        report.by_search,
        if report.truncated {
            ", stopped at --max-positions"
        } else {
            ""
        }
    );
    if a.proof {
        let values: Vec<&str> = report.start_values.iter().map(|v| v.name()).collect();
        println!(
            "proof of '{}' ({}): {} positions with entries on it (of {keys} in the table), {justified}{journal_note}",
            start_text(a, m),
            if values.is_empty() { "no stored value".to_string() } else { values.join("+") },
            report.positions,
        );
        let shape: Vec<String> = (report.by_ply.iter().enumerate())
            .filter(|(_, &n)| n > 0)
            .map(|(ply, n)| format!("{ply}: {n}"))
            .collect();
        if !shape.is_empty() {
            println!("positions on it by ply: {}", shape.join(", "));
        }
        if report.start_values.is_empty() {
            println!("FAIL the start has no stored value: there is no proof to check");
            failures += 1;
        }
    } else {
        println!(
            "walk from '{}': {} positions with entries (the table holds {keys} entries; those below positions without one, such as the subtrees of a question left open, are not reached), {justified}",
            start_text(a, m),
            report.positions,
        );
    }
    for line in &report.failure_lines {
        println!("FAIL {line}");
    }
    failures + report.failures
}

/// Refuses an output directory (`flag`: `--extract`, `--out`) that could not take what is to
/// be written before the work starts (a long check's proof would otherwise be lost at its end).
pub(super) fn new_dir_ok(flag: &str, out: &Path) -> Result<(), CliError> {
    let used = out.exists()
        && (!out.is_dir() || std::fs::read_dir(out).map_or(true, |mut d| d.next().is_some()));
    if used {
        return Err(CliError::BadInput(format!(
            "{flag} {}: must be a new or empty directory",
            out.display()
        )));
    }
    Ok(())
}

/// Refuses `--extract-hash-seed` where a proof cannot be keyed by another seed, before the
/// check starts: Connect Four's keys are exact (no seed), and seed 003's keys are unsound
/// under any seed.
fn rekey_ok(a: &CheckArgs, m: &Manifest) -> Result<(), CliError> {
    if a.extract_hash_seed.is_none() {
        return Ok(());
    }
    let why = match super::paused_search::spec_of(m) {
        Some(GameSpec::Connect4 { .. }) => "Connect Four keys are exact, not hashed",
        Some(spec) if spec.store_key_mode(m) == Some(KeyMode::Sound) => return Ok(()),
        Some(_) => "only a table of sound keys is re-keyed (seed 003's keys are unsound)",
        // (an unknown game is reported by the walk)
        None => return Ok(()),
    };
    Err(CliError::BadInput(format!(
        "--extract-hash-seed: {}: {why}",
        a.dir.display()
    )))
}

/// `--extract`: writes the proof the check justified (`words`) as a new store in `out`, made
/// for the walk's start, if the check passed all of it; says what it did on stdout. Returns
/// the failures to add: 1 if a check stopped at `--max-positions` left it unwritten.
fn extract_proof(
    out: &Path,
    a: &CheckArgs,
    m: &Manifest,
    report: &CheckReport,
    failures: u64,
    words: Vec<u64>,
) -> Result<u64, CliError> {
    if failures > 0 || report.truncated || report.start_values.is_empty() {
        println!(
            "proof not extracted to {}: only a proof checked whole and without failures is",
            out.display()
        );
        // (a failed check has counted its failures; a stopped one has not failed, but the
        // proof asked for was not written)
        return Ok(u64::from(failures == 0));
    }
    let seed = a.extract_hash_seed.unwrap_or(m.hash_seed);
    let manifest = Manifest::new(&m.game, &m.variant, start_text(a, m), seed);
    match zugzwang::store::export::write_store(out, &manifest, words) {
        Ok(n) => {
            let bytes: u64 = run_files(out)
                .map_err(|e| CliError::Failed(e.to_string()))?
                .iter()
                .filter_map(|(_, p)| std::fs::metadata(p).ok())
                .map(|md| md.len())
                .sum();
            println!(
                "proof extracted to {}: {n} entries, {} (`zugzwang table check {} --proof` re-checks it)",
                out.display(),
                human_bytes(bytes),
                out.display()
            );
            Ok(0)
        }
        Err(e) => Err(CliError::Failed(format!("--extract: {e}"))),
    }
}

/// How often a check reports its progress (on stderr).
const PROGRESS_EVERY: Duration = Duration::from_secs(30);

/// The journal `path` of a proof check (`--journal`), for this state of the table: its game,
/// keys and start, and its runs by name and size (runs are never rewritten, a merge makes new
/// ones), so that a journal of the table before it changed is refused.
fn open_journal(
    path: &Path,
    a: &CheckArgs,
    m: &Manifest,
    runs: &[Run],
) -> Result<check::Journal, CliError> {
    let runs: Vec<String> = runs
        .iter()
        .map(|r| format!("{}:{}", name(r), r.len()))
        .collect();
    let description = format!(
        "proof of '{}' in {} {} hash seed {}; runs {}",
        start_text(a, m),
        m.game,
        m.variant,
        m.hash_seed,
        runs.join(",")
    );
    check::Journal::open(path, &description)
        .map_err(|e| CliError::BadInput(format!("--journal {}: {e}", path.display())))
}

/// What the runs together know about a key.
pub(super) fn runs_lookup(runs: &[Run]) -> impl Fn(Key) -> Knowledge + '_ {
    move |key| {
        runs.iter()
            .fold(Knowledge::NONE, |k, r| k.union(r.lookup(key)))
    }
}

/// Where a check's walk starts: `--from`, else the table's recorded start.
fn start_text<'a>(a: &'a CheckArgs, m: &'a Manifest) -> &'a str {
    a.from.as_deref().unwrap_or(&m.start)
}

/// How an error names the walk's start.
fn start_label(a: &CheckArgs) -> &'static str {
    if a.from.is_some() {
        "--from"
    } else {
        "recorded start"
    }
}

/// How many threads the walk justifies positions on: `--threads` for a proof walk (0 = one per
/// core), one for the full walk (which would leave the others' share of `--mem` unused).
fn threads(a: &CheckArgs) -> usize {
    match a.threads {
        _ if !a.proof => 1,
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Which values the check justifies.
fn scope(a: &CheckArgs) -> check::Scope {
    if a.proof {
        check::Scope::Proof
    } else {
        check::Scope::Everything
    }
}

/// The recorded start of a 4x4x4 table, keyed as the table was (`keys`).
pub(super) fn cube_start(spec: GameSpec, m: &Manifest, keys: KeyMode) -> Result<Cube, String> {
    cube_position(spec, m, &m.start, keys).map_err(|e| format!("recorded start: {e}"))
}

/// A 4x4x4 position of the table's game, keyed as the table was (`keys`).
fn cube_position(spec: GameSpec, m: &Manifest, text: &str, keys: KeyMode) -> Result<Cube, String> {
    super::paused_search::keyed_position(spec, m, text, keys)
}

/// The independent judge of the checks: the game's solver with its defaults, one thread,
/// `mem` bytes of its own and *sound* keys, whatever keys the table was made with.
pub(super) fn sound_solver(spec: GameSpec, mem: u64, hash_seed: u64) -> Solver {
    let config = SolverConfig {
        mem_bytes: mem,
        threads: 1,
        best: BestMoves::None,
        key_mode: KeyMode::Sound,
        hash_seed,
        ..SolverConfig::for_game(spec)
    };
    Solver::new(spec, config).expect("the game's defaults with sound keys run")
}

/// The walk of a 4x4x4 table: from the recorded start, children without a deciding entry are
/// decided by the game's own solver with default settings, its own memory (never the store) and
/// *sound* keys, whatever keys the table was made with: a table of seed 003's keys is thereby
/// re-checked soundly. A failure is shown at a shallowest failing position: its board, what the
/// table says, its sound value and the line of play from the start.
fn cube_walk(
    a: &CheckArgs,
    m: &Manifest,
    name: &str,
    lookup: check::Lookup<'_>,
    mem: usize,
    mut aids: check::WalkAids<'_, Cube>,
) -> Result<CheckReport, CliError> {
    let bad = |why: String| CliError::BadInput(format!("{}: {why}", a.dir.display()));
    let spec = GameSpec::from_name(name, None)
        .map_err(|_| bad(format!("table check does not know the game '{name}'")))?;
    let known = spec
        .store_key_mode(m)
        .ok_or_else(|| bad(format!("unknown board or key mode '{}'", m.variant)))?;
    let start = cube_position(spec, m, start_text(a, m), known)
        .map_err(|e| bad(format!("{} '{}': {e}", start_label(a), start_text(a, m))))?;
    // one solver a thread, each with its share of the memory
    let threads = threads(a);
    let mut solvers: Vec<Solver> = (0..threads)
        .map(|_| sound_solver(spec, (mem / threads) as u64, m.hash_seed))
        .collect();
    let mut searches: Vec<_> = solvers
        .iter_mut()
        .map(|solver| {
            move |c: &Cube, t: i32, at_most: bool, level: u32| {
                let v = sound_score(solver, c, Some(level))?;
                Some(if at_most { v <= t } else { v >= t })
            }
        })
        .collect();
    let deciders = searches
        .iter_mut()
        .map(|d| d as check::Decide<'_, Cube>)
        .collect();
    // sound keys: each class of symmetric positions once (by the canonical form the keys hash)
    let canonical = |c: &Cube| c.canonical();
    let exact = |c: &Cube| c.id();
    let identity: check::Identity<Cube> = if known == KeyMode::Sound {
        &canonical
    } else {
        &exact
    };
    // an extracted proof keeps the children its searches found hard (not where keys are
    // unsound: a kept value could then meet another position's under the same key)
    if aids.proof.is_some() && known == KeyMode::Sound {
        aids.keep_searched = Some(KEEP_SEARCHED_FROM_LEVEL);
    }
    let report = check::walk_deciding(
        &start,
        lookup,
        identity,
        deciders,
        scope(a),
        a.max_positions,
        aids,
    );
    if report.failures > 0 {
        let mut p = start;
        let mut names = Vec::new();
        for &mv in &report.first_failure_line {
            names.push(p.move_name(mv));
            p.play(mv);
        }
        let stored: Vec<&str> = lookup(p.key()).values().map(|v| v.name()).collect();
        drop(searches);
        let v = sound_score(&mut solvers[0], &p, None).expect("no budget");
        let sound = ["loss", "draw", "win"][(v + 1) as usize];
        println!(
            "BREAK at ply {} ({} keys): the table says {}, the sound value is {sound}; line from the start: {}",
            p.ply(),
            known.name(),
            stored.join("+"),
            if names.is_empty() { "(the start)".to_string() } else { names.join(" ") }
        );
        print!("{}", p.render());
    }
    Ok(report)
}

/// The budget level of [`sound_score`] from which a child decided by search for an extracted
/// proof is kept in it with its value (`check::WalkAids::keep_searched`): a child left
/// undecided in 20 ms x (1 + 2 + 4 + 8 + 16), over half a second. Such children are few (a
/// table check's searches are mostly of a few milliseconds), but near the start of a proof
/// from a full table they take minutes, which a re-check of the proof alone would spend again.
const KEEP_SEARCHED_FROM_LEVEL: u32 = 5;

/// The score of `c` for its mover by `solver`, within a budget of 20 ms doubling with each
/// `level` (the solver keeps what it proved between tries); `None` if not decided within it.
fn sound_score(solver: &mut Solver, c: &Cube, level: Option<u32>) -> Option<i32> {
    let limit = level.map(|l| Duration::from_millis(20) * (1u32 << l.min(20)));
    match solver.solve_position(c, Question::Value, limit, &Control::new()) {
        Ok(s) => Some(s.score),
        Err(SolveError::Stopped { .. }) => None,
        Err(e) => panic!("a legal position: {e}"),
    }
}

/// Decodes and solves every stored Connect Four position with few empty cells; returns failures.
fn direct_connect4(runs: &[Run], w: u32, h: u32, max_empty: u32, mem: usize) -> u64 {
    let table = MemoryTable::with_bytes(mem);
    let merged: Vec<&[u64]> = runs.iter().map(|r| r.entries()).collect();
    let (mut checked, mut skipped, mut failures) = (0u64, 0u64, 0u64);
    let mut group: Option<(Key, Knowledge)> = None;
    let mut finish = |g: Option<(Key, Knowledge)>, checked: &mut u64, skipped: &mut u64| {
        let Some((key, k)) = g else { return };
        // stones = total marker height; cheap to get from the decode itself
        match check::connect4_from_key(w, h, key) {
            Some(pos)
                if zugzwang::game::Game::max_ply(&pos) - zugzwang::game::Game::ply(&pos)
                    > max_empty =>
            {
                *skipped += 1
            }
            _ => {
                *checked += 1;
                if let Err(line) = check::check_connect4_entry(w, h, key, k, &table) {
                    failures += 1;
                    if failures <= 20 {
                        println!("FAIL {line}");
                    }
                }
            }
        }
    };
    for e in Normalised::new(KMerge::new(merged)).flatten() {
        let (key, v) = (Entry::from_word(e).key(), Entry::from_word(e).value());
        match group {
            Some((k0, k)) if k0 == key => group = Some((key, k.with(v))),
            g => {
                finish(g, &mut checked, &mut skipped);
                group = Some((key, Knowledge::NONE.with(v)));
            }
        }
    }
    finish(group, &mut checked, &mut skipped);
    println!(
        "direct: {checked} positions with <= {max_empty} empty cells decoded and solved, {failures} wrong; {skipped} deeper ones left to the walk"
    );
    failures
}

#[cfg(test)]
mod tests {
    use super::*;
    use zugzwang::search::{Depth, Searcher};
    use zugzwang::store::{Store, StoreConfig};

    /// A small 5x4 table solved through the store.
    fn build(dir: &Path) {
        let m = Manifest::new("connect4", "5x4", "", 0);
        let cfg = StoreConfig {
            mem_bytes: 1 << 20,
            min_work: 8,
            ..StoreConfig::default()
        };
        // SAFETY: a private temporary directory.
        let store = unsafe { Store::open(dir, &m, cfg) }.unwrap();
        let pos = Connect4::new(5, 4).unwrap();
        Searcher::new(&store).solve(&pos, Depth::Strong).unwrap();
        store.flush().unwrap();
    }

    fn check(dir: &Path) -> Result<i32, CliError> {
        check_dir(&CheckArgs {
            dir: dir.to_path_buf(),
            direct_max_empty: 20,
            max_positions: 0,
            proof: false,
            from: None,
            mem: "16M".into(),
            journal: None,
            threads: 1,
            extract: None,
            extract_hash_seed: None,
        })
    }

    #[test]
    fn check_passes_a_good_table_and_fails_a_damaged_or_lying_one() {
        let dir = tempfile::tempdir().unwrap();
        build(dir.path());
        assert_eq!(check(dir.path()).unwrap(), 0);
        assert_eq!(
            stats(&StatsArgs {
                dir: dir.path().to_path_buf(),
                from: None,
            })
            .unwrap(),
            0
        );

        // a run that lies: every stored value flipped to its opposite, written as a valid run
        let (_, path) = run_files(dir.path()).unwrap().pop().unwrap();
        // SAFETY: nothing else uses the directory.
        let run = unsafe { Run::open(&path, None, Verify::Full) }.unwrap();
        let mut lies: Vec<u64> = run
            .entries()
            .iter()
            .map(|&w| Entry::from_word(w))
            .map(|e| Entry::new(e.key(), e.value().negated()).word())
            .collect();
        lies.sort_unstable();
        let n = lies.len() as u64;
        let id = run.header().clone();
        drop(run);
        let liar = tempfile::tempdir().unwrap();
        std::fs::copy(
            dir.path().join("manifest.json"),
            liar.path().join("manifest.json"),
        )
        .unwrap();
        let ident = zugzwang::store::run_file::Identity {
            game: id.game,
            variant: id.variant,
            hash_seed: id.hash_seed,
        };
        zugzwang::store::run_file::write_run(
            liar.path(),
            "run-0000000001.zzr",
            &ident,
            lies.into_iter().map(Ok),
            n,
        )
        .unwrap();
        assert_eq!(check(liar.path()).unwrap(), 1);

        // a flipped byte
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(check(dir.path()).unwrap(), 1);
    }

    #[test]
    fn a_directory_without_manifest_is_bad_input() {
        let dir = tempfile::tempdir().unwrap();
        let err = check(dir.path()).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("no manifest.json"));
    }

    /// A small table: 4x4 solved through the store (only results that took 200 nodes), compacted
    /// into one run of 704 bytes.
    fn build_small(dir: &Path) -> std::path::PathBuf {
        let m = Manifest::new("connect4", "4x4", "", 0);
        let cfg = StoreConfig {
            mem_bytes: 1 << 16,
            min_work: 200,
            ..StoreConfig::default()
        };
        // SAFETY: a private temporary directory.
        let store = unsafe { Store::open(dir, &m, cfg) }.unwrap();
        Searcher::new(&store)
            .solve(&Connect4::new(4, 4).unwrap(), Depth::Weak)
            .unwrap();
        store.compact().unwrap();
        drop(store);
        let mut runs = run_files(dir).unwrap();
        assert_eq!(runs.len(), 1);
        runs.pop().unwrap().1
    }

    fn quick_check(dir: &Path) -> Result<i32, CliError> {
        check_dir(&CheckArgs {
            dir: dir.to_path_buf(),
            direct_max_empty: 0,
            max_positions: 0,
            proof: false,
            from: None,
            mem: "1M".into(),
            journal: None,
            threads: 1,
            extract: None,
            extract_hash_seed: None,
        })
    }

    /// One flipped bit at any offset of a run file, or of the manifest, makes `table check` fail
    /// (exit status 1 for a bad run, 2 for a bad manifest), and the error names the file.
    #[test]
    fn check_fails_on_a_flip_at_every_offset() {
        let dir = tempfile::tempdir().unwrap();
        let run = build_small(dir.path());
        assert_eq!(quick_check(dir.path()).unwrap(), 0);
        let good = std::fs::read(&run).unwrap();
        assert!(good.len() < 2048, "a small run: {} bytes", good.len());
        for at in 0..good.len() {
            let mut b = good.clone();
            b[at] ^= 1 << (at % 8);
            std::fs::write(&run, &b).unwrap();
            assert_eq!(quick_check(dir.path()).unwrap(), 1, "run byte {at}");
        }
        std::fs::write(&run, &good).unwrap();
        let manifest = dir.path().join("manifest.json");
        let good = std::fs::read(&manifest).unwrap();
        for at in 0..good.len() {
            let mut b = good.clone();
            b[at] ^= 1 << (at % 8);
            std::fs::write(&manifest, &b).unwrap();
            let e = quick_check(dir.path()).expect_err(&format!("manifest byte {at}"));
            let line = e.to_string();
            assert!(
                line.contains("manifest.json") && !line.contains('\n'),
                "{line}"
            );
        }
        std::fs::write(&manifest, &good).unwrap();
        assert_eq!(quick_check(dir.path()).unwrap(), 0);
    }

    /// `table check` and `table stats` read a directory together, but not while a store writes it.
    #[test]
    fn a_directory_in_use_is_refused_with_one_line() {
        let dir = tempfile::tempdir().unwrap();
        build_small(dir.path());
        let m = Manifest::read(dir.path()).unwrap().unwrap();
        // SAFETY: a private temporary directory.
        let store = unsafe { Store::open(dir.path(), &m, StoreConfig::default()) }.unwrap();
        let e = quick_check(dir.path()).unwrap_err();
        assert_eq!(e.exit_code(), 1);
        assert!(
            e.to_string().contains("in use by another zugzwang process"),
            "{e}"
        );
        drop(store);
        let (_m, reading) = manifest_of(dir.path()).unwrap();
        assert_eq!(
            quick_check(dir.path()).unwrap(),
            0,
            "readers share the directory"
        );
        // SAFETY: as above.
        let e = unsafe { Store::open(dir.path(), &m, StoreConfig::default()) }.unwrap_err();
        assert!(e.to_string().contains("in use"), "{e}");
        drop(reading);
    }
}
