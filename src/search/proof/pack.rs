//! Which of a paused solve's stored facts to carry where its table cannot go: those nearest the
//! start, reached through the open search and through the facts themselves, within a budget.
//!
//! A long solve's table lives on the machine that made it: a snapshot of gigabytes and runs of
//! tens of megabytes. When the machine goes, hours of search go with it. What a resumed search
//! needs most is what the search had settled: a settled position stands for its whole subtree,
//! and the nearer the start, the larger the subtree, on the whole. So the facts are taken
//! breadth first from the start: through the positions the snapshot holds open (where the
//! search was working) and through the positions the store has settled (the facts below them
//! are what proved them, and a resumed search that takes another path meets them again).
//!
//! When the walk runs dry before the budget does, the rest of the budget goes to the facts the
//! snapshot still holds settled, the costliest first: a full table drops its cheapest entries
//! (`ProofTable::store`), so the settled entries left are those that cost the most to prove,
//! each one a subtree a resumed search need not search again when it meets the position. The
//! walk runs dry where the table dropped the open positions it goes through (README, "Carrying
//! a paused solve to another machine"). What budget is left then goes to the store's other facts, the
//! newest runs first (a merged run holds facts of every age, so this is only roughly the order
//! in which the search settled them).
//!
//! The proof table's numbers themselves are not carried. On a paused solve of the milestone
//! line (README, "The position store"), resuming from its open positions' numbers saved little
//! or cost more, while the store's facts alone saved as much as the whole snapshot or more; and
//! the facts one move below the open positions alone saved a half or less of what all facts did.
//!
//! Why resuming from the facts is sound: each is one of the store's facts, unchanged (a solve
//! reads a store's facts the same way whichever process wrote them). Which facts are chosen
//! only changes what is searched again.
//!
//! **Packs that grow.** A pack replaced at every pause carries the same nearest facts each
//! time, however many sessions the solve has had. Given the facts an earlier pack already
//! carries (`carried`), the walk goes through them as through facts it takes, but takes only
//! the others: the new facts are exactly those a pack of the combined budget would have taken
//! after the earlier ones (tested), so the earlier pack's files stay as they are and one more
//! run holds what follows. In a repository that keeps every version of a file, a pack replaced
//! costs as much as one added to, and the pack added to carries more.

use super::{tag_key, ProofTable};
use crate::game::{Bits, Game, Key};
use std::collections::VecDeque;

/// Open positions with fewer expansions recorded than this are not walked through: the facts
/// below them are cheap to find again.
pub const WALK_MIN_WORK: u64 = 16;

/// The facts to carry (see the module's doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pack {
    /// The keys with facts: those the walk reached, nearest the start first, then those the
    /// snapshot holds settled, costliest first, then the store's others (at most the budget in
    /// all).
    pub facts: Vec<Key>,
    /// How many open positions without a fact the walk went through.
    pub open: usize,
    /// Whether the walk ended before the budget did (every fact it can reach was taken).
    pub complete: bool,
    /// How many of `facts` (the first ones) the walk took.
    pub walked: usize,
    /// How many of `facts` (after the walk's) came from the snapshot's settled entries after
    /// the walk ran dry.
    pub by_cost: usize,
    /// How many of the store's facts the budget left out (0: the pack holds all of them, or
    /// they are carried already).
    pub left_out: usize,
    /// How many of the store's facts were carried already (not taken again).
    pub carried: usize,
}

impl Pack {
    /// How many of `facts` (the last ones) came from the store's other facts after those.
    pub fn others(&self) -> usize {
        self.facts.len() - self.walked - self.by_cost
    }
}

/// A set of keys the walk asks about for every child it makes (hundreds of millions of times
/// on a long solve's snapshot): sorted, with the index of the first key of each bucket of
/// leading bits, four to eight keys to a bucket. Keys are hashes, so a look-up reads two index
/// words and one short bucket, a cache miss or two, where a binary search over the whole set
/// misses the cache at most of its ~28 probes. Keys that are not spread (Connect Four's) only
/// make some buckets long; a bucket is searched by halving, so the answer is the same.
struct KeySet {
    keys: Vec<Key>,
    /// `starts[b]..starts[b + 1]` are the keys of bucket `b` (the key's bits above `shift`).
    starts: Vec<usize>,
    shift: u32,
}

