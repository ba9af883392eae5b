//! The audit as CI runs it: a small sample, and a check that its output keeps its shape — every
//! lemma and rule line of both versions with both oracles, the evaluator rows, the JSON fields.

use std::process::Command;
use zugzwang_verify::audit::{self, Options};
use zugzwang_verify::threats::{lemmas, Version};

const LEMMAS_000: &[&str] = &[
    "1.1", "1.2", "1.3", "1.4", "2.1", "2.2", "2.2a", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8",
    "2.9", "2.10", "2.11", "2.12", "2.13", "2.14", "2.15", "2.16",
];
const LEMMAS_001: &[&str] = &[
    "1.1", "1.2", "1.3", "1.4", "2.1", "2.2", "2.2a", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8",
];

fn small() -> Options {
    Options {
        versions: Version::ALL.to_vec(),
        samples: 5,
        seed: 3,
        eval_sets: 20,
        eval_starts: 4,
        max_games: 4000,
        real_seconds: None,
        table_bytes: 16 << 20,
        min_ply: 22,
    }
}

#[test]
fn audit_covers_every_lemma_line_with_both_oracles() {
    let a = audit::run(&small());
    for (v, ids) in [("000", LEMMAS_000), ("001", LEMMAS_001)] {
        let version = Version::parse(v).unwrap();
        assert_eq!(
            lemmas(version).iter().map(|l| l.id).collect::<Vec<_>>(),
            ids.to_vec()
        );
        for l in lemmas(version) {
            for line in l.lines {
                for oracle in ["abstract", "real"] {
                    let row = a
                        .rows
                        .iter()
                        .find(|r| {
                            r.version == v
                                && r.lemma == l.id
                                && r.rule == line.label()
                                && r.oracle == oracle
                        })
                        .unwrap_or_else(|| {
                            panic!("missing {v} {} {} {oracle}", l.id, line.label())
                        });
                    assert_eq!(row.agree + row.disagree, row.tried);
                    assert_eq!(row.disagree > 0, row.counterexample.is_some());
                    if oracle == "abstract" {
                        // the exhaustive enumeration reaches every line
                        assert!(row.tried > 0, "{v} {} {} never applies", l.id, line.label());
                    }
                }
            }
        }
    }
    for k in 1..=4 {
        for oracle in ["abstract", "real"] {
            let lemma = format!("n={k}");
            assert!(a
                .rows
                .iter()
                .any(|r| r.version == "eval" && r.lemma == lemma && r.oracle == oracle));
        }
    }
    // under (I) the real game is the abstract game: the oracles must agree there
    assert_eq!(a.stats.consistency_failed, 0);
    assert!(a.stats.real_positions > 0);
}

#[test]
fn cli_json_has_the_agreed_fields() {
    let out = Command::new(env!("CARGO_BIN_EXE_zugzwang-verify"))
        .args([
            "lemmas",
            "--version",
            "001",
            "--samples",
            "2",
            "--max-games",
            "500",
            "--eval-sets",
            "5",
            "--json",
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut rows = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object per line");
        for key in [
            "version",
            "lemma",
            "rule",
            "oracle",
            "tried",
            "agree",
            "disagree",
            "counterexample",
        ] {
            assert!(v.get(key).is_some(), "missing {key} in {line}");
        }
        rows += 1;
    }
    let lines: usize = lemmas(Version::V001).iter().map(|l| l.lines.len()).sum();
    assert_eq!(rows, 2 * lines + 8);
}

#[test]
fn cli_refuses_bad_input_with_status_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_zugzwang-verify"))
        .args(["lemmas", "--version", "002"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
}
