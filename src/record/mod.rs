//! Records of reproduced results in `solve-runs/`: one JSON file per solve, with everything needed
//! to judge and repeat it (what was asked, what came out, what it cost, on which machine and commit).

mod board_sizes;

pub use board_sizes::{board_results, board_size_table, BoardResult};

use crate::solver::{Engine, GameSpec, KeyMode, Mode, Solution};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The game of a record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameName {
    /// Connect Four (any size).
    #[default]
    Connect4,
    /// Sogo (4x4x4 with gravity).
    Sogo,
    /// Qubic (4x4x4 without gravity).
    Qubic,
}

/// The rule variant of a record's game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// The game's standard rules.
    #[default]
    Standard,
    /// Sogo `-g`: creating a poison wins.
    Poison,
}

impl GameName {
    /// `connect4`, `sogo` or `qubic`.
    pub fn name(self) -> &'static str {
        match self {
            GameName::Connect4 => "connect4",
            GameName::Sogo => "sogo",
            GameName::Qubic => "qubic",
        }
    }
}

impl fmt::Display for GameName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a records directory could not be read.
#[derive(Debug)]
pub enum RecordError {
    /// The directory or a file in it could not be read.
    Io(PathBuf, std::io::Error),
    /// A `.json` file is not a solve record.
    NotARecord(PathBuf, serde_json::Error),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Io(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            RecordError::NotARecord(p, e) => {
                // serde quotes the offending text, which may hold a newline: keep one line
                let why: String = e
                    .to_string()
                    .chars()
                    .flat_map(|c| {
                        let escaped = c.is_control().then(|| c.escape_default());
                        escaped
                            .into_iter()
                            .flatten()
                            .chain((!c.is_control()).then_some(c))
                    })
                    .collect();
                write!(f, "{} is not a solve record: {why}", p.display())
            }
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::Io(_, e) => Some(e),
            RecordError::NotARecord(_, e) => Some(e),
        }
    }
}

/// One reproduced result.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// The game.
    pub game: GameName,
    /// Board size (`7x6`, `4x4x4`).
    pub size: String,
    /// The rule variant (Sogo `-g` is `poison`).
    #[serde(default)]
    pub rules: Variant,
    /// `strong` (exact score) or `weak` (win/draw/loss).
    pub mode: Option<Mode>,
    /// The search engine (absent in records older than the field).
    #[serde(default)]
    pub engine: Option<Engine>,
    /// The position solved, in the game's move notation (empty = the start).
    pub moves: String,
    /// `win`, `draw` or `loss` for the side to move.
    pub value: String,
    /// Exact score (strong mode) or its sign (weak mode).
    pub score: i32,
    /// Best moves found, in the game's notation.
    pub best_moves: Vec<String>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub wall_seconds: f64,
    /// CPU seconds of the process (user + system).
    pub cpu_seconds: f64,
    /// Search threads.
    pub threads: usize,
    /// Memory given to the tables, in bytes.
    pub table_bytes: u64,
    /// Seed of the key hash (absent in records older than the field).
    #[serde(default)]
    pub hash_seed: Option<u64>,
    /// How positions were keyed (absent in records older than the field: sound).
    #[serde(default)]
    pub key_mode: KeyMode,
    /// The position store directory used, if any.
    #[serde(default)]
    pub table: Option<String>,
    /// CPU model and core count.
    pub machine: String,
    /// Crate version.
    pub version: String,
    /// The git commit the binary was built from (`-dirty` if the tree had uncommitted changes).
    pub commit: String,
    /// UTC date and time of the end of the run (RFC 3339 from `date`, or seconds since the epoch).
    pub finished: String,
}

