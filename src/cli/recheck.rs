//! `zugzwang table recheck DIR`: the sound walk of a table written with seed 003's keys.
//!
//! A seed-keyed table (`solve ... --keys seed --table DIR`) is a candidate proof, not a proof:
//! its keys merge positions of different values (`game/cube/keys.rs`), so `table check`, which
//! justifies each stored value by its children's entries under the same keys, would only show
//! the table consistent with itself. This walk re-decides every stored value from scratch with
//! *sound* keys (a fresh [`Solver`] with [`KeyMode::Sound`], its own memory, never the store).
//!
//! It goes breadth-first from the recorded start, so the first break it meets is a shallowest
//! one: the earliest place the seed's argument goes wrong, which is the one that matters for a
//! claim about the start. Positions are found by the walk of `table check`
//! (`store::check::walk_entries`: through positions with entries, a few plies without), looked
//! up under the seed keys the table was written with, and told apart by their exact identity
//! (the seed keys would merge exactly the positions the walk must not confuse).
//!
//! A separate subcommand rather than a flag of `table check`: `check` asks "is the table
//! consistent under its own keys", `recheck` asks "are its values true"; they answer differently
//! on the tables this is for, and `recheck` refuses tables that are not seed-keyed (a sound
//! table's values are already checked by `check`).

use super::common::{parse_bytes, CliError};
use super::table_command::{cube_start, manifest_of, open_runs, runs_lookup, sound_solver};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use zugzwang::game::{Cube, Game, Key};
use zugzwang::solver::budget::parse_duration;
use zugzwang::solver::{Control, GameSpec, KeyMode, Question, SolveError};
use zugzwang::store::check;
use zugzwang::store::entry::{Knowledge, Value};

/// Arguments of `table recheck`.
#[derive(Args)]
pub struct RecheckArgs {
    /// The store directory (made by `solve ... --keys seed --table DIR`).
    pub dir: PathBuf,
    /// Stop after re-deciding this many positions (0 = all).
    #[arg(long, default_value_t = 0)]
    pub max_positions: u64,
    /// Memory for the sound search.
    #[arg(long, default_value = "256M")]
    pub mem: String,
    /// Time limit per sound solve (e.g. `30s`, `10m`); a position not decided in it is counted
    /// as open and the walk goes on. Unset = no limit.
    #[arg(long)]
    pub time_limit: Option<String>,
}

/// Where the seed's table and the sound search disagree first.
#[derive(Debug)]
pub struct Break {
    /// The position, keyed soundly.
    pub position: Cube,
    /// The value stored under its seed key.
    pub stored: Value,
    /// Its sound value (for the side to move).
    pub sound: i32,
    /// The moves from the recorded start, by name.
    pub line: Vec<String>,
}

/// What the walk found.
#[derive(Debug, Default)]
pub struct Recheck {
    /// Positions with entries re-decided.
    pub decided: u64,
    /// Stored values that hold.
    pub held: u64,
    /// Positions whose sound solve hit the time limit.
    pub open: u64,
    /// Whether the walk stopped at `--max-positions`.
    pub truncated: bool,
    /// The shallowest break, if any (the walk stops there).
    pub broken: Option<Break>,
}

/// The walk itself ([`check::walk_entries`]: breadth first through the positions with entries,
/// from `start` keyed as the table was), each stored value re-decided by `sound`, which answers
/// the sound value of a position or `None` if it ran out of time.
pub fn walk(
    start: &Cube,
    lookup: &dyn Fn(Key) -> Knowledge,
    sound: &mut dyn FnMut(&Cube) -> Option<i32>,
    max_positions: u64,
) -> Recheck {
    let mut r = Recheck::default();
    r.truncated = check::walk_entries(
        start,
        lookup,
        &|c: &Cube| c.id(),
        max_positions,
        &mut |p, k, line| {
            r.decided += 1;
            let Some(v) = sound(p) else {
                r.open += 1;
                return true;
            };
            // a contradictory pair of bounds (stored as both a win and a loss) breaks at whichever
            // of them fails
            for stored in k.values() {
                if !stored.holds_for(v) {
                    let mut at = *start;
                    let names = line()
                        .into_iter()
                        .map(|mv| {
                            let name = at.move_name(mv);
                            at.play(mv);
                            name
                        })
                        .collect();
                    r.broken = Some(Break {
                        position: p.with_seed_keys(false),
                        stored,
                        sound: v,
                        line: names,
                    });
                    return false;
                }
                r.held += 1;
            }
            true
        },
    );
    r
}

