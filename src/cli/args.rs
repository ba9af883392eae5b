//! The arguments every game's `solve` and `analyze` share, and their translation into a library
//! request: one convention for all games (see the README's "Command line").

use super::common::CliError;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Duration;
use zugzwang::game::Rules;
use zugzwang::solver::budget::parse_duration;
use zugzwang::solver::{
    BestMoves, Engine, FirstQuestion, GameSpec, KeyMode, Memory, Mode, Question, Request, Solver,
    SolverConfig,
};

/// The game of a `solve` or `analyze` command, with its position and options.
#[derive(Subcommand)]
pub enum GameArgs {
    /// Connect Four (default 7x6).
    Connect4(Connect4Args),
    /// Sogo (4x4x4 with gravity; -g: creating a poison wins; -q: Qubic rules).
    Sogo(SogoArgs),
    /// Qubic (4x4x4 without gravity).
    Qubic(QubicArgs),
}

/// `connect4 [MOVES] [--size WxH]`.
#[derive(Args)]
pub struct Connect4Args {
    /// Moves from the empty board as 1-based column digits (e.g. 4453); empty = the start.
    #[arg(default_value = "")]
    pub position: String,
    /// Board size WIDTHxHEIGHT; any size with WIDTH*(HEIGHT+1) <= 64.
    #[arg(long, default_value = "7x6")]
    pub size: String,
    #[command(flatten)]
    pub options: SolveOptions,
}

/// `sogo [MOVES|0xW:0xB] [-g] [-q]`.
#[derive(Args)]
pub struct SogoArgs {
    /// Columns a1..d4 from the empty board, or the board as 0xWHITE:0xBLACK.
    #[arg(default_value = "")]
    pub position: String,
    /// Creating a poison wins for its creator on the spot (seed 003's -g).
    #[arg(short = 'g', long = "poison")]
    pub poison: bool,
    /// Play Qubic rules (no gravity): `sogo -q` is `qubic` (seed 003's -q).
    #[arg(short = 'q', long = "qubic")]
    pub qubic: bool,
    #[command(flatten)]
    pub options: SolveOptions,
}

/// `qubic [CELLS|0xW:0xB]`.
#[derive(Args)]
pub struct QubicArgs {
    /// Cells a11..d44 (column, then level 1..4) from the empty board, or 0xWHITE:0xBLACK.
    #[arg(default_value = "")]
    pub position: String,
    #[command(flatten)]
    pub options: SolveOptions,
}

