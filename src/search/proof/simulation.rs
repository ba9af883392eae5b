//! Simulation (Kawano 1996): settling a position by replaying the proof of a sibling.
//!
//! Where every move of a position must fail (the defender's replies to an attack, or the
//! attacker's tries against a defence), df-pn proves the children one by one, and siblings
//! often fall to the same strategy: the defender's stone went elsewhere, and the attacker's
//! winning moves still win. Once one child is settled, the others are tried by replaying its
//! proof from the table: at a position whose mover must succeed, the move that succeeded at the
//! corresponding position of the proof; at one whose mover must fail, every move, each
//! against the proof's position after the same move. Every position of the replay is settled
//! on its own facts (the table, or [`ProofSearch::evaluate`]'s rules and forcing wins), so a
//! replay that completes is a proof of the sibling, and one that does not changes nothing but
//! the time; a budget of unsettled positions per replay keeps a failing one cheap.

use super::{Halt, ProofSearch, FAILS, SUCCEEDS};
use crate::game::Game;

impl ProofSearch<'_> {
    /// After the move to `failed` was proved to fail for `g`'s mover, tries to prove the same of
    /// each open move of `moves` (the children's `tags` and `numbers`, the numbers updated
    /// where a replay succeeds).
    pub(super) fn replay_into_siblings<G: Game>(
        &mut self,
        g: &G,
        failed: &G,
        moves: &[u64],
        tags: &[u64],
        numbers: &mut [(u32, u32)],
    ) -> Result<(), Halt> {
        for ((&mv, &tag), n) in moves.iter().zip(tags).zip(numbers.iter_mut()) {
            if n.0 == 0 || n.1 == 0 {
                continue;
            }
            let mut sibling = *g;
            sibling.play(mv);
            let mut budget = self.replay_budget;
            if self.replay_proof(failed, &sibling, tag, true, &mut budget)? {
                self.replay_proofs += 1;
                *n = SUCCEEDS;
            }
        }
        Ok(())
    }

    /// Whether `copy` (tagged `tag`)'s mover provably succeeds (`succeeds`) or fails (else),
    /// shown by replaying the proof that `orig`'s mover does so (as the table has it) move for
    /// move; at most `budget` positions not yet settled are looked into, and every position
    /// the replay settles is stored. `false` says only that the replay did not prove it.
    pub(super) fn replay_proof<G: Game>(
        &mut self,
        orig: &G,
        copy: &G,
        tag: u64,
        succeeds: bool,
        budget: &mut u32,
    ) -> Result<bool, Halt> {
        if let Some((phi, delta)) = self.table.probe(tag) {
            if phi == 0 || delta == 0 {
                return Ok((phi == 0) == succeeds);
            }
        }
        if *budget == 0 {
            return Ok(false);
        }
        *budget -= 1;
        // A mover who must succeed: the proof's move first, without the position's own
        // tests (a child proved lost for its mover proves this position whatever else holds).
        if succeeds && self.replay_proof_move(orig, copy, budget)? {
            self.table.store(tag, SUCCEEDS.0, SUCCEEDS.1, 0);
            return Ok(true);
        }
        // the position's own facts: the rules, the static bounds, a forcing win
        self.tick()?;
        let (phi, delta) = self.evaluate(copy, tag, false, false)?;
        if phi == 0 || delta == 0 {
            self.table.store(tag, phi, delta, 0);
            return Ok((phi == 0) == succeeds);
        }
        if succeeds {
            return Ok(false);
        }
        // a mover who must fail: every move, against the same move of the proof
        let (moves, tags, n) = self.children(copy, tag);
        let playable = orig.playable();
        for (&mv, &child_tag) in moves[..n].iter().zip(&tags[..n]) {
            if playable & mv == 0 {
                return Ok(false);
            }
            let (mut o, mut c) = (*orig, *copy);
            o.play(mv);
            c.play(mv);
            if !self.replay_proof(&o, &c, child_tag, true, budget)? {
                return Ok(false);
            }
        }
        self.table.store(tag, FAILS.0, FAILS.1, 0);
        Ok(true)
    }

    /// Whether one of the moves that succeed at `orig` (the child's mover proved to fail in
    /// the table) is playable at `copy` and, replayed, fails for the mover after it there too.
    fn replay_proof_move<G: Game>(
        &mut self,
        orig: &G,
        copy: &G,
        budget: &mut u32,
    ) -> Result<bool, Halt> {
        let playable = copy.playable();
        let otag = self.tag(orig);
        let (omoves, otags, on) = self.children(orig, otag);
        for i in 0..on {
            let mv = omoves[i];
            if playable & mv == 0 || self.table.probe(otags[i]).is_none_or(|n| n.1 != 0) {
                continue;
            }
            let (mut o, mut c) = (*orig, *copy);
            o.play(mv);
            c.play(mv);
            let child_tag = self.tag(&c);
            if self.replay_proof(&o, &c, child_tag, false, budget)? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ProofTable;
    use super::*;
    use crate::game::{Bits, Cube, Player, Rules};
    use crate::search::reference::minimax;
    use crate::util::random_play::careful_positions;

    /// Whether the mover of `g`, whose minimax value is `v`, reaches its goal when `attacker`
    /// attacks.
    fn mover_succeeds(g: &Cube, v: i32, attacker: Player) -> bool {
        if Player::of_ply(g.ply()) == attacker {
            v > 0
        } else {
            v >= 0
        }
    }

    /// Every replay that claims a proof is right: each child of a position is settled, then
    /// each settled child's proof is replayed into each sibling over a copy of the table
    /// without the sibling's own entry, and every sibling the replay proves is checked against
    /// plain minimax. Both questions, Sogo and Qubic; enough replays must succeed and enough
    /// fail for the test to mean anything. (What replays leave in the table on their way is
    /// checked by the searches with replays in `best_moves`' tests, against minimax.)
    #[test]
    fn a_replayed_proof_is_a_proof() {
        let (mut proved, mut failed) = (0, 0);
        for (rules, seed) in [(Rules::Sogo, 41), (Rules::Qubic, 42)] {
            let empty = if rules.gravity() { 11 } else { 8 };
            for g in careful_positions(Cube::new(rules), empty, 30, seed) {
                let mover = Player::of_ply(g.ply());
                for attacker in [mover, mover.other()] {
                    let table = ProofTable::new(1 << 20);
                    let mut search = ProofSearch::new(&table);
                    search.attacker = attacker;
                    // settle every child, then replay each settled child's proof into its
                    // siblings
                    let children: Vec<Cube> = Bits(g.non_losing_moves())
                        .map(|mv| {
                            let mut c = g;
                            c.play(mv);
                            c
                        })
                        .collect();
                    let values: Vec<i32> = children.iter().map(minimax).collect();
                    for c in &children {
                        search.side_wins(c, attacker).unwrap();
                    }
                    for orig in &children {
                        let Some((0, _)) = table.probe(search.tag(orig)) else {
                            continue;
                        };
                        for (copy, &v) in children.iter().zip(&values) {
                            if copy.id() == orig.id() {
                                continue;
                            }
                            // a fresh table: only the replay may settle the copy
                            let copy_tag = search.tag(copy);
                            let sibling_table = ProofTable::new(1 << 20);
                            sibling_table.preload(table.entries().filter(|e| e[0] != copy_tag));
                            let mut replay = ProofSearch::new(&sibling_table);
                            replay.attacker = attacker;
                            let mut budget = 16;
                            let replayed =
                                replay.replay_proof(orig, copy, copy_tag, true, &mut budget);
                            if replayed.unwrap() {
                                assert!(mover_succeeds(copy, v, attacker), "{}", copy.to_hex());
                                proved += 1;
                            } else {
                                failed += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(
            proved > 50 && failed > 50,
            "{proved} proved, {failed} failed"
        );
    }

    /// Replays do prove siblings in real searches, and a search with them gives every value a
    /// search without them gives (both against minimax on smaller positions: `best_moves`'
    /// tests run searches with replays).
    #[test]
    fn searches_with_replays_prove_siblings_and_keep_every_value() {
        let mut by_replay = 0;
        for (rules, seed) in [(Rules::Sogo, 43), (Rules::Qubic, 44)] {
            let empty = if rules.gravity() { 18 } else { 12 };
            for g in careful_positions(Cube::new(rules), empty, 30, seed) {
                let table = ProofTable::new(1 << 22);
                let without = ProofSearch::new(&table).value(&g).unwrap();
                let table = ProofTable::new(1 << 22);
                let mut search = ProofSearch::new(&table).with_replays(8);
                assert_eq!(search.value(&g).unwrap(), without, "{}", g.to_hex());
                by_replay += search.replay_proofs;
            }
        }
        assert!(by_replay > 100, "{by_replay} siblings proved by replays");
    }
}
