//! How a game is solved: the engine, its tuning and the budgets, with each game's defaults
//! decided once ([`SolverConfig::for_game`], which asks the game's adapter in
//! [`super::games`]). Every front end starts from these defaults and changes only what its user
//! asked for, so the same position runs the same engine everywhere unless a flag says otherwise.

use super::GameSpec;
use crate::search::proof::Question as ProofQuestion;
use crate::search::Depth;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The search that decides a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// Alpha-beta negamax with null-window score narrowing (exact scores; threads share the
    /// table).
    Alphabeta,
    /// Depth-first proof-number search with forcing-win leaves, static bounds and alpha-beta
    /// endgames (win/draw/loss only).
    Pn,
    /// Seed 003's search, rebuilt from its description (`crate::search::seed`): alpha-beta
    /// around the draw in the seed's move order, positions of at most 56 stones cached, one
    /// thread; win/draw/loss, 4x4x4 games only. With `KeyMode::Seed` it is the seed's method.
    Seed,
}

/// Win/draw/loss only, or the exact score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Win, draw or loss.
    Weak,
    /// The exact score (how fast the win or loss comes).
    Strong,
}

impl Mode {
    /// The search's depth for this mode.
    pub fn depth(self) -> Depth {
        match self {
            Mode::Weak => Depth::Weak,
            Mode::Strong => Depth::Strong,
        }
    }
    /// `weak` or `strong`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Weak => "weak",
            Mode::Strong => "strong",
        }
    }
}

/// Which best moves to prove after the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BestMoves {
    /// None: the value only.
    None,
    /// The first move found that keeps the value.
    First,
    /// Every move that keeps the value.
    All,
}

impl BestMoves {
    /// How many best moves to find.
    pub fn limit(self) -> usize {
        match self {
            BestMoves::None => 0,
            BestMoves::First => 1,
            BestMoves::All => usize::MAX,
        }
    }
}

/// How positions are keyed in tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum KeyMode {
    /// The symmetry-normalised position (dead stones in a third state in the 4x4x4 games):
    /// two positions share a key only if they have the same value.
    #[default]
    Sound,
    /// Seed 003's keys (4x4x4 games only): every cell lying only on dead lines set to Black,
    /// then the smallest of the 8 symmetric images. Unsound — it can revive a line for Black
    /// (see `game/cube/keys.rs`) — and kept to recompute the seed's claims, never as a default.
    Seed,
}

impl KeyMode {
    /// Every key mode.
    pub const ALL: [KeyMode; 2] = [KeyMode::Sound, KeyMode::Seed];

    /// `sound` or `seed`.
    pub fn name(self) -> &'static str {
        match self {
            KeyMode::Sound => "sound",
            KeyMode::Seed => "seed",
        }
    }
}

/// The question the proof-number search settles first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FirstQuestion {
    /// Does the side to move win?
    Win,
    /// Does the side to move lose?
    Loss,
}

impl FirstQuestion {
    /// The proof search's form of the question.
    pub fn proof_question(self) -> ProofQuestion {
        match self {
            FirstQuestion::Win => ProofQuestion::MoverWins,
            FirstQuestion::Loss => ProofQuestion::OpponentWins,
        }
    }
}

/// Everything that decides how a position is searched. The defaults of each game come from
/// [`SolverConfig::for_game`]; a front end overrides fields its user set. A solve reports the
/// configuration it actually ran with (threads and memory resolved).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolverConfig {
    /// The search.
    pub engine: Engine,
    /// Weak (win/draw/loss) or strong (exact score).
    pub mode: Mode,
    /// Which best moves to prove after the value.
    pub best: BestMoves,
    /// Bytes for the search's tables (the proof-number search gives half to its endgames).
    pub mem_bytes: u64,
    /// Search threads (0 = one per core until resolved by a solve).
    pub threads: usize,
    /// Seed of the key hash where keys are hashes (the 4x4x4 games; large Connect Four
    /// boards); a second seed confirms a result against hash collisions.
    pub hash_seed: u64,
    /// How positions are keyed.
    pub key_mode: KeyMode,
    /// Alpha-beta: enhanced transposition cutoffs at nodes with at least this many empty cells.
    pub etc_min_empty: u32,
    /// Alpha-beta, weak: count games reaching this ply as draws first (0: no cap).
    pub cap: u32,
    /// Alpha-beta, weak: deepen the cap by this many plies before the uncapped search (0: off).
    pub step: u32,
    /// Alpha-beta, weak: how many deepening caps to try.
    pub tries: u32,
    /// Forcing-win tests inside alpha-beta at nodes with at least this many empty cells
    /// (`None`: off).
    pub forcing_min_empty: Option<u32>,
    /// Attacking moves per forcing-win test.
    pub vcf_budget: u32,
    /// Proof-number search: alpha-beta below this many empty cells (0: off).
    pub endgame: u32,
    /// Proof-number search: the i-th child's number counts `1 + i/order_bias` times.
    pub order_bias: u64,
    /// Proof-number search: find an attacker's threat zone only when entered, counting it as
    /// this many defences until then (`None`: every zone at once).
    pub zone_guess: Option<u32>,
    /// Proof-number search: once a move fails, try its siblings by replaying that proof,
    /// expanding at most this many positions per replay (0: off).
    pub replay_budget: u32,
    /// Forcing-win tests: a line of threats may also end where the static bounds prove the
    /// defender lost (Sogo's pairings: a zugzwang), not only in two threats at once.
    #[serde(default)]
    pub zugzwang_lines: bool,
    /// Proof-number search: settle this question completely first (`None`: the two chosen by
    /// their proof numbers).
    pub first: Option<FirstQuestion>,
}

