//! `zugzwang-verify`: independent audits of what zugzwang computes and of the claims it builds
//! on. The first audit checks the threat-parity lemmas of the German note "Stellungsbewertung bei
//! Vier Gewinnt" (seeds 000 and 001, two versions; README, "Data and citations") against two
//! oracles: an independent exact search of the abstract threat game ([`abstract_game`]) and
//! zugzwang's solver on real positions ([`real`]); the note's claims themselves are
//! stated in [`threats`].

#![deny(missing_docs)]

pub mod abstract_game;
pub mod audit;
pub mod cases;
pub mod draw;
pub mod output;
pub mod real;
pub mod threats;
