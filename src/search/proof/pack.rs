//! Which of a paused solve's stored facts to carry where its table cannot go: the facts at the
//! edge of the open search, found from the heaviest open positions down, within a budget.
//!
//! A long solve's table lives on the machine that made it: a snapshot of gigabytes and runs of
//! tens of megabytes. When the machine goes, hours of search go with it. What a resumed search
//! needs most is what the search had settled where it was working: a settled position stands
//! for its whole subtree. Among the store's facts, those one move below an open position of the
//! search (its edge) are the ones it will ask for again first; facts deeper down are below a
//! settled position (asked only if that fact is lost) or in branches the search left. The open
//! positions with the most expansions below them are where the search spent its time, so
//! their edges come first, and a budget takes the heaviest part.
//!
//! The proof table's numbers themselves are not carried. On a paused solve of the milestone
//! line (README, "The position store"), resuming from its open positions' numbers and their
//! children's saved little or cost more, while the store's facts alone saved as much as the
//! whole snapshot.
//!
//! Why resuming from the facts is sound: each is one of the store's facts, unchanged (a solve
//! reads a store's facts the same way whichever process wrote them). Which facts are chosen
//! only changes what is searched again.

use super::{question_tag, ProofTable};
use crate::game::{Bits, Game, Key, Player};
use std::collections::{BinaryHeap, HashSet};

/// Open positions with fewer expansions recorded than this are not walked through: their
/// children's facts are cheap to find again. (On the measured paused solve, walking through
/// every open position found twice the facts and saved no more.)
pub const WALK_MIN_WORK: u64 = 16;

/// The facts to carry (see the module's doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pack {
    /// The keys with facts at the edge, heaviest parent first (at most the budget).
    pub facts: Vec<Key>,
    /// How many open positions the walk went through.
    pub walked: usize,
    /// Whether the walk ended before the budget did (every edge fact was taken).
    pub complete: bool,
}

/// The open entries of a table (`[tag, data]` words), sorted by tag, each with its work.
struct OpenEntries(Vec<(u64, u64)>);

impl OpenEntries {
    fn read(entries: impl IntoIterator<Item = [u64; 2]>) -> Self {
        let mut open: Vec<(u64, u64)> = entries
            .into_iter()
            .filter_map(|[tag, data]| {
                let (phi, delta, work) = ProofTable::decode(data);
                (phi != 0 && delta != 0 && work >= WALK_MIN_WORK).then_some((tag, work))
            })
            .collect();
        open.sort_unstable();
        OpenEntries(open)
    }

    fn work(&self, tag: u64) -> Option<u64> {
        let at = self.0.binary_search_by_key(&tag, |e| e.0).ok()?;
        Some(self.0[at].1)
    }
}

