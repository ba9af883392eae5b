//! Low-level helpers the rest of the crate shares, each kept once: memory for tables probed at
//! random ([`huge_pages`], [`prefetch`]) and grown with the work ([`growth`]), the lock-less two-word table slot ([`slot`]), and the
//! seedable random sources and random play of the tests and audits ([`rng`], [`random_play`]).

pub mod growth;
pub mod huge_pages;
pub mod prefetch;
pub mod random_play;
pub mod rng;
pub mod slot;
