//! Victory by continuous forcing: wins in which every move of the winner leaves the loser exactly
//! one reply that does not lose at once.
//!
//! Most wins in Qubic and Sogo end in such a chain (a threat, a forced block, another threat, ...
//! until two threats come at once), and finding one needs only the forcing moves, a handful per
//! position instead of dozens: this is the cheap leaf test of the proof-number search
//! ([`crate::search::proof`]), after Allis' threat-space search. It is written against the
//! [`Game`] contract alone: "forced" means [`Game::non_losing_moves`] returns a single move, which
//! that contract makes exact, so a `true` answer is a proof. A `false` answer only means no
//! forcing win was found within the budget.
//!
//! **Lines that end in a zugzwang.** Where the game's static bounds can prove a loss
//! ([`Game::bounds_may_prove_loss_after_move`]: Sogo's pairing strategies, in which the follower
//! wins by a column the mover must not play under), a forcing move after which the static
//! bounds prove that the defender, now to move, loses ([`Game::static_loss`]) also ends the line: the
//! bound is a strategy that wins against every defence, so the line is a win as surely as one
//! ending in two threats. In Sogo such lines are the common shape of a win: threats and forced
//! blocks until the attacker holds a threat the defender may never play under.

use crate::game::{Bits, Game};
use crate::util::prefetch::prefetch;
use std::mem::MaybeUninit;

/// The longest forcing line remembered: one attacking move per two cells.
const MAX_LINE: usize = 32;
/// Slots of the cache of positions without a forcing win (16 bytes each).
const FAILED_SLOTS: usize = 1 << 16;

/// Bytes of one forcing-win search's memory (failed positions and kept lines).
pub const FORCING_BYTES: u64 = (FAILED_SLOTS * 8 + LINES_KEPT * MAX_LINE * 8) as u64;
/// Winning lines remembered for replay: a failed replay costs a few plays, a search it saves
/// dozens of attacking moves, so a few lines pay; with many, the failed replays add up.
const LINES_KEPT: usize = 16;

/// A forcing-win search with two memories that make repeated calls cheap: the last few winning
/// lines (siblings in a proof tree usually fall to one of a few attacks, which are replayed and
/// checked in a few plays each before any search), and a cache of positions known to have no forcing win (the
/// same threats played in other orders reach them again and again). Neither memory can make a
/// wrong `true`: a replayed line is checked move by move against the game's rules, and the cache
/// only cuts off searches. One instance serves one game and board size.
pub struct ForcingSearch {
    /// Attacking moves the search may try per call.
    pub budget: u32,
    /// The last winning lines found, in slots (`line_len` 0: empty); `order` lists the slots
    /// from the most recently found or replayed one (which [`ForcingSearch::line_cells`] reads)
    /// to the oldest, which the next line found replaces. Reordering moves slot numbers, not
    /// lines. On the heap (4 KiB), so that lending the search out is cheap.
    lines: Vec<[u64; MAX_LINE]>,
    line_len: [usize; LINES_KEPT],
    order: [u8; LINES_KEPT],
    scratch: [u64; MAX_LINE],
    failed: Vec<u128>,
    /// Whether the last call that answered `false` searched every forcing line (the budget
    /// was not used up): then there is no forcing win at all.
    pub complete: bool,
    /// Whether lines may end in a position the static bounds prove lost for the defender (see
    /// the module's doc); on by default, off where a solver's settings say so.
    pub zugzwang_ends: bool,
}

impl ForcingSearch {
    /// A search trying at most `budget` attacking moves per call.
    pub fn new(budget: u32) -> Self {
        Self::with_memory(budget, LINES_KEPT, FAILED_SLOTS)
    }

    /// A search with this one's settings (budget, zugzwang ends) and empty memories, for
    /// another thread.
    pub fn fresh(&self) -> Self {
        let mut search = Self::new(self.budget);
        search.follow(self);
        search
    }

    /// Takes `leader`'s settings (budget, zugzwang ends), keeping its own memories: a helper
    /// thread's search kept from an earlier question follows the one it helps now.
    pub fn follow(&mut self, leader: &ForcingSearch) {
        self.budget = leader.budget;
        self.zugzwang_ends = leader.zugzwang_ends;
    }

