//! `zugzwang table pack DIR --out OUT`: the part of a paused solve's table worth keeping where
//! the table cannot be (the repository), as a small store that `solve ... --table OUT` resumes
//! from.
//!
//! Which facts are kept and why resuming from them is sound: [`zugzwang::search::proof::pack`].

use super::common::{human_bytes, parse_bytes, CliError};
use super::paused_search::{keyed_position, spec_of};
use super::table_command::{manifest_of, new_dir_ok, open_runs, runs_lookup};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Instant;
use zugzwang::game::{Connect4, Cube};
use zugzwang::search::proof::{pack, Pack, WALK_MIN_WORK};
use zugzwang::solver::games::Solvable;
use zugzwang::solver::GameSpec;
use zugzwang::store::checkpoint::{self, SEARCH_STATE};
use zugzwang::store::entry::Entry;
use zugzwang::store::export::{entry_words, write_store};
use zugzwang::store::run_file::Run;
use zugzwang::store::Manifest;

/// Bytes a kept fact takes in a run file, about (8 for the entry, the Bloom filter's share).
const BYTES_PER_FACT: u64 = 10;

/// Arguments of `table pack`.
#[derive(Args)]
pub struct PackArgs {
    /// The store directory of a paused solve (with its snapshot, `search-state.zzs`).
    dir: PathBuf,
    /// Where to write the pack: a new or empty directory, made an ordinary store for the same
    /// start (manifest and one run) that `solve ... --table OUT` resumes from.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// About how large the pack may grow (facts of about 10 bytes each, those nearest the
    /// start first, then the snapshot's costliest).
    #[arg(long, default_value = "4M", value_name = "BYTES")]
    max_bytes: String,
}

/// Runs `table pack`.
pub fn run(a: &PackArgs) -> Result<i32, CliError> {
    let max_bytes =
        parse_bytes(&a.max_bytes).map_err(|e| CliError::BadInput(format!("--max-bytes: {e}")))?;
    let (m, _lock) = manifest_of(&a.dir)?;
    let bad = |why: String| CliError::BadInput(format!("{}: {why}", a.dir.display()));
    let state_path = a.dir.join(SEARCH_STATE);
    if !state_path.exists() {
        return Err(bad(format!(
            "no {SEARCH_STATE} (no paused proof search to pack)"
        )));
    }
    new_dir_ok("--out", &a.out)?;
    let spec = spec_of(&m).ok_or_else(|| bad(format!("unknown game '{}'", m.game)))?;
    let (runs, damaged) = open_runs(&a.dir, &m)?;
    if let Some(first) = damaged.first() {
        return Err(CliError::Failed(format!(
            "{first} (a pack carries facts from sound runs only; `table check` says more)"
        )));
    }
    let t0 = Instant::now();
    let known = runs_lookup(&runs);
    let max_facts = (max_bytes / BYTES_PER_FACT) as usize;
    let (p, read) = match spec {
        GameSpec::Connect4 { .. } => packed::<Connect4>(&a.dir, spec, &m, &runs, max_facts),
        GameSpec::Cube(_) => packed::<Cube>(&a.dir, spec, &m, &runs, max_facts),
    }?;
    let words: Vec<u64> = (p.facts.iter())
        .flat_map(|&key| entry_words(key, known(key)))
        .collect();
    let stored: u64 = runs.iter().map(Run::len).sum();
    write_store(&a.out, &m, words).map_err(|e| CliError::Failed(format!("--out: {e}")))?;
    let reach = if p.complete {
        // the walk took all it reaches; the budget may still end the fill after it
        let cut = match p.left_out {
            0 => String::new(),
            n => format!(", to --max-bytes ({n} left out)"),
        };
        format!(
            "every fact the walk reaches ({}), then {} the snapshot holds settled, costliest first, then {} of the store's others, the newest runs first{cut}",
            p.walked,
            p.by_cost,
            p.others()
        )
    } else {
        "the nearest, to --max-bytes".to_string()
    };
    println!(
        "packed {} into {} in {:.1} s: the facts of {} positions (the store holds {stored} entries), {reach}; the walk breadth first from the start through facts and through {} open positions with at least {WALK_MIN_WORK} expansions in the snapshot ({read} entries); {} (`zugzwang solve ... --table {}` resumes from it)",
        a.dir.display(),
        a.out.display(),
        t0.elapsed().as_secs_f64(),
        p.facts.len(),
        p.open,
        human_bytes(dir_bytes(&a.out)),
        a.out.display(),
    );
    Ok(0)
}

/// The pack of `dir`'s snapshot and `runs` from the store's start, and how many entries the
/// snapshot held.
fn packed<G: Solvable>(
    dir: &Path,
    spec: GameSpec,
    m: &Manifest,
    runs: &[Run],
    max_facts: usize,
) -> Result<(Pack, usize), CliError> {
    let keys = spec
        .store_key_mode(m)
        .ok_or_else(|| CliError::BadInput(format!("unknown key mode '{}'", m.variant)))?;
    let g: G = keyed_position(spec, m, &m.start, keys)
        .map_err(|e| CliError::BadInput(format!("{}: recorded start: {e}", dir.display())))?;
    // SAFETY: read-only under the directory's shared lock (held by the caller), so no zugzwang
    // process replaces or truncates the snapshot meanwhile.
    let state = unsafe { checkpoint::read(dir, &m.identity()) }
        .map_err(|e| CliError::Failed(e.to_string()))?;
    // the store's keys, the newest runs first (a draw's two entries give its key twice)
    let store =
        (runs.iter().rev()).flat_map(|r| r.entries().iter().map(|&w| Entry::from_word(w).key()));
    let p = pack(&g, state.entries(), store, max_facts);
    Ok((p, state.len()))
}

/// The bytes of the files in `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.filter_map(|e| e.ok()?.metadata().ok())
            .map(|md| md.len())
            .sum()
    })
}
