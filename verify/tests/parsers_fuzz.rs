//! Every parser of outside input, fed arbitrary bytes and near-valid input (proptest, a few
//! seconds in all): Connect Four move strings, Sogo and Qubic move strings and `0xW:0xB` hex
//! boards, run-file headers and whole run files, store manifests, and solve records. Each must
//! return, never panic, and explain a refusal in one line; where a parser accepts, what it accepted
//! must be what was written (the store's files are all under checksums, so an accepted file is the
//! file as written). The command line's `--size` and `--mem` are fuzzed through the binary in
//! `zugzwang/cli_parsers_fuzz.rs`, since they are parsed in the CLI.

use proptest::prelude::*;
use std::path::Path;
use zugzwang::game::{Connect4, Cube, Game, Key, Rules};
use zugzwang::store::entry::{Entry, Value};
use zugzwang::store::header::{RunHeader, HEADER_LEN};
use zugzwang::store::run_file::{write_run, Identity, Run, Verify};
use zugzwang::store::Manifest;

/// Asserts that an error message is one line.
fn one_line(e: impl std::fmt::Display) -> Result<(), TestCaseError> {
    let s = e.to_string();
    prop_assert!(!s.contains('\n') && !s.is_empty(), "not one line: {s:?}");
    Ok(())
}

/// Text near the languages: digits, column names, separators, hex, and anything else.
fn near_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[0-9 ,;]{0,60}",
        "([a-e][0-5][0-5]?[ ,;]{0,2}){0,40}",
        "0[xX][0-9a-fA-F]{0,18}:0[xX][0-9a-fA-F]{0,18}",
        "[0-9a-zA-Z:x \\n\\t]{0,30}",
    ]
}

/// A valid header's bytes, and the run body it describes is not needed: only the header parser.
fn header_bytes() -> [u8; HEADER_LEN] {
    RunHeader::new("connect4", "7x6", 0, 100, 3, 7, 0x1234)
        .encode()
        .unwrap()
}

fn id() -> Identity {
    Identity {
        game: "connect4".into(),
        variant: "5x4".into(),
        hash_seed: 0,
    }
}

/// A small valid run file's bytes (50 entries, about 1 KB).
fn run_bytes() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let entries: Vec<u64> = (0..50u64)
        .map(|k| Entry::new(Key::new(k * 5 + 2), Value::from_code(k)).word())
        .collect();
    write_run(
        dir.path(),
        "run-0000000001.zzr",
        &id(),
        entries.into_iter().map(Ok),
        50,
    )
    .unwrap();
    std::fs::read(dir.path().join("run-0000000001.zzr")).unwrap()
}

