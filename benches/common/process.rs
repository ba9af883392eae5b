//! Whole processes, timed as a user waits for them: wall seconds from the clock, user and system
//! seconds and peak memory from `/usr/bin/time` where it is installed. Shared by the benches that
//! compare binaries (`#[path]`-included: benches are separate crates).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The zugzwang binary the benches run: `ZUGZWANG_BIN`, else this checkout's release build.
#[allow(dead_code)] // not every bench including this module runs zugzwang itself
pub fn zugzwang_binary() -> PathBuf {
    std::env::var_os("ZUGZWANG_BIN").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/zugzwang"),
        PathBuf::from,
    )
}

/// What one process did.
pub struct Timed {
    /// Wall seconds, start to exit.
    pub wall: f64,
    /// User seconds (`None` without `/usr/bin/time`).
    pub user: Option<f64>,
    /// System seconds.
    pub sys: Option<f64>,
    /// Peak resident memory in KB.
    pub peak_kb: Option<u64>,
    /// Whether it exited with status 0.
    #[allow(dead_code)] // a bench expecting stopped solves (non-zero status) does not ask
    pub success: bool,
    pub stdout: Vec<u8>,
    /// Its standard error, without `/usr/bin/time`'s line.
    pub stderr: String,
}

impl Timed {
    /// "12.34 s wall, 12.00 user, 0.30 sys, 1024 MB" (the parts that were measured).
    #[allow(dead_code)]
    pub fn summary(&self) -> String {
        let mut s = format!("{:.2} s wall", self.wall);
        if let (Some(u), Some(y), Some(m)) = (self.user, self.sys, self.peak_kb) {
            s += &format!(", {u:.2} user, {y:.2} sys, {} MB", m / 1024);
        }
        s
    }
}

/// The marker that starts `/usr/bin/time`'s line on standard error.
const MARK: &str = "@@time ";

/// Runs `program args` with stdin closed and times it.
pub fn timed(program: &Path, args: &[String]) -> Timed {
    let time = Path::new("/usr/bin/time");
    let mut cmd = if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", &format!("{MARK}%U %S %M")]).arg(program);
        c
    } else {
        Command::new(program)
    };
    cmd.args(args).stdin(Stdio::null());
    let start = Instant::now();
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    let wall = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut fields: Option<Vec<String>> = None;
    let mut rest = String::new();
    for line in stderr.lines() {
        match line.strip_prefix(MARK) {
            Some(f) => fields = Some(f.split_whitespace().map(String::from).collect()),
            None => {
                rest += line;
                rest.push('\n');
            }
        }
    }
    let field = |i: usize| fields.as_ref().and_then(|f| f.get(i)).cloned();
    Timed {
        wall,
        user: field(0).and_then(|s| s.parse().ok()),
        sys: field(1).and_then(|s| s.parse().ok()),
        peak_kb: field(2).and_then(|s| s.parse().ok()),
        success: out.status.success(),
        stdout: out.stdout,
        stderr: rest,
    }
}
