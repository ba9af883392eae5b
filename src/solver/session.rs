//! A solver that keeps its tables between questions: the command line's batches, the lemma
//! audit's thousands of positions and a web server's requests all ask many questions of one
//! game, and what one answer proved speeds up the next.

use super::config::{Engine, KeyMode, SolverConfig};
use super::control::{with_ticks, Control};
use super::engines::{self, Found, ProofTables};
use super::games::{game_over_score, Solvable};
use super::outcome::{value_word, MoveScore, Solution, SolveError, TableReport};
use super::GameSpec;
use crate::book::Book;
use crate::game::{Connect4, Cube, Rules};
use crate::search::parallel::thread_pool;
use crate::search::{MemoryTable, Stopped, Table};
use crate::store::{Store, StoreConfig};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Opens (or creates) the position store at `dir` for `game` as `config` keys it, with
/// `mem_bytes` of memory layer and a flush at least every `every`: the one place a solve's store
/// is configured, for the local solver and the job-level master alike.
pub(crate) fn open_store(
    game: GameSpec,
    config: &SolverConfig,
    dir: &Path,
    start: &str,
    every: Duration,
    mem_bytes: usize,
) -> Result<Store, crate::store::StoreError> {
    let manifest = game.store_manifest(config.key_mode, config.hash_seed, start);
    let defaults = StoreConfig::default();
    let cfg = StoreConfig {
        mem_bytes,
        flush_every: defaults.flush_every.min(every),
        // the buffer (sorted into a copy when flushed) within a 64th of the budget
        buffer_entries: ((config.mem_bytes / 64 / 16) as usize)
            .clamp(1 << 10, defaults.buffer_entries),
        // seed 003's keys give different positions one key by design
        keep_first_on_conflict: config.key_mode == KeyMode::Seed,
        ..defaults
    };
    // SAFETY: the store directory belongs to this process for the run (README: one solve per
    // directory at a time, and nothing else writes into it).
    unsafe { Store::open(dir, &manifest, cfg) }
}

/// What to find out about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Its value (weak or strong, as configured) and the best moves asked for.
    Value,
    /// The value of every legal move.
    Analyze,
}

/// The tables a solver keeps, made on the first question.
enum Tables {
    None,
    Memory(MemoryTable),
    Store(Box<Store>),
    Proof(ProofTables),
}

/// A solver for one game with one configuration; see the module documentation.
pub struct Solver {
    game: GameSpec,
    config: SolverConfig,
    tables: Tables,
    /// The position store's directory, if the solver keeps one.
    table_dir: Option<PathBuf>,
    /// Alpha-beta's threads, started on the first question and kept: starting them costs more
    /// than a small search.
    pool: Option<rayon::ThreadPool>,
    /// An opening book asked before any search.
    book: Option<Arc<Book>>,
}

impl Solver {
    /// A solver for `game` running `config` (threads resolved to the machine's cores). Refuses
    /// configurations no engine can run.
    pub fn new(game: GameSpec, config: SolverConfig) -> Result<Solver, SolveError> {
        if config.key_mode == KeyMode::Seed && !matches!(game, GameSpec::Cube(_)) {
            return Err(SolveError::BadInput(format!(
                "--keys seed: seed 003's keys are for the 4x4x4 games, not {}",
                game.name()
            )));
        }
        if config.engine == Engine::Seed && !matches!(game, GameSpec::Cube(_)) {
            return Err(SolveError::BadInput(format!(
                "--engine seed: seed 003's search is for the 4x4x4 games, not {}",
                game.name()
            )));
        }
        config.check().map_err(SolveError::BadInput)?;
        Ok(Solver {
            game,
            config: config.with_resolved_threads(),
            tables: Tables::None,
            table_dir: None,
            pool: None,
            book: None,
        })
    }

    /// The same solver keeping what it proves in the position store at `dir` (created if
    /// missing; a directory made for another game, rule set, key mode or hash seed is refused).
    /// `start` is the position the table is for (its check walks from there). Alpha-beta keeps
    /// its results there; the proof-number search keeps its settled results and gives the
    /// store's memory layer to its endgames.
    pub fn with_table(self, dir: &Path, start: &str) -> Result<Solver, SolveError> {
        self.with_table_saving(dir, start, engines::SEARCH_STATE_EVERY)
    }

