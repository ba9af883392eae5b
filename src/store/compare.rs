//! What several stores know about the same positions: `table compare`.
//!
//! Independent solves (the milestone's replies, each in a table of its own) meet the same
//! positions by transposition. Where two tables made with the same keys hold a fact about one key,
//! both facts are proven, so they must agree: a win in one and a loss (or "at most a draw") in
//! the other means a bug in one of the searches or a key collision. Comparing the tables is a
//! check no single table can make on itself, and it costs one pass over their sorted runs.

use super::entry::{Entry, Knowledge};
use super::merge::KMerge;
use crate::game::Key;
use std::iter::Peekable;

/// How many contradicting keys a comparison keeps to show (it counts all of them).
pub const SHOWN_CONTRADICTIONS: usize = 10;

/// A key whose facts contradict: what each store knows about it (`Knowledge::NONE` where a
/// store holds nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    /// The key.
    pub key: Key,
    /// Each store's knowledge of it, in the order the stores were given.
    pub knowledge: Vec<Knowledge>,
}

/// What [`compare`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Distinct keys of each store, in the order given.
    pub keys: Vec<u64>,
    /// Distinct keys of all stores together.
    pub distinct: u64,
    /// Keys held by two stores or more.
    pub shared: u64,
    /// Shared keys whose stores know different (compatible) things: a win in one, at least a
    /// draw in another, or a draw's two halves split between them.
    pub complementary: u64,
    /// Keys whose facts together contradict each other (inside one store or across them).
    pub contradictions: u64,
    /// The first [`SHOWN_CONTRADICTIONS`] of them, smallest keys first.
    pub shown: Vec<Contradiction>,
}

/// One store's facts key by key: its runs merged ([`KMerge`]), so a key's entries from every
/// run come one after another.
struct Facts<'a>(Peekable<KMerge<'a>>);

impl Facts<'_> {
    /// The smallest key not taken yet.
    fn next_key(&mut self) -> Option<Key> {
        self.0.peek().map(|&w| Entry::from_word(w).key())
    }

    /// Takes the entries of `key` (the smallest key left, or one this store does not hold):
    /// what the store knows about it.
    fn take(&mut self, key: Key) -> Knowledge {
        let mut k = Knowledge::NONE;
        while let Some(w) = self.0.next_if(|&w| Entry::from_word(w).key() == key) {
            k = k.with(Entry::from_word(w).value());
        }
        k
    }
}

