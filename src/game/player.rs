//! [`Player`]: which side, where a side is passed around.

/// One of the two sides. [`Player::First`] moves first: White in the 4x4x4 games, X (the
/// side that starts) in Connect Four.
///
/// The games keep per-side state in two-element arrays indexed by [`Player::index`]; taking a
/// `Player` instead of a `usize` keeps a caller from passing any other number (or a ply) where
/// a side is meant, and `other()` replaces the `1 - p` arithmetic.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Player {
    /// The side that moves first (at even plies).
    First = 0,
    /// The side that moves second (at odd plies).
    Second = 1,
}

impl Player {
    /// Both sides, first one first.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The opponent.
    #[inline(always)]
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second: the index of its entry in per-side arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side to move when `ply` stones are on the board (turns alternate, the first player
    /// at ply 0).
    #[inline(always)]
    pub const fn of_ply(ply: u32) -> Player {
        if ply & 1 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Player;

    #[test]
    fn sides_alternate() {
        assert_eq!(Player::of_ply(0), Player::First);
        assert_eq!(Player::of_ply(7), Player::Second);
        assert_eq!(Player::of_ply(64), Player::First);
        for p in Player::BOTH {
            assert_eq!(p.other().other(), p);
            assert_ne!(p.other(), p);
            assert_eq!(p.other().index(), 1 - p.index());
        }
        assert_eq!(Player::BOTH.map(Player::index), [0, 1]);
    }
}
