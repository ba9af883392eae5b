//! The 4x4x4 games in the solver: positions as moves (`a1 b2`, `a11 b23`) or `0xWHITE:0xBLACK`,
//! and the defaults every front end starts from.

use super::Solvable;
use crate::game::cube::DEFAULT_HASH_SEED;
use crate::game::{Cube, Rules};
use crate::search::proof::{DEFAULT_VCF_BUDGET, ENDGAME_FORCING_MIN_EMPTY};
use crate::solver::config::{BestMoves, Engine, KeyMode, Mode, SolverConfig};
use crate::solver::GameSpec;

/// Empty cells from which Sogo hands positions to alpha-beta (see
/// [`crate::search::ProofSearch::with_endgame`]). With Sogo's pairing bounds pn's leaves settle
/// far more often by a bound, so a smaller endgame pays than before them (28 was best then);
/// below about 16 cells proof-number search spends more on the last plies than alpha-beta
/// would. Qubic has no such bounds and keeps its endgames in the proof search.
pub const SOGO_ENDGAME: u32 = 20;

/// How strongly Sogo's proof search prefers better-ordered children (the `i`-th child's number
/// counts `1 + i / k` times; see [`crate::search::proof::DEFAULT_ORDER_BIAS`]). Chosen on the
/// positions long solves are made of, not only the presets: a strong bias suits small trees,
/// where the ordering's first choices are usually right, but on deeper positions it keeps df-pn
/// on the attacker's favoured wrong moves far too long, and the cost grows several times faster
/// per two stones (the README has the measurements).
pub const SOGO_ORDER_BIAS: u64 = 32;

/// The order bias without gravity, where the ordering is less sure of itself: on the Qubic
/// openings both much smaller and much larger `k` need several times the nodes.
pub const QUBIC_ORDER_BIAS: u64 = 16;

/// The deferred threat-zone guess of Qubic (see
/// [`crate::search::ProofSearch::with_zone_guess`]). Low guesses make every move look good until
/// examined, so most get examined; high ones make unexamined moves look worse than the
/// examined. Deferring pays in Qubic, where most attacking moves are never entered; the Sogo
/// presets are slower with it and find every zone at once.
pub const QUBIC_ZONE_GUESS: u32 = 16;

/// Positions a replay of a sibling's proof may expand, in all three 4x4x4 games (see
/// [`crate::search::ProofSearch::with_replays`]). Most replays that succeed are short, and a
/// failing one costs what it expanded: budgets from 4 to 16 are alike, 2 proves too little and
/// 64 wastes more than it proves (the README has the figures).
pub const REPLAY_BUDGET: u32 = 8;

/// Whether the forcing-win tests of the 4x4x4 games may end a line of threats in a zugzwang the
/// pairings prove (see [`crate::search::vcf`]; only plain Sogo has such bounds). It saves
/// nodes where wins come by zugzwang, and costs a bound per forcing move tried, which some
/// positions do not recover (the README has the figures).
pub const ZUGZWANG_LINES: bool = true;

/// Seed 003's Qubic shortcut (`-q`): "Patashnik showed that White can decide the game within
/// 40 moves, so every game longer than that can count as a draw without changing the result".
/// Taken as plies from the empty board, as the issue reads it. A Qubic value under it is the
/// seed's, not the game's, so it is never kept in a position store.
pub const SEED_QUBIC_PLIES: u32 = 40;

/// Memory for the tables of a 4x4x4 solve unless `--mem` says otherwise.
pub const DEFAULT_MEM: u64 = 1 << 30;

/// The defaults of `solve sogo|qubic`: win/draw/loss by proof-number search (the only engine
/// that decides the hard presets), one best move (proving every best move can cost far more
/// than the value), 1 GiB of tables. Sogo settles positions of at most
/// [`SOGO_ENDGAME`] empty cells by alpha-beta, where the follower's pairing bounds
/// end most lines; Qubic has no such bounds, so its endgames stay in the proof search, and it
/// defers threat zones instead. The alpha-beta settings (enhanced transposition cutoffs only
/// near the root, where canonical keys pay; capped deepening) serve `--engine alphabeta`.
pub fn defaults(rules: Rules) -> SolverConfig {
    let gravity = rules.gravity();
    SolverConfig {
        engine: Engine::Pn,
        mode: Mode::Weak,
        best: BestMoves::First,
        mem_bytes: DEFAULT_MEM,
        threads: 0,
        hash_seed: DEFAULT_HASH_SEED,
        key_mode: KeyMode::Sound,
        etc_min_empty: 30,
        cap: 0,
        step: 4,
        tries: 2,
        forcing_min_empty: Some(ENDGAME_FORCING_MIN_EMPTY),
        vcf_budget: DEFAULT_VCF_BUDGET,
        endgame: if gravity { SOGO_ENDGAME } else { 0 },
        order_bias: if gravity {
            SOGO_ORDER_BIAS
        } else {
            QUBIC_ORDER_BIAS
        },
        zone_guess: (!gravity).then_some(QUBIC_ZONE_GUESS),
        replay_budget: REPLAY_BUDGET,
        zugzwang_lines: ZUGZWANG_LINES,
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

    fn keyed(&self, hash_seed: u64, mode: KeyMode) -> Self {
        self.with_seed(hash_seed)
            .with_seed_keys(mode == KeyMode::Seed)
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

    fn svg(&self, interactive: bool) -> String {
        crate::game::svg::cube(self, interactive)
    }

    fn capped(&self, cap: u32) -> Option<Self> {
        Some(self.with_cap(cap))
    }

    fn seed_form(&self) -> Option<Self> {
        Some(match self.rules() {
            Rules::Qubic => self.with_cap(SEED_QUBIC_PLIES),
            Rules::Sogo | Rules::SogoPoison => *self,
        })
    }
}