/// Compares stores given as their runs' entries (each run sorted ascending, as in a run file):
/// how many keys each holds, how many they share, and every key whose facts contradict.
pub fn compare(stores: Vec<Vec<&[u64]>>) -> Comparison {
    let mut facts: Vec<Facts> = (stores.into_iter())
        .map(|runs| Facts(KMerge::new(runs).peekable()))
        .collect();
    let mut c = Comparison {
        keys: vec![0; facts.len()],
        ..Comparison::default()
    };
    let mut known = vec![Knowledge::NONE; facts.len()];
    while let Some(key) = facts.iter_mut().filter_map(Facts::next_key).min() {
        let mut holders = 0;
        let mut all = Knowledge::NONE;
        for (i, f) in facts.iter_mut().enumerate() {
            known[i] = f.take(key);
            if !known[i].is_empty() {
                holders += 1;
                c.keys[i] += 1;
                all = all.union(known[i]);
            }
        }
        c.distinct += 1;
        if holders > 1 {
            c.shared += 1;
        }
        match all.normalised() {
            Err(_) => {
                c.contradictions += 1;
                if c.shown.len() < SHOWN_CONTRADICTIONS {
                    c.shown.push(Contradiction {
                        key,
                        knowledge: known.clone(),
                    });
                }
            }
            Ok(together) => {
                let differs = known
                    .iter()
                    .filter(|k| !k.is_empty())
                    .any(|k| k.normalised() != Ok(together));
                if holders > 1 && differs {
                    c.complementary += 1;
                }
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::entry::Value::{self, *};

    fn words(facts: &[(u64, Value)]) -> Vec<u64> {
        let mut w: Vec<u64> = facts
            .iter()
            .map(|&(k, v)| Entry::new(Key::new(k), v).word())
            .collect();
        w.sort_unstable();
        w
    }

    /// Stores that agree, complement and contradict each other are counted as such, a key
    /// repeated across one store's runs counts once for it, and the contradicting keys are shown
    /// with what each store said.
    #[test]
    fn shared_complementary_and_contradicting_keys_are_counted() {
        let a1 = words(&[(1, Win), (2, AtLeastDraw), (3, Loss), (5, AtMostDraw)]);
        let a2 = words(&[(1, Win), (7, Win)]);
        let b = words(&[
            (1, Win),
            (2, Win),
            (3, AtLeastDraw),
            (4, Loss),
            (5, AtLeastDraw),
        ]);
        let c = compare(vec![vec![&a1, &a2], vec![&b]]);
        assert_eq!(c.keys, vec![5, 5]);
        assert_eq!(c.distinct, 6);
        assert_eq!(c.shared, 4, "keys 1, 2, 3, 5");
        // key 2: a win and at least a draw; key 5: a draw's two halves
        assert_eq!(c.complementary, 2);
        assert_eq!(c.contradictions, 1, "key 3: a loss and at least a draw");
        let k = |v: &[Value]| v.iter().fold(Knowledge::NONE, |k, &v| k.with(v));
        assert_eq!(
            c.shown,
            vec![Contradiction {
                key: Key::new(3),
                knowledge: vec![k(&[Loss]), k(&[AtLeastDraw])],
            }]
        );
    }

    /// One store, or none with entries: nothing is shared; a contradiction inside one store
    /// (which a store's own writes refuse, but a damaged or hand-made run might hold) is found.
    #[test]
    fn a_single_store_and_empty_stores() {
        let empty: Vec<u64> = Vec::new();
        assert_eq!(compare(vec![vec![&empty], vec![]]).distinct, 0);
        let a = words(&[(9, Win), (9, AtMostDraw), (10, Loss)]);
        let c = compare(vec![vec![&a], vec![&empty]]);
        assert_eq!((c.distinct, c.shared, c.keys.clone()), (2, 0, vec![2, 0]));
        assert_eq!(c.contradictions, 1);
        assert_eq!(c.shown[0].key, Key::new(9));
    }

    /// Against a plain count over random stores: every key in a store counts for it once, shared
    /// keys are those of two stores or more, and a contradiction is found exactly where the
    /// values of a key taken together contradict, however many and shown only up to the cap.
    #[test]
    fn random_stores_match_a_plain_count() {
        use std::collections::BTreeMap;
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move |n: u64| crate::util::rng::xorshift(&mut x) % n;
        let (mut over_cap, mut some_shared) = (false, false);
        for _ in 0..20 {
            let n_stores = 1 + rnd(4) as usize;
            let stores: Vec<Vec<Vec<u64>>> = (0..n_stores)
                .map(|_| {
                    (0..1 + rnd(3))
                        .map(|_| {
                            let facts: Vec<(u64, Value)> = (0..rnd(60))
                                .map(|_| (rnd(80), Value::ALL[rnd(4) as usize]))
                                .collect();
                            let mut w = words(&facts);
                            w.dedup();
                            w
                        })
                        .collect()
                })
                .collect();
            let mut by_key: BTreeMap<u64, Vec<Knowledge>> = BTreeMap::new();
            for (i, runs) in stores.iter().enumerate() {
                for &w in runs.iter().flatten() {
                    let e = Entry::from_word(w);
                    let ks = by_key
                        .entry(e.key().get())
                        .or_insert_with(|| vec![Knowledge::NONE; n_stores]);
                    ks[i] = ks[i].with(e.value());
                }
            }
            let c = compare(
                stores
                    .iter()
                    .map(|runs| runs.iter().map(Vec::as_slice).collect())
                    .collect(),
            );
            assert_eq!(c.distinct, by_key.len() as u64);
            let holders = |ks: &Vec<Knowledge>| ks.iter().filter(|k| !k.is_empty()).count();
            for i in 0..n_stores {
                let count = by_key.values().filter(|ks| !ks[i].is_empty()).count();
                assert_eq!(c.keys[i], count as u64);
            }
            let shared = by_key.values().filter(|ks| holders(ks) > 1).count();
            assert_eq!(c.shared, shared as u64);
            let bad: Vec<u64> = by_key
                .iter()
                .filter(|(_, ks)| {
                    let all = ks.iter().fold(Knowledge::NONE, |a, &k| a.union(k));
                    all.conflict().is_some()
                })
                .map(|(&k, _)| k)
                .collect();
            assert_eq!(c.contradictions, bad.len() as u64);
            let shown: Vec<u64> = c.shown.iter().map(|s| s.key.get()).collect();
            assert_eq!(shown, bad[..bad.len().min(SHOWN_CONTRADICTIONS)]);
            over_cap |= bad.len() > SHOWN_CONTRADICTIONS;
            some_shared |= shared > 0;
        }
        // the cases the test is for: contradictions past the cap, keys shared by stores
        assert!(over_cap && some_shared);
    }
}
