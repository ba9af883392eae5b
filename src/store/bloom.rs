//! A blocked Bloom filter over the keys of one run: "is this key possibly in the run?"
//!
//! A plain Bloom filter touches `k` random cache lines per query; this one sends every key to one
//! 64-byte block (one cache line, 512 bits) and sets its `k` bits there, so a query costs one
//! cache miss. Blocking raises the false-positive rate a little over a plain filter of the same
//! size; [`DEFAULT_BITS_PER_KEY`] is chosen so that the measured rate stays under 1% (see the test
//! and `benches/store.rs`).
//!
//! The filter is stored in the run file as little-endian `u64` words and read back
//! from a run's resident copy ([`BloomRef`]); [`BloomBuilder`] makes one in memory.
//!
//! The filter hashes raw `u64` words, not [`crate::game::Key`]s: hashing a key's word into a
//! block is what it is for, and measuring its false positives needs words that can never be
//! keys (bit 63 set). The run file converts at its two calls (insert while writing, the test in
//! a lookup).

use super::resident::HugeWords;

/// Bits of filter per stored key: the fewest that keep the false-positive rate of 7 probes in a
/// 512-bit block clearly under the 1% target (the test below checks it; the README gives the
/// rates of 10, 11 and 12 bits) while a run stays under 9.5 bytes per entry.
pub const DEFAULT_BITS_PER_KEY: u64 = 11;
/// Bits set per key (each probe takes 9 bits of one 64-bit hash, so at most 7).
pub const DEFAULT_HASHES: u32 = 7;
/// `u64` words per block: 8 words = 512 bits = one cache line.
pub const WORDS_PER_BLOCK: usize = 8;

/// Murmur3's 64-bit finaliser: a bijective mixer, so structured keys (Connect Four keys are
/// bitboards) spread evenly over blocks and bits.
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^= x >> 33;
    x
}

/// The block a key goes to, and the 64 bits its probes are taken from.
#[inline]
pub(super) fn locate(key: u64, blocks: u64) -> (usize, u64) {
    let h1 = mix(key ^ 0x9e37_79b9_7f4a_7c15);
    let h2 = mix(key.wrapping_add(0x6a09_e667_f3bc_c909));
    // multiply-high maps h1 uniformly onto 0..blocks without a division
    let block = ((h1 as u128 * blocks as u128) >> 64) as usize;
    (block, h2)
}

/// Whether all `K` probe bits taken from `h` are set in the block.
#[inline(always)]
pub(super) fn test_bits<const K: usize>(words: &[u64; WORDS_PER_BLOCK], h: u64) -> bool {
    let mut missing = 0u64;
    for i in 0..K {
        let bit = (h >> (9 * i)) & 511;
        missing |= !(words[(bit >> 6) as usize] >> (bit & 63)) & 1;
    }
    missing == 0
}

/// Blocks needed for `keys` keys at `bits_per_key` (at least one).
pub fn blocks_for(keys: u64, bits_per_key: u64) -> u64 {
    (keys.saturating_mul(bits_per_key)).div_ceil(512).max(1)
}

/// A filter being filled in memory.
pub struct BloomBuilder {
    words: HugeWords,
    blocks: u64,
    hashes: u32,
}

impl BloomBuilder {
    /// An empty filter sized for `keys` keys with the default parameters.
    pub fn for_keys(keys: u64) -> Self {
        Self::with_params(blocks_for(keys, DEFAULT_BITS_PER_KEY), DEFAULT_HASHES)
    }

    /// An empty filter of `blocks` blocks setting `hashes` (1..=7) bits per key.
    pub fn with_params(blocks: u64, hashes: u32) -> Self {
        assert!((1..=7).contains(&hashes), "1..=7 hashes per key");
        let blocks = blocks.max(1);
        BloomBuilder {
            // random writes all over the filter: huge pages spare a TLB miss per insert
            words: HugeWords::zeroed(blocks as usize * WORDS_PER_BLOCK)
                .expect("out of memory for a Bloom filter"),
            blocks,
            hashes,
        }
    }

    /// Adds a key.
    #[inline]
    pub fn insert(&mut self, key: u64) {
        let (block, h) = locate(key, self.blocks);
        let w =
            &mut self.words.as_mut_slice()[block * WORDS_PER_BLOCK..(block + 1) * WORDS_PER_BLOCK];
        for i in 0..self.hashes {
            let bit = (h >> (9 * i)) & 511;
            w[(bit >> 6) as usize] |= 1 << (bit & 63);
        }
    }

    /// The filled words (to write to a file).
    pub fn words(&self) -> &[u64] {
        self.words.as_slice()
    }

