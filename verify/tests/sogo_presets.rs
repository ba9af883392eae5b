//! The Sogo benchmark positions of `verify/data/cube/sogo-presets.txt` whose value comes from
//! another solver: the quick ones are solved here by both engines, with the forcing-win cutoffs on,
//! and must give the published values. (All eight, with times, are in `cargo bench --bench cube`.)

use zugzwang::game::{Cube, Rules};
use zugzwang::search::proof::{
    DEFAULT_GRAVITY_ENDGAME, DEFAULT_ORDER_BIAS, DEFAULT_VCF_BUDGET, ENDGAME_FORCING_MIN_EMPTY,
};
use zugzwang::search::vcf::ForcingSearch;
use zugzwang::search::{Depth, MemoryTable, ProofSearch, ProofTable, Searcher, Table};

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

#[test]
fn the_quick_presets_have_their_published_values() {
    let all = presets();
    assert_eq!(all.len(), 8, "the data file lists eight presets");
    let endgame = MemoryTable::with_bytes(1 << 28);
    for (name, g, value) in all.iter().filter(|(n, _, _)| QUICK.contains(&n.as_str())) {
        let table = ProofTable::new(1 << 28);
        endgame.clear();
        let mut search = ProofSearch::new(&table)
            .with_endgame(&endgame, DEFAULT_GRAVITY_ENDGAME)
            .with_order_bias(DEFAULT_ORDER_BIAS);
        assert_eq!(search.value(g).unwrap(), *value, "{name}: pn");
        if QUICK_FOR_ALPHABETA.contains(&name.as_str()) {
            endgame.clear();
            let mut searcher = Searcher::new(&endgame).with_forcing(
                ForcingSearch::new(DEFAULT_VCF_BUDGET),
                ENDGAME_FORCING_MIN_EMPTY,
            );
            let v = searcher.solve(g, Depth::Weak).unwrap();
            assert_eq!(v.signum(), *value, "{name}: alpha-beta");
        }
    }
}
