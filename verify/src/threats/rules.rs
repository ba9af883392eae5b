//! The lemma rule tables of the note, both versions, as data.
//!
//! Every `REGEL` line is encoded literally: its threat pattern (row expression in `m` or `n`,
//! column variable, colour), its conditions (`mit s1 != s2`, `falls 2*m-1 < 2*n`) exactly as
//! written, and its value. Where the lemma's prose claims something different from its rule
//! lines (a typo in a rule, a missing column condition), the prose claim is encoded as well, as
//! separate lines with [`Source::Prose`], and both are audited. Nothing is corrected silently: a
//! suspected typo is kept and explained in the line's `comment`.
//!
//! Matching semantics (the literal reading): a threat set matches a line when its threats can be
//! assigned one-to-one to the line's pattern entries such that every row equals its expression
//! for some integers `m`, `n` (positive in version 000, its (VII)), entries sharing a column
//! variable share the column, and every condition holds. Different column variables (`s1`, `s2`)
//! may name the same column unless a condition says otherwise.

use super::extract::{Colour, Threat};
use serde::Serialize;

/// A version of the note. They differ in where row counting starts, hence in which threats are
/// called even.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Version {
    /// Seed `000_*.txt`: rows counted from 0 (bottom row = 0); has (VII) `m,n > 0`; lemmas 1.1–2.16.
    V000,
    /// Seed `001_*.txt`: rows counted from 1; no (VII); stops after lemma 2.8.
    V001,
}

impl Version {
    /// Both versions, in order.
    pub const ALL: [Version; 2] = [Version::V000, Version::V001];
    /// The seed's number as text (`"000"`, `"001"`).
    pub fn name(self) -> &'static str {
        match self {
            Version::V000 => "000",
            Version::V001 => "001",
        }
    }
    /// The row number of the bottom row in this version's counting.
    pub fn first_row(self) -> u8 {
        match self {
            Version::V000 => 0,
            Version::V001 => 1,
        }
    }
    /// The row of a physical (0-based) row in this version's counting.
    pub fn row_of(self, physical_row: u8) -> u8 {
        physical_row + self.first_row()
    }
    /// Whether the version states (VII) `m,n > 0`.
    pub fn requires_positive_mn(self) -> bool {
        self == Version::V000
    }
    /// Parses `"000"` or `"001"`.
    pub fn parse(text: &str) -> Option<Version> {
        match text {
            "000" => Some(Version::V000),
            "001" => Some(Version::V001),
            _ => None,
        }
    }
}

/// One of the two integer variables of the rule lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    /// `m`.
    M,
    /// `n`.
    N,
}

/// A column variable of the rule lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColVar {
    /// `s` (used twice in a line: the same column).
    S,
    /// `s1`.
    S1,
    /// `s2`.
    S2,
}

/// One threat of a rule's pattern: row `2*var + offset` (in the version's counting), column
/// variable, colour.
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    /// The variable in the row expression.
    pub var: Var,
    /// The constant of the row expression (`0` for `2*m`, `-1` for `2*m-1`).
    pub offset: i8,
    /// The column variable.
    pub col: ColVar,
    /// The threat's owner.
    pub colour: Colour,
}

/// A linear expression `a*m + b*n + c`, for the conditions of lemma 2.9.
#[derive(Clone, Copy, Debug)]
pub struct Lin {
    /// Coefficient of `m`.
    pub m: i8,
    /// Coefficient of `n`.
    pub n: i8,
    /// Constant.
    pub c: i8,
}

impl Lin {
    fn eval(self, m: i32, n: i32) -> i32 {
        self.m as i32 * m + self.n as i32 * n + self.c as i32
    }
}

/// A condition of a rule line, exactly as written there.
#[derive(Clone, Copy, Debug)]
pub enum Cond {
    /// `mit s1 != s2`.
    ColsDiffer(ColVar, ColVar),
    /// `falls a < b` (a `>` in the text is written with the sides swapped).
    Less(Lin, Lin),
}

