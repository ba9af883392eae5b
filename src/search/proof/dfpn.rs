//! The df-pn engine: questions, numbers, expansion.

use super::parallel::busy_slot;
use super::{
    ChildCache, Halt, Numbers, ProofSearch, ProofTable, Question, FAILS, INFINITE, SUCCEEDS,
};
use super::{DEFAULT_ORDER_BIAS, DEFAULT_VCF_BUDGET, ENDGAME_FORCING_MIN_EMPTY};
use crate::game::{Bits, Game, Player};
use crate::search::negamax::{Searcher, Stopped};
use crate::search::vcf::ForcingSearch;
use crate::search::MemoryTable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Nodes between two looks at the stop flag and two progress reports.
const TICK: u64 = 1 << 12;

impl<'t> ProofSearch<'t> {
    /// A search using `table` (entries of earlier questions stay valid: they are tagged).
    pub fn new(table: &'t ProofTable) -> Self {
        Self::with_parts(
            table,
            ForcingSearch::new(DEFAULT_VCF_BUDGET),
            ChildCache::new(),
        )
    }

    /// A search using `table` with the given forcing-win search and cache of children.
    pub(super) fn with_parts(
        table: &'t ProofTable,
        forcing: ForcingSearch,
        child_cache: ChildCache,
    ) -> Self {
        ProofSearch {
            table,
            nodes: 0,
            forcing,
            forcing_wins: 0,
            endgame: None,
            endgame_nodes: 0,
            split_choices: 0,
            first_question: None,
            attacker: Player::First,
            node_limit: u64::MAX,
            proof_limit: INFINITE,
            order_bias: DEFAULT_ORDER_BIAS,
            stop: None,
            progress: None,
            unreported: 0,
            threads: 1,
            shared: None,
            zone_guess: None,
            child_cache,
            helpers: Vec::new(),
            settled: None,
            record_min_work: 0,
            settled_hits: 0,
            recorded: 0,
            root_report: None,
            report_line: super::ReportLine::at(0),
            replay_budget: 0,
            replay_proofs: 0,
        }
    }

    /// Publishes the numbers of each question's root and how its moves stand in `report` as
    /// they change, for a progress display.
    pub fn with_root_report(mut self, report: &'t super::RootReport) -> Self {
        self.root_report = Some(report);
        self
    }

    /// Finds the threat zone of an attacker's move (see `evaluate`) only when the search is
    /// about to enter the position it leads to, counting it as `guess` defences until then;
    /// `None` finds every zone when the attacker's position is first expanded. Most moves of
    /// an attacker's position are never entered, and each zone costs a forcing-win search;
    /// a guess near the zone of a typical good move lets the searched moves' real zones
    /// decide which to enter next. Changes the speed, never the answer (see
    /// `crate::solver::games::cube::QUBIC_ZONE_GUESS`).
    pub fn with_zone_guess(mut self, guess: Option<u32>) -> Self {
        self.zone_guess = guess.map(|g| g.max(1));
        self
    }

    /// Searches each question with `threads` threads sharing the table (1: no helpers). The
    /// threads follow the same best path down to the first defender position whose most
    /// promising move another thread is already in, and there take the next one: every
    /// defence must be refuted for a proof, so that work is rarely wasted, while at the
    /// attacker's positions only the best move pays. Changes the speed, never the answer.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Once a move of a position is proved to fail, tries to prove each of its open siblings
    /// by replaying that proof, expanding at most `budget` positions per replay (0: never; see
    /// `simulation`). Changes the speed, never the answer.
    pub fn with_replays(mut self, budget: u32) -> Self {
        self.replay_budget = budget;
        self
    }

    /// Lets the forcing-win tests end a line of threats in a zugzwang the static bounds prove
    /// (see [`crate::search::vcf`]), or not.
    pub fn with_zugzwang_lines(mut self, on: bool) -> Self {
        self.forcing.zugzwang_ends = on;
        self
    }