    /// [`Solver::with_table`], saving at least every `every`: the results worth keeping go to
    /// the runs every `every` or every few seconds, whichever is sooner, and a proof search's
    /// snapshot for resuming every `every` (less often when writing it would take more than a
    /// twentieth of the time). A kill loses at most that much.
    pub fn with_table_saving(
        mut self,
        dir: &Path,
        start: &str,
        every: Duration,
    ) -> Result<Solver, SolveError> {
        let mem = self.config.mem_bytes;
        let (game, config) = (self.game, &self.config);
        let open = |mem_bytes: usize| open_store(game, config, dir, start, every, mem_bytes);
        if self.config.engine == Engine::Seed && self.game == GameSpec::Cube(Rules::Qubic) {
            return Err(SolveError::BadInput(
                "--engine seed --table: the seed's Qubic values count games past ply 40 as draws \
                 and are not the game's; they are not kept in a table"
                    .into(),
            ));
        }
        self.tables = match self.config.engine {
            Engine::Alphabeta | Engine::Seed => Tables::Store(Box::new(open(mem as usize)?)),
            Engine::Pn => Tables::Proof(ProofTables::with_store(
                mem,
                self.config.endgame > 0,
                self.config.threads,
                every,
                open,
            )?),
        };
        self.table_dir = Some(dir.to_path_buf());
        Ok(self)
    }

    /// The same solver answering from `book` whatever the book holds (a question whose
    /// position, or for best moves and analysis whose every child, is in it), searching only
    /// beyond. A book for another game or board is refused.
    pub fn with_book(mut self, book: Arc<Book>) -> Result<Solver, SolveError> {
        if book.spec() != self.game {
            return Err(SolveError::BadInput(format!(
                "{}: a book for {} {}, not for {} {}",
                book.dir().display(),
                book.spec().name(),
                book.spec().size(),
                self.game.name(),
                self.game.size()
            )));
        }
        self.book = Some(book);
        Ok(self)
    }

    /// Whether the solver keeps a position store.
    pub fn has_table(&self) -> bool {
        self.table_dir.is_some()
    }

    /// The configuration this solver runs.
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// The game this solver is for.
    pub fn game(&self) -> GameSpec {
        self.game
    }

    /// Forgets everything the memory tables hold (the position store keeps its runs): each
    /// question of a timed batch then costs what it costs alone.
    pub fn clear(&mut self) {
        match &mut self.tables {
            Tables::None | Tables::Store(..) => {}
            Tables::Memory(t) => t.clear(),
            Tables::Proof(t) => t.clear(),
        }
    }

    /// Makes the tables now and touches every page, so that later timings measure the search
    /// and not the kernel's page faults.
    pub fn prefault(&mut self) {
        self.make_tables();
        if let Tables::Memory(t) = &self.tables {
            t.prefault();
        }
    }

    fn make_tables(&mut self) {
        if !matches!(self.tables, Tables::None) {
            return;
        }
        let bytes = self.config.mem_bytes;
        self.tables = match self.config.engine {
            Engine::Alphabeta | Engine::Seed => {
                Tables::Memory(MemoryTable::with_bytes(bytes as usize))
            }
            Engine::Pn => Tables::Proof(ProofTables::new(
                bytes,
                self.config.endgame > 0,
                self.config.threads,
            )),
        };
    }

    /// Bytes of the tables in use.
    pub fn table_bytes(&self) -> u64 {
        match &self.tables {
            Tables::None => 0,
            Tables::Memory(t) => t.bytes() as u64,
            Tables::Store(_) => self.config.mem_bytes,
            Tables::Proof(t) => t.bytes(),
        }
    }

    /// Answers `question` about the position written `position` (moves, or the game's board
    /// notation), stopping when `control` is cancelled or `time_limit` passes.
    pub fn solve(
        &mut self,
        position: &str,
        question: Question,
        time_limit: Option<Duration>,
        control: &Control,
    ) -> Result<Solution, SolveError> {
        match self.game {
            GameSpec::Connect4 { .. } => {
                let g = <Connect4 as Solvable>::parse(self.game, position, self.config.hash_seed)
                    .map_err(SolveError::BadInput)?;
                let g = g.keyed(self.config.hash_seed, self.config.key_mode);
                self.answer(&g, position, question, time_limit, control)
            }
            GameSpec::Cube(_) => {
                let g = <Cube as Solvable>::parse(self.game, position, self.config.hash_seed)
                    .map_err(SolveError::BadInput)?;
                let g = g.keyed(self.config.hash_seed, self.config.key_mode);
                self.answer(&g, position, question, time_limit, control)
            }
        }
    }

    /// Answers `question` about a position already in hand (for front ends that generate
    /// positions, such as the audit in `verify/`). Its game must be this solver's; it is keyed
    /// with the solver's hash seed and key mode.
    pub fn solve_position<G: Solvable>(
        &mut self,
        g: &G,
        question: Question,
        time_limit: Option<Duration>,
        control: &Control,
    ) -> Result<Solution, SolveError> {
        if g.spec() != self.game {
            return Err(SolveError::BadInput(format!(
                "a {} position given to a solver for {}",
                g.spec().name(),
                self.game.name()
            )));
        }
        let g = g.keyed(self.config.hash_seed, self.config.key_mode);
        self.answer(&g, &g.position_text(), question, time_limit, control)
    }