/// Where a line comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The k-th `REGEL` line (1-based) under the lemma.
    Rule(u8),
    /// The claim of the lemma's prose, where it differs from its `REGEL` lines (k-th such line).
    Prose(u8),
}

/// One line of a lemma: a pattern, conditions and the claimed value of `u`.
#[derive(Clone, Copy, Debug)]
pub struct RuleLine {
    /// Rule line or prose claim.
    pub source: Source,
    /// The line as written in the seed (for a prose claim: our transcription of the prose).
    pub text: &'static str,
    /// The threat pattern.
    pub slots: &'static [Slot],
    /// The conditions.
    pub conds: &'static [Cond],
    /// The claimed `u` (White's view: 1 White wins, 0 draw, -1 Black wins).
    pub value: i8,
    /// Our remark on this line (suspected typo, missing condition), if any.
    pub comment: Option<&'static str>,
}

/// A lemma of one version: its number, a one-line summary of its prose, and its lines.
#[derive(Clone, Copy, Debug)]
pub struct Lemma {
    /// The version of the note.
    pub version: Version,
    /// The lemma's number as printed (`"2.9"`); `"2.2a"` for the unnumbered rules after 2.2.
    pub id: &'static str,
    /// The lemma's claim, summarised from the prose (German terms kept).
    pub claim: &'static str,
    /// The `REGEL` lines, then the prose claims that differ from them.
    pub lines: &'static [RuleLine],
}

impl RuleLine {
    /// A short label: `rule 2` or `prose 1`.
    pub fn label(&self) -> String {
        match self.source {
            Source::Rule(k) => format!("rule {k}"),
            Source::Prose(k) => format!("prose {k}"),
        }
    }

    /// Whether the threat set `threats` (physical rows) matches this line in version `v` (see
    /// the module documentation for the literal reading).
    pub fn matches(&self, threats: &[Threat], v: Version) -> bool {
        if threats.len() != self.slots.len() || threats.len() > 4 {
            return false;
        }
        let mut used = [false; 4];
        let mut bind = Binding::default();
        self.assign(threats, v, 0, &mut used, &mut bind)
    }

    fn assign(
        &self,
        threats: &[Threat],
        v: Version,
        slot: usize,
        used: &mut [bool; 4],
        bind: &mut Binding,
    ) -> bool {
        if slot == self.slots.len() {
            return self.conds.iter().all(|c| bind.holds(c));
        }
        let s = self.slots[slot];
        for i in 0..threats.len() {
            if used[i] || threats[i].colour != s.colour {
                continue;
            }
            let row = v.row_of(threats[i].row) as i32 - s.offset as i32;
            if row % 2 != 0 {
                continue;
            }
            let val = row / 2;
            if v.requires_positive_mn() && val <= 0 {
                continue;
            }
            let saved = *bind;
            if bind.set_var(s.var, val) && bind.set_col(s.col, threats[i].col) {
                used[i] = true;
                if self.assign(threats, v, slot + 1, used, bind) {
                    return true;
                }
                used[i] = false;
            }
            *bind = saved;
        }
        false
    }
}

#[derive(Clone, Copy, Default)]
struct Binding {
    m: Option<i32>,
    n: Option<i32>,
    cols: [Option<u8>; 3],
}

impl Binding {
    fn set_var(&mut self, var: Var, val: i32) -> bool {
        let slot = match var {
            Var::M => &mut self.m,
            Var::N => &mut self.n,
        };
        match *slot {
            Some(x) => x == val,
            None => {
                *slot = Some(val);
                true
            }
        }
    }
    fn set_col(&mut self, col: ColVar, c: u8) -> bool {
        let slot = &mut self.cols[col as usize];
        match *slot {
            Some(x) => x == c,
            None => {
                *slot = Some(c);
                true
            }
        }
    }
    fn holds(&self, cond: &Cond) -> bool {
        match *cond {
            Cond::ColsDiffer(a, b) => self.cols[a as usize] != self.cols[b as usize],
            Cond::Less(a, b) => {
                let (m, n) = (self.m.unwrap_or(0), self.n.unwrap_or(0));
                a.eval(m, n) < b.eval(m, n)
            }
        }
    }
}