/// Options with the same meaning in every game. Unset options take the game's defaults
/// (`zugzwang::solver::SolverConfig::for_game`).
#[derive(Args, Clone, Default)]
pub struct SolveOptions {
    /// Only win/draw/loss (the default of the 4x4x4 games).
    #[arg(long, conflicts_with = "strong")]
    pub weak: bool,
    /// The exact score: how fast the win or loss comes (the default of Connect Four; in the
    /// 4x4x4 games it selects the alpha-beta engine unless --engine says otherwise).
    #[arg(long)]
    pub strong: bool,
    /// The search: `alphabeta`, `pn` (proof-number search: win/draw/loss only) or `seed` (seed
    /// 003's own search: 4x4x4 games, win/draw/loss, one thread). Default: alphabeta for
    /// Connect Four, pn for the 4x4x4 games.
    #[arg(long)]
    pub engine: Option<Engine>,
    /// Which best moves to prove after the value: none, first, all. Default: all for Connect
    /// Four, first for the 4x4x4 games (proving every best move can cost far more).
    #[arg(long)]
    pub best: Option<BestMoves>,
    /// Memory for the tables (e.g. 512M, 4G). auto: the game's default (`--json` reports it
    /// under `settings`).
    #[arg(long, default_value = "auto")]
    pub mem: String,
    /// Search threads sharing the tables (0 = one per core, the default). The value never
    /// depends on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop after this much time (e.g. 90s, 30m, 2h): the answer is then "not decided"
    /// (exit status 3); a --table keeps what was proved.
    #[arg(long, value_name = "DURATION")]
    pub time_limit: Option<String>,
    /// Keep proven results in this position store directory: a repeated or restarted solve
    /// continues from it. Inspect it with `zugzwang table stats|check DIR`.
    #[arg(long, value_name = "DIR")]
    pub table: Option<PathBuf>,
    /// Answer from the opening book in this directory (made by `zugzwang book build`) whatever
    /// it holds; search only beyond it.
    #[arg(long, value_name = "DIR")]
    pub book: Option<PathBuf>,
    /// With --table: save at least this often (e.g. 10s, 5m); a kill loses at most this much.
    /// Default: results every 5 s, the proof search's snapshot for resuming every minute.
    #[arg(long, value_name = "DURATION", requires = "table")]
    pub save_every: Option<String>,
    /// Seed of the position hash where keys are hashes (a second seed confirms a result
    /// against hash collisions).
    #[arg(long)]
    pub hash_seed: Option<u64>,
    /// How positions are keyed: `sound` (the symmetry-normalised position), or `seed` (4x4x4
    /// games: seed 003's unsound keys, to recompute its claims).
    #[arg(long)]
    pub keys: Option<KeyMode>,
    /// Output as JSON (one object per position).
    #[arg(long)]
    pub json: bool,
    /// Write a record of the run (JSON) into this directory, e.g. solve-runs/.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// Also print every null-window probe of the score search (alpha-beta).
    #[arg(long)]
    pub verbose: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
    /// Solve every line `POSITION [EXPECTED_SCORE]` of FILE (`-` = stdin) and summarise;
    /// exit status 1 if any expected score is not matched.
    #[arg(long, value_name = "FILE")]
    pub batch: Option<String>,
    /// pn: settle this question completely first (`win`: does the side to move win?,
    /// `loss`: does it lose?) instead of letting the proof numbers choose between the two;
    /// the value is the same.
    #[arg(long)]
    pub first: Option<FirstQuestion>,
    /// pn: settle positions with at most this many empty cells by alpha-beta (0: off).
    #[arg(long)]
    pub endgame: Option<u32>,
    /// Attacking moves a forcing-win test may try per position.
    #[arg(long)]
    pub vcf_budget: Option<u32>,
    /// pn: how strongly to prefer better-ordered moves (the i-th move's proof number counts
    /// 1 + i/K times).
    #[arg(long, value_name = "K")]
    pub order_bias: Option<u64>,
    /// pn: find the threat zone of an attacker's move only when the search enters it,
    /// counting it as N defences until then (0: every zone at once).
    #[arg(long, value_name = "N")]
    pub zone_guess: Option<u32>,
    /// pn: once a move fails, try its siblings by replaying that proof, expanding at most N
    /// positions per replay (0: off).
    #[arg(long, value_name = "N")]
    pub replay_budget: Option<u32>,
    /// Forcing-win tests: let a line of threats end in a zugzwang the static bounds prove
    /// (plain Sogo's pairings; default on for the 4x4x4 games).
    #[arg(long, value_name = "on|off", value_parser = clap::builder::BoolishValueParser::new(), hide_possible_values = true)]
    pub zugzwang_lines: Option<bool>,
    /// alphabeta, weak: count games reaching this ply as draws first (0: no cap; a win under
    /// the cap is real, anything else is re-checked without it).
    #[arg(long)]
    pub cap: Option<u32>,
    /// alphabeta, weak: deepen the cap by this many plies at a time before the uncapped search
    /// (0: no deepening).
    #[arg(long)]
    pub step: Option<u32>,
    /// alphabeta, weak: how many deepening caps to try.
    #[arg(long)]
    pub tries: Option<u32>,
    /// alphabeta: enhanced transposition cutoffs only at nodes with at least this many empty
    /// cells.
    #[arg(long)]
    pub etc: Option<u32>,
}

impl GameArgs {
    /// The game, the position text and the options.
    pub fn parts(&self) -> Result<(GameSpec, &str, &SolveOptions), CliError> {
        Ok(match self {
            GameArgs::Connect4(a) => (
                GameSpec::from_name("connect4", Some(&a.size)).map_err(bad)?,
                &a.position,
                &a.options,
            ),
            GameArgs::Sogo(a) => (
                GameSpec::Cube(cube_rules(a.qubic, a.poison)?),
                &a.position,
                &a.options,
            ),
            GameArgs::Qubic(a) => (GameSpec::Cube(Rules::Qubic), &a.position, &a.options),
        })
    }
}