    /// The same search with lines ending in a zugzwang allowed or not (see the module's doc).
    pub fn with_zugzwang_ends(mut self, on: bool) -> Self {
        self.zugzwang_ends = on;
        self
    }

    /// A stand-in holding no memory (nothing allocated), for the time a search is lent out
    /// (see `Searcher::with_forcing`); it must be swapped back before it is asked anything.
    pub fn stand_in() -> Self {
        Self::with_memory(0, 0, 0)
    }

    fn with_memory(budget: u32, lines: usize, failed_slots: usize) -> Self {
        ForcingSearch {
            budget,
            lines: vec![[0; MAX_LINE]; lines],
            line_len: [0; LINES_KEPT],
            order: std::array::from_fn(|i| i as u8),
            scratch: [0; MAX_LINE],
            failed: vec![0; failed_slots],
            complete: false,
            zugzwang_ends: true,
        }
    }

    /// Whether the side to move at `g` wins by forcing moves (or at once). `false` only means
    /// none was found within the budget.
    pub fn wins<G: Game>(&mut self, g: &G) -> bool {
        self.search(g, true)
    }

    /// [`ForcingSearch::wins`] for a caller that has already found that no move of `g` leaves
    /// the defender a position [`Game::static_loss`] proves lost: the first moves' bounds are
    /// not asked again (the same answer, without the costliest of the repeated work).
    pub fn wins_past_bounds<G: Game>(&mut self, g: &G) -> bool {
        self.search(g, false)
    }

    /// [`ForcingSearch::wins`]; `first_bounds`: whether the first moves' static losses are asked.
    fn search<G: Game>(&mut self, g: &G, first_bounds: bool) -> bool {
        self.complete = false;
        if g.ply() >= g.max_ply() {
            return false;
        }
        if g.winning_moves() != 0 {
            return true;
        }
        for k in 0..LINES_KEPT {
            let slot = self.order[k] as usize;
            if self.line_len[slot] == 0 {
                break;
            }
            if self.replay(g, slot, first_bounds) {
                // the line that worked goes first: `line_cells` reads it
                self.order[..=k].rotate_right(1);
                return true;
            }
        }
        let mut budget = self.budget;
        if self.chain(g, &mut budget, 0, first_bounds) {
            return true;
        }
        self.complete = budget > 0;
        false
    }

    /// The cells the last winning line found uses when played from `g` (the position it was
    /// found in): the attacking moves, the forced replies and the final winning cells. A
    /// defender who wants to stop that attack must play on one of them (or make a threat of
    /// his own), which is what makes it a measure of how many defences a position has. (A
    /// line that ends in a zugzwang has no winning cells, and may also be stopped elsewhere,
    /// by a move that changes who is in zugzwang: the measure is then a guess, which is all
    /// the proof search asks of it.)
    pub fn line_cells<G: Game>(&self, g: &G) -> u64 {
        let mut pos = *g;
        let mut cells = 0;
        let slot = self.order[0] as usize;
        for &mv in &self.lines[slot][..self.line_len[slot]] {
            if pos.ply() + 2 >= pos.max_ply() || mv & pos.playable() == 0 {
                return cells;
            }
            cells |= mv;
            pos.play(mv);
            if pos.winning_moves() != 0 {
                return cells;
            }
            let replies = pos.non_losing_moves();
            if replies == 0 || replies & (replies - 1) != 0 {
                return cells;
            }
            cells |= replies;
            pos.play(replies);
            if pos.winning_moves() != 0 {
                // the attacker's winning cells after the last forced reply
                return cells | pos.winning_moves();
            }
        }
        cells
    }

    /// Plays the attacking moves of the line in `slot` that are still legal, each followed by
    /// the defender's only non-losing reply; true if that wins (`first_bounds`: as in
    /// [`ForcingSearch::search`]).
    fn replay<G: Game>(&self, g: &G, slot: usize, first_bounds: bool) -> bool {
        let mut pos = *g;
        let line = &self.lines[slot][..self.line_len[slot]];
        for (i, &mv) in line.iter().enumerate() {
            if pos.ply() + 2 >= pos.max_ply() || mv & pos.non_losing_moves() == 0 {
                return false;
            }
            let bounded = self.zugzwang_ends && pos.bounds_may_prove_loss_after_move();
            pos.play(mv);
            let replies = pos.non_losing_moves();
            if replies == 0 {
                return true;
            }
            // the line may end here in a zugzwang (see the module's doc): where it ended when
            // it was found, or where it stops forcing in this position
            let stops = i + 1 == line.len() || replies & (replies - 1) != 0;
            if bounded && stops && (i > 0 || first_bounds) && pos.static_loss() {
                return true;
            }
            if replies & (replies - 1) != 0 {
                return false;
            }
            pos.play(replies);
            if pos.winning_moves() != 0 {
                return true;
            }
        }
        false
    }