/// The lemmas of one version, in the note's order.
pub fn lemmas(v: Version) -> &'static [Lemma] {
    match v {
        Version::V000 => V000,
        Version::V001 => V001,
    }
}

use ColVar::{S, S1, S2};
use Colour::{Black as B, White as W};
use Var::{M, N};

const fn t(var: Var, offset: i8, col: ColVar, colour: Colour) -> Slot {
    Slot {
        var,
        offset,
        col,
        colour,
    }
}
const fn rule(
    k: u8,
    text: &'static str,
    slots: &'static [Slot],
    conds: &'static [Cond],
    value: i8,
) -> RuleLine {
    RuleLine {
        source: Source::Rule(k),
        text,
        slots,
        conds,
        value,
        comment: None,
    }
}
const fn noted(line: RuleLine, comment: &'static str) -> RuleLine {
    RuleLine {
        comment: Some(comment),
        ..line
    }
}
const fn prose(
    k: u8,
    text: &'static str,
    slots: &'static [Slot],
    conds: &'static [Cond],
    value: i8,
    comment: &'static str,
) -> RuleLine {
    RuleLine {
        source: Source::Prose(k),
        text,
        slots,
        conds,
        value,
        comment: Some(comment),
    }
}
const DIFF: &[Cond] = &[Cond::ColsDiffer(S1, S2)];
const NONE: &[Cond] = &[];
const fn lemma(
    version: Version,
    id: &'static str,
    claim: &'static str,
    lines: &'static [RuleLine],
) -> Lemma {
    Lemma {
        version,
        id,
        claim,
        lines,
    }
}

