//! Pieces shared by every game's commands: errors with exit codes, sizes, progress display.

use indicatif::{ProgressBar, ProgressStyle};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A failure shown to the user as one line, with the exit status it maps to.
#[derive(Debug)]
pub enum CliError {
    /// The user's input is wrong (exit status 2).
    BadInput(String),
    /// Something outside the input failed: a file, the disk (exit status 1).
    Failed(String),
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::BadInput(_) => super::EXIT_BAD_INPUT,
            CliError::Failed(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::BadInput(s) | CliError::Failed(s) => f.write_str(s),
        }
    }
}

/// Parses a byte size such as `512M`, `8G`, `1.5G` or a plain number of bytes; `auto` is a
/// quarter of the machine's RAM, at most 8 GiB (pages are only used as the search touches them).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t == "auto" {
        let ram = physical_memory().unwrap_or(4 << 30);
        return Ok((ram / 4).min(8 << 30));
    }
    let (num, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m' | 'M') => (&t[..t.len() - 1], 1u64 << 20),
        Some('g' | 'G') => (&t[..t.len() - 1], 1u64 << 30),
        Some('t' | 'T') => (&t[..t.len() - 1], 1u64 << 40),
        _ => (t, 1),
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("'{text}' is not a size (examples: 512M, 8G)"))?;
    if !(v.is_finite() && v > 0.0) {
        return Err(format!("'{text}' is not a positive size"));
    }
    Ok((v * mult as f64) as u64)
}

/// Physical memory of the machine in bytes (from `/proc/meminfo`), if known.
pub fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Checks a memory budget against the machine: refuses budgets larger than 90% of RAM or below
/// one kilobyte, with a one-line reason.
pub fn check_memory_budget(bytes: u64) -> Result<u64, CliError> {
    if bytes < 1024 {
        return Err(CliError::BadInput(format!(
            "memory budget of {bytes} bytes is too small (minimum 1K)"
        )));
    }
    if let Some(total) = physical_memory() {
        if bytes > total / 10 * 9 {
            return Err(CliError::BadInput(format!(
                "memory budget of {} is impossible: this machine has {} of RAM",
                human_bytes(bytes),
                human_bytes(total)
            )));
        }
    }
    Ok(bytes)
}

/// `1.5 GiB`-style rendering.
pub fn human_bytes(b: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", units[u])
    }
}

/// A spinner on stderr showing nodes and nodes/s while a long search runs. When stderr is not a
/// terminal (a background solve writing a log) it prints one plain line a minute instead, so the
/// log shows how the run went. Dropping it stops the display at once.
pub struct Progress {
    bar: ProgressBar,
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Starts displaying `counter` (nodes) under `label`.
    pub fn start(label: &str, counter: Arc<AtomicU64>) -> Self {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let (b, label) = (bar.clone(), label.to_string());
        let start = Instant::now();
        let plain = !std::io::IsTerminal::is_terminal(&std::io::stderr());
        let tick = if plain {
            Duration::from_secs(60)
        } else {
            Duration::from_millis(200)
        };
        let thread = std::thread::spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(tick) {
                let n = counter.load(Ordering::Relaxed);
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                let msg = format!("{label}: {n} nodes, {:.2} M nodes/s", n as f64 / secs / 1e6);
                if plain {
                    eprintln!("[{secs:>8.0} s] {msg}");
                } else {
                    b.set_message(msg);
                    b.tick();
                }
            }
        });
        Progress {
            bar,
            stop: Some(tx),
            thread: Some(thread),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.bar.finish_and_clear();
    }
}

/// A memory table of the budget `mem` (`512M`, `4G`, `auto`), refused with one line if the size is
/// malformed or larger than the machine can give.
pub fn make_table(mem: &str) -> Result<zugzwang::search::MemoryTable, CliError> {
    let bytes = parse_bytes(mem).map_err(|e| CliError::BadInput(format!("--mem: {e}")))?;
    let bytes = check_memory_budget(bytes)?;
    Ok(zugzwang::search::MemoryTable::with_bytes(bytes as usize))
}

/// `win`, `draw` or `loss` for a score's sign: the `value` field of every JSON answer.
pub fn value_word(score: i32) -> &'static str {
    match score.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// Stamps `rec` (machine, version, commit, time), writes it into `dir` and says where.
pub fn save_record(dir: &std::path::Path, rec: zugzwang::record::Record) -> Result<(), CliError> {
    let path = rec
        .stamped()
        .write_to(dir)
        .map_err(|e| CliError::Failed(format!("writing record into {}: {e}", dir.display())))?;
    eprintln!("record written to {}", path.display());
    Ok(())
}
