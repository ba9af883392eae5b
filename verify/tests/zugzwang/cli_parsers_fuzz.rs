//! The command line's own parsers, fuzzed through the binary (they live in the CLI): `--size`
//! and `--mem` given arbitrary text must end in exit status 2 with one line, or be accepted, never
//! a panic. Each case is a process start, so a few dozen cases each (about a second in all).
//!
//! This file belongs to the root package (see `[[test]]` in the root Cargo.toml) so that Cargo
//! builds the binary for it; it lives under verify/tests/ because the top level has no tests/.

use proptest::prelude::*;
use std::process::{Command, Output};

fn zugzwang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zugzwang"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// Exit status 2 and exactly one line on stderr, no panic.
fn refused_in_one_line(o: &Output, what: &str) -> Result<(), TestCaseError> {
    let err = String::from_utf8_lossy(&o.stderr);
    prop_assert!(!err.contains("panicked"), "{}: panic: {}", what, err);
    prop_assert_eq!(o.status.code(), Some(2), "{}: {}", what, err);
    prop_assert_eq!(err.trim_end().lines().count(), 1, "{}: {}", what, err);
    Ok(())
}

/// Text near a size (`7x6`, `512M`, `1.5G`, `auto`) and anything else. Not starting with `-`,
/// which the argument parser would take for a flag.
fn near_size() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{0,4}[xX][0-9]{0,4}",
        "[0-9.eE+]{0,8}[kKmMgGtTpP]?",
        "[0-9a-zA-Z .:]{0,12}",
        any::<String>(),
    ]
    .prop_filter("not a flag, no NUL", |s| {
        !s.starts_with('-') && !s.contains('\0')
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Any `--size`: refused as a size, or accepted and then the move string (70 stones in
    /// column 1, more than any board's height) is refused. Either way, one line and status 2.
    #[test]
    fn board_sizes(size in near_size()) {
        let moves = "1".repeat(70);
        let o = zugzwang(&["solve", "connect4", "--size", &size, &moves]);
        refused_in_one_line(&o, &format!("--size {size:?}"))?;
    }

    /// Any `--mem`, parsed by `table check` before it looks at the directory (which is not a
    /// store, so an accepted size ends there without allocating anything).
    #[test]
    fn memory_sizes(mem in near_size()) {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        let o = zugzwang(&["table", "check", d, "--mem", &mem]);
        refused_in_one_line(&o, &format!("--mem {mem:?}"))?;
        let err = String::from_utf8_lossy(&o.stderr);
        prop_assert!(err.contains("--mem") || err.contains("not a position store"), "{}", err);
    }
}