/// Seed 000: rows from 0, (VII) m,n > 0.
static V000: &[Lemma] = &[
    lemma(Version::V000, "1.1", "eine einzige ungerade Drohung (r,s,B): Schwarz gewinnt", &[
        rule(1, "u( (2*m-1, s, B) ) = -1", &[t(M, -1, S, B)], NONE, -1),
    ]),
    lemma(Version::V000, "1.2", "eine einzige gerade Drohung (r,s,W): Weiß gewinnt", &[
        rule(1, "u( (2*m, s, W) ) = 1", &[t(M, 0, S, W)], NONE, 1),
    ]),
    lemma(Version::V000, "1.3", "eine einzige gerade Drohung (r,s,B): unentschieden", &[
        rule(1, "u( (2*m, s, B) ) = 0", &[t(M, 0, S, B)], NONE, 0),
    ]),
    lemma(Version::V000, "1.4", "eine einzige ungerade Drohung (r,s,W): unentschieden", &[
        rule(1, "u( (2*m-1, s, W) ) = 0", &[t(M, -1, S, W)], NONE, 0),
    ]),
    lemma(Version::V000, "2.1", "zwei schwarze Drohungen in einer Spalte, mindestens eine ungerade: Schwarz gewinnt", &[
        rule(1, "u( (2*m-1,s,B), (2*n-1,s,B) ) = -1", &[t(M, -1, S, B), t(N, -1, S, B)], NONE, -1),
        rule(2, "u( (2*m-1,s,B), (2*n,s,B) ) = -1", &[t(M, -1, S, B), t(N, 0, S, B)], NONE, -1),
        noted(
            rule(3, "u( (2*m,s,B), (2*n-1,s,B) ) = -1", &[t(M, 0, S, B), t(N, -1, S, B)], NONE, -1),
            "as a set (u is a function of the threat set D, (III)) this is the same pattern as rule 2 with m and n swapped; only the prose's r1 < r2 orders them",
        ),
    ]),
    lemma(Version::V000, "2.2", "zwei weiße Drohungen in einer Spalte, mindestens eine gerade: Weiß gewinnt", &[
        rule(1, "u( (2*m,s,W), (2*n,s,W) ) = 1", &[t(M, 0, S, W), t(N, 0, S, W)], NONE, 1),
        rule(2, "u( (2*m,s,W), (2*n-1,s,W) ) = 1", &[t(M, 0, S, W), t(N, -1, S, W)], NONE, 1),
        noted(
            rule(3, "u( (2*m-1,s,W), (2*n,s,W) ) = 1", &[t(M, -1, S, W), t(N, 0, S, W)], NONE, 1),
            "as a set (u is a function of the threat set D, (III)) this is the same pattern as rule 2 with m and n swapped; only the prose's r1 < r2 orders them",
        ),
    ]),
    lemma(Version::V000, "2.2a", "(unnumbered, after 2.2, 'Analog zu 1.3 und 1.4') zwei gerade schwarze / zwei ungerade weiße Drohungen in derselben Spalte: nutzlos", &[
        rule(1, "u( (2*m,s,B), (2*n,s,B) ) = 0", &[t(M, 0, S, B), t(N, 0, S, B)], NONE, 0),
        rule(2, "u( (2*m-1,s,W), (2*n-1,s,W) ) = 0", &[t(M, -1, S, W), t(N, -1, S, W)], NONE, 0),
    ]),
    lemma(Version::V000, "2.3", "zwei ungerade schwarze Drohungen, s1 != s2: Schwarz gewinnt", &[
        rule(1, "u( (2*m-1,s1,B), (2*n-1,s2,B) ) = -1    mit s1 != s2", &[t(M, -1, S1, B), t(N, -1, S2, B)], DIFF, -1),
    ]),
    lemma(Version::V000, "2.4", "zwei gerade weiße Drohungen, s1 != s2: Weiß gewinnt", &[
        rule(1, "u( (2*m,s1,W), (2*n,s2,W) ) = 1    mit s1 != s2", &[t(M, 0, S1, W), t(N, 0, S2, W)], DIFF, 1),
    ]),
    lemma(Version::V000, "2.5", "eine ungerade und eine gerade schwarze Drohung, s1 != s2: Schwarz gewinnt", &[
        rule(1, "u( (2*m-1,s1,B), (2*n,s2,B) ) = -1   mit s1 != s2", &[t(M, -1, S1, B), t(N, 0, S2, B)], DIFF, -1),
        noted(
            rule(2, "u( (2*m,s1,B), (2*n-1,s2,B) ) = -1   mit s1 != s2", &[t(M, 0, S1, B), t(N, -1, S2, B)], DIFF, -1),
            "as a set (u is a function of the threat set D, (III)) this is the same pattern as rule 1 with m, n and s1, s2 swapped",
        ),
    ]),
    lemma(Version::V000, "2.6", "eine gerade und eine ungerade weiße Drohung, s1 != s2: Weiß gewinnt", &[
        rule(1, "u( (2*m,s1,W), (2*n-1,s2,W) ) = 1    mit s1 != s2", &[t(M, 0, S1, W), t(N, -1, S2, W)], DIFF, 1),
        noted(
            rule(2, "u( (2*m-1,s1,W), (2*n,s2,W) ) = 1    mit s1 != s2", &[t(M, -1, S1, W), t(N, 0, S2, W)], DIFF, 1),
            "as a set (u is a function of the threat set D, (III)) this is the same pattern as rule 1 with m, n and s1, s2 swapped",
        ),
    ]),
    lemma(Version::V000, "2.7", "zwei gerade schwarze Drohungen, s1 != s2: Schwarz gewinnt", &[
        rule(1, "u( (2*m,s1,B), (2*n,s2,B) ) = -1   mit s1 != s2", &[t(M, 0, S1, B), t(N, 0, S2, B)], DIFF, -1),
    ]),
    lemma(Version::V000, "2.8", "zwei ungerade weiße Drohungen (ohne Spaltenbedingung): unentschieden", &[
        noted(
            rule(1, "u( (2*m-1,s1,W), (2*n-1,s2,W) ) = 0", &[t(M, -1, S1, W), t(N, -1, S2, W)], NONE, 0),
            "no 'mit s1 != s2' here nor in the prose: read literally the line also covers one column (as 2.2a rule 2 does)",
        ),
    ]),
    lemma(Version::V000, "2.9", "gerade weiße und ungerade schwarze Drohung in einer Spalte: die niedrigere gewinnt", &[
        noted(
            rule(1, "Regel u( (2*m, s, W), (2*n-1, s, B) ) = 1      falls 2*m-1 < 2*n", &[t(M, 0, S, W), t(N, -1, S, B)],
                &[Cond::Less(Lin { m: 2, n: 0, c: -1 }, Lin { m: 0, n: 2, c: 0 })], 1),
            "condition compares 2*m-1 with 2*n, not the rows 2*m and 2*n-1: it also holds for m = n, where Black's threat lies directly below White's (the prose says the lower one wins)",
        ),
        noted(
            rule(2, "Regel u( (2*m, s, W), (2*n-1, s, B) ) = -1     falls 2*m-1 > 2*n", &[t(M, 0, S, W), t(N, -1, S, B)],
                &[Cond::Less(Lin { m: 0, n: 2, c: 0 }, Lin { m: 2, n: 0, c: -1 })], -1),
            "same shifted condition; together with rule 1 it still covers every case once",
        ),
        prose(1, "(prose) u( (2*m,s,W), (2*n-1,s,B) ) = 1 if 2*m < 2*n-1 (the lower threat wins)", &[t(M, 0, S, W), t(N, -1, S, B)],
            &[Cond::Less(Lin { m: 2, n: 0, c: 0 }, Lin { m: 0, n: 2, c: -1 })], 1,
            "the prose claim with the rows themselves compared; its proof also says 'Falls r2 > r1' where r2 < r1 is meant"),
        prose(2, "(prose) u( (2*m,s,W), (2*n-1,s,B) ) = -1 if 2*m > 2*n-1 (the lower threat wins)", &[t(M, 0, S, W), t(N, -1, S, B)],
            &[Cond::Less(Lin { m: 0, n: 2, c: -1 }, Lin { m: 2, n: 0, c: 0 })], -1,
            "the prose claim with the rows themselves compared"),
    ]),
    lemma(Version::V000, "2.10", "ungerade weiße und gerade schwarze Drohung in einer Spalte: unentschieden", &[
        rule(1, "u( (2*m-1, s, W), (2*n,s, B) ) = 0", &[t(M, -1, S, W), t(N, 0, S, B)], NONE, 0),
    ]),
    lemma(Version::V000, "2.11", "ungerade weiße und ungerade schwarze Drohung in einer Spalte: Schwarz gewinnt", &[
        noted(
            rule(1, "u( (2*m-1, s, W), (2*n-1, s, B) ) = -1", &[t(M, -1, S, W), t(N, -1, S, B)], NONE, -1),
            "the proof parries the white odd threat 'nach 1.3'; the single odd white threat is lemma 1.4",
        ),
    ]),
    lemma(Version::V000, "2.12", "gerade weiße und gerade schwarze Drohung in einer Spalte: Weiß gewinnt", &[
        noted(
            rule(1, "u( (2*m, s, W), (2*n, s, W) ) = 1", &[t(M, 0, S, W), t(N, 0, S, W)], NONE, 1),
            "TYPO in the seed: the rule has two white threats (a repeat of 2.2 rule 1); the lemma is about (r1,s,W), (r2,s,B)",
        ),
        prose(1, "(prose) u( (2*m,s,W), (2*n,s,B) ) = 1", &[t(M, 0, S, W), t(N, 0, S, B)], NONE, 1,
            "the lemma's statement: one even white and one even black threat in the same column"),
    ]),
    lemma(Version::V000, "2.13", "ungerade weiße und gerade schwarze Drohung, s1 != s2: unentschieden", &[
        noted(
            rule(1, "u( (2*m-1, s1, W), (2*n, s2, B) ) = 0      mit s1 != s2", &[t(M, -1, S1, W), t(N, 0, S2, B)], DIFF, 0),
            "the proof names the key cell [r2-1,s1] where [r2-1,s2] is meant",
        ),
    ]),
    lemma(Version::V000, "2.14", "gerade weiße und ungerade schwarze Drohung, s1 != s2: Weiß gewinnt", &[
        rule(1, "u( (2*m, s1, W), (2*n-1, s2, B) ) = 1      mit s1 != s2", &[t(M, 0, S1, W), t(N, -1, S2, B)], DIFF, 1),
    ]),
    lemma(Version::V000, "2.15", "ungerade weiße und ungerade schwarze Drohung, s1 != s2: Schwarz gewinnt", &[
        noted(
            rule(1, "u( (2*m-1, s1, W), (2*n-1, s2, B) ) = -1", &[t(M, -1, S1, W), t(N, -1, S2, B)], NONE, -1),
            "the rule lacks the prose's 's1 != s2', so it also covers one column (= 2.11) and one cell threatened by both; the proof calls Black's odd threat 'gerade'",
        ),
        prose(1, "(prose) u( (2*m-1,s1,W), (2*n-1,s2,B) ) = -1 mit s1 != s2", &[t(M, -1, S1, W), t(N, -1, S2, B)], DIFF, -1,
            "the lemma's statement: 'in verschiedenen Spalten, d.h. s1!=s2'"),
    ]),
    lemma(Version::V000, "2.16", "gerade weiße und gerade schwarze Drohung, s1 != s2: unentschieden", &[
        noted(
            rule(1, "u( (2*m, s1, W), (2*n, s2, B) ) = 0", &[t(M, 0, S1, W), t(N, 0, S2, B)], NONE, 0),
            "the rule lacks the prose's 's1 != s2', so it also covers one column, where 2.12's prose claims a white win",
        ),
        prose(1, "(prose) u( (2*m,s1,W), (2*n,s2,B) ) = 0 mit s1 != s2", &[t(M, 0, S1, W), t(N, 0, S2, B)], DIFF, 0,
            "the lemma's statement: 'in verschiedenen Spalten, d.h. s1!=s2'"),
    ]),
];

