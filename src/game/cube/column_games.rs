//! The follower's strategies inside *pairs of columns*, found by playing the pair out instead of
//! naming them one by one.
//!
//! `pairing` fixes one strategy per kind of column: claimeven in the even columns, baseinverse
//! (with claimeven above the base) for matched odd columns, and level pairs. Allis has more for
//! two columns played as one: lowinverse (two verticals, and one of the two upper cells),
//! highinverse (one of the two upper cells, one of the two middle cells, the two upper cells of
//! each column, and a lower cell with the other column's upper cell), and they mix. On sixteen
//! height-4 columns the shapes multiply (a line crosses up to four columns at any levels), so
//! here a pair's strategy is not chosen from a list: for a pair of columns and the sets of cells
//! the follower F must hit (the lines of the mover S through the pair, each cut down to the pair),
//! a search over the pair's own moves says whether some way of answering inside the pair gets F
//! a cell of every set. Baseinverse, level pairs, lowinverse and highinverse are all such ways
//! (the tests check that each is found), and so is every mixture of them.
//!
//! Where the fixed pairings fail (`pairing`), every column but the blocked ones is put in a
//! group, an even column alone (its only game is claimeven) or two columns with empty counts of
//! the same parity together, by a search ([`cover_lines`]) that gives each line of S to a group
//! whose game still hits every line given to it. The search is exponential where it fails, so it
//! runs only with few lines left ([`MAX_LINES`]) and a budget of games ([`GAME_BUDGET`]);
//! games of the same shape and sets are answered from a per-thread cache. Even so the proof search
//! does not ask it (`Cube::pair_games_bound` does, for the coverage bench and the tests): it
//! saves nodes and costs more time than they did (the README has the figures).
//!
//! **Why answering inside a group is a strategy.** F splits the empty cells into groups (a
//! claimeven column, a blocked column, a pair of columns) each with an even number of empty
//! cells, and answers every move of S inside the group S played in. After S's move the group has
//! an odd number of empty cells, at least one, so one of its columns is not full and its lowest
//! empty cell is playable: F always has an answer there, and the groups never interact (a
//! column belongs to one group, and gravity acts within a column). So S's stones in a pair are
//! exactly what the pair's game gives S, whatever S does elsewhere, and a line of S that holds a
//! cell F gets is never completed.
//!
//! **The pair's game.** S moves first into the pair (any playable cell of it; S may also leave
//! it alone, which changes nothing inside), F answers inside it; F wins the game if it ends with
//! a cell of F in every set. [`follower_hits_all`] searches it exactly: at most 8 cells, so at
//! most 4 rounds of 2 x 2 choices.

use super::geometry::{columns, spread};
use crate::game::Bits;

/// Every cell of column `c` (0..16).
#[inline]
fn column(c: u32) -> u64 {
    spread(1 << c)
}

/// The playable cells among `left`, the cells of two columns not yet filled (each column's
/// empty cells run from its lowest empty cell up, so its lowest cell in `left` is playable).
#[inline]
fn playable_in(left: u64, columns: [u64; 2]) -> [u64; 2] {
    columns.map(|c| {
        let l = left & c;
        l & l.wrapping_neg()
    })
}

/// Whether F, answering every move of S inside two columns (`columns`, their cells) whose empty
/// cells are `left` (an even number), gets a cell of each set of `needs` (each a subset of
/// `left`), with S to move. `s_own` and `f_own` are the cells each side has taken in the game so
/// far (empty on the first call).
fn follower_hits_all(columns: [u64; 2], left: u64, s_own: u64, f_own: u64, needs: &[u64]) -> bool {
    if needs.iter().all(|&n| n & f_own != 0) {
        return true;
    }
    for s_move in playable_in(left, columns) {
        if s_move == 0 {
            continue;
        }
        let s_now = s_own | s_move;
        // a set all of whose cells S holds is lost for F
        if needs.iter().any(|&n| n & !s_now == 0) {
            return false;
        }
        let rest = left & !s_move;
        let answered = playable_in(rest, columns).into_iter().any(|f_move| {
            f_move != 0 && follower_hits_all(columns, rest & !f_move, s_now, f_own | f_move, needs)
        });
        if !answered {
            return false;
        }
    }
    true
}

/// At most this many lines go to [`cover_lines`] (more: no strategy is searched). Where more
/// lines of S survive the fixed pairings the search rarely succeeds and costs the most.
pub(crate) const MAX_LINES: usize = 8;

/// How many games [`cover_lines`] may play before it gives up (then it reports no strategy,
/// which only means no bound): the search over groupings is exponential in the lines and
/// columns where it fails, and a static bound must stay cheap beside the proof search.
pub(crate) const GAME_BUDGET: u32 = 50;

