//! The Sogo benchmark positions of `verify/data/cube/sogo-presets.txt` whose value comes from
//! another solver: the quick ones are solved here by both engines through the solver API, with
//! the game's default configuration (what `zugzwang solve sogo` runs), and must give the published
//! values. (All eight, with times, are in `cargo bench --bench cube`.)

use zugzwang::game::{Cube, Rules};
use zugzwang::solver::{BestMoves, Control, Engine, GameSpec, Question, Solver, SolverConfig};

/// `(name, position, value)` of every preset in the data file.
fn presets() -> Vec<(String, Cube, i32)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/cube/sogo-presets.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let g = Cube::parse(Rules::Sogo, f[2]).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
            (f[0].to_string(), g, f[3].parse().unwrap())
        })
        .collect()
}

/// The presets this test solves: those both engines settle within seconds on 2 cores.
const QUICK: [&str; 5] = ["p1_18", "p3_20", "p0_20", "preset1", "preset3"];
/// Of those, the ones the alpha-beta engine also solves within seconds.
const QUICK_FOR_ALPHABETA: [&str; 3] = ["p1_18", "p3_20", "p0_20"];

/// The value of `g` as `zugzwang solve sogo --engine ENGINE --best none --mem 512M` finds it.
fn value(g: &Cube, engine: Engine) -> i32 {
    let spec = GameSpec::Cube(Rules::Sogo);
    let cfg = SolverConfig {
        engine,
        best: BestMoves::None,
        mem_bytes: 512 << 20,
        ..SolverConfig::for_game(spec)
    };
    Solver::new(spec, cfg)
        .unwrap()
        .solve_position(g, Question::Value, None, &Control::new())
        .unwrap()
        .score
}

#[test]
fn the_quick_presets_have_their_published_values() {
    let all = presets();
    assert_eq!(all.len(), 8, "the data file lists eight presets");
    for (name, g, value_there) in all.iter().filter(|(n, _, _)| QUICK.contains(&n.as_str())) {
        assert_eq!(value(g, Engine::Pn), *value_there, "{name}: pn");
        if QUICK_FOR_ALPHABETA.contains(&name.as_str()) {
            assert_eq!(
                value(g, Engine::Alphabeta),
                *value_there,
                "{name}: alpha-beta"
            );
        }
    }
}
