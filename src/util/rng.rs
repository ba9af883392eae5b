//! Seedable random sources without a dependency, so that every sample a test or an audit draws
//! reproduces from its seed.
//!
//! There are two on purpose: the library's tests draw with [`xorshift`] (their seeds and the
//! counts they assert were chosen with it), the audits of `zugzwang-verify` with [`SplitMix64`]
//! (its reports name the seed of every sample, and stay reproducible only with the same
//! generator). Either would do for new code.

/// Xorshift64 (Marsaglia): the next value of the state `s` (never seed it with 0).
#[inline]
pub fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// SplitMix64: any seed, including 0, gives a good sequence.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A uniform number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}
