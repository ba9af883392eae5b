//! Threat extraction against the note's own diagrams.
//!
//! The diagrams draw `X` for "any stone", so each is first realised as a real position: a
//! colouring of the `X` cells (found by a small seeded local search) whose threats — computed
//! here by a naive line scan written independently of the library — are exactly the drawn `w`/`b`
//! cells, and a legal move order for it. The library's extraction, (V) check and row
//! classification must then reproduce the diagram.

use zugzwang::game::Connect4;
use zugzwang_verify::cases::Rng;
use zugzwang_verify::threats::{self, Colour, Threat, Version};

const W: usize = 7;
const H: usize = 6;

/// A diagram: rows top first, as in the note, and the version whose row labels it uses.
struct Diagram {
    name: &'static str,
    /// The lemma the diagram illustrates (its rule lines must match the extracted threats).
    lemma: &'static str,
    version: Version,
    rows: [&'static str; 6],
}

const DIAGRAMS: &[Diagram] = &[
    Diagram {
        name: "000 Beispielstellung (1.1)",
        lemma: "1.1",
        version: Version::V000,
        rows: [
            "X X - X X - X",
            "X X - X X - X",
            "X X b X X - X",
            "X X - X X X X",
            "X X - X X X X",
            "X X X X X X X",
        ],
    },
    Diagram {
        name: "000 lemma 2.7",
        lemma: "2.7",
        version: Version::V000,
        rows: [
            "X X - X X - X",
            "X X b X X - X",
            "X X - X X - X",
            "X X - X X b X",
            "X X - X X - X",
            "X X X X X - X",
        ],
    },
    Diagram {
        name: "000 lemma 2.8",
        lemma: "2.8",
        version: Version::V000,
        rows: [
            "X X - X X w X",
            "X X - X X - X",
            "X X w X X - X",
            "X X - X X - X",
            "X X - X X - X",
            "X X X X X X X",
        ],
    },
    Diagram {
        name: "000 lemma 2.13",
        lemma: "2.13",
        version: Version::V000,
        rows: [
            "- X - X X - X",
            "- X - X X b X",
            "X X w X X - X",
            "X X - X X - X",
            "X X - X X - X",
            "X X X X X X X",
        ],
    },
    Diagram {
        name: "000 lemma 2.14",
        lemma: "2.14",
        version: Version::V000,
        rows: [
            "- X - X X - X",
            "- X w X X - X",
            "X X - X X b X",
            "X X - X X - X",
            "X X - X X - X",
            "X X X X X X X",
        ],
    },
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Stone,
    Empty,
    WThreat,
    BThreat,
}

fn parse(d: &Diagram) -> [[Cell; H]; W] {
    let mut g = [[Cell::Empty; H]; W];
    for (i, line) in d.rows.iter().enumerate() {
        let row = H - 1 - i;
        for (col, ch) in line.split_whitespace().enumerate() {
            g[col][row] = match ch {
                "X" => Cell::Stone,
                "-" => Cell::Empty,
                "w" => Cell::WThreat,
                "b" => Cell::BThreat,
                other => panic!("bad diagram cell {other}"),
            };
        }
    }
    g
}

/// All lines of four as cell lists, built independently of the library.
fn naive_lines() -> Vec<[(usize, usize); 4]> {
    let mut out = Vec::new();
    for c in 0..W as i32 {
        for r in 0..H as i32 {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let cells: Vec<(i32, i32)> = (0..4).map(|k| (c + k * dc, r + k * dr)).collect();
                if cells
                    .iter()
                    .all(|&(x, y)| x >= 0 && y >= 0 && x < W as i32 && y < H as i32)
                {
                    let mut a = [(0, 0); 4];
                    for (i, &(x, y)) in cells.iter().enumerate() {
                        a[i] = (x as usize, y as usize);
                    }
                    out.push(a);
                }
            }
        }
    }
    out
}

/// Stones: 0 empty, 1 white, 2 black. Returns (fours, threats as (col,row,colour 1|2)).
fn naive_scan(b: &[[u8; H]; W], lines: &[[(usize, usize); 4]]) -> (usize, Vec<(usize, usize, u8)>) {
    let mut fours = 0;
    let mut t = Vec::new();
    for line in lines {
        for colour in [1u8, 2] {
            let own = line.iter().filter(|&&(c, r)| b[c][r] == colour).count();
            let empty: Vec<_> = line.iter().filter(|&&(c, r)| b[c][r] == 0).collect();
            if own == 4 {
                fours += 1;
            }
            if own == 3 && empty.len() == 1 {
                let (c, r) = *empty[0];
                if !t.contains(&(c, r, colour)) {
                    t.push((c, r, colour));
                }
            }
        }
    }
    t.sort();
    (fours, t)
}

fn target_threats(g: &[[Cell; H]; W]) -> Vec<(usize, usize, u8)> {
    let mut t = Vec::new();
    for (c, col) in g.iter().enumerate() {
        for (r, cell) in col.iter().enumerate() {
            match cell {
                Cell::WThreat => t.push((c, r, 1)),
                Cell::BThreat => t.push((c, r, 2)),
                _ => {}
            }
        }
    }
    t.sort();
    t
}

fn cost(b: &[[u8; H]; W], lines: &[[(usize, usize); 4]], target: &[(usize, usize, u8)]) -> usize {
    let (fours, t) = naive_scan(b, lines);
    let missing = target.iter().filter(|x| !t.contains(x)).count();
    let extra = t.iter().filter(|x| !target.contains(x)).count();
    10 * fours + missing + extra
}

