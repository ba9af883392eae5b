//! Memory budgets as users write them (`512M`, `8G`, `auto`) and the machine facts that bound them.
//!
//! Lives in the library, not the CLI, because every front end (command line, web page, remote
//! workers) must refuse the same impossible budget with the same one-line reason.

use std::fmt;

/// A memory budget for the tables of one solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Memory {
    /// The game's default ([`super::SolverConfig::for_game`] decides).
    #[default]
    Auto,
    /// Exactly this many bytes.
    Bytes(u64),
}

/// Why a memory size was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryError {
    /// Not a size (`512M`, `8G`, `1.5G`, a plain number of bytes, `auto`).
    NotASize(String),
    /// Zero, negative or not finite.
    NotPositive(String),
    /// Below one kilobyte: no table fits.
    TooSmall(u64),
    /// More than 90% of the machine's RAM.
    TooLarge {
        /// Bytes asked for.
        bytes: u64,
        /// Bytes the machine has.
        total: u64,
    },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::NotASize(t) => write!(f, "'{t}' is not a size (examples: 512M, 8G)"),
            MemoryError::NotPositive(t) => write!(f, "'{t}' is not a positive size"),
            MemoryError::TooSmall(b) => {
                write!(f, "memory budget of {b} bytes is too small (minimum 1K)")
            }
            MemoryError::TooLarge { bytes, total } => write!(
                f,
                "memory budget of {} is impossible: this machine has {} of RAM",
                human_bytes(*bytes),
                human_bytes(*total)
            ),
        }
    }
}

impl std::error::Error for MemoryError {}

impl Memory {
    /// Parses `512M`, `8G`, `1.5G`, a plain number of bytes, or `auto`.
    pub fn parse(text: &str) -> Result<Memory, MemoryError> {
        let t = text.trim();
        if t == "auto" {
            return Ok(Memory::Auto);
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
            .map_err(|_| MemoryError::NotASize(text.to_string()))?;
        if !(v.is_finite() && v > 0.0) {
            return Err(MemoryError::NotPositive(text.to_string()));
        }
        Ok(Memory::Bytes((v * mult as f64) as u64))
    }

    /// The bytes this budget stands for, `auto` being `default`; checked against the machine.
    pub fn resolve(self, default: u64) -> Result<u64, MemoryError> {
        let bytes = match self {
            Memory::Auto => default,
            Memory::Bytes(b) => b,
        };
        check_budget(bytes)
    }
}

/// Physical memory of the machine in bytes (from `/proc/meminfo`), if known.
pub fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// A quarter of the machine's RAM, at most `cap` bytes: a default that leaves the machine usable
/// (table pages are only used as the search touches them).
pub fn quarter_of_ram(cap: u64) -> u64 {
    (physical_memory().unwrap_or(4 << 30) / 4).min(cap)
}

/// Refuses budgets larger than 90% of RAM or below one kilobyte.
pub fn check_budget(bytes: u64) -> Result<u64, MemoryError> {
    if bytes < 1024 {
        return Err(MemoryError::TooSmall(bytes));
    }
    if let Some(total) = physical_memory() {
        if bytes > total / 10 * 9 {
            return Err(MemoryError::TooLarge { bytes, total });
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

/// A duration as users write it: `90s`, `30m`, `2h`, `1.5h`, `1d`, or plain seconds.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let bad = || format!("'{text}' is not a duration (examples: 90s, 30m, 2h)");
    let (num, unit) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&t[..i], c),
        _ => (t, 's'),
    };
    let mult = match unit {
        's' => 1.0,
        'm' => 60.0,
        'h' => 3600.0,
        'd' => 86400.0,
        _ => return Err(bad()),
    };
    let v: f64 = num.trim().parse().map_err(|_| bad())?;
    if !(v.is_finite() && v > 0.0 && v * mult < 1e12) {
        return Err(bad());
    }
    Ok(std::time::Duration::from_secs_f64(v * mult))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_and_bad_ones_are_refused() {
        use std::time::Duration;
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("1.5m"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        for bad in ["", "h", "-1s", "3x", "1e300d", "NaNs"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_parse_and_bad_sizes_are_refused() {
        assert_eq!(Memory::parse("auto"), Ok(Memory::Auto));
        assert_eq!(Memory::parse("512M"), Ok(Memory::Bytes(512 << 20)));
        assert_eq!(Memory::parse("1.5G"), Ok(Memory::Bytes(3 << 29)));
        assert_eq!(Memory::parse("2048"), Ok(Memory::Bytes(2048)));
        for bad in ["", "lots", "-1G", "0", "nanM", "infG"] {
            assert!(Memory::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Memory::Bytes(10).resolve(0), Err(MemoryError::TooSmall(10)));
        assert!(matches!(
            Memory::Bytes(u64::MAX / 2).resolve(0),
            Err(MemoryError::TooLarge { .. })
        ));
        assert_eq!(Memory::Auto.resolve(1 << 20), Ok(1 << 20));
    }
}
