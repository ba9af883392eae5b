//! `zugzwang serve`: the web page and its JSON API on a local address.

use super::common::{human_bytes, CliError};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use zugzwang::book::{Book, BookError};
use zugzwang::serve::{SolveLimits, Solves};
use zugzwang::solver::budget::parse_duration;
use zugzwang::solver::Memory;

/// `serve [--addr 127.0.0.1:8080] [--table DIR] [--book DIR]`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on (localhost by default: the page is for this machine).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Keep what solves prove in position stores under this directory, one per game and
    /// board (DIR/connect4-7x6, DIR/sogo-4x4x4, ...).
    #[arg(long, value_name = "DIR")]
    table: Option<PathBuf>,
    /// Answer from this opening book first (made by `zugzwang book build`).
    #[arg(long, value_name = "DIR")]
    book: Option<PathBuf>,
    /// Solves running at once; further requests wait for a slot within their budget.
    #[arg(long, default_value_t = 2)]
    solves: usize,
    /// Time budget of one request: past it the answer is "not decided".
    #[arg(long, default_value = "20s", value_name = "DURATION")]
    budget: String,
    /// Table memory of each solver (at most --solves of them are kept).
    #[arg(long, default_value = "512M")]
    mem: String,
    /// Search threads of each solve.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Runs the server until the process is stopped.
pub fn run(a: &ServeArgs) -> Result<i32, CliError> {
    let addr: SocketAddr = a
        .addr
        .parse()
        .map_err(|e| CliError::BadInput(format!("--addr '{}': {e}", a.addr)))?;
    let budget =
        parse_duration(&a.budget).map_err(|e| CliError::BadInput(format!("--budget: {e}")))?;
    let mem_bytes = Memory::parse(&a.mem)
        .and_then(|m| m.resolve(512 << 20))
        .map_err(|e| CliError::BadInput(format!("--mem: {e}")))?;
    if a.solves == 0 || a.threads == 0 {
        return Err(CliError::BadInput(
            "--solves and --threads must be at least 1".into(),
        ));
    }
    let book = match &a.book {
        Some(dir) => Some(Arc::new(Book::open(dir).map_err(|e| match e {
            BookError::BadInput(s) => CliError::BadInput(s),
            e => CliError::Failed(e.to_string()),
        })?)),
        None => None,
    };
    let limits = SolveLimits {
        max_solves: a.solves,
        budget,
        mem_bytes,
        threads: a.threads,
        table: a.table.clone(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("starting the server: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| CliError::Failed(format!("cannot listen on {addr}: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| CliError::Failed(e.to_string()))?;
        if let Some(b) = &book {
            eprintln!(
                "book: {} {} up to ply {}, {} positions",
                b.spec().name(),
                b.spec().size(),
                b.plies(),
                b.entries()
            );
        }
        eprintln!(
            "{} solves at once, {} each, {} thread(s) each, budget {:.1} s",
            a.solves,
            human_bytes(mem_bytes),
            a.threads,
            budget.as_secs_f64()
        );
        println!("serving on http://{local}/");
        zugzwang::serve::run(listener, Arc::new(Solves::new(limits, book)))
            .await
            .map_err(|e| CliError::Failed(format!("server: {e}")))
    })?;
    Ok(0)
}