    fn answer<G: Solvable>(
        &mut self,
        g: &G,
        text: &str,
        question: Question,
        time_limit: Option<Duration>,
        control: &Control,
    ) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let analyze = question == Question::Analyze;
        let over = game_over_score(g);
        let booked = match (&self.book, over) {
            (Some(book), None) => {
                book.count(super::from_book::found(book, g, &self.config, analyze))
            }
            _ => None,
        };
        let from_book = booked.is_some();
        let mut found = match (over, booked) {
            (None, Some(found)) => found,
            (Some(score), _) => Found {
                score: engines::weaken(score, self.config.mode),
                best: Vec::new(),
                nodes: 0,
                cap: None,
                probes: Vec::new(),
                move_scores: analyze.then(Vec::new),
            },
            (None, None) => {
                control.set_move_names((0..64).map(|cell| g.move_name(1 << cell)).collect());
                self.make_tables();
                if self.config.engine == Engine::Alphabeta && self.pool.is_none() {
                    self.pool = Some(thread_pool(self.config.threads)?);
                }
                let (cfg, pool) = (&self.config, self.pool.as_ref());
                let run = || match (&self.tables, pool) {
                    (Tables::Memory(t), _) if cfg.engine == Engine::Seed => {
                        engines::seed(g, t, cfg, control, analyze)
                    }
                    (Tables::Store(s), _) if cfg.engine == Engine::Seed => {
                        engines::seed(g, s.as_ref(), cfg, control, analyze)
                    }
                    (Tables::Memory(t), Some(p)) => {
                        engines::alphabeta(g, t, true, p, cfg, control, analyze)
                    }
                    (Tables::Store(s), Some(p)) => {
                        engines::alphabeta(g, s.as_ref(), false, p, cfg, control, analyze)
                    }
                    (Tables::Proof(t), _) => engines::proof_number(g, t, cfg, control, analyze),
                    _ => unreachable!("tables and threads are made above"),
                };
                // a store that failed (a write error; a contradiction under sound keys) keeps
                // nothing more: the solve stops at once rather than search on for nothing
                let store = self.store();
                let watched = || match store {
                    Some(s) => with_ticks(
                        Duration::from_secs(1),
                        || {
                            if s.error().is_some() {
                                control.cancel();
                            }
                        },
                        run,
                    ),
                    None => run(),
                };
                match control.run_timed(time_limit, watched) {
                    Ok(found) => found,
                    Err(Stopped) => {
                        let table = self.flush()?;
                        return Err(SolveError::Stopped {
                            reason: control
                                .stopped()
                                .unwrap_or(super::control::StopReason::Cancelled),
                            nodes: control.nodes(),
                            elapsed: start.elapsed(),
                            table,
                        });
                    }
                }
            }
        };
        let table = self.flush()?;
        // every engine lists best moves in board order (a search finds them in its own)
        found.best.sort_unstable();
        let names = |moves: &[u64]| moves.iter().map(|&m| g.move_name(m)).collect();
        Ok(Solution {
            game: self.game.name(),
            size: self.game.size(),
            moves: text.to_string(),
            position: g.position_text(),
            ply: g.ply(),
            game_over: over.is_some(),
            from_book,
            score: found.score,
            value: value_word(found.score),
            weak: self.config.mode == super::config::Mode::Weak,
            best_moves: names(&found.best),
            move_scores: found.move_scores.map(|scores| {
                scores
                    .iter()
                    .map(|&(mv, score)| MoveScore {
                        r#move: g.move_name(mv),
                        score,
                        value: value_word(score),
                    })
                    .collect()
            }),
            nodes: found.nodes,
            micros: start.elapsed().as_micros() as u64,
            proven_under_cap: found.cap,
            table,
            settings: SolverConfig {
                mem_bytes: match self.tables {
                    Tables::None => self.config.mem_bytes,
                    _ => self.table_bytes(),
                },
                ..self.config.clone()
            },
            board: g.render(),
            probes: found.probes,
        })
    }

    /// The position store, if the solver keeps one.
    fn store(&self) -> Option<&Store> {
        match &self.tables {
            Tables::Store(s) => Some(s),
            Tables::Proof(t) => t.store(),
            _ => None,
        }
    }

    /// Writes what the store holds in memory to disk; reports the store's state.
    pub fn flush(&self) -> Result<Option<TableReport>, SolveError> {
        let (Some(store), Some(dir)) = (self.store(), &self.table_dir) else {
            return Ok(None);
        };
        store.flush()?;
        if let Some(e) = store.error() {
            return Err(SolveError::Store(e));
        }
        let st = store.stats();
        Ok(Some(TableReport {
            dir: dir.display().to_string(),
            runs: st.runs,
            entries: st.entries,
            disk_hits: st.disk_hits,
            conflicts: st.conflicts,
        }))
    }
}
