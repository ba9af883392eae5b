//! Game-independent exact search: alpha-beta negamax over any [`crate::game::Game`], a
//! transposition-table interface that the position store can implement, and move ordering.

pub mod capped;
pub mod negamax;
pub mod order;
pub mod parallel;
pub mod proof;
pub mod reference;
pub mod table;
#[cfg(test)]
pub(crate) mod testing;
pub mod vcf;

pub use negamax::{Depth, Options, Probe, Searcher, Stopped};
pub use parallel::ParallelSolver;
pub use proof::{ProofSearch, ProofTable};
pub use table::{Bounds, MemoryTable, Table};
