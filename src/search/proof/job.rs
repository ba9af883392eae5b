//! One question worked on for a budget of nodes, as a job of the job-level proof search
//! ([`crate::jobs`]) asks it: proved, disproved, or still open with the numbers the master needs
//! to grow its tree there.

use super::{ChildCache, Halt, ProofSearch, ProofTable, INFINITE};
use crate::game::{Game, Player};
use crate::search::vcf::ForcingSearch;
use crate::search::Stopped;

/// The proof and disproof numbers of "does the attacker win?" at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// Proof number (0: proved).
    pub proof: u32,
    /// Disproof number (0: disproved).
    pub disproof: u32,
}

impl Numbers {
    /// Proved: the attacker wins.
    pub const PROVED: Numbers = Numbers {
        proof: 0,
        disproof: INFINITE,
    };
    /// Disproved: the attacker does not win.
    pub const DISPROVED: Numbers = Numbers {
        proof: INFINITE,
        disproof: 0,
    };
    /// No limit: thresholds that only a settled position reaches.
    pub const UNLIMITED: Numbers = Numbers {
        proof: INFINITE,
        disproof: INFINITE,
    };
    /// What nothing is known of: one leaf to prove, one to disprove.
    pub const UNKNOWN: Numbers = Numbers {
        proof: 1,
        disproof: 1,
    };

    /// Whether the numbers settle the question.
    pub fn settled(self) -> bool {
        self.proof == 0 || self.disproof == 0
    }

    /// The answer, if the numbers settle the question: whether the attacker wins.
    pub fn answer(self) -> Option<bool> {
        self.settled().then_some(self.proof == 0)
    }

    /// The attacker's numbers from the phi/delta pair of the side to move (phi is the mover's
    /// proof number of his own goal: the attacker's proof number when he is to move, his
    /// disproof number otherwise).
    pub(super) fn from_mover(phi: u32, delta: u32, attacker_to_move: bool) -> Numbers {
        if attacker_to_move {
            Numbers {
                proof: phi,
                disproof: delta,
            }
        } else {
            Numbers {
                proof: delta,
                disproof: phi,
            }
        }
    }

    /// The phi/delta pair of the side to move from the attacker's numbers (the inverse of
    /// [`Numbers::from_mover`]).
    pub(super) fn to_mover(self, attacker_to_move: bool) -> (u32, u32) {
        if attacker_to_move {
            (self.proof, self.disproof)
        } else {
            (self.disproof, self.proof)
        }
    }
}

/// A move of an open position with its child's numbers in the worker's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildNumbers {
    /// The move (a one-bit mask, as the game plays it).
    pub mv: u64,
    /// The child's numbers ([`Numbers::UNKNOWN`] where the table has none).
    pub numbers: Numbers,
}

/// What a budgeted question came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobAnswer {
    /// The attacker wins.
    Proved,
    /// The attacker does not win.
    Disproved,
    /// Neither within the budget: the position's numbers and its children, in the search's
    /// order, symmetric images left out (the moves whose children the search would search).
    Open {
        /// The position's numbers.
        numbers: Numbers,
        /// Its children's moves and numbers.
        children: Vec<ChildNumbers>,
    },
}

/// What a search holds besides its tables — its cache of children and its forcing-win search,
/// and its helper threads' — kept from one search to the next (a worker's jobs, a solver's
/// questions): allocating and faulting in 16 MiB of cache for every job of a few hundred nodes
/// would cost more than the job. Once one such cache has been freed the allocator hands the
/// next out of its heap, zeroed by hand rather than mapped lazily, so a new cache per small
/// search costs a 16 MiB memset.
pub struct Scratch {
    child_cache: ChildCache,
    forcing: ForcingSearch,
    helpers: Vec<(ChildCache, ForcingSearch)>,
}

impl<'t> ProofSearch<'t> {
    /// A search using `table` with the caches and forcing-win searches of an earlier one (see
    /// [`Scratch`]), or fresh ones. Sound for any later search of the same game under the same
    /// keys: a cached list of children is a function of the position (its moves in order,
    /// their keys), and the forcing-win search remembers only where it found no win.
    pub fn reusing(table: &'t ProofTable, scratch: Option<Scratch>) -> Self {
        match scratch {
            Some(s) => {
                let mut search = Self::with_parts(table, s.forcing, s.child_cache);
                search.helpers = s.helpers;
                search
            }
            None => Self::new(table),
        }
    }

    /// Ends this search, keeping its caches and forcing-win searches for the next.
    pub fn into_scratch(self) -> Scratch {
        Scratch {
            child_cache: self.child_cache,
            forcing: self.forcing,
            helpers: self.helpers,
        }
    }