/// `bytes` with the edits applied: (offset, xor) flips, then a cut or an appendix.
fn damaged(mut bytes: Vec<u8>, flips: &[(usize, u8)], cut: Option<usize>, add: &[u8]) -> Vec<u8> {
    let n = bytes.len();
    for &(at, x) in flips {
        bytes[at % n] ^= x;
    }
    if let Some(c) = cut {
        bytes.truncate(c % (n + 1));
    }
    bytes.extend_from_slice(add);
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn connect4_move_strings(text in near_text(), w in 1u32..12, h in 1u32..12) {
        match Connect4::from_moves(w, h, &text) {
            Ok(pos) => prop_assert!(pos.ply() as usize <= text.chars().count()),
            Err(e) => one_line(e)?,
        }
    }

    #[test]
    fn cube_move_strings_and_hex_boards(text in near_text(), rules in 0usize..3) {
        let rules = Rules::ALL[rules];
        match Cube::parse(rules, &text) {
            Ok(g) => {
                // a parsed position answers the next move's parser too
                for token in text.split_whitespace().take(3) {
                    if let Err(e) = g.parse_move(token) {
                        one_line(e)?;
                    }
                }
            }
            Err(e) => one_line(e)?,
        }
    }

    #[test]
    fn hex_boards_of_any_two_words(w in any::<u64>(), b in any::<u64>(), rules in 0usize..3) {
        for text in [format!("0x{w:x}:0x{b:x}"), format!("0x{w:016X}:0x{b:016x}")] {
            match Cube::parse(Rules::ALL[rules], &text) {
                // cells of both colours, or a stone count no game can reach, are refused
                Ok(_) => prop_assert_eq!(w & b, 0, "{} accepted", text),
                Err(e) => one_line(e)?,
            }
        }
    }

    #[test]
    fn run_headers(bytes in proptest::collection::vec(any::<u8>(), 0..300),
                   flips in proptest::collection::vec((0usize..HEADER_LEN, 1u8..=255), 0..4)) {
        for input in [bytes, damaged(header_bytes().to_vec(), &flips, None, &[])] {
            match RunHeader::decode(&input) {
                // accepted: exactly what the writer writes
                Ok(h) => prop_assert_eq!(&h.encode().unwrap()[..], &input[..HEADER_LEN]),
                Err(e) => one_line(e)?,
            }
        }
    }

    #[test]
    fn run_files(flips in proptest::collection::vec((any::<usize>(), 1u8..=255), 0..3),
                 cut in proptest::option::of(any::<usize>()),
                 add in proptest::collection::vec(any::<u8>(), 0..3),
                 noise in proptest::collection::vec(any::<u8>(), 0..400)) {
        let good = run_bytes();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run-0000000001.zzr");
        for input in [damaged(good.clone(), &flips, cut, &add), noise] {
            std::fs::write(&path, &input).unwrap();
            // SAFETY: a private temporary file, not modified while open.
            match unsafe { Run::open(&path, Some(&id()), Verify::Full) } {
                Ok(_) => prop_assert_eq!(&input, &good, "a changed run file was accepted"),
                Err(e) => one_line(e)?,
            }
        }
    }

    #[test]
    fn manifests(text in near_text(),
                 flips in proptest::collection::vec((any::<usize>(), 1u8..=255), 1..3),
                 start in "[1-7]{0,12}") {
        let good = Manifest::new("connect4", "7x6", &start, 0);
        let written = good.to_text().into_bytes();
        for input in [text.into_bytes(), damaged(written.clone(), &flips, None, &[])] {
            match Manifest::from_bytes(&input) {
                Ok(m) => {
                    prop_assert_eq!(&m, &good);
                    prop_assert_eq!(&input, &written, "a changed manifest was accepted");
                }
                Err(e) => one_line(e)?,
            }
        }
    }

    #[test]
    fn solve_records(text in near_text(), field in 0usize..16, value in near_text()) {
        let dir = tempfile::tempdir().unwrap();
        // arbitrary text, and a valid record with one field replaced by arbitrary JSON text
        let mut rec = serde_json::to_value(zugzwang::record::Record::default()).unwrap();
        let obj = rec.as_object_mut().unwrap();
        let key = obj.keys().nth(field % obj.len()).unwrap().clone();
        obj.insert(key, serde_json::from_str(&value).unwrap_or(serde_json::Value::String(value)));
        for input in [text, rec.to_string()] {
            std::fs::write(dir.path().join("r.json"), &input).unwrap();
            match zugzwang::record::load_dir(dir.path()) {
                Ok(records) => prop_assert_eq!(records.len(), 1),
                Err(e) => one_line(e)?,
            }
        }
    }
}

/// The generators above reach the accepting paths too, not only refusals (a fuzz that only ever
/// sees garbage tests little).
#[test]
fn the_valid_forms_are_accepted() {
    assert!(Connect4::from_moves(7, 6, "4453").is_ok());
    assert!(Cube::parse(Rules::Sogo, "a1 b2 b2").is_ok());
    assert!(Cube::parse(Rules::Qubic, "0x1:0x2").is_ok());
    assert!(RunHeader::decode(&header_bytes()).is_ok());
    let good = run_bytes();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run-0000000001.zzr");
    std::fs::write(&path, &good).unwrap();
    // SAFETY: as above.
    assert!(unsafe { Run::open(&path, Some(&id()), Verify::Full) }.is_ok());
    let m = Manifest::new("connect4", "7x6", "44", 0);
    assert_eq!(Manifest::from_bytes(m.to_text().as_bytes()).unwrap(), m);
    let rec = serde_json::to_string(&zugzwang::record::Record::default()).unwrap();
    std::fs::write(dir.path().join("r.json"), rec).unwrap();
    assert_eq!(
        zugzwang::record::load_dir(Path::new(dir.path()))
            .unwrap()
            .len(),
        1
    );
}