/// The facts to carry of the table whose entries `entries` yields (read once; only its open
/// entries are held), from the start `g` (keyed as the search keyed its positions), in both
/// questions: `known` says whether the store holds a fact about a key, and at most
/// `max_facts` keys are taken. The start is expanded whatever its own entry says (a running
/// question rewrites it only when settled); then the open positions with the most work first.
pub fn pack<G: Game>(
    g: &G,
    entries: impl IntoIterator<Item = [u64; 2]>,
    known: impl Fn(Key) -> bool,
    max_facts: usize,
) -> Pack {
    let open = OpenEntries::read(entries);
    let mover = Player::of_ply(g.ply());
    let mut positions: Vec<(G, Player)> = vec![(*g, mover), (*g, mover.other())];
    let mut heap: BinaryHeap<(u64, std::cmp::Reverse<usize>)> = BinaryHeap::new();
    heap.push((u64::MAX, std::cmp::Reverse(0)));
    heap.push((u64::MAX, std::cmp::Reverse(1)));
    let mut walked: HashSet<u64> = HashSet::new();
    let mut taken: HashSet<Key> = HashSet::new();
    let mut facts = Vec::new();
    let mut take = |key: Key, facts: &mut Vec<Key>| {
        if facts.len() < max_facts && known(key) && taken.insert(key) {
            facts.push(key);
        }
        facts.len() < max_facts
    };
    let mut room = take(g.key(), &mut facts);
    while room {
        let Some((_, std::cmp::Reverse(at))) = heap.pop() else {
            break;
        };
        let (p, attacker) = positions[at];
        if p.last_mover_won() {
            continue;
        }
        for mv in Bits(p.playable()) {
            let mut child = p;
            child.play(mv);
            let tag = question_tag(child.key(), attacker);
            match open.work(tag) {
                Some(work) => {
                    if walked.insert(tag) {
                        heap.push((work, std::cmp::Reverse(positions.len())));
                        positions.push((child, attacker));
                    }
                }
                None => room = take(child.key(), &mut facts),
            }
            if !room {
                break;
            }
        }
    }
    Pack {
        facts,
        walked: walked.len(),
        complete: room && heap.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cube::Rules;
    use crate::game::{Connect4, Cube};
    use crate::search::proof::{JobAnswer, Numbers, ProofSearch};

    /// A budgeted search of `g`'s side to move left open, with its table.
    fn paused<G: Game>(g: &G, budget: u64) -> ProofTable {
        let table = ProofTable::new(1 << 24);
        let answer = ProofSearch::new(&table)
            .question_within(g, Player::of_ply(g.ply()), budget, Numbers::UNLIMITED)
            .unwrap();
        assert!(matches!(answer, JobAnswer::Open { .. }), "{answer:?}");
        table
    }

    /// The keys the table itself settled, standing in for a store's facts.
    fn settled_keys(table: &ProofTable) -> HashSet<Key> {
        table
            .entries()
            .filter(|[_, d]| {
                let (phi, delta, _) = ProofTable::decode(*d);
                phi == 0 || delta == 0
            })
            .map(|[t, _]| Key::new(t & ((1 << 62) - 1)))
            .collect()
    }

    /// The walk takes only known keys, each once; a smaller budget takes a prefix of a larger
    /// one's list (heaviest first, the same order), and a budget the walk does not reach takes
    /// every known child of the start and of every open position walked through.
    fn check_pack<G: Game>(g: G, budget: u64) {
        let table = paused(&g, budget);
        let known = settled_keys(&table);
        let all = pack(&g, table.entries(), |k| known.contains(&k), usize::MAX);
        assert!(all.complete);
        assert!(
            all.walked > 0,
            "the paused search has open positions to walk"
        );
        let distinct: HashSet<Key> = all.facts.iter().copied().collect();
        assert_eq!(distinct.len(), all.facts.len(), "each key once");
        assert!(all.facts.iter().all(|k| known.contains(k)));
        // every known child of the start is taken (the start is always expanded)
        for attacker in [Player::of_ply(g.ply()), Player::of_ply(g.ply() + 1)] {
            for mv in Bits(g.playable()) {
                let mut child = g;
                child.play(mv);
                let open = table
                    .probe(question_tag(child.key(), attacker))
                    .is_some_and(|(phi, delta)| phi != 0 && delta != 0);
                if known.contains(&child.key()) && !open {
                    assert!(distinct.contains(&child.key()), "{:x}", mv);
                }
            }
        }
        for max in [0, 1, 5, all.facts.len() / 2] {
            let some = pack(&g, table.entries(), |k| known.contains(&k), max);
            assert_eq!(some.facts, all.facts[..max.min(all.facts.len())]);
            assert!(!some.complete || max >= all.facts.len());
        }
    }

    #[test]
    fn the_walk_takes_known_edge_keys_heaviest_first_within_the_budget() {
        check_pack(Connect4::from_moves(7, 6, "4444").unwrap(), 20_000);
        let showcase =
            Cube::from_hex(Rules::Sogo, "0x1000102480048205:0x0004000012215068").unwrap();
        check_pack(showcase, 20_000);
    }

    /// Nothing open (a settled search, or no entries): the start's children are all there is.
    #[test]
    fn a_table_without_open_positions_gives_the_starts_edge_only() {
        let g = Connect4::from_moves(7, 6, "4444").unwrap();
        let p = pack(&g, std::iter::empty(), |_| true, usize::MAX);
        assert!(p.complete);
        assert_eq!(p.walked, 0);
        // the start and its children (mirror images share a key)
        let mut keys: HashSet<Key> = HashSet::from([g.key()]);
        for mv in Bits(g.playable()) {
            let mut c = g;
            c.play(mv);
            keys.insert(c.key());
        }
        assert_eq!(p.facts.len(), keys.len());
    }
}
