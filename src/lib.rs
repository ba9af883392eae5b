//! zugzwang: exact solving of connection games with and without gravity.
//!
//! The rules live in [`game`] (Connect Four of any size that fits 64 bits; the 4x4x4 games Sogo
//! and Qubic), each implementing one [`game::Game`] trait of bitboard questions. One
//! game-independent [`search`] (alpha-beta negamax with null-window score narrowing) solves them
//! all, remembering what it proved in a [`search::Table`] or the on-disk [`store`]. Front ends
//! (the command line, benchmarks, the audit in `verify/`) ask through one API, [`solver`];
//! [`book`] keeps the exact scores of the first plies; [`serve`] is the local web page and its
//! JSON API; [`record`] writes the reproducible record of every long solve to `solve-runs/`.
#![deny(missing_docs)]

pub mod book;
pub mod game;
pub mod jobs;
pub mod record;
pub mod search;
pub mod serve;
pub mod solver;
pub mod store;
pub mod util;