    /// A query view of this filter.
    pub fn as_ref(&self) -> BloomRef<'_> {
        BloomRef {
            words: self.words.as_slice(),
            blocks: self.blocks,
            hashes: self.hashes,
        }
    }

    /// Number of blocks.
    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    /// Bits set per key.
    pub fn hashes(&self) -> u32 {
        self.hashes
    }
}

/// A filter read in place (from a memory-mapped run, or borrowed from a builder).
#[derive(Clone, Copy)]
pub struct BloomRef<'a> {
    words: &'a [u64],
    blocks: u64,
    hashes: u32,
}

impl<'a> BloomRef<'a> {
    /// A view of `words` (little-endian on disk; this crate only builds for little-endian
    /// targets, see `store::run_file`). `None` if the sizes disagree or `hashes` is out of range.
    pub fn new(words: &'a [u64], blocks: u64, hashes: u32) -> Option<Self> {
        if blocks == 0
            || !(1..=7).contains(&hashes)
            || words.len() as u64 != blocks.checked_mul(WORDS_PER_BLOCK as u64)?
        {
            return None;
        }
        Some(BloomRef {
            words,
            blocks,
            hashes,
        })
    }

    /// A view whose shape the caller has already validated with [`BloomRef::new`] (a run checks
    /// it once when it is opened). A wrong shape gives wrong answers or a panic, never UB.
    #[inline]
    pub fn new_unchecked(words: &'a [u64], blocks: u64, hashes: u32) -> Self {
        debug_assert!(Self::new(words, blocks, hashes).is_some());
        BloomRef {
            words,
            blocks,
            hashes,
        }
    }

    /// False: the key is certainly absent. True: it may be present.
    ///
    /// Branch-free: every probe's bit is folded into one `missing` word. An early exit per probe
    /// would branch on data still on its way from memory; each mispredicted branch then stalls
    /// the CPU for a full memory latency and stops it from overlapping the next lookups.
    #[inline]
    pub fn may_contain(&self, key: u64) -> bool {
        let (block, h) = locate(key, self.blocks);
        let words: &[u64; WORDS_PER_BLOCK] = self.words
            [block * WORDS_PER_BLOCK..(block + 1) * WORDS_PER_BLOCK]
            .try_into()
            .expect("a block is 8 words");
        if self.hashes == DEFAULT_HASHES {
            // the common shape, unrolled: fewer instructions per lookup let the CPU keep more
            // lookups' memory reads in flight at once
            test_bits::<{ DEFAULT_HASHES as usize }>(words, h)
        } else {
            let mut missing = 0u64;
            for i in 0..self.hashes {
                let bit = (h >> (9 * i)) & 511;
                missing |= !(words[(bit >> 6) as usize] >> (bit & 63)) & 1;
            }
            missing == 0
        }
    }

    /// Asks the processor to start loading `key`'s block (a hint): a store with several runs
    /// asks all their filters at once, and the loads overlap instead of following each other.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let (block, _) = locate(key, self.blocks);
        if let Some(w) = self.words.get(block * WORDS_PER_BLOCK) {
            crate::util::prefetch::prefetch(w);
        }
    }

    /// Size of the filter in bits.
    pub fn bits(&self) -> u64 {
        self.blocks * 512
    }

    /// Fraction of bits set (about 1 - e^(-k n / m) when well filled).
    pub fn fill(&self) -> f64 {
        let ones: u64 = self.words.iter().map(|w| w.count_ones() as u64).sum();
        ones as f64 / self.bits() as f64
    }

    /// Measured false-positive rate on `samples` keys that are certainly not in the run (keys
    /// with bit 63 set can never be stored: keys are below 2^62).
    pub fn measured_fp_rate(&self, samples: u64) -> f64 {
        let mut hits = 0u64;
        for i in 0..samples {
            let probe = (1 << 63) | mix(i ^ 0x5555);
            hits += self.may_contain(probe) as u64;
        }
        hits as f64 / samples.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_false_negatives_and_fp_under_one_percent() {
        let n = 200_000u64;
        let mut b = BloomBuilder::for_keys(n);
        // structured keys, like bitboards
        for i in 0..n {
            b.insert(i * 0x81);
        }
        let r = b.as_ref();
        for i in 0..n {
            assert!(r.may_contain(i * 0x81));
        }
        let fp = r.measured_fp_rate(1_000_000);
        assert!(fp <= 0.01, "false-positive rate {fp}");
        assert!(fp > 0.0);
    }

    #[test]
    fn rejects_bad_shapes() {
        let words = vec![0u64; 16];
        assert!(BloomRef::new(&words, 2, 7).is_some());
        assert!(BloomRef::new(&words, 3, 7).is_none());
        assert!(BloomRef::new(&words, 2, 0).is_none());
        assert!(BloomRef::new(&words, 2, 8).is_none());
        assert!(BloomRef::new(&words, 0, 7).is_none());
    }
}
