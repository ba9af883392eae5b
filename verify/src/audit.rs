//! The audit: every rule line of both versions, and the n-threat evaluator, against both oracles.

use crate::abstract_game::AbstractGame;
use crate::cases::{self, Rng};
use crate::draw;
use crate::real::{self, RealOracle};
use crate::threats::reduce::Evaluator;
use crate::threats::{self, lemmas, Colour, Threat, Version};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::time::Instant;
use zugzwang::game::Game;

/// What to audit and how much.
#[derive(Clone, Debug)]
pub struct Options {
    /// The versions of the note to audit.
    pub versions: Vec<Version>,
    /// Real positions wanted per pattern class.
    pub samples: usize,
    /// Seed of the random generators.
    pub seed: u64,
    /// Random threat sets per size (3 and 4) for the evaluator's abstract audit.
    pub eval_sets: usize,
    /// Starting fillings tried per random threat set.
    pub eval_starts: usize,
    /// At most this many random games for the real samples.
    pub max_games: u64,
    /// Stop the real sampling after this many seconds (`None`: no limit).
    pub real_seconds: Option<f64>,
    /// Transposition table of the real oracle, bytes.
    pub table_bytes: usize,
    /// Real samples start at this ply.
    pub min_ply: u32,
}

/// A smallest disagreement, drawn in the seed's notation.
#[derive(Clone, Debug, Serialize)]
pub struct Counterexample {
    /// The threats (column letter, row in the version's counting, colour letter).
    pub threats: String,
    /// Empty cells (the side to move follows: White when even).
    pub empty: u32,
    /// Side to move.
    pub to_move: &'static str,
    /// The value the rule claims (White's view).
    pub rule_value: i8,
    /// The oracle's exact value (White's view).
    pub oracle_value: i8,
    /// For real positions: the move string from the empty board (1-based columns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
    /// For real positions: whether (I) holds (no new threat can arise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub i_holds: Option<bool>,
    /// The board in the version's notation.
    pub board: String,
    #[serde(skip)]
    rank: (u8, u32),
}

/// One output row: a (version, lemma, line, oracle) with its tallies.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// `000`, `001`, or `eval` for the n-threat evaluator.
    pub version: String,
    /// Lemma number (`2.9`), or `n=3` (number of threats) for the evaluator.
    pub lemma: String,
    /// `rule k` or `prose k` (or `reduce`).
    pub rule: String,
    /// The line as written.
    pub text: String,
    /// Our remark on the line, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The value the line claims (`None` for the evaluator, whose value varies).
    pub value: Option<i8>,
    /// `abstract` or `real`.
    pub oracle: &'static str,
    /// Cases (abstract) or positions (real) the line applies to.
    pub tried: u64,
    /// Of those, how many the oracle confirms.
    pub agree: u64,
    /// And how many it contradicts.
    pub disagree: u64,
    /// Real only: positions that also satisfy (I).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tried_i: Option<u64>,
    /// Real only: of those, confirmed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agree_i: Option<u64>,
    /// The smallest disagreement (fewest empty cells; on real positions (I)-positions first).
    pub counterexample: Option<Counterexample>,
}

impl Row {
    fn tally(&mut self, ok: bool, i_holds: Option<bool>, make: impl FnOnce() -> Counterexample) {
        self.tried += 1;
        if let Some(i) = i_holds {
            if i {
                *self.tried_i.get_or_insert(0) += 1;
                if ok {
                    *self.agree_i.get_or_insert(0) += 1;
                }
            }
        }
        if ok {
            self.agree += 1;
            return;
        }
        self.disagree += 1;
        let ce = make();
        let replace = match &self.counterexample {
            None => true,
            Some(c) => c.rank > ce.rank,
        };
        if replace {
            self.counterexample = Some(ce);
        }
    }
}

/// Measured facts about the run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Abstract cases evaluated (threat set x filling), 1-2 threats.
    pub abstract_cases: u64,
    /// Threat sets searched exhaustively.
    pub abstract_sets: u64,
    /// States the abstract searches expanded.
    pub abstract_nodes: u64,
    /// Threat sets (1-2 threats, exhaustive; 3-4, sampled) whose exact abstract value differs
    /// between two of their starting fillings: the note's premise is that it never does.
    pub start_dependent_sets: u64,
    /// Seconds for the abstract audit.
    pub abstract_seconds: f64,
    /// Random games played for real samples.
    pub games: u64,
    /// Real positions solved.
    pub real_positions: u64,
    /// Solver nodes.
    pub real_nodes: u64,
    /// Seconds for the real audit.
    pub real_seconds: f64,
    /// Real positions satisfying (I), checked against the abstract oracle.
    pub consistency_checked: u64,
    /// Of those, how many disagreed (must be 0: under (I) the games are the same).
    pub consistency_failed: u64,
    /// Physical rows (0 = bottom) of the threats of real (I)-positions: (I) and (V) together
    /// leave room only for threats on the top row (see the report).
    pub i_threat_rows: [u64; 6],
    /// Real positions without (I), by number of threats (index n-1): exact wins (either side).
    pub wins_without_i: [u64; 4],
    /// Of those, how many the n-threat evaluator names correctly (the winner).
    pub wins_recognised: [u64; 4],
    /// Real positions without (I) where the evaluator claims a win the exact value denies.
    pub false_wins: [u64; 4],
    /// Real samples per pattern class (positions taken under the plain quota, (I) or not).
    pub per_class: BTreeMap<String, u64>,
    /// Real samples per pattern class that satisfy (I) (a second quota, since they are rare).
    pub per_class_i: BTreeMap<String, u64>,
}

