//! The store's resident memory (Bloom filters and fences) is the shared huge-page array
//! ([`crate::util::huge_pages`]); this path is kept for the store's modules.

pub use crate::util::huge_pages::HugeWords;