    /// Lets the forcing-win test try `budget` attacking moves per leaf (more finds more wins
    /// and costs more per leaf).
    pub fn with_vcf_budget(mut self, budget: u32) -> Self {
        self.forcing.budget = budget;
        self
    }

    /// Settles every leaf with at most `empty` empty cells by alpha-beta (a null-window
    /// negamax with `table`): near the end of a long game, alpha-beta with its static bounds
    /// and move ordering settles a subtree for less than proof-number search spends on it
    /// node by node (gravity games, where wins come from parity rather than threats).
    pub fn with_endgame(mut self, table: &'t MemoryTable, empty: u32) -> Self {
        self.endgame = Some((table, empty));
        self
    }

    /// Makes [`ProofSearch::value`] settle `question` completely before it looks at the other
    /// (instead of letting their proof numbers choose): for positions whose likely value is
    /// known, such as a game known to be a first-player win, this saves what the other question
    /// costs until the numbers turn against it, and cannot change the answer when the guess is
    /// wrong.
    pub fn with_first_question(mut self, question: Question) -> Self {
        self.first_question = Some(question);
        self
    }

    /// Sets how strongly the search prefers better-ordered moves: the `i`-th child's number
    /// counts `1 + i / k` times (`k` at least 1; see [`DEFAULT_ORDER_BIAS`]). Changes the
    /// speed, never the answer.
    pub fn with_order_bias(mut self, k: u64) -> Self {
        self.order_bias = k.max(1);
        self
    }

