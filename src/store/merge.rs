//! Turning sorted streams of entries into one sorted, normalised stream: the k-way merge of runs,
//! and the clean-up of a sorted write buffer.
//!
//! "Normalised" means: strictly increasing, each key with the smallest set of values that says
//! what all its entries said (see [`Knowledge::normalised`]). Two entries that contradict each
//! other (a key stored as win and as loss) stop the stream with an error: a contradiction means a
//! bug or a hash collision, and must be reported, never resolved by picking one.

use super::entry::{Entry, Knowledge};
use super::run_file::RunErrorKind;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Merges sorted slices into one sorted stream (duplicates kept), smallest first.
pub struct KMerge<'a> {
    inputs: Vec<&'a [u64]>,
    heap: BinaryHeap<Reverse<(u64, usize)>>,
    pos: Vec<usize>,
}

impl<'a> KMerge<'a> {
    /// A merge of `inputs`, each sorted ascending.
    pub fn new(inputs: Vec<&'a [u64]>) -> Self {
        let mut heap = BinaryHeap::with_capacity(inputs.len());
        for (i, s) in inputs.iter().enumerate() {
            if let Some(&e) = s.first() {
                heap.push(Reverse((e, i)));
            }
        }
        let pos = vec![0; inputs.len()];
        KMerge { inputs, heap, pos }
    }
}

impl Iterator for KMerge<'_> {
    type Item = u64;
    #[inline]
    fn next(&mut self) -> Option<u64> {
        let mut top = self.heap.peek_mut()?;
        let Reverse((e, i)) = *top;
        self.pos[i] += 1;
        match self.inputs[i].get(self.pos[i]) {
            Some(&next) => top.0 = (next, i),
            None => {
                std::collections::binary_heap::PeekMut::pop(top);
            }
        }
        Some(e)
    }
}

/// Groups a sorted stream (duplicates allowed) by key and yields each key's normalised entries;
/// yields one `Err` and stops at the first contradiction.
pub struct Normalised<I: Iterator<Item = u64>> {
    input: std::iter::Peekable<I>,
    out: [u64; 2],
    out_len: usize,
    out_pos: usize,
    failed: bool,
}

impl<I: Iterator<Item = u64>> Normalised<I> {
    /// Normalises `input`, which must be sorted ascending.
    pub fn new(input: I) -> Self {
        Normalised {
            input: input.peekable(),
            out: [0; 2],
            out_len: 0,
            out_pos: 0,
            failed: false,
        }
    }
}

impl<I: Iterator<Item = u64>> Iterator for Normalised<I> {
    type Item = Result<u64, RunErrorKind>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.out_pos < self.out_len {
            self.out_pos += 1;
            return Some(Ok(self.out[self.out_pos - 1]));
        }
        if self.failed {
            return None;
        }
        let first = self.input.next()?;
        let key = Entry::from_word(first).key();
        let mut k = Knowledge::NONE.with(Entry::from_word(first).value());
        while let Some(&e) = self.input.peek() {
            if Entry::from_word(e).key() != key {
                break;
            }
            k = k.with(Entry::from_word(e).value());
            self.input.next();
        }
        match k.normalised() {
            Err(c) => {
                self.failed = true;
                Some(Err(RunErrorKind::BadEntries(format!(
                    "conflicting values for key {key:#x}: {c}"
                ))))
            }
            Ok(k) => {
                self.out_len = 0;
                for v in k.values() {
                    self.out[self.out_len] = Entry::new(key, v).word();
                    self.out_len += 1;
                }
                self.out_pos = 1;
                Some(Ok(self.out[0]))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::entry::Value;
    use crate::store::entry::Value::*;

    /// The stored word of key `k` with value `v`.
    fn e(k: u64, v: Value) -> u64 {
        Entry::new(crate::game::Key::new(k), v).word()
    }

    #[test]
    fn merges_and_normalises() {
        let a = [e(1, Win), e(3, AtLeastDraw)];
        let b = [e(1, AtLeastDraw), e(2, Loss), e(3, AtMostDraw)];
        let c = [e(1, Win)];
        let merged: Vec<u64> = KMerge::new(vec![&a, &b, &c]).collect();
        assert!(merged.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(merged.len(), 6);
        let out: Result<Vec<u64>, _> = Normalised::new(merged.into_iter()).collect();
        assert_eq!(
            out.unwrap(),
            vec![e(1, Win), e(2, Loss), e(3, AtMostDraw), e(3, AtLeastDraw)]
        );
    }

    #[test]
    fn contradiction_is_an_error() {
        let a = [e(7, Win)];
        let b = [e(7, AtMostDraw)];
        let out: Vec<_> = Normalised::new(KMerge::new(vec![&a, &b])).collect();
        assert_eq!(out.len(), 1);
        assert!(matches!(&out[0], Err(RunErrorKind::BadEntries(m)) if m.contains("0x7")));
    }
}
