//! The web page in a real browser: headless Chromium (Debian's `chromium`) loads the page
//! served by `zugzwang serve`, plays moves by clicking the board (the page's scripted clicks
//! dispatch click events on the same targets a user clicks), and the values the page shows
//! must be the command line's; a screenshot of each is kept. Ignored by default, since it
//! needs Chromium: see the README's "See it" section for the command.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_zugzwang");

/// `zugzwang serve` on a free port; killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Server {
    let mut child = Command::new(BIN)
        .args(["serve", "--addr", "127.0.0.1:0", "--budget", "60s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("zugzwang serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("serving on ")
        .expect("the server says where")
        .trim_end_matches('/')
        .to_string();
    Server { child, url }
}

fn chromium(args: &[&str]) -> String {
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=60000",
        ])
        .args(args)
        .output()
        .expect("chromium is installed (apt-get install chromium)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The rows of the page's move table: (move, score, value).
fn shown_values(dom: &str) -> Vec<(String, i64, String)> {
    let attr = |tag: &str, name: &str| {
        let start = tag.find(&format!("{name}=\""))? + name.len() + 2;
        Some(tag[start..start + tag[start..].find('"')?].to_string())
    };
    dom.split("<tr")
        .skip(1)
        .filter_map(|row| {
            let tag = &row[..row.find('>')?];
            Some((
                attr(tag, "data-move")?,
                attr(tag, "data-score")?.parse().ok()?,
                attr(tag, "data-value")?,
            ))
        })
        .collect()
}

/// The command line's analysis: (move, score, value).
fn cli_values(game: &str, moves: &str) -> Vec<(String, i64, String)> {
    let out = Command::new(BIN)
        .args(["analyze", game, moves, "--json", "--quiet", "--mem", "512M"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["move_scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["score"].as_i64().unwrap(),
                m["value"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
#[ignore = "needs Chromium: apt-get install chromium"]
fn the_page_shows_the_command_lines_values_after_clicks() {
    let server = serve();
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    // (game, starting moves as in the URL, clicks, all moves as the command line takes them)
    let sogo =
        "a2 c2 b3 c4 b2 a1 c3 d1 a3 d4 c1 b3 b4 a1 a3 c1 a3 b1 d1 a2 d1 a1 c2 c2 b4 a3 c3 c2";
    let cases = [
        (
            "connect4",
            "5554224333234511764415115".to_string(),
            "6,1,3",
            "5554224333234511764415115613".to_string(),
        ),
        (
            "sogo",
            sogo.replace(' ', "+"),
            "a4,b2",
            format!("{sogo} a4 b2"),
        ),
    ];
    for (game, start, clicks, all) in cases {
        let url = format!("{}/?game={game}&moves={start}&clicks={clicks}", server.url);
        let dom = chromium(&["--dump-dom", &url]);
        assert!(
            dom.contains("data-state=\"ready\""),
            "{game}: the page never settled"
        );
        let shown = shown_values(&dom);
        assert!(!shown.is_empty(), "{game}: no values shown");
        assert_eq!(
            shown,
            cli_values(game, &all),
            "{game} after clicking {clicks}"
        );
        // after the clicks the address holds the position (the script rewrites it)
        let shot = shots.join(format!("page-{game}.png"));
        let shot_arg = format!("--screenshot={}", shot.display());
        chromium(&[&shot_arg, "--window-size=1000,1000", &url]);
        assert!(std::fs::metadata(&shot).unwrap().len() > 10_000);
        println!(
            "{game}: {} moves shown as the command line; screenshot {}",
            shown.len(),
            shot.display()
        );
    }
}