impl Record {
    /// The record of a solve that took `wall_seconds` and `cpu_seconds` of this process.
    pub fn of(game: GameSpec, solution: &Solution, wall_seconds: f64, cpu_seconds: f64) -> Self {
        let (name, rules) = match game {
            GameSpec::Connect4 { .. } => (GameName::Connect4, Variant::Standard),
            GameSpec::Cube(crate::game::Rules::Sogo) => (GameName::Sogo, Variant::Standard),
            GameSpec::Cube(crate::game::Rules::SogoPoison) => (GameName::Sogo, Variant::Poison),
            GameSpec::Cube(crate::game::Rules::Qubic) => (GameName::Qubic, Variant::Standard),
        };
        let s = &solution.settings;
        Record {
            game: name,
            size: solution.size.clone(),
            rules,
            mode: Some(s.mode),
            engine: Some(s.engine),
            moves: solution.moves.clone(),
            value: solution.value.into(),
            score: solution.score,
            best_moves: solution.best_moves.clone(),
            nodes: solution.nodes,
            wall_seconds,
            cpu_seconds,
            threads: s.threads,
            table_bytes: s.mem_bytes,
            hash_seed: Some(s.hash_seed),
            key_mode: s.key_mode,
            table: solution.table.as_ref().map(|t| t.dir.clone()),
            ..Record::default()
        }
    }

    /// `strong`, `weak`, or `?` for a record without a mode.
    pub fn mode_name(&self) -> &'static str {
        self.mode.map_or("?", Mode::name)
    }

    /// The game as the results table names it: `sogo -g` for the poison rule.
    pub fn game_label(&self) -> String {
        match self.rules {
            Variant::Standard => self.game.to_string(),
            Variant::Poison => format!("{} -g", self.game),
        }
    }

    /// Fills in where and when the run happened: machine, crate version, the commit the binary
    /// was built from, and the time now. Callers describe the run; this describes the context.
    pub fn stamped(mut self) -> Self {
        self.machine = machine_description();
        self.version = env!("CARGO_PKG_VERSION").into();
        self.commit = git_commit();
        self.finished = now_utc();
        self
    }

    /// A file name that sorts by game and does not collide between runs.
    pub fn file_name(&self) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect()
        };
        let moves = if self.moves.is_empty() {
            "start".to_string()
        } else {
            clean(&self.moves)
        };
        let stamp = clean(&self.finished);
        format!(
            "{}-{}-{}-{}-{}.json",
            clean(&self.game_label()),
            clean(&self.size),
            moves.chars().take(40).collect::<String>(),
            self.mode_name(),
            stamp
        )
    }

    /// Writes the record into `dir` (created if missing); returns the file written.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(self.file_name());
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(&path, text + "\n")?;
        Ok(path)
    }
}

/// CPU seconds used by this process so far (Linux `/proc/self/stat`; 0 elsewhere).
pub fn process_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // fields after the parenthesised command name; utime and stime are fields 14 and 15
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
        return 0.0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// CPU model and logical core count, from `/proc/cpuinfo`.
pub fn machine_description() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!("{model}, {cores} cores")
}

/// A commit as the table shows it: 8 hex digits, keeping the `-dirty` mark of a build from a
/// tree with uncommitted changes (such a record is not exactly that commit's code).
fn short_commit(commit: &str) -> String {
    let hash: String = commit.chars().take(8).collect();
    if commit.ends_with("-dirty") {
        format!("{hash}-dirty")
    } else {
        hash
    }
}

/// The git commit this binary was built from (embedded by the build script), or `unknown`.
pub fn git_commit() -> String {
    option_env!("ZZ_GIT_COMMIT")
        .unwrap_or("unknown")
        .to_string()
}

/// Current UTC time as RFC 3339 (via `date -u`), or seconds since the epoch.
pub fn now_utc() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| {
            let s = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            s.to_string()
        })
}

/// Every record in `dir` (files ending in `.json`), sorted by game, size and finishing time.
/// Files that are not records are reported by name rather than skipped silently.
pub fn load_dir(dir: &Path) -> Result<Vec<Record>, RecordError> {
    let entries = std::fs::read_dir(dir).map_err(|e| RecordError::Io(dir.to_path_buf(), e))?;
    let mut records = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| RecordError::Io(dir.to_path_buf(), e))?
            .path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| RecordError::Io(path.clone(), e))?;
        let rec: Record =
            serde_json::from_str(&text).map_err(|e| RecordError::NotARecord(path.clone(), e))?;
        records.push(rec);
    }
    records.sort_by(|a, b| {
        (a.game, a.rules, &a.size, &a.finished).cmp(&(b.game, b.rules, &b.size, &b.finished))
    });
    Ok(records)
}