/// A move order (1-based columns) that builds `b`, White first: peel top stones, alternating.
fn move_order(b: &[[u8; H]; W]) -> Option<String> {
    let mut h = [0usize; W];
    let mut total = 0;
    for c in 0..W {
        h[c] = b[c].iter().take_while(|&&x| x != 0).count();
        total += h[c];
    }
    fn peel(b: &[[u8; H]; W], h: &mut [usize; W], left: usize, out: &mut Vec<u8>) -> bool {
        if left == 0 {
            return true;
        }
        // stone number `left` (1-based) was White's when odd
        let colour = if left % 2 == 1 { 1 } else { 2 };
        for c in 0..W {
            if h[c] > 0 && b[c][h[c] - 1] == colour {
                h[c] -= 1;
                out.push(c as u8 + 1);
                if peel(b, h, left - 1, out) {
                    return true;
                }
                out.pop();
                h[c] += 1;
            }
        }
        false
    }
    let mut out = Vec::new();
    if !peel(b, &mut h, total, &mut out) {
        return None;
    }
    out.reverse();
    Some(out.iter().map(|&c| char::from(b'0' + c)).collect())
}

fn realise(g: &[[Cell; H]; W], seed: u64) -> Option<String> {
    let lines = naive_lines();
    let target = target_threats(g);
    let stones: Vec<(usize, usize)> = (0..W)
        .flat_map(|c| (0..H).map(move |r| (c, r)))
        .filter(|&(c, r)| g[c][r] == Cell::Stone)
        .collect();
    let mut rng = Rng(seed);
    for _restart in 0..200 {
        let mut b = [[0u8; H]; W];
        // White has ceil(n/2) stones
        let mut order = stones.clone();
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        for (i, &(c, r)) in order.iter().enumerate() {
            b[c][r] = if i < stones.len().div_ceil(2) { 1 } else { 2 };
        }
        let mut cur = cost(&b, &lines, &target);
        for _step in 0..4000 {
            if cur == 0 {
                if let Some(m) = move_order(&b) {
                    return Some(m);
                }
                break;
            }
            let (c1, r1) = stones[rng.below(stones.len() as u64) as usize];
            let (c2, r2) = stones[rng.below(stones.len() as u64) as usize];
            if b[c1][r1] == b[c2][r2] {
                continue;
            }
            let t = b[c1][r1];
            b[c1][r1] = b[c2][r2];
            b[c2][r2] = t;
            let new = cost(&b, &lines, &target);
            if new <= cur || rng.below(20) == 0 {
                cur = new;
            } else {
                b[c2][r2] = b[c1][r1];
                b[c1][r1] = t;
            }
        }
    }
    None
}

#[test]
fn note_diagrams_are_extracted_as_drawn() {
    for d in DIAGRAMS {
        let g = parse(d);
        let moves = realise(&g, 42).unwrap_or_else(|| panic!("{}: no realisation found", d.name));
        let pos = Connect4::from_moves(7, 6, &moves).expect("a legal move order");
        // occupancy matches the diagram
        for (c, column) in g.iter().enumerate() {
            for (r, cell) in column.iter().enumerate() {
                let filled = pos.all_stones() & pos.cell(c as u32, r as u32) != 0;
                assert_eq!(filled, *cell == Cell::Stone, "{} cell {c},{r}", d.name);
            }
        }
        // the library finds exactly the drawn threats, none playable
        let found: Vec<(Threat, bool)> = threats::threats(&pos);
        let mut drawn: Vec<Threat> = target_threats(&g)
            .into_iter()
            .map(|(c, r, col)| {
                let colour = if col == 1 {
                    Colour::White
                } else {
                    Colour::Black
                };
                Threat::new(c as u8, r as u8, colour)
            })
            .collect();
        drawn.sort();
        let got: Vec<Threat> = found.iter().map(|(t, _)| *t).collect();
        assert_eq!(got, drawn, "{} (moves {moves})", d.name);
        assert!(found.iter().all(|(_, playable)| !playable), "{}", d.name);
        assert!(threats::satisfies_v(&pos), "{}", d.name);
        // classified in the diagram's version, the threats are the case of the lemma it illustrates
        let lemma = threats::lemmas(d.version)
            .iter()
            .find(|l| l.id == d.lemma)
            .expect("lemma exists");
        assert!(
            lemma.lines.iter().any(|l| l.matches(&got, d.version)),
            "{}: threats {got:?} are not the case of lemma {}",
            d.name,
            d.lemma
        );
    }
}

#[test]
fn the_example_threat_is_odd_in_000_and_even_in_001() {
    // the note's first example: Black's threat is odd in 000 (row 3) and even in 001 (row 4),
    // and both versions' lemma 1.1 claim it; 1.3 of either version must not
    let g = parse(&DIAGRAMS[0]);
    let moves = realise(&g, 7).expect("realisable");
    let pos = Connect4::from_moves(7, 6, &moves).unwrap();
    let t: Vec<Threat> = threats::threats(&pos).into_iter().map(|(t, _)| t).collect();
    assert_eq!(Version::V000.row_of(t[0].row), 3);
    assert_eq!(Version::V001.row_of(t[0].row), 4);
    for v in Version::ALL {
        let ls = threats::lemmas(v);
        let l11 = ls.iter().find(|l| l.id == "1.1").unwrap();
        let l13 = ls.iter().find(|l| l.id == "1.3").unwrap();
        assert!(l11.lines[0].matches(&t, v));
        assert!(!l13.lines[0].matches(&t, v));
    }
}