/// A search for a grouping of the columns `free` (bits 0..16) into groups F plays on their own
/// (an even column alone, which is claimeven, or two columns with empty counts of the same
/// parity) under which every line of `lines` (each cut down to the empty cells of `free`'s
/// columns, none empty) holds, in some group, a set of cells F gets by that group's game.
/// `odd` marks the columns with an odd number of empty cells (an even number of them), which
/// must be paired. `budget` counts the games played; `None` when it ran out.
pub(crate) fn cover_lines(
    free: u64,
    odd: u64,
    empty: u64,
    lines: &[u64],
    budget: &mut u32,
) -> Option<bool> {
    if lines.len() > MAX_LINES {
        return None;
    }
    let mut search = Cover {
        empty,
        odd,
        lines,
        group: [u8::MAX; 16],
        needs: [(0, 0); MAX_LINES],
        n_needs: 0,
        budget,
    };
    search.assign(0, free)
}

/// The state of [`cover_lines`]' search.
struct Cover<'a> {
    empty: u64,
    odd: u64,
    lines: &'a [u64],
    /// Each grouped column's partner (itself when alone; `u8::MAX`: not grouped yet).
    group: [u8; 16],
    /// The sets F must hit, each with the lowest column of the group it was given to.
    needs: [(u8, u64); MAX_LINES],
    n_needs: usize,
    budget: &'a mut u32,
}

impl Cover<'_> {
    /// Whether lines `i..` can be covered, the columns `free` not grouped yet.
    fn assign(&mut self, i: usize, free: u64) -> Option<bool> {
        let Some(&line) = self.lines.get(i) else {
            // the columns left form groups with nothing to hit, each a strategy: the even
            // ones alone, the odd ones (an even number of them) in any pairs
            return Some(true);
        };
        let cols = columns(line);
        // a group made already, through one of the line's columns
        for c in Bits(cols & !free) {
            let a = c.trailing_zeros();
            let b = u32::from(self.group[a as usize]);
            if a > b && cols & 1 << b != 0 {
                continue; // the same group as from b
            }
            if self.try_need(i, free, a, b, line)? {
                return Some(true);
            }
        }
        // a new group: one of the line's free columns alone (an even one), or with any free
        // column of the same parity
        for c in Bits(cols & free) {
            let a = c.trailing_zeros();
            let same_parity = if self.odd & c != 0 {
                self.odd
            } else {
                !self.odd
            };
            if self.odd & c == 0 && self.grouped(i, free, a, a, line)? {
                return Some(true);
            }
            for d in Bits(free & same_parity & !c) {
                let b = d.trailing_zeros();
                if b < a && cols & d != 0 {
                    continue; // tried from b
                }
                if self.grouped(i, free, a, b, line)? {
                    return Some(true);
                }
            }
        }
        Some(false)
    }

    /// [`Cover::try_need`] with the columns `a` and `b` (the same column: alone) grouped first.
    fn grouped(&mut self, i: usize, free: u64, a: u32, b: u32, line: u64) -> Option<bool> {
        self.group[a as usize] = b as u8;
        self.group[b as usize] = a as u8;
        let found = self.try_need(i, free & !(1 << a | 1 << b), a, b, line);
        self.group[a as usize] = u8::MAX;
        self.group[b as usize] = u8::MAX;
        found
    }

    /// Gives line `i` to the group of the columns `a` and `b` (the same column: alone), and
    /// goes on with the next line if the group's game still hits every set it was given.
    fn try_need(&mut self, i: usize, free: u64, a: u32, b: u32, line: u64) -> Option<bool> {
        if *self.budget == 0 {
            return None;
        }
        *self.budget -= 1;
        let cells = self.empty & (column(a) | column(b));
        let low = a.min(b) as u8;
        let group = Group::new(a, b, self.empty);
        let mut needs = [0u8; MAX_NEEDS];
        needs[0] = group.relative(line & cells);
        let mut n = 1;
        for &(l, need) in &self.needs[..self.n_needs] {
            if l == low {
                if n == MAX_NEEDS {
                    return Some(false);
                }
                needs[n] = group.relative(need);
                n += 1;
            }
        }
        if !group.follower_hits_all(&mut needs[..n]) {
            return Some(false);
        }
        self.needs[self.n_needs] = (low, line & cells);
        self.n_needs += 1;
        let found = self.assign(i + 1, free);
        self.n_needs -= 1;
        found
    }
}

/// At most this many sets per group (more: the group counts as failing, which only costs a
/// bound).
const MAX_NEEDS: usize = 12;

/// A group of one or two columns as its game sees it: only how many empty cells each column
/// has matters, so sets of cells are written relative to the columns' lowest empty cells (bits
/// 0-3 the first column's cells from its lowest empty one up, bits 4-7 the second's), and
/// games of the same shape and sets are the same game, which a per-thread cache answers.
struct Group {
    /// Each column's index and the level of its lowest empty cell (4: no column).
    columns: [(u32, u32); 2],
}

