//! The API over real sockets: a server on an ephemeral port, a plain HTTP/1.1 client. Every
//! solve here is either tiny (the 5x4 board) or bounded by a budget of a second or two.

use super::*;
use crate::solver::{Control, Solver, SolverConfig};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A server on 127.0.0.1 with `max_solves` slots and `budget`, kept until dropped.
struct TestServer {
    addr: SocketAddr,
    solves: Arc<Solves>,
    _runtime: tokio::runtime::Runtime,
}

fn server(max_solves: usize, budget: Duration) -> TestServer {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let solves = Arc::new(Solves::new(
        SolveLimits {
            max_solves,
            budget,
            mem_bytes: 16 << 20,
            threads: 1,
            table: None,
        },
        None,
    ));
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    runtime.spawn(run(listener, solves.clone()));
    TestServer {
        addr,
        solves,
        _runtime: runtime,
    }
}

/// Sends a GET without reading the answer.
fn send(addr: SocketAddr, path: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    s
}

/// Reads a whole answer: status, content type, body.
fn receive(mut s: TcpStream) -> (u16, String, String) {
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a head");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let ctype = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type: ")
                .map(str::to_string)
        })
        .unwrap_or_default();
    (status, ctype, body.to_string())
}

fn get(addr: SocketAddr, path: &str) -> (u16, serde_json::Value) {
    let (status, ctype, body) = receive(send(addr, path));
    assert!(ctype.starts_with("application/json"), "{path}: {ctype}");
    (status, serde_json::from_str(&body).unwrap())
}

fn status_of(t: &TestServer) -> serde_json::Value {
    get(t.addr, "/api/status").1
}

const EMPTY_7X6: &str = "/api/analyze?game=connect4&moves=";

#[test]
fn solve_and_analyze_answer_with_the_command_lines_fields() {
    let t = server(2, Duration::from_secs(10));
    let (code, v) = get(t.addr, "/api/solve?game=connect4&size=5x4&moves=12");
    assert_eq!(code, 200, "{v}");
    // the fields and values of the library's Solution, which `--json` prints
    let config = SolverConfig {
        mem_bytes: 16 << 20,
        threads: 1,
        ..SolverConfig::for_game(GameSpec::Connect4 {
            width: 5,
            height: 4,
        })
    };
    let spec = GameSpec::Connect4 {
        width: 5,
        height: 4,
    };
    let mut solver = Solver::new(spec, config).unwrap();
    let want = solver
        .solve("12", Question::Value, None, &Control::new())
        .unwrap();
    let want = serde_json::to_value(&want).unwrap();
    let keys = |v: &serde_json::Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(keys(&v), keys(&want));
    for field in [
        "game",
        "size",
        "moves",
        "position",
        "ply",
        "score",
        "value",
        "best_moves",
    ] {
        assert_eq!(v[field], want[field], "{field}");
    }
    let (code, a) = get(t.addr, "/api/analyze?game=connect4&size=5x4&moves=12");
    assert_eq!(code, 200);
    let scores = a["move_scores"].as_array().unwrap();
    assert_eq!(scores.len(), 5, "every legal move");
    let best = scores.iter().map(|m| m["score"].as_i64().unwrap()).max();
    assert_eq!(best, a["score"].as_i64());
    // the 4x4x4 games: a finished game answers without search; moves with spaces as '+'
    let (code, v) = get(
        t.addr,
        "/api/analyze?game=qubic&moves=a11+a12+b11+b12+c11+c12+d11",
    );
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["game_over"], true);
    assert_eq!(v["value"], "loss");
    let (code, v) = get(
        t.addr,
        "/api/board?game=qubic&moves=a11+a12+b11+b12+c11+c12+d11",
    );
    assert_eq!((code, &v["result"]), (200, &serde_json::json!("won")));
    let (code, v) = get(t.addr, "/api/board?game=sogo&moves=a1+b2");
    assert_eq!(v["result"], serde_json::Value::Null);
    assert_eq!(code, 200);
    assert_eq!(v["ply"], 2);
    assert!(v["svg"].as_str().unwrap().contains("data-move=\"d4\""));
    let (code, ctype, page) = receive(send(t.addr, "/"));
    assert_eq!(code, 200);
    assert!(ctype.starts_with("text/html"));
    assert!(page.contains("/api/analyze") && page.contains("moves-table"));
}