    /// Lets another thread stop this search by setting `flag`.
    pub fn with_stop(mut self, flag: &'t AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Reports progress by adding expanded nodes to `counter` now and then.
    pub fn with_progress(mut self, counter: &'t AtomicU64) -> Self {
        self.progress = Some(counter);
        self
    }

    /// Whether `attacker` wins from `g` against every defence.
    pub fn side_wins<G: Game>(&mut self, g: &G, attacker: Player) -> Result<bool, Stopped> {
        self.node_limit = u64::MAX;
        self.attacker_wins(g, attacker).map_err(|_| Stopped)
    }

    /// The value of `g` for the side to move: 1 win, 0 draw, -1 loss, from the two questions
    /// "do I win?" and "does the opponent win?" (a draw is two disproofs). Unless a first
    /// question is set, they are searched as the two children of one node "either side wins"
    /// ([`ProofSearch::settle_both`]), so the work goes where a proof looks closest.
    pub fn value<G: Game>(&mut self, g: &G) -> Result<i32, Stopped> {
        if g.ply() < g.max_ply() && g.winning_moves() != 0 {
            return Ok(1);
        }
        let me = Player::of_ply(g.ply());
        let mut answers = [None, None];
        if let Some(first) = self.first_question {
            let q = usize::from(first == Question::OpponentWins);
            self.node_limit = u64::MAX;
            let attacker = if q == 0 { me } else { me.other() };
            match self.attacker_wins(g, attacker) {
                Ok(true) => return Ok(if q == 0 { 1 } else { -1 }),
                Ok(false) => answers[q] = Some(false),
                Err(_) => return Err(Stopped),
            }
        }
        self.settle_both(g, &mut answers)?;
        Ok(match answers {
            [Some(true), _] => 1,
            [_, Some(true)] => -1,
            _ => 0,
        })
    }

    /// Settles the open ones of `answers` to "does the side to move of `g` win?" and "does
    /// the opponent?" until one is a win or both are settled, as df-pn would at a node whose
    /// children are the two questions and which is proved when either is: the question with
    /// the smaller root proof number is searched until its number passes the other's (df-pn's
    /// threshold), then the other, and so on; a disproved question leaves the other alone.
    /// Where one side's win is much closer than the other's, nearly all the work goes to it,
    /// as if `--first` had guessed right; the node budgets of [`ProofSearch::settle_in_turns`]
    /// gave the wrong question as many nodes as the right one. A question paused at its limit
    /// keeps that limit as its number (a lower bound of it): read back from the table, the
    /// root's entry may be gone, and its fresh first numbers would send the search back to it
    /// for one expansion at a time.
    fn settle_both<G: Game>(
        &mut self,
        g: &G,
        answers: &mut [Option<bool>; 2],
    ) -> Result<(), Stopped> {
        let me = Player::of_ply(g.ply());
        let attackers = [me, me.other()];
        self.node_limit = u64::MAX;
        let mut proofs = [INFINITE; 2];
        for q in 0..2 {
            if answers[q].is_none() {
                proofs[q] = self.root_proof(g, attackers[q]).map_err(|_| Stopped)?;
            }
        }
        let result = loop {
            let q = match answers {
                [None, None] => usize::from(proofs[1] < proofs[0]),
                [None, _] => 0,
                [_, None] => 1,
                _ => break Ok(()),
            };
            // the other question's number plus one, or no limit once it is settled
            self.proof_limit = match answers[1 - q] {
                None => proofs[1 - q].saturating_add(1).min(INFINITE),
                Some(_) => INFINITE,
            };
            match self.attacker_wins(g, attackers[q]) {
                Ok(wins) => {
                    answers[q] = Some(wins);
                    if wins {
                        break Ok(());
                    }
                }
                Err(Halt::Limit) => proofs[q] = self.proof_limit,
                Err(Halt::Stopped | Halt::Abandoned) => break Err(Stopped),
            }
        };
        self.proof_limit = INFINITE;
        result
    }

    /// Settles the open `answers` to the questions "does `attacker` win from `position`?" in
    /// turns with doubling node budgets, until all are settled or `enough` says of the answer
    /// just found that the others are not needed. Each question then costs about what settling
    /// it costs, and no hard question is searched to the end while an easy one that would have
    /// been enough waits ([`ProofSearch::best_moves`]' candidates, positions of different
    /// trees whose proof numbers do not compare).
    pub(super) fn settle_in_turns<G: Game>(
        &mut self,
        questions: &[(G, Player)],
        answers: &mut [Option<bool>],
        mut enough: impl FnMut(bool) -> bool,
    ) -> Result<(), Stopped> {
        // First what the table and the store settle without an expansion, every question in
        // turn: a re-run on a table that holds the proof (a committed proof, a finished long
        // solve) names the move the proof used at no cost, even where questions before it in
        // the move order are open and would each have taken a turn's budget. `root_numbers`
        // only evaluates (it never expands, so no node limit applies); the table keeps each
        // question's first numbers for its turns.
        for (answer, (position, attacker)) in answers.iter_mut().zip(questions) {
            if answer.is_some() {
                continue;
            }
            *answer = self
                .root_question(position, *attacker)
                .map_err(|_| Stopped)?
                .answer();
            if answer.is_some_and(&mut enough) {
                return Ok(());
            }
        }
        let mut budget = 1u64 << 14;
        while answers.iter().any(Option::is_none) {
            for (answer, (position, attacker)) in answers.iter_mut().zip(questions) {
                if answer.is_some() {
                    continue;
                }
                self.node_limit = self.nodes.saturating_add(budget);
                match self.attacker_wins(position, *attacker) {
                    Ok(wins) => {
                        *answer = Some(wins);
                        if enough(wins) {
                            return Ok(());
                        }
                    }
                    Err(Halt::Limit) => {}
                    Err(Halt::Stopped | Halt::Abandoned) => return Err(Stopped),
                }
            }
            budget = budget.saturating_mul(2);
        }
        Ok(())
    }

    fn attacker_wins<G: Game>(&mut self, g: &G, attacker: Player) -> Result<bool, Halt> {
        self.attacker = attacker;
        if self.threads > 1 && self.shared.is_none() {
            self.attacker_wins_in_parallel(g)
        } else {
            self.attacker_wins_here(g)
        }
    }

    /// The question of [`ProofSearch::attacker_wins`] in this thread, until it is settled or
    /// the root's proof number reaches the proof limit.
    pub(super) fn attacker_wins_here<G: Game>(&mut self, g: &G) -> Result<bool, Halt> {
        let attacker_to_move = Player::of_ply(g.ply()) == self.attacker;
        let tag = self.tag(g);
        self.report_line = super::ReportLine::at(tag);
        // the root may go on until its proof number reaches the limit
        let limit = Numbers {
            proof: self.proof_limit,
            disproof: INFINITE,
        };
        let (th_phi, th_delta) = limit.to_mover(attacker_to_move);
        loop {
            let (phi, delta) = self.root_numbers(g, tag)?;
            let numbers = Numbers::from_mover(phi, delta, attacker_to_move);
            if let Some(wins) = numbers.answer() {
                return Ok(wins);
            }
            if numbers.proof >= limit.proof {
                return Err(Halt::Limit);
            }
            self.mid(g, tag, th_phi, th_delta)?;
        }
    }

    /// The numbers of a question's root `g` (tagged `tag`) for its side to move: from the
    /// table, else its first numbers, stored (the root is never a child whose parent did so).
    pub(super) fn root_numbers<G: Game>(&mut self, g: &G, tag: u64) -> Result<(u32, u32), Halt> {
        if let Some(numbers) = self.table.probe(tag) {
            return Ok(numbers);
        }
        let numbers = self.evaluate(g, tag, false, true)?;
        self.table.store(tag, numbers.0, numbers.1, 0);
        Ok(numbers)
    }

    /// The root's proof number of "does `attacker` win from `g`?" ([`ProofSearch::root_numbers`]).
    fn root_proof<G: Game>(&mut self, g: &G, attacker: Player) -> Result<u32, Halt> {
        Ok(self.root_question(g, attacker)?.proof)
    }

    /// The numbers of "does `attacker` win from `g`?" at the root, from the attacker's side
    /// ([`ProofSearch::root_numbers`]: the table, the store or the first evaluation; no
    /// expansion).
    fn root_question<G: Game>(&mut self, g: &G, attacker: Player) -> Result<Numbers, Halt> {
        self.attacker = attacker;
        let tag = self.tag(g);
        let (phi, delta) = self.root_numbers(g, tag)?;
        Ok(Numbers::from_mover(
            phi,
            delta,
            Player::of_ply(g.ply()) == attacker,
        ))
    }

    #[inline]
    pub(super) fn tag<G: Game>(&self, g: &G) -> u64 {
        super::question_tag(g.key(), self.attacker)
    }

    /// Settles `g` if a cheap proof exists, else gives its first numbers: phi 1 and delta the
    /// number of moves (all of them must fail for the side to move to fail). For the defender
    /// to move, delta counts only the moves that can stop the attacker's forcing win if the
    /// defender passed (the cells of that line): a position with such a threat has few
    /// defences, and the other moves usually fall to the same attack at once.
    pub(super) fn evaluate<G: Game>(
        &mut self,
        g: &G,
        tag: u64,
        no_forcing_win: bool,
        with_zone: bool,
    ) -> Result<(u32, u32), Halt> {
        let attacker_to_move = Player::of_ply(g.ply()) == self.attacker;
        // what the side to move gets from a game that ends without a winner
        let no_winner = if attacker_to_move { FAILS } else { SUCCEEDS };
        if g.ply() >= g.max_ply() {
            return Ok(no_winner);
        }
        if g.winning_moves() != 0 {
            return Ok(SUCCEEDS);
        }
        if g.ply() + 1 >= g.max_ply() {
            // the last cell, and it does not win: a draw
            return Ok(no_winner);
        }
        let moves = g.non_losing_moves();
        if moves == 0 {
            // every move lets the opponent complete a line on the next stone
            return Ok(FAILS);
        }
        if let Some(numbers) = self.settled_numbers(g, tag) {
            return Ok(numbers);
        }
        let (lo, hi) = g.static_bounds();
        if attacker_to_move && hi <= 0 {
            return Ok(FAILS);
        }
        if !attacker_to_move && lo >= 0 {
            return Ok(SUCCEEDS);
        }
        // bounds that decide the question the other way: the attacker to move surely wins, the
        // defender to move surely loses
        if attacker_to_move && lo > 0 {
            return Ok(SUCCEEDS);
        }
        if !attacker_to_move && hi < 0 {
            return Ok(FAILS);
        }
        // A move after which the defender's static bounds prove his loss (Sogo's pairing
        // strategies with the attacker as follower): a win found without a forcing-win search
        // or an expansion. It halves the nodes of long Sogo solves and costs a play and a bound
        // per move where it fails, so it is tried only where bounds can prove a loss.
        if attacker_to_move
            && g.bounds_may_prove_loss_after_move()
            && Bits(moves).any(|mv| {
                let mut child = *g;
                child.play(mv);
                child.static_loss()
            })
        {
            return Ok(SUCCEEDS);
        }
        // (the moves that leave the defender a static loss were all tried just above, where
        // they can be: the forcing search need not ask them again)
        if attacker_to_move && !no_forcing_win && self.forcing.wins_past_bounds(g) {
            self.forcing_wins += 1;
            return Ok(SUCCEEDS);
        }
        if let Some((table, empty)) = self.endgame {
            if g.max_ply() - g.ply() <= empty {
                let forcing = std::mem::replace(&mut self.forcing, ForcingSearch::stand_in());
                let mut searcher =
                    Searcher::new(table).with_forcing(forcing, ENDGAME_FORCING_MIN_EMPTY);
                if let Some(flag) = self.stop {
                    searcher = searcher.with_stop(flag);
                }
                // the attacker to move asks "score > 0?", the defender "score < 0?"
                let (alpha, beta) = if attacker_to_move { (0, 1) } else { (-1, 0) };
                let r = searcher.negamax(g, alpha, beta).map_err(|_| Halt::Stopped);
                self.forcing = searcher.take_forcing().expect("lent above");
                self.endgame_nodes += searcher.nodes;
                self.count_for_progress(searcher.nodes);
                let v = r?;
                let attacker_wins = if attacker_to_move { v > 0 } else { v < 0 };
                let mover_succeeds = attacker_wins == attacker_to_move;
                self.record_settled(g, tag, mover_succeeds, searcher.nodes);
                return Ok(if mover_succeeds { SUCCEEDS } else { FAILS });
            }
        }
        if !attacker_to_move && with_zone {
            return Ok(self.zone_numbers(g, moves));
        }
        Ok((1, moves.count_ones()))
    }

    /// The first numbers of an unsettled defender's position with the non-losing `moves`: delta
    /// counts only the moves on the attacker's forcing line if the defender passed (a position
    /// with such a threat has few defences, and the other moves usually fall to the same attack
    /// at once), else all of them.
    fn zone_numbers<G: Game>(&mut self, g: &G, moves: u64) -> (u32, u32) {
        if let Some(passed) = g.null_move() {
            if self.forcing.wins(&passed) {
                let zone = self.forcing.line_cells(&passed) & moves;
                return (1, zone.count_ones().max(1));
            }
        }
        (1, moves.count_ones())
    }

    /// Publishes the numbers `phi`, `delta` (of the side to move in `g`: the root, or the end of
    /// its forced line) as the question's proof and disproof numbers, the counts of `g`'s moves
    /// settled either way (`children`: the numbers of the positions after them), the move the
    /// search goes into next (`working_on`, 0 when none), and the forced line.
    #[cold]
    fn publish_root<G: Game>(
        &self,
        g: &G,
        (phi, delta): (u32, u32),
        children: &[(u32, u32)],
        working_on: u64,
    ) {
        let Some(report) = self.root_report else {
            return;
        };
        let attacker_to_move = Player::of_ply(g.ply()) == self.attacker;
        let Numbers { proof, disproof } = Numbers::from_mover(phi, delta, attacker_to_move);
        let line = self.report_line.line();
        let numbers = super::RootNumbers {
            proof,
            disproof,
            // at the root: the sides alternate along the forced line
            attacker_to_move: attacker_to_move != (line.len() % 2 == 1),
        };
        let cell = (working_on != 0).then(|| G::cell_index(working_on));
        let moves = super::RootMoves::of_children(children, cell, attacker_to_move);
        report.publish(numbers, moves, line);
    }

    /// Counts `n` nodes for the progress counter, telling it once a [`TICK`] has gathered;
    /// returns whether it told it (time to look at the stop flag too).
    #[inline]
    pub(super) fn count_for_progress(&mut self, n: u64) -> bool {
        self.unreported += n;
        if self.unreported < TICK {
            return false;
        }
        if let Some(counter) = self.progress {
            counter.fetch_add(self.unreported, Ordering::Relaxed);
        }
        self.unreported = 0;
        true
    }

    #[inline]
    pub(super) fn tick(&mut self) -> Result<(), Halt> {
        self.nodes += 1;
        if self.count_for_progress(1) {
            if let Some(flag) = self.stop {
                if flag.load(Ordering::Relaxed) {
                    return Err(Halt::Stopped);
                }
            }
        }
        if self.nodes >= self.node_limit {
            return Err(Halt::Limit);
        }
        if let Some(shared) = self.shared {
            if shared.abandon.load(Ordering::Relaxed) {
                return Err(Halt::Abandoned);
            }
        }
        Ok(())
    }

    /// Expands `g` (unsettled, numbers below the thresholds) until its phi reaches `th_phi` or
    /// its delta reaches `th_delta`; stores and returns its numbers. In a parallel search the
    /// position is marked as on this thread's path meanwhile.
    pub(super) fn mid<G: Game>(
        &mut self,
        g: &G,
        tag: u64,
        th_phi: u32,
        th_delta: u32,
    ) -> Result<(u32, u32), Halt> {
        let Some(shared) = self.shared else {
            return self.expand(g, tag, th_phi, th_delta);
        };
        let mark = &shared.busy[busy_slot(tag)];
        mark.fetch_add(1, Ordering::Relaxed);
        let r = self.expand(g, tag, th_phi, th_delta);
        mark.fetch_sub(1, Ordering::Relaxed);
        r
    }

    /// The body of [`ProofSearch::mid`].
    fn expand<G: Game>(
        &mut self,
        g: &G,
        tag: u64,
        th_phi: u32,
        th_delta: u32,
    ) -> Result<(u32, u32), Halt> {
        self.tick()?;
        // df-pn comes back to a position many times, and the visit that settles it may be short:
        // its work is what all visits cost (the table keeps it to a power of two)
        let prior = self.table.work(tag);
        let start = self.nodes.saturating_sub(prior);
        let start_work = (self.nodes + self.endgame_nodes).saturating_sub(prior);
        // The defender to move, and the attacker has no forcing win even if the defender
        // passes (a complete search, not a budget cut): then none of the defender's moves gives
        // him one where stones never change what is playable (see `Game::defence_is_monotone`),
        // and the children are spared their forcing-win searches.
        let no_forcing_win = Player::of_ply(g.ply()) != self.attacker
            && g.defence_is_monotone()
            && g.null_move()
                .is_some_and(|passed| !self.forcing.wins(&passed) && self.forcing.complete);
        let mut numbers = [(0u32, 0u32); 64];
        let (kept, tags, n_kept) = self.children(g, tag);
        for &t in &tags[..n_kept] {
            self.table.prefetch(t);
        }
        self.prefetch_settled(&tags[..n_kept]);
        // The attacker to move, and zones are deferred: his children's threat zones (a
        // forcing-win search each) are found only when a child is about to be searched; until
        // then a child counts as `guess` defences (see `with_zone_guess`).
        let defer_zones = self
            .zone_guess
            .filter(|_| Player::of_ply(g.ply()) == self.attacker);
        let mut pending: u64 = 0;
        for i in 0..n_kept {
            let n = match self.table.probe(tags[i]) {
                Some(n) => n,
                None => {
                    let mut child = *g;
                    child.play(kept[i]);
                    let n =
                        self.evaluate(&child, tags[i], no_forcing_win, defer_zones.is_none())?;
                    if let Some(guess) = defer_zones.filter(|_| n.0 == 1 && n.1 > 1) {
                        pending |= 1 << i;
                        (1, guess)
                    } else {
                        self.table.store(tags[i], n.0, n.1, 0);
                        n
                    }
                }
            };
            if n.1 == 0 {
                // a child whose mover fails: this position succeeds, no need to look further
                self.table
                    .store(tag, SUCCEEDS.0, SUCCEEDS.1, self.nodes - start + 1);
                let work = self.nodes + self.endgame_nodes - start_work + 1;
                self.record_settled(g, tag, true, work);
                return Ok(SUCCEEDS);
            }
            numbers[i] = n;
        }
        // in a parallel search, the defender's moves are shared out among the threads
        let avoid_busy =
            self.shared.is_some() && Player::of_ply(g.ply()) != self.attacker && n_kept > 1;
        // the children's numbers are fresh until a child is searched; from then on a
        // transposition (or another thread) may have changed any of them
        let mut reprobe = false;
        loop {
            let mut phi = INFINITE;
            let mut second = INFINITE;
            let mut best = 0;
            let mut open: u64 = 0;
            let mut maxp: u64 = 0;
            if reprobe {
                for &t in &tags[..n_kept] {
                    self.table.prefetch(t);
                }
            }
            for i in 0..n_kept {
                if reprobe {
                    if let Some(n) = self.table.probe(tags[i]) {
                        numbers[i] = n;
                    }
                }
                let (p, d) = numbers[i];
                let d = biased(d, i as u64, self.order_bias);
                if d < phi {
                    second = phi;
                    phi = d;
                    best = i;
                } else if d < second {
                    second = d;
                }
                if p > 0 {
                    open += 1;
                    maxp = maxp.max(p as u64);
                }
            }
            // weak proof numbers: the largest child plus one per other open child, not the
            // sum (transpositions make sums count the same subtree many times over)
            let sum = maxp + open.max(1) - 1;
            let delta = if numbers[..n_kept].iter().any(|n| n.0 >= INFINITE) {
                INFINITE
            } else {
                sum.min(INFINITE as u64 - 1) as u32
            };
            if let Some(depth) = self.report_line.depth_of(tag) {
                let open = phi != 0 && delta != 0;
                let on = if open { kept[best] } else { 0 };
                // the search is back at this position of the root's forced line: it reports
                self.report_line.cut_to(depth);
                self.publish_root(g, (phi, delta), &numbers[..n_kept], on);
                if open && n_kept == 1 {
                    // one move: its position has the same numbers and holds all the work
                    self.report_line.extend(G::cell_index(kept[0]), tags[0]);
                }
            }
            if phi >= th_phi || delta >= th_delta {
                self.table.store(tag, phi, delta, self.nodes - start + 1);
                if phi == 0 || delta == 0 {
                    let work = self.nodes + self.endgame_nodes - start_work + 1;
                    self.record_settled(g, tag, phi == 0, work);
                }
                return Ok((phi, delta));
            }
            if pending & 1 << best != 0 {
                // a child not evaluated in full yet: find its threat zone, then choose again
                pending &= !(1 << best);
                let mut child = *g;
                child.play(kept[best]);
                let n = self.zone_numbers(&child, child.non_losing_moves());
                self.table.store(tags[best], n.0, n.1, 0);
                numbers[best] = n;
                continue;
            }
            if avoid_busy {
                if let Some((b, s)) =
                    self.idle_choice(&tags[..n_kept], &numbers[..n_kept], best, th_phi)
                {
                    best = b;
                    second = s;
                    self.split_choices += 1;
                }
            }
            // the parent's number reaches its threshold once this child's exceeds the others'
            // largest by what is missing
            let child_th_phi = (th_delta as u64 - delta as u64 + maxp).min(INFINITE as u64);
            let child_th_delta = unbiased(
                th_phi.min(second.saturating_add(1).min(INFINITE)),
                best as u64,
                self.order_bias,
            );
            let mut child = *g;
            child.play(kept[best]);
            numbers[best] = self.mid(&child, tags[best], child_th_phi as u32, child_th_delta)?;
            reprobe = true;
            if numbers[best].0 == 0 && self.replay_budget > 0 {
                // the move fails for this position's mover: the others may fail the same way
                let (moves, tags) = (&kept[..n_kept], &tags[..n_kept]);
                self.replay_into_siblings(g, &child, moves, tags, &mut numbers[..n_kept])?;
            }
        }
    }
}

/// A child's number as its parent ranks it (see [`DEFAULT_ORDER_BIAS`]); settled numbers stay
/// settled.
#[inline]
pub(crate) fn biased(d: u32, rank: u64, k: u64) -> u32 {
    if d == 0 || d >= INFINITE {
        return d;
    }
    ((d as u64 * (k + rank)) / k).min(INFINITE as u64 - 1) as u32
}

/// The threshold for a child's own number that keeps its biased number below `t`: the child
/// of rank `rank` stays below `t` biased exactly while its raw number stays below the result.
#[inline]
pub(crate) fn unbiased(t: u32, rank: u64, k: u64) -> u32 {
    if t >= INFINITE {
        return t;
    }
    ((t as u64 * k + k + rank - 1) / (k + rank)).max(1) as u32
}

#[cfg(test)]
mod tests {
    use super::super::RootReport;
    use super::*;
    use crate::game::{Cube, Rules};
    use crate::search::reference::minimax;
    use crate::util::random_play::careful_positions;