impl KeySet {
    fn new(mut keys: Vec<Key>) -> Self {
        keys.sort_unstable();
        keys.dedup();
        let bits = (usize::BITS - keys.len().leading_zeros()).saturating_sub(3);
        let shift = Key::BITS.saturating_sub(bits);
        let mut starts = vec![0; (1 << (Key::BITS - shift)) + 1];
        for k in &keys {
            starts[(k.get() >> shift) as usize + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        KeySet {
            keys,
            starts,
            shift,
        }
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    /// Where `key` is in the sorted set, if it is there (a place for a mark of its own).
    fn position(&self, key: Key) -> Option<usize> {
        let b = (key.get() >> self.shift) as usize;
        let (from, to) = (self.starts[b], self.starts[b + 1]);
        (self.keys[from..to].binary_search(&key).ok()).map(|i| from + i)
    }
}

/// What the walk and the fill read of a table's `[tag, data]` words, which are read once.
struct Snapshot {
    /// The positions open for either question ("does White win?", "does Black?") with enough
    /// work to walk through.
    open: KeySet,
    /// The settled positions' keys, costliest first (a key settled for both questions twice).
    settled: Vec<Key>,
}

impl Snapshot {
    fn read(entries: impl IntoIterator<Item = [u64; 2]>) -> Self {
        let mut open = Vec::new();
        let mut settled = Vec::new();
        for [tag, data] in entries {
            let (phi, delta, work) = ProofTable::decode(data);
            if phi == 0 || delta == 0 {
                settled.push((work, tag_key(tag)));
            } else if work >= WALK_MIN_WORK {
                open.push(tag_key(tag));
            }
        }
        // costliest first; among equal costs (work is stored as a power of two) by key, so a
        // smaller budget takes a prefix of a larger one's facts
        settled.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        Snapshot {
            open: KeySet::new(open),
            settled: settled.into_iter().map(|(_, key)| key).collect(),
        }
    }
}

/// The facts to carry of the table whose entries `entries` yields (read once; only its open
/// keys and settled keys are held) and of the store whose facts' keys `store` yields in the
/// order the fill takes them (the newest runs first; a key may come twice), from the start `g`
/// (keyed as the search keyed its positions). At most `max_facts` keys are taken, breadth
/// first from the start through open positions and the store's keys, then, if the walk ends
/// first, the store's keys the table holds settled, costliest first, then the store's other
/// keys in their order. The keys of `carried` (an earlier pack's) are walked through but never
/// taken, nor counted against the budget (see the module's doc).
pub fn pack<G: Game>(
    g: &G,
    entries: impl IntoIterator<Item = [u64; 2]>,
    store: impl IntoIterator<Item = Key> + Clone,
    carried: impl IntoIterator<Item = Key>,
    max_facts: usize,
) -> Pack {
    let snapshot = Snapshot::read(entries);
    // the store is read twice (its keys here, its order in the fill), not held in order
    let known = KeySet::new(store.clone().into_iter().collect());
    let carried = KeySet::new(carried.into_iter().collect());
    // marks of the keys taken or passed (the store's) and of the open positions passed, by
    // place
    let mut taken = vec![false; known.len()];
    let mut passed = vec![false; snapshot.open.len()];
    let mut facts = Vec::new();
    let mut through_open = 0;
    // false only once a fact is found with the budget spent, so a walk whose last fact fills
    // the budget exactly is still complete
    let mut complete = true;
    let start = g.key();
    if let Some(i) = known.position(start) {
        if carried.position(start).is_some() {
            taken[i] = true;
        } else if max_facts == 0 {
            complete = false;
        } else {
            taken[i] = true;
            facts.push(start);
        }
    }
    let mut queue = VecDeque::from([*g]);
    'walk: while complete {
        let Some(p) = queue.pop_front() else { break };
        if p.last_mover_won() {
            continue;
        }
        for mv in Bits(p.playable()) {
            let mut child = p;
            child.play(mv);
            let key = child.key();
            if let Some(i) = known.position(key) {
                if taken[i] {
                    continue;
                }
                if carried.position(key).is_some() {
                    // an earlier pack has it: through it, as if taken now
                    taken[i] = true;
                    queue.push_back(child);
                    continue;
                }
                if facts.len() == max_facts {
                    complete = false;
                    break 'walk;
                }
                taken[i] = true;
                facts.push(key);
                queue.push_back(child);
            } else if let Some(i) = snapshot.open.position(key) {
                if !passed[i] {
                    passed[i] = true;
                    through_open += 1;
                    queue.push_back(child);
                }
            }
        }
    }
    let walked = facts.len();
    let mut by_cost = 0;
    if complete {
        let mut new_fact = |key: Key| match known.position(key) {
            Some(i) if !taken[i] => {
                taken[i] = true;
                carried.position(key).is_none()
            }
            _ => false,
        };
        let room = max_facts - walked;
        facts.extend(
            (snapshot.settled.into_iter())
                .filter(|&k| new_fact(k))
                .take(room),
        );
        by_cost = facts.len() - walked;
        let room = max_facts - facts.len();
        facts.extend(store.into_iter().filter(|&k| new_fact(k)).take(room));
    }
    let already = (carried.keys.iter())
        .filter(|&&k| known.position(k).is_some())
        .count();
    Pack {
        left_out: known.len() - facts.len() - already,
        facts,
        open: through_open,
        complete,
        walked,
        by_cost,
        carried: already,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cube::Rules;
    use crate::game::{Connect4, Cube, Player};
    use crate::search::proof::{question_tag, JobAnswer, Numbers, ProofSearch};
    use std::collections::{HashMap, HashSet};

    /// A budgeted search of `g`'s side to move left open, with its table.
    fn paused<G: Game>(g: &G, budget: u64) -> ProofTable {
        let table = ProofTable::new(1 << 24);
        let answer = ProofSearch::new(&table)
            .question_within(g, Player::of_ply(g.ply()), budget, Numbers::UNLIMITED)
            .unwrap();
        assert!(matches!(answer, JobAnswer::Open { .. }), "{answer:?}");
        table
    }

    /// The cost of each key the table settled: the most work of its settled entries.
    fn settled_costs(table: &ProofTable) -> HashMap<Key, u64> {
        let mut costs = HashMap::new();
        for [t, d] in table.entries() {
            let (phi, delta, work) = ProofTable::decode(d);
            if phi == 0 || delta == 0 {
                let cost = costs.entry(tag_key(t)).or_insert(0);
                *cost = work.max(*cost);
            }
        }
        costs
    }

    /// The walk takes only the store's keys, each once, every known child of the start among
    /// them; then the fill takes every other key of the store the table settled, costliest
    /// first, then the store's other keys in their order, and never a settled key the store
    /// lacks; a smaller budget takes a prefix of a larger one's list (the same order).
    fn check_pack<G: Game>(g: G, budget: u64) {
        let table = paused(&g, budget);
        let costs = settled_costs(&table);
        // the store's facts: what the table settled but every seventh key (by key), and 50
        // keys it does not hold (made up)
        let mut settled: Vec<Key> = costs.keys().copied().collect();
        settled.sort_unstable();
        let lacking: HashSet<Key> = settled.iter().copied().step_by(7).collect();
        let extra: Vec<Key> = (1..=50).map(Key::new).collect();
        assert!(extra.iter().all(|k| !costs.contains_key(k)));
        let known = |k: &Key| (costs.contains_key(k) && !lacking.contains(k)) || extra.contains(k);
        // the store as its runs list it: the made-up keys first, each twice (a draw's two
        // entries), then the settled ones
        let store = || {
            (extra.iter().chain(&extra))
                .chain(settled.iter().filter(|k| !lacking.contains(k)))
                .copied()
        };
        let all = pack(&g, table.entries(), store(), [], usize::MAX);
        assert!(all.complete);
        assert!(all.open > 0, "the paused search has open positions to walk");
        let distinct: HashSet<Key> = all.facts.iter().copied().collect();
        assert_eq!(distinct.len(), all.facts.len(), "each key once");
        assert!(all.facts.iter().all(known), "the store's keys only");
        assert_eq!(
            distinct.len(),
            costs.len() - lacking.len() + extra.len(),
            "every key of the store"
        );
        let by_cost_end = all.walked + all.by_cost;
        assert_eq!(
            all.facts[by_cost_end..],
            extra,
            "the others last, in their order"
        );
        // every known child of the start is taken by the walk (the start is always expanded)
        let walked = all.walked;
        let by_walk: HashSet<Key> = all.facts[..walked].iter().copied().collect();
        for mv in Bits(g.playable()) {
            let mut child = g;
            child.play(mv);
            if known(&child.key()) {
                assert!(by_walk.contains(&child.key()), "{mv:x}");
            }
        }
        // the walk leaves some out (settled below positions with little work), and the fill
        // takes them costliest first
        assert!(all.by_cost > 0);
        let fill: Vec<u64> = (all.facts[walked..by_cost_end].iter())
            .map(|k| costs[k])
            .collect();
        assert!(fill.windows(2).all(|w| w[0] >= w[1]), "{fill:?}");
        // the walk is complete exactly when the budget holds every fact it reaches, one at
        // exactly the budget included; the fill comes only after a complete walk
        for max in [
            0,
            1,
            5,
            walked / 2,
            walked,
            walked + 1,
            walked + all.by_cost / 2,
            by_cost_end,
            by_cost_end + 10,
            all.facts.len(),
            all.facts.len() + 1,
        ] {
            let some = pack(&g, table.entries(), store(), [], max);
            let taken = max.min(all.facts.len());
            assert_eq!(some.facts, all.facts[..taken]);
            assert_eq!(some.complete, max >= walked, "budget {max}");
            assert_eq!(some.by_cost, taken.min(by_cost_end).saturating_sub(walked));
            assert_eq!(some.walked, taken.min(walked));
            assert_eq!(some.others(), taken.saturating_sub(by_cost_end));
        }
        // a pack added to an earlier one takes exactly what one pack of both budgets would
        // have taken after the earlier one's facts, in the same order, whichever part of the
        // order the earlier one ended in (the walk, the fill by cost, the others)
        let splits = [
            0,
            1,
            walked / 3,
            walked,
            walked + all.by_cost / 3,
            by_cost_end + 3,
        ];
        for first in splits {
            for more in [0, 1, 7, walked / 2, all.facts.len()] {
                let earlier = pack(&g, table.entries(), store(), [], first);
                let added = pack(
                    &g,
                    table.entries(),
                    store(),
                    earlier.facts.iter().copied(),
                    more,
                );
                let both = pack(&g, table.entries(), store(), [], first + more);
                let joined: Vec<Key> = (earlier.facts.iter().chain(&added.facts))
                    .copied()
                    .collect();
                assert_eq!(joined, both.facts, "budgets {first} then {more}");
                assert_eq!(added.carried, earlier.facts.len());
                assert_eq!(added.left_out, both.left_out);
                assert_eq!(added.complete, both.complete, "budgets {first} then {more}");
            }
        }
    }

    #[test]
    fn the_walk_takes_known_keys_nearest_the_start_first_within_the_budget() {
        check_pack(Connect4::from_moves(7, 6, "4444").unwrap(), 20_000);
        let showcase =
            Cube::from_hex(Rules::Sogo, "0x1000102480048205:0x0004000012215068").unwrap();
        check_pack(showcase, 20_000);
    }

    /// Whether `set` answers like a binary search over the sorted, distinct `keys`, for every
    /// key, its neighbours, and `probes`.
    fn answers_like_a_binary_search(keys: &[u64], probes: &[u64]) {
        let set = KeySet::new(keys.iter().copied().map(Key::new).collect());
        let mut sorted = keys.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(set.len(), sorted.len());
        let neighbours = keys
            .iter()
            .flat_map(|&k| [k, k ^ 1, k.wrapping_sub(1), k + 1]);
        for probe in neighbours.chain(probes.iter().copied()) {
            let probe = Key::new(probe & Key::MAX.get());
            assert_eq!(set.position(probe), sorted.binary_search(&probe.get()).ok());
        }
    }

    /// The edge cases: the empty set, the lowest and highest keys, keys bunched in one bucket
    /// (Connect Four's keys are not hashes) and keys spread over many.
    #[test]
    fn a_key_set_finds_exactly_its_keys() {
        let spread = |n: u64| (0..n).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 2);
        answers_like_a_binary_search(&[], &[0, 1, Key::MAX.get()]);
        answers_like_a_binary_search(&[0, Key::MAX.get()], &[]);
        answers_like_a_binary_search(&[Key::MAX.get(); 3], &[0]);
        answers_like_a_binary_search(&spread(5_000).chain(spread(300)).collect::<Vec<_>>(), &[]);
        answers_like_a_binary_search(&(0..3_000).map(|i| i * 3).collect::<Vec<_>>(), &[]);
    }

    proptest::proptest! {
        // no regression files: the top level of the repository is fixed
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]
        /// Any keys, hashed (spread over the 62 bits) or bunched (small numbers), repeated or
        /// not, and any probes.
        #[test]
        fn a_key_set_answers_like_a_binary_search(
            spread in proptest::collection::vec(0..=Key::MAX.get(), 0..2_000),
            bunched in proptest::collection::vec(0u64..4_096, 0..500),
            probes in proptest::collection::vec(0..=Key::MAX.get(), 0..200),
        ) {
            answers_like_a_binary_search(&spread, &probes);
            answers_like_a_binary_search(&bunched, &probes);
            let both: Vec<u64> = spread.iter().chain(&bunched).copied().collect();
            answers_like_a_binary_search(&both, &probes);
        }
    }

    /// The fill reads keys back from tags: the inverse of the tag's making, for both questions.
    #[test]
    fn a_tag_gives_back_its_key() {
        for key in [0, 1, 0x1234_5678_9abc_def0 >> 2, Key::MAX.get()].map(Key::new) {
            for attacker in [Player::of_ply(0), Player::of_ply(1)] {
                assert_eq!(tag_key(question_tag(key, attacker)), key);
            }
        }
    }

    /// Without open positions the walk goes through facts only: from the start to its known
    /// children, from one of them to its known children, and no further than what is known.
    #[test]
    fn without_open_positions_the_walk_goes_through_facts_alone() {
        let g = Connect4::from_moves(7, 6, "4444").unwrap();
        let children = |p: &Connect4| -> Vec<Connect4> {
            Bits(p.playable())
                .map(|mv| {
                    let mut c = *p;
                    c.play(mv);
                    c
                })
                .collect()
        };
        let first = children(&g);
        let second = children(&first[0]);
        let known: HashSet<Key> = (first.iter().chain(&second)).map(|c| c.key()).collect();
        let p = pack(
            &g,
            std::iter::empty(),
            known.iter().copied(),
            [],
            usize::MAX,
        );
        assert!(p.complete);
        assert_eq!(p.open, 0);
        let taken: HashSet<Key> = p.facts.iter().copied().collect();
        assert_eq!(taken, known, "all of them, through the first child's fact");
        assert_eq!(p.facts.len(), known.len());
        // the start's children come first
        let first_keys: HashSet<Key> = first.iter().map(|c| c.key()).collect();
        assert!(p.facts[..first_keys.len()]
            .iter()
            .all(|k| first_keys.contains(k)));
    }
}