impl SolverConfig {
    /// The defaults of `game`: what `zugzwang solve GAME` runs without options.
    pub fn for_game(game: GameSpec) -> SolverConfig {
        match game {
            GameSpec::Connect4 { width, height } => super::games::connect4::defaults(width, height),
            GameSpec::Cube(rules) => super::games::cube::defaults(rules),
        }
    }

    /// The same configuration with `threads` = 0 replaced by the machine's core count (the
    /// seed search runs one, as the seed did).
    pub fn with_resolved_threads(mut self) -> SolverConfig {
        if self.engine == Engine::Seed {
            self.threads = 1;
        } else if self.threads == 0 {
            self.threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        }
        self
    }

    /// Refuses combinations no engine can run, with a one-line reason.
    pub fn check(&self) -> Result<(), String> {
        if self.engine == Engine::Pn && self.mode == Mode::Strong {
            return Err(
                "the exact score needs --engine alphabeta (proof-number search gives win/draw/loss)"
                    .into(),
            );
        }
        if self.engine == Engine::Seed && self.mode == Mode::Strong {
            return Err(
                "the seed search gives win/draw/loss; the exact score needs --engine alphabeta"
                    .into(),
            );
        }
        if self.order_bias == 0 {
            return Err("--order-bias must be at least 1".into());
        }
        Ok(())
    }
}

/// A word that names no value of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownWord {
    what: &'static str,
    word: String,
    choices: &'static str,
}

impl fmt::Display for UnknownWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a {} (choose {})",
            self.word, self.what, self.choices
        )
    }
}

impl std::error::Error for UnknownWord {}

macro_rules! words {
    ($t:ty, $what:literal, $($word:literal => $v:expr),+) => {
        impl FromStr for $t {
            type Err = UnknownWord;
            fn from_str(s: &str) -> Result<Self, UnknownWord> {
                match s {
                    $($word => Ok($v),)+
                    _ => Err(UnknownWord {
                        what: $what,
                        word: s.to_string(),
                        choices: concat!($($word, " "),+),
                    }),
                }
            }
        }
    };
}

words!(Engine, "search engine", "pn" => Engine::Pn, "alphabeta" => Engine::Alphabeta, "seed" => Engine::Seed);
words!(BestMoves, "best-move choice", "none" => BestMoves::None, "first" => BestMoves::First, "all" => BestMoves::All);
words!(FirstQuestion, "first question", "win" => FirstQuestion::Win, "loss" => FirstQuestion::Loss);
words!(KeyMode, "key mode", "sound" => KeyMode::Sound, "seed" => KeyMode::Seed);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    #[test]
    fn every_game_has_a_runnable_default() {
        for name in GameSpec::NAMES {
            let spec = GameSpec::from_name(name, None).unwrap();
            let cfg = SolverConfig::for_game(spec);
            assert_eq!(cfg.check(), Ok(()), "{name}");
        }
        let c4 = SolverConfig::for_game(GameSpec::CONNECT4);
        assert_eq!((c4.engine, c4.mode), (Engine::Alphabeta, Mode::Strong));
        let sogo = SolverConfig::for_game(GameSpec::Cube(Rules::Sogo));
        assert_eq!((sogo.engine, sogo.mode), (Engine::Pn, Mode::Weak));
        let strong_pn = SolverConfig {
            mode: Mode::Strong,
            ..sogo
        };
        assert!(strong_pn.check().is_err());
    }

    #[test]
    fn words_parse_and_strangers_name_the_choices() {
        assert_eq!("pn".parse::<Engine>(), Ok(Engine::Pn));
        assert_eq!("all".parse::<BestMoves>(), Ok(BestMoves::All));
        let e = "fast".parse::<Engine>().unwrap_err().to_string();
        assert!(e.contains("pn") && e.contains("alphabeta"), "{e}");
    }
}