/// The levels of a column's cells in `cells`, as bits 0-3 (column `c`).
#[inline]
fn levels(cells: u64, c: u32) -> u32 {
    let x = cells >> c & 0x0001_0001_0001_0001;
    ((x | x >> 15 | x >> 30 | x >> 45) & 0xf) as u32
}

impl Group {
    /// The group of columns `a` and `b` (the same column: alone), each with an empty cell.
    fn new(a: u32, b: u32, empty: u64) -> Self {
        let lowest = |c: u32| levels(empty, c).trailing_zeros();
        let second = if a == b { (b, 4) } else { (b, lowest(b)) };
        Group {
            columns: [(a, lowest(a)), second],
        }
    }

    /// A set of the group's cells, relative to its columns' lowest empty cells.
    #[inline]
    fn relative(&self, cells: u64) -> u8 {
        let [(a, za), (b, zb)] = self.columns;
        let first = levels(cells, a) >> za;
        let second = if zb < 4 { levels(cells, b) >> zb } else { 0 };
        (first | second << 4) as u8
    }

    /// [`follower_hits_all`] for this group and the (relative) sets `needs`, through the
    /// cache: the sets are reduced first (a set holding another is hit whenever that one is),
    /// sorted, and with the shape make the cache's key.
    fn follower_hits_all(&self, needs: &mut [u8]) -> bool {
        needs.sort_unstable_by_key(|n| (n.count_ones(), *n));
        let mut kept = 0;
        for i in 0..needs.len() {
            let n = needs[i];
            if needs[..kept].iter().all(|&m| m & n != m) {
                needs[kept] = n;
                kept += 1;
            }
        }
        // (no set is empty: each is a line's cells in a column of the group)
        let needs = &mut needs[..kept];
        needs.sort_unstable();
        let [(_, za), (_, zb)] = self.columns;
        if needs.len() > 7 {
            return self.play(needs);
        }
        let key = cache_key(za, zb, needs);
        GAME_CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - CACHE_BITS)) as usize;
            if cache[slot].0 == key {
                return cache[slot].1;
            }
            let found = self.play(needs);
            cache[slot] = (key, found);
            found
        })
    }

    /// The game itself, on columns 0 and 1 with this group's shape.
    fn play(&self, needs: &[u8]) -> bool {
        let [(_, za), (_, zb)] = self.columns;
        let cells = |rel: u8| {
            let mut out = 0u64;
            for k in 0..4 {
                if rel >> k & 1 != 0 && za + k < 4 {
                    out |= 1 << (16 * (za + k));
                }
                if rel >> (4 + k) & 1 != 0 && zb + k < 4 {
                    out |= 2 << (16 * (zb + k));
                }
            }
            out
        };
        let all = cells(0xff);
        let columns = [column(0), if zb < 4 { column(1) } else { 0 }];
        let mut sets = [0u64; MAX_NEEDS];
        for (set, &n) in sets.iter_mut().zip(needs) {
            *set = cells(n);
        }
        follower_hits_all(columns, all, 0, 0, &sets[..needs.len()])
    }
}

/// The game cache's key of a group's shape (the levels of its columns' lowest empty cells, 4:
/// no second column) and its reduced, sorted sets (at most 7, none empty): the sets in the low
/// 56 bits, the shape and the number of sets above them, so that different games never share a
/// key (and no key is 0, the empty slot's).
fn cache_key(za: u32, zb: u32, needs: &[u8]) -> u64 {
    debug_assert!(!needs.is_empty() && needs.len() <= 7 && za < 4 && zb <= 4);
    let sets = needs.iter().fold(0u64, |k, &n| k << 8 | n as u64);
    (needs.len() as u64) << 61 | (za as u64) << 59 | (zb as u64) << 56 | sets
}

/// Bits of the game cache's index: 64 K entries of 16 bytes per thread.
const CACHE_BITS: u32 = 16;

