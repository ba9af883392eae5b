//! The job-level search against plain minimax and the local solver, with workers that die,
//! reports that come twice, and runs killed and restarted from their checkpoints.

use super::transport::{Event, Handler};
use super::*;
use crate::game::{Cube, Game, Player, Rules};
use crate::search::reference::minimax;
use crate::solver::{Mode, Question};
use crate::util::random_play::careful_positions;
use std::time::Duration;

fn request(spec: GameSpec, position: &str, table: Option<&std::path::Path>) -> Request {
    let mut r = Request::new(spec, position);
    r.config.engine = Engine::Pn;
    r.config.mode = Mode::Weak;
    r.config.mem_bytes = 32 << 20;
    r.table = table.map(|p| p.to_path_buf());
    r
}

fn settings(budget: u64, policy: Policy) -> JobSettings {
    JobSettings {
        budget,
        policy,
        ..JobSettings::default()
    }
}

fn prove(r: &Request, s: JobSettings, workers: usize) -> Result<Proved, SolveError> {
    prove_locally(r, s, workers, &Arc::new(Control::new()))
}

/// `count` random games of `plies` moves on a `w` x `h` board that nobody has won yet, as
/// move strings (jobs name positions by their start's text, as users write it).
fn connect4_openings(w: u32, h: u32, plies: usize, count: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    while out.len() < count {
        let mut moves = String::new();
        for _ in 0..plies {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            moves.push(char::from(b'1' + (seed % w as u64) as u8));
        }
        let Ok(g) = crate::game::Connect4::from_moves(w, h, &moves) else {
            continue;
        };
        if !g.last_mover_won() && g.winning_moves() == 0 {
            out.push(moves);
        }
    }
    out
}

/// Tiny budgets (many jobs, deep master trees), one to three workers, both policies: the value
/// is minimax's on small Connect Four boards and late positions of every 4x4x4 rule set.
#[test]
fn distributed_values_are_minimax() {
    let c4 = GameSpec::Connect4 {
        width: 5,
        height: 4,
    };
    let mut n = 0;
    for (i, moves) in connect4_openings(5, 4, 8, 16).iter().enumerate() {
        let g = crate::game::Connect4::from_moves(5, 4, moves).unwrap();
        let want = minimax(&g).signum();
        let policy = [Policy::VirtualWin, Policy::VirtualLoss][i % 2];
        let got = prove(&request(c4, moves, None), settings(16, policy), 1 + i % 3);
        assert_eq!(got.unwrap().score, want, "{moves}");
        n += 1;
    }
    for rules in Rules::ALL {
        let spec = GameSpec::Cube(rules);
        for (i, g) in careful_positions(Cube::new(rules), 9, 6, 3).enumerate() {
            let want = minimax(&g).signum();
            let policy = [Policy::VirtualLoss, Policy::VirtualWin][i % 2];
            let got = prove(
                &request(spec, &g.position_text(), None),
                settings(8, policy),
                2,
            );
            assert_eq!(got.unwrap().score, want, "{rules:?} {}", g.position_text());
            n += 1;
        }
    }
    assert_eq!(n, 16 + 6 * Rules::ALL.len());
}

/// Sogo presets (shipped in verify/data) of up to about 100,000 local nodes: the distributed
/// value is the local solver's, with one and two workers.
#[test]
fn distributed_values_are_the_local_solvers_on_presets() {
    let spec = GameSpec::Cube(Rules::Sogo);
    for preset in [
        "0x0000042000808e38:0x00000040046031c1",
        "0x00000001000114d5:0x000100000200cb28",
        "0x0000802042023068:0x800002008021c203",
        "0x000000003240d204:0x000000400028206b",
    ] {
        let r = request(spec, preset, None);
        let local = crate::solver::solve(&r, &Control::new()).unwrap().score;
        for workers in [1, 2] {
            let p = prove(&r, settings(1 << 10, Policy::VirtualWin), workers).unwrap();
            assert_eq!(p.score, local, "{preset}, {workers} workers");
            assert!(p.stats.jobs >= 1 || p.stats.workers == 0);
        }
    }
}

/// Runs a worker that panics on its `fail_on`-th job (and a healthy one beside it).
fn dying_transport(
    spec: GameSpec,
    cfg: &SolverConfig,
    session: u64,
    fail_on: u64,
) -> ThreadTransport {
    let cfg = cfg.clone();
    ThreadTransport::spawn(2, move |i| -> Handler {
        let mut w = JobWorker::<Cube>::new(spec, &cfg, session);
        let mut jobs = 0;
        Box::new(move |bytes: &[u8]| {
            jobs += 1;
            if i == 0 && jobs == fail_on {
                panic!("worker 0 dies on purpose (test)");
            }
            w.handle(bytes)
        })
    })
}

/// A worker that dies mid-run: its job goes to the other one, and the value stands.
#[test]
fn a_dead_workers_job_is_issued_again() {
    let spec = GameSpec::Cube(Rules::Sogo);
    let preset = "0x00000001000114d5:0x000100000200cb28";
    let r = request(spec, preset, None);
    let local = crate::solver::solve(&r, &Control::new()).unwrap().score;
    let session = session_id(spec, &r.config, preset);
    let mut t = dying_transport(spec, &r.config, session, 3);
    let p = prove_with(
        &r,
        &r.config,
        settings(256, Policy::VirtualWin),
        &mut t,
        None,
        &Control::new(),
    )
    .unwrap();
    assert_eq!(p.score, local);
    // the jobs it had out: one, or two (two job slots a worker)
    assert!((1..=2).contains(&p.stats.reissued), "{:?}", p.stats);
}

/// Delivers every report twice (and one report of another session): the copies are never
/// accepted, the foreign one's worker is dropped, the value stands.
struct Echo {
    inner: ThreadTransport,
    pending: Vec<Event>,
    foreign_sent: bool,
}