/// The audit's result.
pub struct Audit {
    /// All rows: per version, lemma, line: abstract then real; then the evaluator rows.
    pub rows: Vec<Row>,
    /// Measurements.
    pub stats: Stats,
    /// The options used.
    pub options: Options,
}

struct LineRef {
    version: Version,
    value: i8,
    line: &'static threats::RuleLine,
    row: usize,
}

fn to_move(empty: u32) -> &'static str {
    match Colour::to_move_with_empty(empty) {
        Colour::White => "White",
        Colour::Black => "Black",
    }
}

/// The threats as `C4b ...` with rows in version `v`'s counting (as the drawn board labels them).
fn threat_list(t: &[Threat], v: Version) -> String {
    t.iter()
        .map(|t| {
            format!(
                "{}{}{}",
                t.col_letter(),
                v.row_of(t.row),
                t.colour.threat_letter()
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A counterexample found by the abstract oracle: the threat set, the column heights it was
/// played from, and the two values (rows drawn in `version`'s counting).
fn abstract_counterexample(
    set: &[Threat],
    h: [u8; 7],
    version: Version,
    rule_value: i8,
    oracle_value: i8,
) -> Counterexample {
    let empty = cases::empty_cells(&h);
    Counterexample {
        threats: threat_list(set, version),
        empty,
        to_move: to_move(empty),
        rule_value,
        oracle_value,
        moves: None,
        i_holds: None,
        board: draw::draw_heights(h, set, version),
        rank: (0, empty),
    }
}

/// Runs the audit.
pub fn run(opt: &Options) -> Audit {
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    for &v in &opt.versions {
        for l in lemmas(v) {
            for line in l.lines {
                lines.push(LineRef {
                    version: v,
                    value: line.value,
                    line,
                    row: rows.len(),
                });
                for oracle in ["abstract", "real"] {
                    rows.push(Row {
                        version: v.name().to_string(),
                        lemma: l.id.to_string(),
                        rule: line.label(),
                        text: line.text.to_string(),
                        comment: line.comment.map(str::to_string),
                        value: Some(line.value),
                        oracle,
                        tried: 0,
                        agree: 0,
                        disagree: 0,
                        tried_i: None,
                        agree_i: None,
                        counterexample: None,
                    });
                }
            }
        }
    }
    let eval_base = rows.len();
    for k in 1..=4 {
        for oracle in ["abstract", "real"] {
            rows.push(Row {
                version: "eval".into(),
                lemma: format!("n={k}"),
                rule: "reduce".into(),
                text: "n threats -> n-1 by the zugzwang case split (note's closing idea)".into(),
                comment: None,
                value: None,
                oracle,
                tried: 0,
                agree: 0,
                disagree: 0,
                tried_i: None,
                agree_i: None,
                counterexample: None,
            });
        }
    }
    let mut stats = Stats::default();
    let mut evaluator = Evaluator::new(6);
    // the version whose row labels draw the evaluator's counterexamples
    let draw_v = opt.versions[0];

    // ---- abstract oracle: exhaustive for 1 and 2 threats
    let t0 = Instant::now();
    for k in 1..=2 {
        for set in cases::threat_sets(k) {
            let matching: Vec<&LineRef> = lines
                .iter()
                .filter(|l| l.line.matches(&set, l.version))
                .collect();
            let eval = evaluator.evaluate(&set).expect("rows 1..5");
            let mut game = AbstractGame::new(&set);
            stats.abstract_sets += 1;
            let (mut lo, mut hi) = (1i8, -1i8);
            for h in cases::starts(&set) {
                let v = game.value(h);
                lo = lo.min(v);
                hi = hi.max(v);
                stats.abstract_cases += 1;
                for l in &matching {
                    rows[l.row].tally(l.value == v, None, || {
                        abstract_counterexample(&set, h, l.version, l.value, v)
                    });
                }
                rows[eval_base + 2 * (k - 1)].tally(eval == v, None, || {
                    abstract_counterexample(&set, h, draw_v, eval, v)
                });
            }
            stats.abstract_nodes += game.nodes;
            if lo != hi {
                stats.start_dependent_sets += 1;
            }
        }
    }
    // ---- abstract oracle, sampled: the evaluator on 3 and 4 threats
    let mut rng = Rng(opt.seed ^ 0xabcd);
    for k in 3..=4 {
        for _ in 0..opt.eval_sets {
            let set = cases::random_set(&mut rng, k);
            let eval = evaluator.evaluate(&set).expect("rows 1..5");
            let mut game = AbstractGame::new(&set);
            let starts = cases::starts(&set);
            let (mut lo, mut hi) = (1i8, -1i8);
            for _ in 0..opt.eval_starts.min(starts.len()) {
                let h = starts[rng.below(starts.len() as u64) as usize];
                let v = game.value(h);
                lo = lo.min(v);
                hi = hi.max(v);
                rows[eval_base + 2 * (k - 1)].tally(eval == v, None, || {
                    abstract_counterexample(&set, h, draw_v, eval, v)
                });
            }
            stats.abstract_nodes += game.nodes;
            if lo != hi {
                stats.start_dependent_sets += 1;
            }
        }
    }
    stats.abstract_seconds = t0.elapsed().as_secs_f64();

    // ---- real oracle
    let t1 = Instant::now();
    if opt.samples > 0 {
        let mut classes: BTreeMap<String, u64> = BTreeMap::new();
        for k in 1..=2 {
            for set in cases::threat_sets(k) {
                classes.insert(real::class_of(&set), 0);
            }
        }
        classes.insert("3 threats".into(), 0);
        classes.insert("4 threats".into(), 0);
        let mut classes_i = classes.clone();
        let mut open = classes.len() + classes_i.len();
        let mut oracle = RealOracle::new(opt.table_bytes);
        let mut seen = HashSet::new();
        let mut rng = Rng(opt.seed);
        while open > 0 && stats.games < opt.max_games {
            if let Some(limit) = opt.real_seconds {
                if t1.elapsed().as_secs_f64() > limit {
                    break;
                }
            }
            stats.games += 1;
            for cand in real::careful_game(&mut rng, opt.min_ply, 4) {
                // two quotas per class: any (V)-position, and (V)+(I)-positions (rare in play)
                let class = real::class_of(&cand.threats);
                let i_holds = threats::satisfies_i(&cand.pos);
                let quota = opt.samples as u64;
                let count = classes.entry(class.clone()).or_insert(0);
                let count_i = classes_i.entry(class).or_insert(0);
                let plain = *count < quota;
                let extra_i = i_holds && *count_i < quota;
                if !(plain || extra_i) || !seen.insert(cand.pos.raw_key()) {
                    continue;
                }
                if plain {
                    *count += 1;
                    if *count == quota {
                        open -= 1;
                    }
                }
                if extra_i {
                    *count_i += 1;
                    if *count_i == quota {
                        open -= 1;
                    }
                }
                let value = oracle.white_value(&cand.pos);
                stats.real_positions += 1;
                let empty = cand.pos.max_ply() - cand.pos.ply();
                let heights = draw::heights_of(&cand.pos);
                if i_holds {
                    for t in &cand.threats {
                        stats.i_threat_rows[t.row as usize] += 1;
                    }
                    let v = AbstractGame::new(&cand.threats).value(heights);
                    stats.consistency_checked += 1;
                    if v != value {
                        stats.consistency_failed += 1;
                    }
                }
                let make = |rule_value: i8, v: Version| Counterexample {
                    threats: threat_list(&cand.threats, v),
                    empty,
                    to_move: to_move(empty),
                    rule_value,
                    oracle_value: value,
                    moves: Some(cand.moves.clone()),
                    i_holds: Some(i_holds),
                    board: draw::draw_position(&cand.pos, &cand.threats, v),
                    rank: (u8::from(!i_holds), empty),
                };
                for l in &lines {
                    if l.line.matches(&cand.threats, l.version) {
                        rows[l.row + 1]
                            .tally(l.value == value, Some(i_holds), || make(l.value, l.version));
                    }
                }
                if let Some(eval) = evaluator.evaluate(&cand.threats) {
                    let k = cand.threats.len();
                    if !i_holds {
                        if value != 0 {
                            stats.wins_without_i[k - 1] += 1;
                            if eval == value {
                                stats.wins_recognised[k - 1] += 1;
                            }
                        }
                        if eval != 0 && eval != value {
                            stats.false_wins[k - 1] += 1;
                        }
                    }
                    rows[eval_base + 2 * (k - 1) + 1]
                        .tally(eval == value, Some(i_holds), || make(eval, draw_v));
                }
            }
        }
        stats.real_nodes = oracle.nodes;
        stats.per_class = classes;
        stats.per_class_i = classes_i;
    }
    stats.real_seconds = t1.elapsed().as_secs_f64();
    Audit {
        rows,
        stats,
        options: opt.clone(),
    }
}

/// Whether a row is a `REGEL` line (not a prose claim or the evaluator).
pub fn is_rule(row: &Row) -> bool {
    row.rule.starts_with("rule")
}