    /// What the root report says of the root's moves is true: a move counted as succeeding
    /// (failing) for the root's mover does so by plain minimax, no count exceeds the moves,
    /// and when the root's mover is proved to fail, every move is counted as failing. Both
    /// questions, both sides attacking; enough roots must be expanded and end with moves
    /// settled each way for the test to mean anything.
    #[test]
    fn the_root_report_counts_only_settled_moves_and_all_of_a_lost_root() {
        let (mut all_failed, mut some_succeeded) = (0, 0);
        for g in careful_positions(Cube::new(Rules::Sogo), 11, 300, 31) {
            let mover = Player::of_ply(g.ply());
            let safe = g.non_losing_moves();
            // each non-losing move's value for the side to move after it
            let after: Vec<i32> = Bits(safe)
                .map(|mv| {
                    let mut child = g;
                    child.play(mv);
                    minimax(&child).signum()
                })
                .collect();
            for attacker in [mover, mover.other()] {
                let table = ProofTable::new(1 << 20);
                let report = RootReport::default();
                let mut search = ProofSearch::new(&table).with_root_report(&report);
                let attacker_wins = search.side_wins(&g, attacker).unwrap();
                let Some(m) = report.moves() else { continue };
                // the root's mover succeeds with a move when the attacker wins after it (mover
                // attacking), or does not (opponent attacking)
                let succeeds = |v: &i32| if attacker == mover { *v < 0 } else { *v <= 0 };
                let truly_succeed = after.iter().filter(|v| succeeds(v)).count() as u32;
                let truly_fail = after.len() as u32 - truly_succeed;
                assert!(m.moves as usize <= after.len() && m.moves > 0);
                assert!(m.succeed + m.fail <= m.moves);
                assert!(
                    m.succeed <= truly_succeed && m.fail <= truly_fail,
                    "{}",
                    g.to_hex()
                );
                // a finished search names no move it is in, and reports the root itself
                assert_eq!(m.working_on, None, "{}", g.to_hex());
                assert!(report.line().is_empty(), "{}", g.to_hex());
                assert_eq!(m.attacker_to_move, attacker == mover, "{}", g.to_hex());
                let mover_failed = attacker_wins != (attacker == mover);
                if mover_failed {
                    assert_eq!(
                        m.fail,
                        m.moves,
                        "{}: a lost root with open moves",
                        g.to_hex()
                    );
                    all_failed += 1;
                } else if m.succeed > 0 {
                    some_succeeded += 1;
                }
            }
        }
        assert!(
            all_failed > 10 && some_succeeded > 10,
            "{all_failed} / {some_succeeded}"
        );
    }
}