/// Which keys produced a record: key mode, hash seed and the store directory's name (what a
/// second run needs to confirm it against collisions); `-` where an older record does not say.
fn keys_column(r: &Record) -> String {
    let mode = r.key_mode.name();
    let seed = r.hash_seed.map_or("-".to_string(), |s| s.to_string());
    let store = r.table.as_deref().map_or("-".to_string(), |t| {
        std::path::Path::new(t)
            .file_name()
            .map_or(t.to_string(), |n| n.to_string_lossy().into_owned())
    });
    format!("{mode}, {seed}, {store}")
}

/// The README's results table: one markdown row per record.
pub fn markdown_table(records: &[Record]) -> String {
    let mut out = String::from(
        "| game | size | position | mode | value | score | best | nodes | wall s | CPU s | threads | table | keys, seed, store | commit |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in records {
        let position = if r.moves.is_empty() {
            "start".to_string()
        } else {
            format!("`{}`", r.moves)
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {:+} | {} | {} | {:.1} | {:.1} | {} | {} MiB | {} | {} |\n",
            r.game_label(),
            r.size,
            position,
            r.mode_name(),
            r.value,
            r.score,
            r.best_moves.join(" "),
            r.nodes,
            r.wall_seconds,
            r.cpu_seconds,
            r.threads,
            r.table_bytes >> 20,
            keys_column(r),
            short_commit(&r.commit),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        Record {
            game: GameName::Connect4,
            size: "7x6".into(),
            mode: Some(Mode::Strong),
            moves: String::new(),
            value: "win".into(),
            score: 1,
            best_moves: vec!["4".into()],
            nodes: 42,
            wall_seconds: 1.5,
            cpu_seconds: 1.4,
            threads: 1,
            table_bytes: 1 << 30,
            machine: "test".into(),
            version: "0".into(),
            commit: "0123456789abcdef".into(),
            finished: "2026-11-22T00:00:00Z".into(),
            ..Record::default()
        }
    }

    #[test]
    fn every_record_in_solve_runs_still_reads() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("solve-runs");
        let records = load_dir(&dir).unwrap();
        assert!(records.len() >= 10, "{} records", records.len());
        assert!(records.iter().all(|r| r.mode.is_some()));
        assert!(records.iter().any(|r| r.game == GameName::Sogo));
    }

    #[test]
    fn records_round_trip_through_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let rec = sample();
        rec.write_to(dir.path()).unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a record").unwrap();
        let back = load_dir(dir.path()).unwrap();
        assert_eq!(back, vec![rec]);
        let table = markdown_table(&back);
        assert!(table.contains("| connect4 | 7x6 | start | strong | win | +1 | 4 | 42 | 1.5 | 1.4 | 1 | 1024 MiB | sound, -, - | 01234567 |"));
        let keyed = Record {
            hash_seed: Some(7),
            table: Some("/work/tables/showcase-seed7".into()),
            ..sample()
        };
        assert!(markdown_table(&[keyed]).contains("| sound, 7, showcase-seed7 |"));
        let dirty = Record {
            commit: "0123456789abcdef-dirty".into(),
            ..sample()
        };
        assert!(markdown_table(&[dirty]).contains("| 01234567-dirty |"));
    }

    #[test]
    fn a_bad_field_quoting_a_newline_is_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let mut v = serde_json::to_value(sample()).unwrap();
        v["mode"] = serde_json::Value::String("\n".into());
        std::fs::write(dir.path().join("r.json"), v.to_string()).unwrap();
        let err = load_dir(dir.path()).unwrap_err().to_string();
        assert!(!err.contains('\n') && err.contains("\\n"), "{err}");
    }

    #[test]
    fn a_foreign_json_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("x.json"), "{}").unwrap();
        let err = load_dir(dir.path()).unwrap_err().to_string();
        assert!(err.contains("x.json"), "{err}");
    }
}
