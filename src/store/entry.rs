//! One stored fact about one position, packed in a `u64`: `key << 2 | value`.
//!
//! The key is the game's 62-bit position key ([`Key`], from [`crate::game::Game::key`]): exact for
//! Connect Four boards that fit 62 bits, a truncated xxh3 hash of the canonical position
//! otherwise. Its type keeps it below 2^62, so the shift never loses a bit; [`Entry`] is the one
//! place that packs a key with a value or reads one back out of a stored word. The value is
//! two bits of *proven* knowledge about the score for the side to move:
//!
//! | code | [`Value`]             | meaning (score `v` for the side to move) |
//! |------|-----------------------|-------------------------------------------|
//! | `0`  | [`Value::Loss`]       | `v <= -1`: the side to move loses          |
//! | `1`  | [`Value::AtMostDraw`] | `v <= 0`: draw at best                     |
//! | `2`  | [`Value::AtLeastDraw`]| `v >= 0`: draw at worst                    |
//! | `3`  | [`Value::Win`]        | `v >= 1`: the side to move wins            |
//!
//! Every code is a one-sided bound or a decided result; none of them is "draw". Alpha-beta with
//! null windows proves one side of zero at a time, and an exact draw needs both halves, so an exact
//! draw is stored as **two entries** for the same key, `AtMostDraw` and `AtLeastDraw`. Because the
//! value sits in the low bits, sorting entries by their full `u64` puts all entries of one key next
//! to each other, and a lookup reads them all and combines them ([`Knowledge`]).
//!
//! Soundness rules (tested below): converting search bounds to values never claims more than the
//! bounds prove ([`values_from_bounds`]), and reading values back yields bounds that never claim
//! more than the values say ([`Knowledge::to_bounds`]). A bound is therefore never read back as an
//! exact result.

use crate::game::Key;
use crate::search::Bounds;
use std::fmt;

/// Two bits of proven knowledge about a position's score for the side to move (see the module
/// table for the codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// Score `<= -1`: the side to move loses.
    Loss = 0,
    /// Score `<= 0`: the side to move cannot win.
    AtMostDraw = 1,
    /// Score `>= 0`: the side to move cannot lose.
    AtLeastDraw = 2,
    /// Score `>= 1`: the side to move wins.
    Win = 3,
}

impl Value {
    /// All four values, in code order.
    pub const ALL: [Value; 4] = [
        Value::Loss,
        Value::AtMostDraw,
        Value::AtLeastDraw,
        Value::Win,
    ];

    /// The value of a 2-bit code (only the low two bits are read).
    #[inline]
    pub fn from_code(code: u64) -> Value {
        Value::ALL[(code & 3) as usize]
    }

    /// The 2-bit code.
    #[inline]
    pub fn code(self) -> u64 {
        self as u64
    }

    /// The same fact seen from the other player (the score negated): `Win` <-> `Loss`,
    /// `AtLeastDraw` <-> `AtMostDraw`. Used to justify a parent by its children.
    #[inline]
    pub fn negated(self) -> Value {
        Value::from_code(3 - self.code())
    }

    /// Whether this fact holds for a position whose score for the side to move is `score`.
    pub fn holds_for(self, score: i32) -> bool {
        match self {
            Value::Loss => score <= -1,
            Value::AtMostDraw => score <= 0,
            Value::AtLeastDraw => score >= 0,
            Value::Win => score >= 1,
        }
    }