/// Seed 001: rows from 1, no (VII); lemmas up to 2.8.
static V001: &[Lemma] = &[
    lemma(Version::V001, "1.1", "eine einzige gerade Drohung (r,s,B): Schwarz gewinnt", &[
        rule(1, "u( (2*m, s, B) ) = -1", &[t(M, 0, S, B)], NONE, -1),
    ]),
    lemma(Version::V001, "1.2", "eine einzige ungerade Drohung (r,s,W): Weiß gewinnt", &[
        rule(1, "u( (2*m-1, s, W) ) = 1", &[t(M, -1, S, W)], NONE, 1),
    ]),
    lemma(Version::V001, "1.3", "eine einzige ungerade Drohung (r,s,B): unentschieden", &[
        rule(1, "u( (2*m-1, s, B) ) = 0", &[t(M, -1, S, B)], NONE, 0),
    ]),
    lemma(Version::V001, "1.4", "eine einzige gerade Drohung (r,s,W): unentschieden", &[
        rule(1, "u( (2*m, s, W) ) = 0", &[t(M, 0, S, W)], NONE, 0),
    ]),
    lemma(Version::V001, "2.1", "zwei schwarze Drohungen in einer Spalte, mindestens eine gerade: Schwarz gewinnt", &[
        rule(1, "u( (2*m,s,B), (2*n,s,B) ) = -1", &[t(M, 0, S, B), t(N, 0, S, B)], NONE, -1),
        rule(2, "u( (2*m,s,B), (2*n-1,s,B) ) = -1", &[t(M, 0, S, B), t(N, -1, S, B)], NONE, -1),
        noted(
            rule(3, "u( (2*m-1,s,B), (2*n,s,B) ) = -1", &[t(M, -1, S, B), t(N, 0, S, B)], NONE, -1),
            "as a set (u is a function of the threat set D, (III)) this is the same pattern as rule 2 with m and n swapped; only the prose's r1 < r2 orders them",
        ),
    ]),
    lemma(Version::V001, "2.2", "zwei weiße Drohungen in einer Spalte, mindestens eine ungerade: Weiß gewinnt", &[
        rule(1, "u( (2*m-1,s,W), (2*n-1,s,W) ) = 1", &[t(M, -1, S, W), t(N, -1, S, W)], NONE, 1),
        rule(2, "u( (2*m-1,s,W), (2*n,s,W) ) = 1", &[t(M, -1, S, W), t(N, 0, S, W)], NONE, 1),
        noted(
            rule(3, "u( (2*m,s,W), (2*n-1,s,W) ) = 1", &[t(M, 0, S, W), t(N, -1, S, W)], NONE, 1),
            "as a set (u is a function of the threat set D, (III)) this is the same pattern as rule 2 with m and n swapped; only the prose's r1 < r2 orders them",
        ),
    ]),
    lemma(Version::V001, "2.2a", "(unnumbered, after 2.2, 'Analog zu 1.3 und 1.4') zwei ungerade schwarze / zwei gerade weiße Drohungen in derselben Spalte: nutzlos", &[
        rule(1, "u( (2*m-1,s,B), (2*n-1,s,B) ) = 0", &[t(M, -1, S, B), t(N, -1, S, B)], NONE, 0),
        rule(2, "u( (2*m,s,W), (2*n,s,W) ) = 0", &[t(M, 0, S, W), t(N, 0, S, W)], NONE, 0),
    ]),
    lemma(Version::V001, "2.3", "zwei gerade schwarze Drohungen, s1 != s2: Schwarz gewinnt", &[
        rule(1, "u( (2*m,s1,B), (2*n,s2,B) ) = -1    mit s1 != s2", &[t(M, 0, S1, B), t(N, 0, S2, B)], DIFF, -1),
    ]),
    lemma(Version::V001, "2.4", "zwei ungerade weiße Drohungen, s1 != s2: Weiß gewinnt", &[
        rule(1, "u( (2*m-1,s1,W), (2*n-1,s2,W) ) = 1    mit s1 != s2", &[t(M, -1, S1, W), t(N, -1, S2, W)], DIFF, 1),
    ]),
    lemma(Version::V001, "2.5", "eine gerade und eine ungerade schwarze Drohung, s1 != s2: Schwarz gewinnt", &[
        rule(1, "u( (2*m,s1,B), (2*n-1,s2,B) ) = -1   mit s1 != s2", &[t(M, 0, S1, B), t(N, -1, S2, B)], DIFF, -1),
        noted(
            rule(2, "u( (2*m-1,s1,B), (2*n,s2,B) ) = -1   mit s1 != s2", &[t(M, -1, S1, B), t(N, 0, S2, B)], DIFF, -1),
            "as a set (u is a function of the threat set D, (III)) this is the same pattern as rule 1 with m, n and s1, s2 swapped",
        ),
    ]),
    lemma(Version::V001, "2.6", "eine gerade und eine ungerade weiße Drohung, s1 != s2: (prose) Schwarz gewinnt / (rules) Weiß gewinnt", &[
        rule(1, "u( (2*m,s1,W), (2*n-1,s2,W) ) = 1    mit s1 != s2", &[t(M, 0, S1, W), t(N, -1, S2, W)], DIFF, 1),
        noted(
            rule(2, "u( (2*m-1,s1,W), (2*n,s2,W) ) = 1    mit s1 != s2", &[t(M, -1, S1, W), t(N, 0, S2, W)], DIFF, 1),
            "as a set (u is a function of the threat set D, (III)) this is the same pattern as rule 1 with m, n and s1, s2 swapped",
        ),
        prose(1, "(prose) u( (2*m,s1,W), (2*n-1,s2,W) ) = -1 mit s1 != s2 ('so gewinnt Schwarz')", &[t(M, 0, S1, W), t(N, -1, S2, W)], DIFF, -1,
            "TYPO in the seed: the statement and proof say Schwarz wins two white threats; the rule lines say 1 (White)"),
        prose(2, "(prose) u( (2*m-1,s1,W), (2*n,s2,W) ) = -1 mit s1 != s2 ('so gewinnt Schwarz')", &[t(M, -1, S1, W), t(N, 0, S2, W)], DIFF, -1,
            "TYPO in the seed, as prose 1"),
    ]),
    lemma(Version::V001, "2.7", "zwei ungerade schwarze Drohungen in verschiedenen Spalten: Schwarz gewinnt", &[
        noted(
            rule(1, "u( (2*m-1,s1,B), (2*n-1,s2,B) ) = -1", &[t(M, -1, S1, B), t(N, -1, S2, B)], NONE, -1),
            "version 001 dropped 'mit s1 != s2' (000 has it): read literally the line also covers one column, where 2.2a rule 1 says 0",
        ),
        prose(1, "(prose) u( (2*m-1,s1,B), (2*n-1,s2,B) ) = -1 mit s1 != s2", &[t(M, -1, S1, B), t(N, -1, S2, B)], DIFF, -1,
            "the lemma's statement: 'in verschiedenen Spalten'"),
    ]),
    lemma(Version::V001, "2.8", "zwei gerade weiße Drohungen (ohne Spaltenbedingung): unentschieden", &[
        noted(
            rule(1, "u( (2*m,s1,W), (2*n,s2,W) ) = 0", &[t(M, 0, S1, W), t(N, 0, S2, W)], NONE, 0),
            "no column condition here nor in the prose: also covers one column (as 2.2a rule 2 does)",
        ),
    ]),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn th(col: u8, row: u8, colour: Colour) -> Threat {
        Threat::new(col, row, colour)
    }

    #[test]
    fn versions_swap_parity() {
        // physical row 3 (fourth from the bottom): odd in 000, even in 001; Black wins by 1.1 in both
        let d = [th(2, 3, B)];
        let l000 = &lemmas(Version::V000)[0].lines[0];
        let l001 = &lemmas(Version::V001)[0].lines[0];
        assert!(l000.matches(&d, Version::V000));
        assert!(l001.matches(&d, Version::V001));
        assert!(!l000.matches(&d, Version::V001));
    }

    #[test]
    fn column_conditions_are_literal() {
        let find = |v: Version, id: &str| lemmas(v).iter().find(|l| l.id == id).unwrap();
        let same = [th(2, 1, W), th(2, 3, B)];
        let diff = [th(2, 1, W), th(4, 3, B)];
        let l215 = find(Version::V000, "2.15");
        // rule 1 has no condition: matches both; the prose needs s1 != s2
        assert!(l215.lines[0].matches(&same, Version::V000));
        assert!(l215.lines[0].matches(&diff, Version::V000));
        assert!(!l215.lines[1].matches(&same, Version::V000));
        assert!(l215.lines[1].matches(&diff, Version::V000));
        // 2.11 uses one column variable: same column only
        let l211 = find(Version::V000, "2.11");
        assert!(l211.lines[0].matches(&same, Version::V000));
        assert!(!l211.lines[0].matches(&diff, Version::V000));
    }

    #[test]
    fn lemma_2_9_conditions_as_written() {
        let l = lemmas(Version::V000)
            .iter()
            .find(|l| l.id == "2.9")
            .unwrap();
        // Black odd at row 3 directly below White even at row 4 (m = n = 2)
        let adjacent = [th(1, 4, W), th(1, 3, B)];
        assert!(l.lines[0].matches(&adjacent, Version::V000)); // literal: 2m-1 = 3 < 2n = 4
        assert!(!l.lines[1].matches(&adjacent, Version::V000));
        assert!(!l.lines[2].matches(&adjacent, Version::V000)); // prose: 4 < 3 false
        assert!(l.lines[3].matches(&adjacent, Version::V000)); // prose: lower (Black) wins
    }

    #[test]
    fn every_line_has_a_sound_shape() {
        for v in Version::ALL {
            for l in lemmas(v) {
                assert!(!l.lines.is_empty());
                for line in l.lines {
                    assert!(matches!(line.slots.len(), 1 | 2), "{} {}", l.id, line.text);
                    assert!((-1..=1).contains(&line.value));
                }
            }
        }
        assert_eq!(lemmas(Version::V000).len(), 21);
        assert_eq!(lemmas(Version::V001).len(), 13);
    }
}
