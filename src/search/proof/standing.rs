//! Where a proof search stood at a position and at each of its moves, read back from the
//! table's entries: what a paused long solve had worked out so far, move by move.
//!
//! A long solve that is stopped leaves its proof table in a snapshot (`search-state.zzs`), and
//! its progress line only says how many of the start's moves are settled. Which move the search
//! believed in, and how far each one was from proved or disproved, is in the snapshot's
//! entries: each is a tag (a position's key and the question's attacker, see
//! [`super::question_tag`]) with phi, delta and the work spent. This reads them in one pass,
//! without loading the table (a snapshot can be larger than the memory left beside a running
//! solve).

use super::{question_tag, Numbers, ProofTable};
use crate::game::{Bits, Game, Key, Player};

/// How a move ends the game at once, so that no entry is needed for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtOnce {
    /// The move completes a line of the side to move.
    Wins,
    /// The move lets the opponent complete a line on the next stone.
    Loses,
}

/// One move of the position (and its symmetric images) in one question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveStanding {
    /// The move (a one-bit mask, as the game plays it).
    pub mv: u64,
    /// The other moves that give the same position up to symmetry (same key), as a mask.
    pub images: u64,
    /// Whether the move ends the game at once.
    pub at_once: Option<AtOnce>,
    /// The attacker's numbers after the move and the work spent on it, if the table holds them.
    pub entry: Option<(Numbers, u64)>,
}

/// A position and its moves in the question "does `attacker` win?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The side whose win the question asks about.
    pub attacker: Player,
    /// The attacker's numbers at the position and the work spent on it, if the table holds
    /// them.
    pub root: Option<(Numbers, u64)>,
    /// Every legal move, symmetric images folded into the first of them, in move order.
    pub moves: Vec<MoveStanding>,
}