    /// Short lowercase name for messages and histograms.
    pub fn name(self) -> &'static str {
        match self {
            Value::Loss => "loss",
            Value::AtMostDraw => "at-most-draw",
            Value::AtLeastDraw => "at-least-draw",
            Value::Win => "win",
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A packed entry: `key << 2 | value code`. Sorting entries sorts by key first.
///
/// This module is the only place that packs or unpacks the word: an entry is made from a [`Key`]
/// (below 2^62 by its type, so the shift loses nothing) and a [`Value`], and a word read from a
/// run file or a flush buffer (which hold the words themselves, the on-disk format) is looked at
/// through [`Entry::from_word`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry(u64);

impl Entry {
    /// Packs `key` and `value`.
    #[inline]
    pub fn new(key: Key, value: Value) -> Entry {
        Entry(key.get() << 2 | value.code())
    }
    /// The smallest entry of `key` (its value code 0): where a search of sorted entries for the
    /// key starts.
    #[inline]
    pub fn first_of(key: Key) -> Entry {
        Entry::new(key, Value::Loss)
    }
    /// The entry stored as the word `word` (every word is one: its top 62 bits are a key).
    #[inline]
    pub fn from_word(word: u64) -> Entry {
        Entry(word)
    }
    /// The word stored for this entry.
    #[inline]
    pub fn word(self) -> u64 {
        self.0
    }
    /// The 62-bit key.
    #[inline]
    pub fn key(self) -> Key {
        Key::new(self.0 >> 2)
    }
    /// The 2-bit value.
    #[inline]
    pub fn value(self) -> Value {
        Value::from_code(self.0)
    }
}

/// The values proven by search bounds `lower <= score <= upper`: zero, one or two of them
/// (two only for an exact draw, `AtLeastDraw` and `AtMostDraw`). Returned as a fixed array with a
/// length so that the hot path does not allocate.
///
/// Sound by construction: `lower >= 1` ⇒ Win, `upper <= -1` ⇒ Loss, otherwise `lower >= 0` ⇒
/// AtLeastDraw and `upper <= 0` ⇒ AtMostDraw. Bounds that prove nothing about the sign (lower
/// `< 0` and upper `> 0`) give no value.
#[inline]
pub fn values_from_bounds(b: Bounds) -> ([Value; 2], usize) {
    let mut out = [Value::Loss; 2];
    let mut n = 0;
    if b.lower >= 1 {
        out[0] = Value::Win;
        return (out, 1);
    }
    if b.upper <= -1 {
        out[0] = Value::Loss;
        return (out, 1);
    }
    if b.lower >= 0 {
        out[n] = Value::AtLeastDraw;
        n += 1;
    }
    if b.upper <= 0 {
        out[n] = Value::AtMostDraw;
        n += 1;
    }
    (out, n)
}

/// Two values that cannot both be true of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict(pub Value, pub Value);

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} and {}", self.0, self.1)
    }
}

/// Everything stored about one key: which of the four values are present (a 4-bit set).
///
/// Combining is intersection of the claims: `Win` with `AtLeastDraw` is just `Win` (the weaker
/// claim is implied), `AtLeastDraw` with `AtMostDraw` is an exact draw, and `Win` with `Loss` or
/// `AtMostDraw` (or `Loss` with `AtLeastDraw`) is a [`Conflict`] — a reported error, never
/// silently resolved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Knowledge(pub u8);

impl Knowledge {
    /// Nothing known.
    pub const NONE: Knowledge = Knowledge(0);

    /// Adds one value.
    #[inline]
    pub fn with(self, v: Value) -> Knowledge {
        Knowledge(self.0 | 1 << v.code())
    }
    /// Whether `v` is among the stored values.
    #[inline]
    pub fn has(self, v: Value) -> bool {
        self.0 & (1 << v.code()) != 0
    }
    /// What `self` and `other` know together (a conflict, if they contradict: see
    /// [`Knowledge::conflict`]).
    #[inline]
    pub fn union(self, other: Knowledge) -> Knowledge {
        Knowledge(self.0 | other.0)
    }

    /// Whether nothing is known.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The first pair of contradictory values, if any.
    pub fn conflict(self) -> Option<Conflict> {
        use Value::*;
        for (a, b) in [(Win, Loss), (Win, AtMostDraw), (Loss, AtLeastDraw)] {
            if self.has(a) && self.has(b) {
                return Some(Conflict(a, b));
            }
        }
        None
    }

    /// The smallest set of values saying the same thing: drops a value implied by a stronger one
    /// (`AtLeastDraw` under `Win`, `AtMostDraw` under `Loss`). Err on a conflict.
    pub fn normalised(self) -> Result<Knowledge, Conflict> {
        if let Some(c) = self.conflict() {
            return Err(c);
        }
        let mut k = self;
        if k.has(Value::Win) {
            k = Knowledge::NONE.with(Value::Win);
        } else if k.has(Value::Loss) {
            k = Knowledge::NONE.with(Value::Loss);
        }
        Ok(k)
    }

    /// The values present, in code order (so the entries they make are sorted).
    pub fn values(self) -> impl Iterator<Item = Value> {
        Value::ALL.into_iter().filter(move |&v| self.has(v))
    }

    /// Proven bounds on the *sign* of the score: `(lo, hi)` with `lo, hi` in `-1..=1` and
    /// `lo <= sign(score) <= hi`. Nothing known gives `(-1, 1)`. Meaningless on a conflict.
    #[inline]
    pub fn sign_bounds(self) -> (i8, i8) {
        let mut lo = -1;
        let mut hi = 1;
        if self.has(Value::Win) {
            lo = 1;
        } else if self.has(Value::AtLeastDraw) {
            lo = 0;
        }
        if self.has(Value::Loss) {
            hi = -1;
        } else if self.has(Value::AtMostDraw) {
            hi = 0;
        }
        (lo, hi)
    }