thread_local! {
    /// Pair games already played, by key (shape and sets, see [`Group::follower_hits_all`]).
    static GAME_CACHE: std::cell::RefCell<Vec<(u64, bool)>> =
        std::cell::RefCell::new(vec![(0, false); 1 << CACHE_BITS]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cube::geometry::BOTTOM;
    use crate::util::rng::xorshift as rng;

    /// The cell of column `c` (0..16) on level `z`.
    fn at(c: u32, z: u32) -> u64 {
        1 << (c + 16 * z)
    }

    /// Two odd columns a = 0 and b = 5, each empty from level 1 up (L, M, U on levels 1-3):
    /// the pair strategies of Allis are found, and what no strategy can do is refused.
    #[test]
    fn the_named_strategies_are_found_and_the_impossible_refused() {
        let (a, b) = (0, 5);
        let columns = [column(a), column(b)];
        let left = (columns[0] | columns[1]) & !BOTTOM;
        let [la, ma, ua] = [1, 2, 3].map(|z| at(a, z));
        let [lb, mb, ub] = [1, 2, 3].map(|z| at(b, z));
        let wins = |needs: &[u64]| follower_hits_all(columns, left, 0, 0, needs);
        // baseinverse with claimeven above: one of the bases, both upper cells
        assert!(wins(&[la | lb, ua, ub]));
        // level pairs: one cell of each level
        assert!(wins(&[la | lb, ma | mb, ua | ub]));
        // lowinverse: one cell of each vertical (L, M), one of the two M, and one of the two U
        assert!(wins(&[la | ma, lb | mb, ma | mb, ua | ub]));
        // highinverse: the two U, the two M, each column's M and U, a lower cell with the other
        // column's upper cell
        assert!(wins(&[
            ua | ub,
            ma | mb,
            ma | ua,
            mb | ub,
            la | ub,
            lb | ua
        ]));
        // impossible: both bases (S takes one first); both middle cells (S plays La, and if F
        // follows up with Ma, S plays Ua, leaving F only Lb below Mb)
        assert!(!wins(&[la, lb]));
        assert!(!wins(&[ma, mb]));
    }

    /// Different games never share a cache key (a shape with fewer sets once collided with a
    /// shape of zero with one set more).
    #[test]
    fn cache_keys_tell_games_apart() {
        let mut seen = std::collections::HashMap::new();
        let mut seed = 0x6a3e_u64;
        for _ in 0..200_000 {
            let r = rng(&mut seed);
            let (za, zb) = ((r % 4) as u32, ((r >> 2) % 5) as u32);
            let n = 1 + ((r >> 5) % 7) as usize;
            let mut needs: Vec<u8> = (0..n).map(|k| (r >> (8 + 7 * k)) as u8 | 1).collect();
            needs.sort_unstable();
            let game = (za, zb, needs.clone());
            let key = cache_key(za, zb, &needs);
            assert_ne!(key, 0);
            assert_eq!(*seen.entry(key).or_insert(game.clone()), game);
        }
        assert_ne!(cache_key(0, 1, &[5]), cache_key(0, 0, &[1, 5]));
    }

    /// The pair game against a brute force over every way the pair can fill up: F has a
    /// strategy exactly when the game search says so (the brute force: F wins a position, S to
    /// move, when for every S move some F answer wins; written over explicit move lists).
    #[test]
    fn the_pair_game_matches_a_plain_game_tree() {
        fn plain(cells: &[Vec<u64>; 2], h: [usize; 2], s: u64, f: u64, needs: &[u64]) -> bool {
            let moves = |h: [usize; 2]| {
                (0..2)
                    .filter(|&k| h[k] < cells[k].len())
                    .collect::<Vec<_>>()
            };
            if moves(h).is_empty() {
                return needs.iter().all(|&n| n & f != 0);
            }
            moves(h).into_iter().all(|k| {
                let mut h1 = h;
                let s1 = s | cells[k][h1[k]];
                h1[k] += 1;
                moves(h1).into_iter().any(|j| {
                    let mut h2 = h1;
                    let f1 = f | cells[j][h2[j]];
                    h2[j] += 1;
                    plain(cells, h2, s1, f1, needs)
                })
            })
        }
        let mut seed = 0x0c01_9a3e_u64;
        let mut outcomes = [0; 2];
        for _ in 0..3000 {
            let r = rng(&mut seed);
            // empties 1 + 1, 1 + 3, 3 + 3, 2 + 2, 2 + 4, 4 + 4
            let shapes = [(3, 3), (3, 1), (1, 1), (2, 2), (2, 0), (0, 0)];
            let (za, zb) = shapes[(r % 6) as usize];
            let (a, b) = (((r >> 8) % 16) as u32, ((r >> 12) % 16) as u32);
            if a == b {
                continue;
            }
            let columns = [column(a), column(b)];
            let cells = [
                (za..4).map(|z| at(a, z)).collect::<Vec<_>>(),
                (zb..4).map(|z| at(b, z)).collect::<Vec<_>>(),
            ];
            let left = cells.iter().flatten().fold(0, |m, &c| m | c);
            let mut needs = Vec::new();
            for _ in 0..1 + (r >> 20) % 5 {
                let n = left & rng(&mut seed) & rng(&mut seed);
                if n != 0 {
                    needs.push(n);
                }
            }
            let fast = follower_hits_all(columns, left, 0, 0, &needs);
            assert_eq!(fast, plain(&cells, [0, 0], 0, 0, &needs), "{needs:x?}");
            outcomes[fast as usize] += 1;
        }
        assert!(outcomes.iter().all(|&n| n >= 300), "{outcomes:?}");
    }
}