/// The standings of `g` in both questions — "does the side to move win?" first, then "does the
/// opponent win?" — from a table's `[tag, data]` entries (those of
/// [`ProofTable::entries`] or of a saved snapshot), read once. `g` must be keyed as the search
/// that wrote them keyed its positions.
pub fn standings<G: Game>(g: &G, entries: impl IntoIterator<Item = [u64; 2]>) -> [Standing; 2] {
    let mover = Player::of_ply(g.ply());
    let wins = g.winning_moves();
    // (`non_losing_moves` is asked only where nothing wins at once, as its contract wants)
    let losing = if wins == 0 {
        g.playable() & !g.non_losing_moves()
    } else {
        0
    };
    // the moves, one per child key
    let mut moves: Vec<(MoveStanding, Key)> = Vec::new();
    for mv in Bits(g.playable()) {
        let mut child = *g;
        child.play(mv);
        let key = child.key();
        if let Some(first) = moves.iter_mut().find(|(_, k)| *k == key) {
            first.0.images |= mv;
            continue;
        }
        let at_once = if wins & mv != 0 {
            Some(AtOnce::Wins)
        } else if losing & mv != 0 {
            Some(AtOnce::Loses)
        } else {
            None
        };
        let standing = MoveStanding {
            mv,
            images: 0,
            at_once,
            entry: None,
        };
        moves.push((standing, key));
    }
    let attackers = [mover, mover.other()];
    // every tag wanted, sorted, with where its numbers go: (question, None = root, Some(i) = move i)
    let mut wanted: Vec<(u64, usize, Option<usize>)> = Vec::new();
    for (q, &attacker) in attackers.iter().enumerate() {
        wanted.push((question_tag(g.key(), attacker), q, None));
        for (i, (_, key)) in moves.iter().enumerate() {
            wanted.push((question_tag(*key, attacker), q, Some(i)));
        }
    }
    wanted.sort_unstable();
    let mut found: Vec<Option<(u32, u32, u64)>> = vec![None; wanted.len()];
    for [tag, data] in entries {
        if let Ok(at) = wanted.binary_search_by_key(&tag, |w| w.0) {
            found[at] = Some(ProofTable::decode(data));
        }
    }
    let mut result = attackers.map(|attacker| Standing {
        attacker,
        root: None,
        moves: moves.iter().map(|m| m.0.clone()).collect(),
    });
    for (&(_, q, place), entry) in wanted.iter().zip(&found) {
        let Some((phi, delta, work)) = *entry else {
            continue;
        };
        let attacker = attackers[q];
        match place {
            None => {
                result[q].root = Some((Numbers::from_mover(phi, delta, mover == attacker), work))
            }
            Some(i) => {
                let numbers = Numbers::from_mover(phi, delta, mover.other() == attacker);
                result[q].moves[i].entry = Some((numbers, work));
            }
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Connect4, Cube};
    use crate::search::proof::{JobAnswer, ProofSearch};

    /// What the standings read from a table's entries is what the table answers when asked
    /// directly: after a budgeted question stops open, the root's numbers and every child's
    /// numbers the search itself reports (`JobAnswer::Open`, which probes the table) are the
    /// standing's, move for move; children it reports unknown have no entry.
    #[test]
    fn standings_read_from_entries_match_the_tables_own_answers() {
        let positions = ["", "4", "44", "4455", "3342"];
        for moves in positions {
            let g = Connect4::from_moves(6, 5, moves).unwrap();
            for (q, attacker) in [Player::of_ply(g.ply()), Player::of_ply(g.ply() + 1)]
                .into_iter()
                .enumerate()
            {
                for budget in [3, 50, 400] {
                    let table = ProofTable::new(1 << 22);
                    let mut s = ProofSearch::new(&table);
                    let answer = s
                        .question_within(&g, attacker, budget, Numbers::UNLIMITED)
                        .unwrap();
                    let standing = standings(&g, table.entries())[q].clone();
                    assert_eq!(standing.attacker, attacker);
                    let (root, _) = standing.root.expect("the root is always stored");
                    match answer {
                        JobAnswer::Proved => assert_eq!(root.proof, 0, "{moves}"),
                        JobAnswer::Disproved => assert_eq!(root.disproof, 0, "{moves}"),
                        JobAnswer::Open { numbers, children } => {
                            assert_eq!(root, numbers, "{moves} {budget}");
                            for c in children {
                                let m = standing
                                    .moves
                                    .iter()
                                    .find(|m| (m.mv | m.images) & c.mv != 0)
                                    .expect("every child is a move");
                                assert_eq!(m.at_once, None, "{moves}: searched moves go on");
                                match m.entry {
                                    Some((n, _)) => assert_eq!(n, c.numbers, "{moves} {:x}", c.mv),
                                    None => assert_eq!(c.numbers, Numbers::UNKNOWN),
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every legal move is listed once (symmetric images folded into the first), the moves that
    /// end the game at once are marked, and a finished search's winning move is proved.
    #[test]
    fn every_move_is_listed_and_a_proved_win_shows_its_winning_move() {
        // Sogo: the empty board's 16 columns fold into 3 classes under the square's symmetries
        let empty = Cube::new(crate::game::cube::Rules::Sogo);
        let [first, second] = standings(&empty, std::iter::empty());
        assert_eq!(first.moves.len(), 3);
        let all = first.moves.iter().fold(0, |m, s| m | s.mv | s.images);
        assert_eq!(all, empty.playable());
        assert!(first.root.is_none() && second.root.is_none());
        // Connect Four after "121212": the side to move wins, in column 1 at once
        let g = Connect4::from_moves(7, 6, "121212").unwrap();
        let table = ProofTable::new(1 << 22);
        let mover = Player::of_ply(g.ply());
        assert!(ProofSearch::new(&table).side_wins(&g, mover).unwrap());
        let [standing, _] = standings(&g, table.entries());
        assert_eq!(standing.root.map(|r| r.0.proof), Some(0));
        let winning: Vec<u64> = (standing.moves.iter())
            .filter(|m| m.at_once == Some(AtOnce::Wins))
            .map(|m| m.mv)
            .collect();
        assert_eq!(winning, vec![g.winning_moves()]);
        // and where nothing wins at once, the moves that hand the opponent a win are marked
        let g = Connect4::from_moves(7, 6, "1212122").unwrap();
        let [standing, _] = standings(&g, std::iter::empty());
        for m in &standing.moves {
            let loses = g.playable() & !g.non_losing_moves() & m.mv != 0;
            assert_eq!(m.at_once == Some(AtOnce::Loses), loses, "{:x}", m.mv);
        }
        assert!(standing
            .moves
            .iter()
            .any(|m| m.at_once == Some(AtOnce::Loses)));
    }
}
