//! Connect Four in the solver: positions as seed 002's 1-based column digits, moves named by
//! their column, and the defaults every front end starts from.

use super::Solvable;
use crate::game::Connect4;
use crate::search::Options;
use crate::solver::budget::quarter_of_ram;
use crate::solver::config::{BestMoves, Engine, KeyMode, Mode, SolverConfig};
use crate::solver::GameSpec;

/// The defaults of `solve connect4`: the exact score by parallel alpha-beta (strong solving
/// costs little more than weak here), every best move (cheap once the score is known), and a
/// table of [`table_bytes`].
pub fn defaults(width: u32, height: u32) -> SolverConfig {
    SolverConfig {
        engine: Engine::Alphabeta,
        mode: Mode::Strong,
        best: BestMoves::All,
        mem_bytes: table_bytes(width, height),
        threads: 0,
        hash_seed: 0,
        key_mode: KeyMode::Sound,
        etc_min_empty: Options::default().etc_min_empty,
        cap: 0,
        step: 0,
        tries: 0,
        forcing_min_empty: None,
        vcf_budget: crate::search::proof::DEFAULT_VCF_BUDGET,
        endgame: 0,
        order_bias: crate::search::proof::DEFAULT_ORDER_BIAS,
        zone_guess: None,
        replay_budget: 0,
        // its bounds never prove a loss, so a forcing line never ends in one
        zugzwang_lines: false,
        first: None,
    }
}

/// The default table: a quarter of RAM, at most 256 MiB up to the 42 cells of 7x6 and at most
/// 8 GiB above.
///
/// A bigger table is not a faster one: every probe is a random access, and past what the
/// processor's TLB maps each probe also pays a page walk, while the kernel zeroes every page the
/// table touches. On 7x6 the entries a bigger table keeps save fewer nodes than that costs (the
/// README's "Connect Four speed" has the measurement); larger boards search far longer, where
/// they pay.
pub fn table_bytes(width: u32, height: u32) -> u64 {
    quarter_of_ram(if width * height <= 42 {
        256 << 20
    } else {
        8 << 30
    })
}

impl Solvable for Connect4 {
    fn parse(spec: GameSpec, text: &str, _hash_seed: u64) -> Result<Self, String> {
        let GameSpec::Connect4 { width, height } = spec else {
            return Err(format!("{} is not Connect Four", spec.name()));
        };
        Connect4::from_moves(width, height, text).map_err(|e| format!("in '{text}': {e}"))
    }

    fn spec(&self) -> GameSpec {
        GameSpec::Connect4 {
            width: self.width(),
            height: self.height(),
        }
    }

    fn keyed(&self, _hash_seed: u64, _mode: KeyMode) -> Self {
        *self
    }

    fn move_name(&self, mv: u64) -> String {
        (self.move_column(mv) + 1).to_string()
    }

    fn position_text(&self) -> String {
        self.to_text()
    }

    fn render(&self) -> String {
        Connect4::render(self)
    }

    fn svg(&self, interactive: bool) -> String {
        crate::game::svg::connect4(self, interactive)
    }

    fn capped(&self, _cap: u32) -> Option<Self> {
        None
    }

    fn seed_form(&self) -> Option<Self> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::games::game_over_score;

    #[test]
    fn finished_games_have_their_score() {
        let spec = GameSpec::CONNECT4;
        // the first player wins with its 4th stone (ply 7): 22 - 4 = 18 for the winner
        let won = Connect4::parse(spec, "1212121", 0).unwrap();
        assert_eq!(game_over_score(&won), Some(-18));
        let going = Connect4::parse(spec, "121212", 0).unwrap();
        assert_eq!(game_over_score(&going), None);
        assert!(Connect4::parse(spec, "12121212", 0).is_err());
    }
}