    #[inline]
    fn slot(id: u128) -> usize {
        let h = (id as u64 ^ (id >> 64) as u64 ^ (id >> 101) as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> (64 - FAILED_SLOTS.trailing_zeros())) as usize
    }

    /// Notes the attacking move `mv` of a winning line at `depth` (`ends_here`: the line has
    /// no deeper move; otherwise the deeper moves are already in `scratch`); at depth 0 the
    /// line becomes the one replayed first next time.
    fn record(&mut self, depth: usize, mv: u64, ends_here: bool) {
        self.scratch[depth] = mv;
        if ends_here && depth + 1 < MAX_LINE {
            self.scratch[depth + 1] = 0;
        }
        if depth == 0 {
            let len = (0..MAX_LINE)
                .position(|i| self.scratch[i] == 0)
                .unwrap_or(MAX_LINE);
            self.order.rotate_right(1);
            let slot = self.order[0] as usize;
            self.lines[slot] = self.scratch;
            self.line_len[slot] = len;
        }
    }

    /// The search for a position whose side to move has no immediate win; on success the
    /// winning line from `depth` on is in `scratch` and copied to `line` at depth 0. `bounds`:
    /// whether this position's moves may end the line in a zugzwang not yet ruled out.
    fn chain<G: Game>(&mut self, g: &G, budget: &mut u32, depth: usize, bounds: bool) -> bool {
        // The winning stone comes at least two plies from now (attack, forced reply, win): with
        // the attack at ply p, the win is placed at ply p + 2, which must still be on the board.
        if g.ply() + 2 >= g.max_ply() || depth >= MAX_LINE {
            return false;
        }
        // the failure cache is read after the candidates are found: its line loads meanwhile
        let id = g.id();
        let slot = Self::slot(id);
        prefetch(&self.failed[slot]);
        let moves = g.non_losing_moves() & g.forcing_candidates();
        if moves == 0 {
            return false;
        }
        if self.failed[slot] == id {
            return false;
        }
        // First pass: a move that leaves no reply, or whose forced reply leaves an immediate
        // win, or after which the bounds prove the defender lost, ends the line here (the
        // cheapest wins are found before any deeper search).
        // the positions after each forcing move and its reply, kept for the second pass
        // (uninitialised storage: `G` is `Copy`, and only the first `count` are read)
        let mut forced = [MaybeUninit::<G>::uninit(); 64];
        let mut count = 0;
        let mut moves_of = [0u64; 64];
        // whether a move may end the line in a zugzwang the bounds prove (see the module's doc)
        let bounded = bounds && self.zugzwang_ends && g.bounds_may_prove_loss_after_move();
        for mv in Bits(moves) {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let mut attacked = *g;
            attacked.play(mv);
            // `non_losing_moves` is exact, so the defender has no immediate win here
            let replies = attacked.non_losing_moves();
            let wins_at_once = if replies == 0 {
                // every legal reply (there are some: the board is not full) lets the attacker
                // complete a line at ply p + 2, which is on the board
                true
            } else if replies & (replies - 1) == 0 {
                let mut answered = attacked;
                answered.play(replies);
                if answered.winning_moves() != 0 {
                    true
                } else {
                    moves_of[count] = mv;
                    forced[count].write(answered);
                    count += 1;
                    false
                }
            } else {
                false
            };
            // forced or not, the defender may be in a zugzwang the bounds prove (the module's
            // doc); asked last, as it costs the most
            if wins_at_once || bounded && attacked.static_loss() {
                self.record(depth, mv, true);
                return true;
            }
        }
        // Second pass: continue the attack after each forced reply.
        for (i, &mv) in moves_of[..count].iter().enumerate() {
            // SAFETY: the first pass wrote `forced[i]` for every `i < count`.
            let answered = unsafe { forced[i].assume_init() };
            if self.chain(&answered, budget, depth + 1, true) {
                self.record(depth, mv, false);
                return true;
            }
        }
        if *budget > 0 {
            self.failed[slot] = id;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Connect4, Cube, Rules};
    use crate::search::reference::minimax;
    use crate::util::random_play::{careful, careful_positions};
    use crate::util::rng::xorshift;

    /// A forcing win is a win: every `true` is checked against plain minimax, on boards small
    /// enough for it, and some `true`s must occur for the test to mean anything. One search
    /// serves all positions, so its failure cache and line replay are exercised too.
    fn forcing_wins_are_wins<G: Game>(start: G, empty: u32, count: usize, seed: u64) -> usize {
        let mut search = ForcingSearch::new(100_000);
        let mut found = 0;
        for g in careful_positions(start, empty, count, seed) {
            if search.wins(&g) {
                found += 1;
                assert!(minimax(&g) > 0, "forcing win that is not a win");
            }
        }
        found
    }

    #[test]
    fn forcing_wins_are_wins_connect4() {
        let found = forcing_wins_are_wins(Connect4::new(5, 4).unwrap(), 11, 1500, 7);
        assert!(found > 8, "only {found} forcing wins in 1500 positions");
    }

    #[test]
    fn forcing_wins_are_wins_cube() {
        for (rules, seed) in [(Rules::Sogo, 3), (Rules::SogoPoison, 5), (Rules::Qubic, 9)] {
            let found = forcing_wins_are_wins(Cube::new(rules), 10, 150, seed);
            assert!(found > 10, "{rules:?}: only {found} forcing wins in 150");
        }
    }

    /// Lines that end in a zugzwang (see the module's doc) are wins: every position where the
    /// search finds a win only with them is checked against plain minimax, some must occur,
    /// and a search with them finds every win one without finds.
    #[test]
    fn lines_ending_in_a_zugzwang_are_wins() {
        let mut with = ForcingSearch::new(100_000);
        let mut without = ForcingSearch::new(100_000);
        without.zugzwang_ends = false;
        let mut only_with = 0;
        for empty in [10, 12] {
            for g in careful_positions(Cube::new(Rules::Sogo), empty, 400, 31 + empty as u64) {
                let (w, wo) = (with.wins(&g), without.wins(&g));
                assert!(w || !wo, "{}: a win lost", g.to_hex());
                if w && !wo {
                    only_with += 1;
                    assert!(minimax(&g) > 0, "{}: not a win", g.to_hex());
                }
            }
        }
        assert!(
            only_with > 10,
            "only {only_with} wins that end in a zugzwang"
        );
    }

    /// The claim behind `Game::defence_is_monotone` (Qubic): when the attacker has no forcing
    /// win even if the defender passes (a complete search), no defender move gives him one.
    /// Checked with complete searches over random positions; some must have a forcing win
    /// after the pass, and some none, for the test to mean anything.
    #[test]
    fn a_defender_stone_never_creates_a_forcing_win_in_qubic() {
        let mut search = ForcingSearch::new(1_000_000);
        let mut seed = 21;
        let (mut none_after_pass, mut some_after_pass) = (0, 0);
        while none_after_pass < 150 {
            let empty = 64 - 8 - (xorshift(&mut seed) % 32) as u32;
            let Some(g) = careful(Cube::new(Rules::Qubic), empty, &mut seed) else {
                continue;
            };
            assert!(g.defence_is_monotone());
            let passed = g.null_move().expect("Qubic can pass");
            if search.wins(&passed) {
                some_after_pass += 1;
                continue;
            }
            assert!(search.complete, "budget too small for a complete search");
            none_after_pass += 1;
            for mv in Bits(g.non_losing_moves()) {
                let mut child = g;
                child.play(mv);
                assert!(
                    !search.wins(&child),
                    "{}: {} creates a forcing win",
                    g.to_hex(),
                    g.move_name(mv)
                );
            }
        }
        assert!(
            some_after_pass > 10,
            "only {some_after_pass} positions with a threat"
        );
    }
}
