//! Rendering an [`Audit`]: plain text for the terminal, JSON lines, and the markdown report.

use crate::audit::{is_rule, Audit, Row};
use std::fmt::Write;

fn pct(a: u64, n: u64) -> String {
    if n == 0 {
        "-".into()
    } else {
        format!("{:.2}%", 100.0 * a as f64 / n as f64)
    }
}

fn value_word(v: i8) -> &'static str {
    match v {
        1 => "White wins (+1)",
        -1 => "Black wins (-1)",
        _ => "draw (0)",
    }
}

/// The plain-text listing: per version, lemma and line, each oracle's tallies and the smallest
/// counterexample of every disagreement.
pub fn text(a: &Audit) -> String {
    let mut s = String::new();
    let mut last = (String::new(), String::new());
    for pair in a.rows.chunks(2) {
        let (ab, re) = (&pair[0], &pair[1]);
        if (ab.version.clone(), ab.lemma.clone()) != last {
            last = (ab.version.clone(), ab.lemma.clone());
            let _ = writeln!(s, "\n== version {}  lemma {}", ab.version, ab.lemma);
        }
        let _ = writeln!(s, "  {}: {}", ab.rule, ab.text);
        if let Some(c) = &ab.comment {
            let _ = writeln!(s, "    note: {c}");
        }
        for r in [ab, re] {
            let extra = match (r.tried_i, r.agree_i) {
                (Some(t), a) => format!("   [(I) holds: tried {t} agree {}]", a.unwrap_or(0)),
                _ => String::new(),
            };
            let _ = writeln!(
                s,
                "    {:<8} tried {:>8}  agree {:>8}  disagree {:>8}{}",
                r.oracle, r.tried, r.agree, r.disagree, extra
            );
        }
        for r in [ab, re] {
            if let Some(c) = &r.counterexample {
                let _ = writeln!(
                    s,
                    "    smallest counterexample ({}): threats {}, {} empty, {} to move{}{}\n      rule: {}   exact: {}",
                    r.oracle,
                    c.threats,
                    c.empty,
                    c.to_move,
                    c.moves.as_ref().map(|m| format!(", moves {m}")).unwrap_or_default(),
                    match c.i_holds {
                        Some(true) => ", (I) holds",
                        Some(false) => ", (I) fails",
                        None => "",
                    },
                    value_word(c.rule_value),
                    value_word(c.oracle_value)
                );
                for line in c.board.lines() {
                    let _ = writeln!(s, "    {line}");
                }
            }
        }
    }
    s.push('\n');
    s.push_str(&summary(a));
    s
}

/// One JSON object per row (JSON lines), nothing else on the line stream.
pub fn json(a: &Audit) -> String {
    let mut s = String::new();
    for r in &a.rows {
        s.push_str(&serde_json::to_string(r).expect("rows serialise"));
        s.push('\n');
    }
    s
}

/// The run's measurements as a few plain lines (printed after the listing, or on stderr when
/// stdout carries JSON).
pub fn summary(a: &Audit) -> String {
    let st = &a.stats;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "abstract: {} threat sets, {} cases, {} states expanded, {:.1} s",
        st.abstract_sets, st.abstract_cases, st.abstract_nodes, st.abstract_seconds
    );
    let _ = writeln!(
        s,
        "threat sets whose exact abstract value depends on the starting filling: {}; threat rows of (I)-positions (physical 0..5): {:?}",
        st.start_dependent_sets, st.i_threat_rows
    );
    let _ = writeln!(
        s,
        "real: {} games, {} positions solved, {} solver nodes, {:.1} s; (I)-positions cross-checked with the abstract oracle: {} ({} disagree)",
        st.games, st.real_positions, st.real_nodes, st.real_seconds, st.consistency_checked, st.consistency_failed
    );
    s
}

fn verdict(r: &Row) -> String {
    if r.tried == 0 {
        "vacuous (no case)".into()
    } else if r.disagree == 0 {
        "holds".into()
    } else {
        format!("**fails** ({} of {})", r.disagree, r.tried)
    }
}

fn real_cell(r: &Row) -> String {
    if r.tried == 0 {
        return "-".into();
    }
    let (ti, ai) = (r.tried_i.unwrap_or(0), r.agree_i.unwrap_or(0));
    let (tn, an) = (r.tried - ti, r.agree - ai);
    format!(
        "(I): {ai}/{ti} = {}; not (I): {an}/{tn} = {}",
        pct(ai, ti),
        pct(an, tn)
    )
}

fn breaking(r: &Row) -> String {
    match &r.counterexample {
        None => String::new(),
        Some(c) => format!(
            "{} ({} empty, {} to move): claims {:+}, exact {:+}",
            c.threats, c.empty, c.to_move, c.rule_value, c.oracle_value
        ),
    }
}

