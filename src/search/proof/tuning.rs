//! Defaults that change the proof search's speed, never its answers. Each was chosen by
//! measuring the neighbouring values on the Qubic openings and the Sogo presets; the figures
//! belong to the benchmarks and the README, not here.

/// Attacking moves the forcing-win test tries per leaf unless told otherwise. A small budget
/// misses forcing wins that would settle a leaf (Qubic needs several times the nodes with 60);
/// beyond about 2000 the searches find no more wins and only cost more per leaf.
pub const DEFAULT_VCF_BUDGET: u32 = 2000;

/// Empty cells from which the gravity games hand positions to alpha-beta by default (see
/// [`super::ProofSearch::with_endgame`]). With Sogo's pairing bounds pn's leaves settle far
/// more often by a bound, so a smaller endgame pays than before them (28 was best then); below
/// about 16 cells proof-number search spends more on the last plies than alpha-beta would.
pub const DEFAULT_GRAVITY_ENDGAME: u32 = 20;

/// Empty cells from which the alpha-beta endgames (and the 4x4x4 `alphabeta` engine) try the
/// forcing-win search at nodes where a win would end the node (see `Searcher::with_forcing`).
/// Earlier, the searches cost more than the cutoffs they find; later, too few nodes are left
/// for the cutoffs to pay.
pub const ENDGAME_FORCING_MIN_EMPTY: u32 = 16;

/// How strongly a parent prefers its better-ordered children by default: the `i`-th child's
/// number counts `1 + i / k` times. Without it every child of a quiet position starts with the
/// same numbers and df-pn spends its effort evenly over all of them; with it the move ordering
/// steers the search. A strong bias (small `k`) trusts the ordering too much where it is wrong,
/// a weak one hardly steers; 8 is best over the Sogo presets taken together, while Qubic
/// prefers a lighter bias (see [`QUBIC_ORDER_BIAS`]).
pub const DEFAULT_ORDER_BIAS: u64 = 8;

/// The order bias for games without gravity, where the ordering is less sure of itself (see
/// [`DEFAULT_ORDER_BIAS`]): on the Qubic openings both much smaller and much larger `k` need
/// several times the nodes.
pub const QUBIC_ORDER_BIAS: u64 = 16;

/// The deferred threat-zone guess for games without gravity (see
/// [`super::ProofSearch::with_zone_guess`]). Low guesses make every move look good until
/// examined, so most get examined; high ones make unexamined moves look worse than the
/// examined. Deferring pays in Qubic, where most attacking moves are never entered; the Sogo
/// presets are slower with it and find every zone at once.
pub const QUBIC_ZONE_GUESS: u32 = 16;