/// The rules of `sogo` with `-q` and `-g`.
pub fn cube_rules(qubic: bool, poison: bool) -> Result<Rules, CliError> {
    match (qubic, poison) {
        (true, true) => Err(CliError::BadInput(
            "-g (poison wins) applies to Sogo only, not to Qubic".into(),
        )),
        (true, false) => Ok(Rules::Qubic),
        (false, true) => Ok(Rules::SogoPoison),
        (false, false) => Ok(Rules::Sogo),
    }
}

/// Overrides `target` with the user's value, if any.
fn set<T>(target: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *target = v;
    }
}

fn bad(e: impl std::fmt::Display) -> CliError {
    CliError::BadInput(e.to_string())
}

impl SolveOptions {
    /// The game's defaults with every option the user set applied.
    pub fn config(&self, game: GameSpec) -> Result<SolverConfig, CliError> {
        let mut cfg = SolverConfig::for_game(game);
        if self.weak {
            cfg.mode = Mode::Weak;
        }
        if self.strong {
            cfg.mode = Mode::Strong;
            if cfg.engine == Engine::Pn && self.engine.is_none() {
                // the exact score needs alpha-beta; asking for it is asking for that engine
                cfg.engine = Engine::Alphabeta;
            }
        }
        set(&mut cfg.engine, self.engine);
        set(&mut cfg.best, self.best);
        set(&mut cfg.threads, self.threads);
        set(&mut cfg.hash_seed, self.hash_seed);
        set(&mut cfg.key_mode, self.keys);
        set(&mut cfg.endgame, self.endgame);
        set(&mut cfg.vcf_budget, self.vcf_budget);
        set(&mut cfg.order_bias, self.order_bias);
        set(&mut cfg.replay_budget, self.replay_budget);
        set(&mut cfg.zugzwang_lines, self.zugzwang_lines);
        set(&mut cfg.cap, self.cap);
        set(&mut cfg.step, self.step);
        set(&mut cfg.tries, self.tries);
        set(&mut cfg.etc_min_empty, self.etc);
        if let Some(n) = self.zone_guess {
            cfg.zone_guess = (n > 0).then_some(n);
        }
        if self.first.is_some() {
            cfg.first = self.first;
        }
        cfg.mem_bytes = self
            .memory()?
            .resolve(cfg.mem_bytes)
            .map_err(|e| CliError::BadInput(format!("--mem: {e}")))?;
        cfg.check().map_err(CliError::BadInput)?;
        Ok(cfg)
    }

    /// `--mem` as given.
    pub fn memory(&self) -> Result<Memory, CliError> {
        Memory::parse(&self.mem).map_err(|e| CliError::BadInput(format!("--mem: {e}")))
    }

    /// `solver` answering from `--book` first, if given.
    pub fn with_book(&self, solver: Solver) -> Result<Solver, CliError> {
        let Some(dir) = &self.book else {
            return Ok(solver);
        };
        let book = zugzwang::book::Book::open(dir).map_err(|e| match e {
            zugzwang::book::BookError::BadInput(s) => CliError::BadInput(s),
            e => CliError::Failed(e.to_string()),
        })?;
        Ok(solver.with_book(std::sync::Arc::new(book))?)
    }

    /// `--save-every`, parsed.
    pub fn save_every(&self) -> Result<Option<Duration>, CliError> {
        self.save_every
            .as_deref()
            .map(|t| {
                parse_duration(t).map_err(|e| CliError::BadInput(format!("--save-every: {e}")))
            })
            .transpose()
    }

    /// The request for `position`.
    pub fn request(
        &self,
        game: GameSpec,
        position: &str,
        question: Question,
    ) -> Result<Request, CliError> {
        let time_limit = match &self.time_limit {
            Some(t) => Some(
                parse_duration(t).map_err(|e| CliError::BadInput(format!("--time-limit: {e}")))?,
            ),
            None => None,
        };
        Ok(Request {
            game,
            position: position.to_string(),
            question,
            config: self.config(game)?,
            table: self.table.clone(),
            time_limit,
        })
    }
}
