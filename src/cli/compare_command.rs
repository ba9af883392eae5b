//! `zugzwang table compare DIR DIR...`: whether tables made by separate solves agree where they
//! know the same positions (see [`zugzwang::store::compare`]).

use super::common::CliError;
use super::table_command::{manifest_of, open_runs};
use clap::Args;
use std::path::{Path, PathBuf};
use zugzwang::store::compare::{compare, Comparison};
use zugzwang::store::entry::Knowledge;
use zugzwang::store::Manifest;

/// Arguments of `table compare`.
#[derive(Args)]
pub struct CompareArgs {
    /// Two or more store directories of the same game, variant, key mode and hash seed (their
    /// keys must mean the same positions), e.g. the tables of one position's replies.
    #[arg(required = true, num_args = 2..)]
    dirs: Vec<PathBuf>,
}

/// Runs `table compare`: exit status 0 when no key's facts contradict, 1 when some do (each
/// shown), 2 when the tables cannot be compared.
pub fn run(a: &CompareArgs) -> Result<i32, CliError> {
    let mut tables: Vec<(PathBuf, Manifest, _, Vec<_>)> = Vec::new();
    for dir in &a.dirs {
        let (m, lock) = manifest_of(dir)?;
        if let Some((first, fm, _, _)) = tables.first() {
            refuse_other_keys(dir, &m, first, fm)?;
        }
        let (runs, damaged) = open_runs(dir, &m)?;
        if let Some(first) = damaged.first() {
            return Err(CliError::Failed(format!(
                "{first} (`table check` says more)"
            )));
        }
        tables.push((dir.clone(), m, lock, runs));
    }
    let c = compare(
        tables
            .iter()
            .map(|(_, _, _, runs)| runs.iter().map(|r| r.entries()).collect())
            .collect(),
    );
    let (_, m, _, _) = &tables[0];
    println!(
        "{} tables of {} {} (hash seed {})",
        tables.len(),
        m.game,
        m.variant,
        m.hash_seed
    );
    for ((dir, m, _, _), keys) in tables.iter().zip(&c.keys) {
        println!("  {}: {keys} keys (start '{}')", dir.display(), m.start);
    }
    print_summary(&c);
    Ok(if c.contradictions == 0 { 0 } else { 1 })
}

/// Tables whose keys mean other positions (another game, variant, key mode or hash seed) are
/// not compared: a key they share would be a coincidence, and so would a contradiction.
fn refuse_other_keys(
    dir: &Path,
    m: &Manifest,
    first: &Path,
    fm: &Manifest,
) -> Result<(), CliError> {
    if m.identity() == fm.identity() {
        return Ok(());
    }
    Err(CliError::BadInput(format!(
        "{}: {} {} hash seed {}, but {}: {} {} hash seed {}: their keys do not mean the same positions",
        dir.display(),
        m.game,
        m.variant,
        m.hash_seed,
        first.display(),
        fm.game,
        fm.variant,
        fm.hash_seed
    )))
}

fn print_summary(c: &Comparison) {
    println!(
        "distinct keys {}, in two tables or more {}, of them known differently but compatibly {}, contradictions {}",
        c.distinct, c.shared, c.complementary, c.contradictions
    );
    for s in &c.shown {
        let said: Vec<String> = s.knowledge.iter().map(|&k| knowledge_text(k)).collect();
        println!(
            "  CONTRADICTION key {:#x}: {}",
            s.key.get(),
            said.join(" | ")
        );
    }
    if c.contradictions > c.shown.len() as u64 {
        println!("  ... and {} more", c.contradictions - c.shown.len() as u64);
    }
    if c.contradictions == 0 {
        println!("agree: no key's facts contradict");
    }
}

/// A store's knowledge of one key as its values' names ("-" for nothing).
fn knowledge_text(k: Knowledge) -> String {
    if k.is_empty() {
        return "-".into();
    }
    k.values().map(|v| v.name()).collect::<Vec<_>>().join("+")
}
