//! The board as text, for people.

use super::geometry::cell_index;
use super::Cube;
use crate::game::{Game, Player};

impl Cube {
    /// The four levels side by side (level 1 = bottom on the left); `X` White, `O` Black, `*` a
    /// threat cell of the side to move that is playable, `+` one of the opponent, `!` a poison
    /// (an empty threat cell that cannot be played yet), `.` empty. Row y = 4 on top.
    pub fn render(&self) -> String {
        let me = self.side();
        let playable = self.playable();
        let mut out = String::new();
        out.push_str("   level 1      level 2      level 3      level 4\n");
        for y in (0..4).rev() {
            for z in 0..4 {
                out.push_str(&format!("{} ", y + 1));
                for x in 0..4 {
                    let m = 1u64 << cell_index(x, y, z);
                    let ch = if self.stones[0] & m != 0 {
                        'X'
                    } else if self.stones[1] & m != 0 {
                        'O'
                    } else if self.rules.gravity()
                        && (self.threats_of(Player::First) | self.threats_of(Player::Second))
                            & m
                            & !playable
                            != 0
                    {
                        '!'
                    } else if self.threats_of(me) & m != 0 {
                        '*'
                    } else if self.threats_of(me.other()) & m != 0 {
                        '+'
                    } else {
                        '.'
                    };
                    out.push(ch);
                    if x < 3 {
                        out.push(' ');
                    }
                }
                out.push_str(if z < 3 { "   " } else { "\n" });
            }
        }
        out.push_str("  a b c d      a b c d      a b c d      a b c d\n");
        out
    }
}