    /// Works on "does `attacker` win from `g`?" for about `budget` more expanded nodes, or until
    /// the position's numbers reach `thresholds` (the attacker's proof and disproof numbers at
    /// which the master's tree would rather work elsewhere: df-pn's thresholds, computed above
    /// the job by the master as df-pn computes them above a child).
    ///
    /// A proof or disproof is the same one [`ProofSearch::side_wins`] would find (the same
    /// search, stopped earlier or not at all). An open answer's children are the ones df-pn
    /// expands (the non-losing moves, one of each set of symmetric images): a position whose
    /// children all fail for their mover succeeds, and one with a child that succeeds fails —
    /// the master's tree combines them by exactly the rules df-pn does. The job always expands
    /// at least once (thresholds the position already reaches are raised just above its
    /// numbers), so a run of jobs always makes progress.
    pub fn question_within<G: Game>(
        &mut self,
        g: &G,
        attacker: Player,
        budget: u64,
        thresholds: Numbers,
    ) -> Result<JobAnswer, Stopped> {
        self.attacker = attacker;
        self.node_limit = self.nodes.saturating_add(budget.max(1));
        let r = if self.threads > 1 && self.shared.is_none() {
            // parallel threads run to the budget (their split needs the whole question)
            self.attacker_wins_in_parallel(g).map(Some)
        } else {
            self.one_visit(g, thresholds)
        };
        self.node_limit = u64::MAX;
        match r {
            Ok(Some(true)) => Ok(JobAnswer::Proved),
            Ok(Some(false)) => Ok(JobAnswer::Disproved),
            Ok(None) | Err(Halt::Limit | Halt::Abandoned) => Ok(self.open_answer(g)),
            Err(Halt::Stopped) => Err(Stopped),
        }
    }

    /// One df-pn visit of `g` under the attacker's `thresholds`: the answer if it settled.
    fn one_visit<G: Game>(&mut self, g: &G, thresholds: Numbers) -> Result<Option<bool>, Halt> {
        let attacker_to_move = Player::of_ply(g.ply()) == self.attacker;
        let tag = self.tag(g);
        self.report_line = super::ReportLine::at(tag);
        let (phi, delta) = self.root_numbers(g, tag)?;
        if let Some(wins) = Numbers::from_mover(phi, delta, attacker_to_move).answer() {
            return Ok(Some(wins));
        }
        let (th_phi, th_delta) = thresholds.to_mover(attacker_to_move);
        let th_phi = th_phi.max(phi.saturating_add(1)).min(INFINITE);
        let th_delta = th_delta.max(delta.saturating_add(1)).min(INFINITE);
        let (phi, delta) = self.mid(g, tag, th_phi, th_delta)?;
        Ok(Numbers::from_mover(phi, delta, attacker_to_move).answer())
    }

    /// The numbers of `g` and its children as the table holds them after a budget ran out.
    fn open_answer<G: Game>(&mut self, g: &G) -> JobAnswer {
        let attacker_to_move = Player::of_ply(g.ply()) == self.attacker;
        let tag = self.tag(g);
        let (phi, delta) = self.table.probe(tag).unwrap_or((1, 1));
        let numbers = Numbers::from_mover(phi, delta, attacker_to_move);
        if numbers.settled() {
            // settled as the budget ran out (by another thread of a parallel search)
            return if numbers.proof == 0 {
                JobAnswer::Proved
            } else {
                JobAnswer::Disproved
            };
        }
        let (kept, tags, n) = self.children(g, tag);
        let children = (0..n)
            .map(|i| ChildNumbers {
                mv: kept[i],
                numbers: match self.table.probe(tags[i]) {
                    Some((phi, delta)) => Numbers::from_mover(phi, delta, !attacker_to_move),
                    None => Numbers::UNKNOWN,
                },
            })
            .collect();
        JobAnswer::Open { numbers, children }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Bits, Connect4};
    use crate::search::ProofTable;

    /// The budgeted question agrees with the unbudgeted one wherever it settles it, and an open
    /// answer's children are non-losing moves whose settled numbers are the children's truth.
    #[test]
    fn budgeted_answers_agree_with_full_search() {
        let positions = ["4444", "3342", "12", "4455", ""];
        for moves in positions {
            let g = Connect4::from_moves(5, 4, moves).unwrap();
            for attacker in [Player::First, Player::Second] {
                let full_table = ProofTable::new(1 << 22);
                let truth = ProofSearch::new(&full_table)
                    .side_wins(&g, attacker)
                    .unwrap();
                for (budget, th) in [1, 10, 100, 10_000]
                    .into_iter()
                    .flat_map(|b| [(b, Numbers::UNKNOWN), (b, Numbers::UNLIMITED)])
                {
                    let table = ProofTable::new(1 << 22);
                    let mut s = ProofSearch::new(&table);
                    match s.question_within(&g, attacker, budget, th).unwrap() {
                        JobAnswer::Proved => assert!(truth, "{moves} {attacker:?} {budget}"),
                        JobAnswer::Disproved => assert!(!truth, "{moves} {attacker:?} {budget}"),
                        JobAnswer::Open { numbers, children } => {
                            assert!(!numbers.settled());
                            assert!(!children.is_empty());
                            for c in children {
                                assert_eq!(c.mv.count_ones(), 1);
                                assert!(Bits(g.non_losing_moves()).any(|m| m == c.mv));
                                if c.numbers.settled() {
                                    let mut child = g;
                                    child.play(c.mv);
                                    let t = ProofTable::new(1 << 20);
                                    let wins =
                                        ProofSearch::new(&t).side_wins(&child, attacker).unwrap();
                                    assert_eq!(wins, c.numbers.proof == 0, "{moves} {:x}", c.mv);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
