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
//! The proof table's numbers themselves are not carried. On a paused solve of the milestone
//! line (README, "The position store"), resuming from its open positions' numbers saved little
//! or cost more, while the store's facts alone saved as much as the whole snapshot or more; and
//! the facts one move below the open positions alone saved a half or less of what all facts did.
//!
//! Why resuming from the facts is sound: each is one of the store's facts, unchanged (a solve
//! reads a store's facts the same way whichever process wrote them). Which facts are chosen
//! only changes what is searched again.

use super::{question_tag, ProofTable};
use crate::game::{Bits, Game, Key, Player};
use std::collections::{HashSet, VecDeque};

/// Open positions with fewer expansions recorded than this are not walked through: the facts
/// below them are cheap to find again.
pub const WALK_MIN_WORK: u64 = 16;

/// The facts to carry (see the module's doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pack {
    /// The keys with facts, nearest the start first (at most the budget).
    pub facts: Vec<Key>,
    /// How many open positions without a fact the walk went through.
    pub open: usize,
    /// Whether the walk ended before the budget did (every fact it can reach was taken).
    pub complete: bool,
}

/// The open tags of a table (`[tag, data]` words) with enough work to walk through, sorted.
struct OpenTags(Vec<u64>);

impl OpenTags {
    fn read(entries: impl IntoIterator<Item = [u64; 2]>) -> Self {
        let mut open: Vec<u64> = entries
            .into_iter()
            .filter_map(|[tag, data]| {
                let (phi, delta, work) = ProofTable::decode(data);
                (phi != 0 && delta != 0 && work >= WALK_MIN_WORK).then_some(tag)
            })
            .collect();
        open.sort_unstable();
        OpenTags(open)
    }

    /// Whether either question ("does White win?", "does Black?") holds `key` open.
    fn either(&self, key: Key) -> bool {
        [Player::of_ply(0), Player::of_ply(1)]
            .iter()
            .any(|&a| self.0.binary_search(&question_tag(key, a)).is_ok())
    }
}

/// The facts to carry of the table whose entries `entries` yields (read once; only its open
/// tags are held), from the start `g` (keyed as the search keyed its positions): `known` says
/// whether the store holds a fact about a key, and at most `max_facts` keys are taken,
/// breadth first from the start through open positions and known ones.
pub fn pack<G: Game>(
    g: &G,
    entries: impl IntoIterator<Item = [u64; 2]>,
    known: impl Fn(Key) -> bool,
    max_facts: usize,
) -> Pack {
    let open = OpenTags::read(entries);
    let start = g.key();
    let mut seen: HashSet<Key> = HashSet::from([start]);
    let mut facts = Vec::new();
    let mut through_open = 0;
    // false only once a fact is found with the budget spent, so a walk whose last fact fills
    // the budget exactly is still complete
    let mut complete = true;
    if known(start) {
        if max_facts == 0 {
            complete = false;
        } else {
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
            if !seen.insert(key) {
                continue;
            }
            if known(key) {
                if facts.len() == max_facts {
                    complete = false;
                    break 'walk;
                }
                facts.push(key);
                queue.push_back(child);
            } else if open.either(key) {
                through_open += 1;
                queue.push_back(child);
            }
        }
    }
    Pack {
        facts,
        open: through_open,
        complete,
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

    /// The walk takes only known keys, each once, every known child of the start among them; a
    /// smaller budget takes a prefix of a larger one's list (nearest the start first, the same
    /// order).
    fn check_pack<G: Game>(g: G, budget: u64) {
        let table = paused(&g, budget);
        let known = settled_keys(&table);
        let all = pack(&g, table.entries(), |k| known.contains(&k), usize::MAX);
        assert!(all.complete);
        assert!(all.open > 0, "the paused search has open positions to walk");
        let distinct: HashSet<Key> = all.facts.iter().copied().collect();
        assert_eq!(distinct.len(), all.facts.len(), "each key once");
        assert!(all.facts.iter().all(|k| known.contains(k)));
        // every known child of the start is taken (the start is always expanded)
        for mv in Bits(g.playable()) {
            let mut child = g;
            child.play(mv);
            if known.contains(&child.key()) {
                assert!(distinct.contains(&child.key()), "{mv:x}");
            }
        }
        // complete exactly when the budget holds every fact the walk reaches, one at exactly
        // the budget included
        for max in [
            0,
            1,
            5,
            all.facts.len() / 2,
            all.facts.len(),
            all.facts.len() + 1,
        ] {
            let some = pack(&g, table.entries(), |k| known.contains(&k), max);
            assert_eq!(some.facts, all.facts[..max.min(all.facts.len())]);
            assert_eq!(some.complete, max >= all.facts.len(), "budget {max}");
        }
    }

    #[test]
    fn the_walk_takes_known_keys_nearest_the_start_first_within_the_budget() {
        check_pack(Connect4::from_moves(7, 6, "4444").unwrap(), 20_000);
        let showcase =
            Cube::from_hex(Rules::Sogo, "0x1000102480048205:0x0004000012215068").unwrap();
        check_pack(showcase, 20_000);
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
        let p = pack(&g, std::iter::empty(), |k| known.contains(&k), usize::MAX);
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
