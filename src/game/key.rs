//! [`Key`]: the 62-bit name of a position in every table and in the store.

use std::fmt;

/// A position key ([`crate::game::Game::key`]): 62 bits, always below 2^62, so that a store
/// entry `key << 2 | value` fits one `u64` (see `crate::store::entry`).
///
/// A key names a position (up to the game's symmetries; exact where the position fits 62 bits,
/// a hash otherwise) and is never a value, a move or a cell set: the type keeps the tables from
/// being handed one of the other `u64`s of the search, and keeps the two top bits free for the
/// entry's value and the proof table's tag. The raw word is read with [`Key::get`] only where a
/// table hashes it into a slot or packs it with something else, each such place saying so.
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Key(u64);

impl Key {
    /// Number of bits of a key.
    pub const BITS: u32 = 62;
    /// The largest key, `2^62 - 1` (all key bits set).
    pub const MAX: Key = Key((1 << Self::BITS) - 1);

    /// The key `raw`, which must be below 2^62 (checked in debug builds; the top two bits are
    /// dropped in release builds, so no key can ever spill into an entry's value bits).
    #[inline(always)]
    pub const fn new(raw: u64) -> Key {
        debug_assert!(raw <= Self::MAX.0, "a key must fit 62 bits");
        Key(raw & Self::MAX.0)
    }

    /// The key made of the low 62 bits of a 64-bit hash (the top two are dropped).
    #[inline(always)]
    pub const fn from_hash_low_bits(hash: u64) -> Key {
        Key(hash & Self::MAX.0)
    }

    /// The raw 62-bit word.
    #[inline(always)]
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl fmt::LowerHex for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(&self.0, f)
    }
}

/// Keys print in hexadecimal (`0x…`), as every message about a key has always shown them.
impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn keys_keep_62_bits() {
        assert_eq!(Key::new(0x1234).get(), 0x1234);
        assert_eq!(Key::MAX.get(), (1 << 62) - 1);
        assert_eq!(Key::from_hash_low_bits(u64::MAX), Key::MAX);
        assert_eq!(Key::from_hash_low_bits(1 << 62 | 5).get(), 5);
        assert_eq!(format!("{:#x}", Key::new(255)), "0xff");
        assert_eq!(Key::new(255).to_string(), "0xff");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "62 bits")]
    fn a_wider_word_is_refused_in_debug_builds() {
        let _ = Key::new(1 << 62);
    }
}
