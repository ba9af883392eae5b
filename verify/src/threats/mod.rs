//! Connect Four threat analysis: which empty cells would complete a four (threats), how the
//! German note on threat parity, "Stellungsbewertung bei Vier Gewinnt" (seeds `000` and `001`;
//! README, "Data and citations"), classifies them, and the note's lemma rule tables as data.
//!
//! The note claims that, as long as no new threat can arise (its assumption (I)) and no threat is
//! playable now (its assumption (V)), the value of a position follows from its threat set alone.
//! This module only *states* those claims faithfully — both versions of the note, every `REGEL`
//! line literally, typos included and annotated — so that `zugzwang-verify` can audit them
//! against exact search. [`reduce`] is the note's closing idea made executable: a rule-based
//! evaluator for any number of threats.

pub mod extract;
pub mod reduce;
pub mod rules;

pub use extract::{lines, satisfies_i, satisfies_v, threats, Colour, Threat};
pub use rules::{lemmas, Lemma, RuleLine, Version};
