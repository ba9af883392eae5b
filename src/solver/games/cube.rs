//! The 4x4x4 games in the solver: positions as moves (`a1 b2`, `a11 b23`) or `0xWHITE:0xBLACK`,
//! and the defaults every front end starts from.

use super::Solvable;
use crate::game::cube::DEFAULT_HASH_SEED;
use crate::game::{Cube, Rules};
use crate::search::proof::{
    DEFAULT_GRAVITY_ENDGAME, DEFAULT_ORDER_BIAS, DEFAULT_VCF_BUDGET, ENDGAME_FORCING_MIN_EMPTY,
    QUBIC_ORDER_BIAS, QUBIC_ZONE_GUESS,
};
use crate::solver::config::{BestMoves, Engine, KeyMode, Mode, SolverConfig};
use crate::solver::GameSpec;

/// The defaults of `solve sogo|qubic`: win/draw/loss by proof-number search (the only engine
/// that decides the hard presets), one best move (proving every best move can cost far more
/// than the value), 1 GiB of tables. Sogo settles positions of at most
/// [`DEFAULT_GRAVITY_ENDGAME`] empty cells by alpha-beta, where the follower's pairing bounds
/// end most lines; Qubic has no such bounds, so its endgames stay in the proof search, and it
/// defers threat zones instead. The alpha-beta settings (enhanced transposition cutoffs only
/// near the root, where canonical keys pay; capped deepening) serve `--engine alphabeta`.
pub fn defaults(rules: Rules) -> SolverConfig {
    let gravity = rules.gravity();
    SolverConfig {
        engine: Engine::Pn,
        mode: Mode::Weak,
        best: BestMoves::First,
        mem_bytes: 1 << 30,
        threads: 0,
        hash_seed: DEFAULT_HASH_SEED,
        key_mode: KeyMode::Sound,
        etc_min_empty: 30,
        cap: 0,
        step: 4,
        tries: 2,
        forcing_min_empty: Some(ENDGAME_FORCING_MIN_EMPTY),
        vcf_budget: DEFAULT_VCF_BUDGET,
        endgame: if gravity { DEFAULT_GRAVITY_ENDGAME } else { 0 },
        order_bias: if gravity {
            DEFAULT_ORDER_BIAS
        } else {
            QUBIC_ORDER_BIAS
        },
        zone_guess: (!gravity).then_some(QUBIC_ZONE_GUESS),
        first: None,
    }
}

impl Solvable for Cube {
    fn parse(spec: GameSpec, text: &str, hash_seed: u64) -> Result<Self, String> {
        let GameSpec::Cube(rules) = spec else {
            return Err(format!("{} is not a 4x4x4 game", spec.name()));
        };
        Cube::parse_finished(rules, text)
            .map(|g| g.with_seed(hash_seed))
            .map_err(|e| format!("in '{text}': {e}"))
    }

    fn spec(&self) -> GameSpec {
        GameSpec::Cube(self.rules())
    }

    fn reseeded(&self, hash_seed: u64) -> Self {
        self.with_seed(hash_seed)
    }

    fn move_name(&self, mv: u64) -> String {
        Cube::move_name(self, mv)
    }

    fn position_text(&self) -> String {
        self.to_hex()
    }

    fn render(&self) -> String {
        Cube::render(self)
    }

    fn capped(&self, cap: u32) -> Option<Self> {
        Some(self.with_cap(cap))
    }
}
