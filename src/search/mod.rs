//! Game-independent exact search: alpha-beta negamax over any [`crate::game::Game`], a
//! transposition-table interface that the position store can implement, and move ordering.

pub mod busy;
pub mod capped;
pub mod memory_table;
pub mod negamax;
pub mod order;
pub mod parallel;
pub mod proof;
pub mod reference;
pub mod seed;
pub mod transposition;
pub mod vcf;

pub use memory_table::MemoryTable;
pub use negamax::{Depth, Options, Probe, Searcher, Stopped, Unstoppable};
pub use parallel::ParallelSolver;
pub use proof::{ProofSearch, ProofTable};
pub use transposition::{Bounds, Table};