/// The markdown report (`verify/REPORT.md`).
pub fn markdown(a: &Audit, command: &str, commit: &str) -> String {
    let mut s = String::new();
    let st = &a.stats;
    let _ = writeln!(
        s,
        "# Audit of the threat-parity lemmas (seeds 000 and 001)\n"
    );
    let _ = writeln!(
        s,
        "Produced by `{command}` at commit `{commit}`. Everything below was computed by that run; \
         nothing is hand-entered.\n"
    );
    let _ = writeln!(
        s,
        "- **Abstract oracle**: exact search of the game in which only the declared threat cells win \
         (assumption (I)), 7x6 with gravity, side to move from the parity of empty cells. Exhaustive \
         for one and two threats: every column (pair), every row (pair), both colours, same/different \
         column, both orders, adjacent cells, a cell threatened by both colours, every admissible \
         height of the threat columns, every number of free cells elsewhere: {} threat sets, {} \
         cases, {:.1} s.\n- **Real oracle**: zugzwang's solver on positions from careful random play \
         that satisfy (V) (no threat playable): {} positions from {} games, {:.1} s; up to {} per \
         pattern class. A rule \"right on real positions\" counts agreement with the exact value; \
         `(I)` restricts to positions where no new threat can arise (there the abstract and the real \
         game coincide: {} such positions cross-checked, {} disagreements).\n- A case is read \
         literally: a line applies to every threat set its pattern and conditions match (see \
         `src/threats/rules.rs`). `u` is White's (first player's) view.\n",
        st.abstract_sets,
        st.abstract_cases,
        st.abstract_seconds,
        st.real_positions,
        st.games,
        st.real_seconds,
        a.options.samples,
        st.consistency_checked,
        st.consistency_failed
    );
    let _ = writeln!(
        s,
        "- Does the exact abstract value depend on more than the threat set? Threat sets whose value \
         differs between two of their starting fillings: {} (of {} exhaustive sets plus {} sampled \
         3-/4-threat sets).\n- Threat rows (physical, 0 = bottom) in real positions satisfying (I) \
         and (V): {:?}. (I) demands that every line with two or more empty cells hold both colours; \
         the vertical line from a threat's key cell upwards (or the one ending at the top row) then \
         forces every threat onto the top row with only its key cell empty below it, so on real \
         boards the lemmas about other rows can never meet (I): there they are heuristics, measured \
         in the `without (I)` column.\n",
        st.start_dependent_sets,
        st.abstract_sets,
        2 * a.options.eval_sets,
        st.i_threat_rows
    );
    let _ = writeln!(s, "## Headline\n");
    let total = a.rows.chunks(2).filter(|p| p[0].version != "eval").count();
    let failing: Vec<&[Row]> = a
        .rows
        .chunks(2)
        .filter(|p| p[0].version != "eval" && p[0].disagree > 0)
        .collect();
    let _ = writeln!(
        s,
        "Of {total} audited lines (rule lines and differing prose claims, both versions), {} fail \
         on the abstract oracle; all others hold on every case:\n",
        failing.len()
    );
    for p in &failing {
        let _ = writeln!(
            s,
            "- {} lemma {} {} `{}`: fails in {} of {} cases, e.g. {}",
            p[0].version,
            p[0].lemma,
            p[0].rule,
            p[0].text.trim(),
            p[0].disagree,
            p[0].tried,
            breaking(&p[0])
        );
    }
    for p in a.rows.chunks(2).filter(|p| p[0].version == "eval") {
        let _ = writeln!(
            s,
            "- evaluator, {} threats: abstract {}/{} agree{}",
            p[0].lemma.trim_start_matches("n="),
            p[0].agree,
            p[0].tried,
            if p[0].disagree > 0 {
                format!("; fails e.g. {}", breaking(&p[0]))
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(s);
    for v in ["000", "001"] {
        let rows: Vec<&[Row]> = a.rows.chunks(2).filter(|p| p[0].version == v).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(s, "## Version {v}\n");
        // per-lemma verdict
        let _ = writeln!(
            s,
            "| lemma | verdict (rule lines, abstract) | breaking case |"
        );
        let _ = writeln!(s, "|---|---|---|");
        let mut lemma_ids: Vec<&str> = Vec::new();
        for p in &rows {
            if !lemma_ids.contains(&p[0].lemma.as_str()) {
                lemma_ids.push(&p[0].lemma);
            }
        }
        for id in lemma_ids {
            let mine: Vec<&&[Row]> = rows.iter().filter(|p| p[0].lemma == id).collect();
            let failing: Vec<&&&[Row]> = mine
                .iter()
                .filter(|p| is_rule(&p[0]) && p[0].disagree > 0)
                .collect();
            let prose_fail: Vec<&&&[Row]> = mine
                .iter()
                .filter(|p| !is_rule(&p[0]) && p[0].disagree > 0)
                .collect();
            let has_prose = mine.iter().any(|p| !is_rule(&p[0]));
            let mut verdict = if failing.is_empty() {
                "holds".to_string()
            } else {
                format!(
                    "**fails** ({})",
                    failing
                        .iter()
                        .map(|p| p[0].rule.clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            if has_prose {
                verdict.push_str(if prose_fail.is_empty() {
                    "; prose claim holds"
                } else {
                    "; prose claim **fails**"
                });
            }
            let case = failing
                .first()
                .or(prose_fail.first())
                .map(|p| format!("{}: {}", p[0].rule, breaking(&p[0])))
                .unwrap_or_default();
            let _ = writeln!(s, "| {id} | {verdict} | {case} |");
        }
        let _ = writeln!(s, "\n| lemma | line | claims | abstract: tried / disagree | verdict | real: agree/tried with (I); without (I) |");
        let _ = writeln!(s, "|---|---|---|---|---|---|");
        for p in &rows {
            let (ab, re) = (&p[0], &p[1]);
            let _ = writeln!(
                s,
                "| {} | {} `{}` | {} | {} / {} | {} | {} |",
                ab.lemma,
                ab.rule,
                ab.text.trim(),
                ab.value.map(|v| format!("{v:+}")).unwrap_or_default(),
                ab.tried,
                ab.disagree,
                verdict(ab),
                real_cell(re)
            );
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(
        s,
        "## General evaluator (note's closing idea: n threats -> n-1)\n"
    );
    let _ = writeln!(s, "| threats | abstract: agree/tried | real: agree/tried with (I); without (I) | smallest abstract counterexample |");
    let _ = writeln!(s, "|---|---|---|---|");
    for p in a.rows.chunks(2).filter(|p| p[0].version == "eval") {
        let _ = writeln!(
            s,
            "| {} | {}/{} = {} | {} | {} |",
            p[0].lemma,
            p[0].agree,
            p[0].tried,
            pct(p[0].agree, p[0].tried),
            real_cell(&p[1]),
            breaking(&p[0])
        );
    }
    let _ = writeln!(
        s,
        "\n(3 and 4 threats: {} random threat sets per size, up to {} fillings each, abstract.)\n",
        a.options.eval_sets, a.options.eval_starts
    );
    let _ = writeln!(
        s,
        "Real positions **without (I)** (new threats may arise), the evaluator as a heuristic: \
         how many exact wins it names, and how often it claims a win that is not there.\n"
    );
    let _ = writeln!(
        s,
        "| threats | exact wins | named correctly | false win claims |"
    );
    let _ = writeln!(s, "|---|---|---|---|");
    for k in 0..4 {
        let _ = writeln!(
            s,
            "| {} | {} | {} ({}) | {} |",
            k + 1,
            st.wins_without_i[k],
            st.wins_recognised[k],
            pct(st.wins_recognised[k], st.wins_without_i[k]),
            st.false_wins[k]
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "## Notes on the seed (kept as data in `src/threats/rules.rs`)\n"
    );
    for p in a.rows.chunks(2) {
        if let Some(c) = &p[0].comment {
            let _ = writeln!(
                s,
                "- {} {} {} `{}`: {}",
                p[0].version,
                p[0].lemma,
                p[0].rule,
                p[0].text.trim(),
                c
            );
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "## Smallest counterexamples (abstract oracle)\n");
    let _ = writeln!(s, "Notation of the seed: `X` stone, `w`/`b` threat, `*` both, `-` empty; rows labelled in the version's counting.\n");
    for p in a.rows.chunks(2) {
        if let Some(c) = &p[0].counterexample {
            let _ = writeln!(
                s,
                "**{} {} {}** `{}` — threats {}, {} empty, {} to move: the line claims {}, exact {}.\n\n```\n{}```\n",
                p[0].version,
                p[0].lemma,
                p[0].rule,
                p[0].text.trim(),
                c.threats,
                c.empty,
                c.to_move,
                value_word(c.rule_value),
                value_word(c.oracle_value),
                c.board
            );
        }
    }
    let _ = writeln!(s, "## Real samples per pattern class\n");
    let _ = writeln!(
        s,
        "| class (rows counted from 1) | positions (plain quota) | positions with (I) |"
    );
    let _ = writeln!(s, "|---|---|---|");
    for (k, v) in &st.per_class {
        let i = st.per_class_i.get(k).copied().unwrap_or(0);
        let _ = writeln!(s, "| {k} | {v} | {i} |");
    }
    s
}