#[test]
fn bad_input_gets_400_and_one_line() {
    let t = server(1, Duration::from_secs(5));
    for path in [
        "/api/solve",
        "/api/solve?moves=44",
        "/api/solve?game=chess",
        "/api/analyze?game=connect4&size=20x20",
        "/api/analyze?game=connect4&size=7",
        "/api/analyze?game=sogo&size=7x6",
        "/api/solve?game=connect4&moves=48",
        "/api/solve?game=connect4&moves=4444444",
        "/api/solve?game=connect4&moves=12121212",
        "/api/solve?game=connect4&moves=4%00",
        "/api/solve?game=sogo&moves=e9",
        "/api/solve?game=qubic&moves=a11+a11",
        "/api/solve?game=sogo&moves=0x1:0x1",
        "/api/board?game=qubic&moves=zz",
        "/api/progress",
    ] {
        let (code, v) = get(t.addr, path);
        assert_eq!(code, 400, "{path}: {v}");
        let e = v["error"].as_str().expect("an error line");
        assert!(!e.is_empty() && !e.contains('\n'), "{path}: {e}");
    }
    let long = format!("/api/solve?game=connect4&moves={}", "1".repeat(2000));
    assert_eq!(get(t.addr, &long).0, 400);
    let (code, v) = get(t.addr, "/api/nothing");
    assert_eq!(code, 404);
    assert!(v["error"].is_string());
    // nothing was solved, and the server still answers
    assert_eq!(status_of(&t)["started"], 0);
    assert_eq!(
        get(t.addr, "/api/solve?game=connect4&size=5x4&moves=1").0,
        200
    );
}

#[test]
fn an_undecided_position_is_said_so_within_the_budget() {
    let t = server(1, Duration::from_millis(400));
    let start = Instant::now();
    let (code, v) = get(t.addr, EMPTY_7X6);
    assert_eq!(code, 200);
    assert_eq!(v["decided"], false, "{v}");
    assert_eq!(v["reason"], "time budget");
    assert!(v["message"].as_str().unwrap().starts_with("not decided"));
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(status_of(&t)["timed_out"], 1);
}

#[test]
fn the_server_keeps_serving_while_solves_run_and_bounds_them() {
    let t = server(1, Duration::from_millis(1500));
    let long = send(t.addr, EMPTY_7X6);
    // wait until the solve holds the one slot
    let deadline = Instant::now() + Duration::from_secs(5);
    while status_of(&t)["running"] != 1 {
        assert!(Instant::now() < deadline, "the solve never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    // other requests are answered at once
    let quick = Instant::now();
    assert_eq!(get(t.addr, "/api/board?game=connect4&moves=44").0, 200);
    assert_eq!(get(t.addr, "/api/solve?game=connect4&moves=9").0, 400);
    assert!(
        quick.elapsed() < Duration::from_millis(500),
        "{:?}",
        quick.elapsed()
    );
    // a second solve waits for the slot: never two at once
    let second = std::thread::spawn({
        let addr = t.addr;
        move || get(addr, "/api/solve?game=connect4&size=5x4&moves=3")
    });
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(status_of(&t)["running"], 1);
    assert_eq!(receive(long).0, 200);
    let (code, v) = second.join().unwrap();
    // the slot freed with a little of the budget left: answered, or honestly undecided
    assert!(code == 200 || code == 503, "{code} {v}");
    // with two slots, two small solves run side by side
    let t2 = server(2, Duration::from_secs(10));
    let handles: Vec<_> = (1..=4)
        .map(|c| {
            let addr = t2.addr;
            std::thread::spawn(move || {
                get(
                    addr,
                    &format!("/api/analyze?game=connect4&size=5x4&moves={c}"),
                )
            })
        })
        .collect();
    for h in handles {
        let (code, v) = h.join().unwrap();
        assert_eq!(code, 200, "{v}");
        assert_eq!(v["move_scores"].as_array().unwrap().len(), 5);
    }
    assert_eq!(status_of(&t2)["solved"], 4);
}

#[test]
fn a_solve_is_cancelled_when_asked_or_when_its_client_leaves() {
    let t = server(1, Duration::from_secs(60));
    let wait_running = |job: &str| {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let (_, p) = get(t.addr, &format!("/api/progress?job={job}"));
            if p["running"] == true {
                return;
            }
            assert!(Instant::now() < deadline, "job {job} never ran");
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    // asked: the answer comes at once, undecided, reason "cancelled"
    let asked = send(t.addr, &format!("{EMPTY_7X6}&job=one"));
    wait_running("one");
    let start = Instant::now();
    let (_, c) = get(t.addr, "/api/cancel?job=one");
    assert_eq!(c["cancelled"], true);
    let (code, _, body) = receive(asked);
    assert_eq!(code, 200);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["decided"], false);
    assert_eq!(v["reason"], "cancelled");
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(get(t.addr, "/api/cancel?job=one").1["cancelled"], false);
    // the client leaves: the solve stops and frees its slot long before its 60 s budget
    let gone = send(t.addr, &format!("{EMPTY_7X6}&job=two"));
    wait_running("two");
    drop(gone);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let s = status_of(&t);
        if s["running"] == 0 && s["cancelled"] == 2 {
            break;
        }
        assert!(Instant::now() < deadline, "not cancelled: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(t.solves.running(), 0);
    // and its name is forgotten
    assert_eq!(get(t.addr, "/api/progress?job=two").1["running"], false);
    assert_eq!(
        get(t.addr, "/api/solve?game=connect4&size=5x4&moves=2").0,
        200
    );
}
