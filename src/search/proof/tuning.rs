//! The engine's own defaults: they change the proof search's speed, never its answers. Each was
//! chosen by measuring the neighbouring values on the Qubic openings and the Sogo presets; the
//! figures belong to the benchmarks and the README, not here. What a particular game runs with
//! (its endgame size, its order bias, deferred zones) is that game's configuration, decided in
//! `crate::solver::games`.

/// Attacking moves the forcing-win test tries per leaf unless told otherwise. A small budget
/// misses forcing wins that would settle a leaf (Qubic needs several times the nodes with 60);
/// beyond about 2000 the searches find no more wins and only cost more per leaf.
pub const DEFAULT_VCF_BUDGET: u32 = 2000;

/// Empty cells from which the alpha-beta endgames (and the 4x4x4 `alphabeta` engine) try the
/// forcing-win search at nodes where a win would end the node (see `Searcher::with_forcing`).
/// Earlier, the searches cost more than the cutoffs they find; later, too few nodes are left
/// for the cutoffs to pay.
pub const ENDGAME_FORCING_MIN_EMPTY: u32 = 16;

/// How strongly a parent prefers its better-ordered children by default: the `i`-th child's
/// number counts `1 + i / k` times. Without it every child of a quiet position starts with the
/// same numbers and df-pn spends its effort evenly over all of them; with it the move ordering
/// steers the search. A strong bias (small `k`) trusts the ordering too much where it is wrong,
/// a weak one hardly steers; 8 is best over the Sogo presets taken together (games tune it in
/// their configuration, `crate::solver::games`).
pub const DEFAULT_ORDER_BIAS: u64 = 8;