/// Runs `table recheck`.
pub fn run(a: &RecheckArgs) -> Result<i32, CliError> {
    let mem = parse_bytes(&a.mem).map_err(|e| CliError::BadInput(format!("--mem: {e}")))?;
    let limit = match &a.time_limit {
        None => None,
        Some(t) => {
            Some(parse_duration(t).map_err(|e| CliError::BadInput(format!("--time-limit: {e}")))?)
        }
    };
    let (m, _lock) = manifest_of(&a.dir)?;
    let bad = |why: String| CliError::BadInput(format!("{}: {why}", a.dir.display()));
    let spec = GameSpec::from_name(&m.game, None)
        .ok()
        .filter(|s| matches!(s, GameSpec::Cube(_)))
        .ok_or_else(|| bad(format!("not a 4x4x4 table ({})", m.game)))?;
    if spec.store_key_mode(&m) != Some(KeyMode::Seed) {
        return Err(bad(format!(
            "not seed-keyed ({}); table check re-checks sound tables",
            m.variant
        )));
    }
    let start = cube_start(spec, &m, KeyMode::Seed).map_err(bad)?;
    let (runs, damaged) = open_runs(&a.dir, &m)?;
    if let Some(first) = damaged.first() {
        return Err(CliError::Failed(format!(
            "{} damaged run(s), first: {first}; table check says more",
            damaged.len()
        )));
    }
    let t0 = Instant::now();
    let mut solver = sound_solver(spec, mem, m.hash_seed);
    let control = Control::new();
    let mut sound = |c: &Cube| match solver.solve_position(c, Question::Value, limit, &control) {
        Ok(s) => Some(s.score),
        Err(SolveError::Stopped { .. }) => None,
        Err(e) => panic!("a sound solve of a legal position: {e}"),
    };
    let r = walk(&start, &runs_lookup(&runs), &mut sound, a.max_positions);
    print!("{}", report(&r, &m.start));
    println!("in {:.1} s", t0.elapsed().as_secs_f64());
    Ok(if r.broken.is_some() { 1 } else { 0 })
}

