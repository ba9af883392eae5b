//! `zugzwang table pack DIR --out OUT`: the part of a paused solve's table worth keeping where
//! the table cannot be (the repository), as a small store that `solve ... --table OUT` resumes
//! from; with `--add`, one more run of that part added to an earlier pack in OUT.
//!
//! Which facts are kept and why resuming from them is sound: [`zugzwang::search::proof::pack`].

use super::common::{human_bytes, parse_bytes, CliError};
use super::paused_search::{keyed_position, spec_of};
use super::table_command::{manifest_of, new_dir_ok, open_runs, runs_lookup};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Instant;
use zugzwang::game::{Connect4, Cube, Key};
use zugzwang::search::proof::{pack, Pack, WALK_MIN_WORK};
use zugzwang::solver::games::Solvable;
use zugzwang::solver::GameSpec;
use zugzwang::store::checkpoint::{self, SEARCH_STATE};
use zugzwang::store::entry::Entry;
use zugzwang::store::export::{add_run, entry_words, write_store};
use zugzwang::store::lock::DirLock;
use zugzwang::store::run_file::Run;
use zugzwang::store::{Manifest, StoreError};

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
    /// OUT is an earlier pack of the same solve (the same game, keys, hash seed and start):
    /// keep its runs as they are and add one run of the facts they do not hold, the walk going
    /// through theirs (a pack that grows from pause to pause; see `search::proof::pack`).
    #[arg(long)]
    add: bool,
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
    // an earlier pack added to: its writer's lock, held until the new run is in, and the keys
    // it carries
    let earlier = if a.add {
        Some(earlier_pack(&a.out, &m)?)
    } else {
        new_dir_ok("--out", &a.out)?;
        None
    };
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
    let carried = earlier.as_ref().map_or(&[][..], |e| &e.keys[..]);
    let (p, read) = match spec {
        GameSpec::Connect4 { .. } => {
            packed::<Connect4>(&a.dir, spec, &m, &runs, carried, max_facts)
        }
        GameSpec::Cube(_) => packed::<Cube>(&a.dir, spec, &m, &runs, carried, max_facts),
    }?;
    let words: Vec<u64> = (p.facts.iter())
        .flat_map(|&key| entry_words(key, known(key)))
        .collect();
    let stored: u64 = runs.iter().map(Run::len).sum();
    let failed = |e: StoreError| CliError::Failed(format!("--out: {e}"));
    let added = match &earlier {
        None => {
            write_store(&a.out, &m, words).map_err(failed)?;
            String::new()
        }
        Some(e) if words.is_empty() => format!(
            ", nothing added to its {} runs ({} facts carried already)",
            e.runs, p.carried
        ),
        Some(e) => {
            add_run(&a.out, &m, words).map_err(failed)?;
            format!(
                ", added as one more run to its {} ({} facts carried already)",
                e.runs, p.carried
            )
        }
    };
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
        "packed {} into {} in {:.1} s: the facts of {} positions (the store holds {stored} entries){added}, {reach}; the walk breadth first from the start through facts and through {} open positions with at least {WALK_MIN_WORK} expansions in the snapshot ({read} entries); {} (`zugzwang solve ... --table {}` resumes from it)",
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

/// An earlier pack that `--add` adds a run to.
struct EarlierPack {
    /// The keys its runs hold.
    keys: Vec<Key>,
    /// How many runs it has.
    runs: usize,
    /// Its writer's lock.
    _lock: DirLock,
}

/// The earlier pack in `out` that `--add` adds to: a store made for the same solve as the
/// table's manifest `m`, all of its runs sound (facts are added only beside sound ones).
fn earlier_pack(out: &Path, m: &Manifest) -> Result<EarlierPack, CliError> {
    let bad = |why: String| CliError::BadInput(format!("--add: --out {}: {why}", out.display()));
    match Manifest::read(out) {
        Ok(Some(om)) if om == *m => {}
        Ok(Some(om)) => {
            return Err(bad(format!(
                "a store of another solve ({} {}, hash seed {}, start '{}'; the table's: {} {}, hash seed {}, start '{}')",
                om.game, om.variant, om.hash_seed, om.start, m.game, m.variant, m.hash_seed, m.start
            )))
        }
        Ok(None) => return Err(bad("not a position store (no manifest.json)".into())),
        Err(e) => return Err(bad(e.to_string())),
    }
    let lock = DirLock::exclusive(out).map_err(|e| CliError::Failed(e.to_string()))?;
    let (runs, damaged) = open_runs(out, m)?;
    if let Some(first) = damaged.first() {
        return Err(CliError::Failed(format!(
            "{first} (--add adds to sound packs only; `table check` says more)"
        )));
    }
    Ok(EarlierPack {
        keys: keys_of(runs.iter()).collect(),
        runs: runs.len(),
        _lock: lock,
    })
}

/// The pack of `dir`'s snapshot and `runs` from the store's start, past the keys `carried`,
/// and how many entries the snapshot held.
fn packed<G: Solvable>(
    dir: &Path,
    spec: GameSpec,
    m: &Manifest,
    runs: &[Run],
    carried: &[Key],
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
    let store = keys_of(runs.iter().rev());
    let p = pack(
        &g,
        state.entries(),
        store,
        carried.iter().copied(),
        max_facts,
    );
    Ok((p, state.len()))
}

/// The keys of the entries of `runs`, run by run (a draw's two entries give its key twice).
fn keys_of<'r>(
    runs: impl Iterator<Item = &'r Run> + Clone + 'r,
) -> impl Iterator<Item = Key> + Clone + 'r {
    runs.flat_map(|r| r.entries().iter().map(|&w| Entry::from_word(w).key()))
}

/// The bytes of the files in `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.filter_map(|e| e.ok()?.metadata().ok())
            .map(|md| md.len())
            .sum()
    })
}