    /// Search bounds implied by the stored values, for a table probe. A one-sided claim leaves the
    /// other side at `i8::MIN` / `i8::MAX` ("unknown": the search clamps with its own limits), and
    /// a win is read back as `score >= 1`, never as an exact score: the bounds never claim more
    /// than was proved. `None` when nothing is known or on a conflict.
    #[inline]
    pub fn to_bounds(self) -> Option<Bounds> {
        if self.is_empty() || self.conflict().is_some() {
            return None;
        }
        let (lo, hi) = self.sign_bounds();
        let lower = match lo {
            1 => 1,
            0 => 0,
            _ => i8::MIN,
        };
        let upper = match hi {
            -1 => -1,
            0 => 0,
            _ => i8::MAX,
        };
        Some(Bounds {
            lower,
            upper,
            best: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(lower: i8, upper: i8) -> Bounds {
        Bounds {
            lower,
            upper,
            best: None,
        }
    }

    #[test]
    fn entry_packs_key_and_every_value() {
        for v in Value::ALL {
            for key in [0, 1, 0x1234_5678_9abc, Key::MAX.get()].map(Key::new) {
                let e = Entry::new(key, v);
                assert_eq!(e.key(), key);
                assert_eq!(e.value(), v);
                assert_eq!(Entry::from_word(e.word()), e);
                assert_eq!(e.word(), key.get() << 2 | v.code(), "the on-disk packing");
                assert!(Entry::first_of(key) <= e);
                assert_eq!(Value::from_code(v.code()), v);
                assert_eq!(v.negated().negated(), v);
            }
        }
        // entries of one key sort together, in code order
        let (five, six) = (Key::new(5), Key::new(6));
        assert!(Entry::new(five, Value::Win) < Entry::new(six, Value::Loss));
        assert!(Entry::new(five, Value::AtMostDraw) < Entry::new(five, Value::AtLeastDraw));
    }

    /// For every pair of consistent bounds: the stored values, read back, give bounds that the
    /// original bounds imply (never claim more), and the sign is kept whenever the bounds fix it.
    #[test]
    fn bounds_round_trip_is_sound_and_keeps_signs() {
        for lower in -21i8..=21 {
            for upper in lower..=21 {
                let (vals, n) = values_from_bounds(b(lower, upper));
                let mut k = Knowledge::NONE;
                for &v in &vals[..n] {
                    k = k.with(v);
                }
                assert!(k.conflict().is_none());
                match k.to_bounds() {
                    None => assert!(lower < 0 && upper > 0, "{lower} {upper}"),
                    Some(back) => {
                        // never claims more than proven
                        assert!(back.lower <= lower, "{lower} {upper} -> {back:?}");
                        assert!(back.upper >= upper, "{lower} {upper} -> {back:?}");
                        // keeps all the sign information the bounds had
                        assert_eq!(k.sign_bounds(), (lower.signum(), upper.signum()));
                        // an exact score is only ever read back for an exact draw
                        if back.lower == back.upper {
                            assert_eq!((lower, upper), (0, 0));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn knowledge_combines_and_finds_conflicts() {
        use Value::*;
        let k = |vs: &[Value]| vs.iter().fold(Knowledge::NONE, |k, &v| k.with(v));
        assert_eq!(k(&[Win, AtLeastDraw]).normalised(), Ok(k(&[Win])));
        assert_eq!(k(&[Loss, AtMostDraw]).normalised(), Ok(k(&[Loss])));
        assert_eq!(
            k(&[AtLeastDraw, AtMostDraw]).normalised(),
            Ok(k(&[AtLeastDraw, AtMostDraw]))
        );
        assert_eq!(k(&[AtLeastDraw, AtMostDraw]).to_bounds(), Some(b(0, 0)));
        assert!(k(&[Win, Loss]).normalised().is_err());
        assert!(k(&[Win, AtMostDraw]).normalised().is_err());
        assert!(k(&[Loss, AtLeastDraw]).normalised().is_err());
        assert_eq!(k(&[Win, Loss]).to_bounds(), None);
        assert_eq!(k(&[Win]).to_bounds(), Some(b(1, i8::MAX)));
        assert_eq!(k(&[Loss]).to_bounds(), Some(b(i8::MIN, -1)));
    }
}