/// The verdict as text.
pub fn report(r: &Recheck, start: &str) -> String {
    let mut out = String::new();
    let open = if r.open > 0 {
        format!(", {} open (no sound value in the time limit)", r.open)
    } else {
        String::new()
    };
    let stopped = if r.truncated {
        ", stopped at --max-positions"
    } else {
        ""
    };
    match &r.broken {
        None => out.push_str(&format!(
            "holds: {} positions with entries re-decided with sound keys from '{start}', {} stored values hold{open}{stopped}\n",
            r.decided, r.held
        )),
        Some(b) => {
            let line = &b.line;
            out.push_str(&format!(
                "BREAK at ply {} ({} positions re-decided before, {} values held{open}): stored {}, sound value {}\n",
                b.position.ply(),
                r.decided - 1,
                r.held,
                b.stored.name(),
                b.sound
            ));
            out.push_str(&format!("position {}\n{}", b.position.to_hex(), b.position.render()));
            out.push_str(&format!(
                "line from '{start}': {}\n",
                if line.is_empty() { "(the start itself)".to_string() } else { line.join(" ") }
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use zugzwang::game::{Bits, Rules};
    use zugzwang::search::reference::minimax;
    use zugzwang::store::entry::Entry;
    use zugzwang::store::run_file::write_run;
    use zugzwang::util::random_play::careful_positions;

    const HASH_SEED: u64 = 7;

    /// The stored values that say exactly `score`.
    fn values_of(score: i32) -> Vec<Value> {
        match score {
            1 => vec![Value::Win],
            -1 => vec![Value::Loss],
            _ => vec![Value::AtMostDraw, Value::AtLeastDraw],
        }
    }

    /// A small seed-keyed "table": a Sogo position with 10 empty cells and every child, each
    /// under its seed key with its minimax value; `flip` names a child whose value is stored
    /// negated. Returns the start (seed-keyed), the entries, and the flipped child's move name.
    fn planted(flip: Option<usize>) -> (Cube, Vec<u64>, Option<String>) {
        let p = careful_positions(Cube::new(Rules::Sogo), 10, 1, 0x5eed_0016)
            .next()
            .unwrap()
            .with_seed(HASH_SEED)
            .with_seed_keys(true);
        let mut words = Vec::new();
        let mut flipped = None;
        for v in values_of(minimax(&p).signum()) {
            words.push(Entry::new(p.key(), v).word());
        }
        for (i, mv) in Bits(p.playable()).enumerate() {
            let mut c = p;
            c.play(mv);
            for mut v in values_of(minimax(&c).signum()) {
                if flip == Some(i) {
                    v = v.negated();
                    flipped = Some(p.move_name(mv));
                }
                words.push(Entry::new(c.key(), v).word());
            }
        }
        words.sort_unstable();
        words.dedup();
        (p, words, flipped)
    }

    fn walk_words(p: &Cube, words: &[u64]) -> Recheck {
        let mut table: HashMap<Key, Knowledge> = HashMap::new();
        for &w in words {
            let e = Entry::from_word(w);
            let k = table.entry(e.key()).or_insert(Knowledge::NONE);
            *k = k.with(e.value());
        }
        let lookup = |k: Key| table.get(&k).copied().unwrap_or(Knowledge::NONE);
        let mut sound = |c: &Cube| Some(minimax(&c.with_seed_keys(false)).signum());
        walk(p, &lookup, &mut sound, 0)
    }

    /// The walk passes a table of true values, and finds a value flipped by hand one ply below
    /// the start: the board, the stored and the sound value, and the move leading there.
    #[test]
    fn the_walk_holds_for_true_values_and_finds_a_planted_break() {
        let (p, words, _) = planted(None);
        let children = p.playable().count_ones() as u64;
        let r = walk_words(&p, &words);
        assert!(r.broken.is_none(), "{}", report(&r, &p.to_hex()));
        assert_eq!(r.decided, 1 + children);
        for flip in [0, children as usize - 1] {
            let (p, words, name) = planted(Some(flip));
            let r = walk_words(&p, &words);
            let b = r.broken.as_ref().expect("the flipped value breaks");
            assert_eq!(b.line, vec![name.unwrap()]);
            assert_eq!(b.position.ply(), p.ply() + 1);
            assert!(!b.stored.holds_for(b.sound));
            assert_eq!(b.sound, minimax(&b.position).signum());
            let text = report(&r, &p.to_hex());
            assert!(
                text.contains("BREAK at ply") && text.contains("level 1"),
                "{text}"
            );
        }
    }

    /// The same through the command on a store directory: exit 0 for the true table, 1 for the
    /// planted break, and a sound-keyed table is refused in one line.
    #[test]
    fn the_command_rechecks_a_seed_table_on_disk() {
        let spec = GameSpec::Cube(Rules::Sogo);
        for (flip, want) in [(None, 0), (Some(2), 1)] {
            let (p, words, _) = planted(flip);
            let dir = tempfile::tempdir().unwrap();
            let m = spec.store_manifest(KeyMode::Seed, HASH_SEED, &p.to_hex());
            std::fs::write(dir.path().join("manifest.json"), m.to_text()).unwrap();
            let n = words.len() as u64;
            write_run(
                dir.path(),
                "run-0000000001.zzr",
                &m.identity(),
                words.into_iter().map(Ok),
                n,
            )
            .unwrap();
            let args = RecheckArgs {
                dir: dir.path().to_path_buf(),
                max_positions: 0,
                mem: "4M".into(),
                time_limit: Some("20s".into()),
            };
            assert_eq!(run(&args).unwrap(), want);
        }
        let dir = tempfile::tempdir().unwrap();
        let m = spec.store_manifest(KeyMode::Sound, 0, "");
        std::fs::write(dir.path().join("manifest.json"), m.to_text()).unwrap();
        let e = run(&RecheckArgs {
            dir: dir.path().to_path_buf(),
            max_positions: 0,
            mem: "4M".into(),
            time_limit: None,
        })
        .unwrap_err();
        assert!(e.to_string().contains("not seed-keyed") && !e.to_string().contains('\n'));
    }
}