impl Transport for Echo {
    fn workers(&self) -> usize {
        self.inner.workers()
    }
    fn send(&mut self, worker: usize, bytes: Vec<u8>) -> Result<(), String> {
        self.inner.send(worker, bytes)
    }
    fn receive(&mut self, timeout: Duration) -> Option<Event> {
        if let Some(e) = self.pending.pop() {
            return Some(e);
        }
        let e = self.inner.receive(timeout)?;
        if let Event::Message { worker, bytes } = &e {
            self.pending.push(Event::Message {
                worker: *worker,
                bytes: bytes.clone(),
            });
            if !self.foreign_sent && *worker == 1 {
                self.foreign_sent = true;
                let Ok(protocol::Message::Report(mut r)) = protocol::Message::decode(bytes) else {
                    panic!("a report")
                };
                r.session ^= 1;
                self.pending.push(Event::Message {
                    worker: 1,
                    bytes: protocol::Message::Report(r).encode(),
                });
            }
        }
        Some(e)
    }
    fn shut_down(&mut self) {
        self.inner.shut_down();
    }
}

#[test]
fn reports_count_once_and_only_in_their_session() {
    let spec = GameSpec::Cube(Rules::Sogo);
    let preset = "0x00000001000114d5:0x000100000200cb28";
    let r = request(spec, preset, None);
    let local = crate::solver::solve(&r, &Control::new()).unwrap().score;
    let session = session_id(spec, &r.config, preset);
    let mut t = Echo {
        inner: dying_transport(spec, &r.config, session, u64::MAX),
        pending: Vec::new(),
        foreign_sent: false,
    };
    let p = prove_with(
        &r,
        &r.config,
        settings(256, Policy::VirtualLoss),
        &mut t,
        None,
        &Control::new(),
    )
    .unwrap();
    assert_eq!(p.score, local);
    let answered = p.stats.proved + p.stats.disproved + p.stats.open;
    assert!(p.stats.stale + 1 >= answered, "{:?}", p.stats);
    assert!(t.foreign_sent);
}

/// A worker refuses a job of another session, and the master stops on such a refusal.
#[test]
fn jobs_of_another_session_are_refused() {
    let spec = GameSpec::Cube(Rules::Sogo);
    let cfg = request(spec, "", None).config;
    let mut w = JobWorker::<Cube>::new(spec, &cfg, 1);
    let job = protocol::Job {
        session: 2,
        id: 9,
        attacker: Player::First,
        position: "a1".into(),
        moves: vec![2],
        budget: 10,
        thresholds: crate::search::proof::Numbers::UNLIMITED,
    };
    let r = w.run(&job).unwrap();
    assert!(
        matches!(r.outcome, protocol::Outcome::Refused(ref why) if why.contains("another session"))
    );
    let bad = protocol::Job {
        session: 1,
        position: "z9".into(),
        ..job.clone()
    };
    assert!(matches!(
        w.run(&bad).unwrap().outcome,
        protocol::Outcome::Refused(_)
    ));
    // a move that is not playable (not one bit; a full column's) is refused too
    for moves in [vec![3], vec![1 << 48; 5]] {
        let bad = protocol::Job {
            session: 1,
            moves,
            ..job.clone()
        };
        assert!(matches!(
            w.run(&bad).unwrap().outcome,
            protocol::Outcome::Refused(_)
        ));
    }
}

/// A run killed after a few jobs (its checkpoint and store kept) and started again, several
/// times: the same value as one run from scratch, less work after each restart than from
/// scratch, and a store whose walk justifies every stored value.
#[test]
fn killed_runs_restart_from_their_checkpoint() {
    let spec = GameSpec::Cube(Rules::Sogo);
    let preset = "0x00000001000114d5:0x000100000200cb28";
    let scratch_dir = tempfile::tempdir().unwrap();
    let s = settings(256, Policy::VirtualWin);
    let whole = prove(
        &request(spec, preset, Some(scratch_dir.path())),
        s.clone(),
        1,
    )
    .unwrap();
    let n = whole.stats.proved + whole.stats.disproved + whole.stats.open;
    assert!(n >= 6, "enough jobs to kill in between: {n}");
    assert!(
        !checkpoint::path_in(scratch_dir.path()).exists(),
        "decided: no checkpoint"
    );
    let dir = tempfile::tempdir().unwrap();
    let r = request(spec, preset, Some(dir.path()));
    let mut kills = 0;
    let mut seed = 0x9e37_79b9_u64;
    let last = loop {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let limit = 1 + (seed >> 33) % (n / 3).max(1);
        let run = prove(
            &r,
            JobSettings {
                job_limit: (kills < 3).then_some(limit),
                ..s.clone()
            },
            1,
        );
        match run {
            Ok(p) => break p,
            Err(SolveError::Stopped { .. }) => {
                kills += 1;
                assert!(checkpoint::path_in(dir.path()).exists());
            }
            Err(e) => panic!("{e}"),
        }
    };
    assert_eq!(last.score, whole.score);
    assert!(kills >= 1);
    assert!(last.stats.earlier_jobs > 0, "{:?}", last.stats);
    let last_jobs = last.stats.proved + last.stats.disproved + last.stats.open;
    assert!(last_jobs < n, "resumed: {last_jobs} jobs, from scratch {n}");
    // the store re-checks: the solver answers from it, and its walk justifies its values
    let mut solver = crate::solver::Solver::new(spec, r.config.clone())
        .unwrap()
        .with_table(dir.path(), preset)
        .unwrap();
    let again = solver
        .solve(preset, Question::Value, None, &Control::new())
        .unwrap();
    assert_eq!(again.score, whole.score);
}
